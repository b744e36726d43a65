#!/usr/bin/env node
// The edge worker under load (issue 21 item 4): edge/worker.mjs in workerd
// (the `miniflare` package starts it on 127.0.0.1, offline, as the edge
// tests do), driven over HTTP by closed-loop clients in this process.
//
//   npm run build && npm run bench:edge
//   node scripts/bench-edge.mjs [--seconds S] [--runs N] [--baseline DIR]
//
// Workloads (seeded, scripts/workload.mjs): small = a 100 KB document with
// 50 claims; heavy = the 1 MB document with 1000 claims (the worker runs
// with EV_MAX_CLAIMS=1000, its default bound being 100).
// Phases, each bounded by time (--seconds, default 6) and by count (at most
// 2000 requests), run --runs times (default 3; the table gives the median
// of the runs' figures):
//   1. small alone at 1, 8 and 32 concurrent clients: requests per second,
//      p50 and p99 latency;
//   2. heavy alone, 1 client;
//   3. small at 1 and 8 clients while 1 client (on its own thread:
//      scripts/edge-client.mjs) sends heavy requests back
//      to back, on the worker as it is (a request over one slice of
//      EV_SLICE_CLAIMS claims or one step of EV_SLICE_BYTES of source done
//      by the library's SlicedValidation step by step, yielding between
//      steps) and on one started with EV_SLICE_CLAIMS=1000 and
//      EV_SLICE_BYTES=5242880 (every request's steps run without yielding:
//      the worker as one call); and, as the control, beside 1 client
//      sending a body of the heavy request's size that the worker refuses
//      as not JSON (received and decoded, never validated): what a heavy
//      stream costs the small requests before the worker's own work, on a
//      machine where clients and runtime share the cores.
// With --baseline DIR, phase 3 also runs on DIR/edge/worker.mjs with its
// DIR/pkg (another version of the worker, e.g. a copy of an older
// checkout's edge/ and built pkg/), with the same bindings as the worker
// as it is, side by side in the same run.
// Before the phases, the heavy request's steps are timed one by one in
// Node (the library's SlicedValidation with the worker's default slice
// options): the longest step is what a small request beside it may wait
// for.
// Every answer is checked: status 200 and the contentHash the library in
// Node gives for the same request (the script exits 1 otherwise). Timings
// are never checked.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loop } from './edge-client.mjs';
import { claimsFor, documentOf, plain } from './workload.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const SECONDS = arg('--seconds', 6);
const BASELINE = args.includes('--baseline') ? path.resolve(args[args.indexOf('--baseline') + 1]) : null;
const RUNS = arg('--runs', 3);
const MAX_REQUESTS = 2000;
/** The whole run stops after this, whatever is left. */
const TOTAL_LIMIT_MS = 15 * 60 * 1000;
const benchStart = performance.now();

if (!fs.existsSync(path.join(root, 'pkg', 'web', 'workerd.js'))) {
  console.error('bench-edge: pkg/ is not built: run `npm run build` first');
  process.exit(2);
}
// the edge tests' harness: the same workerd configuration (Miniflare, a CompiledWasm rule)
const { lib, startWorker } = await import('../tests/edge/harness.mjs');

const small = (() => {
  const source = documentOf(100_000);
  const claims = plain(claimsFor(source, 50, 21));
  return { name: 'small', body: JSON.stringify({ source, claims }), hash: lib.validateEvidence(source, claims).generated.contentHash };
})();
const heavy = (() => {
  const source = documentOf(1_000_000);
  const claims = plain(claimsFor(source, 1000, 7));
  return { name: 'heavy', body: JSON.stringify({ source, claims }), hash: lib.validateEvidence(source, claims).generated.contentHash };
})();

/**
 * The control beside the small clients: a body of the heavy request's size
 * that the worker refuses as not JSON (its first byte), so it is received,
 * decoded and refused, and never validated: what a heavy stream costs the
 * small requests before any of the worker's own work.
 */
const refused = { name: 'refused', body: `x${heavy.body}`, refusedAs: { status: 400, code: 'INVALID_JSON' } };

