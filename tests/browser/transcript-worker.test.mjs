// Issue 19, point 1, for the transcript mode (spec 001): the library's work
// (reading the transcript, validating the items) runs in a Web Worker
// (www/src/modes/transcript/worker-engine.js). In Chromium, against the
// built www/dist/:
//   - a one-hour transcript (a real Whisper word-level JSON, read from
//     ../shared/data/asr/, repeated with its times shifted to make an hour:
//     about 11,000 timed words) with 200 evaluation items, opened as files
//     ("Load file…": the transcript is held out of its box), keeps the page
//     responsive: a PerformanceObserver for long tasks, from before the first
//     file until the result is on screen and the work is saved, sees no task
//     over 50 ms, measured once (no second attempt);
//   - what the page shows is the library's (the Node build of the package,
//     the same Transcript and validateEvaluation, computes it): each item's
//     status and checks, each highlight's text, the transcript's text;
//   - Cancel stops a long run at once (the worker is replaced), and the next
//     edit runs on a fresh worker.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { openApp, testClean } from './app.mjs';
import { longTasksSince, observeLongTasks } from './long-tasks.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);

/** The longest main-thread task allowed while a run is in flight (the RAIL "long task"), as in worker.test.mjs. */
const LONG_TASK_MS = 50;
const CHECK_LABEL = { contiguous_match: 'contiguity', length: 'length', timestamp_locality: 'locality' };

/**
 * Real ASR output (Whisper, word timings), kept outside the repository in
 * the shared data folder beside it (../shared/data/README.md; from a
 * worktree, ../../shared/data/).
 */
