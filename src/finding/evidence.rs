//! `Finding` and `VerificationResult` (spec 003 §2.1,
//! `models/evidence.py`): a piece of evidence that cannot exist without the
//! quote it rests on.

use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// Minimum length of `extraction_span`, in code points (spec: 20 chars).
pub const MIN_SPAN_CHARS: usize = 20;

/// Python's `str.isspace()` (what `re`'s `\s` and `str.strip()` match).
fn is_space(c: char) -> bool {
    crate::judge::quote::is_python_space(c)
}

/// `re.sub(r'\s+', ' ', text.strip())`: trimmed, every whitespace run one
/// space (Python's notion of whitespace).
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// SHA-256 (lowercase hex) of the whitespace-normalized span, UTF-8: the
/// spec's `Finding._compute_hash`. Case is kept.
pub fn compute_hash(span: &str) -> String {
    let digest = Sha256::digest(collapse_whitespace(span).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// `null` read as the empty string (so a missing span reaches `validate()`
/// and its message instead of failing to parse).
fn string_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

/// Declares a finding struct with spec 003 §2.1's fields (in its order,
/// which is the JSON's), and `extraction_span_hash` after the span when named.
macro_rules! finding_struct {
    ($(#[$doc:meta])* $name:ident $(, $(#[$hash_doc:meta])* $hash:ident)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// E.g. `market_intelligence`, `competitive_analysis`, `technical_analysis`.
            #[serde(default, deserialize_with = "string_or_null")]
            pub category: String,
            /// Brief title (5–10 words).
            #[serde(default, deserialize_with = "string_or_null")]
            pub title: String,
            /// The finding (1–3 sentences).
            #[serde(default, deserialize_with = "string_or_null")]
            pub content: String,
            /// Full URL of the source.
            #[serde(default, deserialize_with = "string_or_null")]
            pub source_url: String,
            /// When it was extracted: an RFC 3339 timestamp (`2025-01-31T12:00:00Z`),
            /// or a naive one read as UTC (`2025-01-31T12:00:00`).
            #[serde(default, deserialize_with = "string_or_null")]
            pub extracted_at: String,
            /// The quote from the source the finding rests on (required, ≥ 20 chars).
            #[serde(default, deserialize_with = "string_or_null")]
            pub extraction_span: String,
            $(
                $(#[$hash_doc])*
                #[serde(default, deserialize_with = "string_or_null")]
                pub $hash: String,
            )?
            /// Where the span is in the source, `[start, end)` in characters, if known.
            #[serde(default)]
            pub char_offsets: Option<(usize, usize)>,
            /// How relevant to the research goal, 0–10.
            pub relevance_score: i64,
            /// How recent, 0–10 (10 = this week, 0 = over a year old).
            pub recency_score: i64,
            /// Source trust tier, 0–3 (unverified, community, credible, authoritative).
            pub trust_score: i64,
        }
    };
}

finding_struct!(
    /// A single piece of evidence extracted from a source (spec 003 §2.1).
    ///
    /// Construction does not check anything (like the spec's dataclass);
    /// [`Finding::validate`] does.
    Finding,
    /// SHA-256 of the whitespace-normalized `extraction_span` ([`compute_hash`]).
    extraction_span_hash
);

finding_struct!(
    /// A finding's fields without the hash: the input of [`Finding::create_with_hash`].
    NewFinding
);

/// What [`Finding::validate`] found wrong. `Display` gives the spec's
/// messages word for word.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingError {
    /// `source_url` is empty.
    MissingSourceUrl,
    /// `extracted_at` is empty.
    MissingExtractedAt,
    /// `extracted_at` is not an ISO 8601 date and time (the spec's type is a
    /// `datetime`, which cannot be malformed; a string can).
    InvalidExtractedAt(String),
    /// `extraction_span` is empty (or only whitespace).
    MissingExtractionSpan,
    /// `extraction_span` has fewer than 20 characters.
    ShortExtractionSpan(usize),
    /// `extraction_span_hash` is not the span's hash.
    HashMismatch,
    /// `relevance_score` outside 0–10.
    RelevanceOutOfRange(i64),
    /// `recency_score` outside 0–10.
    RecencyOutOfRange(i64),
    /// `trust_score` outside 0–3.
    TrustOutOfRange(i64),
}

impl fmt::Display for FindingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingError::MissingSourceUrl => write!(f, "Finding must have source_url"),
            FindingError::MissingExtractedAt => write!(f, "Finding must have extracted_at"),
            FindingError::InvalidExtractedAt(v) => {
                write!(f, "extracted_at is not an RFC 3339 timestamp: {v:?}")
            }
            FindingError::MissingExtractionSpan => {
                write!(f, "Finding must have extraction_span (cannot be None or empty)")
            }
            FindingError::ShortExtractionSpan(n) => {
                write!(f, "extraction_span too short: {n} chars (min {MIN_SPAN_CHARS})")
            }
            FindingError::HashMismatch => {
                write!(f, "extraction_span_hash mismatch (possible tampering)")
            }
            FindingError::RelevanceOutOfRange(v) => {
                write!(f, "relevance_score out of range: {v} (must be 0-10)")
            }
            FindingError::RecencyOutOfRange(v) => {
                write!(f, "recency_score out of range: {v} (must be 0-10)")
            }
            FindingError::TrustOutOfRange(v) => {
                write!(f, "trust_score out of range: {v} (must be 0-3)")
            }
        }
    }
}

