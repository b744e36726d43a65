//! No input makes the judge or the finding checks panic: random text, and
//! random text built from the characters their parsers look for.

use crate::finding::evidence::is_rfc3339;
use crate::finding::numbers::quantities;
use crate::finding::verifier::numbers_agree;
use crate::finding::{Finding, FindingVerifier};
use crate::judge::ballot::{last_explicit_verdict, strip_reasoning};
use crate::judge::citations::{parse_citations, parse_report};
use crate::judge::lines::{locate, split_lines, LineIndex, LineRange};
use crate::judge::quote::{normalize, quote_score};
use crate::judge::{parse_answer, ClaimRequest, JudgeConfig, Verification};
use proptest::prelude::*;

/// Text made of what the parsers look for.
fn structured() -> impl Strategy<Value = String> {
    "[\\[\\]()Ll0-9:\\-.,!?%$ \n\r\t\"“”{}`*_#>|a-zA-Zé中😀\u{a0}\u{1c}kKmMbBtT]{0,120}"
}

/// Text made of verdict words, negations, questions and reasoning tags.
fn answers() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("VALID"),
            Just("MISLEADING"),
            Just("UNSUPPORTED"),
            Just("insufficient"),
            Just("not"),
            Just("isn't"),
            Just("or"),
            Just("verdict:"),
            Just("?"),
            Just(". "),
            Just(", "),
            Just(" "),
            Just("\n"),
            Just("<think>"),
            Just("</think>"),
            Just("<reasoning x=1>"),
            Just("</reasoning>"),
            Just("{\"verdict\": \"VALID\"}"),
            Just("```json\n"),
            Just("```"),
            Just("No"),
            Just("é"),
            Just("<"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![structured(), ".{0,120}"]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(text in any_text()) {
        let _ = parse_answer(&text);
        let cites = parse_citations(&text);
        for c in &cites {
            prop_assert!(text.get(c.byte_offset..).is_some_and(|r| r.starts_with(&c.markdown)));
            prop_assert!(c.start_line >= 1 && c.start_line <= c.end_line);
        }
        let report = parse_report(&text);
        prop_assert_eq!(&report.citations, &cites);
        for c in &report.invalid {
            prop_assert!(text.get(c.byte_offset..).is_some_and(|r| r.starts_with(&c.markdown)));
            prop_assert!(LineRange::parse(&c.range).is_err());
            prop_assert!(!c.problem.is_empty());
            prop_assert!(cites.iter().all(|v| v.byte_offset != c.byte_offset));
        }
        let index = LineIndex::new(&text);
        prop_assert_eq!(index.line_count(), split_lines(&text).len());
        if let Ok(r) = LineRange::parse(&text) {
            let _ = locate(&text, r, 3);
        }
        let _ = quantities(&text);
        let _ = numbers_agree(&text, &text);
        let _ = LineRange::parse(&text);
        let _ = is_rfc3339(&text);
        let n = normalize(&text);
        prop_assert_eq!(normalize(&n), n.clone());
        let s = quote_score(&text, &n, false);
        prop_assert!((0.0..=1.0).contains(&s));
    }

    #[test]
    fn answers_never_panic(text in prop_oneof![answers(), any_text()]) {
        let stripped = strip_reasoning(&text);
        prop_assert!(stripped.len() <= text.len() + text.matches('<').count());
        prop_assert!(!stripped.to_ascii_lowercase().contains("<think>"));
        let said = last_explicit_verdict(&stripped);
        match parse_answer(&text) {
            // a verdict in words agrees with the last explicit one outside reasoning
            Ok(b) if !text.contains('{') && said.is_some() => prop_assert_eq!(Some(b.verdict), said),
            Ok(_) => {}
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }

    #[test]
    fn verification_never_panics(doc in any_text(), quote in any_text(), start in 0usize..20, len in 0usize..4, ctx in 0usize..8, answer in any_text()) {
        let config = JudgeConfig { context_lines: ctx, ..JudgeConfig::default() };
        let request = ClaimRequest::new("claim", quote, "f.txt", start, start + len);
        let mut v = Verification::new(request, Ok(&doc), &config, vec!["a".into()]).unwrap();
        v.record(0, Ok(answer), None);
        let r = v.finish();
        prop_assert!((0.0..=1.0).contains(&r.quote_score));
        prop_assert_eq!(r.verified, r.verdict.as_str() == "VALID");
    }

    #[test]
    fn finding_checks_never_panic(span in any_text(), content in any_text(), source in any_text(), score in -20i64..20) {
        let f = Finding {
            category: "market_intelligence".into(),
            title: "t".into(),
            content,
            source_url: "https://example.com".into(),
            extracted_at: "2025-01-01T00:00:00Z".into(),
            extraction_span_hash: Finding::compute_hash(&span),
            extraction_span: span,
            char_offsets: None,
            relevance_score: score,
            recency_score: 5,
            trust_score: 1,
        };
        let _ = f.validate();
        let r = FindingVerifier::new().verify_finding(&f, &source);
        prop_assert!(!r.reason.is_empty());
    }
}
