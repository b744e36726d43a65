//! Replays `tests/cases/validate_evidence.json` (spec 000 §5 and the
//! project's own cases) natively, and checks the span invariant on every
//! reported match.

#![cfg(not(target_arch = "wasm32"))]
mod common;

#[test]
fn case_file_replays_natively() {
    let cases = common::cases();
    assert!(cases.len() >= 4, "case file missing");
    let failures: Vec<String> = cases.iter().flat_map(common::replay).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
