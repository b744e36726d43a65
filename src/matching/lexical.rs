//! The default "semantic" matcher (spec 000 §3.5) without a model: BM25 over
//! overlapping chunks of `chunk_size` chars ranks where the quote's content
//! words are, and the confidence is the IDF-weighted share of the quote's
//! content words that the chunk holds (1.0 when all are there, rare words
//! weighing more than common ones). The reported range is trimmed to the
//! matched words inside the chunk.
//!
//! Logarithms come from `libm`, so scores are bit-identical natively and in
//! WebAssembly.

use super::index::{Chunk, TokenIndex};
use crate::host::Deadline;
use crate::text::tokens::{self, stem};
use std::collections::BTreeMap;

/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// BM25 length normalization.
const B: f64 = 0.75;

/// BM25's inverse document frequency of a term found in `df` of `n`
/// passages (the "+1" form, never negative).
pub(crate) fn idf(n: f64, df: f64) -> f64 {
    libm::log(1.0 + (n - df + 0.5) / (df + 0.5))
}

/// One term's BM25 contribution: `tf` occurrences in a passage of `len`
/// words, passages averaging `avg` words.
pub(crate) fn term_score(idf: f64, tf: f64, len: f64, avg: f64) -> f64 {
    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avg))
}

/// A chunk that holds the quote's words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LexicalMatch {
    /// Chunk number.
    pub chunk: usize,
    /// BM25 score (ranking only).
    pub bm25: f64,
    /// IDF-weighted share of the quote's content words present, 0–1.
    pub coverage: f64,
    /// Byte range in the normalized text, first to last matched word.
    pub start: usize,
    /// End of that range.
    pub end: usize,
}

#[derive(Default, Clone)]
struct Acc {
    tf: Vec<u32>,
    first: usize,
    last: usize,
}

/// The best `limit` chunks by BM25 among those whose coverage is at least
/// `threshold`, best first.
pub fn find(
    normalized_quote: &str,
    index: &TokenIndex,
    chunks: &Chunk,
    threshold: f64,
    limit: usize,
    deadline: &Deadline,
) -> Vec<LexicalMatch> {
    let stems = quote_stems(normalized_quote);
    if stems.is_empty() {
        return Vec::new();
    }
    let Some((per_chunk, idfs)) = term_counts(&stems, index, chunks, deadline) else {
        return Vec::new();
    };
    let total_idf: f64 = idfs.iter().sum();
    let avg = chunks.average_length().max(1.0);
    let mut found: Vec<LexicalMatch> = per_chunk
        .into_iter()
        .filter_map(|(c, acc)| {
            let len = chunks.length(c) as f64;
            let mut bm25 = 0.0;
            let mut covered = 0.0;
            for (t, &tf) in acc.tf.iter().enumerate() {
                if tf == 0 {
                    continue;
                }
                let tf = tf as f64;
                let idf = idfs.get(t).copied().unwrap_or(0.0);
                bm25 += term_score(idf, tf, len, avg);
                covered += idf;
            }
            let coverage = if total_idf > 0.0 { covered / total_idf } else { 0.0 };
            let (a, b) = (index.token(acc.first)?, index.token(acc.last)?);
            (coverage >= threshold).then_some(LexicalMatch {
                chunk: c,
                bm25,
                coverage,
                start: a.start as usize,
                end: b.end as usize,
            })
        })
        .collect();
    crate::sort::sort_by(&mut found, |a, b| b.bm25.total_cmp(&a.bm25).then(a.chunk.cmp(&b.chunk)));
    // overlapping chunks often trim to the same words: keep the first
    let mut kept: Vec<LexicalMatch> = Vec::new();
    for m in found {
        if kept.len() >= limit {
            break;
        }
        if !kept.iter().any(|k| k.start == m.start && k.end == m.end) {
            kept.push(m);
        }
    }
    kept
}

/// The distinct stems of the quote's content words (of all its words when
/// it has only stop words), sorted.
fn quote_stems(normalized_quote: &str) -> Vec<&str> {
    let words: Vec<&str> = tokens::tokenize(normalized_quote).iter().map(|t| t.text(normalized_quote)).collect();
    let content: Vec<&str> = words.iter().copied().filter(|w| !tokens::is_stop_word(w)).collect();
    let chosen = if content.is_empty() { &words } else { &content };
    let mut stems: Vec<&str> = chosen.iter().map(|w| stem(w)).collect();
    crate::sort::sort(&mut stems);
    stems.dedup();
    stems
}

