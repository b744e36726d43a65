//! The citation pipeline's configuration (spec 004 Appendix B, "Complete
//! Toggle Reference", and the per-stage settings its pseudo-code reads):
//! one typed struct, read once by `crate::options::Fields` like every
//! options object of the crate. Every default and bound is written here and
//! nowhere else.
//!
//! Parsing is strict: an unknown key, a value of the wrong type or out of
//! its bound is a `CONFIGURATION_ERROR` naming its JSON path
//! (`$.citation_correction.lamda`).
//!
//! The time limit (`max_processing_time_seconds`) starts from the crate's
//! [`DEFAULT_TIME_LIMIT_SECONDS`] (120 s) and is bounded by
//! [`MAX_TIME_LIMIT_SECONDS`] (a day), like every call's: part 1 had its
//! own 30 s and 3600 s. Part 2's settings: `interleaved_generation` (stage
//! 2), `isolated_verification` (stage 4) and `llm_calls` (the bounds on the
//! host's LLM calls: in flight, by confidence tier for stage 4 as Part VI's
//! parallelization strategy says (5 / 3 / 2), per-call timeout, retries).
//!
//! Defaults the spec states: the eight toggles; `high_threshold` 0.85,
//! `low_threshold` 0.50, `quote_match_bonus` 0.3, `hedging_word_penalty` 0.2
//! (stage 3); span length 50–500 characters (stage 1); `lambda_weight` 0.8
//! and `keyword_semantic_hybrid` (stage 5, "the recommended default");
//! `rounding_tolerance` 0.05 and the match threshold 0.9 (stage 6). Defaults
//! the spec leaves open are chosen here and marked "(not in the spec)".

use crate::error::{Error, JsonPath, Result};
use crate::host::{DEFAULT_TIME_LIMIT_SECONDS, MAX_TIME_LIMIT_SECONDS};
use crate::options::{self, Fields};
use serde::Serialize;
use serde_json::Value;

/// How stage 1 ranks spans against the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CorrectionMethod {
    /// CiteFix method 1: the share of the claim's words found in the span.
    Keyword,
    /// CiteFix method 2: λ × keyword + (1 − λ) × embedding cosine.
    KeywordSemanticHybrid,
}

/// `evidence_preselection` (stage 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumericConfig {
    /// Relative difference within which two values are "within rounding
    /// tolerance" (score 0.9).
    pub rounding_tolerance: f64,
    /// Least match score for SUPPORTED.
    pub match_threshold: f64,
}

/// The whole configuration: Appendix B's toggles and each stage's settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CiteConfig {
    /// Stage 1; off: every source is one span (its first
    /// `fallback_max_chars` characters), relevance 1.0.
    pub enable_evidence_preselection: bool,
    /// Stage 2; off: generate-then-cite (one answer from the whole pool,
    /// split into sentences, each cited by its best span).
    pub enable_interleaved_generation: bool,
    /// Stage 3; off: every claim LOW with score 0.3.
    pub enable_confidence_classification: bool,
    /// Stage 5; off: every citation KEEP.
    pub enable_citation_correction: bool,
    /// Stage 6; off: numbers compared as written (digits, no normalization,
    /// no entity or period check).
    pub enable_numeric_qa_verification: bool,
    /// Stage 4; on: a claim whose verdict is NEI, or whose verifier gave
    /// no verdict, is abstained (shown as not verifiable); off: it is forced
    /// to UNSUPPORTED.
    pub enable_abstention: bool,
    /// Stage 4; off: NEI is reported as UNSUPPORTED (stage 5 reads it so).
    pub enable_nei_verdict: bool,
    /// Stage 4's extra web search for claims left UNSUPPORTED or NEI
    /// (accepted; a web search is I/O, which the library does not do, so
    /// the report warns when it is on; the search within the given sources
    /// is stage 5's, after which a replaced claim is verified again).
    pub enable_verification_retrieval: bool,
    /// Time budget of one call, in seconds: [`DEFAULT_TIME_LIMIT_SECONDS`]
    /// unless set, at most [`MAX_TIME_LIMIT_SECONDS`].
    pub max_processing_time_seconds: f64,
    /// Stage 1 settings.
    pub evidence_preselection: EvidencePreselectionConfig,
    /// Stage 2 settings.
    pub interleaved_generation: GenerationConfig,
    /// Stage 3 settings.
    pub confidence_classification: ConfidenceConfig,
    /// Stage 4 settings.
    pub isolated_verification: VerificationConfig,
    /// Stage 5 settings.
    pub citation_correction: CorrectionConfig,
    /// Stage 6 settings.
    pub numeric_qa_verification: NumericConfig,
    /// The bounds on the host's LLM calls.
    pub llm_calls: LlmCallsConfig,
}