impl std::error::Error for FindingError {}

impl From<FindingError> for Error {
    /// A `VALIDATION_ERROR` with the spec's message and `details.field`.
    fn from(e: FindingError) -> Error {
        let field = match &e {
            FindingError::MissingSourceUrl => "source_url",
            FindingError::MissingExtractedAt | FindingError::InvalidExtractedAt(_) => "extracted_at",
            FindingError::MissingExtractionSpan | FindingError::ShortExtractionSpan(_) => "extraction_span",
            FindingError::HashMismatch => "extraction_span_hash",
            FindingError::RelevanceOutOfRange(_) => "relevance_score",
            FindingError::RecencyOutOfRange(_) => "recency_score",
            FindingError::TrustOutOfRange(_) => "trust_score",
        };
        Error::new(ErrorKind::Validation, e.to_string()).with_detail("field", serde_json::Value::String(field.into()))
    }
}

impl Finding {
    /// The spec's `_compute_hash` ([`compute_hash`]).
    pub fn compute_hash(span: &str) -> String {
        compute_hash(span)
    }

    /// The spec's factory: the finding with `extraction_span_hash` computed.
    pub fn create_with_hash(fields: NewFinding) -> Finding {
        Finding {
            extraction_span_hash: compute_hash(&fields.extraction_span),
            category: fields.category,
            title: fields.title,
            content: fields.content,
            source_url: fields.source_url,
            extracted_at: fields.extracted_at,
            extraction_span: fields.extraction_span,
            char_offsets: fields.char_offsets,
            relevance_score: fields.relevance_score,
            recency_score: fields.recency_score,
            trust_score: fields.trust_score,
        }
    }

