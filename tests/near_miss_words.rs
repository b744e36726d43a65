//! A direct quote too far from the source for a fuzzy match (a word
//! changed for one of other letters: `before` for `after`) fails, and its
//! suggestions say which word, where: not only that the closest passage is
//! listed.
#![cfg(not(target_arch = "wasm32"))]

mod common;

const SOURCE: &str = "Release notes 😀 前言。\r\n\
    Run the “migration” after the backup completes on every node.\r\n\
    \r\n\
    The scheduler retries a failed job three times before it gives up.\r\n";

fn failed(quotes: &[&str]) -> Vec<(String, Vec<String>)> {
    let report = common::report_of(SOURCE, quotes, "direct_quote");
    let statuses: Vec<String> = report["validated_claims"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["validation_status"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(statuses.len(), quotes.len(), "{report:#}");
    statuses
        .into_iter()
        .enumerate()
        .map(|(i, status)| {
            let id = format!("EV{i:03}");
            let suggestions = report["failed_claims"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|f| f["claim_id"] == id.as_str())
                .flat_map(|f| f["suggestions"].as_array().cloned().unwrap_or_default())
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect();
            (status, suggestions)
        })
        .collect()
}

#[test]
fn a_changed_word_beyond_the_edit_limit_is_named_with_its_line() {
    let got = failed(&[
        "Run the \"migration\" before the backup completes on every node.",
        "The scheduler retries a failed job three times after it gives up.",
        "Nothing in these notes says anything like this sentence at all.",
    ]);
    let [(before, b), (after, a), (absent, n)] = got.as_slice() else { panic!("{got:?}") };
    assert_eq!((before.as_str(), after.as_str(), absent.as_str()), ("FAILED", "FAILED", "FAILED"));
    assert_eq!(
        b.first().map(String::as_str),
        Some("The source at line 2 says \"after\" where the quote says \"before\": correct the quote."),
        "{b:?}"
    );
    assert_eq!(
        a.first().map(String::as_str),
        Some("The source at line 4 says \"before\" where the quote says \"after\": correct the quote."),
        "{a:?}"
    );
    assert!(n.iter().all(|s| !s.contains("where the quote says")), "{n:?}");
}
