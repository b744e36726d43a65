//! Stage 5 of spec 004, citation correction (CiteFix): each claim's cited
//! spans are scored against the claim, and the pool is searched for a
//! better one; the action is KEEP, REPLACE, REMOVE or ADD_ALTERNATE by the
//! spec's algorithm (Part III, stage 5 pseudo-code):
//!
//! - verdict SUPPORTED: KEEP;
//! - else the best span of another source scoring above
//!   `correction_threshold`: REPLACE when the verdict is CONTRADICTED;
//!   otherwise, when it scores above the current citation, ADD_ALTERNATE
//!   if `allow_alternate_citations`, else REPLACE; not above it: KEEP;
//! - no such span: REMOVE when the verdict is UNSUPPORTED or NEI, else KEEP.
//!
//! Verdicts come from stage 4 (part 2 of the pipeline, or the caller's
//! `verdict`). Without one the keyword proxy stands in: NEI when the claim
//! cites no span of the pool, SUPPORTED when its best cited span scores
//! above `correction_threshold`, else UNSUPPORTED (`verdict_source`
//! says which). With `enable_nei_verdict` off NEI reads as UNSUPPORTED.
//!
//! Strategies, behind [`Strategy`]: `keyword`, the share of the claim's
//! distinct content words found in the span (the spec's `split()` overlap,
//! with the crate's tokenizer, so punctuation is not part of a word, stop
//! words left out and words stemmed: `users` = `user`); and
//! `keyword_semantic_hybrid`, λ × keyword + (1 − λ) × the cosine similarity
//! of the host's embeddings (below 0 counted as 0), λ = 0.8.
//!
//! Toggle off (Appendix B): every claim KEEP, citations as they are.

use crate::cite::config::{CiteConfig, CorrectionMethod};
use crate::cite::evidence::EvidenceSpan;
use crate::cite::Verdict;
use crate::host::Deadline;
use serde::Serialize;

/// A correction action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Action {
    /// The citation stays.
    Keep,
    /// A better citation takes its place.
    Replace,
    /// No valid citation exists.
    Remove,
    /// Another source supports the claim too.
    AddAlternate,
}

/// A span of the pool, named by its place and source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanRef {
    /// Index in the evidence pool.
    pub span: usize,
    /// Its source.
    pub source_id: String,
    /// Its score against the claim.
    pub score: f64,
}

/// A claim's correction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Correction {
    /// The action.
    pub action: Action,
    /// The claim's citations as given.
    pub citations_before: Vec<String>,
    /// Its citations after the action.
    pub citations_after: Vec<String>,
    /// The best cited span, if any.
    pub current: Option<SpanRef>,
    /// The span replacing or joining it.
    pub new_evidence: Option<SpanRef>,
    /// The verdict the algorithm read.
    pub verdict: Verdict,
    /// `given`, `keyword_proxy`, or `none` (the stage was off).
    pub verdict_source: &'static str,
}

/// How a claim is scored against a span: the spec's
/// `CitationCorrectionStrategy`.
pub trait Strategy {
    /// The score (0–1) of span `span` of the pool for claim `claim`.
    fn score(&self, claim: usize, span: usize) -> f64;
}

/// CiteFix method 1.
pub struct Keyword {
    claims: Vec<Vec<String>>,
    spans: Vec<Vec<String>>,
}

impl Keyword {
    /// Word sets of the claims and of the pool's spans.
    pub fn new(claims: &[&str], pool: &[EvidenceSpan]) -> Keyword {
        Keyword {
            claims: claims.iter().map(|c| crate::cite::key_words(c)).collect(),
            spans: pool.iter().map(|s| crate::cite::key_words(&s.quote)).collect(),
        }
    }
}

impl Strategy for Keyword {
    fn score(&self, claim: usize, span: usize) -> f64 {
        let (Some(c), Some(s)) = (self.claims.get(claim), self.spans.get(span)) else {
            return 0.0;
        };
        let overlap = c.iter().filter(|w| s.binary_search(w).is_ok()).count();
        overlap as f64 / c.len().max(1) as f64
    }
}

/// CiteFix method 2: λ × keyword + (1 − λ) × semantic.
pub struct Hybrid {
    /// The keyword part.
    pub keyword: Keyword,
    /// Unit vectors of the claims.
    pub claim_vectors: Vec<Vec<f32>>,
    /// Unit vectors of the pool's spans.
    pub span_vectors: Vec<Vec<f32>>,
    /// λ.
    pub lambda: f64,
}

