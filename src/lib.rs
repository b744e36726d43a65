//! evidence-validator: proves that evidence an LLM cites is really in the
//! source, and says exactly where.
//!
//! ```
//! use evidence_validator::{validate_evidence, host::FixedClock};
//! use serde_json::json;
//!
//! let source = "# Requirements\nThe system must implement user authentication with OAuth 2.0 protocol.\n";
//! let claims = json!({"claims": [{
//!     "id": "EV001", "task_id": "P1.T001",
//!     "quote": "implement user authentication with OAuth 2.0 protocol",
//!     "evidence_type": "direct_quote"
//! }]});
//! let report = validate_evidence(source, &claims, &json!(null), &FixedClock(0.0)).unwrap();
//! let result = &report.validated_claims[0];
//! assert_eq!(result.validation_status, evidence_validator::validate::Status::Validated);
//! let m = result.match_details.as_ref().unwrap();
//! assert_eq!(m.matched_text, "implement user authentication with OAuth 2.0 protocol");
//! assert_eq!(&source[m.location.byte_start..m.location.byte_end], m.matched_text);
//! ```
//!
//! The public modules are what a user needs: [`validate`] (spec 000, with
//! [`document`], [`text`]'s profiles and spans, [`extract`]'s readers),
//! [`transcript`] (spec 001), [`judge`] (spec 002), [`finding`] (spec 003),
//! [`cite`] (spec 004), [`error`], [`host`] and [`json`]. The matchers and indexes are internal.
//! The default features are empty; the `cli` feature (clap, ureq) is the
//! binary's.

#![deny(missing_docs)]
// Issue 20 item 5: library code never panics on input. It indexes with `get`,
// iterators or pattern slices, never `x[i]`, `unwrap`, `expect` or `panic!`;
// a site whose bound is proved locally says so in an `#[allow]` with the
// proof as its comment. Tests are exempt (they assert by panicking).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

pub mod cite;
pub mod document;
pub mod error;
pub mod extract;
pub mod finding;
pub mod host;
pub mod json;
pub mod judge;
mod matching;
mod options;
mod sort;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod transcript;
pub mod validate;

pub use document::{Document, Format};
pub use error::{Error, ErrorKind, Result};
pub use validate::{validate_evidence, Config, Report};

#[cfg(target_arch = "wasm32")]
pub mod wasm;
