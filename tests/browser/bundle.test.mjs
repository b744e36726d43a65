// Issue 19, point 6, in Chromium: the npm package bundled by webpack 5 for
// the browser (`target: 'web'`, `experiments.asyncWebAssembly`, the
// package's `browser` entry: the bundler build) runs in the page, from an ESM
// project (`import`) and from a CommonJS one (`require`). The bundler build
// loads its .wasm asynchronously, so webpack makes it an async module: in a
// browser bundle `require('evidence-validator')` gives a promise of the
// module (npm/README.md says so), which the CommonJS project awaits. Each
// page validates a claim and its report's contentHash is the Node build's.
// (tests/js/npm-install.test.mjs runs the installed package in Node, ESM and
// CommonJS, bundled and not.)

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import webpack from 'webpack';
import { chromiumPath, root } from './build.mjs';
import { serveStatic } from './static-server.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);

const SOURCE = 'The committee met on 3 March. “The budget was approved,” the chair said — 🚲 lanes included.';
const CLAIMS = { claims: [{ id: 'EV001', task_id: 'P1.T001', evidence_type: 'direct_quote', quote: '"The budget was approved," the chair said' }] };
const expected = lib.validateEvidence(SOURCE, CLAIMS);

/** What each project's page does with the library: validate, and put the outcome in the page for the test. */
const BODY = `
  const report = lib.validateEvidence(${JSON.stringify(SOURCE)}, ${JSON.stringify(CLAIMS)});
  const r = report.validated_claims[0];
  document.body.dataset.result = JSON.stringify({ status: r.validation_status, start: r.match_details.utf16_start, end: r.match_details.utf16_end, hash: report.generated.contentHash, version: lib.version() });
`;

/** A project: its entry file, and node_modules/evidence-validator linked to pkg/ (as www/ has it). */
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-bundle-test-'));
fs.mkdirSync(path.join(project, 'src'));
fs.mkdirSync(path.join(project, 'node_modules'));
fs.symlinkSync(path.join(root, 'pkg'), path.join(project, 'node_modules', 'evidence-validator'), 'dir');
fs.writeFileSync(path.join(project, 'src', 'esm.js'), `import * as lib from 'evidence-validator';\n${BODY}`);
fs.writeFileSync(path.join(project, 'src', 'cjs.cjs'), `const loading = require('evidence-validator');\nPromise.resolve(loading).then((lib) => {${BODY}});\n` +
  'document.body.dataset.requireGave = typeof loading.then === \'function\' ? \'promise\' : \'module\';\n');

let browser;
let server;
before(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(project, { recursive: true, force: true });
});

/** webpack 5 for the browser, as a user's webpack.config.js with WebAssembly on; resolves to the stats. */
function bundle(entry, out) {
  return new Promise((resolve, reject) => {
    const compiler = webpack({
      mode: 'production', context: project, entry, target: 'web', devtool: false,
      output: { path: path.join(project, 'dist', out), filename: 'main.js', clean: true },
      experiments: { asyncWebAssembly: true }, performance: { hints: false },
    });
    compiler.run((err, stats) => {
      compiler.close(() => {});
      if (err) return reject(err);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve(stats);
    });
  });
}

/** Bundles `entry` into dist/`out`, opens it in Chromium; resolves to what the page put in its body's dataset. */
async function runInChromium(entry, out) {
  const stats = await bundle(entry, out);
  const modules = [...stats.compilation.modules].map((m) => m.resource).filter(Boolean);
  assert.ok(modules.some((m) => m.endsWith(path.join('bundler', 'evidence_validator_bg.wasm'))), `the bundler build: ${modules.join(', ')}`);
  fs.writeFileSync(path.join(project, 'dist', out, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script src="main.js"></script></body>\n');
  await server?.close();
  server = await serveStatic(path.join(project, 'dist'), { lifetimeMs: 120_000 });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.url}${out}/index.html`);
  await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 30_000 });
  const data = await page.evaluate(() => ({ ...document.body.dataset }));
  await page.close();
  assert.deepEqual(errors, []);
  assert.ok(server.requests.some((r) => r.endsWith('.wasm')), `the .wasm fetched: ${server.requests.join(', ')}`);
  return { ...data, result: JSON.parse(data.result) };
}

const want = () => {
  const r = expected.validated_claims[0];
  return { status: r.validation_status, start: r.match_details.utf16_start, end: r.match_details.utf16_end, hash: expected.generated.contentHash, version: lib.version() };
};

test('an ESM project bundled by webpack for the browser imports the package and validates in Chromium', { timeout: 180_000 }, async () => {
  const { result } = await runInChromium('./src/esm.js', 'esm');
  assert.equal(result.status, 'VALIDATED');
  assert.deepEqual(result, want());
});

test('a CommonJS project bundled by webpack for the browser requires the package (a promise of it) and validates in Chromium', { timeout: 180_000 }, async () => {
  const { result, requireGave } = await runInChromium('./src/cjs.cjs', 'cjs');
  assert.equal(requireGave, 'promise', 'webpack gives an async module to require() as a promise');
  assert.deepEqual(result, want());
});
