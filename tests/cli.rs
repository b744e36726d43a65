//! The native CLI, driven as a user would: the built binary in a temporary
//! directory.
#![cfg(not(target_arch = "wasm32"))]

mod cli_common;

use cli_common::{path, run, TempDir};
use serde_json::Value;
use std::process::{Command, Output};

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
        // refused while reading, before the library sees it (issue 13)
        "DOCUMENT_PARSING_ERROR",
        "larger than max_document_size_mb (1 MB",
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
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (result["total"].as_u64(), result["omitted"].as_u64(), result["complete"].as_bool()),
        (Some(2), Some(0), Some(true))
    );
    let found = result["matches"].as_array().unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(found[1]["line_number"], 2);
    assert_eq!(found[1]["matched_text"], "Launch 🚀 on “Monday”");
    // "Launch 🚀 on “Monday”.\n" is 22 code points and 23 UTF-16 units
    assert_eq!(found[1]["start_position"], 22);
    assert_eq!(found[1]["utf16_start"], 23);
    let out = run(&["find", "--source", path(&s), "nothing like this"]);
    assert_eq!(out.status.code(), Some(1));
    // one match printed, the other counted; the bounds are the library's
    let out = run(&["find", "--max-results", "1", "--source", path(&s), "launch 🚀 on \"monday\""]);
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((result["matches"].as_array().unwrap().len(), result["omitted"].as_u64()), (1, Some(1)));
    let out = run(&["find", "--max-edit-distance", "2001", "--source", path(&s), "launch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("maxEditDistance"));
}

#[test]
fn duplicate_keys_and_unknown_fields_in_the_evidence_file() {
    let dir = TempDir::new("dupes");
    let s = dir.write("doc.md", "# Intro\nThe deploy finished without errors today.\n");
    let quote = "The deploy finished without errors today.";
    let dup = format!(
        r#"{{"claims": [{{"id": "EV001", "task_id": "P1.T001", "quote": "{quote}", "quote": "other text here", "evidence_type": "direct_quote"}}]}}"#
    );
    let e = dir.write("dup.json", &dup);
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("$.claims[0].quote"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let typo = format!(
        "\u{feff}{}",
        serde_json::json!({"claims": [{"id": "EV001", "task_id": "P1.T001", "quote": quote,
            "evidence_type": "direct_quote", "expected_sectoin": "Intro"}]})
    );
    let e = dir.write("typo.json", &typo);
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(0), "a BOM is skipped: {}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = report["warnings"].as_array().unwrap();
    assert!(warnings.iter().any(|w| w["code"] == "UNKNOWN_FIELDS"), "{warnings:?}");
}

/// Runs the binary with its stdout already closed by the reader (what `| head
/// -c0` does): the output written meets a broken pipe.
fn run_stdout_closed(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evidence-validator"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before anything is written
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_quietly_in_every_subcommand() {
    let dir = TempDir::new("pipe");
    let s = dir.write("source.md", SOURCE);
    let e = dir.write("claims.json", CLAIM_OK);
    let t = dir.write(
        "talk.srt",
        "1\n00:00:00,000 --> 00:00:09,000\nI walked to the old mill by the river every single morning that summer.\n",
    );
    let items =
        dir.write("items.json", r#"[{"evidence_quote": "to the old mill by the river", "evidence_timestamp": 1}]"#);
    let evaluation = dir.write(
        "evaluation.json",
        r#"{"commendations": [{"evidence_quote": "to the old mill by the river", "evidence_timestamp": 1}], "recommendations": []}"#,
    );
    let report = dir.write("report.md", "# Report\nNo citations here.\n");
    let out_dir = dir.0.join("out").display().to_string();
    let log_dir = dir.0.join("logs").display().to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec!["validate"],
        vec!["validate", "--source", path(&s), "--evidence", path(&e)],
        vec!["validate", "--source", path(&s), "--evidence", path(&e), "--verbose"],
        vec!["find", "--source", path(&s), "user authentication"],
        vec!["transcript", "--transcript", path(&t), "--items", path(&items)],
        vec!["transcript", "--transcript", path(&t), "--items", path(&items), "--json"],
        vec!["transcript", "--transcript", path(&t), "--evaluation", path(&evaluation)],
        vec![
            "verify-report",
            path(&report),
            "--canonical-dir",
            path(&dir.0),
            "--no-env-judges",
            "--output-dir",
            out_dir.as_str(),
            "--log-dir",
            log_dir.as_str(),
        ],
        vec!["--help"],
    ];
    for args in &cases {
        let out = run_stdout_closed(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {:?} {stderr}", out.status);
    }
    // a later run with a reader still works and prints the whole report
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["validated_claims"][0]["validation_status"], "VALIDATED");
}

#[test]
fn an_endless_source_is_refused_at_its_size_limit() {
    let dir = TempDir::new("zero");
    let e = dir.write("claims.json", CLAIM_OK);
    let started = std::time::Instant::now();
    let out = run(&["validate", "--source", "/dev/zero", "--evidence", path(&e)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("DOCUMENT_PARSING_ERROR")
            && stderr.contains("/dev/zero")
            && stderr.contains("max_document_size_mb (50 MB"),
        "{stderr}"
    );
    assert!(started.elapsed().as_secs() < 20, "took {:?}", started.elapsed());
    let out = run(&["find", "--source", "/dev/zero", "anything"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("DOCUMENT_PARSING_ERROR") && stderr.contains("/dev/zero"), "{stderr}");

    // The configuration's max_document_size_mb is the bound: 1 MB + 1 byte is refused, 1 MB is read.
    let c = dir.write("config.json", r#"{"performance_limits": {"max_document_size_mb": 1}}"#);
    let mut big = SOURCE.as_bytes().to_vec();
    big.resize(1024 * 1024 + 1, b' ');
    let s = dir.write("big.md", &big);
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e), "--config", path(&c)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("DOCUMENT_PARSING_ERROR") && stderr.contains("big.md") && stderr.contains("1048576 bytes"),
        "{stderr}"
    );
    big.truncate(1024 * 1024);
    let s = dir.write("big.md", &big);
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e), "--config", path(&c)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["validated_claims"][0]["validation_status"], "VALIDATED");
}

#[test]
fn endless_evidence_config_and_transcript_files_are_refused() {
    let dir = TempDir::new("zero-inputs");
    let s = dir.write("source.md", SOURCE);
    let e = dir.write("claims.json", CLAIM_OK);
    let items = dir.write("items.json", "[]");
    let t = dir.write("talk.srt", "1\n00:00:00,000 --> 00:00:09,000\nI walked to the old mill.\n");
    for args in [
        vec!["validate", "--source", path(&s), "--evidence", "/dev/zero"],
        vec!["validate", "--source", path(&s), "--evidence", path(&e), "--config", "/dev/zero"],
        vec!["transcript", "--transcript", "/dev/zero", "--items", path(&items)],
        vec!["transcript", "--transcript", path(&t), "--items", "/dev/zero"],
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("DOCUMENT_PARSING_ERROR")
                && stderr.contains("/dev/zero")
                && stderr.contains("the input file limit (64 MB"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn reanchor_reads_saved_selectors_and_prints_each_status() {
    let dir = TempDir::new("reanchor");
    let original = "First.\n\nThe quarterly report shows steady growth in sales.\n\nLast.";
    let s = dir.write("source.md", original);
    let e = dir.write(
        "claims.json",
        r#"{"claims": [{"id": "EV001", "task_id": "P1.T001", "quote": "quarterly report shows steady growth", "evidence_type": "direct_quote"},
        {"id": "EV002", "task_id": "P1.T001", "quote": "growth in sales", "evidence_type": "direct_quote"}]}"#,
    );
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let saved: Vec<Value> = report["validated_claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| serde_json::json!({"id": r["claim_id"], "selectors": r["match_details"]["selectors"]}))
        .collect();
    let f = dir.write("selectors.json", serde_json::to_string(&saved).unwrap());
    let edited_text = format!("Inserted 😀 line.\n{}", original.replace("in sales", "in revenue"));
    let edited = dir.write("edited.md", &edited_text);
    let out = run(&["reanchor", "--source", path(&edited), "--selectors", path(&f)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let found: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(found[0]["status"], "moved");
    let at = edited_text.find("quarterly").unwrap();
    assert_eq!(found[0]["span"]["start_position"], edited_text[..at].chars().count());
    assert_eq!(found[1]["status"], "orphaned");
    assert_eq!(found[1]["span"], Value::Null);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("EV001 moved") && stderr.contains("EV002 orphaned"), "{stderr}");
    // a bad file names the JSON path
    let bad = dir.write("bad.json", r#"[{"id": "a", "selectors": [{"type": "TextQuoteSelector"}]}]"#);
    let out = run(&["reanchor", "--source", path(&edited), "--selectors", path(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("VALIDATION_ERROR") && stderr.contains("$[0].selectors[0]"), "{stderr}");
}
