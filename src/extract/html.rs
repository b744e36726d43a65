//! HTML text extraction: the text a reader of an HTML page sees, as [`Unit`]s
//! that point back into the raw markup, plus the page's `h1`–`h6` headings.
//!
//! A forgiving, html5-flavoured tokenizer (no tree building, no external crate):
//!
//! * text is kept char by char, each unit spanning its own bytes;
//! * a character reference (`&amp;`, `&#8220;`, `&#x201C;`, `&eacute;`, …)
//!   becomes one unit spanning the whole reference; numeric references follow
//!   html5 (0, surrogates and values above U+10FFFF give U+FFFD, 0x80–0x9F are
//!   read as windows-1252); named ones come from a table of 617 names (all of
//!   HTML 4 plus the common HTML5 additions), the legacy names (`&amp`, `&copy`,
//!   …) are also recognised without `;` as html5 does in text; an unknown
//!   `&foo;` (or one of the rare HTML5 names left out, mostly math symbols)
//!   stays literal text. Every table entry is a single char (the HTML5 names
//!   that decode to two chars are all left out), so a reference is always one unit;
//! * tags produce no text, except that the start or end tag of a block-level
//!   element (`p`, `div`, `br`, `li`, `td`, `h1`, `title`, …) produces one `'\n'`
//!   unit spanning the tag, so words of adjacent blocks never fuse;
//! * comments, `<!DOCTYPE>` and other `<!…>` declarations, `<?…?>` and CDATA
//!   sections produce nothing; the contents of `script`, `style`, `iframe`,
//!   `noembed` and `noframes` are no visible text (they go, literal, to the
//!   hidden text); `title` and `textarea` content is text with references
//!   decoded but no tags; `xmp` and `plaintext` content is literal;
//! * text inside a hidden element (`<template>`, `<noscript>`, the `hidden`
//!   attribute, `aria-hidden="true"`, an inline `display:none` or
//!   `visibility:hidden`; see [`super::hidden`]) is not visible text: its
//!   units go to [`Extracted::hidden`] instead (or stay in the text with
//!   [`extract_html_with`]`(src, true)`); the tags' own `'\n'` units stay
//!   visible, and a heading inside a hidden element is no heading;
//! * `<head>` gets no special treatment: its `<title>` text is kept (between
//!   newlines) and everything else in it carries no text anyway;
//! * quoted attribute values may contain `>`; a tag, comment or raw-text
//!   element left open at the end of the input swallows the rest, as in html5;
//! * whitespace is never collapsed here (not even outside `<pre>`), and the
//!   newline html5 drops right after `<pre>` is kept.
//!
//! A heading runs from its `<hN` to the end of its closing tag; it is also
//! closed by the next heading start tag, by the end tag of an enclosing
//! container (`</div>`, `</section>`, `</li>`, …) or by the end of the input.
//!
//! Linear time, never panics. Offsets are `u32`: input beyond 4 GiB is ignored.

use super::entities::decode_char_ref;
use super::hidden::{tag_hiding, Tracker};
use super::scan::{addressable, find_byte, find_seq, is_ws, skip_while};
use super::units::{title_of, Extracted, Heading, Hidden, HiddenReason, Unit};

/// Extracts the visible text of an HTML source as units, its headings, and
/// apart from them its hidden text.
pub fn extract_html(src: &str) -> Extracted {
    extract_html_with(src, false)
}

/// [`extract_html`]; with `include_hidden`, hidden text (hidden elements and
/// the contents of `script`, `style`, …) is kept in `units` as if visible, and
/// `hidden` is empty.
pub fn extract_html_with(src: &str, include_hidden: bool) -> Extracted {
    let src = addressable(src);
    let mut x = Html {
        src,
        b: src.as_bytes(),
        units: Vec::with_capacity(src.len() / 2),
        headings: Vec::new(),
        open: None,
        tracker: Tracker::default(),
        hidden: Hidden::default(),
        include_hidden,
    };
    x.run();
    Extracted { units: x.units, headings: x.headings, hidden: x.hidden }
}

