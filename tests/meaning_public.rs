//! The meaning guard on a public set of human-verified meaning changes
//! (issue 12): 146 edits of SummEdits' SAMSum domain
//! (`tests/data/meaning/summedits_samsum.jsonl`, CC BY 4.0; see the README
//! there). Each line is a seed summary (`original`) and an edit of it
//! (`edited`) that SummEdits' annotators judged inconsistent with the
//! dialogue the seed summarizes.
//!
//! Each edit is validated as a `direct_quote` against its seed summary with
//! the default configuration. The seed is consistent with the dialogue and
//! the edit is not, so the edit says something the seed does not: none
//! should be VALIDATED. The test asserts that, and, as a control, that
//! every seed quoted against itself is VALIDATED. It prints the share
//! refused overall, by SummEdits edit type, and for the edits within the
//! fuzzy matcher's default reach (at most 3 character edits, the ones only
//! the meaning guard stands against).
//!
//! `cargo test --release --test meaning_public -- --nocapture`

#![cfg(not(target_arch = "wasm32"))]

#[path = "meaning_common/levenshtein.rs"]
mod levenshtein;

use evidence_validator::host::FixedClock;
use evidence_validator::validate::validate_evidence;
use levenshtein::levenshtein;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const DATA: &str = include_str!("data/meaning/summedits_samsum.jsonl");
const PAIRS: usize = 146;
const SEEDS: usize = 17;

struct Edit {
    id: String,
    original: String,
    edited: String,
    edit_types: Vec<String>,
}

fn edits() -> Vec<Edit> {
    DATA.lines()
        .enumerate()
        .map(|(i, line)| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let text = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("line {}: no {k}", i + 1)).to_string();
            let edit_types = v["edit_types"]
                .as_array()
                .unwrap_or_else(|| panic!("line {}: no edit_types", i + 1))
                .iter()
                .map(|t| t.as_str().unwrap_or_default().to_string())
                .collect();
            Edit { id: text("id"), original: text("original"), edited: text("edited"), edit_types }
        })
        .collect()
}

/// `(validation_status, match_type)` of `quote` against `source`.
fn validate(source: &str, quote: &str) -> (String, String) {
    let claims = json!({ "source_metadata": { "format": "plain_text" }, "claims": [
        { "id": "EV001", "task_id": "P1.T001", "quote": quote, "evidence_type": "direct_quote" }
    ]});
    let report = validate_evidence(source, &claims, &json!({}), &FixedClock(0.0)).expect("valid input");
    let report = serde_json::to_value(report).expect("serializable");
    let claim = &report["validated_claims"][0];
    let status = claim["validation_status"].as_str().unwrap_or("?").to_string();
    (status, claim["match_details"]["match_type"].as_str().unwrap_or("none").to_string())
}

#[test]
fn the_sample_parses() {
    let edits = edits();
    assert_eq!(edits.len(), PAIRS);
    let ids: BTreeSet<&str> = edits.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), PAIRS, "ids are unique");
    let seeds: BTreeSet<&str> = edits.iter().map(|e| e.original.as_str()).collect();
    assert_eq!(seeds.len(), SEEDS);
    for e in &edits {
        assert_ne!(e.original, e.edited, "{}", e.id);
        assert!(e.id.starts_with("samsum_train_"), "{}", e.id);
    }
}

#[test]
fn human_verified_meaning_changes_are_refused() {
    let edits = edits();
    // the control: a seed summary quoted against itself
    let seeds: BTreeSet<&str> = edits.iter().map(|e| e.original.as_str()).collect();
    for seed in &seeds {
        let (status, _) = validate(seed, seed);
        assert_eq!(status, "VALIDATED", "the seed against itself: {seed:?}");
    }
    // bucket → (edits, refused)
    let mut table: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut leaks = Vec::new();
    let mut close = Vec::new();
    for e in &edits {
        let (status, kind) = validate(&e.original, &e.edited);
        let refused = status != "VALIDATED";
        let distance = levenshtein(&e.original, &e.edited);
        let mut buckets = vec!["all".to_string()];
        if distance <= 3 {
            buckets.push("within 3 character edits".to_string());
            close.push(format!("  {status} / {kind} ({distance} edits, {}): {:?}", e.id, e.edited));
        }
        if e.edit_types.is_empty() {
            buckets.push("type: (none given)".to_string());
        }
        buckets.extend(e.edit_types.iter().map(|t| format!("type: {t}")));
        for b in buckets {
            let row = table.entry(b).or_default();
            row.0 += 1;
            row.1 += usize::from(refused);
        }
        if !refused {
            leaks.push(format!(
                "  {} ({status} / {kind}, {distance} edits): {:?}\n    seed: {:?}",
                e.id, e.edited, e.original
            ));
        }
    }
    println!("| edits | n | refused | share refused |");
    println!("|---|---:|---:|---:|");
    for (bucket, (n, refused)) in &table {
        println!("| {bucket} | {n} | {refused} | {:.1} % |", 100.0 * *refused as f64 / *n as f64);
    }
    println!("edits within the fuzzy matcher's reach:\n{}", close.join("\n"));
    if !leaks.is_empty() {
        eprintln!("VALIDATED although the annotators found the meaning changed:\n{}", leaks.join("\n"));
    }
    assert!(leaks.is_empty(), "{} of {} human-verified meaning changes VALIDATED", leaks.len(), edits.len());
}
