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
// The root carries data-runs (validations finished), data-transcript-builds
// and data-state (`empty`, `ok`, `error`) for tests.

import { Transcript, version } from 'evidence-validator';
import { debounce, h, onMarkActivate, replaceChildren, uniqueId } from '../../dom.js';
import { InputError, parseItems } from './items.js';
import { clock, collectHighlights, layoutRows, primaryHighlight } from './layout.js';
import { samples } from './samples.js';

const DEBOUNCE_MS = 150;
const FORMATS = [['auto', 'Auto-detect'], ['json', 'JSON (Whisper, WhisperX, …)'], ['srt', 'SRT'], ['vtt', 'WebVTT']];
const FORMAT_BY_EXTENSION = { json: 'json', srt: 'srt', vtt: 'vtt' };
const CHECKS = [
  ['contiguous_match', 'contiguity'],
  ['length', 'length'],
  ['timestamp_locality', 'locality'],
];
const CONFIG = [
  { key: 'min_contiguous_tokens', label: 'Min. contiguous tokens', value: 6, min: 1, step: 1 },
  { key: 'max_quote_tokens', label: 'Max. quote tokens', value: 15, min: 1, step: 1 },
  { key: 'locality_seconds', label: 'Locality window (s)', value: 20, min: 0, step: 1 },
];