impl Strategy for Hybrid {
    fn score(&self, claim: usize, span: usize) -> f64 {
        let k = self.keyword.score(claim, span);
        let s = match (self.claim_vectors.get(claim), self.span_vectors.get(span)) {
            (Some(a), Some(b)) => crate::matching::semantic::cosine(a, b).max(0.0),
            _ => 0.0,
        };
        self.lambda * k + (1.0 - self.lambda) * s
    }
}

/// The method a run uses: the hybrid needs the host's vectors.
pub fn method_used(config: &CiteConfig, has_vectors: bool) -> CorrectionMethod {
    match config.citation_correction.correction_method {
        CorrectionMethod::KeywordSemanticHybrid if has_vectors => CorrectionMethod::KeywordSemanticHybrid,
        _ => CorrectionMethod::Keyword,
    }
}

/// The fallback: KEEP.
pub fn keep(citations: &[String]) -> Correction {
    Correction {
        action: Action::Keep,
        citations_before: citations.to_vec(),
        citations_after: citations.to_vec(),
        current: None,
        new_evidence: None,
        verdict: Verdict::Nei,
        verdict_source: "none",
    }
}

/// Stage 5 for claim `claim` (its index for `strategy`), citing
/// `citations`, with the verdict of stage 4 if there is one. `None` when
/// the deadline passed.
pub fn correct(
    claim: usize,
    citations: &[String],
    given: Option<Verdict>,
    pool: &[EvidenceSpan],
    strategy: &dyn Strategy,
    config: &CiteConfig,
    deadline: &Deadline,
) -> Option<Correction> {
    let settings = &config.citation_correction;
    let threshold = settings.correction_threshold;
    let mut current: Option<SpanRef> = None;
    let mut best: Option<SpanRef> = None;
    for (i, span) in pool.iter().enumerate() {
        if deadline.expired() {
            return None;
        }
        let score = strategy.score(claim, i);
        let slot = if citations.contains(&span.source_id) { &mut current } else { &mut best };
        if slot.as_ref().is_none_or(|s| score > s.score) {
            *slot = Some(SpanRef { span: i, source_id: span.source_id.clone(), score });
        }
    }
    let (mut verdict, verdict_source) = match (given, &current) {
        (Some(v), _) => (v, "given"),
        (None, None) => (Verdict::Nei, "keyword_proxy"),
        (None, Some(c)) if c.score > threshold => (Verdict::Supported, "keyword_proxy"),
        (None, Some(_)) => (Verdict::Unsupported, "keyword_proxy"),
    };
    if verdict == Verdict::Nei && !config.enable_nei_verdict {
        verdict = Verdict::Unsupported;
    }
    let current_score = current.as_ref().map_or(0.0, |c| c.score);
    let better = best.filter(|b| b.score > threshold);
    let action = match (verdict, &better) {
        (Verdict::Supported, _) => Action::Keep,
        (Verdict::Contradicted, Some(_)) => Action::Replace,
        (_, Some(b)) if b.score > current_score => {
            if settings.allow_alternate_citations {
                Action::AddAlternate
            } else {
                Action::Replace
            }
        }
        (_, Some(_)) => Action::Keep,
        (Verdict::Unsupported | Verdict::Nei, None) => Action::Remove,
        (_, None) => Action::Keep,
    };
    let new_id = better.as_ref().map(|b| b.source_id.clone());
    let citations_after = match (action, new_id) {
        (Action::Replace, Some(id)) => vec![id],
        (Action::AddAlternate, Some(id)) => citations.iter().cloned().chain(std::iter::once(id)).collect(),
        (Action::Remove, _) => Vec::new(),
        _ => citations.to_vec(),
    };
    let new_evidence = if matches!(action, Action::Replace | Action::AddAlternate) { better } else { None };
    Some(Correction {
        action,
        citations_before: citations.to_vec(),
        citations_after,
        current,
        new_evidence,
        verdict,
        verdict_source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::position::PositionIndex;

    fn span(id: &str, quote: &str) -> EvidenceSpan {
        EvidenceSpan {
            quote: quote.into(),
            source_id: id.into(),
            source_title: String::new(),
            source_url: String::new(),
            relevance_score: 1.0,
            has_numeric: false,
            position: PositionIndex::new(quote).span(quote, 0, quote.len()),
            truncated: false,
        }
    }

    fn pool() -> Vec<EvidenceSpan> {
        vec![
            span("a", "The treaty of Paris ended the war in 1783."),
            span("b", "Independence was declared on July 4, 1776 in Philadelphia."),
            span("c", "Weather reports mention rain."),
        ]
    }

    fn run(claim: &str, cites: &[&str], given: Option<Verdict>, config: &CiteConfig) -> Correction {
        let pool = pool();
        let strategy = Keyword::new(&[claim], &pool);
        let cites: Vec<String> = cites.iter().map(|c| c.to_string()).collect();
        correct(0, &cites, given, &pool, &strategy, config, &Deadline::never()).unwrap()
    }

    #[test]
    fn keyword_score_is_the_share_of_claim_words() {
        let pool = pool();
        let k = Keyword::new(&["Independence was declared in Paris's treaty"], &pool);
        // content words: independence, declared, paris, treaty (4)
        assert_eq!(k.score(0, 0), 2.0 / 4.0, "paris, treaty");
        assert_eq!(k.score(0, 1), 2.0 / 4.0, "independence, declared");
        assert_eq!(k.score(0, 2), 0.0);
    }

    #[test]
    fn the_four_actions() {
        let config = CiteConfig::default();
        let claim = "Independence was declared on July 4, 1776";
        // cites the right source: supported by the proxy, KEEP
        let c = run(claim, &["b"], None, &config);
        assert_eq!((c.action, c.verdict, c.verdict_source), (Action::Keep, Verdict::Supported, "keyword_proxy"));
        // cites the wrong one: REPLACE with b
        let c = run(claim, &["a"], None, &config);
        assert_eq!(c.action, Action::Replace);
        assert_eq!(c.citations_after, ["b"]);
        assert_eq!(c.new_evidence.as_ref().map(|n| n.span), Some(1));
        // alternates allowed: ADD_ALTERNATE keeps a and adds b
        let mut alt = CiteConfig::default();
        alt.citation_correction.allow_alternate_citations = true;
        let c = run(claim, &["a"], Some(Verdict::Partial), &alt);
        assert_eq!(
            (c.action, c.citations_after.clone()),
            (Action::AddAlternate, vec!["a".to_string(), "b".to_string()])
        );
        // nothing in the pool supports it: REMOVE
        let c = run("Quantum gravity unifies forces", &["c"], None, &config);
        assert_eq!((c.action, c.verdict), (Action::Remove, Verdict::Unsupported));
        assert!(c.citations_after.is_empty());
        // no citation at all: NEI, REMOVE; with NEI off it reads UNSUPPORTED
        let c = run("Quantum gravity unifies forces", &[], None, &config);
        assert_eq!((c.action, c.verdict), (Action::Remove, Verdict::Nei));
        let no_nei = CiteConfig { enable_nei_verdict: false, ..CiteConfig::default() };
        assert_eq!(run("Quantum gravity unifies forces", &[], None, &no_nei).verdict, Verdict::Unsupported);
        // a PARTIAL claim with nothing better: KEEP
        let c = run("Quantum gravity unifies forces", &["c"], Some(Verdict::Partial), &config);
        assert_eq!(c.action, Action::Keep);
        // CONTRADICTED with a better span: REPLACE even with alternates allowed
        let c = run(claim, &["a"], Some(Verdict::Contradicted), &alt);
        assert_eq!(c.action, Action::Replace);
    }

    #[test]
    fn the_hybrid_weighs_keyword_by_lambda() {
        let pool = pool();
        let claims = ["Independence was declared in Paris's treaty"];
        let h = Hybrid {
            keyword: Keyword::new(&claims, &pool),
            claim_vectors: vec![vec![1.0, 0.0]],
            span_vectors: vec![vec![0.0, 1.0], vec![1.0, 0.0], vec![-1.0, 0.0]],
            lambda: 0.8,
        };
        assert!((h.score(0, 0) - 0.8 * 0.5).abs() < 1e-12);
        assert!((h.score(0, 1) - (0.8 * 0.5 + 0.2)).abs() < 1e-12);
        assert_eq!(h.score(0, 2), 0.0, "a negative cosine counts as 0");
    }
}
