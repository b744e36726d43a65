//! Matchers over a normalized text: exact (all quotes at once), fuzzy
//! (bit-parallel edit distance), token-level paraphrase similarity, lexical
//! "semantic" similarity over chunks, and CPython-exact `SequenceMatcher`.

pub mod exact;
pub mod fuzzy;
pub mod lexical;
pub mod meaning;
pub mod semantic;
pub mod sequence_matcher;
pub mod token;
