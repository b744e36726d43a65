//! Exact matching (spec 000 §3.3): every occurrence of every quote in the
//! normalized text, all quotes searched together in one pass over the text
//! instead of one pass per quote.
//!
//! [`MultiSearcher`] does the pass (the fuzzy matcher's pigeonhole filter
//! uses it too). It reads the text through an 8-byte window: the window,
//! taken as a `u64`, is hashed to one bit of a small bitmap holding the first
//! 8 bytes of every pattern of at least 8 bytes; only where that bit is set
//! is the window looked up among the patterns' prefixes and the candidates
//! compared in full. The bitmap has about 64 bits per pattern, so it stays
//! in the L1 cache and the loop costs a few instructions per byte of text:
//! about 14 times fewer instructions than an Aho-Corasick automaton over
//! the whole quotes (build and overlapping scan) on 1000 quotes and 1 MB.
//! Patterns of 4 to 7 bytes get a second bitmap keyed by 4 bytes, in the
//! same pass; shorter ones (rare: quotes have at least 10 chars, fuzzy
//! pieces at least 2) and a few patterns are searched with `memchr::memmem`.
//!
//! Patterns of at least 24 bytes (quotes) need not be looked for at every
//! position: with the shortest of them `L` bytes long, an 8-byte window is
//! probed every `L - 7` bytes, and the bitmap holds each pattern's windows
//! at offsets `0..L - 7`; an occurrence contains exactly one probed window,
//! at one of those offsets. For 1000 quotes of 40 to 200 chars that is one
//! probe every 30-odd bytes.
//!
//! A document that answers one quote after another (the browser re-checks
//! a claim as the user types) would pay a whole pass over its text for
//! each of the few patterns of a query. [`GramIndex`] turns those passes
//! into lookups: it holds the positions of the text's 6-byte windows at
//! every third byte, so a pattern of at least 8 bytes is found from the
//! postings of its windows at offsets 0, 1 and 2 (the same argument as the
//! sampled pass, inverted), at a cost set by how often those windows occur,
//! not by the text's length.
use crate::host::Deadline;

#[cfg(test)]
/// For each pattern, the byte ranges `(start, end)` of all its occurrences in
/// `text` (overlapping ones included, as repeated `str::find` from `pos + 1`
/// would find), ascending. Empty patterns have no occurrences.
pub fn find_all(text: &str, patterns: &[&str]) -> Vec<Vec<(usize, usize)>> {
    find_all_in(text, None, patterns)
}

#[cfg(test)]
/// [`find_all`], looking patterns up in `grams` (built over `text`) when
/// there are few of them.
pub fn find_all_in(text: &str, grams: Option<&GramIndex>, patterns: &[&str]) -> Vec<Vec<(usize, usize)>> {
    find_all_bounded(text, grams, patterns, usize::MAX, &Deadline::never()).into_iter().map(|o| o.spans).collect()
}

/// The occurrences of one pattern found by [`find_all_bounded`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Occurrences {
    /// The first occurrences, ascending, at most the cap asked for.
    pub spans: Vec<(usize, usize)>,
    /// How many occurrences there are in all (`spans.len()` plus those
    /// counted past the cap).
    pub total: usize,
}

