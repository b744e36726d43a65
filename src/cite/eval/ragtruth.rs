//! RAGTruth (Niu et al., ACL 2024) as github.com/ParticleMedia/RAGTruth
//! publishes it: `dataset/response.jsonl` and `dataset/source_info.jsonl`.
//!
//! Responses, one JSON object a line. Read: `id`, `source_id`, `response`,
//! and `labels`: the hallucination spans, each `{start, end, text,
//! label_type}` with `start`/`end` code point offsets into `response`
//! (Python string indices) and `text` = `response[start:end]`, checked.
//! Ignored: `model`, `temperature`, `split`, `quality`, and each label's
//! `meta`, `due_to_null`, `implicit_true` (a span marked `implicit_true`
//! is true but not in the context: not grounded, so it counts like the
//! others).
//!
//! Sources, one JSON object a line. Read: `source_id`, `task_type` (`QA`,
//! `Summary`, `Data2txt`) and `source_info`: for QA `{question, passages}`,
//! for Summary the text, for Data2txt the structured data (an object, given
//! to the pipeline as its pretty-printed JSON). Ignored: `source`, `prompt`.
//!
//! Each response is one [`Case`]: the source is its `source_info`; the
//! claims are the response's sentences, each citing the source; a claim is
//! grounded when no label span overlaps it. The query is the question for
//! QA, else the response itself (a summary or an overview answers no
//! question; ranked against the response, stage 1's pool holds what it
//! talks about). RAGTruth has no gold evidence spans: stage 1 is not scored.

use super::{id, jsonl_objects, list, on_line, sentences, string, timeout, within_text_limit, Case, ClaimGold};
use crate::cite::{CiteInput, Claim, Source};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Most hallucination spans of one response.
pub const MAX_LABELS: usize = 1_000;

/// One source as read.
#[derive(Debug, Clone, PartialEq)]
pub struct RagSource {
    /// The question (QA), else "".
    pub question: String,
    /// The text given to the pipeline.
    pub content: String,
}

/// One response as read.
#[derive(Debug, Clone, PartialEq)]
pub struct RagResponse {
    /// `id`.
    pub id: String,
    /// `source_id`.
    pub source_id: String,
    /// The response.
    pub response: String,
    /// The hallucination spans, code points `[start, end)`.
    pub spans: Vec<(usize, usize)>,
}

/// Reads `source_info.jsonl`, by `source_id`.
///
/// # Errors
/// VALIDATION_ERROR naming the line and field of a missing or mistyped
/// field, an unknown task type, or a `source_id` used twice.
pub fn read_sources(text: &str, file: &str, deadline: &Deadline) -> Result<BTreeMap<String, RagSource>> {
    let mut out = BTreeMap::new();
    for (line, o) in jsonl_objects(text, file, deadline)? {
        let (id, source) = source(&o).map_err(|e| on_line(e, file, line))?;
        if out.insert(id.clone(), source).is_some() {
            return Err(on_line(
                Error::invalid_input(
                    &JsonPath::root().key("source_id"),
                    "uniqueItems",
                    format!("source_id {id:?} is used twice"),
                ),
                file,
                line,
            ));
        }
    }
    Ok(out)
}

fn source(o: &Map<String, Value>) -> Result<(String, RagSource)> {
    let root = JsonPath::root();
    let id = id(o, "source_id")?;
    let info_at = root.key("source_info");
    let info = o.get("source_info");
    let source = match string(o, "task_type")? {
        "QA" => {
            let q = info
                .and_then(Value::as_object)
                .ok_or_else(|| Error::invalid_input(&info_at, "type", "a QA source_info is {question, passages}"))?;
            let field = |k: &str| {
                string(q, k).map_err(|_| {
                    Error::invalid_input(&info_at.key(k), "type", format!("{k} is required and must be a string"))
                })
            };
            RagSource { question: field("question")?.to_string(), content: field("passages")?.to_string() }
        }
        "Summary" => match info {
            Some(Value::String(s)) => RagSource { question: String::new(), content: s.clone() },
            _ => return Err(Error::invalid_input(&info_at, "type", "a Summary source_info is the text (a string)")),
        },
        "Data2txt" => match info {
            Some(v @ Value::Object(_)) => {
                RagSource { question: String::new(), content: serde_json::to_string_pretty(v).unwrap_or_default() }
            }
            _ => return Err(Error::invalid_input(&info_at, "type", "a Data2txt source_info is an object")),
        },
        other => {
            return Err(Error::invalid_input(
                &root.key("task_type"),
                "enum",
                format!("unknown task_type {other:?}; RAGTruth's are QA, Summary, Data2txt"),
            ))
        }
    };
    Ok((id, source))
}

