// "Check a claim": one claim, its quote and a cited line range of one source
// file (spec 002). Steps 1 and 2 (checkClaim, synchronous) follow every edit;
// step 3 runs when the user asks the jury (verifyClaim: every sitting juror
// at once, each with its timeout), since a host's jurors may be slow or cost
// money. An edit after the jury answered clears its verdict (it was for other
// inputs); a jury still deliberating over old inputs is ignored when it
// answers. Both run in the judge worker (worker-engine.js, issue 19): a
// check in one worker (a newer edit's check replaces one in flight), the
// jury in another (the host's jurors asked of this page, workers.js).
//
// The root carries data-checks (step 1/2 runs), data-jury-runs (finished
// jury runs), data-verdict and data-state (`empty`, `ok`, `error`,
// `deliberating`) for tests.

import { debounce, h, replaceChildren, uniqueId } from '../../dom.js';
import { fileInput, progressRow } from '../../widgets.js';
import { showInputProblem } from './render.js';
import { renderJury, renderLines, renderScore, stepChip, verdictBadge, VERDICT_HELP } from './render.js';
import { claimSamples, minutes } from './samples.js';
import { askHostJuror, errorOf, judgeWorker, lazy } from './workers.js';

const DEBOUNCE_MS = 150;

/** The inputs kept across reloads (mode.js), by field. */
const KEPT = ['fileName', 'source', 'claim', 'quote', 'lines'];

/**
 * @param {() => void} onEdit  called after every change of the inputs (kept across reloads)
 */
