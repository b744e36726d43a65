// The transcript mode (spec 001) in a real browser: Debian's Chromium driven
// by playwright-core against the built www/dist/ served on 127.0.0.1 by a
// server this test starts and stops. Run: `npm run test:browser`.
//
// The expected results come from the package itself (its Node build: the
// same Transcript, validateEvaluation, previewBudget), so the browser must
// show exactly what the library computes:
//   - the transcript's text is shown exactly (rows per segment with their
//     times; each timed word's start drawn by CSS, outside the text);
//   - each item's highlighted text is exactly the library's matched text, and
//     at word level the highlighted words are exactly its matched words; a
//     quote not found shows its longest partial run;
//   - each failing item shows the check that failed (contiguity, length,
//     locality), the library's reason code and message; the bundled sample
//     fails each of the three checks at least once;
//   - clicking an item scrolls to its words and focuses them; Enter on a word
//     marks its item;
//   - the SRT sample (segment level) highlights across cue lines and carries
//     the reduced-precision note;
//   - "Load file…" and dropped files: the transcript's format follows the
//     file's extension; a dropped .json is the items when it reads as items;
//   - the format selector, bad JSON, per-item errors, a list of items, the
//     thresholds (re-validation without a new Transcript) and typing;
//   - nothing is requested from another origin and the page logs no error.
// Also in Node: the layout (rows and pieces tile the text; each highlight's
// pieces spell its text) and the items parser.
// Screenshots: target/browser/transcript-whisper.png, transcript-srt.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { outDir, root } from './build.mjs';
import { openApp } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const www = (rel) => pathToFileURL(path.join(root, 'www', 'src', 'modes', 'transcript', rel)).href;
const { layoutRows, collectHighlights, clock } = await import(www('layout.js'));
const { parseItems, InputError } = await import(www('items.js'));

const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const SAMPLES = {
  whisper: read('www/samples/transcript/bicycle-whisper.json'),
  srt: read('www/samples/transcript/bicycle.srt'),
};
const EVALUATION = JSON.parse(read('www/samples/transcript/bicycle-evaluation.json'));
const CHECK_LABEL = { contiguous_match: 'contiguity', length: 'length', timestamp_locality: 'locality' };

/** The library's view of a sample: the transcript and each item's validation, keyed as the page keys them. */
function expected(text, evaluation = EVALUATION, config = null) {
  const t = new lib.Transcript(text);
  const v = t.validateEvaluation(evaluation, config);
  const entries = [
    ...v.commendations.map((validation, i) => ({ key: `c${i}`, validation, item: evaluation.commendations[i] })),
    ...v.recommendations.map((validation, i) => ({ key: `r${i}`, validation, item: evaluation.recommendations[i] })),
  ];
  const data = { text: t.text, words: t.words, segments: t.segments, timing: t.timing, metrics: t.metrics, format: t.format };
  t.free();
  return { ...data, entries };
}

let app;
let page;
let foreignRequests = [];
let pageErrors = [];

before(async () => {
  app = await openApp('#transcript');
  ({ page, foreignRequests, pageErrors } = app);
  await page.waitForSelector('.transcript-mode[data-state]');
});

after(async () => {
  await app?.close();
});

const state = () => page.$eval('.transcript-mode', (el) => ({
  runs: Number(el.dataset.runs), builds: Number(el.dataset.transcriptBuilds), state: el.dataset.state,
}));

async function runsAfter(before) {
  await page.waitForFunction((n) => Number(document.querySelector('.transcript-mode').dataset.runs) > n, before);
  return state();
}

async function loadSample(id) {
  const { runs } = await state();
  await page.selectOption('select[id^="tx-sample"]', id);
  await page.click('.transcript-mode button:text-is("Load sample")');
  const s = await runsAfter(runs);
  assert.equal(s.state, 'ok');
  return s;
}

/** Each item key's highlighted text (its marks' text in DOM order), words and role. */
function highlights() {
  return page.$$eval('.tx-view mark.hl', (marks) => {
    const out = {};
    for (const m of marks) {
      for (const key of m.dataset.items.split(' ')) {
        out[key] ??= { text: '', words: [], role: m.dataset.role, marks: 0 };
        out[key].text += m.textContent;
        out[key].marks += 1;
        for (const w of m.querySelectorAll('.w')) {
          const i = Number(w.dataset.w);
          if (out[key].words.at(-1) !== i) out[key].words.push(i);
        }
      }
    }
    return out;
  });
}

