//! The search index of a document for one normalization profile: the
//! normalized text with its map to the original, and (built on first use) the
//! word tokens with stems and postings, and the chunk statistics the lexical
//! matcher ranks with.

use super::Format;
use crate::text::tokens::{self, Token};
use crate::text::{Normalized, Profile};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

/// Normalized text plus lazily built token and chunk indexes.
pub struct SearchIndex {
    normalized: Normalized,
    tokens: OnceCell<TokenIndex>,
    chunks: RefCell<Option<std::rc::Rc<Chunk>>>,
}

impl SearchIndex {
    /// Normalizes `source` (read as `format`) under `profile`.
    pub fn new(source: &str, format: Format, profile: Profile) -> SearchIndex {
        let normalized = match format {
            Format::PlainText => Normalized::from_plain(source, profile),
            _ => Normalized::from_units(format.units(source), profile),
        };
        SearchIndex { normalized, tokens: OnceCell::new(), chunks: RefCell::new(None) }
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

/// Interned term ids.
#[derive(Default)]
struct Vocabulary {
    ids: HashMap<String, u32>,
}

impl Vocabulary {
    fn intern(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(term.to_string(), id);
        id
    }

    fn get(&self, term: &str) -> Option<u32> {
        self.ids.get(term).copied()
    }
}

/// The word tokens of a normalized text with surface and stem ids and, per
/// stem, the positions (token indices) where it occurs.
pub struct TokenIndex {
    tokens: Vec<Token>,
    char_starts: Vec<u32>,
    surfaces: Vec<u32>,
    stems: Vec<u32>,
    surface_vocab: Vocabulary,
    stem_vocab: Vocabulary,
    postings: Vec<Vec<u32>>,
}

impl TokenIndex {
    /// Tokenizes and indexes a normalized text.
    pub fn new(text: &str) -> TokenIndex {
        let mut index = TokenIndex {
            tokens: Vec::new(),
            char_starts: Vec::new(),
            surfaces: Vec::new(),
            stems: Vec::new(),
            surface_vocab: Vocabulary::default(),
            stem_vocab: Vocabulary::default(),
            postings: Vec::new(),
        };
        let (mut chars, mut last_byte) = (0u32, 0usize);
        tokens::for_each_token(text, |t| {
            chars += text.get(last_byte..t.start as usize).map_or(0, |s| s.chars().count() as u32);
            last_byte = t.start as usize;
            let word = t.text(text);
            let surface = index.surface_vocab.intern(word);
            let stem = index.stem_vocab.intern(tokens::stem(word));
            if stem as usize == index.postings.len() {
                index.postings.push(Vec::new());
            }
            if let Some(list) = index.postings.get_mut(stem as usize) {
                list.push(index.tokens.len() as u32);
            }
            index.tokens.push(t);
            index.char_starts.push(chars);
            index.surfaces.push(surface);
            index.stems.push(stem);
        });
        index
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
        self.stems.get(i).copied().unwrap_or(u32::MAX)
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
        self.postings.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// Bytes held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        let vocab = |v: &Vocabulary| v.ids.keys().map(|k| k.capacity() + 32).sum::<usize>();
        20 * self.tokens.capacity()
            + self.postings.iter().map(|p| 4 * p.capacity() + 24).sum::<usize>()
            + vocab(&self.surface_vocab)
            + vocab(&self.stem_vocab)
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
