// Issue 19, point 1, for the cite mode (spec 004): the boxes are read and
// the citation pipeline runs in a Web Worker
// (www/src/modes/cite/worker-engine.js), the page's offline demo host beside
// it. In Chromium, against the built www/dist/:
//   - many sources (60 passages of 4,000 characters of real prose, read from
//     ../shared/data/texts/) and a long answer (150 claims citing them, a
//     quarter citing the wrong source) keep the page responsive: a
//     PerformanceObserver for long tasks, from the click on "Run the
//     pipeline" until the report is on screen and the work is saved, sees no
//     task over 50 ms, measured once (no second attempt);
//   - the report shown is the library's (the Node build of the package, with
//     the same demo host, computes it): each claim's text, verdict and
//     citations, the summary, and the highlighted evidence;
//   - Stop ends a long run at once (the worker is replaced), and the next
//     run works on a fresh worker;
//   - with an OpenAI-compatible URL, each LLM request the worker asks for
//     is made by the page (here to the test's own server, which refuses
//     them: the report is the library's for calls that all fail).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';
import { openApp, testClean } from './app.mjs';
import { longTasksSince, observeLongTasks } from './long-tasks.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const demo = await import(pathToFileURL(path.join(root, 'www', 'src', 'modes', 'cite', 'demo.js')).href);

/** The longest main-thread task allowed while a run is in flight (the RAIL "long task"), as in worker.test.mjs. */
const LONG_TASK_MS = 50;

