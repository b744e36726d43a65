//! `validate_evidence` (spec 000): checks every claim against a document with
//! the exact, fuzzy, token, lexical and section matchers, applies context
//! validation, the number/negation guard, and decides each claim's status.
//!
//! Every claim of the input appears once in `validated_claims` (its result,
//! whatever the status) and, unless VALIDATED, once in `failed_claims` (why,
//! with the rejected candidates and suggestions). A claim is never dropped:
//! if the time budget runs out, the claims not reached are named in a
//! `PROCESSING_ERROR` entry of `errors` and `ok` is false.

mod canonical;
mod claims;
mod config;
mod engine;
mod reanchor;
mod report;
mod selectors;
mod sliced;

pub use crate::matching::meaning::{Change, EditKind};
pub use crate::matching::semantic::{Embedder, Precomputed};
pub use claims::{
    Claim, ClaimSet, EvidenceType, DEFAULT_CONFIDENCE_THRESHOLD, MAX_CLAIMS, MAX_QUOTE_CHARS, MIN_QUOTE_CHARS,
};
pub use config::{
    AnchoringConfig, Config, ContextConfig, DocumentOptions, DocumentProcessingConfig, ExactConfig, FindOptions,
    FuzzyAlgorithm, FuzzyConfig, LimitsConfig, SemanticConfig, DEFAULT_DISAMBIGUATION_MARGIN, DEFAULT_ELLIPSIS_MAX_GAP,
    DEFAULT_MAX_EDIT_DISTANCE, DEFAULT_MAX_POSITION_DISTANCE, DEFAULT_MAX_RESULTS, MAX_EDIT_DISTANCE_BOUND,
    MAX_RESULTS_BOUND, MAX_RESULT_BYTES,
};
pub use engine::{find, find_quote, FindResult, FoundMatch, MAX_PLACES_PER_CLAIM};
pub use reanchor::{reanchor, AnchorStatus, Reanchored, MAX_ANNOTATIONS, REANCHOR_MAX_CHANGE};
pub use report::{
    canonical_json, content_hash, Alternative, Attempt, ClaimResult, Discrepancy, FailedClaim, FailureReason,
    Generated, Location, MatchDetails, MatchEdit, MatchType, Report, SemanticMethod, Status, Summary, TextAt, Warning,
};
pub use selectors::{
    encode_term, Selector, AFFIX_COMPARED_CHARS, SELECTOR_AFFIX_CHARS, TEXT_FRAGMENT_CONTEXT_WORDS,
    TEXT_FRAGMENT_EDGE_WORDS, TEXT_FRAGMENT_RANGE_CHARS,
};
pub use sliced::{
    ReportJson, SliceOptions, SlicedValidation, DEFAULT_SLICE_CLAIMS, DEFAULT_STEP_BYTES, MAX_STEP_BYTES,
    MIN_SLICE_CLAIMS, MIN_STEP_BYTES,
};

use crate::document::Document;
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::{Clock, Deadline};
use serde_json::Value;

/// The `generated.by` of every report.
pub const GENERATOR: &str = concat!("evidence-validator ", env!("CARGO_PKG_VERSION"));

/// Validates `claims` (§2.1 JSON) against `source` with `config` overrides
/// (§1.3 JSON, `null` for defaults): the spec's `validate_evidence`.
pub fn validate_evidence(source: &str, claims: &Value, config: &Value, clock: &dyn Clock) -> Result<Report> {
    validate_evidence_with(source, claims, config, clock, None)
}

/// [`validate_evidence`] for a source given as bytes: decoded as the claims'
/// `source_metadata.encoding` says (spec 000 §2.1, default `utf-8`;
/// windows-1252 / latin-1 and UTF-16 with or without a byte order mark,
/// see `text::encoding`), then validated as text, so every offset
/// is into the decoded text. Bytes that are not text in that encoding are
/// a DOCUMENT_PARSING_ERROR naming the byte offset.
pub fn validate_evidence_bytes(source: &[u8], claims: &Value, config: &Value, clock: &dyn Clock) -> Result<Report> {
    let text = decode_source(source, ClaimSet::from_json(claims)?.encoding)?;
    validate_evidence(&text, claims, config, clock)
}

/// Source bytes as text in `encoding` (UTF-8 when `None`).
pub fn decode_source(bytes: &[u8], encoding: Option<crate::text::encoding::SourceEncoding>) -> Result<String> {
    crate::text::encoding::decode(bytes, encoding.unwrap_or(crate::text::encoding::SourceEncoding::Utf8))
}

