//! The validation configuration of spec 000 §1.3 and `find`'s options, each
//! default and bound a `const` here. Parsed strictly by the
//! crate's one options reader: an unknown key, a wrong type or an out-of-range value
//! is a `CONFIGURATION_ERROR` naming the JSON path.

use super::claims::MAX_CLAIMS;
use crate::document::Format;
use crate::error::{Error, JsonPath, Result};
use crate::host::{DEFAULT_TIME_LIMIT_SECONDS, MAX_TIME_LIMIT_SECONDS};
use crate::options::{self, Fields};
use crate::text::Profile;
use serde::Serialize;
use serde_json::Value;

/// How fuzzy similarity is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FuzzyAlgorithm {
    /// 1 − edit distance / quote length.
    Levenshtein,
    /// CPython `difflib.SequenceMatcher(None, quote, candidate).ratio()`.
    SequenceMatcher,
}

/// `fuzzy_matching`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FuzzyConfig {
    /// Run the fuzzy matcher.
    pub enabled: bool,
    /// Minimum similarity (0–1) for a fuzzy match.
    pub similarity_threshold: f64,
    /// Maximum edit distance (in characters) for a fuzzy match.
    pub max_edit_distance: usize,
    /// Similarity measure.
    pub algorithm: FuzzyAlgorithm,
}

/// `exact_matching`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactConfig {
    /// Run the exact matcher.
    pub enabled: bool,
    /// Compare case.
    pub case_sensitive: bool,
    /// Collapse whitespace (and join words hyphenated across lines).
    pub normalize_whitespace: bool,
}

/// `semantic_matching` (lexical BM25 over chunks by default).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SemanticConfig {
    /// Run the semantic matcher for paraphrases and references.
    pub enabled: bool,
    /// Chunk length in characters.
    pub chunk_size: usize,
    /// Overlap between consecutive chunks, in characters.
    pub overlap_size: usize,
    /// Minimum similarity (0–1).
    pub similarity_threshold: f64,
}

/// `context_validation`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextConfig {
    /// Use `context_hint` and `expected_section`.
    pub enabled: bool,
    /// Characters each side of a match searched for the hint's words.
    pub context_window: usize,
    /// Check `expected_section` against the match's section.
    pub section_awareness: bool,
}

/// `performance_limits`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LimitsConfig {
    /// Largest document accepted, in MiB.
    pub max_document_size_mb: f64,
    /// Most claims accepted in one call.
    pub max_claims: usize,
    /// Processing time budget, in seconds.
    pub max_processing_time_seconds: f64,
    /// Memory budget of one call, in MiB: a call whose estimated peak
    /// (`estimated_memory_bytes`) is over it is refused up front.
    pub max_memory_mb: f64,
}

/// Peak heap bytes per byte of source measured for a whole validation
/// (the document, its normalized text, the token index and the search
/// state: 6.9× on a 7 MB markdown book, 9.0× on a 17 MB log; `cargo run
/// --release --example memory`), rounded up.
pub const MEMORY_PER_SOURCE_BYTE: usize = 10;

/// Heap bytes per claim in the estimate (its quote, normalized copy,
/// candidates and result; a claim whose quote occurs at the 1000-place cap
/// can hold up to 32 KiB more).
pub const MEMORY_PER_CLAIM: usize = 4 << 10;

/// The estimated peak heap of validating `claims` claims against a source
/// of `source_bytes` bytes.
pub fn estimated_memory_bytes(source_bytes: usize, claims: usize) -> usize {
    source_bytes.saturating_mul(MEMORY_PER_SOURCE_BYTE).saturating_add(claims.saturating_mul(MEMORY_PER_CLAIM))
}

/// `document_processing` (an addition to spec 000 §1.3): how the source is read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentProcessingConfig {
    /// Search the text no reader sees too (HTML `hidden`, `aria-hidden`,
    /// `display:none` / `visibility:hidden` inline styles, `<template>`,
    /// `<noscript>`, scripts and styles, and such raw HTML inside markdown).
    /// Off by default: a quote found only there is not VALIDATED, and is
    /// reported with a `HIDDEN_TEXT` warning and the hidden place.
    pub include_hidden_text: bool,
}

