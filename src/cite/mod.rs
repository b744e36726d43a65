//! The citation pipeline of spec 004 ("claim-level citations"), natively
//! and in wasm: the stages that need no LLM (part 1, below), and the whole
//! pipeline with the LLM's stages through host callbacks (part 2:
//! [`pipeline`], [`verify`]).
//!
//! - stage 1, [`evidence`]: evidence pre-selection (sentence spans ranked
//!   against the query);
//! - stage 3, [`confidence`]: the linguistic confidence classifier;
//! - stage 5, [`correction`]: citation correction (KEEP / REPLACE / REMOVE /
//!   ADD_ALTERNATE);
//! - stage 6, [`numeric`]: numeric verification by normalized value, unit,
//!   entity and time period;
//! - [`metrics`]: the evaluation metrics of Part VII;
//! - [`eval`]: the evaluation runner on FEVER, RAGTruth and ALCE (§7.3, §7.5);
//! - [`config`]: Appendix B's toggles and every stage's settings.
//!
//! Stages 2 and 4 (generation and isolated verification) ask an LLM: part 2
//! runs them through host callbacks. Here stage 5 reads a claim's verdict
//! from the input when given, else a keyword proxy (see [`correction`]).
//!
//! Architecture Invariant: the pipeline performs no I/O; the host's embed
//! callback ([`Embedder`], the matching core's) is its only outside call.

pub mod confidence;
pub mod config;
pub mod correction;
pub mod eval;
pub mod evidence;
pub mod metrics;
pub mod numeric;
pub mod pipeline;
pub mod verify;

pub use config::CiteConfig;

use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use crate::matching::semantic::{self, Embedder, MAX_EMBEDDED_CHUNKS};
use serde::Serialize;
use serde_json::{Map, Value};

/// A word as the keyword methods compare it (stages 1 and 5): lowercase,
/// without a possessive `'s`, stemmed by the crate's light stemmer
/// (`Acme's` = `acme`, `users` = `user`; it leaves `revenue` and
/// `revenues` apart).
pub(crate) fn word_key(word: &str) -> String {
    let lower = word.to_lowercase();
    let bare = lower.strip_suffix("'s").or_else(|| lower.strip_suffix("\u{2019}s")).unwrap_or(&lower);
    crate::text::tokens::stem(bare).to_string()
}

/// The distinct keys of `text`'s content words (all its words when it has
/// only stop words), sorted.
pub(crate) fn key_words(text: &str) -> Vec<String> {
    let words: Vec<&str> = crate::text::tokens::tokenize(text).iter().map(|t| t.text(text)).collect();
    let content: Vec<&str> =
        words.iter().copied().filter(|w| !crate::text::tokens::is_stop_word(&w.to_lowercase())).collect();
    let chosen = if content.is_empty() { &words } else { &content };
    let mut keys: Vec<String> = chosen.iter().map(|w| word_key(w)).collect();
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys
}

/// The spec's five-tier verdict (Part III, stage 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// Evidence entails the claim.
    Supported,
    /// Evidence supports some parts, others unstated.
    Partial,
    /// Evidence exists but does not support the claim.
    Unsupported,
    /// Evidence opposes the claim.
    Contradicted,
    /// No relevant evidence.
    Nei,
}

impl Verdict {
    /// The verdict named `name` (`SUPPORTED`, … `NEI`, any case).
    pub fn from_name(name: &str) -> Option<Verdict> {
        match name.to_ascii_uppercase().as_str() {
            "SUPPORTED" => Some(Verdict::Supported),
            "PARTIAL" => Some(Verdict::Partial),
            "UNSUPPORTED" => Some(Verdict::Unsupported),
            "CONTRADICTED" => Some(Verdict::Contradicted),
            "NEI" => Some(Verdict::Nei),
            _ => None,
        }
    }
}

/// A source document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// Unique id, what claims cite.
    pub id: String,
    /// Title ("" when not given).
    pub title: String,
    /// URL ("" when not given).
    pub url: String,
    /// The text.
    pub content: String,
}

/// A claim with its citations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// The claim.
    pub text: String,
    /// Ids of the sources it cites.
    pub citations: Vec<String>,
    /// Stage 4's verdict, when the caller has one.
    pub verdict: Option<Verdict>,
}

/// The pipeline's input: `{query, sources: [{id, title?, url?, content}],
/// claims: [{text, citations?, verdict?}]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CiteInput {
    /// The research question.
    pub query: String,
    /// The sources.
    pub sources: Vec<Source>,
    /// The claims.
    pub claims: Vec<Claim>,
}

