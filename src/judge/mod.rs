//! The judge (spec 002): is a cited line range real, does the quote appear
//! in it, and does a jury of LLMs agree that the source supports the claim?
//!
//! 1. **Step 1** ([`lines`]): the cited lines `L<start>-L<end>` of the
//!    source file and 5 lines of context on each side; a missing file or a
//!    range outside the file ends the check at once.
//! 2. **Step 2** ([`quote`]): the quote's score against `context_before +
//!    cited_text` after normalization, the longest matching block over the
//!    quote's length, equal to CPython's `difflib`; passes at 0.8.
//! 3. **Step 3** (`prompt`, `ballot`, `jury`): the spec's prompt, sent
//!    to every juror; answers read robustly and put to a vote. Runs even
//!    when step 2 failed (the verdict is then `QUOTE_NOT_FOUND`, and the
//!    jury's view is still reported and logged).
//!
//! The core does no I/O and never waits: [`Verification`] is a state
//! machine. Built from the request and the source text (steps 1 and 2 run
//! at once), it says which juror requests to make ([`Verification::requests`]),
//! takes their answers or failures in any order ([`Verification::record`])
//! and gives the spec's output object ([`Verification::finish`]). The
//! surfaces make the calls: the CLI with threads and HTTP
//! ([`blocking`] has the threaded runner), wasm with JS promises. [`log`]
//! formats and numbers the prompt/response logs; [`citations`] is the batch
//! verification of a markdown report (spec 002 `verify_report.py`).
//!
//! ```
//! use evidence_validator::judge::{ClaimRequest, JudgeConfig, JurorFailure, Verdict, Verification};
//!
//! let source = "intro\nThe committee approved the budget on Monday.\noutro\n";
//! let request = ClaimRequest::new("The budget passed", "approved the budget on Monday", "minutes.txt", 2, 2);
//! let mut check = Verification::new(request, Ok(source), &JudgeConfig::default(), vec!["a".into(), "b".into()]).unwrap();
//! assert_eq!(check.quote_match().unwrap().score, 1.0);
//! let asks = check.requests();
//! assert!(asks[0].prompt.starts_with("SOURCE FILE: minutes.txt\nCITED LINES: L2-L2\n"));
//! check.record(0, Ok(r#"{"verdict": "VALID", "reason": "It says so."}"#.into()), None);
//! check.record(1, Err(JurorFailure::Timeout { after_ms: 1000 }), None);
//! let result = check.finish();
//! assert_eq!(result.verdict, Verdict::Valid);
//! assert!(result.verified);
//! ```

pub(crate) mod ballot;
#[cfg(not(target_arch = "wasm32"))]
pub mod blocking;
#[cfg(not(target_arch = "wasm32"))]
pub mod canonical;
pub mod citations;
pub(crate) mod jury;
pub mod lines;
pub mod log;
mod options;
mod prompt;
pub mod quote;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod difflib_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod no_panic_tests;

use crate::error::{Error, ErrorKind};
use jury::{deliberate, JurorAnswer, Semantic, SemanticVerdict, Vote};
use lines::{tagged, CitationError, LineIndex, LineRange, Passage};
use quote::{check_quote, QuoteMatch};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub use ballot::{parse_answer, Ballot, JurorVerdict};
pub use jury::JurorFailure;
pub use options::{JudgeCall, JudgeOptions, JurorOptions};
pub use prompt::{build_prompt, JURY_INSTRUCTIONS};

/// Settings of the judge, with the spec's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeConfig {
    /// Lines of context before and after the cited range
    /// ([`DEFAULT_CONTEXT_LINES`]).
    pub context_lines: usize,
    /// Step 2 passes when the score is at least this ([`DEFAULT_THRESHOLD`]).
    pub threshold: f64,
    /// CPython's `autojunk` heuristic in step 2 (default off; see [`quote`]).
    pub autojunk: bool,
    /// Step 2 compares a quote that passes the score without being
    /// verbatim word by word with the cited text, and refuses one that
    /// changes a number, negation or word (default on; off: the spec's
    /// score alone, for reproducing old results; see [`quote::changes`]).
    pub compare_words: bool,
    /// How long each juror may take, in milliseconds (default
    /// [`DEFAULT_TIMEOUT_MS`]). Used by the surfaces.
    pub timeout_ms: u64,
}

