//! A parsed, indexed source document (spec 000 §3.2): its format, sections,
//! line and offset index, and, per normalization profile, the normalized text
//! and the token index the matchers search. Built once, queried many times.

mod builder;
mod index;

pub use builder::{DocumentBuilder, DEFAULT_STEP_BYTES, MAX_STEP_BYTES, MIN_STEP_BYTES};
pub(crate) use index::SearchIndex;

use crate::error::{Error, ErrorKind, Result};
use crate::extract::{self, Heading, Hidden, Unit};
use crate::host::Deadline;
use crate::text::normalize::NormalizedBuilder;
use crate::text::{normalize, PositionIndex, Profile, Span};
use serde::{Deserialize, Serialize};
use std::cell::OnceCell;

/// The format of a source document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Markdown: sections by ATX/setext headers; inline markup is not text.
    Markdown,
    /// HTML: the text a reader sees; spans still point into the markup.
    Html,
    /// Plain text.
    PlainText,
}

impl Format {
    /// Detects the format as spec 000 §3.2 does: markdown when the trimmed
    /// text starts with `#`, HTML when it contains `<html` (or starts with a
    /// doctype), plain text otherwise.
    pub fn detect(source: &str) -> Format {
        let trimmed = source.trim_start();
        if trimmed.starts_with('#') {
            return Format::Markdown;
        }
        let head: String = trimmed.chars().take(4096).collect::<String>().to_lowercase();
        if head.starts_with("<!doctype html") || head.contains("<html") || contains_html_tag(source) {
            return Format::Html;
        }
        Format::PlainText
    }

    /// The spec's name: `markdown`, `html` or `plain_text`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::PlainText => "plain_text",
        }
    }

    /// Parses a format name (`markdown`, `md`, `html`, `plain_text`, `text`).
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "markdown" | "md" => Some(Format::Markdown),
            "html" | "htm" => Some(Format::Html),
            "plain_text" | "plain" | "text" | "txt" => Some(Format::PlainText),
            _ => None,
        }
    }

    /// The units of `text` read in this format, hidden text included (how
    /// a quote is read: every word it says, markup removed). A source's
    /// visible text is what [`Document`] searches.
    pub fn units(self, text: &str) -> Vec<Unit> {
        self.units_with(text, true)
    }

    /// The units of `text` read in this format, with or without the text
    /// no reader sees (see [`crate::extract::Hidden`]).
    pub fn units_with(self, text: &str, include_hidden: bool) -> Vec<Unit> {
        match self {
            Format::Markdown => {
                let mut units = Vec::with_capacity(text.len());
                extract::extract_markdown_parts(text, include_hidden, |u| units.extend_from_slice(u));
                units
            }
            Format::Html => extract::extract_html_with(text, include_hidden).units,
            Format::PlainText => normalize::plain_units(text).collect(),
        }
    }
}

/// Headings of a markdown text whose every line is indented by the same
/// whitespace (a document pasted from source code, like the examples of
/// spec 000 §5): read with that indentation removed, offsets mapped back.
fn dedented_markdown_headings(text: &str) -> Vec<Heading> {
    let indent = text
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    if indent == 0 {
        return Vec::new();
    }
    // (start in dedented text, start in original, bytes removed) per line
    let mut lines: Vec<(usize, usize, usize)> = Vec::new();
    let mut dedented = String::with_capacity(text.len());
    let mut orig = 0;
    for line in text.split('\n') {
        let removed = if line.trim().is_empty() { 0 } else { indent.min(line.len()) };
        lines.push((dedented.len(), orig, removed));
        dedented.push_str(line.get(removed..).unwrap_or(""));
        dedented.push('\n');
        orig += line.len() + 1;
    }
    let back = |pos: u32| -> u32 {
        let i = lines.partition_point(|l| l.0 <= pos as usize).saturating_sub(1);
        let (d, o, r) = lines.get(i).copied().unwrap_or((0, 0, 0));
        ((pos as usize - d) + o + r).min(text.len()) as u32
    };
    extract::markdown::extract_markdown_with(&dedented, |_| {})
        .into_iter()
        .map(|h| Heading { start: back(h.start), end: back(h.end), ..h })
        .collect()
}

/// `<body`, `<p>` or `<div` near the start: HTML without an `<html>` tag.
fn contains_html_tag(source: &str) -> bool {
    let head = source.get(..source.len().min(2048)).unwrap_or(source).to_ascii_lowercase();
    let head = head.trim_start();
    head.starts_with('<') && ["<body", "<p>", "<div", "<article", "<section"].iter().any(|t| head.contains(t))
}

