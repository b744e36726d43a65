//! Rule-by-rule tests of `extract_markdown`, with exact expected text and spans.
#![cfg(not(target_arch = "wasm32"))]

#[path = "extract_common/mod.rs"]
mod common;

use common::{check_invariants, spans};
use evidence_validator::extract::extract_markdown;
use evidence_validator::extract::Heading;

fn text(src: &str) -> String {
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    x.text()
}

fn headings(src: &str) -> Vec<(u8, String, &str)> {
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    x.headings.iter().map(|h| (h.level, h.title.clone(), &src[h.start as usize..h.end as usize])).collect()
}

#[test]
fn brief_example() {
    let src = "# Title\n\nSome **bold** and `code` and [a link](http://x).\n";
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    assert_eq!(x.text(), "Title\n\nSome bold and code and a link.\n");
    assert_eq!(x.headings, vec![Heading { level: 1, title: "Title".into(), start: 0, end: 7 }]);
    // Every unit is the char it stands for.
    for u in &x.units {
        assert_eq!(&src[u.start as usize..u.end as usize], u.ch.to_string());
    }
    let b = x.units.iter().position(|u| u.ch == 'b').unwrap();
    assert_eq!(x.units[b].start as usize, src.find("bold").unwrap());
}

#[test]
fn plain_text_is_kept_char_by_char() {
    let src = "a\u{e9}\r\n\u{1F600} b";
    let x = extract_markdown(src);
    assert_eq!(
        spans(src, &x),
        vec![
            ('a', "a"),
            ('\u{e9}', "\u{e9}"),
            ('\r', "\r"),
            ('\n', "\n"),
            ('\u{1F600}', "\u{1F600}"),
            (' ', " "),
            ('b', "b")
        ]
    );
}

#[test]
fn emphasis() {
    assert_eq!(text("*a* _b_ **c** __d__ ***e*** ___f___ ~~g~~"), "a b c d e f g");
    assert_eq!(text("*a **b** c* and **a *b* c**"), "a b c and a b c");
    assert_eq!(text("foo*bar*baz **foo*bar*baz**"), "foobarbaz foobarbaz");
    assert_eq!(text("*emphasis\nacross* lines"), "emphasis\nacross lines");
    // Not emphasis: the chars stay.
    for keep in ["snake_case_names", "2*3", "a * b", "a*b", "_a_b", "foo_bar_", "__init__x", "x__init__", "5 * 3 * 2"] {
        assert_eq!(text(keep), keep);
    }
    // Intraword `*` can match, as in CommonMark.
    assert_eq!(text("2*3*4"), "234");
    assert_eq!(text("**unclosed and *also"), "**unclosed and *also");
    assert_eq!(text("~single~ ~~~three~~~ ~~ spaced ~~"), "~single~ ~~~three~~~ ~~ spaced ~~");
    // Unbalanced runs keep their extra chars (CommonMark).
    assert_eq!(text("**a*"), "*a");
    assert_eq!(text("*a**"), "a*");
    assert_eq!(text("***a*"), "**a");
    assert_eq!(text("*a **b*"), "*a *b");
    let src = "x **b** y";
    let x = extract_markdown(src);
    assert_eq!(spans(src, &x), vec![('x', "x"), (' ', " "), ('b', "b"), (' ', " "), ('y', "y")]);
    assert_eq!(x.units[2].start, 4);
}

#[test]
fn code_spans() {
    assert_eq!(text("`a*b*` and ``a ` b`` and `[x](y)`"), "a*b* and a ` b and [x](y)");
    assert_eq!(text("`unclosed *em*"), "`unclosed em");
    assert_eq!(text("```a``b``` ``c``` d"), "a``b ``c``` d");
    let src = "a `c` b";
    let x = extract_markdown(src);
    assert_eq!(spans(src, &x), vec![('a', "a"), (' ', " "), ('c', "c"), (' ', " "), ('b', "b")]);
}

