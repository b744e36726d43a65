//! The citation pipeline of spec 004 part 2 with scripted LLM hosts: the
//! isolation of stage 4, the exact requests and the final assembly, the
//! toggles, retries, the bound on calls in flight and cancellation
//! (natively: the threaded runner; tests/js/cite_pipeline.test.mjs runs the
//! JS one).
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::cite::pipeline::{
    run_blocking, run_sequential, Callback, Event, LlmFailure, LlmHost, LlmRequest, Pipeline, PipelineReport,
    RequestKind,
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
    let r = run_sequential(p, host, &Deadline::never(), &mut |e| events.push(e.clone())).unwrap();
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
    let r = run_sequential(p, &mut |_| panic!("no LLM may be called"), &Deadline::never(), &mut |_| {}).unwrap();
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

/// A host that sleeps and counts the calls in flight.
struct Slow {
    now: std::sync::atomic::AtomicUsize,
    max: std::sync::atomic::AtomicUsize,
    cancel_on_call: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl LlmHost for Slow {
    fn complete(&self, r: &LlmRequest, _timeout: std::time::Duration) -> Result<String, LlmFailure> {
        use std::sync::atomic::Ordering;
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(n, Ordering::SeqCst);
        if let Some(c) = &self.cancel_on_call {
            c.store(true, Ordering::SeqCst);
        }
        std::thread::sleep(std::time::Duration::from_millis(40));
        self.now.fetch_sub(1, Ordering::SeqCst);
        by_claim(r)
    }
}

#[test]
fn calls_in_flight_are_bounded_and_the_report_is_the_sequential_one() {
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    let config = CiteConfig::from_json(&json!({"llm_calls": {"max_in_flight": 2}})).unwrap();
    let host = Slow { now: AtomicUsize::new(0), max: AtomicUsize::new(0), cancel_on_call: None };
    let p = Pipeline::new(input(), vec![], config.clone(), true, &Deadline::never()).unwrap();
    let mut events = 0;
    let r = run_blocking(p, &host, &AtomicBool::new(false), &Deadline::never(), &mut |_| events += 1).unwrap();
    // four claims ask at once (the fifth cites nothing): two at a time
    assert_eq!(host.max.load(std::sync::atomic::Ordering::SeqCst), 2);
    let (sequential, _) = run(&config, input(), vec![], &mut by_claim);
    assert_eq!(r.claims, sequential.claims);
    assert_eq!(events, 10, "five claims, five verdicts");
    // cancelled during the first round: an error, no report
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let host = Slow { now: AtomicUsize::new(0), max: AtomicUsize::new(0), cancel_on_call: Some(flag.clone()) };
    let p = Pipeline::new(input(), vec![], config, true, &Deadline::never()).unwrap();
    let e = run_blocking(p, &host, &flag, &Deadline::never(), &mut |_| {}).unwrap_err();
    assert_eq!((e.code(), e.message()), ("PROCESSING_ERROR", "the citation pipeline was cancelled"));
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
    let e = run_sequential(p, &mut by_claim, &deadline, &mut |_| {}).unwrap_err();
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
    let r = run_sequential(p, &mut |_| panic!("no LLM"), &Deadline::never(), &mut |_| {}).unwrap();
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
