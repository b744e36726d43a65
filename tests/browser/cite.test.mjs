// The Cite view (spec 004 part 2) in a real browser: Debian's Chromium driven
// by playwright-core against the built www/dist/ served on 127.0.0.1 by a
// server this test starts and stops. Run: `npm run test:browser`.
//
// The expected report comes from the package itself (its Node build) with the
// page's own demo host (www/src/modes/cite/demo.js, pure), so the browser must
// show exactly what the library computes: each claim's text, verdict and
// citations before and after correction, the summary, the demo label, and
// every cited span highlighted in its source with the source's own text.
// Issue 19 in this view: a problem names its box, its code once and what to
// do (point 5); the inputs and host settings survive a reload and Clear
// forgets them, and files dropped or opened are added to the sources (point
// 2). Nothing is requested from another origin and the
// page logs no error.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { openApp, testClean } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const demo = await import(pathToFileURL(path.join(root, 'www', 'src', 'modes', 'cite', 'demo.js')).href);
const { SAMPLE } = await import(pathToFileURL(path.join(root, 'www', 'src', 'modes', 'cite', 'samples.js')).href);

const app = {};
before(async () => {
  Object.assign(app, await openApp('#cite'));
  await app.page.waitForSelector('button.cite-run');
});
after(async () => {
  await app.close?.();
});

const runOnce = async () => {
  const runs = Number(await app.page.getAttribute('.cite-results', 'data-runs'));
  await app.page.click('button.cite-run');
  await app.page.waitForFunction((n) => Number(document.querySelector('.cite-results').dataset.runs) > n, runs);
  return app.page.getAttribute('.cite-results', 'data-state');
};

test('the demo host (Node): generated claims are their quotes, verified by the pipeline', async () => {
  const r = await lib.citePipeline({ ...SAMPLE, claims: [] }, null, demo.demoHost());
  assert.ok(r.claims.length >= 2, JSON.stringify(r.generation));
  for (const c of r.claims) assert.equal(c.verdict, 'SUPPORTED', c.text);
  assert.equal(demo.demoAnswer({ kind: 'verify', prompt: 'x\n\nEVIDENCE: "Cats sleep a lot."\n\nCLAIM: "Dogs bark loudly."\n\nIs it?' }), 'Verdict: UNSUPPORTED');
});

test('the sample with the demo host: the claims, verdicts, citations and highlighted spans the library computes', async () => {
  assert.equal(await runOnce(), 'ok');
  const expected = await lib.citePipeline({ ...SAMPLE, claims: [] }, null, demo.demoHost());
  const page = app.page;
  assert.match(await page.textContent('.cite-host'), /demo host — not a language model/);
  const shown = await page.$$eval('.cite-claim', (lis) => lis.map((li) => ({
    text: li.querySelector('.cite-claim-text').textContent,
    verdict: li.dataset.verdict,
    citations: li.querySelector('.cite-citations').textContent,
  })));
  assert.deepEqual(shown.map((c) => [c.text, c.verdict]), expected.claims.map((c) => [c.text, c.verdict ?? 'ABSTAINED']));
  for (const [i, c] of expected.claims.entries()) {
    assert.ok(shown[i].citations.startsWith(`citations: ${c.correction.citations_before.join(', ')} → ${c.correction.citations_after.join(', ')}`), shown[i].citations);
  }
  // streamed as produced: one live item per claim, each with its verdict
  const live = await page.$$eval('.cite-live-claim', (lis) => lis.map((li) => li.dataset.verdict));
  assert.equal(live.length, expected.claims.length);
  // every cited span highlighted, with its source's own text
  const marks = await page.$$eval('.cite-source mark.cite-span', (ms) => ms.map((m) => ({ source: m.closest('.cite-source').dataset.id, text: m.textContent })));
  const spans = expected.claims.flatMap((c) => c.evidence.map((e) => ({ source: e.source_id, text: e.quote })));
  const order = (m) => SAMPLE.sources.findIndex((x) => x.id === m.source) * 1e6 + SAMPLE.sources.find((x) => x.id === m.source).content.indexOf(m.text);
  assert.deepEqual(marks, [...spans].sort((a, b) => order(a) - order(b)));
  const summary = await page.textContent('.cite-summary');
  assert.ok(summary.startsWith(`${expected.summary.claims} claims: ${expected.summary.supported} supported`), summary);
  await page.screenshot({ path: path.join(root, 'target', 'browser', 'cite.png'), fullPage: true }).catch(() => {});
});

test('bad sources JSON is shown as an error naming its box and what to do, not thrown', async () => {
  const page = app.page;
  const sources = await page.$eval('textarea[id^="ct-sources"]', (b) => b.value);
  await page.fill('textarea[id^="ct-sources"]', '[{');
  assert.equal(await runOnce(), 'error');
  assert.match(await page.textContent('.cite-results .problem'), /^Sources: Not JSON \(.+\)\. Fix the Sources box: JSON, a list of \{"id", "title", "content"\}, then run again$/);
  // the library's error: its box (from the JSON path), its code once, its message, what to do
  const input = { ...SAMPLE, sources: {}, claims: [] };
  const error = await lib.citePipeline(input, null, demo.demoHost()).then(() => null, (e) => e);
  assert.equal(error.code, 'VALIDATION_ERROR');
  await page.fill('textarea[id^="ct-sources"]', '{}');
  assert.equal(await runOnce(), 'error');
  const text = await page.textContent('.cite-results .problem');
  assert.equal(text, `Sources: VALIDATION_ERROR: ${error.message.replace(/^VALIDATION_ERROR: /, '')}. Fix the Sources box, then run again`);
  assert.equal(text.split('VALIDATION_ERROR').length - 1, 1, text);
  await page.fill('textarea[id^="ct-sources"]', sources);
});

