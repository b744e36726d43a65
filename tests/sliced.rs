//! The stepped build (`DocumentBuilder`) and the sliced validation
//! (`SlicedValidation`) against the one call: the same report, byte for
//! byte once serialized (a fixed clock: the same timestamp), on markdown,
//! HTML and plain text with emoji, CJK, combining marks and CRLF, for step
//! budgets from one byte to everything; the time limit's answers.

use evidence_validator::document::{Document, DocumentBuilder, Format};
use evidence_validator::host::{Clock, FixedClock};
use evidence_validator::text::Profile;
use evidence_validator::validate::{self, ClaimSet, Config, SliceOptions, SlicedValidation};
use serde_json::{json, Value};
use std::rc::Rc;

const T0: f64 = 1_764_000_000_000.0;

fn markdown() -> String {
    let mut s = String::from("# Émojis and 中文\r\n\r\nThe café 😀 serves *crème brûlée* at 9 o'clock.\r\n");
    s.push_str("Combining: e\u{301}te\u{301} and n\u{303}o, a family 👨‍👩‍👧 here.\r\n\r\n");
    s.push_str("## 第二节 Second\n\n中文的句子在这里，没有空格。\n\n- item one with `code` and [a link](http://x)\n- item two &amp; more\n\n");
    s.push_str("<div hidden>secret words nobody sees in the page</div>\n\n");
    s.push_str("> quoted text with **bold** inside\n\n```\nfenced code stays verbatim\n```\n\n| a | b |\n|---|---|\n| cell one | cell two |\n\n");
    s.push_str("Setext heading\n===\n\nThe revenue grew by 15 percent in 2023, not 50.\n");
    let book = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/rust-book.md")).unwrap();
    let cut = book.char_indices().nth(40_000).map_or(book.len(), |(i, _)| i);
    s.push_str(&book[..cut]);
    s
}

fn html() -> String {
    "<html><body><h1>Title 😀</h1><p>The caf\u{e9} serves cr\u{e8}me &amp; more.</p>\r\n<p style=\"display:none\">hidden evidence words here</p>\
     <h2>中文 section</h2><p>中文的句子在这里，没有空格。 e\u{301}te\u{301} 👨‍👩‍👧</p><p>The revenue grew by 15 percent in 2023.</p></body></html>"
        .to_string()
}

fn plain() -> String {
    let mut s = String::new();
    for i in 0..200 {
        s.push_str(&format!("Line {i}: the café 😀 has e\u{301}te\u{301} and 中文{i}。\r\n"));
    }
    s.push_str("The revenue grew by 15 percent in 2023.\n");
    s
}

/// Claims on `source`: verbatim passages, changed ones, absent ones, a
/// hidden one, an id used twice.
fn claims_for(source: &str, n: usize) -> Value {
    let text: Vec<char> = source.chars().collect();
    let mut claims = Vec::new();
    for i in 0..n {
        // the last claim's id is the one two before it: a DUPLICATE_CLAIM_ID
        let id = if n > 3 && i == n - 1 { format!("EV{:03}", n - 3) } else { format!("EV{i:03}") };
        let quote = match i % 5 {
            0 | 1 => {
                let start = (i * 7919) % text.len().saturating_sub(60).max(1);
                text[start..(start + 50).min(text.len())].iter().collect::<String>()
            }
            2 => "The revenue grew by 50 percent in 2023".to_string(),
            3 => "secret words nobody sees".to_string(),
            _ => format!("a sentence that is not there number {i}"),
        };
        let kind = ["direct_quote", "direct_quote", "paraphrase", "direct_quote", "concept_reference"][i % 5];
        let mut c = json!({"id": id, "task_id": "P1.T001", "quote": quote, "evidence_type": kind});
        if i % 7 == 3 {
            c["context_hint"] = json!("revenue grew");
        }
        claims.push(c);
    }
    json!({"claims": claims})
}

fn serialized(report: &validate::Report) -> String {
    serde_json::to_string(report).unwrap()
}

fn built(source: &str, format: Option<Format>, budget: usize) -> Document {
    let mut b = DocumentBuilder::new(source, format).unwrap();
    let mut steps = 0;
    while !b.step(budget) {
        steps += 1;
        assert!(steps < 10 * source.len() + 100, "the build never ends");
    }
    b.finish()
}

