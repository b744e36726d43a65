//! Semantic matching through the host's embedding model (spec 000 §3.5,
//! issue 12 item 6): the document's chunks (`chunk_size` chars overlapping
//! by `overlap_size`, cut at word boundaries) and the quotes are embedded by
//! an [`Embedder`] the caller passes in (a JS `embed(texts)` function in
//! wasm); a chunk whose cosine similarity to a quote reaches the threshold
//! is a semantic match. The library ships no model.
//!
//! Without an embedder the lexical matcher ([`super::lexical`]) stands in,
//! and reports say `semantic_method: "lexical"`.

use crate::error::{Error, ErrorKind, Result};
use crate::text::tokens;

/// Most chunks embedded for one document. Past it the embedder is not asked
/// and the call fails with a PROCESSING_ERROR naming the limit (a host
/// embedding that many texts per call would be slower than the whole
/// validation by orders of magnitude).
pub const MAX_EMBEDDED_CHUNKS: usize = 20_000;

/// A text embedding model, provided by the host.
pub trait Embedder {
    /// One vector per text, all of the same length, in order.
    ///
    /// # Errors
    /// A message saying what went wrong (reported as a PROCESSING_ERROR).
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String>;
}

impl<F: Fn(&[&str]) -> std::result::Result<Vec<Vec<f32>>, String>> Embedder for F {
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
        self(texts)
    }
}

/// The byte ranges of a text's chunks: every `size - overlap` chars a chunk
/// of `size` chars, shrunk to the whole words inside it.
pub fn chunk_ranges(text: &str, size: usize, overlap: usize) -> Vec<(usize, usize)> {
    let size = size.max(1);
    let step = size.saturating_sub(overlap).max(1);
    let toks = tokens::tokenize(text);
    // char offset of each token's start and end
    let mut out = Vec::new();
    let (mut chars, mut last) = (0usize, 0usize);
    let mut marks: Vec<(usize, usize, usize, usize)> = Vec::with_capacity(toks.len());
    for t in &toks {
        let (s, e) = (t.start as usize, t.end as usize);
        chars += text.get(last..s).map_or(0, |g| g.chars().count());
        let cs = chars;
        chars += text.get(s..e).map_or(0, |g| g.chars().count());
        last = e;
        marks.push((cs, chars, s, e));
    }
    let Some(&(_, total, _, _)) = marks.last() else {
        return out;
    };
    let mut first = 0usize;
    let mut from = 0usize;
    loop {
        let to = from + size;
        while marks.get(first).is_some_and(|m| m.0 < from) {
            first += 1;
        }
        let mut end = first;
        while marks.get(end).is_some_and(|m| m.1 <= to) {
            end += 1;
        }
        if let (Some(a), Some(b)) = (marks.get(first), end.checked_sub(1).and_then(|k| marks.get(k))) {
            if end > first && out.last() != Some(&(a.2, b.3)) {
                out.push((a.2, b.3));
            }
        }
        if to >= total {
            break;
        }
        from += step;
    }
    out
}

/// Vectors computed ahead of the call, for hosts whose embedding model
/// answers asynchronously: the texts to embed are asked first
/// (`validate::semantic_texts`), the host embeds them, and the validation
/// runs with their answers. Asked for other texts, it fails.
pub struct Precomputed {
    /// The texts, as `semantic_texts` listed them.
    pub texts: Vec<String>,
    /// Their vectors, in the same order.
    pub vectors: Vec<Vec<f32>>,
}

impl Embedder for Precomputed {
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
        let same = texts.len() == self.texts.len() && texts.iter().zip(&self.texts).all(|(a, b)| *a == b.as_str());
        if same {
            Ok(self.vectors.clone())
        } else {
            Err(format!("asked for {} texts that differ from the {} embedded ahead", texts.len(), self.texts.len()))
        }
    }
}

/// The texts [`embed`] asks the embedder for: the chunks of `text`, then
/// `quotes`.
pub fn request_texts(text: &str, size: usize, overlap: usize, quotes: &[&str]) -> Vec<String> {
    let mut out: Vec<String> =
        chunk_ranges(text, size, overlap).iter().map(|&(s, e)| text.get(s..e).unwrap_or("").to_string()).collect();
    out.extend(quotes.iter().map(|q| q.to_string()));
    out
}

/// The document's chunks and their unit-length vectors.
pub struct EmbeddedChunks {
    /// Byte ranges in the normalized text.
    pub ranges: Vec<(usize, usize)>,
    vectors: Vec<Vec<f32>>,
}

