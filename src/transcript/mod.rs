//! Spec 001 (`../shared/seeds/001_…`): evidence grounding for speech
//! evaluations. An LLM's commendations and recommendations each cite an
//! `evidence_quote` and an `evidence_timestamp`; this module checks them
//! against what the speaker actually said.
//!
//! - `model`: the [`Transcript`] (words and/or segments with times over one
//!   display text that every span points into); `import`: readers for
//!   Whisper `verbose_json`, WhisperX, whisper-timestamped, whisper.cpp,
//!   Deepgram, Speechmatics, Amazon Transcribe, a plain JSON shape, SRT and
//!   WebVTT.
//! - `normalize`: the spec's normalization and tokens, mapped back to the
//!   original text.
//! - `validate`: the three checks for one item ([`validate_item`]).
//! - `budget`: the retry budget as an I/O-free state machine
//!   ([`EvaluationGenerator`]) with a native driver ([`EvaluationHost`]).
//! - `redact`: the TTS script, names redacted strictly after validation.
//! - `metrics`: duration and words per minute.
//!
//! Untrusted input: every entry point has a `_within` form taking a
//! [`crate::host::Deadline`] (made from `max_processing_time_seconds`, default
//! [`DEFAULT_MAX_PROCESSING_TIME_SECONDS`], at most
//! [`MAX_PROCESSING_TIME_SECONDS`], by [`TranscriptConfig::deadline`]), asked
//! inside every loop whose length depends on the input; past it a
//! `PROCESSING_ERROR` says what was not finished, and in an evaluation every
//! item is still in the result (not passed, `TIME_LIMIT_EXCEEDED`). Work is
//! linear in the words, segments, tokens and items (the quote search is
//! Knuth–Morris–Pratt; nothing compares every item with every other).
//!
//! ```
//! use evidence_validator::transcript::*;
//! let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:06.000\n<v Ana>Good morning! Today I will show you three ways to save water.\n";
//! let t = parse_transcript(vtt, InputFormat::Auto).unwrap();
//! let item = EvaluationItem::new("Today I will show you three ways", 3.0);
//! let r = t.validate(&item, &TranscriptConfig::default());
//! assert!(r.passed, "{:?}", r.failed_checks);
//! let m = r.matched.unwrap();
//! assert_eq!(&t.text()[m.span.byte_start..m.span.byte_end], "Today I will show you three ways");
//! ```

mod budget;
mod config;
mod evaluation;
mod import;
mod metrics;
mod model;
pub(crate) mod normalize;
mod redact;
mod validate;

pub use budget::{
    preview_budget, preview_budget_within, Action, Attempt, AttemptStatus, BudgetPreview, CallKind, CheckFailure,
    CheckedItem, DroppedItem, EvaluationGenerator, EvaluationHost, EvaluationOutcome, GenerateReason, GenerateRequest,
    HostFailure, HostFailureKind, ItemRef, OutcomeValidations, OutcomeWarning, PreviewAction, PreviewItem,
    Regeneration, Requirements, RetryRequest,
};
pub use config::{
    ImportOptions, RunOptions, TranscriptConfig, DEFAULT_MAX_PROCESSING_TIME_SECONDS, MAX_CALLBACK_TIMEOUT_MS,
    MAX_PROCESSING_TIME_SECONDS,
};
pub use evaluation::{EvaluationItem, ItemKind, StructuredEvaluation};
pub use import::{
    from_json, from_json_within, parse_srt, parse_transcript, parse_transcript_within, parse_vtt, InputFormat,
};
pub use metrics::{transcript_metrics, TranscriptMetrics};
pub use model::{Segment, TimingLevel, Transcript, TranscriptFormat, TranscriptToken, Word};
pub use normalize::normalize;
pub use redact::{redact_names, render_script, OmittedItem, RedactionOptions, RenderedScript, ValidatedEvaluation};
pub use validate::{
    validate_evaluation, validate_evaluation_within, validate_item, validate_item_within, Check, CheckName,
    CheckReason, CheckStatus, EvaluationValidation, ItemValidation, Locality, LocalityBasis, MatchedSpan, Occurrence,
    PartialMatch, ProcessingFailure,
};

impl Transcript {
    /// Validates one item against this transcript ([`validate_item`]).
    pub fn validate(&self, item: &EvaluationItem, config: &TranscriptConfig) -> ItemValidation {
        validate_item(self, item, config)
    }

    /// Duration and words per minute ([`transcript_metrics`]).
    pub fn metrics(&self) -> TranscriptMetrics {
        transcript_metrics(self)
    }
}
