//! The JS API of the judge (spec 002) and of findings (spec 003). Each
//! function converts its JS input, runs the core, converts the output; the
//! options are the core's [`JudgeOptions`]; the only thing done here beyond
//! that is calling the host's judge functions (all at once, each through
//! [`host::call`] with its timeout) and its log callback.

use super::host::{self, HostFailure};
use super::{init_panic_hook, string_arg, to_js, to_js_arg, to_js_error, to_json, DateClock};
use crate::error::{Error, ErrorKind};
use crate::finding::{self, Finding, FindingVerifier, NewFinding};
use crate::host::{rfc3339, Clock};
use crate::judge::citations::{
    parse_citations, parse_report, BatchReport, Citation, CitationResult, CitedFiles, Lookup,
};
use crate::judge::jury::JurorFailure;
use crate::judge::lines::{parse_line_number, LineIndex};
use crate::judge::log::LogBook;
use crate::judge::{self, quote, ClaimRequest, JudgeCall, JudgeOptions, JudgeResult, Verification, JURY_INSTRUCTIONS};
use js_sys::{Array, Function, Object, Reflect};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(typescript_custom_section)]
const JUDGE_TYPES: &'static str = r#"
/**
 * A juror: gets the spec's prompt (and, second, the instructions to send as
 * the system message) and answers with the model's raw text. JSON, fenced
 * JSON, a whole chat-completion body, or plain words ("VALID") are read.
 * Throwing, rejecting or exceeding the timeout makes the juror a recorded
 * failure, never an exception of verifyClaim.
 */
export type JudgeFunction = (prompt: string, context: JudgeCallContext) => Promise<string> | string;

/** The second argument of a JudgeFunction. */
export interface JudgeCallContext {
  /** The juror's name. */
  judge: string;
  /** The instructions: what to answer and in which JSON form (send as the system message). */
  system: string;
}

/** A juror with its own timeout. */
export interface JurorSpec {
  name: string;
  ask: JudgeFunction;
  /** Overrides JudgeOptions.timeoutMs for this juror. */
  timeoutMs?: number;
}

/** One prompt/response exchange, for the host's log (spec 002 "Logging"). */
export interface JudgeLogEntry {
  /** The log name (JudgeOptions.reportName, or the report's for verifyReport). */
  report: string;
  judge: string;
  /** The case (claim) number, from 1, the same for every juror asked about one claim (counted per verifyClaim/verifyReport call). */
  number: number;
  /** `<judge>_NNNN.txt`, the CLI's file name for this entry. */
  file_name: string;
  system: string;
  prompt: string;
  /** The raw answer; null when the juror failed. */
  response: string | null;
  /** Why there is no answer (error message, `timed out after N ms`). */
  error: string | null;
  /** The whole entry as the CLI writes it (=== SYSTEM === / === PROMPT === / === RESPONSE ===). */
  text: string;
}

/** Options of verifyClaim and verifyReport; every field is optional. */
export interface JudgeOptions {
  /** The jury: name → function (in insertion order), or a list. None: steps 1 and 2 only. */
  judges?: Record<string, JudgeFunction> | JurorSpec[];
  /** Milliseconds each juror may take (default 120000). */
  timeoutMs?: number;
  /** Called once per exchange with a juror. Whatever it throws is ignored. */
  log?: (entry: JudgeLogEntry) => void;
  /** Step 2 passes at this score, 0–1 (default 0.8). */
  threshold?: number;
  /** Lines of context before and after the cited lines (default 5). */
  contextLines?: number;
  /** CPython's autojunk heuristic in step 2 (default false: it makes scores meaningless on 200+ characters). */
  autojunk?: boolean;
  /**
   * Compare a quote that passes the score without being verbatim word by
   * word with the cited text, and fail step 2 when it changes a number,
   * negation or word (default true; false: the spec's score alone).
   */
  compareWords?: boolean;
  /** Name used in log entries (default "judge"; verifyReport: "report"). */
  reportName?: string;
}

/** The judge's defaults as the library applies them (`defaultJudgeOptions()`). */
export interface DefaultJudgeOptions {
  threshold: number;
  contextLines: number;
  autojunk: boolean;
  compareWords: boolean;
  timeoutMs: number;
}

/** The judge's default options (step-2 threshold, context lines, autojunk, juror timeout), so that hosts copy none. */
export function defaultJudgeOptions(): DefaultJudgeOptions;

/** An inclusive range of a numeric option. */
export interface OptionBounds {
  min: number;
  max: number;
}

/** The ranges the judge's options accept (`judgeOptionBounds()`); outside them a call throws CONFIGURATION_ERROR. */
export interface JudgeOptionBounds {
  threshold: OptionBounds;
  contextLines: OptionBounds;
  timeoutMs: OptionBounds;
}

