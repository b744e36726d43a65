//! The JS surface of spec 001 (transcript evidence): the `Transcript`
//! class (import, validate, metrics), the `EvaluationGenerator` class (the
//! retry budget driven by JS callbacks returning Promises), `renderScript`,
//! and the normalization helpers. Each entry point converts its input, makes
//! core calls, and converts the output; the TypeScript types are below.

use super::host::{self, HostFailure};
use super::{init_panic_hook, parse_arg, to_js, to_js_arg, to_js_error, to_json, DateClock};
use crate::error::{Error, ErrorKind};
use crate::host::{Clock, Deadline};
use crate::transcript::{
    self as core, Action, EvaluationGenerator as Machine, EvaluationItem, ImportOptions, RedactionOptions, RunOptions,
    StructuredEvaluation, Transcript, TranscriptConfig, ValidatedEvaluation,
};
use js_sys::{Function, Reflect, JSON};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(typescript_custom_section)]
const TRANSCRIPT_TYPES: &'static str = r#"
/** How to read a transcript: by content (`auto`), or forced. */
export type TranscriptInputFormat = "auto" | "json" | "srt" | "vtt";

/** The ASR output a transcript was read from. */
export type TranscriptFormat =
  | "whisper_verbose_json" | "whisperx" | "whisper_timestamped" | "whisper_cpp" | "deepgram"
  | "speechmatics" | "aws_transcribe" | "aws_transcribe_call_analytics" | "plain_json" | "srt" | "webvtt";

/** Word level when any word has a timestamp, else segment level. */
export type TimingLevel = "word" | "segment";

/** Options of `new Transcript`. */
export interface TranscriptOptions {
  /** Default `auto`: `WEBVTT` → WebVTT, `{` → JSON, else SRT (or by `fileName`'s extension). */
  format?: TranscriptInputFormat;
  /** A file name whose extension (.json, .srt, .vtt) decides the format when `format` is `auto`. */
  fileName?: string;
  /**
   * Time limit of the import in seconds (default 120, above 0 and at most 86400). Past it the
   * constructor throws `PROCESSING_ERROR` with `details.stopped_at` saying where it stopped.
   */
  maxProcessingTimeSeconds?: number;
}

/**
 * Where something is in `transcript.text`: `text.slice(utf16_start, utf16_end)`
 * in JS; code points (`start`/`end`) and UTF-8 bytes too; 1-based line and column.
 */
export type TranscriptSpan = TextSpan;

/** One recognized word. `start`/`end` are null when the ASR gave none (WhisperX numerals). */
export interface TranscriptWord {
  text: string;
  start: number | null;
  end: number | null;
  confidence?: number;
  speaker?: string;
  /** Index of its segment. */
  segment: number | null;
  span: TranscriptSpan;
}

/** One segment: a Whisper segment, a subtitle cue, a sentence or a turn. */
export interface TranscriptSegment {
  text: string;
  start: number;
  end: number;
  speaker?: string;
  /** Its words are `words.slice(word_start, word_end)`. */
  word_start: number;
  word_end: number;
  span: TranscriptSpan;
}

/** A spec 001 token (lowercase letters and digits) mapped back to its word, segment, times and span. */
export interface TranscriptToken {
  text: string;
  word: number | null;
  segment: number | null;
  start: number | null;
  end: number | null;
  span: TranscriptSpan;
}

/** Input of the plain JSON shape (what `transcript.toJSON()` writes, spans aside). */
export interface TranscriptJson {
  language?: string;
  segments?: { start: number; end: number; text?: string; speaker?: string; words?: TranscriptWordInput[] }[];
  words?: TranscriptWordInput[];
}

/** A word of the plain JSON shape: the text under `text` or `word`. */
export interface TranscriptWordInput {
  text?: string;
  word?: string;
  start?: number | null;
  end?: number | null;
  confidence?: number;
  speaker?: string;
}

/** What `transcript.toJSON()` returns. */
export interface TranscriptData {
  format: TranscriptFormat;
  language?: string;
  timing: TimingLevel;
  text: string;
  words: TranscriptWord[];
  segments: TranscriptSegment[];
  warnings: string[];
}

/** Duration and pace. With segments only, `reduced_timing_precision` is true and a note says so. */
export interface TranscriptMetrics {
  timing: TimingLevel;
  start_seconds: number;
  end_seconds: number;
  duration_seconds: number;
  word_count: number;
  words_per_minute: number | null;
  reduced_timing_precision: boolean;
  notes: string[];
}

