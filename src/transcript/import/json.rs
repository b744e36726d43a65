//! JSON transcripts: the Whisper family (OpenAI `verbose_json`, the
//! `openai-whisper` package, WhisperX, whisper-timestamped), whisper.cpp,
//! Deepgram, Speechmatics, Amazon Transcribe (standard and Call Analytics),
//! and the documented plain shape. The shape is recognised from its keys; a
//! field of the wrong type is a `DOCUMENT_PARSING_ERROR` naming its JSON path.

use super::super::model::{Builder, Origin, Spacing, Transcript, TranscriptFormat};
use super::tick;
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use crate::json::type_name as kind;
use serde_json::{Map, Value};

/// A `DOCUMENT_PARSING_ERROR` about the field at `path`.
pub(crate) fn bad(path: &JsonPath, constraint: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::DocumentParsing, format!("{} at {path}", message.into()))
        .with_detail("path", path.to_value())
        .with_detail("json_path", Value::String(path.to_string()))
        .with_detail("constraint", Value::String(constraint.to_string()))
}

fn object<'v>(v: &'v Value, path: &JsonPath, what: &str) -> Result<&'v Map<String, Value>> {
    v.as_object().ok_or_else(|| bad(path, "type", format!("{what} must be an object, got {}", kind(v))))
}

/// `o[key]` as an array; `None` when absent or null.
fn array<'v>(o: &'v Map<String, Value>, key: &str, path: &JsonPath) -> Result<Option<&'v Vec<Value>>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => Ok(Some(a)),
        Some(v) => Err(bad(&path.key(key), "type", format!("{key} must be an array, got {}", kind(v)))),
    }
}

/// `o[key]` as a string; `None` when absent or null.
fn string<'v>(o: &'v Map<String, Value>, key: &str, path: &JsonPath) -> Result<Option<&'v str>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(bad(&path.key(key), "type", format!("{key} must be a string, got {}", kind(v)))),
    }
}

/// A time in seconds (× `scale`): a non-negative number, or a string holding
/// one (Amazon Transcribe writes `"0.04"`); `None` when absent or null.
fn time(o: &Map<String, Value>, key: &str, path: &JsonPath, scale: f64) -> Result<Option<f64>> {
    let p = path.key(key);
    let n = match o.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
        Some(v) => return Err(bad(&p, "type", format!("{key} must be a number of seconds, got {}", kind(v)))),
    };
    match n {
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Some(t * scale)),
        Some(t) => Err(bad(&p, "minimum", format!("{key} must be a time of at least 0, got {t}"))),
        None => Err(bad(&p, "type", format!("{key} must be a number of seconds"))),
    }
}

fn required_time(o: &Map<String, Value>, key: &str, path: &JsonPath, scale: f64) -> Result<f64> {
    time(o, key, path, scale)?.ok_or_else(|| bad(&path.key(key), "required", format!("{key} (a time) is required")))
}

/// A number (confidence); anything else is ignored.
fn number(o: &Map<String, Value>, keys: &[&str]) -> Option<f64> {
    keys.iter().find_map(|k| o.get(*k).and_then(Value::as_f64)).filter(|x| x.is_finite())
}

/// A speaker label: a string, or a number (Deepgram's `speaker: 0`).
fn speaker(o: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match o.get(*k) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(format!("speaker {n}")),
        _ => None,
    })
}

/// One item in reading order.
#[derive(Debug, Clone)]
enum Item {
    Word {
        text: String,
        start: Option<f64>,
        end: Option<f64>,
        confidence: Option<f64>,
        speaker: Option<String>,
        /// Where it is in the input.
        origin: Origin,
    },
    /// Punctuation written onto the previous word.
    AttachPrevious(String),
    /// Punctuation written onto the next word.
    AttachNext(String),
}