export function claimView(jury, ctx, onEdit) {
  const ids = {
    sample: uniqueId('jd-sample'), file: uniqueId('jd-file'), source: uniqueId('jd-source'), claim: uniqueId('jd-claim'),
    quote: uniqueId('jd-quote'), lines: uniqueId('jd-lines'), loadFile: uniqueId('jd-load'), linesHelp: uniqueId('jd-lines-help'),
  };
  let checks = 0;
  let juryRuns = 0;
  let runId = 0;
  let current = null; // the last result shown
  let juryResult = null; // { result, logs } of the current inputs
  const checker = judgeWorker();
  const juryWorker = lazy(judgeWorker);
  /** The check in flight: { key, done } (the same inputs ask for no second one). */
  let pendingCheck = null;

  const sampleSelect = h('select', { id: ids.sample }, claimSamples.map((s, i) => h('option', { value: String(i) }, s.label)));
  const loadSample = h('button', { type: 'button', onclick: () => applySample(Number(sampleSelect.value), true) }, 'Load sample');
  const fileName = h('input', { id: ids.file, type: 'text', class: 'file-name-input', spellcheck: 'false', oninput: () => changed() });
  const source = h('textarea', {
    id: ids.source, class: 'judge-source', rows: 12, spellcheck: 'false', wrap: 'off',
    placeholder: 'Paste the cited file\'s text, or load the file.', oninput: () => changed(),
  });
  const claim = h('textarea', { id: ids.claim, rows: 2, placeholder: 'What the report claims.', oninput: () => changed() });
  const quote = h('textarea', { id: ids.quote, rows: 2, placeholder: 'The quote it uses as evidence.', oninput: () => changed() });
  const lines = h('input', {
    id: ids.lines, type: 'text', class: 'lines-input', spellcheck: 'false', placeholder: 'L11-L12',
    'aria-describedby': ids.linesHelp, oninput: () => changed(),
  });
  /** A file as the source file: its text and its name; steps 1 and 2 run again. */
  const loadSource = async (file) => {
    source.value = await file.text();
    fileName.value = file.name;
    changed(true);
  };
  const loader = fileInput(ids.loadFile, '.txt,.md,.markdown,.html,.htm,.csv,.json,text/*', loadSource);
  const fields = { fileName, source, claim, quote, lines };
  const askButton = h('button', { type: 'button', class: 'ask-jury', onclick: () => askJury() }, 'Ask the jury');

  const inputs = h('div', { class: 'judge-inputs' },
    h('div', { class: 'sample-bar' }, h('label', { for: ids.sample }, 'Sample'), sampleSelect, loadSample),
    h('div', { class: 'field' },
      h('div', { class: 'field-head' },
        h('label', { for: ids.source, class: 'field-label' }, 'Source file'),
        h('span', { class: 'field-tools' }, h('label', { for: ids.file }, 'Name'), fileName, loader.input, loader.label)),
      source),
    h('div', { class: 'field' }, h('label', { for: ids.claim, class: 'field-label' }, 'Claim'), claim),
    h('div', { class: 'field' }, h('label', { for: ids.quote, class: 'field-label' }, 'Quote'), quote),
    h('div', { class: 'field field-inline' },
      h('label', { for: ids.lines, class: 'field-label' }, 'Cited lines'), lines,
      h('span', { id: ids.linesHelp, class: 'help' }, 'L<start>-L<end>, or L<n> for one line')));

  // ---- results ----
  const verdictBox = h('div', { class: 'verdict-box', role: 'status', 'aria-live': 'polite' });
  const problem = h('div', { class: 'problem', role: 'alert', hidden: true });
  const step1 = h('section', { class: 'judge-step step-1', 'aria-label': 'Step 1' });
  const step2 = h('section', { class: 'judge-step step-2', 'aria-label': 'Step 2' });
  const step3 = h('section', { class: 'judge-step step-3', 'aria-label': 'Step 3' });
  const results = h('div', { class: 'judge-results claim-results', dataset: { checks: '0', juryRuns: '0', state: 'empty', verdict: '' } });
  const progress = progressRow(results, 'Jurors who answered', () => {
    if (juryWorker().cancel()) ctx.setStatus('Cancelled: the jury stopped deliberating.');
  });
  results.append(verdictBox, problem, step1, step2, progress.element, step3);

  const schedule = debounce(() => check(), DEBOUNCE_MS);

  function request() {
    return {
      claim: claim.value,
      quote: quote.value,
      filename: fileName.value.trim() || 'source.txt',
      lines: lines.value.trim(),
      source: source.value,
    };
  }

  function applySample(i, ask) {
    const s = claimSamples[i] ?? claimSamples[0];
    sampleSelect.value = String(claimSamples.indexOf(s));
    fileName.value = minutes.name;
    source.value = minutes.text;
    claim.value = s.claim;
    quote.value = s.quote;
    lines.value = s.lines;
    changed(true);
    if (ask) askJury();
  }

  /** Any edit: the jury's verdict was for other inputs. */
  function changed(now = false) {
    runId++;
    juryResult = null;
    onEdit();
    if (now) { schedule.cancel(); check(); } else schedule();
  }

  function setState(state, verdict) {
    results.dataset.state = state;
    results.dataset.verdict = verdict ?? '';
    results.dataset.checks = String(checks);
    results.dataset.juryRuns = String(juryRuns);
  }

  /** Steps 1 and 2 for the current inputs (and the jury's answer when it is theirs), in the worker; resolves once shown. */
  function check() {
    schedule.cancel();
    const r = request();
    if (r.source === '' && r.claim === '' && r.quote === '' && r.lines === '') {
      if (pendingCheck) checker.stop('superseded');
      pendingCheck = null;
      showEmpty();
      return Promise.resolve();
    }
    const { threshold, contextLines } = jury.settings();
    const key = JSON.stringify([r, threshold, contextLines]);
    if (pendingCheck?.key === key) return pendingCheck.done;
    const mine = { key, done: null };
    pendingCheck = mine;
    mine.done = checker.send({ type: 'check', request: r, settings: { threshold, contextLines } }).then((answer) => {
      if (pendingCheck !== mine || answer.type === 'superseded') return;
      pendingCheck = null;
      checks++;
      if (answer.type === 'failed') showProblem(errorOf(answer));
      else show(juryResult?.result ?? answer.result, juryResult?.logs ?? null);
    });
    return mine.done;
  }

  async function askJury() {
    schedule.cancel();
    await check();
    if (results.dataset.state === 'error' || results.dataset.state === 'empty') return;
    const id = ++runId;
    askButton.disabled = true;
    askButton.textContent = 'The jury is deliberating…';
    setState('deliberating', results.dataset.verdict);
    replaceChildren(step3, stepHead('Step 3', 'The jury'), h('p', { class: 'muted' }, 'Asking every juror at once…'));
    const what = (done, total) => `The jury is deliberating: ${done} of ${total} jurors answered…`;
    const answerP = juryWorker().send({ type: 'verify', request: request(), jury: jury.spec('judge-view') }, {
      onAsk: askHostJuror,
      onProgress: (p) => progress.set({ ...p, what }),
    });
    progress.set({ done: 0, total: jury.jurors().length, what });
    const answer = await answerP;
    if (answer.type === 'superseded') return; // a newer ask: it says when it is done
    progress.set(null);
    askButton.disabled = false;
    askButton.textContent = 'Ask the jury';
    if (answer.type === 'cancelled') {
      check(); // steps 1 and 2 again, the jury not asked
      return;
    }
    if (answer.type === 'failed') {
      if (id === runId) showProblem(errorOf(answer));
      return;
    }
    juryRuns++;
    if (id !== runId) {
      check(); // the inputs changed while the jury deliberated: its answer is not theirs
      return;
    }
    const { result, logs } = answer;
    juryResult = { result, logs };
    show(result, logs);
    ctx.setStatus(`Jury: ${result.step_3_semantic?.verdict ?? 'not convened'} (${result.jury.answered} of ${result.jury.jurors.length} answered)`);
  }

  function stepHead(step, title, chip) {
    return h('h3', { class: 'step-title' }, h('span', { class: 'step-no' }, step), ` ${title} `, chip ?? null);
  }

  /** No result: `note` in the verdict box, the steps empty. */
  function showNothing(note, state) {
    current = null;
    replaceChildren(verdictBox, h('p', { class: 'muted' }, note));
    for (const step of [step1, step2, step3]) replaceChildren(step);
    setState(state, null);
  }

  function showEmpty() {
    problem.hidden = true;
    showNothing('Paste a source file, a claim, its quote and the cited lines, or load a sample.', 'empty');
  }

  function showProblem(e) {
    showInputProblem(problem, e, 'the check runs again as you type');
    showNothing('Not checked: fix the problem below.', 'error');
  }

  function show(result, logs) {
    current = result;
    problem.hidden = true;
    const { contextLines } = jury.settings();
    replaceChildren(verdictBox,
      h('div', { class: 'verdict-line' }, h('span', { class: 'verdict-label' }, 'Verdict'), verdictBadge(result.verdict, 'final-verdict'),
        result.verified ? h('span', { class: 'verified' }, 'verified') : null),
      h('p', { class: 'verdict-help' }, VERDICT_HELP[result.verdict] ?? ''));

    // step 1
    const range = result.cited_lines;
    replaceChildren(step1, stepHead('Step 1', 'The cited lines exist', stepChip(result.step_1_existence)),
      result.step_1_existence
        ? [h('p', { class: 'step-note' }, `${range} of ${result.filename} (${result.context.line_count} lines), with ${contextLines} lines of context each side.`),
          renderLines(result, contextLines, `${range} of ${result.filename} with context`)]
        : h('p', { class: 'step-error' }, result.error ?? 'The cited lines are not in the file.'));

    // step 2
    replaceChildren(step2, stepHead('Step 2', 'The quote is in the cited text',
      result.step_1_existence ? stepChip(result.step_2_quote_match) : stepChip(false, { skipped: 'not run' })),
    result.step_1_existence
      ? [renderScore(result),
        h('p', { class: 'help' }, 'Score: the longest block the quote shares with the lines before and the cited lines, over the quote\'s length, ',
          'after lowercasing, collapsing whitespace and removing [L123] tags (CPython difflib, bit for bit).')]
      : h('p', { class: 'muted' }, 'Not run: step 1 failed.'));

    // step 3
    const head = stepHead('Step 3', 'The jury', result.jury.convened
      ? verdictBadge(result.step_3_semantic?.verdict ?? null, 'step-verdict')
      : stepChip(false, { skipped: 'not asked' }));
    if (!result.step_1_existence) {
      replaceChildren(step3, head, h('p', { class: 'muted' }, 'Not run: the jury needs the cited lines.'));
    } else if (!result.jury.convened) {
      replaceChildren(step3, head, h('p', { class: 'muted' },
        jury.jurors().length ? 'Press "Ask the jury" to put the claim to every ticked juror.' : 'No juror is ticked: tick one in the jury panel, then ask.'));
    } else {
      replaceChildren(step3, head, renderJury(result, logs ?? []));
    }
    setState('ok', result.verdict);
  }

  showEmpty();
  return {
    inputs,
    actions: h('div', { class: 'judge-actions' }, askButton),
    results,
    refresh: () => changed(true),
    loadSample: (i) => applySample(i, true),
    /** Dropped files: the first is the source file. */
    dropFiles: (files) => loadSource(files[0]),
    /** The inputs, for storage.js. */
    saved: () => Object.fromEntries(KEPT.map((k) => [k, fields[k].value])),
    /** Puts kept inputs back and runs steps 1 and 2 (the jury is asked only when the user asks). */
    restore(work) {
      for (const k of KEPT) fields[k].value = typeof work?.[k] === 'string' ? work[k] : '';
      changed(true);
    },
    clear() {
      for (const k of KEPT) fields[k].value = '';
      changed(true);
    },
    get result() { return current; },
  };
}
