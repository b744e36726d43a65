//! Hidden text is no evidence (issue 13): a quote found only in text no
//! reader sees (`<template>`, `hidden`, `aria-hidden="true"`, inline
//! `display:none` / `visibility:hidden`, `<noscript>`, `<script>`, `<style>`,
//! in HTML and as raw HTML in markdown) is never VALIDATED, and is reported
//! as hidden with the span of the hidden occurrence; visible text and its
//! spans are unchanged; `document_processing.include_hidden_text` searches it.
#![cfg(not(target_arch = "wasm32"))]

#[path = "extract_common/mod.rs"]
mod common;

use common::{check_invariants, random_input, Rng};
use evidence_validator::extract::{extract_html, extract_html_with};
use evidence_validator::extract::{extract_markdown, extract_markdown_parts};
use evidence_validator::extract::{Extracted, HiddenReason, Unit};
use evidence_validator::host::FixedClock;
use evidence_validator::{validate_evidence, Document, Format};
use serde_json::{json, Value};

const QUOTE: &str = "the audit found no critical vulnerabilities";
const VISIBLE: &str = "Revenue grew 15% in the third quarter";

/// Every hidden form, as HTML wrapped around `inner`, with the reason it gives.
fn html_forms(inner: &str) -> Vec<(String, HiddenReason)> {
    vec![
        (format!("<template><p>{inner}</p></template>"), HiddenReason::Template),
        (format!("<div hidden>{inner}</div>"), HiddenReason::HiddenAttribute),
        (format!("<span HIDDEN=\"false\">{inner}</span>"), HiddenReason::HiddenAttribute),
        (format!("<p aria-hidden=\"true\">{inner}</p>"), HiddenReason::AriaHidden),
        (format!("<div aria-hidden = ' TRUE '>{inner}</div>"), HiddenReason::AriaHidden),
        (format!("<div style=\"display:none\">{inner}</div>"), HiddenReason::DisplayNone),
        (format!("<div style='color: red ; DISPLAY :  None !important'>{inner}</div>"), HiddenReason::DisplayNone),
        (format!("<div style=\"display&#58;none\">{inner}</div>"), HiddenReason::DisplayNone),
        (format!("<section style=\"visibility:hidden\">{inner}</section>"), HiddenReason::VisibilityHidden),
        (format!("<div style=\"Visibility: Collapse\">{inner}</div>"), HiddenReason::VisibilityHidden),
        (format!("<noscript>{inner}</noscript>"), HiddenReason::Noscript),
        (format!("<script>// {inner}\n</script>"), HiddenReason::Script),
        (format!("<style>/* {inner} */</style>"), HiddenReason::Style),
    ]
}

/// Checks the units of `x` (visible and hidden) against `src`: sorted,
/// disjoint, each unit the char it stands for (or a reference, a tag's
/// newline), every hidden unit inside its region.
fn check_all(src: &str, x: &Extracted, pipes: bool) {
    check_invariants(src, x, pipes);
    let hidden = Extracted { units: x.hidden.units.clone(), headings: Vec::new(), hidden: Default::default() };
    check_invariants(src, &hidden, pipes);
    for u in &x.hidden.units {
        let r = x.hidden.region_at(u.start as usize).expect("hidden unit outside every region");
        assert!(u.end <= r.end, "{u:?} not inside {r:?}");
        assert!(!x.units.iter().any(|v| v.start < u.end && u.start < v.end), "{u:?} is also visible");
    }
    assert!(x.hidden.regions.windows(2).all(|w| w[0].end <= w[1].start), "{:?}", x.hidden.regions);
}

/// Visible and hidden units merged in source order.
fn merged(x: &Extracted) -> Vec<Unit> {
    let mut all: Vec<Unit> = x.units.iter().chain(&x.hidden.units).copied().collect();
    all.sort_by_key(|u| u.start);
    all
}

