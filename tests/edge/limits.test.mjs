// The edge worker on untrusted requests (issue 13, "The edge function"), in
// workerd through Miniflare on 127.0.0.1 (tests/edge/harness.mjs):
//
// - the request's config clamped to the server's bounds (edge/worker.mjs
//   BOUNDS): values above a bound lowered and named in
//   X-Evidence-Validator-Clamped, the report the library's for the clamped
//   config; missing limits filled with tighter server values; bounds set
//   through the EV_MAX_* bindings; a malformed binding is a 500;
// - a huge max_edit_distance on a ~1 MB source answered (correctly) because
//   of the clamp;
// - 415 for a body that is not application/json;
// - CORS: the OPTIONS preflight, Access-Control-Allow-Origin only for an
//   origin in ALLOWED_ORIGINS (none by default), Vary: Origin.
//
// Every test then checks that a later request on the same worker still gets
// the right report. Workers are started in `before` and disposed in `after`
// (the misconfigured ones inside their test, in `finally`).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertError, assertReport, lib, post, read, REQUEST_TIMEOUT_MS, startWorker } from './harness.mjs';

const source = read('samples/incident-review.md');
const claims = JSON.parse(read('samples/claims.json'));

/** The worker's default bounds as edge/README.md documents them. */
const DEFAULT_BOUNDS = {
  performance_limits: { max_document_size_mb: 4, max_claims: 100, max_processing_time_seconds: 10 },
  fuzzy_matching: { max_edit_distance: 8 },
  context_validation: { context_window: 1000 },
  semantic_matching: { chunk_size: 2000, overlap_size: 250 },
};

/** Bindings of the tightened worker. */
const TIGHT = {
  EV_MAX_CLAIMS: '2',
  EV_MAX_EDIT_DISTANCE: '1',
  EV_MAX_DOCUMENT_SIZE_MB: '0.01',
  EV_MAX_BODY_BYTES: '65536',
  ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:8080',
};

let plain; // default bindings: no allow-list
let tight; // TIGHT
let slow; // a processing time bound of 50 ms

before(async () => {
  [plain, tight, slow] = await Promise.all([
    startWorker(),
    startWorker(TIGHT),
    startWorker({ EV_MAX_PROCESSING_TIME_SECONDS: '0.05' }),
  ]);
});

after(async () => {
  await Promise.all([plain, tight, slow].map((w) => w?.dispose()));
});

/** The sample on the default worker: 200 with the library's report (the default config). */
async function stillWorks(worker = plain) {
  assertReport(await post(worker.url, { source, claims }), source, claims, null);
}

/**
 * Two claims of the sample (EV003 is FAILED at edit distance 1, LOW_CONFIDENCE
 * at the library's default) on the tight worker: the library's report with
 * max_edit_distance 1 (the binding's value fills it in).
 */
const two = { claims: claims.claims.slice(2, 4) };
const twoAtDefault = lib.validateEvidence(source, two, null).generated.contentHash;
assert.notEqual(lib.validateEvidence(source, two, { fuzzy_matching: { max_edit_distance: 1 } }).generated.contentHash, twoAtDefault);

async function tightStillWorks() {
  const r = await post(tight.url, { source, claims: two });
  assertReport(r, source, two, { fuzzy_matching: { max_edit_distance: 1 } });
  assert.equal(r.headers.get('x-evidence-validator-clamped'), null);
}

/** A ~1 MB source of pseudo-random words (seeded) with one sentence planted at a known place. */
function megabyteSource(planted, size = 1_000_000) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = source.split(/\s+/).filter((w) => /^[a-z]+$/i.test(w));
  const parts = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const w = i === 90_000 ? planted : words[Math.floor(next() * words.length)];
    parts.push(w);
    length += w.length + 1;
  }
  return parts.join(' ');
}

const clampedKeys = (r) => (r.headers.get('x-evidence-validator-clamped') ?? '').split(',').filter(Boolean).sort();

