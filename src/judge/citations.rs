//! Batch verification of a markdown report (spec 002 "Batch verification",
//! `verify_report.py`): every `[file:Lxxxx](path)` and `[file:Lx-Ly](path)`
//! citation, the claim it backs, and a summary of the verdicts.
//!
//! Decisions where the spec is silent:
//! - **The claim** is the sentence before the citation: the text of the same
//!   paragraph (or list item) from the previous sentence end (`.`, `!` or
//!   `?` followed by a space, outside a few abbreviations such as `e.g.`) up
//!   to the citation, with other citations and inline markup removed. A
//!   citation that opens its paragraph backs the sentence after it.
//!   Several citations in a row back the same sentence.
//! - **The quote** is the longest passage in double quotes (`"…"` or `“…”`)
//!   within the claim, or else the claim itself (without its final
//!   punctuation): a report that paraphrases its source then fails step 2,
//!   which is the point of the check.
//! - **The file** is the citation's label (`file`); the surfaces look it up
//!   as given, then by the link's file name, then by the link's path
//!   ([`Citation::candidate_names`]).
//! - Citations inside fenced code blocks are not citations.

use super::{ClaimRequest, JudgeResult, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One citation found in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    /// Position among the report's citations, from 1.
    pub index: usize,
    /// The cited file's label (`file` in `[file:L1-L2](path)`).
    pub file: String,
    /// The link target (`path`).
    pub path: String,
    /// First cited line.
    pub start_line: usize,
    /// Last cited line.
    pub end_line: usize,
    /// The citation as written.
    pub markdown: String,
    /// The report line it is on (1-based).
    pub report_line: usize,
    /// Byte offset of the citation in the report.
    pub byte_offset: usize,
    /// The claim it backs.
    pub claim: String,
    /// The quote checked against the cited lines.
    pub quote: String,
}

impl Citation {
    /// The judge's request for this citation.
    pub fn request(&self) -> ClaimRequest {
        ClaimRequest::new(self.claim.clone(), self.quote.clone(), self.file.clone(), self.start_line, self.end_line)
    }

    /// Names to look the source up by, in order: the label, the link's last
    /// path component, the link's path (each once).
    pub fn candidate_names(&self) -> Vec<String> {
        let base = self.path.rsplit(['/', '\\']).next().unwrap_or("").to_string();
        let mut out: Vec<String> = Vec::new();
        for n in [self.file.clone(), base, self.path.clone()] {
            if !n.is_empty() && !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }
}

/// Byte ranges of fenced code blocks (``` or ~~~ fences).
fn code_ranges(md: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char, usize)> = None; // (start, fence char, fence length)
    let mut pos = 0;
    for line in md.split_inclusive('\n') {
        let t = line.trim_start();
        let fence =
            t.chars().next().filter(|c| *c == '`' || *c == '~').map(|c| (c, t.chars().take_while(|&x| x == c).count()));
        match (open, fence) {
            (None, Some((c, n))) if n >= 3 => open = Some((pos, c, n)),
            (Some((start, c, n)), Some((c2, n2))) if c == c2 && n2 >= n && t.trim_end().chars().all(|x| x == c) => {
                out.push((start, pos + line.len()));
                open = None;
            }
            _ => {}
        }
        pos += line.len();
    }
    if let Some((start, _, _)) = open {
        out.push((start, md.len()));
    }
    out
}

/// A citation's pieces if `md[at..]` starts with one: (end, file, path, start, end line).
fn citation_at(md: &str, at: usize) -> Option<(usize, String, String, usize, usize)> {
    let rest = md.get(at..)?;
    let close = rest.find(']')?;
    let inner = &rest[1..close];
    if inner.contains(['[', '\n']) {
        return None;
    }
    let colon = inner.rfind(':')?;
    let (file, range) = (inner[..colon].trim(), &inner[colon + 1..]);
    if file.is_empty() || !range.trim_start().starts_with(['L', 'l']) {
        return None;
    }
    let r = super::lines::LineRange::parse(range).ok()?;
    let after = &rest[close + 1..];
    if !after.starts_with('(') {
        return None;
    }
    let paren_close = after.find(')')?;
    let target = &after[1..paren_close];
    if target.contains('\n') {
        return None;
    }
    // drop an optional link title: (path "title")
    let path = target.trim().split_once(char::is_whitespace).map_or(target.trim(), |(p, _)| p);
    Some((at + close + 1 + paren_close + 1, file.to_string(), path.to_string(), r.start, r.end))
}

const ABBREVIATIONS: &[&str] = &[
    "e.g.", "i.e.", "vs.", "cf.", "dr.", "mr.", "mrs.", "ms.", "st.", "inc.", "ltd.", "co.", "no.", "fig.", "approx.",
    "u.s.", "p.", "pp.",
];