    /// The spec's checks, in its order: `source_url`, `extracted_at`,
    /// `extraction_span` present and at least 20 characters, the hash, the
    /// three score ranges. The first failure is returned.
    ///
    /// The span's length is the spec's `len(self.extraction_span)`: code
    /// points of the span as given, whitespace included (issue 15). Stricter
    /// than the spec's Python where a string can cheat: an all-whitespace
    /// `source_url` or span counts as missing (Python's `not "   "` is
    /// false, and a span of spaces hashes to the hash of nothing).
    pub fn validate(&self) -> Result<(), FindingError> {
        if self.source_url.trim().is_empty() {
            return Err(FindingError::MissingSourceUrl);
        }
        if self.extracted_at.trim().is_empty() {
            return Err(FindingError::MissingExtractedAt);
        }
        if !is_rfc3339(self.extracted_at.trim()) {
            return Err(FindingError::InvalidExtractedAt(self.extracted_at.clone()));
        }
        if collapse_whitespace(&self.extraction_span).is_empty() {
            return Err(FindingError::MissingExtractionSpan);
        }
        let len = self.extraction_span.chars().count();
        if len < MIN_SPAN_CHARS {
            return Err(FindingError::ShortExtractionSpan(len));
        }
        if self.extraction_span_hash != compute_hash(&self.extraction_span) {
            return Err(FindingError::HashMismatch);
        }
        if !(0..=10).contains(&self.relevance_score) {
            return Err(FindingError::RelevanceOutOfRange(self.relevance_score));
        }
        if !(0..=10).contains(&self.recency_score) {
            return Err(FindingError::RecencyOutOfRange(self.recency_score));
        }
        if !(0..=3).contains(&self.trust_score) {
            return Err(FindingError::TrustOutOfRange(self.trust_score));
        }
        Ok(())
    }

    /// From JSON; wrong types and unknown fields are a `VALIDATION_ERROR`.
    pub fn from_json(value: &serde_json::Value) -> Result<Finding, Error> {
        Finding::deserialize(value).map_err(|e| Error::new(ErrorKind::Validation, format!("finding: {e}")))
    }
}

impl NewFinding {
    /// From JSON; wrong types and unknown fields are a `VALIDATION_ERROR`.
    pub fn from_json(value: &serde_json::Value) -> Result<NewFinding, Error> {
        NewFinding::deserialize(value).map_err(|e| Error::new(ErrorKind::Validation, format!("finding: {e}")))
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]` with real dates (`T` may be
/// `t` or a space, `Z` may be `z`). Without an offset the time is a naive
/// `datetime`, as Python's `datetime.now()` gives (spec 003 calls the field
/// a UTC timestamp; a naive one is read as UTC).
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = b.get(from..from + len)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        part.iter().try_fold(0u32, |acc, d| Some(acc * 10 + u32::from(d - b'0')))
    };
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) =
        (num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2))
    else {
        return false;
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return false;
    }
    if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if d == 0 || d > days || h > 23 || mi > 59 || sec > 60 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let n = b.get(i + 1..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    match b.get(i..) {
        Some(b"") | Some(b"Z") | Some(b"z") => true,
        Some([b'+' | b'-', _, _, b':', _, _]) => {
            matches!((num(i + 1, 2), num(i + 4, 2)), (Some(oh), Some(om)) if oh <= 23 && om <= 59)
        }
        _ => false,
    }
}

/// Result of verifying a finding against its source (spec 003 §2.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerificationResult {
    /// Whether verification passed.
    pub valid: bool,
    /// `All checks passed`, or what failed.
    pub reason: String,
    /// Confidence in the result, 0.0–1.0.
    pub confidence: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        for ok in [
            "2025-01-31T12:00:00Z",
            "2024-02-29T00:00:00.123456+05:30",
            "2025-01-31 12:00:00z",
            "2025-12-31T23:59:60-00:00",
            // naive, as `datetime.now().isoformat()` writes it (issue 15)
            "2025-01-31T12:00:00",
            "2025-01-31T12:00:00.123456",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "",
            "2025-01-31",
            "2025-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-01-31T24:00:00Z",
            "2025-01-31T12:00:00.Z",
            "2025-01-31T12:00:00 ",
            "2025-01-31T12:00",
            "2025-01-31T12:00:00+5:30",
            "２０２５-01-31T12:00:00Z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }

    #[test]
    fn hash_is_over_the_collapsed_span() {
        assert_eq!(compute_hash("  a \n\t b  "), compute_hash("a b"));
        assert_ne!(compute_hash("A b"), compute_hash("a b"));
        // sha256("a b")
        assert_eq!(compute_hash("a b"), "c8687a08aa5d6ed2044328fa6a697ab8e96dc34291e8c2034ae8c38e6fcc6d65");
    }
}
