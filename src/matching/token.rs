//! Token-level similarity for paraphrases and concept references: the
//! passages (windows of a few more tokens than the quote) that hold most of
//! the quote's content words.
//!
//! Score = share of the quote's content words (stop words dropped, one entry
//! per stem) present in the window; a word present only as another form of
//! the same stem (`authenticate` for `authentication`) counts 0.9. The
//! reported range runs from the first to the last matched token. Windows are
//! found by one sweep over the merged postings of the quote's stems, so the
//! cost is linear in the number of occurrences of the quote's words.

use super::index::TokenIndex;
use crate::host::Deadline;
use crate::text::tokens::{self, stem};

/// The quote as the token matcher sees it.
#[derive(Debug, Clone)]
pub struct TokenQuery {
    /// (stem id, surface id) in the document for each distinct content stem;
    /// `None` when the document does not have it.
    terms: Vec<(Option<u32>, Option<u32>)>,
    /// All tokens of the quote, stop words included (sets the window width).
    token_count: usize,
}

impl TokenQuery {
    /// Prepares a normalized quote against a document's token index.
    pub fn new(normalized_quote: &str, index: &TokenIndex) -> TokenQuery {
        let words: Vec<&str> = tokens::tokenize(normalized_quote).iter().map(|t| t.text(normalized_quote)).collect();
        let content: Vec<&str> = words.iter().copied().filter(|w| !tokens::is_stop_word(w)).collect();
        let chosen = if content.is_empty() { &words } else { &content };
        let mut seen_stems: Vec<&str> = Vec::new();
        let mut terms = Vec::new();
        for w in chosen {
            let s = stem(w);
            if seen_stems.contains(&s) {
                continue;
            }
            seen_stems.push(s);
            terms.push((index.stem_id(s), index.surface_id(w)));
        }
        TokenQuery { terms, token_count: words.len() }
    }
}

/// A passage holding the quote's words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenMatch {
    /// Index of the first matched token.
    pub first_token: usize,
    /// Index of the last matched token.
    pub last_token: usize,
    /// Byte range in the normalized text.
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// Share of content words present (0.9 weight for stem-only matches).
    pub score: f64,
}

