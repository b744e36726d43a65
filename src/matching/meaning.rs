//! The meaning guard (issue 12): VALIDATED means the source says this.
//!
//! An edit distance counts characters, not what they change: `his` for
//! `her` or `2.3.0` for `2.3.1` costs one edit and changes the claim. So a
//! passage found by the fuzzy or token matcher is compared with the quote
//! word by word, and every difference is classified:
//!
//! - **cosmetic**: letter case, punctuation, a hyphen against a space or
//!   nothing (`e-mail`, `e mail`, `email`), a number written differently but
//!   equal in value (`1,000` and `1000`), or a quote that itself starts or
//!   ends inside a word (`ocol is` from `protocol is`, when `ocol` is not a
//!   word);
//! - **typo**: a small edit inside one word whose quoted form is not itself a
//!   word (not in the source's vocabulary, not in the English word list of
//!   [`crate::text::lexicon`]): `recieve`, `managment`, `teh`;
//! - **substitution**: anything else. Closed-class words (pronouns,
//!   determiners, prepositions, modals, numbers, units, …), names and
//!   acronyms (capitalized mid-sentence, all caps, inner dots), added or
//!   removed prefixes (`un-`, `co-`, …) and anything with a digit are never
//!   typos.
//!
//! A passage with any substitution is not the quote. The caller turns each
//! substitution into a discrepancy: [`Change::Number`] (a digit, number,
//! unit or scale anywhere), [`Change::Negation`] (a negation word or an
//! antonym prefix) or [`Change::Word`].
//!
//! The comparison works on the normalized texts the matchers searched (so
//! curly quotes, dashes, ligatures and the like are already equal) and reads
//! letter case from the original text through the normalizer's map.
//!
//! Cost: tokens of both sides and one banded alignment, `O((n + m) · w)` for
//! `n` and `m` tokens and a band of `w` (at most [`MAX_BAND`]); passages are
//! bounded by the quote's length, never a document.

use crate::text::lexicon::{self, WordClass};
use crate::text::quantity;
use crate::text::tokens;
use crate::text::Normalized;
use serde::Serialize;
use std::cell::Cell;

/// Widest band of the word alignment, in tokens either side of the
/// diagonal (plus the difference of the two lengths). A passage further
/// out of step than this is compared as one changed stretch: refused, never
/// accepted.
pub const MAX_BAND: usize = 16;

/// Prefixes whose addition or removal changes a word's meaning. The first
/// eight negate (`legal`/`illegal`): [`Change::Negation`].
const PREFIXES: &[&str] = &["un", "in", "im", "il", "ir", "dis", "non", "anti", "co", "ex", "re", "pre", "post"];
const NEGATING_PREFIXES: usize = 8;

/// Prefixes that stand against each other (`import`/`export`,
/// `encrypt`/`decrypt`, `include`/`exclude`, `overstate`/`understate`,
/// `upload`/`download`): a word whose prefix was swapped for its opposite is
/// another word even when the quoted form is in no word list, so it is never
/// a typo. A curated list of pairs, not any two prefixes: `bifferent` for
/// `different` is a slip of one letter, not `bi-` for `di-`.
const OPPOSED_PREFIXES: &[(&str, &str)] = &[
    ("in", "ex"),
    ("im", "ex"),
    ("in", "out"),
    ("in", "de"),
    ("en", "de"),
    ("em", "de"),
    ("en", "dis"),
    ("inc", "dec"),
    ("inter", "intra"),
    ("inter", "extra"),
    ("over", "under"),
    ("up", "down"),
    ("pre", "post"),
    ("pro", "anti"),
    ("pro", "con"),
    ("super", "sub"),
    ("macro", "micro"),
    ("maxi", "mini"),
    ("max", "min"),
    ("hyper", "hypo"),
    ("mono", "poly"),
    ("mono", "multi"),
    ("uni", "multi"),
    ("uni", "bi"),
    ("bi", "tri"),
];

/// Shortest stem two opposed prefixes must share (`fix` of
/// `prefix`/`postfix`).
const MIN_SWAPPED_STEM: usize = 3;

/// A text compared: a byte range of a normalized text, whose map leads back
/// to `original` (for letter case).
#[derive(Clone, Copy)]
pub struct Side<'a> {
    /// The whole normalized text (a document's, or a quote's).
    pub normalized: &'a Normalized,
    /// The text `normalized` was made from.
    pub original: &'a str,
    /// Byte range compared, in `normalized`.
    pub start: usize,
    /// End of that range.
    pub end: usize,
}

/// How a difference is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EditKind {
    /// Changes nothing a reader would take differently.
    Cosmetic,
    /// A misspelling of the source's word.
    Typo,
    /// A different word, number, name or negation.
    Substitution,
}

/// What a substitution changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// A digit, number, unit or scale word.
    Number,
    /// A negation word or an antonym prefix.
    Negation,
    /// Any other word.
    Word,
}

impl Change {
    /// Its name in reports: `number`, `negation` or `word` (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Number => "number",
            Change::Negation => "negation",
            Change::Word => "word",
        }
    }
}

/// One difference between the quote and the passage, as byte ranges of the
/// two normalized texts (either may be empty: an insertion or deletion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Cosmetic, typo or substitution.
    pub kind: EditKind,
    /// For substitutions: what changed.
    pub change: Option<Change>,
    /// Why, in a few words (`"hyphenation"`, `"typo"`, `"pronoun"`, …).
    pub why: &'static str,
    /// Range in the quote's normalized text.
    pub quote: (usize, usize),
    /// Range in the source's normalized text.
    pub source: (usize, usize),
}

/// Word lookups the comparison needs from its caller.
pub trait Words {
    /// Whether the source document has `word` (lowercase) as a token.
    fn in_source(&self, word: &str) -> bool;
}

impl<F: Fn(&str) -> bool> Words for F {
    fn in_source(&self, word: &str) -> bool {
        self(word)
    }
}

/// A token of one side.
#[derive(Debug, Clone)]
struct Tok {
    start: usize,
    end: usize,
    key: String,
    digits: bool,
    /// The token is the quote's first word (which begins a sentence, as
    /// far as capitals go); other tokens are asked [`begins_sentence`].
    sentence_start: bool,
    /// [`lexicon::is_english_word`] of `key`, once asked.
    english: Cell<Option<bool>>,
    /// [`Tok::is_word`], once asked (a comparison has one [`Words`]).
    word: Cell<Option<bool>>,
}

impl Tok {
    /// Whether the key is an English word: asked of the word list once per
    /// token, however many stretches and candidates' checks ask it.
    fn is_english(&self) -> bool {
        if let Some(known) = self.english.get() {
            return known;
        }
        let known = lexicon::is_english_word(&self.key);
        self.english.set(Some(known));
        known
    }

