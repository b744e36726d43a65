//! Re-anchoring (issue 18): selectors saved against an earlier version of a
//! document ([`super::Selector`]: a TextQuoteSelector, optionally a
//! TextPositionSelector) found again in the edited document.
//!
//! For each annotation: if the text at the saved position still equals the
//! quote, it is `unchanged`; else the quote is searched verbatim (normalized
//! as validation does), the place chosen by its prefix and suffix
//! similarity, then nearness to the saved position (`moved`, or `changed`
//! when only spacing or letter case differ); else searched fuzzily through
//! the matching core within [`REANCHOR_MAX_CHANGE`] of the quote's length
//! (`changed`); else it is `orphaned`. One deadline for the whole call.

use super::claims::{optional_code_points, optional_string, required_string};
use super::config::{FindOptions, MAX_EDIT_DISTANCE_BOUND};
use super::engine::{find, FoundMatch};
use super::report::Location;
use super::selectors::{self, Selector};
use crate::document::Document;
use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::{Clock, Deadline, DEFAULT_TIME_LIMIT_SECONDS};
use crate::json::type_name as kind;
use serde::Serialize;
use serde_json::{Map, Value};

/// Most annotations re-anchored in one call.
pub const MAX_ANNOTATIONS: usize = 10_000;
/// The share of a quote's characters that may have changed (edit distance
/// / length, rounded up) for a fuzzy re-anchoring: more, and the
/// annotation is orphaned rather than attached to a look-alike.
pub const REANCHOR_MAX_CHANGE: f64 = 0.2;

/// What happened to an annotation's passage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnchorStatus {
    /// The text at the saved position is still the quote.
    Unchanged,
    /// The quote is there verbatim, elsewhere.
    Moved,
    /// Found, but the text differs (spacing or case, or edits within
    /// [`REANCHOR_MAX_CHANGE`]).
    Changed,
    /// Not found.
    Orphaned,
}

/// One annotation re-anchored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reanchored {
    /// The annotation's id, as given.
    pub id: String,
    /// What happened.
    pub status: AnchorStatus,
    /// Where it is now (`null` when orphaned).
    pub span: Option<Location>,
    /// The text there now (`null` when orphaned).
    pub matched_text: Option<String>,
    /// Edits between the saved quote and the text now (normalized; 0 for
    /// unchanged and moved; `null` when orphaned).
    pub edit_distance: Option<usize>,
    /// Selectors of the new place, to save for the next edit (empty when
    /// orphaned).
    pub selectors: Vec<Selector>,
}

/// A saved annotation, read from JSON.
struct Saved {
    id: String,
    exact: String,
    prefix: Option<String>,
    suffix: Option<String>,
    position: Option<(usize, usize)>,
}

/// Re-anchors `annotations` (a JSON array of `{id, selectors}`, `selectors`
/// holding a `TextQuoteSelector` and optionally a `TextPositionSelector`, as
/// `match_details.selectors` gives them) in `doc`. Bad input is a
/// VALIDATION_ERROR naming its JSON path; past the default time limit
/// ([`DEFAULT_TIME_LIMIT_SECONDS`]), a PROCESSING_ERROR.
pub fn reanchor(doc: &Document, annotations: &Value, clock: &dyn Clock) -> Result<Vec<Reanchored>> {
    let saved = parse(annotations)?;
    let deadline = Deadline::after(clock, DEFAULT_TIME_LIMIT_SECONDS * 1000.0);
    let mut out = Vec::with_capacity(saved.len());
    for (i, a) in saved.iter().enumerate() {
        let done = if deadline.expired_now() { None } else { one(doc, a, &deadline, clock) };
        let Some(r) = done else {
            return Err(Error::new(
                ErrorKind::Processing,
                format!(
                    "re-anchoring exceeded its time limit ({DEFAULT_TIME_LIMIT_SECONDS} s) after {i} of {} annotations",
                    saved.len()
                ),
            ));
        };
        out.push(r);
    }
    Ok(out)
}

