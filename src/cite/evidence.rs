//! Stage 1 of spec 004, evidence pre-selection: every source is cut into
//! sentences (UAX #29 sentence boundaries, `unicode-segmentation`), spans
//! of `min_span_chars`–`max_span_chars` characters are kept, each is scored
//! against the query (`keyword`: BM25 of the query's content words, stemmed,
//! over all kept spans, divided by the best span's so that it is 0–1; `semantic`: the cosine similarity of the
//! host's embeddings, below 0 counted as 0; `hybrid`: `hybrid_weight` ×
//! keyword + the rest × semantic), a span holding a number gets
//! `numeric_content_boost`, spans under `relevance_threshold` are dropped,
//! and the best `max_spans_per_source` × sources are kept, best first (the
//! spec's steps 1–3). Each span keeps its source's id, title and url and
//! its place in the source in code points, UTF-16 units and bytes.
//!
//! Toggle off (Appendix B): each source is one span, its first
//! `fallback_max_chars` characters, relevance 1.0.

use crate::cite::config::{CiteConfig, RelevanceMethod};
use crate::cite::Source;
use crate::error::{Error, ErrorKind, Result};
use crate::host::Deadline;
use crate::matching::lexical;
use crate::matching::semantic::{self, Embedder, MAX_EMBEDDED_CHUNKS};
use crate::text::position::{PositionIndex, Span};
use crate::text::tokens;
use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

/// A citable span of a source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceSpan {
    /// The span's text.
    pub quote: String,
    /// Its source's id.
    pub source_id: String,
    /// Its source's title.
    pub source_title: String,
    /// Its source's url.
    pub source_url: String,
    /// Relevance to the query, boost included.
    pub relevance_score: f64,
    /// Whether it holds a number.
    pub has_numeric: bool,
    /// Where it is in the source's content.
    pub position: Span,
    /// Cut at `fallback_max_chars` (pre-selection off only).
    pub truncated: bool,
}

/// Stage 1's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidencePool {
    /// The spans, best first.
    pub spans: Vec<EvidenceSpan>,
    /// `keyword`, `semantic`, `hybrid`, or `none` (pre-selection off).
    pub relevance_method_used: &'static str,
    /// Sentences of the right length that were scored.
    pub candidates: usize,
}

/// A sentence kept for scoring.
struct Candidate {
    source: usize,
    start: usize,
    end: usize,
}

/// Stage 1. `embedder` is asked (once, for every candidate span and the
/// query) when the method is `semantic` or `hybrid`; without one `keyword`
/// stands in.
///
/// # Errors
/// PROCESSING_ERROR when the deadline passes, more than
/// `MAX_EMBEDDED_CHUNKS` spans would be embedded, or the embedder fails.
pub fn preselect(
    sources: &[Source],
    query: &str,
    config: &CiteConfig,
    embedder: Option<&dyn Embedder>,
    deadline: &Deadline,
) -> Result<EvidencePool> {
    let settings = &config.evidence_preselection;
    if !config.enable_evidence_preselection {
        let spans = sources.iter().map(|s| whole_source(s, settings.fallback_max_chars)).collect();
        return Ok(EvidencePool { spans, relevance_method_used: "none", candidates: sources.len() });
    }
    let candidates = candidates(sources, config, deadline)?;
    let texts: Vec<&str> = candidates
        .iter()
        .map(|c| sources.get(c.source).and_then(|s| s.content.get(c.start..c.end)).unwrap_or(""))
        .collect();
    let method = match (settings.relevance_computation_method, embedder) {
        (RelevanceMethod::Keyword, _) | (_, None) => RelevanceMethod::Keyword,
        (m, Some(_)) => m,
    };
    let keyword = if method == RelevanceMethod::Semantic { Vec::new() } else { bm25(&texts, query, deadline)? };
    let semantic = match (method, embedder) {
        (RelevanceMethod::Keyword, _) | (_, None) => Vec::new(),
        (_, Some(e)) => similarities(&texts, query, e)?,
    };
    let w = settings.hybrid_weight;
    let mut scored: Vec<(f64, usize, bool)> = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        if deadline.expired() {
            return Err(timeout());
        }
        let k = keyword.get(i).copied().unwrap_or(0.0);
        let s = semantic.get(i).copied().unwrap_or(0.0);
        let mut relevance = match method {
            RelevanceMethod::Keyword => k,
            RelevanceMethod::Semantic => s,
            RelevanceMethod::Hybrid => w * k + (1.0 - w) * s,
        };
        let has_numeric = !crate::text::quantity::quantities(text).is_empty();
        if has_numeric {
            relevance += settings.numeric_content_boost;
        }
        if relevance >= settings.relevance_threshold {
            scored.push((relevance, i, has_numeric));
        }
    }
    // best first; equal scores in source order, then place
    crate::sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(settings.max_spans_per_source.saturating_mul(sources.len()));
    let mut indexes: Vec<Option<PositionIndex>> = (0..sources.len()).map(|_| None).collect();
    let mut spans = Vec::with_capacity(scored.len());
    for (relevance, i, has_numeric) in scored {
        // `i` indexes `candidates` and `texts` (made from them), whose
        // `source` indexes `sources` and `indexes`
        let (Some(c), Some(quote)) = (candidates.get(i), texts.get(i)) else { continue };
        let (Some(source), Some(slot)) = (sources.get(c.source), indexes.get_mut(c.source)) else { continue };
        let index = slot.get_or_insert_with(|| PositionIndex::new(&source.content));
        spans.push(EvidenceSpan {
            quote: quote.to_string(),
            source_id: source.id.clone(),
            source_title: source.title.clone(),
            source_url: source.url.clone(),
            relevance_score: relevance,
            has_numeric,
            position: index.span(&source.content, c.start, c.end),
            truncated: false,
        });
    }
    let used = match method {
        RelevanceMethod::Keyword => "keyword",
        RelevanceMethod::Semantic => "semantic",
        RelevanceMethod::Hybrid => "hybrid",
    };
    Ok(EvidencePool { spans, relevance_method_used: used, candidates: candidates.len() })
}

