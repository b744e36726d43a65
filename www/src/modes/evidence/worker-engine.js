// The evidence mode's Web Worker (issue 19), loaded by worker.js: it holds the parsed, indexed
// `Document` and validates claims off the main thread, one claim per library
// call, so that
//   - the page never waits for the library (the main thread only renders);
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
// Cancel is the main thread terminating this worker (protocol.js).
//
// Messages in:  { type: 'run', runId, source, format, claims, config, known }
//                 (`known`: the run whose outcomes the page holds, or null;
//                 `source`: the text, or the file it was read from (a Blob,
//                 read here: a megabyte is not copied on the page), or null
//                 for the source of this worker's last run, unchanged)
//               { type: 'reanchor', runId, source, format, annotations }
//                 (issue 18: the annotations found again in an edited source,
//                 a Document of its own, freed after)
//               { type: 'report', runId, claims, config }  (the library's own
//                 report for the claims input, as the user gave it, in one
//                 call on the current Document: the export)
// Messages out: { type: 'progress', runId, done, total, outcomes }
//               { type: 'done', runId, format, docBuilt, timedOut, reached, checked, elapsedMs }
//                 (`checked`: the claims the library validated in this run,
//                 the others' outcomes were kept)
//   A run's outcomes travel in its progress messages, `[index, outcome]`
//   pairs, at most OUTCOMES_PER_MESSAGE a message (the page reads each
//   message in a task of its own: a thousand outcomes at once would be a
//   long one). When `known` is this worker's last finished run, only the
//   indices whose outcome differs from that run's are sent (an edit of one
//   claim sends one); otherwise every index up to `reached` is, null for a
//   claim not read. Indices from `reached` on were not checked.
//               { type: 'report', runId, report }
//               { type: 'reanchored', runId, results }
//               { type: 'failed', runId, where, code, message, path }

import { defaultConfig, Document } from 'evidence-validator/web';

/** How often (at most) a long run posts its progress. */
const PROGRESS_INTERVAL_MS = 100;
/** The most outcomes one message carries. */
const OUTCOMES_PER_MESSAGE = 20;
/** The last finished run: { runId, results } (the outcome objects by index), or null. */
let lastDone = null;

let doc = null;
let docKey = null;
/** The source of the last run (the page sends null when it is unchanged). */
let heldSource = null;
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

async function run({ runId, source: given, format, claims, config, known = null }) {
  const started = performance.now();
  if (given !== null) heldSource = typeof given === 'string' ? given : await given.text();
  const source = heldSource ?? '';
  let built;
  try {
    ({ built } = documentFor(source, format));
  } catch (e) {
    fail(runId, e, 'Source');
    return;
  }
  const key = JSON.stringify(config);
  if (key !== configKey) {
    outcomes = new Map();
    configKey = key;
  }
  const limit = claimLimitOf(config);
  if (claims.length > limit) {
    postMessage({
      type: 'failed', runId, where: 'Claims', code: 'VALIDATION_ERROR', path: null,
      message: `${claims.length} claims, at most ${limit} are checked at once (performance_limits.max_claims)`,
    });
    return;
  }
  const deadline = started + timeLimitOf(config) * 1000;
  const base = known !== null && lastDone?.runId === known ? lastDone.results : null;
  const results = new Array(claims.length).fill(null);
  let pending = [];
  let lastPost = started;
  let timedOut = false;
  let checked = 0;
  let reached = 0;
  const post = (done) => {
    for (let at = 0; at < pending.length || at === 0; at += OUTCOMES_PER_MESSAGE) {
      postMessage({ type: 'progress', runId, done, total: claims.length, outcomes: pending.slice(at, at + OUTCOMES_PER_MESSAGE) });
    }
    pending = [];
    lastPost = performance.now();
  };
  for (let i = 0; i < claims.length; i++) {
    const claim = claims[i];
    let outcome = null;
    if (claim !== null) { // null: a line the main thread could not read (its own error there)
      const claimKey = JSON.stringify(claim);
      outcome = outcomes.get(claimKey);
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
    }
    results[i] = outcome;
    reached = i + 1;
    if (!base || base[i] !== outcome) pending.push([i, outcome]);
    if (pending.length >= OUTCOMES_PER_MESSAGE || performance.now() - lastPost >= PROGRESS_INTERVAL_MS) post(reached);
  }
  if (pending.length) post(reached);
  lastDone = { runId, results };
  postMessage({
    type: 'done', runId, format: doc.format, docBuilt: built, timedOut, reached, checked,
    elapsedMs: performance.now() - started,
  });
}

function report({ runId, claims, config }) {
  if (doc === null) {
    postMessage({ type: 'failed', runId, where: 'Report', code: 'INTERNAL', message: 'no document yet: validate first', path: null });
    return;
  }
  try {
    postMessage({ type: 'report', runId, report: doc.validate(claims, config) });
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
