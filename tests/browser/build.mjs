// Shared by the browser tests: the paths, a Chromium check, and building
// www/dist/ when it is missing or older than its inputs (so `npm run
// test:browser` is self-contained once pkg/ is built).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distDir = path.join(root, 'www', 'dist');
export const outDir = path.join(root, 'target', 'browser');

/** Debian's Chromium (apt-get install chromium); CHROMIUM overrides. */
export function chromiumPath() {
  const exe = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(exe)) {
    throw new Error(`${exe} not found: install Debian's Chromium (apt-get install -y chromium; scripts/setup.sh does) ` +
      'or set CHROMIUM to a Chromium executable');
  }
  return exe;
}

/** The newest modification time under `p` (a file or a directory). */
function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newest(path.join(p, e))));
}

/**
 * Runs `fn` holding a lock directory (`node --test` may run several browser
 * test files at once: one webpack build at a time, the others wait for it and
 * then find www/dist/ fresh). A lock older than `staleMs` (a killed run) is
 * taken over.
 */
function withBuildLock(fn, staleMs = 600_000) {
  const lock = path.join(outDir, '.www-build.lock');
  fs.mkdirSync(outDir, { recursive: true });
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let age = 0;
      try { age = Date.now() - fs.statSync(lock).mtimeMs; } catch { continue; }
      if (age > staleMs) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(sleeper, 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds www/dist/ with webpack unless it is newer than every input. */
export function ensureWwwBuilt() {
  if (!fs.existsSync(path.join(root, 'pkg', 'package.json'))) {
    throw new Error('pkg/ is not built: run `npm run build` first (the web UI bundles the package)');
  }
  return withBuildLock(buildIfStale);
}

function buildIfStale() {
  const inputs = ['www/src', 'www/samples', 'www/index.html', 'www/style.css', 'samples', 'webpack.config.js', 'pkg/bundler']
    .map((rel) => newest(path.join(root, rel)));
  const built = newest(path.join(distDir, 'index.html'));
  if (built > Math.max(...inputs)) return false;
  const webpackBin = path.join(root, 'node_modules', 'webpack', 'bin', 'webpack.js');
  console.error('# building www/dist (webpack --mode production)');
  const r = spawnSync(process.execPath, [webpackBin, '--mode', 'production'], { cwd: root, stdio: 'inherit', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`webpack failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
  return true;
}
