//! Differential check against pulldown-cmark (a CommonMark + GFM parser, a
//! dev-dependency only): on generated markdown, the text we extract must equal
//! the text pulldown-cmark renders, compared with all whitespace removed, and
//! the headings must have the same levels and titles.
//! The generators avoid our documented deviations (indented code blocks, HTML
//! blocks, `~` strikethrough flanking, tables interrupting paragraphs).
#![cfg(not(target_arch = "wasm32"))]

#[path = "extract_common/mod.rs"]
mod common;

use common::Rng;
use evidence_validator::extract::extract_markdown;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The rendered text, and the headings as (level, squeezed title).
fn rendered(src: &str) -> (String, Vec<(u8, String)>) {
    let mut out = String::new();
    let mut headings = Vec::new();
    let mut heading: Option<(u8, String)> = None;
    for event in Parser::new_ext(src, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(t) | Event::Code(t) => {
                out.push_str(&t);
                if let Some((_, title)) = &mut heading {
                    title.push_str(&squeeze(&t));
                }
            }
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level as u8, String::new())),
            Event::End(TagEnd::Heading(_)) => headings.extend(heading.take()),
            _ => {}
        }
    }
    (out, headings)
}

fn compare(seed: u64, fragments: &[&str], cases: usize) {
    let mut rng = Rng::new(seed);
    let mut failures = Vec::new();
    for _ in 0..cases {
        let parts = 1 + rng.below(12);
        let src: String = (0..parts).map(|_| rng.pick(fragments)).collect();
        // Indented code and HTML blocks are documented deviations.
        let html_block = src.lines().any(|l| {
            let l = l.trim_start_matches([' ', '>']);
            l.starts_with("<span") || l.starts_with("</span") || l.starts_with("<!--")
        });
        if src.contains("    ") || src.contains('\t') || html_block {
            continue;
        }
        let x = extract_markdown(&src);
        let mine = squeeze(&x.text());
        let my_headings: Vec<(u8, String)> = x.headings.iter().map(|h| (h.level, squeeze(&h.title))).collect();
        let (theirs, their_headings) = rendered(&src);
        let theirs = squeeze(&theirs);
        if mine != theirs || my_headings != their_headings {
            failures
                .push(format!("{src:?}\n  ours:   {mine:?} {my_headings:?}\n  theirs: {theirs:?} {their_headings:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn inline_markup_matches_commonmark() {
    let fragments = [
        "*",
        "**",
        "***",
        "_",
        "__",
        "`",
        "``",
        " ",
        "a",
        "b",
        "word",
        "[",
        "]",
        "(",
        ")",
        "](u)",
        "](<u v> \"t\")",
        "![",
        "\\",
        "\\*",
        "\\_",
        "<https://x>",
        "<a@b.co>",
        "&amp;",
        "&copy;",
        "&#65;",
        "&#x;",
        "x_y",
        "2",
        ".",
        ",",
        "\n",
        "<span a='1'>",
        "</span>",
        "<!-- c -->",
    ];
    compare(11, &fragments, 30_000);
}

#[test]
fn block_structure_matches_commonmark() {
    let fragments = [
        "*",
        "**",
        "_",
        "`",
        "```",
        "~~~",
        "\n",
        "\n\n",
        " ",
        "# ",
        "## ",
        "=",
        "===",
        "---",
        "- ",
        "* ",
        "+ ",
        "1. ",
        "2. ",
        "3) ",
        "> ",
        "]",
        "](u)",
        "[id]: /u\n",
        "[id]: /u 't'\n",
        "[id]",
        "[id][]",
        "[x][id]",
        "word",
        "a",
        "b",
        "text",
        "Title\n===\n",
        "  ",
        "`code`",
    ];
    compare(12, &fragments, 30_000);
}
