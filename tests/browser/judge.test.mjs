// The judge view (specs 002/003) in a real browser: Debian's Chromium driven
// by playwright-core against the built www/dist/ served on 127.0.0.1 by a
// server this test starts and stops. Run: `npm run test:browser`.
//
// The expected results come from the package itself (its Node build) with the
// page's own demo jurors (www/src/modes/judge/demo.js, pure), so the browser
// must show exactly what the library computes:
//   - the demo jurors are labelled "demo judge — not a language model" (panel
//     and votes), and their answers parse to the verdicts their rules give;
//   - step 1: the cited lines with 5 lines of context each side, numbered,
//     the cited ones (and only they) highlighted, their text the file's;
//   - step 2: the score and the threshold, pass/fail;
//   - step 3: each juror's verdict, the consensus and its reason, the log
//     (prompt === judgePrompt's, response === the juror's answer);
//   - every bundled sample ends with the verdict Node computes (consensus,
//     majority, hung jury, QUOTE_NOT_FOUND, INSUFFICIENT, LINES_OUT_OF_RANGE);
//   - edits re-run steps 1 and 2 at once and clear the jury's verdict; so
//     does a source file opened with "Load file…" or dropped (its name
//     follows it); a dropped markdown report and sources fill "Verify a
//     report";
//   - a host page's judges (window.evidenceValidator.registerJudge, or
//     declared before the bundle loads) sit on the jury, get the spec's prompt
//     and instructions, and their failures and timeouts are shown;
//   - "Verify a report": each citation's verdict, the summary, the log;
//   - nothing is requested from another origin and the page logs no error.
// Screenshots: target/browser/judge-claim.png, judge-hung.png, judge-host.png,
// judge-report.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { outDir, root } from './build.mjs';
import { openApp } from './app.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const demo = await import(pathToFileURL(path.join(root, 'www', 'src', 'modes', 'judge', 'demo.js')).href);

const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const MINUTES = { name: 'harbour-minutes.txt', text: read('www/samples/judge/harbour-minutes.txt') };
const WATER = { name: 'water-quality.txt', text: read('www/samples/judge/water-quality.txt') };
const CLAIMS = JSON.parse(read('www/samples/judge/claims.json'));
const REPORT = read('www/samples/judge/report.md');
const DEMO_LABEL = 'demo judge — not a language model';

/** What the page computes for claim sample `i`, computed in Node with the same demo jury. */
async function expectedClaim(i, { threshold = 0.8 } = {}) {
  const c = CLAIMS[i];
  const request = { claim: c.claim, quote: c.quote, lines: c.lines, filename: MINUTES.name, source: MINUTES.text };
  const logs = [];
  const result = await lib.verifyClaim(request, { judges: demo.demoJury({ threshold, quoteScore: lib.quoteScore }), log: (e) => logs.push(e), threshold });
  return { request, result, logs };
}

let app;
let server;
let context;
let page;
let foreignRequests = [];
let pageErrors = [];
let watch;

before(async () => {
  app = await openApp('#judge');
  ({ server, context, page, foreignRequests, pageErrors, watch } = app);
  await page.waitForSelector('.claim-results[data-jury-runs="1"]');
});

after(async () => {
  await app?.close();
});

const claimState = () => page.$eval('.claim-results', (el) => ({ ...el.dataset }));

/** Loads claim sample `i` (which asks the jury) and waits for the jury's answer. */
async function loadClaimSample(i) {
  const { juryRuns } = await claimState();
  await page.selectOption('select[id^="jd-sample"]', String(i));
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")');
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.juryRuns) > n, Number(juryRuns));
  return claimState();
}

async function askJury() {
  const { juryRuns } = await claimState();
  await page.click('button.ask-jury');
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.juryRuns) > n, Number(juryRuns));
  return claimState();
}

/** The votes shown: judge, verdict, tag, reason. */
function shownVotes(scope = '.claim-results .step-3') {
  return page.$$eval(`${scope} .vote`, (lis) => lis.map((li) => ({
    judge: li.dataset.judge,
    verdict: li.querySelector('.vote-verdict').textContent,
    tag: li.querySelector('.demo-tag, .host-tag').textContent,
    reason: li.querySelector('.vote-reason').textContent,
  })));
}

const label = (v) => v.replaceAll('_', ' ');

