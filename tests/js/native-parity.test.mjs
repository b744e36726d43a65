// Native and wasm agree: the native CLI and the npm package give the same
// report (but the timestamp) on the bundled sample, and the package computes
// the contentHash values recorded natively in tests/cases/content_hash.json.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, test } from 'node:test';
import { promisify } from 'node:util';
import { validateEvidence } from 'evidence-validator';
import { readJson, readText, root } from './helpers.mjs';

const run = promisify(execFile);
const cli = ['run', '--quiet', '--features', 'cli', '--', 'validate', '--source', 'samples/incident-review.md', '--evidence', 'samples/claims.json'];

before(async () => {
  // The first build of the native CLI can take minutes on a cold target/;
  // the binary needs the `cli` feature (the library's defaults are empty).
  await run('cargo', ['build', '--quiet', '--features', 'cli', '--bin', 'evidence-validator'], { cwd: root, maxBuffer: 64 << 20 });
}, { timeout: 20 * 60 * 1000 });

test('the native CLI and the wasm package give the same contentHash on the sample', { timeout: 5 * 60 * 1000 }, async () => {
  const { stdout } = await run('cargo', cli, { cwd: root, maxBuffer: 64 << 20 });
  const native = JSON.parse(stdout);
  const wasm = validateEvidence(readText('samples/incident-review.md'), readJson('samples/claims.json'), null);
  assert.match(native.generated.contentHash, /^[0-9a-f]{64}$/);
  assert.equal(wasm.generated.contentHash, native.generated.contentHash);
  // The whole report is the same but for the timestamp.
  wasm.generated.timestamp = native.generated.timestamp;
  assert.deepEqual(wasm, native);
});

test('the package computes the contentHash values recorded natively (tests/cases/content_hash.json)', () => {
  const { entries } = readJson('tests/cases/content_hash.json');
  assert.ok(entries.length > 0);
  for (const e of entries) {
    const report = validateEvidence(e.source, e.claims, e.config ?? null);
    assert.equal(report.generated.contentHash, e.contentHash,
      `[${e.name}] if \`cargo test --test content_hash\` passes natively, wasm differs from native`);
  }
});
