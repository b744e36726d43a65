// A large request validated in steps by the library's SlicedValidation
// (issue 21 item 4): the document built a bounded number of source bytes
// per step, the claims validated in slices, joined by the library, the
// report's text written a slice at a time. Its report must be the one
// call's, byte for byte once serialized (the timestamp aside), and its
// errors the one call's. Checked in Node against the package's Node build
// (many cases, quickly), then in workerd: a sliced request's answer, the
// EV_SLICE_CLAIMS and EV_SLICE_BYTES bindings, and small requests answered
// while a heavy one is in flight.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claimsFor, documentOf, plain } from '../../scripts/workload.mjs';
import { assertError, assertReport, lib, post, read, startWorker } from './harness.mjs';

const doc = documentOf(60_000);
/** `n` seeded claims on `doc` (70 % verbatim, 20 % edited, 10 % absent). */
const claimsOf = (n, seed) => plain(claimsFor(doc, n, seed));

/** The report as the worker sends it, its timestamp (the time of the call) blanked. */
const bytes = (r) => JSON.stringify({ ...r, generated: { ...r.generated, timestamp: 'T' } });

/** The report of SlicedValidation run step by step, and how many steps it took. */
function sliced(source, claims, config, options) {
  const job = new lib.SlicedValidation(source, claims, config, options);
  let steps = 0;
  while (!job.step()) steps++;
  const text = job.finishJson();
  return { report: JSON.parse(text), text, steps };
}

/** The report or the error, in a form to compare. */
function outcome(f) {
  try {
    return { report: bytes(f()) };
  } catch (e) {
    return { error: [e.name, e.code, e.message, JSON.stringify(e.details)] };
  }
}

function sameAsOneCall(source, claims, config, claimsPerSlice = 16, bytesPerStep = 4096) {
  const { report, steps } = sliced(source, claims, config, { claimsPerSlice, bytesPerStep });
  const one = lib.validateEvidence(source, claims, config);
  assert.equal(bytes(report), bytes(one));
  // in steps: the build's (a step per bytesPerStep of the source and more), the slices, the text's
  assert.ok(steps > source.length / bytesPerStep, `${steps} steps`);
  return one;
}

test('sliced reports are the one call\'s, byte for byte: object and array claims, configs, formats', () => {
  const one = sameAsOneCall(doc, claimsOf(100, 1), null);
  // the workload has every status, warnings and failed claims to join
  assert.ok(one.validation_summary.failed_claims > 0 && one.validation_summary.low_confidence_claims > 0);
  assert.ok(one.warnings.length > 0);
  sameAsOneCall(doc, claimsOf(73, 2).claims, null); // an array, slices of unequal ends
  sameAsOneCall(doc, claimsOf(40, 3), { fuzzy_matching: { max_edit_distance: 8 } }, 8);
  sameAsOneCall(doc, claimsOf(40, 4), { validation_config: { exact_matching: { case_sensitive: true } } }, 8);
  sameAsOneCall(doc, { source_metadata: { format: 'plain_text' }, claims: claimsOf(40, 5).claims }, null, 8, 1024);
  sameAsOneCall(doc, claimsOf(57, 19), null, 4);
  // every evidence type (the lexical fallback for the loose ones), and section references
  const mixed = claimsOf(60, 20);
  const types = ['direct_quote', 'paraphrase', 'concept_reference', 'section_reference'];
  mixed.claims.forEach((c, i) => {
    c.evidence_type = types[i % 4];
  });
  sameAsOneCall(doc, mixed, null, 8);
  // a duplicate id within one slice, and one across slices: the library's own warnings
  const dup = claimsOf(40, 6);
  dup.claims[3].id = dup.claims[2].id;
  dup.claims[35].id = dup.claims[0].id;
  const r = sameAsOneCall(doc, dup, null, 8);
  assert.equal(r.warnings.filter((w) => w.code === 'DUPLICATE_CLAIM_ID').length, 2);
  // unknown fields: the one warning, listing every path
  const unknown = claimsOf(40, 9);
  unknown.claims[30].expected_sectoin = 'x';
  unknown.claims[2].extra = 1;
  assert.ok(sameAsOneCall(doc, unknown, null, 8).warnings.some((w) => w.code === 'UNKNOWN_FIELDS'));
});

