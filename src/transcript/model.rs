//! The transcript model of spec 001: words with start/end times, segments
//! with start/end times, either or both, over one display text that every
//! span points into.
//!
//! Importers (see [`super::import`]) build a [`Transcript`] through
//! `Builder`: the display text is made of the words (when the ASR output
//! has them) or the segment texts, segments separated by a newline, so each
//! word's and segment's span in [`Transcript::text`] is known exactly.

use super::normalize;
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::text::{PositionIndex, Span};
use serde::Serialize;
use serde_json::Value;

/// Where a word or segment is in the input, for errors about it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Origin {
    /// A JSON value.
    Json(JsonPath),
    /// A line of a subtitle file: the format's name and the 1-based line.
    Line(&'static str, usize),
    /// No place known (built by hand).
    #[cfg_attr(not(test), allow(dead_code))]
    Unknown,
}

impl Origin {
    /// The place, as a person reads it (`$.segments[0].words[3]`, `SRT line 12`).
    fn describe(&self) -> String {
        match self {
            Origin::Json(p) => p.to_string(),
            Origin::Line(format, line) => format!("{format} line {line}"),
            Origin::Unknown => "the input".to_string(),
        }
    }

    /// A `DOCUMENT_PARSING_ERROR` about this place: `json_path` (and `path`)
    /// for JSON, `line` for subtitles.
    pub(crate) fn error(&self, constraint: &str, message: &str) -> Error {
        let e = match self {
            Origin::Json(p) => Error::new(ErrorKind::DocumentParsing, format!("{message} at {p}"))
                .with_detail("path", p.to_value())
                .with_detail("json_path", Value::String(p.to_string())),
            Origin::Line(format, line) => {
                Error::new(ErrorKind::DocumentParsing, format!("{format} line {line}: {message}"))
                    .with_detail("line", Value::from(*line))
            }
            Origin::Unknown => Error::new(ErrorKind::DocumentParsing, message.to_string()),
        };
        e.with_detail("constraint", Value::String(constraint.to_string()))
    }
}

/// Which ASR output a transcript was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TranscriptFormat {
    /// OpenAI Whisper `verbose_json` (API or the `openai-whisper` package).
    WhisperVerboseJson,
    /// WhisperX JSON (`segments[].words[]` with `word`, `start`, `end`, `score`).
    Whisperx,
    /// whisper-timestamped JSON (`segments[].words[]` with `text`, `confidence`).
    WhisperTimestamped,
    /// whisper.cpp `-oj` JSON (`transcription[]` with `offsets` in ms).
    WhisperCpp,
    /// Deepgram pre-recorded response (`results.channels[0].alternatives[0]`).
    Deepgram,
    /// Speechmatics JSON-v2 (`results[]` of words, punctuation and entities).
    Speechmatics,
    /// Amazon Transcribe (`results.items[]`).
    AwsTranscribe,
    /// Amazon Transcribe Call Analytics (`Transcript[]` turns with `Items`).
    AwsTranscribeCallAnalytics,
    /// The documented plain JSON shape (see the module docs of `import`).
    PlainJson,
    /// SubRip `.srt`.
    Srt,
    /// WebVTT `.vtt`.
    Webvtt,
}

impl TranscriptFormat {
    /// The snake_case name, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            TranscriptFormat::WhisperVerboseJson => "whisper_verbose_json",
            TranscriptFormat::Whisperx => "whisperx",
            TranscriptFormat::WhisperTimestamped => "whisper_timestamped",
            TranscriptFormat::WhisperCpp => "whisper_cpp",
            TranscriptFormat::Deepgram => "deepgram",
            TranscriptFormat::Speechmatics => "speechmatics",
            TranscriptFormat::AwsTranscribe => "aws_transcribe",
            TranscriptFormat::AwsTranscribeCallAnalytics => "aws_transcribe_call_analytics",
            TranscriptFormat::PlainJson => "plain_json",
            TranscriptFormat::Srt => "srt",
            TranscriptFormat::Webvtt => "webvtt",
        }
    }
}

/// The finest timing a transcript has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimingLevel {
    /// Word-level timestamps (segments may exist too).
    Word,
    /// Segment-level timestamps only.
    Segment,
}