impl CiteInput {
    /// Reads the pipeline's input: [`CiteInput::from_json`]'s, plus an
    /// optional `outline` (stage 2's sections, at most
    /// [`pipeline::MAX_OUTLINE_SECTIONS`]; claims given skip stage 2).
    ///
    /// # Errors
    /// As [`CiteInput::from_json`]; VALIDATION_ERROR at `$.outline[i]` for
    /// a section that is not a string or too long.
    pub fn from_pipeline_json(value: &Value) -> Result<(CiteInput, Vec<String>)> {
        let root = JsonPath::root();
        let Some(obj) = value.as_object() else {
            return CiteInput::from_json(value).map(|i| (i, Vec::new()));
        };
        let mut outline = Vec::new();
        if let Some(v) = obj.get("outline").filter(|v| !v.is_null()) {
            let at = root.key("outline");
            for (i, s) in array(Some(v), &at, pipeline::MAX_OUTLINE_SECTIONS)?.iter().enumerate() {
                let s = s
                    .as_str()
                    .ok_or_else(|| Error::invalid_input(&at.index(i), "type", "a section must be a string"))?;
                if s.chars().count() > config::MAX_TEXT_CHARS || s.trim().is_empty() {
                    return Err(Error::invalid_input(
                        &at.index(i),
                        "maxLength",
                        format!("a section must hold 1 to {} characters", config::MAX_TEXT_CHARS),
                    ));
                }
                outline.push(s.to_string());
            }
        }
        let mut rest = obj.clone();
        rest.remove("outline");
        Ok((CiteInput::from_json(&Value::Object(rest))?, outline))
    }

    /// Reads the input.
    ///
    /// # Errors
    /// VALIDATION_ERROR naming the JSON path of an unknown key, a missing or
    /// mistyped field, a duplicate source id, a citation of an unknown
    /// source, or a count or size over [`config::MAX_SOURCES`],
    /// [`config::MAX_CLAIMS`], [`config::MAX_CITATIONS_PER_CLAIM`],
    /// [`config::MAX_TEXT_CHARS`] or [`config::MAX_TOTAL_CONTENT_BYTES`].
    pub fn from_json(value: &Value) -> Result<CiteInput> {
        let root = JsonPath::root();
        let obj = object(value, &root, &["query", "sources", "claims"])?;
        let query = text(obj, "query", &root, true)?;
        let mut total = 0usize;
        let sources = read_sources(obj.get("sources"), &root.key("sources"), &mut total)?;
        let claims_at = root.key("claims");
        let list = array(obj.get("claims"), &claims_at, config::MAX_CLAIMS)?;
        let mut claims = Vec::with_capacity(list.len());
        for (i, c) in list.iter().enumerate() {
            claims.push(read_claim(c, &claims_at.index(i), &sources, &mut total)?);
        }
        Ok(CiteInput { query, sources, claims })
    }
}

/// The input's `sources`, adding their content's bytes to `total`.
fn read_sources(value: Option<&Value>, sources_at: &JsonPath, total: &mut usize) -> Result<Vec<Source>> {
    let list = array(value, sources_at, config::MAX_SOURCES)?;
    let mut sources: Vec<Source> = Vec::with_capacity(list.len());
    for (i, s) in list.iter().enumerate() {
        let at = sources_at.index(i);
        let o = object(s, &at, &["id", "title", "url", "content"])?;
        let id = text(o, "id", &at, true)?;
        if sources.iter().any(|x| x.id == id) {
            return Err(Error::invalid_input(&at.key("id"), "uniqueItems", format!("source id {id:?} is used twice")));
        }
        let content = o.get("content").and_then(Value::as_str).ok_or_else(|| {
            Error::invalid_input(&at.key("content"), "required", "content is required and must be a string")
        })?;
        *total = total.saturating_add(content.len());
        if *total > config::MAX_TOTAL_CONTENT_BYTES {
            return Err(Error::invalid_input(
                &at.key("content"),
                "maxLength",
                format!("the sources' content passes {} bytes together", config::MAX_TOTAL_CONTENT_BYTES),
            ));
        }
        sources.push(Source {
            title: text(o, "title", &at, false)?,
            url: text(o, "url", &at, false)?,
            content: content.to_string(),
            id,
        });
    }
    Ok(sources)
}

