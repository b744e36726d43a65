// The package as a user's project gets it: `npm pack` in pkg/, `npm install`
// of the tarball into a fresh temporary project (offline: the package has no
// dependencies), then
//   - Node ESM and CommonJS import it from the project's node_modules,
//   - webpack 5 bundles a module that imports it (the `bundler` build, picked
//     through the exports map with a bundler's conditions, its .wasm emitted
//     and loaded by webpack's async WebAssembly support), and the bundle runs
//     in Node,
// and each validates a claim with the same contentHash as this repo's build.
// (package.test.mjs checks the exports map entry by entry; this one the
// install and the bundling.)

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import webpack from 'webpack';
import { validateEvidence } from 'evidence-validator';
import { claim, pkgDir } from './helpers.mjs';

const exec = promisify(execFile);
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));

// An emoji before the quote: code point and UTF-16 offsets differ.
const source = '# Auth 🔐\n\nThe system must implement user authentication with OAuth 2.0 protocol.\n';
const claims = { claims: [claim()] };
const expected = validateEvidence(source, claims, null);

let tmp;
let project;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-install-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: pkgDir, timeout: 120_000 });
  const [{ filename }] = JSON.parse(stdout);
  project = path.join(tmp, 'consumer');
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', path.join(tmp, filename)],
    { cwd: project, timeout: 120_000 });
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs webpack on `config` (in the project); returns the stats, failing on any error. */
async function bundle(config) {
  const nodeModules = path.join(project, 'node_modules');
  const compiler = webpack({
    mode: 'production', context: project, performance: { hints: false }, infrastructureLogging: { level: 'error' },
    resolveLoader: { modules: [nodeModules] }, ...config, resolve: { modules: [nodeModules], ...config.resolve },
  });
  const stats = await new Promise((resolve, reject) => {
    compiler.run((err, s) => compiler.close(() => (err ? reject(err) : resolve(s))));
  });
  assert.equal(stats.hasErrors(), false, stats.toString('errors-only'));
  return stats;
}

/** The package's files webpack put in a bundle. */
function bundledFiles(stats) {
  return stats.toJson({ modules: true }).modules.map((m) => m.nameForCondition ?? m.name ?? '')
    .filter((m) => m.includes(`${path.sep}evidence-validator${path.sep}`));
}

/** Copies the project's dist/ away from its node_modules and runs `file` there; returns its JSON output. */
async function runAlone(name, file) {
  const alone = path.join(tmp, name);
  fs.cpSync(path.join(project, 'dist'), alone, { recursive: true });
  const { stdout } = await exec(process.execPath, ['--no-warnings', path.join(alone, file)], { cwd: alone, timeout: 60_000 });
  return JSON.parse(stdout);
}

/** Runs `node file` in the project; returns its JSON output. */
async function runNode(file) {
  const { stdout } = await exec(process.execPath, ['--no-warnings', file], { cwd: project, timeout: 60_000 });
  return JSON.parse(stdout);
}

// What every consumer prints: where the package came from and what it computed.
const consumerBody = `
const r = validateEvidence(${JSON.stringify(source)}, ${JSON.stringify(claims)}, null);
const m = r.validated_claims[0].match_details;
const doc = new Document(${JSON.stringify(source)}, null);
const out = {
  status: r.validated_claims[0].validation_status,
  hash: r.generated.contentHash,
  sliced: ${JSON.stringify(source)}.slice(m.utf16_start, m.utf16_end) === m.matched_text,
  found: doc.find('OAuth 2.0', null).matches.length,
  version: version(),
};
doc.free();
`;

test('npm install of the tarball: a dependency of the project, in its node_modules', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  assert.match(manifest.dependencies['evidence-validator'], /^file:.*evidence-validator-.*\.tgz$/);
  const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'evidence-validator', 'package.json'), 'utf8'));
  assert.equal(installed.version, pkg.version);
  assert.deepEqual(installed.exports, pkg.exports);
  assert.ok(!fs.lstatSync(path.join(project, 'node_modules', 'evidence-validator')).isSymbolicLink(), 'a copy, not a link to pkg/');
});

