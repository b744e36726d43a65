// The transcript mode's Web Worker (issue 19, spec 001), loaded by
// worker.js: it parses the transcript (one `Transcript` per text and
// format, the old one freed) and the evaluation items (items.js), and
// validates them off the main thread, one item per library call, so that a
// one-hour transcript with many items never freezes the page, a run shows
// its progress (items checked of total), and Cancel stops it at once (the
// page terminates this worker, ../../worker-client.js). The mode has no
// time limit setting; the library's checks have none either.
//
// Messages in:  { type: 'run', runId, transcript, format, items, config }
//                 (`transcript`: the text, or the file it was read from (a
//                 Blob, read here), or null for this worker's last run's,
//                 unchanged; `items`: the items box's text)
// Messages out: { type: 'progress', runId, done, total }
//               { type: 'done', runId, transcript, entries, preview }
//                 (`transcript`: the Transcript's data (dataOf), when this
//                 run built it, else null: the page holds it; `entries`: items.js's entries, each with its
//                 `validation` (or `error`: an item the library could not
//                 read) and, for an evaluation, its retry budget `action`)
//               { type: 'empty', runId }  (no transcript and no items)
//               { type: 'failed', runId, where, message, code, transcript, read }
//                 (`where`: the box the problem is in; `read`: whether the
//                 transcript was read (the page draws it unhighlighted);
//                 `transcript` as in `done`)
//   For an evaluation each item is validated on its own (the progress);
//   should one throw, `validateEvaluation` answers for the whole, so that
//   the error (and its JSON path) is the library's for the evaluation.

import { Transcript } from 'evidence-validator/web';
import { InputError, parseItems } from './items.js';

/** How often (at most) a long run posts its progress. */
const PROGRESS_INTERVAL_MS = 100;

/** @type {Transcript|null} */
let transcript = null;
let transcriptKey = null;
/** The transcript text of the last run (the page sends null when it is unchanged). */
let heldText = '';

/** The Transcript for `text` and `format`: the current one, or a new one (the old one freed). */
function transcriptFor(text, format) {
  const key = `${format}\u0000${text}`;
  if (transcript !== null && transcriptKey === key) return { built: false };
  transcript?.free();
  transcript = null;
  transcriptKey = null;
  transcript = new Transcript(text, { format });
  transcriptKey = key;
  return { built: true };
}

/**
 * What the page draws of the transcript (plain data: the Transcript stays
 * here): its format, timing, text, warnings and metrics, and of each word
 * and segment only what view.js and layout.js read (their times and UTF-16
 * spans, a segment's speaker). A one-hour transcript is ten thousand words:
 * each with all its fields, the page's copy of the message was a long task.
 */
function dataOf(t) {
  const { words, segments, ...rest } = t.toJSON();
  const spanOf = (s) => ({ utf16_start: s.utf16_start, utf16_end: s.utf16_end });
  return {
    ...rest,
    metrics: t.metrics,
    words: words.map((w) => ({ start: w.start, end: w.end, span: spanOf(w.span) })),
    segments: segments.map((s) => ({ start: s.start, end: s.end, speaker: s.speaker ?? null, span: spanOf(s.span) })),
  };
}

const isLibraryError = (e) => e?.name === 'EvidenceValidatorError';

async function run({ runId, transcript: given, format, items, config }) {
  if (given !== null) heldText = typeof given === 'string' ? given : await given.text();
  const text = heldText;
  let parsed;
  try {
    parsed = parseItems(items);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    postMessage({ type: 'failed', runId, where: 'Evaluation items', message: e.message + (e.where ? ` (${e.where})` : ''), code: null, transcript: null, read: false });
    return;
  }
  if (text.trim() === '' && parsed.kind === 'empty') {
    postMessage({ type: 'empty', runId });
    return;
  }
  if (text.trim() === '') {
    postMessage({ type: 'failed', runId, where: 'Transcript', message: 'paste or load a transcript', code: null, transcript: null, read: false });
    return;
  }
  let built;
  try {
    ({ built } = transcriptFor(text, format));
  } catch (e) {
    if (!isLibraryError(e)) throw e;
    postMessage({ type: 'failed', runId, where: 'Transcript', message: e.message, code: e.code, transcript: null, read: false });
    return;
  }
  const t = transcript;
  const data = built ? dataOf(t) : null;
  const entries = parsed.kind === 'empty' ? [] : parsed.entries;
  const total = entries.length;
  let lastPost = performance.now();
  postMessage({ type: 'progress', runId, done: 0, total });
  const out = [];
  let preview = null;
  try {
    for (const [i, e] of entries.entries()) {
      try {
        out.push({ ...e, validation: t.validate(e.item, config), error: null });
      } catch (err) {
        if (!isLibraryError(err) || err.code === 'CONFIGURATION_ERROR') throw err;
        if (parsed.kind === 'evaluation') {
          t.validateEvaluation(parsed.evaluation, config); // the library's own error for the evaluation
          throw err;
        }
        out.push({ ...e, validation: null, error: err.message });
      }
      if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) {
        postMessage({ type: 'progress', runId, done: i + 1, total });
        lastPost = performance.now();
      }
    }
    if (parsed.kind === 'evaluation') {
      preview = t.previewBudget(parsed.evaluation, config);
      const actions = new Map(preview.items.map((x) => [`${x.kind}\u0000${x.index}`, x.action]));
      for (const e of out) e.action = actions.get(`${e.kind}\u0000${e.index}`) ?? null;
    }
  } catch (e) {
    if (!isLibraryError(e)) throw e;
    postMessage({
      type: 'failed', runId, where: e.code === 'CONFIGURATION_ERROR' ? 'Checks' : 'Evaluation items', message: e.message, code: e.code, transcript: data, read: true,
    });
    return;
  }
  postMessage({ type: 'done', runId, transcript: data, entries: out, preview });
}

/** Handles one message from the page. */
export async function handle(data) {
  if (data.type === 'run') await run(data);
}
