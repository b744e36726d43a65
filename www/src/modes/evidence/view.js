// The highlighted source and its tooltip.
//
// The source is shown as it is (markdown and HTML as their text, since the
// library's offsets point into the original), built from text nodes and
// <mark> elements, never innerHTML: each segment (spans.js) is a slice of the
// source string at the library's UTF-16 offsets, so a mark holds exactly the
// characters the library matched, emoji and CJK included.

import { h, markOf } from '../../dom.js';
import { describeEdit, describeSpan, primarySpan } from './spans.js';

/** A chunk of the source view holds about this many UTF-16 units (cut after a line end when one is near). */
export const CHUNK_UNITS = 2048;

/**
 * Where the source view's chunks end: after the first line end at or past
 * each CHUNK_UNITS, or, on a line longer than twice that, after a space (or
 * anywhere not inside a surrogate pair). Chunks are blocks the browser lays
 * out only when they are near the screen (`content-visibility: auto`), so a
 * megabyte of source costs the page what one screen of it costs.
 * @returns {number[]} increasing ends, the last one `source.length`
 */
export function chunkEnds(source) {
  const ends = [];
  let at = 0;
  while (source.length - at > CHUNK_UNITS) {
    let end = source.indexOf('\n', at + CHUNK_UNITS) + 1;
    if (end === 0 || end - at > 2 * CHUNK_UNITS) {
      end = at + 2 * CHUNK_UNITS;
      const space = source.lastIndexOf(' ', end - 1);
      if (space > at + CHUNK_UNITS) end = space + 1;
      else if (/[\uDC00-\uDFFF]/.test(source[end] ?? '')) end -= 1;
    }
    ends.push(end);
    at = end;
  }
  ends.push(source.length);
  return ends;
}

/**
 * The highlighted source view of `pre`: `render(source, segments, pause)`
 * fills it with the source and its marks, rebuilding only the chunks whose
 * marks changed when the source is the same as last time, a chunk at a time
 * (`pause()` from timeSlicer between chunks; when it says stop, the render
 * stops and resolves to null).
 * @returns {{ render(source: string, segments: object[], pause: () => Promise<boolean>): Promise<Map<string, HTMLElement[]>|null>, reset(): void }}
 *   `render` resolves to the marks of each span key, in order.
 */
export function sourceRenderer(pre, tooltipId) {
  let last = { source: null, chunks: [] };

  async function render(source, segments, pause) {
    const ends = chunkEnds(source);
    const sameSource = last.source === source;
    if (!sameSource) pre.replaceChildren();
    const chunks = [];
    let seg = 0;
    let start = 0;
    for (const [n, end] of ends.entries()) {
      const pieces = [];
      while (seg < segments.length && segments[seg].start < end) {
        const s = segments[seg];
        pieces.push({ start: Math.max(s.start, start), end: Math.min(s.end, end), spans: s.spans });
        if (s.end <= end) seg++;
        else break;
      }
      const signature = pieces.map(signatureOf).join('|');
      const old = sameSource ? last.chunks[n] : undefined;
      let chunk = old;
      if (!old || old.signature !== signature) {
        chunk = { signature, ...buildChunk(source, pieces, tooltipId) };
        if (old) old.element.replaceWith(chunk.element);
        else pre.append(chunk.element);
      }
      chunks.push(chunk);
      start = end;
      if (!(await pause())) {
        last = { source: null, chunks: [] }; // half drawn: the next render starts afresh
        return null;
      }
    }
    for (const c of last.chunks.slice(chunks.length)) if (sameSource) c.element.remove();
    last = { source, chunks };
    const marks = new Map();
    for (const c of chunks) {
      for (const [key, list] of c.marks) {
        if (!marks.has(key)) marks.set(key, []);
        marks.get(key).push(...list);
      }
    }
    return marks;
  }

  /** Forgets what was rendered (the caller replaced `pre`'s children). */
  function reset() {
    last = { source: null, chunks: [] };
  }
  return { render, reset };
}

/** What a segment's marks depend on: its bounds, and its spans' keys, status, role and edits. */
function signatureOf(p) {
  return `${p.start}-${p.end}:${p.spans.map((s) => `${s.key}/${s.status}/${s.role}/${s.edits?.length ? JSON.stringify(s.edits) : ''}`).join(',')}`;
}

/** One chunk: a block holding its slice of the source, marks where spans are. */
function buildChunk(source, pieces, tooltipId) {
  const marks = new Map();
  const element = document.createElement('span');
  element.className = 'src-chunk';
  for (const seg of pieces) {
    const text = source.slice(seg.start, seg.end);
    if (seg.spans.length === 0) {
      element.append(document.createTextNode(text));
      continue;
    }
    const top = primarySpan(seg.spans);
    const mark = document.createElement('mark');
    const edits = seg.spans.find((s) => s.role === 'match' && s.edits?.length)?.edits ?? [];
    if (edits.length) appendWithEdits(mark, source, seg.start, seg.end, edits);
    else mark.append(document.createTextNode(text));
    mark.className = `hl hl-${top.status.toLowerCase().replace('_', '-')} hl-${top.role}`;
    if (seg.spans.length > 1) mark.classList.add('hl-overlap');
    mark.tabIndex = 0;
    mark.dataset.spans = seg.spans.map((s) => s.key).join(' ');
    mark.dataset.claims = [...new Set(seg.spans.map((s) => s.claimId))].join(' ');
    mark.dataset.status = top.status;
    mark.dataset.role = top.role;
    mark.setAttribute('aria-describedby', tooltipId);
    for (const s of seg.spans) {
      if (!marks.has(s.key)) marks.set(s.key, []);
      marks.get(s.key).push(mark);
    }
    element.append(mark);
  }
  return { element, marks };
}

