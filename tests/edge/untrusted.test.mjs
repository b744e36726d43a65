// Issue 13's bad input at the edge (workerd via Miniflare on 127.0.0.1): a
// body with a duplicate key is refused naming the key's path (JSON.parse
// would keep the last one), a BOM before the body is skipped, unknown claim
// fields are listed in a warning or refused with `strict`, the memory limit
// is held to the server's bound, a hidden-only quote is not VALIDATED; after
// each, the same worker still answers a good request with the library's
// report.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertError, assertReport, post, startWorker } from './harness.mjs';

const good = 'The system must implement user authentication with OAuth 2.0 protocol.';
const source = `# Requirements\n\n${good}\n`;
const claim = (extra = {}) => ({ id: 'EV001', task_id: 'P1.T001', quote: good, evidence_type: 'direct_quote', ...extra });

let worker;
before(async () => {
  worker = await startWorker();
});
after(async () => {
  await worker?.dispose();
});

/** A good request after a bad one gets the library's report. */
async function stillWorks() {
  const claims = { claims: [claim()] };
  const r = await post(worker.url, { source, claims });
  const report = assertReport(r, source, claims, { performance_limits: { max_document_size_mb: 4, max_claims: 100, max_processing_time_seconds: 10, max_memory_mb: 64 } });
  assert.equal(report.validated_claims[0].validation_status, 'VALIDATED');
}

test('a duplicate key in the body is a 400 naming its path', async () => {
  const body = `{"source": ${JSON.stringify(source)}, "claims": {"claims": [{"id": "EV001", "task_id": "P1.T001", "quote": ${JSON.stringify(good)}, "quote": "something else entirely", "evidence_type": "direct_quote"}]}}`;
  const e = assertError(await post(worker.url, body), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.json_path, '$.claims.claims[0].quote');
  assert.equal(e.details.constraint, 'uniqueKeys');
  const twice = `{"source": "a", "source": ${JSON.stringify(source)}, "claims": [${JSON.stringify(claim())}]}`;
  assert.equal(assertError(await post(worker.url, twice), 400, 'VALIDATION_ERROR').details.json_path, '$.source');
  await stillWorks();
});

test('a byte order mark before the body is skipped', async () => {
  const body = `\uFEFF${JSON.stringify({ source, claims: [claim()] })}`;
  const r = await post(worker.url, body);
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.equal(r.json.validated_claims[0].validation_status, 'VALIDATED');
  await stillWorks();
});

test('unknown claim fields warn; strict refuses them', async () => {
  const claims = { claims: [claim({ expected_sectoin: 'Requirements' })] };
  const r = await post(worker.url, { source, claims });
  assert.equal(r.status, 200);
  assert.ok(r.json.warnings.some((w) => w.code === 'UNKNOWN_FIELDS' && w.message.includes('$.claims[0].expected_sectoin')));
  const e = assertError(await post(worker.url, { source, claims, config: { strict: true } }), 400, 'VALIDATION_ERROR');
  assert.equal(e.details.json_path, '$.claims[0].expected_sectoin');
  await stillWorks();
});

test('max_memory_mb is held to the server bound', async () => {
  const r = await post(worker.url, { source, claims: [claim()], config: { performance_limits: { max_memory_mb: 100000 } } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('x-evidence-validator-clamped') ?? '', /performance_limits\.max_memory_mb/);
  await stillWorks();
});

test('a quote found only in hidden HTML is not VALIDATED', async () => {
  const html = `<html><body><p>${good}</p><div style="display: none">Refunds are always granted within 90 days of purchase.</div></body></html>`;
  const claims = { source_metadata: { format: 'html' }, claims: [claim({ quote: 'Refunds are always granted within 90 days of purchase.' })] };
  const r = await post(worker.url, { source: html, claims });
  assert.equal(r.status, 200);
  assert.notEqual(r.json.validated_claims[0].validation_status, 'VALIDATED');
  await stillWorks();
});

test('a lone surrogate escape in the body is refused, not replaced', async () => {
  const body = `{"source": "A lone \\ud800 surrogate in the source text.", "claims": [${JSON.stringify(claim())}]}`;
  const e = assertError(await post(worker.url, body), 400, 'INVALID_JSON');
  assert.match(e.message, /escape|surrogate/i);
  await stillWorks();
});
