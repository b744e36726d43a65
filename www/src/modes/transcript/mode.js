// Transcript mode (spec 001): a speech transcript (Whisper / WhisperX /
// whisper.cpp / Deepgram / … JSON, SRT, WebVTT: whatever the package's
// Transcript imports) and an evaluation's items (evidence_quote +
// evidence_timestamp). The transcript is shown segment by segment with its
// times (and each word's start when the ASR gave word timings); each item's
// matched words are highlighted in place at the library's UTF-16 spans
// (never innerHTML); each item lists its three checks (contiguity, length,
// locality) with the reason of any that failed; clicking an item scrolls to
// its words.
//
// One Transcript is kept while the text and format stay the same (editing
// the items or the thresholds only re-validates); a new one frees the old.
// The transcript, the items, the format, the checks' settings and the word
// times switch are kept in this browser (storage.js) until Clear.
//
// The root carries data-runs (validations finished), data-transcript-builds
// and data-state (`empty`, `ok`, `error`) for tests.

import { defaultTranscriptConfig, Transcript, version } from '../../library.js';
import { debounce, h, onMarkActivate, replaceChildren, uniqueId } from '../../dom.js';
import { acceptDrops, clearButton, extensionOf, field, legendItem, loadableText, readNumber, sampleBar, selectIn, showCurrent, showProblem } from '../../widgets.js';
import { renderItemList } from './item-list.js';
import { InputError, parseItems } from './items.js';
import { clock, collectHighlights } from './layout.js';
import { samples } from './samples.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { renderTranscript } from './view.js';

const DEBOUNCE_MS = 150;
const FORMATS = [['auto', 'Auto-detect'], ['json', 'JSON (Whisper, WhisperX, …)'], ['srt', 'SRT'], ['vtt', 'WebVTT']];
const FORMAT_BY_EXTENSION = { json: 'json', srt: 'srt', vtt: 'vtt' };
/** What to do about a problem, by where it is. */
const HINTS = {
  Transcript: 'Check the transcript, or pick its format under Format instead of Auto-detect',
  'Evaluation items': 'Fix the evaluation items box; the transcript above is shown as read',
  Checks: 'Change that setting under Checks (spec 001 defaults), or clear the box for the default',
};
/** The checks' settings shown; each starts at the library's default (`defaultTranscriptConfig()`). */
const CONFIG = [
  { key: 'min_contiguous_tokens', label: 'Min. contiguous tokens', step: 1 },
  { key: 'max_quote_tokens', label: 'Max. quote tokens', step: 1 },
  { key: 'locality_seconds', label: 'Locality window (s)', step: 1 },
];

