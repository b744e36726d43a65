// The web UI in a real browser: Debian's Chromium driven by playwright-core,
// against the built www/dist/ served on 127.0.0.1 by a server this test starts
// and stops. Run: `npm run test:browser` (builds www/dist/ when stale; needs
// pkg/ built and /usr/bin/chromium).
//
// What it checks, against the library itself (the Node build of the package
// computes the expected report for the same source and claims):
//   - every highlighted span's DOM text is exactly the claim's matched text
//     (emoji, CJK, curly quotes in the source vs straight ones in a claim);
//   - the viewer's text is exactly the source (marks only wrap text);
//   - hover and keyboard focus show claim, status, confidence, match type and
//     edit distance (the marks' aria-describedby tooltip);
//   - typing into the source re-validates (debounced) and the highlights
//     move; a threshold change re-validates with the same Document index;
//   - clicking or pressing Enter on a claim scrolls to and focuses its span;
//     nearest candidates of failed claims are clickable too;
//   - the exported report has the same contentHash as Node's;
//   - a bad claim is marked in place, the others keep theirs; nothing is requested from another origin,
//     and the page logs no error.
// Screenshots: target/browser/ui-incident.png, target/browser/ui-travel.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { outDir, root } from './build.mjs';
import { openApp } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);

const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const SAMPLES = {
  incident: { source: read('samples/incident-review.md'), claims: JSON.parse(read('samples/claims.json')) },
  travel: { source: read('www/samples/travel-notes.md'), claims: JSON.parse(read('www/samples/travel-claims.json')) },
};

let app;
let server;
let page;
let foreignRequests = [];
let pageErrors = [];

before(async () => {
  app = await openApp('');
  ({ server, page, foreignRequests, pageErrors } = app);
  await page.waitForSelector('.evidence-mode[data-state]');
});

after(async () => {
  await app?.close();
});

/** Resolves once the mode has finished more validations than `before` (the debounced run). */
async function validationsAfter(before) {
  await page.waitForFunction((n) => Number(document.querySelector('.evidence-mode').dataset.validations) > n, before);
  return state();
}

async function state() {
  return page.$eval('.evidence-mode', (el) => ({
    validations: Number(el.dataset.validations), docBuilds: Number(el.dataset.docBuilds), state: el.dataset.state,
  }));
}

async function loadSample(id) {
  const { validations } = await state();
  await page.selectOption('select[id^="ev-sample"]', id);
  await page.click('button:text-is("Load sample")');
  const s = await validationsAfter(validations);
  assert.equal(s.state, 'ok');
  return s;
}

/** The text of each span key: its marks' text, in DOM order; also each mark's status class. */
function highlights() {
  return page.$$eval('.source-view mark.hl', (marks) => {
    const out = {};
    for (const m of marks) {
      for (const key of m.dataset.spans.split(' ')) {
        out[key] ??= { text: '', marks: 0 };
        out[key].text += m.textContent;
        out[key].marks += 1;
      }
    }
    return out;
  });
}

/** Every span of `report` (match, alternatives, candidates) must be highlighted with exactly its text. */
async function assertHighlightsMatch(source, report) {
  const got = await highlights();
  const viewText = await page.$eval('.source-view', (el) => el.textContent);
  assert.equal(viewText, source, 'the viewer shows the source exactly');
  let checked = 0;
  report.validated_claims.forEach((r, i) => {
    const m = r.match_details;
    if (m) {
      assert.equal(source.slice(m.utf16_start, m.utf16_end), m.matched_text);
      assert.equal(got[`c${i}.m`]?.text, m.matched_text, `${r.claim_id}: highlighted text`);
      checked++;
    } else {
      assert.equal(got[`c${i}.m`], undefined, `${r.claim_id} has no match, so no highlight`);
    }
    r.alternative_matches.forEach((a, j) => {
      assert.equal(got[`c${i}.a${j}`]?.text, a.matched_text, `${r.claim_id}: alternative ${j}`);
      checked++;
    });
  });
  return checked;
}