test('demo jurors (Node): they read the spec prompt back, and their answers parse to their rules\' verdicts', async () => {
  const { request } = await expectedClaim(2);
  const { prompt } = lib.judgePrompt(request);
  const p = demo.parsePrompt(prompt);
  const lines = MINUTES.text.split('\n');
  assert.equal(p.filename, MINUTES.name);
  assert.equal(p.lines, 'L11-L12');
  assert.equal(p.cited, lines.slice(10, 12).join('\n'));
  assert.equal(p.before, lines.slice(5, 10).join('\n'));
  assert.equal(p.after, lines.slice(12, 17).join('\n'));
  assert.equal(p.claim, CLAIMS[2].claim);
  assert.equal(p.quote, CLAIMS[2].quote);
  assert.throws(() => demo.parsePrompt('not the spec prompt'), /spec 002 form/);
  const answers = {};
  for (const j of demo.demoJury({ threshold: 0.8, quoteScore: lib.quoteScore })) {
    answers[j.name] = lib.parseJudgeAnswer(await j.ask(prompt, { judge: j.name, system: lib.juryInstructions() })).verdict;
  }
  // the claim adds "raised harbour fees": the strict juror misses four words in the cited lines,
  // the context juror misses "raised" everywhere, the lenient one finds half
  assert.deepEqual(answers, { 'demo-strict': 'INSUFFICIENT', 'demo-context': 'UNSUPPORTED', 'demo-lenient': 'VALID' });
  assert.deepEqual(demo.contentWords('The board approved 5 of the 12 plans, and it was not late.'), ['board', 'approved', '5', '12', 'plans', 'late']);
  assert.deepEqual(demo.missingWords('votes approved', 'the board approves the vote'), []);
});

test('check a claim: the three steps, each juror, the consensus and the log, as the library computes them', async () => {
  await loadClaimSample(0);
  const { request, result, logs } = await expectedClaim(0);
  assert.equal(result.verdict, 'VALID');
  const s = await claimState();
  assert.equal(s.state, 'ok');
  assert.equal(s.verdict, 'VALID');
  assert.equal(await page.textContent('.verdict-box .final-verdict'), 'VALID');

  // the demo label: in the panel, on every demo juror, on every vote
  assert.match(await page.textContent('.demo-banner'), new RegExp(DEMO_LABEL));
  const panelTags = await page.$$eval('.jury-panel .juror-item', (lis) => lis.map((li) => li.textContent));
  assert.equal(panelTags.length, 3);
  for (const t of panelTags) assert.ok(t.toLowerCase().includes(DEMO_LABEL), t);

  // step 1: lines 6..17, cited 11 and 12, each with the file's text
  const rows = await page.$$eval('.claim-results .step-1 .cited-lines tbody tr', (trs) => trs.map((tr) => ({
    n: Number(tr.querySelector('.line-no').textContent), cited: tr.classList.contains('is-cited'),
    text: tr.querySelector('.line-text').textContent.replace(/\u200b/g, ''),
  })));
  const lines = MINUTES.text.split('\n');
  assert.deepEqual(rows.map((r) => r.n), Array.from({ length: 12 }, (_, i) => 6 + i));
  assert.deepEqual(rows.filter((r) => r.cited).map((r) => r.n), [11, 12]);
  for (const r of rows) assert.equal(r.text, lines[r.n - 1], `line ${r.n}`);
  assert.match(await page.textContent('.claim-results .step-1 .step-title'), /✓ pass/);

  // step 2
  assert.equal(await page.textContent('.claim-results .step-2 .score-value'), result.quote_score.toFixed(3));
  assert.match(await page.textContent('.claim-results .step-2 .score-text'), /≥ threshold 0\.80/);

  // step 3: the votes, the consensus
  const votes = await shownVotes();
  assert.deepEqual(votes.map((v) => [v.judge, v.verdict, v.reason]),
    result.jury.votes.map((v) => [v.judge, label(v.ballot.verdict), v.ballot.reason]));
  for (const v of votes) assert.equal(v.tag.toLowerCase(), DEMO_LABEL);
  assert.equal(await page.textContent('.claim-results .consensus-verdict'), label(result.step_3_semantic.verdict));
  assert.equal((await page.textContent('.claim-results .consensus-reason')).trim(), result.step_3_semantic.reason);
  assert.match(result.step_3_semantic.reason, /^Consensus \(3\/3\): VALID/);

  // the log: one entry per juror, the spec's prompt, each juror's raw answer
  const shown = await page.$$eval('.claim-results .log-entry[data-file]', (ds) => ds.map((d) => ({
    file: d.dataset.file, prompt: d.querySelector('.log-prompt').textContent, response: d.querySelector('.log-response').textContent,
  })));
  assert.deepEqual(shown.map((e) => e.file), ['demo-strict_0001.txt', 'demo-context_0001.txt', 'demo-lenient_0001.txt']);
  const prompt = lib.judgePrompt(request).prompt;
  for (const e of shown) {
    assert.equal(e.prompt, prompt);
    assert.equal(e.response, logs.find((l) => l.file_name === e.file).response);
  }
  assert.equal(await page.$eval('.claim-results .log-system .log-text', (el) => el.textContent), lib.juryInstructions());
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'judge-claim.png'), fullPage: true });
});

