//! Step 2 refuses a quote that bends the cited text. Spec 002's score is
//! the longest matching block over the quote's length, so a quote that
//! changes the last fifth of a sentence scores 0.8 or more. Such a quote
//! is compared word by word with the closest passage of the cited text.
//! A changed number, negation or word fails step 2 (`QUOTE_NOT_FOUND`,
//! whatever the jury says), and each change is listed in `quote_changes`
//! with the file's line. Case, spacing, line tags, curly quotes and
//! misspellings are not changes.

use evidence_validator::judge::quote::MAX_COMPARED_QUOTE_CHARS;
use evidence_validator::judge::{
    check_without_jury, ClaimRequest, JudgeConfig, JudgeResult, JurorFailure, Verdict, Verification,
};
use evidence_validator::validate::Change;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

/// Lines 1–6; CRLF line ends, an emoji and CJK before the quoted words.
const SOURCE: &str = "Section 4. Water supply 💧\r\n\
The council confirmed that the treatment plant on the north bank handles 12,500 cubic metres a day, and that it will not be expanded.\r\n\
水道: rates for households rose by 3.5 percent in 2024, while rates for businesses stayed the same.\r\n\
The chair thanked the engineers for their work on the pumps.\r\n\
\r\n\
The next meeting is on 1 April.\r\n";

fn judge(quote: &str, start: usize, end: usize) -> JudgeResult {
    let request = ClaimRequest::new("The plant is not being expanded.", quote, "water.txt", start, end);
    check_without_jury(request, Ok(SOURCE), &JudgeConfig::default()).expect("a result")
}

/// The change's kind, quote and source text, and line.
fn changes(r: &JudgeResult) -> Vec<(Change, &str, &str, usize)> {
    r.quote_changes.iter().map(|c| (c.change, c.quote.as_str(), c.source.as_str(), c.line)).collect()
}

/// Each change's source text is on the line it names.
fn on_their_lines(r: &JudgeResult) {
    let lines: Vec<&str> = SOURCE.split("\r\n").collect();
    for c in &r.quote_changes {
        let line = lines.get(c.line - 1).copied().unwrap_or_default();
        assert!(line.contains(&c.source), "{:?} is not on line {}: {line:?}", c.source, c.line);
    }
}

