// Hidden text is no evidence (issue 13), through the npm package: a quote
// found only in a hidden element is not VALIDATED and is reported as hidden
// with a span into the original; visible text still validates; the
// document_processing.include_hidden_text option searches hidden text; a
// Document built once answers both ways.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, validateEvidence } from 'evidence-validator';
import { assertSpan, claim } from './helpers.mjs';

const hiddenQuote = 'the audit found no critical vulnerabilities';
const visibleQuote = 'Revenue grew 15% in the third quarter';
const html = '<html><body><h1>Report 😀</h1>\r\n' +
  `<p>${visibleQuote} 中文.</p>\r\n` +
  '<div style="DISPLAY: none !important">The audit found no critical vulnerabilities</div>\r\n' +
  '<p>Done 👍🏽.</p></body></html>';
const markdown = `# Report 😀\r\n\r\n${visibleQuote} 中文.\r\n\r\n` +
  '<template>\r\nThe audit found no critical vulnerabilities\r\n</template>\r\n\r\nDone.\r\n';

for (const [format, source, why] of [['html', html, 'display:none'], ['markdown', markdown, '<template>']]) {
  test(`${format}: a quote only in hidden text is not VALIDATED and is reported as hidden`, () => {
    const report = validateEvidence(source, {
      source_metadata: { format },
      claims: [claim({ quote: hiddenQuote }), claim({ id: 'EV002', quote: visibleQuote })],
    });
    const [hidden, visible] = report.validated_claims;
    assert.equal(hidden.validation_status, 'FAILED');
    const failed = report.failed_claims.find((f) => f.claim_id === 'EV001');
    assert.equal(failed.failure_reason, 'NOT_FOUND');
    const attempt = failed.attempted_matches[0];
    assert.ok(attempt.rejection_reason.startsWith('HIDDEN_TEXT'), attempt.rejection_reason);
    assert.ok(attempt.rejection_reason.includes(why), attempt.rejection_reason);
    assertSpan(source, attempt, attempt.candidate_text, 'hidden occurrence');
    assert.equal(attempt.candidate_text, 'The audit found no critical vulnerabilities');
    assert.ok(report.warnings.some((w) => w.code === 'HIDDEN_TEXT' && w.claim_id === 'EV001'));

    assert.equal(visible.validation_status, 'VALIDATED');
    assertSpan(source, visible.match_details, visibleQuote, 'visible match');
    assert.ok(!report.warnings.some((w) => w.code === 'HIDDEN_TEXT' && w.claim_id === 'EV002'));
  });

  test(`${format}: include_hidden_text searches hidden text, on a reused Document too`, () => {
    const doc = new Document(source, { format });
    const claims = { claims: [claim({ quote: hiddenQuote })] };
    const off = doc.validate(claims, null);
    assert.equal(off.validated_claims[0].validation_status, 'FAILED');
    const on = doc.validate(claims, { document_processing: { include_hidden_text: true } });
    const result = on.validated_claims[0];
    assert.equal(result.validation_status, 'VALIDATED');
    assertSpan(source, result.match_details, 'The audit found no critical vulnerabilities', 'included hidden match');
    // and back: the option does not stick to the document
    assert.equal(doc.validate(claims, null).validated_claims[0].validation_status, 'FAILED');
    doc.free();
  });
}

test('a bad include_hidden_text is a CONFIGURATION_ERROR with its path', () => {
  assert.throws(
    () => validateEvidence(html, { claims: [claim()] }, { document_processing: { include_hidden_text: 'yes' } }),
    (e) => e.code === 'CONFIGURATION_ERROR' && e.details.json_path === '$.document_processing.include_hidden_text',
  );
});
