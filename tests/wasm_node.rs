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

/// Every span of a report points at its text in bytes, code points and UTF-16.
fn spans_hold(source: &str, report: &Value) -> Result<(), String> {
    let mut matches: Vec<&Value> = Vec::new();
    for r in report["validated_claims"].as_array().into_iter().flatten() {
        matches.extend(r.get("match_details"));
        matches.extend(r["alternative_matches"].as_array().into_iter().flatten());
    }
    for f in report["failed_claims"].as_array().into_iter().flatten() {
        matches.extend(f["attempted_matches"].as_array().into_iter().flatten());
    }
    let utf16: Vec<u16> = source.encode_utf16().collect();
    let chars: Vec<char> = source.chars().collect();
    for m in matches {
        let text = m.get("matched_text").or_else(|| m.get("candidate_text")).and_then(Value::as_str).unwrap_or("");
        let n = |k: &str| m[k].as_u64().unwrap_or(u64::MAX) as usize;
        let by_bytes = source.get(n("byte_start")..n("byte_end"));
        let by_chars: Option<String> = chars.get(n("start_position")..n("end_position")).map(|c| c.iter().collect());
        let by_utf16 = utf16.get(n("utf16_start")..n("utf16_end")).and_then(|u| String::from_utf16(u).ok());
        if by_bytes != Some(text) || by_chars.as_deref() != Some(text) || by_utf16.as_deref() != Some(text) {
            return Err(format!("span does not hold for {m}"));
        }
    }
    Ok(())
}

/// The failures of one case, each prefixed with its name.
fn replay(case: &Value) -> Vec<String> {
    let name = case["name"].as_str().unwrap_or("?");
    let source = case["source"].as_str().unwrap_or("");
    let report = validate_evidence(source, &case["claims"], &case["config"], &FixedClock(0.0))
        .map(|r| r.to_json())
        .unwrap_or_else(|e| serde_json::json!({"error": e.to_string()}));
    let mut failures: Vec<String> = case["expect"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|expect| common::check(&report, expect).err())
        .collect();
    failures.extend(spans_hold(source, &report).err());
    failures.into_iter().map(|f| format!("[{name}] {f}")).collect()
}

#[wasm_bindgen_test]
fn case_file_replays_in_wasm() {
    let cases = common::cases();
    assert!(cases.len() >= 4, "case file missing");
    let mut failures = Vec::new();
    for case in &cases {
        failures.extend(replay(case));
    }
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
