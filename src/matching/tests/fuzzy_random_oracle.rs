//! `find_all` against a naive DP oracle on thousands of seeded random cases
//! (multi-byte chars, patterns across 64-char blocks, k = 0..=4).
//!
//! Two comparisons are made for every query:
//!
//! * tie-agnostic properties, which any sensible implementation must meet:
//!   every reported match lies on char boundaries, really is within its
//!   reported distance (`levenshtein(pattern, match) == distance <= k`),
//!   reported matches don't overlap, and every alignment the oracle finds
//!   with distance `d <= k` is overlapped by a reported match of distance
//!   `<= d` (nothing is missed, nothing better is hidden);
//! * exact equality with the documented greedy selection rule, recomputed
//!   by brute force in the oracle.
#![cfg(not(target_arch = "wasm32"))]

use super::fuzzy_common as common;

use crate::matching::fuzzy::{find_all, levenshtein, FuzzyMatch, FuzzyQuery};
use common::*;

struct Case {
    text: String,
    patterns: Vec<(String, usize)>,
}

fn make_pattern(rng: &mut Rng, text: &[char], alphabet: &[char], len: usize, k: usize) -> String {
    let mut pat: Vec<char> = if text.len() >= len && rng.chance(70) {
        let at = rng.below(text.len() - len + 1);
        text[at..at + len].to_vec()
    } else {
        random_string(rng, alphabet, len)
    };
    let edits = rng.below(k + 2);
    mutate(rng, &mut pat, alphabet, edits);
    pat.into_iter().collect()
}

fn make_case(rng: &mut Rng, long: bool) -> Case {
    let alphabet: &[char] = match rng.below(4) {
        0 => &['a', 'b'],
        1 => &['a', 'b', 'c', 'd'],
        _ => ALPHABET,
    };
    let text_len = if long { rng.range(100, 320) } else { rng.range(0, 120) };
    let text = random_string(rng, alphabet, text_len);
    let queries = rng.range(1, 4);
    let patterns = (0..queries)
        .map(|_| {
            let len = if long { rng.pick(&[63, 64, 65, 100, 127, 128, 129, 150, 200]) } else { rng.range(1, 24) };
            let k = rng.below(5);
            (make_pattern(rng, &text, alphabet, len, k), k)
        })
        .collect();
    Case { text: text.into_iter().collect(), patterns }
}

fn check_properties(case: &Case, q: usize, got: &[FuzzyMatch], oracle: &[Alignment]) {
    let (pattern, k) = (&case.patterns[q].0, case.patterns[q].1);
    let offsets = byte_offsets(&case.text);
    let pat: Vec<char> = pattern.chars().collect();
    for w in got.windows(2) {
        assert!(w[0].end <= w[1].start, "overlap or unsorted: {w:?}");
    }
    for g in got {
        assert!(case.text.is_char_boundary(g.start) && case.text.is_char_boundary(g.end));
        let sub: Vec<char> = case.text[g.start..g.end].chars().collect();
        assert_eq!(edit_distance(&pat, &sub), g.distance, "wrong distance {g:?}");
        assert_eq!(levenshtein(pattern, &case.text[g.start..g.end]), g.distance);
        assert!(g.distance <= k, "distance above k: {g:?}");
    }
    for a in oracle {
        let (s, e) = (offsets[a.start], offsets[a.end]);
        let covered = got.iter().any(|g| g.start < e && s < g.end && g.distance <= a.distance);
        assert!(covered, "oracle alignment {a:?} not covered by {got:?}");
    }
}