test('every claim sample ends with the verdict the library computes', async () => {
  const seen = [];
  for (let i = 0; i < CLAIMS.length; i++) {
    const s = await loadClaimSample(i);
    const { result } = await expectedClaim(i);
    assert.equal(s.verdict, result.verdict, CLAIMS[i].label);
    seen.push(result.verdict);
    if (result.jury.convened) {
      assert.deepEqual((await shownVotes()).map((v) => v.verdict), result.jury.votes.map((v) => label(v.ballot.verdict)));
      assert.equal(await page.textContent('.claim-results .consensus-verdict'), label(result.step_3_semantic.verdict));
    }
    if (!result.step_1_existence) {
      assert.equal(await page.textContent('.claim-results .step-1 .step-error'), result.error);
      assert.equal(await page.$$eval('.claim-results .cited-lines', (t) => t.length), 0);
      assert.match(await page.textContent('.claim-results .step-3'), /Not run/);
    }
    if (result.verdict === 'QUOTE_NOT_FOUND') {
      assert.match(await page.textContent('.claim-results .step-2 .step-title'), /✗ fail/);
      assert.match(await page.textContent('.claim-results .step-2 .score-text'), /< threshold 0\.80/);
    }
    if (result.verdict === 'HUNG_JURY') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(outDir, 'judge-hung.png'), fullPage: true });
    }
  }
  // the samples show what they say they show
  assert.deepEqual(seen, ['VALID', 'VALID', 'HUNG_JURY', 'QUOTE_NOT_FOUND', 'INSUFFICIENT', 'LINES_OUT_OF_RANGE']);
  const majority = (await expectedClaim(1)).result.step_3_semantic.reason;
  assert.match(majority, /^Majority \(2\/3\): VALID/);
});

