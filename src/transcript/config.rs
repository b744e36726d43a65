//! The thresholds of spec 001 (validation) and its retry budget, with the
//! spec's defaults, and the options of importing a transcript and of
//! running the budget. Parsed strictly (the
//! crate's one options reader): an unknown key, a wrong type or an
//! out-of-range value is a `CONFIGURATION_ERROR` naming the JSON path.

use super::InputFormat;
use crate::error::{Error, JsonPath, Result};
use crate::host::{DEFAULT_TIME_LIMIT_SECONDS, MAX_TIME_LIMIT_SECONDS};
use crate::options;
use serde::Serialize;
use serde_json::Value;

/// Default `max_processing_time_seconds` of the transcript checks (spec
/// 000's default for the same setting).
pub const DEFAULT_MAX_PROCESSING_TIME_SECONDS: f64 = DEFAULT_TIME_LIMIT_SECONDS;
/// Largest `max_processing_time_seconds` accepted (one day); the smallest is
/// any positive number.
pub const MAX_PROCESSING_TIME_SECONDS: f64 = MAX_TIME_LIMIT_SECONDS;

/// Thresholds for transcript evidence and the retry budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranscriptConfig {
    /// At least this many consecutive matching tokens (spec: 6).
    pub min_contiguous_tokens: usize,
    /// A quote has at most this many tokens (spec: 15).
    pub max_quote_tokens: usize,
    /// Timestamp locality window in seconds (spec: 20).
    pub locality_seconds: f64,
    /// Generations of the whole evaluation, the first included (spec: 2).
    pub max_generations: u32,
    /// Re-prompts of one failing item (spec: 1).
    pub max_retries_per_item: u32,
    /// Fewer validated commendations than this triggers regeneration (spec: 2).
    pub min_commendations: usize,
    /// Fewer validated recommendations than this triggers regeneration (spec: 1).
    pub min_recommendations: usize,
    /// The time limit of one call (import, validation, preview), in seconds:
    /// [`DEFAULT_MAX_PROCESSING_TIME_SECONDS`] unless set, at most
    /// [`MAX_PROCESSING_TIME_SECONDS`]. Past it the call stops with a
    /// `PROCESSING_ERROR` naming what was not finished.
    pub max_processing_time_seconds: f64,
}

impl Default for TranscriptConfig {
    fn default() -> TranscriptConfig {
        TranscriptConfig {
            min_contiguous_tokens: 6,
            max_quote_tokens: 15,
            locality_seconds: 20.0,
            max_generations: 2,
            max_retries_per_item: 1,
            min_commendations: 2,
            min_recommendations: 1,
            max_processing_time_seconds: DEFAULT_MAX_PROCESSING_TIME_SECONDS,
        }
    }
}

