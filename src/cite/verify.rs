//! Stage 4 of spec 004, isolated verification (Part III, "Stage 4:
//! Isolated Verification"), and the fixed instructions of every LLM request
//! the pipeline makes (stages 2, 4 and 6).
//!
//! Architecture Invariant: a verification request is built from a
//! [`VerifyContext`] and nothing else. Its only fields are the claim's text
//! and its cited evidence, so the query, the other claims, the sources, the
//! outline and the generator's answers cannot reach the verifier: the
//! request builders have no parameter that could carry them (CoVe's
//! isolation, Invariant C).
//!
//! Verdicts are read by [`parse_verdict`]: the last explicit verdict word
//! outside any reasoning block (the judge's reader, with this spec's five
//! words); none is an abstention, reported as such. Without an LLM,
//! [`deterministic`] gives verdicts from quote containment (the matching
//! core's normalization, whole words, not followed by a negation) and part
//! 1's numeric check.

use super::config::CiteConfig;
use super::{numeric, Verdict};
use crate::text::normalize::{normalize_str, Profile};
use serde::Serialize;

/// What a verifier may see: the claim and its evidence, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyContext {
    /// The claim's text.
    pub claim: String,
    /// Its cited evidence (the best cited span's quote).
    pub evidence: String,
}

/// How hard a claim is verified (by its stage 3 level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// HIGH: one pass, the spec's quick prompt.
    Quick,
    /// MEDIUM: one pass with a short reasoning.
    Standard,
    /// LOW: questions, answers from the evidence alone, comparison.
    FullCove,
    /// No LLM: containment and the numeric check.
    Deterministic,
    /// No evidence cited: NEI without asking.
    NoEvidence,
}

/// The verdict words of the answer format, NEI only when enabled.
fn verdict_words(nei: bool) -> &'static str {
    if nei {
        "SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED, or NEI (the evidence says nothing about it)"
    } else {
        "SUPPORTED, PARTIAL, UNSUPPORTED, or CONTRADICTED"
    }
}

/// The spec's `QUICK_VERIFICATION_PROMPT` (HIGH confidence).
pub fn quick_prompt(cx: &VerifyContext, nei: bool) -> String {
    format!(
        "Determine if the claim is supported by the evidence.\n\nEVIDENCE: \"{}\"\n\nCLAIM: \"{}\"\n\n\
         Is the claim fully supported by the evidence?\nAnswer: {}",
        cx.evidence,
        cx.claim,
        verdict_words(nei)
    )
}

/// MEDIUM confidence: "standard verification with reasoning" (the spec
/// gives no text; this is the quick prompt asking for a short reason).
pub fn standard_prompt(cx: &VerifyContext, nei: bool) -> String {
    format!(
        "Determine if the claim is supported by the evidence.\n\nEVIDENCE: \"{}\"\n\nCLAIM: \"{}\"\n\n\
         Say in one or two sentences which parts of the claim the evidence states, then give the verdict \
         on the last line as \"Verdict: X\" where X is one of {}.",
        cx.evidence,
        cx.claim,
        verdict_words(nei)
    )
}

/// Full CoVe, step 1: verification questions about the claim (the claim
/// alone).
pub fn cove_questions_prompt(cx: &VerifyContext, max: usize) -> String {
    format!(
        "List at most {max} short questions, one per line, whose answers would check each fact the claim \
         states.\n\nCLAIM: \"{}\"\n\nQUESTIONS:",
        cx.claim
    )
}

/// Full CoVe, step 2: the spec's `_answer_from_evidence_only` prompt (the
/// evidence alone, never the claim).
pub fn cove_answer_prompt(cx: &VerifyContext, question: &str) -> String {
    format!(
        "Answer this question based ONLY on the evidence provided.\nIf the evidence doesn't contain the answer, \
         say \"NOT FOUND IN EVIDENCE\".\n\nEVIDENCE: \"{}\"\n\nQUESTION: {question}\n\nANSWER (based only on \
         evidence above):",
        cx.evidence
    )
}

