//! The citation pipeline of spec 004 part 2 with scripted LLM hosts: the
//! isolation of stage 4, the exact requests and the final assembly, the
//! toggles, retries, the bound on calls in flight and cancellation.

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

fn run(config: &CiteConfig, input: CiteInput, outline: Vec<String>, host: &mut dyn FnMut(&LlmRequest) -> Result<String, LlmFailure>) -> (PipelineReport, Vec<Event>) {
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
                    let numeric_texts: Vec<String> =
                        std::iter::once(cx.claim.clone()).chain(claim.evidence.iter().map(|e| e.quote.clone())).collect();
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
                    let own = |t: &str| evidence.contains(t) || cx.claim.contains(t) || claim.evidence.iter().any(|e| e.quote.contains(t));
                    assert!(!r.prompt.contains(all["query"].as_str().unwrap()), "the query leaked");
                    for section in OUTLINE {
                        assert!(!r.prompt.contains(section), "the outline leaked");
                    }
                    for (m, other) in report.claims.iter().enumerate() {
                        if m != n && !own(&other.result.text) {
                            assert!(!r.prompt.contains(&other.result.text), "claim {m} leaked into claim {n}'s request");
                        }
                    }
                    for s in &sentences {
                        if !own(s) {
                            assert!(!r.prompt.contains(s.trim_end_matches('.')), "source text {s:?} leaked:\n{}", r.prompt);
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
