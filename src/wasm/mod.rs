//! The WebAssembly surface (wasm-bindgen), and nothing else: each function
//! converts its JS input, calls the core, and converts the output (one core
//! call, or, for the async bindings that await the host between core steps,
//! the core's steps in order).
//! Options are parsed by the core (their `from_json`), never here. One error
//! type crosses the boundary ([`to_js_error`]: an `Error` with `code` and
//! `details`), one clock ([`DateClock`]) and one way of calling the host's
//! functions ([`host`]).

mod bytes;
// `wasm-core` (the npm package's `evidence-validator/core`): spec 000 only,
// without the citation pipeline, the judge, findings and transcripts.
#[cfg(not(feature = "wasm-core"))]
mod cite;
mod host;
#[cfg(not(feature = "wasm-core"))]
mod judge;
#[cfg(not(feature = "wasm-core"))]
mod transcript;

use crate::document::{Document, DocumentBuilder};
use crate::error::{Error, ErrorKind, JsonPath};
use crate::host::Clock;
use crate::validate::{
    self, ClaimSet, Config, DocumentOptions, FindOptions, ReportJson, SliceOptions, SlicedValidation,
};
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
/// `Date.now()`. `performance.now` and `timeOrigin` are looked up once per
/// instance ([`PerformanceNow`]): the deadline reads the clock hundreds of
/// times a call, and the lookups were 2-3 % of a warm `validateEvidence`.
struct DateClock;

/// `performance`, its `now` function and `timeOrigin`; `None` where the
/// runtime has no usable `performance`.
struct PerformanceNow {
    performance: JsValue,
    now: js_sys::Function,
    origin: f64,
}

