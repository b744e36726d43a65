// Typed tests of spec 001 (transcript evidence) through the package:
// Transcript (text and object input, getters, toJSON, validate,
// validateEvaluation, previewBudget), EvaluationGenerator.run with typed
// callbacks, renderScript, normalizeEvidenceText and evidenceTokens.

import { EvaluationGenerator, Transcript, defaultTranscriptConfig, evidenceTokens, normalizeEvidenceText, renderScript } from 'evidence-validator';
import type {
  BudgetPreview,
  EvaluationCallbacks,
  EvaluationItem,
  EvaluationOutcome,
  EvaluationValidation,
  ItemValidation,
  RenderedScript,
  StructuredEvaluation,
  TimingLevel,
  TranscriptConfig,
  TranscriptData,
  TranscriptFormat,
  TranscriptJson,
  TranscriptMetrics,
  TranscriptSpan,
  TranscriptToken,
} from 'evidence-validator';
import { check, rejectsCode, shape, throwsCode } from './check.js';

const sentence = 'Good morning everyone my name is Dana Whitfield and today I want to talk about water at home';
const json: TranscriptJson = {
  language: 'en',
  segments: [{
    start: 0,
    end: 10,
    speaker: 'Dana',
    text: sentence,
    words: sentence.split(' ').map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.9 })),
  }],
};
const srt = '1\n00:00:00,000 --> 00:00:05,000\nGood morning everyone my name is Dana Whitfield\n\n' +
  '2\n00:00:05,000 --> 00:00:10,000\nand today I want to talk about water at home\n';
const good: EvaluationItem = { text: 'A clear opening.', evidence_quote: 'my name is Dana Whitfield and today', evidence_timestamp: 2 };
const good2: EvaluationItem = { text: 'The topic is named.', evidence_quote: 'I want to talk about water at home', evidence_timestamp: 6.5 };
const bad: EvaluationItem = { text: 'Invented.', evidence_quote: 'water is the new oil of our century', evidence_timestamp: 3, note: 'extra fields are kept' };
const config: TranscriptConfig = {
  min_contiguous_tokens: 6, max_quote_tokens: 15, locality_seconds: 20, max_generations: 2, max_retries_per_item: 1,
  min_commendations: 2, min_recommendations: 0, max_processing_time_seconds: 30,
};

const SPAN = {
  start: 'required', end: 'required', utf16_start: 'required', utf16_end: 'required', byte_start: 'required', byte_end: 'required',
  line: 'required', column: 'required', end_line: 'required',
} as const;

function checkSpan(text: string, span: TranscriptSpan, expected: string, where: string): void {
  shape(span, SPAN, where);
  check(text.slice(span.utf16_start, span.utf16_end) === expected, `${where}: slices to ${expected}`);
}

function checkValidation(v: ItemValidation, where: string): void {
  shape(v, {
    passed: 'required', timing: 'required', quote_tokens: 'required', evidence_timestamp: 'required', contiguous_match: 'required',
    length: 'required', timestamp_locality: 'required', failed_checks: 'required', matched: 'required', occurrence_count: 'required',
    occurrences: 'required', longest_partial_match: 'required', speaker: 'optional',
  }, where);
  for (const c of [v.contiguous_match, v.length, v.timestamp_locality]) {
    shape(c, { status: 'required', reason: 'required', message: 'required' }, `${where} check`);
  }
  if (v.matched) {
    shape(v.matched, {
      token_start: 'required', token_end: 'required', word_start: 'required', word_end: 'required', segment_start: 'required',
      segment_end: 'required', span: 'required', text: 'required', start_time: 'required', end_time: 'required', locality: 'required',
      speakers: 'optional',
    }, `${where}.matched`);
    if (v.matched.locality) {
      shape(v.matched.locality, {
        level: 'required', basis: 'required', reference_start: 'required', reference_end: 'required', distance_seconds: 'required',
        within_window: 'required',
      }, `${where}.matched.locality`);
    }
  }
  v.occurrences.forEach((o, i) => shape(o, {
    token_start: 'required', start_time: 'required', distance_seconds: 'required', within_window: 'required', chosen: 'required',
  }, `${where}.occurrences[${i}]`));
  if (v.longest_partial_match) {
    shape(v.longest_partial_match, {
      length: 'required', quote_token_start: 'required', token_start: 'required', span: 'required', text: 'required', start_time: 'required',
    }, `${where}.longest_partial_match`);
  }
}

