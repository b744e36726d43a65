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
    for var in ["LOCAL_LLM_BASE_URL", "GOOGLE_API_KEY", "OPENAI_API_KEY"] {
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
    let out = cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7"], &[]);
    assert!(out.status.success());
    let r = stdout_json(&out);
    assert_eq!(r["verdict"], "JURY_NOT_CONVENED");
    assert_eq!(r["jury"]["convened"], false);
    assert_eq!(r["step_3_semantic"], Value::Null);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the jury is not convened"));
    assert!(!tmp.0.join("debug_output").exists(), "no jury, no logs");

    // --strict: not verified is exit 1; missing file and bad ranges are results, not crashes
    assert_eq!(cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--strict"], &[]).status.code(), Some(1));
    let missing = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "nope.txt", "1", "2"], &[]));
    assert_eq!(missing["verdict"], "FILE_NOT_FOUND");
    let outside = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "9", "12"], &[]));
    assert_eq!(outside["verdict"], "LINES_OUT_OF_RANGE");
    let escape = stdout_json(&cli(&tmp.0, &["judge", CLAIM, QUOTE, "../data/canonical/minutes.txt", "1", "1"], &[]));
    assert_eq!(escape["verdict"], "FILE_NOT_FOUND", "paths leaving the canonical directory are refused");
    let other_dir = stdout_json(&cli(
        &tmp.0,
        &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--canonical-dir", "data/canonical"],
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
    ] {
        let out = cli(&tmp.0, &bad, &[]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn environment_variables_add_jurors() {
    let tmp = TempDir::new("env");
    std::fs::write(tmp.0.join("data/canonical/minutes.txt"), MINUTES).unwrap();
    let stub = Stub::start();
    let local = stub.url("misleading");
    let out = cli(&tmp.0, &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7"], &[("LOCAL_LLM_BASE_URL", &local)]);
    let r = stdout_json(&out);
    assert_eq!(r["jury"]["jurors"], json!(["local"]));
    assert_eq!(r["verdict"], "MISLEADING");
    assert!(tmp.0.join("debug_output/llm_logs/judge/local_0001.txt").exists());
    let ignored = stdout_json(&cli(
        &tmp.0,
        &["judge", CLAIM, QUOTE, "minutes.txt", "6", "7", "--no-env-judges"],
        &[("LOCAL_LLM_BASE_URL", &local)],
    ));
    assert_eq!(ignored["verdict"], "JURY_NOT_CONVENED");
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
    let strict = cli(&tmp.0, &["verify-report", "reports/council.md", "--strict"], &[]);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(cli(&tmp.0, &["verify-report", "reports/none.md"], &[]).status.code(), Some(2));
}
