//! FEVER 1.0 (Thorne et al., NAACL 2018) as fever.ai publishes it.
//!
//! Claims (`train.jsonl`, `shared_task_dev.jsonl`, `paper_dev.jsonl`, …),
//! one JSON object a line. Read: `id` (number or string, for messages),
//! `label` (`SUPPORTS`, `REFUTES`, `NOT ENOUGH INFO`), `claim`, and
//! `evidence`: a list of evidence sets, each a list of
//! `[annotation_id, evidence_id, wiki_page, sentence_id]`; for NOT ENOUGH
//! INFO page and sentence are `null` (items given without their sets, as
//! the spec's §7.2.2 example writes them, are read as one set each).
//! Hugging Face's `fever` rows (`evidence_wiki_url`, one row per evidence
//! item) are another format, not read here. Ignored: `verifiable`, the two
//! annotation ids, any other key. A line without a label (the unlabelled
//! test split) is refused: there is nothing to score against.
//!
//! Pages (`wiki-pages/wiki-NNN.jsonl`): `{id, text, lines}`, where `lines`
//! holds one sentence a line as `sentence_id<TAB>sentence<TAB>links…`.
//! Read: `id` and `lines` of the pages some claim names; `text` and the
//! link columns are ignored, and so are the pages no claim names (their
//! lines are not parsed: the dump has 5.4 million). Sentences keep FEVER's
//! tokenization except its bracket escapes (`-LRB-` → `(`, …, `-COLON-` →
//! `:`), which are undone in sentences and titles.
//!
//! Each claim is one [`Case`]: the query is the claim; the sources are the
//! pages its evidence names (a page's content is its non-empty sentences,
//! one a line); the claim cites them all; stage 1's gold is the evidence
//! sentences. FEVER gives NOT ENOUGH INFO claims no pages: they reach the
//! pipeline with no source, so the proxy says NEI for them by construction
//! (the report counts them; read the verdict metrics with that in mind).

use super::{
    id, jsonl_objects, list, on_line, string, timeout, within_text_limit, Case, ClaimGold, GoldEvidence, Label,
};
use crate::cite::{CiteInput, Claim, Source};
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Most bytes of page content kept for one run (the pages the claims name).
pub const MAX_PAGE_BYTES: usize = 512 << 20;
/// Most pages one claim's evidence names.
pub const MAX_PAGES_PER_CLAIM: usize = 100;

/// One claim as read.
#[derive(Debug, Clone, PartialEq)]
pub struct FeverClaim {
    /// The line's `id`, as text.
    pub id: String,
    /// Its label.
    pub label: Label,
    /// The claim.
    pub claim: String,
    /// The distinct `(page, sentence_id)` of all its evidence sets, in order.
    pub evidence: Vec<(String, u64)>,
}

/// Reads a claims file.
///
/// # Errors
/// VALIDATION_ERROR naming the line and the field (`$.evidence[0][1][2]`)
/// of a missing or mistyped field, an unknown label, a page without a
/// sentence (or the reverse), more than [`super::MAX_EVAL_ITEMS`] lines.
pub fn read_claims(text: &str, file: &str, deadline: &Deadline) -> Result<Vec<FeverClaim>> {
    jsonl_objects(text, file, deadline)?
        .into_iter()
        .map(|(line, o)| claim(&o).map_err(|e| on_line(e, file, line)))
        .collect()
}

