// The highlighted source and its tooltip.
//
// The source is shown as it is (markdown and HTML as their text, since the
// library's offsets point into the original), built from text nodes and
// <mark> elements, never innerHTML: each segment (spans.js) is a slice of the
// source string at the library's UTF-16 offsets, so a mark holds exactly the
// characters the library matched, emoji and CJK included.

import { afterNextFrame, h, markOf } from '../../dom.js';
import { describeEdit, describeSpan, primarySpan } from './spans.js';

/** A chunk of the source view holds about this many UTF-16 units (cut after a line end when one is near). */
export const CHUNK_UNITS = 2048;

/**
 * Where the source view's chunks end: after the first line end at or past
 * each CHUNK_UNITS, or, on a line longer than twice that, after a space (or
 * anywhere not inside a surrogate pair). Chunks are blocks, drawn with their
 * marks only when they are near the screen (sourceRenderer), so a megabyte
 * of source costs the page about what one screen of it costs.
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

/** Beyond the viewer's visible height, chunks this near it (px) are drawn with their marks. */
const LIVE_MARGIN_PX = 1500;
/** A drawn chunk farther than this (px) goes back to plain, hidden text. */
const DROP_MARGIN_PX = 6000;
/** The most chunks drawn in one frame while scrolling (the rest in the next frames). */
const CHUNKS_PER_FRAME = 3;

/**
 * The highlighted source view of `pre`, in `viewer` (the box that scrolls):
 * `render(source, segments, pause)` fills it with the source, a chunk
 * (chunkEnds) at a time (`pause()` from timeSlicer between chunks; when it
 * says stop, the render stops and resolves to false). Only the chunks near
 * the viewer's visible window (LIVE_MARGIN_PX) are drawn, with their marks;
 * every other chunk holds its text as one text node, `hidden="until-found"`
 * (not laid out, its height estimated from its lines; the browser's find in
 * page still finds it, and a chunk found is drawn). Scrolling draws the
 * chunks that come near and drops those far away, a few per frame. When
 * the source is the same as last time, only the drawn chunks whose marks
 * changed are built again.
 *
 * `marksOf(span)` draws the chunks a span covers (should they not be) and
 * gives its marks, in order; `setCurrent(key)` outlines the marks of one span
 * key (null: none), also in chunks drawn later.
 * @returns {{ render(source: string, segments: object[], pause: () => Promise<boolean>): Promise<boolean>,
 *   marksOf(span: { key: string, start: number, end: number }): HTMLElement[], setCurrent(key: string|null): void, reset(): void }}
 */