/** Thresholds of spec 001 and its retry budget; every field optional (the spec's defaults). */
export interface TranscriptConfig {
  /** Default 6. */
  min_contiguous_tokens?: number;
  /** Default 15. */
  max_quote_tokens?: number;
  /** Default 20. */
  locality_seconds?: number;
  /** Default 2 (the first generation included). */
  max_generations?: number;
  /** Default 1. */
  max_retries_per_item?: number;
  /** Default 2. */
  min_commendations?: number;
  /** Default 1. */
  min_recommendations?: number;
  /**
   * Time limit of one call (validate, validateEvaluation, previewBudget, renderScript, each
   * answer's validation in EvaluationGenerator.run), in seconds: default 120, above 0 and at
   * most 86400. Past it `validate` throws PROCESSING_ERROR; the others keep every item (not
   * passed, reason TIME_LIMIT_EXCEEDED) and name those not checked.
   */
  max_processing_time_seconds?: number;
}

/** A scalar or structure in the extra fields of an item or evaluation. */
export type EvaluationJson = string | number | boolean | null | EvaluationJson[] | { [key: string]: EvaluationJson };

/** One commendation or recommendation with its evidence. Other fields are kept. */
export interface EvaluationItem {
  /** What the evaluator says (read out in the script). */
  text?: string;
  /** A verbatim snippet of the transcript, 6–15 words. */
  evidence_quote: string;
  /** Seconds since speech start of the quote's first word (≥ 0). */
  evidence_timestamp: number;
  /**
   * Who said it: a speaker label of the transcript (WebVTT `<v Name>`, a
   * diarization label). When given, the `speaker` check requires every
   * matched word to carry it (not blank).
   */
  evidence_speaker?: string;
  [key: string]: EvaluationJson | undefined;
}

/** A whole evaluation. Other fields (a summary) are kept. */
export interface StructuredEvaluation {
  commendations: EvaluationItem[];
  recommendations: EvaluationItem[];
  [key: string]: EvaluationJson | EvaluationItem[] | undefined;
}

export type ItemKind = "commendation" | "recommendation";
export type CheckName = "contiguous_match" | "length" | "timestamp_locality" | "speaker";
export type CheckStatus = "passed" | "failed" | "not_evaluated";
export type CheckReason =
  | "MATCHED" | "NOT_FOUND" | "TOO_FEW_TOKENS" | "WITHIN_LIMIT" | "TOO_LONG"
  | "WITHIN_WINDOW" | "OUTSIDE_WINDOW" | "NO_MATCH" | "INVALID_TIMESTAMP" | "NO_TIMESTAMPS"
  | "TIME_LIMIT_EXCEEDED" | "SPEAKER_MATCHED" | "SPEAKER_MISMATCH" | "NO_SPEAKER_LABELS" | "NOT_ASKED";

/** One check's outcome and why. */
export interface EvidenceCheck {
  status: CheckStatus;
  reason: CheckReason;
  message: string;
}

/** What locality was judged on: the first word's start, its segment, or its timed neighbours. */
export interface EvidenceLocality {
  level: TimingLevel;
  basis: "word_start" | "segment" | "neighbouring_words";
  reference_start: number;
  /** null when unbounded (an untimed last word). */
  reference_end: number | null;
  distance_seconds: number;
  within_window: boolean;
}

/** The chosen occurrence of a quote: tokens, words, segments (end exclusive), span and times. */
export interface MatchedSpan {
  token_start: number;
  token_end: number;
  word_start: number | null;
  word_end: number | null;
  segment_start: number | null;
  segment_end: number | null;
  span: TranscriptSpan;
  /** `transcript.text` at `span`. */
  text: string;
  start_time: number | null;
  /** The latest end of the matched words (overlapping speakers), never before `start_time`. */
  end_time: number | null;
  locality: EvidenceLocality | null;
  /** The matched words' speaker labels, each once, in order (absent when the transcript has none). */
  speakers?: string[];
}

export interface QuoteOccurrence {
  token_start: number;
  start_time: number | null;
  distance_seconds: number | null;
  within_window: boolean;
  chosen: boolean;
}

/** The longest run of the quote that does occur, when the whole quote does not. */
export interface PartialQuoteMatch {
  length: number;
  quote_token_start: number;
  token_start: number;
  span: TranscriptSpan;
  text: string;
  start_time: number | null;
}

