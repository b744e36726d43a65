//! Spec 001 "Failure Modes and Retry Budget" as a state machine that
//! performs no I/O (in the manner of quinn-proto): [`EvaluationGenerator::poll`]
//! says which LLM request the host should make next, and the host hands the
//! answer back with [`EvaluationGenerator::handle_generated`] or
//! [`EvaluationGenerator::handle_retried`]. The native driver
//! ([`EvaluationGenerator::run`] with an [`EvaluationHost`]) and the wasm
//! class (JS callbacks returning Promises) are thin loops around it.
//!
//! The budget:
//! 1. Ask for an evaluation (generation 1) and validate every item.
//! 2. Re-prompt each failing item through the host, one at a time, in order
//!    (commendations, then recommendations), at most `max_retries_per_item`
//!    (1) times. A retried item that passes replaces the original; one that
//!    still fails, or whose callback fails, is dropped.
//! 3. When every failing item has had its retries (in the spec's order:
//!    retry, drop, then regenerate) and what is left holds fewer than
//!    `min_commendations` (2) validated commendations or
//!    `min_recommendations` (1) recommendations, the whole evaluation is
//!    regenerated, up to `max_generations` (2) generations in all. Retries
//!    are made even when regeneration is already certain: a retried item
//!    that passes counts toward this generation's best effort (issue 15).
//!    A generation whose callback fails or answers garbage also counts as
//!    one.
//! 4. When the budget is spent, the result is the best effort: the
//!    generation with the most required items validated (then the most
//!    validated items, then the latest), holding **only validated items**,
//!    with a `BEST_EFFORT` warning. Unvalidated evidence is never returned.
//!
//! Every host call is recorded in [`EvaluationOutcome::attempts`], with the
//! validation of every item it returned; drops and regenerations are
//! recorded with their reasons.

use super::config::TranscriptConfig;
use super::evaluation::{EvaluationItem, ItemKind, StructuredEvaluation};
use super::model::Transcript;
use super::validate::{validate_or_time_out, CheckName, CheckReason, ItemValidation};
use crate::error::{Error, ErrorKind, Result};
use crate::host::{Clock, Deadline};
use serde::Serialize;
use serde_json::{Map, Value};

/// What the evidence must satisfy, for the host's prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Requirements {
    /// Validated commendations required.
    pub min_commendations: usize,
    /// Validated recommendations required.
    pub min_recommendations: usize,
    /// Fewest tokens in a quote.
    pub min_quote_tokens: usize,
    /// Most tokens in a quote.
    pub max_quote_tokens: usize,
    /// Locality window in seconds.
    pub locality_seconds: f64,
    /// The rules as a sentence, ready for a prompt.
    pub instructions: String,
}

impl Requirements {
    fn new(c: &TranscriptConfig) -> Requirements {
        Requirements {
            min_commendations: c.min_commendations,
            min_recommendations: c.min_recommendations,
            min_quote_tokens: c.min_contiguous_tokens,
            max_quote_tokens: c.max_quote_tokens,
            locality_seconds: c.locality_seconds,
            instructions: format!(
                "Give at least {} commendations and {} recommendations. Each evidence_quote must be copied word for word \
                 from the transcript: {} to {} consecutive words (case and punctuation are ignored). evidence_timestamp \
                 must be the time, in seconds since the speech started, at which the quote's first word is spoken \
                 (within {} s).",
                c.min_commendations, c.min_recommendations, c.min_contiguous_tokens, c.max_quote_tokens, c.locality_seconds
            ),
        }
    }
}

/// Why a generation is requested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GenerateReason {
    /// The first generation.
    Initial,
    /// The previous generation cannot keep enough validated items.
    TooFewValidItems,
    /// The previous generation's callback failed or answered garbage.
    PreviousGenerationFailed,
}

/// A request to generate the whole evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerateRequest {
    /// 1-based generation number.
    pub generation: u32,
    /// The budget of generations.
    pub max_generations: u32,
    /// Why this generation is asked for.
    pub reason: GenerateReason,
    /// What went wrong in the previous generation, one line each (empty for the first).
    pub feedback: Vec<String>,
    /// The evidence rules.
    pub requirements: Requirements,
}

/// A failed check, for a retry prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckFailure {
    /// Which check.
    pub check: CheckName,
    /// Why, for machines.
    pub reason: CheckReason,
    /// Why, for the prompt.
    pub message: String,
}

