//! Approximate substring search by Levenshtein distance for checking cited
//! quotes against a source document.
//!
//! Distances count edits on Unicode scalar values (`char`s), never bytes:
//! substitution, insertion and deletion each cost 1, so `é` vs `e` is one
//! edit and an emoji is one character. Every offset this module returns is a
//! *byte* offset into the searched text and lies on a char boundary.
//!
//! The main entry point is [`find_all`], which looks for many patterns at
//! once, each with its own maximum distance `k`, anywhere in the text
//! (semi-global alignment: the match may start and end at any position).
//!
//! # How it works
//!
//! 1. **Filter** (pigeonhole principle). A pattern of `m` chars is cut into
//!    `k + s` pieces of nearly equal length; any substring within `k` edits
//!    of the pattern contains at least `s` of them verbatim, on diagonals
//!    (implied alignment ends) at most `k` apart. `s` is 1 for `k = 0`, then
//!    `1 + max(1, k / 8)` as long as pieces stay at least 4 chars long
//!    (fewer otherwise): requiring several pieces keeps short, frequent
//!    pieces from flooding the verifier. The pieces of all patterns
//!    (deduplicated, and cut down to a prefix of at most [`MAX_PIECE_CHARS`]
//!    chars, which keeps the filter valid) are searched in one overlapping
//!    pass with [`MultiSearcher`] (a bitmap of 8- and 4-byte prefixes, the
//!    exact matcher's pass). Hits backed by `s` distinct
//!    pieces in one band of diagonals become windows of `m + 2k` chars,
//!    merged when they touch.
//! 2. **Verify**. Each window is scanned with Myers' bit-parallel algorithm
//!    in its semi-global form (Hyyrö's blocked variant for patterns longer
//!    than 64 chars), which gives the best distance of an alignment ending
//!    at every position. Only the 64-row blocks meeting the band of
//!    diagonals of the window's hits (widened by `k`) are computed. A window
//!    that is exactly the window of a verbatim occurrence, and can hold
//!    nothing else, is answered by a byte comparison instead.
//! 3. **Locate starts**. For a chosen end position, Myers is run again with
//!    the reversed pattern over the text read backwards from that end, with
//!    the alignment anchored there and banded to `k` diagonals; this gives
//!    the distance for every possible start.
//! 4. Char positions are turned into byte offsets through a small rank /
//!    select index over the text (free for ASCII text).
//!
//! Fall-back: when a piece would be shorter than [`MIN_PIECE_CHARS`] chars
//! (large `k` on a short pattern: `m / (k + 1) < 2`), or when the pieces of
//! a pattern hit the text so often that keeping the hits would cost more
//! than scanning, the pattern is verified by one bit-parallel scan of the
//! whole text instead: still linear in the text length, times
//! `ceil(m / 64)`.
//!
//! # Which occurrences are reported
//!
//! For every end position `e` whose best distance is `<= k`, the canonical
//! alignment ending at `e` uses the start with the smallest distance, then
//! the length (in chars) closest to `m`, then the leftmost start. Among all
//! canonical alignments of one pattern, occurrences are picked greedily in
//! order of (distance, |length − m|, start, end); an alignment that shares
//! at least one char with an already picked occurrence is dropped. So
//! overlapping alignments collapse to their best one and disjoint
//! occurrences are all reported.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::ops::Range;

use crate::host::Deadline;
use crate::matching::exact::{GramIndex, MultiSearcher};

/// Pieces shorter than this many chars make the filter useless: such a
/// pattern is verified by a full scan of the text.
pub const MIN_PIECE_CHARS: usize = 2;

/// Pieces are cut down to a prefix of at most this many chars before they
/// are searched (shorter pieces are verified faster; a prefix of a piece
/// occurs wherever the piece does, so no match is lost).
pub const MAX_PIECE_CHARS: usize = 16;

/// One more verbatim piece is required per this many allowed edits.
const EDITS_PER_EXTRA_PIECE: usize = 8;

/// Two or more verbatim pieces are required only while pieces stay at
/// least this long (shorter pieces hit too often to pay off).
const SHORTEST_SHARED_PIECE: usize = 4;

/// A pattern may keep at least this many hits before a full scan is
/// preferred (see [`Plan::hit_cap`]).
const MIN_HIT_CAP: usize = 1024;

/// Hits kept for all patterns together, beyond one per text byte.
const EXTRA_HIT_BUDGET: usize = 1 << 20;

const WORD_BITS: usize = 64;
const HIGH_BIT: u64 = 1 << 63;

/// One pattern to look for, with the largest edit distance accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuzzyQuery<'a> {
    /// The text to find (a quote).
    pub pattern: &'a str,
    /// Largest accepted Levenshtein distance, in chars.
    pub max_distance: usize,
}

/// One occurrence of a query in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzyMatch {
    /// Index of the query in the slice given to [`find_all`].
    pub query: usize,
    /// Byte offset of the first char of the match (a char boundary).
    pub start: usize,
    /// Byte offset just past the match (a char boundary); the matched text
    /// is `text[start..end]`.
    pub end: usize,
    /// Levenshtein distance, in chars, between the pattern and the match.
    pub distance: usize,
}