/** The validation of one item: each check, the matched span, every occurrence. */
export interface ItemValidation {
  passed: boolean;
  timing: TimingLevel;
  quote_tokens: string[];
  /** null when not a finite number. */
  evidence_timestamp: number | null;
  contiguous_match: EvidenceCheck;
  length: EvidenceCheck;
  timestamp_locality: EvidenceCheck;
  /** Only for an item with `evidence_speaker`: every matched word is that speaker's. */
  speaker?: EvidenceCheck;
  failed_checks: CheckName[];
  matched: MatchedSpan | null;
  occurrence_count: number;
  occurrences: QuoteOccurrence[];
  longest_partial_match: PartialQuoteMatch | null;
}

/** The time limit stopped the call: the items it left unchecked (still in the results, not passed). */
export interface TranscriptProcessingError {
  code: "PROCESSING_ERROR";
  message: string;
  /** `commendations[2]`, … */
  affected_items: string[];
}

export interface EvaluationValidation {
  commendations: ItemValidation[];
  recommendations: ItemValidation[];
  passed_commendations: number;
  passed_recommendations: number;
  /** False when the time limit left items unchecked. */
  ok: boolean;
  errors: TranscriptProcessingError[];
}

/** The evidence rules, for the host's prompt. */
export interface EvidenceRequirements {
  min_commendations: number;
  min_recommendations: number;
  min_quote_tokens: number;
  max_quote_tokens: number;
  locality_seconds: number;
  instructions: string;
}

/** `callbacks.generate` is asked for a whole evaluation. */
export interface GenerateRequest {
  generation: number;
  max_generations: number;
  reason: "initial" | "too_few_valid_items" | "previous_generation_failed";
  /** What went wrong in the previous generation, one line each. */
  feedback: string[];
  requirements: EvidenceRequirements;
}

export interface CheckFailure {
  check: CheckName;
  reason: CheckReason;
  message: string;
}

/** `callbacks.retryItem` is asked to rewrite one failing item. */
export interface RetryRequest {
  generation: number;
  kind: ItemKind;
  index: number;
  retry: number;
  item: EvaluationItem;
  failures: CheckFailure[];
  requirements: EvidenceRequirements;
}

/**
 * The host's LLM calls. Either may return a value or a Promise; a callback
 * that throws, rejects or returns something that is not an evaluation (item)
 * is a recorded failure, never a crash. Called with `this` = the callbacks object.
 */
export interface EvaluationCallbacks {
  generate(request: GenerateRequest): Promise<StructuredEvaluation> | StructuredEvaluation;
  retryItem(request: RetryRequest): Promise<EvaluationItem> | EvaluationItem;
}

/** Options of `EvaluationGenerator.run`. */
export interface EvaluationRunOptions {
  /**
   * Longest wait for one callback answer, in milliseconds; a callback still
   * pending then is a recorded failure ("timed out"). Default: no limit.
   */
  timeoutMs?: number;
}

export interface CheckedItem {
  kind: ItemKind;
  index: number;
  item: EvaluationItem;
  validation: ItemValidation;
}

/** One callback call and what came of it. */
export interface EvaluationAttempt {
  sequence: number;
  call: "generate" | "retry_item";
  generation: number;
  kind?: ItemKind;
  index?: number;
  retry?: number;
  status: "answered" | "callback_failed" | "invalid_answer";
  error?: string;
  /** The answered items, validated. */
  items: CheckedItem[];
}

export interface DroppedItem {
  generation: number;
  kind: ItemKind;
  index: number;
  item: EvaluationItem;
  reason: string;
}

export interface ItemRef {
  kind: ItemKind;
  index: number;
}

export interface Regeneration {
  after_generation: number;
  reason: string;
  retries_not_made: ItemRef[];
}

export interface OutcomeWarning {
  /** PROCESSING_ERROR (previewBudget): the time limit left items unchecked. */
  code: "BEST_EFFORT" | "PROCESSING_ERROR";
  message: string;
}

/** The result of `EvaluationGenerator.run`: only validated items (unredacted), and every attempt. */
export interface EvaluationOutcome {
  evaluation: StructuredEvaluation;
  /** Parallel to `evaluation`'s lists. */
  validations: { commendations: ItemValidation[]; recommendations: ItemValidation[] };
  complete: boolean;
  generation: number | null;
  generations_used: number;
  attempts: EvaluationAttempt[];
  dropped: DroppedItem[];
  regenerations: Regeneration[];
  warnings: OutcomeWarning[];
}

