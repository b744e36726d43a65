//! Stage 3 of spec 004, confidence pre-classification: the "linguistic
//! confidence proxy" (Part III, stage 3 and Part V gap 1), deterministic.
//! A claim starts at 0.5; each signal found in the claim (and its cited
//! evidence) adds its weight; the sum is clamped to 0–1 and bucketed:
//! HIGH at or above `high_threshold` (0.85), MEDIUM at or above
//! `low_threshold` (0.50), else LOW. The result lists the signals that fired.
//!
//! | signal | weight | spec |
//! |---|---|---|
//! | `direct_quote`: text between quote marks `"` `“` `”` `'` | +`quote_match_bonus` (0.3) | HIGH; the spec's `QUOTE_MARKERS`, so an apostrophe pair (`Apple's … company's`) counts too |
//! | `exact_numeric_match`: every number of the claim is in the evidence, by value | +0.3 | HIGH |
//! | `named_entity_match`: every capitalized name of the claim is in the evidence | +0.3 | HIGH (the pseudo-code's +0.3; the sample code writes 0.2) |
//! | `temporal_match`: every time period of the claim is in the evidence | +0.3 | HIGH |
//! | `high_semantic_similarity`: embedding cosine > 0.85 (only with an embed callback) | +0.1 | MEDIUM |
//! | `source_mentioned`: the cited source's title, or "according to" | +0.1 | MEDIUM |
//! | `factual_pattern`: "was founded in", "is headquartered in", … | +0.1 | MEDIUM |
//! | `hedging`: each of "approximately", "around", "about", "may", … | −`hedging_word_penalty` (0.2) each | LOW |
//! | `comparative`: "more than", "compared to", "vs", … | −0.2 | LOW |
//! | `derived`: "totaling", "combined", "on average", … | −0.2 | LOW |
//! | `subjective`: "significant", "substantial", "notable", "major" | −0.2 | LOW |
//! | `superlative_without_source`: "best", "largest", "most", no source named | −0.2 | LOW |
//!
//! Toggle `enable_confidence_classification` off: every claim LOW with
//! score 0.3 and no signals (Appendix B).

use crate::cite::config::{ConfidenceConfig, FALLBACK_CONFIDENCE};
use crate::cite::numeric;
use crate::text::quantity;
use crate::text::tokens;
use serde::Serialize;

/// Weight of the HIGH signals other than the quote.
pub const HIGH_SIGNAL: f64 = 0.3;
/// Weight of the MEDIUM signals.
pub const MEDIUM_SIGNAL: f64 = 0.1;
/// Weight of the LOW signals other than hedging.
pub const LOW_SIGNAL: f64 = -0.2;
/// Cosine similarity above which `high_semantic_similarity` fires.
pub const HIGH_SIMILARITY: f64 = 0.85;
/// Score every claim starts from.
pub const BASE_SCORE: f64 = 0.5;

const HEDGING: &[&str] = &[
    "approximately",
    "around",
    "about",
    "may",
    "might",
    "possibly",
    "likely",
    "perhaps",
    "probably",
    "seemingly",
    "apparently",
    "reportedly",
    "allegedly",
];
const COMPARATIVE: &[&str] = &[
    "more than",
    "less than",
    "greater than",
    "fewer than",
    "similar to",
    "compared to",
    "relative to",
    "versus",
    "vs",
];
const DERIVED: &[&str] =
    &["totaling", "combined", "on average", "average of", "sum of", "total of", "calculated", "estimated", "projected"];
const SUBJECTIVE: &[&str] = &["significant", "substantial", "notable", "major"];
const SUPERLATIVE: &[&str] = &["best", "largest", "most"];
const FACTUAL: &[&str] = &[
    "was founded in",
    "was founded by",
    "was established in",
    "is headquartered in",
    "is based in",
    "is located in",
    "was born in",
    "is the capital of",
    "was released in",
    "was launched in",
    "was acquired by",
    "was signed on",
];
const SOURCE_PHRASES: &[&str] = &["according to"];
const QUOTE_MARKS: &[char] = &['"', '\u{201c}', '\u{201d}', '\''];

/// HIGH, MEDIUM or LOW.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ConfidenceLevel {
    /// Quick single-pass verification.
    High,
    /// Standard verification.
    Medium,
    /// Full isolated verification.
    Low,
}

/// A signal that fired.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Signal {
    /// Its name (the table of the module).
    pub signal: &'static str,
    /// What it added to the score.
    pub weight: f64,
    /// What fired it, as written in the claim.
    pub matched: Vec<String>,
}

/// A claim's confidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimConfidence {
    /// 0–1.
    pub score: f64,
    /// The bucket.
    pub level: ConfidenceLevel,
    /// The signals that fired, in the table's order.
    pub signals: Vec<Signal>,
    /// False when the stage was off (the fallback).
    pub classified: bool,
}

/// What the classifier looks at besides the claim.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The cited evidence's text ("" when none).
    pub evidence: &'a str,
    /// The cited source's title.
    pub source_title: Option<&'a str>,
    /// Claim–evidence cosine similarity, when the host embeds.
    pub similarity: Option<f64>,
}