/// A section of the document: from its heading (or the start, for the
/// preamble) to the next heading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Section {
    /// `section` or `preamble`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Heading level 1–6 (0 for the preamble).
    pub level: u8,
    /// The heading text (`Document Preamble` for the preamble).
    pub title: String,
    /// 1-based line of the heading.
    pub start_line: usize,
    /// Byte offset where the section starts.
    pub byte_start: usize,
    /// Byte offset where it ends (the next section's start).
    pub byte_end: usize,
    /// Byte offset where the heading itself ends (`byte_start` for the preamble).
    pub heading_end: usize,
}

/// Metadata of spec 000 §2.2 `document_metadata`, with a few additions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentMetadata {
    /// UTF-8 size.
    pub size_bytes: usize,
    /// Lines as `text.split('\n')` counts them.
    pub line_count: usize,
    /// Sections, including the preamble.
    pub section_count: usize,
    /// Words / 200 per minute, to two decimals.
    pub estimated_reading_time_minutes: f64,
    /// The format used.
    pub format: Format,
    /// Length in code points.
    pub char_count: usize,
    /// Length in UTF-16 code units (a JS string's `length`).
    pub utf16_length: usize,
    /// Word tokens.
    pub word_count: usize,
}

/// A parsed source document with lazily built search indexes.
pub struct Document {
    source: String,
    format: Format,
    sections: Vec<Section>,
    positions: PositionIndex,
    indexes: [(Profile, OnceCell<SearchIndex>); 4],
    /// The text no reader sees, kept apart (not searched by default).
    hidden: Hidden,
    /// Per profile, the index of all text, hidden included (built on first
    /// use, only when there is hidden text).
    with_hidden: Vec<(Profile, OnceCell<SearchIndex>)>,
}

/// Words per minute for the reading-time estimate.
const READING_WPM: f64 = 200.0;

impl Document {
    /// Parses `source`, detecting its format unless one is given.
    pub fn new(source: impl Into<String>, format: Option<Format>) -> Result<Document> {
        Document::parse(source, format, &Deadline::never())
    }

    /// [`Document::new`] within `deadline`: past it, the parse stops and
    /// the answer is a PROCESSING_ERROR whose `details.constraint` is
    /// `max_processing_time_seconds` (see `is_past_deadline`).
    pub fn parse(source: impl Into<String>, format: Option<Format>, deadline: &Deadline) -> Result<Document> {
        let source = source.into();
        if source.len() > u32::MAX as usize / 2 {
            return Err(Error::new(ErrorKind::DocumentParsing, "document larger than 2 GiB cannot be indexed"));
        }
        let format = format.unwrap_or_else(|| Format::detect(&source));
        let positions = PositionIndex::new(&source);
        let indexes = [(true, true), (true, false), (false, true), (false, false)]
            .map(|(c, w)| (Profile { fold_case: c, collapse_whitespace: w }, OnceCell::new()));
        // Markdown and HTML are read once: the same pass gives the headings
        // and the default profile's normalized text (which nearly every
        // query needs); other profiles are built on first use.
        let default = Profile::default();
        let (headings, normalized, hidden) = match format {
            Format::Markdown => {
                let mut builder = NormalizedBuilder::new(default, source.len());
                // past the deadline the blocks still read are not normalized
                let (mut headings, hidden) = extract::markdown::extract_markdown_parts(&source, false, |u| {
                    if !deadline.expired() {
                        builder.push_units(u);
                    }
                });
                if headings.is_empty() {
                    headings = dedented_markdown_headings(&source);
                }
                (headings, Some(builder.finish()), hidden)
            }
            Format::Html => {
                let extracted = extract::extract_html(&source);
                let mut builder = NormalizedBuilder::new(default, source.len());
                builder.push_units(&extracted.units);
                (extracted.headings, Some(builder.finish()), extracted.hidden)
            }
            Format::PlainText => (Vec::new(), None, Hidden::default()),
        };
        if deadline.expired_now() {
            return Err(past_deadline("parsing the document"));
        }
        let with_hidden = indexes.iter().map(|(p, _)| (*p, OnceCell::new())).collect();
        if let (Some(n), Some((_, cell))) = (normalized, indexes.iter().find(|(p, _)| *p == default)) {
            let _ = cell.set(SearchIndex::from_normalized(n));
        }
        let sections = build_sections(&source, &headings, &positions);
        Ok(Document { source, format, sections, positions, indexes, hidden, with_hidden })
    }

