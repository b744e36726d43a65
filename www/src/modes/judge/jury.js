// The jury panel, shared by the claim and report views: which jurors sit
// (the page's demo jurors and the host's registered ones, each with a
// checkbox), the step-2 threshold, the context size and the juror timeout.

import { defaultJudgeOptions, quoteScore } from 'evidence-validator';
import { h, replaceChildren, uniqueId } from '../../dom.js';
import { readNumber } from '../../widgets.js';
import { DEMO_JURORS, DEMO_LABEL, demoJury } from './demo.js';
import { hostJudges, onJudgesChange } from './registry.js';

/** The library's defaults (read, not copied). */
const DEFAULTS = (({ threshold, contextLines, timeoutMs }) => ({ threshold, contextLines, timeoutSeconds: timeoutMs / 1000 }))(defaultJudgeOptions());

/**
 * @param {() => void} onChange  called when the settings change (not when jurors are ticked)
 */
export function juryPanel(onChange) {
  const ids = { threshold: uniqueId('jd-threshold'), context: uniqueId('jd-context'), timeout: uniqueId('jd-timeout') };
  const unchecked = new Set();

  const numberInput = (id, value, attrs) => {
    const input = h('input', { id, type: 'number', inputmode: 'decimal', ...attrs });
    input.value = String(value);
    input.addEventListener('input', onChange);
    return input;
  };
  const threshold = numberInput(ids.threshold, DEFAULTS.threshold, { min: 0, max: 1, step: 0.05, 'data-setting': 'threshold' });
  const context = numberInput(ids.context, DEFAULTS.contextLines, { min: 0, max: 50, step: 1, 'data-setting': 'contextLines' });
  const timeout = numberInput(ids.timeout, DEFAULTS.timeoutSeconds, { min: 1, max: 3600, step: 1, 'data-setting': 'timeout' });

  const demoList = h('ul', { class: 'juror-list', 'aria-label': 'Demo jurors' });
  const hostList = h('ul', { class: 'juror-list', 'aria-label': 'Host jurors' });
  const hostNote = h('p', { class: 'help host-note' });

  function jurorItem(name, description, tag) {
    const id = uniqueId('jd-juror');
    const box = h('input', {
      id, type: 'checkbox', dataset: { juror: name },
      onchange: () => { if (box.checked) unchecked.delete(name); else unchecked.add(name); },
    });
    box.checked = !unchecked.has(name);
    return h('li', { class: 'juror-item' }, box,
      h('label', { for: id },
        h('span', { class: 'juror-name' }, name), tag,
        description ? h('span', { class: 'juror-rule' }, description) : null));
  }

  demoList.append(...DEMO_JURORS.map((j) => jurorItem(j.name, j.description, h('span', { class: 'demo-tag' }, DEMO_LABEL))));

  function renderHost() {
    const host = hostJudges();
    hostList.replaceChildren(...host.map((j) => jurorItem(j.name, j.label, h('span', { class: 'host-tag' }, 'host judge'))));
    hostList.hidden = host.length === 0;
    replaceChildren(hostNote, host.length === 0
      ? ['No host judge registered. A host page adds its own (a local model, an API) with ',
        h('code', {}, 'window.evidenceValidator.registerJudge(name, fn)'), '; see www/README.md.']
      : 'Registered by the host page with window.evidenceValidator.registerJudge.');
  }
  renderHost();
  const stop = onJudgesChange(renderHost);

  const element = h('fieldset', { class: 'jury-panel' },
    h('legend', {}, 'Jury and settings'),
    h('p', { class: 'demo-banner', role: 'note' },
      h('strong', {}, 'The demo jurors are deterministic rules shipped with this page: '), `${DEMO_LABEL}. `,
      'They read the claim\'s words, not its meaning; plug in real jurors for real verdicts.'),
    demoList,
    h('h3', { class: 'juror-group-title' }, 'Host judges'),
    hostNote,
    hostList,
    h('div', { class: 'settings-row' },
      h('label', { for: ids.threshold }, 'Step 2 threshold'), threshold,
      h('label', { for: ids.context }, 'Context lines'), context,
      h('label', { for: ids.timeout }, 'Juror timeout (s)'), timeout));

  function settings() {
    return {
      threshold: readNumber(threshold, DEFAULTS.threshold, (v) => v >= 0 && v <= 1),
      contextLines: readNumber(context, DEFAULTS.contextLines, (v) => Number.isInteger(v) && v >= 0 && v <= 1000),
      timeoutMs: readNumber(timeout, DEFAULTS.timeoutSeconds, (v) => v > 0 && v <= 86400) * 1000,
    };
  }

  /** The sitting jurors (JurorSpec[]), for verifyClaim/verifyReport. */
  function jurors() {
    const { threshold: t } = settings();
    const chosen = (name) => !unchecked.has(name);
    return [
      ...demoJury({ threshold: t, quoteScore, only: DEMO_JURORS.map((j) => j.name).filter(chosen) }),
      ...hostJudges().filter((j) => chosen(j.name)).map((j) => ({
        name: j.name, ask: (prompt, ctx) => j.ask(prompt, ctx), ...(j.timeoutMs ? { timeoutMs: j.timeoutMs } : {}),
      })),
    ];
  }

  /** Options for verifyClaim/verifyReport (without `log`). */
  function options() {
    const s = settings();
    const judges = jurors();
    return { threshold: s.threshold, contextLines: s.contextLines, timeoutMs: s.timeoutMs, ...(judges.length ? { judges } : {}) };
  }

  return { element, settings, jurors, options, destroy: stop };
}
