// Edge function: validates an LLM's evidence before it reaches a user. A
// module worker in the Cloudflare Workers / WinterCG shape
// (`export default { fetch }`).
//
//   POST {"source": "...", "claims": {...} | [...], "config": {...}?}
//     200  the validation report (spec 000 §2.2), application/json
//     400  {"error": {code, message, details}}: a body that is not JSON, not
//          an object, a missing/mistyped field, or what the library rejects
//          (VALIDATION_ERROR, CONFIGURATION_ERROR, DOCUMENT_PARSING_ERROR);
//          details.body_path names the field in the request body
//     413  the body is over MAX_BODY_BYTES (Content-Length, or counted while
//          reading), or the source is over the config's max_document_size_mb
//     405  any other method, with `Allow: POST`
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

import { validateEvidence, version } from '../pkg/web/workerd.js';

/**
 * Largest request body accepted, in bytes. (Not exported: workerd takes every
 * named export of the main module for an entry point.)
 */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

export default {
  /** @param {Request} request */
  async fetch(request) {
    if (request.method !== 'POST') {
      return errorResponse(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported: POST a JSON body`, { method: request.method }, { Allow: 'POST' });
    }
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body instanceof Response) return body;

    let input;
    try {
      input = JSON.parse(body);
    } catch (e) {
      return errorResponse(400, 'INVALID_JSON', `the request body is not JSON: ${e.message}`, {});
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

    let report;
    try {
      report = validateEvidence(input.source, input.claims, input.config ?? null);
    } catch (e) {
      return libraryError(e);
    }
    return new Response(JSON.stringify(report), {
      status: 200,
      headers: { ...JSON_HEADERS, 'X-Evidence-Validator': version() },
    });
  },
};

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
function libraryError(e) {
  if (e?.name !== 'EvidenceValidatorError') {
    return errorResponse(500, 'INTERNAL_ERROR', 'validation failed unexpectedly', { name: String(e?.name ?? typeof e) });
  }
  const details = { ...e.details };
  const path = typeof details.json_path === 'string' ? details.json_path : null;
  // The library names paths inside the argument it was given; say where that is in the request body.
  if (e.code === 'CONFIGURATION_ERROR' && path) details.body_path = `$.config${path.slice(1)}`;
  else if (e.code === 'VALIDATION_ERROR' && path) details.body_path = `$.claims${path.slice(1)}`;
  else if (e.code === 'DOCUMENT_PARSING_ERROR' || details.constraint === 'max_document_size_mb') details.body_path = '$.source';
  if (details.constraint === 'max_document_size_mb') return errorResponse(413, e.code, e.message, details);
  if (['VALIDATION_ERROR', 'CONFIGURATION_ERROR', 'DOCUMENT_PARSING_ERROR'].includes(e.code)) {
    return errorResponse(400, e.code, e.message, details);
  }
  return errorResponse(500, e.code ?? 'INTERNAL_ERROR', e.message, details);
}

function errorResponse(status, code, message, details, headers = {}) {
  return new Response(JSON.stringify({ error: { code, message, details } }), {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  });
}