/// The fallback when the stage is off: LOW, 0.3.
pub fn fallback() -> ClaimConfidence {
    ClaimConfidence { score: FALLBACK_CONFIDENCE, level: ConfidenceLevel::Low, signals: Vec::new(), classified: false }
}

/// Classifies `claim`.
pub fn classify(claim: &str, cx: &Context, config: &ConfidenceConfig) -> ClaimConfidence {
    let words = words(claim);
    let mut signals = Vec::new();
    let mut push = |signal: &'static str, weight: f64, matched: Vec<String>| {
        if !matched.is_empty() {
            signals.push(Signal { signal, weight, matched });
        }
    };
    push("direct_quote", config.quote_match_bonus, quoted(claim).into_iter().collect());
    push("exact_numeric_match", HIGH_SIGNAL, numbers_found(claim, cx.evidence));
    push("named_entity_match", HIGH_SIGNAL, names_found(claim, cx.evidence));
    push("temporal_match", HIGH_SIGNAL, periods_found(claim, cx.evidence));
    if let Some(s) = cx.similarity.filter(|s| *s > HIGH_SIMILARITY) {
        push("high_semantic_similarity", MEDIUM_SIGNAL, vec![format!("{s:.3}")]);
    }
    let mut source = phrases(&words, SOURCE_PHRASES);
    if let Some(t) = cx.source_title.map(str::trim).filter(|t| t.chars().count() >= 3) {
        if claim.to_lowercase().contains(&t.to_lowercase()) {
            source.push(t.to_string());
        }
    }
    let source_named = !source.is_empty();
    push("source_mentioned", MEDIUM_SIGNAL, source);
    push("factual_pattern", MEDIUM_SIGNAL, phrases(&words, FACTUAL));
    let hedges = phrases(&words, HEDGING);
    let hedge_weight = -config.hedging_word_penalty * hedges.len() as f64;
    push("hedging", hedge_weight, hedges);
    push("comparative", LOW_SIGNAL, phrases(&words, COMPARATIVE));
    push("derived", LOW_SIGNAL, phrases(&words, DERIVED));
    push("subjective", LOW_SIGNAL, phrases(&words, SUBJECTIVE));
    if !source_named {
        push("superlative_without_source", LOW_SIGNAL, phrases(&words, SUPERLATIVE));
    }
    let score = (BASE_SCORE + signals.iter().map(|s| s.weight).sum::<f64>()).clamp(0.0, 1.0);
    let level = if score >= config.high_threshold {
        ConfidenceLevel::High
    } else if score >= config.low_threshold {
        ConfidenceLevel::Medium
    } else {
        ConfidenceLevel::Low
    };
    ClaimConfidence { score, level, signals, classified: true }
}

/// The claim's words, lowercased, with their text as written.
fn words(text: &str) -> Vec<(String, String)> {
    tokens::tokenize(text)
        .iter()
        .map(|t| {
            let w = t.text(text);
            (w.to_lowercase(), w.to_string())
        })
        .collect()
}

