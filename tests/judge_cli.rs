#![cfg(not(target_arch = "wasm32"))]
//! `evidence-validator judge` and `verify-report` against a local
//! OpenAI-compatible stub server on 127.0.0.1 that each test starts and
//! stops: what the CLI sends (system message, the spec's prompt, model,
//! bearer token), jurors that answer, fail with HTTP 500 or hang past their
//! timeout, the numbered logs, the report files, exit codes. Every run is
//! bounded by the jurors' timeouts.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ev-judge-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data/canonical")).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One request the stub received.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    authorization: Option<String>,
    body: Value,
}

/// A chat completion server: `/<juror>/v1/chat/completions`, where the
/// juror's name says how it behaves (`valid*`, `misleading`, `down`,
/// `slow`, `garbage`).
struct Stub {
    port: u16,
    stop: Arc<AtomicBool>,
    received: Arc<Mutex<Vec<Received>>>,
    thread: Option<JoinHandle<()>>,
}

fn chat_completion(content: &str) -> String {
    json!({
        "id": "chatcmpl-stub", "object": "chat.completion", "model": "stub",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]
    })
    .to_string()
}

fn handle(mut stream: TcpStream, received: Arc<Mutex<Vec<Received>>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("").to_string();
    let (mut length, mut authorization) = (0usize, None);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if lower.starts_with("authorization:") {
            authorization = Some(line["authorization:".len()..].trim().to_string());
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    received.lock().unwrap().push(Received { path: path.clone(), authorization, body });
    let juror = path.trim_start_matches('/').split('/').next().unwrap_or("");
    let (status, text) = match juror {
        "down" => ("500 Internal Server Error", r#"{"error": "model crashed"}"#.to_string()),
        "slow" => {
            std::thread::sleep(Duration::from_secs(4));
            ("200 OK", chat_completion("VALID"))
        }
        "garbage" => ("200 OK", "<html>502 bad gateway</html>".to_string()),
        "misleading" => ("200 OK", chat_completion("Verdict: MISLEADING - the speaker quotes an opponent.")),
        _ => (
            "200 OK",
            chat_completion("```json\n{\"verdict\": \"VALID\", \"substantive_quote\": true, \"quote_in_context\": true, \"supports_claim\": true, \"reason\": \"Lines 6-7 say so.\"}\n```"),
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = stream.write_all(response.as_bytes());
}

impl Stub {
    fn start() -> Stub {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let received = Arc::new(Mutex::new(Vec::new()));
        let (stop2, received2) = (stop.clone(), received.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(s) = stream {
                    let r = received2.clone();
                    std::thread::spawn(move || handle(s, r));
                }
            }
        });
        Stub { port, stop, received, thread: Some(thread) }
    }

    fn url(&self, juror: &str) -> String {
        format!("http://127.0.0.1:{}/{juror}/v1", self.port)
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // wake the accept loop so it sees the flag
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

const MINUTES: &str = "City council minutes, 12 March.\nPresent: the mayor and eight council members.\nThe meeting opened at 7 pm.\nItem 1: the new bridge over the river.\nAfter a long debate about the cost of the bridge,\nthe committee approved the budget with a narrow majority\nof five votes to four.\nThe mayor said the vote showed the council could still work together.\nItem 2: parking fees.\nThe meeting closed at 9 pm.\n";
const CLAIM: &str = "The council approved the bridge budget by a narrow majority.";
const QUOTE: &str = "the committee approved the budget with a narrow majority of five votes to four";

fn cli(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evidence-validator"));
    cmd.current_dir(dir).args(args);
    for var in ["LOCAL_LLM_BASE_URL", "OLLAMA_HOST", "GOOGLE_API_KEY", "OPENAI_API_KEY"] {
        cmd.env_remove(var);
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("run the CLI")
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn judge_asks_every_juror_and_logs_every_exchange() {
    let tmp = TempDir::new("jury");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    let stub = Stub::start();
    let valid = format!("valid={},model=model-a", stub.url("valid"));
    let keyed = format!("keyed={},key_env=STUB_KEY", stub.url("valid2"));
    let down = format!("down={}", stub.url("down"));
    let slow = format!("slow={},timeout=0.5", stub.url("slow"));
    let garbage = format!("garbage={}", stub.url("garbage"));
    let args = [
        "judge",
        CLAIM,
        QUOTE,
        "minutes.txt",
        "6",
        "L7",
        "--judge",
        &valid,
        "--judge",
        &keyed,
        "--judge",
        &down,
        "--judge",
        &slow,
        "--judge",
        &garbage,
        "--timeout",
        "5",
    ];
    let t0 = Instant::now();
    let out = cli(&tmp.0, &args, &[("STUB_KEY", "sekrit")]);
    assert!(
        t0.elapsed() < Duration::from_secs(4),
        "the hanging juror was not cut off at its timeout: {:?}",
        t0.elapsed()
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = stdout_json(&out);
    assert_eq!(r["verdict"], "VALID", "{r:#}");
    assert_eq!(r["verified"], true);
    assert_eq!(r["step_1_existence"], true);
    assert_eq!(r["step_2_quote_match"], true);
    assert_eq!(r["quote_score"], 1.0);
    assert!(r["step_3_semantic"]["reason"].as_str().unwrap().starts_with("Consensus (2/2): VALID: Lines 6-7 say so."));
    assert_eq!(r["jury"]["answered"], 2);
    assert_eq!(r["jury"]["failed"], 3);
    let errors: Vec<&str> = r["jury"]["votes"].as_array().unwrap().iter().filter_map(|v| v["error"].as_str()).collect();
    assert!(errors[0].contains("HTTP 500"), "{errors:?}");
    assert_eq!(errors[1], "timed out after 500 ms");
    assert!(errors[2].starts_with("abstained: "), "{errors:?}");
    assert_eq!(r["jury"]["abstained"], 1);
    assert_eq!(r["jury"]["votes"][4]["abstained"], true);

    // what the jurors received: the instructions, the spec's prompt, the model, the key
    let got = stub.received();
    let valid_req = got.iter().find(|r| r.path == "/valid/v1/chat/completions").expect("valid juror asked");
    assert_eq!(valid_req.body["model"], "model-a");
    assert_eq!(valid_req.body["messages"][0]["role"], "system");
    assert!(valid_req.body["messages"][0]["content"].as_str().unwrap().contains("UNSUPPORTED"));
    let prompt = valid_req.body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt
            .starts_with("SOURCE FILE: minutes.txt\nCITED LINES: L6-L7\n\nCONTEXT BEFORE:\n[L1] City council minutes"),
        "{prompt}"
    );
    assert!(prompt.ends_with(&format!("\n\nCLAIM BEING MADE: {CLAIM}\nQUOTE USED: {QUOTE}")), "{prompt}");
    let keyed_req = got.iter().find(|r| r.path.starts_with("/valid2/")).expect("keyed juror asked");
    assert_eq!(keyed_req.authorization.as_deref(), Some("Bearer sekrit"));
    assert_eq!(keyed_req.body["model"], "local-model");
    assert!(valid_req.authorization.is_none());

    // logs: debug_output/llm_logs/judge/<juror>_0001.txt, numbered on by the next run
    let logs = tmp.0.join("debug_output/llm_logs/judge");
    let first = std::fs::read_to_string(logs.join("valid_0001.txt")).expect("valid_0001.txt");
    assert!(first.contains(&format!("=== PROMPT ===\n{prompt}\n\n=== RESPONSE ===\n{{")), "{first}");
    assert!(first.contains("\"id\":\"chatcmpl-stub\""), "the raw JSON response is logged: {first}");
    assert!(std::fs::read_to_string(logs.join("down_0001.txt")).unwrap().contains("=== RESPONSE ===\nERROR: HTTP 500"));
    assert!(std::fs::read_to_string(logs.join("slow_0001.txt")).unwrap().contains("ERROR: timed out after 500 ms"));
    let again = ["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", &valid];
    assert!(cli(&tmp.0, &again, &[]).status.success());
    assert!(logs.join("valid_0002.txt").exists());
}

#[test]
fn judge_without_jurors_runs_steps_one_and_two() {
    let tmp = TempDir::new("nojury");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    let out = cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--no-jury"], &[]);
    assert!(out.status.success());
    let r = stdout_json(&out);
    assert_eq!(r["verdict"], "JURY_NOT_CONVENED");
    assert_eq!(r["jury"]["convened"], false);
    assert_eq!(r["step_3_semantic"], Value::Null);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the jury is not convened"));
    assert!(!tmp.0.join("debug_output").exists(), "no jury, no logs");

    // --strict: not verified is exit 1; missing file and bad ranges are results, not crashes
    assert_eq!(
        cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--strict", "--no-jury"], &[]).status.code(),
        Some(1)
    );
    let missing = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "nope.txt", "1", "2", "--no-jury"], &[]));
    assert_eq!(missing["verdict"], "FILE_NOT_FOUND");
    let outside = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "12", "14", "--no-jury"], &[]));
    assert_eq!(outside["verdict"], "LINES_OUT_OF_RANGE");
    // a range ending past the file cites the lines that exist and names the rest (issue 15)
    let partly = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "9", "12", "--no-jury"], &[]));
    assert_eq!(partly["step_1_existence"], true);
    assert_eq!(partly["context"]["past_end"], "L11-L12");
    assert!(partly["error"].as_str().unwrap().contains("L11-L12 are past the end of the file (10 lines)"), "{partly}");
    let escape = cli(&tmp.0, &["judge", CLAIM, QUOTE, "../data/canonical/minutes.txt", "1", "1", "--no-jury"], &[]);
    assert_eq!(escape.status.code(), Some(2), "paths leaving the canonical directory are refused");
    assert!(String::from_utf8_lossy(&escape.stderr).contains("VALIDATION_ERROR"));
    let other_dir = stdout_json(&cli(
        &tmp.0,
        &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--canonical-dir", "data/canonical", "--no-jury"],
        &[],
    ));
    assert_eq!(other_dir["step_1_existence"], true);

    // bad arguments: exit 2 with one line naming the problem
    for bad in [
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "six", "7"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--threshold", "1.5"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "x"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "x=ftp://h"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "x=http://h,color=red"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "x=http://h", "--judge", "x=http://i"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "openai"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "gemini"],
        vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--judge", "local", "--no-jury"],
    ] {
        let out = cli(&tmp.0, &bad, &[]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// The jury `--dry-run` plans: (name, url, remote) of each juror, and whether anything leaves the machine.
fn plan(dir: &Path, extra: &[&str], envs: &[(&str, &str)]) -> (Vec<(String, String, bool)>, bool) {
    let mut args = vec!["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--dry-run"];
    args.extend_from_slice(extra);
    let out = cli(dir, &args, envs);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let p = stdout_json(&out);
    let jurors = p["jurors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| (j["name"].as_str().unwrap().to_string(), j["url"].as_str().unwrap().to_string(), j["remote"] == true))
        .collect();
    (jurors, p["leaves_machine"] == true)
}

#[test]
fn remote_jurors_are_opt_in() {
    let tmp = TempDir::new("env");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    let keys = [("OPENAI_API_KEY", "sk-test-not-real"), ("GOOGLE_API_KEY", "google-test-not-real")];
    let local = |url: &str| vec![("local".to_string(), url.to_string(), false)];
    // no --judge and no LOCAL_LLM_BASE_URL: LM Studio's and Ollama's usual addresses (spec 002, issue 15)
    let both = vec![
        ("local".to_string(), "http://localhost:1234/v1/chat/completions".to_string(), false),
        ("ollama".to_string(), "http://localhost:11434/v1/chat/completions".to_string(), false),
    ];

    // API keys in the environment, no --judge: the local jurors alone, nothing leaves the machine
    assert_eq!(plan(&tmp.0, &[], &keys), (both.clone(), false));
    assert_eq!(plan(&tmp.0, &[], &[]), (both, false));
    let with_base = [keys[0], keys[1], ("LOCAL_LLM_BASE_URL", "http://127.0.0.1:8080/v1")];
    assert_eq!(plan(&tmp.0, &[], &with_base), (local("http://127.0.0.1:8080/v1/chat/completions"), false));
    assert_eq!(plan(&tmp.0, &["--no-jury"], &keys), (vec![], false));

    // remote jurors only when named, and then said to be remote
    let (jurors, leaves) = plan(&tmp.0, &["--judge", "openai", "--judge", "local"], &keys);
    assert_eq!(
        jurors,
        vec![
            ("openai".to_string(), "https://api.openai.com/v1/chat/completions".to_string(), true),
            ("local".to_string(), "http://localhost:1234/v1/chat/completions".to_string(), false)
        ]
    );
    assert!(leaves);
    let (jurors, leaves) = plan(&tmp.0, &["--judge", "gemini"], &keys);
    assert_eq!((jurors[0].0.as_str(), jurors[0].2, leaves), ("gemini", true, true));
    let (jurors, _) = plan(&tmp.0, &["--judge", "lab=http://10.0.0.5:1234/v1", "--judge", "me=http://[::1]:9/v1"], &[]);
    assert_eq!(jurors.iter().map(|j| j.2).collect::<Vec<_>>(), vec![true, false]);

    // a real run with the keys set and the local juror on the stub: only the stub is asked
    let stub = Stub::start();
    let base = stub.url("misleading");
    let envs = [keys[0], keys[1], ("LOCAL_LLM_BASE_URL", base.as_str())];
    let out = cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7"], &envs);
    let r = stdout_json(&out);
    assert_eq!(r["jury"]["jurors"], json!(["local"]));
    assert_eq!(r["verdict"], "MISLEADING");
    assert_eq!(stub.received().len(), 1);
    assert!(stub.received().iter().all(|q| q.authorization.is_none()), "no API key is sent to the local juror");
    assert!(tmp.0.join("debug_output/llm_logs/judge/local_0001.txt").exists());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("is remote"));
    // --no-env-judges (the old name) still means no jury
    let ignored =
        stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--no-env-judges"], &envs));
    assert_eq!(ignored["verdict"], "JURY_NOT_CONVENED");
    assert_eq!(stub.received().len(), 1);

    // --help says so
    let help = cli(&tmp.0, &["judge", "--help"], &[]);
    let help = String::from_utf8_lossy(&help.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("OPENAI_API_KEY or GOOGLE_API_KEY in the environment never adds one"), "{help}");
    assert!(help.contains("nothing leaves the machine"), "{help}");
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_canonical_directory_are_refused() {
    let tmp = TempDir::new("symlink");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    std::fs::write(tmp.0.join("secret.txt"), format!("{MINUTES}top secret\n")).unwrap();
    std::os::unix::fs::symlink(tmp.0.join("secret.txt"), tmp.0.join("data/canonical/leak.txt")).unwrap();
    std::os::unix::fs::symlink(tmp.0.join("data/canonical/minutes.txt"), tmp.0.join("data/canonical/alias.txt"))
        .unwrap();

    let out = cli(&tmp.0, &["judge", CLAIM, QUOTE, "leak.txt", "6", "7", "--no-jury"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("VALIDATION_ERROR")
            && err.contains("\"leak.txt\"")
            && err.contains("outside the canonical directory"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing of the file is printed");
    // a symlink staying inside is followed; a later call works
    let ok = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "alias.txt", "6", "7", "--no-jury"], &[]));
    assert_eq!(ok["verdict"], "JURY_NOT_CONVENED");

    // verify-report: that citation is FILE_NOT_FOUND with the refusal, the others are checked
    std::fs::create_dir_all(tmp.0.join("reports")).unwrap();
    std::fs::write(
        tmp.0.join("reports/r.md"),
        format!(
            "It passed \"{QUOTE}\" [leak.txt:L6-L7](leak.txt). Again \"{QUOTE}\" [minutes.txt:L6-L7](minutes.txt).\n"
        ),
    )
    .unwrap();
    let out = cli(&tmp.0, &["verify-report", "reports/r.md", "--no-jury"], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let full: Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.0.join("reports/verification_reports/r_verification.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(full["results"][0]["result"]["verdict"], "FILE_NOT_FOUND");
    let e = full["results"][0]["result"]["error"].as_str().unwrap();
    assert!(e.contains("refused") && e.contains("leak.txt") && e.contains("outside the canonical directory"), "{e}");
    assert!(!full.to_string().contains("top secret"));
    assert_eq!(full["results"][1]["result"]["verdict"], "JURY_NOT_CONVENED");
}

#[test]
fn verify_report_reports_every_invalid_citation() {
    let tmp = TempDir::new("invalid");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    std::fs::create_dir_all(tmp.0.join("reports")).unwrap();
    let stub = Stub::start();
    let juror = format!("local={}", stub.url("valid"));
    let bad = "# R\n\nBackwards [minutes.txt:L7-L5](minutes.txt).\nZero [minutes.txt:L0](minutes.txt).\n\n\
Huge [minutes.txt:L99999999999999999999999](minutes.txt).\n";
    std::fs::write(tmp.0.join("reports/bad.md"), bad).unwrap();
    let good = format!("{bad}\nThe budget passed: \"{QUOTE}\" [minutes.txt:L6-L7](minutes.txt).\n");
    std::fs::write(tmp.0.join("reports/mixed.md"), good).unwrap();

    // every citation invalid: --strict fails (it exited 0 before)
    let out = cli(&tmp.0, &["verify-report", "reports/bad.md", "--strict", "--judge", &juror], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = stdout_json(&out);
    assert_eq!((summary["summary"]["total"].as_u64(), summary["summary"]["invalid"].as_u64()), (Some(0), Some(3)));
    let found: Vec<(u64, String, String)> = summary["invalid_citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["report_line"].as_u64().unwrap(),
                c["range"].as_str().unwrap().to_string(),
                c["problem"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(found[0], (3, "L7-L5".to_string(), "start line 7 is after end line 5".to_string()));
    assert_eq!(found[1], (4, "L0".to_string(), "line numbers start at 1 (got L0)".to_string()));
    assert_eq!(found[2].0, 6);
    assert!(found[2].2.starts_with("line number 99999999999999999999999 is too large"), "{:?}", found[2]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid citation [minutes.txt:L7-L5](minutes.txt) (report line 3)"), "{err}");
    let md = std::fs::read_to_string(tmp.0.join("reports/verification_reports/bad_verification.md")).unwrap();
    assert!(md.contains("**0 of 3 citations verified (0.0 %).** 3 citation(s) have an invalid line range"), "{md}");
    assert!(md.contains("`[minutes.txt:L0](minutes.txt)` (report line 4): line numbers start at 1"), "{md}");
    assert!(stub.received().is_empty(), "invalid citations are not judged");

    // the valid citation is VALID, the invalid ones still fail --strict; without --strict exit 0
    let out = cli(&tmp.0, &["verify-report", "reports/mixed.md", "--strict", "--judge", &juror], &[]);
    assert_eq!(out.status.code(), Some(1));
    let summary = stdout_json(&out);
    assert_eq!(summary["summary"]["verified"], 1);
    assert_eq!(summary["summary"]["invalid"], 3);
    assert_eq!(summary["summary"]["verification_rate"], 0.25);
    let out = cli(&tmp.0, &["verify-report", "reports/mixed.md", "--judge", &juror], &[]);
    assert_eq!(out.status.code(), Some(0));
    // a later run on a clean report passes --strict
    std::fs::write(
        tmp.0.join("reports/clean.md"),
        format!("It passed: \"{QUOTE}\" [minutes.txt:L6-L7](minutes.txt).\n"),
    )
    .unwrap();
    let out = cli(&tmp.0, &["verify-report", "reports/clean.md", "--strict", "--judge", &juror], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn verify_report_checks_every_citation() {
    let tmp = TempDir::new("report");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    let report = format!(
        "# Council report\n\nThe bridge budget passed: \"{QUOTE}\" [minutes.txt:L6-L7](data/canonical/minutes.txt). \
The mayor resigned in protest [minutes.txt:L8](data/canonical/minutes.txt).\n\n\
- Fees were doubled [fees.txt:L1-L2](data/canonical/fees.txt)\n"
    );
    std::fs::create_dir_all(tmp.0.join("reports")).unwrap();
    std::fs::write(tmp.0.join("reports/council.md"), &report).unwrap();
    let stub = Stub::start();
    let juror = format!("local={}", stub.url("valid"));
    let out = cli(&tmp.0, &["verify-report", "reports/council.md", "--judge", &juror], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = stdout_json(&out);
    assert_eq!(summary["summary"]["total"], 3);
    assert_eq!(summary["summary"]["verified"], 1);
    assert_eq!(summary["summary"]["verdicts"], json!({"VALID": 1, "QUOTE_NOT_FOUND": 1, "FILE_NOT_FOUND": 1}));
    let dir = tmp.0.join("reports/verification_reports");
    let full: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("council_verification.json")).unwrap()).unwrap();
    assert_eq!(full["results"][0]["citation"]["quote"], QUOTE);
    assert_eq!(full["results"][1]["citation"]["claim"], "The mayor resigned in protest");
    assert_eq!(
        full["results"][1]["result"]["step_3_semantic"]["verdict"], "VALID",
        "step 3 runs even when step 2 fails"
    );
    assert_eq!(full["results"][2]["resolved_file"], Value::Null);
    let md = std::fs::read_to_string(dir.join("council_verification.md")).unwrap();
    assert!(md.contains("**1 of 3 citations verified (33.3 %).**"), "{md}");
    // two jurors' worth of logs? one juror, two convened checks (the missing file is not judged)
    let logs = tmp.0.join("debug_output/llm_logs/council");
    assert!(
        logs.join("local_0001.txt").exists()
            && logs.join("local_0002.txt").exists()
            && !logs.join("local_0003.txt").exists()
    );
    assert_eq!(stub.received().len(), 2);
    let strict = cli(&tmp.0, &["verify-report", "reports/council.md", "--strict", "--no-jury"], &[]);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(cli(&tmp.0, &["verify-report", "reports/none.md"], &[]).status.code(), Some(2));
}