/// The sentences of `sources` within the length filter, in source order.
fn candidates(sources: &[Source], config: &CiteConfig, deadline: &Deadline) -> Result<Vec<Candidate>> {
    let settings = &config.evidence_preselection;
    let mut candidates = Vec::new();
    for (n, source) in sources.iter().enumerate() {
        for (at, sentence) in source.content.split_sentence_bound_indices() {
            if deadline.expired() {
                return Err(timeout());
            }
            let trimmed = sentence.trim();
            let start = at + (sentence.len() - sentence.trim_start().len());
            let chars = trimmed.chars().count();
            if chars >= settings.min_span_chars && chars <= settings.max_span_chars && !trimmed.is_empty() {
                candidates.push(Candidate { source: n, start, end: start + trimmed.len() });
            }
        }
    }
    Ok(candidates)
}

/// What [`preselect`] asks an embedder for, in order: every candidate
/// span, then the query; empty when stage 1 asks nothing (disabled, or
/// `keyword`). Every span of the pool is one of these candidates.
///
/// # Errors
/// PROCESSING_ERROR when the deadline passes or there are more than
/// [`MAX_EMBEDDED_CHUNKS`] candidates (as [`preselect`] would say).
pub(crate) fn embed_requests(
    sources: &[Source],
    query: &str,
    config: &CiteConfig,
    deadline: &Deadline,
) -> Result<Option<EmbedRequests>> {
    if !asks_embedder(config) {
        return Ok(None);
    }
    let candidates = candidates(sources, config, deadline)?;
    check_embed_count(candidates.len())?;
    let spans: Vec<String> = candidates
        .iter()
        .map(|c| sources.get(c.source).and_then(|s| s.content.get(c.start..c.end)).unwrap_or("").to_string())
        .collect();
    Ok(Some(EmbedRequests { spans, query: query.to_string() }))
}

/// What stage 1 embeds: every candidate span and the query.
pub(crate) struct EmbedRequests {
    /// The candidate spans' texts, in the sources' order.
    pub(crate) spans: Vec<String>,
    /// The query.
    pub(crate) query: String,
}

/// Stage 1 asks the embedder (when it has one).
fn asks_embedder(config: &CiteConfig) -> bool {
    config.enable_evidence_preselection
        && config.evidence_preselection.relevance_computation_method != RelevanceMethod::Keyword
}

fn timeout() -> Error {
    Error::new(ErrorKind::Processing, "the citation pipeline ran past max_processing_time_seconds")
}

