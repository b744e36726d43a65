// `evidence-validator/core`: the spec 000 build (the crate's `wasm-core`
// feature) shipped beside the full one. It loads from Node as ESM and as
// CommonJS, exports exactly the spec 000 API, answers every shared case
// with the same report as the full package, and its .wasm leaves the other
// modules out.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as full from 'evidence-validator';
import * as core from 'evidence-validator/core';
import { cases, pkgDir, resolveExport } from './helpers.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const exec = promisify(execFile);

/** The spec 000 API: what the core exports, and all it exports. */
const CORE_API = ['Document', 'DocumentBuilder', 'SlicedValidation', 'defaultConfig', 'parseJson', 'sliceOptionBounds', 'validateEvidence', 'validateEvidenceAsync', 'version'];

/** A report's JSON text without the time of the call (`generated.timestamp`). */
const text = (report) => JSON.stringify({ ...report, generated: { ...report.generated, timestamp: '' } });

/** A call's report, or its error's code, message and details. */
function outcome(f) {
  try {
    return text(f());
  } catch (e) {
    return JSON.stringify({ code: e.code, message: e.message, details: e.details });
  }
}

test('Node ESM: `evidence-validator/core` through the `node` + `import` conditions, exactly the spec 000 API', () => {
  assert.ok(import.meta.resolve('evidence-validator/core').endsWith('/pkg/core/nodejs/index.mjs'));
  assert.deepEqual(Object.keys(core).sort(), CORE_API);
  assert.equal(core.version(), pkg.version);
  // what the full package has beyond it is not there
  for (const name of ['cite', 'verifyClaim', 'Transcript', 'Finding']) {
    assert.equal(typeof full[name], 'function', `the full package has ${name}`);
    assert.equal(core[name], undefined, `the core has no ${name}`);
  }
});

test('Node CJS: require of `evidence-validator/core`, the same instance as its ESM entry, not the full one', () => {
  const cjs = require('evidence-validator/core');
  assert.ok(require.resolve('evidence-validator/core').endsWith(path.join('pkg', 'core', 'nodejs', 'evidence_validator.js')));
  assert.deepEqual(Object.keys(cjs).sort(), CORE_API);
  assert.equal(cjs.Document, core.Document, 'one wasm instance for import and require');
  assert.notEqual(cjs.Document, full.Document, 'its own module and instance');
  assert.ok(new cjs.Document('a b c', null) instanceof core.Document);
});

test('every shared case: the same report (or the same error) from the core as from the full package', () => {
  const all = cases();
  assert.ok(all.length >= 10, `tests/cases/validate_evidence.json has ${all.length} cases`);
  for (const c of all) {
    const config = c.config ?? null;
    const want = outcome(() => full.validateEvidence(c.source, c.claims, config));
    assert.equal(outcome(() => core.validateEvidence(c.source, c.claims, config)), want, c.name);
  }
});

test('Document: find, reanchor, metadata and sections as in the full package', () => {
  const source = '# Setup\n\nThe server must run on port 8080 with TLS 1.3 enabled. 🎉 Then restart it.\n';
  const edited = '# Setup\n\nFirst install it. The server must run on port 8080 with TLS 1.3 enabled. 🎉 Then restart it.\n';
  const [a, b] = [new core.Document(edited, null), new full.Document(edited, null)];
  assert.deepEqual(a.find('port 8080 with TLS', null), b.find('port 8080 with TLS', null));
  assert.deepEqual(a.find('port 8080 wiht TLS', null), b.find('port 8080 wiht TLS', null));
  // saved against `source` (ASCII before it: code points = UTF-16 units), now 18 code points later
  const start = source.indexOf('run on port 8080');
  const saved = [{
    id: 'n1',
    selectors: [
      { type: 'TextQuoteSelector', exact: 'run on port 8080', prefix: 'The server must ', suffix: ' with TLS' },
      { type: 'TextPositionSelector', start, end: start + 16 },
    ],
  }];
  const moved = a.reanchor(saved);
  assert.deepEqual(moved, b.reanchor(saved));
  assert.equal(moved[0].status, 'moved');
  assert.equal(moved[0].span.start_position, start + 'First install it. '.length);
  assert.deepEqual(a.metadata, b.metadata);
  assert.deepEqual(a.sections, b.sections);
  assert.equal(new core.Document(source, null).format, 'markdown');
});

test('the core .wasm leaves the other modules out: under 3/4 of the full one', () => {
  const size = (dir) => fs.statSync(path.join(pkgDir, dir, 'nodejs', 'evidence_validator_bg.wasm')).size;
  assert.ok(size('core') < 0.75 * size(''), `core ${size('core')} bytes, full ${size('')}`);
});

test('package.json: the core entries mirror the full ones, under core/', () => {
  for (const [sub, conditions] of [['', ['node', 'import']], ['', ['node', 'require']], ['', ['workerd']], ['', ['browser']], ['/web', []], ['/web/wasm', []], ['/workerd', []]]) {
    const fullTarget = resolveExport(pkg.exports, `.${sub}`, conditions);
    assert.equal(resolveExport(pkg.exports, `./core${sub}`, conditions), fullTarget.replace('./', './core/'), `./core${sub} ${conditions}`);
    assert.ok(fs.existsSync(path.join(pkgDir, 'core', fullTarget)), `${fullTarget} under core/`);
  }
  assert.ok(pkg.files.includes('core/'));
  for (const f of ['./core/nodejs/evidence_validator.js', './core/bundler/evidence_validator.js']) assert.ok(pkg.sideEffects.includes(f), f);
});

test('`evidence-validator/core/web` after `await init()`, and the `workerd` condition', { timeout: 60_000 }, async () => {
  const web = await import('evidence-validator/core/web');
  await web.default({ module_or_path: fs.readFileSync(path.join(pkgDir, 'core', 'web', 'evidence_validator_bg.wasm')) });
  const c = cases()[0];
  assert.equal(text(web.validateEvidence(c.source, c.claims, null)), text(full.validateEvidence(c.source, c.claims, null)));

  const loader = pathToFileURL(path.join(here, 'fixtures', 'wasm-as-module.mjs')).href;
  const code = `import * as m from 'evidence-validator/core';
    const r = m.validateEvidence(${JSON.stringify(c.source)}, ${JSON.stringify(c.claims)}, null);
    console.log(JSON.stringify({ url: import.meta.resolve('evidence-validator/core'), hash: r.generated.contentHash, names: Object.keys(m).sort() }));`;
  const { stdout } = await exec(process.execPath, ['--conditions=workerd', '--import', loader, '--no-warnings', '--input-type=module', '-e', code], { cwd: here });
  const out = JSON.parse(stdout);
  assert.ok(out.url.endsWith('/pkg/core/web/workerd.js'), out.url);
  assert.equal(out.hash, full.validateEvidence(c.source, c.claims, null).generated.contentHash);
  assert.deepEqual(out.names.filter((n) => n !== 'initSync'), CORE_API);
});