test('files dropped or opened with "Add files…" are added to the sources (id from the name, title the name) and cited', async () => {
  const page = app.page;
  const box = 'textarea[id^="ct-sources"]';
  const original = await page.$eval(box, (b) => b.value);
  const harbour = 'The harbour board approved the dredging contract by five votes to two.';
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, body] of list) dt.items.add(new File([body], name));
    const target = document.querySelector('.cite-mode');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [['Harbour Minutes.txt', harbour], ['paris.md', 'A second note about Paris.']]);
  await page.waitForFunction((sel) => JSON.parse(document.querySelector(sel).value).length === 4, box);
  await page.setInputFiles('input[type="file"][id^="ct-sources-file"]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes.') });
  await page.waitForFunction((sel) => JSON.parse(document.querySelector(sel).value).length === 5, box);
  const list = JSON.parse(await page.$eval(box, (b) => b.value));
  assert.deepEqual(list.slice(0, 2), SAMPLE.sources);
  // "paris" is the sample's: the dropped paris.md gets "paris-2"
  assert.deepEqual(list.slice(2), [
    { id: 'harbour-minutes', title: 'Harbour Minutes.txt', content: harbour },
    { id: 'paris-2', title: 'paris.md', content: 'A second note about Paris.' },
    { id: 'notes', title: 'notes.txt', content: 'Notes.' },
  ]);
  // the pipeline runs on them, as the library computes it
  await page.fill('input.cite-query', 'Who approved the dredging contract?');
  await page.fill('textarea[id^="ct-outline"]', 'The contract');
  assert.equal(await runOnce(), 'ok');
  const expected = await lib.citePipeline({ query: 'Who approved the dredging contract?', sources: list, claims: [], outline: ['The contract'] }, null, demo.demoHost());
  assert.ok(expected.claims.some((c) => c.correction.citations_after.includes('harbour-minutes')), JSON.stringify(expected.claims));
  assert.deepEqual(await page.$$eval('.cite-claim .cite-claim-text', (ps) => ps.map((p) => p.textContent)), expected.claims.map((c) => c.text));
  assert.ok((await page.$$eval('.cite-source[data-id="harbour-minutes"] mark.cite-span', (ms) => ms.length)) > 0, 'the dropped file\'s cited span highlighted');
  await page.fill(box, original);
  await page.fill('input.cite-query', SAMPLE.query);
  await page.fill('textarea[id^="ct-outline"]', SAMPLE.outline.join('\n'));
});

test('the inputs and host settings survive a reload; Clear forgets them (a reload then shows the sample)', async () => {
  const page = app.page;
  const value = (sel) => page.$eval(sel, (el) => el.value);
  const reload = async () => {
    await page.waitForTimeout(900); // saving follows the last edit by 400 ms
    await page.reload();
    await page.waitForSelector('button.cite-run');
    await page.waitForTimeout(300); // the saved work is read after the view is drawn
  };
  const query = 'When was the treaty signed? 🚲 “quoted”';
  const claims = '[{"text": "The treaty was signed in 1783.", "citations": ["britannica"]}]';
  await page.fill('input.cite-query', query);
  await page.fill('textarea[id^="ct-claims"]', claims);
  await page.check('.cite-host input[value="url"]');
  await page.fill('input.cite-url', 'http://127.0.0.1:9/v1');
  await page.fill('input.cite-model', 'gemma-3-27b-it');
  const sources = await value('textarea[id^="ct-sources"]');
  await reload();
  await page.waitForFunction(() => document.querySelector('#app-status').textContent.includes('Restored'));
  assert.equal(await value('input.cite-query'), query);
  assert.equal(await value('textarea[id^="ct-claims"]'), claims);
  assert.equal(await value('textarea[id^="ct-sources"]'), sources);
  assert.equal(await page.isChecked('.cite-host input[value="url"]'), true);
  assert.equal(await value('input.cite-url'), 'http://127.0.0.1:9/v1');
  assert.equal(await value('input.cite-model'), 'gemma-3-27b-it');

  await page.click('.cite-mode button.clear-button');
  assert.match(await page.textContent('#app-status'), /Cleared/);
  for (const sel of ['input.cite-query', 'textarea[id^="ct-sources"]', 'textarea[id^="ct-claims"]', 'input.cite-url', 'input.cite-model']) assert.equal(await value(sel), '', sel);
  assert.equal(await page.isChecked('.cite-host input[value="demo"]'), true);
  // nothing kept: a reload is a first visit again, with the sample
  await reload();
  assert.equal(await value('input.cite-query'), SAMPLE.query);
  assert.deepEqual(JSON.parse(await value('textarea[id^="ct-sources"]')), SAMPLE.sources);
  assert.equal(await page.isChecked('.cite-host input[value="demo"]'), true);
  assert.equal(await runOnce(), 'ok');
});

testClean(app);
