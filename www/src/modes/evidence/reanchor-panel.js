// The evidence mode's re-anchor panel (issue 18): paste an edited version of
// the source and see where each highlighted claim's passage is now, through
// the library's `Document.reanchor` (run in the worker) on the selectors
// the validation gave (`match_details.selectors`). Each claim is listed as
// unchanged, moved, changed or orphaned, with its new line; the orphans are
// listed apart. Text is always set as text nodes.

import { h, replaceChildren } from '../../dom.js';

/**
 * @param {{
 *   annotations(): { id: string, selectors: object[] }[],
 *   reanchor(source: string, annotations: object[]): Promise<object>,
 * }} hooks `annotations()` the claims shown with a match; `reanchor` the
 *   worker's answer: `{ type: 'reanchored', results }` or `{ type: 'failed', message }`.
 * @returns {{ element: HTMLElement }}
 */
export function reanchorPanel({ annotations, reanchor }) {
  const box = h('textarea', {
    class: 'reanchor-input', rows: 8, 'aria-label': 'Edited source document',
    placeholder: 'Paste an edited version of the source: each highlighted claim is found again in it.',
  });
  const status = h('p', { class: 'reanchor-status', role: 'status', 'aria-live': 'polite' });
  const list = h('ol', { class: 'reanchor-list', 'aria-label': 'Re-anchored claims' });
  const orphanHead = h('h3', { hidden: true }, 'Orphaned');
  const orphans = h('ul', { class: 'reanchor-orphans', 'aria-label': 'Orphaned claims', hidden: true });

  async function go() {
    const saved = annotations();
    if (saved.length === 0) {
      status.textContent = 'No highlighted claim to re-anchor: validate claims first.';
      return;
    }
    status.textContent = `Re-anchoring ${saved.length} claim(s)…`;
    const answer = await reanchor(box.value, saved);
    if (answer.type !== 'reanchored') {
      status.textContent = answer.type === 'failed' ? `Re-anchoring failed: ${answer.message}` : 'Re-anchoring stopped.';
      return;
    }
    const counts = {};
    for (const r of answer.results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    status.textContent = ['unchanged', 'moved', 'changed', 'orphaned']
      .filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`).join(', ');
    replaceChildren(list, answer.results.filter((r) => r.status !== 'orphaned').map((r) =>
      h('li', { class: `reanchor-${r.status}`, dataset: { claim: r.id, status: r.status } },
        h('strong', {}, r.id), ` ${r.status}, line ${r.span.line_number}: `,
        h('span', { class: 'claim-quote' }, `“${r.matched_text}”`))));
    const lost = answer.results.filter((r) => r.status === 'orphaned');
    replaceChildren(orphans, lost.map((r) => h('li', { dataset: { claim: r.id, status: r.status } }, r.id)));
    orphans.hidden = lost.length === 0;
    orphanHead.hidden = lost.length === 0;
  }

  const element = h('details', { class: 'config reanchor-panel' },
    h('summary', {}, 'Re-anchor in an edited document'),
    box,
    h('button', { type: 'button', class: 'secondary reanchor-button', onclick: () => go() }, 'Re-anchor'),
    status, list, orphanHead, orphans);
  return { element };
}