/// [`find_all_in`] keeping at most `cap` occurrences of each pattern (the
/// first ones; the rest are only counted, so a pattern that occurs at every
/// byte costs no memory past the cap) and stopping when `deadline` passes
/// (then the answer is incomplete: callers ask `deadline.expired()`).
pub fn find_all_bounded(
    text: &str,
    grams: Option<&GramIndex>,
    patterns: &[&str],
    cap: usize,
    deadline: &Deadline,
) -> Vec<Occurrences> {
    let mut results = vec![Occurrences::default(); patterns.len()];
    // identical quotes are searched once
    let mut order: Vec<(&[u8], usize)> =
        patterns.iter().enumerate().filter(|(_, p)| !p.is_empty()).map(|(i, p)| (p.as_bytes(), i)).collect();
    crate::sort::sort_by(&mut order, |a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    let mut unique: Vec<&[u8]> = Vec::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    for (p, i) in order {
        if unique.last() != Some(&p) {
            unique.push(p);
            owners.push(Vec::new());
        }
        if let Some(o) = owners.last_mut() {
            o.push(i);
        }
    }
    let mut found: Vec<Occurrences> = vec![Occurrences::default(); unique.len()];
    MultiSearcher::new(&unique).with_grams(grams).with_deadline(deadline).find_overlapping(
        text.as_bytes(),
        |p, start| {
            if let (Some(list), Some(pat)) = (found.get_mut(p), unique.get(p)) {
                list.total += 1;
                if list.spans.len() < cap {
                    list.spans.push((start, start + pat.len()));
                }
            }
        },
    );
    for (hits, owners) in found.into_iter().zip(owners) {
        let mut hits = hits;
        // stable: the same order (pairs are distinct), and the same code as
        // token.rs's sort of (usize, usize) (one sort instantiation, not two)
        hits.spans.sort();
        if let Some((&first, rest)) = owners.split_first() {
            for &o in rest {
                if let Some(r) = results.get_mut(o) {
                    *r = hits.clone();
                }
            }
            if let Some(r) = results.get_mut(first) {
                *r = hits;
            }
        }
    }
    results
}

#[cfg(test)]
/// All occurrences of one pattern (overlapping ones included), ascending:
/// `memchr::memmem` (SIMD), for one quote on a built document.
pub fn find_one(text: &str, pattern: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !pattern.is_empty() {
        let finder = memchr::memmem::Finder::new(pattern.as_bytes());
        each_occurrence(&finder, text.as_bytes(), None, |start| out.push((start, start + pattern.len())));
    }
    out
}

/// Calls `f` with the start of every occurrence of `finder`'s needle in
/// `text`, overlapping ones included, ascending.
fn each_occurrence(
    finder: &memchr::memmem::Finder,
    text: &[u8],
    deadline: Option<&Deadline>,
    mut f: impl FnMut(usize),
) {
    let mut from = 0;
    while let Some(pos) = text.get(from..).and_then(|t| finder.find(t)) {
        if deadline.is_some_and(Deadline::expired) {
            return;
        }
        f(from + pos);
        from += pos + 1;
    }
}

/// At most this many patterns are searched one by one with `memmem`
/// (each a SIMD pass) rather than with the bitmap pass.
const MEMMEM_PATTERNS: usize = 16;

/// Many byte patterns searched together in one pass (see the module
/// documentation).
pub struct MultiSearcher<'p> {
    patterns: Vec<&'p [u8]>,
    plan: Plan<'p>,
    grams: Option<&'p GramIndex>,
    /// Asked inside every loop over the text; past it the search stops.
    deadline: Option<&'p Deadline<'p>>,
}

/// What a [`MultiSearcher`] builds from its patterns (their bitmaps and
/// prefix tables), owned: a search of the same patterns over one range of
/// a text after another builds it once ([`MultiSearcher::with_plan`]).
pub(crate) struct SearchPlan {
    /// The patterns' count and total length: a searcher given this plan
    /// with patterns of another shape builds its own.
    shape: (usize, usize),
    /// Patterns of 8 to 23 bytes, keyed by their first 8.
    long: PrefixTable,
    /// Patterns of at least [`SAMPLED_MIN`] bytes, keyed by each of their
    /// 8-byte windows at offsets `0..stride`, probed every `stride` bytes.
    sampled: PrefixTable,
    stride: usize,
    /// Patterns of 4 to 7 bytes, keyed by their first 4.
    mid: PrefixTable,
    /// Patterns searched with `memmem` or looked up in `grams`: shorter
    /// than 4 bytes, or all of them when there are few.
    alone: Vec<usize>,
}

/// A searcher's plan: its own, or one it was lent.
enum Plan<'p> {
    Own(Box<SearchPlan>),
    Lent(&'p SearchPlan),
}

impl SearchPlan {
    /// The plan of `patterns` (empty ones never match).
    pub(crate) fn new(patterns: &[&[u8]]) -> SearchPlan {
        let few = patterns.len() <= MEMMEM_PATTERNS;
        let (mut long, mut mid, mut alone, mut sampled) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, p) in patterns.iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            match p.len() {
                _ if few => alone.push(i),
                SAMPLED_MIN.. => sampled.push(i),
                8.. => long.push((key::<8>(p), i as u32, 0)),
                4..=7 => mid.push((key::<4>(p), i as u32, 0)),
                _ => alone.push(i),
            }
        }
        // every occurrence of a pattern of at least `shortest` bytes holds a
        // probed position whose 8-byte window lies inside it, at an offset
        // below the stride
        let shortest = sampled.iter().filter_map(|&i| patterns.get(i)).map(|p| p.len()).min().unwrap_or(SAMPLED_MIN);
        let stride = shortest - 7;
        let windows = sampled
            .iter()
            .filter_map(|&i| Some((i, *patterns.get(i)?)))
            .flat_map(|(i, p)| (0..stride).rev().filter_map(move |o| Some((key::<8>(p.get(o..)?), i as u32, o as u32))))
            .collect();
        SearchPlan {
            shape: shape_of(patterns),
            long: PrefixTable::new(long),
            sampled: PrefixTable::new(windows),
            stride,
            mid: PrefixTable::new(mid),
            alone,
        }
    }
}

