//! Spec 001 retry budget with scripted hosts: one that fixes the item on
//! retry, one that never does, one that throws, one that answers garbage;
//! each checks the exact sequence of calls and the final result. Also the
//! offline preview (the CLI's `--evaluation`) and redaction after validation.
#![cfg(not(target_arch = "wasm32"))]

use evidence_validator::transcript::*;
use serde_json::json;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/transcript");

fn transcript() -> Transcript {
    let text = std::fs::read_to_string(format!("{DATA}/plain.json")).unwrap();
    parse_transcript(&text, InputFormat::Json).unwrap()
}

fn good_c1() -> EvaluationItem {
    EvaluationItem::new("my grandmother showed me the river behind our old house", 8.0)
        .with_text("A personal story opens the talk.")
}
fn good_c2() -> EvaluationItem {
    EvaluationItem::new("So here are three simple ways to save water at home.", 27.5)
        .with_text("The structure is announced.")
}
fn good_r() -> EvaluationItem {
    EvaluationItem::new("Um, I know it sounds small", 80.0).with_text("Drop the filler words.")
}
fn bad_c() -> EvaluationItem {
    EvaluationItem::new("water is the new oil of our century", 10.0).with_text("A strong metaphor.")
}
fn bad_r() -> EvaluationItem {
    EvaluationItem::new("you should slow down when you speak", 50.0).with_text("Slow down.")
}

fn evaluation(c: Vec<EvaluationItem>, r: Vec<EvaluationItem>) -> StructuredEvaluation {
    StructuredEvaluation { commendations: c, recommendations: r, ..Default::default() }
}

type RetryScript = Box<dyn FnMut(&RetryRequest) -> Result<EvaluationItem, HostFailure>>;

/// A host answering from a script and logging every call.
struct Scripted {
    generations: Vec<Result<StructuredEvaluation, HostFailure>>,
    retry: RetryScript,
    calls: Vec<String>,
}

impl Scripted {
    fn new(generations: Vec<Result<StructuredEvaluation, HostFailure>>, retry: RetryScript) -> Scripted {
        Scripted { generations, retry, calls: Vec::new() }
    }
}

impl EvaluationHost for Scripted {
    fn generate(&mut self, r: &GenerateRequest) -> Result<StructuredEvaluation, HostFailure> {
        self.calls.push(format!("generate {} ({:?})", r.generation, r.reason));
        if self.generations.is_empty() {
            return Err(HostFailure::callback("script exhausted"));
        }
        self.generations.remove(0)
    }
    fn retry_item(&mut self, r: &RetryRequest) -> Result<EvaluationItem, HostFailure> {
        self.calls.push(format!("retry {:?} {} of generation {} (retry {})", r.kind, r.index, r.generation, r.retry));
        (self.retry)(r)
    }
}

fn run(host: &mut Scripted, config: TranscriptConfig) -> EvaluationOutcome {
    EvaluationGenerator::new(transcript(), config).run(host)
}

fn statuses(o: &EvaluationOutcome) -> Vec<(CallKind, AttemptStatus)> {
    o.attempts.iter().map(|a| (a.call, a.status)).collect()
}

#[test]
fn a_host_that_fixes_the_item_on_retry() {
    let mut host = Scripted::new(
        vec![Ok(evaluation(vec![good_c1(), bad_c()], vec![good_r()]))],
        Box::new(|r| {
            assert_eq!(r.item, bad_c());
            assert_eq!(r.failures[0].check, CheckName::ContiguousMatch);
            assert_eq!(r.failures[0].reason, CheckReason::NotFound);
            assert!(r.requirements.instructions.contains("6 to 15 consecutive words"));
            Ok(good_c2())
        }),
    );
    let o = run(&mut host, TranscriptConfig::default());
    assert_eq!(host.calls, ["generate 1 (Initial)", "retry Commendation 1 of generation 1 (retry 1)"]);
    assert!(o.complete);
    assert_eq!(o.evaluation, evaluation(vec![good_c1(), good_c2()], vec![good_r()]));
    assert_eq!(o.validations.commendations.len(), 2);
    assert!(o.validations.commendations.iter().chain(&o.validations.recommendations).all(|v| v.passed));
    assert_eq!(o.generation, Some(1));
    assert_eq!(o.generations_used, 1);
    assert_eq!(
        statuses(&o),
        [(CallKind::Generate, AttemptStatus::Answered), (CallKind::RetryItem, AttemptStatus::Answered)]
    );
    assert_eq!(o.attempts[0].items.len(), 3);
    assert!(!o.attempts[0].items[1].validation.passed);
    assert!(o.attempts[1].items[0].validation.passed);
    assert_eq!(
        (o.attempts[1].kind, o.attempts[1].index, o.attempts[1].retry),
        (Some(ItemKind::Commendation), Some(1), Some(1))
    );
    assert!(o.dropped.is_empty() && o.regenerations.is_empty() && o.warnings.is_empty());
}