/// A request to re-prompt one failing item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetryRequest {
    /// The generation the item belongs to.
    pub generation: u32,
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// The item's index in that generation's list.
    pub index: usize,
    /// 1-based retry number for this item.
    pub retry: u32,
    /// The failing item, as last answered.
    pub item: EvaluationItem,
    /// Why it fails.
    pub failures: Vec<CheckFailure>,
    /// The evidence rules.
    pub requirements: Requirements,
}

/// What the host should do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Call the LLM to generate a whole evaluation, then
    /// [`EvaluationGenerator::handle_generated`].
    Generate(GenerateRequest),
    /// Call the LLM to rewrite one item, then [`EvaluationGenerator::handle_retried`].
    RetryItem(RetryRequest),
    /// Nothing more: the outcome.
    Finished(Box<EvaluationOutcome>),
}

/// How a host call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HostFailureKind {
    /// The callback threw, rejected, or the LLM could not be reached.
    CallbackFailed,
    /// The callback answered something that is not an evaluation (or item).
    InvalidAnswer,
}

/// A failed host call: recorded, never a crash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostFailure {
    /// Threw, or answered garbage.
    pub kind: HostFailureKind,
    /// What happened.
    pub message: String,
}

impl HostFailure {
    /// The callback failed (threw, rejected, timed out).
    pub fn callback(message: impl Into<String>) -> HostFailure {
        HostFailure { kind: HostFailureKind::CallbackFailed, message: message.into() }
    }

    /// The callback answered something unusable.
    pub fn invalid_answer(message: impl Into<String>) -> HostFailure {
        HostFailure { kind: HostFailureKind::InvalidAnswer, message: message.into() }
    }
}

/// Which host call an attempt was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// `generate`.
    Generate,
    /// `retry_item`.
    RetryItem,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptStatus {
    /// The host answered with a well-formed evaluation or item (which may
    /// still fail validation: see `items`).
    Answered,
    /// The callback failed.
    CallbackFailed,
    /// The callback answered garbage.
    InvalidAnswer,
}

/// An item of an answer with its validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedItem {
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// Index in its generation's list.
    pub index: usize,
    /// The item as answered.
    pub item: EvaluationItem,
    /// Its validation.
    pub validation: ItemValidation,
}

/// One host call and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    /// 1-based position among all calls.
    pub sequence: usize,
    /// Generate or retry.
    pub call: CallKind,
    /// The generation concerned.
    pub generation: u32,
    /// For a retry: the item's kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ItemKind>,
    /// For a retry: the item's index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For a retry: its number for this item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<u32>,
    /// How it ended.
    pub status: AttemptStatus,
    /// The failure, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The answered items, validated.
    pub items: Vec<CheckedItem>,
}

/// An item dropped from its generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedItem {
    /// Its generation.
    pub generation: u32,
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// Its index in the generation's list.
    pub index: usize,
    /// The last version answered.
    pub item: EvaluationItem,
    /// Why.
    pub reason: String,
}

/// A decision to regenerate the whole evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Regeneration {
    /// The generation given up.
    pub after_generation: u32,
    /// Why.
    pub reason: String,
    /// Items of that generation still waiting for a retry, not made:
    /// always empty since every retry is made before regeneration is
    /// decided (spec 001's order, issue 15); kept so the output keeps its shape.
    pub retries_not_made: Vec<ItemRef>,
}

/// An item's place in its generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ItemRef {
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// Index in the generation's list.
    pub index: usize,
}

/// A warning in an outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutcomeWarning {
    /// `BEST_EFFORT`.
    pub code: String,
    /// What is missing.
    pub message: String,
}

/// The validations of the outcome's items, parallel to its evaluation.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct OutcomeValidations {
    /// One per kept commendation.
    pub commendations: Vec<ItemValidation>,
    /// One per kept recommendation.
    pub recommendations: Vec<ItemValidation>,
}

/// The result of the retry budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvaluationOutcome {
    /// The evaluation: only validated items, unredacted.
    pub evaluation: StructuredEvaluation,
    /// The validation of each item of `evaluation` (same order).
    pub validations: OutcomeValidations,
    /// Whether the minimum counts were met.
    pub complete: bool,
    /// The generation `evaluation` comes from (`None` when none succeeded).
    pub generation: Option<u32>,
    /// Generations requested.
    pub generations_used: u32,
    /// Every host call, in order.
    pub attempts: Vec<Attempt>,
    /// Every dropped item.
    pub dropped: Vec<DroppedItem>,
    /// Every regeneration decision.
    pub regenerations: Vec<Regeneration>,
    /// `BEST_EFFORT` when the budget ran out short.
    pub warnings: Vec<OutcomeWarning>,
}