#[test]
fn backslash_escapes() {
    assert_eq!(text(r"\*lit\* a\_b \[x\](y) \` \\ \a"), r"*lit* a_b [x](y) ` \ \a");
    assert_eq!(text("hard\\\nbreak"), "hard\nbreak");
}

#[test]
fn links_and_images() {
    assert_eq!(text("[a link](http://x) [t](<u v> \"ti\") [u](/p 'q') [v](/p (r)) [e]()"), "a link t u v e");
    assert_eq!(text("[**bold** link](u) ![alt *t*](img.png \"T\")"), "bold link alt t");
    assert_eq!(text("[a [b](u) c](v)"), "[a b c](v)");
    assert_eq!(text("[![img](i.png)](u)"), "img");
    assert_eq!(text("[not a link] [x] (y) [x](y z w)"), "[not a link] [x] (y) [x](y z w)");
    assert_eq!(text("[link](/url(with)parens)"), "link");
    let src = "see [t](u).";
    let x = extract_markdown(src);
    assert_eq!(spans(src, &x), vec![('s', "s"), ('e', "e"), ('e', "e"), (' ', " "), ('t', "t"), ('.', ".")]);
}

#[test]
fn reference_links() {
    let src = "[full][id], [collapsed][], [shortcut] and [undefined][nope]\n\n[id]: http://a \"T\"\n[Collapsed]: <http://b>\n[shortcut]: /c\n";
    assert_eq!(text(src), "full, collapsed, shortcut and [undefined][nope]\n\n\n\n\n");
    // A definition cannot interrupt a paragraph.
    assert_eq!(text("para\n[x]: /u\n"), "para\n[x]: /u\n");
    // Footnote definitions are text.
    assert_eq!(text("[^1]: note"), "[^1]: note");
}

#[test]
fn autolinks() {
    let src = "<https://x.y/z?q=1> and <me@ex.com> but <not a link!>";
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    assert_eq!(x.text(), "https://x.y/z?q=1 and me@ex.com but <not a link!>");
    assert_eq!(x.units[0].start, 1);
}

#[test]
fn atx_headings() {
    let src = "# One\n## Two ##\n   ### Three ###   \n#### Four#\n##### \n###### Six\n####### Seven\n#hashtag\n    # indented\n";
    assert_eq!(
        headings(src),
        vec![
            (1, "One".into(), "# One"),
            (2, "Two".into(), "## Two ##"),
            (3, "Three".into(), "   ### Three ###   "),
            (4, "Four#".into(), "#### Four#"),
            (5, "".into(), "##### "),
            (6, "Six".into(), "###### Six"),
        ]
    );
    assert_eq!(text(src), "One\nTwo\nThree\nFour#\n\nSix\n####### Seven\n#hashtag\n    # indented\n");
    assert_eq!(
        headings("# *Emph* and `code` &amp; [l](u)\r\n"),
        vec![(1, "Emph and code & l".into(), "# *Emph* and `code` &amp; [l](u)")]
    );
    let x = extract_markdown("text\n# H\nmore");
    assert_eq!(x.text(), "text\nH\nmore");
    assert_eq!(x.headings, vec![Heading { level: 1, title: "H".into(), start: 5, end: 8 }]);
}

#[test]
fn setext_headings() {
    let src = "Title\n=====\n\nSub *title*\nline two\n---\n\n---\n";
    assert_eq!(text(src), "Title\n\n\nSub title\nline two\n\n\n\n");
    assert_eq!(
        headings(src),
        vec![(1, "Title".into(), "Title\n====="), (2, "Sub title line two".into(), "Sub *title*\nline two\n---")]
    );
    // `===` with no paragraph above is text; `- foo` then `---` is a list then a break.
    assert_eq!(text("===\n\n- foo\n---\n"), "===\n\nfoo\n\n");
    assert!(headings("- foo\n---\n").is_empty());
}

#[test]
fn thematic_breaks() {
    assert_eq!(text("a\n\n***\n- - -\n___\nb"), "a\n\n\n\n\nb");
}