impl Default for JudgeConfig {
    fn default() -> JudgeConfig {
        JudgeConfig {
            context_lines: DEFAULT_CONTEXT_LINES,
            threshold: DEFAULT_THRESHOLD,
            autojunk: false,
            compare_words: true,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

/// Default `context_lines` (spec 002: 5 lines each side).
pub const DEFAULT_CONTEXT_LINES: usize = 5;
/// Default step-2 `threshold` (spec 002: 0.8).
pub const DEFAULT_THRESHOLD: f64 = 0.8;
/// Default juror `timeout_ms` (two minutes: local models on a laptop are slow).
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// Largest `context_lines` accepted.
pub const MAX_CONTEXT_LINES: usize = 10_000;
/// Largest `timeout_ms` accepted (one day, the largest time limit of any call).
pub const MAX_TIMEOUT_MS: u64 = crate::host::MAX_TIME_LIMIT_SECONDS as u64 * 1000;
/// Longest quote judged, in chars: step 2's score costs quote length ×
/// search area, so both are bounded (the area by
/// [`lines::MAX_SEARCH_AREA_BYTES`]).
pub const MAX_QUOTE_CHARS: usize = 20_000;
/// Longest claim judged, in chars (it goes into every juror's prompt).
pub const MAX_CLAIM_CHARS: usize = 20_000;

impl JudgeConfig {
    /// From JSON (`null` = defaults); unknown keys, wrong types and
    /// out-of-range values are a `CONFIGURATION_ERROR`.
    /// The keys are the Rust names (`context_lines`, `timeout_ms`); the JS
    /// API and the CLI use [`JudgeOptions`].
    pub fn from_json(value: &Value) -> Result<JudgeConfig, Error> {
        let mut c = JudgeConfig::default();
        if let Some(mut f) = crate::options::root(value, "the judge configuration")? {
            f.count("context_lines", 0, MAX_CONTEXT_LINES as u64, &mut c.context_lines)?;
            f.fraction("threshold", &mut c.threshold)?;
            f.bool("autojunk", &mut c.autojunk)?;
            f.bool("compare_words", &mut c.compare_words)?;
            f.count("timeout_ms", 1, MAX_TIMEOUT_MS, &mut c.timeout_ms)?;
            f.finish()?;
        }
        c.check()?;
        Ok(c)
    }

    /// Checks the ranges: threshold in 0–1, context lines up to
    /// [`MAX_CONTEXT_LINES`], timeout 1 ms to [`MAX_TIMEOUT_MS`].
    pub fn check(&self) -> Result<(), Error> {
        let bad = |field: &str, msg: String| {
            Err(Error::new(ErrorKind::Configuration, msg).with_detail("field", Value::String(field.into())))
        };
        if !(self.threshold.is_finite() && (0.0..=1.0).contains(&self.threshold)) {
            return bad("threshold", format!("threshold must be between 0 and 1, got {}", self.threshold));
        }
        if self.context_lines > MAX_CONTEXT_LINES {
            return bad(
                "context_lines",
                format!("context_lines must be at most {MAX_CONTEXT_LINES}, got {}", self.context_lines),
            );
        }
        if self.timeout_ms == 0 || self.timeout_ms > MAX_TIMEOUT_MS {
            return bad(
                "timeout_ms",
                format!("timeout_ms must be from 1 to {MAX_TIMEOUT_MS}, got {}", self.timeout_ms),
            );
        }
        Ok(())
    }
}

/// One claim to judge: the spec's CLI arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRequest {
    /// The claim being made.
    pub claim: String,
    /// The quote used as evidence.
    pub quote: String,
    /// The cited file's name (in `data/canonical/` for the CLI).
    pub filename: String,
    /// First cited line (1-based).
    pub start_line: usize,
    /// Last cited line (1-based, inclusive).
    pub end_line: usize,
}

impl ClaimRequest {
    /// A request.
    pub fn new(
        claim: impl Into<String>,
        quote: impl Into<String>,
        filename: impl Into<String>,
        start_line: usize,
        end_line: usize,
    ) -> ClaimRequest {
        ClaimRequest { claim: claim.into(), quote: quote.into(), filename: filename.into(), start_line, end_line }
    }
}

/// The final verdict of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// Quote found; the jury finds it substantive, in context, supporting.
    Valid,
    /// Quote found; the jury finds that context changes its meaning.
    Misleading,
    /// Quote found; the jury finds it too short or generic.
    Insufficient,
    /// Quote found; the jury finds it does not support the claim.
    Unsupported,
    /// Quote found; the jury split evenly.
    HungJury,
    /// Quote found; every juror failed.
    LlmError,
    /// Step 2 failed: the quote is not in the cited lines (whatever the jury said).
    QuoteNotFound,
    /// Step 1 failed: the cited file does not exist or cannot be read.
    FileNotFound,
    /// Step 1 failed: the cited lines are not in the file (or not a range).
    LinesOutOfRange,
    /// Quote found, but no juror was given: steps 1 and 2 only.
    JuryNotConvened,
}

impl Verdict {
    /// Every verdict, in declaration order.
    pub const ALL: [Verdict; 10] = [
        Verdict::Valid,
        Verdict::Misleading,
        Verdict::Insufficient,
        Verdict::Unsupported,
        Verdict::HungJury,
        Verdict::LlmError,
        Verdict::QuoteNotFound,
        Verdict::FileNotFound,
        Verdict::LinesOutOfRange,
        Verdict::JuryNotConvened,
    ];

