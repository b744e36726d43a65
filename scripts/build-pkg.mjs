#!/usr/bin/env node
// Builds the npm package `evidence-validator` into pkg/ (build output, not
// committed; the hand-written templates live in npm/).
//
//   node scripts/build-pkg.mjs            (npm run build)
//   node scripts/build-pkg.mjs --opt Oz   (another wasm-opt level; default O3)
//   node scripts/build-pkg.mjs --no-opt   (skip wasm-opt: a fast debug build)
//
// Steps, each of which stops the build with a message and a non-zero exit
// when it fails:
//   1. cargo build --lib --release --target wasm32-unknown-unknown --no-default-features
//      (no default features, so that the `cli` feature, which pulls clap
//      and ureq, stays off even if it were ever made a default). Steps 1-4
//      run once per build in VARIANTS: the whole library into pkg/, then
//      `--features wasm-core` (spec 000 only) into pkg/core/, the package's
//      `evidence-validator/core` entry point.
//   2. wasm-bindgen --target bundler|web|nodejs into pkg/<target>; the CLI must
//      be exactly the version the crate pins in Cargo.toml (`=0.2.130`).
//   3. wasm-opt (npm package `binaryen`, node_modules/.bin/wasm-opt) on the
//      `_bg.wasm`, -O3 by default: measured against -Oz on this crate (2026-11),
//      -Oz is 0.6% smaller raw but 0.2% larger gzipped, and run time was the
//      same within noise (validating the sample and 200 claims on 1 MB), so
//      -O3. Measured again after the size work (sort.rs, text/unicode.rs):
//      -O3 919683 bytes raw / 376992 gzip -9, -Oz 912741 / 376687, and
//      before it -Os and -O4 were within 0.1% of -O3 gzipped: the level is
//      not where the size is, so -O3 stays. -O3 inlines every function with
//      one caller, whatever its size (validate::run becomes 67 KB, the
//      costliest function for V8's optimizing compiler); capping that
//      (--one-caller-inline-max-function-size=1000) changed neither the size
//      nor the first call's time (npm run bench:cold, 2026-11-27), so it is
//      not set. The budget is 400 KB gzipped
//      (a warning below). Either saves about 14% raw and 8% gzipped over
//      bindgen's output. Optimizing AFTER wasm-bindgen: bindgen needs the custom
//      sections the optimizer would drop. The three targets get the same
//      `_bg.wasm`, so it is optimized once and copied (checked by hash).
//   4. Entry points of our own: pkg/nodejs/index.mjs (Node ESM),
//      pkg/web/workerd.js (Cloudflare Workers and other runtimes that import
//      `.wasm` files as WebAssembly.Module), their .d.ts, pkg/package.json
//      with the `exports` map, pkg/README.md from npm/README.md.
//   5. Checks: no `any` type in any published .d.ts; the package's files exist.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'pkg');
const crateName = 'evidence_validator';
const targets = ['bundler', 'web', 'nodejs'];
/**
 * The builds the package ships, each as the three targets with their entry
 * points: the whole library at pkg/ (`evidence-validator`), and spec 000
 * alone at pkg/core (`evidence-validator/core`: validateEvidence and
 * validateEvidenceAsync, Document, DocumentBuilder, SlicedValidation,
 * parseJson, defaultConfig, sliceOptionBounds, version: tests/js/core.test.mjs's CORE_API), built with the crate's `wasm-core`
 * feature so that the linker leaves the citation pipeline, the judge,
 * findings and transcripts out (1.95 MB / 782 KB gzipped against 1.17 MB /
 * 481 KB, 2026-11-28; README "Size"). Its types are `src/wasm/types.d.ts`
 * down to the `@end-of-core` line.
 */
const VARIANTS = [
  { dir: '', features: [], label: '', targetDir: 'target' },
  // its own target directory: the cdylib's file name has no hash of its
  // features, so sharing `target` would rebuild the crate for each build at
  // every `npm run build`
  { dir: 'core', features: ['wasm-core'], label: 'core: ', targetDir: path.join('target', 'wasm-core') },
];
/** The line of src/wasm/types.d.ts after which nothing is in the core build. */
const CORE_TYPES_END = '// @end-of-core:';
/** Budget for the optimized `_bg.wasm`, gzip -9 (400 KB). */
const WASM_GZIP_BUDGET = 400 * 1024;
/** What cargo writes into a target directory. */
const rawWasmIn = (targetDir) => path.join(root, targetDir, 'wasm32-unknown-unknown', 'release', `${crateName}.wasm`);

