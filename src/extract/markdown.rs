//! TEMPORARY
use super::units::{Extracted, Unit};
/// temporary
pub fn extract_markdown(src: &str) -> Extracted {
    Extracted { units: src.char_indices().map(|(i, c)| Unit { ch: c, start: i as u32, end: (i + c.len_utf8()) as u32 }).collect(), headings: Vec::new() }
}
