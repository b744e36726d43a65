//! Property tests of the span invariant: for documents built from tricky
//! pieces (emoji, CJK, combining marks, curly quotes, ligatures, CRLF, NBSP,
//! soft hyphens, words hyphenated across lines), a quote retyped the way an
//! LLM would write it (straight quotes, lowercase, ligatures spelled out,
//! plain spaces) is found exactly where the pieces are, and every reported
//! span's text equals `matched_text` in bytes, code points and UTF-16.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use evidence_validator::text::Profile;
use evidence_validator::validate::find_quote;
use evidence_validator::{Document, Format};
use proptest::prelude::*;

/// (as written in the document, as an LLM would type it)
const WORDS: &[(&str, &str)] = &[
    ("Revenue", "revenue"),
    ("grew", "grew"),
    ("\u{201C}Monday\u{201D}", "\"monday\""),
    ("it\u{2019}s", "it's"),
    ("\u{FB01}nal", "final"),
    ("e\u{FB03}cient", "efficient"),
    ("evi-\ndence", "evidence"),
    ("co\u{00AD}operate", "cooperate"),
    ("cafe\u{0301}", "caf\u{00E9}"),
    ("na\u{00EF}ve", "na\u{00EF}ve"),
    ("😀", "😀"),
    ("👍🏽", "👍🏽"),
    ("👨\u{200D}👩\u{200D}👧", "👨\u{200D}👩\u{200D}👧"),
    ("中文", "中文"),
    ("発表", "発表"),
    ("15%", "15%"),
    ("2,340", "2,340"),
    ("OAuth\u{00A0}2.0", "oauth 2.0"),
    ("Ωmega", "ωmega"),
    ("x\u{2026}", "x..."),
];

const SEPARATORS: &[(&str, &str)] = &[
    (" ", " "),
    ("  ", " "),
    ("\r\n", " "),
    ("\n", " "),
    ("\t", " "),
    ("\u{00A0}", " "),
    (" \u{2014} ", " - "),
    (", ", ", "),
];

fn document(words: &[usize], seps: &[usize]) -> (String, Vec<(usize, usize)>) {
    let mut doc = String::new();
    let mut spans = Vec::new();
    for (i, &w) in words.iter().enumerate() {
        if i > 0 {
            doc.push_str(SEPARATORS[seps[i % seps.len()]].0);
        }
        let start = doc.len();
        doc.push_str(WORDS[w].0);
        spans.push((start, doc.len()));
    }
    (doc, spans)
}

fn retyped(words: &[usize], seps: &[usize], from: usize, to: usize) -> String {
    let mut q = String::new();
    for i in from..=to {
        if i > from {
            q.push_str(SEPARATORS[seps[i % seps.len()]].1);
        }
        q.push_str(WORDS[words[i]].1);
    }
    q
}

/// Every span slices to its `matched_text` in bytes, code points and
/// UTF-16, with its line and column (`invariants::span_slices_to`).
fn assert_spans_hold(doc: &str, found: &[evidence_validator::validate::FoundMatch]) {
    for m in found {
        if let Err(e) =
            invariants::span_slices_to(doc, invariants::Offsets::of_report(&m.location), &m.matched_text, "match")
        {
            panic!("{e} in {doc:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn retyped_quote_is_found_where_it_was_written(
        words in prop::collection::vec(0..WORDS.len(), 2..40),
        seps in prop::collection::vec(0..SEPARATORS.len(), 1..8),
        a in 0usize..40, b in 0usize..40,
    ) {
        let (doc, spans) = document(&words, &seps);
        let (from, to) = { let (x, y) = (a % words.len(), b % words.len()); (x.min(y), x.max(y)) };
        let quote = retyped(&words, &seps, from, to);
        let d = Document::new(doc.clone(), Some(Format::PlainText)).unwrap();
        let found = find_quote(&d, &quote, Profile::default(), 0);
        assert_spans_hold(&doc, &found);
        let want = (spans[from].0, spans[to].1);
        prop_assert!(
            found.iter().any(|m| (m.location.byte_start, m.location.byte_end) == want),
            "quote {:?} not found at {:?} in {:?}: {:?}", quote, want, doc, found
        );
    }

    #[test]
    fn any_substring_query_reports_only_true_spans(
        words in prop::collection::vec(0..WORDS.len(), 1..30),
        seps in prop::collection::vec(0..SEPARATORS.len(), 1..8),
        a in 0usize..400, len in 1usize..60, k in 0usize..4,
    ) {
        let (doc, _) = document(&words, &seps);
        let chars: Vec<char> = doc.chars().collect();
        let start = a % chars.len();
        let quote: String = chars[start..(start + len).min(chars.len())].iter().collect();
        let d = Document::new(doc.clone(), Some(Format::PlainText)).unwrap();
        assert_spans_hold(&doc, &find_quote(&d, &quote, Profile::default(), k));
        let exact = Profile { fold_case: false, collapse_whitespace: false };
        assert_spans_hold(&doc, &find_quote(&d, &quote, exact, k));
    }
}
