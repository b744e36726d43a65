// The closed-loop HTTP clients of scripts/bench-edge.mjs, shared by its main
// thread (the small requests' clients) and the worker thread that sends the
// heavy stream beside them (scripts/bench-edge.mjs runs this file as that
// thread): a heavy answer is 1.2 MB of JSON, and reading and checking it on
// the small clients' thread would hold their event loop, so their timings
// would include the client's own work.

import { parentPort, workerData, isMainThread } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

/** A request's longest wait for its whole answer. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * POSTs `load.body` to `url` and checks the answer: status 200 and the
 * expected `load.hash` as its `contentHash`, or, for a load with
 * `refusedAs: {status, code}`, that status and error code. Returns {ms,
 * error, reset}: `ms` null when no answer came (a connection reset by the
 * local runtime under load: counted in `reset`, not timed), `error` a
 * description when the answer was wrong.
 */
export async function send(url, load) {
  const t = performance.now();
  let res, text;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: load.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    text = await res.text();
  } catch (e) {
    return { ms: null, error: null, reset: `${load.name}: ${e.cause?.code ?? e.message}` };
  }
  const ms = performance.now() - t;
  let answer = null;
  try {
    answer = JSON.parse(text);
  } catch {}
  const { status, code } = load.refusedAs ?? { status: 200, code: undefined };
  const got = status === 200 ? answer?.generated?.contentHash : answer?.error?.code;
  const expected = status === 200 ? load.hash : code;
  const error = res.status !== status || got !== expected
    ? `${load.name}: status ${res.status} (expected ${status}), ${got} (expected ${expected}): ${text.slice(0, 200)}`
    : null;
  return { ms, error, reset: null };
}

/**
 * `clients` closed loops of `load` until `until()` or `maxRequests` are
 * started. Returns {latencies (ms), errors, resets}.
 */
export async function loop(url, load, clients, until, maxRequests) {
  const latencies = [];
  const errors = [];
  const resets = [];
  let started = 0;
  const client = async () => {
    while (!until() && started < maxRequests) {
      started++;
      const r = await send(url, load);
      if (r.ms !== null) latencies.push(r.ms);
      if (r.error !== null) errors.push(r.error);
      if (r.reset !== null) resets.push(r.reset);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { latencies, errors, resets };
}

// As the heavy stream's thread: {url, load} starts one client of `load`
// to url, {stop: true} stops it after its request in flight and posts the
// loop's result back.
if (!isMainThread && workerData?.role === 'heavy-stream') {
  let stop = false;
  parentPort.on('message', async (msg) => {
    if (msg.stop) {
      stop = true;
      return;
    }
    stop = false;
    const result = await loop(msg.url, msg.load, 1, () => stop, Infinity);
    parentPort.postMessage(result);
  });
}