test('edits re-run steps 1 and 2 at once and clear the jury\'s verdict; bad ranges are reported', async () => {
  await loadClaimSample(0);
  const quoteBox = 'textarea[id^="jd-quote"]';
  const before = await claimState();
  await page.fill(quoteBox, 'the treasurer promised that harbour fees would stay frozen');
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.checks) > n, Number(before.checks));
  let s = await claimState();
  assert.equal(s.verdict, 'QUOTE_NOT_FOUND', 'step 2 fails at once, without asking the jury');
  assert.equal(s.juryRuns, before.juryRuns);
  assert.match(await page.textContent('.claim-results .step-3'), /Press "Ask the jury"/);
  const expected = lib.checkClaim({ ...(await expectedClaim(0)).request, quote: 'the treasurer promised that harbour fees would stay frozen' });
  assert.equal(await page.textContent('.claim-results .step-2 .score-value'), expected.quote_score.toFixed(3));

  // a paraphrase stays refused however low the threshold: its words are
  // not the cited text's (step 2 compares them)
  const paraphraseLow = Math.floor(expected.quote_score * 100 - 1) / 100;
  await page.fill('input[data-setting="threshold"]', String(paraphraseLow));
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.checks) > n, Number(s.checks));
  assert.equal((await claimState()).verdict, 'QUOTE_NOT_FOUND');
  assert.match(await page.textContent('.claim-results .step-2'), /the quote is not what the cited lines say/);
  await page.fill('input[data-setting="threshold"]', '0.8');

  // the threshold is the page's: just under the score lets a misspelt quote through step 2 (the demo jurors use it too)
  const misspelt = 'the board aproved the dredging contrcat with a majorty of five votes to two';
  await page.fill(quoteBox, misspelt);
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.verdict === 'QUOTE_NOT_FOUND');
  const typos = lib.checkClaim({ ...(await expectedClaim(0)).request, quote: misspelt });
  const low = Math.floor(typos.quote_score * 100 - 1) / 100;
  await page.fill('input[data-setting="threshold"]', String(low));
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.verdict === 'JURY_NOT_CONVENED');
  s = await askJury();
  const lenient = await lib.verifyClaim({ ...(await expectedClaim(0)).request, quote: misspelt },
    { threshold: low, judges: demo.demoJury({ threshold: low, quoteScore: lib.quoteScore }) });
  assert.equal(s.verdict, lenient.verdict);
  assert.deepEqual((await shownVotes()).map((v) => v.verdict), lenient.jury.votes.map((v) => label(v.ballot.verdict)));
  await page.fill('input[data-setting="threshold"]', '0.8');
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.verdict === 'QUOTE_NOT_FOUND');

  // a range that is not L<a>-L<b>: the library's error, no steps
  await page.fill('input[id^="jd-lines"]', 'L7-');
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.state === 'error');
  const problem = await page.textContent('.claim-results .problem');
  assert.match(problem, /^Input: VALIDATION_ERROR: request\.lines "L7-" is not a range like L12-L14 or L12\. Fix "Cited lines" above; the check runs again as you type\.$/);
  assert.equal(problem.split('VALIDATION_ERROR').length - 1, 1, problem);
  await page.fill('input[id^="jd-lines"]', 'L14-L15');
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.state === 'ok');
});

