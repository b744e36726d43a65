// Replays tests/cases/validate_evidence.json (the cases the Rust tests replay
// natively and in wasm) through the JS API: `validateEvidence` and
// `new Document(source).validate(claims)`. Every reported span must point at
// its text in UTF-16, code points and UTF-8 bytes.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Document, validateEvidence } from 'evidence-validator';
import { KNOWN_ISSUES, assertSpan, cases, check, reportedSpans } from './helpers.mjs';

const all = cases();

test('the case file has cases', () => {
  assert.ok(all.length >= 4, `only ${all.length} cases`);
});

const entries = [
  ['validateEvidence', (c) => validateEvidence(c.source, c.claims, c.config ?? null)],
  ['Document.validate', (c) => {
    const doc = new Document(c.source, c.claims?.source_metadata?.format ? { format: c.claims.source_metadata.format } : null);
    try {
      return doc.validate(c.claims, c.config ?? null);
    } finally {
      doc.free();
    }
  }],
];

for (const [entry, run] of entries) {
  describe(`case file through ${entry}`, () => {
    for (const c of all) {
      const todo = KNOWN_ISSUES.get(c.name);
      test(c.name, todo ? { todo } : {}, () => {
        const report = run(c);
        const failures = (c.expect ?? []).map((e) => check(report, e)).filter(Boolean);
        assert.deepEqual(failures, [], failures.join('\n'));
        for (const { where, m, text } of reportedSpans(report)) assertSpan(c.source, m, text, `[${c.name}] ${where}`);
      });
    }
  });
}

test('validateEvidence and Document.validate give the same report on every case', () => {
  for (const c of all) {
    const a = validateEvidence(c.source, c.claims, c.config ?? null);
    const b = entries[1][1](c);
    // Only the timestamp may differ.
    a.generated.timestamp = b.generated.timestamp = '';
    assert.deepEqual(b, a, c.name);
  }
});