/// One claim at `at`, its citations checked against `sources`, adding its
/// text's bytes to `total`.
fn read_claim(c: &Value, at: &JsonPath, sources: &[Source], total: &mut usize) -> Result<Claim> {
    let o = object(c, at, &["text", "citations", "verdict"])?;
    let cites_at = at.key("citations");
    let mut citations = Vec::new();
    let cites = match o.get("citations") {
        None | Some(Value::Null) => &[][..],
        Some(v) => array(Some(v), &cites_at, config::MAX_CITATIONS_PER_CLAIM)?.as_slice(),
    };
    for (j, id) in cites.iter().enumerate() {
        let id = id.as_str().ok_or_else(|| {
            Error::invalid_input(&cites_at.index(j), "type", "a citation must be a source id (string)")
        })?;
        if !sources.iter().any(|s| s.id == id) {
            return Err(Error::invalid_input(&cites_at.index(j), "reference", format!("no source has id {id:?}")));
        }
        citations.push(id.to_string());
    }
    let verdict = match o.get("verdict") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_str().and_then(Verdict::from_name).ok_or_else(|| {
            Error::invalid_input(
                &at.key("verdict"),
                "enum",
                "verdict must be one of SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED, NEI",
            )
        })?),
    };
    let claim_text = text(o, "text", at, true)?;
    *total = total.saturating_add(claim_text.len());
    if *total > config::MAX_TOTAL_CONTENT_BYTES {
        return Err(Error::invalid_input(
            &at.key("text"),
            "maxLength",
            format!("the sources and claims pass {} bytes together", config::MAX_TOTAL_CONTENT_BYTES),
        ));
    }
    Ok(Claim { text: claim_text, citations, verdict })
}

fn object<'a>(v: &'a Value, at: &JsonPath, keys: &[&str]) -> Result<&'a Map<String, Value>> {
    let o = v.as_object().ok_or_else(|| Error::invalid_input(at, "type", "must be an object"))?;
    if let Some(k) = o.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(Error::invalid_input(
            &at.key(k),
            "additionalProperties",
            format!("unknown key {k:?}; the keys here are: {}", keys.join(", ")),
        ));
    }
    Ok(o)
}

fn array<'a>(v: Option<&'a Value>, at: &JsonPath, max: usize) -> Result<&'a Vec<Value>> {
    let l = v.and_then(Value::as_array).ok_or_else(|| Error::invalid_input(at, "type", "must be an array"))?;
    if l.len() > max {
        return Err(Error::invalid_input(at, "maxItems", format!("{} items, more than {max}", l.len())));
    }
    Ok(l)
}

/// A string field; absent is "" unless `required`.
fn text(o: &Map<String, Value>, key: &str, at: &JsonPath, required: bool) -> Result<String> {
    let path = at.key(key);
    match o.get(key) {
        None | Some(Value::Null) if !required => Ok(String::new()),
        Some(Value::String(s)) => {
            let n = s.chars().count();
            if key != "content" && n > config::MAX_TEXT_CHARS {
                return Err(Error::invalid_input(
                    &path,
                    "maxLength",
                    format!("{n} characters, more than {}", config::MAX_TEXT_CHARS),
                ));
            }
            if required && s.trim().is_empty() {
                return Err(Error::invalid_input(&path, "minLength", format!("{key} is empty")));
            }
            Ok(s.clone())
        }
        None | Some(Value::Null) => Err(Error::invalid_input(&path, "required", format!("{key} is required"))),
        Some(_) => Err(Error::invalid_input(&path, "type", format!("{key} must be a string"))),
    }
}

/// One claim's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimResult {
    /// The claim's text.
    pub text: String,
    /// Stage 3.
    pub confidence: confidence::ClaimConfidence,
    /// Stage 5.
    pub correction: correction::Correction,
    /// Stage 6, for a claim holding a number with a cited span to compare.
    pub numeric: Option<numeric::NumericResult>,
}

/// Which stages ran and which fell back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StagesRun {
    /// Stage 1 ran (else whole sources).
    pub evidence_preselection: bool,
    /// Stage 3 ran (else every claim LOW).
    pub confidence_classification: bool,
    /// Stage 5 ran (else every claim KEEP).
    pub citation_correction: bool,
    /// Stage 6 compared normalized values (else digits as written).
    pub numeric_qa_verification: bool,
}