test('Node ESM and CommonJS import the installed package', async () => {
  fs.writeFileSync(path.join(project, 'esm.mjs'), `import { validateEvidence, Document, version } from 'evidence-validator';
${consumerBody}
out.url = import.meta.resolve('evidence-validator');
console.log(JSON.stringify(out));
`);
  fs.writeFileSync(path.join(project, 'cjs.cjs'), `const { validateEvidence, Document, version } = require('evidence-validator');
${consumerBody}
out.url = require.resolve('evidence-validator');
console.log(JSON.stringify(out));
`);
  const esm = await runNode('esm.mjs');
  assert.ok(esm.url.startsWith(pathToFileURL(path.join(project, 'node_modules', 'evidence-validator')).href), esm.url);
  const cjs = await runNode('cjs.cjs');
  assert.ok(cjs.url.startsWith(path.join(project, 'node_modules', 'evidence-validator')), cjs.url);
  for (const out of [esm, cjs]) {
    assert.equal(out.status, 'VALIDATED');
    assert.equal(out.hash, expected.generated.contentHash);
    assert.equal(out.sliced, true);
    assert.equal(out.found, 1);
    assert.equal(out.version, pkg.version);
  }
});

test('a webpack 5 bundle of the installed package (bundler build, async WebAssembly) runs and validates', { timeout: 180_000 }, async () => {
  fs.writeFileSync(path.join(project, 'src', 'index.js'), `import { validateEvidence, Document, version } from 'evidence-validator';
${consumerBody}
console.log(JSON.stringify(out));
`);
  const nodeModules = path.join(project, 'node_modules');
  const stats = await bundle({
    entry: './src/index.js',
    // Runs in Node, but resolves the package as a browser bundle would (the
    // `browser`/`import` conditions: the bundler build); webpack loads the
    // emitted .wasm with its Node chunk loading.
    target: 'node',
    output: { path: path.join(project, 'dist'), filename: 'bundle.cjs', webassemblyModuleFilename: '[hash].wasm', clean: true },
    experiments: { asyncWebAssembly: true },
    resolve: { conditionNames: ['browser', 'import', 'module', 'webpack', 'default'] },
  });
  const bundled = bundledFiles(stats);
  assert.ok(bundled.some((m) => m.startsWith(path.join(nodeModules, 'evidence-validator', 'bundler', 'evidence_validator_bg.wasm'))),
    `the bundler build's wasm from the installed package: ${bundled.join(', ')}`);
  assert.ok(bundled.every((m) => m.startsWith(path.join(nodeModules, 'evidence-validator', 'bundler'))), bundled.join(', '));
  const emitted = fs.readdirSync(path.join(project, 'dist'));
  assert.ok(emitted.some((f) => f.endsWith('.wasm')), `webpack emitted the .wasm: ${emitted.join(', ')}`);

  // The bundle alone: moved away from the project's node_modules.
  const out = await runAlone('bundle-only', 'bundle.cjs');
  assert.equal(out.status, 'VALIDATED');
  assert.equal(out.hash, expected.generated.contentHash);
  assert.equal(out.sliced, true);
  assert.equal(out.found, 1);
  assert.equal(out.version, pkg.version);
});

test('a webpack 5 bundle of a CommonJS project that requires the package, for Node, runs away from node_modules', { timeout: 180_000 }, async () => {
  fs.writeFileSync(path.join(project, 'src', 'main.cjs'), `const { validateEvidence, Document, version } = require('evidence-validator');
${consumerBody}
console.log(JSON.stringify(out));
`);
  // webpack's own defaults for Node: no conditions or experiments set here
  const stats = await bundle({
    entry: './src/main.cjs', target: 'node', output: { path: path.join(project, 'dist'), filename: 'main.js', clean: true },
  });
  const installed = path.join(project, 'node_modules', 'evidence-validator');
  const bundled = bundledFiles(stats);
  assert.ok(bundled.includes(path.join(installed, 'web', 'node-bundler.mjs')), `the node + webpack entry: ${bundled.join(', ')}`);
  const emitted = fs.readdirSync(path.join(project, 'dist'));
  const wasm = emitted.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `webpack emitted the .wasm once: ${emitted.join(', ')}`);
  assert.deepEqual(fs.readFileSync(path.join(project, 'dist', wasm[0])), fs.readFileSync(path.join(installed, 'web', 'evidence_validator_bg.wasm')));

  const out = await runAlone('cjs-bundle-only', 'main.js');
  assert.equal(out.status, 'VALIDATED');
  assert.equal(out.hash, expected.generated.contentHash);
  assert.equal(out.sliced, true);
  assert.equal(out.found, 1);
  assert.equal(out.version, pkg.version);
});
