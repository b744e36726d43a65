// Edge function: validates an LLM's evidence before it reaches a user. A
// module worker in the Cloudflare Workers / WinterCG shape
// (`export default { fetch }`).
//
//   POST {"source": "...", "claims": {...} | [...], "config": {...}?}
//     200  the validation report (spec 000 §2.2), application/json; the
//          request's config clamped to the server's bounds (BOUNDS below),
//          the clamped keys named in `X-Evidence-Validator-Clamped`
//     400  {"error": {code, message, details}}: a body that is not JSON, not
//          an object, a missing/mistyped field, or what the library rejects
//          (VALIDATION_ERROR, CONFIGURATION_ERROR, DOCUMENT_PARSING_ERROR);
//          details.body_path names the field in the request body
//     413  the body is over the body bound (Content-Length, or counted while
//          reading), or the source is over max_document_size_mb
//     415  a POST whose Content-Type is not application/json (a charset
//          parameter, when given, must be utf-8)
//     405  any other method but OPTIONS, with `Allow: POST, OPTIONS`
//   OPTIONS (CORS preflight)
//     204  Access-Control-Allow-Methods: POST, OPTIONS; -Allow-Headers:
//          Content-Type; -Max-Age
//   Every response has `Vary: Origin`, and `Access-Control-Allow-Origin` (the
//   request's Origin) only when that origin is in the ALLOWED_ORIGINS binding
//   (none by default). A malformed binding is a 500 SERVER_CONFIGURATION_ERROR.
//
// Every request is validated by the library's SlicedValidation a bounded
// amount per step (the document built EV_SLICE_BYTES of source at a time,
// the claims EV_SLICE_CLAIMS at a time, the report's text written as many
// claims at a time); a request of more than EV_SLICE_CLAIMS claims or a
// source over 4 × EV_SLICE_BYTES yields to the event loop between steps,
// smaller ones run their steps at once. The report is the one call's (the
// library joins the slices; edge/README.md "Large requests").
//
// The package's web build is initialised from an imported wasm module, as
// edge runtimes require (no compiling of fetched bytes): `pkg/web/workerd.js`
// does `import wasm from './evidence_validator_bg.wasm'` and `initSync`. In a
// project that installed the package, wrangler picks the same file through
// the package's `workerd` export condition: `import { validateEvidence } from
// 'evidence-validator'`. Here the worker imports it from pkg/ directly, and
// the runtime is told to load `.wasm` files as compiled modules
// (tests/edge/edge.test.mjs: a CompiledWasm module rule; wrangler does that
// by default).

import { defaultConfig, parseJson, sliceOptionBounds, SlicedValidation, version } from '../pkg/web/workerd.js';

/**
 * Default for the largest request body accepted, in bytes (binding
 * EV_MAX_BODY_BYTES). (Nothing here is exported: workerd takes every named
 * export of the main module for an entry point.)
 */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The library's bounds and defaults of SlicedValidation's claimsPerSlice and
 * bytesPerStep (`sliceOptionBounds()`: each `{min, max, default}`), read
 * once: the EV_SLICE_* rows below take theirs from it.
 */
const SLICE = sliceOptionBounds();

/**
 * The server's bounds: one row per value whose cost grows with it. A request
 * value above `max` is lowered to it (and named in the Clamped header); a
 * missing value gets `max` when that is lower than the library's default
 * (`defaultConfig()`: the worker copies none of the library's defaults or
 * bounds). `max` can be overridden by the env binding `env`. Values below a
 * bound are left to the library, which parses the config and rejects
 * out-of-range or mistyped values with a CONFIGURATION_ERROR naming the
 * path: the worker only tightens.
 *
 * The fuzzy matcher's work grows steeply with max_edit_distance as it nears
 * the quote's length (measured in Node on 1 MB of text, 20 claims of 25
 * characters, similarity_threshold 0: k = 8 about 1 s, 16 about 6 s, 24
 * about 100 s); semantic chunks cost chunk_size / (chunk_size − overlap_size)
 * per word (1 MB, 5 paraphrases: 2000/250 0.14 s, 2000/1999 17 s), so
 * overlap_size is also held to half the chunk size.
 */
