//! Strict JSON text: what every entry point that reads JSON from text (the
//! CLI's files, the edge function's request body) parses with, instead of
//! `serde_json::from_str`, which keeps the last of duplicate keys without a
//! word. A duplicate key is an error naming its JSON path (`{"a": 1, "a":
//! 2}` says two things; which one the writer meant is not ours to guess),
//! and a UTF-8 byte order mark before the text is skipped (editors on
//! Windows write one; it is not part of the JSON).

use crate::error::{Error, ErrorKind, JsonPath, Result};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// Parses `text` as one JSON value. Bad JSON, trailing text and duplicate
/// keys are errors of `kind` with the line and column (and for a duplicate
/// key, its JSON path in `details.json_path`); nesting deeper than
/// serde_json's limit (128) is an error, not a stack overflow.
pub fn parse(text: &str, kind: ErrorKind, what: &str) -> Result<Value> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let duplicate: RefCell<Option<JsonPath>> = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Strict { at: None, duplicate: &duplicate }.deserialize(&mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    match (parsed, duplicate.into_inner()) {
        (Ok(value), _) => Ok(value),
        (Err(e), Some(path)) => {
            Err(Error::new(kind, format!("{what}: duplicate key at {path} (line {}, column {})", e.line(), e.column()))
                .with_detail("json_path", Value::String(path.to_string()))
                .with_detail("path", path.to_value())
                .with_detail("constraint", Value::from("uniqueKeys")))
        }
        (Err(e), None) => Err(Error::new(kind, format!("{what} is not valid JSON: {e}"))
            .with_detail("line", Value::from(e.line()))
            .with_detail("column", Value::from(e.column()))),
    }
}

/// Deepest nesting [`plain_parse_agrees`] takes (serde_json stops at 128).
pub const PLAIN_PARSE_MAX_DEPTH: usize = 100;

/// Most digits of a number literal [`plain_parse_agrees`] takes: such a
/// literal without an exponent is exactly an integer below 2^53 divided by
/// a power of ten of at most 15, which serde_json rounds correctly (its
/// fast path), as `JSON.parse` does.
pub const PLAIN_PARSE_MAX_DIGITS: usize = 15;

/// Whether a plain JSON parser (JavaScript's `JSON.parse`: the last of
/// duplicate keys kept, numbers read as correctly rounded doubles) gives
/// the value [`parse`] gives, when `text` is JSON at all (when it is not,
/// the plain parser refuses it too, and [`parse`] says why). True only
/// when, outside strings, every number literal has at most
/// [`PLAIN_PARSE_MAX_DIGITS`] digits, no exponent and is not a negative
/// zero, the nesting is at most [`PLAIN_PARSE_MAX_DEPTH`] deep, no key
/// holds an escape (`"a"` and `"\u0061"` are one key) and no object has a
/// key twice, no string holds an escaped surrogate (serde_json refuses a
/// lone one), and the text has no byte order mark. Key order is not part
/// of the answer: [`parse`] sorts keys, a plain parser keeps them in text
/// order. One pass; each object's keys are sorted once, when it closes.
pub fn plain_parse_agrees(text: &str) -> bool {
    let b = text.as_bytes();
    // each open container: for an object, the start in `keys` of its keys
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'{' | b'[' => {
                if open.len() >= PLAIN_PARSE_MAX_DEPTH {
                    return false;
                }
                open.push((c == b'{').then_some(keys.len()));
                i += 1;
            }
            b'}' | b']' => {
                if let Some(Some(from)) = open.pop() {
                    let mine = keys.get_mut(from..).unwrap_or_default();
                    mine.sort_unstable();
                    if mine.windows(2).any(|w| matches!(w, [x, y] if x == y)) {
                        return false;
                    }
                    keys.truncate(from);
                }
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                loop {
                    match b.get(j) {
                        None => return false,
                        Some(b'"') => break,
                        Some(b'\\') => {
                            escaped = true;
                            if b.get(j + 1) == Some(&b'u') {
                                let hex = b.get(j + 2..j + 6).and_then(|h| std::str::from_utf8(h).ok());
                                let unit = hex.and_then(|h| u16::from_str_radix(h, 16).ok());
                                if unit.is_none_or(|u| (0xD800..=0xDFFF).contains(&u)) {
                                    return false;
                                }
                                j += 6;
                            } else {
                                j += 2;
                            }
                        }
                        Some(_) => j += 1,
                    }
                }
                let string = b.get(start..j).unwrap_or_default();
                i = j + 1;
                let mut k = i;
                while matches!(b.get(k), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                    k += 1;
                }
                if b.get(k) == Some(&b':') {
                    if escaped {
                        return false;
                    }
                    keys.push(string);
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while matches!(b.get(i), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
                    i += 1;
                }
                if !plain_number(b.get(start..i).unwrap_or_default()) {
                    return false;
                }
            }
            // a byte order mark (U+FEFF, EF BB BF): the plain parser refuses it
            0xEF => return false,
            _ => i += 1,
        }
    }
    true
}

/// A number literal both parsers read as the same double (see
/// [`plain_parse_agrees`]).
fn plain_number(literal: &[u8]) -> bool {
    if literal.iter().any(|c| matches!(c, b'e' | b'E' | b'+')) {
        return false;
    }
    let digits = literal.iter().filter(|c| c.is_ascii_digit()).count();
    let negative_zero = literal.first() == Some(&b'-') && literal.iter().all(|c| matches!(c, b'-' | b'0' | b'.'));
    digits <= PLAIN_PARSE_MAX_DIGITS && !negative_zero
}

