//! One function per fuzz target: the input's bytes through one entry point,
//! then the invariants of `super` on what comes out. The fuzz targets
//! (`fuzz/fuzz_targets/<name>.rs`) are one line each around these, and
//! `tests/regressions.rs` replays every file of `tests/regressions/<name>/`
//! through the same function, so a crash file found by the fuzzer is a
//! regression test as it is. Structured targets read their bytes with
//! `arbitrary`, so the fuzzer reaches past the JSON parsers into the checks.

use super::{fail, Check, Offsets};
use arbitrary::{Arbitrary, Unstructured};
use evidence_validator::host::{Deadline, FixedClock};
use evidence_validator::text::{normalize_str, Normalized, Profile};
use evidence_validator::transcript::{parse_transcript, EvaluationItem, InputFormat, TranscriptConfig};
use evidence_validator::{Document, Format};
use serde_json::{json, Value};

/// A target: an input's bytes to the invariants' verdict.
pub type Target = fn(&[u8]) -> Check;

/// Every target, by name (the fuzz target's and the regression folder's).
pub const ALL: &[(&str, Target)] = &[
    ("document", document),
    ("normalize", normalize),
    ("find", find),
    ("validate", validate),
    ("validate_json", validate_json),
    ("transcript", transcript),
    ("transcript_json", transcript_json),
    ("citations", citations),
    ("ballot", ballot),
    ("finding", finding),
    ("numeric", numeric),
    ("cite", cite),
];

/// The parts of a text input, split at U+0001 (so one byte string feeds a
/// function of several texts).
fn parts(data: &[u8], n: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(data);
    let mut out: Vec<String> = text.splitn(n, '\u{1}').map(str::to_string).collect();
    out.resize(n, String::new());
    out
}

fn first(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((b, rest)) => (*b, rest),
        None => (0, data),
    }
}

fn profile(bits: u8) -> Profile {
    Profile { fold_case: bits & 1 != 0, collapse_whitespace: bits & 2 != 0 }
}

fn format_of(bits: u8) -> Option<Format> {
    [None, Some(Format::Markdown), Some(Format::Html), Some(Format::PlainText)][usize::from(bits % 4)]
}

/// Markdown, HTML and plain text: both readers' units and headings, the
/// document's sections (contiguous, char ranges, heading inside, to the
/// end of the source), both
/// profiles' normalized text and its map.
pub fn document(data: &[u8]) -> Check {
    let (b, rest) = first(data);
    let src = String::from_utf8_lossy(rest).into_owned();
    super::extracted(&src, &evidence_validator::extract::extract_html(&src), false)?;
    super::extracted(&src, &evidence_validator::extract::extract_markdown(&src), true)?;
    let doc = match Document::new(src.clone(), format_of(b)) {
        Ok(d) => d,
        Err(e) => return super::typed_error(&e),
    };
    // contiguous from the first heading (a preamble of nothing but blank
    // lines is no section) to the end of the source
    let mut at = doc.sections().first().map_or(0, |s| s.byte_start);
    for (i, s) in doc.sections().iter().enumerate() {
        if s.byte_start != at || s.byte_start > s.heading_end || s.heading_end > s.byte_end || s.byte_end > src.len() {
            return fail(format!("section {i} {s:?} not contiguous from {at} or out of bounds"));
        }
        if ![s.byte_start, s.heading_end, s.byte_end].iter().all(|&p| src.is_char_boundary(p)) {
            return fail(format!("section {i} {s:?} off char boundaries"));
        }
        at = s.byte_end;
    }
    if !doc.sections().is_empty() && at != src.len() {
        return fail(format!("sections end at {at}, the source at {}", src.len()));
    }
    for bits in 0..4 {
        let p = profile(bits);
        let n = doc.normalized_text(p);
        if n.chars().any(|c| p.fold_case && c.is_uppercase() && c.to_lowercase().ne(std::iter::once(c))) {
            return fail(format!("{p:?}: normalized text keeps an upper-case letter: {n:?}"));
        }
    }
    Ok(())
}

