//! The judge's steps one by one (spec 002): the exact prompt, step 1's
//! errors, step 2's threshold, the output object's keys, and batch
//! verification of a report's citations. Runs natively and in wasm.

use evidence_validator::judge::citations::{parse_citations, summarize, BatchReport, CitationResult};
use evidence_validator::judge::lines::{locate, LineRange};
use evidence_validator::judge::{check_without_jury, ClaimRequest, JudgeConfig, Verdict, Verification};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

const DOC: &str = "one\ntwo\nthree\nfour\nfive\nsix\nThe Marijuana Event Organizer license allows\ntemporary events.\nnine\nten\neleven\ntwelve\nthirteen\nfourteen\n";

fn request(quote: &str, start: usize, end: usize) -> ClaimRequest {
    ClaimRequest::new("Event organizers can get a license.", quote, "rules.txt", start, end)
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_prompt_is_the_spec_template() {
    let v = Verification::new(
        request("Marijuana Event Organizer license", 7, 8),
        Ok(DOC),
        &JudgeConfig::default(),
        vec!["local".into()],
    )
    .unwrap();
    let want = "SOURCE FILE: rules.txt
CITED LINES: L7-L8

CONTEXT BEFORE:
[L2] two
[L3] three
[L4] four
[L5] five
[L6] six

CITED TEXT:
[L7] The Marijuana Event Organizer license allows
[L8] temporary events.

CONTEXT AFTER:
[L9] nine
[L10] ten
[L11] eleven
[L12] twelve
[L13] thirteen

CLAIM BEING MADE: Event organizers can get a license.
QUOTE USED: Marijuana Event Organizer license";
    assert_eq!(v.prompt(), Some(want));
    assert_eq!(v.requests()[0].prompt, want);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn step_one_context_and_errors() {
    let p = locate(DOC, LineRange::parse("L7-L8").unwrap(), 5).unwrap();
    assert_eq!(p.cited_text(), "The Marijuana Event Organizer license allows\ntemporary events.");
    assert_eq!(p.context_before(), "two\nthree\nfour\nfive\nsix");
    assert_eq!(p.context_after(), "nine\nten\neleven\ntwelve\nthirteen");

    let config = JudgeConfig::default();
    let missing = check_without_jury(
        request("x", 1, 1),
        Err("cannot read data/canonical/rules.txt: No such file".into()),
        &config,
    )
    .unwrap();
    assert_eq!(missing.verdict, Verdict::FileNotFound);
    assert!(!missing.step_1_existence && !missing.verified);
    assert!(missing.error.as_deref().unwrap().contains("No such file"));

    // ending past the file (14 lines): the lines that exist are cited, the rest named (issue 15)
    let partly = check_without_jury(request("fourteen", 14, 15), Ok(DOC), &config).unwrap();
    assert!(partly.step_1_existence);
    assert_eq!(partly.context.as_ref().unwrap().cited_text, "fourteen");
    assert_eq!(partly.context.as_ref().unwrap().past_end.as_deref(), Some("L15-L15"));
    assert_eq!(
        partly.error.as_deref(),
        Some("cited lines L15-L15 are past the end of the file (14 lines); the lines that exist were cited")
    );
    for (s, e) in [(15, 16), (0, 3), (9, 8), (100, 100)] {
        let r = check_without_jury(request("x", s, e), Ok(DOC), &config).unwrap();
        assert_eq!(r.verdict, Verdict::LinesOutOfRange, "L{s}-L{e}");
        assert!(r.context.is_none() && r.text_found.is_empty());
    }
    let last = check_without_jury(request("fourteen", 14, 14), Ok(DOC), &config).unwrap();
    assert_eq!(last.verdict, Verdict::JuryNotConvened);
    assert_eq!(last.context.unwrap().context_after, "");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn step_two_threshold_and_context_before() {
    let config = JudgeConfig::default();
    // the quote may reach into the context before (spec: context_before + cited_text)
    let r = check_without_jury(request("six The Marijuana Event", 7, 7), Ok(DOC), &config).unwrap();
    assert_eq!(r.quote_score, 1.0);
    assert_eq!((r.quote_lines.as_deref(), r.quote_outside_cited_lines), (Some("L6-L7"), false));
    // wholly in the context before: found, and the citation names the wrong lines
    let r = check_without_jury(request("The Marijuana Event Organizer license", 9, 10), Ok(DOC), &config).unwrap();
    assert!(r.step_2_quote_match);
    assert_eq!((r.quote_lines.as_deref(), r.quote_outside_cited_lines), (Some("L7-L7"), true));
    let r = check_without_jury(request("license allows temporary events", 8, 8), Ok(DOC), &config).unwrap();
    assert_eq!((r.quote_lines.as_deref(), r.quote_outside_cited_lines), (Some("L7-L8"), false));
    // but not into the context after
    let r = check_without_jury(request("temporary events", 7, 7), Ok(DOC), &config).unwrap();
    assert!(!r.step_2_quote_match);
    assert_eq!(r.verdict, Verdict::QuoteNotFound);
    // case, whitespace and line tags do not matter
    let r = check_without_jury(
        request("[L7]  THE marijuana\nevent ORGANIZER license   allows temporary", 7, 8),
        Ok(DOC),
        &config,
    )
    .unwrap();
    assert_eq!(r.quote_score, 1.0);
    assert_eq!(r.text_found, "[L7] The Marijuana Event Organizer license allows\n[L8] temporary events.");
    // 8 of 10 chars: exactly the threshold passes
    let r = check_without_jury(request("abcdefghij", 1, 1), Ok("abcdefgh--\n"), &config).unwrap();
    assert_eq!((r.quote_score, r.step_2_quote_match), (0.8, true));
    let r = check_without_jury(request("abcdefghij", 1, 1), Ok("abcdefg---\n"), &config).unwrap();
    assert_eq!((r.quote_score, r.step_2_quote_match), (0.7, false));
    // the threshold is configurable; what the quote changes still refuses it
    let low = JudgeConfig { threshold: 0.5, ..config.clone() };
    let r = check_without_jury(request("license alows temporary events", 7, 8), Ok(DOC), &low).unwrap();
    assert_eq!(r.quote_score, 0.7);
    assert!(r.step_2_quote_match, "{:?}", r.quote_changes);
    let r = check_without_jury(request("allowzzzzz", 7, 7), Ok(DOC), &low).unwrap();
    assert_eq!(r.quote_score, 0.5);
    assert!(!r.step_2_quote_match);
    assert_eq!(r.verdict, Verdict::QuoteNotFound);
    assert_eq!(
        r.quote_changes.iter().map(|c| (c.quote.as_str(), c.source.as_str())).collect::<Vec<_>>(),
        [("allowzzzzz", "allows")]
    );
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_output_object_has_the_spec_keys() {
    let mut v = Verification::new(
        request("Marijuana Event Organizer license", 7, 8),
        Ok(DOC),
        &JudgeConfig::default(),
        vec!["a".into(), "b".into()],
    )
    .unwrap();
    v.record(0, Ok(r#"{"verdict":"VALID","substantive_quote":true,"quote_in_context":true,"supports_claim":true,"reason":"The quote directly says so."}"#.into()), None);
    v.record(1, Ok("VALID".into()), None);
    let json = serde_json::to_value(v.finish()).unwrap();
    for key in [
        "step_1_existence",
        "step_2_quote_match",
        "quote_score",
        "step_3_semantic",
        "verdict",
        "verified",
        "text_found",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    for key in ["verdict", "substantive_quote", "quote_in_context", "supports_claim", "reason"] {
        assert!(json["step_3_semantic"].get(key).is_some(), "missing step_3_semantic.{key}");
    }
    assert_eq!(json["step_3_semantic"]["reason"], "Consensus (2/2): VALID: The quote directly says so.");
    assert_eq!(json["verdict"], "VALID");
    assert_eq!(json["verified"], true);
    assert!(json["text_found"].as_str().unwrap().starts_with("[L7] The Marijuana Event Organizer"));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_report_is_verified_citation_by_citation() {
    let report = "# Findings\n\n\
Organizers can hold temporary events under \"The Marijuana Event Organizer license allows\" [rules.txt:L7-L8](data/canonical/rules.txt). \
The license is free [rules.txt:L9](data/canonical/rules.txt).\n\n\
- Nothing is cited from a missing file [gone.txt:L1](gone.txt)\n";
    let cites = parse_citations(report);
    assert_eq!(cites.len(), 3);
    let results: Vec<CitationResult> = cites
        .into_iter()
        .map(|c| {
            let source = if c.file == "rules.txt" { Ok(DOC) } else { Err(format!("no file {}", c.file)) };
            let found = source.is_ok();
            let result = check_without_jury(c.request(), source, &JudgeConfig::default()).unwrap();
            CitationResult { resolved_file: found.then(|| c.file.clone()), citation: c, result }
        })
        .collect();
    let verdicts: Vec<Verdict> = results.iter().map(|r| r.result.verdict).collect();
    assert_eq!(verdicts, [Verdict::JuryNotConvened, Verdict::QuoteNotFound, Verdict::FileNotFound]);
    assert_eq!(results[0].citation.quote, "The Marijuana Event Organizer license allows");
    let s = summarize(&results);
    assert_eq!((s.total, s.verified, s.verification_rate), (3, 0, 0.0));
    assert_eq!(s.verdicts.get(&Verdict::QuoteNotFound), Some(&1));
    let batch = BatchReport::new("findings", "2026-01-01T00:00:00.000Z", results);
    let md = batch.to_markdown();
    assert!(md.contains("**0 of 3 citations verified (0.0 %).** No jury was convened"));
    assert!(md.contains("| QUOTE_NOT_FOUND | 1 |"));
    let json = serde_json::to_value(&batch).unwrap();
    assert_eq!(json["summary"]["verdicts"]["FILE_NOT_FOUND"], 1);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn oversized_input_is_a_typed_error_or_a_result() {
    use evidence_validator::judge::{MAX_CLAIM_CHARS, MAX_QUOTE_CHARS};
    let long = "é".repeat(MAX_QUOTE_CHARS + 1);
    let e = Verification::new(request(&long, 6, 7), Ok(DOC), &JudgeConfig::default(), vec![]).unwrap_err();
    assert_eq!(e.code(), "VALIDATION_ERROR");
    assert_eq!(e.details()["json_path"], "$.quote");
    assert_eq!(e.details()["constraint"], "max_length");
    let mut req = request("approved the budget", 6, 7);
    req.claim = "x".repeat(MAX_CLAIM_CHARS + 1);
    let e = Verification::new(req, Ok(DOC), &JudgeConfig::default(), vec![]).unwrap_err();
    assert_eq!(e.details()["json_path"], "$.claim");
    // exactly at the bound is fine
    let at_bound = "é".repeat(MAX_QUOTE_CHARS);
    assert!(Verification::new(request(&at_bound, 6, 7), Ok(DOC), &JudgeConfig::default(), vec![]).is_ok());
    // a citation covering more than MAX_SEARCH_AREA_BYTES is LINES_OUT_OF_RANGE, not scored
    let big = format!("{}\n", "word ".repeat(200)).repeat(6000);
    let r = check_without_jury(request("word word", 1, 6000), Ok(&big), &JudgeConfig::default()).unwrap();
    assert_eq!(r.verdict, Verdict::LinesOutOfRange);
    assert!(r.error.as_deref().unwrap_or("").contains("more than the 1048576"), "{:?}", r.error);
    // a later call still works
    let r = check_without_jury(request("word word", 1, 2), Ok(&big), &JudgeConfig::default()).unwrap();
    assert_eq!(r.verdict, Verdict::JuryNotConvened);
}
