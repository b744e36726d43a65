// Evidence mode (spec 000): a source document and the quotes an LLM cited
// from it; every matched span highlighted in place, re-validated as the user
// types.
//
// The library runs in a Web Worker (worker.js) that holds the parsed, indexed
// `Document` while the source text and the format stay the same, and keeps
// each claim's outcome while the configuration does too: editing one claim
// revalidates that claim only. The page only renders; a long run shows its
// progress and a Cancel button, and ends at the configured time limit.
//
// A claim the library refuses (VALIDATION_ERROR) or a JSON line that cannot
// be read is marked in place with its error; the other claims keep their
// results. Claims that are not valid JSON at all leave the last results on
// screen, marked as out of date, with the problem above them.
//
// Format: the selector, or with "Auto-detect" the claims' own
// `source_metadata.format` when they give one, else the library's detection
// (shown in the selector's Auto-detect option).
//
// For tests and curious readers, the mode's root element carries
// data-validations (runs finished), data-doc-builds (Documents built) and
// data-state (`empty`, `ok`, `error`, `cancelled`, `timeout`), data-checked
// (claims the library checked in the last run: the others' outcomes were
// kept), and data-running while a run is in flight.

import { version } from '../../library.js';
import { afterNextFrame, debounce, download, h, onMarkActivate, replaceChildren, timeSlicer, uniqueId } from '../../dom.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { acceptDrops, clearButton, extensionOf, field, legendItem, loadableText, sampleBar, showCurrent, showProblem } from '../../widgets.js';
import { claimListRenderer, kindOf } from './claim-list.js';
import { configPanel } from './config.js';
import { reanchorPanel } from './reanchor-panel.js';
import { samples } from './samples.js';
import { claimText, reportMarkdown } from './share.js';
import { claimSpans, segmentSliced } from './spans.js';
import { attachTooltip, sourceRenderer } from './view.js';
import { evidenceWorker } from './worker-client.js';