impl EvaluationOutcome {
    /// The outcome as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum SlotState {
    Passed,
    Pending { retries: u32 },
    Dropped,
}

#[derive(Debug, Clone)]
struct Slot {
    kind: ItemKind,
    index: usize,
    item: EvaluationItem,
    validation: ItemValidation,
    state: SlotState,
}

#[derive(Debug, Clone)]
struct Working {
    generation: u32,
    extra: Map<String, Value>,
    slots: Vec<Slot>,
    /// Slots passed or pending, by kind (commendations, recommendations):
    /// kept up to date so a step costs O(1), not a pass over every slot.
    possible: [usize; 2],
    /// No slot before this one is pending (retries go in order).
    next_pending: usize,
}

/// The count of `kind` in `[commendations, recommendations]`.
fn count_of(possible: &mut [usize; 2], kind: ItemKind) -> &mut usize {
    let [commendations, recommendations] = possible;
    match kind {
        ItemKind::Commendation => commendations,
        ItemKind::Recommendation => recommendations,
    }
}

impl Working {
    fn new(generation: u32, extra: Map<String, Value>, slots: Vec<Slot>) -> Working {
        let mut possible = [0, 0];
        for s in &slots {
            if s.state != SlotState::Dropped {
                *count_of(&mut possible, s.kind) += 1;
            }
        }
        Working { generation, extra, slots, possible, next_pending: 0 }
    }

    /// Items of `kind` passed, or still waiting for a retry.
    fn possible(&self, kind: ItemKind) -> usize {
        *count_of(&mut self.possible.clone(), kind)
    }

    /// The first pending slot (amortized O(1): the cursor only moves on).
    fn first_pending(&mut self) -> Option<usize> {
        while let Some(s) = self.slots.get(self.next_pending) {
            if matches!(s.state, SlotState::Pending { .. }) {
                return Some(self.next_pending);
            }
            self.next_pending += 1;
        }
        None
    }
}

#[derive(Debug, Clone)]
struct Candidate {
    generation: u32,
    evaluation: StructuredEvaluation,
    validations: OutcomeValidations,
}

#[derive(Debug, Clone)]
enum State {
    Start,
    AwaitGenerate(GenerateRequest),
    Working,
    AwaitRetry(usize, RetryRequest),
    Done(Box<EvaluationOutcome>),
}

/// The retry budget of spec 001 as a state machine (see the module docs).
///
/// ```
/// use evidence_validator::transcript::*;
/// let t = parse_transcript("1\n00:00:00,000 --> 00:00:09,000\nI walked to the old mill by the river every single morning that summer.\n", InputFormat::Srt).unwrap();
/// let mut g = EvaluationGenerator::new(t, TranscriptConfig { min_commendations: 1, min_recommendations: 0, ..Default::default() });
/// let Action::Generate(req) = g.poll() else { unreachable!() };
/// assert_eq!(req.generation, 1);
/// let mut e = StructuredEvaluation::default();
/// e.commendations.push(EvaluationItem::new("to the old mill by the river", 0.5).with_text("Vivid setting."));
/// g.handle_generated(Ok(e)).unwrap();
/// let Action::Finished(outcome) = g.poll() else { unreachable!() };
/// assert!(outcome.complete);
/// assert_eq!(outcome.attempts.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct EvaluationGenerator {
    transcript: Transcript,
    config: TranscriptConfig,
    state: State,
    generation: u32,
    next_reason: GenerateReason,
    feedback: Vec<String>,
    working: Option<Working>,
    candidates: Vec<Candidate>,
    attempts: Vec<Attempt>,
    dropped: Vec<DroppedItem>,
    regenerations: Vec<Regeneration>,
    /// Milliseconds since the epoch, for the time limit of each validation.
    clock: Option<fn() -> f64>,
}

/// A [`Clock`] from a function.
struct FnClock(fn() -> f64);

impl Clock for FnClock {
    fn now_ms(&self) -> f64 {
        (self.0)()
    }
}

fn no_clock() -> f64 {
    0.0
}

/// What the host provides natively: the two LLM calls. A call that fails
/// returns a [`HostFailure`]; it is recorded, never fatal.
pub trait EvaluationHost {
    /// Generates a whole evaluation.
    fn generate(&mut self, request: &GenerateRequest) -> std::result::Result<StructuredEvaluation, HostFailure>;
    /// Rewrites one failing item.
    fn retry_item(&mut self, request: &RetryRequest) -> std::result::Result<EvaluationItem, HostFailure>;
}