#[test]
fn a_host_that_never_fixes_it() {
    let mut host = Scripted::new(
        vec![
            Ok(evaluation(vec![good_c1(), bad_c()], vec![good_r()])),
            Ok(evaluation(vec![bad_c(), good_c2()], vec![good_r()])),
        ],
        Box::new(|r| Ok(r.item.clone())),
    );
    let o = run(&mut host, TranscriptConfig::default());
    assert_eq!(
        host.calls,
        [
            "generate 1 (Initial)",
            "retry Commendation 1 of generation 1 (retry 1)",
            "generate 2 (TooFewValidItems)",
            "retry Commendation 0 of generation 2 (retry 1)",
        ]
    );
    assert!(!o.complete);
    // best effort: only validated items; ties go to the later generation
    assert_eq!(o.evaluation, evaluation(vec![good_c2()], vec![good_r()]));
    assert_eq!(o.generation, Some(2));
    assert_eq!(o.generations_used, 2);
    assert_eq!(o.dropped.len(), 2);
    assert_eq!((o.dropped[0].generation, o.dropped[0].kind, o.dropped[0].index), (1, ItemKind::Commendation, 1));
    assert!(o.dropped[0].reason.starts_with("still fails after retry 1: contiguous_match:"), "{}", o.dropped[0].reason);
    assert_eq!(o.regenerations.len(), 1);
    assert_eq!(o.regenerations[0].after_generation, 1);
    assert_eq!(
        o.regenerations[0].reason,
        "at most 1 commendation and 1 recommendation can be validated; 2 and 1 are required"
    );
    assert_eq!(o.warnings.len(), 1);
    assert_eq!(o.warnings[0].code, "BEST_EFFORT");
    assert!(o.warnings[0].message.contains("1 validated commendation (2 required)"), "{}", o.warnings[0].message);
    assert_eq!(o.attempts.iter().map(|a| a.sequence).collect::<Vec<_>>(), [1, 2, 3, 4]);
}

#[test]
fn a_host_that_throws() {
    let mut host = Scripted::new(
        vec![
            Ok(evaluation(vec![good_c1(), bad_c(), good_c2()], vec![bad_r()])),
            Err(HostFailure::callback("LLM endpoint timed out")),
        ],
        Box::new(|_| Err(HostFailure::callback("TypeError: fetch failed"))),
    );
    let o = run(&mut host, TranscriptConfig::default());
    assert_eq!(
        host.calls,
        [
            "generate 1 (Initial)",
            "retry Commendation 1 of generation 1 (retry 1)",
            "retry Recommendation 0 of generation 1 (retry 1)",
            "generate 2 (TooFewValidItems)",
        ]
    );
    assert_eq!(
        statuses(&o),
        [
            (CallKind::Generate, AttemptStatus::Answered),
            (CallKind::RetryItem, AttemptStatus::CallbackFailed),
            (CallKind::RetryItem, AttemptStatus::CallbackFailed),
            (CallKind::Generate, AttemptStatus::CallbackFailed),
        ]
    );
    assert_eq!(o.attempts[1].error.as_deref(), Some("TypeError: fetch failed"));
    assert_eq!(o.attempts[3].error.as_deref(), Some("LLM endpoint timed out"));
    assert_eq!(
        o.dropped.iter().map(|d| d.reason.as_str()).collect::<Vec<_>>(),
        ["retry 1 failed: TypeError: fetch failed"; 2]
    );
    assert!(!o.complete);
    assert_eq!(o.evaluation, evaluation(vec![good_c1(), good_c2()], vec![]));
    assert_eq!(o.generation, Some(1));
    assert!(o.warnings[0].message.contains("0 validated recommendations (1 required)"), "{}", o.warnings[0].message);
}

