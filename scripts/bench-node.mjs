#!/usr/bin/env node
// The Node benchmark of issue 3: this project's WebAssembly build against
// what a JS developer writes by hand, in the same process, on the same data,
// with the same answers.
//
//   npm run build && npm run bench:node      (node scripts/bench-node.mjs [--runs N] [--no-dmp] [--no-mixes])
//   EV_PKG=some/nodejs node scripts/bench-node.mjs   (another build of the nodejs target)
//   node scripts/bench-node.mjs --mix paraphrase      (one mix only, in this process; prints JSON)
//
// The mixes of issue 21 item 3 (benches/make_workload.py): the standard
// workload, one where 800 of the 1000 claims are paraphrases, one where 800
// are shuffled sentences (the rest verbatim and edited quotes). Each runs in
// a fresh Node process of its own (linear memory only grows, so a process
// that ran another mix first would report that one's peak): the whole call's
// median and the linear memory after it, side by side; a paraphrase or a
// shuffled sentence must not be VALIDATED.
//
// Workload: benches/data/ (1000 direct quotes against 978 KB of real prose,
// 70 % verbatim, 20 % with 1-3 letter substitutions, 10 % absent; each claim
// records its kind and edit count under `bench`).
//
// This project (pkg/nodejs, the package's Node build): validateEvidence with
// the default config, the whole call (JSON in, report out, parsing and
// indexing included); then the same claims on a prebuilt Document; then one
// quote on the built Document (find, and validate with one claim).
//
// Baselines, in JS:
//   A. normalize (lowercase, collapse whitespace), indexOf for the exact
//      quotes, approx-string-match search(text, quote, k) for the rest with
//      k = min(3, 15 % of the quote's length) (Myers' bit-parallel
//      algorithm, as the Hypothesis annotation client uses it);
//   B. the same with k = 15 % of the quote's length;
//   C. indexOf, then diff-match-patch: match_main (Bitap, at most 32 chars)
//      locates the quote's first 32 chars, diff_main + diff_levenshtein give
//      the whole quote's distance there (how dom-anchor-text-quote anchored).
//      Informational: its answers are printed, not required to agree.
//
// Answers checked for this project and baselines A and B: every verbatim
// quote exact, every edited quote fuzzy with the recorded edit distance,
// every absent quote FAILED. Exits 1 only when one of those disagrees
// (timings are never checked: a benchmark is not a test).
//
// WebAssembly linear memory: the nodejs target keeps its instance private,
// so WebAssembly.Instance is wrapped before the package loads to see the
// instance it creates; memory.buffer.byteLength is its linear memory (which
// only grows: after a call it is the peak so far).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { flag, importWithMemory, numberOption, option } from './bench-common.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const RUNS = numberOption('--runs', 11);
const WITH_DMP = !flag('--no-dmp');
const WITH_MIXES = !flag('--no-mixes');
const MIX = option('--mix', null);
const MIXES = ['standard', 'paraphrase', 'shuffled'];

// --- the package, with its wasm instance in sight
// EV_PKG=dir: another build of the nodejs target (to compare build options)
const pkgDir = process.env.EV_PKG ? path.resolve(process.env.EV_PKG) : path.join(root, 'pkg', 'nodejs');
const entry = path.join(pkgDir, 'index.mjs');
if (!fs.existsSync(entry)) {
  console.error(`bench: ${path.relative(root, entry)} not found; run \`npm run build\` first`);
  process.exit(2);
}
const {
  lib: { validateEvidence, Document },
  linearMemory,
} = await importWithMemory(entry);

const { default: search } = await import('approx-string-match');
const { default: DiffMatchPatch } = await import('diff-match-patch');