    /// [`DocumentMetadata`] of a source that was not parsed (its time ran
    /// out): sizes and lines, no sections or words.
    pub fn unparsed_metadata(source: &str, format: Option<Format>) -> DocumentMetadata {
        DocumentMetadata {
            size_bytes: source.len(),
            line_count: memchr::memchr_iter(b'\n', source.as_bytes()).count() + 1,
            section_count: 0,
            estimated_reading_time_minutes: 0.0,
            format: format.unwrap_or_else(|| Format::detect(source)),
            char_count: source.chars().count(),
            utf16_length: source.chars().map(char::len_utf16).sum(),
            word_count: 0,
        }
    }

    /// The original source text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The format used to read the source.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Sections in order (a preamble first when text precedes the first heading).
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The section containing byte offset `byte`.
    pub fn section_at(&self, byte: usize) -> Option<&Section> {
        let i = self.sections.partition_point(|s| s.byte_start <= byte);
        self.sections.get(i.checked_sub(1)?)
    }

    /// The offset index of the original text.
    pub fn positions(&self) -> &PositionIndex {
        &self.positions
    }

    /// The span of original bytes `start..end`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        self.positions.span(&self.source, start, end)
    }

    /// The source's visible text normalized under `profile` (what quotes
    /// are searched in), built on first use and kept.
    pub fn normalized_text(&self, profile: Profile) -> &str {
        self.index(profile).text()
    }

    /// The normalized text and token index for `profile`, built on first use.
    // not `std::ops::Index`: it builds on first use and returns a reference
    #[allow(clippy::should_implement_trait)]
    pub(crate) fn index(&self, profile: Profile) -> &SearchIndex {
        let slot = self.indexes.iter().find(|(p, _)| *p == profile).map(|(_, cell)| cell);
        match slot {
            Some(cell) => cell.get_or_init(|| SearchIndex::new(&self.source, self.format, profile)),
            // every profile has a slot; this arm keeps the function total
            None => self.indexes[0].1.get_or_init(|| SearchIndex::new(&self.source, self.format, profile)),
        }
    }

    /// The text of the source no reader sees (hidden elements, `<template>`,
    /// `<noscript>`, scripts and styles, raw HTML ones inside markdown), kept
    /// apart from the searched text, each unit pointing into the original.
    pub fn hidden_text(&self) -> &Hidden {
        &self.hidden
    }

    /// [`Self::index`], or with `include_hidden` the index of all the text,
    /// hidden text included (the same index when there is none). Sections
    /// come from visible headings either way.
    pub(crate) fn index_for(&self, profile: Profile, include_hidden: bool) -> &SearchIndex {
        if !include_hidden || self.hidden.is_empty() {
            return self.index(profile);
        }
        let build = || {
            let mut builder = NormalizedBuilder::new(profile, self.source.len());
            builder.push_units(&self.format.units_with(&self.source, true));
            SearchIndex::from_normalized(builder.finish())
        };
        match self.with_hidden.iter().find(|(p, _)| *p == profile) {
            Some((_, cell)) => cell.get_or_init(build),
            // every profile has a slot; this arm keeps the function total
            None => self.index(profile),
        }
    }

    /// Metadata for the report.
    pub fn metadata(&self) -> DocumentMetadata {
        let words = self.index(Profile::default()).word_count();
        let (chars, utf16) = self.positions.offsets(&self.source, self.source.len());
        DocumentMetadata {
            size_bytes: self.source.len(),
            line_count: self.positions.line_count(),
            section_count: self.sections.len(),
            estimated_reading_time_minutes: (words as f64 / READING_WPM * 100.0).round() / 100.0,
            format: self.format,
            char_count: chars,
            utf16_length: utf16,
            word_count: words,
        }
    }

    /// Bytes held by the document and its built indexes, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        let built: usize = self.indexes.iter().filter_map(|(_, c)| c.get()).map(SearchIndex::heap_bytes).sum();
        let hidden: usize = self.with_hidden.iter().filter_map(|(_, c)| c.get()).map(SearchIndex::heap_bytes).sum();
        self.source.capacity()
            + self.positions.heap_bytes()
            + built
            + hidden
            + self.hidden.units.capacity() * std::mem::size_of::<Unit>()
    }
}

/// The error of work stopped by its deadline while `doing`.
pub(crate) fn past_deadline(doing: &str) -> Error {
    Error::new(ErrorKind::Processing, format!("processing time exceeded max_processing_time_seconds while {doing}"))
        .with_detail("constraint", serde_json::Value::from("max_processing_time_seconds"))
}

/// Whether `e` is the error of a parse stopped by its deadline.
pub(crate) fn is_past_deadline(e: &Error) -> bool {
    e.kind() == ErrorKind::Processing
        && e.details().get("constraint").and_then(|c| c.as_str()) == Some("max_processing_time_seconds")
}

