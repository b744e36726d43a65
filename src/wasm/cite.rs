//! The citation pipeline's JS surface (spec 004 part 1): `cite`,
//! `citeAsync`, `citeNumeric`, `citeMetrics` and `citeDefaultConfig`. Each
//! converts its input, makes one core call ([`crate::cite`]), converts the
//! output; the `embed` option is the matching core's host callback
//! ([`super::JsEmbedder`]; `citeAsync` awaits it once, for the texts
//! [`cite::embed_texts`] lists).

use super::{
    embed_async, embed_option, init_panic_hook, string_arg, to_js, to_js_error, to_json, DateClock, JsEmbedder,
};
use crate::cite::{self, metrics, CiteConfig, CiteInput};
use crate::error::ErrorKind;
use crate::matching::semantic::Embedder;
use wasm_bindgen::prelude::*;

fn config(value: Option<JsValue>) -> Result<CiteConfig, JsValue> {
    let value = to_json(&value.unwrap_or(JsValue::NULL), ErrorKind::Configuration, "config")?;
    CiteConfig::from_json(&value).map_err(to_js_error)
}

/// Runs stages 1, 3, 5 and 6 on `{query, sources, claims}`.
#[wasm_bindgen(js_name = cite, skip_typescript)]
pub fn cite_run(input: JsValue, config_value: Option<JsValue>, options: Option<JsValue>) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let input = to_json(&input, ErrorKind::Validation, "input")?;
    let input = CiteInput::from_json(&input).map_err(to_js_error)?;
    let config = config(config_value)?;
    let embedder = embed_option(options)?.map(|embed| JsEmbedder { embed, async_calls: "citeAsync" });
    let deadline = config.deadline(&DateClock);
    let report =
        cite::run(&input, &config, embedder.as_ref().map(|e| e as &dyn Embedder), &deadline).map_err(to_js_error)?;
    to_js(&report)
}

/// [`cite_run`] for an `embed` that returns a Promise: the texts the
/// pipeline will embed are asked for once, then the pipeline runs on the
/// answer.
#[wasm_bindgen(js_name = citeAsync, skip_typescript)]
pub async fn cite_async(
    input: JsValue,
    config_value: Option<JsValue>,
    options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let input = to_json(&input, ErrorKind::Validation, "input")?;
    let input = CiteInput::from_json(&input).map_err(to_js_error)?;
    let config = config(config_value)?;
    let deadline = config.deadline(&DateClock);
    let Some(embed) = embed_option(options)? else {
        return to_js(&cite::run(&input, &config, None, &deadline).map_err(to_js_error)?);
    };
    let asked = cite::embed_texts(&input, &config, &deadline).map_err(to_js_error)?;
    let mut answer = Ok(Vec::new());
    if !asked.texts.is_empty() {
        answer = embed_async(&embed, &asked.texts).await;
    }
    to_js(&cite::run_embedded(&input, &config, asked, answer, &deadline).map_err(to_js_error)?)
}

/// Stage 6 on two texts.
#[wasm_bindgen(js_name = citeNumeric, skip_typescript)]
pub fn cite_numeric(claim: JsValue, evidence: JsValue, config_value: Option<JsValue>) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let claim = string_arg(&claim, ErrorKind::Validation, "claim")?;
    let evidence = string_arg(&evidence, ErrorKind::Validation, "evidence")?;
    let config = config(config_value)?;
    to_js(&cite::verify_numeric(&claim, &evidence, &config).map_err(to_js_error)?)
}

/// The evaluation metrics of the parts of `input` given.
#[wasm_bindgen(js_name = citeMetrics, skip_typescript)]
pub fn cite_metrics(input: JsValue) -> Result<JsValue, JsValue> {
    init_panic_hook();
    let input = to_json(&input, ErrorKind::Validation, "input")?;
    let deadline = CiteConfig::default().deadline(&DateClock);
    to_js(&metrics::evaluate(&input, &deadline).map_err(to_js_error)?)
}

/// The pipeline's default configuration, as the library applies it.
#[wasm_bindgen(js_name = citeDefaultConfig, skip_typescript)]
pub fn cite_default_config() -> Result<JsValue, JsValue> {
    to_js(&CiteConfig::default())
}
