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
//!    `k + 1` pieces of nearly equal length; any substring within `k` edits
//!    of the pattern contains at least one piece verbatim. The pieces of all
//!    patterns (deduplicated, and cut down to a prefix of at most
//!    [`MAX_PIECE_CHARS`] chars, which keeps the filter valid) are searched in
//!    one pass with an Aho–Corasick automaton. Each piece hit yields a
//!    candidate window of about `m + 2k` chars; windows of one pattern are
//!    merged when they touch.
//! 2. **Verify**. Each window is scanned with Myers' bit-parallel algorithm
//!    (Hyyrö's blocked variant for patterns longer than 64 chars), which
//!    gives the best distance of an alignment ending at every position.
//! 3. **Locate starts**. For a chosen end position, Myers is run again with
//!    the reversed pattern over the text read backwards from that end, with
//!    the alignment anchored at the end; this yields the distance for every
//!    possible start.
//!
//! Fall-back: when a piece would be shorter than [`MIN_PIECE_CHARS`] chars
//! (large `k` on a short pattern), or when its pieces hit the text so often
//! that the windows would cover it anyway, the pattern is verified by one
//! bit-parallel scan of the whole text instead: still linear in the text
//! length, times `ceil(m / 64)`.
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

use aho_corasick::{AhoCorasick, Input, MatchKind};

/// Pieces shorter than this many chars make the filter useless: such a
/// pattern is verified by a full scan of the text.
pub const MIN_PIECE_CHARS: usize = 2;

/// Pieces are cut down to a prefix of at most this many chars before they
/// go into the Aho–Corasick automaton (keeps the automaton small; a prefix of
/// a piece occurs wherever the piece does, so no match is lost).
pub const MAX_PIECE_CHARS: usize = 32;

/// A pattern whose pieces hit the text more often than this (or more often
/// than `text.len() / (m + 2k)`, whichever is larger) is verified by a full
/// scan instead of window by window.
const MIN_HIT_CAP: usize = 64;

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

/// Finds every occurrence of every query in `text`.
///
/// An occurrence is a substring of `text` within `max_distance` edits of
/// the query's pattern; overlapping alignments are collapsed as described in
/// the module documentation. Results are sorted by `(query, start)`.
///
/// A query whose pattern is empty, or whose `max_distance` is at least the
/// pattern's length in chars (every position would match), yields no
/// matches.
pub fn find_all(text: &str, queries: &[FuzzyQuery]) -> Vec<FuzzyMatch> {
    let mut plans: Vec<Plan> = queries.iter().map(Plan::new).collect();
    collect_hits(text, &mut plans);
    let mut out = Vec::new();
    for (index, plan) in plans.iter().enumerate() {
        for found in plan.search(text) {
            out.push(found.into_match(index));
        }
    }
    out
}

/// Levenshtein distance between `a` and `b`, counted in chars.
///
/// Uses Myers' bit-parallel algorithm with the shorter string as the
/// pattern (blocked for strings longer than 64 chars), so the cost is
/// `O(ceil(min / 64) * max)` for strings of `min` and `max` chars.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    let (pattern, text, m) = if len_a <= len_b {
        (a, b, len_a)
    } else {
        (b, a, len_b)
    };
    if m == 0 {
        return len_a.max(len_b);
    }
    let peq = Peq::new(pattern.chars(), m);
    let mut columns = Columns::new(m);
    for c in text.chars() {
        columns.step(peq.get(c), 1);
    }
    columns.score
}

/// Best semi-global match of `pattern` inside `window`.
///
/// Returns `(start_byte, end_byte, distance)` of the substring of `window`
/// closest to `pattern`: smallest distance, then length in chars closest to
/// the pattern's, then leftmost. Returns `None` when the pattern is empty or
/// no substring is within `max_distance`. `max_distance` is capped at the
/// pattern length minus one (deleting the whole pattern costs its length,
/// so larger distances would match the empty string anywhere).
pub fn best_in_window(
    pattern: &str,
    window: &str,
    max_distance: usize,
) -> Option<(usize, usize, usize)> {
    let m = pattern.chars().count();
    if m == 0 {
        return None;
    }
    let matcher = Matcher::new(pattern, m, max_distance.min(m - 1));
    let mut found = Vec::new();
    matcher.search(window, 0..window.len(), &mut found);
    found
        .into_iter()
        .min_by_key(|f| (f.distance, f.chars.abs_diff(m), f.start, f.end))
        .map(|f| (f.start, f.end, f.distance))
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
    /// Verify only windows around piece hits.
    Filter,
}

/// A piece of a pattern fed to the automaton.
struct Piece<'a> {
    text: &'a str,
    /// Char offset of the piece inside the pattern.
    offset: usize,
}

/// A piece hit: byte position in the text and the piece's char offset.
#[derive(Clone, Copy)]
struct Hit {
    at: usize,
    offset: usize,
}

