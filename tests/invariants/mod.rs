//! What every entry point's output must hold, whatever the input: checked in
//! one place for the property tests (`tests/invariants_prop.rs`), the
//! replayed regression files (`tests/regressions.rs`), the tamper test
//! (`tests/tamper.rs`) and the fuzz targets (`fuzz/fuzz_targets/*.rs`, which
//! include this file by path).
//!
//! A path-included file rather than a `#[doc(hidden)] pub mod` behind a
//! `testing` feature: it needs nothing but the crate's public API, so the
//! published library carries no test code, no extra feature and no
//! semver surface, and the checks cannot lean on internals the users do not
//! see. Every check returns `Err(what is wrong)` instead of panicking, so a
//! property test reports it as a failing case and a fuzz target as a crash.
#![allow(dead_code)]

use evidence_validator::cite::{CiteInput, CiteReport};
use evidence_validator::extract::Extracted;
use evidence_validator::judge::citations::ReportCitations;
use evidence_validator::judge::Ballot;
use evidence_validator::text::{Normalized, Span};
use evidence_validator::transcript::{ItemValidation, Transcript};
use evidence_validator::validate::Location;
use evidence_validator::Report;
use serde_json::Value;
use sha2::{Digest, Sha256};

pub mod targets;

/// A broken invariant, described.
pub type Check = Result<(), String>;

fn fail<T>(what: impl Into<String>) -> Result<T, String> {
    Err(what.into())
}

/// The offsets of one span, whichever way they were written.
#[derive(Debug, Clone, Copy)]
pub struct Offsets {
    /// Code points.
    pub chars: (usize, usize),
    /// UTF-16 units.
    pub utf16: (usize, usize),
    /// UTF-8 bytes.
    pub bytes: (usize, usize),
    /// 1-based line and column (code points) of the start, 1-based line of the end.
    pub line_column: Option<(usize, usize, usize)>,
}

impl Offsets {
    /// A [`Span`]'s offsets.
    pub fn of(s: &Span) -> Offsets {
        Offsets {
            chars: (s.start, s.end),
            utf16: (s.utf16_start, s.utf16_end),
            bytes: (s.byte_start, s.byte_end),
            line_column: Some((s.line, s.column, s.end_line)),
        }
    }

    /// A report [`Location`]'s offsets.
    pub fn of_report(l: &Location) -> Offsets {
        Offsets {
            chars: (l.start_position, l.end_position),
            utf16: (l.utf16_start, l.utf16_end),
            bytes: (l.byte_start, l.byte_end),
            line_column: Some((l.line_number, l.column, l.end_line_number)),
        }
    }

    /// A report `location` object's offsets (`start_position` …).
    pub fn of_location(loc: &Value) -> Result<Offsets, String> {
        let n = |k: &str| loc.get(k).and_then(Value::as_u64).map(|v| v as usize).ok_or(format!("location has no {k}"));
        Ok(Offsets {
            chars: (n("start_position")?, n("end_position")?),
            utf16: (n("utf16_start")?, n("utf16_end")?),
            bytes: (n("byte_start")?, n("byte_end")?),
            line_column: Some((n("line_number")?, n("column")?, n("end_line_number")?)),
        })
    }
}

/// `text[span]` is `want` in bytes, code points and UTF-16; the span is in
/// bounds, on char boundaries; line and column are those of its start (and
/// end line that of its last char). Recounts from the text: no index of
/// the library is trusted. One span: for several spans of one text, build
/// its [`Recount`] once and ask it (this walks the whole text).
pub fn span_slices_to(text: &str, o: Offsets, want: &str, what: &str) -> Check {
    Recount::new(text).span_slices_to(o, want, what)
}

/// A text's positions, counted by walking it once, char by char: the code
/// points, UTF-16 units and newlines before every byte, the byte of every
/// code point, the text's UTF-16 units and the byte where each line starts.
/// Built here from `str::char_indices` (no index of the library), so
/// checking a span costs the span's length, not the text's, and a target
/// with many spans (a transcript's words, a report's matches) stays linear.
pub struct Recount<'a> {
    text: &'a str,
    /// Per byte offset `0..=len` (meaningful at char boundaries).
    chars_before: Vec<usize>,
    utf16_before: Vec<usize>,
    newlines_before: Vec<usize>,
    /// The byte offset of each code point, then the text's length.
    char_bytes: Vec<usize>,
    /// The text as UTF-16.
    units: Vec<u16>,
    /// The byte where line `k + 1` starts (0 first, then after each `\n`).
    line_starts: Vec<usize>,
}