/// One recognized word.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Word {
    /// The word as the ASR wrote it (trimmed; punctuation the ASR attached kept).
    pub text: String,
    /// Start time in seconds; `None` when the ASR gave none (WhisperX leaves
    /// numbers and symbols it could not align without timestamps).
    pub start: Option<f64>,
    /// End time in seconds, when known.
    pub end: Option<f64>,
    /// The ASR's confidence (score, probability), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// The speaker label, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    /// Index of the segment holding this word, if any.
    pub segment: Option<usize>,
    /// Where `text` is in [`Transcript::text`].
    pub span: Span,
}

/// One segment (a Whisper segment, a subtitle cue, a sentence, a turn).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Segment {
    /// The segment's text as the source gave it (subtitle markup removed).
    pub text: String,
    /// Start time in seconds.
    pub start: f64,
    /// End time in seconds.
    pub end: f64,
    /// The speaker label (WebVTT `<v Name>`, a diarization label), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    /// The words of this segment: indices `word_start..word_end` (empty when
    /// the segment has no words).
    pub word_start: usize,
    /// End (exclusive) of this segment's words.
    pub word_end: usize,
    /// Where the segment is in [`Transcript::text`] (its words, or its text
    /// when it has no words).
    pub span: Span,
}

/// A spec 001 token of the transcript, mapped back to its word, segment and
/// span in [`Transcript::text`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranscriptToken {
    /// The normalized token.
    pub text: String,
    /// Index of the word the token starts in (none when the text came from a
    /// segment without words).
    pub word: Option<usize>,
    /// Index of the segment the token is in, if any.
    pub segment: Option<usize>,
    /// The token's start time: its word's start, else its segment's start.
    pub start: Option<f64>,
    /// The token's end time: its word's end, else its segment's end.
    pub end: Option<f64>,
    /// The characters of the original text it stands for (letters and digits;
    /// punctuation around the word is outside).
    pub span: Span,
}

/// A transcript: words and/or segments with timestamps over one text.
#[derive(Debug, Clone, Serialize)]
pub struct Transcript {
    format: TranscriptFormat,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<String>,
    timing: TimingLevel,
    text: String,
    words: Vec<Word>,
    segments: Vec<Segment>,
    warnings: Vec<String>,
    #[serde(skip)]
    tokens: Vec<TranscriptToken>,
    #[serde(skip)]
    positions: PositionIndex,
    /// For each word: the start of the nearest timed word before it and
    /// after it (so a lookup is O(1), not a scan).
    #[serde(skip)]
    neighbours: Vec<(Option<f64>, Option<f64>)>,
}

impl Transcript {
    /// The source format.
    pub fn format(&self) -> TranscriptFormat {
        self.format
    }

    /// The language the ASR reported, if any.
    pub fn language(&self) -> Option<&str> {
        self.language.as_deref()
    }

    /// Word level when any word has a timestamp, else segment level.
    pub fn timing(&self) -> TimingLevel {
        self.timing
    }

    /// The display text all spans point into.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The words, in order (empty for segment-only transcripts).
    pub fn words(&self) -> &[Word] {
        &self.words
    }

    /// The segments, in order (may be empty for word-only transcripts).
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The spec 001 tokens of [`Transcript::text`], each mapped back.
    pub fn tokens(&self) -> &[TranscriptToken] {
        &self.tokens
    }

    /// What the importer noticed but accepted (ignored blocks, inverted
    /// times, extra channels).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The transcript as JSON (the documented plain shape plus spans).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The starts of the nearest timed words before and after word `w`.
    pub(crate) fn timed_neighbours(&self, w: usize) -> (Option<f64>, Option<f64>) {
        self.neighbours.get(w).copied().unwrap_or((None, None))
    }

    /// Index of the word whose span holds byte `b` of the text.
    pub(crate) fn word_at(&self, b: usize) -> Option<usize> {
        let i = self.words.partition_point(|w| w.span.byte_end <= b);
        self.words.get(i).filter(|w| w.span.byte_start <= b).map(|_| i)
    }

    /// Index of the segment whose span holds byte `b` of the text.
    pub(crate) fn segment_at(&self, b: usize) -> Option<usize> {
        let i = self.segments.partition_point(|s| s.span.byte_end <= b);
        self.segments.get(i).filter(|s| s.span.byte_start <= b).map(|_| i)
    }

    /// A [`Span`] of the text from byte `start` to `end`.
    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        self.positions.span(&self.text, start, end)
    }
}