export function mount(panel, ctx) {
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
  const sampleSelect = h('select', { id: ids.sample }, samples.map((s) => h('option', { value: s.id }, s.label)));
  const loadSample = h('button', { type: 'button', onclick: () => applySample(sampleSelect.value) }, 'Load sample');
  const formatSelect = h('select', { id: ids.format, onchange: () => run() }, FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const transcriptBox = h('textarea', {
    id: ids.transcript, class: 'transcript-input', spellcheck: 'false', rows: 12, wrap: 'off',
    placeholder: 'Paste a transcript: Whisper verbose_json, WhisperX, whisper.cpp, Deepgram, Speechmatics, Amazon Transcribe or plain JSON, SRT, or WebVTT.',
    oninput: () => schedule(),
  });
  const itemsBox = h('textarea', {
    id: ids.items, class: 'items-input', spellcheck: 'false', rows: 10, 'aria-describedby': ids.itemsHelp,
    placeholder: '{ "commendations": [ { "text": "…", "evidence_quote": "…", "evidence_timestamp": 27 } ], "recommendations": [ … ] }',
    oninput: () => schedule(),
  });
  const transcriptFile = fileInput(ids.transcriptFile, '.json,.srt,.vtt,application/json,text/vtt,text/plain', async (file) => {
    transcriptBox.value = await file.text();
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    formatSelect.value = FORMAT_BY_EXTENSION[ext] ?? 'auto';
    run();
  });
  const itemsFile = fileInput(ids.itemsFile, '.json,application/json', async (file) => {
    itemsBox.value = await file.text();
    run();
  });
  const configInputs = CONFIG.map((c) => {
    const id = uniqueId(`tx-cfg-${c.key}`);
    const input = h('input', { id, type: 'number', min: c.min, step: c.step, inputmode: 'decimal', dataset: { config: c.key }, oninput: () => schedule() });
    input.value = String(c.value);
    return { c, input, field: h('div', { class: 'config-field' }, h('label', { for: id }, c.label), input) };
  });

  // ---- results ----
  const summary = h('p', { class: 'summary', role: 'status', 'aria-live': 'polite' });
  const notes = h('ul', { class: 'tx-notes', hidden: true });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const wordTimes = h('input', { id: ids.wordTimes, type: 'checkbox', onchange: () => view.classList.toggle('show-word-times', wordTimes.checked) });
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
      h('div', { class: 'sample-bar' }, h('label', { for: ids.sample }, 'Sample'), sampleSelect, loadSample),
      h('div', { class: 'field' },
        h('div', { class: 'field-head' },
          h('label', { for: ids.transcript, class: 'field-label' }, 'Transcript'),
          h('span', { class: 'field-tools' }, h('label', { for: ids.format }, 'Format'), formatSelect, transcriptFile.input, transcriptFile.label)),
        transcriptBox),
      h('div', { class: 'field' },
        h('div', { class: 'field-head' },
          h('label', { for: ids.items, class: 'field-label' }, 'Evaluation items'),
          h('span', { class: 'field-tools' }, itemsFile.input, itemsFile.label)),
        itemsBox,
        h('p', { id: ids.itemsHelp, class: 'help' },
          'JSON: a StructuredEvaluation ({ "commendations": […], "recommendations": […] }), a list of items, or one item; ',
          'each with evidence_quote and evidence_timestamp (seconds).')),
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

  const schedule = debounce(run, DEBOUNCE_MS);
  ctx.setStatus(`evidence-validator ${version()}`);
  renderEmpty();

  // ---- behaviour ----

  function applySample(id) {
    const s = samples.find((x) => x.id === id) ?? samples[0];
    sampleSelect.value = s.id;
    transcriptBox.value = s.transcript;
    itemsBox.value = s.items;
    formatSelect.value = 'auto';
    run();
  }

  /** The thresholds; an empty or bad number keeps the default (and is marked invalid). */
  function readConfig() {
    const config = {};
    for (const { c, input } of configInputs) {
      const v = input.value.trim() === '' ? NaN : Number(input.value);
      const bad = !Number.isFinite(v);
      if (bad) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      config[c.key] = bad ? c.value : v;
    }
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
    replaceChildren(problem, h('strong', {}, `${where}: `), code ? `${code}: ` : '', message.replace(/^[A-Z_]+: /, ''));
    problem.hidden = false;
    if (source instanceof Transcript) renderTranscript(source, []);
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
    renderTranscript(t, collectHighlights(entries));
    viewer.scrollTop = scrollTop;
    if (currentKey && marksByKey.has(currentKey)) for (const m of marksByKey.get(currentKey)) m.classList.add('is-current');
    else currentKey = null;
    renderItems(entries);

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

  /** The transcript, one row per segment, words and highlights as elements (text as text nodes). */
  function renderTranscript(t, highlights) {
    const text = t.text;
    const segments = t.segments;
    const words = t.words;
    const timedWords = words.some((w) => w.start !== null);
    wordTimesField.hidden = !timedWords;
    view.classList.toggle('show-word-times', timedWords && wordTimes.checked);
    const rows = layoutRows(text, segments, words, highlights);
    marksByKey = new Map();
    const frag = document.createDocumentFragment();
    for (const row of rows) {
      const seg = row.segment === null ? null : segments[row.segment];
      const start = seg ? seg.start : words.find((w) => w.start !== null)?.start ?? null;
      const end = seg ? seg.end : [...words].reverse().find((w) => w.end !== null)?.end ?? null;
      const textCell = h('span', { class: 'tx-text' });
      let group = null;
      let groupKeys = '';
      for (const p of row.pieces) {
        const keys = p.highlights.map((x) => x.key).join(' ');
        if (keys === '') {
          group = null;
          groupKeys = '';
          textCell.append(pieceNode(text, p, words));
          continue;
        }
        if (group === null || keys !== groupKeys) {
          group = markFor(p.highlights);
          groupKeys = keys;
          textCell.append(group);
        }
        group.append(pieceNode(text, p, words));
      }
      frag.append(h('li', { class: 'tx-row', dataset: { segment: row.segment === null ? '' : String(row.segment) } },
        h('span', { class: 'tx-time' },
          seg?.speaker ? h('span', { class: 'tx-speaker' }, seg.speaker) : null,
          h('span', { class: 'tx-clock' }, `${clock(start)}–${clock(end)}`)),
        textCell));
    }
    view.replaceChildren(frag);
  }

  function markFor(list) {
    const top = primaryHighlight(list);
    const mark = document.createElement('mark');
    mark.className = `hl ${top.role === 'partial' ? 'hl-candidate' : top.passed ? 'hl-validated' : 'hl-failed'} tx-hl`;
    if (list.length > 1) mark.classList.add('hl-overlap');
    mark.tabIndex = 0;
    mark.dataset.items = list.map((x) => x.key).join(' ');
    mark.dataset.role = top.role;
    mark.title = list.map((x) => {
      const e = entriesByKey.get(x.key);
      const what = x.role === 'partial' ? 'longest partial run of its quote (the whole quote is not in the transcript)' : x.passed ? 'passes' : `fails ${failedLabels(e?.validation)}`;
      return `${e?.label ?? x.key}: ${what}`;
    }).join('\n');
    for (const x of list) {
      if (!marksByKey.has(x.key)) marksByKey.set(x.key, []);
      marksByKey.get(x.key).push(mark);
    }
    return mark;
  }

  function renderItems(entries) {
    replaceChildren(itemList, entries.map((e) => {
      const v = e.validation;
      const status = e.error ? 'error' : v.passed ? 'pass' : 'fail';
      const hasSpan = marksByKey.has(e.key);
      const ts = typeof e.item?.evidence_timestamp === 'number' ? `@ ${clock(e.item.evidence_timestamp)}` : '';
      const quote = typeof e.item?.evidence_quote === 'string' ? e.item.evidence_quote : '';
      const where = v?.matched
        ? `matched ${clock(v.matched.start_time)}–${clock(v.matched.end_time)}${v.occurrence_count > 1 ? ` (occurrence chosen among ${v.occurrence_count})` : ''}`
        : v?.longest_partial_match
          ? `not found; longest partial run: ${v.longest_partial_match.length} of ${v.quote_tokens.length} tokens at ${clock(v.longest_partial_match.start_time)}`
          : v ? 'not found' : '';
      const button = h('button', {
        type: 'button', class: 'tx-item-button', dataset: { key: e.key },
        'aria-disabled': hasSpan ? null : 'true',
        onclick: () => (focusItem(e.key) ? null : ctx.setStatus(`${e.label} has no words in the transcript`)),
      },
      h('span', { class: `badge badge-${status === 'pass' ? 'validated' : 'failed'}` }, status === 'pass' ? 'pass' : status === 'fail' ? 'fail' : 'error'),
      h('span', { class: 'tx-item-label' }, e.label),
      h('span', { class: 'tx-item-quote' }, quote ? `“${quote}” ` : '', h('span', { class: 'tx-item-ts' }, ts)),
      h('span', { class: 'tx-item-meta' }, [e.item?.text, where].filter(Boolean).join(' · ')));
      const details = [];
      if (e.error) {
        details.push(h('p', { class: 'step-error' }, e.error));
      } else {
        if (!v.passed) {
          details.push(h('p', { class: 'tx-failed' }, h('strong', {}, 'Failed: '),
            v.failed_checks.map((c) => `${checkLabel(c)} (${v[c].reason})`).join(', ')));
        }
        details.push(h('ul', { class: 'tx-checks', 'aria-label': `Checks of ${e.label}` }, CHECKS.map(([name, label]) => {
          const c = v[name];
          const icon = c.status === 'passed' ? '✓' : c.status === 'failed' ? '✗' : '–';
          return h('li', { class: `tx-check check-${c.status}`, dataset: { check: name, status: c.status, reason: c.reason } },
            h('span', { class: 'tx-check-name' }, `${icon} ${label}`),
            h('span', { class: 'tx-check-reason' }, c.reason),
            h('span', { class: 'tx-check-message' }, c.message));
        })));
        const action = e.action;
        if (action) details.push(h('p', { class: 'muted' }, `Retry budget: ${action}`));
      }
      return h('li', { class: `tx-item tx-item-${status}`, dataset: { key: e.key, kind: e.kind, index: String(e.index), status } },
        button, h('div', { class: 'tx-item-details' }, details));
    }));
  }

  /** Scrolls an item's words into view, focuses the first mark, outlines them all. */
  function focusItem(key) {
    const marks = marksByKey.get(key);
    if (!marks?.length) return false;
    for (const m of view.querySelectorAll('mark.is-current')) m.classList.remove('is-current');
    for (const m of marks) m.classList.add('is-current');
    currentKey = key;
    marks[0].scrollIntoView({ block: 'center', inline: 'nearest' });
    marks[0].focus({ preventScroll: true });
    selectItem(key, false);
    return true;
  }

  function selectItem(key, scroll) {
    for (const li of itemList.querySelectorAll('li.tx-item.is-selected')) li.classList.remove('is-selected');
    const li = itemList.querySelector(`li.tx-item[data-key="${key}"]`);
    if (li) {
      li.classList.add('is-selected');
      if (scroll) li.scrollIntoView({ block: 'nearest' });
    }
  }

  /** Clicking (or Enter on) a mark marks its item in the list. */
  function selectItemOf(mark) {
    const key = (mark.dataset.items ?? '').split(' ')[0];
    if (key) selectItem(key, true);
  }
}

const checkLabel = (name) => CHECKS.find(([n]) => n === name)?.[1] ?? name;
const failedLabels = (v) => (v?.failed_checks ?? []).map(checkLabel).join(', ');

/** One piece of a row: a word (with its times) or the text between words. */
function pieceNode(text, p, words) {
  const s = text.slice(p.start, p.end);
  if (p.word === null) return document.createTextNode(s);
  const w = words[p.word];
  const span = document.createElement('span');
  span.className = 'w';
  span.dataset.w = String(p.word);
  if (w.start !== null) {
    span.title = `${w.start.toFixed(2)}–${w.end === null ? '?' : w.end.toFixed(2)} s`;
    if (p.wordStart) span.dataset.t = w.start.toFixed(1);
  } else {
    span.title = 'no timestamp';
  }
  span.append(document.createTextNode(s));
  return span;
}

function legendItem(classes, label) {
  return h('li', {}, h('mark', { class: `hl ${classes} legend-swatch`, 'aria-hidden': 'true' }, 'Abc'), ` ${label}`);
}

/** A visually hidden file input with a button-like label (the input stays in the tab order). */
function fileInput(id, accept, onFile) {
  const input = h('input', {
    id, type: 'file', accept, class: 'file-input',
    onchange: async () => {
      const file = input.files?.[0];
      if (file) await onFile(file);
      input.value = '';
    },
  });
  return { input, label: h('label', { for: id, class: 'file-label' }, 'Load file…') };
}
