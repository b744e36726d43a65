// The built package as its users get it: every entry of the `exports` map
// loads and works (Node ESM and CJS, the bundler target, the web target with
// `init`, the workerd entry), and the published metadata and types are sound.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esm from 'evidence-validator';
import { claim, pkgDir, readText, resolveExport, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const exec = promisify(execFile);

const source = 'The system must implement user authentication with OAuth 2.0 protocol.\n';
const claims = { claims: [claim()] };

/** Runs an ES module snippet in a fresh Node (cwd tests/js, so `evidence-validator` resolves); returns its JSON output. */
async function nodeEval(code, flags = []) {
  const { stdout } = await exec(process.execPath, [...flags, '--no-warnings', '--input-type=module', '-e', code], { cwd: here });
  return JSON.parse(stdout);
}

// What each snippet prints: where the entry resolved to and what it computed.
const probe = (specifier, prelude = '') => `
  import * as m from '${specifier}';
  ${prelude}
  const r = m.validateEvidence(${JSON.stringify(source)}, ${JSON.stringify(claims)}, null);
  const d = new m.Document(${JSON.stringify(source)}, null);
  console.log(JSON.stringify({
    url: import.meta.resolve('${specifier}'),
    status: r.validated_claims[0].validation_status,
    hash: r.generated.contentHash,
    found: d.find('OAuth 2.0', null).matches.length,
    version: m.version(),
  }));`;

const expected = esm.validateEvidence(source, claims, null);

test('Node ESM: named imports through the `node` + `import` conditions', () => {
  assert.equal(typeof esm.validateEvidence, 'function');
  assert.equal(typeof esm.Document, 'function');
  assert.equal(esm.version(), pkg.version);
  assert.ok(import.meta.resolve('evidence-validator').endsWith('/pkg/nodejs/index.mjs'));
  assert.equal(expected.validated_claims[0].validation_status, 'VALIDATED');
});

test('Node CJS: require through the `node` + `require` conditions, the same instance as ESM', () => {
  const cjs = require('evidence-validator');
  assert.ok(require.resolve('evidence-validator').endsWith(path.join('pkg', 'nodejs', 'evidence_validator.js')));
  assert.equal(cjs.Document, esm.Document, 'one wasm instance for import and require');
  assert.equal(cjs.validateEvidence, esm.validateEvidence);
  const doc = new cjs.Document(source, null);
  assert.ok(doc instanceof esm.Document);
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort());
});

test('Node ESM without the wrapper: Node detects the CommonJS named exports too', async () => {
  const direct = await import(pathToFileURL(path.join(pkgDir, 'nodejs', 'evidence_validator.js')).href);
  assert.equal(direct.Document, esm.Document);
});

test('`evidence-validator/web`: the web target after `await init()`', async () => {
  const web = await import('evidence-validator/web');
  assert.ok(import.meta.resolve('evidence-validator/web').endsWith('/pkg/web/evidence_validator.js'));
  assert.equal(typeof web.default, 'function', 'default export is init');
  // Browsers fetch the .wasm next to the module; Node's fetch has no file: URLs, so pass the bytes.
  await web.default({ module_or_path: fs.readFileSync(path.join(pkgDir, 'web', 'evidence_validator_bg.wasm')) });
  const r = web.validateEvidence(source, claims, null);
  assert.equal(r.generated.contentHash, expected.generated.contentHash);
  assert.notEqual(web.Document, esm.Document, 'a separate instance from the node entry');
});