/// The pipeline's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CiteReport {
    /// Stage 1's evidence pool, best first.
    pub evidence_pool: Vec<evidence::EvidenceSpan>,
    /// Stage 1's method: `keyword`, `semantic`, `hybrid` or `none`.
    pub relevance_method_used: &'static str,
    /// Sentences scored by stage 1.
    pub candidate_spans: usize,
    /// Stage 5's method: `keyword` or `keyword_semantic_hybrid` (`none` when off).
    pub correction_method_used: &'static str,
    /// Per claim, in input order.
    pub claims: Vec<ClaimResult>,
    /// The toggles as applied.
    pub stages: StagesRun,
}

fn timeout() -> Error {
    Error::new(ErrorKind::Processing, "the citation pipeline ran past max_processing_time_seconds")
}

/// Runs stages 1, 3, 5 and 6 on `input`. `embedder` (the host's, as the
/// matching core takes it) is used by stage 1's `semantic`/`hybrid`, stage
/// 3's similarity signal and stage 5's hybrid; without it the keyword
/// methods stand in and the report says so.
///
/// # Errors
/// PROCESSING_ERROR when the deadline passes or the embedder fails.
pub fn run(
    input: &CiteInput,
    config: &CiteConfig,
    embedder: Option<&dyn Embedder>,
    deadline: &Deadline,
) -> Result<CiteReport> {
    let pool = evidence::preselect(&input.sources, &input.query, config, embedder, deadline)?;
    run_on_pool(input, config, embedder, pool, deadline)
}

/// Stages 3, 5 and 6 on stage 1's `pool`, with the verdicts the claims carry.
fn run_on_pool(
    input: &CiteInput,
    config: &CiteConfig,
    embedder: Option<&dyn Embedder>,
    pool: evidence::EvidencePool,
    deadline: &Deadline,
) -> Result<CiteReport> {
    let scored = score(&input.claims, config, embedder, pool, deadline)?;
    let verdicts: Vec<Option<Verdict>> = input.claims.iter().map(|c| c.verdict).collect();
    finish(&input.claims, config, scored, &verdicts, deadline)
}

/// Stage 1's pool with stage 3's answer for each claim, and the scorer
/// stages 4 to 6 pick spans with.
pub(crate) struct Scored {
    pub(crate) pool: evidence::EvidencePool,
    strategy: Box<dyn correction::Strategy>,
    method: config::CorrectionMethod,
    /// Per claim: stage 3.
    pub(crate) confidence: Vec<confidence::ClaimConfidence>,
    /// Per claim: its best cited span in the pool (before correction).
    pub(crate) best_cited: Vec<Option<usize>>,
}

/// Stage 3 for every claim of `claims` against `pool`.
pub(crate) fn score(
    claims: &[Claim],
    config: &CiteConfig,
    embedder: Option<&dyn Embedder>,
    pool: evidence::EvidencePool,
    deadline: &Deadline,
) -> Result<Scored> {
    let spans = &pool.spans;
    let claim_texts: Vec<&str> = claims.iter().map(|c| c.text.as_str()).collect();
    // one embed call for claims and spans, when something reads it
    let vectors = match embedder.filter(|_| wants_vectors(config) && !claim_texts.is_empty()) {
        Some(e) => {
            if spans.len() + claim_texts.len() > MAX_EMBEDDED_CHUNKS {
                return Err(Error::new(
                    ErrorKind::Processing,
                    format!(
                        "{} claims and spans to embed, more than {MAX_EMBEDDED_CHUNKS}",
                        spans.len() + claim_texts.len()
                    ),
                ));
            }
            let mut texts = claim_texts.clone();
            texts.extend(spans.iter().map(|s| s.quote.as_str()));
            let mut v = semantic::embed_texts(&texts, e)?;
            let span_vectors = v.split_off(claim_texts.len());
            Some((v, span_vectors))
        }
        None => None,
    };
    let keyword = correction::Keyword::new(&claim_texts, spans);
    let method = correction::method_used(config, vectors.is_some());
    let strategy: Box<dyn correction::Strategy> = match (&vectors, method) {
        (Some((c, s)), config::CorrectionMethod::KeywordSemanticHybrid) => Box::new(correction::Hybrid {
            keyword,
            claim_vectors: c.clone(),
            span_vectors: s.clone(),
            lambda: config.citation_correction.lambda_weight,
        }),
        _ => Box::new(keyword),
    };
    let mut confidences = Vec::with_capacity(claims.len());
    let mut best = Vec::with_capacity(claims.len());
    for (n, claim) in claims.iter().enumerate() {
        if deadline.expired_now() {
            return Err(timeout());
        }
        let cited: Vec<usize> =
            spans.iter().enumerate().filter(|(_, s)| claim.citations.contains(&s.source_id)).map(|(i, _)| i).collect();
        let best_cited =
            cited.iter().copied().max_by(|a, b| strategy.score(n, *a).total_cmp(&strategy.score(n, *b)).then(b.cmp(a)));
        let confidence = if config.enable_confidence_classification {
            let evidence_span = best_cited.and_then(|i| spans.get(i));
            let similarity = match (&vectors, best_cited) {
                (Some((c, s)), Some(i)) => c.get(n).zip(s.get(i)).map(|(a, b)| semantic::cosine(a, b)),
                _ => None,
            };
            let cx = confidence::Context {
                evidence: evidence_span.map_or("", |s| s.quote.as_str()),
                source_title: evidence_span.map(|s| s.source_title.as_str()),
                similarity,
            };
            confidence::classify(&claim.text, &cx, &config.confidence_classification)
        } else {
            confidence::fallback()
        };
        confidences.push(confidence);
        best.push(best_cited);
    }
    Ok(Scored { pool, strategy, method, confidence: confidences, best_cited: best })
}