/// A whole source as one span (the fallback).
fn whole_source(source: &Source, max_chars: usize) -> EvidenceSpan {
    let content = &source.content;
    let end = content.char_indices().nth(max_chars).map_or(content.len(), |(b, _)| b);
    let quote = content.get(..end).unwrap_or("");
    EvidenceSpan {
        quote: quote.to_string(),
        source_id: source.id.clone(),
        source_title: source.title.clone(),
        source_url: source.url.clone(),
        relevance_score: 1.0,
        has_numeric: !crate::text::quantity::quantities(quote).is_empty(),
        position: PositionIndex::new(quote).span(quote, 0, quote.len()),
        truncated: end < content.len(),
    }
}

/// BM25 of `query` in each text (the matching core's weights,
/// [`lexical::term_score`]), divided by the best text's score.
fn bm25(texts: &[&str], query: &str, deadline: &Deadline) -> Result<Vec<f64>> {
    let query_terms = crate::cite::key_words(query);
    let mut tf: Vec<Vec<u32>> = Vec::with_capacity(texts.len());
    let mut lengths = Vec::with_capacity(texts.len());
    let mut df = vec![0u32; query_terms.len()];
    for text in texts {
        let mut counts = vec![0u32; query_terms.len()];
        let mut length = 0usize;
        for t in tokens::tokenize(text) {
            if deadline.expired() {
                return Err(timeout());
            }
            length += 1;
            if let Some(k) =
                query_terms.binary_search(&crate::cite::word_key(t.text(text))).ok().and_then(|k| counts.get_mut(k))
            {
                *k += 1;
            }
        }
        for (d, c) in df.iter_mut().zip(&counts) {
            if *c > 0 {
                *d += 1;
            }
        }
        tf.push(counts);
        lengths.push(length as f64);
    }
    let n = texts.len() as f64;
    let avg = (lengths.iter().sum::<f64>() / n.max(1.0)).max(1.0);
    let idfs: Vec<f64> = df.iter().map(|d| lexical::idf(n, f64::from(*d))).collect();
    let scores: Vec<f64> = tf
        .iter()
        .zip(&lengths)
        .map(|(counts, len)| {
            counts
                .iter()
                .zip(&idfs)
                .filter(|(c, _)| **c > 0)
                .map(|(c, idf)| lexical::term_score(*idf, f64::from(*c), *len, avg))
                .sum()
        })
        .collect();
    let best = scores.iter().copied().fold(0.0, f64::max);
    Ok(scores.into_iter().map(|s| if best > 0.0 { s / best } else { 0.0 }).collect())
}

/// At most [`MAX_EMBEDDED_CHUNKS`] candidate spans to embed.
fn check_embed_count(n: usize) -> Result<()> {
    if n > MAX_EMBEDDED_CHUNKS {
        return Err(Error::new(
            ErrorKind::Processing,
            format!("{n} spans to embed, more than {MAX_EMBEDDED_CHUNKS}; use relevance_computation_method \"keyword\" or fewer sources"),
        ));
    }
    Ok(())
}

