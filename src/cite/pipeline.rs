//! The whole citation pipeline of spec 004 (part 2): stage 1, stage 2
//! (interleaved generation, or generate-then-cite when disabled), stage 3,
//! stage 4 (isolated verification), stage 5, stage 6 (with the LLM's QA
//! questions when enabled) and the final assembly with the spec's
//! end-to-end metrics ("Evaluation commitments") and warnings.
//!
//! Architecture Invariant: [`Pipeline`] performs no I/O. It is a state
//! machine (quinn-proto style): [`Pipeline::next`] says which LLM requests
//! to make, [`Pipeline::answer`] takes each answer, and the host's runner
//! makes the calls: [`run_blocking`] natively (threads, the CLI's HTTP),
//! `src/wasm/cite.rs` with JS Promises. Given the same answers it gives the
//! same report, whatever order the answers come in within a round.
//!
//! Concurrency (Part VI, "Parallelization Strategy"): stage 2 is sequential
//! (each claim removes its evidence from the pool), every other stage asks
//! all its requests of one round at once. The pipeline hands each round out
//! in [`Lane`]s, computed here once for every runner: stage 4's requests by
//! their claim's confidence tier, at most `llm_calls.max_in_flight_high`
//! (5), `_medium` (3) and `_low` (2) in flight (the spec's "HIGH claims: 5
//! in parallel", …), the tiers side by side; stage 2's and stage 6's at
//! most `llm_calls.max_in_flight` (4). Each call is bounded by
//! [`Round::call_timeout_ms`]: `call_timeout_seconds`, shortened to the time
//! left in the run. The runners ([`run_blocking`], `src/wasm/cite.rs`) only
//! obey these numbers. A call that failed transiently is asked again (the
//! pipeline re-queues it, at most `max_retries` times); one that still
//! fails abstains its claim. Rounds are bounded: stage 2 asks at most once
//! per span of the pool, stage 4 at most three rounds, stage 6 one.
//!
//! Embeddings: when the host has an embedder ([`Pipeline::embedding`]), the
//! pipeline asks it ([`Step::Embed`], answered by [`Pipeline::embedded`])
//! for stage 1's candidate spans and query (`semantic` or `hybrid`
//! relevance), then for the claims and the pool's spans not embedded yet
//! (stage 3's similarity signal, stage 5's hybrid), as `cite` does.

use super::confidence::ConfidenceLevel;
use super::config::CiteConfig;
use super::correction::Action;
use super::evidence::{self, EvidencePool};
use super::verify::{self, Method, VerifyContext};
use super::{config, numeric, CiteInput, Claim, ClaimResult, Verdict};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use crate::matching::semantic::{self, Embedder};
use crate::text::position::Span;
use serde::Serialize;
use std::collections::BTreeMap;
use unicode_segmentation::UnicodeSegmentation;

/// Most characters of one LLM answer; a longer answer is a failed call.
pub const MAX_ANSWER_CHARS: usize = 100_000;
/// Most sections of an outline.
pub const MAX_OUTLINE_SECTIONS: usize = 100;
/// `max_tokens` the requests suggest (the spec's 200 for generation, 50
/// for the quick check, 100 for an answer from the evidence; 400 for
/// the reasoned verdicts and the draft, not in the spec).
const TOKENS_GENERATE: u32 = 200;
const TOKENS_QUICK: u32 = 50;
const TOKENS_ANSWER: u32 = 100;
const TOKENS_REASONED: u32 = 400;

/// Which host callback a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Callback {
    /// Stage 2: writes claims.
    Generate,
    /// Stage 4: judges a claim against its evidence (isolated).
    Verify,
    /// Stage 6: answers one question from one text.
    Qa,
}

/// What a request asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// Stage 2: one claim from one evidence quote.
    Generate,
    /// Stage 2 disabled: a whole answer from the pool (generate-then-cite).
    Draft,
    /// Stage 4, HIGH or MEDIUM confidence: the verdict.
    Verify,
    /// Stage 4, LOW: verification questions about the claim.
    CoveQuestions,
    /// Stage 4, LOW: one question answered from the evidence alone.
    CoveAnswer,
    /// Stage 4, LOW: the verdict, with the answers.
    CoveCompare,
    /// Stage 6: one question answered from the claim alone or the evidence
    /// alone.
    NumericQa,
}

impl RequestKind {
    /// The callback that answers this kind.
    pub fn callback(self) -> Callback {
        match self {
            RequestKind::Generate | RequestKind::Draft => Callback::Generate,
            RequestKind::NumericQa => Callback::Qa,
            _ => Callback::Verify,
        }
    }
}

/// One LLM request: a single user message (`prompt`), built from fixed
/// instructions and exactly the text the stage may see.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmRequest {
    /// Unique within a run.
    pub id: u64,
    /// What it asks.
    pub kind: RequestKind,
    /// The callback that answers it.
    pub callback: Callback,
    /// The claim it is about (its index), if any.
    pub claim: Option<usize>,
    /// Stage 4: the claim's confidence tier (HIGH: the spec's quick check
    /// for a fast model, MEDIUM and LOW: its analytical one), which also
    /// sets the request's [`Lane`]; `None` for stages 2 and 6.
    pub confidence: Option<ConfidenceLevel>,
    /// 1 for the first try, 2 for the first retry, …
    pub attempt: u32,
    /// The message.
    pub prompt: String,
    /// A suggested answer length.
    pub max_tokens: u32,
}

/// Why a call gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LlmFailure {
    /// It passed `call_timeout_seconds` (transient: retried).
    TimedOut,
    /// It failed in a way worth retrying (a thrown or rejected callback,
    /// HTTP 429 or 5xx, a network error).
    Transient(String),
    /// It failed for good (HTTP 4xx, an answer that is not text).
    Failed(String),
    /// The run was cancelled before the call was made.
    Cancelled,
}

impl LlmFailure {
    fn describe(&self) -> String {
        match self {
            LlmFailure::TimedOut => "timed out".into(),
            LlmFailure::Transient(m) | LlmFailure::Failed(m) => m.clone(),
            LlmFailure::Cancelled => "cancelled".into(),
        }
    }
}

/// What the pipeline tells the host as it goes (streamed).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A claim was produced by stage 2 (or read from the input).
    Claim {
        /// Its index.
        index: usize,
        /// Its text.
        text: String,
        /// The sources it cites.
        citations: Vec<String>,
        /// The outline section it was written for.
        #[serde(skip_serializing_if = "Option::is_none")]
        section: Option<String>,
    },
    /// A claim's stage 4 ended (again, for a claim whose evidence stage 5
    /// replaced: it is verified against the new span).
    Verified {
        /// Its index.
        index: usize,
        /// Stage 4's verdict after the toggles (`None`: abstained without one).
        verdict: Option<Verdict>,
        /// Whether it abstained.
        abstained: bool,
        /// How it was verified.
        method: Method,
    },
}

/// What to do next.
#[derive(Debug)]
pub enum Step {
    /// Make these calls, as many at once as each [`Lane`] allows, answer
    /// each with [`Pipeline::answer`], then call [`Pipeline::next`] again.
    Ask(Round),
    /// Embed these texts with the host's embedder (one call), answer with
    /// [`Pipeline::embedded`], then call [`Pipeline::next`] again. Asked
    /// only of a pipeline told [`Pipeline::embedding`].
    Embed(Vec<String>),
    /// The run is over.
    Done(Box<PipelineReport>),
}

/// One round's requests that share a bound on calls in flight. The lanes
/// of a round run side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Stage 4's requests of the claims of one confidence tier; `None`:
    /// stage 2's or stage 6's.
    pub tier: Option<ConfidenceLevel>,
    /// At most this many of the lane's calls in flight at once (at least 1).
    pub max_in_flight: usize,
    /// The requests, in the order they should start.
    pub requests: Vec<LlmRequest>,
}

/// One round of LLM calls: its lanes and the time its calls may take.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// HIGH, MEDIUM and LOW tiers' lanes (those with requests), then the
    /// untiered one.
    pub lanes: Vec<Lane>,
    /// `call_timeout_seconds` in milliseconds.
    call_timeout_ms: f64,
    /// The run's time left when the round was handed out (infinite without
    /// a deadline).
    time_left_ms: f64,
}