/// The JSON type of `v` as a message says it: `a string`, `an object`, ….
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON value, refusing duplicate keys (recorded in `duplicate` with
/// their path, since serde's error type carries none). Where the value is
/// is a chain of borrowed steps up to the root, made into a [`JsonPath`]
/// only for a duplicate: parsing allocates nothing per value for it.
struct Strict<'p> {
    /// The parent value and the step from it to this one; `None` at the root.
    at: Option<(&'p Strict<'p>, Step<'p>)>,
    duplicate: &'p RefCell<Option<JsonPath>>,
}

/// One step of a path.
#[derive(Clone, Copy)]
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

impl Strict<'_> {
    /// The path of this value.
    fn path(&self) -> JsonPath {
        let mut steps = Vec::new();
        let mut at = self.at;
        while let Some((parent, step)) = at {
            steps.push(step);
            at = parent.at;
        }
        steps.iter().rev().fold(JsonPath::root(), |path, step| match step {
            Step::Key(k) => path.key(k),
            Step::Index(i) => path.index(*i),
        })
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> std::result::Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) =
            seq.next_element_seed(Strict { at: Some((&self, Step::Index(items.len()))), duplicate: self.duplicate })?
        {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let child = Strict { at: Some((&self, Step::Key(&key))), duplicate: self.duplicate };
            if out.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some(child.path());
                return Err(de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value_seed(child)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_a_plain_parser_reads_the_same() {
        for agrees in [
            r#"{"a": [1, 2.5, -3, 0, 0.1, 123456789012345, true, false, null], "b": {"c": "\"q\" \\ \u00e9"}}"#,
            r#"{"__proto__": {"x": 1}, "1": 2, "a": 3, "b": {"a": 1}}"#,
            r#"[{"id": 1}, {"id": 2}]"#,
            "\"text with \u{1F600} and ünïcödé\"",
            r#"{"a b": "x\"a\": 2", "c": "}{]["}"#,
            "",
        ] {
            assert!(plain_parse_agrees(agrees), "{agrees}");
        }
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(plain_parse_agrees(&deep(PLAIN_PARSE_MAX_DEPTH)));
        for not in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": {"b": 1, "c": {"b": 2, "b": 3}}}"#,
            r#"{"a": 1, "b": "x\"a\": 2", "a": 3}"#,
            r#"{"\u0061": 1, "a": 2}"#,
            "\u{feff}{\"a\": 1}",
            r#"{"a": "\ud800"}"#,
            r#"{"a": "\ud83d\ude00"}"#,
            r#"{"a": 1e400}"#,
            r#"{"a": 1e2}"#,
            r#"{"a": 1E2}"#,
            r#"{"a": 0.1234567890123456789}"#,
            r#"{"a": 1234567890123456}"#,
            r#"{"a": -0}"#,
            r#"{"a": -0.0}"#,
            r#"{"a": "unterminated"#,
        ] {
            assert!(!plain_parse_agrees(not), "{not}");
        }
        assert!(!plain_parse_agrees(&deep(PLAIN_PARSE_MAX_DEPTH + 1)));
        // many keys in one object: sorted once, not compared pairwise
        let many: Vec<String> = (0..50_000).map(|k| format!("\"k{k}\": {k}")).collect();
        assert!(plain_parse_agrees(&format!("{{{}}}", many.join(","))));
        assert!(!plain_parse_agrees(&format!("{{{}, \"k7\": 0}}", many.join(","))));
    }

    #[test]
    fn parses_like_serde_json() {
        let text = r#"{"claims": [{"id": "EV001", "n": -3, "x": 1.5, "ok": true, "none": null, "s": "😀"}], "k": 18446744073709551615}"#;
        assert_eq!(parse(text, ErrorKind::Validation, "claims").unwrap(), serde_json::from_str::<Value>(text).unwrap());
    }

    #[test]
    fn duplicate_keys_are_errors_with_their_path() {
        let e = parse(r#"{"claims": [{"id": "EV1"}, {"id": "EV2", "id": "EV3"}]}"#, ErrorKind::Validation, "claims")
            .unwrap_err();
        assert_eq!(e.code(), "VALIDATION_ERROR");
        assert_eq!(e.details()["json_path"], "$.claims[1].id");
        assert_eq!(e.details()["path"], json!(["claims", 1, "id"]));
        let e = parse(r#"{"a": {"b": 1}, "a": 2}"#, ErrorKind::Configuration, "config").unwrap_err();
        assert_eq!(e.code(), "CONFIGURATION_ERROR");
        assert_eq!(e.details()["json_path"], "$.a");
        // the same key in two objects is no duplicate
        assert!(parse(r#"[{"a": 1}, {"a": 1}]"#, ErrorKind::Validation, "x").is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_bad_json_refused() {
        assert_eq!(parse("\u{feff}{\"a\": 1}", ErrorKind::Validation, "x").unwrap(), json!({"a": 1}));
        let e = parse("{\"a\": 1} trailing", ErrorKind::Validation, "x").unwrap_err();
        assert_eq!(e.details()["line"], 1);
        assert!(parse("{\"a\": NaN}", ErrorKind::Validation, "x").is_err());
        assert!(parse("", ErrorKind::Validation, "x").is_err());
        let deep = "[".repeat(100_000);
        assert!(parse(&deep, ErrorKind::Validation, "x").is_err(), "deep nesting is an error, not a crash");
    }
}
