//! Markdown text extraction: the text a reader of rendered markdown sees (and
//! an LLM quotes), as [`Unit`]s that point back into the markdown source, plus
//! the document's ATX and setext headings.
//!
//! Every source char is one unit of the same char, except for markup, which
//! produces no unit:
//!
//! * block markers at the start of a line: `>` blockquote markers, list bullets
//!   (`-`, `*`, `+`) and ordered markers (`1.`, `1)`), each with the one space or
//!   tab after it (indentation before a marker goes too; more spaces after it stay);
//! * ATX headings' `#`s, the spaces after them and an optional closing `#`
//!   sequence; setext underlines (`===`, `---`); thematic breaks (`***`, `---`,
//!   `___`); fence lines of fenced code blocks (``` and ~~~) and link reference
//!   definitions (`[id]: url "title"`): of these lines only the newline stays;
//! * GFM tables: delimiter rows (`|---|:--:|`) keep only their newline; in the
//!   other rows each unescaped `|` becomes a `' '` unit spanning the pipe, and
//!   each cell is parsed for inline markup on its own;
//! * inline markup, CommonMark's algorithm run per paragraph (so markup may
//!   span lines): emphasis runs of `*` and `_` that open or close emphasis
//!   under the flanking rules (with the rule of three), `~~` strikethrough
//!   (cmark-gfm's flanking rules, runs of exactly two); backslashes of
//!   backslash escapes and hard line breaks (the escaped char stays, literal);
//!   code span backticks and one space of padding on each side (the code stays,
//!   verbatim); links `[text](url "title")` and reference links `[text][id]`,
//!   `[text][]`, `[text]` whose `id` is defined in the document: only `text`
//!   stays; images `![alt](url)`: `alt` stays; autolinks `<https://x>` and
//!   `<a@b.c>`: the angle brackets go; raw inline HTML tags go, except that the
//!   tags of block elements (`<br>`, `<p>`, `<div>`, `<li>`, …) become one
//!   `'\n'` unit spanning the tag; HTML comments go (also comments spanning
//!   lines or blank lines; an unterminated `<!--` stays literal text);
//! * entity and numeric character references (`&amp;`, `&#8220;`) become one
//!   unit spanning the reference (CommonMark: the `;` is required; names are
//!   those of [`super::html`]'s table);
//! * text that raw HTML hides in the rendered page is not visible text (see
//!   [`super::hidden`]): the raw HTML tags met by inline parsing are followed
//!   across paragraphs, blank lines and other blocks (a `<div hidden>` hides
//!   everything up to its `</div>`, headings, lists and code blocks in it
//!   included; a heading left with no visible text is no heading), and after
//!   a raw `<script>`, `<style>`, `<iframe>`, `<noembed>` or `<noframes>`
//!   tag everything is hidden up to its end tag (its raw text may span blank
//!   lines, as in a CommonMark HTML block). Hidden units go to
//!   [`Extracted::hidden`] (or, with [`extract_markdown_parts`]`(src, true,
//!   …)`, to the text as if visible). Tags inside code spans and code blocks
//!   are code, not HTML, and hide nothing.
//!
//! Fenced code block content is kept verbatim (no inline processing, no
//! headings). Blocks follow CommonMark closely enough for real documents:
//! paragraphs with lazy continuation lines, list items with their content
//! column (which decides whether a line is inside an item, and so whether it
//! may interrupt a paragraph or close a fence in the item), the rules for what
//! may interrupt a paragraph (an ordered list only from `1.`, no empty item,
//! no link reference definition), setext headings only in the paragraph's own
//! containers. Fences are recognised at any indentation. Headings, thematic
//! breaks and setext underlines need at most 3 spaces of indentation.
//!
//! Not implemented: indented code blocks (their text is treated as paragraph
//! text, so markup inside them is still stripped), HTML blocks other than
//! comments (their tags go as inline HTML does, their text stays), multi-line
//! link reference definitions, footnotes (kept as text); a GFM table may
//! interrupt a paragraph (as in cmark-gfm).
//!
//! A heading's byte range is its whole line without the line ending (ATX), or
//! from the start of its first text line to the end of its underline (setext).
//!
//! Linear time (scans for inline links, autolinks and raw HTML tags are capped
//! at 1,024 chars, at most 32 list markers count per line), never panics.
//! Offsets are `u32`: input beyond 4 GiB is ignored.

use super::hidden::{self, Hidden, HiddenReason, TagHiding, Tracker};
use super::html::decode_char_ref;
use super::units::{Extracted, Heading, Unit};
use std::collections::{HashMap, HashSet};

/// Extracts the visible text of a markdown source as units, its headings,
/// and apart from them its hidden text.
pub fn extract_markdown(src: &str) -> Extracted {
    let mut units = Vec::with_capacity(src.len());
    let (headings, hidden) = extract_markdown_parts(src, false, |u| units.extend_from_slice(u));
    Extracted { units, headings, hidden }
}

/// [`extract_markdown`] handing the visible units to `sink` a block at a
/// time, in order, instead of collecting them (the units of a whole document
/// take 12 bytes per char): returns the headings.
pub fn extract_markdown_with(src: &str, sink: impl FnMut(&[Unit])) -> Vec<Heading> {
    extract_markdown_parts(src, false, sink).0
}

/// [`extract_markdown_with`] that also returns the hidden text; with
/// `include_hidden` the hidden text goes to `sink` as if visible (and the
/// returned [`Hidden`] is empty).
pub fn extract_markdown_parts(src: &str, include_hidden: bool, sink: impl FnMut(&[Unit])) -> (Vec<Heading>, Hidden) {
    let src = addressable(src);
    let mut blocks = Blocks {
        src,
        b: src.as_bytes(),
        cands: Vec::with_capacity(src.len()),
        segs: Vec::new(),
        headings: Vec::new(),
        defs: HashSet::new(),
        para: None,
        fence: None,
        table: Table::No,
        after_def: None,
        items: Vec::new(),
    };
    blocks.run();
    blocks.finish(include_hidden, sink)
}

/// Longest scan for an inline link's tail, an autolink or a raw HTML tag.
const MAX_SCAN: usize = 1024;

/// The longest prefix of `src` whose offsets fit in a `u32`.
fn addressable(src: &str) -> &str {
    if u32::try_from(src.len()).is_ok() {
        return src;
    }
    let mut end = u32::MAX as usize;
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    src.get(..end).unwrap_or("")
}

