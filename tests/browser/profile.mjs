// Where the evidence mode's main-thread time goes on the issue's two worst
// cases, from Chromium's own trace (CDP `Tracing`): every renderer main-thread
// task over a threshold, with the trace events inside it summed by name.
// A tool, not a test (node --test does not pick it up):
//
//   node tests/browser/profile.mjs [aaa|book] [--edit] [--threshold=30] [--trace=FILE]
//     [--cpu] [--no-js] [--v8]
//
// Each task shows its wall time and its thread (CPU) time. On a machine
// whose cores are shared, a task's wall time can be many times its CPU
// time (the thread waits for a core: a 2 ms task seen taking 60 ms), so
// `--cpu` picks tasks by their CPU time instead: that is what the page's
// code decides. `--no-js` leaves out the sampling profiler (it slows the
// page, and starts with a long task of its own); `--v8` adds V8's own
// categories (wasm tier-up compilation, GC) to see the other threads.
//
// `aaa`: 1 MB of "a a …" and the quote "a a a a a a"; `book`:
// benches/data/rust-book.md and its 1000 claims (benches/data/claims-1000.json);
// `--edit` then edits one claim and profiles that run instead.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openApp, CLAIMS_BOX } from './app.mjs';
import { root } from './build.mjs';

const args = process.argv.slice(2);
const which = args.find((a) => !a.startsWith('--')) ?? 'book';
const edit = args.includes('--edit');
const threshold = Number(args.find((a) => a.startsWith('--threshold='))?.split('=')[1] ?? 30);
/** --cpu: a task's thread (CPU) time is compared with the threshold, not its wall time (on a loaded machine the wall time is mostly waiting for a core). */
const byCpu = args.includes('--cpu');
const traceFile = args.find((a) => a.startsWith('--trace='))?.split('=')[1];

/** Few categories: tracing's own cost stays small (the durations are still a little longer than untraced). */
const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'blink.user_timing', ...(process.argv.includes('--v8') ? ['v8', 'v8.wasm', 'disabled-by-default-v8.compile', 'disabled-by-default-v8.gc'] : []), ...(process.argv.includes('--no-js') ? [] : ['disabled-by-default-v8.cpu_profiler']),
  ...(process.argv.includes('--invalidations') ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])];

/** The case's source and claims (JSON text). */
export function worstCase(name) {
  if (name === 'aaa') {
    return { source: 'a '.repeat(500_000), claims: JSON.stringify({ claims: [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'a a a a a a' }] }) };
  }
  const data = path.join(root, 'benches', 'data');
  return { source: fs.readFileSync(path.join(data, 'rust-book.md'), 'utf8'), claims: fs.readFileSync(path.join(data, 'claims-1000.json'), 'utf8') };
}

export async function traced(page, fn) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
  await fn();
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  await cdp.detach();
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/**
 * The renderer main thread's tasks over `threshold` ms, each with its event
 * tree two levels deep (events of 1 ms and more): `{ ms, at (ms from the
 * first task), tree: string[] }`.
 */
