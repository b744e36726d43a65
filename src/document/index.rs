//! The search index of a document for one normalization profile: the
//! normalized text with its map to the original, and, built on first use,
//! what the matchers search it with (`matching::index`'s tokens and chunks,
//! the fuzzy matcher's char marks, the gram index).

use super::Format;
use crate::extract;
use crate::matching::exact::GramIndex;
use crate::matching::fuzzy::CharMarks;
use crate::matching::index::{Chunk, TokenIndex};
use crate::text::normalize::NormalizedBuilder;
use crate::text::tokens;
use crate::text::{Normalized, Profile};
use std::cell::{OnceCell, RefCell};

/// Most answers [`SearchIndex::remember_words`] keeps.
const MAX_ASKED_WORDS: usize = 100_000;

/// The short words of a text (at most three chars of `a-z`, `0-9`, `'`,
/// case folded): one bit per possible word, 56,354 bits (7 KB), exact.
pub struct ShortWords {
    bits: Vec<u64>,
}

impl ShortWords {
    const RADIX: usize = 38;
    const SLOTS: usize = 38 + 38 * 38 + 38 * 38 * 38;

    /// The bit of `word`, when it is short and of the alphabet.
    fn slot(word: &str) -> Option<usize> {
        let b = word.as_bytes();
        if b.is_empty() || b.len() > 3 {
            return None;
        }
        let mut i = 0usize;
        for &c in b {
            let d = match c.to_ascii_lowercase() {
                c @ b'a'..=b'z' => (c - b'a') as usize,
                c @ b'0'..=b'9' => 26 + (c - b'0') as usize,
                b'\'' => 36,
                _ => return None,
            };
            i = i * Self::RADIX + d + 1;
        }
        Some(i)
    }

    /// Marks `word` present, when it is short and of the alphabet.
    fn insert(&mut self, word: &str) {
        if let Some(i) = Self::slot(word) {
            if let Some(w) = self.bits.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
    }

    /// `Some(present)` for a short word of the alphabet, `None` when the
    /// word is not one this set can answer for.
    pub fn contains(&self, word: &str) -> Option<bool> {
        let i = Self::slot(word)?;
        Some(self.bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0))
    }
}

/// Normalized text plus lazily built token and chunk indexes.
pub struct SearchIndex {
    normalized: Normalized,
    tokens: OnceCell<TokenIndex>,
    words: OnceCell<usize>,
    short_words: OnceCell<ShortWords>,
    /// Longer words asked about by the meaning guard: whether the text has
    /// them as whole words (answers kept for later calls on this index).
    asked_words: RefCell<std::collections::HashMap<String, bool>>,
    char_marks: OnceCell<CharMarks>,
    grams: OnceCell<GramIndex>,
    /// Searches for few patterns asked of this index so far.
    few_searches: std::cell::Cell<u32>,
    chunks: RefCell<Option<std::rc::Rc<Chunk>>>,
}

impl SearchIndex {
    /// Normalizes `source` (read as `format`) under `profile`. Markdown is
    /// normalized as the extractor produces it, block by block, so its
    /// units are never all held at once.
    pub fn new(source: &str, format: Format, profile: Profile) -> SearchIndex {
        let normalized = match format {
            Format::PlainText => Normalized::from_plain(source, profile),
            Format::Markdown => {
                let mut builder = NormalizedBuilder::new(profile, source.len());
                extract::extract_markdown_with(source, |units| builder.push_units(units));
                builder.finish()
            }
            Format::Html => {
                let mut builder = NormalizedBuilder::new(profile, source.len());
                builder.push_units(&extract::extract_html(source).units);
                builder.finish()
            }
        };
        SearchIndex::from_normalized(normalized)
    }

    /// The index of an already normalized text.
    pub(super) fn from_normalized(normalized: Normalized) -> SearchIndex {
        SearchIndex {
            normalized,
            tokens: OnceCell::new(),
            words: OnceCell::new(),
            short_words: OnceCell::new(),
            asked_words: RefCell::new(std::collections::HashMap::new()),
            char_marks: OnceCell::new(),
            grams: OnceCell::new(),
            few_searches: std::cell::Cell::new(0),
            chunks: RefCell::new(None),
        }
    }

    /// The normalized text and its offset map.
    pub fn normalized(&self) -> &Normalized {
        &self.normalized
    }

    /// The normalized text.
    pub fn text(&self) -> &str {
        self.normalized.as_str()
    }

    /// Tokens, stems and postings, built on first use.
    pub fn tokens(&self) -> &TokenIndex {
        self.tokens.get_or_init(|| TokenIndex::new(self.normalized.as_str()))
    }

    /// The char positions of the normalized text the fuzzy matcher needs,
    /// built on first use.
    pub fn char_marks(&self) -> &CharMarks {
        self.char_marks.get_or_init(|| CharMarks::new(self.normalized.as_str()))
    }

