//! ALCE (Gao et al., EMNLP 2023) as github.com/princeton-nlp/ALCE
//! publishes it: a data file (`data/asqa_eval_gtr_top100.json`,
//! `qampari_eval_…`, `eli5_eval_bm25_top100.json`: a JSON list of
//! questions) or a result file of its `run.py` (`{"args": …, "data": […]}`,
//! each question with the model's `output`).
//!
//! Read per question: `question`; `docs`, each `{title, text}` (and its
//! `answers_found`, a list of 0/1 per short answer, when there); `output`
//! when there. Ignored: `answer`/`answers`/`qa_pairs`/`claims` (the
//! reference answers ALCE's correctness metrics read through a QA or NLI
//! model; none runs here), `annotations`, `wikipages`, `sample_id`, `id`,
//! `args`, and each doc's `id`, `score`, `summary`, `extraction`.
//!
//! Each question is one [`Case`]: the query is the question; the sources
//! are the docs, with ids `1`, `2`, … as ALCE numbers them in its prompts;
//! stage 1's gold is the docs with an answer found. The claims are the
//! sentences of `output` (none without one); a claim's citations are its
//! `[n]` marks (`[1][2]` names 1 and 2, as ALCE's `eval.py` reads it;
//! `[1, 2]`, which `eval.py` reads as 1, names both here), removed from its
//! text. Those citations are taken as correct
//! (the spec's synthetic error injection, §7.3.5); the pipeline gets them
//! with the first citation of 3 claims in 10 replaced by the next doc.

use super::{
    list, prefixed, sentences, timeout, within_text_limit, Case, ClaimGold, GoldEvidence, CORRUPTED_PER_TEN,
    MAX_EVAL_ITEMS,
};
use crate::cite::config::{MAX_CLAIMS, MAX_SOURCES};
use crate::cite::{CiteInput, Claim, Source};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use serde_json::{Map, Value};

/// Reads an ALCE data or result file (its text) into cases.
///
/// # Errors
/// VALIDATION_ERROR naming the JSON path (`$[3].docs[0].text`, or
/// `$.data[3]…` in a result file) of a missing or mistyped field, more
/// than [`MAX_EVAL_ITEMS`] questions, more docs or claims than the
/// pipeline takes; PROCESSING_ERROR when the deadline passes.
pub fn read(text: &str, file: &str, deadline: &Deadline) -> Result<Vec<Case>> {
    let value = crate::json::parse(text, ErrorKind::Validation, file)?;
    let with_details = |e: Error| prefixed(e, file);
    let (items, at) = match &value {
        Value::Array(a) => (a, JsonPath::root()),
        Value::Object(o) => match o.get("data") {
            Some(Value::Array(a)) => (a, JsonPath::root().key("data")),
            _ => {
                return Err(with_details(Error::invalid_input(
                    &JsonPath::root().key("data"),
                    "type",
                    "a result file holds its questions in data (a list)",
                )))
            }
        },
        _ => {
            return Err(with_details(Error::invalid_input(
                &JsonPath::root(),
                "type",
                "an ALCE file is a list of questions (or a result file {args, data})",
            )))
        }
    };
    if items.len() > MAX_EVAL_ITEMS {
        return Err(with_details(Error::invalid_input(
            &at,
            "maxItems",
            format!("{} questions, more than {MAX_EVAL_ITEMS}", items.len()),
        )));
    }
    let mut cited_claims = 0usize;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if deadline.expired() {
            return Err(timeout());
        }
        out.push(case(item, &at.index(i), &mut cited_claims).map_err(with_details)?);
    }
    Ok(out)
}

fn case(item: &Value, at: &JsonPath, cited_claims: &mut usize) -> Result<Case> {
    let o = item.as_object().ok_or_else(|| Error::invalid_input(at, "type", "a question is an object"))?;
    let question = text(o, "question", at)?;
    let docs_at = at.key("docs");
    let docs = list(o, "docs", &docs_at)?;
    if docs.len() > MAX_SOURCES {
        return Err(Error::invalid_input(&docs_at, "maxItems", format!("more than {MAX_SOURCES} docs")));
    }
    let mut sources = Vec::with_capacity(docs.len());
    let mut evidence = Vec::new();
    for (n, d) in docs.iter().enumerate() {
        let here = docs_at.index(n);
        let d = d.as_object().ok_or_else(|| Error::invalid_input(&here, "type", "a doc is an object"))?;
        let id = (n + 1).to_string();
        if let Some(found) = d.get("answers_found") {
            let list = found.as_array().ok_or_else(|| {
                Error::invalid_input(&here.key("answers_found"), "type", "answers_found is a list of 0/1")
            })?;
            let mut any = false;
            for (k, f) in list.iter().enumerate() {
                let f = f.as_f64().ok_or_else(|| {
                    Error::invalid_input(&here.key("answers_found").index(k), "type", "must be a number (0 or 1)")
                })?;
                any |= f > 0.0;
            }
            if any {
                evidence.push(GoldEvidence { source_id: id.clone(), range: None });
            }
        }
        sources.push(Source {
            title: text(d, "title", &here)?,
            url: String::new(),
            content: text(d, "text", &here)?,
            id,
        });
    }
    let mut claims = Vec::new();
    let mut gold = Vec::new();
    match o.get("output") {
        None | Some(Value::Null) => {}
        Some(Value::String(output)) => {
            for (sentence, _, _) in sentences(output) {
                let (claim, cites) = citations(&sentence);
                if claim.trim().is_empty() {
                    continue;
                }
                let mut given = cites.clone();
                let mut corrupted = false;
                if !cites.is_empty() {
                    if *cited_claims % 10 < CORRUPTED_PER_TEN {
                        if let (Some(wrong), Some(first)) = (corrupt(&cites, sources.len()), given.first_mut()) {
                            *first = wrong;
                            corrupted = true;
                        }
                    }
                    *cited_claims += 1;
                }
                claims.push(Claim { text: claim, citations: given, verdict: None });
                gold.push(ClaimGold { citations: Some(cites), corrupted, ..ClaimGold::default() });
            }
        }
        Some(_) => return Err(Error::invalid_input(&at.key("output"), "type", "output must be a string")),
    }
    if claims.len() > MAX_CLAIMS {
        return Err(Error::invalid_input(&at.key("output"), "maxItems", format!("more than {MAX_CLAIMS} sentences")));
    }
    Ok(Case { input: CiteInput { query: question, sources, claims }, gold, evidence })
}