fn claim(o: &Map<String, Value>) -> Result<FeverClaim> {
    let root = JsonPath::root();
    let id = id(o, "id")?;
    let label = match string(o, "label")? {
        "SUPPORTS" => Label::Supports,
        "REFUTES" => Label::Refutes,
        "NOT ENOUGH INFO" => Label::NotEnoughInfo,
        other => {
            return Err(Error::invalid_input(
                &root.key("label"),
                "enum",
                format!("unknown label {other:?}; FEVER's are SUPPORTS, REFUTES, NOT ENOUGH INFO"),
            ))
        }
    };
    let claim = string(o, "claim")?.to_string();
    if claim.trim().is_empty() {
        return Err(Error::invalid_input(&root.key("claim"), "minLength", "claim is empty"));
    }
    within_text_limit(&claim, &root.key("claim"))?;
    let at = root.key("evidence");
    let sets = list(o, "evidence", &at)?;
    let mut evidence: Vec<(String, u64)> = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let set_at = at.index(i);
        let items = set.as_array().ok_or_else(|| Error::invalid_input(&set_at, "type", "an evidence set is a list"))?;
        // the spec's §7.2.2 example writes the items without their sets
        let flat = items.first().is_some_and(|x| !x.is_array());
        let items = if flat { std::slice::from_ref(set) } else { items.as_slice() };
        for (j, item) in items.iter().enumerate() {
            let item_at = if flat { set_at.clone() } else { set_at.index(j) };
            let parts = item.as_array().and_then(|p| <&[Value; 4]>::try_from(p.as_slice()).ok()).ok_or_else(|| {
                Error::invalid_input(
                    &item_at,
                    "type",
                    "evidence is [annotation_id, evidence_id, wiki_page, sentence_id]",
                )
            })?;
            let [_, _, page, sentence] = parts;
            match (page, sentence) {
                (Value::Null, Value::Null) => {}
                (Value::String(page), Value::Number(n)) if n.is_u64() && !page.is_empty() => {
                    let pair = (page.clone(), n.as_u64().unwrap_or(0));
                    if !evidence.contains(&pair) {
                        evidence.push(pair);
                    }
                }
                (Value::String(p), _) if !p.is_empty() => {
                    return Err(Error::invalid_input(
                        &item_at.index(3),
                        "type",
                        "sentence_id must be a whole number when wiki_page is given",
                    ))
                }
                _ => {
                    return Err(Error::invalid_input(
                        &item_at.index(2),
                        "type",
                        "wiki_page must be a page id (with sentence_id), or both null",
                    ))
                }
            }
        }
    }
    if label != Label::NotEnoughInfo && evidence.is_empty() {
        return Err(Error::invalid_input(&at, "minItems", format!("a {} claim names no evidence", label.name())));
    }
    let pages: BTreeSet<&str> = evidence.iter().map(|(p, _)| p.as_str()).collect();
    if pages.len() > MAX_PAGES_PER_CLAIM {
        return Err(Error::invalid_input(
            &at,
            "maxItems",
            format!("the evidence names {} pages, more than {MAX_PAGES_PER_CLAIM}", pages.len()),
        ));
    }
    Ok(FeverClaim { id, label, claim, evidence })
}

/// A page's sentences: its content (one sentence a line) and each
/// sentence's code point range in it.
#[derive(Debug, Clone, PartialEq)]
struct Page {
    content: String,
    sentences: BTreeMap<u64, (usize, usize)>,
}

/// The pages the claims name, collected from wiki-pages lines.
#[derive(Debug)]
pub struct WikiPages {
    wanted: BTreeSet<String>,
    pages: BTreeMap<String, Page>,
    bytes: usize,
}

impl WikiPages {
    /// Collects the pages `claims` name.
    pub fn new(claims: &[FeverClaim]) -> WikiPages {
        let wanted = claims.iter().flat_map(|c| c.evidence.iter().map(|(p, _)| p.clone())).collect();
        WikiPages { wanted, pages: BTreeMap::new(), bytes: 0 }
    }

    /// Pages still missing.
    pub fn missing(&self) -> usize {
        self.wanted.len() - self.pages.len()
    }

    /// Reads line `line` (1-based) of the pages file `file`; a page no claim
    /// names is skipped unparsed.
    ///
    /// # Errors
    /// VALIDATION_ERROR naming the file, line and field of a wanted page's
    /// bad JSON, missing `id` or `lines`, or a sentence line not starting
    /// with its number; when the kept pages pass [`MAX_PAGE_BYTES`];
    /// PROCESSING_ERROR when the deadline has passed.
    pub fn add_line(&mut self, file: &str, line: usize, text: &str, deadline: &Deadline) -> Result<()> {
        if deadline.expired() {
            return Err(timeout());
        }
        if text.trim().is_empty() {
            return Ok(());
        }
        if let Some(id) = quick_id(text) {
            if !self.wanted.contains(id) || self.pages.contains_key(id) {
                return Ok(());
            }
        }
        let value = crate::json::parse(text, ErrorKind::Validation, &format!("{file} line {line}"))
            .map_err(|e| e.with_detail("line", Value::from(line)))?;
        let page = (|| {
            let o = value
                .as_object()
                .ok_or_else(|| Error::invalid_input(&JsonPath::root(), "type", "a line must be a JSON object"))?;
            let id = string(o, "id")?;
            if !self.wanted.contains(id) || self.pages.contains_key(id) {
                return Ok(None);
            }
            Ok(Some((id.to_string(), page(string(o, "lines")?)?)))
        })()
        .map_err(|e| on_line(e, file, line))?;
        if let Some((id, page)) = page {
            self.bytes += page.content.len();
            if self.bytes > MAX_PAGE_BYTES {
                return Err(Error::new(
                    ErrorKind::Validation,
                    format!("the pages the claims name pass {MAX_PAGE_BYTES} bytes together (at {file} line {line})"),
                ));
            }
            self.pages.insert(id, page);
        }
        Ok(())
    }

