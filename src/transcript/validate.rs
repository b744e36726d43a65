//! Spec 001 "Validation Algorithm" for one [`EvaluationItem`]: the
//! contiguous-match check, the length check and timestamp locality, each
//! reported with its outcome and why, plus the matched span (tokens, words,
//! segments, text span, times) for highlighting.
//!
//! Decisions where the spec is silent:
//! - **Contiguous match.** All of the quote's tokens must occur, in order and
//!   adjacent, in the transcript's tokens, *and* the quote must have at least
//!   `min_contiguous_tokens` (6) tokens: "at least 6 consecutive matching
//!   tokens" cannot hold for a quote of 5. Such a quote fails with
//!   `TOO_FEW_TOKENS` even when it occurs (its occurrence is still reported).
//!   A partly matching quote fails with `NOT_FOUND`, and the longest run of
//!   it that does occur is reported as a diagnostic.
//! - **Length** counts spec tokens (after normalization), at most
//!   `max_quote_tokens` (15). It is checked independently of the match.
//! - **Locality, word level**: |t − start of the first matched word| ≤
//!   `locality_seconds`. When that word has no timestamp (WhisperX leaves
//!   numbers unaligned), the first matched word's start is only known to lie
//!   in its segment, or between its timed neighbours; locality then holds when
//!   that interval overlaps [t − 20, t + 20], and the result says which basis
//!   was used.
//! - **Locality, segment level**: "the matched tokens must appear within a
//!   segment whose time range overlaps [t − 20, t + 20]": every segment that
//!   holds a matched token must overlap it. A quote may run on into the next
//!   segment (subtitle cues are short) when that segment overlaps the window
//!   too; one running into a segment outside it fails (issue 15: only the
//!   first segment was judged before).
//! - Comparisons allow 1 µs of floating-point noise (ASR times like
//!   `0.79999995`).
//! - **Several occurrences**: the one that satisfies locality is chosen (the
//!   nearest in time when several do, then the earliest); when none does, the
//!   nearest is reported with the failed check. Every occurrence is listed.
//! - A timestamp that is not a finite number ≥ 0 fails locality
//!   (`INVALID_TIMESTAMP`).
//! - **Speaker** (not in the spec; an item that names `evidence_speaker`):
//!   every matched word must carry that speaker's label (the word's, else
//!   its segment's; compared trimmed, case-insensitively). A word of
//!   another speaker fails (`SPEAKER_MISMATCH`, naming who said it); a
//!   matched word with no label leaves it not evaluated
//!   (`NO_SPEAKER_LABELS`: not passed, as nothing shows who said it). An
//!   occurrence by the named speaker is chosen before any other.

use super::config::TranscriptConfig;
use super::evaluation::{EvaluationItem, ItemKind, StructuredEvaluation};
use super::model::{TimingLevel, Transcript};
use super::normalize;
use crate::error::{Error, ErrorKind, Result};
use crate::host::Deadline;
use crate::text::Span;
use serde::Serialize;
use std::collections::HashMap;

/// Floating-point slack when comparing times, in seconds.
const EPSILON: f64 = 1e-6;
/// Occurrences listed in a result (the count is always exact).
const MAX_LISTED_OCCURRENCES: usize = 50;
/// Quotes longer than this get no longest-partial-match diagnostic.
const MAX_DIAGNOSTIC_QUOTE_TOKENS: usize = 256;

/// The three checks of spec 001.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckName {
    /// The quote's tokens occur contiguously, at least `min_contiguous_tokens` of them.
    ContiguousMatch,
    /// The quote has at most `max_quote_tokens` tokens.
    Length,
    /// The match is near `evidence_timestamp`.
    TimestampLocality,
    /// The matched words are the named speaker's (only for an item with
    /// `evidence_speaker`).
    Speaker,
}

impl CheckName {
    /// The snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            CheckName::ContiguousMatch => "contiguous_match",
            CheckName::Length => "length",
            CheckName::TimestampLocality => "timestamp_locality",
            CheckName::Speaker => "speaker",
        }
    }
}

/// A check's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// The check holds.
    Passed,
    /// The check does not hold.
    Failed,
    /// The check could not be made (locality when the quote was not found); counts as not passed.
    NotEvaluated,
}

/// Why a check has its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum CheckReason {
    /// Contiguous match: the whole quote occurs, with enough tokens.
    Matched,
    /// Contiguous match: the quote's tokens do not occur contiguously.
    NotFound,
    /// Contiguous match: the quote has fewer than `min_contiguous_tokens` tokens.
    TooFewTokens,
    /// Length: at most `max_quote_tokens`.
    WithinLimit,
    /// Length: more than `max_quote_tokens`.
    TooLong,
    /// Locality: within the window.
    WithinWindow,
    /// Locality: outside the window.
    OutsideWindow,
    /// Locality: the quote does not occur, so there is nothing to locate.
    NoMatch,
    /// Locality: `evidence_timestamp` is not a finite number ≥ 0.
    InvalidTimestamp,
    /// Locality: the matched text has no timing at all.
    NoTimestamps,
    /// Any check: not evaluated, the time limit (`max_processing_time_seconds`) ran out first.
    TimeLimitExceeded,
    /// Speaker: every matched word is the named speaker's.
    SpeakerMatched,
    /// Speaker: a matched word is another speaker's.
    SpeakerMismatch,
    /// Speaker: a matched word has no speaker label.
    NoSpeakerLabels,
    /// Speaker: the item names no speaker (the check is not in the result).
    NotAsked,
}