/// Per-query search state.
struct Plan<'a> {
    pattern: &'a str,
    m: usize,
    k: usize,
    mode: Mode,
    hits: Vec<Hit>,
}

impl<'a> Plan<'a> {
    fn new(query: &FuzzyQuery<'a>) -> Self {
        let m = query.pattern.chars().count();
        let k = query.max_distance;
        let mode = if m == 0 || k >= m {
            Mode::Skip
        } else if m / (k + 1) < MIN_PIECE_CHARS {
            Mode::Scan
        } else {
            Mode::Filter
        };
        Plan { pattern: query.pattern, m, k, mode, hits: Vec::new() }
    }

    /// Most hits kept before switching to a full scan.
    fn hit_cap(&self, text_len: usize) -> usize {
        let window = self.m.saturating_add(self.k.saturating_mul(2)).max(1);
        (text_len / window).max(MIN_HIT_CAP)
    }

    fn add_hit(&mut self, hit: Hit, cap: usize) {
        if self.mode != Mode::Filter {
            return;
        }
        if self.hits.len() >= cap {
            self.mode = Mode::Scan;
            self.hits = Vec::new();
            return;
        }
        self.hits.push(hit);
    }

    /// The `k + 1` pieces, each cut to at most [`MAX_PIECE_CHARS`] chars.
    fn pieces(&self) -> Vec<Piece<'a>> {
        let bounds: Vec<usize> = self
            .pattern
            .char_indices()
            .map(|(b, _)| b)
            .chain(std::iter::once(self.pattern.len()))
            .collect();
        let parts = self.k + 1;
        (0..parts)
            .filter_map(|i| {
                let from = split_point(i, self.m, parts);
                let to = split_point(i + 1, self.m, parts).min(from + MAX_PIECE_CHARS);
                let text = self.pattern.get(*bounds.get(from)?..*bounds.get(to)?)?;
                Some(Piece { text, offset: from })
            })
            .collect()
    }

    /// Runs the verification for this query.
    fn search(&self, text: &str) -> Vec<Found> {
        let mut out = Vec::new();
        let windows = match self.mode {
            Mode::Skip => return out,
            Mode::Filter if self.hits.is_empty() => return out,
            Mode::Scan => vec![0..text.len()],
            Mode::Filter => self.windows(text),
        };
        let matcher = Matcher::new(self.pattern, self.m, self.k);
        for window in windows {
            matcher.search(text, window, &mut out);
        }
        out
    }

    /// Merged candidate windows (byte ranges) around the piece hits.
    fn windows(&self, text: &str) -> Vec<Range<usize>> {
        let mut windows: Vec<Range<usize>> = self
            .hits
            .iter()
            .map(|hit| {
                let before = hit.offset.saturating_add(self.k);
                let after = (self.m - hit.offset.min(self.m)).saturating_add(self.k);
                back_chars(text, hit.at, before)..forward_chars(text, hit.at, after)
            })
            .collect();
        windows.sort_unstable_by_key(|w| w.start);
        merge_ranges(windows)
    }
}

/// Char index where piece `i` of `parts` starts in a pattern of `m` chars.
fn split_point(i: usize, m: usize, parts: usize) -> usize {
    let point = (i as u128 * m as u128) / (parts.max(1) as u128);
    usize::try_from(point).unwrap_or(m).min(m)
}

/// Merges sorted ranges that overlap or touch.
fn merge_ranges(sorted: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
    for range in sorted {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

/// Searches all pieces of all filtered queries in one Aho–Corasick pass and
/// records the hits in each plan.
fn collect_hits(text: &str, plans: &mut [Plan]) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut patterns: Vec<&str> = Vec::new();
    let mut owners: Vec<Vec<(usize, usize)>> = Vec::new();
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
                list.push((q, piece.offset));
            }
        }
    }
    if patterns.is_empty() {
        return;
    }
    let caps: Vec<usize> = plans.iter().map(|p| p.hit_cap(text.len())).collect();
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(&patterns);
    let iter = automaton
        .as_ref()
        .ok()
        .and_then(|ac| ac.try_find_overlapping_iter(Input::new(text)).ok());
    let Some(iter) = iter else {
        // The automaton could not be built: verify everything by full scans.
        plans
            .iter_mut()
            .filter(|p| p.mode == Mode::Filter)
            .for_each(|p| p.mode = Mode::Scan);
        return;
    };
    for hit in iter {
        let Some(list) = owners.get(hit.pattern().as_usize()) else {
            continue;
        };
        for &(q, offset) in list {
            let cap = caps.get(q).copied().unwrap_or(MIN_HIT_CAP);
            if let Some(plan) = plans.get_mut(q) {
                plan.add_hit(Hit { at: hit.start(), offset }, cap);
            }
        }
    }
}

