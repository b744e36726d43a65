//! The one error type of the crate, with the error codes of spec 000 §4
//! (`VALIDATION_ERROR`, `DOCUMENT_PARSING_ERROR`, `CONFIGURATION_ERROR`,
//! `PROCESSING_ERROR`), a message a person can act on, and structured details
//! (for input errors: the JSON path of the offending field).

use serde_json::{Map, Value};
use std::fmt;

/// What kind of failure an [`Error`] is. The string forms are the spec's codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The claims (or another input) do not follow the input schema.
    Validation,
    /// The source document cannot be parsed or exceeds the size limit.
    DocumentParsing,
    /// The configuration has an unknown key, a wrong type or an out-of-range value.
    Configuration,
    /// Processing failed or ran past its time budget.
    Processing,
}

impl ErrorKind {
    /// The spec's code for this kind, e.g. `"VALIDATION_ERROR"`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::Validation => "VALIDATION_ERROR",
            ErrorKind::DocumentParsing => "DOCUMENT_PARSING_ERROR",
            ErrorKind::Configuration => "CONFIGURATION_ERROR",
            ErrorKind::Processing => "PROCESSING_ERROR",
        }
    }
}

/// An error with a spec code, a message and JSON details.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    details: Map<String, Value>,
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A new error of `kind` with `message` and no details.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into(), details: Map::new() }
    }

    /// A `VALIDATION_ERROR` about the input field at `path` (a JSON path such
    /// as `$.claims[3].id`). The path is put in the message and in
    /// `details.path` (as the list of keys and indices, the spec's form) and
    /// `details.json_path`.
    pub fn invalid_input(path: &JsonPath, constraint: &str, message: impl Into<String>) -> Error {
        Error::at_path(ErrorKind::Validation, path, constraint, message)
    }

    /// A `CONFIGURATION_ERROR` about the config field at `path`.
    pub fn invalid_config(path: &JsonPath, constraint: &str, message: impl Into<String>) -> Error {
        Error::at_path(ErrorKind::Configuration, path, constraint, message)
    }

    /// An error of `kind` about the input at `path`, breaking `constraint`.
    pub fn at_path(kind: ErrorKind, path: &JsonPath, constraint: &str, message: impl Into<String>) -> Error {
        let message = format!("{} at {}", message.into(), path);
        Error::new(kind, message)
            .with_detail("path", path.to_value())
            .with_detail("json_path", Value::String(path.to_string()))
            .with_detail("constraint", Value::String(constraint.to_string()))
    }

    /// Adds one detail field.
    pub fn with_detail(mut self, key: &str, value: Value) -> Error {
        self.details.insert(key.to_string(), value);
        self
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The spec's code, e.g. `"CONFIGURATION_ERROR"`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Structured details (JSON object).
    pub fn details(&self) -> &Map<String, Value> {
        &self.details
    }

    /// The error as the spec's `errors[]` entry: `{code, message, details}`.
    pub fn to_json(&self) -> Value {
        let mut obj = Map::new();
        obj.insert("code".into(), Value::String(self.code().into()));
        obj.insert("message".into(), Value::String(self.message.clone()));
        obj.insert("details".into(), Value::Object(self.details.clone()));
        Value::Object(obj)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for Error {}

/// One step of a [`JsonPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathStep {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A path into a JSON value, printed as `$.claims[3].id`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonPath(Vec<PathStep>);

impl JsonPath {
    /// The root `$`.
    pub fn root() -> JsonPath {
        JsonPath(Vec::new())
    }

    /// This path extended by an object key.
    pub fn key(&self, key: &str) -> JsonPath {
        let mut steps = self.0.clone();
        steps.push(PathStep::Key(key.to_string()));
        JsonPath(steps)
    }

    /// This path extended by an array index.
    pub fn index(&self, index: usize) -> JsonPath {
        let mut steps = self.0.clone();
        steps.push(PathStep::Index(index));
        JsonPath(steps)
    }

    /// The spec's form: a list of keys (strings) and indices (numbers).
    pub fn to_value(&self) -> Value {
        Value::Array(
            self.0
                .iter()
                .map(|step| match step {
                    PathStep::Key(k) => Value::String(k.clone()),
                    PathStep::Index(i) => Value::from(*i),
                })
                .collect(),
        )
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for step in &self.0 {
            match step {
                PathStep::Key(k) => write!(f, ".{k}")?,
                PathStep::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_prints_like_jsonpath() {
        let p = JsonPath::root().key("claims").index(3).key("id");
        assert_eq!(p.to_string(), "$.claims[3].id");
        assert_eq!(p.to_value(), serde_json::json!(["claims", 3, "id"]));
    }

    #[test]
    fn invalid_input_names_the_path() {
        let p = JsonPath::root().key("claims").index(0).key("quote");
        let e = Error::invalid_input(&p, "minLength", "quote is 3 characters, at least 10 required");
        assert_eq!(e.code(), "VALIDATION_ERROR");
        assert!(e.message().ends_with("at $.claims[0].quote"), "{}", e.message());
        assert_eq!(e.details()["json_path"], "$.claims[0].quote");
    }
}
