//! The second phase: each segment inline-parsed in order, its units routed
//! to the visible text or the hidden text as the raw HTML tags met so far
//! say, and the headings' titles assembled from their segments' units.

use super::blocks::{Blocks, PendingHeading};
use super::inline::inline;
use super::raw_html::TagEvent;
use crate::extract::hidden::Tracker;
use crate::extract::units::{title_of, Heading, Unit};
use crate::extract::units::{Hidden, HiddenReason};

/// The second phase between two steps (see [`Blocks::render_until`]):
/// the next segment, and what is carried from segment to segment.
pub(super) struct Render {
    next: usize,
    include_hidden: bool,
    units: Vec<Unit>,
    visible: Vec<Unit>,
    events: Vec<TagEvent>,
    seen: HiddenState,
    titles: Titles,
}

impl Blocks<'_> {
    /// Hands the visible units to `sink` segment by segment, keeping only
    /// the units of heading segments (for their titles), and returns the
    /// headings and the hidden text. Raw HTML tags are followed across
    /// segments (a `<div hidden>` hides the paragraphs up to its `</div>`).
    pub(super) fn finish(mut self, include_hidden: bool, mut sink: impl FnMut(&[Unit])) -> (Vec<Heading>, Hidden) {
        let mut render = self.render_start(include_hidden);
        while !self.render_until(&mut render, usize::MAX, &mut sink) {}
        self.render_end(render)
    }

    /// The second phase before its first segment (block parsing done).
    pub(super) fn render_start(&mut self, include_hidden: bool) -> Render {
        self.flush_para();
        Render {
            next: 0,
            include_hidden,
            units: Vec::new(),
            visible: Vec::new(),
            events: Vec::new(),
            seen: HiddenState::default(),
            titles: Titles::new(&self.st.headings),
        }
    }

    /// Renders segments until `budget` candidate chars are done (at least
    /// one segment when any is left); true once every segment is.
    pub(super) fn render_until(&self, r: &mut Render, budget: usize, sink: &mut impl FnMut(&[Unit])) -> bool {
        let mut done = 0usize;
        while let Some(seg) = self.st.segs.get(r.next) {
            if done > 0 && done >= budget {
                return false;
            }
            let i = r.next;
            r.next += 1;
            done = done.saturating_add(seg.to.saturating_sub(seg.from).max(1));
            r.units.clear();
            r.events.clear();
            let cands = self.st.cands.get(seg.from..seg.to).unwrap_or_default();
            // a block starts (a paragraph, heading, table cell, code block,
            // blank line): the block element markdown renders, or the end of
            // the paragraph, closes a raw `<p>` left open before it
            r.seen.close_p();
            if seg.inline {
                inline(cands, self.src, &self.st.defs, &mut r.units, &mut r.events);
            } else {
                r.units.extend(cands.iter().map(|c| c.unit()));
            }
            let hidden_before = r.seen.hidden.units.len();
            // nothing hidden and no tag to follow: the units as they are
            let routed = r.include_hidden || (r.events.is_empty() && r.seen.reason().is_none());
            if routed {
                // with include_hidden the tags are still followed (for headings)
                for e in &r.events {
                    r.seen.apply(e);
                }
            } else {
                r.seen.route(&r.units, &r.events, &mut r.visible);
            }
            let visible: &[Unit] = if routed { &r.units } else { &r.visible };
            r.titles.add(&self.st.headings, i, visible, r.seen.hidden.units.len() > hidden_before);
            sink(visible);
        }
        true
    }

    /// The headings and the hidden text, once every segment is rendered.
    pub(super) fn render_end(&self, r: Render) -> (Vec<Heading>, Hidden) {
        (r.titles.headings(&self.st.headings), r.seen.hidden)
    }
}

/// The titles of the pending headings, gathered segment by segment: each
/// heading's visible units, and whether any of its text was hidden.
struct Titles {
    titles: Vec<(Vec<Unit>, bool)>,
    /// The first heading whose segments are not all behind.
    first_open: usize,
}

