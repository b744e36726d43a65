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

use super::lines::LineIndex;
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

/// What `md[at..]` starts with.
enum Found {
    /// A citation: (end, file, path, start line, end line).
    Valid(usize, String, String, usize, usize),
    /// Citation markup whose range is wrong: (end, file, path, range as written, what is wrong).
    Invalid(usize, String, String, String, String),
}

/// The first of `stops` in `s`, with its byte position.
fn first_of(s: &str, stops: &[char]) -> Option<(usize, char)> {
    s.char_indices().find(|(_, c)| stops.contains(c))
}

/// What is wrong with a range written `L…` (`None`: nothing).
fn range_problem(range: &str) -> Option<String> {
    if super::lines::LineRange::parse(range).is_ok() {
        return None;
    }
    let pieces: Vec<&str> = range.split('-').collect();
    let numbers: Vec<Option<Result<usize, String>>> = pieces
        .iter()
        .map(|p| {
            let t = p.trim();
            let t = t.strip_prefix(['L', 'l']).unwrap_or(t);
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then(|| {
                t.parse::<usize>().map_err(|_| format!("line number {t} is too large (at most {})", usize::MAX))
            })
        })
        .collect();
    match numbers.as_slice() {
        [Some(Err(e))] | [Some(Err(e)), Some(_)] | [Some(Ok(_)), Some(Err(e))] => Some(e.clone()),
        [Some(Ok(0))] | [Some(Ok(0)), Some(Ok(_))] | [Some(Ok(_)), Some(Ok(0))] => {
            Some("line numbers start at 1 (got L0)".to_string())
        }
        [Some(Ok(a)), Some(Ok(b))] if a > b => Some(format!("start line {a} is after end line {b}")),
        _ => Some(format!("{:?} is not a line range like L12-L14 or L12", range.trim())),
    }
}