/// Cosine similarity of each text to `query`, the host's embeddings, 0–1.
fn similarities(texts: &[&str], query: &str, embedder: &dyn Embedder) -> Result<Vec<f64>> {
    check_embed_count(texts.len())?;
    let mut all: Vec<&str> = texts.to_vec();
    all.push(query);
    let mut vectors = semantic::embed_texts(&all, embedder)?;
    let q = vectors.pop().unwrap_or_default();
    Ok(vectors.iter().map(|v| semantic::cosine(v, &q).max(0.0)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::config::CiteConfig;

    fn source(id: &str, content: &str) -> Source {
        Source {
            id: id.into(),
            title: format!("{id} title"),
            url: format!("https://example.com/{id}"),
            content: content.into(),
        }
    }

    fn keyword_config() -> CiteConfig {
        let mut c = CiteConfig::default();
        c.evidence_preselection.relevance_computation_method = RelevanceMethod::Keyword;
        c
    }

    #[test]
    fn sentences_are_filtered_ranked_and_placed() {
        let a = "Short one. The quarterly revenue of Acme grew strongly across every European market this year. \
                 😀 Weather in the region was mild and pleasant for most of the spring season overall.";
        let b = "Acme reported revenue of $3.2 billion for the fourth quarter, beating every estimate made.";
        let sources = vec![source("a", a), source("b", b)];
        let pool = preselect(&sources, "Acme revenue", &keyword_config(), None, &Deadline::never()).unwrap();
        assert_eq!(pool.relevance_method_used, "keyword");
        assert_eq!(pool.candidates, 3, "\"Short one.\" is under 50 characters");
        let quotes: Vec<&str> = pool.spans.iter().map(|s| s.quote.as_str()).collect();
        // b's span holds a number (boost 0.1); the weather span has no query word (0 < threshold 0.1)
        assert_eq!(quotes.len(), 2, "{quotes:?}");
        assert!(quotes[0].starts_with("Acme reported") && pool.spans[0].has_numeric, "{quotes:?}");
        for s in &pool.spans {
            let content = &sources.iter().find(|x| x.id == s.source_id).unwrap().content;
            let p = &s.position;
            assert_eq!(&content[p.byte_start..p.byte_end], s.quote);
            assert_eq!(content[..p.byte_start].chars().count(), p.start);
            assert_eq!(content[..p.byte_start].encode_utf16().count(), p.utf16_start);
        }
        let top = pool.spans.iter().find(|s| s.source_id == "a").unwrap();
        assert!(top.relevance_score > 0.0 && top.relevance_score <= 1.0);
    }

    #[test]
    fn the_best_span_has_keyword_score_one_and_the_pool_is_capped() {
        let text = (0..20)
            .map(|i| format!("Sentence number {i} talks about the ledger and nothing else of note here."))
            .collect::<Vec<_>>()
            .join(" ");
        let mut config = keyword_config();
        config.evidence_preselection.max_spans_per_source = 3;
        config.evidence_preselection.numeric_content_boost = 0.0;
        let pool = preselect(&[source("s", &text)], "ledger", &config, None, &Deadline::never()).unwrap();
        assert_eq!(pool.spans.len(), 3);
        assert!(pool.spans.iter().all(|s| (s.relevance_score - 1.0).abs() < 1e-12));
    }

    #[test]
    fn semantic_and_hybrid_use_the_host_embedder() {
        let a = "Cats are small domesticated felines that people keep as loving pets.";
        let b = "The central bank raised interest rates by a quarter of a percentage point.";
        let sources = vec![source("a", a), source("b", b)];
        // a toy model: the vector counts the letters 'c' and 'r'
        let embed = |texts: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> {
            Ok(texts.iter().map(|t| vec![t.matches('c').count() as f32, t.matches('r').count() as f32]).collect())
        };
        let mut config = CiteConfig::default();
        config.evidence_preselection.relevance_computation_method = RelevanceMethod::Semantic;
        config.evidence_preselection.numeric_content_boost = 0.0;
        let pool = preselect(&sources, "cccc", &config, Some(&embed), &Deadline::never()).unwrap();
        assert_eq!(pool.relevance_method_used, "semantic");
        // the query's vector is (4, 0): cosine = c / sqrt(c² + r²)
        let expect = |t: &str| {
            let (c, r) = (t.matches('c').count() as f64, t.matches('r').count() as f64);
            c / (c * c + r * r).sqrt()
        };
        for s in &pool.spans {
            assert!((s.relevance_score - expect(&s.quote)).abs() < 1e-6, "{s:?}");
        }
        // without the embedder, keyword stands in
        let pool = preselect(&sources, "interest rates", &config, None, &Deadline::never()).unwrap();
        assert_eq!(pool.relevance_method_used, "keyword");
        let failing = |_: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> { Err("offline".into()) };
        let e = preselect(&sources, "x", &config, Some(&failing), &Deadline::never()).unwrap_err();
        assert_eq!(e.code(), "PROCESSING_ERROR");
    }

    #[test]
    fn off_means_whole_sources() {
        let long = "é".repeat(6000);
        let sources = vec![source("a", "Tiny. 42 apples."), source("b", &long)];
        let config = CiteConfig { enable_evidence_preselection: false, ..CiteConfig::default() };
        let pool = preselect(&sources, "anything", &config, None, &Deadline::never()).unwrap();
        assert_eq!(pool.relevance_method_used, "none");
        assert_eq!(pool.spans.len(), 2);
        assert_eq!(pool.spans[0].quote, "Tiny. 42 apples.");
        assert!(pool.spans[0].has_numeric && !pool.spans[0].truncated);
        assert_eq!(pool.spans[0].relevance_score, 1.0);
        assert_eq!(pool.spans[1].quote.chars().count(), 5000);
        assert!(pool.spans[1].truncated);
        assert_eq!((pool.spans[1].position.end, pool.spans[1].position.byte_end), (5000, 10000));
    }
}