/// The count and total length of `patterns` ([`SearchPlan::shape`]).
fn shape_of(patterns: &[&[u8]]) -> (usize, usize) {
    (patterns.len(), patterns.iter().map(|p| p.len()).sum())
}

impl<'p> MultiSearcher<'p> {
    /// Prepares `patterns` (empty ones never match).
    pub fn new(patterns: &[&'p [u8]]) -> MultiSearcher<'p> {
        MultiSearcher {
            patterns: patterns.to_vec(),
            plan: Plan::Own(Box::new(SearchPlan::new(patterns))),
            grams: None,
            deadline: None,
        }
    }

    /// A searcher of `patterns` with `plan`, which must have been made of
    /// them ([`SearchPlan::new`]): nothing built. (Given patterns of
    /// another count or total length, it builds its own plan.)
    pub(crate) fn with_plan(plan: &'p SearchPlan, patterns: &[&'p [u8]]) -> MultiSearcher<'p> {
        let plan = if plan.shape == shape_of(patterns) {
            Plan::Lent(plan)
        } else {
            Plan::Own(Box::new(SearchPlan::new(patterns)))
        };
        MultiSearcher { patterns: patterns.to_vec(), plan, grams: None, deadline: None }
    }

    /// The plan searched with.
    #[inline]
    fn plan(&self) -> &SearchPlan {
        match &self.plan {
            Plan::Own(plan) => plan,
            Plan::Lent(plan) => plan,
        }
    }

