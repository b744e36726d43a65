//! The evaluation an LLM writes about a speech (spec 001 "Evidence
//! Contract"): commendations and recommendations, each an
//! [`EvaluationItem`] citing an `evidence_quote` and its
//! `evidence_timestamp`. Parsed strictly (a wrong field is a
//! `VALIDATION_ERROR` naming its JSON path); fields the host adds (a title, a
//! category) are kept as they are.

use crate::error::{Error, JsonPath, Result};
use serde::Serialize;
use serde_json::{Map, Value};

/// Whether an item is a commendation or a recommendation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Something the speaker did well.
    Commendation,
    /// Something the speaker could improve.
    Recommendation,
}

impl ItemKind {
    /// `commendations` or `recommendations`: the evaluation's field.
    pub fn field(self) -> &'static str {
        match self {
            ItemKind::Commendation => "commendations",
            ItemKind::Recommendation => "recommendations",
        }
    }
}

/// One commendation or recommendation with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvaluationItem {
    /// What the evaluator says (read out in the script).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A verbatim snippet of the transcript, at most 15 words.
    pub evidence_quote: String,
    /// Seconds since speech start of the first quoted word.
    pub evidence_timestamp: f64,
    /// Who said it, when the item names a speaker (a transcript's speaker
    /// label: WebVTT `<v Name>`, a diarization label such as `spk_1`):
    /// checked against the labels of the matched words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_speaker: Option<String>,
    /// Any other fields, kept as given.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl EvaluationItem {
    /// An item with a quote and a timestamp and no text.
    pub fn new(evidence_quote: impl Into<String>, evidence_timestamp: f64) -> EvaluationItem {
        EvaluationItem {
            text: None,
            evidence_quote: evidence_quote.into(),
            evidence_timestamp,
            evidence_speaker: None,
            extra: Map::new(),
        }
    }

    /// The same item with `text`.
    pub fn with_text(mut self, text: impl Into<String>) -> EvaluationItem {
        self.text = Some(text.into());
        self
    }

    /// The same item naming `speaker` as who said the quote.
    pub fn with_speaker(mut self, speaker: impl Into<String>) -> EvaluationItem {
        self.evidence_speaker = Some(speaker.into());
        self
    }

    /// Parses an item at `path` (for error messages): an object with a string
    /// `evidence_quote` and a number `evidence_timestamp` ≥ 0; `text`, when
    /// present, a string; `evidence_speaker`, when present, a string that is
    /// not blank.
    pub fn from_json(value: &Value, path: &JsonPath) -> Result<EvaluationItem> {
        let Value::Object(o) = value else {
            return Err(Error::invalid_input(
                path,
                "type",
                format!("an evaluation item must be an object, got {value}"),
            ));
        };
        let quote = match o.get("evidence_quote") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(Error::invalid_input(
                    &path.key("evidence_quote"),
                    "type",
                    format!("evidence_quote must be a string, got {other}"),
                ))
            }
            None => {
                return Err(Error::invalid_input(&path.key("evidence_quote"), "required", "evidence_quote is required"))
            }
        };
        let timestamp = match o.get("evidence_timestamp") {
            Some(Value::Number(n)) => match n.as_f64() {
                Some(t) if t.is_finite() && t >= 0.0 => t,
                _ => {
                    return Err(Error::invalid_input(
                        &path.key("evidence_timestamp"),
                        "minimum",
                        format!("evidence_timestamp must be seconds since speech start (at least 0), got {n}"),
                    ))
                }
            },
            Some(other) => {
                return Err(Error::invalid_input(
                    &path.key("evidence_timestamp"),
                    "type",
                    format!("evidence_timestamp must be a number of seconds, got {other}"),
                ))
            }
            None => {
                return Err(Error::invalid_input(
                    &path.key("evidence_timestamp"),
                    "required",
                    "evidence_timestamp is required",
                ))
            }
        };
        let text = match o.get("text") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(Error::invalid_input(
                    &path.key("text"),
                    "type",
                    format!("text must be a string, got {other}"),
                ))
            }
        };
        let evidence_speaker = match o.get("evidence_speaker") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(other) => {
                return Err(Error::invalid_input(
                    &path.key("evidence_speaker"),
                    "type",
                    format!("evidence_speaker must be a speaker's label (a string that is not blank), got {other}"),
                ))
            }
        };
        let extra = o
            .iter()
            .filter(|(k, _)| {
                !matches!(k.as_str(), "evidence_quote" | "evidence_timestamp" | "evidence_speaker" | "text")
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(EvaluationItem { text, evidence_quote: quote, evidence_timestamp: timestamp, evidence_speaker, extra })
    }

    /// The item as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A whole evaluation: commendations and recommendations.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct StructuredEvaluation {
    /// What the speaker did well.
    pub commendations: Vec<EvaluationItem>,
    /// What the speaker could improve.
    pub recommendations: Vec<EvaluationItem>,
    /// Any other fields (a summary, a score), kept as given.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl StructuredEvaluation {
    /// Parses an evaluation: an object with `commendations` and
    /// `recommendations` arrays of items.
    pub fn from_json(value: &Value) -> Result<StructuredEvaluation> {
        let root = JsonPath::root();
        let Value::Object(o) = value else {
            return Err(Error::invalid_input(
                &root,
                "type",
                format!("an evaluation must be an object with commendations and recommendations, got {}", short(value)),
            ));
        };
        let list = |kind: ItemKind| -> Result<Vec<EvaluationItem>> {
            let p = root.key(kind.field());
            match o.get(kind.field()) {
                Some(Value::Array(items)) => {
                    items.iter().enumerate().map(|(i, v)| EvaluationItem::from_json(v, &p.index(i))).collect()
                }
                Some(other) => Err(Error::invalid_input(
                    &p,
                    "type",
                    format!("{} must be an array, got {}", kind.field(), short(other)),
                )),
                None => Err(Error::invalid_input(
                    &p,
                    "required",
                    format!("{} is required (an array, possibly empty)", kind.field()),
                )),
            }
        };
        let extra = o
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "commendations" | "recommendations"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(StructuredEvaluation {
            commendations: list(ItemKind::Commendation)?,
            recommendations: list(ItemKind::Recommendation)?,
            extra,
        })
    }

    /// The items of one kind.
    pub fn items(&self, kind: ItemKind) -> &[EvaluationItem] {
        match kind {
            ItemKind::Commendation => &self.commendations,
            ItemKind::Recommendation => &self.recommendations,
        }
    }

    /// The items of one kind, mutable.
    pub fn items_mut(&mut self, kind: ItemKind) -> &mut Vec<EvaluationItem> {
        match kind {
            ItemKind::Commendation => &mut self.commendations,
            ItemKind::Recommendation => &mut self.recommendations,
        }
    }

    /// The evaluation as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A value for an error message: at most 80 characters of its JSON.
pub(crate) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_with_extra_fields() {
        let v = json!({"commendations": [{"text": "Clear opening", "title": "Opening", "evidence_quote": "q", "evidence_timestamp": 1.5}],
                       "recommendations": [], "summary": "good"});
        let e = StructuredEvaluation::from_json(&v).unwrap();
        assert_eq!(e.commendations[0].extra["title"], "Opening");
        assert_eq!(e.to_json(), v);
    }

    #[test]
    fn errors_name_the_path() {
        let e = StructuredEvaluation::from_json(
            &json!({"commendations": [{"evidence_quote": "q", "evidence_timestamp": "12"}], "recommendations": []}),
        )
        .unwrap_err();
        assert_eq!(e.code(), "VALIDATION_ERROR");
        assert_eq!(e.details()["json_path"], "$.commendations[0].evidence_timestamp");
        let e = StructuredEvaluation::from_json(&json!({"commendations": []})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.recommendations");
        let e = StructuredEvaluation::from_json(
            &json!({"commendations": [], "recommendations": [{"evidence_quote": "q", "evidence_timestamp": -1}]}),
        )
        .unwrap_err();
        assert_eq!(e.details()["json_path"], "$.recommendations[0].evidence_timestamp");
        assert!(StructuredEvaluation::from_json(&json!("nope")).is_err());
    }
}
