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
mod common;

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

#[wasm_bindgen_test]
fn validation_cases_replay_in_wasm() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("data/transcript/validate_cases.json")).unwrap();
    let failures: Vec<String> = cases
        .iter()
        .flat_map(|case| common::replay_transcript_case(case, &fixture(case["transcript"].as_str().unwrap())))
        .collect();
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