/// `anchoring` (an addition to spec 000 §1.3, issue 18): ellipsis quotes
/// and choosing among several places.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnchoringConfig {
    /// Most characters of source text an ellipsis (`...`, `…`, `[...]`)
    /// may stand for between two fragments of a quote (default
    /// [`DEFAULT_ELLIPSIS_MAX_GAP`]).
    pub ellipsis_max_gap: usize,
    /// How much the best place's score must beat the runner-up's for the
    /// claim to be VALIDATED rather than AMBIGUOUS (0–1, default
    /// [`DEFAULT_DISAMBIGUATION_MARGIN`]); reported as `match_details.margin`.
    pub disambiguation_margin: f64,
    /// A claim's `position` hint: places farther than this many characters
    /// from it are not candidates (default [`DEFAULT_MAX_POSITION_DISTANCE`]).
    pub max_position_distance: usize,
}

/// The whole configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Config {
    /// `fuzzy_matching`.
    pub fuzzy_matching: FuzzyConfig,
    /// `exact_matching`.
    pub exact_matching: ExactConfig,
    /// `semantic_matching`.
    pub semantic_matching: SemanticConfig,
    /// `context_validation`.
    pub context_validation: ContextConfig,
    /// `performance_limits`.
    pub performance_limits: LimitsConfig,
    /// Refuse input fields the schema does not know (default: list them
    /// in a warning).
    pub strict: bool,
    /// `document_processing`.
    pub document_processing: DocumentProcessingConfig,
    /// `anchoring`.
    pub anchoring: AnchoringConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            fuzzy_matching: FuzzyConfig {
                enabled: true,
                similarity_threshold: DEFAULT_FUZZY_SIMILARITY,
                max_edit_distance: DEFAULT_MAX_EDIT_DISTANCE,
                algorithm: FuzzyAlgorithm::Levenshtein,
            },
            exact_matching: ExactConfig { enabled: true, case_sensitive: false, normalize_whitespace: true },
            semantic_matching: SemanticConfig {
                enabled: true,
                chunk_size: DEFAULT_CHUNK_SIZE,
                overlap_size: DEFAULT_OVERLAP_SIZE,
                similarity_threshold: DEFAULT_SEMANTIC_SIMILARITY,
            },
            context_validation: ContextConfig {
                enabled: true,
                context_window: DEFAULT_CONTEXT_WINDOW,
                section_awareness: true,
            },
            performance_limits: LimitsConfig {
                max_document_size_mb: DEFAULT_MAX_DOCUMENT_SIZE_MB,
                max_claims: MAX_CLAIMS,
                max_processing_time_seconds: DEFAULT_TIME_LIMIT_SECONDS,
                max_memory_mb: DEFAULT_MAX_MEMORY_MB,
            },
            strict: false,
            document_processing: DocumentProcessingConfig { include_hidden_text: false },
            anchoring: AnchoringConfig {
                ellipsis_max_gap: DEFAULT_ELLIPSIS_MAX_GAP,
                disambiguation_margin: DEFAULT_DISAMBIGUATION_MARGIN,
                max_position_distance: DEFAULT_MAX_POSITION_DISTANCE,
            },
        }
    }
}

