//! Format-specific text extraction: the text a reader sees in a markdown or
//! HTML source, unit by unit, each unit knowing the original bytes it stands
//! for; and apart from it, the text no reader sees (hidden elements, scripts).

pub mod hidden;
pub mod units;

pub use hidden::{Hidden, HiddenReason, HiddenRegion};
pub use units::{Extracted, Heading, Unit};
pub mod html;
pub mod markdown;
mod scan;
