//! Exact port of CPython 3.11 `difflib.SequenceMatcher` over sequences of
//! Unicode scalar values (`char`), used to score how well a quoted piece of
//! evidence matches its source text.
//!
//! The judge this project is validated against scores a quote with
//!
//! ```python
//! m = SequenceMatcher(None, quote, haystack, autojunk).find_longest_match(
//!         0, len(quote), 0, len(haystack))
//! score = m.size / len(quote)
//! ```
//!
//! and this module reproduces that computation (and `get_matching_blocks()` /
//! `ratio()`) bit-for-bit. Python `str` elements are code points, so all
//! indices and lengths here are **char indices**, never byte offsets.
//!
//! Only the `isjunk=None` configuration is supported; `autojunk` is
//! configurable.
//!
//! # Behaviour worth knowing (faithfully reproduced from difflib)
//!
//! * **Autojunk "popular" rule.** When `autojunk` is true and `b` has at least
//!   200 elements, every element occurring more than `len(b) / 100 + 1`
//!   (integer division) times in `b` is *popular* and is removed from the
//!   index of `b`. Popular elements can therefore never *start or be inside*
//!   the core match that the dynamic-programming search finds.
//! * **Popular elements are not junk.** With `isjunk=None` the junk set is
//!   empty, so the extension step after the search ("extend the best block
//!   while the neighbouring elements are equal and not junk") extends freely
//!   over popular elements. A long run of popular characters is thus only
//!   matched when it is adjacent to a match of non-popular characters.
//! * **Extension from an empty match.** If the search finds nothing, the
//!   result starts as `(alo, blo, 0)` and is *still* extended forwards, so
//!   `a[alo..]` and `b[blo..]` sharing a popular prefix yields a non-empty
//!   block at exactly `(alo, blo)`; any other all-popular common substring is
//!   missed. For example, `a = "aaaaaaaaaa"`, `b = "x" + "a" * 250` with
//!   autojunk gives `(0, 0, 0)` (score 0.0), but `(0, 1, 10)` without it.
//! * **Tie-breaking.** Among longest core matches the earliest in `a`, then
//!   earliest in `b`, wins (strict `>` comparison while scanning `a` then `b`
//!   in increasing order). The subsequent extension can make the final block
//!   longer than the found maximum and is not re-compared against others.
//! * **Ratio.** `2.0 * M / T` where `M` is the number of matched elements in
//!   `get_matching_blocks()` and `T = len(a) + len(b)`; `1.0` if both are
//!   empty. The same IEEE operations are used, so the result is identical.
//!
//! # Out-of-range arguments
//!
//! CPython raises `IndexError` when `ahi > len(a)` or `bhi > len(b)`. This port
//! never panics: it clamps `ahi`/`bhi` to the sequence lengths, and when the
//! (clamped) ranges are empty it returns `(alo, blo, 0)` exactly like CPython
//! does for empty ranges. For in-range arguments results are identical.
use std::collections::HashMap;

/// A matching block `a[a..a + size] == b[b..b + size]`, in char indices.
///
/// Equivalent to difflib's `Match(a, b, size)` named tuple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Block {
    /// Start index of the block in the first sequence (`a`).
    pub a: usize,
    /// Start index of the block in the second sequence (`b`).
    pub b: usize,
    /// Number of matching elements.
    pub size: usize,
}

/// Port of CPython 3.11 `difflib.SequenceMatcher(None, a, b, autojunk)`
/// over `char` sequences.
///
/// Construction indexes `b` (difflib's `__chain_b`); queries take `&self`.
/// Unlike difflib, `matching_blocks()` is not cached: it is recomputed on
/// every call (including the one inside [`SequenceMatcher::ratio`]).
#[derive(Debug, Clone)]
pub struct SequenceMatcher {
    /// First sequence.
    a: Vec<char>,
    /// Second sequence.
    b: Vec<char>,
    /// For each non-popular element of `b`, the ascending list of indices at
    /// which it occurs in `b` (difflib's `b2j`).
    b2j: HashMap<char, Vec<usize>>,
    /// Popular elements removed from `b2j` (difflib's `bpopular`), sorted.
    #[cfg(test)]
    popular: Vec<char>,
}

