//! Shared by the judge tests: the scripted juries of
//! `tests/data/judge/jury.json` and how their expectations are checked.
#![allow(dead_code)]

use evidence_validator::judge::{ClaimRequest, JudgeResult};
use serde_json::Value;

/// The jury file.
pub fn jury_data() -> Value {
    serde_json::from_str(include_str!("../data/judge/jury.json")).expect("jury.json is JSON")
}

/// One scripted answer.
pub enum Script {
    /// Answers with this raw text.
    Answer(String),
    /// The call fails with this message.
    Error(String),
    /// Never answers.
    Hang,
}

/// A case's jurors, in order.
pub fn scripts(case: &Value) -> Vec<(String, Script)> {
    case["answers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            let name = a["judge"].as_str().unwrap_or("?").to_string();
            let script = if let Some(t) = a["answer"].as_str() {
                Script::Answer(t.to_string())
            } else if let Some(e) = a["error"].as_str() {
                Script::Error(e.to_string())
            } else {
                Script::Hang
            };
            (name, script)
        })
        .collect()
}

/// A case's request and source (`None`: the file does not exist).
pub fn request(data: &Value, case: &Value) -> (ClaimRequest, Option<String>) {
    let mut base = data["request"].clone();
    let mut source = data["source"].as_str().map(str::to_string);
    if let Some(over) = case["request"].as_object() {
        for (k, v) in over {
            if k == "source" {
                source = v.as_str().map(str::to_string);
            } else {
                base[k] = v.clone();
            }
        }
    }
    let s = |k: &str| base[k].as_str().unwrap_or("").to_string();
    let n = |k: &str| base[k].as_u64().unwrap_or(0) as usize;
    (ClaimRequest::new(s("claim"), s("quote"), s("filename"), n("start_line"), n("end_line")), source)
}

/// What differs from the case's expectations.
pub fn check(case: &Value, result: &JudgeResult) -> Vec<String> {
    let name = case["name"].as_str().unwrap_or("?");
    let e = &case["expect"];
    let mut out = Vec::new();
    let mut want = |ok: bool, what: &str| {
        if !ok {
            out.push(format!("[{name}] {what}: {}", serde_json::to_string(result).unwrap_or_default()));
        }
    };
    if let Some(v) = e["verdict"].as_str() {
        want(result.verdict.as_str() == v, "verdict");
    }
    if let Some(v) = e["semantic_verdict"].as_str() {
        want(result.step_3_semantic.as_ref().is_some_and(|s| s.verdict.as_str() == v), "semantic verdict");
    }
    let reason = result.step_3_semantic.as_ref().map(|s| s.reason.clone()).unwrap_or_default();
    if let Some(p) = e["reason_starts_with"].as_str() {
        want(reason.starts_with(p), "reason_starts_with");
    }
    if let Some(p) = e["reason_contains"].as_str() {
        want(reason.contains(p), "reason_contains");
    }
    if let Some(n) = e["answered"].as_u64() {
        want(result.jury.answered as u64 == n, "answered");
    }
    if let Some(n) = e["failed"].as_u64() {
        want(result.jury.failed as u64 == n, "failed");
    }
    if let Some(n) = e["abstained"].as_u64() {
        want(result.jury.abstained as u64 == n, "abstained");
        let flagged = result.jury.votes.iter().filter(|v| v.abstained).count() as u64;
        want(flagged == n, "votes flagged abstained");
    }
    if let Some(b) = e["verified"].as_bool() {
        want(result.verified == b, "verified");
    }
    if let Some(b) = e["convened"].as_bool() {
        want(result.jury.convened == b, "convened");
    }
    if let Some(b) = e["step_1_existence"].as_bool() {
        want(result.step_1_existence == b, "step_1_existence");
    }
    if let Some(b) = e["step_2_quote_match"].as_bool() {
        want(result.step_2_quote_match == b, "step_2_quote_match");
    }
    if let Some(p) = e["error_contains"].as_str() {
        want(result.error.as_deref().is_some_and(|m| m.contains(p)), "error_contains");
    }
    if let Some(errors) = e["errors_contain"].as_object() {
        for (judge, part) in errors {
            let got =
                result.jury.votes.iter().find(|v| &v.judge == judge).and_then(|v| v.error.clone()).unwrap_or_default();
            want(got.contains(part.as_str().unwrap_or("?")), &format!("error of {judge}"));
        }
    }
    out
}