/// The plain-text title of a heading: whitespace collapsed, trimmed.
fn title_of(units: &[Unit]) -> String {
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

/// A source char that survived block parsing: a unit to be, unless inline
/// parsing drops it. Its `ch` may differ from the source (table pipes).
#[derive(Debug, Clone, Copy)]
struct Cand {
    ch: char,
    start: u32,
    end: u32,
}

impl Cand {
    fn unit(self) -> Unit {
        Unit { ch: self.ch, start: self.start, end: self.end }
    }
}

/// A run of candidates: verbatim, or to be parsed for inline markup.
#[derive(Debug, Clone, Copy)]
struct Seg {
    from: usize,
    to: usize,
    inline: bool,
}

/// A heading whose title is known once its segments are inline-parsed.
struct PendingHeading {
    level: u8,
    start: usize,
    end: usize,
    seg_from: usize,
    seg_to: usize,
}

/// An open fenced code block.
#[derive(Clone, Copy)]
struct Fence {
    ch: u8,
    len: usize,
    blockquotes: usize,
    /// For a fence in a list item: content lines indented less (and not
    /// blank) end the item, and so the fence.
    min_indent: Option<usize>,
}

/// An open paragraph: its candidates start at `from` in the arena.
#[derive(Clone, Copy)]
struct Para {
    from: usize,
    start: usize,
    blockquotes: usize,
    /// Container context, for CommonMark's interruption rules.
    ctx: ListCtx,
}

/// Whether a paragraph is in a list item, and the item's content column
/// (counted from the end of the blockquote markers) when known.
#[derive(Debug, Clone, Copy, Default)]
struct ListCtx {
    in_list: bool,
    col: Option<usize>,
}

impl ListCtx {
    /// Whether a line indented by `indent` is a lazy line outside the item:
    /// such a line may start a list whatever the paragraph before it.
    fn lazy_outside(self, indent: usize) -> bool {
        match self.col {
            Some(col) => self.in_list && indent < col,
            None => self.in_list,
        }
    }
}

/// An open list item: its content column (from the end of the blockquote
/// markers) and the blockquote depth it is in.
#[derive(Debug, Clone, Copy)]
struct Item {
    col: usize,
    blockquotes: usize,
    /// No content yet: a blank line now ends the item.
    empty: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    No,
    /// The previous line was a header row; this one is the delimiter row.
    Header,
    Body,
}

struct Blocks<'a> {
    src: &'a str,
    b: &'a [u8],
    cands: Vec<Cand>,
    segs: Vec<Seg>,
    headings: Vec<PendingHeading>,
    defs: HashSet<String>,
    para: Option<Para>,
    fence: Option<Fence>,
    table: Table,
    /// The previous line was a link reference definition (`Some((in a list
    /// item, blockquote depth))`): for CommonMark it is still a paragraph, which
    /// the next line may continue and list items may not interrupt.
    after_def: Option<(ListCtx, usize)>,
    /// The list items that may contain the next line, outermost first.
    items: Vec<Item>,
}

