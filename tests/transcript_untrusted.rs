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

// ---------------------------------------------------------------------------
// The time limit.

use evidence_validator::host::{Clock, Deadline, SystemClock};
use evidence_validator::transcript::{
    parse_transcript_within, preview_budget_within, validate_evaluation_within, validate_item_within, Action,
    CheckReason, EvaluationGenerator, StructuredEvaluation, DEFAULT_MAX_PROCESSING_TIME_SECONDS,
    MAX_PROCESSING_TIME_SECONDS,
};
use std::time::{Duration, Instant};

/// A clock that moves 1 ms each time it is read.
struct Ticking(std::cell::Cell<f64>);

impl Ticking {
    fn new() -> Ticking {
        Ticking(std::cell::Cell::new(0.0))
    }
}

impl Clock for Ticking {
    fn now_ms(&self) -> f64 {
        let t = self.0.get();
        self.0.set(t + 1.0);
        t
    }
}

/// An SRT of `cues` cues of ten words each.
fn long_srt(cues: usize) -> String {
    let mut s = String::new();
    for i in 0..cues {
        let (a, b) = (i * 2, i * 2 + 1);
        s.push_str(&format!(
            "{}\n{:02}:{:02}:{:02},000 --> {:02}:{:02}:{:02},500\nword{} and the river behind our old house again {}\n\n",
            i + 1,
            a / 3600,
            a / 60 % 60,
            a % 60,
            b / 3600,
            b / 60 % 60,
            b % 60,
            i,
            i % 7
        ));
    }
    s
}

#[test]
fn the_time_limit_is_a_configuration_setting_with_a_bound() {
    let c = TranscriptConfig::default();
    assert_eq!(c.max_processing_time_seconds, DEFAULT_MAX_PROCESSING_TIME_SECONDS);
    assert_eq!(DEFAULT_MAX_PROCESSING_TIME_SECONDS, 120.0);
    let c = TranscriptConfig::from_json(&json!({"max_processing_time_seconds": 0.5})).unwrap();
    assert_eq!(c.max_processing_time_seconds, 0.5);
    let c =
        TranscriptConfig::from_json(&json!({ "max_processing_time_seconds": MAX_PROCESSING_TIME_SECONDS })).unwrap();
    assert_eq!(c.max_processing_time_seconds, 86_400.0);
    for bad in [json!(0), json!(-1), json!(86_400.5), json!("10"), json!(null), json!(1e308)] {
        let e = TranscriptConfig::from_json(&json!({ "max_processing_time_seconds": bad })).unwrap_err();
        assert_eq!(e.code(), "CONFIGURATION_ERROR", "{bad}");
        assert_eq!(e.details()["json_path"], "$.max_processing_time_seconds", "{bad}: {e}");
    }
    later_call_works();
}

#[test]
fn an_import_past_its_deadline_says_where_it_stopped() {
    let srt = long_srt(3000);
    let clock = Ticking::new();
    let e = parse_transcript_within(&srt, InputFormat::Srt, &Deadline::after(&clock, 5.0)).unwrap_err();
    assert_eq!(e.code(), "PROCESSING_ERROR", "{e}");
    assert_eq!(e.details()["constraint"], "max_processing_time_seconds");
    assert!(e.message().contains("importing the transcript was not finished"), "{e}");
    assert!(e.details()["stopped_at"].as_str().is_some(), "{e}");
    // the same for VTT and JSON
    let vtt = format!("WEBVTT\n\n{}", srt.replace(",000 -->", ".000 -->").replace(",500\n", ".500\n"));
    let e = parse_transcript_within(&vtt, InputFormat::Vtt, &Deadline::after(&Ticking::new(), 5.0)).unwrap_err();
    assert_eq!(e.code(), "PROCESSING_ERROR", "{e}");
    let t = parse_transcript(&srt, InputFormat::Srt).unwrap();
    let json = serde_json::to_string(&t.to_json()).unwrap();
    let e = parse_transcript_within(&json, InputFormat::Json, &Deadline::after(&Ticking::new(), 5.0)).unwrap_err();
    assert_eq!(e.code(), "PROCESSING_ERROR", "{e}");
    assert!(e.details()["stopped_at"].as_str().is_some_and(|s| s.contains('[') || s.contains("word")), "{e}");
    // with time to spare, the same input reads
    let t = parse_transcript_within(&srt, InputFormat::Srt, &Deadline::after(&Ticking::new(), 1e9)).unwrap();
    assert_eq!(t.segments().len(), 3000);
    later_call_works();
}

fn item(quote: &str, ts: f64) -> EvaluationItem {
    EvaluationItem::new(quote, ts)
}

