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
// The library's work runs in a Web Worker (worker-engine.js, issue 19): it
// keeps one Transcript while the text and format stay the same (editing the
// items or the thresholds only re-validates; a new one frees the old),
// validates the items one by one, and sends back the transcript's data and
// each item's result; a long run shows its progress and Cancel stops it at
// once. The page only draws, a slice at a time (view.js). A transcript over
// 200,000 characters (a one-hour Whisper JSON with its word timings) is
// held out of its text box, like the evidence mode's source.
// The transcript, the items, the format, the checks' settings and the word
// times switch are kept in this browser (storage.js) until Clear.
//
// The root carries data-runs (validations finished), data-transcript-builds,
// data-running (while a run is in flight) and data-state (`empty`, `ok`,
// `error`, `cancelled`) for tests.

import { defaultTranscriptConfig, version } from '../../library.js';
import { afterNextFrame, debounce, h, onMarkActivate, replaceChildren, timeSlicer, uniqueId } from '../../dom.js';
import {
  acceptDrops, clearButton, extensionOf, field, legendItem, loadableText, progressRow, readNumber, sampleBar, selectIn, showCurrent, showProblem,
} from '../../widgets.js';
import { libraryWorker } from '../../worker-client.js';
import { renderItemList } from './item-list.js';
import { parseItems } from './items.js';
import { clock, collectHighlights } from './layout.js';
import { samples } from './samples.js';
import { CLEARED_NOTE, RESTORED_NOTE, savedWork } from '../../storage.js';
import { renderTranscript } from './view.js';

const DEBOUNCE_MS = 150;
/** More rows or items than this (a screen or two): those out of sight are not laid out (style.css `.is-long`). */
const LONG_LIST = 40;
/**
 * The script of one slice of drawing (ms; dom.js timeSlicer): its frame
 * styles and lays out what it made, several times its script's cost (a
 * millisecond makes a few hundred of a transcript's elements). Traced
 * (tests/browser/profile.mjs --cpu), a frame of a one-hour transcript then
 * takes at most about 8 ms of CPU; the whole hour is drawn in a few
 * seconds, its first screen at once.
 */
