//! The citation pipeline's JS surface (spec 004): `cite`, `citeAsync`,
//! `citeNumeric`, `citeMetrics`, `citeDefaultConfig` (part 1), and
//! `citePipeline` / `citeStream` (part 2: the whole pipeline through the
//! host's async LLM callbacks, every call through [`super::host`], each
//! round's lanes as many at once as the core's [`Round`] says, each call
//! within its [`Round::call_timeout_ms`], an `AbortSignal` checked before
//! each; the host's `embed` answers the core's [`Step::Embed`]). Each
//! converts its input, makes one core call ([`crate::cite`]), converts the
//! output; the `embed` option is the matching core's host callback
//! ([`super::JsEmbedder`]; `citeAsync` awaits it once, for the texts
//! [`cite::embed_texts`] lists).

use super::host;
use super::{
    embed_async, embed_option, init_panic_hook, string_arg, to_js, to_js_error, to_json, DateClock, JsEmbedder,
};
use crate::cite::pipeline::{Callback, Event, LlmFailure, LlmRequest, Pipeline, Round, Step};
use crate::cite::{self, metrics, CiteConfig, CiteInput};
use crate::error::ErrorKind;
use crate::host::Clock;
use crate::matching::semantic::Embedder;
use js_sys::{Function, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
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

/// `citePipeline`'s host: the LLM callbacks (`generate` for stage 2,
/// `verify` for stage 4, `qa` for stage 6, `verify` standing in when it
/// is absent), `embed` (stages 1, 3 and 5, as `citeAsync`'s), `onClaim`
/// for the events, and an `AbortSignal`.
struct JsHost {
    generate: Option<Function>,
    verify: Option<Function>,
    qa: Option<Function>,
    embed: Option<Function>,
    on_claim: Option<Function>,
    signal: Option<JsValue>,
}

/// The host object's keys.
const HOST_KEYS: &str = "generate, verify, qa, embed, onClaim, signal";

/// Reads the host object, refusing unknown keys and non-functions by name.
fn js_host(host: Option<JsValue>) -> Result<JsHost, JsValue> {
    let mut h = JsHost { generate: None, verify: None, qa: None, embed: None, on_claim: None, signal: None };
    let Some(obj) = host.filter(|v| !v.is_null() && !v.is_undefined()) else {
        return Ok(h);
    };
    if !obj.is_object() {
        return Err(host_error("$", &format!("the host must be an object {{{HOST_KEYS}}}")));
    }
    for key in js_sys::Object::keys(obj.unchecked_ref::<js_sys::Object>()).iter() {
        let name = key.as_string().unwrap_or_default();
        let value = Reflect::get(&obj, &key).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            continue;
        }
        let function = || {
            value
                .clone()
                .dyn_into::<Function>()
                .map_err(|_| host_error(&format!("$.{name}"), &format!("{name} must be a function")))
        };
        match name.as_str() {
            "generate" => h.generate = Some(function()?),
            "verify" => h.verify = Some(function()?),
            "qa" => h.qa = Some(function()?),
            "embed" => h.embed = Some(function()?),
            "onClaim" => h.on_claim = Some(function()?),
            "signal" => h.signal = Some(value),
            _ => {
                return Err(host_error(
                    &format!("$.{name}"),
                    &format!("unknown key {name:?}; the keys here are: {HOST_KEYS}"),
                ))
            }
        }
    }
    Ok(h)
}

fn host_error(path: &str, message: &str) -> JsValue {
    let e = crate::Error::new(ErrorKind::Configuration, format!("host: {message}"))
        .with_detail("json_path", serde_json::Value::from(path));
    to_js_error(e)
}

impl JsHost {
    fn has_llm(&self) -> bool {
        self.generate.is_some() || self.verify.is_some()
    }

