//! The citation pipeline of spec 004 part 2 with scripted LLM hosts: the
//! isolation of stage 4, the exact requests and the final assembly, the
//! toggles, retries, the bounds on calls in flight per confidence tier,
//! the per-call time limit, the host's embedder and cancellation
//! (natively: the threaded runner; tests/js/cite_pipeline.test.mjs runs the
//! JS one).
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::cite::confidence::ConfidenceLevel;
use evidence_validator::cite::pipeline::{
    run_blocking, run_sequential, Callback, Event, LlmFailure, LlmHost, LlmRequest, Pipeline, PipelineReport,
    RequestKind, Step,
};
use evidence_validator::cite::verify::{self, VerifyContext};
use evidence_validator::cite::{CiteConfig, CiteInput, Verdict};
use evidence_validator::host::Deadline;
use serde_json::{json, Value};

fn input_json() -> Value {
    json!({
        "query": "How did the Treaty of Paris end the war?",
        "sources": [
            {"id": "paris", "title": "Treaty history", "content": "The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting."},
            {"id": "cats", "title": "Cats", "content": "Cats sleep for around sixteen hours every day, far more than most other mammals do."},
            {"id": "acme", "title": "Acme results", "content": "Acme\u{2019}s revenue was $3.2 billion in Q4 2024, up 12% from the year before — 日本 sales grew fastest."}
        ],
        "claims": [
            {"text": "The Treaty of Paris was signed in 1783 by the United States and Britain.", "citations": ["paris"]},
            {"text": "Cats reportedly sleep sixteen hours daily.", "citations": ["cats"]},
            {"text": "It is possible that the war might have ended after perhaps eight years.", "citations": ["paris"]},
            {"text": "Acme\u{2019}s revenue was $4.1 billion in Q4 2024.", "citations": ["acme"]},
            {"text": "Dogs bark at the moon.", "citations": []}
        ]
    })
}

fn input() -> CiteInput {
    CiteInput::from_json(&input_json()).unwrap()
}

fn run(
    config: &CiteConfig,
    input: CiteInput,
    outline: Vec<String>,
    host: &mut dyn FnMut(&LlmRequest) -> Result<String, LlmFailure>,
) -> (PipelineReport, Vec<Event>) {
    let p = Pipeline::new(input, outline, config.clone(), true, &Deadline::never()).unwrap();
    let mut events = Vec::new();
    let r = run_sequential(p, host, None, &Deadline::never(), &mut |e| events.push(e.clone())).unwrap();
    (r, events)
}

const OUTLINE: [&str; 2] = ["Zephyr section on signing", "Quokka section on the war's length"];

/// The quote a generation request shows.
fn quote_of(prompt: &str) -> String {
    let from = prompt.find("quote):\n\"").map(|i| i + "quote):\n\"".len()).unwrap_or(0);
    let to = prompt.find("\"\n\u{2014} Source").unwrap_or(prompt.len());
    prompt[from..to].to_string()
}

/// A scripted LLM: each kind answers the same way, with `verdict` for the
/// verdict requests.
fn scripted(verdict: &'static str) -> impl FnMut(&LlmRequest) -> Result<String, LlmFailure> {
    move |r: &LlmRequest| {
        Ok(match r.kind {
            RequestKind::Generate => format!("CLAIM: {}", quote_of(&r.prompt)),
            RequestKind::Draft => "The Treaty of Paris was signed in 1783. Cats sleep sixteen hours a day.".into(),
            RequestKind::Verify => format!("<think>Maybe CONTRADICTED?</think>\nVerdict: {verdict}"),
            RequestKind::CoveQuestions => "1. When did it end?\n2. How long did it last?".into(),
            RequestKind::CoveAnswer => "After eight years.".into(),
            RequestKind::CoveCompare => format!("The evidence states it. Verdict: {verdict}"),
            RequestKind::NumericQa => "NOT FOUND".into(),
        })
    }
}

fn config(bits: u32) -> CiteConfig {
    CiteConfig::from_json(&json!({
        "enable_confidence_classification": bits & 1 != 0,
        "enable_nei_verdict": bits & 2 != 0,
        "enable_abstention": bits & 4 != 0,
        "enable_numeric_qa_verification": bits & 8 != 0,
        "enable_interleaved_generation": bits & 16 != 0,
        "enable_citation_correction": bits & 32 != 0,
    }))
    .unwrap()
}

