// The evaluation's items under the transcript: each with pass / fail, its
// quote and timestamp, where it matched (or its longest partial run), and
// its three checks with the reason of any that failed; the item's button
// shows its words in the transcript.

import { h, replaceChildren } from '../../dom.js';
import { clock } from './layout.js';
import { CHECKS, checkLabel } from './view.js';

/**
 * Fills `itemList` with `entries` ({ key, label, kind, index, item,
 * validation, error, action }). `hasSpan(key)` says whether the item has
 * words in the view; `focusItem(key)` shows them; `setStatus(text)` says
 * why an item has none. The items are added a slice at a time (`slice`:
 * dom.js timeSlicer, false once a newer run draws instead: then this
 * resolves false), so that a frame lays out only what one slice added.
 */
export async function renderItemList(itemList, entries, { hasSpan, focusItem, setStatus }, slice = async () => true) {
  let first = true;
  for (let at = 0; at < entries.length || first; at += ITEMS_PER_SLICE) {
    const lis = entries.slice(at, at + ITEMS_PER_SLICE).map((e) => {
      const status = e.error ? 'error' : e.validation.passed ? 'pass' : 'fail';
      return h('li', { class: `tx-item tx-item-${status}`, dataset: { key: e.key, kind: e.kind, index: String(e.index), status } },
        itemButton(e, status, hasSpan(e.key), () => (focusItem(e.key) ? null : setStatus(`${e.label} has no words in the transcript`))),
        h('div', { class: 'tx-item-details' }, e.error ? h('p', { class: 'step-error' }, e.error) : checkDetails(e)));
    });
    if (first) replaceChildren(itemList, lis);
    else itemList.append(...lis);
    first = false;
    if (at + ITEMS_PER_SLICE < entries.length && !await slice()) return false;
  }
  return true;
}

/** Items made between two checks of the time slicer. */
const ITEMS_PER_SLICE = 5;

function itemButton(e, status, hasSpan, onclick) {
  const v = e.validation;
  const ts = typeof e.item?.evidence_timestamp === 'number' ? `@ ${clock(e.item.evidence_timestamp)}` : '';
  const quote = typeof e.item?.evidence_quote === 'string' ? e.item.evidence_quote : '';
  return h('button', {
    type: 'button', class: 'tx-item-button', dataset: { key: e.key }, 'aria-disabled': hasSpan ? null : 'true', onclick,
  },
  h('span', { class: `badge badge-${status === 'pass' ? 'validated' : 'failed'}` }, status),
  h('span', { class: 'tx-item-label' }, e.label),
  h('span', { class: 'tx-item-quote' }, quote ? `“${quote}” ` : '', h('span', { class: 'tx-item-ts' }, ts)),
  h('span', { class: 'tx-item-meta' }, [e.item?.text, whereMatched(v)].filter(Boolean).join(' · ')));
}

/** Where the quote matched, or its longest partial run, or that it was not found. */
function whereMatched(v) {
  if (!v) return '';
  if (v.matched) {
    return `matched ${clock(v.matched.start_time)}–${clock(v.matched.end_time)}${v.occurrence_count > 1 ? ` (occurrence chosen among ${v.occurrence_count})` : ''}`;
  }
  const p = v.longest_partial_match;
  return p ? `not found; longest partial run: ${p.length} of ${v.quote_tokens.length} tokens at ${clock(p.start_time)}` : 'not found';
}

/** What failed, each check with its status and reason, and the retry budget's action. */
function checkDetails(e) {
  const v = e.validation;
  const out = [];
  if (!v.passed) {
    out.push(h('p', { class: 'tx-failed' }, h('strong', {}, 'Failed: '),
      v.failed_checks.map((c) => `${checkLabel(c)} (${v[c].reason})`).join(', ')));
  }
  out.push(h('ul', { class: 'tx-checks', 'aria-label': `Checks of ${e.label}` }, CHECKS.filter(([name]) => v[name]).map(([name, label]) => {
    const c = v[name];
    const icon = c.status === 'passed' ? '✓' : c.status === 'failed' ? '✗' : '–';
    return h('li', { class: `tx-check check-${c.status}`, dataset: { check: name, status: c.status, reason: c.reason } },
      h('span', { class: 'tx-check-name' }, `${icon} ${label}`),
      h('span', { class: 'tx-check-reason' }, c.reason),
      h('span', { class: 'tx-check-message' }, c.message));
  })));
  if (e.action) out.push(h('p', { class: 'muted' }, `Retry budget: ${e.action}`));
  return out;
}
