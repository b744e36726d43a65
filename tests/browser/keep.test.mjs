// Issue 19, point 2: the evidence mode never loses work. In Chromium, against
// the built www/dist/:
//   - a malformed claim (a JSON line that is not JSON, a quote the library
//     refuses) is marked in place with its error and where it is, while every
//     other claim keeps its result, as the library gives it;
//   - the source, claims, format and thresholds survive a reload; Clear
//     forgets them (and a reload then starts empty);
//   - files dropped on the page fill the source (the format follows the
//     file's extension) or the claims box, and are validated;
//   - the format selector's Auto-detect names the format in use.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { CLAIMS_BOX, evidenceApp, SOURCE_BOX, testClean } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const SOURCE = read('www/samples/travel-notes.md');
const CLAIMS = JSON.parse(read('www/samples/travel-claims.json')).claims;

let page;
const app = evidenceApp({ onOpen: (a) => { page = a.page; } });

const validations = () => page.$eval('.evidence-mode', (el) => Number(el.dataset.validations));
const afterRun = (n) => page.waitForFunction((v) => Number(document.querySelector('.evidence-mode').dataset.validations) > v, n);
const LABEL = { VALIDATED: 'validated', LOW_CONFIDENCE: 'low confidence', AMBIGUOUS: 'ambiguous', FAILED: 'failed' };

async function fill(sel, text) {
  const n = await validations();
  await page.fill(sel, text);
  await afterRun(n);
}

const badges = () => page.$$eval('.claim-list > li', (lis) => lis.map((li) => li.querySelector('.badge').textContent));

test('a JSON line that is not JSON is marked in place; the other claims keep their results', async () => {
  await fill(SOURCE_BOX, SOURCE);
  const lines = CLAIMS.map((c) => JSON.stringify(c));
  lines[2] = `${lines[2].slice(0, -1)},`; // broken: a trailing comma instead of the closing brace
  await fill(CLAIMS_BOX, lines.join('\n'));
  const expected = lib.validateEvidence(SOURCE, { claims: CLAIMS.filter((_, i) => i !== 2) }, null)
    .validated_claims.map((r) => LABEL[r.validation_status]);
  expected.splice(2, 0, 'not valid');
  assert.deepEqual(await badges(), expected);
  const bad = await page.textContent('li.claim[data-index="2"]');
  assert.match(bad, /line 3: not valid JSON/);
  assert.match(bad, /Fix this claim in the claims box; the others keep their results/);
  assert.match(await page.textContent('.problem'), /1 claim is not valid, marked in the list \(the first at line 3/);
  // the others are highlighted as the library says
  const marked = await page.$$eval('.source-view mark.hl', (ms) => ms.flatMap((m) => m.dataset.spans.split(' ')));
  assert.ok(marked.includes('c0.m') && marked.includes('c3.m') && !marked.includes('c2.m'));
});

test('one quote per line: a quote the library refuses is marked with its line and message', async () => {
  await fill(CLAIMS_BOX, 'tiny but spotless 🧼✨\nshort\n本日のおすすめ：味噌ラーメン\n');
  assert.deepEqual(await badges(), ['validated', 'not valid', 'validated']);
  assert.match(await page.textContent('li.claim[data-index="1"]'), /line 2: quote is 5 characters, at least 10 required/);
  assert.equal(await page.$eval('.evidence-mode', (el) => el.dataset.state), 'error');
});

test('claims that are not JSON at all keep the last results on screen, marked out of date', async () => {
  const before = await badges();
  await fill(CLAIMS_BOX, '{ "claims": [ ');
  assert.match(await page.textContent('.problem'), /not valid JSON.*the results below are from the last claims that could be read/s);
  assert.deepEqual(await badges(), before);
  assert.ok(await page.$eval('.evidence-mode', (el) => el.classList.contains('is-stale')));
});

test('documents, claims, format and thresholds survive a reload; Clear forgets them', async () => {
  await fill(CLAIMS_BOX, JSON.stringify({ claims: CLAIMS }));
  let n = await validations();
  await page.selectOption('select[id^="ev-format"]', 'plain_text');
  await afterRun(n);
  await page.click('details.config summary');
  n = await validations();
  await page.fill('input[data-config="fuzzy_matching.max_edit_distance"]', '1');
  await afterRun(n);
  const shown = await badges();
  await page.waitForTimeout(800); // saved 400 ms after the last edit
  await page.reload();
  await page.waitForFunction(() => Number(document.querySelector('.evidence-mode')?.dataset.validations) > 0);
  assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), SOURCE);
  assert.equal(JSON.parse(await page.$eval(CLAIMS_BOX, (t) => t.value)).claims.length, CLAIMS.length);
  assert.equal(await page.$eval('select[id^="ev-format"]', (s) => s.value), 'plain_text');
  assert.equal(await page.$eval('input[data-config="fuzzy_matching.max_edit_distance"]', (i) => i.value), '1');
  assert.deepEqual(await badges(), shown, 'the same results after the reload');

  await page.click('button.clear-button');
  assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), '');
  assert.equal(await page.$eval('.evidence-mode', (el) => el.dataset.state), 'empty');
  await page.waitForTimeout(300);
  await page.reload();
  await page.waitForSelector('.evidence-mode[data-state]');
  await page.waitForTimeout(500);
  assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), '');
  assert.equal(await page.$eval('input[data-config="fuzzy_matching.max_edit_distance"]', (i) => i.value),
    String(lib.defaultConfig().fuzzy_matching.max_edit_distance));
});