impl EvaluationGenerator {
    /// A generator validating against `transcript` (the raw, unredacted one).
    pub fn new(transcript: Transcript, config: TranscriptConfig) -> EvaluationGenerator {
        EvaluationGenerator {
            transcript,
            config,
            state: State::Start,
            generation: 0,
            next_reason: GenerateReason::Initial,
            feedback: Vec::new(),
            working: None,
            candidates: Vec::new(),
            attempts: Vec::new(),
            dropped: Vec::new(),
            regenerations: Vec::new(),
            clock: None,
        }
    }

    /// Validates each answer within `max_processing_time_seconds` read on
    /// `now_ms` (milliseconds since the epoch: the system clock natively,
    /// `Date.now()` in JS), one deadline per answer.
    pub fn with_clock(mut self, now_ms: fn() -> f64) -> EvaluationGenerator {
        self.clock = Some(now_ms);
        self
    }

    /// The transcript validated against.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The configuration.
    pub fn config(&self) -> &TranscriptConfig {
        &self.config
    }

    /// The next thing to do. Until it is answered, the same request is
    /// returned again; once finished, the same outcome.
    pub fn poll(&mut self) -> Action {
        loop {
            match &self.state {
                State::Start => self.request_generation(),
                State::AwaitGenerate(r) => return Action::Generate(r.clone()),
                State::AwaitRetry(_, r) => return Action::RetryItem(r.clone()),
                State::Done(o) => return Action::Finished(o.clone()),
                State::Working => self.step(),
            }
        }
    }

    /// Spec 001's `EvaluationGenerator.generate()`: the whole budget with a
    /// native host ([`EvaluationGenerator::run`] by the spec's name).
    pub fn generate<H: EvaluationHost + ?Sized>(self, host: &mut H) -> EvaluationOutcome {
        self.run(host)
    }

    /// Spec 001's `EvaluationGenerator.validate()`: "the exact algorithm"
    /// on every item of `evaluation` against the raw transcript
    /// ([`super::validate_evaluation`] with this generator's transcript and
    /// configuration).
    pub fn validate(&self, evaluation: &StructuredEvaluation) -> super::EvaluationValidation {
        super::validate_evaluation(&self.transcript, evaluation, &self.config)
    }

    /// Spec 001's `EvaluationGenerator.renderScript()`: validates
    /// `evaluation` against the raw transcript first, then renders only the
    /// items that passed with names redacted ([`super::render_script`]):
    /// "validate first, redact second".
    pub fn render_script(
        &self,
        evaluation: &StructuredEvaluation,
        options: &super::RedactionOptions,
    ) -> super::RenderedScript {
        let validated = super::ValidatedEvaluation::new(&self.transcript, evaluation, &self.config);
        super::render_script(&validated, options)
    }

    /// Drives the machine with a native host until it finishes.
    pub fn run<H: EvaluationHost + ?Sized>(mut self, host: &mut H) -> EvaluationOutcome {
        loop {
            // The answers follow the requests just polled, so they are never out of order.
            let _ = match self.poll() {
                Action::Generate(r) => self.handle_generated(host.generate(&r)),
                Action::RetryItem(r) => self.handle_retried(host.retry_item(&r)),
                Action::Finished(o) => return *o,
            };
        }
    }

    fn not_awaiting(&self, what: &str) -> Error {
        let state = match &self.state {
            State::Start => "nothing has been requested yet (call poll first)",
            State::AwaitGenerate(_) => "a generation is awaited",
            State::AwaitRetry(..) => "an item retry is awaited",
            State::Working => "no request is outstanding",
            State::Done(_) => "the generator has finished",
        };
        Error::new(ErrorKind::Processing, format!("unexpected {what}: {state}"))
    }

    fn record(&mut self, mut attempt: Attempt) {
        attempt.sequence = self.attempts.len() + 1;
        self.attempts.push(attempt);
    }

    /// The host's answer to [`Action::Generate`]. An error only when no
    /// generation was requested (a host bug); a failed call is an `Err`
    /// answer, recorded.
    ///
    /// The items are validated within `max_processing_time_seconds` on the
    /// clock given by [`EvaluationGenerator::with_clock`] (no limit without
    /// one); an item the limit stopped fails (`TIME_LIMIT_EXCEEDED`).
    pub fn handle_generated(&mut self, answer: std::result::Result<StructuredEvaluation, HostFailure>) -> Result<()> {
        let clock = FnClock(self.clock.unwrap_or(no_clock));
        let budget_ms =
            if self.clock.is_some() { self.config.max_processing_time_seconds * 1000.0 } else { f64::INFINITY };
        self.handle_generated_within(answer, &Deadline::after(&clock, budget_ms))
    }