#[test]
fn block_markers() {
    assert_eq!(text("> quote\n> > nested\n>\n> lazy\ncontinued"), "quote\nnested\n\nlazy\ncontinued");
    assert_eq!(text("- a\n* b\n+ c\n  - nested\n1. one\n2) two\n10. ten"), "a\nb\nc\nnested\none\ntwo\nten");
    assert_eq!(text("-not a list\n*not either*\n1.5 is a number"), "-not a list\nnot either\n1.5 is a number");
    // An ordered list may only interrupt a paragraph when it starts at 1.
    assert_eq!(text("In\n2024. it rained\n1. item"), "In\n2024. it rained\nitem");
    assert_eq!(text("> - # Heading in list in quote"), "Heading in list in quote");
    // Extra spaces after a marker stay.
    let src = "-   x";
    let x = extract_markdown(src);
    assert_eq!(spans(src, &x), vec![(' ', " "), (' ', " "), ('x', "x")]);
}

#[test]
fn tables() {
    let src = "| a | *b* |\n|---|:-:|\n| c \\| d | `e` |\nlast\n\nafter | not table";
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    assert_eq!(x.text(), "  a   b  \n\n  c | d   e  \nlast\n\nafter | not table");
    let pipes: Vec<_> =
        x.units.iter().filter(|u| &src[u.start as usize..u.end as usize] == "|").map(|u| (u.ch, u.start)).collect();
    assert_eq!(pipes, vec![(' ', 0), (' ', 4), (' ', 10), (' ', 22), ('|', 27), (' ', 31), (' ', 37), ('|', 51)]);
    // Without leading and trailing pipes; the header may end a paragraph.
    assert_eq!(text("para\na | b\n--|--\n1 | 2\n"), "para\na   b\n\n1   2\n");
    // A delimiter row must match the header's cell count.
    assert_eq!(text("a | b\n|---|\n"), "a | b\n|---|\n");
}

#[test]
fn fenced_code_blocks() {
    let src = "```rust\nlet *x* = [a](b);\n# not a heading\n```\nafter *em*\n~~~~\n~~~\ncode\n~~~~~\n";
    let x = extract_markdown(src);
    check_invariants(src, &x, true);
    assert_eq!(x.text(), "\nlet *x* = [a](b);\n# not a heading\n\nafter em\n\n~~~\ncode\n\n");
    assert!(x.headings.is_empty());
    // Unclosed fences run to the end; fences in blockquotes and list items.
    assert_eq!(text("```\n*a*"), "\n*a*");
    assert_eq!(text("> ```\n> *a*\n> ```\n> *b*"), "\n*a*\n\nb");
    assert_eq!(text("- item\n\n  ```\n  *code*\n  ```\n"), "item\n\n\n  *code*\n\n");
    // A backtick fence's info string cannot contain backticks (that's a code span).
    assert_eq!(text("``` a ` b\n"), "``` a ` b\n");
}

#[test]
fn html_comments() {
    assert_eq!(text("a <!-- hidden --> b <!-- multi\nline --> c"), "a  b  c");
    assert_eq!(text("<!--\nblock comment\n\nwith blank line\n-->\nafter"), "\nafter");
    assert_eq!(text("x\n<!-- c -->tail\ny"), "x\ntail\ny");
    assert_eq!(text("a <!-- unterminated"), "a <!-- unterminated");
    assert_eq!(text("<!-- unterminated\n\nb"), "<!-- unterminated\n\nb");
}

#[test]
fn inline_html_and_references() {
    assert_eq!(text("a<br>b <span class=\"x\">c</span> <sup>1</sup>"), "a\nb c 1");
    assert_eq!(
        text("&amp; &copy; &#8220;x&#x201D; &nope; &amp no-semicolon"),
        "& \u{a9} \u{201C}x\u{201D} &nope; &amp no-semicolon"
    );
    let src = "a&ldquo;b";
    let x = extract_markdown(src);
    assert_eq!(spans(src, &x), vec![('a', "a"), ('\u{201C}', "&ldquo;"), ('b', "b")]);
    assert_eq!(text("`&amp;` <http://x/&amp;>"), "&amp; http://x/&amp;");
    assert_eq!(text("a < b > c"), "a < b > c");
}

