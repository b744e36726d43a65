//! A `Document` asked one claim or one quote after another answers from its
//! gram index once it is built (from the second such search on); a fresh
//! `Document` scans its text. Both must give the same reports, on text with
//! emoji, CJK, combining marks, curly quotes and CRLF line ends, for
//! verbatim, edited and absent quotes, and quotes of every length around
//! the index's 8-byte minimum.
#![cfg(not(target_arch = "wasm32"))]

use super::fuzzy_common::{mutate, Rng};
use crate::host::FixedClock;
use crate::text::Profile;
use crate::validate::{self, ClaimSet, Config};
use crate::{Document, Format};
use serde_json::json;

fn make_text(rng: &mut Rng) -> String {
    let words = [
        "the",
        "borrow",
        "checker",
        "ensures",
        "références",
        "naïve",
        "中文",
        "文本",
        "😀",
        "e\u{301}cole",
        "\u{201C}quoted\u{201D}",
        "it\u{2019}s",
        "1,000",
        "3.5",
        "not",
        "never",
        "ownership",
        "rules",
        "prevent",
        "you",
        "from",
        "doing",
        "so",
        "ﬁle",
    ];
    let mut text = String::new();
    while text.len() < 40_000 {
        text.push_str(rng.pick(&words));
        text.push_str(rng.pick(&[" ", " ", " ", " ", ", ", ". ", "\r\n", "\n\n"]));
    }
    text
}

#[test]
fn reused_document_answers_like_a_fresh_one() {
    let mut rng = Rng::new(7);
    let text = make_text(&mut rng);
    let chars: Vec<char> = text.chars().collect();
    let shared = Document::new(text.as_str(), Some(Format::PlainText)).unwrap();
    let config = Config::default();
    let letters = ['x', 'q', 'z', 'é', ' ', '中'];
    for i in 0..150 {
        let len = rng.pick(&[10, 11, 12, 14, 16, 20, 30, 45, 80, 200]);
        let at = rng.below(chars.len() - len);
        let mut quote: Vec<char> = chars[at..at + len].to_vec();
        match i % 4 {
            0 | 1 => {}
            2 => {
                let edits = rng.range(1, 3);
                mutate(&mut rng, &mut quote, &letters, edits);
            }
            _ => quote = "qqqq zzzz wwww xxxx".chars().collect(),
        }
        let quote: String = quote.into_iter().collect();
        if quote.trim().chars().count() < 10 {
            continue;
        }
        let claims = ClaimSet::from_json(&json!({
            "claims": [{"id": format!("EV{i:03}"), "task_id": "P1.T1", "quote": quote, "evidence_type": "direct_quote"}]
        }))
        .unwrap()
        .claims;
        let fresh = Document::new(text.as_str(), Some(Format::PlainText)).unwrap();
        let want = validate::validate_document(&fresh, &claims, &config, &FixedClock(0.0)).unwrap();
        let got = validate::validate_document(&shared, &claims, &config, &FixedClock(0.0)).unwrap();
        assert_eq!(serde_json::to_value(&got).unwrap(), serde_json::to_value(&want).unwrap(), "claim {i}: {quote:?}");

        let fresh = Document::new(text.as_str(), Some(Format::PlainText)).unwrap();
        for k in [0, 3] {
            let want = validate::find_quote(&fresh, &quote, Profile::default(), k);
            let got = validate::find_quote(&shared, &quote, Profile::default(), k);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "find {i} (k = {k}): {quote:?}");
        }
    }
    // the shared document did build its gram index
    let fresh = Document::new(text.as_str(), Some(Format::PlainText)).unwrap();
    let _ = validate::find_quote(&fresh, "the borrow checker", Profile::default(), 3);
    assert!(shared.heap_bytes() > fresh.heap_bytes() + text.len(), "{} vs {}", shared.heap_bytes(), fresh.heap_bytes());
}
