//! `evidence-validator transcript`, driven as a user would: the built binary
//! on the fixtures of tests/data/transcript and on files in a temporary
//! directory.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/transcript");

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ev-transcript-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, content: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, content).unwrap();
        p.to_str().unwrap().to_string()
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence-validator")).arg("transcript").args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn items_mode_prints_one_result_per_item_with_each_check() {
    let out = run(&["--transcript", &data("plain.json"), "--items", &data("items.json")]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("transcript "), "{text}");
    assert!(text.contains("(plain_json, word level: 189 words, 15 segments, 189 tokens;"), "{text}");
    for (label, verdict) in
        [("items[0]", "PASS"), ("items[1]", "FAIL"), ("items[2]", "PASS"), ("items[3]", "FAIL"), ("items[4]", "FAIL")]
    {
        assert!(text.contains(&format!("\n{label} {verdict}  ")), "{label} {verdict}:\n{text}");
    }
    assert_eq!(text.matches("  contiguous_match    ").count(), 5);
    assert_eq!(text.matches("  length              ").count(), 5);
    assert_eq!(text.matches("  timestamp_locality  ").count(), 5);
    assert!(text.contains("the quote has 5 tokens; at least 6 consecutive matching tokens are required"));
    assert!(text.contains("the quote has 16 tokens; at most 15 are allowed"));
    assert!(text.trim_end().ends_with("2 of 5 items pass"), "{text}");
}