/// Reusable buffers standing in for difflib's per-row `j2len` dictionaries.
///
/// `prev[j + 1]` holds `j2len.get(j, 0)` for the previous row of `a`, and
/// `cur[j + 1]` the values of the row being built (`newj2len`). Index `0`
/// represents `j = -1` and is never written. Entries that are not set in the
/// corresponding dictionary are always zero; `*_touched` list the written
/// indices so they can be reset in time proportional to the work done.
#[derive(Debug, Default)]
struct Scratch {
    prev: Vec<usize>,
    cur: Vec<usize>,
    prev_touched: Vec<usize>,
    cur_touched: Vec<usize>,
}

impl Scratch {
    /// Make sure both rows can be indexed up to `len - 1` (all zero).
    fn ensure_len(&mut self, len: usize) {
        if self.prev.len() < len {
            self.prev.resize(len, 0);
        }
        if self.cur.len() < len {
            self.cur.resize(len, 0);
        }
    }

    /// Reset the previous row to "empty dictionary".
    fn clear_prev(&mut self) {
        for &t in &self.prev_touched {
            if let Some(slot) = self.prev.get_mut(t) {
                *slot = 0;
            }
        }
        self.prev_touched.clear();
    }
}

impl SequenceMatcher {
    /// Create a matcher comparing `a` against `b`, like
    /// `difflib.SequenceMatcher(None, a, b, autojunk=autojunk)`.
    ///
    /// With `autojunk` and `b.len() >= 200`, elements occurring more than
    /// `b.len() / 100 + 1` times in `b` are treated as popular (see the
    /// module documentation).
    pub fn new(a: &[char], b: &[char], autojunk: bool) -> Self {
        let mut b2j: HashMap<char, Vec<usize>> = HashMap::new();
        for (i, &elt) in b.iter().enumerate() {
            b2j.entry(elt).or_default().push(i);
        }

        // isjunk is None: the junk set is empty, nothing to remove.

        let mut popular = Vec::new();
        let n = b.len();
        if autojunk && n >= 200 {
            let ntest = n / 100 + 1;
            popular.extend(b2j.iter().filter(|(_, idxs)| idxs.len() > ntest).map(|(&elt, _)| elt));
            for elt in &popular {
                b2j.remove(elt);
            }
            crate::sort::sort(&mut popular);
        }

        SequenceMatcher {
            a: a.to_vec(),
            b: b.to_vec(),
            b2j,
            #[cfg(test)]
            popular,
        }
    }

    #[cfg(test)]
    /// Convenience constructor from string slices (split into code points).
    pub fn from_strs(a: &str, b: &str, autojunk: bool) -> Self {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        Self::new(&a, &b, autojunk)
    }

    /// The popular elements of `b` (difflib's `bpopular`), sorted; empty
    /// unless `autojunk` was set and `b.len() >= 200`.
    #[cfg(test)]
    pub fn popular(&self) -> &[char] {
        &self.popular
    }

    /// Find the longest matching block in `a[alo..ahi]` and `b[blo..bhi]`,
    /// exactly like difflib's `find_longest_match(alo, ahi, blo, bhi)`.
    ///
    /// Returns the earliest-in-`a`, then earliest-in-`b` longest block among
    /// non-popular elements, extended on both sides over equal elements
    /// (popular ones included). Returns `(alo, blo, 0)` if nothing matches.
    /// `ahi`/`bhi` beyond the sequence lengths are clamped instead of
    /// raising.
    pub fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Block {
        let mut scratch = Scratch::default();
        self.find_longest_match_with(&mut scratch, alo, ahi, blo, bhi)
    }

