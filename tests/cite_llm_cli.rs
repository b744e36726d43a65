//! `evidence-validator cite --llm URL --model NAME [--stream]` against a
//! fake OpenAI-compatible server started here on 127.0.0.1 (a std
//! TcpListener on a thread; it stops when the test drops it, and by itself
//! after [`SERVER_LIFETIME`]).
#![cfg(not(target_arch = "wasm32"))]

mod cli_common;

use cli_common::{path, run, TempDir};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest the fake server lives.
const SERVER_LIFETIME: Duration = Duration::from_secs(60);

/// A chat server answering by the prompt's fixed instructions; the first
/// request whose prompt holds `flaky` gets HTTP 503.
struct FakeLlm {
    port: u16,
    stop: Arc<AtomicBool>,
    bodies: Arc<Mutex<Vec<Value>>>,
}

fn answer_for(prompt: &str) -> String {
    if prompt.starts_with("Generate a factual claim") {
        let from = prompt.find("quote):\n\"").map_or(0, |i| i + 9);
        let to = prompt.find("\"\n\u{2014} Source").unwrap_or(prompt.len());
        format!("CLAIM: {}", &prompt[from..to])
    } else if prompt.starts_with("List at most") {
        "1. When was it signed?".into()
    } else if prompt.starts_with("Answer this question") {
        "NOT FOUND".into()
    } else {
        "<think>Is it CONTRADICTED?</think>\nVerdict: SUPPORTED".into()
    }
}

/// Reads one HTTP request: its body.
fn read_request(stream: &mut std::net::TcpStream) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
        let head = String::from_utf8_lossy(&data[..end]).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        while data.len() < end + 4 + length {
            let n = stream.read(&mut buf).ok()?;
            if n == 0 {
                return None;
            }
            data.extend_from_slice(&buf[..n]);
        }
        return Some(data[end + 4..end + 4 + length].to_vec());
    }
}