/// One annotation; `None` when the deadline passed during its search.
fn one(doc: &Document, a: &Saved, deadline: &Deadline, clock: &dyn Clock) -> Option<Reanchored> {
    let src = doc.source();
    if let Some((start, end)) = a.position {
        let pos = doc.positions();
        if let (Some(bs), Some(be)) = (pos.byte_of_char(src, start), pos.byte_of_char(src, end)) {
            if src.get(bs..be) == Some(a.exact.as_str()) {
                return Some(found(doc, a, AnchorStatus::Unchanged, bs, be, 0));
            }
        }
    }
    let chars = a.exact.chars().count();
    let mut options = FindOptions {
        max_edit_distance: 0,
        max_processing_time_seconds: deadline.remaining_ms().max(0.0) / 1000.0,
        ..FindOptions::default()
    };
    let exact = find(doc, &a.exact, &options, clock);
    if !exact.complete {
        return None;
    }
    if let Some(m) = best(doc, a, &exact.matches) {
        let (bs, be) = (m.location.byte_start, m.location.byte_end);
        let status = match a.position {
            _ if m.matched_text != a.exact => AnchorStatus::Changed,
            Some((start, _)) if start == m.location.start_position => AnchorStatus::Unchanged,
            None => AnchorStatus::Unchanged,
            Some(_) => AnchorStatus::Moved,
        };
        return Some(found(doc, a, status, bs, be, 0));
    }
    let k = ((chars as f64 * REANCHOR_MAX_CHANGE).ceil() as usize).min(MAX_EDIT_DISTANCE_BOUND);
    options.max_edit_distance = k;
    options.max_processing_time_seconds = deadline.remaining_ms().max(0.0) / 1000.0;
    let fuzzy = find(doc, &a.exact, &options, clock);
    if !fuzzy.complete {
        return None;
    }
    let close: Vec<FoundMatch> = fuzzy.matches.into_iter().filter(|m| m.edit_distance <= k).collect();
    Some(match best(doc, a, &close) {
        Some(m) => {
            let (bs, be, d) = (m.location.byte_start, m.location.byte_end, m.edit_distance);
            found(doc, a, AnchorStatus::Changed, bs, be, d)
        }
        None => Reanchored {
            id: a.id.clone(),
            status: AnchorStatus::Orphaned,
            span: None,
            matched_text: None,
            edit_distance: None,
            selectors: Vec::new(),
        },
    })
}

/// The match that fits the saved annotation best: the most similar, then
/// the best prefix and suffix agreement, then the nearest to the saved
/// position, then the first.
fn best<'m>(doc: &Document, a: &Saved, matches: &'m [FoundMatch]) -> Option<&'m FoundMatch> {
    let profile = FindOptions::default().profile();
    let src = doc.source();
    let context = |m: &FoundMatch| {
        let mut parts = Vec::new();
        if let Some(p) = a.prefix.as_deref().filter(|p| !p.is_empty()) {
            parts.push(selectors::prefix_similarity(src, m.location.byte_start, p, profile));
        }
        if let Some(s) = a.suffix.as_deref().filter(|s| !s.is_empty()) {
            parts.push(selectors::suffix_similarity(src, m.location.byte_end, s, profile));
        }
        if parts.is_empty() {
            0.0
        } else {
            parts.iter().sum::<f64>() / parts.len() as f64
        }
    };
    let distance = |m: &FoundMatch| a.position.map_or(0, |(s, _)| s.abs_diff(m.location.start_position));
    let mut best: Option<(&FoundMatch, f64)> = None;
    for m in matches {
        let c = context(m);
        let better = match best {
            None => true,
            Some((b, bc)) => {
                m.edit_distance.cmp(&b.edit_distance).then(bc.total_cmp(&c)).then(distance(m).cmp(&distance(b))).is_lt()
            }
        };
        if better {
            best = Some((m, c));
        }
    }
    best.map(|(m, _)| m)
}

fn found(doc: &Document, a: &Saved, status: AnchorStatus, bs: usize, be: usize, d: usize) -> Reanchored {
    let span = doc.span(bs, be);
    Reanchored {
        id: a.id.clone(),
        status,
        span: Some(Location::new(&span, doc.section_at(bs).map(|s| s.title.clone()))),
        matched_text: Some(doc.source().get(bs..be).unwrap_or("").to_string()),
        edit_distance: Some(d),
        selectors: selectors::selectors(doc, bs, be),
    }
}