    /// The name used in output, e.g. `QUOTE_NOT_FOUND`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "VALID",
            Verdict::Misleading => "MISLEADING",
            Verdict::Insufficient => "INSUFFICIENT",
            Verdict::Unsupported => "UNSUPPORTED",
            Verdict::HungJury => "HUNG_JURY",
            Verdict::LlmError => "LLM_ERROR",
            Verdict::QuoteNotFound => "QUOTE_NOT_FOUND",
            Verdict::FileNotFound => "FILE_NOT_FOUND",
            Verdict::LinesOutOfRange => "LINES_OUT_OF_RANGE",
            Verdict::JuryNotConvened => "JURY_NOT_CONVENED",
        }
    }
}

impl From<SemanticVerdict> for Verdict {
    fn from(v: SemanticVerdict) -> Verdict {
        match v {
            SemanticVerdict::Valid => Verdict::Valid,
            SemanticVerdict::Misleading => Verdict::Misleading,
            SemanticVerdict::Insufficient => Verdict::Insufficient,
            SemanticVerdict::Unsupported => Verdict::Unsupported,
            SemanticVerdict::HungJury => Verdict::HungJury,
            SemanticVerdict::LlmError => Verdict::LlmError,
        }
    }
}

/// The text step 1 found (present when step 1 succeeded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundContext {
    /// The cited lines, exactly.
    pub cited_text: String,
    /// Up to `context_lines` lines before.
    pub context_before: String,
    /// Up to `context_lines` lines after.
    pub context_after: String,
    /// How many lines the file has.
    pub line_count: usize,
    /// The cited lines past the end of the file (`L12-L14`), when the range
    /// ends there: the lines that exist were cited, these were not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub past_end: Option<String>,
}

/// Who sat on the jury and how they voted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JuryReport {
    /// Whether any juror was asked (false with no jurors, or when step 1 failed).
    pub convened: bool,
    /// The jurors' names.
    pub jurors: Vec<String>,
    /// Every vote.
    pub votes: Vec<Vote>,
    /// Ballots per verdict.
    pub tally: BTreeMap<JurorVerdict, usize>,
    /// Jurors with a ballot.
    pub answered: usize,
    /// Jurors that cast no ballot (failed, timed out or abstained).
    pub failed: usize,
    /// Jurors that answered without a verdict (counted in `failed` too).
    #[serde(default)]
    pub abstained: usize,
}