/** Every item's highlight, the transcript text, the rows and their times, and the checks as the library says. */
async function assertMatchesLibrary(exp) {
  const viewText = await page.$$eval('.tx-view .tx-text', (cells) => cells.map((c) => c.textContent).join(''));
  assert.equal(viewText, exp.text, 'the view shows the transcript text exactly');
  const times = await page.$$eval('.tx-view .tx-row .tx-clock', (els) => els.map((e) => e.textContent));
  assert.deepEqual(times, exp.segments.map((s) => `${clock(s.start)}–${clock(s.end)}`));
  const got = await highlights();
  for (const { key, validation: v } of exp.entries) {
    if (v.matched) {
      assert.equal(exp.text.slice(v.matched.span.utf16_start, v.matched.span.utf16_end), v.matched.text);
      assert.equal(got[key]?.text, v.matched.text, `${key}: highlighted text`);
      assert.equal(got[key].role, 'match');
      if (v.matched.word_start !== null) {
        const words = Array.from({ length: v.matched.word_end - v.matched.word_start }, (_, i) => v.matched.word_start + i);
        assert.deepEqual(got[key].words, words, `${key}: highlighted words`);
      }
    } else if (v.longest_partial_match) {
      assert.equal(got[key]?.text, v.longest_partial_match.text, `${key}: partial run`);
      assert.equal(got[key].role, 'partial');
    } else {
      assert.equal(got[key], undefined, `${key}: nothing to highlight`);
    }
    const li = await page.$eval(`li.tx-item[data-key="${key}"]`, (el) => ({
      status: el.dataset.status,
      checks: [...el.querySelectorAll('.tx-check')].map((c) => ({
        check: c.dataset.check, status: c.dataset.status, reason: c.dataset.reason, message: c.querySelector('.tx-check-message').textContent,
      })),
      failed: el.querySelector('.tx-failed')?.textContent ?? null,
      cls: [...el.querySelectorAll('mark')].length,
    }));
    assert.equal(li.status, v.passed ? 'pass' : 'fail', key);
    assert.deepEqual(li.checks, Object.keys(CHECK_LABEL).map((c) => ({ check: c, status: v[c].status, reason: v[c].reason, message: v[c].message })));
    if (v.passed) assert.equal(li.failed, null);
    else assert.equal(li.failed, `Failed: ${v.failed_checks.map((c) => `${CHECK_LABEL[c]} (${v[c].reason})`).join(', ')}`);
  }
  // marks are coloured by their item's outcome
  for (const { key, validation: v } of exp.entries) {
    if (!v.matched) continue;
    const cls = await page.$eval(`.tx-view mark.hl[data-items~="${key}"]`, (m) => m.className);
    if (!cls.includes('hl-overlap')) assert.match(cls, v.passed ? /hl-validated/ : /hl-failed/, key);
  }
}

test('layout (Node): rows and pieces tile the text, words are whole, each highlight spells its text', () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    const exp = expected(text);
    const hs = collectHighlights(exp.entries);
    assert.equal(hs.length, exp.entries.length, name);
    const rows = layoutRows(exp.text, exp.segments, exp.words, hs);
    assert.equal(rows.length, exp.segments.length);
    let at = 0;
    for (const row of rows) {
      assert.equal(row.start, at);
      for (const p of row.pieces) {
        assert.equal(p.start, at);
        assert.ok(p.end > p.start);
        at = p.end;
        if (p.word !== null) {
          const w = exp.words[p.word].span;
          assert.ok(w.utf16_start <= p.start && p.end <= w.utf16_end);
          assert.equal(p.wordStart, w.utf16_start === p.start);
        }
      }
      assert.equal(at, row.end);
    }
    assert.equal(at, exp.text.length);
    for (const x of hs) {
      const pieces = rows.flatMap((r) => r.pieces).filter((p) => p.highlights.includes(x));
      assert.equal(pieces.map((p) => exp.text.slice(p.start, p.end)).join(''), x.text, `${name} ${x.key}`);
    }
    // every word starts in exactly one piece
    if (exp.words.length) assert.equal(rows.flatMap((r) => r.pieces).filter((p) => p.wordStart).length, exp.words.length);
  }
  assert.equal(clock(83.44), '1:23.4');
  assert.equal(clock(59.96), '1:00.0');
});