impl PerformanceNow {
    fn find() -> Option<PerformanceNow> {
        let performance = Reflect::get(&js_sys::global(), &"performance".into()).ok().filter(|p| p.is_object())?;
        let now = Reflect::get(&performance, &"now".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
        let origin = Reflect::get(&performance, &"timeOrigin".into()).ok()?.as_f64()?;
        Some(PerformanceNow { performance, now, origin })
    }
}

thread_local! {
    static PERFORMANCE: std::cell::OnceCell<Option<PerformanceNow>> = const { std::cell::OnceCell::new() };
}

/// The clock of the objects that outlive a call ([`JsSlicedValidation`]).
static DATE_CLOCK: DateClock = DateClock;

impl Clock for DateClock {
    fn now_ms(&self) -> f64 {
        let precise = PERFORMANCE.with(|p| {
            let p = p.get_or_init(PerformanceNow::find).as_ref()?;
            Some(p.origin + p.now.call0(&p.performance).ok()?.as_f64()?)
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

/// Deepest nesting of a JS value converted to JSON (serde_json's own limit).
const MAX_JS_DEPTH: usize = 128;

/// A JS value as JSON; `undefined` and `null` become `null`. Checked on the
/// way, with the JSON path of the first fault in the error: NaN and
/// ±Infinity (which `JSON.stringify` would turn into `null`, that is into
/// the default), strings with a lone surrogate (not text: no offset into
/// them is sound), functions, symbols, BigInts and nesting past
/// [`MAX_JS_DEPTH`].
fn to_json(value: &JsValue, kind: ErrorKind, what: &str) -> Result<Value, JsValue> {
    js_to_json(value, &JsonPath::root(), 0).map_err(|(path, constraint, message)| {
        to_js_error(Error::at_path(kind, &path, constraint, format!("{what}: {message}")))
    })
}

type JsFault = (JsonPath, &'static str, String);

thread_local! {
    /// The key `toJSON`, made a JS string once (not once per object: 2000
    /// string conversions a benchmark call).
    static TO_JSON: JsValue = JsValue::from_str("toJSON");
}

fn js_to_json(value: &JsValue, path: &JsonPath, depth: usize) -> Result<Value, JsFault> {
    if depth > MAX_JS_DEPTH {
        return Err((path.clone(), "maxDepth", format!("nested deeper than {MAX_JS_DEPTH} levels")));
    }
    // the commonest kinds first: each test is a call into JS
    if let Some(string) = value.as_string() {
        return checked_text(string, value, path).map(Value::String);
    }
    if let Some(x) = value.as_f64() {
        if !x.is_finite() {
            return Err((path.clone(), "type", format!("{x} is not a finite number")));
        }
        if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
            return Ok(Value::from(x as i64));
        }
        return Ok(serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number));
    }
    if value.is_undefined() || value.is_null() {
        return Ok(Value::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if js_sys::Array::is_array(value) {
        let array: &js_sys::Array = value.unchecked_ref();
        return array.iter().enumerate().map(|(i, item)| js_to_json(&item, &path.index(i), depth + 1)).collect();
    }
    if value.is_function() || value.is_symbol() || value.is_bigint() || !value.is_object() {
        let what = value.js_typeof().as_string().unwrap_or_default();
        return Err((path.clone(), "type", format!("a {what} cannot be converted to JSON")));
    }
    // as JSON.stringify: an object with toJSON (a Date, a Finding built by
    // this package) stands for what toJSON returns
    if let Ok(to_json) = TO_JSON.with(|key| Reflect::get(value, key)) {
        if let Some(f) = to_json.dyn_ref::<js_sys::Function>() {
            let plain =
                f.call0(value).map_err(|e| (path.clone(), "type", format!("toJSON threw: {}", host::describe(&e))))?;
            if plain.dyn_ref::<js_sys::Function>().is_none() {
                return js_to_json(&plain, path, depth + 1);
            }
        }
    }
    let object: &js_sys::Object = value.unchecked_ref();
    let mut out = serde_json::Map::new();
    for entry in js_sys::Object::entries(object).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        let item = pair.get(1);
        if item.is_undefined() {
            continue; // as JSON.stringify: a key whose value is undefined is absent
        }
        let item = js_to_json(&item, &path.key(&key), depth + 1)?;
        out.insert(key, item);
    }
    Ok(Value::Object(out))
}

/// A JS string as text; a lone surrogate (JS strings may hold one, UTF-8
/// cannot) is refused with its UTF-16 index rather than replaced, so that
/// every offset reported into the text holds in JS too.
///
/// The string crosses the boundary once (wasm-bindgen's `TextEncoder`),
/// which turns each lone surrogate into U+FFFD: only a text that then holds
/// U+FFFD is checked unit by unit (`is_valid_utf16` asks JS for every UTF-16
/// unit, a million boundary crossings for a 1 MB source: 12 % of a warm
/// `validateEvidence` of the benchmark, more on the first call).
fn js_text(value: &JsValue, path: &JsonPath) -> Result<String, JsFault> {
    let Some(string) = value.as_string() else {
        let what = value.js_typeof().as_string().unwrap_or_default();
        return Err((path.clone(), "type", format!("must be a string, got a {what}")));
    };
    checked_text(string, value, path)
}

/// `string`, the conversion of the JS string `value`, if `value` holds no
/// lone surrogate (see [`js_text`]).
fn checked_text(string: String, value: &JsValue, path: &JsonPath) -> Result<String, JsFault> {
    if memchr::memmem::find(string.as_bytes(), "\u{FFFD}".as_bytes()).is_none() {
        return Ok(string);
    }
    let text: &js_sys::JsString = value.unchecked_ref();
    if !text.is_valid_utf16() {
        let lone = (0..text.length()).find(|&i| {
            let unit = text.char_code_at(i) as u32;
            match unit {
                0xD800..=0xDBFF => !(0xDC00..=0xDFFF).contains(&(text.char_code_at(i + 1) as u32)),
                0xDC00..=0xDFFF => i == 0 || !(0xD800..=0xDBFF).contains(&(text.char_code_at(i - 1) as u32)),
                _ => false,
            }
        });
        return Err((
            path.clone(),
            "unicode",
            format!("holds a lone surrogate at UTF-16 index {}: not text", lone.unwrap_or(0)),
        ));
    }
    Ok(string)
}

/// A string argument (`source`, `quote`): its type and its text checked.
fn string_arg(value: &JsValue, kind: ErrorKind, name: &str) -> Result<String, JsValue> {
    js_text(value, &JsonPath::root().key(name)).map_err(|(path, constraint, message)| {
        to_js_error(Error::at_path(kind, &path, constraint, format!("{name} {message}")))
    })
}

/// An argument converted by the checked walk ([`to_json`]) and parsed by
/// its core `from_json` (options, configurations, claims, items): every
/// default, bound and error path is the core's.
fn parse_arg<T>(
    value: Option<JsValue>,
    kind: ErrorKind,
    what: &str,
    parse: impl FnOnce(&Value) -> crate::Result<T>,
) -> Result<T, JsValue> {
    let json = to_json(&value.unwrap_or(JsValue::NULL), kind, what)?;
    parse(&json).map_err(to_js_error)
}

/// A result as a plain JS object: its JSON text through `JSON.parse` (NaN
/// is `null`, as in the CLI's output). The text goes to JS in pieces of
/// [`JS_TEXT_PIECE`] bytes as it is written, and JS joins them: the whole
/// text (1.8 MB for 1000 claims) is never held in linear memory, where a
/// buffer grown by doubling, in a heap the document's index has just left
/// in pieces, took the shuffled-claims workload past 16 MB (issue 21).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let fail =
        |what: String| to_js_error(Error::new(ErrorKind::Processing, format!("cannot serialize result: {what}")));
    let mut out = JsPieces { pending: Vec::with_capacity(JS_TEXT_PIECE + 4), pieces: js_sys::Array::new() };
    serde_json::to_writer(&mut out, value).map_err(|e| fail(e.to_string()))?;
    out.send(true).map_err(|e| fail(e.to_string()))?;
    json_parse(&out.pieces.join(""))
}

/// How many bytes of a result's JSON text cross to JS at a time.
const JS_TEXT_PIECE: usize = 64 * 1024;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string (js-sys's takes a Rust `&str`).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
}

/// A JSON text written in pieces, each sent to JS as a string once
/// [`JS_TEXT_PIECE`] bytes are pending (cut at a char boundary).
struct JsPieces {
    pending: Vec<u8>,
    pieces: js_sys::Array,
}

impl JsPieces {
    /// Sends the pending bytes up to the last whole char (all of them when
    /// `last`); a char cut by the writer waits for its other bytes.
    fn send(&mut self, last: bool) -> std::io::Result<()> {
        let invalid = |e| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
        let cut = match std::str::from_utf8(&self.pending) {
            Ok(text) => {
                self.pieces.push(&JsValue::from_str(text));
                self.pending.len()
            }
            Err(e) if e.error_len().is_none() && !last => {
                let head = self.pending.get(..e.valid_up_to()).unwrap_or_default();
                self.pieces.push(&JsValue::from_str(std::str::from_utf8(head).map_err(invalid)?));
                e.valid_up_to()
            }
            Err(e) => return Err(invalid(e)),
        };
        self.pending.drain(..cut);
        Ok(())
    }
}

impl std::io::Write for JsPieces {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(data);
        if self.pending.len() >= JS_TEXT_PIECE {
            self.send(false)?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A small value handed to a host function (a juror's context, a callback's
/// request, a log entry), built in place by serde-wasm-bindgen (`null` for
/// `None`, plain objects for maps, as JSON would have them).
#[cfg(not(feature = "wasm-core"))]
fn to_js_arg<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| to_js_error(Error::new(ErrorKind::Processing, format!("cannot convert a callback argument: {e}"))))
}

/// The host's `embed(texts) => number[][]` (semantic matching, issue 12),
/// called synchronously.
struct JsEmbedder {
    embed: js_sys::Function,
    /// The calls to use instead when `embed` returns a Promise.
    async_calls: &'static str,
}

impl validate::Embedder for JsEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        let list: js_sys::Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
        let answer = self.embed.call1(&JsValue::NULL, &list).map_err(|e| host::describe(&e))?;
        if answer.dyn_ref::<js_sys::Promise>().is_some() {
            return Err(format!("embed returned a Promise: use {} for an asynchronous embed", self.async_calls));
        }
        read_vectors(&answer)
    }
}

/// The `async_calls` of the validation's [`JsEmbedder`].
const VALIDATE_ASYNC_CALLS: &str = "validateEvidenceAsync or Document.validateAsync";

/// Asks the host's `embed` for `texts` once, awaiting its answer (a value
/// or a Promise): the vectors, or what went wrong.
async fn embed_async(embed: &js_sys::Function, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
    let list: js_sys::Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
    match host::call(embed, &JsValue::NULL, &js_sys::Array::of1(&list), None).await {
        Ok(answer) => read_vectors(&answer),
        Err(host::HostFailure::Threw(m) | host::HostFailure::Rejected(m)) => Err(m),
        Err(host::HostFailure::TimedOut) => Err("embed timed out".into()),
    }
}

/// `number[][]` (or an array of typed arrays) as vectors.
fn read_vectors(answer: &JsValue) -> Result<Vec<Vec<f32>>, String> {
    if !js_sys::Array::is_array(answer) {
        return Err("embed must return an array of vectors (number[][])".into());
    }
    js_sys::Array::from(answer)
        .iter()
        .enumerate()
        .map(|(i, row)| {
            if let Some(f) = row.dyn_ref::<js_sys::Float32Array>() {
                return Ok(f.to_vec());
            }
            if let Some(f) = row.dyn_ref::<js_sys::Float64Array>() {
                return Ok(f.to_vec().into_iter().map(|x| x as f32).collect());
            }
            if !js_sys::Array::is_array(&row) {
                return Err(format!("embed returned a non-array at index {i}"));
            }
            js_sys::Array::from(&row)
                .iter()
                .enumerate()
                .map(|(j, x)| {
                    x.as_f64().map(|x| x as f32).ok_or_else(|| format!("embed returned a non-number at [{i}][{j}]"))
                })
                .collect()
        })
        .collect()
}

/// `options` of the validate calls: `{ embed?: (texts) => number[][] }`.
fn embed_option(options: Option<JsValue>) -> Result<Option<js_sys::Function>, JsValue> {
    let Some(options) = options.filter(|o| !o.is_undefined() && !o.is_null()) else {
        return Ok(None);
    };
    if !options.is_object() {
        return Err(to_js_error(Error::new(ErrorKind::Configuration, "options must be an object")));
    }
    let object: &js_sys::Object = options.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if key != "embed" {
            return Err(to_js_error(Error::new(
                ErrorKind::Configuration,
                format!("unknown option {key:?}; the options are: embed"),
            )));
        }
    }
    let embed = Reflect::get(&options, &"embed".into()).unwrap_or(JsValue::UNDEFINED);
    if embed.is_undefined() || embed.is_null() {
        return Ok(None);
    }
    embed.dyn_into::<js_sys::Function>().map(Some).map_err(|_| {
        to_js_error(Error::new(
            ErrorKind::Configuration,
            "options.embed must be a function (texts: string[]) => number[][]",
        ))
    })
}

/// Validates evidence claims against a source document (spec 000
/// `validate_evidence`). Throws an `EvidenceValidatorError` on bad input.
#[wasm_bindgen(js_name = validateEvidence, skip_typescript)]
pub fn validate_evidence(
    source: JsValue,
    claims: JsValue,
    config: Option<JsValue>,
    options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let source = bytes::SourceArg::read(&source)?;
    let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
    let source = source.text(&claims)?;
    let config = to_json(&config.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "config")?;
    let embedder = embed_option(options)?.map(|embed| JsEmbedder { embed, async_calls: VALIDATE_ASYNC_CALLS });
    let report = validate::validate_evidence_with(
        &source,
        &claims,
        &config,
        &DateClock,
        embedder.as_ref().map(|e| e as &dyn validate::Embedder),
    )
    .map_err(to_js_error)?;
    to_js(&report)
}

/// [`validate_evidence`] for an `embed` that returns a Promise.
#[wasm_bindgen(js_name = validateEvidenceAsync, skip_typescript)]
pub async fn validate_evidence_async(
    source: JsValue,
    claims: JsValue,
    config: Option<JsValue>,
    options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let source = bytes::SourceArg::read(&source)?;
    let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
    let config = parse_arg(config, ErrorKind::Configuration, "config", Config::from_json)?;
    let claims = ClaimSet::from_json(&claims).map_err(to_js_error)?;
    let source = source.decode(claims.encoding)?;
    validate::check_document(&source, &config).map_err(to_js_error)?;
    let doc = Document::new(source, claims.format).map_err(to_js_error)?;
    validate_async(&doc, &claims, &config, embed_option(options)?).await
}

/// Embeds what the validation will ask for (awaiting the host's Promise),
/// then validates with those answers.
async fn validate_async(
    doc: &Document,
    claims: &ClaimSet,
    config: &Config,
    embed: Option<js_sys::Function>,
) -> Result<JsValue, JsValue> {
    let Some(embed) = embed else {
        let report = validate::validate_set_with(doc, claims, config, &DateClock, None).map_err(to_js_error)?;
        return to_js(&report);
    };
    let texts = validate::semantic_texts(doc, &claims.claims, config);
    let mut vectors = Ok(Vec::new());
    if !texts.is_empty() {
        vectors = embed_async(&embed, &texts).await;
    }
    let embedder: Box<dyn validate::Embedder> = match vectors {
        Ok(vectors) => Box::new(validate::Precomputed { texts, vectors }),
        Err(message) => Box::new(move |_: &[&str]| -> Result<Vec<Vec<f32>>, String> { Err(message.clone()) }),
    };
    let report =
        validate::validate_set_with(doc, claims, config, &DateClock, Some(embedder.as_ref())).map_err(to_js_error)?;
    to_js(&report)
}

/// A source document parsed and indexed once, validated against many times.
#[wasm_bindgen(js_name = Document, skip_typescript)]
pub struct JsDocument {
    /// Shared with the futures of `validateAsync`.
    inner: std::rc::Rc<Document>,
}

#[wasm_bindgen(js_class = Document)]
impl JsDocument {
    /// Parses `source`; `options.format` overrides format detection.
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(source: JsValue, options: Option<JsValue>) -> Result<JsDocument, JsValue> {
        init_panic_hook();
        let source = string_arg(&source, ErrorKind::DocumentParsing, "source")?;
        let options = parse_arg(options, ErrorKind::Configuration, "options", DocumentOptions::from_json)?;
        validate::check_document(&source, &Config::default()).map_err(to_js_error)?;
        let inner = Document::new(source, options.format).map_err(to_js_error)?;
        Ok(JsDocument { inner: std::rc::Rc::new(inner) })
    }