/// How words are joined into the display text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spacing {
    /// Words are separated by one space (or by nothing: languages without
    /// word delimiters).
    Join(&'static str),
    /// Words carry their own leading whitespace (`openai-whisper`: `" Hello"`,
    /// `","`): concatenated as given, whitespace collapsed to one space.
    Raw,
}

/// A word being built: its byte range in the text so far.
#[derive(Debug)]
struct PendingWord {
    text: String,
    start: Option<f64>,
    end: Option<f64>,
    confidence: Option<f64>,
    speaker: Option<String>,
    segment: Option<usize>,
    byte_start: usize,
    byte_end: usize,
}

/// A finished segment before spans are computed.
#[derive(Debug)]
struct PendingSegment {
    text: String,
    start: f64,
    end: f64,
    speaker: Option<String>,
    word_start: usize,
    word_end: usize,
    byte_start: usize,
    byte_end: usize,
}

/// The segment words are being added to.
#[derive(Debug)]
struct OpenSegment {
    text: String,
    start: f64,
    end: f64,
    speaker: Option<String>,
    first_word: usize,
    /// Byte offset of its first word, once there is one.
    byte_start: Option<usize>,
}

/// Builds a [`Transcript`] piece by piece.
#[derive(Debug)]
pub(crate) struct Builder {
    format: TranscriptFormat,
    spacing: Spacing,
    text: String,
    words: Vec<PendingWord>,
    segments: Vec<PendingSegment>,
    /// The segment being filled with words.
    open: Option<OpenSegment>,
    /// Text to put before the next word ("attaches to next" punctuation).
    pending_prefix: String,
    /// The next word starts a new line (a segment began or ended).
    new_line: bool,
    language: Option<String>,
    warnings: Vec<String>,
    /// The latest word start so far, and whose.
    last_word_start: Option<(f64, Origin)>,
    /// The latest segment start so far, and whose.
    last_segment_start: Option<(f64, Origin)>,
    /// The first thing found out of time order: [`Builder::finish`] returns it.
    disorder: Option<Error>,
}

impl Builder {
    pub(crate) fn new(format: TranscriptFormat, spacing: Spacing) -> Builder {
        Builder {
            format,
            spacing,
            text: String::new(),
            words: Vec::new(),
            segments: Vec::new(),
            open: None,
            pending_prefix: String::new(),
            new_line: false,
            language: None,
            warnings: Vec::new(),
            last_word_start: None,
            last_segment_start: None,
            disorder: None,
        }
    }

    /// Segments must start in time order, and so must the words of one
    /// segment (of the whole transcript when it has no segments): a word
    /// that starts before the one before it would give a quote across both
    /// an end before its start, and putting it in time order would change
    /// the text a quote is matched against (the spoken order). So the input
    /// is refused, naming the place (the first one). Words of *different*
    /// segments may overlap in time: two speakers talking at once (Amazon
    /// Transcribe Call Analytics turns, diarized utterances); a match's
    /// `end_time` is then the latest end of its words.
    fn check_order(&mut self, segment: bool, start: f64, origin: &Origin) {
        let last = if segment { &mut self.last_segment_start } else { &mut self.last_word_start };
        match last {
            Some((prev, prev_origin)) if start < *prev => {
                if self.disorder.is_none() {
                    let what = if segment { "segment" } else { "word" };
                    self.disorder = Some(origin.error(
                        "order",
                        &format!(
                            "this {what} starts at {start} s, before the {what} before it ({}, at {prev} s): {what}s \
                             must be in time order, or a quote across them would end before it starts",
                            prev_origin.describe()
                        ),
                    ));
                }
            }
            _ => *last = Some((start, origin.clone())),
        }
    }

    pub(crate) fn set_language(&mut self, language: Option<String>) {
        self.language = language.filter(|l| !l.trim().is_empty());
    }

