// The evidence mode's Web Worker entry. The page compiles the library's wasm
// once (www/src/library.js) and posts the compiled module first
// (`{ type: 'init', module }`, worker-client.js): the worker instantiates it
// without fetching or compiling again. Messages are handled in the order
// they came, so every run finds the library ready.

import { initSync } from 'evidence-validator/web';
import { handle } from './worker-engine.js';

self.onmessage = ({ data }) => {
  try {
    if (data.type === 'init') initSync({ module: data.module });
    else handle(data);
  } catch (e) {
    // not the library's typed error (those are answered by the engine): the page says so
    postMessage({ type: 'failed', runId: data.runId, where: 'Page', code: 'INTERNAL', message: String(e?.message ?? e), path: null });
  }
};
