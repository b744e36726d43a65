// Issue 13 through the npm package (wasm in Node): limits that hold for the
// whole call, and bad input that gets a typed EvidenceValidatorError with a
// JSON path instead of a crash, a silent default or a wrong answer. Every
// test ends with a call on the same module that must still answer right.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, defaultConfig, parseJson, validateEvidence } from 'evidence-validator';
import { assertThrowsCode, claim } from './helpers.mjs';

const LINE = '2026-11-25T10:00:00Z INFO worker-3 request handled in 12 ms status=200 path=/api/v1/items\n';
const good = 'The system must implement user authentication with OAuth 2.0 protocol.';

/** The module still answers: one claim validated. */
function stillWorks() {
  const report = validateEvidence(`# R\n${good}\n`, { claims: [claim({ quote: good })] });
  assert.equal(report.validated_claims[0].validation_status, 'VALIDATED');
}

function assertAccounted(report, ids) {
  const seen = report.validated_claims.map((r) => r.claim_id);
  for (const e of report.errors) {
    assert.equal(e.code, 'PROCESSING_ERROR');
    seen.push(...e.affected_claims);
  }
  assert.deepEqual(seen.sort(), [...ids].sort());
}

test('a quote on every line of a 17 MB log ends within the time limit (plus 2 s)', () => {
  const source = LINE.repeat(Math.floor(17_000_000 / LINE.length));
  const claims = { source_metadata: { format: 'plain_text' }, claims: [
    claim({ id: 'EV001', quote: 'request handled in 12 ms status=200' }),
    claim({ id: 'EV002', quote: 'worker-3 request handled in 99 ms' }),
  ] };
  const limit = 1;
  const started = performance.now();
  const report = validateEvidence(source, claims, { performance_limits: { max_processing_time_seconds: limit, max_memory_mb: 512 } });
  const seconds = (performance.now() - started) / 1000;
  assert.ok(seconds < limit + 2, `took ${seconds.toFixed(1)} s with a ${limit} s limit`);
  assertAccounted(report, ['EV001', 'EV002']);
  if (report.validated_claims.length > 0) {
    assert.equal(report.validated_claims[0].validation_status, 'AMBIGUOUS');
    assert.ok(report.warnings.some((w) => w.code === 'TOO_MANY_OCCURRENCES'));
  }
  stillWorks();
});

test('Document.find of one letter in 10 MB is capped, counted and bounded in time', () => {
  const source = 'a'.repeat(10 * 1024 * 1024);
  const doc = new Document(source, { format: 'plain_text' });
  try {
    const quote = 'aaaaaaaaaaaa';
    const started = performance.now();
    const found = doc.find(quote, { maxProcessingTimeSeconds: 1 });
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 3, `took ${seconds.toFixed(1)} s with a 1 s limit`);
    // complete: the first 1000 of every overlapping occurrence; cut short by
    // the limit (a slow or busy machine): fewer, and said so
    if (found.complete) {
      assert.equal(found.matches.length, 1000);
      assert.equal(found.total, source.length - quote.length + 1);
    } else {
      assert.ok(found.matches.length <= 1000);
    }
    assert.equal(found.omitted, found.total - found.matches.length);
    for (const m of found.matches.slice(0, 5)) assert.equal(source.slice(m.utf16_start, m.utf16_end), m.matched_text);
    const few = doc.find(quote, { maxResults: 2 });
    assert.deepEqual([few.matches.length, few.total, few.complete], [2, source.length - quote.length + 1, true]);
    assertThrowsCode(() => doc.find(quote, { maxResults: 0 }), 'CONFIGURATION_ERROR', '$.maxResults');
    assertThrowsCode(() => doc.find(quote, { maxResult: 5 }), 'CONFIGURATION_ERROR', '$.maxResult');
  } finally {
    doc.free();
  }
  stillWorks();
});

