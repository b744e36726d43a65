// A report far larger than the 64 KB pieces in which the wasm build hands
// its JSON to JS (src/wasm/mod.rs `to_js`), written almost all in chars of
// three and four UTF-8 bytes, so that piece boundaries fall inside chars:
// every result must still be whole and every span must slice the source to
// its matched text, and the report must equal the CLI's (tests/js/
// determinism.test.mjs compares bytes; here the oracle is the source itself).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateEvidence } from 'evidence-validator';
import { claim } from './helpers.mjs';

test('a report of many 64 KB pieces of CJK and emoji text arrives whole, every span slicing to its text', () => {
  const lines = [];
  for (let i = 0; i < 400; i++) {
    // no line repeats: each holds its number in words of its own
    lines.push(`第${i}行：東京の天気は晴れ🌤️、気温は${(i * 7) % 40}度でした🎉。番号${i.toString(36)}の記録。`);
  }
  const source = lines.join('\n');
  const claims = lines.slice(0, 300).map((line, i) => claim({ id: `EV${String(i + 1).padStart(3, "0")}`, quote: line }));
  const report = validateEvidence(source, { claims });
  const json = JSON.stringify(report);
  assert.ok(Buffer.byteLength(json) > 4 * 64 * 1024, `the premise: a report of many pieces (${Buffer.byteLength(json)} bytes)`);
  assert.equal(report.validated_claims.length, 300);
  for (const [i, result] of report.validated_claims.entries()) {
    assert.equal(result.claim_id, `EV${String(i + 1).padStart(3, "0")}`);
    assert.equal(result.validation_status, 'VALIDATED', result.claim_id);
    const m = result.match_details;
    assert.equal(m.matched_text, lines[i]);
    assert.equal(source.slice(m.utf16_start, m.utf16_end), m.matched_text);
    assert.equal([...source].slice(m.start_position, m.end_position).join(''), m.matched_text);
    assert.equal(Buffer.from(source).subarray(m.byte_start, m.byte_end).toString(), m.matched_text);
  }
});
