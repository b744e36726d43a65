// Typed tests of spec 004 part 1 (the citation pipeline's deterministic
// stages) through the package: cite (with and without a typed embed
// callback), citeAsync (with an asynchronous one), citeNumeric, citeMetrics, citeDefaultConfig. `shape` checks
// that what each returns has exactly the keys its declaration lists.

import { cite, citeAsync, citeDefaultConfig, citeMetrics, citeNumeric, citePipeline, citeStream } from 'evidence-validator';
import type {
  CiteAction,
  CiteAsyncOptions,
  CiteClaimConfidence,
  CiteConfidenceLevel,
  CiteConfig,
  CiteCorrection,
  CiteDefaultConfig,
  CiteEvent,
  CiteEvidenceSpan,
  CiteHost,
  CiteLlmRequest,
  CitePipelineInput,
  CitePipelineReport,
  CiteVerifiedClaim,
  CiteInput,
  CiteMetricsReport,
  CiteNumericComponents,
  CiteNumericResult,
  CitePosition,
  CiteReport,
  CiteSignal,
  CiteSpanRef,
} from 'evidence-validator';
import { check, expectType, rejectsCode, shape, throwsCode, type Equal } from './check.js';

const input: CiteInput = {
  query: "What was Acme's revenue in Q4 2024?",
  sources: [
    { id: 'earnings', title: 'Acme Q4 2024 earnings', url: 'https://example.com/q4', content: 'Acme Corp reported Q4 2024 revenues of $3.2 billion, up 12% from a year earlier 😀. The board declared a quarterly dividend of $0.25 per share.' },
    { id: 'profile', content: 'Acme Corp was founded in 1998 in Denver and is headquartered there today. The company employs 5,000 people across twelve countries.' },
  ],
  claims: [
    { text: "Acme's revenue was $3.2B in Q4 2024.", citations: ['profile'] },
    { text: 'Acme Corp was founded in 1998.', citations: ['profile'], verdict: 'supported' },
  ],
};

const position = (p: CitePosition, where: string): void => {
  shape(p, { start: 'required', end: 'required', utf16_start: 'required', utf16_end: 'required', byte_start: 'required', byte_end: 'required', line: 'required', column: 'required', end_line: 'required' }, where);
};

const components = (c: CiteNumericComponents, where: string): void => {
  shape(c, { raw_value: 'required', normalized_value: 'required', normalized_range: 'optional', unit: 'required', entity: 'required', time_period: 'required', derivation_type: 'required', position: 'required' }, where);
  position(c.position, `${where}.position`);
};

const numeric = (r: CiteNumericResult, where: string): void => {
  shape(r, { method: 'required', verdict: 'required', match_score: 'required', value_score: 'required', claim: 'required', evidence: 'required', mismatches: 'required', derivation: 'optional' }, where);
  components(r.claim, `${where}.claim`);
  if (r.evidence) components(r.evidence, `${where}.evidence`);
};

export function testCite(): void {
  const report: CiteReport = cite(input);
  shape(report, { evidence_pool: 'required', relevance_method_used: 'required', candidate_spans: 'required', correction_method_used: 'required', claims: 'required', stages: 'required' }, 'report');
  const span: CiteEvidenceSpan = report.evidence_pool[0]!;
  shape(span, { quote: 'required', source_id: 'required', source_title: 'required', source_url: 'required', relevance_score: 'required', has_numeric: 'required', position: 'required', truncated: 'required' }, 'span');
  position(span.position, 'span.position');
  const content = input.sources.find((s) => s.id === span.source_id)!.content;
  check(content.slice(span.position.utf16_start, span.position.utf16_end) === span.quote, 'UTF-16 offsets slice the quote');
  const first = report.claims[0]!;
  const confidence: CiteClaimConfidence = first.confidence;
  shape(confidence, { score: 'required', level: 'required', signals: 'required', classified: 'required' }, 'confidence');
  const correction: CiteCorrection = first.correction;
  shape(correction, { action: 'required', citations_before: 'required', citations_after: 'required', current: 'required', new_evidence: 'required', verdict: 'required', verdict_source: 'required' }, 'correction');
  expectType<Equal<typeof correction.action, CiteAction>>();
  check(correction.action === 'REPLACE' && correction.citations_after[0] === 'earnings', `claim 0: ${correction.action}`);
  const ref: CiteSpanRef = correction.new_evidence!;
  shape(ref, { span: 'required', source_id: 'required', score: 'required' }, 'new_evidence');
  check(first.numeric !== null, 'claim 0 has a number');
  numeric(first.numeric!, 'claims[0].numeric');
  const second = report.claims[1]!;
  check(second.correction.verdict_source === 'given', 'a given verdict is used');
  const signal: CiteSignal = second.confidence.signals[0]!;
  shape(signal, { signal: 'required', weight: 'required', matched: 'required' }, 'signal');

  // the host's embedding callback: typed, called once for the spans and the query
  let calls = 0;
  const embedded = cite(input, { evidence_preselection: { relevance_computation_method: 'semantic' } }, {
    embed: (texts: string[]) => {
      calls += 1;
      return texts.map((t) => [t.length, 1]);
    },
  });
  check(embedded.relevance_method_used === 'semantic' && calls >= 1, `semantic with embed: ${embedded.relevance_method_used}`);

  const off: CiteConfig = { enable_confidence_classification: false, enable_citation_correction: false };
  const fallback = cite(input, off);
  check(fallback.claims.every((c) => c.confidence.level === 'LOW' && c.correction.action === 'KEEP'), 'fallbacks');
  const e = throwsCode(() => cite(input, { enable_magic: true } as unknown as CiteConfig), 'CONFIGURATION_ERROR', 'unknown toggle');
  check(e.details['json_path'] === '$.enable_magic', String(e.details['json_path']));
}

