//! [`DocumentBuilder`]: a [`Document`] built a bounded amount at a time, for
//! hosts with one thread (an edge worker's isolate) that serve other
//! requests between the steps. The same document as [`Document::new`]
//! (tested: the same reports, byte for byte, on markdown, HTML and plain
//! text with emoji, CJK, combining marks and CRLF).
//!
//! The steps, each about `budget` bytes of the source (a step is at least
//! one line or one block):
//!
//! 1. the position index (one pass of a few hundred microseconds a
//!    megabyte: one step);
//! 2. reading the source: markdown's block structure a run of lines at a
//!    time, then its inline parsing a run of blocks at a time, each block's
//!    units normalized as they come; HTML read in one step (its reader is
//!    not cut: the step not bounded by `budget`), then its units normalized
//!    `budget` at a time; plain text normalized `budget` bytes at a time
//!    (where [`Document::new`] normalizes it on first use);
//! 3. the sections (a markdown document without headings is read once more,
//!    dedented, in one step, as [`Document::new`] does).
//!
//! What a search builds on first use (the word index, the fuzzy matcher's
//! char marks, …) is not built here: a validation in steps builds what its
//! options need, each a step (`validate::SlicedValidation`).

use super::{build_sections, dedented_markdown_headings, Document, Format};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::extract::markdown::MarkdownSteps;
use crate::extract::{self, Heading, Hidden, Unit};
use crate::options;
use crate::text::normalize::NormalizedBuilder;
use crate::text::{PositionIndex, Profile};
use std::cell::OnceCell;

/// Default source bytes a host's build step reads
/// ([`DocumentBuilder::step_budget`]; `SliceOptions::bytes_per_step`).
pub const DEFAULT_STEP_BYTES: usize = 64 * 1024;
/// Fewest source bytes a host may give a build step.
pub const MIN_STEP_BYTES: usize = 1024;
/// Most source bytes a host may give a build step (larger values are
/// refused, not clamped).
pub const MAX_STEP_BYTES: usize = 1 << 30;

/// A document being built in steps: [`DocumentBuilder::step`] until it
/// says done, then [`DocumentBuilder::finish`].
pub struct DocumentBuilder {
    source: String,
    format: Format,
    phase: Phase,
    positions: PositionIndex,
    headings: Vec<Heading>,
    hidden: Hidden,
    normalizer: Option<NormalizedBuilder>,
    doc: Option<Document>,
}

enum Phase {
    Positions,
    Markdown(Box<MarkdownSteps>),
    Dedent,
    Html,
    /// HTML's units, pushed to the normalizer from `at`.
    Units(Vec<Unit>, usize),
    /// Plain text normalized from byte `at`.
    Plain(usize),
    Sections,
    Done,
}

impl DocumentBuilder {
    /// Starts building a document of `source` (format detected unless
    /// given); the checks of [`Document::new`] are made here.
    pub fn new(source: impl Into<String>, format: Option<Format>) -> Result<DocumentBuilder> {
        let source = source.into();
        if source.len() > u32::MAX as usize / 2 {
            return Err(Error::new(ErrorKind::DocumentParsing, "document larger than 2 GiB cannot be indexed"));
        }
        let format = format.unwrap_or_else(|| Format::detect(&source));
        Ok(DocumentBuilder {
            source,
            format,
            phase: Phase::Positions,
            positions: PositionIndex::default(),
            headings: Vec::new(),
            hidden: Hidden::default(),
            normalizer: None,
            doc: None,
        })
    }

    /// The format the document is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The source being built.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The budget of a host's step, the one rule for every surface that
    /// takes one (JS `DocumentBuilder.step(budget)`, `SliceOptions`'
    /// `bytesPerStep`): absent, [`DEFAULT_STEP_BYTES`]; else a whole
    /// number from [`MIN_STEP_BYTES`] to [`MAX_STEP_BYTES`]. Anything else
    /// is refused, never clamped: a `CONFIGURATION_ERROR` naming
    /// `$.budget`, the error `SliceOptions::from_json` gives for
    /// `bytesPerStep` (the same message and details but for the key).
    pub fn step_budget(budget: Option<f64>) -> Result<usize> {
        match budget {
            None => Ok(DEFAULT_STEP_BYTES),
            Some(x) => options::whole_number(
                "budget",
                &JsonPath::root().key("budget"),
                x,
                MIN_STEP_BYTES as u64,
                MAX_STEP_BYTES as u64,
            ),
        }
    }