/// Up to `limit` non-overlapping passages with score at least `floor`, best
/// first (ties: shorter, then earlier).
/// Stops early when `deadline` passes (the answer is then incomplete:
/// callers ask `deadline.expired()`).
pub fn find(query: &TokenQuery, index: &TokenIndex, floor: f64, limit: usize, deadline: &Deadline) -> Vec<TokenMatch> {
    let n = query.terms.len();
    if n == 0 || limit == 0 {
        return Vec::new();
    }
    let width = query.token_count + (query.token_count / 2).max(2);
    let hits = merged_hits(query, index);
    let mut sweep = Sweep { counts: vec![(0u32, 0u32); n], numerator: 0 };
    let mut candidates: Vec<(u32, usize, usize)> = Vec::new(); // (numerator, first, last)
    let mut left = 0;
    for right in 0..hits.len() {
        if deadline.expired() {
            return Vec::new();
        }
        sweep.add(hits[right], index, &query.terms);
        while hits[left].0 + width <= hits[right].0 {
            sweep.remove(hits[left], index, &query.terms);
            left += 1;
        }
        // tighten from the left while the score does not drop
        while left < right && sweep.removal_keeps_score(hits[left], index, &query.terms) {
            sweep.remove(hits[left], index, &query.terms);
            left += 1;
        }
        if sweep.score(n) >= floor {
            candidates.push((sweep.numerator, hits[left].0, hits[right].0));
        }
    }
    crate::sort::sort_by(&mut candidates, |a, b| b.0.cmp(&a.0).then((a.2 - a.1).cmp(&(b.2 - b.1))).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<TokenMatch> = Vec::new();
    for (num, first, last) in candidates {
        if chosen.len() >= limit || deadline.expired() {
            break;
        }
        if chosen.iter().any(|c| first <= c.last_token && c.first_token <= last) {
            continue;
        }
        let (Some(a), Some(b)) = (index.token(first), index.token(last)) else {
            continue;
        };
        chosen.push(TokenMatch {
            first_token: first,
            last_token: last,
            start: a.start as usize,
            end: b.end as usize,
            score: num as f64 / (10 * n) as f64,
        });
    }
    chosen
}

/// (token position, term) for every occurrence of a query stem, by position.
fn merged_hits(query: &TokenQuery, index: &TokenIndex) -> Vec<(usize, usize)> {
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for (t, (stem_id, _)) in query.terms.iter().enumerate() {
        if let Some(id) = stem_id {
            hits.extend(index.postings(*id).iter().map(|&p| (p as usize, t)));
        }
    }
    // concatenated sorted runs (each stem's postings ascend): the stable
    // sort merges runs (O(n log k)); pairs are distinct (a token has one
    // stem and the terms have distinct stems), so stability is moot
    hits.sort();
    hits
}

/// Counts of each term in the current window: (any form, exact surface).
struct Sweep {
    counts: Vec<(u32, u32)>,
    /// Sum over present terms of 10 (surface present) or 9 (stem only).
    numerator: u32,
}

fn weight(c: (u32, u32)) -> u32 {
    match c {
        (0, _) => 0,
        (_, 0) => 9,
        _ => 10,
    }
}

impl Sweep {
    fn is_surface(hit: (usize, usize), index: &TokenIndex, terms: &[(Option<u32>, Option<u32>)]) -> bool {
        terms.get(hit.1).and_then(|t| t.1).is_some_and(|s| index.surface(hit.0) == s)
    }

    fn add(&mut self, hit: (usize, usize), index: &TokenIndex, terms: &[(Option<u32>, Option<u32>)]) {
        let surface = Sweep::is_surface(hit, index, terms) as u32;
        if let Some(c) = self.counts.get_mut(hit.1) {
            self.numerator -= weight(*c);
            *c = (c.0 + 1, c.1 + surface);
            self.numerator += weight(*c);
        }
    }

    fn remove(&mut self, hit: (usize, usize), index: &TokenIndex, terms: &[(Option<u32>, Option<u32>)]) {
        let surface = Sweep::is_surface(hit, index, terms) as u32;
        if let Some(c) = self.counts.get_mut(hit.1) {
            self.numerator -= weight(*c);
            *c = (c.0.saturating_sub(1), c.1.saturating_sub(surface));
            self.numerator += weight(*c);
        }
    }

    fn removal_keeps_score(
        &self,
        hit: (usize, usize),
        index: &TokenIndex,
        terms: &[(Option<u32>, Option<u32>)],
    ) -> bool {
        let surface = Sweep::is_surface(hit, index, terms) as u32;
        self.counts.get(hit.1).is_some_and(|&c| weight(c) == weight((c.0 - 1, c.1 - surface)))
    }

    fn score(&self, n: usize) -> f64 {
        self.numerator as f64 / (10 * n) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::normalize_str;
    use crate::text::Profile;

    fn run(doc: &str, quote: &str) -> Vec<(String, f64)> {
        let doc = normalize_str(doc, Profile::default());
        let idx = TokenIndex::new(&doc);
        let q = TokenQuery::new(&normalize_str(quote, Profile::default()), &idx);
        find(&q, &idx, 0.5, 5, &Deadline::never())
            .into_iter()
            .map(|m| (doc[m.start..m.end].to_string(), m.score))
            .collect()
    }

    #[test]
    fn paraphrase_of_spec_5_2() {
        let got = run(
            "The application needs to support user authentication using OAuth 2.0.",
            "application must implement OAuth 2.0 authentication",
        );
        assert_eq!(got, vec![("application needs to support user authentication using oauth 2.0".to_string(), 0.8)]);
    }

    #[test]
    fn stem_only_matches_weigh_less() {
        let got = run("Users need to authenticate. Authentication must be secure.", "authentication");
        assert_eq!(got, vec![("authentication".to_string(), 1.0), ("authenticate".to_string(), 0.9)]);
    }

    #[test]
    fn unrelated_text_gives_nothing() {
        assert!(run("The system will use PostgreSQL database.", "implement microservices architecture").is_empty());
    }
}