test('max_memory_mb is accepted and honoured; max_claims has one bound', () => {
  const source = `${good} `.repeat(30_000); // 2.2 MB
  const claims = { claims: [claim({ quote: good })] };
  assert.equal(validateEvidence(source, claims, { performance_limits: { max_memory_mb: 100 } }).validated_claims.length, 1);
  const e = assertThrowsCode(() => validateEvidence(source, claims, { performance_limits: { max_memory_mb: 5 } }), 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_memory_mb');
  assertThrowsCode(() => validateEvidence(source, claims, { performance_limits: { max_claims: 1001 } }), 'CONFIGURATION_ERROR', '$.performance_limits.max_claims');
  assert.equal(defaultConfig().performance_limits.max_claims, 1000);
  assert.equal(defaultConfig().performance_limits.max_memory_mb, 100);
  stillWorks();
});

test('NaN, Infinity and wrong types in a JS config are errors with their path, not defaults', () => {
  const claims = { claims: [claim({ quote: good })] };
  for (const [config, path] of [
    [{ fuzzy_matching: { max_edit_distance: NaN } }, '$.fuzzy_matching.max_edit_distance'],
    [{ fuzzy_matching: { similarity_threshold: Infinity } }, '$.fuzzy_matching.similarity_threshold'],
    [{ performance_limits: { max_processing_time_seconds: -Infinity } }, '$.performance_limits.max_processing_time_seconds'],
    [{ fuzzy_matching: { algorithm: 7 } }, '$.fuzzy_matching.algorithm'],
    [{ exact_matching: { enabled: 'yes' } }, '$.exact_matching.enabled'],
    [{ fuzzy_matching: { enabled: () => true } }, '$.fuzzy_matching.enabled'],
  ]) {
    assertThrowsCode(() => validateEvidence(good, claims, config), 'CONFIGURATION_ERROR', path);
  }
  stillWorks();
});

test('non-string inputs and lone surrogates throw typed errors with their path', () => {
  const claims = { claims: [claim({ quote: good })] };
  for (const source of [42, null, undefined, { text: good }, ['a']]) {
    assertThrowsCode(() => validateEvidence(source, claims), 'DOCUMENT_PARSING_ERROR', '$.source');
    assertThrowsCode(() => new Document(source), 'DOCUMENT_PARSING_ERROR', '$.source');
  }
  for (const bad of [null, 5, 'claims', true]) {
    assert.throws(() => validateEvidence(good, bad), (e) => e.name === 'EvidenceValidatorError' && e.code === 'VALIDATION_ERROR');
  }
  // a lone surrogate: in the source (offsets into it would not hold) and in a quote
  const lone = `${good} \uD83D tail`;
  const e = assertThrowsCode(() => validateEvidence(lone, claims), 'DOCUMENT_PARSING_ERROR', '$.source');
  assert.match(e.message, new RegExp(`UTF-16 index ${good.length + 1}`));
  assertThrowsCode(() => validateEvidence(good, { claims: [claim({ quote: `${good}\uDC00` })] }), 'VALIDATION_ERROR', '$.claims[0].quote');
  const doc = new Document(good);
  try {
    assertThrowsCode(() => doc.find('\uD800 authentication'), 'VALIDATION_ERROR', '$.quote');
    assertThrowsCode(() => doc.find(17), 'VALIDATION_ERROR', '$.quote');
    assert.equal(doc.find('user authentication').matches.length, 1, 'the document still answers');
  } finally {
    doc.free();
  }
  // U+FFFD written in the text is text; beside a lone surrogate, the
  // surrogate is still found (the conversion writes U+FFFD for it)
  const replacement = `\uFFFD ${good}`;
  const rr = validateEvidence(replacement, { claims: [claim({ quote: `\uFFFD ${good.slice(0, 20)}` })] });
  assert.equal(rr.validated_claims[0].validation_status, 'VALIDATED');
  const rm = rr.validated_claims[0].match_details;
  assert.equal(replacement.slice(rm.utf16_start, rm.utf16_end), rm.matched_text);
  const both = `\uFFFD ${good} \uDC00`;
  const eb = assertThrowsCode(() => validateEvidence(both, claims), 'DOCUMENT_PARSING_ERROR', '$.source');
  assert.match(eb.message, new RegExp(`UTF-16 index ${good.length + 3}`));
  // a well-formed surrogate pair is text
  const emoji = `😀 ${good}`;
  const r = validateEvidence(emoji, { claims: [claim({ quote: good })] });
  const m = r.validated_claims[0].match_details;
  assert.equal(emoji.slice(m.utf16_start, m.utf16_end), m.matched_text);
  stillWorks();
});

test('unknown claim fields warn, and strict refuses them', () => {
  const claims = { claims: [{ ...claim({ quote: good }), expected_sectoin: 'R' }] };
  const report = validateEvidence(`# R\n${good}\n`, claims);
  const w = report.warnings.find((x) => x.code === 'UNKNOWN_FIELDS');
  assert.ok(w && w.message.includes('$.claims[0].expected_sectoin'), JSON.stringify(report.warnings));
  assertThrowsCode(() => validateEvidence(`# R\n${good}\n`, claims, { strict: true }), 'VALIDATION_ERROR', '$.claims[0].expected_sectoin');
  const doc = new Document(`# R\n${good}\n`);
  try {
    assert.ok(doc.validate(claims).warnings.some((x) => x.code === 'UNKNOWN_FIELDS'));
  } finally {
    doc.free();
  }
  stillWorks();
});

test('parseJson refuses duplicate keys with their path and skips a BOM', () => {
  const e = assertThrowsCode(() => parseJson('{"claims": [{"id": "EV001", "id": "EV002"}]}'), 'VALIDATION_ERROR', '$.claims[0].id');
  assert.equal(e.details.constraint, 'uniqueKeys');
  assert.deepEqual(parseJson('\uFEFF{"a": [1, 2.5, "x", null, true]}'), { a: [1, 2.5, 'x', null, true] });
  assert.throws(() => parseJson('{"a": 1} x'), (err) => err.code === 'VALIDATION_ERROR');
  stillWorks();
});

test('every string argument of the package is checked: a number, null or a lone surrogate is a typed error', async () => {
  const lib = await import('evidence-validator');
  const calls = {
    quoteScore: (x) => lib.quoteScore(x, 'the area text'),
    normalizeJudgeText: (x) => lib.normalizeJudgeText(x),
    parseJudgeAnswer: (x) => lib.parseJudgeAnswer(x),
    parseCitations: (x) => lib.parseCitations(x),
    normalizeEvidenceText: (x) => lib.normalizeEvidenceText(x),
    evidenceTokens: (x) => lib.evidenceTokens(x),
    computeHash: (x) => lib.Finding.computeHash(x),
    verifyReport: (x) => lib.verifyReport(x, {}),
  };
  for (const [name, call] of Object.entries(calls)) {
    for (const bad of [42, null, { text: 'x' }, 'lone \uD800 surrogate']) {
      assert.throws(() => call(bad), (e) => e.name === 'EvidenceValidatorError' && typeof e.code === 'string' && typeof e.details.json_path === 'string',
        `${name}(${typeof bad})`);
    }
  }
  assert.equal(lib.normalizeEvidenceText('Hello, World!'), 'hello world');
  stillWorks();
});