export async function testCiteAsync(): Promise<void> {
  const config: CiteConfig = { evidence_preselection: { relevance_computation_method: 'semantic' } };
  const vectors = (texts: string[]): number[][] => texts.map((t) => [t.length, 1]);
  let calls = 0;
  const options: CiteAsyncOptions = {
    embed: async (texts: string[]) => {
      calls += 1;
      return vectors(texts);
    },
  };
  const pending = citeAsync(input, config, options);
  expectType<Equal<typeof pending, Promise<CiteReport>>>();
  const report = await pending;
  shape(report, { evidence_pool: 'required', relevance_method_used: 'required', candidate_spans: 'required', correction_method_used: 'required', claims: 'required', stages: 'required' }, 'async report');
  check(calls === 1, `embed called once: ${calls}`);
  const direct = cite(input, config, { embed: vectors });
  check(JSON.stringify(report) === JSON.stringify(direct), 'citeAsync gives what cite gives with the same embed');
  check((await citeAsync(input)).relevance_method_used === 'keyword', 'no embed: keyword stands in');
  await rejectsCode(citeAsync(input, config, { embed: () => Promise.reject(new Error('offline')) }), 'PROCESSING_ERROR', 'a rejecting embed');
}

export function testCiteNumeric(): void {
  const r = citeNumeric('Revenue was $3.2B in Q4 2024', 'Revenue was $3.2 billion in Q4 2023');
  numeric(r, 'numeric');
  expectType<Equal<typeof r.verdict, 'SUPPORTED' | 'CONTRADICTED'>>();
  check(r.verdict === 'CONTRADICTED' && r.mismatches[0]!.field === 'time_period', JSON.stringify(r.mismatches));
  check(citeNumeric('3.2B', '$3,200,000,000').match_score === 1, '3.2B = $3,200,000,000');
  throwsCode(() => citeNumeric('no number', '5'), 'VALIDATION_ERROR', 'claim without a number');
}

export function testCiteMetrics(): void {
  const m: CiteMetricsReport = citeMetrics({
    ranking: { relevance: [[1, 0, 1]], k: 2 },
    binary: { y_true: [0, 1, 1], y_score: [0.2, 0.7, 0.9] },
    classes: { y_true: ['a', 'b'], y_pred: ['a', 'a'] },
    raters: { a: [1, 0, 1], b: [1, 0, 0] },
    calibration: { confidence: [0.9, 0.1], correct: [1, 0], bins: 10 },
    citations: { predicted: [['s1']], gold: [['s1', 's2']] },
  });
  shape(m, { precision_at_k: 'optional', recall_at_k: 'optional', f1_at_k: 'optional', ndcg_at_k: 'optional', auroc: 'optional', brier: 'optional', macro_f1: 'optional', cohen_kappa: 'optional', ece: 'optional', citation_precision: 'optional', citation_recall: 'optional', citation_f1: 'optional' }, 'metrics');
  check(m.auroc === 1 && m.precision_at_k === 0.5 && m.citation_recall === 0.5, JSON.stringify(m));
  const d: CiteDefaultConfig = citeDefaultConfig();
  expectType<Equal<typeof d.citation_correction.lambda_weight, number>>();
  check(d.citation_correction.lambda_weight === 0.8 && d.enable_verification_retrieval === false, 'defaults');
}

export async function testCitePipeline(): Promise<void> {
  const seen: CiteEvent[] = [];
  const host: CiteHost = {
    generate: async (r: CiteLlmRequest) => `CLAIM: ${r.prompt.slice(r.prompt.indexOf('quote):\n"') + 9, r.prompt.indexOf('"\n\u2014 Source'))}`,
    verify: (r: CiteLlmRequest) => {
      expectType<Equal<typeof r.confidence, CiteConfidenceLevel | null>>();
      return r.kind === 'cove_questions' ? 'What year?' : 'Verdict: SUPPORTED';
    },
    embed: async (texts: string[]) => texts.map((t) => [t.length % 7 + 1, 1]),
    onClaim: (e: CiteEvent) => { seen.push(e); },
  };
  const pipelineInput: CitePipelineInput = { ...input, claims: [], outline: ['Revenue'] };
  const report: CitePipelineReport = await citePipeline(pipelineInput, { llm_calls: { max_in_flight: 2, max_in_flight_high: 5, max_in_flight_medium: 3, max_in_flight_low: 2 } }, host);
  shape(report, { evidence_pool: 'required', relevance_method_used: 'required', correction_method_used: 'required', generation: 'required', claims: 'required', summary: 'required', warnings: 'required', stages: 'required' }, 'pipeline report');
  const c: CiteVerifiedClaim = report.claims[0]!;
  shape(c, { text: 'required', confidence: 'required', correction: 'required', numeric: 'required', verdict: 'required', abstained: 'required', section: 'optional', evidence: 'required', verification: 'required', numeric_qa: 'optional' }, 'verified claim');
  shape(c.verification, { verifier: 'required', method: 'required', evidence: 'required', verdict: 'required', initial: 'optional', raw_verdict: 'required', abstained: 'required', reason: 'required', qa: 'optional' }, 'verification');
  expectType<Equal<typeof c.verification.verifier, 'llm' | 'deterministic'>>();
  check(c.verification.verifier === 'llm' && seen[0]!.event === 'claim', JSON.stringify(seen));
  let last: CiteEvent | { event: 'report'; report: CitePipelineReport } | undefined;
  for await (const e of citeStream(pipelineInput, null, host)) last = e;
  check(last !== undefined && last.event === 'report' && last.report.claims.length === report.claims.length, 'the stream ends with the report');
  await rejectsCode(citePipeline(pipelineInput), 'VALIDATION_ERROR', 'no claims and no LLM');
}
