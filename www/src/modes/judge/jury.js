// The jury panel, shared by the claim and report views: which jurors sit
// (the page's demo jurors and the host's registered ones, each with a
// checkbox), the step-2 threshold, the context size and the juror timeout.
// Their defaults and ranges are the library's (defaultJudgeOptions,
// judgeOptionBounds): none is written here.

import { defaultJudgeOptions, judgeOptionBounds } from '../../library.js';
import { h, replaceChildren, uniqueId } from '../../dom.js';
import { readNumber } from '../../widgets.js';
import { DEMO_JURORS, DEMO_LABEL } from './demo.js';
import { hostJudges, onJudgesChange } from './registry.js';

/** The library's defaults (read, not copied). */
const DEFAULTS = (({ threshold, contextLines, timeoutMs }) => ({ threshold, contextLines, timeoutSeconds: timeoutMs / 1000 }))(defaultJudgeOptions());
/** The ranges the library accepts; the timeout is shown in seconds. */
const BOUNDS = (({ threshold, contextLines, timeoutMs }) => ({
  threshold, contextLines, timeoutSeconds: { min: timeoutMs.min / 1000, max: timeoutMs.max / 1000 },
}))(judgeOptionBounds());
const within = ({ min, max }) => (v) => v >= min && v <= max;

/**
 * @param {() => void} onChange  called when the settings change (not when jurors are ticked)
 */
export function juryPanel(onChange) {
  const ids = { threshold: uniqueId('jd-threshold'), context: uniqueId('jd-context'), timeout: uniqueId('jd-timeout') };
  const unchecked = new Set();

  const numberInput = (id, value, attrs) => {
    const input = h('input', { id, type: 'number', inputmode: 'decimal', ...attrs });
    input.value = String(value);
    // marked invalid at once (outside the library's range), whether or not a claim is checked
    input.addEventListener('input', () => { settings(); onChange(); });
    return input;
  };
  const threshold = numberInput(ids.threshold, DEFAULTS.threshold, { ...BOUNDS.threshold, step: 0.05, 'data-setting': 'threshold' });
  const context = numberInput(ids.context, DEFAULTS.contextLines, { ...BOUNDS.contextLines, step: 1, 'data-setting': 'contextLines' });
  const timeout = numberInput(ids.timeout, DEFAULTS.timeoutSeconds, { ...BOUNDS.timeoutSeconds, step: 'any', 'data-setting': 'timeout' });
  const numbers = { threshold, contextLines: context, timeout };
  const starts = { threshold: DEFAULTS.threshold, contextLines: DEFAULTS.contextLines, timeout: DEFAULTS.timeoutSeconds };

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
      threshold: readNumber(threshold, DEFAULTS.threshold, within(BOUNDS.threshold)),
      contextLines: readNumber(context, DEFAULTS.contextLines, (v) => Number.isInteger(v) && within(BOUNDS.contextLines)(v)),
      timeoutMs: readNumber(timeout, DEFAULTS.timeoutSeconds, within(BOUNDS.timeoutSeconds)) * 1000,
    };
  }

  /** The names of the sitting jurors (the demo jurors first, then the host's). */
  function jurors() {
    const { demo, host } = spec();
    return [...demo, ...host.map((j) => j.name)];
  }

  /**
   * The jury as plain data, for the worker (worker-engine.js builds the
   * demo jurors there and asks the host's of the page): the settings, the
   * demo jurors sitting, the host's sitting (their names and timeouts).
   */
  function spec(reportName) {
    const s = settings();
    const chosen = (name) => !unchecked.has(name);
    return {
      threshold: s.threshold, contextLines: s.contextLines, timeoutMs: s.timeoutMs, reportName,
      demo: DEMO_JURORS.map((j) => j.name).filter(chosen),
      host: hostJudges().filter((j) => chosen(j.name)).map((j) => ({ name: j.name, ...(j.timeoutMs ? { timeoutMs: j.timeoutMs } : {}) })),
    };
  }

  /** Ticks every juror box as `unchecked` says. */
  function tickJurors() {
    for (const box of element.querySelectorAll('input[data-juror]')) box.checked = !unchecked.has(box.dataset.juror);
  }

  /** The settings as typed (a bad one included: it stays marked) and the unticked jurors, for storage.js. */
  function saved() {
    return { ...Object.fromEntries(Object.entries(numbers).map(([k, input]) => [k, input.value])), unchecked: [...unchecked] };
  }

  /** Puts kept settings back (`null`: the library's defaults, every juror ticked). */
  function restore(work) {
    for (const [k, input] of Object.entries(numbers)) {
      input.value = typeof work?.[k] === 'string' ? work[k] : String(starts[k]);
      input.removeAttribute('aria-invalid');
    }
    unchecked.clear();
    for (const name of Array.isArray(work?.unchecked) ? work.unchecked : []) if (typeof name === 'string') unchecked.add(name);
    tickJurors();
  }

  return { element, settings, jurors, spec, saved, restore, reset: () => restore(null), destroy: stop };
}