fn check_case(case: &Case, seed: u64) {
    let queries: Vec<FuzzyQuery> =
        case.patterns.iter().map(|(p, k)| FuzzyQuery { pattern: p, max_distance: *k }).collect();
    let all = find_all(&case.text, &queries);
    assert!(all.windows(2).all(|w| (w[0].query, w[0].start) < (w[1].query, w[1].start)));
    let text: Vec<char> = case.text.chars().collect();
    let offsets = byte_offsets(&case.text);
    for (q, (pattern, k)) in case.patterns.iter().enumerate() {
        let got: Vec<FuzzyMatch> = all.iter().filter(|m| m.query == q).cloned().collect();
        let pat: Vec<char> = pattern.chars().collect();
        if pat.is_empty() || *k >= pat.len() {
            assert!(got.is_empty(), "seed {seed}: skipped query reported matches");
            continue;
        }
        let cands = candidates(&text, &pat, *k);
        let ctx = format!("seed {seed} q {q} k {k}\ntext {:?}\npattern {pattern:?}", case.text);
        let result = std::panic::catch_unwind(|| check_properties(case, q, &got, &cands));
        assert!(result.is_ok(), "{ctx}");
        let expected: Vec<FuzzyMatch> = greedy(cands, pat.len())
            .into_iter()
            .map(|a| FuzzyMatch { query: q, start: offsets[a.start], end: offsets[a.end], distance: a.distance })
            .collect();
        assert_eq!(got, expected, "{ctx}");
    }
}

#[test]
fn short_patterns_match_oracle() {
    for seed in 0..4000 {
        let mut rng = Rng::new(seed);
        let case = make_case(&mut rng, false);
        check_case(&case, seed);
    }
}

#[test]
fn long_patterns_match_oracle() {
    for seed in 10_000..10_400 {
        let mut rng = Rng::new(seed);
        let case = make_case(&mut rng, true);
        check_case(&case, seed);
    }
}

/// Larger texts so that the piece filter (not the full-scan fallback) is
/// used, with several queries sharing pieces.
#[test]
fn filtered_windows_match_oracle() {
    for seed in 20_000..20_150 {
        let mut rng = Rng::new(seed);
        let text = random_string(&mut rng, ALPHABET, 3000);
        let mut patterns = Vec::new();
        for _ in 0..6 {
            let len = rng.pick(&[12, 20, 40, 70, 130]);
            let k = rng.below(4);
            patterns.push((make_pattern(&mut rng, &text, ALPHABET, len, k), k));
        }
        // A duplicate query must get the same answer.
        patterns.push(patterns[0].clone());
        let case = Case { text: text.into_iter().collect(), patterns };
        check_case(&case, seed);
    }
}

/// Periodic texts: pieces hit thousands of times, so queries fall back to
/// a full scan (hit cap) and the greedy selection sees long candidate runs.
#[test]
fn periodic_text_matches_oracle() {
    for seed in 30_000..30_012 {
        let mut rng = Rng::new(seed);
        let unit_len = rng.range(1, 4);
        let unit = random_string(&mut rng, &['a', 'b', '中'], unit_len);
        let mut text: Vec<char> = unit.iter().copied().cycle().take(6000).collect();
        let noise = rng.below(20);
        mutate(&mut rng, &mut text, &['a', 'b', 'x', '😀'], noise);
        let mut patterns = Vec::new();
        for _ in 0..3 {
            let len = rng.pick(&[8, 20, 70]);
            let k = rng.below(4);
            patterns.push((make_pattern(&mut rng, &text, &['a', 'b', '中'], len, k), k));
        }
        let case = Case { text: text.into_iter().collect(), patterns };
        check_case(&case, seed);
    }
}

#[test]
fn degenerate_inputs() {
    let q = |p: &'static str, k| FuzzyQuery { pattern: p, max_distance: k };
    assert!(find_all("", &[q("abc", 1), q("", 0)]).is_empty());
    assert!(find_all("abc", &[]).is_empty());
    assert!(find_all("abc", &[q("", 0), q("ab", 2), q("ab", usize::MAX)]).is_empty());
    let periodic = "a".repeat(1000);
    let got = find_all(&periodic, &[q("aaaaaaaaaa", 0)]);
    assert_eq!(got.len(), 100, "exact tiling of a periodic text");
    assert!(got.iter().all(|m| m.distance == 0 && m.end - m.start == 10));
}
