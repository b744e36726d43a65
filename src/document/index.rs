//! The search index of a document for one normalization profile: the
//! normalized text with its map to the original, and (built on first use) the
//! word tokens with stems and postings, and the chunk statistics the lexical
//! matcher ranks with.

use super::Format;
use crate::extract;
use crate::text::normalize::NormalizedBuilder;
use crate::text::tokens::{self, Token};
use crate::text::{Normalized, Profile};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Normalized text plus lazily built token and chunk indexes.
pub struct SearchIndex {
    normalized: Normalized,
    tokens: OnceCell<TokenIndex>,
    words: OnceCell<usize>,
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
                extract::markdown::extract_markdown_with(source, |units| builder.push_units(units));
                builder.finish()
            }
            Format::Html => {
                let mut builder = NormalizedBuilder::new(profile, source.len());
                builder.push_units(&extract::html::extract_html(source).units);
                builder.finish()
            }
        };
        SearchIndex::from_normalized(normalized)
    }

    /// The index of an already normalized text.
    pub(super) fn from_normalized(normalized: Normalized) -> SearchIndex {
        SearchIndex { normalized, tokens: OnceCell::new(), words: OnceCell::new(), chunks: RefCell::new(None) }
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

    /// Number of word tokens (`tokens().len()`), counted without building
    /// the token index when it is not built yet.
    pub fn word_count(&self) -> usize {
        match self.tokens.get() {
            Some(t) => t.len(),
            None => *self.words.get_or_init(|| tokens::count_tokens(self.normalized.as_str())),
        }
    }

    /// Chunk statistics for chunks of `size` chars overlapping by `overlap`,
    /// built on first use and kept while the same sizes are asked for.
    pub fn chunks(&self, size: usize, overlap: usize) -> std::rc::Rc<Chunk> {
        let mut slot = self.chunks.borrow_mut();
        if let Some(c) = slot.as_ref().filter(|c| c.size == size && c.overlap == overlap) {
            return c.clone();
        }
        let built = std::rc::Rc::new(Chunk::new(self.tokens(), size, overlap));
        *slot = Some(built.clone());
        built
    }

    /// Bytes held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        self.normalized.heap_bytes() + self.tokens.get().map_or(0, TokenIndex::heap_bytes)
    }
}

/// FxHash (the Firefox/rustc hash): a multiply-rotate over 8-byte words,
/// several times faster than the default SipHash on short words. Term ids
/// are assigned in order of first occurrence, so the hash never shows in
/// any output.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Interned term ids, in order of first occurrence.
#[derive(Default)]
struct Vocabulary {
    ids: HashMap<Box<str>, u32, BuildHasherDefault<FxHasher>>,
}

impl Vocabulary {
    /// The id of `term` and whether it is new.
    fn intern(&mut self, term: &str) -> (u32, bool) {
        if let Some(&id) = self.ids.get(term) {
            return (id, false);
        }
        let id = self.ids.len() as u32;
        self.ids.insert(term.into(), id);
        (id, true)
    }

    fn get(&self, term: &str) -> Option<u32> {
        self.ids.get(term).copied()
    }

    fn heap_bytes(&self) -> usize {
        self.ids.keys().map(|k| k.len() + 16 + 8).sum::<usize>() + self.ids.capacity()
    }
}

/// The word tokens of a normalized text with surface and stem ids and, per
/// stem, the positions (token indices) where it occurs.
pub struct TokenIndex {
    tokens: Vec<Token>,
    char_starts: Vec<u32>,
    surfaces: Vec<u32>,
    /// Stem id of each surface id (a surface is stemmed once).
    surface_stems: Vec<u32>,
    surface_vocab: Vocabulary,
    stem_vocab: Vocabulary,
    /// Token indices by stem: those of stem `s` are
    /// `postings[posting_starts[s]..posting_starts[s + 1]]`, ascending.
    posting_starts: Vec<u32>,
    postings: Vec<u32>,
}

