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
