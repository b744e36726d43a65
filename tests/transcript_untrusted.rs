//! Spec 001 transcripts on untrusted input (issue 13): every line end in
//! subtitles, words out of time order, the time limit, and work that stays
//! linear in the number of words, segments and items. Each test also checks
//! that a later call on good input still works.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::transcript::{
    from_json, parse_transcript, validate_item, EvaluationItem, InputFormat, Transcript, TranscriptConfig,
};
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/transcript");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}")).unwrap()
}

fn summary(t: &Transcript) -> (String, Vec<(String, f64, f64)>, Vec<String>) {
    (
        t.text().to_string(),
        t.segments().iter().map(|s| (s.text.clone(), s.start, s.end)).collect(),
        t.tokens().iter().map(|k| k.text.clone()).collect(),
    )
}

/// A later call on good input still works (after an error or a time-out).
fn later_call_works() {
    let t = parse_transcript(&read("talk.srt"), InputFormat::Srt).unwrap();
    let r =
        validate_item(&t, &EvaluationItem::new("today I want to talk about water", 1.0), &TranscriptConfig::default());
    assert!(r.passed, "{:?}", r.failure_summary());
}

#[test]
fn subtitles_read_alike_with_any_line_end() {
    for (name, format) in [("talk.srt", InputFormat::Srt), ("talk.vtt", InputFormat::Vtt)] {
        let lf = read(name).replace("\r\n", "\n");
        assert!(!lf.contains('\r'));
        let reference = parse_transcript(&lf, format).unwrap();
        assert!(reference.segments().len() >= 10, "{name}");
        let variants = [
            ("CR", lf.replace('\n', "\r")),
            ("CRLF", lf.replace('\n', "\r\n")),
            // every line end in one file, in turn (a CR never directly before
            // an empty line's LF: that pair is one CRLF)
            (
                "mixed",
                lf.split('\n')
                    .enumerate()
                    .map(|(i, l)| format!("{l}{}", ["\r", "\r\n", "\n"][i % 3]))
                    .collect::<String>(),
            ),
        ];
        for (what, input) in variants {
            for f in [format, InputFormat::Auto] {
                let t = parse_transcript(&input, f).unwrap_or_else(|e| panic!("{name} {what} {f:?}: {e}"));
                assert_eq!(summary(&t), summary(&reference), "{name} {what}");
                assert!(t.warnings().is_empty(), "{name} {what}: {:?}", t.warnings());
            }
        }
    }
    // An error in a CR-only file names its line.
    let e = parse_transcript(
        "1\r00:00:01,000 --> 00:00:02,000\rA\r\r2\r00:00:0x,000 --> 00:00:04,000\rB\r",
        InputFormat::Srt,
    )
    .unwrap_err();
    assert_eq!(e.details()["line"], 6, "{e}");
    later_call_works();
}

fn words_json(times: &[(f64, f64)]) -> Value {
    let words: Vec<Value> =
        times.iter().enumerate().map(|(i, (s, e))| json!({"text": format!("w{i}"), "start": s, "end": e})).collect();
    json!({ "words": words })
}

