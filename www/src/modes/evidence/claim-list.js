// The claim list under the highlighted source: one entry per claim of the
// report (its status, quote, match and, for a failed claim, the reason,
// suggestions and nearest candidates), each button focusing its span in the
// source; then the warnings and errors that name no claim.
//
// Span keys are the ones `collectSpans` (spans.js) gives the marks:
// `c<i>.m` the claim's match, `c<i>.c<j>` a rejected candidate, `c<i>.a<j>`
// another place of an ambiguous quote.

import { h, replaceChildren } from '../../dom.js';
import { clip } from '../../text.js';
import { STATUS_LABEL } from './spans.js';

/** Beyond the scroller's visible height, this much is rendered above and below it (px). */
const MARGIN_PX = 800;
/** The space between two claims (px). */
const GAP_PX = 6;
/** A claim not measured yet is taken to be as tall as the mean of those measured, or this (px). */
const FIRST_ESTIMATE_PX = 72;
/** A list of at most this many claims shown is rendered whole (it costs less than a screen of a long one). */
const RENDER_ALL_UP_TO = 40;
/** The most claims built and added in one frame of a long list (the others in the next frames). */
const NEW_PER_FRAME = 2;

/**
 * The claim list, virtualized: `scroller` (a box of bounded height that
 * scrolls) holds `claimList` (an <ol> as tall as every claim shown), and only
 * the claims in the scroller's visible window, MARGIN_PX above and below it,
 * are elements (all of them when RENDER_ALL_UP_TO or fewer are shown), each
 * placed at its offset (measured by a ResizeObserver once rendered,
 * estimated before; a claim is transparent until measured and placed, a
 * frame later). A thousand claims cost the page what twenty do. The claim with the tab stop and the selected one stay rendered when
 * scrolled away, so the list is always exactly one tab stop.
 *
 * `render(view, pause)` shows `view`: null (empty), or `{ entries, general }`
 * where `entries[i]` is claim i's `{ result, failure, warnings, error, where,
 * quote }` (`result` a ClaimResult or null; `error` the claim's input error,
 * `where` where it is; neither: not checked yet), `general` the warnings and
 * errors that name no claim. It keeps the element of every claim whose entry
 * is the same object as before (the page keeps the entries the worker did
 * not send again), and resolves to whether it finished (`pause()`, from
 * timeSlicer, said stop: a newer render follows).
 *
 * `focusSpan(key)` shows a span; `setStatus(text)` says why a claim has none;
 * `copy(entry, i)` copies a claim's result (its Copy button);
 * `copyLink(entry, i)`, when given, copies a link that opens the source page
 * at the claim's passage (its `match_details.text_fragment`).
 *
 * Keyboard (roving focus, WAI-ARIA): Up and Down (Home, End) move between the
 * claims shown, Right and Left between a claim's buttons.
 *
 * For tests and curious readers, `claimList` carries data-shown (claims the
 * filter shows) and data-filter (the filter, when one is on); each item
 * aria-posinset and aria-setsize.
 */