export function longTasksOf(events, threshold) {
  const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busiest = names.map((n) => ({ n, k: events.filter((x) => x.pid === n.pid && x.tid === n.tid && x.ph === 'X').length }))
    .sort((a, b) => b.k - a.k)[0]?.n;
  if (!busiest) return [];
  const mine = events.filter((e) => e.pid === busiest.pid && e.tid === busiest.tid && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // the outermost events are the tasks
  const tasks = [];
  let end = -Infinity;
  for (const e of mine) {
    if (e.ts >= end) { tasks.push(e); end = e.ts + e.dur; }
  }
  const t0 = tasks[0]?.ts ?? 0;
  // the sampling profiler's samples (self time by function) on this thread
  const samples = [];
  const nodes = new Map();
  let clock = null;
  // the Profile event is on the profiled thread; its chunks (same id) on the profiler's
  const mainIds = new Set(events.filter((x) => x.name === 'Profile' && x.pid === busiest.pid && x.tid === busiest.tid).map((x) => x.id));
  for (const e of events.filter((x) => x.pid === busiest.pid && mainIds.has(x.id) && (x.name === 'Profile' || x.name === 'ProfileChunk')).sort((a, b) => a.ts - b.ts)) {
    if (e.name === 'Profile') { clock = e.args?.data?.startTime ?? e.ts; continue; }
    const d = e.args?.data;
    for (const n of d?.cpuProfile?.nodes ?? []) {
      const cf = n.callFrame ?? {};
      nodes.set(n.id, `${cf.functionName || '(anon)'}@${(cf.url ?? '').split('/').pop()}:${cf.lineNumber ?? ''}`);
    }
    const ids = d?.cpuProfile?.samples ?? [];
    const deltas = d?.timeDeltas ?? [];
    for (const [k, id] of ids.entries()) {
      clock += deltas[k] ?? 0;
      samples.push({ ts: clock, fn: nodes.get(id) ?? String(id), ms: 0 });
    }
  }
  samples.sort((a, b) => a.ts - b.ts);
  for (const [k, sm] of samples.entries()) sm.ms = k + 1 < samples.length ? Math.min(5, (samples[k + 1].ts - sm.ts) / 1000) : 0;
  const out = [];
  for (const [k, t] of tasks.entries()) {
    t.prevEnd = k > 0 ? tasks[k - 1].ts + tasks[k - 1].dur : 0;
    if ((byCpu ? (t.tdur ?? t.dur) : t.dur) / 1000 < threshold) continue;
    const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const tree = [];
    const walk = (parent, list, depth) => {
      let until = -Infinity;
      for (const e of list) {
        if (e.ts < until) continue; // nested in a sibling
        until = e.ts + e.dur;
        const kids = list.filter((x) => x !== e && x.ts >= e.ts && x.ts + x.dur <= e.ts + e.dur);
        if (e.dur >= 1000) {
          const d = e.args?.data;
          const b = e.args?.beginData;
          const what = d?.functionName || d?.url ? ` ${d.functionName ?? ''}@${(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}`
            : b?.totalObjects ? ` (${b.dirtyObjects} dirty of ${b.totalObjects} objects${b.partialLayout ? ', partial' : ''})`
              : e.args?.elementCount ? ` (${e.args.elementCount} elements)` : '';
          tree.push(`${'  '.repeat(depth)}${e.name}${what} ${(e.dur / 1000).toFixed(1)}${typeof e.tdur === 'number' ? ` (cpu ${(e.tdur / 1000).toFixed(1)})` : ''}`);
          if (depth < 3) walk(e, kids, depth + 1);
        }
      }
    };
    walk(t, inside, 1);
    const js = new Map();
    for (const sm of samples) if (sm.ts >= t.ts && sm.ts <= t.ts + t.dur) js.set(sm.fn, (js.get(sm.fn) ?? 0) + sm.ms);
    const topJs = [...js].sort((a, b) => b[1] - a[1]).slice(0, 8).filter(([, ms]) => ms >= 1);
    if (topJs.length) tree.push(`  JS self: ${topJs.map(([f, ms]) => `${f} ${ms.toFixed(1)}`).join(' | ')}`);
    // what made layout and style dirty since the previous task over the threshold
    const inv = new Map();
    for (const e of events) {
      if (!/InvalidationTracking/.test(e.name) || e.ts > t.ts + t.dur || e.ts < (t.prevEnd ?? 0)) continue;
      const d = e.args?.data ?? {};
      const k = `${e.name.replace('InvalidationTracking', '')}: ${d.reason ?? d.changedAttribute ?? d.changedClass ?? ''} ${d.nodeName ?? ''}`;
      inv.set(k, (inv.get(k) ?? 0) + 1);
    }
    if (inv.size) tree.push(`  invalidations: ${[...inv].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${k} ×${n}`).join(' | ')}`);
    out.push({ ms: Math.round(t.dur / 1000), cpu: typeof t.tdur === 'number' ? Math.round(t.tdur / 1000) : null, at: Math.round((t.ts - t0) / 1000), name: t.name, tree });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await openApp('');
  try {
    const { page } = app;
    await page.waitForSelector('.evidence-mode[data-state]');
    const { source, claims } = worstCase(which);
    const validations = () => page.$eval('.evidence-mode', (el) => Number(el.dataset.validations));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-profile-'));
    const fileOf = (name, text) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f; };
    const after = async (n) => page.waitForFunction((k) => Number(document.querySelector('.evidence-mode').dataset.validations) >= k, n, { timeout: 300_000 });
    // as the test does: the source and the claims opened as files (held out of their boxes)
    const open = async () => {
      const n = await validations();
      await page.setInputFiles('input[type="file"][id^="ev-source-file"]', fileOf('source.txt', source));
      await after(n + 1);
      await page.setInputFiles('input[type="file"][id^="ev-claims-file"]', fileOf('claims.json', claims));
      await after(n + 2);
      await page.waitForTimeout(1500);
    };
    let events;
    if (edit) {
      await open();
      await page.click('.held-text button:text-is("Edit in the box") >> nth=1');
      const changed = claims.replace(/"quote": "([^"]{8})/, '"quote": "$1 zulu');
      await page.$eval(CLAIMS_BOX, (box, c) => { box.value = c; return box.scrollHeight; }, changed);
      await page.waitForTimeout(1500);
      const n = await validations();
      events = await traced(page, async () => {
        await page.$eval(CLAIMS_BOX, (box) => box.dispatchEvent(new Event('input', { bubbles: true })));
        await after(n + 1);
        await page.waitForTimeout(1500);
      });
    } else {
      events = await traced(page, open);
    }
    report(events, 0);
    fs.rmSync(dir, { recursive: true, force: true });
    if (app.pageErrors.length) console.log('page errors:', app.pageErrors);
  } finally {
    await app.close();
  }
}

function report(events, ms) {
  if (traceFile) fs.writeFileSync(traceFile, JSON.stringify(events));
  const tasks = longTasksOf(events, threshold);
  console.log(`${which}${edit ? ' edit' : ''}: run ${ms} ms; ${tasks.length} main-thread tasks over ${threshold} ms`);
  for (const t of tasks) console.log(`  ${t.ms} ms (cpu ${t.cpu}) at +${t.at} ms (${t.name})\n${t.tree.join('\n')}`);
}