    /// The gram index for a search of few patterns (one claim, one quote),
    /// built at the second such search: a document asked one quote after
    /// another answers each from the index instead of passes over its text,
    /// while a one-off call does not pay for building it.
    pub fn grams_for_few(&self) -> Option<&GramIndex> {
        if self.grams.get().is_none() {
            let asked = self.few_searches.get().saturating_add(1);
            self.few_searches.set(asked);
            if asked < 2 {
                return None;
            }
        }
        Some(self.grams.get_or_init(|| GramIndex::new(self.normalized.as_str().as_bytes())))
    }

    /// Number of word tokens (`tokens().len()`), counted without building
    /// the token index when it is not built yet.
    pub fn word_count(&self) -> usize {
        match self.tokens.get() {
            Some(t) => t.len(),
            None => {
                self.short_words();
                self.words.get().copied().unwrap_or(0)
            }
        }
    }

    /// The answers kept for `words` (asked before), and the words not asked
    /// yet.
    pub fn asked_words(&self, words: Vec<String>) -> (Vec<String>, Vec<String>) {
        let cache = self.asked_words.borrow();
        let (mut present, mut unknown) = (Vec::new(), Vec::new());
        for w in words {
            match cache.get(&w) {
                Some(true) => present.push(w),
                Some(false) => {}
                None => unknown.push(w),
            }
        }
        (present, unknown)
    }

    /// Keeps the answers for words asked (see [`SearchIndex::asked_words`]).
    pub fn remember_words(&self, answers: impl IntoIterator<Item = (String, bool)>) {
        let mut cache = self.asked_words.borrow_mut();
        // a long-lived document asked about ever new words starts over
        // rather than grow without bound
        if cache.len() > MAX_ASKED_WORDS {
            cache.clear();
        }
        cache.extend(answers);
    }

    /// Which words of at most three ASCII letters, digits or apostrophes the
    /// text has (lowercased): from the token index's surfaces when it is
    /// built, else found in the same pass that counts the text's words.
    pub fn short_words(&self) -> &ShortWords {
        self.short_words.get_or_init(|| {
            let mut set = ShortWords { bits: vec![0u64; (ShortWords::SLOTS + 1).div_ceil(64)] };
            if let Some(built) = self.tokens.get() {
                built.surfaces().filter(|w| w.len() <= 3).for_each(|w| set.insert(w));
                return set;
            }
            let text = self.normalized.as_str();
            let mut n = 0usize;
            tokens::for_each_token(text, |t| {
                n += 1;
                if t.end - t.start <= 3 {
                    set.insert(t.text(text));
                }
            });
            let _ = self.words.set(n);
            set
        })
    }

    /// The token index, when it is built.
    pub fn built_tokens(&self) -> Option<&TokenIndex> {
        self.tokens.get()
    }

    /// Chunk statistics for chunks of `size` chars overlapping by `overlap`,
    /// built on first use and kept while the same sizes are asked for.
    pub fn chunks(&self, size: usize, overlap: usize) -> std::rc::Rc<Chunk> {
        let mut slot = self.chunks.borrow_mut();
        if let Some(c) = slot.as_ref().filter(|c| c.is_for(size, overlap)) {
            return c.clone();
        }
        let built = std::rc::Rc::new(Chunk::new(self.tokens(), self.text(), size, overlap));
        *slot = Some(built.clone());
        built
    }

    /// Bytes held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        self.normalized.heap_bytes()
            + self.tokens.get().map_or(0, TokenIndex::heap_bytes)
            + self.char_marks.get().map_or(0, CharMarks::heap_bytes)
            + self.grams.get().map_or(0, GramIndex::heap_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_words_are_exact() {
        let text = "a it don't x9 the theory I'd ÿes";
        let idx = SearchIndex::new(text, crate::document::Format::PlainText, crate::text::Profile::default());
        let sw = idx.short_words();
        for (w, want) in [
            ("a", true),
            ("it", true),
            ("x9", true),
            ("the", true),
            ("i'd", true),
            ("ab", false),
            ("th", false),
            ("b", false),
        ] {
            assert_eq!(sw.contains(w), Some(want), "{w}");
        }
        assert_eq!(sw.contains("theory"), None);
        assert_eq!(sw.contains("ÿes"), None);
        assert_eq!(idx.word_count(), crate::text::tokens::count_tokens(idx.text()));
    }

    /// The set taken from a built token index's surfaces is the one the
    /// pass over the text fills.
    #[test]
    fn short_words_from_the_token_index_are_the_passs() {
        let mut rng = crate::test_rng::SplitMix64(21);
        let parts = ["a", "It", "don't", "x9", "THE", "theory", "I'd", "ÿes", "中", "1,000", "o'k", "'", " ", "-", "é"];
        for _ in 0..500 {
            let text: String = (0..rng.range(0, 20)).map(|_| rng.pick(&parts)).collect();
            let passed = SearchIndex::new(&text, Format::PlainText, Profile::default());
            let from_tokens = SearchIndex::new(&text, Format::PlainText, Profile::default());
            from_tokens.tokens();
            assert_eq!(passed.short_words().bits, from_tokens.short_words().bits, "{text:?}");
            assert_eq!(passed.word_count(), from_tokens.word_count(), "{text:?}");
        }
    }
}