impl TranscriptConfig {
    /// A deadline of `max_processing_time_seconds` from now on `clock`: one
    /// per call.
    pub fn deadline<'c>(&self, clock: &'c dyn crate::host::Clock) -> crate::host::Deadline<'c> {
        crate::host::Deadline::after(clock, self.max_processing_time_seconds * 1000.0)
    }

    /// Overrides on top of the defaults; `null` means the defaults.
    ///
    /// ```
    /// use evidence_validator::transcript::TranscriptConfig;
    /// let c = TranscriptConfig::from_json(&serde_json::json!({"locality_seconds": 30})).unwrap();
    /// assert_eq!((c.locality_seconds, c.max_quote_tokens), (30.0, 15));
    /// assert!(TranscriptConfig::from_json(&serde_json::json!({"locality": 30})).is_err());
    /// ```
    pub fn from_json(value: &Value) -> Result<TranscriptConfig> {
        let mut c = TranscriptConfig::default();
        let Some(mut f) = options::root(value, "the transcript configuration")? else {
            return Ok(c);
        };
        f.count("min_contiguous_tokens", 1, MAX_TOKENS_BOUND, &mut c.min_contiguous_tokens)?;
        f.count("max_quote_tokens", 1, MAX_TOKENS_BOUND, &mut c.max_quote_tokens)?;
        f.within("locality_seconds", 0.0, MAX_TIME_LIMIT_SECONDS, &mut c.locality_seconds)?;
        f.count("max_generations", 1, MAX_GENERATIONS_BOUND, &mut c.max_generations)?;
        f.count("max_retries_per_item", 0, MAX_RETRIES_BOUND, &mut c.max_retries_per_item)?;
        f.count("min_commendations", 0, MIN_ITEMS_BOUND, &mut c.min_commendations)?;
        f.count("min_recommendations", 0, MIN_ITEMS_BOUND, &mut c.min_recommendations)?;
        f.positive("max_processing_time_seconds", MAX_PROCESSING_TIME_SECONDS, &mut c.max_processing_time_seconds)?;
        f.finish()?;
        if c.min_contiguous_tokens > c.max_quote_tokens {
            return Err(Error::invalid_config(
                &JsonPath::root().key("min_contiguous_tokens"),
                "maximum",
                format!(
                    "min_contiguous_tokens ({}) exceeds max_quote_tokens ({}): no quote could pass",
                    c.min_contiguous_tokens, c.max_quote_tokens
                ),
            ));
        }
        Ok(c)
    }
}

/// Largest `min_contiguous_tokens` and `max_quote_tokens` accepted.
pub const MAX_TOKENS_BOUND: u64 = 10_000;
/// Largest `max_generations` accepted.
pub const MAX_GENERATIONS_BOUND: u64 = 10;
/// Largest `max_retries_per_item` accepted.
pub const MAX_RETRIES_BOUND: u64 = 10;
/// Largest `min_commendations` and `min_recommendations` accepted.
pub const MIN_ITEMS_BOUND: u64 = 1000;

/// Options of reading a transcript (`new Transcript(input, options)` in JS:
/// `format`, `fileName`, `maxProcessingTimeSeconds`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImportOptions {
    /// How to read the text: [`InputFormat::Auto`] unless set, else by
    /// `fileName`'s extension when that says.
    pub format: InputFormat,
    /// Time limit of the import in seconds ([`DEFAULT_MAX_PROCESSING_TIME_SECONDS`]
    /// unless set, at most [`MAX_PROCESSING_TIME_SECONDS`]).
    pub max_processing_time_seconds: f64,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions { format: InputFormat::Auto, max_processing_time_seconds: DEFAULT_MAX_PROCESSING_TIME_SECONDS }
    }
}

impl ImportOptions {
    /// `{format?, fileName?, maxProcessingTimeSeconds?}`; `null` means the
    /// defaults. A `format` other than `auto` wins over `fileName`.
    pub fn from_json(value: &Value) -> Result<ImportOptions> {
        let mut o = ImportOptions::default();
        let Some(mut f) = options::root_null_absent(value, "options")? else {
            return Ok(o);
        };
        if let Some((name, p)) = f.string("format")? {
            o.format = InputFormat::from_name(name).ok_or_else(|| {
                Error::invalid_config(
                    &p,
                    "enum",
                    format!("unknown options.format {name:?}; expected \"auto\", \"json\", \"srt\" or \"vtt\""),
                )
            })?;
        }
        if let Some((name, _)) = f.string("fileName")? {
            if o.format == InputFormat::Auto {
                o.format = InputFormat::from_file_name(name);
            }
        }
        f.positive("maxProcessingTimeSeconds", MAX_PROCESSING_TIME_SECONDS, &mut o.max_processing_time_seconds)?;
        f.finish()?;
        Ok(o)
    }
}

/// Longest wait for one host answer that a runtime timer can express, in
/// milliseconds (`setTimeout`'s limit, 2^31 − 1).
pub const MAX_CALLBACK_TIMEOUT_MS: f64 = 2_147_483_647.0;

