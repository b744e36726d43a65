//! Text normalization with an offset map back to the original (spec 000 §3.3,
//! extended as issue 2 asks).
//!
//! Quotes and documents are compared in a normalized form: Unicode NFKC
//! (which also expands ligatures such as `ﬁ`, turns NBSP into a space and `…`
//! into `...`), case folding, curly quotes and primes to straight quotes, every
//! dash to `-`, soft hyphens and zero-width characters removed, whitespace runs
//! collapsed to one space, and a word hyphenated across a line break joined
//! again (`evi-\ndence` becomes `evidence`).
//!
//! Every byte of the normalized text remembers the byte range of the original
//! text it came from, so a match found in the normalized text is reported as a
//! span of the original. NFKC is applied per cluster (a starter followed by its
//! combining marks), so a composed character maps to all the original
//! characters it was made from.

use crate::extract::units::Unit;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::UnicodeNormalization;

/// Which normalizations apply. NFKC, quote, dash and invisible-character
/// folding always apply; case and whitespace follow the `exact_matching`
/// configuration of spec 000 §1.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Lowercase everything (`case_sensitive: false`).
    pub fold_case: bool,
    /// Collapse whitespace runs to one space and join words hyphenated across
    /// a line break (`normalize_whitespace: true`).
    pub collapse_whitespace: bool,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile { fold_case: true, collapse_whitespace: true }
    }
}

/// A normalized text and, for each of its bytes, the original byte range it
/// came from.
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    text: String,
    starts: Vec<u32>,
    ends: Vec<u32>,
}

impl Normalized {
    /// Normalizes `units` (extracted text that knows its original offsets).
    pub fn from_units<I: IntoIterator<Item = Unit>>(units: I, profile: Profile) -> Normalized {
        let units = units.into_iter();
        let hint = units.size_hint().0;
        let mut sink = MapSink { text: String::with_capacity(hint), starts: Vec::with_capacity(hint), ends: Vec::with_capacity(hint) };
        normalize_into(units, profile, false, &mut sink);
        Normalized { text: sink.text, starts: sink.starts, ends: sink.ends }
    }

    /// Normalizes a plain string whose own byte offsets are the original ones.
    pub fn from_plain(text: &str, profile: Profile) -> Normalized {
        Normalized::from_units(plain_units(text), profile)
    }

    /// The normalized text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The original byte range of the non-empty normalized byte range
    /// `start..end`. `None` when the range is empty or out of bounds.
    pub fn original_range(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        if start >= end || end > self.text.len() {
            return None;
        }
        let s = *self.starts.get(start)? as usize;
        let e = *self.ends.get(end - 1)? as usize;
        (s < e).then_some((s, e))
    }

    /// Bytes of memory held (text and maps), for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity() + 4 * (self.starts.capacity() + self.ends.capacity())
    }
}

/// Normalizes a string without keeping the offset map: the form a quote is
/// compared in. Leading and trailing whitespace is trimmed.
pub fn normalize_str(text: &str, profile: Profile) -> String {
    normalize_units(plain_units(text), profile)
}

/// Normalizes units without keeping the offset map, trimming whitespace.
pub fn normalize_units<I: IntoIterator<Item = Unit>>(units: I, profile: Profile) -> String {
    let mut sink = TextSink::default();
    normalize_into(units, profile, true, &mut sink);
    sink.0
}

/// The units of a plain string: each char maps to its own bytes.
pub fn plain_units(text: &str) -> impl Iterator<Item = Unit> + '_ {
    text.char_indices().map(|(i, ch)| Unit {
        ch,
        start: i as u32,
        end: (i + ch.len_utf8()) as u32,
    })
}

/// Where normalized chars go.
trait Sink {
    fn push(&mut self, ch: char, start: u32, end: u32);
}

#[derive(Default)]
struct MapSink {
    text: String,
    starts: Vec<u32>,
    ends: Vec<u32>,
}

impl Sink for MapSink {
    fn push(&mut self, ch: char, start: u32, end: u32) {
        self.text.push(ch);
        for _ in 0..ch.len_utf8() {
            self.starts.push(start);
            self.ends.push(end);
        }
    }
}

#[derive(Default)]
struct TextSink(String);

impl Sink for TextSink {
    fn push(&mut self, ch: char, _start: u32, _end: u32) {
        self.0.push(ch);
    }
}

