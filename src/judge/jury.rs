//! The jury's deliberation (spec 002 step 3, "Consensus voting" and "LLM
//! errors"): from each juror's raw answer (or failure) to one verdict.
//!
//! - Every juror whose answer can be read ([`parse_answer`]) casts a ballot;
//!   a juror that failed or timed out is recorded and skipped, and one that
//!   answered without a verdict (only reasoning, alternatives, garbage)
//!   **abstains**: its vote says so (`abstained: true`, error `abstained:
//!   ...`), the jury counts it apart (`abstained`, also within `failed`),
//!   and the reason names it.
//! - All ballots agree: that verdict (`Consensus (n/n)`).
//! - Otherwise a verdict with more than half of the ballots wins
//!   (`Majority (k/n)`): the spec's "if majority agrees → majority wins".
//! - Anything else is `HUNG_JURY`: a tie (1 VALID vs 1 INSUFFICIENT; 1-1-1),
//!   and a plurality short of a majority (2-1-1 of four ballots: two of
//!   four is no majority, issue 15).
//! - No ballot at all (every juror failed) is `LLM_ERROR`.
//!
//! The three booleans of the outcome are what most of the winning ballots
//! say (an even split takes the value the winning verdict implies); for
//! `HUNG_JURY` what most of all ballots say (an even split is false); for
//! `LLM_ERROR` all false.

use super::ballot::{parse_answer, shorten, Ballot, JurorVerdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Why a juror gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JurorFailure {
    /// No answer within the juror's timeout.
    Timeout {
        /// The timeout, in milliseconds.
        after_ms: u64,
    },
    /// The call failed (network error, HTTP error, the JS function threw).
    Error(String),
}

impl fmt::Display for JurorFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JurorFailure::Timeout { after_ms } => write!(f, "timed out after {after_ms} ms"),
            JurorFailure::Error(e) => write!(f, "{e}"),
        }
    }
}

/// What a surface reports for one juror: its raw answer or its failure.
#[derive(Debug, Clone, PartialEq)]
pub struct JurorAnswer {
    /// The juror's name.
    pub judge: String,
    /// The raw answer text, or why there is none.
    pub outcome: Result<String, JurorFailure>,
    /// How long the juror took, when the surface measured it.
    pub elapsed_ms: Option<f64>,
}

impl JurorAnswer {
    /// A failure.
    pub fn failed(judge: impl Into<String>, failure: JurorFailure) -> JurorAnswer {
        JurorAnswer { judge: judge.into(), outcome: Err(failure), elapsed_ms: None }
    }
}

/// One juror's vote as reported: its ballot, or why it has none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vote {
    /// The juror's name.
    pub judge: String,
    /// The ballot read from its answer; `null` when it failed.
    pub ballot: Option<Ballot>,
    /// Why there is no ballot: the call's error, `timed out after N ms`, or
    /// `abstained: ...` (an answer without a verdict).
    pub error: Option<String>,
    /// The juror answered, but its answer gives no verdict.
    #[serde(default)]
    pub abstained: bool,
    /// How long the juror took, when measured.
    pub elapsed_ms: Option<f64>,
}

/// The jury's verdict (spec 002 step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SemanticVerdict {
    /// Quote is substantive, in context, and supports the claim.
    Valid,
    /// Quote exists but its context changes its meaning.
    Misleading,
    /// Quote too short or too generic.
    Insufficient,
    /// Quote does not logically support the claim.
    Unsupported,
    /// The jurors split evenly at the top.
    HungJury,
    /// Every juror failed.
    LlmError,
}

impl SemanticVerdict {
    /// The spec's name, e.g. `HUNG_JURY`.
    pub fn as_str(self) -> &'static str {
        match self {
            SemanticVerdict::Valid => "VALID",
            SemanticVerdict::Misleading => "MISLEADING",
            SemanticVerdict::Insufficient => "INSUFFICIENT",
            SemanticVerdict::Unsupported => "UNSUPPORTED",
            SemanticVerdict::HungJury => "HUNG_JURY",
            SemanticVerdict::LlmError => "LLM_ERROR",
        }
    }
}

impl From<JurorVerdict> for SemanticVerdict {
    fn from(v: JurorVerdict) -> SemanticVerdict {
        match v {
            JurorVerdict::Valid => SemanticVerdict::Valid,
            JurorVerdict::Misleading => SemanticVerdict::Misleading,
            JurorVerdict::Insufficient => SemanticVerdict::Insufficient,
            JurorVerdict::Unsupported => SemanticVerdict::Unsupported,
        }
    }
}

/// `step_3_semantic` of the spec's output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Semantic {
    /// The jury's verdict.
    pub verdict: SemanticVerdict,
    /// Is the quote substantive?
    pub substantive_quote: bool,
    /// Is the quote in context?
    pub quote_in_context: bool,
    /// Does the source support the claim?
    pub supports_claim: bool,
    /// `Consensus (2/2): VALID: <the first winning juror's reason>`, and the
    /// like.
    pub reason: String,
}

