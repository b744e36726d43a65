//! Importing ASR output (spec 001 transcripts): the real-shaped fixtures of
//! `tests/data/transcript/` (one talk in every supported shape, written by
//! `make_fixtures.py`), the real engine outputs of `../shared/data/asr/`
//! when that directory exists, and malformed input naming the line or JSON
//! path.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::transcript::{
    from_json, normalize, parse_transcript, InputFormat, TimingLevel, Transcript, TranscriptFormat,
};
use serde_json::json;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/transcript");
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/asr");

fn fixture(name: &str) -> Transcript {
    let path = format!("{DATA}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_transcript(&text, InputFormat::from_file_name(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A file of ../shared/data/asr, or `None` (with a message) when absent: CI
/// runs on a clean clone without ../shared.
fn shared(rel: &str) -> Option<Transcript> {
    let path = format!("{SHARED}/{rel}");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {path} is not there (../shared is absent on a clean clone)");
        return None;
    };
    Some(parse_transcript(&text, InputFormat::from_file_name(rel)).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

/// Every span points at its text: words at their text, tokens at characters
/// that normalize to the token, segments at their words; UTF-16 and code
/// point offsets agree with the byte offsets.
fn assert_spans_hold(t: &Transcript) {
    let text = t.text();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let check = |s: &evidence_validator::text::Span, what: &str| -> String {
        let by_bytes = text.get(s.byte_start..s.byte_end).unwrap_or_else(|| panic!("{what}: bad byte span {s:?}"));
        let by_utf16 = String::from_utf16(&utf16[s.utf16_start..s.utf16_end]).unwrap();
        let by_chars: String = text.chars().skip(s.start).take(s.end - s.start).collect();
        assert_eq!(by_bytes, by_utf16, "{what}: utf16 span");
        assert_eq!(by_bytes, by_chars, "{what}: code point span");
        by_bytes.to_string()
    };
    for (i, w) in t.words().iter().enumerate() {
        assert_eq!(check(&w.span, &format!("word {i}")), w.text, "word {i}");
    }
    for (i, tok) in t.tokens().iter().enumerate() {
        let got = check(&tok.span, &format!("token {i}"));
        assert_eq!(normalize(&got), tok.text, "token {i}");
    }
    for (i, s) in t.segments().iter().enumerate() {
        check(&s.span, &format!("segment {i}"));
        assert!(s.word_start <= s.word_end && s.word_end <= t.words().len());
        for w in &t.words()[s.word_start..s.word_end] {
            assert_eq!(w.segment, Some(i));
        }
    }
}

fn token_texts(t: &Transcript) -> Vec<String> {
    t.tokens().iter().map(|k| k.text.clone()).collect()
}

const ALL_FIXTURES: &[(&str, TranscriptFormat, TimingLevel)] = &[
    ("whisper_api_verbose.json", TranscriptFormat::WhisperVerboseJson, TimingLevel::Word),
    ("openai_whisper_words.json", TranscriptFormat::WhisperVerboseJson, TimingLevel::Word),
    ("whisperx.json", TranscriptFormat::Whisperx, TimingLevel::Word),
    ("whisper_timestamped.json", TranscriptFormat::WhisperTimestamped, TimingLevel::Word),
    ("plain.json", TranscriptFormat::PlainJson, TimingLevel::Word),
    ("plain_segments.json", TranscriptFormat::PlainJson, TimingLevel::Segment),
    ("whisper_cpp.json", TranscriptFormat::WhisperCpp, TimingLevel::Segment),
    ("deepgram.json", TranscriptFormat::Deepgram, TimingLevel::Word),
    ("speechmatics.json", TranscriptFormat::Speechmatics, TimingLevel::Word),
    ("aws_transcribe.json", TranscriptFormat::AwsTranscribe, TimingLevel::Word),
    ("talk.srt", TranscriptFormat::Srt, TimingLevel::Segment),
    ("talk.vtt", TranscriptFormat::Webvtt, TimingLevel::Segment),
];

#[test]
fn every_fixture_reads_with_its_format_and_timing() {
    for &(name, format, timing) in ALL_FIXTURES {
        let t = fixture(name);
        assert_eq!(t.format(), format, "{name}");
        assert_eq!(t.timing(), timing, "{name}");
        assert_spans_hold(&t);
        assert!(t.warnings().is_empty(), "{name}: {:?}", t.warnings());
    }
}

#[test]
fn every_shape_of_the_talk_gives_the_same_tokens() {
    let reference = token_texts(&fixture("plain.json"));
    assert_eq!(reference.len(), 189);
    assert_eq!(&reference[..6], ["good", "morning", "everyone", "my", "name", "is"]);
    for &(name, ..) in ALL_FIXTURES {
        assert_eq!(token_texts(&fixture(name)), reference, "{name}");
    }
}

#[test]
fn whisper_api_words_are_put_in_their_segments() {
    let t = fixture("whisper_api_verbose.json");
    assert_eq!(t.segments().len(), 15);
    assert_eq!(t.language(), Some("english"));
    // "When" (the first word of segment 1) is in segment 1
    let when = t.words().iter().position(|w| w.text == "When").unwrap();
    assert_eq!(t.words()[when].segment, Some(1));
    assert_eq!(t.segments()[1].word_start, when);
    // OpenAI strips punctuation from words: the display text is the words
    assert!(t.text().starts_with("Good morning everyone My name is Dana Whitfield"));
}

#[test]
fn openai_whisper_words_keep_their_own_spacing() {
    let t = fixture("openai_whisper_words.json");
    assert!(t.text().starts_with("Good morning, everyone. My name is Dana Whitfield, and"), "{}", &t.text()[..60]);
    assert_eq!(
        t.segments()[0].text,
        "Good morning, everyone. My name is Dana Whitfield, and today I want to talk about water."
    );
    assert_eq!(t.words()[1].confidence, Some(0.93));
}

#[test]
fn whisperx_words_without_timestamps_are_kept_untimed() {
    let t = fixture("whisperx.json");
    let untimed: Vec<&str> = t.words().iter().filter(|w| w.start.is_none()).map(|w| w.text.as_str()).collect();
    assert_eq!(untimed, ["2019,", "4.5", "30%", "5,000"]);
    let w2019 = t.words().iter().find(|w| w.text == "2019,").unwrap();
    assert_eq!(w2019.segment, Some(3));
    assert_eq!(w2019.speaker.as_deref(), Some("SPEAKER_00"));
    // word_segments repeat the words: not read twice
    assert_eq!(t.words().len(), 189);
    let m = t.metrics();
    assert_eq!(m.notes.len(), 1, "{:?}", m.notes);
    assert!(m.notes[0].starts_with("4 of 189 words have no timestamps"));
}

#[test]
fn subtitles_are_cleaned_of_markup_and_keep_their_lines() {
    let srt = fixture("talk.srt");
    assert_eq!(srt.segments().len(), 15);
    assert_eq!(
        srt.segments()[0].text,
        "Good morning, everyone. My name is Dana Whitfield,\nand today I want to talk about water."
    );
    assert_eq!(srt.segments()[4].text, "So here are three simple\nways to save water at home.");
    assert!(srt.segments()[10].text.starts_with("Um, I know"));
    assert_eq!((srt.segments()[14].start, srt.segments()[14].end), (124.5, 128.0));
    let vtt = fixture("talk.vtt");
    assert_eq!(vtt.segments().len(), 15);
    assert!(vtt.segments().iter().all(|s| s.speaker.as_deref() == Some("Dana Whitfield")));
    assert_eq!(vtt.segments()[6].text, "Second, take shorter showers. Four\nminutes is enough for almost everyone.");
    assert_eq!(srt.text(), vtt.text());
}

#[test]
fn engines_with_punctuation_items_attach_them() {
    let sm = fixture("speechmatics.json");
    assert_eq!(sm.segments().len(), 21, "sentences end at is_eos");
    assert!(sm.text().starts_with("Good morning, everyone.\nMy name is Dana Whitfield, and"), "{}", &sm.text()[..60]);
    assert!(sm.text().contains("She said: \"Listen to it."), "attaches_to next");
    let aws = fixture("aws_transcribe.json");
    assert!(aws.text().starts_with("Good morning, everyone. My name is Dana Whitfield, and"));
    assert_eq!(aws.words()[2].text, "everyone.");
    assert_eq!(aws.words()[0].start, Some(0.0));
    assert_eq!(aws.segments().len(), 15);
    let dg = fixture("deepgram.json");
    assert_eq!(dg.words()[0].text, "Good");
    assert_eq!(dg.words()[0].speaker.as_deref(), Some("speaker 0"));
    assert_eq!(dg.segments().len(), 15);
}

#[test]
fn round_trip_through_the_plain_shape() {
    for name in ["plain.json", "whisperx.json", "talk.vtt", "speechmatics.json"] {
        let t = fixture(name);
        let again = from_json(&t.to_json()).unwrap();
        assert_eq!(again.text(), t.text(), "{name}");
        assert_eq!(token_texts(&again), token_texts(&t), "{name}");
        assert_eq!(again.timing(), t.timing(), "{name}");
        assert_eq!(again.words().len(), t.words().len(), "{name}");
    }
}

#[test]
fn detection_without_an_extension() {
    let srt = std::fs::read_to_string(format!("{DATA}/talk.srt")).unwrap();
    assert_eq!(parse_transcript(&srt, InputFormat::Auto).unwrap().format(), TranscriptFormat::Srt);
    let vtt = std::fs::read_to_string(format!("{DATA}/talk.vtt")).unwrap();
    assert_eq!(parse_transcript(&vtt, InputFormat::Auto).unwrap().format(), TranscriptFormat::Webvtt);
    let json = std::fs::read_to_string(format!("{DATA}/deepgram.json")).unwrap();
    assert_eq!(parse_transcript(&json, InputFormat::Auto).unwrap().format(), TranscriptFormat::Deepgram);
}

#[test]
fn malformed_input_names_the_place() {
    let cases: &[(&str, InputFormat, &str, &str)] = &[
        (
            "{\"segments\": [{\"start\": 0, \"end\": 1, \"text\": \"a\"}, {\"start\": 1, \"end\": \"2\"}]}",
            InputFormat::Json,
            "json_path",
            "$.segments[1].text",
        ),
        (
            "{\"segments\": [{\"start\": 0, \"end\": 1, \"words\": [{\"word\": \"a\", \"start\": true}]}]}",
            InputFormat::Json,
            "json_path",
            "$.segments[0].words[0].start",
        ),
        (
            "{\"results\": {\"channels\": [{\"alternatives\": [{\"words\": [{\"word\": \"a\", \"start\": 0}]}]}]}}",
            InputFormat::Json,
            "json_path",
            "$.results.channels[0].alternatives[0].words[0].end",
        ),
        ("{\"segments\": [", InputFormat::Json, "line", "1"),
        (
            "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 -> 00:00:04,000\nbad arrow\n",
            InputFormat::Srt,
            "line",
            "6",
        ),
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\nnot a cue\n", InputFormat::Srt, "line", "5"),
        ("WEBVTT\n\n00:01.000 --> 00:02.000\nok\n\n00:03.000 --> 00:04.00x\nbad\n", InputFormat::Vtt, "line", "6"),
        ("WEBVTX\n\n00:01.000 --> 00:02.000\nok\n", InputFormat::Vtt, "line", "1"),
    ];
    for (input, format, key, want) in cases {
        let e = parse_transcript(input, *format).expect_err(input);
        assert_eq!(e.code(), "DOCUMENT_PARSING_ERROR", "{input}");
        let got = &e.details()[*key];
        assert_eq!(got.to_string().trim_matches('"'), *want, "{input}: {e}");
        assert!(!e.message().contains('\n'), "one line: {e}");
    }
    let e = from_json(&json!({"segments": []})).unwrap_err();
    assert!(e.message().contains("no words and no segments"), "{e}");
}

// Real engine outputs from ../shared/data/asr (skipped when absent).

#[test]
fn shared_whisper_timestamped_french() {
    let Some(t) = shared("whisper-timestamped/smartphone.mp3.words.json") else {
        return;
    };
    assert_eq!(t.format(), TranscriptFormat::WhisperTimestamped);
    assert_eq!(t.timing(), TimingLevel::Word);
    assert_eq!(t.segments().len(), 36);
    assert_eq!(t.language(), Some("fr"));
    assert_eq!(&token_texts(&t)[..5], ["cest", "évident", "ce", "que", "dit"]);
    assert_spans_hold(&t);
    let Some(t) = shared("whisper-timestamped/no_punctuations.mp3.words.json") else {
        return;
    };
    assert_eq!(token_texts(&t), ["dismoi", "estce", "que", "lavion", "vole"]);
}

#[test]
fn shared_whisper_timestamped_subtitles() {
    let Some(vtt) = shared("whisper-timestamped/punctuations.mp3.vtt") else {
        return;
    };
    // The file repeats its WEBVTT line: that block has no timing and is skipped.
    assert_eq!(vtt.segments().len(), 1);
    assert_eq!(vtt.warnings().len(), 1);
    assert_eq!((vtt.segments()[0].start, vtt.segments()[0].end), (0.38, 2.76));
    let Some(srt) = shared("whisper-timestamped/punctuations.mp3.srt") else {
        return;
    };
    assert_eq!(token_texts(&srt), token_texts(&vtt));
    let Some(words) = shared("whisper-timestamped/punctuations.mp3.words.srt") else {
        return;
    };
    assert_eq!(words.segments().len(), 5);
    assert_eq!(token_texts(&words), token_texts(&vtt));
}

#[test]
fn shared_deepgram() {
    for file in [
        "a231370d439312b1a404bb6ad8de955e900ec8eae9a906329af8cc672e6ec7ba-a17f4880c5b4cf124ac54d06d77c9f0ab7f3fe1052ff1c7b090f7eaf8ede5b76-response.json",
        "a231370d439312b1a404bb6ad8de955e900ec8eae9a906329af8cc672e6ec7ba-29e7c8100617f70da4ae9da1921cb5071a01219f4780ca70930b0a370ed2163a-response.json",
    ] {
        let Some(t) = shared(&format!("deepgram/{file}")) else { return };
        assert_eq!(t.format(), TranscriptFormat::Deepgram);
        assert_eq!(t.timing(), TimingLevel::Word);
        assert_spans_hold(&t);
        assert!(!t.segments().is_empty());
        assert_eq!(t.tokens().len(), t.words().len());
    }
}

#[test]
fn shared_speechmatics() {
    for file in ["speechmatics/sm-transcript.json", "speechmatics/batch-job-transcript.json"] {
        let Some(t) = shared(file) else { return };
        assert_eq!(t.format(), TranscriptFormat::Speechmatics);
        assert_spans_hold(&t);
        assert!(t.warnings().is_empty(), "{:?}", t.warnings());
    }
    let Some(t) = shared("speechmatics/sm-transcript.json") else {
        return;
    };
    assert!(t.text().starts_with("Now, immediately after winning his first piece of"), "{}", &t.text()[..60]);
}

#[test]
fn shared_aws_call_analytics() {
    let Some(t) = shared("aws-transcribe/example-call.json") else {
        return;
    };
    assert_eq!(t.format(), TranscriptFormat::AwsTranscribeCallAnalytics);
    assert_eq!(t.segments().len(), 37);
    assert_eq!(t.segments()[0].speaker.as_deref(), Some("AGENT"));
    assert_eq!(t.segments()[1].speaker.as_deref(), Some("CUSTOMER"));
    assert!(t.text().starts_with("Thank you for calling Anchor Credit Union, the number one choice"));
    assert_eq!(t.words()[0].start, Some(0.04));
    assert_spans_hold(&t);
}