let failures = 0;
let resets = 0;
/** Counts and reports a loop's wrong answers and resets; returns its latencies. */
function tally({ latencies, errors, resets: lost }) {
  for (const e of errors) console.error(`bench-edge: ${e}`);
  for (const r of lost) console.error(`bench-edge: ${r}`);
  failures += errors.length;
  resets += lost.length;
  return latencies;
}

/**
 * The heavy stream beside the small clients runs on its own thread
 * (scripts/edge-client.mjs): reading and checking a 1.2 MB answer there
 * does not hold the small clients' event loop.
 */
const heavyThread = new Worker(new URL('./edge-client.mjs', import.meta.url), { workerData: { role: 'heavy-stream' } });
heavyThread.unref();
/** Starts a stream of `load` on `url`; the returned function stops it and gives its latencies. */
function startHeavyStream(url, load) {
  const result = new Promise((resolve, reject) => {
    const done = (settle) => (value) => {
      heavyThread.off('message', onMessage);
      heavyThread.off('error', onError);
      settle(value);
    };
    const onMessage = done(resolve);
    const onError = done(reject);
    heavyThread.on('message', onMessage);
    heavyThread.on('error', onError);
  });
  heavyThread.postMessage({ url, load });
  return async () => {
    heavyThread.postMessage({ stop: true });
    return tally(await result);
  };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const median = (xs) => quantile(xs, 0.5);

/** One phase: `clients` small (or heavy) clients, with or without a stream of `beside` (one client) beside them. */
async function phase(url, load, clients, beside = null) {
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let stop = false;
  const until = () => stop || performance.now() > deadline;
  const stopHeavy = beside ? startHeavyStream(url, beside) : null;
  const latencies = tally(await loop(url, load, clients, until, MAX_REQUESTS));
  const elapsed = (performance.now() - start) / 1000;
  stop = true;
  const heavyLatencies = stopHeavy ? await stopHeavy() : [];
  return { rps: latencies.length / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), n: latencies.length, heavyDone: heavyLatencies.length, heavyP50: heavyLatencies.length ? median(heavyLatencies) : NaN };
}

/**
 * The heavy request's steps, timed one by one: the library's
 * SlicedValidation (in Node, the package's Node build of the same wasm; with
 * --baseline, also DIR/pkg's) with the worker's default slice options, step()
 * until done: a small request beside a heavy one waits for at most the
 * heavy one's longest step. Per run: the longest step, the second longest,
 * the number of steps and their sum; the medians over `runs` runs (after
 * one run to warm up). Also timed: what the worker does for the request
 * without yielding before its first step, the body's `parseJson` and the
 * SlicedValidation constructor (the claims converted and checked).
 */
async function heavySteps(library, runs) {
  const figures = [];
  for (let run = 0; run <= runs; run++) {
    let t = performance.now();
    const { source, claims } = library.parseJson(heavy.body);
    const parse = performance.now() - t;
    t = performance.now();
    const job = new library.SlicedValidation(source, claims, null, { claimsPerSlice: 50, bytesPerStep: 65536 });
    const setup = performance.now() - t;
    const times = [];
    for (let done = false; !done; ) {
      const t = performance.now();
      done = job.step();
      times.push(performance.now() - t);
    }
    t = performance.now();
    job.finishJson();
    times.push(performance.now() - t);
    times.sort((a, b) => b - a);
    if (run > 0) figures.push({ parse, setup, longest: times[0], second: times[1], steps: times.length, sum: times.reduce((a, b) => a + b, 0) });
  }
  const m = (f) => median(figures.map(f));
  return {
    parse: m((f) => f.parse),
    setup: m((f) => f.setup),
    longest: m((f) => f.longest),
    second: m((f) => f.second),
    steps: m((f) => f.steps),
    sum: m((f) => f.sum),
  };
}
const stepRows = [['in steps', await heavySteps(lib, 2 * RUNS + 1)]];
if (BASELINE !== null) {
  const baseLib = await import(pathToFileURL(path.join(BASELINE, 'pkg', 'nodejs', 'index.mjs')).href);
  stepRows.push([`baseline (${BASELINE})`, await heavySteps(baseLib, 2 * RUNS + 1)]);
}

