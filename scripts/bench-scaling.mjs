#!/usr/bin/env node
// How the cost grows (issue 3): validateEvidence, the whole call, on
// documents of 0.25, 0.5, 1, 2 and 4 MB with 1000 claims, and on the 1 MB
// document with 250 to 4000 claims; WebAssembly in Node (pkg/nodejs), and
// natively when the `scaling` example is built.
//
//   npm run build && cargo build --release --example scaling && npm run bench:scaling
//   node scripts/bench-scaling.mjs [--runs N]
//
// Documents: benches/data/rust-book.md (978 KB of real prose) cut at a
// paragraph boundary for 0.25 and 0.5 MB; for 2 and 4 MB, the book followed
// by copies of itself with their paragraphs in another (seeded) order, so
// the text stays real prose (a passage of the first copy also occurs in the
// others: verbatim quotes get several exact matches, as in any document
// that repeats itself).
// Claims: generated here, seeded, the way benches/make_workload.py makes
// the benchmark's 1000: 70 % verbatim passages of 40-200 chars, 20 % with
// 1-3 letter substitutions, 10 % word salad from the document's words.
// Each size runs with the default config: one validateEvidence call (a
// fresh document each time) up to 1000 claims, the most one call takes
// (spec 000 §2.1); 2000 and 4000 claims go in batches of 1000 to
// Document.validate on one Document, built in the timed part.
//
// Answers are checked as in bench-node.mjs (verbatim quotes matched exactly,
// edited ones fuzzy with at most the recorded edits, absent ones FAILED);
// the script exits 1 only when one disagrees. Timings are never checked.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The input schema (spec 000 §2.1) allows 1000 claims per call: more are
// validated in batches of 1000 on one Document (built once, in the timing).
const BATCH = 1000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;

const entry = path.join(root, 'pkg', 'nodejs', 'index.mjs');
if (!fs.existsSync(entry)) {
  console.error('bench-scaling: pkg/nodejs not found; run `npm run build` first');
  process.exit(2);
}
const { validateEvidence, Document } = await import(pathToFileURL(entry).href);
const native = path.join(root, 'target', 'release', 'examples', 'scaling');
const haveNative = fs.existsSync(native);

// --- seeded generation
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const shuffle = (xs) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  return { next, int, pick, shuffle };
}

const book = fs.readFileSync(path.join(root, 'benches', 'data', 'rust-book.md'), 'utf8');

/** A document of about `bytes` bytes made from the book (see the header). */
function documentOf(bytes) {
  if (bytes <= book.length) {
    const cut = book.lastIndexOf('\n\n', bytes);
    return book.slice(0, cut > 0 ? cut : bytes);
  }
  const r = rng(bytes);
  const paragraphs = book.split('\n\n');
  let doc = book;
  while (doc.length < bytes) doc += '\n\n' + r.shuffle(paragraphs).join('\n\n');
  const cut = doc.lastIndexOf('\n\n', bytes);
  return doc.slice(0, cut);
}

function passage(r, paragraphs) {
  for (;;) {
    const p = r.pick(paragraphs);
    const length = r.int(40, 200);
    let start = r.int(0, p.length - length);
    while (start > 0 && !/\s/.test(p[start - 1])) start--;
    let end = start + length;
    while (end < p.length && !/\s/.test(p[end])) end++;
    const q = p.slice(start, end).trim();
    if (q.length >= 40 && q.length <= 2000 && !q.includes('\n\n')) return q;
  }
}

