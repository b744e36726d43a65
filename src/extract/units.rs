//! Extracted text as units: one char of text and the bytes of the original
//! source it stands for. Format extractors (HTML, markdown) produce units; the
//! normalizer consumes them, so spans always point into the original source.

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

/// Why a piece of text is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HiddenReason {
    /// Inside `<template>`.
    Template,
    /// An element with the `hidden` attribute.
    HiddenAttribute,
    /// An element with `aria-hidden="true"`.
    AriaHidden,
    /// An inline style `display: none`.
    DisplayNone,
    /// An inline style `visibility: hidden` (or `collapse`).
    VisibilityHidden,
    /// Inside `<noscript>`.
    Noscript,
    /// Inside `<script>`.
    Script,
    /// Inside `<style>`.
    Style,
    /// Inside `<iframe>`, `<noembed>` or `<noframes>` (raw text never shown).
    RawText,
}

impl HiddenReason {
    /// A short description for reports: `<template>`, `hidden attribute`,
    /// `aria-hidden="true"`, `display:none`, `visibility:hidden`, …
    pub fn describe(self) -> &'static str {
        match self {
            HiddenReason::Template => "<template>",
            HiddenReason::HiddenAttribute => "hidden attribute",
            HiddenReason::AriaHidden => "aria-hidden=\"true\"",
            HiddenReason::DisplayNone => "display:none",
            HiddenReason::VisibilityHidden => "visibility:hidden",
            HiddenReason::Noscript => "<noscript>",
            HiddenReason::Script => "<script>",
            HiddenReason::Style => "<style>",
            HiddenReason::RawText => "<iframe>/<noembed>/<noframes> content",
        }
    }
}

/// A run of hidden text: from the first to the last hidden unit of one
/// hidden element (or raw text element), in original bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HiddenRegion {
    /// Why it is hidden (the outermost reason).
    pub reason: HiddenReason,
    /// Byte offset in the original where the region's first hidden unit starts.
    pub start: u32,
    /// Byte offset where its last hidden unit ends (exclusive).
    pub end: u32,
}

/// The hidden text of a source: its units (in source order, like the
/// visible ones, each pointing into the original) and the regions they
/// form (sorted, disjoint; every hidden unit lies in exactly one region).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Hidden text, unit by unit.
    pub units: Vec<Unit>,
    /// The regions, in source order.
    pub regions: Vec<HiddenRegion>,
    /// The episode of the last region (a new hidden element starts a new region).
    last_episode: Option<u32>,
}

impl Hidden {
    /// No hidden text.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The hidden text: the units' chars concatenated.
    pub fn text(&self) -> String {
        self.units.iter().map(|u| u.ch).collect()
    }

    /// The region containing original byte `byte`, if any.
    pub fn region_at(&self, byte: usize) -> Option<&HiddenRegion> {
        let i = self.regions.partition_point(|r| r.start as usize <= byte);
        self.regions.get(i.checked_sub(1)?).filter(|r| byte < r.end as usize)
    }

    /// The region holding all of `start..end` (original bytes), if one does.
    pub fn region_holding(&self, start: usize, end: usize) -> Option<&HiddenRegion> {
        self.region_at(start).filter(|r| end <= r.end as usize && start < end)
    }

    /// Adds a hidden unit of `episode` (units arrive in source order).
    pub(crate) fn push(&mut self, unit: Unit, reason: HiddenReason, episode: u32) {
        self.units.push(unit);
        match self.regions.last_mut() {
            Some(r) if self.last_episode == Some(episode) => r.end = r.end.max(unit.end),
            _ => {
                self.regions.push(HiddenRegion { reason, start: unit.start, end: unit.end });
                self.last_episode = Some(episode);
            }
        }
    }
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
    /// The text no reader sees (see `extract::hidden`), kept apart from
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
