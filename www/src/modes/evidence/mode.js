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
import { InputError, parseClaims } from './claims.js';
import { configPanel } from './config.js';
import { samples } from './samples.js';
import { collectSpans, failuresByClaim, segment, STATUS_LABEL } from './spans.js';
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
  const sampleSelect = h('select', { id: ids.sample }, samples.map((s) => h('option', { value: s.id }, s.label)));
  const loadSample = h('button', { type: 'button', onclick: () => applySample(sampleSelect.value) }, 'Load sample');

  const formatSelect = h('select', { id: ids.format, onchange: () => schedule() },
    FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const sourceBox = h('textarea', {
    id: ids.source, class: 'source-input', spellcheck: 'false', rows: 14, wrap: 'soft',
    placeholder: 'Paste a source document: markdown, HTML or plain text.', oninput: () => schedule(),
  });
  const claimsBox = h('textarea', {
    id: ids.claims, class: 'claims-input', spellcheck: 'false', rows: 10, 'aria-describedby': ids.claimsHelp,
    placeholder: 'One quote per line, or JSON: { "claims": [ { "id": "EV001", "task_id": "P1.T001", "evidence_type": "direct_quote", "quote": "…" } ] }',
    oninput: () => schedule(),
  });
  const sourceFile = fileInput(ids.sourceFile, '.md,.markdown,.html,.htm,.txt,text/*', async (file) => {
    sourceBox.value = await file.text();
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    formatSelect.value = FORMAT_BY_EXTENSION[ext] ?? 'auto';
    run();
  });
  const claimsFile = fileInput(ids.claimsFile, '.json,.txt,application/json,text/plain', async (file) => {
    claimsBox.value = await file.text();
    run();
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
      h('div', { class: 'sample-bar' },
        h('label', { for: ids.sample }, 'Sample'), sampleSelect, loadSample),
      h('div', { class: 'field' },
        h('div', { class: 'field-head' },
          h('label', { for: ids.source, class: 'field-label' }, 'Source document'),
          h('span', { class: 'field-tools' },
            h('label', { for: ids.format }, 'Format'), formatSelect,
            sourceFile.input, sourceFile.label)),
        sourceBox),
      h('div', { class: 'field' },
        h('div', { class: 'field-head' },
          h('label', { for: ids.claims, class: 'field-label' }, 'Claims'),
          h('span', { class: 'field-tools' }, claimsFile.input, claimsFile.label)),
        claimsBox,
        h('p', { id: ids.claimsHelp, class: 'help' },
          'JSON in the spec 000 shape, or one quote per line (each becomes a direct_quote claim EV001, EV002, … of task P1.T001).')),
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
    replaceChildren(problem, h('strong', {}, `${where}: `), code ? `${code}: ` : '', message.replace(/^[A-Z_]+: /, ''));
    problem.hidden = false;
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
    renderClaims(rep);
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

  function renderClaims(rep) {
    if (!rep) {
      replaceChildren(claimList);
      warningList.hidden = true;
      return;
    }
    const failures = failuresByClaim(rep);
    const warningsOf = (id) => rep.warnings.filter((w) => w.claim_id === id);
    const items = rep.validated_claims.map((r, i) => {
      const status = r.validation_status;
      const cls = status.toLowerCase().replace('_', '-');
      const m = r.match_details;
      const key = `c${i}.m`;
      const meta = m
        ? [`${m.match_type}`, `confidence ${r.confidence_score.toFixed(2)}`,
          typeof m.edit_distance === 'number' && m.edit_distance >= 0 ? `edit distance ${m.edit_distance}` : null, `line ${m.line_number}`]
        : [`confidence ${r.confidence_score.toFixed(2)}`, 'not found in the source'];
      const quote = quoteOf(i);
      const button = h('button', {
        type: 'button', class: 'claim-button', dataset: { span: key, claim: r.claim_id },
        'aria-disabled': m ? null : 'true',
        onclick: () => (m ? focusSpan(key) : ctx.setStatus(`${r.claim_id} has no span in the source`)),
      },
      h('span', { class: `badge badge-${cls}` }, STATUS_LABEL[status] ?? status),
      h('span', { class: 'claim-id' }, r.claim_id),
      h('span', { class: 'claim-quote' }, quote ? `“${quote}”` : ''),
      h('span', { class: 'claim-meta' }, meta.filter(Boolean).join(' · ')));
      const f = failures[i];
      const details = [];
      if (f) {
        details.push(h('p', { class: 'failure-reason' }, h('strong', {}, 'Reason: '), f.failure_reason.toLowerCase().replaceAll('_', ' ')));
        if (f.suggestions.length) details.push(h('ul', { class: 'suggestions' }, f.suggestions.map((s) => h('li', {}, s))));
        if (f.attempted_matches.length) {
          details.push(h('p', { class: 'candidates-title' }, 'Nearest candidates:'));
          details.push(h('ul', { class: 'candidates' }, f.attempted_matches.map((a, j) => {
            const own = m && a.utf16_start === m.utf16_start && a.utf16_end === m.utf16_end;
            const ckey = own ? key : `c${i}.c${j}`;
            return h('li', {},
              h('button', { type: 'button', class: 'candidate-button', dataset: { span: ckey }, onclick: () => focusSpan(ckey) },
                `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.candidate_text, 90)}”`),
              h('span', { class: 'rejection' }, ` ${a.rejection_reason}`));
          })));
        }
      }
      if (r.alternative_matches.length) {
        details.push(h('p', { class: 'candidates-title' }, 'Other places:'));
        details.push(h('ul', { class: 'candidates' }, r.alternative_matches.map((a, j) =>
          h('li', {}, h('button', { type: 'button', class: 'candidate-button', dataset: { span: `c${i}.a${j}` }, onclick: () => focusSpan(`c${i}.a${j}`) },
            `line ${a.line_number} · ${a.confidence_score.toFixed(2)} · “${clip(a.matched_text, 90)}”`)))));
      }
      for (const w of warningsOf(r.claim_id)) details.push(h('p', { class: 'claim-warning' }, `${w.code}: ${w.message}`));
      return h('li', { class: `claim claim-${cls}`, dataset: { claim: r.claim_id, index: String(i) } },
        button, details.length ? h('div', { class: 'claim-details' }, details) : null);
    });
    replaceChildren(claimList, items);
    const general = rep.warnings.filter((w) => !w.claim_id).concat(rep.errors.map((e) => ({ code: e.code, message: e.message })));
    replaceChildren(warningList, general.map((w) => h('li', {}, `${w.code}: ${w.message}`)));
    warningList.hidden = general.length === 0;
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
    for (const m of sourceView.querySelectorAll('mark.is-current')) m.classList.remove('is-current');
    for (const m of marks) m.classList.add('is-current');
    currentKey = key;
    marks[0].scrollIntoView({ block: 'center', inline: 'nearest' });
    marks[0].focus({ preventScroll: true });
    return true;
  }

  /** Clicking (or Enter on) a mark marks its claim in the list. */
  function selectClaimOf(mark) {
    const key = (mark.dataset.spans ?? '').split(' ')[0];
    const span = spansByKey.get(key);
    if (!span) return;
    for (const li of claimList.querySelectorAll('li.claim.is-selected')) li.classList.remove('is-selected');
    const li = claimList.querySelector(`li.claim[data-index="${span.claim}"]`);
    if (li) {
      li.classList.add('is-selected');
      li.scrollIntoView({ block: 'nearest' });
    }
  }

  function exportReport() {
    if (!report) return;
    download('evidence-report.json', `${JSON.stringify(report, null, 2)}\n`);
  }
}

function legendItem(classes, label) {
  return h('li', {}, h('mark', { class: `hl ${classes} legend-swatch`, 'aria-hidden': 'true' }, 'Abc'), ` ${label}`);
}

/** A visually hidden file input with a button-like label (keyboard: the input itself is focusable). */
function fileInput(id, accept, onFile) {
  const input = h('input', {
    id, type: 'file', accept, class: 'file-input',
    onchange: async () => {
      const file = input.files?.[0];
      if (file) await onFile(file);
      input.value = '';
    },
  });
  const label = h('label', { for: id, class: 'file-label' }, 'Load file…');
  // The input comes first in the DOM so that CSS can show its focus on the label.
  return { input, label };
}

/** At most `n` code points (never half an emoji), whitespace collapsed. */
function clip(text, n) {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > n ? `${chars.slice(0, n - 1).join('')}…` : chars.join('');
}