    /// One [`Case`] per claim.
    ///
    /// # Errors
    /// VALIDATION_ERROR naming the claim of a page not found in the pages
    /// files or a sentence id the page does not have; PROCESSING_ERROR when
    /// the deadline passes.
    pub fn cases(&self, claims: &[FeverClaim], deadline: &Deadline) -> Result<Vec<Case>> {
        let mut out = Vec::with_capacity(claims.len());
        for c in claims {
            if deadline.expired() {
                return Err(timeout());
            }
            let mut sources: Vec<Source> = Vec::new();
            let mut evidence = Vec::with_capacity(c.evidence.len());
            for (page_id, sentence) in &c.evidence {
                let page = self.pages.get(page_id).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Validation,
                        format!("claim {}: page {page_id:?} is in none of the pages files", c.id),
                    )
                    .with_detail("page", Value::from(page_id.as_str()))
                })?;
                let range = page.sentences.get(sentence).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Validation,
                        format!("claim {}: page {page_id:?} has no sentence {sentence}", c.id),
                    )
                    .with_detail("page", Value::from(page_id.as_str()))
                })?;
                if !sources.iter().any(|s| &s.id == page_id) {
                    sources.push(Source {
                        id: page_id.clone(),
                        title: unescape(&page_id.replace('_', " ")),
                        url: String::new(),
                        content: page.content.clone(),
                    });
                }
                evidence.push(GoldEvidence { source_id: page_id.clone(), range: Some(*range) });
            }
            let citations = sources.iter().map(|s| s.id.clone()).collect();
            out.push(Case {
                input: CiteInput {
                    query: c.claim.clone(),
                    sources,
                    claims: vec![Claim { text: c.claim.clone(), citations, verdict: None }],
                },
                gold: vec![ClaimGold { label: Some(c.label), ..ClaimGold::default() }],
                evidence,
            });
        }
        Ok(out)
    }
}

/// The `"id"` of a wiki-pages line without parsing it, when it is written
/// plainly (`{"id": "Page_title", …`); `None` when unsure.
fn quick_id(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("{\"id\": \"")?;
    let id = &rest[..rest.find('"')?];
    (!id.contains('\\')).then_some(id)
}

/// A page's `lines` field: its sentences by number.
fn page(lines: &str) -> Result<Page> {
    let mut content = String::new();
    let mut chars = 0usize;
    let mut sentences = BTreeMap::new();
    for (n, row) in lines.split('\n').enumerate() {
        if row.is_empty() {
            continue;
        }
        let mut cols = row.split('\t');
        let number = cols.next().and_then(|c| c.parse::<u64>().ok()).ok_or_else(|| {
            Error::invalid_input(
                &JsonPath::root().key("lines"),
                "format",
                format!("row {n} of lines does not start with its sentence number and a tab"),
            )
        })?;
        let sentence = unescape(cols.next().unwrap_or("").trim());
        if sentence.is_empty() {
            continue;
        }
        if !content.is_empty() {
            content.push('\n');
            chars += 1;
        }
        let len = sentence.chars().count();
        sentences.insert(number, (chars, chars + len));
        content.push_str(&sentence);
        chars += len;
    }
    Ok(Page { content, sentences })
}

