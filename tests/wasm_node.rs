//! The core compiled to wasm32, run under Node by wasm-bindgen-test: replays
//! `tests/cases/validate_evidence.json` (as tests/validate_cases.rs does
//! natively) and checks that `contentHash` equals the value recorded in
//! `tests/cases/content_hash.json`, which tests/content_hash.rs checks
//! natively: wasm and native compute the same hash.
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --no-default-features --test wasm_node
//! ```
//! (no `-q`: it breaks the runner).
#![cfg(target_arch = "wasm32")]

mod common;

use evidence_validator::host::FixedClock;
use evidence_validator::validate_evidence;
use serde_json::Value;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn case_file_replays_in_wasm() {
    let cases = common::cases();
    assert!(cases.len() >= 4, "case file missing");
    let failures: Vec<String> = cases.iter().flat_map(common::replay).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[wasm_bindgen_test]
fn content_hash_in_wasm_equals_the_natively_recorded_value() {
    let file: Value =
        serde_json::from_str(include_str!("cases/content_hash.json")).expect("content_hash.json is not JSON");
    let entries = file["entries"].as_array().expect("content_hash.json has no entries");
    assert!(!entries.is_empty());
    let mut differ = Vec::new();
    for e in entries {
        let name = e["name"].as_str().unwrap_or("?");
        let report =
            validate_evidence(e["source"].as_str().unwrap_or(""), &e["claims"], &e["config"], &FixedClock(0.0))
                .unwrap_or_else(|err| panic!("[{name}] validate_evidence failed: {err}"));
        let want = e["contentHash"].as_str().unwrap_or("");
        if report.generated.content_hash != want {
            differ.push(format!("[{name}] recorded (native) {want}, wasm {}", report.generated.content_hash));
        }
    }
    assert!(
        differ.is_empty(),
        "wasm contentHash differs from tests/cases/content_hash.json (does `cargo test --test content_hash` pass natively?):\n{}",
        differ.join("\n")
    );
}

#[wasm_bindgen_test]
fn case_file_is_deterministic_in_wasm() {
    // Same input, same report, twice in one instance (no state leaks between runs).
    for case in common::cases() {
        let run = || {
            validate_evidence(case["source"].as_str().unwrap_or(""), &case["claims"], &case["config"], &FixedClock(0.0))
                .map(|r| r.to_json().to_string())
                .unwrap_or_else(|e| e.to_string())
        };
        assert_eq!(run(), run(), "[{}]", case["name"]);
    }
}