/// The isolation test (issue 17): for every toggle combination, with the
/// claims given and generated, at every confidence level, each request to
/// the verifier is exactly a fixed template filled with the claim and its
/// evidence (by construction), and holds no other claim, no other source's
/// text, no query and no outline section (by scanning).
#[test]
fn the_verifier_sees_only_the_claim_its_evidence_and_the_instructions() {
    let all = input_json();
    let sentences: Vec<String> = all["sources"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s["content"].as_str().unwrap().split_inclusive(". ").map(|x| x.trim().to_string()).collect::<Vec<_>>()
        })
        .collect();
    let mut levels = std::collections::BTreeSet::new();
    let mut verify_requests = 0;
    for bits in 0..64u32 {
        let config = config(bits);
        for generated in [false, true] {
            let mut input = input();
            let outline: Vec<String> = if generated {
                input.claims.clear();
                OUTLINE.iter().map(|s| s.to_string()).collect()
            } else {
                Vec::new()
            };
            for verdict in ["SUPPORTED", "NEI", "maybe"] {
                let mut log = Vec::new();
                let mut host = scripted(verdict);
                let (report, _) = run(&config, input.clone(), outline.clone(), &mut |r| {
                    log.push(r.clone());
                    host(r)
                });
                for c in &report.claims {
                    levels.insert(format!("{:?}", c.result.confidence.level));
                }
                for r in log.iter().filter(|r| r.callback != Callback::Generate) {
                    let n = r.claim.expect("a verifier request is about one claim");
                    let claim = &report.claims[n];
                    let evidence = claim.verification.evidence.clone().expect("asked only with evidence");
                    // by construction: the whole prompt is a template of (claim, evidence)
                    let cx = VerifyContext { claim: claim.result.text.clone(), evidence: evidence.clone() };
                    let nei = config.enable_nei_verdict;
                    let qa: Vec<(String, String)> = ["When did it end?", "How long did it last?"]
                        .iter()
                        .map(|q| (q.to_string(), "After eight years.".to_string()))
                        .collect();
                    let numeric_texts: Vec<String> = std::iter::once(cx.claim.clone())
                        .chain(claim.evidence.iter().map(|e| e.quote.clone()))
                        .collect();
                    let expected: Vec<String> = match r.kind {
                        RequestKind::Verify => vec![verify::quick_prompt(&cx, nei), verify::standard_prompt(&cx, nei)],
                        RequestKind::CoveQuestions => vec![verify::cove_questions_prompt(&cx, 3)],
                        RequestKind::CoveAnswer => qa.iter().map(|(q, _)| verify::cove_answer_prompt(&cx, q)).collect(),
                        RequestKind::CoveCompare => vec![verify::cove_compare_prompt(&cx, &qa, nei)],
                        RequestKind::NumericQa => verify::numeric_questions(&cx.claim, &config)
                            .iter()
                            .flat_map(|q| numeric_texts.iter().map(move |t| verify::numeric_question_prompt(t, q)))
                            .collect(),
                        other => panic!("{other:?} is not a verifier request"),
                    };
                    assert!(expected.contains(&r.prompt), "bits {bits}: {:?} is no template:\n{}", r.kind, r.prompt);
                    // by scanning: nothing of the rest of the run
                    let own = |t: &str| {
                        evidence.contains(t)
                            || cx.claim.contains(t)
                            || claim.evidence.iter().any(|e| e.quote.contains(t))
                    };
                    assert!(!r.prompt.contains(all["query"].as_str().unwrap()), "the query leaked");
                    for section in OUTLINE {
                        assert!(!r.prompt.contains(section), "the outline leaked");
                    }
                    for (m, other) in report.claims.iter().enumerate() {
                        if m != n && !own(&other.result.text) {
                            assert!(
                                !r.prompt.contains(&other.result.text),
                                "claim {m} leaked into claim {n}'s request"
                            );
                        }
                    }
                    for s in &sentences {
                        if !own(s) {
                            assert!(
                                !r.prompt.contains(s.trim_end_matches('.')),
                                "source text {s:?} leaked:\n{}",
                                r.prompt
                            );
                        }
                    }
                    verify_requests += 1;
                }
            }
        }
    }
    assert_eq!(levels.len(), 3, "HIGH, MEDIUM and LOW were all verified: {levels:?}");
    assert!(verify_requests > 1000, "{verify_requests}");
}

/// The isolation by construction, at compile time: a verifier's context is
/// these two fields and nothing else (adding one breaks this literal).
#[test]
fn a_verify_context_holds_two_texts() {
    let VerifyContext { claim, evidence } = VerifyContext { claim: "c".into(), evidence: "e".into() };
    assert_eq!((claim.as_str(), evidence.as_str()), ("c", "e"));
}

fn treaty_input() -> CiteInput {
    CiteInput::from_json(&json!({
        "query": "How did the Treaty of Paris end the war?",
        "sources": [
            {"id": "paris", "title": "Treaty history", "content": "The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting."},
            {"id": "cats", "title": "Cats", "content": "Cats sleep for around sixteen hours every day, far more than most other mammals do."}
        ],
        "claims": []
    }))
    .unwrap()
}