test('items box (Node): evaluations, outcomes, lists, one item, helpful JSON errors', () => {
  const ev = parseItems(JSON.stringify(EVALUATION));
  assert.equal(ev.kind, 'evaluation');
  assert.deepEqual(ev.entries.map((e) => e.key), ['c0', 'c1', 'c2', 'c3', 'r0', 'r1', 'r2']);
  assert.equal(parseItems(JSON.stringify({ evaluation: EVALUATION, attempts: [] })).kind, 'evaluation');
  const list = parseItems('[{"evidence_quote": "a b c d e f", "evidence_timestamp": 3}, {}]');
  assert.deepEqual(list.entries.map((e) => [e.key, e.label]), [['i0', 'Item 1'], ['i1', 'Item 2']]);
  assert.equal(parseItems('{"items": [{"evidence_quote": "x"}]}').entries.length, 1);
  assert.equal(parseItems('{"evidence_quote": "x", "evidence_timestamp": 1}').entries.length, 1);
  assert.equal(parseItems('  \n').kind, 'empty');
  assert.throws(() => parseItems('{\n  "commendations": [1 2]\n}'), (e) => e instanceof InputError && e.where === 'line 2, column 23');
  assert.throws(() => parseItems('{"summary": "no items"}'), (e) => e instanceof InputError && /StructuredEvaluation/.test(e.message));
});

test('the Whisper sample: words with times, each item\'s matched words highlighted, failing checks named', async () => {
  await loadSample('whisper');
  const exp = expected(SAMPLES.whisper);
  assert.equal(exp.timing, 'word');
  await assertMatchesLibrary(exp);

  // the sample fails each of the three checks, and passes some items
  const failed = new Set(exp.entries.flatMap((e) => e.validation.failed_checks));
  assert.deepEqual([...failed].sort(), ['contiguous_match', 'length', 'timestamp_locality']);
  assert.ok(exp.entries.filter((e) => e.validation.passed).length >= 2);
  // literal expectations, independent of the library
  const got = await highlights();
  assert.equal(got.c0.text, 'She gave me three rules: look ahead, keep pedalling');
  assert.equal(got.c2.text, 'in front of strangers', 'the paraphrase: its longest partial run');
  assert.equal(await page.$eval('li.tx-item[data-key="c2"] .tx-failed', (p) => p.textContent), 'Failed: contiguity (NOT_FOUND), locality (NO_MATCH)');
  assert.equal(await page.$eval('li.tx-item[data-key="c3"] .tx-failed', (p) => p.textContent), 'Failed: contiguity (TOO_FEW_TOKENS)');
  assert.equal(await page.$eval('li.tx-item[data-key="r0"] .tx-failed', (p) => p.textContent), 'Failed: locality (OUTSIDE_WINDOW)');
  assert.equal(await page.$eval('li.tx-item[data-key="r1"] .tx-failed', (p) => p.textContent), 'Failed: length (TOO_LONG)');
  assert.match(await page.textContent('li.tx-item[data-key="r1"] .tx-check[data-check="length"]'), /the quote has 17 tokens; at most 15 are allowed/);
  // the repeated phrase: the occurrence near 90 s is the one highlighted (the other, at 27 s, belongs to c0's sentence only)
  assert.equal(exp.entries[1].validation.occurrence_count, 2);
  assert.ok(exp.entries[1].validation.matched.start_time > 88);
  assert.match(await page.textContent('li.tx-item[data-key="c1"]'), /occurrence chosen among 2/);
  // c1 and r2 share words: those marks carry both
  assert.match(await page.$eval('.tx-view mark.hl[data-items~="c1"]', (m) => `${m.dataset.items} ${m.className}`), /r2.*hl-overlap|hl-overlap.*r2/s);

  // word times: one label per timed word, drawn by CSS (not in the text), each word's start
  const labels = await page.$$eval('.tx-view .w[data-t]', (ws) => ws.map((w) => [Number(w.dataset.w), w.dataset.t]));
  assert.equal(labels.length, exp.words.filter((w) => w.start !== null).length);
  for (const [i, t] of labels) assert.equal(t, exp.words[i].start.toFixed(1));
  assert.equal(await page.$eval('.tx-view .w[data-t]', (w) => getComputedStyle(w, '::before').content), '"0.0"');
  assert.match(await page.textContent('.transcript-mode .summary'), /whisper verbose json · word timings · 15 segments · 192 words · 1:49\.4 long · 105 words\/min\. 7 items: 3 pass, 4 fail\./);
  assert.match(await page.textContent('.tx-budget'), /2 commendations and 1 recommendation pass/);
  assert.match(await page.textContent('li.tx-item[data-key="r0"]'), /Retry budget: reprompt/);
});