    /// Validates claims against this document (the same report as
    /// `validateEvidence`). `source_metadata.format` in the claims is ignored:
    /// the document's format was fixed when it was built.
    #[wasm_bindgen(skip_typescript)]
    pub fn validate(
        &self,
        claims: JsValue,
        config: Option<JsValue>,
        options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
        let config = parse_arg(config, ErrorKind::Configuration, "config", Config::from_json)?;
        let claims = ClaimSet::from_json(&claims).map_err(to_js_error)?;
        let embedder = embed_option(options)?.map(|embed| JsEmbedder { embed, async_calls: VALIDATE_ASYNC_CALLS });
        let report = validate::validate_set_with(
            &self.inner,
            &claims,
            &config,
            &DateClock,
            embedder.as_ref().map(|e| e as &dyn validate::Embedder),
        )
        .map_err(to_js_error)?;
        to_js(&report)
    }

    /// [`JsDocument::validate`] for an `embed` that returns a Promise.
    #[wasm_bindgen(js_name = validateAsync, skip_typescript)]
    pub fn validate_async(
        &self,
        claims: JsValue,
        config: Option<JsValue>,
        options: Option<JsValue>,
    ) -> js_sys::Promise {
        let doc = std::rc::Rc::clone(&self.inner);
        wasm_bindgen_futures::future_to_promise(async move {
            let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
            let config = parse_arg(config, ErrorKind::Configuration, "config", Config::from_json)?;
            let claims = ClaimSet::from_json(&claims).map_err(to_js_error)?;
            validate_async(&doc, &claims, &config, embed_option(options)?).await
        })
    }