    /// Whether the key (lowercase) is a word of the source or of English,
    /// or a name of the word lists; asked once per token.
    fn is_word(&self, words: &dyn Words) -> bool {
        if let Some(known) = self.word.get() {
            return known;
        }
        let known = self.is_english() || lexicon::is_name(&self.key) || words.in_source(&self.key);
        self.word.set(Some(known));
        known
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Lower,
    Capitalized,
    AllCaps,
}

/// The tokens of `side`, whole words: a token cut by the range's edge is
/// taken whole, and `cut_start` / `cut_end` say whether that happened.
struct Tokens {
    toks: Vec<Tok>,
    cut_start: bool,
    cut_end: bool,
}

fn side_tokens(side: &Side, first_is_sentence_start: bool) -> Tokens {
    let text = side.normalized.as_str();
    let (start, end) = (side.start.min(text.len()), side.end.min(text.len()));
    // widen to whole words: tokens are at most this long in practice; a
    // longer run is compared as cut (refused when it differs)
    let from = floor_boundary(text, start.saturating_sub(WORD_REACH));
    let to = ceil_boundary(text, end.saturating_add(WORD_REACH).min(text.len()));
    let window = text.get(from..to).unwrap_or("");
    let mut toks = Vec::new();
    let (mut cut_start, mut cut_end) = (false, false);
    tokens::for_each_token(window, |t| {
        let (s, e) = (from + t.start as usize, from + t.end as usize);
        if e <= start || s >= end {
            return;
        }
        cut_start |= s < start;
        cut_end |= e > end;
        let raw = text.get(s..e).unwrap_or("");
        let key = raw.to_lowercase();
        let digits = raw.bytes().any(|b| b.is_ascii_digit());
        // whether a sentence starts here is asked only of capitalized words
        let sentence_start = toks.is_empty() && s >= start && first_is_sentence_start;
        let (english, word) = (Cell::new(None), Cell::new(None));
        toks.push(Tok { start: s, end: e, key, digits, sentence_start, english, word });
    });
    Tokens { toks, cut_start, cut_end }
}

/// Bytes looked at beyond a range's edge for the rest of a cut word.
const WORD_REACH: usize = 64;

pub(crate) fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Letter case of the original text behind normalized `s..e`.
fn case_of(side: &Side, s: usize, e: usize) -> Case {
    let Some((os, oe)) = side.normalized.original_range(s, e) else {
        return Case::Lower;
    };
    let orig = side.original.get(os..oe).unwrap_or("");
    let mut letters = orig.chars().filter(|c| c.is_alphabetic());
    let Some(first) = letters.next() else {
        return Case::Lower;
    };
    if !first.is_uppercase() {
        return Case::Lower;
    }
    let (mut upper, mut total) = (1, 1);
    for c in letters {
        total += 1;
        upper += usize::from(c.is_uppercase());
    }
    if total >= 2 && upper == total {
        Case::AllCaps
    } else {
        Case::Capitalized
    }
}

/// Whether the token at normalized byte `at` of `side` begins a sentence:
/// only spaces, quotes, brackets, symbols and emoji between it and the start
/// of the text or a sentence end (`.`, `!`, `?`, `:` followed by a space, a
/// line break, a CJK full stop), read in the original text.
fn begins_sentence(side: &Side, at: usize) -> bool {
    // read in the original: the normalizer turns a line break into a space
    let orig_at = side.normalized.original_of_byte(at).map_or(0, |r| r.0);
    let head = side.original.get(..orig_at).unwrap_or("");
    let mut saw_space = false;
    for c in head.chars().rev().take(WORD_REACH) {
        match c {
            '\n' | '\r' | '。' | '！' | '？' => return true,
            c if c.is_whitespace() => saw_space = true,
            '.' | '!' | '?' | ':' => return saw_space,
            c if c.is_alphanumeric() || c == ',' || c == ';' => return false,
            // quotes, brackets, markup, dashes, emoji and other symbols
            _ => {}
        }
    }
    true
}

/// The result of comparing a quote with a passage.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// Every difference found, in quote order.
    pub edits: Vec<Edit>,
    /// The passage's range widened to the source's word boundaries, where
    /// the quote does not itself start or end inside a word.
    pub snapped: (usize, usize),
}

impl Comparison {
    #[cfg(test)]
    /// Whether every difference is cosmetic or a typo.
    pub fn is_faithful(&self) -> bool {
        self.edits.iter().all(|e| e.kind != EditKind::Substitution)
    }
}

/// Compares `quote` (a claim's quote) with `source` (a passage a matcher
/// found for it) word by word. With `word_forms` (claims that are not
/// verbatim: paraphrases, concept references) another form of the same word
/// (`authenticate` for `authentication`, by [`tokens::stem`]) is cosmetic.
pub fn compare(quote: &Side, source: &Side, words: &dyn Words, word_forms: bool) -> Comparison {
    let q = side_tokens(quote, true);
    let s = side_tokens(source, false);
    let mut out = Comparison { edits: Vec::new(), snapped: (source.start, source.end) };
    let ops = align(&q.toks, &s.toks);
    let mut i = 0;
    while let Some(op) = ops.get(i) {
        if let Op::Same(qi, si) = *op {
            // letter case, like curly quotes, is folded by the normalizer
            // and not listed word by word
            if let Some(Op::Same(qn, sn)) = ops.get(i + 1) {
                separator_edit(quote, source, &q.toks, &s.toks, (qi, si), (*qn, *sn), &mut out.edits);
            }
            i += 1;
            continue;
        }
        // a maximal run of differing tokens
        let mut j = i;
        let (mut qs, mut ss) = (Vec::new(), Vec::new());
        while let Some(op) = ops.get(j) {
            match *op {
                Op::Same(..) => break,
                Op::Sub(a, b) => {
                    qs.push(a);
                    ss.push(b);
                }
                Op::Ins(b) => ss.push(b),
                Op::Del(a) => qs.push(a),
            }
            j += 1;
        }
        let at_start = i == 0;
        let at_end = j == ops.len();
        let qt: Vec<&Tok> = qs.iter().filter_map(|&k| q.toks.get(k)).collect();
        let st: Vec<&Tok> = ss.iter().filter_map(|&k| s.toks.get(k)).collect();
        let region = Region { quote, source, q: &qt, s: &st, words, word_forms };
        let edge =
            (at_start && q.cut_start_ok(&s, &qt, &st, words, true)) || (at_end && q.cut_end_ok(&s, &qt, &st, words));
        if edge {
            out.edits.push(region.partial_edge());
        } else {
            out.edits.extend(region.classify_all());
        }
        i = j;
    }
    let typos: Vec<((usize, usize), (usize, usize))> =
        out.edits.iter().filter(|e| e.kind == EditKind::Typo).map(|e| (e.quote, e.source)).collect();
    if quantity_mismatch(quote, source, &typos) && out.edits.iter().all(|e| e.change != Some(Change::Number)) {
        out.edits.push(Edit {
            kind: EditKind::Substitution,
            change: Some(Change::Number),
            why: "number value",
            quote: (quote.start, quote.end),
            source: (source.start, source.end),
        });
    }
    // snap the reported span to whole words unless the quote is cut itself
    let keeps_cut_start = out.edits.first().is_some_and(|e| e.why == "quote starts inside a word");
    let keeps_cut_end = out.edits.last().is_some_and(|e| e.why == "quote ends inside a word");
    if let (Some(first), Some(last)) = (s.toks.first(), s.toks.last()) {
        if s.cut_start && !keeps_cut_start {
            out.snapped.0 = first.start.min(source.start);
        }
        if s.cut_end && !keeps_cut_end {
            out.snapped.1 = last.end.max(source.end);
        }
    }
    out
}

