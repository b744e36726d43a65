// The judge mode's Web Worker (issue 19, specs 002/003), loaded by
// worker.js: steps 1 and 2 of a claim (`checkClaim`), the jury
// (`verifyClaim`), a report's citations (`parseCitations`) and their
// verification (`verifyReport`) run here, off the main thread, so that a
// large source file or a long report with many sources never freezes the
// page; a report's run shows its progress (the citations the jury has sat
// on, from the library's log) and Cancel stops it at once (the page
// terminates this worker, ../../worker-client.js).
//
// The jurors: the demo jurors (demo.js: pure rules shipped with the page,
// scoring with the library's `quoteScore`) run here. A host's jurors are
// functions the host page registered on its `window` (registry.js): they
// cannot be cloned into a worker and may use the page's state and its
// Content-Security-Policy, so they stay on the page, asked through
// `askPage` (the page runs the function, worker-client.js `onAsk`); the
// library's juror timeout still applies here, to the asking.
//
// Messages in:  { type: 'check', runId, request, settings }  (settings: { threshold, contextLines })
//               { type: 'verify', runId, request, jury }
//               { type: 'count', runId, markdown }
//               { type: 'report', runId, markdown, sources, jury }
//                 (`jury`: { threshold, contextLines, timeoutMs, reportName,
//                 demo: names of the demo jurors sitting, host: [{ name,
//                 timeoutMs? }] of the host's })
// Messages out: { type: 'checked', runId, result }
//               { type: 'verified', runId, result, logs }
//               { type: 'counted', runId, count }  (null: not readable)
//               { type: 'progress', runId, done, total }  (a claim's
//                 jurors who answered (a log entry each), of the jurors; a
//                 report's citations the jury has sat on, of its citations)
//               { type: 'reported', runId, report, logs }
//               { type: 'failed', runId, error: { name, code, message, details } }
//                 (the library's error)
//               { type: 'ask', runId, askId, request: { judge, prompt, context } }
//                 (a host juror's turn: the page asks it)

import { checkClaim, parseCitations, quoteScore, verifyClaim, verifyReport } from 'evidence-validator/web';
import { askPage } from '../../worker-host.js';
import { demoJury } from './demo.js';

/** How often (at most) a long run posts its progress. */
const PROGRESS_INTERVAL_MS = 100;

/** The options of verifyClaim/verifyReport for `jury`, the host's jurors asked of the page for run `runId`. */
function optionsOf(runId, jury, log) {
  const judges = [
    ...demoJury({ threshold: jury.threshold, quoteScore, only: jury.demo }),
    ...jury.host.map(({ name, timeoutMs }) => ({
      name,
      ask: (prompt, context) => askPage(runId, { judge: name, prompt, context: { judge: context?.judge ?? name, system: context?.system ?? '' } }),
      ...(timeoutMs ? { timeoutMs } : {}),
    })),
  ];
  return {
    threshold: jury.threshold, contextLines: jury.contextLines, timeoutMs: jury.timeoutMs, reportName: jury.reportName, log,
    ...(judges.length ? { judges } : {}),
  };
}

/** Posts `fn()`'s answer, or the library's error; any other error is the page's (worker-host.js). */
async function answer(runId, fn) {
  let message;
  try {
    message = await fn();
  } catch (e) {
    if (e?.name !== 'EvidenceValidatorError') throw e;
    message = { type: 'failed', error: { name: e.name, code: e.code, message: e.message, details: e.details ?? null } };
  }
  postMessage({ ...message, runId });
}

/** Handles one message from the page. */
export async function handle(data) {
  const { runId } = data;
  if (data.type === 'check') {
    await answer(runId, () => ({ type: 'checked', result: checkClaim(data.request, data.settings) }));
  } else if (data.type === 'verify') {
    const logs = [];
    const total = data.jury.demo.length + data.jury.host.length;
    const log = (e) => {
      logs.push(e);
      postMessage({ type: 'progress', runId, done: logs.length, total });
    };
    await answer(runId, async () => {
      const result = await verifyClaim(data.request, optionsOf(runId, data.jury, log));
      return { type: 'verified', result, logs };
    });
  } else if (data.type === 'count') {
    let count;
    try {
      count = parseCitations(data.markdown).length;
    } catch {
      count = null;
    }
    postMessage({ type: 'counted', runId, count });
  } else if (data.type === 'report') {
    const logs = [];
    let total = 0;
    try {
      total = parseCitations(data.markdown).length;
    } catch {
      // verifyReport says what is wrong
    }
    let sat = 0;
    let lastPost = 0;
    const log = (e) => {
      logs.push(e);
      if (e.number > sat) sat = e.number;
      if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) {
        postMessage({ type: 'progress', runId, done: sat, total });
        lastPost = performance.now();
      }
    };
    postMessage({ type: 'progress', runId, done: 0, total });
    await answer(runId, async () => {
      const report = await verifyReport(data.markdown, data.sources, optionsOf(runId, data.jury, log));
      return { type: 'reported', report, logs };
    });
  }
}