/// End to end with scripted callbacks: the exact requests, in order, and
/// the final assembly.
#[test]
fn interleaved_generation_then_verification_end_to_end() {
    let config = CiteConfig::from_json(&json!({"interleaved_generation": {"max_claims_per_section": 1}})).unwrap();
    let outline = vec!["Treaty of Paris signing".to_string(), "How long the war lasted".to_string()];
    let mut log = Vec::new();
    let (r, events) = run(&config, treaty_input(), outline, &mut |r| {
        log.push(r.clone());
        Ok(match r.kind {
            RequestKind::Generate if r.prompt.contains("TOPIC: Treaty") => {
                "<think>keep it short</think>CLAIM: \"The Treaty of Paris was signed in 1783.\"".into()
            }
            // a changed number: the quick entailment check drops it
            RequestKind::Generate => "The war lasted 9 years.".into(),
            RequestKind::Verify => "Verdict: SUPPORTED".into(),
            _ => "1783".into(),
        })
    });
    let kinds: Vec<(RequestKind, Option<usize>)> = log.iter().map(|r| (r.kind, r.claim)).collect();
    let mut expected =
        vec![(RequestKind::Generate, None), (RequestKind::Generate, None), (RequestKind::Verify, Some(0))];
    expected.extend([(RequestKind::NumericQa, Some(0)); 6]);
    assert_eq!(kinds, expected);
    // the spec's stage 2 prompt, section 1 with its best span
    assert_eq!(
        log[0].prompt,
        "Generate a factual claim for a research report.\n\nTOPIC: Treaty of Paris signing\nRESEARCH QUESTION: How did the Treaty of Paris end the war?\n\nEVIDENCE (you may ONLY use facts from this quote):\n\"The Treaty of Paris was signed in 1783 by the United States and Britain.\"\n\u{2014} Source: Treaty history\n\nWrite ONE clear, factual sentence that:\n1. Is fully supported by the evidence above\n2. Contributes to answering the research question\n3. Could stand alone with a citation\n\nCLAIM:"
    );
    // section 2: the used span is gone, the next best is the war sentence
    assert!(log[1].prompt.contains("TOPIC: How long the war lasted\n"));
    assert!(log[1].prompt.contains("\"It ended the American Revolutionary War after eight long years of fighting.\""));
    // the spec's quick prompt (the claim is HIGH: a direct quote)
    assert_eq!(
        log[2].prompt,
        "Determine if the claim is supported by the evidence.\n\nEVIDENCE: \"The Treaty of Paris was signed in 1783 by the United States and Britain.\"\n\nCLAIM: \"The Treaty of Paris was signed in 1783.\"\n\nIs the claim fully supported by the evidence?\nAnswer: SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED, or NEI (the evidence says nothing about it)"
    );
    assert!(log[3].prompt.contains("TEXT: \"The Treaty of Paris was signed in 1783.\"\n"));
    assert!(log[4]
        .prompt
        .contains("TEXT: \"The Treaty of Paris was signed in 1783 by the United States and Britain.\"\n"));
    assert_eq!(
        log[3].prompt.split("QUESTION: ").nth(1),
        log[4].prompt.split("QUESTION: ").nth(1),
        "one question, both sides"
    );
    // the assembly
    assert_eq!(r.generation.mode, "interleaved");
    assert_eq!(r.generation.dropped.len(), 1);
    assert_eq!(r.generation.dropped[0].text, "The war lasted 9 years.");
    assert_eq!(r.generation.dropped[0].reason, "failed the quick entailment check");
    assert_eq!(r.claims.len(), 1);
    let c = &r.claims[0];
    assert_eq!(c.result.text, "The Treaty of Paris was signed in 1783.");
    assert_eq!(c.verdict, Some(Verdict::Supported));
    assert!(!c.abstained);
    assert_eq!(c.section.as_deref(), Some("Treaty of Paris signing"));
    assert_eq!(c.verification.verifier, "llm");
    assert_eq!(c.result.correction.citations_after, ["paris"]);
    assert_eq!(c.evidence.len(), 1);
    assert_eq!((c.evidence[0].position.start, c.evidence[0].position.end), (0, 72));
    let qa = c.numeric_qa.as_ref().unwrap();
    assert_eq!((qa.verdict, qa.match_score), (Verdict::Supported, 1.0));
    assert_eq!((r.summary.claims, r.summary.supported, r.summary.llm_calls), (1, 1, 9));
    assert_eq!(r.summary.unsupported_rate + r.summary.contradicted_rate + r.summary.abstention_rate, 0.0);
    assert_eq!(r.warnings, ["stage 2 dropped 1 claims (see generation.dropped)"]);
    // streamed: the claim when written, then its verdict
    assert!(matches!(
        &events[..],
        [Event::Claim { index: 0, .. }, Event::Verified { index: 0, verdict: Some(Verdict::Supported), .. }]
    ));
}

