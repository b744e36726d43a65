//! The output of spec 000 §2.2 (`evidence_validation.json`), with spans in
//! every unit system added to each match, and the content hash.

use crate::document::DocumentMetadata;
use crate::text::Span;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Final status of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Found with enough confidence at one place.
    Validated,
    /// Not found.
    Failed,
    /// Found with enough confidence at several places.
    Ambiguous,
    /// Found, but not with enough confidence (or with a changed number or negation).
    LowConfidence,
}

/// Why a claim needs attention (`failed_claims[].failure_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FailureReason {
    /// No candidate passage at all.
    NotFound,
    /// Candidates, but below the thresholds.
    LowConfidence,
    /// Several equally good places.
    MultipleMatches,
    /// Found, but not near the context hint or not in the expected section.
    ContextMismatch,
}

/// Which matcher found a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchType {
    /// The normalized quote occurs verbatim.
    Exact,
    /// Within the edit-distance tolerance, or a token-level paraphrase.
    Fuzzy,
    /// A section heading the claim refers to.
    Contextual,
    /// Lexical similarity over chunks.
    Semantic,
}

/// Where a match is: the spec's positions (code points) plus UTF-16 and byte
/// offsets, line, column and section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Location {
    /// Code point offset of the start in the original text.
    pub start_position: usize,
    /// Code point offset of the end (exclusive).
    pub end_position: usize,
    /// UTF-16 offset of the start (JS string index).
    pub utf16_start: usize,
    /// UTF-16 offset of the end.
    pub utf16_end: usize,
    /// UTF-8 byte offset of the start.
    pub byte_start: usize,
    /// UTF-8 byte offset of the end.
    pub byte_end: usize,
    /// 1-based line of the start.
    pub line_number: usize,
    /// 1-based column of the start, in code points.
    pub column: usize,
    /// 1-based line of the end.
    pub end_line_number: usize,
    /// Title of the enclosing section, when the document has sections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

impl Location {
    /// From a span and its section title.
    pub fn new(span: &Span, section: Option<String>) -> Location {
        Location {
            start_position: span.start,
            end_position: span.end,
            utf16_start: span.utf16_start,
            utf16_end: span.utf16_end,
            byte_start: span.byte_start,
            byte_end: span.byte_end,
            line_number: span.line,
            column: span.column,
            end_line_number: span.end_line,
            section,
        }
    }
}

/// A number, negation or word that differs between the quote and the
/// source, or a part of the quote's markup (a link's destination, an image's
/// source, a tag's attributes) that the source does not have there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Discrepancy {
    /// `number`, `negation`, `word` or `markup`.
    pub kind: &'static str,
    /// What the quote says (empty when it says nothing).
    pub quote: Vec<String>,
    /// What the source passage says.
    pub source: Vec<String>,
}

/// `match_details`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchDetails {
    /// Which matcher.
    pub match_type: MatchType,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
    /// `original[byte_start..byte_end]`.
    pub matched_text: String,
    /// Confidence of this match (after context adjustment).
    pub confidence_score: f64,
    /// The matcher's similarity.
    pub similarity_score: f64,
    /// Character edit distance between the normalized quote and the match,
    /// where it applies; serialized as −1 where it does not (semantic and
    /// contextual matches), as spec 000 §3.5 writes it.
    #[serde(serialize_with = "distance_or_minus_one")]
    pub edit_distance: Option<usize>,
    /// Share of the context hint's words found near the match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_score: Option<f64>,
    /// Changed numbers, negations, words or markup.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub discrepancies: Vec<Discrepancy>,
    /// Word-level differences between the quote and a non-exact match (or
    /// an exact match cut inside a word), each with its kind.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<MatchEdit>,
    /// For semantic matches: `embedding` (the host's model) or `lexical`
    /// (word overlap in order, the fallback without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_method: Option<SemanticMethod>,
    /// For an ellipsis quote (`...`, `…`, `[...]`): each fragment where it
    /// was found, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fragments: Vec<TextAt>,
    /// For an ellipsis quote: the source text each ellipsis stands for
    /// (between fragment `i` and `i + 1`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<TextAt>,
    /// W3C Web Annotation selectors of the match: a TextQuoteSelector and a
    /// TextPositionSelector (code points).
    pub selectors: Vec<Selector>,
    /// A URL text fragment (`#:~:text=…`) that scrolls a browser showing
    /// the source to the match and highlights it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text_fragment: String,
    /// When several places matched cleanly: how much the chosen place's
    /// score beats the runner-up's (VALIDATED when at least
    /// `anchoring.disambiguation_margin`, else AMBIGUOUS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
}

