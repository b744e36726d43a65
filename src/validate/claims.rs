//! The input of spec 000 §2.1 (`evidence_claims.json`), checked field by
//! field: a claim that breaks the schema is a `VALIDATION_ERROR` naming its
//! JSON path (`$.claims[3].id`), never silently skipped.

use crate::document::Format;
use crate::error::{Error, JsonPath, Result};
use crate::json::type_name as kind;
use crate::text::encoding::SourceEncoding;
use serde::Serialize;
use serde_json::{Map, Value};

/// Most claims the schema allows in one input (its `maxItems`), and the
/// bound of `performance_limits.max_claims` (which may only lower it,
/// checked by `validate::check_claim_count`): the one bound on the number
/// of claims.
pub const MAX_CLAIMS: usize = 1000;
/// Shortest quote, in code points.
pub const MIN_QUOTE_CHARS: usize = 10;
/// Longest quote, in code points.
pub const MAX_QUOTE_CHARS: usize = 2000;
/// `confidence_threshold` when a claim gives none.
pub const DEFAULT_CONFIDENCE_THRESHOLD: f64 = 0.8;

/// What kind of evidence a claim cites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceType {
    /// Verbatim text: exact, or within the fuzzy tolerance.
    DirectQuote,
    /// The source's meaning in other words.
    Paraphrase,
    /// A section of the source.
    SectionReference,
    /// A concept the source discusses.
    ConceptReference,
}

impl EvidenceType {
    fn parse(name: &str) -> Option<EvidenceType> {
        Some(match name {
            "direct_quote" => EvidenceType::DirectQuote,
            "paraphrase" => EvidenceType::Paraphrase,
            "section_reference" => EvidenceType::SectionReference,
            "concept_reference" => EvidenceType::ConceptReference,
            _ => return None,
        })
    }
}

/// One evidence claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// `EV` followed by digits.
    pub id: String,
    /// `P<n>.T<n>`.
    pub task_id: String,
    /// The cited text, 10–2000 code points.
    pub quote: String,
    /// What kind of evidence it is.
    pub evidence_type: EvidenceType,
    /// Words expected near the quote.
    pub context_hint: Option<String>,
    /// The section the quote should be in.
    pub expected_section: Option<String>,
    /// Minimum confidence for VALIDATED (0–1, default 0.8).
    pub confidence_threshold: f64,
    /// Text expected just before the quote (issue 18: a W3C
    /// TextQuoteSelector's `prefix`), to choose among several places.
    pub prefix: Option<String>,
    /// Text expected just after the quote (the selector's `suffix`).
    pub suffix: Option<String>,
    /// Where the quote is expected to start, in code points of the source
    /// (a TextPositionSelector's `start`); places farther than
    /// `anchoring.max_position_distance` are not candidates.
    pub position: Option<usize>,
}

/// The parsed input: claims and the declared source format, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimSet {
    /// Claims in input order.
    pub claims: Vec<Claim>,
    /// `source_metadata.format`.
    pub format: Option<Format>,
    /// `source_metadata.encoding` (default UTF-8): how source *bytes* are
    /// decoded ([`crate::text::encoding::decode`]); a source given as text
    /// is already decoded.
    pub encoding: Option<SourceEncoding>,
    /// JSON paths of fields the schema does not know (`$.claims[2].expected_sectoin`):
    /// a warning in the report, an error with the `strict` option.
    pub unknown_fields: Vec<String>,
}

/// Fields of a claim the schema defines.
const CLAIM_FIELDS: [&str; 10] = [
    "id",
    "task_id",
    "quote",
    "evidence_type",
    "context_hint",
    "expected_section",
    "confidence_threshold",
    "prefix",
    "suffix",
    "position",
];

/// Appends the paths of `obj`'s keys that are not in `known`.
fn unknown_keys(obj: &Map<String, Value>, known: &[&str], path: &JsonPath, out: &mut Vec<String>) {
    out.extend(obj.keys().filter(|k| !known.contains(&k.as_str())).map(|k| path.key(k).to_string()));
}