    fn aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(|s| Reflect::get(s, &"aborted".into()).is_ok_and(|a| a.is_truthy()))
    }

    /// Asks the callback of `request`, at most `timeout_ms`.
    async fn call(&self, request: &LlmRequest, timeout_ms: f64) -> Result<String, LlmFailure> {
        if self.aborted() {
            return Err(LlmFailure::Cancelled);
        }
        let (name, f) = match request.callback {
            Callback::Generate => ("generate", self.generate.as_ref()),
            Callback::Verify => ("verify", self.verify.as_ref()),
            Callback::Qa => ("qa", self.qa.as_ref().or(self.verify.as_ref())),
        };
        let Some(f) = f else {
            return Err(LlmFailure::Failed(format!("the host has no {name} callback")));
        };
        let arg = to_js(request).map_err(|_| LlmFailure::Failed("cannot describe the request".into()))?;
        if let Some(s) = &self.signal {
            let _ = Reflect::set(&arg, &"signal".into(), s);
        }
        match host::call(f, &JsValue::NULL, &js_sys::Array::of1(&arg), Some(timeout_ms)).await {
            Ok(v) => {
                v.as_string().ok_or_else(|| LlmFailure::Failed(format!("the {name} callback must return a string")))
            }
            Err(host::HostFailure::TimedOut) => Err(LlmFailure::TimedOut),
            Err(host::HostFailure::Threw(m) | host::HostFailure::Rejected(m)) => {
                Err(LlmFailure::Transient(format!("the {name} callback failed: {m}")))
            }
        }
    }

    fn emit(&self, events: Vec<Event>, extra: Option<&Rc<dyn Fn(JsValue)>>) -> Result<(), JsValue> {
        for e in events {
            let v = to_js(&e)?;
            if let Some(f) = &self.on_claim {
                f.call1(&JsValue::NULL, &v)?;
            }
            if let Some(push) = extra {
                push(v);
            }
        }
        Ok(())
    }
}

/// Makes one round's calls as the core says: every lane at once, each on
/// at most its `max_in_flight` workers taking its requests in order, each
/// call within [`Round::call_timeout_ms`] (none left: no call, a timeout).
/// The answers in request order.
async fn call_all(host: &Rc<JsHost>, round: Round) -> Vec<(u64, Result<String, LlmFailure>, f64)> {
    let started = DateClock.now_ms();
    let round = Rc::new(round);
    let answers = Rc::new(RefCell::new(Vec::new()));
    let workers = js_sys::Array::new();
    for (n, lane) in round.lanes.iter().enumerate() {
        let next = Rc::new(std::cell::Cell::new(0usize));
        for _ in 0..lane.max_in_flight.min(lane.requests.len()) {
            let (round, next, answers, host) = (round.clone(), next.clone(), answers.clone(), host.clone());
            workers.push(&wasm_bindgen_futures::future_to_promise(async move {
                loop {
                    let i = next.get();
                    next.set(i + 1);
                    let Some(request) = round.lanes.get(n).and_then(|l| l.requests.get(i)) else { break };
                    let t0 = DateClock.now_ms();
                    let answer = match round.call_timeout_ms(t0 - started) {
                        Some(ms) => host.call(request, ms).await,
                        None => Err(LlmFailure::TimedOut),
                    };
                    answers.borrow_mut().push((request.id, answer, DateClock.now_ms() - t0));
                }
                Ok(JsValue::UNDEFINED)
            }));
        }
    }
    let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::all(&workers)).await;
    let mut list = std::mem::take(&mut *answers.borrow_mut());
    // in request order: the same report whatever order the calls ended in
    crate::sort::sort_by(&mut list, |a, b| a.0.cmp(&b.0));
    list
}

/// The whole pipeline through the host's callbacks (see [`cite_pipeline`]).
async fn run_pipeline(
    input: JsValue,
    config_value: Option<JsValue>,
    host_value: Option<JsValue>,
    extra: Option<Rc<dyn Fn(JsValue)>>,
) -> Result<JsValue, JsValue> {
    let input = to_json(&input, ErrorKind::Validation, "input")?;
    let (input, outline) = CiteInput::from_pipeline_json(&input).map_err(to_js_error)?;
    let config = config(config_value)?;
    let host = Rc::new(js_host(host_value)?);
    let deadline = config.deadline(&DateClock);
    let mut p = Pipeline::new(input, outline, config, host.has_llm(), &deadline).map_err(to_js_error)?;
    if host.verify.is_none() && host.qa.is_none() {
        // `generate` alone: the LLM writes, the deterministic verifier checks
        p = p.verify_deterministically();
    }
    if host.embed.is_some() {
        p = p.embedding();
    }
    loop {
        host.emit(p.take_events(), extra.as_ref())?;
        if host.aborted() {
            return Err(to_js_error(crate::Error::new(ErrorKind::Processing, "the citation pipeline was cancelled")));
        }
        match p.next(&deadline).map_err(to_js_error)? {
            Step::Done(report) => {
                host.emit(p.take_events(), extra.as_ref())?;
                return to_js(&*report);
            }
            Step::Embed(texts) => {
                let answer = match &host.embed {
                    Some(embed) => embed_async(embed, &texts).await,
                    None => Err("the host has no embed callback".into()),
                };
                p.embedded(answer);
            }
            Step::Ask(round) => {
                for (id, answer, ms) in call_all(&host, round).await {
                    p.answer(id, answer, ms);
                }
            }
        }
    }
}

