//! Determinism across thread counts (issue 20 item 3): the citation
//! pipeline's threaded runner gives the same report bytes whatever its
//! bounds on calls in flight (one call at a time, the spec's 5 / 3 / 2 per
//! tier, sixteen at once) and whatever order the answers come back in,
//! and those bytes are the sequential runner's. The host answers by the
//! request alone, and each call waits a time drawn from its prompt, so
//! the answers of one round arrive in an order unrelated to the order
//! they were asked in, and different at each bound.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::cite::pipeline::{
    run_blocking, run_sequential, LlmFailure, LlmHost, LlmRequest, Pipeline, RequestKind,
};
use evidence_validator::cite::{CiteConfig, CiteInput};
use evidence_validator::host::Deadline;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Two sources and ten claims in all three confidence tiers, with
/// numbers (stage 6 asks about them), a hedge, a wrong number and a
/// claim that cites nothing.
fn input(with_claims: bool) -> CiteInput {
    let mut v = json!({
        "query": "How did the Treaty of Paris end the war, and what did Acme earn?",
        "sources": [
            {"id": "paris", "title": "Treaty history", "content": "The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting. 🎉 Its terms were 寛大 for the time."},
            {"id": "acme", "title": "Acme results", "content": "Acme\u{2019}s revenue was $3.2 billion in Q4 2024, up 12% from the year before.\r\nSales in Japan grew fastest."}
        ],
        "claims": [
            {"text": "The Treaty of Paris was signed in 1783 by the United States and Britain.", "citations": ["paris"]},
            {"text": "Britain signed the Treaty of Paris in 1783.", "citations": ["paris"]},
            {"text": "It ended the war.", "citations": ["paris"]},
            {"text": "The fighting stopped.", "citations": ["paris"]},
            {"text": "The war possibly ended after perhaps eight years.", "citations": ["paris"]},
            {"text": "It might have ended the war.", "citations": ["paris"]},
            {"text": "Acme\u{2019}s revenue was $3.2 billion in Q4 2024.", "citations": ["acme"]},
            {"text": "Acme\u{2019}s revenue was $4.1 billion in Q4 2024.", "citations": ["acme"]},
            {"text": "Sales in Japan grew fastest.", "citations": ["acme"]},
            {"text": "Dogs bark at the moon.", "citations": []}
        ]
    });
    if !with_claims {
        v["claims"] = json!([]); // stage 2 generates them
    }
    CiteInput::from_json(&v).unwrap()
}

/// Stage 2's sections, when it generates the claims.
fn outline() -> Vec<String> {
    vec!["Treaty of Paris signing".into(), "How long the war lasted".into(), "Acme revenue".into()]
}

/// FNV-1a of a text: the host's answers and delays are functions of the
/// request only.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The answer to a request, from its kind and prompt only.
fn answer(r: &LlmRequest) -> Result<String, LlmFailure> {
    let h = fnv(&r.prompt);
    let verdict = ["SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED", "NEI"][(h % 5) as usize];
    Ok(match r.kind {
        RequestKind::Generate => {
            let from = r.prompt.find("quote):\n\"").map(|i| i + "quote):\n\"".len()).unwrap_or(0);
            let to = r.prompt.find("\"\n\u{2014} Source").unwrap_or(r.prompt.len());
            format!("CLAIM: {}", r.prompt.get(from..to).unwrap_or(""))
        }
        RequestKind::Draft => "The Treaty of Paris was signed in 1783. Acme earned $3.2 billion.".into(),
        RequestKind::Verify => {
            format!("<think>maybe {}</think>\nVerdict: {verdict}", ["NEI", "SUPPORTED"][(h % 2) as usize])
        }
        RequestKind::CoveQuestions => "1. When was it signed?\n2. By whom?".into(),
        RequestKind::CoveAnswer => ["1783.", "By Britain.", "I do not know."][(h % 3) as usize].into(),
        RequestKind::CoveCompare => format!("Compared. Verdict: {verdict}"),
        RequestKind::NumericQa => ["1783", "$3.2 billion", "NOT FOUND"][(h % 3) as usize].into(),
    })
}

