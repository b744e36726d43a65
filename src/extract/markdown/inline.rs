//! Inline parsing of one segment (a paragraph, heading or table cell):
//! backslash escapes, code spans, autolinks and raw HTML, character
//! references, links and images, then emphasis (see [`super::emphasis`]).

use super::emphasis::Delims;
use super::links::{autolink, label_end, label_text, link_tail};
use super::raw_html::{raw_html, HtmlEnds, TagEvent};
use super::scanners::run_len;
use super::Cand;
use crate::extract::entities::decode_char_ref;
use crate::extract::units::Unit;
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy)]
pub(super) enum Slot {
    Keep,
    Drop,
    Emit(Unit),
}

/// A `[` or `![` waiting for its `]`.
pub(super) struct Bracket {
    pub(super) pos: usize,
    pub(super) image: bool,
    /// The last delimiter before the bracket.
    pub(super) bottom: Option<usize>,
    pub(super) text_start: usize,
}

/// The inline parsing state of one segment.
pub(super) struct Inline<'c> {
    pub(super) cs: &'c [Cand],
    /// What becomes of each candidate.
    pub(super) slots: Vec<Slot>,
    /// The delimiter stack.
    delims: Delims,
    /// Raw HTML tags by candidate index, in order: (index, event).
    tags: Vec<(usize, TagEvent)>,
    brackets: Vec<Bracket>,
    /// A link may not contain a link: `[`s before this index are inactive.
    inactive_before: usize,
    backticks: Option<Backticks>,
    html_ends: Option<HtmlEnds>,
}

/// Closing backtick runs by length, each with a cursor that only moves forward.
pub(super) struct Backticks {
    pub(super) runs: HashMap<usize, (Vec<usize>, usize)>,
}

impl Backticks {
    pub(super) fn new(cs: &[Cand]) -> Backticks {
        let mut runs: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
        let mut i = 0;
        while let Some(c) = cs.get(i) {
            if c.ch == '`' {
                let len = run_len(cs, i, '`');
                runs.entry(len).or_default().0.push(i);
                i += len;
            } else {
                i += 1;
            }
        }
        Backticks { runs }
    }

    /// The first run of exactly `len` backticks starting after `i`.
    pub(super) fn closer(&mut self, i: usize, len: usize) -> Option<usize> {
        let (positions, cursor) = self.runs.get_mut(&len)?;
        while positions.get(*cursor).is_some_and(|&p| p <= i) {
            *cursor += 1;
        }
        positions.get(*cursor).copied()
    }
}

/// Parses the candidates of one paragraph (or heading, or table cell) for
/// inline markup and appends the resulting units to `out`.
pub(super) fn inline(cs: &[Cand], src: &str, defs: &HashSet<String>, out: &mut Vec<Unit>, events: &mut Vec<TagEvent>) {
    let n = cs.len();
    let mut st = Inline {
        cs,
        slots: vec![Slot::Keep; n],
        delims: Delims::default(),
        tags: Vec::new(),
        brackets: Vec::new(),
        inactive_before: 0,
        backticks: None,
        html_ends: None,
    };
    let mut i = 0;
    while let Some(c) = cs.get(i) {
        i = match c.ch {
            '\\' => st.backslash(i),
            '`' => st.code_span(i),
            '<' => st.angle(i),
            '&' => st.char_ref(i, src),
            c @ ('*' | '_') => {
                let len = run_len(cs, i, c);
                st.delims.push(cs, c, i, len);
                i + len
            }
            '~' => {
                let len = run_len(cs, i, '~');
                if len == 2 {
                    st.delims.push(cs, '~', i, len);
                }
                i + len
            }
            '!' if st.ch(i + 1) == Some('[') => {
                st.brackets.push(Bracket { pos: i, image: true, bottom: st.delims.tail(), text_start: i + 2 });
                i + 2
            }
            '[' => {
                st.brackets.push(Bracket { pos: i, image: false, bottom: st.delims.tail(), text_start: i + 1 });
                i + 1
            }
            ']' => st.close_bracket(i, defs),
            _ => i + 1,
        };
    }
    st.emphasis(None);
    st.emit(out, events);
}

/// Candidates `from..to` dropped (nothing past the end).
fn drop_slots(slots: &mut [Slot], from: usize, to: usize) {
    for s in slots.get_mut(from..to).unwrap_or_default() {
        *s = Slot::Drop;
    }
}