/// The whole citation pipeline (spec 004 part 2) through the host's async
/// LLM callbacks; resolves to the report.
#[wasm_bindgen(js_name = citePipeline, skip_typescript)]
pub async fn cite_pipeline(
    input: JsValue,
    config_value: Option<JsValue>,
    host: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    init_panic_hook();
    run_pipeline(input, config_value, host, None).await
}

/// What a `citeStream` iterator holds between its `next` calls.
struct StreamState {
    queue: VecDeque<JsValue>,
    done: bool,
    failure: Option<JsValue>,
    /// The `next` waiting for an event.
    wake: Option<Function>,
}

fn wake(state: &Rc<RefCell<StreamState>>) {
    let waiting = state.borrow_mut().wake.take();
    if let Some(w) = waiting {
        let _ = w.call0(&JsValue::NULL);
    }
}

/// `{value, done}`.
fn iteration(value: &JsValue, done: bool) -> JsValue {
    let o = js_sys::Object::new();
    let _ = Reflect::set(&o, &"value".into(), value);
    let _ = Reflect::set(&o, &"done".into(), &done.into());
    o.into()
}

/// [`cite_pipeline`] as an async iterator of its events: each claim as it
/// is produced, each verdict, then `{event: "report", report}`; a failure
/// rejects the `next` after the events before it.
#[wasm_bindgen(js_name = citeStream, skip_typescript)]
pub fn cite_stream(input: JsValue, config_value: Option<JsValue>, host: Option<JsValue>) -> JsValue {
    init_panic_hook();
    let state = Rc::new(RefCell::new(StreamState { queue: VecDeque::new(), done: false, failure: None, wake: None }));
    let s = state.clone();
    let push: Rc<dyn Fn(JsValue)> = Rc::new(move |v| {
        s.borrow_mut().queue.push_back(v);
        wake(&s);
    });
    let s = state.clone();
    wasm_bindgen_futures::spawn_local(async move {
        match run_pipeline(input, config_value, host, Some(push)).await {
            Ok(report) => {
                let o = js_sys::Object::new();
                let _ = Reflect::set(&o, &"event".into(), &"report".into());
                let _ = Reflect::set(&o, &"report".into(), &report);
                s.borrow_mut().queue.push_back(o.into());
            }
            Err(e) => s.borrow_mut().failure = Some(e),
        }
        s.borrow_mut().done = true;
        wake(&s);
    });
    let next = Closure::<dyn FnMut() -> js_sys::Promise>::new(move || {
        let s = state.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            loop {
                let (item, failure, done) = {
                    let mut st = s.borrow_mut();
                    let item = st.queue.pop_front();
                    let failure = if item.is_none() { st.failure.take() } else { None };
                    (item, failure, st.done)
                };
                if let Some(v) = item {
                    return Ok(iteration(&v, false));
                }
                if let Some(f) = failure {
                    return Err(f);
                }
                if done {
                    return Ok(iteration(&JsValue::UNDEFINED, true));
                }
                let waiting = js_sys::Promise::new(&mut |resolve, _| s.borrow_mut().wake = Some(resolve));
                let _ = wasm_bindgen_futures::JsFuture::from(waiting).await;
            }
        })
    });
    let iterator: JsValue = js_sys::Object::new().into();
    let _ = Reflect::set(&iterator, &"next".into(), &next.into_js_value());
    let itself = iterator.clone();
    let this = Closure::<dyn FnMut() -> JsValue>::new(move || itself.clone());
    let _ = Reflect::set(&iterator, &js_sys::Symbol::async_iterator(), &this.into_js_value());
    iterator
}
