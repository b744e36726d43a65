// Issue 19, point 3: reading results fast, in Chromium against www/dist/,
// checked against the library's own report (the Node build):
//   - counts per status, as the report's, that filter the list; j/k and the
//     Next button jump to the next/previous claim shown and outline its span;
//   - each claim shows its evidence type and match type;
//   - a near miss lists its word-level edits (quote against source) from
//     `match_details.edits`;
//   - a marker beside the viewer's scrollbar for every highlighted place,
//     clicking one shows its span;
//   - the claim list is one tab stop (roving focus: arrows move inside it);
//   - "?" opens the shortcuts panel, Escape closes it;
//   - point 4: a claim's result copied as text; the report exported as
//     Markdown (one table row per claim, as the report's).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { evidenceApp, testClean } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const SOURCE = read('samples/incident-review.md');
const CLAIMS = JSON.parse(read('samples/claims.json'));
const REPORT = lib.validateEvidence(SOURCE, CLAIMS, null);
const LABEL = { VALIDATED: 'validated', LOW_CONFIDENCE: 'low confidence', AMBIGUOUS: 'ambiguous', FAILED: 'failed' };

let page;
const app = evidenceApp({ sample: 'incident', onOpen: (a) => { page = a.page; } });

const visibleClaims = () => page.$$eval('.claim-list > li.claim', (lis) => lis.filter((li) => getComputedStyle(li).display !== 'none').map((li) => li.dataset.claim));

test('counts per status are the report\'s and filter the list; j/k step through the claims shown', async () => {
  const counts = await page.$$eval('.filter-bar .filter', (bs) => Object.fromEntries(bs.map((b) => [b.dataset.filter, Number(b.querySelector('.count').textContent)])));
  const expected = { '': REPORT.validated_claims.length };
  for (const r of REPORT.validated_claims) {
    const f = r.validation_status.toLowerCase().replace('_', '-');
    expected[f] = (expected[f] ?? 0) + 1;
  }
  assert.deepEqual(counts, expected);
  const failed = REPORT.validated_claims.filter((r) => r.validation_status === 'FAILED').map((r) => r.claim_id);
  assert.ok(failed.length >= 1);
  await page.click('.filter-bar [data-filter="failed"]');
  assert.deepEqual(await visibleClaims(), failed);
  assert.equal(await page.$eval('.filter-bar [data-filter="failed"]', (b) => b.getAttribute('aria-pressed')), 'true');

  // all again, then j twice from the top: the second claim, its span outlined
  await page.click('.filter-bar [data-filter=""]');
  assert.equal((await visibleClaims()).length, REPORT.validated_claims.length);
  await page.focus('.filter-bar [data-filter=""]');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const second = REPORT.validated_claims[1];
  assert.equal(await page.$eval('.claim-list > li.is-selected', (li) => li.dataset.claim), second.claim_id);
  assert.equal(await page.evaluate(() => document.activeElement.closest('li.claim')?.dataset.claim), second.claim_id);
  const outlined = await page.$$eval('.source-view mark.is-current', (ms) => ms.map((m) => m.textContent).join(''));
  assert.equal(outlined, second.match_details.matched_text);
  await page.keyboard.press('k');
  assert.equal(await page.$eval('.claim-list > li.is-selected', (li) => li.dataset.claim), REPORT.validated_claims[0].claim_id);
  // the keys 0–6 pick a filter too
  await page.keyboard.press('4');
  assert.deepEqual(await visibleClaims(), failed);
  await page.keyboard.press('0');
});

test('each claim shows its evidence type and match type; a near miss lists what the quote changed', async () => {
  for (const [i, r] of REPORT.validated_claims.entries()) {
    const meta = await page.$eval(`li.claim[data-index="${i}"] .claim-meta`, (m) => m.textContent);
    assert.match(meta, new RegExp(r.evidence_type.replaceAll('_', ' ')));
    if (r.match_details) assert.match(meta, new RegExp(`${r.match_details.match_type} match`));
  }
  const near = REPORT.validated_claims.map((r, i) => [r, i]).filter(([r]) => (r.match_details?.edits ?? []).some((e) => e.kind !== 'cosmetic'));
  assert.ok(near.length >= 1, 'the sample has a near miss');
  for (const [r, i] of near) {
    const shown = await page.$$eval(`li.claim[data-index="${i}"] .edit-list > li`, (lis) => lis.map((li) => [li.querySelector('ins').textContent, li.querySelector('del').textContent]));
    const edits = r.match_details.edits.filter((e) => e.kind !== 'cosmetic').map((e) => [e.quote || '(nothing)', e.source || '(nothing)']);
    assert.deepEqual(shown, edits, r.claim_id);
  }
});