/// A citation if `md[at..]` (at a `[`) starts with one. Every scan stops at
/// the next `[` or line end, so trying every `[` of a report is linear.
fn citation_at(md: &str, at: usize) -> Option<Found> {
    let rest = md.get(at..)?;
    let (close, c) = first_of(rest.get(1..)?, &['[', ']', '\n']).map(|(p, c)| (p + 1, c))?;
    if c != ']' {
        return None;
    }
    let inner = &rest[1..close];
    let colon = inner.rfind(':')?;
    let (file, range) = (inner[..colon].trim(), &inner[colon + 1..]);
    let r = range.trim_start();
    let mut chars = r.chars();
    if file.is_empty() || !matches!(chars.next(), Some('L' | 'l')) || !chars.next().is_some_and(|c| c.is_ascii_digit())
    {
        return None;
    }
    let after = &rest[close + 1..];
    if !after.starts_with('(') {
        return None;
    }
    let (paren_close, c) = first_of(after, &[')', '[', '\n'])?;
    if c != ')' {
        return None;
    }
    let target = &after[1..paren_close];
    // drop an optional link title: (path "title")
    let path = target.trim().split_once(char::is_whitespace).map_or(target.trim(), |(p, _)| p);
    let end = at + close + 1 + paren_close + 1;
    Some(match range_problem(range) {
        None => match super::lines::LineRange::parse(range) {
            Ok(r) => Found::Valid(end, file.to_string(), path.to_string(), r.start, r.end),
            Err(e) => Found::Invalid(end, file.to_string(), path.to_string(), range.trim().to_string(), e.to_string()),
        },
        Some(problem) => Found::Invalid(end, file.to_string(), path.to_string(), range.trim().to_string(), problem),
    })
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
        if let Some(inner) = rest.strip_prefix('[') {
            // `[text](target)`: the text has no brackets or line ends and the
            // target no `[`; each scan stops at the next `[`, so this is linear
            if let Some((close, ']')) = first_of(inner, &['[', ']', '\n']).map(|(p, c)| (p + 1, c)) {
                if rest[close..].starts_with("](") {
                    if let Some((end, ')')) = first_of(&rest[close..], &[')', '[']) {
                        out.push_str(&rest[1..close]);
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
        if t.len() == before.len() {
            // t is a suffix of before: equal lengths, nothing stripped (no compare of the text)
            return t;
        }
    }
}

/// Whether a line starts a new block (list item, heading, quote, table row).
fn starts_block(line: &str) -> bool {
    let t = line.trim_start();
    strip_block_marker(t).len() != t.len() || t.starts_with('|')
}

/// Start of the block (paragraph or list item) holding byte `at`, or
/// `floor` when the block starts before it.
fn block_start(md: &str, at: usize, floor: usize) -> usize {
    let mut line_start = md[floor..at].rfind('\n').map_or(floor, |p| floor + p + 1);
    loop {
        if line_start <= floor {
            return floor;
        }
        // the line only: the rest of the report is none of its business
        let line_end = md[line_start..at].find('\n').map_or(at, |p| line_start + p);
        if starts_block(&md[line_start..line_end]) {
            return line_start;
        }
        let prev_start = md[floor..line_start - 1].rfind('\n').map_or(floor, |p| floor + p + 1);
        let prev = &md[prev_start..line_start - 1];
        if prev.trim().is_empty() || prev.trim_start().starts_with('#') || prev.trim_start().starts_with("```") {
            return line_start;
        }
        line_start = prev_start;
    }
}

/// End of the block holding byte `at` (at a blank line or a new block),
/// or `ceiling` when the block ends after it.
fn block_end(md: &str, at: usize, ceiling: usize) -> usize {
    let md = &md[..ceiling];
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

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `s` at or above `i`.
fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
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
    let mut best_len = 0;
    for (open, close) in [('"', '"'), ('“', '”')] {
        let mut rest = claim;
        while let Some(a) = rest.find(open) {
            let after = &rest[a + open.len_utf8()..];
            let Some(b) = after.find(close) else { break };
            let q = after[..b].trim();
            let len = q.chars().count();
            if !q.is_empty() && (best.is_none() || len > best_len) {
                best = Some(q);
                best_len = len;
            }
            rest = &after[b + close.len_utf8()..];
        }
    }
    best.map(str::to_string)
}

/// How far before a citation (and after, for one that opens its
/// paragraph) the claim is looked for, in bytes: a sentence longer than
/// this is cut to its last part (at a word boundary). It bounds the work
/// per citation, so a report is parsed in time linear in its length.
pub const MAX_CLAIM_WINDOW: usize = 4096;

/// Citation markup whose line range is wrong (`L7-L5`, `L0`, a number too
/// large): not checked, but reported (`verify-report` lists it, and
/// `--strict` fails on it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidCitation {
    /// Position among the report's invalid citations, from 1.
    pub index: usize,
    /// The cited file's label.
    pub file: String,
    /// The link target.
    pub path: String,
    /// The range as written (`L7-L5`).
    pub range: String,
    /// What is wrong with it.
    pub problem: String,
    /// The citation as written.
    pub markdown: String,
    /// The report line it is on (1-based).
    pub report_line: usize,
    /// Byte offset of the citation in the report.
    pub byte_offset: usize,
}

/// The citations of a report: the ones to check and the invalid ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportCitations {
    /// Citations with a valid range, in order, with their claims and quotes.
    pub citations: Vec<Citation>,
    /// Citation markup with a wrong range, in order.
    pub invalid: Vec<InvalidCitation>,
}

/// Every citation of a markdown report, in order, with its claim and quote
/// (the invalid ones are left out; [`parse_report`] has them).
pub fn parse_citations(markdown: &str) -> Vec<Citation> {
    parse_report(markdown).citations
}

/// Every citation of a markdown report, valid and invalid, in order. Time
/// linear in the report's length: code blocks and citation spans are
/// looked up by binary search, line numbers counted incrementally, and each
/// claim read from at most [`MAX_CLAIM_WINDOW`] bytes.
pub fn parse_report(markdown: &str) -> ReportCitations {
    let code = code_ranges(markdown); // sorted, disjoint
    let in_code = |p: usize| {
        let k = code.partition_point(|&(_, e)| e <= p);
        code.get(k).is_some_and(|&(s, e)| p >= s && p < e)
    };
    let mut found: Vec<(usize, Found)> = Vec::new();
    let mut i = 0;
    while let Some(off) = markdown.get(i..).and_then(|r| r.find('[')) {
        let at = i + off;
        if !in_code(at) {
            if let Some(f) = citation_at(markdown, at) {
                let end = match &f {
                    Found::Valid(end, ..) | Found::Invalid(end, ..) => *end,
                };
                found.push((at, f));
                i = end;
                continue;
            }
        }
        i = at + 1;
    }
    // every citation's markup (valid or not), sorted: cut out of claims
    let spans: Vec<(usize, usize)> = found
        .iter()
        .map(|(at, f)| match f {
            Found::Valid(end, ..) | Found::Invalid(end, ..) => (*at, *end),
        })
        .collect();
    let within = |from: usize, to: usize| -> &[(usize, usize)] {
        let lo = spans.partition_point(|&(a, _)| a < from);
        let hi = spans.partition_point(|&(a, _)| a < to);
        spans.get(lo..hi).unwrap_or(&[])
    };
    let mut out = ReportCitations::default();
    let (mut line, mut line_pos) = (1usize, 0usize);
    for (at, f) in found {
        line += markdown[line_pos..at].bytes().filter(|&b| b == b'\n').count();
        line_pos = at;
        match f {
            Found::Invalid(end, file, path, range, problem) => out.invalid.push(InvalidCitation {
                index: out.invalid.len() + 1,
                file,
                path,
                range,
                problem,
                markdown: markdown[at..end].to_string(),
                report_line: line,
                byte_offset: at,
            }),
            Found::Valid(end, file, path, s, e) => {
                let claim = claim_for(markdown, at, end, &within);
                let quote = quoted_passage(&claim)
                    .unwrap_or_else(|| claim.trim_end_matches(|c: char| ".!?;:,".contains(c)).trim().to_string());
                out.citations.push(Citation {
                    index: out.citations.len() + 1,
                    file,
                    path,
                    start_line: s,
                    end_line: e,
                    markdown: markdown[at..end].to_string(),
                    report_line: line,
                    byte_offset: at,
                    claim,
                    quote,
                });
            }
        }
    }
    out
}

/// `text` from its first whitespace on, when it was cut at `from` > the
/// block's real start (so that a claim does not start mid-word).
fn from_word_boundary(md: &str, from: usize, cut: bool) -> usize {
    if !cut {
        return from;
    }
    md[from..].find(char::is_whitespace).map_or(from, |p| from + p)
}

/// The claim the citation at `at..end` backs (see the module documentation).
fn claim_for<'s>(
    markdown: &str,
    at: usize,
    end: usize,
    within: &impl Fn(usize, usize) -> &'s [(usize, usize)],
) -> String {
    let floor = floor_boundary(markdown, at.saturating_sub(MAX_CLAIM_WINDOW));
    let bs = block_start(markdown, at, floor);
    let bs = from_word_boundary(markdown, bs, bs == floor && floor > 0);
    let cuts: Vec<(usize, usize)> = within(bs, at).iter().copied().filter(|&(_, b)| b <= at).collect();
    let before = clean(&without(&markdown[bs..at], bs, &cuts));
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || "([{—–-,;:".contains(c));
    let claim = before[last_sentence_start(before)..].trim().to_string();
    if !claim.is_empty() {
        return claim;
    }
    // the citation opens its paragraph: it backs the sentence after it
    let ceiling = ceil_boundary(markdown, end.saturating_add(MAX_CLAIM_WINDOW));
    let be = block_end(markdown, end, ceiling);
    let later: Vec<(usize, usize)> = within(end, be).iter().copied().filter(|&(_, b)| b <= be).collect();
    let after = clean(&without(&markdown[end..be], end, &later));
    let after = after.trim_start_matches(|c: char| c.is_whitespace() || ")]}—–-,;:".contains(c));
    let cut = sentence_starts(&format!("{after} ")).first().copied().unwrap_or(after.len()).min(after.len());
    after[..cut].trim().to_string()
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
    /// Citations checked (the invalid ones are counted apart).
    pub total: usize,
    /// Citations with verdict VALID.
    pub verified: usize,
    /// `verified / (total + invalid)` (0 for no citations): an invalid
    /// citation counts as not verified.
    pub verification_rate: f64,
    /// Citations per verdict.
    pub verdicts: BTreeMap<Verdict, usize>,
    /// Whether a jury was convened for any citation.
    pub jury_convened: bool,
    /// Citations with a wrong line range, not checked (see `invalid_citations`).
    #[serde(default)]
    pub invalid: usize,
}