export async function mount(panel, ctx) {
  const ids = {
    sample: uniqueId('tx-sample'), transcript: uniqueId('tx-transcript'), items: uniqueId('tx-items'), format: uniqueId('tx-format'),
    transcriptFile: uniqueId('tx-transcript-file'), itemsFile: uniqueId('tx-items-file'), wordTimes: uniqueId('tx-word-times'),
    viewTitle: uniqueId('tx-view-title'), itemsHelp: uniqueId('tx-items-help'),
  };

  // ---- state ----
  /** @type {Transcript|null} */
  let transcript = null;
  let transcriptKey = null;
  let builds = 0;
  let runs = 0;
  let marksByKey = new Map();
  let entriesByKey = new Map();
  let currentKey = null;

  // ---- inputs ----
  const sample = sampleBar(ids.sample, samples, (id) => applySample(id));
  const formatSelect = h('select', { id: ids.format, onchange: () => run() }, FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const { box: transcriptBox, file: transcriptFile } = loadableText({
    id: ids.transcript, fileId: ids.transcriptFile, accept: '.json,.srt,.vtt,application/json,text/vtt,text/plain',
    class: 'transcript-input', rows: 12, wrap: 'off',
    placeholder: 'Paste a transcript: Whisper verbose_json, WhisperX, whisper.cpp, Deepgram, Speechmatics, Amazon Transcribe or plain JSON, SRT, or WebVTT.',
    onInput: () => schedule(),
    onLoad: (file) => { formatSelect.value = FORMAT_BY_EXTENSION[extensionOf(file.name)] ?? 'auto'; run(); },
  });
  const { box: itemsBox, file: itemsFile } = loadableText({
    id: ids.items, fileId: ids.itemsFile, accept: '.json,application/json',
    class: 'items-input', rows: 10, 'aria-describedby': ids.itemsHelp,
    placeholder: '{ "commendations": [ { "text": "…", "evidence_quote": "…", "evidence_timestamp": 27 } ], "recommendations": [ … ] }',
    onInput: () => schedule(), onLoad: () => run(),
  });
  const defaults = defaultTranscriptConfig();
  const configInputs = CONFIG.map((c) => {
    const id = uniqueId(`tx-cfg-${c.key}`);
    const input = h('input', { id, type: 'number', step: c.step, inputmode: 'decimal', dataset: { config: c.key }, oninput: () => schedule() });
    input.value = String(defaults[c.key]);
    return { c, input, field: h('div', { class: 'config-field' }, h('label', { for: id }, c.label), input) };
  });

  // ---- results ----
  const summary = h('p', { class: 'summary', role: 'status', 'aria-live': 'polite' });
  const notes = h('ul', { class: 'tx-notes', hidden: true });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const wordTimes = h('input', {
    id: ids.wordTimes, type: 'checkbox', onchange: () => { view.classList.toggle('show-word-times', wordTimes.checked); remember(); },
  });
  wordTimes.checked = true;
  const wordTimesField = h('span', { class: 'word-times-toggle', hidden: true }, wordTimes, h('label', { for: ids.wordTimes }, 'Word start times'));
  const view = h('ol', { class: 'tx-view show-word-times', 'aria-labelledby': ids.viewTitle });
  const viewer = h('div', { class: 'viewer tx-viewer' }, view);
  const itemList = h('ol', { class: 'tx-items', 'aria-label': 'Evaluation items' });
  const budget = h('p', { class: 'tx-budget', hidden: true });

  const legend = h('ul', { class: 'legend', 'aria-label': 'Legend' },
    legendItem('hl-validated', 'Item passes every check'),
    legendItem('hl-failed', 'Item fails a check'),
    legendItem('hl-candidate', 'Longest partial run of a quote not found'),
    legendItem('hl-validated hl-overlap', 'Words of more than one item'));

  const root = h('div', { class: 'transcript-mode', dataset: { runs: '0', transcriptBuilds: '0', state: 'empty' } },
    h('div', { class: 'inputs' },
      h('div', { class: 'input-bar' }, sample.element, clearButton(() => clearWork())),
      h('p', { class: 'help' }, 'Drop a transcript (.json, .srt, .vtt) or evaluation items (.json) file anywhere here. ' +
        'Your transcript, items and settings are kept in this browser until you press Clear.'),
      field(ids.transcript, 'Transcript', transcriptBox,
        { tools: [h('label', { for: ids.format }, 'Format'), formatSelect, transcriptFile.input, transcriptFile.label] }),
      field(ids.items, 'Evaluation items', itemsBox, {
        tools: [itemsFile.input, itemsFile.label],
        help: h('p', { id: ids.itemsHelp, class: 'help' },
          'JSON: a StructuredEvaluation ({ "commendations": […], "recommendations": […] }), a list of items, or one item; ',
          'each with evidence_quote and evidence_timestamp (seconds).'),
      }),
      h('details', { class: 'config' },
        h('summary', {}, 'Checks (spec 001 defaults)'),
        h('div', { class: 'config-panel' }, configInputs.map((x) => x.field)))),
    h('div', { class: 'results' },
      h('div', { class: 'results-head' }, h('h2', { id: ids.viewTitle }, 'Transcript'), wordTimesField),
      summary, notes, problem, legend, viewer,
      h('h2', {}, 'Items'),
      budget,
      itemList));
  panel.append(root);

  onMarkActivate(view, selectItemOf);
  acceptDrops(root, dropFiles);

  const schedule = debounce(run, DEBOUNCE_MS);
  const saved = savedWork('evidence-validator:transcript', (message) => ctx.setStatus(message));
  ctx.setStatus(`evidence-validator ${version()}`);
  renderEmpty();
  await restore();

  // ---- behaviour ----

  /** The last session's work, if this browser kept one. */
  async function restore() {
    const work = await saved.load();
    if (transcriptBox.value !== '' || itemsBox.value !== '') return; // the user started meanwhile
    if (!work || typeof work.transcript !== 'string' || typeof work.items !== 'string') return;
    transcriptBox.value = work.transcript;
    itemsBox.value = work.items;
    formatSelect.value = FORMATS.some(([v]) => v === work.format) ? work.format : 'auto';
    for (const { c, input } of configInputs) {
      const value = work.config?.[c.key];
      input.value = typeof value === 'string' ? value : String(defaults[c.key]);
    }
    wordTimes.checked = work.wordTimes !== false;
    ctx.setStatus(RESTORED_NOTE);
    run();
  }

  /** What a reload brings back (the settings as typed, a bad one included: it stays marked). */
  function remember() {
    saved.save(() => ({
      transcript: transcriptBox.value, items: itemsBox.value, format: formatSelect.value, wordTimes: wordTimes.checked,
      config: Object.fromEntries(configInputs.map(({ c, input }) => [c.key, input.value])),
    }));
  }

  /** Empties the boxes, resets the settings and forgets the saved work. */
  function clearWork() {
    saved.clear();
    schedule.cancel();
    transcriptBox.value = '';
    itemsBox.value = '';
    formatSelect.value = 'auto';
    for (const { c, input } of configInputs) {
      input.value = String(defaults[c.key]);
      input.removeAttribute('aria-invalid');
    }
    wordTimes.checked = true;
    transcript?.free();
    transcript = null;
    transcriptKey = null;
    currentKey = null;
    renderEmpty();
    ctx.setStatus(CLEARED_NOTE);
  }

  /**
   * Dropped files: a .json the items box reads (an evaluation, a list of
   * items, one item) fills it; any other file is the transcript, its format
   * from its extension (Auto-detect for one the selector does not name).
   */
  async function dropFiles(files) {
    for (const file of files) {
      const text = await file.text();
      const ext = extensionOf(file.name);
      if (ext === 'json' && readsAsItems(text)) {
        itemsBox.value = text;
      } else {
        transcriptBox.value = text;
        formatSelect.value = FORMAT_BY_EXTENSION[ext] ?? 'auto';
      }
    }
    ctx.setStatus(`Loaded ${files.map((f) => f.name).join(', ')}`);
    run();
  }

  function applySample(id) {
    const s = samples.find((x) => x.id === id) ?? samples[0];
    sample.select.value = s.id;
    transcriptBox.value = s.transcript;
    itemsBox.value = s.items;
    formatSelect.value = 'auto';
    run();
  }

  /** The thresholds; an empty or bad number keeps the default (and is marked invalid). */
  function readConfig() {
    const config = {};
    for (const { c, input } of configInputs) config[c.key] = readNumber(input, defaults[c.key]);
    return config;
  }

  /** The Transcript for this text and format: the current one, or a new one (the old one freed). */
  function transcriptFor(text, format) {
    const key = `${format}\u0000${text}`;
    if (transcript !== null && transcriptKey === key) return transcript;
    if (transcript !== null) transcript.free();
    transcript = null;
    transcriptKey = null;
    const built = new Transcript(text, { format });
    transcript = built;
    transcriptKey = key;
    builds++;
    return built;
  }

  function run() {
    schedule.cancel();
    remember();
    const text = transcriptBox.value;
    let parsed;
    try {
      parsed = parseItems(itemsBox.value);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return fail(text, 'Evaluation items', e.message + (e.where ? ` (${e.where})` : ''));
    }
    if (text.trim() === '' && parsed.kind === 'empty') return renderEmpty();
    if (text.trim() === '') return fail('', 'Transcript', 'paste or load a transcript');
    const config = readConfig();
    let t;
    try {
      t = transcriptFor(text, formatSelect.value);
    } catch (e) {
      if (e?.name !== 'EvidenceValidatorError') throw e;
      return fail(text, 'Transcript', e.message, e.code);
    }
    let entries = [];
    let preview = null;
    try {
      if (parsed.kind === 'evaluation') {
        const v = t.validateEvaluation(parsed.evaluation, config);
        entries = parsed.entries.map((e) => ({
          ...e, validation: (e.kind === 'commendation' ? v.commendations : v.recommendations)[e.index] ?? null, error: null,
        }));
        preview = t.previewBudget(parsed.evaluation, config);
        for (const e of entries) e.action = preview.items.find((i) => i.kind === e.kind && i.index === e.index)?.action ?? null;
      } else if (parsed.kind === 'items') {
        entries = parsed.entries.map((e) => {
          try {
            return { ...e, validation: t.validate(e.item, config), error: null };
          } catch (err) {
            if (err?.name !== 'EvidenceValidatorError' || err.code === 'CONFIGURATION_ERROR') throw err;
            return { ...e, validation: null, error: err.message };
          }
        });
      }
    } catch (e) {
      if (e?.name !== 'EvidenceValidatorError') throw e;
      return fail(t, e.code === 'CONFIGURATION_ERROR' ? 'Checks' : 'Evaluation items', e.message, e.code);
    }
    show(t, entries, preview);
  }

  function finish(state) {
    runs++;
    root.dataset.runs = String(runs);
    root.dataset.transcriptBuilds = String(builds);
    root.dataset.state = state;
  }

  function renderEmpty() {
    problem.hidden = true;
    marksByKey = new Map();
    entriesByKey = new Map();
    replaceChildren(view, h('li', { class: 'placeholder' }, 'Paste a transcript and evaluation items, or load a sample, to see the quoted words highlighted here.'));
    replaceChildren(itemList);
    replaceChildren(notes);
    notes.hidden = true;
    budget.hidden = true;
    wordTimesField.hidden = true;
    summary.textContent = 'No transcript yet.';
    root.dataset.state = 'empty';
  }

  /** Shows an input problem: the transcript stays visible (unhighlighted) when it could be read. */
  function fail(source, where, message, code) {
    marksByKey = new Map();
    entriesByKey = new Map();
    showProblem(problem, where, message, code, HINTS[where]);
    if (source instanceof Transcript) draw(source, []);
    else replaceChildren(view, h('li', { class: 'tx-row tx-raw' }, h('span', { class: 'tx-time' }, ''), h('span', { class: 'tx-text' }, source)));
    replaceChildren(itemList);
    budget.hidden = true;
    summary.textContent = 'Not validated: fix the problem below.';
    finish('error');
  }

  function show(t, entries, preview) {
    problem.hidden = true;
    entriesByKey = new Map(entries.map((e) => [e.key, e]));
    const scrollTop = viewer.scrollTop;
    draw(t, collectHighlights(entries));
    viewer.scrollTop = scrollTop;
    if (currentKey && marksByKey.has(currentKey)) for (const m of marksByKey.get(currentKey)) m.classList.add('is-current');
    else currentKey = null;
    renderItemList(itemList, entries, { hasSpan: (key) => marksByKey.has(key), focusItem, setStatus: ctx.setStatus });

    const m = t.metrics;
    const passed = entries.filter((e) => e.validation?.passed).length;
    const parts = [
      t.format.replaceAll('_', ' '),
      `${t.timing} timings`,
      `${t.segments.length} segment${t.segments.length === 1 ? '' : 's'}`,
      t.words.length ? `${t.words.length} words` : `${m.word_count} tokens`,
      `${clock(m.duration_seconds)} long`,
      m.words_per_minute === null ? null : `${Math.round(m.words_per_minute)} words/min`,
    ].filter(Boolean);
    summary.textContent = `${parts.join(' · ')}. ${entries.length ? `${entries.length} item${entries.length === 1 ? '' : 's'}: ${passed} pass, ${entries.length - passed} fail.` : 'No items yet.'}`;
    const allNotes = [...m.notes, ...t.warnings];
    replaceChildren(notes, allNotes.map((n) => h('li', {}, n)));
    notes.hidden = allNotes.length === 0;
    if (preview) {
      replaceChildren(budget, h('strong', {}, 'Retry budget (offline preview): '), preview.summary,
        preview.warnings.map((w) => ` ${w.code}: ${w.message}`));
      budget.hidden = false;
    } else {
      budget.hidden = true;
    }
    finish('ok');
  }

  /** The transcript, one row per segment, with `highlights`; word start times shown when the ASR gave them. */
  function draw(t, highlights) {
    const timedWords = t.words.some((w) => w.start !== null);
    wordTimesField.hidden = !timedWords;
    view.classList.toggle('show-word-times', timedWords && wordTimes.checked);
    marksByKey = renderTranscript(view, t, highlights, entriesByKey);
  }

  /** Scrolls an item's words into view, focuses the first mark, outlines them all. */
  function focusItem(key) {
    const marks = marksByKey.get(key);
    if (!marks?.length) return false;
    showCurrent(view, marks);
    currentKey = key;
    selectItem(key, false);
    return true;
  }

  function selectItem(key, scroll) {
    selectIn(itemList, 'li.tx-item', itemList.querySelector(`li.tx-item[data-key="${key}"]`), scroll);
  }

  /** Clicking (or Enter on) a mark marks its item in the list. */
  function selectItemOf(mark) {
    const key = (mark.dataset.items ?? '').split(' ')[0];
    if (key) selectItem(key, true);
  }
}

/** Whether `text` is evaluation items (what the items box reads), not a transcript. */
function readsAsItems(text) {
  try {
    return parseItems(text).kind !== 'empty';
  } catch {
    return false;
  }
}
