//! Leaf blocks: what a line's content starts or continues once its
//! container markers are read (blank line, code fence, HTML comment, ATX and
//! setext headings, thematic break, table rows, link reference definitions,
//! paragraph text).

use super::blocks::{Blocks, Fence, Line, Para, PendingHeading, Table};
use super::scanners::{
    atx_heading, delimiter_row_cells, fence_open, indent, link_definition, row_cells, setext_underline, skip_ws,
    thematic_break,
};
use super::Cand;
use crate::extract::scan::{find_byte, find_seq};

impl Blocks<'_> {
    /// The leaf block a line's content starts or continues.
    pub(super) fn leaf(&mut self, l: &Line) -> (usize, bool) {
        if let Some(r) = self.blank_fence_or_delimiter_row(l) {
            return r;
        }
        if let Some(r) = self.comment_block(l) {
            return r;
        }
        if let Some(r) = self.heading_or_break(l) {
            return r;
        }
        if let Some(r) = self.table_row(l) {
            return r;
        }
        if let Some(r) = self.definition(l) {
            return r;
        }
        self.paragraph_text(l)
    }

    /// A blank line, an opening code fence, or the delimiter row of a table
    /// whose header row was the line before.
    fn blank_fence_or_delimiter_row(&mut self, l: &Line) -> Option<(usize, bool)> {
        let (b, q, le, next) = (self.b, l.q, l.le, l.next);
        if q >= le {
            // Blank line.
            self.st.table = Table::No;
            self.verbatim(l.content, next);
            return Some((next, true));
        }
        if let Some((ch, len)) = fence_open(b, q, le) {
            self.st.table = Table::No;
            self.close_items(l);
            let min_indent = match l.new_ctx.col {
                Some(col) if l.new_ctx.in_list && (l.list_item || l.inside > 0) => Some(col),
                _ => Some(indent(b, l.after_blockquotes, q)).filter(|&w| w >= 4),
            };
            self.st.fence = Some(Fence { ch, len, blockquotes: l.blockquotes, min_indent });
            self.verbatim(le, next);
            return Some((next, true));
        }
        if self.st.table == Table::Header {
            if self.src.get(l.content..le).and_then(delimiter_row_cells).is_some() {
                self.st.table = Table::Body;
                self.verbatim(le, next);
                return Some((next, true));
            }
            self.st.table = Table::No;
        }
        None
    }

    /// An HTML comment starting the line: it goes (across lines, up to its
    /// end), and parsing goes on after it, mid-line.
    fn comment_block(&mut self, l: &Line) -> Option<(usize, bool)> {
        let (b, q) = (self.b, l.q);
        if !l.small_indent || !b.get(q..l.le).is_some_and(|t| t.starts_with(b"<!--")) {
            return None;
        }
        let end = if b.get(q + 4) == Some(&b'>') {
            Some(q + 5)
        } else if b.get(q + 4..).is_some_and(|t| t.starts_with(b"->")) {
            Some(q + 6)
        } else {
            find_seq(b, q + 4, b"-->").map(|k| k + 3)
        }?;
        self.st.table = Table::No;
        self.close_items(l);
        self.flush_para();
        Some((end, false))
    }

    /// An ATX heading, a setext underline ending the open paragraph, or a
    /// thematic break.
    fn heading_or_break(&mut self, l: &Line) -> Option<(usize, bool)> {
        let (b, q, le, next) = (self.b, l.q, l.le, l.next);
        if !l.small_indent {
            return None;
        }
        if let Some((level, cs, ce)) = atx_heading(b, q, le) {
            self.st.table = Table::No;
            self.close_items(l);
            self.flush_para();
            let s0 = self.st.segs.len();
            self.inline_seg(cs, ce);
            let s1 = self.st.segs.len();
            self.verbatim(le, next);
            self.st.headings.push(PendingHeading { level, start: l.ls, end: le, seg_from: s0, seg_to: s1 });
            return Some((next, true));
        }
        if let Some(para) = self.st.para {
            let line_indent = indent(b, l.after_blockquotes, q);
            if !para.ctx.lazy_outside(line_indent) && !l.list_item && para.blockquotes == l.blockquotes {
                if let Some(level) = setext_underline(b, q, le) {
                    self.st.para = None;
                    let s0 = self.st.segs.len();
                    self.add_seg(para.from, self.st.cands.len(), true);
                    let s1 = self.st.segs.len();
                    self.verbatim(le, next);
                    self.st.headings.push(PendingHeading {
                        level,
                        start: para.start,
                        end: le,
                        seg_from: s0,
                        seg_to: s1,
                    });
                    return Some((next, true));
                }
            }
        }
        if thematic_break(b, q, le) {
            self.st.table = Table::No;
            self.close_items(l);
            self.verbatim(le, next);
            return Some((next, true));
        }
        None
    }

    /// A table row: of the table being read, or the header row of a table
    /// whose delimiter row is the next line.
    fn table_row(&mut self, l: &Line) -> Option<(usize, bool)> {
        let (b, q, le, next) = (self.b, l.q, l.le, l.next);
        if l.list_item {
            self.st.table = Table::No;
        }
        if self.st.table == Table::Body {
            self.row(l.content, le, next);
            return Some((next, true));
        }
        let line = b.get(q..le).unwrap_or_default();
        if line.contains(&b'|') {
            if let Some(cells) = self.next_line_delimiter_cells(next) {
                if row_cells(line) == cells {
                    self.st.table = Table::Header;
                    self.close_items(l);
                    self.row(l.content, le, next);
                    return Some((next, true));
                }
            }
        }
        None
    }

    /// A link reference definition (not inside a paragraph): its label is
    /// remembered, its line goes.
    fn definition(&mut self, l: &Line) -> Option<(usize, bool)> {
        if self.st.para.is_some() || !l.small_indent {
            return None;
        }
        let label = link_definition(self.src, l.q, l.le)?;
        let depth = l.after_def.map_or(0, |(_, depth)| depth);
        if l.after_def.is_none() {
            self.close_items(l);
        }
        self.st.after_def = Some((l.new_ctx, l.blockquotes.max(depth)));
        self.st.defs.insert(label);
        self.verbatim(l.le, l.next);
        Some((l.next, true))
    }

    /// Paragraph text: starts a paragraph or continues the open one.
    fn paragraph_text(&mut self, l: &Line) -> (usize, bool) {
        if l.list_item {
            self.flush_para();
        }
        if self.st.para.is_none() {
            // After a definition this continues CommonMark's paragraph (lazily).
            let def_depth = l.after_def.map_or(0, |(_, depth)| depth);
            if l.after_def.is_none() {
                self.close_items(l);
            }
            self.st.para = Some(Para {
                from: self.st.cands.len(),
                start: l.ls,
                blockquotes: l.blockquotes.max(def_depth),
                ctx: l.new_ctx,
            });
        }
        self.push_range(l.content, l.next);
        (l.next, true)
    }

    /// What follows an HTML comment block on its last line: its own segment.
    pub(super) fn rest_of_line(&mut self, pos: usize, le: usize, next: usize) {
        if pos < le {
            self.inline_seg(pos, le);
        }
        self.verbatim(le.max(pos), next);
    }

    /// The cell count of the next line if it is a table delimiter row.
    pub(super) fn next_line_delimiter_cells(&self, next: usize) -> Option<usize> {
        let b = self.b;
        let n = b.len();
        if next >= n {
            return None;
        }
        let mut ne = find_byte(b, next, b'\n').unwrap_or(n);
        if ne > next && b.get(ne - 1) == Some(&b'\r') {
            ne -= 1;
        }
        let mut r = next;
        loop {
            r = skip_ws(b, r, ne);
            if r < ne && b.get(r) == Some(&b'>') {
                r += 1;
                continue;
            }
            break;
        }
        self.src.get(r..ne).and_then(delimiter_row_cells)
    }

    /// A table row: each cell inline-parsed on its own, each unescaped pipe a space.
    pub(super) fn row(&mut self, content: usize, le: usize, next: usize) {
        self.flush_para();
        let b = self.b;
        let mut cell = content;
        let mut j = content;
        while let Some(&c) = b.get(j).filter(|_| j < le) {
            if c == b'\\' && j + 1 < le && b.get(j + 1) == Some(&b'|') {
                j += 2;
                continue;
            }
            if c == b'|' {
                self.inline_seg(cell, j);
                let c0 = self.st.cands.len();
                self.st.cands.push(Cand { ch: ' ', start: j as u32, end: j as u32 + 1 });
                self.add_seg(c0, c0 + 1, false);
                cell = j + 1;
            }
            j += 1;
        }
        self.inline_seg(cell, le);
        self.verbatim(le, next);
    }
}
