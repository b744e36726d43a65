//! The thresholds of spec 001 (validation) and its retry budget, with the
//! spec's defaults. Parsed strictly: an unknown key, a wrong type or an
//! out-of-range value is a `CONFIGURATION_ERROR` naming the JSON path.

use crate::error::{Error, JsonPath, Result};
use serde::Serialize;
use serde_json::Value;

/// Default `max_processing_time_seconds` of the transcript checks (spec
/// 000's default for the same setting).
pub const DEFAULT_MAX_PROCESSING_TIME_SECONDS: f64 = 120.0;
/// Largest `max_processing_time_seconds` accepted (one day); the smallest is
/// any positive number.
pub const MAX_PROCESSING_TIME_SECONDS: f64 = 86_400.0;

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
        let root = JsonPath::root();
        let obj = match value {
            Value::Null => return Ok(TranscriptConfig::default()),
            Value::Object(o) => o,
            _ => {
                return Err(Error::invalid_config(&root, "type", "the transcript configuration must be a JSON object"))
            }
        };
        let mut c = TranscriptConfig::default();
        for (key, v) in obj {
            let p = root.key(key);
            let count = |min: u64, max: u64| -> Result<u64> {
                match v.as_u64() {
                    Some(n) if (min..=max).contains(&n) => Ok(n),
                    _ => Err(Error::invalid_config(
                        &p,
                        "range",
                        format!("{key} must be a whole number from {min} to {max}, got {v}"),
                    )),
                }
            };
            match key.as_str() {
                "min_contiguous_tokens" => c.min_contiguous_tokens = count(1, 10_000)? as usize,
                "max_quote_tokens" => c.max_quote_tokens = count(1, 10_000)? as usize,
                "locality_seconds" => match v.as_f64() {
                    Some(x) if x.is_finite() && (0.0..=86_400.0).contains(&x) => c.locality_seconds = x,
                    _ => {
                        return Err(Error::invalid_config(
                            &p,
                            "range",
                            format!("locality_seconds must be a number of seconds from 0 to 86400, got {v}"),
                        ))
                    }
                },
                "max_generations" => c.max_generations = count(1, 10)? as u32,
                "max_retries_per_item" => c.max_retries_per_item = count(0, 10)? as u32,
                "min_commendations" => c.min_commendations = count(0, 1000)? as usize,
                "min_recommendations" => c.min_recommendations = count(0, 1000)? as usize,
                "max_processing_time_seconds" => match v.as_f64() {
                    Some(x) if x.is_finite() && x > 0.0 && x <= MAX_PROCESSING_TIME_SECONDS => {
                        c.max_processing_time_seconds = x
                    }
                    _ => {
                        return Err(Error::invalid_config(
                            &p,
                            "range",
                            format!(
                                "max_processing_time_seconds must be a number of seconds above 0 and at most \
                                 {MAX_PROCESSING_TIME_SECONDS}, got {v}"
                            ),
                        ))
                    }
                },
                _ => {
                    return Err(Error::invalid_config(
                        &p,
                        "additionalProperties",
                        format!(
                        "unknown setting {key:?}; expected min_contiguous_tokens, max_quote_tokens, locality_seconds, \
                             max_generations, max_retries_per_item, min_commendations, min_recommendations, \
                             max_processing_time_seconds"
                    ),
                    ))
                }
            }
        }
        if c.min_contiguous_tokens > c.max_quote_tokens {
            return Err(Error::invalid_config(
                &root.key("min_contiguous_tokens"),
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
