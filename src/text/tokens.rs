//! Word tokens of normalized text, a light English stemmer, stop words, and
//! the numbers and negations a claim must not change (issue 2, item 4).
//!
//! A token is a run of letters and digits of any script; `.` and `,` inside a
//! number (`2.0`, `1,000`) and an apostrophe inside a word (`don't`) stay in
//! the token. Ideographs (CJK) and other characters of scripts written without
//! spaces are one token each, so lexical matching still works on them.

/// A token: byte range in the text it was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Byte offset of the first char.
    pub start: u32,
    /// Byte offset after the last char.
    pub end: u32,
}

impl Token {
    /// The token's text in `text`.
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.start as usize..self.end as usize).unwrap_or("")
    }
}

/// True for chars that are one token each (scripts written without spaces).
fn is_ideographic(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // hiragana, katakana
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified
        | 0xF900..=0xFAFF // CJK compatibility
        | 0x20000..=0x2FA1F
        | 0x0E00..=0x0E7F // Thai
    )
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_ideographic(c)
}

/// Tokenizes `text`.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    for_each_token(text, |t| tokens.push(t));
    tokens
}

/// Whether `word` is one token, whole (no separator, no ideograph beside
/// another char, no joiner at either end).
pub fn is_one_token(word: &str) -> bool {
    let (mut n, mut whole) = (0usize, false);
    for_each_token(word, |t| {
        n += 1;
        whole = t.start == 0 && t.end as usize == word.len();
    });
    n == 1 && whole
}

/// Calls `f` for every token of `text`, in order.
pub fn for_each_token(text: &str, mut f: impl FnMut(Token)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            if is_ascii_alnum(b) {
                let end = ascii_word_end(text, b, i + 1);
                f(Token { start: i as u32, end: end as u32 });
                i = end;
            } else {
                i += 1;
            }
            continue;
        }
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        let next = i + c.len_utf8();
        if is_ideographic(c) {
            f(Token { start: i as u32, end: next as u32 });
            i = next;
        } else if is_word_char(c) {
            let end = word_end(text, c, next);
            f(Token { start: i as u32, end: end as u32 });
            i = end;
        } else {
            i = next;
        }
    }
}

/// ASCII letters and digits.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of bounds fails the build
static ASCII_ALNUM: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    t
};

#[inline(always)]
fn is_ascii_alnum(b: u8) -> bool {
    ASCII_ALNUM.get(b as usize).copied().unwrap_or(false)
}

/// The high bit of each byte of `x` (little endian) that is an ASCII
/// letter or digit ([`is_ascii_alnum`]), exactly: the tests on the bytes'
/// low seven bits (no carry crosses a byte), then the bytes of 0x80 and
/// above dropped.
#[inline(always)]
fn ascii_alnum_bytes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low = x & !HIGH;
    // the high bit of each byte of `v` (bytes below 0x80) >= t
    let ge = |v: u64, t: u8| v.wrapping_add(u64::from(0x80 - t) * ONES) & HIGH;
    let digit = ge(low, b'0') & !ge(low, b'9' + 1);
    let folded = low | (0x20 * ONES); // 'A'..='Z' to 'a'..='z', nothing else into them
    let letter = ge(folded, b'a') & !ge(folded, b'z' + 1);
    (digit | letter) & !x & HIGH
}

/// [`word_end`] of a word whose first char is the ASCII letter or digit
/// `first`: its run of ASCII letters and digits read here, and `word_end`
/// asked only when a byte that can continue the word follows the run (a
/// joiner `.` `,` `'`, or a non-ASCII char); an ASCII byte that is no
/// joiner, or the text's end, ends the word where `word_end` ends it.
#[inline(always)]
fn ascii_word_end(text: &str, first: u8, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut j = from;
    // eight bytes at a time: the run ends at the first byte that is no
    // ASCII letter or digit (no branch a byte, so no misprediction where
    // a word ends)
    while let Some(block) = bytes.get(j..).and_then(|r| r.first_chunk::<8>()) {
        let stop = !ascii_alnum_bytes(u64::from_le_bytes(*block)) & 0x8080_8080_8080_8080;
        if stop != 0 {
            j += (stop.trailing_zeros() / 8) as usize;
            break;
        }
        j += 8;
    }
    while bytes.get(j).is_some_and(|&b| is_ascii_alnum(b)) {
        j += 1;
    }
    match bytes.get(j) {
        Some(&b) if b.is_ascii() && !matches!(b, b'.' | b',' | b'\'') => j,
        None => j,
        // `word_end` from the run's end, in the state its own walk over
        // the run would leave (the run's last char as the one before)
        Some(_) => word_end(text, char::from(bytes.get(j - 1).copied().filter(|_| j > from).unwrap_or(first)), j),
    }
}

