// Errors through the JS API: one test per error code. Bad input throws an
// `Error` named `EvidenceValidatorError` with a string `code` and an object
// `details`; a time budget that runs out is not thrown but reported inside
// the report (`ok: false`, a PROCESSING_ERROR naming the claims not reached).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Document, validateEvidence } from 'evidence-validator';
import { assertThrowsCode, claim } from './helpers.mjs';

const source = '# Requirements\n\nThe system must implement user authentication with OAuth 2.0 protocol.\n' +
  'All API endpoints should return JSON responses with appropriate status codes.\n';

// A document of ~190 kB and five claims quoting it.
const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');
const largeLines = Array.from({ length: 3000 }, (_, i) =>
  `Line ${i}: ${Array.from({ length: 10 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')}.`);
const largeSource = largeLines.join('\n');
const largeClaims = {
  claims: [0, 1, 2, 3, 4].map((i) => claim({ id: `EV00${i + 1}`, task_id: `P1.T00${i + 1}`, quote: largeLines[i * 600] })),
};

/** Every claim id is in exactly one of validated_claims or errors[0].affected_claims. */
function assertNoClaimLost(report, ids) {
  const processed = report.validated_claims.map((r) => r.claim_id);
  const affected = report.errors[0]?.affected_claims ?? [];
  for (const id of ids) {
    assert.ok(processed.includes(id) !== affected.includes(id),
      `${id} must be in exactly one of validated_claims (${processed}) or affected_claims (${affected})`);
  }
  assert.equal(report.validation_summary.total_claims, ids.length);
  assert.equal(report.ok, report.errors.length === 0);
}

function assertProcessingError(report, ids) {
  assert.equal(report.ok, false, 'the budget ran out: ok must be false');
  assert.equal(report.errors.length, 1);
  const [err] = report.errors;
  assert.equal(err.code, 'PROCESSING_ERROR');
  assert.equal(typeof err.message, 'string');
  assert.ok(Array.isArray(err.affected_claims), 'affected_claims is an array');
  assert.ok(err.affected_claims.length > 0, 'some claim was not reached');
  assertNoClaimLost(report, ids);
}

// Both entry points must throw the same errors.
const entries = [
  ['validateEvidence', (src, claims, config) => validateEvidence(src, claims, config ?? null)],
  // A fresh Document each time: its lazily built indexes are part of the timed work.
  ['Document.validate', (src, claims, config) => new Document(src, null).validate(claims, config ?? null)],
];