impl Tokens {
    /// Whether a differing first stretch is only the quote starting inside
    /// the source's first word: one token, a suffix of it, not a word, no
    /// digits.
    fn cut_start_ok(&self, s: &Tokens, qt: &[&Tok], st: &[&Tok], words: &dyn Words, _start: bool) -> bool {
        s.cut_start && partial_of(qt, st, words, |whole, part| whole.ends_with(part))
    }

    /// The same at the end: a prefix of the source's last word.
    fn cut_end_ok(&self, s: &Tokens, qt: &[&Tok], st: &[&Tok], words: &dyn Words) -> bool {
        s.cut_end && partial_of(qt, st, words, |whole, part| whole.starts_with(part))
    }
}

fn partial_of(qt: &[&Tok], st: &[&Tok], words: &dyn Words, fits: impl Fn(&str, &str) -> bool) -> bool {
    let ([q], [s]) = (qt, st) else { return false };
    !q.digits && !s.digits && q.key.len() < s.key.len() && fits(&s.key, &q.key) && !q.is_word(words)
}

/// One stretch of differing tokens.
struct Region<'r, 'a> {
    quote: &'r Side<'a>,
    source: &'r Side<'a>,
    q: &'r [&'r Tok],
    s: &'r [&'r Tok],
    words: &'r dyn Words,
    word_forms: bool,
}

impl Region<'_, '_> {
    fn ranges(&self) -> ((usize, usize), (usize, usize)) {
        let span = |t: &[&Tok], at: usize| match (t.first(), t.last()) {
            (Some(a), Some(b)) => (a.start, b.end),
            _ => (at, at),
        };
        let q_at = self.quote.start;
        let s_at = self.source.start;
        (span(self.q, q_at), span(self.s, s_at))
    }

    fn edit(&self, kind: EditKind, change: Option<Change>, why: &'static str) -> Edit {
        let (quote, source) = self.ranges();
        Edit { kind, change, why, quote, source }
    }

    fn partial_edge(&self) -> Edit {
        let why = if self.q.first().map(|t| t.start) == Some(self.quote.start)
            && self.s.first().is_some_and(|t| t.start < self.source.start)
        {
            "quote starts inside a word"
        } else {
            "quote ends inside a word"
        };
        self.edit(EditKind::Cosmetic, None, why)
    }

    /// The stretch's edits: as a whole, or word by word when it is as many
    /// words on each side and each of them alone is only a typo or cosmetic
    /// (`uslng lhem` for `using them`: two typos, not a changed phrase).
    fn classify_all(&self) -> Vec<Edit> {
        let whole = self.classify();
        if whole.kind != EditKind::Substitution || self.q.len() != self.s.len() || self.q.len() < 2 {
            return vec![whole];
        }
        let mut each = Vec::with_capacity(self.q.len());
        for (q, s) in self.q.iter().zip(self.s) {
            let one = Region { q: std::slice::from_ref(q), s: std::slice::from_ref(s), ..*self };
            let edit = one.classify();
            if edit.kind == EditKind::Substitution {
                return vec![whole];
            }
            each.push(edit);
        }
        each
    }

    fn classify(&self) -> Edit {
        let q_join: String = self.q.iter().map(|t| t.key.as_str()).collect();
        let s_join: String = self.s.iter().map(|t| t.key.as_str()).collect();
        let digits = self.q.iter().chain(self.s).any(|t| t.digits);
        let dotted =
            self.q.iter().any(|t| inner_dot(self.quote, t)) || self.s.iter().any(|t| inner_dot(self.source, t));
        if dotted && !digits {
            return self.edit(EditKind::Substitution, Some(Change::Word), "name");
        }
        if let ([q], [s]) = (self.q, self.s) {
            if !digits && spelling_variants(&q.key, &s.key) {
                return self.edit(EditKind::Cosmetic, None, "spelling");
            }
        }
        let numeric = digits
            || self
                .q
                .iter()
                .chain(self.s)
                .any(|t| lexicon::closed_class(&t.key).is_some_and(lexicon::is_number_or_unit_class));
        if numeric {
            return self.numeric_edit(digits);
        }
        if q_join == s_join && !q_join.is_empty() {
            return self.split_edit();
        }
        if !q_join.is_empty()
            && crate::text::unicode::strip_marks(&q_join) == crate::text::unicode::strip_marks(&s_join)
        {
            return self.edit(EditKind::Cosmetic, None, "accents");
        }
        if self.word_forms && self.same_stems() {
            return self.edit(EditKind::Cosmetic, None, "word form");
        }
        if let Some(why) = self.prefix_change() {
            let change = if why == "negating prefix" { Change::Negation } else { Change::Word };
            return self.edit(EditKind::Substitution, Some(change), why);
        }
        // a misspelt negation (canot) is a typo, not a dropped negation
        if let Some(typo) = self.misspelt_word() {
            return typo;
        }
        if let Some(neg) = self.negation_change() {
            return self.edit(EditKind::Substitution, Some(Change::Negation), neg);
        }
        match (self.q, self.s) {
            ([q], [s]) => self.one_word(q, s),
            _ => self.edit(
                EditKind::Substitution,
                Some(Change::Word),
                if self.q.is_empty() || self.s.is_empty() { "word added or dropped" } else { "words" },
            ),
        }
    }

    /// A region with numbers (digits, number words, units): cosmetic when
    /// both sides say the same numbers, else a changed number, unless one
    /// misspelt number word or unit (fisrt, secodns) is a typo.
    fn numeric_edit(&self, digits: bool) -> Edit {
        let (qr, sr) = self.ranges();
        let qt = self.quote.normalized.as_str().get(qr.0..qr.1).unwrap_or("");
        let st = self.source.normalized.as_str().get(sr.0..sr.1).unwrap_or("");
        if same_numbers(qt, st) {
            return self.edit(EditKind::Cosmetic, None, "number written differently");
        }
        if !digits {
            if let Some(typo) = self.misspelt_word() {
                return typo;
            }
        }
        self.edit(EditKind::Substitution, Some(Change::Number), "number")
    }

    /// The same letters split differently: hyphens are cosmetic (e-mail,
    /// email); a space (a part, apart) is a typo only when what the quote
    /// wrote is not a word.
    fn split_edit(&self) -> Edit {
        if self.hyphen_split() {
            return self.edit(EditKind::Cosmetic, None, "hyphenation");
        }
        if let [one] = self.q {
            if !one.is_word(self.words) && !self.names() {
                return self.edit(EditKind::Typo, None, "missing space");
            }
        }
        self.edit(EditKind::Substitution, Some(Change::Word), "words joined or split")
    }

    /// One quoted word that is not a word, for one source word: the typo
    /// edit when [`Region::one_word`] judges it a typo.
    fn misspelt_word(&self) -> Option<Edit> {
        let ([q], [s]) = (self.q, self.s) else {
            return None;
        };
        if q.is_word(self.words) {
            return None;
        }
        let edit = self.one_word(q, s);
        (edit.kind == EditKind::Typo).then_some(edit)
    }

