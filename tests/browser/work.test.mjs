// Issue 19, point 2, for the transcript and judge modes (keep.test.mjs has
// the evidence mode): their inputs and settings survive a reload, and their
// Clear control forgets them. In Chromium, against the built www/dist/; the
// results after the reload are compared with the library's (the Node
// build). Also, in Node: the storage's packing of long texts into Blobs
// gives back exactly the text, a surrogate pair at a piece boundary
// included; and the judge panel's bounds are the library's.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { openApp } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const storage = await import(pathToFileURL(path.join(root, 'www', 'src', 'storage.js')).href);
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const WHISPER = read('www/samples/transcript/bicycle-whisper.json');
const EVALUATION = read('www/samples/transcript/bicycle-evaluation.json');
const MINUTES = read('www/samples/judge/harbour-minutes.txt');
const CLAIMS = JSON.parse(read('www/samples/judge/claims.json'));

let app;
let page;

before(async () => {
  app = await openApp('#transcript');
  page = app.page;
  await page.waitForSelector('.transcript-mode[data-state]');
});

after(async () => {
  await app?.close();
});

/** Waits until the page saved (saving follows the last edit by 400 ms), then reloads it. */
async function reload(ready) {
  await page.waitForTimeout(900);
  await page.reload();
  await page.waitForSelector(ready);
}

test('storage (Node): long texts are stored as Blobs and read back exactly, emoji across a piece boundary included', async () => {
  const cut = storage.PIECE_UNITS;
  // an emoji's two UTF-16 units straddle the first piece boundary; CJK, combining marks, CRLF around
  const long = `${'x'.repeat(cut - 1)}🚲 本日の e\u0301 “quoted”\r\n${'y'.repeat(cut)}`;
  assert.equal(long.charCodeAt(cut - 1) >= 0xd800 && long.charCodeAt(cut - 1) <= 0xdbff, true, 'a high surrogate ends the first piece');
  const record = { source: long, short: 'kept as it is', list: [{ text: long }, 3, null], flag: true };
  const packed = await storage.packed(record);
  assert.ok(packed.source instanceof Blob && packed.list[0].text instanceof Blob);
  assert.equal(packed.short, 'kept as it is');
  assert.deepEqual(await storage.unpacked(packed), record);
});

test('transcript: transcript, items, format, checks and the word-times switch survive a reload; Clear forgets them', async () => {
  const runs = () => page.$eval('.transcript-mode', (el) => Number(el.dataset.runs));
  const afterRun = (n) => page.waitForFunction((v) => Number(document.querySelector('.transcript-mode').dataset.runs) > v, n);
  let n = await runs();
  await page.fill('textarea[id^="tx-transcript"]', WHISPER);
  await afterRun(n);
  n = await runs();
  await page.fill('textarea[id^="tx-items"]', EVALUATION);
  await afterRun(n);
  n = await runs();
  await page.selectOption('select[id^="tx-format"]', 'json');
  await afterRun(n);
  await page.click('.transcript-mode details.config summary');
  n = await runs();
  await page.fill('input[data-config="min_contiguous_tokens"]', '4');
  await afterRun(n);
  await page.uncheck('input[id^="tx-word-times"]');
  const summary = await page.textContent('.transcript-mode .summary');
  const items = await page.$$eval('.tx-items > li', (lis) => lis.map((li) => li.textContent));

  // what the library says for these inputs: the page must show the same after the reload
  const t = new lib.Transcript(WHISPER, { format: 'json' });
  const evaluation = JSON.parse(EVALUATION);
  const v = t.validateEvaluation(evaluation, { ...lib.defaultTranscriptConfig(), min_contiguous_tokens: 4 });
  const passed = [...v.commendations, ...v.recommendations].filter((x) => x.passed).length;
  t.free();
  assert.match(summary, new RegExp(`: ${passed} pass, `));

  await reload('.transcript-mode[data-state="ok"]');
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), WHISPER);
  assert.equal(await page.$eval('textarea[id^="tx-items"]', (b) => b.value), EVALUATION);
  assert.equal(await page.$eval('select[id^="tx-format"]', (s) => s.value), 'json');
  assert.equal(await page.$eval('input[data-config="min_contiguous_tokens"]', (i) => i.value), '4');
  assert.equal(await page.isChecked('input[id^="tx-word-times"]'), false);
  assert.equal(await page.textContent('.transcript-mode .summary'), summary);
  assert.deepEqual(await page.$$eval('.tx-items > li', (lis) => lis.map((li) => li.textContent)), items);
  assert.match(await page.textContent('#app-status'), /Restored your last work/);

  await page.click('.transcript-mode button.clear-button');
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), '');
  assert.equal(await page.$eval('.transcript-mode', (el) => el.dataset.state), 'empty');
  assert.equal(await page.$eval('input[data-config="min_contiguous_tokens"]', (i) => i.value),
    String(lib.defaultTranscriptConfig().min_contiguous_tokens));
  await reload('.transcript-mode[data-state]');
  await page.waitForTimeout(500);
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), '');
  assert.equal(await page.$eval('textarea[id^="tx-items"]', (b) => b.value), '');
  assert.equal(await page.$eval('.transcript-mode', (el) => el.dataset.state), 'empty');
});