/// One check's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// Passed, failed, or not evaluated.
    pub status: CheckStatus,
    /// A machine-readable reason.
    pub reason: CheckReason,
    /// A sentence a person can act on.
    pub message: String,
}

impl Check {
    fn new(status: CheckStatus, reason: CheckReason, message: String) -> Check {
        Check { status, reason, message }
    }

    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        self.status == CheckStatus::Passed
    }
}

/// What the locality of a match was judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalityBasis {
    /// The first matched word's start time.
    WordStart,
    /// The time range of the segment holding the first matched token.
    Segment,
    /// The first matched word has no timestamp and no segment: the range
    /// between its timed neighbours' starts.
    NeighbouringWords,
}

/// The timing evidence for one occurrence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Locality {
    /// Word or segment resolution.
    pub level: TimingLevel,
    /// What the reference interval is.
    pub basis: LocalityBasis,
    /// Start of the interval in which the first matched word starts.
    pub reference_start: f64,
    /// End of that interval (equal to the start for a word's start; may be
    /// `null` in JSON when unbounded).
    pub reference_end: f64,
    /// Seconds between `evidence_timestamp` and the interval (0 inside it).
    pub distance_seconds: f64,
    /// Whether the interval meets [t − window, t + window].
    pub within_window: bool,
}

/// Where a quote was found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchedSpan {
    /// First matched transcript token.
    pub token_start: usize,
    /// One past the last matched token.
    pub token_end: usize,
    /// First matched word, for transcripts with words.
    pub word_start: Option<usize>,
    /// One past the last matched word.
    pub word_end: Option<usize>,
    /// Segment of the first matched token, if any.
    pub segment_start: Option<usize>,
    /// One past the segment of the last matched token.
    pub segment_end: Option<usize>,
    /// The matched characters of [`Transcript::text`].
    pub span: Span,
    /// The transcript text at `span` (original casing and punctuation).
    pub text: String,
    /// Start of the first matched token (its word's start, else its segment's).
    pub start_time: Option<f64>,
    /// When the passage ends: the latest end of its tokens (with
    /// overlapping speakers not necessarily the last token's), never before
    /// `start_time`.
    pub end_time: Option<f64>,
    /// The timing evidence (absent when the match has no timing at all).
    pub locality: Option<Locality>,
    /// The speaker labels of the matched words, each once, in order (empty
    /// when the transcript has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub speakers: Vec<String>,
}

/// Every place the whole quote occurs, briefly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Occurrence {
    /// First token.
    pub token_start: usize,
    /// Start time of the first token.
    pub start_time: Option<f64>,
    /// Seconds from the evidence timestamp (0 inside a segment's range).
    pub distance_seconds: Option<f64>,
    /// Whether this occurrence satisfies locality.
    pub within_window: bool,
    /// Whether this is the occurrence reported in `matched`.
    pub chosen: bool,
}

/// The longest run of the quote's tokens that does occur (when the whole
/// quote does not).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartialMatch {
    /// Tokens in the run.
    pub length: usize,
    /// First quote token of the run.
    pub quote_token_start: usize,
    /// First transcript token of the run.
    pub token_start: usize,
    /// The run's characters in [`Transcript::text`].
    pub span: Span,
    /// The transcript text at `span`.
    pub text: String,
    /// Start time of the run's first token.
    pub start_time: Option<f64>,
}

/// The result of validating one item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemValidation {
    /// All three checks passed.
    pub passed: bool,
    /// The transcript's timing level.
    pub timing: TimingLevel,
    /// The quote's tokens after normalization.
    pub quote_tokens: Vec<String>,
    /// The item's timestamp.
    pub evidence_timestamp: f64,
    /// Contiguous match (≥ `min_contiguous_tokens`).
    pub contiguous_match: Check,
    /// Length (≤ `max_quote_tokens`).
    pub length: Check,
    /// Timestamp locality.
    pub timestamp_locality: Check,
    /// Who said it, for an item that names `evidence_speaker`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<Check>,
    /// The checks that did not pass, in the spec's order (then `speaker`).
    pub failed_checks: Vec<CheckName>,
    /// The chosen occurrence.
    pub matched: Option<MatchedSpan>,
    /// How many times the whole quote occurs.
    pub occurrence_count: usize,
    /// The occurrences (at most 50), in transcript order.
    pub occurrences: Vec<Occurrence>,
    /// When the quote does not occur: its longest run that does.
    pub longest_partial_match: Option<PartialMatch>,
}

impl ItemValidation {
    /// The named check.
    pub fn check(&self, name: CheckName) -> &Check {
        match name {
            CheckName::ContiguousMatch => &self.contiguous_match,
            CheckName::Length => &self.length,
            CheckName::TimestampLocality => &self.timestamp_locality,
            CheckName::Speaker => self.speaker.as_ref().unwrap_or(&SPEAKER_NOT_ASKED),
        }
    }

    /// One line per failed check: `contiguous_match: …`.
    pub fn failure_summary(&self) -> Vec<String> {
        self.failed_checks.iter().map(|c| format!("{}: {}", c.name(), self.check(*c).message)).collect()
    }
}

/// [`ItemValidation::check`] of the speaker check for an item that names
/// no speaker.
static SPEAKER_NOT_ASKED: Check =
    Check { status: CheckStatus::NotEvaluated, reason: CheckReason::NotAsked, message: String::new() };

fn secs(t: f64) -> String {
    format!("{t:.2} s")
}