#[test]
fn the_stepped_build_is_the_document() {
    let clock = FixedClock(T0);
    for (source, format) in [(markdown(), Some(Format::Markdown)), (html(), Some(Format::Html)), (plain(), None)] {
        let one = Document::new(source.clone(), format).unwrap();
        let claims = ClaimSet::from_json(&claims_for(&source, 23)).unwrap();
        for config in [json!(null), json!({"exact_matching": {"case_sensitive": true, "normalize_whitespace": false}})]
        {
            let config = Config::from_json(&config).unwrap();
            let expected = serialized(&validate::validate_document(&one, &claims.claims, &config, &clock).unwrap());
            for budget in [1, 3, 64, 1000, usize::MAX] {
                let doc = built(&source, format, budget);
                assert_eq!(doc.format(), one.format());
                assert_eq!(doc.sections(), one.sections());
                assert_eq!(doc.metadata(), one.metadata());
                assert_eq!(doc.hidden_text().units, one.hidden_text().units);
                for (c, w) in [(true, true), (true, false), (false, true), (false, false)] {
                    let p = Profile { fold_case: c, collapse_whitespace: w };
                    assert_eq!(doc.normalized_text(p), one.normalized_text(p), "{format:?} budget {budget}");
                }
                let got = serialized(&validate::validate_document(&doc, &claims.claims, &config, &clock).unwrap());
                assert_eq!(got, expected, "{format:?} budget {budget}");
            }
        }
    }
}

/// The default index the builder makes for plain text (normalized in
/// steps) is the one built on first use: the same text and the same map
/// back, byte by byte.
#[test]
fn plain_text_normalized_in_steps_maps_back_the_same() {
    let source = plain();
    let lazy = Document::new(source.clone(), Some(Format::PlainText)).unwrap();
    let stepped = built(&source, Some(Format::PlainText), 5);
    let p = Profile::default();
    let (a, b) = (lazy.normalized_text(p), stepped.normalized_text(p));
    assert_eq!(a, b);
    for i in 0..a.len() {
        let f1 = validate::find_quote(&lazy, a.get(i..(i + 12).min(a.len())).unwrap_or("x"), p, 0);
        let f2 = validate::find_quote(&stepped, b.get(i..(i + 12).min(b.len())).unwrap_or("x"), p, 0);
        assert_eq!(format!("{f1:?}"), format!("{f2:?}"), "at {i}");
        if i > 400 {
            break;
        }
    }
}

fn sliced(source: &str, claims: &Value, config: &Value, options: SliceOptions, clock: &dyn Clock) -> validate::Report {
    let mut v = SlicedValidation::new(source, claims, config, options, clock).unwrap();
    let mut steps = 0;
    while !v.step() {
        steps += 1;
        assert!(steps < 100_000);
    }
    v.finish().unwrap()
}

#[test]
fn slices_join_into_the_one_calls_report() {
    let clock = FixedClock(T0);
    for (source, format) in [(markdown(), "markdown"), (html(), "html"), (plain(), "plain_text")] {
        for n in [1, 3, 4, 9, 50, 51, 97] {
            let mut claims = claims_for(&source, n);
            claims["source_metadata"] = json!({"format": format});
            if n == 9 {
                // an unknown field: the warning once, at the end
                claims["claims"][2]["expected_sectoin"] = json!("x");
            }
            for config in [json!(null), json!({"performance_limits": {"max_claims": 100}})] {
                let expected = serialized(&validate::validate_evidence(&source, &claims, &config, &clock).unwrap());
                for (per_slice, bytes) in [(4, 1024), (5, 4096), (7, 1 << 20), (50, 65_536)] {
                    let options = SliceOptions { claims_per_slice: per_slice, bytes_per_step: bytes };
                    let got = serialized(&sliced(&source, &claims, &config, options, &clock));
                    assert_eq!(got, expected, "{format}, {n} claims, slices of {per_slice}");
                }
            }
        }
    }
}

#[test]
fn a_slice_on_a_built_document_is_the_set_call() {
    let clock = FixedClock(T0);
    let source = markdown();
    let doc = Rc::new(Document::new(source.clone(), None).unwrap());
    let claims = ClaimSet::from_json(&claims_for(&source, 40)).unwrap();
    let config = Config::default();
    let expected = serialized(&validate::validate_set_with(&doc, &claims, &config, &clock, None).unwrap());
    let options = SliceOptions { claims_per_slice: 6, bytes_per_step: 1024 };
    let v = SlicedValidation::on_document(Rc::clone(&doc), claims, config, options, &clock).unwrap();
    assert_eq!(serialized(&v.finish().unwrap()), expected);
}

