//! Where a match is, in the forms other tools read (issue 18): W3C Web
//! Annotation selectors (a TextQuoteSelector and a TextPositionSelector,
//! <https://www.w3.org/TR/annotation-model/#selectors>) and a URL text
//! fragment (`#:~:text=…`, the WICG URL Fragment Text Directives spec) that
//! a browser scrolls to and highlights.
//!
//! Selectors are over the original source, like every span of the crate:
//! `exact` is `source[byte_start..byte_end]`, positions are code points (the
//! W3C model's unit). A text fragment is over what a reader sees: its words
//! are the source's words as the normalizer read them (markup and
//! character references resolved).

use crate::document::Document;
use crate::matching::fuzzy;
use crate::matching::meaning::floor_boundary;
use crate::text::{normalize, Normalized, Profile};
use serde::Serialize;

/// Characters of source text in a TextQuoteSelector's `prefix` and
/// `suffix` (fewer at the start or end of the source).
pub const SELECTOR_AFFIX_CHARS: usize = 32;
/// A match longer than this many characters is linked as a range
/// (`textStart,textEnd`: its first and last [`TEXT_FRAGMENT_EDGE_WORDS`]
/// words) instead of in full: long URLs break in mail and chat, and a
/// range survives edits in the middle of the passage.
pub const TEXT_FRAGMENT_RANGE_CHARS: usize = 100;
/// Words of the match in each of `textStart` and `textEnd`.
pub const TEXT_FRAGMENT_EDGE_WORDS: usize = 4;
/// Words of context in a text fragment's `prefix-` and `-suffix`, used when
/// the matched text is not unique in the source (or is linked as a range).
pub const TEXT_FRAGMENT_CONTEXT_WORDS: usize = 3;

/// A W3C Web Annotation selector (`match_details.selectors[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum Selector {
    /// The matched text and the text around it.
    TextQuoteSelector {
        /// `source[byte_start..byte_end]`.
        exact: String,
        /// Up to [`SELECTOR_AFFIX_CHARS`] characters before.
        prefix: String,
        /// Up to [`SELECTOR_AFFIX_CHARS`] characters after.
        suffix: String,
    },
    /// The match's offsets in code points of the source.
    TextPositionSelector {
        /// Code point offset of the start.
        start: usize,
        /// Code point offset of the end (exclusive).
        end: usize,
    },
}

/// The selectors of original bytes `os..oe` of `doc`'s source.
pub fn selectors(doc: &Document, os: usize, oe: usize) -> Vec<Selector> {
    let src = doc.source();
    let span = doc.span(os, oe);
    vec![
        Selector::TextQuoteSelector {
            exact: src.get(os..oe).unwrap_or("").to_string(),
            prefix: chars_before(src, os, SELECTOR_AFFIX_CHARS).to_string(),
            suffix: chars_after(src, oe, SELECTOR_AFFIX_CHARS).to_string(),
        },
        Selector::TextPositionSelector { start: span.start, end: span.end },
    ]
}

/// Up to `n` characters of `s` before byte `at`.
pub(crate) fn chars_before(s: &str, at: usize, n: usize) -> &str {
    let head = s.get(..at).unwrap_or("");
    let from = head.char_indices().rev().take(n).last().map_or(head.len(), |(i, _)| i);
    head.get(from..).unwrap_or("")
}

/// Up to `n` characters of `s` from byte `at`.
pub(crate) fn chars_after(s: &str, at: usize, n: usize) -> &str {
    let tail = s.get(at..).unwrap_or("");
    let to = tail.char_indices().nth(n).map_or(tail.len(), |(i, _)| i);
    tail.get(..to).unwrap_or("")
}

/// Characters of an expected prefix (its end) or suffix (its start)
/// compared with the source: the bound that keeps each comparison's edit
/// distance small whatever a claim or a saved selector holds.
pub const AFFIX_COMPARED_CHARS: usize = 64;

