//! Shared by the integration tests: the case-file replay (the same cases are
//! replayed by the wasm tests and the JS tests).
// each test binary that includes this module uses only some of it
#![allow(dead_code)]

use evidence_validator::host::FixedClock;
use evidence_validator::transcript::{EvaluationItem, Transcript, TranscriptConfig};
use evidence_validator::validate_evidence;
use serde_json::Value;

/// Looks up a dotted path (`validated_claims.0.match_details.line_number`).
pub fn lookup<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(value, |v, step| match step.parse::<usize>() {
        Ok(i) => v.get(i),
        Err(_) => v.get(step),
    })
}

/// Checks one expectation of a case; `Err` says what differs.
pub fn check(report: &Value, expect: &Value) -> Result<(), String> {
    let path = expect["path"].as_str().unwrap_or("");
    let got = lookup(report, path);
    let fail =
        |what: String| Err(format!("{path}: {what}, got {}", got.map_or("nothing".to_string(), |g| g.to_string())));
    if let Some(want) = expect.get("equals") {
        let same = match (got, want) {
            (Some(Value::Number(a)), Value::Number(b)) => a.as_f64() == b.as_f64(),
            (Some(g), w) => g == w,
            (None, _) => false,
        };
        if !same {
            return fail(format!("expected {want}"));
        }
    }
    if let Some(Value::Array(options)) = expect.get("one_of") {
        if !got.is_some_and(|g| options.contains(g)) {
            return fail(format!("expected one of {options:?}"));
        }
    }
    if let Some(bound) = expect.get("greater_than").and_then(Value::as_f64) {
        if !got.and_then(Value::as_f64).is_some_and(|g| g > bound) {
            return fail(format!("expected more than {bound}"));
        }
    }
    let len = got.and_then(Value::as_array).map(Vec::len);
    if let Some(n) = expect.get("length").and_then(Value::as_u64) {
        if len != Some(n as usize) {
            return fail(format!("expected length {n}"));
        }
    }
    if let Some(n) = expect.get("min_length").and_then(Value::as_u64) {
        if len.is_none_or(|l| l < n as usize) {
            return fail(format!("expected length at least {n}"));
        }
    }
    Ok(())
}

/// The cases of `tests/cases/validate_evidence.json`.
pub fn cases() -> Vec<Value> {
    let text = include_str!("../cases/validate_evidence.json");
    serde_json::from_str::<Value>(text).ok().and_then(|v| v.as_array().cloned()).unwrap_or_default()
}

/// The failures of one case of the case file (its expectations and the span
/// invariant), each prefixed with the case's name.
pub fn replay(case: &Value) -> Vec<String> {
    let name = case["name"].as_str().unwrap_or("?");
    let source = case["source"].as_str().unwrap_or("");
    let report = validate_evidence(source, &case["claims"], &case["config"], &FixedClock(0.0))
        .map(|r| r.to_json())
        .unwrap_or_else(|e| serde_json::json!({"error": e.to_string()}));
    let mut failures: Vec<String> =
        case["expect"].as_array().into_iter().flatten().filter_map(|expect| check(&report, expect).err()).collect();
    failures.extend(spans_hold(source, &report).err());
    failures.into_iter().map(|f| format!("[{name}] {f}")).collect()
}

/// Every span of a report (matches, alternatives, attempted matches, and
/// the edits of each) is its text in bytes, code points and UTF-16.
pub fn spans_hold(source: &str, report: &Value) -> Result<(), String> {
    let mut matches: Vec<&Value> = Vec::new();
    for r in report["validated_claims"].as_array().into_iter().flatten() {
        matches.extend(r.get("match_details"));
        matches.extend(r["alternative_matches"].as_array().into_iter().flatten());
    }
    for f in report["failed_claims"].as_array().into_iter().flatten() {
        matches.extend(f["attempted_matches"].as_array().into_iter().flatten());
    }
    let edits: Vec<&Value> =
        matches.iter().filter_map(|m| m.get("edits")).flat_map(|e| e.as_array().into_iter().flatten()).collect();
    matches.extend(edits);
    let utf16: Vec<u16> = source.encode_utf16().collect();
    let chars: Vec<char> = source.chars().collect();
    for m in matches {
        // an edit's `source` is the source text at its span
        let text = m
            .get("matched_text")
            .or_else(|| m.get("candidate_text"))
            .or_else(|| m.get("source"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let n = |k: &str| m[k].as_u64().unwrap_or(u64::MAX) as usize;
        let by_bytes = source.get(n("byte_start")..n("byte_end"));
        let by_chars: Option<String> = chars.get(n("start_position")..n("end_position")).map(|c| c.iter().collect());
        let by_utf16 = utf16.get(n("utf16_start")..n("utf16_end")).and_then(|u| String::from_utf16(u).ok());
        if by_bytes != Some(text) || by_chars.as_deref() != Some(text) || by_utf16.as_deref() != Some(text) {
            return Err(format!("span does not hold for {m}"));
        }
    }
    Ok(())
}

/// The failures of one case of `tests/data/transcript/validate_cases.json`
/// on transcript `t` (its expectations, and the matched span being the
/// transcript's text at its offsets), each prefixed with the case's name.
pub fn replay_transcript_case(case: &Value, t: &Transcript) -> Vec<String> {
    let name = case["name"].as_str().unwrap_or("?");
    let result = TranscriptConfig::from_json(case.get("config").unwrap_or(&Value::Null))
        .and_then(|config| Ok((config, EvaluationItem::from_json(&case["item"], &Default::default())?)))
        .map(|(config, item)| serde_json::to_value(t.validate(&item, &config)).unwrap_or_default());
    let result = match result {
        Ok(r) => r,
        Err(e) => return vec![format!("[{name}] {e}")],
    };
    let mut failures: Vec<String> =
        case["expect"].as_array().into_iter().flatten().filter_map(|e| check(&result, e).err()).collect();
    if let Some(m) = result.get("matched").filter(|m| !m.is_null()) {
        let n = |k: &str| m["span"][k].as_u64().unwrap_or(u64::MAX) as usize;
        if t.text().get(n("byte_start")..n("byte_end")) != m["text"].as_str() {
            failures.push(format!("the matched span does not hold: {m}"));
        }
    }
    failures.into_iter().map(|f| format!("[{name}] {f}")).collect()
}

/// The report, as JSON, for `quotes` of one `evidence_type` against
/// `source` (ids `EV000`…, task `P1.T001`, the default configuration); it
/// holds one result per quote, in their order.
pub fn report_of(source: &str, quotes: &[&str], evidence_type: &str) -> Value {
    let claims: Vec<Value> = quotes
        .iter()
        .enumerate()
        .map(|(i, q)| serde_json::json!({"id": format!("EV{i:03}"), "task_id": "P1.T001", "quote": q, "evidence_type": evidence_type}))
        .collect();
    let report = validate_evidence(source, &serde_json::json!({"claims": claims}), &Value::Null, &FixedClock(0.0))
        .expect("valid input");
    let report = serde_json::to_value(report).expect("serializable");
    assert_eq!(report["validated_claims"].as_array().map(Vec::len), Some(quotes.len()), "{report:#}");
    report
}

/// A long real text of `../shared/data/texts` (read there, not copied).
pub fn shared_text(name: &str) -> String {
    let path = format!("{}/../shared/data/texts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e} (the shared texts, ../shared/data/texts)"))
}