    /// Stops the search (leaving it incomplete) once `deadline` passes.
    #[must_use]
    pub fn with_deadline(mut self, deadline: &'p Deadline<'p>) -> MultiSearcher<'p> {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the deadline has passed (never without one).
    #[inline]
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(Deadline::expired)
    }

    /// Looks the patterns searched one by one up in `grams` (which must be
    /// built over the text later searched) instead of scanning the text,
    /// when they are long enough.
    #[must_use]
    pub fn with_grams(mut self, grams: Option<&'p GramIndex>) -> MultiSearcher<'p> {
        self.grams = grams;
        self
    }

    /// Calls `f(pattern, start)` for every occurrence of every pattern in
    /// `text`, overlapping ones included. Occurrences of one pattern come in
    /// ascending order.
    pub fn find_overlapping(&self, text: &[u8], mut f: impl FnMut(usize, usize)) {
        let plan = self.plan();
        if !plan.long.is_empty() || !plan.mid.is_empty() {
            self.scan(text, &mut f);
        }
        if !plan.sampled.is_empty() {
            self.scan_sampled(text, &mut f);
        }
        for &p in &plan.alone {
            let Some(pat) = self.patterns.get(p) else {
                continue;
            };
            let deadline = self.deadline;
            match self.grams {
                Some(grams) if pat.len() >= GRAM_MIN => grams.each_occurrence(text, pat, deadline, |start| f(p, start)),
                _ => each_occurrence(&memchr::memmem::Finder::new(pat), text, deadline, |start| f(p, start)),
            }
        }
    }

    /// The bitmap pass for the long and mid patterns: positions whose
    /// window may start a pattern are collected a block at a time (a tight
    /// loop), then verified.
    fn scan(&self, text: &[u8], f: &mut impl FnMut(usize, usize)) {
        let mut candidates: Vec<u32> = Vec::with_capacity(SCAN_BLOCK);
        let plan = self.plan();
        let with_mid = !plan.mid.is_empty();
        let positions = text.len().saturating_sub(7);
        let mut from = 0;
        while from < text.len() {
            if self.past_deadline() {
                return;
            }
            let to = (from + SCAN_BLOCK).min(text.len());
            candidates.clear();
            // whole 8-byte windows
            let whole = from..to.min(positions);
            if with_mid {
                collect_both(&plan.long, &plan.mid, text, whole, &mut candidates);
            } else {
                plan.long.collect(text, whole, &mut candidates);
            }
            for &at in &candidates {
                if self.past_deadline() {
                    return;
                }
                self.verify(text, at as usize, f);
            }
            from = to;
        }
        // the last 7 positions hold no 8-byte pattern, but may hold a 4-byte one
        if with_mid {
            for at in positions..text.len().saturating_sub(3) {
                if let Some(window) = text.get(at..at + 4) {
                    let w4 = u64::from(u32::from_le_bytes(window.try_into().unwrap_or([0; 4])));
                    if plan.mid.may_hold(w4) {
                        self.verify(text, at, f);
                    }
                }
            }
        }
    }

    /// The sampled pass: one probe every `stride` bytes; a window found in
    /// the table at offset `o` of a pattern is checked as an occurrence
    /// starting `o` bytes earlier. Each occurrence is seen exactly once (one
    /// probe falls in its first `stride` bytes), and a pattern's occurrences
    /// come in ascending order (entries of one window list a pattern's
    /// offsets in descending order).
    fn scan_sampled(&self, text: &[u8], f: &mut impl FnMut(usize, usize)) {
        let table = &self.plan().sampled;
        let stride = self.plan().stride;
        let (bits, shift) = (table.bits.as_slice(), table.shift);
        let mask = bits.len() - 1;
        let mut probes: Vec<u32> = Vec::new();
        let mut at = 0;
        while let Some(window) = text.get(at..at + 8) {
            if at % SCAN_BLOCK < stride && self.past_deadline() {
                return;
            }
            let w = u64::from_le_bytes(window.try_into().unwrap_or([0; 8]));
            let h = (w.wrapping_mul(HASH_MUL) >> shift) as usize;
            if bit_set(bits, (h >> 6) & mask, h) {
                probes.push(at as u32);
            }
            at += stride;
        }
        for at in probes {
            if self.past_deadline() {
                return;
            }
            let at = at as usize;
            let Some(&w) = text.get(at..).and_then(|t| t.first_chunk::<8>()) else {
                continue;
            };
            for &(_, p, o) in table.candidates(u64::from_le_bytes(w)) {
                let Some(start) = at.checked_sub(o as usize) else {
                    continue;
                };
                let rest = text.get(start..).unwrap_or_default();
                if self.patterns.get(p as usize).is_some_and(|pat| starts_with(rest, pat)) {
                    f(p as usize, start);
                }
            }
        }
    }

    /// Reports the patterns occurring at `at`, among those whose prefix
    /// the bitmaps let through.
    #[inline]
    fn verify(&self, text: &[u8], at: usize, f: &mut impl FnMut(usize, usize)) {
        let rest = text.get(at..).unwrap_or_default();
        let plan = self.plan();
        if let Some(&w) = rest.first_chunk::<8>() {
            let w = u64::from_le_bytes(w);
            for &(_, p, _) in plan.long.candidates(w) {
                if self.patterns.get(p as usize).is_some_and(|pat| starts_with(rest, pat)) {
                    f(p as usize, at);
                }
            }
        }
        if let (false, Some(&w)) = (plan.mid.is_empty(), rest.first_chunk::<4>()) {
            for &(_, p, _) in plan.mid.candidates(u64::from(u32::from_le_bytes(w))) {
                if self.patterns.get(p as usize).is_some_and(|pat| starts_with(rest, pat)) {
                    f(p as usize, at);
                }
            }
        }
    }
}

/// `text.starts_with(pat)`, comparing up to 16 bytes as two numbers (the
/// fuzzy matcher's pieces and most prefixes) instead of calling `memcmp`.
#[inline(always)]
fn starts_with(text: &[u8], pat: &[u8]) -> bool {
    let n = pat.len();
    match (text.get(..n), n) {
        (None, _) => false,
        (Some(t), 8..=16) => {
            let (a, b) = (t.first_chunk::<8>(), pat.first_chunk::<8>());
            let (c, d) = (
                t.get(n - 8..).and_then(|x| x.first_chunk::<8>()),
                pat.get(n - 8..).and_then(|x| x.first_chunk::<8>()),
            );
            a == b && c == d
        }
        (Some(t), _) => t == pat,
    }
}

/// Patterns at least this long are found by the sampled pass.
const SAMPLED_MIN: usize = 24;

/// Text positions handled per block of [`MultiSearcher::scan`].
const SCAN_BLOCK: usize = 1 << 14;

