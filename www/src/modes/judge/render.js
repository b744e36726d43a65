// Rendering of judge results (spec 002), shared by the claim and report
// views: the verdict, step 1 (the cited lines with their context and line
// numbers), step 2 (the score against the threshold) and step 3 (each juror's
// vote, the consensus, the prompt/response log). Text always as text nodes.

import { h } from '../../dom.js';
import { showProblem } from '../../widgets.js';
import { DEMO_LABEL } from './demo.js';

/** The page's label of each field a judge error names (`request.lines`, `$.threshold`, …). */
const FIELD_LABELS = {
  claim: 'Claim', quote: 'Quote', lines: 'Cited lines', start_line: 'Cited lines', end_line: 'Cited lines',
  filename: 'Name', source: 'Source file', markdown: 'Report', sources: 'Sources',
  threshold: 'Step 2 threshold', contextLines: 'Context lines', timeoutMs: 'Juror timeout',
};

/**
 * A library error of the claim or report view in `problem`: where it is (the
 * input or the jury panel), its code once, its message, and what to do
 * (`again`: how the check runs again once it is fixed).
 */
export function showInputProblem(problem, e, again) {
  const named = /(?:request|\$)\.(\w+)/.exec(e.message)?.[1];
  const label = FIELD_LABELS[named];
  if (e.code === 'CONFIGURATION_ERROR') {
    showProblem(problem, 'Jury settings', e.message, e.code,
      `Change ${label ? `"${label}"` : 'the highlighted setting'} in the jury panel, or clear it for the default; ${again}.`);
  } else {
    showProblem(problem, 'Input', e.message, e.code, `Fix ${label ? `"${label}"` : 'the inputs'} above; ${again}.`);
  }
}

/** What each final verdict means, in one sentence. */
export const VERDICT_HELP = {
  VALID: 'The quote is in the cited lines and the jury agrees they support the claim.',
  MISLEADING: 'The quote exists, but its context changes its meaning.',
  INSUFFICIENT: 'The quote is too short or too generic to support the claim.',
  UNSUPPORTED: 'The quote does not support the claim.',
  HUNG_JURY: 'The jurors disagreed: no verdict has more votes than every other.',
  LLM_ERROR: 'No juror gave a readable answer (each failed, timed out or answered garbage).',
  QUOTE_NOT_FOUND: 'The quote is not in the cited lines (step 2 failed). The jury was still asked, for the log.',
  FILE_NOT_FOUND: 'The cited file is not among the sources.',
  LINES_OUT_OF_RANGE: 'The cited lines are outside the file.',
  JURY_NOT_CONVENED: 'Steps 1 and 2 pass; no juror has been asked.',
};

/** `ok`, `warn`, `bad` or `neutral`: the colour of a verdict. */
export function verdictTone(verdict) {
  if (verdict === 'VALID') return 'ok';
  if (verdict === 'INSUFFICIENT' || verdict === 'HUNG_JURY') return 'warn';
  if (verdict === 'JURY_NOT_CONVENED' || verdict === null || verdict === undefined) return 'neutral';
  return 'bad';
}

export function verdictBadge(verdict, extraClass = '') {
  return h('span', { class: `verdict-badge tone-${verdictTone(verdict)} ${extraClass}`.trim(), dataset: { verdict: verdict ?? '' } },
    (verdict ?? '—').replaceAll('_', ' '));
}

/** A pass/fail chip for a step. */
export function stepChip(passed, { pass = 'pass', fail = 'fail', skipped = null } = {}) {
  if (skipped) return h('span', { class: 'step-chip tone-neutral' }, skipped);
  return h('span', { class: `step-chip tone-${passed ? 'ok' : 'bad'}` }, passed ? `✓ ${pass}` : `✗ ${fail}`);
}

/** `L6-L7` or `L6` → [6, 7]; null when unreadable. */
export function parseLineRange(text) {
  const m = /^\s*L(\d+)(?:\s*-\s*L?(\d+))?\s*$/i.exec(text ?? '');
  if (!m) return null;
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  return [a, b];
}