/// `interleaved_generation` (stage 2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenerationConfig {
    /// Most claims per section of the outline (the spec's key; the number
    /// is not in the spec).
    pub max_claims_per_section: usize,
    /// Least relevance of a span to the section (the share of the section's
    /// key words in the span, with the span's stage 1 relevance when the
    /// section is the query) for it to be used (the spec's key; the number
    /// is not in the spec).
    pub min_evidence_similarity: f64,
    /// The quick entailment check: the least share of the claim's key
    /// words found in its evidence; a claim holding a number the evidence
    /// does not hold fails whatever the share (not in the spec).
    pub entailment_threshold: f64,
}

/// `isolated_verification` (stage 4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerificationConfig {
    /// Most verification questions of a full CoVe (LOW confidence) that are
    /// answered (not in the spec).
    pub max_cove_questions: usize,
}

/// `llm_calls`: how the host's LLM callbacks are called (Part VI,
/// "Parallelization Strategy").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmCallsConfig {
    /// Most calls of stage 2 and stage 6 in flight at once (the spec gives
    /// no number for them).
    pub max_in_flight: usize,
    /// Most stage 4 calls of HIGH confidence claims in flight at once (the
    /// spec's "HIGH claims: 5 in parallel"). The three tiers run side by
    /// side.
    pub max_in_flight_high: usize,
    /// The same for MEDIUM claims (the spec's 3).
    pub max_in_flight_medium: usize,
    /// The same for LOW claims (the spec's 2).
    pub max_in_flight_low: usize,
    /// Time limit of one call, in seconds.
    pub call_timeout_seconds: f64,
    /// Retries of a call that failed transiently (timed out, threw, HTTP 429
    /// or 5xx).
    pub max_retries: usize,
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
/// Default `max_claims_per_section` (stage 2).
pub const DEFAULT_MAX_CLAIMS_PER_SECTION: usize = 5;
/// Default `min_evidence_similarity` (stage 2).
pub const DEFAULT_MIN_EVIDENCE_SIMILARITY: f64 = 0.1;
/// Default `entailment_threshold` (stage 2's quick check).
pub const DEFAULT_ENTAILMENT_THRESHOLD: f64 = 0.5;
/// Default `max_cove_questions` (stage 4).
pub const DEFAULT_MAX_COVE_QUESTIONS: usize = 3;
/// Largest `max_cove_questions`.
pub const MAX_COVE_QUESTIONS_BOUND: usize = 20;
/// Default `max_in_flight` (stages 2 and 6; not in the spec).
pub const DEFAULT_MAX_IN_FLIGHT: usize = 4;
/// Default `max_in_flight_high`: Part VI's "HIGH claims: 5 in parallel".
pub const DEFAULT_MAX_IN_FLIGHT_HIGH: usize = 5;
/// Default `max_in_flight_medium`: "MEDIUM claims: 3 in parallel".
pub const DEFAULT_MAX_IN_FLIGHT_MEDIUM: usize = 3;
/// Default `max_in_flight_low`: "LOW claims: 2 in parallel".
pub const DEFAULT_MAX_IN_FLIGHT_LOW: usize = 2;
/// Largest value of each `max_in_flight*` (a native run holds at most one
/// thread per call in flight: 4 × this at most).
pub const MAX_IN_FLIGHT_BOUND: usize = 64;
/// Default `call_timeout_seconds`.
pub const DEFAULT_CALL_TIMEOUT_SECONDS: f64 = 60.0;
/// Default `max_retries`.
pub const DEFAULT_MAX_RETRIES: usize = 2;
/// Largest `max_retries`.
pub const MAX_RETRIES_BOUND: usize = 10;
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
            max_processing_time_seconds: DEFAULT_TIME_LIMIT_SECONDS,
            evidence_preselection: EvidencePreselectionConfig::default(),
            interleaved_generation: GenerationConfig::default(),
            confidence_classification: ConfidenceConfig::default(),
            isolated_verification: VerificationConfig::default(),
            citation_correction: CorrectionConfig::default(),
            numeric_qa_verification: NumericConfig::default(),
            llm_calls: LlmCallsConfig::default(),
        }
    }
}

impl Default for GenerationConfig {
    fn default() -> Self {
        GenerationConfig {
            max_claims_per_section: DEFAULT_MAX_CLAIMS_PER_SECTION,
            min_evidence_similarity: DEFAULT_MIN_EVIDENCE_SIMILARITY,
            entailment_threshold: DEFAULT_ENTAILMENT_THRESHOLD,
        }
    }
}

impl Default for VerificationConfig {
    fn default() -> Self {
        VerificationConfig { max_cove_questions: DEFAULT_MAX_COVE_QUESTIONS }
    }
}

