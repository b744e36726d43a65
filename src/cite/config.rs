//! The citation pipeline's configuration (spec 004 Appendix B, "Complete
//! Toggle Reference", and the per-stage settings its pseudo-code reads):
//! one typed struct, parsed once with serde. Every default and bound is
//! written here and nowhere else.
//!
//! Parsing is strict: before serde reads the value it is walked against the
//! defaults' own JSON, so an unknown key or a value of the wrong type is a
//! `CONFIGURATION_ERROR` naming its JSON path (`$.citation_correction.lamda`);
//! then every number is checked against its bound, again with its path.
//!
//! Defaults the spec states: the eight toggles; `high_threshold` 0.85,
//! `low_threshold` 0.50, `quote_match_bonus` 0.3, `hedging_word_penalty` 0.2
//! (stage 3); span length 50–500 characters (stage 1); `lambda_weight` 0.8
//! and `keyword_semantic_hybrid` (stage 5, "the recommended default");
//! `rounding_tolerance` 0.05 and the match threshold 0.9 (stage 6). Defaults
//! the spec leaves open are chosen here and marked "(not in the spec)".

use crate::error::{Error, JsonPath, Result};
use crate::json::type_name;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How stage 1 ranks spans against the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelevanceMethod {
    /// BM25 of the query's words in the span, over all spans of all sources.
    Keyword,
    /// Cosine similarity of the host's embeddings of span and query.
    Semantic,
    /// `hybrid_weight` × keyword + (1 − `hybrid_weight`) × semantic.
    Hybrid,
}

/// How stage 5 scores a claim against a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorrectionMethod {
    /// CiteFix method 1: the share of the claim's words found in the span.
    Keyword,
    /// CiteFix method 2: λ × keyword + (1 − λ) × embedding cosine.
    KeywordSemanticHybrid,
}

/// `evidence_preselection` (stage 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvidencePreselectionConfig {
    /// Shortest span kept, in characters (code points).
    pub min_span_chars: usize,
    /// Longest span kept, in characters.
    pub max_span_chars: usize,
    /// How relevance to the query is computed. `semantic` and `hybrid`
    /// need the host's embed callback; without one `keyword` stands in and
    /// the output says so (`relevance_method_used`).
    pub relevance_computation_method: RelevanceMethod,
    /// Weight of the keyword score in `hybrid` (not in the spec).
    pub hybrid_weight: f64,
    /// Added to the relevance of a span holding a number (not in the spec).
    pub numeric_content_boost: f64,
    /// Least relevance (after the boost) a span needs (not in the spec).
    pub relevance_threshold: f64,
    /// The pool keeps the best `max_spans_per_source` × number of sources
    /// spans, as the spec's step 3 says (not a per-source cap; the number is
    /// not in the spec).
    pub max_spans_per_source: usize,
    /// With pre-selection off, each source is one span of at most this
    /// many characters (the spec's `content[:5000]`).
    pub fallback_max_chars: usize,
}

/// `confidence_classification` (stage 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConfidenceConfig {
    /// Score at or above which a claim is HIGH.
    pub high_threshold: f64,
    /// Score at or above which a claim is MEDIUM (below: LOW).
    pub low_threshold: f64,
    /// Weight of the direct-quote signal.
    pub quote_match_bonus: f64,
    /// Penalty per hedging word.
    pub hedging_word_penalty: f64,
}

/// `citation_correction` (stage 5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CorrectionConfig {
    /// The strategy. `keyword_semantic_hybrid` needs the host's embed
    /// callback; without one `keyword` stands in (`correction_method_used`).
    pub correction_method: CorrectionMethod,
    /// λ of the hybrid: the keyword score's weight.
    pub lambda_weight: f64,
    /// A span scoring above this supports the claim (not in the spec).
    pub correction_threshold: f64,
    /// A better span is added beside the current one (ADD_ALTERNATE)
    /// instead of replacing it (not in the spec's defaults; off).
    pub allow_alternate_citations: bool,
}

/// `numeric_qa_verification` (stage 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NumericConfig {
    /// Relative difference within which two values are "within rounding
    /// tolerance" (score 0.9).
    pub rounding_tolerance: f64,
    /// Least match score for SUPPORTED.
    pub match_threshold: f64,
}

