//! Shared by the integration tests: the case-file replay (the same cases are
//! replayed by the wasm tests and the JS tests).

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