const sliced = await startWorker({ EV_MAX_CLAIMS: '1000' });
const oneCall = await startWorker({ EV_MAX_CLAIMS: '1000', EV_SLICE_CLAIMS: '1000', EV_SLICE_BYTES: '5242880' });
const baseline = BASELINE === null ? null : await startWorker({ EV_MAX_CLAIMS: '1000' }, BASELINE);
const rows = new Map();
const record = (key, r) => rows.set(key, [...(rows.get(key) ?? []), r]);
try {
  // warm-up: the first requests compile and optimize the module
  for (const w of [sliced, oneCall, ...(baseline ? [baseline] : [])]) {
    for (let i = 0; i < 3; i++) tally(await loop(w.url, small, 1, () => false, 1));
    tally(await loop(w.url, heavy, 1, () => false, 1));
  }
  for (let run = 0; run < RUNS && performance.now() - benchStart < TOTAL_LIMIT_MS; run++) {
    for (const clients of [1, 8, 32]) record(`small|${clients}|alone|sliced`, await phase(sliced.url, small, clients));
    record('heavy|1|alone|sliced', await phase(sliced.url, heavy, 1));
    record('heavy|1|alone|one call', await phase(oneCall.url, heavy, 1));
    if (baseline) record('heavy|1|alone|baseline', await phase(baseline.url, heavy, 1));
    for (const clients of [1, 8]) {
      record(`small|${clients}|alone|one call`, await phase(oneCall.url, small, clients));
      record(`small|${clients}|with refused|sliced`, await phase(sliced.url, small, clients, refused));
      record(`small|${clients}|with heavy|sliced`, await phase(sliced.url, small, clients, heavy));
      record(`small|${clients}|with heavy|one call`, await phase(oneCall.url, small, clients, heavy));
      if (baseline) record(`small|${clients}|with heavy|baseline`, await phase(baseline.url, small, clients, heavy));
    }
    process.stderr.write(`bench-edge: run ${run + 1} of ${RUNS} done\n`);
  }
} finally {
  await Promise.all([sliced, oneCall, baseline].filter(Boolean).map((w) => w.dispose()));
  await heavyThread.terminate();
}

const cpus = os.cpus();
console.log(`edge/worker.mjs in workerd (miniflare ${JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version}), closed-loop clients over HTTP on 127.0.0.1; ` +
  `${SECONDS} s per phase, median of ${rows.get('small|1|alone|sliced').length} runs; Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
console.log('| request | clients | beside it | worker | requests/s | p50 | p99 | requests beside done (p50) |');
console.log('|---|---:|---|---|---:|---:|---:|---:|');
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');
for (const [key, runs] of rows) {
  const [load, clients, beside, worker] = key.split('|');
  const m = (f) => median(runs.map(f));
  const heavyCell = beside !== 'alone' ? `${m((r) => r.heavyDone)} (${ms(m((r) => r.heavyP50))})` : '';
  const what = load === 'small' ? '100 KB, 50 claims' : '1 MB, 1000 claims';
  const besideIt = { alone: '–', 'with heavy': '1 client of 1 MB × 1000', 'with refused': '1 client of the same body refused (400, not JSON)' }[beside];
  console.log(`| ${what} | ${clients} | ${besideIt} | ${worker === 'sliced' ? 'in steps' : worker === 'baseline' ? `baseline (${BASELINE})` : 'one call'} | ${m((r) => r.rps).toFixed(1)} | ${ms(m((r) => r.p50))} | ${ms(m((r) => r.p99))} | ${heavyCell} |`);
}
console.log(`\nThe heavy request's steps in Node (SlicedValidation, claimsPerSlice 50, bytesPerStep 65536; medians of ${2 * RUNS + 1} runs):\n`);
console.log('| library | body\'s parseJson | constructor | steps | longest step | second longest | sum of the steps |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const ms1 = (x) => `${x.toFixed(1)} ms`;
for (const [name, f] of stepRows) {
  console.log(`| ${name} | ${ms1(f.parse)} | ${ms1(f.setup)} | ${f.steps} | ${ms1(f.longest)} | ${ms1(f.second)} | ${ms1(f.sum)} |`);
}
if (resets > 0) console.log(`\n${resets} request(s) got no answer (connection reset), left out of the figures`);
if (failures > 0) {
  console.error(`\nbench-edge: ${failures} answer(s) differed from the library's report`);
  process.exit(1);
}