/** What the budget would do offline with one evaluation (no LLM asked). */
export interface BudgetPreview {
  items: { kind: ItemKind; index: number; item: EvaluationItem; action: "keep" | "reprompt" | "drop"; validation: ItemValidation }[];
  passed_commendations: number;
  passed_recommendations: number;
  would_regenerate: boolean;
  regeneration_unavoidable: boolean;
  summary: string;
  warnings: OutcomeWarning[];
}

/** Names to redact in the TTS script (whole words, any case); `replacement` defaults to "someone". */
export interface RedactionOptions {
  names: string[];
  replacement?: string;
}

/** The TTS script, names redacted after validation. */
export interface RenderedScript {
  script: string;
  /** The validated evaluation with names redacted: for display, never to be validated. */
  evaluation: StructuredEvaluation;
  redactions: number;
  /** Items left out because they failed validation against the raw transcript. */
  omitted: { kind: ItemKind; index: number; reasons: string[] }[];
}
"#;

fn config(value: Option<JsValue>) -> Result<TranscriptConfig, JsValue> {
    parse_arg(value, ErrorKind::Configuration, "config", TranscriptConfig::from_json)
}

fn evaluation(value: &JsValue) -> Result<StructuredEvaluation, JsValue> {
    let v = to_json(value, ErrorKind::Validation, "evaluation")?;
    // An EvaluationOutcome is accepted too: its `evaluation`.
    let v = match v {
        Value::Object(mut o) if o.contains_key("attempts") && o.get("evaluation").is_some_and(Value::is_object) => {
            o.remove("evaluation").unwrap_or(Value::Null)
        }
        v => v,
    };
    StructuredEvaluation::from_json(&v).map_err(to_js_error)
}

/// A transcript read from ASR output: words and/or segments with times.
#[wasm_bindgen(js_name = Transcript)]
pub struct JsTranscript {
    inner: Transcript,
}

#[wasm_bindgen(js_class = Transcript)]
impl JsTranscript {
    /// Reads a transcript from text (JSON, SRT, WebVTT) or from a parsed JSON
    /// object. Throws an `EvidenceValidatorError` (`DOCUMENT_PARSING_ERROR`
    /// naming the line or JSON path) on malformed input.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | TranscriptJson | object")] input: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptOptions | null")] options: Option<JsValue>,
    ) -> Result<JsTranscript, JsValue> {
        init_panic_hook();
        let options = parse_arg(options, ErrorKind::Configuration, "options", ImportOptions::from_json)?;
        let deadline = Deadline::after(&DateClock, options.max_processing_time_seconds * 1000.0);
        let inner = match input.as_string() {
            Some(text) => core::parse_transcript_within(&text, options.format, &deadline),
            None => {
                let value = to_json(&input, ErrorKind::DocumentParsing, "the transcript")?;
                core::from_json_within(&value, &deadline)
            }
        }
        .map_err(to_js_error)?;
        Ok(JsTranscript { inner })
    }

    /// The source format.
    #[wasm_bindgen(getter, unchecked_return_type = "TranscriptFormat")]
    pub fn format(&self) -> String {
        self.inner.format().name().to_string()
    }

    /// `word` or `segment`.
    #[wasm_bindgen(getter, unchecked_return_type = "TimingLevel")]
    pub fn timing(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.timing())
    }

    /// The language the ASR reported.
    #[wasm_bindgen(getter)]
    pub fn language(&self) -> Option<String> {
        self.inner.language().map(str::to_string)
    }

    /// The display text every span points into.
    #[wasm_bindgen(getter)]
    pub fn text(&self) -> String {
        self.inner.text().to_string()
    }

    /// The words.
    #[wasm_bindgen(getter, unchecked_return_type = "TranscriptWord[]")]
    pub fn words(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.words())
    }

    /// The segments.
    #[wasm_bindgen(getter, unchecked_return_type = "TranscriptSegment[]")]
    pub fn segments(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.segments())
    }

    /// The spec 001 tokens, each mapped back.
    #[wasm_bindgen(getter, unchecked_return_type = "TranscriptToken[]")]
    pub fn tokens(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.tokens())
    }

    /// What the importer accepted with a warning.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.warnings())
    }

    /// Duration and words per minute.
    #[wasm_bindgen(getter, unchecked_return_type = "TranscriptMetrics")]
    pub fn metrics(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.metrics())
    }

    /// The transcript as plain data (the plain JSON shape plus spans).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "TranscriptData")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner)
    }

    /// Validates one item (spec 001: contiguous match, length, locality).
    #[wasm_bindgen(unchecked_return_type = "ItemValidation")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EvaluationItem")] item: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptConfig | null")] config: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let config = self::config(config)?;
        let v = to_json(&item, ErrorKind::Validation, "item")?;
        let item = EvaluationItem::from_json(&v, &Default::default()).map_err(to_js_error)?;
        let deadline = config.deadline(&DateClock);
        to_js(&core::validate_item_within(&self.inner, &item, &config, &deadline).map_err(to_js_error)?)
    }

    /// Validates every item of an evaluation (or of an outcome's).
    #[wasm_bindgen(js_name = validateEvaluation, unchecked_return_type = "EvaluationValidation")]
    pub fn validate_evaluation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StructuredEvaluation | EvaluationOutcome")] evaluation: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptConfig | null")] config: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let config = self::config(config)?;
        let e = self::evaluation(&evaluation)?;
        to_js(&core::validate_evaluation_within(&self.inner, &e, &config, &config.deadline(&DateClock)))
    }

    /// What the retry budget would do with this evaluation (or an outcome's) offline (no LLM asked).
    #[wasm_bindgen(js_name = previewBudget, unchecked_return_type = "BudgetPreview")]
    pub fn preview_budget(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StructuredEvaluation | EvaluationOutcome")] evaluation: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptConfig | null")] config: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let config = self::config(config)?;
        let e = self::evaluation(&evaluation)?;
        to_js(&core::preview_budget_within(&self.inner, &e, &config, &config.deadline(&DateClock)))
    }
}

