//! The generator of `tests/meaning_accuracy.rs` (issue 12, the meaning
//! guard): pairs of (source passage, quote) made from the prose of
//! `benches/data/rust-book.md`, each quote carrying exactly one change of a
//! known class. It knows nothing of the library: its word classes, word
//! pairs and typo rules are its own, and its word list is Debian's
//! `wamerican` ∪ `wbritish`, read from `/usr/share/dict`.
//!
//! A sentence is 6–40 words of one paragraph (headings, lists, tables and
//! `Filename:` lines skipped; only plain letters, digits and ordinary
//! punctuation). The source is its paragraph, or about 1,500 bytes around it
//! when the paragraph is longer. Where a sentence lacks a class's material
//! (units, versions, acronyms, …) the material is inserted into the
//! sentence on both sides, and only the quote's copy is changed.

mod levenshtein;

use std::collections::{BTreeMap, HashSet};

/// The text the sentences come from (The Rust Programming Language,
/// MIT/Apache-2.0).
pub const BOOK: &str = include_str!("../../benches/data/rust-book.md");

/// The word lists (Debian's `wamerican` and `wbritish`).
pub const DICTIONARIES: [&str; 2] = ["/usr/share/dict/american-english", "/usr/share/dict/british-english"];

/// A source passage is the paragraph, or this many bytes around the sentence.
const PASSAGE_MAX: usize = 1500;

/// A seeded xorshift: the same pairs on every run and platform.
pub struct Rng(u64);

impl Rng {
    /// A generator whose sequence depends only on `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        items.get(self.below(items.len()))
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A kind of change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Typo,
    Noise,
    FunctionWord,
    NumberWord,
    DigitsInToken,
    ScaleOrUnit,
    NameOrAcronym,
    PrefixOrAntonym,
    PartialWord,
    Shuffled,
}

impl Class {
    pub const ALL: [Class; 10] = [
        Class::Typo,
        Class::Noise,
        Class::FunctionWord,
        Class::NumberWord,
        Class::DigitsInToken,
        Class::ScaleOrUnit,
        Class::NameOrAcronym,
        Class::PrefixOrAntonym,
        Class::PartialWord,
        Class::Shuffled,
    ];

    /// Whether the quote still says what the source says (must be VALIDATED).
    pub fn accepted(self) -> bool {
        matches!(self, Class::Typo | Class::Noise)
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Typo => "typos",
            Class::Noise => "cosmetic noise",
            Class::FunctionWord => "pronoun / function-word swaps",
            Class::NumberWord => "number-word swaps",
            Class::DigitsInToken => "digits inside tokens",
            Class::ScaleOrUnit => "scale words and units",
            Class::NameOrAcronym => "names, acronyms, ordinals",
            Class::PrefixOrAntonym => "prefixes and antonyms",
            Class::PartialWord => "partial-word edges",
            Class::Shuffled => "shuffled sentences (paraphrase)",
        }
    }

    pub fn evidence_type(self) -> &'static str {
        if self == Class::Shuffled {
            "paraphrase"
        } else {
            "direct_quote"
        }
    }
}

/// One generated case.
#[derive(Debug, Clone)]
pub struct Pair {
    pub class: Class,
    /// The source passage given to the validator.
    pub source: String,
    /// The sentence as it stands in `source` (original line breaks).
    pub source_sentence: String,
    pub quote: String,
    /// What the source says where the quote differs ("" when not one word).
    pub from: String,
    /// What the quote says instead.
    pub to: String,
    /// How the pair was made (`in text`, `inserted`, a noise kind, …).
    pub how: &'static str,
}

/// Debian's word lists: every word lowercased, and the capitalized ones
/// (names) by length.
pub struct Lexicon {
    pub words: HashSet<String>,
    pub names: BTreeMap<usize, Vec<String>>,
}

/// Reads the word lists; panics with what to install when one is missing.
pub fn lexicon() -> Lexicon {
    let mut words = HashSet::new();
    let mut names: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut seen = HashSet::new();
    for path in DICTIONARIES {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!(
                "{path}: {e}. The meaning-accuracy pairs need Debian's word lists to tell a typo from a word: \
                 run `apt-get install wamerican wbritish` (scripts/setup.sh does)"
            )
        });
        for w in text.lines().map(str::trim).filter(|w| !w.is_empty()) {
            words.insert(w.to_lowercase());
            let mut chars = w.chars();
            let capitalized = chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && w.len() >= 3
                && chars.all(|c| c.is_ascii_lowercase());
            if capitalized && seen.insert(w.to_string()) {
                names.entry(w.len()).or_default().push(w.to_string());
            }
        }
    }
    Lexicon { words, names }
}

/// A sentence: byte ranges of its words in its paragraph.
pub struct Sentence {
    pub para: usize,
    pub start: usize,
    pub end: usize,
    pub words: Vec<(usize, usize)>,
}

/// The book's prose paragraphs and their sentences.
pub struct Book {
    pub paras: Vec<&'static str>,
    pub sentences: Vec<Sentence>,
}