impl Round {
    /// The time limit of a call that starts `elapsed_ms` after the round
    /// was handed out: `call_timeout_seconds`, shortened to the time left
    /// in the run; `None` when no time is left (the runner makes no call and
    /// answers [`LlmFailure::TimedOut`]).
    pub fn call_timeout_ms(&self, elapsed_ms: f64) -> Option<f64> {
        let left = self.time_left_ms - elapsed_ms.max(0.0);
        let limit = self.call_timeout_ms.min(left);
        (limit > 0.0).then_some(limit)
    }

    /// [`Round::call_timeout_ms`] as a `Duration` (native runners).
    pub fn call_timeout(&self, elapsed: std::time::Duration) -> Option<std::time::Duration> {
        let ms = self.call_timeout_ms(elapsed.as_secs_f64() * 1000.0)?;
        std::time::Duration::try_from_secs_f64(ms / 1000.0).ok()
    }

    /// Every request of the round, lane by lane.
    pub fn requests(&self) -> impl Iterator<Item = &LlmRequest> {
        self.lanes.iter().flat_map(|l| l.requests.iter())
    }
}

/// A claim stage 2 dropped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedClaim {
    /// The section it was for.
    pub section: String,
    /// The span's source.
    pub source_id: String,
    /// What the LLM wrote ("" when the call failed).
    pub text: String,
    /// Why it was dropped.
    pub reason: String,
}

/// Stage 2's account.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerationReport {
    /// `interleaved`, `generate_then_cite`, or `input` (the claims were given).
    pub mode: &'static str,
    /// The sections written for (the outline, else the query).
    pub sections: Vec<String>,
    /// Claims that failed the quick entailment check or whose call failed.
    pub dropped: Vec<DroppedClaim>,
}

/// A span a claim cites after correction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceRef {
    /// Its source.
    pub source_id: String,
    /// The quote.
    pub quote: String,
    /// Where it is in the source's content.
    pub position: Span,
}

/// One question of full CoVe or stage 6, with its answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QaPair {
    /// The question.
    pub question: String,
    /// The answer from the evidence alone.
    pub evidence_answer: String,
    /// Stage 6: the answer from the claim alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_answer: Option<String>,
    /// Stage 6: whether the two answers agree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agree: Option<bool>,
}

/// Stage 4's result for one claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    /// `llm` or `deterministic`.
    pub verifier: &'static str,
    /// How hard it was verified.
    pub method: Method,
    /// The evidence the verifier saw (the best cited span's quote; `None`
    /// when the claim cites none).
    pub evidence: Option<String>,
    /// The verdict after the NEI and abstention toggles (`None`: abstained
    /// without one).
    pub verdict: Option<Verdict>,
    /// The first verification, against the evidence stage 5 replaced (the
    /// verdict above is the second, against the new evidence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial: Option<InitialVerification>,
    /// The verdict as the verifier gave it (before the toggles).
    pub raw_verdict: Option<Verdict>,
    /// Shown as not verifiable.
    pub abstained: bool,
    /// Why (the deterministic verifier's reason, a failed call, "no
    /// verdict in the answer", a forced verdict).
    pub reason: String,
    /// Full CoVe's questions and evidence-only answers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub qa: Vec<QaPair>,
}

/// A verification made before stage 5 replaced the evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InitialVerification {
    /// Its verdict after the toggles.
    pub verdict: Option<Verdict>,
    /// Why.
    pub reason: String,
}

/// Stage 6 through the LLM (QAFactEval).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumericQa {
    /// SUPPORTED when every answer agrees, CONTRADICTED when the values
    /// differ, PARTIAL otherwise.
    pub verdict: Verdict,
    /// Share of questions whose answers agree.
    pub match_score: f64,
    /// The questions and both answers.
    pub qa: Vec<QaPair>,
}

/// One claim of the final assembly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifiedClaim {
    /// Stages 3, 5 and 6 (deterministic), as part 1 reports them.
    #[serde(flatten)]
    pub result: ClaimResult,
    /// The final verdict: stage 4's, lowered by stage 6 (a contradicted
    /// number is CONTRADICTED). `None` when abstained without one.
    pub verdict: Option<Verdict>,
    /// Shown as not verifiable (Invariant A).
    pub abstained: bool,
    /// The outline section (generated claims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The cited spans after correction.
    pub evidence: Vec<EvidenceRef>,
    /// Stage 4.
    pub verification: Verification,
    /// Stage 6 through the LLM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numeric_qa: Option<NumericQa>,
}

/// The end-to-end product metrics (spec 004, "Evaluation commitments").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Claims in the report.
    pub claims: usize,
    /// Final verdicts: SUPPORTED.
    pub supported: usize,
    /// PARTIAL.
    pub partial: usize,
    /// UNSUPPORTED.
    pub unsupported: usize,
    /// CONTRADICTED.
    pub contradicted: usize,
    /// NEI.
    pub nei: usize,
    /// Abstained.
    pub abstained: usize,
    /// Claims whose citations stage 5 changed (REPLACE, REMOVE, ADD_ALTERNATE).
    pub corrected: usize,
    /// unsupported / claims (0 without claims), and so on.
    pub unsupported_rate: f64,
    /// contradicted / claims.
    pub contradicted_rate: f64,
    /// nei / claims.
    pub nei_rate: f64,
    /// corrected / claims.
    pub correction_rate: f64,
    /// abstained / claims.
    pub abstention_rate: f64,
    /// LLM calls made (retries included).
    pub llm_calls: usize,
    /// Of them, retries.
    pub retries: usize,
    /// Calls that failed after their retries.
    pub failed_calls: usize,
    /// The 95th percentile of the calls' latency in milliseconds (nearest
    /// rank; 0 without calls): the pipeline's latency overhead per call.
    pub p95_call_ms: f64,
}

/// Which stages ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PipelineStages {
    /// Stage 1 ran (else whole sources).
    pub evidence_preselection: bool,
    /// Stage 2 ran interleaved (else generate-then-cite, or claims given).
    pub interleaved_generation: bool,
    /// Stage 3 ran (else every claim LOW).
    pub confidence_classification: bool,
    /// `llm` or `deterministic`.
    pub verifier: &'static str,
    /// Stage 5 ran.
    pub citation_correction: bool,
    /// Stage 6 compared normalized values (and asked the LLM's QA).
    pub numeric_qa_verification: bool,
    /// NEI kept as a verdict.
    pub nei_verdict: bool,
    /// Abstention allowed.
    pub abstention: bool,
}

/// The pipeline's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PipelineReport {
    /// Stage 1's pool, best first.
    pub evidence_pool: Vec<evidence::EvidenceSpan>,
    /// Stage 1's method.
    pub relevance_method_used: &'static str,
    /// Stage 5's method.
    pub correction_method_used: &'static str,
    /// Stage 2.
    pub generation: GenerationReport,
    /// The claims, in the order produced.
    pub claims: Vec<VerifiedClaim>,
    /// The end-to-end metrics.
    pub summary: Summary,
    /// What a reader should know (rates above 0, failed calls, fallbacks).
    pub warnings: Vec<String>,
    /// The toggles as applied.
    pub stages: PipelineStages,
}

/// Where an answer goes.
#[derive(Debug, Clone)]
enum Target {
    Generate { span: usize },
    Draft,
    Verdict { claim: usize },
    Questions { claim: usize },
    Answer { claim: usize, question: usize },
    Compare { claim: usize },
    Numeric { claim: usize, question: usize, from_claim: bool },
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Evidence,
    Generate,
    Verify,
    Reverify,
    NumericQa,
    Done,
}

/// Where a full CoVe is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cove {
    Questions,
    Answers,
    Compare,
}