impl ClaimSet {
    /// Parses and checks the input: the §2.1 object, or a bare array of claims.
    pub fn from_json(value: &Value) -> Result<ClaimSet> {
        let root = JsonPath::root();
        let mut unknown_fields = Vec::new();
        let (claims, claims_path, format) = match value {
            Value::Object(obj) => {
                unknown_keys(obj, &["source_metadata", "claims"], &root, &mut unknown_fields);
                if let Some(Value::Object(meta)) = obj.get("source_metadata") {
                    let known = ["filename", "format", "encoding"];
                    unknown_keys(meta, &known, &root.key("source_metadata"), &mut unknown_fields);
                }
                let format = parse_source_metadata(obj, &root)?;
                let path = root.key("claims");
                match obj.get("claims") {
                    Some(Value::Array(a)) => (a, path, format),
                    Some(other) => {
                        return Err(Error::invalid_input(
                            &path,
                            "type",
                            format!("claims must be an array, got {}", kind(other)),
                        ))
                    }
                    None => {
                        return Err(Error::invalid_input(&root, "required", "missing required property \"claims\""))
                    }
                }
            }
            Value::Array(a) => (a, root, None),
            other => {
                return Err(Error::invalid_input(
                    &root,
                    "type",
                    format!("evidence claims must be an object with a \"claims\" array, got {}", kind(other)),
                ))
            }
        };
        if claims.is_empty() {
            return Err(Error::invalid_input(&claims_path, "minItems", "claims must hold at least 1 claim"));
        }
        if claims.len() > MAX_CLAIMS {
            return Err(Error::invalid_input(
                &claims_path,
                "maxItems",
                format!("claims holds {} claims, at most {MAX_CLAIMS} allowed", claims.len()),
            ));
        }
        let claims = claims
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let path = claims_path.index(i);
                if let Value::Object(obj) = c {
                    unknown_keys(obj, &CLAIM_FIELDS, &path, &mut unknown_fields);
                }
                parse_claim(c, &path)
            })
            .collect::<Result<Vec<_>>>()?;
        let encoding = match value.get("source_metadata").and_then(|m| m.get("encoding")) {
            None | Some(Value::Null) => None,
            Some(v) => Some(SourceEncoding::from_json(v, &JsonPath::root().key("source_metadata").key("encoding"))?),
        };
        Ok(ClaimSet { claims, format, encoding, unknown_fields })
    }
}

fn parse_source_metadata(obj: &Map<String, Value>, root: &JsonPath) -> Result<Option<Format>> {
    let path = root.key("source_metadata");
    let meta = match obj.get("source_metadata") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(Error::invalid_input(
                &path,
                "type",
                format!("source_metadata must be an object, got {}", kind(other)),
            ))
        }
    };
    for key in ["filename", "encoding"] {
        if let Some(v) = meta.get(key).filter(|v| !v.is_string()) {
            return Err(Error::invalid_input(
                &path.key(key),
                "type",
                format!("{key} must be a string, got {}", kind(v)),
            ));
        }
    }
    match meta.get("format") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => match s.as_str() {
            "markdown" => Ok(Some(Format::Markdown)),
            "plain_text" => Ok(Some(Format::PlainText)),
            "html" => Ok(Some(Format::Html)),
            other => Err(Error::invalid_input(
                &path.key("format"),
                "enum",
                format!("format {other:?} is not one of \"markdown\", \"plain_text\", \"html\""),
            )),
        },
        Some(other) => Err(Error::invalid_input(
            &path.key("format"),
            "type",
            format!("format must be a string, got {}", kind(other)),
        )),
    }
}

pub(super) fn required_string<'v>(obj: &'v Map<String, Value>, key: &str, path: &JsonPath) -> Result<&'v str> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => {
            Err(Error::invalid_input(&path.key(key), "type", format!("{key} must be a string, got {}", kind(other))))
        }
        None => Err(Error::invalid_input(path, "required", format!("missing required property {key:?}"))),
    }
}