/// Finds every occurrence of every query in `text` (for tests: the library
/// calls [`find_all_bounded`]).
///
/// An occurrence is a substring of `text` within `max_distance` edits of
/// the query's pattern; overlapping alignments are collapsed as described in
/// the module documentation. Results are sorted by `(query, start)`.
///
/// A query whose pattern is empty, or whose `max_distance` is at least the
/// pattern's length in chars (every position would match), yields no
/// matches.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[must_use]
pub fn find_all(text: &str, queries: &[FuzzyQuery]) -> Vec<FuzzyMatch> {
    if queries.is_empty() {
        return Vec::new();
    }
    find_all_bounded(text, &CharMarks::new(text), None, queries, usize::MAX, &Deadline::never()).0
}

/// The matches of `queries` in `text`, with the char positions of `text`
/// already at hand (`marks` must be `CharMarks::new(text)`: a document keeps
/// them, so that a query does not count the chars of the whole text again)
/// and the pieces of few queries looked up in `grams` (built over `text`)
/// instead of scanning the text for each; keeping at most `cap` matches of
/// each query (the first ones) and stopping when `deadline` passes (the answer is then
/// incomplete: callers ask `deadline.expired()`). Also returns, for each
/// query, how many matches it had in all.
#[must_use]
pub fn find_all_bounded(
    text: &str,
    marks: &CharMarks,
    grams: Option<&GramIndex>,
    queries: &[FuzzyQuery],
    cap: usize,
    deadline: &Deadline,
) -> (Vec<FuzzyMatch>, Vec<usize>) {
    let mut totals = vec![0; queries.len()];
    if queries.is_empty() {
        return (Vec::new(), totals);
    }
    let index = CharIndex { text, marks: &marks.marks, chars: marks.chars };
    let mut plans: Vec<Plan> = queries.iter().map(|q| Plan::new(q, grams.is_some())).collect();
    collect_hits(&index, grams, &mut plans, deadline);
    let mut out = Vec::new();
    for (query, plan) in plans.iter_mut().enumerate() {
        if deadline.expired() {
            break;
        }
        let found = plan.search(&index, deadline);
        if let Some(t) = totals.get_mut(query) {
            *t = found.len();
        }
        out.extend(found.into_iter().take(cap).map(|f| f.into_match(query)));
    }
    (out, totals)
}

/// Levenshtein distance between `a` and `b`, counted in chars.
///
/// Uses Myers' bit-parallel algorithm with the shorter string as the
/// pattern (blocked for strings longer than 64 chars), so the cost is
/// `O(ceil(min / 64) * max)` for strings of `min` and `max` chars.
#[must_use]
pub fn levenshtein(a: &str, b: &str) -> usize {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    let (pattern, text, m) = if len_a <= len_b { (a, b, len_a) } else { (b, a, len_b) };
    if m == 0 {
        return len_a.max(len_b);
    }
    distance(&Peq::new(pattern.chars(), m), m, text)
}

/// One string's distances to several others: [`levenshtein`] with the
/// match vectors of that string built once (the near misses of a failed
/// claim measure the quote against up to three passages). `to(b)` is
/// `levenshtein(a, b)`: the distance is symmetric, and the bit-parallel
/// computation (every block of every column) is exact whichever string is
/// the longer.
pub struct Levenshtein<'a> {
    pattern: &'a str,
    /// Chars of `pattern`.
    m: usize,
    /// Built on the first distance asked with `pattern` as the pattern.
    peq: std::cell::OnceCell<Peq>,
}