#[test]
fn the_checks_are_the_one_calls_in_its_order() {
    let clock = FixedClock(T0);
    let source = plain();
    let bad_claims =
        json!({"claims": [{"id": "EV1", "task_id": "P1.T1", "quote": "x", "evidence_type": "direct_quote"}]});
    let bad_config = json!({"fuzzy_matching": {"max_edit_distance": -1}});
    let good = claims_for(&source, 5);
    let mut unknown = good.clone();
    unknown["claims"][1]["expected_sectoin"] = json!("x");
    for (claims, config, src) in [
        (&bad_claims, &bad_config, source.as_str()),
        (&bad_claims, &json!(null), source.as_str()),
        (&good, &json!({"performance_limits": {"max_claims": 2}}), source.as_str()),
        (&good, &json!(null), "text with a NUL \u{0} byte"),
        (&good, &json!({"performance_limits": {"max_document_size_mb": 0.001}}), source.as_str()),
        (&unknown, &json!({"strict": true}), source.as_str()),
    ] {
        let one = validate::validate_evidence(src, claims, config, &clock).err().unwrap();
        let steps = SlicedValidation::new(src, claims, config, SliceOptions::default(), &clock).err().unwrap();
        assert_eq!((steps.code(), steps.to_string()), (one.code(), one.to_string()));
        assert_eq!(steps.details(), one.details());
    }
}

#[test]
fn slice_options_are_read_strictly() {
    assert_eq!(SliceOptions::from_json(&json!(null)).unwrap(), SliceOptions::default());
    let o = SliceOptions::from_json(&json!({"claimsPerSlice": 8, "bytesPerStep": 2048})).unwrap();
    assert_eq!(o, SliceOptions { claims_per_slice: 8, bytes_per_step: 2048 });
    for bad in [
        json!({"claimsPerSlice": 3}),
        json!({"bytesPerStep": 10}),
        json!({"slices": 2}),
        json!({"claimsPerSlice": 4.5}),
    ] {
        let e = SliceOptions::from_json(&bad).err().unwrap();
        assert_eq!(e.code(), "CONFIGURATION_ERROR", "{bad}");
    }
}

/// A clock the test moves.
struct Manual(std::cell::Cell<f64>);

impl Clock for Manual {
    fn now_ms(&self) -> f64 {
        self.0.get()
    }
}

#[test]
fn time_running_out_is_reported_as_the_one_call_reports_it() {
    let source = markdown();
    let claims = claims_for(&source, 30);
    let config = json!({"performance_limits": {"max_processing_time_seconds": 5}});
    // past the limit before the build: the one call's unparsed report
    let clock = Manual(std::cell::Cell::new(T0));
    let mut v = SlicedValidation::new(source.as_str(), &claims, &config, SliceOptions::default(), &clock).unwrap();
    clock.0.set(T0 + 6000.0);
    while !v.step() {}
    let late = v.finish().unwrap();
    let ids: Vec<Value> = (0..29).map(|i| json!(format!("EV{i:03}"))).chain([json!("EV027")]).collect();
    assert!(!late.ok);
    assert_eq!(late.errors.len(), 1);
    assert_eq!(late.errors[0]["affected_claims"], Value::Array(ids.clone()));
    assert_eq!(
        late.errors[0]["message"],
        "processing time exceeded max_processing_time_seconds while parsing the document"
    );
    assert!(late.validated_claims.is_empty());
    assert_eq!(late.validation_summary.total_claims, 30);
    // past it after two slices of 6: the claims from the 13th on named
    let clock = Manual(std::cell::Cell::new(T0));
    let options = SliceOptions { claims_per_slice: 6, bytes_per_step: 1 << 20 };
    let mut v = SlicedValidation::new(source.as_str(), &claims, &config, options, &clock).unwrap();
    while v.claims_done() < 12 {
        assert!(!v.step());
    }
    assert_eq!(v.claims_done(), 12, "two slices of 6");
    clock.0.set(T0 + 6000.0);
    let report = v.finish().unwrap();
    assert!(!report.ok);
    assert_eq!(report.validated_claims.len(), 12);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0]["code"], "PROCESSING_ERROR");
    assert_eq!(report.errors[0]["affected_claims"], Value::Array(ids[12..].to_vec()));
    assert_eq!(
        report.errors[0]["message"],
        "processing time exceeded max_processing_time_seconds (5 s) after 12 of 30 claims: 18 claim(s) not finished"
    );
    assert_eq!(report.validation_summary.total_claims, 30);
    assert!(report.warnings.iter().all(|w| w.code != "HIDDEN_TEXT"), "no hidden-text notes once time ran out");
}

/// The report's text written a few claims at a time is serde_json's text
/// of the whole report, for every piece size, with and without failures.
#[test]
fn the_report_text_in_pieces_is_the_whole_text() {
    let clock = FixedClock(T0);
    let source = markdown();
    for n in [1, 5, 23] {
        let report = validate::validate_evidence(&source, &claims_for(&source, n), &json!(null), &clock).unwrap();
        let whole = serde_json::to_string(&report).unwrap();
        assert!(!report.failed_claims.is_empty());
        for per in [0, 1, 2, 7, 1000] {
            let mut text = validate::ReportJson::new(report.clone());
            let mut out = Vec::new();
            let mut pieces = 0;
            while !text.write(per, &mut out).unwrap() {
                pieces += 1;
                assert!(pieces < 1000);
            }
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{n} claims, {per} a piece");
            assert!(per >= 1000 || pieces >= n / per.max(1), "in pieces");
        }
    }
}