    /// Does the next step, about `budget` bytes of work (see the module
    /// header; a budget of 0 counts as 1; any budget is taken here, so
    /// that tests may build in steps of a few bytes: a host's number goes
    /// through [`DocumentBuilder::step_budget`] first); true once the
    /// document is built.
    pub fn step(&mut self, budget: usize) -> bool {
        let budget = budget.max(1);
        let default = Profile::default();
        self.phase = match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Positions => {
                self.positions = PositionIndex::new(&self.source);
                match self.format {
                    Format::Markdown => {
                        self.normalizer = Some(NormalizedBuilder::new(default, self.source.len()));
                        Phase::Markdown(Box::new(MarkdownSteps::new(&self.source, false)))
                    }
                    Format::Html => Phase::Html,
                    Format::PlainText => {
                        self.normalizer = Some(NormalizedBuilder::new(default, self.source.len()));
                        Phase::Plain(0)
                    }
                }
            }
            Phase::Markdown(mut steps) => {
                let normalizer = &mut self.normalizer;
                let sink = |units: &[Unit]| {
                    if let Some(n) = normalizer.as_mut() {
                        n.push_units(units);
                    }
                };
                match steps.step(&self.source, budget, sink) {
                    Some((headings, hidden)) => {
                        (self.headings, self.hidden) = (headings, hidden);
                        if self.headings.is_empty() {
                            Phase::Dedent
                        } else {
                            Phase::Sections
                        }
                    }
                    None => Phase::Markdown(steps),
                }
            }
            Phase::Dedent => {
                self.headings = dedented_markdown_headings(&self.source);
                Phase::Sections
            }
            Phase::Html => {
                let extracted = extract::extract_html(&self.source);
                (self.headings, self.hidden) = (extracted.headings, extracted.hidden);
                self.normalizer = Some(NormalizedBuilder::new(default, self.source.len()));
                Phase::Units(extracted.units, 0)
            }
            Phase::Units(units, at) => {
                let end = at.saturating_add(budget).min(units.len());
                if let (Some(n), Some(part)) = (self.normalizer.as_mut(), units.get(at..end)) {
                    n.push_units(part);
                }
                if end < units.len() {
                    Phase::Units(units, end)
                } else {
                    Phase::Sections
                }
            }
            Phase::Plain(at) => {
                let mut end = at.saturating_add(budget).min(self.source.len());
                while !self.source.is_char_boundary(end) {
                    end += 1;
                }
                let part = self.source.get(at..end).unwrap_or("");
                let units: Vec<Unit> = part
                    .char_indices()
                    .map(|(i, ch)| Unit { ch, start: (at + i) as u32, end: (at + i + ch.len_utf8()) as u32 })
                    .collect();
                if let Some(n) = self.normalizer.as_mut() {
                    n.push_units(&units);
                }
                if end < self.source.len() {
                    Phase::Plain(end)
                } else {
                    Phase::Sections
                }
            }
            Phase::Sections => {
                self.doc = Some(self.assemble());
                Phase::Done
            }
            Phase::Done => Phase::Done,
        };
        matches!(self.phase, Phase::Done)
    }

    /// The document: the remaining steps are done first, unbounded.
    pub fn finish(mut self) -> Document {
        while !self.step(usize::MAX) {}
        match self.doc.take() {
            Some(doc) => doc,
            // every path through the steps assembles it
            None => self.assemble(),
        }
    }

    /// The [`Document`] of what the steps read (as [`Document::parse`]
    /// assembles it).
    fn assemble(&mut self) -> Document {
        let source = std::mem::take(&mut self.source);
        let positions = std::mem::take(&mut self.positions);
        let hidden = std::mem::take(&mut self.hidden);
        let indexes = [(true, true), (true, false), (false, true), (false, false)]
            .map(|(c, w)| (Profile { fold_case: c, collapse_whitespace: w }, OnceCell::new()));
        let with_hidden = indexes.iter().map(|(p, _)| (*p, OnceCell::new())).collect();
        if let (Some(n), Some((_, cell))) =
            (self.normalizer.take(), indexes.iter().find(|(p, _)| *p == Profile::default()))
        {
            let _ = cell.set(super::SearchIndex::from_normalized(n.finish()));
        }
        let sections = build_sections(&source, &self.headings, &positions);
        Document { source, format: self.format, sections, positions, indexes, hidden, with_hidden }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::SliceOptions;
    use serde_json::json;

    /// What a host's budget parses to, or its error's code, message
    /// (without its path) and constraint.
    fn outcome(r: Result<usize>) -> std::result::Result<usize, (String, String, serde_json::Value)> {
        r.map_err(|e| {
            let message = e.to_string();
            let message = message.rsplit_once(" at ").map_or(message.clone(), |(m, _)| m.to_string());
            (e.code().to_string(), message, e.details()["constraint"].clone())
        })
    }

    #[test]
    fn a_step_budget_has_the_bounds_and_errors_of_bytes_per_step() {
        // the slice options' bound is this one (validate re-exports it)
        assert_eq!(DocumentBuilder::step_budget(None).unwrap(), SliceOptions::default().bytes_per_step);
        let max = MAX_STEP_BYTES as f64;
        for x in [0.0, 1.0, 16.0, 1023.0, 1024.0, 1024.5, 65536.0, max, max + 1.0, -1.0, 1e300] {
            let ours = outcome(DocumentBuilder::step_budget(Some(x)));
            let sliced = outcome(SliceOptions::from_json(&json!({ "bytesPerStep": x })).map(|o| o.bytes_per_step))
                .map_err(|(c, m, k)| (c, m.replace("bytesPerStep", "budget"), k));
            assert_eq!(ours, sliced, "{x}");
            let inside = x.fract() == 0.0 && (MIN_STEP_BYTES as f64..=max).contains(&x);
            assert_eq!(ours.map_err(|e| e.0), if inside { Ok(x as usize) } else { Err("CONFIGURATION_ERROR".into()) });
        }
        // JSON has no NaN nor infinity; a host's number may be either
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = DocumentBuilder::step_budget(Some(x)).unwrap_err();
            assert_eq!((e.code(), &e.details()["constraint"]), ("CONFIGURATION_ERROR", &json!("type")));
        }
        let e = DocumentBuilder::step_budget(Some(16.0)).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.budget");
        assert_eq!(e.details()["constraint"], "range");
    }
}