/** The ranges the judge's numeric options accept, so that a form writes no bound of its own. */
export function judgeOptionBounds(): JudgeOptionBounds;

/** Options of the synchronous steps-1-and-2 functions. */
export interface JudgeStepOptions {
  threshold?: number;
  contextLines?: number;
  autojunk?: boolean;
  /** Refuse a quote that passes the score but changes a number, negation or word (default true). */
  compareWords?: boolean;
}

/** One claim to judge (the spec's CLI arguments, plus the file's text). */
export interface ClaimToJudge {
  claim: string;
  quote: string;
  /** The cited file's name. */
  filename: string;
  /** First cited line (1-based); or give `lines`. */
  start_line?: number;
  /** Last cited line (default start_line). */
  end_line?: number;
  /** `L13326-L13328` or `L13326`, instead of start_line/end_line. */
  lines?: string;
  /** The cited file's text; null or absent: the file does not exist (FILE_NOT_FOUND). */
  source?: string | null;
  /** Why the host could not read the file (used in the error when source is absent). */
  source_error?: string;
}

/** A juror's verdict. */
export type JurorVerdict = "VALID" | "MISLEADING" | "INSUFFICIENT" | "UNSUPPORTED";
/** The jury's verdict. */
export type SemanticVerdict = JurorVerdict | "HUNG_JURY" | "LLM_ERROR";
/** The final verdict of one check. */
export type JudgeVerdict = SemanticVerdict | "QUOTE_NOT_FOUND" | "FILE_NOT_FOUND" | "LINES_OUT_OF_RANGE" | "JURY_NOT_CONVENED";

/** One juror's answer, read. */
export interface JudgeBallot {
  verdict: JurorVerdict;
  substantive_quote: boolean;
  quote_in_context: boolean;
  supports_claim: boolean;
  reason: string;
}

/** step_3_semantic of the spec's output. */
export interface SemanticOutcome {
  verdict: SemanticVerdict;
  substantive_quote: boolean;
  quote_in_context: boolean;
  supports_claim: boolean;
  /** E.g. `Consensus (2/2): VALID: ...`, `Majority (2/3): ...`, `Hung jury (2 ballots): 1 INSUFFICIENT, 1 VALID`. */
  reason: string;
}

/** One juror's vote. */
export interface JuryVote {
  judge: string;
  /** Null when the juror failed. */
  ballot: JudgeBallot | null;
  /** Why there is no ballot: the call's error, `timed out after N ms`, or `abstained: ...`. */
  error: string | null;
  /** The juror answered without a verdict (only reasoning, alternatives, questions, garbage). */
  abstained: boolean;
  elapsed_ms: number | null;
}

/** Who sat on the jury and how they voted. */
export interface JuryReport {
  /** False with no jurors, or when step 1 failed. */
  convened: boolean;
  jurors: string[];
  votes: JuryVote[];
  tally: Partial<Record<JurorVerdict, number>>;
  answered: number;
  /** Jurors without a ballot: failed, timed out or abstained. */
  failed: number;
  /** Jurors that answered without a verdict (counted in `failed` too). */
  abstained: number;
}

/**
 * What a quote changes from the cited text: a number, a negation or a word
 * (case, punctuation, typography and misspellings are not changes).
 */
export interface QuoteChange {
  change: "number" | "negation" | "word";
  /** Why, in a few words: "number", "negation", "word", "words", "pronoun", … */
  reason: string;
  /** The quote's text there ("" when the quote leaves the source's text out). */
  quote: string;
  /** The cited text there ("" when the quote adds text). */
  source: string;
  /** The file's line (1-based) of the source's text. */
  line: number;
}

/** The output of one check (spec 002 "Output structure", plus request, context and votes). */
export interface JudgeResult {
  step_1_existence: boolean;
  step_2_quote_match: boolean;
  quote_score: number;
  /** Null when the jury was not convened. */
  step_3_semantic: SemanticOutcome | null;
  verdict: JudgeVerdict;
  /** verdict === "VALID". */
  verified: boolean;
  /** The cited lines with their tags (`[L13326] ...`). */
  text_found: string;
  /** Step 1's error, else its note (cited lines past the end of the file), and why step 2 refused a quote it could not compare. */
  error: string | null;
  /**
   * For a quote that scored at least the threshold without being verbatim:
   * each number, negation or word it changes from the closest passage of
   * the cited text (step 2 then fails: QUOTE_NOT_FOUND). Absent when none.
   */
  quote_changes?: QuoteChange[];
  /** Where step 2 found the quote (or the passage it changes), `L<a>-L<b>`; absent when it found none or did not look. */
  quote_lines?: string;
  /** The quote is wholly outside the cited lines (in the context before them, which step 2 searches too): the citation names the wrong lines. */
  quote_outside_cited_lines: boolean;
  claim: string;
  quote: string;
  filename: string;
  /** `L<start>-L<end>`. */
  cited_lines: string;
  threshold: number;
  context: { cited_text: string; context_before: string; context_after: string; line_count: number; past_end?: string } | null;
  jury: JuryReport;
}