impl FakeLlm {
    fn start() -> FakeLlm {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let (stop2, bodies2) = (stop.clone(), bodies.clone());
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut flaked = false;
            while !stop2.load(Ordering::SeqCst) && started.elapsed() < SERVER_LIFETIME {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let Some(body) = read_request(&mut stream) else { continue };
                let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let prompt = body.pointer("/messages/0/content").and_then(Value::as_str).unwrap_or("").to_string();
                bodies2.lock().unwrap().push(body);
                let (status, content) = if prompt.contains("flaky") && !flaked {
                    flaked = true;
                    ("503 Service Unavailable", "{\"error\":\"busy\"}".to_string())
                } else {
                    let chat = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer_for(&prompt)}}]});
                    ("200 OK", chat.to_string())
                };
                let response = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{content}",
                    content.len()
                );
                let _ = stream.write_all(response.as_bytes());
            }
        });
        FakeLlm { port, stop, bodies }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    fn bodies(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

const QUERY: &str = "How did the Treaty of Paris end the war?";

fn sources() -> Value {
    json!([
        {"id": "paris", "title": "Treaty history", "content": "The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting."},
        {"id": "cats", "title": "Cats", "content": "Cats sleep for around sixteen hours every day, far more than most other mammals do."}
    ])
}

#[test]
fn the_cli_generates_and_verifies_through_an_openai_compatible_server_and_streams() {
    let server = FakeLlm::start();
    let dir = TempDir::new("cite-llm");
    let input = dir.write(
        "in.json",
        json!({"query": QUERY, "sources": sources(), "claims": [], "outline": ["Treaty of Paris signing"]}).to_string(),
    );
    let config = dir.write("config.json", r#"{"interleaved_generation": {"max_claims_per_section": 1}}"#);
    let o = run(&[
        "cite",
        "--input",
        path(&input),
        "--config",
        path(&config),
        "--llm",
        &server.url(),
        "--model",
        "stub-model",
        "--stream",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["claim", "verified", "report"]);
    assert_eq!(lines[0]["text"], "The Treaty of Paris was signed in 1783 by the United States and Britain.");
    assert_eq!(lines[0]["section"], "Treaty of Paris signing");
    let report = &lines[2]["report"];
    assert_eq!(report["claims"][0]["verdict"], "SUPPORTED");
    assert_eq!(report["claims"][0]["verification"]["verifier"], "llm");
    assert_eq!(report["claims"][0]["correction"]["citations_after"], json!(["paris"]));
    assert_eq!(report["generation"]["mode"], "interleaved");
    // what the server received: the model, one user message, temperature 0
    let bodies = server.bodies();
    assert_eq!(bodies.len(), report["summary"]["llm_calls"].as_u64().unwrap() as usize);
    for b in &bodies {
        assert_eq!(b["model"], "stub-model");
        assert_eq!(b["temperature"], 0);
        let messages = b["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0]["role"], "user");
    }
    // generation sees the query; no verifier request does
    assert!(bodies[0]["messages"][0]["content"].as_str().unwrap().contains(QUERY));
    for b in &bodies[1..] {
        assert!(!b["messages"][0]["content"].as_str().unwrap().contains(QUERY));
    }
}

#[test]
fn a_server_error_is_retried_and_without_llm_nothing_is_asked() {
    let server = FakeLlm::start();
    let dir = TempDir::new("cite-llm-retry");
    let input = dir.write(
        "in.json",
        json!({"query": QUERY, "sources": sources(), "claims": [
            {"text": "The flaky Treaty of Paris was signed in 1783.", "citations": ["paris"]}
        ]})
        .to_string(),
    );
    let o = run(&["cite", "--input", path(&input), "--llm", &server.url(), "--model", "m"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["summary"]["retries"], 1, "{}", r["summary"]);
    assert_eq!(r["summary"]["failed_calls"], 0);
    let asked = server.bodies().len();
    // without --llm: the deterministic verifier, no request
    let o = run(&["cite", "--input", path(&input)]);
    assert_eq!(o.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["claims"][0]["verification"]["verifier"], "deterministic");
    assert_eq!(server.bodies().len(), asked);
    // --llm needs --model
    let o = run(&["cite", "--input", path(&input), "--llm", &server.url()]);
    assert_eq!(o.status.code(), Some(2));
}

/// A server that reads each request and never answers: it holds the
/// connection until the test lets it go (or [`HOLD_LIMIT`] passes, which
/// it records).
struct Silent {
    port: u16,
    release: Arc<AtomicBool>,
    asked: Arc<Mutex<usize>>,
    gave_up: Arc<AtomicBool>,
}

/// How long [`Silent`] holds a request at most: under the default
/// `call_timeout_seconds` (60), so a client waiting for that would see the
/// server let go first.
const HOLD_LIMIT: Duration = Duration::from_secs(30);

impl Silent {
    fn start() -> Silent {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let (release, asked, gave_up) =
            (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(0)), Arc::new(AtomicBool::new(false)));
        let (release2, asked2, gave_up2) = (release.clone(), asked.clone(), gave_up.clone());
        std::thread::spawn(move || {
            let started = Instant::now();
            let mut held = Vec::new();
            while !release2.load(Ordering::SeqCst) {
                if started.elapsed() > HOLD_LIMIT {
                    gave_up2.store(true, Ordering::SeqCst);
                    break;
                }
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                if read_request(&mut stream).is_some() {
                    *asked2.lock().unwrap() += 1;
                }
                held.push(stream);
            }
        });
        Silent { port, release, asked, gave_up }
    }
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.release.store(true, Ordering::SeqCst);
    }
}

/// Each HTTP call is bounded by the time left in the run, not only by
/// `call_timeout_seconds`: with 1 s left and a server that never answers,
/// the command ends with the deadline's error while the server still holds
/// the request (before, it waited out the 60 s call timeout).
#[test]
fn a_call_ends_with_the_runs_time_left() {
    let server = Silent::start();
    let dir = TempDir::new("cite-llm-deadline");
    let input = dir.write(
        "in.json",
        json!({"query": QUERY, "sources": sources(), "claims": [
            {"text": "The Treaty of Paris was signed in 1783.", "citations": ["paris"]}
        ]})
        .to_string(),
    );
    let config = dir.write("config.json", r#"{"max_processing_time_seconds": 1}"#);
    let url = format!("http://127.0.0.1:{}/v1", server.port);
    let o = run(&["cite", "--input", path(&input), "--config", path(&config), "--llm", &url, "--model", "m"]);
    assert!(!server.gave_up.load(Ordering::SeqCst), "the command outwaited the server's {HOLD_LIMIT:?}");
    assert_eq!(*server.asked.lock().unwrap(), 1, "the one verify request was sent");
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("PROCESSING_ERROR") && stderr.contains("max_processing_time_seconds"), "{stderr}");
}