/// The output object of one check (spec 002 "Output structure", plus the
/// request, the found context, the jury's votes and any error).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeResult {
    /// Step 1 succeeded.
    pub step_1_existence: bool,
    /// Step 2 passed the threshold.
    pub step_2_quote_match: bool,
    /// Step 2's score, 0.0 to 1.0 (0.0 when step 1 failed).
    pub quote_score: f64,
    /// The jury's outcome; `null` when the jury was not convened.
    pub step_3_semantic: Option<Semantic>,
    /// The final verdict.
    pub verdict: Verdict,
    /// `verdict == VALID`.
    pub verified: bool,
    /// The cited lines with their tags (`[L13326] The ...`); empty when step 1 failed.
    pub text_found: String,
    /// Step 1's error, if any; else what it noted (cited lines past the end
    /// of the file), and why step 2 refused a quote it could not compare.
    pub error: Option<String>,
    /// What the quote changes: for a quote that scored at least the
    /// threshold without being verbatim, each number, negation or word of
    /// it that differs from the closest passage of the cited text (then
    /// `step_2_quote_match` is false and the verdict `QUOTE_NOT_FOUND`).
    /// Not serialized when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quote_changes: Vec<quote::QuoteChange>,
    /// Where step 2 found the quote (or the passage it changes), `L<a>-L<b>`
    /// of the file; absent when it found none, or did not look (a quote
    /// that passed the score without being verbatim, with `compare_words`
    /// off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote_lines: Option<String>,
    /// The quote is wholly outside the cited lines: in the context before
    /// them, which spec 002's step 2 searches too. The citation names the
    /// wrong lines; the verdict is the spec's.
    #[serde(default)]
    pub quote_outside_cited_lines: bool,
    /// The claim.
    pub claim: String,
    /// The quote.
    pub quote: String,
    /// The cited file.
    pub filename: String,
    /// `L<start>-L<end>`.
    pub cited_lines: String,
    /// The threshold step 2 used.
    pub threshold: f64,
    /// What step 1 found.
    pub context: Option<FoundContext>,
    /// The jury.
    pub jury: JuryReport,
}

/// One request to one juror.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JudgeRequest {
    /// The juror's position in the jury (for [`Verification::record`]).
    pub index: usize,
    /// The juror's name.
    pub judge: String,
    /// The system message ([`JURY_INSTRUCTIONS`]).
    pub system: String,
    /// The spec's prompt.
    pub prompt: String,
}

/// One check in progress: steps 1 and 2 done, the jury's answers pending.
#[derive(Debug, Clone)]
pub struct Verification {
    request: ClaimRequest,
    config: JudgeConfig,
    passage: Result<Passage, CitationError>,
    quote: Option<QuoteMatch>,
    /// Step 2's meaning check, for a quote that passed the threshold
    /// without being verbatim.
    comparison: Option<quote::Comparison>,
    /// Where step 2 found the quote: first and last lines of the file.
    quote_lines: Option<(usize, usize)>,
    prompt: Option<String>,
    jurors: Vec<String>,
    answers: Vec<Option<JurorAnswer>>,
}

/// Checks juror names: non-empty, unique.
pub fn check_juror_names(jurors: &[String]) -> Result<(), Error> {
    let mut seen = std::collections::BTreeSet::new(); // n log n, however many jurors
    for (i, name) in jurors.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(Error::new(ErrorKind::Configuration, format!("juror {} has an empty name", i + 1)));
        }
        if !seen.insert(name.as_str()) {
            return Err(Error::new(
                ErrorKind::Configuration,
                format!("two jurors are named {name:?}; names must be unique"),
            ));
        }
    }
    Ok(())
}

impl Verification {
    /// Runs steps 1 and 2 on `source` (the cited file's text, or the error
    /// reading it) and prepares the jury. An error only for a bad
    /// configuration or juror names; a missing file or a bad range is a
    /// result (`FILE_NOT_FOUND`, `LINES_OUT_OF_RANGE`).
    pub fn new(
        request: ClaimRequest,
        source: Result<&str, String>,
        config: &JudgeConfig,
        jurors: Vec<String>,
    ) -> Result<Verification, Error> {
        match source {
            Ok(text) => Verification::with_lines(request, Ok((text, &LineIndex::new(text))), config, jurors),
            Err(e) => Verification::with_lines(request, Err(e), config, jurors),
        }
    }