    /// Implementation of [`SequenceMatcher::find_longest_match`] reusing the
    /// caller's buffers. Leaves `scratch` all-zero on return.
    fn find_longest_match_with(&self, scratch: &mut Scratch, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Block {
        let a = &self.a;
        let b = &self.b;
        let ahi = ahi.min(a.len());
        let bhi = bhi.min(b.len());

        // Empty ranges: CPython's loops do nothing and neither extension
        // loop can run, so the answer is (alo, blo, 0).
        if alo >= ahi || blo >= bhi {
            return Block { a: alo, b: blo, size: 0 };
        }

        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);

        scratch.ensure_len(b.len() + 1);
        scratch.clear_prev();
        scratch.cur_touched.clear();

        for (i, elt) in a.iter().enumerate().take(ahi).skip(alo) {
            // newj2len = {}  (cur is all-zero here)
            if let Some(idxs) = self.b2j.get(elt) {
                // difflib skips j < blo one by one; indices are ascending so
                // starting at the first j >= blo visits the same entries.
                let start = idxs.partition_point(|&j| j < blo);
                for &j in idxs.iter().skip(start) {
                    if j >= bhi {
                        break;
                    }
                    // k = newj2len[j] = j2len.get(j - 1, 0) + 1
                    let k = scratch.prev.get(j).copied().unwrap_or(0) + 1;
                    if let Some(slot) = scratch.cur.get_mut(j + 1) {
                        *slot = k;
                        scratch.cur_touched.push(j + 1);
                    }
                    if k > bestsize {
                        // k <= i - alo + 1 and k <= j - blo + 1, so no underflow.
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            // j2len = newj2len
            scratch.clear_prev();
            std::mem::swap(&mut scratch.prev, &mut scratch.cur);
            std::mem::swap(&mut scratch.prev_touched, &mut scratch.cur_touched);
        }
        scratch.clear_prev();

        // Extend over equal non-junk elements. The junk set is empty
        // (isjunk is None), so this extends over *any* equal elements,
        // including popular ones; difflib's two junk-extension loops that
        // follow can never run and are omitted.
        while besti > alo && bestj > blo && same_at(a, b, besti - 1, bestj - 1) {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi && bestj + bestsize < bhi && same_at(a, b, besti + bestsize, bestj + bestsize) {
            bestsize += 1;
        }

        Block { a: besti, b: bestj, size: bestsize }
    }

    /// difflib's `get_matching_blocks()`: the non-adjacent matching blocks in
    /// increasing order, followed by the sentinel `(len(a), len(b), 0)`,
    /// which is the only block with `size == 0`.
    pub fn matching_blocks(&self) -> Vec<Block> {
        let la = self.a.len();
        let lb = self.b.len();
        let mut scratch = Scratch::default();

        let mut queue: Vec<(usize, usize, usize, usize)> = vec![(0, la, 0, lb)];
        let mut blocks: Vec<Block> = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let x = self.find_longest_match_with(&mut scratch, alo, ahi, blo, bhi);
            let (i, j, k) = (x.a, x.b, x.size);
            if k > 0 {
                blocks.push(x);
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        // Tuple order (a, b, size), as Python sorts the Match tuples.
        crate::sort::sort(&mut blocks);

        let (mut i1, mut j1, mut k1) = (0usize, 0usize, 0usize);
        let mut non_adjacent: Vec<Block> = Vec::with_capacity(blocks.len() + 1);
        for blk in blocks {
            let (i2, j2, k2) = (blk.a, blk.b, blk.size);
            if i1 + k1 == i2 && j1 + k1 == j2 {
                k1 += k2;
            } else {
                if k1 > 0 {
                    non_adjacent.push(Block { a: i1, b: j1, size: k1 });
                }
                (i1, j1, k1) = (i2, j2, k2);
            }
        }
        if k1 > 0 {
            non_adjacent.push(Block { a: i1, b: j1, size: k1 });
        }
        non_adjacent.push(Block { a: la, b: lb, size: 0 });
        non_adjacent
    }

    /// difflib's `ratio()`: `2.0 * M / T`, where `M` is the total size of the
    /// matching blocks and `T = len(a) + len(b)`; `1.0` when both are empty.
    pub fn ratio(&self) -> f64 {
        let matches: usize = self.matching_blocks().iter().map(|m| m.size).sum();
        let length = self.a.len() + self.b.len();
        if length > 0 {
            2.0 * matches as f64 / length as f64
        } else {
            1.0
        }
    }
}

/// `a[i] == b[j]`, false when either is out of range (the callers keep
/// `i < ahi <= a.len()` and `j < bhi <= b.len()`, so it never is).
#[inline]
fn same_at(a: &[char], b: &[char], i: usize, j: usize) -> bool {
    matches!((a.get(i), b.get(j)), (Some(x), Some(y)) if x == y)
}

/// The judge's quote score: the size of
/// `SequenceMatcher(None, quote, haystack, autojunk).find_longest_match(0,
/// len(quote), 0, len(haystack))` divided by `len(quote)`, all in code
/// points. Returns `0.0` for an empty quote.
///
/// Note that with `autojunk` and a haystack of 200+ chars, frequent
/// characters (spaces, common letters) are "popular" and can make the score
/// much lower than the true longest common substring; see the module docs.
pub fn longest_match_score(quote: &str, haystack: &str, autojunk: bool) -> f64 {
    let q: Vec<char> = quote.chars().collect();
    if q.is_empty() {
        return 0.0;
    }
    let h: Vec<char> = haystack.chars().collect();
    let sm = SequenceMatcher::new(&q, &h, autojunk);
    let m = sm.find_longest_match(0, q.len(), 0, h.len());
    m.size as f64 / q.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn blk(a: usize, b: usize, size: usize) -> Block {
        Block { a, b, size }
    }

    /// (a, b, autojunk, find_longest_match over full ranges,
    ///  get_matching_blocks, repr(ratio)) -- all computed with CPython 3.11.7.
    #[allow(clippy::type_complexity)]
    fn cpython_cases() -> Vec<(String, String, bool, Block, Vec<Block>, f64)> {
        vec![
            (
                " abcd".into(),
                "abcd abcd".into(),
                true,
                blk(0, 4, 5),
                vec![blk(0, 4, 5), blk(5, 9, 0)],
                0.7142857142857143,
            ),
            ("ab".into(), "c".into(), true, blk(0, 0, 0), vec![blk(2, 1, 0)], 0.0),
            (
                "abxcd".into(),
                "abcd".into(),
                true,
                blk(0, 0, 2),
                vec![blk(0, 0, 2), blk(3, 2, 2), blk(5, 4, 0)],
                0.8888888888888888,
            ),
            ("abcd".into(), "bcde".into(), true, blk(1, 0, 3), vec![blk(1, 0, 3), blk(4, 4, 0)], 0.75),
            ("".into(), "".into(), true, blk(0, 0, 0), vec![blk(0, 0, 0)], 1.0),
            ("".into(), "abc".into(), true, blk(0, 0, 0), vec![blk(0, 3, 0)], 0.0),
            (
                "héllo 中文 😀 world".into(),
                "hello 中文😀 world".into(),
                true,
                blk(9, 8, 7),
                vec![blk(0, 0, 1), blk(2, 2, 6), blk(9, 8, 7), blk(16, 15, 0)],
                0.9032258064516129,
            ),
            (
                "aaaaaxyz".into(),
                "ab ".repeat(80),
                true,
                blk(0, 0, 1),
                vec![blk(0, 0, 1), blk(8, 240, 0)],
                0.008064516129032258,
            ),
            (
                "aaaaaxyz".into(),
                "ab ".repeat(80),
                false,
                blk(0, 0, 1),
                vec![blk(0, 0, 1), blk(1, 3, 1), blk(2, 6, 1), blk(3, 9, 1), blk(4, 12, 1), blk(8, 240, 0)],
                0.04032258064516129,
            ),
            (
                "the quick brown fox".into(),
                "the quick brown fox jumps".into(),
                true,
                blk(0, 0, 19),
                vec![blk(0, 0, 19), blk(19, 25, 0)],
                0.8636363636363636,
            ),
            ("aaaaaaaaaa".into(), format!("x{}", "a".repeat(250)), true, blk(0, 0, 0), vec![blk(10, 251, 0)], 0.0),
            (
                "aaaaaaaaaa".into(),
                format!("x{}", "a".repeat(250)),
                false,
                blk(0, 1, 10),
                vec![blk(0, 1, 10), blk(10, 251, 0)],
                0.07662835249042145,
            ),
            (
                "aaaaaaaaaxyz".into(),
                format!("{}xyz", "a".repeat(300)),
                true,
                blk(0, 291, 12),
                vec![blk(0, 291, 12), blk(12, 303, 0)],
                0.0761904761904762,
            ),
        ]
    }

    #[test]
    fn matches_cpython_hardcoded() {
        for (a, b, aj, lm, mb, ratio) in cpython_cases() {
            let (ac, bc) = (chars(&a), chars(&b));
            let sm = SequenceMatcher::new(&ac, &bc, aj);
            assert_eq!(sm.find_longest_match(0, ac.len(), 0, bc.len()), lm, "{a:?} {b:?} {aj}");
            assert_eq!(sm.matching_blocks(), mb, "{a:?} {b:?} {aj}");
            assert_eq!(sm.ratio().to_bits(), ratio.to_bits(), "{a:?} {b:?} {aj}");
        }
    }

    #[test]
    fn subrange_queries_match_cpython() {
        // CPython 3.11.7: SequenceMatcher(None, 'abcabcabc', 'xxabcabcxx', False)
        let sm = SequenceMatcher::from_strs("abcabcabc", "xxabcabcxx", false);
        assert_eq!(sm.find_longest_match(3, 9, 0, 10), blk(3, 2, 6));
        assert_eq!(sm.find_longest_match(1, 6, 4, 9), blk(2, 4, 4));
    }

    #[test]
    fn scores() {
        // CPython 3.11.7: m.size / len(quote)
        assert_eq!(longest_match_score("aaaaaaaaaa", &format!("x{}", "a".repeat(250)), true), 0.0);
        assert_eq!(longest_match_score("aaaaaaaaaa", &format!("x{}", "a".repeat(250)), false), 1.0);
        assert_eq!(longest_match_score("", "anything", true), 0.0);
        assert_eq!(longest_match_score(" abcd", "abcd abcd", true), 1.0);
        assert_eq!(longest_match_score("abxcd", "abcd", true), 0.4);
    }

    #[test]
    fn popular_rule() {
        let b = "ab ".repeat(80);
        let sm = SequenceMatcher::from_strs("a", &b, true);
        assert_eq!(sm.popular(), &[' ', 'a', 'b']);
        let sm = SequenceMatcher::from_strs("a", &b, false);
        assert!(sm.popular().is_empty());
        // 199 chars: rule does not apply.
        let sm = SequenceMatcher::from_strs("a", &"a".repeat(199), true);
        assert!(sm.popular().is_empty());
        // 200 chars: ntest = 3, so 3 occurrences is fine, 4 is popular.
        let b = format!("xxxyyyy{}", "z".repeat(193));
        let sm = SequenceMatcher::from_strs("a", &b, true);
        assert_eq!(sm.popular(), &['y', 'z']);
    }

    #[test]
    fn out_of_range_does_not_panic() {
        let sm = SequenceMatcher::from_strs("abc", "abc", false);
        assert_eq!(sm.find_longest_match(0, 100, 0, 100), blk(0, 0, 3));
        assert_eq!(sm.find_longest_match(5, 2, 1, 3), blk(5, 1, 0));
        assert_eq!(sm.find_longest_match(1, 3, 7, 9), blk(1, 7, 0));
        assert_eq!(
            sm.find_longest_match(usize::MAX, usize::MAX, usize::MAX, usize::MAX),
            blk(usize::MAX, usize::MAX, 0)
        );
    }
}