#[test]
fn everything_else_stays() {
    let src = "Plain text, with punctuation: 3 < 4; 50% of $10 (roughly) & more!\n";
    assert_eq!(text(src), src);
    assert_eq!(text(""), "");
    assert_eq!(text("\n\n"), "\n\n");
}

#[test]
fn list_items_containers_and_laziness() {
    // A line inside an item may not start an ordered list at 2; a lazy one may.
    assert_eq!(text("-   item\n    2. inside\n  2. outside"), "  item\n    2. inside\noutside");
    // A fence in a list item ends with the item.
    assert_eq!(text("- ```\n  *code*\n*em*"), "\n  *code*\nem");
    // An empty item followed by a blank line holds nothing: this fence is
    // not in the item, so the unindented line does not end it.
    assert_eq!(text("*\n\n  ```\n# H"), "\n\n\n# H");
    assert_eq!(text("*\n  ```\n# H"), "\n\nH");
    // Setext underlines are not lazy: a blockquote's paragraph stays a paragraph.
    assert_eq!(headings("> Title\n==="), vec![]);
    assert_eq!(headings("> Title\n> ==="), vec![(1, "Title".into(), "> Title\n> ===")]);
    assert_eq!(headings("- Title\n  ---"), vec![(2, "Title".into(), "- Title\n  ---")]);
    // A blockquote interrupts a paragraph; the lazy line after it continues it.
    assert_eq!(text("para\n> quote\nlazy"), "para\nquote\nlazy");
    // A definition is a paragraph: `2.` cannot interrupt it.
    assert_eq!(text("[d]: /u\n2. x [d]"), "\n2. x d");
    // Code span padding: one space on each side goes.
    assert_eq!(text("`` `x` `` ` a `"), "`x` a");
}

/// Raw HTML that hides its content in the rendered page (issue 13): not
/// visible text; the hidden units keep their own bytes.
#[test]
fn hidden_raw_html_is_not_visible_text() {
    let hidden = |src: &str| {
        let x = extract_markdown(src);
        check_invariants(src, &x, true);
        for u in &x.hidden.units {
            assert_eq!(&src[u.start as usize..u.end as usize], u.ch.to_string(), "{src:?}");
        }
        (x.text(), x.hidden.text())
    };
    assert_eq!(hidden("a <span hidden>b</span> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <b aria-hidden=\"true\">b</b> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <i style=\"display: none\">b</i> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <i style='visibility:hidden'>b</i> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <template>b</template> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <noscript>b</noscript> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <script>b</script> c"), ("a  c".into(), "b".into()));
    assert_eq!(hidden("a <style>b</style> c"), ("a  c".into(), "b".into()));
    // across blocks, CRLF, emoji and CJK around
    assert_eq!(
        hidden("😀 a\r\n\r\n<div hidden>\r\n\r\n中文 **b**\r\n\r\n</div>\r\n\r\nc 発表"),
        ("😀 a\r\n\r\n\n\n\r\n\r\nc 発表".into(), "\r\n\r\n中文 b\r\n\r\n".into())
    );
    // code is not HTML
    assert_eq!(hidden("a `<span hidden>` b"), ("a <span hidden> b".into(), "".into()));
    // void elements hide nothing; an unclosed hidden element hides the rest
    assert_eq!(hidden("a <br hidden> b"), ("a \n b".into(), "".into()));
    assert_eq!(hidden("a <span hidden>b\n\nc"), ("a ".into(), "b\n\nc".into()));
    // a heading whose text is all hidden is no heading
    assert_eq!(headings("# <span hidden>Secret</span>\n\n# Shown <i hidden>x</i>here\n").len(), 1);
}
