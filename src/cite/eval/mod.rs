//! The evaluation runner of spec 004 Part VII (issue 17, item 7): the
//! published formats of FEVER ([`fever`]), RAGTruth ([`ragtruth`]) and ALCE
//! ([`alce`]) read into [`Case`]s (a pipeline input and its gold labels),
//! the pipeline run on them without an LLM ([`crate::cite::pipeline`]:
//! stages 1, 3, stage 4's deterministic verifier, 5 and 6, no embedder, so
//! the keyword methods stand in), the per-stage metrics of §7.3 computed
//! with [`crate::cite::metrics`]'s functions, and the toggle ablation of
//! §7.5: every run once with the toggles on, then once with each toggle off
//! in turn, each tested against all on by the test §7.5 gives its toggle
//! (see `score::significance`): McNemar's
//! ([`crate::cite::metrics::mcnemar`]) on one per-claim outcome for
//! preselection, numeric QA and abstention; Student's t-test on stage 4's
//! LLM calls per claim for confidence classification (counted, not timed:
//! the report is the same for the same input); the paired t-test on the
//! outcome as 1/0 for citation correction; χ² on the verdict distribution
//! for the NEI verdict.
//!
//! What each dataset measures (the spec's functional mapping, §7.2–7.3):
//! - FEVER: stage 1 against the gold evidence sentences, stage 3's
//!   calibration against "the label is SUPPORTS", the final verdict (stage
//!   4's deterministic verifier, lowered by stage 6) against the label
//!   (§7.3.4's metrics, mapped to FEVER's labels as the spec's
//!   `map_verdict_to_fever`), stage 6 on the claims holding a number;
//!   the outcome: "the label is right";
//! - RAGTruth: stage 3's calibration against "the sentence overlaps no
//!   hallucination span", the verdict as a hallucination detector
//!   (UNSUPPORTED, CONTRADICTED and NEI flag), stage 6 on sentences holding
//!   a number; the outcome: "flagged exactly when hallucinated";
//! - ALCE: stage 1 against the documents whose `answers_found` is not all
//!   0, stage 5 by the spec's synthetic error injection (§7.3.5): the
//!   citations of a generated `output` are taken as correct, those of 3
//!   claims in 10 are corrupted, and correction is scored on restoring
//!   them; the outcome: "the citations after correction are the output's".
//!
//! Stage 4 with an LLM is not run here (the report says the verdicts are
//! the deterministic verifier's); interleaved generation, which needs one
//! to write claims, is not ablated.
//!
//! Architecture Invariant: the runner performs no I/O; the readers take
//! text, the CLI reads the files.

pub mod alce;
pub mod fever;
pub mod ragtruth;
mod score;

use crate::cite::config::MAX_TEXT_CHARS;
use crate::cite::{self, CiteInput};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use serde::Serialize;
use serde_json::{Map, Value};

pub use score::{deadline, evaluate, AblationRow, AblationTest, EvalReport, Metric, StageMetrics, TOGGLES};

/// Most items (FEVER claims, RAGTruth responses, ALCE questions) one run
/// reads; a longer file is refused (split it, or cut it with `head`/`jq`).
pub const MAX_EVAL_ITEMS: usize = 50_000;
/// Time budget of one whole evaluation (every configuration of the
/// ablation), in seconds.
pub const EVAL_TIME_LIMIT_SECONDS: f64 = 3_600.0;
/// `k` of precision, recall, F1 and NDCG at k (the spec's Recall@10).
pub const RANK_K: usize = 10;
/// Bins of the expected calibration error (the spec's `n_bins=10`).
pub const CALIBRATION_BINS: usize = 10;
/// ALCE: the claims whose index (over the whole file, counting claims with
/// citations only) modulo 10 is below this get a corrupted citation: the
/// spec's 30 % error rate, deterministically.
pub const CORRUPTED_PER_TEN: usize = 3;

/// The datasets the runner reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dataset {
    /// FEVER 1.0 (fever.ai JSONL claims + wiki-pages JSONL).
    Fever,
    /// RAGTruth (response.jsonl + source_info.jsonl).
    Ragtruth,
    /// ALCE (a JSON list of questions with docs; an output to score).
    Alce,
}