const DEBOUNCE_MS = 150;
/** A run's progress row shows once it has run this long (ms). */
const PROGRESS_DELAY_MS = 200;
/** A source or claims text longer than this (UTF-16 units) is held out of its text box (widgets.js loadableText). */
const HOLD_OVER_UNITS = 200_000;
const FORMATS = [['auto', 'Auto-detect'], ['markdown', 'Markdown'], ['html', 'HTML'], ['plain_text', 'Plain text']];
const CLAIMS_EXTENSIONS = ['json', 'jsonl', 'ndjson'];
const FORMAT_BY_EXTENSION = { md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html', txt: 'plain_text' };

export function mount(panel, ctx) {
  const ids = {
    source: uniqueId('ev-source'), claims: uniqueId('ev-claims'), format: uniqueId('ev-format'),
    sample: uniqueId('ev-sample'), tooltip: uniqueId('ev-tooltip'), viewTitle: uniqueId('ev-view-title'),
    claimsHelp: uniqueId('ev-claims-help'), sourceFile: uniqueId('ev-source-file'), claimsFile: uniqueId('ev-claims-file'),
  };

  // ---- state ----
  const worker = evidenceWorker();
  let docBuilds = 0;
  let validations = 0;
  /** Bumped by each result shown: an older one still drawing stops. */
  let shownGeneration = 0;
  /** What the last finished run showed: { runId, source, entries, config, format, checked } (null: nothing). */
  let shown = null;
  let spansByKey = new Map();
  /** Claim index → { entry, spans } of the last result drawn (an unchanged entry's spans are not built again). */
  let spansOf = new Map();
  let currentKey = null;
  /** The worker's last finished run: { runId, heads, entries } (worker-engine.js; null: none, or its worker was replaced). */
  let lastRun = null;

  // ---- inputs ----
  const sample = sampleBar(ids.sample, samples, (id) => applySample(id));
  const formatSelect = h('select', { id: ids.format, onchange: () => schedule() },
    FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const sourceText = loadableText({
    id: ids.source, fileId: ids.sourceFile, accept: '.md,.markdown,.html,.htm,.txt,text/*',
    class: 'source-input', rows: 14, holdOver: HOLD_OVER_UNITS, wrap: 'soft', placeholder: 'Paste a source document: markdown, HTML or plain text.',
    onInput: () => schedule(),
    onLoad: (file) => sourceLoaded(file),
  });
  const claimsText = loadableText({
    id: ids.claims, fileId: ids.claimsFile, accept: '.json,.jsonl,.ndjson,.txt,application/json,text/plain',
    class: 'claims-input', rows: 10, holdOver: HOLD_OVER_UNITS, 'aria-describedby': ids.claimsHelp,
    placeholder: 'One quote per line, or JSON: { "claims": [ { "id": "EV001", "task_id": "P1.T001", "evidence_type": "direct_quote", "quote": "…" } ] }',
    onInput: () => schedule(), onLoad: () => run(),
  });
  const { file: sourceFile } = sourceText;
  const { box: claimsBox, file: claimsFile } = claimsText;
  const thresholds = configPanel(() => schedule());

  // ---- results ----
  const summary = h('p', { class: 'summary', role: 'status', 'aria-live': 'polite' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const exportButton = h('button', { type: 'button', disabled: true, onclick: exportReport }, 'Export report JSON');
  const markdownButton = h('button', { type: 'button', class: 'secondary', disabled: true, onclick: exportMarkdown }, 'Export Markdown');
  const tooltip = h('div', { id: ids.tooltip, class: 'tooltip', role: 'tooltip', hidden: true });
  const sourceView = h('pre', { class: 'source-view', 'aria-labelledby': ids.viewTitle });
  const viewer = h('div', { class: 'viewer' }, sourceView);
  const claimList = h('ol', { class: 'claim-list', 'aria-label': 'Claims' });
  const claimScroller = h('div', { class: 'claim-scroller' }, claimList);
  const warningList = h('ul', { class: 'warning-list', hidden: true });
  const filterBar = h('div', { class: 'filter-bar', role: 'group', 'aria-label': 'Show only' });
  const nextButton = h('button', { type: 'button', class: 'secondary', title: 'The next claim shown (j; k: the previous)', onclick: () => stepClaim(1) }, 'Next ↓');
  const scrollMarkers = h('div', { class: 'scroll-markers', 'aria-hidden': 'true' });
  const helpPanel = h('section', { class: 'help-panel', hidden: true, 'aria-label': 'Keyboard shortcuts' },
    h('h3', {}, 'Keyboard shortcuts'),
    h('dl', {}, SHORTCUTS.map(([keys, what]) => [h('dt', {}, h('kbd', {}, keys)), h('dd', {}, what)])),
    h('p', { class: 'help' }, 'In the claim list: Up and Down move between claims, Right and Left to their candidates, Enter shows the span. ' +
      'Shortcuts work when the focus is not in a text box.'));
  const helpButton = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', onclick: () => toggleHelp() }, 'Shortcuts (?)');
  const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Claims checked' });
  const progressText = h('span', { class: 'progress-text' });
  const progressRow = h('div', { class: 'progress-row', hidden: true }, progress, progressText,
    h('button', { type: 'button', class: 'secondary cancel-button', onclick: () => cancel() }, 'Cancel'));

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
      h('div', { class: 'input-bar' }, sample.element, clearButton(() => clearWork())),
      h('p', { class: 'help drop-help' }, 'Drop a source (.md, .html, .txt) or claims (.json, .jsonl) file anywhere here. ' +
        'Your documents, claims and settings are kept in this browser until you press Clear.'),
      field(ids.source, 'Source document', sourceText.element,
        { tools: [h('label', { for: ids.format }, 'Format'), formatSelect, sourceFile.input, sourceFile.label] }),
      field(ids.claims, 'Claims', claimsText.element, {
        tools: [claimsFile.input, claimsFile.label],
        help: h('p', { id: ids.claimsHelp, class: 'help' },
          'JSON in the spec 000 shape, or one quote per line (each becomes a direct_quote claim EV001, EV002, … of task P1.T001).'),
      }),
      h('details', { class: 'config' },
        h('summary', {}, 'Matching thresholds'),
        thresholds.element)),
    h('div', { class: 'results' },
      h('div', { class: 'results-head' },
        h('h2', { id: ids.viewTitle }, 'Highlighted source'),
        h('span', { class: 'results-tools' }, helpButton, markdownButton, exportButton)),
      helpPanel,
      progressRow,
      summary,
      problem,
      legend,
      h('div', { class: 'viewer-wrap' }, viewer, scrollMarkers),
      h('div', { class: 'claims-head' }, h('h2', {}, 'Claims'), filterBar, nextButton),
      claimScroller,
      warningList,
      reanchorPanel({
        annotations: () => (shown?.entries ?? [])
          .filter((e) => e.result?.match_details?.selectors)
          .map((e) => ({ id: e.result.claim_id, selectors: e.result.match_details.selectors })),
        reanchor: (edited, annotations) => worker.reanchor(edited, formatSelect.value === 'auto' ? null : formatSelect.value, annotations),
      }).element),
    tooltip);
  panel.append(root);

  const tip = attachTooltip(viewer, tooltip, (mark) =>
    (mark.dataset.spans ?? '').split(' ').map((k) => spansByKey.get(k)).filter(Boolean));
  onMarkActivate(viewer, selectClaimOf);
  const view = sourceRenderer(sourceView, viewer, ids.tooltip);
  const list = claimListRenderer(claimScroller, claimList, warningList, { focusSpan, setStatus: ctx.setStatus, copy: copyClaim, copyLink: copyClaimLink });
  scrollMarkers.addEventListener('click', (e) => {
    const key = e.target instanceof HTMLElement ? e.target.dataset.span : undefined;
    if (key) focusSpan(key);
  });
  // on the document, so that a shortcut still works when the focus is on nothing
  // (the body); only while this mode's panel is shown
  document.addEventListener('keydown', (e) => { if (!panel.hidden) shortcut(e); });

  const schedule = debounce(run, DEBOUNCE_MS);
  const saved = savedWork('evidence-validator:evidence', (message) => ctx.setStatus(message));
  acceptDrops(root, dropFiles);
  ctx.setStatus(`evidence-validator ${version()}`);
  renderEmpty();
  restore();

  // ---- behaviour ----

  /** The last session's work, if this browser kept one. */
  async function restore() {
    const work = await saved.load();
    if (sourceText.text() !== '' || claimsText.text() !== '') return; // the user started meanwhile
    if (!work || typeof work.source !== 'string' || typeof work.claims !== 'string') return;
    sourceText.setText(work.source, 'Your last source');
    claimsText.setText(work.claims, 'Your last claims');
    formatSelect.value = FORMATS.some(([v]) => v === work.format) ? work.format : 'auto';
    thresholds.load(work.config);
    ctx.setStatus(RESTORED_NOTE);
    run();
  }

  /** What a reload brings back. */
  function remember() {
    saved.save(() => ({ source: sourceText.stored(), claims: claimsText.stored(), format: formatSelect.value, config: thresholds.read() }));
  }

  /** Empties the boxes, resets the settings and forgets the saved work. */
  function clearWork() {
    saved.clear();
    worker.cancel();
    setRunning(null);
    sourceText.setText('');
    claimsText.setText('');
    formatSelect.value = 'auto';
    showFormat(null);
    thresholds.reset();
    renderEmpty();
    ctx.setStatus(CLEARED_NOTE);
  }

  /** A source file was read into the source box: its extension sets the format. */
  function sourceLoaded(file) {
    formatSelect.value = FORMAT_BY_EXTENSION[extensionOf(file.name)] ?? 'auto';
    run();
  }

  /** Files dropped on the mode: claims (.json, .jsonl, .ndjson) into the claims box, anything else into the source box. */
  async function dropFiles(files) {
    for (const file of files) {
      const claims = CLAIMS_EXTENSIONS.includes(extensionOf(file.name));
      (claims ? claimsText : sourceText).setText(await file.text(), file.name, file);
      if (!claims) formatSelect.value = FORMAT_BY_EXTENSION[extensionOf(file.name)] ?? 'auto';
    }
    ctx.setStatus(`Loaded ${files.map((f) => f.name).join(', ')}`);
    run();
  }

  function applySample(id) {
    const s = samples.find((x) => x.id === id) ?? samples[0];
    sourceText.setText(s.source);
    claimsText.setText(s.claims);
    formatSelect.value = 'auto';
    run();
  }

  async function run() {
    schedule.cancel();
    remember();
    const source = sourceText.text();
    tip.hide();
    // the claims box is parsed in the worker (worker-engine.js): the page sends its text (a file as the file) once
    const config = thresholds.read();
    const known = lastRun;
    // the entries the worker does not send again are the last finished run's (it sends those that changed)
    const heads = known?.heads.slice() ?? [];
    const entries = known?.entries.slice() ?? [];
    let total = null;
    let reached = 0;
    const started = performance.now();
    setRunning({ done: 0, total: 0 });
    const answer = await worker.run({
      source, sourceFile: sourceText.heldFromFile(), claims: claimsText.text(), claimsFile: claimsText.heldFromFile(),
      format: formatSelect.value, config, known: known?.runId ?? null,
    }, (p) => {
      if (total !== p.total) {
        total = p.total;
        heads.length = total;
        entries.length = total;
      }
      for (const [i, head] of p.heads) heads[i] = head;
      for (const [i, entry] of p.outcomes) entries[i] = entry;
      reached = p.done;
      setRunning({ done: p.done, total: p.total });
    });
    if (answer.type === 'superseded') return;
    setRunning(null);
    if (answer.type === 'empty') return renderEmpty();
    if (answer.type === 'unreadable') return unreadable(answer.message);
    if (answer.type === 'failed') {
      lastRun = null;
      return fail(source, answer.where, answer.message, answer.code);
    }
    if (answer.type === 'done') {
      reached = answer.reached;
      total = answer.total;
    }
    // cancelled before the worker said how many claims there are: none known
    total ??= 0;
    heads.length = total;
    entries.length = total;
    // not checked (the time limit, Cancel): each such claim's head says so (one not received yet: nothing known)
    for (let i = reached; i < total; i++) entries[i] = heads[i] ?? UNKNOWN;
    lastRun = answer.type === 'done' ? { runId: answer.runId, heads, entries } : null;
    if (answer.docBuilt) docBuilds++;
    const ms = performance.now() - started;
    await showResult({ runId: answer.runId ?? null, source, entries, config, format: answer.format ?? null, checked: answer.checked ?? 0 }, {
      ms, rebuilt: answer.docBuilt ?? true, state: answer.type === 'cancelled' ? 'cancelled' : answer.timedOut ? 'timeout' : 'ok',
    });
  }

  function cancel() {
    if (worker.cancel()) ctx.setStatus('Cancelled: the checks in progress stopped.');
  }

  /** The progress row: `{ done, total }` while a run is in flight, null when none is. */
  let progressTimer = null;
  let progressShown = false;
  let progressNow = null;
  function setRunning(p) {
    if (p === null) {
      clearTimeout(progressTimer);
      progressTimer = null;
      progressShown = false;
      if ('running' in root.dataset) delete root.dataset.running;
      if (!progressRow.hidden) {
        progressRow.hidden = true;
        progress.value = 0; // nothing of this run's progress is seen in the next one's
      }
      return;
    }
    if (!('running' in root.dataset)) root.dataset.running = 'true';
    progressNow = p;
    // shown once the run has taken PROGRESS_DELAY_MS: a short run (an edit) draws no frame for it
    if (progressShown) drawProgress();
    else progressTimer ??= setTimeout(() => { progressTimer = null; progressShown = true; drawProgress(); }, PROGRESS_DELAY_MS);
  }
  function drawProgress() {
    const p = progressNow;
    progress.max = Math.max(1, p.total);
    progress.value = p.done;
    progressText.textContent = p.total ? `Checking claims: ${p.done} of ${p.total}…` : 'Reading the source and the claims…';
    progressRow.hidden = false;
  }

  function finish(state) {
    validations++;
    root.dataset.validations = String(validations);
    root.dataset.docBuilds = String(docBuilds);
    root.dataset.state = state;
  }

  function renderEmpty() {
    shownGeneration++;
    shown = null;
    exportButton.disabled = true;
    markdownButton.disabled = true;
    problem.hidden = true;
    root.classList.remove('is-stale');
    spansByKey = new Map();
    replaceChildren(sourceView, h('span', { class: 'placeholder' },
      'Paste a source document and claims, or load a sample, to see the quoted spans highlighted here.'));
    view.reset();
    list.render(null);
    filterBar.replaceChildren();
    scrollMarkers.replaceChildren();
    summary.textContent = 'No claims yet.';
    root.dataset.state = 'empty';
  }

  /** Claims that cannot be read at all: the last results stay, marked out of date. */
  function unreadable(message) {
    showProblem(problem, 'Claims', `${message}. Fix the claims box; the results below are from the last claims that could be read.`);
    root.classList.toggle('is-stale', shown !== null);
    exportButton.disabled = true;
    summary.textContent = shown ? 'Out of date: the claims box cannot be read.' : 'Not validated: fix the problem below.';
    finish('error');
  }

  /** A problem with the whole run (the source, the thresholds, a limit): the source stays visible, unhighlighted. */
  function fail(source, where, message, code) {
    shownGeneration++;
    shown = null;
    exportButton.disabled = true;
    markdownButton.disabled = true;
    root.classList.remove('is-stale');
    spansByKey = new Map();
    showProblem(problem, where, `${message}${HINTS[where] ? `. ${HINTS[where]}` : ''}`, code);
    view.reset();
    replaceChildren(sourceView, source);
    list.render(null);
    filterBar.replaceChildren();
    scrollMarkers.replaceChildren();
    summary.textContent = 'Not validated: fix the problem below.';
    finish('error');
  }

  /**
   * Shows a run's outcome, a slice at a time (no task of it blocks the page
   * for long); a newer result on its way stops it.
   */
  async function showResult(run, { ms, rebuilt, state }) {
    const mine = ++shownGeneration;
    const pause = timeSlicer(() => mine === shownGeneration);
    const { source, entries } = run;
    shown = run;
    root.classList.remove('is-stale');
    const invalid = entries.filter((e) => e.error);
    if (invalid.length) {
      showProblem(problem, 'Claims', `${invalid.length === 1 ? '1 claim is' : `${invalid.length} claims are`} not valid, ` +
        `marked in the list (the first at ${invalid[0].where}: ${invalid[0].error}). Fix ${invalid.length === 1 ? 'it' : 'them'} in the claims box; the other claims keep their results.`);
    } else {
      problem.hidden = true;
    }
    exportButton.disabled = entries.length === 0 || invalid.length > 0 || state !== 'ok';
    markdownButton.disabled = entries.length === 0;
    // claim by claim, with its own failure entry (each outcome is a one-claim report); an entry
    // the worker did not send again (the same object) keeps its spans
    const spans = [];
    const spansNow = new Map();
    for (const [i, e] of entries.entries()) {
      const had = spansOf.get(i);
      const mine = had?.entry === e ? had.spans : e.result ? claimSpans(e.result, e.failure ?? undefined, i) : [];
      spansNow.set(i, { entry: e, spans: mine });
      for (const sp of mine) spans.push(sp);
      if (!(await pause())) return;
    }
    spansOf = spansNow;
    spansByKey = new Map(spans.map((sp) => [sp.key, sp]));
    if (!(await pause())) return;
    const segments = await segmentSliced(source.length, spans, pause);
    if (!segments) return;
    const scrollTop = viewer.scrollTop;
    if (!(await view.render(source, segments, pause))) return;
    // in the frame's own layout, not one forced now (the last slice's chunks are laid out once);
    // at the top already, nothing to keep
    if (scrollTop > 0) requestAnimationFrame(() => { viewer.scrollTop = scrollTop; });
    if (!(await pause())) return;
    if (!(await drawMarkers(scrollMarkers, spans, source.length, pause))) return;
    if (currentKey && !spansByKey.has(currentKey)) currentKey = null;
    view.setCurrent(currentKey);
    // each claim is its own library call: a warning about the whole document comes with every one of them, listed once
    const general = [...new Map(entries.flatMap((e) => [...(e.warnings ?? []).filter((w) => !w.claim_id), ...(e.errors ?? [])])
      .map((w) => [`${w.code}\u0000${w.message}`, w])).values()];
    if (!(await list.render({ entries, general }, pause))) return;
    // the list's first claims laid out in a frame of their own, the filters and the summary in the next
    await afterNextFrame();
    if (mine !== shownGeneration) return;
    drawFilters(entries);
    showFormat(run.format);
    const timing = `${(run.format ?? 'no source').replace('_', ' ')}, ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms${rebuilt ? '' : ', index reused'}`;
    summary.textContent = entries.length ? `${countsText(entries)} (${timing}).${STATE_NOTES[state](entries, run.config)}` : `No claims yet (${timing}).`;
    root.dataset.checked = String(run.checked);
    finish(invalid.length && state === 'ok' ? 'error' : state);
  }

  /** The status buttons: how many claims of each, pressed = only those shown. */
  function drawFilters(entries) {
    const counts = new Map(FILTERS.map(([f]) => [f, 0]));
    for (const e of entries) {
      const f = kindOf(e);
      counts.set(f, counts.get(f) + 1);
    }
    counts.set('', entries.length);
    if (claimList.dataset.filter && !counts.get(claimList.dataset.filter)) list.setFilter('');
    const on = claimList.dataset.filter ?? '';
    filterBar.replaceChildren(...FILTERS.filter(([f]) => f === '' || counts.get(f) > 0).map(([f, label]) =>
      h('button', { type: 'button', class: `filter filter-${f || 'all'}`, 'aria-pressed': String(f === on), dataset: { filter: f }, onclick: () => setFilter(f) },
        `${label} `, h('span', { class: 'count' }, String(counts.get(f))))));
  }

  /** Shows only the claims of one status ('' all of them). */
  function setFilter(f) {
    const n = list.setFilter(f);
    for (const b of filterBar.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.filter === f));
    ctx.setStatus(f ? `Showing ${n} ${FILTERS.find(([x]) => x === f)[1].toLowerCase()} claim${n === 1 ? '' : 's'}` : 'Showing every claim');
  }

  /** Moves to the next (or previous) claim shown: selects and focuses it, outlines its span in the source. */
  function stepClaim(direction) {
    const claims = list.shown();
    if (!claims.length) return;
    const at = claims.indexOf(list.selected);
    const next = claims[at < 0 ? (direction > 0 ? 0 : claims.length - 1) : (at + direction + claims.length) % claims.length];
    list.select(next, { focus: true });
    const marks = view.marksOf(spansByKey.get(`c${next}.m`));
    if (marks.length) {
      currentKey = `c${next}.m`;
      view.setCurrent(currentKey);
      const v = viewer.getBoundingClientRect();
      const r = marks[0].getBoundingClientRect();
      viewer.scrollTop += r.top - v.top - v.height / 2;
    }
  }

  function toggleHelp(show = helpPanel.hidden) {
    helpPanel.hidden = !show;
    helpButton.setAttribute('aria-expanded', String(show));
  }

  /** The mode's keyboard shortcuts (SHORTCUTS), outside text boxes. */
  function shortcut(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target instanceof HTMLElement && e.target.closest('textarea, input, select')) return;
    const filter = /^[0-6]$/.test(e.key) ? FILTERS[Number(e.key)] : null;
    if (filter && (filter[0] === '' || filterBar.querySelector(`[data-filter="${filter[0]}"]`))) setFilter(filter[0]);
    else if (e.key === 'j') stepClaim(1);
    else if (e.key === 'k') stepClaim(-1);
    else if (e.key === '?') toggleHelp();
    else if (e.key === '/') (claimsText.held ? claimsText.element.querySelector('button') : claimsBox).focus();
    else if (e.key === 'Escape' && !helpPanel.hidden) toggleHelp(false);
    else return;
    e.preventDefault();
  }

  /** The Auto-detect option names the format the library detected (or the claims gave). */
  function showFormat(format) {
    const auto = formatSelect.querySelector('option[value="auto"]');
    const name = FORMATS.find(([v]) => v === format)?.[1];
    auto.textContent = name ? `Auto-detect (${name})` : 'Auto-detect';
  }

  /** Scrolls the span into view, focuses its first mark and outlines all its marks. */
  function focusSpan(key) {
    const marks = view.marksOf(spansByKey.get(key));
    if (!marks.length) return false;
    currentKey = key;
    view.setCurrent(key);
    showCurrent(sourceView, marks);
    return true;
  }

  /** Clicking (or Enter on) a mark marks its claim in the list. */
  function selectClaimOf(mark) {
    const key = (mark.dataset.spans ?? '').split(' ')[0];
    const span = spansByKey.get(key);
    if (span) list.select(span.claim);
  }

  /** One claim's result as text, to the clipboard. */
  async function copyClaim(entry, i) {
    const id = entry.result?.claim_id ?? entry.claimId ?? `claim ${i + 1}`;
    try {
      await navigator.clipboard.writeText(claimText(entry, i));
      ctx.setStatus(`Copied the result of ${id}.`);
    } catch {
      ctx.setStatus('The browser did not let the page copy: select the claim\'s text and copy it instead.');
    }
  }

  /**
   * A link that opens the source page at a claim's passage, highlighted: the
   * page's URL (asked once, kept for the session) followed by the claim's
   * `match_details.text_fragment` (issue 18).
   */
  async function copyClaimLink(entry, i) {
    const id = entry.result?.claim_id ?? `claim ${i + 1}`;
    const fragment = entry.result?.match_details?.text_fragment;
    if (!fragment) return;
    const asked = sourceUrl ?? window.prompt('The source page\'s URL (the link opens it at the passage):', '');
    if (asked == null) return;
    sourceUrl = asked.trim().replace(/#.*$/, '');
    try {
      await navigator.clipboard.writeText(`${sourceUrl}${fragment}`);
      ctx.setStatus(`Copied a link to ${id}'s passage.`);
    } catch {
      ctx.setStatus(`The browser did not let the page copy; the link is ${sourceUrl}${fragment}`);
    }
  }
  /** The source page's URL for links to passages, once given. */
  let sourceUrl = null;

  /** The results shown, as Markdown (the counts, a table of claims, the details of near misses and failures). */
  function exportMarkdown() {
    if (!shown) return;
    download('evidence-report.md', reportMarkdown(shown.entries, { summary: summary.textContent, generated: `evidence-validator ${version()}` }), 'text/markdown');
  }

  /** The library's own report for the claims shown, in one call (the export). */
  async function exportReport() {
    if (!shown) return;
    exportButton.disabled = true;
    const answer = await worker.report(shown.runId);
    exportButton.disabled = false;
    if (answer.type === 'report') download('evidence-report.json', `${JSON.stringify(answer.report, null, 2)}\n`);
    else if (answer.type === 'failed') showProblem(problem, 'Export', answer.message, answer.code, HINTS[answer.where] ?? HINTS.Export);
  }
}

/** A claim's entry when nothing is known of it (a run cancelled before the worker read the claims). */
const UNKNOWN = { result: null, claimId: null, quote: '', error: null, where: null };

/** The status filters: a claim's class suffix, and its label ('' is every claim). Keys 0–6 pick them. */
const FILTERS = [['', 'All'], ['validated', 'Validated'], ['low-confidence', 'Low confidence'], ['ambiguous', 'Ambiguous'],
  ['failed', 'Failed'], ['invalid', 'Not valid'], ['unchecked', 'Not checked']];

const SHORTCUTS = [
  ['j / k', 'Next / previous claim shown (its span outlined in the source)'],
  ['0–6', 'Show all claims, or only: validated, low confidence, ambiguous, failed, not valid, not checked'],
  ['/', 'Edit the claims'],
  ['?', 'Show or hide this panel'],
  ['Esc', 'Hide the tooltip or this panel'],
];

/** The most markers beside the viewer's scrollbar: spans closer than 1/MARKER_SLOTS of the source share one. */
const MARKER_SLOTS = 200;
const MARKER_RANK = { FAILED: 0, LOW_CONFIDENCE: 1, AMBIGUOUS: 2, VALIDATED: 3 };

/**
 * A marker beside the viewer's scrollbar for every highlighted span, placed
 * by its offset in the source (chunks off screen are not laid out, so their
 * pixel positions are unknown; text is roughly even), one per slot, the
 * slot's worst status shown (the first span of it in report order). Clicking
 * one shows its span. Grouped and built between `pause()`s, span by span and
 * marker by marker (a thousand claims' spans never make one long task);
 * resolves to false when it said stop (nothing drawn).
 */
async function drawMarkers(strip, spans, length, pause) {
  const slots = new Map();
  for (const s of spans) {
    if (!(await pause())) return false;
    if (s.role === 'candidate') continue;
    const slot = Math.min(MARKER_SLOTS - 1, Math.floor((s.start / Math.max(1, length)) * MARKER_SLOTS));
    const had = slots.get(slot);
    if (!had || MARKER_RANK[s.status] < MARKER_RANK[had.status]) slots.set(slot, s);
  }
  const markers = [];
  for (const [slot, s] of slots) {
    const marker = h('span', {
      class: `scroll-marker marker-${s.status.toLowerCase().replace('_', '-')}`, title: `${s.claimId} · line ${s.line ?? '?'}`, dataset: { span: s.key },
    });
    marker.style.top = `${((slot / MARKER_SLOTS) * 100).toFixed(2)}%`; // CSSOM: the CSP allows no style attribute
    markers.push(marker);
    if (!(await pause())) return false;
  }
  strip.replaceChildren(...markers);
  return true;
}

/** What to do about a problem, by where it is. */
const HINTS = {
  Source: 'Check the source document and its format',
  Thresholds: 'Change the highlighted setting under Matching thresholds, or reset them to the defaults',
  Limits: 'Raise the limit under Matching thresholds, or check fewer claims at once',
  Claims: 'Fix the claims box',
  Page: 'Edit anything to run again on a fresh worker; if it happens again, reload the page',
  Report: 'Wait for the results, then export again',
  Export: 'Fix what the message names, then export again',
};

/** What the summary adds after the counts, by how the run ended. */
const STATE_NOTES = {
  ok: () => '',
  cancelled: (entries) => ` Cancelled: ${entries.filter((e) => !e.result && !e.error).length} claims not checked; edit anything to run again.`,
  timeout: (entries, config) => ` Stopped at the time limit (${config.performance_limits?.max_processing_time_seconds} s): ` +
    `${entries.filter((e) => !e.result && !e.error).length} claims not checked. To check them, raise "Time limit" under Matching thresholds.`,
};

/** "10 claims: 6 validated, 2 low confidence, …" from the entries. */
function countsText(entries) {
  const counts = { VALIDATED: 0, LOW_CONFIDENCE: 0, AMBIGUOUS: 0, FAILED: 0 };
  let invalid = 0;
  let unchecked = 0;
  for (const e of entries) {
    if (e.result) counts[e.result.validation_status]++;
    else if (e.error) invalid++;
    else unchecked++;
  }
  const parts = [`${counts.VALIDATED} validated`, `${counts.LOW_CONFIDENCE} low confidence`, `${counts.AMBIGUOUS} ambiguous`, `${counts.FAILED} failed`];
  if (invalid) parts.push(`${invalid} not valid`);
  if (unchecked) parts.push(`${unchecked} not checked`);
  return `${entries.length} claims: ${parts.join(', ')}`;
}