/// The end of the word whose first char `first` ends at `from`: word chars,
/// and the joiners of `1,000`, `2.5` and `don't` between them.
#[inline]
fn word_end(text: &str, first: char, from: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut end, mut prev, mut j) = (from, first, from);
    loop {
        let run = j;
        while bytes.get(j).is_some_and(|&b| is_ascii_alnum(b)) {
            j += 1;
        }
        if j > run {
            end = j;
            prev = bytes.get(j - 1).map_or(prev, |&b| char::from(b));
        }
        let Some(&b) = bytes.get(j) else { break };
        if b.is_ascii() {
            // joiners: 1,000  2.5  don't
            let next = bytes.get(j + 1).copied().map(char::from);
            let joins = match b {
                b'.' | b',' => prev.is_ascii_digit() && next.is_some_and(|n| n.is_ascii_digit()),
                b'\'' => prev.is_alphabetic() && next.is_some_and(|n| n.is_ascii_alphabetic()),
                _ => false,
            };
            if !joins {
                break;
            }
            j += 1;
            continue;
        }
        let Some(d) = text.get(j..).and_then(|t| t.chars().next()) else {
            break;
        };
        if !is_word_char(d) {
            break;
        }
        j += d.len_utf8();
        end = j;
        prev = d;
    }
    end
}

#[cfg(test)]
/// Number of tokens of `text` (what [`tokenize`] would return, counted).
pub fn count_tokens(text: &str) -> usize {
    let mut n = 0;
    for_each_token(text, |_| n += 1);
    n
}

/// English stop words: function words that carry no content of their own.
/// Negations are NOT stop words for the guard, but are for similarity.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "may",
    "me",
    "might",
    "more",
    "most",
    "must",
    "my",
    "myself",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// True when `word` (normalized, lowercase) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Words that negate what follows.
const NEGATIONS: &[&str] =
    &["cannot", "neither", "never", "no", "nobody", "none", "nor", "not", "nothing", "nowhere", "without"];

/// True when `word` (normalized) negates: a negation word or a `n't` form.
pub fn is_negation(word: &str) -> bool {
    NEGATIONS.binary_search(&word).is_ok() || word.ends_with("n't")
}

/// A light English stemmer: strips common inflectional and derivational
/// suffixes so that `authenticate`, `authenticated` and `authentication`
/// share a stem. Deliberately conservative (stems keep at least 4 chars);
/// words of other scripts and numbers are returned unchanged.
pub fn stem(word: &str) -> &str {
    if !word.is_ascii() || word.len() <= 4 || word.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return word;
    }
    const SUFFIXES: &[&str] = &[
        "izations", "ization", "ational", "ations", "ation", "nesses", "ments", "ment", "ities", "ity", "ness",
        "ingly", "ings", "ing", "ators", "ator", "ates", "ated", "ate", "ions", "ion", "ies", "ied", "ers", "er", "ed",
        "ly", "es", "s",
    ];
    for suffix in SUFFIXES {
        if let Some(base) = word.strip_suffix(suffix) {
            // a plural -s, but not the s of "class" or "status"
            let keeps_s = *suffix == "s" && (base.ends_with('s') || base.ends_with('u'));
            if base.len() >= 4 && !keeps_s {
                return base;
            }
        }
    }
    word
}

