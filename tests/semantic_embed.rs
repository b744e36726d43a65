//! Semantic matching through a host embedding model (issue 12 item 6),
//! with a scripted embedder: each text becomes counts of concepts from a
//! small synonym table, so a paraphrase in other words lands on the
//! sentence it restates and nowhere else. Also: without an embedder a
//! shuffled sentence is not a paraphrase; a semantic match never validates
//! a direct quote; a failing embedder is a PROCESSING_ERROR that loses no
//! claim.

#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::host::FixedClock;
use evidence_validator::validate::{validate_evidence_with, Embedder};
use serde_json::{json, Value};
use std::cell::Cell;

/// Words of the same concept share one dimension.
const CONCEPTS: &[&[&str]] = &[
    &["company", "firm", "business"],
    &["purchased", "bought", "acquired"],
    &["three", "3"],
    &["cars", "automobiles", "vehicles"],
    &["march", "spring"],
    &["warehouse", "depot"],
    &["flooded", "inundated", "submerged"],
    &["storm", "hurricane"],
    &["staff", "employees", "workers"],
    &["moved", "relocated"],
];

struct Scripted {
    calls: Cell<usize>,
}

impl Embedder for Scripted {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        self.calls.set(self.calls.get() + 1);
        Ok(texts
            .iter()
            .map(|t| {
                let mut v = vec![0.0f32; CONCEPTS.len() + 1];
                for w in t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                    let w = w.to_lowercase();
                    match CONCEPTS.iter().position(|c| c.contains(&w.as_str())) {
                        Some(i) => v[i] += 1.0,
                        None => v[CONCEPTS.len()] += 0.05,
                    }
                }
                v
            })
            .collect())
    }
}

const SOURCE: &str = "Quarterly notes.\n\nThe company purchased three cars in March. \
Later that year the warehouse flooded during the storm, and the staff moved to the old office.\n";

fn claim(id: &str, quote: &str, kind: &str) -> Value {
    json!({ "id": id, "task_id": "P1.T001", "quote": quote, "evidence_type": kind, "confidence_threshold": 0.8 })
}

fn run(claims: Vec<Value>, embedder: Option<&dyn Embedder>) -> Value {
    let report = validate_evidence_with(
        SOURCE,
        &json!({ "claims": claims }),
        &json!({"semantic_matching": {"chunk_size": 60, "overlap_size": 20}}),
        &FixedClock(0.0),
        embedder,
    )
    .expect("valid input");
    serde_json::to_value(report).expect("serializable")
}

#[test]
fn a_paraphrase_is_found_through_the_embedder() {
    let embedder = Scripted { calls: Cell::new(0) };
    let report = run(vec![claim("EV001", "the firm bought 3 automobiles", "paraphrase")], Some(&embedder));
    let r = &report["validated_claims"][0];
    assert_eq!(r["validation_status"], "VALIDATED", "{report:#}");
    let m = &r["match_details"];
    assert_eq!(m["match_type"], "semantic");
    assert_eq!(m["semantic_method"], "embedding");
    let text = m["matched_text"].as_str().unwrap_or("");
    assert!(text.contains("purchased three cars"), "{text:?}");
    assert_eq!(
        &SOURCE[m["byte_start"].as_u64().unwrap_or(0) as usize..m["byte_end"].as_u64().unwrap_or(0) as usize],
        text
    );
    assert_eq!(embedder.calls.get(), 1, "chunks and quotes are embedded in one call");
}

#[test]
fn without_an_embedder_the_paraphrase_in_other_words_is_not_found() {
    let report = run(vec![claim("EV001", "the firm bought 3 automobiles", "paraphrase")], None);
    assert_ne!(report["validated_claims"][0]["validation_status"], "VALIDATED", "{report:#}");
}

#[test]
fn a_shuffled_sentence_is_not_a_lexical_paraphrase() {
    let salad = "office the old to moved staff the and storm the during flooded warehouse the";
    let report = run(vec![claim("EV001", salad, "paraphrase")], None);
    let r = &report["validated_claims"][0];
    assert_ne!(r["validation_status"], "VALIDATED", "{report:#}");
    // the same words in the source's order are one
    let ordered = "the warehouse flooded during the storm and the staff moved to the old office";
    let report = run(vec![claim("EV001", ordered, "paraphrase")], None);
    let r = &report["validated_claims"][0];
    assert_eq!(r["validation_status"], "VALIDATED", "{report:#}");
}

#[test]
fn a_semantic_match_never_validates_a_direct_quote() {
    let embedder = Scripted { calls: Cell::new(0) };
    let report = run(vec![claim("EV001", "the firm bought 3 automobiles", "direct_quote")], Some(&embedder));
    assert_eq!(report["validated_claims"][0]["validation_status"], "FAILED", "{report:#}");
    assert_eq!(embedder.calls.get(), 0, "nothing to embed for a direct quote");
}

#[test]
fn a_failing_embedder_is_an_error_and_no_claim_is_lost() {
    let fails = |_: &[&str]| -> Result<Vec<Vec<f32>>, String> { Err("model offline".into()) };
    let report = run(
        vec![
            claim("EV001", "the firm bought 3 automobiles", "paraphrase"),
            claim("EV002", "the warehouse flooded", "direct_quote"),
        ],
        Some(&fails),
    );
    assert_eq!(report["ok"], false);
    assert_eq!(report["errors"][0]["code"], "PROCESSING_ERROR", "{report:#}");
    assert!(report["errors"][0]["message"].as_str().unwrap_or("").contains("model offline"));
    assert_eq!(report["errors"][0]["affected_claims"], json!(["EV001"]));
    assert_eq!(report["validated_claims"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["validated_claims"][1]["validation_status"], "VALIDATED");
}