const WHISPER = [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
  .map((dir) => path.join(dir, 'data', 'asr', 'whisper-timestamped', 'smartphone.mp3.words.json'))
  .find((file) => fs.existsSync(file));
const haveData = WHISPER !== undefined;

/**
 * The real transcript repeated `times` times, each copy's times shifted by
 * the length of those before (about three minutes a copy: 20 copies are an
 * hour), as Whisper's verbose JSON with word timings.
 */
function longTranscript(times) {
  const one = JSON.parse(fs.readFileSync(WHISPER, 'utf8'));
  const span = Math.ceil(one.segments.at(-1).end) + 1;
  const segments = [];
  for (let k = 0; k < times; k++) {
    for (const s of one.segments) {
      const shift = (x) => Math.round((x + k * span) * 100) / 100;
      segments.push({
        id: segments.length, start: shift(s.start), end: shift(s.end), text: s.text,
        words: s.words.map((w) => ({ text: w.text, start: shift(w.start), end: shift(w.end), confidence: w.confidence })),
      });
    }
  }
  return { language: one.language, text: segments.map((s) => s.text).join(''), segments };
}

/**
 * `n` evaluation items over the transcript's segments, spread over the
 * hour: most quote eight words of a segment at its time (they pass), every
 * fifth has a word changed (not found: its longest partial run), every
 * seventh cites a time ten minutes off (locality), every eleventh quotes
 * too many words (length).
 */
function manyItems(transcript, n) {
  const segs = transcript.segments.filter((s) => s.words.length >= 10);
  const items = [];
  for (let i = 0; i < n; i++) {
    const s = segs[Math.floor((i * segs.length) / n)];
    const words = s.words.map((w) => w.text);
    let quote = words.slice(1, 9).join(' ');
    let ts = Math.round(s.start);
    if (i % 5 === 4) quote = `${words.slice(1, 5).join(' ')} zanzibar ${words.slice(6, 9).join(' ')}`;
    if (i % 7 === 6) ts = (ts + 600) % 3600;
    if (i % 11 === 10) quote = words.join(' ') + ' ' + words.join(' ');
    items.push({ text: `Item ${i + 1} about segment ${s.id}.`, evidence_quote: quote, evidence_timestamp: ts });
  }
  return { commendations: items.slice(0, n / 2), recommendations: items.slice(n / 2) };
}

const files = fs.mkdtempSync(path.join(os.tmpdir(), 'tx-worker-test-'));
after(() => fs.rmSync(files, { recursive: true, force: true }));
function fileOf(name, text) {
  const file = path.join(files, name);
  fs.writeFileSync(file, text);
  return file;
}

const app = {};
let page;
before(async () => {
  Object.assign(app, await openApp('#transcript'));
  page = app.page;
  await page.waitForSelector('.transcript-mode[data-state]');
});
after(async () => {
  await app.close?.();
});

const state = () => page.$eval('.transcript-mode', (el) => ({
  runs: Number(el.dataset.runs), builds: Number(el.dataset.transcriptBuilds), state: el.dataset.state, running: el.dataset.running === 'true',
}));
/** Resolves once `n` runs have finished (polled every 50 ms: a poller in every frame is work of the test's own). */
const afterRuns = (n, timeout = 120_000) =>
  page.waitForFunction((k) => Number(document.querySelector('.transcript-mode').dataset.runs) >= k, n, { timeout, polling: 50 });

test('a one-hour transcript with 200 items, opened as files: no long task, the library\'s results', { skip: !haveData && 'no ../shared/data/' }, async () => {
  const transcript = longTranscript(20);
  const evaluation = manyItems(transcript, 200);
  const text = JSON.stringify(transcript);
  const t = new lib.Transcript(text, { format: 'json' });
  const v = t.validateEvaluation(evaluation, null);
  const exp = { text: t.text, words: t.words.length, segments: t.segments.length };
  t.free();
  assert.ok(exp.words > 10_000 && transcript.segments.at(-1).end > 3500, `an hour: ${exp.words} words`);
  const entries = [...v.commendations.map((x, i) => [`c${i}`, x]), ...v.recommendations.map((x, i) => [`r${i}`, x])];
  assert.ok(entries.some(([, x]) => x.passed) && entries.some(([, x]) => !x.passed), 'items pass and fail');

  const { runs } = await state();
  await observeLongTasks(page);
  await page.setInputFiles('input[type="file"][id^="tx-transcript-file"]', fileOf('hour.json', text));
  await afterRuns(runs + 1);
  await page.setInputFiles('input[type="file"][id^="tx-items-file"]', fileOf('items.json', JSON.stringify(evaluation)));
  await afterRuns(runs + 2);
  const longTasks = await longTasksSince(page);
  console.log(`transcript, one hour (${exp.words} words, ${exp.segments} segments), 200 items: long tasks ${JSON.stringify(longTasks)}`);
  assert.equal((await state()).state, 'ok');
  assert.equal(await page.isVisible('.transcript-mode .held-text'), true, 'the transcript is held out of its box');
  assert.deepEqual(longTasks.filter((ms) => ms > LONG_TASK_MS), [], 'no main-thread task over 50 ms');

  // the library's results, item by item
  const shown = await page.$$eval('li.tx-item', (lis) => lis.map((el) => ({
    key: el.dataset.key, status: el.dataset.status,
    checks: [...el.querySelectorAll('.tx-check')].map((c) => [c.dataset.check, c.dataset.status, c.dataset.reason]),
  })));
  assert.deepEqual(shown.map((x) => x.key), entries.map(([k]) => k));
  for (const [i, [key, x]] of entries.entries()) {
    assert.equal(shown[i].status, x.passed ? 'pass' : 'fail', key);
    assert.deepEqual(shown[i].checks, Object.keys(CHECK_LABEL).map((c) => [c, x[c].status, x[c].reason]), key);
  }
  const marks = await page.$$eval('.tx-view mark.hl', (ms) => {
    const out = {};
    for (const m of ms) for (const key of m.dataset.items.split(' ')) out[key] = (out[key] ?? '') + m.textContent;
    return out;
  });
  for (const [key, x] of entries) {
    const want = x.matched?.text ?? x.longest_partial_match?.text;
    if (want) assert.equal(marks[key], want, `${key}: highlighted text`);
  }
  const viewText = await page.$$eval('.tx-view .tx-text', (cells) => cells.map((c) => c.textContent).join(''));
  assert.equal(viewText, exp.text, 'the view shows the transcript text exactly');
});

test('Cancel stops a long run at once; the next edit runs on a fresh worker', { skip: !haveData && 'no ../shared/data/' }, async () => {
  // the same hour with many more items (each checked over the hour): a run of seconds
  const transcript = longTranscript(20);
  const evaluation = manyItems(transcript, 2000);
  const { runs } = await state();
  await page.$eval('textarea[id^="tx-items"]', (box, text) => { box.value = text; }, JSON.stringify(evaluation));
  await page.setInputFiles('input[type="file"][id^="tx-transcript-file"]', fileOf('hour2.json', JSON.stringify(transcript)));
  await page.waitForSelector('.transcript-mode .progress-row:not([hidden]) .cancel-button', { timeout: 60_000 });
  const shown = await page.$eval('.transcript-mode .progress-text', (el) => el.textContent);
  assert.match(shown, /^(Checking items: \d+ of 2000…|Reading the transcript…)$/);
  assert.equal((await state()).running, true, 'data-running while the run is in flight');
  const t0 = Date.now();
  await page.click('.transcript-mode .cancel-button');
  await afterRuns(runs + 1, 5000);
  const cancelledIn = Date.now() - t0;
  const s = await state();
  assert.equal(s.state, 'cancelled');
  assert.equal(s.running, false);
  assert.ok(cancelledIn < 2000, `cancelled in ${cancelledIn} ms`);
  assert.match(await page.textContent('.transcript-mode .summary'), /Cancelled/);
  // the next edit: a small evaluation on the same transcript, checked by a fresh worker (which reads the transcript again)
  const small = manyItems(transcript, 4);
  await page.fill('textarea[id^="tx-items"]', JSON.stringify(small));
  await afterRuns(runs + 2);
  const after = await state();
  assert.equal(after.state, 'ok');
  assert.equal(after.builds, s.builds + 1, 'the fresh worker built the Transcript again');
  assert.equal(await page.$$eval('li.tx-item', (lis) => lis.length), 4);
});

testClean(app);