const BOUNDS = [
  { path: null, name: 'body_bytes', env: 'EV_MAX_BODY_BYTES', max: MAX_BODY_BYTES, integer: true, min: 1 },
  { path: ['performance_limits', 'max_document_size_mb'], env: 'EV_MAX_DOCUMENT_SIZE_MB', max: 4, integer: false, min: Number.MIN_VALUE },
  { path: ['performance_limits', 'max_claims'], env: 'EV_MAX_CLAIMS', max: 100, integer: true, min: 1 },
  { path: ['performance_limits', 'max_processing_time_seconds'], env: 'EV_MAX_PROCESSING_TIME_SECONDS', max: 10, integer: false, min: Number.MIN_VALUE },
  // a Workers isolate has 128 MB: the library refuses a call whose estimated peak is over this
  { path: ['performance_limits', 'max_memory_mb'], env: 'EV_MAX_MEMORY_MB', max: 64, integer: false, min: Number.MIN_VALUE },
  { path: ['fuzzy_matching', 'max_edit_distance'], env: 'EV_MAX_EDIT_DISTANCE', max: 8, integer: true, min: 0 },
  { path: ['context_validation', 'context_window'], env: 'EV_MAX_CONTEXT_WINDOW', max: 1000, integer: true, min: 0 },
  { path: ['semantic_matching', 'chunk_size'], env: 'EV_MAX_CHUNK_SIZE', max: 2000, integer: true, min: 1 },
  { path: ['semantic_matching', 'overlap_size'], env: 'EV_MAX_OVERLAP_SIZE', max: 250, integer: true, min: 0, atMostHalfOf: 'chunk_size' },
  // not config values: claims per slice and source bytes per build step
  // (SlicedValidation's claimsPerSlice and bytesPerStep; see `validate`):
  // the value used is `max`, the library's default unless the binding sets
  // it, within the library's bounds (`ceiling` the library's max)
  { path: null, name: 'slice_claims', env: 'EV_SLICE_CLAIMS', max: SLICE.claimsPerSlice.default, integer: true, min: SLICE.claimsPerSlice.min, ceiling: SLICE.claimsPerSlice.max },
  { path: null, name: 'slice_bytes', env: 'EV_SLICE_BYTES', max: SLICE.bytesPerStep.default, integer: true, min: SLICE.bytesPerStep.min, ceiling: SLICE.bytesPerStep.max },
];

/** Seconds a browser may cache a preflight answer. */
const CORS_MAX_AGE_SECONDS = 600;
/** Response headers a browser page from an allowed origin may read. */
const EXPOSED_HEADERS = 'X-Evidence-Validator, X-Evidence-Validator-Clamped';
const ALLOWED_METHODS = 'POST, OPTIONS';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/** The library's default configuration (the §1.3 object), as it applies it. Read once. */
const LIBRARY_DEFAULTS = defaultConfig();

/** A binding that does not parse: a 500, the operator's to fix. */
class ServerConfigurationError extends Error {
  constructor(binding, value, constraint, message) {
    super(message);
    this.name = 'ServerConfigurationError';
    this.details = { binding, value: String(value), constraint };
  }
}

export default {
  /**
   * @param {Request} request
   * @param {Record<string, unknown>} [env] bindings: EV_MAX_* (BOUNDS), ALLOWED_ORIGINS
   */
  async fetch(request, env) {
    let server;
    try {
      server = serverSettings(env ?? {});
    } catch (e) {
      if (!(e instanceof ServerConfigurationError)) throw e;
      return withVary(errorResponse(500, 'SERVER_CONFIGURATION_ERROR', e.message, e.details));
    }
    const response = await handle(request, server);
    return withCors(response, request, server);
  },
};