    /// [`EvaluationGenerator::handle_generated`] within `deadline`.
    pub fn handle_generated_within(
        &mut self,
        answer: std::result::Result<StructuredEvaluation, HostFailure>,
        deadline: &Deadline<'_>,
    ) -> Result<()> {
        if !matches!(self.state, State::AwaitGenerate(_)) {
            return Err(self.not_awaiting("generation answer"));
        }
        match answer {
            Err(f) => self.generation_failed(&f),
            Ok(evaluation) => self.generation_answered(evaluation, deadline),
        }
        Ok(())
    }

    /// Records the attempt of the current generation call.
    fn record_generation(&mut self, status: AttemptStatus, error: Option<String>, items: Vec<CheckedItem>) {
        self.record(Attempt {
            sequence: 0,
            call: CallKind::Generate,
            generation: self.generation,
            kind: None,
            index: None,
            retry: None,
            status,
            error,
            items,
        });
    }

    /// A failed generation call: another generation while the budget lasts.
    fn generation_failed(&mut self, f: &HostFailure) {
        let generation = self.generation;
        self.record_generation(status_of(f), Some(f.message.clone()), Vec::new());
        self.feedback = vec![format!("generation {generation} failed: {}", f.message)];
        if generation < self.config.max_generations {
            self.regenerations.push(Regeneration {
                after_generation: generation,
                reason: format!("the generation call failed: {}", f.message),
                retries_not_made: Vec::new(),
            });
            self.next_reason = GenerateReason::PreviousGenerationFailed;
            self.request_generation();
        } else {
            self.finish();
        }
    }

    /// A generated evaluation: every item validated, the failing ones
    /// pending a retry (or dropped when retries are disabled).
    fn generation_answered(&mut self, evaluation: StructuredEvaluation, deadline: &Deadline<'_>) {
        let generation = self.generation;
        let mut slots = Vec::new();
        let mut checked = Vec::new();
        for kind in [ItemKind::Commendation, ItemKind::Recommendation] {
            for (index, item) in evaluation.items(kind).iter().enumerate() {
                let validation = validate_or_time_out(&self.transcript, item, &self.config, deadline);
                checked.push(CheckedItem { kind, index, item: item.clone(), validation: validation.clone() });
                let state = if validation.passed {
                    SlotState::Passed
                } else if self.config.max_retries_per_item == 0 {
                    SlotState::Dropped
                } else {
                    SlotState::Pending { retries: 0 }
                };
                if state == SlotState::Dropped {
                    self.dropped.push(DroppedItem {
                        generation,
                        kind,
                        index,
                        item: item.clone(),
                        reason: format!(
                            "fails validation and retries are disabled: {}",
                            validation.failure_summary().join("; ")
                        ),
                    });
                }
                slots.push(Slot { kind, index, item: item.clone(), validation, state });
            }
        }
        self.record_generation(AttemptStatus::Answered, None, checked);
        self.working = Some(Working::new(generation, evaluation.extra, slots));
        self.state = State::Working;
    }

    /// The host's answer to [`Action::RetryItem`].
    pub fn handle_retried(&mut self, answer: std::result::Result<EvaluationItem, HostFailure>) -> Result<()> {
        let clock = FnClock(self.clock.unwrap_or(no_clock));
        let budget_ms =
            if self.clock.is_some() { self.config.max_processing_time_seconds * 1000.0 } else { f64::INFINITY };
        self.handle_retried_within(answer, &Deadline::after(&clock, budget_ms))
    }