/// A piece of source text and where it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextAt {
    /// `original[byte_start..byte_end]`.
    pub text: String,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

pub use super::selectors::Selector;

/// Spec 000 §3.5: `"edit_distance": -1  # Not applicable for semantic matching`.
fn distance_or_minus_one<S: serde::Serializer>(d: &Option<usize>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_u64(*d as u64),
        None => s.serialize_i64(-1),
    }
}

/// How a semantic match was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SemanticMethod {
    /// Cosine similarity of the host's embeddings.
    Embedding,
    /// Content-word overlap, weighted by word order (no model).
    Lexical,
    /// A passage holding most of the quote's content words (the token
    /// matcher) but too far from it, in edits, to be a fuzzy match.
    Tokens,
}

/// One difference between the quote and the matched text (`match_details.edits[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchEdit {
    /// `cosmetic`, `typo` or `substitution`.
    pub kind: EditKind,
    /// For substitutions: `number`, `negation` or `word`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
    /// Why, in a few words (`case`, `hyphenation`, `pronoun`, `number`, …).
    pub reason: &'static str,
    /// The quote's text (empty when the quote has nothing there).
    pub quote: String,
    /// The source's text, `original[byte_start..byte_end]` (empty when the
    /// source has nothing there: the span is then the point of insertion).
    pub source: String,
    /// Where in the source.
    #[serde(flatten)]
    pub location: Location,
}

pub use crate::matching::meaning::{Change, EditKind};

/// `alternative_matches[]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    /// `original[byte_start..byte_end]`.
    pub matched_text: String,
    /// Confidence.
    pub confidence_score: f64,
    /// Code point start (the spec's `position`).
    pub position: usize,
    /// Which matcher.
    pub match_type: MatchType,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

/// One entry of `validated_claims`: every claim gets one, in input order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimResult {
    /// The claim's id.
    pub claim_id: String,
    /// The claim's task id.
    pub task_id: String,
    /// The claim's evidence type.
    pub evidence_type: crate::validate::EvidenceType,
    /// Status.
    pub validation_status: Status,
    /// Confidence of the best match (0 when none).
    pub confidence_score: f64,
    /// The best match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_details: Option<MatchDetails>,
    /// Other places (up to 3).
    pub alternative_matches: Vec<Alternative>,
}

/// `attempted_matches[]`: a candidate that was rejected, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    /// `original[byte_start..byte_end]`.
    pub candidate_text: String,
    /// Its confidence.
    pub confidence_score: f64,
    /// Why it was rejected.
    pub rejection_reason: String,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

/// One entry of `failed_claims`: every claim that is not VALIDATED.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailedClaim {
    /// The claim's id.
    pub claim_id: String,
    /// Why.
    pub failure_reason: FailureReason,
    /// Rejected candidates, best first.
    pub attempted_matches: Vec<Attempt>,
    /// What to do about it.
    pub suggestions: Vec<String>,
}

/// `warnings[]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// E.g. `NUMBER_MISMATCH`.
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// The claim concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
}

/// `validation_summary`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Claims in the input.
    pub total_claims: usize,
    /// VALIDATED.
    pub validated_claims: usize,
    /// FAILED.
    pub failed_claims: usize,
    /// AMBIGUOUS.
    pub ambiguous_claims: usize,
    /// LOW_CONFIDENCE.
    pub low_confidence_claims: usize,
    /// Mean confidence over all processed claims.
    pub average_confidence: f64,
    /// VALIDATED / total.
    pub validation_rate: f64,
}

impl Summary {
    /// Counts the results.
    pub fn of(total: usize, results: &[ClaimResult]) -> Summary {
        let count = |s: Status| results.iter().filter(|r| r.validation_status == s).count();
        let validated = count(Status::Validated);
        let sum: f64 = results.iter().map(|r| r.confidence_score).sum();
        Summary {
            total_claims: total,
            validated_claims: validated,
            failed_claims: count(Status::Failed),
            ambiguous_claims: count(Status::Ambiguous),
            low_confidence_claims: count(Status::LowConfidence),
            average_confidence: if results.is_empty() { 0.0 } else { sum / results.len() as f64 },
            validation_rate: if total == 0 { 0.0 } else { validated as f64 / total as f64 },
        }
    }
}