    /// One word for another.
    fn one_word(&self, q: &Tok, s: &Tok) -> Edit {
        if self.names() {
            return self.edit(EditKind::Substitution, Some(Change::Word), "name");
        }
        let qc = lexicon::closed_class(&q.key);
        let sc = lexicon::closed_class(&s.key);
        if q.is_word(self.words) {
            let why = match qc.or(sc) {
                Some(c) => class_name(c),
                None => "word",
            };
            return self.edit(EditKind::Substitution, Some(Change::Word), why);
        }
        let distance = osa(&q.key, &s.key);
        let allowed = if sc.is_some() {
            // a misspelt function word: one slip (teh, hte)
            1
        } else {
            typo_budget(s.key.chars().count())
        };
        // a misspelt number word or unit must not be one slip from another
        // (`sixt`: six or sixth?); a misspelt function word not one slip
        // from a function word of another class (`nto`: not, or to?) unless
        // the slip is two letters swapped (`teh`)
        let near = |w: &str| within_one(&q.key, w);
        let ambiguous = || match sc {
            Some(c) if lexicon::is_number_or_unit_class(c) => lexicon::closed_words_near(q.key.len())
                .any(|(w, wc)| lexicon::is_number_or_unit_class(wc) && w != s.key && near(w)),
            Some(c) => {
                !is_transposition(&q.key, &s.key)
                    && lexicon::closed_words_near(q.key.len()).any(|(w, wc)| wc != c && w != s.key && near(w))
            }
            None => false,
        };
        if distance <= allowed && !ambiguous() {
            self.edit(EditKind::Typo, None, "typo")
        } else {
            self.edit(EditKind::Substitution, Some(Change::Word), "word")
        }
    }

    /// One word for one word each, every pair another form of the same
    /// content word.
    fn same_stems(&self) -> bool {
        self.q.len() == self.s.len()
            && self.q.iter().zip(self.s).all(|(a, b)| {
                lexicon::closed_class(&a.key).is_none()
                    && lexicon::closed_class(&b.key).is_none()
                    && tokens::stem(&a.key) == tokens::stem(&b.key)
            })
    }

    /// Whether any token of the stretch is a name or acronym: all caps,
    /// capitalized mid-sentence, or between dots (`U.K.`); in the source
    /// also capitalized at a sentence start but not an English word. (A
    /// quote's misspelt first word, `Teh`, is not a name.)
    fn names(&self) -> bool {
        let named = |t: &Tok, side: &Side, is_source: bool| {
            inner_dot(side, t)
                || match case_of(side, t.start, t.end) {
                    Case::AllCaps => true,
                    Case::Capitalized => {
                        let starts = t.sentence_start || begins_sentence(side, t.start);
                        !starts || (is_source && !t.is_english())
                    }
                    Case::Lower => false,
                }
        };
        self.q.iter().any(|t| named(t, self.quote, false)) || self.s.iter().any(|t| named(t, self.source, true))
    }

    /// The quote's tokens are split by hyphens where the source's are not,
    /// or the other way round (or the source's by hyphens, the quote's by
    /// spaces).
    fn hyphen_split(&self) -> bool {
        let joined_by_hyphens = |side: &Side, toks: &[&Tok]| {
            toks.windows(2).all(|w| match w {
                [a, b] => side.normalized.as_str().get(a.end..b.start).is_some_and(|sep| sep.trim() == "-"),
                _ => true,
            })
        };
        let (q_hyph, s_hyph) = (joined_by_hyphens(self.quote, self.q), joined_by_hyphens(self.source, self.s));
        match (self.q.len(), self.s.len()) {
            (1, n) if n > 1 => s_hyph,
            (n, 1) if n > 1 => q_hyph,
            _ => q_hyph || s_hyph,
        }
    }

    /// A negation on one side and not the other.
    fn negation_change(&self) -> Option<&'static str> {
        let count = |t: &[&Tok]| {
            t.iter()
                .filter(|t| tokens::is_negation(&t.key) || lexicon::closed_class(&t.key) == Some(WordClass::Negation))
                .count()
        };
        (count(self.q) != count(self.s)).then_some("negation")
    }

    /// A word with a prefix added or removed (`legal`/`illegal`,
    /// `founder`/`co-founder`): by letters, or as a hyphenated token.
    fn prefix_change(&self) -> Option<&'static str> {
        let q_join: String = self.q.iter().map(|t| t.key.as_str()).collect();
        let s_join: String = self.s.iter().map(|t| t.key.as_str()).collect();
        let (long, short) = if q_join.len() > s_join.len() { (&q_join, &s_join) } else { (&s_join, &q_join) };
        for (k, p) in PREFIXES.iter().enumerate() {
            if let Some(rest) = long.strip_prefix(p) {
                if !short.is_empty() && rest == short.as_str() {
                    return Some(if k < NEGATING_PREFIXES { "negating prefix" } else { "prefix" });
                }
            }
        }
        swapped_prefix(&q_join, &s_join).then_some("prefix")
    }
}

/// Whether `a` and `b` are one stem behind two opposed prefixes
/// ([`OPPOSED_PREFIXES`]): `import`/`export`, `encrypt`/`decrypt`.
fn swapped_prefix(a: &str, b: &str) -> bool {
    let stem = |word: &'_ str, prefix: &str| {
        word.strip_prefix(prefix).filter(|rest| rest.len() >= MIN_SWAPPED_STEM).map(str::len)
    };
    a != b
        && OPPOSED_PREFIXES.iter().any(|&(x, y)| {
            [(x, y), (y, x)].iter().any(|&(pa, pb)| {
                stem(a, pa).is_some_and(|n| stem(b, pb) == Some(n) && a.get(pa.len()..) == b.get(pb.len()..))
            })
        })
}

/// Whether `t` sits between dots with no space (`U.K.`, `e.g.`).
fn inner_dot(side: &Side, t: &Tok) -> bool {
    let text = side.normalized.as_str();
    let after = text.get(t.end..).and_then(|r| r.chars().next());
    let before = text.get(..t.start).and_then(|r| r.chars().next_back());
    after == Some('.') && text.get(t.end + 1..).and_then(|r| r.chars().next()).is_some_and(char::is_alphanumeric)
        || before == Some('.')
            && text
                .get(..t.start.saturating_sub(1))
                .and_then(|r| r.chars().next_back())
                .is_some_and(char::is_alphanumeric)
}

fn class_name(c: WordClass) -> &'static str {
    match c {
        WordClass::Pronoun => "pronoun",
        WordClass::Determiner => "determiner",
        WordClass::Quantifier => "quantifier",
        WordClass::Modal => "modal verb",
        WordClass::Preposition => "preposition",
        WordClass::Conjunction => "conjunction",
        WordClass::Negation => "negation",
        WordClass::Comparative => "comparative",
        WordClass::NumberWord => "number word",
        WordClass::Ordinal => "ordinal",
        WordClass::Month => "month",
        WordClass::Weekday => "weekday",
        WordClass::Unit => "unit",
        WordClass::Scale => "scale word",
    }
}