function checkOutcome(o: EvaluationOutcome, where: string): void {
  shape(o, {
    evaluation: 'required', validations: 'required', complete: 'required', generation: 'required', generations_used: 'required',
    attempts: 'required', dropped: 'required', regenerations: 'required', warnings: 'required',
  }, where);
  o.attempts.forEach((a, i) => {
    shape(a, {
      sequence: 'required', call: 'required', generation: 'required', kind: 'optional', index: 'optional', retry: 'optional',
      status: 'required', error: 'optional', items: 'required',
    }, `${where}.attempts[${i}]`);
    a.items.forEach((c, j) => {
      shape(c, { kind: 'required', index: 'required', item: 'required', validation: 'required' }, `${where}.attempts[${i}].items[${j}]`);
      checkValidation(c.validation, `${where}.attempts[${i}].items[${j}].validation`);
    });
  });
  o.dropped.forEach((d, i) => shape(d, { generation: 'required', kind: 'required', index: 'required', item: 'required', reason: 'required' }, `${where}.dropped[${i}]`));
  o.regenerations.forEach((r, i) => {
    shape(r, { after_generation: 'required', reason: 'required', retries_not_made: 'required' }, `${where}.regenerations[${i}]`);
    r.retries_not_made.forEach((x, j) => shape(x, { kind: 'required', index: 'required' }, `${where}.regenerations[${i}].retries_not_made[${j}]`));
  });
  o.warnings.forEach((w, i) => shape(w, { code: 'required', message: 'required' }, `${where}.warnings[${i}]`));
  o.validations.commendations.forEach((v, i) => checkValidation(v, `${where}.validations.commendations[${i}]`));
}