/// Full CoVe, step 3: the spec's `FULL_COVE_PROMPT` with the answers found
/// in the evidence alone.
pub fn cove_compare_prompt(cx: &VerifyContext, qa: &[(String, String)], nei: bool) -> String {
    let mut found = String::new();
    for (q, a) in qa {
        found.push_str(&format!("Q: {q}\nA: {a}\n"));
    }
    if !found.is_empty() {
        found = format!("Answers found in the evidence alone:\n{found}\n");
    }
    format!(
        "Verify this claim against the evidence.\n\nEVIDENCE: \"{}\"\n\nCLAIM: \"{}\"\n\n{found}\
         Step 1: List the key assertions in the claim.\nStep 2: For each assertion, check if the evidence \
         supports it.\nStep 3: Determine the overall verdict, on the last line as \"Verdict: X\" where X is one \
         of {}.\n\nAnalysis:",
        cx.evidence,
        cx.claim,
        verdict_words(nei)
    )
}

/// Stage 6 (QAFactEval): one question answered from one text alone (the
/// claim, or the evidence, never both).
pub fn numeric_question_prompt(text: &str, question: &str) -> String {
    format!(
        "Answer this question based ONLY on the text provided.\nIf the text doesn't contain the answer, say \
         \"NOT FOUND\".\n\nTEXT: \"{text}\"\n\nQUESTION: {question}\n\nANSWER (a few words):"
    )
}

/// Stage 6's questions about a numeric claim (the spec's Q1–Q3).
pub fn numeric_questions(claim: &str, config: &CiteConfig) -> Vec<String> {
    // the claim's own components: what its number describes
    let entity = numeric::verify(claim, claim, &config.numeric_qa_verification)
        .and_then(|r| r.claim.entity)
        .unwrap_or_else(|| "number".to_string());
    vec![
        format!("What is the value of the {entity}?"),
        format!("What unit is the {entity} given in?"),
        format!("What time period does the {entity} apply to?"),
    ]
}

/// The verdict an answer gives: the last explicit verdict word outside any
/// reasoning block (`<think>…</think>`), not negated, asked or offered as
/// an alternative; `Verdict: X` labels win. `None`: no verdict (an
/// abstention). `NOT ENOUGH INFORMATION` reads as NEI.
pub fn parse_verdict(answer: &str) -> Option<Verdict> {
    let text = crate::judge::ballot::strip_reasoning(answer);
    let text = text.replace("NOT ENOUGH INFORMATION", "NEI").replace("Not Enough Information", "NEI");
    crate::judge::ballot::last_explicit_word(&text, |w| {
        if w.len() > 12 {
            return None;
        }
        Verdict::from_name(w)
    })
}

/// An LLM's text answer without its reasoning blocks, a leading label
/// (`CLAIM:`) and wrapping quotes, trimmed.
pub fn clean_answer(answer: &str, label: &str) -> String {
    let stripped = crate::judge::ballot::strip_reasoning(answer);
    let mut t = stripped.trim();
    if t.len() >= label.len() && t[..label.len()].eq_ignore_ascii_case(label) {
        t = t[label.len()..].trim_start_matches(':').trim();
    }
    let t = t.trim_matches(|c| matches!(c, '"' | '\u{201c}' | '\u{201d}' | '*')).trim();
    t.to_string()
}

/// The first line holding text of a cleaned answer.
pub fn first_line(answer: &str, label: &str) -> String {
    let cleaned = clean_answer(answer, label);
    let line = cleaned.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    line.trim_matches(|c| matches!(c, '"' | '\u{201c}' | '\u{201d}' | '*')).trim().to_string()
}

/// Questions from an answer: one per line, list markers removed, at most
/// `max`.
pub fn parse_questions(answer: &str, max: usize) -> Vec<String> {
    let cleaned = clean_answer(answer, "QUESTIONS");
    cleaned
        .lines()
        .map(|l| l.trim().trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ')' | '-' | '*' | ' ')))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(max)
        .map(str::to_string)
        .collect()
}

/// Words that make a contained claim mean its opposite when they follow it
/// (`sales rose` in `sales rose not at all`).
const NEGATIONS_AFTER: &[&str] = &["not", "never", "no", "hardly", "without"];

