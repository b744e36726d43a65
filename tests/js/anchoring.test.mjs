// Issue 18 in JS: ellipsis quotes, selectors in code points against UTF-16
// offsets, text fragments, and Document.reanchor. Offsets expected here are
// computed from the test's own strings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, validateEvidence } from 'evidence-validator';

const claim = (quote, extra = {}) => ({ id: 'EV001', task_id: 'P1.T001', quote, evidence_type: 'direct_quote', ...extra });
const cp = (s, utf16) => [...s.slice(0, utf16)].length;

test('"is not permitted" quoted as "is ... permitted" is not VALIDATED, and says why', () => {
  const src = 'Remote work is not permitted on Fridays.';
  const r = validateEvidence(src, { claims: [claim('Remote work is ... permitted on Fridays')] }, null);
  const c = r.validated_claims[0];
  assert.equal(c.validation_status, 'LOW_CONFIDENCE');
  assert.deepEqual(c.match_details.discrepancies[0].source, ['not']);
  assert.match(r.failed_claims[0].attempted_matches[0].rejection_reason, /"not".*negation/);
});

test('selectors count code points, match_details UTF-16, after emoji', () => {
  const src = '😀👍🏽 中文 — the passage we want to quote here, and more.';
  const quote = 'the passage we want to quote here';
  const at = src.indexOf(quote);
  const d = validateEvidence(src, { claims: [claim(quote)] }, null).validated_claims[0].match_details;
  assert.equal(d.utf16_start, at);
  assert.deepEqual(d.selectors[1], { type: 'TextPositionSelector', start: cp(src, at), end: cp(src, at) + [...quote].length });
  assert.notEqual(cp(src, at), at);
  assert.equal(d.selectors[0].exact, src.slice(d.utf16_start, d.utf16_end));
});

test('text fragments percent-encode -, &, comma and space', () => {
  const src = 'Intro.\n\nThe state-of-the-art R&D budget, as planned, grew.\n\nEnd.';
  const d = validateEvidence(src, { claims: [claim('state-of-the-art R&D budget, as planned')] }, null).validated_claims[0].match_details;
  assert.equal(d.text_fragment, '#:~:text=state%2Dof%2Dthe%2Dart%20R%26D%20budget%2C%20as%20planned');
  assert.equal(decodeURIComponent(d.text_fragment.slice('#:~:text='.length)), 'state-of-the-art R&D budget, as planned');
});

test('Document.reanchor: unchanged, moved, changed, orphaned', () => {
  const original = 'First.\n\nThe quarterly report shows steady growth in sales.\n\nLast.';
  const quote = 'quarterly report shows steady growth';
  const d = validateEvidence(original, { claims: [claim(quote)] }, null).validated_claims[0].match_details;
  const saved = [{ id: 'a', selectors: d.selectors }];
  const run = (text) => new Document(text, null).reanchor(saved)[0];
  assert.equal(run(original).status, 'unchanged');
  const moved = `New 😀 opening.\n${original}`;
  const m = run(moved);
  assert.equal(m.status, 'moved');
  assert.equal(m.span.utf16_start, moved.indexOf(quote));
  assert.equal(moved.slice(m.span.utf16_start, m.span.utf16_end), quote);
  assert.equal(run(original.replace('shows steady', 'shows very steady')).status, 'changed');
  const gone = run(original.replace('The quarterly report shows steady growth in sales.', 'Nothing.'));
  assert.equal(gone.status, 'orphaned');
  assert.equal(gone.span, null);
  assert.throws(() => new Document('x y z', null).reanchor([{ id: 'a', selectors: [{ type: 'TextQuoteSelector', exact: 3 }] }]),
    (e) => e.code === 'VALIDATION_ERROR' && e.details.json_path === '$[0].selectors[0].exact');
});
