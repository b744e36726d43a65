//! Citation parsing at scale (issue 13: `parseCitations` over 2000
//! citations took 87 s in wasm, the work was quadratic). Each test builds a
//! report of ~20,000 citations from its own generator, which knows the
//! claim, quote, file, range and report line of every citation it wrote, and
//! checks every one of them; none measures time, but the quadratic code took
//! minutes on these inputs and the linear one takes well under a second
//! (release). Runs natively and in wasm.

use evidence_validator::judge::citations::{parse_citations, parse_report, MAX_CLAIM_WINDOW};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

/// What the generator wrote for one citation.
struct Expected {
    file: String,
    start: usize,
    end: usize,
    claim: String,
    quote: String,
    line: usize,
}

/// A report of `n` citations in paragraphs of `per_paragraph` sentences,
/// a fenced code block (with citation-like text that is not a citation)
/// after every paragraph, and an invalid citation (`L{k+6}-L{k+1}`) in
/// every 97th sentence.
fn report(n: usize, per_paragraph: usize) -> (String, Vec<Expected>, Vec<(usize, String)>) {
    let mut md = String::from("# Generated report\n\n");
    let mut line = 3;
    let (mut expected, mut invalid) = (Vec::new(), Vec::new());
    for k in 0..n {
        let file = format!("source-{}.txt", k % 7);
        let (start, end) = (k + 1, k + 1 + k % 3);
        let claim_words = format!("Claim number {k} says \"the value {k} holds\"");
        if k % 97 == 0 {
            md.push_str(&format!("Broken [bad-{k}.txt:L{}-L{}](bad.txt) here. ", k + 6, k + 1));
            invalid.push((line, format!("start line {} is after end line {}", k + 6, k + 1)));
        }
        md.push_str(&format!("{claim_words} [{file}:L{start}-L{end}](data/canonical/{file}). "));
        expected.push(Expected { file, start, end, claim: claim_words, quote: format!("the value {k} holds"), line });
        if k % per_paragraph == per_paragraph - 1 {
            md.push_str(&format!("\n\n```\n[code-{k}.txt:L1-L2](c) [x:L9-L1](y)\n```\n\n"));
            line += 6;
        }
    }
    (md, expected, invalid)
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn twenty_thousand_citations_all_read_right() {
    let (md, expected, invalid) = report(20_000, 40);
    let r = parse_report(&md);
    assert_eq!(r.citations.len(), expected.len());
    for (k, (c, e)) in r.citations.iter().zip(&expected).enumerate() {
        assert_eq!(c.index, k + 1);
        assert_eq!((c.file.as_str(), c.start_line, c.end_line), (e.file.as_str(), e.start, e.end), "citation {k}");
        assert_eq!(c.claim, e.claim, "citation {k}");
        assert_eq!(c.quote, e.quote, "citation {k}");
        assert_eq!(c.report_line, e.line, "citation {k}");
        assert_eq!(c.path, format!("data/canonical/{}", e.file));
        assert!(md[c.byte_offset..].starts_with(&c.markdown));
    }
    // every invalid citation, with its line and problem; none from the code blocks
    assert_eq!(r.invalid.len(), invalid.len());
    for (c, (line, problem)) in r.invalid.iter().zip(&invalid) {
        assert_eq!((c.report_line, &c.problem), (*line, problem));
    }
    // a later call still works
    assert_eq!(parse_citations("A claim [a.txt:L1](a.txt).").len(), 1);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn one_endless_paragraph_of_citations() {
    // 8000 citations in a 230 KB paragraph with no sentence end: every claim
    // is the whole paragraph so far, which the
    // quadratic code re-read for each citation; claims are now cut to the
    // last MAX_CLAIM_WINDOW bytes (at a word boundary)
    let n = 8_000;
    let mut md = String::new();
    for k in 0..n {
        md.push_str(&format!("word{k} [f.txt:L{}](f.txt) ", k + 1));
    }
    let cs = parse_citations(&md);
    assert_eq!(cs.len(), n);
    for (k, c) in cs.iter().enumerate() {
        assert_eq!(c.start_line, k + 1);
        assert_eq!(c.report_line, 1);
        assert!(c.claim.len() <= MAX_CLAIM_WINDOW, "citation {k}: {} bytes", c.claim.len());
        assert!(
            c.claim.ends_with(&format!("word{k}")),
            "citation {k}: {:?}",
            &c.claim[c.claim.len().saturating_sub(40)..]
        );
        let first = c.claim.split(' ').next().unwrap_or("");
        let from: usize = first.strip_prefix("word").and_then(|d| d.parse().ok()).expect("starts at a whole word");
        assert_eq!(c.claim, (from..=k).map(|j| format!("word{j}")).collect::<Vec<_>>().join(" "), "citation {k}");
        // cut only when the paragraph before the citation is longer than the window
        assert_eq!(from == 0, c.byte_offset < MAX_CLAIM_WINDOW, "citation {k}");
    }
    // the same citations each opening its own paragraph: each backs the sentence after it
    let md: String = (0..n).map(|k| format!("[f.txt:L{}](f.txt) Sentence {k} here. Next.\n\n", k + 1)).collect();
    let cs = parse_citations(&md);
    assert_eq!(cs.len(), n);
    assert!(cs.iter().enumerate().all(|(k, c)| c.claim == format!("Sentence {k} here.") && c.report_line == 2 * k + 1));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bracket_storms_are_not_citations() {
    // every `[` used to scan to the next `]` or `](` anywhere after it
    let storms = [
        "[".repeat(200_000),
        "[a:L1](".repeat(40_000),
        "[a:L1".repeat(40_000),
        "[x](".repeat(40_000) + "y",
        "“".repeat(50_000) + " [a:L1](a)",
        "```\n".repeat(20_000) + "[a:L1](a)",
    ];
    for (i, md) in storms.iter().enumerate() {
        let r = parse_report(md);
        match i {
            4 => assert_eq!(r.citations.len(), 1, "storm {i}"),
            // an even number of fences: the citation after them is outside code
            5 => assert_eq!(r.citations.len(), 1, "storm {i}"),
            _ => assert!(r.citations.is_empty() && r.invalid.is_empty(), "storm {i}"),
        }
    }
    assert_eq!(parse_citations("Claim [a.txt:L2-L3](a.txt)")[0].claim, "Claim");
}