impl<'a> Recount<'a> {
    /// Walks `text` once.
    pub fn new(text: &'a str) -> Recount<'a> {
        let n = text.len();
        let mut r = Recount {
            text,
            chars_before: Vec::with_capacity(n + 1),
            utf16_before: Vec::with_capacity(n + 1),
            newlines_before: Vec::with_capacity(n + 1),
            char_bytes: Vec::with_capacity(n + 1),
            units: text.encode_utf16().collect(),
            line_starts: vec![0],
        };
        let (mut chars, mut utf16, mut newlines) = (0, 0, 0);
        for (i, c) in text.char_indices() {
            for _ in 0..c.len_utf8() {
                r.chars_before.push(chars);
                r.utf16_before.push(utf16);
                r.newlines_before.push(newlines);
            }
            r.char_bytes.push(i);
            chars += 1;
            utf16 += c.len_utf16();
            if c == '\n' {
                newlines += 1;
                r.line_starts.push(i + 1);
            }
        }
        r.chars_before.push(chars);
        r.utf16_before.push(utf16);
        r.newlines_before.push(newlines);
        r.char_bytes.push(n);
        r
    }

    /// The text recounted.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// [`span_slices_to`] on this text.
    pub fn span_slices_to(&self, o: Offsets, want: &str, what: &str) -> Check {
        let text = self.text;
        let (bs, be) = o.bytes;
        if bs > be || be > text.len() {
            return fail(format!("{what}: bytes {bs}..{be} out of bounds (text is {} bytes)", text.len()));
        }
        if !text.is_char_boundary(bs) || !text.is_char_boundary(be) {
            return fail(format!("{what}: bytes {bs}..{be} not on char boundaries"));
        }
        let slice = &text[bs..be];
        if slice != want {
            return fail(format!("{what}: text[{bs}..{be}] = {slice:?}, reported {want:?}"));
        }
        let chars = (self.chars_before[bs], self.chars_before[bs] + slice.chars().count());
        if chars != o.chars {
            return fail(format!("{what}: code points {:?}, recounted {chars:?}", o.chars));
        }
        let utf16 = (self.utf16_before[bs], self.utf16_before[bs] + slice.encode_utf16().count());
        if utf16 != o.utf16 {
            return fail(format!("{what}: UTF-16 {:?}, recounted {utf16:?}", o.utf16));
        }
        // slicing the text by the code points and by the UTF-16 units gives
        // the same text (`chars` and `utf16` are within the text: recounted)
        let by_chars =
            self.char_bytes.get(chars.0).zip(self.char_bytes.get(chars.1)).and_then(|(&a, &b)| text.get(a..b));
        let units = self.units.get(utf16.0..utf16.1).unwrap_or_default();
        if by_chars != Some(want) || String::from_utf16(units).ok().as_deref() != Some(want) {
            return fail(format!("{what}: slicing by code points or UTF-16 does not give {want:?}"));
        }
        if let Some((line, column, end_line)) = o.line_column {
            let want_line = self.newlines_before[bs] + 1;
            let line_start = self.line_starts[want_line - 1];
            let want_column = self.chars_before[bs] - self.chars_before[line_start] + 1;
            let last = slice.char_indices().last().map_or(bs, |(i, _)| bs + i);
            let want_end = self.newlines_before[last] + 1;
            if (line, column) != (want_line, want_column) {
                return fail(format!("{what}: line {line} column {column}, recounted {want_line}:{want_column}"));
            }
            if end_line != want_end && !(bs == be && end_line == want_line) {
                return fail(format!("{what}: end line {end_line}, recounted {want_end}"));
            }
        }
        Ok(())
    }
}

/// SHA-256 (hex) of the canonical JSON (sorted keys, compact) of a report's
/// hashed part: `failed_claims`, `validated_claims`, `validation_summary`.
/// Written from the report's documented definition, not by calling the
/// library's hash function.
///
/// The three parts are serialized where they are (a sorted map of
/// references, which serde_json writes as it writes the `Value::Object` of
/// their copies) straight into the hasher: no copy of the report, no text.
pub fn content_hash_of(report: &Value) -> String {
    let mut hashed: std::collections::BTreeMap<&str, &Value> = std::collections::BTreeMap::new();
    for key in ["failed_claims", "validated_claims", "validation_summary"] {
        hashed.insert(key, report.get(key).unwrap_or(&Value::Null));
    }
    let mut hasher = Sha256::new();
    // writing to a hasher cannot fail; a serializer error would change the hash
    if serde_json::to_writer(&mut hasher, &hashed).is_err() {
        return String::new();
    }
    hex(&hasher.finalize())
}

/// Lowercase hex SHA-256.
pub fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v.get(key).and_then(Value::as_array).ok_or(format!("no array {key}"))
}