test('the search and the content hash in many small steps, on emoji, CJK, combining marks and CRLF: the one call\'s report', () => {
  // claimsPerSlice 4 and bytesPerStep 1024: the claims prepared and hashed 16
  // a step, fuzzy-searched 4 a step, the text searched exactly 4 KB a step (cut
  // inside emoji and CJK)
  const line = (i) => `Line ${i}: the café ${i} 😀 has e\u0301te\u0301 ${i * 7} and 中文${i}。 \u201cquoted ${i}\u201d \u2014 👨‍👩‍👧 ${i * 3}\r\n`;
  const text = Array.from({ length: 400 }, (_, i) => line(i)).join('');
  const chars = [...text];
  const claims = {
    claims: Array.from({ length: 120 }, (_, i) => {
      const start = (i * 7919) % (chars.length - 80);
      let quote = chars.slice(start, start + 20 + (i % 50)).join('');
      if (i % 5 === 2) quote = quote.replace(/[a-z]/, 'x');
      if (i % 7 === 3) quote = `nothing like this, number ${i}, is there`;
      return { id: `EV${i}`, task_id: 'P1.T1', evidence_type: ['direct_quote', 'paraphrase', 'concept_reference'][i % 3], quote };
    }),
  };
  const one = sameAsOneCall(text, claims, null, 4, 1024);
  assert.ok(one.validation_summary.validated_claims > 0 && one.failed_claims.length > 0);
});

test('HIDDEN_TEXT notes come after every claim\'s warnings, as in the one call', () => {
  const hidden = (i) => `<p style="display:none">the hidden figure number ${i} is ${i * 7} percent of the total</p>`;
  const html = `<html><body>${Array.from({ length: 30 }, (_, i) => `<p>Visible paragraph ${i}: the revenue grew by ${i + 3} percent in the quarter.</p>${hidden(i)}`).join('\n')}</body></html>`;
  const claims = {
    source_metadata: { format: 'html' },
    claims: Array.from({ length: 30 }, (_, i) => ({
      id: `EV${i}`, task_id: 'P1.T1', evidence_type: 'direct_quote',
      quote: i % 2 ? `the hidden figure number ${i} is ${i * 7} percent of the total` : `the revenue grew by ${i + 60} percent in the quarter`,
    })),
  };
  const one = sameAsOneCall(html, claims, null, 8, 1024);
  const codes = one.warnings.map((w) => w.code);
  assert.ok(codes.includes('HIDDEN_TEXT'));
  assert.ok(codes.some((c) => c !== 'HIDDEN_TEXT'));
  assert.ok(codes.indexOf('HIDDEN_TEXT') > codes.findLastIndex((c) => c !== 'HIDDEN_TEXT'));
});

test('what the one call refuses, SlicedValidation refuses with the same error', () => {
  const same = (source, claims, config) => {
    const one = outcome(() => lib.validateEvidence(source, claims, config));
    assert.ok(one.error, 'the one call refuses it');
    assert.deepEqual(outcome(() => sliced(source, claims, config, { claimsPerSlice: 8 }).report), one);
  };
  const bad = claimsOf(40, 10);
  bad.claims[30].quote = 5; // at $.claims[30].quote
  same(doc, bad, null);
  same(doc, claimsOf(40, 18), { performance_limits: { max_claims: 39 } });
  same(doc, claimsOf(40, 11), { performance_limits: { max_processing_time_seconds: 'soon' } });
  same(doc, claimsOf(40, 12), { performance_limits: 5 });
  same(doc, { source_metadata: { format: 'markup' }, claims: claimsOf(40, 13).claims }, null);
  same(doc, { claims: claimsOf(40, 13).claims.map((c, i) => (i === 20 ? { ...c, extra: 1 } : c)) }, { strict: true });
  const big = documentOf(400_000);
  same(big, plain(claimsFor(big, 400, 14)), { performance_limits: { max_memory_mb: 5, max_claims: 1000 } });
  same('text with a NUL \u0000 here', claimsOf(5, 1), null);
  // and its own options, read strictly
  for (const options of [{ claimsPerSlice: 3 }, { bytesPerStep: 10 }, { slices: 2 }, { claimsPerSlice: 4.5 }]) {
    assert.throws(() => new lib.SlicedValidation(doc, claimsOf(5, 1), null, options), (e) => e.code === 'CONFIGURATION_ERROR');
  }
});