    /// [`EvaluationGenerator::handle_retried`] within `deadline`.
    pub fn handle_retried_within(
        &mut self,
        answer: std::result::Result<EvaluationItem, HostFailure>,
        deadline: &Deadline<'_>,
    ) -> Result<()> {
        let State::AwaitRetry(slot_index, request) = &self.state else {
            return Err(self.not_awaiting("item retry answer"));
        };
        let (slot_index, request) = (*slot_index, request.clone());
        let Some(working) = self.working.as_mut() else {
            return Err(self.not_awaiting("item retry answer"));
        };
        let Some(slot) = working.slots.get_mut(slot_index) else {
            return Err(Error::new(ErrorKind::Processing, "internal: the retried item is gone"));
        };
        let retries = match slot.state {
            SlotState::Pending { retries } => retries + 1,
            _ => 1,
        };
        let exhausted = retries >= self.config.max_retries_per_item;
        let mut attempt = Attempt {
            sequence: 0,
            call: CallKind::RetryItem,
            generation: request.generation,
            kind: Some(slot.kind),
            index: Some(slot.index),
            retry: Some(request.retry),
            status: AttemptStatus::Answered,
            error: None,
            items: Vec::new(),
        };
        let drop_reason = match answer {
            Err(f) => {
                attempt.status = status_of(&f);
                attempt.error = Some(f.message.clone());
                format!("retry {} failed: {}", request.retry, f.message)
            }
            Ok(item) => {
                let validation = validate_or_time_out(&self.transcript, &item, &self.config, deadline);
                attempt.items.push(CheckedItem {
                    kind: slot.kind,
                    index: slot.index,
                    item: item.clone(),
                    validation: validation.clone(),
                });
                let summary = validation.failure_summary().join("; ");
                let passed = validation.passed;
                slot.item = item;
                slot.validation = validation;
                if passed {
                    slot.state = SlotState::Passed;
                    String::new()
                } else {
                    format!("still fails after retry {}: {summary}", request.retry)
                }
            }
        };
        if slot.state != SlotState::Passed {
            if exhausted {
                slot.state = SlotState::Dropped;
                let count = count_of(&mut working.possible, slot.kind);
                *count = count.saturating_sub(1);
                self.dropped.push(DroppedItem {
                    generation: request.generation,
                    kind: slot.kind,
                    index: slot.index,
                    item: slot.item.clone(),
                    reason: drop_reason,
                });
            } else {
                slot.state = SlotState::Pending { retries };
            }
        }
        self.record(attempt);
        self.state = State::Working;
        Ok(())
    }

    /// [`EvaluationGenerator::handle_generated`] with the answer as JSON
    /// (from a JS callback): garbage is a recorded `InvalidAnswer`.
    pub fn handle_generated_json(&mut self, answer: std::result::Result<Value, String>) -> Result<()> {
        let parsed = match answer {
            Err(m) => Err(HostFailure::callback(m)),
            Ok(v) => StructuredEvaluation::from_json(&v)
                .map_err(|e| HostFailure::invalid_answer(format!("the answer is not an evaluation: {}", e.message()))),
        };
        self.handle_generated(parsed)
    }

    /// [`EvaluationGenerator::handle_retried`] with the answer as JSON.
    pub fn handle_retried_json(&mut self, answer: std::result::Result<Value, String>) -> Result<()> {
        let parsed = match answer {
            Err(m) => Err(HostFailure::callback(m)),
            Ok(v) => EvaluationItem::from_json(&v, &crate::error::JsonPath::root()).map_err(|e| {
                HostFailure::invalid_answer(format!("the answer is not an evaluation item: {}", e.message()))
            }),
        };
        self.handle_retried(parsed)
    }

    fn request_generation(&mut self) {
        self.generation += 1;
        let request = GenerateRequest {
            generation: self.generation,
            max_generations: self.config.max_generations,
            reason: self.next_reason,
            feedback: std::mem::take(&mut self.feedback),
            requirements: Requirements::new(&self.config),
        };
        self.state = State::AwaitGenerate(request);
    }

    /// Decides what follows validation or a retry answer.
    fn step(&mut self) {
        let pending = self.working.as_mut().and_then(Working::first_pending);
        let Some(working) = self.working.as_ref() else {
            self.finish();
            return;
        };
        let (min_c, min_r) = (self.config.min_commendations, self.config.min_recommendations);
        let possible_c = working.possible(ItemKind::Commendation);
        let possible_r = working.possible(ItemKind::Recommendation);
        let short = possible_c < min_c || possible_r < min_r;
        // the spec's order: every retry is made before the drops decide on regeneration
        if short && pending.is_none() && working.generation < self.config.max_generations {
            let reason = format!(
                "at most {possible_c} commendation{} and {possible_r} recommendation{} can be validated; {min_c} and {min_r} are required",
                plural(possible_c),
                plural(possible_r)
            );
            let mut feedback = vec![format!("generation {}: {reason}", working.generation)];
            for s in working.slots.iter().filter(|s| s.state != SlotState::Passed) {
                feedback.push(format!(
                    "{} {} (quote {:?}): {}",
                    s.kind.field().trim_end_matches('s'),
                    s.index,
                    s.item.evidence_quote,
                    s.validation.failure_summary().join("; ")
                ));
            }
            self.regenerations.push(Regeneration {
                after_generation: working.generation,
                reason,
                retries_not_made: Vec::new(),
            });
            self.retire();
            self.feedback = feedback;
            self.next_reason = GenerateReason::TooFewValidItems;
            self.request_generation();
            return;
        }
        if let Some((i, s)) = pending.and_then(|i| Some((i, working.slots.get(i)?))) {
            let retries = match s.state {
                SlotState::Pending { retries } => retries,
                _ => 0,
            };
            let request = RetryRequest {
                generation: working.generation,
                kind: s.kind,
                index: s.index,
                retry: retries + 1,
                item: s.item.clone(),
                failures: s
                    .validation
                    .failed_checks
                    .iter()
                    .map(|c| {
                        let check = s.validation.check(*c);
                        CheckFailure { check: *c, reason: check.reason, message: check.message.clone() }
                    })
                    .collect(),
                requirements: Requirements::new(&self.config),
            };
            self.state = State::AwaitRetry(i, request);
            return;
        }
        self.retire();
        self.finish();
    }