/// How an element's tags and content are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No text for the tags.
    Inline,
    /// One `'\n'` unit for each tag.
    Block,
    /// A block that is also a heading.
    Heading(u8),
    /// Raw text that is not shown: the content is dropped.
    Hidden,
    /// Escapable raw text (a block): content is text with references, no tags.
    Rcdata,
    /// Raw text that is shown literally (a block).
    Literal,
    /// Everything after the start tag is literal text.
    Plaintext,
}

fn classify(name: &[u8]) -> Kind {
    let mut buf = [0u8; 12];
    let Some(lower) = buf.get_mut(..name.len()) else {
        return Kind::Inline;
    };
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    match &*lower {
        b"h1" => Kind::Heading(1),
        b"h2" => Kind::Heading(2),
        b"h3" => Kind::Heading(3),
        b"h4" => Kind::Heading(4),
        b"h5" => Kind::Heading(5),
        b"h6" => Kind::Heading(6),
        b"script" | b"style" | b"iframe" | b"noembed" | b"noframes" => Kind::Hidden,
        b"title" | b"textarea" => Kind::Rcdata,
        b"xmp" => Kind::Literal,
        b"plaintext" => Kind::Plaintext,
        b"address" | b"article" | b"aside" | b"blockquote" | b"body" | b"br" | b"caption" | b"center" | b"dd"
        | b"details" | b"dialog" | b"dir" | b"div" | b"dl" | b"dt" | b"fieldset" | b"figcaption" | b"figure"
        | b"footer" | b"form" | b"frameset" | b"head" | b"header" | b"hgroup" | b"hr" | b"html" | b"legend" | b"li"
        | b"listing" | b"main" | b"menu" | b"nav" | b"ol" | b"optgroup" | b"option" | b"p" | b"pre" | b"search"
        | b"section" | b"select" | b"summary" | b"table" | b"tbody" | b"td" | b"tfoot" | b"th" | b"thead" | b"tr"
        | b"ul" => Kind::Block,
        _ => Kind::Inline,
    }
}

/// End tags of containers that cannot be inside a heading, so they close one left open.
fn closes_heading(name: &[u8]) -> bool {
    const NAMES: &[&[u8]] = &[
        b"article",
        b"aside",
        b"blockquote",
        b"body",
        b"details",
        b"div",
        b"dl",
        b"fieldset",
        b"figure",
        b"footer",
        b"form",
        b"header",
        b"hgroup",
        b"html",
        b"li",
        b"main",
        b"nav",
        b"ol",
        b"section",
        b"table",
        b"td",
        b"th",
        b"tr",
        b"ul",
    ];
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// A heading whose start tag has been seen.
struct OpenHeading {
    level: u8,
    start: usize,
    first_unit: usize,
}

struct Html<'a> {
    src: &'a str,
    b: &'a [u8],
    units: Vec<Unit>,
    headings: Vec<Heading>,
    open: Option<OpenHeading>,
    tracker: Tracker,
    hidden: Hidden,
    include_hidden: bool,
}

