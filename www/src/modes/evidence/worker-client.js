// The main thread's side of the evidence worker (worker.js), on the modes'
// shared client (../../worker-client.js: one run at a time; a new run
// supersedes the one in flight, and Cancel stops at once, both by replacing
// the worker, which builds its Document again on its next run). This file
// adds what is the evidence mode's own: the source and claims texts are
// each sent once per worker, and as their file when they came from one.

import { libraryWorker } from '../../worker-client.js';

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
  /** The source and claims texts the current worker holds (its last run's), or null: a run with the same text sends none. */
  let held = { source: null, claims: null };
  const worker = libraryWorker(() => new Worker(new URL('./worker.js', import.meta.url), { name: 'evidence-validator' }), {
    onStart: () => { held = { source: null, claims: null }; },
  });
  const send = (message, onProgress) => worker.send(message, { onProgress });

  return {
    run({ source, sourceFile = null, claims, claimsFile = null, ...payload }, onProgress) {
      // a megabyte cloned into the message is a long task of the page's: each text sent once per worker, and as its file when it has one
      worker.stop('superseded'); // a busy worker is replaced first: the new one holds no text
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
    cancel: () => worker.cancel(),
    get busy() { return worker.busy; },
  };
}