impl<'a> Levenshtein<'a> {
    /// Distances from `pattern`.
    pub fn new(pattern: &'a str) -> Levenshtein<'a> {
        Levenshtein { pattern, m: pattern.chars().count(), peq: std::cell::OnceCell::new() }
    }

    /// The distance from the pattern to `text`.
    pub fn to(&self, text: &str) -> usize {
        let n = text.chars().count();
        if self.m == 0 || n == 0 {
            return self.m.max(n);
        }
        // the pattern's vectors even when the text is shorter: about
        // `m * n / 64` steps either way
        let peq = self.peq.get_or_init(|| Peq::new(self.pattern.chars(), self.m));
        distance(peq, self.m, text)
    }
}

/// The edit distance from the pattern of `m` chars (> 0) whose match
/// vectors are `peq` to `text`.
fn distance(peq: &Peq, m: usize, text: &str) -> usize {
    // every block of every column (what `Columns` computes with
    // `Band::FULL` and row 0 anchored, without its band bookkeeping): the
    // near misses of a failed claim ask for three of these, each over a
    // passage longer than the quote. The last block (whose row `m - 1`
    // gives the score) apart from the others, so that the loop over the
    // others chooses no mask.
    let blocks = m.div_ceil(WORD_BITS);
    let mut upper = vec![(!0u64, 0u64); blocks.saturating_sub(1)];
    let mut last = (!0u64, 0u64);
    let last_mask = 1u64 << ((m - 1) % WORD_BITS);
    let mut score = m;
    // the step written once and inlined into both loops (as a closure
    // shared by the two it was a call a char, its state in memory)
    if text.is_ascii() {
        for b in text.bytes() {
            distance_step(peq.get(char::from(b)), &mut upper, &mut last, last_mask, &mut score);
        }
    } else {
        for c in text.chars() {
            distance_step(peq.get(c), &mut upper, &mut last, last_mask, &mut score);
        }
    }
    score
}

/// One column of [`distance`]: the char's match vector `eq` (one word a
/// block), the blocks above the last (`upper`) and the last (`last`, whose
/// row `m - 1`, `last_mask`, gives the score).
#[inline(always)]
fn distance_step(eq: &[u64], upper: &mut [(u64, u64)], last: &mut (u64, u64), last_mask: u64, score: &mut usize) {
    let Some((&last_eq, eqs)) = eq.split_last() else {
        return;
    };
    // D[0][j] - D[0][j - 1] = 1: row 0 is anchored
    let mut h = 1;
    for ((pv, mv), &e) in upper.iter_mut().zip(eqs) {
        h = advance_block(pv, mv, e, h, HIGH_BIT);
    }
    h = advance_block(&mut last.0, &mut last.1, last_eq, h, last_mask);
    *score = (*score + usize::from(h > 0)).saturating_sub(usize::from(h < 0));
}

#[cfg(all(test, not(target_arch = "wasm32")))]
/// Best semi-global match of `pattern` inside `window`.
///
/// Returns `(start_byte, end_byte, distance)` of the substring of `window`
/// closest to `pattern`: smallest distance, then length in chars closest to
/// the pattern's, then leftmost. Returns `None` when the pattern is empty or
/// no substring is within `max_distance`. `max_distance` is capped at the
/// pattern length minus one (deleting the whole pattern costs its length,
/// so larger distances would match the empty string anywhere).
#[must_use]
pub fn best_in_window(pattern: &str, window: &str, max_distance: usize) -> Option<(usize, usize, usize)> {
    let m = pattern.chars().count();
    if m == 0 {
        return None;
    }
    let matcher = Matcher::new(pattern, m, max_distance.min(m - 1));
    let mut found = Vec::new();
    matcher.search(window, 0..window.len(), Band::FULL, &Deadline::never(), &mut found);
    found
        .into_iter()
        .min_by_key(|f| {
            (f.distance, window.get(f.start..f.end).map_or(0, |s| s.chars().count()).abs_diff(m), f.start, f.end)
        })
        .map(|f| (f.start, f.end, f.distance))
}

// ---------------------------------------------------------------------------
// Char positions
// ---------------------------------------------------------------------------

/// Bytes per block of [`CharIndex`].
const INDEX_BLOCK: usize = 64;

/// Converts between char indices and byte offsets of one text in
/// (nearly) constant time.
struct CharIndex<'t> {
    text: &'t str,
    /// Chars before each block of [`INDEX_BLOCK`] bytes; empty for ASCII.
    marks: &'t [usize],
    /// Number of chars in the text.
    chars: usize,
}

/// The char count of a text before every block of 64 bytes (nothing for an
/// ASCII text): what [`find_all_bounded`] needs to turn byte offsets into char
/// positions and back, built once per text.
#[derive(Debug, Clone, Default)]
pub struct CharMarks {
    marks: Vec<usize>,
    chars: usize,
}

impl CharMarks {
    /// The marks of `text`.
    pub fn new(text: &str) -> CharMarks {
        if text.is_ascii() {
            return CharMarks { marks: Vec::new(), chars: text.len() };
        }
        let mut chars = 0;
        let marks = text
            .as_bytes()
            .chunks(INDEX_BLOCK)
            .map(|block| {
                let before = chars;
                chars += count_char_starts(block);
                before
            })
            .collect();
        CharMarks { marks, chars }
    }

    /// Bytes held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<usize>() * self.marks.capacity()
    }
}

impl CharIndex<'_> {
    /// Char index of the char starting at byte `byte`.
    fn rank(&self, byte: usize) -> usize {
        if self.marks.is_empty() {
            return byte.min(self.chars);
        }
        let block = byte / INDEX_BLOCK;
        let (from, before, ascii) = self.block(block);
        if ascii {
            return before + (byte - from);
        }
        let inside = self.text.as_bytes().get(from..byte).map_or(0, count_char_starts);
        before + inside
    }

    /// Byte offset of char `index` (the text length past the end).
    fn select(&self, index: usize) -> usize {
        if index >= self.chars {
            return self.text.len();
        }
        if self.marks.is_empty() {
            return index;
        }
        let block = self.marks.partition_point(|&c| c <= index).saturating_sub(1);
        let (from, mut seen, ascii) = self.block(block);
        if ascii {
            return from + (index - seen);
        }
        let bytes = self.text.as_bytes().get(from..).unwrap_or_default();
        for (offset, &byte) in bytes.iter().enumerate() {
            if is_char_start(byte) {
                if seen == index {
                    return from + offset;
                }
                seen += 1;
            }
        }
        self.text.len()
    }

    /// First byte of block `block`, chars before it, and whether it is
    /// all ASCII (then byte and char offsets advance together inside it).
    fn block(&self, block: usize) -> (usize, usize, bool) {
        let from = block * INDEX_BLOCK;
        let before = self.marks.get(block).copied().unwrap_or(self.chars);
        let after = self.marks.get(block + 1).copied().unwrap_or(self.chars);
        let bytes = (self.text.len().saturating_sub(from)).min(INDEX_BLOCK);
        (from, before, after.saturating_sub(before) == bytes)
    }

    /// Byte range of the char range `chars`.
    fn bytes(&self, chars: Range<usize>) -> Range<usize> {
        self.select(chars.start)..self.select(chars.end)
    }
}