/** The prompt a jury would get, and its instructions. */
export interface JudgePrompt {
  system: string;
  /** Null when step 1 fails (no lines to show). */
  prompt: string | null;
}

/** A `[file:Lx-Ly](path)` citation of a report, with the claim it backs. */
export interface ReportCitation {
  index: number;
  file: string;
  path: string;
  start_line: number;
  end_line: number;
  markdown: string;
  report_line: number;
  byte_offset: number;
  claim: string;
  quote: string;
}

/** The sources of verifyReport: file name → text, or a function finding a citation's text. */
export type ReportSources =
  | Record<string, string>
  | ((citation: ReportCitation) => string | null | undefined | Promise<string | null | undefined>);

/** Batch summary (spec 002: verdict counts, verification rate). */
export interface BatchSummary {
  /** Citations checked (invalid ones counted apart, in `invalid`). */
  total: number;
  verified: number;
  /** verified / (total + invalid): an invalid citation is not verified. */
  verification_rate: number;
  verdicts: Partial<Record<JudgeVerdict, number>>;
  jury_convened: boolean;
  /** Citations with a wrong line range (see BatchReport.invalid_citations). */
  invalid: number;
}

/** Citation markup whose line range is wrong (L7-L5, L0, a number too large): reported, never checked. */
export interface InvalidCitation {
  /** Position among the invalid citations, from 1. */
  index: number;
  file: string;
  path: string;
  /** The range as written, e.g. "L7-L5". */
  range: string;
  /** What is wrong, e.g. "start line 7 is after end line 5". */
  problem: string;
  markdown: string;
  report_line: number;
  byte_offset: number;
}

/** One citation's result. */
export interface CitationCheck {
  citation: ReportCitation;
  /** The name its source was found under; null when not found. */
  resolved_file: string | null;
  result: JudgeResult;
}

/** The verification of a whole report. */
export interface BatchReport {
  report: string;
  generated_at: string;
  summary: BatchSummary;
  results: CitationCheck[];
  /** Every citation with a wrong line range, with what is wrong and where. A strict caller fails when this is not empty. */
  invalid_citations: InvalidCitation[];
  /** The same, as readable markdown. */
  markdown: string;
}

/** The fields of a Finding (spec 003). */
export interface FindingFields {
  category: string;
  title: string;
  content: string;
  source_url: string;
  /** RFC 3339 timestamp (a Date is converted). */
  extracted_at: string | Date;
  /** The quote the finding rests on: required, at least 20 characters. */
  extraction_span: string;
  /** SHA-256 (hex) of the whitespace-normalized span. */
  extraction_span_hash: string;
  char_offsets?: [number, number] | null;
  relevance_score: number;
  recency_score: number;
  trust_score: number;
}

/** What `Finding.toJSON()` returns: the fields as stored, `extracted_at` an RFC 3339 string, `char_offsets` null when absent. */
export interface FindingData extends FindingFields {
  extracted_at: string;
  char_offsets: [number, number] | null;
}

/** A Finding's fields without the hash (Finding.createWithHash computes it). */
export type NewFindingFields = Omit<FindingFields, "extraction_span_hash">;

/** Result of verifyFinding (spec 003 VerificationResult). */
export interface VerificationResult {
  valid: boolean;
  /** "All checks passed", or what failed. */
  reason: string;
  confidence: number;
}

/**
 * Judges one claim (spec 002): the cited lines exist (step 1), the quote is in
 * them (step 2: CPython-difflib score >= threshold), and the jury agrees the
 * source supports the claim (step 3; skipped without judges). Rejects with an
 * EvidenceValidatorError only for bad input or options; failing judges are
 * recorded in the result.
 */
export function verifyClaim(request: ClaimToJudge, options?: JudgeOptions | null): Promise<JudgeResult>;

/** Steps 1 and 2 only, synchronously (verdict JURY_NOT_CONVENED when the quote is found). */
export function checkClaim(request: ClaimToJudge, options?: JudgeStepOptions | null): JudgeResult;

/** The prompt a jury would get for this claim, and the instructions sent with it. */
export function judgePrompt(request: ClaimToJudge, options?: JudgeStepOptions | null): JudgePrompt;

/** The instructions sent to every juror (as the system message, or `context.system`). */
export function juryInstructions(): string;

