// "Verify a report": every [file:Lx-Ly](path) citation of a markdown report
// checked against named source texts with the sitting jury (verifyReport,
// spec 002 batch verification): each citation's verdict, its cited lines and
// votes, and the summary (verdict counts, verification rate).
//
// Sources are an editable list of name + text (a file loader adds files by
// their name). A citation's file is looked up by its label, then by the
// link's file name, then by the link's path, as the package does.
//
// The citations are counted and verified in the judge worker
// (worker-engine.js, issue 19; each in a worker of its own, workers.js): a
// run shows its progress (the citations the jury has sat on) and Cancel
// stops it at once.
//
// The root carries data-runs (finished runs), data-running (while a run is
// in flight) and data-state (`empty`, `running`, `ok`, `error`,
// `cancelled`) for tests.

import { download, h, replaceChildren, timeSlicer, uniqueId } from '../../dom.js';
import { fileInput, loadableText, progressRow } from '../../widgets.js';
import { quoteChangeText, renderJury, renderLines, showInputProblem, stepChip, verdictBadge, verdictTone } from './render.js';
import { reportSample } from './samples.js';
import { askHostJuror, errorOf, judgeWorker, lazy } from './workers.js';

/** More citations than this (a screen or two): those out of sight are not laid out (style.css `.is-long`). */
const LONG_LIST = 40;
/**
 * A source longer than this (UTF-16 units) is held out of its text box
 * (widgets.js loadableText): three megabytes of sources in text boxes are a
 * layout tree that every frame of the page walks and paints.
 */
const HOLD_OVER_UNITS = 200_000;

/**
 * @param {() => void} onEdit  called after a change the page made to the inputs (a sample, a file, a removed
 *   source); typed edits reach mode.js as input events
 */