function substitute(r, quote, k) {
  const letters = [...quote].map((c, i) => (/[a-z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  const chosen = [];
  for (const i of r.shuffle(letters)) {
    if (chosen.every((j) => Math.abs(i - j) > 3)) chosen.push(i);
    if (chosen.length === k) break;
  }
  const q = [...quote];
  for (const i of chosen) {
    const around = new Set([quote[i], quote[i - 1], quote[i + 1]]);
    q[i] = r.pick([...'abcdefghijklmnopqrstuvwxyz'].filter((c) => !around.has(c)));
  }
  return { quote: q.join(''), edits: chosen.length };
}

function claimsFor(doc, n, seed) {
  const r = rng(seed);
  const paragraphs = doc.split('\n\n').filter((p) => p.length > 220 && !p.startsWith('#'));
  const vocab = [...new Set(doc.toLowerCase().match(/[a-z]{4,}/g))].sort();
  const claims = [];
  for (let i = 0; i < n; i++) {
    let quote, kind, edits = 0;
    if (i % 10 < 7) [quote, kind] = [passage(r, paragraphs), 'verbatim'];
    else if (i % 10 < 9) {
      ({ quote, edits } = substitute(r, passage(r, paragraphs), r.int(1, 3)));
      kind = 'edited';
    } else {
      quote = Array.from({ length: r.int(6, 20) }, () => r.pick(vocab)).join(' ');
      kind = 'absent';
    }
    claims.push({ id: `EV${String(i + 1).padStart(4, '0')}`, task_id: `P${Math.floor(i / 100) + 1}.T${(i % 100) + 1}`, quote, evidence_type: 'direct_quote', bench: { kind, edits } });
  }
  return { source_metadata: { format: 'plain_text' }, claims };
}

// --- measuring
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function wrongAnswers(workload, report) {
  let wrong = 0;
  workload.claims.forEach((c, i) => {
    const r = report.validated_claims[i];
    const m = r.match_details;
    const ok =
      c.bench.kind === 'verbatim' ? m?.match_type === 'exact'
      : c.bench.kind === 'edited' ? m?.match_type === 'fuzzy' && m.edit_distance <= c.bench.edits
      : r.validation_status === 'FAILED';
    if (!ok) wrong++;
  });
  return wrong;
}

const outDir = path.join(root, 'target', 'scaling');
fs.mkdirSync(outDir, { recursive: true });

/** validateEvidence, or for more than BATCH claims, batches on one Document. */
function validateAll(doc, workload) {
  if (workload.claims.length <= BATCH) return validateEvidence(doc, workload);
  const d = new Document(doc, { format: workload.source_metadata.format });
  const validated = [];
  for (let i = 0; i < workload.claims.length; i += BATCH) {
    const part = d.validate({ ...workload, claims: workload.claims.slice(i, i + BATCH) });
    validated.push(...part.validated_claims);
  }
  d.free();
  return { validated_claims: validated };
}

function measure(label, doc, workload) {
  const report = validateAll(doc, workload); // warm-up, and the answers
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    validateAll(doc, workload);
    times.push(performance.now() - t);
  }
  let nativeMs = null;
  if (haveNative) {
    const src = path.join(outDir, `${label}.txt`);
    const claims = path.join(outDir, `${label}.json`);
    fs.writeFileSync(src, doc);
    fs.writeFileSync(claims, JSON.stringify(workload));
    const r = spawnSync(native, [src, claims, String(RUNS)], { encoding: 'utf8' });
    nativeMs = r.status === 0 ? Number(r.stdout.trim()) : NaN;
  }
  return { wasm: median(times), native: nativeMs, wrong: wrongAnswers(workload, report) };
}

const MB = 1_000_000;
const rows = [];
const oneMb = documentOf(MB);
// V8 compiles the module with its baseline compiler, then optimizes hot
// functions while they run: warm up before the first row
for (let i = 0; i < 3; i++) validateAll(oneMb, claimsFor(oneMb, 1000, 3));
for (const size of [0.25, 0.5, 1, 2, 4]) {
  const doc = size === 1 ? oneMb : documentOf(size * MB);
  const r = measure(`doc-${size}`, doc, claimsFor(doc, 1000, 7));
  rows.push({ what: `${(doc.length / MB).toFixed(2)} MB, 1000 claims`, ...r });
}
for (const n of [250, 500, 2000, 4000]) {
  const r = measure(`claims-${n}`, oneMb, claimsFor(oneMb, n, 11));
  rows.push({ what: `${(oneMb.length / MB).toFixed(2)} MB, ${n} claims`, ...r });
}

const fmt = (x) => (x === null ? 'n/a' : `${x.toFixed(1)} ms`);
console.log(`validateEvidence, whole call, median of ${RUNS} runs (Node ${process.version}${haveNative ? '; native: target/release/examples/scaling' : '; native: build the scaling example to add it'})\n`);
console.log('| workload | wasm in Node | native | answers differing |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.what} | ${fmt(r.wasm)} | ${fmt(r.native)} | ${r.wrong} |`);
if (rows.some((r) => r.wrong > 0)) {
  console.error('\nbench-scaling: some answers disagree with the workload (see the table)');
  process.exit(1);
}