test('the incident sample: every match highlighted with exactly its text, coloured by status', async () => {
  const { source, claims } = SAMPLES.incident;
  await loadSample('incident');
  const expected = lib.validateEvidence(source, claims, null);
  const checked = await assertHighlightsMatch(source, expected);
  assert.ok(checked >= 8, `checked ${checked} spans`);
  // status classes: EV001 validated, EV003 low confidence (a changed number)
  const cls = (key) => page.$eval(`mark.hl[data-spans~="${key}"]`, (m) => m.className);
  assert.match(await cls('c0.m'), /hl-validated/);
  assert.match(await cls('c2.m'), /hl-low-confidence/);
  // wherever two of the report's spans overlap, one mark carries both and is shown as an overlap
  const spans = [];
  expected.validated_claims.forEach((r, i) => {
    if (r.match_details) spans.push([`c${i}.m`, r.match_details.utf16_start, r.match_details.utf16_end]);
    r.alternative_matches.forEach((a, j) => spans.push([`c${i}.a${j}`, a.utf16_start, a.utf16_end]));
  });
  for (const [ka, sa, ea] of spans) {
    for (const [kb, sb, eb] of spans) {
      if (ka < kb && sa < eb && sb < ea) {
        const both = await page.$$eval('.source-view mark.hl', (ms, [x, y]) => ms.filter((m) => {
          const keys = m.dataset.spans.split(' ');
          return keys.includes(x) && keys.includes(y) && m.classList.contains('hl-overlap');
        }).length, [ka, kb]);
        assert.ok(both > 0, `${ka} and ${kb} overlap: a mark should carry both`);
      }
    }
  }
  // the claims list: one entry per claim, with its status
  const items = await page.$$eval('.claim-list > li', (lis) => lis.map((li) => `${li.dataset.claim} ${li.querySelector('.badge').textContent}`));
  assert.deepEqual(items, expected.validated_claims.map((r) => `${r.claim_id} ${{
    VALIDATED: 'validated', LOW_CONFIDENCE: 'low confidence', AMBIGUOUS: 'ambiguous', FAILED: 'failed' }[r.validation_status]}`));
  // failed claims list their reason and nearest candidates
  const ev008 = await page.$eval('li.claim[data-claim="EV008"]', (li) => li.textContent);
  assert.match(ev008, /not found/);
  assert.match(ev008, /ledger service does not emit a metric/);
  await page.screenshot({ path: path.join(outDir, 'ui-incident.png'), fullPage: true });
});

test('clicking a claim, or Enter on it, scrolls to and focuses its span; candidates too', async () => {
  const viewer = '.viewer';
  await page.$eval(viewer, (v) => { v.scrollTop = 0; });
  await page.click('li.claim[data-claim="EV010"] .claim-button');
  const focused = async () => page.evaluate(() => {
    const a = document.activeElement;
    const v = document.querySelector('.viewer').getBoundingClientRect();
    const r = a.getBoundingClientRect();
    return {
      tag: a.tagName, spans: a.dataset?.spans ?? '', text: a.textContent,
      visible: r.top >= v.top && r.bottom <= v.bottom, scrollTop: document.querySelector('.viewer').scrollTop,
      tooltip: document.querySelector('.tooltip').hidden ? null : document.querySelector('.tooltip').textContent,
    };
  });
  let f = await focused();
  assert.equal(f.tag, 'MARK');
  assert.match(f.spans, /\bc9\.m\b/);
  assert.equal(f.text, 'owner: ledger team');
  assert.ok(f.visible, 'the span is scrolled into the viewer');
  assert.ok(f.scrollTop > 0, 'the viewer scrolled');
  assert.match(f.tooltip, /EV010 · validated · confidence 1\.00 · exact match · edit distance 0/);

  // keyboard: Enter on the EV001 entry
  await page.$eval(viewer, (v) => { v.scrollTop = v.scrollHeight; });
  await page.focus('li.claim[data-claim="EV001"] .claim-button');
  await page.keyboard.press('Enter');
  f = await focused();
  assert.equal(f.tag, 'MARK');
  assert.match(f.spans, /\bc0\.m\b/);
  assert.ok(f.visible);
  assert.ok(await page.$eval('mark.hl[data-spans~="c0.m"]', (m) => m.classList.contains('is-current')));

  // a nearest candidate of a failed claim (EV008, not found)
  const expected = lib.validateEvidence(SAMPLES.incident.source, SAMPLES.incident.claims, null);
  const cand = expected.failed_claims.find((c) => c.claim_id === 'EV008').attempted_matches[0];
  await page.click('li.claim[data-claim="EV008"] .candidate-button >> nth=0');
  f = await focused();
  assert.equal(f.text, cand.candidate_text);
  assert.match(f.tooltip, /EV008 · failed · confidence 0\.99 · rejected candidate/);

  // Tab from a mark moves to the next mark (marks are in the tab order)
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'MARK');
  await page.keyboard.press('Escape');
  assert.equal(await page.$eval('.tooltip', (t) => t.hidden), true, 'Escape hides the tooltip');
});