test('clicking an item scrolls to its words and focuses them; Enter on a word marks its item', async () => {
  await page.$eval('.tx-viewer', (v) => { v.scrollTop = 0; });
  await page.click('li.tx-item[data-key="r2"] .tx-item-button');
  const f = await page.evaluate(() => {
    const a = document.activeElement;
    const v = document.querySelector('.tx-viewer').getBoundingClientRect();
    const r = a.getBoundingClientRect();
    return {
      tag: a.tagName, items: a.dataset.items, current: a.classList.contains('is-current'),
      visible: r.top >= v.top && r.bottom <= v.bottom, scrollTop: document.querySelector('.tx-viewer').scrollTop,
      selected: document.querySelector('li.tx-item.is-selected')?.dataset.key,
    };
  });
  assert.equal(f.tag, 'MARK');
  assert.match(f.items, /\br2\b/);
  assert.ok(f.current);
  assert.ok(f.visible, 'the words are scrolled into the viewer');
  assert.ok(f.scrollTop > 0, 'the viewer scrolled');
  assert.equal(f.selected, 'r2');
  const current = await page.$$eval('.tx-view mark.is-current', (ms) => ms.map((m) => m.textContent).join(''));
  assert.equal(current, expected(SAMPLES.whisper).entries.find((e) => e.key === 'r2').validation.matched.text);
  await page.$eval('.tx-view', (v) => v.closest('.transcript-mode').scrollIntoView());
  await page.screenshot({ path: path.join(outDir, 'transcript-whisper.png'), fullPage: true });

  // keyboard: Enter on a focused mark marks its item
  await page.focus('.tx-view mark.hl[data-items="r0"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('li.tx-item.is-selected', (li) => li.dataset.key), 'r0');
});

test('the SRT sample: segment level, highlights across cue lines, the reduced-precision note', async () => {
  await loadSample('srt');
  const exp = expected(SAMPLES.srt);
  assert.equal(exp.timing, 'segment');
  assert.equal(exp.format, 'srt');
  await assertMatchesLibrary(exp);
  assert.equal(await page.$$eval('.tx-view .w', (w) => w.length), 0, 'no words without word timings');
  assert.equal(await page.$eval('.word-times-toggle', (t) => t.hidden), true);
  const got = await highlights();
  assert.equal(got.r1.text, 'Pick one thing you have avoided for years\nbecause you might look foolish.\nGive it three Saturdays');
  assert.equal(got.r1.marks, 2, 'the quote spans two cues: a mark in each row');
  assert.match(await page.textContent('.tx-notes'), /^Reduced timing precision/);
  await page.click('li.tx-item[data-key="c2"] .tx-item-button');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'transcript-srt.png'), fullPage: false });
});

test('"Load file…" opens a transcript (the format follows its extension) and an evaluation; each run is the library\'s', async () => {
  let s = await loadSample('whisper');
  const open = async (which, name, text) => {
    await page.setInputFiles(`input[type="file"][id^="${which}"]`, { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    s = await runsAfter(s.runs);
    assert.equal(s.state, 'ok', name);
  };
  const format = () => page.$eval('select[id^="tx-format"]', (x) => x.value);
  await open('tx-transcript-file', 'talk.srt', SAMPLES.srt);
  assert.equal(await format(), 'srt');
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), SAMPLES.srt);
  await assertMatchesLibrary(expected(SAMPLES.srt));
  const evaluation = { commendations: EVALUATION.commendations.slice(0, 1), recommendations: EVALUATION.recommendations.slice(0, 1) };
  await open('tx-items-file', 'evaluation.json', JSON.stringify(evaluation, null, 1));
  assert.equal(await page.$eval('textarea[id^="tx-items"]', (b) => b.value), JSON.stringify(evaluation, null, 1));
  await assertMatchesLibrary(expected(SAMPLES.srt, evaluation));
  // a file of another kind after it: the format follows it again
  await open('tx-transcript-file', 'talk.json', SAMPLES.whisper);
  assert.equal(await format(), 'json');
  await assertMatchesLibrary(expected(SAMPLES.whisper, evaluation));
});