/// The normalizer: the offset map of [`Normalized`], and `normalize_str`
/// (the quote's form) equal to the mapped text but for trimming.
pub fn normalize(data: &[u8]) -> Check {
    let (b, rest) = first(data);
    let text = String::from_utf8_lossy(rest);
    let p = profile(b);
    let n = Normalized::from_plain(&text, p);
    super::normalized(&text, &n)?;
    let quote = normalize_str(&text, p);
    if p.collapse_whitespace && quote != n.as_str().trim() {
        return fail(format!("normalize_str {quote:?} is not the mapped text {:?} trimmed", n.as_str()));
    }
    if normalize_str(&quote, p) != quote {
        return fail(format!("normalize_str is not idempotent on {quote:?}"));
    }
    Ok(())
}

/// Exact and fuzzy search (`find_quote`): every span slices to its text
/// in all three unit systems; an exact search (k = 0, nothing folded)
/// reports only literal occurrences.
pub fn find(data: &[u8]) -> Check {
    let (b, rest) = first(data);
    let [src, quote]: [String; 2] = parts(rest, 2).try_into().map_err(|_| "two parts")?;
    let doc = match Document::new(src.clone(), Some(Format::PlainText)) {
        Ok(d) => d,
        Err(e) => return super::typed_error(&e),
    };
    let k = usize::from(b >> 2) % 6;
    let recount = super::Recount::new(&src);
    for (p, k) in [(profile(b), k), (profile(0), 0)] {
        for (i, m) in evidence_validator::validate::find_quote(&doc, &quote, p, k).iter().enumerate() {
            recount.span_slices_to(
                Offsets::of_report(&m.location),
                &m.matched_text,
                &format!("{p:?} k={k} match {i}"),
            )?;
        }
    }
    Ok(())
}

/// A claim as the structured target generates it.
#[derive(Debug, Arbitrary)]
struct ClaimIn {
    quote: String,
    /// Take the quote from the source (chars `a..a+len`) so it is found.
    from_source: Option<(u16, u8)>,
    kind: u8,
    hint: Option<String>,
    section: Option<String>,
    threshold: Option<u8>,
    same_id_as_previous: bool,
}

/// A configuration as the structured target generates it.
#[derive(Debug, Arbitrary)]
struct ConfigIn {
    fuzzy: Option<bool>,
    max_edit_distance: Option<u8>,
    similarity: Option<u8>,
    sequence_matcher: Option<bool>,
    case_sensitive: Option<bool>,
    normalize_whitespace: Option<bool>,
    chunk_size: Option<u16>,
    context_window: Option<u16>,
    format: Option<u8>,
}

#[derive(Debug, Arbitrary)]
struct ValidateIn {
    source: String,
    claims: Vec<ClaimIn>,
    config: ConfigIn,
}

fn insert<T: Into<Value>>(o: &mut serde_json::Map<String, Value>, key: &str, v: Option<T>) {
    if let Some(v) = v {
        o.insert(key.into(), v.into());
    }
}

impl ValidateIn {
    fn claims(&self) -> (Value, Vec<String>) {
        let chars: Vec<char> = self.source.chars().collect();
        let mut ids: Vec<String> = Vec::new();
        let mut claims = Vec::new();
        for (i, c) in self.claims.iter().enumerate() {
            let quote = match c.from_source {
                Some((a, len)) if !chars.is_empty() => {
                    let a = usize::from(a) % chars.len();
                    chars[a..(a + usize::from(len)).min(chars.len())].iter().collect()
                }
                _ => c.quote.clone(),
            };
            let id = match ids.last() {
                Some(last) if c.same_id_as_previous => last.clone(),
                _ => format!("EV{i:03}"),
            };
            ids.push(id.clone());
            let kind =
                ["direct_quote", "paraphrase", "section_reference", "concept_reference"][usize::from(c.kind % 4)];
            let mut o = serde_json::Map::new();
            o.insert("id".into(), id.into());
            o.insert("task_id".into(), "P1.T001".into());
            o.insert("quote".into(), quote.into());
            o.insert("evidence_type".into(), kind.into());
            insert(&mut o, "context_hint", c.hint.clone());
            insert(&mut o, "expected_section", c.section.clone());
            insert(&mut o, "confidence_threshold", c.threshold.map(|t| f64::from(t) / 255.0));
            claims.push(Value::Object(o));
        }
        let mut root = json!({ "claims": claims });
        if let Some(f) = self.config.format {
            let format = ["markdown", "html", "plain_text"][usize::from(f % 3)];
            root["source_metadata"] = json!({ "format": format });
        }
        (root, ids)
    }