/// `generated`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Generated {
    /// Tool and version.
    pub by: String,
    /// RFC 3339 UTC time of the run.
    pub timestamp: String,
    /// SHA-256 of the canonical JSON of results and summary.
    #[serde(rename = "contentHash")]
    pub content_hash: String,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// True when every claim was processed.
    pub ok: bool,
    /// Processing errors (e.g. the time budget ran out), with the claims they affected.
    pub errors: Vec<Value>,
    /// Warnings about individual claims.
    pub warnings: Vec<Warning>,
    /// Provenance and content hash.
    pub generated: Generated,
    /// About the source.
    pub document_metadata: DocumentMetadata,
    /// Counts.
    pub validation_summary: Summary,
    /// One result per processed claim, in input order.
    pub validated_claims: Vec<ClaimResult>,
    /// Diagnostics for every claim that is not VALIDATED.
    pub failed_claims: Vec<FailedClaim>,
}

impl Report {
    /// The report as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Bytes hashed per call of the hasher (see [`content_hash`]).
const HASH_PIECE: usize = 8192;

/// SHA-256 (hex) of the canonical JSON (sorted keys, no whitespace) of the
/// results and summary: the same bytes natively and in wasm.
///
/// # Errors
///
/// A `PROCESSING_ERROR` when the canonical writer refuses a value (a map
/// key that is not text, or a `Serialize` impl's own error). The report's
/// types hold no map, so it is not expected; it is returned, not hidden.
pub fn content_hash(results: &[ClaimResult], failed: &[FailedClaim], summary: &Summary) -> crate::Result<String> {
    let mut hasher = ContentHasher::new();
    // each call hashes a whole list or the summary: at most three calls
    while !hasher.step(results, failed, summary, usize::MAX)? {}
    Ok(hasher.finish())
}

/// [`content_hash`] a bounded number of claims at a time (for a host with
/// one thread: 1000 claims are about 2 MB of canonical JSON), the one
/// writer of its bytes: the canonical JSON of {"failed_claims",
/// "validated_claims", "validation_summary"} (keys in that, sorted, order),
/// written straight from the structs a claim at a time into the hash (the
/// same bytes as the canonical JSON of their Value, without building one or
/// holding the whole text: see `canonical`).
pub(super) struct ContentHasher {
    hasher: Sha256,
    writer: super::canonical::Writer,
    buf: Vec<u8>,
    /// What is hashed next: failed claims from `at`, then results from
    /// `at`, then the summary and the end.
    part: HashPart,
    at: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum HashPart {
    Failed,
    Results,
    Summary,
    Done,
}

impl ContentHasher {
    /// A hash with nothing hashed yet.
    pub(super) fn new() -> ContentHasher {
        let mut hasher = Sha256::new();
        hasher.update(b"{\"failed_claims\":[");
        ContentHasher {
            hasher,
            writer: super::canonical::Writer::default(),
            buf: Vec::with_capacity(4096),
            part: HashPart::Failed,
            at: 0,
        }
    }

    /// Hashes the next piece of the report's canonical JSON: at most
    /// `claims` (at least one) failed claims or results, or the summary and
    /// the end; true once all is hashed (the same `results`, `failed` and
    /// `summary` every call).
    pub(super) fn step(
        &mut self,
        results: &[ClaimResult],
        failed: &[FailedClaim],
        summary: &Summary,
        claims: usize,
    ) -> crate::Result<bool> {
        let claims = claims.max(1);
        match self.part {
            HashPart::Failed => {
                if self.items(failed, claims)? {
                    self.hasher.update(b"],\"validated_claims\":[");
                    (self.part, self.at) = (HashPart::Results, 0);
                }
            }
            HashPart::Results => {
                if self.items(results, claims)? {
                    self.hasher.update(b"],\"validation_summary\":");
                    (self.part, self.at) = (HashPart::Summary, 0);
                }
            }
            HashPart::Summary => {
                self.buf.clear();
                self.writer.write(summary, &mut self.buf).map_err(hash_error)?;
                self.hasher.update(&self.buf);
                self.hasher.update(b"}");
                self.part = HashPart::Done;
            }
            HashPart::Done => {}
        }
        Ok(self.part == HashPart::Done)
    }

