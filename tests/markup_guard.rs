//! What a quote's markup says is evidence too: a quote whose text is the
//! source's but whose link destination, image source or tag attributes
//! are not the source's at that place (a changed pull-request number in a
//! URL, another host) is not VALIDATED: LOW_CONFIDENCE with a
//! `MARKUP_MISMATCH` warning and a `markup` discrepancy naming the quote's
//! part and the source's text there. The same markup, or the rendered text
//! alone, stays VALIDATED; a bare formatting tag asks nothing. Markdown and
//! HTML sources, with emoji, CJK and CRLF around; spans checked in every
//! unit system.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::host::FixedClock;
use evidence_validator::validate_evidence;
use serde_json::{json, Value};

fn validate(source: &str, format: &str, quotes: &[&str]) -> Value {
    let claims: Vec<Value> = quotes
        .iter()
        .enumerate()
        .map(|(i, q)| json!({"id": format!("EV{i:03}"), "task_id": "P1.T001", "quote": q, "evidence_type": "direct_quote"}))
        .collect();
    let claims = json!({"source_metadata": {"format": format}, "claims": claims});
    let report = validate_evidence(source, &claims, &Value::Null, &FixedClock(0.0)).expect("valid input");
    let report = serde_json::to_value(report).expect("serializable");
    // one result per quote: the loops over them below see every quote
    assert_eq!(report["validated_claims"].as_array().map(Vec::len), Some(quotes.len()), "{report:#}");
    spans_hold(source, &report);
    report
}

/// Every match's span slices the source to its matched text (bytes, code
/// points, UTF-16).
fn spans_hold(source: &str, report: &Value) {
    let utf16: Vec<u16> = source.encode_utf16().collect();
    let chars: Vec<char> = source.chars().collect();
    for r in report["validated_claims"].as_array().into_iter().flatten() {
        let Some(m) = r.get("match_details") else { continue };
        let text = m["matched_text"].as_str().unwrap_or("");
        let n = |k: &str| m[k].as_u64().unwrap_or(u64::MAX) as usize;
        assert_eq!(source.get(n("byte_start")..n("byte_end")), Some(text), "bytes {m}");
        let by_chars: String =
            chars.get(n("start_position")..n("end_position")).map(|c| c.iter().collect()).unwrap_or_default();
        assert_eq!(by_chars, text, "code points {m}");
        let by_utf16 = utf16.get(n("utf16_start")..n("utf16_end")).and_then(|u| String::from_utf16(u).ok());
        assert_eq!(by_utf16.as_deref(), Some(text), "UTF-16 {m}");
    }
}