impl Dataset {
    /// The dataset named `name` (`fever`, `ragtruth`, `alce`, any case).
    pub fn from_name(name: &str) -> Option<Dataset> {
        match name.to_ascii_lowercase().as_str() {
            "fever" => Some(Dataset::Fever),
            "ragtruth" => Some(Dataset::Ragtruth),
            "alce" => Some(Dataset::Alce),
            _ => None,
        }
    }

    /// As its authors write it.
    pub fn title(self) -> &'static str {
        match self {
            Dataset::Fever => "FEVER",
            Dataset::Ragtruth => "RAGTruth",
            Dataset::Alce => "ALCE",
        }
    }
}

/// FEVER's three labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Label {
    /// `SUPPORTS`.
    Supports,
    /// `REFUTES`.
    Refutes,
    /// `NOT ENOUGH INFO`.
    NotEnoughInfo,
}

impl Label {
    /// As FEVER writes it.
    pub fn name(self) -> &'static str {
        match self {
            Label::Supports => "SUPPORTS",
            Label::Refutes => "REFUTES",
            Label::NotEnoughInfo => "NOT ENOUGH INFO",
        }
    }

    /// The spec's `map_verdict_to_fever` (§7.3.4): PARTIAL reads as
    /// SUPPORTS, UNSUPPORTED and NEI as NOT ENOUGH INFO.
    pub fn of_verdict(v: cite::Verdict) -> Label {
        match v {
            cite::Verdict::Supported | cite::Verdict::Partial => Label::Supports,
            cite::Verdict::Contradicted => Label::Refutes,
            cite::Verdict::Unsupported | cite::Verdict::Nei => Label::NotEnoughInfo,
        }
    }
}

/// A piece of gold evidence stage 1 should find: a whole source (ALCE's
/// documents) or a range of code points in one (FEVER's sentences).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldEvidence {
    /// The source's id.
    pub source_id: String,
    /// Code points `[start, end)` of the source's content; `None`: all of it.
    pub range: Option<(usize, usize)>,
}

/// One claim's gold labels (what its dataset gives).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ClaimGold {
    /// FEVER's label.
    pub label: Option<Label>,
    /// RAGTruth: the claim overlaps no hallucination span.
    pub grounded: Option<bool>,
    /// ALCE: the claim's citations as generated (taken as correct).
    pub citations: Option<Vec<String>>,
    /// ALCE: the pipeline gets a corrupted citation for this claim.
    pub corrupted: bool,
}

/// One item: what the pipeline gets, and the gold labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The pipeline's input (ALCE: with the corrupted citations).
    pub input: CiteInput,
    /// Per claim of `input`, in order.
    pub gold: Vec<ClaimGold>,
    /// Stage 1's gold evidence (empty: the item has none to score).
    pub evidence: Vec<GoldEvidence>,
}

/// `error` on line `line` (1-based) of `file`: the message starts with the
/// place, `details.line` holds the number.
pub(crate) fn on_line(error: Error, file: &str, line: usize) -> Error {
    prefixed(error, &format!("{file} line {line}")).with_detail("line", Value::from(line))
}

/// `error` with its message after `place: `, its details kept.
pub(crate) fn prefixed(error: Error, place: &str) -> Error {
    let named = Error::new(error.kind(), format!("{place}: {}", error.message()));
    error.details().iter().fold(named, |n, (k, v)| n.with_detail(k, v.clone()))
}

/// The non-blank lines of a JSONL text, numbered from 1, each parsed as a
/// JSON object; at most [`MAX_EVAL_ITEMS`].
///
/// # Errors
/// VALIDATION_ERROR naming the line of bad JSON or a non-object, or when
/// there are more lines than [`MAX_EVAL_ITEMS`]; PROCESSING_ERROR when the
/// deadline passes.
pub(crate) fn jsonl_objects(text: &str, file: &str, deadline: &Deadline) -> Result<Vec<(usize, Map<String, Value>)>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if deadline.expired() {
            return Err(timeout());
        }
        if line.trim().is_empty() {
            continue;
        }
        if out.len() == MAX_EVAL_ITEMS {
            return Err(Error::new(
                ErrorKind::Validation,
                format!("{file} holds more than {MAX_EVAL_ITEMS} items; split it (head -n {MAX_EVAL_ITEMS})"),
            )
            .with_detail("line", Value::from(n + 1)));
        }
        let value = crate::json::parse(line, ErrorKind::Validation, &format!("{file} line {}", n + 1))
            .map_err(|e| e.with_detail("line", Value::from(n + 1)))?;
        match value {
            Value::Object(o) => out.push((n + 1, o)),
            _ => {
                return Err(on_line(
                    Error::invalid_input(&JsonPath::root(), "type", "a line must be a JSON object"),
                    file,
                    n + 1,
                ))
            }
        }
    }
    Ok(out)
}

