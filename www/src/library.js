// The library on the page: the package's `web` build, its wasm compiled once
// here (WebAssembly.compileStreaming) and instantiated for the main thread.
// The compiled `wasmModule` is posted to every mode's worker
// (worker-client.js), which instantiates it without fetching or compiling
// again (issue 19), also after a Cancel replaces the worker. Modes import the library from this file,
// never from the package, so that nothing calls it before the instance
// exists (the top-level await below).

import init from 'evidence-validator/web';

export * from 'evidence-validator/web';

/** The package's `.wasm` (its `evidence-validator/web/wasm` export), emitted by webpack as a file. */
const wasmUrl = new URL('evidence-validator/web/wasm', import.meta.url);

/** The package's wasm, compiled while it downloads. */
async function compile() {
  try {
    return await WebAssembly.compileStreaming(fetch(wasmUrl));
  } catch (e) {
    // a server that does not send .wasm as application/wasm: compile the bytes
    if (!(e instanceof TypeError)) throw e;
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`the library (${wasmUrl}) could not be loaded: HTTP ${response.status}; reload the page`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

/** The compiled library, for workers (`initSync({ module: wasmModule })`). */
export const wasmModule = await compile();
await init({ module_or_path: wasmModule });
