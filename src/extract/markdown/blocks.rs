//! Block structure: the line-by-line state machine (CommonMark's first
//! phase, as pulldown-cmark's `firstpass.rs`): the container markers of each
//! line (blockquotes, list items and their content columns), the open
//! paragraph, fence and table, and the arena of candidate chars laid out in
//! segments for inline parsing. The leaf blocks are in [`super::leaves`].

use super::scanners::{closing_fence, indent, is_space_tab, setext_underline, skip_ws, thematic_break};
use super::Cand;
use crate::extract::scan::find_byte;
use std::collections::HashSet;

#[derive(Debug, Clone, Copy)]
pub(super) struct Seg {
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) inline: bool,
}

/// A heading whose title is known once its segments are inline-parsed.
pub(super) struct PendingHeading {
    pub(super) level: u8,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) seg_from: usize,
    pub(super) seg_to: usize,
}

/// An open fenced code block.
#[derive(Clone, Copy)]
pub(super) struct Fence {
    pub(super) ch: u8,
    pub(super) len: usize,
    pub(super) blockquotes: usize,
    /// For a fence in a list item: content lines indented less (and not
    /// blank) end the item, and so the fence.
    pub(super) min_indent: Option<usize>,
}

/// An open paragraph: its candidates start at `from` in the arena.
#[derive(Clone, Copy)]
pub(super) struct Para {
    pub(super) from: usize,
    pub(super) start: usize,
    pub(super) blockquotes: usize,
    /// Container context, for CommonMark's interruption rules.
    pub(super) ctx: ListCtx,
}

/// Whether a paragraph is in a list item, and the item's content column
/// (counted from the end of the blockquote markers) when known.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ListCtx {
    pub(super) in_list: bool,
    pub(super) col: Option<usize>,
}

impl ListCtx {
    /// Whether a line indented by `indent` is a lazy line outside the item:
    /// such a line may start a list whatever the paragraph before it.
    pub(super) fn lazy_outside(self, indent: usize) -> bool {
        match self.col {
            Some(col) => self.in_list && indent < col,
            None => self.in_list,
        }
    }
}

/// An open list item: its content column (from the end of the blockquote
/// markers) and the blockquote depth it is in.
#[derive(Debug, Clone, Copy)]
pub(super) struct Item {
    pub(super) col: usize,
    pub(super) blockquotes: usize,
    /// No content yet: a blank line now ends the item.
    pub(super) empty: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Table {
    No,
    /// The previous line was a header row; this one is the delimiter row.
    Header,
    Body,
}

pub(super) struct Blocks<'a> {
    pub(super) src: &'a str,
    pub(super) b: &'a [u8],
    /// Everything but the source: what [`Blocks::park`] sets aside.
    pub(super) st: Parked,
}

/// A [`Blocks`] without its borrow of the source: its state between two
/// steps of [`Blocks::run_until`] (for a build done a bounded amount at a
/// time, see [`super::MarkdownSteps`]), moved out and back in whole.
pub(super) struct Parked {
    pub(super) cands: Vec<Cand>,
    pub(super) segs: Vec<Seg>,
    pub(super) headings: Vec<PendingHeading>,
    pub(super) defs: HashSet<String>,
    pub(super) para: Option<Para>,
    pub(super) fence: Option<Fence>,
    pub(super) table: Table,
    /// The previous line was a link reference definition (`Some((in a list
    /// item, blockquote depth))`): for CommonMark it is still a paragraph, which
    /// the next line may continue and list items may not interrupt.
    pub(super) after_def: Option<(ListCtx, usize)>,
    /// The list items that may contain the next line, outermost first.
    pub(super) items: Vec<Item>,
    /// Where [`Blocks::run_until`] goes on, and whether that is a line's start.
    pos: usize,
    at_line_start: bool,
}

/// The container markers of a line, as [`Blocks::markers`] reads them.
struct Markers {
    /// The offset after the blockquote markers.
    after_blockquotes: usize,
    /// The offset after all the markers.
    content: usize,
    blockquotes: usize,
    /// The line opens a list item.
    list_item: bool,
    new_items: Vec<Item>,
    /// Indentation before each `>` marker (for list items holding blockquotes).
    quote_indents: Vec<usize>,
}