/// A required string of at most [`crate::cite::config::MAX_TEXT_CHARS`]
/// characters (a doc's text: any length).
fn text(o: &Map<String, Value>, key: &str, at: &JsonPath) -> Result<String> {
    let s = o
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_input(&at.key(key), "type", format!("{key} is required and must be a string")))?;
    if key != "text" {
        within_text_limit(s, &at.key(key))?;
    }
    Ok(s.to_string())
}

/// A sentence without its citation marks, and the doc numbers they name
/// (distinct, in order): `[digits]` or `[digits, digits, …]`; other
/// brackets are text.
fn citations(sentence: &str) -> (String, Vec<String>) {
    let mut cites: Vec<String> = Vec::new();
    let mut text = String::with_capacity(sentence.len());
    let mut rest = sentence;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']');
        let inner = close.map(|c| &after[..c]);
        // a mark: [digits(, digits)*]
        let is_mark = inner.is_some_and(|s| {
            !s.is_empty() && s.split(',').all(|p| !p.trim().is_empty() && p.trim().bytes().all(|b| b.is_ascii_digit()))
        });
        match (is_mark, inner, close) {
            (true, Some(inner), Some(c)) => {
                text.push_str(rest[..open].trim_end());
                for p in inner.split(',') {
                    let n = p.trim().trim_start_matches('0');
                    let n = if n.is_empty() { "0" } else { n };
                    if !cites.iter().any(|x| x == n) {
                        cites.push(n.to_string());
                    }
                }
                rest = &after[c + 1..];
            }
            _ => {
                text.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    (text, cites)
}

/// The first citation replaced by the next doc (1-based, wrapping) the
/// claim does not cite; `None` when there is none.
fn corrupt(cites: &[String], docs: usize) -> Option<String> {
    let first: usize = cites.first()?.parse().ok().filter(|n| (1..=docs).contains(n))?;
    (1..docs).map(|k| (first - 1 + k) % docs + 1).map(|n| n.to_string()).find(|n| !cites.contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn citation_marks_are_read_as_alce_reads_them() {
        assert_eq!(
            citations("Paris was signed in 1783 [2][1]."),
            ("Paris was signed in 1783.".to_string(), vec!["2".to_string(), "1".to_string()])
        );
        assert_eq!(citations("A [1, 3] b [x] c [] d."), ("A b [x] c [] d.".to_string(), vec!["1".into(), "3".into()]));
        assert_eq!(citations("No marks — “quoted”."), ("No marks — “quoted”.".to_string(), vec![]));
        assert_eq!(corrupt(&["3".into()], 3), Some("1".into()), "wraps");
        assert_eq!(corrupt(&["1".into(), "2".into()], 2), None, "cites every doc");
        assert_eq!(corrupt(&["9".into()], 3), None, "out of range: left alone");
    }

    #[test]
    fn every_third_of_ten_cited_claims_is_corrupted() {
        let docs: Vec<Value> = (0..4).map(|i| json!({"title": format!("T{i}"), "text": "x"})).collect();
        let output = (0..12).map(|i| format!("Claim {i} [{}].", i % 4 + 1)).collect::<Vec<_>>().join(" ");
        let file = json!([{"question": "q?", "docs": docs, "output": output}]);
        let cases = read(&file.to_string(), "a.json", &Deadline::never()).unwrap();
        let gold = &cases[0].gold;
        assert_eq!(gold.len(), 12);
        let corrupted: Vec<usize> = (0..12).filter(|i| gold[*i].corrupted).collect();
        assert_eq!(corrupted, [0, 1, 2, 10, 11]);
        // claim 1 cites doc 2; the pipeline gets doc 3
        assert_eq!(gold[1].citations.as_deref(), Some(&["2".to_string()][..]));
        assert_eq!(cases[0].input.claims[1].citations, ["3"]);
        assert_eq!(cases[0].input.claims[1].text, "Claim 1.");
    }

    #[test]
    fn malformed_files_name_the_path() {
        for (file, path) in [
            (json!("a question"), "$"),
            (json!({"question": "q"}), "$.data"),
            (json!([{"docs": []}]), "$[0].question"),
            (json!([{"question": "q", "docs": [{"title": "t"}]}]), "$[0].docs[0].text"),
            (
                json!([{"question": "q", "docs": [{"title": "t", "text": "x", "answers_found": [1, "y"]}]}]),
                "$[0].docs[0].answers_found[1]",
            ),
            (json!([{"question": "q", "docs": [], "output": ["x"]}]), "$[0].output"),
            (json!({"args": {}, "data": [{"question": "q", "docs": {}}]}), "$.data[0].docs"),
            (json!({"args": {}}), "$.data"),
        ] {
            let e = read(&file.to_string(), "a.json", &Deadline::never()).unwrap_err();
            assert_eq!(e.code(), "VALIDATION_ERROR", "{file}");
            assert_eq!(e.details()["json_path"], path, "{file}: {}", e.message());
            assert!(e.message().starts_with("a.json: "), "{}", e.message());
        }
    }
}
