//! Replays `tests/cases/validate_evidence.json` (spec 000 §5 and the
//! project's own cases) natively, and checks the span invariant on every
//! reported match.

#![cfg(not(target_arch = "wasm32"))]
mod common;

use evidence_validator::host::FixedClock;
use evidence_validator::validate_evidence;
use serde_json::Value;

fn spans_hold(source: &str, report: &Value) -> Result<(), String> {
    let mut matches: Vec<&Value> = Vec::new();
    for r in report["validated_claims"].as_array().into_iter().flatten() {
        matches.extend(r.get("match_details"));
        matches.extend(r["alternative_matches"].as_array().into_iter().flatten());
    }
    for f in report["failed_claims"].as_array().into_iter().flatten() {
        matches.extend(f["attempted_matches"].as_array().into_iter().flatten());
    }
    let edits: Vec<&Value> =
        matches.iter().filter_map(|m| m.get("edits")).flat_map(|e| e.as_array().into_iter().flatten()).collect();
    matches.extend(edits);
    let utf16: Vec<u16> = source.encode_utf16().collect();
    let chars: Vec<char> = source.chars().collect();
    for m in matches {
        // an edit's `source` is the source text at its span
        let text = m
            .get("matched_text")
            .or_else(|| m.get("candidate_text"))
            .or_else(|| m.get("source"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let n = |k: &str| m[k].as_u64().unwrap_or(u64::MAX) as usize;
        let by_bytes = source.get(n("byte_start")..n("byte_end"));
        let by_chars: String =
            chars.get(n("start_position")..n("end_position")).map(|c| c.iter().collect()).unwrap_or_default();
        let by_utf16 = utf16.get(n("utf16_start")..n("utf16_end")).and_then(|u| String::from_utf16(u).ok());
        if by_bytes != Some(text) || by_chars != text || by_utf16.as_deref() != Some(text) {
            return Err(format!("span does not hold for {m}"));
        }
    }
    Ok(())
}

#[test]
fn case_file_replays_natively() {
    let cases = common::cases();
    assert!(cases.len() >= 4, "case file missing");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let source = case["source"].as_str().unwrap_or("");
        let report = validate_evidence(source, &case["claims"], &case["config"], &FixedClock(0.0))
            .map(|r| r.to_json())
            .unwrap_or_else(|e| serde_json::json!({"error": e.to_string()}));
        for expect in case["expect"].as_array().into_iter().flatten() {
            if let Err(e) = common::check(&report, expect) {
                failures.push(format!("[{name}] {e}"));
            }
        }
        if let Err(e) = spans_hold(source, &report) {
            failures.push(format!("[{name}] {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