/// One claim's stage 4, as it goes.
#[derive(Debug, Clone)]
struct Check {
    cx: Option<VerifyContext>,
    level: ConfidenceLevel,
    method: Method,
    /// The first verification's verdict and reason, when stage 5 replaced
    /// the evidence and the claim was verified again.
    initial: Option<(Option<Verdict>, String)>,
    cove: Cove,
    /// Questions asked (full CoVe) and their evidence-only answers.
    questions: Vec<String>,
    answers: Vec<Option<String>>,
    /// Requests of this claim still waiting.
    waiting: usize,
    /// The verdict as given; `None` with `done` is an abstention.
    raw: Option<Verdict>,
    reason: String,
    /// A call of this claim failed after its retries.
    failed: bool,
    done: bool,
}

/// One claim's stage 6 questions.
#[derive(Debug, Clone, Default)]
struct NumericCheck {
    questions: Vec<String>,
    claim_answers: Vec<Option<String>>,
    evidence_answers: Vec<Option<String>>,
    failed: bool,
}

/// A call's record, for the summary.
#[derive(Debug, Clone)]
struct CallRecord {
    attempt: u32,
    elapsed_ms: f64,
    failed: bool,
}

/// Stage 2's progress.
#[derive(Debug, Clone)]
struct Generation {
    sections: Vec<String>,
    section: usize,
    in_section: usize,
    /// Pool indices not used yet.
    remaining: Vec<usize>,
    dropped: Vec<DroppedClaim>,
    /// The section of each produced claim.
    claim_sections: Vec<Option<String>>,
    /// Generate-then-cite's answer, to split into claims.
    draft: Option<String>,
}

/// The pipeline (see the module docs).
pub struct Pipeline {
    input: CiteInput,
    config: CiteConfig,
    llm: bool,
    phase: Phase,
    mode: &'static str,
    pool: Option<EvidencePool>,
    claims: Vec<Claim>,
    generation: Generation,
    scored: Option<super::Scored>,
    checks: Vec<Check>,
    stage5: Option<super::CiteReport>,
    numeric: BTreeMap<usize, NumericCheck>,
    queue: Vec<LlmRequest>,
    outstanding: BTreeMap<u64, (LlmRequest, Target)>,
    next_id: u64,
    calls: Vec<CallRecord>,
    events: Vec<Event>,
    /// The claims were given (stage 2 is skipped).
    given: bool,
    /// The host answers [`Step::Embed`].
    embeds: bool,
    /// The host's vectors, by text.
    vectors: BTreeMap<String, Vec<f32>>,
    /// The texts of the [`Step::Embed`] handed out and not answered yet.
    embedding: Option<Vec<String>>,
    /// Stage 1's and stage 3's texts have been asked for.
    embedded_for: [bool; 2],
    /// The embedder's failure (the run ends with it).
    embed_error: Option<Error>,
}

/// The host's vectors, answered by text (what [`Pipeline::embedded`] kept).
struct Answered<'a>(&'a BTreeMap<String, Vec<f32>>);

impl Embedder for Answered<'_> {
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
        texts
            .iter()
            .map(|t| self.0.get(*t).cloned().ok_or_else(|| "asked for a text not embedded ahead".into()))
            .collect()
    }
}

fn timeout() -> Error {
    Error::new(ErrorKind::Processing, "the citation pipeline ran past max_processing_time_seconds")
}

impl Pipeline {
    /// A run on `input`; `outline`, when not empty, is stage 2's sections
    /// (else the query is the one section).
    /// `llm`: the host answers LLM requests; without it the input must hold
    /// claims and stage 4 is the deterministic verifier (see also
    /// [`Pipeline::verify_deterministically`]). Stage 1 runs at the first
    /// [`Pipeline::next`] (by keywords, unless [`Pipeline::embedding`]).
    ///
    /// # Errors
    /// VALIDATION_ERROR at `$.claims` when there are no claims and no LLM
    /// to write them; PROCESSING_ERROR when the deadline passes.
    pub fn new(
        input: CiteInput,
        outline: Vec<String>,
        config: CiteConfig,
        llm: bool,
        deadline: &Deadline,
    ) -> Result<Pipeline> {
        if input.claims.is_empty() && !llm {
            return Err(Error::invalid_input(
                &JsonPath::root().key("claims"),
                "minItems",
                "no claims to verify and no LLM to write them: give claims, or an LLM for stage 2",
            ));
        }
        if deadline.expired_now() {
            return Err(timeout());
        }
        let sections = if outline.is_empty() { vec![input.query.clone()] } else { outline };
        let given = !input.claims.is_empty();
        let mode = match (given, config.enable_interleaved_generation) {
            (true, _) => "input",
            (false, true) => "interleaved",
            (false, false) => "generate_then_cite",
        };
        let mut p = Pipeline {
            claims: Vec::new(),
            generation: Generation {
                sections,
                section: 0,
                in_section: 0,
                remaining: Vec::new(),
                dropped: Vec::new(),
                claim_sections: Vec::new(),
                draft: None,
            },
            pool: None,
            input,
            config,
            llm,
            phase: Phase::Evidence,
            mode,
            scored: None,
            checks: Vec::new(),
            stage5: None,
            numeric: BTreeMap::new(),
            queue: Vec::new(),
            outstanding: BTreeMap::new(),
            next_id: 0,
            calls: Vec::new(),
            events: Vec::new(),
            given,
            embeds: false,
            vectors: BTreeMap::new(),
            embedding: None,
            embedded_for: [false; 2],
            embed_error: None,
        };
        if given {
            let claims = std::mem::take(&mut p.input.claims);
            for c in claims {
                p.push_claim(c, None);
            }
        }
        Ok(p)
    }

    /// The host has an embedder: the pipeline asks it ([`Step::Embed`]) for
    /// what stage 1's `semantic` or `hybrid` relevance, stage 3's similarity
    /// signal and stage 5's hybrid read, as `cite` with an embedder does.
    pub fn embedding(mut self) -> Pipeline {
        self.embeds = true;
        self
    }

    /// Takes the host's answer to the last [`Step::Embed`]: one vector per
    /// text, in order, or what went wrong. A failure or a malformed answer
    /// (a wrong count, vectors of different or zero lengths, non-finite
    /// numbers, a length unlike the earlier answer's) ends the run with a
    /// PROCESSING_ERROR naming the embed callback, as `cite` does.
    pub fn embedded(&mut self, answer: std::result::Result<Vec<Vec<f32>>, String>) {
        let Some(texts) = self.embedding.take() else { return };
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let checked = match answer {
            Ok(vectors) => semantic::embed_texts(&refs, &semantic::Precomputed { texts: texts.clone(), vectors }),
            Err(m) => Err(Error::new(ErrorKind::Processing, format!("the embed callback failed: {m}"))),
        };
        let before = self.vectors.values().next().map(Vec::len);
        match checked {
            Ok(vectors) => {
                let now = vectors.first().map(Vec::len);
                if let (Some(a), Some(b)) = (before, now) {
                    if a != b {
                        self.embed_error = Some(Error::new(
                            ErrorKind::Processing,
                            format!("the embed callback returned vectors of length {b}, and of length {a} before"),
                        ));
                        return;
                    }
                }
                self.vectors.extend(texts.into_iter().zip(vectors));
            }
            Err(e) => self.embed_error = Some(e),
        }
    }

    /// The texts of `wanted` not embedded yet, each once, handed out as a
    /// [`Step::Embed`]; `None` when there are none.
    fn ask_embeddings(&mut self, wanted: Vec<String>) -> Option<Step> {
        let mut seen = std::collections::BTreeSet::new();
        let texts: Vec<String> =
            wanted.into_iter().filter(|t| !self.vectors.contains_key(t) && seen.insert(t.clone())).collect();
        if texts.is_empty() {
            return None;
        }
        self.embedding = Some(texts.clone());
        Some(Step::Embed(texts))
    }

