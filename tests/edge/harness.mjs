// Shared by the edge tests: edge/worker.mjs in a real local Workers runtime,
// workerd started by Miniflare on 127.0.0.1 (a free port), loading the worker
// and the package's web build with the `.wasm` file as a compiled module (a
// CompiledWasm module rule, as wrangler does), with the env bindings a test
// asks for. Requests go over HTTP with Node's fetch, each with a timeout.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!fs.existsSync(path.join(root, 'pkg', 'web', 'workerd.js'))) {
  throw new Error('pkg/ is not built: run `npm run build` before `npm run test:edge`');
}
/** The package's Node build: the reference the worker's reports are compared with. */
export const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);

export const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');

/** Longest any one request may take before the test fails. */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Starts the worker with `bindings` as its env. Returns {url, dispose}; the
 * caller disposes it (in `after`). The one workerd configuration of the
 * edge tests and of scripts/bench-edge.mjs; `from` is the directory holding
 * `edge/worker.mjs` and its `pkg/` (this checkout's by default; the
 * benchmark's `--baseline` passes another).
 */
export async function startWorker(bindings = {}, from = root) {
  const mf = new Miniflare({
    modules: true,
    modulesRoot: from,
    scriptPath: path.join(from, 'edge', 'worker.mjs'),
    // As wrangler: .js files of a module worker are ES modules, .wasm files compiled modules.
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js', '**/*.mjs'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
    host: '127.0.0.1',
    port: 0,
    bindings,
  });
  try {
    const url = (await mf.ready).href;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    return { url, dispose: () => mf.dispose() };
  } catch (e) {
    await mf.dispose().catch(() => {});
    throw e;
  }
}

/**
 * POSTs `body` (an object is sent as JSON) with Content-Type: application/json
 * unless `headers` say otherwise; returns status, headers and the parsed JSON
 * (every answer of the worker to a POST is JSON).
 */
export async function post(url, body, { headers = {}, ...init } = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...init,
  });
  const text = await res.text();
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return { status: res.status, headers: res.headers, json: JSON.parse(text) };
}

/** An error response: status, and the {error: {code, message, details}} shape. */
export function assertError(r, status, code) {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.deepEqual(Object.keys(r.json), ['error']);
  assert.equal(r.json.error.code, code);
  assert.equal(typeof r.json.error.message, 'string');
  assert.ok(r.json.error.message.length > 0);
  assert.equal(typeof r.json.error.details, 'object');
  return r.json.error;
}

/**
 * A 200 whose report is the library's for the same input and `config` (the
 * configuration the worker is expected to have used): same contentHash,
 * results and summary.
 */
export function assertReport(r, source, claims, config) {
  assert.equal(r.status, 200, JSON.stringify(r.json).slice(0, 500));
  const expected = lib.validateEvidence(source, claims, config);
  assert.equal(r.json.ok, expected.ok);
  assert.deepEqual(r.json.validated_claims, expected.validated_claims);
  assert.deepEqual(r.json.validation_summary, expected.validation_summary);
  assert.equal(r.json.generated.contentHash, expected.generated.contentHash);
  return r.json;
}