/// Whether `byte` starts a char in UTF-8 (is not a continuation byte).
fn is_char_start(byte: u8) -> bool {
    !(0x80..0xC0).contains(&byte)
}

fn count_char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| is_char_start(b)).count()
}

// ---------------------------------------------------------------------------
// Planning and filtering
// ---------------------------------------------------------------------------

/// How one query is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing to search (empty pattern or `k >= m`).
    Skip,
    /// Verify the whole text.
    Scan,
    /// Verify only windows around confirmed piece hits.
    Filter,
}

/// A piece of a pattern, searched verbatim.
struct Piece<'a> {
    text: &'a str,
    /// Index of the piece in the pattern (`0..parts`).
    index: usize,
    /// Char offset of the piece inside the pattern.
    offset: usize,
}

/// A piece hit, as the alignment end it implies if the pattern occurred
/// without indels (its diagonal), in chars.
#[derive(Debug, Clone, Copy)]
struct Hit {
    end: usize,
    piece: usize,
}

/// Per-query search state.
struct Plan<'a> {
    pattern: &'a str,
    m: usize,
    k: usize,
    mode: Mode,
    /// Number of pieces the pattern is cut into (`k + needed`).
    parts: usize,
    /// Distinct pieces any occurrence contains verbatim.
    needed: usize,
    hits: Vec<Hit>,
}

impl<'a> Plan<'a> {
    /// The plan of `query`; `indexed` when its pieces are looked up in a
    /// gram index, where one verbatim piece is enough (`k + 1` longer
    /// pieces: a lookup costs by the piece's frequency, not by the text's
    /// length, and longer pieces are rarer and long enough to look up).
    fn new(query: &FuzzyQuery<'a>, indexed: bool) -> Self {
        let m = query.pattern.chars().count();
        let k = query.max_distance;
        let mut plan = Plan { pattern: query.pattern, m, k, mode: Mode::Skip, parts: 0, needed: 0, hits: Vec::new() };
        if m == 0 || k >= m {
            return plan;
        }
        let mut needed = if k == 0 || indexed { 1 } else { 1 + (k / EDITS_PER_EXTRA_PIECE).max(1) };
        while needed > 1 && m / (k + needed) < SHORTEST_SHARED_PIECE {
            needed -= 1;
        }
        plan.mode = if m / (k + needed) < MIN_PIECE_CHARS { Mode::Scan } else { Mode::Filter };
        plan.parts = k + needed;
        plan.needed = needed;
        plan
    }

    /// Most hits kept before a full scan is preferred: roughly where
    /// handling the hits would cost as much as scanning the text.
    fn hit_cap(&self, text_chars: usize) -> usize {
        let blocks = self.m.div_ceil(WORD_BITS);
        (text_chars.saturating_mul(blocks) / 4).max(MIN_HIT_CAP)
    }

    /// Records a hit, or gives up on filtering when over the caps.
    fn add_hit(&mut self, hit: Hit, cap: usize, budget: &mut usize) {
        if self.mode != Mode::Filter {
            return;
        }
        if self.hits.len() >= cap || *budget == 0 {
            *budget += self.hits.len();
            self.mode = Mode::Scan;
            self.hits = Vec::new();
            return;
        }
        *budget -= 1;
        self.hits.push(hit);
    }

