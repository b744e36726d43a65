#!/usr/bin/env node
// How the cost grows (issues 3 and 21 item 5): the whole validation, time
// and memory, on documents from 10 KB to 50 MB (100 claims each) and on the
// 1 MB document with 1 to 10 000 claims; WebAssembly in Node (pkg/nodejs)
// and natively (the `scaling` example) side by side; then the exponent of
// each series fitted by least squares on log-log (1 = linear).
//
//   npm run build && cargo build --release --example scaling && npm run bench:scaling
//   node scripts/bench-scaling.mjs [--runs N]
//
// Documents: benches/data/rust-book.md (978 KB of real prose) cut at a
// paragraph boundary below 1 MB; above, the book followed by copies of
// itself with their paragraphs in another (seeded) order, so the text stays
// real prose (a passage of the first copy also occurs in the others:
// verbatim quotes get several exact matches, as in any document that
// repeats itself). Claims (scripts/workload.mjs): 70 % verbatim passages,
// 20 % with 1-3 letter substitutions, 10 % word salad.
// Each configuration runs in a fresh Node process (so that its linear
// memory, which only grows, is its own peak) and a fresh native process:
// one warm-up call, then the median of N timed runs (default 3; 1 for 10 MB
// and up). Up to 1000 claims (spec 000 §2.1's most per call) that is one
// validateEvidence call; more go in batches of 1000 to Document.validate on
// one Document, built in the timed part. The config is the default with
// max_document_size_mb 64 and max_memory_mb 4096 (the 50 MB document is
// over the default memory estimate limit); nothing else changes.
// Memory: wasm = the instance's linear memory at the end (its peak:
// WebAssembly.Instance is wrapped to see it, as in bench-node.mjs);
// native = peak heap (a counting allocator) and peak RSS.
//
// Answers are checked (scripts/workload.mjs wrongAnswers: verbatim quotes
// VALIDATED, edited ones fuzzy within the recorded edits or refused, absent
// ones FAILED); the script exits 1 only when one disagrees. Timings are
// never checked. The wasm runs use V8's optimizing compiler from the first
// call (--no-liftoff), so that one warm-up call is enough.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { importWithMemory, numberOption, option } from './bench-common.mjs';
import { claimsFor, documentOf, wrongAnswers } from './workload.mjs';

const BATCH = 1000;
const CONFIG = { performance_limits: { max_document_size_mb: 64, max_memory_mb: 4096 } };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const entry = path.join(root, 'pkg', 'nodejs', 'index.mjs');

/** validateEvidence, or for more than BATCH claims, batches on one Document. */
function validateAll(lib, doc, workload) {
  if (workload.claims.length <= BATCH) return lib.validateEvidence(doc, workload, CONFIG);
  const d = new lib.Document(doc, { format: workload.source_metadata.format });
  const validated = [];
  for (let i = 0; i < workload.claims.length; i += BATCH) {
    const part = d.validate({ ...workload, claims: workload.claims.slice(i, i + BATCH) }, CONFIG);
    validated.push(...part.validated_claims);
  }
  d.free();
  return { validated_claims: validated };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// --- child: one configuration in this fresh process; prints {ms, linear, wrong}
if (option('--child', null) !== null) {
  const label = option('--child', null);
  const runs = numberOption('--runs', 3);
  const { lib, linearMemory } = await importWithMemory(entry);
  const dir = path.join(root, 'target', 'scaling');
  const doc = fs.readFileSync(path.join(dir, `${label}.txt`), 'utf8');
  const workload = JSON.parse(fs.readFileSync(path.join(dir, `${label}.json`), 'utf8'));
  const atLoad = linearMemory();
  const report = validateAll(lib, doc, workload); // warm-up, and the answers
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    validateAll(lib, doc, workload);
    times.push(performance.now() - t);
  }
  console.log(JSON.stringify({ ms: median(times), linear: linearMemory(), atLoad, wrong: wrongAnswers(workload, report) }));
  process.exit(0);
}

// --- parent
if (!fs.existsSync(entry)) {
  console.error('bench-scaling: pkg/nodejs not found; run `npm run build` first');
  process.exit(2);
}
const RUNS = numberOption('--runs', 3);
const native = path.join(root, 'target', 'release', 'examples', 'scaling');
const haveNative = fs.existsSync(native);
const outDir = path.join(root, 'target', 'scaling');
fs.mkdirSync(outDir, { recursive: true });
const benchStart = performance.now();