impl TokenIndex {
    /// Tokenizes and indexes a normalized text.
    pub fn new(text: &str) -> TokenIndex {
        let mut tokens = Vec::with_capacity(text.len() / 6);
        let mut char_starts = Vec::with_capacity(text.len() / 6);
        let mut surfaces = Vec::with_capacity(text.len() / 6);
        let mut surface_stems = Vec::new();
        let mut surface_vocab = Vocabulary::default();
        let mut stem_vocab = Vocabulary::default();
        let bytes = text.as_bytes();
        let (mut chars, mut last_byte) = (0u32, 0usize);
        tokens::for_each_token(text, |t| {
            let skipped = bytes.get(last_byte..t.start as usize).unwrap_or_default();
            chars += skipped.iter().filter(|&&b| (b & 0xC0) != 0x80).count() as u32;
            last_byte = t.start as usize;
            let word = t.text(text);
            let (surface, new) = surface_vocab.intern(word);
            if new {
                surface_stems.push(stem_vocab.intern(tokens::stem(word)).0);
            }
            tokens.push(t);
            char_starts.push(chars);
            surfaces.push(surface);
        });
        // postings by counting sort: occurrences per stem, then positions
        let stem_of = |surface: u32| surface_stems.get(surface as usize).copied().unwrap_or(0);
        let mut posting_starts = vec![0u32; stem_vocab.ids.len() + 1];
        for &s in &surfaces {
            if let Some(c) = posting_starts.get_mut(stem_of(s) as usize + 1) {
                *c += 1;
            }
        }
        for i in 1..posting_starts.len() {
            posting_starts[i] += posting_starts[i - 1];
        }
        let mut fill = posting_starts.clone();
        let mut postings = vec![0u32; surfaces.len()];
        for (i, &s) in surfaces.iter().enumerate() {
            if let Some(at) = fill.get_mut(stem_of(s) as usize) {
                if let Some(p) = postings.get_mut(*at as usize) {
                    *p = i as u32;
                }
                *at += 1;
            }
        }
        TokenIndex { tokens, char_starts, surfaces, surface_stems, surface_vocab, stem_vocab, posting_starts, postings }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True when the text has no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The `i`th token.
    pub fn token(&self, i: usize) -> Option<Token> {
        self.tokens.get(i).copied()
    }

    /// Code point offset (in the normalized text) of token `i`.
    pub fn char_start(&self, i: usize) -> u32 {
        self.char_starts.get(i).copied().unwrap_or(0)
    }

    /// Surface id of token `i`.
    pub fn surface(&self, i: usize) -> u32 {
        self.surfaces.get(i).copied().unwrap_or(u32::MAX)
    }

    /// Stem id of token `i`.
    pub fn stem(&self, i: usize) -> u32 {
        self.surfaces.get(i).and_then(|&s| self.surface_stems.get(s as usize)).copied().unwrap_or(u32::MAX)
    }

    /// The id of a surface form, if the text has it.
    pub fn surface_id(&self, word: &str) -> Option<u32> {
        self.surface_vocab.get(word)
    }

    /// The id of a stem, if the text has it.
    pub fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stem_vocab.get(stem)
    }

    /// Token indices where stem `id` occurs, ascending.
    pub fn postings(&self, id: u32) -> &[u32] {
        let id = id as usize;
        match (self.posting_starts.get(id), self.posting_starts.get(id + 1)) {
            (Some(&a), Some(&b)) => self.postings.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    /// Bytes held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        8 * self.tokens.capacity()
            + 4 * (self.char_starts.capacity()
                + self.surfaces.capacity()
                + self.surface_stems.capacity()
                + self.posting_starts.capacity()
                + self.postings.capacity())
            + self.surface_vocab.heap_bytes()
            + self.stem_vocab.heap_bytes()
    }
}

/// Chunks of the normalized text (spec 000 §3.5: `chunk_size` chars with
/// `overlap_size` chars of overlap) as token statistics for BM25.
pub struct Chunk {
    size: usize,
    overlap: usize,
    step: usize,
    /// Tokens in each chunk.
    lengths: Vec<u32>,
}

impl Chunk {
    fn new(tokens: &TokenIndex, size: usize, overlap: usize) -> Chunk {
        let size = size.max(1);
        let step = size.saturating_sub(overlap).max(1);
        let total_chars = tokens.len().checked_sub(1).map_or(0, |i| tokens.char_start(i) as usize + 1);
        let count = total_chars.saturating_sub(size).div_ceil(step) + 1;
        let mut lengths = vec![0u32; count];
        for i in 0..tokens.len() {
            for c in Chunk::range_of(tokens.char_start(i) as usize, size, step, count) {
                if let Some(l) = lengths.get_mut(c) {
                    *l += 1;
                }
            }
        }
        Chunk { size, overlap, step, lengths }
    }

    /// Chunks containing char offset `at`.
    fn range_of(at: usize, size: usize, step: usize, count: usize) -> std::ops::Range<usize> {
        let first = if at < size { 0 } else { (at - size) / step + 1 };
        let last = (at / step).min(count.saturating_sub(1));
        first..last + 1
    }

    /// Chunks containing the token that starts at char offset `at`.
    pub fn chunks_of(&self, at: usize) -> std::ops::Range<usize> {
        Chunk::range_of(at, self.size, self.step, self.lengths.len())
    }

    /// Number of chunks.
    pub fn count(&self) -> usize {
        self.lengths.len()
    }

    /// Tokens in chunk `c`.
    pub fn length(&self, c: usize) -> u32 {
        self.lengths.get(c).copied().unwrap_or(0)
    }

    /// Mean tokens per chunk.
    pub fn average_length(&self) -> f64 {
        let total: u64 = self.lengths.iter().map(|&l| l as u64).sum();
        total as f64 / self.lengths.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_group_derivations() {
        let idx = TokenIndex::new("users authenticate; the authentication of users");
        let stem = idx.stem_id(tokens::stem("authentication")).unwrap();
        assert_eq!(idx.postings(stem), &[1, 3]);
        assert_eq!(idx.char_start(3), 24);
    }

    #[test]
    fn chunks_overlap() {
        let text = "aa ".repeat(100); // tokens at chars 0, 3, ..., 297
        let idx = TokenIndex::new(&text);
        let chunks = Chunk::new(&idx, 30, 10);
        assert_eq!(chunks.chunks_of(0), 0..1);
        assert_eq!(chunks.chunks_of(21), 0..2); // in [0,30) and [20,50)
        assert!(chunks.count() >= 14);
        assert_eq!(chunks.length(0), 10);
    }
}