/// Most edits (optimal string alignment) a misspelling of a word of `len`
/// chars may have: 1 up to 4 letters, 2 up to 8, then 3.
fn typo_budget(len: usize) -> usize {
    match len {
        0..=4 => 1,
        5..=8 => 2,
        _ => 3,
    }
}

/// Whether `a` and `b` are at most one edit apart (optimal string
/// alignment: a substitution, insertion, deletion or swap of neighbours):
/// `osa(a, b) <= 1` in one pass, without a table.
fn within_one(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return within_one_of(a.as_bytes(), b.as_bytes());
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    within_one_of(&a, &b)
}

fn within_one_of<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (a.get(prefix..).unwrap_or_default(), b.get(prefix..).unwrap_or_default());
    let suffix = a_rest.iter().rev().zip(b_rest.iter().rev()).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (a.len() - prefix - suffix, b.len() - prefix - suffix);
    match (ra, rb) {
        (0, 0) | (1, 0) | (0, 1) | (1, 1) => true,
        (2, 2) => a.get(prefix) == b.get(prefix + 1) && a.get(prefix + 1) == b.get(prefix),
        _ => false,
    }
}

/// Whether `a` is `b` with two neighbouring letters swapped.
fn is_transposition(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let diff: Vec<usize> = (0..a.len()).filter(|&i| a.get(i) != b.get(i)).collect();
    matches!(diff.as_slice(), [i, j] if *j == i + 1 && a.get(*i) == b.get(*j) && a.get(*j) == b.get(*i))
}

/// Optimal string alignment distance (Levenshtein with adjacent
/// transpositions), on chars. Words only: `O(|a| · |b|)`.
fn osa(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        if let Some(cell) = d.get_mut(i * w) {
            *cell = i;
        }
        for j in 1..=b.len() {
            let cost = usize::from(a.get(i - 1) != b.get(j - 1));
            let get = |ii: usize, jj: usize| d.get(ii * w + jj).copied().unwrap_or(usize::MAX / 2);
            let mut v = (get(i - 1, j) + 1).min(get(i, j - 1) + 1).min(get(i - 1, j - 1) + cost);
            if i > 1 && j > 1 && a.get(i - 1) == b.get(j - 2) && a.get(i - 2) == b.get(j - 1) {
                v = v.min(get(i - 2, j - 2) + 1);
            }
            if let Some(cell) = d.get_mut(i * w + j) {
                *cell = v;
            }
        }
    }
    d.last().copied().unwrap_or(0)
}

/// British and American endings of one word: `(british, american, least
/// length of the British form)`. Suffixes after the ending are listed with
/// it. The least lengths keep short words apart (`prise`/`prize`), and
/// both forms must be English words ([`spelling_variants`]).
const SPELLINGS: &[(&str, &str, usize)] = &[
    // colour, honour, labour, behaviour (and -s, -ed, -ing, -ful, -less, -able)
    ("our", "or", 6),
    ("ours", "ors", 7),
    ("oured", "ored", 8),
    ("ouring", "oring", 9),
    ("ourful", "orful", 9),
    ("ourless", "orless", 10),
    ("ourable", "orable", 10),
    ("ourite", "orite", 9),
    ("ourites", "orites", 10),
    // centre, metre, litre, fibre, theatre (and plurals)
    ("tre", "ter", 5),
    ("tres", "ters", 6),
    ("bre", "ber", 5),
    ("bres", "bers", 6),
    // organise, realise, analyse
    ("ise", "ize", 7),
    ("ised", "ized", 8),
    ("ises", "izes", 8),
    ("ising", "izing", 9),
    ("isation", "ization", 10),
    ("isations", "izations", 11),
    ("yse", "yze", 7),
    ("ysed", "yzed", 8),
    ("yses", "yzes", 8),
    ("ysing", "yzing", 9),
    // licence, defence, offence
    ("ence", "ense", 7),
    ("ences", "enses", 8),
    // catalogue, dialogue, analogue
    ("ogue", "og", 8),
    ("ogues", "ogs", 9),
    // programme
    ("amme", "am", 9),
    ("ammes", "ams", 10),
];

/// Words whose ending looks British but whose other form is another word
/// (`timbre` is not `timber`).
const NOT_SPELLINGS: &[&str] = &["timbre", "timbres"];

/// Whether `a` and `b` (lowercase) are the British and American spellings of
/// one word (`colour`/`color`, `metres`/`meters`, `organised`/`organized`,
/// `licence`/`license`, `catalogue`/`catalog`): the same word, so the
/// difference is cosmetic. Both must be English words of the list, and the
/// British form at least as long as its rule says (`four` is not `for`).
fn spelling_variants(a: &str, b: &str) -> bool {
    let one_way = |british: &str, american: &str| {
        !NOT_SPELLINGS.contains(&british)
            && SPELLINGS.iter().any(|&(gb, us, least)| {
                british.len() >= least
                    && british
                        .strip_suffix(gb)
                        .zip(american.strip_suffix(us))
                        .is_some_and(|(stem_gb, stem_us)| stem_gb == stem_us && !stem_gb.is_empty())
            })
    };
    a != b && (one_way(a, b) || one_way(b, a)) && lexicon::is_english_word(a) && lexicon::is_english_word(b)
}

/// Whether two stretches say the same numbers: equal quantities by value,
/// and the same digit runs outside them.
fn same_numbers(a: &str, b: &str) -> bool {
    let (qa, qb) = (quantity::quantities(a), quantity::quantities(b));
    if qa.is_empty() || qb.is_empty() {
        return false;
    }
    let (missing, extra) = quantity::unmatched(&qa, &qb);
    if !missing.is_empty() || !extra.is_empty() {
        return false;
    }
    leftover_digits(a, &qa) == leftover_digits(b, &qb) && leftover_words(a, &qa) == leftover_words(b, &qb)
}

/// The words of `text` outside its quantities, lowercase, in order: a
/// number written differently is cosmetic only when nothing else changed.
fn leftover_words(text: &str, qs: &[quantity::Quantity]) -> Vec<String> {
    tokens::tokenize(text)
        .iter()
        .filter(|t| !qs.iter().any(|q| q.start <= t.start as usize && t.end as usize <= q.end))
        .map(|t| t.text(text).to_lowercase())
        .collect()
}

/// Digit runs of `text` outside its quantities.
fn leftover_digits(text: &str, qs: &[quantity::Quantity]) -> Vec<String> {
    quantity::digit_runs(text)
        .into_iter()
        .filter(|&(s, e)| !qs.iter().any(|q| q.start <= s && e <= q.end))
        .filter_map(|(s, e)| text.get(s..e).map(str::to_string))
        .collect()
}

/// Whether the quote's and the passage's numbers differ in value (every
/// number of each must have an equal one in the other) — the check that
/// catches `150 million` for `150 billion` when only the scale word moved.
/// A typo's byte range in the quote and the source's word it stands for.
type TypoRange = ((usize, usize), (usize, usize));

