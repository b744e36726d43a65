// The evidence mode's Web Worker (issue 19), loaded by worker.js: it holds the parsed, indexed
// `Document` and the parsed claims, and validates claims off the main
// thread, one claim per library call, so that
//   - the page never waits for the library, nor parses the claims (a
//     thousand claims are 400 KB of JSON: parsed here, and never copied to
//     the worker as objects); the main thread only renders, and receives
//     only the list entries it draws (claims.js `headOf`, `entryOf`);
//   - a run reports progress (claims done of total) as it goes;
//   - editing one claim revalidates that claim only: each claim's outcome is
//     kept, keyed by the claim's JSON, for as long as the source, format and
//     configuration stay the same;
//   - a malformed claim gets its own error while the others keep their
//     results;
//   - the run stops at the configured time limit
//     (`performance_limits.max_processing_time_seconds`, the library's
//     default unless the user sets it): each call gets the time left, and a
//     run that reaches it answers `timeout` with what it checked.
// Cancel is the main thread terminating this worker (worker-client.js).
//
// Messages in:  { type: 'run', runId, source, claims, format, config, known }
//                 (`source`, `claims`: the source text and the claims box's
//                 text, each as the text, or the file it was read from (a
//                 Blob, read here: a megabyte is not copied on the page), or
//                 null for this worker's last run's, unchanged; `format` the
//                 selector's choice (`auto`, or a format: claims.js
//                 `formatFor`); `known`: the run whose entries the page
//                 holds, or null)
//               { type: 'reanchor', runId, source, format, annotations }
//                 (issue 18: the annotations found again in an edited source,
//                 a Document of its own, freed after)
//               { type: 'report', runId, known }  (the library's own report
//                 for the claims of run `known`, as the user gave them, in one
//                 call on the current Document: the export)
// Messages out: { type: 'progress', runId, done, total, heads, outcomes }
//               { type: 'done', runId, format, docBuilt, timedOut, total, reached, checked, elapsedMs }
//                 (`checked`: the claims the library validated in this run,
//                 the others' outcomes were kept)
//               { type: 'empty', runId }  (no source and no claims: nothing to show)
//               { type: 'unreadable', runId, message }  (the claims box is not
//                 claims at all: the page keeps its last results)
//   A run's list entries travel in its progress messages as `[index, entry]`
//   pairs: first `heads`, each claim's entry without its outcome (its id and
//   quote, or its input error: what the page shows for a claim not checked,
//   HEADS_PER_MESSAGE a message), then `outcomes`, each claim's entry with
//   its outcome (at most OUTCOMES_PER_MESSAGE a message: the page reads each
//   message in a task of its own, and a thousand results at once would be a
//   long one). When `known` is this worker's last finished run, only the
//   heads and entries that differ from that run's are sent (an edit of one
//   claim sends one of each); otherwise all of them are. Entries from
//   `reached` on were not checked: their heads stand for them.
//               { type: 'report', runId, report }
//               { type: 'reanchored', runId, results }
//               { type: 'failed', runId, where, code, message, path }

import { defaultConfig, Document } from 'evidence-validator/web';
import { entryOf, formatFor, headOf, InputError, parseClaims, sameEntry } from './claims.js';

/** How often (at most) a long run posts its progress. */
const PROGRESS_INTERVAL_MS = 100;
/** The most outcomes one message carries. */
const OUTCOMES_PER_MESSAGE = 20;
/** The most heads one message carries (a claim's id and quote: small). */
const HEADS_PER_MESSAGE = 100;
/** The last finished run: { runId, heads, results, input, config } (the entries by index, the claims as given), or null. */
let lastDone = null;

let doc = null;
let docKey = null;
/** The source of the last run (the page sends null when it is unchanged). */
let heldSource = null;
/** The claims text of the last run (null: none yet), and its parse (null: not parsed, or not readable). */
let heldClaims = null;
let parsed = null;
/** Each claim's head (claims.js headOf) for `parsed`. */
let heads = [];
let configKey = null;
/** claim JSON → outcome, for the current document and configuration. */
let outcomes = new Map();

/** The Document for `source` and `format`: the current one, or a new one (the old one freed). */
function documentFor(source, format) {
  const key = `${format ?? 'auto'}\u0000${source}`;
  if (doc !== null && docKey === key) return { built: false };
  if (doc !== null) doc.free();
  doc = null;
  docKey = null;
  outcomes = new Map();
  doc = new Document(source, format ? { format } : null);
  docKey = key;
  return { built: true };
}

/** The configured time limit in seconds: the user's, else the library's default. */
function timeLimitOf(config) {
  return config?.performance_limits?.max_processing_time_seconds ?? defaultConfig().performance_limits.max_processing_time_seconds;
}

/** The claim limit of one run: the library's per-call `max_claims` (configured or default). */
function claimLimitOf(config) {
  return config?.performance_limits?.max_claims ?? defaultConfig().performance_limits.max_claims;
}

/** One claim's outcome: its result, failure entry and warnings, or its input error. */
function validateOne(claim, config) {
  try {
    const report = doc.validate({ claims: [claim] }, config);
    return {
      result: report.validated_claims[0] ?? null,
      failure: report.failed_claims[0] ?? null,
      warnings: report.warnings,
      errors: report.errors,
    };
  } catch (e) {
    if (e?.name !== 'EvidenceValidatorError') throw e;
    if (e.code === 'VALIDATION_ERROR') {
      return { error: { code: e.code, message: e.message, path: e.details?.path ?? null } };
    }
    throw e; // the configuration, the time limit, the memory estimate: the whole run
  }
}