/** The step-2 score: longest matching block of the normalized texts over the normalized quote's length (equal to CPython difflib). */
export function quoteScore(quote: string, area: string, autojunk?: boolean | null): number;

/** The judge's normalization: line tags like [L12] removed, lowercased, whitespace collapsed, trimmed. */
export function normalizeJudgeText(text: string): string;

/** Reads a juror's raw answer; throws a VALIDATION_ERROR when it cannot be read. */
export function parseJudgeAnswer(raw: string): JudgeBallot;

/** Every [file:Lx-Ly](path) citation of a markdown report, with the claim it backs and the quote checked. */
export function parseCitations(markdown: string): ReportCitation[];

/** Judges every citation of a markdown report (spec 002 batch verification), one after another, each with the whole jury. */
export function verifyReport(markdown: string, sources: ReportSources, options?: JudgeOptions | null): Promise<BatchReport>;

/**
 * Verifies a finding against its source's text or HTML (spec 003
 * FindingVerifier.verify_finding): the finding is valid, its span is in the
 * source, and (market_intelligence, competitive_analysis) its numbers agree
 * with the span's. Synchronous: it does no I/O.
 */
export function verifyFinding(finding: Finding | FindingFields, sourceContent: string): VerificationResult;

/** A finding (spec 003): evidence that carries the quote it rests on. */
export class Finding {
  /** A finding from its fields, unchecked (call validate()). Throws a VALIDATION_ERROR for a wrong type or an unknown field. */
  constructor(fields: FindingFields);
  /** The spec's factory: a finding with extraction_span_hash computed. */
  static createWithHash(fields: NewFindingFields): Finding;
  /** SHA-256 (hex) of the whitespace-normalized span. */
  static computeHash(span: string): string;
  /** Releases the wasm memory held by this finding. */
  free(): void;
  [Symbol.dispose](): void;
  /** Throws a VALIDATION_ERROR with the spec's message (e.g. "extraction_span too short: 5 chars (min 20)") when invalid. */
  validate(): void;
  /** The fields as a plain object (what JSON.stringify gives). */
  toJSON(): FindingData;
  readonly category: string;
  readonly title: string;
  readonly content: string;
  readonly source_url: string;
  readonly extracted_at: string;
  readonly extraction_span: string;
  readonly extraction_span_hash: string;
  readonly char_offsets: [number, number] | null;
  readonly relevance_score: number;
  readonly recency_score: number;
  readonly trust_score: number;
}
"#;

