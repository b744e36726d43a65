//! No input makes the library panic: random sources (any Unicode, HTML and
//! markdown fragments), random claims of every evidence type, random
//! configurations and random JSON garbage. Every result is either a report
//! holding every claim, whose spans hold, or a typed error.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use evidence_validator::host::FixedClock;
use evidence_validator::validate_evidence;
use proptest::prelude::*;
use serde_json::{json, Value};

fn source() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        Just("<p>Hello &amp; <b>world</b></p>".to_string()),
        Just("# Title\n\n**bold** _it_ `code` [link](http://x)\n".to_string()),
        Just("evi-\ndence \u{FB01}ne \u{201C}q\u{201D} 15% not\r\n".to_string()),
        Just("<!-- <script>x</script> &#x1F600; &bogus; <".to_string()),
        "[a-z \\n\\-*#_`\\[\\]()<>&;0-9.,%]{0,80}",
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

fn claim() -> impl Strategy<Value = Value> {
    let kind =
        prop_oneof![Just("direct_quote"), Just("paraphrase"), Just("section_reference"), Just("concept_reference")];
    (
        any::<String>(),
        "[a-zA-Z0-9 %.,\\-']{0,60}",
        kind,
        prop::option::of(any::<String>()),
        prop::option::of("[a-z ]{0,20}"),
        0.0f64..=1.0,
    )
        .prop_map(|(raw, ascii, kind, hint, section, threshold)| {
            let quote = format!("{raw}{ascii}");
            let quote: String = quote.chars().take(300).collect();
            let quote = if quote.chars().count() < 10 { format!("{quote} padding text") } else { quote };
            json!({"id": "EV1", "task_id": "P1.T1", "quote": quote, "evidence_type": kind,
                   "context_hint": hint, "expected_section": section, "confidence_threshold": threshold})
        })
}

fn config() -> impl Strategy<Value = Value> {
    (any::<bool>(), any::<bool>(), any::<bool>(), 0usize..6, 0.0f64..=1.0, prop_oneof![Just("levenshtein"), Just("sequence_matcher")], 10usize..600, 0.0f64..=1.0, 0usize..300)
        .prop_map(|(fz, cs, ws, k, sim, alg, chunk, sem, window)| {
            json!({
                "fuzzy_matching": {"enabled": fz, "max_edit_distance": k, "similarity_threshold": sim, "algorithm": alg},
                "exact_matching": {"case_sensitive": cs, "normalize_whitespace": ws},
                "semantic_matching": {"chunk_size": chunk, "overlap_size": chunk / 3, "similarity_threshold": sem},
                "context_validation": {"context_window": window}
            })
        })
}

/// The report holds every invariant of `invariants::report_json` (each
/// claim accounted for once, summary counts, spans in all three unit
/// systems, contentHash) for the claims `EV0`..`EV{claims-1}`.
fn check_report(src: &str, claims: usize, report: &Value) -> Result<(), TestCaseError> {
    let ids: Vec<String> = (0..claims).map(|i| format!("EV{i}")).collect();
    invariants::report_json(src, &ids, report).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_documents_claims_and_configs(src in source(), claims in prop::collection::vec(claim(), 1..4), cfg in config()) {
        let n = claims.len();
        let claims: Vec<Value> = claims.into_iter().enumerate().map(|(i, mut c)| { c["id"] = json!(format!("EV{i}")); c }).collect();
        match validate_evidence(&src, &json!({"claims": claims}), &cfg, &FixedClock(0.0)) {
            Ok(report) => check_report(&src, n, &report.to_json())?,
            Err(e) => invariants::typed_error(&e).map_err(TestCaseError::fail)?,
        }
    }

    #[test]
    fn random_json_is_a_typed_error_or_a_report(src in source(), garbage in any::<String>(), n in -5i64..5) {
        for claims in [json!(garbage), json!({"claims": garbage}), json!({"claims": [n]}), json!({"claims": [{"id": garbage}]}), json!(null)] {
            if let Err(e) = validate_evidence(&src, &claims, &json!({"x": n}), &FixedClock(0.0)) {
                prop_assert!(e.code() == "VALIDATION_ERROR" || e.code() == "CONFIGURATION_ERROR", "{}", e);
            }
        }
        let r = validate_evidence(&src, &json!({"claims": [{"id": "EV0", "task_id": "P1.T1", "quote": garbage, "evidence_type": "paraphrase"}]}), &json!(null), &FixedClock(0.0));
        if let Ok(report) = r {
            check_report(&src, 1, &report.to_json())?;
        }
    }
}