/// Per chunk holding any of `stems`, how often each occurs there and the
/// first and last such token; and each stem's IDF over the chunks. `None`
/// when the deadline passed.
fn term_counts(
    stems: &[&str],
    index: &TokenIndex,
    chunks: &Chunk,
    deadline: &Deadline,
) -> Option<(BTreeMap<usize, Acc>, Vec<f64>)> {
    let n = chunks.count() as f64;
    let mut per_chunk: BTreeMap<usize, Acc> = BTreeMap::new();
    let mut idfs = Vec::with_capacity(stems.len());
    for (t, s) in stems.iter().enumerate() {
        let postings = index.stem_id(s).map_or(&[][..], |id| index.postings(id));
        let mut df = 0usize;
        let mut last_chunk = None;
        for &p in postings {
            if deadline.expired() {
                return None;
            }
            for c in chunks.chunks_of(chunks.token_char(p as usize) as usize) {
                let acc = per_chunk.entry(c).or_insert_with(|| Acc {
                    tf: vec![0; stems.len()],
                    first: p as usize,
                    last: p as usize,
                });
                if let Some(tf) = acc.tf.get_mut(t) {
                    *tf += 1;
                }
                acc.first = acc.first.min(p as usize);
                acc.last = acc.last.max(p as usize);
                if last_chunk.is_none_or(|l| c > l) {
                    df += 1;
                    last_chunk = Some(c);
                }
            }
        }
        idfs.push(idf(n, df as f64));
    }
    Some((per_chunk, idfs))
}

/// How much of the quote's words the passage holds in the quote's order:
/// the longest run of them in order (a longest increasing
/// subsequence of their positions in the passage) over those found, 0–1.
/// A shuffled sentence ("word salad") holds every word but few in order, so
/// word overlap alone must not make it a paraphrase (issue 12). 1 when
/// fewer than two words are found. `O(n · m)` for a quote of `n` and a
/// passage of `m` words (a chunk, never a document).
pub fn order_agreement(normalized_quote: &str, passage: &str) -> f64 {
    // every word counts, function words too: "you have two choices"
    // shuffled to "two you have choices" keeps the content words in order
    let content = |text: &str| -> Vec<String> {
        tokens::tokenize(text).iter().map(|t| t.text(text)).map(|w| stem(w).to_string()).collect()
    };
    let (quote, passage) = (content(normalized_quote), content(passage));
    let mut used = vec![false; passage.len()];
    let mut positions = Vec::new();
    for w in &quote {
        let hit = passage.iter().enumerate().position(|(i, p)| p == w && !used.get(i).copied().unwrap_or(true));
        if let Some(i) = hit {
            if let Some(u) = used.get_mut(i) {
                *u = true;
            }
            positions.push(i);
        }
    }
    if positions.len() < 2 {
        return 1.0;
    }
    // patience sorting: tails[k] = smallest tail of an increasing run of k+1
    let mut tails: Vec<usize> = Vec::new();
    for &p in &positions {
        let k = tails.partition_point(|&t| t < p);
        match tails.get_mut(k) {
            Some(t) => *t = p,
            None => tails.push(p),
        }
    }
    tails.len() as f64 / positions.len() as f64
}

#[cfg(test)]
mod tests {
    #[test]
    fn shuffled_words_do_not_agree_in_order() {
        let quote = "the quarterly revenue report shows strong growth in european markets";
        assert_eq!(order_agreement(quote, quote), 1.0);
        let salad = "markets european in growth strong shows report revenue quarterly the";
        assert!(order_agreement(salad, quote) < 0.3, "{}", order_agreement(salad, quote));
        assert_eq!(order_agreement("one word", "word one"), 0.5);
    }

    use super::*;
    use crate::text::{normalize_str, Profile};

    #[test]
    fn ranks_the_chunk_with_the_rare_words_first() {
        let mut doc = String::new();
        for i in 0..40 {
            doc.push_str(&format!("paragraph {i} talks about the weather and the sea. "));
        }
        doc.push_str("the ledger reconciliation runs nightly at the data center. ");
        for i in 0..40 {
            doc.push_str(&format!("paragraph {i} talks about the weather and the sea. "));
        }
        let doc = normalize_str(&doc, Profile::default());
        let idx = TokenIndex::new(&doc);
        let chunks = Chunk::new(&idx, &doc, 500, 100);
        let got = find("nightly ledger reconciliation", &idx, &chunks, 0.75, 5, &Deadline::never());
        assert!(!got.is_empty());
        assert_eq!(&doc[got[0].start..got[0].end], "ledger reconciliation runs nightly");
        assert_eq!(got[0].coverage, 1.0);
        assert!(find("nightly ledger weather audit", &idx, &chunks, 0.75, 5, &Deadline::never()).is_empty());
    }
}