fn quantity_mismatch(quote: &Side, source: &Side, typos: &[TypoRange]) -> bool {
    let qtext = quote.normalized.as_str();
    let stext = source.normalized.as_str();
    // a misspelt word is read as the source's word it stands for
    // ("five secodns" says "five seconds")
    let mut fixed = String::new();
    let mut at = quote.start;
    for &((qs, qe), (ss, se)) in typos {
        if qs < at || qe > quote.end {
            continue;
        }
        fixed.push_str(qtext.get(at..qs).unwrap_or(""));
        fixed.push_str(stext.get(ss..se).unwrap_or(""));
        at = qe;
    }
    fixed.push_str(qtext.get(at..quote.end).unwrap_or(""));
    let st = stext.get(source.start..source.end).unwrap_or("");
    let qa = quantity::quantities(&fixed);
    // the same text (the common typo-only match) is read once
    let sa = if fixed == st { None } else { Some(quantity::quantities(st)) };
    let (missing, extra) = quantity::unmatched(&qa, sa.as_deref().unwrap_or(&qa));
    !missing.is_empty() || !extra.is_empty()
}

/// Punctuation between two aligned pairs of tokens: cosmetic, unless a
/// symbol that carries meaning (`%`, `$`, a minus sign, …) differs.
fn separator_edit(
    quote: &Side,
    source: &Side,
    q: &[Tok],
    s: &[Tok],
    a: (usize, usize),
    b: (usize, usize),
    edits: &mut Vec<Edit>,
) {
    let (Some(qa), Some(qb), Some(sa), Some(sb)) = (q.get(a.0), q.get(b.0), s.get(a.1), s.get(b.1)) else {
        return;
    };
    let qsep = quote.normalized.as_str().get(qa.end..qb.start).unwrap_or("");
    let ssep = source.normalized.as_str().get(sa.end..sb.start).unwrap_or("");
    if qsep == ssep {
        return;
    }
    let squeeze = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (qs, ss) = (squeeze(qsep), squeeze(ssep));
    if qs == ss {
        return; // whitespace only: the normalizer's business
    }
    let meaningful =
        |t: &str, next_digit: bool| t.chars().any(|c| SYMBOLS.contains(c)) || (next_digit && t.ends_with(['-', '+']));
    let (q_sym, s_sym) = (meaningful(&qs, qb.digits), meaningful(&ss, sb.digits));
    let symbols = |t: &str| t.chars().filter(|c| SYMBOLS.contains(*c) || *c == '-' || *c == '+').collect::<String>();
    let edit = if (q_sym || s_sym) && symbols(&qs) != symbols(&ss) {
        let change = if qa.digits || qb.digits || sa.digits || sb.digits { Change::Number } else { Change::Word };
        Edit {
            kind: EditKind::Substitution,
            change: Some(change),
            why: "symbol",
            quote: (qa.end, qb.start),
            source: (sa.end, sb.start),
        }
    } else {
        Edit {
            kind: EditKind::Cosmetic,
            change: None,
            why: "punctuation",
            quote: (qa.end, qb.start),
            source: (sa.end, sb.start),
        }
    };
    edits.push(edit);
}

/// Symbols whose presence changes what a text says.
const SYMBOLS: &str = "%$€£¥₹+±=<>×*/#@&~^°§";

/// One step of the word alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// Quote token `.0` equals passage token `.1`.
    Same(usize, usize),
    /// Quote token `.0` stands where passage token `.1` is.
    Sub(usize, usize),
    /// Passage token `.0` has nothing in the quote.
    Ins(usize),
    /// Quote token `.0` has nothing in the passage.
    Del(usize),
}

/// Aligns the two token lists (fewest differing tokens; keys compared), in
/// a band of [`MAX_BAND`] around the diagonal; outside the band everything
/// is one changed stretch.
fn align(q: &[Tok], s: &[Tok]) -> Vec<Op> {
    let (qk, sk): (Vec<Key>, Vec<Key>) = (q.iter().map(Key::of).collect(), s.iter().map(Key::of).collect());
    align_items(&qk, &sk)
}

/// A token's key as the alignment compares it in each of its cells: its
/// length and first 8 bytes as numbers first, the bytes after them only
/// when those are equal (most cells compare two different words).
struct Key<'t> {
    len: usize,
    head: u64,
    key: &'t str,
}

impl<'t> Key<'t> {
    fn of(t: &'t Tok) -> Key<'t> {
        let b = t.key.as_bytes();
        let head = match b.first_chunk::<8>() {
            Some(c) => u64::from_le_bytes(*c),
            None => b.iter().rev().fold(0u64, |w, &x| w << 8 | u64::from(x)),
        };
        Key { len: b.len(), head, key: &t.key }
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Key) -> bool {
        self.len == other.len && self.head == other.head && (self.len <= 8 || self.key == other.key)
    }
}

/// [`align`] of two sequences of comparable items.
fn align_items<T: PartialEq>(q: &[T], s: &[T]) -> Vec<Op> {
    let (n, m) = (q.len(), s.len());
    let diff = n.abs_diff(m);
    // a fuzzy match shifts words by about its edit count: a narrow band
    // (the alignment stays valid outside it, only less tight: refused,
    // never accepted)
    let band = MAX_BAND.min(n.max(m)) + diff;
    if n.max(m) > 0 && band.saturating_mul(2).saturating_add(1).saturating_mul(n + 1) > MAX_CELLS {
        let mut ops: Vec<Op> = (0..n).map(Op::Del).collect();
        ops.extend((0..m).map(Op::Ins));
        return ops;
    }
    let width = 2 * band + 1;
    const INF: u32 = u32::MAX / 4;
    // cell (i, j) at i * width + (j + band - i), valid when |i - j| <= band
    let idx = |i: usize, j: usize| -> Option<usize> {
        let off = (j + band).checked_sub(i)?;
        (off < width).then_some(i * width + off)
    };
    let mut d = vec![INF; (n + 1) * width];
    let get = |d: &[u32], i: usize, j: usize| idx(i, j).and_then(|k| d.get(k).copied()).unwrap_or(INF);
    for i in 0..=n {
        let lo = i.saturating_sub(band);
        let hi = (i + band).min(m);
        for j in lo..=hi {
            let v = if i == 0 {
                j as u32
            } else if j == 0 {
                i as u32
            } else {
                let same = q.get(i - 1) == s.get(j - 1);
                let diag = get(&d, i - 1, j - 1).saturating_add(u32::from(!same));
                diag.min(get(&d, i - 1, j).saturating_add(1)).min(get(&d, i, j - 1).saturating_add(1))
            };
            if let Some(k) = idx(i, j) {
                if let Some(cell) = d.get_mut(k) {
                    *cell = v;
                }
            }
        }
    }
    let mut ops = Vec::with_capacity(n.max(m));
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let here = get(&d, i, j);
        if i > 0 && j > 0 {
            let same = q.get(i - 1) == s.get(j - 1);
            if same && get(&d, i - 1, j - 1) == here {
                ops.push(Op::Same(i - 1, j - 1));
                i -= 1;
                j -= 1;
                continue;
            }
            if !same && get(&d, i - 1, j - 1).saturating_add(1) == here {
                ops.push(Op::Sub(i - 1, j - 1));
                i -= 1;
                j -= 1;
                continue;
            }
        }
        if i > 0 && get(&d, i - 1, j).saturating_add(1) == here {
            ops.push(Op::Del(i - 1));
            i -= 1;
        } else if j > 0 {
            ops.push(Op::Ins(j - 1));
            j -= 1;
        } else {
            ops.push(Op::Del(i - 1));
            i -= 1;
        }
    }
    ops.reverse();
    ops
}

