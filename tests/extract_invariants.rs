//! Invariants over many generated and random inputs: units sorted,
//! non-overlapping, non-empty, on char boundaries, within the source, and each
//! plain unit standing for exactly its own char; headings well formed; no
//! panics; and linear behaviour on adversarial inputs.
#![cfg(not(target_arch = "wasm32"))]

#[path = "extract_common/mod.rs"]
mod common;

use common::{check_invariants, random_input, Rng};
use evidence_validator::extract::extract_html;
use evidence_validator::extract::extract_markdown;

const HTML_FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/",
    "<p>",
    "</p>",
    "<div class=\"a>b\">",
    "</div>",
    "<br/>",
    "<h1>",
    "</h1>",
    "<h2 id=x>",
    "</h3>",
    "<li>",
    "<td>",
    "<!--",
    "-->",
    "--!>",
    "<!-->",
    "<!DOCTYPE html>",
    "<?xml ?>",
    "<![CDATA[",
    "]]>",
    "<script>",
    "</script>",
    "<style>",
    "</style >",
    "<title>",
    "</title>",
    "<xmp>",
    "</xmp>",
    "<plaintext>",
    "<textarea>",
    "</textarea>",
    "<pre>",
    "</pre>",
    "&",
    "&amp;",
    "&amp",
    "&#",
    "&#x",
    "&#1234;",
    "&#x1F600;",
    "&#xD800;",
    "&#0;",
    "&#150;",
    "&ldquo;",
    "&notin;",
    "&not",
    "&copy2024",
    "&foo;",
    ";",
    "#",
    "x",
    "a b",
    "'",
    "\"",
    "=",
    " ",
    "\n",
    "<a href='",
    "<b>",
    "</b>",
    "<img src=x alt=\">\">",
    "<!",
    "<?",
    "</>",
    "<H1>",
    "</H1>",
    "<iframe>",
    "</iframe>",
    "é",
    "“",
    "&nbsp;",
];

const MD_FRAGMENTS: &[&str] = &[
    "*",
    "**",
    "***",
    "_",
    "__",
    "~~",
    "~",
    "`",
    "``",
    "```",
    "~~~",
    "\n",
    "\n\n",
    " ",
    "  ",
    "\t",
    "#",
    "# ",
    "## ",
    "###### ",
    "####### ",
    "=",
    "===",
    "---",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "> ",
    ">",
    "|",
    " | ",
    "|---|",
    ":-:",
    "[",
    "]",
    "(",
    ")",
    "![",
    "](",
    "](u)",
    "](<u v> \"t\")",
    "[id]: /u \"t\"\n",
    "[id]",
    "[]",
    "<",
    ">",
    "<https://x.y>",
    "<a@b.c>",
    "<!--",
    "-->",
    "<br>",
    "<span a=\"1\">",
    "</span>",
    "&amp;",
    "&",
    "&#",
    "&#x41;",
    "&copy",
    "\\",
    "\\*",
    "\\|",
    "\\\n",
    "word",
    "snake_case",
    "2*3",
    "a",
    "é",
    "😀",
    "\r\n",
    "    ",
    "Title\n===\n",
    "text",
];

fn check_both(src: &str) {
    let x = extract_html(src);
    check_invariants(src, &x, false);
    let y = extract_markdown(src);
    check_invariants(src, &y, true);
}

#[test]
fn generated_html_inputs() {
    let mut rng = Rng::new(1);
    for _ in 0..20_000 {
        let src = random_input(&mut rng, HTML_FRAGMENTS, 24);
        check_both(&src);
    }
}

#[test]
fn generated_markdown_inputs() {
    let mut rng = Rng::new(2);
    for _ in 0..20_000 {
        let src = random_input(&mut rng, MD_FRAGMENTS, 24);
        check_both(&src);
    }
}

#[test]
fn random_bytes_as_utf8() {
    let mut rng = Rng::new(3);
    for _ in 0..5_000 {
        let len = rng.below(64);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                // Bias towards ASCII markup so the parsers get exercised.
                if rng.below(2) == 0 {
                    b"<>/!-&#;*_`[]()|>\n =\"'x"[rng.below(23)]
                } else {
                    rng.next_u64() as u8
                }
            })
            .collect();
        check_both(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn every_prefix_of_a_rich_document() {
    let html = "<!DOCTYPE html><html><head><title>T &amp; t</title><style>p{}</style></head>\
        <body><h1 class=\"a>b\">Head &ldquo;one&rdquo;</h1><!-- c --><p>Text &#x201C;q&#8221; <b>b</b>\
        <br/>more</p><pre>  x\n y</pre><script>a<b</script><ul><li>i</ul><h2>Two</h2></body></html>";
    let md = "# Head *one*\n\nText **b** `c` [l](u \"t\") ![a](i) <https://x> <!-- c -->\n\n\
        > quote\n- item\n1. one\n\n| a | b |\n|---|---|\n| c | d |\n\n```\ncode *x*\n```\n\
        Setext\n---\n[r]: /u\n[r] &amp; \\*x\\*\n";
    for src in [html, md] {
        for (k, _) in src.char_indices() {
            check_both(&src[..k]);
            check_both(&src[k..]);
        }
    }
}

/// Adversarial inputs of about `n` bytes must be processed in linear time.
fn adversarial(n: usize) -> Vec<String> {
    let rep = |s: &str| s.repeat(n / s.len());
    vec![
        rep("["),
        rep("]"),
        rep("[]("),
        rep("[a]("),
        rep("!["),
        rep("*a"),
        rep("a*"),
        rep("*_"),
        rep("**a "),
        rep("_a_ "),
        rep("~~a"),
        rep("`"),
        rep("` `` ``` "),
        rep("<"),
        rep("<a "),
        rep("<a b=\""),
        rep("<!--"),
        rep("<!a"),
        rep("<?"),
        rep("<https:"),
        rep("&"),
        rep("&#"),
        rep("&aaaa"),
        rep("> "),
        rep("- "),
        rep("- a\n"),
        rep("- ") + "a",
        rep("- * ") + "a",
        rep("> - 1. ") + "a",
        rep("|"),
        rep("| a |\n|---|\n"),
        rep("# a\n"),
        rep("a\n===\n"),
        rep("```\n"),
        rep("[x]: /u\n"),
        rep("<p>"),
        rep("<h1>"),
        rep("</"),
        rep("<script>"),
        rep("<a b='>'"),
        rep("\\"),
        deep_list(n),
        rep("> ") + &rep("- "),
    ]
}

/// A list nested as deep as the input allows, then lazy lines.
fn deep_list(n: usize) -> String {
    let depth = ((n as f64).sqrt() / 2.0) as usize;
    let mut s: String = (0..depth).map(|k| format!("{}- a\n", " ".repeat(2 * k))).collect();
    while s.len() < n {
        s.push_str("x\n");
    }
    s
}

#[test]
fn adversarial_inputs_keep_invariants() {
    for src in adversarial(5_000) {
        check_both(&src);
    }
}

/// Large adversarial inputs (200 KB each) complete and keep the invariants.
/// How long they take is measured by `cargo bench --bench extract`, not here:
/// tests make no timing assertions.
#[test]
fn large_adversarial_inputs_complete() {
    for src in adversarial(200_000) {
        check_both(&src);
    }
}
