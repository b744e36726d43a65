// A large request validated in slices, yielding to the event loop between
// them, so that one heavy request does not hold the isolate's only thread
// for its whole validation (issue 21 item 4). The answer is the report
// `validateEvidence` gives for the same request, byte for byte once
// serialized (its timestamp aside, which is the time of the call either
// way): the worker uses this path only when it can show that, and answers
// with the one call otherwise.
//
// How: the `Document` is built once (that step cannot be cut: the library
// has no incremental build), then the claims go to `Document.validate` in
// slices of at most `sliceClaims` (the EV_SLICE_CLAIMS binding), each with
// the time left of the request's max_processing_time_seconds, with a
// macrotask between slices (other requests' events run there). The
// slices' reports are joined: results, failed claims and warnings in input
// order (HIDDEN_TEXT notes, which the library adds after all claims, after
// all claims), the summary counted again and the contentHash computed again
// the library's way (SHA-256 of the canonical JSON: sorted keys, serde_json's
// number forms). Each slice's own contentHash is recomputed first: if the
// worker's canonical JSON does not reproduce it, the slices are dropped and
// the one call answers.
//
// Returns null (the caller makes the one call, whose answer is then exactly
// today's) when:
//   - the request has at most `sliceClaims` claims, or more than its
//     max_claims (the library counts per call), or its claims are not a
//     plain array (or {claims: [...]}), or a claim id occurs again in a later
//     slice (the library's DUPLICATE_CLAIM_ID warning is per call);
//   - the config is not one the slices can be given a time budget in without
//     changing what the library checks (max_processing_time_seconds not a
//     positive number, a section that is not an object);
//   - source_metadata.format is not absent/null or one of the library's three
//     names;
//   - the library's memory estimate for the whole request could be near the
//     limit (a slice is checked for its own claims only);
//   - anything the library throws (the one call then throws the same error,
//     before any matching), an UNKNOWN_FIELDS warning (its paths are per
//     call), an error other than the time budget's, or a slice's contentHash
//     the worker does not reproduce.
// A slice that runs out of time ends the request the way the one call would:
// ok false, one PROCESSING_ERROR naming every claim not finished, counted
// over the whole request (the HIDDEN_TEXT warnings dropped, as the one call
// drops them then; the hidden places already added to earlier slices'
// failed claims stay: where time runs out differs between runs anyway).

/** The least EV_SLICE_CLAIMS: slices are then at least 4 claims, over the library's few-claims search (3). */
const MIN_SLICE = 8;

/**
 * Peak heap bytes per source byte and per claim of the library's memory
 * estimate (validate::config::estimated_memory_bytes: 10 and 4 KiB), doubled:
 * slices are used only when the whole request is estimated at most half its
 * max_memory_mb, so that the one call's refusal (checked for all claims at
 * once) can never be skipped (tests/edge/slices.test.mjs checks the margin).
 */
const MEMORY_MARGIN = { perSourceByte: 20, perClaim: 8 << 10 };

/** Keys whose values the library serializes as floats (f64): `1.0`, not `1`. */
const FLOAT_KEYS = new Set(['confidence_score', 'similarity_score', 'context_score', 'margin', 'average_confidence', 'validation_rate']);

/** The clock the library reads (src/wasm/mod.rs DateClock). */
const nowMs = () => (globalThis.performance?.timeOrigin ?? 0) + (globalThis.performance?.now?.() ?? Date.now());