test('time running out ends the request as the one call does: ok false, one PROCESSING_ERROR, every claim accounted for', () => {
  // paraphrases cost the most; the budget that cuts the request after its
  // first slice depends on the machine, so several are tried
  const claims = { claims: claimsOf(1000, 15).claims.map((c) => ({ ...c, evidence_type: 'paraphrase' })) };
  const check = (x) => {
    assert.equal(x.ok, false);
    assert.equal(x.errors.length, 1);
    const [e] = x.errors;
    assert.deepEqual(Object.keys(e), ['affected_claims', 'code', 'details', 'message']);
    assert.equal(e.code, 'PROCESSING_ERROR');
    assert.deepEqual(e.details, {});
    assert.match(e.message, /^processing time exceeded max_processing_time_seconds \((0\.05|0\.1|0\.2|0\.4|0\.8) s\) (while searching the document|after \d+ of 1000 claims): \d+ claim\(s\) not finished$/);
    assert.equal(x.validated_claims.length + e.affected_claims.length, 1000);
    assert.equal(Number(e.message.match(/(\d+) claim\(s\)/)[1]), e.affected_claims.length);
    assert.deepEqual(e.affected_claims, claims.claims.slice(x.validated_claims.length).map((c) => c.id));
    assert.equal(x.validation_summary.total_claims, 1000);
    assert.equal(x.failed_claims.length, x.validated_claims.filter((c) => c.validation_status !== 'VALIDATED').length);
  };
  let cut = 0;
  for (const seconds of [0.05, 0.1, 0.2, 0.4, 0.8]) {
    const config = { performance_limits: { max_processing_time_seconds: seconds, max_claims: 1000 } };
    const { report } = sliced(doc, claims, config, { claimsPerSlice: 50 });
    const one = lib.validateEvidence(doc, claims, config);
    if (one.ok === false) check(one);
    if (report.ok === false && report.validated_claims.length > 0) {
      check(report);
      cut++;
    }
  }
  assert.ok(cut > 0, 'no budget cut the sliced request after its first slice');
});

// --- in workerd

const sample = read('samples/incident-review.md');
let plainWorker; // default bindings: slices of 50
let wide; // EV_MAX_CLAIMS 1000, slices of 8, build steps of 4 KiB

before(async () => {
  [plainWorker, wide] = await Promise.all([startWorker(), startWorker({ EV_MAX_CLAIMS: '1000', EV_SLICE_CLAIMS: '8', EV_SLICE_BYTES: '4096' })]);
});

after(async () => {
  await Promise.all([plainWorker, wide].map((w) => w?.dispose()));
});

