//! The jury's state machine with scripted jurors (`tests/data/judge/jury.json`):
//! unanimous, majority, tie, one failing, all failing, one hanging (recorded
//! as the timeout a surface would report), one answering garbage, and the
//! step-1/step-2 outcomes around them. No I/O: the answers are fed to
//! `Verification::record` in reverse order, as a surface would when the
//! last juror answers first. Runs natively and in wasm.

mod judge_common;

use evidence_validator::judge::log::LogBook;
use evidence_validator::judge::JurorFailure;
use evidence_validator::judge::{JudgeConfig, Verification, JURY_INSTRUCTIONS};
use judge_common::{check, jury_data, request, scripts, Script};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn scripted_juries() {
    let data = jury_data();
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10);
    let mut failures = Vec::new();
    for case in cases {
        let (req, source) = request(&data, case);
        let jurors = scripts(case);
        let names = jurors.iter().map(|(n, _)| n.clone()).collect();
        let source = source.as_deref().ok_or_else(|| "no such file".to_string());
        let mut check_run = Verification::new(req, source, &JudgeConfig::default(), names).expect("valid config");
        let mut book = LogBook::new();
        let asks = check_run.requests();
        for ask in asks.iter().rev() {
            assert_eq!(ask.system, JURY_INSTRUCTIONS);
            let outcome = match &jurors[ask.index].1 {
                Script::Answer(t) => Ok(t.clone()),
                Script::Error(e) => Err(JurorFailure::Error(e.clone())),
                Script::Hang => Err(JurorFailure::Timeout { after_ms: 150 }),
            };
            let entry = book.entry(&ask.judge, &ask.system, &ask.prompt, &outcome);
            assert!(entry.text.contains("=== PROMPT ===\nSOURCE FILE: minutes.txt\n"));
            assert!(check_run.record(ask.index, outcome, None));
            assert!(!check_run.record(ask.index, Ok("VALID".into()), None), "a juror answers once");
        }
        assert!(check_run.is_complete());
        failures.extend(check(case, &check_run.finish()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn unrecorded_jurors_count_as_failed() {
    let data = jury_data();
    let (req, source) = request(&data, &data["cases"][0]);
    let mut v = Verification::new(
        req,
        Ok(source.as_deref().unwrap_or("")),
        &JudgeConfig::default(),
        vec!["a".into(), "b".into()],
    )
    .unwrap();
    assert!(v.record(0, Ok("VALID".into()), Some(3.0)));
    assert!(!v.record(7, Ok("VALID".into()), None));
    assert!(!v.is_complete());
    let r = v.finish();
    assert_eq!(r.jury.failed, 1);
    assert_eq!(r.jury.votes[1].error.as_deref(), Some("no answer recorded"));
    assert_eq!(r.verdict.as_str(), "VALID");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bad_juries_and_configs_are_errors() {
    let data = jury_data();
    let (req, source) = request(&data, &data["cases"][0]);
    let src = Ok(source.as_deref().unwrap_or(""));
    let dup = Verification::new(req.clone(), src.clone(), &JudgeConfig::default(), vec!["a".into(), "a".into()]);
    assert_eq!(dup.err().map(|e| e.code()), Some("CONFIGURATION_ERROR"));
    let empty = Verification::new(req.clone(), src.clone(), &JudgeConfig::default(), vec![" ".into()]);
    assert!(empty.is_err());
    for config in [
        JudgeConfig { threshold: 1.5, ..JudgeConfig::default() },
        JudgeConfig { threshold: f64::NAN, ..JudgeConfig::default() },
        JudgeConfig { timeout_ms: 0, ..JudgeConfig::default() },
        JudgeConfig { context_lines: 1_000_000, ..JudgeConfig::default() },
    ] {
        assert!(Verification::new(req.clone(), src.clone(), &config, vec![]).is_err(), "{config:?}");
    }
    assert!(JudgeConfig::from_json(&serde_json::json!({"threshold": 0.9, "autojunk": true})).is_ok());
    assert!(JudgeConfig::from_json(&serde_json::json!({"treshold": 0.9})).is_err());
    // many jurors: names checked in n log n (was quadratic); a duplicate at the end is still found
    let mut many: Vec<String> = (0..50_000).map(|k| format!("juror-{k}")).collect();
    assert!(Verification::new(req.clone(), src.clone(), &JudgeConfig::default(), many.clone()).is_ok());
    many.push("juror-123".into());
    let e = Verification::new(req.clone(), src.clone(), &JudgeConfig::default(), many).expect_err("duplicate");
    assert!(e.message().contains("\"juror-123\""), "{}", e.message());
    assert!(Verification::new(req, src, &JudgeConfig::default(), vec!["a".into()]).is_ok(), "a later call works");
}