fn str_of<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key).and_then(Value::as_str).ok_or(format!("no string {key}"))
}

fn count_of(v: &Value, key: &str) -> Result<usize, String> {
    v.get(key).and_then(Value::as_u64).map(|n| n as usize).ok_or(format!("no count {key}"))
}

/// A spec 000 report for `claim_ids` (the input's claims, in order) over
/// `source`: every claim accounted for exactly once (a result, in input
/// order, or named by a processing error), summary counts add up,
/// `failed_claims` are exactly the claims not VALIDATED, every location
/// slices to its text in all three unit systems, `contentHash` recomputes.
pub fn report(source: &str, claim_ids: &[String], report: &Report) -> Check {
    report_json(source, claim_ids, &report.to_json())
}

/// [`report`] on the report's JSON (what the CLI prints, what JS gets).
pub fn report_json(source: &str, claim_ids: &[String], r: &Value) -> Check {
    let results = array(r, "validated_claims")?;
    let mut out: Vec<&str> = Vec::with_capacity(claim_ids.len());
    for c in results {
        out.push(str_of(c, "claim_id")?);
    }
    for e in array(r, "errors")? {
        for id in e.get("affected_claims").and_then(Value::as_array).into_iter().flatten() {
            out.push(id.as_str().ok_or("affected_claims holds a non-string")?);
        }
    }
    let ids: Vec<&str> = claim_ids.iter().map(String::as_str).collect();
    if out != ids {
        return fail(format!("claims in {ids:?}, accounted for out {out:?}"));
    }
    let ok = r.get("ok").and_then(Value::as_bool).ok_or("no ok")?;
    if ok != (results.len() == ids.len()) {
        return fail(format!("ok = {ok} with {} of {} claims processed", results.len(), ids.len()));
    }
    fn status(c: &Value) -> &str {
        c.get("validation_status").and_then(Value::as_str).unwrap_or("")
    }
    let count = |s: &str| results.iter().filter(|c| status(c) == s).count();
    let summary = r.get("validation_summary").ok_or("no validation_summary")?;
    for (key, want) in [
        ("total_claims", ids.len()),
        ("validated_claims", count("VALIDATED")),
        ("failed_claims", count("FAILED")),
        ("ambiguous_claims", count("AMBIGUOUS")),
        ("low_confidence_claims", count("LOW_CONFIDENCE")),
    ] {
        if count_of(summary, key)? != want {
            return fail(format!("summary {key} = {}, counted {want}", summary[key]));
        }
    }
    let by_status = ["VALIDATED", "FAILED", "AMBIGUOUS", "LOW_CONFIDENCE"].iter().map(|s| count(s)).sum::<usize>();
    if by_status != results.len() {
        return fail(format!("{} results, {by_status} with a known status", results.len()));
    }
    let not_validated: Vec<&str> =
        results.iter().filter(|c| status(c) != "VALIDATED").filter_map(|c| c["claim_id"].as_str()).collect();
    let failed: Vec<&str> = array(r, "failed_claims")?.iter().filter_map(|f| f["claim_id"].as_str()).collect();
    if failed != not_validated {
        return fail(format!("failed_claims {failed:?}, not VALIDATED {not_validated:?}"));
    }
    let source = Recount::new(source);
    for c in results {
        let id = str_of(c, "claim_id")?;
        if let Some(m) = c.get("match_details") {
            let what = format!("{id} match_details");
            source.span_slices_to(Offsets::of_location(m)?, str_of(m, "matched_text")?, &what)?;
            for (i, e) in m.get("edits").and_then(Value::as_array).into_iter().flatten().enumerate() {
                edit_span(&source, e, &format!("{what}.edits[{i}]"))?;
            }
        } else if status(c) == "VALIDATED" {
            return fail(format!("{id} VALIDATED without match_details"));
        }
        for (i, a) in array(c, "alternative_matches")?.iter().enumerate() {
            let o = Offsets::of_location(a)?;
            source.span_slices_to(o, str_of(a, "matched_text")?, &format!("{id} alternative {i}"))?;
            if count_of(a, "position")? != o.chars.0 {
                return fail(format!("{id} alternative {i}: position is not start_position"));
            }
        }
    }
    for f in array(r, "failed_claims")? {
        let id = str_of(f, "claim_id")?;
        for (i, a) in array(f, "attempted_matches")?.iter().enumerate() {
            let what = format!("{id} attempted_matches[{i}]");
            source.span_slices_to(Offsets::of_location(a)?, str_of(a, "candidate_text")?, &what)?;
        }
    }
    let recorded = r.pointer("/generated/contentHash").and_then(Value::as_str).ok_or("no contentHash")?;
    let recomputed = content_hash_of(r);
    if recorded != recomputed {
        return fail(format!("contentHash {recorded}, recomputed {recomputed}"));
    }
    Ok(())
}