/// The whole configuration: Appendix B's toggles and each stage's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CiteConfig {
    /// Stage 1; off: every source is one span (its first
    /// `fallback_max_chars` characters), relevance 1.0.
    pub enable_evidence_preselection: bool,
    /// Stage 2 (part 2 of the pipeline; accepted, unused here).
    pub enable_interleaved_generation: bool,
    /// Stage 3; off: every claim LOW with score 0.3.
    pub enable_confidence_classification: bool,
    /// Stage 5; off: every citation KEEP.
    pub enable_citation_correction: bool,
    /// Stage 6; off: numbers compared as written (digits, no normalization,
    /// no entity or period check).
    pub enable_numeric_qa_verification: bool,
    /// Stage 4 (part 2; accepted, unused here).
    pub enable_abstention: bool,
    /// Stage 4; off: NEI is reported as UNSUPPORTED (stage 5 reads it so).
    pub enable_nei_verdict: bool,
    /// Stage 4 (part 2; accepted, unused here).
    pub enable_verification_retrieval: bool,
    /// Time budget of one call, in seconds (not in the spec).
    pub max_processing_time_seconds: f64,
    /// Stage 1 settings.
    pub evidence_preselection: EvidencePreselectionConfig,
    /// Stage 3 settings.
    pub confidence_classification: ConfidenceConfig,
    /// Stage 5 settings.
    pub citation_correction: CorrectionConfig,
    /// Stage 6 settings.
    pub numeric_qa_verification: NumericConfig,
}

/// Most sources in one call.
pub const MAX_SOURCES: usize = 1_000;
/// Most claims in one call.
pub const MAX_CLAIMS: usize = 10_000;
/// Most citations of one claim.
pub const MAX_CITATIONS_PER_CLAIM: usize = 100;
/// Most bytes of all sources' content and claims' text together (the
/// pipeline keeps a few copies of each span: about 3× this at peak).
pub const MAX_TOTAL_CONTENT_BYTES: usize = 64 << 20;
/// Most characters in one query or claim text.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// Largest `max_span_chars`, `fallback_max_chars`.
pub const MAX_SPAN_CHARS_BOUND: usize = 1_000_000;
/// Largest `max_spans_per_source`.
pub const MAX_SPANS_PER_SOURCE_BOUND: usize = 100_000;
/// Largest `max_processing_time_seconds`.
pub const MAX_PROCESSING_SECONDS_BOUND: f64 = 3_600.0;
/// Score of every claim when stage 3 is off (Appendix B).
pub const FALLBACK_CONFIDENCE: f64 = 0.3;

impl Default for EvidencePreselectionConfig {
    fn default() -> Self {
        EvidencePreselectionConfig {
            min_span_chars: 50,
            max_span_chars: 500,
            relevance_computation_method: RelevanceMethod::Hybrid,
            hybrid_weight: 0.5,
            numeric_content_boost: 0.1,
            relevance_threshold: 0.1,
            max_spans_per_source: 5,
            fallback_max_chars: 5_000,
        }
    }
}

impl Default for ConfidenceConfig {
    fn default() -> Self {
        ConfidenceConfig { high_threshold: 0.85, low_threshold: 0.5, quote_match_bonus: 0.3, hedging_word_penalty: 0.2 }
    }
}

impl Default for CorrectionConfig {
    fn default() -> Self {
        CorrectionConfig {
            correction_method: CorrectionMethod::KeywordSemanticHybrid,
            lambda_weight: 0.8,
            correction_threshold: 0.5,
            allow_alternate_citations: false,
        }
    }
}

impl Default for NumericConfig {
    fn default() -> Self {
        NumericConfig { rounding_tolerance: 0.05, match_threshold: 0.9 }
    }
}

impl Default for CiteConfig {
    fn default() -> Self {
        CiteConfig {
            enable_evidence_preselection: true,
            enable_interleaved_generation: true,
            enable_confidence_classification: true,
            enable_citation_correction: true,
            enable_numeric_qa_verification: true,
            enable_abstention: true,
            enable_nei_verdict: true,
            enable_verification_retrieval: false,
            max_processing_time_seconds: 30.0,
            evidence_preselection: EvidencePreselectionConfig::default(),
            confidence_classification: ConfidenceConfig::default(),
            citation_correction: CorrectionConfig::default(),
            numeric_qa_verification: NumericConfig::default(),
        }
    }
}