impl Titles {
    fn new(headings: &[PendingHeading]) -> Titles {
        // headings are pushed in order of their first segment
        debug_assert!(headings.windows(2).all(|w| matches!(w, [a, b] if a.seg_from <= b.seg_from)));
        Titles { titles: vec![(Vec::new(), false); headings.len()], first_open: 0 }
    }

    /// Adds the visible units of segment `i` to the headings it belongs to.
    fn add(&mut self, headings: &[PendingHeading], i: usize, visible: &[Unit], any_hidden: bool) {
        while headings.get(self.first_open).is_some_and(|h| h.seg_to <= i) {
            self.first_open += 1;
        }
        for (h, title) in headings.iter().zip(self.titles.iter_mut()).skip(self.first_open) {
            if h.seg_from > i {
                break;
            }
            if i < h.seg_to {
                title.0.extend_from_slice(visible);
                title.1 |= any_hidden;
            }
        }
    }

    fn headings(self, headings: &[PendingHeading]) -> Vec<Heading> {
        headings
            .iter()
            .zip(self.titles)
            // a heading whose text is all hidden is no heading
            .filter(|(_, (title, any_hidden))| !(*any_hidden && title.iter().all(|u| u.ch.is_whitespace())))
            .map(|(h, (title, _))| Heading {
                level: h.level,
                title: title_of(&title),
                start: h.start as u32,
                end: h.end as u32,
            })
            .collect()
    }
}

/// Raw HTML elements whose content is raw text that is never shown.
pub(super) fn raw_hidden_reason(name: &[u8]) -> Option<HiddenReason> {
    match name {
        b"script" => Some(HiddenReason::Script),
        b"style" => Some(HiddenReason::Style),
        b"iframe" | b"noembed" | b"noframes" => Some(HiddenReason::RawText),
        _ => None,
    }
}

/// What raw HTML has hidden so far, across segments.
#[derive(Default)]
pub(super) struct HiddenState {
    pub(super) tracker: Tracker,
    /// Inside a raw text element (`script`, `style`, …): its name, why, and
    /// the episode of its text; only its end tag ends it.
    pub(super) raw: Option<(Vec<u8>, HiddenReason, u32)>,
    pub(super) hidden: Hidden,
}

impl HiddenState {
    pub(super) fn apply(&mut self, e: &TagEvent) {
        if let Some((name, _, _)) = &self.raw {
            if e.end_tag && *name == e.name {
                self.raw = None;
            }
            return;
        }
        if e.end_tag {
            self.tracker.end(&e.name);
        } else if let Some(reason) = raw_hidden_reason(&e.name) {
            let episode = match self.tracker.reason() {
                Some(_) => self.tracker.episode(),
                None => self.tracker.new_episode(),
            };
            self.raw = Some((e.name.clone(), reason, episode));
        } else {
            self.tracker.close_implied(&e.name);
            self.tracker.start(&e.name, e.hiding);
        }
    }

    /// Follows a segment's tags through its units: the visible ones go to
    /// `visible`, the hidden ones to the hidden text.
    fn route(&mut self, units: &[Unit], events: &[TagEvent], visible: &mut Vec<Unit>) {
        visible.clear();
        let mut next_event = events.iter().peekable();
        for (k, u) in units.iter().enumerate() {
            while let Some(e) = next_event.next_if(|e| e.at <= k) {
                self.apply(e);
            }
            match self.reason() {
                Some((reason, episode)) => self.hidden.push(*u, reason, episode),
                None => visible.push(*u),
            }
        }
        for e in next_event {
            self.apply(e);
        }
    }

    /// A block rendered by markdown starts (outside raw text).
    pub(super) fn close_p(&mut self) {
        if self.raw.is_none() {
            self.tracker.close_p();
        }
    }

    /// Why text here is hidden, and its episode.
    pub(super) fn reason(&self) -> Option<(HiddenReason, u32)> {
        if let Some(r) = self.tracker.reason() {
            return Some((r, self.tracker.episode()));
        }
        self.raw.as_ref().map(|(_, r, e)| (*r, *e))
    }
}
