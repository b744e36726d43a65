// The judge mode's side of its Web Worker (worker.js, worker-engine.js), on
// the modes' shared client (../../worker-client.js): each view keeps its
// own workers (the claim view: its checks and its jury; the report view:
// its citation count and its runs), so that a check typed while the jury
// deliberates does not end the jury's run.

import { libraryWorker } from '../../worker-client.js';
import { hostJudges } from './registry.js';

/** A new judge worker (made when first needed: see `lazy`). */
export const judgeWorker = () => libraryWorker(() => new Worker(new URL('./worker.js', import.meta.url), { name: 'evidence-validator-judge' }));

/** `make()` once, when first asked for. */
export function lazy(make) {
  let made = null;
  return () => (made ??= make());
}

/**
 * A host juror's turn, asked by the worker (worker-engine.js): the host's
 * function runs here, on the page that registered it.
 */
export function askHostJuror({ judge, prompt, context }) {
  const juror = hostJudges().find((j) => j.name === judge);
  if (!juror) throw new Error(`the host judge "${judge}" is no longer registered`);
  return juror.ask(prompt, context);
}

/** The library's error of a worker's `failed` answer (or the page's, when it is not the library's), for render.js showInputProblem. */
export const errorOf = (answer) => answer.error ?? { name: 'Error', code: answer.code ?? 'INTERNAL', message: answer.message, details: null };
