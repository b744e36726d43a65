//! The word index of a normalized text: interned terms (`Vocabulary`), the
//! tokens with surface and stem ids and per-stem postings (`TokenIndex`), and
//! the chunk statistics the lexical matcher ranks with (`Chunk`). A
//! document's `SearchIndex` builds them on first use; the token and lexical
//! matchers read them.

use crate::text::tokens::{self, Token};

/// The first (up to) 8 bytes of `bytes` as a little-endian number, zero
/// padded.
#[inline(always)]
fn head(bytes: &[u8]) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(c) => u64::from_le_bytes(*c),
        None => bytes.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b)),
    }
}

/// [`head`] of `text[start..start + len]` (which must lie in `text`): an
/// 8-byte load from `text` masked to `len` bytes where `text` has 8 bytes
/// from `start`, instead of a loop over a short word's bytes.
#[inline(always)]
fn head_in(text: &[u8], start: usize, len: usize) -> u64 {
    match text.get(start..).and_then(|r| r.first_chunk::<8>()) {
        Some(c) if len < 8 => u64::from_le_bytes(*c) & ((1u64 << (8 * len)) - 1),
        Some(c) => u64::from_le_bytes(*c),
        None => head(text.get(start..start + len).unwrap_or_default()),
    }
}

/// FxHash (the Firefox/rustc hash) of a word whose first 8 bytes are
/// `first`: a multiply-rotate over 8-byte words, several times faster than
/// SipHash on short words. Term ids are assigned in order of first
/// occurrence, so the hash never shows in any output.
#[inline(always)]
fn fx_hash(bytes: &[u8], first: u64) -> u64 {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = ((bytes.len() as u64).rotate_left(5) ^ first).wrapping_mul(SEED);
    for chunk in bytes.get(8..).unwrap_or_default().chunks(8) {
        h = (h.rotate_left(5) ^ head(chunk)).wrapping_mul(SEED);
    }
    h
}

/// Where a hash probes first (the low bits of a product are weak: rotate the
/// strong high bits down, as rustc's FxHasher does).
#[inline(always)]
fn slot_of(hash: u64) -> usize {
    hash.rotate_left(26) as usize
}

/// Interned term ids, in order of first occurrence: an open-addressing
/// table of (hash tag, id) over the terms kept in one string; a term's
/// length and first 8 bytes are kept apart, so most lookups compare two
/// numbers instead of two strings.
struct Vocabulary {
    /// `tag << 32 | (id + 1)`, 0 when empty; a power of two long.
    slots: Vec<u64>,
    /// (length, first 8 bytes) of each term.
    heads: Vec<(u32, u64)>,
    /// Term `id` ends at `ends[id]` in `arena` and starts where `id - 1` ends.
    ends: Vec<u32>,
    arena: String,
}

impl Default for Vocabulary {
    fn default() -> Vocabulary {
        Vocabulary { slots: vec![0; 1024], heads: Vec::new(), ends: Vec::new(), arena: String::new() }
    }
}

impl Vocabulary {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn term(&self, id: usize) -> &[u8] {
        self.term_str(id).as_bytes()
    }

    fn term_str(&self, id: usize) -> &str {
        let from = id.checked_sub(1).and_then(|i| self.ends.get(i)).copied().unwrap_or(0) as usize;
        let to = self.ends.get(id).copied().unwrap_or(0) as usize;
        self.arena.get(from..to).unwrap_or_default()
    }

