//! Reading a juror's answer (spec 002 step 3, process 3): whatever text the
//! model sent back, as a [`Ballot`] or a reason why it cannot be read.
//!
//! Reasoning blocks are not the answer: `<think>…</think>`, `<thinking>`,
//! `<thought>`, `<reasoning>`, `<reflection>`, `<scratchpad>`, `<analysis>`
//! (any case) are removed first; an unclosed one runs to the end of the
//! answer, and a closing tag without an opening one ends a block that began
//! with the answer ([`strip_reasoning`]). Then, in this order:
//! 1. JSON: the whole answer, else the last fenced block (```` ```json ...
//!    ``` ````) or `{...}` object inside prose that has a verdict. An
//!    OpenAI-style chat completion (`choices[0].message.content`) is
//!    unwrapped first, so a host may hand over the raw HTTP body. The
//!    verdict is read from `verdict` (or `decision`, `label`, `result`,
//!    `answer`, any case); the three booleans from their spec names
//!    (`true`/`false`, `"yes"`/`"no"`, 1/0); the reason from `reason` (or
//!    `explanation`, `rationale`, `justification`).
//! 2. Plain words ([`last_explicit_verdict`]): the last `verdict: X` label,
//!    else the last verdict word (`VALID`, `MISLEADING`, `INSUFFICIENT`,
//!    `UNSUPPORTED`, any case, whole words; `invalid` is not `valid`) said
//!    outright: not negated in its clause (`not VALID`, `isn't VALID`), not
//!    asked (`VALID? No. UNSUPPORTED.` is UNSUPPORTED), not one of
//!    alternatives (`VALID or MISLEADING`, `VALID/MISLEADING`).
//!
//! An answer with no verdict (empty, only reasoning, only alternatives or
//! questions, JSON without a readable verdict) is an error here and an
//! abstention for the jury ([`super::jury`]).
//!
//! A boolean the answer does not give is implied by its verdict, from the
//! spec's verdict table: VALID = substantive, in context, supports;
//! MISLEADING = substantive, not in context, does not support;
//! INSUFFICIENT = not substantive, in context, does not support;
//! UNSUPPORTED = substantive, in context, does not support.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// One juror's verdict (spec 002 "LLM verdicts").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum JurorVerdict {
    /// Quote is substantive, in context, and supports the claim.
    Valid,
    /// Quote exists but its context changes its meaning.
    Misleading,
    /// Quote too short (< 5 words) or too generic.
    Insufficient,
    /// Quote does not logically support the claim.
    Unsupported,
}

impl JurorVerdict {
    /// All four, in the spec's order.
    pub const ALL: [JurorVerdict; 4] =
        [JurorVerdict::Valid, JurorVerdict::Misleading, JurorVerdict::Insufficient, JurorVerdict::Unsupported];

    /// `VALID`, `MISLEADING`, `INSUFFICIENT` or `UNSUPPORTED`.
    pub fn as_str(self) -> &'static str {
        match self {
            JurorVerdict::Valid => "VALID",
            JurorVerdict::Misleading => "MISLEADING",
            JurorVerdict::Insufficient => "INSUFFICIENT",
            JurorVerdict::Unsupported => "UNSUPPORTED",
        }
    }

    /// The verdict named by `word` (any case), if it is one.
    pub fn from_word(word: &str) -> Option<JurorVerdict> {
        JurorVerdict::ALL.into_iter().find(|v| v.as_str().eq_ignore_ascii_case(word))
    }

    /// `(substantive_quote, quote_in_context, supports_claim)` implied by the
    /// verdict's meaning, for answers that do not say.
    pub fn implied_flags(self) -> (bool, bool, bool) {
        match self {
            JurorVerdict::Valid => (true, true, true),
            JurorVerdict::Misleading => (true, false, false),
            JurorVerdict::Insufficient => (false, true, false),
            JurorVerdict::Unsupported => (true, true, false),
        }
    }
}