/// Default `fuzzy_matching.similarity_threshold` (spec 000 §1.3).
pub const DEFAULT_FUZZY_SIMILARITY: f64 = 0.85;
/// Default `fuzzy_matching.max_edit_distance` (spec 000 §1.3), also
/// `find`'s `maxEditDistance`.
pub const DEFAULT_MAX_EDIT_DISTANCE: usize = 3;
/// Largest `max_edit_distance` accepted (validate and find, every surface).
pub const MAX_EDIT_DISTANCE_BOUND: usize = 2000;
/// Default `semantic_matching.chunk_size`, in characters (spec 000 §1.3).
pub const DEFAULT_CHUNK_SIZE: usize = 500;
/// Smallest `semantic_matching.chunk_size` accepted.
pub const MIN_CHUNK_SIZE: usize = 10;
/// Default `semantic_matching.overlap_size`, in characters (spec 000 §1.3);
/// it must also stay below the chunk size.
pub const DEFAULT_OVERLAP_SIZE: usize = 100;
/// Largest `chunk_size`, `overlap_size` and `context_window` accepted, in
/// characters.
pub const MAX_WINDOW_BOUND: usize = 1_000_000;
/// Default `semantic_matching.similarity_threshold` (spec 000 §1.3).
pub const DEFAULT_SEMANTIC_SIMILARITY: f64 = 0.75;
/// Default `context_validation.context_window`, in characters (spec 000 §1.3).
pub const DEFAULT_CONTEXT_WINDOW: usize = 200;
/// Default `anchoring.ellipsis_max_gap`, in characters: a paragraph's worth
/// of left-out text.
pub const DEFAULT_ELLIPSIS_MAX_GAP: usize = 300;
/// Default `anchoring.disambiguation_margin`: the best place must score a
/// tenth more than the runner-up.
pub const DEFAULT_DISAMBIGUATION_MARGIN: f64 = 0.1;
/// Default `anchoring.max_position_distance`, in characters.
pub const DEFAULT_MAX_POSITION_DISTANCE: usize = 2000;
/// Default `performance_limits.max_document_size_mb` (spec 000 §1.3).
pub const DEFAULT_MAX_DOCUMENT_SIZE_MB: f64 = 50.0;
/// Largest `max_document_size_mb` accepted (4 GiB).
pub const MAX_DOCUMENT_SIZE_MB_BOUND: f64 = 4096.0;
/// Default `performance_limits.max_memory_mb`.
pub const DEFAULT_MAX_MEMORY_MB: f64 = 100.0;
/// Largest `max_memory_mb` accepted (64 GiB).
pub const MAX_MEMORY_MB_BOUND: f64 = 65_536.0;
/// Largest `max_processing_time_seconds` accepted (a day); the default is
/// [`DEFAULT_TIME_LIMIT_SECONDS`].
pub const MAX_PROCESSING_SECONDS_BOUND: f64 = MAX_TIME_LIMIT_SECONDS;

impl Config {
    /// The deadline of a call starting now on `clock`:
    /// `max_processing_time_seconds` from now.
    pub fn deadline<'c>(&self, clock: &'c dyn crate::host::Clock) -> crate::host::Deadline<'c> {
        crate::host::Deadline::after(clock, self.performance_limits.max_processing_time_seconds * 1000.0)
    }

    /// The normalization profile the exact settings ask for.
    pub fn profile(&self) -> Profile {
        Profile {
            fold_case: !self.exact_matching.case_sensitive,
            collapse_whitespace: self.exact_matching.normalize_whitespace,
        }
    }

    /// Parses overrides (either the §1.3 object with its `validation_config`
    /// wrapper or the inner object) on top of the defaults. `null` means
    /// defaults. Unknown keys, wrong types and out-of-range values are
    /// `CONFIGURATION_ERROR`s naming the JSON path.
    pub fn from_json(value: &Value) -> Result<Config> {
        let root = JsonPath::root();
        let mut top = match value {
            Value::Object(o) if o.len() == 1 && o.contains_key("validation_config") => {
                let mut wrapper = Fields::new(o, &root);
                match wrapper.object("validation_config")? {
                    Some(inner) => inner,
                    None => return Ok(Config::default()),
                }
            }
            other => match options::root(other, "configuration")? {
                Some(top) => top,
                None => return Ok(Config::default()),
            },
        };
        let mut c = Config::default();
        if let Some(f) = top.object("fuzzy_matching")? {
            c.fuzzy_matching.read(f)?;
        }
        if let Some(f) = top.object("exact_matching")? {
            c.exact_matching.read(f)?;
        }
        if let Some(f) = top.object("semantic_matching")? {
            c.semantic_matching.read(f)?;
        }
        if let Some(f) = top.object("context_validation")? {
            c.context_validation.read(f)?;
        }
        if let Some(f) = top.object("performance_limits")? {
            c.performance_limits.read(f)?;
        }
        top.bool("strict", &mut c.strict)?;
        if let Some(mut f) = top.object("document_processing")? {
            f.bool("include_hidden_text", &mut c.document_processing.include_hidden_text)?;
            f.finish()?;
        }
        if let Some(mut f) = top.object("anchoring")? {
            let d = &mut c.anchoring;
            f.count("ellipsis_max_gap", 0, MAX_WINDOW_BOUND as u64, &mut d.ellipsis_max_gap)?;
            f.fraction("disambiguation_margin", &mut d.disambiguation_margin)?;
            f.count("max_position_distance", 0, MAX_WINDOW_BOUND as u64, &mut d.max_position_distance)?;
            f.finish()?;
        }
        top.finish()?;
        Ok(c)
    }
}

