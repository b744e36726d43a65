// Issue 18 in the web UI: a highlighted claim's "Copy link" copies the
// source page's URL with the claim's text fragment, and the re-anchor panel
// shows where each claim is in an edited source (orphans apart). Expected
// values come from the library's Node build on the same input.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { evidenceApp, testClean } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const source = read('samples/incident-review.md');
const claims = JSON.parse(read('samples/claims.json'));
const report = lib.validateEvidence(source, claims, null);
const matched = report.validated_claims.filter((r) => r.match_details?.selectors);

const app = evidenceApp({ sample: 'incident' });

test('Copy link puts the page URL and the claim\'s text fragment on the clipboard', async () => {
  const { page, context } = app;
  const withLink = report.validated_claims.filter((r) => r.match_details?.text_fragment);
  assert.ok(withLink.length >= 1);
  assert.equal(await page.locator('.claim-list .copy-link-button').count(), withLink.length);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page.once('dialog', (d) => d.accept('https://example.org/incident#old'));
  const first = withLink[0];
  await page.click(`.claim-list li[data-claim="${first.claim_id}"] .copy-link-button`);
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith('https://'));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `https://example.org/incident${first.match_details.text_fragment}`);
});

test('the re-anchor panel lists each claim\'s status in an edited source, orphans apart', async () => {
  const { page } = app;
  const gone = matched[0];
  const edited = `A new first line 😀.\n\n${source.replace(gone.match_details.matched_text, 'removed')}`;
  const saved = matched.map((r) => ({ id: r.claim_id, selectors: r.match_details.selectors }));
  const want = new lib.Document(edited, null).reanchor(saved);
  assert.equal(want.find((r) => r.id === gone.claim_id).status, 'orphaned');
  assert.ok(want.some((r) => r.status === 'moved'));
  await page.click('.reanchor-panel summary');
  await page.fill('.reanchor-input', edited);
  await page.click('.reanchor-button');
  await page.waitForSelector('.reanchor-orphans li');
  const shown = await page.$$eval('.reanchor-list li, .reanchor-orphans li', (els) => els.map((e) => [e.dataset.claim, e.dataset.status]));
  const sorted = (xs) => [...xs].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  assert.deepEqual(sorted(shown), sorted(want.map((r) => [r.id, r.status])));
  const orphans = await page.$$eval('.reanchor-orphans li', (els) => els.map((e) => e.textContent));
  assert.deepEqual(orphans, want.filter((r) => r.status === 'orphaned').map((r) => r.id));
});

testClean(app);
