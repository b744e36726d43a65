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

test("spec 001's names on the generator: generate, validate and renderScript are run, validateEvaluation and renderScript with its transcript and thresholds", async () => {
  const t = fixture('plain.json');
  const config = { max_quote_tokens: 10 };
  const g = new EvaluationGenerator(t, config);
  const e = evaluation([GOOD_C1, GOOD_C2, BAD_C], [GOOD_R]);
  // validate: the generator's own thresholds (at most 10 tokens) apply, as validateEvaluation with them
  assert.deepEqual(g.validate(e), t.validateEvaluation(e, config));
  assert.notDeepEqual(g.validate(e), t.validateEvaluation(e));
  // renderScript: the free function with the generator's transcript and thresholds
  assert.deepEqual(g.renderScript(e, { names: ['Dana'] }), renderScript(t, e, { names: ['Dana'] }, config));
  assertThrowsCode(() => g.renderScript(e, { names: 'Dana' }), 'CONFIGURATION_ERROR');
  // generate: the same calls and outcome as run
  const first = scripted([evaluation([GOOD_C1, BAD_C], [GOOD_R])], () => GOOD_C2);
  const second = scripted([evaluation([GOOD_C1, BAD_C], [GOOD_R])], () => GOOD_C2);
  const viaRun = await g.run(first.callbacks);
  const viaGenerate = await g.generate(second.callbacks);
  assert.deepEqual(second.calls, first.calls);
  assert.deepEqual(viaGenerate.evaluation, viaRun.evaluation);
  assert.deepEqual(statuses(viaGenerate), statuses(viaRun));
});

test('an item naming evidence_speaker passes only on that speaker\'s words (UTF-16 spans around emoji)', () => {
  const vtt = 'WEBVTT\r\n\r\n00:00:01.000 --> 00:00:06.000\r\n<v Alice>😀 Today I want to talk about clean water for every village\r\n\r\n' +
    '00:00:06.500 --> 00:00:12.000\r\n<v Bob>I think we should raise the budget for the pumps next year\r\n';
  const t = new Transcript(vtt, { fileName: 'voices.vtt' });
  const item = { evidence_quote: 'we should raise the budget for the pumps', evidence_timestamp: 7 };
  const bob = t.validate({ ...item, evidence_speaker: 'Bob' });
  assert.equal(bob.passed, true, JSON.stringify(bob.failed_checks));
  assert.equal(bob.speaker.reason, 'SPEAKER_MATCHED');
  assert.deepEqual(bob.matched.speakers, ['Bob']);
  assert.equal(t.text.slice(bob.matched.span.utf16_start, bob.matched.span.utf16_end), bob.matched.text);
  const alice = t.validate({ ...item, evidence_speaker: 'Alice' });
  assert.equal(alice.passed, false);
  assert.deepEqual(alice.failed_checks, ['speaker']);
  assert.equal(alice.speaker.reason, 'SPEAKER_MISMATCH');
  assert.match(alice.speaker.message, /"Bob"/);
  const none = t.validate(item);
  assert.equal(none.passed, true);
  assert.equal(none.speaker, undefined);
  assertThrowsCode(() => t.validate({ ...item, evidence_speaker: ' ' }), 'VALIDATION_ERROR');
  t.free();
});

test('the published types declare the transcript API without any', () => {
  const dts = fs.readFileSync(path.join(pkgDir, 'nodejs', 'evidence_validator.d.ts'), 'utf8');
  for (const expected of [
    'export class Transcript',
    'export class EvaluationGenerator',
    'run(callbacks: EvaluationCallbacks, options?: EvaluationRunOptions | null): Promise<EvaluationOutcome>;',
    'generate(callbacks: EvaluationCallbacks, options?: EvaluationRunOptions | null): Promise<EvaluationOutcome>;',
    'validate(item: EvaluationItem, config?: TranscriptConfig | null): ItemValidation;',
    'export function renderScript(transcript: Transcript, evaluation: StructuredEvaluation | EvaluationOutcome, options?: RedactionOptions | null, config?: TranscriptConfig | null): RenderedScript;',
    'constructor(transcript: Transcript, config?: TranscriptConfig | null);',
    'constructor(input: string | TranscriptJson | object, options?: TranscriptOptions | null);',
    'export interface EvaluationCallbacks',
    'readonly tokens: TranscriptToken[];',
    'evidence_speaker?: string;',
    'speaker?: EvidenceCheck;',
  ]) {
    assert.ok(dts.includes(expected), `missing in the .d.ts: ${expected}`);
  }
});