class BuildError extends Error {}

function fail(message) {
  throw new BuildError(message);
}

function parseArgs(argv) {
  const args = { opt: 'O3' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-opt') args.opt = null;
    else if (a === '--opt') args.opt = argv[++i];
    else if (a.startsWith('--opt=')) args.opt = a.slice('--opt='.length);
    else fail(`unknown argument ${JSON.stringify(a)}; expected --opt LEVEL or --no-opt`);
  }
  if (args.opt !== null && !/^O[0-4sz]$/.test(args.opt)) {
    fail(`--opt must be one of O0 O1 O2 O3 O4 Os Oz, got ${JSON.stringify(args.opt)}`);
  }
  return args;
}

/** Runs a command with inherited output; fails the build when it does. */
function run(cmd, args, what) {
  console.error(`\n> ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.error) fail(`${what}: cannot run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) fail(`${what} failed (${cmd} exited with ${r.status ?? r.signal})`);
}

/** Runs a command and returns its stdout, or null when it cannot run. */
function capture(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return r.stdout;
}

/** name, version, description, license, repository of [package] in Cargo.toml. */
function cargoPackage() {
  const toml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const section = toml.split(/^\[/m).find((s) => s.startsWith('package]'));
  if (!section) fail('Cargo.toml has no [package] section');
  const field = (key) => section.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm'))?.[1];
  const pin = toml.match(/^wasm-bindgen\s*=\s*(?:\{[^}]*version\s*=\s*)?"=([^"]+)"/m)?.[1];
  if (!pin) fail('Cargo.toml does not pin wasm-bindgen with "=x.y.z"; the CLI version cannot be checked');
  return {
    name: field('name'),
    version: field('version'),
    description: field('description'),
    license: field('license'),
    repository: field('repository'),
    wasmBindgen: pin,
  };
}

function checkWasmBindgen(pinned) {
  const out = capture('wasm-bindgen', ['--version']);
  if (out === null) {
    fail(`wasm-bindgen not found on PATH. Install exactly the pinned version: cargo install wasm-bindgen-cli --version ${pinned} --locked`);
  }
  const got = out.trim().match(/^wasm-bindgen (\S+)/)?.[1];
  if (got !== pinned) {
    fail(`wasm-bindgen --version printed ${JSON.stringify(out.trim())}, but the crate pins wasm-bindgen =${pinned}; ` +
      `install the matching CLI: cargo install wasm-bindgen-cli --version ${pinned} --locked --force`);
  }
}

function wasmOptPath() {
  const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'wasm-opt.cmd' : 'wasm-opt');
  if (!fs.existsSync(bin)) fail(`${path.relative(root, bin)} not found: run \`npm install\` (devDependency binaryen)`);
  const out = capture(bin, ['--version']);
  if (out === null) fail(`${bin} --version failed`);
  return bin;
}

const sha256 = (file) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Raw size and `gzip -9` size (GNU gzip when installed, else zlib at level 9, a few kB larger). */
function sizes(file) {
  const bytes = fs.readFileSync(file);
  const gnu = spawnSync('gzip', ['-9c'], { input: bytes, maxBuffer: 1 << 30 });
  const gzip = !gnu.error && gnu.status === 0 ? gnu.stdout.length : zlib.gzipSync(bytes, { level: 9 }).length;
  return { raw: bytes.length, gzip };
}

/** The names the bundler target's entry re-exports (`export { a, b } from`). */
function exportedNames(file) {
  const js = fs.readFileSync(file, 'utf8');
  const names = [...js.matchAll(/export\s*\{([^}]*)\}\s*from/g)].flatMap((m) => m[1].split(','))
    .map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) fail(`cannot find the exported names in ${path.relative(root, file)}`);
  return names;
}

/** The names the nodejs (CommonJS) target assigns to `exports.NAME`. */
function commonJsNames(file) {
  const js = fs.readFileSync(file, 'utf8');
  return [...js.matchAll(/^exports\.([A-Za-z_$][\w$]*)\s*=/gm)].map((m) => m[1]);
}

/**
 * wasm-bindgen declares the raw wasm exports (`_bg.wasm.d.ts`, and the
 * `InitOutput` interface of the web target) with `any` for externref
 * parameters and results (an async export returns its Promise that way). Nobody should call those, but the published types must not
 * contain `any`: such parameters become `unknown`.
 */
