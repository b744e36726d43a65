// The Cite view (spec 004 in the browser): paste sources and a query, run
// the citation pipeline (citeStream) with the offline demo host (demo.js,
// labelled "demo host — not a language model") or an OpenAI-compatible URL,
// and see each claim as it is produced, then its verdict, confidence,
// citations before and after correction, and its evidence spans highlighted
// in the sources (UTF-16 offsets from the report).
//
// The inputs and the host settings are kept in this browser (storage.js)
// until Clear; a first visit (or one after Clear and a reload) shows the
// sample. A problem names the box it is in, the error code once, and what to
// do.

import { citeStream, version } from '../../library.js';
import { h, replaceChildren, uniqueId } from '../../dom.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { acceptDrops, clearButton, fileInput, showProblem } from '../../widgets.js';
import { DEMO_LABEL, demoHost, openAiHost } from './demo.js';
import { SAMPLE } from './samples.js';

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
  const stop = h('button', { type: 'button', class: 'cite-stop', disabled: true, onclick: () => controller?.abort() }, 'Stop');
  const results = h('div', { class: 'cite-results', dataset: { runs: '0', state: 'idle' } });
  const live = h('ol', { class: 'cite-live' });
  let controller = null;
  let runs = 0;

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

  /** `box`'s text as JSON, or throws an error saying which box and what to do. */
  function parseBox(name, box, shape) {
    try {
      return JSON.parse(box.value);
    } catch (e) {
      throw Object.assign(new Error(e.message), { where: name, hint: `Fix the ${name} box: ${shape}, then run again` });
    }
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
    let input;
    try {
      input = {
        query: query.value,
        sources: parseBox('Sources', sources, 'JSON, a list of {"id", "title", "content"}'),
        claims: claims.value.trim() ? parseBox('Claims', claims, 'JSON, a list of {"text", "citations"}, or empty') : [],
        outline: outline.value.split('\n').map((s) => s.trim()).filter(Boolean),
      };
    } catch (e) {
      return finish('error', problem(e.where, `Not JSON (${e.message})`, null, e.hint));
    }
    const host = useDemo.checked ? demoHost() : openAiHost(url.value, model.value);
    try {
      let report = null;
      for await (const e of citeStream(input, null, { ...host, signal: mine.signal })) {
        if (controller !== mine) return; // a newer run, or Clear
        if (e.event === 'claim') live.append(h('li', { class: 'cite-live-claim', dataset: { index: String(e.index) } }, e.text));
        else if (e.event === 'verified') live.children[e.index]?.setAttribute('data-verdict', e.verdict ?? 'ABSTAINED');
        else report = e.report;
      }
      if (controller === mine) finish('ok', render(report, input));
    } catch (e) {
      if (controller !== mine) return; // a newer run, or Clear
      if (mine.signal.aborted) return finish('stopped', h('p', { class: 'summary' }, 'Stopped. Run the pipeline again for a report.'));
      const where = whereOf(e.message);
      finish('error', problem(where ?? 'Run', e.message ?? String(e), typeof e.code === 'string' ? e.code : null,
        where ? `Fix the ${where} box, then run again` : 'Check the inputs, or the LLM host\'s URL and model (or use the demo host), then run again'));
    }
  }

  function finish(state, content) {
    replaceChildren(results, content);
    results.dataset.state = state;
    results.dataset.runs = String(runs);
    run.disabled = false;
    stop.disabled = true;
  }

  function render(report, input) {
    const s = report.summary;
    const pct = (x) => `${Math.round(x * 100)}%`;
    const usedBy = new Map();
    report.claims.forEach((c, i) => c.evidence.forEach((e) => {
      const list = usedBy.get(e.source_id) ?? [];
      list.push({ ...e, claim: i });
      usedBy.set(e.source_id, list);
    }));
    return h('div', {},
      h('p', { class: 'cite-summary' },
        `${s.claims} claims: ${s.supported} supported, ${s.partial} partial, ${s.unsupported} unsupported, ${s.contradicted} contradicted, ${s.nei} NEI; `
        + `abstention ${pct(s.abstention_rate)}, correction ${pct(s.correction_rate)}; ${s.llm_calls} LLM calls`),
      report.warnings.length ? h('ul', { class: 'cite-warnings' }, report.warnings.map((w) => h('li', {}, w))) : null,
      h('ol', { class: 'cite-claims' }, report.claims.map((c, i) => h('li', { class: 'cite-claim', dataset: { index: String(i), verdict: c.verdict ?? 'ABSTAINED' } },
        h('p', { class: 'cite-claim-text' }, c.text),
        h('p', {},
          h('span', { class: 'cite-verdict' }, c.abstained ? `abstained${c.verdict ? ` (${c.verdict})` : ''}` : c.verdict),
          ` · confidence ${c.confidence.level} (${c.confidence.score.toFixed(2)}) · ${c.verification.verifier} ${c.verification.method}`),
        h('p', { class: 'cite-citations' }, `citations: ${c.correction.citations_before.join(', ') || '—'} → ${c.correction.citations_after.join(', ') || '—'} (${c.correction.action})`),
        h('p', { class: 'cite-reason' }, c.verification.reason)))),
      h('div', { class: 'cite-sources' }, input.sources.map((src) => sourceView(src, usedBy.get(src.id) ?? []))));
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
