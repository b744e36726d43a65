// Spec 000 §2.1 `source_metadata.encoding` from JS (issue 15): a source
// passed as bytes (a Uint8Array) is decoded as the claims declare it, and
// the report is the one the same text gives as a string.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateEvidence, validateEvidenceAsync } from 'evidence-validator';
import { assertThrowsCode } from './helpers.mjs';

const text = '# Café menu\n\nThe crème brûlée costs 7 € — naïve pricing, said the chef.\n';
const claims = (encoding) => ({
  source_metadata: { encoding },
  claims: [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: 'The crème brûlée costs 7 €' }],
});

// windows-1252 by hand: Latin-1 for the accented letters, 0x80 for €, 0x97 for —
const cp1252 = Uint8Array.from([...text].map((c) => (c === '€' ? 0x80 : c === '—' ? 0x97 : c.codePointAt(0))));
const utf16le = (() => {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) { out[2 * i] = text.charCodeAt(i) & 0xff; out[2 * i + 1] = text.charCodeAt(i) >> 8; }
  return out;
})();
const withBom = (bytes, bom) => Uint8Array.from([...bom, ...bytes]);

test('bytes in a declared encoding give the report the text gives', async () => {
  const reference = validateEvidence(text, claims('utf-8'));
  const m = reference.validated_claims[0].match_details;
  assert.equal(reference.validated_claims[0].validation_status, 'VALIDATED');
  assert.equal(text.slice(m.utf16_start, m.utf16_end), m.matched_text);
  for (const [bytes, label] of [[cp1252, 'latin1'], [cp1252, 'windows-1252'], [utf16le, 'utf-16'], [withBom(utf16le, [0xff, 0xfe]), 'utf-8']]) {
    const r = validateEvidence(bytes, claims(label));
    assert.deepEqual(r.validated_claims, reference.validated_claims, label);
    assert.equal(r.generated.contentHash, reference.generated.contentHash, label);
  }
  const r = await validateEvidenceAsync(cp1252, claims('iso-8859-1'));
  assert.deepEqual(r.validated_claims, reference.validated_claims);
});

test('bytes that are not the declared encoding, or an unknown encoding, are typed errors', () => {
  const e = assertThrowsCode(() => validateEvidence(cp1252, { claims: claims('x').claims }), 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.byte_offset, 5);
  const u = assertThrowsCode(() => validateEvidence(cp1252, claims('shift_jis')), 'VALIDATION_ERROR');
  assert.equal(u.details.json_path, '$.source_metadata.encoding');
});
