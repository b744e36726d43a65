//! `transcript` (spec 001): check the evidence of a speech evaluation
//! against the speaker's transcript.
//!
//! ```text
//! evidence-validator transcript --transcript FILE (--items FILE | --evaluation FILE)
//!     [--transcript-format auto|json|srt|vtt] [--config FILE] [--output FILE] [--json] [--strict]
//! ```
//!
//! - `--transcript`: Whisper `verbose_json`, WhisperX, whisper-timestamped,
//!   whisper.cpp, Deepgram, Speechmatics or Amazon Transcribe JSON, the plain
//!   JSON shape, `.srt` or `.vtt` (by extension, else by content).
//! - `--items`: a JSON array of items (`evidence_quote`, `evidence_timestamp`,
//!   optional `text`), `{"items": [...]}`, or a whole evaluation; one result
//!   per item with each check's outcome.
//! - `--evaluation`: a whole StructuredEvaluation; reports what the retry
//!   budget would do with it. No LLM is called (a retry is impossible
//!   offline), so it says which items would be re-prompted (and dropped if
//!   the retry failed) and whether regeneration would be triggered.
//! - `--config`: thresholds (`min_contiguous_tokens`, `max_quote_tokens`,
//!   `locality_seconds`, `max_generations`, `max_retries_per_item`,
//!   `min_commendations`, `min_recommendations`) and the time limit
//!   `max_processing_time_seconds` (default 120, at most 86400): one deadline
//!   for the whole command (import and every item). An import it stops is
//!   exit 2 (`PROCESSING_ERROR`, saying where); items it leaves unchecked are
//!   reported all the same (not passed, `TIME_LIMIT_EXCEEDED`) with `ok:
//!   false` and a `PROCESSING_ERROR` naming them.
//!
//! Prints a readable report on stdout (JSON with `--json`); `--output` also
//! writes the JSON report to a file. Exit codes: 0 report written; 1
//! `--strict` and some item fails; 2 bad input (one line on stderr); 3 the
//! report could not be written.

use super::{parse_json, read_text, write_output, write_stdout, Failure};
use clap::Args;
use evidence_validator::error::JsonPath;
use evidence_validator::host::{Deadline, SystemClock};
use evidence_validator::transcript::{
    parse_transcript_within, preview_budget_within, validate_item_within, BudgetPreview, CheckName, EvaluationItem,
    InputFormat, ItemKind, ItemValidation, PreviewAction, ProcessingFailure, StructuredEvaluation, Transcript,
    TranscriptConfig, TranscriptMetrics,
};
use evidence_validator::{Error, ErrorKind};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `transcript`.
#[derive(Args, Debug)]
pub struct TranscriptArgs {
    /// The transcript: ASR JSON, .srt or .vtt.
    #[arg(long)]
    transcript: PathBuf,
    /// Evaluation items to check (JSON).
    #[arg(long, conflicts_with = "evaluation", required_unless_present = "evaluation")]
    items: Option<PathBuf>,
    /// A whole evaluation: report what the retry budget would do (JSON).
    #[arg(long)]
    evaluation: Option<PathBuf>,
    /// The transcript's format, overriding detection: auto, json, srt, vtt.
    #[arg(long, default_value = "auto")]
    transcript_format: String,
    /// Thresholds (JSON object; the spec's defaults otherwise).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Also write the JSON report here.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Print the JSON report instead of the readable one.
    #[arg(long)]
    json: bool,
    /// Exit with status 1 when any item fails.
    #[arg(long)]
    strict: bool,
}

#[derive(Serialize)]
struct TranscriptSummary<'a> {
    file: String,
    format: &'a str,
    timing: evidence_validator::transcript::TimingLevel,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a str>,
    words: usize,
    segments: usize,
    tokens: usize,
    warnings: &'a [String],
    metrics: TranscriptMetrics,
}

#[derive(Serialize)]
struct ItemReport {
    label: String,
    item: EvaluationItem,
    validation: ItemValidation,
}

#[derive(Serialize)]
struct ItemsReport<'a> {
    transcript: TranscriptSummary<'a>,
    config: &'a TranscriptConfig,
    items: Vec<ItemReport>,
    passed: usize,
    failed: usize,
    /// False when the time limit left items unchecked.
    ok: bool,
    /// The `PROCESSING_ERROR` naming them, if any.
    errors: Vec<ProcessingFailure>,
}

#[derive(Serialize)]
struct EvaluationReport<'a> {
    transcript: TranscriptSummary<'a>,
    config: &'a TranscriptConfig,
    budget: BudgetPreview,
}

/// An error about `path`: its name put in front of the message, details kept.
fn in_file(e: Error, path: &Path) -> Error {
    let mut out = Error::new(e.kind(), format!("{}: {}", path.display(), e.message()));
    for (k, v) in e.details() {
        out = out.with_detail(k, v.clone());
    }
    out.with_detail("file", Value::String(path.display().to_string()))
}