fn statuses(report: &Value) -> Vec<String> {
    report["validated_claims"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["validation_status"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The claim's markup discrepancy's quote side, and whether its warning is there.
fn markup_mismatch(report: &Value, i: usize) -> Option<Vec<String>> {
    let r = &report["validated_claims"][i];
    let id = r["claim_id"].as_str().unwrap_or("");
    let d = r["match_details"]["discrepancies"].as_array()?.iter().find(|d| d["kind"] == "markup")?;
    let warned = report["warnings"].as_array()?.iter().any(|w| w["code"] == "MARKUP_MISMATCH" && w["claim_id"] == id);
    assert!(warned, "no MARKUP_MISMATCH warning for {id}");
    Some(d["quote"].as_array()?.iter().filter_map(|q| q.as_str().map(str::to_string)).collect())
}

const MARKDOWN: &str = "# Notes 😀\r\n\r\n前言：Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49849) for this release 🎉.\r\n\r\nSee the ![chart](img/chart-2023.png \"Q3 chart\") and the [guide](https://example.com/guide) first.\r\n";

#[test]
fn a_changed_link_destination_in_markdown_is_refused() {
    let quotes = [
        // 0-1: the destination's number, the host
        "Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49850) for this release",
        "Contributed by Joyee Cheung in [#49849](https://evil.example.com/nodejs/node/pull/49849) for this release",
        // 2: the quote ends with the link
        "Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49848)",
        // 3: an image's source; 4: its title
        "See the ![chart](img/chart-2024.png \"Q3 chart\") and the",
        "See the ![chart](img/chart-2023.png \"Q4 chart\") and the",
        // 5: a shortened destination is another destination
        "Contributed by Joyee Cheung in [#49849](https://github.com/49849) for this release",
    ];
    let report = validate(MARKDOWN, "markdown", &quotes);
    let want = [
        "https://github.com/nodejs/node/pull/49850",
        "https://evil.example.com/nodejs/node/pull/49849",
        "https://github.com/nodejs/node/pull/49848",
        "img/chart-2024.png \"Q3 chart",
        "img/chart-2023.png \"Q4 chart",
        "https://github.com/49849",
    ];
    for (i, s) in statuses(&report).iter().enumerate() {
        assert_eq!(s, "LOW_CONFIDENCE", "{}: {:#}", quotes[i], report["validated_claims"][i]);
        assert_eq!(markup_mismatch(&report, i), Some(vec![want[i].to_string()]), "{}", quotes[i]);
    }
}

#[test]
fn the_same_markup_or_the_rendered_text_stays_validated() {
    let quotes = [
        "Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49849) for this release",
        "Contributed by Joyee Cheung in #49849 for this release",
        "See the ![chart](img/chart-2023.png \"Q3 chart\") and the [guide](https://example.com/guide) first.",
        "See the chart and the guide first.",
        "[#49849](https://github.com/nodejs/node/pull/49849)",
        // a bare formatting tag the source writes as markdown emphasis
        "See the chart and the <em>guide</em> first.",
    ];
    let report = validate(MARKDOWN, "markdown", &quotes);
    for (i, s) in statuses(&report).iter().enumerate() {
        assert_eq!(s, "VALIDATED", "{}: {:#}", quotes[i], report["validated_claims"][i]);
        assert_eq!(markup_mismatch(&report, i), None);
    }
}

const HTML: &str = "<html><body><h1>Notes 😀</h1>\n<p>前言：Fixed in <a href=\"https://github.com/acme/app/pull/1207\" title=\"PR 1207\">the patch</a> by the on-call team 🎉.</p>\n<p>Logo: <img src=\"/static/logo-v2.svg\" alt=\"logo\"> shown on every page.</p></body></html>";

#[test]
fn a_changed_attribute_in_html_is_refused_and_the_same_one_is_not() {
    let quotes = [
        "Fixed in <a href=\"https://github.com/acme/app/pull/1208\" title=\"PR 1207\">the patch</a> by the on-call team",
        "Fixed in <a href=\"https://github.com/acme/app/pull/1207\" title=\"PR 1209\">the patch</a> by the on-call team",
        "Logo: <img src=\"/static/logo-v3.svg\" alt=\"logo\"> shown on every page.",
        // the same, with the other quote mark and spacing
        "Fixed in <a href='https://github.com/acme/app/pull/1207'  title='PR 1207'>the patch</a> by the on-call team",
        "Fixed in the patch by the on-call team",
        "Logo: <img src=\"/static/logo-v2.svg\" alt=\"logo\"> shown on every page.",
    ];
    let report = validate(HTML, "html", &quotes);
    let s = statuses(&report);
    assert_eq!(
        s,
        ["LOW_CONFIDENCE", "LOW_CONFIDENCE", "LOW_CONFIDENCE", "VALIDATED", "VALIDATED", "VALIDATED"],
        "{report:#}"
    );
    assert!(markup_mismatch(&report, 0).is_some_and(|q| q.iter().any(|p| p.contains("pull/1208"))));
    assert!(markup_mismatch(&report, 1).is_some_and(|q| q.iter().any(|p| p.contains("PR 1209"))));
    assert!(markup_mismatch(&report, 2).is_some_and(|q| q.iter().any(|p| p.contains("logo-v3.svg"))));
}

/// Random markdown lists of links: every line quoted as written is
/// VALIDATED; the same line with one digit of its destination changed
/// never is.
#[test]
fn every_link_quoted_as_written_passes_and_every_changed_digit_fails() {
    let mut seed = 0x5eed_0030_u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for round in 0..8 {
        let mut lines = Vec::new();
        for i in 0..60 {
            let pr = 10_000 + next(90_000);
            let word = ["fix", "doc", "test", "lib", "src"][next(5) as usize];
            lines.push(format!(
                "* {word}: item {round}-{i} by 作者{i} 😀 in [#{pr}](https://github.com/org/repo/pull/{pr})"
            ));
        }
        let source = format!("# Changes {round}\n\n{}\n", lines.join("\n"));
        let mut quotes: Vec<String> = lines.iter().map(|l| l.trim_start_matches("* ").to_string()).collect();
        let changed: Vec<String> = quotes
            .iter()
            .map(|q| {
                let at = q.rfind("pull/").unwrap_or(0) + 5 + next(5) as usize;
                let mut b = q.clone().into_bytes();
                b[at] = b'0' + (b[at] - b'0' + 1) % 10;
                String::from_utf8(b).unwrap_or_default()
            })
            .collect();
        quotes.extend(changed);
        let refs: Vec<&str> = quotes.iter().map(String::as_str).collect();
        let report = validate(&source, "markdown", &refs);
        let s = statuses(&report);
        assert!(s[..60].iter().all(|s| s == "VALIDATED"), "round {round}: {:?}", &s[..60]);
        for i in 60..120 {
            assert_ne!(s[i], "VALIDATED", "round {round}: {}", refs[i]);
            assert!(markup_mismatch(&report, i).is_some(), "round {round}: {}", refs[i]);
        }
    }
}

/// `find` (the CLI's `find`, JS `Document.find`) applies the same check: a
/// place whose markup is not the quote's is a `substitution` with a
/// `markup` edit naming the quote's part; the same markup is not.
#[test]
fn find_marks_a_place_whose_markup_differs() {
    use evidence_validator::validate::{find, FindOptions};
    use evidence_validator::{Document, Format};
    let find_one = |source: &str, format: Format, quote: &str| {
        let doc = Document::new(source, Some(format)).expect("a document");
        let found = find(&doc, quote, &FindOptions::default(), &FixedClock(0.0));
        assert_eq!(found.matches.len(), 1, "{quote}: {found:?}");
        found.matches.into_iter().next().expect("one match")
    };
    let bent = find_one(MARKDOWN, Format::Markdown, "in [#49849](https://github.com/nodejs/node/pull/49850) for this");
    assert!(bent.substitution);
    let markup: Vec<_> = bent.edits.iter().filter(|e| e.reason == "markup").collect();
    assert_eq!(markup.len(), 1, "{:?}", bent.edits);
    assert_eq!(markup[0].quote, "https://github.com/nodejs/node/pull/49850");
    assert!(markup[0].source.contains("pull/49849"), "{}", markup[0].source);
    assert_eq!(MARKDOWN.get(bent.location.byte_start..bent.location.byte_end), Some(bent.matched_text.as_str()));

    let same = find_one(MARKDOWN, Format::Markdown, "in [#49849](https://github.com/nodejs/node/pull/49849) for this");
    assert!(!same.substitution && same.edits.is_empty(), "{:?}", same.edits);
    let html = find_one(
        HTML,
        Format::Html,
        "<a href=\"https://github.com/acme/app/pull/1208\" title=\"PR 1207\">the patch</a>",
    );
    assert!(html.substitution && html.edits.iter().any(|e| e.reason == "markup" && e.quote.contains("1208")));
}