fn build_sections(source: &str, headings: &[Heading], positions: &PositionIndex) -> Vec<Section> {
    let mut sections = Vec::with_capacity(headings.len() + 1);
    let first = headings.first().map_or(source.len(), |h| h.start as usize);
    if !source[..first.min(source.len())].trim().is_empty() {
        sections.push(Section {
            kind: "preamble",
            level: 0,
            title: "Document Preamble".to_string(),
            start_line: 1,
            byte_start: 0,
            byte_end: first,
            heading_end: 0,
        });
    }
    for (i, h) in headings.iter().enumerate() {
        let end = headings.get(i + 1).map_or(source.len(), |n| n.start as usize);
        sections.push(Section {
            kind: "section",
            level: h.level,
            title: h.title.clone(),
            start_line: positions.line_of(h.start as usize),
            byte_start: h.start as usize,
            byte_end: end,
            heading_end: h.end as usize,
        });
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_builds_one_more_index_only_when_there_is_hidden_text() {
        let source = "# T\n\nshown <span hidden>secret words</span> text\n";
        let doc = Document::new(source, Some(Format::Markdown)).unwrap();
        let p = Profile::default();
        assert!(!doc.index(p).text().contains("secret"));
        assert!(doc.index_for(p, true).text().contains("shown secret words text"));
        assert!(std::ptr::eq(doc.index_for(p, false), doc.index(p)));
        // no hidden text: one index
        let plain = Document::new("# T\n\nall shown\n", Some(Format::Markdown)).unwrap();
        assert!(std::ptr::eq(plain.index_for(p, true), plain.index(p)));
    }

    #[test]
    fn detects_formats_like_the_spec() {
        assert_eq!(Format::detect("\n  # Title\ntext"), Format::Markdown);
        assert_eq!(Format::detect("<!DOCTYPE html><p>x</p>"), Format::Html);
        assert_eq!(Format::detect("x <HTML> y"), Format::Html);
        assert_eq!(Format::detect("just text"), Format::PlainText);
    }

    #[test]
    fn markdown_sections_with_preamble() {
        let doc = Document::new("intro\n# One\na\n## Two\nb\n", None).unwrap();
        assert_eq!(doc.format(), Format::PlainText); // does not start with '#'
        let doc = Document::new("intro\n# One\na\n## Two\nb\n", Some(Format::Markdown)).unwrap();
        let titles: Vec<_> = doc.sections().iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Document Preamble", "One", "Two"]);
        let b = doc.source().find('b').unwrap();
        assert_eq!(doc.section_at(b).unwrap().title, "Two");
        assert_eq!(doc.sections()[2].start_line, 4);
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// The default index built with the headings in `Document::new` is the
    /// one `SearchIndex::new` builds on its own, and the word count does
    /// not depend on whether the token index exists.
    #[test]
    fn eager_default_index_is_the_lazy_one() {
        let md = "# Title\nSome *emph* and `code`, &amp; a [link](http://x).\n\n## Next\nThe end\u{2019}s here.\n";
        let html = "<html><body><h1>Title</h1><p>Some <b>bold</b> &amp; text.</p></body></html>";
        for (src, format) in [(md, Format::Markdown), (html, Format::Html), ("plain text, here", Format::PlainText)] {
            let doc = Document::new(src, Some(format)).unwrap();
            let p = Profile::default();
            let alone = SearchIndex::new(src, format, p);
            assert_eq!(doc.index(p).text(), alone.text());
            for i in 0..alone.text().len() {
                assert_eq!(doc.index(p).normalized().original_of_byte(i), alone.normalized().original_of_byte(i));
            }
            let words = doc.metadata().word_count;
            assert_eq!(words, doc.index(p).tokens().len());
            assert_eq!(doc.metadata().word_count, words);
        }
    }
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    /// The documents of spec 000 §5 are indented (Python triple quotes);
    /// their headings still make sections.
    #[test]
    fn indented_headings_of_spec_5_4() {
        let src = "\n    # Section 1\n    Users need to authenticate with the system.\n    \n    # Section 2  \n    The authentication system must be secure.\n";
        let doc = Document::new(src, None).unwrap();
        assert_eq!(doc.format(), Format::Markdown);
        let titles: Vec<_> = doc.sections().iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Section 1", "Section 2"]);
        let s2 = &doc.sections()[1];
        assert_eq!(&src[s2.byte_start..s2.heading_end], "# Section 2  ");
        assert_eq!(s2.start_line, 5);
    }
}