const SLICE_MS = 0.5;
/** A transcript longer than this (UTF-16 units) is held out of its text box (widgets.js loadableText). */
const HOLD_OVER_UNITS = 200_000;
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
  /** The data of the worker's current Transcript (worker-engine.js `done`): what the page draws. */
  let transcript = null;
  let builds = 0;
  /** Each run's number: a draw of an older run stops. */
  let runSeq = 0;
  /** The transcript text the current worker holds (its last run's), or null: a run with the same text sends none. */
  let heldByWorker = null;
  const worker = libraryWorker(() => new Worker(new URL('./worker.js', import.meta.url), { name: 'evidence-validator-transcript' }), {
    onStart: () => { heldByWorker = null; },
  });
  let runs = 0;
  let marksByKey = new Map();
  let entriesByKey = new Map();
  let currentKey = null;

  // ---- inputs ----
  const sample = sampleBar(ids.sample, samples, (id) => applySample(id));
  const formatSelect = h('select', { id: ids.format, onchange: () => run() }, FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const transcriptText = loadableText({
    id: ids.transcript, fileId: ids.transcriptFile, accept: '.json,.srt,.vtt,application/json,text/vtt,text/plain',
    class: 'transcript-input', rows: 12, wrap: 'off', holdOver: HOLD_OVER_UNITS,
    placeholder: 'Paste a transcript: Whisper verbose_json, WhisperX, whisper.cpp, Deepgram, Speechmatics, Amazon Transcribe or plain JSON, SRT, or WebVTT.',
    onInput: () => schedule(),
    onLoad: (file) => { formatSelect.value = FORMAT_BY_EXTENSION[extensionOf(file.name)] ?? 'auto'; run(); },
  });
  const transcriptFile = transcriptText.file;
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
  const progress = progressRow(() => root, 'Items checked', () => cancel());

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
      field(ids.transcript, 'Transcript', transcriptText.element,
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
      summary, progress.element, notes, problem, legend, viewer,
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
    if (transcriptText.text() !== '' || itemsBox.value !== '') return; // the user started meanwhile
    if (!work || typeof work.transcript !== 'string' || typeof work.items !== 'string') return;
    transcriptText.setText(work.transcript, 'Your last transcript');
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
      transcript: transcriptText.stored(), items: itemsBox.value, format: formatSelect.value, wordTimes: wordTimes.checked,
      config: Object.fromEntries(configInputs.map(({ c, input }) => [c.key, input.value])),
    }));
  }

  /** Empties the boxes, resets the settings and forgets the saved work. */
  function clearWork() {
    saved.clear();
    schedule.cancel();
    worker.stop('superseded');
    runSeq++;
    transcriptText.setText('');
    itemsBox.value = '';
    formatSelect.value = 'auto';
    for (const { c, input } of configInputs) {
      input.value = String(defaults[c.key]);
      input.removeAttribute('aria-invalid');
    }
    wordTimes.checked = true;
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
        transcriptText.setText(text, file.name, file);
        formatSelect.value = FORMAT_BY_EXTENSION[ext] ?? 'auto';
      }
    }
    ctx.setStatus(`Loaded ${files.map((f) => f.name).join(', ')}`);
    run();
  }

  function applySample(id) {
    const s = samples.find((x) => x.id === id) ?? samples[0];
    sample.select.value = s.id;
    transcriptText.setText(s.transcript);
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

  /** Validates in the worker (worker-engine.js), then draws the answer; a run in flight is replaced. */
  async function run() {
    schedule.cancel();
    remember();
    const mine = ++runSeq;
    const text = transcriptText.text();
    worker.stop('superseded'); // a busy worker is replaced first: the new one holds no text
    const answerP = worker.send({
      type: 'run', format: formatSelect.value, items: itemsBox.value, config: readConfig(),
      transcript: text === heldByWorker ? null : transcriptText.heldFromFile() ?? text,
    }, {
      onProgress: (p) => progress.set({ ...p, what: (done, total) => (total ? `Checking items: ${done} of ${total}…` : 'Reading the transcript…') }),
    });
    heldByWorker = text;
    progress.set({ done: 0, total: 0, what: () => 'Reading the transcript…' });
    const answer = await answerP;
    if (answer.type === 'superseded' || mine !== runSeq) return;
    progress.set(null);
    if (answer.type === 'cancelled') return showCancelled();
    if (answer.transcript) {
      transcript = answer.transcript;
      builds++;
    }
    if (answer.type === 'empty') return renderEmpty();
    if (answer.type === 'failed') {
      return fail(answer.read ? transcript : text, answer.where, answer.message, answer.code ?? undefined, mine);
    }
    await show(transcript, answer.entries, answer.preview, mine);
  }

  function cancel() {
    if (worker.cancel()) ctx.setStatus('Cancelled: the checks in progress stopped.');
  }

  /** After Cancel: nothing of that run is shown; the next edit runs again. */
  function showCancelled() {
    summary.textContent = 'Cancelled: the items were not checked; edit anything, or pick the format again, to run again.';
    finish('cancelled');
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

  /**
   * Shows an input problem: the transcript stays visible (unhighlighted)
   * when it could be read (`source` its data), else as typed (`source` the
   * text).
   */
  async function fail(source, where, message, code, mine) {
    marksByKey = new Map();
    entriesByKey = new Map();
    showProblem(problem, where, message, code, HINTS[where]);
    if (typeof source !== 'string') {
      if (!await draw(source, [], mine)) return;
    } else {
      replaceChildren(view, h('li', { class: 'tx-row tx-raw' }, h('span', { class: 'tx-time' }, ''), h('span', { class: 'tx-text' }, source)));
    }
    replaceChildren(itemList);
    budget.hidden = true;
    summary.textContent = 'Not validated: fix the problem below.';
    finish('error');
  }

  /** Draws run `mine`'s answer: `t` the transcript's data, each item's entry, the budget preview. */
  async function show(t, entries, preview, mine) {
    problem.hidden = true;
    entriesByKey = new Map(entries.map((e) => [e.key, e]));
    const scrollTop = viewer.scrollTop;
    if (!await draw(t, collectHighlights(entries), mine)) return;
    viewer.scrollTop = scrollTop;
    if (currentKey && marksByKey.has(currentKey)) for (const m of marksByKey.get(currentKey)) m.classList.add('is-current');
    else currentKey = null;
    itemList.classList.toggle('is-long', entries.length > LONG_LIST);
    const listed = await renderItemList(itemList, entries, { hasSpan: (key) => marksByKey.has(key), focusItem, setStatus: ctx.setStatus },
      timeSlicer(() => mine === runSeq, SLICE_MS));
    if (!listed) return;

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

  /**
   * The transcript, one row per segment, with `highlights`; word start times
   * shown when the ASR gave them. Drawn a slice at a time (view.js); false
   * when a newer run came meanwhile (it draws instead).
   */
  async function draw(t, highlights, mine) {
    // a frame first: the task that received the worker's answer (ten thousand words copied) draws nothing
    await afterNextFrame();
    if (mine !== runSeq) return false;
    const timedWords = t.words.some((w) => w.start !== null);
    view.classList.toggle('is-long', t.segments.length > LONG_LIST);
    const marks = await renderTranscript(view, t, highlights, entriesByKey, timeSlicer(() => mine === runSeq, SLICE_MS));
    if (marks === null) return false;
    marksByKey = marks;
    wordTimesField.hidden = !timedWords;
    view.classList.toggle('show-word-times', timedWords && wordTimes.checked);
    return true;
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
