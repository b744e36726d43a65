// The meaning guard's edits in the web UI (issue 12): inside a highlighted
// passage, a source word the quote changed is struck through and followed by
// what the quote has; a typo is underlined; the viewer's text stays exactly
// the source. Expected values come from the library's own report (Node build
// of the package) for the same sample, not from fixed positions.
// Screenshot: target/browser/ui-edits.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { outDir, root } from './build.mjs';
import { openApp } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const source = read('samples/incident-review.md');
const claims = JSON.parse(read('samples/claims.json'));

let app;
let page;

before(async () => {
  app = await openApp('');
  page = app.page;
  await page.waitForSelector('.evidence-mode[data-state]');
  const before = await page.$eval('.evidence-mode', (el) => Number(el.dataset.validations));
  await page.selectOption('select[id^="ev-sample"]', 'incident');
  await page.click('button:text-is("Load sample")');
  await page.waitForFunction((n) => Number(document.querySelector('.evidence-mode').dataset.validations) > n, before);
});

after(async () => {
  await app?.close();
});

test('changed words are struck through with the quote beside them; typos underlined; the text is the source', async () => {
  const report = lib.validateEvidence(source, claims, null);
  const edits = report.validated_claims.flatMap((r) => (r.match_details?.edits ?? []).filter((e) => e.kind !== 'cosmetic'));
  const subs = edits.filter((e) => e.kind === 'substitution' && e.utf16_end > e.utf16_start);
  const typos = edits.filter((e) => e.kind === 'typo');
  assert.ok(subs.length >= 1, `the sample has a changed word: ${JSON.stringify(edits)}`);
  assert.ok(typos.length >= 1, 'the sample has a typo');

  const dels = await page.$$eval('.source-view del.edit-del', (els) => els.map((d) => ({
    text: d.textContent, quote: d.nextElementSibling?.matches('ins.edit-ins') ? d.nextElementSibling.dataset.quote : null,
  })));
  for (const e of subs) {
    const text = source.slice(e.utf16_start, e.utf16_end);
    assert.equal(text, e.source, 'the edit span slices the source');
    assert.ok(dels.some((d) => d.text === text && d.quote === e.quote), `${e.source} → ${e.quote} shown: ${JSON.stringify(dels)}`);
  }
  const underlined = await page.$$eval('.source-view .edit-typo', (els) => els.map((s) => s.textContent));
  for (const e of typos) assert.ok(underlined.includes(source.slice(e.utf16_start, e.utf16_end)), `typo ${e.quote}`);

  // the diff adds no text: the viewer still reads exactly the source
  assert.equal(await page.$eval('.source-view', (el) => el.textContent), source);

  // and the tooltip names the change
  const first = subs[0];
  await page.hover(`.source-view del.edit-del >> text=${source.slice(first.utf16_start, first.utf16_end)}`);
  const tip = await page.$eval('.tooltip', (t) => t.textContent);
  assert.match(tip, new RegExp(`quote has '${first.quote.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`));

  fs.mkdirSync(outDir, { recursive: true });
  const mark = await page.$('.source-view del.edit-del');
  await mark.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(outDir, 'ui-edits.png') });
});
