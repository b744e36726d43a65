//! The transcript core compiled to wasm32 and run under Node by
//! wasm-bindgen-test: the validation cases of
//! `tests/data/transcript/validate_cases.json` (as tests/transcript_validate.rs
//! replays them natively) and the retry budget with scripted hosts give the
//! same results in wasm.
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --no-default-features --test transcript_wasm
//! ```
#![cfg(target_arch = "wasm32")]

use evidence_validator::transcript::*;
use serde_json::Value;
use wasm_bindgen_test::*;

fn fixture(name: &str) -> Transcript {
    let text = match name {
        "plain.json" => include_str!("data/transcript/plain.json"),
        "talk.srt" => include_str!("data/transcript/talk.srt"),
        "talk.vtt" => include_str!("data/transcript/talk.vtt"),
        "whisperx.json" => include_str!("data/transcript/whisperx.json"),
        "openai_whisper_words.json" => include_str!("data/transcript/openai_whisper_words.json"),
        other => panic!("fixture {other} is not bundled into the wasm test"),
    };
    parse_transcript(text, InputFormat::from_file_name(name)).unwrap()
}

fn lookup<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(v, |v, step| match step.parse::<usize>() {
        Ok(i) => v.get(i),
        Err(_) => v.get(step),
    })
}

#[wasm_bindgen_test]
fn validation_cases_replay_in_wasm() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("data/transcript/validate_cases.json")).unwrap();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let t = fixture(case["transcript"].as_str().unwrap());
        let config = TranscriptConfig::from_json(case.get("config").unwrap_or(&Value::Null)).unwrap();
        let item = EvaluationItem::from_json(&case["item"], &Default::default()).unwrap();
        let result = serde_json::to_value(t.validate(&item, &config)).unwrap();
        for e in case["expect"].as_array().unwrap() {
            let path = e["path"].as_str().unwrap();
            let got = lookup(&result, path);
            let same = match (got, &e["equals"]) {
                (Some(Value::Number(a)), Value::Number(b)) => a.as_f64() == b.as_f64(),
                (Some(g), w) => g == w,
                (None, _) => false,
            };
            if !same {
                failures.push(format!("[{name}] {path}: expected {}, got {got:?}", e["equals"]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

struct NeverFixes(Vec<String>);

impl EvaluationHost for NeverFixes {
    fn generate(&mut self, r: &GenerateRequest) -> Result<StructuredEvaluation, HostFailure> {
        self.0.push(format!("generate {}", r.generation));
        let item = |q: &str, t: f64| EvaluationItem::new(q, t);
        Ok(StructuredEvaluation {
            commendations: vec![
                item("my grandmother showed me the river behind our old house", 8.0),
                item("water is the new oil of our century", 10.0),
            ],
            recommendations: vec![item("Um, I know it sounds small", 80.0)],
            ..Default::default()
        })
    }
    fn retry_item(&mut self, r: &RetryRequest) -> Result<EvaluationItem, HostFailure> {
        self.0.push(format!("retry {:?} {}", r.kind, r.index));
        Err(HostFailure::callback("offline"))
    }
}

#[wasm_bindgen_test]
fn retry_budget_runs_in_wasm() {
    let mut host = NeverFixes(Vec::new());
    let o = EvaluationGenerator::new(fixture("plain.json"), TranscriptConfig::default()).run(&mut host);
    assert_eq!(host.0, ["generate 1", "retry Commendation 1", "generate 2", "retry Commendation 1"]);
    assert!(!o.complete);
    assert_eq!(o.evaluation.commendations.len(), 1);
    assert_eq!(o.warnings[0].code, "BEST_EFFORT");
}