test('`evidence-validator/web/wasm`: compiled once, the Module posted to a worker thread that instantiates it without compiling', { timeout: 60_000 }, async () => {
  const wasmUrl = import.meta.resolve('evidence-validator/web/wasm');
  assert.ok(wasmUrl.endsWith('/pkg/web/evidence_validator_bg.wasm'), wasmUrl);
  const module = await WebAssembly.compile(fs.readFileSync(fileURLToPath(wasmUrl)));
  const { Worker } = await import('node:worker_threads');
  // the worker refuses bytes: only a compiled Module will do
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    parentPort.once('message', async ({ module }) => {
      if (!(module instanceof WebAssembly.Module)) throw new Error('not a WebAssembly.Module');
      const web = await import(${JSON.stringify(import.meta.resolve('evidence-validator/web'))});
      web.initSync({ module });
      const r = web.validateEvidence(${JSON.stringify(source)}, ${JSON.stringify(claims)}, null);
      parentPort.postMessage({ status: r.validated_claims[0].validation_status, hash: r.generated.contentHash });
    });`, { eval: true });
  try {
    const answer = new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    worker.postMessage({ module });
    const out = await answer;
    assert.deepEqual(out, { status: 'VALIDATED', hash: expected.generated.contentHash });
  } finally {
    await worker.terminate();
  }
});

test('`workerd` condition: imports the .wasm as a WebAssembly.Module and calls initSync', { timeout: 60_000 }, async () => {
  const loader = pathToFileURL(path.join(here, 'fixtures', 'wasm-as-module.mjs')).href;
  const out = await nodeEval(probe('evidence-validator'), ['--conditions=workerd', '--import', loader]);
  assert.ok(out.url.endsWith('/pkg/web/workerd.js'), out.url);
  assert.equal(out.status, 'VALIDATED');
  assert.equal(out.hash, expected.generated.contentHash);
  assert.equal(out.found, 1);
  assert.equal(out.version, pkg.version);
  // the explicit subpath resolves to the same file
  assert.equal(resolveExport(pkg.exports, './workerd', []), './web/workerd.js');
});

test('bundlers (`browser` / `import` / `default`): the bundler target, which imports the .wasm as an ES module', { timeout: 60_000 }, async () => {
  for (const conditions of [['browser', 'import', 'module', 'webpack'], ['import'], ['require'], []]) {
    assert.equal(resolveExport(pkg.exports, '.', conditions), './bundler/evidence_validator.js', conditions.join());
  }
  // Node's experimental WebAssembly ES module integration stands in for the bundler.
  const file = pathToFileURL(path.join(pkgDir, 'bundler', 'evidence_validator.js')).href;
  const out = await nodeEval(probe(file), ['--experimental-wasm-modules']);
  assert.equal(out.status, 'VALIDATED');
  assert.equal(out.hash, expected.generated.contentHash);
  assert.equal(out.found, 1);
});

test('package.json: name, version from Cargo.toml, license, files, sideEffects', () => {
  const cargoVersion = readText('Cargo.toml').match(/^version\s*=\s*"([^"]+)"/m)[1];
  assert.equal(pkg.name, 'evidence-validator');
  assert.equal(pkg.version, cargoVersion);
  assert.equal(pkg.license, 'MIT OR Apache-2.0');
  assert.equal(typeof pkg.description, 'string');
  assert.equal(pkg.type, 'module');
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(pkgDir, 'nodejs', 'package.json'), 'utf8')), { type: 'commonjs' });
  for (const f of pkg.files) assert.ok(fs.existsSync(path.join(pkgDir, f)), f);
  for (const f of pkg.sideEffects) {
    if (!f.includes('*')) assert.ok(fs.existsSync(path.join(pkgDir, f)), f);
  }
  assert.equal(fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8'), readText('npm/README.md'));
});

test('exports: every branch has types first, and every target exists', () => {
  const visit = (node, where) => {
    if (typeof node === 'string') {
      assert.ok(fs.existsSync(path.join(pkgDir, node)), `${where}: ${node} does not exist`);
      return;
    }
    const keys = Object.keys(node);
    const isBranch = keys.includes('default') || keys.includes('types');
    if (isBranch && keys.includes('types')) assert.equal(keys[0], 'types', `${where}: types must come first`);
    if (keys.includes('default')) assert.equal(keys.at(-1), 'default', `${where}: default must come last`);
    for (const [k, v] of Object.entries(node)) visit(v, `${where}.${k}`);
  };
  for (const [subpath, target] of Object.entries(pkg.exports)) visit(target, subpath);
  // every condition branch that leads to JavaScript has types
  const conditionSets = [['node', 'import'], ['node', 'require'], ['workerd'], ['browser'], ['import'], []];
  for (const conditions of conditionSets) {
    for (const subpath of ['.', './web']) {
      const js = resolveExport(pkg.exports, subpath, conditions);
      const types = resolveExport(pkg.exports, subpath, ['types', ...conditions]);
      assert.match(types, /\.d\.m?ts$/, `${subpath} [${conditions}] has types`);
      assert.notEqual(js, types);
    }
  }
});

test('published .d.ts: no `any`, and the API is declared', () => {
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const dts = walk(pkgDir).filter((f) => /\.d\.m?ts$/.test(f));
  assert.ok(dts.length >= 6);
  for (const f of dts) {
    const code = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    assert.doesNotMatch(code, /\bany\b/, path.relative(root, f));
  }
  for (const t of ['bundler', 'web', 'nodejs']) {
    const text = fs.readFileSync(path.join(pkgDir, t, 'evidence_validator.d.ts'), 'utf8');
    assert.match(text, /export function validateEvidence\(/, t);
    assert.match(text, /export class Document/, t);
    assert.match(text, /export interface ValidationReport/, t);
    assert.match(text, /export interface EvidenceValidatorError extends Error/, t);
  }
});

test('the packed tarball alone works: `npm pack`, unpack into node_modules, import and require', { timeout: 120_000 }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: pkgDir });
  const [{ filename, files }] = JSON.parse(stdout);
  assert.ok(files.some((f) => f.path === 'README.md'));
  const dest = path.join(tmp, 'node_modules', 'evidence-validator');
  fs.mkdirSync(dest, { recursive: true });
  await exec('tar', ['-xzf', path.join(tmp, filename), '-C', dest, '--strip-components=1']);
  const code = `
    import { validateEvidence } from 'evidence-validator';
    import { createRequire } from 'node:module';
    const cjs = createRequire(import.meta.url)('evidence-validator');
    const r = validateEvidence(${JSON.stringify(source)}, ${JSON.stringify(claims)}, null);
    console.log(JSON.stringify({ hash: r.generated.contentHash, same: cjs.validateEvidence === validateEvidence,
      url: import.meta.resolve('evidence-validator') }));`;
  const run = await exec(process.execPath, ['--input-type=module', '-e', code], { cwd: tmp });
  const out = JSON.parse(run.stdout);
  assert.equal(out.hash, expected.generated.contentHash);
  assert.equal(out.same, true);
  assert.ok(out.url.startsWith(pathToFileURL(tmp).href), out.url);
});
