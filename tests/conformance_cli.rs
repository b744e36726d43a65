//! Spec 000 §1.2 and §2.2 at the command line (issue 15): the spec's form
//! without a subcommand, and the report written for bad input. The built
//! binary in a temporary directory, as a user runs it.
#![cfg(not(target_arch = "wasm32"))]

mod cli_common;

use cli_common::{path, run, TempDir};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Spec 000 §5.1's document and claim.
const SOURCE: &str = "\n    # Project Requirements\n    \n    The system must implement user authentication with OAuth 2.0 protocol.\n    All API endpoints should return JSON responses with appropriate status codes.\n    The database schema must support user roles and permissions.\n    ";
const CLAIMS: &str = r#"{"claims": [{"id": "EV001", "task_id": "P1.T001", "quote": "implement user authentication with OAuth 2.0 protocol", "evidence_type": "direct_quote", "confidence_threshold": 0.8}]}"#;

fn report(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// §1.2 as written: `--source … --evidence … --output … --config … --verbose`.
#[test]
fn the_spec_command_line_without_a_subcommand() {
    let dir = TempDir::new("form");
    let s = dir.write("source_document.md", SOURCE);
    let e = dir.write("evidence_claims.json", CLAIMS);
    let c =
        dir.write("validation_config.json", r#"{"validation_config": {"fuzzy_matching": {"max_edit_distance": 2}}}"#);
    let o = dir.0.join("evidence_validation.json");
    let out =
        run(&["--source", path(&s), "--evidence", path(&e), "--output", path(&o), "--config", path(&c), "--verbose"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("EV001 Validated 1.000")), "{stderr}");
    let r = report(&o);
    assert_eq!(r["ok"], true);
    assert_eq!(r["validated_claims"][0]["validation_status"], "VALIDATED");
    assert_eq!(r["validated_claims"][0]["match_details"]["line_number"], 4);
    // the same run through the subcommand gives the same results
    let o2 = dir.0.join("again.json");
    let out =
        run(&["validate", "--source", path(&s), "--evidence", path(&e), "--output", path(&o2), "--config", path(&c)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(r["generated"]["contentHash"], report(&o2)["generated"]["contentHash"]);
}

/// §2.2: bad input with `--output` writes a report with `ok: false` and the
/// error (code, message, JSON path); the exit code is still 2 with one line
/// on stderr, and stdout stays empty.
#[test]
fn bad_input_writes_an_error_report() {
    let dir = TempDir::new("errors");
    let s = dir.write("source.md", SOURCE);
    let cases = [
        (CLAIMS.replace("EV001", "E-1"), None, "VALIDATION_ERROR", "$.claims[0].id"),
        (CLAIMS.replace("\"P1.T001\"", "\"T1\""), None, "VALIDATION_ERROR", "$.claims[0].task_id"),
        (
            CLAIMS.to_string(),
            Some(r#"{"fuzzy_matching": {"similarity_threshold": 2}}"#),
            "CONFIGURATION_ERROR",
            "fuzzy_matching.similarity_threshold",
        ),
    ];
    for (i, (claims, config, code, at)) in cases.iter().enumerate() {
        let e = dir.write(&format!("claims{i}.json"), claims);
        let o = dir.0.join(format!("report{i}.json"));
        let mut args = vec!["--source", path(&s), "--evidence", path(&e), "--output", path(&o)];
        let cfg;
        if let Some(c) = config {
            cfg = dir.write(&format!("config{i}.json"), c);
            args.extend(["--config", path(&cfg)]);
        }
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
        let r = report(&o);
        assert_eq!(r["ok"], false, "{r}");
        let err = &r["errors"][0];
        assert_eq!(err["code"], *code, "{r}");
        assert!(err["message"].as_str().unwrap().contains(at) || err["details"].to_string().contains(at), "{r}");
        assert!(stderr.contains(code), "{stderr}");
        assert_eq!(r["validation_summary"]["total_claims"], 0);
        assert_eq!(r["generated"]["contentHash"].as_str().unwrap().len(), 64);
    }
    // without --output nothing is written anywhere but the stderr line
    let e = dir.write("bad.json", CLAIMS.replace("EV001", "E-1"));
    let out = run(&["validate", "--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// Spec 003 §4, the manual smoke test, run through `finding validate` and
/// `finding verify`: its three citation-laundering attacks, printed as the
/// spec's script prints them, must give the spec's "Expected Output".
#[test]
fn the_spec_003_smoke_test_through_the_cli() {
    let dir = TempDir::new("smoke");
    let base = |span: &str| {
        serde_json::json!({
            "category": "market_intelligence",
            "title": "Fake Market Size",
            "content": "Market size is $500M annually",
            "source_url": "https://example.com/market-report",
            "extracted_at": "2026-11-25T12:00:00+00:00",
            "extraction_span": span,
            "relevance_score": 8,
            "recency_score": 9,
            "trust_score": 2
        })
    };
    let mut attack1 = base("");
    attack1["extraction_span_hash"] = "fake".into(); // Finding(...): the hash as given
    let attack2 = base("$500M"); // Finding.create_with_hash(...)
    let attack3 = base("The market is estimated at $500 million annually");
    let a1 = dir.write("attack1.json", attack1.to_string());
    let a2 = dir.write("attack2.json", attack2.to_string());
    let a3 = dir.write("attack3.json", attack3.to_string());
    let source = dir.write("source.html", "This page has nothing about market size.");

    let mut printed = String::from("=== Smoke Test: Citation Laundering Attack ===\n\n");
    let outcome = |args: &[&str]| {
        let out = run(args);
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(if r["valid"] == true { 0 } else { 1 }), "{r}");
        if r["valid"] == true {
            "  ❌ FAILED: Attack succeeded (finding accepted)\n".to_string()
        } else {
            format!("  ✅ BLOCKED: {}\n", r["reason"].as_str().unwrap())
        }
    };
    printed.push_str("[Attack 1] Missing extraction_span\n");
    printed.push_str(&outcome(&["finding", "validate", path(&a1)]));
    printed.push_str("\n[Attack 2] Too-short extraction_span\n");
    printed.push_str(&outcome(&["finding", "validate", path(&a2)]));
    printed.push_str("\n[Attack 3] Fabricated quote (not in source)\n");
    printed.push_str(&outcome(&["finding", "verify", path(&a3), "--source", path(&source)]));
    printed.push_str("\n=== Smoke Test Complete ===\n");

    // the spec's "Expected Output", with its mis-encoded ✅ restored
    let expected = "=== Smoke Test: Citation Laundering Attack ===

[Attack 1] Missing extraction_span
  ✅ BLOCKED: Finding must have extraction_span (cannot be None or empty)

[Attack 2] Too-short extraction_span
  ✅ BLOCKED: extraction_span too short: 5 chars (min 20)

[Attack 3] Fabricated quote (not in source)
  ✅ BLOCKED: extraction_span not found in source content

=== Smoke Test Complete ===
";
    assert_eq!(printed, expected);
}

/// `finding hash` is `Finding._compute_hash`; `finding verify` accepts the
/// spec's valid finding; a file that is no finding is bad input (exit 2).
#[test]
fn finding_hash_verify_and_bad_input() {
    let dir = TempDir::new("finding");
    // sha256("a b"), computed independently (Python hashlib)
    let out = run(&["finding", "hash", "  a \n\t b  "]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "c8687a08aa5d6ed2044328fa6a697ab8e96dc34291e8c2034ae8c38e6fcc6d65"
    );
    let f = serde_json::json!({
        "category": "market_intelligence", "title": "GitHub Growth",
        "content": "File organization tools show strong growth", "source_url": "https://example.com/test",
        "extracted_at": "2026-11-25T12:00:00",
        "extraction_span": "File organization tools on GitHub show 15-20% annual growth in stars",
        "relevance_score": 8, "recency_score": 9, "trust_score": 2
    });
    let fp = dir.write("finding.json", f.to_string());
    let src = dir.write("source.txt", "\n        This is a test document about file organization.\n        File organization tools on GitHub show 15-20% annual growth in stars.\n        The market for productivity tools continues to expand.\n        ");
    let out = run(&["finding", "verify", path(&fp), "--source", path(&src)]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!(r, serde_json::json!({"valid": true, "reason": "All checks passed", "confidence": 1.0}));
    let bad = dir.write("bad.json", r#"{"category": 5}"#);
    let out = run(&["finding", "validate", path(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("VALIDATION_ERROR"));
}

/// Spec 000 §2.1 at the command line: a source file in latin-1 whose claims
/// declare `source_metadata.encoding: "latin-1"` is decoded so; the same
/// bytes undeclared are refused as not UTF-8, naming the file and offset.
#[test]
fn the_source_is_read_in_its_declared_encoding() {
    let dir = TempDir::new("encoding");
    let s = dir.write("menu.txt", b"Caf\xe9 menu: the cr\xe8me br\xfbl\xe9e costs 7 \x80.\n");
    let declared = r#"{"source_metadata": {"encoding": "latin-1"}, "claims": [{"id": "EV001", "task_id": "P1.T001", "quote": "the crème brûlée costs 7 €", "evidence_type": "direct_quote"}]}"#;
    let e = dir.write("claims.json", declared);
    let out = run(&["--source", path(&s), "--evidence", path(&e)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["validated_claims"][0]["validation_status"], "VALIDATED");
    assert_eq!(r["validated_claims"][0]["match_details"]["matched_text"], "the crème brûlée costs 7 €");
    assert_eq!(r["validated_claims"][0]["match_details"]["start_position"], 11);
    let undeclared = declared.replace(r#""source_metadata": {"encoding": "latin-1"}, "#, "");
    let e = dir.write("claims2.json", undeclared);
    let out = run(&["--source", path(&s), "--evidence", path(&e)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("DOCUMENT_PARSING_ERROR") && stderr.contains("menu.txt") && stderr.contains("byte offset 3"),
        "{stderr}"
    );
}

/// A 127.0.0.1 port nothing listens on: bound, read, released.
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Spec 002 step 3: the jury starts with the local LLM (LM Studio or
/// Ollama). With no `--judge`, both usual local addresses are the jury;
/// unreachable, each is that juror's logged error, and with every juror
/// failed the verdict is LLM_ERROR. No network: the jurors are pointed at
/// 127.0.0.1 ports nothing listens on.
#[test]
fn the_default_jury_is_the_local_llm() {
    let dir = TempDir::new("jury");
    std::fs::create_dir_all(dir.0.join("data/canonical")).unwrap();
    dir.write(
        "data/canonical/minutes.txt",
        "City council minutes.\nThe committee approved the budget with a narrow majority\nof five votes to four.\n",
    );
    let cli = |args: &[&str], envs: &[(&str, String)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence-validator"));
        cmd.current_dir(&dir.0).args(args);
        for var in ["LOCAL_LLM_BASE_URL", "OLLAMA_HOST", "GOOGLE_API_KEY", "OPENAI_API_KEY"] {
            cmd.env_remove(var);
        }
        cmd.envs(envs.iter().map(|(k, v)| (k, v)));
        cmd.output().unwrap()
    };
    let claim =
        ["judge", "The budget passed narrowly.", "approved the budget with a narrow majority", "minutes.txt", "2", "3"];
    // the plan: LM Studio's and Ollama's usual addresses, nothing remote
    let mut dry = claim.to_vec();
    dry.push("--dry-run");
    let plan: Value = serde_json::from_slice(&cli(&dry, &[]).stdout).unwrap();
    let urls: Vec<&str> = plan["jurors"].as_array().unwrap().iter().map(|j| j["url"].as_str().unwrap()).collect();
    assert_eq!(urls, ["http://localhost:1234/v1/chat/completions", "http://localhost:11434/v1/chat/completions"]);
    assert_eq!(plan["leaves_machine"], false);
    // OLLAMA_HOST moves the Ollama juror, as it moves Ollama
    let moved: Value = serde_json::from_slice(&cli(&dry, &[("OLLAMA_HOST", "127.0.0.1:7000".into())]).stdout).unwrap();
    assert_eq!(moved["jurors"][1]["url"], "http://127.0.0.1:7000/v1/chat/completions");

    // both unreachable: each juror's error is logged, and the verdict is LLM_ERROR
    let (a, b) = (dead_port(), dead_port());
    let mut run_args = claim.to_vec();
    run_args.extend(["--judge", "local", "--judge", "ollama", "--timeout", "5"]);
    let envs = [("LOCAL_LLM_BASE_URL", format!("http://127.0.0.1:{a}/v1")), ("OLLAMA_HOST", format!("127.0.0.1:{b}"))];
    let started = std::time::Instant::now();
    let out = cli(&run_args, &envs);
    assert!(started.elapsed().as_secs() < 30, "an unreachable juror fails fast");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["step_2_quote_match"], true, "{r}");
    assert_eq!(r["verdict"], "LLM_ERROR", "{r}");
    assert_eq!(r["jury"]["failed"], 2);
    assert!(r["step_3_semantic"]["reason"].as_str().unwrap().starts_with("All 2 jurors failed"), "{r}");
    let logs = dir.0.join("debug_output/llm_logs/judge");
    for juror in ["local_0001.txt", "ollama_0001.txt"] {
        let text = std::fs::read_to_string(logs.join(juror)).unwrap();
        assert!(text.contains("=== RESPONSE ===\nERROR: "), "{juror}: {text}");
    }
}