test('dropped files fill the source (format from the extension) and the claims; Auto-detect names the format', async () => {
  const drop = async (name, text) => {
    const n = await validations();
    await page.evaluate(([fileName, body]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], fileName));
      const target = document.querySelector('.evidence-mode');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [name, text]);
    await afterRun(n);
  };
  const html = '<html><body><p>The ferry leaves at nine, <b>sharp</b>, from pier four.</p></body></html>';
  await drop('notes.html', html);
  assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), html);
  assert.equal(await page.$eval('select[id^="ev-format"]', (s) => s.value), 'html');
  await drop('claims.jsonl', `${JSON.stringify({ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'The ferry leaves at nine, sharp' })}\n`);
  const expected = new lib.Document(html, { format: 'html' })
    .validate({ claims: [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'The ferry leaves at nine, sharp' }] });
  assert.equal(expected.validated_claims[0].validation_status, 'VALIDATED');
  assert.deepEqual(await badges(), ['validated']);

  // Auto-detect says what it detected
  const n = await validations();
  await page.selectOption('select[id^="ev-format"]', 'auto');
  await afterRun(n);
  await page.waitForFunction(() => /Auto-detect \(HTML\)/.test(document.querySelector('select[id^="ev-format"] option[value="auto"]').textContent));
});

test('"Load file…" opens a source (format from its extension) and claims; a later file of another kind changes the format', async () => {
  const open = async (which, name, text) => {
    const n = await validations();
    await page.setInputFiles(`input[type="file"][id^="${which}"]`, { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await afterRun(n);
  };
  const md = '# Harbour\n\nThe *ferry* leaves at nine from pier four.\n';
  await open('ev-source-file', 'harbour.md', md);
  assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), md);
  assert.equal(await page.$eval('select[id^="ev-format"]', (s) => s.value), 'markdown');
  const claim = { id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'The ferry leaves at nine from pier four' };
  await open('ev-claims-file', 'claims.json', JSON.stringify({ claims: [claim] }));
  const expected = new lib.Document(md, { format: 'markdown' }).validate({ claims: [claim] });
  assert.deepEqual(await badges(), [{ VALIDATED: 'validated', LOW_CONFIDENCE: 'low confidence', AMBIGUOUS: 'ambiguous', FAILED: 'failed' }[expected.validated_claims[0].validation_status]]);
  // a plain text file: the format follows it, not the last one
  await open('ev-source-file', 'harbour.txt', 'The ferry leaves at nine from pier four.\n');
  assert.equal(await page.$eval('select[id^="ev-format"]', (s) => s.value), 'plain_text');
  assert.deepEqual(await badges(), ['validated']);
});

test('a source over 200,000 characters is held out of the box, kept across a reload (the file as it was opened), and can be edited in the box', async () => {
  // 20,000 numbered lines with an emoji each: about 520,000 UTF-16 units
  const big = Array.from({ length: 20_000 }, (_, i) => `Line ${i}: the pier 🎉 opens at ${i % 24} o'clock.`).join('\n');
  assert.ok(big.length > 200_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-keep-test-'));
  try {
    const file = path.join(dir, 'big.txt');
    fs.writeFileSync(file, big);
    let n = await validations();
    await page.setInputFiles('input[type="file"][id^="ev-source-file"]', file);
    await afterRun(n);
    n = await validations();
    await fill(CLAIMS_BOX, 'Line 12345: the pier 🎉 opens at 9 o\'clock.');
    await afterRun(n);
    assert.equal(await page.isVisible('.held-text'), true);
    assert.equal(await page.isHidden(SOURCE_BOX), true);
    assert.match(await page.textContent('.held-text'), /big\.txt of [\d,]+ characters/);
    assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), '', 'the box holds nothing');
    assert.deepEqual(await badges(), ['validated']);
    await page.waitForTimeout(800); // saved 400 ms after the last edit
    await page.reload();
    await page.waitForFunction(() => Number(document.querySelector('.evidence-mode')?.dataset.validations) > 0);
    assert.equal(await page.isVisible('.held-text'), true, 'held again after the reload');
    assert.deepEqual(await badges(), ['validated']);
    // into the box: the text is exactly the file's
    await page.click('.held-text button:text-is("Edit in the box") >> nth=0');
    assert.equal(await page.isVisible(SOURCE_BOX), true);
    assert.equal(await page.$eval(SOURCE_BOX, (t) => t.value), big);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await page.click('button.clear-button');
});

testClean(app);
