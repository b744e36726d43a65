#!/usr/bin/env node
// Cold start of the npm package in Node (issue 21 item 1): from `import` of
// the package to the first finished `validateEvidence` report on
// benches/data/ (1000 claims × 1 MB), in fresh Node processes.
//
//   npm run build && npm run bench:cold          (node scripts/bench-cold.mjs [--runs N])
//   node scripts/bench-cold.mjs --pkg /tmp/a/nodejs --pkg pkg/nodejs
//        (builds side by side: the processes alternate between them, so a
//        slow minute of this shared machine falls on both)
//   node scripts/bench-cold.mjs --warm --pkg A --pkg B   (warm calls of the
//        builds side by side in one process; see warm() below)
//
// Each run is a fresh `node` process (this script with --child). Two kinds:
//   user path: import, then validateEvidence(source, claims) — what a user
//     feels; timed by phase:
//       read         fs.readFileSync of the .wasm (the nodejs target's glue)
//       compile      new WebAssembly.Module (V8 validates the module and
//                    compiles its functions lazily, on first call)
//       instantiate  new WebAssembly.Instance (imports, memory, data segments)
//       glue         the rest of the import: the JS glue, __wbindgen_start
//       first call   validateEvidence(1 MB, 1000 claims), whole
//       total        import + first call
//   split path (same count of other fresh processes): import, then a call on
//     a 2 KB cut of the source with 3 claims (verbatim, edited, absent) —
//     "setup": what any first call pays once (V8 compiling the functions the
//     call reaches, the word lists' and Unicode tables' lazy indexes, the
//     first allocations) — then the 1 MB call ("call after setup"), then the
//     same call twice more ("3rd call": close to warm, the hot functions
//     optimized by then); and `JSON.parse` of the report's text (the last
//     step of every call: the report crosses the boundary as one JSON text).
// Each phase is printed as wall time / the main thread's time on a CPU
// (Linux: /proc/self/task/PID/schedstat) / the whole process's CPU time
// (user + system, all threads: V8 compiles optimized code on background
// threads). The main thread's time is what the wall time would be with
// free cores; it is the steady figure when other processes share them.
// Every report's answers are checked against the workload (verbatim quotes
// exact, edited ones fuzzy with the recorded edits, absent ones FAILED); the
// script exits 1 when one disagrees. Timings are never checked.
// Also printed: the .wasm's raw and gzip -9 sizes.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const WASM = 'evidence_validator_bg.wasm';

function loadWorkload() {
  const source = fs.readFileSync(path.join(root, 'benches', 'data', 'rust-book.md'), 'utf8');
  const workload = JSON.parse(fs.readFileSync(path.join(root, 'benches', 'data', 'claims-1000.json'), 'utf8'));
  return { source, workload };
}