    /// The working generation becomes a candidate result (its validated items).
    fn retire(&mut self) {
        let Some(w) = self.working.take() else { return };
        let mut evaluation = StructuredEvaluation { extra: w.extra, ..Default::default() };
        let mut validations = OutcomeValidations::default();
        for s in w.slots.into_iter().filter(|s| s.state == SlotState::Passed) {
            evaluation.items_mut(s.kind).push(s.item);
            match s.kind {
                ItemKind::Commendation => validations.commendations.push(s.validation),
                ItemKind::Recommendation => validations.recommendations.push(s.validation),
            }
        }
        self.candidates.push(Candidate { generation: w.generation, evaluation, validations });
    }

    fn finish(&mut self) {
        let (min_c, min_r) = (self.config.min_commendations, self.config.min_recommendations);
        let score = |c: &Candidate| {
            let (nc, nr) = (c.evaluation.commendations.len(), c.evaluation.recommendations.len());
            (nc.min(min_c) + nr.min(min_r), nc + nr, c.generation)
        };
        let best = self.candidates.iter().max_by_key(|c| score(c)).cloned();
        let mut warnings = Vec::new();
        let (evaluation, validations, generation) = match best {
            Some(c) => (c.evaluation, c.validations, Some(c.generation)),
            None => (StructuredEvaluation::default(), OutcomeValidations::default(), None),
        };
        let (nc, nr) = (evaluation.commendations.len(), evaluation.recommendations.len());
        let complete = nc >= min_c && nr >= min_r;
        if !complete {
            let source = match generation {
                Some(g) => format!("returning the validated items of generation {g}"),
                None => "no generation succeeded; returning an empty evaluation".to_string(),
            };
            warnings.push(OutcomeWarning {
                code: "BEST_EFFORT".into(),
                message: format!(
                    "the retry budget is spent ({} generation{}): {nc} validated commendation{} ({min_c} required) and {nr} validated recommendation{} ({min_r} required); {source}",
                    self.generation,
                    plural(self.generation as usize),
                    plural(nc),
                    plural(nr)
                ),
            });
        }
        self.state = State::Done(Box::new(EvaluationOutcome {
            evaluation,
            validations,
            complete,
            generation,
            generations_used: self.generation,
            attempts: std::mem::take(&mut self.attempts),
            dropped: std::mem::take(&mut self.dropped),
            regenerations: std::mem::take(&mut self.regenerations),
            warnings,
        }));
    }
}

fn status_of(f: &HostFailure) -> AttemptStatus {
    match f.kind {
        HostFailureKind::CallbackFailed => AttemptStatus::CallbackFailed,
        HostFailureKind::InvalidAnswer => AttemptStatus::InvalidAnswer,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the budget would do with one evaluation when no LLM can be asked
/// (the CLI's `--evaluation` mode): every item validated; failing items would
/// be re-prompted, and dropped if the retry failed too; the worst case (every
/// retry fails) decides whether regeneration would be triggered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetPreview {
    /// Each item with its validation and what the budget does with it.
    pub items: Vec<PreviewItem>,
    /// Commendations that pass now.
    pub passed_commendations: usize,
    /// Recommendations that pass now.
    pub passed_recommendations: usize,
    /// Worst case (every retry fails): the evaluation falls short and is regenerated.
    pub would_regenerate: bool,
    /// Even if every retry succeeded it would fall short (too few items given).
    pub regeneration_unavoidable: bool,
    /// Why (or why not) regeneration.
    pub summary: String,
    /// What a real run would log when the budget has no generation left.
    pub warnings: Vec<OutcomeWarning>,
}

/// What the budget does with one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PreviewAction {
    /// Passes: kept.
    Keep,
    /// Fails: re-prompted; dropped if the retry fails too.
    Reprompt,
    /// Fails and retries are disabled: dropped.
    Drop,
}

