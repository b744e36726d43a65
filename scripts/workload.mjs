// Seeded workloads shared by the benchmarks (bench-scaling.mjs,
// bench-edge.mjs): documents of real prose cut from
// benches/data/rust-book.md (978 KB), and claims made the way
// benches/make_workload.py makes the benchmark's 1000: 70 % verbatim passages
// of 40-200 chars, 20 % with 1-3 letter substitutions, 10 % word salad from
// the document's words. Each claim carries `bench: {kind, edits}` (an
// unknown field to the library: strip it before sending, or keep it and get
// an UNKNOWN_FIELDS warning) for `wrongAnswers`.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function rng(seed) {
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
export function documentOf(bytes) {
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

export function claimsFor(doc, n, seed) {
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

/**
 * Claims whose answer disagrees with how they were made: a verbatim
 * passage must be found exactly (AMBIGUOUS where a document repeats it), or
 * VALIDATED fuzzy where the passage, cut from the raw markdown, reads
 * otherwise once the markup is read (`[profile.*]` in a link); an edited one must be found fuzzy within its edits, or not
 * VALIDATED (the meaning guard refuses a letter edit that makes another
 * word, `the` → `she`); an absent one must be FAILED.
 */
export function wrongAnswers(workload, report) {
  let wrong = 0;
  workload.claims.forEach((c, i) => {
    const r = report.validated_claims[i];
    const m = r.match_details;
    const ok =
      c.bench.kind === 'verbatim' ? m?.match_type === 'exact' || r.validation_status === 'VALIDATED'
      : c.bench.kind === 'edited' ? (m?.match_type === 'fuzzy' && m.edit_distance <= c.bench.edits) || r.validation_status !== 'VALIDATED'
      : r.validation_status === 'FAILED';
    if (!ok) wrong++;
  });
  return wrong;
}

/** The workload without the `bench` notes (what a client would send). */
export const plain = (workload) => ({ ...workload, claims: workload.claims.map(({ bench, ...c }) => c) });