    /// The pieces, each cut to at most [`MAX_PIECE_CHARS`] chars.
    fn pieces(&self) -> Vec<Piece<'a>> {
        let bounds: Vec<usize> =
            self.pattern.char_indices().map(|(b, _)| b).chain(std::iter::once(self.pattern.len())).collect();
        (0..self.parts)
            .filter_map(|index| {
                let from = split_point(index, self.m, self.parts);
                let to = split_point(index + 1, self.m, self.parts).min(from + MAX_PIECE_CHARS);
                let text = self.pattern.get(*bounds.get(from)?..*bounds.get(to)?)?;
                Some(Piece { text, index, offset: from })
            })
            .collect()
    }

    /// Runs the verification for this query.
    fn search(&mut self, index: &CharIndex, deadline: &Deadline) -> Vec<Found> {
        let mut out = Vec::new();
        let windows = match self.mode {
            Mode::Skip => return out,
            Mode::Scan => vec![(0..index.chars, Band::FULL)],
            Mode::Filter => self.windows(index.chars),
        };
        // Built on first use: most windows are answered by `sole_exact`.
        let mut matcher: Option<Matcher> = None;
        for (window, band) in windows {
            if deadline.expired() {
                break;
            }
            if let Some(found) = self.sole_exact(index, &window) {
                out.push(found);
                continue;
            }
            let matcher = matcher.get_or_insert_with(|| Matcher::new(self.pattern, self.m, self.k));
            matcher.search(index.text, index.bytes(window), band, deadline, &mut out);
        }
        out
    }

    /// Answers a window without Myers when it is exactly the window of a
    /// verbatim occurrence `[s, s + m)`, i.e. `[s - k, s + m + k)`, clipped
    /// by neither text end, and `m > 2k`. Then every alignment within `k`
    /// edits in the window overlaps that occurrence (the margins are too
    /// short to hold one), and no other verbatim occurrence is in the window
    /// (its confirmed hits would have widened it), so the greedy selection
    /// picks exactly that occurrence.
    fn sole_exact(&self, index: &CharIndex, window: &Range<usize>) -> Option<Found> {
        let fits =
            self.m > 2 * self.k && window.start > 0 && window.end < index.chars && window.len() == self.m + 2 * self.k;
        if !fits {
            return None;
        }
        let start = index.select(window.start + self.k);
        let end = start.checked_add(self.pattern.len())?;
        let candidate = index.text.as_bytes().get(start..end)?;
        (candidate == self.pattern.as_bytes()).then_some(Found { start, end, distance: 0 })
    }

    /// Merged candidate windows (char ranges) around confirmed hits, each
    /// with the band of diagonals (relative to the window start) that holds
    /// every alignment within `k` edits through one of its hits.
    fn windows(&mut self, text_chars: usize) -> Vec<(Range<usize>, Band)> {
        self.hits.sort_unstable_by_key(|h| h.end);
        let confirmed = confirm(&self.hits, self.parts, self.needed, self.k);
        // (window, smallest and largest implied end of its hits)
        let mut merged: Vec<(Range<usize>, usize, usize)> = Vec::new();
        for hit in self.hits.iter().zip(confirmed).filter_map(|(h, ok)| ok.then_some(h)) {
            let start = hit.end.saturating_sub(self.m + self.k);
            let end = hit.end.saturating_add(self.k).min(text_chars);
            match merged.last_mut() {
                Some((last, _, max_end)) if start <= last.end => {
                    last.end = last.end.max(end);
                    *max_end = hit.end;
                }
                _ => merged.push((start..end, hit.end, hit.end)),
            }
        }
        merged.into_iter().map(|(w, lo, hi)| self.band_of(w, lo, hi)).collect()
    }

    /// Band of a window whose hits imply ends in `lo..=hi`: the diagonal of
    /// a hit is its implied end minus `m`, and an alignment within `k`
    /// edits strays at most `k` diagonals from any of its verbatim pieces.
    fn band_of(&self, window: Range<usize>, lo: usize, hi: usize) -> (Range<usize>, Band) {
        let diagonal = |end: usize| (to_isize(end) - to_isize(window.start)).saturating_sub(to_isize(self.m));
        let k = to_isize(self.k);
        let band = Band { lo: diagonal(lo).saturating_sub(k), hi: diagonal(hi).saturating_add(k) };
        (window, band)
    }
}

/// Marks the hits (sorted by diagonal) lying in some band of diagonals
/// `[d, d + band]` that holds hits of at least `needed` distinct pieces.
/// An occurrence within `band` edits has all its verbatim pieces in such a
/// band, so no occurrence loses its hits.
fn confirm(hits: &[Hit], parts: usize, needed: usize, band: usize) -> Vec<bool> {
    let mut marked = vec![needed <= 1; hits.len()];
    if needed <= 1 {
        return marked;
    }
    let mut counts = vec![0usize; parts];
    let (mut distinct, mut right, mut marked_to) = (0, 0, 0);
    for (left, hit) in hits.iter().enumerate() {
        while let Some(next) = hits.get(right).filter(|h| h.end.saturating_sub(hit.end) <= band) {
            if let Some(c) = counts.get_mut(next.piece) {
                distinct += usize::from(*c == 0);
                *c += 1;
            }
            right += 1;
        }
        if distinct >= needed {
            marked.iter_mut().take(right).skip(marked_to.max(left)).for_each(|m| *m = true);
            marked_to = right;
        }
        if let Some(c) = counts.get_mut(hit.piece) {
            if *c == 1 {
                distinct = distinct.saturating_sub(1);
            }
            *c = c.saturating_sub(1);
        }
    }
    marked
}

/// Char index where piece `i` of `parts` starts in a pattern of `m` chars.
fn split_point(i: usize, m: usize, parts: usize) -> usize {
    let point = (i as u128 * m as u128) / (parts.max(1) as u128);
    usize::try_from(point).unwrap_or(m).min(m)
}

/// Who owns a piece string: (query, piece index, piece char offset).
type Owners = Vec<Vec<(usize, usize, usize)>>;

/// Deduplicated piece strings of all filtered queries and their owners.
fn piece_table<'a>(plans: &[Plan<'a>]) -> (Vec<&'a str>, Owners) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut patterns: Vec<&str> = Vec::new();
    let mut owners: Owners = Vec::new();
    for (q, plan) in plans.iter().enumerate() {
        if plan.mode != Mode::Filter {
            continue;
        }
        for piece in plan.pieces() {
            let id = *ids.entry(piece.text).or_insert_with(|| {
                patterns.push(piece.text);
                owners.push(Vec::new());
                patterns.len() - 1
            });
            if let Some(list) = owners.get_mut(id) {
                list.push((q, piece.index, piece.offset));
            }
        }
    }
    (patterns, owners)
}