fn bad(path: &JsonPath, constraint: &str, message: String) -> Error {
    Error::invalid_input(path, constraint, message)
}

/// The annotations, checked field by field.
fn parse(value: &Value) -> Result<Vec<Saved>> {
    let root = JsonPath::root();
    let Value::Array(items) = value else {
        return Err(bad(
            &root,
            "type",
            format!("annotations must be an array of {{id, selectors}}, got {}", kind(value)),
        ));
    };
    if items.len() > MAX_ANNOTATIONS {
        return Err(bad(
            &root,
            "maxItems",
            format!("{} annotations given, at most {MAX_ANNOTATIONS} allowed", items.len()),
        ));
    }
    items.iter().enumerate().map(|(i, item)| parse_one(item, &root.index(i))).collect()
}

fn only_keys(obj: &Map<String, Value>, known: &[&str], path: &JsonPath) -> Result<()> {
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(bad(&path.key(k), "additionalProperties", format!("unknown property {k:?}"))),
        None => Ok(()),
    }
}

fn string_at(obj: &Map<String, Value>, key: &str, path: &JsonPath, required: bool) -> Result<Option<String>> {
    if required {
        required_string(obj, key, path).map(|s| Some(s.to_string()))
    } else {
        optional_string(obj, key, path)
    }
}

fn count_at(obj: &Map<String, Value>, key: &str, path: &JsonPath) -> Result<usize> {
    optional_code_points(obj, key, path)?
        .ok_or_else(|| bad(path, "required", format!("missing required property {key:?}")))
}

fn parse_one(item: &Value, path: &JsonPath) -> Result<Saved> {
    let Value::Object(obj) = item else {
        return Err(bad(path, "type", format!("each annotation must be an object, got {}", kind(item))));
    };
    only_keys(obj, &["id", "selectors"], path)?;
    let id = string_at(obj, "id", path, true)?.unwrap_or_default();
    let sel_path = path.key("selectors");
    let list = match obj.get("selectors") {
        Some(Value::Array(a)) => a,
        Some(other) => return Err(bad(&sel_path, "type", format!("selectors must be an array, got {}", kind(other)))),
        None => return Err(bad(path, "required", "missing required property \"selectors\"".into())),
    };
    let mut saved = Saved { id, exact: String::new(), prefix: None, suffix: None, position: None };
    let mut has_quote = false;
    for (j, s) in list.iter().enumerate() {
        let p = sel_path.index(j);
        let Value::Object(o) = s else {
            return Err(bad(&p, "type", format!("each selector must be an object, got {}", kind(s))));
        };
        match string_at(o, "type", &p, true)?.as_deref() {
            Some("TextQuoteSelector") => {
                only_keys(o, &["type", "exact", "prefix", "suffix"], &p)?;
                saved.exact = string_at(o, "exact", &p, true)?.unwrap_or_default();
                if saved.exact.is_empty() {
                    return Err(bad(&p.key("exact"), "minLength", "exact must not be empty".into()));
                }
                saved.prefix = string_at(o, "prefix", &p, false)?;
                saved.suffix = string_at(o, "suffix", &p, false)?;
                has_quote = true;
            }
            Some("TextPositionSelector") => {
                only_keys(o, &["type", "start", "end"], &p)?;
                let (start, end) = (count_at(o, "start", &p)?, count_at(o, "end", &p)?);
                if end < start {
                    return Err(bad(&p.key("end"), "minimum", format!("end ({end}) is before start ({start})")));
                }
                saved.position = Some((start, end));
            }
            other => {
                return Err(bad(
                    &p.key("type"),
                    "enum",
                    format!("selector type {other:?} is not \"TextQuoteSelector\" or \"TextPositionSelector\""),
                ))
            }
        }
    }
    if !has_quote {
        return Err(bad(&sel_path, "contains", "selectors must hold a TextQuoteSelector".into()));
    }
    Ok(saved)
}