/// Per claim: the verdict the scripted verifier gives (claim 1 gives none).
fn by_claim(r: &LlmRequest) -> Result<String, LlmFailure> {
    Ok(match (r.kind, r.claim) {
        (RequestKind::Verify, Some(1)) => "I cannot tell from this.".into(),
        (RequestKind::Verify, _) => "SUPPORTED".into(),
        (RequestKind::CoveQuestions, _) => "How long did the war last?".into(),
        (RequestKind::CoveAnswer, _) => "Eight years.".into(),
        (RequestKind::CoveCompare, _) => "Some parts are stated.\nVerdict: PARTIAL".into(),
        _ => "NOT FOUND".into(),
    })
}

#[test]
fn verdicts_toggles_and_the_end_to_end_metrics() {
    // default toggles: NEI kept, abstention on
    let (r, _) = run(&CiteConfig::default(), input(), vec![], &mut by_claim);
    let verdicts: Vec<(Option<Verdict>, bool)> = r.claims.iter().map(|c| (c.verdict, c.abstained)).collect();
    assert_eq!(
        verdicts,
        [
            (Some(Verdict::Supported), false),
            (None, true),                         // no verdict in the answer: abstained, reported
            (Some(Verdict::Partial), false),      // LOW: full CoVe
            (Some(Verdict::Contradicted), false), // SUPPORTED, but $4.1B is not $3.2B
            (Some(Verdict::Nei), true),           // cites nothing: NEI without a call
        ]
    );
    assert!(r.claims[1].verification.reason.starts_with("no verdict in the answer"));
    assert_eq!(r.claims[2].verification.qa[0].evidence_answer, "Eight years.");
    assert_eq!(r.claims[4].verification.verifier, "deterministic");
    let s = &r.summary;
    assert_eq!((s.supported, s.partial, s.unsupported, s.contradicted, s.nei, s.abstained), (1, 1, 0, 1, 1, 2));
    assert_eq!((s.contradicted_rate, s.nei_rate, s.abstention_rate, s.unsupported_rate), (0.2, 0.2, 0.4, 0.0));
    assert_eq!(s.correction_rate, s.corrected as f64 / 5.0);
    assert!(r.warnings.contains(&"1 of 5 claims are CONTRADICTED".to_string()));
    // abstention off: forced to UNSUPPORTED
    let off = CiteConfig::from_json(&json!({"enable_abstention": false})).unwrap();
    let (r, _) = run(&off, input(), vec![], &mut by_claim);
    assert_eq!(r.claims[1].verdict, Some(Verdict::Unsupported));
    assert_eq!(r.claims[4].verdict, Some(Verdict::Unsupported));
    assert!(r.claims[4].verification.reason.ends_with("(forced verdict, abstention disabled)"));
    assert_eq!((r.summary.abstained, r.summary.unsupported, r.summary.nei), (0, 2, 0));
    // NEI off: NEI is UNSUPPORTED, the claim without a verdict still abstains
    let no_nei = CiteConfig::from_json(&json!({"enable_nei_verdict": false})).unwrap();
    let (r, _) = run(&no_nei, input(), vec![], &mut by_claim);
    assert_eq!((r.claims[4].verdict, r.claims[4].abstained), (Some(Verdict::Unsupported), false));
    assert_eq!((r.claims[1].verdict, r.claims[1].abstained), (None, true));
    assert_eq!(r.claims[4].verification.raw_verdict, Some(Verdict::Nei));
}

#[test]
fn without_an_llm_the_verifier_is_deterministic() {
    let p = Pipeline::new(input(), vec![], CiteConfig::default(), false, &Deadline::never()).unwrap();
    let r = run_sequential(p, &mut |_| panic!("no LLM may be called"), None, &Deadline::never(), &mut |_| {}).unwrap();
    let got: Vec<(Option<Verdict>, &str)> = r.claims.iter().map(|c| (c.verdict, c.verification.verifier)).collect();
    assert_eq!(
        got,
        [
            (Some(Verdict::Supported), "deterministic"),    // stated word for word
            (Some(Verdict::Partial), "deterministic"),      // 4 of 6 key words
            (Some(Verdict::Partial), "deterministic"),      // 4 of 7 key words
            (Some(Verdict::Contradicted), "deterministic"), // the number differs
            (Some(Verdict::Nei), "deterministic"),          // no evidence
        ]
    );
    assert_eq!(r.stages.verifier, "deterministic");
    assert_eq!(r.summary.llm_calls, 0);
    assert!(r.warnings.contains(&"no LLM: every verdict is the deterministic verifier's".to_string()));
    // and no claims without an LLM is a validation error naming $.claims
    let mut empty = input();
    empty.claims.clear();
    let e = Pipeline::new(empty, vec![], CiteConfig::default(), false, &Deadline::never()).err().unwrap();
    assert_eq!((e.code(), e.details()["json_path"].as_str()), ("VALIDATION_ERROR", Some("$.claims")));
}

