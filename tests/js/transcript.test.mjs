// Spec 001 in JS, against the built package: `Transcript` (import of every
// fixture shape, spans usable with String.prototype.slice, the validation
// cases shared with the Rust tests), `EvaluationGenerator.run` with scripted
// callbacks (fixes on retry, never fixes, throws, rejects, answers garbage)
// checking the exact sequence of calls and the outcome, `renderScript`
// (redaction strictly after validation), and the published types.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  EvaluationGenerator, Transcript, evidenceTokens, normalizeEvidenceText, renderScript,
} from 'evidence-validator';
import { assertThrowsCode, check, pkgDir, readJson, readText } from './helpers.mjs';

const DATA = 'tests/data/transcript';
const fixture = (name) => new Transcript(readText(`${DATA}/${name}`), { fileName: name });

const SHAPES = [
  ['whisper_api_verbose.json', 'whisper_verbose_json', 'word'],
  ['openai_whisper_words.json', 'whisper_verbose_json', 'word'],
  ['whisperx.json', 'whisperx', 'word'],
  ['whisper_timestamped.json', 'whisper_timestamped', 'word'],
  ['plain.json', 'plain_json', 'word'],
  ['plain_segments.json', 'plain_json', 'segment'],
  ['whisper_cpp.json', 'whisper_cpp', 'segment'],
  ['deepgram.json', 'deepgram', 'word'],
  ['speechmatics.json', 'speechmatics', 'word'],
  ['aws_transcribe.json', 'aws_transcribe', 'word'],
  ['talk.srt', 'srt', 'segment'],
  ['talk.vtt', 'webvtt', 'segment'],
];

test('every fixture shape imports, with the same tokens and spans that slice', () => {
  const reference = fixture('plain.json').tokens.map((t) => t.text);
  assert.equal(reference.length, 189);
  for (const [name, format, timing] of SHAPES) {
    const t = fixture(name);
    assert.equal(t.format, format, name);
    assert.equal(t.timing, timing, name);
    assert.deepEqual(t.warnings, [], name);
    const text = t.text;
    const tokens = t.tokens;
    assert.deepEqual(tokens.map((k) => k.text), reference, name);
    for (const k of tokens) assert.equal(normalizeEvidenceText(text.slice(k.span.utf16_start, k.span.utf16_end)), k.text, name);
    for (const w of t.words) assert.equal(text.slice(w.span.utf16_start, w.span.utf16_end), w.text, name);
    t.free();
  }
});

test('a parsed JSON object is accepted as well as text', () => {
  const t = new Transcript(readJson(`${DATA}/whisperx.json`));
  assert.equal(t.format, 'whisperx');
  const untimed = t.words.filter((w) => w.start === null).map((w) => w.text);
  assert.deepEqual(untimed, ['2019,', '4.5', '30%', '5,000']);
  const again = new Transcript(t.toJSON());
  assert.equal(again.text, t.text);
  assert.equal(JSON.parse(JSON.stringify(t)).format, 'whisperx');
});

test('the validation cases shared with Rust', () => {
  const cases = readJson(`${DATA}/validate_cases.json`);
  const transcripts = new Map();
  const failures = [];
  for (const c of cases) {
    if (!transcripts.has(c.transcript)) transcripts.set(c.transcript, fixture(c.transcript));
    const t = transcripts.get(c.transcript);
    const result = t.validate(c.item, c.config ?? null);
    for (const e of c.expect) {
      const f = check(result, e);
      if (f) failures.push(`[${c.name}] ${f}`);
    }
    if (result.matched) {
      assert.equal(t.text.slice(result.matched.span.utf16_start, result.matched.span.utf16_end), result.matched.text, c.name);
    }
  }
  assert.deepEqual(failures, []);
});

test('metrics, with the reduced-precision note for segments', () => {
  const words = fixture('plain.json').metrics;
  assert.equal(words.timing, 'word');
  assert.equal(words.reduced_timing_precision, false);
  assert.equal(words.word_count, 189);
  const segments = fixture('talk.srt').metrics;
  assert.equal(segments.duration_seconds, 128);
  assert.equal(segments.words_per_minute, 189 * 60 / 128);
  assert.equal(segments.reduced_timing_precision, true);
  assert.match(segments.notes[0], /^Reduced timing precision/);
});

test('normalization helpers', () => {
  assert.equal(normalizeEvidenceText('  Dis-moi, est-ce que l’avion VOLE ?  '), 'dismoi estce que lavion vole');
  assert.deepEqual(evidenceTokens('Ça — 3.8 s « déjà »'), ['ça', '38', 's', 'déjà']);
});