/// [`PrefixTable::collect`] for two tables at once, `long` keyed by 8
/// bytes and `mid` (not empty) by 4: one pass, each position at most once.
#[inline(never)]
fn collect_both(long: &PrefixTable, mid: &PrefixTable, text: &[u8], range: std::ops::Range<usize>, out: &mut Vec<u32>) {
    let Some(bytes) = text.get(range.start..range.end + 7) else {
        return;
    };
    if range.is_empty() {
        return;
    }
    let (lbits, lshift) = (long.bits.as_slice(), long.shift);
    let (mbits, mshift) = (mid.bits.as_slice(), mid.shift);
    let (lmask, mmask) = (lbits.len().wrapping_sub(1), mbits.len() - 1);
    for (i, window) in bytes.windows(8).enumerate() {
        let w = u64::from_le_bytes(window.try_into().unwrap_or([0; 8]));
        let hm = ((w & 0xFFFF_FFFF).wrapping_mul(HASH_MUL) >> mshift) as usize;
        let mut hit = bit_set(mbits, (hm >> 6) & mmask, hm);
        if !lbits.is_empty() {
            let hl = (w.wrapping_mul(HASH_MUL) >> lshift) as usize;
            hit |= bit_set(lbits, (hl >> 6) & lmask, hl);
        }
        if hit {
            out.push((range.start + i) as u32);
        }
    }
}

/// Whether bit `h % 64` of `bits[word]` is set (false past the end: the
/// callers mask `word` with `bits.len() - 1`, a power of two minus one, so
/// it never is).
#[inline(always)]
fn bit_set(bits: &[u64], word: usize, h: usize) -> bool {
    bits.get(word).is_some_and(|w| w & (1 << (h & 63)) != 0)
}

/// The first `N` bytes of `p` (which has at least `N`) as a little-endian
/// number, as the scan reads a window.
fn key<const N: usize>(p: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    if let (Some(dst), Some(src)) = (w.get_mut(..N), p.get(..N)) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(w)
}

/// Pattern prefixes: a bitmap of their hashes, for a quick "no", and the
/// sorted prefixes with their patterns, for the candidates.
struct PrefixTable {
    bits: Vec<u64>,
    shift: u32,
    /// (window, pattern, offset of the window in the pattern), a window's
    /// entries adjacent, in the order given (by pattern, then descending
    /// offset).
    entries: Vec<(u64, u32, u32)>,
    /// Open addressing over the distinct prefixes: (prefix, first entry,
    /// entry count), `count == 0` when empty; a power of two long.
    slots: Vec<(u64, u32, u32)>,
    slot_shift: u32,
}

/// Multiplier of the bitmap hash (a Fibonacci hash: the top bits of the
/// product depend on every byte of the prefix).
const HASH_MUL: u64 = 0x9E37_79B9_7F4A_7C15;

impl PrefixTable {
    /// The table of `entries`, grouped by window in the order given.
    fn new(entries: Vec<(u64, u32, u32)>) -> PrefixTable {
        // about 64 bits per window, at least 4096: a 1.5 % false-hit rate
        let log = (entries.len().max(1) * 64).next_power_of_two().trailing_zeros().clamp(12, 24);
        let mut table = PrefixTable {
            bits: vec![0; 1 << (log - 6)],
            shift: 64 - log,
            entries: Vec::new(),
            slots: Vec::new(),
            slot_shift: 0,
        };
        if entries.is_empty() {
            table.bits.clear();
            return table;
        }
        for &(k, _, _) in &entries {
            let h = table.hash(k);
            if let Some(word) = table.bits.get_mut(h >> 6) {
                *word |= 1 << (h & 63);
            }
        }
        // the distinct windows, at most two thirds full (a table of fewer
        // fresh pages to fault in): count the entries of each, give each a
        // range, then fill the ranges in the given order (from their ends,
        // walking the entries backwards: each slot's cursor ends at its
        // range's first entry)
        let slot_log = (entries.len() + entries.len() / 2).next_power_of_two().trailing_zeros().max(4);
        table.slots = vec![(0, 0, 0); 1 << slot_log];
        table.slot_shift = 64 - slot_log;
        for &(key, _, _) in &entries {
            let at = table.slot_for(key);
            if let Some(slot) = table.slots.get_mut(at) {
                *slot = (key, 0, slot.2 + 1);
            }
        }
        let mut next = 0;
        for slot in table.slots.iter_mut().filter(|s| s.2 > 0) {
            next += slot.2;
            slot.1 = next;
        }
        let mut grouped = vec![(0, 0, 0); entries.len()];
        for e in entries.into_iter().rev() {
            let at = table.slot_for(e.0);
            if let Some(slot) = table.slots.get_mut(at) {
                slot.1 = slot.1.wrapping_sub(1);
                if let Some(place) = grouped.get_mut(slot.1 as usize) {
                    *place = e;
                }
            }
        }
        table.entries = grouped;
        table
    }