/// Byte indices where a sentence starts after a terminator (`.`, `!`, `?`,
/// then closing quotes or brackets, then whitespace), in order; a `.` ending
/// an abbreviation or an initial is not a terminator.
fn sentence_starts(s: &str) -> Vec<usize> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    for (k, &b) in bytes.iter().enumerate() {
        if !matches!(b, b'.' | b'!' | b'?') {
            continue;
        }
        let mut j = k + 1;
        while let Some(c) = s[j..].chars().next().filter(|c| "\"'”’)]".contains(*c)) {
            j += c.len_utf8();
        }
        let Some(ws) = s[j..].chars().next() else {
            continue;
        };
        if !ws.is_whitespace() {
            continue;
        }
        if b == b'.' {
            let word_start = s[..k].rfind(char::is_whitespace).map_or(0, |p| p + 1);
            let word = s[word_start..=k].to_lowercase();
            let initial = word.chars().count() == 2 && word.chars().next().is_some_and(char::is_alphabetic);
            if ABBREVIATIONS.contains(&word.as_str()) || initial {
                continue;
            }
        }
        out.push(j + ws.len_utf8());
    }
    out
}

/// Byte index where the last sentence of `s` starts (its own final
/// punctuation does not count).
fn last_sentence_start(s: &str) -> usize {
    let core = s.trim_end_matches(|c: char| ".!?\"'”’)".contains(c));
    sentence_starts(core).last().copied().unwrap_or(0)
}

/// Inline markup removed: links kept as their text, emphasis and code marks dropped.
fn plain_inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if rest.starts_with('[') {
            if let Some(close) = rest.find("](") {
                if let Some(end) = rest[close..].find(')') {
                    let text = &rest[1..close];
                    if !text.contains(['[', ']', '\n']) {
                        out.push_str(text);
                        i += close + end + 1;
                        continue;
                    }
                }
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        if rest.starts_with("__") {
            i += 2; // strong emphasis
            continue;
        }
        if !matches!(c, '*' | '`') {
            out.push(c);
        }
        i += c.len_utf8();
    }
    out
}

/// A markdown line without its block marker (heading, quote, list item).
fn strip_block_marker(line: &str) -> &str {
    let mut t = line.trim_start();
    loop {
        let before = t;
        t = t.trim_start_matches('>').trim_start();
        if let Some(r) = t.strip_prefix(['-', '*', '+']).filter(|r| r.starts_with(' ')) {
            t = r.trim_start();
        }
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && matches!(t.as_bytes().get(digits), Some(b'.' | b')'))
            && t.as_bytes().get(digits + 1) == Some(&b' ')
        {
            t = t[digits + 2..].trim_start();
        }
        let hashes = t.bytes().take_while(|&b| b == b'#').count();
        if hashes > 0 && t.as_bytes().get(hashes) == Some(&b' ') {
            t = t[hashes + 1..].trim_start();
        }
        if t == before {
            return t;
        }
    }
}

/// Whether a line starts a new block (list item, heading, quote, table row).
fn starts_block(line: &str) -> bool {
    let t = line.trim_start();
    strip_block_marker(t).len() != t.len() || t.starts_with('|')
}

/// Start of the block (paragraph or list item) holding byte `at`.
fn block_start(md: &str, at: usize) -> usize {
    let mut line_start = md[..at].rfind('\n').map_or(0, |p| p + 1);
    loop {
        if starts_block(&md[line_start..]) || line_start == 0 {
            return line_start;
        }
        let prev_start = md[..line_start - 1].rfind('\n').map_or(0, |p| p + 1);
        let prev = &md[prev_start..line_start - 1];
        if prev.trim().is_empty() || prev.trim_start().starts_with('#') || prev.trim_start().starts_with("```") {
            return line_start;
        }
        line_start = prev_start;
    }
}

/// End of the block holding byte `at` (at a blank line or a new block).
fn block_end(md: &str, at: usize) -> usize {
    let mut pos = md[at..].find('\n').map_or(md.len(), |p| at + p + 1);
    while pos < md.len() {
        let line_end = md[pos..].find('\n').map_or(md.len(), |p| pos + p + 1);
        let line = &md[pos..line_end];
        if line.trim().is_empty() || starts_block(line) {
            return pos;
        }
        pos = line_end;
    }
    md.len()
}