/// An edit's `source` is the text at its location (an insertion point when
/// the source has nothing there: then the span is empty).
fn edit_span(source: &Recount, e: &Value, what: &str) -> Check {
    source.span_slices_to(Offsets::of_location(e)?, str_of(e, "source")?, what)
}

/// A reader's output: units sorted, non-overlapping, non-empty, on char
/// boundaries, within the source, each plain unit standing for exactly its
/// own char (or a character reference, a tag read as a line break, a
/// following part of a reference, and with `pipes` a markdown table's `|`
/// read as a space); headings levels 1–6, in order, titles trimmed to one
/// line; hidden regions char ranges of the source.
pub fn extracted(src: &str, x: &Extracted, pipes: bool) -> Check {
    let len = src.len();
    let mut prev_end = 0usize;
    let mut prev_was_ref = false;
    for (k, u) in x.units.iter().enumerate() {
        let (s, e) = (u.start as usize, u.end as usize);
        if s >= e || e > len || s < prev_end || !src.is_char_boundary(s) || !src.is_char_boundary(e) {
            return fail(format!("unit {k} {u:?} is empty, beyond the source, out of order or off char boundaries"));
        }
        let slice = &src[s..e];
        let mut buf = [0u8; 4];
        let plain = slice == u.ch.encode_utf8(&mut buf);
        let reference = slice.starts_with('&') && slice.len() > 1;
        let tag = u.ch == '\n' && slice.starts_with('<') && slice.ends_with('>');
        let pipe = pipes && u.ch == ' ' && slice == "|";
        if !(plain || reference || tag || pipe || (prev_was_ref && prev_end == s)) {
            return fail(format!("unit {k} {u:?} stands for {slice:?}"));
        }
        prev_was_ref = reference;
        prev_end = e;
    }
    let mut prev_start = 0;
    for h in &x.headings {
        let (s, e) = (h.start as usize, h.end as usize);
        if !(1..=6).contains(&h.level) || s > e || e > len || s < prev_start {
            return fail(format!("heading {h:?} out of order or bounds"));
        }
        if !src.is_char_boundary(s) || !src.is_char_boundary(e) {
            return fail(format!("heading {h:?} off char boundaries"));
        }
        if h.title.trim() != h.title || h.title.contains("  ") || h.title.contains('\n') {
            return fail(format!("heading {h:?}: title not trimmed to one line"));
        }
        prev_start = s;
    }
    for (i, h) in x.hidden.regions.iter().enumerate() {
        let (s, e) = (h.start as usize, h.end as usize);
        if s > e || e > len || !src.is_char_boundary(s) || !src.is_char_boundary(e) {
            return fail(format!("hidden region {i} at {s}..{e} not a char range of the source"));
        }
    }
    Ok(())
}