test('a huge max_edit_distance on a 1 MB source is clamped to the bound and answered correctly', async () => {
  const planted = 'The nightly settlement ledger reconciliation finished at 04:10 UTC without a single discrepancy.';
  const big = megabyteSource(planted);
  assert.ok(big.length >= 1_000_000 && big.length < 1_100_000);
  const at = big.indexOf(planted);
  assert.ok(at > 0);
  const typoed = 'the nightly settlment ledger reconciliation finished at 04:10 UTC';
  const fabricated = Array.from({ length: 8 }, (_, i) => ({
    id: `EV${String(i + 2).padStart(3, '0')}`, task_id: 'P1.T001', evidence_type: 'direct_quote', quote: `nobody saw the outage ${i} times`,
  }));
  const bigClaims = [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: typoed }, ...fabricated];
  // Unclamped, every 30-character fabricated quote would be searched at edit distance 29 over 1 MB.
  const config = { fuzzy_matching: { max_edit_distance: 2000, similarity_threshold: 0 } };
  const r = await post(plain.url, { source: big, claims: bigClaims, config });
  assert.deepEqual(clampedKeys(r), ['fuzzy_matching.max_edit_distance']);
  const report = assertReport(r, big, bigClaims, { fuzzy_matching: { max_edit_distance: 8, similarity_threshold: 0 } });
  assert.equal(report.ok, true);
  const first = report.validated_claims[0];
  assert.equal(first.validation_status, 'VALIDATED');
  assert.equal(first.match_details.edit_distance, 1);
  assert.equal(first.match_details.utf16_start, at);
  assert.equal(big.slice(first.match_details.utf16_start, first.match_details.utf16_end), first.match_details.matched_text);
  assert.ok(planted.startsWith(first.match_details.matched_text));
  assert.deepEqual(report.validated_claims.slice(1).map((c) => c.validation_status), fabricated.map(() => 'FAILED'));
  await stillWorks();
});

test('every bounded value above its bound is lowered to it and named in X-Evidence-Validator-Clamped', async () => {
  const huge = {
    performance_limits: { max_document_size_mb: 4096, max_claims: 1_000_000, max_processing_time_seconds: 86_400 },
    fuzzy_matching: { max_edit_distance: 2000 },
    context_validation: { context_window: 1_000_000 },
    semantic_matching: { chunk_size: 1_000_000, overlap_size: 999_999 },
  };
  const everyKey = Object.entries(DEFAULT_BOUNDS).flatMap(([s, o]) => Object.keys(o).map((k) => `${s}.${k}`)).sort();
  let r = await post(plain.url, { source, claims, config: huge });
  assert.deepEqual(clampedKeys(r), everyKey);
  assertReport(r, source, claims, DEFAULT_BOUNDS);
  // the same inside the §1.3 wrapper
  r = await post(plain.url, { source, claims, config: { validation_config: huge } });
  assert.deepEqual(clampedKeys(r), everyKey);
  assertReport(r, source, claims, DEFAULT_BOUNDS);

  // at the bound or under it: untouched, no header
  r = await post(plain.url, { source, claims, config: { fuzzy_matching: { max_edit_distance: 8 }, context_validation: { context_window: 5 } } });
  assert.equal(r.headers.get('x-evidence-validator-clamped'), null);
  assertReport(r, source, claims, { fuzzy_matching: { max_edit_distance: 8 }, context_validation: { context_window: 5 } });

  // overlap_size is also held to half the chunk size
  r = await post(plain.url, { source, claims, config: { semantic_matching: { chunk_size: 300, overlap_size: 200 } } });
  assert.deepEqual(clampedKeys(r), ['semantic_matching.overlap_size']);
  assertReport(r, source, claims, { semantic_matching: { chunk_size: 300, overlap_size: 150 } });
  await stillWorks();
});

test('out-of-range and mistyped values are still the library\'s typed errors, not clamped', async () => {
  let e = assertError(await post(plain.url, { source, claims, config: { fuzzy_matching: { max_edit_distance: -1 } } }), 400, 'CONFIGURATION_ERROR');
  assert.equal(e.details.body_path, '$.config.fuzzy_matching.max_edit_distance');
  let r = await post(plain.url, { source, claims, config: { fuzzy_matching: { max_edit_distance: '9999' } } });
  e = assertError(r, 400, 'CONFIGURATION_ERROR');
  assert.equal(e.details.json_path, '$.fuzzy_matching.max_edit_distance');
  assert.equal(r.headers.get('x-evidence-validator-clamped'), null);
  e = assertError(await post(plain.url, { source, claims, config: { performance_limits: 5 } }), 400, 'CONFIGURATION_ERROR');
  assert.equal(e.details.body_path, '$.config.performance_limits');
  // an error after a clamp still names the clamp
  r = await post(plain.url, { source, claims, config: { fuzzy_matching: { max_edit_distance: 50, similarity_threshold: 2 } } });
  e = assertError(r, 400, 'CONFIGURATION_ERROR');
  assert.equal(e.details.body_path, '$.config.fuzzy_matching.similarity_threshold');
  assert.deepEqual(clampedKeys(r), ['fuzzy_matching.max_edit_distance']);
  await stillWorks();
});