    /// The slot of window `key`: the one holding it, or the empty one where
    /// it goes.
    fn slot_for(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = (key.wrapping_mul(HASH_MUL) >> self.slot_shift) as usize;
        while self.slots.get(at).is_some_and(|s| s.2 != 0 && s.0 != key) {
            at = (at + 1) & mask;
        }
        at
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline(always)]
    fn hash(&self, key: u64) -> usize {
        (key.wrapping_mul(HASH_MUL) >> self.shift) as usize
    }

    #[inline(always)]
    fn may_hold(&self, key: u64) -> bool {
        let h = self.hash(key);
        self.bits.get(h >> 6).is_some_and(|w| w & (1 << (h & 63)) != 0)
    }

    /// Appends to `out` the positions in `range` (each with 8 bytes of
    /// `text` from it) whose window may be a prefix.
    #[inline(never)]
    fn collect(&self, text: &[u8], range: std::ops::Range<usize>, out: &mut Vec<u32>) {
        if self.entries.is_empty() || range.is_empty() {
            return;
        }
        let (bits, shift) = (self.bits.as_slice(), self.shift);
        let mask = bits.len() - 1;
        let Some(bytes) = text.get(range.start..range.end + 7) else {
            return;
        };
        for (i, window) in bytes.windows(8).enumerate() {
            let w = u64::from_le_bytes(window.try_into().unwrap_or([0; 8]));
            let h = (w.wrapping_mul(HASH_MUL) >> shift) as usize;
            if bit_set(bits, (h >> 6) & mask, h) {
                out.push((range.start + i) as u32);
            }
        }
    }

    /// Patterns whose prefix is `key`.
    #[inline]
    fn candidates(&self, key: u64) -> &[(u64, u32, u32)] {
        if self.slots.is_empty() {
            return &[];
        }
        let mask = self.slots.len() - 1;
        let mut at = (key.wrapping_mul(HASH_MUL) >> self.slot_shift) as usize;
        while let Some(&(k, first, count)) = self.slots.get(at) {
            if count == 0 {
                break;
            }
            if k == key {
                return self.entries.get(first as usize..(first + count) as usize).unwrap_or_default();
            }
            at = (at + 1) & mask;
        }
        &[]
    }
}

/// Bytes in a [`GramIndex`] window.
const GRAM: usize = 6;
/// A [`GramIndex`] holds the window at every `GRAM_STRIDE`th byte.
const GRAM_STRIDE: usize = 3;
/// Patterns at least this long are looked up in a [`GramIndex`]: each of
/// their occurrences holds a sampled window at an offset below the stride.
pub const GRAM_MIN: usize = GRAM + GRAM_STRIDE - 1;

/// Positions of the 6-byte windows of a text at every third byte, bucketed
/// by hash (see the module documentation): about 1.3 bytes per byte of
/// text, built in one pass over the text's windows and one over the hashes.
pub struct GramIndex {
    /// Positions of bucket `b`: `positions[starts[b]..starts[b + 1]]`,
    /// ascending.
    starts: Vec<u32>,
    positions: Vec<u32>,
    shift: u32,
}

impl GramIndex {
    /// The index of `text`.
    pub fn new(text: &[u8]) -> GramIndex {
        let sampled = text.len().saturating_sub(GRAM - 1).div_ceil(GRAM_STRIDE);
        // about four windows per bucket: short lists, a small table
        let log = (sampled / 4).max(1).next_power_of_two().trailing_zeros().max(8);
        let shift = 64 - log;
        let buckets = 1usize << log;
        let hashes: Vec<u32> = (0..sampled)
            .map(|i| gram_at(text, i * GRAM_STRIDE).map_or(0, |w| (w.wrapping_mul(HASH_MUL) >> shift) as u32))
            .collect();
        let mut starts = vec![0u32; buckets + 1];
        for &h in &hashes {
            if let Some(c) = starts.get_mut(h as usize + 1) {
                *c += 1;
            }
        }
        let mut running = 0u32;
        for start in &mut starts {
            running += *start;
            *start = running;
        }
        let mut fill = starts.clone();
        let mut positions = vec![0u32; hashes.len()];
        for (i, &h) in hashes.iter().enumerate() {
            if let Some(at) = fill.get_mut(h as usize) {
                if let Some(slot) = positions.get_mut(*at as usize) {
                    *slot = (i * GRAM_STRIDE) as u32;
                }
                *at += 1;
            }
        }
        GramIndex { starts, positions, shift }
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.starts.capacity() + self.positions.capacity()) * std::mem::size_of::<u32>()
    }

    /// Calls `f(start)` for every occurrence of `pattern` (at least
    /// [`GRAM_MIN`] bytes) in `text`, the text the index was built over,
    /// overlapping ones included, ascending.
    fn each_occurrence(&self, text: &[u8], pattern: &[u8], deadline: Option<&Deadline>, mut f: impl FnMut(usize)) {
        let mut starts = Vec::new();
        for offset in 0..GRAM_STRIDE {
            let Some(window) = gram_at(pattern, offset) else {
                continue;
            };
            let bucket = (window.wrapping_mul(HASH_MUL) >> self.shift) as usize;
            let (Some(&from), Some(&to)) = (self.starts.get(bucket), self.starts.get(bucket + 1)) else {
                continue;
            };
            for &at in self.positions.get(from as usize..to as usize).unwrap_or_default() {
                if deadline.is_some_and(Deadline::expired) {
                    return;
                }
                let Some(start) = (at as usize).checked_sub(offset) else {
                    continue;
                };
                if gram_at(text, at as usize) == Some(window)
                    && text.get(start..).is_some_and(|rest| starts_with(rest, pattern))
                {
                    starts.push(start);
                }
            }
        }
        starts.sort_unstable();
        for start in starts {
            f(start);
        }
    }
}

