// From a transcript and its validations to what the view draws. Pure
// functions (no DOM), so tests/browser/transcript.test.mjs can run them in
// Node too.
//
// Everything is in UTF-16 offsets into `transcript.text` (the library's
// `span.utf16_start`/`utf16_end`), so slicing the text at them gives exactly
// what the library matched. The text is cut into rows, one per segment (a
// Whisper segment, a subtitle cue): row i runs from segment i's start to
// segment i+1's start, the first from 0 and the last to the end, so the rows
// tile the whole text (the separators stay in the row before them). Each row
// is cut again at every word boundary and every highlight boundary into
// pieces; a piece knows its word (when the transcript has words) and every
// highlight covering it.

/**
 * @typedef {object} Highlight
 * @property {string} key        the item's key (`c0`, `r1`, `i2`)
 * @property {'match'|'partial'} role  the chosen occurrence, or the longest partial run of a quote not found
 * @property {boolean} passed    the item passed every check
 * @property {number} start      UTF-16 offset
 * @property {number} end        UTF-16 offset (exclusive)
 * @property {string} text       the library's text at the span
 */

/** The highlights of validated items: `[{ key, validation }]` → Highlight[]. */
export function collectHighlights(entries) {
  const out = [];
  for (const { key, validation: v } of entries) {
    if (!v) continue;
    if (v.matched) {
      out.push({ key, role: 'match', passed: v.passed, start: v.matched.span.utf16_start, end: v.matched.span.utf16_end, text: v.matched.text });
    } else if (v.longest_partial_match) {
      const p = v.longest_partial_match;
      out.push({ key, role: 'partial', passed: false, start: p.span.utf16_start, end: p.span.utf16_end, text: p.text });
    }
  }
  return out.filter((x) => Number.isInteger(x.start) && Number.isInteger(x.end) && x.end > x.start);
}

/** Row boundaries: `[{ start, end, segment }]` tiling [0, length). */
export function rowRanges(length, segments) {
  const starts = segments.map((s) => s.span.utf16_start);
  const ordered = starts.every((s, i) => Number.isInteger(s) && s >= 0 && s <= length && (i === 0 || s >= starts[i - 1]));
  if (segments.length === 0 || !ordered) return [{ start: 0, end: length, segment: null }];
  return segments.map((_, i) => ({
    start: i === 0 ? 0 : starts[i],
    end: i + 1 < segments.length ? starts[i + 1] : length,
    segment: i,
  }));
}

/**
 * The rows to draw.
 * @param {string} text
 * @param {Array<{ span: { utf16_start: number, utf16_end: number } }>} segments
 * @param {Array<{ span: { utf16_start: number, utf16_end: number } }>} words
 * @param {Highlight[]} highlights
 * @returns {Array<{ start: number, end: number, segment: number|null,
 *   pieces: Array<{ start: number, end: number, word: number|null, wordStart: boolean, highlights: Highlight[] }> }>}
 */
export function layoutRows(text, segments, words, highlights) {
  return [...eachRow(text, segments, words, highlights)];
}

/**
 * layoutRows's rows one at a time (view.js draws them a slice at a time).
 * Each row looks only at its own words (found by binary search: the words
 * do not overlap, so sorted by start they are sorted by end too) and the
 * highlights over it: a one-hour transcript (ten thousand words, seven
 * hundred segments) is laid out in a few milliseconds.
 */
export function* eachRow(text, segments, words, highlights) {
  const length = text.length;
  const clamp = (n) => Math.max(0, Math.min(length, n));
  const ws = words
    .map((w, i) => ({ i, start: clamp(w.span.utf16_start), end: clamp(w.span.utf16_end) }))
    .filter((w) => w.end > w.start)
    .sort((a, b) => a.start - b.start);
  const hs = highlights.map((h, order) => ({ h, order, start: clamp(h.start), end: clamp(h.end) })).filter((x) => x.end > x.start);

  /** The index of the first word ending after `a`. */
  function firstWordAfter(a) {
    let lo = 0;
    let hi = ws.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ws[mid].end <= a) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  for (const row of rowRanges(length, segments)) {
    const cuts = new Set([row.start, row.end]);
    const inside = (n) => n > row.start && n < row.end;
    const own = [];
    for (let k = firstWordAfter(row.start); k < ws.length && ws[k].start < row.end; k++) {
      const w = ws[k];
      own.push(w);
      if (inside(w.start)) cuts.add(w.start);
      if (inside(w.end)) cuts.add(w.end);
    }
    const over = hs.filter((x) => x.start < row.end && x.end > row.start);
    for (const x of over) {
      if (inside(x.start)) cuts.add(x.start);
      if (inside(x.end)) cuts.add(x.end);
    }
    const points = [...cuts].sort((a, b) => a - b);
    const pieces = [];
    let k = 0; // the first of the row's words not ending before the piece
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i], points[i + 1]];
      if (b <= a) continue;
      while (k < own.length && own[k].end <= a) k++;
      const w = k < own.length && own[k].start <= a && own[k].end >= b ? own[k] : null;
      pieces.push({
        start: a,
        end: b,
        word: w ? w.i : null,
        wordStart: w ? w.start === a : false,
        highlights: over.filter((x) => x.start <= a && x.end >= b).sort((x, y) => x.order - y.order).map((x) => x.h),
      });
    }
    yield { ...row, pieces };
  }
}

/** The highlight that colours a piece: a chosen occurrence before a partial run, then the shortest. */
export function primaryHighlight(list) {
  let best = null;
  for (const x of list) {
    if (best === null) { best = x; continue; }
    const byRole = (x.role === 'match' ? 0 : 1) - (best.role === 'match' ? 0 : 1);
    if (byRole < 0 || (byRole === 0 && x.end - x.start < best.end - best.start)) best = x;
  }
  return best;
}

/** `83.4` → `1:23.4`; null → `–`. */
export function clock(seconds, digits = 1) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const scale = 10 ** digits;
  const total = Math.round(seconds * scale) / scale; // 59.96 → 60.0 → 1:00.0, not 0:60.0
  const m = Math.floor(total / 60);
  const s = total - m * 60;
  return `${m}:${s < 10 ? '0' : ''}${s.toFixed(digits)}`;
}