/// A clock that reads `T0` for its first `past_after` readings and 6 s
/// later from then on; it counts its readings.
struct Reads {
    reads: std::cell::Cell<usize>,
    past_after: usize,
}

impl Clock for Reads {
    fn now_ms(&self) -> f64 {
        let n = self.reads.get() + 1;
        self.reads.set(n);
        if n > self.past_after {
            T0 + 6000.0
        } else {
            T0
        }
    }
}

/// Time running out during the search of all the claims (before the first
/// slice, in several steps): the one call's report for it, every claim
/// named as not finished; and at any other clock reading, every claim
/// accounted for (validated, or named as not finished, in input order).
#[test]
fn time_running_out_during_the_search_names_every_claim() {
    let source = markdown();
    let claims = claims_for(&source, 30);
    let ids: Vec<Value> = claims["claims"].as_array().unwrap().iter().map(|c| c["id"].clone()).collect();
    let config = json!({"performance_limits": {"max_processing_time_seconds": 5}});
    // the search in several steps: claims prepared 24 a step, queries 6 a step
    let options = SliceOptions { claims_per_slice: 6, bytes_per_step: 1 << 20 };
    let clock = Reads { reads: std::cell::Cell::new(0), past_after: usize::MAX };
    let mut v = SlicedValidation::new(source.as_str(), &claims, &config, options, &clock).unwrap();
    while !v.step() {}
    let readings = clock.reads.get();
    let expected = serialized(&validate::validate_evidence(&source, &claims, &config, &FixedClock(T0)).unwrap());
    let searching = "processing time exceeded max_processing_time_seconds (5 s) while searching the document: 30 claim(s) not finished";
    let mut during_search = 0;
    // the first reading is the start (the timestamp)
    for past_after in 1..readings + 20 {
        let clock = Reads { reads: std::cell::Cell::new(0), past_after };
        let mut v = SlicedValidation::new(source.as_str(), &claims, &config, options, &clock).unwrap();
        let mut steps = 0;
        while !v.step() {
            steps += 1;
            assert!(steps < 10_000);
        }
        let report = v.finish().unwrap();
        assert_eq!(report.validation_summary.total_claims, 30);
        let mut named: Vec<Value> = report.validated_claims.iter().map(|r| json!(r.claim_id)).collect();
        if report.errors.is_empty() {
            assert_eq!(serialized(&report), expected, "past after {past_after} readings");
        } else {
            assert!(!report.ok);
            assert_eq!(report.errors.len(), 1, "past after {past_after} readings");
            named.extend(report.errors[0]["affected_claims"].as_array().unwrap().iter().cloned());
            if report.errors[0]["message"].as_str().unwrap().contains("while searching") {
                during_search += 1;
                assert!(report.validated_claims.is_empty());
                assert_eq!(report.errors[0]["message"], searching);
            }
        }
        assert_eq!(named, ids, "past after {past_after} readings: every claim once, in order");
    }
    // the clock is read at every step of the search, and inside them
    assert!(during_search >= 5, "{during_search} readings during the search");
}

/// The search and the content hash in many small steps (claims prepared
/// and hashed 16 a step, fuzzy-searched 4 a step, the text searched 4 KB a step) on
/// a long text of emoji, CJK, combining marks and CRLF with many claims:
/// the one call's report.
#[test]
fn many_small_search_and_hash_steps_give_the_one_calls_report() {
    let clock = FixedClock(T0);
    let mut source = String::new();
    for i in 0..30 {
        source.push_str(&plain());
        source.push_str(&format!("Part {i}: «中文» e\u{301}te\u{301} 👨‍👩‍👧 \u{201c}quoted {i}\u{201d}\r\n"));
    }
    let claims = claims_for(&source, 97);
    let expected = serialized(&validate::validate_evidence(&source, &claims, &json!(null), &clock).unwrap());
    let options = SliceOptions { claims_per_slice: 4, bytes_per_step: 1024 };
    let mut v = SlicedValidation::new(source.as_str(), &claims, &json!(null), options, &clock).unwrap();
    let mut steps = 0;
    while !v.step() {
        steps += 1;
        assert!(steps < 100_000);
    }
    assert_eq!(serialized(&v.finish().unwrap()), expected);
    // the build (about a step per KB), 25 slices, and more than 40 steps of search and hash
    assert!(steps > source.len() / 1024 + 25 + 40, "{steps} steps");
}