    pub(crate) fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into());
    }

    /// Whether the current position needs a separator before new text.
    fn separator(&mut self, at_segment_start: bool) {
        if self.text.is_empty() {
            return;
        }
        if at_segment_start {
            if !self.text.ends_with('\n') {
                self.text.push('\n');
            }
        } else if let Spacing::Join(sep) = self.spacing {
            self.text.push_str(sep);
        }
    }

    /// Starts a segment that words will be added to.
    pub(crate) fn open_segment(&mut self, text: &str, start: f64, end: f64, speaker: Option<String>, origin: Origin) {
        self.close_segment();
        self.check_order(true, start, &origin);
        self.last_word_start = None;
        let begin = self.words.len();
        self.new_line = true;
        self.open = Some(OpenSegment {
            text: text.trim().to_string(),
            start,
            end,
            speaker,
            first_word: begin,
            byte_start: None,
        });
    }

    /// Closes the open segment (if any): its span covers its words; a segment
    /// that got no words contributes its own text.
    pub(crate) fn close_segment(&mut self) {
        let Some(open) = self.open.take() else { return };
        self.new_line = true;
        let last_word = self.words.len();
        if last_word == open.first_word {
            self.add_segment(&open.text, open.start, open.end, open.speaker);
            return;
        }
        let byte_end = self.words.last().map_or(self.text.len(), |w| w.byte_end);
        let byte_start = open.byte_start.unwrap_or(byte_end);
        // A segment given without text (sentences rebuilt from words) shows its words.
        let text = if open.text.is_empty() {
            self.text.get(byte_start..byte_end).unwrap_or("").to_string()
        } else {
            open.text
        };
        let index = self.segments.len();
        for w in self.words.get_mut(open.first_word..last_word).into_iter().flatten() {
            w.segment = Some(index);
        }
        self.segments.push(PendingSegment {
            text,
            start: open.start,
            end: open.end,
            speaker: open.speaker,
            word_start: open.first_word,
            word_end: last_word,
            byte_start,
            byte_end,
        });
    }

    /// A segment without words: its text goes into the display text.
    pub(crate) fn push_segment(&mut self, text: &str, start: f64, end: f64, speaker: Option<String>, origin: Origin) {
        self.close_segment();
        self.check_order(true, start, &origin);
        self.last_word_start = None;
        self.add_segment(text, start, end, speaker);
    }

    /// A segment without words, its order already checked.
    fn add_segment(&mut self, text: &str, start: f64, end: f64, speaker: Option<String>) {
        let text = text.trim();
        self.separator(true);
        let byte_start = self.text.len();
        self.text.push_str(text);
        let byte_end = self.text.len();
        let w = self.words.len();
        self.segments.push(PendingSegment {
            text: text.to_string(),
            start,
            end,
            speaker,
            word_start: w,
            word_end: w,
            byte_start,
            byte_end,
        });
        self.new_line = true;
    }

    /// Appends a word (to the open segment, if any).
    pub(crate) fn push_word(
        &mut self,
        raw: &str,
        start: Option<f64>,
        end: Option<f64>,
        confidence: Option<f64>,
        speaker: Option<String>,
        origin: Origin,
    ) {
        let trimmed = raw.trim();
        if trimmed.is_empty() && self.pending_prefix.is_empty() {
            return;
        }
        if let Some(s) = start {
            self.check_order(false, s, &origin);
        }
        let at_segment_start = std::mem::take(&mut self.new_line);
        let mut word = std::mem::take(&mut self.pending_prefix);
        match self.spacing {
            Spacing::Raw => {
                if at_segment_start || self.text.is_empty() {
                    self.separator(true);
                } else if raw.starts_with(char::is_whitespace) {
                    self.text.push(' ');
                }
            }
            Spacing::Join(_) => self.separator(at_segment_start),
        }
        word.push_str(trimmed);
        let byte_start = self.text.len();
        self.text.push_str(&word);
        let byte_end = self.text.len();
        if let Some(o) = &mut self.open {
            o.byte_start.get_or_insert(byte_start);
        }
        self.words.push(PendingWord {
            text: word,
            start,
            end,
            confidence,
            speaker,
            segment: None,
            byte_start,
            byte_end,
        });
    }

    /// Punctuation that belongs to the previous word (`Union` + `,`): appended
    /// to it without a space.
    pub(crate) fn attach_to_previous(&mut self, punct: &str) {
        let punct = punct.trim();
        let last_is_word = self.words.last().is_some_and(|w| w.byte_end == self.text.len());
        match self.words.last_mut() {
            Some(w) if last_is_word => {
                self.text.push_str(punct);
                w.text.push_str(punct);
                w.byte_end = self.text.len();
            }
            _ => self.pending_prefix.push_str(punct),
        }
    }

    /// Punctuation that belongs to the next word (an opening quote).
    pub(crate) fn attach_to_next(&mut self, punct: &str) {
        self.pending_prefix.push_str(punct.trim());
    }

    /// The transcript; an error when it has neither words nor segments, or
    /// a `PROCESSING_ERROR` once `deadline` passed (asked for every word,
    /// segment and token).
    pub(crate) fn finish(mut self, deadline: &crate::host::Deadline<'_>) -> Result<Transcript> {
        self.close_segment();
        if !self.pending_prefix.is_empty() {
            let p = std::mem::take(&mut self.pending_prefix);
            self.attach_to_previous(&p);
        }
        if let Some(e) = self.disorder {
            return Err(e);
        }
        if self.words.is_empty() && self.segments.is_empty() {
            return Err(Error::new(
                ErrorKind::DocumentParsing,
                format!("the {} transcript has no words and no segments", self.format.name()),
            ));
        }
        let positions = PositionIndex::new(&self.text);
        let words = placed_words(self.words, &self.text, &positions, deadline)?;
        let segments = placed_segments(self.segments, &self.text, &positions, deadline)?;
        let timing = if words.iter().any(|w| w.start.is_some()) {
            TimingLevel::Word
        } else if !segments.is_empty() {
            TimingLevel::Segment
        } else {
            return Err(Error::new(
                ErrorKind::DocumentParsing,
                format!("the {} transcript has words but none has a timestamp, and no segments", self.format.name()),
            ));
        };
        let neighbours = timed_neighbours(&words, deadline)?;
        let mut transcript = Transcript {
            format: self.format,
            language: self.language,
            timing,
            text: self.text,
            words,
            segments,
            warnings: self.warnings,
            tokens: Vec::new(),
            positions: PositionIndex::default(),
            neighbours,
        };
        transcript.tokens = tokens_of(&transcript, &positions, deadline)?;
        transcript.positions = positions;
        Ok(transcript)
    }
}

