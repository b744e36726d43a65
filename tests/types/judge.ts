// Typed tests of the judge (spec 002) and findings (spec 003) through the
// package: verifyClaim with a jury (record and list forms, log callback),
// checkClaim, judgePrompt, juryInstructions, quoteScore, normalizeJudgeText,
// parseJudgeAnswer, parseCitations, verifyReport (map and function sources),
// Finding and verifyFinding.

import {
  Finding,
  checkClaim,
  defaultJudgeOptions,
  judgeOptionBounds,
  judgePrompt,
  juryInstructions,
  normalizeJudgeText,
  parseCitations,
  parseJudgeAnswer,
  quoteScore,
  verifyClaim,
  verifyFinding,
  verifyReport,
} from 'evidence-validator';
import type {
  BatchReport,
  ClaimToJudge,
  DefaultJudgeOptions,
  FindingData,
  FindingFields,
  JudgeBallot,
  JudgeFunction,
  JudgeLogEntry,
  JudgeOptionBounds,
  JudgeOptions,
  JudgePrompt,
  JudgeResult,
  JudgeVerdict,
  ReportCitation,
  ReportSources,
  VerificationResult,
} from 'evidence-validator';
import { check, expectType, rejectsCode, shape, throwsCode, type Equal } from './check.js';

const minutes = 'City council minutes, 12 March.\nPresent: the mayor and eight council members.\n' +
  'The meeting opened at 7 pm.\nItem 1: the new bridge over the river.\n' +
  'After a long debate about the cost of the bridge,\nthe committee approved the budget with a narrow majority\n' +
  'of five votes to four.\nThe mayor said the vote showed the council could still work together.\n';
const request: ClaimToJudge = {
  claim: 'The council approved the bridge budget by a narrow majority.',
  quote: 'the committee approved the budget with a narrow majority of five votes to four',
  filename: 'minutes.txt',
  start_line: 6,
  end_line: 7,
  source: minutes,
};

function checkResult(r: JudgeResult, where: string): void {
  shape(r, {
    step_1_existence: 'required', step_2_quote_match: 'required', quote_score: 'required', step_3_semantic: 'required',
    verdict: 'required', verified: 'required', text_found: 'required', error: 'required', quote_changes: 'optional', quote_lines: 'optional', quote_outside_cited_lines: 'required', claim: 'required', quote: 'required',
    filename: 'required', cited_lines: 'required', threshold: 'required', context: 'required', jury: 'required',
  }, where);
  if (r.step_3_semantic) {
    shape(r.step_3_semantic, {
      verdict: 'required', substantive_quote: 'required', quote_in_context: 'required', supports_claim: 'required', reason: 'required',
    }, `${where}.step_3_semantic`);
  }
  if (r.context) {
    shape(r.context, { cited_text: 'required', context_before: 'required', context_after: 'required', line_count: 'required', past_end: 'optional' }, `${where}.context`);
  }
  shape(r.jury, {
    convened: 'required', jurors: 'required', votes: 'required', tally: 'required', answered: 'required', failed: 'required', abstained: 'required',
  }, `${where}.jury`);
  r.jury.votes.forEach((v, i) => {
    shape(v, { judge: 'required', ballot: 'required', error: 'required', abstained: 'required', elapsed_ms: 'required' }, `${where}.jury.votes[${i}]`);
    if (v.ballot) checkBallot(v.ballot, `${where}.jury.votes[${i}].ballot`);
  });
  const verdict: JudgeVerdict = r.verdict;
  check(r.verified === (verdict === 'VALID'), `${where}: verified`);
}

function checkBallot(b: JudgeBallot, where: string): void {
  shape(b, { verdict: 'required', substantive_quote: 'required', quote_in_context: 'required', supports_claim: 'required', reason: 'required' }, where);
}

function checkCitation(c: ReportCitation, where: string): void {
  shape(c, {
    index: 'required', file: 'required', path: 'required', start_line: 'required', end_line: 'required', markdown: 'required',
    report_line: 'required', byte_offset: 'required', claim: 'required', quote: 'required',
  }, where);
}

