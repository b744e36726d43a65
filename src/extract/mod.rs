//! Format-specific text extraction: the text a reader sees in a markdown or
//! HTML source, unit by unit, each unit knowing the original bytes it stands
//! for; and apart from it, the text no reader sees (hidden elements, scripts).

mod entities;
pub(crate) mod hidden;
mod html;
pub(crate) mod markdown;
mod scan;
pub(crate) mod units;

pub use html::{extract_html, extract_html_with};
pub use markdown::{extract_markdown, extract_markdown_parts, extract_markdown_with};
pub use units::{Extracted, Heading, Hidden, HiddenReason, HiddenRegion, Unit};