impl FuzzyConfig {
    /// `fuzzy_matching`'s fields over these values.
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.bool("enabled", &mut self.enabled)?;
        f.fraction("similarity_threshold", &mut self.similarity_threshold)?;
        f.count("max_edit_distance", 0, MAX_EDIT_DISTANCE_BOUND as u64, &mut self.max_edit_distance)?;
        if let Some((s, p)) = f.string("algorithm")? {
            self.algorithm = match s {
                "levenshtein" => FuzzyAlgorithm::Levenshtein,
                "sequence_matcher" => FuzzyAlgorithm::SequenceMatcher,
                other => {
                    return Err(Error::invalid_config(
                        &p,
                        "enum",
                        format!("unknown algorithm {other:?}; expected \"levenshtein\" or \"sequence_matcher\""),
                    ))
                }
            };
        }
        f.finish()
    }
}

impl ExactConfig {
    /// `exact_matching`'s fields over these values.
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.bool("enabled", &mut self.enabled)?;
        f.bool("case_sensitive", &mut self.case_sensitive)?;
        f.bool("normalize_whitespace", &mut self.normalize_whitespace)?;
        f.finish()
    }
}

impl SemanticConfig {
    /// `semantic_matching`'s fields over these values (the overlap smaller
    /// than the chunk).
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        let at = f.path().key("overlap_size");
        f.bool("enabled", &mut self.enabled)?;
        f.count("chunk_size", MIN_CHUNK_SIZE as u64, MAX_WINDOW_BOUND as u64, &mut self.chunk_size)?;
        f.count("overlap_size", 0, MAX_WINDOW_BOUND as u64, &mut self.overlap_size)?;
        f.fraction("similarity_threshold", &mut self.similarity_threshold)?;
        f.finish()?;
        if self.overlap_size >= self.chunk_size {
            return Err(Error::invalid_config(
                &at,
                "maximum",
                format!("overlap_size ({}) must be smaller than chunk_size ({})", self.overlap_size, self.chunk_size),
            ));
        }
        Ok(())
    }
}

impl ContextConfig {
    /// `context_validation`'s fields over these values.
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.bool("enabled", &mut self.enabled)?;
        f.count("context_window", 0, MAX_WINDOW_BOUND as u64, &mut self.context_window)?;
        f.bool("section_awareness", &mut self.section_awareness)?;
        f.finish()
    }
}

impl LimitsConfig {
    /// `performance_limits`' fields over these values.
    fn read(&mut self, mut f: Fields<'_>) -> Result<()> {
        f.positive("max_document_size_mb", MAX_DOCUMENT_SIZE_MB_BOUND, &mut self.max_document_size_mb)?;
        f.count("max_claims", 1, MAX_CLAIMS as u64, &mut self.max_claims)?;
        f.positive("max_processing_time_seconds", MAX_PROCESSING_SECONDS_BOUND, &mut self.max_processing_time_seconds)?;
        f.positive("max_memory_mb", MAX_MEMORY_MB_BOUND, &mut self.max_memory_mb)?;
        f.finish()
    }
}

/// Most matches `find` returns by default.
pub const DEFAULT_MAX_RESULTS: usize = 1000;

/// Largest `maxResults` accepted by `find`.
pub const MAX_RESULTS_BOUND: usize = 100_000;

