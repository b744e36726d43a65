//! The matchers' own tests, against independent oracles: the fuzzy matcher
//! against an O(nm) dynamic program and brute force (unit cases, random
//! texts, scale), the `SequenceMatcher` port against CPython's `difflib`,
//! and a reused document (gram index) against a fresh one (scans).

mod difflib_diff;
mod document_reuse;
mod fuzzy_common;
mod fuzzy_random_oracle;
mod fuzzy_scale;
mod fuzzy_unit;
