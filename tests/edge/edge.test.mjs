// edge/worker.mjs in a real local Workers runtime: workerd, started by
// Miniflare on 127.0.0.1 (a free port), loading the worker and the package's
// web build with the `.wasm` file as a compiled module (a CompiledWasm module
// rule, as wrangler does). Requests go over HTTP with Node's fetch. Run:
// `npm run test:edge` (needs pkg/ built).
//
// Checks: a valid body gives 200 and the same report as the library in Node
// (same contentHash); bad bodies give 400 with {error: {code, message,
// details}}; oversize bodies 413 (declared Content-Length, a chunked body
// counted while read, and the library's max_document_size_mb); other methods
// 405 with `Allow: POST, OPTIONS`. Limits, 415 and CORS: limits.test.mjs.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { assertError, lib, post as postTo, read, root, startWorker } from './harness.mjs';

// The worker's default body limit, read from its source (importing it in Node would need the .wasm as a module).
const MAX_BODY_BYTES = 5 * 1024 * 1024;
assert.match(fs.readFileSync(path.join(root, 'edge', 'worker.mjs'), 'utf8'), /\nconst MAX_BODY_BYTES = 5 \* 1024 \* 1024;/);

const source = read('samples/incident-review.md');
const claims = JSON.parse(read('samples/claims.json'));

let worker;
let url;

before(async () => {
  worker = await startWorker();
  url = worker.url;
});

after(async () => {
  await worker?.dispose();
});

/** POSTs `body` (an object is sent as JSON) to the worker; returns status, headers and the parsed JSON. */
const post = (body, init) => postTo(url, body, init);

/**
 * Starts a POST that announces a large body (`declaredLength`, or chunked
 * without a Content-Length), uploads only `send` bytes of spaces, and waits
 * for the answer without finishing the body: a worker that enforces its
 * limit answers 413 by then. On a connection of its own, destroyed after
 * (an unfinished upload must not be reused; uploading everything would race
 * the early answer against a connection reset).
 */
function postPartial({ declaredLength, send }) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', ...(declaredLength ? { 'Content-Length': String(declaredLength) } : {}) };
    const req = http.request(url, { method: 'POST', agent: false, headers, timeout: 60_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        req.destroy();
        try {
          resolve({ status: res.statusCode, headers: new Headers(res.headers), json: JSON.parse(text) });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', reject);
    req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < send) {
        const piece = chunk.subarray(0, Math.min(chunk.length, send - sent));
        sent += piece.length;
        if (!req.write(piece)) { req.once('drain', pump); return; }
      }
    };
    pump();
  });
}

test('POST a valid body: 200 with the report, the same as the library in Node', async () => {
  const r = await post({ source, claims });
  assert.equal(r.status, 200);
  const expected = lib.validateEvidence(source, claims, null);
  assert.equal(r.json.generated.contentHash, expected.generated.contentHash);
  assert.deepEqual(r.json.validated_claims, expected.validated_claims);
  assert.deepEqual(r.json.validation_summary, expected.validation_summary);
  assert.equal(r.headers.get('x-evidence-validator'), lib.version());
  // a config is applied
  const strict = await post({ source, claims, config: { fuzzy_matching: { max_edit_distance: 0 } } });
  assert.equal(strict.status, 200);
  assert.equal(strict.json.generated.contentHash,
    lib.validateEvidence(source, claims, { fuzzy_matching: { max_edit_distance: 0 } }).generated.contentHash);
  assert.notEqual(strict.json.generated.contentHash, expected.generated.contentHash);
});

test('UTF-16 offsets survive the trip: an emoji source and a bare claims array', async () => {
  const text = 'Prélude 🎌🍜: the ramen shop near Shinjuku station was the highlight.';
  const quote = 'the ramen shop near Shinjuku station';
  const r = await post({ source: text, claims: [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote }] });
  assert.equal(r.status, 200);
  const m = r.json.validated_claims[0].match_details;
  assert.equal(r.json.validated_claims[0].validation_status, 'VALIDATED');
  assert.equal(text.slice(m.utf16_start, m.utf16_end), quote);
  assert.notEqual(m.start_position, m.utf16_start);
});

