// From a validation report to highlight segments. Pure functions (no DOM), so
// tests/browser/spans.test.mjs runs them in Node.
//
// A span is one place in the source a report points at, in UTF-16 code units
// (JS string indices), straight from the library's `utf16_start`/`utf16_end`:
//   - role `match`: a claim's `match_details` (coloured by the claim's status),
//   - role `alternative`: its `alternative_matches` (the other places of an
//     AMBIGUOUS claim),
//   - role `candidate`: the `attempted_matches` of a claim in `failed_claims`
//     (nearest candidates the library rejected), unless it is the claim's own
//     match.
// Spans may overlap (a semantic match over a paragraph holds other quotes), so
// the text is cut at every span boundary into segments, each carrying every
// span that covers it.

/** @typedef {'VALIDATED'|'LOW_CONFIDENCE'|'AMBIGUOUS'|'FAILED'} Status */

/**
 * @typedef {object} Span
 * @property {string} key          unique: `c<claim index>.m`, `.a<i>`, `.c<i>`
 * @property {number} claim        index of the claim in `validated_claims`
 * @property {string} claimId
 * @property {'match'|'alternative'|'candidate'} role
 * @property {Status} status       the claim's status
 * @property {number} start        UTF-16 offset
 * @property {number} end          UTF-16 offset (exclusive)
 * @property {string} text         matched_text / candidate_text
 * @property {number} confidence
 * @property {string=} matchType
 * @property {number=} editDistance
 * @property {number=} similarity
 * @property {string=} reason      why a candidate was rejected
 * @property {number=} line
 * @property {string=} section
 * @property {object[]=} edits     the match's word-level differences that are not
 *                                 cosmetic (typos and substitutions), from
 *                                 `match_details.edits`
 */

const ROLE_RANK = { match: 0, alternative: 1, candidate: 2 };

/**
 * The failed_claims entry of each claim, by index in validated_claims. Claim
 * ids may repeat (the library warns DUPLICATE_CLAIM_ID), so the n-th failed
 * entry of an id goes with the n-th non-VALIDATED result of that id. A null
 * entry of validated_claims (a claim with an input error, or not checked, in
 * the web UI's merged report) has none.
 * @returns {Array<object|undefined>}
 */
export function failuresByClaim(report) {
  const queues = new Map();
  for (const f of report.failed_claims ?? []) {
    if (!queues.has(f.claim_id)) queues.set(f.claim_id, []);
    queues.get(f.claim_id).push(f);
  }
  return (report.validated_claims ?? []).map((r) =>
    !r || r.validation_status === 'VALIDATED' ? undefined : queues.get(r.claim_id)?.shift());
}

/** Every span of a report (see the file comment), in report order; null claims have none. */
export function collectSpans(report) {
  const failures = failuresByClaim(report);
  return (report.validated_claims ?? []).flatMap((r, claim) => (r ? claimSpans(r, failures[claim], claim) : []));
}

/**
 * The spans of one claim (see the file comment): `r` its ClaimResult,
 * `failure` its failed_claims entry (undefined: none), `claim` its index in
 * validated_claims (the keys' number). The web UI calls it claim by claim,
 * between pauses, with each claim's own failure entry.
 * @returns {Span[]}
 */
export function claimSpans(r, failure, claim) {
  /** @type {Span[]} */
  const spans = [];
  const m = r.match_details;
  if (m) {
    spans.push({
      claim, claimId: r.claim_id, status: r.validation_status, key: `c${claim}.m`, role: 'match', start: m.utf16_start, end: m.utf16_end, text: m.matched_text,
      confidence: m.confidence_score, matchType: m.match_type, editDistance: m.edit_distance,
      similarity: m.similarity_score, line: m.line_number, section: m.section,
      edits: (m.edits ?? []).filter((e) => e.kind !== 'cosmetic'),
    });
  }
  (r.alternative_matches ?? []).forEach((a, i) => {
    spans.push({
      claim, claimId: r.claim_id, status: r.validation_status, key: `c${claim}.a${i}`, role: 'alternative', start: a.utf16_start, end: a.utf16_end,
      text: a.matched_text, confidence: a.confidence_score, matchType: a.match_type, line: a.line_number,
      section: a.section,
    });
  });
  (failure?.attempted_matches ?? []).forEach((a, i) => {
    if (m && a.utf16_start === m.utf16_start && a.utf16_end === m.utf16_end) return; // the match itself
    spans.push({
      claim, claimId: r.claim_id, status: r.validation_status, key: `c${claim}.c${i}`, role: 'candidate', start: a.utf16_start, end: a.utf16_end,
      text: a.candidate_text, confidence: a.confidence_score, reason: a.rejection_reason, line: a.line_number,
      section: a.section,
    });
  });
  return spans.filter((s) => Number.isInteger(s.start) && Number.isInteger(s.end) && s.end > s.start);
}