test('malformed input throws typed errors naming the place', () => {
  let e = assertThrowsCode(() => new Transcript('1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:0x,000\nbad\n'), 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.line, 6);
  e = assertThrowsCode(() => new Transcript({ segments: [{ start: 0, end: 'soon', text: 'a' }] }), 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.json_path, '$.segments[0].end');
  e = assertThrowsCode(() => new Transcript('WEBVTT\n\nnothing here\n', { format: 'vtt' }), 'DOCUMENT_PARSING_ERROR');
  assertThrowsCode(() => new Transcript('x', { format: 'docx' }), 'CONFIGURATION_ERROR');
  const t = fixture('talk.srt');
  e = assertThrowsCode(() => t.validate({ evidence_quote: 'a b c d e f' }), 'VALIDATION_ERROR');
  assert.equal(e.details.json_path, '$.evidence_timestamp');
  assertThrowsCode(() => t.validate({ evidence_quote: 'a', evidence_timestamp: 1 }, { locality: 3 }), 'CONFIGURATION_ERROR');
});

// The retry budget with scripted callbacks.

const item = (evidence_quote, evidence_timestamp, text) => ({ text, evidence_quote, evidence_timestamp });
const GOOD_C1 = item('my grandmother showed me the river behind our old house', 8, 'A personal story opens the talk.');
const GOOD_C2 = item('So here are three simple ways to save water at home.', 27.5, 'The structure is announced.');
const GOOD_R = item('Um, I know it sounds small', 80, 'Drop the filler words.');
const BAD_C = item('water is the new oil of our century', 10, 'A strong metaphor.');
const BAD_R = item('you should slow down when you speak', 50, 'Slow down.');
const evaluation = (commendations, recommendations) => ({ commendations, recommendations });

/** Callbacks answering from a script (values, async functions, throws) and logging calls. */
function scripted(generations, retry) {
  const calls = [];
  return {
    calls,
    callbacks: {
      async generate(request) {
        calls.push(`generate ${request.generation} (${request.reason})`);
        const next = generations.shift();
        if (next === undefined) throw new Error('script exhausted');
        return typeof next === 'function' ? next(request) : next;
      },
      retryItem(request) {
        calls.push(`retry ${request.kind} ${request.index} of generation ${request.generation} (retry ${request.retry})`);
        return retry(request);
      },
    },
  };
}

const statuses = (o) => o.attempts.map((a) => `${a.call}:${a.status}`);

test('a callback that fixes the item on retry', async () => {
  const transcript = fixture('plain.json');
  const { calls, callbacks } = scripted([evaluation([GOOD_C1, BAD_C], [GOOD_R])], async (r) => {
    assert.deepEqual(r.item, BAD_C);
    assert.equal(r.failures[0].check, 'contiguous_match');
    assert.match(r.requirements.instructions, /6 to 15 consecutive words/);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return GOOD_C2;
  });
  const o = await new EvaluationGenerator(transcript, null).run(callbacks);
  assert.deepEqual(calls, ['generate 1 (initial)', 'retry commendation 1 of generation 1 (retry 1)']);
  assert.equal(o.complete, true);
  assert.deepEqual(o.evaluation, evaluation([GOOD_C1, GOOD_C2], [GOOD_R]));
  assert.deepEqual(statuses(o), ['generate:answered', 'retry_item:answered']);
  assert.equal(o.attempts[0].items.length, 3);
  assert.equal(o.attempts[0].items[1].validation.passed, false);
  assert.equal(o.attempts[1].items[0].validation.passed, true);
  assert.deepEqual([o.dropped, o.regenerations, o.warnings], [[], [], []]);
  // the matched spans of the kept items highlight the transcript
  const v = o.validations.commendations[1];
  assert.equal(transcript.text.slice(v.matched.span.utf16_start, v.matched.span.utf16_end), 'So here are three simple ways to save water at home');
});

test('a callback that never fixes it: regeneration, then best effort', async () => {
  const { calls, callbacks } = scripted(
    [evaluation([GOOD_C1, BAD_C], [GOOD_R]), evaluation([BAD_C, GOOD_C2], [GOOD_R])],
    (r) => r.item,
  );
  const o = await new EvaluationGenerator(fixture('plain.json')).run(callbacks);
  assert.deepEqual(calls, [
    'generate 1 (initial)',
    'retry commendation 1 of generation 1 (retry 1)',
    'generate 2 (too_few_valid_items)',
    'retry commendation 0 of generation 2 (retry 1)',
  ]);
  assert.equal(o.complete, false);
  assert.deepEqual(o.evaluation, evaluation([GOOD_C2], [GOOD_R]));
  assert.equal(o.generation, 2);
  assert.equal(o.dropped.length, 2);
  assert.match(o.dropped[0].reason, /^still fails after retry 1: contiguous_match:/);
  assert.equal(o.regenerations[0].reason, 'at most 1 commendation and 1 recommendation can be validated; 2 and 1 are required');
  assert.equal(o.warnings[0].code, 'BEST_EFFORT');
});

