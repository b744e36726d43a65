//! Prompt and response logs (spec 002 "Logging"): every request to a juror
//! and its raw answer, numbered by case as the spec's listing numbers them
//! (`gemini_0001.txt`, `local_0001.txt`, `gemini_0002.txt`,
//! `local_0002.txt`: every juror's exchange about one claim has the
//! claim's number).
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
use std::collections::BTreeSet;

/// One logged exchange with a juror.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    /// The juror's name.
    pub judge: String,
    /// The case (claim) number, from 1: the same for every juror asked
    /// about one claim.
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

/// Numbers log entries by case. A case is one claim put to the jury: its
/// entries come one per juror, so an entry for a juror that already has
/// one in the current case starts the next case. Cases in which no juror
/// was asked (a citation whose file is missing) take no number.
#[derive(Debug, Clone, Default)]
pub struct LogBook {
    /// The current case's number (0 before the first entry).
    case: u32,
    /// The jurors with an entry in the current case.
    in_case: BTreeSet<String>,
}

impl LogBook {
    /// A book whose first case is 1.
    pub fn new() -> LogBook {
        LogBook::default()
    }

    /// Continue the numbering after case `last` (e.g. after the files a
    /// previous run left in the log directory, by any juror: `judge` is
    /// kept for callers that resume juror by juror).
    pub fn resume_after(&mut self, judge: &str, last: u32) {
        let _ = judge;
        if last >= self.case {
            self.case = last;
            self.in_case.clear();
            // the next entry, whoever it is for, starts a new case
            self.in_case.insert(String::new());
        }
    }

    /// Starts the next case now (for a host that knows where a claim
    /// starts; the book also notices it by itself, see [`LogBook`]).
    pub fn next_case(&mut self) {
        self.case = self.case.saturating_add(1);
        self.in_case.clear();
    }

    /// The entry for one exchange, numbered with its case.
    pub fn entry(
        &mut self,
        judge: &str,
        system: &str,
        prompt: &str,
        outcome: &Result<String, JurorFailure>,
    ) -> LogEntry {
        if self.case == 0 || self.in_case.contains(judge) || self.in_case.contains("") {
            self.next_case();
        }
        self.in_case.insert(judge.to_string());
        let number = self.case;
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
    fn numbers_the_case_as_the_spec_lists_them() {
        let mut book = LogBook::new();
        let names: Vec<String> = [("gemini", Ok("r".into())), ("local", Err(JurorFailure::Timeout { after_ms: 5 }))]
            .iter()
            .cycle()
            .take(4)
            .map(|(j, outcome)| book.entry(j, "s", "p", outcome).file_name)
            .collect();
        // the spec's listing, in its order
        assert_eq!(names, ["gemini_0001.txt", "local_0001.txt", "gemini_0002.txt", "local_0002.txt"]);
        let b = book.entry("local", "s", "p", &Err(JurorFailure::Timeout { after_ms: 5 }));
        assert_eq!(b.number, 3);
        assert!(b.text.ends_with("=== RESPONSE ===\nERROR: timed out after 5 ms\n"));
        // a juror asked alone still gets the case's number, not its own count
        assert_eq!(book.entry("gemini", "", "", &Ok(String::new())).number, 3);
        assert_eq!(book.entry("gemini", "", "", &Ok(String::new())).number, 4);
        book.next_case();
        assert_eq!(book.entry("local", "", "", &Ok(String::new())).number, 5);
        // resuming after files a previous run left: the next case follows the last
        book.resume_after("local", 41);
        assert_eq!(book.entry("gemini", "", "", &Ok(String::new())).number, 42);
        assert_eq!(book.entry("local", "", "", &Ok(String::new())).number, 42);
        book.resume_after("gemini", 7);
        assert_eq!(book.entry("gemini", "", "", &Ok(String::new())).number, 43);
        assert_eq!(safe_file_stem("../x y"), ".._x_y");
        assert_eq!(safe_file_stem(".."), "_..");
        assert_eq!(safe_file_stem(""), "_");
    }
}
