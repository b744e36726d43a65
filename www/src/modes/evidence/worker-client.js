// The main thread's side of the evidence worker (worker.js): one run at a
// time; a new run supersedes the one in flight, and Cancel stops at once.
// Both terminate the busy worker (a wasm call cannot be interrupted any other
// way) and start a fresh one, which builds its Document again on its next run.
// Each worker gets the page's compiled library first (library.js): none
// fetches or compiles the wasm again.

import { wasmModule } from '../../library.js';

/**
 * @returns {{
 *   run(payload: { source: string, sourceFile?: Blob|null, claims: string, claimsFile?: Blob|null, format: string,
 *     config: object, known: number|null }, onProgress: (msg: object) => void): Promise<object>,
 *   report(known: number): Promise<object>,
 *   reanchor(source: string, format: string|null, annotations: object[]): Promise<object>,
 *   cancel(): boolean,
 *   readonly busy: boolean,
 * }}
 *   `run` resolves with the worker's `done`, `empty`, `unreadable` or
 *   `failed` message, or `{ type: 'cancelled' }` / `{ type: 'superseded' }`;
 *   `cancel()` says whether a run was stopped. `run`'s `source` and `claims`
 *   are the two boxes' texts, parsed in the worker (worker-engine.js);
 *   `sourceFile`, `claimsFile`: the Blob a text was read from (the worker
 *   reads it itself). A text the worker holds already is not sent again.
 *   `report(known)`: the library's report for the claims of run `known`.
 */
export function evidenceWorker() {
  let worker = null;
  let nextId = 0;
  /** The run or report in flight: { runId, resolve, onProgress }. */
  let inFlight = null;
  /** The source and claims texts the current worker holds (its last run's), or null: a run with the same text sends none. */
  let held = { source: null, claims: null };

  function start() {
    held = { source: null, claims: null };
    worker = new Worker(new URL('./worker.js', import.meta.url), { name: 'evidence-validator' });
    worker.postMessage({ type: 'init', module: wasmModule });
    worker.onmessage = ({ data }) => {
      if (!inFlight || data.runId !== inFlight.runId) return;
      if (data.type === 'progress') {
        inFlight.onProgress(data);
        return;
      }
      const { resolve } = inFlight;
      inFlight = null;
      resolve(data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const pending = inFlight;
      inFlight = null;
      restart();
      pending?.resolve({ type: 'failed', where: 'Page', code: 'INTERNAL', message: e.message || 'the validation worker stopped', path: null });
    };
  }

  function restart() {
    worker?.terminate();
    start();
  }

  /** Stops what is in flight (resolving it with `type`), restarting the worker. */
  function stop(type) {
    if (!inFlight) return false;
    const { resolve } = inFlight;
    inFlight = null;
    restart();
    resolve({ type });
    return true;
  }

  function send(message, onProgress = () => {}) {
    stop('superseded');
    const runId = ++nextId;
    return new Promise((resolve) => {
      inFlight = { runId, resolve, onProgress };
      worker.postMessage({ ...message, runId });
    });
  }

  start();
  return {
    run({ source, sourceFile = null, claims, claimsFile = null, ...payload }, onProgress) {
      // a megabyte cloned into the message is a long task of the page's: each text sent once per worker, and as its file when it has one
      stop('superseded'); // a busy worker is replaced first: the new one holds no text
      const answer = send({
        type: 'run', ...payload,
        source: source === held.source ? null : sourceFile ?? source,
        claims: claims === held.claims ? null : claimsFile ?? claims,
      }, onProgress);
      held = { source, claims };
      return answer;
    },
    report: (known) => send({ type: 'report', known }),
    reanchor: (source, format, annotations) => send({ type: 'reanchor', source, format, annotations }),
    cancel: () => stop('cancelled'),
    get busy() { return inFlight !== null; },
  };
}
