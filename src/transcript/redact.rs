//! Spec 001 "Redaction Interaction": validate first, redact second. Name
//! redaction is applied only to a [`ValidatedEvaluation`], which can only be
//! made by validating against the raw transcript (or taken from an
//! [`EvaluationOutcome`] of the retry budget, which validated every item), so
//! validation never sees redacted text; the rendered script for TTS is the
//! only place the redaction appears.
//!
//! Names are matched whole-word, case-insensitively, with any whitespace
//! between the words of a multi-word name; longer names first (`Jane Doe`
//! before `Jane`). A possessive keeps its ending (`Jane's` → `someone's`).

use super::budget::EvaluationOutcome;
use super::config::TranscriptConfig;
use super::evaluation::{EvaluationItem, ItemKind, StructuredEvaluation};
use super::model::Transcript;
use super::validate::validate_or_time_out;
use crate::host::Deadline;
use serde::Serialize;
use serde_json::Value;

/// An evaluation whose every item passed validation against the raw transcript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidatedEvaluation {
    evaluation: StructuredEvaluation,
    omitted: Vec<OmittedItem>,
}

/// An item left out of a [`ValidatedEvaluation`] because it failed validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OmittedItem {
    /// Commendation or recommendation.
    pub kind: ItemKind,
    /// Its index in the evaluation given.
    pub index: usize,
    /// The failed checks, one line each.
    pub reasons: Vec<String>,
}

impl ValidatedEvaluation {
    /// Validates `evaluation` against the raw `transcript` and keeps the
    /// items that pass (no time limit: see [`ValidatedEvaluation::new_within`]).
    pub fn new(
        transcript: &Transcript,
        evaluation: &StructuredEvaluation,
        config: &TranscriptConfig,
    ) -> ValidatedEvaluation {
        ValidatedEvaluation::new_within(transcript, evaluation, config, &Deadline::never())
    }

    /// [`ValidatedEvaluation::new`] within `deadline`: an item the time
    /// limit stopped is not validated, so it is omitted (its reasons say so).
    pub fn new_within(
        transcript: &Transcript,
        evaluation: &StructuredEvaluation,
        config: &TranscriptConfig,
        deadline: &Deadline<'_>,
    ) -> ValidatedEvaluation {
        let mut kept = StructuredEvaluation { extra: evaluation.extra.clone(), ..Default::default() };
        let mut omitted = Vec::new();
        for kind in [ItemKind::Commendation, ItemKind::Recommendation] {
            for (index, item) in evaluation.items(kind).iter().enumerate() {
                let v = validate_or_time_out(transcript, item, config, deadline);
                if v.passed {
                    kept.items_mut(kind).push(item.clone());
                } else {
                    omitted.push(OmittedItem { kind, index, reasons: v.failure_summary() });
                }
            }
        }
        ValidatedEvaluation { evaluation: kept, omitted }
    }

    /// The outcome of the retry budget, whose items are all validated.
    pub fn from_outcome(outcome: &EvaluationOutcome) -> ValidatedEvaluation {
        ValidatedEvaluation { evaluation: outcome.evaluation.clone(), omitted: Vec::new() }
    }

    /// The validated (raw, unredacted) evaluation.
    pub fn evaluation(&self) -> &StructuredEvaluation {
        &self.evaluation
    }

    /// Items left out because they failed validation.
    pub fn omitted(&self) -> &[OmittedItem] {
        &self.omitted
    }
}

/// Names to redact and what to put in their place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactionOptions {
    /// The names (a person's full name, first name, nickname…), given by the host.
    pub names: Vec<String>,
    /// What replaces each (default `someone`, which reads naturally in speech).
    pub replacement: String,
}

/// What replaces a redacted name unless the options say otherwise.
pub const DEFAULT_REPLACEMENT: &str = "someone";

impl Default for RedactionOptions {
    fn default() -> RedactionOptions {
        RedactionOptions { names: Vec::new(), replacement: DEFAULT_REPLACEMENT.to_string() }
    }
}

impl RedactionOptions {
    /// `{names?: string[], replacement?: string}` (`renderScript`'s
    /// options); `null` means no names. Unknown keys and wrong types are
    /// `CONFIGURATION_ERROR`s naming the JSON path.
    pub fn from_json(value: &serde_json::Value) -> crate::Result<RedactionOptions> {
        let mut o = RedactionOptions::default();
        let Some(mut f) = crate::options::root_null_absent(value, "options")? else {
            return Ok(o);
        };
        if let Some(names) = f.strings("names")? {
            o.names = names;
        }
        if let Some((s, _)) = f.string("replacement")? {
            o.replacement = s.to_string();
        }
        f.finish()?;
        Ok(o)
    }
}

/// The script for text-to-speech.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RenderedScript {
    /// The text to speak, names redacted.
    pub script: String,
    /// The evaluation with names redacted in every string field (for display
    /// next to the audio; never to be validated).
    pub evaluation: StructuredEvaluation,
    /// How many names were replaced.
    pub redactions: usize,
    /// Items left out because they failed validation.
    pub omitted: Vec<OmittedItem>,
}

