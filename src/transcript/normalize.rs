//! Spec 001 "Transcript Normalization": lowercase, strip punctuation (keep
//! letters and digits of every script), collapse and trim whitespace; a token
//! is a run of non-whitespace characters after that. Every token remembers the
//! bytes of the original text it came from, so a front end can highlight it.
//!
//! Two details the spec leaves open, decided here:
//! - "Strip punctuation" deletes the character (it does not split a word):
//!   `don't` → `dont`, `Dis-moi,` → `dismoi`, `3.8` → `38`. Quote and
//!   transcript go through the same function, so they agree.
//! - "Alphanumeric" is Unicode `Alphabetic` or `Numeric`, plus combining marks
//!   (the vowel signs and viramas of Indic scripts, decomposed accents), which
//!   are parts of letters. Each token is put in canonical composition (NFC)
//!   before and after lowercasing, so `café` typed precomposed matches `café`
//!   decomposed; text already in NFC (every ASR output seen) is unchanged.

use crate::text::unicode::{self, is_combining_mark};

/// A token of spec 001 with the byte range of the original text it stands for
/// (from its first to its last kept character, so surrounding punctuation is
/// outside: the span of `"Nicolas,"` is `Nicolas`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawToken {
    /// The normalized token (lowercase letters, digits and marks).
    pub text: String,
    /// Byte offset of the first kept character in the original text.
    pub byte_start: usize,
    /// Byte offset just past the last kept character.
    pub byte_end: usize,
}

/// Whether `c` survives normalization (a letter, digit or combining mark).
fn is_kept(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The normalized form of one whitespace-free run (may be empty).
fn normalize_run(run: &str) -> String {
    let mut lowered = String::with_capacity(run.len());
    for c in unicode::nfc(run) {
        if is_kept(c) {
            lowered.extend(c.to_lowercase());
        }
    }
    if lowered.is_ascii() {
        lowered
    } else {
        unicode::nfc(&lowered).into_iter().collect()
    }
}

/// Calls `f` for every token of `text`, in order.
pub fn for_each_token(text: &str, mut f: impl FnMut(RawToken)) {
    try_for_each_token(text, |t| {
        f(t);
        true
    });
}

/// Calls `f` for every token of `text`, in order, until it returns false;
/// whether every token was given.
pub fn try_for_each_token(text: &str, mut f: impl FnMut(RawToken) -> bool) -> bool {
    let mut run_start: Option<usize> = None;
    let flush = |start: usize, end: usize, f: &mut dyn FnMut(RawToken) -> bool| -> bool {
        let run = &text[start..end];
        let normalized = normalize_run(run);
        if normalized.is_empty() {
            return true;
        }
        let first = run.char_indices().find(|&(_, c)| is_kept(c)).map_or(0, |(i, _)| i);
        let last = run.char_indices().rev().find(|&(_, c)| is_kept(c)).map_or(run.len(), |(i, c)| i + c.len_utf8());
        f(RawToken { text: normalized, byte_start: start + first, byte_end: start + last.max(first) })
    };
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = run_start.take() {
                if !flush(s, i, &mut f) {
                    return false;
                }
            }
        } else if run_start.is_none() {
            run_start = Some(i);
        }
    }
    match run_start {
        Some(s) => flush(s, text.len(), &mut f),
        None => true,
    }
}

#[cfg(test)]
/// The tokens of `text` with their original byte ranges.
pub fn tokenize(text: &str) -> Vec<RawToken> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t));
    out
}

/// The normalized tokens of `text` (strings only).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t.text));
    out
}

/// Spec 001 normalization of `text`: its tokens joined by single spaces.
///
/// ```
/// use evidence_validator::transcript::normalize;
/// assert_eq!(normalize("  Hello,   WORLD! It's 3.8 s — déjà vu. "), "hello world its 38 s déjà vu");
/// ```
pub fn normalize(text: &str) -> String {
    tokens(text).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_punctuation_inside_and_around_words() {
        assert_eq!(tokens("Dis-moi, est-ce que l'avion vole ?"), ["dismoi", "estce", "que", "lavion", "vole"]);
        assert_eq!(tokens("«Bonjour» — ... !"), ["bonjour"]);
    }

    #[test]
    fn spans_cover_the_kept_characters() {
        let text = " \"Nicolas,\"  said\u{a0}ÉTÉ.";
        let toks = tokenize(text);
        let got: Vec<&str> = toks.iter().map(|t| &text[t.byte_start..t.byte_end]).collect();
        assert_eq!(got, ["Nicolas", "said", "ÉTÉ"]);
        assert_eq!(toks[2].text, "été");
    }

    #[test]
    fn every_script_keeps_its_letters_and_digits() {
        assert_eq!(tokens("Привет, МИР! ١٢٣ 東京タワー हिन्दी"), ["привет", "мир", "١٢٣", "東京タワー", "हिन्दी"]);
    }

    #[test]
    fn decomposed_and_precomposed_agree() {
        assert_eq!(tokens("cafe\u{301}"), tokens("café"));
        assert_eq!(tokens("İstanbul"), tokens("i\u{307}stanbul"));
    }

    #[test]
    fn punctuation_only_and_empty_give_no_tokens() {
        assert!(tokens("").is_empty());
        assert!(tokens(" -- ... ?! ").is_empty());
        assert_eq!(normalize("\n\t  A  \r\n b "), "a b");
    }
}
