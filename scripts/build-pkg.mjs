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
//      and ureq, stays off even if it were ever made a default).
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
/** Budget for the optimized `_bg.wasm`, gzip -9 (400 KB). */
const WASM_GZIP_BUDGET = 400 * 1024;
const rawWasm = path.join(root, 'target', 'wasm32-unknown-unknown', 'release', `${crateName}.wasm`);

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

function writeEntryPoints(names) {
  const base = crateName;
  // Node: the nodejs target is CommonJS. A `type: commonjs` marker keeps it so
  // under the package's `type: module`; index.mjs gives ESM importers the same
  // instance (no dual-package hazard: `instanceof Document` holds across both).
  // It loads it with `createRequire`, not `import cjs from`: Node's ESM
  // loader would first scan the CommonJS file for its export names
  // (cjs-module-lexer), about 20-30 ms of CPU on a first import here, more
  // than compiling the .wasm (`npm run bench:cold`, issue 21).
  writeJson(path.join(pkgDir, 'nodejs', 'package.json'), { type: 'commonjs' });
  const cjs = commonJsNames(path.join(pkgDir, 'nodejs', `${base}.js`));
  const missing = names.filter((n) => !cjs.includes(n));
  if (missing.length) fail(`the nodejs target does not export ${missing.join(', ')} (exports found: ${cjs.join(', ')})`);
  fs.writeFileSync(path.join(pkgDir, 'nodejs', 'index.mjs'),
    `${HEADER}// Node ESM entry: the CommonJS nodejs target, re-exported by name.\n` +
    `import { createRequire } from 'node:module';\n\n` +
    `const cjs = createRequire(import.meta.url)('./${base}.js');\n\nexport const { ${names.join(', ')} } = cjs;\n`);
  fs.writeFileSync(path.join(pkgDir, 'nodejs', 'index.d.mts'), `${HEADER}export * from './${base}.js';\n`);

  // workerd (Cloudflare Workers), and any runtime or bundler that imports a
  // `.wasm` file as a compiled WebAssembly.Module: instantiate synchronously.
  fs.writeFileSync(path.join(pkgDir, 'web', 'workerd.js'),
    `${HEADER}// Edge entry (Cloudflare Workers / workerd): the .wasm import is a WebAssembly.Module.\n` +
    `import wasm from './${base}_bg.wasm';\nimport { initSync } from './${base}.js';\n\n` +
    `initSync({ module: wasm });\n\nexport * from './${base}.js';\n`);
  fs.writeFileSync(path.join(pkgDir, 'web', 'workerd.d.ts'), `${HEADER}export * from './${base}.js';\n`);

  // webpack bundling for Node (the `node` + `webpack` conditions, from
  // `require` or `import`): the nodejs target reads its .wasm at
  // `${__dirname}`, which in a bundle is the bundle's folder, where nothing
  // put it. Here `new URL(…, import.meta.url)` makes webpack emit the .wasm
  // next to the bundle and find it at run time; it is compiled synchronously
  // (no async module: `require` works).
  fs.writeFileSync(path.join(pkgDir, 'web', 'node-bundler.mjs'),
    `${HEADER}// Node entry for webpack bundles: the .wasm is emitted by the bundler and read next to the bundle.\n` +
    `import { readFileSync } from 'node:fs';\nimport { initSync } from './${base}.js';\n\n` +
    `initSync({ module: readFileSync(new URL('./${base}_bg.wasm', import.meta.url)) });\n\nexport * from './${base}.js';\n`);
}

function packageJson(cargo) {
  const base = crateName;
  const bundler = { types: `./bundler/${base}.d.ts`, default: `./bundler/${base}.js` };
  const web = { types: `./web/${base}.d.ts`, default: `./web/${base}.js` };
  const sideEffects = [
    `./bundler/${base}.js`, // instantiates the wasm module on import
    `./nodejs/${base}.js`,
    './nodejs/index.mjs',
    './web/workerd.js',
    './web/node-bundler.mjs',
  ];
  for (const t of targets) if (fs.existsSync(path.join(pkgDir, t, 'snippets'))) sideEffects.push(`./${t}/snippets/*`);
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
    exports: {
      '.': {
        // First: Cloudflare's bundler (wrangler) also sets `browser` and `import`.
        workerd: { types: './web/workerd.d.ts', default: './web/workerd.js' },
        node: {
          // webpack bundling for Node (web/node-bundler.mjs), before Node's own entries
          webpack: { types: `./nodejs/${base}.d.ts`, default: './web/node-bundler.mjs' },
          import: { types: './nodejs/index.d.mts', default: './nodejs/index.mjs' },
          require: { types: `./nodejs/${base}.d.ts`, default: `./nodejs/${base}.js` },
          default: { types: `./nodejs/${base}.d.ts`, default: `./nodejs/${base}.js` },
        },
        browser: bundler,
        import: bundler,
        default: bundler,
      },
      // Browsers without a bundler: `await init()` before the first call.
      './web': web,
      // The wasm itself, for a page that compiles it once and posts the
      // WebAssembly.Module to its workers (`init({ module_or_path: module })`).
      './web/wasm': `./web/${base}_bg.wasm`,
      './workerd': { types: './web/workerd.d.ts', default: './web/workerd.js' },
      './package.json': './package.json',
    },
    files: ['bundler/', 'web/', 'nodejs/', 'README.md'],
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

  run('cargo', ['build', '--lib', '--release', '--target', 'wasm32-unknown-unknown', '--no-default-features'], 'cargo build (wasm32)');
  if (!fs.existsSync(rawWasm)) fail(`cargo build succeeded but ${path.relative(root, rawWasm)} does not exist`);

  fs.rmSync(pkgDir, { recursive: true, force: true });
  for (const t of targets) {
    run('wasm-bindgen', ['--target', t, '--out-dir', path.join('pkg', t), path.relative(root, rawWasm)], `wasm-bindgen --target ${t}`);
  }

  const bgFiles = targets.map((t) => path.join(pkgDir, t, `${crateName}_bg.wasm`));
  for (const f of bgFiles) if (!fs.existsSync(f)) fail(`wasm-bindgen did not write ${path.relative(root, f)}`);
  const report = [['input (cargo)', sizes(rawWasm)], ['after wasm-bindgen', sizes(bgFiles[0])]];
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
    report.push([`after wasm-opt -${args.opt}`, sizes(bgFiles[0])]);
  }

  const names = exportedNames(path.join(pkgDir, 'bundler', `${crateName}.js`));
  writeEntryPoints(names);
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
  console.error('wasm size            raw bytes   gzip -9');
  for (const [label, s] of report) console.error(`${label.padEnd(20)} ${String(s.raw).padStart(9)} ${String(s.gzip).padStart(9)}`);
  // The size budget of the shipped .wasm (see [profile.release] in Cargo.toml
  // for what was measured): a warning, not a failure, so that a debug build
  // (--no-opt) still builds.
  const shipped = report[report.length - 1][1];
  if (wasmOpt && shipped.gzip > WASM_GZIP_BUDGET) {
    console.error(`\nbuild-pkg: warning: the .wasm is ${shipped.gzip} bytes gzipped, over the budget of ${WASM_GZIP_BUDGET}`);
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