/// Runs clustering, NFKC and char folding, feeding the whitespace/hyphen
/// stage.
fn normalize_into<I: IntoIterator<Item = Unit>, S: Sink>(units: I, profile: Profile, trim: bool, sink: &mut S) {
    let mut out = Joiner::new(profile, trim, sink);
    // the pending cluster: its starter, range, and combining marks (rare)
    let mut pending: Option<Unit> = None;
    let mut marks = String::new();
    for unit in units {
        let is_mark = !unit.ch.is_ascii() && canonical_combining_class(unit.ch) != 0;
        if is_mark {
            if let Some(p) = pending.as_mut() {
                marks.push(unit.ch);
                p.end = unit.end.max(p.end);
                continue;
            }
        }
        if let Some(p) = pending.take() {
            emit_cluster(p, &marks, &mut out);
            marks.clear();
        }
        pending = Some(unit);
    }
    if let Some(p) = pending {
        emit_cluster(p, &marks, &mut out);
    }
    out.finish();
}

/// Emits a starter and its combining marks, NFKC-normalized (ASCII alone
/// needs no normalization).
fn emit_cluster<S: Sink>(starter: Unit, marks: &str, out: &mut Joiner<'_, S>) {
    let lower = starter.ch.is_lowercase();
    if marks.is_empty() && starter.ch.is_ascii() {
        out.push_folded(starter.ch, starter.start, starter.end, lower);
        return;
    }
    let mut cluster = String::with_capacity(4 + marks.len());
    cluster.push(starter.ch);
    cluster.push_str(marks);
    for c in cluster.nfkc() {
        out.push_folded(c, starter.start, starter.end, lower);
    }
}

/// The folded form of one NFKC char: `None` removes it.
fn fold_char(c: char) -> Option<char> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' | '\u{2039}' | '\u{203A}'
        | '\u{0060}' | '\u{00B4}' | '\u{FF07}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}' | '\u{00AB}' | '\u{00BB}'
        | '\u{301D}' | '\u{301E}' => '"',
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' | '\u{2E3A}'
        | '\u{2E3B}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
        // zero-width space, word joiner, BOM, zero-width non-joiner; not ZWJ,
        // which binds emoji sequences.
        '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{200C}' => return None,
        c => c,
    })
}

/// The whitespace and hyphenation stage: collapses whitespace runs, joins a
/// word hyphenated across a line break, drops soft hyphens, and trims when
/// asked.
struct Joiner<'s, S: Sink> {
    profile: Profile,
    trim: bool,
    sink: &'s mut S,
    /// The last char written to the sink was alphabetic.
    after_letter: bool,
    wrote_any: bool,
    /// A whitespace run not yet written: its range and whether it holds a line break.
    space: Option<(u32, u32, bool)>,
    /// A hyphen after a letter, not yet written: its range and whether it is soft.
    hyphen: Option<(u32, u32, bool)>,
}

impl<'s, S: Sink> Joiner<'s, S> {
    fn new(profile: Profile, trim: bool, sink: &'s mut S) -> Self {
        Joiner { profile, trim, sink, after_letter: false, wrote_any: false, space: None, hyphen: None }
    }

    /// Folds one NFKC char (quotes, dashes, case) and pushes the result.
    /// `lower` says whether the original cluster started with a lowercase
    /// letter (only such a word continues a hyphenated one).
    fn push_folded(&mut self, c: char, start: u32, end: u32, lower: bool) {
        if c == '\u{00AD}' {
            if self.profile.collapse_whitespace && self.after_letter && self.hyphen.is_none() && self.space.is_none() {
                self.hyphen = Some((start, end, true));
            }
            return;
        }
        if c.is_ascii_alphanumeric() {
            let c = if self.profile.fold_case { c.to_ascii_lowercase() } else { c };
            self.push(c, start, end, lower, false);
            return;
        }
        // only a hyphen can join a word broken across lines, not a dash
        let hyphen = matches!(c, '-' | '\u{2010}' | '\u{2011}');
        let Some(c) = fold_char(c) else { return };
        if self.profile.fold_case && !c.is_lowercase() && c.is_alphabetic() {
            for l in c.to_lowercase() {
                self.push(l, start, end, lower, false);
            }
        } else {
            self.push(c, start, end, lower, hyphen);
        }
    }

    fn push(&mut self, c: char, start: u32, end: u32, lower: bool, hyphen: bool) {
        if !self.profile.collapse_whitespace {
            self.write(c, start, end);
            return;
        }
        if c.is_whitespace() {
            let newline = c == '\n' || c == '\r' || c == '\u{2028}' || c == '\u{2029}';
            self.space = Some(match self.space {
                Some((s, _, nl)) => (s, end, nl || newline),
                None => (start, end, newline),
            });
            return;
        }
        if let Some((hs, he, soft)) = self.hyphen.take() {
            let space = self.space.take();
            let line_broken = space.is_some_and(|(_, _, nl)| nl);
            let joins = line_broken && lower && c.is_alphabetic();
            if !joins {
                if !soft {
                    self.write('-', hs, he);
                }
                if let Some((s, e, _)) = space {
                    self.write(' ', s, e);
                }
            }
        } else if let Some((s, e, _)) = self.space.take() {
            if self.wrote_any || !self.trim {
                self.write(' ', s, e);
            }
        }
        if hyphen && self.after_letter {
            self.hyphen = Some((start, end, false));
            return;
        }
        self.write(c, start, end);
    }

