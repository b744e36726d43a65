//! Issue 18: ellipsis quotes, disambiguation, W3C selectors, text
//! fragments and re-anchoring, through the public API. Expected offsets are
//! computed here from the test's own text (`str::find`, `chars().count()`,
//! `encode_utf16().count()`), never taken from the library.

#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::host::FixedClock;
use evidence_validator::validate::{self, AnchorStatus};
use evidence_validator::Document;
use serde_json::{json, Value};

fn validate(source: &str, claims: Value, config: Value) -> Value {
    let report = validate::validate_evidence(source, &json!({ "claims": claims }), &config, &FixedClock(0.0)).unwrap();
    serde_json::to_value(report).unwrap()
}

fn claim(quote: &str) -> Value {
    json!({"id": "EV001", "task_id": "P1.T001", "quote": quote, "evidence_type": "direct_quote"})
}

fn status(r: &Value) -> &str {
    r["validated_claims"][0]["validation_status"].as_str().unwrap()
}

fn cp(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

fn utf16(s: &str, byte: usize) -> usize {
    s[..byte].encode_utf16().count()
}

const POLICY: &str = "Remote work is not permitted on Fridays. Travel is reimbursed within 30 days.";

#[test]
fn an_ellipsis_that_drops_a_negation_is_not_validated() {
    let r = validate(POLICY, json!([claim("Remote work is ... permitted on Fridays")]), Value::Null);
    assert_eq!(status(&r), "LOW_CONFIDENCE");
    let d = &r["validated_claims"][0]["match_details"];
    assert_eq!(d["discrepancies"][0]["kind"], "negation");
    assert_eq!(d["discrepancies"][0]["source"], json!(["not"]));
    assert_eq!(d["omitted"][0]["text"], " not ");
    let reason = r["failed_claims"][0]["attempted_matches"][0]["rejection_reason"].as_str().unwrap();
    assert!(reason.contains("\"not\"") && reason.contains("negation"), "{reason}");
}

#[test]
fn an_ellipsis_over_harmless_words_validates_with_each_fragment_located() {
    let src = "The committee, after long debate, approved the new budget for the library.";
    let r = validate(src, json!([claim("The committee … approved the new budget")]), Value::Null);
    assert_eq!(status(&r), "VALIDATED");
    let d = &r["validated_claims"][0]["match_details"];
    let frags = d["fragments"].as_array().unwrap();
    assert_eq!(frags.len(), 2);
    let second = src.find("approved").unwrap();
    assert_eq!(frags[1]["start_position"], cp(src, second));
    assert_eq!(frags[1]["text"], "approved the new budget");
    assert_eq!(d["omitted"][0]["text"], ", after long debate, ");
    assert_eq!(d["matched_text"], "The committee, after long debate, approved the new budget");
    // a number or a qualifier left out changes the meaning too
    let src = "Sales rose by 40 percent in 2023 and by almost 12 percent in 2024.";
    let r = validate(src, json!([claim("Sales rose by [...] percent in 2023")]), Value::Null);
    assert_eq!(status(&r), "LOW_CONFIDENCE");
    let src = "Staff members may work from home on Mondays.";
    let r = validate(src, json!([claim("Staff members [...] work from home on Mondays")]), Value::Null);
    assert_eq!(status(&r), "LOW_CONFIDENCE", "{r:#}");
    assert_eq!(r["validated_claims"][0]["match_details"]["discrepancies"][0]["source"], json!(["may"]));
}

#[test]
fn ellipsis_fragments_out_of_order_or_too_far_apart_fail() {
    let r = validate(POLICY, json!([claim("Travel is reimbursed ... Remote work is not")]), Value::Null);
    assert_eq!(status(&r), "FAILED");
    let gap = json!({"anchoring": {"ellipsis_max_gap": 5}});
    let r = validate(POLICY, json!([claim("Remote work is not ... within 30 days")]), gap);
    assert_eq!(status(&r), "FAILED");
    let r = validate(POLICY, json!([claim("Remote work is not ... within 30 days")]), Value::Null);
    assert_eq!(status(&r), "VALIDATED");
}

#[test]
fn wrapping_quote_marks_and_outer_ellipses_are_trimmed() {
    for q in [
        "\"Travel is reimbursed within 30 days\"",
        "“…Travel is reimbursed within 30 days…”",
        "...Travel is reimbursed within 30 days...",
    ] {
        let r = validate(POLICY, json!([claim(q)]), Value::Null);
        assert_eq!(status(&r), "VALIDATED", "{q}");
        assert_eq!(r["validated_claims"][0]["match_details"]["matched_text"], "Travel is reimbursed within 30 days");
    }
}

const TWICE: &str = "Lorem ipsum dolor sit amet, the results were final and binding. Filler about weather, \
trains and tea goes here. Later we met with the board to discuss: again the results were final and binding here.";

#[test]
fn the_context_hint_chooses_one_of_two_places_by_whole_words() {
    let quote = "the results were final and binding";
    let second = TWICE.rfind(quote).unwrap();
    let mut c = claim(quote);
    c["context_hint"] = json!("met board");
    let r = validate(TWICE, json!([c]), json!({"context_validation": {"context_window": 40}}));
    assert_eq!(status(&r), "VALIDATED", "{r:#}");
    let d = &r["validated_claims"][0]["match_details"];
    assert_eq!(d["start_position"], cp(TWICE, second));
    // "met" inside "amet" is not the word "met": within 8 characters of
    // either place there is no word "met" (only "amet" before the first)
    let mut c = claim(quote);
    c["context_hint"] = json!("met");
    let r = validate(TWICE, json!([c]), json!({"context_validation": {"context_window": 8}}));
    assert_eq!(status(&r), "FAILED", "{r:#}");
    assert_eq!(r["failed_claims"][0]["failure_reason"], "CONTEXT_MISMATCH");
}

#[test]
fn prefix_suffix_and_position_pin_a_repeated_quote() {
    let quote = "the results were final and binding";
    let (first, second) = (TWICE.find(quote).unwrap(), TWICE.rfind(quote).unwrap());
    let mut c = claim(quote);
    c["prefix"] = json!("Again ");
    let r = validate(TWICE, json!([c]), Value::Null);
    assert_eq!(status(&r), "VALIDATED");
    assert_eq!(r["validated_claims"][0]["match_details"]["start_position"], cp(TWICE, second));
    let mut c = claim(quote);
    c["position"] = json!(cp(TWICE, first));
    let r = validate(TWICE, json!([c]), json!({"anchoring": {"max_position_distance": 100}}));
    assert_eq!(status(&r), "VALIDATED", "{r:#}");
    assert_eq!(r["validated_claims"][0]["match_details"]["start_position"], cp(TWICE, first));
}

#[test]
fn a_runner_up_too_close_is_ambiguous_with_the_margin_reported() {
    let quote = "the results were final and binding";
    let r = validate(TWICE, json!([claim(quote)]), Value::Null);
    assert_eq!(status(&r), "AMBIGUOUS");
    assert_eq!(r["validated_claims"][0]["match_details"]["margin"], 0.0);
    // a suffix that fits both places about as well: still ambiguous, by a
    // margin below the configured one
    let mut c = claim(quote);
    c["suffix"] = json!(" here.");
    let loose = validate(TWICE, json!([c.clone()]), json!({"anchoring": {"disambiguation_margin": 0.01}}));
    assert_eq!(status(&loose), "VALIDATED");
    let m = loose["validated_claims"][0]["match_details"]["margin"].as_f64().unwrap();
    assert!(m > 0.0 && m < 1.0, "{m}");
    let strict = validate(TWICE, json!([c]), json!({"anchoring": {"disambiguation_margin": (m + 0.05).min(1.0)}}));
    assert_eq!(status(&strict), "AMBIGUOUS");
    assert_eq!(strict["validated_claims"][0]["match_details"]["margin"].as_f64().unwrap(), m);
}

#[test]
fn selectors_count_code_points_after_emoji() {
    let src = "😀👍🏽 café 中文 — then the passage we want to quote here, and more text after it.";
    let quote = "the passage we want to quote here";
    let at = src.find(quote).unwrap();
    let r = validate(src, json!([claim(quote)]), Value::Null);
    let d = &r["validated_claims"][0]["match_details"];
    let sel = d["selectors"].as_array().unwrap();
    assert_eq!(sel[0]["type"], "TextQuoteSelector");
    assert_eq!(sel[0]["exact"], quote);
    let before: String = src[..at].chars().rev().take(32).collect::<Vec<_>>().into_iter().rev().collect();
    assert_eq!(sel[0]["prefix"], before);
    let after: String = src[at + quote.len()..].chars().take(32).collect();
    assert_eq!(sel[0]["suffix"], after);
    assert_eq!(
        sel[1],
        json!({"type": "TextPositionSelector", "start": cp(src, at), "end": cp(src, at) + quote.chars().count()})
    );
    // code points, not UTF-16: the emoji before count once each here, twice in JS
    assert_ne!(cp(src, at), utf16(src, at));
    assert_eq!(d["utf16_start"], utf16(src, at));
}

#[test]
fn text_fragments_encode_dash_ampersand_comma_and_space() {
    let src = "Intro text.\n\nThe state-of-the-art R&D budget, as planned, grew fast.\n\nOutro.";
    let quote = "state-of-the-art R&D budget, as planned";
    let r = validate(src, json!([claim(quote)]), Value::Null);
    let f = r["validated_claims"][0]["match_details"]["text_fragment"].as_str().unwrap();
    assert_eq!(f, "#:~:text=state%2Dof%2Dthe%2Dart%20R%26D%20budget%2C%20as%20planned");
    // not unique: prefix- and -suffix from the same block
    let r = validate(TWICE, json!([claim("the results were final and binding")]), Value::Null);
    let f = r["validated_claims"][0]["match_details"]["text_fragment"].as_str().unwrap();
    assert!(f.starts_with("#:~:text=") && f.contains("-,the%20results") && f.contains(",-"), "{f}");
    // long: textStart,textEnd
    let long = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega";
    let src = format!("Start. {long}. End.");
    let r = validate(&src, json!([claim(long)]), Value::Null);
    let f = r["validated_claims"][0]["match_details"]["text_fragment"].as_str().unwrap();
    assert!(
        f.contains("alpha%20beta%20gamma%20delta,psi%20omega") || f.contains(",alpha%20beta%20gamma%20delta,"),
        "{f}"
    );
    assert!(f.contains("phi%20chi%20psi%20omega"), "{f}");
}

fn saved(doc_text: &str, quote: &str) -> Value {
    let r = validate(doc_text, json!([claim(quote)]), Value::Null);
    json!([{"id": "a1", "selectors": r["validated_claims"][0]["match_details"]["selectors"].clone()}])
}

fn reanchor(edited: &str, saved: &Value) -> validate::Reanchored {
    let doc = Document::new(edited.to_string(), None).unwrap();
    validate::reanchor(&doc, saved, &FixedClock(0.0)).unwrap().remove(0)
}

#[test]
fn reanchoring_after_insertions_and_deletion() {
    let original = "First paragraph here.\n\nThe quarterly report shows steady growth in sales.\n\nLast words.";
    let quote = "quarterly report shows steady growth";
    let s = saved(original, quote);
    // unchanged
    let r = reanchor(original, &s);
    assert_eq!(r.status, AnchorStatus::Unchanged);
    // insertion before: moved, new offsets
    let edited = format!("A new opening 😀 line.\n{original}");
    let r = reanchor(&edited, &s);
    assert_eq!(r.status, AnchorStatus::Moved);
    let at = edited.find(quote).unwrap();
    let span = r.span.unwrap();
    assert_eq!((span.start_position, span.utf16_start), (cp(&edited, at), utf16(&edited, at)));
    // insertion after: unchanged
    let r = reanchor(&format!("{original}\nA postscript."), &s);
    assert_eq!(r.status, AnchorStatus::Unchanged);
    // insertion inside: changed (fuzzy), the span covers the edited passage
    let edited = original.replace("shows steady", "shows very steady");
    let r = reanchor(&edited, &s);
    assert_eq!(r.status, AnchorStatus::Changed);
    assert_eq!(r.matched_text.as_deref(), Some("quarterly report shows very steady growth"));
    assert_eq!(r.edit_distance, Some(5));
    // deleted: orphaned
    let edited = original.replace("The quarterly report shows steady growth in sales.", "Nothing to see.");
    let r = reanchor(&edited, &s);
    assert_eq!((r.status, r.span), (AnchorStatus::Orphaned, None));
}

#[test]
fn reanchoring_picks_the_copy_whose_context_matches() {
    let original = "Alpha says: the key figure is stable. Beta says: other things.";
    let s = saved(original, "the key figure is stable");
    let edited = "Beta says: the key figure is stable. Gamma. Alpha says: the key figure is stable. End";
    let r = reanchor(edited, &s);
    assert_eq!(r.status, AnchorStatus::Moved);
    let want = edited.rfind("the key figure").unwrap();
    assert_eq!(r.span.unwrap().byte_start, want);
}

#[test]
fn reanchor_input_errors_name_their_path() {
    let doc = Document::new("some text".to_string(), None).unwrap();
    for (bad, path) in [
        (json!({"id": "x"}), "$"),
        (json!([{"id": 3, "selectors": []}]), "$[0].id"),
        (json!([{"id": "a", "selectors": [{"type": "TextPositionSelector", "start": 1, "end": 2}]}]), "$[0].selectors"),
        (json!([{"id": "a", "selectors": [{"type": "TextQuoteSelector", "exact": 5}]}]), "$[0].selectors[0].exact"),
        (
            json!([{"id": "a", "selectors": [{"type": "TextPositionSelector", "start": -1, "end": 2}]}]),
            "$[0].selectors[0].start",
        ),
        (json!([{"id": "a", "selectors": [{"type": "CssSelector"}]}]), "$[0].selectors[0].type"),
    ] {
        let e = validate::reanchor(&doc, &bad, &FixedClock(0.0)).unwrap_err();
        assert_eq!((e.code(), e.details()["json_path"].as_str().unwrap()), ("VALIDATION_ERROR", path), "{bad}");
    }
}
