//! Spec 001 "Segment-Level Fallback" metrics: speaking duration and words
//! per minute, from word boundaries when the transcript has word timestamps,
//! else from segment boundaries with a note on the reduced precision.

use super::model::{TimingLevel, Transcript};
use serde::Serialize;

/// Duration and pace of a transcript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranscriptMetrics {
    /// The resolution the figures come from.
    pub timing: TimingLevel,
    /// Start of the first timed word (or segment), in seconds.
    pub start_seconds: f64,
    /// End of the last timed word (or segment), in seconds.
    pub end_seconds: f64,
    /// `end_seconds − start_seconds`.
    pub duration_seconds: f64,
    /// Spec 001 tokens in the transcript (punctuation-only words not counted).
    pub word_count: usize,
    /// `word_count` per minute of `duration_seconds`; `None` for a zero duration.
    pub words_per_minute: Option<f64>,
    /// Only segment-level timestamps: the figures count pauses inside segments as speech.
    pub reduced_timing_precision: bool,
    /// Notes on how the figures were computed.
    pub notes: Vec<String>,
}

/// The metrics of `transcript`.
///
/// ```
/// use evidence_validator::transcript::{parse_transcript, transcript_metrics, InputFormat};
/// let t = parse_transcript("1\n00:00:10,000 --> 00:00:40,000\none two three four five six seven eight nine ten\n", InputFormat::Srt).unwrap();
/// let m = transcript_metrics(&t);
/// assert_eq!((m.duration_seconds, m.words_per_minute), (30.0, Some(20.0)));
/// assert!(m.reduced_timing_precision);
/// ```
pub fn transcript_metrics(transcript: &Transcript) -> TranscriptMetrics {
    let mut notes = Vec::new();
    let timing = transcript.timing();
    let (start, end) = match timing {
        TimingLevel::Word => {
            let timed: Vec<(f64, f64)> =
                transcript.words().iter().filter_map(|w| w.start.map(|s| (s, w.end.unwrap_or(s).max(s)))).collect();
            let untimed = transcript.words().len() - timed.len();
            if untimed > 0 {
                notes.push(format!(
                    "{untimed} of {} words have no timestamps; duration comes from the timed words",
                    transcript.words().len()
                ));
            }
            bounds(timed.into_iter())
        }
        TimingLevel::Segment => {
            notes.push(
                "Reduced timing precision: only segment-level timestamps are available, so duration and words per minute \
                 are computed from segment boundaries (pauses inside a segment count as speech)."
                    .to_string(),
            );
            bounds(transcript.segments().iter().map(|s| (s.start, s.end.max(s.start))))
        }
    };
    let duration = (end - start).max(0.0);
    let word_count = transcript.tokens().len();
    let words_per_minute = (duration > 0.0).then(|| word_count as f64 * 60.0 / duration);
    if words_per_minute.is_none() {
        notes.push("the timed speech has zero duration: no words per minute".to_string());
    }
    TranscriptMetrics {
        timing,
        start_seconds: start,
        end_seconds: end,
        duration_seconds: duration,
        word_count,
        words_per_minute,
        reduced_timing_precision: timing == TimingLevel::Segment,
        notes,
    }
}

fn bounds(spans: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    let mut out: Option<(f64, f64)> = None;
    for (s, e) in spans {
        out = Some(out.map_or((s, e), |(a, b)| (a.min(s), b.max(e))));
    }
    out.unwrap_or((0.0, 0.0))
}
