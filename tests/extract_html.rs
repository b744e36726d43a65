//! Rule-by-rule tests of `extract_html`, with exact expected text and spans.
#![cfg(not(target_arch = "wasm32"))]

#[path = "extract_common/mod.rs"]
mod common;

use common::{check_invariants, spans, unit_of};
use evidence_validator::extract::{extract_html, extract_markdown};
use evidence_validator::extract::{Heading, Unit};

fn text(src: &str) -> String {
    let x = extract_html(src);
    check_invariants(src, &x, false);
    x.text()
}

#[test]
fn brief_example() {
    let src = "<p>The &ldquo;quick&rdquo; fox</p><p>jumps</p>";
    let x = extract_html(src);
    check_invariants(src, &x, false);
    assert_eq!(x.text(), "\nThe \u{201C}quick\u{201D} fox\n\njumps\n");
    let open = unit_of(&x, '\u{201C}');
    assert_eq!(&src[open.start as usize..open.end as usize], "&ldquo;");
    let close = unit_of(&x, '\u{201D}');
    assert_eq!(&src[close.start as usize..close.end as usize], "&rdquo;");
    assert!(x.headings.is_empty());
}

#[test]
fn text_units_map_to_their_own_bytes() {
    let src = "a\u{e9}\u{1F600}";
    let x = extract_html(src);
    assert_eq!(
        x.units,
        vec![
            Unit { ch: 'a', start: 0, end: 1 },
            Unit { ch: '\u{e9}', start: 1, end: 3 },
            Unit { ch: '\u{1F600}', start: 3, end: 7 },
        ]
    );
}

#[test]
fn block_tags_emit_one_newline_spanning_the_tag() {
    let src = "<p>a</p><p class=\"x\">b</p>";
    let x = extract_html(src);
    assert_eq!(
        spans(src, &x),
        vec![('\n', "<p>"), ('a', "a"), ('\n', "</p>"), ('\n', "<p class=\"x\">"), ('b', "b"), ('\n', "</p>")]
    );
    assert_eq!(text("<ul><li>one<li>two</ul>"), "\n\none\ntwo\n");
    assert_eq!(text("a<br>b<br/>c</br>d<hr>e"), "a\nb\nc\nd\ne");
    assert_eq!(text("<table><tr><td>1</td><td>2</td></tr></table>"), "\n\n\n1\n\n2\n\n\n");
    assert_eq!(text("<DIV>x</Div><BR>y"), "\nx\n\ny");
    assert_eq!(
        text("<section><article><header>h</header><blockquote>q</blockquote><footer>f</footer></article></section>"),
        "\n\n\nh\n\nq\n\nf\n\n\n"
    );
    assert_eq!(text("<dl><dt>t<dd>d</dl><nav>n</nav><aside>s</aside><main>m</main>"), "\n\nt\nd\n\nn\n\ns\n\nm\n");
    assert_eq!(text("<figure>i<figcaption>c</figcaption></figure><form>f</form>"), "\ni\nc\n\n\nf\n");
}

#[test]
fn inline_tags_produce_nothing() {
    assert_eq!(text("a<b>b</b><i>c</i> <a href=\"/x\">link</a><span>s</span>"), "abc links");
    assert_eq!(text("x<img src=\"a.png\" alt=\"pic\">y<input value=z>"), "xy");
}

#[test]
fn quoted_attribute_values_may_contain_gt() {
    assert_eq!(text("<a title=\"x>y\" data-b='a>b'>link</a>"), "link");
    assert_eq!(text("<p title = \"1 > 0\" >t</p>"), "\nt\n");
    assert_eq!(text("<a b=c>d</a><a b=\"\">e</a><a =x>f</a><a b=>g</a>"), "defg");
}

#[test]
fn character_references() {
    let src = "&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#X43;";
    let x = extract_html(src);
    assert_eq!(
        spans(src, &x),
        vec![
            ('&', "&amp;"),
            ('<', "&lt;"),
            ('>', "&gt;"),
            ('"', "&quot;"),
            ('\'', "&apos;"),
            ('A', "&#65;"),
            ('B', "&#x42;"),
            ('C', "&#X43;")
        ]
    );
    assert_eq!(text("&#8220;x&#x201D;"), "\u{201C}x\u{201D}");
    // Invalid numeric references give U+FFFD; 0x80-0x9F are windows-1252.
    assert_eq!(text("&#0;&#xD800;&#x110000;&#99999999999999;"), "\u{FFFD}".repeat(4));
    assert_eq!(text("&#150;&#x93;&#x81;"), "\u{2013}\u{201C}\u{81}");
    // A missing `;` still decodes numeric references.
    assert_eq!(text("&#65x"), "Ax");
    // Unknown names and bare ampersands stay literal.
    assert_eq!(text("&foo; & &; &#; &#x; AT&T"), "&foo; & &; &#; &#x; AT&T");
    // Legacy names work without `;`, longest match first.
    assert_eq!(text("&copy2024 &amp &notit; &notin; &nbspx"), "\u{a9}2024 & \u{ac}it; \u{2209} \u{a0}x");
    // Names that are not legacy need the `;`.
    assert_eq!(text("&hellip &hellip;"), "&hellip \u{2026}");
}