/// A `CONFIGURATION_ERROR` for JS.
fn config_error(message: String) -> JsValue {
    to_js_error(Error::new(ErrorKind::Configuration, message))
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() || obj.is_function() {
        Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn is_absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// The options, read by the core ([`JudgeOptions`]); here only what JSON
/// cannot hold: the jurors' functions (in the order of `options.jurors`)
/// and the log callback.
struct Options {
    options: JudgeOptions,
    asks: Vec<Function>,
    log: Option<Function>,
}

/// Splits the JS options into their data (parsed by the core) and their
/// functions: `judges` (a name → function object, or `[{name, ask,
/// timeoutMs?}]`) becomes `[{name, timeoutMs?}]` and the `ask`s; `log` is
/// checked to be a function.
fn read_options(options: &JsValue, call: JudgeCall) -> Result<Options, JsValue> {
    let mut asks = Vec::new();
    let mut log = None;
    let mut data = serde_json::Map::new();
    if !is_absent(options) {
        if !options.is_object() {
            return Err(config_error("options must be an object".into()));
        }
        for entry in Object::entries(&Object::from(options.clone())).iter() {
            let pair = Array::from(&entry);
            let key = pair.get(0).as_string().unwrap_or_default();
            let value = pair.get(1);
            let json = match key.as_str() {
                "judges" if call == JudgeCall::Jury && !is_absent(&value) => jurors(&value, &mut asks)?,
                "log" if call == JudgeCall::Jury && !is_absent(&value) => {
                    log = Some(
                        value
                            .dyn_into::<Function>()
                            .map_err(|_| config_error("options.log must be a function".into()))?,
                    );
                    Value::Bool(true)
                }
                _ => to_json(&value, ErrorKind::Configuration, "options")?,
            };
            data.insert(key, json);
        }
    }
    let options = JudgeOptions::from_json(&Value::Object(data), call).map_err(to_js_error)?;
    Ok(Options { options, asks, log })
}

/// `options.judges` as `[{name, timeoutMs?}]`, its functions into `asks`.
fn jurors(judges: &JsValue, asks: &mut Vec<Function>) -> Result<Value, JsValue> {
    let mut list = Vec::new();
    if Array::is_array(judges) {
        for (i, spec) in Array::from(judges).iter().enumerate() {
            let ask = get(&spec, "ask")
                .dyn_into::<Function>()
                .map_err(|_| config_error(format!("options.judges[{i}].ask must be a function")))?;
            let mut juror = serde_json::Map::new();
            if spec.is_object() {
                for entry in Object::entries(&Object::from(spec.clone())).iter() {
                    let pair = Array::from(&entry);
                    let key = pair.get(0).as_string().unwrap_or_default();
                    if key != "ask" {
                        juror.insert(key, to_json(&pair.get(1), ErrorKind::Configuration, "options.judges")?);
                    }
                }
            }
            asks.push(ask);
            list.push(Value::Object(juror));
        }
    } else if judges.is_object() && !judges.is_function() {
        for entry in Object::entries(&Object::from(judges.clone())).iter() {
            let pair = Array::from(&entry);
            let name = pair.get(0).as_string().unwrap_or_default();
            let ask = pair
                .get(1)
                .dyn_into::<Function>()
                .map_err(|_| config_error(format!("options.judges.{name} must be a function")))?;
            asks.push(ask);
            list.push(serde_json::json!({ "name": name }));
        }
    } else {
        return Err(config_error("options.judges must be an object of functions or an array of {name, ask}".into()));
    }
    Ok(Value::Array(list))
}

/// The request as JSON.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsClaim {
    claim: String,
    quote: String,
    filename: String,
    #[serde(default)]
    start_line: Option<usize>,
    #[serde(default)]
    end_line: Option<usize>,
    #[serde(default)]
    lines: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    source_error: Option<String>,
}

/// The request and the source (or why there is none).
fn read_claim(request: &JsValue) -> Result<(ClaimRequest, Result<String, String>), JsValue> {
    let json = to_json(request, ErrorKind::Validation, "request")?;
    let c: JsClaim = serde_json::from_value(json)
        .map_err(|e| to_js_error(Error::new(ErrorKind::Validation, format!("request: {e}"))))?;
    let bad_lines = |what: String| to_js_error(Error::new(ErrorKind::Validation, what));
    let (start, end) = match (&c.lines, c.start_line) {
        (Some(lines), None) => {
            let (a, b) = lines.split_once('-').unwrap_or((lines, lines));
            match (parse_line_number(a), parse_line_number(b)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(bad_lines(format!("request.lines {lines:?} is not a range like L12-L14 or L12"))),
            }
        }
        (None, Some(s)) => (s, c.end_line.unwrap_or(s)),
        (Some(_), Some(_)) => return Err(bad_lines("give request.lines or request.start_line, not both".into())),
        (None, None) => return Err(bad_lines("request needs start_line (and end_line) or lines".into())),
    };
    let source = c.source.ok_or_else(|| c.source_error.unwrap_or_else(|| "the host gave no text for this file".into()));
    Ok((ClaimRequest::new(c.claim, c.quote, c.filename, start, end), source))
}

/// Awaits every future, polling them all (they run concurrently).
struct JoinAll<F: Future> {
    futures: Vec<Option<Pin<Box<F>>>>,
    outputs: Vec<Option<F::Output>>,
}

impl<F: Future> Future for JoinAll<F>
where
    F::Output: Unpin,
{
    type Output = Vec<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        for (slot, out) in this.futures.iter_mut().zip(this.outputs.iter_mut()) {
            if let Some(f) = slot {
                if let Poll::Ready(v) = f.as_mut().poll(cx) {
                    *out = Some(v);
                    *slot = None;
                }
            }
        }
        if this.outputs.iter().all(Option::is_some) {
            Poll::Ready(this.outputs.iter_mut().filter_map(Option::take).collect())
        } else {
            Poll::Pending
        }
    }
}

/// What a juror is told besides the prompt (`JudgeCallContext` in JS).
#[derive(Serialize)]
struct CallContext<'a> {
    judge: &'a str,
    system: &'a str,
}

/// Asks one juror, at most `timeout_ms`.
async fn ask(
    func: Option<Function>,
    name: String,
    system: String,
    prompt: String,
    timeout_ms: u64,
) -> (Result<String, JurorFailure>, f64) {
    let t0 = DateClock.now_ms();
    let answer = match (func, to_js_arg(&CallContext { judge: &name, system: &system })) {
        (Some(func), Ok(ctx)) => {
            host::call(&func, &JsValue::NULL, &Array::of2(&prompt.into(), &ctx), Some(timeout_ms as f64)).await
        }
        (None, _) => Err(HostFailure::Threw("no function was given for this juror".into())),
        (_, Err(e)) => Err(HostFailure::Threw(host::describe(&e))),
    };
    let outcome = match answer {
        Err(HostFailure::TimedOut) => Err(JurorFailure::Timeout { after_ms: timeout_ms }),
        Err(HostFailure::Threw(m)) => Err(JurorFailure::Error(format!("the judge threw: {m}"))),
        Err(HostFailure::Rejected(m)) => Err(JurorFailure::Error(format!("the judge rejected: {m}"))),
        Ok(v) => match v.as_string() {
            Some(s) => Ok(s),
            None if is_absent(&v) => Err(JurorFailure::Error("the judge returned no text".into())),
            // an object: read it as the JSON it would print as
            None => js_sys::JSON::stringify(&v)
                .ok()
                .and_then(|s| s.as_string())
                .ok_or_else(|| JurorFailure::Error("the judge returned something that is not text".into())),
        },
    };
    (outcome, DateClock.now_ms() - t0)
}

