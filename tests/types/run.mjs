#!/usr/bin/env node
// Runs the typed tests (tests/types/*.ts) against the built package, after
// `tsc -p tests/types` has type-checked them (npm run test:types does both).
// Each file is transpiled (types erased, nothing checked: tsc did that) into
// a temporary directory whose node_modules/evidence-validator links to pkg/,
// then every exported `test*` function is awaited, in file order. The run
// shows that what the declarations promise is what the library returns: the
// `shape` checks of check.ts fail on a returned key the type lacks, or a
// required key the library does not return.
//
// bundler.ts is type-checked only (the bundler target needs a bundler's
// .wasm import).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..', '..', 'pkg');
if (!fs.existsSync(path.join(pkgDir, 'package.json'))) {
  console.error('pkg/ is not built: run `npm run build` first');
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-types-'));
let failed = 0;
try {
  fs.writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
  fs.mkdirSync(path.join(tmp, 'node_modules'));
  fs.symlinkSync(pkgDir, path.join(tmp, 'node_modules', 'evidence-validator'), 'dir');
  const files = fs.readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
  for (const f of files) {
    const { outputText } = ts.transpileModule(fs.readFileSync(path.join(here, f), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: f,
    });
    fs.writeFileSync(path.join(tmp, f.replace(/\.ts$/, '.js')), outputText);
  }
  for (const f of files.filter((f) => f !== 'bundler.ts' && f !== 'check.ts')) {
    const mod = await import(pathToFileURL(path.join(tmp, f.replace(/\.ts$/, '.js'))).href);
    for (const [name, fn] of Object.entries(mod)) {
      if (!name.startsWith('test') || typeof fn !== 'function') continue;
      const started = performance.now();
      try {
        await fn();
        console.log(`ok   ${f} ${name} (${Math.round(performance.now() - started)} ms)`);
      } catch (e) {
        failed += 1;
        console.log(`FAIL ${f} ${name}: ${e?.stack ?? e}`);
      }
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
if (failed) {
  console.error(`${failed} typed test(s) failed`);
  process.exit(1);
}
