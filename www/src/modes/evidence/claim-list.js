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
import { STATUS_LABEL } from './spans.js';

/**
 * The claim list of `claimList` and `warningList`. `render(view, pause)`
 * fills them in order, keeping the element of every entry that did not
 * change and building the others, with `pause()` (timeSlicer) between
 * entries so that a thousand claims never block the page; when `pause` says
 * stop, it stops (a newer render follows).
 *
 * `view` is null (empty them) or `{ entries, general }`: `entries[i]` is
 * claim i's `{ result, failure, warnings, error, where, quote }` (`result` a
 * ClaimResult or null; `error` the claim's input error, `where` where it is;
 * neither: not checked yet), `general` the warnings and errors that name no
 * claim. `focusSpan(key)` shows a span; `setStatus(text)` says why a claim
 * has none; `copy(entry, i)` copies a claim's result (its Copy button);
 * `copyLink(entry, i)`, when given, copies a link that opens the source page
 * at the claim's passage (its `match_details.text_fragment`).
 * @returns {{ render(view: object|null, pause?: () => Promise<boolean>): Promise<boolean> }}
 *   `render` resolves to whether it finished.
 */
export function claimListRenderer(claimList, warningList, { focusSpan, setStatus, copy, copyLink = null }) {
  /** signature → element, of the entries shown. */
  let shown = new Map();

  async function render(view, pause = async () => true) {
    if (!view) {
      shown = new Map();
      replaceChildren(claimList);
      warningList.hidden = true;
      return true;
    }
    const next = new Map();
    for (const [i, entry] of view.entries.entries()) {
      const signature = `${i}\u0000${JSON.stringify(entry)}`;
      const li = shown.get(signature) ?? claimItem(entry, i, { focusSpan, setStatus, copy, copyLink });
      next.set(signature, li);
      // an element is only ever kept at its own index: replace in place
      const at = claimList.children[i];
      if (at !== li) {
        if (at) at.replaceWith(li);
        else claimList.append(li);
      }
      if (!(await pause())) {
        shown = new Map([...shown, ...next]);
        return false;
      }
    }
    while (claimList.children.length > view.entries.length) claimList.lastElementChild.remove();
    shown = next;
    keepOneTabStop(claimList);
    replaceChildren(warningList, view.general.map((w) => h('li', {}, `${w.code}: ${w.message}`)));
    warningList.hidden = view.general.length === 0;
    return true;
  }
  return { render };
}

/**
 * Roving focus (WAI-ARIA): the list is one tab stop, its last focused claim
 * (or the first one shown). Up and Down (Home, End) move between the claims
 * shown; Right and Left between a claim and its candidates' buttons.
 */
export function rovingFocus(claimList) {
  claimList.addEventListener('focusin', (e) => {
    if (!(e.target instanceof HTMLButtonElement)) return;
    for (const b of claimList.querySelectorAll('button[tabindex="0"]')) b.tabIndex = -1;
    e.target.tabIndex = 0;
  });
  claimList.addEventListener('keydown', (e) => {
    if (!(e.target instanceof HTMLButtonElement)) return;
    const li = e.target.closest('li.claim');
    const claims = shownClaims(claimList);
    const at = claims.indexOf(li);
    const inItem = [...li.querySelectorAll('button')];
    const k = inItem.indexOf(e.target);
    const to = {
      ArrowDown: () => claims[at + 1]?.querySelector('.claim-button'),
      ArrowUp: () => claims[at - 1]?.querySelector('.claim-button'),
      Home: () => claims[0]?.querySelector('.claim-button'),
      End: () => claims.at(-1)?.querySelector('.claim-button'),
      ArrowRight: () => inItem[k + 1],
      ArrowLeft: () => inItem[k - 1],
    }[e.key]?.();
    if (e.key in { ArrowDown: 1, ArrowUp: 1, Home: 1, End: 1, ArrowRight: 1, ArrowLeft: 1 }) e.preventDefault();
    if (to) to.focus();
  });
}

/** The claims the filter (`claimList.dataset.filter`: a status class such as `failed`) shows, in order. */
export function shownClaims(claimList) {
  const only = claimList.dataset.filter;
  return [...claimList.children].filter((li) => li.matches('li.claim') && (!only || li.classList.contains(`claim-${only}`)));
}

/** Exactly one button of the list in the tab order: the current one if still shown, else the first claim's. */
export function keepOneTabStop(claimList) {
  const current = claimList.querySelector('button[tabindex="0"]');
  if (current && current.closest('li.claim') && shownClaims(claimList).includes(current.closest('li.claim'))) return;
  if (current) current.tabIndex = -1;
  const first = shownClaims(claimList)[0]?.querySelector('.claim-button');
  if (first) first.tabIndex = 0;
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

/** An ambiguous claim's other places: the first PLACES_LISTED, then how many more. */
function alternativeDetails(r, i, focusSpan) {
  if (!r.alternative_matches.length) return [];
  const more = r.alternative_matches.length - PLACES_LISTED;
  return [
    h('p', { class: 'candidates-title' }, 'Other places:'),
    h('ul', { class: 'candidates' }, r.alternative_matches.slice(0, PLACES_LISTED).map((a, j) =>
      h('li', {}, spanButton(`c${i}.a${j}`, `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.matched_text, 90)}”`, focusSpan)))),
    more > 0 ? h('p', { class: 'help' }, `… and ${more} more, highlighted in the source.`) : null,
  ];
}

function spanButton(key, text, focusSpan) {
  return h('button', { type: 'button', class: 'candidate-button', tabindex: '-1', dataset: { span: key }, onclick: () => focusSpan(key) }, text);
}