/// `text` with the given byte ranges (sorted, within `base..`) removed.
fn without(text: &str, base: usize, cuts: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut pos = base;
    for &(s, e) in cuts {
        if s < pos || e > base + text.len() {
            continue;
        }
        out.push_str(&text[pos - base..s - base]);
        out.push(' ');
        pos = e;
    }
    out.push_str(&text[pos - base..]);
    out
}

fn clean(text: &str) -> String {
    let joined: Vec<&str> = text.lines().map(strip_block_marker).collect();
    let plain = plain_inline(&joined.join(" "));
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest double-quoted passage in `claim`, if any.
fn quoted_passage(claim: &str) -> Option<String> {
    let mut best: Option<&str> = None;
    for (open, close) in [('"', '"'), ('“', '”')] {
        let mut rest = claim;
        while let Some(a) = rest.find(open) {
            let after = &rest[a + open.len_utf8()..];
            let Some(b) = after.find(close) else { break };
            let q = after[..b].trim();
            if !q.is_empty() && best.map_or(true, |x| q.chars().count() > x.chars().count()) {
                best = Some(q);
            }
            rest = &after[b + close.len_utf8()..];
        }
    }
    best.map(str::to_string)
}

/// Every citation of a markdown report, in order, with its claim and quote.
pub fn parse_citations(markdown: &str) -> Vec<Citation> {
    let code = code_ranges(markdown);
    let in_code = |p: usize| code.iter().any(|&(s, e)| p >= s && p < e);
    let mut found: Vec<(usize, usize, String, String, usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(off) = markdown.get(i..).and_then(|r| r.find('[')) {
        let at = i + off;
        if !in_code(at) {
            if let Some((end, file, path, s, e)) = citation_at(markdown, at) {
                found.push((at, end, file, path, s, e));
                i = end;
                continue;
            }
        }
        i = at + 1;
    }
    let spans: Vec<(usize, usize)> = found.iter().map(|f| (f.0, f.1)).collect();
    found
        .iter()
        .enumerate()
        .map(|(k, (at, end, file, path, s, e))| {
            let bs = block_start(markdown, *at);
            let cuts: Vec<(usize, usize)> = spans.iter().copied().filter(|&(a, b)| a >= bs && b <= *at).collect();
            let before = clean(&without(&markdown[bs..*at], bs, &cuts));
            let before = before.trim_end_matches(|c: char| c.is_whitespace() || "([{—–-,;:".contains(c));
            let mut claim = before[last_sentence_start(before)..].trim().to_string();
            if claim.is_empty() {
                // the citation opens its paragraph: it backs the sentence after it
                let be = block_end(markdown, *end);
                let later: Vec<(usize, usize)> = spans.iter().copied().filter(|&(a, b)| a >= *end && b <= be).collect();
                let after = clean(&without(&markdown[*end..be], *end, &later));
                let after = after.trim_start_matches(|c: char| c.is_whitespace() || ")]}—–-,;:".contains(c));
                let cut =
                    sentence_starts(&format!("{after} ")).first().copied().unwrap_or(after.len()).min(after.len());
                claim = after[..cut].trim().to_string();
            }
            let quote = quoted_passage(&claim)
                .unwrap_or_else(|| claim.trim_end_matches(|c: char| ".!?;:,".contains(c)).trim().to_string());
            Citation {
                index: k + 1,
                file: file.clone(),
                path: path.clone(),
                start_line: *s,
                end_line: *e,
                markdown: markdown[*at..*end].to_string(),
                report_line: markdown[..*at].matches('\n').count() + 1,
                byte_offset: *at,
                claim,
                quote,
            }
        })
        .collect()
}

/// One citation and its check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationResult {
    /// The citation.
    pub citation: Citation,
    /// The name the source was found under (none when it was not found).
    pub resolved_file: Option<String>,
    /// The judge's result.
    pub result: JudgeResult,
}

/// Summary of a batch (spec 002: "Count verdicts, calculate verification rate").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Citations checked.
    pub total: usize,
    /// Citations with verdict VALID.
    pub verified: usize,
    /// `verified / total` (0 for no citations).
    pub verification_rate: f64,
    /// Citations per verdict.
    pub verdicts: BTreeMap<Verdict, usize>,
    /// Whether a jury was convened for any citation.
    pub jury_convened: bool,
}

/// Counts the verdicts.
pub fn summarize(results: &[CitationResult]) -> Summary {
    let mut verdicts = BTreeMap::new();
    for r in results {
        *verdicts.entry(r.result.verdict).or_insert(0) += 1;
    }
    let verified = results.iter().filter(|r| r.result.verified).count();
    let total = results.len();
    Summary {
        total,
        verified,
        verification_rate: if total == 0 { 0.0 } else { verified as f64 / total as f64 },
        verdicts,
        jury_convened: results.iter().any(|r| r.result.jury.convened),
    }
}