/// Stages 5 and 6 for every claim, stage 5 reading `verdicts` (stage 4's,
/// or the input's).
pub(crate) fn finish(
    claims: &[Claim],
    config: &CiteConfig,
    scored: Scored,
    verdicts: &[Option<Verdict>],
    deadline: &Deadline,
) -> Result<CiteReport> {
    let Scored { pool, strategy, method, confidence, .. } = scored;
    let spans = &pool.spans;
    let mut results = Vec::with_capacity(claims.len());
    for (n, (claim, confidence)) in claims.iter().zip(confidence).enumerate() {
        if deadline.expired_now() {
            return Err(timeout());
        }
        let verdict = verdicts.get(n).copied().flatten();
        let correction = if config.enable_citation_correction {
            correction::correct(n, &claim.citations, verdict, spans, strategy.as_ref(), config, deadline)
                .ok_or_else(timeout)?
        } else {
            correction::keep(&claim.citations)
        };
        // stage 6 against the spans of the citations after correction
        let mut numeric: Option<numeric::NumericResult> = None;
        if numeric::has_value(&claim.text) {
            for span in spans.iter().filter(|s| correction.citations_after.contains(&s.source_id)) {
                if deadline.expired() {
                    return Err(timeout());
                }
                let r = if config.enable_numeric_qa_verification {
                    numeric::verify(&claim.text, &span.quote, &config.numeric_qa_verification)
                } else {
                    numeric::verify_as_text(&claim.text, &span.quote)
                };
                if let Some(r) = r {
                    if numeric.as_ref().is_none_or(|b| r.match_score > b.match_score) {
                        numeric = Some(r);
                    }
                }
            }
        }
        results.push(ClaimResult { text: claim.text.clone(), confidence, correction, numeric });
    }
    let correction_method_used = match (config.enable_citation_correction, method) {
        (false, _) => "none",
        (true, config::CorrectionMethod::Keyword) => "keyword",
        (true, config::CorrectionMethod::KeywordSemanticHybrid) => "keyword_semantic_hybrid",
    };
    Ok(CiteReport {
        relevance_method_used: pool.relevance_method_used,
        candidate_spans: pool.candidates,
        evidence_pool: pool.spans,
        correction_method_used,
        claims: results,
        stages: StagesRun {
            evidence_preselection: config.enable_evidence_preselection,
            confidence_classification: config.enable_confidence_classification,
            citation_correction: config.enable_citation_correction,
            numeric_qa_verification: config.enable_numeric_qa_verification,
        },
    })
}

/// [`run`] embeds claims and spans together (stage 3's similarity signal
/// or stage 5's hybrid reads them).
pub(crate) fn wants_vectors(config: &CiteConfig) -> bool {
    config.enable_confidence_classification
        || (config.enable_citation_correction
            && config.citation_correction.correction_method == config::CorrectionMethod::KeywordSemanticHybrid)
}

