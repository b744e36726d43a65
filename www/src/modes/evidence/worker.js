// The evidence mode's Web Worker entry. The library (its wasm) loads
// asynchronously; a message that arrived before a handler existed would be
// lost, so the handler is installed first and waits for the engine
// (worker-engine.js). Messages are handled in the order they came.

const engine = import(/* webpackChunkName: "evidence-worker-engine" */ './worker-engine.js');

self.onmessage = async ({ data }) => {
  try {
    (await engine).handle(data);
  } catch (e) {
    // not the library's typed error (those are answered by the engine): the page says so
    postMessage({ type: 'failed', runId: data.runId, where: 'Page', code: 'INTERNAL', message: String(e?.message ?? e), path: null });
  }
};