/// One item of a [`BudgetPreview`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreviewItem {
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// Index in its list.
    pub index: usize,
    /// The item.
    pub item: EvaluationItem,
    /// What happens to it.
    pub action: PreviewAction,
    /// Its validation.
    pub validation: ItemValidation,
}

/// Runs the budget on `evaluation` as generation 1 with every retry failing
/// ("no LLM offline") and reports what would be re-prompted, dropped, and
/// whether regeneration would be triggered.
pub fn preview_budget(
    transcript: &Transcript,
    evaluation: &StructuredEvaluation,
    config: &TranscriptConfig,
) -> BudgetPreview {
    preview_budget_within(transcript, evaluation, config, &Deadline::never())
}

/// [`preview_budget`] within `deadline`: items the time limit stopped are
/// in `items` all the same (not passed, `TIME_LIMIT_EXCEEDED`), and a
/// `PROCESSING_ERROR` warning names them.
pub fn preview_budget_within(
    transcript: &Transcript,
    evaluation: &StructuredEvaluation,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> BudgetPreview {
    let mut g = EvaluationGenerator::new(transcript.clone(), config.clone());
    let _ = g.poll();
    let _ = g.handle_generated_within(Ok(evaluation.clone()), deadline);
    // Each item is validated once, by the machine: its first attempt.
    let checked: Vec<CheckedItem> = g.attempts.first().map(|a| a.items.clone()).unwrap_or_default();
    let mut would_regenerate = false;
    let mut warnings = Vec::new();
    // Every retry fails offline and settles its item: at most one step per item.
    loop {
        match g.poll() {
            Action::RetryItem(_) => {
                let _ = g.handle_retried_within(Err(HostFailure::callback("offline: no LLM to re-prompt")), deadline);
            }
            Action::Generate(_) => {
                would_regenerate = true;
                break;
            }
            Action::Finished(o) => {
                warnings = o.warnings;
                break;
            }
        }
    }
    let (items, not_finished) = preview_items(checked, config);
    let count = |kind: ItemKind| items.iter().filter(|i| i.kind == kind && i.action == PreviewAction::Keep).count();
    let (pc, pr) = (count(ItemKind::Commendation), count(ItemKind::Recommendation));
    let total = items.len();
    if let Some(f) = super::validate::ProcessingFailure::for_items(config, not_finished, total) {
        warnings.push(OutcomeWarning { code: f.code, message: f.message });
    }
    let (nc, nr) = (evaluation.commendations.len(), evaluation.recommendations.len());
    let unavoidable = nc < config.min_commendations || nr < config.min_recommendations;
    let summary = preview_summary(pc, pr, config, would_regenerate, unavoidable);
    BudgetPreview {
        items,
        passed_commendations: pc,
        passed_recommendations: pr,
        would_regenerate,
        regeneration_unavoidable: unavoidable && config.max_generations > 1,
        summary,
        warnings,
    }
}

/// What the preview does with each checked item (kept when it passes,
/// dropped or re-prompted when not), and the items the time limit stopped.
fn preview_items(checked: Vec<CheckedItem>, config: &TranscriptConfig) -> (Vec<PreviewItem>, Vec<String>) {
    let mut items = Vec::with_capacity(checked.len());
    let mut not_finished = Vec::new();
    for c in checked {
        let CheckedItem { kind, index, item, validation } = c;
        if validation.timed_out() {
            not_finished.push(format!("{}[{index}]", kind.field()));
        }
        let action = if validation.passed {
            PreviewAction::Keep
        } else if config.max_retries_per_item == 0 {
            PreviewAction::Drop
        } else {
            PreviewAction::Reprompt
        };
        items.push(PreviewItem { kind, index, item, action, validation });
    }
    (items, not_finished)
}

/// The preview's one-line summary: `pc` commendations and `pr`
/// recommendations pass, and what the budget would do next.
fn preview_summary(
    pc: usize,
    pr: usize,
    config: &TranscriptConfig,
    would_regenerate: bool,
    unavoidable: bool,
) -> String {
    let (min_c, min_r) = (config.min_commendations, config.min_recommendations);
    let passing = format!(
        "{pc} commendation{} and {pr} recommendation{} pass ({min_c} and {min_r} required)",
        plural(pc),
        plural(pr)
    );
    if pc >= min_c && pr >= min_r {
        format!("{passing}: no regeneration")
    } else if would_regenerate {
        format!(
            "{passing}: unless re-prompting fixes enough items, the whole evaluation is regenerated{}",
            if unavoidable { " (unavoidable: too few items were given)" } else { "" }
        )
    } else {
        format!("{passing}: no generation is left, so the result would be a best effort")
    }
}