#[test]
fn json_report_and_output_file() {
    let dir = TempDir::new("json");
    let report = dir.path("report.json");
    let out = run(&["--transcript", &data("talk.vtt"), "--items", &data("items.json"), "--json", "--output", &report]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(printed, written);
    assert_eq!(printed["transcript"]["format"], "webvtt");
    assert_eq!(printed["transcript"]["metrics"]["reduced_timing_precision"], true);
    let passed: Vec<bool> =
        printed["items"].as_array().unwrap().iter().map(|i| i["validation"]["passed"].as_bool().unwrap()).collect();
    assert_eq!(passed, [true, false, true, false, false]);
    assert_eq!(printed["items"][2]["validation"]["matched"]["segment_start"], 13);
    assert_eq!((printed["passed"].as_u64(), printed["failed"].as_u64()), (Some(2), Some(3)));
}

#[test]
fn strict_exits_1_when_an_item_fails() {
    let out = run(&["--transcript", &data("talk.srt"), "--items", &data("items.json"), "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    let dir = TempDir::new("strict");
    let ok = dir.write(
        "ok.json",
        r#"{"items": [{"evidence_quote": "So here are three simple ways", "evidence_timestamp": 30}]}"#,
    );
    let out = run(&["--transcript", &data("talk.srt"), "--items", &ok, "--strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn evaluation_mode_reports_what_the_budget_would_do() {
    let out = run(&["--transcript", &data("whisperx.json"), "--evaluation", &data("evaluation.json")]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.contains("\ncommendations[0] KEEP  "));
    assert!(text.contains("\ncommendations[2] RE-PROMPT (dropped if the retry fails too)  "));
    assert!(text.contains("\nrecommendations[1] RE-PROMPT"));
    assert!(text.contains("regeneration: not triggered"), "{text}");

    // Without the passing second commendation, regeneration would follow failed re-prompts.
    let dir = TempDir::new("evaluation");
    let mut e: Value = serde_json::from_str(&std::fs::read_to_string(data("evaluation.json")).unwrap()).unwrap();
    e["commendations"].as_array_mut().unwrap().remove(1);
    let path = dir.write("e.json", &e.to_string());
    let out = run(&["--transcript", &data("talk.srt"), "--evaluation", &path, "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["budget"]["would_regenerate"], true);
    assert_eq!(report["budget"]["regeneration_unavoidable"], false);
    let actions: Vec<&str> =
        report["budget"]["items"].as_array().unwrap().iter().map(|i| i["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["keep", "reprompt", "keep", "reprompt"]);
    // With a single generation allowed: best effort, with the warning.
    let cfg = dir.write("c.json", r#"{"max_generations": 1}"#);
    let out = run(&["--transcript", &data("talk.srt"), "--evaluation", &path, "--config", &cfg, "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("warning BEST_EFFORT: the retry budget is spent"), "{}", stdout(&out));
}

/// Bad input: exit 2, nothing on stdout, one line on stderr with `fragment`.
fn expect_bad_input(args: &[&str], fragment: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(fragment), "{fragment:?} not in {stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = TempDir::new("bad");
    let items = data("items.json");
    let srt = dir.write("bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:0x,000\nbad\n");
    expect_bad_input(&["--transcript", &srt, "--items", &items], "DOCUMENT_PARSING_ERROR: ");
    expect_bad_input(&["--transcript", &srt, "--items", &items], "bad.srt: SRT line 6: bad cue timing");
    let vtt = dir.write("bad.vtt", "WEBVTT\n\n00:01.000 -> 00:02.000\nok\n");
    expect_bad_input(&["--transcript", &vtt, "--items", &items], "WebVTT line 1: no cues");
    let json = dir.write("bad.json", r#"{"segments": [{"start": 0, "end": "soon", "text": "hi"}]}"#);
    expect_bad_input(&["--transcript", &json, "--items", &items], "at $.segments[0].end");
    let bad_items = dir.write(
        "items.json",
        r#"[{"evidence_quote": "a b c d e f", "evidence_timestamp": 1}, {"evidence_quote": "x"}]"#,
    );
    expect_bad_input(&["--transcript", &data("talk.srt"), "--items", &bad_items], "VALIDATION_ERROR: ");
    expect_bad_input(
        &["--transcript", &data("talk.srt"), "--items", &bad_items],
        "evidence_timestamp is required at $[1].evidence_timestamp",
    );
    let not_json = dir.write("items.txt", "evidence: yes");
    expect_bad_input(&["--transcript", &data("talk.srt"), "--items", &not_json], "is not valid JSON");
    let cfg = dir.write("cfg.json", r#"{"locality_window": 30}"#);
    expect_bad_input(
        &["--transcript", &data("talk.srt"), "--items", &items, "--config", &cfg],
        "CONFIGURATION_ERROR: ",
    );
    let cfg = dir.write("cfg2.json", r#"{"min_contiguous_tokens": 20}"#);
    expect_bad_input(
        &["--transcript", &data("talk.srt"), "--items", &items, "--config", &cfg],
        "exceeds max_quote_tokens",
    );
    let eval = dir.write("eval.json", r#"{"commendations": []}"#);
    expect_bad_input(&["--transcript", &data("talk.srt"), "--evaluation", &eval], "recommendations is required");
    expect_bad_input(&["--transcript", &dir.path("missing.srt"), "--items", &items], "cannot read");
    expect_bad_input(
        &["--transcript", &data("talk.srt"), "--items", &items, "--transcript-format", "docx"],
        "unknown --transcript-format",
    );
    assert!(Path::new(&data("talk.srt")).exists());
}

#[test]
fn the_format_can_be_forced() {
    let dir = TempDir::new("format");
    let srt = dir.write("captions.txt", &std::fs::read_to_string(data("talk.srt")).unwrap());
    let out = run(&["--transcript", &srt, "--items", &data("items.json"), "--transcript-format", "srt", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["transcript"]["format"], "srt");
    let out = run(&["--transcript", &srt, "--items", &data("items.json"), "--transcript-format", "vtt"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_time_limit_covers_the_import_and_is_checked_in_the_configuration() {
    let dir = TempDir::new("time");
    let items = data("items.json");
    let mut srt = String::new();
    for i in 0..20_000 {
        srt.push_str(&format!(
            "{}\n00:00:{:02},000 --> 00:00:{:02},500\nthe river behind our old house {i}\n\n",
            i + 1,
            i % 60,
            i % 60
        ));
    }
    // cue times repeat every minute: keep them in order with hours
    let srt: String = srt
        .split("\n\n")
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(i, c)| {
            let h = format!("{:02}:{:02}:{:02}", i / 3600, i / 60 % 60, i % 60);
            let mut lines: Vec<String> = c.lines().map(str::to_string).collect();
            lines[1] = format!("{h},000 --> {h},500");
            lines.join("\n") + "\n\n"
        })
        .collect();
    let t = dir.write("long.srt", &srt);
    let cfg = dir.write("cfg.json", r#"{"max_processing_time_seconds": 1e-9}"#);
    expect_bad_input(&["--transcript", &t, "--items", &items, "--config", &cfg], "PROCESSING_ERROR: ");
    expect_bad_input(
        &["--transcript", &t, "--items", &items, "--config", &cfg],
        "importing the transcript was not finished (stopped at",
    );
    let cfg = dir.write("cfg2.json", r#"{"max_processing_time_seconds": 0}"#);
    expect_bad_input(&["--transcript", &t, "--items", &items, "--config", &cfg], "max_processing_time_seconds");
    // the default limit: the same transcript reads, the report says ok
    let out = run(&["--transcript", &t, "--items", &items, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(report["errors"], serde_json::json!([]));
    assert_eq!(report["transcript"]["segments"], 20_000);
}
