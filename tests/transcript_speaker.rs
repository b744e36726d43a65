//! Who said it: an evaluation item that names `evidence_speaker` passes
//! only when every matched word carries that speaker's label (WebVTT
//! voices, word-level diarization labels); a quote the transcript gives to
//! another speaker fails `speaker` with SPEAKER_MISMATCH naming who said
//! it; a transcript without labels leaves it not evaluated
//! (NO_SPEAKER_LABELS), and the item does not pass. Words said by both
//! speakers: the named speaker's occurrence is chosen. An item without
//! `evidence_speaker` has no speaker check (the spec's three checks only).
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::transcript::{
    from_json, parse_transcript, validate_item, CheckName, CheckReason, CheckStatus, EvaluationItem, InputFormat,
    TranscriptConfig,
};
use serde_json::json;

const VTT: &str = "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:06.000\r\n<v Alice>Today I want to talk about clean water for every village 😀\r\n\r\n00:00:06.500 --> 00:00:12.000\r\n<v Bob>I think we should raise the budget for the pumps next year\r\n\r\n00:00:12.500 --> 00:00:18.000\r\n<v Alice>I think we should raise the budget for the pumps next year too\r\n\r\n00:00:18.500 --> 00:00:22.000\r\nnobody is named on this cue about the 前言 schedule and the plan\r\n";

fn check(quote: &str, ts: f64, speaker: Option<&str>) -> evidence_validator::transcript::ItemValidation {
    let t = parse_transcript(VTT, InputFormat::Vtt).expect("vtt");
    let mut item = EvaluationItem::new(quote, ts);
    if let Some(s) = speaker {
        item = item.with_speaker(s);
    }
    validate_item(&t, &item, &TranscriptConfig::default())
}

#[test]
fn the_named_speaker_passes_and_another_fails_naming_who_said_it() {
    let ok = check("today I want to talk about clean water", 1.0, Some("Alice"));
    assert!(ok.passed, "{:?}", ok.failure_summary());
    let s = ok.speaker.as_ref().expect("speaker check");
    assert_eq!((s.status, s.reason), (CheckStatus::Passed, CheckReason::SpeakerMatched));
    assert_eq!(ok.matched.as_ref().map(|m| m.speakers.clone()), Some(vec!["Alice".to_string()]));
    // case and spaces of the label do not matter
    assert!(check("today I want to talk about clean water", 1.0, Some("  alice ")).passed);

    let wrong = check("today I want to talk about clean water", 1.0, Some("Bob"));
    assert!(!wrong.passed);
    assert_eq!(wrong.failed_checks, vec![CheckName::Speaker]);
    let s = wrong.check(CheckName::Speaker);
    assert_eq!((s.status, s.reason), (CheckStatus::Failed, CheckReason::SpeakerMismatch));
    assert!(s.message.contains("\"Alice\""), "{}", s.message);
}

#[test]
fn words_said_by_both_are_found_where_the_named_speaker_said_them() {
    // Bob said it first (6.5 s, within the window of 10 s too); Alice after
    for (speaker, start) in [("Bob", 6.5), ("Alice", 12.5)] {
        let r = check("we should raise the budget for the pumps", 10.0, Some(speaker));
        assert!(r.passed, "{speaker}: {:?}", r.failure_summary());
        assert_eq!(r.occurrence_count, 2);
        let m = r.matched.as_ref().expect("matched");
        assert_eq!(m.start_time, Some(start), "{speaker}");
        assert_eq!(m.speakers, vec![speaker.to_string()]);
    }
    // a speaker who said neither: the spec's choice, and the check fails
    let r = check("we should raise the budget for the pumps", 10.0, Some("Carol"));
    assert!(!r.passed);
    assert_eq!(r.check(CheckName::Speaker).reason, CheckReason::SpeakerMismatch);
}

#[test]
fn no_label_leaves_the_speaker_unproven_and_no_name_asks_nothing() {
    let r = check("nobody is named on this cue about the", 18.5, Some("Alice"));
    assert!(!r.passed);
    let s = r.check(CheckName::Speaker);
    assert_eq!((s.status, s.reason), (CheckStatus::NotEvaluated, CheckReason::NoSpeakerLabels));
    assert_eq!(r.failed_checks, vec![CheckName::Speaker]);

    let plain = check("today I want to talk about clean water", 1.0, None);
    assert!(plain.passed && plain.speaker.is_none());
    let json = serde_json::to_value(&plain).expect("json");
    assert!(json.get("speaker").is_none(), "{json}");
    assert_eq!(plain.check(CheckName::Speaker).reason, CheckReason::NotAsked);

    // not found: nothing shows who said it
    let missing = check("this sentence was never said by anyone here", 1.0, Some("Alice"));
    assert_eq!(missing.check(CheckName::Speaker).reason, CheckReason::NoMatch);
    assert!(missing.failed_checks.contains(&CheckName::Speaker));
}

#[test]
fn word_level_diarization_labels_are_read() {
    // a Deepgram-shaped response: numbered speakers per word
    let words: Vec<_> = "so the revenue grew by five percent last quarter and we hired two people"
        .split(' ')
        .enumerate()
        .map(|(i, w)| json!({"word": w, "start": i as f64 * 0.5, "end": i as f64 * 0.5 + 0.4, "confidence": 0.9, "speaker": if i < 9 { 0 } else { 1 }}))
        .collect();
    let body = json!({"results": {"channels": [{"alternatives": [{"transcript": "", "words": words}]}]}});
    let t = from_json(&body).expect("deepgram json");
    let item = |s: &str| EvaluationItem::new("the revenue grew by five percent last quarter", 0.5).with_speaker(s);
    let r = validate_item(&t, &item("speaker 0"), &TranscriptConfig::default());
    assert!(r.passed, "{:?}", r.failure_summary());
    let r = validate_item(&t, &item("speaker 1"), &TranscriptConfig::default());
    assert_eq!(r.check(CheckName::Speaker).reason, CheckReason::SpeakerMismatch);
    // spanning both speakers: not one speaker's words
    let across = EvaluationItem::new("last quarter and we hired two people", 3.0).with_speaker("speaker 0");
    let r = validate_item(&t, &across, &TranscriptConfig::default());
    assert!(!r.passed);
    assert!(r.check(CheckName::Speaker).message.contains("\"speaker 1\""));
}

#[test]
fn a_blank_or_mistyped_speaker_is_a_validation_error_naming_its_path() {
    use evidence_validator::transcript::StructuredEvaluation;
    for bad in [json!(""), json!("  "), json!(3)] {
        let e = StructuredEvaluation::from_json(
            &json!({"commendations": [{"evidence_quote": "a b c d e f", "evidence_timestamp": 1, "evidence_speaker": bad}], "recommendations": []}),
        );
        let e = e.expect_err("refused");
        assert!(e.to_string().contains("evidence_speaker"), "{e}");
    }
}
