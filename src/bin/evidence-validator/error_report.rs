//! Spec 000 §2.2's report for bad input: with `--output`, a `validate` that
//! fails on its input still writes a report there — `ok: false`, the error
//! in `errors[]` (`code`, `message`, `details` with the JSON path), no claim
//! results — and the command exits 2 with the usual line on stderr.

use evidence_validator::host::{rfc3339, Clock, SystemClock};
use evidence_validator::validate::{content_hash, Summary, GENERATOR};
use evidence_validator::Error;
use serde_json::{json, Value};
use std::path::PathBuf;

use crate::Command;

/// Where a failed `validate` writes its error report: its `--output`.
pub(crate) fn destination(command: &Command) -> Option<PathBuf> {
    match command {
        Command::Validate { output, .. } => output.clone(),
        _ => None,
    }
}

/// The report of a run refused on its input: the spec's required fields
/// (`ok`, `generated` with its content hash, `validation_summary`) and the
/// error as its `errors[]` entry. Nothing was validated, so the summary
/// counts no claim and both claim lists are empty. Fails only when the
/// content hash cannot be computed.
pub(crate) fn report(error: &Error, clock: &dyn Clock) -> Result<Value, Error> {
    let summary = Summary::of(0, &[]);
    Ok(json!({
        "ok": false,
        "errors": [error.to_json()],
        "warnings": [],
        "generated": {
            "by": GENERATOR,
            "timestamp": rfc3339(clock.now_ms()),
            "contentHash": content_hash(&[], &[], &summary)?,
        },
        "validation_summary": summary,
        "validated_claims": [],
        "failed_claims": [],
    }))
}

/// Writes [`report`] to `path`; a failure to build or write it is one more
/// stderr line (the exit code stays 2: the input was bad).
pub(crate) fn write(path: &std::path::Path, error: &Error) {
    let report = match report(error, &SystemClock) {
        Ok(report) => report,
        Err(e) => return crate::note(&format!("cannot write the error report to {}: {}", path.display(), e.message())),
    };
    let text = serde_json::to_string_pretty(&report).unwrap_or_default();
    if let Err(e) = std::fs::write(path, format!("{text}\n")) {
        crate::note(&format!("cannot write the error report to {}: {e}", path.display()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evidence_validator::error::JsonPath;

    struct At(f64);
    impl Clock for At {
        fn now_ms(&self) -> f64 {
            self.0
        }
    }

    #[test]
    fn the_report_carries_the_error_with_its_path() {
        let e = Error::invalid_input(&JsonPath::root().key("claims").index(0).key("id"), "pattern", "bad id");
        let r = report(&e, &At(0.0)).expect("the empty results hash");
        assert_eq!(r["ok"], false);
        assert_eq!(r["errors"][0]["code"], "VALIDATION_ERROR");
        assert_eq!(r["errors"][0]["message"], "bad id at $.claims[0].id");
        assert_eq!(r["errors"][0]["details"]["json_path"], "$.claims[0].id");
        assert_eq!(r["generated"]["timestamp"], "1970-01-01T00:00:00.000Z");
        // the hash of no results (report.rs checks this value against Python's hashlib)
        assert_eq!(r["generated"]["contentHash"], "cfd34610c532788c7196ee42b421011159bfaf59d33abe3816f489d68e9d65fa");
        assert_eq!(r["validation_summary"]["total_claims"], 0);
    }
}