export function testTranscript(): void {
  // spec 001's thresholds and budget, and spec 000's time limit
  const defaults: Required<TranscriptConfig> = defaultTranscriptConfig();
  shape(defaults, {
    min_contiguous_tokens: 'required', max_quote_tokens: 'required', locality_seconds: 'required', max_generations: 'required',
    max_retries_per_item: 'required', min_commendations: 'required', min_recommendations: 'required', max_processing_time_seconds: 'required',
  }, 'defaultTranscriptConfig()');
  check(defaults.min_contiguous_tokens === 6 && defaults.max_quote_tokens === 15 && defaults.locality_seconds === 20
    && defaults.max_generations === 2 && defaults.max_retries_per_item === 1 && defaults.min_commendations === 2
    && defaults.min_recommendations === 1 && defaults.max_processing_time_seconds === 120, 'defaultTranscriptConfig() values');
  for (const t of [new Transcript(json), new Transcript(JSON.stringify(json), { format: 'json' }), new Transcript(srt, { fileName: 'talk.srt', maxProcessingTimeSeconds: 10 })]) {
    const format: TranscriptFormat = t.format;
    const timing: TimingLevel = t.timing;
    const language: string | undefined = t.language;
    const text: string = t.text;
    check(text.startsWith('Good morning'), `${format} ${timing} ${language}: text`);
    t.words.forEach((w, i) => {
      shape(w, { text: 'required', start: 'required', end: 'required', confidence: 'optional', speaker: 'optional', segment: 'required', span: 'required' }, `${format} words[${i}]`);
      checkSpan(text, w.span, w.text, `${format} words[${i}].span`);
    });
    t.segments.forEach((s, i) => {
      shape(s, { text: 'required', start: 'required', end: 'required', speaker: 'optional', word_start: 'required', word_end: 'required', span: 'required' }, `${format} segments[${i}]`);
      checkSpan(text, s.span, s.text, `${format} segments[${i}].span`);
    });
    const tokens: TranscriptToken[] = t.tokens;
    tokens.forEach((k, i) => {
      shape(k, { text: 'required', word: 'required', segment: 'required', start: 'required', end: 'required', span: 'required' }, `${format} tokens[${i}]`);
      check(normalizeEvidenceText(text.slice(k.span.utf16_start, k.span.utf16_end)) === k.text, `${format} tokens[${i}]`);
    });
    const warnings: string[] = t.warnings;
    check(warnings.length === 0, `${format}: no warnings`);
    const metrics: TranscriptMetrics = t.metrics;
    shape(metrics, {
      timing: 'required', start_seconds: 'required', end_seconds: 'required', duration_seconds: 'required', word_count: 'required',
      words_per_minute: 'required', reduced_timing_precision: 'required', notes: 'required',
    }, `${format} metrics`);
    const data: TranscriptData = t.toJSON();
    shape(data, { format: 'required', language: 'optional', timing: 'required', text: 'required', words: 'required', segments: 'required', warnings: 'required' }, `${format} toJSON()`);
    check(new Transcript(data).text === text, `${format}: toJSON() reads back`);

    const v: ItemValidation = t.validate(good, config);
    checkValidation(v, `${format} validate`);
    check(v.passed, `${format}: the good item passes ${v.failed_checks.join()}`);
    const failed = t.validate(bad);
    checkValidation(failed, `${format} validate bad`);
    check(!failed.passed && failed.failed_checks.includes('contiguous_match'), `${format}: the bad item fails`);

    const evaluation: StructuredEvaluation = { commendations: [good, bad], recommendations: [], summary: 'kept' };
    const all: EvaluationValidation = t.validateEvaluation(evaluation, config);
    shape(all, { commendations: 'required', recommendations: 'required', passed_commendations: 'required', passed_recommendations: 'required', ok: 'required', errors: 'required' }, `${format} validateEvaluation`);
    all.errors.forEach((e, i) => shape(e, { code: 'required', message: 'required', affected_items: 'required' }, `${format} errors[${i}]`));
    check(all.passed_commendations === 1, `${format}: one passes`);
    const preview: BudgetPreview = t.previewBudget(evaluation, config);
    shape(preview, {
      items: 'required', passed_commendations: 'required', passed_recommendations: 'required', would_regenerate: 'required',
      regeneration_unavoidable: 'required', summary: 'required', warnings: 'required',
    }, `${format} previewBudget`);
    preview.items.forEach((x, i) => shape(x, { kind: 'required', index: 'required', item: 'required', action: 'required', validation: 'required' }, `${format} preview.items[${i}]`));
    check(preview.items.map((x) => x.action).join() === 'keep,reprompt', `${format}: actions`);
    t.free();
  }
}