/// Reads `response.jsonl`.
///
/// # Errors
/// VALIDATION_ERROR naming the line and field (`$.labels[2].text`) of a
/// missing or mistyped field, a span outside the response, or a span whose
/// `text` is not the response's text at `[start, end)`.
pub fn read_responses(text: &str, file: &str, deadline: &Deadline) -> Result<Vec<RagResponse>> {
    jsonl_objects(text, file, deadline)?
        .into_iter()
        .map(|(line, o)| response(&o).map_err(|e| on_line(e, file, line)))
        .collect()
}

fn response(o: &Map<String, Value>) -> Result<RagResponse> {
    let root = JsonPath::root();
    let response = string(o, "response")?.to_string();
    within_text_limit(&response, &root.key("response"))?;
    let at = root.key("labels");
    let labels = list(o, "labels", &at)?;
    if labels.len() > MAX_LABELS {
        return Err(Error::invalid_input(&at, "maxItems", format!("more than {MAX_LABELS} labels")));
    }
    let chars: Vec<char> = response.chars().collect();
    let mut spans = Vec::with_capacity(labels.len());
    for (i, l) in labels.iter().enumerate() {
        let here = at.index(i);
        let l = l.as_object().ok_or_else(|| Error::invalid_input(&here, "type", "a label is an object"))?;
        let offset = |k: &str| {
            l.get(k).and_then(Value::as_u64).map(|n| n as usize).ok_or_else(|| {
                Error::invalid_input(&here.key(k), "type", format!("{k} is required and must be a whole number"))
            })
        };
        let (start, end) = (offset("start")?, offset("end")?);
        if start > end || end > chars.len() {
            return Err(Error::invalid_input(
                &here.key("end"),
                "range",
                format!("[{start}, {end}) is not within the response's {} characters", chars.len()),
            ));
        }
        let text = string(l, "text")
            .map_err(|_| Error::invalid_input(&here.key("text"), "type", "text is required and must be a string"))?;
        let expected: String = chars.iter().skip(start).take(end - start).collect();
        if text != expected {
            return Err(Error::invalid_input(
                &here.key("text"),
                "const",
                format!("text {text:?} is not the response at [{start}, {end}): {expected:?}"),
            ));
        }
        string(l, "label_type").map_err(|_| {
            Error::invalid_input(&here.key("label_type"), "type", "label_type is required and must be a string")
        })?;
        spans.push((start, end));
    }
    Ok(RagResponse { id: id(o, "id")?, source_id: id(o, "source_id")?, response, spans })
}