    /// [`Verification::new`] on a source whose [`LineIndex`] the caller
    /// built once (`verify-report` and `verifyReport` judge many citations
    /// of one file: each then costs its own lines, not a pass over the file).
    /// The index must be the one of that text.
    pub fn with_lines(
        request: ClaimRequest,
        source: Result<(&str, &LineIndex), String>,
        config: &JudgeConfig,
        jurors: Vec<String>,
    ) -> Result<Verification, Error> {
        config.check()?;
        check_juror_names(&jurors)?;
        for (field, text, max) in
            [("quote", &request.quote, MAX_QUOTE_CHARS), ("claim", &request.claim, MAX_CLAIM_CHARS)]
        {
            // count at most max + 1 chars: a bounded loop however long the text
            if text.chars().take(max + 1).count() > max {
                return Err(Error::invalid_input(
                    &crate::error::JsonPath::root().key(field),
                    "max_length",
                    format!("the {field} is longer than {max} characters"),
                ));
            }
        }
        let passage = match source {
            Err(message) => Err(CitationError::FileNotFound { filename: request.filename.clone(), message }),
            Ok((text, index)) => LineRange::new(request.start_line, request.end_line)
                .and_then(|range| index.locate(text, range, config.context_lines)),
        };
        let (quote, prompt) = match &passage {
            Ok(p) => (
                Some(check_quote(&request.quote, &p.search_area(), config.threshold, config.autojunk)),
                Some(build_prompt(&request.filename, p.range, p, &request.claim, &request.quote)),
            ),
            Err(_) => (None, None),
        };
        // a score below 1 leaves part of the quote unmatched: which part,
        // and does it change what the quote says?
        let (comparison, quote_lines) = match (&passage, &quote) {
            (Ok(p), Some(q)) if q.matched => {
                if q.score >= 1.0 {
                    (None, quote::verbatim_lines(&request.quote, p))
                } else if config.compare_words {
                    let (comparison, lines) = quote::changes(&request.quote, p, config.threshold);
                    (Some(comparison), lines)
                } else {
                    (None, None)
                }
            }
            _ => (None, None),
        };
        let answers = vec![None; jurors.len()];
        Ok(Verification {
            request,
            config: config.clone(),
            passage,
            quote,
            comparison,
            quote_lines,
            prompt,
            jurors,
            answers,
        })
    }

    /// Step 1's outcome.
    pub fn passage(&self) -> Result<&Passage, &CitationError> {
        self.passage.as_ref()
    }

    /// Step 2's outcome (none when step 1 failed).
    pub fn quote_match(&self) -> Option<&QuoteMatch> {
        self.quote.as_ref()
    }

    /// The prompt (none when step 1 failed).
    pub fn prompt(&self) -> Option<&str> {
        self.prompt.as_deref()
    }

    /// The configuration.
    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    /// Whether the jury meets: there are jurors and step 1 succeeded.
    pub fn convened(&self) -> bool {
        !self.jurors.is_empty() && self.prompt.is_some()
    }

    /// The requests still to make: one per juror without an answer (none
    /// when the jury does not meet).
    pub fn requests(&self) -> Vec<JudgeRequest> {
        let Some(prompt) = &self.prompt else {
            return Vec::new();
        };
        self.jurors
            .iter()
            .enumerate()
            .filter(|(i, _)| self.answers.get(*i).is_some_and(Option::is_none))
            .map(|(index, judge)| JudgeRequest {
                index,
                judge: judge.clone(),
                system: JURY_INSTRUCTIONS.to_string(),
                prompt: prompt.clone(),
            })
            .collect()
    }

    /// Records juror `index`'s raw answer or failure. False (and nothing
    /// recorded) for an unknown index, an already answered juror, or a jury
    /// that does not meet.
    pub fn record(&mut self, index: usize, outcome: Result<String, JurorFailure>, elapsed_ms: Option<f64>) -> bool {
        if !self.convened() {
            return false;
        }
        let Some(judge) = self.jurors.get(index).cloned() else {
            return false;
        };
        match self.answers.get_mut(index) {
            Some(slot @ None) => {
                *slot = Some(JurorAnswer { judge, outcome, elapsed_ms });
                true
            }
            _ => false,
        }
    }

    /// Whether every juror has answered or failed.
    pub fn is_complete(&self) -> bool {
        !self.convened() || self.answers.iter().all(Option::is_some)
    }

