// The evidence mode's Web Worker entry. The page compiles the library's wasm
// once (www/src/library.js) and posts the compiled module first
// (`{ type: 'init', module }`, worker-client.js): the worker instantiates it
// without fetching or compiling again. Messages are handled in the order
// they came, so every run finds the library ready (a run that reads its
// source from a file awaits it; the page sends nothing more meanwhile: a new
// request replaces this worker, worker-client.js).

import { initSync } from 'evidence-validator/web';
import { handle } from './worker-engine.js';

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'init') initSync({ module: data.module });
    else await handle(data);
  } catch (e) {
    // not the library's typed error (those are answered by the engine): the page says so
    postMessage({ type: 'failed', runId: data.runId, where: 'Page', code: 'INTERNAL', message: String(e?.message ?? e), path: null });
  }
};