impl CiteConfig {
    /// The configuration `value` asks for; `null` is the defaults.
    ///
    /// # Errors
    /// `CONFIGURATION_ERROR` naming the JSON path of an unknown key, a value
    /// of the wrong type, an unknown method name or a number out of bounds.
    pub fn from_json(value: &Value) -> Result<CiteConfig> {
        if value.is_null() {
            return Ok(CiteConfig::default());
        }
        let defaults = serde_json::to_value(CiteConfig::default())
            .map_err(|e| Error::new(crate::ErrorKind::Processing, format!("cannot describe the defaults: {e}")))?;
        check_shape(value, &defaults, &JsonPath::root())?;
        for &(section, key, names) in METHOD_NAMES {
            if let Some(name) = value.get(section).and_then(|s| s.get(key)).and_then(Value::as_str) {
                if !names.contains(&name) {
                    return Err(Error::invalid_config(
                        &JsonPath::root().key(section).key(key),
                        "enum",
                        format!("unknown method {name:?}; expected one of: {}", names.join(", ")),
                    ));
                }
            }
        }
        let config: CiteConfig = serde_json::from_value(value.clone())
            .map_err(|e| Error::invalid_config(&JsonPath::root(), "type", format!("citation configuration: {e}")))?;
        config.check_bounds()?;
        Ok(config)
    }

    /// The configuration as JSON (every key, with its value).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn check_bounds(&self) -> Result<()> {
        let root = JsonPath::root();
        let e = root.key("evidence_preselection");
        let p = &self.evidence_preselection;
        count(&e.key("min_span_chars"), p.min_span_chars, 0, MAX_SPAN_CHARS_BOUND)?;
        count(&e.key("max_span_chars"), p.max_span_chars, 1.max(p.min_span_chars), MAX_SPAN_CHARS_BOUND)?;
        fraction(&e.key("hybrid_weight"), p.hybrid_weight)?;
        fraction(&e.key("numeric_content_boost"), p.numeric_content_boost)?;
        within(&e.key("relevance_threshold"), p.relevance_threshold, 0.0, 2.0)?;
        count(&e.key("max_spans_per_source"), p.max_spans_per_source, 1, MAX_SPANS_PER_SOURCE_BOUND)?;
        count(&e.key("fallback_max_chars"), p.fallback_max_chars, 1, MAX_SPAN_CHARS_BOUND)?;
        let c = root.key("confidence_classification");
        let q = &self.confidence_classification;
        fraction(&c.key("high_threshold"), q.high_threshold)?;
        within(&c.key("low_threshold"), q.low_threshold, 0.0, q.high_threshold)?;
        fraction(&c.key("quote_match_bonus"), q.quote_match_bonus)?;
        fraction(&c.key("hedging_word_penalty"), q.hedging_word_penalty)?;
        let r = root.key("citation_correction");
        fraction(&r.key("lambda_weight"), self.citation_correction.lambda_weight)?;
        fraction(&r.key("correction_threshold"), self.citation_correction.correction_threshold)?;
        let n = root.key("numeric_qa_verification");
        within(&n.key("rounding_tolerance"), self.numeric_qa_verification.rounding_tolerance, 0.0, 0.5)?;
        fraction(&n.key("match_threshold"), self.numeric_qa_verification.match_threshold)?;
        let t = self.max_processing_time_seconds;
        if !(t > 0.0 && t <= MAX_PROCESSING_SECONDS_BOUND) {
            return Err(Error::invalid_config(
                &root.key("max_processing_time_seconds"),
                "range",
                format!(
                    "max_processing_time_seconds is {t}; it must be over 0 and at most {MAX_PROCESSING_SECONDS_BOUND}"
                ),
            ));
        }
        Ok(())
    }

    /// The call's deadline on `clock`.
    pub fn deadline<'c>(&self, clock: &'c dyn crate::host::Clock) -> crate::host::Deadline<'c> {
        crate::host::Deadline::after(clock, self.max_processing_time_seconds * 1000.0)
    }
}

/// The settings whose value is a method name, and the names.
const METHOD_NAMES: &[(&str, &str, &[&str])] = &[
    ("evidence_preselection", "relevance_computation_method", &["keyword", "semantic", "hybrid"]),
    ("citation_correction", "correction_method", &["keyword", "keyword_semantic_hybrid"]),
];

/// `value` has only keys `defaults` has, each of the same JSON type.
fn check_shape(value: &Value, defaults: &Value, path: &JsonPath) -> Result<()> {
    match (value, defaults) {
        (Value::Object(obj), Value::Object(known)) => {
            for (key, v) in obj {
                let Some(d) = known.get(key) else {
                    let mut names: Vec<&str> = known.keys().map(String::as_str).collect();
                    names.sort_unstable();
                    return Err(Error::invalid_config(
                        &path.key(key),
                        "additionalProperties",
                        format!("unknown key {key:?}; the keys here are: {}", names.join(", ")),
                    ));
                };
                check_shape(v, d, &path.key(key))?;
            }
            Ok(())
        }
        (Value::Bool(_), Value::Bool(_)) | (Value::String(_), Value::String(_)) => Ok(()),
        (Value::Number(n), Value::Number(d)) => {
            if d.is_u64() && !n.is_u64() {
                return Err(Error::invalid_config(path, "type", format!("{n} is not a whole number of at least 0")));
            }
            Ok(())
        }
        _ => Err(Error::invalid_config(
            path,
            "type",
            format!("must be {}, got {}", type_name(defaults), type_name(value)),
        )),
    }
}