/// The window of [`GRAM`] bytes at `at`, as a number.
#[inline]
fn gram_at(bytes: &[u8], at: usize) -> Option<u64> {
    let w: &[u8; GRAM] = bytes.get(at..at + GRAM)?.try_into().ok()?;
    let [a, b, c, d, e, f] = *w;
    Some(u64::from_le_bytes([a, b, c, d, e, f, 0, 0]))
}

#[cfg(test)]
/// The same answer one `str::find` loop per pattern: the oracle for tests.
pub fn find_naive(text: &str, patterns: &[&str]) -> Vec<Vec<(usize, usize)>> {
    patterns
        .iter()
        .map(|p| {
            let mut found = Vec::new();
            if p.is_empty() {
                return found;
            }
            let mut from = 0;
            while let Some(pos) = text.get(from..).and_then(|t| t.find(p)) {
                let start = from + pos;
                found.push((start, start + p.len()));
                from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            }
            found
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::below;

    #[test]
    fn finds_all_occurrences_of_all_patterns() {
        let text = "the cat sat on the mat; the cat";
        let got = find_all(text, &["the cat", "at", "dog", "the cat", ""]);
        assert_eq!(got[0], vec![(0, 7), (24, 31)]);
        assert_eq!(got[1].len(), 4);
        assert!(got[2].is_empty() && got[4].is_empty());
        assert_eq!(got[3], got[0]);
    }

    #[test]
    fn agrees_with_naive_on_overlaps_and_unicode() {
        let text = "aaaa 中文中文中 😀😀";
        let pats = ["aa", "中文中", "😀", "a 中"];
        assert_eq!(find_all(text, &pats), find_naive(text, &pats));
    }

    #[test]
    fn agrees_with_naive_with_many_patterns_of_every_length() {
        // enough patterns for the bitmap pass, of 1 to 12 bytes, at the
        // text's ends and overlapping themselves
        let text = "abababababab the quick brown fox jumps over the lazy dog; ab abab ababab ababababab";
        let mut pats: Vec<String> = Vec::new();
        for len in 1..=12 {
            for start in [0, 1, 13, text.len() - len, text.len() - len - 1] {
                if let Some(p) = text.get(start..start + len) {
                    pats.push(p.to_string());
                }
            }
        }
        pats.push("absent pattern".into());
        pats.push("zzzz".into());
        let refs: Vec<&str> = pats.iter().map(String::as_str).collect();
        assert!(refs.len() > MEMMEM_PATTERNS);
        assert_eq!(find_all(text, &refs), find_naive(text, &refs));
        for p in &refs {
            assert_eq!(find_one(text, p), find_naive(text, &[p])[0]);
        }
    }

    /// Every occurrence `searcher` reports in `text`, per pattern, ascending.
    fn occurrences(searcher: &MultiSearcher, text: &str, patterns: usize) -> Vec<Vec<(usize, usize)>> {
        let mut out = vec![Vec::new(); patterns];
        searcher.find_overlapping(text.as_bytes(), |p, start| {
            let len = searcher.patterns.get(p).map_or(0, |pat| pat.len());
            out[p].push((start, start + len));
        });
        out.iter_mut().for_each(|o| o.sort());
        out
    }

    #[test]
    fn a_lent_plan_finds_what_the_patterns_own_plan_finds() {
        // one plan of patterns of every table (4-7, 8-23, 24+ bytes, and a
        // short one), lent to searches of pieces of several texts; and a
        // plan of other patterns, which the searcher does not use
        let mut next = below(0x9E37_79B9_7F4A_7C15u64);
        for round in 0..20 {
            let alphabet: &[u8] = if round % 2 == 0 { b"ab " } else { b"abcdefgh " };
            let text: String = (0..3000).map(|_| char::from(alphabet[next(alphabet.len())])).collect();
            let pats: Vec<String> = (0..(MEMMEM_PATTERNS + 20))
                .map(|_| {
                    let len = [3, 4 + next(4), 8 + next(16), 24 + next(40)][next(4)];
                    let start = next(text.len() - len);
                    text[start..start + len].to_string()
                })
                .collect();
            let refs: Vec<&[u8]> = pats.iter().map(|p| p.as_bytes()).collect();
            let plan = SearchPlan::new(&refs);
            let other = SearchPlan::new(refs.get(1..).unwrap_or_default());
            let mut from = 0;
            while from < text.len() {
                let to = (from + 1 + next(700)).min(text.len());
                let piece = &text[from..to];
                let own = occurrences(&MultiSearcher::new(&refs), piece, refs.len());
                let strs: Vec<&str> = pats.iter().map(String::as_str).collect();
                assert_eq!(own, find_naive(piece, &strs), "round {round} at {from}");
                assert_eq!(occurrences(&MultiSearcher::with_plan(&plan, &refs), piece, refs.len()), own);
                assert_eq!(occurrences(&MultiSearcher::with_plan(&other, &refs), piece, refs.len()), own);
                from = to;
            }
        }
    }

    #[test]
    fn sampled_pass_agrees_with_naive_on_long_periodic_and_random_patterns() {
        // patterns of 24 bytes and more go through the sampled pass, whose
        // stride depends on the shortest: mix lengths, cut them from
        // periodic text (a window repeats inside one pattern, occurrences
        // overlap) and from both ends, and add absent ones
        let mut next = below(0x2545_F491_4F6C_DD1Du64);
        for round in 0..40 {
            let alphabet: &[u8] = if round % 2 == 0 { b"ab" } else { b"abcdefgh " };
            let mut text: Vec<u8> = (0..2000).map(|_| alphabet[next(alphabet.len())]).collect();
            text.extend_from_slice(&b"abababab".repeat(40));
            let text = String::from_utf8(text).unwrap_or_default();
            let mut pats: Vec<String> = Vec::new();
            for _ in 0..(MEMMEM_PATTERNS + 10) {
                let len = 24 + next(60);
                let start = match next(4) {
                    0 => 0,
                    1 => text.len() - len,
                    _ => next(text.len() - len),
                };
                pats.push(text[start..start + len].to_string());
            }
            pats.push("z".repeat(30));
            pats.push(format!("{}z", &text[..40]));
            let refs: Vec<&str> = pats.iter().map(String::as_str).collect();
            assert_eq!(find_all(&text, &refs), find_naive(&text, &refs), "round {round}");
        }
    }

    #[test]
    fn gram_index_lookups_agree_with_naive() {
        // few patterns (looked up one by one) of every length around
        // GRAM_MIN, cut at every offset modulo the stride, from periodic
        // and random text and its ends, and absent ones
        let mut next = below(0x9E37_79B9_7F4A_7C15u64);
        for round in 0..60 {
            let alphabet: &[u8] = if round % 3 == 0 { b"ab" } else { b"abcdefgh " };
            let len = [0, 5, 6, 7, 8, 9, 500][round % 7];
            let mut text: Vec<u8> = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            if round % 2 == 0 {
                text.extend_from_slice(&b"abcabcab".repeat(20));
            }
            let text = String::from_utf8(text).unwrap_or_default();
            let grams = GramIndex::new(text.as_bytes());
            let mut pats: Vec<String> = vec!["zzzzzzzzzz".into(), "abcabcabz".into(), "ab".into(), "abcab".into()];
            for _ in 0..8 {
                let plen = (1 + next(20)).min(text.len().max(1));
                if text.len() >= plen {
                    let start = match next(3) {
                        0 => 0,
                        1 => text.len() - plen,
                        _ => next(text.len() - plen + 1),
                    };
                    pats.push(text[start..start + plen].to_string());
                }
            }
            let refs: Vec<&str> = pats.iter().map(String::as_str).collect();
            assert!(refs.len() <= MEMMEM_PATTERNS);
            assert_eq!(find_all_in(&text, Some(&grams), &refs), find_naive(&text, &refs), "round {round}");
        }
    }
}
