//! The WebAssembly surface (wasm-bindgen), and nothing else: each function
//! converts its JS input, makes one core call, and converts the output.
//! Errors reach JS as `Error` objects with `code` and `details`.

mod judge;
mod transcript;

use crate::document::{Document, Format};
use crate::error::{Error, ErrorKind};
use crate::host::Clock;
use crate::text::Profile;
use crate::validate::{self, ClaimSet, Config};
use js_sys::{Reflect, JSON};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

/// Routes Rust panics to `console.error` (once; called by every entry
/// point instead of a `start` function, which would be exported).
fn init_panic_hook() {
    console_error_panic_hook::set_once();
}

/// The JS clock: `performance.timeOrigin + performance.now()` (sub-millisecond
/// where the runtime allows, so short time budgets are honoured), else
/// `Date.now()`.
struct DateClock;

impl Clock for DateClock {
    fn now_ms(&self) -> f64 {
        let performance = Reflect::get(&js_sys::global(), &"performance".into()).ok().filter(|p| p.is_object());
        let precise = performance.and_then(|p| {
            let now = Reflect::get(&p, &"now".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
            let now = now.call0(&p).ok()?.as_f64()?;
            let origin = Reflect::get(&p, &"timeOrigin".into()).ok()?.as_f64()?;
            Some(origin + now)
        });
        precise.unwrap_or_else(js_sys::Date::now)
    }
}

/// A JS `Error` with `name`, `code` and `details`.
fn to_js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("EvidenceValidatorError");
    let details = JSON::parse(&Value::Object(e.details().clone()).to_string()).unwrap_or(JsValue::NULL);
    // Reflect::set on a fresh Error object cannot fail
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    let _ = Reflect::set(&err, &"details".into(), &details);
    err.into()
}

/// A JS value as JSON; `undefined` and `null` become `null`.
fn to_json(value: &JsValue, kind: ErrorKind, what: &str) -> Result<Value, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Value::Null);
    }
    let text = JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| to_js_error(Error::new(kind, format!("{what} cannot be converted to JSON"))))?;
    serde_json::from_str(&text).map_err(|e| to_js_error(Error::new(kind, format!("{what} is not valid JSON: {e}"))))
}

/// A serializable value as a plain JS object.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| to_js_error(Error::new(ErrorKind::Processing, format!("cannot serialize result: {e}"))))?;
    JSON::parse(&text)
}

fn parse_format(name: &str) -> Result<Format, JsValue> {
    Format::from_name(name).ok_or_else(|| {
        to_js_error(Error::new(
            ErrorKind::Configuration,
            format!("unknown format {name:?}; expected \"markdown\", \"html\" or \"plain_text\""),
        ))
    })
}

/// Validates evidence claims against a source document (spec 000
/// `validate_evidence`). Throws an `EvidenceValidatorError` on bad input.
#[wasm_bindgen(js_name = validateEvidence, skip_typescript)]
pub fn validate_evidence(
    source: String,
    claims: JsValue,
    config: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
    let config = to_json(&config.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "config")?;
    let report = validate::validate_evidence(&source, &claims, &config, &DateClock).map_err(to_js_error)?;
    to_js(&report)
}

/// A source document parsed and indexed once, validated against many times.
#[wasm_bindgen(js_name = Document, skip_typescript)]
pub struct JsDocument {
    inner: Document,
}

#[wasm_bindgen(js_class = Document)]
impl JsDocument {
    /// Parses `source`; `options.format` overrides format detection.
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(source: String, options: Option<JsValue>) -> Result<JsDocument, JsValue> {
        init_panic_hook();
        let options = to_json(&options.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "options")?;
        let format = match options.get("format") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(parse_format(s)?),
            Some(other) => {
                return Err(to_js_error(Error::new(ErrorKind::Configuration, format!("options.format must be a string, got {other}"))))
            }
        };
        validate::check_document(&source, &Config::default()).map_err(to_js_error)?;
        let inner = Document::new(source, format).map_err(to_js_error)?;
        Ok(JsDocument { inner })
    }

    /// Validates claims against this document (the same report as
    /// `validateEvidence`). `source_metadata.format` in the claims is ignored:
    /// the document's format was fixed when it was built.
    #[wasm_bindgen(skip_typescript)]
    pub fn validate(&self, claims: JsValue, config: Option<JsValue>) -> Result<JsValue, JsValue> {
        let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
        let config = to_json(&config.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "config")?;
        let config = Config::from_json(&config).map_err(to_js_error)?;
        let claims = ClaimSet::from_json(&claims).map_err(to_js_error)?;
        let report = validate::validate_document(&self.inner, &claims.claims, &config, &DateClock).map_err(to_js_error)?;
        to_js(&report)
    }

    /// Every place `quote` occurs: exact matches, or fuzzy ones within
    /// `options.maxEditDistance` (default 3) when there is no exact one.
    #[wasm_bindgen(skip_typescript)]
    pub fn find(&self, quote: &str, options: Option<JsValue>) -> Result<JsValue, JsValue> {
        let options = to_json(&options.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "options")?;
        let flag = |key: &str, default: bool| -> Result<bool, JsValue> {
            match options.get(key) {
                None | Some(Value::Null) => Ok(default),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(to_js_error(Error::new(ErrorKind::Configuration, format!("options.{key} must be a boolean, got {other}")))),
            }
        };
        let max = match options.get("maxEditDistance") {
            None | Some(Value::Null) => 3,
            Some(v) => match v.as_u64() {
                Some(n) if n <= 2000 => n as usize,
                _ => {
                    return Err(to_js_error(Error::new(
                        ErrorKind::Configuration,
                        format!("options.maxEditDistance must be a whole number from 0 to 2000, got {v}"),
                    )))
                }
            },
        };
        let profile = Profile { fold_case: !flag("caseSensitive", false)?, collapse_whitespace: flag("normalizeWhitespace", true)? };
        to_js(&validate::find_quote(&self.inner, quote, profile, max))
    }

    /// The format used: `markdown`, `html` or `plain_text`.
    #[wasm_bindgen(getter, skip_typescript)]
    pub fn format(&self) -> String {
        self.inner.format().name().to_string()
    }

    /// `document_metadata` of the report.
    #[wasm_bindgen(getter, skip_typescript)]
    pub fn metadata(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.metadata())
    }

    /// The sections, in order.
    #[wasm_bindgen(getter, skip_typescript)]
    pub fn sections(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.sections())
    }
}

/// The library version.
#[wasm_bindgen(skip_typescript)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