/// The whole deliberation: the outcome and every vote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deliberation {
    /// The outcome (`step_3_semantic`).
    pub semantic: Semantic,
    /// Every juror's vote, in the order the jurors were given.
    pub votes: Vec<Vote>,
    /// Ballots per verdict.
    pub tally: BTreeMap<JurorVerdict, usize>,
    /// How many jurors cast a ballot.
    pub answered: usize,
    /// How many cast no ballot (error, timeout, or abstention).
    pub failed: usize,
    /// How many of those answered without a verdict.
    pub abstained: usize,
}

/// Reads every answer and reaches the verdict (see the module documentation).
pub fn deliberate(answers: &[JurorAnswer]) -> Deliberation {
    let votes: Vec<Vote> = answers.iter().map(vote).collect();
    let ballots: Vec<&Ballot> = votes.iter().filter_map(|v| v.ballot.as_ref()).collect();
    let mut tally: BTreeMap<JurorVerdict, usize> = BTreeMap::new();
    for b in &ballots {
        *tally.entry(b.verdict).or_insert(0) += 1;
    }
    let note = |v: &Vote| v.error.as_ref().map(|e| format!("{}: {}", v.judge, shorten(e, 200)));
    let failures: Vec<String> = votes.iter().filter(|v| !v.abstained).filter_map(note).collect();
    let abstentions: Vec<String> = votes.iter().filter(|v| v.abstained).filter_map(note).collect();
    let semantic = decide(&ballots, &tally, &failures, &abstentions);
    Deliberation {
        semantic,
        answered: ballots.len(),
        failed: failures.len() + abstentions.len(),
        abstained: abstentions.len(),
        votes,
        tally,
    }
}

fn vote(a: &JurorAnswer) -> Vote {
    let (ballot, error, abstained) = match &a.outcome {
        Ok(raw) => match parse_answer(raw) {
            Ok(b) => (Some(b), None, false),
            Err(e) => (None, Some(format!("abstained: {e}")), true),
        },
        Err(f) => (None, Some(f.to_string()), false),
    };
    Vote { judge: a.judge.clone(), ballot, error, abstained, elapsed_ms: a.elapsed_ms }
}

/// Strict majority of `values`; `tie` on an even split.
fn majority(values: impl Iterator<Item = bool>, tie: bool) -> bool {
    let (mut yes, mut no) = (0usize, 0usize);
    for v in values {
        if v {
            yes += 1;
        } else {
            no += 1;
        }
    }
    if yes == no {
        tie
    } else {
        yes > no
    }
}

fn decide(
    ballots: &[&Ballot],
    tally: &BTreeMap<JurorVerdict, usize>,
    failures: &[String],
    abstentions: &[String],
) -> Semantic {
    let mut notes = Vec::new();
    if !failures.is_empty() {
        notes.push(format!("skipped {} failed: {}", failures.len(), failures.join("; ")));
    }
    if !abstentions.is_empty() {
        notes.push(format!("{} abstained: {}", abstentions.len(), abstentions.join("; ")));
    }
    let skipped = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) };
    let n = ballots.len();
    let top = tally.values().copied().max().unwrap_or(0);
    let leaders: Vec<JurorVerdict> = tally.iter().filter(|(_, &c)| c == top).map(|(&v, _)| v).collect();
    match leaders.as_slice() {
        [] => Semantic {
            verdict: SemanticVerdict::LlmError,
            substantive_quote: false,
            quote_in_context: false,
            supports_claim: false,
            reason: match (failures.is_empty(), abstentions.is_empty()) {
                (true, true) => "No juror answered".to_string(),
                (false, true) => format!("All {} jurors failed: {}", failures.len(), failures.join("; ")),
                (true, false) => {
                    format!("No verdict: all {} jurors abstained: {}", abstentions.len(), abstentions.join("; "))
                }
                (false, false) => format!(
                    "No verdict: {} failed: {}; {} abstained: {}",
                    failures.len(),
                    failures.join("; "),
                    abstentions.len(),
                    abstentions.join("; ")
                ),
            },
        },
        [winner] if 2 * top > n => {
            let winning: Vec<&&Ballot> = ballots.iter().filter(|b| b.verdict == *winner).collect();
            let (s, c, p) = winner.implied_flags();
            let label = if top == n { "Consensus" } else { "Majority" };
            let first_reason = winning.iter().map(|b| b.reason.trim()).find(|r| !r.is_empty()).unwrap_or("");
            let reason = if first_reason.is_empty() {
                format!("{label} ({top}/{n}): {winner}{skipped}")
            } else {
                format!("{label} ({top}/{n}): {winner}: {first_reason}{skipped}")
            };
            Semantic {
                verdict: (*winner).into(),
                substantive_quote: majority(winning.iter().map(|b| b.substantive_quote), s),
                quote_in_context: majority(winning.iter().map(|b| b.quote_in_context), c),
                supports_claim: majority(winning.iter().map(|b| b.supports_claim), p),
                reason,
            }
        }
        _ => {
            let split: Vec<String> = tally.iter().map(|(v, c)| format!("{c} {v}")).collect();
            Semantic {
                verdict: SemanticVerdict::HungJury,
                substantive_quote: majority(ballots.iter().map(|b| b.substantive_quote), false),
                quote_in_context: majority(ballots.iter().map(|b| b.quote_in_context), false),
                supports_claim: majority(ballots.iter().map(|b| b.supports_claim), false),
                reason: format!("Hung jury ({n} ballots): {}{skipped}", split.join(", ")),
            }
        }
    }
}