/// The error of building stopped at item `i` of `of` (`what`: word, segment).
fn stopped(what: &str, i: usize, of: usize) -> Error {
    import_time_error(&format!("{what} {i} of {of} (building the transcript)"))
}

/// Each pending item placed by `place` (`what`: word, segment), the
/// deadline asked before each.
fn placed<P, T>(
    pending: Vec<P>,
    what: &str,
    deadline: &crate::host::Deadline<'_>,
    place: impl Fn(P) -> T,
) -> Result<Vec<T>> {
    let n = pending.len();
    let mut out: Vec<T> = Vec::with_capacity(n);
    for p in pending {
        if deadline.expired() {
            return Err(stopped(what, out.len(), n));
        }
        out.push(place(p));
    }
    Ok(out)
}

/// The words with their spans in `text`.
fn placed_words(
    pending: Vec<PendingWord>,
    text: &str,
    positions: &PositionIndex,
    deadline: &crate::host::Deadline<'_>,
) -> Result<Vec<Word>> {
    placed(pending, "word", deadline, |w| Word {
        span: positions.span(text, w.byte_start, w.byte_end),
        text: w.text,
        start: w.start,
        end: w.end,
        confidence: w.confidence,
        speaker: w.speaker,
        segment: w.segment,
    })
}

/// The segments with their spans in `text`.
fn placed_segments(
    pending: Vec<PendingSegment>,
    text: &str,
    positions: &PositionIndex,
    deadline: &crate::host::Deadline<'_>,
) -> Result<Vec<Segment>> {
    placed(pending, "segment", deadline, |s| Segment {
        span: positions.span(text, s.byte_start, s.byte_end),
        text: s.text,
        start: s.start,
        end: s.end,
        speaker: s.speaker,
        word_start: s.word_start,
        word_end: s.word_end,
    })
}

/// For each word, the start time of the nearest timed word before it and
/// after it (what locates a word without a timestamp).
fn timed_neighbours(words: &[Word], deadline: &crate::host::Deadline<'_>) -> Result<Vec<(Option<f64>, Option<f64>)>> {
    let n = words.len();
    let mut neighbours = vec![(None, None); n];
    let mut before = None;
    for (i, (w, slot)) in words.iter().zip(&mut neighbours).enumerate() {
        if deadline.expired() {
            return Err(stopped("word", i, n));
        }
        slot.0 = before;
        before = w.start.or(before);
    }
    let mut after = None;
    for (i, (w, slot)) in words.iter().zip(&mut neighbours).enumerate().rev() {
        if deadline.expired() {
            return Err(stopped("word", i, n));
        }
        slot.1 = after;
        after = w.start.or(after);
    }
    Ok(neighbours)
}