// --- the workload
const source = fs.readFileSync(path.join(root, 'benches', 'data', 'rust-book.md'), 'utf8');
const claimsFile = (mix) => (mix === 'standard' || mix === null ? 'claims-1000.json' : `claims-${mix}-1000.json`);
const workload = JSON.parse(fs.readFileSync(path.join(root, 'benches', 'data', claimsFile(MIX)), 'utf8'));
const claims = workload.claims;
const format = workload.source_metadata?.format ?? 'markdown';

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (t) => `${t.toFixed(t < 10 ? 2 : 1)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn, runs) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = fn();
    times.push(performance.now() - t);
  }
  return { result, median: median(times), min: Math.min(...times) };
}

/** What a claim's answer must be. */
function expected(claim) {
  return { kind: claim.bench.kind, edits: claim.bench.edits };
}

/** Disagreements of answers `[{kind: 'exact'|'fuzzy'|'failed', errors}]` with the workload. */
function disagreements(answers) {
  const wrong = [];
  answers.forEach((a, i) => {
    const want = expected(claims[i]);
    const ok =
      ((want.kind === 'paraphrase' || want.kind === 'shuffled') && !a.validated) ||
      (want.kind === 'verbatim' && a.kind === 'exact' && a.errors === 0) ||
      (want.kind === 'edited' && a.kind === 'fuzzy' && a.errors === want.edits) ||
      (want.kind === 'absent' && a.kind === 'failed');
    if (!ok) wrong.push(`${claims[i].id} (${want.kind}, ${want.edits} edits): got ${a.kind} ${a.errors ?? ''}`);
  });
  return wrong;
}

/** The answers of a validateEvidence / Document.validate report. */
function reportAnswers(report) {
  return report.validated_claims.map((r) => {
    if (r.validation_status === 'FAILED' || !r.match_details) return { kind: 'failed', validated: false };
    const validated = r.validation_status === 'VALIDATED';
    return { kind: r.match_details.match_type, errors: r.match_details.edit_distance, validated };
  });
}

// --- one mix in this process (a child of the side-by-side run below)
if (MIX !== null) {
  const atLoad = linearMemory();
  const first = validateEvidence(source, workload);
  validateEvidence(source, workload);
  validateEvidence(source, workload);
  const r = time(() => validateEvidence(source, workload), RUNS);
  const wrong = disagreements(reportAnswers(r.result));
  if (JSON.stringify(reportAnswers(first)) !== JSON.stringify(reportAnswers(r.result))) {
    wrong.push('the first call and the later ones answered differently');
  }
  console.log(JSON.stringify({ mix: MIX, median: r.median, min: r.min, atLoad, after: linearMemory(), wrong }));
  process.exit(0);
}

// --- this project
const memoryAtLoad = linearMemory();
let t = performance.now();
const cold = validateEvidence(source, workload);
const coldMs = performance.now() - t;
const memoryAfterFirstCall = linearMemory();
// V8 compiles functions with its baseline compiler on first use and
// optimizes the hot ones in the background: two more calls before timing
validateEvidence(source, workload);
validateEvidence(source, workload);
const whole = time(() => validateEvidence(source, workload), RUNS);
const wasmWrong = disagreements(reportAnswers(whole.result));
if (JSON.stringify(reportAnswers(cold)) !== JSON.stringify(reportAnswers(whole.result))) {
  wasmWrong.push('the first call and the later ones answered differently');
}

t = performance.now();
const doc = new Document(source, { format });
const documentMs = performance.now() - t;
const onDoc = time(() => doc.validate(workload), RUNS);
wasmWrong.push(...disagreements(reportAnswers(onDoc.result)).map((w) => `Document.validate: ${w}`));

const verbatim = claims.find((c) => c.bench.kind === 'verbatim');
const edited = claims.find((c) => c.bench.kind === 'edited');
const absent = claims.find((c) => c.bench.kind === 'absent');
const one = (claim) => ({ source_metadata: workload.source_metadata, claims: [claim] });
const ONE_RUNS = 200;
const single = {
  'find, verbatim quote': time(() => doc.find(verbatim.quote), ONE_RUNS),
  'find, quote with typos': time(() => doc.find(edited.quote), ONE_RUNS),
  'validate one claim, verbatim': time(() => doc.validate(one(verbatim)), ONE_RUNS),
  'validate one claim, with typos': time(() => doc.validate(one(edited)), ONE_RUNS),
  'validate one claim, absent': time(() => doc.validate(one(absent)), ONE_RUNS),
};
const memoryAtEnd = linearMemory();
doc.free();

// --- baselines
const normalize = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();

function baselineApprox(maxErrors) {
  const text = normalize(source);
  return claims.map((c) => {
    const q = normalize(c.quote);
    if (text.indexOf(q) >= 0) return { kind: 'exact', errors: 0 };
    const matches = search(text, q, maxErrors(q.length));
    if (matches.length === 0) return { kind: 'failed' };
    return { kind: 'fuzzy', errors: Math.min(...matches.map((m) => m.errors)) };
  });
}

function baselineDmp() {
  const text = normalize(source);
  const dmp = new DiffMatchPatch();
  dmp.Match_Distance = text.length; // anywhere in the text
  dmp.Match_Threshold = 0.25;
  return claims.map((c) => {
    const q = normalize(c.quote);
    if (text.indexOf(q) >= 0) return { kind: 'exact', errors: 0 };
    const k = Math.min(3, Math.floor(q.length * 0.15));
    const loc = dmp.match_main(text, q.slice(0, dmp.Match_MaxBits), 0);
    if (loc < 0) return { kind: 'failed' };
    const errors = dmp.diff_levenshtein(dmp.diff_main(q, text.slice(loc, loc + q.length), false));
    return errors <= k ? { kind: 'fuzzy', errors } : { kind: 'failed' };
  });
}

const kSmall = (len) => Math.min(3, Math.floor(len * 0.15));
const kLarge = (len) => Math.floor(len * 0.15);
const baselines = [
  { name: 'A  indexOf + approx-string-match, k = min(3, 15 %)', run: () => baselineApprox(kSmall), required: true },
  { name: 'B  indexOf + approx-string-match, k = 15 %', run: () => baselineApprox(kLarge), required: true },
];
if (WITH_DMP) baselines.push({ name: 'C  indexOf + diff-match-patch (Bitap on 32 chars)', run: baselineDmp, required: false });
for (const b of baselines) {
  const r = time(b.run, 1);
  b.ms = r.median;
  b.wrong = disagreements(r.result);
}

// --- the three mixes side by side, each in a fresh process
const mixes = [];
if (WITH_MIXES) {
  const { spawnSync } = await import('node:child_process');
  for (const mix of MIXES) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--mix', mix, '--runs', String(RUNS)], {
      env: process.env,
      encoding: 'utf8',
    });
    const out = child.stdout.trim().split('\n').pop();
    if (child.status !== 0 || !out) {
      mixes.push({ mix, median: NaN, min: NaN, after: NaN, wrong: [`the child process failed: ${child.stderr.trim()}`] });
    } else {
      mixes.push(JSON.parse(out));
    }
  }
}

// --- report
const wasmFile = path.join(pkgDir, 'evidence_validator_bg.wasm');
const wasmBytes = fs.readFileSync(wasmFile);
const kinds = claims.reduce((n, c) => ((n[c.bench.kind] = (n[c.bench.kind] ?? 0) + 1), n), {});
const line = (label, value) => console.log(`  ${label.padEnd(52)} ${value}`);

console.log(`evidence-validator Node benchmark (Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length})`);
console.log(`workload: ${claims.length} direct quotes (${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')}) against ${(source.length / 1000).toFixed(0)} K chars of ${format}`);
console.log(`wasm: ${path.relative(root, wasmFile)}, ${(wasmBytes.length / 1024).toFixed(0)} KB, ${(zlib.gzipSync(wasmBytes, { level: 9 }).length / 1024).toFixed(0)} KB gzipped\n`);
console.log(`this project (WebAssembly), median of ${RUNS} runs (min):`);
line('validateEvidence, whole call (first call)', ms(coldMs));
line('validateEvidence, whole call', `${ms(whole.median)} (${ms(whole.min)})`);
line('new Document(source)', ms(documentMs));
line('Document.validate, 1000 claims', `${ms(onDoc.median)} (${ms(onDoc.min)})`);
for (const [label, r] of Object.entries(single)) line(`${label} (built Document, ${ONE_RUNS} runs)`, `${ms(r.median)} (${ms(r.min)})`);
line('linear memory: at load / after the first call / at the end', `${mb(memoryAtLoad)} / ${mb(memoryAfterFirstCall)} / ${mb(memoryAtEnd)}`);
if (mixes.length > 0) {
  const standard = mixes.find((m) => m.mix === 'standard');
  console.log(`\nmixes of issue 21 (each in a fresh process; whole call, median of ${RUNS} (min); linear memory after the calls; ratio to the standard mix):`);
  for (const m of mixes) {
    const ratio = standard && standard.median > 0 ? `${(m.median / standard.median).toFixed(2)}x` : '';
    line(`${m.mix} (${m.wrong.length === 0 ? 'answers as recorded' : `${m.wrong.length} answers differ`})`, `${ms(m.median)} (${ms(m.min)})  ${mb(m.after)}  ${ratio}`);
  }
}
console.log('\nbaselines (JS, same process, one run each; ratio = baseline / validateEvidence median):');
for (const b of baselines) {
  line(b.name, `${ms(b.ms)}  ${(b.ms / whole.median).toFixed(1)}x`);
}
console.log('\nanswers (verbatim: exact; edited: fuzzy with the recorded distance; absent: FAILED):');
const verdict = (wrong) => (wrong.length === 0 ? `all ${claims.length} as recorded` : `${wrong.length} differ, e.g. ${wrong.slice(0, 3).join('; ')}`);
line('this project', verdict(wasmWrong));
for (const b of baselines) line(`${b.name.slice(0, 2)}${b.required ? '' : ' (informational)'}`, verdict(b.wrong));

for (const m of mixes) {
  if (m.wrong.length > 0) console.error(`mix ${m.mix}: ${m.wrong.slice(0, 3).join('; ')}`);
}
const failed = wasmWrong.length > 0 || mixes.some((m) => m.wrong.length > 0) || baselines.some((b) => b.required && b.wrong.length > 0);
if (failed) {
  console.error('\nbench: answers disagree (see above)');
  process.exit(1);
}
