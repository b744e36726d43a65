// The judge view (specs 002/003 in the browser): "Check a claim" (one claim,
// its quote and cited lines: step 1 the lines with their context, step 2 the
// score against the threshold, step 3 the jury's votes, consensus and log)
// and "Verify a report" (every citation of a markdown report against named
// sources). The jury is the page's offline demo jurors (demo.js, labelled
// "demo judge — not a language model") plus whatever judge functions the
// host page registered with window.evidenceValidator.registerJudge
// (registry.js, installed by main.js).
//
// Both views' inputs, the jury's settings and ticks and the view shown are
// kept in this browser (storage.js) until Clear; a restored claim gets steps 1
// and 2 at once, the jury only when the user asks (a host's jurors may cost
// money). A first visit shows the first sample, with its verdict.

import { version } from '../../library.js';
import { h, uniqueId } from '../../dom.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { acceptDrops, clearButton } from '../../widgets.js';
import { claimView } from './claim.js';
import { juryPanel } from './jury.js';
import { reportView } from './report.js';

export async function mount(panel, ctx) {
  const saved = savedWork('evidence-validator:judge', (message) => ctx.setStatus(message));
  let keeping = false; // not while the first sample loads
  const remember = () => {
    if (!keeping) return;
    saved.save(() => ({ view: root.dataset.view, claim: claim.saved(), report: report.saved(), jury: jury.saved() }));
  };
  const jury = juryPanel(() => claim.refresh());
  const claim = claimView(jury, ctx, remember);
  const report = reportView(jury, ctx, remember);
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
      h('div', { class: 'input-bar' },
        h('div', { class: 'subview-switch', role: 'group', 'aria-label': 'Judge view', id: switchId }, buttons.claim, buttons.report),
        clearButton(() => clearWork())),
      h('p', { class: 'help' }, 'Drop a source file (Check a claim), or a markdown report and its sources (Verify a report), anywhere here. ' +
        'Your claim, report, sources and jury settings are kept in this browser until you press Clear.'),
      inputsSlot,
      jury.element,
      actionsSlot),
    h('div', { class: 'results' }, resultsSlot));
  panel.append(root);
  acceptDrops(root, async (files) => {
    await views[root.dataset.view].dropFiles(files);
    ctx.setStatus(`Loaded ${files.map((f) => f.name).join(', ')}`);
    remember();
  });
  // typed edits (a box, a setting, a juror's tick); what the page changes itself calls remember
  root.addEventListener('input', remember);
  root.addEventListener('change', remember);

  function select(name) {
    root.dataset.view = name;
    for (const [k, b] of Object.entries(buttons)) b.setAttribute('aria-pressed', String(k === name));
    inputsSlot.replaceChildren(views[name].inputs);
    actionsSlot.replaceChildren(views[name].actions);
    resultsSlot.replaceChildren(views[name].results);
    remember();
  }

  /** Empties both views, resets the jury and forgets the saved work. */
  function clearWork() {
    keeping = false;
    saved.clear();
    claim.clear();
    report.clear();
    jury.reset();
    claim.refresh();
    select('claim');
    keeping = true;
    ctx.setStatus(CLEARED_NOTE);
  }

  select('claim');
  ctx.setStatus(`evidence-validator ${version()}`);
  const work = await saved.load();
  if (work) {
    jury.restore(work.jury);
    claim.restore(work.claim);
    report.restore(work.report);
    select(work.view === 'report' ? 'report' : 'claim');
    ctx.setStatus(RESTORED_NOTE);
  } else {
    claim.loadSample(0);
  }
  keeping = true;
}