/// Bytes of matched text `find` returns at most, whatever `maxResults`
/// says: the memory-aware cap (a 10 MB document of one letter would
/// otherwise give gigabytes of matches).
pub const MAX_RESULT_BYTES: usize = 16 << 20;

/// Options of `find` / `Document.find` (JS names: `maxEditDistance`,
/// `caseSensitive`, `normalizeWhitespace`, `maxResults`,
/// `maxProcessingTimeSeconds`), parsed strictly like [`Config`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindOptions {
    /// Fuzzy matches within this many edits when there is no exact one
    /// (default [`DEFAULT_MAX_EDIT_DISTANCE`], at most [`MAX_EDIT_DISTANCE_BOUND`]).
    pub max_edit_distance: usize,
    /// Compare case (default false).
    pub case_sensitive: bool,
    /// Collapse whitespace (default true).
    pub normalize_whitespace: bool,
    /// Most matches returned (default [`DEFAULT_MAX_RESULTS`], at most
    /// [`MAX_RESULTS_BOUND`]); the rest are counted in `omitted`.
    pub max_results: usize,
    /// Time limit of the search, in seconds (the validation default).
    pub max_processing_time_seconds: f64,
}

impl Default for FindOptions {
    fn default() -> FindOptions {
        let config = Config::default();
        FindOptions {
            max_edit_distance: config.fuzzy_matching.max_edit_distance,
            case_sensitive: config.exact_matching.case_sensitive,
            normalize_whitespace: config.exact_matching.normalize_whitespace,
            max_results: DEFAULT_MAX_RESULTS,
            max_processing_time_seconds: config.performance_limits.max_processing_time_seconds,
        }
    }
}

impl FindOptions {
    /// Parses `{maxEditDistance?, caseSensitive?, normalizeWhitespace?,
    /// maxResults?, maxProcessingTimeSeconds?}` over the defaults; `null`
    /// means defaults. Unknown keys and bad values are CONFIGURATION_ERRORs
    /// naming the JSON path.
    pub fn from_json(value: &Value) -> Result<FindOptions> {
        let mut o = FindOptions::default();
        let Some(mut f) = options::root(value, "find options")? else {
            return Ok(o);
        };
        f.count("maxEditDistance", 0, MAX_EDIT_DISTANCE_BOUND as u64, &mut o.max_edit_distance)?;
        f.bool("caseSensitive", &mut o.case_sensitive)?;
        f.bool("normalizeWhitespace", &mut o.normalize_whitespace)?;
        f.count("maxResults", 1, MAX_RESULTS_BOUND as u64, &mut o.max_results)?;
        f.positive("maxProcessingTimeSeconds", MAX_PROCESSING_SECONDS_BOUND, &mut o.max_processing_time_seconds)?;
        f.finish()?;
        Ok(o)
    }

    /// The normalization profile these options ask for.
    pub fn profile(&self) -> Profile {
        Profile { fold_case: !self.case_sensitive, collapse_whitespace: self.normalize_whitespace }
    }
}

/// Options of building a `Document` (`new Document(source, options)` in
/// JS): `format` overrides detection (`markdown`, `html`, `plain_text`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DocumentOptions {
    /// The source format; `None`, the default: detected from the text.
    pub format: Option<Format>,
}

impl DocumentOptions {
    /// `{format?}`; `null` (and a `null` format) means detection. Unknown
    /// keys and an unknown format are `CONFIGURATION_ERROR`s naming the
    /// JSON path.
    pub fn from_json(value: &Value) -> Result<DocumentOptions> {
        let mut o = DocumentOptions::default();
        let Some(mut f) = options::root_null_absent(value, "document options")? else {
            return Ok(o);
        };
        if let Some((name, p)) = f.string("format")? {
            o.format = Some(Format::from_name(name).ok_or_else(|| {
                Error::invalid_config(
                    &p,
                    "enum",
                    format!("unknown format {name:?}; expected \"markdown\", \"html\" or \"plain_text\""),
                )
            })?);
        }
        f.finish()?;
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_match_the_spec() {
        let c = Config::from_json(&json!({})).unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.fuzzy_matching.similarity_threshold, 0.85);
        assert_eq!(c.fuzzy_matching.max_edit_distance, 3);
        assert_eq!(c.semantic_matching.chunk_size, 500);
        assert_eq!(c.semantic_matching.overlap_size, 100);
        assert_eq!(c.context_validation.context_window, 200);
        assert_eq!(c.performance_limits.max_claims, 1000);
    }