test('bindings tighten the bounds; a missing value gets the tighter server value', async () => {
  const three = { claims: claims.claims.slice(0, 3) };
  // no config: max_claims is the server's 2, not the library's default
  let r = await post(tight.url, { source, claims: three });
  let e = assertError(r, 400, 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_claims');
  assert.equal(r.headers.get('x-evidence-validator-clamped'), null);
  // a request asking for more is clamped, and says so
  r = await post(tight.url, { source, claims: three, config: { performance_limits: { max_claims: 50 } } });
  e = assertError(r, 400, 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_claims');
  assert.deepEqual(clampedKeys(r), ['performance_limits.max_claims']);
  // max_edit_distance: the binding's 1 when the request says nothing (tightStillWorks), and when it asks for more
  r = await post(tight.url, { source, claims: two, config: { fuzzy_matching: { max_edit_distance: 3 } } });
  assert.deepEqual(clampedKeys(r), ['fuzzy_matching.max_edit_distance']);
  assertReport(r, source, two, { fuzzy_matching: { max_edit_distance: 1 } });
  // document size: the server's 0.01 MiB (10,485 bytes)
  const longer = source.repeat(5);
  assert.ok(longer.length > 0.01 * 1024 * 1024 && longer.length < 60_000);
  assertReport(await post(plain.url, { source: longer, claims: two }), longer, two, null);
  e = assertError(await post(tight.url, { source: longer, claims: two }), 413, 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_document_size_mb');
  assert.equal(e.details.limit_mb, 0.01);
  // body size: 64 KiB
  e = assertError(await post(tight.url, { source, claims: two, padding: 'x'.repeat(70_000) }), 413, 'PAYLOAD_TOO_LARGE');
  assert.equal(e.details.limit_bytes, 65536);
  await tightStillWorks();
  // and the default worker is unaffected by the other's bindings
  await stillWorks();
});

test('max_processing_time_seconds: the server\'s bound applies to requests without one and to requests asking for more', async () => {
  // 3.5 MB and 100 paraphrases (the default max_claims bound): several
  // times the 50 ms bound on any machine this runs on
  const big = megabyteSource('The quarterly audit closed on time.', 3_500_000);
  // 100 paraphrases (the default max_claims bound) on 1 MB: several times
  // the 50 ms bound on any machine this runs on
  const many = { claims: Array.from({ length: 100 }, (_, i) => ({
    id: `EV${String(i + 1).padStart(3, '0')}`, task_id: 'P1.T001', evidence_type: 'paraphrase', quote: `the quarterly audit was closed late ${i} times`,
  })) };
  for (const config of [undefined, { performance_limits: { max_processing_time_seconds: 3600 } }]) {
    const r = await post(slow.url, { source: big, claims: many, config });
    assert.equal(r.status, 200);
    assert.deepEqual(clampedKeys(r), config ? ['performance_limits.max_processing_time_seconds'] : []);
    assert.equal(r.json.ok, false);
    assert.equal(r.json.errors[0].code, 'PROCESSING_ERROR');
    // every claim accounted for
    assert.equal(r.json.validation_summary.total_claims, 100);
    const affected = r.json.errors[0].affected_claims ?? [];
    assert.equal(r.json.validated_claims.length + affected.length, 100);
  }
  // a small request fits in 50 ms
  const one = [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'the ramen shop near Shinjuku station' }];
  const text = 'Prélude: the ramen shop near Shinjuku station was the highlight.';
  const r = await post(slow.url, { source: text, claims: one });
  assertReport(r, text, one, null);
  assert.equal(r.json.validated_claims[0].validation_status, 'VALIDATED');
});

test('a malformed binding is a 500 SERVER_CONFIGURATION_ERROR naming it', async () => {
  const cases = [
    [{ EV_MAX_EDIT_DISTANCE: 'lots' }, 'EV_MAX_EDIT_DISTANCE', 'type'],
    [{ EV_MAX_CLAIMS: '2.5' }, 'EV_MAX_CLAIMS', 'range'],
    [{ EV_MAX_PROCESSING_TIME_SECONDS: '0' }, 'EV_MAX_PROCESSING_TIME_SECONDS', 'range'],
    [{ ALLOWED_ORIGINS: 'https://app.example.com/path' }, 'ALLOWED_ORIGINS', 'format'],
  ];
  for (const [bindings, binding, constraint] of cases) {
    const bad = await startWorker(bindings);
    try {
      const e = assertError(await post(bad.url, { source, claims }), 500, 'SERVER_CONFIGURATION_ERROR');
      assert.equal(e.details.binding, binding);
      assert.equal(e.details.constraint, constraint);
    } finally {
      await bad.dispose();
    }
  }
  await stillWorks();
});

test('415 for a body that is not application/json; charset utf-8 or none accepted', async () => {
  const body = JSON.stringify({ source, claims });
  for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'application/json; charset=iso-8859-1', 'application/jsonx', 'multipart/form-data; boundary=x']) {
    const e = assertError(await post(plain.url, body, { headers: { 'Content-Type': type } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(e.details.content_type, type);
  }
  // no Content-Type at all (a Uint8Array body gets none from fetch)
  const res = await fetch(plain.url, { method: 'POST', body: new TextEncoder().encode(body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  assert.equal(res.status, 415);
  assert.equal((await res.json()).error.details.content_type, null);
  for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;Charset="UTF-8"']) {
    assertReport(await post(plain.url, body, { headers: { 'Content-Type': type } }), source, claims, null);
  }
  await stillWorks();
});

/** An OPTIONS preflight from `origin`. */
async function preflight(url, origin) {
  const res = await fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), '');
  assert.equal(res.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
  assert.equal(res.headers.get('access-control-allow-headers'), 'Content-Type');
  assert.equal(res.headers.get('access-control-max-age'), '600');
  assert.equal(res.headers.get('vary'), 'Origin');
  return res.headers;
}

test('CORS without an allow-list: preflight answered, no Access-Control-Allow-Origin anywhere', async () => {
  const h = await preflight(plain.url, 'https://app.example.com');
  assert.equal(h.get('access-control-allow-origin'), null);
  const r = await post(plain.url, { source, claims }, { headers: { Origin: 'https://app.example.com' } });
  assertReport(r, source, claims, null);
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  assert.equal(r.headers.get('vary'), 'Origin');
  const e = await post(plain.url, '{', { headers: { Origin: 'https://app.example.com' } });
  assertError(e, 400, 'INVALID_JSON');
  assert.equal(e.headers.get('access-control-allow-origin'), null);
  assert.equal(e.headers.get('vary'), 'Origin');
  await stillWorks();
});

test('CORS with ALLOWED_ORIGINS: the request\'s Origin echoed only when listed', async () => {
  for (const origin of ['https://app.example.com', 'http://localhost:8080']) {
    const h = await preflight(tight.url, origin);
    assert.equal(h.get('access-control-allow-origin'), origin);
  }
  for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.example', 'http://app.example.com', 'null']) {
    const h = await preflight(tight.url, origin);
    assert.equal(h.get('access-control-allow-origin'), null, origin);
  }
  // a POST from a listed origin: echoed, with the headers a page may read
  let r = await post(tight.url, { source, claims: two, config: { fuzzy_matching: { max_edit_distance: 5 } } }, { headers: { Origin: 'https://app.example.com' } });
  assertReport(r, source, two, { fuzzy_matching: { max_edit_distance: 1 } });
  assert.equal(r.headers.get('access-control-allow-origin'), 'https://app.example.com');
  assert.equal(r.headers.get('access-control-expose-headers'), 'X-Evidence-Validator, X-Evidence-Validator-Clamped');
  assert.equal(r.headers.get('vary'), 'Origin');
  // errors too, so that the page can read them
  r = await post(tight.url, 'x', { headers: { Origin: 'http://localhost:8080', 'Content-Type': 'text/plain' } });
  assertError(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal(r.headers.get('access-control-allow-origin'), 'http://localhost:8080');
  // a POST from another origin: not echoed
  r = await post(tight.url, { source, claims: two }, { headers: { Origin: 'https://evil.example.com' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  assert.equal(r.headers.get('access-control-expose-headers'), null);
  // 405 still for the other methods, with Vary
  const res = await fetch(tight.url, { method: 'GET', headers: { Origin: 'https://app.example.com' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
  assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
  await res.arrayBuffer();
  await tightStillWorks();
});