impl Default for LlmCallsConfig {
    fn default() -> Self {
        LlmCallsConfig {
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            max_in_flight_high: DEFAULT_MAX_IN_FLIGHT_HIGH,
            max_in_flight_medium: DEFAULT_MAX_IN_FLIGHT_MEDIUM,
            max_in_flight_low: DEFAULT_MAX_IN_FLIGHT_LOW,
            call_timeout_seconds: DEFAULT_CALL_TIMEOUT_SECONDS,
            max_retries: DEFAULT_MAX_RETRIES,
        }
    }
}

impl EvidencePreselectionConfig {
    /// Reads `evidence_preselection` (the defaults for what it leaves out).
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.count("min_span_chars", 0, MAX_SPAN_CHARS_BOUND as u64, &mut self.min_span_chars)?;
        f.count("max_span_chars", 1, MAX_SPAN_CHARS_BOUND as u64, &mut self.max_span_chars)?;
        if let Some((name, at)) = f.string("relevance_computation_method")? {
            self.relevance_computation_method = match name {
                "keyword" => RelevanceMethod::Keyword,
                "semantic" => RelevanceMethod::Semantic,
                "hybrid" => RelevanceMethod::Hybrid,
                _ => return Err(unknown_method(&at, name, &["keyword", "semantic", "hybrid"])),
            };
        }
        f.fraction("hybrid_weight", &mut self.hybrid_weight)?;
        f.fraction("numeric_content_boost", &mut self.numeric_content_boost)?;
        f.within("relevance_threshold", 0.0, 2.0, &mut self.relevance_threshold)?;
        f.count("max_spans_per_source", 1, MAX_SPANS_PER_SOURCE_BOUND as u64, &mut self.max_spans_per_source)?;
        f.count("fallback_max_chars", 1, MAX_SPAN_CHARS_BOUND as u64, &mut self.fallback_max_chars)?;
        let at = f.path().key("max_span_chars");
        f.finish()?;
        if self.max_span_chars < self.min_span_chars {
            return Err(Error::invalid_config(
                &at,
                "range",
                format!("max_span_chars ({}) is below min_span_chars ({})", self.max_span_chars, self.min_span_chars),
            ));
        }
        Ok(())
    }
}

impl GenerationConfig {
    /// Reads `interleaved_generation` (the defaults for what it leaves out).
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.count("max_claims_per_section", 1, MAX_CLAIMS as u64, &mut self.max_claims_per_section)?;
        f.fraction("min_evidence_similarity", &mut self.min_evidence_similarity)?;
        f.fraction("entailment_threshold", &mut self.entailment_threshold)?;
        f.finish()?;
        Ok(())
    }
}

impl ConfidenceConfig {
    /// Reads `confidence_classification` (the defaults for what it leaves out).
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.fraction("high_threshold", &mut self.high_threshold)?;
        f.fraction("low_threshold", &mut self.low_threshold)?;
        f.fraction("quote_match_bonus", &mut self.quote_match_bonus)?;
        f.fraction("hedging_word_penalty", &mut self.hedging_word_penalty)?;
        let at = f.path().key("low_threshold");
        f.finish()?;
        if self.low_threshold > self.high_threshold {
            return Err(Error::invalid_config(
                &at,
                "range",
                format!("low_threshold ({}) is above high_threshold ({})", self.low_threshold, self.high_threshold),
            ));
        }
        Ok(())
    }
}

impl CorrectionConfig {
    /// Reads `citation_correction` (the defaults for what it leaves out).
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        if let Some((name, at)) = f.string("correction_method")? {
            self.correction_method = match name {
                "keyword" => CorrectionMethod::Keyword,
                "keyword_semantic_hybrid" => CorrectionMethod::KeywordSemanticHybrid,
                _ => return Err(unknown_method(&at, name, &["keyword", "keyword_semantic_hybrid"])),
            };
        }
        f.fraction("lambda_weight", &mut self.lambda_weight)?;
        f.fraction("correction_threshold", &mut self.correction_threshold)?;
        f.bool("allow_alternate_citations", &mut self.allow_alternate_citations)?;
        f.finish()?;
        Ok(())
    }
}