/// One check: steps 1 and 2, then every juror at once; logs each exchange.
async fn verify_one(
    request: ClaimRequest,
    source: Result<(&str, &LineIndex), String>,
    options: &Options,
    book: &mut LogBook,
    report: &str,
) -> Result<JudgeResult, JsValue> {
    let jury = &options.options;
    let names = jury.jurors.iter().map(|j| j.name.clone()).collect();
    let mut check = Verification::with_lines(request, source, &jury.config, names).map_err(to_js_error)?;
    let requests = check.requests();
    let futures = requests
        .iter()
        .map(|r| {
            let own = jury.jurors.get(r.index).and_then(|j| j.timeout_ms);
            Some(Box::pin(ask(
                options.asks.get(r.index).cloned(),
                r.judge.clone(),
                r.system.clone(),
                r.prompt.clone(),
                own.unwrap_or(jury.config.timeout_ms),
            )))
        })
        .collect::<Vec<_>>();
    let outputs = vec![None; futures.len()];
    let answers = JoinAll { futures, outputs }.await;
    for (r, (outcome, elapsed)) in requests.iter().zip(answers) {
        let entry = book.entry(&r.judge, &r.system, &r.prompt, &outcome);
        if let Some(log) = &options.log {
            if let Ok(obj) = to_js_arg(&entry) {
                let _ = Reflect::set(&obj, &"report".into(), &report.into());
                // the host's log failing must not fail the check
                let _ = log.call1(&JsValue::NULL, &obj);
            }
        }
        check.record(r.index, outcome, Some(elapsed));
    }
    Ok(check.finish())
}

/// Judges one claim (spec 002): the cited lines exist (step 1), the quote
/// is in them (step 2, CPython-difflib score ≥ threshold), and the jury
/// agrees the source supports the claim (step 3; skipped without judges).
/// Rejects with an `EvidenceValidatorError` only for bad input or options;
/// failing judges are recorded in the result.
#[wasm_bindgen(js_name = verifyClaim, skip_typescript)]
pub fn verify_claim(request: JsValue, options: Option<JsValue>) -> Result<JsValue, JsValue> {
    init_panic_hook();
    // a promise built here (not an `async fn` export, whose raw ABI type
    // would be `any`); every error rejects it
    Ok(future_to_promise(async move {
        let options = read_options(&options.unwrap_or(JsValue::NULL), JudgeCall::Jury)?;
        let (request, source) = read_claim(&request)?;
        let mut book = LogBook::new();
        let report = options.options.report_name.clone().unwrap_or_else(|| "judge".into());
        let result = match &source {
            Ok(text) => {
                let index = LineIndex::new(text);
                verify_one(request, Ok((text, &index)), &options, &mut book, &report).await?
            }
            Err(e) => verify_one(request, Err(e.clone()), &options, &mut book, &report).await?,
        };
        to_js(&result)
    })
    .into())
}

/// Steps 1 and 2 only, synchronously (the verdict is `JURY_NOT_CONVENED`
/// when the quote is found).
#[wasm_bindgen(js_name = checkClaim, skip_typescript)]
pub fn check_claim(request: JsValue, options: Option<JsValue>) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let options = read_options(&options.unwrap_or(JsValue::NULL), JudgeCall::Steps)?;
    let (request, source) = read_claim(&request)?;
    let result = judge::check_without_jury(request, source.as_deref().map_err(Clone::clone), &options.options.config)
        .map_err(to_js_error)?;
    to_js(&result)
}

/// The prompt the jury would get for this claim, and the instructions.
#[wasm_bindgen(js_name = judgePrompt, skip_typescript)]
pub fn judge_prompt(request: JsValue, options: Option<JsValue>) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let options = read_options(&options.unwrap_or(JsValue::NULL), JudgeCall::Steps)?;
    let (request, source) = read_claim(&request)?;
    let check =
        Verification::new(request, source.as_deref().map_err(Clone::clone), &options.options.config, Vec::new())
            .map_err(to_js_error)?;
    to_js(&serde_json::json!({"system": JURY_INSTRUCTIONS, "prompt": check.prompt()}))
}