/// One [`Case`] per response.
///
/// # Errors
/// VALIDATION_ERROR naming the response whose `source_id` is in no line of
/// the sources; PROCESSING_ERROR when the deadline passes.
pub fn cases(
    responses: &[RagResponse],
    sources: &BTreeMap<String, RagSource>,
    deadline: &Deadline,
) -> Result<Vec<Case>> {
    let mut out = Vec::with_capacity(responses.len());
    for r in responses {
        if deadline.expired() {
            return Err(timeout());
        }
        let s = sources.get(&r.source_id).ok_or_else(|| {
            Error::new(
                ErrorKind::Validation,
                format!("response {}: source_id {:?} is in no line of the sources file", r.id, r.source_id),
            )
        })?;
        let mut claims = Vec::new();
        let mut gold = Vec::new();
        for (text, start, end) in sentences(&r.response) {
            let grounded = !r.spans.iter().any(|(a, b)| *a < end && start < *b);
            claims.push(Claim { text, citations: vec![r.source_id.clone()], verdict: None });
            gold.push(ClaimGold { grounded: Some(grounded), ..ClaimGold::default() });
        }
        let query = if s.question.is_empty() { r.response.clone() } else { s.question.clone() };
        let source =
            Source { id: r.source_id.clone(), title: String::new(), url: String::new(), content: s.content.clone() };
        out.push(Case { input: CiteInput { query, sources: vec![source], claims }, gold, evidence: Vec::new() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_mark_the_sentences_they_touch() {
        // "é" (2 bytes) and the emoji (4 bytes, 2 UTF-16 units) are one code
        // point each: "2015" is [18, 22), in the second sentence
        let r = r#"{"id": "1", "source_id": "s", "model": "m", "temperature": 0.7, "split": "test", "quality": "good",
            "response": "Café 😀 opened. In 2015 it had 5 seats.",
            "labels": [{"start": 18, "end": 22, "text": "2015", "meta": "", "label_type": "Evident Conflict", "implicit_true": false, "due_to_null": false}]}"#;
        let r = r.replace('\n', " ");
        let s = r#"{"source_id": "s", "task_type": "QA", "source": "MARCO", "source_info": {"question": "When?", "passages": "passage 1: It opened in 2014."}, "prompt": "p"}"#;
        let responses = read_responses(&r, "r.jsonl", &Deadline::never()).unwrap();
        assert_eq!(responses[0].spans, [(18, 22)]);
        let sources = read_sources(s, "s.jsonl", &Deadline::never()).unwrap();
        let cases = cases(&responses, &sources, &Deadline::never()).unwrap();
        let c = &cases[0];
        assert_eq!(c.input.query, "When?");
        assert_eq!(c.input.claims.len(), 2);
        assert_eq!(c.gold[0].grounded, Some(true));
        assert_eq!(c.gold[1].grounded, Some(false));
        assert_eq!(c.input.claims[1].citations, ["s"]);
    }

    #[test]
    fn malformed_lines_name_line_and_field() {
        let good = r#"{"id": "1", "source_id": "s", "response": "Abc def.", "labels": []}"#;
        for (line, path) in [
            (r#"{"id": "2", "source_id": "s", "labels": []}"#, "$.response"),
            (r#"{"id": "2", "source_id": "s", "response": "Abc.", "labels": {}}"#, "$.labels"),
            (
                r#"{"id": "2", "source_id": "s", "response": "Abc.", "labels": [{"start": 0, "end": 9, "text": "x", "label_type": "t"}]}"#,
                "$.labels[0].end",
            ),
            (
                r#"{"id": "2", "source_id": "s", "response": "Abc.", "labels": [{"start": 0, "end": 2, "text": "Ab ", "label_type": "t"}]}"#,
                "$.labels[0].text",
            ),
            (
                r#"{"id": "2", "source_id": "s", "response": "Abc.", "labels": [{"start": "0", "end": 2, "text": "Ab", "label_type": "t"}]}"#,
                "$.labels[0].start",
            ),
            (
                r#"{"id": "2", "source_id": "s", "response": "Abc.", "labels": [{"start": 0, "end": 2, "text": "Ab"}]}"#,
                "$.labels[0].label_type",
            ),
            (r#"{"id": "2", "response": "Abc.", "labels": []}"#, "$.source_id"),
        ] {
            let e = read_responses(&format!("{good}\n{line}"), "r.jsonl", &Deadline::never()).unwrap_err();
            assert_eq!(e.code(), "VALIDATION_ERROR", "{line}");
            assert_eq!(e.details()["line"], 2, "{line}");
            assert_eq!(e.details()["json_path"], path, "{line}: {}", e.message());
        }
        for (line, path) in [
            (r#"{"source_id": "s", "task_type": "QA", "source_info": "text"}"#, "$.source_info"),
            (r#"{"source_id": "s", "task_type": "QA", "source_info": {"question": "q"}}"#, "$.source_info.passages"),
            (r#"{"source_id": "s", "task_type": "Summary", "source_info": {}}"#, "$.source_info"),
            (r#"{"source_id": "s", "task_type": "Poem", "source_info": "x"}"#, "$.task_type"),
            (r#"{"source_id": "t", "task_type": "Summary", "source_info": "x"}"#, "$.source_id"),
        ] {
            let text = format!("{}\n{line}", r#"{"source_id": "t", "task_type": "Summary", "source_info": "x"}"#);
            let e = read_sources(&text, "s.jsonl", &Deadline::never()).unwrap_err();
            assert_eq!(e.details()["line"], 2, "{line}");
            assert_eq!(e.details()["json_path"], path, "{line}: {}", e.message());
        }
        let responses = read_responses(good, "r.jsonl", &Deadline::never()).unwrap();
        let e = cases(&responses, &BTreeMap::new(), &Deadline::never()).unwrap_err();
        assert!(e.message().contains("source_id \"s\" is in no line"), "{}", e.message());
    }
}