impl Html<'_> {
    fn run(&mut self) {
        let mut i = 0;
        while let Some(&c) = self.b.get(i) {
            i = match c {
                b'<' => self.markup(i),
                b'&' => self.reference(i),
                _ => self.text_char(i),
            };
        }
        self.close_heading(self.b.len());
    }

    fn push(&mut self, ch: char, start: usize, end: usize) {
        let unit = Unit { ch, start: start as u32, end: end as u32 };
        match self.tracker.reason() {
            Some(reason) if !self.include_hidden => self.hidden.push(unit, reason, self.tracker.episode()),
            _ => self.units.push(unit),
        }
    }

    /// The raw text `[from, to)` of a `script`, `style`, … element: hidden
    /// text, literal (one region, or part of the enclosing hidden one).
    fn raw_hidden(&mut self, from: usize, to: usize, reason: HiddenReason) {
        if self.include_hidden {
            self.text_range(from, to, false);
            return;
        }
        let (reason, episode) = match self.tracker.reason() {
            Some(outer) => (outer, self.tracker.episode()),
            None => (reason, self.tracker.new_episode()),
        };
        let mut i = from;
        while i < to {
            let Some(ch) = self.src.get(i..).and_then(|s| s.chars().next()) else { break };
            let end = i + ch.len_utf8();
            self.hidden.push(Unit { ch, start: i as u32, end: end as u32 }, reason, episode);
            i = end;
        }
    }

    /// Emits the char at `i` as text; returns the offset after it.
    fn text_char(&mut self, i: usize) -> usize {
        match self.src.get(i..).and_then(|s| s.chars().next()) {
            Some(ch) => {
                let end = i + ch.len_utf8();
                self.push(ch, i, end);
                end
            }
            // Unreachable: `i` is always a char boundary before the end.
            None => self.b.len(),
        }
    }

    /// Emits the reference at `i` (or a literal `&`); returns the offset after it.
    fn reference(&mut self, i: usize) -> usize {
        match decode_char_ref(self.src, i, false) {
            Some((ch, end)) => {
                self.push(ch, i, end);
                end
            }
            None => {
                self.push('&', i, i + 1);
                i + 1
            }
        }
    }

    /// Emits `[from, to)` as text, decoding references if asked.
    fn text_range(&mut self, from: usize, to: usize, references: bool) {
        let mut i = from;
        while let Some(&c) = self.b.get(i).filter(|_| i < to) {
            i = if references && c == b'&' { self.reference(i) } else { self.text_char(i) };
        }
    }

    /// Handles the markup (or literal `<`) at `i`; returns the offset after it.
    fn markup(&mut self, i: usize) -> usize {
        let b = self.b;
        let n = b.len();
        let Some(&c1) = b.get(i + 1) else {
            self.push('<', i, i + 1);
            return n;
        };
        match c1 {
            b'!' => {
                let rest = b.get(i..).unwrap_or_default();
                if rest.starts_with(b"<!--") {
                    comment_end(b, i + 4)
                } else if rest.starts_with(b"<![CDATA[") {
                    find_seq(b, i + 9, b"]]>").map_or(n, |k| k + 3)
                } else {
                    find_byte(b, i + 2, b'>').map_or(n, |k| k + 1)
                }
            }
            b'?' => find_byte(b, i + 2, b'>').map_or(n, |k| k + 1),
            b'/' => match b.get(i + 2) {
                None => {
                    self.push('<', i, i + 1);
                    self.push('/', i + 1, i + 2);
                    n
                }
                Some(b'>') => i + 3,
                Some(c) if c.is_ascii_alphabetic() => self.end_tag(i),
                Some(_) => find_byte(b, i + 2, b'>').map_or(n, |k| k + 1),
            },
            c if c.is_ascii_alphabetic() => self.start_tag(i),
            _ => {
                self.push('<', i, i + 1);
                i + 1
            }
        }
    }

    fn start_tag(&mut self, i: usize) -> usize {
        let b = self.b;
        let n = b.len();
        let (name_end, end) = scan_tag(b, i + 1);
        let Some(end) = end else { return n };
        let name = b.get(i + 1..name_end).unwrap_or_default();
        let hiding = tag_hiding(b, name_end, end - 1);
        self.tracker.close_implied(name);
        match classify(name) {
            Kind::Inline => self.tracker.start(name, hiding),
            Kind::Block => {
                self.push('\n', i, end);
                self.tracker.start(name, hiding);
            }
            Kind::Heading(level) => {
                self.close_heading(i);
                self.push('\n', i, end);
                self.tracker.start(name, hiding);
                // a hidden heading is no heading
                if self.include_hidden || self.tracker.reason().is_none() {
                    self.open = Some(OpenHeading { level, start: i, first_unit: self.units.len() });
                }
            }
            // The end tag is handled by the main loop.
            Kind::Hidden => {
                let stop = find_end_tag(b, end, name).unwrap_or(n);
                let reason = if name.eq_ignore_ascii_case(b"script") {
                    HiddenReason::Script
                } else if name.eq_ignore_ascii_case(b"style") {
                    HiddenReason::Style
                } else {
                    HiddenReason::RawText
                };
                self.raw_hidden(end, stop, reason);
                return stop;
            }
            // Raw text elements are never left open on the stack: their
            // content is read here, under their own attributes.
            Kind::Rcdata | Kind::Literal => {
                self.push('\n', i, end);
                let stop = find_end_tag(b, end, name).unwrap_or(n);
                self.tracker.start(name, hiding);
                self.text_range(end, stop, classify(name) == Kind::Rcdata);
                self.tracker.end(name);
                return stop;
            }
            Kind::Plaintext => {
                self.push('\n', i, end);
                self.tracker.start(name, hiding);
                self.text_range(end, n, false);
                return n;
            }
        }
        end
    }

    fn end_tag(&mut self, i: usize) -> usize {
        let b = self.b;
        let (name_end, end) = scan_tag(b, i + 2);
        let Some(end) = end else { return b.len() };
        let name = b.get(i + 2..name_end).unwrap_or_default();
        match classify(name) {
            Kind::Hidden => return end,
            Kind::Rcdata | Kind::Literal | Kind::Plaintext => {}
            // the tag's own newline is visible when it closes a hidden element
            _ => self.tracker.end(name),
        }
        match classify(name) {
            Kind::Heading(_) => {
                self.close_heading(end);
                self.push('\n', i, end);
            }
            Kind::Inline | Kind::Hidden => {}
            _ => {
                if closes_heading(name) {
                    self.close_heading(i);
                }
                self.push('\n', i, end);
            }
        }
        end
    }

    /// Closes the open heading, if any, at byte `end`.
    fn close_heading(&mut self, end: usize) {
        if let Some(h) = self.open.take() {
            let title = title_of(self.units.get(h.first_unit..).unwrap_or(&[]));
            self.headings.push(Heading { level: h.level, title, start: h.start as u32, end: end.max(h.start) as u32 });
        }
    }
}