/// A line `[ls, le)` (its line ending ends at `next`) past its container
/// markers: what its leaf block is decided from.
pub(super) struct Line {
    pub(super) ls: usize,
    pub(super) le: usize,
    pub(super) next: usize,
    pub(super) after_blockquotes: usize,
    pub(super) content: usize,
    pub(super) blockquotes: usize,
    pub(super) list_item: bool,
    /// The first byte of the content that is not a space or tab.
    pub(super) q: usize,
    /// At most 3 spaces of indentation before `q`.
    pub(super) small_indent: bool,
    /// How many of the open list items the line is inside of.
    pub(super) inside: usize,
    /// The context of a paragraph (or definition) starting on this line.
    pub(super) new_ctx: ListCtx,
    /// The previous line was a link reference definition (see [`Parked::after_def`]).
    pub(super) after_def: Option<(ListCtx, usize)>,
}

impl<'a> Blocks<'a> {
    pub(super) fn new(src: &'a str) -> Blocks<'a> {
        let st = Parked {
            cands: Vec::with_capacity(src.len()),
            segs: Vec::new(),
            headings: Vec::new(),
            defs: HashSet::new(),
            para: None,
            fence: None,
            table: Table::No,
            after_def: None,
            items: Vec::new(),
            pos: 0,
            at_line_start: true,
        };
        Blocks::resume(src, st)
    }

    /// Sets aside everything but the source (see [`Parked`]).
    pub(super) fn park(self) -> Parked {
        self.st
    }

    /// A parked [`Blocks`] again, over `src`: the source it was made with
    /// (as [`super::addressable`] cut it).
    pub(super) fn resume(src: &'a str, st: Parked) -> Blocks<'a> {
        Blocks { src, b: src.as_bytes(), st }
    }

    /// The byte [`Blocks::run_until`] goes on from.
    pub(super) fn position(&self) -> usize {
        self.st.pos
    }

    pub(super) fn run(&mut self) {
        while !self.run_until(usize::MAX) {}
    }

    /// Reads lines until the first one that starts at or past byte `stop`
    /// (at least one line when any is left; a line is at most the source);
    /// true once the whole source is read (the open paragraph then closed).
    pub(super) fn run_until(&mut self, stop: usize) -> bool {
        let b = self.b;
        let n = b.len();
        let (mut pos, mut at_line_start) = (self.st.pos, self.st.at_line_start);
        let first = pos;
        while pos < n && (pos == first || pos < stop) {
            let (le, next) = match find_byte(b, pos, b'\n') {
                Some(k) if k > pos && b.get(k - 1) == Some(&b'\r') => (k - 1, k + 1),
                Some(k) => (k, k + 1),
                None => (n, n),
            };
            if at_line_start {
                let (np, start) = self.line(pos, le, next);
                pos = np;
                at_line_start = start;
            } else {
                self.rest_of_line(pos, le, next);
                pos = next;
                at_line_start = true;
            }
        }
        (self.st.pos, self.st.at_line_start) = (pos, at_line_start);
        if pos < n {
            return false;
        }
        self.flush_para();
        true
    }

    /// Appends the chars of `src[from..to]` to the candidate arena.
    pub(super) fn push_range(&mut self, from: usize, to: usize) {
        if let Some(s) = self.src.get(from..to) {
            let mut at = from;
            for ch in s.chars() {
                let end = at + ch.len_utf8();
                self.st.cands.push(Cand { ch, start: at as u32, end: end as u32 });
                at = end;
            }
        }
    }

    pub(super) fn add_seg(&mut self, from: usize, to: usize, inline: bool) {
        if from >= to {
            return;
        }
        if let Some(last) = self.st.segs.last_mut() {
            if !inline && !last.inline && last.to == from {
                last.to = to;
                return;
            }
        }
        self.st.segs.push(Seg { from, to, inline });
    }

    pub(super) fn flush_para(&mut self) {
        if let Some(p) = self.st.para.take() {
            self.add_seg(p.from, self.st.cands.len(), true);
        }
    }

    /// Emits `src[from..to]` verbatim (ends any open paragraph first).
    pub(super) fn verbatim(&mut self, from: usize, to: usize) {
        self.flush_para();
        let c0 = self.st.cands.len();
        self.push_range(from, to);
        self.add_seg(c0, self.st.cands.len(), false);
    }

    /// Emits `src[from..to]` as its own inline-parsed segment.
    pub(super) fn inline_seg(&mut self, from: usize, to: usize) {
        self.flush_para();
        let c0 = self.st.cands.len();
        self.push_range(from, to);
        self.add_seg(c0, self.st.cands.len(), true);
    }

    /// Skips up to `depth` blockquote markers (and the space after each):
    /// returns the offset after them and how many there were.
    pub(super) fn strip_blockquotes(&self, ls: usize, le: usize, depth: usize) -> (usize, usize) {
        let b = self.b;
        let mut p = ls;
        for found in 0..depth {
            let q = skip_ws(b, p, le);
            if q >= le || b.get(q) != Some(&b'>') {
                return (p, found);
            }
            p = q + 1;
            if p < le && b.get(p).is_some_and(|&c| is_space_tab(c)) {
                p += 1;
            }
        }
        (p, depth)
    }

    /// A list marker at `q`: the offset after it and the one space after it,
    /// and the offset of the item's content column (CommonMark's rules).
    pub(super) fn list_marker(&self, q: usize, le: usize, interrupts_para: bool) -> Option<(usize, usize)> {
        let b = self.b;
        let (after, number) = match b.get(q)? {
            b'-' | b'*' | b'+' => (q + 1, None),
            _ => {
                let mut d = q;
                while d < le && d - q < 10 && b.get(d).is_some_and(u8::is_ascii_digit) {
                    d += 1;
                }
                if d == q || d - q > 9 || d >= le || !matches!(b.get(d), Some(b'.' | b')')) {
                    return None;
                }
                let number = std::str::from_utf8(b.get(q..d)?).ok()?.parse::<u32>().ok()?;
                (d + 1, Some(number))
            }
        };
        let first = skip_ws(b, after, le);
        if first == le {
            // An empty item cannot interrupt a paragraph.
            return if interrupts_para { None } else { Some((le.min(after + 1), after + 1)) };
        }
        if first == after {
            return None;
        }
        if interrupts_para && number.is_some_and(|n| n != 1) {
            return None;
        }
        let col = if first - after <= 4 { first } else { after + 1 };
        Some((after + 1, col))
    }

    /// Processes the line `[ls, le)` whose line ending ends at `next`. Returns
    /// where to continue, and whether that is the start of a line.
    pub(super) fn line(&mut self, ls: usize, le: usize, next: usize) -> (usize, bool) {
        let after_def = self.st.after_def.take();
        if self.fence_line(ls, le, next) {
            return (next, true);
        }
        let markers = self.markers(ls, le, after_def);
        let line = self.open_items(markers, ls, le, next, after_def);
        self.leaf(&line)
    }

    /// A line inside an open fenced code block: whether the fence took it
    /// (not when the blockquote or list item holding the fence ends here; so
    /// does the fence).
    fn fence_line(&mut self, ls: usize, le: usize, next: usize) -> bool {
        let Some(fence) = self.st.fence else {
            return false;
        };
        let b = self.b;
        let (p, found) = self.strip_blockquotes(ls, le, fence.blockquotes);
        let q = skip_ws(b, p, le);
        if found < fence.blockquotes || fence.min_indent.is_some_and(|m| q < le && indent(b, p, q) < m) {
            self.st.fence = None;
            return false;
        }
        if closing_fence(b, p, le, fence.ch, fence.len) {
            self.st.fence = None;
            self.verbatim(le, next);
        } else {
            self.verbatim(p, next);
        }
        true
    }

    /// Reads the container markers of a line: `>`, list bullets and ordered
    /// markers.
    fn markers(&self, ls: usize, le: usize, after_def: Option<(ListCtx, usize)>) -> Markers {
        let b = self.b;
        let mut p = ls;
        let mut m = Markers {
            after_blockquotes: ls,
            content: ls,
            blockquotes: 0,
            list_item: false,
            new_items: Vec::new(),
            quote_indents: Vec::new(),
        };
        // Each marker test may scan the rest of the line: at most 32 list
        // markers per line keep that linear (deeper nesting is content).
        let mut list_markers = 0;
        loop {
            let q = skip_ws(b, p, le);
            if q >= le {
                break;
            }
            let Some(&c) = b.get(q) else {
                break;
            };
            if c == b'>' {
                m.quote_indents.push(indent(b, p, q));
                m.blockquotes += 1;
                p = q + 1;
                if p < le && b.get(p).is_some_and(|&c| is_space_tab(c)) {
                    p += 1;
                }
                m.content = p;
                m.after_blockquotes = p;
                continue;
            }
            if list_markers < 32 && matches!(c, b'-' | b'*' | b'+' | b'0'..=b'9') {
                list_markers += 1;
                // The paragraph this line would continue, if any (a new
                // blockquote or list item starts a new one).
                // Interruption rules apply only to a line continuing all the
                // paragraph's containers (not to a lazy one, nor after a marker).
                let (list_item, blockquotes) = (m.list_item, m.blockquotes);
                let open = self.st.para.filter(|para| !list_item && blockquotes == para.blockquotes);
                let line_indent = indent(b, m.after_blockquotes, q);
                let setext = open.is_some_and(|para| !para.ctx.lazy_outside(line_indent))
                    && setext_underline(b, q, le).is_some();
                if setext || thematic_break(b, q, le) {
                    break;
                }
                let interrupts = match (open, after_def) {
                    (Some(para), _) => !para.ctx.lazy_outside(line_indent),
                    (None, Some((ctx, depth))) => !list_item && depth == blockquotes && !ctx.lazy_outside(line_indent),
                    (None, None) => false,
                };
                if let Some((after, col)) = self.list_marker(q, le, interrupts) {
                    m.list_item = true;
                    m.new_items.push(Item { col: col - m.after_blockquotes, blockquotes, empty: after >= le });
                    p = after;
                    m.content = after;
                    continue;
                }
            }
            break;
        }
        m
    }

    /// Ends the paragraph a new container ends, and settles which open list
    /// items the line is inside of (opening the line's own).
    fn open_items(
        &mut self,
        m: Markers,
        ls: usize,
        le: usize,
        next: usize,
        after_def: Option<(ListCtx, usize)>,
    ) -> Line {
        let b = self.b;
        let (blockquotes, list_item, content) = (m.blockquotes, m.list_item, m.content);
        if list_item || self.st.para.is_some_and(|para| blockquotes > para.blockquotes) {
            self.flush_para();
        }
        let q = skip_ws(b, content, le);
        let small_indent = indent(b, content, q) <= 3;

        // The open list items this line is inside of (a lazy paragraph line
        // keeps the others open; any other line closes them).
        let base_indent = indent(b, m.after_blockquotes, skip_ws(b, m.after_blockquotes, le));
        let inside = self
            .st
            .items
            .iter()
            .take_while(|it| match m.quote_indents.get(it.blockquotes) {
                Some(&w) => w >= it.col,
                None => it.blockquotes == blockquotes && base_indent >= it.col,
            })
            .count();
        if q < le {
            // Only items opened on the line before can be empty: a suffix.
            for it in self.st.items.iter_mut().rev().take_while(|it| it.empty) {
                it.empty = false;
            }
        } else if !list_item {
            // A list item can begin with at most one blank line.
            while self.st.items.last().is_some_and(|it| it.empty) {
                self.st.items.pop();
            }
        }
        if list_item {
            self.st.items.truncate(inside);
            self.st.items.extend(m.new_items);
        }
        // The context of a paragraph (or definition) starting on this line.
        let new_ctx = match (after_def, self.st.items.get(..inside).and_then(|its| its.last())) {
            _ if list_item => ListCtx { in_list: true, col: self.st.items.last().map(|it| it.col) },
            (Some((ctx, _)), _) => ctx,
            (None, Some(it)) => ListCtx { in_list: true, col: Some(it.col) },
            (None, None) => ListCtx::default(),
        };
        let after_blockquotes = m.after_blockquotes;
        Line {
            ls,
            le,
            next,
            after_blockquotes,
            content,
            blockquotes,
            list_item,
            q,
            small_indent,
            inside,
            new_ctx,
            after_def,
        }
    }

    /// Closes the open list items a line that opens none is not inside of.
    pub(super) fn close_items(&mut self, l: &Line) {
        if !l.list_item {
            self.st.items.truncate(l.inside);
        }
    }
}