/// Answers by [`answer`] after a delay of 0–11 ms drawn from the prompt
/// and the bound being tried, and counts the calls in flight.
struct Jittered {
    salt: u64,
    in_flight: AtomicUsize,
    most: AtomicUsize,
}

impl LlmHost for Jittered {
    fn complete(&self, r: &LlmRequest, _timeout: Duration) -> Result<String, LlmFailure> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis((fnv(&r.prompt) ^ self.salt) % 12));
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        answer(r)
    }
}

fn config(bound: Option<usize>, toggles: u32) -> CiteConfig {
    let mut c = json!({
        "enable_nei_verdict": toggles & 1 != 0,
        "enable_abstention": toggles & 2 != 0,
        "enable_numeric_qa_verification": true,
        "enable_interleaved_generation": true,
        "enable_citation_correction": true,
    });
    if let Some(n) = bound {
        c["llm_calls"] =
            json!({"max_in_flight": n, "max_in_flight_high": n, "max_in_flight_medium": n, "max_in_flight_low": n});
    }
    CiteConfig::from_json(&c).unwrap()
}

/// The report's bytes, its one measured time (`summary.p95_call_ms`, the
/// calls' wall-clock latency, as `generated.timestamp` is for a
/// validation report) set to 0.
fn bytes(report: &impl serde::Serialize) -> String {
    let mut v = serde_json::to_value(report).unwrap();
    assert!(v["summary"]["p95_call_ms"].is_number(), "the measured field is where this test expects it");
    v["summary"]["p95_call_ms"] = json!(0);
    serde_json::to_string(&v).unwrap()
}

#[test]
fn the_threaded_runner_gives_the_same_bytes_at_every_bound() {
    for with_claims in [true, false] {
        for toggles in 0..4 {
            let sequential = {
                let p =
                    Pipeline::new(input(with_claims), outline(), config(Some(1), toggles), true, &Deadline::never())
                        .unwrap();
                bytes(&run_sequential(p, &mut answer, None, &Deadline::never(), &mut |_| {}).unwrap())
            };
            let report: Value = serde_json::from_str(&sequential).unwrap();
            assert!(report["claims"].as_array().is_some_and(|c| c.len() >= 2), "the premise: claims to verify");
            let mut most = Vec::new();
            for (salt, bound) in [(1, Some(1)), (2, None), (3, Some(16)), (4, Some(16)), (5, None)] {
                let host = Jittered { salt, in_flight: AtomicUsize::new(0), most: AtomicUsize::new(0) };
                let p = Pipeline::new(input(with_claims), outline(), config(bound, toggles), true, &Deadline::never())
                    .unwrap();
                let r = run_blocking(p, &host, None, &AtomicBool::new(false), &Deadline::never(), &mut |_| {}).unwrap();
                let got = bytes(&r);
                if got != sequential {
                    let at = got.bytes().zip(sequential.bytes()).take_while(|(a, b)| a == b).count();
                    let around =
                        |s: &str| s.get(at.saturating_sub(200)..(at + 200).min(s.len())).unwrap_or("").to_string();
                    panic!(
                        "claims given: {with_claims}, toggles {toggles}, bound {bound:?}: differs at byte {at}:\n threaded:   {}\n sequential: {}",
                        around(&got),
                        around(&sequential)
                    );
                }
                most.push(host.most.load(Ordering::SeqCst));
            }
            // the premise: the runs really differed in how many calls were in flight
            // (bound 1: one call per lane, the three tiers side by side;
            // stage 2 generates fewer claims, in fewer tiers)
            let side_by_side = if with_claims { 3 } else { 1 };
            assert!(most[0] <= 3, "{most:?}");
            assert!(most.iter().skip(1).any(|&m| m > side_by_side), "{most:?}");
        }
    }
}