    fn write(&mut self, c: char, start: u32, end: u32) {
        self.sink.push(c, start, end);
        self.after_letter = c.is_alphabetic();
        self.wrote_any = true;
    }

    fn finish(mut self) {
        if let Some((s, e, soft)) = self.hyphen.take() {
            if !soft {
                self.write('-', s, e);
            }
        }
        if let Some((s, e, _)) = self.space.take() {
            if !self.trim {
                self.write(' ', s, e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        normalize_str(s, Profile::default())
    }

    /// The original text behind the whole normalized range of `needle`.
    fn original_of(doc: &str, needle: &str) -> String {
        let n = Normalized::from_plain(doc, Profile::default());
        let pos = n.as_str().find(&norm(needle)).expect("needle in normalized text");
        let (s, e) = n.original_range(pos, pos + norm(needle).len()).unwrap();
        doc[s..e].to_string()
    }

    #[test]
    fn folds_case_whitespace_quotes_dashes() {
        assert_eq!(norm("  The  \u{201C}Quick\u{201D}\t\r\nfox\u{2014}it\u{2019}s  "), "the \"quick\" fox-it's");
    }

    #[test]
    fn nfkc_expands_ligatures_ellipsis_and_nbsp() {
        assert_eq!(norm("e\u{FB03}cient\u{00A0}and\u{2026}"), "efficient and...");
        assert_eq!(norm("\u{FB01}nal"), "final");
    }

    #[test]
    fn combining_marks_compose() {
        assert_eq!(norm("Cafe\u{0301}"), norm("Caf\u{00E9}"));
        assert_eq!(original_of("a cafe\u{0301} b", "café"), "cafe\u{0301}");
    }

    #[test]
    fn hyphenation_across_line_break_joins() {
        assert_eq!(norm("the evi-\ndence shows"), "the evidence shows");
        assert_eq!(norm("the evi-  \r\n   dence"), "the evidence");
        assert_eq!(norm("evi\u{00AD}\ndence"), "evidence");
        assert_eq!(norm("evi\u{00AD}dence"), "evidence");
        assert_eq!(norm("a \u{00AD}b"), "a b");
        // not across a line break, or before a capital or digit: a real hyphen
        assert_eq!(norm("well-known"), "well-known");
        assert_eq!(norm("pre- and post-war"), "pre- and post-war");
        assert_eq!(norm("Paris-\nBerlin"), "paris- berlin");
        assert_eq!(norm("1990-\n2000"), "1990- 2000");
        assert_eq!(norm("word\u{2014}\nnext"), "word- next");
        assert_eq!(original_of("the evi-\ndence shows", "evidence"), "evi-\ndence");
    }

    #[test]
    fn span_of_ligature_covers_whole_ligature() {
        assert_eq!(original_of("an of\u{FB01}ce", "office"), "of\u{FB01}ce");
    }

    #[test]
    fn case_and_whitespace_can_be_kept() {
        let p = Profile { fold_case: false, collapse_whitespace: false };
        assert_eq!(normalize_str("A  \u{2018}b\u{2019}", p), "A  'b'");
    }

    #[test]
    fn emoji_and_cjk_pass_through() {
        assert_eq!(norm("Hi 👍🏽 中文"), "hi 👍🏽 中文");
        assert_eq!(original_of("x 家族👨\u{200D}👩\u{200D}👧 y", "家族👨\u{200D}👩\u{200D}👧"), "家族👨\u{200D}👩\u{200D}👧");
    }

    #[test]
    fn map_is_monotonic() {
        let doc = "A\u{FB01}  b\u{0301}\r\nevi-\nd\u{00AD}x \u{201C}q\u{201D}";
        let n = Normalized::from_plain(doc, Profile::default());
        for w in n.starts.windows(2) {
            assert!(w[0] <= w[1]);
        }
        for w in n.ends.windows(2) {
            assert!(w[0] <= w[1]);
        }
        for (s, e) in n.starts.iter().zip(&n.ends) {
            assert!(s < e && doc.is_char_boundary(*s as usize) && doc.is_char_boundary(*e as usize));
        }
    }
}