/// Every occurrence of a phrase of `list` as whole words, as written
/// (each occurrence once: the hedging penalty is per word).
fn phrases(words: &[(String, String)], list: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // the phrase's words compared in place (a phrase split into a
        // vector here was an allocation per word of the claim and phrase)
        let hit = list.iter().find_map(|p| {
            let mut n = 0;
            for (j, part) in p.split(' ').enumerate() {
                if words.get(i + j).is_none_or(|w| w.0 != part) {
                    return None;
                }
                n = j + 1;
            }
            Some(n)
        });
        match hit {
            Some(n) => {
                out.push(words.iter().skip(i).take(n).map(|w| w.1.as_str()).collect::<Vec<_>>().join(" "));
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// The first quoted passage: a quote mark, at least one other character,
/// a quote mark (the spec's `QUOTE_MARKERS`).
fn quoted(claim: &str) -> Option<String> {
    let mut open: Option<usize> = None;
    for (i, c) in claim.char_indices() {
        if !QUOTE_MARKS.contains(&c) {
            continue;
        }
        match open {
            Some(o) if i > o + claim[o..].chars().next().map_or(1, char::len_utf8) => {
                return claim.get(o..i + c.len_utf8()).map(str::to_string);
            }
            _ => open = Some(i),
        }
    }
    None
}

/// The claim's numbers when every one has an equal one in the evidence.
fn numbers_found(claim: &str, evidence: &str) -> Vec<String> {
    let (c, e) = (quantity::quantities(claim), quantity::quantities(evidence));
    let (missing, _) = quantity::unmatched(&c, &e);
    if c.is_empty() || !missing.is_empty() {
        return Vec::new();
    }
    c.into_iter().map(|q| q.text).collect()
}

/// Capitalized word runs of the claim not at its start (the first word is
/// capitalized by grammar), when every one is in the evidence (compared
/// without case).
fn names_found(claim: &str, evidence: &str) -> Vec<String> {
    let toks = tokens::tokenize(claim);
    let mut names: Vec<String> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (n, t) in toks.iter().enumerate() {
        let w = t.text(claim);
        let capital = w.chars().next().is_some_and(char::is_uppercase) && !tokens::is_stop_word(&w.to_lowercase());
        if capital && n > 0 {
            run.push(w);
        } else if !run.is_empty() {
            names.push(run.join(" "));
            run.clear();
        }
    }
    if !run.is_empty() {
        names.push(run.join(" "));
    }
    let have = words(evidence);
    let all = names.iter().all(|name| {
        let parts: Vec<String> = name.split(' ').map(str::to_lowercase).collect();
        have.windows(parts.len()).any(|w| w.iter().zip(&parts).all(|(a, b)| a.0 == *b))
    });
    if names.is_empty() || !all {
        return Vec::new();
    }
    names
}

/// The claim's time periods when every one is in the evidence.
fn periods_found(claim: &str, evidence: &str) -> Vec<String> {
    let c = numeric::periods(claim);
    let e = numeric::periods(evidence);
    if c.is_empty() || !c.iter().all(|p| e.iter().any(|q| q.normalized == p.normalized)) {
        return Vec::new();
    }
    c.into_iter().map(|p| p.text).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(c: &ClaimConfidence) -> Vec<&str> {
        c.signals.iter().map(|s| s.signal).collect()
    }

    #[test]
    fn a_quoted_exact_claim_is_high() {
        let evidence = "Acme Corp reported revenue of $3.2 billion in Q4 2024.";
        let cx = Context { evidence, ..Context::default() };
        let c = classify("Acme Corp said \"revenue of $3.2 billion\" in Q4 2024", &cx, &ConfidenceConfig::default());
        assert_eq!(names(&c), ["direct_quote", "exact_numeric_match", "named_entity_match", "temporal_match"]);
        // 0.5 + 0.3 × 4 = 1.7, clamped
        assert_eq!((c.score, c.level), (1.0, ConfidenceLevel::High));
    }

    #[test]
    fn hedges_count_per_word_and_set_the_level() {
        let cx = Context { evidence: "unrelated", ..Context::default() };
        let c = classify("Sales may possibly rise", &cx, &ConfidenceConfig::default());
        assert_eq!(names(&c), ["hedging"]);
        assert_eq!(c.signals[0].matched, ["may", "possibly"]);
        // 0.5 − 2 × 0.2
        assert!((c.score - 0.1).abs() < 1e-12, "{}", c.score);
        assert_eq!(c.level, ConfidenceLevel::Low);
        let c = classify("Sales rose in the north", &cx, &ConfidenceConfig::default());
        assert_eq!((c.score, c.level, c.signals.len()), (0.5, ConfidenceLevel::Medium, 0));
    }

    #[test]
    fn medium_and_low_signals() {
        let cx = Context { evidence: "", source_title: Some("Annual Report"), similarity: Some(0.9) };
        let c = classify(
            "According to the Annual Report, the firm was founded in 1990 and is the largest, a significant lead compared to rivals, totaling more",
            &cx,
            &ConfidenceConfig::default(),
        );
        assert_eq!(
            names(&c),
            ["high_semantic_similarity", "source_mentioned", "factual_pattern", "comparative", "derived", "subjective"]
        );
        // a named source: the superlative does not count
        // 0.5 + 0.1 × 3 − 0.2 × 3 = 0.2
        assert!((c.score - 0.2).abs() < 1e-12, "{}", c.score);
        let c = classify("It is the largest firm", &Context::default(), &ConfidenceConfig::default());
        assert_eq!(names(&c), ["superlative_without_source"]);
        assert!((c.score - 0.3).abs() < 1e-12);
    }

    #[test]
    fn phrases_match_whole_words_once_each() {
        let w = words("More than less than MORE on average of the sum of it, more");
        let as_written = |list| phrases(&w, list);
        // two-word phrases as written; a phrase's first word alone at the end is none
        assert_eq!(as_written(COMPARATIVE), ["More than", "less than"]);
        // "on average" takes "average", so "average of" does not match; "sum of" does
        assert_eq!(as_written(DERIVED), ["on average", "sum of"]);
        // one-word phrases, case folded, every occurrence
        assert_eq!(phrases(&words("the Best, most and most"), SUPERLATIVE), ["Best", "most", "most"]);
        assert!(phrases(&words(""), COMPARATIVE).is_empty());
        assert!(phrases(&words("than more"), COMPARATIVE).is_empty());
    }

    #[test]
    fn thresholds_are_the_configs() {
        let config = ConfidenceConfig { high_threshold: 0.5, low_threshold: 0.2, ..ConfidenceConfig::default() };
        assert_eq!(classify("plain words", &Context::default(), &config).level, ConfidenceLevel::High);
        let f = fallback();
        assert_eq!((f.score, f.level, f.classified), (0.3, ConfidenceLevel::Low, false));
    }
}
