//! A compact stable sort for the places that sort few elements.
//!
//! The standard library's sorts (driftsort and ipnsort) are fast but large:
//! every element type and comparator instantiates several kilobytes of code
//! (2-9 KB each in wasm after wasm-opt). With about twenty sort calls in the
//! crate that was 126 KB of the 1.1 MB `.wasm`, 11 % of it. Here one
//! non-generic merge sort orders indices through a `dyn` comparator, and a
//! few dozen bytes per call site move the elements into place.
//!
//! It is a stable sort, so for any comparator that is a total order its
//! result is exactly that of `<[T]>::sort_by`; an unstable sort of elements
//! whose equal ones are indistinguishable (integers, tuples of them, strings,
//! derived `Ord` over every field) gives that same result too. Sorts on hot
//! matching paths over many elements keep the standard library's.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp` (same result as `v.sort_by(cmp)`).
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut cmp_at = |i: usize, j: usize| match (v.get(i), v.get(j)) {
        (Some(a), Some(b)) => cmp(a, b),
        _ => Ordering::Equal, // never: both are indices of `v`
    };
    if n <= SMALL {
        // few elements (most sorts here: an object's keys, a claim's
        // candidates): insertion sort of indices on the stack, no allocation
        let mut small = [0usize; SMALL];
        let perm = small.get_mut(..n).unwrap_or_default();
        small_sorted_indices(perm, &mut cmp_at);
        permute(v, perm);
        return;
    }
    let mut perm = sorted_indices(n, &mut cmp_at);
    permute(v, &mut perm);
}

/// Longest slice sorted by [`small_sorted_indices`] alone.
const SMALL: usize = 32;

/// Fills `perm` with the indices `0..perm.len()` in stable sorted order, by
/// insertion sort (an element moves left only past strictly greater ones).
#[inline(never)]
fn small_sorted_indices(perm: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    for (i, slot) in perm.iter_mut().enumerate() {
        *slot = i;
    }
    for i in 1..perm.len() {
        let mut j = i;
        while j > 0 && perm.get(j - 1).zip(perm.get(j)).is_some_and(|(&x, &y)| cmp(x, y) == Ordering::Greater) {
            perm.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `v` stably by its `Ord` (same result as `v.sort()`, and as
/// `v.sort_unstable()` when equal elements are indistinguishable).
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The indices `0..n` in stable sorted order: insertion sort of runs of 8,
/// then bottom-up merges. `cmp(i, j)` compares elements `i` and `j`.
#[inline(never)]
fn sorted_indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    const RUN: usize = 8;
    let mut a: Vec<usize> = (0..n).collect();
    for run in a.chunks_mut(RUN) {
        for i in 1..run.len() {
            let mut j = i;
            while j > 0 && run.get(j - 1).zip(run.get(j)).is_some_and(|(&x, &y)| cmp(x, y) == Ordering::Greater) {
                run.swap(j - 1, j);
                j -= 1;
            }
        }
    }
    let mut b = vec![0usize; n];
    let mut width = RUN;
    while width < n {
        for (from, to) in a.chunks(2 * width).zip(b.chunks_mut(2 * width)) {
            let (left, right) = from.split_at(width.min(from.len()));
            merge(left, right, to, cmp);
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Merges the sorted `left` and `right` into `out` (as long as both).
fn merge(mut left: &[usize], mut right: &[usize], out: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    let mut out = out.iter_mut();
    while let ([l, left_rest @ ..], [r, right_rest @ ..]) = (left, right) {
        let Some(slot) = out.next() else { return };
        // the right element goes first only when strictly smaller: stable
        if cmp(*r, *l) == Ordering::Less {
            *slot = *r;
            right = right_rest;
        } else {
            *slot = *l;
            left = left_rest;
        }
    }
    for (slot, &x) in out.zip(left.iter().chain(right)) {
        *slot = x;
    }
}

/// Reorders `v` so that position `i` holds the element that was at
/// `perm[i]`, by following each cycle of the permutation (`perm` is used up).
fn permute<T>(v: &mut [T], perm: &mut [usize]) {
    for start in 0..perm.len() {
        let mut cur = start;
        while let Some(slot) = perm.get_mut(cur) {
            let next = std::mem::replace(slot, cur);
            if next == start {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift).
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % modulo
            })
            .collect()
    }

    #[test]
    fn same_as_std_stable_sort() {
        for n in [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 257, 1000, 4099] {
            for (seed, modulo) in [(1, 3), (7, 10), (42, 1000), (99, u64::MAX)] {
                // (key, original position): ties on key must keep their order
                let v: Vec<(u64, usize)> = numbers(seed + n as u64, n, modulo).into_iter().zip(0..).collect();
                let mut ours = v.clone();
                sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                let mut std = v.clone();
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "n = {n}, seed = {seed}, modulo = {modulo}");
                let mut desc = v.clone();
                sort_by(&mut desc, |a, b| b.0.cmp(&a.0));
                let mut std_desc = v.clone();
                std_desc.sort_by_key(|a| std::cmp::Reverse(a.0));
                assert_eq!(desc, std_desc);
                let mut full = v.clone();
                sort(&mut full);
                let mut std_full = v;
                std_full.sort_unstable();
                assert_eq!(full, std_full);
            }
        }
    }

    #[test]
    fn small_path_gives_the_merge_sorts_indices() {
        for n in 0..=SMALL {
            for (seed, modulo) in [(3, 2), (5, 4), (11, 1000)] {
                let keys = numbers(seed * 100 + n as u64, n, modulo);
                let mut cmp = |i: usize, j: usize| keys[i].cmp(&keys[j]);
                let mut small = vec![0; n];
                small_sorted_indices(&mut small, &mut cmp);
                assert_eq!(small, sorted_indices(n, &mut cmp), "n = {n}, modulo = {modulo}");
            }
        }
    }

    #[test]
    fn sorted_and_reversed_input() {
        let mut v: Vec<String> = (0..300).map(|i| format!("{:04}", 1000 - i)).collect();
        let mut std = v.clone();
        sort(&mut v);
        std.sort();
        assert_eq!(v, std);
        sort(&mut v);
        assert_eq!(v, std);
    }
}