/// How alike the source text just before byte `at` is to `prefix` (its
/// last [`AFFIX_COMPARED_CHARS`] characters), 0–1.
pub(crate) fn prefix_similarity(src: &str, at: usize, prefix: &str, profile: Profile) -> f64 {
    let want = chars_before(prefix, prefix.len(), AFFIX_COMPARED_CHARS);
    affix_similarity(want, chars_before(src, at, want.chars().count()), profile)
}

/// How alike the source text from byte `at` is to `suffix` (its first
/// [`AFFIX_COMPARED_CHARS`] characters), 0–1.
pub(crate) fn suffix_similarity(src: &str, at: usize, suffix: &str, profile: Profile) -> f64 {
    let want = chars_after(suffix, 0, AFFIX_COMPARED_CHARS);
    affix_similarity(want, chars_after(src, at, want.chars().count()), profile)
}

/// How alike `expected` is to `actual` (0–1), normalized with `profile`:
/// 1 − edit distance / the longer length.
fn affix_similarity(expected: &str, actual: &str, profile: Profile) -> f64 {
    let (a, b) = (normalize::normalize_str(expected, profile), normalize::normalize_str(actual, profile));
    let longest = a.chars().count().max(b.chars().count());
    if longest == 0 {
        return 1.0;
    }
    1.0 - fuzzy::levenshtein(&a, &b) as f64 / longest as f64
}

/// The text directive (`#:~:text=…`) of normalized bytes `s..e` of `norm`
/// (the search text of `doc` read with `profile`). `unique`: the matched
/// text occurs once in the source; else the directive carries `prefix-`
/// and `-suffix` words (so does a range, see [`TEXT_FRAGMENT_RANGE_CHARS`]).
/// Each term is percent-encoded by [`encode_term`]. Empty when the range
/// holds no word.
pub fn text_fragment(
    doc: &Document,
    norm: &Normalized,
    range: (usize, usize),
    unique: bool,
    profile: Profile,
) -> String {
    text_fragment_with(doc, norm, range, unique, profile, true)
}

/// [`text_fragment`]; `shortcuts` off reads every context word in reach
/// and tests every gap of the match (the slow path the tests compare the
/// shortcuts with).
fn text_fragment_with(
    doc: &Document,
    norm: &Normalized,
    (s, e): (usize, usize),
    unique: bool,
    profile: Profile,
    shortcuts: bool,
) -> String {
    let text = norm.as_str();
    let inside = words(text, s, e, usize::MAX);
    if inside.is_empty() {
        return String::new();
    }
    // the source ranges of the match's words, in one walk along the map
    // (each looked up on its own without `shortcuts`)
    let inside_orig: Vec<Option<(usize, usize)>> = if shortcuts {
        norm.original_ranges(&inside)
    } else {
        inside.iter().map(|&(a, b)| norm.original_range(a, b)).collect()
    };
    let seen = |w: (usize, usize)| visible_word(doc, norm, w, norm.original_range(w.0, w.1), profile);
    let join = |ws: &[(usize, usize)]| ws.iter().map(|&w| seen(w)).collect::<Vec<_>>().join(" ");
    let join_inside = |from: usize, to: usize| {
        let ws = inside.iter().zip(&inside_orig).take(to).skip(from);
        ws.map(|(&w, &o)| visible_word(doc, norm, w, o, profile)).collect::<Vec<_>>().join(" ")
    };
    let chars = text.get(s..e).map_or(0, |t| t.chars().count());
    let crosses = inside_orig.windows(2).any(|p| match p {
        [a, b] => source_gap_crosses_block(doc, *a, *b),
        _ => false,
    });
    let range = (chars > TEXT_FRAGMENT_RANGE_CHARS || crosses) && inside.len() >= 2;
    // only the nearest context words are read (the last ones before, the
    // first ones after): the same words as all of them in reach
    let reach = if shortcuts { TEXT_FRAGMENT_CONTEXT_WORDS } else { usize::MAX };
    let mut terms: Vec<String> = Vec::new();
    if !unique || range {
        // context words of the same block only: a term never spans blocks
        let before = last_words(text, floor_boundary(text, s.saturating_sub(CONTEXT_REACH)), s, reach);
        let mut pre: Vec<(usize, usize)> = Vec::new();
        let mut next = inside.first().copied();
        for &w in before.iter().rev().take(TEXT_FRAGMENT_CONTEXT_WORDS) {
            if next.is_some_and(|n| gap_crosses_block(doc, norm, w, n)) {
                break;
            }
            pre.push(w);
            next = Some(w);
        }
        pre.reverse();
        if !pre.is_empty() {
            terms.push(format!("{}-", encode_term(&join(&pre))));
        }
    }
    if range {
        let n = TEXT_FRAGMENT_EDGE_WORDS.min(inside.len() / 2).max(1);
        terms.push(encode_term(&join_inside(0, n)));
        terms.push(encode_term(&join_inside(inside.len() - n, inside.len())));
    } else {
        terms.push(encode_term(&join_inside(0, inside.len())));
    }
    if !unique || range {
        let after = words(text, e, floor_boundary(text, (e + CONTEXT_REACH).min(text.len())), reach);
        let mut post: Vec<(usize, usize)> = Vec::new();
        let mut prev = inside.last().copied();
        for &w in after.iter().take(TEXT_FRAGMENT_CONTEXT_WORDS) {
            if prev.is_some_and(|p| gap_crosses_block(doc, norm, p, w)) {
                break;
            }
            post.push(w);
            prev = Some(w);
        }
        if !post.is_empty() {
            terms.push(format!("-{}", encode_term(&join(&post))));
        }
    }
    format!("#:~:text={}", terms.join(","))
}