export async function testJudge(): Promise<void> {
  // spec 002's defaults (threshold 0.8, 5 lines of context), autojunk off, two minutes a juror
  const defaults: DefaultJudgeOptions = defaultJudgeOptions();
  shape(defaults, { threshold: 'required', contextLines: 'required', autojunk: 'required', compareWords: 'required', timeoutMs: 'required' }, 'defaultJudgeOptions()');
  check(defaults.threshold === 0.8 && defaults.contextLines === 5 && defaults.autojunk === false && defaults.compareWords === true && defaults.timeoutMs === 120000, 'defaultJudgeOptions() values');
  // the ranges the options accept: the defaults inside them, one past the top refused
  const bounds: JudgeOptionBounds = judgeOptionBounds();
  shape(bounds, { threshold: 'required', contextLines: 'required', timeoutMs: 'required' }, 'judgeOptionBounds()');
  const inside = (b: { min: number; max: number }, v: number): boolean => v >= b.min && v <= b.max;
  check(inside(bounds.threshold, defaults.threshold) && inside(bounds.contextLines, defaults.contextLines) && inside(bounds.timeoutMs, defaults.timeoutMs),
    'the defaults are within judgeOptionBounds()');
  throwsCode(() => checkClaim({ claim: 'c', quote: 'q', filename: 'f', lines: 'L1', source: 'x' }, { contextLines: bounds.contextLines.max + 1 }),
    'CONFIGURATION_ERROR', 'contextLines above judgeOptionBounds().contextLines.max');
  const logs: JudgeLogEntry[] = [];
  const valid: JudgeFunction = async (prompt, context) => {
    shape(context, { judge: 'required', system: 'required' }, 'JudgeCallContext');
    check(prompt.startsWith('SOURCE FILE: minutes.txt') && context.system === juryInstructions(), 'juror arguments');
    return `{"verdict": "VALID", "reason": "${context.judge} agrees"}`;
  };
  const options: JudgeOptions = {
    judges: { a: valid, b: () => 'VALID' },
    timeoutMs: 5000,
    log: (entry) => logs.push(entry),
    threshold: 0.8,
    contextLines: 2,
    autojunk: false,
    reportName: 'typed',
  };
  const r: JudgeResult = await verifyClaim(request, options);
  checkResult(r, 'verifyClaim');
  check(r.verdict === 'VALID' && r.jury.convened && r.jury.answered === 2, 'the jury agrees');
  const tally: number | undefined = r.jury.tally.VALID;
  check(tally === 2, 'tally');
  check(logs.length === 2, 'two log entries');
  logs.forEach((l, i) => shape(l, {
    report: 'required', judge: 'required', number: 'required', file_name: 'required', system: 'required', prompt: 'required',
    response: 'required', error: 'required', text: 'required',
  }, `log[${i}]`));

  // the list form, a juror with its own timeout, one that throws
  const listed = await verifyClaim(request, {
    judges: [
      { name: 'slow', ask: () => new Promise<string>(() => {}), timeoutMs: 20 },
      { name: 'broken', ask: () => { throw new Error('offline'); } },
      { name: 'ok', ask: async () => 'INSUFFICIENT' },
    ],
  });
  checkResult(listed, 'verifyClaim list');
  check(listed.jury.votes[0]?.error === 'timed out after 20 ms', 'the slow juror timed out');

  const steps: JudgeResult = checkClaim({ ...request, start_line: undefined, end_line: undefined, lines: 'L6-L7' }, { threshold: 0.9, contextLines: 1, autojunk: false, compareWords: true });
  checkResult(steps, 'checkClaim');
  check(steps.verdict === 'JURY_NOT_CONVENED', 'steps 1 and 2 pass');
  checkResult(checkClaim({ ...request, source: null, source_error: 'ENOENT' }), 'checkClaim no file');

  const p: JudgePrompt = judgePrompt(request);
  shape(p, { system: 'required', prompt: 'required' }, 'judgePrompt');
  check(p.prompt !== null && p.prompt.includes('CLAIM BEING MADE'), 'the prompt');
  const score: number = quoteScore('abcdefghij', 'abcdefgh--', false);
  check(score === 0.8, 'quoteScore');
  check(quoteScore('a b', 'a b') === 1, 'quoteScore without autojunk');
  const normalized: string = normalizeJudgeText('  [L12] The  QUICK\n fox ');
  check(normalized === 'the quick fox', 'normalizeJudgeText');
  checkBallot(parseJudgeAnswer('Verdict: **INSUFFICIENT**'), 'parseJudgeAnswer');
  expectType<Equal<ReturnType<typeof parseJudgeAnswer>['verdict'], 'VALID' | 'MISLEADING' | 'INSUFFICIENT' | 'UNSUPPORTED'>>();
}

export async function testReport(): Promise<void> {
  const markdown = `# Council\n\nThe budget passed: "${request.quote}" [minutes.txt:L6-L7](data/minutes.txt). ` +
    'Fees doubled [fees.txt:L1](fees.txt). Backwards [minutes.txt:L7-L5](minutes.txt).\n';
  const citations: ReportCitation[] = parseCitations(markdown);
  check(citations.length === 2, 'two checkable citations');
  citations.forEach((c, i) => checkCitation(c, `parseCitations[${i}]`));

  const checkBatch = (b: BatchReport, where: string): void => {
    shape(b, {
      report: 'required', generated_at: 'required', summary: 'required', results: 'required', invalid_citations: 'required', markdown: 'required',
    }, where);
    shape(b.summary, {
      total: 'required', verified: 'required', verification_rate: 'required', verdicts: 'required', jury_convened: 'required', invalid: 'required',
    }, `${where}.summary`);
    b.results.forEach((r, i) => {
      shape(r, { citation: 'required', resolved_file: 'required', result: 'required' }, `${where}.results[${i}]`);
      checkCitation(r.citation, `${where}.results[${i}].citation`);
      checkResult(r.result, `${where}.results[${i}].result`);
    });
    b.invalid_citations.forEach((c, i) => shape(c, {
      index: 'required', file: 'required', path: 'required', range: 'required', problem: 'required', markdown: 'required',
      report_line: 'required', byte_offset: 'required',
    }, `${where}.invalid_citations[${i}]`));
  };
  const byName: ReportSources = { 'minutes.txt': minutes };
  const viaMap = await verifyReport(markdown, byName, { judges: { local: async () => 'VALID' } });
  checkBatch(viaMap, 'verifyReport map');
  check(viaMap.summary.verified === 1 && viaMap.summary.invalid === 1 && viaMap.summary.verdicts.VALID === 1, 'summary');
  const viaFunction = await verifyReport(markdown, async (c) => {
    checkCitation(c, 'the citation given to a sources function');
    return c.file === 'minutes.txt' ? minutes : null;
  });
  checkBatch(viaFunction, 'verifyReport function');
  check(viaFunction.results[1]?.resolved_file === null, 'fees.txt is not found');
}