/// A normalized text's map: every normalized byte maps to a char range of
/// the original, and the map never goes backwards.
pub fn normalized(original: &str, n: &Normalized) -> Check {
    let mut last = 0usize;
    for i in 0..n.as_str().len() {
        let Some((s, e)) = n.original_of_byte(i) else {
            return fail(format!("normalized byte {i} maps to nothing"));
        };
        if s > e || e > original.len() || !original.is_char_boundary(s) || !original.is_char_boundary(e) {
            return fail(format!("normalized byte {i} maps to {s}..{e}, not a char range of the original"));
        }
        if s < last {
            return fail(format!("normalized byte {i} maps back to {s}, before {last}"));
        }
        last = s;
    }
    if !n.as_str().is_empty() && n.original_range(0, n.as_str().len()).is_none() {
        return fail("the whole normalized text maps to no original range");
    }
    Ok(())
}

/// A transcript: every word's span slices to its text, every segment's and
/// token's span is a char range of the text, word indices in bounds, times
/// finite.
pub fn transcript(t: &Transcript) -> Check {
    transcript_recounted(t, &Recount::new(t.text()))
}

/// [`transcript`], `recount` being `t.text()`'s.
pub fn transcript_recounted(t: &Transcript, recount: &Recount) -> Check {
    let text = t.text();
    let words = t.words();
    for (i, w) in words.iter().enumerate() {
        recount.span_slices_to(Offsets::of(&w.span), &w.text, &format!("word {i}"))?;
        if w.segment.is_some_and(|s| s >= t.segments().len()) {
            return fail(format!("word {i} names segment {:?} of {}", w.segment, t.segments().len()));
        }
        for x in [w.start, w.end, w.confidence].into_iter().flatten() {
            if !x.is_finite() {
                return fail(format!("word {i} has a non-finite number {x}"));
            }
        }
    }
    for (i, s) in t.segments().iter().enumerate() {
        let slice = text.get(s.span.byte_start..s.span.byte_end).ok_or(format!("segment {i}: span out of bounds"))?;
        recount.span_slices_to(Offsets::of(&s.span), slice, &format!("segment {i}"))?;
        if s.word_start > s.word_end || s.word_end > words.len() {
            return fail(format!("segment {i}: words {}..{} of {}", s.word_start, s.word_end, words.len()));
        }
        if !s.start.is_finite() || !s.end.is_finite() {
            return fail(format!("segment {i}: non-finite time"));
        }
    }
    for (i, k) in t.tokens().iter().enumerate() {
        let slice = text.get(k.span.byte_start..k.span.byte_end).ok_or(format!("token {i}: span out of bounds"))?;
        recount.span_slices_to(Offsets::of(&k.span), slice, &format!("token {i}"))?;
        if k.word.is_some_and(|w| w >= words.len()) {
            return fail(format!("token {i}: word {:?} of {}", k.word, words.len()));
        }
    }
    Ok(())
}

/// One item's validation: `passed` iff no check failed, the matched span
/// and the longest partial match slice to their texts, token ranges in
/// bounds, occurrences consistent with their count.
/// `recount` is `t.text()`'s.
pub fn item_validation(t: &Transcript, recount: &Recount, v: &ItemValidation) -> Check {
    if v.passed != v.failed_checks.is_empty() {
        return fail(format!("passed = {} with failed checks {:?}", v.passed, v.failed_checks));
    }
    let tokens = t.tokens().len();
    if let Some(m) = &v.matched {
        recount.span_slices_to(Offsets::of(&m.span), &m.text, "matched")?;
        if m.token_start >= m.token_end || m.token_end > tokens {
            return fail(format!("matched tokens {}..{} of {tokens}", m.token_start, m.token_end));
        }
        if let (Some(a), Some(b)) = (m.start_time, m.end_time) {
            if b < a {
                return fail(format!("matched end_time {b} before start_time {a}"));
            }
        }
    }
    if let Some(p) = &v.longest_partial_match {
        recount.span_slices_to(Offsets::of(&p.span), &p.text, "longest_partial_match")?;
        if p.token_start + p.length > tokens {
            return fail(format!("partial match tokens {}+{} of {tokens}", p.token_start, p.length));
        }
    }
    if v.occurrences.len() > v.occurrence_count || v.occurrences.iter().filter(|o| o.chosen).count() > 1 {
        return fail(format!("{} occurrences listed of {}", v.occurrences.len(), v.occurrence_count));
    }
    Ok(())
}