/// Bytes of text either side of a match read for context words: enough for
/// [`TEXT_FRAGMENT_CONTEXT_WORDS`] words, and a bound that keeps a link's
/// cost independent of the document's size (a word cut at the far end of
/// the window is never one of the nearest).
const CONTEXT_REACH: usize = 512;

/// The first `limit` whitespace-separated words of `text[from..to]`, as
/// byte ranges of `text` (the last one ends at `to` when `to` cuts it);
/// none when `from..to` is not a range of char boundaries of `text`.
fn words(text: &str, from: usize, to: usize, limit: usize) -> Vec<(usize, usize)> {
    let Some(part) = text.get(from..to) else { return Vec::new() };
    if limit == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let bytes = part.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // ASCII bytes by table (char::is_whitespace's ASCII members), the rest decoded
        let (white, len) = if b.is_ascii() {
            (is_ascii_white(b), 1)
        } else {
            match part.get(i..).and_then(|t| t.chars().next()) {
                Some(c) => (c.is_whitespace(), c.len_utf8()),
                None => break,
            }
        };
        match (white, start) {
            (true, Some(st)) => {
                out.push((from + st, from + i));
                start = None;
                if out.len() >= limit {
                    return out;
                }
            }
            (false, None) => start = Some(i),
            _ => {}
        }
        i += len;
    }
    if let (Some(st), true) = (start, out.len() < limit) {
        out.push((from + st, to));
    }
    out
}

/// The last `limit` words of [`words`]`(text, from, to, usize::MAX)`, in
/// the same order, read backwards from `to` (the first one starts at
/// `from` when `from` cuts it).
fn last_words(text: &str, from: usize, to: usize, limit: usize) -> Vec<(usize, usize)> {
    let Some(part) = text.get(from..to) else { return Vec::new() };
    if limit == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut end: Option<usize> = None;
    for (i, c) in part.char_indices().rev() {
        let white = if c.is_ascii() { is_ascii_white(c as u8) } else { c.is_whitespace() };
        match (white, end) {
            (true, Some(en)) => {
                out.push((from + i + c.len_utf8(), from + en));
                end = None;
                if out.len() >= limit {
                    break;
                }
            }
            (false, None) => end = Some(i + c.len_utf8()),
            _ => {}
        }
    }
    if let (Some(en), true) = (end, out.len() < limit) {
        out.push((from, from + en));
    }
    out.reverse();
    out
}

