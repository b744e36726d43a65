//! Reading a juror's answer (spec 002 step 3, process 3): whatever text the
//! model sent back, as a [`Ballot`] or a reason why it cannot be read.
//!
//! Accepted, in this order:
//! 1. JSON: the whole answer, a fenced block (```` ```json ... ``` ````), or
//!    the first `{...}` object inside prose. An OpenAI-style chat completion
//!    (`choices[0].message.content`) is unwrapped first, so a host may hand
//!    over the raw HTTP body. The verdict is read from `verdict` (or
//!    `decision`, `label`, `result`, `answer`, any case); the three booleans
//!    from their spec names (`true`/`false`, `"yes"`/`"no"`, 1/0); the
//!    reason from `reason` (or `explanation`, `rationale`, `justification`).
//! 2. Plain words: a `verdict: X` label, else the one verdict word the answer
//!    uses (`VALID`, `MISLEADING`, `INSUFFICIENT`, `UNSUPPORTED`, any case,
//!    as whole words; `invalid` is not `valid`). An answer naming two
//!    different verdicts without a label is ambiguous, and unreadable.
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

/// Longest reason kept from a plain-words answer, in chars.
const MAX_PLAIN_REASON: usize = 500;

/// Reads a juror's raw answer. The error says why it cannot be read.
pub fn parse_answer(raw: &str) -> Result<Ballot, String> {
    parse_depth(raw, 0)
}

fn parse_depth(raw: &str, depth: usize) -> Result<Ballot, String> {
    let text = raw.trim();
    if text.is_empty() {
        return Err("empty answer".into());
    }
    let mut json_problem = None;
    for candidate in json_candidates(text) {
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
    while let Some(off) = bytes.get(i..).and_then(|b| b.iter().position(|&c| c == b'{')) {
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

/// A verdict field's string: `VALID`, `valid.`, `"Valid - because ..."`.
fn read_verdict_string(s: &str) -> Result<JurorVerdict, String> {
    let first = words(s).next().unwrap_or("");
    JurorVerdict::from_word(first).ok_or_else(|| format!("unknown verdict {s:?}"))
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

fn from_words(text: &str) -> Result<Ballot, String> {
    let verdict = labelled_verdict(text).map(Ok).unwrap_or_else(|| {
        // a verdict word right after a negation ("not valid", "isn't valid") is not a vote for it
        let mut found: Vec<JurorVerdict> = Vec::new();
        let mut previous = "";
        for w in words(text) {
            let negated = ["not", "t", "never", "no", "hardly"].iter().any(|n| previous.eq_ignore_ascii_case(n));
            if let Some(v) = JurorVerdict::from_word(w).filter(|_| !negated) {
                found.push(v);
            }
            previous = w;
        }
        crate::sort::sort(&mut found);
        found.dedup();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(format!("no verdict in answer: {}", shorten(text, 120))),
            many => Err(format!(
                "ambiguous answer names {}: {}",
                many.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(" and "),
                shorten(text, 120)
            )),
        }
    })?;
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

/// `verdict: X` / `Verdict - **X**` anywhere in the text.
fn labelled_verdict(text: &str) -> Option<JurorVerdict> {
    let lower = text.to_lowercase();
    let mut from = 0;
    while let Some(at) = lower.get(from..).and_then(|l| l.find("verdict")) {
        let after = &lower[from + at + "verdict".len()..];
        let trimmed = after.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, ':' | '=' | '-' | '*' | '"' | '\'' | '`' | '_' | '#')
        });
        if trimmed.len() < after.len() {
            if let Some(v) = words(trimmed).next().and_then(JurorVerdict::from_word) {
                return Some(v);
            }
        }
        from += at + "verdict".len();
    }
    None
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
        ] {
            let _ = parse_answer(raw);
        }
    }
}