/// The spec's tokens of the transcript's text, each with its word, segment,
/// times and span.
fn tokens_of(
    transcript: &Transcript,
    positions: &PositionIndex,
    deadline: &crate::host::Deadline<'_>,
) -> Result<Vec<TranscriptToken>> {
    let mut tokens = Vec::new();
    let complete = normalize::try_for_each_token(&transcript.text, |t| {
        if deadline.expired() {
            return false;
        }
        let word = transcript.word_at(t.byte_start);
        let segment = word
            .and_then(|w| transcript.words.get(w))
            .and_then(|w| w.segment)
            .or_else(|| transcript.segment_at(t.byte_start));
        let w = word.and_then(|w| transcript.words.get(w));
        let s = segment.and_then(|s| transcript.segments.get(s));
        tokens.push(TranscriptToken {
            text: t.text,
            word,
            segment,
            start: w.and_then(|w| w.start).or(s.map(|s| s.start)),
            end: w.and_then(|w| w.end).or(s.map(|s| s.end)),
            span: positions.span(&transcript.text, t.byte_start, t.byte_end),
        });
        true
    });
    if !complete {
        let at = tokens.last().map_or(0, |t: &TranscriptToken| t.span.byte_end);
        return Err(import_time_error(&format!(
            "token {} at byte {at} of {} (building the transcript)",
            tokens.len(),
            transcript.text.len()
        )));
    }
    Ok(tokens)
}

/// The `PROCESSING_ERROR` of an import the deadline stopped at `at`.
pub(crate) fn import_time_error(at: &str) -> Error {
    Error::new(
        ErrorKind::Processing,
        format!("processing time exceeded max_processing_time_seconds: importing the transcript was not finished (stopped at {at})"),
    )
    .with_detail("constraint", Value::from("max_processing_time_seconds"))
    .with_detail("stopped_at", Value::from(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_segments_get_spans_and_tokens() {
        let mut b = Builder::new(TranscriptFormat::PlainJson, Spacing::Join(" "));
        b.open_segment("Hello, world.", 0.0, 1.0, None, Origin::Unknown);
        b.push_word("Hello,", Some(0.0), Some(0.4), None, None, Origin::Unknown);
        b.push_word("world.", Some(0.5), Some(1.0), None, None, Origin::Unknown);
        b.open_segment("Again", 2.0, 3.0, None, Origin::Unknown);
        b.push_word("Again", Some(2.0), Some(3.0), None, None, Origin::Unknown);
        let t = b.finish(&crate::host::Deadline::never()).unwrap();
        assert_eq!(t.text(), "Hello, world.\nAgain");
        assert_eq!(t.timing(), TimingLevel::Word);
        assert_eq!(t.segments()[1].word_start, 2);
        let toks: Vec<(&str, Option<usize>, Option<usize>)> =
            t.tokens().iter().map(|k| (k.text.as_str(), k.word, k.segment)).collect();
        assert_eq!(toks, [("hello", Some(0), Some(0)), ("world", Some(1), Some(0)), ("again", Some(2), Some(1))]);
        assert_eq!(&t.text()[t.tokens()[1].span.byte_start..t.tokens()[1].span.byte_end], "world");
    }

    #[test]
    fn raw_spacing_concatenates_whisper_words() {
        let mut b = Builder::new(TranscriptFormat::WhisperVerboseJson, Spacing::Raw);
        b.open_segment(" I can't.", 0.0, 1.0, None, Origin::Unknown);
        b.push_word(" I", Some(0.0), Some(0.2), None, None, Origin::Unknown);
        b.push_word(" can", Some(0.2), Some(0.5), None, None, Origin::Unknown);
        b.push_word("'t.", Some(0.5), Some(1.0), None, None, Origin::Unknown);
        let t = b.finish(&crate::host::Deadline::never()).unwrap();
        assert_eq!(t.text(), "I can't.");
        assert_eq!(t.tokens().len(), 2);
        assert_eq!(t.tokens()[1].text, "cant");
        assert_eq!(t.tokens()[1].word, Some(1));
    }

    #[test]
    fn empty_is_an_error() {
        assert!(Builder::new(TranscriptFormat::Srt, Spacing::Join(" "))
            .finish(&crate::host::Deadline::never())
            .is_err());
    }
}
