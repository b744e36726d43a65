//! `contentHash` computed natively equals the value recorded in
//! `tests/cases/content_hash.json`. The wasm build is checked against the same
//! recorded values (tests/wasm_node.rs, and tests/js/ through the npm
//! package), so native and wasm agree without either side computing the
//! other's value. This test writes nothing.
//!
//! Regenerating, after a deliberate change of results or scores: run
//! `cargo test --test content_hash`; the failure lists, for each entry whose
//! hash changed, the entry's name and the new value. Paste each value into the
//! `contentHash` field of that entry, then run the wasm tests to confirm wasm
//! computes the same.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::host::FixedClock;
use evidence_validator::validate_evidence;
use serde_json::Value;

fn entries() -> Vec<Value> {
    let text = include_str!("cases/content_hash.json");
    let file: Value = serde_json::from_str(text).expect("tests/cases/content_hash.json is not valid JSON");
    file["entries"].as_array().cloned().expect("tests/cases/content_hash.json has no `entries` array")
}

#[test]
fn native_content_hash_equals_the_recorded_value() {
    let entries = entries();
    assert!(!entries.is_empty(), "no entries in tests/cases/content_hash.json");
    let mut changed = Vec::new();
    for e in &entries {
        let name = e["name"].as_str().unwrap_or("?");
        let source = e["source"].as_str().unwrap_or_else(|| panic!("[{name}] no source"));
        let report = validate_evidence(source, &e["claims"], &e["config"], &FixedClock(0.0))
            .unwrap_or_else(|err| panic!("[{name}] validate_evidence failed: {err}"));
        assert!(report.ok, "[{name}] the report is not ok: {:?}", report.errors);
        let want = e["contentHash"].as_str().unwrap_or("");
        if report.generated.content_hash != want {
            changed.push(format!("  {name:?}\n    recorded: {want}\n    native:   {}", report.generated.content_hash));
        }
    }
    assert!(
        changed.is_empty(),
        "contentHash differs from tests/cases/content_hash.json; if the change of results is deliberate, \
         paste the native values into the file:\n{}",
        changed.join("\n")
    );
}

#[test]
fn the_clock_does_not_enter_the_hash() {
    for e in entries() {
        let hash = |ms: f64| {
            validate_evidence(e["source"].as_str().unwrap_or(""), &e["claims"], &e["config"], &FixedClock(ms))
                .map(|r| r.generated.content_hash)
                .unwrap_or_default()
        };
        assert_eq!(hash(0.0), hash(1_709_210_096_789.0), "[{}]", e["name"]);
    }
}
