#![cfg(not(target_arch = "wasm32"))]
//! The native jury runner (`judge::blocking`) with scripted jurors on real
//! threads: the cases of `tests/data/judge/jury.json` (a hanging juror
//! really hangs, and its timeout ends it), concurrency, per-juror timeouts,
//! a panicking juror, and the numbered logs.

mod judge_common;

use evidence_validator::judge::blocking::{ask_all, verify_claim, Juror};
use evidence_validator::judge::lines::LineIndex;
use evidence_validator::judge::log::{LogBook, LogEntry};
use evidence_validator::judge::{JudgeConfig, JudgeRequest};
use judge_common::{check, jury_data, request, scripts, Script};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Scripted {
    name: String,
    script: Script,
    delay: Duration,
    timeout: Option<Duration>,
}

impl Juror for Scripted {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&self, system: &str, prompt: &str) -> Result<String, String> {
        assert!(system.contains("VALID"));
        assert!(prompt.starts_with("SOURCE FILE: "));
        std::thread::sleep(self.delay);
        match &self.script {
            Script::Answer(t) => Ok(t.clone()),
            Script::Error(e) => Err(e.clone()),
            Script::Hang => {
                std::thread::sleep(Duration::from_secs(30));
                Err("woke up".into())
            }
        }
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }
}

fn juror(name: &str, script: Script, delay_ms: u64) -> Arc<dyn Juror> {
    Arc::new(Scripted { name: name.into(), script, delay: Duration::from_millis(delay_ms), timeout: None })
}

#[test]
fn scripted_juries_on_threads() {
    let data = jury_data();
    let config = JudgeConfig { timeout_ms: 300, ..JudgeConfig::default() };
    let mut failures = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let (req, source) = request(&data, case);
        let jurors: Vec<Arc<dyn Juror>> = scripts(case).into_iter().map(|(n, s)| juror(&n, s, 5)).collect();
        let mut logs: Vec<LogEntry> = Vec::new();
        let mut book = LogBook::new();
        let t0 = Instant::now();
        let lines = LineIndex::new(source.as_deref().unwrap_or_default());
        let source = source.as_deref().map(|text| (text, &lines)).ok_or_else(|| "no such file".to_string());
        let result = verify_claim(req, source, &config, &jurors, &mut book, &mut |e| logs.push(e.clone()))
            .expect("valid config");
        assert!(t0.elapsed() < Duration::from_secs(3), "[{}] took {:?}", case["name"], t0.elapsed());
        failures.extend(check(case, &result));
        if result.jury.convened {
            assert_eq!(logs.len(), jurors.len(), "[{}] one log entry per juror", case["name"]);
            for (entry, j) in logs.iter().zip(&jurors) {
                assert_eq!(entry.file_name, format!("{}_0001.txt", j.name()));
                assert!(entry.text.starts_with("=== SYSTEM ===\n"));
                assert!(entry.text.contains("\n=== PROMPT ===\nSOURCE FILE: minutes.txt\nCITED LINES: "));
                assert!(entry.text.contains("\n=== RESPONSE ===\n"));
            }
        } else {
            assert!(logs.is_empty());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn jurors_are_asked_at_once() {
    let jurors: Vec<Arc<dyn Juror>> =
        (0..4).map(|i| juror(&format!("j{i}"), Script::Answer("VALID".into()), 400)).collect();
    let requests: Vec<JudgeRequest> = (0..4)
        .map(|i| JudgeRequest {
            index: i,
            judge: format!("j{i}"),
            system: "VALID?".into(),
            prompt: "SOURCE FILE: x".into(),
        })
        .collect();
    let t0 = Instant::now();
    let asked = ask_all(&jurors, &requests, Duration::from_secs(10));
    let took = t0.elapsed();
    assert!(asked.iter().all(|a| a.outcome.as_deref() == Ok("VALID")));
    assert!(took < Duration::from_millis(1200), "four 400 ms jurors took {took:?}: not concurrent");
}

#[test]
fn each_juror_has_its_own_timeout() {
    let slow_but_patient: Arc<dyn Juror> = Arc::new(Scripted {
        name: "patient".into(),
        script: Script::Answer("VALID".into()),
        delay: Duration::from_millis(400),
        timeout: Some(Duration::from_secs(5)),
    });
    let slow_and_strict: Arc<dyn Juror> = Arc::new(Scripted {
        name: "strict".into(),
        script: Script::Answer("VALID".into()),
        delay: Duration::from_millis(400),
        timeout: Some(Duration::from_millis(100)),
    });
    let requests: Vec<JudgeRequest> = (0..2)
        .map(|i| JudgeRequest {
            index: i,
            judge: String::new(),
            system: "VALID?".into(),
            prompt: "SOURCE FILE: x".into(),
        })
        .collect();
    let asked = ask_all(&[slow_but_patient, slow_and_strict], &requests, Duration::from_millis(200));
    assert_eq!(asked[0].outcome.as_deref(), Ok("VALID"));
    assert_eq!(asked[1].outcome.as_ref().err().map(|e| e.to_string()), Some("timed out after 100 ms".into()));
}

struct Panics;

impl Juror for Panics {
    fn name(&self) -> &str {
        "panics"
    }
    fn ask(&self, _: &str, _: &str) -> Result<String, String> {
        panic!("scripted panic")
    }
}

#[test]
fn a_panicking_juror_is_a_failure() {
    let data = jury_data();
    let (req, source) = request(&data, &data["cases"][0]);
    let jurors: Vec<Arc<dyn Juror>> = vec![Arc::new(Panics), juror("ok", Script::Answer("VALID".into()), 0)];
    let mut book = LogBook::new();
    let text = source.as_deref().unwrap_or("");
    let r =
        verify_claim(req, Ok((text, &LineIndex::new(text))), &JudgeConfig::default(), &jurors, &mut book, &mut |_| {})
            .unwrap();
    assert_eq!(r.verdict.as_str(), "VALID");
    assert_eq!(r.jury.votes[0].error.as_deref(), Some("the juror panicked"));
}

#[test]
fn log_numbers_continue_across_claims() {
    let data = jury_data();
    let jurors: Vec<Arc<dyn Juror>> =
        vec![juror("gemini", Script::Answer("VALID".into()), 0), juror("local", Script::Error("down".into()), 0)];
    let mut book = LogBook::new();
    let mut names = Vec::new();
    for _ in 0..2 {
        let (req, source) = request(&data, &data["cases"][0]);
        let text = source.as_deref().unwrap_or("");
        verify_claim(req, Ok((text, &LineIndex::new(text))), &JudgeConfig::default(), &jurors, &mut book, &mut |e| {
            names.push(e.file_name.clone())
        })
        .unwrap();
    }
    assert_eq!(names, ["gemini_0001.txt", "local_0001.txt", "gemini_0002.txt", "local_0002.txt"]);
}