    /// Hashes at most `claims` items of `items` from `at` (each after a
    /// comma unless it is the first); true when none is left.
    fn items<T: Serialize>(&mut self, items: &[T], claims: usize) -> crate::Result<bool> {
        let end = self.at.saturating_add(claims).min(items.len());
        for (k, item) in items.get(self.at..end).unwrap_or_default().iter().enumerate() {
            if self.at + k > 0 {
                self.hasher.update(b",");
            }
            self.buf.clear();
            self.writer.write(item, &mut self.buf).map_err(hash_error)?;
            // in pieces: in wasm, each piece is a new call of the block
            // function, which V8 runs optimized once it is hot (one call over a
            // long text would run in its baseline code to the end)
            for piece in self.buf.chunks(HASH_PIECE) {
                self.hasher.update(piece);
            }
        }
        self.at = end;
        Ok(end >= items.len())
    }

    /// The hash (lowercase hex); what is not hashed yet is left out.
    pub(super) fn finish(self) -> String {
        lower_hex(&self.hasher.finalize())
    }
}

/// Lowercase hex of `bytes` (as `format!("{b:02x}")` of each, without a
/// formatter call a byte).
fn lower_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.extend(char::from_digit(u32::from(b >> 4), 16));
        out.extend(char::from_digit(u32::from(b & 15), 16));
    }
    out
}

/// The canonical writer's error as the crate's.
fn hash_error(e: super::canonical::CanonError) -> crate::Error {
    crate::Error::new(crate::ErrorKind::Processing, format!("the content hash could not be computed: {e}"))
}

/// Compact JSON with object keys sorted (serde_json's map is ordered by key
/// unless `preserve_order` is enabled, which this crate never enables).
pub fn canonical_json(value: &Value) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys() {
        let v = json!({"b": 1, "a": {"d": [1, 2.5], "c": null}});
        assert_eq!(canonical_json(&v), r#"{"a":{"c":null,"d":[1,2.5]},"b":1}"#);
    }

    /// The hash written a claim at a time from the structs is the hash of
    /// the canonical JSON of their Value (exact, fuzzy, refused, failed,
    /// paraphrase and ambiguous results, emoji and CJK in the text).
    #[test]
    fn lower_hex_is_formats() {
        let all: Vec<u8> = (0..=255).collect();
        let want: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(lower_hex(&all), want);
        assert_eq!(lower_hex(&[]), "");
    }

    #[test]
    fn content_hash_is_the_hash_of_the_values_canonical_json() {
        let source = "The borrow checker ensures that references are valid. \u{201c}Quotes\u{201d} \u{2014} dashes, \u{1F600} emoji, \u{4E2D}\u{6587} text here.\n\nThe second paragraph has 42 items and three more.\n\nSame words again. Same words again.";
        let claim = |id: &str, quote: &str, kind: &str| json!({"id": id, "task_id": "P1.T001", "quote": quote, "evidence_type": kind});
        let claims = json!({"claims": [
            claim("EV1", "The borrow checker ensures that references are valid", "direct_quote"),
            claim("EV2", "The borow checker ensurs that references are valid", "direct_quote"),
            claim("EV3", "The second paragraph has 43 items and three more", "direct_quote"),
            claim("EV4", "nothing of the sort is written anywhere in it", "paraphrase"),
            claim("EV5", "\u{1F600} emoji, \u{4E2D}\u{6587} text here", "direct_quote"),
            claim("EV6", "Same words again.", "direct_quote"),
        ]});
        let r = crate::validate::validate_evidence(source, &claims, &Value::Null, &crate::host::FixedClock(0.0))
            .expect("a valid input");
        let value = json!({
            "failed_claims": r.failed_claims,
            "validated_claims": r.validated_claims,
            "validation_summary": r.validation_summary,
        });
        let want: String =
            Sha256::digest(canonical_json(&value).as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(r.generated.content_hash, want);
        assert_eq!(r.validated_claims.len(), 6);
        assert!(r.failed_claims.len() >= 3, "{:?}", r.failed_claims);
    }

    #[test]
    fn hash_of_empty_results_is_stable() {
        let s = Summary::of(0, &[]);
        // SHA-256 of the canonical JSON below, computed independently with
        // Python: hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(',', ':')).encode())
        let canonical = r#"{"failed_claims":[],"validated_claims":[],"validation_summary":{"ambiguous_claims":0,"average_confidence":0.0,"failed_claims":0,"low_confidence_claims":0,"total_claims":0,"validated_claims":0,"validation_rate":0.0}}"#;
        let v = json!({"failed_claims": [], "validated_claims": [], "validation_summary": s});
        assert_eq!(canonical_json(&v), canonical);
        assert_eq!(
            content_hash(&[], &[], &s).expect("no map in the report"),
            "cfd34610c532788c7196ee42b421011159bfaf59d33abe3816f489d68e9d65fa"
        );
    }
}