/**
 * The rows of step 1: `{ number, text, cited }` from the result's context.
 * The API gives the context as text; the line counts follow from the range,
 * the context size and the file's line count.
 */
export function contextRows(result, contextLines) {
  const c = result.context;
  const range = parseLineRange(result.cited_lines);
  if (!c || !range) return [];
  const [start, end] = range;
  const split = (text, n) => (n <= 0 ? [] : text.split('\n'));
  const nBefore = Math.min(contextLines, start - 1);
  const nAfter = Math.min(contextLines, c.line_count - end);
  const before = split(c.context_before, nBefore);
  const cited = c.cited_text.split('\n');
  const after = split(c.context_after, nAfter);
  const first = start - before.length;
  return [
    ...before.map((text, i) => ({ number: first + i, text, cited: false })),
    ...cited.map((text, i) => ({ number: start + i, text, cited: true })),
    ...after.map((text, i) => ({ number: start + cited.length + i, text, cited: false })),
  ];
}

/** Step 1's lines: numbers, text, the cited ones highlighted. */
export function renderLines(result, contextLines, caption) {
  const rows = contextRows(result, contextLines);
  return h('div', { class: 'cited-lines-wrap' },
    h('table', { class: 'cited-lines' },
      caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
      h('thead', { class: 'visually-hidden' }, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Cited'), h('th', { scope: 'col' }, 'Text'))),
      h('tbody', {}, rows.map((r) => h('tr', { class: r.cited ? 'is-cited' : 'is-context', dataset: { line: String(r.number) } },
        h('th', { scope: 'row', class: 'line-no' }, String(r.number)),
        h('td', { class: 'line-flag' }, r.cited ? h('span', { class: 'cited-flag' }, 'cited') : ''),
        h('td', { class: 'line-text' }, r.text === '' ? '\u200b' : r.text))))));
}

/** One change a quote makes to the cited text, for a reader. */
export function quoteChangeText(c) {
  const what = c.quote === '' ? `leaves out “${c.source}” (line ${c.line})`
    : c.source === '' ? `adds “${c.quote}” (line ${c.line})`
      : `says “${c.quote}” where line ${c.line} says “${c.source}”`;
  return `The quote ${what}: ${c.change}.`;
}

/** Step 2: the score against the threshold. */
export function renderScore(result) {
  const score = result.quote_score;
  const t = result.threshold;
  const pass = result.step_2_quote_match;
  const pct = (x) => `${Math.max(0, Math.min(100, x * 100)).toFixed(1)}%`;
  // Positions through the CSSOM: the page's CSP refuses style attributes.
  const fill = h('div', { class: `score-fill tone-${pass ? 'ok' : 'bad'}` });
  fill.style.width = pct(score);
  const mark = h('div', { class: 'score-threshold', title: `threshold ${t}` });
  mark.style.left = pct(t);
  // a score at the threshold that still fails: the quote bends the text
  const changes = result.quote_changes ?? [];
  const bent = !pass && score >= t;
  return h('div', { class: 'score-block' },
    h('div', { class: 'score-bar', role: 'img', 'aria-label': `score ${score.toFixed(2)} of 1, threshold ${t.toFixed(2)}` }, fill, mark),
    h('p', { class: 'score-text' },
      h('strong', { class: 'score-value' }, score.toFixed(3)),
      pass ? ` ≥ threshold ${t.toFixed(2)}: the quote is in the cited lines.`
        : bent ? ` ≥ threshold ${t.toFixed(2)}, but the quote is not what the cited lines say.`
          : ` < threshold ${t.toFixed(2)}: the quote is not in the cited lines and the lines before them.`),
    changes.length ? h('ul', { class: 'quote-changes', 'aria-label': 'What the quote changes' },
      changes.map((c) => h('li', { dataset: { change: c.change } }, quoteChangeText(c)))) : null,
    result.quote_outside_cited_lines ? h('p', { class: 'claim-warning quote-elsewhere' },
      `The quote is at ${result.quote_lines}, before the cited lines ${result.cited_lines}: the citation names the wrong lines.`) : null);
}

/** Is this juror one of the page's demo jurors? */
export const isDemo = (name) => name.startsWith('demo-');

/** Step 3: the consensus, each vote, and the log of this check. */
export function renderJury(result, logs, { showLog = true } = {}) {
  const jury = result.jury;
  const out = h('div', { class: 'jury-result' });
  if (!jury.convened) {
    out.append(h('p', { class: 'muted' }, result.step_1_existence ? 'No juror was asked.' : 'Step 1 failed: there are no lines to show a jury.'));
    return out;
  }
  const s = result.step_3_semantic;
  out.append(h('div', { class: 'consensus' },
    h('span', { class: 'consensus-label' }, 'Consensus: '), verdictBadge(s?.verdict ?? null, 'consensus-verdict'),
    h('span', { class: 'consensus-reason' }, s ? ` ${s.reason}` : '')));
  const tally = Object.entries(jury.tally).map(([v, n]) => `${n} ${v}`).join(', ');
  out.append(h('p', { class: 'muted jury-counts' },
    `${jury.jurors.length} juror${jury.jurors.length === 1 ? '' : 's'}: ${jury.answered} answered, ${jury.failed} failed${tally ? ` (${tally})` : ''}.`));
  const flag = (x, label) => h('li', { class: x ? 'flag-yes' : 'flag-no' }, `${x ? '✓' : '✗'} ${label}`);
  out.append(h('ul', { class: 'votes', 'aria-label': 'Votes' }, jury.votes.map((v) => {
    const b = v.ballot;
    const time = v.elapsed_ms === null || v.elapsed_ms === undefined ? null : `${Math.round(v.elapsed_ms)} ms`;
    return h('li', { class: `vote tone-${b ? verdictTone(b.verdict) : 'bad'}`, dataset: { judge: v.judge } },
      h('div', { class: 'vote-head' },
        h('span', { class: 'juror-name' }, v.judge),
        isDemo(v.judge) ? h('span', { class: 'demo-tag' }, DEMO_LABEL) : h('span', { class: 'host-tag' }, 'host judge'),
        b ? verdictBadge(b.verdict, 'vote-verdict') : h('span', { class: 'step-chip tone-bad vote-verdict' }, 'failed'),
        time ? h('span', { class: 'vote-time' }, time) : null),
      b ? h('ul', { class: 'vote-flags', 'aria-label': 'The quote' },
        flag(b.substantive_quote, 'substantive'), flag(b.quote_in_context, 'in context'), flag(b.supports_claim, 'supports the claim')) : null,
      h('p', { class: b ? 'vote-reason' : 'vote-reason step-error' }, b ? b.reason : v.error ?? ''));
  })));
  if (showLog) out.append(renderLog(logs));
  return out;
}

/** The prompt/response log entries (spec 002 "Logging"), one disclosure each. */
export function renderLog(logs) {
  if (!logs?.length) return h('p', { class: 'muted' }, 'No log entries.');
  return h('div', { class: 'jury-log' },
    h('h4', {}, `Log (${logs.length} entr${logs.length === 1 ? 'y' : 'ies'})`),
    h('details', { class: 'log-entry log-system' },
      h('summary', {}, 'Instructions sent to every juror (system message)'),
      h('pre', { class: 'log-text' }, logs[0].system)),
    logs.map((e) => h('details', { class: 'log-entry', dataset: { judge: e.judge, file: e.file_name } },
      h('summary', {}, h('code', {}, e.file_name), ` · ${e.judge}`, e.error ? ` · ${e.error}` : ' · answered'),
      h('h5', {}, 'Prompt'),
      h('pre', { class: 'log-text log-prompt' }, e.prompt),
      h('h5', {}, e.error ? 'Error' : 'Response'),
      h('pre', { class: 'log-text log-response' }, e.error ?? e.response ?? ''))));
}
