//! Matchers over a normalized text: exact (all quotes at once), fuzzy
//! (bit-parallel edit distance), token-level paraphrase similarity, lexical
//! "semantic" similarity over chunks, and CPython-exact `SequenceMatcher`;
//! `index` the word index (vocabulary, tokens, chunks) the token and lexical
//! matchers read. Matching knows nothing of documents: a document's
//! `SearchIndex` holds what it builds.

pub mod ellipsis;
pub mod exact;
pub mod fuzzy;
pub mod index;
pub mod lexical;
pub mod meaning;
pub mod semantic;
pub mod sequence_matcher;
pub mod token;

#[cfg(test)]
mod tests;
