// Issue 19, point 1, for the judge mode (specs 002/003): steps 1 and 2, the
// jury, a report's citations and their verification run in a Web Worker
// (www/src/modes/judge/worker-engine.js), the demo jurors beside them and a
// host's jurors asked of the page. In Chromium, against the built www/dist/:
//   - "Check a claim" on a large source file (Vim's version9.txt, 1.3 MB,
//     read from ../shared/data/texts/, already in the source box): an edit
//     of the quote, its steps 1 and 2, then the jury, keep the page
//     responsive (a PerformanceObserver for long tasks, from the edit's input
//     event until the jury's verdict is on screen and the work is saved,
//     sees no task over 50 ms, measured once); the verdict, the score and
//     each vote are the library's (its Node build with the same demo jury);
//   - "Verify a report": 150 citations over the three shared texts (3 MB of
//     sources, opened with "Load files…": each held out of its text box),
//     the same, from the click on "Verify report" until the citations are
//     on screen; each citation's verdict and the summary are verifyReport's;
//   - Cancel stops a long verification (a host juror that takes 30 ms a
//     turn, asked by the worker through the page) at once, and the next run
//     works on a fresh worker; and the jury of "Check a claim" (a host juror
//     that never answers).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { openApp, testClean } from './app.mjs';
import { longTasksSince, observeLongTasks } from './long-tasks.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const demo = await import(pathToFileURL(path.join(root, 'www', 'src', 'modes', 'judge', 'demo.js')).href);

/** The longest main-thread task allowed while a run is in flight (the RAIL "long task"), as in worker.test.mjs. */
const LONG_TASK_MS = 50;