test('callbacks that throw or reject are recorded failures, never crashes', async () => {
  const { calls, callbacks } = scripted(
    [evaluation([GOOD_C1, BAD_C, GOOD_C2], [BAD_R]), () => Promise.reject(new RangeError('LLM endpoint timed out'))],
    () => { throw new TypeError('fetch failed'); },
  );
  const o = await new EvaluationGenerator(fixture('plain.json')).run(callbacks);
  assert.deepEqual(calls, [
    'generate 1 (initial)',
    'retry commendation 1 of generation 1 (retry 1)',
    'retry recommendation 0 of generation 1 (retry 1)',
    'generate 2 (too_few_valid_items)',
  ]);
  assert.deepEqual(statuses(o), ['generate:answered', 'retry_item:callback_failed', 'retry_item:callback_failed', 'generate:callback_failed']);
  assert.equal(o.attempts[1].error, 'retryItem threw TypeError: fetch failed');
  assert.equal(o.attempts[3].error, 'generate rejected with RangeError: LLM endpoint timed out');
  assert.deepEqual(o.evaluation, evaluation([GOOD_C1, GOOD_C2], []));
  assert.equal(o.complete, false);
  assert.match(o.warnings[0].message, /0 validated recommendations \(1 required\)/);
});

test('garbage answers are recorded as invalid', async () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const answers = [
    'Sure! Here is your evaluation:',
    evaluation([GOOD_C1, GOOD_C2], [BAD_R]),
  ];
  const retries = [undefined, cyclic];
  const { calls, callbacks } = scripted(answers, () => retries.shift());
  const o = await new EvaluationGenerator(fixture('plain.json'), { max_retries_per_item: 2 }).run(callbacks);
  assert.deepEqual(calls, [
    'generate 1 (initial)',
    'generate 2 (previous_generation_failed)',
    'retry recommendation 0 of generation 2 (retry 1)',
    'retry recommendation 0 of generation 2 (retry 2)',
  ]);
  assert.deepEqual(statuses(o), ['generate:invalid_answer', 'generate:answered', 'retry_item:callback_failed', 'retry_item:callback_failed']);
  assert.match(o.attempts[0].error, /^the answer is not an evaluation: /);
  assert.equal(o.attempts[2].error, 'retryItem returned undefined');
  assert.match(o.attempts[3].error, /^retryItem returned a value that cannot be serialized: TypeError/);
  assert.deepEqual(o.evaluation, evaluation([GOOD_C1, GOOD_C2], []));

  // an item of the wrong shape is an invalid answer too
  const bad = scripted([evaluation([GOOD_C1, GOOD_C2], [BAD_R])], () => ({ evidence_quote: 42, evidence_timestamp: 1 }));
  const o2 = await new EvaluationGenerator(fixture('plain.json')).run(bad.callbacks);
  assert.deepEqual(bad.calls, ['generate 1 (initial)', 'retry recommendation 0 of generation 1 (retry 1)', 'generate 2 (too_few_valid_items)']);
  assert.deepEqual(statuses(o2), ['generate:answered', 'retry_item:invalid_answer', 'generate:callback_failed']);
  assert.match(o2.attempts[1].error, /evidence_quote must be a string/);
});

test('plain values work as well as promises, and `this` is the callbacks object', async () => {
  const host = {
    evaluation: evaluation([GOOD_C1, GOOD_C2], [GOOD_R]),
    generate() { return this.evaluation; },
    retryItem() { throw new Error('not expected'); },
  };
  const o = await new EvaluationGenerator(fixture('talk.srt')).run(host);
  assert.equal(o.complete, true);
  assert.equal(o.validations.recommendations[0].timing, 'segment');
});