#[test]
fn regeneration_comes_after_the_retries_as_the_spec_orders_them() {
    // One commendation only: no retry can make two, yet the failing
    // recommendation is re-prompted first (spec 001: retry, drop, then
    // regenerate when what is left is too few; issue 15).
    let mut host = Scripted::new(
        vec![
            Ok(evaluation(vec![good_c1()], vec![bad_r()])),
            Ok(evaluation(vec![good_c1(), good_c2()], vec![good_r()])),
        ],
        Box::new(|_| Ok(good_r())),
    );
    let o = run(&mut host, TranscriptConfig::default());
    assert_eq!(
        host.calls,
        ["generate 1 (Initial)", "retry Recommendation 0 of generation 1 (retry 1)", "generate 2 (TooFewValidItems)"]
    );
    assert!(o.complete);
    assert_eq!(o.generation, Some(2));
    assert!(o.regenerations[0].retries_not_made.is_empty());
}

#[test]
fn the_retries_of_a_regenerated_evaluation_count_for_the_best_effort() {
    // Generation 1 is short whatever its retries give; its recommendation is
    // fixed by the retry, and generation 2 fails: the best effort is
    // generation 1 with the fixed recommendation (skipping the retry, as
    // before issue 15, returned the commendation alone).
    let mut host = Scripted::new(
        vec![Ok(evaluation(vec![good_c1()], vec![bad_r()])), Err(HostFailure::callback("LLM endpoint timed out"))],
        Box::new(|_| Ok(good_r())),
    );
    let o = run(&mut host, TranscriptConfig::default());
    assert!(!o.complete);
    assert_eq!(o.generation, Some(1));
    assert_eq!(o.evaluation, evaluation(vec![good_c1()], vec![good_r()]));
    assert_eq!(o.warnings[0].code, "BEST_EFFORT");
}

#[test]
fn the_second_generation_request_carries_feedback() {
    let mut g =
        EvaluationGenerator::new(transcript(), TranscriptConfig { max_retries_per_item: 0, ..Default::default() });
    let Action::Generate(first) = g.poll() else { panic!() };
    assert_eq!((first.generation, first.max_generations, first.reason), (1, 2, GenerateReason::Initial));
    assert!(first.feedback.is_empty());
    g.handle_generated(Ok(evaluation(vec![good_c1(), bad_c()], vec![good_r()]))).unwrap();
    let Action::Generate(second) = g.poll() else {
        panic!("retries are disabled: the item is dropped and the evaluation regenerated")
    };
    assert_eq!(second.reason, GenerateReason::TooFewValidItems);
    assert_eq!(second.feedback.len(), 2);
    assert!(
        second.feedback[1]
            .starts_with("commendation 1 (quote \"water is the new oil of our century\"): contiguous_match:"),
        "{}",
        second.feedback[1]
    );
}

#[test]
fn garbage_answers_are_recorded_failures() {
    let mut g = EvaluationGenerator::new(transcript(), TranscriptConfig::default());
    assert!(matches!(g.poll(), Action::Generate(_)));
    g.handle_generated_json(Ok(json!("Sure! Here is your evaluation:"))).unwrap();
    let Action::Generate(r) = g.poll() else { panic!() };
    assert_eq!(r.reason, GenerateReason::PreviousGenerationFailed);
    assert!(r.feedback[0].starts_with("generation 1 failed: the answer is not an evaluation"), "{:?}", r.feedback);
    g.handle_generated_json(Ok(evaluation(vec![good_c1(), good_c2()], vec![bad_r()]).to_json())).unwrap();
    let Action::RetryItem(r) = g.poll() else { panic!() };
    assert_eq!((r.kind, r.index), (ItemKind::Recommendation, 0));
    g.handle_retried_json(Ok(json!({"evidence_quote": 42, "evidence_timestamp": 1}))).unwrap();
    let Action::Finished(o) = g.poll() else { panic!() };
    assert_eq!(
        statuses(&o),
        [
            (CallKind::Generate, AttemptStatus::InvalidAnswer),
            (CallKind::Generate, AttemptStatus::Answered),
            (CallKind::RetryItem, AttemptStatus::InvalidAnswer),
        ]
    );
    assert!(
        o.attempts[2].error.as_deref().unwrap().contains("evidence_quote must be a string"),
        "{:?}",
        o.attempts[2].error
    );
    assert_eq!(o.evaluation.recommendations.len(), 0);
    assert_eq!(o.warnings[0].code, "BEST_EFFORT");
}