export function sourceRenderer(pre, viewer, tooltipId) {
  /** The source shown, its chunk ends and its chunks: { element, start, end, pieces, signature, live, marks }. */
  let source = null;
  let ends = [];
  let chunks = [];
  let currentKey = null;
  let frame = 0;

  async function render(text, segments, pause) {
    const nextEnds = chunkEnds(text);
    // a megabyte scanned: metrics() below lays out the page, in a slice of its own
    if (!(await pause())) return false;
    const same = source === text;
    if (!same) {
      pre.replaceChildren();
      chunks = [];
    }
    source = null; // half drawn until the end
    const { cols, rowPx } = metrics();
    // a new chunk near the visible window (by the estimated heights above it) is drawn at once: no blank frame
    const windowTop = viewer.scrollTop - LIVE_MARGIN_PX;
    const windowBottom = viewer.scrollTop + viewer.clientHeight + LIVE_MARGIN_PX;
    let estimatedY = 0;
    let seg = 0;
    let start = 0;
    for (const [n, end] of nextEnds.entries()) {
      const pieces = [];
      while (seg < segments.length && segments[seg].start < end) {
        const s = segments[seg];
        pieces.push({ start: Math.max(s.start, start), end: Math.min(s.end, end), spans: s.spans });
        if (s.end <= end) seg++;
        else break;
      }
      const signature = pieces.map(signatureOf).join('|');
      let chunk = chunks[n];
      if (!chunk) {
        const element = document.createElement('span');
        element.className = 'src-chunk';
        element.dataset.start = String(start);
        element.addEventListener('beforematch', () => { if (!chunk.live) draw(chunk); });
        chunk = { element, start, end, pieces, signature, live: false, marks: new Map() };
        chunks[n] = chunk;
        const height = estimateRows(text, start, end, cols) * rowPx;
        plain(chunk, text, height);
        estimatedY += height;
        pre.append(element);
        if (estimatedY >= windowTop && estimatedY - height <= windowBottom) {
          draw(chunk, text);
          // one chunk's text and marks in a frame's layout (a chunk dense with marks is milliseconds of layout)
          await afterNextFrame();
        }
      } else if (chunk.signature !== signature) {
        chunk.pieces = pieces;
        chunk.signature = signature;
        if (chunk.live) {
          draw(chunk, text);
          await afterNextFrame(); // its new marks laid out alone
        }
      }
      start = end;
      if (!(await pause())) {
        chunks.length = Math.min(chunks.length, n + 1);
        return false;
      }
    }
    source = text;
    ends = nextEnds;
    // near the visible window: drawn now, a chunk per frame (each frame lays out one chunk's text and marks);
    // the window's chunks found by a binary search (never a walk over every chunk's offsets)
    for (let chunk = nextUndrawn(); chunk; chunk = nextUndrawn()) {
      draw(chunk, text);
      await afterNextFrame();
      if (!(await pause()) || source !== text) return false;
    }
    return true;
  }

  /** The first chunk near the visible window (LIVE_MARGIN_PX) not drawn yet, or null. */
  function nextUndrawn() {
    const near = visibleWindow(LIVE_MARGIN_PX);
    for (let n = near.first(); n < chunks.length && near.y(chunks[n]) <= near.bottom; n++) {
      if (!chunks[n].live) return chunks[n];
    }
    return null;
  }

  /** Chunk `chunk` as one plain, hidden text node (`height` px estimated, or its last height). */
  function plain(chunk, text, height) {
    chunk.live = false;
    chunk.marks = new Map();
    chunk.element.replaceChildren(document.createTextNode(text.slice(chunk.start, chunk.end)));
    chunk.element.setAttribute('hidden', 'until-found');
    if (height !== null) chunk.element.style.containIntrinsicSize = `auto ${Math.round(height)}px`;
  }

  /** Chunk `chunk` drawn: its text with marks. */
  function draw(chunk, text = source) {
    const built = buildChunk(text, chunk.pieces, tooltipId);
    chunk.element.replaceChildren(...built.children);
    chunk.element.removeAttribute('hidden');
    chunk.marks = built.marks;
    chunk.live = true;
    if (currentKey) for (const m of chunk.marks.get(currentKey) ?? []) m.classList.add('is-current');
  }

  /**
   * The characters per line and the height of one line of the viewer's text,
   * measured once per viewer width (measuring lays out the page: with a
   * megabyte in a text box, a long task of its own).
   */
  let measured = null;
  new ResizeObserver(() => { measured = null; }).observe(viewer);
  function metrics() {
    measured ??= measure();
    return measured;
  }
  function measure() {
    const style = getComputedStyle(pre);
    const rowPx = parseFloat(style.lineHeight) || 24;
    const probe = document.createElement('span');
    probe.textContent = '0'.repeat(64);
    pre.append(probe);
    const charPx = probe.getBoundingClientRect().width / 64;
    probe.remove();
    const width = pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { cols: charPx > 0 && width > 0 ? Math.max(20, Math.floor(width / charPx)) : 80, rowPx };
  }

  /** Which chunks are within `margin` px of the viewer's visible window (by their offsets, a binary search). */
  function visibleWindow(margin) {
    const top = viewer.scrollTop - margin;
    const bottom = viewer.scrollTop + viewer.clientHeight + margin;
    const base = pre.offsetTop;
    const y = (c) => c.element.offsetTop - base;
    return {
      near: (c) => y(c) + c.element.offsetHeight >= top && y(c) <= bottom,
      first() {
        let lo = 0;
        let hi = chunks.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (y(chunks[mid]) + chunks[mid].element.offsetHeight < top) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      },
      bottom,
      y,
    };
  }

  /** On scroll: the chunks that came near are drawn (a few per frame), those far away dropped. */
  function follow() {
    frame = 0;
    if (source === null || !chunks.length) return;
    const near = visibleWindow(LIVE_MARGIN_PX);
    let drawn = 0;
    for (let n = near.first(); n < chunks.length && near.y(chunks[n]) <= near.bottom; n++) {
      if (chunks[n].live) continue;
      if (drawn === CHUNKS_PER_FRAME) {
        frame = requestAnimationFrame(follow);
        break;
      }
      draw(chunks[n]);
      drawn++;
    }
    const keep = visibleWindow(DROP_MARGIN_PX);
    for (const c of chunks) if (c.live && !keep.near(c)) plain(c, source, null);
  }
  viewer.addEventListener('scroll', () => { if (!frame) frame = requestAnimationFrame(follow); }, { passive: true });

  function marksOf(span) {
    if (source === null || !span) return [];
    const out = [];
    // the chunks holding [start, end): binary search on the ends
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= span.start) lo = mid + 1;
      else hi = mid;
    }
    for (let n = lo; n < chunks.length && chunks[n].start < Math.max(span.end, span.start + 1); n++) {
      if (!chunks[n].live) draw(chunks[n]);
      out.push(...(chunks[n].marks.get(span.key) ?? []));
    }
    return out;
  }

  function setCurrent(key) {
    for (const m of pre.querySelectorAll('mark.is-current')) m.classList.remove('is-current');
    currentKey = key;
    if (!key) return;
    for (const c of chunks) for (const m of c.marks.get(key) ?? []) m.classList.add('is-current');
  }

  /** Forgets what was rendered (the caller replaced `pre`'s children). */
  function reset() {
    source = null;
    chunks = [];
    ends = [];
  }
  return { render, marksOf, setCurrent, reset };
}

/** Display rows of `text[start, end)` at `cols` characters a row (a monospace, wrapped view). */
function estimateRows(text, start, end, cols) {
  let rows = 0;
  for (let at = start; at < end;) {
    let nl = text.indexOf('\n', at);
    if (nl < 0 || nl >= end) nl = end;
    rows += Math.max(1, Math.ceil((nl - at) / cols));
    at = nl + 1;
  }
  return Math.max(1, rows);
}

/** What a segment's marks depend on: its bounds, and its spans' keys, status, role and edits. */
function signatureOf(p) {
  return `${p.start}-${p.end}:${p.spans.map((s) => `${s.key}/${s.status}/${s.role}/${s.edits?.length ? JSON.stringify(s.edits) : ''}`).join(',')}`;
}

/** One chunk's contents: its slice of the source, marks where spans are. */
function buildChunk(source, pieces, tooltipId) {
  const marks = new Map();
  const element = document.createDocumentFragment();
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
  return { children: [element], marks };
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