pub(crate) fn timeout() -> Error {
    Error::new(ErrorKind::Processing, "the evaluation ran past its time limit")
}

/// A required string field.
pub(crate) fn string<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a str> {
    let at = JsonPath::root().key(key);
    match o.get(key) {
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) => Err(Error::invalid_input(&at, "required", format!("{key} is required"))),
        Some(_) => Err(Error::invalid_input(&at, "type", format!("{key} must be a string"))),
    }
}

/// `s` (the field at `at`) is at most [`MAX_TEXT_CHARS`] characters, the
/// pipeline's bound on a query or a claim.
pub(crate) fn within_text_limit(s: &str, at: &JsonPath) -> Result<()> {
    let n = s.chars().count();
    if n > MAX_TEXT_CHARS {
        return Err(Error::invalid_input(at, "maxLength", format!("{n} characters, more than {MAX_TEXT_CHARS}")));
    }
    Ok(())
}

/// The required list at `o[key]` (the field at `at`).
pub(crate) fn list<'a>(o: &'a Map<String, Value>, key: &str, at: &JsonPath) -> Result<&'a Vec<Value>> {
    o.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| Error::invalid_input(at, "type", format!("{key} is required and must be a list")))
}

/// A required string or whole-number field, as text (ids).
pub(crate) fn id(o: &Map<String, Value>, key: &str) -> Result<String> {
    match o.get(key) {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        _ => string(o, key).map(str::to_string).map_err(|_| {
            Error::invalid_input(
                &JsonPath::root().key(key),
                "type",
                format!("{key} is required and must be a string or a whole number"),
            )
        }),
    }
}

/// The text's sentences (Unicode sentence boundaries, trimmed, non-empty)
/// with their code point ranges.
pub(crate) fn sentences(text: &str) -> Vec<(String, usize, usize)> {
    use unicode_segmentation::UnicodeSegmentation;
    let mut out = Vec::new();
    let mut chars_before = 0usize;
    let mut byte_before = 0usize;
    for (at, sentence) in text.split_sentence_bound_indices() {
        chars_before += text[byte_before..at].chars().count();
        byte_before = at;
        let lead = sentence.len() - sentence.trim_start().len();
        let trimmed = sentence.trim();
        if !trimmed.is_empty() {
            let start = chars_before + sentence[..lead].chars().count();
            out.push((trimmed.to_string(), start, start + trimmed.chars().count()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_count_code_points() {
        // "é" is one code point of two bytes, "😀" one of four (two UTF-16 units)
        let s = sentences("Café 😀 opened. It has 5 seats.");
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].1, s[0].2), (0, 14), "4 + 1 + 1 + 1 + 7");
        assert_eq!(s[1].0, "It has 5 seats.");
        assert_eq!((s[1].1, s[1].2), (15, 30));
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = jsonl_objects("{\"a\": 1}\n\n[1]\n", "x.jsonl", &Deadline::never()).unwrap_err();
        assert_eq!(e.code(), "VALIDATION_ERROR");
        assert_eq!(e.details()["line"], 3);
        assert!(e.message().starts_with("x.jsonl line 3: "), "{}", e.message());
        let e = jsonl_objects("{\"a\": 1}\n{\"a\": \n", "x.jsonl", &Deadline::never()).unwrap_err();
        assert!(e.message().starts_with("x.jsonl line 2 is not valid JSON"), "{}", e.message());
        assert_eq!(e.details()["line"], 2, "the file's line, not the JSON text's");
    }
}
