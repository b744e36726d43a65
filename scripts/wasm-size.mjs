#!/usr/bin/env node
// Where the bytes of a .wasm go: code per function and per module path, data
// segments, other sections. A small stand-in for `twiggy top`, with no
// dependency: it reads the binary's sections and its `name` section.
//
//   node scripts/wasm-size.mjs FILE.wasm [--top N] [--depth D]
//
// The package's .wasm has no names (build-pkg strips them); to see names,
// analyse the file wasm-bindgen writes before wasm-opt, or optimize one
// keeping them:
//   node_modules/.bin/wasm-opt -O3 pkg/nodejs/evidence_validator_bg.wasm -o /tmp/named.wasm
// (after `node scripts/build-pkg.mjs --no-opt`), then run this on it.
//
// Prints: each section's size; the N largest functions (body bytes); code
// summed by module path cut at D `::` segments (`evidence_validator::cite`,
// `core::fmt`, `serde_json`, …); each data segment's size. Sizes are raw
// bytes; gzip ratios per group are not computable from a whole file, so the
// gzip column is the group's bytes gzipped alone (an upper bound).

import fs from 'node:fs';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TOP = opt('--top', 40);
const DEPTH = opt('--depth', 2);
if (!file) {
  console.error('usage: node scripts/wasm-size.mjs FILE.wasm [--top N] [--depth D]');
  process.exit(2);
}

const bytes = fs.readFileSync(file);
let at = 8;
function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return result;
  }
}
function name() {
  const len = leb();
  const s = bytes.toString('utf8', at, at + len);
  at += len;
  return s;
}

const SECTION = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount', 'tag'];
const sections = [];
let importedFunctions = 0;
const bodies = []; // [start, size] per defined function
const segments = []; // [start, size]
const names = new Map();
while (at < bytes.length) {
  const id = bytes[at++];
  const size = leb();
  const start = at;
  const end = at + size;
  let label = SECTION[id] ?? `id ${id}`;
  if (id === 0) {
    label = `custom "${name()}"`;
    if (label === 'custom "name"') {
      while (at < end) {
        const sub = bytes[at++];
        const subSize = leb();
        const subEnd = at + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const index = leb();
            names.set(index, name());
          }
        }
        at = subEnd;
      }
    }
  } else if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      name();
      name();
      const kind = bytes[at++];
      if (kind === 0) {
        leb();
        importedFunctions++;
      } else if (kind === 1) {
        at++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) {
        at++;
        at++;
      } else {
        leb();
        leb();
      }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const s = leb();
      bodies.push([at, s]);
      at += s;
    }
  } else if (id === 11) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const flags = leb();
      if (flags === 2) leb();
      if (flags !== 1) {
        // a constant expression up to `end` (0x0b)
        while (bytes[at] !== 0x0b) at++;
        at++;
      }
      const s = leb();
      segments.push([at, s]);
      at += s;
    }
  }
  sections.push({ label, size: end - start });
  at = end;
}

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
console.log(`${file}: ${bytes.length} bytes raw, ${gz(bytes)} gzipped (zlib -9)\n`);
console.log('section                         raw');
for (const s of sections) console.log(`${s.label.padEnd(28)} ${kb(s.size)}`);

/** A Rust legacy-mangled name (`_ZN…E`) as a path; other names unchanged. */
function demangle(raw) {
  const m = raw.match(/^_ZN(.*)E$/);
  if (!m) return raw;
  const parts = [];
  let s = m[1];
  while (s.length) {
    const len = s.match(/^\d+/);
    if (!len) break;
    const n = Number(len[0]);
    parts.push(s.slice(len[0].length, len[0].length + n));
    s = s.slice(len[0].length + n);
  }
  if (/^h[0-9a-f]{16}$/.test(parts[parts.length - 1] ?? '')) parts.pop();
  const esc = { SP: '@', BP: '*', RF: '&', LT: '<', GT: '>', LP: '(', RP: ')', C: ',' };
  return parts
    .map((p) => p.replace(/^_\$/, '$').replace(/\$([A-Z]+)\$/g, (x, k) => esc[k] ?? x)
      .replace(/\$u([0-9a-f]+)\$/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\.\./g, '::'))
    .join('::');
}

const functions = bodies.map(([start, size], i) => {
  const n = demangle(names.get(i + importedFunctions) ?? `func[${i + importedFunctions}]`);
  return { name: n, size, start };
});
console.log(`\n${functions.length} functions, ${names.size ? 'named' : 'no name section'}; the ${TOP} largest:`);
for (const f of [...functions].sort((a, b) => b.size - a.size).slice(0, TOP)) {
  console.log(`${kb(f.size)}  ${f.name.slice(0, 150)}`);
}

/** A function's group: its path without generics and hash, cut at DEPTH segments. */
function group(n) {
  let s = n.replace(/::h[0-9a-f]{16}$/, '');
  // `<A as B>::f` and `<impl X>`: take the implementing type's path
  const m = s.match(/^<([^ >]+)(?: as [^>]+)?>/);
  if (m) s = m[1];
  s = s.replace(/^&(mut )?/, '').replace(/<.*$/, '');
  return s.split('::').slice(0, DEPTH).join('::') || n;
}
const groups = new Map();
for (const f of functions) {
  const g = group(f.name);
  const e = groups.get(g) ?? { size: 0, count: 0, parts: [] };
  e.size += f.size;
  e.count++;
  e.parts.push(bytes.subarray(f.start, f.start + f.size));
  groups.set(g, e);
}
console.log(`\ncode by path (depth ${DEPTH}):            raw   gzip alone  functions`);
for (const [g, e] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, TOP)) {
  console.log(`${g.slice(0, 36).padEnd(36)} ${kb(e.size)} ${kb(gz(Buffer.concat(e.parts)))} ${String(e.count).padStart(6)}`);
}

console.log(`\n${segments.length} data segments (largest first):`);
for (const [start, size] of [...segments].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
  console.log(`${kb(size)} ${kb(gz(bytes.subarray(start, start + size)))} gzipped alone`);
}