/// Most cells of the alignment table (4 bytes each).
const MAX_CELLS: usize = 1 << 20;

/// The edges of an exact match: whether it starts or ends inside a source
/// word where the quote does not. Returns the offending edits (none for a
/// clean match); only the edge tokens are looked at.
pub fn exact_edges(quote: &Side, source: &Side, words: &dyn Words, word_forms: bool) -> Vec<Edit> {
    let text = source.normalized.as_str();
    if !inside_word(text, source.start) && !inside_word(text, source.end) {
        return Vec::new();
    }
    compare(quote, source, words, word_forms).edits.into_iter().filter(|e| e.kind == EditKind::Substitution).collect()
}

/// The words of `omitted` (text an ellipsis quote leaves out between two
/// of its fragments) whose absence changes what the joined quote says, by
/// the guard's own lexicon: a negation ([`Change::Negation`]), a number,
/// digit, number word, ordinal, scale or unit ([`Change::Number`]), or a
/// qualifier, a quantifier, modal or comparative ([`Change::Word`]):
/// "is not permitted" quoted as "is ... permitted" drops a negation.
pub fn omitted_changes(omitted: &str) -> Vec<(Change, String)> {
    let mut out = Vec::new();
    tokens::for_each_token(omitted, |t| {
        let word = t.text(omitted);
        let key = word.to_lowercase();
        let change = if tokens::is_negation(&key) || lexicon::closed_class(&key) == Some(WordClass::Negation) {
            Some(Change::Negation)
        } else if key.bytes().any(|b| b.is_ascii_digit())
            || lexicon::closed_classes(&key).any(lexicon::is_number_or_unit_class)
        {
            Some(Change::Number)
        } else if lexicon::closed_classes(&key)
            .any(|c| matches!(c, WordClass::Quantifier | WordClass::Modal | WordClass::Comparative))
        {
            Some(Change::Word)
        } else {
            None
        };
        if let Some(c) = change {
            out.push((c, word.to_string()));
        }
    });
    out
}

/// Whether byte `at` of `text` falls inside a word or a number (`1,5|00`,
/// `3|.5`): a match starting or ending there is cut.
pub fn inside_word(text: &str, at: usize) -> bool {
    let before = text.get(..at).and_then(|h| h.chars().next_back());
    let after = text.get(at..).and_then(|t| t.chars().next());
    let digit_after = |i: usize| text.get(i..).and_then(|t| t.chars().next()).is_some_and(|c| c.is_ascii_digit());
    let digit_before = |i: usize| text.get(..i).and_then(|h| h.chars().next_back()).is_some_and(|c| c.is_ascii_digit());
    match (before, after) {
        (Some(b), Some(a)) if b.is_alphanumeric() && a.is_alphanumeric() => true,
        (Some(b), Some('.' | ',')) if b.is_ascii_digit() => digit_after(at + 1),
        (Some('.' | ','), Some(a)) if a.is_ascii_digit() => digit_before(at.saturating_sub(1)),
        _ => false,
    }
}

/// The words of a normalized quote that only the source's vocabulary can
/// tell from a typo (lowercase, not English words, not names): what a
/// caller looks up once per document for [`Words`].
/// `known(word)` says a word needs no asking (the passage has it as
/// written), before the word lists are looked at.
pub fn vocabulary_questions(normalized_quote: &str, known: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    tokens::for_each_token(normalized_quote, |t| {
        let key = t.text(normalized_quote).to_lowercase();
        if !key.bytes().any(|b| b.is_ascii_digit())
            && !known(&key)
            && !lexicon::is_english_word(&key)
            && !lexicon::is_name(&key)
        {
            out.push(key);
        }
    });
    out
}