    /// The slot holding `term`, or the empty slot where it would go
    /// (inlined: called once a token when the index is built).
    #[inline(always)]
    fn find(&self, term: &[u8], first: u64, hash: u64) -> (usize, Option<u32>) {
        let mask = self.slots.len() - 1;
        let tag = hash >> 32;
        let mut i = slot_of(hash) & mask;
        loop {
            let slot = self.slots.get(i).copied().unwrap_or(0);
            if slot == 0 {
                return (i, None);
            }
            if slot >> 32 == tag {
                let id = (slot as u32).wrapping_sub(1);
                let same = self.heads.get(id as usize).is_some_and(|&(len, h)| {
                    len as usize == term.len() && h == first && (term.len() <= 8 || self.term(id as usize) == term)
                });
                if same {
                    return (i, Some(id));
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `term` and whether it is new (inlined: called once a
    /// token when the index is built).
    #[inline(always)]
    fn intern(&mut self, term: &str) -> (u32, bool) {
        let bytes = term.as_bytes();
        let first = head(bytes);
        let hash = fx_hash(bytes, first);
        let (at, found) = self.find(bytes, first, hash);
        if let Some(id) = found {
            return (id, false);
        }
        self.insert(term, first, hash, at)
    }

    /// [`Vocabulary::intern`] of token `t` of `text`, its head read
    /// from the text ([`head_in`]).
    #[inline(always)]
    fn intern_token(&mut self, text: &str, t: Token) -> (u32, bool) {
        let term = t.text(text);
        let bytes = term.as_bytes();
        let first = head_in(text.as_bytes(), t.start as usize, bytes.len());
        let hash = fx_hash(bytes, first);
        let (at, found) = self.find(bytes, first, hash);
        if let Some(id) = found {
            return (id, false);
        }
        self.insert(term, first, hash, at)
    }

    #[cold]
    fn insert(&mut self, term: &str, first: u64, hash: u64, at: usize) -> (u32, bool) {
        let id = self.ends.len() as u32;
        self.arena.push_str(term);
        self.ends.push(self.arena.len() as u32);
        self.heads.push((term.len() as u32, first));
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = (hash >> 32) << 32 | u64::from(id + 1);
        }
        if self.ends.len() * 2 > self.slots.len() {
            self.grow();
        }
        (id, true)
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let id = (slot as u32).wrapping_sub(1) as usize;
            let term = self.term(id);
            let hash = fx_hash(term, head(term));
            let mut i = slot_of(hash) & mask;
            while self.slots.get(i).is_some_and(|&s| s != 0) {
                i = (i + 1) & mask;
            }
            if let Some(s) = self.slots.get_mut(i) {
                *s = slot;
            }
        }
    }

    fn get(&self, term: &str) -> Option<u32> {
        let bytes = term.as_bytes();
        let first = head(bytes);
        self.find(bytes, first, fx_hash(bytes, first)).1
    }

    fn heap_bytes(&self) -> usize {
        8 * self.slots.capacity() + 16 * self.heads.capacity() + 4 * self.ends.capacity() + self.arena.capacity()
    }
}

/// The word tokens of a normalized text with surface and stem ids and, per
/// stem, the positions (token indices) where it occurs.
pub struct TokenIndex {
    tokens: Vec<Token>,
    surfaces: Vec<u32>,
    /// Stem id of each surface id (a surface is stemmed once).
    surface_stems: Vec<u32>,
    surface_vocab: Vocabulary,
    stem_vocab: Vocabulary,
    /// Token indices by stem: those of stem `s` are
    /// `postings[posting_starts[s]..posting_starts[s + 1]]`, ascending.
    posting_starts: Vec<u32>,
    postings: Vec<u32>,
    /// Per surface, which kinds of occurrence it has: bit `1 << k` for an
    /// occurrence whose start (`k & 1`) and end (`k & 2`) are word
    /// boundaries ([`crate::matching::meaning::inside_word`]: no token
    /// right beside it, which only an ideograph's can be).
    edges: Vec<u8>,
    /// The parts of surfaces with apostrophes that start and end at an
    /// apostrophe or at the surface's edge where an occurrence of it has a
    /// word boundary (`don` and `t` of `don't`): whole words by
    /// `inside_word`, not tokens.
    pieces: Vocabulary,
    /// Whether [`TokenIndex::has_whole_word`] cannot answer: a surface has
    /// more than [`MAX_APOSTROPHES`] apostrophes (its pieces not kept).
    words_unknown: bool,
}

/// An occurrence with a word boundary at both edges, in
/// [`TokenIndex::edges`].
const BOTH_EDGES: u8 = 1 << 3;

/// Most apostrophes in a surface whose pieces [`TokenIndex`] keeps (a
/// surface with `k` has `(k + 1)(k + 2) / 2 - 1` of them).
const MAX_APOSTROPHES: usize = 8;

/// Adds to `pieces` the pieces of `word` (see [`TokenIndex::pieces`]) an
/// occurrence of it gives when its start (`free_start`) and end
/// (`free_end`) are word boundaries; false when it has too many
/// apostrophes to keep them.
fn add_pieces(pieces: &mut Vocabulary, word: &str, free_start: bool, free_end: bool) -> bool {
    let cuts: Vec<usize> = word.bytes().enumerate().filter(|&(_, b)| b == b'\'').map(|(i, _)| i).collect();
    if cuts.len() > MAX_APOSTROPHES {
        return false;
    }
    let starts = std::iter::once(0).chain(cuts.iter().map(|&c| c + 1));
    for (i, from) in starts.enumerate() {
        let ends = cuts.iter().copied().chain(std::iter::once(word.len())).skip(i);
        for to in ends {
            let whole = (from, to) == (0, word.len());
            if !whole && (from > 0 || free_start) && (to < word.len() || free_end) {
                if let Some(piece) = word.get(from..to) {
                    pieces.intern(piece);
                }
            }
        }
    }
    true
}

/// Which kinds of occurrence each surface has ([`TokenIndex::edges`]), the
/// pieces they give, and false when a surface has too many apostrophes.
fn word_edges(tokens: &[Token], surfaces: &[u32], vocab: &Vocabulary) -> (Vec<u8>, Vocabulary, bool) {
    let mut edges = vec![0u8; vocab.len()];
    let mut pieces = Vocabulary::default();
    let mut complete = true;
    let mut prev_end = None;
    for (i, (t, &s)) in tokens.iter().zip(surfaces).enumerate() {
        // a token's edge is a word boundary unless another token touches
        // it (every alphanumeric char is in a token)
        let free_start = prev_end != Some(t.start);
        let free_end = tokens.get(i + 1).is_none_or(|n| n.start != t.end);
        prev_end = Some(t.end);
        let bit = 1u8 << (usize::from(free_start) | usize::from(free_end) << 1);
        if let Some(e) = edges.get_mut(s as usize) {
            if *e & bit == 0 {
                *e |= bit;
                let word = vocab.term_str(s as usize);
                if word.as_bytes().contains(&b'\'') {
                    complete &= add_pieces(&mut pieces, word, free_start, free_end);
                }
            }
        }
    }
    (edges, pieces, complete)
}

impl TokenIndex {
    /// Tokenizes and indexes a normalized text.
    pub fn new(text: &str) -> TokenIndex {
        // prose has a token every 5 to 6 bytes, code more often: room for
        // one every 4 (a vector grown by doubling copies itself into twice
        // the memory, fresh pages to fault in)
        let mut tokens = Vec::with_capacity(text.len() / 4);
        let mut surfaces = Vec::with_capacity(text.len() / 4);
        let mut surface_stems = Vec::new();
        let mut surface_vocab = Vocabulary::default();
        let mut stem_vocab = Vocabulary::default();
        tokens::for_each_token(text, |t| {
            let word = t.text(text);
            let (surface, new) = surface_vocab.intern_token(text, t);
            if new {
                surface_stems.push(stem_vocab.intern(tokens::stem(word)).0);
            }
            tokens.push(t);
            surfaces.push(surface);
        });
        // postings by counting sort: occurrences per stem, then positions
        let stem_of = |surface: u32| surface_stems.get(surface as usize).copied().unwrap_or(0);
        let mut posting_starts = vec![0u32; stem_vocab.len() + 1];
        for &s in &surfaces {
            if let Some(c) = posting_starts.get_mut(stem_of(s) as usize + 1) {
                *c += 1;
            }
        }
        let mut running = 0u32;
        for start in &mut posting_starts {
            running += *start;
            *start = running;
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
        let (edges, pieces, complete) = word_edges(&tokens, &surfaces, &surface_vocab);
        TokenIndex {
            words_unknown: !complete,
            edges,
            tokens,
            surfaces,
            surface_stems,
            surface_vocab,
            stem_vocab,
            posting_starts,
            postings,
            pieces,
        }
    }

    /// Whether `word` occurs in the text with no word char on either side
    /// by [`crate::matching::meaning::inside_word`] (what a search for it
    /// that keeps occurrences on word boundaries finds), answered from the
    /// vocabulary; `None` when the index cannot tell (see
    /// [`TokenIndex::words_unknown`]; a `word` that is not one token).
    ///
    /// Why this is that search's answer: a token's edge is a word boundary
    /// unless another token touches it (an ideograph's; the char beside it
    /// is otherwise not alphanumeric, and not the `.` or `,` of a number,
    /// which the token would have joined), and so are its apostrophes; a
    /// boundary inside a token can only be at an apostrophe (its other
    /// joiners are a number's `.` and `,`, which `inside_word` also holds
    /// inside). So an occurrence of a one-token `word` on word boundaries
    /// is a token or a piece of one between apostrophes whose edges are
    /// boundaries, and every such piece is one.
    pub fn has_whole_word(&self, word: &str) -> Option<bool> {
        if self.words_unknown || !tokens::is_one_token(word) {
            return None;
        }
        let whole = self
            .surface_vocab
            .get(word)
            .is_some_and(|id| self.edges.get(id as usize).is_some_and(|e| e & BOTH_EDGES != 0));
        Some(whole || self.pieces.get(word).is_some())
    }

    /// The distinct surfaces (token texts).
    pub fn surfaces(&self) -> impl Iterator<Item = &str> {
        (0..self.surface_vocab.len()).map(|id| self.surface_vocab.term_str(id))
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The `i`th token.
    pub fn token(&self, i: usize) -> Option<Token> {
        self.tokens.get(i).copied()
    }

    /// Surface id of token `i`.
    pub fn surface(&self, i: usize) -> u32 {
        self.surfaces.get(i).copied().unwrap_or(u32::MAX)
    }

    /// The id of a surface form, if the text has it.
    pub fn surface_id(&self, word: &str) -> Option<u32> {
        self.surface_vocab.get(word)
    }

    /// The stem id of surface `id` (that of `tokens::stem` of the surface).
    pub fn surface_stem(&self, id: u32) -> Option<u32> {
        self.surface_stems.get(id as usize).copied()
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
            + self.edges.capacity()
            + 4 * (self.surfaces.capacity()
                + self.surface_stems.capacity()
                + self.posting_starts.capacity()
                + self.postings.capacity())
            + self.surface_vocab.heap_bytes()
            + self.stem_vocab.heap_bytes()
            + self.pieces.heap_bytes()
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
    /// Code point offset (in the normalized text) of each token.
    token_chars: Vec<u32>,
}

impl Chunk {
    /// Chunk statistics of `text` (whose tokens are `tokens`) for chunks of
    /// `size` chars overlapping by `overlap`.
    pub(crate) fn new(tokens: &TokenIndex, text: &str, size: usize, overlap: usize) -> Chunk {
        let size = size.max(1);
        let step = size.saturating_sub(overlap).max(1);
        let bytes = text.as_bytes();
        let (mut chars, mut last) = (0u32, 0usize);
        let token_chars: Vec<u32> = (0..tokens.len())
            .map(|i| {
                let start = tokens.token(i).map_or(last, |t| t.start as usize);
                chars +=
                    bytes.get(last..start).unwrap_or_default().iter().filter(|&&b| (b & 0xC0) != 0x80).count() as u32;
                last = start;
                chars
            })
            .collect();
        let total_chars = token_chars.last().map_or(0, |&c| c as usize + 1);
        let count = total_chars.saturating_sub(size).div_ceil(step) + 1;
        // each token adds one to a run of chunks: a difference array makes
        // that O(tokens + chunks), not O(tokens × chunks per token)
        let mut delta = vec![0i64; count + 1];
        for &at in &token_chars {
            let run = Chunk::range_of(at as usize, size, step, count);
            if run.start < run.end {
                if let Some(d) = delta.get_mut(run.start) {
                    *d += 1;
                }
                if let Some(d) = delta.get_mut(run.end) {
                    *d -= 1;
                }
            }
        }
        let mut running = 0i64;
        let lengths: Vec<u32> = delta
            .iter()
            .take(count)
            .map(|d| {
                running += d;
                u32::try_from(running).unwrap_or(u32::MAX)
            })
            .collect();
        Chunk { size, overlap, step, lengths, token_chars }
    }

    /// Whether these are the statistics for chunks of `size` chars
    /// overlapping by `overlap`.
    pub(crate) fn is_for(&self, size: usize, overlap: usize) -> bool {
        self.size == size && self.overlap == overlap
    }

    /// Code point offset (in the normalized text) of token `i`.
    pub fn token_char(&self, i: usize) -> u32 {
        self.token_chars.get(i).copied().unwrap_or(0)
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

    /// `head_in` is `head` of the range, on every range of random texts
    /// (near their ends too, where fewer than 8 bytes are left).
    #[test]
    fn head_in_is_the_head_of_the_range() {
        let mut rng = crate::test_rng::SplitMix64(0x6865_6164);
        let pieces = crate::test_rng::with_hostile(&["a", "word", "x\u{301}", " ", "'", "12,5"]);
        for _ in 0..300 {
            let n = rng.below(30);
            let text = crate::test_rng::text_of(&mut |n| rng.below(n), &pieces, n);
            let b = text.as_bytes();
            for start in 0..=b.len() {
                for end in start..=b.len() {
                    assert_eq!(head_in(b, start, end - start), head(&b[start..end]), "{start}..{end} of {text:?}");
                }
            }
        }
    }

    #[test]
    fn postings_group_derivations() {
        let text = "users authenticate; the authentication of users";
        let idx = TokenIndex::new(text);
        let stem = idx.stem_id(tokens::stem("authentication")).unwrap();
        assert_eq!(idx.postings(stem), &[1, 3]);
        assert_eq!(Chunk::new(&idx, text, 10, 2).token_char(3), 24);
    }

    #[test]
    fn chunks_overlap() {
        let text = "aa ".repeat(100); // tokens at chars 0, 3, ..., 297
        let idx = TokenIndex::new(&text);
        let chunks = Chunk::new(&idx, &text, 30, 10);
        assert_eq!(chunks.chunks_of(0), 0..1);
        assert_eq!(chunks.chunks_of(21), 0..2); // in [0,30) and [20,50)
        assert!(chunks.count() >= 14);
        assert_eq!(chunks.length(0), 10);
    }

    #[test]
    fn vocabulary_interns_in_order_of_first_occurrence() {
        let mut v = Vocabulary::default();
        let words: Vec<String> = (0..5000).map(|i| format!("w{}", i % 3000)).collect();
        for (i, w) in words.iter().enumerate() {
            let (id, new) = v.intern(w);
            assert_eq!((id as usize, new), (i % 3000, i < 3000));
        }
        assert_eq!(v.len(), 3000);
        assert_eq!(v.get("w2999"), Some(2999));
        assert_eq!(v.term(17), b"w17");
        assert_eq!(v.get("w3000"), None);
        assert_eq!(v.get(""), None);
    }

    #[test]
    fn chunk_char_offsets_count_code_points() {
        let text = "\u{e9}t\u{e9} \u{1F600} ok";
        let idx = TokenIndex::new(text);
        let chunks = Chunk::new(&idx, text, 10, 2);
        assert_eq!((0..idx.len()).map(|i| chunks.token_char(i)).collect::<Vec<_>>(), [0, 6]);
    }
}
