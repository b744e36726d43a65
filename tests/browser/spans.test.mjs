// The UI's pure parts in Node (no browser): report → spans → segments, and
// the claims box parser. The segments of real reports are checked against
// the library's spans: concatenated, a span's segments are its matched text.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from './build.mjs';

const www = (rel) => pathToFileURL(path.join(root, 'www', 'src', 'modes', 'evidence', rel)).href;
const { collectSpans, segment, primarySpan, describeSpan, failuresByClaim } = await import(www('spans.js'));
const { parseClaims, InputError, headOf, entryOf, whereOf, formatFor, sameEntry } = await import(www('claims.js'));
const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);

const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');

/** Segments tile [0, length) in order, and each carries exactly the spans that cover it. */
function assertTiling(length, spans, segs) {
  let at = 0;
  for (const s of segs) {
    assert.equal(s.start, at);
    assert.ok(s.end > s.start);
    const covering = spans.filter((x) => Math.max(0, x.start) <= s.start && Math.min(length, x.end) >= s.end);
    assert.deepEqual(s.spans.map((x) => x.key), covering.map((x) => x.key));
    at = s.end;
  }
  assert.equal(at, length);
}

test('segments tile the text and carry every covering span (random overlapping spans)', () => {
  let seed = 7;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 300; round++) {
    const length = 1 + rand(60);
    const spans = Array.from({ length: rand(8) }, (_, i) => {
      const a = rand(length + 4) - 2;
      return { key: `k${i}`, start: a, end: a + rand(20), role: 'match', status: 'VALIDATED' };
    });
    const segs = segment(length, spans);
    assertTiling(length, spans.filter((s) => Math.min(length, s.end) > Math.max(0, s.start)), segs);
  }
});

test('the primary span of a segment: match before alternative before candidate, then the shortest', () => {
  const a = { key: 'a', role: 'match', start: 0, end: 100 };
  const b = { key: 'b', role: 'match', start: 10, end: 20 };
  const c = { key: 'c', role: 'candidate', start: 12, end: 14 };
  const d = { key: 'd', role: 'alternative', start: 12, end: 13 };
  assert.equal(primarySpan([a, b, c, d]).key, 'b');
  assert.equal(primarySpan([c, d]).key, 'd');
  assert.equal(primarySpan([c]).key, 'c');
});

for (const [name, sourceFile, claimsFile] of [
  ['incident review', 'samples/incident-review.md', 'samples/claims.json'],
  ['travel notes (emoji, CJK, curly quotes)', 'www/samples/travel-notes.md', 'www/samples/travel-claims.json'],
]) {
  test(`real report, ${name}: each span's segments spell its matched text`, () => {
    const source = read(sourceFile);
    const report = lib.validateEvidence(source, JSON.parse(read(claimsFile)), null);
    const spans = collectSpans(report);
    assert.ok(spans.length >= report.validated_claims.filter((r) => r.match_details).length);
    const segs = segment(source.length, spans);
    assertTiling(source.length, spans, segs);
    assert.equal(segs.map((s) => source.slice(s.start, s.end)).join(''), source);
    for (const span of spans) {
      const text = segs.filter((s) => s.spans.includes(span)).map((s) => source.slice(s.start, s.end)).join('');
      assert.equal(text, span.text, span.key);
      assert.match(describeSpan(span), new RegExp(`^${span.claimId} · `));
    }
  });
}

test('failed_claims pair with their results even when ids repeat', () => {
  const report = {
    validated_claims: [
      { claim_id: 'EV1', validation_status: 'FAILED' },
      { claim_id: 'EV1', validation_status: 'VALIDATED' },
      { claim_id: 'EV1', validation_status: 'LOW_CONFIDENCE' },
    ],
    failed_claims: [{ claim_id: 'EV1', n: 1 }, { claim_id: 'EV1', n: 2 }],
  };
  assert.deepEqual(failuresByClaim(report).map((f) => f?.n), [1, undefined, 2]);
});

