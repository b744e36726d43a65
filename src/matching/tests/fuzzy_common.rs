//! Shared helpers for the fuzzy matcher's tests: a seeded PRNG, random text
//! generation and a naive O(n·m) oracle.

#![allow(dead_code)]

/// xorshift64* — small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Mixed alphabet: ASCII, accented, CJK, emoji, a combining mark, space.
pub const ALPHABET: &[char] = &['a', 'b', 'c', 'd', 'é', '中', '文', '😀', '\u{301}', ' '];

pub fn random_string(rng: &mut Rng, alphabet: &[char], len: usize) -> Vec<char> {
    (0..len).map(|_| rng.pick(alphabet)).collect()
}

/// Applies `edits` random substitutions / insertions / deletions.
pub fn mutate(rng: &mut Rng, s: &mut Vec<char>, alphabet: &[char], edits: usize) {
    for _ in 0..edits {
        let kind = rng.below(3);
        if s.is_empty() || kind == 0 {
            let at = rng.below(s.len() + 1);
            s.insert(at, rng.pick(alphabet));
        } else if kind == 1 {
            let at = rng.below(s.len());
            s.remove(at);
        } else {
            let at = rng.below(s.len());
            s[at] = rng.pick(alphabet);
        }
    }
}

/// Plain DP edit distance on chars.
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// One alignment found by the oracle, in char offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alignment {
    pub start: usize,
    pub end: usize,
    pub distance: usize,
}

/// Semi-global DP: best distance of an alignment ending at each position
/// `e` (index `e`, `0..=n`).
pub fn end_distances(text: &[char], pat: &[char]) -> Vec<usize> {
    let m = pat.len();
    let mut col: Vec<usize> = (0..=m).collect();
    let mut out = vec![m];
    for &c in text {
        let mut next = vec![0; m + 1];
        for i in 1..=m {
            let sub = col[i - 1] + usize::from(pat[i - 1] != c);
            next[i] = sub.min(col[i] + 1).min(next[i - 1] + 1);
        }
        out.push(next[m]);
        col = next;
    }
    out
}

/// Canonical alignment ending at `end` among alignments of distance <= k:
/// minimal distance, then length closest to m, then leftmost. Brute force
/// over every start giving a length in `m-k..=m+k` (no other length can be
/// within k edits).
pub fn canonical(text: &[char], pat: &[char], end: usize, k: usize) -> Alignment {
    let m = pat.len();
    let lo = end.saturating_sub(m + k);
    let hi = end.saturating_sub(m.saturating_sub(k));
    let mut best: Option<(usize, usize, usize)> = None; // (dist, diff, start)
    for start in (lo..=hi).rev() {
        let d = edit_distance(pat, &text[start..end]);
        let key = (d, (end - start).abs_diff(m));
        if best.is_none_or(|(bd, bdiff, _)| key <= (bd, bdiff)) {
            best = Some((d, key.1, start));
        }
    }
    let (distance, _, start) = best.expect("non-empty start range");
    Alignment { start, end, distance }
}

/// All canonical alignments with distance <= k (one per end position).
pub fn candidates(text: &[char], pat: &[char], k: usize) -> Vec<Alignment> {
    let ends = end_distances(text, pat);
    ends.iter()
        .enumerate()
        .filter(|&(_, &d)| d <= k)
        .map(|(e, &d)| {
            let a = canonical(text, pat, e, k);
            assert_eq!(a.distance, d, "oracle self-check");
            a
        })
        .collect()
}

/// The documented selection: greedy by (distance, |len - m|, start, end),
/// dropping alignments that share a char with a chosen one.
pub fn greedy(mut cands: Vec<Alignment>, m: usize) -> Vec<Alignment> {
    cands.sort_by_key(|a| (a.distance, (a.end - a.start).abs_diff(m), a.start, a.end));
    let mut chosen: Vec<Alignment> = Vec::new();
    for a in cands {
        if chosen.iter().all(|c| !(a.start < c.end && c.start < a.end)) {
            chosen.push(a);
        }
    }
    chosen.sort_by_key(|a| a.start);
    chosen
}

/// Byte offset of every char index (`0..=n`).
pub fn byte_offsets(text: &str) -> Vec<usize> {
    text.char_indices().map(|(b, _)| b).chain(std::iter::once(text.len())).collect()
}