#[test]
fn every_html_form_is_hidden_and_visible_text_is_unchanged() {
    for (hidden, reason) in html_forms(QUOTE) {
        // emoji, CJK and CRLF around the hidden element
        let src = format!("<p>😀 {VISIBLE} 中文</p>\r\n{hidden}\r\n<p>after 👍🏽 発表</p>");
        let x = extract_html(&src);
        check_all(&src, &x, false);
        let visible = x.text();
        assert!(!visible.contains("audit"), "{src:?}: {visible:?}");
        assert!(visible.contains(&format!("😀 {VISIBLE} 中文")) && visible.contains("after 👍🏽 発表"), "{visible:?}");
        // the visible text is what it was without the hidden element
        let without = format!("<p>😀 {VISIBLE} 中文</p>\r\n\r\n<p>after 👍🏽 発表</p>");
        let plain: String = extract_html(&without).units.iter().map(|u| u.ch).filter(|c| *c != '\n').collect();
        assert_eq!(visible.replace('\n', ""), plain, "{src:?}");
        assert!(x.hidden.text().contains(QUOTE), "{src:?}: hidden {:?}", x.hidden.text());
        assert_eq!(x.hidden.regions.len(), 1, "{src:?}: {:?}", x.hidden.regions);
        assert_eq!(x.hidden.regions[0].reason, reason, "{src:?}");
        // each hidden unit points at its own bytes
        let q = src.find(QUOTE).unwrap();
        let first = x.hidden.units.iter().find(|u| u.ch == 't').unwrap();
        assert_eq!(first.start as usize, q, "{src:?}");
        // with include_hidden the text is all of it, in source order
        let all = extract_html_with(&src, true);
        check_invariants(&src, &all, false);
        assert!(all.hidden.is_empty());
        assert_eq!(all.units, merged(&x), "{src:?}");
    }
}

#[test]
fn html_subtrees_void_elements_nesting_and_malformed_tags() {
    let hid = |src: &str| {
        let x = extract_html(src);
        check_all(src, &x, false);
        (x.text().replace('\n', "|"), x.hidden.text().replace('\n', "|"))
    };
    // the whole subtree, nested elements of the same name included
    assert_eq!(hid("a<div hidden>b<div>c</div>d</div>e"), ("a||e".into(), "b|c|d".into()));
    assert_eq!(hid("a<span hidden>b<span>c</span>d</span>e"), ("ae".into(), "bcd".into()));
    // void elements hide nothing
    assert_eq!(
        hid("a<br hidden>b<img hidden src=x>c<input hidden value=v>d<hr hidden>e"),
        ("a|bcd|e".into(), "".into())
    );
    // an unclosed hidden element hides the rest, as in a browser
    assert_eq!(hid("a<span hidden>b<p>c"), ("a".into(), "b|c".into()));
    // an ancestor's end tag closes it; a stray end tag does not
    assert_eq!(hid("<div>a<span hidden>b</div>c"), ("|a|c".into(), "b".into()));
    assert_eq!(hid("a<span hidden>b</i></div>c</span>d"), ("ad".into(), "b|c".into()));
    // <p hidden> is closed by the next block, <li hidden> by the next item
    assert_eq!(hid("<p hidden>a<p>b"), ("||b".into(), "a".into()));
    assert_eq!(hid("<p hidden>a<b><i>b<div>c"), ("||c".into(), "ab".into()));
    assert_eq!(hid("<ul><li hidden>a<li>b</ul>"), ("|||b|".into(), "a".into()));
    // display:none cannot be undone inside; visibility can
    assert_eq!(hid("<div style=display:none>a<span style=display:block>b</span></div>c"), ("||c".into(), "ab".into()));
    assert_eq!(
        hid("<div style=visibility:hidden>a<b style=\"visibility:visible\">b</b>c</div>d"),
        ("|b|d".into(), "ac".into())
    );
    // not hidden: other values and look-alikes
    assert_eq!(
        hid("<p aria-hidden=false data-hidden=1 class=hidden title=\"hidden\">a</p>"),
        ("|a|".into(), "".into())
    );
    assert_eq!(hid("<p style=\"display:none;display:block\">a</p>"), ("|a|".into(), "".into()));
    assert_eq!(hid("<p style=\"display:inline\" hidden-ish>a</p>"), ("|a|".into(), "".into()));
    // malformed attributes: unquoted, unterminated quotes, `=` first, `>` in a value
    assert_eq!(hid("<p title=\"x > y\" hidden>a</p>b"), ("||b".into(), "a".into()));
    assert_eq!(hid("<p =hidden>a</p>"), ("|a|".into(), "".into()));
    assert_eq!(hid("<p hidden=>a</p>b"), ("||b".into(), "a".into()));
    assert_eq!(hid("<p style=display:none>a</p>b"), ("||b".into(), "a".into()));
    assert_eq!(hid("a<p hidden"), ("a".into(), "".into()));
    assert_eq!(hid("a<p style=\"display:none>b"), ("a".into(), "".into()));
    // a hidden heading is no heading; a visible one keeps only its visible words
    let src = "<h1 hidden>Secret</h1><h2>Shown <span hidden>not</span>here</h2>";
    let x = extract_html(src);
    check_all(src, &x, false);
    assert_eq!(x.headings.iter().map(|h| h.title.as_str()).collect::<Vec<_>>(), ["Shown here"]);
    // textarea, title and xmp obey their own attributes
    assert_eq!(hid("<textarea hidden>a</textarea>b"), ("||b".into(), "a".into()));
}