/// Counts the verdicts.
pub fn summarize(results: &[CitationResult]) -> Summary {
    summarize_with(results, 0)
}

/// Counts the verdicts, with `invalid` citations that could not be checked.
pub fn summarize_with(results: &[CitationResult], invalid: usize) -> Summary {
    let mut verdicts = BTreeMap::new();
    for r in results {
        *verdicts.entry(r.result.verdict).or_insert(0) += 1;
    }
    let verified = results.iter().filter(|r| r.result.verified).count();
    let total = results.len();
    let all = total.saturating_add(invalid);
    Summary {
        total,
        verified,
        verification_rate: if all == 0 { 0.0 } else { verified as f64 / all as f64 },
        verdicts,
        jury_convened: results.iter().any(|r| r.result.jury.convened),
        invalid,
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
    /// Citations with a wrong line range (`L7-L5`, `L0`, a number too
    /// large), each with what is wrong and where; never checked.
    #[serde(default)]
    pub invalid_citations: Vec<InvalidCitation>,
}

impl BatchReport {
    /// The report for `results` (summary computed).
    pub fn new(
        report: impl Into<String>,
        generated_at: impl Into<String>,
        results: Vec<CitationResult>,
    ) -> BatchReport {
        BatchReport {
            report: report.into(),
            generated_at: generated_at.into(),
            summary: summarize(&results),
            results,
            invalid_citations: Vec::new(),
        }
    }

    /// The same with the report's invalid citations (summary recomputed).
    pub fn with_invalid(mut self, invalid: Vec<InvalidCitation>) -> BatchReport {
        self.summary = summarize_with(&self.results, invalid.len());
        self.invalid_citations = invalid;
        self
    }

    /// Whether every citation is valid and verified (what `--strict` asks).
    pub fn all_verified(&self) -> bool {
        self.invalid_citations.is_empty() && self.results.iter().all(|r| r.result.verified)
    }

    /// A readable markdown version.
    pub fn to_markdown(&self) -> String {
        let s = &self.summary;
        let mut out = format!(
            "# Verification of {}\n\nGenerated {}.\n\n**{} of {} citations verified ({:.1} %).**{}{}\n\n| verdict | citations |\n|---|---|\n",
            self.report,
            self.generated_at,
            s.verified,
            s.total.saturating_add(s.invalid),
            s.verification_rate * 100.0,
            if s.invalid == 0 {
                String::new()
            } else {
                format!(" {} citation(s) have an invalid line range and were not checked.", s.invalid)
            },
            if s.jury_convened { "" } else { " No jury was convened: only steps 1 and 2 ran." }
        );
        for (v, n) in &s.verdicts {
            out.push_str(&format!("| {} | {n} |\n", v.as_str()));
        }
        if s.invalid > 0 {
            out.push_str(&format!("| INVALID_CITATION | {} |\n", s.invalid));
        }
        for c in &self.invalid_citations {
            out.push_str(&format!(
                "\n## Invalid citation {}. `{}` (report line {}): {}\n",
                c.index,
                c.markdown.replace('`', "'"),
                c.report_line,
                c.problem
            ));
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
            if res.quote_outside_cited_lines {
                if let Some(at) = &res.quote_lines {
                    out.push_str(&format!(
                        "- Quote found at {at}, before the cited lines: the citation names the wrong lines\n"
                    ));
                }
            }
            for change in &res.quote_changes {
                out.push_str(&format!("- Quote changes the source: {}\n", change.describe()));
            }
            if let Some(sem) = &res.step_3_semantic {
                out.push_str(&format!("- Jury: {}\n", sem.reason.replace('\n', " ")));
            }
        }
        out
    }
}

/// What a host's lookup of one file name found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// The file's text.
    Found(String),
    /// Nothing under that name (why); the next candidate name is tried.
    Missing(String),
    /// The name is refused (why: it leaves the canonical directory); no
    /// other name of the citation is tried.
    Refused(String),
}

