//! Raw inline HTML: the CommonMark scanner for tags, comments, processing
//! instructions, declarations and CDATA, and the tag events that tell the
//! hidden-text tracker what a tag hides.

use super::scanners::{ch_at, skip_ws_nl};
use super::{Cand, MAX_SCAN};
use crate::extract::hidden::{self, TagHiding};

/// A raw HTML tag met by inline parsing: where it acts in the segment's
/// output (before the unit at `at`), and what it says about hiding.
#[derive(Debug, Clone)]
pub(super) struct TagEvent {
    pub(super) at: usize,
    pub(super) end_tag: bool,
    /// Lowercase name.
    pub(super) name: Vec<u8>,
    pub(super) hiding: TagHiding,
}

impl TagEvent {
    /// Reads a start or end tag (`cs` is the whole tag, `<` to `>`).
    pub(super) fn read(cs: &[Cand]) -> Option<TagEvent> {
        let text: String = cs.iter().map(|c| c.ch).collect();
        let b = text.as_bytes();
        let end_tag = b.get(1) == Some(&b'/');
        let name_start = if end_tag { 2 } else { 1 };
        if !b.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let tail = b.get(name_start..).unwrap_or_default();
        let name_len = tail.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'-').count();
        let j = name_start + name_len;
        let name = tail.get(..name_len).unwrap_or_default().to_ascii_lowercase();
        let hiding = if end_tag { TagHiding::default() } else { hidden::tag_hiding(b, j, b.len().saturating_sub(1)) };
        Some(TagEvent { at: 0, end_tag, name, hiding })
    }
}

/// Whether an HTML tag name (lowercase) is a block element whose tag separates text.
pub(super) fn is_block_tag(name: &str) -> bool {
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

pub(super) fn find_cands(cs: &[Cand], from: usize, pat: &str) -> Option<usize> {
    let len = pat.chars().count();
    (from..(cs.len() + 1).saturating_sub(len)).find(|&j| starts_with_cands(cs, j, pat))
}

/// The next occurrence of a fixed string, remembered so that repeated searches
/// from increasing offsets scan each char only about once (linear in total).
pub(super) struct NextOf {
    pub(super) pat: &'static str,
    /// `(searched from, first occurrence at or after it)`.
    pub(super) last: Option<(usize, Option<usize>)>,
}

impl NextOf {
    pub(super) fn new(pat: &'static str) -> NextOf {
        NextOf { pat, last: None }
    }

    pub(super) fn find(&mut self, cs: &[Cand], from: usize) -> Option<usize> {
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
pub(super) struct HtmlEnds {
    pub(super) comment: NextOf,
    pub(super) instruction: NextOf,
    pub(super) declaration: NextOf,
    pub(super) cdata: NextOf,
}

impl HtmlEnds {
    pub(super) fn new() -> HtmlEnds {
        HtmlEnds {
            comment: NextOf::new("-->"),
            instruction: NextOf::new("?>"),
            declaration: NextOf::new(">"),
            cdata: NextOf::new("]]>"),
        }
    }
}

pub(super) fn starts_with_cands(cs: &[Cand], at: usize, pat: &str) -> bool {
    let len = pat.chars().count();
    cs.get(at..at + len).is_some_and(|w| w.iter().zip(pat.chars()).all(|(c, p)| c.ch == p))
}

/// Raw inline HTML at `i` (CommonMark: open or closing tag, comment,
/// processing instruction, declaration, CDATA): its end, and whether it is the
/// tag of a block element. Tags are scanned at most `MAX_SCAN` chars far.
pub(super) fn raw_html(cs: &[Cand], i: usize, ends: &mut HtmlEnds) -> Option<(usize, bool)> {
    let n = cs.len();
    let limit = n.min(i + MAX_SCAN);
    let c1 = cs.get(i + 1)?.ch;
    match c1 {
        '!' => markup_declaration(cs, i, ends),
        '?' => ends.instruction.find(cs, i + 2).map(|k| (k + 2, false)),
        '/' => closing_tag(cs, i, limit),
        c if c.is_ascii_alphabetic() => open_tag(cs, i, limit),
        _ => None,
    }
}

/// A comment, CDATA section or declaration at `i` (`<!`…).
fn markup_declaration(cs: &[Cand], i: usize, ends: &mut HtmlEnds) -> Option<(usize, bool)> {
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

/// A tag name at `from`: its end and its lowercase text.
fn tag_name(cs: &[Cand], from: usize, limit: usize) -> (usize, String) {
    let mut j = from;
    while ch_at(cs, j, limit).is_some_and(|c| c.is_ascii_alphanumeric() || c == '-') {
        j += 1;
    }
    (j, cs.get(from..j).unwrap_or_default().iter().map(|c| c.ch.to_ascii_lowercase()).collect())
}

/// A closing tag `</name >` at `i`.
fn closing_tag(cs: &[Cand], i: usize, limit: usize) -> Option<(usize, bool)> {
    let name_start = i + 2;
    if !ch_at(cs, name_start, limit).is_some_and(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let (j, name) = tag_name(cs, name_start, limit);
    let j = skip_ws_nl(cs, j, limit);
    if ch_at(cs, j, limit) == Some('>') {
        Some((j + 1, is_block_tag(&name)))
    } else {
        None
    }
}

/// An open tag `<name attr="value" …>` (or `/>`) at `i`.
fn open_tag(cs: &[Cand], i: usize, limit: usize) -> Option<(usize, bool)> {
    let (mut j, name) = tag_name(cs, i + 1, limit);
    loop {
        let ws_start = j;
        j = skip_ws_nl(cs, j, limit);
        match ch_at(cs, j, limit)? {
            '>' => return Some((j + 1, is_block_tag(&name))),
            '/' => {
                return if ch_at(cs, j + 1, limit) == Some('>') { Some((j + 2, is_block_tag(&name))) } else { None };
            }
            c if (c.is_ascii_alphabetic() || c == '_' || c == ':') && j > ws_start => j = attribute(cs, j, limit)?,
            _ => return None,
        }
    }
}

/// An attribute whose name starts at `j`: the end of its name, or of its
/// `= value` if it has one.
fn attribute(cs: &[Cand], mut j: usize, limit: usize) -> Option<usize> {
    let at = |j: usize| ch_at(cs, j, limit);
    j += 1;
    while at(j).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')) {
        j += 1;
    }
    let k = skip_ws_nl(cs, j, limit);
    if at(k) != Some('=') {
        return Some(j);
    }
    j = skip_ws_nl(cs, k + 1, limit);
    match at(j)? {
        q @ ('"' | '\'') => {
            j += 1;
            while at(j).is_some_and(|c| c != q) {
                j += 1;
            }
            if j >= limit {
                return None;
            }
            Some(j + 1)
        }
        c if c.is_whitespace() || "\"'=<>`".contains(c) => None,
        _ => {
            while at(j).is_some_and(|c| !c.is_whitespace() && !"\"'=<>`".contains(c)) {
                j += 1;
            }
            Some(j)
        }
    }
}
