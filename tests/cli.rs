//! The native CLI, driven as a user would: the built binary in a temporary
//! directory.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ev-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, content).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence-validator")).args(args).output().unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

const CLAIM_OK: &str = r#"{"claims": [{"id": "EV001", "task_id": "P1.T001", "quote": "implement user authentication", "evidence_type": "direct_quote"}]}"#;
const SOURCE: &str = "# Requirements\nThe system must implement user authentication with OAuth 2.0.\n";

/// Runs `validate` on files and expects exit code 2 with one stderr line
/// naming `code` and `fragment`.
fn expect_bad_input(dir: &TempDir, source: &[u8], claims: &str, config: Option<&str>, code: &str, fragment: &str) {
    let s = dir.write("source.md", source);
    let e = dir.write("claims.json", claims);
    let mut args = vec!["validate", "--source", path(&s), "--evidence", path(&e)];
    let cfg;
    if let Some(c) = config {
        cfg = dir.write("config.json", c);
        args.extend(["--config", path(&cfg)]);
    }
    let out = run(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line expected: {stderr}");
    assert!(stderr.contains(code) && stderr.contains(fragment), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bundled_sample_runs_without_arguments() {
    let out = run(&["validate"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(report["validation_summary"]["total_claims"], 10);
    assert_eq!(report["validated_claims"].as_array().unwrap().len(), 10);
    let hash = report["generated"]["contentHash"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
}

#[test]
fn writes_output_file_and_strict_exit_codes() {
    let dir = TempDir::new("output");
    let s = dir.write("source.md", SOURCE);
    let e = dir.write("claims.json", CLAIM_OK);
    let o = dir.0.join("report.json");
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e), "--output", path(&o), "--strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&o).unwrap()).unwrap();
    assert_eq!(report["validated_claims"][0]["validation_status"], "VALIDATED");

    let e = dir
        .write("claims.json", CLAIM_OK.replace("implement user authentication", "implement user authorization checks"));
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e), "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_ne!(report["validated_claims"][0]["validation_status"], "VALIDATED");
    // without --strict the same input is not an error
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn verbose_prints_one_line_per_claim() {
    let out = run(&["validate", "--verbose"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for id in ["EV001", "EV005", "EV010"] {
        assert!(stderr.lines().any(|l| l.starts_with(id)), "{stderr}");
    }
}

#[test]
fn validation_errors_name_the_path() {
    let dir = TempDir::new("validation");
    let bad = CLAIM_OK.replace("EV001", "E-1");
    expect_bad_input(&dir, SOURCE.as_bytes(), &bad, None, "VALIDATION_ERROR", "$.claims[0].id");
    let short = CLAIM_OK.replace("implement user authentication", "short");
    expect_bad_input(&dir, SOURCE.as_bytes(), &short, None, "VALIDATION_ERROR", "$.claims[0].quote");
    expect_bad_input(&dir, SOURCE.as_bytes(), "{\"claims\": [", None, "VALIDATION_ERROR", "not valid JSON");
    let big = "x".repeat(2 * 1024 * 1024);
    expect_bad_input(
        &dir,
        big.as_bytes(),
        CLAIM_OK,
        Some(r#"{"performance_limits": {"max_document_size_mb": 1}}"#),
        "VALIDATION_ERROR",
        "max_document_size_mb",
    );
}

#[test]
fn configuration_errors_name_the_key() {
    let dir = TempDir::new("config");
    expect_bad_input(
        &dir,
        SOURCE.as_bytes(),
        CLAIM_OK,
        Some(r#"{"fuzzy_matching": {"treshold": 0.9}}"#),
        "CONFIGURATION_ERROR",
        "$.fuzzy_matching.treshold",
    );
    expect_bad_input(
        &dir,
        SOURCE.as_bytes(),
        CLAIM_OK,
        Some(r#"{"semantic_matching": {"similarity_threshold": 2}}"#),
        "CONFIGURATION_ERROR",
        "similarity_threshold",
    );
}

#[test]
fn document_parsing_errors() {
    let dir = TempDir::new("parsing");
    expect_bad_input(&dir, b"text\x00more", CLAIM_OK, None, "DOCUMENT_PARSING_ERROR", "NUL byte at byte offset 4");
    expect_bad_input(&dir, b"caf\xe9 latin-1", CLAIM_OK, None, "DOCUMENT_PARSING_ERROR", "offset 3");
    let s = dir.write("claims.json", CLAIM_OK);
    let out = run(&["validate", "--source", "/nonexistent/source.md", "--evidence", path(&s)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/source.md"));
}

#[test]
fn time_budget_reports_processing_error_without_losing_claims() {
    let dir = TempDir::new("time");
    let s = dir.write("source.md", SOURCE);
    let claims = r#"{"claims": [
        {"id": "EV001", "task_id": "P1.T001", "quote": "implement user authentication", "evidence_type": "direct_quote"},
        {"id": "EV002", "task_id": "P1.T002", "quote": "with OAuth 2.0 tokens", "evidence_type": "direct_quote"}]}"#;
    let e = dir.write("claims.json", claims);
    let c = dir.write("config.json", r#"{"performance_limits": {"max_processing_time_seconds": 1e-9}}"#);
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e), "--config", path(&c), "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["errors"][0]["code"], "PROCESSING_ERROR");
    let processed: Vec<&str> =
        report["validated_claims"].as_array().unwrap().iter().map(|r| r["claim_id"].as_str().unwrap()).collect();
    let affected: Vec<&str> =
        report["errors"][0]["affected_claims"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let mut all: Vec<&str> = processed.iter().chain(&affected).copied().collect();
    all.sort();
    assert_eq!(all, ["EV001", "EV002"]);
}

#[test]
fn find_prints_spans() {
    let dir = TempDir::new("find");
    let s = dir.write("notes.txt", "Launch 🚀 on “Monday”.\nLaunch 🚀 on “Monday” again.");
    let out = run(&["find", "--source", path(&s), "launch 🚀 on \"monday\""]);
    assert_eq!(out.status.code(), Some(0));
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = found.as_array().unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(found[1]["line_number"], 2);
    assert_eq!(found[1]["matched_text"], "Launch 🚀 on “Monday”");
    // "Launch 🚀 on “Monday”.\n" is 22 code points and 23 UTF-16 units
    assert_eq!(found[1]["start_position"], 22);
    assert_eq!(found[1]["utf16_start"], 23);
    let out = run(&["find", "--source", path(&s), "nothing like this"]);
    assert_eq!(out.status.code(), Some(1));
}