/// Renders the validated evaluation as a script and redacts names in it.
///
/// The script reads, one line each: `Commendations.`, then
/// `Commendation 1. <text> In your words: "<quote>".` for each, then the same
/// for recommendations (`<text> ` left out when an item has none).
///
/// ```
/// use evidence_validator::transcript::*;
/// let t = parse_transcript("1\n00:00:00,000 --> 00:00:09,000\nMy coach Priya Raman told me to slow down and breathe before each point.\n", InputFormat::Srt).unwrap();
/// let mut e = StructuredEvaluation::default();
/// e.commendations.push(EvaluationItem::new("my coach Priya Raman told me to slow down", 0.0).with_text("You credited Priya Raman."));
/// let validated = ValidatedEvaluation::new(&t, &e, &TranscriptConfig::default());
/// let opts = RedactionOptions { names: vec!["Priya Raman".into(), "Priya".into()], ..Default::default() };
/// let s = render_script(&validated, &opts);
/// assert!(s.script.contains("You credited someone. In your words: \"my coach someone told me to slow down\"."));
/// assert_eq!(s.redactions, 2);
/// ```
pub fn render_script(validated: &ValidatedEvaluation, options: &RedactionOptions) -> RenderedScript {
    let mut names: Vec<Vec<&str>> =
        options.names.iter().map(|n| n.split_whitespace().collect::<Vec<_>>()).filter(|w| !w.is_empty()).collect();
    crate::sort::sort_by(&mut names, |a, b| {
        b.iter()
            .map(|w| w.len())
            .sum::<usize>()
            .cmp(&a.iter().map(|w| w.len()).sum::<usize>())
            .then(b.len().cmp(&a.len()))
    });
    names.dedup();
    let index = NameIndex::new(&names);
    let mut count = 0usize;
    let mut redact = |s: &str| {
        let (out, n) = redact_with(s, &index, &options.replacement);
        count += n;
        out
    };
    let mut redacted =
        StructuredEvaluation { extra: redact_map(&validated.evaluation.extra, &mut redact), ..Default::default() };
    let mut lines = Vec::new();
    for kind in [ItemKind::Commendation, ItemKind::Recommendation] {
        let items = validated.evaluation.items(kind);
        if items.is_empty() {
            continue;
        }
        lines.push(match kind {
            ItemKind::Commendation => "Commendations.".to_string(),
            ItemKind::Recommendation => "Recommendations.".to_string(),
        });
        let label = match kind {
            ItemKind::Commendation => "Commendation",
            ItemKind::Recommendation => "Recommendation",
        };
        for (i, item) in items.iter().enumerate() {
            let r = EvaluationItem {
                text: item.text.as_deref().map(&mut redact),
                evidence_quote: redact(&item.evidence_quote),
                evidence_timestamp: item.evidence_timestamp,
                evidence_speaker: item.evidence_speaker.as_deref().map(&mut redact),
                extra: redact_map(&item.extra, &mut redact),
            };
            let text = r.text.as_deref().map(str::trim).filter(|t| !t.is_empty());
            let quote = r.evidence_quote.trim();
            lines.push(match text {
                Some(t) => format!("{label} {}. {t} In your words: \"{quote}\".", i + 1),
                None => format!("{label} {}. In your words: \"{quote}\".", i + 1),
            });
            redacted.items_mut(kind).push(r);
        }
    }
    RenderedScript {
        script: lines.join("\n"),
        evaluation: redacted,
        redactions: count,
        omitted: validated.omitted.clone(),
    }
}

fn redact_map(
    map: &serde_json::Map<String, Value>,
    redact: &mut impl FnMut(&str) -> String,
) -> serde_json::Map<String, Value> {
    // a loop, not collect(): FromIterator sorts (a sort instantiation per
    // caller); the keys come sorted and distinct, so the map is the same
    let mut out = serde_json::Map::new();
    for (k, v) in map {
        out.insert(k.clone(), redact_value(v, redact));
    }
    out
}

fn redact_value(v: &Value, redact: &mut impl FnMut(&str) -> String) -> Value {
    match v {
        Value::String(s) => Value::String(redact(s)),
        Value::Array(a) => Value::Array(a.iter().map(|x| redact_value(x, redact)).collect()),
        Value::Object(o) => Value::Object(redact_map(o, redact)),
        other => other.clone(),
    }
}