    fn config(&self) -> Value {
        let c = &self.config;
        let mut fuzzy = serde_json::Map::new();
        insert(&mut fuzzy, "enabled", c.fuzzy);
        insert(&mut fuzzy, "max_edit_distance", c.max_edit_distance.map(|k| k % 8));
        insert(&mut fuzzy, "similarity_threshold", c.similarity.map(|s| f64::from(s) / 255.0));
        insert(&mut fuzzy, "algorithm", c.sequence_matcher.map(|s| if s { "sequence_matcher" } else { "levenshtein" }));
        let mut exact = serde_json::Map::new();
        insert(&mut exact, "case_sensitive", c.case_sensitive);
        insert(&mut exact, "normalize_whitespace", c.normalize_whitespace);
        let mut semantic = serde_json::Map::new();
        insert(&mut semantic, "chunk_size", c.chunk_size.map(|n| 10 + n % 1000));
        insert(&mut semantic, "overlap_size", c.chunk_size.map(|n| (10 + n % 1000) / 3));
        let mut context = serde_json::Map::new();
        insert(&mut context, "context_window", c.context_window.map(|n| n % 1000));
        json!({
            "fuzzy_matching": fuzzy, "exact_matching": exact,
            "semantic_matching": semantic, "context_validation": context,
        })
    }
}

/// `validate_evidence` on structured claims and configuration: a typed
/// error (duplicate ids, bad values) or a report holding [`super::report`]'s
/// invariants.
pub fn validate(data: &[u8]) -> Check {
    let Ok(input) = ValidateIn::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(());
    };
    let (claims, ids) = input.claims();
    match evidence_validator::validate_evidence(&input.source, &claims, &input.config(), &FixedClock(0.0)) {
        Ok(r) => super::report(&input.source, &ids, &r),
        Err(e) => super::typed_error(&e),
    }
}

/// `validate_evidence` on raw JSON texts (the CLI's and the edge function's
/// path: `json::parse`, then the claims and configuration readers).
pub fn validate_json(data: &[u8]) -> Check {
    let [src, claims, config]: [String; 3] = parts(data, 3).try_into().map_err(|_| "three parts")?;
    let kind = evidence_validator::ErrorKind::Validation;
    let claims = match evidence_validator::json::parse(&claims, kind, "claims") {
        Ok(v) => v,
        Err(e) => return super::typed_error(&e),
    };
    let config = if config.trim().is_empty() {
        Value::Null
    } else {
        match evidence_validator::json::parse(&config, evidence_validator::ErrorKind::Configuration, "config") {
            Ok(v) => v,
            Err(e) => return super::typed_error(&e),
        }
    };
    match evidence_validator::validate_evidence(&src, &claims, &config, &FixedClock(0.0)) {
        Ok(r) => {
            let ids: Vec<String> = claims["claims"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| c["id"].as_str().unwrap_or_default().to_string())
                .collect();
            super::report(&src, &ids, &r)
        }
        Err(e) => super::typed_error(&e),
    }
}

fn check_items(t: &evidence_validator::transcript::Transcript, quotes: &[(String, f64)]) -> Check {
    let recount = super::Recount::new(t.text());
    super::transcript_recounted(t, &recount)?;
    let config = TranscriptConfig::default();
    for (quote, at) in quotes {
        let v = t.validate(&EvaluationItem::new(quote.clone(), *at), &config);
        super::item_validation(t, &recount, &v)?;
    }
    Ok(())
}

/// Transcript import as text (JSON, SRT, WebVTT, by the first byte or by
/// content) and the three checks of one item on it.
pub fn transcript(data: &[u8]) -> Check {
    let (b, rest) = first(data);
    let [input, quote]: [String; 2] = parts(rest, 2).try_into().map_err(|_| "two parts")?;
    let format = [InputFormat::Auto, InputFormat::Json, InputFormat::Srt, InputFormat::Vtt][usize::from(b % 4)];
    match parse_transcript(&input, format) {
        Ok(t) => check_items(&t, &[(quote, f64::from(b >> 2) * 7.5)]),
        Err(e) => super::typed_error(&e),
    }
}

#[derive(Debug, Arbitrary)]
struct WordIn {
    word: String,
    start: Option<u16>,
    end: Option<u16>,
    probability: Option<u8>,
    speaker: Option<u8>,
}

