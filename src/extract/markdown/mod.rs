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

mod blocks;
mod emphasis;
mod inline;
mod leaves;
mod links;
mod raw_html;
mod render;
mod scanners;

use super::scan::addressable;
use super::units::Hidden;
use super::units::{Extracted, Heading, Unit};
use blocks::Blocks;

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
    let mut blocks = Blocks::new(src);
    blocks.run();
    blocks.finish(include_hidden, sink)
}

/// [`extract_markdown_parts`] a bounded amount at a time (a document built
/// in steps, so that a host with one thread can serve others between
/// them): block structure a run of lines at a time, then inline parsing a
/// run of segments at a time. The same units, headings and hidden text as
/// the one call (tested). It holds no borrow of the source: every step is
/// given the source it was made for.
pub(crate) struct MarkdownSteps {
    include_hidden: bool,
    phase: MarkdownPhase,
}

enum MarkdownPhase {
    Blocks(Box<blocks::Parked>),
    Render(Box<(blocks::Parked, render::Render)>),
    /// Done (or a step was given another source): nothing left.
    Done,
}

impl MarkdownSteps {
    /// The steps of reading `src` (the one every [`Self::step`] is given).
    pub(crate) fn new(src: &str, include_hidden: bool) -> MarkdownSteps {
        let parked = Blocks::new(addressable(src)).park();
        MarkdownSteps { include_hidden, phase: MarkdownPhase::Blocks(Box::new(parked)) }
    }

    /// Reads about `budget` bytes more of `src` (at least one line or one
    /// block), handing visible units to `sink` as [`extract_markdown_parts`]
    /// does; the headings and hidden text once all is read.
    pub(crate) fn step(
        &mut self,
        src: &str,
        budget: usize,
        mut sink: impl FnMut(&[Unit]),
    ) -> Option<(Vec<Heading>, Hidden)> {
        let src = addressable(src);
        match std::mem::replace(&mut self.phase, MarkdownPhase::Done) {
            MarkdownPhase::Blocks(parked) => {
                let mut blocks = Blocks::resume(src, *parked);
                let stop = blocks.position().saturating_add(budget.max(1));
                if blocks.run_until(stop) {
                    let render = blocks.render_start(self.include_hidden);
                    self.phase = MarkdownPhase::Render(Box::new((blocks.park(), render)));
                } else {
                    self.phase = MarkdownPhase::Blocks(Box::new(blocks.park()));
                }
                None
            }
            MarkdownPhase::Render(state) => {
                let (parked, mut render) = *state;
                let blocks = Blocks::resume(src, parked);
                if blocks.render_until(&mut render, budget.max(1), &mut sink) {
                    return Some(blocks.render_end(render));
                }
                self.phase = MarkdownPhase::Render(Box::new((blocks.park(), render)));
                None
            }
            MarkdownPhase::Done => Some((Vec::new(), Hidden::default())),
        }
    }
}

/// Longest scan for an inline link's tail, an autolink or a raw HTML tag.
const MAX_SCAN: usize = 1024;

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

#[cfg(test)]
mod steps_tests {
    use super::*;

    /// Every part of `src` as [`extract_markdown_parts`] gives it.
    fn whole(src: &str, include_hidden: bool) -> (Vec<Unit>, Vec<Heading>, Hidden) {
        let mut units = Vec::new();
        let (headings, hidden) = extract_markdown_parts(src, include_hidden, |u| units.extend_from_slice(u));
        (units, headings, hidden)
    }

    /// The same, read by [`MarkdownSteps`] `budget` bytes at a time.
    fn stepped(src: &str, include_hidden: bool, budget: usize) -> (Vec<Unit>, Vec<Heading>, Hidden) {
        let mut steps = MarkdownSteps::new(src, include_hidden);
        let mut units = Vec::new();
        for _ in 0..=4 * src.len() + 8 {
            if let Some((headings, hidden)) = steps.step(src, budget, |u| units.extend_from_slice(u)) {
                return (units, headings, hidden);
            }
        }
        panic!("never done: {budget}");
    }

    /// Read in steps of any size, a markdown text gives the same units,
    /// headings and hidden text: the link definitions of the whole text,
    /// raw HTML followed across blocks, lists, tables, fences, setext
    /// headings, CRLF, emoji, CJK and combining marks.
    #[test]
    fn steps_read_what_the_one_call_reads() {
        let book = include_str!("../../../benches/data/rust-book.md");
        let cut = book.char_indices().nth(120_000).map_or(book.len(), |(i, _)| i);
        let texts = [
            "# Title\r\n\r\nSee [the docs][d] and *this* 😀 e\u{301}te\u{301}.\r\n\r\n[d]: http://x \"t\"\r\n",
            "<div hidden>\n\n# Hidden heading\n\nhidden para\n\n</div>\n\nvisible 中文的句子\n\nSetext\n===\n",
            "a <script>\n\nvar x = 1;\n\n</script> b\n\n- one\n  - two `code`\n\n| a | b |\n|---|---|\n| c | d |\n\n```\nfence *kept*\n```\n",
            "> quote **bold**\n> more\n\n1. first\n2) second\n\n***\n\n<!-- comment\n\nspanning -->\nend &amp; &#8220;q&#8221;\n",
            // a comment then text on its line: parsing goes on mid-line
            "para\n\n<!-- c --> # not a heading *em*\n<!-- multi\nline --> - not an item\ntext\n",
            include_str!("../../../samples/incident-review.md"),
            &book[..cut],
            "",
            "no newline at the end",
        ];
        for text in texts {
            for include_hidden in [false, true] {
                let expected = whole(text, include_hidden);
                for budget in [0, 1, 2, 5, 64, 4096, usize::MAX] {
                    let got = stepped(text, include_hidden, budget);
                    assert!(got == expected, "{:?}… budget {budget}, include_hidden {include_hidden}", text.get(..40));
                }
            }
        }
    }
}