/// The step-2 score: longest matching block of the normalized quote and
/// area over the quote's length (equal to CPython difflib).
#[wasm_bindgen(js_name = quoteScore, skip_typescript)]
pub fn quote_score(quote: JsValue, area: JsValue, autojunk: Option<bool>) -> Result<f64, JsValue> {
    init_panic_hook();
    let quote = string_arg(&quote, ErrorKind::Validation, "quote")?;
    let area = string_arg(&area, ErrorKind::Validation, "area")?;
    Ok(quote::quote_score(&quote, &area, autojunk.unwrap_or(false)))
}

/// The judge's normalization: line tags removed, lowercased, whitespace collapsed.
#[wasm_bindgen(js_name = normalizeJudgeText, skip_typescript)]
pub fn normalize_judge_text(text: JsValue) -> Result<String, JsValue> {
    init_panic_hook();
    Ok(quote::normalize(&string_arg(&text, ErrorKind::Validation, "text")?))
}

/// Reads a juror's raw answer; throws a `VALIDATION_ERROR` when it cannot.
#[wasm_bindgen(js_name = parseJudgeAnswer, skip_typescript)]
pub fn parse_judge_answer(raw: JsValue) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let raw = string_arg(&raw, ErrorKind::Validation, "answer")?;
    let ballot = judge::parse_answer(&raw).map_err(|e| to_js_error(Error::new(ErrorKind::Validation, e)))?;
    to_js(&ballot)
}

/// Every `[file:Lx-Ly](path)` citation of a markdown report, with its claim and quote.
#[wasm_bindgen(js_name = parseCitations, skip_typescript)]
pub fn parse_citations_js(markdown: JsValue) -> Result<JsValue, JsValue> {
    init_panic_hook();
    to_js(&parse_citations(&string_arg(&markdown, ErrorKind::Validation, "markdown")?))
}

/// The text a host's sources function gives for a citation, and the name
/// it was found under (not cached: the function may answer differently).
async fn fetch_source(f: &Function, c: &Citation) -> Result<(Option<String>, Result<String, String>), JsValue> {
    let arg = to_js_arg(c)?;
    Ok(match host::call(f, &JsValue::NULL, &Array::of1(&arg), None).await {
        Ok(v) => match v.as_string() {
            Some(text) => (Some(c.file.clone()), Ok(text)),
            None => (None, Err(format!("the host has no text for {:?}", c.file))),
        },
        Err(HostFailure::Threw(m) | HostFailure::Rejected(m)) => {
            (None, Err(format!("the host's sources function failed: {m}")))
        }
        Err(HostFailure::TimedOut) => (None, Err("the host's sources function timed out".into())),
    })
}

/// Judges every citation of a markdown report (spec 002 batch
/// verification), one after the other, each with the whole jury.
#[wasm_bindgen(js_name = verifyReport, skip_typescript)]
pub fn verify_report(markdown: JsValue, sources: JsValue, options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let markdown = string_arg(&markdown, ErrorKind::Validation, "markdown")?;
    init_panic_hook();
    Ok(future_to_promise(async move {
        let options = read_options(&options.unwrap_or(JsValue::NULL), JudgeCall::Jury)?;
        if !(sources.is_object() || sources.is_function()) {
            return Err(config_error("sources must be an object (file name → text) or a function".into()));
        }
        let name = options.options.report_name.clone().unwrap_or_else(|| "report".into());
        let mut book = LogBook::new();
        let mut results = Vec::new();
        let parsed = parse_report(&markdown);
        // a source named in the map is looked up and indexed once, however many citations name it
        let mut files = CitedFiles::new();
        for c in parsed.citations {
            let fetched;
            let (resolved, source) = match sources.dyn_ref::<Function>() {
                Some(f) => {
                    let (resolved, text) = fetch_source(f, &c).await?;
                    fetched = text.map(|text| {
                        let index = LineIndex::new(&text);
                        (text, index)
                    });
                    (resolved, fetched.as_ref().map(|(text, index)| (text.as_str(), index)).map_err(Clone::clone))
                }
                None => {
                    let missing = format!("no source named {}", c.candidate_names().join(" or "));
                    files.resolve(&c, |name| {
                        match Reflect::get(&sources, &name.into()).ok().and_then(|v| v.as_string()) {
                            Some(text) => Lookup::Found(text),
                            None => Lookup::Missing(missing.clone()),
                        }
                    })
                }
            };
            let result = verify_one(c.request(), source, &options, &mut book, &name).await?;
            results.push(CitationResult { citation: c, resolved_file: resolved, result });
        }
        let report = BatchReport::new(name, rfc3339(DateClock.now_ms()), results).with_invalid(parsed.invalid);
        let out = to_js(&report)?;
        let _ = Reflect::set(&out, &"markdown".into(), &report.to_markdown().into());
        Ok(out)
    })
    .into())
}