fn is_space_tab(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn skip_ws(b: &[u8], mut p: usize, le: usize) -> usize {
    while p < le && is_space_tab(b[p]) {
        p += 1;
    }
    p
}

/// Indentation width of `[from, to)` (spaces and tabs), tabs counting as 4.
fn indent(b: &[u8], from: usize, to: usize) -> usize {
    b[from..to].iter().map(|&c| if c == b'\t' { 4 } else { 1 }).sum()
}

fn find_byte(b: &[u8], from: usize, c: u8) -> Option<usize> {
    b.get(from..)?.iter().position(|&x| x == c).map(|k| from + k)
}

fn find_seq(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?.windows(pat.len()).position(|w| w == pat).map(|k| from + k)
}

/// `***`, `---`, `___` (3 or more, spaces allowed between) and nothing else.
fn thematic_break(b: &[u8], q: usize, le: usize) -> bool {
    let c = b[q];
    if !matches!(c, b'-' | b'*' | b'_') {
        return false;
    }
    let mut count = 0;
    for &x in &b[q..le] {
        if x == c {
            count += 1;
        } else if !is_space_tab(x) {
            return false;
        }
    }
    count >= 3
}

/// `===` (level 1) or `---` (level 2), trailing spaces allowed.
fn setext_underline(b: &[u8], q: usize, le: usize) -> Option<u8> {
    let c = b[q];
    if c != b'=' && c != b'-' {
        return None;
    }
    let mut r = q;
    while r < le && b[r] == c {
        r += 1;
    }
    if skip_ws(b, r, le) != le {
        return None;
    }
    Some(if c == b'=' { 1 } else { 2 })
}

/// An opening code fence at `q`: its char and length.
fn fence_open(b: &[u8], q: usize, le: usize) -> Option<(u8, usize)> {
    let c = b[q];
    if c != b'`' && c != b'~' {
        return None;
    }
    let mut r = q;
    while r < le && b[r] == c {
        r += 1;
    }
    if r - q < 3 || (c == b'`' && b[r..le].contains(&b'`')) {
        return None;
    }
    Some((c, r - q))
}

fn closing_fence(b: &[u8], p: usize, le: usize, fence: Fence) -> bool {
    let q = skip_ws(b, p, le);
    let mut r = q;
    while r < le && b[r] == fence.ch {
        r += 1;
    }
    r - q >= fence.len && skip_ws(b, r, le) == le
}

/// An ATX heading at `q`: level, and the byte range of its content.
fn atx_heading(b: &[u8], q: usize, le: usize) -> Option<(u8, usize, usize)> {
    let mut r = q;
    while r < le && b[r] == b'#' {
        r += 1;
    }
    let level = r - q;
    if level == 0 || level > 6 || (r < le && !is_space_tab(b[r])) {
        return None;
    }
    let cs = skip_ws(b, r, le);
    let mut ce = le;
    while ce > cs && is_space_tab(b[ce - 1]) {
        ce -= 1;
    }
    let mut h = ce;
    while h > cs && b[h - 1] == b'#' {
        h -= 1;
    }
    if h < ce && (h == cs || is_space_tab(b[h - 1])) {
        ce = h;
        while ce > cs && is_space_tab(b[ce - 1]) {
            ce -= 1;
        }
    }
    Some((level as u8, cs, ce))
}

/// The number of cells of a table delimiter row (`| --- | :-: |`), if it is one.
/// It must contain a pipe (a bare `---` is a setext underline or a break).
fn delimiter_row_cells(line: &str) -> Option<usize> {
    let t = line.trim();
    if !t.contains('|') {
        return None;
    }
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut cells = 0;
    for cell in t.split('|') {
        let c = cell.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        if c.is_empty() || !c.bytes().all(|x| x == b'-') {
            return None;
        }
        cells += 1;
    }
    Some(cells)
}

/// The number of cells of a table row (split at unescaped pipes).
fn row_cells(line: &[u8]) -> usize {
    let mut t = line;
    while let [first, rest @ ..] = t {
        if !is_space_tab(*first) {
            break;
        }
        t = rest;
    }
    while let [rest @ .., last] = t {
        if !is_space_tab(*last) {
            break;
        }
        t = rest;
    }
    if let [b'|', rest @ ..] = t {
        t = rest;
    }
    if let [rest @ .., b'|'] = t {
        if !rest.ends_with(b"\\") {
            t = rest;
        }
    }
    let mut cells = 1;
    let mut j = 0;
    while j < t.len() {
        if t[j] == b'\\' {
            j += 2;
            continue;
        }
        if t[j] == b'|' {
            cells += 1;
        }
        j += 1;
    }
    cells
}

/// A link label normalized for matching: whitespace collapsed, lowercase.
fn normalize_label(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A one-line link reference definition at `q`: its normalized label.
fn link_definition(src: &str, q: usize, le: usize) -> Option<String> {
    let b = src.as_bytes();
    if b[q] != b'[' {
        return None;
    }
    let label_start = q + 1;
    let mut j = label_start;
    while j < le && b[j] != b']' {
        match b[j] {
            b'\\' => j += 2,
            b'[' => return None,
            _ => j += 1,
        }
        if j - label_start > 999 {
            return None;
        }
    }
    if j >= le {
        return None;
    }
    let label = src.get(label_start..j)?;
    if label.trim().is_empty() || label.starts_with('^') {
        return None;
    }
    j += 1;
    if j >= le || b[j] != b':' {
        return None;
    }
    j = skip_ws(b, j + 1, le);
    if j >= le {
        return None;
    }
    if b[j] == b'<' {
        j += 1;
        while j < le && b[j] != b'>' {
            if b[j] == b'<' {
                return None;
            }
            j += 1;
        }
        if j >= le {
            return None;
        }
        j += 1;
    } else {
        while j < le && !is_space_tab(b[j]) {
            j += 1;
        }
    }
    let k = skip_ws(b, j, le);
    if k < le {
        let close = match b[k] {
            b'"' => b'"',
            b'\'' => b'\'',
            b'(' => b')',
            _ => return None,
        };
        if k == j {
            return None;
        }
        let mut t = k + 1;
        while t < le && b[t] != close {
            t += if b[t] == b'\\' { 2 } else { 1 };
        }
        if t >= le || skip_ws(b, t + 1, le) != le {
            return None;
        }
    }
    Some(normalize_label(label))
}

impl Blocks<'_> {
    fn run(&mut self) {
        let b = self.b;
        let n = b.len();
        let mut pos = 0;
        let mut at_line_start = true;
        while pos < n {
            let (le, next) = match find_byte(b, pos, b'\n') {
                Some(k) if k > pos && b[k - 1] == b'\r' => (k - 1, k + 1),
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
        self.flush_para();
    }

    /// Hands the visible units to `sink` segment by segment, keeping only
    /// the units of heading segments (for their titles), and returns the
    /// headings and the hidden text. Raw HTML tags are followed across
    /// segments (a `<div hidden>` hides the paragraphs up to its `</div>`).
    fn finish(mut self, include_hidden: bool, mut sink: impl FnMut(&[Unit])) -> (Vec<Heading>, Hidden) {
        self.flush_para();
        let mut units = Vec::new();
        let mut visible = Vec::new();
        let mut events: Vec<TagEvent> = Vec::new();
        let mut seen = HiddenState::default();
        let mut titles: Vec<(Vec<Unit>, bool)> = vec![(Vec::new(), false); self.headings.len()];
        // headings are pushed in order of their first segment
        debug_assert!(self.headings.windows(2).all(|w| w[0].seg_from <= w[1].seg_from));
        let mut first_open = 0;
        for (i, seg) in self.segs.iter().enumerate() {
            units.clear();
            events.clear();
            let cands = &self.cands[seg.from..seg.to];
            // a block starts (a paragraph, heading, table cell, code block,
            // blank line): the block element markdown renders, or the end of
            // the paragraph, closes a raw `<p>` left open before it
            seen.close_p();
            if seg.inline {
                inline(cands, self.src, &self.defs, &mut units, &mut events);
            } else {
                units.extend(cands.iter().map(|c| c.unit()));
            }
            let hidden_before = seen.hidden.units.len();
            // nothing hidden and no tag to follow: the units as they are
            let routed = include_hidden || (events.is_empty() && seen.reason().is_none());
            if !routed {
                visible.clear();
                let mut next_event = events.iter().peekable();
                for (k, u) in units.iter().enumerate() {
                    while let Some(e) = next_event.next_if(|e| e.at <= k) {
                        seen.apply(e);
                    }
                    match seen.reason() {
                        Some((reason, episode)) => seen.hidden.push(*u, reason, episode),
                        None => visible.push(*u),
                    }
                }
                for e in next_event {
                    seen.apply(e);
                }
            } else {
                // with include_hidden the tags are still followed (for headings)
                for e in &events {
                    seen.apply(e);
                }
            }
            let visible: &[Unit] = if routed { &units } else { &visible };
            let any_hidden = seen.hidden.units.len() > hidden_before;
            while self.headings.get(first_open).is_some_and(|h| h.seg_to <= i) {
                first_open += 1;
            }
            for (h, title) in self.headings.iter().zip(titles.iter_mut()).skip(first_open) {
                if h.seg_from > i {
                    break;
                }
                if i < h.seg_to {
                    title.0.extend_from_slice(visible);
                    title.1 |= any_hidden;
                }
            }
            sink(visible);
        }
        let headings = self
            .headings
            .iter()
            .zip(titles)
            // a heading whose text is all hidden is no heading
            .filter(|(_, (title, any_hidden))| !(*any_hidden && title.iter().all(|u| u.ch.is_whitespace())))
            .map(|(h, (title, _))| Heading {
                level: h.level,
                title: title_of(&title),
                start: h.start as u32,
                end: h.end as u32,
            })
            .collect();
        (headings, seen.hidden)
    }

    /// Appends the chars of `src[from..to]` to the candidate arena.
    fn push_range(&mut self, from: usize, to: usize) {
        if let Some(s) = self.src.get(from..to) {
            let mut at = from;
            for ch in s.chars() {
                let end = at + ch.len_utf8();
                self.cands.push(Cand { ch, start: at as u32, end: end as u32 });
                at = end;
            }
        }
    }

    fn add_seg(&mut self, from: usize, to: usize, inline: bool) {
        if from >= to {
            return;
        }
        if let Some(last) = self.segs.last_mut() {
            if !inline && !last.inline && last.to == from {
                last.to = to;
                return;
            }
        }
        self.segs.push(Seg { from, to, inline });
    }

    fn flush_para(&mut self) {
        if let Some(p) = self.para.take() {
            self.add_seg(p.from, self.cands.len(), true);
        }
    }

    /// Emits `src[from..to]` verbatim (ends any open paragraph first).
    fn verbatim(&mut self, from: usize, to: usize) {
        self.flush_para();
        let c0 = self.cands.len();
        self.push_range(from, to);
        self.add_seg(c0, self.cands.len(), false);
    }

    /// Emits `src[from..to]` as its own inline-parsed segment.
    fn inline_seg(&mut self, from: usize, to: usize) {
        self.flush_para();
        let c0 = self.cands.len();
        self.push_range(from, to);
        self.add_seg(c0, self.cands.len(), true);
    }

    /// Skips up to `depth` blockquote markers (and the space after each):
    /// returns the offset after them and how many there were.
    fn strip_blockquotes(&self, ls: usize, le: usize, depth: usize) -> (usize, usize) {
        let b = self.b;
        let mut p = ls;
        for found in 0..depth {
            let q = skip_ws(b, p, le);
            if q >= le || b[q] != b'>' {
                return (p, found);
            }
            p = q + 1;
            if p < le && is_space_tab(b[p]) {
                p += 1;
            }
        }
        (p, depth)
    }

    /// A list marker at `q`: the offset after it and the one space after it,
    /// and the offset of the item's content column (CommonMark's rules).
    fn list_marker(&self, q: usize, le: usize, interrupts_para: bool) -> Option<(usize, usize)> {
        let b = self.b;
        let (after, number) = match b[q] {
            b'-' | b'*' | b'+' => (q + 1, None),
            _ => {
                let mut d = q;
                while d < le && d - q < 10 && b[d].is_ascii_digit() {
                    d += 1;
                }
                if d == q || d - q > 9 || d >= le || (b[d] != b'.' && b[d] != b')') {
                    return None;
                }
                let number = std::str::from_utf8(&b[q..d]).ok()?.parse::<u32>().ok()?;
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
    fn line(&mut self, ls: usize, le: usize, next: usize) -> (usize, bool) {
        let b = self.b;
        let after_def = self.after_def.take();
        if let Some(fence) = self.fence {
            let (p, found) = self.strip_blockquotes(ls, le, fence.blockquotes);
            let q = skip_ws(b, p, le);
            if found < fence.blockquotes || fence.min_indent.is_some_and(|m| q < le && indent(b, p, q) < m) {
                // The blockquote or list item holding the fence ends here; so
                // does the fence.
                self.fence = None;
            } else {
                if closing_fence(b, p, le, fence) {
                    self.fence = None;
                    self.verbatim(le, next);
                } else {
                    self.verbatim(p, next);
                }
                return (next, true);
            }
        }

        // Container markers: `>`, list bullets and ordered markers.
        let mut p = ls;
        let mut after_blockquotes = ls;
        let mut content = ls;
        let mut blockquotes = 0;
        let mut list_item = false;
        // Each marker test may scan the rest of the line: at most 32 list
        // markers per line keep that linear (deeper nesting is content).
        let mut list_markers = 0;
        let mut new_items: Vec<Item> = Vec::new();
        // Indentation before each `>` marker (for list items holding blockquotes).
        let mut quote_indents: Vec<usize> = Vec::new();
        loop {
            let q = skip_ws(b, p, le);
            if q >= le {
                break;
            }
            if b[q] == b'>' {
                quote_indents.push(indent(b, p, q));
                blockquotes += 1;
                p = q + 1;
                if p < le && is_space_tab(b[p]) {
                    p += 1;
                }
                content = p;
                after_blockquotes = p;
                continue;
            }
            if list_markers < 32 && matches!(b[q], b'-' | b'*' | b'+' | b'0'..=b'9') {
                list_markers += 1;
                // The paragraph this line would continue, if any (a new
                // blockquote or list item starts a new one).
                // Interruption rules apply only to a line continuing all the
                // paragraph's containers (not to a lazy one, nor after a marker).
                let open = self.para.filter(|para| !list_item && blockquotes == para.blockquotes);
                let line_indent = indent(b, after_blockquotes, q);
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
                    list_item = true;
                    new_items.push(Item { col: col - after_blockquotes, blockquotes, empty: after >= le });
                    p = after;
                    content = after;
                    continue;
                }
            }
            break;
        }
        if list_item || self.para.is_some_and(|para| blockquotes > para.blockquotes) {
            self.flush_para();
        }
        let q = skip_ws(b, content, le);
        let small_indent = indent(b, content, q) <= 3;

        // The open list items this line is inside of (a lazy paragraph line
        // keeps the others open; any other line closes them).
        let base_indent = indent(b, after_blockquotes, skip_ws(b, after_blockquotes, le));
        let inside = self
            .items
            .iter()
            .take_while(|it| match quote_indents.get(it.blockquotes) {
                Some(&w) => w >= it.col,
                None => it.blockquotes == blockquotes && base_indent >= it.col,
            })
            .count();
        if q < le {
            // Only items opened on the line before can be empty: a suffix.
            for it in self.items.iter_mut().rev().take_while(|it| it.empty) {
                it.empty = false;
            }
        } else if !list_item {
            // A list item can begin with at most one blank line.
            while self.items.last().is_some_and(|it| it.empty) {
                self.items.pop();
            }
        }
        if list_item {
            self.items.truncate(inside);
            self.items.extend(new_items);
        }
        // The context of a paragraph (or definition) starting on this line.
        let new_ctx = match (after_def, self.items.get(..inside).and_then(|its| its.last())) {
            _ if list_item => ListCtx { in_list: true, col: self.items.last().map(|it| it.col) },
            (Some((ctx, _)), _) => ctx,
            (None, Some(it)) => ListCtx { in_list: true, col: Some(it.col) },
            (None, None) => ListCtx::default(),
        };
        let close_items = |blocks: &mut Self| {
            if !list_item {
                blocks.items.truncate(inside);
            }
        };

        if q >= le {
            // Blank line.
            self.table = Table::No;
            self.verbatim(content, next);
            return (next, true);
        }
        if let Some((ch, len)) = fence_open(b, q, le) {
            self.table = Table::No;
            close_items(self);
            let min_indent = match new_ctx.col {
                Some(col) if new_ctx.in_list && (list_item || inside > 0) => Some(col),
                _ => Some(indent(b, after_blockquotes, q)).filter(|&w| w >= 4),
            };
            self.fence = Some(Fence { ch, len, blockquotes, min_indent });
            self.verbatim(le, next);
            return (next, true);
        }
        if self.table == Table::Header {
            if self.src.get(content..le).and_then(delimiter_row_cells).is_some() {
                self.table = Table::Body;
                self.verbatim(le, next);
                return (next, true);
            }
            self.table = Table::No;
        }
        if small_indent && b[q..le].starts_with(b"<!--") {
            let end = if b.get(q + 4) == Some(&b'>') {
                Some(q + 5)
            } else if b[q + 4..].starts_with(b"->") {
                Some(q + 6)
            } else {
                find_seq(b, q + 4, b"-->").map(|k| k + 3)
            };
            if let Some(end) = end {
                self.table = Table::No;
                close_items(self);
                self.flush_para();
                return (end, false);
            }
        }
        if small_indent {
            if let Some((level, cs, ce)) = atx_heading(b, q, le) {
                self.table = Table::No;
                close_items(self);
                self.flush_para();
                let s0 = self.segs.len();
                self.inline_seg(cs, ce);
                let s1 = self.segs.len();
                self.verbatim(le, next);
                self.headings.push(PendingHeading { level, start: ls, end: le, seg_from: s0, seg_to: s1 });
                return (next, true);
            }
            if let Some(para) = self.para {
                let line_indent = indent(b, after_blockquotes, q);
                if !para.ctx.lazy_outside(line_indent) && !list_item && para.blockquotes == blockquotes {
                    if let Some(level) = setext_underline(b, q, le) {
                        self.para = None;
                        let s0 = self.segs.len();
                        self.add_seg(para.from, self.cands.len(), true);
                        let s1 = self.segs.len();
                        self.verbatim(le, next);
                        self.headings.push(PendingHeading {
                            level,
                            start: para.start,
                            end: le,
                            seg_from: s0,
                            seg_to: s1,
                        });
                        return (next, true);
                    }
                }
            }
            if thematic_break(b, q, le) {
                self.table = Table::No;
                close_items(self);
                self.verbatim(le, next);
                return (next, true);
            }
        }
        if list_item {
            self.table = Table::No;
        }
        if self.table == Table::Body {
            self.row(content, le, next);
            return (next, true);
        }
        if b[q..le].contains(&b'|') {
            if let Some(cells) = self.next_line_delimiter_cells(next) {
                if row_cells(&b[q..le]) == cells {
                    self.table = Table::Header;
                    close_items(self);
                    self.row(content, le, next);
                    return (next, true);
                }
            }
        }
        if self.para.is_none() && small_indent {
            if let Some(label) = link_definition(self.src, q, le) {
                let depth = after_def.map_or(0, |(_, depth)| depth);
                if after_def.is_none() {
                    close_items(self);
                }
                self.after_def = Some((new_ctx, blockquotes.max(depth)));
                self.defs.insert(label);
                self.verbatim(le, next);
                return (next, true);
            }
        }
        // Paragraph text.
        if list_item {
            self.flush_para();
        }
        if self.para.is_none() {
            // After a definition this continues CommonMark's paragraph (lazily).
            let def_depth = after_def.map_or(0, |(_, depth)| depth);
            if after_def.is_none() {
                close_items(self);
            }
            self.para =
                Some(Para { from: self.cands.len(), start: ls, blockquotes: blockquotes.max(def_depth), ctx: new_ctx });
        }
        self.push_range(content, next);
        (next, true)
    }

    /// What follows an HTML comment block on its last line: its own segment.
    fn rest_of_line(&mut self, pos: usize, le: usize, next: usize) {
        if pos < le {
            self.inline_seg(pos, le);
        }
        self.verbatim(le.max(pos), next);
    }

    /// The cell count of the next line if it is a table delimiter row.
    fn next_line_delimiter_cells(&self, next: usize) -> Option<usize> {
        let b = self.b;
        let n = b.len();
        if next >= n {
            return None;
        }
        let mut ne = find_byte(b, next, b'\n').unwrap_or(n);
        if ne > next && b[ne - 1] == b'\r' {
            ne -= 1;
        }
        let mut r = next;
        loop {
            r = skip_ws(b, r, ne);
            if r < ne && b[r] == b'>' {
                r += 1;
                continue;
            }
            break;
        }
        self.src.get(r..ne).and_then(delimiter_row_cells)
    }

    /// A table row: each cell inline-parsed on its own, each unescaped pipe a space.
    fn row(&mut self, content: usize, le: usize, next: usize) {
        self.flush_para();
        let b = self.b;
        let mut cell = content;
        let mut j = content;
        while j < le {
            if b[j] == b'\\' && j + 1 < le && b[j + 1] == b'|' {
                j += 2;
                continue;
            }
            if b[j] == b'|' {
                self.inline_seg(cell, j);
                let c0 = self.cands.len();
                self.cands.push(Cand { ch: ' ', start: j as u32, end: j as u32 + 1 });
                self.add_seg(c0, c0 + 1, false);
                cell = j + 1;
            }
            j += 1;
        }
        self.inline_seg(cell, le);
        self.verbatim(le, next);
    }
}

// ---------------------------------------------------------------------------
// Inline parsing.

#[derive(Debug, Clone, Copy)]
enum Slot {
    Keep,
    Drop,
    Emit(Unit),
}

/// A delimiter run of `*`, `_` or `~~` that may open or close emphasis. The
/// unused part of the run is `[pos, pos + len)`.
#[derive(Debug, Clone, Copy)]
struct Delim {
    ch: char,
    pos: usize,
    len: usize,
    orig: usize,
    open: bool,
    close: bool,
    prev: Option<usize>,
    next: Option<usize>,
}

/// A `[` or `![` waiting for its `]`.
struct Bracket {
    pos: usize,
    image: bool,
    /// The last delimiter before the bracket.
    bottom: Option<usize>,
    text_start: usize,
}

struct Inline<'c> {
    cs: &'c [Cand],
    slots: Vec<Slot>,
    delims: Vec<Delim>,
    head: Option<usize>,
    tail: Option<usize>,
}

fn is_punct(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    matches!(c as u32,
        0xA1..=0xBF | 0xD7 | 0xF7 | 0x2010..=0x2027 | 0x2030..=0x205E | 0x20A0..=0x20CF
        | 0x2190..=0x23FF | 0x2500..=0x27BF | 0x2E00..=0x2E7F | 0x3000..=0x303F
        | 0xFE30..=0xFE6F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40
        | 0xFF5B..=0xFF65)
}

/// CommonMark's rule of 3: when either run can both open and close, they
/// cannot match if the sum of their lengths is a multiple of 3, unless both are.
fn rule_of_three_forbids(opener: Delim, closer: Delim) -> bool {
    match ((opener.orig + closer.orig) % 3, opener.orig % 3, closer.orig % 3) {
        (0, 0, 0) => false,
        (0, _, _) => opener.close || closer.open,
        _ => false,
    }
}

fn run_len(cs: &[Cand], i: usize, c: char) -> usize {
    cs[i..].iter().take_while(|x| x.ch == c).count()
}

fn skip_ws_nl(cs: &[Cand], mut j: usize, limit: usize) -> usize {
    while j < limit && matches!(cs[j].ch, ' ' | '\t' | '\n' | '\r') {
        j += 1;
    }
    j
}

fn label_text(cs: &[Cand]) -> String {
    normalize_label(&cs.iter().map(|c| c.ch).collect::<String>())
}

/// Closing backtick runs by length, each with a cursor that only moves forward.
struct Backticks {
    runs: HashMap<usize, (Vec<usize>, usize)>,
}

impl Backticks {
    fn new(cs: &[Cand]) -> Backticks {
        let mut runs: HashMap<usize, (Vec<usize>, usize)> = HashMap::new();
        let mut i = 0;
        while i < cs.len() {
            if cs[i].ch == '`' {
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
    fn closer(&mut self, i: usize, len: usize) -> Option<usize> {
        let (positions, cursor) = self.runs.get_mut(&len)?;
        while *cursor < positions.len() && positions[*cursor] <= i {
            *cursor += 1;
        }
        positions.get(*cursor).copied()
    }
}

/// Parses the candidates of one paragraph (or heading, or table cell) for
/// inline markup and appends the resulting units to `out`.
fn inline(cs: &[Cand], src: &str, defs: &HashSet<String>, out: &mut Vec<Unit>, events: &mut Vec<TagEvent>) {
    let n = cs.len();
    // raw HTML tags by candidate index, in order: (index, event)
    let mut tags: Vec<(usize, TagEvent)> = Vec::new();
    let mut st = Inline { cs, slots: vec![Slot::Keep; n], delims: Vec::new(), head: None, tail: None };
    let mut brackets: Vec<Bracket> = Vec::new();
    let mut inactive_before = 0;
    let mut backticks: Option<Backticks> = None;
    let mut html_ends: Option<HtmlEnds> = None;
    let mut i = 0;
    while i < n {
        match cs[i].ch {
            '\\' => {
                // A backslash before a line ending is a hard line break,
                // except at the very end of the paragraph.
                let escapes = i + 1 < n && {
                    let c = cs[i + 1].ch;
                    c.is_ascii_punctuation()
                        || (c == '\n' && i + 2 < n)
                        || (c == '\r' && i + 2 < n && !(cs[i + 2].ch == '\n' && i + 3 == n))
                };
                if escapes {
                    st.slots[i] = Slot::Drop;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            '`' => {
                let len = run_len(cs, i, '`');
                let ticks = backticks.get_or_insert_with(|| Backticks::new(cs));
                match ticks.closer(i, len) {
                    Some(c) => {
                        st.drop_range(i, i + len);
                        st.drop_range(c, c + len);
                        // One space of padding on both sides goes (CommonMark).
                        let pad = |x: &Cand| x.ch == ' ' || x.ch == '\n';
                        let code = &cs[i + len..c];
                        if code.len() >= 2 && pad(&code[0]) && pad(&code[code.len() - 1]) && !code.iter().all(pad) {
                            st.slots[i + len] = Slot::Drop;
                            st.slots[c - 1] = Slot::Drop;
                        }
                        i = c + len;
                    }
                    None => i += len,
                }
            }
            '<' => {
                if let Some(end) = autolink(cs, i) {
                    st.slots[i] = Slot::Drop;
                    st.slots[end - 1] = Slot::Drop;
                    i = end;
                } else if let Some((end, block)) = raw_html(cs, i, html_ends.get_or_insert_with(HtmlEnds::new)) {
                    if let Some(tag) = TagEvent::read(&cs[i..end]) {
                        tags.push((i, tag));
                    }
                    st.drop_range(i, end);
                    if block {
                        st.slots[i] = Slot::Emit(Unit { ch: '\n', start: cs[i].start, end: cs[end - 1].end });
                    }
                    i = end;
                } else {
                    i += 1;
                }
            }
            '&' => {
                let start = cs[i].start as usize;
                match decode_char_ref(src, start, true) {
                    Some((ch, end)) if i + (end - start) <= n && cs[i + (end - start) - 1].end as usize == end => {
                        let len = end - start;
                        st.drop_range(i + 1, i + len);
                        st.slots[i] = Slot::Emit(Unit { ch, start: start as u32, end: end as u32 });
                        i += len;
                    }
                    _ => i += 1,
                }
            }
            c @ ('*' | '_') => {
                let len = run_len(cs, i, c);
                st.push_delim(c, i, len);
                i += len;
            }
            '~' => {
                let len = run_len(cs, i, '~');
                if len == 2 {
                    st.push_delim('~', i, len);
                }
                i += len;
            }
            '!' if i + 1 < n && cs[i + 1].ch == '[' => {
                brackets.push(Bracket { pos: i, image: true, bottom: st.tail, text_start: i + 2 });
                i += 2;
            }
            '[' => {
                brackets.push(Bracket { pos: i, image: false, bottom: st.tail, text_start: i + 1 });
                i += 1;
            }
            ']' => i = st.close_bracket(i, &mut brackets, &mut inactive_before, defs),
            _ => i += 1,
        }
    }
    st.process_emphasis(None);
    if tags.is_empty() {
        for (k, slot) in st.slots.iter().enumerate() {
            match slot {
                Slot::Keep => out.push(cs[k].unit()),
                Slot::Drop => {}
                Slot::Emit(u) => out.push(*u),
            }
        }
        return;
    }
    let base = out.len();
    let mut tags = tags.into_iter().peekable();
    for (k, slot) in st.slots.iter().enumerate() {
        // an end tag acts before its own newline unit, a start tag after it
        let tag = tags.next_if(|(at, _)| *at == k);
        if let Some((_, t)) = tag.as_ref().filter(|(_, t)| t.end_tag) {
            events.push(TagEvent { at: out.len() - base, ..t.clone() });
        }
        match slot {
            Slot::Keep => out.push(cs[k].unit()),
            Slot::Drop => {}
            Slot::Emit(u) => out.push(*u),
        }
        if let Some((_, t)) = tag.filter(|(_, t)| !t.end_tag) {
            events.push(TagEvent { at: out.len() - base, ..t });
        }
    }
}

/// A raw HTML tag met by inline parsing: where it acts in the segment's
/// output (before the unit at `at`), and what it says about hiding.
#[derive(Debug, Clone)]
struct TagEvent {
    at: usize,
    end_tag: bool,
    /// Lowercase name.
    name: Vec<u8>,
    hiding: TagHiding,
}

impl TagEvent {
    /// Reads a start or end tag (`cs` is the whole tag, `<` to `>`).
    fn read(cs: &[Cand]) -> Option<TagEvent> {
        let text: String = cs.iter().map(|c| c.ch).collect();
        let b = text.as_bytes();
        let end_tag = b.get(1) == Some(&b'/');
        let name_start = if end_tag { 2 } else { 1 };
        if !b.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let mut j = name_start;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        let name = b[name_start..j].to_ascii_lowercase();
        let hiding = if end_tag { TagHiding::default() } else { hidden::tag_hiding(b, j, b.len().saturating_sub(1)) };
        Some(TagEvent { at: 0, end_tag, name, hiding })
    }
}

/// Raw HTML elements whose content is raw text that is never shown.
fn raw_hidden_reason(name: &[u8]) -> Option<HiddenReason> {
    match name {
        b"script" => Some(HiddenReason::Script),
        b"style" => Some(HiddenReason::Style),
        b"iframe" | b"noembed" | b"noframes" => Some(HiddenReason::RawText),
        _ => None,
    }
}

/// What raw HTML has hidden so far, across segments.
#[derive(Default)]
struct HiddenState {
    tracker: Tracker,
    /// Inside a raw text element (`script`, `style`, …): its name, why, and
    /// the episode of its text; only its end tag ends it.
    raw: Option<(Vec<u8>, HiddenReason, u32)>,
    hidden: Hidden,
}

impl HiddenState {
    fn apply(&mut self, e: &TagEvent) {
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

    /// A block rendered by markdown starts (outside raw text).
    fn close_p(&mut self) {
        if self.raw.is_none() {
            self.tracker.close_p();
        }
    }

    /// Why text here is hidden, and its episode.
    fn reason(&self) -> Option<(HiddenReason, u32)> {
        if let Some(r) = self.tracker.reason() {
            return Some((r, self.tracker.episode()));
        }
        self.raw.as_ref().map(|(_, r, e)| (*r, *e))
    }
}

impl Inline<'_> {
    fn drop_range(&mut self, from: usize, to: usize) {
        for s in &mut self.slots[from..to] {
            *s = Slot::Drop;
        }
    }

    fn push_delim(&mut self, ch: char, i: usize, len: usize) {
        let cs = self.cs;
        let before = if i == 0 { '\n' } else { cs[i - 1].ch };
        let after = cs.get(i + len).map_or('\n', |c| c.ch);
        let (ws_before, ws_after) = (before.is_whitespace(), after.is_whitespace());
        let (p_before, p_after) = (is_punct(before), is_punct(after));
        let left = !ws_after && (!p_after || ws_before || p_before);
        let right = !ws_before && (!p_before || ws_after || p_after);
        let (open, close) =
            if ch == '_' { (left && (!right || p_before), right && (!left || p_after)) } else { (left, right) };
        if !open && !close {
            return;
        }
        let idx = self.delims.len();
        self.delims.push(Delim { ch, pos: i, len, orig: len, open, close, prev: self.tail, next: None });
        match self.tail {
            Some(t) => self.delims[t].next = Some(idx),
            None => self.head = Some(idx),
        }
        self.tail = Some(idx);
    }

    fn unlink(&mut self, d: usize) {
        let Delim { prev, next, .. } = self.delims[d];
        match prev {
            Some(p) => self.delims[p].next = next,
            None => self.head = next,
        }
        match next {
            Some(x) => self.delims[x].prev = prev,
            None => self.tail = prev,
        }
    }

    /// CommonMark's "process emphasis" over the delimiters above `bottom`.
    fn process_emphasis(&mut self, bottom: Option<usize>) {
        let kind = |c: char| match c {
            '*' => 0,
            '_' => 1,
            _ => 2,
        };
        let mut openers_bottom = [[[bottom; 3]; 2]; 3];
        let mut closer = match bottom {
            Some(b) => self.delims[b].next,
            None => self.head,
        };
        while let Some(c) = closer {
            let d = self.delims[c];
            if !d.close {
                closer = d.next;
                continue;
            }
            let ob = openers_bottom[kind(d.ch)][usize::from(d.open)][d.orig % 3];
            let mut opener = d.prev;
            let mut found = None;
            while let Some(o) = opener {
                if Some(o) == ob || Some(o) == bottom {
                    break;
                }
                let od = self.delims[o];
                let matches = od.ch == d.ch
                    && od.open
                    && if d.ch == '~' { od.len == d.len } else { !rule_of_three_forbids(od, d) };
                if matches {
                    found = Some(o);
                    break;
                }
                opener = od.prev;
            }
            let Some(o) = found else {
                openers_bottom[kind(d.ch)][usize::from(d.open)][d.orig % 3] = d.prev;
                if !d.open {
                    self.unlink(c);
                }
                closer = d.next;
                continue;
            };
            let od = self.delims[o];
            let used = if d.ch == '~' || (od.len >= 2 && d.len >= 2) { 2 } else { 1 };
            self.drop_range(od.pos + od.len - used, od.pos + od.len);
            self.drop_range(d.pos, d.pos + used);
            self.delims[o].len -= used;
            self.delims[c].len -= used;
            self.delims[c].pos += used;
            let mut between = od.next;
            while let Some(x) = between {
                if x == c {
                    break;
                }
                between = self.delims[x].next;
                self.unlink(x);
            }
            if self.delims[o].len == 0 {
                self.unlink(o);
            }
            if self.delims[c].len == 0 {
                closer = self.delims[c].next;
                self.unlink(c);
            }
        }
        let mut rest = match bottom {
            Some(b) => self.delims[b].next,
            None => self.head,
        };
        while let Some(x) = rest {
            rest = self.delims[x].next;
            self.unlink(x);
        }
    }

    /// Handles the `]` at `i`; returns where to continue.
    fn close_bracket(
        &mut self,
        i: usize,
        brackets: &mut Vec<Bracket>,
        inactive_before: &mut usize,
        defs: &HashSet<String>,
    ) -> usize {
        let cs = self.cs;
        let n = cs.len();
        let Some(br) = brackets.pop() else {
            return i + 1;
        };
        if !br.image && br.pos < *inactive_before {
            return i + 1;
        }
        let after = i + 1;
        let mut end = None;
        if after < n && cs[after].ch == '(' {
            end = link_tail(cs, after);
        }
        if end.is_none() && !defs.is_empty() && i - br.text_start <= 999 {
            // Followed by a link label: a full reference or nothing, never a shortcut.
            let mut labelled = false;
            if after < n && cs[after].ch == '[' {
                if let Some(close) = label_end(cs, after) {
                    let label = if close == after + 1 {
                        label_text(&cs[br.text_start..i])
                    } else {
                        label_text(&cs[after + 1..close])
                    };
                    if defs.contains(&label) {
                        end = Some(close + 1);
                    }
                    labelled = !label.is_empty();
                }
            }
            if end.is_none() && !labelled && defs.contains(&label_text(&cs[br.text_start..i])) {
                end = Some(i + 1);
            }
        }
        let Some(end) = end else { return i + 1 };
        self.drop_range(br.pos, br.text_start);
        self.drop_range(i, end);
        self.process_emphasis(br.bottom);
        if !br.image {
            *inactive_before = i;
        }
        end
    }
}

/// The `]` closing a link label that starts with the `[` at `at`.
fn label_end(cs: &[Cand], at: usize) -> Option<usize> {
    let limit = cs.len().min(at + 1001);
    let mut j = at + 1;
    while j < limit {
        match cs[j].ch {
            '\\' => j += 2,
            '[' => return None,
            ']' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// The end (past `)`) of an inline link's `(destination "title")` at `at`.
fn link_tail(cs: &[Cand], at: usize) -> Option<usize> {
    let limit = cs.len().min(at + MAX_SCAN);
    let mut j = skip_ws_nl(cs, at + 1, limit);
    if j >= limit {
        return None;
    }
    let dest_start = j;
    if cs[j].ch == '<' {
        j += 1;
        loop {
            if j >= limit {
                return None;
            }
            match cs[j].ch {
                '>' => {
                    j += 1;
                    break;
                }
                '<' | '\n' | '\r' => return None,
                '\\' => j += 2,
                _ => j += 1,
            }
        }
    } else {
        let mut depth = 0;
        while j < limit {
            let c = cs[j].ch;
            if c == '\\' && j + 1 < limit && cs[j + 1].ch.is_ascii_punctuation() {
                j += 2;
                continue;
            }
            if c.is_whitespace() || c.is_control() {
                break;
            }
            if c == '(' {
                depth += 1;
                if depth > 32 {
                    return None;
                }
            } else if c == ')' {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            j += 1;
        }
        if depth != 0 {
            return None;
        }
    }
    let dest_end = j;
    j = skip_ws_nl(cs, j, limit);
    if j >= limit {
        return None;
    }
    if (j > dest_end || dest_end == dest_start) && matches!(cs[j].ch, '"' | '\'' | '(') {
        let open = cs[j].ch;
        let close = if open == '(' { ')' } else { open };
        j += 1;
        loop {
            if j >= limit {
                return None;
            }
            let c = cs[j].ch;
            if c == '\\' {
                j += 2;
                continue;
            }
            if c == close {
                j += 1;
                break;
            }
            if open == '(' && c == '(' {
                return None;
            }
            j += 1;
        }
        j = skip_ws_nl(cs, j, limit);
        if j >= limit {
            return None;
        }
    }
    if cs[j].ch == ')' {
        Some(j + 1)
    } else {
        None
    }
}

/// The end (past `>`) of an autolink `<scheme:…>` or `<local@domain>` at `i`.
fn autolink(cs: &[Cand], i: usize) -> Option<usize> {
    let limit = cs.len().min(i + MAX_SCAN);
    let mut j = i + 1;
    if j < limit && cs[j].ch.is_ascii_alphabetic() {
        j += 1;
        while j < limit && (cs[j].ch.is_ascii_alphanumeric() || matches!(cs[j].ch, '+' | '.' | '-')) {
            j += 1;
        }
        let scheme = j - (i + 1);
        if (2..=32).contains(&scheme) && j < limit && cs[j].ch == ':' {
            j += 1;
            while j < limit {
                let c = cs[j].ch;
                if c == '>' {
                    return Some(j + 1);
                }
                if c.is_whitespace() || c.is_control() || c == '<' {
                    return None;
                }
                j += 1;
            }
            return None;
        }
    }
    // Email autolink.
    j = i + 1;
    let local_start = j;
    while j < limit && (cs[j].ch.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(cs[j].ch)) {
        j += 1;
    }
    if j == local_start || j >= limit || cs[j].ch != '@' {
        return None;
    }
    j += 1;
    let domain_start = j;
    while j < limit && (cs[j].ch.is_ascii_alphanumeric() || cs[j].ch == '.' || cs[j].ch == '-') {
        j += 1;
    }
    if j == domain_start || cs[domain_start].ch == '.' || j >= limit || cs[j].ch != '>' {
        return None;
    }
    Some(j + 1)
}

/// Whether an HTML tag name (lowercase) is a block element whose tag separates text.
fn is_block_tag(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "br"
            | "caption"
            | "dd"
            | "details"
            | "div"
            | "dl"
            | "dt"
            | "figcaption"
            | "figure"
            | "footer"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hr"
            | "li"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
    )
}

fn find_cands(cs: &[Cand], from: usize, pat: &str) -> Option<usize> {
    let len = pat.chars().count();
    (from..(cs.len() + 1).saturating_sub(len)).find(|&j| cs[j..j + len].iter().zip(pat.chars()).all(|(c, p)| c.ch == p))
}

/// The next occurrence of a fixed string, remembered so that repeated searches
/// from increasing offsets scan each char only about once (linear in total).
struct NextOf {
    pat: &'static str,
    /// `(searched from, first occurrence at or after it)`.
    last: Option<(usize, Option<usize>)>,
}

impl NextOf {
    fn new(pat: &'static str) -> NextOf {
        NextOf { pat, last: None }
    }

    fn find(&mut self, cs: &[Cand], from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.last {
            if searched <= from {
                match found {
                    None => return None,
                    Some(q) if q >= from => return Some(q),
                    Some(_) => {}
                }
            }
        }
        let found = find_cands(cs, from, self.pat);
        self.last = Some((from, found));
        found
    }
}

/// Searches for the ends of comments, processing instructions, declarations
/// and CDATA sections.
struct HtmlEnds {
    comment: NextOf,
    instruction: NextOf,
    declaration: NextOf,
    cdata: NextOf,
}

impl HtmlEnds {
    fn new() -> HtmlEnds {
        HtmlEnds {
            comment: NextOf::new("-->"),
            instruction: NextOf::new("?>"),
            declaration: NextOf::new(">"),
            cdata: NextOf::new("]]>"),
        }
    }
}

fn starts_with_cands(cs: &[Cand], at: usize, pat: &str) -> bool {
    let len = pat.chars().count();
    cs.get(at..at + len).is_some_and(|w| w.iter().zip(pat.chars()).all(|(c, p)| c.ch == p))
}

/// Raw inline HTML at `i` (CommonMark: open or closing tag, comment,
/// processing instruction, declaration, CDATA): its end, and whether it is the
/// tag of a block element. Tags are scanned at most `MAX_SCAN` chars far.
fn raw_html(cs: &[Cand], i: usize, ends: &mut HtmlEnds) -> Option<(usize, bool)> {
    let n = cs.len();
    let limit = n.min(i + MAX_SCAN);
    let c1 = cs.get(i + 1)?.ch;
    match c1 {
        '!' => {
            if starts_with_cands(cs, i, "<!--") {
                if starts_with_cands(cs, i + 4, ">") {
                    return Some((i + 5, false));
                }
                if starts_with_cands(cs, i + 4, "->") {
                    return Some((i + 6, false));
                }
                ends.comment.find(cs, i + 4).map(|k| (k + 3, false))
            } else if starts_with_cands(cs, i, "<![CDATA[") {
                ends.cdata.find(cs, i + 9).map(|k| (k + 3, false))
            } else if cs.get(i + 2).is_some_and(|c| c.ch.is_ascii_alphabetic()) {
                ends.declaration.find(cs, i + 2).map(|k| (k + 1, false))
            } else {
                None
            }
        }
        '?' => ends.instruction.find(cs, i + 2).map(|k| (k + 2, false)),
        '/' => {
            let mut j = i + 2;
            let name_start = j;
            if j >= limit || !cs[j].ch.is_ascii_alphabetic() {
                return None;
            }
            while j < limit && (cs[j].ch.is_ascii_alphanumeric() || cs[j].ch == '-') {
                j += 1;
            }
            let name: String = cs[name_start..j].iter().map(|c| c.ch.to_ascii_lowercase()).collect();
            j = skip_ws_nl(cs, j, limit);
            if j < limit && cs[j].ch == '>' {
                Some((j + 1, is_block_tag(&name)))
            } else {
                None
            }
        }
        c if c.is_ascii_alphabetic() => {
            let mut j = i + 1;
            let name_start = j;
            while j < limit && (cs[j].ch.is_ascii_alphanumeric() || cs[j].ch == '-') {
                j += 1;
            }
            let name: String = cs[name_start..j].iter().map(|c| c.ch.to_ascii_lowercase()).collect();
            loop {
                let ws_start = j;
                j = skip_ws_nl(cs, j, limit);
                if j >= limit {
                    return None;
                }
                match cs[j].ch {
                    '>' => return Some((j + 1, is_block_tag(&name))),
                    '/' => {
                        return if j + 1 < limit && cs[j + 1].ch == '>' {
                            Some((j + 2, is_block_tag(&name)))
                        } else {
                            None
                        };
                    }
                    c if (c.is_ascii_alphabetic() || c == '_' || c == ':') && j > ws_start => {
                        j += 1;
                        while j < limit
                            && (cs[j].ch.is_ascii_alphanumeric() || matches!(cs[j].ch, '_' | '.' | ':' | '-'))
                        {
                            j += 1;
                        }
                        let k = skip_ws_nl(cs, j, limit);
                        if k < limit && cs[k].ch == '=' {
                            j = skip_ws_nl(cs, k + 1, limit);
                            if j >= limit {
                                return None;
                            }
                            match cs[j].ch {
                                q @ ('"' | '\'') => {
                                    j += 1;
                                    while j < limit && cs[j].ch != q {
                                        j += 1;
                                    }
                                    if j >= limit {
                                        return None;
                                    }
                                    j += 1;
                                }
                                c if c.is_whitespace() || "\"'=<>`".contains(c) => return None,
                                _ => {
                                    while j < limit && !cs[j].ch.is_whitespace() && !"\"'=<>`".contains(cs[j].ch) {
                                        j += 1;
                                    }
                                }
                            }
                        }
                    }
                    _ => return None,
                }
            }
        }
        _ => None,
    }
}