/// The end of a comment whose `<!--` ends just before `j` (html5 rules, including
/// the abrupt `<!-->` and `<!--->` and the `--!>` ending); the input's end if none.
fn comment_end(b: &[u8], j: usize) -> usize {
    let n = b.len();
    if b.get(j) == Some(&b'>') {
        return j + 1;
    }
    if b.get(j..).is_some_and(|r| r.starts_with(b"->")) {
        return j + 2;
    }
    let mut k = j;
    while let Some(rest) = b.get(k..).filter(|r| !r.is_empty()) {
        if rest.starts_with(b"-->") {
            return k + 3;
        }
        if rest.starts_with(b"--!>") {
            return k + 4;
        }
        k += 1;
    }
    n
}

/// Scans a tag whose name starts at `name_start`: returns the end of the name
/// and the offset just past the closing `>`, or `None` if the input ends first.
fn scan_tag(b: &[u8], name_start: usize) -> (usize, Option<usize>) {
    let n = b.len();
    let name_end = skip_while(b, name_start, n, |c| !is_ws(c) && c != b'/' && c != b'>');
    let mut j = name_end;
    loop {
        j = skip_while(b, j, n, |c| is_ws(c) || c == b'/');
        match b.get(j) {
            None => return (name_end, None),
            Some(b'>') => return (name_end, Some(j + 1)),
            Some(_) => {}
        }
        // Attribute name: its first char may be anything (even `=`).
        j = skip_while(b, j + 1, n, |c| !is_ws(c) && !matches!(c, b'/' | b'>' | b'='));
        j = skip_while(b, j, n, is_ws);
        if b.get(j) == Some(&b'=') {
            j = skip_while(b, j + 1, n, is_ws);
            match b.get(j) {
                None => return (name_end, None),
                Some(&q @ (b'"' | b'\'')) => match find_byte(b, j + 1, q) {
                    Some(k) => j = k + 1,
                    None => return (name_end, None),
                },
                Some(b'>') => return (name_end, Some(j + 1)),
                Some(_) => j = skip_while(b, j, n, |c| !is_ws(c) && c != b'>'),
            }
        }
    }
}

/// The offset of the `</name` (any case) that ends a raw text element, if any.
fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut k = from;
    while let Some(p) = find_byte(b, k, b'<') {
        let name_at = p + 2;
        if b.get(p + 1) == Some(&b'/')
            && b.get(name_at..name_at + name.len()).is_some_and(|s| s.eq_ignore_ascii_case(name))
            && matches!(b.get(name_at + name.len()), Some(&c) if is_ws(c) || c == b'/' || c == b'>')
        {
            return Some(p);
        }
        k = p + 1;
    }
    None
}