/// The interval in which the first word of a match starting at `token` starts.
fn reference(t: &Transcript, token: usize) -> Option<(TimingLevel, LocalityBasis, f64, f64)> {
    let tok = t.tokens().get(token)?;
    let seg = tok.segment.and_then(|s| t.segments().get(s));
    if t.timing() == TimingLevel::Word {
        if let Some(w) = tok.word.and_then(|w| t.words().get(w)) {
            if let Some(s) = w.start {
                return Some((TimingLevel::Word, LocalityBasis::WordStart, s, s));
            }
        }
        if let Some(seg) = seg {
            return Some((TimingLevel::Segment, LocalityBasis::Segment, seg.start, seg.end));
        }
        let (before, after) = t.timed_neighbours(tok.word?);
        if before.is_none() && after.is_none() {
            return None;
        }
        return Some((
            TimingLevel::Word,
            LocalityBasis::NeighbouringWords,
            before.unwrap_or(0.0),
            after.unwrap_or(f64::INFINITY),
        ));
    }
    seg.map(|s| (TimingLevel::Segment, LocalityBasis::Segment, s.start, s.end))
}

fn locality(t: &Transcript, token: usize, ts: f64, window: f64) -> Option<Locality> {
    let (level, basis, lo, hi) = reference(t, token)?;
    let distance = if ts < lo {
        lo - ts
    } else if ts > hi {
        ts - hi
    } else {
        0.0
    };
    let valid = ts.is_finite() && ts >= 0.0;
    Some(Locality {
        level,
        basis,
        reference_start: lo,
        reference_end: hi,
        distance_seconds: distance,
        within_window: valid && distance <= window + EPSILON,
    })
}

/// [`locality`] of the occurrence `start..end` (tokens): at segment
/// resolution every segment holding one of its tokens must overlap the
/// window (spec 001); the reference range is then those segments' union and
/// the distance the largest of theirs.
fn span_locality(t: &Transcript, start: usize, end: usize, ts: f64, window: f64) -> Option<Locality> {
    let mut l = locality(t, start, ts, window)?;
    if t.timing() != TimingLevel::Segment || l.basis != LocalityBasis::Segment {
        return Some(l);
    }
    let tokens = t.tokens();
    let seg_of = |i: usize| tokens.get(i).and_then(|tok| tok.segment);
    let (Some(first), Some(last)) = (seg_of(start), seg_of(end.saturating_sub(1))) else { return Some(l) };
    for seg in t.segments().get(first..=last).into_iter().flatten() {
        let d = if ts < seg.start {
            seg.start - ts
        } else if ts > seg.end {
            ts - seg.end
        } else {
            0.0
        };
        l.distance_seconds = l.distance_seconds.max(d);
        l.reference_start = l.reference_start.min(seg.start);
        l.reference_end = l.reference_end.max(seg.end);
    }
    l.within_window = l.within_window && l.distance_seconds <= window + EPSILON;
    Some(l)
}

/// Validates one item against a transcript.
///
/// ```
/// use evidence_validator::transcript::{parse_transcript, validate_item, EvaluationItem, InputFormat, TranscriptConfig};
/// let srt = "1\n00:00:00,000 --> 00:00:05,000\nToday I want to tell you about the river behind my house.\n";
/// let t = parse_transcript(srt, InputFormat::Srt).unwrap();
/// let item = EvaluationItem::new("tell you about the river behind", 1.0);
/// let r = validate_item(&t, &item, &TranscriptConfig::default());
/// assert!(r.passed);
/// assert_eq!(r.matched.unwrap().text, "tell you about the river behind");
/// ```
///
/// No time limit: see [`validate_item_within`].
pub fn validate_item(transcript: &Transcript, item: &EvaluationItem, config: &TranscriptConfig) -> ItemValidation {
    match validate_item_within(transcript, item, config, &Deadline::never()) {
        Ok(v) => v,
        // A deadline that never passes never stops it.
        Err(_) => ItemValidation::not_finished(transcript, item, config),
    }
}

/// A `PROCESSING_ERROR`: the time limit ran out while doing `what`.
pub(crate) fn time_limit_error(config: &TranscriptConfig, what: &str) -> Error {
    Error::new(
        ErrorKind::Processing,
        format!(
            "processing time exceeded max_processing_time_seconds ({} s): {what} was not finished",
            config.max_processing_time_seconds
        ),
    )
    .with_detail("constraint", serde_json::Value::from("max_processing_time_seconds"))
}