/// The cited files of one report (spec 002 batch verification), shared by
/// the CLI's `verify-report` and JS `verifyReport`: a citation's source is
/// the first of its [`Citation::candidate_names`] the host finds, and each
/// name is looked up and line-indexed once however many citations name it.
#[derive(Debug, Default)]
pub struct CitedFiles {
    files: std::collections::HashMap<String, Cited>,
}

/// One name looked up.
#[derive(Debug)]
enum Cited {
    Read(String, LineIndex),
    Missing(String),
    Refused(String),
}

impl CitedFiles {
    /// No file looked up yet.
    pub fn new() -> CitedFiles {
        CitedFiles::default()
    }

    /// The source of `citation` and the name it was found under, looking
    /// names up with `read` (only those not looked up before); without
    /// one, the last lookup's reason.
    pub fn resolve(
        &mut self,
        citation: &Citation,
        mut read: impl FnMut(&str) -> Lookup,
    ) -> (Option<String>, Result<(&str, &LineIndex), String>) {
        let mut reason = String::from("no file name");
        let mut found = None;
        for name in citation.candidate_names() {
            let entry = self.files.entry(name.clone()).or_insert_with(|| match read(&name) {
                Lookup::Found(text) => {
                    let index = LineIndex::new(&text);
                    Cited::Read(text, index)
                }
                Lookup::Missing(why) => Cited::Missing(why),
                Lookup::Refused(why) => Cited::Refused(why),
            });
            match entry {
                Cited::Read(..) => {
                    found = Some(name);
                    break;
                }
                Cited::Missing(why) => reason.clone_from(why),
                Cited::Refused(why) => {
                    reason.clone_from(why);
                    break;
                }
            }
        }
        match found.as_ref().and_then(|name| self.files.get(name)) {
            Some(Cited::Read(text, index)) => (found, Ok((text.as_str(), index))),
            _ => (None, Err(reason)),
        }
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
    fn cited_files_are_looked_up_once_by_name_and_a_refusal_ends_the_search() {
        let md = "One [a.txt:L1-L1](docs/b.txt). Two [a.txt:L2-L2](docs/b.txt). Three [c.txt:L1-L1](../c.txt).\n";
        let citations = parse_citations(md);
        assert_eq!(citations[0].candidate_names(), ["a.txt", "b.txt", "docs/b.txt"]);
        let mut files = CitedFiles::new();
        let mut asked = Vec::new();
        let mut read = |name: &str| {
            asked.push(name.to_string());
            match name {
                "b.txt" => Lookup::Found("line one\nline two\n".into()),
                "c.txt" => Lookup::Refused("refused: outside".into()),
                _ => Lookup::Missing(format!("no {name}")),
            }
        };
        for c in &citations[..2] {
            let (name, source) = files.resolve(c, &mut read);
            assert_eq!(name.as_deref(), Some("b.txt"));
            assert_eq!(source.map(|(text, _)| text), Ok("line one\nline two\n"));
        }
        let (name, source) = files.resolve(&citations[2], &mut read);
        assert_eq!((name, source.map(|_| ())), (None, Err("refused: outside".to_string())));
        // a.txt and b.txt once for both citations; ../c.txt never asked after the refusal of c.txt
        assert_eq!(asked, ["a.txt", "b.txt", "c.txt"]);
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
            "[a:L1](x\ny)",
            "",
            "[",
            "[[a:L1](",
            "[é:L1](ü",
        ] {
            assert_eq!(parse_report(md), ReportCitations::default(), "{md:?}");
        }
    }

