//! The citation pipeline's commands (`numeric`, `metrics`, `cite`, spec
//! 004), driven as a user would: the built binary, files in a temporary
//! directory. The numeric cases are tests/cases/cite_numeric.json, which
//! the library's and the wasm build's tests replay too.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence-validator")).args(args).output().unwrap()
}

fn temp(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ev-cite-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

fn stdout_json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/cite_numeric.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

#[test]
fn numeric_replays_the_case_file() {
    let all = cases();
    assert!(all.len() >= 8);
    for (n, c) in all.iter().enumerate() {
        let name = c["name"].as_str().unwrap();
        let mut args =
            vec!["numeric", "--claim", c["claim"].as_str().unwrap(), "--evidence", c["evidence"].as_str().unwrap()];
        let config;
        if let Some(cfg) = c.get("config") {
            config = temp(&format!("numeric-config-{n}.json"), &cfg.to_string());
            args.extend(["--config", config.to_str().unwrap()]);
        }
        let o = run(&args);
        let r = stdout_json(&o);
        assert_eq!(r["verdict"], c["verdict"], "{name}: {r}");
        assert_eq!(r["match_score"].as_f64(), c["match_score"].as_f64(), "{name}: {r}");
        let expected_exit = if c["verdict"] == "SUPPORTED" { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(expected_exit), "{name}");
        for key in ["raw_value", "normalized_value", "unit", "entity", "time_period"] {
            assert!(r["claim"].get(key).is_some(), "{name}: claim.{key} missing: {r}");
        }
        if let Some(v) = c.get("claim_value") {
            assert_eq!(r["claim"]["normalized_value"].as_f64(), v.as_f64(), "{name}");
        }
        if let Some(u) = c.get("claim_unit") {
            assert_eq!(&r["claim"]["unit"], u, "{name}");
        }
        if let Some(u) = c.get("evidence_unit") {
            assert_eq!(&r["evidence"]["unit"], u, "{name}");
        }
        if let Some(m) = c.get("mismatch") {
            assert_eq!(&r["mismatches"][0]["field"], m, "{name}: {r}");
        }
    }
}

#[test]
fn numeric_without_a_number_is_bad_input() {
    let o = run(&["numeric", "--claim", "no number here", "--evidence", "42"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("VALIDATION_ERROR") && err.contains("$.claim"), "{err}");
}

#[test]
fn metrics_prints_the_parts_given() {
    let input = json!({
        "ranking": {"relevance": [[2, 0, 1], [0, 0, 1]], "k": 2},
        "binary": {"y_true": [0, 0, 1, 1], "y_score": [0.1, 0.4, 0.35, 0.8]},
        "classes": {"y_true": ["a", "a", "b"], "y_pred": ["a", "b", "b"]},
        "raters": {"a": [1, 1, 0, 0], "b": [1, 0, 0, 0]},
        "calibration": {"confidence": [0.2, 0.9], "correct": [0, 1], "bins": 2},
        "citations": {"predicted": [["s1"], ["s2", "s3"]], "gold": [["s1"], ["s3"]]}
    });
    let p = temp("metrics.json", &input.to_string());
    let o = run(&["metrics", "--input", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let r = stdout_json(&o);
    let f = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} missing: {r}"));
    // query 1: top 2 = [2, 0]: P 1/2, R 1/2; query 2: [0, 0]: P 0, R 0
    assert_eq!((f("precision_at_k"), f("recall_at_k")), (0.25, 0.25));
    // the classic example: pairs (0.35 > 0.1, 0.35 < 0.4, 0.8 > both) = 3/4
    assert_eq!(f("auroc"), 0.75);
    // tp 2 (s1, s3), fp 1 (s2), fn 0
    assert_eq!((f("citation_precision"), f("citation_recall")), (2.0 / 3.0, 1.0));
    // po 3/4, pe (2·1 + 2·3)/16 = 1/2 → κ = 1/2
    assert_eq!(f("cohen_kappa"), 0.5);
    // bins: 0.2 wrong → |0.2 − 0| · 1/2; 0.9 right → |0.9 − 1| · 1/2
    assert!((f("ece") - 0.15).abs() < 1e-12);
    for k in ["f1_at_k", "ndcg_at_k", "brier", "macro_f1", "citation_f1"] {
        f(k);
    }
    let p = temp("metrics-bad.json", r#"{"binary": {"y_true": [0, 1], "y_score": [0.1, "x"]}}"#);
    let o = run(&["metrics", "--input", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("$.binary.y_score[1]"));
}

#[test]
fn cite_runs_the_sample_and_its_toggles() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/cite-input.json");
    let o = run(&["cite", "--input", sample]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let r = stdout_json(&o);
    assert_eq!(r["relevance_method_used"], "keyword", "no embedder on the command line");
    assert_eq!(r["correction_method_used"], "keyword");
    let pool = r["evidence_pool"].as_array().unwrap();
    assert!(pool[0]["quote"].as_str().unwrap().starts_with("Acme Corp reported Q4 2024 revenues"));
    let claims = r["claims"].as_array().unwrap();
    assert_eq!(claims[0]["correction"]["action"], "REPLACE");
    assert_eq!(claims[0]["correction"]["citations_after"], json!(["earnings"]));
    assert_eq!(claims[0]["numeric"]["verdict"], "SUPPORTED");
    assert_eq!(claims[1]["confidence"]["level"], "HIGH");
    assert_eq!(claims[2]["numeric"]["verdict"], "CONTRADICTED");
    assert_eq!(claims[3]["correction"]["action"], "REMOVE");
    // every toggle off: the fallbacks
    let config = temp(
        "cite-off.json",
        r#"{"enable_evidence_preselection": false, "enable_confidence_classification": false, "enable_citation_correction": false, "enable_numeric_qa_verification": false}"#,
    );
    let o = run(&["cite", "--input", sample, "--config", config.to_str().unwrap()]);
    let r = stdout_json(&o);
    assert_eq!(r["evidence_pool"].as_array().unwrap().len(), 2, "one span per source");
    assert_eq!(r["relevance_method_used"], "none");
    for c in r["claims"].as_array().unwrap() {
        assert_eq!(c["confidence"]["level"], "LOW");
        assert_eq!(c["confidence"]["score"], 0.3);
        assert_eq!(c["correction"]["action"], "KEEP");
        if !c["numeric"].is_null() {
            assert_eq!(c["numeric"]["method"], "text");
        }
    }
    // bad input names its path
    let bad = temp(
        "cite-bad.json",
        r#"{"query": "q", "sources": [{"id": "a", "content": "x"}], "claims": [{"text": "t", "citations": ["b"]}]}"#,
    );
    let o = run(&["cite", "--input", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("$.claims[0].citations[0]"));
    let o = run(&[
        "cite",
        "--input",
        sample,
        "--config",
        temp("cite-cfg-bad.json", r#"{"enable_magic": true}"#).to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("CONFIGURATION_ERROR") && err.contains("$.enable_magic"), "{err}");
}