fn load_transcript(path: &Path, format: &str, deadline: &Deadline<'_>) -> Result<Transcript, Error> {
    let format = match InputFormat::from_name(format) {
        Some(InputFormat::Auto) => InputFormat::from_file_name(&path.to_string_lossy()),
        Some(f) => f,
        None => {
            return Err(Error::new(
                ErrorKind::Configuration,
                format!("unknown --transcript-format {format:?}; expected auto, json, srt or vtt"),
            ))
        }
    };
    let text = read_text(path, ErrorKind::DocumentParsing)?;
    parse_transcript_within(&text, format, deadline).map_err(|e| in_file(e, path))
}

/// The items of an items file: `[...]`, `{"items": [...]}`, or an evaluation.
fn load_items(path: &Path) -> Result<Vec<(String, EvaluationItem)>, Error> {
    let name = path.display().to_string();
    let value = parse_json(&read_text(path, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
    let root = JsonPath::root();
    let list = |items: &Vec<Value>, path: &JsonPath, label: &str| -> Result<Vec<(String, EvaluationItem)>, Error> {
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                Ok((
                    format!("{label}[{i}]"),
                    EvaluationItem::from_json(v, &path.index(i)).map_err(|e| in_file(e, Path::new(&name)))?,
                ))
            })
            .collect()
    };
    match &value {
        Value::Array(items) => list(items, &root, "items"),
        Value::Object(o) if o.contains_key("commendations") || o.contains_key("recommendations") => {
            let e = StructuredEvaluation::from_json(&value).map_err(|e| in_file(e, path))?;
            let mut out = Vec::new();
            for kind in [ItemKind::Commendation, ItemKind::Recommendation] {
                for (i, item) in e.items(kind).iter().enumerate() {
                    out.push((format!("{}[{i}]", kind.field()), item.clone()));
                }
            }
            Ok(out)
        }
        Value::Object(o) => match o.get("items") {
            Some(Value::Array(items)) => list(items, &root.key("items"), "items"),
            _ => Err(in_file(
                Error::invalid_input(&root, "type", "expected an array of items, {\"items\": [...]}, or an evaluation with commendations and recommendations"),
                path,
            )),
        },
        _ => Err(in_file(Error::invalid_input(&root, "type", "expected an array of items or an object"), path)),
    }
}

fn summary<'a>(path: &Path, t: &'a Transcript) -> TranscriptSummary<'a> {
    TranscriptSummary {
        file: path.display().to_string(),
        format: t.format().name(),
        timing: t.timing(),
        language: t.language(),
        words: t.words().len(),
        segments: t.segments().len(),
        tokens: t.tokens().len(),
        warnings: t.warnings(),
        metrics: t.metrics(),
    }
}

fn describe_transcript(out: &mut String, s: &TranscriptSummary<'_>) {
    let m = &s.metrics;
    let wpm = m.words_per_minute.map_or("no words/min".to_string(), |w| format!("{w:.1} words/min"));
    let _ = writeln!(
        out,
        "transcript {} ({}, {} level: {} words, {} segments, {} tokens; {:.1} s of speech, {wpm})",
        s.file,
        s.format,
        if m.reduced_timing_precision { "segment" } else { "word" },
        s.words,
        s.segments,
        s.tokens,
        m.duration_seconds
    );
    for n in &m.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    for w in s.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
}

fn describe_item(out: &mut String, label: &str, verdict: &str, item: &EvaluationItem, v: &ItemValidation) {
    let _ = writeln!(out, "\n{label} {verdict}  {:?} @ {:.2} s", item.evidence_quote, item.evidence_timestamp);
    let speaker = item.evidence_speaker.as_ref().map(|_| CheckName::Speaker);
    for name in [CheckName::ContiguousMatch, CheckName::Length, CheckName::TimestampLocality].into_iter().chain(speaker)
    {
        let c = v.check(name);
        let status =
            serde_json::to_value(c.status).ok().and_then(|s| s.as_str().map(str::to_string)).unwrap_or_default();
        let _ = writeln!(out, "  {:<19} {:<13} {}", name.name(), status, c.message);
    }
    if let Some(m) = &v.matched {
        let words = match (m.word_start, m.word_end) {
            (Some(a), Some(b)) => format!("words {a}–{}", b.saturating_sub(1)),
            _ => match (m.segment_start, m.segment_end) {
                (Some(a), Some(b)) if b > a + 1 => format!("segments {a}–{}", b - 1),
                (Some(a), _) => format!("segment {a}"),
                _ => format!("tokens {}–{}", m.token_start, m.token_end.saturating_sub(1)),
            },
        };
        let times = match (m.start_time, m.end_time) {
            (Some(a), Some(b)) => format!(", {a:.2}–{b:.2} s"),
            _ => String::new(),
        };
        let _ = writeln!(out, "  matched: {words}{times}, line {} col {}: {:?}", m.span.line, m.span.column, m.text);
    }
}

fn emit<T: Serialize>(args: &TranscriptArgs, report: &T, text: String) -> Result<(), Failure> {
    let json = serde_json::to_string_pretty(report).map_err(|e| Failure::Output(e.to_string()))?;
    if let Some(p) = &args.output {
        write_output(Some(p), &json)?;
    }
    if args.json {
        write_output(None, &json)
    } else {
        write_stdout(&text)
    }
}