/// [`validate_item`] within `deadline` (asked inside every loop over the
/// transcript's tokens or the quote's): past it, a `PROCESSING_ERROR`
/// saying where the check stopped.
///
/// ```
/// use evidence_validator::host::{Deadline, FixedClock};
/// use evidence_validator::transcript::*;
/// let t = parse_transcript("1\n00:00:00,000 --> 00:00:05,000\nToday I want to tell you about the river behind my house.\n", InputFormat::Srt).unwrap();
/// let item = EvaluationItem::new("tell you about the river behind", 1.0);
/// let config = TranscriptConfig::default();
/// assert!(validate_item_within(&t, &item, &config, &Deadline::after(&FixedClock(0.0), 1000.0)).unwrap().passed);
/// ```
pub fn validate_item_within(
    transcript: &Transcript,
    item: &EvaluationItem,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> Result<ItemValidation> {
    if deadline.expired_now() {
        return Err(time_limit_error(config, "validating the item (not started)"));
    }
    let quote = read_quote(transcript, &item.evidence_quote, config, deadline)?;
    let ts = item.evidence_timestamp;
    let window = config.locality_seconds;
    let tokens = transcript.tokens();
    let starts = occurrences_of(&quote.ids, &quote.mapped, deadline).map_err(|at| {
        time_limit_error(
            config,
            &format!("validating the item (the occurrence search, at token {at} of {})", tokens.len()),
        )
    })?;
    let n = quote.words.len();
    let (localities, mut chosen) = choose_occurrence(transcript, &starts, n, ts, window, config, deadline)?;
    // an occurrence by the named speaker first (then as chosen: within
    // the window, nearest, earliest)
    if let Some(speaker) = item.evidence_speaker.as_deref() {
        let by_speaker = |k: usize| starts.get(k).is_some_and(|&i| said_by(transcript, i, i + n, speaker));
        if !chosen.is_some_and(by_speaker) {
            let mut best: Option<usize> = None;
            for k in 0..starts.len() {
                if deadline.expired() {
                    return Err(time_limit_error(
                        config,
                        &format!("validating the item (the speaker of occurrence {k} of {})", starts.len()),
                    ));
                }
                if by_speaker(k) && best.is_none_or(|b| occurrence_key(&localities, k, b).is_lt()) {
                    best = Some(k);
                }
            }
            chosen = best.or(chosen);
        }
    }
    let matched = chosen.and_then(|k| {
        let (&start, locality) = starts.get(k).zip(localities.get(k))?;
        matched_span(transcript, start, start + n, locality.clone())
    });
    let occurrences = occurrence_list(transcript, &starts, &localities, chosen);
    let (contiguous_match, partial) =
        contiguous_check(transcript, &quote, &starts, matched.as_ref(), ts, config, deadline)?;
    let length = length_check(n, config.max_quote_tokens);
    let timestamp_locality = locality_check(transcript, matched.as_ref(), starts.len(), ts, window);
    let speaker = item.evidence_speaker.as_deref().map(|s| speaker_check(transcript, matched.as_ref(), s));
    let failed_checks: Vec<CheckName> = [
        (CheckName::ContiguousMatch, Some(&contiguous_match)),
        (CheckName::Length, Some(&length)),
        (CheckName::TimestampLocality, Some(&timestamp_locality)),
        (CheckName::Speaker, speaker.as_ref()),
    ]
    .iter()
    .filter(|(_, c)| c.is_some_and(|c| !c.passed()))
    .map(|(n, _)| *n)
    .collect();
    Ok(ItemValidation {
        passed: failed_checks.is_empty(),
        timing: transcript.timing(),
        quote_tokens: quote.words,
        evidence_timestamp: ts,
        contiguous_match,
        length,
        timestamp_locality,
        speaker,
        failed_checks,
        matched,
        occurrence_count: starts.len(),
        occurrences,
        longest_partial_match: partial,
    })
}

/// A quote read for the search: its normalized tokens, the same as small
/// ids, and the transcript's tokens mapped to those ids (`None` for a token
/// the quote does not have).
struct QuoteTokens {
    words: Vec<String>,
    ids: Vec<usize>,
    mapped: Vec<Option<usize>>,
}

/// Normalizes `quote` and maps the transcript's tokens to its words.
fn read_quote(
    transcript: &Transcript,
    quote: &str,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> Result<QuoteTokens> {
    let mut words = Vec::new();
    if !normalize::try_for_each_token(quote, |t| {
        words.push(t.text);
        !deadline.expired()
    }) {
        return Err(time_limit_error(
            config,
            &format!("validating the item (normalizing the quote, at token {})", words.len()),
        ));
    }
    let mut by_word: HashMap<&str, usize> = HashMap::new();
    let mut ids: Vec<usize> = Vec::with_capacity(words.len());
    for s in &words {
        if deadline.expired() {
            return Err(time_limit_error(config, "validating the item (reading the quote)"));
        }
        let next = by_word.len();
        ids.push(*by_word.entry(s.as_str()).or_insert(next));
    }
    let tokens = transcript.tokens();
    let mut mapped: Vec<Option<usize>> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if deadline.expired() {
            return Err(time_limit_error(
                config,
                &format!("validating the item (mapping the transcript, at token {} of {})", mapped.len(), tokens.len()),
            ));
        }
        mapped.push(by_word.get(t.text.as_str()).copied());
    }
    Ok(QuoteTokens { words, ids, mapped })
}

/// Where each occurrence (of `n` tokens) is relative to the evidence
/// timestamp `ts`, and the one chosen: within the window first, then
/// nearest, then earliest.
fn choose_occurrence(
    transcript: &Transcript,
    starts: &[usize],
    n: usize,
    ts: f64,
    window: f64,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> Result<(Vec<Option<Locality>>, Option<usize>)> {
    let mut localities: Vec<Option<Locality>> = Vec::with_capacity(starts.len());
    for &i in starts {
        if deadline.expired() {
            return Err(time_limit_error(
                config,
                &format!("validating the item (locating occurrence {} of {})", localities.len(), starts.len()),
            ));
        }
        localities.push(span_locality(transcript, i, i + n, ts, window));
    }
    let chosen = (0..starts.len()).min_by(|&a, &b| occurrence_key(&localities, a, b));
    Ok((localities, chosen))
}

/// The order occurrences are chosen in: within the window first, then the
/// nearest, then the earliest.
fn occurrence_key(localities: &[Option<Locality>], a: usize, b: usize) -> std::cmp::Ordering {
    let key = |k: usize| {
        let l = localities.get(k).and_then(Option::as_ref);
        (!l.is_some_and(|l| l.within_window), l.map_or(f64::INFINITY, |l| l.distance_seconds))
    };
    let (ka, kb) = (key(a), key(b));
    ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1)).then(a.cmp(&b))
}