#[test]
fn more_retries_when_configured() {
    let mut n = 0;
    let mut host = Scripted::new(
        vec![Ok(evaluation(vec![good_c1(), good_c2()], vec![bad_r()]))],
        Box::new(move |r| {
            n += 1;
            assert_eq!(r.retry, n);
            Ok(if n < 3 { bad_r() } else { good_r() })
        }),
    );
    let o = run(&mut host, TranscriptConfig { max_retries_per_item: 3, ..Default::default() });
    assert_eq!(host.calls.len(), 4);
    assert!(o.complete);
    assert_eq!(o.evaluation.recommendations, [good_r()]);
}

#[test]
fn one_generation_budget_gives_best_effort_without_regenerating() {
    let mut host = Scripted::new(vec![Ok(evaluation(vec![bad_c()], vec![good_r()]))], Box::new(|r| Ok(r.item.clone())));
    let o = run(&mut host, TranscriptConfig { max_generations: 1, ..Default::default() });
    assert_eq!(host.calls, ["generate 1 (Initial)", "retry Commendation 0 of generation 1 (retry 1)"]);
    assert!(!o.complete);
    assert_eq!(o.evaluation, evaluation(vec![], vec![good_r()]));
}

#[test]
fn every_generation_failing_gives_an_empty_best_effort() {
    let mut host = Scripted::new(vec![], Box::new(|_| unreachable!()));
    let o = run(&mut host, TranscriptConfig::default());
    assert_eq!(host.calls, ["generate 1 (Initial)", "generate 2 (PreviousGenerationFailed)"]);
    assert_eq!(o.generation, None);
    assert_eq!(o.evaluation, StructuredEvaluation::default());
    assert!(o.warnings[0].message.ends_with("no generation succeeded; returning an empty evaluation"));
}

#[test]
fn the_protocol_is_checked_and_polling_is_idempotent() {
    let mut g = EvaluationGenerator::new(transcript(), TranscriptConfig::default());
    assert_eq!(g.handle_retried(Ok(good_r())).unwrap_err().code(), "PROCESSING_ERROR");
    let a = g.poll();
    assert_eq!(a, g.poll());
    assert!(g.handle_retried(Ok(good_r())).is_err());
    g.handle_generated(Ok(evaluation(vec![good_c1(), good_c2()], vec![good_r()]))).unwrap();
    assert!(g.handle_generated(Ok(StructuredEvaluation::default())).is_err());
    let Action::Finished(o) = g.poll() else { panic!() };
    assert_eq!(g.poll(), Action::Finished(o.clone()));
    assert!(o.complete);
    assert!(g.handle_generated(Ok(StructuredEvaluation::default())).is_err());
    // JSON of an outcome is plain data
    let v = o.to_json();
    assert_eq!(v["attempts"][0]["call"], "generate");
    assert_eq!(v["validations"]["commendations"][0]["passed"], true);
}