/** Real prose, kept outside the repository in the shared data folder beside it (../shared/data/README.md; from a worktree, ../../shared/data/). */
const TEXTS = [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
  .map((dir) => path.join(dir, 'data', 'texts')).find((dir) => fs.existsSync(dir));
const haveData = TEXTS !== undefined;

/** `n` sources of `size` characters, taken evenly from the shared texts (one after another). */
function manySources(n, size) {
  const all = fs.readdirSync(TEXTS).sort().map((f) => fs.readFileSync(path.join(TEXTS, f), 'utf8')).join('\n\n');
  return Array.from({ length: n }, (_, i) => {
    const at = Math.floor((i * (all.length - size)) / n);
    return { id: `s${i + 1}`, title: `Source ${i + 1}`, content: all.slice(at, at + size) };
  });
}

/** `n` claims: the first 14 words of a line of a source, citing it (every fourth cites another source). */
function longAnswer(sources, n) {
  return Array.from({ length: n }, (_, i) => {
    const src = sources[i % sources.length];
    const lines = src.content.split('\n').map((l) => l.trim()).filter((l) => l.split(/\s+/).length >= 8);
    const line = lines[Math.floor(i / sources.length) % Math.max(1, lines.length)] ?? src.content;
    return { text: line.split(/\s+/).slice(0, 14).join(' '), citations: [i % 4 === 3 ? sources[(i + 7) % sources.length].id : src.id] };
  });
}

const app = {};
let page;
before(async () => {
  Object.assign(app, await openApp('#cite'));
  page = app.page;
  await page.waitForSelector('button.cite-run');
});
after(async () => {
  await app.close?.();
});

const results = () => page.$eval('.cite-results', (el) => ({ runs: Number(el.dataset.runs), state: el.dataset.state }));
/** Resolves once the run after `runs` has finished (polled every 50 ms: a poller in every frame is work of the test's own). */
const finished = (runs, timeout = 120_000) => page.waitForFunction((n) => {
  const el = document.querySelector('.cite-results');
  return Number(el.dataset.runs) > n && el.dataset.state !== 'running';
}, runs, { timeout, polling: 50 });

/** Puts the inputs in their boxes without telling the page (then a frame and a second: the boxes laid out before measuring). */
async function fill({ query, sources, claims }) {
  await page.$eval('input[id^="ct-query"]', (box, v) => { box.value = v; }, query);
  await page.$eval('textarea[id^="ct-sources"]', (box, v) => { box.value = v; }, JSON.stringify(sources, null, 2));
  await page.$eval('textarea[id^="ct-claims"]', (box, v) => { box.value = v; }, JSON.stringify(claims));
  await page.$eval('textarea[id^="ct-outline"]', (box) => { box.value = ''; });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(1000);
}

test('60 sources and a 150-claim answer with the demo host: no long task, the library\'s report', { skip: !haveData && 'no ../shared/data/' }, async () => {
  const sources = manySources(60, 4000);
  const claims = longAnswer(sources, 150);
  const query = 'What changed in these releases?';
  const expected = await lib.citePipeline({ query, sources, claims, outline: [] }, null, demo.demoHost());
  await fill({ query, sources, claims });
  const { runs } = await results();
  await observeLongTasks(page);
  await page.click('button.cite-run');
  await finished(runs);
  const longTasks = await longTasksSince(page);
  console.log(`cite, 60 sources of 4,000 characters, 150 claims: long tasks ${JSON.stringify(longTasks)}`);
  assert.equal((await results()).state, 'ok');
  assert.deepEqual(longTasks.filter((ms) => ms > LONG_TASK_MS), [], 'no main-thread task over 50 ms');

  const shown = await page.$$eval('.cite-claim', (lis) => lis.map((li) => ({
    text: li.querySelector('.cite-claim-text').textContent, verdict: li.dataset.verdict, citations: li.querySelector('.cite-citations').textContent,
  })));
  assert.equal(shown.length, 150);
  assert.deepEqual(shown, expected.claims.map((c) => ({
    text: c.text, verdict: c.verdict ?? 'ABSTAINED',
    citations: `citations: ${c.correction.citations_before.join(', ') || '—'} → ${c.correction.citations_after.join(', ') || '—'} (${c.correction.action})`,
  })));
  const s = expected.summary;
  assert.match(await page.textContent('.cite-summary'), new RegExp(`^${s.claims} claims: ${s.supported} supported, ${s.partial} partial, ${s.unsupported} unsupported, ${s.contradicted} contradicted, ${s.nei} NEI;`));
  // every evidence span shown is the source's own text at the library's offsets (overlapping ones: the first)
  const marks = await page.$$eval('.cite-source', (secs) => secs.map((sec) => ({
    id: sec.dataset.id, marks: [...sec.querySelectorAll('mark.cite-span')].map((m) => [Number(m.dataset.claim), m.textContent]),
  })));
  assert.equal(marks.length, 60);
  for (const { id, marks: got } of marks) {
    const src = sources.find((x) => x.id === id);
    const spans = expected.claims.flatMap((c, i) => c.evidence.filter((e) => e.source_id === id).map((e) => ({ ...e, claim: i })))
      .sort((a, b) => a.position.utf16_start - b.position.utf16_start);
    const want = [];
    let at = 0;
    for (const sp of spans) {
      if (sp.position.utf16_start < at) continue;
      want.push([sp.claim, src.content.slice(sp.position.utf16_start, sp.position.utf16_end)]);
      at = sp.position.utf16_end;
    }
    assert.deepEqual(got, want, id);
  }
  assert.ok(marks.some((m) => m.marks.length > 0), 'evidence is highlighted');
});

test('Stop ends a long run at once; the next run works on a fresh worker', { skip: !haveData && 'no ../shared/data/' }, async () => {
  const sources = manySources(200, 5000);
  await fill({ query: 'What changed?', sources, claims: longAnswer(sources, 3000) });
  const { runs } = await results();
  await page.click('button.cite-run');
  await page.waitForSelector('.cite-live-claim', { timeout: 60_000 });
  const t0 = Date.now();
  await page.click('button.cite-stop');
  await finished(runs, 5000);
  const stoppedIn = Date.now() - t0;
  assert.equal((await results()).state, 'stopped');
  assert.ok(stoppedIn < 2000, `stopped in ${stoppedIn} ms`);
  const listed = await page.$$eval('.cite-live-claim', (lis) => lis.length);
  assert.ok(listed < 3000, `${listed} claims listed before Stop`);
  // a small run on the fresh worker
  const few = manySources(3, 2000);
  await fill({ query: 'What changed?', sources: few, claims: longAnswer(few, 3) });
  await page.click('button.cite-run');
  await finished(runs + 1);
  assert.equal((await results()).state, 'ok');
  assert.equal(await page.$$eval('.cite-claim', (lis) => lis.length), 3);
});

test('an OpenAI-compatible URL: the page makes each LLM request the worker asks for; their failures are the library\'s', { skip: !haveData && 'no ../shared/data/' }, async () => {
  // the test's own server answers POST with 405: every call fails, as it would with a server that is down
  const url = `${app.server.url}v1`;
  const sources = manySources(3, 2000);
  const claims = longAnswer(sources, 3);
  const query = 'What changed?';
  const host = async () => { throw new Error(`HTTP 405 from ${url}/chat/completions`); };
  const expected = await lib.citePipeline({ query, sources, claims, outline: [] }, null, { generate: host, verify: host, qa: host });
  await fill({ query, sources, claims });
  await page.check('input[name="ct-host"][value="url"]');
  await page.fill('input.cite-url', url);
  await page.fill('input.cite-model', 'a-model');
  const before = app.server.requests.length;
  const { runs } = await results();
  await page.click('button.cite-run');
  await finished(runs);
  assert.equal((await results()).state, 'ok');
  const posts = app.server.requests.slice(before).filter((r) => r === 'POST /v1/chat/completions');
  assert.ok(posts.length > 0, 'the page asked the URL');
  assert.ok(expected.summary.failed_calls > 0, JSON.stringify(expected.summary));
  const shown = await page.$$eval('.cite-claim', (lis) => lis.map((li) => [li.querySelector('.cite-claim-text').textContent, li.dataset.verdict]));
  assert.deepEqual(shown, expected.claims.map((c) => [c.text, c.verdict ?? 'ABSTAINED']));
  const s = expected.summary;
  assert.match(await page.textContent('.cite-summary'), new RegExp(`; ${s.llm_calls} LLM calls$`));
  await page.check('input[name="ct-host"][value="demo"]');
  // Chromium logs each refused request as a console error: expected here, and only these
  const refused = 'console: Failed to load resource: the server responded with a status of 405 (Method Not Allowed)';
  assert.ok(app.pageErrors.includes(refused));
  app.pageErrors.splice(0, app.pageErrors.length, ...app.pageErrors.filter((e) => e !== refused));
});

testClean(app);