/// Asks `embedder` for the vectors of the chunks of `text` and of `quotes`
/// in one call (chunks first).
///
/// # Errors
/// PROCESSING_ERROR when there are more than [`MAX_EMBEDDED_CHUNKS`] chunks,
/// or the embedder fails or answers with the wrong number of vectors,
/// vectors of different lengths, empty ones, or non-finite numbers.
pub fn embed(
    text: &str,
    size: usize,
    overlap: usize,
    quotes: &[&str],
    embedder: &dyn Embedder,
) -> Result<(EmbeddedChunks, Vec<Vec<f32>>)> {
    let ranges = chunk_ranges(text, size, overlap);
    if ranges.len() > MAX_EMBEDDED_CHUNKS {
        return Err(Error::new(
            ErrorKind::Processing,
            format!("the document has {} chunks to embed, more than {MAX_EMBEDDED_CHUNKS}; raise semantic_matching.chunk_size", ranges.len()),
        ));
    }
    let mut texts: Vec<&str> = ranges.iter().map(|&(s, e)| text.get(s..e).unwrap_or("")).collect();
    texts.extend_from_slice(quotes);
    let mut unit = embed_texts(&texts, embedder)?;
    let quote_vectors = unit.split_off(ranges.len());
    Ok((EmbeddedChunks { ranges, vectors: unit }, quote_vectors))
}

/// Asks `embedder` for the vectors of `texts` and checks its answer: one
/// vector per text, all of the same non-zero length, finite. Returned at
/// unit length, so that a dot product is the cosine similarity.
///
/// # Errors
/// PROCESSING_ERROR when the embedder fails or answers wrongly.
pub(crate) fn embed_texts(texts: &[&str], embedder: &dyn Embedder) -> Result<Vec<Vec<f32>>> {
    let vectors = embedder
        .embed(texts)
        .map_err(|m| Error::new(ErrorKind::Processing, format!("the embed callback failed: {m}")))?;
    if vectors.len() != texts.len() {
        return Err(Error::new(
            ErrorKind::Processing,
            format!("the embed callback returned {} vectors for {} texts", vectors.len(), texts.len()),
        ));
    }
    let dim = vectors.first().map_or(0, Vec::len);
    for (i, v) in vectors.iter().enumerate() {
        if v.len() != dim || dim == 0 {
            return Err(Error::new(
                ErrorKind::Processing,
                format!("the embed callback returned a vector of length {} at index {i}; expected {dim} (non-zero, the same for all)", v.len()),
            ));
        }
        if v.iter().any(|x| !x.is_finite()) {
            return Err(Error::new(
                ErrorKind::Processing,
                format!("the embed callback returned a non-finite number in vector {i}"),
            ));
        }
    }
    Ok(vectors.into_iter().map(unit_length).collect())
}

/// The cosine similarity of two unit vectors (as [`embed_texts`] returns
/// them), clamped to −1…1.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum::<f64>().clamp(-1.0, 1.0)
}

fn unit_length(v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| f64::from(*x) * f64::from(*x)).sum::<f64>().sqrt();
    if norm == 0.0 {
        return v;
    }
    v.into_iter().map(|x| (f64::from(x) / norm) as f32).collect()
}

impl EmbeddedChunks {
    /// The `limit` chunks most similar to `quote` (a unit vector) with a
    /// cosine similarity of at least `threshold`, best first, as (chunk,
    /// similarity).
    pub fn best(&self, quote: &[f32], threshold: f64, limit: usize) -> Vec<(usize, f64)> {
        let mut found: Vec<(usize, f64)> = self
            .vectors
            .iter()
            .enumerate()
            .map(|(i, v)| (i, cosine(v, quote)))
            .filter(|&(_, s)| s >= threshold)
            .collect();
        crate::sort::sort_by(&mut found, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(limit);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_whole_words_and_cover_the_text() {
        let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        let ranges = chunk_ranges(text, 20, 5);
        assert!(!ranges.is_empty());
        for &(s, e) in &ranges {
            let chunk = &text[s..e];
            assert!(!chunk.starts_with(' ') && !chunk.ends_with(' '), "{chunk:?}");
            assert!(chunk.chars().count() <= 20, "{chunk:?}");
        }
        assert_eq!(ranges.first().map(|r| r.0), Some(0));
        assert_eq!(ranges.last().map(|r| r.1), Some(text.len()));
    }

    #[test]
    fn bad_answers_are_processing_errors() {
        let short = |_: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> { Ok(vec![vec![1.0]]) };
        let err = embed("one two three", 5, 0, &["q"], &short).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("vectors for"), "{err}");
        let nan = |t: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> {
            Ok(t.iter().map(|_| vec![f32::NAN]).collect())
        };
        assert!(embed("one two", 50, 0, &["q"], &nan).is_err());
        let fails = |_: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> { Err("offline".into()) };
        let err = embed("one two", 50, 0, &["q"], &fails).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("offline"), "{err}");
    }
}