test('the travel sample: emoji, CJK and curly quotes highlight exactly their characters', async () => {
  const { source, claims } = SAMPLES.travel;
  await loadSample('travel');
  const expected = lib.validateEvidence(source, claims, null);
  await assertHighlightsMatch(source, expected);
  const got = await highlights();
  // literal expectations, independent of the library
  assert.equal(got['c0.m'].text, 'tiny but spotless 🧼✨, and the staff spoke excellent English');
  assert.equal(got['c1.m'].text, '“Best bowl\nof tonkotsu I’ve had outside Fukuoka,” my friend said',
    'the claim has straight quotes, the source curly ones: the curly ones are highlighted');
  assert.equal(got['c2.m'].text, '本日のおすすめ：味噌ラーメン');
  // code points and UTF-16 differ here (emoji before the quote): the UI uses UTF-16
  const m0 = expected.validated_claims[0].match_details;
  assert.notEqual(m0.start_position, m0.utf16_start);
  // the ambiguous quote: both places, ambiguous colour
  assert.equal(got['c5.m'].text, 'Everyone agreed it was worth the wait.');
  assert.equal(got['c5.a0'].text, 'Everyone agreed it was worth the wait.');
  assert.match(await page.$eval('mark.hl[data-spans~="c5.a0"]', (m) => m.className), /hl-ambiguous/);

  // hover: the tooltip names claim, status, confidence, match type, edit distance
  await page.hover('mark.hl[data-spans~="c4.m"]');
  await page.waitForSelector('.tooltip:not([hidden])');
  assert.match(await page.textContent('.tooltip'), /EV105 · validated · confidence 0\.99 · fuzzy match · edit distance 1/);
  // keyboard focus does the same, and the mark is described by the tooltip
  await page.focus('mark.hl[data-spans~="c0.m"]');
  const tip = await page.evaluate(() => {
    const m = document.activeElement;
    const t = document.getElementById(m.getAttribute('aria-describedby'));
    return { role: t.getAttribute('role'), hidden: t.hidden, text: t.textContent };
  });
  assert.deepEqual(tip, { role: 'tooltip', hidden: false, text: 'EV101 · validated · confidence 1.00 · exact match · edit distance 0' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'ui-travel.png'), fullPage: false });
});

/**
 * The source view shows a run's text before its marks and claims (drawn a
 * frame at a time): waits until more than `since` runs finished, none is in
 * flight and the count held still for 300 ms (at most 12 s).
 */
async function settled(since) {
  let last = -1;
  for (let k = 0; k < 40; k++) {
    const now = await page.$eval('.evidence-mode', (el) => ({ n: Number(el.dataset.validations), running: el.dataset.running === 'true' }));
    if (!now.running && now.n > since && now.n === last) return;
    last = now.n;
    await page.waitForTimeout(300);
  }
  throw new Error(`no run settled after ${since}`);
}