#[test]
fn transient_failures_are_retried_and_lasting_ones_abstain() {
    // every first attempt times out: the same report as without failures
    let (clean, _) = run(&CiteConfig::default(), input(), vec![], &mut by_claim);
    let (r, _) = run(&CiteConfig::default(), input(), vec![], &mut |r| {
        if r.attempt == 1 {
            Err(LlmFailure::TimedOut)
        } else {
            by_claim(r)
        }
    });
    assert_eq!(r.claims, clean.claims);
    assert_eq!(r.summary.retries * 2, r.summary.llm_calls);
    assert_eq!(r.summary.failed_calls, 0);
    // a lasting transient failure: tried 1 + max_retries times, then abstained
    let config = CiteConfig::from_json(&json!({"llm_calls": {"max_retries": 1}})).unwrap();
    let mut tries = 0;
    let (r, _) = run(&config, input(), vec![], &mut |r| {
        if r.claim == Some(0) && r.kind == RequestKind::Verify {
            tries += 1;
            Err(LlmFailure::Transient("HTTP 503".into()))
        } else {
            by_claim(r)
        }
    });
    assert_eq!(tries, 2);
    assert_eq!((r.claims[0].verdict, r.claims[0].abstained), (None, true));
    assert_eq!(r.claims[0].verification.reason, "the verification call failed: HTTP 503");
    assert_eq!(r.summary.failed_calls, 1);
    // a permanent failure is not retried
    let mut tries = 0;
    let (_, _) = run(&config, input(), vec![], &mut |r| {
        if r.claim == Some(0) && r.kind == RequestKind::Verify {
            tries += 1;
            Err(LlmFailure::Failed("HTTP 400".into()))
        } else {
            by_claim(r)
        }
    });
    assert_eq!(tries, 1);
}

/// Thirteen claims on one source: six HIGH (numbers and names found in
/// the span), four MEDIUM (no signal), three LOW (a hedge), as stage 3's
/// classifier puts them (the test checks it).
fn tiered_input() -> CiteInput {
    let claims: Vec<Value> = [
        "The Treaty of Paris was signed in 1783.",
        "The Treaty of Paris was signed in 1783 by Britain.",
        "In 1783 the Treaty of Paris was signed by the United States.",
        "Britain signed the Treaty of Paris in 1783.",
        "The United States signed the Treaty of Paris in 1783.",
        "The Treaty of Paris dates from 1783.",
        "It ended the war.",
        "The fighting stopped.",
        "The war was long.",
        "The treaty ended the fighting.",
        "The war possibly ended.",
        "It might have ended the war.",
        "Perhaps the fighting stopped.",
    ]
    .iter()
    .map(|t| json!({"text": t, "citations": ["paris"]}))
    .collect();
    let mut all = input_json();
    all["sources"] = json!([all["sources"][0].clone()]);
    all["claims"] = Value::Array(claims);
    CiteInput::from_json(&all).unwrap()
}

/// The lane of a request: 0–2 the tiers HIGH, MEDIUM, LOW, 3 the rest.
fn lane_of(r: &LlmRequest) -> usize {
    match r.confidence {
        Some(ConfidenceLevel::High) => 0,
        Some(ConfidenceLevel::Medium) => 1,
        Some(ConfidenceLevel::Low) => 2,
        None => 3,
    }
}