/// The JS clock as a function, for [`Machine::with_clock`].
fn date_now() -> f64 {
    DateClock.now_ms()
}

/// The retry budget of spec 001 driven by JS callbacks.
#[wasm_bindgen(js_name = EvaluationGenerator)]
pub struct JsEvaluationGenerator {
    transcript: Transcript,
    config: TranscriptConfig,
}

/// Calls `f` on `this` with `request` and awaits the answer as JSON, at most
/// `timeout_ms`; a throw, a rejection, a timeout or an unserializable answer
/// is `Err`.
async fn call(
    f: &Function,
    this: &JsValue,
    request: JsValue,
    name: &str,
    timeout_ms: Option<f64>,
) -> Result<Value, String> {
    let answer = host::call(f, this, &js_sys::Array::of1(&request), timeout_ms).await.map_err(|e| match e {
        HostFailure::Threw(m) => format!("{name} threw {m}"),
        HostFailure::Rejected(m) => format!("{name} rejected with {m}"),
        HostFailure::TimedOut => format!("{name} timed out after {} ms", timeout_ms.unwrap_or(0.0)),
    })?;
    if answer.is_undefined() {
        return Err(format!("{name} returned undefined"));
    }
    let text = JSON::stringify(&answer)
        .map_err(|e| format!("{name} returned a value that cannot be serialized: {}", host::describe(&e)))?
        .as_string()
        .ok_or_else(|| format!("{name} returned a value that cannot be serialized"))?;
    serde_json::from_str(&text).map_err(|e| format!("{name} returned invalid JSON: {e}"))
}

fn callback(callbacks: &JsValue, key: &str) -> Result<Function, JsValue> {
    Reflect::get(callbacks, &key.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| to_js_error(Error::new(ErrorKind::Configuration, format!("callbacks.{key} must be a function"))))
}

#[wasm_bindgen(js_class = EvaluationGenerator)]
impl JsEvaluationGenerator {
    /// A generator validating against `transcript` (raw, unredacted).
    #[wasm_bindgen(constructor)]
    pub fn new(
        transcript: &JsTranscript,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptConfig | null")] config: Option<JsValue>,
    ) -> Result<JsEvaluationGenerator, JsValue> {
        init_panic_hook();
        Ok(JsEvaluationGenerator { transcript: transcript.inner.clone(), config: self::config(config)? })
    }