for (const [entry, run] of entries) {
  describe(`errors through ${entry}`, () => {
    test('VALIDATION_ERROR: a bad claim id names its JSON path', () => {
      const e = assertThrowsCode(() => run(source, { claims: [claim({ id: 'X1' })] }), 'VALIDATION_ERROR');
      assert.equal(e.details.json_path, '$.claims[0].id');
      assert.deepEqual(e.details.path, ['claims', 0, 'id']);
      assert.match(e.message, /X1/);
    });

    test('VALIDATION_ERROR: a later claim names its index', () => {
      const claims = { claims: [claim(), claim({ id: 'EV002', evidence_type: 'hearsay' })] };
      const e = assertThrowsCode(() => run(source, claims), 'VALIDATION_ERROR');
      assert.equal(e.details.json_path, '$.claims[1].evidence_type');
      assert.deepEqual(e.details.path, ['claims', 1, 'evidence_type']);
    });

    test('CONFIGURATION_ERROR: an unknown config key names its JSON path', () => {
      const e = assertThrowsCode(() => run(source, { claims: [claim()] }, { fuzzy_matching: { bogus: 1 } }), 'CONFIGURATION_ERROR');
      assert.equal(e.details.json_path, '$.fuzzy_matching.bogus');
      const top = assertThrowsCode(() => run(source, { claims: [claim()] }, { bogus: true }), 'CONFIGURATION_ERROR');
      assert.equal(top.details.json_path, '$.bogus');
    });

    test('VALIDATION_ERROR: a document over performance_limits.max_document_size_mb (spec 000 §4.2)', () => {
      const e = assertThrowsCode(
        () => run(source, { claims: [claim()] }, { performance_limits: { max_document_size_mb: 0.000001 } }),
        'VALIDATION_ERROR',
      );
      assert.match(e.message, /too large/i);
    });

    test('PROCESSING_ERROR: the time budget runs out, reported in the report and no claim is lost', () => {
      // Large enough that building the indexes (inside the timed part) takes
      // well over the 1 ms resolution of the wasm clock.
      const report = run(largeSource, largeClaims, { performance_limits: { max_processing_time_seconds: 1e-9 } });
      assertProcessingError(report, largeClaims.claims.map((c) => c.id));
    });

    test('PROCESSING_ERROR: a 1e-9 s budget on a small document (the wasm clock measures below 1 ms)', () => {
      const ids = ['EV001', 'EV002', 'EV003', 'EV004'];
      const claims = { claims: ids.map((id, i) => claim({ id, task_id: `P1.T00${i + 1}` })) };
      for (let i = 0; i < 20; i++) {
        const report = run(source, claims, { performance_limits: { max_processing_time_seconds: 1e-9 } });
        assertProcessingError(report, ids);
      }
    });

    test('no claim is lost, whether or not the budget runs out', () => {
      const ids = ['EV001', 'EV002', 'EV003', 'EV004'];
      const claims = { claims: ids.map((id, i) => claim({ id, task_id: `P1.T00${i + 1}` })) };
      for (let i = 0; i < 20; i++) {
        const report = run(source, claims, { performance_limits: { max_processing_time_seconds: 1e-9 } });
        assertNoClaimLost(report, ids);
      }
    });
  });
}

test('DOCUMENT_PARSING_ERROR: a source with a NUL character', () => {
  const src = 'The system must implement user authentication\u0000 with OAuth 2.0 protocol.';
  const e = assertThrowsCode(() => validateEvidence(src, { claims: [claim()] }, null), 'DOCUMENT_PARSING_ERROR');
  assert.equal(typeof e.details.byte_offset, 'number');
  assertThrowsCode(() => new Document(src, null), 'DOCUMENT_PARSING_ERROR');
});

test('CONFIGURATION_ERROR: Document options and find options are checked', () => {
  assertThrowsCode(() => new Document(source, { format: 'docx' }), 'CONFIGURATION_ERROR');
  const doc = new Document(source, null);
  assertThrowsCode(() => doc.find('OAuth', { maxEditDistance: -1 }), 'CONFIGURATION_ERROR');
  assertThrowsCode(() => doc.find('OAuth', { caseSensitive: 'yes' }), 'CONFIGURATION_ERROR');
});

test('a thrown error carries its code in the message and survives JSON round trips of details', () => {
  const e = assertThrowsCode(() => validateEvidence(source, { claims: [claim({ id: 'X1' })] }, null), 'VALIDATION_ERROR');
  assert.ok(e.message.includes('VALIDATION_ERROR'));
  assert.deepEqual(JSON.parse(JSON.stringify(e.details)), e.details);
  assert.equal(typeof e.stack, 'string');
});

test('claims that are not JSON-serializable are a VALIDATION_ERROR, not a crash', () => {
  const cyclic = { claims: [] };
  cyclic.self = cyclic;
  assertThrowsCode(() => validateEvidence(source, cyclic, null), 'VALIDATION_ERROR');
  assertThrowsCode(() => validateEvidence(source, { claims: [claim({ quote: 10n })] }, null), 'VALIDATION_ERROR');
});

test('the module keeps working after errors', () => {
  for (let i = 0; i < 20; i++) {
    assertThrowsCode(() => validateEvidence(source, { claims: [claim({ id: 'bad' })] }, null), 'VALIDATION_ERROR');
  }
  const report = validateEvidence(source, { claims: [claim()] }, null);
  assert.equal(report.ok, true);
  assert.equal(report.validated_claims[0].validation_status, 'VALIDATED');
});