test('a scrollbar marker for the highlighted places; clicking one shows its span', async () => {
  const markers = await page.$$eval('.scroll-markers .scroll-marker', (ms) => ms.map((m) => ({ key: m.dataset.span, top: parseFloat(m.style.top) })));
  const places = REPORT.validated_claims.flatMap((r, i) => [
    ...(r.match_details ? [[`c${i}.m`, r.match_details.utf16_start]] : []),
    ...r.alternative_matches.map((a, j) => [`c${i}.a${j}`, a.utf16_start]),
  ]);
  // one marker per slot of the source (200 slots): every place's slot has one
  const slots = new Set(places.map(([, start]) => Math.floor((start / SOURCE.length) * 200)));
  assert.equal(markers.length, slots.size);
  for (const m of markers) assert.ok(places.some(([k]) => k === m.key), m.key);
  const last = markers.reduce((a, b) => (b.top > a.top ? b : a));
  await page.$eval('.viewer', (v) => { v.scrollTop = 0; });
  await page.click(`.scroll-marker[data-span="${last.key}"]`);
  assert.match(await page.evaluate(() => document.activeElement.dataset.spans ?? ''), new RegExp(`\\b${last.key.replace('.', '\\.')}\\b`));
  assert.ok(await page.$eval('.viewer', (v) => v.scrollTop) > 0);
});

test('the claim list is one tab stop; arrows move inside it', async () => {
  const stops = await page.$$eval('.claim-list button', (bs) => bs.filter((b) => b.tabIndex >= 0).length);
  assert.equal(stops, 1);
  await page.focus('.claim-list button[tabindex="0"]');
  const first = await page.evaluate(() => document.activeElement.closest('li.claim').dataset.index);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.closest('li.claim').dataset.index), String(Number(first) + 1));
  assert.equal(await page.$$eval('.claim-list button', (bs) => bs.filter((b) => b.tabIndex >= 0).length), 1, 'still one tab stop');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.closest('li.claim').dataset.index), String(REPORT.validated_claims.length - 1));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => Boolean(document.activeElement.closest('.claim-list'))), false, 'Tab leaves the list');
});

test('"?" opens the shortcuts panel; Escape closes it', async () => {
  await page.focus('.filter-bar [data-filter=""]');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('.help-panel'), true);
  assert.match(await page.textContent('.help-panel'), /j \/ k.*Next \/ previous claim/s);
  await page.keyboard.press('Escape');
  assert.equal(await page.isHidden('.help-panel'), true);
});

test('"Next" jumps to the next claim the filter shows (the first after the last), its span outlined', async () => {
  const failed = REPORT.validated_claims.filter((r) => r.validation_status === 'FAILED').map((r) => r.claim_id);
  const selectedClaim = () => page.$eval('.claim-list > li.is-selected', (li) => li.dataset.claim);
  await page.click('.filter-bar [data-filter="failed"]');
  const seen = [];
  for (let k = 0; k <= failed.length; k++) {
    await page.click('.claims-head button:text-is("Next ↓")');
    seen.push(await selectedClaim());
    const m = REPORT.validated_claims.find((r) => r.claim_id === seen.at(-1)).match_details;
    const outlined = await page.$$eval('.source-view mark.is-current', (ms) => ms.map((x) => x.textContent).join(''));
    if (m) assert.equal(outlined, m.matched_text);
  }
  // from the claim k selected (the first claim, not a failed one): the first failed, then each in turn, then round again
  assert.deepEqual(seen, [...failed, failed[0]]);
  await page.click('.filter-bar [data-filter=""]');
});

test('share: copy a claim\'s result; export the report as Markdown', async () => {
  await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url.replace(/\/$/, '') });
  const near = REPORT.validated_claims.findIndex((r) => (r.match_details?.edits ?? []).some((e) => e.kind === 'substitution'));
  const r = REPORT.validated_claims[near];
  await page.click(`li.claim[data-index="${near}"] .copy-button`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, new RegExp(`^${r.claim_id}: ${LABEL[r.validation_status]} \\(confidence ${r.confidence_score.toFixed(2)}`));
  assert.ok(copied.includes(`Source: “${r.match_details.matched_text}”`), copied);
  for (const e of r.match_details.edits.filter((x) => x.kind === 'substitution')) {
    assert.ok(copied.includes(`quote '${e.quote}', source '${e.source}'`), copied);
  }

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text-is("Export Markdown")')]);
  assert.equal(download.suggestedFilename(), 'evidence-report.md');
  const md = fs.readFileSync(await download.path(), 'utf8');
  const rows = md.split('\n').filter((l) => /^\| EV\d+ \|/.test(l));
  assert.deepEqual(rows.map((l) => l.split(' | ').slice(0, 2).join(' | ')),
    REPORT.validated_claims.map((x) => `| ${x.claim_id} | ${LABEL[x.validation_status]}`));
  assert.match(md, new RegExp(`### ${r.claim_id}: ${LABEL[r.validation_status]}`));
});

testClean(app);