test('judge: the claim, the report and its sources, the jury\'s settings and ticks and the view survive a reload; Clear forgets them', async () => {
  await page.goto(`${app.server.url}index.html#judge`);
  // a first visit: the first sample, asked of the jury
  await page.waitForSelector('.claim-results[data-jury-runs="1"]');
  const claim = 'The board approved 🚲 lanes “at once”';
  await page.fill('textarea[id^="jd-claim"]', claim);
  await page.fill('input[data-setting="threshold"]', '0.7');
  await page.uncheck('.jury-panel input[data-juror="demo-lenient"]');
  await page.click('.subview-button[data-view="report"]');
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")');
  await page.waitForSelector('.report-results[data-runs="1"][data-state="ok"]');
  const report = await page.$eval('textarea[id^="jd-report"]', (b) => b.value);
  const sources = await page.$$eval('.source-item', (lis) => lis.map((li) => [li.querySelector('input').value, li.querySelector('textarea').value]));
  assert.ok(sources.length >= 2);

  await reload('.judge-mode');
  await page.waitForFunction(() => document.querySelector('#app-status').textContent.includes('Restored'));
  assert.equal(await page.$eval('.judge-mode', (el) => el.dataset.view), 'report');
  assert.equal(await page.$eval('textarea[id^="jd-report"]', (b) => b.value), report);
  assert.deepEqual(await page.$$eval('.source-item', (lis) => lis.map((li) => [li.querySelector('input').value, li.querySelector('textarea').value])), sources);
  await page.click('.subview-button[data-view="claim"]');
  assert.equal(await page.$eval('textarea[id^="jd-claim"]', (b) => b.value), claim);
  assert.equal(await page.$eval('input[data-setting="threshold"]', (i) => i.value), '0.7');
  assert.equal(await page.isChecked('.jury-panel input[data-juror="demo-lenient"]'), false);
  assert.equal(await page.isChecked('.jury-panel input[data-juror="demo-strict"]'), true);
  // steps 1 and 2 ran on the restored inputs, as the library computes them; the jury was not asked
  const c = CLAIMS[0];
  const expected = lib.checkClaim({ claim, quote: c.quote, lines: c.lines, filename: 'harbour-minutes.txt', source: MINUTES }, { threshold: 0.7 });
  const shown = await page.$eval('.claim-results', (el) => ({ ...el.dataset }));
  assert.equal(shown.verdict, expected.verdict);
  assert.equal(shown.juryRuns, '0');
  assert.equal(shown.state, 'ok');

  await page.click('.judge-mode button.clear-button');
  assert.equal(await page.$eval('textarea[id^="jd-claim"]', (b) => b.value), '');
  assert.equal(await page.$eval('input[data-setting="threshold"]', (i) => i.value), String(lib.defaultJudgeOptions().threshold));
  assert.equal(await page.isChecked('.jury-panel input[data-juror="demo-lenient"]'), true);
  assert.equal(await page.$eval('.claim-results', (el) => el.dataset.state), 'empty');
  // nothing kept: a reload is a first visit again (the first sample, asked of the jury; no report)
  await reload('.claim-results[data-jury-runs="1"]');
  assert.equal(await page.$eval('.judge-mode', (el) => el.dataset.view), 'claim');
  assert.equal(await page.$eval('textarea[id^="jd-claim"]', (b) => b.value), CLAIMS[0].claim);
  assert.equal(await page.$eval('input[data-setting="threshold"]', (i) => i.value), String(lib.defaultJudgeOptions().threshold));
  await page.click('.subview-button[data-view="report"]');
  assert.equal(await page.$eval('textarea[id^="jd-report"]', (b) => b.value), '');
  assert.equal(await page.$$eval('.source-item', (lis) => lis.length), 0);
  await page.click('.subview-button[data-view="claim"]');
});

test('judge: the settings\' ranges are the library\'s (judgeOptionBounds), none written by the page', async () => {
  const bounds = lib.judgeOptionBounds();
  const attrs = (setting) => page.$eval(`input[data-setting="${setting}"]`, (i) => [Number(i.min), Number(i.max)]);
  assert.deepEqual(await attrs('threshold'), [bounds.threshold.min, bounds.threshold.max]);
  assert.deepEqual(await attrs('contextLines'), [bounds.contextLines.min, bounds.contextLines.max]);
  assert.deepEqual(await attrs('timeout'), [bounds.timeoutMs.min / 1000, bounds.timeoutMs.max / 1000]);
  const invalid = async (setting, value) => {
    await page.fill(`input[data-setting="${setting}"]`, value);
    await page.waitForTimeout(300);
    return page.$eval(`input[data-setting="${setting}"]`, (i) => i.getAttribute('aria-invalid') === 'true');
  };
  assert.equal(await invalid('contextLines', String(bounds.contextLines.max)), false);
  assert.equal(await invalid('contextLines', String(bounds.contextLines.max + 1)), true);
  assert.equal(await invalid('timeout', String(bounds.timeoutMs.max / 1000)), false);
  assert.equal(await invalid('timeout', String(bounds.timeoutMs.max / 1000 + 1)), true);
  assert.equal(await invalid('threshold', '1.01'), true);
  assert.equal(await invalid('threshold', '1'), false);
  await page.click('.judge-mode button.clear-button');
});

test('clean: no request left 127.0.0.1, no page errors', () => {
  assert.deepEqual(app.foreignRequests, []);
  assert.deepEqual(app.pageErrors, []);
});