/// What [`run`] would ask an embedder, for hosts that embed
/// asynchronously: embed [`EmbedTexts::texts`], then call [`run_embedded`]
/// with the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbedTexts {
    /// The texts, each once, in the order [`run`] first asks them: stage
    /// 1's candidate spans and the query (`semantic` or `hybrid` relevance),
    /// then the claims and the evidence pool's spans (stage 3's similarity
    /// signal, stage 5's hybrid). Where stage 1 ranks by embeddings its pool
    /// is not known ahead, so every candidate span stands for it.
    pub texts: Vec<String>,
    /// Stage 1's pool when it was built without an embedder (keyword
    /// relevance or pre-selection off): [`run_embedded`] uses it instead of
    /// running stage 1 again.
    pool: Option<evidence::EvidencePool>,
}

/// The texts [`run`] asks an embedder for (see [`EmbedTexts`]).
///
/// # Errors
/// PROCESSING_ERROR when the deadline passes or there are more spans to
/// embed than `MAX_EMBEDDED_CHUNKS` (as [`run`] would say).
pub fn embed_texts(input: &CiteInput, config: &CiteConfig, deadline: &Deadline) -> Result<EmbedTexts> {
    let stage1 = evidence::embed_requests(&input.sources, &input.query, config, deadline)?;
    let mut texts = Vec::new();
    let mut pool = None;
    let mut spans = Vec::new();
    match stage1 {
        Some(asked) => {
            texts.extend(asked.spans.iter().cloned());
            texts.push(asked.query);
            spans = asked.spans;
        }
        None => {
            let built = evidence::preselect(&input.sources, &input.query, config, None, deadline)?;
            if wants_vectors(config) {
                spans = built.spans.iter().map(|s| s.quote.clone()).collect();
            }
            pool = Some(built);
        }
    }
    if wants_vectors(config) && !input.claims.is_empty() {
        texts.extend(input.claims.iter().map(|c| c.text.clone()));
        texts.extend(spans);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        if deadline.expired() {
            return Err(timeout());
        }
        if seen.insert(t.clone()) {
            out.push(t);
        }
    }
    Ok(EmbedTexts { texts: out, pool })
}

/// The host's vectors for [`embed_texts`], answered by text.
struct Embedded<'a> {
    vectors: std::collections::BTreeMap<&'a str, &'a Vec<f32>>,
}

impl Embedder for Embedded<'_> {
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
        texts
            .iter()
            .map(|t| {
                self.vectors.get(t).map(|v| v.to_vec()).ok_or_else(|| "asked for a text not embedded ahead".into())
            })
            .collect()
    }
}

/// [`run`] with the host's answer to [`embed_texts`]: its vectors, in the
/// order of `asked.texts`, or what went wrong (the embed callback's
/// failure).
///
/// # Errors
/// As [`run`]; PROCESSING_ERROR naming the embed callback when `answer` is
/// its failure, or holds a wrong number of vectors, vectors of different
/// lengths, empty ones or non-finite numbers.
pub fn run_embedded(
    input: &CiteInput,
    config: &CiteConfig,
    asked: EmbedTexts,
    answer: std::result::Result<Vec<Vec<f32>>, String>,
    deadline: &Deadline,
) -> Result<CiteReport> {
    let EmbedTexts { texts, pool } = asked;
    let vectors = match answer {
        Ok(v) => v,
        Err(m) => {
            let failed = move |_: &[&str]| -> std::result::Result<Vec<Vec<f32>>, String> { Err(m.clone()) };
            return match pool {
                Some(pool) => run_on_pool(input, config, Some(&failed), pool, deadline),
                None => run(input, config, Some(&failed), deadline),
            };
        }
    };
    if !texts.is_empty() {
        // the checks every embed answer passes, before any stage runs
        let asked: Vec<&str> = texts.iter().map(String::as_str).collect();
        semantic::embed_texts(&asked, &semantic::Precomputed { texts: texts.clone(), vectors: vectors.clone() })?;
    }
    let embedded = Embedded { vectors: texts.iter().map(String::as_str).zip(&vectors).collect() };
    match pool {
        Some(pool) => run_on_pool(input, config, Some(&embedded), pool, deadline),
        None => run(input, config, Some(&embedded), deadline),
    }
}