export function testFindings(): void {
  const fields: FindingFields = {
    category: 'market_intelligence',
    title: 'GitHub Growth',
    content: 'Growth rate is 15-20%',
    source_url: 'https://example.com',
    extracted_at: new Date(Date.UTC(2025, 0, 31, 12)),
    extraction_span: 'file organization tools on github show 15-20% annual growth',
    extraction_span_hash: Finding.computeHash('file organization tools on github show 15-20% annual growth'),
    char_offsets: [3, 61],
    relevance_score: 8,
    recency_score: 9,
    trust_score: 2,
  };
  const made = new Finding(fields);
  made.validate();
  const { extraction_span_hash: _hash, ...rest } = fields;
  const hashed = Finding.createWithHash(rest);
  check(hashed.extraction_span_hash === made.extraction_span_hash, 'createWithHash computes the hash');
  const offsets: [number, number] | null = hashed.char_offsets;
  check(offsets !== null && offsets[1] === 61, 'char_offsets');
  const at: string = hashed.extracted_at;
  check(at === '2025-01-31T12:00:00.000Z', 'extracted_at is a string');
  const json: FindingData = hashed.toJSON();
  expectType<Equal<typeof json.extracted_at, string>>();
  shape(json, {
    category: 'required', title: 'required', content: 'required', source_url: 'required', extracted_at: 'required',
    extraction_span: 'required', extraction_span_hash: 'required', char_offsets: 'required', relevance_score: 'required',
    recency_score: 'required', trust_score: 'required',
  }, 'Finding.toJSON()');
  const numbers: number[] = [hashed.relevance_score, hashed.recency_score, hashed.trust_score];
  check(numbers.join() === '8,9,2', 'scores');
  const strings: string[] = [hashed.category, hashed.title, hashed.content, hashed.source_url, hashed.extraction_span];
  check(strings.every((s) => s.length > 0), 'string fields');
  const fromJson: FindingFields = json;
  check(new Finding(fromJson).extraction_span_hash === json.extraction_span_hash, 'toJSON() reads back');
  const bare = Finding.createWithHash({ ...rest, char_offsets: undefined });
  check(bare.toJSON().char_offsets === null, 'char_offsets is null when absent');
  bare.free();

  const page = 'Reports say file organization tools on GitHub show 15-20% annual growth this year.';
  for (const r of [verifyFinding(hashed, page), verifyFinding(json, page)]) {
    const checked: VerificationResult = r;
    shape(checked, { valid: 'required', reason: 'required', confidence: 'required' }, 'verifyFinding');
    check(checked.valid, `verifyFinding: ${checked.reason}`);
  }
  hashed.free();
  made.free();

  // @ts-expect-error a Finding needs every field
  throwsCode(() => new Finding({ relevance_score: 1 }), 'VALIDATION_ERROR', 'partial finding');
  // @ts-expect-error an unknown field
  throwsCode(() => new Finding({ ...json, bogus: true }), 'VALIDATION_ERROR', 'unknown finding field');
}

export async function testJudgeRejectedByTypes(): Promise<void> {
  // @ts-expect-error a juror is a function, not a string
  await rejectsCode(verifyClaim(request, { judges: { a: 'not a function' } }), 'CONFIGURATION_ERROR', 'juror');
  // @ts-expect-error an unknown option
  await rejectsCode(verifyClaim(request, { colour: 'red' }), 'CONFIGURATION_ERROR', 'option key');
  // @ts-expect-error sources are a map or a function
  await rejectsCode(verifyReport('x', 'not sources'), 'CONFIGURATION_ERROR', 'sources');
  // @ts-expect-error checkClaim takes no jury
  throwsCode(() => checkClaim(request, { judges: {} }), 'CONFIGURATION_ERROR', 'checkClaim judges');
  // @ts-expect-error the claim is a string
  throwsCode(() => checkClaim({ ...request, claim: 5 }), 'VALIDATION_ERROR', 'claim type');
  // @ts-expect-error quoteScore takes text
  throwsCode(() => quoteScore(42, 'area'), 'VALIDATION_ERROR', 'quoteScore number');
}