export function reportView(jury, ctx, onEdit) {
  const ids = { report: uniqueId('jd-report'), reportFile: uniqueId('jd-report-file'), sourcesFile: uniqueId('jd-sources-file') };
  let runs = 0;
  let runId = 0;
  let last = null;
  const counter = judgeWorker();
  const runner = lazy(judgeWorker);

  const reportBox = h('textarea', {
    id: ids.report, class: 'report-input', rows: 12, spellcheck: 'false',
    placeholder: 'A markdown report citing its sources as [file.txt:L12-L14](path/to/file.txt).', oninput: () => updateCount(),
  });
  /** A file as the report: its text, and its name for the exported log. */
  const loadReport = async (file) => {
    reportBox.value = await file.text();
    reportName = file.name.replace(/\.[^.]*$/, '') || 'report';
    updateCount();
  };
  const reportLoader = fileInput(ids.reportFile, '.md,.markdown,.txt,text/*', async (file) => {
    await loadReport(file);
    onEdit();
  });
  let reportName = 'report';
  const citationCount = h('p', { class: 'help citation-count', 'aria-live': 'polite' });

  const sourceList = h('ol', { class: 'source-list', 'aria-label': 'Sources' });
  const sourcesLoader = fileInput(ids.sourcesFile, '.txt,.md,.markdown,.html,.htm,.csv,.json,text/*', async (files) => {
    for (const file of files) addSource(file.name, await file.text());
    onEdit();
  }, { multiple: true, label: 'Load files…' });
  const addButton = h('button', { type: 'button', class: 'secondary', onclick: () => addSource('', '').querySelector('input').focus() }, 'Add source');
  const loadSample = h('button', { type: 'button', onclick: () => applySample(true) }, 'Load sample');
  const runButton = h('button', { type: 'button', class: 'run-report', onclick: () => run() }, 'Verify report');

  const inputs = h('div', { class: 'judge-inputs' },
    h('div', { class: 'sample-bar' }, h('span', {}, 'Sample: the harbour board report, two sources (a third is missing)'), loadSample),
    h('div', { class: 'field' },
      h('div', { class: 'field-head' },
        h('label', { for: ids.report, class: 'field-label' }, 'Report (markdown)'),
        h('span', { class: 'field-tools' }, reportLoader.input, reportLoader.label)),
      reportBox, citationCount),
    h('div', { class: 'field' },
      h('div', { class: 'field-head' },
        h('span', { class: 'field-label', id: `${ids.sourcesFile}-title` }, 'Sources'),
        h('span', { class: 'field-tools' }, addButton, sourcesLoader.input, sourcesLoader.label)),
      h('p', { class: 'help' }, 'Each cited file by name. A citation\'s file is found by its label, then the link\'s file name, then the link\'s path.'),
      sourceList));

  const summary = h('div', { class: 'report-summary', role: 'status', 'aria-live': 'polite' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const list = h('ol', { class: 'citation-list', 'aria-label': 'Citations' });
  const downloads = h('div', { class: 'report-downloads', hidden: true },
    h('button', { type: 'button', class: 'secondary', onclick: () => last && download(`${last.report}_verification.md`, last.markdown, 'text/markdown') }, 'Download verification (markdown)'),
    h('button', { type: 'button', class: 'secondary', onclick: () => last && download(`${last.report}_verification.json`, `${JSON.stringify(last, null, 2)}\n`) }, 'Download JSON'));
  const results = h('div', { class: 'judge-results report-results', dataset: { runs: '0', state: 'empty' } });
  const progress = progressRow(results, 'Citations the jury has sat on', () => cancel());
  results.append(summary, progress.element, problem, downloads, list);

  /** Each source item's text (widgets.js loadableText: a long one is held out of its box). */
  const texts = new WeakMap();

  function addSource(name, text) {
    // a file with the same name replaces the text
    for (const li of sourceList.children) {
      if (name && li.querySelector('input').value === name) {
        texts.get(li).setText(text, name);
        return li;
      }
    }
    const nameId = uniqueId('jd-src-name');
    const textId = uniqueId('jd-src-text');
    const nameInput = h('input', { id: nameId, type: 'text', class: 'file-name-input', spellcheck: 'false', placeholder: 'file.txt' });
    nameInput.value = name;
    const textBox = loadableText({
      id: textId, fileId: uniqueId('jd-src-file'), rows: 5, wrap: 'off', placeholder: 'The file\'s text.', holdOver: HOLD_OVER_UNITS,
      onInput: () => {}, onLoad: () => {},
    });
    textBox.setText(text, name || null);
    const li = h('li', { class: 'source-item' },
      h('div', { class: 'field-head' },
        h('span', { class: 'field-tools' }, h('label', { for: nameId }, 'Name'), nameInput),
        h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove source ${name}`, onclick: () => { li.remove(); onEdit(); } }, 'Remove')),
      h('label', { for: textId, class: 'visually-hidden' }, 'Text'),
      textBox.element);
    texts.set(li, textBox);
    sourceList.append(li);
    return li;
  }

  /** name → text; the first of a repeated name wins (and is reported). */
  function sources() {
    const map = {};
    const repeated = [];
    for (const li of sourceList.children) {
      const name = li.querySelector('input').value.trim();
      if (!name) continue;
      if (name in map) repeated.push(name);
      else map[name] = texts.get(li).text();
    }
    return { map, repeated };
  }

  /** The report's citations, counted in the worker (a newer count replaces one in flight). */
  async function updateCount() {
    const answer = await counter.send({ type: 'count', markdown: reportBox.value });
    if (answer.type !== 'counted') return;
    const n = answer.count;
    citationCount.textContent = n === null ? '' : `${n} citation${n === 1 ? '' : 's'} found.`;
  }

  function applySample(go) {
    reportBox.value = reportSample.report;
    reportName = reportSample.name;
    sourceList.replaceChildren();
    for (const s of reportSample.sources) addSource(s.name, s.text);
    updateCount();
    onEdit();
    if (go) run();
  }

  /** Empties the report and its sources (and the results, which were theirs). */
  function reset(report, name, kept) {
    runId++;
    runner().stop('superseded'); // its run ends unseen
    progress.set(null);
    runButton.disabled = false;
    runButton.textContent = 'Verify report';
    reportBox.value = report;
    reportName = name;
    sourceList.replaceChildren();
    for (const s of kept) addSource(s.name, s.text);
    updateCount();
    last = null;
    problem.hidden = true;
    summary.replaceChildren();
    list.replaceChildren();
    downloads.hidden = true;
    results.dataset.state = 'empty';
  }

  async function run() {
    const id = ++runId;
    const { map, repeated } = sources();
    problem.hidden = true;
    runButton.disabled = true;
    runButton.textContent = 'Verifying…';
    results.dataset.state = 'running';
    replaceChildren(summary, h('p', { class: 'muted' }, 'Verifying every citation…'));
    const answer = await runner().send({ type: 'report', markdown: reportBox.value, sources: map, jury: jury.spec(reportName) }, {
      onProgress: (p) => progress.set({ ...p, what: (done, total) => `The jury has sat on ${done} of ${total} citations…` }),
      onAsk: askHostJuror,
    });
    if (answer.type === 'superseded') return; // a newer run, or Clear: it says what it is
    progress.set(null);
    runButton.disabled = false;
    runButton.textContent = 'Verify report';
    if (answer.type === 'cancelled') {
      replaceChildren(summary, h('p', { class: 'muted' }, 'Cancelled: the citations were not verified. Press "Verify report" to run again.'));
      list.replaceChildren();
      downloads.hidden = true;
      last = null;
      results.dataset.state = 'cancelled';
      return;
    }
    if (answer.type === 'failed') {
      if (id !== runId) return;
      showInputProblem(problem, errorOf(answer), 'then press "Verify report" again');
      summary.replaceChildren();
      list.replaceChildren();
      downloads.hidden = true;
      last = null;
      results.dataset.state = 'error';
      return;
    }
    runs++;
    results.dataset.runs = String(runs);
    if (id !== runId) return;
    const { report, logs } = answer;
    last = report;
    if (!await show(report, logs, repeated, timeSlicer(() => id === runId))) return;
    results.dataset.state = 'ok';
    ctx.setStatus(`Report: ${report.summary.verified} of ${report.summary.total} citations verified`);
  }

  function cancel() {
    if (runner().cancel()) ctx.setStatus('Cancelled: the verification in progress stopped.');
  }

  /**
   * The summary and each citation, built a slice at a time (`slice`: dom.js
   * timeSlicer; false once a newer run or Clear came: then this resolves
   * false) out of the page, then shown at once (the citations out of sight
   * are not laid out, style.css).
   */
  async function show(report, logs, repeated, slice) {
    const s = report.summary;
    const rate = `${(s.verification_rate * 100).toFixed(1)} %`;
    const { contextLines } = jury.settings();
    // the log entries of each citation: every juror's n-th entry (entry.number, counted per juror over
    // the whole report) is for the n-th citation the jury sat on
    let sat = 0;
    const built = [];
    for (const c of report.results) {
      const r = c.result;
      const n = r.jury.convened ? ++sat : 0;
      const own = n ? logs.filter((e) => e.number === n) : [];
      const cit = c.citation;
      built.push(h('li', { class: `citation tone-${verdictTone(r.verdict)}`, dataset: { index: String(cit.index), verdict: r.verdict } },
        h('div', { class: 'citation-head' },
          h('span', { class: 'citation-no' }, `#${cit.index}`),
          verdictBadge(r.verdict, 'citation-verdict'),
          h('code', { class: 'citation-md' }, cit.markdown),
          h('span', { class: 'muted' }, ` report line ${cit.report_line}`)),
        h('dl', { class: 'citation-facts' },
          h('dt', {}, 'Claim'), h('dd', { class: 'citation-claim' }, cit.claim),
          h('dt', {}, 'Quote'), h('dd', { class: 'citation-quote' }, cit.quote),
          h('dt', {}, 'File'), h('dd', {}, c.resolved_file ?? h('span', { class: 'step-error' }, `not among the sources (${cit.file})`)),
          h('dt', {}, 'Steps'), h('dd', {},
            stepChip(r.step_1_existence, { pass: 'lines exist', fail: 'lines' }), ' ',
            r.step_1_existence ? stepChip(r.step_2_quote_match, { pass: `quote ${r.quote_score.toFixed(2)}`, fail: `quote ${r.quote_score.toFixed(2)}` }) : null, ' ',
            r.step_3_semantic ? h('span', { class: 'citation-jury' }, r.step_3_semantic.reason) : null),
          r.error ? [h('dt', {}, 'Error'), h('dd', { class: 'step-error' }, r.error)] : null,
          r.quote_changes?.length ? [h('dt', {}, 'Changes'), h('dd', { class: 'step-error quote-changes' }, r.quote_changes.map(quoteChangeText).join(' '))] : null),
        r.step_1_existence ? h('details', { class: 'citation-more' },
          h('summary', {}, r.jury.convened ? 'Cited lines, votes and log' : 'Cited lines'),
          renderLines(r, contextLines, `${r.cited_lines} of ${r.filename}`),
          r.jury.convened ? renderJury(r, own) : null) : null));
      if (!await slice()) return false;
    }
    list.classList.toggle('is-long', built.length > LONG_LIST);
    list.replaceChildren(...built);
    replaceChildren(summary,
      h('p', { class: 'summary-line' }, h('strong', {}, `${s.verified} of ${s.total} citation${s.total === 1 ? '' : 's'} verified (${rate}).`),
        s.jury_convened ? '' : ' The jury was not convened (no juror ticked): steps 1 and 2 only.'),
      h('ul', { class: 'verdict-counts', 'aria-label': 'Verdict counts' },
        Object.entries(s.verdicts).map(([v, n]) => h('li', { dataset: { verdict: v } }, verdictBadge(v), ` ${n}`))),
      repeated.length ? h('p', { class: 'claim-warning' }, `Repeated source names (the first is used): ${repeated.join(', ')}`) : null);
    downloads.hidden = false;
    return true;
  }

  updateCount();
  return {
    inputs,
    actions: h('div', { class: 'judge-actions' }, runButton),
    results,
    loadSample: () => applySample(true),
    /** Dropped files: the first markdown file is the report, the others are sources. */
    async dropFiles(files) {
      const report = files.find((f) => /\.(md|markdown)$/i.test(f.name));
      if (report) await loadReport(report);
      for (const file of files) if (file !== report) addSource(file.name, await file.text());
      onEdit();
    },
    /** The report and its sources, for storage.js. */
    saved: () => ({
      report: reportBox.value, reportName,
      sources: [...sourceList.children].map((li) => ({ name: li.querySelector('input').value, text: texts.get(li).stored() })),
    }),
    /** Puts a kept report and its sources back (verified when the user asks). */
    restore(work) {
      const list = Array.isArray(work?.sources)
        ? work.sources.filter((s) => typeof s?.name === 'string' && typeof s?.text === 'string') : [];
      reset(typeof work?.report === 'string' ? work.report : '', typeof work?.reportName === 'string' ? work.reportName : 'report', list);
    },
    clear: () => reset('', 'report', []),
    get report() { return last; },
  };
}