    /// Runs the retry budget: `callbacks.generate` for whole evaluations,
    /// `callbacks.retryItem` for failing items, one call at a time, each
    /// answer awaited at most `options.timeoutMs`. Resolves with the outcome;
    /// rejects only when `callbacks` lacks a function or the options are bad.
    #[wasm_bindgen(unchecked_return_type = "Promise<EvaluationOutcome>")]
    pub fn run(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EvaluationCallbacks")] callbacks: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EvaluationRunOptions | null")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let mut machine = Machine::new(self.transcript.clone(), self.config.clone()).with_clock(date_now);
        // A promise built here (a `Promise` return's raw ABI type would be `any`).
        Ok(future_to_promise(async move {
            let timeout = parse_arg(options, ErrorKind::Configuration, "options", RunOptions::from_json)?.timeout_ms;
            let generate = callback(&callbacks, "generate")?;
            let retry = callback(&callbacks, "retryItem")?;
            loop {
                // Answers follow the request just polled, so the machine never refuses them.
                let _ = match machine.poll() {
                    Action::Generate(r) => {
                        let answer = call(&generate, &callbacks, to_js_arg(&r)?, "generate", timeout).await;
                        machine.handle_generated_json(answer)
                    }
                    Action::RetryItem(r) => {
                        let answer = call(&retry, &callbacks, to_js_arg(&r)?, "retryItem", timeout).await;
                        machine.handle_retried_json(answer)
                    }
                    Action::Finished(outcome) => return to_js(&outcome),
                };
            }
        })
        .into())
    }

    /// Spec 001's name for [`Self::run`]: the evaluation generated within
    /// the retry budget.
    #[wasm_bindgen(unchecked_return_type = "Promise<EvaluationOutcome>")]
    pub fn generate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EvaluationCallbacks")] callbacks: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EvaluationRunOptions | null")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        self.run(callbacks, options)
    }

    /// Spec 001's `validate`: every item of an evaluation (or of an
    /// outcome's) against this generator's transcript and thresholds.
    #[wasm_bindgen(unchecked_return_type = "EvaluationValidation")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StructuredEvaluation | EvaluationOutcome")] evaluation: JsValue,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let e = self::evaluation(&evaluation)?;
        let deadline = self.config.deadline(&DateClock);
        to_js(&core::validate_evaluation_within(&self.transcript, &e, &self.config, &deadline))
    }

    /// Spec 001's `render_script`: [`render_script`] with this generator's
    /// transcript and thresholds.
    #[wasm_bindgen(js_name = renderScript, unchecked_return_type = "RenderedScript")]
    pub fn render_script(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StructuredEvaluation | EvaluationOutcome")] evaluation: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RedactionOptions | null")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        init_panic_hook();
        let e = self::evaluation(&evaluation)?;
        let redaction = parse_arg(options, ErrorKind::Configuration, "options", RedactionOptions::from_json)?;
        let deadline = self.config.deadline(&DateClock);
        let validated = ValidatedEvaluation::new_within(&self.transcript, &e, &self.config, &deadline);
        to_js(&core::render_script(&validated, &redaction))
    }
}

/// Renders the TTS script: validates `evaluation` (or an outcome's) against
/// the raw transcript first, keeps the items that pass, then redacts
/// `options.names` in the script. Validation never sees redacted text.
#[wasm_bindgen(js_name = renderScript, unchecked_return_type = "RenderedScript")]
pub fn render_script(
    transcript: &JsTranscript,
    #[wasm_bindgen(unchecked_param_type = "StructuredEvaluation | EvaluationOutcome")] evaluation: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "RedactionOptions | null")] options: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "TranscriptConfig | null")] config: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let config = self::config(config)?;
    let e = self::evaluation(&evaluation)?;
    let redaction = parse_arg(options, ErrorKind::Configuration, "options", RedactionOptions::from_json)?;
    let validated = ValidatedEvaluation::new_within(&transcript.inner, &e, &config, &config.deadline(&DateClock));
    to_js(&core::render_script(&validated, &redaction))
}

/// The transcript thresholds and budget as the library applies them (spec
/// 001's defaults), so that hosts copy none.
#[wasm_bindgen(js_name = defaultTranscriptConfig, unchecked_return_type = "Required<TranscriptConfig>")]
pub fn default_transcript_config() -> Result<JsValue, JsValue> {
    to_js(&TranscriptConfig::default())
}

/// Spec 001 normalization: lowercase, punctuation stripped (letters and
/// digits of every script kept), whitespace collapsed and trimmed.
#[wasm_bindgen(js_name = normalizeEvidenceText)]
pub fn normalize_evidence_text(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
    Ok(core::normalize(&super::string_arg(&text, ErrorKind::Validation, "text")?))
}

/// The spec 001 tokens of `text`.
#[wasm_bindgen(js_name = evidenceTokens, unchecked_return_type = "string[]")]
pub fn evidence_tokens(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<JsValue, JsValue> {
    to_js(&core::normalize::tokens(&super::string_arg(&text, ErrorKind::Validation, "text")?))
}