/// Replaces every whole-word, case-insensitive occurrence of `names` in
/// `text` by `replacement`; returns the text and the number of replacements.
///
/// ```
/// use evidence_validator::transcript::redact_names;
/// let (s, n) = redact_names("Thanks, JANE  doe! Jane's talk; Janet stays.", &["Jane Doe".into(), "Jane".into()], "someone");
/// assert_eq!((s.as_str(), n), ("Thanks, someone! someone's talk; Janet stays.", 2));
/// ```
pub fn redact_names(text: &str, names: &[String], replacement: &str) -> (String, usize) {
    let mut words: Vec<Vec<&str>> =
        names.iter().map(|n| n.split_whitespace().collect::<Vec<_>>()).filter(|w| !w.is_empty()).collect();
    crate::sort::sort_by(&mut words, |a, b| {
        b.iter().map(|w| w.len()).sum::<usize>().cmp(&a.iter().map(|w| w.len()).sum::<usize>())
    });
    redact_with(text, &NameIndex::new(&words), replacement)
}

/// The names (in priority order) by their lowercased first word, so a place
/// in the text is compared only with the names that can start there: the
/// work is linear in the text (times the longest first word), not text ×
/// names.
struct NameIndex<'n> {
    names: &'n [Vec<&'n str>],
    /// Lowercased first word → the indices of the names starting with it, ascending.
    by_first: std::collections::HashMap<String, Vec<usize>>,
    /// Whether some first word has this many characters.
    lengths: Vec<bool>,
}

impl<'n> NameIndex<'n> {
    fn new(names: &'n [Vec<&'n str>]) -> NameIndex<'n> {
        let mut by_first: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        let mut lengths = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let Some(first) = n.first() else { continue };
            let len = first.chars().count();
            if lengths.len() <= len {
                lengths.resize(len + 1, false);
            }
            if let Some(l) = lengths.get_mut(len) {
                *l = true;
            }
            by_first.entry(first.chars().flat_map(char::to_lowercase).collect()).or_default().push(i);
        }
        NameIndex { names, by_first, lengths }
    }

    /// The end of the first name (in priority order) matching at byte `at`.
    fn match_at(&self, text: &str, at: usize) -> Option<usize> {
        // Characters compared one by one (`match_name`) are equal only if the
        // lowercased prefixes are: the key finds every name that can match.
        let mut key = String::new();
        let mut best: Option<(usize, usize)> = None; // (name index, end)
        for (k, c) in text[at..].chars().enumerate() {
            if k + 1 >= self.lengths.len() || c.is_whitespace() {
                break;
            }
            key.extend(c.to_lowercase());
            if !self.lengths.get(k + 1).copied().unwrap_or(false) {
                continue;
            }
            for &i in self.by_first.get(&key).into_iter().flatten() {
                if best.is_some_and(|(b, _)| b < i) {
                    break;
                }
                if let Some(end) = self.names.get(i).and_then(|name| match_name(text, at, name)) {
                    best = Some((i, end));
                    break;
                }
            }
        }
        best.map(|(_, end)| end)
    }
}

fn redact_with(text: &str, names: &NameIndex<'_>, replacement: &str) -> (String, usize) {
    if names.names.is_empty() {
        return (text.to_string(), 0);
    }
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut i = 0;
    let mut prev: Option<char> = None;
    while i < text.len() {
        let boundary_before = !prev.is_some_and(|c| c.is_alphanumeric());
        if boundary_before {
            if let Some(end) = names.match_at(text, i) {
                out.push_str(replacement);
                count += 1;
                prev = text[..end].chars().next_back();
                i = end;
                continue;
            }
        }
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        out.push(c);
        prev = Some(c);
        i += c.len_utf8();
    }
    (out, count)
}

/// The end of `name` (its words separated by whitespace) matched at byte `at`
/// of `text`, case-insensitively and followed by a non-alphanumeric.
fn match_name(text: &str, at: usize, name: &[&str]) -> Option<usize> {
    let mut pos = at;
    for (k, word) in name.iter().enumerate() {
        if k > 0 {
            let rest = &text[pos..];
            let ws = rest.len() - rest.trim_start().len();
            if ws == 0 {
                return None;
            }
            pos += ws;
        }
        let mut t = text[pos..].chars();
        for wc in word.chars() {
            let tc = t.next()?;
            if !tc.to_lowercase().eq(wc.to_lowercase()) {
                return None;
            }
            pos += tc.len_utf8();
        }
    }
    if text[pos..].chars().next().is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn redaction_options_are_read_strictly() {
        let o = RedactionOptions::from_json(&json!({"names": ["Dana Whitfield", "Dana"]})).unwrap();
        assert_eq!((o.names.len(), o.replacement.as_str()), (2, "someone"));
        let o = RedactionOptions::from_json(&json!({"names": null, "replacement": "the speaker"})).unwrap();
        assert_eq!((o.names.len(), o.replacement.as_str()), (0, "the speaker"));
        for (bad, path) in [
            (json!({"names": ["a", 1]}), "$.names[1]"),
            (json!({"names": "Dana"}), "$.names"),
            (json!({"replacement": 3}), "$.replacement"),
            (json!({"name": ["a"]}), "$.name"),
        ] {
            let e = RedactionOptions::from_json(&bad).unwrap_err();
            assert_eq!((e.code(), e.details()["json_path"].as_str()), ("CONFIGURATION_ERROR", Some(path)), "{bad}");
        }
    }
}