// Untrusted input (issue 13): line ends, time order, the time limit. Each
// test ends with a later call on good input.

const laterCallWorks = () => {
  const t = fixture('talk.srt');
  const r = t.validate({ evidence_quote: 'today I want to talk about water', evidence_timestamp: 1 });
  assert.equal(r.passed, true, JSON.stringify(r.failed_checks));
  t.free();
};

/** An SRT of `cues` cues, in time order. */
function longSrt(cues) {
  const hms = (s) => [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  const parts = [];
  for (let i = 0; i < cues; i++) {
    parts.push(`${i + 1}\n${hms(2 * i)},000 --> ${hms(2 * i + 1)},500\nword${i} and the river behind our old house again ${i % 7}\n`);
  }
  return parts.join('\n');
}

test('subtitles read alike with CR, LF and CRLF line ends', () => {
  for (const name of ['talk.srt', 'talk.vtt']) {
    const lf = readText(`${DATA}/${name}`).replaceAll('\r\n', '\n');
    const reference = new Transcript(lf, { fileName: name });
    for (const input of [lf.replaceAll('\n', '\r'), lf.replaceAll('\n', '\r\n')]) {
      const t = new Transcript(input, { fileName: name });
      assert.equal(t.text, reference.text, name);
      assert.deepEqual(t.segments.map((s) => [s.start, s.end, s.text]), reference.segments.map((s) => [s.start, s.end, s.text]), name);
      assert.deepEqual(t.warnings, [], name);
      t.free();
    }
    reference.free();
  }
  laterCallWorks();
});

test('words out of time order are refused naming the word; overlapping speakers are not', () => {
  let e = assertThrowsCode(() => new Transcript({ words: [
    { text: 'a', start: 0, end: 0.5 }, { text: 'b', start: 1, end: 1.5 }, { text: 'c', start: 0.7, end: 0.9 },
  ] }), 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.json_path, '$.words[2]');
  assert.equal(e.details.constraint, 'order');
  e = assertThrowsCode(() => new Transcript('1\n00:00:05,000 --> 00:00:06,000\nlater\n\n2\n00:00:01,000 --> 00:00:02,000\nearlier\n'), 'DOCUMENT_PARSING_ERROR');
  assert.equal(e.details.line, 6);
  // two speakers at once: each turn in order, the second starting before the first ends
  const t = new Transcript({ segments: [
    { start: 6, end: 10, speaker: 'customer', words: [
      { text: 'so', start: 6, end: 6.3 }, { text: 'I', start: 6.3, end: 6.5 }, { text: 'was', start: 6.5, end: 7 },
      { text: 'at', start: 7, end: 7.3 }, { text: 'the', start: 8, end: 8.3 }, { text: 'terminal', start: 9, end: 9.9 }] },
    { start: 7.5, end: 9, speaker: 'agent', words: [{ text: 'yeah', start: 7.5, end: 7.8 }, { text: 'mhm', start: 8.5, end: 8.8 }] },
  ] });
  const r = t.validate({ evidence_quote: 'at the terminal yeah mhm', evidence_timestamp: 7 }, { min_contiguous_tokens: 5 });
  assert.equal(r.passed, true);
  assert.deepEqual([r.matched.start_time, r.matched.end_time], [7, 9.9]);
  t.free();
  laterCallWorks();
});

test('the time limit: a typed error or every item accounted for', () => {
  const srt = longSrt(3000);
  // the import
  let e = assertThrowsCode(() => new Transcript(srt, { maxProcessingTimeSeconds: 1e-9 }), 'PROCESSING_ERROR');
  assert.match(e.message, /importing the transcript was not finished/);
  assert.equal(typeof e.details.stopped_at, 'string');
  for (const bad of [0, -1, 86401, 'fast']) {
    assertThrowsCode(() => new Transcript(srt, { maxProcessingTimeSeconds: bad }), 'CONFIGURATION_ERROR');
  }
  const t = new Transcript(srt, { maxProcessingTimeSeconds: 60 });
  assert.equal(t.segments.length, 3000);
  // one item
  const quote = { evidence_quote: 'and the river behind our old house', evidence_timestamp: 2 };
  e = assertThrowsCode(() => t.validate(quote, { max_processing_time_seconds: 1e-9 }), 'PROCESSING_ERROR');
  assert.match(e.message, /validating the item/);
  for (const bad of [0, 86401, '1', null]) {
    assertThrowsCode(() => t.validate(quote, { max_processing_time_seconds: bad }), 'CONFIGURATION_ERROR');
  }
  assert.equal(t.validate(quote).passed, true);
  // an evaluation: every item in the result, those not checked named
  const items = Array.from({ length: 20 }, (_, i) => ({ evidence_quote: 'and the river behind our old house', evidence_timestamp: 2 * i }));
  const v = t.validateEvaluation({ commendations: items, recommendations: items }, { max_processing_time_seconds: 1e-9 });
  assert.equal(v.ok, false);
  assert.equal(v.commendations.length + v.recommendations.length, 40);
  assert.equal(v.errors[0].code, 'PROCESSING_ERROR');
  const affected = new Set(v.errors[0].affected_items);
  const labelled = [...v.commendations.map((r, i) => [`commendations[${i}]`, r]), ...v.recommendations.map((r, i) => [`recommendations[${i}]`, r])];
  for (const [label, r] of labelled) {
    assert.equal(affected.has(label), r.contiguous_match.reason === 'TIME_LIMIT_EXCEEDED', label);
    if (affected.has(label)) assert.equal(r.passed, false);
  }
  assert.ok(affected.size > 0);
  const p = t.previewBudget({ commendations: items, recommendations: items }, { max_processing_time_seconds: 1e-9 });
  assert.equal(p.items.length, 40);
  assert.ok(p.warnings.some((w) => w.code === 'PROCESSING_ERROR'), JSON.stringify(p.warnings));
  const ok = t.validateEvaluation({ commendations: items.slice(0, 2), recommendations: items.slice(0, 1) });
  assert.equal(ok.ok, true);
  assert.deepEqual(ok.errors, []);
  t.free();
  laterCallWorks();
});

test('the retry budget validates each answer within the time limit', async () => {
  const t = new Transcript(longSrt(3000));
  const items = Array.from({ length: 30 }, () => ({ evidence_quote: 'and the river behind our old house', evidence_timestamp: 2 }));
  const requests = [];
  const o = await new EvaluationGenerator(t, { max_processing_time_seconds: 1e-9, max_generations: 1, min_recommendations: 0 }).run({
    generate: () => ({ commendations: items, recommendations: [] }),
    retryItem: (r) => { requests.push(r); throw new Error('no retry'); },
  });
  const reasons = o.attempts[0].items.map((c) => c.validation.contiguous_match.reason);
  assert.ok(reasons.includes('TIME_LIMIT_EXCEEDED'), reasons.join());
  assert.ok(requests.every((r) => r.failures.every((f) => f.reason === 'TIME_LIMIT_EXCEEDED')));
  // without a tight limit all pass
  const o2 = await new EvaluationGenerator(t, { min_recommendations: 0 }).run({
    generate: () => ({ commendations: items, recommendations: [] }),
    retryItem: () => { throw new Error('not needed'); },
  });
  assert.equal(o2.complete, true);
  assert.equal(o2.evaluation.commendations.length, 30);
  t.free();
  laterCallWorks();
});

test('the worst import stops within 2 s of its limit', () => {
  const srt = longSrt(200_000);
  const started = Date.now();
  const e = assertThrowsCode(() => new Transcript(srt, { maxProcessingTimeSeconds: 0.05 }), 'PROCESSING_ERROR');
  const took = (Date.now() - started) / 1000;
  assert.ok(took < 2.05, `took ${took} s`);
  assert.equal(typeof e.details.stopped_at, 'string');
  laterCallWorks();
});

test('the published types declare the time limit', () => {
  const dts = fs.readFileSync(path.join(pkgDir, 'nodejs', 'evidence_validator.d.ts'), 'utf8');
  for (const expected of ['max_processing_time_seconds?: number;', 'maxProcessingTimeSeconds?: number;', '"TIME_LIMIT_EXCEEDED"', 'errors: TranscriptProcessingError[];']) {
    assert.ok(dts.includes(expected), `missing in the .d.ts: ${expected}`);
  }
});
