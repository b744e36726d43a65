//! Prompt and response logs (spec 002 "Logging"): every request to a juror
//! and its raw answer, numbered per juror.
//!
//! The core formats the entries and numbers them; the surface stores them
//! (the CLI in `debug_output/llm_logs/<report>/<judge>_NNNN.txt`, wasm
//! through the host's log callback). Each entry reads:
//!
//! ```text
//! === SYSTEM ===
//! <the instructions sent as the system message>
//!
//! === PROMPT ===
//! <full prompt sent to LLM>
//!
//! === RESPONSE ===
//! <raw response, or ERROR: <why>>
//! ```
//!
//! (the spec's two sections, after the system message, which the spec's
//! Python implementation had inside its prompt).

use super::jury::JurorFailure;
use serde::Serialize;
use std::collections::BTreeMap;

/// One logged exchange with a juror.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    /// The juror's name.
    pub judge: String,
    /// Per-juror call number, from 1.
    pub number: u32,
    /// `<judge>_NNNN.txt` (the name made safe for file systems).
    pub file_name: String,
    /// The system message.
    pub system: String,
    /// The prompt.
    pub prompt: String,
    /// The raw answer, when there is one.
    pub response: Option<String>,
    /// Why there is no answer.
    pub error: Option<String>,
    /// The whole entry as the log file's text.
    pub text: String,
}

/// `name` with every character outside `[A-Za-z0-9_.-]` replaced by `_`
/// (and never empty, never `.` or `..`).
pub fn safe_file_stem(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        format!("_{s}")
    } else {
        s
    }
}

/// Numbers log entries per juror (1, 2, … for each name).
#[derive(Debug, Clone, Default)]
pub struct LogBook {
    next: BTreeMap<String, u32>,
}

impl LogBook {
    /// A book where every juror starts at 1.
    pub fn new() -> LogBook {
        LogBook::default()
    }

    /// Continue `judge`'s numbering after `last` (e.g. after the files a
    /// previous run left in the log directory).
    pub fn resume_after(&mut self, judge: &str, last: u32) {
        let n = self.next.entry(judge.to_string()).or_insert(1);
        *n = (*n).max(last.saturating_add(1));
    }

    /// The entry for one exchange, with the juror's next number.
    pub fn entry(
        &mut self,
        judge: &str,
        system: &str,
        prompt: &str,
        outcome: &Result<String, JurorFailure>,
    ) -> LogEntry {
        let counter = self.next.entry(judge.to_string()).or_insert(1);
        let number = *counter;
        *counter = counter.saturating_add(1);
        let (response, error) = match outcome {
            Ok(r) => (Some(r.clone()), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let shown = match (&response, &error) {
            (Some(r), _) => r.clone(),
            (None, Some(e)) => format!("ERROR: {e}"),
            (None, None) => String::new(),
        };
        let text = format!("=== SYSTEM ===\n{system}\n\n=== PROMPT ===\n{prompt}\n\n=== RESPONSE ===\n{shown}\n");
        LogEntry {
            judge: judge.to_string(),
            number,
            file_name: format!("{}_{number:04}.txt", safe_file_stem(judge)),
            system: system.to_string(),
            prompt: prompt.to_string(),
            response,
            error,
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_per_judge() {
        let mut book = LogBook::new();
        let a1 = book.entry("gemini", "s", "p", &Ok("r".into()));
        let b1 = book.entry("local", "s", "p", &Err(JurorFailure::Timeout { after_ms: 5 }));
        let a2 = book.entry("gemini", "s", "p", &Ok("r".into()));
        assert_eq!(
            (a1.file_name.as_str(), b1.file_name.as_str(), a2.file_name.as_str()),
            ("gemini_0001.txt", "local_0001.txt", "gemini_0002.txt")
        );
        assert!(b1.text.ends_with("=== RESPONSE ===\nERROR: timed out after 5 ms\n"));
        book.resume_after("local", 41);
        assert_eq!(book.entry("local", "", "", &Ok(String::new())).number, 42);
        assert_eq!(safe_file_stem("../x y"), ".._x_y");
        assert_eq!(safe_file_stem(".."), "_..");
        assert_eq!(safe_file_stem(""), "_");
    }
}