/// Searches all pieces of all filtered queries in one pass
/// ([`MultiSearcher`]) and records the hits in each plan.
fn collect_hits(index: &CharIndex, grams: Option<&GramIndex>, plans: &mut [Plan], deadline: &Deadline) {
    let (patterns, owners) = piece_table(plans);
    if patterns.is_empty() {
        return;
    }
    let bytes: Vec<&[u8]> = patterns.iter().map(|p| p.as_bytes()).collect();
    let caps: Vec<usize> = plans.iter().map(|p| p.hit_cap(index.chars)).collect();
    let mut budget = index.chars.saturating_add(EXTRA_HIT_BUDGET);
    let searcher = MultiSearcher::new(&bytes).with_grams(grams).with_deadline(deadline);
    searcher.find_overlapping(index.text.as_bytes(), |pattern, start| {
        let Some(list) = owners.get(pattern) else {
            return;
        };
        let at = index.rank(start);
        for &(q, piece, offset) in list {
            let cap = caps.get(q).copied().unwrap_or(MIN_HIT_CAP);
            if let Some(plan) = plans.get_mut(q) {
                let end = at + (plan.m - offset.min(plan.m));
                plan.add_hit(Hit { end, piece }, cap, &mut budget);
            }
        }
    });
}

// ---------------------------------------------------------------------------
// Bit-parallel verification (Myers 1999, blocked as in Hyyrö 2003)
// ---------------------------------------------------------------------------

/// Match bit vectors of a pattern: bit `i % 64` of word `i / 64` is set in
/// the row of char `c` when the pattern's char `i` is `c`.
struct Peq {
    blocks: usize,
    /// `128 * blocks` words, row per ASCII char.
    ascii: Vec<u64>,
    /// Sorted distinct non-ASCII chars of the pattern.
    other_chars: Vec<char>,
    /// `other_chars.len() * blocks` words.
    other: Vec<u64>,
    /// Row for chars absent from the pattern.
    zeros: Vec<u64>,
}

impl Peq {
    fn new(chars: impl Iterator<Item = char>, m: usize) -> Self {
        let blocks = m.div_ceil(WORD_BITS).max(1);
        let mut ascii = vec![0u64; 128 * blocks];
        let mut others: Vec<(char, usize)> = Vec::new();
        for (i, c) in chars.enumerate() {
            if c.is_ascii() {
                set_bit(&mut ascii, c as usize * blocks, i);
            } else {
                others.push((c, i));
            }
        }
        let mut other_chars: Vec<char> = others.iter().map(|&(c, _)| c).collect();
        crate::sort::sort(&mut other_chars);
        other_chars.dedup();
        let mut other = vec![0u64; other_chars.len() * blocks];
        for (c, i) in others {
            if let Ok(row) = other_chars.binary_search(&c) {
                set_bit(&mut other, row * blocks, i);
            }
        }
        let zeros = vec![0u64; blocks];
        Peq { blocks, ascii, other_chars, other, zeros }
    }

    /// The match vector (one word per block) of char `c`.
    #[inline]
    fn get(&self, c: char) -> &[u64] {
        let b = self.blocks;
        let row = if c.is_ascii() {
            let at = c as usize * b;
            self.ascii.get(at..at + b)
        } else {
            self.other_chars.binary_search(&c).ok().and_then(|r| self.other.get(r * b..r * b + b))
        };
        row.unwrap_or(&self.zeros)
    }
}

/// Sets bit `i` of the bit vector starting at word `row`.
fn set_bit(words: &mut [u64], row: usize, i: usize) {
    if let Some(w) = words.get_mut(row + i / WORD_BITS) {
        *w |= 1u64 << (i % WORD_BITS);
    }
}

/// A band of diagonals `j - i` in `lo..=hi` (text chars consumed minus
/// pattern chars consumed). Only the 64-row blocks meeting the band are
/// computed; cells outside it are given the cost of a real (not
/// necessarily optimal) path, so computed values are upper bounds that are
/// exact for every alignment whose path stays inside the band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Band {
    lo: isize,
    hi: isize,
}

impl Band {
    /// Every diagonal: plain (unbanded) computation.
    const FULL: Band = Band { lo: isize::MIN, hi: isize::MAX };

    /// Diagonals `-k..=k`: alignments anchored at the origin with at most
    /// `k` indels.
    fn around_origin(k: usize) -> Band {
        let k = to_isize(k);
        Band { lo: -k, hi: k }
    }

    /// Blocks holding the band's rows in column `column` (1-based rows
    /// `1..=m`), or `None` when the band misses the pattern there.
    fn blocks(self, column: usize, m: usize) -> Option<(usize, usize)> {
        let j = to_isize(column);
        let top = j.saturating_sub(self.hi).max(1);
        let bottom = j.saturating_sub(self.lo).min(to_isize(m));
        if top > bottom {
            return None;
        }
        let first = usize::try_from(top - 1).ok()? / WORD_BITS;
        let last = usize::try_from(bottom - 1).ok()? / WORD_BITS;
        Some((first, last))
    }
}

