//! The one way the bindings call the host's JS functions (jurors, the
//! transcript's `generate` and `retryItem`, `embed`, a report's sources):
//! call, await what it returns (a value or a Promise), race it against a
//! timer, and describe what went wrong. The core decides what a failure
//! means; this only reports it.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Why a host function gave no answer.
pub(super) enum HostFailure {
    /// It threw (what it threw, described).
    Threw(String),
    /// Its Promise rejected (with what, described).
    Rejected(String),
    /// It did not settle within the timeout.
    TimedOut,
}

/// Calls `f` with `this` and `args`, and awaits its answer, at most
/// `timeout_ms` when given (and when the runtime has `setTimeout`).
pub(super) async fn call(
    f: &Function,
    this: &JsValue,
    args: &Array,
    timeout_ms: Option<f64>,
) -> Result<JsValue, HostFailure> {
    let returned = f.apply(this, args).map_err(|e| HostFailure::Threw(describe(&e)))?;
    let answer = Promise::resolve(&returned);
    let timer = timeout_ms.and_then(Timer::start);
    let raced = match &timer {
        Some(t) => Promise::race(&Array::of2(&answer, &t.promise)),
        None => answer,
    };
    let settled = JsFuture::from(raced).await;
    if let Some(t) = &timer {
        t.stop();
        if settled.as_ref().is_ok_and(|v| Object::is(v, &t.sentinel)) {
            return Err(HostFailure::TimedOut);
        }
    }
    settled.map_err(|e| HostFailure::Rejected(describe(&e)))
}

/// What a thrown or rejected value says: an `Error`'s message (prefixed by
/// its name unless that is plain `Error`), a string as it is, anything else
/// as JSON.
pub(super) fn describe(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let name = String::from(err.name());
        let message = String::from(err.message());
        return if name.is_empty() || name == "Error" { message } else { format!("{name}: {message}") };
    }
    e.as_string().unwrap_or_else(|| {
        js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "unknown error".into())
    })
}

/// A `setTimeout` timer as a Promise resolved with a sentinel object.
struct Timer {
    promise: Promise,
    sentinel: JsValue,
    handle: JsValue,
    resolve: Option<Function>,
}

impl Timer {
    /// `None` where the runtime has no `setTimeout`.
    fn start(ms: f64) -> Option<Timer> {
        let global = js_sys::global();
        let set_timeout = Reflect::get(&global, &"setTimeout".into()).ok()?.dyn_into::<Function>().ok()?;
        let sentinel: JsValue = Object::new().into();
        let mut handle = JsValue::UNDEFINED;
        let mut resolver = None;
        let promise = Promise::new(&mut |resolve: Function, _reject| {
            let fire = resolve.bind1(&JsValue::NULL, &sentinel);
            handle = set_timeout.call2(&global, &fire, &JsValue::from_f64(ms)).unwrap_or(JsValue::UNDEFINED);
            resolver = Some(resolve);
        });
        Some(Timer { promise, sentinel, handle, resolve: resolver })
    }

    /// Cancels the timer and settles its Promise now, so nothing waits on it
    /// (a pending timer would keep Node running; an unsettled Promise would
    /// keep its Rust callbacks alive).
    fn stop(&self) {
        let global = js_sys::global();
        if let Some(clear) =
            Reflect::get(&global, &"clearTimeout".into()).ok().and_then(|f| f.dyn_into::<Function>().ok())
        {
            let _ = clear.call1(&global, &self.handle);
        }
        if let Some(r) = &self.resolve {
            let _ = r.call1(&JsValue::NULL, &JsValue::NULL);
        }
    }
}