pub(super) fn optional_string(obj: &Map<String, Value>, key: &str, path: &JsonPath) -> Result<Option<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => {
            Err(Error::invalid_input(&path.key(key), "type", format!("{key} must be a string, got {}", kind(other))))
        }
    }
}

/// `prefix` followed by one or more ASCII digits.
fn is_prefixed_number(s: &str, prefix: &str) -> bool {
    s.strip_prefix(prefix).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn is_task_id(s: &str) -> bool {
    s.strip_prefix('P')
        .and_then(|rest| rest.split_once(".T"))
        .is_some_and(|(p, t)| [p, t].iter().all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())))
}

fn parse_claim(value: &Value, path: &JsonPath) -> Result<Claim> {
    let Value::Object(obj) = value else {
        return Err(Error::invalid_input(path, "type", format!("each claim must be an object, got {}", kind(value))));
    };
    let id = required_string(obj, "id", path)?;
    if !is_prefixed_number(id, "EV") {
        return Err(Error::invalid_input(
            &path.key("id"),
            "pattern",
            format!("id {id:?} does not match ^EV\\d+$ (e.g. \"EV001\")"),
        )
        .with_detail("invalid_value", Value::String(id.into())));
    }
    let task_id = required_string(obj, "task_id", path)?;
    if !is_task_id(task_id) {
        return Err(Error::invalid_input(
            &path.key("task_id"),
            "pattern",
            format!("task_id {task_id:?} does not match ^P\\d+\\.T\\d+$ (e.g. \"P1.T001\")"),
        )
        .with_detail("invalid_value", Value::String(task_id.into())));
    }
    let quote = required_string(obj, "quote", path)?;
    let chars = quote.chars().count();
    if chars < MIN_QUOTE_CHARS {
        return Err(Error::invalid_input(
            &path.key("quote"),
            "minLength",
            format!("quote is {chars} characters, at least {MIN_QUOTE_CHARS} required"),
        ));
    }
    if chars > MAX_QUOTE_CHARS {
        return Err(Error::invalid_input(
            &path.key("quote"),
            "maxLength",
            format!("quote is {chars} characters, at most {MAX_QUOTE_CHARS} allowed"),
        ));
    }
    let type_name = required_string(obj, "evidence_type", path)?;
    let evidence_type = EvidenceType::parse(type_name).ok_or_else(|| {
        Error::invalid_input(
            &path.key("evidence_type"),
            "enum",
            format!(
                "evidence_type {type_name:?} is not one of \"direct_quote\", \"paraphrase\", \"section_reference\", \"concept_reference\""
            ),
        )
    })?;
    let confidence_threshold = match obj.get("confidence_threshold") {
        None | Some(Value::Null) => DEFAULT_CONFIDENCE_THRESHOLD,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if (0.0..=1.0).contains(&x) => x,
            _ => {
                return Err(Error::invalid_input(
                    &path.key("confidence_threshold"),
                    "range",
                    format!("confidence_threshold must be between 0 and 1, got {n}"),
                ))
            }
        },
        Some(other) => {
            return Err(Error::invalid_input(
                &path.key("confidence_threshold"),
                "type",
                format!("confidence_threshold must be a number, got {}", kind(other)),
            ))
        }
    };
    Ok(Claim {
        id: id.to_string(),
        task_id: task_id.to_string(),
        quote: quote.to_string(),
        evidence_type,
        context_hint: optional_string(obj, "context_hint", path)?,
        expected_section: optional_string(obj, "expected_section", path)?,
        confidence_threshold,
        prefix: optional_string(obj, "prefix", path)?,
        suffix: optional_string(obj, "suffix", path)?,
        position: optional_position(obj, path)?,
    })
}

/// `position`: a non-negative integer (code points), or absent / `null`.
fn optional_position(obj: &Map<String, Value>, path: &JsonPath) -> Result<Option<usize>> {
    optional_code_points(obj, "position", path)
}