fn to_isize(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

/// One DP column, computed block by block: vertical delta vectors and the
/// value of the bottom row of each block.
struct Columns {
    pv: Vec<u64>,
    mv: Vec<u64>,
    /// Value of each block's bottom row in the last column computing it.
    scores: Vec<usize>,
    m: usize,
    /// Bit of the last pattern char inside the last block.
    last_mask: u64,
    /// Row 0 is `D[0][j] = j` (anchored) instead of 0 (free start).
    anchored: bool,
    /// Text chars consumed so far.
    column: usize,
    /// Blocks `0..ready` hold a state (blocks are started in order).
    ready: usize,
    band: Band,
}

impl Columns {
    /// Column 0 is `D[i][0] = i`.
    fn new(m: usize, anchored: bool, band: Band) -> Self {
        let blocks = m.div_ceil(WORD_BITS).max(1);
        Columns {
            pv: vec![!0u64; blocks],
            mv: vec![0u64; blocks],
            scores: vec![0; blocks],
            m,
            last_mask: 1u64 << (m.saturating_sub(1) % WORD_BITS),
            anchored,
            column: 0,
            ready: 0,
            band,
        }
    }

    /// Consumes one text char with match vector `eq`. Returns `D[m][j]`
    /// for the new column `j` when the band reaches the last row.
    #[inline]
    fn step(&mut self, eq: &[u64]) -> Option<usize> {
        self.column += 1;
        let (first, last) = self.band.blocks(self.column, self.m)?;
        self.start_blocks(last);
        let mut h = i32::from(first > 0 || self.anchored);
        let last_block = self.pv.len() - 1;
        for b in first..=last {
            let mask = if b == last_block { self.last_mask } else { HIGH_BIT };
            let (Some(pv), Some(mv), Some(&e), Some(score)) =
                (self.pv.get_mut(b), self.mv.get_mut(b), eq.get(b), self.scores.get_mut(b))
            else {
                return None;
            };
            h = advance_block(pv, mv, e, h, mask);
            *score = (*score + usize::from(h > 0)).saturating_sub(usize::from(h < 0));
        }
        if last == last_block {
            self.scores.get(last).copied()
        } else {
            None
        }
    }

    /// Starts blocks up to `last` entering the band: their previous column
    /// is taken as the block above's bottom value plus one per row (a real
    /// path: deletions straight down).
    fn start_blocks(&mut self, last: usize) {
        while self.ready <= last && self.ready < self.pv.len() {
            let b = self.ready;
            let above = match b.checked_sub(1) {
                Some(a) => self.scores.get(a).copied().unwrap_or(0),
                None if self.anchored => self.column - 1,
                None => 0,
            };
            let rows = (self.m - b * WORD_BITS).min(WORD_BITS);
            if let (Some(pv), Some(mv), Some(score)) = (self.pv.get_mut(b), self.mv.get_mut(b), self.scores.get_mut(b))
            {
                (*pv, *mv, *score) = (!0, 0, above + rows);
            }
            self.ready += 1;
        }
    }
}

/// One 64-row block of one column. `hin` is the horizontal delta entering
/// the block's top, the result the delta leaving it at the row of `out`.
#[inline]
fn advance_block(pv: &mut u64, mv: &mut u64, eq: u64, hin: i32, out: u64) -> i32 {
    let hin_neg = u64::from(hin < 0);
    let hin_pos = u64::from(hin > 0);
    let xv = eq | *mv;
    let eq = eq | hin_neg;
    let xh = ((eq & *pv).wrapping_add(*pv) ^ *pv) | eq;
    let ph = *mv | !(xh | *pv);
    let mh = *pv & xh;
    let hout = if ph & out != 0 {
        1
    } else if mh & out != 0 {
        -1
    } else {
        0
    };
    let ph = (ph << 1) | hin_pos;
    let mh = (mh << 1) | hin_neg;
    *pv = mh | !(xv | ph);
    *mv = ph & xv;
    hout
}

// ---------------------------------------------------------------------------
// Occurrences inside one window
// ---------------------------------------------------------------------------

/// An occurrence found in a window (byte offsets into the searched text).
#[derive(Debug, Clone, Copy)]
struct Found {
    start: usize,
    end: usize,
    distance: usize,
}

impl Found {
    fn into_match(self, query: usize) -> FuzzyMatch {
        FuzzyMatch { query, start: self.start, end: self.end, distance: self.distance }
    }
}

/// An end position whose best distance is within `k`.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    /// Chars from the window start to the end of the alignment.
    end_char: usize,
    end_byte: usize,
    distance: usize,
    /// Canonical start `(char offset in window, byte offset)`, once known.
    start: Option<(usize, usize)>,
}

/// Heap key: (distance, |len − m|, start char, candidate index). For a
/// candidate whose start is not known yet it is a lower bound.
type Key = (usize, usize, usize, usize);

/// A prepared pattern with its forward and reversed match vectors.
struct Matcher {
    m: usize,
    k: usize,
    forward: Peq,
    reverse: Peq,
}

impl Matcher {
    fn new(pattern: &str, m: usize, k: usize) -> Self {
        Matcher { m, k, forward: Peq::new(pattern.chars(), m), reverse: Peq::new(pattern.chars().rev(), m) }
    }