impl CiteConfig {
    /// The configuration `value` asks for; `null` is the defaults. Read by
    /// `crate::options::Fields` like every options object of the crate.
    ///
    /// # Errors
    /// `CONFIGURATION_ERROR` naming the JSON path of an unknown key, a value
    /// of the wrong type, an unknown method name or a number out of bounds.
    pub fn from_json(value: &Value) -> Result<CiteConfig> {
        let mut c = CiteConfig::default();
        let Some(mut f) = options::root(value, "the citation configuration")? else {
            return Ok(c);
        };
        for (key, out) in [
            ("enable_evidence_preselection", &mut c.enable_evidence_preselection),
            ("enable_interleaved_generation", &mut c.enable_interleaved_generation),
            ("enable_confidence_classification", &mut c.enable_confidence_classification),
            ("enable_citation_correction", &mut c.enable_citation_correction),
            ("enable_numeric_qa_verification", &mut c.enable_numeric_qa_verification),
            ("enable_abstention", &mut c.enable_abstention),
            ("enable_nei_verdict", &mut c.enable_nei_verdict),
            ("enable_verification_retrieval", &mut c.enable_verification_retrieval),
        ] {
            f.bool(key, out)?;
        }
        f.positive("max_processing_time_seconds", MAX_TIME_LIMIT_SECONDS, &mut c.max_processing_time_seconds)?;
        if let Some(f) = f.object("evidence_preselection")? {
            c.evidence_preselection.read(f)?;
        }
        if let Some(f) = f.object("interleaved_generation")? {
            c.interleaved_generation.read(f)?;
        }
        if let Some(f) = f.object("confidence_classification")? {
            c.confidence_classification.read(f)?;
        }
        if let Some(mut v) = f.object("isolated_verification")? {
            let p = &mut c.isolated_verification;
            v.count("max_cove_questions", 1, MAX_COVE_QUESTIONS_BOUND as u64, &mut p.max_cove_questions)?;
            v.finish()?;
        }
        if let Some(f) = f.object("citation_correction")? {
            c.citation_correction.read(f)?;
        }
        if let Some(mut n) = f.object("numeric_qa_verification")? {
            let p = &mut c.numeric_qa_verification;
            n.within("rounding_tolerance", 0.0, 0.5, &mut p.rounding_tolerance)?;
            n.fraction("match_threshold", &mut p.match_threshold)?;
            n.finish()?;
        }
        if let Some(mut l) = f.object("llm_calls")? {
            let p = &mut c.llm_calls;
            for (key, out) in [
                ("max_in_flight", &mut p.max_in_flight),
                ("max_in_flight_high", &mut p.max_in_flight_high),
                ("max_in_flight_medium", &mut p.max_in_flight_medium),
                ("max_in_flight_low", &mut p.max_in_flight_low),
            ] {
                l.count(key, 1, MAX_IN_FLIGHT_BOUND as u64, out)?;
            }
            l.positive("call_timeout_seconds", MAX_TIME_LIMIT_SECONDS, &mut p.call_timeout_seconds)?;
            l.count("max_retries", 0, MAX_RETRIES_BOUND as u64, &mut p.max_retries)?;
            l.finish()?;
        }
        f.finish()?;
        Ok(c)
    }

    /// The configuration as JSON (every key, with its value).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The call's deadline on `clock`.
    pub fn deadline<'c>(&self, clock: &'c dyn crate::host::Clock) -> crate::host::Deadline<'c> {
        crate::host::Deadline::after(clock, self.max_processing_time_seconds * 1000.0)
    }
}

fn unknown_method(at: &JsonPath, name: &str, names: &[&str]) -> Error {
    Error::invalid_config(at, "enum", format!("unknown method {name:?}; expected one of: {}", names.join(", ")))
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
        // Part VI's parallelization strategy: 5 / 3 / 2 by tier
        let calls = &c.llm_calls;
        assert_eq!((calls.max_in_flight_high, calls.max_in_flight_medium, calls.max_in_flight_low), (5, 3, 2));
        assert_eq!(c.max_processing_time_seconds, DEFAULT_TIME_LIMIT_SECONDS);
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
        for (section, key, name) in [
            ("evidence_preselection", "relevance_computation_method", "semantic"),
            ("citation_correction", "correction_method", "keyword"),
        ] {
            assert!(CiteConfig::from_json(&json!({section: {key: name}})).is_ok(), "{section}.{key} = {name}");
        }
        // part 2's settings are read with their paths too
        for (config, path) in [
            (json!({"llm_calls": {"max_in_flight": 0}}), "$.llm_calls.max_in_flight"),
            (json!({"llm_calls": {"max_in_flight_low": 0}}), "$.llm_calls.max_in_flight_low"),
            (json!({"llm_calls": {"max_in_flight_high": 65}}), "$.llm_calls.max_in_flight_high"),
            (json!({"llm_calls": {"call_timeout_seconds": -1}}), "$.llm_calls.call_timeout_seconds"),
            (json!({"llm_calls": {"retries": 1}}), "$.llm_calls.retries"),
            (
                json!({"isolated_verification": {"max_cove_questions": 99}}),
                "$.isolated_verification.max_cove_questions",
            ),
            (
                json!({"interleaved_generation": {"entailment_threshold": 2}}),
                "$.interleaved_generation.entailment_threshold",
            ),
            (json!({"max_processing_time_seconds": 100_000}), "$.max_processing_time_seconds"),
        ] {
            let e = CiteConfig::from_json(&config).unwrap_err();
            assert_eq!(e.details()["json_path"], path, "{config}: {}", e.message());
        }
    }
}