/// [`validate_evidence`] with the host's embedding model for semantic
/// matching (see [`validate_document_with`]).
pub fn validate_evidence_with(
    source: &str,
    claims: &Value,
    config: &Value,
    clock: &dyn Clock,
    embedder: Option<&dyn crate::matching::semantic::Embedder>,
) -> Result<Report> {
    let started = clock.now_ms();
    let config = Config::from_json(config)?;
    let claims = ClaimSet::from_json(claims)?;
    check_claim_count(claims.claims.len(), &config)?;
    check_document(source, &config)?;
    check_memory(source.len(), claims.claims.len(), &config)?;
    check_unknown_fields(&claims, &config)?;
    let deadline = config.deadline(clock);
    let doc = match Document::parse(source, claims.format, &deadline) {
        Ok(doc) => doc,
        Err(e) if crate::document::is_past_deadline(&e) => return unparsed_report(source, &claims, e, started),
        Err(e) => return Err(e),
    };
    let mut report = run(&doc, &claims.claims, &config, &deadline, started, embedder)?;
    report.warnings.extend(unknown_fields_warning(&claims));
    Ok(report)
}

/// [`validate_document_with`] for parsed input: also refuses (with
/// `strict`) or lists in a warning the input fields the schema does not
/// know.
pub fn validate_set_with(
    doc: &Document,
    claims: &ClaimSet,
    config: &Config,
    clock: &dyn Clock,
    embedder: Option<&dyn crate::matching::semantic::Embedder>,
) -> Result<Report> {
    check_unknown_fields(claims, config)?;
    let mut report = validate_document_with(doc, &claims.claims, config, clock, embedder)?;
    report.warnings.extend(unknown_fields_warning(claims));
    Ok(report)
}

/// The report of a call whose time ran out while parsing the source:
/// `ok: false`, every claim named in the PROCESSING_ERROR.
fn unparsed_report(source: &str, claims: &ClaimSet, error: Error, started: f64) -> Result<Report> {
    let mut entry = error.to_json();
    if let Value::Object(o) = &mut entry {
        let ids: Vec<Value> = claims.claims.iter().map(|c| Value::from(c.id.clone())).collect();
        o.insert("affected_claims".into(), Value::Array(ids));
    }
    let summary = Summary::of(claims.claims.len(), &[]);
    let hash = content_hash(&[], &[], &summary)?;
    Ok(Report {
        ok: false,
        errors: vec![entry],
        warnings: unknown_fields_warning(claims).into_iter().collect(),
        generated: Generated {
            by: GENERATOR.to_string(),
            timestamp: crate::host::rfc3339(started),
            content_hash: hash,
        },
        document_metadata: Document::unparsed_metadata(source, claims.format),
        validation_summary: summary,
        validated_claims: Vec::new(),
        failed_claims: Vec::new(),
    })
}

/// With `strict`, a field the schema does not know is a VALIDATION_ERROR
/// at its path.
fn check_unknown_fields(claims: &ClaimSet, config: &Config) -> Result<()> {
    match claims.unknown_fields.first() {
        Some(path) if config.strict => Err(Error::new(
            ErrorKind::Validation,
            format!("unknown field {path} (the strict option refuses fields the input schema does not define)"),
        )
        .with_detail("json_path", Value::from(path.as_str()))
        .with_detail("constraint", Value::from("additionalProperties"))
        .with_detail("unknown_fields", Value::from(claims.unknown_fields.clone()))),
        _ => Ok(()),
    }
}

/// The UNKNOWN_FIELDS warning, when the input has fields the schema does
/// not know (a misspelt `expected_sectoin` would otherwise be ignored
/// without a word).
fn unknown_fields_warning(claims: &ClaimSet) -> Option<Warning> {
    (!claims.unknown_fields.is_empty()).then(|| Warning {
        code: "UNKNOWN_FIELDS".into(),
        message: format!(
            "the input has fields the schema does not define, ignored: {} (misspelt? the strict option refuses them)",
            claims.unknown_fields.join(", ")
        ),
        claim_id: None,
    })
}

/// The texts a validation of `claims` would ask an embedder for, in order
/// (the document's chunks, then the quotes semantic matching applies to):
/// for hosts that embed asynchronously, who embed these first and pass the
/// answers in as [`crate::matching::semantic::Precomputed`].
pub fn semantic_texts(doc: &Document, claims: &[Claim], config: &Config) -> Vec<String> {
    engine::semantic_texts(doc, claims, config)
}

/// Checks that the call's estimated peak memory
/// (`config::estimated_memory_bytes`) fits `performance_limits.max_memory_mb`.
pub fn check_memory(source_bytes: usize, claims: usize, config: &Config) -> Result<()> {
    let limit = config.performance_limits.max_memory_mb;
    let mut estimate = config::estimated_memory_bytes(source_bytes, claims);
    if config.document_processing.include_hidden_text {
        // a second index, of all the text, hidden text included
        estimate = estimate.saturating_add(source_bytes.saturating_mul(config::MEMORY_PER_SOURCE_BYTE / 2));
    }
    let estimate_mb = estimate as f64 / (1024.0 * 1024.0);
    if estimate_mb > limit {
        return Err(Error::new(
            ErrorKind::Validation,
            format!(
                "estimated memory {estimate_mb:.1} MB (a {:.1} MB source and {claims} claims) > performance_limits.max_memory_mb {limit} MB; raise max_memory_mb or split the source",
                source_bytes as f64 / (1024.0 * 1024.0)
            ),
        )
        .with_detail("constraint", Value::from("max_memory_mb"))
        .with_detail("json_path", Value::from("$.performance_limits.max_memory_mb"))
        .with_detail("estimated_bytes", Value::from(estimate))
        .with_detail("limit_mb", Value::from(limit)));
    }
    Ok(())
}