impl Inline<'_> {
    fn drop_range(&mut self, from: usize, to: usize) {
        drop_slots(&mut self.slots, from, to);
    }

    /// Emphasis over the delimiters above `bottom`: the runs it uses dropped.
    fn emphasis(&mut self, bottom: Option<usize>) {
        let slots = &mut self.slots;
        self.delims.process_emphasis(bottom, |from, to| drop_slots(slots, from, to));
    }

    /// Says what becomes of candidate `i` (nothing past the end).
    fn set(&mut self, i: usize, slot: Slot) {
        if let Some(s) = self.slots.get_mut(i) {
            *s = slot;
        }
    }

    /// The char of candidate `i`, if there is one.
    pub(super) fn ch(&self, i: usize) -> Option<char> {
        self.cs.get(i).map(|c| c.ch)
    }

    /// A backslash at `i`: drops it if it escapes the next char (a backslash
    /// before a line ending is a hard line break, except at the very end of
    /// the paragraph). Returns where to continue.
    fn backslash(&mut self, i: usize) -> usize {
        let n = self.cs.len();
        let escapes = self.ch(i + 1).is_some_and(|c| {
            c.is_ascii_punctuation()
                || (c == '\n' && i + 2 < n)
                || (c == '\r' && i + 2 < n && !(self.ch(i + 2) == Some('\n') && i + 3 == n))
        });
        if escapes {
            self.set(i, Slot::Drop);
            i + 2
        } else {
            i + 1
        }
    }

    /// A backtick run at `i`: a code span if a run as long closes it (its
    /// backticks and one space of padding on each side go, the code stays).
    fn code_span(&mut self, i: usize) -> usize {
        let cs = self.cs;
        let len = run_len(cs, i, '`');
        let ticks = self.backticks.get_or_insert_with(|| Backticks::new(cs));
        let Some(c) = ticks.closer(i, len) else {
            return i + len;
        };
        self.drop_range(i, i + len);
        self.drop_range(c, c + len);
        // One space of padding on both sides goes (CommonMark).
        let pad = |x: &Cand| x.ch == ' ' || x.ch == '\n';
        if let Some(code @ [first, .., last]) = cs.get(i + len..c) {
            if pad(first) && pad(last) && !code.iter().all(pad) {
                self.set(i + len, Slot::Drop);
                self.set(c - 1, Slot::Drop);
            }
        }
        c + len
    }

    /// A `<` at `i`: an autolink (its brackets go) or raw HTML (it goes; a
    /// block element's tag becomes one `'\n'`; a tag is remembered for hiding).
    fn angle(&mut self, i: usize) -> usize {
        let cs = self.cs;
        if let Some(end) = autolink(cs, i) {
            self.set(i, Slot::Drop);
            self.set(end - 1, Slot::Drop);
            return end;
        }
        let Some((end, block)) = raw_html(cs, i, self.html_ends.get_or_insert_with(HtmlEnds::new)) else {
            return i + 1;
        };
        let html = cs.get(i..end).unwrap_or_default();
        if let Some(tag) = TagEvent::read(html) {
            self.tags.push((i, tag));
        }
        self.drop_range(i, end);
        if let ([first, ..], [.., last], true) = (html, html, block) {
            self.set(i, Slot::Emit(Unit { ch: '\n', start: first.start, end: last.end }));
        }
        end
    }

    /// A `&` at `i`: a character reference becomes one unit spanning it.
    fn char_ref(&mut self, i: usize, src: &str) -> usize {
        let cs = self.cs;
        let Some(start) = cs.get(i).map(|c| c.start as usize) else {
            return i + 1;
        };
        // the reference's last char must be a candidate (not one a container dropped)
        let ends_at = |end: usize| {
            (end - start).checked_sub(1).and_then(|k| cs.get(i + k)).is_some_and(|c| c.end as usize == end)
        };
        match decode_char_ref(src, start, true) {
            Some((ch, end)) if ends_at(end) => {
                let len = end - start;
                self.drop_range(i + 1, i + len);
                self.set(i, Slot::Emit(Unit { ch, start: start as u32, end: end as u32 }));
                i + len
            }
            _ => i + 1,
        }
    }

    /// Appends the units the slots say to `out`, and the raw HTML tags met
    /// to `events` at the output positions where they act.
    fn emit(self, out: &mut Vec<Unit>, events: &mut Vec<TagEvent>) {
        let cs = self.cs;
        if self.tags.is_empty() {
            for (&cand, slot) in cs.iter().zip(&self.slots) {
                push_slot(out, cand, slot);
            }
            return;
        }
        let base = out.len();
        let mut tags = self.tags.into_iter().peekable();
        for (k, (&cand, slot)) in cs.iter().zip(&self.slots).enumerate() {
            // an end tag acts before its own newline unit, a start tag after it
            let tag = tags.next_if(|(at, _)| *at == k);
            if let Some((_, t)) = tag.as_ref().filter(|(_, t)| t.end_tag) {
                events.push(TagEvent { at: out.len() - base, ..t.clone() });
            }
            push_slot(out, cand, slot);
            if let Some((_, t)) = tag.filter(|(_, t)| !t.end_tag) {
                events.push(TagEvent { at: out.len() - base, ..t });
            }
        }
    }

    /// Handles the `]` at `i`; returns where to continue.
    pub(super) fn close_bracket(&mut self, i: usize, defs: &HashSet<String>) -> usize {
        let cs = self.cs;
        let Some(br) = self.brackets.pop() else {
            return i + 1;
        };
        if !br.image && br.pos < self.inactive_before {
            return i + 1;
        }
        let after = i + 1;
        let mut end = None;
        if self.ch(after) == Some('(') {
            end = link_tail(cs, after);
        }
        if end.is_none() && !defs.is_empty() && i - br.text_start <= 999 {
            // Followed by a link label: a full reference or nothing, never a shortcut.
            let mut labelled = false;
            let text = cs.get(br.text_start..i).unwrap_or_default();
            if self.ch(after) == Some('[') {
                if let Some(close) = label_end(cs, after) {
                    let label = if close == after + 1 {
                        label_text(text)
                    } else {
                        label_text(cs.get(after + 1..close).unwrap_or_default())
                    };
                    if defs.contains(&label) {
                        end = Some(close + 1);
                    }
                    labelled = !label.is_empty();
                }
            }
            if end.is_none() && !labelled && defs.contains(&label_text(text)) {
                end = Some(i + 1);
            }
        }
        let Some(end) = end else { return i + 1 };
        self.drop_range(br.pos, br.text_start);
        self.drop_range(i, end);
        self.emphasis(br.bottom);
        if !br.image {
            self.inactive_before = i;
        }
        end
    }
}

/// The unit (if any) a candidate's slot gives.
fn push_slot(out: &mut Vec<Unit>, cand: Cand, slot: &Slot) {
    match slot {
        Slot::Keep => out.push(cand.unit()),
        Slot::Drop => {}
        Slot::Emit(u) => out.push(*u),
    }
}