/// `char::is_whitespace` of an ASCII byte.
#[inline]
fn is_ascii_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// A normalized word as a reader sees it: the source's own text there when
/// it reads as the same word (letter case, curly quotes kept), else the
/// normalized word (a character reference, markup inside the word).
/// `orig` is the word's source range (`norm.original_range(s, e)`).
fn visible_word(
    doc: &Document,
    norm: &Normalized,
    (s, e): (usize, usize),
    orig: Option<(usize, usize)>,
    profile: Profile,
) -> String {
    let word = norm.as_str().get(s..e).unwrap_or("");
    match orig.and_then(|(os, oe)| doc.source().get(os..oe)) {
        // the same text either way (most words)
        Some(orig) if orig == word => orig.to_string(),
        Some(orig) if normalize::normalize_str(orig, profile) == word => orig.to_string(),
        _ => word.to_string(),
    }
}

/// HTML elements that start a block: a text directive's term cannot span
/// one (the spec matches each term within one block).
const BLOCK_TAGS: [&str; 22] = [
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "br",
    "tr",
    "td",
    "th",
    "table",
    "section",
    "article",
    "blockquote",
    "pre",
    "header",
    "footer",
];

/// Whether the source between normalized words `a` and `b` (a before b)
/// starts a new block: a blank line, a markdown heading, list item or
/// quote line, or an HTML block element.
fn gap_crosses_block(doc: &Document, norm: &Normalized, a: (usize, usize), b: (usize, usize)) -> bool {
    source_gap_crosses_block(doc, norm.original_range(a.0, a.1), norm.original_range(b.0, b.1))
}

/// [`gap_crosses_block`] given the words' source ranges (`None`: not
/// mapped, taken as a block boundary).
fn source_gap_crosses_block(doc: &Document, a: Option<(usize, usize)>, b: Option<(usize, usize)>) -> bool {
    let (Some((_, ae)), Some((bs, _))) = (a, b) else {
        return true;
    };
    let gap = doc.source().get(ae..bs.max(ae)).unwrap_or("");
    // every rule below needs a line break or a tag in the gap (most gaps are one space)
    if !gap.bytes().any(|b| b == b'\n' || b == b'<') {
        return false;
    }
    if gap.contains("\n\n") || gap.contains("\r\n\r\n") {
        return true;
    }
    if gap.split('\n').skip(1).any(|line| {
        let l = line.trim_start();
        l.starts_with(['#', '>', '-', '*', '+', '|'])
            || l.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok())
    }) {
        return true;
    }
    gap.split('<').skip(1).any(|tag| {
        let name: String =
            tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>();
        BLOCK_TAGS.contains(&name.to_ascii_lowercase().as_str())
    })
}