    /// The host's vectors as an embedder, once it has answered.
    fn embedder(&self) -> Option<Answered<'_>> {
        (self.embeds && !self.vectors.is_empty()).then_some(Answered(&self.vectors))
    }

    /// Stage 1: the pool, asking the host's embedder first when its method
    /// reads embeddings.
    fn evidence_step(&mut self, deadline: &Deadline) -> Result<Option<Step>> {
        if self.embeds && !self.embedded_for[0] {
            self.embedded_for[0] = true;
            if let Some(asked) =
                evidence::embed_requests(&self.input.sources, &self.input.query, &self.config, deadline)?
            {
                let mut texts = asked.spans;
                texts.push(asked.query);
                if let Some(step) = self.ask_embeddings(texts) {
                    return Ok(Some(step));
                }
            }
        }
        let embedder = self.embedder();
        let pool = evidence::preselect(
            &self.input.sources,
            &self.input.query,
            &self.config,
            embedder.as_ref().map(|e| e as &dyn Embedder),
            deadline,
        )?;
        self.generation.remaining = (0..pool.spans.len()).collect();
        self.pool = Some(pool);
        self.phase = if self.given { Phase::Verify } else { Phase::Generate };
        Ok(None)
    }

    /// Stage 4 (and stage 6's questions) by the deterministic verifier even
    /// though the host answers stage 2 (an LLM writes, the library checks).
    pub fn verify_deterministically(mut self) -> Pipeline {
        self.llm = false;
        self
    }

    /// The configuration the run reads.
    pub fn config(&self) -> &CiteConfig {
        &self.config
    }

    /// The events since the last call, in order.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    fn push_claim(&mut self, claim: Claim, section: Option<String>) {
        self.events.push(Event::Claim {
            index: self.claims.len(),
            text: claim.text.clone(),
            citations: claim.citations.clone(),
            section: section.clone(),
        });
        self.generation.claim_sections.push(section);
        self.claims.push(claim);
    }

    fn request(&mut self, kind: RequestKind, claim: Option<usize>, prompt: String, tokens: u32, target: Target) {
        self.next_id += 1;
        let confidence = match kind.callback() {
            Callback::Verify => claim.and_then(|n| self.checks.get(n)).map(|c| c.level),
            Callback::Generate | Callback::Qa => None,
        };
        let r = LlmRequest {
            id: self.next_id,
            kind,
            callback: kind.callback(),
            claim,
            confidence,
            attempt: 1,
            prompt,
            max_tokens: tokens,
        };
        self.outstanding.insert(r.id, (r.clone(), target));
        self.queue.push(r);
    }

    /// The next requests, or the report.
    ///
    /// # Errors
    /// PROCESSING_ERROR when the deadline passed, or when requests handed
    /// out before are still unanswered.
    pub fn next(&mut self, deadline: &Deadline) -> Result<Step> {
        loop {
            if let Some(e) = self.embed_error.take() {
                return Err(e);
            }
            if deadline.expired_now() {
                return Err(timeout());
            }
            if !self.queue.is_empty() {
                return Ok(Step::Ask(self.round(deadline)));
            }
            if !self.outstanding.is_empty() || self.embedding.is_some() {
                return Err(Error::new(
                    ErrorKind::Processing,
                    format!("{} LLM requests were handed out and not answered", self.outstanding.len()),
                ));
            }
            let asked = match self.phase {
                Phase::Evidence => self.evidence_step(deadline)?,
                Phase::Generate => self.generate_step(deadline).map(|()| None)?,
                Phase::Verify | Phase::Reverify => self.verify_step(deadline)?,
                Phase::NumericQa => self.numeric_step(deadline).map(|()| None)?,
                Phase::Done => return Ok(Step::Done(Box::new(self.assemble()?))),
            };
            if let Some(step) = asked {
                return Ok(step);
            }
        }
    }

    /// The queued requests as a round: stage 4's in one lane per
    /// confidence tier with the tier's bound, the others in one lane with
    /// `max_in_flight`; each lane in request order.
    fn round(&mut self, deadline: &Deadline) -> Round {
        let calls = &self.config.llm_calls;
        let mut lanes: Vec<Lane> = [
            (Some(ConfidenceLevel::High), calls.max_in_flight_high),
            (Some(ConfidenceLevel::Medium), calls.max_in_flight_medium),
            (Some(ConfidenceLevel::Low), calls.max_in_flight_low),
            (None, calls.max_in_flight),
        ]
        .into_iter()
        .map(|(tier, max)| Lane { tier, max_in_flight: max.max(1), requests: Vec::new() })
        .collect();
        for r in std::mem::take(&mut self.queue) {
            if let Some(lane) = lanes.iter_mut().find(|l| l.tier == r.confidence) {
                lane.requests.push(r);
            }
        }
        lanes.retain(|l| !l.requests.is_empty());
        for lane in &mut lanes {
            crate::sort::sort_by(&mut lane.requests, |a, b| a.id.cmp(&b.id));
        }
        Round { lanes, call_timeout_ms: calls.call_timeout_seconds * 1000.0, time_left_ms: deadline.remaining_ms() }
    }

    /// Takes the answer to request `id` (unknown ids are ignored), with
    /// the call's latency in milliseconds.
    pub fn answer(&mut self, id: u64, answer: std::result::Result<String, LlmFailure>, elapsed_ms: f64) {
        let Some((request, target)) = self.outstanding.remove(&id) else {
            return;
        };
        let answer = answer.and_then(|a| {
            if a.chars().nth(MAX_ANSWER_CHARS).is_some() {
                Err(LlmFailure::Failed(format!("the answer is longer than {MAX_ANSWER_CHARS} characters")))
            } else {
                Ok(a)
            }
        });
        let retry = matches!(answer, Err(LlmFailure::TimedOut | LlmFailure::Transient(_)))
            && (request.attempt as usize) <= self.config.llm_calls.max_retries;
        self.calls.push(CallRecord {
            attempt: request.attempt,
            elapsed_ms: if elapsed_ms.is_finite() { elapsed_ms.max(0.0) } else { 0.0 },
            failed: answer.is_err() && !retry,
        });
        if retry {
            self.next_id += 1;
            let again = LlmRequest { id: self.next_id, attempt: request.attempt + 1, ..request };
            self.outstanding.insert(again.id, (again.clone(), target));
            self.queue.push(again);
            return;
        }
        match target {
            Target::Generate { span } => self.on_generated(span, answer),
            Target::Draft => self.on_draft(answer),
            Target::Verdict { claim } | Target::Compare { claim } => self.on_verdict(claim, answer),
            Target::Questions { claim } => self.on_questions(claim, answer),
            Target::Answer { claim, question } => self.on_cove_answer(claim, question, answer),
            Target::Numeric { claim, question, from_claim } => self.on_numeric(claim, question, from_claim, answer),
        }
    }

    // ---- stage 2 ----

    fn generate_step(&mut self, deadline: &Deadline) -> Result<()> {
        if !self.config.enable_interleaved_generation {
            if self.claims.is_empty() && self.generation.dropped.is_empty() && self.calls.is_empty() {
                let prompt = self.draft_prompt();
                self.request(RequestKind::Draft, None, prompt, TOKENS_REASONED, Target::Draft);
                return Ok(());
            }
            if let Some(text) = self.generation.draft.take() {
                self.cite_draft(&text, deadline)?;
            }
            self.phase = Phase::Verify;
            return Ok(());
        }
        let g = &self.generation;
        let max = self.config.interleaved_generation.max_claims_per_section;
        let done_section = g.in_section >= max || self.claims.len() >= config::MAX_CLAIMS;
        if g.section >= g.sections.len() || self.claims.len() >= config::MAX_CLAIMS {
            self.phase = Phase::Verify;
            return Ok(());
        }
        let best = if done_section { None } else { self.select_evidence(deadline)? };
        let Some(span) = best else {
            self.generation.section += 1;
            self.generation.in_section = 0;
            return Ok(());
        };
        let Some(prompt) = self.generate_prompt(span) else {
            self.generation.remaining.retain(|&i| i != span);
            return Ok(());
        };
        self.request(RequestKind::Generate, None, prompt, TOKENS_GENERATE, Target::Generate { span });
        Ok(())
    }

    /// The best unused span for the current section: half its key-word
    /// overlap with the section, half stage 1's relevance to the query; at
    /// least `min_evidence_similarity`; ties to the pool's order.
    fn select_evidence(&self, deadline: &Deadline) -> Result<Option<usize>> {
        let Some(pool) = &self.pool else { return Ok(None) };
        let section = self.section();
        let min = self.config.interleaved_generation.min_evidence_similarity;
        let mut best: Option<(usize, f64)> = None;
        for &i in &self.generation.remaining {
            if deadline.expired() {
                return Err(timeout());
            }
            let Some(span) = pool.spans.get(i) else { continue };
            let score = 0.5 * verify::key_word_share(section, &span.quote) + 0.5 * span.relevance_score.min(1.0);
            if score >= min && best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        Ok(best.map(|(i, _)| i))
    }

    /// The outline section stage 2 writes for ("" past the last).
    fn section(&self) -> &str {
        self.generation.sections.get(self.generation.section).map_or("", String::as_str)
    }

    /// The spec's `_generate_constrained_claim` prompt for pool span `span`.
    fn generate_prompt(&self, span: usize) -> Option<String> {
        let s = self.pool.as_ref()?.spans.get(span)?;
        let title = if s.source_title.is_empty() { &s.source_id } else { &s.source_title };
        Some(format!(
            "Generate a factual claim for a research report.\n\nTOPIC: {}\nRESEARCH QUESTION: {}\n\n\
             EVIDENCE (you may ONLY use facts from this quote):\n\"{}\"\n\u{2014} Source: {title}\n\n\
             Write ONE clear, factual sentence that:\n1. Is fully supported by the evidence above\n\
             2. Contributes to answering the research question\n3. Could stand alone with a citation\n\nCLAIM:",
            self.section(),
            self.input.query,
            s.quote
        ))
    }

    /// Generate-then-cite: the whole answer from the pool.
    fn draft_prompt(&self) -> String {
        let mut evidence = String::new();
        for (i, s) in self.pool.as_ref().map_or(&[][..], |p| &p.spans).iter().enumerate() {
            evidence.push_str(&format!("[{}] \"{}\"\n", i + 1, s.quote));
        }
        format!(
            "Answer the research question using only the evidence below. Write one factual sentence per \
             line.\n\nRESEARCH QUESTION: {}\n\nEVIDENCE:\n{evidence}\nANSWER:",
            self.input.query
        )
    }

    fn on_generated(&mut self, span: usize, answer: std::result::Result<String, LlmFailure>) {
        self.generation.remaining.retain(|&i| i != span);
        let Some(s) = self.pool.as_ref().and_then(|p| p.spans.get(span)).cloned() else { return };
        let section = self.section().to_string();
        let drop = |text: String, reason: String| DroppedClaim {
            section: section.clone(),
            source_id: s.source_id.clone(),
            text,
            reason,
        };
        match answer {
            Err(f) => self.generation.dropped.push(drop(String::new(), format!("the call failed: {}", f.describe()))),
            Ok(a) => {
                let text = verify::first_line(&a, "CLAIM");
                if text.is_empty() {
                    self.generation.dropped.push(drop(text, "the answer holds no claim".into()));
                } else if text.chars().count() > config::MAX_TEXT_CHARS {
                    self.generation.dropped.push(drop(String::new(), "the claim is too long".into()));
                } else if !verify::quick_entailment(&text, &s.quote, &self.config) {
                    self.generation.dropped.push(drop(text, "failed the quick entailment check".into()));
                } else {
                    self.generation.in_section += 1;
                    let claim = Claim { text, citations: vec![s.source_id.clone()], verdict: None };
                    self.push_claim(claim, Some(section));
                }
            }
        }
    }

    fn on_draft(&mut self, answer: std::result::Result<String, LlmFailure>) {
        let text = match answer {
            Ok(a) => verify::clean_answer(&a, "ANSWER"),
            Err(f) => {
                self.generation.dropped.push(DroppedClaim {
                    section: self.input.query.clone(),
                    source_id: String::new(),
                    text: String::new(),
                    reason: format!("the call failed: {}", f.describe()),
                });
                return;
            }
        };
        self.generation.draft = Some(text);
    }

    /// Generate-then-cite: each sentence of the draft a claim, cited by the
    /// span sharing most of its key words (the spec's `_find_best_evidence`).
    fn cite_draft(&mut self, text: &str, deadline: &Deadline) -> Result<()> {
        let spans: Vec<(String, Vec<String>)> = self
            .pool
            .as_ref()
            .map_or(&[][..], |p| &p.spans)
            .iter()
            .map(|s| (s.source_id.clone(), super::key_words(&s.quote)))
            .collect();
        for sentence in text.unicode_sentences().map(str::trim).filter(|s| !s.is_empty()) {
            if self.claims.len() >= config::MAX_CLAIMS || sentence.chars().count() > config::MAX_TEXT_CHARS {
                break;
            }
            let words = super::key_words(sentence);
            let mut best: Option<(&str, usize)> = None;
            for (id, span_words) in &spans {
                if deadline.expired() {
                    return Err(timeout());
                }
                let hit = words.iter().filter(|w| span_words.binary_search(w).is_ok()).count();
                if hit > 0 && best.is_none_or(|(_, b)| hit > b) {
                    best = Some((id, hit));
                }
            }
            let citations = best.map(|(id, _)| vec![id.to_string()]).unwrap_or_default();
            self.push_claim(Claim { text: sentence.to_string(), citations, verdict: None }, None);
        }
        Ok(())
    }

    // ---- stages 3 and 4 ----

    fn verify_step(&mut self, deadline: &Deadline) -> Result<Option<Step>> {
        if self.phase == Phase::Verify && self.scored.is_none() {
            if self.embeds && !self.embedded_for[1] {
                self.embedded_for[1] = true;
                if super::wants_vectors(&self.config) && !self.claims.is_empty() {
                    let spans = self.pool.as_ref().map_or(&[][..], |p| &p.spans);
                    let texts = self.claims.iter().map(|c| c.text.clone()).chain(spans.iter().map(|s| s.quote.clone()));
                    if let Some(step) = self.ask_embeddings(texts.collect()) {
                        return Ok(Some(step));
                    }
                }
            }
            let pool = self.pool.take().ok_or_else(timeout)?;
            let embedder = self.embedder();
            let scored = super::score(
                &self.claims,
                &self.config,
                embedder.as_ref().map(|e| e as &dyn Embedder),
                pool,
                deadline,
            )?;
            self.checks = self.plan_checks(&scored, deadline)?;
            self.scored = Some(scored);
            let done: Vec<usize> = (0..self.checks.len()).filter(|&n| self.check(n).is_some_and(|c| c.done)).collect();
            for n in done {
                self.emit_verified(n);
            }
        }
        let mut asked = false;
        for n in 0..self.checks.len() {
            if deadline.expired() {
                return Err(timeout());
            }
            if self.check(n).is_none_or(|c| c.done || c.waiting > 0) {
                continue;
            }
            asked = true;
            self.ask_next(n);
        }
        if asked || !self.checks.iter().all(|c| c.done) {
            return Ok(None);
        }
        if self.phase == Phase::Verify {
            let scored = self.scored.take().ok_or_else(timeout)?;
            let verdicts: Vec<Option<Verdict>> = (0..self.checks.len()).map(|n| self.final_stage4(n).0).collect();
            self.stage5 = Some(super::finish(&self.claims, &self.config, scored, &verdicts, deadline)?);
            self.plan_reverify(deadline)?;
            self.phase = Phase::Reverify;
        } else {
            self.phase = Phase::NumericQa;
        }
        Ok(None)
    }

    /// A claim whose evidence stage 5 replaced (or, when it was not
    /// SUPPORTED, added to) is verified again against the new span, the
    /// same way: its verdict must be about the evidence it is shown with.
    fn plan_reverify(&mut self, deadline: &Deadline) -> Result<()> {
        let Some(report) = &self.stage5 else { return Ok(()) };
        let mut todo = Vec::new();
        for ((n, r), check) in report.claims.iter().enumerate().zip(&self.checks) {
            if deadline.expired() {
                return Err(timeout());
            }
            let replaced = match r.correction.action {
                Action::Replace => true,
                Action::AddAlternate => check.raw != Some(Verdict::Supported),
                _ => false,
            };
            let span = r.correction.new_evidence.as_ref().and_then(|s| report.evidence_pool.get(s.span));
            if let (true, Some(span)) = (replaced, span) {
                if check.cx.as_ref().is_none_or(|cx| cx.evidence != span.quote) {
                    todo.push((n, span.quote.clone()));
                }
            }
        }
        for (n, evidence) in todo {
            let (verdict, _, note) = self.final_stage4(n);
            let Some(claim) = self.claims.get(n).map(|c| c.text.clone()) else { continue };
            let llm = self.llm;
            let Some(c) = self.checks.get_mut(n) else { continue };
            c.initial = Some((verdict, format!("{}{note}", c.reason)));
            c.method = match (llm, c.level) {
                (false, _) => Method::Deterministic,
                (true, ConfidenceLevel::High) => Method::Quick,
                (true, ConfidenceLevel::Medium) => Method::Standard,
                (true, ConfidenceLevel::Low) => Method::FullCove,
            };
            let cx = VerifyContext { claim, evidence };
            c.cove = Cove::Questions;
            c.questions.clear();
            c.answers.clear();
            c.waiting = 0;
            c.failed = false;
            c.done = false;
            c.raw = None;
            c.reason.clear();
            if !llm {
                let (v, why) = verify::deterministic(&cx, &self.config);
                c.raw = Some(v);
                c.reason = why;
                c.done = true;
            }
            c.cx = Some(cx);
            if !llm {
                self.emit_verified(n);
            }
        }
        Ok(())
    }

    /// Each claim's evidence and method; the ones needing no LLM are done.
    fn plan_checks(&mut self, scored: &super::Scored, deadline: &Deadline) -> Result<Vec<Check>> {
        let mut checks = Vec::with_capacity(self.claims.len());
        for ((claim, best), confidence) in self.claims.iter().zip(&scored.best_cited).zip(&scored.confidence) {
            if deadline.expired() {
                return Err(timeout());
            }
            let cx = best
                .and_then(|i| scored.pool.spans.get(i))
                .map(|span| VerifyContext { claim: claim.text.clone(), evidence: span.quote.clone() });
            let level = confidence.level;
            let method = match (&cx, self.llm, level) {
                (None, _, _) => Method::NoEvidence,
                (Some(_), false, _) => Method::Deterministic,
                (Some(_), true, ConfidenceLevel::High) => Method::Quick,
                (Some(_), true, ConfidenceLevel::Medium) => Method::Standard,
                (Some(_), true, ConfidenceLevel::Low) => Method::FullCove,
            };
            let mut check = Check {
                cx,
                level,
                method,
                initial: None,
                cove: Cove::Questions,
                questions: Vec::new(),
                answers: Vec::new(),
                waiting: 0,
                raw: None,
                reason: String::new(),
                failed: false,
                done: false,
            };
            match (method, &check.cx) {
                (Method::NoEvidence, _) => {
                    check.raw = Some(Verdict::Nei);
                    check.reason = "the claim cites no span of the evidence pool".into();
                    check.done = true;
                }
                (Method::Deterministic, Some(cx)) => {
                    let (v, why) = verify::deterministic(cx, &self.config);
                    check.raw = Some(v);
                    check.reason = why;
                    check.done = true;
                }
                _ => {}
            }
            checks.push(check);
        }
        Ok(checks)
    }

    /// Claim `n`'s stage 4.
    fn check(&self, n: usize) -> Option<&Check> {
        self.checks.get(n)
    }

    /// The next request of claim `n`'s stage 4.
    fn ask_next(&mut self, n: usize) {
        let nei = self.config.enable_nei_verdict;
        let max_q = self.config.isolated_verification.max_cove_questions;
        let Some(check) = self.checks.get(n) else { return };
        let Some(cx) = check.cx.clone() else { return };
        let (kind, prompt, tokens, target) = match check.method {
            Method::Quick => {
                (RequestKind::Verify, verify::quick_prompt(&cx, nei), TOKENS_QUICK, Target::Verdict { claim: n })
            }
            Method::Standard => {
                (RequestKind::Verify, verify::standard_prompt(&cx, nei), TOKENS_REASONED, Target::Verdict { claim: n })
            }
            Method::FullCove if check.cove == Cove::Questions => (
                RequestKind::CoveQuestions,
                verify::cove_questions_prompt(&cx, max_q),
                TOKENS_REASONED,
                Target::Questions { claim: n },
            ),
            Method::FullCove if check.cove == Cove::Answers => {
                let questions = check.questions.clone();
                if let Some(c) = self.checks.get_mut(n) {
                    c.answers = vec![None; questions.len()];
                    c.waiting = questions.len();
                    c.cove = Cove::Compare;
                }
                for (i, q) in questions.iter().enumerate() {
                    self.request(
                        RequestKind::CoveAnswer,
                        Some(n),
                        verify::cove_answer_prompt(&cx, q),
                        TOKENS_ANSWER,
                        Target::Answer { claim: n, question: i },
                    );
                }
                return;
            }
            Method::FullCove => {
                let qa: Vec<(String, String)> = check
                    .questions
                    .iter()
                    .zip(&check.answers)
                    .filter_map(|(q, a)| a.as_ref().map(|a| (q.clone(), a.clone())))
                    .collect();
                (
                    RequestKind::CoveCompare,
                    verify::cove_compare_prompt(&cx, &qa, nei),
                    TOKENS_REASONED,
                    Target::Compare { claim: n },
                )
            }
            _ => return,
        };
        if let Some(c) = self.checks.get_mut(n) {
            c.waiting = 1;
        }
        self.request(kind, Some(n), prompt, tokens, target);
    }

    fn on_verdict(&mut self, n: usize, answer: std::result::Result<String, LlmFailure>) {
        let Some(check) = self.checks.get_mut(n) else { return };
        check.waiting = 0;
        check.done = true;
        match answer {
            Ok(a) => {
                check.raw = verify::parse_verdict(&a);
                let said = verify::clean_answer(&a, "");
                check.reason = if check.raw.is_some() {
                    shorten(&said)
                } else {
                    format!("no verdict in the answer: {}", shorten(&said))
                };
            }
            Err(f) => {
                check.failed = true;
                check.reason = format!("the verification call failed: {}", f.describe());
            }
        }
        self.emit_verified(n);
    }

    fn on_questions(&mut self, n: usize, answer: std::result::Result<String, LlmFailure>) {
        let max = self.config.isolated_verification.max_cove_questions;
        let Some(check) = self.checks.get_mut(n) else { return };
        check.waiting = 0;
        match answer {
            Ok(a) => check.questions = verify::parse_questions(&a, max),
            // no questions: the comparison still runs, without answers
            Err(f) => check.reason = format!("the question call failed: {}", f.describe()),
        }
        check.cove = if check.questions.is_empty() { Cove::Compare } else { Cove::Answers };
    }

    fn on_cove_answer(&mut self, n: usize, q: usize, answer: std::result::Result<String, LlmFailure>) {
        let Some(check) = self.checks.get_mut(n) else { return };
        check.waiting = check.waiting.saturating_sub(1);
        if let Some(slot) = check.answers.get_mut(q) {
            *slot = Some(match answer {
                Ok(a) => verify::clean_answer(&a, "ANSWER"),
                Err(f) => format!("(no answer: {})", f.describe()),
            });
        }
    }

    fn emit_verified(&mut self, n: usize) {
        let (verdict, abstained, _) = self.final_stage4(n);
        let Some(check) = self.checks.get(n) else { return };
        self.events.push(Event::Verified { index: n, verdict, abstained, method: check.method });
    }

    /// Stage 4's verdict after the toggles: (verdict, abstained, note).
    fn final_stage4(&self, n: usize) -> (Option<Verdict>, bool, &'static str) {
        let raw = self.checks.get(n).and_then(|c| c.raw);
        let raw = match raw {
            Some(Verdict::Nei) if !self.config.enable_nei_verdict => Some(Verdict::Unsupported),
            v => v,
        };
        match (raw, self.config.enable_abstention) {
            (Some(Verdict::Nei), true) => (Some(Verdict::Nei), true, ""),
            (None, true) => (None, true, ""),
            (Some(Verdict::Nei) | None, false) => {
                (Some(Verdict::Unsupported), false, " (forced verdict, abstention disabled)")
            }
            (v, _) => (v, false, ""),
        }
    }

    // ---- stage 6 ----

    fn numeric_step(&mut self, deadline: &Deadline) -> Result<()> {
        if !self.numeric.is_empty() || !self.llm || !self.config.enable_numeric_qa_verification {
            self.phase = Phase::Done;
            return Ok(());
        }
        let Some(report) = self.stage5.as_ref() else {
            self.phase = Phase::Done;
            return Ok(());
        };
        let mut plans = Vec::new();
        for (n, r) in report.claims.iter().enumerate() {
            if deadline.expired() {
                return Err(timeout());
            }
            if !numeric::has_value(&r.text) {
                continue;
            }
            let Some(span) = r.correction.new_evidence.as_ref().or(r.correction.current.as_ref()) else { continue };
            if !r.correction.citations_after.contains(&span.source_id) {
                continue;
            }
            let Some(quote) = report.evidence_pool.get(span.span).map(|s| s.quote.clone()) else { continue };
            plans.push((n, r.text.clone(), quote));
        }
        if plans.is_empty() {
            self.phase = Phase::Done;
            return Ok(());
        }
        for (n, claim, quote) in plans {
            let questions = verify::numeric_questions(&claim, &self.config);
            for (i, q) in questions.iter().enumerate() {
                for (from_claim, text) in [(true, &claim), (false, &quote)] {
                    self.request(
                        RequestKind::NumericQa,
                        Some(n),
                        verify::numeric_question_prompt(text, q),
                        TOKENS_ANSWER,
                        Target::Numeric { claim: n, question: i, from_claim },
                    );
                }
            }
            let k = questions.len();
            self.numeric.insert(
                n,
                NumericCheck {
                    questions,
                    claim_answers: vec![None; k],
                    evidence_answers: vec![None; k],
                    failed: false,
                },
            );
        }
        Ok(())
    }

    fn on_numeric(&mut self, n: usize, q: usize, from_claim: bool, answer: std::result::Result<String, LlmFailure>) {
        let Some(check) = self.numeric.get_mut(&n) else { return };
        let text = match answer {
            Ok(a) => verify::clean_answer(&a, "ANSWER"),
            Err(_) => {
                check.failed = true;
                return;
            }
        };
        let side = if from_claim { &mut check.claim_answers } else { &mut check.evidence_answers };
        if let Some(slot) = side.get_mut(q) {
            *slot = Some(text);
        }
    }

    fn numeric_result(&self, n: usize) -> Option<NumericQa> {
        let c = self.numeric.get(&n)?;
        if c.failed {
            return None;
        }
        let mut qa = Vec::new();
        let mut agreed = 0;
        let mut value_differs = false;
        for (i, q) in c.questions.iter().enumerate() {
            let (Some(Some(a)), Some(Some(b))) = (c.claim_answers.get(i), c.evidence_answers.get(i)) else {
                return None;
            };
            let agree = verify::answers_agree(a, b, &self.config);
            agreed += usize::from(agree);
            value_differs |= i == 0 && !agree;
            qa.push(QaPair {
                question: q.clone(),
                evidence_answer: b.clone(),
                claim_answer: Some(a.clone()),
                agree: Some(agree),
            });
        }
        let score = agreed as f64 / qa.len().max(1) as f64;
        let verdict = if agreed == qa.len() {
            Verdict::Supported
        } else if value_differs {
            Verdict::Contradicted
        } else {
            Verdict::Partial
        };
        Some(NumericQa { verdict, match_score: score, qa })
    }

    // ---- assembly ----

    fn assemble(&mut self) -> Result<PipelineReport> {
        let report = self.stage5.take().ok_or_else(timeout)?;
        let verifier = if self.llm { "llm" } else { "deterministic" };
        let pool = &report.evidence_pool;
        // one check and one stage 5 result per claim, both made from `self.claims`
        let claims: Vec<VerifiedClaim> = report
            .claims
            .into_iter()
            .zip(&self.checks)
            .enumerate()
            .map(|(n, (result, check))| self.verified_claim(n, check, result, pool))
            .collect();
        let summary = self.summary(&claims);
        let warnings = self.warnings(&summary);
        Ok(PipelineReport {
            evidence_pool: report.evidence_pool,
            relevance_method_used: report.relevance_method_used,
            correction_method_used: report.correction_method_used,
            generation: GenerationReport {
                mode: self.mode,
                sections: if self.mode == "input" { Vec::new() } else { self.generation.sections.clone() },
                dropped: self.generation.dropped.clone(),
            },
            claims,
            summary,
            warnings,
            stages: PipelineStages {
                evidence_preselection: self.config.enable_evidence_preselection,
                interleaved_generation: self.mode == "interleaved",
                confidence_classification: self.config.enable_confidence_classification,
                verifier,
                citation_correction: self.config.enable_citation_correction,
                numeric_qa_verification: self.config.enable_numeric_qa_verification,
                nei_verdict: self.config.enable_nei_verdict,
                abstention: self.config.enable_abstention,
            },
        })
    }

    /// One claim of the final assembly: stage 4's verdict lowered by stage 6,
    /// the evidence its corrected citations point at, and how it was verified.
    fn verified_claim(
        &self,
        n: usize,
        check: &Check,
        result: ClaimResult,
        pool: &[evidence::EvidenceSpan],
    ) -> VerifiedClaim {
        // stage 4's verdict, kept in `verification`; stage 6 may lower the final one
        let (stage4_verdict, stage4_abstained, note) = self.final_stage4(n);
        let (mut verdict, mut abstained) = (stage4_verdict, stage4_abstained);
        let numeric_qa = self.numeric_result(n);
        // stage 6 lowers the verdict: a contradicted number is CONTRADICTED
        let numeric_says = [result.numeric.as_ref().map(|r| r.verdict), numeric_qa.as_ref().map(|r| r.verdict)];
        if numeric_says.contains(&Some(Verdict::Contradicted)) {
            verdict = Some(Verdict::Contradicted);
            abstained = false;
        } else if numeric_says.contains(&Some(Verdict::Partial)) && verdict == Some(Verdict::Supported) {
            verdict = Some(Verdict::Partial);
        }
        let spans: Vec<usize> = [result.correction.current.as_ref(), result.correction.new_evidence.as_ref()]
            .into_iter()
            .flatten()
            .filter(|s| result.correction.citations_after.contains(&s.source_id))
            .map(|s| s.span)
            .collect();
        let mut evidence = Vec::new();
        for i in spans {
            if let Some(s) = pool.get(i) {
                if !evidence.iter().any(|e: &EvidenceRef| e.position == s.position && e.source_id == s.source_id) {
                    evidence.push(EvidenceRef {
                        source_id: s.source_id.clone(),
                        quote: s.quote.clone(),
                        position: s.position.clone(),
                    });
                }
            }
        }
        let qa = check
            .questions
            .iter()
            .zip(&check.answers)
            .map(|(q, a)| QaPair {
                question: q.clone(),
                evidence_answer: a.clone().unwrap_or_default(),
                claim_answer: None,
                agree: None,
            })
            .collect();
        let verification = Verification {
            verifier: if matches!(check.method, Method::Deterministic | Method::NoEvidence) {
                "deterministic"
            } else {
                "llm"
            },
            method: check.method,
            evidence: check.cx.as_ref().map(|cx| cx.evidence.clone()),
            initial: check.initial.clone().map(|(verdict, reason)| InitialVerification { verdict, reason }),
            verdict: stage4_verdict,
            raw_verdict: check.raw,
            abstained: stage4_abstained,
            reason: format!("{}{note}", check.reason),
            qa,
        };
        VerifiedClaim {
            result,
            verdict,
            abstained,
            section: self.generation.claim_sections.get(n).cloned().flatten(),
            evidence,
            verification,
            numeric_qa,
        }
    }

    /// The report's warnings: what the summary counts, and what the run could not do.
    fn warnings(&self, summary: &Summary) -> Vec<String> {
        let mut warnings = Vec::new();
        for (count, what) in [
            (summary.unsupported, "UNSUPPORTED"),
            (summary.contradicted, "CONTRADICTED"),
            (summary.nei, "NEI (not enough information)"),
            (summary.abstained, "abstained (not verifiable)"),
        ] {
            if count > 0 {
                warnings.push(format!("{count} of {} claims are {what}", summary.claims));
            }
        }
        if summary.failed_calls > 0 {
            warnings.push(format!("{} LLM calls failed after their retries", summary.failed_calls));
        }
        if !self.generation.dropped.is_empty() {
            warnings.push(format!("stage 2 dropped {} claims (see generation.dropped)", self.generation.dropped.len()));
        }
        if !self.llm {
            warnings.push("no LLM: every verdict is the deterministic verifier's".into());
        }
        if self.config.enable_verification_retrieval {
            warnings.push(
                "enable_verification_retrieval is on, but it asks a web search (spec 004 stage 4, Gap 3) and the library does no I/O: no evidence was added (stage 5 looks for better evidence in the pool and a replaced claim is verified again)".into(),
            );
        }
        warnings
    }

    fn summary(&self, claims: &[VerifiedClaim]) -> Summary {
        let count = |v: Verdict| claims.iter().filter(|c| c.verdict == Some(v)).count();
        let total = claims.len();
        let rate = |k: usize| if total == 0 { 0.0 } else { k as f64 / total as f64 };
        let corrected = claims.iter().filter(|c| c.result.correction.action != Action::Keep).count();
        let abstained = claims.iter().filter(|c| c.abstained).count();
        let mut ms: Vec<f64> = self.calls.iter().map(|c| c.elapsed_ms).collect();
        crate::sort::sort_by(&mut ms, f64::total_cmp);
        // nearest rank: the ⌈0.95 n⌉-th smallest (0 without calls)
        let p95 = ms.get((ms.len() * 95).div_ceil(100).saturating_sub(1)).copied().unwrap_or(0.0);
        let (unsupported, contradicted, nei) =
            (count(Verdict::Unsupported), count(Verdict::Contradicted), count(Verdict::Nei));
        Summary {
            claims: total,
            supported: count(Verdict::Supported),
            partial: count(Verdict::Partial),
            unsupported,
            contradicted,
            nei,
            abstained,
            corrected,
            unsupported_rate: rate(unsupported),
            contradicted_rate: rate(contradicted),
            nei_rate: rate(nei),
            correction_rate: rate(corrected),
            abstention_rate: rate(abstained),
            llm_calls: self.calls.len(),
            retries: self.calls.iter().filter(|c| c.attempt > 1).count(),
            failed_calls: self.calls.iter().filter(|c| c.failed).count(),
            p95_call_ms: p95,
        }
    }
}