    /// Appends the occurrences inside `window` (a byte range of `text`),
    /// in order of start. `band` (relative to the window start) must
    /// contain the path of every alignment within `k` edits.
    fn search(&self, text: &str, window: Range<usize>, band: Band, deadline: &Deadline, out: &mut Vec<Found>) {
        let mut candidates = self.candidates(text, window.clone(), band, deadline);
        let mut rest = candidates.as_mut_slice();
        while !rest.is_empty() {
            if deadline.expired() {
                return;
            }
            let split = self.group_len(rest);
            let (group, tail) = rest.split_at_mut(split);
            self.select(text, window.start, group, out);
            rest = tail;
        }
    }

    /// Forward scan: every end position in the window with distance `<= k`.
    fn candidates(&self, text: &str, window: Range<usize>, band: Band, deadline: &Deadline) -> Vec<Candidate> {
        let mut found = Vec::new();
        let Some(slice) = text.get(window.clone()) else {
            debug_assert!(false, "window not on char boundaries");
            return found;
        };
        let mut columns = Columns::new(self.m, false, band);
        for (n, (b, c)) in slice.char_indices().enumerate() {
            if n % 64 == 0 && deadline.expired() {
                break;
            }
            let Some(distance) = columns.step(self.forward.get(c)) else {
                continue;
            };
            if distance <= self.k {
                found.push(Candidate {
                    end_char: n + 1,
                    end_byte: window.start + b + c.len_utf8(),
                    distance,
                    start: None,
                });
            }
        }
        found
    }

    /// Length of the leading run of candidates that may interact: a gap of
    /// `m + k` chars between two ends means their alignments cannot overlap.
    fn group_len(&self, candidates: &[Candidate]) -> usize {
        let reach = self.m + self.k;
        candidates
            .windows(2)
            .position(|w| match w {
                [a, b] => b.end_char.saturating_sub(a.end_char) >= reach,
                _ => false,
            })
            .map_or(candidates.len(), |i| i + 1)
    }

    /// Greedy choice of non-overlapping occurrences among `group`, best key
    /// first. Starts are computed lazily, only for candidates that may win.
    fn select(&self, text: &str, base: usize, group: &mut [Candidate], out: &mut Vec<Found>) {
        let mut heap: BinaryHeap<Reverse<Key>> = group
            .iter()
            .enumerate()
            .map(|(i, c)| Reverse((c.distance, 0, c.end_char.saturating_sub(self.m), i)))
            .collect();
        // Chosen occurrences by start char: (end char, occurrence).
        let mut chosen: BTreeMap<usize, (usize, Found)> = BTreeMap::new();
        while let Some(Reverse(key)) = heap.pop() {
            let Some(cand) = group.get_mut(key.3) else {
                continue;
            };
            match cand.start {
                None => {
                    // Every start is at most end - (m - distance).
                    let shortest = self.m.saturating_sub(cand.distance);
                    let latest = cand.end_char.saturating_sub(shortest);
                    if overlaps(&chosen, latest, cand.end_char) {
                        continue;
                    }
                    let Some((len, start_byte)) = self.best_start(text, base, cand) else {
                        continue;
                    };
                    let start_char = cand.end_char.saturating_sub(len);
                    cand.start = Some((start_char, start_byte));
                    heap.push(Reverse((cand.distance, len.abs_diff(self.m), start_char, key.3)));
                }
                Some((start_char, start_byte)) => {
                    if overlaps(&chosen, start_char, cand.end_char) {
                        continue;
                    }
                    let found = Found { start: start_byte, end: cand.end_byte, distance: cand.distance };
                    chosen.insert(start_char, (cand.end_char, found));
                }
            }
        }
        out.extend(chosen.into_values().map(|(_, found)| found));
    }

    /// Canonical start of the alignment ending at `cand`: runs the reversed
    /// pattern over the text read backwards from the end, anchored there.
    /// Returns `(length in chars, start byte)`.
    fn best_start(&self, text: &str, base: usize, cand: &Candidate) -> Option<(usize, usize)> {
        let slice = text.get(base..cand.end_byte)?;
        let mut columns = Columns::new(self.m, true, Band::around_origin(self.k));
        let mut best: Option<(usize, usize, usize, usize)> = None;
        let reversed = slice.char_indices().rev().take(self.m + self.k);
        for (n, (b, c)) in reversed.enumerate() {
            let Some(distance) = columns.step(self.reverse.get(c)) else {
                continue;
            };
            let len = n + 1;
            let key = (distance, len.abs_diff(self.m));
            // `<=`: on ties the later (leftmost) start wins.
            if distance <= self.k && best.is_none_or(|(d, diff, _, _)| key <= (d, diff)) {
                best = Some((distance, key.1, len, base + b));
            }
        }
        let (distance, _, len, start) = best?;
        debug_assert_eq!(distance, cand.distance);
        Some((len, start))
    }
}

/// Whether the char range `[start, end)` may share a char with a chosen
/// occurrence (`chosen` maps start to end; chosen ranges are disjoint).
fn overlaps(chosen: &BTreeMap<usize, (usize, Found)>, start: usize, end: usize) -> bool {
    chosen.range(..end).next_back().is_some_and(|(_, &(chosen_end, _))| chosen_end > start)
}