    /// [`JsDocument::validate`] in steps ([`JsSlicedValidation`]; no
    /// `embed`: semantic matching is lexical).
    #[wasm_bindgen(js_name = validateInSlices, skip_typescript)]
    pub fn validate_in_slices(
        &self,
        claims: JsValue,
        config: Option<JsValue>,
        options: Option<JsValue>,
    ) -> Result<JsSlicedValidation, JsValue> {
        let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
        let config = parse_arg(config, ErrorKind::Configuration, "config", Config::from_json)?;
        let claims = ClaimSet::from_json(&claims).map_err(to_js_error)?;
        let options = parse_arg(options, ErrorKind::Configuration, "options", SliceOptions::from_json)?;
        let doc = std::rc::Rc::clone(&self.inner);
        let inner = SlicedValidation::on_document(doc, claims, config, options, &DATE_CLOCK).map_err(to_js_error)?;
        Ok(JsSlicedValidation::of(inner, options))
    }

    /// Every place `quote` occurs: exact matches, or fuzzy ones within
    /// `options.maxEditDistance` (default 3) when there is no exact one; at
    /// most `options.maxResults` (default 1000), the rest counted in
    /// `omitted`.
    #[wasm_bindgen(skip_typescript)]
    pub fn find(&self, quote: JsValue, options: Option<JsValue>) -> Result<JsValue, JsValue> {
        let quote = string_arg(&quote, ErrorKind::Validation, "quote")?;
        let options = parse_arg(options, ErrorKind::Configuration, "options", FindOptions::from_json)?;
        to_js(&validate::find(&self.inner, &quote, &options, &DateClock))
    }

