// What the Node benchmarks (bench-node.mjs, bench-scaling.mjs) share: their
// command-line options and loading the package with its wasm memory in sight.

import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);

/** Whether the flag `name` is on the command line. */
export const flag = (name) => args.includes(name);

/** The value after `name` on the command line (a string), or `fallback`. */
export function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

/** `option` as a number; a value that is not one stops the run. */
export function numberOption(name, fallback) {
  const value = option(name, null);
  if (value === null) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) {
    console.error(`${name} takes a number, not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return n;
}

/**
 * Imports the package at `entry` (an index.mjs) and returns its exports and
 * a function giving the size of its wasm linear memory in bytes.
 */
export async function importWithMemory(entry) {
  const instances = [];
  const Original = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Original, {
    construct(target, argv, newTarget) {
      const instance = Reflect.construct(target, argv, newTarget);
      instances.push(instance);
      return instance;
    },
  });
  let lib;
  try {
    lib = await import(pathToFileURL(entry).href);
  } finally {
    WebAssembly.Instance = Original;
  }
  const memory = instances.map((i) => i.exports.memory).find((m) => m instanceof WebAssembly.Memory);
  return { lib, linearMemory: () => (memory ? memory.buffer.byteLength : NaN) };
}