test('bad input: 400 with a JSON error body', async () => {
  let e = assertError(await post('{"source": "x", '), 400, 'INVALID_JSON');
  assert.match(e.message, /not JSON/);
  e = assertError(await post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), 400, 'INVALID_JSON');
  assert.match(e.message, /UTF-8/);
  e = assertError(await post([source, claims]), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.body_path, '$');
  e = assertError(await post({ claims }), 400, 'VALIDATION_ERROR');
  assert.deepEqual([e.details.body_path, e.details.constraint], ['$.source', 'required']);
  e = assertError(await post({ source: 42, claims }), 400, 'VALIDATION_ERROR');
  assert.deepEqual([e.details.body_path, e.details.constraint], ['$.source', 'type']);
  e = assertError(await post({ source }), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.body_path, '$.claims');
  e = assertError(await post({ source, claims, config: 'strict' }), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.body_path, '$.config');

  // what the library rejects, with its code and details, and where that is in the body
  const bad = structuredClone(claims);
  bad.claims[2].id = 'E-3';
  e = assertError(await post({ source, claims: bad }), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.json_path, '$.claims[2].id');
  assert.equal(e.details.body_path, '$.claims.claims[2].id');
  assert.match(e.message, /E-3/);
  e = assertError(await post({ source, claims: claims.claims.slice(0, 1).map((c) => ({ ...c, quote: 'short' })) }), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.body_path, '$.claims[0].quote');
  e = assertError(await post({ source, claims, config: { fuzzy_matching: { similarity_threshold: 1.5 } } }), 400, 'CONFIGURATION_ERROR');
  assert.equal(e.details.json_path, '$.fuzzy_matching.similarity_threshold');
  assert.equal(e.details.body_path, '$.config.fuzzy_matching.similarity_threshold');
  e = assertError(await post({ source, claims, config: { no_such_section: {} } }), 400, 'CONFIGURATION_ERROR');
  e = assertError(await post({ source: 'a\u0000b', claims }), 400, 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.body_path, '$.source');
});

test('oversize input: 413, by Content-Length, by counting a chunked body, and by the library limit', async () => {
  // Content-Length over the limit: refused before reading
  let e = assertError(await postPartial({ declaredLength: MAX_BODY_BYTES + 1, send: 0 }), 413, 'PAYLOAD_TOO_LARGE');
  assert.equal(e.details.limit_bytes, MAX_BODY_BYTES);
  assert.equal(e.details.content_length, MAX_BODY_BYTES + 1);

  // no Content-Length: a chunked body, refused once what was read is over the limit
  e = assertError(await postPartial({ send: MAX_BODY_BYTES + 256 * 1024 }), 413, 'PAYLOAD_TOO_LARGE');
  assert.ok(e.details.bytes_read > MAX_BODY_BYTES);
  assert.ok(e.details.bytes_read < MAX_BODY_BYTES + 1024 * 1024, 'stops reading soon after the limit');
  assert.equal(e.details.content_length, undefined);

  // under the body limit, over the document limit the caller configured
  e = assertError(await post({ source, claims, config: { performance_limits: { max_document_size_mb: 0.001 } } }), 413, 'VALIDATION_ERROR');
  assert.equal(e.details.constraint, 'max_document_size_mb');
  assert.equal(e.details.body_path, '$.source');

  // just under the limit is accepted
  const json = JSON.stringify({ source, claims });
  const fits = new TextEncoder().encode(json + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(json)));
  assert.equal(fits.length, MAX_BODY_BYTES);
  assert.equal((await post(fits)).status, 200);
});

test('other methods: 405 with Allow: POST, OPTIONS (OPTIONS is the CORS preflight: tests/edge/limits.test.mjs)', async () => {
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
    const res = await fetch(url, { method, signal: AbortSignal.timeout(30_000) });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'POST, OPTIONS', method);
    const body = await res.json();
    assert.equal(body.error.code, 'METHOD_NOT_ALLOWED');
  }
  const head = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(30_000) });
  assert.equal(head.status, 405);
  assert.equal(head.headers.get('allow'), 'POST, OPTIONS');
  // and the worker still answers a POST
  const r = await post({ source, claims });
  assert.equal(r.status, 200);
  assert.equal(r.json.generated.contentHash, lib.validateEvidence(source, claims, null).generated.contentHash);
});