#[test]
fn markdown_raw_html_hides_inline_and_across_blocks() {
    let md = |src: &str| {
        let x = extract_markdown(src);
        check_all(src, &x, true);
        (x.text(), x.hidden.text())
    };
    for (hidden, reason) in html_forms(QUOTE) {
        // inline, in a paragraph
        let src = format!("# Title\r\n\r\n😀 {VISIBLE} {hidden} 中文\r\n");
        let x = extract_markdown(&src);
        check_all(&src, &x, true);
        assert!(!x.text().contains("audit"), "{src:?}: {:?}", x.text());
        assert!(x.text().contains(&format!("😀 {VISIBLE} ")) && x.text().contains(" 中文"), "{:?}", x.text());
        assert!(x.hidden.text().contains(QUOTE), "{src:?}: {:?}", x.hidden.text());
        assert_eq!(x.hidden.regions.first().map(|r| r.reason), Some(reason), "{src:?}");
        let (_, hidden_part) = extract_markdown_parts(&src, false, |_| {});
        assert_eq!(hidden_part, x.hidden);
        let mut all = Vec::new();
        let (_, none) = extract_markdown_parts(&src, true, |u| all.extend_from_slice(u));
        assert!(none.is_empty());
        assert_eq!(all, merged(&x), "{src:?}");
    }
    // a hidden block spanning blank lines, markdown inside it, a heading in it
    let src = "Before.\n\n<div hidden>\n\nSecret *one*.\n\n# Secret heading\n\n- item\n\n</div>\n\nAfter.\n";
    let (text, hidden) = md(src);
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["Before.", "After."]);
    assert_eq!(hidden.split_whitespace().collect::<Vec<_>>(), ["Secret", "one.", "Secret", "heading", "item"]);
    assert!(extract_markdown(src).headings.is_empty());
    // script and style blocks: raw text, blank lines and markup inside
    let src = "a\n\n<script>\nlet s = \"</div>\";\n\n# not a heading\n</script>\n\nb <style>p { }</style> c\n";
    let (text, hidden) = md(src);
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert!(hidden.contains("not a heading") && hidden.contains("p { }"), "{hidden:?}");
    // a raw <p hidden> is closed by the next block markdown renders (its <p>)
    let (text, hidden) = md("<p hidden>secret\n\nNext paragraph.\n\n# Heading\n");
    assert_eq!(
        (text.split_whitespace().collect::<Vec<_>>(), hidden.trim()),
        (vec!["Next", "paragraph.", "Heading"], "secret")
    );
    let (text, hidden) = md("text <p hidden><b>secret</b> more\n\n- item\n");
    assert_eq!((text.split_whitespace().collect::<Vec<_>>(), hidden.trim()), (vec!["text", "item"], "secret more"));
    // but not a <div hidden>
    let (text, _) = md("<div hidden>secret\n\nstill hidden\n\n</div>\n\nshown\n");
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["shown"]);
    // code is not HTML: tags in code spans and fences hide nothing
    let src = "`<template>` and\n\n```html\n<div hidden>\n```\n\nstill visible\n";
    let (text, hidden) = md(src);
    assert!(text.contains("<template>") && text.contains("<div hidden>") && text.contains("still visible"));
    assert_eq!(hidden, "");
    // void elements, stray end tags, unclosed tags
    assert_eq!(md("a <br hidden> b </span> c\n").1, "");
    assert_eq!(md("a <span hidden>b\n\nc\n").1.split_whitespace().collect::<Vec<_>>(), ["b", "c"]);
}