/// Whether `text[start..end]` (a verbatim occurrence of a quote in plain
/// text) starts and ends on word boundaries, or is cut only where the quote
/// itself starts or ends inside a word: the cut piece has no digit and is
/// not an English word (`15` inside `150`, `art` inside `start` are not).
pub fn plain_edges_ok(text: &str, start: usize, end: usize) -> bool {
    let Some(inner) = text.get(start..end) else {
        return false;
    };
    let word_char = |c: char| c.is_alphanumeric();
    let before = text.get(..start).and_then(|h| h.chars().next_back());
    let after = text.get(end..).and_then(|t| t.chars().next());
    let first = inner.chars().next();
    let last = inner.chars().next_back();
    let piece_ok = |piece: &str| {
        let key = piece.to_lowercase();
        !key.is_empty() && !key.bytes().any(|b| b.is_ascii_digit()) && !lexicon::is_english_word(&key)
    };
    let cut_start = before.is_some_and(word_char) && first.is_some_and(word_char);
    let cut_end = after.is_some_and(word_char) && last.is_some_and(word_char);
    // a digit run continued by `.5` or `,000` is cut too
    let digit_joined = |sep: Option<char>, digit: Option<char>, next: Option<char>| {
        matches!(sep, Some('.' | ','))
            && digit.is_some_and(|c| c.is_ascii_digit())
            && next.is_some_and(|c| c.is_ascii_digit())
    };
    let after2 = text.get(end..).and_then(|t| t.chars().nth(1));
    let before2 = text.get(..start).and_then(|h| h.chars().nth_back(1));
    if digit_joined(after, last, after2) || digit_joined(before, first, before2) {
        return false;
    }
    let head: String = inner.chars().take_while(|&c| word_char(c)).collect();
    let tail: String = {
        let mut t: Vec<char> = inner.chars().rev().take_while(|&c| word_char(c)).collect();
        t.reverse();
        t.into_iter().collect()
    };
    (!cut_start || piece_ok(&head)) && (!cut_end || piece_ok(&tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{normalize::Normalized, Profile};

    #[test]
    fn british_and_american_spellings_are_one_word() {
        for (a, b) in [
            ("colour", "color"),
            ("colours", "colors"),
            ("favourite", "favorite"),
            ("metres", "meters"),
            ("kilometre", "kilometer"),
            ("litres", "liters"),
            ("centre", "center"),
            ("fibre", "fiber"),
            ("organise", "organize"),
            ("organisation", "organization"),
            ("analysed", "analyzed"),
            ("licence", "license"),
            ("defence", "defense"),
            ("catalogue", "catalog"),
            ("programme", "program"),
        ] {
            assert!(spelling_variants(a, b) && spelling_variants(b, a), "{a} {b}");
        }
        // other words: a number, a different word, short look-alikes
        for (a, b) in [
            ("four", "for"),
            ("hour", "hor"),
            ("prise", "prize"),
            ("timbre", "timber"),
            ("course", "corse"),
            ("sure", "suer"),
            ("hence", "hense"),
            ("filled", "filed"),
            ("colour", "colour"),
            ("color", "colors"),
            ("metre", "litre"),
        ] {
            assert!(!spelling_variants(a, b) && !spelling_variants(b, a), "{a} {b}");
        }
    }

    fn norm(s: &str) -> Normalized {
        Normalized::from_plain(s, Profile::default())
    }

    /// Compares `quote` with the part of `source` between `[` and `]`.
    fn cmp(quote: &str, source: &str) -> Comparison {
        let open = source.find('[').expect("[");
        let close = source.find(']').expect("]");
        let plain: String = source.replace(['[', ']'], "");
        let (qn, sn) = (norm(quote), norm(&plain));
        // the marked range in normalized bytes (the test texts normalize one
        // for one but for case)
        let (s, e) = (open, close - 1);
        let q = Side { normalized: &qn, original: quote, start: 0, end: qn.as_str().len() };
        let src = Side { normalized: &sn, original: &plain, start: s, end: e };
        let none = |_: &str| false;
        compare(&q, &src, &none, false)
    }

    /// The alignment by key heads ([`Key`]) is the alignment by the
    /// keys themselves (the former comparison of strings in each cell), on
    /// random token lists of a few words (many equal keys, the lists from
    /// empty to 60 tokens, lengths far apart: past the band).
    #[test]
    fn alignment_by_key_heads_is_alignment_by_keys() {
        const WORDS: &[&str] = &["the", "cache", "is", "not", "5", "five", "caché", "中文", "😀", "", "a", "the "];
        let tok = |key: &str| Tok {
            start: 0,
            end: 0,
            key: key.to_string(),
            digits: false,
            sentence_start: false,
            english: Cell::new(None),
            word: Cell::new(None),
        };
        let mut rng = crate::test_rng::SplitMix64(0xa1_1915);
        for case in 0..4_000 {
            let most = if case % 8 == 0 { 60 } else { 12 };
            let vocabulary = 1 + rng.below(WORDS.len());
            let (n, m) = (rng.below(most + 1), rng.below(most + 1));
            let q: Vec<Tok> = (0..n).map(|_| tok(WORDS[rng.below(vocabulary)])).collect();
            let s: Vec<Tok> = (0..m).map(|_| tok(WORDS[rng.below(vocabulary)])).collect();
            let keys = |t: &[Tok]| t.iter().map(|t| t.key.clone()).collect::<Vec<String>>();
            assert_eq!(align(&q, &s), align_items(&keys(&q), &keys(&s)), "{:?} / {:?}", keys(&q), keys(&s));
        }
    }

    fn kinds(c: &Comparison) -> Vec<(EditKind, Option<Change>)> {
        c.edits.iter().filter(|e| e.kind != EditKind::Cosmetic).map(|e| (e.kind, e.change)).collect()
    }

    #[test]
    fn typos_in_content_words_pass() {
        assert!(cmp("we recieve the data", "so [we receive the data] now").is_faithful());
        assert!(cmp("the managment team", "[the management team]").is_faithful());
        assert!(cmp("teh system", "[the system]").is_faithful());
        assert!(cmp("by uslng lhem now", "[by using them now]").is_faithful());
        assert!(cmp("Teh system", "[The system]").is_faithful());
        assert!(cmp("it canot run", "[it cannot run]").is_faithful());
        assert!(cmp("it nto run", "[it not run]").is_faithful(), "two letters swapped");
        assert!(!cmp("it nt run", "[it not run]").is_faithful(), "not, or at?");
        assert!(!cmp("sixt items", "[six items]").is_faithful(), "six, or sixth?");
    }

    #[test]
    fn swapped_words_are_substitutions() {
        let c = cmp("her car was red", "[his car was red]");
        assert_eq!(kinds(&c), [(EditKind::Substitution, Some(Change::Word))]);
        assert_eq!(kinds(&cmp("nine teams", "[four teams]")), [(EditKind::Substitution, Some(Change::Number))]);
        assert_eq!(kinds(&cmp("version 2.3.1", "[version 2.3.0]")), [(EditKind::Substitution, Some(Change::Number))]);
        assert_eq!(kinds(&cmp("it is illegal", "[it is legal]")), [(EditKind::Substitution, Some(Change::Negation))]);
        assert!(!cmp("sales decreased", "[sales increased]").is_faithful());
        assert!(!cmp("the co-founder said", "[the founder said]").is_faithful());
    }

    #[test]
    fn swapped_prefixes_are_substitutions_even_when_no_word() {
        // none of the quoted forms is a word to this comparison (no word
        // list): only the prefix rule stands against them
        for (quote, source) in [
            ("data is decrypted", "[data is encrypted]"),
            ("we export goods", "[we import goods]"),
            ("it will exclude tests", "[it will include tests]"),
            ("they understated it", "[they overstated it]"),
        ] {
            assert_eq!(kinds(&cmp(quote, source)), [(EditKind::Substitution, Some(Change::Word))], "{quote}");
        }
        // one slip inside a prefix is still a typo (di-/dis- share a start)
        assert!(cmp("it will dissappear", "[it will disappear]").is_faithful());
        assert!(swapped_prefix("encrypt", "decrypt"));
        assert!(swapped_prefix("postfix", "prefix"));
        assert!(!swapped_prefix("recieve", "receive"));
        assert!(!swapped_prefix("import", "imports"));
        assert!(!swapped_prefix("bifferent", "different"), "b for d is a slip, not a prefix");
        assert!(cmp("the bifferent states", "[the different states]").is_faithful());
    }

    #[test]
    fn cosmetic_differences_pass() {
        assert!(cmp("the e-mail arrived", "[the email arrived]").is_faithful());
        assert!(cmp("The System, works", "[the system works]").is_faithful());
        assert!(cmp("paid 1,000 dollars", "[paid 1000 dollars]").is_faithful());
    }

    #[test]
    fn cut_words_at_the_edges() {
        // "art" is a word: not the source's "start"
        assert!(!cmp("art of war", "the st[art of war]fare").is_faithful());
        // "ocol" is not a word: the quote itself starts inside one
        let c = cmp("ocol is fine", "the prot[ocol is fine]");
        assert!(c.is_faithful(), "{c:?}");
        assert!(!cmp("was 15", "it [was 15]0 days").is_faithful());
    }

    #[test]
    fn plain_edges() {
        let t = "it was 150 days at the start of warfare, 3.5 km";
        let at = |q: &str| t.find(q).map(|s| plain_edges_ok(t, s, s + q.len()));
        assert_eq!(at("was 15"), Some(false));
        assert_eq!(at("was 150 days"), Some(true));
        assert_eq!(at("art of war"), Some(false));
        assert_eq!(at("3"), Some(false));
        assert_eq!(at("of warfare"), Some(true));
    }

    #[test]
    fn within_one_is_osa_at_most_one() {
        let words = ["", "a", "ab", "ba", "abc", "acb", "abd", "abcd", "the", "teh", "tea", "she", "he", "then", "th"];
        for a in words {
            for b in words {
                assert_eq!(within_one(a, b), osa(a, b) <= 1, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn osa_counts_transpositions_once() {
        assert_eq!(osa("teh", "the"), 1);
        assert_eq!(osa("recieve", "receive"), 1);
        assert_eq!(osa("", "abc"), 3);
    }
}
