//! Format-specific text extraction: the text a reader sees in a markdown or
//! HTML source, unit by unit, each unit knowing the original bytes it stands
//! for.

pub mod units;

pub use units::{Extracted, Heading, Unit};
pub mod html;
pub mod markdown;
