//! Exact matching (spec 000 §3.3): every occurrence of every quote in the
//! normalized text, all quotes searched together in one Aho-Corasick pass
//! instead of one pass per quote.

use aho_corasick::{AhoCorasick, MatchKind};
use std::collections::HashMap;

/// For each pattern, the byte ranges `(start, end)` of all its occurrences in
/// `text` (overlapping ones included, as repeated `str::find` from `pos + 1`
/// would find), ascending. Empty patterns have no occurrences.
pub fn find_all(text: &str, patterns: &[&str]) -> Vec<Vec<(usize, usize)>> {
    let mut results = vec![Vec::new(); patterns.len()];
    // identical quotes are searched once
    let mut unique: Vec<&str> = Vec::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, p) in patterns.iter().enumerate() {
        if p.is_empty() {
            continue;
        }
        let slot = *seen.entry(p).or_insert_with(|| {
            unique.push(p);
            owners.push(Vec::new());
            unique.len() - 1
        });
        owners[slot].push(i);
    }
    if unique.is_empty() {
        return results;
    }
    // the builder picks the automaton; a full DFA for 1000 long quotes
    // would cost tens of MB, which the memory budget does not allow
    let Ok(automaton) = AhoCorasick::builder().match_kind(MatchKind::Standard).build(&unique) else {
        return find_naive(text, patterns);
    };
    for m in automaton.find_overlapping_iter(text) {
        let slot = m.pattern().as_usize();
        for &owner in owners.get(slot).map_or(&[][..], Vec::as_slice) {
            results[owner].push((m.start(), m.end()));
        }
    }
    for r in &mut results {
        r.sort_unstable();
    }
    results
}

/// The same answer one `str::find` loop per pattern: the oracle for tests and
/// the fallback if the automaton cannot be built.
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
}