/// Checks the size limit and that the source is text.
pub fn check_document(source: &str, config: &Config) -> Result<()> {
    let limit = config.performance_limits.max_document_size_mb;
    let size_mb = source.len() as f64 / (1024.0 * 1024.0);
    if size_mb > limit {
        return Err(Error::new(
            ErrorKind::Validation,
            format!("document too large: {size_mb:.2} MB > max_document_size_mb {limit} MB"),
        )
        .with_detail("constraint", Value::from("max_document_size_mb"))
        .with_detail("size_bytes", Value::from(source.len()))
        .with_detail("limit_mb", Value::from(limit)));
    }
    if let Some(pos) = memchr::memchr(0, source.as_bytes()) {
        return Err(Error::new(
            ErrorKind::DocumentParsing,
            format!("source is not text: NUL byte at byte offset {pos}"),
        )
        .with_detail("byte_offset", Value::from(pos)));
    }
    Ok(())
}

/// Validates parsed claims against a parsed document.
pub fn validate_document(doc: &Document, claims: &[Claim], config: &Config, clock: &dyn Clock) -> Result<Report> {
    validate_document_with(doc, claims, config, clock, None)
}

/// [`validate_document`] with the host's embedding model for semantic
/// matching (`semantic_method: "embedding"`); without one the lexical
/// fallback is used (`semantic_method: "lexical"`). An embedder that fails
/// or answers garbage makes the report `ok: false` with a PROCESSING_ERROR;
/// every claim is still reported, matched lexically.
pub fn validate_document_with(
    doc: &Document,
    claims: &[Claim],
    config: &Config,
    clock: &dyn Clock,
    embedder: Option<&dyn crate::matching::semantic::Embedder>,
) -> Result<Report> {
    check_claim_count(claims.len(), config)?;
    if doc.source().len() as f64 / (1024.0 * 1024.0) > config.performance_limits.max_document_size_mb {
        check_document(doc.source(), config)?;
    }
    check_memory(doc.source().len(), claims.len(), config)?;
    let started = clock.now_ms();
    run(doc, claims, config, &config.deadline(clock), started, embedder)
}

/// The one check of the number of claims against
/// `performance_limits.max_claims` (itself bounded by the schema's
/// [`MAX_CLAIMS`]).
pub fn check_claim_count(count: usize, config: &Config) -> Result<()> {
    let limit = config.performance_limits.max_claims;
    if count > limit {
        return Err(Error::invalid_input(
            &JsonPath::root().key("claims"),
            "max_claims",
            format!("too many claims: {count} > performance_limits.max_claims {limit}"),
        ));
    }
    Ok(())
}

/// Validates `claims` against `doc` within `deadline`, the call having
/// started at `started` (ms, for the report's timestamp).
fn run(
    doc: &Document,
    claims: &[Claim],
    config: &Config,
    deadline: &Deadline,
    started: f64,
    embedder: Option<&dyn crate::matching::semantic::Embedder>,
) -> Result<Report> {
    let mut outcome = engine::run(doc, claims, config, deadline, embedder);
    engine::note_hidden_quotes(doc, claims, config, deadline, &mut outcome);
    report_of(doc, claims.len(), outcome, started)
}

/// The report of `outcome`, the validation of `total` claims against `doc`
/// started at `started` (ms): the summary, `ok` and the content hash
/// computed over all of it (an error only if the hash's writer fails).
fn report_of(doc: &Document, total: usize, outcome: engine::Outcome, started: f64) -> Result<Report> {
    let summary = Summary::of(total, &outcome.results);
    let hash = content_hash(&outcome.results, &outcome.failed, &summary)?;
    Ok(hashed_report(doc, outcome, summary, hash, started))
}

/// The report of `outcome` against `doc`, with its summary and content
/// hash (of `outcome` and `summary`) at hand.
fn hashed_report(doc: &Document, outcome: engine::Outcome, summary: Summary, hash: String, started: f64) -> Report {
    Report {
        ok: outcome.errors.is_empty(),
        errors: outcome.errors,
        warnings: outcome.warnings,
        generated: Generated {
            by: GENERATOR.to_string(),
            timestamp: crate::host::rfc3339(started),
            content_hash: hash,
        },
        document_metadata: doc.metadata(),
        validation_summary: summary,
        validated_claims: outcome.results,
        failed_claims: outcome.failed,
    }
}
