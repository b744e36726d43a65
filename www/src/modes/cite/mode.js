// The Cite view (spec 004 in the browser): paste sources and a query, run
// the citation pipeline (citeStream) with the offline demo host (demo.js,
// labelled "demo host — not a language model") or an OpenAI-compatible URL,
// and see each claim as it is produced, then its verdict, confidence,
// citations before and after correction, and its evidence spans highlighted
// in the sources (UTF-16 offsets from the report).
//
// The boxes are read and the pipeline runs in a Web Worker
// (worker-engine.js, issue 19): the page lists each claim and verdict as the
// worker posts them, then draws the report a slice at a time; Stop ends the
// run at once (the worker is replaced). The demo host runs in the worker; a
// URL host's requests are the page's (worker-engine.js says why).
//
// The inputs and the host settings are kept in this browser (storage.js)
// until Clear; a first visit (or one after Clear and a reload) shows the
// sample. A problem names the box it is in, the error code once, and what to
// do.

import { version } from '../../library.js';
import { h, replaceChildren, timeSlicer, uniqueId } from '../../dom.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { acceptDrops, clearButton, fileInput, showProblem } from '../../widgets.js';
import { libraryWorker } from '../../worker-client.js';
import { DEMO_LABEL, openAiHost } from './demo.js';
import { SAMPLE } from './samples.js';

/** More sources or claims than this: those out of sight are not laid out (style.css `.is-long`). */
const LONG_LIST = 10;

