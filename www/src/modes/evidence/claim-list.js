// The claim list under the highlighted source: one entry per claim of the
// report (its status, quote, match and, for a failed claim, the reason,
// suggestions and nearest candidates), each button focusing its span in the
// source; then the warnings and errors that name no claim.
//
// Span keys are the ones `collectSpans` (spans.js) gives the marks:
// `c<i>.m` the claim's match, `c<i>.c<j>` a rejected candidate, `c<i>.a<j>`
// another place of an ambiguous quote.

import { h, replaceChildren } from '../../dom.js';
import { clip } from '../../widgets.js';
import { failuresByClaim, STATUS_LABEL } from './spans.js';

/**
 * Fills `claimList` and `warningList` from `rep` (null: empties them).
 * `quoteOf(i)` is claim i's quote as the user gave it; `focusSpan(key)`
 * shows a span; `setStatus(text)` says why a claim has none.
 */
export function renderClaimList(claimList, warningList, rep, { quoteOf, focusSpan, setStatus }) {
  if (!rep) {
    replaceChildren(claimList);
    warningList.hidden = true;
    return;
  }
  const failures = failuresByClaim(rep);
  const items = rep.validated_claims.map((r, i) => {
    const cls = r.validation_status.toLowerCase().replace('_', '-');
    const details = [
      ...failureDetails(r, failures[i], i, focusSpan),
      ...alternativeDetails(r, i, focusSpan),
      ...rep.warnings.filter((w) => w.claim_id === r.claim_id).map((w) => h('p', { class: 'claim-warning' }, `${w.code}: ${w.message}`)),
    ];
    return h('li', { class: `claim claim-${cls}`, dataset: { claim: r.claim_id, index: String(i) } },
      claimButton(r, i, cls, quoteOf(i), { focusSpan, setStatus }),
      details.length ? h('div', { class: 'claim-details' }, details) : null);
  });
  replaceChildren(claimList, items);
  const general = rep.warnings.filter((w) => !w.claim_id).concat(rep.errors.map((e) => ({ code: e.code, message: e.message })));
  replaceChildren(warningList, general.map((w) => h('li', {}, `${w.code}: ${w.message}`)));
  warningList.hidden = general.length === 0;
}

/** The claim's own line: badge, id, quote, match type, confidence, edit distance, line. */
function claimButton(r, i, cls, quote, { focusSpan, setStatus }) {
  const status = r.validation_status;
  const m = r.match_details;
  const key = `c${i}.m`;
  const meta = m
    ? [`${m.match_type}`, `confidence ${r.confidence_score.toFixed(2)}`,
      typeof m.edit_distance === 'number' ? `edit distance ${m.edit_distance}` : null, `line ${m.line_number}`]
    : [`confidence ${r.confidence_score.toFixed(2)}`, 'not found in the source'];
  return h('button', {
    type: 'button', class: 'claim-button', dataset: { span: key, claim: r.claim_id },
    'aria-disabled': m ? null : 'true',
    onclick: () => (m ? focusSpan(key) : setStatus(`${r.claim_id} has no span in the source`)),
  },
  h('span', { class: `badge badge-${cls}` }, STATUS_LABEL[status] ?? status),
  h('span', { class: 'claim-id' }, r.claim_id),
  h('span', { class: 'claim-quote' }, quote ? `“${quote}”` : ''),
  h('span', { class: 'claim-meta' }, meta.filter(Boolean).join(' · ')));
}

/** A failed claim's reason, suggestions and nearest candidates (one of them may be its own match). */
function failureDetails(r, f, i, focusSpan) {
  if (!f) return [];
  const m = r.match_details;
  const out = [h('p', { class: 'failure-reason' }, h('strong', {}, 'Reason: '), f.failure_reason.toLowerCase().replaceAll('_', ' '))];
  if (f.suggestions.length) out.push(h('ul', { class: 'suggestions' }, f.suggestions.map((s) => h('li', {}, s))));
  if (f.attempted_matches.length) {
    out.push(h('p', { class: 'candidates-title' }, 'Nearest candidates:'));
    out.push(h('ul', { class: 'candidates' }, f.attempted_matches.map((a, j) => {
      const own = m && a.utf16_start === m.utf16_start && a.utf16_end === m.utf16_end;
      const key = own ? `c${i}.m` : `c${i}.c${j}`;
      return h('li', {},
        spanButton(key, `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.candidate_text, 90)}”`, focusSpan),
        h('span', { class: 'rejection' }, ` ${a.rejection_reason}`));
    })));
  }
  return out;
}

/** An ambiguous claim's other places. */
function alternativeDetails(r, i, focusSpan) {
  if (!r.alternative_matches.length) return [];
  return [
    h('p', { class: 'candidates-title' }, 'Other places:'),
    h('ul', { class: 'candidates' }, r.alternative_matches.map((a, j) =>
      h('li', {}, spanButton(`c${i}.a${j}`, `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.matched_text, 90)}”`, focusSpan)))),
  ];
}

function spanButton(key, text, focusSpan) {
  return h('button', { type: 'button', class: 'candidate-button', dataset: { span: key }, onclick: () => focusSpan(key) }, text);
}