test('claims box: JSON as is, one quote per line, helpful JSON errors', () => {
  const json = parseClaims('\n  {"source_metadata": {"format": "html"}, "claims": [{"id": "EV7"}]}');
  assert.equal(json.kind, 'json');
  assert.equal(json.count, 1);
  assert.equal(json.format, 'html');
  assert.equal(parseClaims('[{"id": "EV1"}, {}]').count, 2);

  const lines = parseClaims('  first quote here  \r\n\n second quote 🧼 here\n');
  assert.equal(lines.kind, 'lines');
  assert.deepEqual(lines.claims.claims.map((c) => [c.id, c.task_id, c.evidence_type, c.quote]), [
    ['EV001', 'P1.T001', 'direct_quote', 'first quote here'],
    ['EV002', 'P1.T001', 'direct_quote', 'second quote 🧼 here'],
  ]);
  assert.equal(parseClaims('   \n ').count, 0);

  assert.throws(() => parseClaims('{\n  "claims": [1 2]\n}'), (e) => e instanceof InputError && e.where === 'line 2, column 16');
  assert.throws(() => parseClaims('{ "claims": [,] }'), (e) => e instanceof InputError && /not valid JSON/.test(e.message));
});

test('claim list entries (built in the worker): heads, outcomes, where a problem is, the format asked for', () => {
  // JSON Lines: line 2 is not JSON, its error is its entry; the others' heads are "not checked"
  const jsonl = parseClaims('{"id": "EV1", "quote": "  first    quote  "}\n{"id": oops}\n{"id": "EV3", "quote": "third"}');
  assert.equal(jsonl.kind, 'jsonl');
  const heads = jsonl.entries.map((_, i) => headOf(jsonl, i));
  assert.deepEqual(heads[0], { result: null, claimId: 'EV1', quote: 'first quote', error: null, where: null });
  assert.equal(heads[1].claimId, null);
  assert.match(heads[1].error, /^not valid JSON/);
  assert.equal(heads[1].where, 'line 2');
  // the library's refusal of claim 2 (a one-claim input's path), in the box's own terms
  const refused = entryOf(jsonl, 2, heads[2], { error: { code: 'VALIDATION_ERROR', message: 'VALIDATION_ERROR: quote is empty at $.claims[0].quote', path: ['claims', 0, 'quote'] } });
  assert.deepEqual(refused, { result: null, claimId: 'EV3', quote: 'third', where: 'line 3 at $.quote', error: 'quote is empty' });
  const result = { claim_id: 'EV1' };
  const outcome = { result, failure: null, warnings: [], errors: [] };
  const entry = entryOf(jsonl, 0, heads[0], outcome);
  assert.deepEqual(entry, { result, failure: null, warnings: [], errors: [], quote: 'first quote' });
  // the same outcome makes an entry the same as the last one (the worker then sends nothing); another does not
  assert.ok(sameEntry(entry, entryOf(jsonl, 0, heads[0], outcome)));
  assert.ok(!sameEntry(entry, entryOf(jsonl, 0, heads[0], { ...outcome, result: { claim_id: 'EV1' } })));
  assert.ok(!sameEntry(entry, heads[0]));
  assert.ok(sameEntry(heads[0], headOf(jsonl, 0)));
  // a long quote is clipped to what the list shows
  const long = parseClaims(JSON.stringify({ claims: [{ id: 'EV9', quote: 'x'.repeat(500) }] }));
  assert.equal([...headOf(long, 0).quote].length, 140);
  // JSON paths: a bare array, or the claims list of an object
  assert.equal(whereOf(parseClaims('[{}, {}]'), 1, ['claims', 0, 'quote']), '$[1].quote');
  assert.equal(whereOf(long, 0, null), '$.claims[0]');
  assert.equal(whereOf(parseClaims('one\n\ntwo'), 1, null), 'line 3');
  // the format: the selector's, else the claims' own when the library takes it, else detected (null)
  const html = parseClaims('{"source_metadata": {"format": "html"}, "claims": []}');
  assert.equal(formatFor('auto', html), 'html');
  assert.equal(formatFor('markdown', html), 'markdown');
  assert.equal(formatFor('auto', parseClaims('{"source_metadata": {"format": "pdf"}, "claims": []}')), null);
  assert.equal(formatFor('auto', long), null);
});
