// Evidence mode (spec 000): a source document and the quotes an LLM cited
// from it; every matched span highlighted in place, re-validated as the user
// types.
//
// One `Document` (the parsed, indexed source) is kept while the source text
// and the format stay the same: editing the claims or the thresholds only
// re-runs `doc.validate`. A changed source or format builds a new one and
// frees the old one's wasm memory.
//
// Format: the selector, or with "Auto-detect" the claims' own
// `source_metadata.format` when they give one, else the library's detection.
//
// For tests and curious readers, the mode's root element carries
// data-validations (runs finished), data-doc-builds (Documents built) and
// data-state (`empty`, `ok` or `error`).

import { Document, version } from 'evidence-validator';
import { debounce, download, h, onMarkActivate, replaceChildren, uniqueId } from '../../dom.js';
import { clip, extensionOf, field, legendItem, loadableText, sampleBar, selectIn, showCurrent, showProblem } from '../../widgets.js';
import { renderClaimList } from './claim-list.js';
import { InputError, parseClaims } from './claims.js';
import { configPanel } from './config.js';
import { samples } from './samples.js';
import { collectSpans, segment } from './spans.js';
import { attachTooltip, renderSource } from './view.js';

const DEBOUNCE_MS = 150;
const FORMATS = [['auto', 'Auto-detect'], ['markdown', 'Markdown'], ['html', 'HTML'], ['plain_text', 'Plain text']];
const FORMAT_BY_EXTENSION = { md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html', txt: 'plain_text' };

export function mount(panel, ctx) {
  const ids = {
    source: uniqueId('ev-source'), claims: uniqueId('ev-claims'), format: uniqueId('ev-format'),
    sample: uniqueId('ev-sample'), tooltip: uniqueId('ev-tooltip'), viewTitle: uniqueId('ev-view-title'),
    claimsHelp: uniqueId('ev-claims-help'), sourceFile: uniqueId('ev-source-file'), claimsFile: uniqueId('ev-claims-file'),
  };

  // ---- state ----
  /** @type {Document|null} */
  let doc = null;
  let docKey = null;
  let docBuilds = 0;
  let validations = 0;
  let report = null;
  let spansByKey = new Map();
  let marksBySpan = new Map();
  let currentKey = null;
  /** The claims as the user gave them (the report does not repeat the quotes). */
  let givenClaims = [];

  // ---- inputs ----
  const sample = sampleBar(ids.sample, samples, (id) => applySample(id));
  const formatSelect = h('select', { id: ids.format, onchange: () => schedule() },
    FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const { box: sourceBox, file: sourceFile } = loadableText({
    id: ids.source, fileId: ids.sourceFile, accept: '.md,.markdown,.html,.htm,.txt,text/*',
    class: 'source-input', rows: 14, wrap: 'soft', placeholder: 'Paste a source document: markdown, HTML or plain text.',
    onInput: () => schedule(),
    onLoad: (file) => { formatSelect.value = FORMAT_BY_EXTENSION[extensionOf(file.name)] ?? 'auto'; run(); },
  });
  const { box: claimsBox, file: claimsFile } = loadableText({
    id: ids.claims, fileId: ids.claimsFile, accept: '.json,.txt,application/json,text/plain',
    class: 'claims-input', rows: 10, 'aria-describedby': ids.claimsHelp,
    placeholder: 'One quote per line, or JSON: { "claims": [ { "id": "EV001", "task_id": "P1.T001", "evidence_type": "direct_quote", "quote": "…" } ] }',
    onInput: () => schedule(), onLoad: () => run(),
  });
  const config = configPanel(() => schedule());

  // ---- results ----
  const summary = h('p', { class: 'summary', role: 'status', 'aria-live': 'polite' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const exportButton = h('button', { type: 'button', disabled: true, onclick: exportReport }, 'Export report JSON');
  const tooltip = h('div', { id: ids.tooltip, class: 'tooltip', role: 'tooltip', hidden: true });
  const sourceView = h('pre', { class: 'source-view', 'aria-labelledby': ids.viewTitle });
  const viewer = h('div', { class: 'viewer' }, sourceView);
  const claimList = h('ol', { class: 'claim-list', 'aria-label': 'Claims' });
  const warningList = h('ul', { class: 'warning-list', hidden: true });

  const legend = h('ul', { class: 'legend', 'aria-label': 'Legend' },
    legendItem('hl-validated', 'Validated'),
    legendItem('hl-low-confidence', 'Low confidence'),
    legendItem('hl-ambiguous', 'Ambiguous'),
    legendItem('hl-failed hl-candidate', 'Rejected candidate of a failed claim'),
    legendItem('hl-validated hl-overlap', 'Covered by more than one claim'),
    h('li', {}, h('mark', { class: 'hl hl-low-confidence legend-swatch', 'aria-hidden': 'true' },
      h('del', { class: 'edit-del' }, 'his'), h('ins', { class: 'edit-ins', dataset: { quote: 'her' } })),
    ' Source word the quote changed, and what the quote has'),
    h('li', {}, h('mark', { class: 'hl hl-validated legend-swatch', 'aria-hidden': 'true' },
      h('span', { class: 'edit-typo' }, 'receive')), ' Typo in the quote (still validated)'));

  const root = h('div', { class: 'evidence-mode', dataset: { validations: '0', docBuilds: '0', state: 'empty' } },
    h('div', { class: 'inputs' },
      sample.element,
      field(ids.source, 'Source document', sourceBox,
        { tools: [h('label', { for: ids.format }, 'Format'), formatSelect, sourceFile.input, sourceFile.label] }),
      field(ids.claims, 'Claims', claimsBox, {
        tools: [claimsFile.input, claimsFile.label],
        help: h('p', { id: ids.claimsHelp, class: 'help' },
          'JSON in the spec 000 shape, or one quote per line (each becomes a direct_quote claim EV001, EV002, … of task P1.T001).'),
      }),
      h('details', { class: 'config' },
        h('summary', {}, 'Matching thresholds'),
        config.element)),
    h('div', { class: 'results' },
      h('div', { class: 'results-head' },
        h('h2', { id: ids.viewTitle }, 'Highlighted source'),
        exportButton),
      summary,
      problem,
      legend,
      viewer,
      h('h2', {}, 'Claims'),
      claimList,
      warningList),
    tooltip);
  panel.append(root);

  const tip = attachTooltip(viewer, tooltip, (mark) =>
    (mark.dataset.spans ?? '').split(' ').map((k) => spansByKey.get(k)).filter(Boolean));
  onMarkActivate(viewer, selectClaimOf);

  const schedule = debounce(run, DEBOUNCE_MS);
  ctx.setStatus(`evidence-validator ${version()}`);
  renderEmpty();

  // ---- behaviour ----

  function applySample(id) {
    const s = samples.find((x) => x.id === id) ?? samples[0];
    sourceBox.value = s.source;
    claimsBox.value = s.claims;
    formatSelect.value = 'auto';
    run();
  }

  /** The Document for this source and format: the current one, or a new one (the old one freed). */
  function documentFor(source, format) {
    const key = `${format ?? 'auto'}\u0000${source}`;
    if (doc !== null && docKey === key) return doc;
    if (doc !== null) doc.free();
    doc = null;
    docKey = null;
    const built = new Document(source, format ? { format } : null);
    doc = built;
    docKey = key;
    docBuilds++;
    return built;
  }

  function run() {
    schedule.cancel();
    const source = sourceBox.value;
    const claimsText = claimsBox.value;
    tip.hide();
    let parsed;
    try {
      parsed = parseClaims(claimsText);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return fail(source, 'Claims', e.message + (e.where ? ` (${e.where})` : ''));
    }
    givenClaims = Array.isArray(parsed.claims) ? parsed.claims : Array.isArray(parsed.claims?.claims) ? parsed.claims.claims : [];
    const chosen = formatSelect.value;
    const format = chosen !== 'auto' ? chosen : (FORMATS.some(([v]) => v === parsed.format) ? parsed.format : null);
    if (source === '' && parsed.count === 0) return renderEmpty();
    const started = performance.now();
    let rebuilt;
    try {
      const before = docBuilds;
      const d = documentFor(source, format);
      rebuilt = docBuilds !== before;
      if (parsed.count === 0) {
        report = null;
        showResult(source, null, { ms: performance.now() - started, rebuilt, format: d.format });
        return;
      }
      report = d.validate(parsed.claims, config.read());
    } catch (e) {
      if (e?.name !== 'EvidenceValidatorError') throw e;
      const where = e.code === 'CONFIGURATION_ERROR' ? 'Thresholds'
        : e.code === 'DOCUMENT_PARSING_ERROR' || e.details?.constraint === 'max_document_size_mb' ? 'Source' : 'Claims';
      // The library's message names the JSON path already ("… at $.claims[0].id").
      return fail(source, where, e.message, e.code);
    }
    showResult(source, report, { ms: performance.now() - started, rebuilt, format: doc.format });
  }

  function finish(state) {
    validations++;
    root.dataset.validations = String(validations);
    root.dataset.docBuilds = String(docBuilds);
    root.dataset.state = state;
  }

  function renderEmpty() {
    report = null;
    exportButton.disabled = true;
    problem.hidden = true;
    spansByKey = new Map();
    marksBySpan = new Map();
    replaceChildren(sourceView, h('span', { class: 'placeholder' },
      'Paste a source document and claims, or load a sample, to see the quoted spans highlighted here.'));
    replaceChildren(claimList);
    warningList.hidden = true;
    summary.textContent = 'No claims yet.';
    root.dataset.state = 'empty';
  }

  /** Shows an input problem: the source stays visible, unhighlighted. */
  function fail(source, where, message, code) {
    report = null;
    exportButton.disabled = true;
    spansByKey = new Map();
    marksBySpan = new Map();
    showProblem(problem, where, message, code);
    replaceChildren(sourceView, source);
    replaceChildren(claimList);
    warningList.hidden = true;
    summary.textContent = 'Not validated: fix the problem below.';
    finish('error');
  }

  function showResult(source, rep, { ms, rebuilt, format }) {
    problem.hidden = true;
    exportButton.disabled = rep === null;
    const spans = rep ? collectSpans(rep) : [];
    spansByKey = new Map(spans.map((s) => [s.key, s]));
    const scrollTop = viewer.scrollTop;
    marksBySpan = renderSource(sourceView, source, segment(source.length, spans), ids.tooltip);
    viewer.scrollTop = scrollTop;
    if (currentKey && marksBySpan.has(currentKey)) for (const m of marksBySpan.get(currentKey)) m.classList.add('is-current');
    else currentKey = null;
    renderClaimList(claimList, warningList, rep, { quoteOf, focusSpan, setStatus: ctx.setStatus });
    const timing = `${format.replace('_', ' ')}, ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms${rebuilt ? '' : ', index reused'}`;
    if (rep) {
      const s = rep.validation_summary;
      summary.textContent = `${s.total_claims} claims: ${s.validated_claims} validated, ${s.low_confidence_claims} low confidence, ` +
        `${s.ambiguous_claims} ambiguous, ${s.total_claims - s.validated_claims - s.low_confidence_claims - s.ambiguous_claims} failed (${timing}).`;
    } else {
      summary.textContent = `No claims yet (${timing}).`;
    }
    finish('ok');
  }

  /** The quote of claim `i` as the user gave it. */
  function quoteOf(i) {
    const q = givenClaims[i]?.quote;
    return typeof q === 'string' ? clip(q, 140) : '';
  }

  /** Scrolls the span into view, focuses its first mark and outlines all its marks. */
  function focusSpan(key) {
    const marks = marksBySpan.get(key);
    if (!marks?.length) return false;
    showCurrent(sourceView, marks);
    currentKey = key;
    return true;
  }

  /** Clicking (or Enter on) a mark marks its claim in the list. */
  function selectClaimOf(mark) {
    const key = (mark.dataset.spans ?? '').split(' ')[0];
    const span = spansByKey.get(key);
    if (span) selectIn(claimList, 'li.claim', claimList.querySelector(`li.claim[data-index="${span.claim}"]`));
  }

  function exportReport() {
    if (!report) return;
    download('evidence-report.json', `${JSON.stringify(report, null, 2)}\n`);
  }
}