impl Item {
    fn start(&self) -> Option<f64> {
        match self {
            Item::Word { start, .. } => *start,
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
struct SegmentIn {
    /// Empty: shown as its words.
    text: String,
    start: f64,
    end: f64,
    speaker: Option<String>,
    items: Vec<Item>,
    /// Where it is in the input.
    origin: Origin,
}

/// End before start: accepted with a warning, the end moved to the start.
fn order(start: f64, end: f64, path: &JsonPath, warnings: &mut Vec<String>) -> f64 {
    if end < start {
        warnings.push(format!("{path} ends ({end} s) before it starts ({start} s); end set to the start"));
        start
    } else {
        end
    }
}

/// Puts items without a segment into the segments by time: an item goes to
/// the last segment starting at or before it (the first segment for items
/// before every segment); untimed items and punctuation follow the previous
/// item.
fn assign_by_time(segments: &mut [SegmentIn], items: Vec<Item>, deadline: &Deadline<'_>) -> Result<()> {
    if segments.is_empty() {
        return Ok(());
    }
    let mut k = 0;
    for (n, item) in items.into_iter().enumerate() {
        tick(deadline, || format!("word {n} (putting words into segments)"))?;
        if let Some(s) = item.start() {
            while segments.get(k + 1).is_some_and(|next| s + 1e-6 >= next.start) {
                k += 1;
            }
        }
        if let Some(segment) = segments.get_mut(k) {
            segment.items.push(item);
        }
    }
    Ok(())
}

/// Builds the transcript from segments (each with its items) and items
/// outside any segment (only when there are no segments).
fn assemble(
    format: TranscriptFormat,
    spacing: Spacing,
    language: Option<String>,
    mut segments: Vec<SegmentIn>,
    loose: Vec<Item>,
    warnings: Vec<String>,
    deadline: &Deadline<'_>,
) -> Result<Transcript> {
    let mut b = Builder::new(format, spacing);
    b.set_language(language);
    for w in warnings {
        b.warn(w);
    }
    let push = |b: &mut Builder, item: Item| match item {
        Item::Word { text, start, end, confidence, speaker, origin } => {
            b.push_word(&text, start, end, confidence, speaker, origin)
        }
        Item::AttachPrevious(p) => b.attach_to_previous(&p),
        Item::AttachNext(p) => b.attach_to_next(&p),
    };
    if segments.is_empty() {
        for (n, item) in loose.into_iter().enumerate() {
            tick(deadline, || format!("word {n} (building the text)"))?;
            push(&mut b, item);
        }
    } else {
        assign_by_time(&mut segments, loose, deadline)?;
        for (n, seg) in segments.into_iter().enumerate() {
            tick(deadline, || format!("segment {n} (building the text)"))?;
            if seg.items.is_empty() {
                b.push_segment(&seg.text, seg.start, seg.end, seg.speaker, seg.origin);
            } else {
                b.open_segment(&seg.text, seg.start, seg.end, seg.speaker, seg.origin);
                for (m, item) in seg.items.into_iter().enumerate() {
                    tick(deadline, || format!("segment {n}, word {m} (building the text)"))?;
                    push(&mut b, item);
                }
                b.close_segment();
            }
        }
    }
    b.finish(deadline)
}

/// Reads a JSON transcript of any supported shape (no time limit: see
/// [`from_json_within`]).
pub fn from_json(value: &Value) -> Result<Transcript> {
    from_json_within(value, &Deadline::never())
}

/// [`from_json`] within `deadline`, asked for every array element, word and
/// token; past it a `PROCESSING_ERROR` naming the JSON path it stopped at.
pub fn from_json_within(value: &Value, deadline: &Deadline<'_>) -> Result<Transcript> {
    let d = deadline;
    let root = JsonPath::root();
    let o = object(value, &root, "a JSON transcript")?;
    let results = o.get("results");
    if let Some(Value::Object(r)) = results {
        if r.contains_key("channels") {
            return deepgram(r, &root.key("results"), d);
        }
        if r.contains_key("items") {
            return aws_transcribe(r, &root.key("results"), d);
        }
    }
    if let Some(Value::Array(_)) = results {
        return speechmatics(o, &root, d);
    }
    if let Some(Value::Array(_)) = o.get("Transcript") {
        return aws_call_analytics(o, &root, d);
    }
    if let Some(Value::Array(_)) = o.get("transcription") {
        return whisper_cpp(o, &root, d);
    }
    if ["segments", "words", "word_segments"].iter().any(|k| o.contains_key(*k)) {
        return whisper_family(o, &root, d);
    }
    let keys: Vec<&str> = o.keys().map(String::as_str).take(8).collect();
    Err(bad(
        &root,
        "shape",
        format!(
            "not a transcript shape this library reads (keys: {}); expected Whisper/WhisperX `segments`/`words`, \
             Deepgram `results.channels`, Speechmatics `results[]`, Amazon Transcribe `results.items` or `Transcript[]`, \
             whisper.cpp `transcription`",
            if keys.is_empty() { "none".to_string() } else { keys.join(", ") }
        ),
    ))
}

/// One word object of the Whisper family or the plain shape: text under
/// `word`, `text` or `punctuated_word`; `start`/`end` optional (WhisperX
/// leaves unaligned words without them).
fn whisper_word(v: &Value, path: &JsonPath, warnings: &mut Vec<String>) -> Result<Item> {
    let w = object(v, path, "a word")?;
    let text = ["word", "text", "punctuated_word"]
        .iter()
        .find_map(|k| w.get(*k).and_then(Value::as_str))
        .ok_or_else(|| bad(path, "required", "a word needs its text as a string under `word` or `text`"))?;
    let start = time(w, "start", path, 1.0)?;
    let mut end = time(w, "end", path, 1.0)?;
    if let (Some(s), Some(e)) = (start, end) {
        end = Some(order(s, e, path, warnings));
    }
    Ok(Item::Word {
        text: text.to_string(),
        start,
        end,
        confidence: number(w, &["score", "probability", "confidence"]),
        speaker: speaker(w, &["speaker"]),
        origin: Origin::Json(path.clone()),
    })
}

fn whisper_family(o: &Map<String, Value>, root: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let mut segments = Vec::new();
    let mut any_segment_words = false;
    let mut word_keys = (false, false, false); // uses "text", has "score", has "probability"
    let segs_path = root.key("segments");
    for (i, v) in array(o, "segments", root)?.into_iter().flatten().enumerate() {
        tick(d, || format!("segments[{i}]"))?;
        let p = segs_path.index(i);
        let s = object(v, &p, "a segment")?;
        let start = required_time(s, "start", &p, 1.0)?;
        let end = order(start, required_time(s, "end", &p, 1.0)?, &p, &mut warnings);
        let mut items = Vec::new();
        for (j, w) in array(s, "words", &p)?.into_iter().flatten().enumerate() {
            tick(d, || format!("words[{j}]"))?;
            let wp = p.key("words").index(j);
            if let Some(wo) = w.as_object() {
                word_keys.0 |= wo.contains_key("text") && !wo.contains_key("word");
                word_keys.1 |= wo.contains_key("score");
                word_keys.2 |= wo.contains_key("probability");
            }
            items.push(whisper_word(w, &wp, &mut warnings)?);
        }
        any_segment_words |= !items.is_empty();
        let text = match string(s, "text", &p)? {
            Some(t) => t.to_string(),
            None if !items.is_empty() => String::new(),
            None => return Err(bad(&p.key("text"), "required", "a segment without words needs its text")),
        };
        segments.push(SegmentIn {
            text,
            start,
            end,
            speaker: speaker(s, &["speaker"]),
            items,
            origin: Origin::Json(p),
        });
    }
    // Top-level words: OpenAI's `verbose_json` with word granularity; WhisperX
    // repeats its words there as `word_segments` (ignored when segments have them).
    let mut loose = Vec::new();
    let top_key = if o.contains_key("words") { "words" } else { "word_segments" };
    if !(any_segment_words && top_key == "word_segments") {
        for (j, w) in array(o, top_key, root)?.into_iter().flatten().enumerate() {
            if let Some(wo) = w.as_object() {
                word_keys.1 |= wo.contains_key("score");
            }
            loose.push(whisper_word(w, &root.key(top_key).index(j), &mut warnings)?);
        }
    }
    if any_segment_words && !loose.is_empty() {
        warnings.push(format!("both segments[].words and top-level {top_key} given; the top-level words were ignored"));
        loose.clear();
    }
    let whisper_keys = o.contains_key("task")
        || o.contains_key("duration")
        || array(o, "segments", root)?
            .and_then(|a| a.first())
            .and_then(Value::as_object)
            .is_some_and(|s| s.contains_key("seek") || s.contains_key("tokens") || s.contains_key("avg_logprob"));
    let format = if word_keys.1 || o.contains_key("word_segments") {
        TranscriptFormat::Whisperx
    } else if whisper_keys && word_keys.0 {
        TranscriptFormat::WhisperTimestamped
    } else if whisper_keys || word_keys.2 {
        TranscriptFormat::WhisperVerboseJson
    } else {
        TranscriptFormat::PlainJson
    };
    // openai-whisper words carry their own spaces (" Hello", ","): concatenated.
    let raw = segments.iter().flat_map(|s| s.items.iter()).chain(loose.iter()).any(|i| match i {
        Item::Word { text, .. } => text.starts_with(char::is_whitespace),
        _ => false,
    });
    let spacing = if raw { Spacing::Raw } else { Spacing::Join(" ") };
    let language = string(o, "language", root)?.map(str::to_string);
    assemble(format, spacing, language, segments, loose, warnings, d)
}

fn whisper_cpp(o: &Map<String, Value>, root: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let mut segments = Vec::new();
    let path = root.key("transcription");
    for (i, v) in array(o, "transcription", root)?.into_iter().flatten().enumerate() {
        tick(d, || format!("transcription[{i}]"))?;
        let p = path.index(i);
        let s = object(v, &p, "a transcription entry")?;
        let op = p.key("offsets");
        let offsets = object(s.get("offsets").unwrap_or(&Value::Null), &op, "offsets")?;
        let start = required_time(offsets, "from", &op, 0.001)?;
        let end = order(start, required_time(offsets, "to", &op, 0.001)?, &p, &mut warnings);
        let text = string(s, "text", &p)?.ok_or_else(|| bad(&p.key("text"), "required", "text is required"))?;
        segments.push(SegmentIn {
            text: text.to_string(),
            start,
            end,
            speaker: None,
            items: Vec::new(),
            origin: Origin::Json(p),
        });
    }
    let language = o
        .get("result")
        .and_then(Value::as_object)
        .and_then(|r| r.get("language"))
        .and_then(Value::as_str)
        .map(str::to_string);
    assemble(TranscriptFormat::WhisperCpp, Spacing::Join(" "), language, segments, Vec::new(), warnings, d)
}

fn deepgram(r: &Map<String, Value>, rp: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let (channel, channels) = array(r, "channels", rp)?
        .and_then(|c| Some((c.first()?, c)))
        .ok_or_else(|| bad(&rp.key("channels"), "minItems", "results.channels must hold at least one channel"))?;
    if channels.len() > 1 {
        warnings.push(format!("{} channels; only channel 0 was read", channels.len()));
    }
    let cp = rp.key("channels").index(0);
    let channel = object(channel, &cp, "a channel")?;
    let alternative = array(channel, "alternatives", &cp)?
        .and_then(|a| a.first())
        .ok_or_else(|| bad(&cp.key("alternatives"), "minItems", "alternatives must hold at least one alternative"))?;
    let ap = cp.key("alternatives").index(0);
    let alt = object(alternative, &ap, "an alternative")?;
    let items = deepgram_words(alt, &ap, d, &mut warnings)?;
    // Segments: the sentences of `paragraphs`, else `results.utterances` of channel 0.
    let mut segments = deepgram_sentences(alt, &ap, d, &mut warnings)?;
    if segments.is_empty() {
        segments = deepgram_utterances(r, rp, d, &mut warnings)?;
    }
    let language = string(channel, "detected_language", &cp)?
        .map(str::to_string)
        .or_else(|| alt.get("languages").and_then(|l| l.get(0)).and_then(Value::as_str).map(str::to_string));
    assemble(TranscriptFormat::Deepgram, Spacing::Join(" "), language, segments, items, warnings, d)
}

/// The words of a Deepgram alternative (at `ap`).
fn deepgram_words(
    alt: &Map<String, Value>,
    ap: &JsonPath,
    d: &Deadline<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    for (j, w) in array(alt, "words", ap)?.into_iter().flatten().enumerate() {
        tick(d, || format!("words[{j}]"))?;
        let p = ap.key("words").index(j);
        let wo = object(w, &p, "a word")?;
        let text = string(wo, "punctuated_word", &p)?
            .or(string(wo, "word", &p)?)
            .ok_or_else(|| bad(&p, "required", "a word needs `word` or `punctuated_word`"))?;
        let start = required_time(wo, "start", &p, 1.0)?;
        let end = order(start, required_time(wo, "end", &p, 1.0)?, &p, warnings);
        items.push(Item::Word {
            text: text.to_string(),
            start: Some(start),
            end: Some(end),
            confidence: number(wo, &["confidence"]),
            speaker: speaker(wo, &["speaker"]),
            origin: Origin::Json(p),
        });
    }
    Ok(items)
}

/// The sentences of a Deepgram alternative's `paragraphs`, as segments.
fn deepgram_sentences(
    alt: &Map<String, Value>,
    ap: &JsonPath,
    d: &Deadline<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<SegmentIn>> {
    let mut segments = Vec::new();
    let Some(Value::Object(pgs)) = alt.get("paragraphs") else {
        return Ok(segments);
    };
    let pp = ap.key("paragraphs");
    for (i, pg) in array(pgs, "paragraphs", &pp)?.into_iter().flatten().enumerate() {
        tick(d, || format!("paragraphs[{i}]"))?;
        let pgp = pp.key("paragraphs").index(i);
        let pg = object(pg, &pgp, "a paragraph")?;
        let who = speaker(pg, &["speaker"]);
        for (k, s) in array(pg, "sentences", &pgp)?.into_iter().flatten().enumerate() {
            tick(d, || format!("sentences[{k}]"))?;
            let sp = pgp.key("sentences").index(k);
            let so = object(s, &sp, "a sentence")?;
            let start = required_time(so, "start", &sp, 1.0)?;
            let end = order(start, required_time(so, "end", &sp, 1.0)?, &sp, warnings);
            let text = string(so, "text", &sp)?.unwrap_or("").to_string();
            segments.push(SegmentIn {
                text,
                start,
                end,
                speaker: who.clone(),
                items: Vec::new(),
                origin: Origin::Json(sp),
            });
        }
    }
    Ok(segments)
}

/// Deepgram's `results.utterances` of channel 0, as segments.
fn deepgram_utterances(
    r: &Map<String, Value>,
    rp: &JsonPath,
    d: &Deadline<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<SegmentIn>> {
    let mut segments = Vec::new();
    for (i, u) in array(r, "utterances", rp)?.into_iter().flatten().enumerate() {
        tick(d, || format!("utterances[{i}]"))?;
        let up = rp.key("utterances").index(i);
        let uo = object(u, &up, "an utterance")?;
        if uo.get("channel").and_then(Value::as_u64).is_some_and(|c| c != 0) {
            continue;
        }
        let start = required_time(uo, "start", &up, 1.0)?;
        let end = order(start, required_time(uo, "end", &up, 1.0)?, &up, warnings);
        let text = string(uo, "transcript", &up)?.unwrap_or("").to_string();
        segments.push(SegmentIn {
            text,
            start,
            end,
            speaker: speaker(uo, &["speaker"]),
            items: Vec::new(),
            origin: Origin::Json(up),
        });
    }
    Ok(segments)
}

fn speechmatics(o: &Map<String, Value>, root: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let metadata = o.get("metadata").and_then(Value::as_object);
    let delimiter = metadata
        .and_then(|m| m.get("language_pack_info"))
        .and_then(|l| l.get("word_delimiter"))
        .and_then(Value::as_str)
        .unwrap_or(" ");
    let spacing = if delimiter.is_empty() { Spacing::Join("") } else { Spacing::Join(" ") };
    let language = metadata
        .and_then(|m| m.get("transcription_config"))
        .and_then(|c| c.get("language"))
        .and_then(Value::as_str)
        .map(str::to_string);
    // Sentences (ended by `is_eos`) become segments.
    let mut sentences = Sentences::default();
    let rp = root.key("results");
    for (i, v) in array(o, "results", root)?.into_iter().flatten().enumerate() {
        tick(d, || format!("results[{i}]"))?;
        let p = rp.index(i);
        let r = object(v, &p, "a result")?;
        speechmatics_result(r, &p, &mut sentences, &mut warnings)?;
        if r.get("is_eos").and_then(Value::as_bool) == Some(true) {
            sentences.flush();
        }
    }
    sentences.flush();
    assemble(TranscriptFormat::Speechmatics, spacing, language, sentences.segments, Vec::new(), warnings, d)
}

/// Speechmatics results gathered into sentences.
#[derive(Default)]
struct Sentences {
    segments: Vec<SegmentIn>,
    current: Vec<Item>,
    /// (start, end, where the sentence's first word is)
    bounds: Option<(f64, f64, Origin)>,
    who: Option<String>,
}

impl Sentences {
    /// Ends the current sentence.
    fn flush(&mut self) {
        if let Some((start, end, origin)) = self.bounds.take() {
            self.segments.push(SegmentIn {
                text: String::new(),
                start,
                end,
                speaker: self.who.take(),
                items: std::mem::take(&mut self.current),
                origin,
            });
        } else if !self.current.is_empty() {
            // punctuation only: belongs to the previous sentence
            if let Some(last) = self.segments.last_mut() {
                last.items.append(&mut self.current);
            }
        }
    }
}

/// One Speechmatics result (at `p`): a word or entity, or punctuation,
/// added to the current sentence.
fn speechmatics_result(
    r: &Map<String, Value>,
    p: &JsonPath,
    sentences: &mut Sentences,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let ty = string(r, "type", p)?.ok_or_else(|| bad(&p.key("type"), "required", "type is required"))?;
    let alt0 = array(r, "alternatives", p)?
        .and_then(|a| a.first())
        .ok_or_else(|| bad(&p.key("alternatives"), "minItems", "alternatives must hold at least one alternative"))?;
    let a0p = p.key("alternatives").index(0);
    let a0 = object(alt0, &a0p, "an alternative")?;
    let content =
        string(a0, "content", &a0p)?.ok_or_else(|| bad(&a0p.key("content"), "required", "content is required"))?;
    let start = required_time(r, "start_time", p, 1.0)?;
    let end = order(start, required_time(r, "end_time", p, 1.0)?, p, warnings);
    let current = &mut sentences.current;
    match ty {
        "word" | "entity" => {
            let sp = speaker(a0, &["speaker"]).filter(|s| s != "UU");
            if sentences.who.is_none() {
                sentences.who = sp.clone();
            }
            current.push(Item::Word {
                text: content.to_string(),
                start: Some(start),
                end: Some(end),
                confidence: number(a0, &["confidence"]),
                speaker: sp,
                origin: Origin::Json(p.clone()),
            });
            sentences.bounds = Some(match sentences.bounds.take() {
                None => (start, end, Origin::Json(p.clone())),
                Some((s, e, o)) => (s.min(start), e.max(end), o),
            });
        }
        "punctuation" => match r.get("attaches_to").and_then(Value::as_str) {
            Some("next") => current.push(Item::AttachNext(content.to_string())),
            Some("none") => current.push(Item::Word {
                text: content.to_string(),
                start: Some(start),
                end: Some(end),
                confidence: None,
                speaker: None,
                origin: Origin::Json(p.clone()),
            }),
            _ => current.push(Item::AttachPrevious(content.to_string())),
        },
        other => warnings.push(format!("{p}: result of unknown type {other:?} ignored")),
    }
    Ok(())
}

fn aws_transcribe(r: &Map<String, Value>, rp: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let mut items = Vec::new();
    for (i, v) in array(r, "items", rp)?.into_iter().flatten().enumerate() {
        tick(d, || format!("items[{i}]"))?;
        let p = rp.key("items").index(i);
        let it = object(v, &p, "an item")?;
        let ty = string(it, "type", &p)?.unwrap_or("pronunciation");
        let alt0 = array(it, "alternatives", &p)?.and_then(|a| a.first()).ok_or_else(|| {
            bad(&p.key("alternatives"), "minItems", "alternatives must hold at least one alternative")
        })?;
        let a0p = p.key("alternatives").index(0);
        let a0 = object(alt0, &a0p, "an alternative")?;
        let content =
            string(a0, "content", &a0p)?.ok_or_else(|| bad(&a0p.key("content"), "required", "content is required"))?;
        if ty == "punctuation" {
            items.push(Item::AttachPrevious(content.to_string()));
            continue;
        }
        let start = time(it, "start_time", &p, 1.0)?;
        let mut end = time(it, "end_time", &p, 1.0)?;
        if let (Some(s), Some(e)) = (start, end) {
            end = Some(order(s, e, &p, &mut warnings));
        }
        items.push(Item::Word {
            text: content.to_string(),
            start,
            end,
            confidence: a0.get("confidence").and_then(|c| c.as_f64().or_else(|| c.as_str()?.parse().ok())),
            speaker: speaker(it, &["speaker_label"]),
            origin: Origin::Json(p),
        });
    }
    let mut segments = Vec::new();
    for (i, v) in array(r, "audio_segments", rp)?.into_iter().flatten().enumerate() {
        tick(d, || format!("audio_segments[{i}]"))?;
        let p = rp.key("audio_segments").index(i);
        let s = object(v, &p, "an audio segment")?;
        let start = required_time(s, "start_time", &p, 1.0)?;
        let end = order(start, required_time(s, "end_time", &p, 1.0)?, &p, &mut warnings);
        let text = string(s, "transcript", &p)?.unwrap_or("").to_string();
        segments.push(SegmentIn {
            text,
            start,
            end,
            speaker: speaker(s, &["speaker_label"]),
            items: Vec::new(),
            origin: Origin::Json(p),
        });
    }
    let language = string(r, "language_code", rp)?.map(str::to_string);
    assemble(TranscriptFormat::AwsTranscribe, Spacing::Join(" "), language, segments, items, warnings, d)
}

fn aws_call_analytics(o: &Map<String, Value>, root: &JsonPath, d: &Deadline<'_>) -> Result<Transcript> {
    let mut warnings = Vec::new();
    let mut segments = Vec::new();
    let tp = root.key("Transcript");
    for (i, v) in array(o, "Transcript", root)?.into_iter().flatten().enumerate() {
        tick(d, || format!("Transcript[{i}]"))?;
        let p = tp.index(i);
        let turn = object(v, &p, "a turn")?;
        let start = required_time(turn, "BeginOffsetMillis", &p, 0.001)?;
        let end = order(start, required_time(turn, "EndOffsetMillis", &p, 0.001)?, &p, &mut warnings);
        let text = string(turn, "Content", &p)?.unwrap_or("").to_string();
        let who = speaker(turn, &["ParticipantRole"]);
        let mut items = Vec::new();
        for (j, w) in array(turn, "Items", &p)?.into_iter().flatten().enumerate() {
            tick(d, || format!("Items[{j}]"))?;
            let wp = p.key("Items").index(j);
            let wo = object(w, &wp, "an item")?;
            let content = string(wo, "Content", &wp)?
                .ok_or_else(|| bad(&wp.key("Content"), "required", "Content is required"))?;
            if string(wo, "Type", &wp)? == Some("punctuation") {
                items.push(Item::AttachPrevious(content.to_string()));
                continue;
            }
            let s = time(wo, "BeginOffsetMillis", &wp, 0.001)?;
            let mut e = time(wo, "EndOffsetMillis", &wp, 0.001)?;
            if let (Some(s), Some(x)) = (s, e) {
                e = Some(order(s, x, &wp, &mut warnings));
            }
            items.push(Item::Word {
                text: content.to_string(),
                start: s,
                end: e,
                confidence: number(wo, &["Confidence"]),
                speaker: who.clone(),
                origin: Origin::Json(wp),
            });
        }
        segments.push(SegmentIn { text, start, end, speaker: who, items, origin: Origin::Json(p) });
    }
    let language = string(o, "LanguageCode", root)?.map(str::to_string);
    assemble(
        TranscriptFormat::AwsTranscribeCallAnalytics,
        Spacing::Join(" "),
        language,
        segments,
        Vec::new(),
        warnings,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_shape_with_segments_and_words() {
        let t = from_json(&json!({
            "segments": [{"start": 0.0, "end": 2.0, "text": "Hello there, friend."}],
            "words": [
                {"text": "Hello", "start": 0.0, "end": 0.4},
                {"text": "there,", "start": 0.5, "end": 0.9},
                {"text": "friend.", "start": 1.0, "end": 2.0}
            ]
        }))
        .unwrap();
        assert_eq!(t.format(), TranscriptFormat::PlainJson);
        assert_eq!(t.text(), "Hello there, friend.");
        assert_eq!(t.segments()[0].word_end, 3);
        assert_eq!(t.words()[2].segment, Some(0));
    }

    #[test]
    fn errors_name_the_json_path() {
        let e = from_json(
            &json!({"segments": [{"start": 0, "end": 1, "text": "a"}, {"start": "x", "end": 2, "text": "b"}]}),
        )
        .unwrap_err();
        assert_eq!(e.code(), "DOCUMENT_PARSING_ERROR");
        assert_eq!(e.details()["json_path"], "$.segments[1].start");
        let e = from_json(&json!({"segments": [{"start": 0, "end": 1, "words": [{"start": 0}]}]})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.segments[0].words[0]");
        let e = from_json(&json!({"segments": [{"start": -1, "end": 1, "text": "a"}]})).unwrap_err();
        assert!(e.message().contains("at least 0"), "{}", e.message());
        assert!(from_json(&json!([1, 2])).is_err());
        assert!(from_json(&json!({"hello": 1})).is_err());
    }

    #[test]
    fn inverted_times_are_a_warning() {
        let t = from_json(&json!({"segments": [{"start": 3, "end": 1, "text": "a b"}]})).unwrap();
        assert_eq!(t.segments()[0].end, 3.0);
        assert_eq!(t.warnings().len(), 1);
    }
}