#[cfg(test)]
/// The numeric value of a number token (`1,000` is 1000, `2.0` is 2), so
/// that format differences are not reported as changed numbers.
pub fn number_value(word: &str) -> Option<f64> {
    if !word.as_bytes().first()?.is_ascii_digit() {
        return None;
    }
    let cleaned: String = word.chars().filter(|&c| c != ',').collect();
    cleaned.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        tokenize(s).iter().map(|t| t.text(s)).collect()
    }

    /// `ascii_word_end` is `word_end` at every ASCII letter or digit of
    /// random texts (letters, digits, the joiners `.` `,` `'` beside them,
    /// emoji and ZWJ sequences, CJK, combining marks, accented letters,
    /// CRLF; empty to long), so tokens are what they were.
    #[test]
    fn ascii_word_ends_are_word_ends() {
        let pieces = crate::test_rng::with_hostile(&[
            "a",
            "Z",
            "q",
            "7",
            "0",
            ".",
            ",",
            "'",
            " ",
            "-",
            "\u{e9}",
            "\u{1f468}\u{200d}\u{1f469}",
            "\u{6587}",
            "\u{3b1}",
            "\u{661}",
            "don't",
            "2.5",
            "1,000",
            "word",
            "x.",
            "\u{e0e}",
        ]);
        let mut rng = crate::test_rng::SplitMix64(0x6173_6369_6965);
        let mut checked = 0;
        for case in 0..4000 {
            let len = rng.below(crate::test_rng::most_pieces(case));
            let text = crate::test_rng::text_of(&mut |n| rng.below(n), &pieces, len);
            for (i, b) in text.bytes().enumerate() {
                if is_ascii_alnum(b) {
                    assert_eq!(
                        ascii_word_end(&text, b, i + 1),
                        word_end(&text, char::from(b), i + 1),
                        "{text:?} at {i}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// `ascii_alnum_bytes` is `is_ascii_alnum` on each byte: every byte
    /// value in every position among letters and among other bytes, and
    /// random blocks of letters, digits, punctuation and UTF-8 bytes.
    #[test]
    fn ascii_alnum_bytes_is_the_byte_test() {
        let check = |block: [u8; 8]| {
            let want =
                block.iter().enumerate().fold(0u64, |m, (k, &b)| m | u64::from(is_ascii_alnum(b)) << (8 * k + 7));
            assert_eq!(ascii_alnum_bytes(u64::from_le_bytes(block)), want, "{block:?}");
        };
        for b in 0..=255u8 {
            for k in 0..8 {
                for base in [*b"abcdefgh", *b"..,'  -\xff", *b"\xc3\xa9Zz09@[", *b"`{/:\x7f\x80\x00 "] {
                    let mut block = base;
                    block[k] = b;
                    check(block);
                }
            }
        }
        let bytes = b"aAzZ09@[`{/:.,' -\x7f\x80\xbf\xc3\xe4\xf0\xff\x00";
        let mut rng = crate::test_rng::SplitMix64(0x0061_6c6e_756d);
        for _ in 0..100_000 {
            check(std::array::from_fn(|_| bytes[rng.below(bytes.len())]));
        }
    }

    #[test]
    fn tokens_keep_numbers_and_contractions() {
        assert_eq!(words("oauth 2.0, 1,000 users don't (x)"), ["oauth", "2.0", "1,000", "users", "don't", "x"]);
        assert_eq!(words("end. 5."), ["end", "5"]);
        assert_eq!(words("中文abc😀déf"), ["中", "文", "abc", "déf"]);
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(NEGATIONS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stop_word("the") && !is_stop_word("oauth"));
    }

    #[test]
    fn stems_conflate_derivations() {
        assert_eq!(stem("authentication"), stem("authenticate"));
        assert_eq!(stem("authenticated"), stem("authenticate"));
        assert_eq!(stem("users"), "user");
        assert_eq!(stem("2023"), "2023");
        assert_eq!(stem("class"), "class");
    }

    #[test]
    fn negations_and_numbers() {
        assert!(is_negation("not") && is_negation("isn't") && !is_negation("note"));
        assert_eq!(number_value("1,000"), Some(1000.0));
        assert_eq!(number_value("2.0"), number_value("2"));
        assert_eq!(number_value("x1"), None);
    }

    /// The char-by-char tokenizer the byte loop replaced: the oracle.
    fn reference_tokens(text: &str) -> Vec<(u32, u32)> {
        let bytes = text.as_bytes();
        let mut tokens = Vec::new();
        let mut iter = text.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            if is_ideographic(c) {
                tokens.push((i as u32, (i + c.len_utf8()) as u32));
                continue;
            }
            if !is_word_char(c) {
                continue;
            }
            let mut end = i + c.len_utf8();
            let mut prev = c;
            while let Some(&(j, d)) = iter.peek() {
                if is_word_char(d) {
                    end = j + d.len_utf8();
                    prev = d;
                    iter.next();
                    continue;
                }
                let next = bytes.get(j + 1).copied().map(char::from);
                let joins = match d {
                    '.' | ',' => prev.is_ascii_digit() && next.is_some_and(|n| n.is_ascii_digit()),
                    '\'' => prev.is_alphabetic() && next.is_some_and(|n| n.is_ascii_alphabetic()),
                    _ => false,
                };
                if !joins {
                    break;
                }
                iter.next();
            }
            tokens.push((i as u32, end as u32));
        }
        tokens
    }

    #[test]
    fn agrees_with_the_char_by_char_tokenizer() {
        let pieces = crate::test_rng::with_hostile(&[
            "a", "B", "7", " ", ".", ",", "'", "-", "\u{E9}", "\u{E01}", "\u{3A3}", "\u{663}", "\u{DF}", "don't",
            "1,000", "2.5",
        ]);
        let mut next = crate::test_rng::below(0x2545_F491_4F6C_DD1Du64);
        for _ in 0..20000 {
            let n = next(20);
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            let got: Vec<(u32, u32)> = tokenize(&text).iter().map(|t| (t.start, t.end)).collect();
            assert_eq!(got, reference_tokens(&text), "{text:?}");
            assert_eq!(count_tokens(&text), got.len());
        }
    }
}