/// The first [`MAX_LISTED_OCCURRENCES`] occurrences as reported.
fn occurrence_list(
    transcript: &Transcript,
    starts: &[usize],
    localities: &[Option<Locality>],
    chosen: Option<usize>,
) -> Vec<Occurrence> {
    let tokens = transcript.tokens();
    starts
        .iter()
        .zip(localities)
        .enumerate()
        .take(MAX_LISTED_OCCURRENCES)
        .map(|(k, (&i, l))| Occurrence {
            token_start: i,
            start_time: tokens.get(i).and_then(|t| t.start),
            distance_seconds: l.as_ref().map(|l| l.distance_seconds),
            within_window: l.as_ref().is_some_and(|l| l.within_window),
            chosen: Some(k) == chosen,
        })
        .collect()
}

/// The contiguous-match check, with the longest partial match when the
/// whole quote does not occur.
fn contiguous_check(
    transcript: &Transcript,
    quote: &QuoteTokens,
    starts: &[usize],
    matched: Option<&MatchedSpan>,
    ts: f64,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> Result<(Check, Option<PartialMatch>)> {
    let n = quote.words.len();
    let min = config.min_contiguous_tokens;
    let occurs = |found: bool| {
        if found {
            format!(
                "it occurs {} in the transcript",
                if starts.len() == 1 { "once".to_string() } else { format!("{} times", starts.len()) }
            )
        } else {
            "it does not occur in the transcript".to_string()
        }
    };
    if n == 0 {
        let why = format!(
            "the quote has no words after normalization; at least {min} consecutive matching tokens are required"
        );
        return Ok((Check::new(CheckStatus::Failed, CheckReason::TooFewTokens, why), None));
    }
    if n < min {
        let why = format!(
            "the quote has {n} token{}; at least {min} consecutive matching tokens are required ({})",
            if n == 1 { "" } else { "s" },
            occurs(!starts.is_empty())
        );
        return Ok((Check::new(CheckStatus::Failed, CheckReason::TooFewTokens, why), None));
    }
    if let Some(m) = matched {
        let why = format!(
            "all {n} quote tokens occur contiguously at tokens {}–{} ({})",
            m.token_start,
            m.token_end - 1,
            occurs(true)
        );
        return Ok((Check::new(CheckStatus::Passed, CheckReason::Matched, why), None));
    }
    let partial =
        longest_run(transcript, &quote.ids, &quote.mapped, ts, config.locality_seconds, deadline).map_err(|at| {
            time_limit_error(
                config,
                &format!(
                    "validating the item (the longest partial match, at token {at} of {})",
                    transcript.tokens().len()
                ),
            )
        })?;
    let detail = partial_detail(transcript, &quote.words, partial.as_ref());
    let why = format!("the quote's {n} tokens do not occur contiguously in the transcript{detail}");
    Ok((Check::new(CheckStatus::Failed, CheckReason::NotFound, why), partial))
}

/// What the longest partial match says about a quote that does not occur:
/// how far it goes and where quote and transcript part.
fn partial_detail(transcript: &Transcript, quote: &[String], partial: Option<&PartialMatch>) -> String {
    let n = quote.len();
    match partial {
        Some(p) => {
            let next = quote.get(p.quote_token_start + p.length);
            let found_there = transcript.tokens().get(p.token_start + p.length).map(|t| t.text.as_str());
            let diff = match (next, found_there) {
                (Some(want), Some(got)) => format!(", then the quote has {want:?} where the transcript has {got:?}"),
                (Some(want), None) => format!(", then the quote has {want:?} where the transcript ends"),
                _ => String::new(),
            };
            format!(
                "; the longest run that occurs is {} of {n} tokens ({:?}{}){diff}",
                p.length,
                p.text,
                p.start_time.map_or(String::new(), |s| format!(" at {}", secs(s)))
            )
        }
        None if n > MAX_DIAGNOSTIC_QUOTE_TOKENS => String::new(),
        None => "; none of its tokens occurs".to_string(),
    }
}

/// The length check: at most `max` tokens.
fn length_check(n: usize, max: usize) -> Check {
    if n <= max {
        Check::new(
            CheckStatus::Passed,
            CheckReason::WithinLimit,
            format!("{n} token{} (at most {max})", if n == 1 { "" } else { "s" }),
        )
    } else {
        Check::new(
            CheckStatus::Failed,
            CheckReason::TooLong,
            format!("the quote has {n} tokens; at most {max} are allowed"),
        )
    }
}

/// The timestamp-locality check of the chosen occurrence (one of `count`).
fn locality_check(transcript: &Transcript, matched: Option<&MatchedSpan>, count: usize, ts: f64, window: f64) -> Check {
    if !(ts.is_finite() && ts >= 0.0) {
        return Check::new(
            CheckStatus::Failed,
            CheckReason::InvalidTimestamp,
            format!("evidence_timestamp {ts} is not a number of seconds ≥ 0"),
        );
    }
    let Some(m) = matched else {
        return Check::new(
            CheckStatus::NotEvaluated,
            CheckReason::NoMatch,
            "not evaluated: the whole quote does not occur in the transcript".to_string(),
        );
    };
    let Some(l) = &m.locality else {
        return Check::new(
            CheckStatus::Failed,
            CheckReason::NoTimestamps,
            "the matched words have no timestamps and no segment".to_string(),
        );
    };
    let what = describe_locality(transcript, m, l, ts);
    if l.within_window {
        let others = if count > 1 { format!(" (chosen among {count} occurrences)") } else { String::new() };
        Check::new(CheckStatus::Passed, CheckReason::WithinWindow, format!("{what} (within {window} s){others}"))
    } else if count > 1 {
        Check::new(
            CheckStatus::Failed,
            CheckReason::OutsideWindow,
            format!("none of the {count} occurrences is within {window} s of {}; the nearest: {what}", secs(ts)),
        )
    } else {
        Check::new(CheckStatus::Failed, CheckReason::OutsideWindow, format!("{what} (more than {window} s)"))
    }
}

/// Where the match starts and how far that is from the evidence timestamp,
/// by what the start time was read from.
fn describe_locality(transcript: &Transcript, m: &MatchedSpan, l: &Locality, ts: f64) -> String {
    let lo_hi = |l: &Locality| {
        if l.reference_end.is_finite() {
            format!("{}–{}", secs(l.reference_start), secs(l.reference_end))
        } else {
            format!("after {}", secs(l.reference_start))
        }
    };
    match l.basis {
        LocalityBasis::WordStart => format!(
            "the first matched word starts at {}, {} from the evidence timestamp {}",
            secs(l.reference_start),
            secs(l.distance_seconds),
            secs(ts)
        ),
        LocalityBasis::Segment => format!(
            "the match {} ({}){}, {} from the evidence timestamp {}",
            match (m.segment_start, m.segment_end) {
                (Some(a), Some(b)) if b > a + 1 && transcript.timing() == TimingLevel::Segment => {
                    format!("runs over segments {a}–{}", b - 1)
                }
                (a, _) => format!("starts in segment {}", a.unwrap_or(0)),
            },
            lo_hi(l),
            if transcript.timing() == TimingLevel::Word { " (its first word has no timestamp)" } else { "" },
            secs(l.distance_seconds),
            secs(ts)
        ),
        LocalityBasis::NeighbouringWords => format!(
            "the first matched word has no timestamp; by its neighbours it starts {}, {} from the evidence timestamp {}",
            lo_hi(l),
            secs(l.distance_seconds),
            secs(ts)
        ),
    }
}

/// Every start of `q` in `mapped` (`None` never matches), by Knuth–Morris–
/// Pratt: linear in both lengths whatever they repeat. `Err(token)` when
/// the deadline passes.
// Every index is in bounds: `fail` and `q` are `n` long, `1 <= j < n`, and
// `k < n` before each use (`k <= j` while building `fail`; while matching,
// `k` reaching `n` is at once reset to `fail[n - 1] < n`).
#[allow(clippy::indexing_slicing)]
fn occurrences_of(
    q: &[usize],
    mapped: &[Option<usize>],
    deadline: &Deadline<'_>,
) -> std::result::Result<Vec<usize>, usize> {
    let n = q.len();
    let mut starts = Vec::new();
    if n == 0 || n > mapped.len() {
        return Ok(starts);
    }
    // fail[j]: length of the longest proper border of q[..=j].
    let mut fail = vec![0usize; n];
    let mut k = 0;
    for j in 1..n {
        if deadline.expired() {
            return Err(0);
        }
        while k > 0 && q[j] != q[k] {
            k = fail[k - 1];
        }
        if q[j] == q[k] {
            k += 1;
        }
        fail[j] = k;
    }
    let mut k = 0;
    for (i, m) in mapped.iter().enumerate() {
        if deadline.expired() {
            return Err(i);
        }
        match m {
            None => k = 0,
            Some(id) => {
                while k > 0 && *id != q[k] {
                    k = fail[k - 1];
                }
                if *id == q[k] {
                    k += 1;
                }
                if k == n {
                    starts.push(i + 1 - n);
                    k = fail[n - 1];
                }
            }
        }
    }
    Ok(starts)
}

impl ItemValidation {
    /// The result of an item the time limit stopped before it was checked:
    /// every check not evaluated (`TIME_LIMIT_EXCEEDED`), not passed.
    pub fn not_finished(transcript: &Transcript, item: &EvaluationItem, config: &TranscriptConfig) -> ItemValidation {
        let check = || {
            Check::new(
                CheckStatus::NotEvaluated,
                CheckReason::TimeLimitExceeded,
                format!(
                    "not evaluated: the time limit (max_processing_time_seconds = {} s) ran out before this item was checked",
                    config.max_processing_time_seconds
                ),
            )
        };
        ItemValidation {
            passed: false,
            timing: transcript.timing(),
            quote_tokens: Vec::new(),
            evidence_timestamp: item.evidence_timestamp,
            contiguous_match: check(),
            length: check(),
            timestamp_locality: check(),
            speaker: item.evidence_speaker.as_ref().map(|_| check()),
            failed_checks: [CheckName::ContiguousMatch, CheckName::Length, CheckName::TimestampLocality]
                .into_iter()
                .chain(item.evidence_speaker.as_ref().map(|_| CheckName::Speaker))
                .collect(),
            matched: None,
            occurrence_count: 0,
            occurrences: Vec::new(),
            longest_partial_match: None,
        }
    }

    /// Whether the time limit stopped this item before it was checked.
    pub fn timed_out(&self) -> bool {
        self.contiguous_match.reason == CheckReason::TimeLimitExceeded
    }
}

/// [`validate_item_within`], a time-out being the item's result
/// ([`ItemValidation::not_finished`]) so that every item is accounted for.
pub(crate) fn validate_or_time_out(
    transcript: &Transcript,
    item: &EvaluationItem,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> ItemValidation {
    validate_item_within(transcript, item, config, deadline)
        .unwrap_or_else(|_| ItemValidation::not_finished(transcript, item, config))
}

fn matched_span(t: &Transcript, start: usize, end: usize, locality: Option<Locality>) -> Option<MatchedSpan> {
    let tokens = t.tokens();
    let (first, last) = tokens.get(start).zip(tokens.get(end.checked_sub(1)?))?;
    let (bs, be) = (first.span.byte_start, last.span.byte_end);
    let last_word = t.word_at(be.saturating_sub(1)).or(last.word);
    let last_segment = t.segment_at(be.saturating_sub(1)).or(last.segment);
    Some(MatchedSpan {
        token_start: start,
        token_end: end,
        word_start: first.word,
        word_end: last_word.map(|w| w + 1),
        segment_start: first.segment,
        segment_end: last_segment.map(|s| s + 1),
        span: t.span(bs, be),
        text: t.text().get(bs..be).unwrap_or("").to_string(),
        start_time: first.start,
        end_time: end_time(first.start, tokens.get(start..end).unwrap_or(&[])),
        locality,
        speakers: distinct(speakers_of(t, start, end).into_iter().flatten()).into_iter().map(str::to_string).collect(),
    })
}

/// The speaker label of each token `start..end` (its word's, else its
/// segment's), `None` for a token without one.
fn speakers_of(t: &Transcript, start: usize, end: usize) -> Vec<Option<&str>> {
    let tokens = t.tokens().get(start..end).unwrap_or_default();
    tokens
        .iter()
        .map(|tok| {
            let word = tok.word.and_then(|w| t.words().get(w)).and_then(|w| w.speaker.as_deref());
            word.or_else(|| tok.segment.and_then(|s| t.segments().get(s)).and_then(|s| s.speaker.as_deref()))
        })
        .collect()
}

/// Each of `labels` once, in the order they first come (a set, not a
/// scan: a transcript may give every word its own label).
fn distinct<'a>(labels: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = std::collections::HashSet::new();
    labels.filter(|s| seen.insert(*s)).collect()
}

/// Whether `label` names `speaker` (trimmed, case-insensitively; without
/// allocating: it is asked of every matched word of every occurrence).
fn same_speaker(label: &str, speaker: &str) -> bool {
    label.trim().chars().flat_map(char::to_lowercase).eq(speaker.trim().chars().flat_map(char::to_lowercase))
}

/// Whether every token `start..end` is `speaker`'s.
fn said_by(t: &Transcript, start: usize, end: usize, speaker: &str) -> bool {
    speakers_of(t, start, end).iter().all(|s| s.is_some_and(|s| same_speaker(s, speaker)))
}

/// The speaker check of the chosen occurrence.
fn speaker_check(t: &Transcript, matched: Option<&MatchedSpan>, speaker: &str) -> Check {
    let Some(m) = matched else {
        return Check::new(
            CheckStatus::NotEvaluated,
            CheckReason::NoMatch,
            format!("the quote was not found, so nothing shows that {speaker:?} said it"),
        );
    };
    let labels = speakers_of(t, m.token_start, m.token_end);
    let others = distinct(labels.iter().flatten().copied().filter(|s| !same_speaker(s, speaker)));
    if !others.is_empty() {
        let who = others.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ");
        return Check::new(
            CheckStatus::Failed,
            CheckReason::SpeakerMismatch,
            format!("the item says {speaker:?} said it; the transcript gives the words to {who}"),
        );
    }
    let unlabelled = labels.iter().filter(|s| s.is_none()).count();
    if unlabelled > 0 {
        return Check::new(
            CheckStatus::NotEvaluated,
            CheckReason::NoSpeakerLabels,
            format!(
                "{unlabelled} of the {} matched tokens carry no speaker label: nothing shows that {speaker:?} said them",
                labels.len()
            ),
        );
    }
    Check::new(CheckStatus::Passed, CheckReason::SpeakerMatched, format!("every matched word is {speaker:?}'s"))
}

/// When a passage ends: the latest end of its tokens, never before `start`
/// (the first token's start). Not simply the last token's end: words of
/// overlapping speakers (another segment) may end before an earlier word of
/// the passage; and a first word with a start but no end still ends no
/// earlier than it starts.
fn end_time(start: Option<f64>, tokens: &[super::model::TranscriptToken]) -> Option<f64> {
    let latest = tokens.iter().filter_map(|t| t.end).reduce(f64::max);
    match (start, latest) {
        (Some(s), Some(e)) => Some(e.max(s)),
        (_, e) => e,
    }
}

/// The longest run of quote tokens occurring contiguously (local runs
/// preferred among equally long ones, then the earliest).
/// Linear in the transcript (the quote is at most
/// `MAX_DIAGNOSTIC_QUOTE_TOKENS` long); `Err(token)` when the deadline passes.
fn longest_run(
    t: &Transcript,
    q: &[usize],
    mapped: &[Option<usize>],
    ts: f64,
    window: f64,
    deadline: &Deadline<'_>,
) -> std::result::Result<Option<PartialMatch>, usize> {
    let n = q.len();
    if n == 0 || n > MAX_DIAGNOSTIC_QUOTE_TOKENS {
        return Ok(None);
    }
    let mut prev = vec![0usize; n + 1];
    let mut cur = vec![0usize; n + 1];
    // (length, local, transcript start, quote start)
    let mut best: Option<(usize, bool, usize, usize)> = None;
    for (i, m) in mapped.iter().enumerate() {
        if deadline.expired() {
            return Err(i);
        }
        // cur[j + 1] = prev[j] + 1 where the quote's token j is here
        for (j, ((&qj, c), &p)) in q.iter().zip(cur.iter_mut().skip(1)).zip(&prev).enumerate() {
            *c = if *m == Some(qj) { p + 1 } else { 0 };
            let len = *c;
            if len == 0 || best.is_some_and(|b| len < b.0) {
                continue;
            }
            if best.is_some_and(|b| len == b.0 && b.1) {
                continue;
            }
            let start = i + 1 - len;
            let local = locality(t, start, ts, window).is_some_and(|l| l.within_window);
            if best.is_none_or(|b| len > b.0 || local) {
                best = Some((len, local, start, j + 1 - len));
            }
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let Some((length, _, token_start, quote_token_start)) = best else { return Ok(None) };
    let tokens = t.tokens();
    let Some((first, last)) = tokens.get(token_start).zip(tokens.get(token_start + length - 1)) else {
        return Ok(None);
    };
    let (bs, be) = (first.span.byte_start, last.span.byte_end);
    Ok(Some(PartialMatch {
        length,
        quote_token_start,
        token_start,
        span: t.span(bs, be),
        text: t.text().get(bs..be).unwrap_or("").to_string(),
        start_time: first.start,
    }))
}

/// A part of a call the time limit stopped, with what it left unchecked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessingFailure {
    /// `PROCESSING_ERROR`.
    pub code: String,
    /// What ran out and what was not finished.
    pub message: String,
    /// The items not checked (`commendations[2]`): each is still in the
    /// results, with its checks `not_evaluated` (`TIME_LIMIT_EXCEEDED`).
    pub affected_items: Vec<String>,
}

impl ProcessingFailure {
    /// The failure for the items `labels` (of `total`) not finished, if any.
    pub fn for_items(config: &TranscriptConfig, labels: Vec<String>, total: usize) -> Option<ProcessingFailure> {
        if labels.is_empty() {
            return None;
        }
        Some(ProcessingFailure {
            code: "PROCESSING_ERROR".to_string(),
            message: format!(
                "processing time exceeded max_processing_time_seconds ({} s): {} of {total} item{} not checked ({})",
                config.max_processing_time_seconds,
                labels.len(),
                if total == 1 { "" } else { "s" },
                labels.iter().take(10).cloned().collect::<Vec<_>>().join(", ")
                    + if labels.len() > 10 { ", …" } else { "" }
            ),
            affected_items: labels,
        })
    }
}

/// The validation of every item of an evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvaluationValidation {
    /// One result per commendation, in order.
    pub commendations: Vec<ItemValidation>,
    /// One result per recommendation, in order.
    pub recommendations: Vec<ItemValidation>,
    /// Commendations that passed.
    pub passed_commendations: usize,
    /// Recommendations that passed.
    pub passed_recommendations: usize,
    /// False when the time limit stopped the call: `errors` says which items
    /// were not checked (they are in the lists all the same, not passed).
    pub ok: bool,
    /// A `PROCESSING_ERROR` when the time limit ran out; empty otherwise.
    pub errors: Vec<ProcessingFailure>,
}

impl EvaluationValidation {
    /// The results of one kind.
    pub fn results(&self, kind: ItemKind) -> &[ItemValidation] {
        match kind {
            ItemKind::Commendation => &self.commendations,
            ItemKind::Recommendation => &self.recommendations,
        }
    }
}

/// Validates every item of an evaluation (no time limit: see
/// [`validate_evaluation_within`]).
pub fn validate_evaluation(
    transcript: &Transcript,
    evaluation: &StructuredEvaluation,
    config: &TranscriptConfig,
) -> EvaluationValidation {
    validate_evaluation_within(transcript, evaluation, config, &Deadline::never())
}

/// Validates every item of an evaluation within `deadline`. Once it passes,
/// the items left are not checked: each gets a not-evaluated result, and
/// `ok: false` with a `PROCESSING_ERROR` naming them.
pub fn validate_evaluation_within(
    transcript: &Transcript,
    evaluation: &StructuredEvaluation,
    config: &TranscriptConfig,
    deadline: &Deadline<'_>,
) -> EvaluationValidation {
    let mut not_finished = Vec::new();
    let mut run = |kind: ItemKind| -> Vec<ItemValidation> {
        let items = evaluation.items(kind);
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let v = validate_or_time_out(transcript, item, config, deadline);
            if v.timed_out() {
                not_finished.push(format!("{}[{i}]", kind.field()));
            }
            out.push(v);
        }
        out
    };
    let commendations = run(ItemKind::Commendation);
    let recommendations = run(ItemKind::Recommendation);
    let total = commendations.len() + recommendations.len();
    let errors: Vec<ProcessingFailure> =
        ProcessingFailure::for_items(config, not_finished, total).into_iter().collect();
    EvaluationValidation {
        passed_commendations: commendations.iter().filter(|r| r.passed).count(),
        passed_recommendations: recommendations.iter().filter(|r| r.passed).count(),
        commendations,
        recommendations,
        ok: errors.is_empty(),
        errors,
    }
}