    #[test]
    fn wrapper_and_overrides() {
        let c = Config::from_json(&json!({"validation_config": {"fuzzy_matching": {"max_edit_distance": 5, "algorithm": "sequence_matcher"}}})).unwrap();
        assert_eq!(c.fuzzy_matching.max_edit_distance, 5);
        assert_eq!(c.fuzzy_matching.algorithm, FuzzyAlgorithm::SequenceMatcher);
        assert_eq!(c.fuzzy_matching.similarity_threshold, 0.85);
    }

    #[test]
    fn unknown_keys_and_ranges_are_errors_with_paths() {
        let e = Config::from_json(&json!({"fuzzy_matching": {"treshold": 0.5}})).unwrap_err();
        assert_eq!(e.code(), "CONFIGURATION_ERROR");
        assert_eq!(e.details()["json_path"], "$.fuzzy_matching.treshold");
        let e = Config::from_json(&json!({"semantic_matching": {"similarity_threshold": 1.5}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.semantic_matching.similarity_threshold");
        let e = Config::from_json(&json!({"semantic_matching": {"chunk_size": 100, "overlap_size": 100}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.semantic_matching.overlap_size");
        let e = Config::from_json(&json!({"performance_limits": {"max_claims": 0}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.performance_limits.max_claims");
        let e = Config::from_json(&json!({"exact_matching": {"enabled": "yes"}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.exact_matching.enabled");
        assert!(Config::from_json(&json!([1])).is_err());
        let e = Config::from_json(&json!({"extra": 1})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.extra");
    }

    #[test]
    fn document_and_find_options_are_strict_with_paths() {
        assert_eq!(DocumentOptions::from_json(&Value::Null).unwrap().format, None);
        assert_eq!(DocumentOptions::from_json(&json!({"format": null})).unwrap().format, None);
        assert_eq!(DocumentOptions::from_json(&json!({"format": "html"})).unwrap().format, Some(Format::Html));
        for (bad, path) in [(json!({"format": "docx"}), "$.format"), (json!({"fromat": "html"}), "$.fromat")] {
            let e = DocumentOptions::from_json(&bad).unwrap_err();
            assert_eq!((e.code(), e.details()["json_path"].as_str()), ("CONFIGURATION_ERROR", Some(path)));
        }
        let o = FindOptions::from_json(&Value::Null).unwrap();
        assert_eq!((o.max_edit_distance, o.max_results), (DEFAULT_MAX_EDIT_DISTANCE, DEFAULT_MAX_RESULTS));
        let e = FindOptions::from_json(&json!({ "maxEditDistance": MAX_EDIT_DISTANCE_BOUND + 1 })).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.maxEditDistance");
        assert!(FindOptions::from_json(&json!({ "maxEditDistance": MAX_EDIT_DISTANCE_BOUND })).is_ok());
    }

    #[test]
    fn document_processing_is_strict() {
        assert!(!Config::default().document_processing.include_hidden_text);
        let c = Config::from_json(&json!({"document_processing": {"include_hidden_text": true}})).unwrap();
        assert!(c.document_processing.include_hidden_text);
        let c = Config::from_json(&json!({"validation_config": {"document_processing": null}})).unwrap();
        assert!(!c.document_processing.include_hidden_text);
        let e = Config::from_json(&json!({"document_processing": {"include_hidden_text": "yes"}})).unwrap_err();
        assert_eq!(e.code(), "CONFIGURATION_ERROR");
        assert_eq!(e.details()["json_path"], "$.document_processing.include_hidden_text");
        let e = Config::from_json(&json!({"document_processing": {"include_hidden": true}})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.document_processing.include_hidden");
        let e = Config::from_json(&json!({"document_processing": true})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.document_processing");
    }
}