    /// Finds saved annotations (`[{id, selectors}]`, selectors as
    /// `match_details.selectors` gives them) in this document, edited since:
    /// each one's status and new span (issue 18).
    #[wasm_bindgen(skip_typescript)]
    pub fn reanchor(&self, annotations: JsValue) -> Result<JsValue, JsValue> {
        let annotations = to_json(&annotations, ErrorKind::Validation, "annotations")?;
        to_js(&validate::reanchor(&self.inner, &annotations, &DateClock).map_err(to_js_error)?)
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

/// A [`Document`] built a bounded number of source bytes per `step`, for
/// hosts with one thread that serve others between steps (an edge worker).
#[wasm_bindgen(js_name = DocumentBuilder, skip_typescript)]
pub struct JsDocumentBuilder {
    inner: DocumentBuilder,
}

#[wasm_bindgen(js_class = DocumentBuilder)]
impl JsDocumentBuilder {
    /// The checks of `new Document(source, options)`; nothing read yet.
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(source: JsValue, options: Option<JsValue>) -> Result<JsDocumentBuilder, JsValue> {
        init_panic_hook();
        let source = string_arg(&source, ErrorKind::DocumentParsing, "source")?;
        let options = parse_arg(options, ErrorKind::Configuration, "options", DocumentOptions::from_json)?;
        validate::check_document(&source, &Config::default()).map_err(to_js_error)?;
        let inner = DocumentBuilder::new(source, options.format).map_err(to_js_error)?;
        Ok(JsDocumentBuilder { inner })
    }

    /// Reads about `budget` more source bytes (the core's
    /// [`DocumentBuilder::step_budget`]: default 65536, a whole number from
    /// 1024 to 2^30, else CONFIGURATION_ERROR, as `bytesPerStep`); true
    /// once the document is built.
    #[wasm_bindgen(skip_typescript)]
    pub fn step(&mut self, budget: Option<f64>) -> Result<bool, JsValue> {
        let budget = DocumentBuilder::step_budget(budget).map_err(to_js_error)?;
        Ok(self.inner.step(budget))
    }

    /// The document (any steps left are done first).
    #[wasm_bindgen(skip_typescript)]
    pub fn finish(self) -> JsDocument {
        JsDocument { inner: std::rc::Rc::new(self.inner.finish()) }
    }

    /// The format the source is read as.
    #[wasm_bindgen(getter, skip_typescript)]
    pub fn format(&self) -> String {
        self.inner.format().name().to_string()
    }
}

/// `validateEvidence` done a bounded amount per `step`
/// ([`SlicedValidation`]), then its report's JSON text a slice of claims
/// per step: the same report (its timestamp aside).
#[wasm_bindgen(js_name = SlicedValidation, skip_typescript)]
pub struct JsSlicedValidation {
    validation: Option<SlicedValidation<'static>>,
    text: Option<ReportJson>,
    /// The text written so far, in pieces of JS text.
    out: JsPieces,
    /// The whole text is in `out`.
    written: bool,
    claims_per_slice: usize,
}

impl JsSlicedValidation {
    fn of(inner: SlicedValidation<'static>, options: SliceOptions) -> JsSlicedValidation {
        JsSlicedValidation {
            validation: Some(inner),
            text: None,
            out: JsPieces { pending: Vec::with_capacity(JS_TEXT_PIECE + 4), pieces: js_sys::Array::new() },
            written: false,
            claims_per_slice: options.claims_per_slice,
        }
    }

    fn run(&mut self) -> Result<(), JsValue> {
        while !self.step()? {}
        Ok(())
    }
}

#[wasm_bindgen(js_class = SlicedValidation)]
impl JsSlicedValidation {
    /// The checks of `validateEvidence(source, claims, config)`, in its
    /// order, with its errors; `options`: `{claimsPerSlice?, bytesPerStep?}`.
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(
        source: JsValue,
        claims: JsValue,
        config: Option<JsValue>,
        options: Option<JsValue>,
    ) -> Result<JsSlicedValidation, JsValue> {
        init_panic_hook();
        let source = bytes::SourceArg::read(&source)?;
        let claims = to_json(&claims, ErrorKind::Validation, "claims")?;
        let source = source.text(&claims)?;
        let config = to_json(&config.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "config")?;
        let options = parse_arg(options, ErrorKind::Configuration, "options", SliceOptions::from_json)?;
        let inner = SlicedValidation::new(source, &claims, &config, options, &DATE_CLOCK).map_err(to_js_error)?;
        Ok(JsSlicedValidation::of(inner, options))
    }

    /// Does the next step (a build step, a slice of claims, or a piece of
    /// the report's text); true once the report is ready.
    #[wasm_bindgen(skip_typescript)]
    pub fn step(&mut self) -> Result<bool, JsValue> {
        if let Some(v) = self.validation.as_mut() {
            if v.step() {
                if let Some(v) = self.validation.take() {
                    self.text = Some(ReportJson::new(v.finish().map_err(to_js_error)?));
                }
            }
            return Ok(false);
        }
        let Some(text) = self.text.as_mut().filter(|_| !self.written) else {
            return Ok(true);
        };
        let fail =
            |e: std::io::Error| to_js_error(Error::new(ErrorKind::Processing, format!("cannot serialize result: {e}")));
        // the writer sends each 64 KB to JS as it fills; the rest at the end
        let done = text.write(self.claims_per_slice, &mut self.out).map_err(fail)?;
        if done {
            self.out.send(true).map_err(fail)?;
        }
        self.written = done;
        Ok(done)
    }

    /// Claims validated so far.
    #[wasm_bindgen(getter, js_name = claimsDone, skip_typescript)]
    pub fn claims_done(&self) -> f64 {
        match (&self.validation, &self.text) {
            (Some(v), _) => v.claims_done() as f64,
            (None, Some(t)) => t.report().validated_claims.len() as f64,
            (None, None) => 0.0,
        }
    }

    /// The report's JSON text (any steps left are done first).
    #[wasm_bindgen(js_name = finishJson, skip_typescript)]
    pub fn finish_json(mut self) -> Result<js_sys::JsString, JsValue> {
        self.run()?;
        Ok(self.out.pieces.join(""))
    }

    /// The report (any steps left are done first).
    #[wasm_bindgen(skip_typescript)]
    pub fn finish(self) -> Result<JsValue, JsValue> {
        json_parse(&self.finish_json()?)
    }
}

/// Parses JSON text strictly: a duplicate key is an error naming its JSON
/// path, a byte order mark is skipped (what `JSON.parse` gets wrong for
/// untrusted bodies: it keeps the last duplicate without a word). Where a
/// scan of the text shows that `JSON.parse` gives the strict parser's value
/// ([`crate::json::plain_parse_agrees`]), `JSON.parse` parses it (about ten
/// times faster than building the value here and handing it over; keys then
/// stay in text order instead of sorted).
#[wasm_bindgen(js_name = parseJson, skip_typescript)]
pub fn parse_json(text: JsValue) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let string = string_arg(&text, ErrorKind::Validation, "text")?;
    if crate::json::plain_parse_agrees(&string) {
        if let Ok(value) = json_parse(text.unchecked_ref()) {
            return Ok(value);
        }
    }
    let value = crate::json::parse(&string, ErrorKind::Validation, "the JSON text").map_err(to_js_error)?;
    to_js(&value)
}

/// The default configuration (spec 000 §1.3 with this library's
/// additions), as the library applies it: hosts that tighten options (the
/// edge function) read the defaults here instead of copying them.
#[wasm_bindgen(js_name = defaultConfig, skip_typescript)]
pub fn default_config() -> Result<JsValue, JsValue> {
    to_js(&Config::default())
}

/// The bounds and defaults of [`SliceOptions`] (`claimsPerSlice`,
/// `bytesPerStep`; the latter also `DocumentBuilder.step`'s budget), each
/// `{min, max, default}` from the core's constants: hosts that choose a
/// slice size (the edge function) read them here instead of copying them.
#[wasm_bindgen(js_name = sliceOptionBounds, skip_typescript)]
pub fn slice_option_bounds() -> Result<JsValue, JsValue> {
    use crate::document::{DEFAULT_STEP_BYTES, MAX_STEP_BYTES, MIN_STEP_BYTES};
    use crate::validate::{DEFAULT_SLICE_CLAIMS, MAX_CLAIMS, MIN_SLICE_CLAIMS};
    to_js(&serde_json::json!({
        "claimsPerSlice": { "min": MIN_SLICE_CLAIMS, "max": MAX_CLAIMS, "default": DEFAULT_SLICE_CLAIMS },
        "bytesPerStep": { "min": MIN_STEP_BYTES, "max": MAX_STEP_BYTES, "default": DEFAULT_STEP_BYTES },
    }))
}

/// The library version.
#[wasm_bindgen(skip_typescript)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