function measure(label, doc, workload) {
  fs.writeFileSync(path.join(outDir, `${label}.txt`), doc);
  fs.writeFileSync(path.join(outDir, `${label}.json`), JSON.stringify(workload));
  const runs = doc.length >= 10_000_000 ? 1 : RUNS;
  // --no-liftoff: V8 compiles each wasm function optimized on first use, so
  // that the one warm-up call leaves no function in baseline code (a fresh
  // process otherwise tiers up in background threads, slowly on a loaded machine)
  const w = spawnSync(process.execPath, ['--no-liftoff', '--max-old-space-size=4096', self, '--child', label, '--runs', String(runs)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (w.status !== 0) throw new Error(`bench-scaling: the wasm run of ${label} failed: ${w.stderr}`);
  const wasm = JSON.parse(w.stdout.trim().split('\n').pop());
  let nat = { ms: NaN, heap: NaN, rss: NaN };
  if (haveNative) {
    const r = spawnSync(native, [path.join(outDir, `${label}.txt`), path.join(outDir, `${label}.json`), String(runs)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench-scaling: the native run of ${label} failed: ${r.stderr}`);
    const [ms, heap, rss] = r.stdout.trim().split(/\s+/).map(Number);
    nat = { ms, heap, rss };
  }
  process.stderr.write(`bench-scaling: ${label} done (${((performance.now() - benchStart) / 1000).toFixed(0)} s)\n`);
  return { bytes: Buffer.byteLength(doc), claims: workload.claims.length, runs, wasm, nat };
}

const MB = 1_000_000;
const bySize = [];
for (const size of [10_000, 100_000, MB, 10 * MB, 50 * MB]) {
  const doc = documentOf(size);
  bySize.push(measure(`size-${size}`, doc, claimsFor(doc, 100, 7)));
}
const oneMb = documentOf(MB);
const byClaims = [];
for (const n of [1, 10, 100, 1000, 10_000]) byClaims.push(measure(`claims-${n}`, oneMb, claimsFor(oneMb, n, 11)));

/** Least-squares slope of log y on log x: the exponent k of y ∝ x^k. */
function exponent(xs, ys) {
  const pts = xs.map((x, i) => [Math.log(x), Math.log(ys[i])]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  const n = pts.length;
  if (n < 2) return NaN;
  const mx = pts.reduce((s, [a]) => s + a, 0) / n;
  const my = pts.reduce((s, [, b]) => s + b, 0) / n;
  const sxy = pts.reduce((s, [a, b]) => s + (a - mx) * (b - my), 0);
  const sxx = pts.reduce((s, [a]) => s + (a - mx) ** 2, 0);
  return sxy / sxx;
}

/** Least-squares line y = a + b·x: [a, b, R²] (a fixed cost and a cost per unit; R² near 1: linear). */
function line(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  const sxy = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0);
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  const b = sxy / sxx;
  const a = my - b * mx;
  const ssr = ys.reduce((s, y, i) => s + (y - a - b * xs[i]) ** 2, 0);
  const sst = ys.reduce((s, y) => s + (y - my) ** 2, 0);
  return [a, b, 1 - ssr / sst];
}

const ms = (x) => (Number.isFinite(x) ? (x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`) : 'n/a');
const mib = (b) => (Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(1)} MiB` : 'n/a');
const size = (b) => (b >= MB ? `${(b / MB).toFixed(b >= 10 * MB ? 0 : 2)} MB` : `${(b / 1000).toFixed(0)} KB`);
const cpus = os.cpus();
console.log(`The whole validation, median of ${RUNS} runs (1 at 10 MB and up) after a warm-up, each configuration in fresh processes; Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}${haveNative ? '' : '; native: build the scaling example to add it'}\n`);
console.log('| document | claims | wasm time | native time | wasm linear memory | native peak heap | native peak RSS | answers differing |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of [...bySize, ...byClaims]) {
  console.log(`| ${size(r.bytes)} | ${r.claims} | ${ms(r.wasm.ms)} | ${ms(r.nat.ms)} | ${mib(r.wasm.linear)} | ${mib(r.nat.heap)} | ${mib(r.nat.rss)} | ${r.wasm.wrong} |`);
}
const fit = (rows, x, label) => {
  const xs = rows.map(x);
  const cells = [(r) => r.wasm.ms, (r) => r.nat.ms, (r) => r.wasm.linear, (r) => r.nat.heap].map((f) => exponent(xs, rows.map(f)).toFixed(2));
  const upper = rows.filter((r) => x(r) >= x(rows[2]));
  const cellsUpper = [(r) => r.wasm.ms, (r) => r.nat.ms, (r) => r.wasm.linear, (r) => r.nat.heap].map((f) => exponent(upper.map(x), upper.map(f)).toFixed(2));
  console.log(`| ${label} | ${cells.join(' | ')} |`);
  console.log(`| ${label}, from ${rows === bySize ? size(x(rows[2])) : `${x(rows[2])} claims`} up | ${cellsUpper.join(' | ')} |`);
};
console.log('\nFitted exponent k (y ∝ x^k, least squares on log-log; 1 = linear):\n');
console.log('| series | wasm time | native time | wasm linear memory | native peak heap |');
console.log('|---|---:|---:|---:|---:|');
fit(bySize, (r) => r.bytes, 'vs document size (10 KB → 50 MB, 100 claims)');
fit(byClaims, (r) => r.claims, 'vs claims (1 → 10 000, 1 MB)');
const lines = (rows, x, unit, scale, label) => {
  const cells = [(r) => r.wasm.ms, (r) => r.nat.ms, (r) => r.wasm.linear / 2 ** 20, (r) => r.nat.heap / 2 ** 20].map((f, i) => {
    const [a, b, r2] = line(rows.map((r) => x(r) / scale), rows.map(f));
    return `${a.toFixed(1)} + ${b.toPrecision(3)}/${unit} ${i < 2 ? 'ms' : 'MiB'} (R² ${r2.toFixed(3)})`;
  });
  console.log(`| ${label} | ${cells.join(' | ')} |`);
};
console.log('\nFitted line y = a + b·x (least squares; R² near 1: linear, a the fixed cost):\n');
console.log('| series | wasm time | native time | wasm linear memory | native peak heap |');
console.log('|---|---:|---:|---:|---:|');
lines(bySize, (r) => r.bytes, 'MB', MB, 'vs document size');
lines(byClaims, (r) => r.claims, '1000 claims', 1000, 'vs claims');
console.log(`\n(wasm linear memory at load: ${mib(bySize[0].wasm.atLoad)}; the run took ${((performance.now() - benchStart) / 1000).toFixed(0)} s)`);
if ([...bySize, ...byClaims].some((r) => r.wasm.wrong > 0)) {
  console.error('\nbench-scaling: some answers disagree with the workload (see the table)');
  process.exit(1);
}