    /// The spec's output object. A juror with nothing recorded counts as
    /// failed (`no answer recorded`).
    pub fn finish(self) -> JudgeResult {
        let Verification { request, config, passage, quote, comparison, quote_lines, jurors, answers, prompt } = self;
        let convened = !jurors.is_empty() && prompt.is_some();
        let cited_lines = match LineRange::new(request.start_line, request.end_line) {
            Ok(r) => r.to_string(),
            Err(_) => format!("L{}-L{}", request.start_line, request.end_line),
        };
        let deliberation = convened.then(|| {
            let answers: Vec<JurorAnswer> = answers
                .into_iter()
                .zip(&jurors)
                .map(|(a, name)| {
                    a.unwrap_or_else(|| {
                        JurorAnswer::failed(name.clone(), JurorFailure::Error("no answer recorded".into()))
                    })
                })
                .collect();
            deliberate(&answers)
        });
        let faithful = matches!(comparison, None | Some(quote::Comparison::Faithful));
        let quote_match = quote.as_ref().is_some_and(|q| q.matched) && faithful;
        let (quote_changes, unchecked) = match comparison {
            Some(quote::Comparison::Changed(changes)) => (changes, None),
            Some(quote::Comparison::Unchecked(why)) => (Vec::new(), Some(why)),
            _ => (Vec::new(), None),
        };
        let verdict = match (&passage, &deliberation) {
            (Err(CitationError::FileNotFound { .. }), _) => Verdict::FileNotFound,
            (Err(_), _) => Verdict::LinesOutOfRange,
            (Ok(_), _) if !quote_match => Verdict::QuoteNotFound,
            (Ok(_), Some(d)) => d.semantic.verdict.into(),
            (Ok(_), None) => Verdict::JuryNotConvened,
        };
        let jury = match &deliberation {
            Some(d) => JuryReport {
                convened: true,
                jurors: jurors.clone(),
                votes: d.votes.clone(),
                tally: d.tally.clone(),
                answered: d.answered,
                failed: d.failed,
                abstained: d.abstained,
            },
            None => JuryReport {
                convened: false,
                jurors,
                votes: Vec::new(),
                tally: BTreeMap::new(),
                answered: 0,
                failed: 0,
                abstained: 0,
            },
        };
        JudgeResult {
            step_1_existence: passage.is_ok(),
            step_2_quote_match: quote_match,
            quote_score: quote.as_ref().map_or(0.0, |q| q.score),
            step_3_semantic: deliberation.map(|d| d.semantic),
            verdict,
            verified: verdict == Verdict::Valid,
            text_found: passage.as_ref().map_or(String::new(), |p| tagged(&p.cited)),
            error: match &passage {
                Err(e) => Some(e.to_string()),
                Ok(p) => p
                    .past_end
                    .map(|rest| {
                        format!(
                            "cited lines {rest} are past the end of the file ({} lines); the lines that exist were cited",
                            p.line_count
                        )
                    })
                    .into_iter()
                    .chain(unchecked)
                    .reduce(|a, b| format!("{a}; {b}")),
            },
            quote_changes,
            quote_lines: quote_lines.map(|(a, b)| format!("L{a}-L{b}")),
            quote_outside_cited_lines: quote_lines
                .zip(passage.as_ref().ok())
                .is_some_and(|((a, b), p)| b < p.range.start || a > p.range.end),
            claim: request.claim,
            quote: request.quote,
            filename: request.filename,
            cited_lines,
            threshold: config.threshold,
            context: passage.as_ref().ok().map(|p| FoundContext {
                cited_text: p.cited_text(),
                context_before: p.context_before(),
                context_after: p.context_after(),
                line_count: p.line_count,
                past_end: p.past_end.map(|r| r.to_string()),
            }),
            jury,
        }
    }
}

/// Steps 1 and 2 only, without a jury (verdict `JURY_NOT_CONVENED` when the
/// quote is found).
pub fn check_without_jury(
    request: ClaimRequest,
    source: Result<&str, String>,
    config: &JudgeConfig,
) -> Result<JudgeResult, Error> {
    Ok(Verification::new(request, source, config, Vec::new())?.finish())
}