/// A host that counts the calls in flight per lane and in all. Each call
/// waits (at most [`Tiers::PATIENCE`]) until its lane has reached `limits`
/// and, for a stage 4 call, the three tiers together their sum, so a
/// runner that allows the bounds reaches them, whatever the machine's
/// speed; one that exceeds them is seen doing so.
struct Tiers {
    limits: [usize; 4],
    state: std::sync::Mutex<([usize; 4], [usize; 4], usize, usize)>,
    changed: std::sync::Condvar,
    cancel_on_call: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Tiers {
    const PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

    fn new(limits: [usize; 4]) -> Tiers {
        Tiers { limits, state: Default::default(), changed: Default::default(), cancel_on_call: None }
    }

    /// The most calls seen in flight per lane, and in all.
    fn most(&self) -> ([usize; 4], usize) {
        let s = self.state.lock().unwrap();
        (s.1, s.3)
    }
}

impl LlmHost for Tiers {
    fn complete(&self, r: &LlmRequest, _timeout: std::time::Duration) -> Result<String, LlmFailure> {
        if let Some(c) = &self.cancel_on_call {
            c.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        let lane = lane_of(r);
        let tiers: usize = self.limits[..3].iter().sum();
        let mut s = self.state.lock().unwrap();
        s.0[lane] += 1;
        s.2 += 1;
        s.1[lane] = s.1[lane].max(s.0[lane]);
        s.3 = s.3.max(s.2);
        self.changed.notify_all();
        let (mut s, _) = self
            .changed
            .wait_timeout_while(s, Self::PATIENCE, |s| s.1[lane] < self.limits[lane] || (lane < 3 && s.3 < tiers))
            .unwrap();
        s.0[lane] -= 1;
        s.2 -= 1;
        drop(s);
        Ok(match r.kind {
            RequestKind::CoveQuestions => "1. When was it signed?".into(),
            RequestKind::CoveAnswer | RequestKind::NumericQa => "1783".into(),
            _ => "Verdict: SUPPORTED".into(),
        })
    }
}

/// Part VI's parallelization strategy, computed once in the core: stage 4
/// by confidence tier, at most 5 HIGH, 3 MEDIUM and 2 LOW calls at once,
/// the tiers side by side; stage 6's at most `max_in_flight`. The threaded
/// runner reaches each bound and passes none, and its report is the
/// sequential one.
#[test]
fn calls_in_flight_are_bounded_per_confidence_tier() {
    use std::sync::atomic::AtomicBool;
    let config = CiteConfig::default();
    let host = Tiers::new([5, 3, 2, 4]);
    let p = Pipeline::new(tiered_input(), vec![], config.clone(), true, &Deadline::never()).unwrap();
    let mut events = 0;
    let r = run_blocking(p, &host, None, &AtomicBool::new(false), &Deadline::never(), &mut |_| events += 1).unwrap();
    let levels: Vec<ConfidenceLevel> = r.claims.iter().map(|c| c.result.confidence.level).collect();
    let count = |l: ConfidenceLevel| levels.iter().filter(|x| **x == l).count();
    assert_eq!(
        (count(ConfidenceLevel::High), count(ConfidenceLevel::Medium), count(ConfidenceLevel::Low)),
        (6, 4, 3),
        "the premise: more claims in each tier than its bound"
    );
    // six HIGH claims' numbers asked by stage 6: more than 4 requests
    assert!(r.summary.llm_calls > 13 + 4, "{}", r.summary.llm_calls);
    assert_eq!(host.most(), ([5, 3, 2, 4], 10), "per lane; the tiers side by side");
    let mut log = Vec::new();
    let (sequential, _) = run(&config, tiered_input(), vec![], &mut |r| {
        log.push(r.clone());
        Tiers::new([0; 4]).complete(r, std::time::Duration::ZERO)
    });
    assert_eq!(r.claims, sequential.claims);
    assert_eq!(events, 26, "13 claims, 13 verdicts");
    // each stage 4 request names its claim's tier; stage 6's none
    for q in &log {
        let want = match q.callback {
            Callback::Verify => q.claim.map(|n| levels[n]),
            _ => None,
        };
        assert_eq!(q.confidence, want, "{q:?}");
    }
    // other bounds are obeyed too: one at a time per tier
    let one = CiteConfig::from_json(&json!({"llm_calls":
        {"max_in_flight": 1, "max_in_flight_high": 1, "max_in_flight_medium": 1, "max_in_flight_low": 1}}))
    .unwrap();
    let host = Tiers::new([1, 1, 1, 1]);
    let p = Pipeline::new(tiered_input(), vec![], one.clone(), true, &Deadline::never()).unwrap();
    run_blocking(p, &host, None, &AtomicBool::new(false), &Deadline::never(), &mut |_| {}).unwrap();
    assert_eq!(host.most(), ([1, 1, 1, 1], 3));
    // cancelled during the first round: an error, no report
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let mut host = Tiers::new([1, 1, 1, 1]);
    host.cancel_on_call = Some(flag.clone());
    let p = Pipeline::new(tiered_input(), vec![], one, true, &Deadline::never()).unwrap();
    let e = run_blocking(p, &host, None, &flag, &Deadline::never(), &mut |_| {}).unwrap_err();
    assert_eq!((e.code(), e.message()), ("PROCESSING_ERROR", "the citation pipeline was cancelled"));
}

/// The core's rounds: lanes by tier with their bounds, and each call's
/// time limit shortened to the time left in the run.
#[test]
fn rounds_come_in_lanes_with_their_bounds_and_time_limits() {
    struct Stopped(f64);
    impl evidence_validator::host::Clock for Stopped {
        fn now_ms(&self) -> f64 {
            self.0
        }
    }
    let clock = Stopped(0.0);
    // 10 s left in the run, calls of 60 s
    let deadline = Deadline::after(&clock, 10_000.0);
    let mut p = Pipeline::new(tiered_input(), vec![], CiteConfig::default(), true, &deadline).unwrap();
    let Step::Ask(round) = p.next(&deadline).unwrap() else { panic!("a round first") };
    let lanes: Vec<(Option<ConfidenceLevel>, usize, usize)> =
        round.lanes.iter().map(|l| (l.tier, l.max_in_flight, l.requests.len())).collect();
    assert_eq!(
        lanes,
        [
            (Some(ConfidenceLevel::High), 5, 6),
            (Some(ConfidenceLevel::Medium), 3, 4),
            (Some(ConfidenceLevel::Low), 2, 3)
        ]
    );
    assert_eq!(round.call_timeout_ms(0.0), Some(10_000.0), "the time left, not the 60 s");
    assert_eq!(round.call_timeout_ms(9_000.0), Some(1_000.0));
    assert_eq!(round.call_timeout_ms(10_000.0), None, "no time left: no call");
    assert_eq!(round.call_timeout(std::time::Duration::from_secs(4)), Some(std::time::Duration::from_secs(6)));
    let never = Deadline::never();
    let mut p = Pipeline::new(tiered_input(), vec![], CiteConfig::default(), true, &never).unwrap();
    let Step::Ask(round) = p.next(&never).unwrap() else { panic!("a round first") };
    assert_eq!(round.call_timeout_ms(1e9), Some(60_000.0), "no deadline: call_timeout_seconds");
}

/// An embedder that puts the query and every text holding "zebra" on one
/// axis, everything else on the other; counts and keeps its calls.
struct Zebra(std::cell::RefCell<Vec<Vec<String>>>);

impl evidence_validator::validate::Embedder for Zebra {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        self.0.borrow_mut().push(texts.iter().map(|t| t.to_string()).collect());
        Ok(texts
            .iter()
            .map(
                |t| if t.contains("zebra") || t.starts_with("Which animals") { vec![1.0, 0.0] } else { vec![0.0, 1.0] },
            )
            .collect())
    }
}

/// Stage 1 reads the host's embeddings when it gives them: the same run
/// selects other evidence, and stage 2 writes from it.
#[test]
fn an_embedder_changes_the_selected_evidence() {
    let input = CiteInput::from_json(&json!({
        "query": "Which animals sleep in the park?",
        "sources": [{"id": "zoo", "content": "Animals sleep in the park at night, the keepers say. The zebra herd rests standing up near the east gate."}],
        "claims": []
    }))
    .unwrap();
    let config = CiteConfig::from_json(&json!({
        "evidence_preselection": {"relevance_computation_method": "semantic", "min_span_chars": 20},
        "interleaved_generation": {"max_claims_per_section": 1},
        "enable_numeric_qa_verification": false
    }))
    .unwrap();
    let written = |embedder: Option<&dyn evidence_validator::validate::Embedder>| {
        let p = Pipeline::new(input.clone(), vec![], config.clone(), true, &Deadline::never()).unwrap();
        let mut quotes = Vec::new();
        let mut host = |r: &LlmRequest| {
            if r.kind == RequestKind::Generate {
                let quote = quote_of(&r.prompt);
                // the quote's first five words: a claim of its own text
                let claim = quote.split(' ').take(5).collect::<Vec<_>>().join(" ");
                quotes.push(quote);
                return Ok(format!("CLAIM: {claim}."));
            }
            Ok("Verdict: SUPPORTED".to_string())
        };
        let r = run_sequential(p, &mut host, embedder, &Deadline::never(), &mut |_| {}).unwrap();
        (r, quotes)
    };
    // by keywords: "animals", "sleep", "park" are in the first sentence
    let (r, quotes) = written(None);
    assert_eq!(r.relevance_method_used, "keyword");
    assert_eq!(quotes[0], "Animals sleep in the park at night, the keepers say.");
    // by the host's embeddings: the zebra sentence is the query's neighbour
    let zebra = Zebra(Default::default());
    let (r, quotes) = written(Some(&zebra));
    assert_eq!(r.relevance_method_used, "semantic");
    assert_eq!(quotes[0], "The zebra herd rests standing up near the east gate.");
    assert_eq!(r.evidence_pool[0].quote, quotes[0]);
    assert_eq!(r.claims[0].result.text, "The zebra herd rests standing.");
    // two calls: stage 1's candidates and query, then stage 3's claim (the
    // pool's spans were embedded already)
    let calls = zebra.0.borrow();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0],
        [
            "Animals sleep in the park at night, the keepers say.",
            "The zebra herd rests standing up near the east gate.",
            "Which animals sleep in the park?"
        ]
    );
    assert_eq!(calls[1], ["The zebra herd rests standing."]);
    // a wrong answer ends the run naming the callback
    let short = |_: &[&str]| -> Result<Vec<Vec<f32>>, String> { Ok(vec![vec![1.0]]) };
    let p = Pipeline::new(input.clone(), vec![], config.clone(), true, &Deadline::never()).unwrap();
    let e = run_sequential(p, &mut |_| Ok("x".into()), Some(&short), &Deadline::never(), &mut |_| {}).unwrap_err();
    assert_eq!((e.code(), e.message()), ("PROCESSING_ERROR", "the embed callback returned 1 vectors for 3 texts"));
}

