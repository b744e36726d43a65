//! Reading ASR output into a [`Transcript`]: JSON of many engines, SRT and
//! WebVTT.
//!
//! # The plain JSON shape
//!
//! For hosts that have their own ASR, the documented shape is:
//!
//! ```json
//! {
//!   "language": "en",
//!   "segments": [
//!     { "start": 0.0, "end": 4.2, "text": "Good morning, everyone.", "speaker": "Ana",
//!       "words": [ { "text": "Good", "start": 0.0, "end": 0.3 }, … ] }
//!   ],
//!   "words": [ { "text": "Good", "start": 0.0, "end": 0.3, "confidence": 0.98 } ]
//! }
//! ```
//!
//! Times are seconds (numbers ≥ 0). Give `segments` (with `start`, `end` and
//! `text`; `words` inside optional), or `words` (each `text` — or `word` —
//! with optional `start`/`end`), or both: top-level words are then put in the
//! segments by time. The same reader takes OpenAI Whisper `verbose_json`
//! (top-level `words`, or `segments[].words` of the `openai-whisper` package
//! whose words carry their own leading spaces), WhisperX (`word`, `score`,
//! words without timestamps, `word_segments`) and whisper-timestamped.
//! [`Transcript::to_json`] writes this shape back (with spans).
//!
//! # Time order
//!
//! Segments (subtitle cues, turns, sentences) must start in time order, and
//! so must the words of one segment (of the whole transcript when it has no
//! segments); otherwise the input is refused with a `DOCUMENT_PARSING_ERROR`
//! (constraint `order`) naming the JSON path of the first word or segment
//! that goes back in time (the line of a subtitle cue). Putting them in time
//! order would change the spoken text quotes are matched against. Words of
//! different segments may overlap (two speakers at once); a match's
//! `end_time` is the latest end of its words, so no reported range ends
//! before it starts. A single word or segment that ends before it starts is
//! accepted with a warning, its end set to its start. SRT and WebVTT accept
//! `\n`, `\r\n` and a lone `\r` as line ends.

pub(crate) mod cue;
mod json;
mod srt;
mod vtt;

pub use json::{from_json, from_json_within};
pub use srt::parse_srt;
pub use vtt::parse_vtt;

pub(crate) use super::model::import_time_error;
use super::model::Transcript;
use crate::error::{Error, ErrorKind, Result};
use crate::host::Deadline;
use serde_json::Value;

/// Asked once per step of every import loop: an error once `deadline` passed.
pub(crate) fn tick(deadline: &Deadline<'_>, at: impl FnOnce() -> String) -> Result<()> {
    if deadline.expired() {
        Err(import_time_error(&at()))
    } else {
        Ok(())
    }
}

/// Which reader to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFormat {
    /// From the content: `WEBVTT` → WebVTT, `{` → JSON, else SRT.
    Auto,
    /// Any supported JSON shape.
    Json,
    /// SubRip.
    Srt,
    /// WebVTT.
    Vtt,
}

impl InputFormat {
    /// `json`, `srt`, `vtt` (or `webvtt`), `auto`.
    pub fn from_name(name: &str) -> Option<InputFormat> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(InputFormat::Auto),
            "json" => Some(InputFormat::Json),
            "srt" => Some(InputFormat::Srt),
            "vtt" | "webvtt" => Some(InputFormat::Vtt),
            _ => None,
        }
    }

    /// From a file name's extension (`.json`, `.srt`, `.vtt`); `Auto` otherwise.
    pub fn from_file_name(name: &str) -> InputFormat {
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
        match ext.as_str() {
            "json" => InputFormat::Json,
            "srt" => InputFormat::Srt,
            "vtt" => InputFormat::Vtt,
            _ => InputFormat::Auto,
        }
    }
}

/// Reads a transcript from text in `format`.
///
/// ```
/// use evidence_validator::transcript::{parse_transcript, InputFormat, TimingLevel};
/// let t = parse_transcript("1\n00:00:01,000 --> 00:00:03,500\nHello, world.\n", InputFormat::Auto).unwrap();
/// assert_eq!(t.timing(), TimingLevel::Segment);
/// assert_eq!(t.segments()[0].end, 3.5);
/// ```
///
/// No time limit: see [`parse_transcript_within`].
pub fn parse_transcript(input: &str, format: InputFormat) -> Result<Transcript> {
    parse_transcript_within(input, format, &Deadline::never())
}

/// [`parse_transcript`] within `deadline`, asked in every loop over the
/// input (lines, JSON arrays, words, tokens); past it a `PROCESSING_ERROR`
/// saying where the import stopped. (Parsing the JSON text itself is one
/// linear pass of `serde_json`, not interrupted; the CLI bounds the file's size.)
pub fn parse_transcript_within(input: &str, format: InputFormat, deadline: &Deadline<'_>) -> Result<Transcript> {
    let format = match format {
        InputFormat::Auto => {
            let head = input.trim_start_matches('\u{feff}').trim_start();
            if head.starts_with("WEBVTT") {
                InputFormat::Vtt
            } else if head.starts_with(['{', '[']) {
                InputFormat::Json
            } else {
                InputFormat::Srt
            }
        }
        f => f,
    };
    match format {
        InputFormat::Json => {
            let value: Value = serde_json::from_str(input.trim_start_matches('\u{feff}')).map_err(|e| {
                Error::new(ErrorKind::DocumentParsing, format!("the transcript is not valid JSON: {e}"))
                    .with_detail("line", Value::from(e.line()))
                    .with_detail("column", Value::from(e.column()))
            })?;
            from_json_within(&value, deadline)
        }
        InputFormat::Vtt => vtt::parse_vtt_within(input, deadline),
        _ => srt::parse_srt_within(input, deadline),
    }
}