#[test]
fn a_validation_past_its_deadline_accounts_for_every_item() {
    let t = parse_transcript(&long_srt(3000), InputFormat::Srt).unwrap();
    let config = TranscriptConfig::default();
    // One item: a typed error naming the step.
    let e = validate_item_within(
        &t,
        &item("and the river behind our old house", 2.0),
        &config,
        &Deadline::after(&Ticking::new(), 3.0),
    )
    .unwrap_err();
    assert_eq!(e.code(), "PROCESSING_ERROR");
    assert!(e.message().contains("validating the item") && e.message().contains("was not finished"), "{e}");

    // An evaluation: every item in the result, those not reached named.
    let mut evaluation = StructuredEvaluation::default();
    for i in 0..30 {
        evaluation.commendations.push(item("and the river behind our old house", (i * 2) as f64));
        evaluation.recommendations.push(item("the river behind our old house again", (i * 2) as f64));
    }
    let clock = Ticking::new();
    let v = validate_evaluation_within(&t, &evaluation, &config, &Deadline::after(&clock, 400.0));
    assert!(!v.ok);
    assert_eq!((v.commendations.len(), v.recommendations.len()), (30, 30));
    let err = &v.errors[0];
    assert_eq!(err.code, "PROCESSING_ERROR");
    let mut checked = 0;
    for (kind, results) in [("commendations", &v.commendations), ("recommendations", &v.recommendations)] {
        for (i, r) in results.iter().enumerate() {
            let label = format!("{kind}[{i}]");
            if r.timed_out() {
                assert!(err.affected_items.contains(&label), "{label}");
                assert!(!r.passed && r.contiguous_match.reason == CheckReason::TimeLimitExceeded);
            } else {
                assert!(!err.affected_items.contains(&label), "{label}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0 && checked < 60, "checked {checked}");
    assert_eq!(checked + err.affected_items.len(), 60);
    assert!(err.message.contains(&format!("{} of 60 items", err.affected_items.len())), "{}", err.message);

    // The offline budget preview: every item listed, a PROCESSING_ERROR warning.
    let p = preview_budget_within(&t, &evaluation, &config, &Deadline::after(&Ticking::new(), 400.0));
    assert_eq!(p.items.len(), 60);
    assert!(p.warnings.iter().any(|w| w.code == "PROCESSING_ERROR"), "{:?}", p.warnings);
    // Without a deadline, everything passes.
    let v = validate_evaluation_within(&t, &evaluation, &config, &Deadline::never());
    assert!(v.ok && v.errors.is_empty() && v.passed_commendations == 30 && v.passed_recommendations == 30);
    later_call_works();
}

static TICKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A clock for [`EvaluationGenerator::with_clock`]: 1 ms a reading.
fn ticking_now() -> f64 {
    TICKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as f64
}

#[test]
fn the_retry_budget_validates_within_the_time_limit() {
    let t = parse_transcript(&long_srt(3000), InputFormat::Srt).unwrap();
    let config = TranscriptConfig { max_processing_time_seconds: 0.3, ..Default::default() };
    let mut g = EvaluationGenerator::new(t.clone(), config.clone()).with_clock(ticking_now);
    let Action::Generate(_) = g.poll() else { panic!("a generation first") };
    let mut evaluation = StructuredEvaluation::default();
    for i in 0..40 {
        evaluation.commendations.push(item("and the river behind our old house", (i * 2) as f64));
    }
    evaluation.recommendations.push(item("the river behind our old house again", 2.0));
    g.handle_generated(Ok(evaluation.clone())).unwrap();
    let Action::RetryItem(r) = g.poll() else { panic!("items the limit stopped are re-prompted") };
    assert!(r.failures.iter().all(|f| f.reason == CheckReason::TimeLimitExceeded), "{:?}", r.failures);
    // Without a clock there is no limit: all pass.
    let mut g = EvaluationGenerator::new(t, config);
    let _ = g.poll();
    g.handle_generated(Ok(evaluation)).unwrap();
    let Action::Finished(o) = g.poll() else { panic!("every item passes") };
    assert!(o.complete && o.evaluation.commendations.len() == 40);
    later_call_works();
}

#[test]
fn the_worst_inputs_stop_within_two_seconds_of_the_limit() {
    // Real clock. An import and a search that take far longer than the limit
    // without it stop within 2 s of it.
    let limit = 0.5;
    let config = TranscriptConfig { max_processing_time_seconds: limit, ..Default::default() };
    let srt = long_srt(200_000);
    let started = Instant::now();
    let e = parse_transcript_within(&srt, InputFormat::Srt, &config.deadline(&SystemClock)).unwrap_err();
    let took = started.elapsed();
    assert_eq!(e.code(), "PROCESSING_ERROR", "{e}");
    assert!(took < Duration::from_secs_f64(limit + 2.0), "import took {took:?}");

    // 400 000 tokens, one word repeated; a quote of 100 000 of them and one
    // more: every place is an occurrence candidate.
    let words: Vec<Value> =
        (0..400_000).map(|i| json!({"text": "la", "start": i as f64 * 0.1, "end": i as f64 * 0.1 + 0.05})).collect();
    let t = from_json(&json!({ "words": words })).unwrap();
    let quote = format!("{} lo", "la ".repeat(100_000));
    let started = Instant::now();
    let r = validate_item_within(&t, &item(&quote, 1.0), &config, &config.deadline(&SystemClock));
    let took = started.elapsed();
    assert!(took < Duration::from_secs_f64(limit + 2.0), "validation took {took:?}");
    match r {
        Ok(v) => assert!(!v.passed && v.occurrence_count == 0),
        Err(e) => assert_eq!(e.code(), "PROCESSING_ERROR"),
    }
    later_call_works();
}

// ---------------------------------------------------------------------------
// Linear work: inputs that were quadratic.

#[test]
fn a_long_quote_over_a_repetitive_transcript_is_linear() {
    // Naive matching compares up to 60 000 tokens at each of 120 000 places.
    let words: Vec<Value> =
        (0..120_000).map(|i| json!({"text": "la", "start": i as f64 * 0.1, "end": i as f64 * 0.1 + 0.05})).collect();
    let t = from_json(&json!({ "words": words })).unwrap();
    let started = Instant::now();
    let r = validate_item(&t, &item(&format!("{}lo", "la ".repeat(60_000)), 1.0), &TranscriptConfig::default());
    assert_eq!(r.occurrence_count, 0);
    let r = validate_item(&t, &item(&"la ".repeat(60_000), 1.0), &TranscriptConfig::default());
    assert_eq!(r.occurrence_count, 60_001);
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    later_call_works();
}

#[test]
fn untimed_words_and_many_occurrences_are_linear() {
    // One timed word, then 60 000 untimed ones: each occurrence's locality
    // used to scan back over every word for a timed neighbour.
    let mut words = vec![json!({"text": "start", "start": 0.0, "end": 0.5})];
    words.extend((0..60_000).map(|_| json!({"text": "la"})));
    words.push(json!({"text": "end", "start": 100.0, "end": 100.5}));
    let t = from_json(&json!({ "words": words })).unwrap();
    let started = Instant::now();
    let r = validate_item(&t, &item("la la la la la la", 10.0), &TranscriptConfig::default());
    assert_eq!(r.occurrence_count, 59_995);
    let l = r.matched.unwrap().locality.unwrap();
    assert_eq!((l.reference_start, l.reference_end), (0.0, 100.0));
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    later_call_works();
}

#[test]
fn subtitle_markup_without_an_end_is_linear() {
    // 300 000 `<` and one `>` at the end: each `<` used to search to the end.
    let cue = format!(
        "1\n00:00:00,000 --> 00:00:05,000\nstart {}> and {{\\{} end\n",
        "<".repeat(300_000),
        "{\\".repeat(100_000)
    );
    let started = Instant::now();
    let t = parse_transcript(&cue, InputFormat::Srt).unwrap();
    assert!(t.text().starts_with("start <<<"), "{}", &t.text()[..20]);
    assert!(t.text().ends_with(" end"));
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    later_call_words_and_markup();
}

fn later_call_words_and_markup() {
    let t =
        parse_transcript("1\n00:00:00,000 --> 00:00:05,000\n<i>Hello</i> {\\an8}there &amp; you\n", InputFormat::Srt)
            .unwrap();
    assert_eq!(t.text(), "Hello there & you");
    later_call_works();
}

#[test]
fn the_budget_over_many_failing_items_is_linear() {
    // Items that all fail: each step used to count every slot (quadratic in
    // the items). Four times the items must take well under sixteen times as long.
    let t = parse_transcript(&read("talk.srt"), InputFormat::Srt).unwrap();
    let time = |n: usize| {
        let mut evaluation = StructuredEvaluation::default();
        for i in 0..n {
            evaluation.commendations.push(item(&format!("nothing like this was ever said {i}"), 1.0));
            evaluation.recommendations.push(item(&format!("nor was this said at any time {i}"), 1.0));
        }
        let started = Instant::now();
        let p = preview_budget_within(&t, &evaluation, &TranscriptConfig::default(), &Deadline::never());
        assert_eq!(p.items.len(), 2 * n);
        assert!(p.would_regenerate);
        started.elapsed().as_secs_f64()
    };
    let small = time(4_000);
    let large = time(16_000);
    assert!(large < 10.0 * small.max(0.05), "4 000 items: {small:.2} s, 16 000: {large:.2} s");
    later_call_works();
}

#[test]
fn redacting_many_names_is_linear_in_the_text() {
    use evidence_validator::transcript::redact_names;
    // 20 000 names over 100 000 words: every word used to be compared with every name.
    let mut names: Vec<String> = (0..20_000).map(|i| format!("Person{i} Surname{i}")).collect();
    names.push("Jane Doe".into());
    names.push("Jane".into());
    let text = "Thanks, JANE  doe! Jane's talk; Janet stays. ".repeat(12_500);
    let started = Instant::now();
    let (out, n) = redact_names(&text, &names, "someone");
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert_eq!(n, 25_000);
    assert!(out.starts_with("Thanks, someone! someone's talk; Janet stays. Thanks, someone!"), "{}", &out[..80]);
    let (out, n) = redact_names("Person17 Surname17 met person170   surname170.", &names, "X");
    assert_eq!((out.as_str(), n), ("X met X.", 2));
    later_call_works();
}