/** Real prose, kept outside the repository in the shared data folder beside it (../shared/data/README.md; from a worktree, ../../shared/data/). */
const TEXTS = [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
  .map((dir) => path.join(dir, 'data', 'texts')).find((dir) => fs.existsSync(dir));
const haveData = TEXTS !== undefined;
const NAMES = ['node-changelog-v20.md', 'rust-releases.md', 'vim-version9.txt'];
const text = (name) => fs.readFileSync(path.join(TEXTS, name), 'utf8');

/** The 1-based numbers of the lines of `source` a quote can be taken from (eight words or more, no quote marks nor brackets). */
const quotable = (source) => source.split('\n').flatMap((l, i) => (/^[A-Za-z0-9 ,.;:'-]+$/.test(l.trim()) && l.trim().split(/\s+/).length >= 8 ? [i + 1] : []));

/**
 * A report of `n` citations over the shared texts, spread over each file:
 * most quote eight words of the cited line, every fifth cites lines thirty
 * further (the quote is not there).
 */
function longReport(n) {
  const files = NAMES.map((name) => ({ name, lines: text(name).split('\n'), ok: quotable(text(name)) }));
  const out = ['# What changed', ''];
  for (let i = 0; i < n; i++) {
    const f = files[i % files.length];
    const at = f.ok[Math.floor((Math.floor(i / files.length) * f.ok.length) / Math.ceil(n / files.length))];
    const quote = f.lines[at - 1].trim().split(/\s+/).slice(0, 8).join(' ');
    const cited = i % 5 === 4 ? at + 30 : at;
    out.push(`The notes say "${quote}" [${f.name}:L${cited}-L${cited + 1}](data/${f.name}).`);
  }
  return `${out.join('\n')}\n`;
}

const app = {};
let page;
before(async () => {
  Object.assign(app, await openApp('#judge'));
  page = app.page;
  await page.waitForSelector('.claim-results[data-jury-runs="1"]');
});
after(async () => {
  await app.close?.();
});

const claimState = () => page.$eval('.claim-results', (el) => ({ ...el.dataset }));
const reportState = () => page.$eval('.report-results', (el) => ({ ...el.dataset }));
/** Resolves once `el`'s `data-<key>` exceeds `n` (polled every 50 ms: a poller in every frame is work of the test's own). */
const above = (selector, key, n, timeout = 120_000) =>
  page.waitForFunction(([s, k, m]) => Number(document.querySelector(s).dataset[k]) > m, [selector, key, n], { timeout, polling: 50 });

test('check a claim on a 1.3 MB source: an edit, steps 1 and 2 and the jury, no long task; the library\'s verdict', { skip: !haveData && 'no ../shared/data/' }, async () => {
  const source = text('vim-version9.txt');
  const at = quotable(source).at(-40);
  const lines = source.split('\n');
  const quote = lines[at - 1].trim().split(/\s+/).slice(0, 8).join(' ');
  const request = { claim: `Vim 9 says: ${quote}`, quote, lines: `L${at}-L${at + 1}`, filename: 'vim-version9.txt', source };
  const logs = [];
  const expected = await lib.verifyClaim(request, { judges: demo.demoJury({ threshold: 0.8, quoteScore: lib.quoteScore }), log: (e) => logs.push(e), threshold: 0.8 });

  // the inputs in their boxes (the quote still empty), laid out before measuring
  await page.$eval('input[id^="jd-file"]', (el, v) => { el.value = v; }, request.filename);
  await page.$eval('textarea[id^="jd-source"]', (el, v) => { el.value = v; }, source);
  await page.$eval('textarea[id^="jd-claim"]', (el, v) => { el.value = v; }, request.claim);
  await page.$eval('input[id^="jd-lines"]', (el, v) => { el.value = v; }, request.lines);
  await page.$eval('textarea[id^="jd-quote"]', (el) => { el.value = ''; });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(1000);
  const { checks, juryRuns } = await claimState();
  await observeLongTasks(page);
  await page.$eval('textarea[id^="jd-quote"]', (el, v) => { el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); }, quote);
  await above('.claim-results', 'checks', Number(checks));
  await page.click('button.ask-jury');
  await above('.claim-results', 'juryRuns', Number(juryRuns));
  const longTasks = await longTasksSince(page);
  console.log(`judge, check a claim on ${source.length} characters, then the jury: long tasks ${JSON.stringify(longTasks)}`);
  const s = await claimState();
  assert.equal(s.state, 'ok');
  assert.deepEqual(longTasks.filter((ms) => ms > LONG_TASK_MS), [], 'no main-thread task over 50 ms');
  assert.equal(s.verdict, expected.verdict);
  assert.equal(expected.step_2_quote_match, true, 'the quote is in the cited lines');
  assert.match(await page.textContent('.claim-results .step-2'), new RegExp(expected.quote_score.toFixed(2).replace('.', '\\.')));
  const votes = await page.$$eval('.claim-results .step-3 .vote', (lis) => lis.map((li) => [li.dataset.judge, li.querySelector('.vote-verdict').textContent]));
  assert.deepEqual(votes, expected.jury.votes.map((v) => [v.judge, v.ballot.verdict.replaceAll('_', ' ')]));
  assert.deepEqual(await page.$$eval('.claim-results .cited-lines tr.is-cited .line-no', (t) => t.map((x) => Number(x.textContent))), [at, at + 1]);
});

test('verify a report of 150 citations over 3 MB of sources: no long task; verifyReport\'s verdicts', { skip: !haveData && 'no ../shared/data/' }, async () => {
  const report = longReport(150);
  const sources = Object.fromEntries(NAMES.map((n) => [n, text(n)]));
  const expected = await lib.verifyReport(report, sources, { judges: demo.demoJury({ threshold: 0.8, quoteScore: lib.quoteScore }), reportName: 'report' });
  assert.equal(expected.results.length, 150);
  await page.click('.subview-button[data-view="report"]');
  await page.click('.judge-mode button.clear-button');
  await page.click('.subview-button[data-view="report"]');
  await page.setInputFiles('input[type="file"][id^="jd-sources-file"]', NAMES.map((n) => path.join(TEXTS, n)));
  await page.waitForFunction((k) => document.querySelectorAll('.source-item').length === k, NAMES.length);
  assert.equal(await page.$$eval('.source-item .held-text:not([hidden])', (l) => l.length), NAMES.length, 'each source is held out of its box');
  await page.$eval('textarea[id^="jd-report"]', (el, v) => { el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); }, report);
  await page.waitForFunction(() => /150 citations found/.test(document.querySelector('.citation-count').textContent), null, { polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(1000);
  const { runs } = await reportState();
  await observeLongTasks(page);
  await page.click('button.run-report');
  await above('.report-results', 'runs', Number(runs));
  await page.waitForFunction(() => document.querySelector('.report-results').dataset.state !== 'running', null, { polling: 50 });
  const longTasks = await longTasksSince(page);
  console.log(`judge, verify a report of 150 citations over ${Object.values(sources).join('').length} characters: long tasks ${JSON.stringify(longTasks)}`);
  assert.equal((await reportState()).state, 'ok');
  assert.deepEqual(longTasks.filter((ms) => ms > LONG_TASK_MS), [], 'no main-thread task over 50 ms');
  const shown = await page.$$eval('.citation', (lis) => lis.map((li) => [Number(li.dataset.index), li.dataset.verdict]));
  assert.deepEqual(shown, expected.results.map((r) => [r.citation.index, r.result.verdict]));
  const counts = await page.$$eval('.verdict-counts li', (lis) => Object.fromEntries(lis.map((li) => [li.dataset.verdict, Number(li.textContent.trim().split(' ').pop())])));
  assert.deepEqual(counts, expected.summary.verdicts);
  assert.ok(Object.keys(counts).length >= 2, JSON.stringify(counts));
});

test('Cancel stops a long verification (a slow host juror) at once; the next run works on a fresh worker', { skip: !haveData && 'no ../shared/data/' }, async () => {
  await page.evaluate(() => {
    window.evidenceValidator.registerJudge('host-slow', (prompt) => new Promise((r) => setTimeout(() => r('{"verdict": "VALID", "reason": "slow but sure"}'), 30)));
  });
  const { runs } = await reportState();
  await page.click('button.run-report');
  await page.waitForSelector('.report-results .progress-row:not([hidden]) .cancel-button', { timeout: 30_000 });
  await page.waitForFunction(() => /The jury has sat on [1-9]\d* of 150 citations…/.test(document.querySelector('.report-results .progress-text').textContent), null, { polling: 50 });
  const t0 = Date.now();
  await page.click('.report-results .cancel-button');
  await page.waitForFunction(() => document.querySelector('.report-results').dataset.state === 'cancelled', null, { timeout: 5000, polling: 50 });
  const cancelledIn = Date.now() - t0;
  assert.ok(cancelledIn < 2000, `cancelled in ${cancelledIn} ms`);
  assert.equal((await reportState()).runs, runs, 'a cancelled run is not a finished one');
  assert.equal(await page.isVisible('.report-results .progress-row'), false);
  await page.evaluate(() => window.evidenceValidator.unregisterJudge('host-slow'));
  // the sample, verified by a fresh worker
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")');
  await above('.report-results', 'runs', Number(runs));
  await page.waitForFunction(() => document.querySelector('.report-results').dataset.state !== 'running', null, { polling: 50 });
  assert.equal((await reportState()).state, 'ok');
  assert.equal(await page.$$eval('.citation', (lis) => lis.length), 7);
});

test('Cancel stops the jury at once (a host juror that never answers); steps 1 and 2 stay', async () => {
  await page.click('.subview-button[data-view="claim"]');
  await page.evaluate(() => {
    window.evidenceValidator.registerJudge('host-silent', () => new Promise(() => {}), { timeoutMs: 600_000 });
  });
  const { juryRuns, checks } = await claimState();
  await page.click('.judge-inputs .sample-bar button:text-is("Load sample")'); // the first claim sample, put to the jury
  await page.waitForSelector('.claim-results .progress-row:not([hidden]) .cancel-button', { timeout: 30_000 });
  assert.equal((await claimState()).state, 'deliberating');
  assert.match(await page.textContent('.claim-results .progress-text'), /^The jury is deliberating: \d of 4 jurors answered…$/);
  const t0 = Date.now();
  await page.click('.claim-results .cancel-button');
  await page.waitForFunction(() => document.querySelector('.claim-results').dataset.state === 'ok', null, { timeout: 5000, polling: 50 });
  const cancelledIn = Date.now() - t0;
  assert.ok(cancelledIn < 2000, `cancelled in ${cancelledIn} ms`);
  const s = await claimState();
  assert.equal(s.juryRuns, juryRuns, 'a cancelled jury is not a finished one');
  assert.ok(Number(s.checks) > Number(checks), 'steps 1 and 2 shown again');
  assert.equal(s.verdict, 'JURY_NOT_CONVENED');
  assert.equal(await page.isVisible('.claim-results .progress-row'), false);
  assert.equal(await page.isEnabled('button.ask-jury'), true);
  await page.evaluate(() => window.evidenceValidator.unregisterJudge('host-silent'));
});

testClean(app);