function fail(runId, e, fallbackWhere) {
  if (e?.name !== 'EvidenceValidatorError') {
    postMessage({ type: 'failed', runId, where: fallbackWhere, code: 'INTERNAL', message: String(e?.message ?? e), path: null });
    return;
  }
  const where = e.code === 'CONFIGURATION_ERROR' ? 'Thresholds'
    : e.code === 'DOCUMENT_PARSING_ERROR' || e.details?.constraint === 'max_document_size_mb' ? 'Source'
      : e.code === 'PROCESSING_ERROR' ? 'Limits' : fallbackWhere;
  postMessage({ type: 'failed', runId, where, code: e.code, message: e.message, path: e.details?.path ?? null });
}

/** The text of `given` (a string, or a Blob read here). */
const textOf = async (given) => (typeof given === 'string' ? given : given.text());

async function run({ runId, source: givenSource, claims: givenClaims, format: chosen, config, known = null }) {
  const started = performance.now();
  if (givenSource !== null) heldSource = await textOf(givenSource);
  if (givenClaims !== null) {
    heldClaims = await textOf(givenClaims);
    parsed = null;
  }
  if (parsed === null) {
    try {
      parsed = parseClaims(heldClaims ?? '');
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      postMessage({ type: 'unreadable', runId, message: `${e.message}${e.where ? ` (${e.where})` : ''}` });
      return;
    }
    heads = parsed.entries.map((_, i) => headOf(parsed, i));
  }
  const source = heldSource ?? '';
  if (source === '' && parsed.count === 0) {
    postMessage({ type: 'empty', runId });
    return;
  }
  const limit = claimLimitOf(config);
  if (parsed.count > limit) {
    postMessage({
      type: 'failed', runId, where: 'Claims', code: 'VALIDATION_ERROR', path: null,
      message: `${parsed.count} claims, at most ${limit} are checked at once (performance_limits.max_claims)`,
    });
    return;
  }
  let built;
  try {
    ({ built } = documentFor(source, formatFor(chosen, parsed)));
  } catch (e) {
    fail(runId, e, 'Source');
    return;
  }
  const key = JSON.stringify(config);
  if (key !== configKey) {
    outcomes = new Map();
    configKey = key;
  }
  const total = parsed.count;
  const deadline = started + timeLimitOf(config) * 1000;
  const base = known !== null && lastDone?.runId === known ? lastDone : null;
  let lastPost = started;
  // the heads first: what the page shows for every claim until its outcome comes (and after Cancel)
  const changedHeads = [];
  for (let i = 0; i < total; i++) if (!base || !sameEntry(base.heads[i], heads[i])) changedHeads.push([i, heads[i]]);
  for (let at = 0; at < changedHeads.length; at += HEADS_PER_MESSAGE) {
    postMessage({ type: 'progress', runId, done: 0, total, heads: changedHeads.slice(at, at + HEADS_PER_MESSAGE), outcomes: [] });
  }
  const results = heads.slice();
  let pending = [];
  let timedOut = false;
  let checked = 0;
  let reached = 0;
  const post = (done) => {
    for (let at = 0; at < pending.length || at === 0; at += OUTCOMES_PER_MESSAGE) {
      postMessage({ type: 'progress', runId, done, total, heads: [], outcomes: pending.slice(at, at + OUTCOMES_PER_MESSAGE) });
    }
    pending = [];
    lastPost = performance.now();
  };
  for (let i = 0; i < total; i++) {
    const { claim, error } = parsed.entries[i];
    let entry = heads[i]; // a line that could not be read: its error is its entry
    if (!error) {
      const claimKey = JSON.stringify(claim);
      let outcome = outcomes.get(claimKey);
      if (outcome === undefined) {
        const left = (deadline - performance.now()) / 1000;
        if (left <= 0) { timedOut = true; break; }
        const limits = { ...(config?.performance_limits ?? {}), max_processing_time_seconds: left };
        try {
          outcome = validateOne(claim, { ...config, performance_limits: limits });
        } catch (e) {
          if (e?.code === 'PROCESSING_ERROR' && performance.now() >= deadline) { timedOut = true; break; }
          fail(runId, e, 'Claims');
          return;
        }
        outcomes.set(claimKey, outcome);
        checked++;
      }
      entry = entryOf(parsed, i, heads[i], outcome);
    }
    if (base && sameEntry(base.results[i], entry)) entry = base.results[i];
    results[i] = entry;
    reached = i + 1;
    if (!base || base.results[i] !== entry) pending.push([i, entry]);
    if (pending.length >= OUTCOMES_PER_MESSAGE || performance.now() - lastPost >= PROGRESS_INTERVAL_MS) post(reached);
  }
  if (pending.length) post(reached);
  lastDone = { runId, heads, results, input: parsed.claims, config };
  postMessage({
    type: 'done', runId, format: doc.format, docBuilt: built, timedOut, total, reached, checked,
    elapsedMs: performance.now() - started,
  });
}

function report({ runId, known }) {
  if (doc === null || lastDone === null || lastDone.runId !== known) {
    postMessage({ type: 'failed', runId, where: 'Report', code: 'INTERNAL', message: 'the results shown are not this worker\'s last run', path: null });
    return;
  }
  try {
    postMessage({ type: 'report', runId, report: doc.validate(lastDone.input, lastDone.config) });
  } catch (e) {
    fail(runId, e, 'Claims');
  }
}

function reanchor({ runId, source, format, annotations }) {
  let edited = null;
  try {
    edited = new Document(source, format ? { format } : null);
    postMessage({ type: 'reanchored', runId, results: edited.reanchor(annotations) });
  } catch (e) {
    fail(runId, e, 'Re-anchor');
  } finally {
    edited?.free();
  }
}

/** Handles one message from the page. */
export async function handle(data) {
  if (data.type === 'run') await run(data);
  else if (data.type === 'report') report(data);
  else if (data.type === 'reanchor') reanchor(data);
}
