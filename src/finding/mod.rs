//! Evidence-first findings (spec 003, "Phase 0 Part 1: Evidence
//! Foundation"): every [`Finding`] carries the quote it rests on
//! (`extraction_span`, required, at least 20 characters) and that quote's
//! SHA-256; [`FindingVerifier`] checks that the quote is really in the
//! source and that the finding's numbers are the quote's. Together they
//! block the three citation-laundering attacks of the spec's smoke test: a
//! missing span, a too-short span, and a fabricated quote.
//!
//! ```
//! use evidence_validator::finding::{Finding, FindingVerifier, NewFinding};
//!
//! let finding = Finding::create_with_hash(NewFinding {
//!     category: "market_intelligence".into(),
//!     title: "GitHub Growth".into(),
//!     content: "Growth rate is 15-20%".into(),
//!     source_url: "https://example.com/test".into(),
//!     extracted_at: "2025-01-31T12:00:00Z".into(),
//!     extraction_span: "file organization tools on github show 15-20% annual growth".into(),
//!     char_offsets: None,
//!     relevance_score: 8,
//!     recency_score: 9,
//!     trust_score: 2,
//! });
//! finding.validate().unwrap();
//! let source = "FILE ORGANIZATION TOOLS ON GITHUB SHOW 15-20% ANNUAL GROWTH.";
//! assert!(FindingVerifier::new().verify_finding(&finding, source).valid);
//! ```

pub(crate) mod evidence;
pub(crate) mod numbers;
pub(crate) mod verifier;

pub use evidence::{compute_hash, Finding, FindingError, NewFinding, VerificationResult};
pub use verifier::{FindingVerifier, SPAN_HIDDEN};