#[test]
fn offline_preview_reports_what_the_budget_would_do() {
    let t = transcript();
    let c = TranscriptConfig::default();
    let p = preview_budget(&t, &evaluation(vec![good_c1(), bad_c(), good_c2()], vec![good_r(), bad_r()]), &c);
    assert_eq!(
        p.items.iter().map(|i| i.action).collect::<Vec<_>>(),
        [
            PreviewAction::Keep,
            PreviewAction::Reprompt,
            PreviewAction::Keep,
            PreviewAction::Keep,
            PreviewAction::Reprompt
        ]
    );
    assert!(!p.would_regenerate);
    assert_eq!((p.passed_commendations, p.passed_recommendations), (2, 1));
    let p = preview_budget(&t, &evaluation(vec![good_c1(), bad_c()], vec![good_r()]), &c);
    assert!(p.would_regenerate && !p.regeneration_unavoidable);
    assert!(
        p.summary.contains("unless re-prompting fixes enough items, the whole evaluation is regenerated"),
        "{}",
        p.summary
    );
    let p = preview_budget(&t, &evaluation(vec![good_c1()], vec![good_r()]), &c);
    assert!(p.would_regenerate && p.regeneration_unavoidable);
    let p = preview_budget(
        &t,
        &evaluation(vec![good_c1(), bad_c()], vec![good_r()]),
        &TranscriptConfig { max_generations: 1, ..c.clone() },
    );
    assert!(!p.would_regenerate);
    assert_eq!(p.warnings[0].code, "BEST_EFFORT");
    let p = preview_budget(
        &t,
        &evaluation(vec![bad_c()], vec![good_r()]),
        &TranscriptConfig { max_retries_per_item: 0, ..c },
    );
    assert_eq!(p.items[0].action, PreviewAction::Drop);
}

#[test]
fn redaction_comes_after_validation_and_the_order_matters() {
    let t = transcript();
    let c = TranscriptConfig::default();
    let quote = "My name is Dana Whitfield, and today I want to talk";
    let e = evaluation(
        vec![EvaluationItem::new(quote, 1.6).with_text("Dana Whitfield introduces herself."), good_c2()],
        vec![good_r()],
    );
    // Validate first, on the raw transcript: the quote is there.
    let validated = ValidatedEvaluation::new(&t, &e, &c);
    assert_eq!(validated.evaluation(), &e);
    assert!(validated.omitted().is_empty());
    // Then redact for TTS.
    let names = RedactionOptions { names: vec!["Dana Whitfield".into(), "Dana".into()], ..Default::default() };
    let script = render_script(&validated, &names);
    assert_eq!(script.redactions, 2);
    assert_eq!(script.evaluation.commendations[0].evidence_quote, "My name is someone, and today I want to talk");
    assert_eq!(
        script.script.lines().take(2).collect::<Vec<_>>(),
        ["Commendations.", "Commendation 1. someone introduces herself. In your words: \"My name is someone, and today I want to talk\"."]
    );
    assert!(!script.script.contains("Dana"));
    // The other order fails: the redacted quote is not in the transcript.
    let redacted_item = &script.evaluation.commendations[0];
    let wrong = t.validate(redacted_item, &c);
    assert!(!wrong.passed);
    assert_eq!(wrong.contiguous_match.reason, CheckReason::NotFound);
    let raw = t.validate(&e.commendations[0], &c);
    assert!(raw.passed);
}

#[test]
fn render_script_only_reads_validated_items() {
    let t = transcript();
    let e = evaluation(vec![good_c1(), bad_c()], vec![good_r()]);
    let validated = ValidatedEvaluation::new(&t, &e, &TranscriptConfig::default());
    assert_eq!(validated.omitted().len(), 1);
    assert_eq!((validated.omitted()[0].kind, validated.omitted()[0].index), (ItemKind::Commendation, 1));
    let s = render_script(&validated, &RedactionOptions::default());
    assert_eq!(s.evaluation.commendations.len(), 1);
    assert!(!s.script.contains("oil"));
    assert_eq!(s.omitted.len(), 1);
    // From a budget outcome: every item is validated already.
    let mut host =
        Scripted::new(vec![Ok(evaluation(vec![good_c1(), good_c2()], vec![good_r()]))], Box::new(|_| unreachable!()));
    let o = run(&mut host, TranscriptConfig::default());
    let s = render_script(
        &ValidatedEvaluation::from_outcome(&o),
        &RedactionOptions { names: vec!["grandmother".into()], replacement: "[name]".into() },
    );
    assert!(s.script.contains("my [name] showed me"), "{}", s.script);
    assert_eq!(s.script.lines().filter(|l| l.starts_with("Recommendation 1.")).count(), 1);
}