#[derive(Debug, Arbitrary)]
struct SegmentIn {
    text: String,
    start: u16,
    length: u16,
    words: Option<Vec<WordIn>>,
}

#[derive(Debug, Arbitrary)]
struct WhisperIn {
    segments: Vec<SegmentIn>,
    language: Option<String>,
    /// (segment, first word, words) of the quote to check.
    quote: (u8, u8, u8),
}

/// Whisper-style JSON built from structure (segments, words, times,
/// probabilities, speakers), imported and checked with a quote taken from
/// its own words.
pub fn transcript_json(data: &[u8]) -> Check {
    let Ok(w) = WhisperIn::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(());
    };
    let time = |t: u16| f64::from(t) / 10.0;
    let segments: Vec<Value> = w
        .segments
        .iter()
        .map(|s| {
            let mut o = json!({"text": s.text, "start": time(s.start), "end": time(s.start) + time(s.length)});
            if let Some(words) = &s.words {
                let words: Vec<Value> = words
                    .iter()
                    .map(|x| {
                        let mut m = serde_json::Map::new();
                        m.insert("word".into(), x.word.clone().into());
                        insert(&mut m, "start", x.start.map(time));
                        insert(&mut m, "end", x.end.map(time));
                        insert(&mut m, "probability", x.probability.map(|p| f64::from(p) / 255.0));
                        insert(&mut m, "speaker", x.speaker.map(|s| format!("SPEAKER_{:02}", s % 4)));
                        Value::Object(m)
                    })
                    .collect();
                o["words"] = words.into();
            }
            o
        })
        .collect();
    let mut value = json!({ "segments": segments });
    if let Some(l) = &w.language {
        value["language"] = l.clone().into();
    }
    let t = match evidence_validator::transcript::from_json(&value) {
        Ok(t) => t,
        Err(e) => return super::typed_error(&e),
    };
    let (s, a, n) = w.quote;
    let quote = w
        .segments
        .get(usize::from(s) % w.segments.len().max(1))
        .and_then(|s| s.words.as_ref())
        .map(|ws| {
            ws.iter()
                .skip(usize::from(a))
                .take(usize::from(n % 12))
                .map(|x| x.word.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    check_items(&t, &[(quote, time(u16::from(a) * 16))])
}

/// Report citation parsing (`[file:L1-L2](path)` with its claim and quote).
pub fn citations(data: &[u8]) -> Check {
    let md = String::from_utf8_lossy(data);
    super::citations(&md, &evidence_validator::judge::citations::parse_report(&md))
}

/// A juror's answer (JSON, fenced, chat-completion body, plain words).
pub fn ballot(data: &[u8]) -> Check {
    let raw = String::from_utf8_lossy(data);
    let parse = evidence_validator::judge::parse_answer;
    super::ballot(&parse(&raw), parse)
}

#[derive(Debug, Arbitrary)]
struct FindingIn {
    category: String,
    title: String,
    content: String,
    source_url: String,
    extracted_at: String,
    span: String,
    /// Take the span from the source (chars `a..a+len`).
    from_source: Option<(u16, u8)>,
    /// Some(hash): a hash given as is; None: the right one.
    hash: Option<String>,
    offsets: Option<(u16, u16)>,
    scores: (i8, i8, i8),
    source: String,
}

/// Spec 003 findings: `from_json` (a typed error or a finding), `validate`
/// (when it passes, the span is long enough, the hash is the span's, the
/// scores are in range; a finding made by `create_with_hash` never fails on
/// its hash), and `verify_finding` against a source (a reason, a
/// confidence in 0..=1; valid only for a valid finding).
pub fn finding(data: &[u8]) -> Check {
    use evidence_validator::finding::{compute_hash, Finding, FindingError, FindingVerifier};
    let Ok(f) = FindingIn::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(());
    };
    let chars: Vec<char> = f.source.chars().collect();
    let span: String = match f.from_source {
        Some((a, len)) if !chars.is_empty() => {
            let a = usize::from(a) % chars.len();
            chars[a..(a + usize::from(len)).min(chars.len())].iter().collect()
        }
        _ => f.span.clone(),
    };
    let extracted_at = if f.extracted_at.is_empty() { "2025-01-31T12:00:00Z".to_string() } else { f.extracted_at };
    let value = json!({
        "category": f.category, "title": f.title, "content": f.content, "source_url": f.source_url,
        "extracted_at": extracted_at, "extraction_span": span,
        "extraction_span_hash": f.hash.clone().unwrap_or_else(|| compute_hash(&span)),
        "char_offsets": f.offsets.map(|(a, b)| json!([a, b])),
        "relevance_score": f.scores.0, "recency_score": f.scores.1, "trust_score": f.scores.2,
    });
    let finding = match Finding::from_json(&value) {
        Ok(x) => x,
        Err(e) => return super::typed_error(&e),
    };
    let valid = finding.validate();
    if valid.is_ok() {
        let f = &finding;
        if f.extraction_span.chars().count() < 20 || f.extraction_span_hash != compute_hash(&f.extraction_span) {
            return fail(format!("validate passed a short span or a wrong hash: {f:?}"));
        }
        if !(0..=10).contains(&f.relevance_score)
            || !(0..=10).contains(&f.recency_score)
            || !(0..=3).contains(&f.trust_score)
        {
            return fail(format!("validate passed a score out of range: {f:?}"));
        }
    }
    if f.hash.is_none() && valid == Err(FindingError::HashMismatch) {
        return fail("a finding carrying its span's hash fails on the hash");
    }
    let r = FindingVerifier::new().verify_finding(&finding, &f.source);
    if !(0.0..=1.0).contains(&r.confidence) || r.reason.trim().is_empty() {
        return fail(format!("verification {r:?}: confidence outside 0..=1 or no reason"));
    }
    Ok(())
}

/// Numeric normalization: stage 6 (`verify_numeric`, values, units,
/// entities, periods) Scores in 0..=1, a
/// reported mismatch scores 0, SUPPORTED only at a positive score; the
/// time periods read from a text.
pub fn numeric(data: &[u8]) -> Check {
    let [claim, evidence]: [String; 2] = parts(data, 2).try_into().map_err(|_| "two parts")?;
    let _ =
        (evidence_validator::cite::numeric::periods(&claim), evidence_validator::cite::numeric::has_value(&evidence));
    let config = evidence_validator::cite::CiteConfig::default();
    match evidence_validator::cite::verify_numeric(&claim, &evidence, &config) {
        Err(e) => super::typed_error(&e),
        Ok(r) => {
            for s in [r.match_score, r.value_score] {
                if !(0.0..=1.0).contains(&s) {
                    return fail(format!("score {s} outside 0..=1: {r:?}"));
                }
            }
            if !r.mismatches.is_empty() && r.match_score != 0.0 {
                return fail(format!("mismatches reported with score {}: {r:?}", r.match_score));
            }
            if r.verdict == evidence_validator::cite::Verdict::Supported && r.match_score <= 0.0 {
                return fail(format!("SUPPORTED at score {}: {r:?}", r.match_score));
            }
            Ok(())
        }
    }
}

#[derive(Debug, Arbitrary)]
struct CiteIn {
    query: String,
    sources: Vec<(u8, String)>,
    claims: Vec<(String, Vec<u8>, Option<u8>)>,
}

/// The citation pipeline's deterministic stages (1, 3, 5, 6) on a
/// structured input: every claim in is one result out, in order; every
/// evidence span slices to its quote in its source.
pub fn cite(data: &[u8]) -> Check {
    use evidence_validator::cite::{run, CiteConfig, CiteInput};
    let Ok(c) = CiteIn::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(());
    };
    let id = |n: u8| format!("S{}", n % 8);
    let sources: Vec<Value> = c.sources.iter().map(|(n, text)| json!({"id": id(*n), "content": text})).collect();
    let claims: Vec<Value> = c
        .claims
        .iter()
        .map(|(text, cites, verdict)| {
            let mut o = json!({"text": text, "citations": cites.iter().map(|n| id(*n)).collect::<Vec<_>>()});
            if let Some(v) = verdict {
                o["verdict"] = ["SUPPORTED", "CONTRADICTED", "NOT_FOUND", "bogus"][usize::from(v % 4)].into();
            }
            o
        })
        .collect();
    let value = json!({"query": c.query, "sources": sources, "claims": claims});
    let input = match CiteInput::from_json(&value) {
        Ok(i) => i,
        Err(e) => return super::typed_error(&e),
    };
    match run(&input, &CiteConfig::default(), None, &Deadline::never()) {
        Ok(r) => super::cite_report(&input, &r),
        Err(e) => super::typed_error(&e),
    }
}