/// `numeric --claim --evidence`: stage 6 on two texts.
///
/// # Errors
/// VALIDATION_ERROR at `$.claim` when the claim holds no number (a year
/// alone is a time period, not a value).
pub fn verify_numeric(claim: &str, evidence: &str, config: &CiteConfig) -> Result<numeric::NumericResult> {
    for (name, t) in [("claim", claim), ("evidence", evidence)] {
        let n = t.chars().count();
        if n > config::MAX_TEXT_CHARS {
            return Err(Error::invalid_input(
                &JsonPath::root().key(name),
                "maxLength",
                format!("{n} characters, more than {}", config::MAX_TEXT_CHARS),
            ));
        }
    }
    let r = if config.enable_numeric_qa_verification {
        numeric::verify(claim, evidence, &config.numeric_qa_verification)
    } else {
        numeric::verify_as_text(claim, evidence)
    };
    r.ok_or_else(|| {
        Error::invalid_input(&JsonPath::root().key("claim"), "numeric", "the claim holds no number to verify")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// tests/cases/cite_numeric.json, which the CLI's and the wasm
    /// package's tests replay too (tests/cite_wasm.rs replays it in wasm).
    #[test]
    fn numeric_case_file() {
        let file: Value = serde_json::from_str(include_str!("../../tests/cases/cite_numeric.json")).unwrap();
        let cases = file["cases"].as_array().unwrap();
        assert!(cases.len() >= 8);
        for c in cases {
            let name = c["name"].as_str().unwrap();
            let config = CiteConfig::from_json(c.get("config").unwrap_or(&Value::Null)).unwrap();
            let r = verify_numeric(c["claim"].as_str().unwrap(), c["evidence"].as_str().unwrap(), &config).unwrap();
            let r = serde_json::to_value(&r).unwrap();
            assert_eq!(r["verdict"], c["verdict"], "{name}: {r}");
            assert_eq!(r["match_score"].as_f64(), c["match_score"].as_f64(), "{name}: {r}");
            if let Some(m) = c.get("mismatch") {
                assert_eq!(&r["mismatches"][0]["field"], m, "{name}");
            }
        }
    }

    fn input() -> Value {
        json!({
            "query": "When was the treaty signed?",
            "sources": [
                {"id": "a", "title": "Treaty history", "content": "The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years."},
                {"id": "b", "content": "Cats sleep for around sixteen hours every day, far more than most other mammals do."}
            ],
            "claims": [
                {"text": "The Treaty of Paris was signed in 1783.", "citations": ["b"]},
                {"text": "Cats sleep sixteen hours a day.", "citations": ["b"], "verdict": "supported"}
            ]
        })
    }

    #[test]
    fn the_pipeline_runs_each_stage() {
        let input = CiteInput::from_json(&input()).unwrap();
        let r = run(&input, &CiteConfig::default(), None, &Deadline::never()).unwrap();
        assert_eq!(r.evidence_pool.len(), 3, "two sentences of a, one of b");
        assert_eq!(r.claims[0].correction.action, correction::Action::Replace);
        assert_eq!(r.claims[0].correction.citations_after, ["a"]);
        assert_eq!(r.claims[1].correction.verdict_source, "given");
        assert_eq!(r.claims[1].correction.action, correction::Action::Keep);
        // "sixteen hours" is in b: exact numeric match
        assert_eq!(r.claims[1].confidence.signals[0].signal, "exact_numeric_match");
        assert_eq!(r.claims[1].numeric.as_ref().map(|n| n.verdict), Some(Verdict::Supported));
    }

    #[test]
    fn bad_input_names_its_path() {
        for (patch, path) in [
            (json!({"query": 5}), "$.query"),
            (json!({"sources": [{"id": "a", "content": "x"}, {"id": "a", "content": "y"}]}), "$.sources[1].id"),
            (json!({"sources": [{"id": "a"}]}), "$.sources[0].content"),
            (json!({"sources": [{"id": "a", "content": "x", "author": "me"}]}), "$.sources[0].author"),
            (json!({"claims": [{"text": "t", "verdict": "maybe"}]}), "$.claims[0].verdict"),
            (json!({"claims": [{"text": "t", "citations": ["zzz"]}]}), "$.claims[0].citations[0]"),
            (json!({"claims": [{"citations": []}]}), "$.claims[0].text"),
            (json!({"extra": 1}), "$.extra"),
        ] {
            let mut v = input();
            for (k, x) in patch.as_object().unwrap() {
                v[k] = x.clone();
            }
            let e = CiteInput::from_json(&v).unwrap_err();
            assert_eq!(e.code(), "VALIDATION_ERROR", "{patch}");
            assert_eq!(e.details()["json_path"], path, "{patch}: {}", e.message());
        }
    }

    /// A deterministic embedder: each text's letter counts (a–z), plus one
    /// so no vector is zero; counts its calls.
    struct Letters(std::cell::Cell<usize>);

    impl Embedder for Letters {
        fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, String> {
            self.0.set(self.0.get() + 1);
            Ok(texts
                .iter()
                .map(|t| {
                    let mut v = vec![1.0f32; 26];
                    for c in t.to_ascii_lowercase().bytes().filter(u8::is_ascii_lowercase) {
                        v[usize::from(c - b'a')] += 1.0;
                    }
                    v
                })
                .collect())
        }
    }

    fn configs() -> Vec<CiteConfig> {
        [
            json!({"evidence_preselection": {"relevance_computation_method": "semantic"}}),
            json!({}),
            json!({"evidence_preselection": {"relevance_computation_method": "keyword"}}),
            json!({"evidence_preselection": {"relevance_computation_method": "keyword"},
                   "citation_correction": {"correction_method": "keyword"}, "enable_confidence_classification": false}),
            json!({"enable_evidence_preselection": false}),
            json!({"enable_confidence_classification": false, "enable_citation_correction": false}),
        ]
        .iter()
        .map(|c| CiteConfig::from_json(c).unwrap())
        .collect()
    }

    #[test]
    fn embedding_ahead_gives_the_same_report() {
        let input = CiteInput::from_json(&input()).unwrap();
        for config in configs() {
            let direct = Letters(std::cell::Cell::new(0));
            let expected = run(&input, &config, Some(&direct), &Deadline::never()).unwrap();
            let asked = embed_texts(&input, &config, &Deadline::never()).unwrap();
            let texts = asked.texts.clone();
            let mut sorted = texts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), texts.len(), "each text once");
            assert_eq!(texts.is_empty(), direct.0.get() == 0, "asked exactly when run asks");
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let answer = Letters(std::cell::Cell::new(0)).embed(&refs);
            let got = run_embedded(&input, &config, asked, answer, &Deadline::never()).unwrap();
            assert_eq!(got, expected, "{}", serde_json::to_string(&config).unwrap());
        }
    }

    #[test]
    fn the_listed_texts_come_in_the_pipelines_order() {
        let input = CiteInput::from_json(&input()).unwrap();
        let config = &configs()[0];
        let texts = embed_texts(&input, config, &Deadline::never()).unwrap().texts;
        // stage 1: the three candidate sentences, then the query; then the
        // claims (the spans are listed already)
        assert_eq!(texts.len(), 3 + 1 + 2);
        assert!(texts[0].starts_with("The Treaty of Paris was signed in 1783"));
        assert_eq!(texts[3], "When was the treaty signed?");
        assert_eq!(texts[4], "The Treaty of Paris was signed in 1783.");
        // keyword stage 1, no stage 3, no hybrid: nothing to embed
        let keyword = CiteConfig::from_json(&json!({"enable_confidence_classification": false,
            "evidence_preselection": {"relevance_computation_method": "keyword"},
            "citation_correction": {"correction_method": "keyword"}}))
        .unwrap();
        assert!(embed_texts(&input, &keyword, &Deadline::never()).unwrap().texts.is_empty());
    }

    #[test]
    fn a_bad_answer_is_a_processing_error_naming_embed() {
        let input = CiteInput::from_json(&input()).unwrap();
        let config = &configs()[0];
        let n = embed_texts(&input, config, &Deadline::never()).unwrap().texts.len();
        let short = vec![vec![1.0f32; 3]; n - 1];
        for (answer, says) in [
            (Err("no network".to_string()), "the embed callback failed: no network"),
            (Ok(short), "the embed callback returned 5 vectors for 6 texts"),
        ] {
            let asked = embed_texts(&input, config, &Deadline::never()).unwrap();
            let e = run_embedded(&input, config, asked, answer, &Deadline::never()).unwrap_err();
            assert_eq!(e.code(), "PROCESSING_ERROR");
            assert_eq!(e.message(), says);
        }
    }

    #[test]
    fn a_passed_deadline_is_a_processing_error() {
        struct Late(std::cell::Cell<f64>);
        impl crate::host::Clock for Late {
            fn now_ms(&self) -> f64 {
                let t = self.0.get();
                self.0.set(t + 1000.0);
                t
            }
        }
        let clock = Late(std::cell::Cell::new(0.0));
        let deadline = Deadline::after(&clock, 10.0);
        let input = CiteInput::from_json(&input()).unwrap();
        let e = run(&input, &CiteConfig::default(), None, &deadline).unwrap_err();
        assert_eq!(e.code(), "PROCESSING_ERROR");
    }
}