export function mount(panel, ctx) {
  const id = (p) => uniqueId(p);
  const field = (label, el) => h('label', { class: 'cite-field' }, h('span', {}, label), el);
  const query = h('input', { type: 'text', id: id('ct-query'), value: SAMPLE.query, class: 'cite-query', size: 80 });
  const sources = h('textarea', { id: id('ct-sources'), rows: 10, class: 'cite-sources-box' });
  const sourcesLoader = fileInput(id('ct-sources-file'), '.txt,.md,.markdown,.html,.htm,.csv,text/*', (files) => addSources(files),
    { multiple: true, label: 'Add files…' });
  sources.value = JSON.stringify(SAMPLE.sources, null, 2);
  const outline = h('textarea', { id: id('ct-outline'), rows: 2 });
  outline.value = SAMPLE.outline.join('\n');
  const claims = h('textarea', { id: id('ct-claims'), rows: 3, placeholder: 'optional: [{"text": "…", "citations": ["id"]}] — empty: the host writes the claims' });
  const useDemo = h('input', { type: 'radio', name: 'ct-host', value: 'demo', checked: true });
  const useUrl = h('input', { type: 'radio', name: 'ct-host', value: 'url' });
  const url = h('input', { type: 'url', class: 'cite-url', placeholder: 'http://localhost:8080/v1' });
  const model = h('input', { type: 'text', class: 'cite-model', placeholder: 'model name' });
  const run = h('button', { type: 'button', class: 'cite-run', onclick: () => start() }, 'Run the pipeline');
  const stop = h('button', { type: 'button', class: 'cite-stop', disabled: true, onclick: () => stopRun() }, 'Stop');
  const results = h('div', { class: 'cite-results', dataset: { runs: '0', state: 'idle' } });
  const live = h('ol', { class: 'cite-live' });
  /** The run in flight's AbortController (the URL host's fetches), or null. */
  let controller = null;
  let runs = 0;
  const worker = libraryWorker(() => new Worker(new URL('./worker.js', import.meta.url), { name: 'evidence-validator-cite' }));

  const root = h('div', { class: 'cite-mode' },
    h('div', { class: 'inputs' },
      h('div', { class: 'input-bar' }, clearButton(() => clearWork())),
      h('p', { class: 'help' }, 'Drop text files anywhere here to add them to the sources. ' +
        'Your query, sources, outline, claims and host settings are kept in this browser until you press Clear.'),
      field('Query', query),
      field('Sources (JSON: [{id, title, content}])', sources),
      h('div', { class: 'field-tools' }, sourcesLoader.input, sourcesLoader.label),
      field('Outline (one section per line)', outline),
      field('Claims', claims),
      h('fieldset', { class: 'cite-host' }, h('legend', {}, 'LLM host'),
        h('label', {}, useDemo, ` Demo (offline) — ${DEMO_LABEL}`),
        h('label', {}, useUrl, ' OpenAI-compatible URL '), url, model),
      h('div', { class: 'actions' }, run, stop)),
    h('div', { class: 'results' }, live, results));
  panel.append(root);
  acceptDrops(root, (files) => addSources(files));

  // ---- work kept across reloads ----
  const saved = savedWork('evidence-validator:cite', (message) => ctx.setStatus(message));
  /** The inputs as saved. */
  const inputs = () => ({
    query: query.value, sources: sources.value, outline: outline.value, claims: claims.value,
    host: useUrl.checked ? 'url' : 'demo', url: url.value, model: model.value,
  });
  /** False while the page itself fills the inputs (a restore, Clear): nothing to save. */
  let keeping = false;
  const remember = () => { if (keeping) saved.save(inputs); };
  // typed edits and the host switch
  root.addEventListener('input', remember);
  root.addEventListener('change', remember);
  restore();

  /** The last visit's inputs, if this browser kept them (a first visit keeps the sample). */
  async function restore() {
    const fresh = JSON.stringify(inputs());
    const work = await saved.load();
    if (JSON.stringify(inputs()) !== fresh) { keeping = true; return; } // the user started meanwhile
    const text = (v) => (typeof v === 'string' ? v : '');
    if (work) {
      query.value = text(work.query);
      sources.value = text(work.sources);
      outline.value = text(work.outline);
      claims.value = text(work.claims);
      useUrl.checked = work.host === 'url';
      useDemo.checked = !useUrl.checked;
      url.value = text(work.url);
      model.value = text(work.model);
      ctx.setStatus(RESTORED_NOTE);
    }
    keeping = true;
  }

  /** Empties the inputs and the results, the demo host chosen, and forgets the saved work. */
  function clearWork() {
    keeping = false;
    controller?.abort();
    controller = null; // its run ends unseen
    worker.stop('superseded');
    run.disabled = false;
    stop.disabled = true;
    saved.clear();
    for (const box of [query, sources, outline, claims, url, model]) box.value = '';
    useDemo.checked = true;
    replaceChildren(live);
    replaceChildren(results);
    results.dataset.state = 'idle';
    keeping = true;
    ctx.setStatus(CLEARED_NOTE);
  }

  /**
   * Files added to the sources box's list, each as { id, title, content }:
   * the id from the file's name (made unique), the title its name. A box that
   * is not a JSON list is replaced by the files.
   */
  async function addSources(files) {
    let list;
    try {
      list = JSON.parse(sources.value);
    } catch {
      list = null;
    }
    if (!Array.isArray(list)) list = [];
    const taken = new Set(list.map((s) => s?.id));
    for (const file of files) {
      const stem = file.name.replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'source';
      let sourceId = stem;
      for (let n = 2; taken.has(sourceId); n++) sourceId = `${stem}-${n}`;
      taken.add(sourceId);
      list.push({ id: sourceId, title: file.name, content: await file.text() });
    }
    sources.value = JSON.stringify(list, null, 2);
    ctx.setStatus(`Added ${files.map((f) => f.name).join(', ')} to the sources`);
    remember();
  }

  /** An error shown where it is, its code once, with what to do. */
  function problem(where, message, code, hint) {
    const el = h('div', { class: 'problem', role: 'alert' });
    showProblem(el, where, message, code, hint);
    return el;
  }

  /** Stop: the worker is replaced at once, the URL host's fetch in flight aborted. */
  function stopRun() {
    controller?.abort();
    worker.cancel();
  }

  async function start() {
    runs += 1;
    controller?.abort();
    controller = new AbortController();
    const mine = controller;
    results.dataset.state = 'running';
    replaceChildren(live);
    replaceChildren(results, 'Running…');
    run.disabled = true;
    stop.disabled = false;
    const host = useDemo.checked ? null : openAiHost(url.value, model.value);
    const answer = await worker.send({
      type: 'run', query: query.value, sources: sources.value, outline: outline.value, claims: claims.value, host: host ? 'url' : 'demo',
    }, {
      onProgress: ({ event: e }) => {
        if (e.event === 'claim') live.append(h('li', { class: 'cite-live-claim', dataset: { index: String(e.index) } }, e.text));
        else live.children[e.index]?.setAttribute('data-verdict', e.verdict ?? 'ABSTAINED');
      },
      onAsk: ({ role, request }) => host[role]({ ...request, signal: mine.signal }),
    });
    if (controller !== mine || answer.type === 'superseded') return; // a newer run, or Clear
    if (answer.type === 'cancelled') return finish('stopped', h('p', { class: 'summary' }, 'Stopped. Run the pipeline again for a report.'));
    if (answer.type === 'failed' && answer.where && answer.hint) return finish('error', problem(answer.where, answer.message, null, answer.hint));
    if (answer.type === 'failed') {
      const where = whereOf(answer.message);
      return finish('error', problem(where ?? 'Run', answer.message, answer.code,
        where ? `Fix the ${where} box, then run again` : 'Check the inputs, or the LLM host\'s URL and model (or use the demo host), then run again'));
    }
    const content = await render(answer.report, answer.sources, timeSlicer(() => controller === mine));
    if (content !== null) finish('ok', content);
  }

  function finish(state, content) {
    controller = null;
    replaceChildren(results, content);
    results.dataset.state = state;
    results.dataset.runs = String(runs);
    run.disabled = false;
    stop.disabled = true;
  }

  /**
   * The report: the summary, each claim, each source with its evidence
   * highlighted. Built a slice at a time (`slice`: dom.js timeSlicer, false
   * once a newer run or Clear came: then null), into an element not in the
   * page yet, which is shown whole (built, it is laid out once; its claims
   * and sources out of sight are not, style.css).
   */
  async function render(report, sourceList, slice) {
    const s = report.summary;
    const pct = (x) => `${Math.round(x * 100)}%`;
    const usedBy = new Map();
    report.claims.forEach((c, i) => c.evidence.forEach((e) => {
      const list = usedBy.get(e.source_id) ?? [];
      list.push({ ...e, claim: i });
      usedBy.set(e.source_id, list);
    }));
    const claimList = h('ol', { class: `cite-claims${report.claims.length > LONG_LIST ? ' is-long' : ''}` });
    const sourcesBox = h('div', { class: `cite-sources${sourceList.length > LONG_LIST ? ' is-long' : ''}` });
    for (const [i, c] of report.claims.entries()) {
      claimList.append(h('li', { class: 'cite-claim', dataset: { index: String(i), verdict: c.verdict ?? 'ABSTAINED' } }, h('div', { class: 'cite-claim-body' },
        h('p', { class: 'cite-claim-text' }, c.text),
        h('p', {},
          h('span', { class: 'cite-verdict' }, c.abstained ? `abstained${c.verdict ? ` (${c.verdict})` : ''}` : c.verdict),
          ` · confidence ${c.confidence.level} (${c.confidence.score.toFixed(2)}) · ${c.verification.verifier} ${c.verification.method}`),
        h('p', { class: 'cite-citations' }, `citations: ${c.correction.citations_before.join(', ') || '—'} → ${c.correction.citations_after.join(', ') || '—'} (${c.correction.action})`),
        h('p', { class: 'cite-reason' }, c.verification.reason))));
      if (!await slice()) return null;
    }
    for (const src of sourceList) {
      sourcesBox.append(sourceView(src, usedBy.get(src.id) ?? []));
      if (!await slice()) return null;
    }
    return h('div', {},
      h('p', { class: 'cite-summary' },
        `${s.claims} claims: ${s.supported} supported, ${s.partial} partial, ${s.unsupported} unsupported, ${s.contradicted} contradicted, ${s.nei} NEI; `
        + `abstention ${pct(s.abstention_rate)}, correction ${pct(s.correction_rate)}; ${s.llm_calls} LLM calls`),
      report.warnings.length ? h('ul', { class: 'cite-warnings' }, report.warnings.map((w) => h('li', {}, w))) : null,
      claimList,
      sourcesBox);
  }

  function sourceView(src, spans) {
    const sorted = [...spans].sort((a, b) => a.position.utf16_start - b.position.utf16_start);
    const parts = [];
    let at = 0;
    for (const sp of sorted) {
      if (sp.position.utf16_start < at) continue; // overlapping: the first one shown
      parts.push(src.content.slice(at, sp.position.utf16_start));
      parts.push(h('mark', { class: 'hl cite-span', dataset: { claim: String(sp.claim) }, title: `claim ${sp.claim + 1}` },
        src.content.slice(sp.position.utf16_start, sp.position.utf16_end)));
      at = sp.position.utf16_end;
    }
    parts.push(src.content.slice(at));
    return h('section', { class: 'cite-source', dataset: { id: src.id } }, h('h4', {}, src.title || src.id), h('p', {}, parts));
  }

  ctx.setStatus(`evidence-validator ${version()}`);
}

/** The box a library error's JSON path points into (`… at $.sources[0].id` → Sources), if any. */
function whereOf(message) {
  const m = / at \$\.(query|sources|outline|claims)\b/.exec(message ?? '');
  return m ? { query: 'Query', sources: 'Sources', outline: 'Outline', claims: 'Claims' }[m[1]] : null;
}