#[test]
fn named_references_from_the_brief() {
    let cases = [
        ("amp", '&'),
        ("lt", '<'),
        ("gt", '>'),
        ("quot", '"'),
        ("apos", '\''),
        ("nbsp", '\u{a0}'),
        ("shy", '\u{ad}'),
        ("ndash", '\u{2013}'),
        ("mdash", '\u{2014}'),
        ("hellip", '\u{2026}'),
        ("lsquo", '\u{2018}'),
        ("rsquo", '\u{2019}'),
        ("ldquo", '\u{201c}'),
        ("rdquo", '\u{201d}'),
        ("sbquo", '\u{201a}'),
        ("bdquo", '\u{201e}'),
        ("laquo", '\u{ab}'),
        ("raquo", '\u{bb}'),
        ("copy", '\u{a9}'),
        ("reg", '\u{ae}'),
        ("trade", '\u{2122}'),
        ("deg", '\u{b0}'),
        ("plusmn", '\u{b1}'),
        ("times", '\u{d7}'),
        ("divide", '\u{f7}'),
        ("middot", '\u{b7}'),
        ("bull", '\u{2022}'),
        ("prime", '\u{2032}'),
        ("Prime", '\u{2033}'),
        ("euro", '\u{20ac}'),
        ("pound", '\u{a3}'),
        ("yen", '\u{a5}'),
        ("cent", '\u{a2}'),
        ("sect", '\u{a7}'),
        ("para", '\u{b6}'),
        ("eacute", '\u{e9}'),
        ("egrave", '\u{e8}'),
        ("aacute", '\u{e1}'),
        ("agrave", '\u{e0}'),
        ("ouml", '\u{f6}'),
        ("uuml", '\u{fc}'),
        ("auml", '\u{e4}'),
        ("szlig", '\u{df}'),
        ("ntilde", '\u{f1}'),
        ("ccedil", '\u{e7}'),
        ("rarr", '\u{2192}'),
        ("check", '\u{2713}'),
        ("Eacute", '\u{c9}'),
        ("alpha", '\u{3b1}'),
        ("thinsp", '\u{2009}'),
    ];
    for (name, ch) in cases {
        let src = format!("x&{name};y");
        let x = extract_html(&src);
        assert_eq!(x.text(), format!("x{ch}y"), "&{name};");
        assert_eq!(x.units[1], Unit { ch, start: 1, end: name.len() as u32 + 3 });
        // the same reference under CommonMark's strict rules (`;` required)
        assert_eq!(extract_markdown(&src).units[1], Unit { ch, start: 1, end: name.len() as u32 + 3 });
    }
}

#[test]
fn skipped_constructs() {
    assert_eq!(text("<!DOCTYPE html><html><head><meta charset=utf-8></head><body>x</body></html>"), "\n\n\n\nx\n\n");
    assert_eq!(text("a<!-- c > d -->b<!---->c<!-->d<!--->e<!-- x --!>f"), "abcdef");
    assert_eq!(text("a<?xml version=\"1.0\"?>b<![CDATA[ x > y ]]>c<!bogus>d</ bogus>e</>f"), "abcdef");
    assert_eq!(text("a<script>if (a < b && c > d) { x = \"</p>\" }</script>b"), "ab");
    assert_eq!(text("a<SCRIPT type=x>y</scripty></Script >b<style>p > a { }</style>c"), "abc");
    // noscript content is hidden text now (issue 13): browsers run scripts
    assert_eq!(text("a<iframe src=x><p>fallback</p></iframe>b<noscript>n</noscript>"), "ab");
}

#[test]
fn raw_text_elements_that_are_shown() {
    assert_eq!(text("<title>A &amp; <b>B</b></title>"), "\nA & <b>B</b>\n");
    assert_eq!(text("<textarea>x&lt;<p></textarea>"), "\nx<<p>\n");
    assert_eq!(text("<xmp><b>&amp;</b></xmp>"), "\n<b>&amp;</b>\n");
    assert_eq!(text("a<plaintext></plaintext>&amp;"), "a\n</plaintext>&amp;");
}

#[test]
fn pre_keeps_whitespace() {
    assert_eq!(text("<pre>  a\n\tb  </pre>"), "\n  a\n\tb  \n");
    assert_eq!(text("<p>  a \n  b  </p>"), "\n  a \n  b  \n");
}

