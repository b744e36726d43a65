//! Unit tests for `levenshtein`, `best_in_window` and simple `find_all` cases.
#![cfg(not(target_arch = "wasm32"))]

use super::fuzzy_common as common;

use crate::matching::fuzzy::{best_in_window, find_all, levenshtein, FuzzyMatch, FuzzyQuery, Levenshtein};
use common::*;

#[test]
fn levenshtein_known_values() {
    assert_eq!(levenshtein("kitten", "sitting"), 3);
    assert_eq!(levenshtein("sitting", "kitten"), 3);
    assert_eq!(levenshtein("flaw", "lawn"), 2);
    assert_eq!(levenshtein("", ""), 0);
    assert_eq!(levenshtein("", "abc"), 3);
    assert_eq!(levenshtein("abc", ""), 3);
    assert_eq!(levenshtein("same", "same"), 0);
}

#[test]
fn levenshtein_counts_chars_not_bytes() {
    assert_eq!(levenshtein("😀", "😃"), 1);
    assert_eq!(levenshtein("😀", ""), 1);
    assert_eq!(levenshtein("café", "cafe"), 1);
    assert_eq!(levenshtein("中文", "中文字"), 1);
    // A combining acute accent is a char of its own.
    assert_eq!(levenshtein("e\u{301}", "é"), 2);
    assert_eq!(levenshtein("e\u{301}", "e"), 1);
}

#[test]
fn levenshtein_long_strings_cross_blocks() {
    let mut rng = Rng::new(7);
    for len in [63, 64, 65, 127, 128, 129, 200, 300] {
        for _ in 0..20 {
            let a = random_string(&mut rng, ALPHABET, len);
            let mut b = a.clone();
            let edits = rng.below(40);
            mutate(&mut rng, &mut b, ALPHABET, edits);
            let (sa, sb): (String, String) = (a.iter().collect(), b.iter().collect());
            assert_eq!(levenshtein(&sa, &sb), edit_distance(&a, &b), "{sa:?} {sb:?}");
        }
    }
}

#[test]
fn levenshtein_random_against_dp() {
    let mut rng = Rng::new(99);
    for _ in 0..3000 {
        let (la, lb) = (rng.below(30), rng.below(30));
        let a = random_string(&mut rng, ALPHABET, la);
        let b = random_string(&mut rng, ALPHABET, lb);
        let (sa, sb): (String, String) = (a.iter().collect(), b.iter().collect());
        assert_eq!(levenshtein(&sa, &sb), edit_distance(&a, &b));
    }
}

/// `Levenshtein::to` (the pattern's vectors kept and reused, the pattern
/// longer or shorter than the text) is `levenshtein` and the DP: random
/// strings of emoji, CJK, combining marks, accented letters, spaces and
/// CRLF, from empty to several blocks long, each pattern against several
/// texts (related by edits, and unrelated).
#[test]
fn kept_vectors_give_levenshtein() {
    const MIXED: &[char] = &['a', 'b', 'c', 'd', 'é', '中', '文', '😀', '\u{301}', ' ', '\r', '\n'];
    let mut rng = Rng::new(2105);
    for case in 0..1500 {
        let len = match case % 4 {
            0 => rng.below(8),
            1 => rng.below(70),
            _ => rng.below(300),
        };
        let a = random_string(&mut rng, MIXED, len);
        let sa: String = a.iter().collect();
        let from = Levenshtein::new(&sa);
        for _ in 0..3 {
            let b = if rng.below(2) == 0 {
                let mut b = a.clone();
                let edits = rng.below(60);
                mutate(&mut rng, &mut b, MIXED, edits);
                b
            } else {
                let lb = rng.below(300);
                random_string(&mut rng, MIXED, lb)
            };
            let sb: String = b.iter().collect();
            let expected = edit_distance(&a, &b);
            assert_eq!(from.to(&sb), expected, "{sa:?} {sb:?}");
            assert_eq!(levenshtein(&sa, &sb), expected, "{sa:?} {sb:?}");
        }
    }
}

