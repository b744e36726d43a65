//! Spec 001 validation: every check and failure mode at word and segment
//! level. The cases live once in `tests/data/transcript/validate_cases.json`
//! and are replayed here, in wasm (tests/transcript_wasm.rs) and in JS
//! (tests/js/transcript.test.mjs).
#![cfg(not(target_arch = "wasm32"))]
mod common;

use evidence_validator::transcript::{
    from_json, parse_transcript, validate_evaluation, CheckReason, CheckStatus, EvaluationItem, InputFormat,
    LocalityBasis, StructuredEvaluation, TimingLevel, Transcript, TranscriptConfig,
};
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/transcript");
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/asr");

fn fixture(name: &str) -> Transcript {
    let text = std::fs::read_to_string(format!("{DATA}/{name}")).unwrap();
    parse_transcript(&text, InputFormat::from_file_name(name)).unwrap()
}

#[test]
fn replay_the_validation_cases() {
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/validate_cases.json")).unwrap()).unwrap();
    assert!(cases.len() >= 25);
    let failures: Vec<String> = cases
        .iter()
        .flat_map(|case| common::replay_transcript_case(case, &fixture(case["transcript"].as_str().unwrap())))
        .collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn messages_say_why() {
    let t = fixture("plain.json");
    let c = TranscriptConfig::default();
    let r = t.validate(&EvaluationItem::new("three simple ways to save", 28.77), &c);
    assert_eq!(r.contiguous_match.message, "the quote has 5 tokens; at least 6 consecutive matching tokens are required (it occurs once in the transcript)");
    let r = t.validate(&EvaluationItem::new("my grandmother took me to the river behind our house", 8.0), &c);
    assert_eq!(
        r.contiguous_match.message,
        "the quote's 10 tokens do not occur contiguously in the transcript; the longest run that occurs is 5 of 10 tokens \
         (\"to the river behind our\" at 121.10 s), then the quote has \"house\" where the transcript has \"old\""
    );
    let r = t.validate(&EvaluationItem::new("Small habits, repeated every day, become", 107.0), &c);
    assert_eq!(
        r.timestamp_locality.message,
        "the first matched word starts at 86.50 s, 20.50 s from the evidence timestamp 107.00 s (more than 20 s)"
    );
    let r = t.validate(&EvaluationItem::new("the river behind our old house", 65.0), &c);
    assert!(r.timestamp_locality.message.starts_with("none of the 2 occurrences is within 20 s of 65.00 s; the nearest: the first matched word starts at 10.20 s"), "{}", r.timestamp_locality.message);
    assert_eq!(r.failure_summary().len(), 1);
}

#[test]
fn timestamps_that_are_not_seconds_fail_locality() {
    let t = fixture("plain.json");
    for ts in [f64::NAN, f64::INFINITY, -1.0] {
        let r = t.validate(
            &EvaluationItem::new("When I was nine, my grandmother showed me", ts),
            &TranscriptConfig::default(),
        );
        assert!(!r.passed);
        assert_eq!(r.timestamp_locality.reason, CheckReason::InvalidTimestamp);
        assert!(r.contiguous_match.passed());
        assert!(serde_json::to_string(&r).is_ok());
    }
}

#[test]
fn untimed_word_without_segment_is_located_by_its_neighbours() {
    let t = from_json(&json!({"words": [
        {"word": "we", "start": 40.0, "end": 40.2}, {"word": "grew", "start": 40.2, "end": 40.5},
        {"word": "by"}, {"word": "35%"}, {"word": "in", "start": 41.9, "end": 42.0},
        {"word": "just", "start": 42.0, "end": 42.3}, {"word": "two", "start": 42.3, "end": 42.5},
        {"word": "years.", "start": 42.5, "end": 43.0}
    ]}))
    .unwrap();
    assert_eq!(t.timing(), TimingLevel::Word);
    let r = t.validate(&EvaluationItem::new("by 35% in just two years", 30.0), &TranscriptConfig::default());
    let l = r.matched.as_ref().unwrap().locality.as_ref().unwrap();
    assert_eq!(l.basis, LocalityBasis::NeighbouringWords);
    assert_eq!((l.reference_start, l.reference_end), (40.2, 41.9));
    assert!(r.passed, "{:?}", r.failure_summary());
    let r = t.validate(&EvaluationItem::new("by 35% in just two years", 70.0), &TranscriptConfig::default());
    assert_eq!(r.timestamp_locality.reason, CheckReason::OutsideWindow);
}

#[test]
fn segment_level_locality_uses_the_window_both_ways() {
    let t = fixture("talk.srt");
    let c = TranscriptConfig::default();
    // segment 7 is 47.5–54.0 s: the window [t−20, t+20] must meet it
    for (ts, ok) in [(27.5, true), (27.4, false), (74.0, true), (74.1, false), (50.0, true)] {
        let r = t.validate(&EvaluationItem::new("Third, collect rain water for the garden", ts), &c);
        assert_eq!(r.passed, ok, "t = {ts}: {:?}", r.failure_summary());
        assert_eq!(r.timing, TimingLevel::Segment);
    }
}

#[test]
fn validate_a_whole_evaluation() {
    let t = fixture("plain.json");
    let e = StructuredEvaluation::from_json(&json!({
        "commendations": [
            {"text": "Personal story", "evidence_quote": "my grandmother showed me the river behind our old house", "evidence_timestamp": 8},
            {"text": "Clear structure", "evidence_quote": "So here are three simple ways to save water at home.", "evidence_timestamp": 27.5}
        ],
        "recommendations": [
            {"text": "Drop the filler", "evidence_quote": "Um, I know it sounds small", "evidence_timestamp": 80},
            {"text": "Invented", "evidence_quote": "water is the new oil of the century", "evidence_timestamp": 10}
        ]
    }))
    .unwrap();
    let v = validate_evaluation(&t, &e, &TranscriptConfig::default());
    assert_eq!((v.passed_commendations, v.passed_recommendations), (2, 1));
    assert_eq!(v.recommendations[1].contiguous_match.reason, CheckReason::NotFound);
    assert_eq!(v.recommendations[1].longest_partial_match.as_ref().map(|p| p.text.as_str()), Some("is the"));
    assert!(v.commendations[1]
        .matched
        .as_ref()
        .is_some_and(|m| m.text == "So here are three simple ways to save water at home"));
}

#[test]
fn unicode_transcripts() {
    let t = parse_transcript(
        "WEBVTT\n\n00:00.000 --> 00:04.000\nÇa, c'est l'ÉTÉ : «déjà vu» à Zürich — 東京 ２０２４!\n",
        InputFormat::Vtt,
    )
    .unwrap();
    let r = t.validate(&EvaluationItem::new("ça cest lété déjà vu à zürich", 1.0), &TranscriptConfig::default());
    assert!(r.passed, "{:?}", r.failure_summary());
    let m = r.matched.unwrap();
    assert_eq!(m.text, "Ça, c'est l'ÉTÉ : «déjà vu» à Zürich");
    let utf16: Vec<u16> = t.text().encode_utf16().collect();
    assert_eq!(String::from_utf16(&utf16[m.span.utf16_start..m.span.utf16_end]).unwrap(), m.text);
}

#[test]
fn the_real_french_transcript() {
    let path = format!("{SHARED}/whisper-timestamped/smartphone.mp3.words.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {path} is not there (../shared is absent on a clean clone)");
        return;
    };
    let t = parse_transcript(&text, InputFormat::Json).unwrap();
    // "Ce qui fait la force du smartphone, c'est pas seulement l'accumulation des fonctions" (segment 1)
    let item = EvaluationItem::new("ce qui fait la force du smartphone, c'est pas seulement", 4.0);
    let r = t.validate(&item, &TranscriptConfig::default());
    assert!(r.passed, "{:?}", r.failure_summary());
    let m = r.matched.unwrap();
    assert_eq!(m.text, "Ce qui fait la force du smartphone, c'est pas seulement");
    assert_eq!(r.occurrence_count, 1);
    assert_eq!(m.locality.unwrap().basis, LocalityBasis::WordStart);
    // a quote that is not there, with a timestamp a minute off
    let r = t.validate(
        &EvaluationItem::new("le smartphone est une invention sans précédent historique", 60.0),
        &TranscriptConfig::default(),
    );
    assert_eq!(r.contiguous_match.status, CheckStatus::Failed);
}