#[test]
fn words_out_of_time_order_are_refused_naming_the_word() {
    // No segments: the words are one stream.
    let e = from_json(&words_json(&[(0.0, 0.5), (1.0, 1.5), (0.7, 0.9), (2.0, 2.5)])).unwrap_err();
    assert_eq!(e.code(), "DOCUMENT_PARSING_ERROR");
    assert_eq!(e.details()["json_path"], "$.words[2]", "{e}");
    assert_eq!(e.details()["constraint"], "order");
    assert!(e.message().contains("$.words[1]") && e.message().contains("0.7 s"), "{e}");

    // Inside a segment.
    let e = from_json(&json!({"segments": [
        {"start": 0, "end": 3, "text": "a b c", "words": [
            {"word": "a", "start": 0.0, "end": 0.4}, {"word": "b", "start": 0.5, "end": 0.9}, {"word": "c", "start": 2.0, "end": 2.4}]},
        {"start": 3, "end": 6, "text": "d e f", "words": [
            {"word": "d", "start": 3.0, "end": 3.4}, {"word": "e", "start": 4.5, "end": 4.9}, {"word": "f", "start": 4.0, "end": 4.4}]}
    ]}))
    .unwrap_err();
    assert_eq!(e.details()["json_path"], "$.segments[1].words[2]", "{e}");

    // Top-level words put into segments by time: a word that goes back in time.
    let e = from_json(&json!({
        "segments": [{"start": 0, "end": 2, "text": "a b"}, {"start": 2, "end": 4, "text": "c d"}],
        "words": [{"word": "a", "start": 0.1, "end": 0.5}, {"word": "c", "start": 2.1, "end": 2.5},
                  {"word": "b", "start": 1.0, "end": 1.5}, {"word": "d", "start": 3.0, "end": 3.5}]
    }))
    .unwrap_err();
    assert_eq!(e.details()["json_path"], "$.words[2]", "{e}");

    // Segments out of order.
    let e = from_json(&json!({"segments": [
        {"start": 5, "end": 6, "text": "later"}, {"start": 1, "end": 2, "text": "earlier"}]}))
    .unwrap_err();
    assert_eq!(e.details()["json_path"], "$.segments[1]", "{e}");

    // Every engine shape names its own path.
    let e = from_json(&json!({"results": {"channels": [{"alternatives": [{"words": [
        {"word": "a", "start": 1.0, "end": 1.2}, {"word": "b", "start": 0.5, "end": 0.7}]}]}]}}))
    .unwrap_err();
    assert_eq!(e.details()["json_path"], "$.results.channels[0].alternatives[0].words[1]", "{e}");
    let e = from_json(&json!({"results": {"items": [
        {"start_time": "1.0", "end_time": "1.2", "alternatives": [{"content": "a"}], "type": "pronunciation"},
        {"start_time": "0.2", "end_time": "0.4", "alternatives": [{"content": "b"}], "type": "pronunciation"}]}}))
    .unwrap_err();
    assert_eq!(e.details()["json_path"], "$.results.items[1]", "{e}");

    // Subtitle cues out of order name the timing line.
    let e = parse_transcript(
        "1\n00:00:05,000 --> 00:00:06,000\nlater\n\n2\n00:00:01,000 --> 00:00:02,000\nearlier\n",
        InputFormat::Srt,
    )
    .unwrap_err();
    assert_eq!(e.details()["line"], 6, "{e}");
    assert_eq!(e.details()["constraint"], "order");
    let e = parse_transcript(
        "WEBVTT\n\n00:05.000 --> 00:06.000\nlater\n\n00:01.000 --> 00:02.000\nearlier\n",
        InputFormat::Vtt,
    )
    .unwrap_err();
    assert_eq!(e.details()["line"], 6, "{e}");

    // Equal starts are in order; an inverted word is clamped with a warning (not an error).
    let t = from_json(&words_json(&[(0.0, 0.5), (0.0, 0.6), (1.0, 0.8)])).unwrap();
    assert_eq!(t.words()[2].end, Some(1.0));
    assert_eq!(t.warnings().len(), 1);
    later_call_works();
}