export function claimListRenderer(scroller, claimList, warningList, handlers) {
  let entries = [];
  /** index → { entry, li } of the claims built (rendered or not). */
  let built = new Map();
  /** index → its measured height (px), while its entry is unchanged. */
  const heights = new Map();
  let filter = '';
  /** The indices shown, in order. */
  let order = [];
  /** position in `order` → top (px); `tops[order.length]` the list's height. */
  let tops = [0];
  /** index → li, of the claims in the DOM. */
  const rendered = new Map();
  let current = null;
  let selected = null;
  let measuredSum = 0;
  let measuredCount = 0;

  // Sizes arrive after the frame's layout. They are only recorded here: the
  // offsets move in the next frame, before its layout (moving them now would
  // lay the list out a second time in this frame). A claim not measured yet
  // is drawn hidden (`is-unplaced`) until then, so no overlap is ever seen.
  /** Whether a size changed since the offsets were computed, and by how much the view must move to stay still. */
  let resizedSince = false;
  let shift = 0;
  const resized = new ResizeObserver((records) => {
    const viewTop = scroller.scrollTop;
    for (const r of records) {
      const li = r.target;
      const i = Number(li.dataset.index);
      if (!li.isConnected || built.get(i)?.li !== li) continue;
      const size = r.borderBoxSize?.[0]?.blockSize ?? li.getBoundingClientRect().height;
      const was = heightOf(i);
      if (!heights.has(i)) { measuredSum += size; measuredCount++; }
      heights.set(i, size);
      if (li.classList.contains('is-unplaced')) resizedSince = true;
      if (Math.abs(size - was) < 0.5) continue;
      resizedSince = true;
      // a claim above the visible window that grew or shrank moves what is seen: keep it still
      const at = positionOf(i);
      if (at >= 0 && tops[at] + was <= viewTop) shift += size - was;
    }
    if (resizedSince) onScroll();
  });

  let frame = 0;
  const onScroll = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      // read before anything is written: the last frame's layout, not one forced now
      const view = { top: scroller.scrollTop, height: scroller.clientHeight };
      if (resizedSince) {
        resizedSince = false;
        layout();
        placeRendered();
        if (shift) scroller.scrollTop = view.top = Math.max(0, view.top + shift);
        shift = 0;
      }
      drawWindow(view);
    });
  };
  scroller.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('resize', onScroll);

  function heightOf(i) {
    return heights.get(i) ?? (measuredCount ? measuredSum / measuredCount : FIRST_ESTIMATE_PX);
  }
  function positionOf(i) {
    // order is increasing: binary search
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (order[mid] === i) return mid;
      if (order[mid] < i) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
  /** The first position whose claim ends below `y`. */
  function positionAt(y) {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tops[mid + 1] - GAP_PX <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Offsets of the claims shown, and the list's height. */
  function layout() {
    tops = new Array(order.length + 1);
    let y = 0;
    for (const [p, i] of order.entries()) {
      tops[p] = y;
      y += heightOf(i) + GAP_PX;
    }
    tops[order.length] = Math.max(0, y - GAP_PX);
    claimList.style.height = `${Math.ceil(tops[order.length])}px`;
  }

  function itemOf(i) {
    const e = entries[i];
    let b = built.get(i);
    if (!b) {
      b = { entry: e, li: claimItem(e, i, handlers) };
      built.set(i, b);
    }
    return b.li;
  }

  /** The rendered claims at their offsets (those measured shown). */
  function placeRendered() {
    for (const [i, li] of rendered) {
      const p = positionOf(i);
      if (p >= 0) li.style.top = `${Math.round(tops[p])}px`;
      if (heights.has(i)) li.classList.remove('is-unplaced');
    }
  }

  /**
   * Puts the claims of the visible window (and the current and selected ones)
   * in the DOM, at their offsets. `view`: the scroller's scroll offset and
   * height, when the caller read them before changing the DOM.
   */
  function drawWindow(view = null) {
    const want = new Set();
    if (order.length <= RENDER_ALL_UP_TO) {
      for (const i of order) want.add(i);
    } else {
      const { top: viewTop, height } = view ?? { top: scroller.scrollTop, height: scroller.clientHeight };
      const top = viewTop - MARGIN_PX;
      const bottom = viewTop + height + MARGIN_PX;
      for (let p = positionAt(top); p < order.length && tops[p] <= bottom; p++) want.add(order[p]);
    }
    const focused = document.activeElement?.closest?.('li.claim');
    const held = [current, selected, focused && claimList.contains(focused) ? Number(focused.dataset.index) : null];
    for (const i of held) if (i !== null && positionOf(i) >= 0) want.add(i);
    for (const [i, li] of rendered) {
      if (want.has(i) && built.get(i)?.li === li) continue;
      li.remove();
      resized.unobserve(li);
      rendered.delete(i);
    }
    const setSize = String(order.length);
    let before = null; // the DOM keeps the claims in order
    let added = 0;
    for (const i of [...want].sort((a, b) => a - b)) {
      if (order.length > RENDER_ALL_UP_TO && !rendered.has(i) && i !== current && i !== selected && ++added > NEW_PER_FRAME) {
        onScroll(); // the rest in the next frame
        continue;
      }
      const li = itemOf(i);
      const p = positionOf(i);
      li.style.top = `${Math.round(tops[p])}px`;
      li.setAttribute('aria-posinset', String(p + 1));
      li.setAttribute('aria-setsize', setSize);
      li.classList.toggle('is-selected', i === selected);
      if (!heights.has(i)) li.classList.add('is-unplaced'); // at an estimated offset until measured
      if (!li.contains(document.activeElement)) {
        for (const b of li.querySelectorAll('button[tabindex="0"]')) b.tabIndex = -1;
        const own = li.querySelector('.claim-button');
        if (own && i === current) own.tabIndex = 0;
      }
      if (!rendered.has(i)) {
        rendered.set(i, li);
        resized.observe(li);
      }
      if (li.previousElementSibling !== before || !li.isConnected) {
        if (before) before.after(li);
        else claimList.prepend(li);
      }
      before = li;
    }
  }

  /** The claims the filter shows; the tab stop moves to the first of them when its claim is not. */
  function refilter() {
    order = [];
    for (const [i, e] of entries.entries()) if (!filter || kindOf(e) === filter) order.push(i);
    if (current === null || positionOf(current) < 0) current = order[0] ?? null;
    if (filter) claimList.dataset.filter = filter;
    else delete claimList.dataset.filter;
    claimList.dataset.shown = String(order.length);
    layout();
  }

  async function render(view, pause = async () => true) {
    if (!view) {
      entries = [];
      built = new Map();
      heights.clear();
      current = null;
      selected = null;
      refilter();
      drawWindow();
      replaceChildren(warningList);
      warningList.hidden = true;
      return true;
    }
    // an entry the worker did not send again is the same object (mode.js): its element is kept
    const next = new Map();
    for (const [i, e] of view.entries.entries()) {
      const had = built.get(i);
      if (had && had.entry === e) next.set(i, had);
      else heights.delete(i);
      if (i % 256 === 255 && !(await pause())) return false;
    }
    for (const i of heights.keys()) if (i >= view.entries.length) heights.delete(i);
    entries = view.entries;
    built = next;
    if (selected !== null && selected >= entries.length) selected = null;
    if (current !== null && current >= entries.length) current = null;
    refilter();
    drawWindow();
    replaceChildren(warningList, view.general.map((w) => h('li', {}, `${w.code}: ${w.message}`)));
    warningList.hidden = view.general.length === 0;
    return true;
  }

  /**
   * Claim `i` rendered, scrolled into view (the scroller and the page, as
   * little as needed) and, when `focus`, focused; null when the filter hides it.
   */
  function reveal(i, { focus = false } = {}) {
    const p = positionOf(i);
    if (p < 0) return null;
    const top = tops[p];
    const bottom = top + heightOf(i);
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = Math.max(0, bottom - scroller.clientHeight);
    if (focus) current = i;
    drawWindow();
    const li = rendered.get(i);
    li.scrollIntoView({ block: 'nearest' });
    if (focus) li.querySelector('.claim-button')?.focus({ preventScroll: true });
    return li;
  }

  /** Marks claim `i` selected (null: none) and reveals it. */
  function select(i, options = {}) {
    selected = i;
    drawWindow();
    return i === null ? null : reveal(i, options);
  }

  /** Shows only the claims of one status (a class suffix such as `failed`; '' all of them). */
  function setFilter(f) {
    const hadFocus = claimList.contains(document.activeElement);
    filter = f;
    refilter();
    scroller.scrollTop = 0;
    drawWindow();
    if (hadFocus && current !== null) reveal(current, { focus: true });
    return order.length;
  }

  // roving focus: the focused button is the list's tab stop; leaving the
  // claim, the stop goes back to the claim's own button
  claimList.addEventListener('focusin', (e) => {
    const li = e.target instanceof HTMLElement ? e.target.closest('li.claim') : null;
    if (!li || !(e.target instanceof HTMLButtonElement)) return;
    const i = Number(li.dataset.index);
    if (current !== i) {
      current = i;
      drawWindow();
    }
    for (const b of li.querySelectorAll('button[tabindex="0"]')) b.tabIndex = -1;
    e.target.tabIndex = 0;
  });
  claimList.addEventListener('focusout', (e) => {
    const li = e.target instanceof HTMLElement ? e.target.closest('li.claim') : null;
    if (!li || li.contains(e.relatedTarget) || !(e.target instanceof HTMLButtonElement)) return;
    e.target.tabIndex = -1;
    const own = li.querySelector('.claim-button');
    if (own) own.tabIndex = Number(li.dataset.index) === current ? 0 : -1;
  });
  claimList.addEventListener('keydown', (e) => {
    if (!(e.target instanceof HTMLButtonElement)) return;
    const li = e.target.closest('li.claim');
    if (!li) return;
    const p = positionOf(Number(li.dataset.index));
    const inItem = [...li.querySelectorAll('button')];
    const k = inItem.indexOf(e.target);
    const to = { ArrowDown: p + 1, ArrowUp: p - 1, Home: 0, End: order.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      if (to >= 0 && to < order.length) reveal(order[to], { focus: true });
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      const b = inItem[k + (e.key === 'ArrowRight' ? 1 : -1)];
      if (b) b.focus();
    }
  });

  return {
    render,
    setFilter,
    select,
    reveal,
    /** The indices the filter shows, in order. */
    shown: () => order.slice(),
    /** The selected claim's index, or null. */
    get selected() { return selected; },
  };
}

/** The filter a claim belongs to: its status as a class suffix, `invalid` or `unchecked`. */
export function kindOf(e) {
  return e.result ? e.result.validation_status.toLowerCase().replace('_', '-') : e.error ? 'invalid' : 'unchecked';
}

/** One entry of the list: a result, an input error in place, or "not checked". */
function claimItem(entry, i, { focusSpan, setStatus, copy, copyLink }) {
  const r = entry.result;
  const copyButton = h('button', {
    type: 'button', class: 'secondary copy-button', tabindex: '-1', onclick: () => copy(entry, i),
    'aria-label': `Copy the result of ${r?.claim_id ?? entry.claimId ?? `claim ${i + 1}`}`,
  }, 'Copy');
  if (!r) {
    const id = typeof entry.claimId === 'string' ? entry.claimId : `claim ${i + 1}`;
    const kind = entry.error ? 'invalid' : 'unchecked';
    return h('li', { class: `claim claim-${kind}`, dataset: { claim: id, index: String(i) } },
      h('button', {
        type: 'button', class: 'claim-button', tabindex: '-1', 'aria-disabled': 'true',
        onclick: () => setStatus(entry.error ? `${id}: fix it in the claims box (${entry.where})` : `${id} was not checked`),
      },
      h('span', { class: `badge badge-${kind}` }, entry.error ? 'not valid' : 'not checked'),
      h('span', { class: 'claim-id' }, id),
      h('span', { class: 'claim-quote' }, entry.quote ? `“${entry.quote}”` : ''),
      h('span', { class: 'claim-meta' }, entry.where ?? '')),
      h('div', { class: 'claim-details' }, copyButton, entry.error
        ? h('p', { class: 'claim-error' }, h('strong', {}, `${entry.where}: `), entry.error,
          '. Fix this claim in the claims box; the others keep their results.') : null));
  }
  const cls = r.validation_status.toLowerCase().replace('_', '-');
  const details = [
    ...editDetails(r),
    ...failureDetails(r, entry.failure, i, focusSpan),
    ...alternativeDetails(r, i, focusSpan),
    ...entry.warnings.map((w) => h('p', { class: 'claim-warning' }, `${w.code}: ${w.message}`)),
  ];
  const fragment = r.match_details?.text_fragment;
  const linkButton = copyLink && fragment ? h('button', {
    type: 'button', class: 'secondary copy-link-button', tabindex: '-1', onclick: () => copyLink(entry, i),
    'aria-label': `Copy a link to ${r.claim_id}'s passage in the source page`,
  }, 'Copy link') : null;
  return h('li', { class: `claim claim-${cls}`, dataset: { claim: r.claim_id, index: String(i) } },
    claimButton(r, i, cls, entry.quote, { focusSpan, setStatus }),
    h('div', { class: 'claim-details' }, copyButton, linkButton, details));
}

/** The claim's own line: badge, id, quote, match type, confidence, edit distance, line. */
function claimButton(r, i, cls, quote, { focusSpan, setStatus }) {
  const status = r.validation_status;
  const m = r.match_details;
  const key = `c${i}.m`;
  const meta = m
    ? [r.evidence_type.replaceAll('_', ' '), `${m.match_type} match`, `confidence ${r.confidence_score.toFixed(2)}`,
      typeof m.edit_distance === 'number' && m.edit_distance >= 0 ? `edit distance ${m.edit_distance}` : null, `line ${m.line_number}`]
    : [r.evidence_type.replaceAll('_', ' '), `confidence ${r.confidence_score.toFixed(2)}`, 'not found in the source'];
  return h('button', {
    type: 'button', class: 'claim-button', tabindex: '-1', dataset: { span: key, claim: r.claim_id },
    'aria-disabled': m ? null : 'true',
    onclick: () => (m ? focusSpan(key) : setStatus(`${r.claim_id} has no span in the source`)),
  },
  h('span', { class: `badge badge-${cls}` }, STATUS_LABEL[status] ?? status),
  h('span', { class: 'claim-id' }, r.claim_id),
  h('span', { class: 'claim-quote' }, quote ? `“${quote}”` : ''),
  h('span', { class: 'claim-meta' }, meta.filter(Boolean).join(' · ')));
}

/**
 * A near miss's word-level differences (the meaning guard's
 * `match_details.edits`, cosmetic ones left out): what the quote says
 * against what the source says, and why it matters.
 */
function editDetails(r) {
  const edits = (r.match_details?.edits ?? []).filter((e) => e.kind !== 'cosmetic');
  if (!edits.length) return [];
  return [
    h('p', { class: 'candidates-title' }, 'What the quote changed:'),
    h('ul', { class: 'edit-list' }, edits.map((e) => h('li', { class: `edit-${e.kind}` },
      h('span', { class: 'edit-side' }, 'quote '), h('ins', { class: 'edit-word' }, e.quote || '(nothing)'),
      h('span', { class: 'edit-side' }, ' · source '), h('del', { class: 'edit-word' }, e.source || '(nothing)'),
      h('span', { class: 'edit-why' }, ` · ${e.kind === 'typo' ? 'typo' : `${e.change ?? 'word'} changed`}${e.reason && e.kind !== 'typo' ? `: ${e.reason}` : ''}, line ${e.line_number}`)))),
  ];
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

/** An ambiguous claim's other places listed (all are highlighted in the source; the scrollbar marks them). */
const PLACES_LISTED = 50;

/**
 * An ambiguous claim's other places: a button that shows the first
 * PLACES_LISTED (then how many more), built when first opened (a claim with
 * fifty places is fifty buttons: drawn only for the reader who asks).
 */
function alternativeDetails(r, i, focusSpan) {
  const n = r.alternative_matches.length;
  if (!n) return [];
  const places = h('div', { class: 'places', hidden: true });
  const toggle = h('button', {
    type: 'button', class: 'places-button', tabindex: '-1', 'aria-expanded': 'false',
    onclick: () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      if (open && !places.firstChild) places.append(...placesOf(r, i, focusSpan));
      places.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
    },
  }, `Other places (${n})`);
  return [h('p', { class: 'candidates-title' }, toggle), places];
}

/** The list of an ambiguous claim's other places (alternativeDetails). */
function placesOf(r, i, focusSpan) {
  const more = r.alternative_matches.length - PLACES_LISTED;
  return [
    h('ul', { class: 'candidates' }, r.alternative_matches.slice(0, PLACES_LISTED).map((a, j) =>
      h('li', {}, spanButton(`c${i}.a${j}`, `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.matched_text, 90)}”`, focusSpan)))),
    more > 0 ? h('p', { class: 'help' }, `… and ${more} more, highlighted in the source.`) : null,
  ];
}

function spanButton(key, text, focusSpan) {
  return h('button', { type: 'button', class: 'candidate-button', tabindex: '-1', dataset: { span: key }, onclick: () => focusSpan(key) }, text);
}
