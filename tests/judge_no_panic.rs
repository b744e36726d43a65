#![cfg(not(target_arch = "wasm32"))]
//! No input makes the judge or the finding checks panic: random text, and
//! random text built from the characters their parsers look for.

use evidence_validator::finding::evidence::is_rfc3339;
use evidence_validator::finding::numbers::quantities;
use evidence_validator::finding::verifier::numbers_agree;
use evidence_validator::finding::{Finding, FindingVerifier};
use evidence_validator::judge::citations::parse_citations;
use evidence_validator::judge::lines::LineRange;
use evidence_validator::judge::quote::{normalize, quote_score};
use evidence_validator::judge::{parse_answer, ClaimRequest, JudgeConfig, Verification};
use proptest::prelude::*;

/// Text made of what the parsers look for.
fn structured() -> impl Strategy<Value = String> {
    "[\\[\\]()Ll0-9:\\-.,!?%$ \n\r\t\"“”{}`*_#>|a-zA-Zé中😀\u{a0}\u{1c}kKmMbBtT]{0,120}"
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