#[test]
fn overlapping_speakers_are_accepted_and_ranges_stay_valid() {
    // Two parties talking at once (Amazon Transcribe Call Analytics turns):
    // each turn in order, the agent's turn starting before the customer's ends.
    let call = json!({"Transcript": [
        {"ParticipantRole": "CUSTOMER", "BeginOffsetMillis": 6000, "EndOffsetMillis": 10000,
         "Content": "so I was at the terminal yesterday",
         "Items": [
            {"Content": "so", "BeginOffsetMillis": 6000, "EndOffsetMillis": 6300, "Type": "pronunciation"},
            {"Content": "I", "BeginOffsetMillis": 6300, "EndOffsetMillis": 6500, "Type": "pronunciation"},
            {"Content": "was", "BeginOffsetMillis": 6500, "EndOffsetMillis": 7000, "Type": "pronunciation"},
            {"Content": "at", "BeginOffsetMillis": 7000, "EndOffsetMillis": 7300, "Type": "pronunciation"},
            {"Content": "the", "BeginOffsetMillis": 8000, "EndOffsetMillis": 8300, "Type": "pronunciation"},
            {"Content": "terminal", "BeginOffsetMillis": 9000, "EndOffsetMillis": 9900, "Type": "pronunciation"}]},
        {"ParticipantRole": "AGENT", "BeginOffsetMillis": 7500, "EndOffsetMillis": 9000,
         "Content": "yeah mhm",
         "Items": [
            {"Content": "yeah", "BeginOffsetMillis": 7500, "EndOffsetMillis": 7800, "Type": "pronunciation"},
            {"Content": "mhm", "BeginOffsetMillis": 8500, "EndOffsetMillis": 8800, "Type": "pronunciation"}]}
    ]});
    let t = from_json(&call).unwrap();
    let r = validate_item(
        &t,
        &EvaluationItem::new("at the terminal yeah mhm", 7.0),
        &TranscriptConfig { min_contiguous_tokens: 5, ..Default::default() },
    );
    assert!(r.passed, "{:?}", r.failure_summary());
    let m = r.matched.unwrap();
    // the last word ("mhm") ends at 8.8 s, before "terminal" ends: the passage ends at 9.9 s
    assert_eq!((m.start_time, m.end_time), (Some(7.0), Some(9.9)));
    later_call_works();
}

/// A small deterministic generator (no dependency on the library's).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn no_reported_range_ends_before_it_starts() {
    // Random word and segment times, words sometimes missing times, segments
    // overlapping: every transcript is either refused with a path or every
    // matched span, token and locality interval is a valid range.
    let mut rng = Lcg(7);
    let (mut refused, mut accepted) = (0, 0);
    for _ in 0..400 {
        let mut segments = Vec::new();
        let mut t0 = 0.0f64;
        for _ in 0..1 + rng.next() % 4 {
            t0 += (rng.next() % 40) as f64 / 10.0 - 0.5;
            t0 = t0.max(0.0);
            let mut words = Vec::new();
            let mut w0 = t0 + (rng.next() % 10) as f64 / 10.0 - 0.3;
            for k in 0..3 + rng.next() % 5 {
                w0 += (rng.next() % 10) as f64 / 10.0 - 0.1;
                let w0c = w0.max(0.0);
                let timed = rng.next() % 5 != 0;
                let end = w0c + (rng.next() % 30) as f64 / 10.0 - 0.5;
                words.push(if timed {
                    json!({"word": format!("x{}", k % 3), "start": w0c, "end": end.max(0.0)})
                } else {
                    json!({"word": format!("x{}", k % 3)})
                });
            }
            let seg_end = t0 + (rng.next() % 50) as f64 / 10.0;
            segments.push(json!({"start": t0, "end": seg_end, "words": words}));
        }
        let t = match from_json(&json!({ "segments": segments })) {
            Ok(t) => t,
            Err(e) => {
                assert_eq!(e.code(), "DOCUMENT_PARSING_ERROR");
                assert!(e.details()["json_path"].as_str().is_some_and(|p| p.starts_with("$.segments[")), "{e}");
                refused += 1;
                continue;
            }
        };
        accepted += 1;
        for k in t.tokens() {
            if let (Some(s), Some(e)) = (k.start, k.end) {
                assert!(e >= s, "token {k:?}");
            }
        }
        let n = t.tokens().len();
        for len in 1..=n.min(6) {
            for start in 0..=n - len {
                let quote: Vec<&str> = t.tokens()[start..start + len].iter().map(|k| k.text.as_str()).collect();
                let item = EvaluationItem::new(quote.join(" "), 1.0);
                let r = validate_item(&t, &item, &TranscriptConfig { min_contiguous_tokens: 1, ..Default::default() });
                let m = r.matched.expect("a quote cut from the transcript is found");
                if let (Some(s), Some(e)) = (m.start_time, m.end_time) {
                    assert!(e >= s, "{m:?}");
                }
                if let Some(l) = m.locality {
                    assert!(l.reference_end >= l.reference_start, "{l:?}");
                }
            }
        }
    }
    assert!(refused > 20 && accepted > 20, "refused {refused}, accepted {accepted}");
    later_call_works();
}