#[test]
fn a_passed_deadline_stops_the_run() {
    struct Late(std::cell::Cell<f64>);
    impl evidence_validator::host::Clock for Late {
        fn now_ms(&self) -> f64 {
            let t = self.0.get();
            self.0.set(t + 1000.0);
            t
        }
    }
    let clock = Late(std::cell::Cell::new(0.0));
    let deadline = Deadline::after(&clock, 2500.0);
    let p = Pipeline::new(input(), vec![], CiteConfig::default(), true, &deadline).unwrap();
    let e = run_sequential(p, &mut by_claim, None, &deadline, &mut |_| {}).unwrap_err();
    assert_eq!(e.code(), "PROCESSING_ERROR");
}

#[test]
fn generate_then_cite_when_interleaving_is_off() {
    let config = CiteConfig::from_json(&json!({"enable_interleaved_generation": false})).unwrap();
    let mut log = Vec::new();
    let (r, _) = run(&config, treaty_input(), vec![], &mut |r| {
        log.push(r.clone());
        Ok(match r.kind {
            RequestKind::Draft => "The Treaty of Paris was signed in 1783. Cats sleep sixteen hours a day.".into(),
            _ => "Verdict: SUPPORTED".into(),
        })
    });
    assert_eq!(log[0].kind, RequestKind::Draft);
    assert!(log[0].prompt.contains("[1] \"The Treaty of Paris was signed in 1783 by the United States and Britain.\""));
    assert_eq!(r.generation.mode, "generate_then_cite");
    let cites: Vec<(&str, Vec<String>)> =
        r.claims.iter().map(|c| (c.result.text.as_str(), c.result.correction.citations_before.clone())).collect();
    assert_eq!(
        cites,
        [
            ("The Treaty of Paris was signed in 1783.", vec!["paris".to_string()]),
            ("Cats sleep sixteen hours a day.", vec!["cats".to_string()])
        ]
    );
}