/// `key`: a non-negative integer (a count of code points), or absent /
/// `null`; a wrong type names `key`'s path.
pub(super) fn optional_code_points(obj: &Map<String, Value>, key: &str, path: &JsonPath) -> Result<Option<usize>> {
    let wrong = |got: String| {
        Error::invalid_input(
            &path.key(key),
            "type",
            format!("{key} must be a non-negative integer (code points), got {got}"),
        )
    };
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            n.as_u64().and_then(|v| usize::try_from(v).ok()).map(Some).ok_or_else(|| wrong(n.to_string()))
        }
        Some(other) => Err(wrong(kind(other).to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claim() -> Value {
        json!({"id": "EV001", "task_id": "P1.T001", "quote": "a quote of enough length", "evidence_type": "direct_quote"})
    }

    fn error_path(mut c: Value, key: &str, v: Value) -> String {
        c[key] = v;
        let e = ClaimSet::from_json(&json!({"claims": [claim(), c]})).unwrap_err();
        assert_eq!(e.code(), "VALIDATION_ERROR");
        e.details()["json_path"].as_str().unwrap().to_string()
    }

    #[test]
    fn parses_defaults() {
        let set = ClaimSet::from_json(&json!({"claims": [claim()]})).unwrap();
        assert_eq!(set.claims[0].confidence_threshold, 0.8);
        assert_eq!(set.claims[0].evidence_type, EvidenceType::DirectQuote);
    }

    #[test]
    fn each_schema_rule_names_its_path() {
        assert_eq!(error_path(claim(), "id", json!("E1")), "$.claims[1].id");
        assert_eq!(error_path(claim(), "id", json!("EV")), "$.claims[1].id");
        assert_eq!(error_path(claim(), "task_id", json!("P1.X1")), "$.claims[1].task_id");
        assert_eq!(error_path(claim(), "task_id", json!("P1.T")), "$.claims[1].task_id");
        assert_eq!(error_path(claim(), "quote", json!("too short")), "$.claims[1].quote");
        assert_eq!(error_path(claim(), "quote", json!("x".repeat(2001))), "$.claims[1].quote");
        assert_eq!(error_path(claim(), "evidence_type", json!("quote")), "$.claims[1].evidence_type");
        assert_eq!(error_path(claim(), "confidence_threshold", json!(1.2)), "$.claims[1].confidence_threshold");
        assert_eq!(error_path(claim(), "context_hint", json!(3)), "$.claims[1].context_hint");
        assert_eq!(error_path(claim(), "prefix", json!(["a"])), "$.claims[1].prefix");
        assert_eq!(error_path(claim(), "suffix", json!(false)), "$.claims[1].suffix");
        assert_eq!(error_path(claim(), "position", json!(-1)), "$.claims[1].position");
        assert_eq!(error_path(claim(), "position", json!(1.5)), "$.claims[1].position");
        assert_eq!(error_path(claim(), "position", json!("12")), "$.claims[1].position");
    }

    #[test]
    fn quote_length_counts_code_points() {
        let mut c = claim();
        c["quote"] = json!("😀😀😀😀😀😀😀😀😀😀"); // 10 code points, 20 UTF-16 units, 40 bytes
        assert!(ClaimSet::from_json(&json!([c])).is_ok());
    }

    #[test]
    fn array_bounds() {
        assert!(ClaimSet::from_json(&json!({"claims": []})).is_err());
        let many: Vec<Value> = (0..1001).map(|_| claim()).collect();
        let e = ClaimSet::from_json(&json!({"claims": many})).unwrap_err();
        assert_eq!(e.details()["constraint"], "maxItems");
        assert!(ClaimSet::from_json(&json!({"claim": []})).is_err());
    }

    #[test]
    fn unknown_fields_are_listed_with_their_paths() {
        let mut c = claim();
        c["expected_sectoin"] = json!("Intro");
        let set = ClaimSet::from_json(&json!({"claims": [claim(), c], "source_metadata": {"fromat": "html"}, "x": 1}))
            .unwrap();
        assert_eq!(set.unknown_fields, ["$.x", "$.source_metadata.fromat", "$.claims[1].expected_sectoin"]);
        assert!(ClaimSet::from_json(&json!([claim()])).unwrap().unknown_fields.is_empty());
    }
}