/// Options of driving the retry budget with host callbacks
/// (`EvaluationGenerator.run(callbacks, options)`: `timeoutMs`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunOptions {
    /// Longest wait for one callback answer, in milliseconds (at most
    /// [`MAX_CALLBACK_TIMEOUT_MS`]); `None`, the default: no limit.
    pub timeout_ms: Option<f64>,
}

impl RunOptions {
    /// `{timeoutMs?}`; `null` means the defaults.
    pub fn from_json(value: &Value) -> Result<RunOptions> {
        let Some(mut f) = options::root_null_absent(value, "options")? else {
            return Ok(RunOptions::default());
        };
        let mut ms = f64::NAN;
        f.positive("timeoutMs", MAX_CALLBACK_TIMEOUT_MS, &mut ms)?;
        f.finish()?;
        Ok(RunOptions { timeout_ms: Some(ms).filter(|ms| !ms.is_nan()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn import_options_take_a_format_or_a_file_name() {
        let o = ImportOptions::from_json(&json!({"fileName": "talk.VTT", "maxProcessingTimeSeconds": 5})).unwrap();
        assert_eq!((o.format, o.max_processing_time_seconds), (InputFormat::Vtt, 5.0));
        // an explicit format wins over the file name; null is absent
        let o = ImportOptions::from_json(&json!({"format": "srt", "fileName": "talk.vtt"})).unwrap();
        assert_eq!(o.format, InputFormat::Srt);
        let o = ImportOptions::from_json(&json!({"format": null, "fileName": null})).unwrap();
        assert_eq!(o, ImportOptions::default());
        assert_eq!(o.max_processing_time_seconds, 120.0);
        for (bad, path) in [
            (json!({"format": "docx"}), "$.format"),
            (json!({"maxProcessingTimeSeconds": 0}), "$.maxProcessingTimeSeconds"),
            (json!({"maxProcessingTimeSeconds": 86_401}), "$.maxProcessingTimeSeconds"),
            (json!({"filename": "a.srt"}), "$.filename"),
        ] {
            let e = ImportOptions::from_json(&bad).unwrap_err();
            assert_eq!((e.code(), e.details()["json_path"].as_str()), ("CONFIGURATION_ERROR", Some(path)), "{bad}");
        }
    }

    #[test]
    fn run_options_bound_the_wait_by_what_a_timer_can_express() {
        assert_eq!(RunOptions::from_json(&Value::Null).unwrap().timeout_ms, None);
        assert_eq!(RunOptions::from_json(&json!({"timeoutMs": null})).unwrap().timeout_ms, None);
        assert_eq!(RunOptions::from_json(&json!({"timeoutMs": 30})).unwrap().timeout_ms, Some(30.0));
        assert!(RunOptions::from_json(&json!({ "timeoutMs": MAX_CALLBACK_TIMEOUT_MS })).is_ok());
        for bad in [json!(-1), json!(0), json!(2_147_483_648_u64), json!("30")] {
            let e = RunOptions::from_json(&json!({ "timeoutMs": bad })).unwrap_err();
            assert_eq!(e.details()["json_path"], "$.timeoutMs", "{bad}");
        }
    }

    #[test]
    fn the_transcript_config_names_bad_values_by_path() {
        for (bad, path) in [
            (json!({"min_contiguous_tokens": 0}), "$.min_contiguous_tokens"),
            (json!({"max_quote_tokens": 2.5}), "$.max_quote_tokens"),
            (json!({"locality_seconds": -1}), "$.locality_seconds"),
            (json!({"max_generations": 11}), "$.max_generations"),
            (json!({"min_contiguous_tokens": 20}), "$.min_contiguous_tokens"),
            (json!({"locality": 3}), "$.locality"),
        ] {
            let e = TranscriptConfig::from_json(&bad).unwrap_err();
            assert_eq!(e.details()["json_path"].as_str(), Some(path), "{bad}");
        }
    }
}
