// The transcript as the view draws it: one row per segment (its speaker and
// times), each word an element carrying its times, each item's matched words
// inside a <mark> (text always as text nodes, never innerHTML). What goes
// where comes from layout.js (pure); this file only makes the elements.

import { h } from '../../dom.js';
import { clock, eachRow, primaryHighlight } from './layout.js';

/** Rows made between two checks of the time slicer (a row is a segment: a dozen words, about forty elements). */
const ROWS_PER_CHECK = 2;

/** The spec 001 checks, in the order the items list them, with their short labels. */
export const CHECKS = [
  ['contiguous_match', 'contiguity'],
  ['length', 'length'],
  ['timestamp_locality', 'locality'],
  // only for an item that names evidence_speaker
  ['speaker', 'speaker'],
];

export const checkLabel = (name) => CHECKS.find(([n]) => n === name)?.[1] ?? name;
const failedLabels = (v) => (v?.failed_checks ?? []).map(checkLabel).join(', ');

/**
 * Draws transcript `t` (its data: text, segments, words) into `view` with
 * `highlights` (layout.js's Highlight[]); `entriesByKey` gives each
 * highlight's item (for the marks' titles). The rows are made a slice at a
 * time (`slice`: dom.js timeSlicer, false once a newer run draws instead),
 * each slice's rows added to the view before the browser's next frame, so
 * that a frame lays out only what one slice added (a one-hour transcript is
 * ten thousand words). Resolves to the marks of each item key, or null when
 * `slice` said stop.
 * @returns {Promise<Map<string, HTMLElement[]>|null>}
 */
export async function renderTranscript(view, t, highlights, entriesByKey, slice) {
  const { text, segments, words } = t;
  const marksByKey = new Map();
  const firstStart = words.find((w) => w.start !== null)?.start ?? null;
  const lastEnd = words.findLast((w) => w.end !== null)?.end ?? null;
  let frag = document.createDocumentFragment();
  let first = true;
  const flush = () => {
    if (first) view.replaceChildren(frag);
    else view.append(frag);
    first = false;
    frag = document.createDocumentFragment();
  };
  for (const row of eachRow(text, segments, words, highlights)) {
    const seg = row.segment === null ? null : segments[row.segment];
    const start = seg ? seg.start : firstStart;
    const end = seg ? seg.end : lastEnd;
    frag.append(h('li', { class: 'tx-row', dataset: { segment: row.segment === null ? '' : String(row.segment) } },
      h('span', { class: 'tx-time' },
        seg?.speaker ? h('span', { class: 'tx-speaker' }, seg.speaker) : null,
        h('span', { class: 'tx-clock' }, `${clock(start)}–${clock(end)}`)),
      rowText(text, row, words, (list) => markFor(list, entriesByKey, marksByKey))));
    if (frag.childNodes.length >= ROWS_PER_CHECK) {
      flush();
      if (!await slice()) return null;
    }
  }
  flush();
  return marksByKey;
}

/** A row's text: consecutive pieces under the same highlights share one mark. */
function rowText(text, row, words, newMark) {
  const cell = h('span', { class: 'tx-text' });
  let group = null;
  let groupKeys = '';
  for (const p of row.pieces) {
    const keys = p.highlights.map((x) => x.key).join(' ');
    if (keys === '') {
      group = null;
      groupKeys = '';
      cell.append(pieceNode(text, p, words));
      continue;
    }
    if (group === null || keys !== groupKeys) {
      group = newMark(p.highlights);
      groupKeys = keys;
      cell.append(group);
    }
    group.append(pieceNode(text, p, words));
  }
  return cell;
}

function markFor(list, entriesByKey, marksByKey) {
  const top = primaryHighlight(list);
  const mark = document.createElement('mark');
  mark.className = `hl ${top.role === 'partial' ? 'hl-candidate' : top.passed ? 'hl-validated' : 'hl-failed'} tx-hl`;
  if (list.length > 1) mark.classList.add('hl-overlap');
  mark.tabIndex = 0;
  mark.dataset.items = list.map((x) => x.key).join(' ');
  mark.dataset.role = top.role;
  mark.title = list.map((x) => {
    const e = entriesByKey.get(x.key);
    const what = x.role === 'partial' ? 'longest partial run of its quote (the whole quote is not in the transcript)' : x.passed ? 'passes' : `fails ${failedLabels(e?.validation)}`;
    return `${e?.label ?? x.key}: ${what}`;
  }).join('\n');
  for (const x of list) {
    if (!marksByKey.has(x.key)) marksByKey.set(x.key, []);
    marksByKey.get(x.key).push(mark);
  }
  return mark;
}

/** One piece of a row: a word (with its times) or the text between words. */
function pieceNode(text, p, words) {
  const s = text.slice(p.start, p.end);
  if (p.word === null) return document.createTextNode(s);
  const w = words[p.word];
  const span = document.createElement('span');
  span.className = 'w';
  span.dataset.w = String(p.word);
  if (w.start !== null) {
    span.title = `${w.start.toFixed(2)}–${w.end === null ? '?' : w.end.toFixed(2)} s`;
    if (p.wordStart) span.dataset.t = w.start.toFixed(1);
  } else {
    span.title = 'no timestamp';
  }
  span.append(document.createTextNode(s));
  return span;
}
