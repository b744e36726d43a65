// The main thread's side of a mode's Web Worker (worker-host.js is the
// worker's): one request at a time; a new one supersedes the one in flight,
// and Cancel stops at once. Both terminate the busy worker (a wasm call
// cannot be interrupted any other way) and start a fresh one, which rebuilds
// what it held on its next request. Each worker gets the page's compiled
// library first (library.js): none fetches or compiles the wasm again.
//
// While a request runs, the worker may ask the page for a host callback (a
// registered juror, an LLM endpoint: worker-host.js `askPage`): `onAsk`
// answers it, and its answer (or error) goes back to that worker only if it
// still runs.

import { wasmModule } from './library.js';

/**
 * @param {() => Worker} create  makes the mode's worker (`new Worker(new URL('./worker.js', import.meta.url))`,
 *   written in the mode's own file, where webpack finds it)
 * @param {{ onStart?: () => void }} options  `onStart`: called for every new worker (what it holds is gone)
 * @returns {{
 *   send(message: object, handlers?: { onProgress?: (msg: object) => void, onAsk?: (request: object) => unknown }): Promise<object>,
 *   cancel(): boolean,
 *   stop(type: string): boolean,
 *   readonly busy: boolean,
 * }}
 *   `send` resolves with the worker's answer (any message but `progress`
 *   and `ask`), or `{ type: 'cancelled' }` / `{ type: 'superseded' }`;
 *   `cancel()` says whether a request was stopped.
 */
export function libraryWorker(create, { onStart = () => {} } = {}) {
  let worker = null;
  let nextId = 0;
  /** The request in flight: { runId, resolve, onProgress, onAsk }. */
  let inFlight = null;

  function start() {
    onStart();
    const w = create();
    worker = w;
    w.postMessage({ type: 'init', module: wasmModule });
    w.onmessage = ({ data }) => {
      if (!inFlight || data.runId !== inFlight.runId) return;
      if (data.type === 'progress') {
        inFlight.onProgress(data);
        return;
      }
      if (data.type === 'ask') {
        answer(w, data, inFlight.onAsk);
        return;
      }
      const { resolve } = inFlight;
      inFlight = null;
      resolve(data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      const pending = inFlight;
      inFlight = null;
      restart();
      pending?.resolve({ type: 'failed', where: 'Page', code: 'INTERNAL', message: e.message || 'the worker stopped', path: null });
    };
  }

  /** Runs the page's callback for the worker's question `askId`, and answers `w` if it still runs. */
  async function answer(w, { askId, request }, onAsk) {
    let reply;
    try {
      reply = { type: 'answer', askId, value: await onAsk(request) };
    } catch (e) {
      reply = { type: 'answer', askId, error: { name: String(e?.name ?? 'Error'), message: String(e?.message ?? e) } };
    }
    if (w === worker) w.postMessage(reply);
  }

  function restart() {
    worker?.terminate();
    start();
  }

  /** Stops what is in flight (resolving it with `{ type }`), restarting the worker. */
  function stop(type) {
    if (!inFlight) return false;
    const { resolve } = inFlight;
    inFlight = null;
    restart();
    resolve({ type });
    return true;
  }

  function send(message, { onProgress = () => {}, onAsk = () => { throw new Error('this page answers no question'); } } = {}) {
    stop('superseded');
    const runId = ++nextId;
    return new Promise((resolve) => {
      inFlight = { runId, resolve, onProgress, onAsk };
      worker.postMessage({ ...message, runId });
    });
  }

  start();
  return { send, stop, cancel: () => stop('cancelled'), get busy() { return inFlight !== null; } };
}