test('a callback that never answers times out and is recorded', async () => {
  const calls = [];
  const callbacks = {
    generate(r) { calls.push(`generate ${r.generation}`); return new Promise(() => {}); },
    retryItem() { throw new Error('not expected'); },
  };
  const started = Date.now();
  const o = await new EvaluationGenerator(fixture('plain.json')).run(callbacks, { timeoutMs: 30 });
  assert.ok(Date.now() - started < 5000);
  assert.deepEqual(calls, ['generate 1', 'generate 2']);
  assert.deepEqual(statuses(o), ['generate:callback_failed', 'generate:callback_failed']);
  assert.equal(o.attempts[0].error, 'generate timed out after 30 ms');
  assert.equal(o.generation, null);
  assert.equal(o.warnings[0].code, 'BEST_EFFORT');
  // a quick answer is not affected by the timer
  const quick = scripted([evaluation([GOOD_C1, GOOD_C2], [GOOD_R])], () => { throw new Error('no'); });
  assert.equal((await new EvaluationGenerator(fixture('plain.json')).run(quick.callbacks, { timeoutMs: 5000 })).complete, true);
});

test('run rejects when a callback is missing', async () => {
  const g = new EvaluationGenerator(fixture('plain.json'));
  await assert.rejects(g.run({ generate: async () => evaluation([], []) }), (e) => {
    assert.equal(e.name, 'EvidenceValidatorError');
    assert.equal(e.code, 'CONFIGURATION_ERROR');
    assert.match(e.message, /callbacks\.retryItem must be a function/);
    return true;
  });
  await assert.rejects(g.run({ generate() {}, retryItem() {} }, { timeoutMs: -1 }), (e) => e.code === 'CONFIGURATION_ERROR');
});

test('previewBudget says what would be re-prompted and whether regeneration follows', () => {
  const t = fixture('plain.json');
  const p = t.previewBudget(evaluation([GOOD_C1, BAD_C], [GOOD_R]));
  assert.deepEqual(p.items.map((i) => i.action), ['keep', 'reprompt', 'keep']);
  assert.equal(p.would_regenerate, true);
  assert.equal(p.regeneration_unavoidable, false);
  const v = t.validateEvaluation(evaluation([GOOD_C1, BAD_C], [GOOD_R]));
  assert.deepEqual([v.passed_commendations, v.passed_recommendations], [1, 1]);
});

test('renderScript redacts after validation; validating the redacted quote would fail', async () => {
  const t = fixture('plain.json');
  const intro = item('My name is Dana Whitfield, and today I want to talk', 1.6, 'Dana Whitfield introduces herself.');
  const e = evaluation([intro, GOOD_C2, BAD_C], [GOOD_R]);
  assert.equal(t.validate(intro).passed, true);
  const s = renderScript(t, e, { names: ['Dana Whitfield', 'Dana'] });
  assert.equal(s.redactions, 2);
  assert.equal(s.evaluation.commendations.length, 2, 'the failing item is left out');
  assert.deepEqual(s.omitted.map((o) => [o.kind, o.index]), [['commendation', 2]]);
  assert.equal(s.script.split('\n')[1], 'Commendation 1. someone introduces herself. In your words: "My name is someone, and today I want to talk".');
  assert.ok(!s.script.includes('Dana'));
  assert.ok(!s.script.includes('oil'));
  const wrongOrder = t.validate(s.evaluation.commendations[0]);
  assert.equal(wrongOrder.passed, false);
  assert.equal(wrongOrder.contiguous_match.reason, 'NOT_FOUND');
  // an outcome is accepted directly
  const { callbacks } = scripted([e], (r) => r.item);
  const o = await new EvaluationGenerator(t).run(callbacks);
  const s2 = renderScript(t, o, { names: ['dana'], replacement: '[name]' });
  assert.match(s2.script, /My name is \[name\] Whitfield/);
  assertThrowsCode(() => renderScript(t, e, { names: 'Dana' }), 'CONFIGURATION_ERROR');
});

test('the published types declare the transcript API without any', () => {
  const dts = fs.readFileSync(path.join(pkgDir, 'nodejs', 'evidence_validator.d.ts'), 'utf8');
  for (const expected of [
    'export class Transcript',
    'export class EvaluationGenerator',
    'run(callbacks: EvaluationCallbacks, options?: EvaluationRunOptions | null): Promise<EvaluationOutcome>;',
    'validate(item: EvaluationItem, config?: TranscriptConfig | null): ItemValidation;',
    'export function renderScript(transcript: Transcript, evaluation: StructuredEvaluation | EvaluationOutcome, options?: RedactionOptions | null, config?: TranscriptConfig | null): RenderedScript;',
    'constructor(transcript: Transcript, config?: TranscriptConfig | null);',
    'constructor(input: string | TranscriptJson | object, options?: TranscriptOptions | null);',
    'export interface EvaluationCallbacks',
    'readonly tokens: TranscriptToken[];',
  ]) {
    assert.ok(dts.includes(expected), `missing in the .d.ts: ${expected}`);
  }
});
