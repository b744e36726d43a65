// The cite mode's Web Worker (issue 19, spec 004), loaded by worker.js: it
// reads the boxes (the sources' and claims' JSON, the outline) and runs the
// citation pipeline (`citeStream`) off the main thread, so that many
// sources and a long answer never freeze the page; each claim produced and
// each verdict is posted as it comes (the page lists them: the progress),
// and Stop ends the run at once (the page terminates this worker,
// ../../worker-client.js).
//
// The host's LLM callbacks: the offline demo host (demo.js: pure rules
// shipped with the page) runs here, beside the pipeline. An
// OpenAI-compatible URL is asked by the page (worker-host.js `askPage`): the
// request goes out under the page's Content-Security-Policy (its
// connect-src), as it did before the pipeline moved here, and Stop aborts
// the page's fetch in flight.
//
// Messages in:  { type: 'run', runId, query, sources, outline, claims, host }
//                 (the boxes' texts; `host`: 'demo' or 'url')
// Messages out: { type: 'progress', runId, event }  (citeStream's `claim`
//                 and `verified` events: { event, index, text } /
//                 { event, index, verdict })
//               { type: 'done', runId, report, sources }  (`sources`: the
//                 parsed sources, which the page highlights)
//               { type: 'failed', runId, where, message, code, hint }
//                 (`where`: a box whose text is not JSON, with `hint`; or
//                 null: the library's or the host's error, `code` when it
//                 has one)
//               { type: 'ask', runId, askId, request: { role, request } }
//                 (an LLM request for the page's URL host: `role` is
//                 generate, verify or qa)

import { citeStream } from 'evidence-validator/web';
import { askPage } from '../../worker-host.js';
import { demoHost } from './demo.js';

/** `text` as JSON, or throws an error saying which box and what to do. */
function parseBox(name, text, shape) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw Object.assign(new Error(e.message), { where: name, hint: `Fix the ${name} box: ${shape}, then run again` });
  }
}

/** The URL host, asked of the page: each request as plain data (its `signal` is the page's own). */
function pageHost(runId) {
  const ask = (role) => (request) => {
    const { signal, ...rest } = request;
    return askPage(runId, { role, request: JSON.parse(JSON.stringify(rest)) });
  };
  return { generate: ask('generate'), verify: ask('verify'), qa: ask('qa') };
}

async function run({ runId, query, sources, outline, claims, host }) {
  let input;
  try {
    input = {
      query,
      sources: parseBox('Sources', sources, 'JSON, a list of {"id", "title", "content"}'),
      claims: claims.trim() ? parseBox('Claims', claims, 'JSON, a list of {"text", "citations"}, or empty') : [],
      outline: outline.split('\n').map((s) => s.trim()).filter(Boolean),
    };
  } catch (e) {
    postMessage({ type: 'failed', runId, where: e.where, message: `Not JSON (${e.message})`, code: null, hint: e.hint });
    return;
  }
  let report = null;
  try {
    for await (const e of citeStream(input, null, host === 'demo' ? demoHost() : pageHost(runId))) {
      if (e.event === 'claim') postMessage({ type: 'progress', runId, event: { event: e.event, index: e.index, text: e.text } });
      else if (e.event === 'verified') postMessage({ type: 'progress', runId, event: { event: e.event, index: e.index, verdict: e.verdict } });
      else report = e.report;
    }
  } catch (e) {
    postMessage({ type: 'failed', runId, where: null, message: e?.message ?? String(e), code: typeof e?.code === 'string' ? e.code : null, hint: null });
    return;
  }
  postMessage({ type: 'done', runId, report, sources: input.sources });
}

/** Handles one message from the page. */
export async function handle(data) {
  if (data.type === 'run') await run(data);
}