test('typing into the source re-validates (debounced) and the highlights follow', async () => {
  const before = await state();
  const box = 'textarea[id^="ev-source"]';
  // EV104 quotes "40 minutes" where the source says 20: low confidence. Type the fix.
  let { source } = SAMPLES.travel;
  const at = source.indexOf('20 minutes');
  await page.focus(box);
  await page.$eval(box, (t, [a, b]) => t.setSelectionRange(a, b), [at, at + 2]);
  await page.keyboard.type('40', { delay: 20 });
  source = `${source.slice(0, at)}40${source.slice(at + 2)}`;
  // and an emoji at the very start: every offset after it shifts by 2 UTF-16 units
  await page.$eval(box, (t) => t.setSelectionRange(0, 0));
  await page.keyboard.type('🎌 ', { delay: 20 });
  source = `🎌 ${source}`;
  await page.waitForFunction((s) => document.querySelector('.source-view').textContent === s, source);
  await settled(before.validations);
  const after1 = await state();
  assert.ok(after1.validations > before.validations);
  assert.ok(after1.docBuilds > before.docBuilds, 'a new source builds a new Document');
  assert.ok(after1.docBuilds - before.docBuilds <= after1.validations - before.validations, 'at most one Document per run');
  assert.equal(await page.$eval(box, (t) => t.value), source);
  const expected = lib.validateEvidence(source, SAMPLES.travel.claims, null);
  assert.equal(expected.validated_claims[3].validation_status, 'VALIDATED');
  await assertHighlightsMatch(source, expected);
  assert.match(await page.$eval('mark.hl[data-spans~="c3.m"]', (m) => m.className), /hl-validated/);
  assert.equal((await highlights())['c0.m'].text, 'tiny but spotless 🧼✨, and the staff spoke excellent English');

  // debounced: a burst of keystrokes is validated far fewer times than keys were pressed
  const burst = ' Typed quickly.';
  const beforeBurst = await state();
  await page.$eval(box, (t) => t.setSelectionRange(t.value.length, t.value.length));
  await page.keyboard.type(burst);
  source += burst;
  await page.waitForFunction((s) => document.querySelector('.source-view').textContent === s, source);
  await settled(beforeBurst.validations);
  const afterBurst = await state();
  const runs = afterBurst.validations - beforeBurst.validations;
  assert.ok(runs >= 1 && runs < burst.length / 2, `${runs} runs for ${burst.length} keystrokes`);

  // a threshold change re-validates on the same Document (the index is reused)
  const distance = 'input[data-config="fuzzy_matching.max_edit_distance"]';
  await page.click('details.config summary');
  await page.fill(distance, '0');
  const after2 = await validationsAfter(afterBurst.validations);
  assert.equal(after2.docBuilds, afterBurst.docBuilds, 'no new Document for a config change');
  const strict = lib.validateEvidence(source, SAMPLES.travel.claims, { fuzzy_matching: { max_edit_distance: 0 } });
  assert.notEqual(strict.validated_claims[4].validation_status, 'VALIDATED', 'the typo no longer validates');
  await assertHighlightsMatch(source, strict);
  assert.match(await page.textContent('.summary'), /index reused/);
  await page.click('button:text-is("Reset to defaults")');
  await validationsAfter(after2.validations);
});

test('a bad claim is marked in place, the others keep their results; export downloads the report', async () => {
  await loadSample('travel');
  const claimsBox = 'textarea[id^="ev-claims"]';
  const good = await page.$eval(claimsBox, (t) => t.value);

  // export: the browser's report is the library's (same content hash as Node's)
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text-is("Export report JSON")')]);
  assert.equal(download.suggestedFilename(), 'evidence-report.json');
  const file = path.join(outDir, 'evidence-report.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  const expected = lib.validateEvidence(SAMPLES.travel.source, SAMPLES.travel.claims, null);
  assert.equal(exported.generated.contentHash, expected.generated.contentHash);
  assert.deepEqual(exported.validated_claims, expected.validated_claims);

  let s = await state();
  await page.fill(claimsBox, good.replace('"EV101"', '"E-101"'));
  s = await validationsAfter(s.validations);
  assert.equal(s.state, 'error');
  assert.match(await page.textContent('.problem'), /\$\.claims\[0\]\.id/);
  // issue 19: the bad claim is marked in place with the library's message and
  // path; the other claims keep their results (and their highlights)
  assert.match(await page.textContent('li.claim[data-index="0"]'), /not valid.*\$\.claims\[0\]\.id: id "E-101" does not match/s);
  assert.equal(await page.$$eval('.source-view mark[data-spans~="c0.m"]', (m) => m.length), 0);
  const kept = expected.validated_claims.slice(1).filter((r) => r.match_details).length;
  assert.ok(kept > 0);
  const marked = await page.$$eval('.source-view mark.hl', (ms) => new Set(ms.flatMap((m) => m.dataset.spans.split(' ')).filter((k) => k.endsWith('.m'))).size);
  assert.equal(marked, kept, 'every other claim keeps its highlight');
  await page.fill(claimsBox, '{ "claims": [ ');
  s = await validationsAfter(s.validations);
  assert.match(await page.textContent('.problem'), /not valid JSON/);

  // one quote per line: ids EV001…, direct quotes
  await page.fill(claimsBox, 'tiny but spotless 🧼✨\n本日のおすすめ：味噌ラーメン\n');
  s = await validationsAfter(s.validations);
  assert.equal(s.state, 'ok');
  const ids = await page.$$eval('.claim-list > li', (lis) => lis.map((li) => li.dataset.claim));
  assert.deepEqual(ids, ['EV001', 'EV002']);
  assert.equal((await highlights())['c0.m'].text, 'tiny but spotless 🧼✨');
});

test('offline and clean: no request left 127.0.0.1, no page errors', () => {
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(pageErrors, []);
  assert.ok(server.requests.some((r) => r.endsWith('.wasm')), 'the wasm came from our server');
});