fn within(path: &JsonPath, x: f64, lo: f64, hi: f64) -> Result<()> {
    if x.is_finite() && x >= lo && x <= hi {
        return Ok(());
    }
    Err(Error::invalid_config(path, "range", format!("{x} is out of range; it must be from {lo} to {hi}")))
}

fn fraction(path: &JsonPath, x: f64) -> Result<()> {
    within(path, x, 0.0, 1.0)
}

fn count(path: &JsonPath, n: usize, lo: usize, hi: usize) -> Result<()> {
    if (lo..=hi).contains(&n) {
        return Ok(());
    }
    Err(Error::invalid_config(path, "range", format!("{n} is out of range; it must be from {lo} to {hi}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_appendix_b() {
        let c = CiteConfig::from_json(&Value::Null).unwrap();
        assert!(c.enable_evidence_preselection && c.enable_confidence_classification);
        assert!(c.enable_citation_correction && c.enable_numeric_qa_verification);
        assert!(c.enable_abstention && c.enable_nei_verdict && c.enable_interleaved_generation);
        assert!(!c.enable_verification_retrieval);
        assert_eq!(
            (c.confidence_classification.high_threshold, c.confidence_classification.low_threshold),
            (0.85, 0.5)
        );
        assert_eq!(c.citation_correction.lambda_weight, 0.8);
        assert_eq!(c.citation_correction.correction_method, CorrectionMethod::KeywordSemanticHybrid);
        assert_eq!((c.evidence_preselection.min_span_chars, c.evidence_preselection.max_span_chars), (50, 500));
        assert_eq!(c.numeric_qa_verification.rounding_tolerance, 0.05);
        assert_eq!(CiteConfig::from_json(&json!({})).unwrap(), c);
        assert_eq!(CiteConfig::from_json(&c.to_json()).unwrap(), c, "round trip");
    }

    #[test]
    fn overrides_merge_with_defaults() {
        let c = CiteConfig::from_json(&json!({
            "enable_citation_correction": false,
            "citation_correction": {"correction_method": "keyword"},
            "evidence_preselection": {"max_spans_per_source": 2}
        }))
        .unwrap();
        assert!(!c.enable_citation_correction);
        assert_eq!(c.citation_correction.correction_method, CorrectionMethod::Keyword);
        assert_eq!(c.citation_correction.lambda_weight, 0.8);
        assert_eq!(c.evidence_preselection.max_spans_per_source, 2);
        assert_eq!(c.evidence_preselection.min_span_chars, 50);
    }

    #[test]
    fn bad_settings_name_their_path() {
        for (config, path) in [
            (json!({"enable_nei": true}), "$.enable_nei"),
            (json!({"citation_correction": {"lamda_weight": 0.5}}), "$.citation_correction.lamda_weight"),
            (json!({"enable_citation_correction": "yes"}), "$.enable_citation_correction"),
            (
                json!({"evidence_preselection": {"max_spans_per_source": 2.5}}),
                "$.evidence_preselection.max_spans_per_source",
            ),
            (
                json!({"evidence_preselection": {"max_spans_per_source": 0}}),
                "$.evidence_preselection.max_spans_per_source",
            ),
            (json!({"citation_correction": {"lambda_weight": 1.5}}), "$.citation_correction.lambda_weight"),
            (json!({"confidence_classification": {"low_threshold": 0.9}}), "$.confidence_classification.low_threshold"),
            (json!({"evidence_preselection": {"min_span_chars": 600}}), "$.evidence_preselection.max_span_chars"),
            (json!({"max_processing_time_seconds": 0}), "$.max_processing_time_seconds"),
            (json!([1]), "$"),
        ] {
            let e = CiteConfig::from_json(&config).unwrap_err();
            assert_eq!(e.code(), "CONFIGURATION_ERROR", "{config}");
            assert_eq!(e.details()["json_path"], path, "{config}: {}", e.message());
        }
        let e =
            CiteConfig::from_json(&json!({"citation_correction": {"correction_method": "bert_score"}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.citation_correction.correction_method");
        assert!(e.message().contains("bert_score"), "{}", e.message());
        // every method name the table lists is one serde reads
        for &(section, key, names) in METHOD_NAMES {
            for name in names {
                assert!(CiteConfig::from_json(&json!({section: {key: name}})).is_ok(), "{section}.{key} = {name}");
            }
        }
    }
}
