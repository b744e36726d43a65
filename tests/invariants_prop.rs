//! The fuzz targets' invariants (tests/invariants/) as property tests in the
//! normal suite: each target gets inputs built from pieces of its own
//! grammar (markup, timestamps, citation links, verdict words, numbers and
//! units) mixed with arbitrary Unicode (emoji, CJK, combining marks, curly
//! quotes, CRLF), or random bytes for the structured targets, which read
//! them with `arbitrary` as the fuzzer does. A fixed case budget per target
//! keeps the suite fast; the fuzzer (scripts/fuzz.sh) runs the same checks
//! for millions of inputs.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use invariants::targets;
use proptest::prelude::*;

/// Cases per target.
const CASES: u32 = 200;

/// Text the library must handle in every unit system.
const HOSTILE: &[&str] = &[
    "😀",
    "👍🏽",
    "👨\u{200D}👩\u{200D}👧",
    "中文",
    "発表",
    "cafe\u{0301}",
    "e\u{0301}\u{0327}",
    "\u{201C}q\u{201D}",
    "it\u{2019}s",
    "\u{FB01}",
    "\r\n",
    "\n",
    "\t",
    "\u{00A0}",
    "\u{00AD}",
    "\u{2028}",
    "İ",
    "ß",
    "Σς",
    " ",
    "  ",
];

fn text(pieces: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(pieces).prop_map(str::to_string),
        2 => prop::sample::select(HOSTILE).prop_map(str::to_string),
        1 => any::<String>(),
        2 => "[a-zA-Z0-9 .,%$:\\-]{0,12}",
    ];
    prop::collection::vec(piece, 0..max).prop_map(|v| v.concat())
}

/// A target's input: a selector byte, then texts joined by U+0001.
fn input(selector: u8, texts: &[String]) -> Vec<u8> {
    let mut v = vec![selector];
    v.extend_from_slice(texts.join("\u{1}").as_bytes());
    v
}

const MARKUP: &[&str] = &[
    "# Title\n",
    "## Sub\n",
    "Setext\n===\n",
    "<h2>H</h2>",
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "&amp;",
    "&#x1F600;",
    "&bogus;",
    "<!--",
    "-->",
    "<script>x</script>",
    "<template>t</template>",
    "<div hidden>h</div>",
    "**b**",
    "_i_",
    "`c`",
    "[l](http://x)",
    "> q\n",
    "- item\n",
    "1. one\n",
    "| a | b |\n|---|---|\n",
    "```\ncode\n```\n",
    "evi-\ndence",
    "Revenue grew 15% to $3.2 billion.",
    "The system must not fail.",
];
const TIMING: &[&str] = &[
    "1\n00:00:01,000 --> 00:00:04,000\n",
    "WEBVTT\n\n",
    "00:00:01.000 --> 00:00:04.500\n",
    "<v Ann>",
    "</v>",
    "\n\n",
    "{\"segments\":[{\"start\":0,\"end\":2.5,\"text\":\"",
    "\"}]}",
    "{\"text\":\"",
    "\",\"words\":[",
    "{\"word\":\"hi\",\"start\":0.1,\"end\":0.4}",
    "hello there world",
    "the quick brown fox",
    "NOTE x\n",
];
const CITATIONS: &[&str] = &[
    "[data.csv:L3-L5](src/data.csv)",
    "[a.rs:L7](a.rs)",
    "[x:L7-L5](y)",
    "[x:L0](y)",
    "[f:L99999999999999999999](g)",
    " \"quoted words here\" ",
    " > quote\n",
    "```\n",
    "`[a:L1](b)`",
    "\n\n",
    "The claim is that",
    ". ",
];
const ANSWERS: &[&str] = &[
    "{\"verdict\":\"VALID\"",
    "\"verdict\": \"MISLEADING\"",
    ",\"reason\":\"r\"}",
    "{",
    "}",
    "```json\n",
    "```",
    "<think>",
    "</think>",
    "VALID",
    "INSUFFICIENT",
    "UNSUPPORTED",
    "Verdict:",
    "not",
    "{\"choices\":[{\"message\":{\"content\":\"",
    "\"}}]}",
    "true",
    "false",
    ",\"supports_claim\":false",
];
const NUMBERS: &[&str] = &[
    "15%",
    "15 percent",
    "$3.2 billion",
    "3,200 million",
    "five",
    "2,340",
    "Q3 2024",
    "FY2023",
    "in 2021",
    "-4.5",
    "1e9",
    "99999999999999999999999",
    "0.0001",
    "half",
    "twice",
    "revenue",
    "Apple",
    "rose",
    "fell",
    " to ",
    "from ",
    "between 3 and 5",
    "3-5",
    "per cent",
    "€",
    "¥",
    "USD",
    "km",
    "mph",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn document(sel in any::<u8>(), src in text(MARKUP, 16)) {
        let r = targets::document(&input(sel, &[src]));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn normalize(sel in any::<u8>(), src in text(MARKUP, 12)) {
        let r = targets::normalize(&input(sel, &[src]));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn find(sel in any::<u8>(), src in text(MARKUP, 12), a in any::<prop::sample::Index>(), n in 1usize..40) {
        // the quote: a piece of the source (so something is found), retyped in lower case
        let chars: Vec<char> = src.chars().collect();
        let quote: String = if chars.is_empty() { String::new() } else {
            let s = a.index(chars.len());
            chars[s..(s + n).min(chars.len())].iter().collect::<String>().to_lowercase()
        };
        let r = targets::find(&input(sel, &[src, quote]));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn validate(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let r = targets::validate(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn validate_json(src in text(MARKUP, 8), quote in text(MARKUP, 3), garbage in text(ANSWERS, 4)) {
        let claims = serde_json::json!({"claims": [{"id": "EV1", "task_id": "P1.T001", "quote": quote, "evidence_type": "direct_quote"}]});
        for (c, cfg) in [(claims.to_string(), String::new()), (garbage.clone(), garbage.clone()), (claims.to_string(), garbage)] {
            let mut v = src.clone().into_bytes();
            v.extend_from_slice(format!("\u{1}{c}\u{1}{cfg}").as_bytes());
            let r = targets::validate_json(&v);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }

    #[test]
    fn transcript(sel in any::<u8>(), t in text(TIMING, 16), quote in text(TIMING, 3)) {
        let r = targets::transcript(&input(sel, &[t, quote]));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn transcript_json(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let r = targets::transcript_json(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn citations(md in text(CITATIONS, 16)) {
        let r = targets::citations(md.as_bytes());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn ballot(answer in text(ANSWERS, 10)) {
        let r = targets::ballot(answer.as_bytes());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn finding(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let r = targets::finding(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn numeric(claim in text(NUMBERS, 8), evidence in text(NUMBERS, 10)) {
        let r = targets::numeric(format!("{claim}\u{1}{evidence}").as_bytes());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn cite(bytes in prop::collection::vec(any::<u8>(), 0..800)) {
        let r = targets::cite(&bytes);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn every_target_has_a_property_test_and_a_fuzz_target() {
    let this = include_str!("invariants_prop.rs");
    for (name, _) in targets::ALL {
        assert!(this.contains(&format!("fn {name}(")), "no property test for {name}");
        let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("fuzz/fuzz_targets/{name}.rs"));
        assert!(fuzz.is_file(), "no fuzz target {}", fuzz.display());
    }
}