/**
 * The source text `start..end` into `parent`, with the quote's differences
 * shown in place (issue 12): a substituted source word is struck through
 * (<del>) and followed by what the quote has instead (an empty <ins> whose
 * `data-quote` CSS shows, so the viewer's text stays exactly the source); a
 * typo is underlined with the quoted spelling in its title; words the quote
 * adds are an <ins> at their point. Only text nodes are created.
 */
export function appendWithEdits(parent, source, start, end, edits) {
  let at = start;
  const sorted = [...edits].sort((a, b) => a.utf16_start - b.utf16_start || a.utf16_end - b.utf16_end);
  for (const e of sorted) {
    const s = Math.max(e.utf16_start, start);
    const t = Math.min(e.utf16_end, end);
    const point = e.utf16_start === e.utf16_end;
    if (point ? (e.utf16_start < start || e.utf16_start >= end) : t <= s) continue;
    if (s > at) parent.append(document.createTextNode(source.slice(at, s)));
    const title = describeEdit(e);
    if (!point) {
      const el = document.createElement(e.kind === 'typo' ? 'span' : 'del');
      el.className = e.kind === 'typo' ? 'edit-typo' : `edit-del edit-${e.change ?? 'word'}`;
      el.title = title;
      el.append(document.createTextNode(source.slice(s, t)));
      parent.append(el);
      at = t;
    }
    // the quote's words once, where the edit ends (or at its point)
    if (e.kind !== 'typo' && (point || e.utf16_end <= end) && e.quote) {
      const ins = document.createElement('ins');
      ins.className = `edit-ins edit-${e.change ?? 'word'}`;
      ins.title = title;
      // shown by CSS (`content: attr(data-quote)`): the viewer's text stays
      // exactly the source
      ins.dataset.quote = e.quote;
      ins.setAttribute('aria-label', `quote has: ${e.quote}`);
      ins.setAttribute('role', 'note');
      parent.append(ins);
    }
  }
  if (at < end) parent.append(document.createTextNode(source.slice(at, end)));
}

/**
 * One tooltip for every mark: shown on hover and on keyboard focus, hidden on
 * leave, blur and Escape. It is the marks' aria-describedby, so a screen
 * reader reads the claim, status, confidence, match type and edit distance
 * when a mark gets focus. `spansOf(mark)` gives the spans of a mark.
 */
export function attachTooltip(container, tooltip, spansOf) {
  let owner = null;

  function show(mark) {
    const spans = spansOf(mark);
    if (!spans.length) return;
    owner = mark;
    tooltip.replaceChildren(...spans.map((s) => h('div', { class: `tip-line tip-${s.role}` }, describeSpan(s))));
    tooltip.hidden = false;
    place(mark);
  }

  function hide() {
    owner = null;
    tooltip.hidden = true;
  }

  function place(mark) {
    const r = mark.getClientRects()[0] ?? mark.getBoundingClientRect();
    const tip = tooltip.getBoundingClientRect();
    const margin = 8;
    let top = r.bottom + 6;
    if (top + tip.height > window.innerHeight - margin) top = Math.max(margin, r.top - tip.height - 6);
    const left = Math.min(Math.max(margin, r.left), Math.max(margin, window.innerWidth - tip.width - margin));
    tooltip.style.top = `${Math.round(top)}px`;
    tooltip.style.left = `${Math.round(left)}px`;
  }

  // Where the pointer last really moved: a mark scrolled under a pointer that
  // did not move (a claim's span brought into view) does not take the tooltip
  // from the focused mark, nor bring back one dismissed with Escape.
  let pointer = null;
  let dismissedAt = null;
  document.addEventListener('mousemove', (e) => { pointer = `${e.clientX},${e.clientY}`; }, { passive: true });
  container.addEventListener('mouseover', (e) => {
    const m = markOf(e);
    if (!m || m === owner) return;
    const still = pointer === `${e.clientX},${e.clientY}`;
    if (still && ((owner && document.activeElement === owner) || dismissedAt === pointer)) return;
    show(m);
  });
  container.addEventListener('mouseout', (e) => {
    const m = markOf(e);
    if (m && m === owner && !m.contains(e.relatedTarget) && document.activeElement !== m) hide();
  });
  container.addEventListener('focusin', (e) => { const m = markOf(e); if (m) show(m); });
  container.addEventListener('focusout', (e) => { if (markOf(e) === owner) hide(); });
  container.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !owner) return;
    hide();
    dismissedAt = pointer;
    e.stopPropagation();
  });
  // Any scroll (the viewer's, the page's) moves the mark: follow it.
  document.addEventListener('scroll', () => { if (owner) place(owner); }, { capture: true, passive: true });
  window.addEventListener('resize', () => { if (owner) place(owner); });
  return { show, hide, get owner() { return owner; } };
}