/// The batch verification of one report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchReport {
    /// The report's name (its file stem).
    pub report: String,
    /// When it was made (RFC 3339, from the host's clock).
    pub generated_at: String,
    /// The summary.
    pub summary: Summary,
    /// Every citation's result, in report order.
    pub results: Vec<CitationResult>,
}

impl BatchReport {
    /// The report for `results` (summary computed).
    pub fn new(
        report: impl Into<String>,
        generated_at: impl Into<String>,
        results: Vec<CitationResult>,
    ) -> BatchReport {
        BatchReport { report: report.into(), generated_at: generated_at.into(), summary: summarize(&results), results }
    }

    /// A readable markdown version.
    pub fn to_markdown(&self) -> String {
        let s = &self.summary;
        let mut out = format!(
            "# Verification of {}\n\nGenerated {}.\n\n**{} of {} citations verified ({:.1} %).**{}\n\n| verdict | citations |\n|---|---|\n",
            self.report,
            self.generated_at,
            s.verified,
            s.total,
            s.verification_rate * 100.0,
            if s.jury_convened { "" } else { " No jury was convened: only steps 1 and 2 ran." }
        );
        for (v, n) in &s.verdicts {
            out.push_str(&format!("| {} | {n} |\n", v.as_str()));
        }
        for r in &self.results {
            let c = &r.citation;
            let res = &r.result;
            out.push_str(&format!(
                "\n## {}. `{}` (report line {}): {}\n\n- Claim: {}\n- Quote: {}\n- File: {} ({})\n- Quote score: {:.3} (threshold {})\n",
                c.index,
                c.markdown.replace('`', "'"),
                c.report_line,
                res.verdict.as_str(),
                c.claim,
                c.quote,
                c.file,
                r.resolved_file.as_deref().unwrap_or("not found"),
                res.quote_score,
                res.threshold
            ));
            if let Some(e) = &res.error {
                out.push_str(&format!("- Error: {e}\n"));
            }
            if let Some(sem) = &res.step_3_semantic {
                out.push_str(&format!("- Jury: {}\n", sem.reason.replace('\n', " ")));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_citations_claims_and_quotes() {
        let md = "# Report\n\nIntro text. The market grew 15% in 2023. [market.txt:L12](data/canonical/market.txt) \
The council said it \"will not raise taxes this year\" [minutes.txt:L3-L5](minutes.txt).\n\n\
- A list item claim [a.txt:L1-2](x/a.txt) and more\n\n```\n[code.txt:L1](c)\n```\n\
[b.txt:L9](b.txt) opens this paragraph. Next sentence.\n";
        let cs = parse_citations(md);
        assert_eq!(cs.len(), 4, "{cs:#?}");
        assert_eq!((cs[0].file.as_str(), cs[0].start_line, cs[0].end_line), ("market.txt", 12, 12));
        assert_eq!(cs[0].claim, "The market grew 15% in 2023.");
        assert_eq!(cs[0].quote, "The market grew 15% in 2023");
        assert_eq!(cs[0].path, "data/canonical/market.txt");
        assert_eq!(cs[1].claim, "The council said it \"will not raise taxes this year\"");
        assert_eq!(cs[1].quote, "will not raise taxes this year");
        assert_eq!((cs[1].start_line, cs[1].end_line), (3, 5));
        assert_eq!(cs[2].claim, "A list item claim");
        assert_eq!(cs[2].candidate_names(), vec!["a.txt".to_string(), "x/a.txt".to_string()]);
        assert_eq!(cs[3].claim, "opens this paragraph.");
        assert_eq!(cs[3].report_line, 10);
    }

    #[test]
    fn consecutive_citations_share_the_claim() {
        let cs = parse_citations("Dr. Smith approved it, e.g. twice. Sales doubled [a:L1](a) [b:L2](b).");
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].claim, "Sales doubled");
        assert_eq!(cs[1].claim, "Sales doubled");
        let cs = parse_citations("Dr. Smith approved it, e.g. twice [a:L1](a)");
        assert_eq!(cs[0].claim, "Dr. Smith approved it, e.g. twice");
    }

    #[test]
    fn ignores_non_citations() {
        for md in [
            "[link](x)",
            "[a:12](x)",
            "[a:L1]",
            "[a:L1] (x)",
            "[:L1](x)",
            "[a:L0](x)",
            "[a:L3-L1](x)",
            "[a:L1](x\ny)",
            "",
            "[",
            "[[a:L1](",
            "[é:L1](ü",
        ] {
            assert!(parse_citations(md).is_empty(), "{md:?}");
        }
    }
}