/** Lets the event loop run (timers and I/O: other requests) before going on. */
const yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * @param {{Document: Function}} library the package (Document)
 * @param {string} source
 * @param {unknown} claims the request's claims (array or {claims, ...})
 * @param {object|null} config the clamped config (the library's argument)
 * @param {number} sliceClaims most claims per slice
 * @param {object} defaults the library's defaultConfig()
 * @returns {Promise<object|null>} the report, or null: make the one call
 */
export async function validateInSlices(library, source, claims, config, sliceClaims, defaults) {
  const started = nowMs();
  const plan = planSlices(source, claims, config, sliceClaims, defaults);
  if (plan === null) return null;
  // requests that came in meanwhile go first: the build below cannot be cut
  await yieldToEventLoop();
  let doc;
  try {
    doc = new library.Document(source, plan.format === null ? null : { format: plan.format });
  } catch {
    return null;
  }
  try {
    return await runSlices(doc, plan, started);
  } catch {
    return null;
  } finally {
    doc.free();
  }
}

/** What the slices need, or null when the request is not one to slice (see the header). */
function planSlices(source, claims, config, sliceClaims, defaults) {
  const list = Array.isArray(claims) ? claims : isPlainObject(claims) && Array.isArray(claims.claims) ? claims.claims : null;
  if (list === null || list.length <= Math.max(sliceClaims, MIN_SLICE)) return null;
  if (config !== null && !isPlainObject(config)) return null;
  const wrapped = config !== null && Object.keys(config).length === 1 && Object.hasOwn(config, 'validation_config');
  const inner = config === null ? {} : wrapped ? config.validation_config : config;
  if (!isPlainObject(inner)) return null;
  if (inner.performance_limits !== undefined && !isPlainObject(inner.performance_limits)) return null;
  const limits = { ...defaults.performance_limits, ...inner.performance_limits };
  const seconds = limits.max_processing_time_seconds;
  if (typeof seconds !== 'number' || !(seconds > 0) || !Number.isFinite(seconds)) return null;
  if (typeof limits.max_memory_mb !== 'number') return null;
  // the claim count is checked per call: the whole request's, by the one call
  if (typeof limits.max_claims !== 'number' || list.length > limits.max_claims) return null;
  const estimate = new TextEncoder().encode(source).length * MEMORY_MARGIN.perSourceByte + list.length * MEMORY_MARGIN.perClaim;
  if (estimate > limits.max_memory_mb * 1024 * 1024) return null;
  let format = null;
  if (!Array.isArray(claims)) {
    const meta = claims.source_metadata;
    if (meta !== undefined && meta !== null && !isPlainObject(meta)) return null;
    const f = meta?.format;
    if (f !== undefined && f !== null && !['markdown', 'plain_text', 'html'].includes(f)) return null;
    format = f ?? null;
  }
  // sizes within one of each other: each over half of sliceClaims (≥ 4,
  // so none takes the library's path for 3 claims or fewer)
  const count = Math.ceil(list.length / sliceClaims);
  const slices = [];
  for (let k = 0; k < count; k++) slices.push([Math.floor((k * list.length) / count), Math.floor(((k + 1) * list.length) / count)]);
  // an id met again in a later slice: the one call's DUPLICATE_CLAIM_ID warning
  const sliceOf = new Map();
  for (const [k, [from, to]] of slices.entries()) {
    for (let i = from; i < to; i++) {
      const id = list[i]?.id;
      if (typeof id !== 'string') return null; // the library's error to give
      const first = sliceOf.get(id);
      if (first === undefined) sliceOf.set(id, k);
      else if (first !== k) return null;
    }
  }
  const part = (from, to) => (Array.isArray(claims) ? list.slice(from, to) : { ...claims, claims: list.slice(from, to) });
  const withSeconds = (s) => {
    const at = { ...inner, performance_limits: { ...inner.performance_limits, max_processing_time_seconds: s } };
    return wrapped ? { validation_config: at } : at;
  };
  return { list, slices, part, withSeconds, seconds, format };
}

/** Validates the slices in turn and joins their reports; null to make the one call. */
async function runSlices(doc, plan, started) {
  const { list, slices, seconds } = plan;
  const reports = [];
  let error = null;
  for (const [from, to] of slices) {
    const left = seconds - (nowMs() - started) / 1000;
    if (!(left > 0)) {
      error = unfinished(seconds, list, from, `after ${from} of ${list.length} claims`);
      break;
    }
    const report = doc.validate(plan.part(from, to), plan.withSeconds(left));
    if (report.warnings.some((w) => w.code === 'UNKNOWN_FIELDS')) return null;
    if (report.errors.some((e) => e.code !== 'PROCESSING_ERROR' || !Array.isArray(e.affected_claims))) return null;
    // each result and failed claim rendered once: for this check and for the joined hash
    report.canonical = { validated: report.validated_claims.map((c) => canonical(c, null)), failed: report.failed_claims.map((c) => canonical(c, null)) };
    if ((await contentHash(report.canonical, report.validation_summary)) !== report.generated.contentHash) return null;
    reports.push(report);
    if (report.errors.length > 0) {
      const done = from + report.validated_claims.length;
      error = unfinished(seconds, list, done, done === 0 ? 'while searching the document' : `after ${done} of ${list.length} claims`);
      break;
    }
    await yieldToEventLoop();
  }
  return join(reports, list.length, error);
}

/** The one call's PROCESSING_ERROR entry when time ran out at claim `from` (src/validate/engine.rs `unfinished`). */
function unfinished(seconds, list, from, when) {
  const skipped = list.slice(from).map((c) => c.id);
  return {
    affected_claims: skipped,
    code: 'PROCESSING_ERROR',
    details: {},
    message: `processing time exceeded max_processing_time_seconds (${rustF64(seconds)} s) ${when}: ${skipped.length} claim(s) not finished`,
  };
}

/** The slices' reports as the one call's report. */
async function join(reports, total, error) {
  const first = reports[0];
  if (first === undefined) return null; // no slice ran: the one call answers
  const validated = reports.flatMap((r) => r.validated_claims);
  const failed = reports.flatMap((r) => r.failed_claims);
  const warnings = [
    ...reports.flatMap((r) => r.warnings.filter((w) => w.code !== 'HIDDEN_TEXT')),
    // the library notes hidden text after all claims, and not once time ran out
    ...(error === null ? reports.flatMap((r) => r.warnings.filter((w) => w.code === 'HIDDEN_TEXT')) : []),
  ];
  const summary = summaryOf(total, validated);
  const report = {
    ok: error === null,
    errors: error === null ? [] : [error],
    warnings,
    generated: { ...first.generated },
    document_metadata: first.document_metadata,
    validation_summary: summary,
    validated_claims: validated,
    failed_claims: failed,
  };
  const parts = { validated: reports.flatMap((r) => r.canonical.validated), failed: reports.flatMap((r) => r.canonical.failed) };
  report.generated.contentHash = await contentHash(parts, summary);
  return report;
}

/** validation_summary, as the library counts it (src/validate/report.rs Summary::of). */
function summaryOf(total, results) {
  const count = (s) => results.filter((r) => r.validation_status === s).length;
  const validated = count('VALIDATED');
  let sum = 0;
  for (const r of results) sum += r.confidence_score;
  return {
    total_claims: total,
    validated_claims: validated,
    failed_claims: count('FAILED'),
    ambiguous_claims: count('AMBIGUOUS'),
    low_confidence_claims: count('LOW_CONFIDENCE'),
    average_confidence: results.length === 0 ? 0 : sum / results.length,
    validation_rate: total === 0 ? 0 : validated / total,
  };
}

/**
 * SHA-256 (hex) of the canonical JSON of results, failed claims and summary
 * (src/validate/report.rs content_hash), from the results and failed
 * claims already rendered (`canonical`) one by one.
 */
async function contentHash(parts, summary) {
  const text = `{"failed_claims":[${parts.failed.join(',')}],"validated_claims":[${parts.validated.join(',')}],"validation_summary":${canonical(summary, null)}}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** serde_json's compact form with sorted keys; `key` says whether a number is a float. */
function canonical(value, key) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return FLOAT_KEYS.has(key) ? serdeF64(value) : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, key)).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], k)}`).join(',')}}`;
}

/** An f64 as serde_json writes it (ryu): `1.0` for whole numbers; a form it may differ in fails the hash check. */
function serdeF64(x) {
  if (!Number.isFinite(x)) return 'null';
  if (Object.is(x, -0)) return '-0.0';
  const s = String(x);
  return Number.isInteger(x) && !s.includes('e') ? `${s}.0` : s;
}

/** An f64 as Rust's `{}` writes it (no exponent): 10 → "10", 0.05 → "0.05". */
function rustF64(x) {
  const s = String(x);
  if (!s.includes('e')) return s;
  return x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