/** Disagreements of a report with the workload's recorded answers. */
function wrongAnswers(report, claims) {
  const wrong = [];
  report.validated_claims.forEach((r, i) => {
    const want = claims[i].bench;
    const got = r.validation_status === 'FAILED' || !r.match_details ? { kind: 'failed' }
      : { kind: r.match_details.match_type, errors: r.match_details.edit_distance };
    const ok = (want.kind === 'verbatim' && got.kind === 'exact' && got.errors === 0) ||
      (want.kind === 'edited' && got.kind === 'fuzzy' && got.errors === want.edits) ||
      (want.kind === 'absent' && got.kind === 'failed');
    if (!ok) wrong.push(`${claims[i].id}: ${want.kind} got ${got.kind} ${got.errors ?? ''}`);
  });
  if (report.validated_claims.length !== claims.length) wrong.push(`${report.validated_claims.length} results for ${claims.length} claims`);
  return wrong;
}

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const readFileSync = fs.readFileSync; // the child times the package's reads through a wrapper
/** On-CPU time of the main thread (ms; Linux), NaN elsewhere. */
function mainThreadMs() {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Wall time, main thread's CPU time and the whole process's CPU time (all threads), in ms. */
function now() {
  const c = process.cpuUsage();
  return { wall: performance.now(), main: mainThreadMs(), cpu: (c.user + c.system) / 1000 };
}
const since = (a, b) => ({ wall: b.wall - a.wall, main: b.main - a.main, cpu: b.cpu - a.cpu });

async function child(pkgDir, split) {
  const { source, workload } = loadWorkload();
  const zero = () => ({ wall: 0, main: 0, cpu: 0 });
  const t = { read: zero(), compile: zero(), instantiate: zero() };
  const add = (key, s) => {
    const d = since(s, now());
    for (const k of Object.keys(d)) t[key][k] += d[k];
  };
  // the nodejs target reads its .wasm with require('fs').readFileSync, the
  // same object as this module's `fs`
  fs.readFileSync = function timedRead(file, ...rest) {
    const s = now();
    const r = readFileSync.call(this, file, ...rest);
    if (String(file).endsWith('.wasm')) add('read', s);
    return r;
  };
  const timed = (Original, key) => new Proxy(Original, {
    construct(target, argv, newTarget) {
      const s = now();
      const r = Reflect.construct(target, argv, newTarget);
      add(key, s);
      return r;
    },
  });
  const { Module, Instance } = WebAssembly;
  WebAssembly.Module = timed(Module, 'compile');
  WebAssembly.Instance = timed(Instance, 'instantiate');

  const entry = pathToFileURL(path.join(pkgDir, 'index.mjs')).href;
  const t0 = now();
  const { validateEvidence } = await import(entry);
  const t1 = now();
  fs.readFileSync = readFileSync;
  WebAssembly.Module = Module;
  WebAssembly.Instance = Instance;
  const imported = since(t0, t1);
  const glue = Object.fromEntries(Object.keys(imported).map((k) =>
    [k, imported[k] - t.read[k] - t.compile[k] - t.instantiate[k]]));
  const out = { ...t, glue, import: imported };
  const claims = workload.claims;
  let report;
  if (!split) {
    report = validateEvidence(source, workload);
    const t2 = now();
    Object.assign(out, { firstCall: since(t1, t2), total: since(t0, t2) });
  } else {
    const cut = source.slice(0, 2048);
    const pick = ['verbatim', 'edited', 'absent'].map((kind) => claims.find((c) => c.bench.kind === kind));
    const small = { source_metadata: workload.source_metadata, claims: pick.map((c) => ({ ...c, quote: kindQuote(c, cut) })) };
    const s0 = now();
    validateEvidence(cut, small);
    const s1 = now();
    report = validateEvidence(source, workload);
    const s2 = now();
    validateEvidence(source, workload);
    const s3 = now();
    const third = validateEvidence(source, workload);
    const s4 = now();
    const text = JSON.stringify(third);
    const s5 = now();
    JSON.parse(text);
    const s6 = now();
    Object.assign(out, { setup: since(s0, s1), afterSetup: since(s1, s2), second: since(s2, s3), third: since(s3, s4),
      jsonParse: since(s5, s6), reportBytes: text.length });
  }
  out.wrong = wrongAnswers(report, claims);
  process.stdout.write(JSON.stringify(out));
}

/** A quote of the claim's kind inside `cut` (verbatim, one letter changed, or absent). */
function kindQuote(claim, cut) {
  const words = cut.slice(300, 420);
  if (claim.bench.kind === 'verbatim') return words;
  if (claim.bench.kind === 'edited') return `${words.slice(0, 50)}${words[50] === 'x' ? 'y' : 'x'}${words.slice(51)}`;
  return claim.quote;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function sizes(file) {
  const bytes = fs.readFileSync(file);
  const gnu = spawnSync('gzip', ['-9c'], { input: bytes, maxBuffer: 1 << 30 });
  const gzip = !gnu.error && gnu.status === 0 ? gnu.stdout.length : zlib.gzipSync(bytes, { level: 9 }).length;
  return { raw: bytes.length, gzip };
}

function parent() {
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const runs = opt('--runs', args.includes('--warm') ? 15 : 11);
  const pkgs = args.flatMap((a, i) => (a === '--pkg' ? [path.resolve(args[i + 1])] : []));
  if (pkgs.length === 0) pkgs.push(process.env.EV_PKG ? path.resolve(process.env.EV_PKG) : path.join(root, 'pkg', 'nodejs'));
  for (const p of pkgs) {
    if (!fs.existsSync(path.join(p, 'index.mjs'))) {
      console.error(`bench-cold: ${path.join(p, 'index.mjs')} not found; run \`npm run build\` first`);
      process.exit(2);
    }
  }
  if (args.includes('--warm')) {
    warm(pkgs, runs);
    return;
  }
  const results = pkgs.map(() => ({ user: [], split: [] }));
  const wrong = new Set();
  for (let r = 0; r < runs; r++) {
    for (const split of [false, true]) {
      pkgs.forEach((p, k) => {
        const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', p, ...(split ? ['--split'] : [])],
          { encoding: 'utf8', maxBuffer: 1 << 26 });
        if (c.status !== 0) {
          console.error(c.stderr);
          console.error(`bench-cold: a child process failed (${c.status ?? c.signal})`);
          process.exit(1);
        }
        const out = JSON.parse(c.stdout);
        for (const w of out.wrong) wrong.add(`${path.relative(root, p) || p}: ${w}`);
        results[k][split ? 'split' : 'user'].push(out);
      });
    }
  }
  const ms = (x) => `${x.toFixed(1)} ms`;
  const col = (k, key, which, kind) => median(results[k][which].map((o) => o[key][kind]));
  const rows = [
    ['user', 'read', 'read the .wasm'],
    ['user', 'compile', 'compile (new WebAssembly.Module)'],
    ['user', 'instantiate', 'instantiate'],
    ['user', 'glue', 'JS glue, start'],
    ['user', 'import', 'import, whole'],
    ['user', 'firstCall', 'first validateEvidence'],
    ['user', 'total', 'import → first report'],
    ['split', 'setup', 'setup (first call, 2 KB, 3 claims)'],
    ['split', 'afterSetup', '1 MB call after setup'],
    ['split', 'second', '2nd 1 MB call'],
    ['split', 'third', '3rd 1 MB call'],
    ['split', 'jsonParse', 'JSON.parse of the report'],
  ];
  console.log(`bench-cold: ${runs} fresh Node ${process.version} processes of each kind per build; medians,`);
  console.log('wall time / main thread on CPU / whole process on CPU (all threads: V8 compiles on');
  console.log('background threads; the main thread\'s CPU time is what wall time would be with the');
  console.log('cores to itself, the steady figure when other processes share them)\n');
  const names = pkgs.map((p) => path.relative(root, p) || p);
  const W = 34;
  console.log(`${'phase'.padEnd(36)}${names.map((n) => n.slice(-(W - 2)).padStart(W)).join('')}`);
  for (const [which, key, label] of rows) {
    const cells = pkgs.map((_, k) =>
      ['wall', 'main', 'cpu'].map((kind) => ms(col(k, key, which, kind))).join(' / ').padStart(W));
    console.log(`${label.padEnd(36)}${cells.join('')}`);
  }
  console.log(`${'report JSON text'.padEnd(36)}${pkgs.map((_, k) => `${(median(results[k].split.map((o) => o.reportBytes)) / 1e6).toFixed(2)} MB`.padStart(W)).join('')}`);
  console.log(`${'min import → first report (wall)'.padEnd(36)}${pkgs.map((_, k) => ms(Math.min(...results[k].user.map((o) => o.total.wall))).padStart(W)).join('')}`);
  console.log('\n.wasm size                            raw bytes   gzip -9');
  for (const p of pkgs) {
    const s = sizes(path.join(p, WASM));
    console.log(`${(path.relative(root, p) || p).slice(-36).padEnd(36)} ${String(s.raw).padStart(10)} ${String(s.gzip).padStart(9)}`);
  }
  if (wrong.size) {
    console.error(`\nbench-cold: answers disagree with the workload:\n  ${[...wrong].slice(0, 20).join('\n  ')}`);
    process.exit(1);
  }
}

/**
 * --warm: the builds' warm calls side by side in one process (each build's
 * CommonJS file loaded once, calls alternating between them after 4 calls
 * each), wall and CPU time per call, medians: how a build option's effect
 * on the warm path is compared (a slow minute falls on every build).
 */
function warm(pkgs, runs) {
  const { source, workload } = loadWorkload();
  const require = createRequire(import.meta.url);
  const fns = pkgs.map((p) => require(path.join(p, 'evidence_validator.js')).validateEvidence);
  for (let i = 0; i < 4; i++) fns.forEach((f) => f(source, workload));
  const times = pkgs.map(() => ({ wall: [], main: [], cpu: [] }));
  const wrong = [];
  for (let r = 0; r < runs; r++) {
    fns.forEach((f, k) => {
      const a = now();
      const report = f(source, workload);
      const d = since(a, now());
      for (const key of Object.keys(d)) times[k][key].push(d[key]);
      if (r === 0) wrong.push(...wrongAnswers(report, workload.claims).map((w) => `${pkgs[k]}: ${w}`));
    });
  }
  console.log(`bench-cold --warm: ${runs} calls per build, alternating, after 4 each; medians (min)`);
  console.log(`${'build'.padEnd(40)}${'wall'.padStart(20)}${'main thread CPU'.padStart(20)}${'process CPU'.padStart(20)}`);
  pkgs.forEach((p, k) => {
    const cell = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}) ms`.padStart(20);
    console.log(`${(path.relative(root, p) || p).slice(-38).padEnd(40)}${cell(times[k].wall)}${cell(times[k].main)}${cell(times[k].cpu)}`);
  });
  if (wrong.length) {
    console.error(`\nbench-cold: answers disagree with the workload:\n  ${wrong.slice(0, 20).join('\n  ')}`);
    process.exit(1);
  }
}

if (args[0] === '--child') await child(args[1], args.includes('--split'));
else parent();