test('dropped files: an .srt is the transcript (format SRT), an evaluation .json the items, a Whisper .json the transcript (format JSON)', async () => {
  let s = await loadSample('whisper');
  const drop = async (files) => {
    await page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const [name, body] of list) dt.items.add(new File([body], name));
      const target = document.querySelector('.transcript-mode');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    s = await runsAfter(s.runs);
    assert.equal(s.state, 'ok');
  };
  const format = () => page.$eval('select[id^="tx-format"]', (x) => x.value);
  const evaluation = { commendations: EVALUATION.commendations.slice(0, 1), recommendations: EVALUATION.recommendations.slice(0, 1) };
  // two files at once: the transcript and the items
  await drop([['talk.srt', SAMPLES.srt], ['evaluation.json', JSON.stringify(evaluation)]]);
  assert.equal(await format(), 'srt');
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), SAMPLES.srt);
  assert.equal(await page.$eval('textarea[id^="tx-items"]', (b) => b.value), JSON.stringify(evaluation));
  assert.match(await page.textContent('#app-status'), /Loaded talk\.srt, evaluation\.json/);
  await assertMatchesLibrary(expected(SAMPLES.srt, evaluation));
  // a JSON transcript is not items: it replaces the transcript, the items stay
  await drop([['talk.json', SAMPLES.whisper]]);
  assert.equal(await format(), 'json');
  assert.equal(await page.$eval('textarea[id^="tx-transcript"]', (b) => b.value), SAMPLES.whisper);
  await assertMatchesLibrary(expected(SAMPLES.whisper, evaluation));
});

test('format selector, bad input, lists of items, thresholds and typing', async () => {
  await loadSample('srt');
  let s = await state();
  // forced WebVTT on an SRT file: the library's parsing error
  await page.selectOption('select[id^="tx-format"]', 'vtt');
  s = await runsAfter(s.runs);
  assert.equal(s.state, 'error');
  assert.match(await page.textContent('.transcript-mode .problem'), /^Transcript: DOCUMENT_PARSING_ERROR: /);
  assert.equal(await page.$$eval('.tx-view mark', (m) => m.length), 0);
  await page.selectOption('select[id^="tx-format"]', 'srt');
  s = await runsAfter(s.runs);
  assert.equal(s.state, 'ok');

  // bad JSON in the items: where it is
  const itemsBox = 'textarea[id^="tx-items"]';
  await page.fill(itemsBox, '{\n  "commendations": [1 2]\n}');
  s = await runsAfter(s.runs);
  assert.equal(s.state, 'error');
  assert.match(await page.textContent('.transcript-mode .problem'), /not valid JSON.*\(line 2, column 23\)/);

  // a list of items; one without a timestamp is an error on that item only
  const items = [
    { evidence_quote: 'Give it three Saturdays, keep pedalling', evidence_timestamp: 90 },
    { evidence_quote: 'keep pedalling, and laugh when you fall' },
  ];
  await page.fill(itemsBox, JSON.stringify(items));
  s = await runsAfter(s.runs);
  assert.equal(s.state, 'ok');
  assert.deepEqual(await page.$$eval('li.tx-item', (lis) => lis.map((li) => `${li.dataset.key} ${li.dataset.status}`)), ['i0 pass', 'i1 error']);
  assert.match(await page.textContent('li.tx-item[data-key="i1"]'), /VALIDATION_ERROR.*evidence_timestamp/);
  assert.equal((await highlights()).i0.text, 'Give it three Saturdays, keep pedalling');

  // thresholds: a longer limit lets the 17-token quote through, on the same Transcript
  await page.fill(itemsBox, JSON.stringify(EVALUATION));
  s = await runsAfter(s.runs);
  await page.click('.transcript-mode details.config summary');
  await page.fill('input[data-config="max_quote_tokens"]', '20');
  const s2 = await runsAfter(s.runs);
  assert.equal(s2.builds, s.builds, 'no new Transcript for a threshold change');
  await assertMatchesLibrary(expected(SAMPLES.srt, EVALUATION, { max_quote_tokens: 20 }));
  assert.equal(await page.$eval('li.tx-item[data-key="r1"]', (li) => li.dataset.status), 'pass');
  await page.fill('input[data-config="max_quote_tokens"]', '15');
  s = await runsAfter(s2.runs);

  // typing into the transcript: a new Transcript, the highlights follow
  const box = 'textarea[id^="tx-transcript"]';
  const text = SAMPLES.srt.replace('look ahead', 'look forward');
  await page.fill(box, text);
  s = await runsAfter(s.runs);
  assert.ok(s.builds > s2.builds);
  const exp = expected(text);
  await assertMatchesLibrary(exp);
  assert.equal(exp.entries.find((e) => e.key === 'c0').validation.contiguous_match.reason, 'NOT_FOUND');
  assert.equal(await page.$eval('li.tx-item[data-key="c0"]', (li) => li.dataset.status), 'fail');
  assert.equal((await highlights()).c0.role, 'partial');
});

test('offline and clean: no request left 127.0.0.1, no page errors', () => {
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(pageErrors, []);
});
