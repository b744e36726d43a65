//! The native way to ask a jury (not on wasm32): every juror on its own
//! thread, all at once, each with its own deadline. The core
//! ([`Verification`]) stays free of I/O; this module
//! only runs the calls it asks for. The HTTP jurors live in the CLI.

use super::jury::JurorFailure;
use super::lines::LineIndex;
use super::log::{LogBook, LogEntry};
use super::{ClaimRequest, JudgeConfig, JudgeRequest, JudgeResult, Verification};
use crate::error::Error;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A juror that answers synchronously (an HTTP call, a script in a test).
pub trait Juror: Send + Sync {
    /// The juror's name (unique within a jury; used in logs).
    fn name(&self) -> &str;
    /// Asks the juror: `system` is the instructions, `prompt` the spec's
    /// prompt. Returns the raw answer text, or an error message.
    fn ask(&self, system: &str, prompt: &str) -> Result<String, String>;
    /// This juror's own timeout, overriding the jury's.
    fn timeout(&self) -> Option<Duration> {
        None
    }
}

/// One juror's outcome from [`ask_all`].
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// The request's juror index.
    pub index: usize,
    /// The raw answer or the failure.
    pub outcome: Result<String, JurorFailure>,
    /// Milliseconds until the answer (or the timeout).
    pub elapsed_ms: f64,
}

/// Makes every request at once, one thread per request, and waits at most
/// each juror's timeout (its own, else `default_timeout`) for it. A juror
/// past its deadline is recorded as timed out and its thread is left to
/// finish on its own (its late answer is dropped); a juror that panics is a
/// failure. Results are in request order.
pub fn ask_all(jurors: &[Arc<dyn Juror>], requests: &[JudgeRequest], default_timeout: Duration) -> Vec<Asked> {
    let (tx, rx) = mpsc::channel::<Answer>();
    let mut results: Vec<Option<Asked>> = vec![None; requests.len()];
    let pending = start_all(jurors, requests, default_timeout, &tx, &mut results);
    drop(tx);
    wait_for(&rx, pending, requests, &mut results);
    results
        .into_iter()
        .enumerate()
        .map(|(slot, r)| r.unwrap_or_else(|| failed(index_of(requests, slot), "no answer".into())))
        .collect()
}

/// A juror's answer from its thread: (request slot, answer, milliseconds).
type Answer = (usize, Result<String, String>, f64);

/// A request still waiting for its juror: (slot, deadline, timeout).
type Pending = (usize, Instant, Duration);

/// The juror index of request `slot`.
fn index_of(requests: &[JudgeRequest], slot: usize) -> usize {
    requests.get(slot).map_or(slot, |r| r.index)
}

/// Juror `index` failed before answering.
fn failed(index: usize, why: String) -> Asked {
    Asked { index, outcome: Err(JurorFailure::Error(why)), elapsed_ms: 0.0 }
}

/// Starts one thread per request, each sending its answer to `tx`; a
/// request that cannot start is failed in `results`. Returns the started.
fn start_all(
    jurors: &[Arc<dyn Juror>],
    requests: &[JudgeRequest],
    default_timeout: Duration,
    tx: &mpsc::Sender<Answer>,
    results: &mut [Option<Asked>],
) -> Vec<Pending> {
    let start = Instant::now();
    let mut pending = Vec::new();
    for (slot, req) in requests.iter().enumerate() {
        let Some(juror) = jurors.get(req.index).cloned() else {
            put(results, slot, failed(req.index, format!("no juror at index {}", req.index)));
            continue;
        };
        let timeout = juror.timeout().unwrap_or(default_timeout);
        let tx = tx.clone();
        let (system, prompt) = (req.system.clone(), req.prompt.clone());
        let spawned = std::thread::Builder::new().name(format!("juror-{}", juror.name())).spawn(move || {
            let t0 = Instant::now();
            let answer = catch_unwind(AssertUnwindSafe(|| juror.ask(&system, &prompt)))
                .unwrap_or_else(|_| Err("the juror panicked".to_string()));
            // the receiver may be gone (timed out): nothing to do then
            let _ = tx.send((slot, answer, t0.elapsed().as_secs_f64() * 1000.0));
        });
        match spawned {
            Ok(_) => pending.push((slot, start + timeout, timeout)),
            Err(e) => put(results, slot, failed(req.index, format!("cannot start a thread: {e}"))),
        }
    }
    pending
}

/// Records the answer of request `slot` (a slot of `results`).
fn put(results: &mut [Option<Asked>], slot: usize, asked: Asked) {
    if let Some(r) = results.get_mut(slot) {
        *r = Some(asked);
    }
}

/// Receives the answers of `pending` until each has answered or passed its
/// deadline (a timeout), or every thread has ended.
fn wait_for(
    rx: &mpsc::Receiver<Answer>,
    mut pending: Vec<Pending>,
    requests: &[JudgeRequest],
    results: &mut [Option<Asked>],
) {
    while !pending.is_empty() {
        let now = Instant::now();
        let next_deadline = pending.iter().map(|(_, d, _)| *d).min().unwrap_or(now);
        match rx.recv_timeout(next_deadline.saturating_duration_since(now)) {
            Ok((slot, answer, elapsed_ms)) => {
                if let Some(pos) = pending.iter().position(|(s, _, _)| *s == slot) {
                    pending.swap_remove(pos);
                    let index = index_of(requests, slot);
                    put(results, slot, Asked { index, outcome: answer.map_err(JurorFailure::Error), elapsed_ms });
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                pending.retain(|&(slot, deadline, timeout)| {
                    if deadline > now {
                        return true;
                    }
                    let outcome =
                        Err(JurorFailure::Timeout { after_ms: timeout.as_millis().min(u64::MAX as u128) as u64 });
                    let elapsed_ms = timeout.as_secs_f64() * 1000.0;
                    put(results, slot, Asked { index: index_of(requests, slot), outcome, elapsed_ms });
                    false
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                for (slot, _, _) in pending.drain(..) {
                    put(
                        results,
                        slot,
                        failed(index_of(requests, slot), "the juror's thread ended without an answer".into()),
                    );
                }
            }
        }
    }
}

/// One whole check: steps 1 and 2, then the jury asked concurrently (each
/// juror with its timeout, `config.timeout_ms` unless it has its own),
/// every exchange numbered in `book` and handed to `log`. The source comes
/// with its [`LineIndex`], built once per file however many citations of
/// it are checked.
pub fn verify_claim(
    request: ClaimRequest,
    source: Result<(&str, &LineIndex), String>,
    config: &JudgeConfig,
    jurors: &[Arc<dyn Juror>],
    book: &mut LogBook,
    log: &mut dyn FnMut(&LogEntry),
) -> Result<JudgeResult, Error> {
    let names = jurors.iter().map(|j| j.name().to_string()).collect();
    let mut check = Verification::with_lines(request, source, config, names)?;
    let requests = check.requests();
    let asked = ask_all(jurors, &requests, Duration::from_millis(config.timeout_ms));
    for (req, a) in requests.iter().zip(asked) {
        log(&book.entry(&req.judge, &req.system, &req.prompt, &a.outcome));
        check.record(a.index, a.outcome, Some(a.elapsed_ms));
    }
    Ok(check.finish())
}