/// FEVER's (Penn Treebank) bracket and colon escapes undone.
fn unescape(s: &str) -> String {
    const ESCAPES: [(&str, &str); 7] = [
        ("-LRB-", "("),
        ("-RRB-", ")"),
        ("-LSB-", "["),
        ("-RSB-", "]"),
        ("-LCB-", "{"),
        ("-RCB-", "}"),
        ("-COLON-", ":"),
    ];
    ESCAPES.iter().fold(s.to_string(), |acc, (from, to)| acc.replace(from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAIMS: &str = r#"{"id": 1, "verifiable": "VERIFIABLE", "label": "SUPPORTS", "claim": "A is B.", "evidence": [[[10, 20, "Page_-LRB-x-RRB-", 1]], [[11, 21, "Page_-LRB-x-RRB-", 1], [11, 22, "Other", 0]]]}
{"id": 2, "verifiable": "NOT VERIFIABLE", "label": "NOT ENOUGH INFO", "claim": "C is D.", "evidence": [[[12, null, null, null]]]}"#;

    #[test]
    fn claims_and_pages_make_cases() {
        let claims = read_claims(CLAIMS, "c.jsonl", &Deadline::never()).unwrap();
        assert_eq!(claims[0].evidence, [("Page_-LRB-x-RRB-".to_string(), 1), ("Other".to_string(), 0)]);
        assert_eq!(claims[1].label, Label::NotEnoughInfo);
        assert!(claims[1].evidence.is_empty());
        let mut pages = WikiPages::new(&claims);
        assert_eq!(pages.missing(), 2);
        for (n, line) in [
            r#"{"id": "", "text": "", "lines": ""}"#,
            r#"{"id": "Unwanted", "text": "x", "lines": "not even parsed"}"#,
            "{\"id\": \"Page_-LRB-x-RRB-\", \"text\": \"\", \"lines\": \"0\\tFirst -LRB-one-RRB- .\\tlink\\n1\\tCafé 😀 is here .\\n2\\t\"}",
            "{\"id\": \"Other\", \"text\": \"\", \"lines\": \"0\\tOther page .\"}",
        ]
        .iter()
        .enumerate()
        {
            pages.add_line("p.jsonl", n + 1, line, &Deadline::never()).unwrap();
        }
        assert_eq!(pages.missing(), 0);
        let cases = pages.cases(&claims, &Deadline::never()).unwrap();
        let a = &cases[0];
        assert_eq!(a.input.sources[0].title, "Page (x)");
        assert_eq!(a.input.sources[0].content, "First (one) .\nCafé 😀 is here .");
        // sentence 1 starts after "First (one) ." (13 code points) and the
        // newline; "Café 😀 is here ." is 16 code points (é and 😀 one each)
        assert_eq!(a.evidence[0].range, Some((14, 14 + 16)));
        assert_eq!(a.input.claims[0].citations, ["Page_-LRB-x-RRB-", "Other"]);
        assert!(cases[1].input.sources.is_empty() && cases[1].evidence.is_empty());
        // the spec's flat form: each item its own set
        let flat = r#"{"id": 3, "label": "SUPPORTS", "claim": "A.", "evidence": [[null, null, "Other", 0], [null, null, "P", 2]]}"#;
        let c = read_claims(flat, "c.jsonl", &Deadline::never()).unwrap();
        assert_eq!(c[0].evidence, [("Other".to_string(), 0), ("P".to_string(), 2)]);
    }

    #[test]
    fn malformed_claims_name_line_and_field() {
        let ok = r#"{"id": 1, "label": "SUPPORTS", "claim": "A.", "evidence": [[[1, 2, "P", 0]]]}"#;
        for (line, path) in [
            (r#"{"id": 1, "label": "MAYBE", "claim": "A.", "evidence": []}"#, "$.label"),
            (r#"{"id": 1, "claim": "A.", "evidence": []}"#, "$.label"),
            (r#"{"id": 1, "label": "SUPPORTS", "claim": 5, "evidence": []}"#, "$.claim"),
            (
                r#"{"id": 1, "label": "SUPPORTS", "claim": "A.", "evidence": [[[1, 2, "P", "0"]]]}"#,
                "$.evidence[0][0][3]",
            ),
            (r#"{"id": 1, "label": "SUPPORTS", "claim": "A.", "evidence": [[[1, 2, "P"]]]}"#, "$.evidence[0][0]"),
            (
                r#"{"id": 1, "label": "SUPPORTS", "claim": "A.", "evidence": [[[1, 2, null, 0]]]}"#,
                "$.evidence[0][0][2]",
            ),
            (r#"{"id": 1, "label": "SUPPORTS", "claim": "A.", "evidence": [[[1, null, null, null]]]}"#, "$.evidence"),
            (r#"{"id": [1], "label": "SUPPORTS", "claim": "A.", "evidence": []}"#, "$.id"),
        ] {
            let text = format!("{ok}\n{line}\n");
            let e = read_claims(&text, "c.jsonl", &Deadline::never()).unwrap_err();
            assert_eq!(e.code(), "VALIDATION_ERROR", "{line}");
            assert_eq!(e.details()["line"], 2, "{line}");
            assert_eq!(e.details()["json_path"], path, "{line}: {}", e.message());
            assert!(e.message().starts_with("c.jsonl line 2: "), "{}", e.message());
        }
        // a page that is missing, a sentence the page lacks, a bad lines row
        let claims = read_claims(ok, "c.jsonl", &Deadline::never()).unwrap();
        let pages = WikiPages::new(&claims);
        let e = pages.cases(&claims, &Deadline::never()).unwrap_err();
        assert!(e.message().contains("page \"P\" is in none of the pages files"), "{}", e.message());
        let mut pages = WikiPages::new(&claims);
        pages.add_line("p.jsonl", 1, "{\"id\": \"P\", \"lines\": \"1\\tOnly one .\"}", &Deadline::never()).unwrap();
        let e = pages.cases(&claims, &Deadline::never()).unwrap_err();
        assert!(e.message().contains("has no sentence 0"), "{}", e.message());
        let mut pages = WikiPages::new(&claims);
        let e = pages
            .add_line("p.jsonl", 7, "{\"id\": \"P\", \"lines\": \"x\\tNo number .\"}", &Deadline::never())
            .unwrap_err();
        assert_eq!((e.details()["line"].clone(), e.details()["json_path"].clone()), (7.into(), "$.lines".into()));
    }
}