/// Whether `claim` is stated in `evidence` word for word (the matching
/// core's normalization: case and whitespace folded), at whole words, and
/// not followed by a negation.
pub fn contains_claim(claim: &str, evidence: &str) -> bool {
    let profile = Profile::default();
    let c = normalize_str(claim.trim().trim_end_matches(['.', '!', ';']), profile);
    let e = normalize_str(evidence, profile);
    if c.is_empty() {
        return false;
    }
    let word = |ch: Option<char>| ch.is_some_and(|x| x.is_alphanumeric());
    let mut from = 0;
    while let Some(off) = e.get(from..).and_then(|r| r.find(&c)) {
        let at = from + off;
        let end = at + c.len();
        let before = e[..at].chars().next_back();
        let after = e[end..].chars().next();
        if !word(before) && !word(after) {
            let next = e[end..].split(|ch: char| !ch.is_alphanumeric()).find(|w| !w.is_empty());
            let clause_ends = e[end..].trim_start().starts_with(['.', ';', '!', '?']);
            if clause_ends || !next.is_some_and(|w| NEGATIONS_AFTER.contains(&w)) {
                return true;
            }
        }
        from = at + e[at..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// The deterministic verifier: CONTRADICTED when the numeric check says so
/// and at least `entailment_threshold` of the claim's key words are in the
/// evidence (UNSUPPORTED when they are not: its numbers are about something
/// else);
/// SUPPORTED when the claim is stated word for word; PARTIAL when at least
/// `entailment_threshold` of its key words are in the evidence (some parts
/// stated, not all shown); else UNSUPPORTED. Never SUPPORTED for a changed
/// word, number or negation.
pub fn deterministic(cx: &VerifyContext, config: &CiteConfig) -> (Verdict, String) {
    if numeric::has_value(&cx.claim) {
        let r = if config.enable_numeric_qa_verification {
            numeric::verify(&cx.claim, &cx.evidence, &config.numeric_qa_verification)
        } else {
            numeric::verify_as_text(&cx.claim, &cx.evidence)
        };
        // a differing number contradicts only evidence about the same thing
        let on_topic = key_word_share(&cx.claim, &cx.evidence) >= config.interleaved_generation.entailment_threshold;
        if let Some(r) = r.filter(|r| r.verdict == Verdict::Contradicted) {
            if on_topic {
                return (Verdict::Contradicted, format!("the numeric check disagrees (match score {})", r.match_score));
            }
            return (Verdict::Unsupported, "the evidence's numbers are about something else".into());
        }
    }
    if contains_claim(&cx.claim, &cx.evidence) {
        return (Verdict::Supported, "the evidence states the claim word for word".into());
    }
    let share = key_word_share(&cx.claim, &cx.evidence);
    if share >= config.interleaved_generation.entailment_threshold {
        return (Verdict::Partial, format!("{:.0}% of the claim's key words are in the evidence", share * 100.0));
    }
    (Verdict::Unsupported, format!("only {:.0}% of the claim's key words are in the evidence", share * 100.0))
}

/// The share of `claim`'s key words (stemmed content words) in `evidence`.
pub fn key_word_share(claim: &str, evidence: &str) -> f64 {
    let c = super::key_words(claim);
    let e = super::key_words(evidence);
    let hit = c.iter().filter(|w| e.binary_search(w).is_ok()).count();
    hit as f64 / c.len().max(1) as f64
}

/// Stage 2's quick entailment check: enough key words of the claim in the
/// evidence, and no number of the claim that the evidence contradicts or
/// lacks.
pub fn quick_entailment(claim: &str, evidence: &str, config: &CiteConfig) -> bool {
    if numeric::has_value(claim) {
        match numeric::verify_as_text(claim, evidence) {
            Some(r) if r.verdict == Verdict::Supported => {}
            _ => return false,
        }
    }
    key_word_share(claim, evidence) >= config.interleaved_generation.entailment_threshold
}

/// Whether two short answers of stage 6 agree: the same words (case,
/// punctuation and whitespace folded), or the same number (part 1's
/// normalization). `NOT FOUND` agrees only with `NOT FOUND`.
pub fn answers_agree(a: &str, b: &str, config: &CiteConfig) -> bool {
    let fold = |s: &str| -> String {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '%' && c != '.')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .trim_end_matches('.')
            .to_string()
    };
    let (fa, fb) = (fold(a), fold(b));
    if fa == fb {
        return true;
    }
    let not_found = |s: &str| s.contains("not found");
    if not_found(&fa) || not_found(&fb) {
        return false;
    }
    if numeric::has_value(a) && numeric::has_value(b) {
        return numeric::verify(a, b, &config.numeric_qa_verification).is_some_and(|r| r.value_score >= 0.9);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_outside_reasoning_and_none_is_abstention() {
        for (answer, want) in [
            ("SUPPORTED", Some(Verdict::Supported)),
            ("<think>It looks SUPPORTED at first.</think>\nVerdict: CONTRADICTED", Some(Verdict::Contradicted)),
            ("The claim is not SUPPORTED; it is UNSUPPORTED.", Some(Verdict::Unsupported)),
            ("Is it SUPPORTED or PARTIAL? I would say PARTIAL.", Some(Verdict::Partial)),
            ("There is Not Enough Information here.", Some(Verdict::Nei)),
            ("Verdict: nei", Some(Verdict::Nei)),
            ("<think>SUPPORTED</think>", None),
            ("I cannot tell.", None),
            ("", None),
        ] {
            assert_eq!(parse_verdict(answer), want, "{answer:?}");
        }
    }

    #[test]
    fn containment_needs_whole_words_and_no_negation_after() {
        let evidence = "Revenue rose 12% in 2023. Profits did not fall, and the CEO\u{2019}s plan worked — 日本 grew.";
        assert!(contains_claim("Revenue rose 12% in 2023.", evidence));
        assert!(contains_claim("revenue  ROSE 12%", evidence));
        assert!(!contains_claim("Revenue rose 12% in 202", evidence), "not at a word's edge");
        assert!(!contains_claim("Profits did", evidence), "followed by not");
        assert!(contains_claim("the CEO\u{2019}s plan worked", evidence));
        assert!(contains_claim("日本 grew", evidence));
        assert!(!contains_claim("Revenue fell 12% in 2023.", evidence));
    }

    #[test]
    fn the_deterministic_verifier_never_lets_a_changed_number_through() {
        let config = CiteConfig::default();
        let cx = |claim: &str| VerifyContext {
            claim: claim.into(),
            evidence: "Acme's revenue was $3.2 billion in Q4 2024, up from a year earlier.".into(),
        };
        assert_eq!(deterministic(&cx("Acme's revenue was $3.2 billion in Q4 2024"), &config).0, Verdict::Supported);
        assert_eq!(deterministic(&cx("Acme's revenue was $4.1 billion in Q4 2024"), &config).0, Verdict::Contradicted);
        assert_eq!(deterministic(&cx("Acme's revenue in Q4 2024 grew"), &config).0, Verdict::Partial);
        assert_eq!(deterministic(&cx("Cats sleep all day"), &config).0, Verdict::Unsupported);
    }

    #[test]
    fn answers_are_compared_by_words_and_numbers() {
        let config = CiteConfig::default();
        assert!(answers_agree("$3.2B", "$3.2 billion", &config));
        assert!(answers_agree("3,200 million dollars", "$3.2 billion", &config));
        assert!(answers_agree("Q4 2024.", "q4 2024", &config));
        assert!(!answers_agree("NOT FOUND", "Q4 2024", &config));
        assert!(!answers_agree("$3.2 billion", "$4.1 billion", &config));
    }

    #[test]
    fn questions_and_claims_are_read_from_answers() {
        assert_eq!(
            parse_questions("<think>hm</think>QUESTIONS:\n1. Who signed it?\n2) When?\n\n- Where?", 2),
            ["Who signed it?", "When?"]
        );
        assert_eq!(
            first_line("CLAIM: \"The treaty was signed in 1783.\"\nextra", "CLAIM"),
            "The treaty was signed in 1783."
        );
    }
}