/// A claim whose citation stage 5 replaces is verified again against the
/// new span: its verdict is about the evidence it is shown with.
#[test]
fn replaced_evidence_is_verified_again() {
    let sample: Value = serde_json::from_str(include_str!("../samples/cite-input.json")).unwrap();
    let input = CiteInput::from_json(&sample).unwrap();
    // deterministic: the profile's numbers are about something else (UNSUPPORTED),
    // the earnings span states the value in other words (PARTIAL)
    let p = Pipeline::new(input.clone(), vec![], CiteConfig::default(), false, &Deadline::never()).unwrap();
    let r = run_sequential(p, &mut |_| panic!("no LLM"), None, &Deadline::never(), &mut |_| {}).unwrap();
    let c = &r.claims[0];
    assert_eq!(c.result.correction.citations_before, ["profile"]);
    assert_eq!(c.result.correction.citations_after, ["earnings"]);
    let initial = c.verification.initial.as_ref().expect("verified twice");
    assert_eq!(initial.verdict, Some(Verdict::Unsupported));
    assert!(c
        .verification
        .evidence
        .as_deref()
        .unwrap()
        .starts_with("Acme Corp reported Q4 2024 revenues of $3.2 billion"));
    assert_eq!(c.verdict, Some(Verdict::Partial));
    // with an LLM: the second verify request holds the new span, not the old
    let mut log = Vec::new();
    let (r, _) = run(&CiteConfig::default(), input, vec![], &mut |r| {
        log.push(r.clone());
        Ok(if r.prompt.contains("founded in 1998") && r.claim == Some(0) {
            "UNSUPPORTED"
        } else {
            "Verdict: SUPPORTED"
        }
        .into())
    });
    let asked: Vec<&LlmRequest> = log.iter().filter(|r| r.claim == Some(0) && r.callback == Callback::Verify).collect();
    assert!(asked.len() >= 2, "{}", asked.len());
    assert!(asked.last().unwrap().prompt.contains("Acme Corp reported Q4 2024 revenues"));
    assert!(!asked.last().unwrap().prompt.contains("founded in 1998"));
    assert_eq!(r.claims[0].verification.initial.as_ref().map(|i| i.verdict), Some(Some(Verdict::Unsupported)));
    assert_eq!(r.claims[0].verdict, Some(Verdict::Supported));
}
