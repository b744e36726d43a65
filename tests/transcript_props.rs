//! Property tests: no input makes the transcript readers or the validator
//! panic, and spans always point into the transcript text.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::transcript::{
    from_json, normalize, parse_transcript, EvaluationItem, InputFormat, TranscriptConfig,
};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Text made of the pieces subtitle files are made of, so that the parsers
/// get deep into their states.
fn subtitle_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("WEBVTT".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\n\n".to_string()),
        Just("-->".to_string()),
        Just(" --> ".to_string()),
        Just("00:00:01,000".to_string()),
        Just("00:01.500".to_string()),
        Just("99:59:59.999".to_string()),
        Just("NOTE".to_string()),
        Just("STYLE".to_string()),
        Just("<v Ann>".to_string()),
        Just("</v>".to_string()),
        Just("<".to_string()),
        Just("&amp;".to_string()),
        Just("&#99999999;".to_string()),
        Just("{\\an8}".to_string()),
        Just("1".to_string()),
        "[a-zé東 ,.!?'-]{0,12}",
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5.0f64..200.0).prop_map(|x| json!(x)),
        "[a-z ,.']{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop::sample::select(vec![
            "segments",
            "words",
            "word_segments",
            "start",
            "end",
            "text",
            "word",
            "results",
            "channels",
            "alternatives",
            "transcript",
            "items",
            "type",
            "content",
            "start_time",
            "end_time",
            "Transcript",
            "Items",
            "Content",
            "BeginOffsetMillis",
            "EndOffsetMillis",
            "transcription",
            "offsets",
            "from",
            "to",
            "paragraphs",
            "sentences",
            "punctuated_word",
            "attaches_to",
            "is_eos",
            "speaker",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(keys.prop_map(str::to_string), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn subtitle_readers_never_panic_and_spans_hold(input in subtitle_like(), quote in "[a-z ]{0,30}", ts in -10.0f64..400.0) {
        for format in [InputFormat::Srt, InputFormat::Vtt, InputFormat::Auto] {
            if let Ok(t) = parse_transcript(&input, format) {
                for tok in t.tokens() {
                    let s = &t.text()[tok.span.byte_start..tok.span.byte_end];
                    prop_assert_eq!(normalize(s), tok.text.clone());
                }
                let r = t.validate(&EvaluationItem::new(quote.clone(), ts), &TranscriptConfig::default());
                if let Some(m) = r.matched {
                    prop_assert_eq!(&t.text()[m.span.byte_start..m.span.byte_end], m.text.as_str());
                }
                let _ = t.metrics();
            }
        }
    }

    #[test]
    fn json_reader_never_panics(value in json_value()) {
        if let Ok(t) = from_json(&value) {
            for w in t.words() {
                prop_assert_eq!(&t.text()[w.span.byte_start..w.span.byte_end], w.text.as_str());
            }
            let first: Vec<String> = t.tokens().iter().take(7).map(|k| k.text.clone()).collect();
            let r = t.validate(&EvaluationItem::new(first.join(" "), 1.0), &TranscriptConfig::default());
            if first.len() >= 6 {
                prop_assert!(r.contiguous_match.passed());
            }
            let _ = t.metrics();
        }
    }

    #[test]
    fn every_quote_cut_from_a_transcript_is_found(words in prop::collection::vec("[A-Za-zé]{1,6}[,.!?]?", 6..40), start in 0usize..30, len in 6usize..16) {
        let segs: Vec<Value> = words.chunks(5).enumerate().map(|(i, c)| json!({"start": i as f64 * 3.0, "end": i as f64 * 3.0 + 2.5, "text": c.join(" ")})).collect();
        let t = from_json(&json!({"segments": segs})).unwrap();
        let start = start.min(words.len() - 6);
        let len = len.min(words.len() - start).min(15);
        let quote = words[start..start + len].join(" ").to_uppercase();
        let r = t.validate(&EvaluationItem::new(quote, (start / 5) as f64 * 3.0), &TranscriptConfig::default());
        prop_assert!(r.passed, "{:?}", r.failure_summary());
    }
}