export async function testGenerator(): Promise<void> {
  const t = new Transcript(json);
  const asked: string[] = [];
  const callbacks: EvaluationCallbacks = {
    async generate(request) {
      asked.push(`generate ${request.generation} ${request.reason} ${request.feedback.length}`);
      shape(request, { generation: 'required', max_generations: 'required', reason: 'required', feedback: 'required', requirements: 'required' }, 'GenerateRequest');
      shape(request.requirements, {
        min_commendations: 'required', min_recommendations: 'required', min_quote_tokens: 'required', max_quote_tokens: 'required',
        locality_seconds: 'required', instructions: 'required',
      }, 'EvidenceRequirements');
      return { commendations: [good, bad], recommendations: [] };
    },
    retryItem(request) {
      asked.push(`retry ${request.kind} ${request.index}`);
      shape(request, { generation: 'required', kind: 'required', index: 'required', retry: 'required', item: 'required', failures: 'required', requirements: 'required' }, 'RetryRequest');
      request.failures.forEach((f, i) => shape(f, { check: 'required', reason: 'required', message: 'required' }, `failures[${i}]`));
      return good2;
    },
  };
  const outcome: EvaluationOutcome = await new EvaluationGenerator(t, config).run(callbacks, { timeoutMs: 5000 });
  checkOutcome(outcome, 'EvaluationGenerator.run');
  check(outcome.complete && asked.join('; ') === 'generate 1 initial 0; retry commendation 1', asked.join('; '));

  // an outcome stands for its evaluation wherever an evaluation is taken
  const again: EvaluationValidation = t.validateEvaluation(outcome, config);
  check(again.passed_commendations === outcome.evaluation.commendations.length, 'validateEvaluation(outcome)');
  const preview: BudgetPreview = t.previewBudget(outcome);
  check(preview.items.every((x) => x.action === 'keep'), 'previewBudget(outcome)');
  const script: RenderedScript = renderScript(t, outcome, { names: ['Dana Whitfield'], replacement: 'the speaker' }, config);
  shape(script, { script: 'required', evaluation: 'required', redactions: 'required', omitted: 'required' }, 'renderScript');
  check(script.redactions === 1 && script.script.includes('the speaker'), 'redacted');
  // spec 001's names on the generator
  const generator = new EvaluationGenerator(t, config);
  const byName: EvaluationValidation = generator.validate(outcome);
  check(byName.passed_commendations === again.passed_commendations, 'EvaluationGenerator.validate');
  const byMethod: RenderedScript = generator.renderScript(outcome, { names: ['Dana Whitfield'], replacement: 'the speaker' });
  check(byMethod.script === script.script, 'EvaluationGenerator.renderScript');
  asked.length = 0;
  const generated: EvaluationOutcome = await generator.generate(callbacks, { timeoutMs: 5000 });
  check(generated.complete && asked.join('; ') === 'generate 1 initial 0; retry commendation 1', 'EvaluationGenerator.generate');
  generator.free();
  const plain = renderScript(t, { commendations: [good, bad], recommendations: [] });
  plain.omitted.forEach((o, i) => shape(o, { kind: 'required', index: 'required', reasons: 'required' }, `omitted[${i}]`));
  check(plain.omitted.length === 1, 'the bad item is omitted');

  const normalized: string = normalizeEvidenceText('  Dis-moi, est-ce VOLE ?  ');
  check(normalized === 'dismoi estce vole', normalized);
  const tokens: string[] = evidenceTokens('Ça — 3.8 s « déjà »');
  check(tokens.join() === 'ça,38,s,déjà', tokens.join());

  // @ts-expect-error callbacks need retryItem too
  await rejectsCode(new EvaluationGenerator(t).run({ generate: async () => ({ commendations: [], recommendations: [] }) }), 'CONFIGURATION_ERROR', 'missing retryItem');
  // @ts-expect-error timeoutMs is a number
  await rejectsCode(new EvaluationGenerator(t).run(callbacks, { timeoutMs: 'soon' }), 'CONFIGURATION_ERROR', 'timeoutMs');
  t.free();
}

export function testTranscriptRejectedByTypes(): void {
  // @ts-expect-error an unknown input format
  throwsCode(() => new Transcript(srt, { format: 'docx' }), 'CONFIGURATION_ERROR', 'format');
  // @ts-expect-error a number is not a transcript
  throwsCode(() => new Transcript(42), 'DOCUMENT_PARSING_ERROR', 'number input');
  const t = new Transcript(srt);
  // @ts-expect-error evidence_timestamp is required
  throwsCode(() => t.validate({ evidence_quote: 'a b c d e f' }), 'VALIDATION_ERROR', 'missing timestamp');
  // @ts-expect-error the quote is a string
  throwsCode(() => t.validate({ evidence_quote: 42, evidence_timestamp: 1 }), 'VALIDATION_ERROR', 'quote type');
  // @ts-expect-error an unknown config key (locality_seconds is)
  throwsCode(() => t.validate(good, { locality: 3 }), 'CONFIGURATION_ERROR', 'config key');
  // @ts-expect-error names are a list
  throwsCode(() => renderScript(t, { commendations: [], recommendations: [] }, { names: 'Dana' }), 'CONFIGURATION_ERROR', 'names');
  // @ts-expect-error normalizeEvidenceText takes text
  throwsCode(() => normalizeEvidenceText(null), 'VALIDATION_ERROR', 'null text');
  t.free();
}