impl fmt::Display for JurorVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One juror's answer, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ballot {
    /// The verdict.
    pub verdict: JurorVerdict,
    /// Is the quote substantive (≥ 5 words)?
    pub substantive_quote: bool,
    /// Is the quote in context (not from a hypothetical or an opponent)?
    pub quote_in_context: bool,
    /// Does the source support the claim?
    pub supports_claim: bool,
    /// The juror's reason (may be empty).
    pub reason: String,
}

/// Most `{` positions tried as the start of a JSON object in one answer.
const MAX_OBJECT_ATTEMPTS: usize = 64;

/// Longest reason kept from a plain-words answer, in chars.
const MAX_PLAIN_REASON: usize = 500;

/// Reads a juror's raw answer. The error says why it cannot be read; the
/// jury counts such an answer as an abstention.
pub fn parse_answer(raw: &str) -> Result<Ballot, String> {
    parse_depth(raw, 0)
}

fn parse_depth(raw: &str, depth: usize) -> Result<Ballot, String> {
    let whole = raw.trim();
    if whole.is_empty() {
        return Err("empty answer".into());
    }
    let mut json_problem = None;
    // the whole answer as JSON first (a chat completion body holds its
    // reasoning inside a string, which is read on the next level)
    if let Ok(value) = serde_json::from_str::<Value>(whole) {
        match from_json(&value, depth) {
            Ok(b) => return Ok(b),
            Err(e) => json_problem = Some(e),
        }
    }
    let stripped = strip_reasoning(whole);
    let text = stripped.trim();
    if text.is_empty() {
        return Err(json_problem.unwrap_or_else(|| "no verdict outside the reasoning block".into()));
    }
    // the last JSON object or fenced block first: the final answer comes last
    for candidate in json_candidates(text).into_iter().rev() {
        let Ok(value) = serde_json::from_str::<Value>(candidate) else {
            continue;
        };
        match from_json(&value, depth) {
            Ok(b) => return Ok(b),
            Err(e) => {
                json_problem.get_or_insert(e);
            }
        }
    }
    match from_words(text) {
        Ok(b) => Ok(b),
        Err(e) => Err(json_problem.unwrap_or(e)),
    }
}

/// Tags of reasoning blocks (`<think>…</think>` and the like), whose
/// content is the model thinking aloud, not its answer.
const REASONING_TAGS: &[&str] =
    &["think", "thinking", "thought", "thoughts", "reasoning", "reflection", "scratchpad", "analysis"];