/// A text directive term, percent-encoded: every byte but ASCII letters,
/// digits and `.`, `_`, `~` as `%XX` of its UTF-8, so the directive's own
/// syntax characters (`-`, `&`, `,`) and spaces never reach the URL
/// unencoded (the spec requires `-`, `&` and `,` encoded; the rest is
/// outside URL fragment syntax or would be read as such).
pub fn encode_term(term: &str) -> String {
    let mut out = String::with_capacity(term.len());
    for b in term.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0')));
            out.push(char::from(HEX.get(usize::from(b & 15)).copied().unwrap_or(b'0')));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_encode_the_directive_syntax() {
        assert_eq!(encode_term("a-b & c, d"), "a%2Db%20%26%20c%2C%20d");
        assert_eq!(encode_term("café 😀"), "caf%C3%A9%20%F0%9F%98%80");
        assert_eq!(encode_term("v1.2_x~"), "v1.2_x~");
    }

    /// The shortcuts of `text_fragment` (the map walked once for the
    /// match's words, only the nearest context words read) give the slow
    /// path's links, and `words` / `last_words` with a limit the unlimited
    /// list's ends: random markdown, HTML and plain documents with blank
    /// lines, headings, list items, tags, character references, CRLF,
    /// emoji, CJK and combining marks, and random ranges of their
    /// normalized text (word edges and not).
    #[test]
    fn shortcuts_give_the_slow_paths_links() {
        use crate::document::Format;
        let pieces = [
            "word",
            "Words",
            "the",
            "borrow",
            "checker",
            " ",
            " ",
            " ",
            "  ",
            "\n",
            "\n\n",
            "\r\n",
            "\r\n\r\n",
            "\n# ",
            "\n- ",
            "\n> ",
            "\n1. ",
            "<p>",
            "</p>",
            "<br>",
            "<em>",
            "</em>",
            "&amp;",
            "&#233;",
            "\u{1F600}",
            "\u{4E2D}\u{6587}",
            "e\u{301}",
            "\u{fb01}",
            "-",
            ",",
            ".",
            "\u{a0}",
            "\t",
            "*",
            "`",
            "https://example.com/a/very/long/url/without/any/spaces/in/it",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x005e_1ec7);
        let profile = Profile::default();
        let mut compared = 0;
        for round in 0..120 {
            let n = 5 + rng.below(if round % 10 == 0 { 600 } else { 120 });
            let source: String = (0..n).map(|_| rng.pick(&pieces)).collect();
            let format = [Format::Markdown, Format::Html, Format::PlainText][round % 3];
            let Ok(doc) = Document::new(&source, Some(format)) else { continue };
            let norm = doc.index(profile).normalized();
            let text = norm.as_str();
            let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            for _ in 0..40 {
                let (a, b) = (bounds[rng.below(bounds.len())], bounds[rng.below(bounds.len())]);
                let (s, e) = (a.min(b), a.max(b));
                for unique in [true, false] {
                    let fast = text_fragment_with(&doc, norm, (s, e), unique, profile, true);
                    let slow = text_fragment_with(&doc, norm, (s, e), unique, profile, false);
                    assert_eq!(fast, slow, "{source:?} {s}..{e} unique {unique}");
                    compared += usize::from(!fast.is_empty());
                }
                let all = words(text, s, e, usize::MAX);
                for limit in [0, 1, 3, 7] {
                    assert_eq!(words(text, s, e, limit), all.iter().take(limit).copied().collect::<Vec<_>>());
                    let tail = all.get(all.len().saturating_sub(limit)..).unwrap_or(&[]);
                    assert_eq!(last_words(text, s, e, limit), tail, "{text:?} {s}..{e}");
                }
                assert_eq!(last_words(text, s, e, usize::MAX), all);
                let ranges: Vec<(usize, usize)> = all.clone();
                let one_by_one: Vec<_> = ranges.iter().map(|&(x, y)| norm.original_range(x, y)).collect();
                assert_eq!(norm.original_ranges(&ranges), one_by_one);
                // not ascending: looked up on their own, the same answers
                let rev: Vec<(usize, usize)> = ranges.iter().rev().copied().collect();
                let rev_one: Vec<_> = rev.iter().map(|&(x, y)| norm.original_range(x, y)).collect();
                assert_eq!(norm.original_ranges(&rev), rev_one);
            }
        }
        assert!(compared > 2000, "too few links compared: {compared}");
    }

    #[test]
    fn affixes_count_code_points() {
        let s = "😀😀😀abc";
        assert_eq!(chars_before(s, 12, 2), "😀😀");
        assert_eq!(chars_after(s, 0, 4), "😀😀😀a");
        assert_eq!(chars_before(s, 0, 5), "");
    }
}