/// At most 500 characters of a reason.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(500) {
        Some((b, _)) => format!("{}…", &text[..b]),
        None => text.to_string(),
    }
}

/// A host that answers LLM requests synchronously (natively: the CLI's
/// HTTP client, a script in a test). It must give up after `timeout`
/// (the CLI's HTTP agent does) and say so with [`LlmFailure::TimedOut`].
pub trait LlmHost: Sync {
    /// Answers one request.
    fn complete(&self, request: &LlmRequest, timeout: std::time::Duration) -> std::result::Result<String, LlmFailure>;
}

/// A request's id, its answer and the call's milliseconds.
#[cfg(not(target_arch = "wasm32"))]
type CallAnswer = (u64, std::result::Result<String, LlmFailure>, f64);

/// Answers a [`Step::Embed`] with `embedder` (one call).
fn embed_step(pipeline: &mut Pipeline, embedder: Option<&dyn Embedder>, texts: &[String]) {
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let answer = match embedder {
        Some(e) => e.embed(&refs),
        None => Err("the host has no embedder".into()),
    };
    pipeline.embedded(answer);
}

/// Runs `pipeline` to its report natively: each round's lanes side by
/// side, each on at most its `max_in_flight` threads, each call bounded
/// by the round's [`Round::call_timeout`] (the time left in the run
/// included); `embedder` (when given) answers [`Step::Embed`]; `on_event`
/// is told of every claim and verdict as they come; `cancel` is checked
/// before each call.
///
/// # Errors
/// PROCESSING_ERROR when the deadline passes, `cancel` is set or the
/// embedder fails.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_blocking(
    mut pipeline: Pipeline,
    host: &dyn LlmHost,
    embedder: Option<&dyn Embedder>,
    cancel: &std::sync::atomic::AtomicBool,
    deadline: &Deadline,
    on_event: &mut dyn FnMut(&Event),
) -> Result<PipelineReport> {
    use std::sync::atomic::Ordering;
    if embedder.is_some() {
        pipeline = pipeline.embedding();
    }
    loop {
        for e in pipeline.take_events() {
            on_event(&e);
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::new(ErrorKind::Processing, "the citation pipeline was cancelled"));
        }
        let round = match pipeline.next(deadline)? {
            Step::Done(report) => {
                for e in pipeline.take_events() {
                    on_event(&e);
                }
                return Ok(*report);
            }
            Step::Embed(texts) => {
                embed_step(&mut pipeline, embedder, &texts);
                continue;
            }
            Step::Ask(round) => round,
        };
        // the answers in request order: the same report however threads ran
        for (id, a, ms) in call_round(&round, host, cancel) {
            pipeline.answer(id, a, ms);
        }
    }
}