fn refused(r: &JudgeResult) {
    assert!(r.quote_score >= 0.8, "the spec's score passes it: {}", r.quote_score);
    assert!(!r.step_2_quote_match);
    assert_eq!(r.verdict, Verdict::QuoteNotFound);
    assert!(!r.verified);
    on_their_lines(r);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_changed_number_negation_or_word_fails_step_two() {
    let r = judge(
        "The council confirmed that the treatment plant on the north bank handles 12,500 cubic metres a day, and that it will be expanded.",
        2,
        2,
    );
    refused(&r);
    assert_eq!(changes(&r), [(Change::Negation, "", "not", 2)]);

    let r = judge(
        "The council confirmed that the treatment plant on the north bank handles 12,500 cubic metres a day, and that it will not be extended.",
        2,
        2,
    );
    refused(&r);
    assert_eq!(changes(&r), [(Change::Word, "extended", "expanded", 2)]);

    let r = judge(
        "rates for households rose by 3.5 percent in 2024, while rates for businesses stayed the same until 2026",
        3,
        3,
    );
    refused(&r);
    assert!(changes(&r).iter().any(|c| c.0 == Change::Number && c.1.contains("2026")), "{:?}", changes(&r));

    let r = judge(
        "The council confirmed that the treatment plant on the north bank handles 12,500 cubic metres a day, and that it will not be expanded by 2030.",
        2,
        2,
    );
    refused(&r);
    assert!(changes(&r).iter().any(|c| c.0 == Change::Number && c.1.contains("2030")), "{:?}", changes(&r));

    // in the context before the cited lines too (spec: context_before + cited_text)
    let r = judge("The chair thanked the engineers for their work on the pipes.", 6, 6);
    refused(&r);
    assert_eq!(changes(&r), [(Change::Word, "pipes", "pumps", 4)]);

    // where the changed passage is
    assert_eq!(r.quote_lines.as_deref(), Some("L4-L4"));
    assert!(r.quote_outside_cited_lines, "line 4 is context before the cited line 6");

    // the spec's score alone, when asked for
    let request =
        ClaimRequest::new("c", "The chair thanked the engineers for their work on the pipes.", "water.txt", 6, 6);
    let spec_only = JudgeConfig { compare_words: false, ..JudgeConfig::default() };
    let r = check_without_jury(request, Ok(SOURCE), &spec_only).expect("a result");
    assert!(r.step_2_quote_match && r.quote_changes.is_empty());
    assert_eq!(r.verdict, Verdict::JuryNotConvened);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn case_spacing_tags_quotes_and_misspellings_are_not_changes() {
    for quote in [
        // a misspelling (not a word) in the last fifth
        "The chair thanked the engineers for their work on the pumsp.",
        // case and spacing: the spec's normalization already scores 1
        "the CHAIR thanked  the engineers\nfor their work on the pumps",
        // curly apostrophes and quotes, and a line tag
        "[L3] rates for households rose by 3.5 percent in 2024, while rates for businesses stayed the “same”",
    ] {
        let r = judge(quote, 3, 4);
        assert!(r.step_2_quote_match, "{quote}: {} {:?} {:?}", r.quote_score, r.quote_changes, r.error);
        assert!(r.quote_changes.is_empty());
        assert_eq!(r.verdict, Verdict::JuryNotConvened);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_jury_cannot_overturn_a_bent_quote() {
    let request = ClaimRequest::new(
        "The plant will be expanded.",
        "The council confirmed that the treatment plant on the north bank handles 12,500 cubic metres a day, and that it will be expanded.",
        "water.txt",
        2,
        2,
    );
    let mut v =
        Verification::new(request, Ok(SOURCE), &JudgeConfig::default(), vec!["a".into(), "b".into()]).expect("valid");
    assert!(v.convened(), "the jury still sits (spec: step 3 runs even when step 2 fails)");
    v.record(0, Ok(r#"{"verdict": "VALID", "reason": "It says so."}"#.into()), None);
    v.record(1, Err(JurorFailure::Timeout { after_ms: 10 }), None);
    let r = v.finish();
    assert_eq!(r.step_3_semantic.as_ref().map(|s| s.verdict.as_str()), Some("VALID"));
    assert_eq!(r.verdict, Verdict::QuoteNotFound);
    assert!(!r.verified);
    let json = serde_json::to_value(&r).expect("json");
    assert_eq!(json["quote_changes"][0]["change"], "negation");
    assert_eq!(json["quote_changes"][0]["source"], "not");
    assert_eq!(json["quote_changes"][0]["line"], 2);
    // nothing changed: no key
    let ok = judge("The chair thanked the engineers for their work on the pumps.", 4, 4);
    assert!(serde_json::to_value(&ok).expect("json").get("quote_changes").is_none());
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_long_quote_is_compared_only_up_to_the_cap() {
    // a file of one long line, quoted whole (verbatim: score 1, nothing to compare)
    let words: Vec<String> = (0..MAX_COMPARED_QUOTE_CHARS / 5).map(|i| format!("w{i:04}")).collect();
    let line = words.join(" ");
    assert!(line.chars().count() > MAX_COMPARED_QUOTE_CHARS);
    let source = format!("intro\n{line}\nend\n");
    let check = |quote: &str| {
        let request = ClaimRequest::new("claim", quote, "long.txt", 2, 2);
        check_without_jury(request, Ok(&source), &JudgeConfig::default()).expect("a result")
    };
    let r = check(&line);
    assert_eq!(r.quote_score, 1.0);
    assert!(r.step_2_quote_match && r.error.is_none());
    // one word changed near the end: the score passes, the quote is too
    // long to compare, so it is refused and the error says why
    let bent = line.replacen("w0398", "w0999", 1);
    let r = check(&bent);
    assert!(r.quote_score >= 0.8);
    assert!(!r.step_2_quote_match);
    assert_eq!(r.verdict, Verdict::QuoteNotFound);
    let error = r.error.unwrap_or_default();
    assert!(error.contains(&MAX_COMPARED_QUOTE_CHARS.to_string()) && error.contains("not verbatim"), "{error}");
}