/// The tag at the start of `lower` (already lowercased): `(name, closing, length)`.
fn reasoning_tag(lower: &str) -> Option<(&'static str, bool, usize)> {
    let rest = lower.strip_prefix('<')?;
    let (closing, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    for &name in REASONING_TAGS {
        let Some(after) = rest.strip_prefix(name) else {
            continue;
        };
        // `<think>` or `<think attr="…">`, not `<thinkpad>`
        let end = match after.as_bytes().first() {
            Some(b'>') => 1,
            Some(b' ' | b'\t' | b'\n' | b'\r') if !closing => match after.find(['>', '<', '\n']) {
                Some(p) if after.as_bytes().get(p) == Some(&b'>') => p + 1,
                _ => continue,
            },
            _ => continue,
        };
        return Some((name, closing, 1 + usize::from(closing) + name.len() + end));
    }
    None
}

/// `text` without its reasoning blocks: `<think>…</think>`, `<thinking>`,
/// `<reasoning>`, … (any case); an unclosed block runs to the end, and a
/// closing tag with no opening one ends a block that started with the
/// answer (as some models send it). One pass, linear in the text.
pub fn strip_reasoning(text: &str) -> String {
    let lower = text.to_ascii_lowercase(); // same byte offsets as `text`
    let mut out = String::with_capacity(text.len());
    let mut copied = 0; // bytes of `text` handled so far
    let mut i = 0;
    while let Some(off) = lower.get(i..).and_then(|r| r.find('<')) {
        let at = i + off;
        match reasoning_tag(&lower[at..]) {
            Some((name, false, len)) => {
                out.push_str(&text[copied..at]);
                let close = format!("</{name}>");
                match lower[at + len..].find(&close) {
                    Some(p) => {
                        copied = at + len + p + close.len();
                        i = copied;
                    }
                    None => return out, // unclosed: reasoning to the end
                }
                out.push(' ');
            }
            Some((_, true, len)) => {
                // a stray closing tag: what came before it was reasoning
                out.clear();
                copied = at + len;
                i = copied;
            }
            None => i = at + 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Texts that may be JSON: the whole answer, fenced blocks, and balanced
/// `{...}` objects (outside JSON strings), in that order.
fn json_candidates(text: &str) -> Vec<&str> {
    let mut out = vec![text];
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(close) = after.find("```") else {
            break;
        };
        let block = &after[..close];
        // drop an info string such as `json` on the opening line
        let body = match block.split_once('\n') {
            Some((info, body)) if !info.trim_start().starts_with('{') => body,
            _ => block,
        };
        out.push(body.trim());
        rest = &after[close + 3..];
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut attempts = 0;
    while let Some(off) = bytes.get(i..).and_then(|b| b.iter().position(|&c| c == b'{')) {
        // each attempt may scan to the end: a bounded number keeps this linear
        attempts += 1;
        if attempts > MAX_OBJECT_ATTEMPTS {
            break;
        }
        let start = i + off;
        match balanced_object_end(bytes, start) {
            Some(end) => {
                out.push(&text[start..end]);
                i = end;
            }
            None => i = start + 1,
        }
        if out.len() > 64 {
            break;
        }
    }
    out
}

/// End (exclusive) of the `{...}` starting at `start`, skipping strings.
fn balanced_object_end(b: &[u8], start: usize) -> Option<usize> {
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for (k, &c) in b.iter().enumerate().skip(start) {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn get_ci<'v>(obj: &'v Map<String, Value>, names: &[&str]) -> Option<&'v Value> {
    names.iter().find_map(|n| obj.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v))
}

fn from_json(value: &Value, depth: usize) -> Result<Ballot, String> {
    match value {
        Value::String(s) if depth < 2 => parse_depth(s, depth + 1),
        Value::Object(obj) => {
            // an OpenAI-compatible chat completion: read the message it holds
            if let Some(content) =
                value.pointer("/choices/0/message/content").or_else(|| value.pointer("/choices/0/text"))
            {
                return match content {
                    Value::String(s) if depth < 2 => parse_depth(s, depth + 1),
                    _ => Err("chat completion without a text answer".into()),
                };
            }
            let verdict_value = get_ci(obj, &["verdict", "decision", "label", "result", "answer", "final_verdict"]);
            let verdict = match verdict_value {
                Some(Value::String(s)) => read_verdict_string(s)?,
                Some(Value::Object(inner)) if depth < 2 => return from_json(&Value::Object(inner.clone()), depth + 1),
                Some(other) => return Err(format!("verdict is not a string: {other}")),
                None => return Err("JSON answer has no verdict".into()),
            };
            let (s, c, p) = verdict.implied_flags();
            let flag = |names: &[&str], default: bool| get_ci(obj, names).and_then(read_bool).unwrap_or(default);
            let reason = get_ci(obj, &["reason", "explanation", "rationale", "justification", "reasoning"])
                .map(|v| match v {
                    Value::String(s) => s.trim().to_string(),
                    other => other.to_string(),
                })
                .unwrap_or_default();
            Ok(Ballot {
                verdict,
                substantive_quote: flag(&["substantive_quote", "substantive"], s),
                quote_in_context: flag(&["quote_in_context", "in_context"], c),
                supports_claim: flag(&["supports_claim", "supports"], p),
                reason,
            })
        }
        _ => Err("JSON answer is not an object".into()),
    }
}

/// A verdict field's string: `VALID`, `valid.`, `"Valid - because ..."`
/// (the first word), or the last explicit verdict when the first word is
/// not one (or is a question: `"VALID? No, UNSUPPORTED"`).
fn read_verdict_string(s: &str) -> Result<JurorVerdict, String> {
    let toks = tokens(s);
    if let Some(v) = toks.first().and_then(|t| JurorVerdict::from_word(t.word)).filter(|_| !is_question(s, &toks, 0)) {
        return Ok(v);
    }
    last_explicit_verdict(s).ok_or_else(|| format!("unknown verdict {:?}", shorten(s, 120)))
}

fn read_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|x| x != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().trim_end_matches('.') {
            "true" | "yes" | "y" => Some(true),
            "false" | "no" | "n" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Words: runs of letters, digits and `_`.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// A word and where it is.
#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    word: &'a str,
    start: usize,
    end: usize,
}

/// Every word of `s` with its byte range (letters, digits, `_`).
fn tokens(s: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        let inside = c.is_alphanumeric() || c == '_';
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                out.push(Tok { word: &s[st..i], start: st, end: i });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push(Tok { word: &s[st..], start: st, end: s.len() });
    }
    out
}

/// The text between word `k` and the next one (to the end for the last).
fn gap_after<'a>(s: &'a str, toks: &[Tok<'_>], k: usize) -> &'a str {
    let from = toks.get(k).map_or(0, |t| t.end);
    let to = toks.get(k + 1).map_or(s.len(), |t| t.start);
    s.get(from..to).unwrap_or("")
}

/// Whether a gap ends a clause (`.`, `!`, `?`, `;`, `:`, `,`, a new line).
fn ends_clause(gap: &str) -> bool {
    gap.contains(['.', '!', '?', ';', ':', ',', '\n'])
}

/// Whether word `k` is asked rather than said (`VALID?`, `**VALID**?`).
fn is_question(s: &str, toks: &[Tok<'_>], k: usize) -> bool {
    gap_after(s, toks, k).chars().find(|c| !(c.is_whitespace() || "*_`\"'”’)]".contains(*c))) == Some('?')
}

const NEGATIONS: &[&str] = &["not", "t", "never", "no", "hardly", "nor", "neither", "cannot", "without"];
const ALTERNATIVES: &[&str] = &["or", "and", "nor", "vs", "versus", "either"];

/// Whether word `k` is negated: a negation up to three words before it in
/// the same clause (`not VALID`, `isn't really VALID`; not `No. VALID`).
fn is_negated(s: &str, toks: &[Tok<'_>], k: usize) -> bool {
    for back in 1..=3 {
        let Some(j) = k.checked_sub(back) else {
            return false;
        };
        if ends_clause(gap_after(s, toks, j)) {
            return false;
        }
        if toks.get(j).is_some_and(|t| NEGATIONS.iter().any(|n| t.word.eq_ignore_ascii_case(n))) {
            return true;
        }
    }
    false
}

/// Whether word `k` is one of several verdicts offered as alternatives or a
/// list (`VALID or MISLEADING`, `VALID/MISLEADING`, `MISLEADING, UNSUPPORTED`).
fn is_alternative<V: PartialEq>(s: &str, toks: &[Tok<'_>], k: usize, from_word: &impl Fn(&str) -> Option<V>) -> bool {
    let Some(me) = toks.get(k).and_then(|t| from_word(t.word)) else {
        return false;
    };
    let list_gap = |g: &str| g.chars().all(|c| c.is_whitespace() || ",/|*`\"'_()[]-".contains(c));
    let verdict_at = |j: usize| toks.get(j).and_then(|t| from_word(t.word));
    let conj_at = |j: usize| toks.get(j).is_some_and(|t| ALTERNATIVES.iter().any(|a| t.word.eq_ignore_ascii_case(a)));
    // a neighbour that is another verdict, or a conjunction then a verdict
    if list_gap(gap_after(s, toks, k)) {
        if verdict_at(k + 1).is_some_and(|v| v != me) {
            return true;
        }
        if conj_at(k + 1) && list_gap(gap_after(s, toks, k + 1)) && verdict_at(k + 2).is_some() {
            return true;
        }
    }
    if let Some(p) = k.checked_sub(1) {
        if list_gap(gap_after(s, toks, p)) {
            if verdict_at(p).is_some_and(|v| v != me) {
                return true;
            }
            if conj_at(p) && p >= 1 && list_gap(gap_after(s, toks, p - 1)) && verdict_at(p - 1).is_some() {
                return true;
            }
        }
    }
    false
}

/// Whether word `k` follows a `verdict` label (`Verdict: X`, `**Final
/// verdict** - X`).
fn is_labelled(s: &str, toks: &[Tok<'_>], k: usize) -> bool {
    let Some(p) = k.checked_sub(1) else {
        return false;
    };
    let gap = gap_after(s, toks, p);
    toks.get(p).is_some_and(|t| t.word.eq_ignore_ascii_case("verdict"))
        && !gap.is_empty()
        && gap.chars().all(|c| c.is_whitespace() || matches!(c, ':' | '=' | '-' | '*' | '"' | '\'' | '`' | '_' | '#'))
}

/// The verdict an answer in words gives: the last labelled one (`Verdict:
/// X`) if any, else the last verdict word said outright: not negated (`not
/// VALID`), not asked (`VALID?`), not one of alternatives (`VALID or
/// MISLEADING`). `None` when there is none: the juror abstains.
pub fn last_explicit_verdict(text: &str) -> Option<JurorVerdict> {
    last_explicit_word(text, JurorVerdict::from_word)
}

/// [`last_explicit_verdict`] for any set of verdict words: `from_word`
/// names the verdict a word is (the citation pipeline's five verdicts use
/// it too).
pub(crate) fn last_explicit_word<V: Copy + PartialEq>(text: &str, from_word: impl Fn(&str) -> Option<V>) -> Option<V> {
    let toks = tokens(text);
    let (mut labelled, mut said) = (None, None);
    for (k, t) in toks.iter().enumerate() {
        let Some(v) = from_word(t.word) else {
            continue;
        };
        if is_question(text, &toks, k) {
            continue;
        }
        if is_labelled(text, &toks, k) {
            labelled = Some(v);
        } else if !is_negated(text, &toks, k) && !is_alternative(text, &toks, k, &from_word) {
            said = Some(v);
        }
    }
    labelled.or(said)
}

fn from_words(text: &str) -> Result<Ballot, String> {
    let verdict = last_explicit_verdict(text).ok_or_else(|| format!("no verdict in answer: {}", shorten(text, 120)))?;
    let (mut s, mut c, mut p) = verdict.implied_flags();
    for line in text.lines() {
        let lower = line.to_lowercase();
        let value = |key: &str| -> Option<bool> {
            let at = lower.find(key)?;
            let after = lower[at + key.len()..].trim_start_matches(|ch: char| !ch.is_alphanumeric());
            match words(after).next()? {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => None,
            }
        };
        s = value("substantive").unwrap_or(s);
        c = value("in_context").or_else(|| value("in context")).unwrap_or(c);
        p = value("supports_claim").or_else(|| value("supports the claim")).unwrap_or(p);
    }
    Ok(Ballot {
        verdict,
        substantive_quote: s,
        quote_in_context: c,
        supports_claim: p,
        reason: shorten(text, MAX_PLAIN_REASON),
    })
}

/// `s` cut to at most `max` chars (with `…`), trimmed.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(raw: &str) -> Result<JurorVerdict, String> {
        parse_answer(raw).map(|b| b.verdict)
    }

    #[test]
    fn reads_json_forms() {
        let b = parse_answer(r#"{"verdict":"VALID","substantive_quote":true,"quote_in_context":true,"supports_claim":true,"reason":"ok"}"#).unwrap();
        assert_eq!(
            b,
            Ballot {
                verdict: JurorVerdict::Valid,
                substantive_quote: true,
                quote_in_context: true,
                supports_claim: true,
                reason: "ok".into()
            }
        );
        assert_eq!(v("```json\n{\"verdict\": \"misleading\"}\n```"), Ok(JurorVerdict::Misleading));
        assert_eq!(
            v("Sure! Here it is: {\"Verdict\": \"Insufficient.\", \"reason\": \"a {brace} inside\"} Hope this helps"),
            Ok(JurorVerdict::Insufficient)
        );
        let b = parse_answer(
            r#"{"verdict":"UNSUPPORTED","supports_claim":"no","substantive_quote":"yes","quote_in_context":0}"#,
        )
        .unwrap();
        assert_eq!((b.substantive_quote, b.quote_in_context, b.supports_claim), (true, false, false));
        let chat = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"```json\n{\"verdict\":\"VALID\",\"reason\":\"fine\"}\n```"}}]}"#;
        assert_eq!(v(chat), Ok(JurorVerdict::Valid));
        assert_eq!(v("\"VALID\""), Ok(JurorVerdict::Valid));
    }

    #[test]
    fn reads_plain_words() {
        assert_eq!(v("VALID"), Ok(JurorVerdict::Valid));
        assert_eq!(v("valid."), Ok(JurorVerdict::Valid));
        assert_eq!(
            v("Verdict: **UNSUPPORTED**\nThe claim says 15%, the source 5%. Not VALID."),
            Ok(JurorVerdict::Unsupported)
        );
        assert_eq!(
            v("I think this is misleading because the speaker is quoting an opponent."),
            Ok(JurorVerdict::Misleading)
        );
        assert_eq!(v("This isn't VALID: it is MISLEADING."), Ok(JurorVerdict::Misleading));
        assert_eq!(v("The verdict is VALID"), Ok(JurorVerdict::Valid));
        let b = parse_answer("INSUFFICIENT\nsubstantive: no\nin context: yes").unwrap();
        assert_eq!((b.substantive_quote, b.quote_in_context, b.supports_claim), (false, true, false));
    }

    #[test]
    fn rejects_garbage() {
        for raw in [
            "",
            "   ",
            "asdf qwerty",
            "{\"verdict\": 3}",
            "{\"verdict\": \"MAYBE\"}",
            "VALID or MISLEADING, hard to say",
            "invalid",
            "not valid",
            "{",
            "```json\n{\"foo\":1}\n```",
            "[1,2]",
        ] {
            assert!(parse_answer(raw).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn last_explicit_verdict_wins() {
        // a question is not an answer; the answer after it is
        assert_eq!(v("VALID? No. UNSUPPORTED."), Ok(JurorVerdict::Unsupported));
        assert_eq!(v("Is it **VALID**? No: it is MISLEADING"), Ok(JurorVerdict::Misleading));
        // a negation reaches to its clause's end only
        assert_eq!(v("No. VALID."), Ok(JurorVerdict::Valid));
        assert_eq!(v("It is not really VALID"), Err("no verdict in answer: It is not really VALID".into()));
        // the last one said counts, the last label before all
        assert_eq!(v("At first I thought VALID. On reflection, UNSUPPORTED."), Ok(JurorVerdict::Unsupported));
        assert_eq!(v("Verdict: VALID\nFinal verdict: INSUFFICIENT"), Ok(JurorVerdict::Insufficient));
        assert_eq!(v("Verdict: MISLEADING. Some would call it VALID."), Ok(JurorVerdict::Misleading));
        // alternatives and lists are not a verdict
        for raw in
            ["VALID/MISLEADING", "MISLEADING, UNSUPPORTED", "either VALID or INSUFFICIENT", "VALID? UNSUPPORTED?"]
        {
            assert!(parse_answer(raw).is_err(), "{raw:?}");
        }
        assert_eq!(v("Options: VALID or MISLEADING. Answer: MISLEADING"), Ok(JurorVerdict::Misleading));
        // a JSON verdict field that asks first
        assert_eq!(v(r#"{"verdict": "VALID? No, UNSUPPORTED"}"#), Ok(JurorVerdict::Unsupported));
        // the last JSON object is the answer
        assert_eq!(
            v(r#"Example: {"verdict": "VALID"}. My answer: {"verdict": "UNSUPPORTED"}"#),
            Ok(JurorVerdict::Unsupported)
        );
    }

    #[test]
    fn reasoning_blocks_are_not_the_answer() {
        assert_eq!(v("<think>Maybe VALID, maybe MISLEADING.</think>\nUNSUPPORTED"), Ok(JurorVerdict::Unsupported));
        assert_eq!(v("<THINK>hmm, VALID?</THINK> Verdict: INSUFFICIENT"), Ok(JurorVerdict::Insufficient));
        assert_eq!(
            v("<thinking>\nthe quote is VALID\n</thinking>\n{\"verdict\": \"MISLEADING\"}"),
            Ok(JurorVerdict::Misleading)
        );
        assert_eq!(
            v("<reasoning type=\"x\">VALID</reasoning> UNSUPPORTED <analysis>VALID"),
            Ok(JurorVerdict::Unsupported)
        );
        // a closing tag without its opening one: the model started inside the block
        assert_eq!(v("the quote looks VALID...</think>\n\nMISLEADING"), Ok(JurorVerdict::Misleading));
        // only reasoning, or reasoning cut off: no verdict (an abstention)
        for raw in ["<think>It is VALID</think>", "<think>It is VALID", "<reasoning>UNSUPPORTED</reasoning>   "] {
            assert!(parse_answer(raw).is_err(), "{raw:?}");
        }
        // a chat completion body whose content thinks first
        let chat = r#"{"choices":[{"message":{"content":"<think>VALID? {\"verdict\":\"VALID\"}</think>\nVerdict: UNSUPPORTED"}}]}"#;
        assert_eq!(v(chat), Ok(JurorVerdict::Unsupported));
        // not reasoning tags
        assert_eq!(v("<thinkpad>VALID</thinkpad>"), Ok(JurorVerdict::Valid));
        assert_eq!(strip_reasoning("a <b>VALID</b> c"), "a <b>VALID</b> c");
        assert_eq!(strip_reasoning("x<think>y</think>z<think>w"), "x z");
    }

    #[test]
    fn long_answers_are_read_in_linear_time() {
        // many unbalanced braces, tags and verdict words: answered, not hung
        let braces = "{".repeat(200_000);
        assert!(parse_answer(&braces).is_err());
        let tags = "<think>".repeat(50_000);
        assert!(parse_answer(&tags).is_err());
        let mut many = "VALID or MISLEADING. ".repeat(20_000);
        many.push_str("Verdict: UNSUPPORTED");
        assert_eq!(v(&many), Ok(JurorVerdict::Unsupported));
        assert_eq!(v("VALID"), Ok(JurorVerdict::Valid), "a later call still works");
    }

    #[test]
    fn never_panics_on_odd_input() {
        for raw in [
            "{{{{",
            "}}}}{",
            "```",
            "``````",
            "```json",
            "{\"a\":\"\\\"}",
            "verdict",
            "verdict:",
            "verdict: ",
            "ÄÖ verdict: 中文",
            "\u{0}",
            "<",
            "</",
            "<think",
            "<think ",
            "</think>",
            "<think>é</think>中",
            "VALID?",
            "not",
        ] {
            let _ = parse_answer(raw);
        }
    }
}