/// Byte ranges of the whitespace-separated words of `s`.
pub fn word_ranges(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(b) = start.take() {
                out.push((b, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(b) = start {
        out.push((b, s.len()));
    }
    out
}

/// `(lead, core, trail)`: a word and the punctuation around it.
pub fn split_token(t: &str) -> (&str, &str, &str) {
    let start = t.char_indices().find(|(_, c)| c.is_alphanumeric()).map_or(t.len(), |(i, _)| i);
    let end = t.char_indices().rev().find(|(_, c)| c.is_alphanumeric()).map_or(start, |(i, c)| i + c.len_utf8());
    if start >= end {
        return (t, "", "");
    }
    (&t[..start], &t[start..end], &t[end..])
}

const ABBREVIATIONS: [&str; 9] = ["e.g.", "i.e.", "etc.", "vs.", "mr.", "mrs.", "dr.", "st.", "no."];

fn ends_sentence(token: &str, next: Option<&str>) -> bool {
    let t = token.trim_end_matches(['’', '”', '"', ')']);
    if !t.ends_with(['.', '?', '!']) || ABBREVIATIONS.contains(&t.to_lowercase().as_str()) || t.len() <= 2 {
        return false;
    }
    match next {
        None => true,
        Some(n) => n.trim_start_matches(['“', '"', '(']).chars().next().is_some_and(|c| c.is_uppercase()),
    }
}

fn plain_sentence(text: &str) -> bool {
    text.chars().all(|c| c.is_ascii_alphanumeric() || c.is_whitespace() || ",.;:?!'’“”\"()-".contains(c))
        && text.chars().next().is_some_and(|c| c.is_ascii_uppercase() || c == '“')
        && !text.contains("--")
}

fn prose(para: &str) -> bool {
    !(para.starts_with('#')
        || para.starts_with("Filename:")
        || para.starts_with("Listing ")
        || para.contains('|')
        || para.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("- ")
                || l.starts_with("* ")
                || l.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        }))
}

/// Splits the book into prose paragraphs and sentences of 6–40 words.
pub fn book() -> Book {
    let paras: Vec<&'static str> = BOOK.split("\n\n").map(str::trim).filter(|p| !p.is_empty() && prose(p)).collect();
    let mut sentences = Vec::new();
    for (pi, para) in paras.iter().enumerate() {
        let words = word_ranges(para);
        let mut first = 0;
        for i in 0..words.len() {
            let next = words.get(i + 1).map(|r| &para[r.0..r.1]);
            if !ends_sentence(&para[words[i].0..words[i].1], next) {
                continue;
            }
            let (start, end) = (words[first].0, words[i].1);
            let n = i + 1 - first;
            if (6..=40).contains(&n) && plain_sentence(&para[start..end]) {
                sentences.push(Sentence { para: pi, start, end, words: words[first..=i].to_vec() });
            }
            first = i + 1;
        }
    }
    Book { paras, sentences }
}

/// `para` with `start..end` replaced, cut to about [`PASSAGE_MAX`] bytes
/// around the replacement at whitespace.
pub fn passage(para: &str, start: usize, end: usize, replacement: &str) -> String {
    let full = format!("{}{}{}", &para[..start], replacement, &para[end..]);
    if full.len() <= PASSAGE_MAX {
        return full;
    }
    let (s, e) = (start, start + replacement.len());
    let margin = PASSAGE_MAX.saturating_sub(replacement.len()) / 2;
    let mut a = s.saturating_sub(margin);
    while !full.is_char_boundary(a) {
        a -= 1;
    }
    if a > 0 {
        a = full[a..s].char_indices().find(|(_, c)| c.is_whitespace()).map_or(s, |(i, c)| a + i + c.len_utf8());
    }
    let mut b = (e + margin).min(full.len());
    while !full.is_char_boundary(b) {
        b += 1;
    }
    if b < full.len() {
        b = full[e..b].char_indices().rev().find(|(_, c)| c.is_whitespace()).map_or(e, |(i, _)| e + i);
    }
    full[a..b].to_string()
}

/// Whitespace runs as one space.
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub use levenshtein::levenshtein;

/// Lowercase letters and digits only, ligatures expanded: what is left when
/// every cosmetic difference is taken away.
pub fn letters(s: &str) -> String {
    s.replace('\u{fb01}', "fi")
        .replace('\u{fb02}', "fl")
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `needle` occurs in `hay` (both collapsed, case-insensitive) with
/// no letter or digit on either side.
pub fn occurs_as_words(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (collapse(hay).to_lowercase(), collapse(needle).to_lowercase());
    let mut from = 0;
    while let Some(i) = hay[from..].find(&needle) {
        let at = from + i;
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return true;
        }
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

// ---- word classes (the generator's own) ----

pub const FUNCTION_GROUPS: &[&[&str]] = &[
    &["he", "she", "it", "we", "they", "you"],
    &["him", "her", "us", "them", "me"],
    &["his", "her", "its", "our", "their", "your", "my"],
    &["this", "that", "these", "those"],
    &[
        "in", "on", "at", "to", "from", "with", "without", "for", "by", "into", "onto", "over", "under", "above",
        "below", "before", "after", "within", "through", "across", "of", "off", "up", "down",
    ],
    &["and", "or", "but", "nor"],
    &["can", "could", "may", "might", "must", "should", "will", "would", "shall"],
    &["all", "every", "each", "some", "any", "no", "many", "few", "most", "several", "both", "either", "neither"],
];

pub const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

pub const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth",
];

/// Scale words and units, each with a neighbour of another magnitude.
pub const SCALES_AND_UNITS: &[(&str, &str)] = &[
    ("million", "billion"),
    ("billion", "trillion"),
    ("thousand", "million"),
    ("hundred", "thousand"),
    ("ms", "s"),
    ("ms", "µs"),
    ("ns", "ms"),
    ("seconds", "minutes"),
    ("minutes", "hours"),
    ("hours", "days"),
    ("days", "weeks"),
    ("weeks", "months"),
    ("months", "years"),
    ("KB", "MB"),
    ("MB", "GB"),
    ("GB", "TB"),
    ("bytes", "bits"),
    ("kg", "g"),
    ("km", "m"),
    ("cm", "mm"),
    ("mg", "g"),
    ("kHz", "MHz"),
];

const SCALE_WORDS: [&str; 4] = ["hundred", "thousand", "million", "billion"];

/// Opposites and prefixed forms (either direction).
pub const WORD_PAIRS: &[(&str, &str)] = &[
    ("able", "unable"),
    ("safe", "unsafe"),
    ("mutable", "immutable"),
    ("possible", "impossible"),
    ("valid", "invalid"),
    ("legal", "illegal"),
    ("correct", "incorrect"),
    ("necessary", "unnecessary"),
    ("likely", "unlikely"),
    ("known", "unknown"),
    ("profitable", "unprofitable"),
    ("founder", "co-founder"),
    ("owner", "co-owner"),
    ("president", "ex-president"),
    ("sized", "unsized"),
    ("typed", "untyped"),
    ("used", "unused"),
    ("checked", "unchecked"),
    ("initialized", "uninitialized"),
    ("reachable", "unreachable"),
    ("defined", "undefined"),
    ("visible", "invisible"),
    ("consistent", "inconsistent"),
    ("complete", "incomplete"),
    ("expected", "unexpected"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allow", "disallow"),
    ("allowed", "disallowed"),
    ("agree", "disagree"),
    ("like", "dislike"),
    ("import", "export"),
    ("imports", "exports"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("included", "excluded"),
    ("increase", "decrease"),
    ("increases", "decreases"),
    ("increased", "decreased"),
    ("maximum", "minimum"),
    ("inside", "outside"),
    ("input", "output"),
    ("internal", "external"),
    ("explicit", "implicit"),
    ("explicitly", "implicitly"),
    ("inner", "outer"),
    ("upper", "lower"),
    ("major", "minor"),
    ("encode", "decode"),
    ("encrypt", "decrypt"),
    ("lock", "unlock"),
    ("install", "uninstall"),
    ("wrap", "unwrap"),
    ("serialize", "deserialize"),
    ("accept", "reject"),
    ("accepted", "rejected"),
    ("success", "failure"),
    ("true", "false"),
    ("regular", "irregular"),
    ("relevant", "irrelevant"),
    ("direct", "indirect"),
    ("directly", "indirectly"),
    ("efficient", "inefficient"),
    ("appropriate", "inappropriate"),
    ("mature", "immature"),
    ("patient", "impatient"),
    ("sufficient", "insufficient"),
    ("secure", "insecure"),
    ("stable", "unstable"),
    ("clear", "unclear"),
    ("common", "uncommon"),
    ("usual", "unusual"),
    ("fortunately", "unfortunately"),
    ("trusted", "untrusted"),
];

/// Phrases that carry a [`WORD_PAIRS`] word when the sentence has none.
const PAIR_PHRASES: &[(&str, &str)] = &[
    ("the {} agreed", "founder"),
    ("{} rose", "imports"),
    ("it was {}", "profitable"),
    ("the {} limit", "legal"),
    ("the {} size", "maximum"),
    ("sales {}", "increased"),
    ("{} the file", "include"),
    ("the {} cases", "known"),
    ("the {} inputs", "valid"),
    ("the {} call", "safe"),
    ("the {} outcome", "possible"),
    ("the {} signed", "owner"),
    ("the {} spoke", "president"),
    ("the {} API", "internal"),
    ("the {} bound", "upper"),
    ("the {} version", "major"),
    ("{} the data", "encrypt"),
    ("the {} buffer", "input"),
    ("the {} call", "explicit"),
    ("the {} case", "regular"),
    ("the {} users", "patient"),
    ("they {}", "agree"),
    ("the {} release", "stable"),
    ("the {} loop", "inner"),
    ("the {} patch", "accepted"),
    ("the {} version", "checked"),
    ("the {} cost", "direct"),
    ("the {} path", "efficient"),
    ("the {} mode", "secure"),
    ("the {} part", "relevant"),
    ("the {} design", "mature"),
    ("the {} effect", "expected"),
    ("the {} fields", "used"),
];

/// Short words that may stand where the tail of a longer word was.
const SHORT_WORDS: &[&str] = &[
    "up", "on", "in", "at", "it", "is", "as", "an", "no", "so", "to", "we", "he", "me", "us", "by", "or", "of", "do",
    "go", "off", "out", "all", "any", "can", "not", "now", "new", "old", "one", "two", "top", "low", "her", "his",
    "its", "our", "you", "who", "why", "how", "yes", "get", "set", "let", "put", "run", "use",
];

const DOTTED: &[(&str, &str)] =
    &[("U.K.", "U.N."), ("U.S.", "U.K."), ("U.N.", "U.S."), ("E.U.", "U.S."), ("U.S.", "E.U."), ("U.K.", "U.S.")];

const ACRONYMS: &[&str] = &["NASA", "AWS", "CPU", "HTTP", "JSON", "IETF", "UNESCO", "NATO", "OECD", "IEEE", "ISO"];

/// Every closed-class word of this file (the typo class leaves them alone).
pub fn closed_word(w: &str) -> bool {
    let w = w.to_lowercase();
    FUNCTION_GROUPS.iter().any(|g| g.contains(&w.as_str()))
        || NUMBER_WORDS.contains(&w.as_str())
        || ORDINALS.contains(&w.as_str())
        || [
            "the", "a", "an", "not", "is", "are", "was", "were", "be", "been", "which", "what", "who", "there", "here",
            "when", "where", "than", "then", "also", "only", "just", "very", "other", "about", "because", "while",
            "whether", "though", "although", "since", "until", "never", "always",
        ]
        .contains(&w.as_str())
}

/// The value of a number word or a number in digits.
pub fn number_value(w: &str) -> Option<u64> {
    let w = w.to_lowercase();
    NUMBER_WORDS.iter().position(|n| *n == w).map(|i| i as u64).or_else(|| w.parse().ok())
}

pub fn is_scale_or_unit(w: &str) -> bool {
    SCALES_AND_UNITS.iter().any(|(a, b)| *a == w || *b == w)
}

pub fn is_word_pair(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    WORD_PAIRS.iter().any(|(x, y)| (*x == a && *y == b) || (*x == b && *y == a))
}

fn capitalize(w: &str, like: &str) -> String {
    if like.chars().next().is_some_and(char::is_uppercase) {
        let mut c = w.chars();
        c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
    } else {
        w.to_string()
    }
}

// ---- typos ----

const KEYBOARD: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

/// Letters next to `c` on a QWERTY keyboard.
fn neighbours(c: char) -> Vec<char> {
    let rows: Vec<Vec<char>> = KEYBOARD.iter().map(|r| r.chars().collect()).collect();
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if let Some(i) = row.iter().position(|&x| x == c) {
            for (rr, other) in rows.iter().enumerate() {
                if rr + 1 < r || rr > r + 1 {
                    continue;
                }
                for j in i.saturating_sub(1)..=i + 1 {
                    if let Some(&x) = other.get(j) {
                        if x != c {
                            out.push(x);
                        }
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push('e');
    }
    out
}

/// `edits` slips (adjacent key, dropped letter, doubled or extra letter,
/// swapped neighbours), never on the first letter.
fn typo(word: &str, edits: usize, rng: &mut Rng) -> String {
    let mut c: Vec<char> = word.chars().collect();
    for _ in 0..edits {
        let n = c.len();
        let k = 1 + rng.below(n - 1);
        match rng.below(4) {
            0 => {
                let nb = neighbours(c[k]);
                c[k] = nb[rng.below(nb.len())];
            }
            1 if n > 4 => {
                c.remove(k);
            }
            2 => {
                let extra = if rng.chance(50) {
                    c[k]
                } else {
                    let nb = neighbours(c[k]);
                    nb[rng.below(nb.len())]
                };
                c.insert(k, extra);
            }
            _ => {
                if k + 1 < n {
                    c.swap(k, k + 1);
                } else {
                    c.swap(k - 1, k);
                }
            }
        }
    }
    c.into_iter().collect()
}

// ---- making pairs ----

struct Ctx<'a> {
    para: &'static str,
    s: &'a Sentence,
    toks: Vec<&'static str>,
    lex: &'a Lexicon,
}

impl Ctx<'_> {
    fn flat(&self) -> String {
        self.toks.join(" ")
    }

    /// The quote: the sentence with token `i`'s word replaced.
    fn replaced(&self, i: usize, word: &str) -> String {
        let mut t: Vec<String> = self.toks.iter().map(|t| t.to_string()).collect();
        let (lead, _, trail) = split_token(self.toks[i]);
        t[i] = format!("{lead}{word}{trail}");
        t.join(" ")
    }

    fn pair(&self, class: Class, span: Option<String>, quote: String, from: &str, to: &str, how: &'static str) -> Pair {
        let span = span.unwrap_or_else(|| self.para[self.s.start..self.s.end].to_string());
        Pair {
            class,
            source: passage(self.para, self.s.start, self.s.end, &span),
            source_sentence: span,
            quote,
            from: from.to_string(),
            to: to.to_string(),
            how,
        }
    }

    /// Indices of tokens whose word passes `f`.
    fn find(&self, f: impl Fn(usize, &str) -> bool) -> Vec<usize> {
        (0..self.toks.len()).filter(|&i| f(i, split_token(self.toks[i]).1)).collect()
    }

    /// `src` inserted into the sentence (in the middle, in parentheses, or
    /// as a last clause) and `quote` at the same place in the quote:
    /// `(source sentence, quote)`.
    fn insert(&self, rng: &mut Rng, frames: (&str, &str), src: &str, quote: &str) -> Option<(String, String)> {
        let n = self.toks.len();
        let (s, para) = (self.s, self.para);
        if rng.chance(60) {
            let k = 1 + rng.below(n - 3);
            if !split_token(self.toks[k]).2.is_empty() {
                return None;
            }
            let cut = s.words[k].1;
            let span = format!("{} {}{}", &para[s.start..cut], frames.0.replace("{}", src), &para[cut..s.end]);
            let q = format!(
                "{} {} {}",
                self.toks[..=k].join(" "),
                frames.0.replace("{}", quote),
                self.toks[k + 1..].join(" ")
            );
            Some((span, q))
        } else {
            if split_token(self.toks[n - 1]).2 != "." {
                return None;
            }
            let span = format!("{}, {}.", &para[s.start..s.end - 1], frames.1.replace("{}", src));
            let flat = self.flat();
            let q = format!("{}, {}.", &flat[..flat.len() - 1], frames.1.replace("{}", quote));
            Some((span, q))
        }
    }
}

/// Generates `per_class` pairs of every class, deterministically.
pub fn generate(per_class: usize, lex: &Lexicon) -> Vec<Pair> {
    let book = book();
    assert!(book.sentences.len() > 2000, "only {} sentences in the book", book.sentences.len());
    let mut pairs = Vec::new();
    for class in Class::ALL {
        let mut rng = Rng::new(0x5EED_0012_u64.wrapping_mul(class as u64 + 7) ^ 0x9E37_79B9_7F4A_7C15);
        let mut seen = HashSet::new();
        let mut tries = 0;
        let before = pairs.len();
        while pairs.len() - before < per_class {
            tries += 1;
            assert!(tries < 400_000, "{class:?}: only {} pairs", pairs.len() - before);
            let Some(s) = rng.pick(&book.sentences) else { break };
            let para = book.paras[s.para];
            let toks = s.words.iter().map(|&(a, b)| &para[a..b]).collect();
            let ctx = Ctx { para, s, toks, lex };
            let Some(p) = make(class, &ctx, &mut rng) else { continue };
            if keep(&p) && seen.insert(p.quote.clone()) {
                pairs.push(p);
            }
        }
    }
    pairs
}

/// Drops pairs whose quote is legitimately in the source: a refused class's
/// quote may not occur in the passage (as whole words for partial-word
/// edges, whose quotes are cut out of the source on purpose).
fn keep(p: &Pair) -> bool {
    if collapse(&p.quote) == collapse(&p.source_sentence) && p.class != Class::Noise {
        return false;
    }
    match p.class {
        Class::Noise => true,
        Class::PartialWord => !occurs_as_words(&p.source, &p.quote),
        _ => !collapse(&p.source).to_lowercase().contains(&collapse(&p.quote).to_lowercase()),
    }
}

fn make(class: Class, c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    match class {
        Class::Typo => make_typo(c, rng),
        Class::Noise => make_noise(c, rng),
        Class::FunctionWord => make_function_word(c, rng),
        Class::NumberWord => make_number_word(c, rng),
        Class::DigitsInToken => make_digits(c, rng),
        Class::ScaleOrUnit => make_scale(c, rng),
        Class::NameOrAcronym => make_name(c, rng),
        Class::PrefixOrAntonym => make_prefix(c, rng),
        Class::PartialWord => make_partial(c, rng),
        Class::Shuffled => make_shuffled(c, rng),
    }
}

/// The lowercased words of a passage.
pub fn words_of(s: &str) -> HashSet<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A content word of five or more lowercase letters, 1 slip up to 6
/// letters, 1–2 up to 10, then 1–3; the result is no word of the word list
/// nor of the passage, and within 3 edits.
fn make_typo(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let cands = c.find(|_, w| w.len() >= 5 && w.bytes().all(|b| b.is_ascii_lowercase()) && !closed_word(w));
    let i = *rng.pick(&cands)?;
    let w = split_token(c.toks[i]).1;
    let edits = match w.len() {
        5..=6 => 1,
        7..=10 => 1 + usize::from(rng.chance(35)),
        _ => 1 + rng.below(3),
    };
    let t = typo(w, edits, rng);
    let d = levenshtein(w, &t);
    if d == 0 || d > 3 || c.lex.words.contains(&t) || words_of(c.para).contains(&t) {
        return None;
    }
    Some(c.pair(Class::Typo, None, c.replaced(i, &t), w, &t, "in text"))
}

fn make_noise(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let flat = c.flat();
    let spaces: Vec<usize> = flat.match_indices(' ').map(|(i, _)| i).collect();
    let at_space = |rng: &mut Rng, with: &str| {
        let i = *rng.pick(&spaces).expect("six words");
        format!("{}{with}{}", &flat[..i], &flat[i + 1..])
    };
    let long = c.find(|_, w| w.len() >= 7 && w.bytes().all(|b| b.is_ascii_lowercase()));
    let (quote, how, span) = match rng.below(11) {
        0 => {
            if flat.contains(['’', '‘', '“', '”']) {
                (flat.replace(['’', '‘'], "'").replace(['“', '”'], "\""), "straight quotes for curly ones", None)
            } else if flat.contains('\'') {
                (flat.replace('\'', "’"), "curly apostrophe for a straight one", None)
            } else {
                return None;
            }
        }
        1 => {
            let hyphenated = c.find(|i, w| w.contains('-') && !c.toks[i].contains(['(', ')']));
            if let Some(&i) = rng.pick(&hyphenated) {
                let dash = if rng.chance(50) { "–" } else { "—" };
                (c.replaced(i, &split_token(c.toks[i]).1.replacen('-', dash, 1)), "dash for a hyphen", None)
            } else if flat.contains(", ") {
                (flat.replacen(", ", " — ", 1), "em dash for a comma", None)
            } else {
                return None;
            }
        }
        2 => {
            let mut q = flat.clone();
            for _ in 0..1 + rng.below(3) {
                let at: Vec<usize> = q.match_indices(' ').map(|(i, _)| i).collect();
                let i = *rng.pick(&at)?;
                q = format!("{}\u{a0}{}", &q[..i], &q[i + 1..]);
            }
            (q, "no-break spaces", None)
        }
        3 => {
            let i = *rng.pick(&c.find(|_, w| w.len() >= 6 && w.is_ascii()))?;
            let w = split_token(c.toks[i]).1;
            let k = 2 + rng.below(w.len() - 3);
            (c.replaced(i, &format!("{}\u{ad}{}", &w[..k], &w[k..])), "soft hyphen", None)
        }
        4 => {
            let at: Vec<(usize, &str)> = flat.match_indices("fi").chain(flat.match_indices("fl")).collect();
            let &(i, lig) = rng.pick(&at)?;
            let l = if lig == "fi" { "\u{fb01}" } else { "\u{fb02}" };
            (format!("{}{l}{}", &flat[..i], &flat[i + 2..]), "ligature", None)
        }
        5 => match rng.below(4) {
            0 => (flat.to_uppercase(), "upper case", None),
            1 => (flat.to_lowercase(), "lower case", None),
            2 => {
                let mut ch = flat.chars();
                let first = ch.next()?;
                if !first.is_uppercase() {
                    return None;
                }
                (first.to_lowercase().chain(ch).collect(), "first letter lowercased", None)
            }
            _ => {
                let i =
                    *rng.pick(&c.find(|i, w| i > 0 && w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase())))?;
                (c.replaced(i, &capitalize(split_token(c.toks[i]).1, "A")), "a word capitalized", None)
            }
        },
        6 => {
            let with = if rng.chance(70) { "  " } else { "   " };
            (at_space(rng, with), "doubled space", None)
        }
        7 => {
            let hyphenated = c.find(|_, w| {
                w.split_once('-').is_some_and(|(a, b)| {
                    a.len() > 1 && b.len() > 1 && a.chars().chain(b.chars()).all(|c| c.is_ascii_alphabetic())
                })
            });
            if let (Some(&i), true) = (rng.pick(&hyphenated), rng.chance(50)) {
                let w = split_token(c.toks[i]).1;
                if rng.chance(50) {
                    (c.replaced(i, &w.replacen('-', " ", 1)), "space for a hyphen", None)
                } else {
                    (c.replaced(i, &w.replacen('-', "", 1)), "hyphen removed", None)
                }
            } else {
                let n = c.toks.len();
                let plain = |t: &str| t.bytes().all(|b| b.is_ascii_lowercase()) && t.len() >= 3 && !closed_word(t);
                let k = rng.below(n - 1);
                if !(plain(c.toks[k]) && plain(c.toks[k + 1])) {
                    return None;
                }
                let mut t: Vec<String> = c.toks.iter().map(|t| t.to_string()).collect();
                let second = t.remove(k + 1);
                t[k] = format!("{}-{second}", t[k]);
                (t.join(" "), "hyphen for a space", None)
            }
        }
        8 => {
            let commas = c.find(|i, _| c.toks[i].ends_with(',') && i + 1 < c.toks.len());
            if let (Some(&i), true) = (rng.pick(&commas), rng.chance(60)) {
                (c.replaced(i, split_token(c.toks[i]).1), "comma dropped", None)
            } else if flat.ends_with('.') {
                (flat[..flat.len() - 1].to_string(), "final period dropped", None)
            } else {
                return None;
            }
        }
        9 => {
            let i = *rng.pick(&long)?;
            let w = split_token(c.toks[i]).1;
            let k = 3 + rng.below(w.len() - 5);
            let broken = format!("{}-\n{}", &w[..k], &w[k..]);
            if rng.chance(50) {
                (c.replaced(i, &broken), "line-break hyphenation in the quote", None)
            } else {
                let (a, b) = c.s.words[i];
                let (lead, _, _) = split_token(&c.para[a..b]);
                let word_start = a + lead.len();
                let span =
                    format!("{}{broken}{}", &c.para[c.s.start..word_start], &c.para[word_start + w.len()..c.s.end]);
                (flat.clone(), "line-break hyphenation in the source", Some(span))
            }
        }
        _ => {
            let with = if rng.chance(50) { "\n" } else { " \n\t" };
            (at_space(rng, with), "line break in the quote", None)
        }
    };
    if quote == flat && span.is_none() {
        return None;
    }
    Some(c.pair(Class::Noise, span, quote, "", "", how))
}

fn make_function_word(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let cands = c.find(|_, w| {
        let lower = w.to_lowercase();
        (w == lower || capitalize(&lower, "A") == w) && FUNCTION_GROUPS.iter().any(|g| g.contains(&lower.as_str()))
    });
    let i = *rng.pick(&cands)?;
    let w = split_token(c.toks[i]).1;
    let lower = w.to_lowercase();
    let to = if rng.chance(75) {
        let group: Vec<&&[&str]> = FUNCTION_GROUPS.iter().filter(|g| g.contains(&lower.as_str())).collect();
        let g = rng.pick(&group)?;
        *rng.pick(g)?
    } else {
        let near: Vec<&str> = FUNCTION_GROUPS
            .iter()
            .flat_map(|g| g.iter().copied())
            .filter(|x| *x != lower && levenshtein(x, &lower) <= 2)
            .collect();
        *rng.pick(&near)?
    };
    if to == lower {
        return None;
    }
    let to = capitalize(to, w);
    Some(c.pair(Class::FunctionWord, None, c.replaced(i, &to), w, &to, "in text"))
}

/// Another value: a number word (70 %) or digits.
fn other_number(value: usize, like: &str, rng: &mut Rng) -> Option<String> {
    if rng.chance(70) {
        let k = rng.below(NUMBER_WORDS.len());
        (k != value).then(|| capitalize(NUMBER_WORDS[k], like))
    } else {
        let n = rng.below(100);
        (n != value).then(|| n.to_string())
    }
}

fn make_number_word(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let cands = c.find(|_, w| NUMBER_WORDS.contains(&w.to_lowercase().as_str()));
    if let (Some(&i), true) = (rng.pick(&cands), rng.chance(70)) {
        let w = split_token(c.toks[i]).1;
        let to = other_number(number_value(w)? as usize, w, rng)?;
        return Some(c.pair(Class::NumberWord, None, c.replaced(i, &to), w, &to, "in text"));
    }
    let a = 1 + rng.below(NUMBER_WORDS.len() - 1);
    let to = other_number(a, "a", rng)?;
    let frames = *rng.pick(&[
        ("(all {} of them)", "all {} of them"),
        ("(in {} steps)", "in {} steps"),
        ("(with {} fields)", "with {} fields"),
        ("(as {} examples show)", "as {} examples show"),
    ])?;
    let (span, quote) = c.insert(rng, frames, NUMBER_WORDS[a], &to)?;
    Some(c.pair(Class::NumberWord, Some(span), quote, NUMBER_WORDS[a], &to, "inserted"))
}

/// `token` with one digit changed (only among the bytes `from..`).
fn change_digit(token: &str, from: usize, rng: &mut Rng) -> Option<String> {
    let b = token.as_bytes();
    let digits: Vec<usize> = (from..b.len()).filter(|&i| b[i].is_ascii_digit()).collect();
    let &k = rng.pick(&digits)?;
    let leading = k == 0 || !b[k - 1].is_ascii_digit();
    let run_longer = b.get(k + 1).is_some_and(u8::is_ascii_digit);
    let mut d = b'0' + rng.below(10) as u8;
    if d == b[k] {
        d = b'0' + (d - b'0' + 1) % 10;
    }
    if leading && run_longer && d == b'0' {
        d = b'1' + (b[k] - b'0') % 9;
        if d == b[k] {
            return None;
        }
    }
    let mut out = b.to_vec();
    out[k] = d;
    String::from_utf8(out).ok()
}

fn make_digits(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let cands = c.find(|_, w| {
        w.bytes().any(|b| b.is_ascii_digit()) && w.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '.')
    });
    if let (Some(&i), true) = (rng.pick(&cands), rng.chance(50)) {
        let w = split_token(c.toks[i]).1;
        let to = change_digit(w, 0, rng)?;
        return Some(c.pair(Class::DigitsInToken, None, c.replaced(i, &to), w, &to, "in text"));
    }
    let (token, from, frames) = match rng.below(6) {
        0 => (
            format!("{}.{}.{}", 1 + rng.below(9), rng.below(20), rng.below(10)),
            0,
            ("(tested with version {})", "as of version {}"),
        ),
        1 => (
            rng.pick(&["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"])?.to_string(),
            0,
            ("(stored as {})", "stored as {}"),
        ),
        2 => (format!("r{}", 10 + rng.below(990)), 0, ("(fixed in revision {})", "as of revision {}")),
        3 => (
            format!("a{}b", rng.pick(&["%2F", "%3A", "%20", "%23", "%3F", "%26"])?),
            0,
            ("(the path {})", "with the path {}"),
        ),
        4 => {
            let url = "https://github.com/rust-lang/book/issues/";
            (format!("{url}{}", 100 + rng.below(9900)), url.len(), ("(see {})", "see {}"))
        }
        _ => (
            format!("20{:02}-{:02}-{:02}", 10 + rng.below(15), 1 + rng.below(12), 1 + rng.below(28)),
            0,
            ("(released {})", "released {}"),
        ),
    };
    let to = change_digit(&token, from, rng)?;
    let (span, quote) = c.insert(rng, frames, &token, &to)?;
    Some(c.pair(Class::DigitsInToken, Some(span), quote, &token, &to, "inserted"))
}

fn make_scale(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let &(a, b) = rng.pick(SCALES_AND_UNITS)?;
    let (from, to) = if rng.chance(50) { (a, b) } else { (b, a) };
    let n = 2 + rng.below(998);
    let frames = if SCALE_WORDS.contains(&from) || SCALE_WORDS.contains(&to) {
        ("(for {} users)", "for {} users")
    } else {
        ("(in about {})", "in about {}")
    };
    let (span, quote) = c.insert(rng, frames, &format!("{n} {from}"), &format!("{n} {to}"))?;
    Some(c.pair(Class::ScaleOrUnit, Some(span), quote, from, to, "inserted"))
}

/// A name of the same length as `name`, preferably within two edits.
fn other_name(name: &str, lex: &Lexicon, rng: &mut Rng) -> Option<String> {
    let same = lex.names.get(&name.len())?;
    let lower = name.to_lowercase();
    let near: Vec<&String> = same.iter().filter(|n| n.to_lowercase() != lower && levenshtein(n, name) <= 2).collect();
    if let Some(n) = rng.pick(&near) {
        return Some(n.to_string());
    }
    let other = rng.pick(same)?;
    (other.to_lowercase() != lower).then(|| other.clone())
}

fn make_name(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let choice = rng.below(100);
    if choice < 30 {
        // a capitalized word after a lowercase one: a name
        let cands = c.find(|i, w| {
            i > 0
                && w.len() >= 3
                && w.chars().next().is_some_and(|ch| ch.is_ascii_uppercase())
                && w.chars().skip(1).all(|ch| ch.is_ascii_lowercase())
                && !closed_word(w)
                && c.toks[i - 1].chars().last().is_some_and(|ch| ch.is_ascii_lowercase())
                && split_token(c.toks[i]).0.is_empty()
        });
        let i = *rng.pick(&cands)?;
        let w = split_token(c.toks[i]).1;
        let to = other_name(w, c.lex, rng)?;
        Some(c.pair(Class::NameOrAcronym, None, c.replaced(i, &to), w, &to, "name in text"))
    } else if choice < 45 {
        let cands = c.find(|_, w| (2..=6).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_uppercase()));
        let in_text = rng.pick(&cands).copied();
        let from = match in_text {
            Some(i) => split_token(c.toks[i]).1,
            None => *rng.pick(ACRONYMS)?,
        };
        let mut b = from.as_bytes().to_vec();
        let k = rng.below(b.len());
        let letter = b'A' + rng.below(26) as u8;
        if letter == b[k] {
            return None;
        }
        b[k] = letter;
        let to = String::from_utf8(b).ok()?;
        if let Some(i) = in_text {
            return Some(c.pair(Class::NameOrAcronym, None, c.replaced(i, &to), from, &to, "acronym in text"));
        }
        let (span, quote) = c.insert(rng, ("(as the {} reported)", "as the {} reported"), from, &to)?;
        Some(c.pair(Class::NameOrAcronym, Some(span), quote, from, &to, "acronym inserted"))
    } else if choice < 60 {
        let &(a, b) = rng.pick(DOTTED)?;
        let (span, quote) = c.insert(rng, ("(in the {} release)", "in the {} release"), a, b)?;
        Some(c.pair(Class::NameOrAcronym, Some(span), quote, a, b, "dotted acronym inserted"))
    } else if choice < 80 {
        let cands = c.find(|_, w| ORDINALS.contains(&w.to_lowercase().as_str()));
        let to_from = |from: &str, rng: &mut Rng| {
            let to = *rng.pick(ORDINALS)?;
            (to != from.to_lowercase()).then(|| capitalize(to, from))
        };
        if let (Some(&i), true) = (rng.pick(&cands), rng.chance(60)) {
            let w = split_token(c.toks[i]).1;
            let to = to_from(w, rng)?;
            return Some(c.pair(Class::NameOrAcronym, None, c.replaced(i, &to), w, &to, "ordinal in text"));
        }
        let from = *rng.pick(ORDINALS)?;
        let to = to_from(from, rng)?;
        let (span, quote) = c.insert(rng, ("(the {} edition)", "in the {} edition"), from, &to)?;
        Some(c.pair(Class::NameOrAcronym, Some(span), quote, from, &to, "ordinal inserted"))
    } else {
        let len = 4 + rng.below(5);
        let from = rng.pick(c.lex.names.get(&len)?)?.clone();
        let to = other_name(&from, c.lex, rng)?;
        let (span, quote) = c.insert(rng, ("(as {} noted)", "as {} noted"), &from, &to)?;
        Some(c.pair(Class::NameOrAcronym, Some(span), quote, &from, &to, "name inserted"))
    }
}

fn make_prefix(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let opposite = |w: &str| -> Option<&'static str> {
        let lower = w.to_lowercase();
        WORD_PAIRS.iter().find_map(|&(a, b)| {
            if a == lower {
                Some(b)
            } else if b == lower {
                Some(a)
            } else {
                None
            }
        })
    };
    let cands =
        c.find(|_, w| (w == w.to_lowercase() || capitalize(&w.to_lowercase(), "A") == w) && opposite(w).is_some());
    if let (Some(&i), true) = (rng.pick(&cands), rng.chance(60)) {
        let w = split_token(c.toks[i]).1;
        let to = capitalize(opposite(w)?, w);
        return Some(c.pair(Class::PrefixOrAntonym, None, c.replaced(i, &to), w, &to, "in text"));
    }
    let &(phrase, word) = rng.pick(PAIR_PHRASES)?;
    let other = opposite(word)?;
    let (from, to) = if rng.chance(50) { (word, other) } else { (other, word) };
    let (span, quote) = c.insert(rng, ("({})", "and {}"), &phrase.replace("{}", from), &phrase.replace("{}", to))?;
    Some(c.pair(Class::PrefixOrAntonym, Some(span), quote, from, to, "inserted"))
}

fn make_partial(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let n = c.toks.len();
    let lower_word = |i: usize| {
        let (lead, w, _) = split_token(c.toks[i]);
        (lead.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())).then_some(w)
    };
    let choice = rng.below(100);
    if choice < 30 {
        // "was 15" quoted from "was 150"
        let m = 10 + rng.below(90);
        let d = rng.below(10);
        if split_token(c.toks[n - 1]).2 != "." {
            return None;
        }
        let span = format!("{}, and the count was {m}{d}.", &c.para[c.s.start..c.s.end - 1]);
        let flat = c.flat();
        let quote = format!("{}, and the count was {m}", &flat[..flat.len() - 1]);
        return Some(c.pair(Class::PartialWord, Some(span), quote, &format!("{m}{d}"), &m.to_string(), "number cut"));
    }
    let i = rng.below(n.saturating_sub(4));
    let j = (i + 3 + rng.below(8)).min(n - 1);
    if choice < 70 {
        // "art of war" quoted from "start of warfare": a word at either
        // edge cut to a shorter word
        let head: Vec<&str> = lower_word(i)
            .map(|w| (1..w.len().saturating_sub(2)).map(|k| &w[k..]).filter(|t| c.lex.words.contains(*t)).collect())
            .unwrap_or_default();
        let tail: Vec<&str> = lower_word(j)
            .map(|w| (3..w.len()).map(|k| &w[..k]).filter(|t| c.lex.words.contains(*t)).collect())
            .unwrap_or_default();
        let cut_head = rng.pick(&head).copied().filter(|_| tail.is_empty() || rng.chance(60));
        let cut_tail = rng.pick(&tail).copied().filter(|_| cut_head.is_none() || rng.chance(40));
        if cut_head.is_none() && cut_tail.is_none() {
            return None;
        }
        let mut words: Vec<String> = c.toks[i..=j].iter().map(|t| t.to_string()).collect();
        let (mut from, mut to) = (Vec::new(), Vec::new());
        if let Some(h) = cut_head {
            let (_, w, trail) = split_token(c.toks[i]);
            words[0] = format!("{h}{trail}");
            from.push(w);
            to.push(h);
        }
        if let Some(t) = cut_tail {
            let w = split_token(c.toks[j]).1;
            *words.last_mut().expect("four words") = t.to_string();
            from.push(w);
            to.push(t);
        }
        return Some(c.pair(Class::PartialWord, None, words.join(" "), &from.join(" … "), &to.join(" … "), "word cut"));
    }
    // "up the river" quoted against "down the river": the first word
    // replaced by a short word the matcher can align with another word's tail
    let w = lower_word(i)?;
    let len = 2 + rng.below(2);
    if w.len() <= len {
        return None;
    }
    let t = &w[w.len() - len..];
    let near: Vec<&str> = SHORT_WORDS
        .iter()
        .copied()
        .filter(|r| {
            r.len() == len && *r != t && *r != w && r.bytes().zip(t.bytes()).filter(|(a, b)| a != b).count() <= 2
        })
        .collect();
    let r = *rng.pick(&near)?;
    let trail = split_token(c.toks[i]).2;
    let quote = format!("{r}{trail} {}", c.toks[i + 1..=j].join(" "));
    Some(c.pair(Class::PartialWord, None, quote, w, r, "first word for another's tail"))
}

fn make_shuffled(c: &Ctx, rng: &mut Rng) -> Option<Pair> {
    let words: Vec<&str> = c.toks.iter().map(|t| split_token(t).1).filter(|w| !w.is_empty()).collect();
    if words.len() < 8 {
        return None;
    }
    let mut w = words.clone();
    for i in (1..w.len()).rev() {
        w.swap(i, rng.below(i + 1));
    }
    let kept = w.windows(2).filter(|p| words.windows(2).any(|q| q == *p)).count();
    if kept * 4 > w.len() {
        return None;
    }
    Some(c.pair(Class::Shuffled, None, format!("{}.", w.join(" ")), "", "", "word salad"))
}
