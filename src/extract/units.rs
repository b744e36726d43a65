//! Extracted text as units: one char of text and the bytes of the original
//! source it stands for. Format extractors (HTML, markdown) produce units; the
//! normalizer consumes them, so spans always point into the original source.

use super::hidden::Hidden;

/// One character of extracted text and the bytes of the original source it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    /// The character of extracted text.
    pub ch: char,
    /// Byte offset in the original where this unit's source starts.
    pub start: u32,
    /// Byte offset in the original where this unit's source ends (exclusive).
    pub end: u32,
}

/// A heading found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Plain text title: markup stripped, entities decoded, whitespace collapsed, trimmed.
    pub title: String,
    /// Byte offset in the original where the whole heading starts.
    pub start: u32,
    /// End of that range (exclusive).
    pub end: u32,
}

/// The result of extracting text from a formatted source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extracted {
    /// The text, unit by unit, in source order (sorted by `start`, non-overlapping).
    pub units: Vec<Unit>,
    /// Headings in source order (those a reader sees: a heading inside a
    /// hidden element is none).
    pub headings: Vec<Heading>,
    /// The text no reader sees (see [`super::hidden`]), kept apart from
    /// `units`; empty when hidden text was asked to be included in `units`.
    pub hidden: Hidden,
}

impl Extracted {
    /// The extracted text: the units' chars concatenated.
    pub fn text(&self) -> String {
        self.units.iter().map(|u| u.ch).collect()
    }
}

/// The plain-text title of a heading: whitespace collapsed, trimmed.
pub(crate) fn title_of(units: &[Unit]) -> String {
    let mut title = String::new();
    let mut space = false;
    for u in units {
        if u.ch.is_whitespace() {
            space = !title.is_empty();
        } else {
            if space {
                title.push(' ');
                space = false;
            }
            title.push(u.ch);
        }
    }
    title
}
