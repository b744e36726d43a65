// The worker side of the modes' Web Workers (issue 19): each mode's worker
// entry (`modes/<mode>/worker.js`) is `serve(handle)` with its engine. The
// page compiles the library's wasm once (library.js) and posts the compiled
// module first (`{ type: 'init', module }`, worker-client.js): the worker
// instantiates it without fetching or compiling again. The page sends one
// request at a time (a new one replaces a busy worker, worker-client.js);
// while it runs, the only messages that come are the answers to the
// worker's own questions (`askPage`).
//
// A host's callbacks (the judge mode's registered jurors, the cite mode's
// OpenAI-compatible URL) are the page's: functions registered on its
// `window`, or requests under its Content-Security-Policy. They cannot be
// cloned into a worker, so they stay on the page: the engine calls
// `askPage(runId, request)`, the page runs the callback and answers
// (worker-client.js `onAsk`). Pure rules shipped with the page (the demo
// jurors and host) run here, in the worker.

import { initSync } from 'evidence-validator/web';

/** The questions asked of the page and not answered yet: askId → { resolve, reject }. */
const asks = new Map();
let nextAsk = 0;

/** Installs the worker's message handler: `handle(data)` for every request of the page. */
export function serve(handle) {
  self.onmessage = async ({ data }) => {
    if (data.type === 'answer') {
      const ask = asks.get(data.askId);
      asks.delete(data.askId);
      if (!ask) return;
      if (data.error === undefined) ask.resolve(data.value);
      else ask.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
      return;
    }
    try {
      if (data.type === 'init') initSync({ module: data.module });
      else await handle(data);
    } catch (e) {
      // not the library's typed error (those are answered by the engine): the page says so
      postMessage({ type: 'failed', runId: data.runId, where: 'Page', code: 'INTERNAL', message: String(e?.message ?? e), path: null });
    }
  };
}

/**
 * Asks the page to run one of the host's callbacks for run `runId`
 * (`request` must be structured-cloneable); resolves with its answer, or
 * rejects with its error (its name and message: a failed vote's reason).
 */
export function askPage(runId, request) {
  return new Promise((resolve, reject) => {
    const askId = ++nextAsk;
    asks.set(askId, { resolve, reject });
    postMessage({ type: 'ask', runId, askId, request });
  });
}