#[test]
fn headings() {
    let src = "<h1>Title <small>x</small></h1><p>t</p><h2 id=\"a\">Sub &amp;\n  sec</h2><H3>Up</H3>";
    let x = extract_html(src);
    check_invariants(src, &x, false);
    assert_eq!(
        x.headings,
        vec![
            Heading { level: 1, title: "Title x".into(), start: 0, end: 31 },
            Heading { level: 2, title: "Sub & sec".into(), start: 39, end: 70 },
            Heading { level: 3, title: "Up".into(), start: 70, end: 81 },
        ]
    );
    assert_eq!(&src[39..70], "<h2 id=\"a\">Sub &amp;\n  sec</h2>");
    assert_eq!(x.text(), "\nTitle x\n\nt\n\nSub &\n  sec\n\nUp\n");
}

#[test]
fn headings_left_open() {
    // Closed by the next heading, by an enclosing container's end tag, or by the end.
    let src = "<h1>A<h2>B</h3><div><h4>C<br>D</div><h5>E";
    let x = extract_html(src);
    check_invariants(src, &x, false);
    let got: Vec<_> =
        x.headings.iter().map(|h| (h.level, h.title.as_str(), &src[h.start as usize..h.end as usize])).collect();
    assert_eq!(got, vec![(1, "A", "<h1>A"), (2, "B", "<h2>B</h3>"), (4, "C D", "<h4>C<br>D"), (5, "E", "<h5>E"),]);
}

#[test]
fn truncated_and_broken_markup() {
    assert_eq!(text("a<"), "a<");
    assert_eq!(text("a</"), "a</");
    assert_eq!(text("a<p"), "a");
    assert_eq!(text("a<p class=\"x>b"), "a");
    assert_eq!(text("a<!--b"), "a");
    assert_eq!(text("a<script>b"), "a");
    assert_eq!(text("a&am"), "a&am");
    assert_eq!(text("a&#x"), "a&#x");
    assert_eq!(text("a < b > c <3 <-- <1"), "a < b > c <3 <-- <1");
    assert_eq!(text("<<p>>"), "<\n>");
    assert_eq!(text("<h1"), "");
    assert_eq!(text(""), "");
}

/// Text inside hidden elements (issue 13) is not visible text; its units go
/// to `hidden`, each pointing at its own bytes, with the region's reason.
#[test]
fn hidden_elements_are_not_visible_text() {
    use evidence_validator::extract::HiddenReason;
    let cases = [
        ("a<template><p>b</p></template>c", "ac", "b", HiddenReason::Template),
        ("a<span hidden>b</span>c", "ac", "b", HiddenReason::HiddenAttribute),
        ("a<span aria-hidden=\"true\">b</span>c", "ac", "b", HiddenReason::AriaHidden),
        ("a<span style=\"display : none\">b</span>c", "ac", "b", HiddenReason::DisplayNone),
        ("a<span style=\"visibility:hidden !important\">b</span>c", "ac", "b", HiddenReason::VisibilityHidden),
        ("a<noscript>b</noscript>c", "ac", "b", HiddenReason::Noscript),
        ("a<script>b</script>c", "ac", "b", HiddenReason::Script),
        ("a<style>b</style>c", "ac", "b", HiddenReason::Style),
        ("a<iframe>b</iframe>c", "ac", "b", HiddenReason::RawText),
    ];
    for (src, visible, hidden, reason) in cases {
        let x = extract_html(src);
        check_invariants(src, &x, false);
        assert_eq!(x.text().replace('\n', ""), visible, "{src:?}");
        assert_eq!(x.hidden.text().replace('\n', ""), hidden, "{src:?}");
        assert_eq!(x.hidden.regions.iter().map(|r| r.reason).collect::<Vec<_>>(), [reason], "{src:?}");
        let b = x.hidden.units.iter().find(|u| u.ch == 'b').unwrap();
        assert_eq!(&src[b.start as usize..b.end as usize], "b", "{src:?}");
    }
    // references in hidden text are decoded, spanning the reference
    let src = "<p hidden>&eacute;\u{1F600}\r\n\u{4E2D}</p>x";
    let x = extract_html(src);
    assert_eq!(
        x.hidden.units,
        vec![
            Unit { ch: '\u{e9}', start: 10, end: 18 },
            Unit { ch: '\u{1F600}', start: 18, end: 22 },
            Unit { ch: '\r', start: 22, end: 23 },
            Unit { ch: '\n', start: 23, end: 24 },
            Unit { ch: '\u{4E2D}', start: 24, end: 27 },
        ]
    );
    assert_eq!(x.text(), "\n\nx");
}