test('more claims than the worker\'s max_claims bound: the one call\'s 400', async () => {
  const claims = claimsOf(101, 21); // the default bound is 100
  const r = await post(plainWorker.url, { source: doc, claims });
  const e = assertError(r, 400, 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_claims');
  assert.throws(() => lib.validateEvidence(doc, claims, { performance_limits: { max_claims: 100 } }), (x) => x.message === e.message);
});

test('the worker answers a sliced request with the library\'s report', async () => {
  const claims = claimsOf(100, 16); // 100 > 50: two slices on the default worker
  assertReport(await post(plainWorker.url, { source: doc, claims }), doc, claims, null);
  assertReport(await post(wide.url, { source: doc, claims }), doc, claims, null);
  // and the sample, under the slice size, without yielding
  const sampleClaims = JSON.parse(read('samples/claims.json'));
  assertReport(await post(wide.url, { source: sample, claims: sampleClaims }), sample, sampleClaims, null);
});

test('EV_SLICE_CLAIMS or EV_SLICE_BYTES outside the library\'s bounds (sliceOptionBounds(): claims 4 to 1000, bytes 1024 to 2^30), or not whole, is a 500 SERVER_CONFIGURATION_ERROR naming it', async () => {
  const bounds = lib.sliceOptionBounds();
  assert.deepEqual(bounds, { claimsPerSlice: { min: 4, max: 1000, default: 50 }, bytesPerStep: { min: 1024, max: 2 ** 30, default: 65536 } });
  for (const [binding, value, constraint] of [
    ['EV_SLICE_CLAIMS', '3', 'range'], ['EV_SLICE_CLAIMS', '1001', 'range'], ['EV_SLICE_CLAIMS', '12.5', 'range'], ['EV_SLICE_CLAIMS', 'many', 'type'],
    ['EV_SLICE_BYTES', '1023', 'range'], ['EV_SLICE_BYTES', String(2 ** 30 + 1), 'range'], ['EV_SLICE_BYTES', '2048.5', 'range'],
  ]) {
    const bad = await startWorker({ [binding]: value });
    try {
      const e = assertError(await post(bad.url, { source: sample, claims: JSON.parse(read('samples/claims.json')) }), 500, 'SERVER_CONFIGURATION_ERROR');
      assert.equal(e.details.binding, binding);
      assert.equal(e.details.constraint, constraint);
    } finally {
      await bad.dispose();
    }
  }
});

/**
 * Posts `heavy` to `worker` and small requests one after another until it
 * is answered. Returns how long the heavy one took, how many small ones
 * were answered meanwhile, and the longest wait for an answer of any kind
 * in that time (between the heavy request's start, the small answers and
 * the heavy answer): while a step of the library runs, nothing else is.
 */
async function heavyBesideSmall(worker, heavy, small) {
  let heavyDone = false;
  const t0 = performance.now();
  let heavyTook = 0;
  const heavyAnswer = post(worker.url, heavy).then((r) => {
    heavyDone = true;
    heavyTook = performance.now() - t0;
    return r;
  });
  const answered = [];
  while (!heavyDone) {
    const r = await post(worker.url, small);
    assertReport(r, small.source, small.claims, null);
    if (!heavyDone) answered.push(performance.now() - t0);
  }
  assertReport(await heavyAnswer, heavy.source, heavy.claims, null);
  const times = [0, ...answered, heavyTook];
  const longestWait = Math.max(...times.slice(1).map((t, i) => t - times[i]));
  return { heavyTook, answered: answered.length, longestWait };
}

test('small requests are answered while a heavy one is being validated in slices', async (t) => {
  // The heavy case of issue 21: 1000 shuffled sentences of the benchmark's
  // 978 KB book (near misses, the costliest claims), so that validating is
  // most of the request's time rather than its upload and parse.
  const book = read('benches/data/rust-book.md');
  const heavy = { source: book, claims: plain(JSON.parse(read('benches/data/claims-shuffled-1000.json'))) };
  const small = { source: 'The ramen shop near Shinjuku station was the highlight.', claims: [{ id: 'EV1', task_id: 'P1.T1', evidence_type: 'direct_quote', quote: 'the ramen shop near Shinjuku station' }] };
  // The control: the same worker with slices larger than the request (as
  // scripts/bench-edge.mjs's "one call"), so that its steps run without
  // yielding. Without slices the heavy validation is one wait of most of
  // the request's time; with them no wait comes near half of it. (On
  // 2026-11-29, after a first request: sliced 12-28 % of the heavy
  // request's time, unsliced 81-100 %; a count of small answers does not
  // tell the two apart, as the upload, the parse and the answer's transfer
  // let small ones through either way.)
  const control = await startWorker({ EV_MAX_CLAIMS: '1000', EV_SLICE_CLAIMS: '1000', EV_SLICE_BYTES: String(5 * 1024 * 1024) });
  try {
    const runs = { sliced: [], unsliced: [] };
    for (let round = 0; round < 3; round++) {
      // the first round warms both workers up (compiling the library's hot code)
      const s = await heavyBesideSmall(wide, heavy, small);
      const u = await heavyBesideSmall(control, heavy, small);
      if (round > 0) {
        runs.sliced.push(s);
        runs.unsliced.push(u);
      }
    }
    const share = (r) => r.longestWait / r.heavyTook;
    const shown = JSON.stringify(runs, (k, v) => (typeof v === 'number' ? Math.round(v) : v));
    t.diagnostic(`ms: ${shown}`);
    assert.ok(runs.sliced.every((r) => r.answered >= 1), `no small request answered while the heavy one ran: ${shown}`);
    assert.ok(Math.min(...runs.sliced.map(share)) < 0.5, `sliced: a wait of half the heavy request's time or more: ${shown}`);
    assert.ok(Math.max(...runs.unsliced.map(share)) >= 0.5, `the control does not show the one call's wait: ${shown}`);
  } finally {
    await control.dispose();
  }
});