/** The request's answer, before the CORS headers. */
async function handle(request, server) {
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        Allow: ALLOWED_METHODS,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
      },
    });
  }
  if (request.method !== 'POST') {
    return errorResponse(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported: POST a JSON body`, { method: request.method }, { Allow: ALLOWED_METHODS });
  }
  const contentType = request.headers.get('Content-Type');
  if (!isJsonMediaType(contentType)) {
    return errorResponse(415, 'UNSUPPORTED_MEDIA_TYPE',
      `the body must be sent as Content-Type: application/json (charset utf-8 if given), got ${contentType === null ? 'none' : JSON.stringify(contentType)}`,
      { content_type: contentType, expected: 'application/json' });
  }
  const body = await readBody(request, server.maxBodyBytes);
  if (body instanceof Response) return body;

  // the library's strict parser, not JSON.parse: a duplicate key (which
  // JSON.parse would settle by keeping the last) is refused with its path
  // (parseJson uses JSON.parse itself where its scan shows that gives the
  // same value)
  let input;
  try {
    input = parseJson(body);
  } catch (e) {
    if (e?.details?.constraint === 'uniqueKeys') {
      return errorResponse(400, 'VALIDATION_ERROR', e.message, { ...e.details, body_path: e.details.json_path });
    }
    return errorResponse(400, 'INVALID_JSON', `the request body is not JSON: ${e?.message ?? e}`, {});
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return errorResponse(400, 'VALIDATION_ERROR', 'the request body must be a JSON object {source, claims, config?}',
      { json_path: '$', body_path: '$', constraint: 'type' });
  }
  if (typeof input.source !== 'string') {
    return errorResponse(400, 'VALIDATION_ERROR', '"source" must be a string (the source document)',
      { json_path: '$.source', body_path: '$.source', constraint: input.source === undefined ? 'required' : 'type' });
  }
  if (input.claims === undefined || input.claims === null || typeof input.claims !== 'object') {
    return errorResponse(400, 'VALIDATION_ERROR', '"claims" must be an object {claims: [...]} or an array of claims',
      { json_path: '$.claims', body_path: '$.claims', constraint: input.claims === undefined ? 'required' : 'type' });
  }
  if (input.config !== undefined && input.config !== null && (typeof input.config !== 'object' || Array.isArray(input.config))) {
    return errorResponse(400, 'VALIDATION_ERROR', '"config" must be an object when given',
      { json_path: '$.config', body_path: '$.config', constraint: 'type' });
  }

  const { config, clamped } = clampConfig(input.config ?? null, server.bounds, LIBRARY_DEFAULTS);
  const clampedHeader = clamped.length > 0 ? { 'X-Evidence-Validator-Clamped': clamped.join(',') } : {};
  let report;
  try {
    report = await validate(input.source, input.claims, config, server);
  } catch (e) {
    return libraryError(e, clampedHeader);
  }
  return new Response(report, {
    status: 200,
    headers: { ...JSON_HEADERS, 'X-Evidence-Validator': version(), ...clampedHeader },
  });
}

/** Lets the event loop run (timers and I/O: other requests) before going on. */
const yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A request of at most one slice of claims whose source is at most this
 * many build steps long runs its steps without yielding: its whole work is
 * about what one step of a large request does, and yielding between its
 * steps would make it wait for a step of every large request in flight at
 * each of its own.
 */
const SMALL_REQUEST_STEPS = 4;

/**
 * The report's JSON text: the library's SlicedValidation, which makes
 * validateEvidence's checks (throwing its errors) and then does a bounded
 * amount per step. A request of more claims than one slice, or of a source
 * over SMALL_REQUEST_STEPS build steps (UTF-16 units), yields to the event
 * loop before the first step and between steps, so that other requests are
 * served meanwhile; a smaller one runs its steps at once.
 */
async function validate(source, claims, config, server) {
  const list = Array.isArray(claims) ? claims : claims?.claims;
  const large = source.length > SMALL_REQUEST_STEPS * server.sliceBytes || (Array.isArray(list) && list.length > server.sliceClaims);
  // the body's parse and the constructor (the claims read and checked) are
  // each about as long as the longest step of a large request: not back to back
  if (large) await yieldToEventLoop();
  const job = new SlicedValidation(source, claims, config, { claimsPerSlice: server.sliceClaims, bytesPerStep: server.sliceBytes });
  try {
    if (large) await yieldToEventLoop(); // requests that came in meanwhile go first
    while (!job.step()) {
      if (large) await yieldToEventLoop();
    }
  } catch (e) {
    job.free();
    throw e;
  }
  return job.finishJson();
}

/**
 * The bounds and allowed origins from the env bindings, each checked: a
 * bound must be a number (or a string of one) at least the row's `min` (at
 * most its `ceiling`, where it has one), whole where the option is a count.
 */
function serverSettings(env) {
  const bounds = BOUNDS.map((row) => {
    const raw = env[row.env];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return row;
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : NaN;
    if (!Number.isFinite(value)) {
      throw new ServerConfigurationError(row.env, raw, 'type', `the binding ${row.env} must be a number, got ${JSON.stringify(String(raw))}`);
    }
    if (value < row.min || value > (row.ceiling ?? Infinity) || (row.integer && !Number.isInteger(value))) {
      const what = row.ceiling !== undefined ? `a whole number from ${row.min} to ${row.ceiling}` : row.integer ? `a whole number of at least ${row.min}` : 'a number above 0';
      throw new ServerConfigurationError(row.env, raw, 'range', `the binding ${row.env} must be ${what}, got ${value}`);
    }
    return { ...row, max: value };
  });
  const setting = (name) => bounds.find((b) => b.name === name).max;
  return {
    bounds: bounds.filter((b) => b.path !== null),
    maxBodyBytes: setting('body_bytes'),
    sliceClaims: setting('slice_claims'),
    sliceBytes: setting('slice_bytes'),
    allowedOrigins: parseOrigins(env.ALLOWED_ORIGINS),
  };
}

/** ALLOWED_ORIGINS: comma-separated origins (`https://app.example.com`, no path), compared lowercased. */
function parseOrigins(raw) {
  if (raw === undefined || raw === null) return new Set();
  if (typeof raw !== 'string') {
    throw new ServerConfigurationError('ALLOWED_ORIGINS', raw, 'type', 'the binding ALLOWED_ORIGINS must be a string of comma-separated origins');
  }
  const origins = new Set();
  for (const part of raw.split(',')) {
    const origin = part.trim().toLowerCase();
    if (origin === '') continue;
    if (!/^https?:\/\/[^/?#\s]+$/.test(origin)) {
      throw new ServerConfigurationError('ALLOWED_ORIGINS', raw, 'format',
        `ALLOWED_ORIGINS entries must be origins such as https://app.example.com (scheme and host, no path), got ${JSON.stringify(part.trim())}`);
    }
    origins.add(origin);
  }
  return origins;
}

/**
 * The request's config with each bounded value at most its bound. Returns
 * the config to pass to the library (null when the request had none and
 * nothing was filled in) and the dotted keys that were lowered. Leaves
 * anything that is not a plain object or a number to the library's checks.
 */
function clampConfig(requestConfig, bounds, defaults) {
  const clamped = [];
  const top = requestConfig === null ? {} : { ...requestConfig };
  // The library also takes the §1.3 object inside {validation_config: {...}}.
  const wrapped = Object.keys(top).length === 1 && Object.hasOwn(top, 'validation_config');
  if (wrapped && !isPlainObject(top.validation_config)) return { config: requestConfig, clamped };
  const inner = wrapped ? { ...top.validation_config } : top;
  let filled = false;

  for (const row of bounds) {
    const [section, key] = row.path;
    if (inner[section] !== undefined && !isPlainObject(inner[section])) continue;
    let max = row.max;
    if (row.atMostHalfOf) {
      const size = effective(inner, defaults, section, row.atMostHalfOf);
      // only a chunk size the library will accept; a bad one is its error to report
      if (Number.isInteger(size) && size > 0) max = Math.min(max, Math.floor(size / 2));
    }
    const value = inner[section]?.[key];
    if (value === undefined) {
      if (max < defaults[section][key]) {
        inner[section] = { ...inner[section], [key]: max };
        filled = true;
      }
    } else if (typeof value === 'number' && value > max) {
      inner[section] = { ...inner[section], [key]: max };
      clamped.push(row.path.join('.'));
    }
  }
  if (requestConfig === null && !filled) return { config: null, clamped };
  return { config: wrapped ? { validation_config: inner } : inner, clamped };
}

/** The value the library will use for section.key: the request's (as clamped so far), else its default. */
function effective(inner, defaults, section, key) {
  const value = inner[section]?.[key];
  return value !== undefined ? value : defaults[section][key];
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `application/json`, with no charset parameter or charset=utf-8 (any case, quoted or not). */
function isJsonMediaType(value) {
  if (value === null) return false;
  const [type, ...params] = value.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  for (const param of params) {
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    const val = eq < 0 ? '' : param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (name === 'charset' && val !== 'utf-8') return false;
  }
  return true;
}

/** Adds `Vary: Origin` and, for an allowed Origin, the CORS headers. */
function withCors(response, request, server) {
  withVary(response);
  const origin = request.headers.get('Origin');
  if (origin !== null && server.allowedOrigins.has(origin.toLowerCase())) {
    response.headers.set('Access-Control-Allow-Origin', origin);
    if (request.method !== 'OPTIONS') response.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
  return response;
}

function withVary(response) {
  response.headers.append('Vary', 'Origin');
  return response;
}

/**
 * The body as text, or a 413/400 Response. Refuses a declared Content-Length
 * over the limit before reading, and counts bytes while reading (a chunked
 * body has no Content-Length, and a declared one may lie).
 */
async function readBody(request, limit) {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > limit) {
    return tooLarge(limit, { content_length: Number(declared) });
  }
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return tooLarge(limit, { bytes_read: size }); // stopped reading there
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return errorResponse(400, 'INVALID_JSON', 'the request body is not UTF-8 text', {});
  }
}

function tooLarge(limit, seen) {
  return errorResponse(413, 'PAYLOAD_TOO_LARGE', `the request body is over ${limit} bytes`, { limit_bytes: limit, ...seen });
}

/** Maps an EvidenceValidatorError to 400/413; anything else is a 500. */
function libraryError(e, headers) {
  if (e?.name !== 'EvidenceValidatorError') {
    return errorResponse(500, 'INTERNAL_ERROR', 'validation failed unexpectedly', { name: String(e?.name ?? typeof e) }, headers);
  }
  const details = { ...e.details };
  const path = typeof details.json_path === 'string' ? details.json_path : null;
  // The library names paths inside the argument it was given; say where that is in the request body.
  if (e.code === 'CONFIGURATION_ERROR' && path) details.body_path = `$.config${path.slice(1)}`;
  else if (e.code === 'VALIDATION_ERROR' && path) details.body_path = `$.claims${path.slice(1)}`;
  else if (e.code === 'DOCUMENT_PARSING_ERROR' || details.constraint === 'max_document_size_mb') details.body_path = '$.source';
  if (details.constraint === 'max_document_size_mb') return errorResponse(413, e.code, e.message, details, headers);
  if (['VALIDATION_ERROR', 'CONFIGURATION_ERROR', 'DOCUMENT_PARSING_ERROR'].includes(e.code)) {
    return errorResponse(400, e.code, e.message, details, headers);
  }
  return errorResponse(500, e.code ?? 'INTERNAL_ERROR', e.message, details, headers);
}

function errorResponse(status, code, message, details, headers = {}) {
  return new Response(JSON.stringify({ error: { code, message, details } }), {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  });
}