/// A report's citations: numbered from 1 in order, each one's markup found
/// at its byte offset, on the line it names; line ranges ascending.
pub fn citations(markdown: &str, r: &ReportCitations) -> Check {
    let at = |offset: usize, markup: &str, line: usize, what: &str| -> Check {
        if markdown.get(offset..offset + markup.len()) != Some(markup) {
            return fail(format!("{what}: {markup:?} is not at byte {offset}"));
        }
        let want = markdown[..offset].matches('\n').count() + 1;
        if line != want {
            return fail(format!("{what}: on report line {line}, recounted {want}"));
        }
        Ok(())
    };
    for (i, c) in r.citations.iter().enumerate() {
        let what = format!("citation {}", i + 1);
        if c.index != i + 1 || c.start_line == 0 || c.start_line > c.end_line {
            return fail(format!("{what}: index {} lines {}..{}", c.index, c.start_line, c.end_line));
        }
        at(c.byte_offset, &c.markdown, c.report_line, &what)?;
    }
    for (i, c) in r.invalid.iter().enumerate() {
        let what = format!("invalid citation {}", i + 1);
        if c.index != i + 1 || c.problem.is_empty() {
            return fail(format!("{what}: index {} problem {:?}", c.index, c.problem));
        }
        at(c.byte_offset, &c.markdown, c.report_line, &what)?;
    }
    let offsets: Vec<usize> = r.citations.iter().map(|c| c.byte_offset).collect();
    if offsets.windows(2).any(|w| w[0] >= w[1]) {
        return fail(format!("citations out of order: {offsets:?}"));
    }
    Ok(())
}

/// A juror's answer read: an error that says something, or a ballot that
/// reads back as itself when written as the spec's JSON answer.
pub fn ballot(parsed: &Result<Ballot, String>, reparse: impl Fn(&str) -> Result<Ballot, String>) -> Check {
    match parsed {
        Err(e) if e.trim().is_empty() => fail("an unreadable answer with an empty error"),
        Err(_) => Ok(()),
        Ok(b) => {
            let json = serde_json::to_string(b).map_err(|e| e.to_string())?;
            match reparse(&json) {
                Ok(again) if &again == b => Ok(()),
                other => fail(format!("ballot {b:?} written as {json} reads back as {other:?}")),
            }
        }
    }
}

/// The citation pipeline's report: every claim in is one result out, in
/// order; every evidence span is its source's content at its position.
pub fn cite_report(input: &CiteInput, r: &CiteReport) -> Check {
    let claims_in: Vec<&str> = input.claims.iter().map(|c| c.text.as_str()).collect();
    let claims_out: Vec<&str> = r.claims.iter().map(|c| c.text.as_str()).collect();
    if claims_in != claims_out {
        return fail(format!("claims in {claims_in:?}, out {claims_out:?}"));
    }
    // each source recounted once, when a span first names it
    let mut recounts: Vec<Option<Recount>> = input.sources.iter().map(|_| None).collect();
    for (i, s) in r.evidence_pool.iter().enumerate() {
        let Some(at) = input.sources.iter().position(|x| x.id == s.source_id) else {
            return fail(format!("evidence span {i} names unknown source {:?}", s.source_id));
        };
        let src = &input.sources[at];
        let recount = recounts[at].get_or_insert_with(|| Recount::new(&src.content));
        let what = format!("evidence span {i}");
        if s.truncated {
            let slice =
                src.content.get(s.position.byte_start..s.position.byte_end).ok_or(format!("{what}: out of bounds"))?;
            recount.span_slices_to(Offsets::of(&s.position), slice, &what)?;
        } else {
            recount.span_slices_to(Offsets::of(&s.position), &s.quote, &what)?;
        }
        if !s.relevance_score.is_finite() {
            return fail(format!("{what}: relevance {}", s.relevance_score));
        }
    }
    Ok(())
}

/// A library error: a known spec code and a message.
pub fn typed_error(e: &evidence_validator::Error) -> Check {
    if !e.code().ends_with("_ERROR") || e.message().trim().is_empty() {
        return fail(format!("untyped error {:?}: {:?}", e.code(), e.message()));
    }
    Ok(())
}