test('"Load file…" fills the source file and its name; steps 1 and 2 run again on it', async () => {
  await loadClaimSample(0);
  const { request } = await expectedClaim(0);
  // the same minutes with two lines more at the top: the cited lines now fall short of the quote
  const text = `Harbour Board: draft\nCirculated to members\n${MINUTES.text}`;
  const before = await claimState();
  await page.setInputFiles('input[type="file"][id^="jd-load"]', { name: 'council-minutes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.checks) > n, Number(before.checks));
  assert.equal(await page.$eval('input[id^="jd-file"]', (i) => i.value), 'council-minutes.txt');
  assert.equal(await page.$eval('textarea[id^="jd-source"]', (b) => b.value), text);
  const expected = lib.checkClaim({ ...request, filename: 'council-minutes.txt', source: text });
  await page.waitForFunction((v) => document.querySelector('.claim-results').dataset.verdict === v, expected.verdict);
  assert.match(await page.textContent('.claim-results .step-1'), / of council-minutes\.txt \(/);
  assert.equal(await page.textContent('.claim-results .step-2 .score-value'), expected.quote_score.toFixed(3));
  await loadClaimSample(0);
});

/** Drops files (name, text) on the judge mode, as a user drags them from the desktop. */
async function drop(files) {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, body] of list) dt.items.add(new File([body], name));
    const target = document.querySelector('.judge-mode');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

test('dropped files: the source file of "Check a claim"; the report and its sources of "Verify a report"', async () => {
  await loadClaimSample(0);
  const { request } = await expectedClaim(0);
  const before = await claimState();
  const text = `Harbour Board: draft\n${MINUTES.text}`;
  await drop([['draft-minutes.txt', text]]);
  await page.waitForFunction((n) => Number(document.querySelector('.claim-results').dataset.checks) > n, Number(before.checks));
  assert.equal(await page.$eval('input[id^="jd-file"]', (i) => i.value), 'draft-minutes.txt');
  assert.equal(await page.$eval('textarea[id^="jd-source"]', (b) => b.value), text);
  const expected = lib.checkClaim({ ...request, filename: 'draft-minutes.txt', source: text });
  await page.waitForFunction((v) => document.querySelector('.claim-results').dataset.verdict === v, expected.verdict);
  assert.match(await page.textContent('#app-status'), /Loaded draft-minutes\.txt/);

  await page.click('.subview-button[data-view="report"]');
  await drop([[WATER.name, WATER.text], ['board-report.md', REPORT], [MINUTES.name, MINUTES.text]]);
  await page.waitForFunction(() => document.querySelectorAll('.source-item').length >= 2);
  assert.equal(await page.$eval('textarea[id^="jd-report"]', (b) => b.value), REPORT);
  const sources = await page.$$eval('.source-item', (lis) => lis.map((li) => [li.querySelector('input').value, li.querySelector('textarea').value]));
  assert.deepEqual(sources.slice(-2), [[WATER.name, WATER.text], [MINUTES.name, MINUTES.text]]);
  await page.click('.judge-mode button.clear-button');
  await loadClaimSample(0);
});

test('host judges: registered by the page, given the spec prompt and instructions; failures and timeouts shown', async () => {
  await loadClaimSample(0);
  await page.evaluate(() => {
    window.__calls = [];
    window.evidenceValidator.registerJudge('host-model', async (prompt, ctx) => {
      window.__calls.push({ prompt, system: ctx.system, judge: ctx.judge });
      return '```json\n{"verdict": "UNSUPPORTED", "reason": "The host model disagrees."}\n```';
    }, { label: 'a scripted stand-in for a local model' });
    window.evidenceValidator.registerJudge('host-broken', () => { throw new Error('model server unreachable'); });
    window.evidenceValidator.registerJudge('host-slow', () => new Promise(() => {}), { timeoutMs: 300 });
  });
  assert.deepEqual(await page.evaluate(() => window.evidenceValidator.listJudges()), ['host-model', 'host-broken', 'host-slow']);
  const listed = await page.$$eval('.jury-panel .juror-item', (lis) => lis.map((li) => li.querySelector('.juror-name').textContent));
  assert.deepEqual(listed, ['demo-strict', 'demo-context', 'demo-lenient', 'host-model', 'host-broken', 'host-slow']);
  assert.match(await page.evaluate(() => { try { window.evidenceValidator.registerJudge('demo-x', () => 'VALID'); return 'accepted'; } catch (e) { return e.message; } }), /reserved/);

  // one demo juror unticked: two demo VALID, the host model UNSUPPORTED, two host failures (skipped)
  await page.uncheck('.jury-panel input[data-juror="demo-strict"]');
  const s = await askJury();
  const { request } = await expectedClaim(0);
  const calls = await page.evaluate(() => window.__calls);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].prompt, lib.judgePrompt(request).prompt);
  assert.equal(calls[0].system, lib.juryInstructions());
  assert.equal(calls[0].judge, 'host-model');
  const votes = await shownVotes();
  assert.deepEqual(votes.map((v) => [v.judge, v.verdict, v.tag.toLowerCase()]), [
    ['demo-context', 'VALID', DEMO_LABEL], ['demo-lenient', 'VALID', DEMO_LABEL],
    ['host-model', 'UNSUPPORTED', 'host judge'], ['host-broken', 'failed', 'host judge'], ['host-slow', 'failed', 'host judge'],
  ]);
  assert.match(votes[3].reason, /model server unreachable/);
  assert.match(votes[4].reason, /timed out after 300 ms/);
  assert.equal(s.verdict, 'VALID');
  assert.match(await page.textContent('.claim-results .consensus-reason'), /Majority \(2\/3\): VALID/);
  assert.match(await page.textContent('.claim-results .jury-counts'), /5 jurors: 3 answered, 2 failed/);
  await page.$eval('.claim-results .step-3', (el) => el.scrollIntoView());
  await page.screenshot({ path: path.join(outDir, 'judge-host.png') });

  // unregistered jurors leave the panel
  await page.evaluate(() => ['host-model', 'host-broken', 'host-slow'].forEach((n) => window.evidenceValidator.unregisterJudge(n)));
  assert.equal(await page.$$eval('.jury-panel .juror-item', (l) => l.length), 3);
  await page.check('.jury-panel input[data-juror="demo-strict"]');

  // judges declared by the host page before the bundle loads are adopted (a
  // first visit: nothing kept from this page's edits, so the first sample is asked)
  await page.click('.judge-mode button.clear-button');
  await page.waitForTimeout(300);
  const early = await context.newPage();
  watch(early);
  await early.addInitScript(() => {
    window.evidenceValidator = { judges: { 'early-bird': async () => '{"verdict": "VALID", "reason": "declared early"}' } };
  });
  await early.goto(`${server.url}index.html#judge`);
  await early.waitForSelector('.claim-results[data-jury-runs="1"]');
  assert.deepEqual(await early.$$eval('.claim-results .vote', (l) => l.map((li) => li.dataset.judge)),
    ['demo-strict', 'demo-context', 'demo-lenient', 'early-bird']);
  assert.equal(await early.evaluate(() => 'judges' in window.evidenceValidator), false);
  await early.close();
});