/**
 * The span that colours a segment: matches before alternatives before
 * candidates, then the shortest (the most specific: a quote inside a
 * paragraph-long semantic match shows as itself), then report order.
 */
export function primarySpan(spans) {
  let best = null;
  for (const s of spans) {
    if (best === null) { best = s; continue; }
    const byRole = ROLE_RANK[s.role] - ROLE_RANK[best.role];
    const byLength = (s.end - s.start) - (best.end - best.start);
    if (byRole < 0 || (byRole === 0 && byLength < 0)) best = s;
  }
  return best;
}

/**
 * Cuts [0, length) at every span boundary. Returns the segments in order,
 * covering the whole text without gaps: `{ start, end, spans }`, where `spans`
 * (in report order) is empty for plain text. Spans are clamped to the text.
 * @param {number} length
 * @param {Span[]} spans
 */
export function segment(length, spans) {
  const steps = segmentSteps(length, spans);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `segment`, a step at a time between the caller's pauses (`pause()` from
 * timeSlicer; resolves to null when it says stop): a thousand claims' spans
 * are cut in slices of the page's main thread.
 * @returns {Promise<Array<{ start: number, end: number, spans: Span[] }>|null>}
 */
export async function segmentSliced(length, spans, pause) {
  const steps = segmentSteps(length, spans);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (!(await pause())) return null;
  }
}

/** Cut points handled between two yields of segmentSteps. */
const SEGMENT_STEP = 64;

/** `segment`'s work as a generator: it yields (nothing) every SEGMENT_STEP cut points and returns the segments. */
function* segmentSteps(length, spans) {
  const clamp = (n) => Math.max(0, Math.min(length, n));
  const live = spans.map((s, order) => ({ s, order, start: clamp(s.start), end: clamp(s.end) }))
    .filter((x) => x.end > x.start);
  const cuts = new Set([0, length]);
  for (const x of live) { cuts.add(x.start); cuts.add(x.end); }
  const points = [...cuts].sort((a, b) => a - b);
  const byStart = [...live].sort((a, b) => a.start - b.start || a.order - b.order);
  const out = [];
  let active = [];
  let next = 0;
  yield;
  for (let i = 0; i + 1 < points.length; i++) {
    if (i % SEGMENT_STEP === SEGMENT_STEP - 1) yield;
    const [a, b] = [points[i], points[i + 1]];
    active = active.filter((x) => x.end > a);
    while (next < byStart.length && byStart[next].start <= a) active.push(byStart[next++]);
    const covering = active.filter((x) => x.start <= a && x.end >= b).sort((x, y) => x.order - y.order).map((x) => x.s);
    out.push({ start: a, end: b, spans: covering });
  }
  // Two plain neighbours cannot arise from the cuts above; merged anyway, as
  // a guard, so plain text is always one text node between marks.
  const merged = [];
  for (const seg of out) {
    const prev = merged.at(-1);
    if (prev && prev.spans.length === 0 && seg.spans.length === 0) prev.end = seg.end;
    else merged.push(seg);
  }
  return merged;
}

/** A short human label for a status. */
export const STATUS_LABEL = {
  VALIDATED: 'validated',
  LOW_CONFIDENCE: 'low confidence',
  AMBIGUOUS: 'ambiguous',
  FAILED: 'failed',
};

/** One line describing a span, for the tooltip and screen readers. */
/** One word-level difference in words: `quote has 'her', source has 'his' (word)`. */
export function describeEdit(e) {
  const what = e.kind === 'typo' ? 'typo' : `${e.change ?? 'word'} changed`;
  return `quote has '${e.quote}', source has '${e.source}' (${what}${e.reason && e.kind !== 'typo' ? `: ${e.reason}` : ''})`;
}

export function describeSpan(s) {
  const parts = [`${s.claimId}`, STATUS_LABEL[s.status] ?? s.status, `confidence ${s.confidence.toFixed(2)}`];
  if (s.role === 'match') {
    if (s.matchType) parts.push(`${s.matchType} match`);
    if (typeof s.editDistance === 'number' && s.editDistance >= 0) parts.push(`edit distance ${s.editDistance}`);
    for (const e of s.edits ?? []) parts.push(describeEdit(e));
  } else if (s.role === 'alternative') {
    parts.push(`another place of this ambiguous quote${s.matchType ? ` (${s.matchType})` : ''}`);
  } else {
    parts.push(`rejected candidate: ${s.reason ?? 'not accepted'}`);
  }
  return parts.join(' · ');
}