/// A Finding (spec 003): evidence that carries its quote.
#[wasm_bindgen(js_name = Finding, skip_typescript)]
pub struct JsFinding {
    inner: Finding,
}

#[wasm_bindgen(js_class = Finding)]
impl JsFinding {
    /// A finding from its fields (not checked: call `validate()`). Throws a
    /// `VALIDATION_ERROR` for a wrong type or an unknown field.
    #[wasm_bindgen(constructor)]
    pub fn new(fields: JsValue) -> Result<JsFinding, JsValue> {
        init_panic_hook();
        let json = to_json(&fields, ErrorKind::Validation, "finding")?;
        Ok(JsFinding { inner: Finding::from_json(&json).map_err(to_js_error)? })
    }

    /// The spec's factory: a finding with `extraction_span_hash` computed.
    #[wasm_bindgen(js_name = createWithHash)]
    pub fn create_with_hash(fields: JsValue) -> Result<JsFinding, JsValue> {
        init_panic_hook();
        let json = to_json(&fields, ErrorKind::Validation, "finding")?;
        Ok(JsFinding { inner: Finding::create_with_hash(NewFinding::from_json(&json).map_err(to_js_error)?) })
    }

    /// SHA-256 (hex) of the whitespace-normalized span.
    #[wasm_bindgen(js_name = computeHash)]
    pub fn compute_hash(span: JsValue) -> Result<String, JsValue> {
        Ok(finding::compute_hash(&string_arg(&span, ErrorKind::Validation, "span")?))
    }

    /// Throws a `VALIDATION_ERROR` with the spec's message (`Finding must
    /// have extraction_span (cannot be None or empty)`, `extraction_span too
    /// short: 5 chars (min 20)`, …) when the finding is invalid.
    pub fn validate(&self) -> Result<(), JsValue> {
        self.inner.validate().map_err(|e| to_js_error(e.into()))
    }

    /// The fields as a plain object (also what `JSON.stringify` gives).
    #[wasm_bindgen(js_name = toJSON, skip_typescript)]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner)
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn category(&self) -> String {
        self.inner.category.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn title(&self) -> String {
        self.inner.title.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn content(&self) -> String {
        self.inner.content.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn source_url(&self) -> String {
        self.inner.source_url.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn extracted_at(&self) -> String {
        self.inner.extracted_at.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn extraction_span(&self) -> String {
        self.inner.extraction_span.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn extraction_span_hash(&self) -> String {
        self.inner.extraction_span_hash.clone()
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn char_offsets(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.char_offsets)
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn relevance_score(&self) -> f64 {
        self.inner.relevance_score as f64
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn recency_score(&self) -> f64 {
        self.inner.recency_score as f64
    }

    /// See FindingFields.
    #[wasm_bindgen(getter)]
    pub fn trust_score(&self) -> f64 {
        self.inner.trust_score as f64
    }
}

/// Verifies a finding against its source's text or HTML (spec 003
/// `FindingVerifier.verify_finding`): valid, span in source, numbers agree.
/// Synchronous (the spec's is `async` only by habit: it does no I/O).
#[wasm_bindgen(js_name = verifyFinding, skip_typescript)]
pub fn verify_finding(finding: JsValue, source_content: JsValue) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let source_content = string_arg(&source_content, ErrorKind::DocumentParsing, "source_content")?;
    let source_content = source_content.as_str();
    // a Finding instance has toJSON, so both forms arrive as the same JSON
    let json = to_json(&finding, ErrorKind::Validation, "finding")?;
    let finding = Finding::from_json(&json).map_err(to_js_error)?;
    to_js(&FindingVerifier::new().verify_finding(&finding, source_content))
}

/// The judge's default options under their JS names.
#[wasm_bindgen(js_name = defaultJudgeOptions, skip_typescript)]
pub fn default_judge_options() -> Result<JsValue, JsValue> {
    to_js(&JudgeOptions::default().settings_json())
}

/// The ranges of the judge's numeric options under their JS names.
#[wasm_bindgen(js_name = judgeOptionBounds, skip_typescript)]
pub fn judge_option_bounds() -> Result<JsValue, JsValue> {
    to_js(&JudgeOptions::bounds_json())
}

/// The instructions sent to every juror as the system message.
#[wasm_bindgen(js_name = juryInstructions, skip_typescript)]
pub fn jury_instructions() -> String {
    JURY_INSTRUCTIONS.to_string()
}