test('verify a report: every citation\'s verdict and the summary, as verifyReport computes them', async () => {
  await page.click('.subview-button[data-view="report"]');
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")');
  await page.waitForSelector('.report-results[data-runs="1"][data-state="ok"]');
  const logs = [];
  const expected = await lib.verifyReport(REPORT, { [MINUTES.name]: MINUTES.text, [WATER.name]: WATER.text }, {
    judges: demo.demoJury({ threshold: 0.8, quoteScore: lib.quoteScore }), log: (e) => logs.push(e), reportName: 'harbour-report',
  });
  assert.deepEqual(expected.summary.verdicts, { VALID: 3, HUNG_JURY: 1, QUOTE_NOT_FOUND: 1, FILE_NOT_FOUND: 1, LINES_OUT_OF_RANGE: 1 });
  assert.match(await page.textContent('.report-summary .summary-line'), /^3 of 7 citations verified \(42\.9 %\)\./);
  const counts = await page.$$eval('.verdict-counts li', (lis) => Object.fromEntries(lis.map((li) => [li.dataset.verdict, Number(li.textContent.trim().split(' ').pop())])));
  assert.deepEqual(counts, expected.summary.verdicts);
  const shown = await page.$$eval('.citation', (lis) => lis.map((li) => ({
    index: Number(li.dataset.index), verdict: li.dataset.verdict, md: li.querySelector('.citation-md').textContent,
    claim: li.querySelector('.citation-claim').textContent, quote: li.querySelector('.citation-quote').textContent, text: li.textContent,
  })));
  assert.deepEqual(shown.map((c) => [c.index, c.verdict, c.md, c.claim, c.quote]),
    expected.results.map((r) => [r.citation.index, r.result.verdict, r.citation.markdown, r.citation.claim, r.citation.quote]));
  assert.match(shown[5].text, /not among the sources \(ferry-plan\.txt\)/);
  assert.match(shown[6].text, /cited lines L40-L41 are outside the file \(25 lines\)/);

  // citation 4 (the hung jury): its cited lines, its three votes and its own log entries (the 4th of each juror)
  await page.click('.citation[data-index="4"] .citation-more > summary');
  const four = '.citation[data-index="4"]';
  assert.deepEqual((await shownVotes(four)).map((v) => v.verdict),
    expected.results[3].result.jury.votes.map((v) => label(v.ballot.verdict)));
  assert.deepEqual(await page.$$eval(`${four} .log-entry[data-file]`, (d) => d.map((x) => x.dataset.file)),
    ['demo-strict_0004.txt', 'demo-context_0004.txt', 'demo-lenient_0004.txt']);
  assert.deepEqual(await page.$$eval(`${four} .cited-lines tr.is-cited .line-no`, (t) => t.map((x) => Number(x.textContent))), [11, 12]);

  // the markdown download is the library's (but the time it was generated)
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text-is("Download verification (markdown)")')]);
  assert.equal(download.suggestedFilename(), 'harbour-report_verification.md');
  const file = path.join(outDir, 'judge-report.md');
  await download.saveAs(file);
  const strip = (md) => md.replace(/^Generated .*$/m, '');
  assert.equal(strip(fs.readFileSync(file, 'utf8')), strip(expected.markdown));

  // a source removed: its citations become FILE_NOT_FOUND
  await page.click('.source-item:nth-child(2) button:text-is("Remove")');
  await page.click('button.run-report');
  await page.waitForSelector('.report-results[data-runs="2"][data-state="ok"]');
  assert.equal(await page.$eval('.citation[data-index="5"]', (li) => li.dataset.verdict), 'FILE_NOT_FOUND');
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")');
  await page.waitForSelector('.report-results[data-runs="3"][data-state="ok"]');
  await page.click('.citation[data-index="4"] .citation-more > summary');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'judge-report.png'), fullPage: true });
  await page.click('.subview-button[data-view="claim"]');
  assert.equal(await page.$eval('.claim-results', (el) => el.isConnected), true);
});

test('offline and clean: no request left 127.0.0.1, no page errors', () => {
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(pageErrors, []);
});