function sanitizeAbiDeclarations(file) {
  const text = fs.readFileSync(file, 'utf8');
  const fixed = text.replace(/^(\s*(?:export const|readonly) [\w$]+: \()([^)]*)(\) =>)( any;)?/gm,
    (_, head, params, tail, ret) => head + params.replace(/\bany\b/g, 'unknown') + tail + (ret ? ' unknown;' : ''));
  if (fixed !== text) fs.writeFileSync(file, fixed);
}

/** Every `any` type in a .d.ts (comments are ignored: "any" is an English word). */
function anyTypes(file) {
  const text = fs.readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/\/\/.*$/gm, '');
  const hits = [];
  text.split('\n').forEach((line, i) => {
    if (/\bany\b/.test(line)) hits.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
  });
  return hits;
}

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const HEADER = '// Generated by scripts/build-pkg.mjs. Do not edit.\n';

/**
 * Removes from a core build's .d.ts the declarations past the
 * `@end-of-core` line of src/wasm/types.d.ts (wasm-bindgen copies that file
 * into every target's .d.ts as it is): the core build does not export them.
 */
function cutCoreTypes(file) {
  const types = fs.readFileSync(path.join(root, 'src', 'wasm', 'types.d.ts'), 'utf8');
  const at = types.indexOf(CORE_TYPES_END);
  if (at < 0) fail(`src/wasm/types.d.ts has no \`${CORE_TYPES_END}\` line: the core build's types cannot be cut`);
  // wasm-bindgen re-indents the text: lines are compared without their indentation
  const tail = types.slice(at).trimEnd().split('\n').map((l) => l.trim());
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.trim() === tail[0]);
  if (from < 0 || tail.some((l, k) => lines[from + k]?.trim() !== l)) {
    fail(`${path.relative(root, file)} does not hold src/wasm/types.d.ts as written: cannot cut the core build's types`);
  }
  lines.splice(from, tail.length);
  fs.writeFileSync(file, lines.join('\n'));
}

/** The entry points of one build (`dir`: pkg/ itself, or pkg/core). */
function writeEntryPoints(names, dir) {
  const base = crateName;
  // Node: the nodejs target is CommonJS. A `type: commonjs` marker keeps it so
  // under the package's `type: module`; index.mjs gives ESM importers the same
  // instance (no dual-package hazard: `instanceof Document` holds across both).
  // It loads it with `createRequire`, not `import cjs from`: Node's ESM
  // loader would first scan the CommonJS file for its export names
  // (cjs-module-lexer), about 20-30 ms of CPU on a first import here, more
  // than compiling the .wasm (`npm run bench:cold`, issue 21).
  writeJson(path.join(dir, 'nodejs', 'package.json'), { type: 'commonjs' });
  const cjs = commonJsNames(path.join(dir, 'nodejs', `${base}.js`));
  const missing = names.filter((n) => !cjs.includes(n));
  if (missing.length) fail(`the nodejs target does not export ${missing.join(', ')} (exports found: ${cjs.join(', ')})`);
  fs.writeFileSync(path.join(dir, 'nodejs', 'index.mjs'),
    `${HEADER}// Node ESM entry: the CommonJS nodejs target, re-exported by name.\n` +
    `import { createRequire } from 'node:module';\n\n` +
    `const cjs = createRequire(import.meta.url)('./${base}.js');\n\nexport const { ${names.join(', ')} } = cjs;\n`);
  fs.writeFileSync(path.join(dir, 'nodejs', 'index.d.mts'), `${HEADER}export * from './${base}.js';\n`);

  // workerd (Cloudflare Workers), and any runtime or bundler that imports a
  // `.wasm` file as a compiled WebAssembly.Module: instantiate synchronously.
  fs.writeFileSync(path.join(dir, 'web', 'workerd.js'),
    `${HEADER}// Edge entry (Cloudflare Workers / workerd): the .wasm import is a WebAssembly.Module.\n` +
    `import wasm from './${base}_bg.wasm';\nimport { initSync } from './${base}.js';\n\n` +
    `initSync({ module: wasm });\n\nexport * from './${base}.js';\n`);
  fs.writeFileSync(path.join(dir, 'web', 'workerd.d.ts'), `${HEADER}export * from './${base}.js';\n`);

  // webpack bundling for Node (the `node` + `webpack` conditions, from
  // `require` or `import`): the nodejs target reads its .wasm at
  // `${__dirname}`, which in a bundle is the bundle's folder, where nothing
  // put it. Here `new URL(…, import.meta.url)` makes webpack emit the .wasm
  // next to the bundle and find it at run time; it is compiled synchronously
  // (no async module: `require` works).
  fs.writeFileSync(path.join(dir, 'web', 'node-bundler.mjs'),
    `${HEADER}// Node entry for webpack bundles: the .wasm is emitted by the bundler and read next to the bundle.\n` +
    `import { readFileSync } from 'node:fs';\nimport { initSync } from './${base}.js';\n\n` +
    `initSync({ module: readFileSync(new URL('./${base}_bg.wasm', import.meta.url)) });\n\nexport * from './${base}.js';\n`);
}