/// Runs `transcript`: the evaluation's budget preview (`--evaluation`) or
/// the checks of each item (`--items`).
pub fn run(args: TranscriptArgs) -> Result<ExitCode, Failure> {
    let config = load_config(args.config.as_deref())?;
    // One deadline for the whole command, from the configuration's time limit.
    let deadline = config.deadline(&SystemClock);
    let transcript = load_transcript(&args.transcript, &args.transcript_format, &deadline)?;
    let mut text = String::new();
    let summary = summary(&args.transcript, &transcript);
    describe_transcript(&mut text, &summary);
    let run = Run { args: &args, config: &config, deadline: &deadline, transcript: &transcript };
    if let Some(path) = &args.evaluation {
        return run.evaluation(path, summary, text);
    }
    let Some(items_path) = &args.items else {
        return Err(Failure::Input(Error::new(ErrorKind::Configuration, "give --items FILE or --evaluation FILE")));
    };
    run.items(items_path, summary, text)
}

/// The `--config` file's settings, or the defaults.
fn load_config(path: Option<&Path>) -> Result<TranscriptConfig, Failure> {
    Ok(match path {
        Some(p) => {
            let text = read_text(p, ErrorKind::Configuration)?;
            TranscriptConfig::from_json(&parse_json(&text, &p.display().to_string(), ErrorKind::Configuration)?)
                .map_err(|e| in_file(e, p))?
        }
        None => TranscriptConfig::default(),
    })
}

/// What one `transcript` command checks against.
struct Run<'a> {
    args: &'a TranscriptArgs,
    config: &'a TranscriptConfig,
    deadline: &'a Deadline<'a>,
    transcript: &'a Transcript,
}

impl Run<'_> {
    /// `--evaluation`: what the retry budget would do with each item.
    fn evaluation(&self, path: &Path, summary: TranscriptSummary<'_>, mut text: String) -> Result<ExitCode, Failure> {
        let name = path.display().to_string();
        let value = parse_json(&read_text(path, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
        let evaluation = StructuredEvaluation::from_json(&value).map_err(|e| in_file(e, path))?;
        let budget = preview_budget_within(self.transcript, &evaluation, self.config, self.deadline);
        for p in &budget.items {
            let verdict = match p.action {
                PreviewAction::Keep => "KEEP",
                PreviewAction::Reprompt => "RE-PROMPT (dropped if the retry fails too)",
                PreviewAction::Drop => "DROP (retries are disabled)",
            };
            describe_item(&mut text, &format!("{}[{}]", p.kind.field(), p.index), verdict, &p.item, &p.validation);
        }
        let _ = writeln!(
            text,
            "\nregeneration: {}\n  {}",
            if budget.regeneration_unavoidable {
                "would be triggered (unavoidable)"
            } else if budget.would_regenerate {
                "would be triggered if the re-prompts fail"
            } else {
                "not triggered"
            },
            budget.summary
        );
        for w in &budget.warnings {
            let _ = writeln!(text, "warning {}: {}", w.code, w.message);
        }
        let failing = budget.items.iter().any(|i| i.action != PreviewAction::Keep);
        emit(self.args, &EvaluationReport { transcript: summary, config: self.config, budget }, text)?;
        Ok(if self.args.strict && failing { ExitCode::from(1) } else { ExitCode::SUCCESS })
    }

    /// `--items`: each item's three checks.
    fn items(&self, items_path: &Path, summary: TranscriptSummary<'_>, mut text: String) -> Result<ExitCode, Failure> {
        let (transcript, config) = (self.transcript, self.config);
        let items = load_items(items_path)?;
        let mut reports = Vec::new();
        let mut not_finished = Vec::new();
        for (label, item) in items {
            let validation = validate_item_within(transcript, &item, config, self.deadline)
                .unwrap_or_else(|_| ItemValidation::not_finished(transcript, &item, config));
            let verdict = if validation.passed {
                "PASS"
            } else if validation.timed_out() {
                not_finished.push(label.clone());
                "NOT CHECKED (time limit)"
            } else {
                "FAIL"
            };
            describe_item(&mut text, &label, verdict, &item, &validation);
            reports.push(ItemReport { label, item, validation });
        }
        let passed = reports.iter().filter(|r| r.validation.passed).count();
        let failed = reports.len() - passed;
        let errors: Vec<ProcessingFailure> =
            ProcessingFailure::for_items(config, not_finished, reports.len()).into_iter().collect();
        let _ =
            writeln!(text, "\n{passed} of {} item{} pass", reports.len(), if reports.len() == 1 { "" } else { "s" });
        for e in &errors {
            let _ = writeln!(text, "error {}: {}", e.code, e.message);
        }
        let ok = errors.is_empty();
        let report = ItemsReport { transcript: summary, config, items: reports, passed, failed, ok, errors };
        emit(self.args, &report, text)?;
        Ok(if self.args.strict && failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
    }
}
