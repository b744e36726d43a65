// The judge view (specs 002/003 in the browser): "Check a claim" (one claim,
// its quote and cited lines: step 1 the lines with their context, step 2 the
// score against the threshold, step 3 the jury's votes, consensus and log)
// and "Verify a report" (every citation of a markdown report against named
// sources). The jury is the page's offline demo jurors (demo.js, labelled
// "demo judge — not a language model") plus whatever judge functions the
// host page registered with window.evidenceValidator.registerJudge
// (registry.js, installed by main.js).

import { version } from 'evidence-validator';
import { h, uniqueId } from '../../dom.js';
import { claimView } from './claim.js';
import { juryPanel } from './jury.js';
import { reportView } from './report.js';

export function mount(panel, ctx) {
  const jury = juryPanel(() => claim.refresh());
  const claim = claimView(jury, ctx);
  const report = reportView(jury, ctx);
  const views = { claim, report };

  const switchId = uniqueId('jd-view');
  const buttons = {
    claim: h('button', { type: 'button', class: 'subview-button', dataset: { view: 'claim' }, onclick: () => select('claim') }, 'Check a claim'),
    report: h('button', { type: 'button', class: 'subview-button', dataset: { view: 'report' }, onclick: () => select('report') }, 'Verify a report'),
  };
  const inputsSlot = h('div', { class: 'judge-view-inputs' });
  const actionsSlot = h('div', { class: 'judge-view-actions' });
  const resultsSlot = h('div', { class: 'judge-view-results' });

  const root = h('div', { class: 'judge-mode', dataset: { view: 'claim' } },
    h('div', { class: 'inputs' },
      h('div', { class: 'subview-switch', role: 'group', 'aria-label': 'Judge view', id: switchId }, buttons.claim, buttons.report),
      inputsSlot,
      jury.element,
      actionsSlot),
    h('div', { class: 'results' }, resultsSlot));
  panel.append(root);

  function select(name) {
    root.dataset.view = name;
    for (const [k, b] of Object.entries(buttons)) b.setAttribute('aria-pressed', String(k === name));
    inputsSlot.replaceChildren(views[name].inputs);
    actionsSlot.replaceChildren(views[name].actions);
    resultsSlot.replaceChildren(views[name].results);
  }

  select('claim');
  ctx.setStatus(`evidence-validator ${version()}`);
  claim.loadSample(0);
}