/// Makes `round`'s calls: every lane at once, each lane on at most its
/// `max_in_flight` threads taking its requests in order. The answers in
/// request order.
#[cfg(not(target_arch = "wasm32"))]
fn call_round(round: &Round, host: &dyn LlmHost, cancel: &std::sync::atomic::AtomicBool) -> Vec<CallAnswer> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    use std::time::Instant;
    let started = Instant::now();
    let answers: Mutex<Vec<CallAnswer>> = Mutex::new(Vec::new());
    let next: Vec<AtomicUsize> = round.lanes.iter().map(|_| AtomicUsize::new(0)).collect();
    std::thread::scope(|s| {
        for (lane, next) in round.lanes.iter().zip(&next) {
            for _ in 0..lane.max_in_flight.min(lane.requests.len()) {
                let answers = &answers;
                s.spawn(move || {
                    while let Some(r) = lane.requests.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let t0 = Instant::now();
                        let a = match round.call_timeout(started.elapsed()) {
                            _ if cancel.load(Ordering::Relaxed) => Err(LlmFailure::Cancelled),
                            None => Err(LlmFailure::TimedOut),
                            Some(limit) => {
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| host.complete(r, limit)))
                                    .unwrap_or_else(|_| Err(LlmFailure::Failed("the host panicked".into())))
                            }
                        };
                        let ms = t0.elapsed().as_secs_f64() * 1000.0;
                        if let Ok(mut list) = answers.lock() {
                            list.push((r.id, a, ms));
                        }
                    }
                });
            }
        }
    });
    let mut list = answers.into_inner().unwrap_or_default();
    crate::sort::sort_by(&mut list, |a, b| a.0.cmp(&b.0));
    list
}

/// Runs `pipeline` with answers from a synchronous function, one call at a
/// time (tests, hosts without threads); `embedder` (when given) answers
/// [`Step::Embed`].
///
/// # Errors
/// As [`Pipeline::next`].
pub fn run_sequential(
    mut pipeline: Pipeline,
    host: &mut dyn FnMut(&LlmRequest) -> std::result::Result<String, LlmFailure>,
    embedder: Option<&dyn Embedder>,
    deadline: &Deadline,
    on_event: &mut dyn FnMut(&Event),
) -> Result<PipelineReport> {
    if embedder.is_some() {
        pipeline = pipeline.embedding();
    }
    loop {
        for e in pipeline.take_events() {
            on_event(&e);
        }
        match pipeline.next(deadline)? {
            Step::Done(report) => {
                for e in pipeline.take_events() {
                    on_event(&e);
                }
                return Ok(*report);
            }
            Step::Embed(texts) => embed_step(&mut pipeline, embedder, &texts),
            Step::Ask(round) => {
                for r in round.requests() {
                    let a = host(r);
                    pipeline.answer(r.id, a, 0.0);
                }
            }
        }
    }
}