    #[test]
    fn bad_ranges_are_invalid_citations_with_what_and_where() {
        let md = "# R\n\nA [a.txt:L7-L5](a.txt). B [b.txt:L0](b.txt)\nC [c.txt:L99999999999999999999999](c)\n\
D [d.txt:L3-L0](d) E [e.txt:L1-x](e) F [f.txt:L2](f) G [g.txt:L1-L2-L3](g)";
        let r = parse_report(md);
        assert_eq!(r.citations.len(), 1);
        assert_eq!(r.citations[0].file, "f.txt");
        assert_eq!(r.citations[0].claim, "B C D E F", "invalid citations are cut out of claims like valid ones");
        let got: Vec<(&str, &str, usize)> =
            r.invalid.iter().map(|c| (c.file.as_str(), c.problem.as_str(), c.report_line)).collect();
        assert_eq!(
            got,
            vec![
                ("a.txt", "start line 7 is after end line 5", 3),
                ("b.txt", "line numbers start at 1 (got L0)", 3),
                ("c.txt", &*format!("line number 99999999999999999999999 is too large (at most {})", usize::MAX), 4),
                ("d.txt", "line numbers start at 1 (got L0)", 5),
                ("e.txt", "\"L1-x\" is not a line range like L12-L14 or L12", 5),
                ("g.txt", "\"L1-L2-L3\" is not a line range like L12-L14 or L12", 5),
            ]
        );
        for c in &r.invalid {
            assert_eq!(&md[c.byte_offset..c.byte_offset + c.markdown.len()], c.markdown);
        }
        assert_eq!((r.invalid[0].range.as_str(), r.invalid[0].index, r.invalid[5].index), ("L7-L5", 1, 6));
        // a later call still works
        assert_eq!(parse_report("x [a:L1](a)").citations.len(), 1);
    }
}