/// Byte position `n` chars before `pos` (or 0).
fn back_chars(text: &str, pos: usize, n: usize) -> usize {
    let bytes = text.as_bytes();
    let pos = pos.min(bytes.len());
    if let Some(from) = pos.checked_sub(n) {
        if bytes.get(from..pos).is_some_and(|s| s.is_ascii()) {
            return from;
        }
    }
    text.get(..pos)
        .and_then(|head| head.char_indices().rev().nth(n.checked_sub(1)?))
        .map_or(0, |(b, _)| b)
}

/// Byte position `n` chars after `pos` (or the text length).
fn forward_chars(text: &str, pos: usize, n: usize) -> usize {
    let bytes = text.as_bytes();
    let pos = pos.min(bytes.len());
    if let Some(to) = pos.checked_add(n) {
        if bytes.get(pos..to).is_some_and(|s| s.is_ascii()) {
            return to;
        }
    }
    text.get(pos..)
        .and_then(|tail| tail.char_indices().nth(n))
        .map_or(text.len(), |(b, _)| pos + b)
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
        other_chars.sort_unstable();
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
            self.other_chars
                .binary_search(&c)
                .ok()
                .and_then(|r| self.other.get(r * b..r * b + b))
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

/// State of one DP column: vertical delta vectors per block and the value
/// of the last pattern row.
struct Columns {
    pv: Vec<u64>,
    mv: Vec<u64>,
    /// Bit of the last pattern char inside the last block.
    last_mask: u64,
    /// `D[m][j]` for the current column `j`.
    score: usize,
}

impl Columns {
    /// Column 0: `D[i][0] = i` (all vertical deltas +1).
    fn new(m: usize) -> Self {
        let blocks = m.div_ceil(WORD_BITS).max(1);
        Columns {
            pv: vec![!0u64; blocks],
            mv: vec![0u64; blocks],
            last_mask: 1u64 << (m.saturating_sub(1) % WORD_BITS),
            score: m,
        }
    }

    /// Advances one text char with match vector `eq`. `top` is the
    /// horizontal delta of row 0: 0 for a free start (semi-global), 1 for an
    /// anchored start. Returns the new `D[m][j]`.
    #[inline]
    fn step(&mut self, eq: &[u64], top: i32) -> usize {
        debug_assert_eq!(eq.len(), self.pv.len());
        let last = self.pv.len() - 1;
        let mut h = top;
        let blocks = self.pv.iter_mut().zip(self.mv.iter_mut()).zip(eq);
        for (b, ((pv, mv), &e)) in blocks.enumerate() {
            let mask = if b == last { self.last_mask } else { HIGH_BIT };
            h = advance_block(pv, mv, e, h, mask);
        }
        self.score = match h {
            1 => self.score + 1,
            -1 => self.score.saturating_sub(1),
            _ => self.score,
        };
        self.score
    }
}

/// One 64-row block of one column. `hin` is the horizontal delta entering
/// the block's top, the result the delta leaving it at the row of `out`.
#[inline(always)]
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
    /// Length of the match in chars.
    chars: usize,
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
        Matcher {
            m,
            k,
            forward: Peq::new(pattern.chars(), m),
            reverse: Peq::new(pattern.chars().rev(), m),
        }
    }

    /// Appends the occurrences inside `window` (a byte range of `text`),
    /// in order of start.
    fn search(&self, text: &str, window: Range<usize>, out: &mut Vec<Found>) {
        let mut candidates = self.candidates(text, window.clone());
        let mut rest = candidates.as_mut_slice();
        while !rest.is_empty() {
            let split = self.group_len(rest);
            let (group, tail) = rest.split_at_mut(split);
            self.select(text, window.start, group, out);
            rest = tail;
        }
    }

    /// Forward scan: every end position in the window with distance `<= k`.
    fn candidates(&self, text: &str, window: Range<usize>) -> Vec<Candidate> {
        let mut found = Vec::new();
        let Some(slice) = text.get(window.clone()) else {
            debug_assert!(false, "window not on char boundaries");
            return found;
        };
        let mut columns = Columns::new(self.m);
        for (n, (b, c)) in slice.char_indices().enumerate() {
            let distance = columns.step(self.forward.get(c), 0);
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
                    let found = Found {
                        start: start_byte,
                        end: cand.end_byte,
                        distance: cand.distance,
                        chars: cand.end_char.saturating_sub(start_char),
                    };
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
        let mut columns = Columns::new(self.m);
        let mut best: Option<(usize, usize, usize, usize)> = None;
        let reversed = slice.char_indices().rev().take(self.m + self.k);
        for (n, (b, c)) in reversed.enumerate() {
            let distance = columns.step(self.reverse.get(c), 1);
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
    chosen
        .range(..end)
        .next_back()
        .is_some_and(|(_, &(chosen_end, _))| chosen_end > start)
}