/// Validates one claim against `source` and returns the report.
fn validate(source: &str, quote: &str, format: &str, config: Value) -> Value {
    let claims = json!({
        "source_metadata": {"format": format},
        "claims": [{"id": "EV001", "task_id": "P1.T001", "evidence_type": "direct_quote", "quote": quote}]
    });
    validate_evidence(source, &claims, &config, &FixedClock(0.0)).unwrap().to_json()
}

/// The span of `m` holds in bytes, code points and UTF-16, and returns its text.
fn span_text(source: &str, m: &Value, text_key: &str) -> String {
    let (bs, be) = (m["byte_start"].as_u64().unwrap() as usize, m["byte_end"].as_u64().unwrap() as usize);
    let text = m[text_key].as_str().unwrap();
    assert_eq!(&source[bs..be], text);
    let (cs, ce) = (m["start_position"].as_u64().unwrap() as usize, m["end_position"].as_u64().unwrap() as usize);
    assert_eq!(source.chars().skip(cs).take(ce - cs).collect::<String>(), text);
    let utf16: Vec<u16> = source.encode_utf16().collect();
    let (us, ue) = (m["utf16_start"].as_u64().unwrap() as usize, m["utf16_end"].as_u64().unwrap() as usize);
    assert_eq!(String::from_utf16(&utf16[us..ue]).unwrap(), text);
    text.to_string()
}