/**
 * The `exports` entries of one build whose files are under `at` (`./` for
 * the full build, `./core/` for `evidence-validator/core`), keyed by the
 * subpath after the variant's own (`''`, `/web`, `/web/wasm`, `/workerd`).
 */
function variantExports(at) {
  const base = crateName;
  const bundler = { types: `${at}bundler/${base}.d.ts`, default: `${at}bundler/${base}.js` };
  const web = { types: `${at}web/${base}.d.ts`, default: `${at}web/${base}.js` };
  const workerd = { types: `${at}web/workerd.d.ts`, default: `${at}web/workerd.js` };
  return {
    '': {
      // First: Cloudflare's bundler (wrangler) also sets `browser` and `import`.
      workerd,
      node: {
        // webpack bundling for Node (web/node-bundler.mjs), before Node's own entries
        webpack: { types: `${at}nodejs/${base}.d.ts`, default: `${at}web/node-bundler.mjs` },
        import: { types: `${at}nodejs/index.d.mts`, default: `${at}nodejs/index.mjs` },
        require: { types: `${at}nodejs/${base}.d.ts`, default: `${at}nodejs/${base}.js` },
        default: { types: `${at}nodejs/${base}.d.ts`, default: `${at}nodejs/${base}.js` },
      },
      browser: bundler,
      import: bundler,
      default: bundler,
    },
    // Browsers without a bundler: `await init()` before the first call.
    '/web': web,
    // The wasm itself, for a page that compiles it once and posts the
    // WebAssembly.Module to its workers (`init({ module_or_path: module })`).
    '/web/wasm': `${at}web/${base}_bg.wasm`,
    '/workerd': workerd,
  };
}

