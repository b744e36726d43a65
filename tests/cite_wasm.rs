//! The citation pipeline (spec 004 part 1) compiled to wasm32 and run under
//! Node by wasm-bindgen-test: the numeric cases of
//! tests/cases/cite_numeric.json, the sample input through every stage, and
//! the metrics give in wasm what they give natively (src/cite/mod.rs and
//! tests/cite_cli.rs replay the same data there).
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --no-default-features --test cite_wasm
//! ```
#![cfg(target_arch = "wasm32")]

use evidence_validator::cite::{self, metrics, CiteConfig, CiteInput};
use evidence_validator::host::Deadline;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn numeric_cases_replay_in_wasm() {
    let file: Value = serde_json::from_str(include_str!("cases/cite_numeric.json")).unwrap();
    for c in file["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let config = CiteConfig::from_json(c.get("config").unwrap_or(&Value::Null)).unwrap();
        let r = cite::verify_numeric(c["claim"].as_str().unwrap(), c["evidence"].as_str().unwrap(), &config).unwrap();
        let r = serde_json::to_value(&r).unwrap();
        assert_eq!(r["verdict"], c["verdict"], "{name}");
        assert_eq!(r["match_score"].as_f64(), c["match_score"].as_f64(), "{name}");
    }
}

#[wasm_bindgen_test]
fn the_sample_runs_every_stage_in_wasm() {
    let input: Value = serde_json::from_str(include_str!("../samples/cite-input.json")).unwrap();
    let input = CiteInput::from_json(&input).unwrap();
    let r = cite::run(&input, &CiteConfig::default(), None, &Deadline::never()).unwrap();
    let actions: Vec<Value> = r.claims.iter().map(|c| serde_json::to_value(c.correction.action).unwrap()).collect();
    assert_eq!(actions, [json!("REPLACE"), json!("KEEP"), json!("KEEP"), json!("REMOVE")]);
    assert!(r.evidence_pool[0].quote.starts_with("Acme Corp reported Q4 2024 revenues"));
    assert!((r.evidence_pool[0].relevance_score - 1.1).abs() < 1e-12);
}

#[wasm_bindgen_test]
fn metrics_in_wasm() {
    let m = metrics::evaluate(
        &json!({"binary": {"y_true": [0, 0, 1, 1], "y_score": [0.1, 0.4, 0.35, 0.8]}, "ranking": {"relevance": [[2, 0, 1]], "k": 3}}),
        &Deadline::never(),
    )
    .unwrap();
    assert_eq!(m.auroc, Some(0.75));
    // DCG 2 + 1/2; ideal 2 + 1/log2(3)
    let ideal = 2.0 + 1.0 / 3f64.log2();
    assert!((m.ndcg_at_k.unwrap() - 2.5 / ideal).abs() < 1e-12);
}
