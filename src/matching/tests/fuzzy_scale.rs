//! 1000 queries against a ~1 MB generated text: checks that everything
//! planted is found and that nothing is quadratic.
//! Timing lives in the benchmarks (`cargo bench`), not here.
#![cfg(not(target_arch = "wasm32"))]

use super::fuzzy_common as common;

use crate::matching::fuzzy::{find_all, levenshtein, FuzzyQuery};
use common::*;

/// Natural-looking text: words (some with accents), spaces, punctuation.
fn make_text(rng: &mut Rng, bytes: usize) -> String {
    let letters: Vec<char> = "abcdefghijklmnopqrstuvwxyzéèüöçñ".chars().collect();
    let vocabulary: Vec<String> = (0..3000)
        .map(|_| {
            let len = rng.range(1, 10);
            let accented = rng.chance(10);
            let pool = if accented { &letters[..] } else { &letters[..26] };
            (0..len).map(|_| rng.pick(pool)).collect()
        })
        .collect();
    let mut text = String::with_capacity(bytes + 16);
    while text.len() < bytes {
        text.push_str(&vocabulary[rng.below(vocabulary.len())]);
        text.push(rng.pick(&[' ', ' ', ' ', ' ', ' ', ' ', ',', '.', '\n']));
    }
    text
}

struct Planted {
    pattern: String,
    /// Edits applied (`None` for a quote absent from the text).
    edits: Option<usize>,
    /// Char range it was cut from.
    origin: (usize, usize),
}

fn plant(rng: &mut Rng, text: &[char]) -> Planted {
    let len = rng.pick(&[20, 40, 60, 80, 100, 150, 200, 300, 500, 1000, 2000]);
    let at = rng.below(text.len() - len);
    let mut chars = text[at..at + len].to_vec();
    let roll = rng.below(100);
    let edits = if roll < 20 {
        let n = rng.range(1, 3);
        mutate(rng, &mut chars, &['x', 'q', 'z', 'é', ' '], n);
        Some(n)
    } else if roll < 30 {
        chars = random_string(rng, &['Q', 'W', 'X', 'Y', 'Z', ' '], len);
        None
    } else {
        Some(0)
    };
    Planted { pattern: chars.into_iter().collect(), edits, origin: (at, at + len) }
}

fn setup(seed: u64, bytes: usize) -> (String, Vec<Planted>) {
    let mut rng = Rng::new(seed);
    let text = make_text(&mut rng, bytes);
    let chars: Vec<char> = text.chars().collect();
    let planted = (0..1000).map(|_| plant(&mut rng, &chars)).collect();
    (text, planted)
}

fn queries(planted: &[Planted], k_of: impl Fn(usize) -> usize) -> Vec<FuzzyQuery<'_>> {
    planted.iter().map(|p| FuzzyQuery { pattern: &p.pattern, max_distance: k_of(p.pattern.chars().count()) }).collect()
}

fn check(text: &str, planted: &[Planted], queries: &[FuzzyQuery]) {
    let offsets = byte_offsets(text);
    let matches = find_all(text, queries);
    for (q, p) in planted.iter().enumerate() {
        let got: Vec<_> = matches.iter().filter(|m| m.query == q).collect();
        for m in &got {
            let d = levenshtein(&p.pattern, &text[m.start..m.end]);
            assert_eq!(d, m.distance);
            assert!(d <= queries[q].max_distance);
        }
        if let Some(edits) = p.edits.filter(|&e| e <= queries[q].max_distance) {
            let (s, e) = (offsets[p.origin.0], offsets[p.origin.1]);
            let hit = got.iter().any(|m| m.start < e && s < m.end && m.distance <= edits);
            assert!(hit, "planted quote {q} ({edits} edits) not found");
        }
    }
}

#[test]
fn thousand_queries_one_megabyte() {
    let (text, planted) = setup(1, 1 << 20);
    check(&text, &planted, &queries(&planted, |_| 3));
    check(&text, &planted, &queries(&planted, |m| (m / 10).max(1)));
}