function packageJson(cargo) {
  const base = crateName;
  const sideEffects = [];
  for (const v of VARIANTS) {
    const at = v.dir ? `./${v.dir}/` : './';
    sideEffects.push(
      `${at}bundler/${base}.js`, // instantiates the wasm module on import
      `${at}nodejs/${base}.js`,
      `${at}nodejs/index.mjs`,
      `${at}web/workerd.js`,
      `${at}web/node-bundler.mjs`,
    );
    for (const t of targets) if (fs.existsSync(path.join(pkgDir, v.dir, t, 'snippets'))) sideEffects.push(`${at}${t}/snippets/*`);
  }
  const exports = {};
  for (const v of VARIANTS) {
    for (const [sub, target] of Object.entries(variantExports(v.dir ? `./${v.dir}/` : './'))) {
      exports[`.${v.dir ? `/${v.dir}` : ''}${sub}`] = target;
    }
  }
  exports['./package.json'] = './package.json';
  return {
    name: cargo.name,
    version: cargo.version,
    description: cargo.description,
    license: cargo.license,
    repository: cargo.repository ? { type: 'git', url: cargo.repository } : undefined,
    keywords: ['llm', 'evidence', 'quote', 'citation', 'grounding', 'fuzzy-matching', 'wasm'],
    type: 'module',
    // For tools that predate `exports`.
    main: `./nodejs/${base}.js`,
    module: `./bundler/${base}.js`,
    types: `./bundler/${base}.d.ts`,
    exports,
    files: [...VARIANTS.filter((v) => v.dir).map((v) => `${v.dir}/`), 'bundler/', 'web/', 'nodejs/', 'README.md'],
    sideEffects,
    engines: { node: '>=18' },
  };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const cargo = cargoPackage();
  checkWasmBindgen(cargo.wasmBindgen);
  const wasmOpt = args.opt ? wasmOptPath() : null;
  const readme = path.join(root, 'npm', 'README.md');
  if (!fs.existsSync(readme)) fail('npm/README.md is missing');

  const report = [];
  for (const v of VARIANTS) {
    const what = `cargo build (wasm32${v.features.length ? `, --features ${v.features.join(',')}` : ''})`;
    const features = v.features.length ? ['--features', v.features.join(',')] : [];
    const targetDir = v.targetDir === 'target' ? [] : ['--target-dir', v.targetDir];
    const rawWasm = rawWasmIn(v.targetDir);
    run('cargo', ['build', '--lib', '--release', '--target', 'wasm32-unknown-unknown', '--no-default-features', ...features, ...targetDir], what);
    if (!fs.existsSync(rawWasm)) fail(`cargo build succeeded but ${path.relative(root, rawWasm)} does not exist`);
    if (v === VARIANTS[0]) fs.rmSync(pkgDir, { recursive: true, force: true });
    const out = path.join(pkgDir, v.dir);
    for (const t of targets) {
      run('wasm-bindgen', ['--target', t, '--out-dir', path.relative(root, path.join(out, t)), path.relative(root, rawWasm)], `wasm-bindgen --target ${t}`);
    }

    const bgFiles = targets.map((t) => path.join(out, t, `${crateName}_bg.wasm`));
    for (const f of bgFiles) if (!fs.existsSync(f)) fail(`wasm-bindgen did not write ${path.relative(root, f)}`);
    report.push([`${v.label}input (cargo)`, sizes(rawWasm)], [`${v.label}after wasm-bindgen`, sizes(bgFiles[0])]);
    if (wasmOpt) {
      const hashes = new Set(bgFiles.map(sha256));
      const optimizeEach = hashes.size !== 1;
      const inputs = optimizeEach ? bgFiles : [bgFiles[0]];
      for (const f of inputs) {
        const tmp = `${f}.opt`;
        // Features are read from the module's target_features section.
        run(wasmOpt, [`-${args.opt}`, '--strip-debug', '--strip-producers', f, '-o', tmp], `wasm-opt -${args.opt}`);
        fs.renameSync(tmp, f);
      }
      if (!optimizeEach) for (const f of bgFiles.slice(1)) fs.copyFileSync(bgFiles[0], f);
      report.push([`${v.label}after wasm-opt -${args.opt}`, sizes(bgFiles[0])]);
    }
    if (v.dir === 'core') for (const t of targets) cutCoreTypes(path.join(out, t, `${crateName}.d.ts`));

    writeEntryPoints(exportedNames(path.join(out, 'bundler', `${crateName}.js`)), out);
  }
  writeJson(path.join(pkgDir, 'package.json'), packageJson(cargo));
  fs.copyFileSync(readme, path.join(pkgDir, 'README.md'));

  const dts = walk(pkgDir).filter((f) => /\.d\.m?ts$/.test(f));
  dts.forEach(sanitizeAbiDeclarations);
  const hits = dts.flatMap(anyTypes);
  if (hits.length) fail(`\`any\` in published type declarations (use a precise type or \`unknown\`):\n  ${hits.join('\n  ')}`);

  // Every file the exports map names must exist.
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const targetsOf = (v) => (typeof v === 'string' ? [v] : Object.values(v).flatMap(targetsOf));
  for (const rel of [pkg.main, pkg.module, pkg.types, ...targetsOf(pkg.exports)]) {
    if (!fs.existsSync(path.join(pkgDir, rel))) fail(`pkg/package.json names ${rel}, which was not built`);
  }

  console.error(`\nbuilt pkg/ (${cargo.name}@${cargo.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.error('wasm size                  raw bytes   gzip -9');
  for (const [label, s] of report) console.error(`${label.padEnd(26)} ${String(s.raw).padStart(9)} ${String(s.gzip).padStart(9)}`);
  // The size budget of the shipped .wasm (see [profile.release] in Cargo.toml
  // for what was measured): a warning, not a failure, so that a debug build
  // (--no-opt) still builds.
  for (const [label, s] of report) {
    if (wasmOpt && label.includes('after wasm-opt') && s.gzip > WASM_GZIP_BUDGET) {
      console.error(`\nbuild-pkg: warning: the .wasm (${label.replace(/after.*/, '') || 'full: '}${s.gzip} bytes gzipped) is over the budget of ${WASM_GZIP_BUDGET}`);
    }
  }
}

try {
  main();
} catch (e) {
  if (e instanceof BuildError) {
    console.error(`\nbuild-pkg: error: ${e.message}`);
    process.exit(1);
  }
  throw e;
}