#[test]
fn best_in_window_basic() {
    let window = "the quick brown fox jumps";
    assert_eq!(best_in_window("brown", window, 0), Some((10, 15, 0)));
    assert_eq!(best_in_window("brwn", window, 1), Some((10, 15, 1)));
    assert_eq!(best_in_window("browm", window, 1), Some((10, 15, 1)));
    assert_eq!(best_in_window("zzzzz", window, 1), None);
    assert_eq!(best_in_window("", window, 3), None);
    assert_eq!(best_in_window("abc", "", 2), None);
}

#[test]
fn best_in_window_prefers_smaller_distance_then_leftmost() {
    // "abcd" occurs with one substitution at 0 and exactly at 10.
    assert_eq!(best_in_window("abcd", "abxd______abcd", 2), Some((10, 14, 0)));
    // Two exact occurrences: the leftmost wins.
    assert_eq!(best_in_window("abcd", "abcd__abcd", 0), Some((0, 4, 0)));
    // Equal distance 1: "abd" (one deletion, 3 chars) comes first, but
    // "abzd" (one substitution, 4 chars) has the pattern's length.
    assert_eq!(best_in_window("abcd", "abd___abzd", 1), Some((6, 10, 1)));
}

#[test]
fn best_in_window_byte_offsets_with_multibyte_text() {
    let window = "日本語のテキスト😀café";
    let (s, e, d) = best_in_window("テキスト", window, 1).expect("found");
    assert_eq!((&window[s..e], d), ("テキスト", 0));
    let (s, e, d) = best_in_window("cafe", window, 1).expect("found");
    assert_eq!((&window[s..e], d), ("café", 1));
    let (s, e, d) = best_in_window("😃café", window, 1).expect("found");
    assert_eq!((&window[s..e], d), ("😀café", 1));
}

#[test]
fn best_in_window_huge_max_distance_is_capped() {
    // max_distance >= m is capped to m - 1: still a meaningful answer.
    assert_eq!(best_in_window("abc", "xxabcxx", usize::MAX), Some((2, 5, 0)));
    assert_eq!(best_in_window("abc", "xxxxx", usize::MAX), None);
}

#[test]
fn find_all_reports_separate_occurrences() {
    let text = "Alpha beta gamma. Alpha betta gamma. Alpha beta gamma.";
    let q = [FuzzyQuery { pattern: "Alpha beta gamma", max_distance: 2 }];
    let got = find_all(text, &q);
    let spans: Vec<(&str, usize)> = got.iter().map(|m| (&text[m.start..m.end], m.distance)).collect();
    assert_eq!(spans, vec![("Alpha beta gamma", 0), ("Alpha betta gamma", 1), ("Alpha beta gamma", 0)]);
}

#[test]
fn find_all_sorted_by_query_then_start() {
    let text = "one two three one two three";
    let q = [FuzzyQuery { pattern: "two three", max_distance: 1 }, FuzzyQuery { pattern: "one twq", max_distance: 1 }];
    let got = find_all(text, &q);
    assert_eq!(
        got,
        vec![
            FuzzyMatch { query: 0, start: 4, end: 13, distance: 0 },
            FuzzyMatch { query: 0, start: 18, end: 27, distance: 0 },
            FuzzyMatch { query: 1, start: 0, end: 7, distance: 1 },
            FuzzyMatch { query: 1, start: 14, end: 21, distance: 1 },
        ]
    );
}

#[test]
fn find_all_short_pattern_large_k_uses_full_scan() {
    // m = 3, k = 2: pieces of one char, so the whole text is scanned.
    let text = "xxabcxx xaxcx";
    let got = find_all(text, &[FuzzyQuery { pattern: "abc", max_distance: 2 }]);
    assert_eq!(got.first().map(|m| (m.start, m.end, m.distance)), Some((2, 5, 0)));
    assert!(got.iter().all(|m| m.distance <= 2));
}