#[test]
fn a_quote_only_in_hidden_text_is_not_validated_and_is_reported_as_hidden() {
    for format in ["html", "markdown"] {
        for (hidden, reason) in html_forms("The Audit found “no critical” vulnerabilities") {
            let source = if format == "html" {
                format!("<html><body><h1>Report 😀</h1>\r\n<p>{VISIBLE} 中文.</p>\r\n{hidden}\r\n<p>Done 👍🏽.</p></body></html>")
            } else {
                format!("# Report 😀\r\n\r\n{VISIBLE} 中文.\r\n\r\n{hidden}\r\n\r\nDone 👍🏽.\r\n")
            };
            let report = validate(&source, "the audit found \"no critical\" vulnerabilities", format, Value::Null);
            let result = &report["validated_claims"][0];
            assert_eq!(result["validation_status"], "FAILED", "{format} {source:?}: {report:#}");
            let failed = &report["failed_claims"][0];
            assert_eq!(failed["failure_reason"], "NOT_FOUND");
            let attempt = &failed["attempted_matches"][0];
            let reason_text = attempt["rejection_reason"].as_str().unwrap();
            assert!(reason_text.starts_with("HIDDEN_TEXT"), "{reason_text}");
            assert!(reason_text.contains(reason.describe()), "{reason_text} / {reason:?}");
            assert_eq!(attempt["confidence_score"], 0.0);
            // the span of the hidden occurrence, in the original
            let text = span_text(&source, attempt, "candidate_text");
            assert_eq!(text, "The Audit found “no critical” vulnerabilities");
            let warning = report["warnings"].as_array().unwrap().iter().find(|w| w["code"] == "HIDDEN_TEXT");
            assert_eq!(warning.unwrap()["claim_id"], "EV001");
            assert!(failed["suggestions"][0].as_str().unwrap().contains("hidden"));

            // the visible text still validates, with spans into the original
            let report = validate(&source, VISIBLE, format, Value::Null);
            assert_eq!(report["validated_claims"][0]["validation_status"], "VALIDATED", "{report:#}");
            let m = &report["validated_claims"][0]["match_details"];
            assert_eq!(span_text(&source, m, "matched_text"), VISIBLE);
            assert!(report["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "HIDDEN_TEXT"));

            // include_hidden_text: the hidden quote is searched and found where it is
            let config = json!({"document_processing": {"include_hidden_text": true}});
            let report = validate(&source, "the audit found \"no critical\" vulnerabilities", format, config);
            let result = &report["validated_claims"][0];
            assert_eq!(result["validation_status"], "VALIDATED", "{format} {source:?}: {report:#}");
            assert_eq!(
                span_text(&source, &result["match_details"], "matched_text"),
                "The Audit found “no critical” vulnerabilities"
            );
        }
    }
}

#[test]
fn hidden_text_changes_nothing_for_visible_quotes() {
    // the same sentence hidden and visible: VALIDATED at the visible place, not AMBIGUOUS
    let source = format!("<p hidden>{QUOTE}</p><p>Intro. {QUOTE}.</p>");
    let report = validate(&source, QUOTE, "html", Value::Null);
    let result = &report["validated_claims"][0];
    assert_eq!(result["validation_status"], "VALIDATED", "{report:#}");
    let m = &result["match_details"];
    assert_eq!(m["byte_start"].as_u64().unwrap() as usize, source.rfind(QUOTE).unwrap());
    assert_eq!(span_text(&source, m, "matched_text"), QUOTE);
    // a changed word in the visible text stays LOW_CONFIDENCE; the exact quote in hidden text is named
    let source = format!("<p>{}</p><template>{QUOTE}</template>", QUOTE.replace("no critical", "two critical"));
    let report = validate(&source, QUOTE, "html", Value::Null);
    assert_eq!(report["validated_claims"][0]["validation_status"], "LOW_CONFIDENCE", "{report:#}");
    let attempt = &report["failed_claims"][0]["attempted_matches"][0];
    assert!(attempt["rejection_reason"].as_str().unwrap().contains("(<template>)"));
    assert_eq!(span_text(&source, attempt, "candidate_text"), QUOTE);
    // a quote spread over two hidden elements is in neither
    let source = "<p>x</p><span hidden>the audit found</span> visible <span hidden>no critical vulnerabilities</span>";
    let report = validate(source, QUOTE, "html", Value::Null);
    assert_eq!(report["validated_claims"][0]["validation_status"], "FAILED");
    assert!(report["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "HIDDEN_TEXT"), "{report:#}");
    // a word inside a longer hidden word is no hidden occurrence
    let report = validate("<p>x</p><p hidden>preaudited findings</p>", "audited findings", "html", Value::Null);
    assert!(report["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "HIDDEN_TEXT"), "{report:#}");
}

#[test]
fn a_hidden_heading_is_no_section() {
    let source = "<h1>Findings</h1><p>The audit passed.</p><h2 hidden>Security</h2><p>Nothing else.</p>";
    let doc = Document::new(source, Some(Format::Html)).unwrap();
    assert_eq!(doc.sections().iter().map(|s| s.title.as_str()).collect::<Vec<_>>(), ["Findings"]);
    assert_eq!(doc.hidden_text().text(), "Security");
    let claims = json!({"claims": [{"id": "EV001", "task_id": "P1.T001", "evidence_type": "direct_quote",
        "quote": "Nothing else", "expected_section": "Security"}], "source_metadata": {"format": "html"}});
    let report = validate_evidence(source, &claims, &Value::Null, &FixedClock(0.0)).unwrap().to_json();
    assert_eq!(report["validated_claims"][0]["validation_status"], "FAILED", "{report:#}");
    assert_eq!(report["failed_claims"][0]["failure_reason"], "CONTEXT_MISMATCH");
}

#[test]
fn document_keeps_the_hidden_text_apart() {
    let source = "# T\n\nshown <span hidden>secret words</span> text\n";
    let doc = Document::new(source, Some(Format::Markdown)).unwrap();
    let hidden = doc.hidden_text();
    assert_eq!(hidden.text(), "secret words");
    assert_eq!(hidden.regions.len(), 1);
    let r = hidden.regions[0];
    assert_eq!(&source[r.start as usize..r.end as usize], "secret words");
    let p = evidence_validator::text::Profile::default();
    assert!(!doc.normalized_text(p).contains("secret"));
    // the index with the hidden text: `document`'s unit tests
}

/// Random markup built from hidden forms and tricky pieces: no panic, the
/// invariants hold, and visible + hidden is the text with hidden included.
#[test]
fn random_markup_keeps_the_invariants() {
    const FRAGMENTS: &[&str] = &[
        "<div hidden>",
        "</div>",
        "<span aria-hidden=true>",
        "</span>",
        "<p style=\"display:none\">",
        "<p style='visibility:hidden'>",
        "<b style=visibility:visible>",
        "</b>",
        "<p>",
        "</p>",
        "<template>",
        "</template>",
        "<noscript>",
        "</noscript>",
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<br hidden>",
        "<li hidden>",
        "<li>",
        "<h2 hidden>",
        "<h2>",
        "</h2>",
        "<textarea hidden>",
        "</textarea>",
        "<p hidden=\"",
        "\"",
        "<",
        ">",
        "&amp;",
        "&#58;",
        "text ",
        "中文",
        "😀",
        "\r\n",
        "\n\n",
        "# ",
        "```\n",
        "`",
        "*",
        "> ",
        "- ",
        "|a|b|\n|-|-|\n",
    ];
    let mut rng = Rng::new(13);
    for _ in 0..3000 {
        let src = random_input(&mut rng, FRAGMENTS, 40);
        let x = extract_html(&src);
        check_all(&src, &x, false);
        assert_eq!(extract_html_with(&src, true).units, merged(&x), "{src:?}");
        let x = extract_markdown(&src);
        check_all(&src, &x, true);
        let mut all = Vec::new();
        extract_markdown_parts(&src, true, |u| all.extend_from_slice(u));
        assert_eq!(all, merged(&x), "{src:?}");
    }
}

/// Deep nesting, many stray end tags, many hidden elements: linear time.
#[test]
fn adversarial_nesting_is_linear() {
    let n = 100_000;
    let inputs = [
        format!("{}x{}", "<div hidden>".repeat(n), "</i>".repeat(n)),
        format!("{}x{}", "<b>".repeat(n), "</div>".repeat(n)),
        "<span hidden>a</span>b".repeat(n),
        format!("{}{}", "<p hidden>a".repeat(n), "</p>".repeat(n)),
    ];
    for src in &inputs {
        let started = std::time::Instant::now();
        let x = extract_html(src);
        let md = extract_markdown(src);
        let took = started.elapsed();
        assert!(took.as_secs_f64() < 20.0, "{took:?} for {} bytes", src.len());
        assert!(!x.units.is_empty() || !x.hidden.is_empty());
        assert!(!md.units.is_empty() || !md.hidden.is_empty());
    }
    // the hidden ones hid what they hold
    assert!(extract_html(&inputs[2]).hidden.text().chars().all(|c| c == 'a'));
    assert!(extract_html(&inputs[2]).text().chars().all(|c| c == 'b'));
}
