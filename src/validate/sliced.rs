//! [`SlicedValidation`]: `validate_evidence` done a bounded amount at a
//! time, for hosts with one thread (an edge worker's isolate) that serve
//! other requests between the steps. The answer is the one call's report,
//! byte for byte once serialized (its timestamp aside): the same checks in
//! the same order, the same errors; then the document built in steps
//! ([`DocumentBuilder`]), the claims validated in slices, and the slices
//! joined here, in the core: results, failed claims and warnings in input
//! order, the hidden-text notes once after the last slice (where the one
//! call makes them), the summary, `contentHash` (hashed a run of claims per
//! step, by the one call's writer of its bytes) and `ok` computed over the
//! whole.
//!
//! Why the slices give the one call's answers: the search is the one
//! call's, done once for all the claims before the first slice (one
//! multi-pattern pass for every quote, not one per slice: a heavy request
//! in slices costs about what the one call does), in parts of a bounded
//! size ([`engine::Search`]: the claims prepared a run at a time, the exact
//! pass a range of the text at a time, the fuzzy search a run of quotes at
//! a time; the same answer however it is cut); each slice then decides
//! its claims from what that search found, as the engine decides each
//! claim on its own, except for what it decides per call, which the
//! slicing keeps whole: a claim id used twice (the `DUPLICATE_CLAIM_ID`
//! warning) never has its uses in two slices (a slice ends only where no
//! id used before is used again after); the claim count, memory estimate,
//! unknown fields and the time limit are the request's, checked once. The time limit
//! (`max_processing_time_seconds`) is wall time from the start, as in the
//! one call: between steps the host may serve others, and the time they
//! take counts. Past it, the report is the one call's: `ok` false, one
//! `PROCESSING_ERROR` naming every claim not finished.
//!
//! No embedder: semantic matching uses the lexical fallback, as the one
//! call without one.

use super::claims::{Claim, ClaimSet, MAX_CLAIMS};
use super::config::Config;
use super::engine::{self, Outcome};
use super::report::{ContentHasher, Report, Summary};
use crate::document::{Document, DocumentBuilder};
use crate::error::{Error, Result};
use crate::host::{Clock, Deadline};
use crate::options;
use serde_json::Value;
use std::rc::Rc;

/// Default claims validated per step ([`SliceOptions::claims_per_slice`]).
pub const DEFAULT_SLICE_CLAIMS: usize = 50;
/// Fewest claims per slice: a step's fixed cost (its claims prepared again,
/// its outcome joined) shared by at least this many claims. (The search
/// is done once for all claims before the first slice, so a slice's size
/// no longer changes how it searches.)
pub const MIN_SLICE_CLAIMS: usize = 4;
/// The bounds of a build step's bytes ([`SliceOptions::bytes_per_step`])
/// are the document builder's: one rule for every surface that takes a
/// step budget (`DocumentBuilder::step_budget`).
pub use crate::document::{DEFAULT_STEP_BYTES, MAX_STEP_BYTES, MIN_STEP_BYTES};

/// A step of the search or of the content hash does this many times a
/// slice's claims or a build step's bytes (its work per claim or byte is
/// less than a slice's or a build step's).
const SPAN: usize = 4;

/// How much one [`SlicedValidation::step`] does. JS:
/// `{claimsPerSlice?, bytesPerStep?}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceOptions {
    /// Claims validated per step (at least [`MIN_SLICE_CLAIMS`], at most
    /// [`MAX_CLAIMS`]; a slice may hold more, to keep the uses of an id
    /// together or to leave no slice under the minimum).
    pub claims_per_slice: usize,
    /// Source bytes read per step while the document is built
    /// ([`DocumentBuilder::step`]'s budget).
    pub bytes_per_step: usize,
}

impl Default for SliceOptions {
    fn default() -> Self {
        SliceOptions { claims_per_slice: DEFAULT_SLICE_CLAIMS, bytes_per_step: DEFAULT_STEP_BYTES }
    }
}

impl SliceOptions {
    /// How much a step of the search does: [`SPAN`] times a slice's
    /// claims prepared, or a build step's bytes of the text searched for
    /// exact occurrences, or a slice's claims fuzzy-searched (the costliest
    /// per claim: in wasm, 200 quotes of the 1 MB workload took 12 ms, 50
    /// about 3) (so a host that asks for large steps gets few parts).
    fn search_budget(&self) -> engine::SearchBudget {
        engine::SearchBudget {
            claims: self.claims_per_slice.saturating_mul(SPAN),
            bytes: self.bytes_per_step.saturating_mul(SPAN),
            queries: self.claims_per_slice,
        }
    }

    /// `{claimsPerSlice?, bytesPerStep?}` (`null` for the defaults); an
    /// unknown key, a wrong type or a value out of its bounds is a
    /// CONFIGURATION_ERROR naming its path.
    pub fn from_json(value: &Value) -> Result<SliceOptions> {
        let mut o = SliceOptions::default();
        let Some(mut f) = options::root_null_absent(value, "slice options")? else {
            return Ok(o);
        };
        f.count("claimsPerSlice", MIN_SLICE_CLAIMS as u64, MAX_CLAIMS as u64, &mut o.claims_per_slice)?;
        f.count("bytesPerStep", MIN_STEP_BYTES as u64, MAX_STEP_BYTES as u64, &mut o.bytes_per_step)?;
        f.finish()?;
        Ok(o)
    }
}

enum Stage {
    Building(Box<DocumentBuilder>),
    /// What the searches build on first use, built a part per step (see
    /// [`warm`]) before the first slice: the part next.
    Warming(Rc<Document>, usize),
    /// The exact and fuzzy search of all the claims, as the one call's
    /// (before the first slice), a part per step ([`engine::Search`]).
    Searching(Rc<Document>, Box<engine::Search>),
    /// Claims from `next` on are still to validate, with what the search
    /// found.
    Validating(Rc<Document>, Box<engine::Found>),
    /// Every claim done (or time ran out): the hidden-text notes are next.
    Noting(Rc<Document>),
    /// The content hash of the claims and the summary, a run of claims per
    /// step.
    Hashing(Rc<Document>, Box<(ContentHasher, Summary)>),
    /// The report is ready.
    Finished(Box<Report>),
    /// The report could not be made (its content hash's writer failed).
    Failed(Error),
    /// Taken out for a step (seen only within [`SlicedValidation::step`]
    /// and [`SlicedValidation::finish`]).
    Taken,
}

/// A validation done step by step: [`SlicedValidation::step`] until it says
/// done, then [`SlicedValidation::finish`] (see the module header).
pub struct SlicedValidation<'c> {
    claims: ClaimSet,
    config: Config,
    options: SliceOptions,
    deadline: Deadline<'c>,
    /// When the call started (ms, the report's timestamp).
    started: f64,
    stage: Stage,
    /// `cut[b]`: a slice may end before claim `b` (no id used both before
    /// and from there on).
    cut: Vec<bool>,
    /// The next claim to validate.
    next: usize,
    out: Outcome,
}

impl<'c> SlicedValidation<'c> {
    /// [`super::validate_evidence`] in steps: the same checks, in the same
    /// order, with the same errors; the document is built by the steps.
    pub fn new(
        source: impl Into<String>,
        claims: &Value,
        config: &Value,
        options: SliceOptions,
        clock: &'c dyn Clock,
    ) -> Result<SlicedValidation<'c>> {
        let source = source.into();
        let started = clock.now_ms();
        let config = Config::from_json(config)?;
        let claims = ClaimSet::from_json(claims)?;
        super::check_claim_count(claims.claims.len(), &config)?;
        super::check_document(&source, &config)?;
        super::check_memory(source.len(), claims.claims.len(), &config)?;
        super::check_unknown_fields(&claims, &config)?;
        let deadline = config.deadline(clock);
        let stage = Stage::Building(Box::new(DocumentBuilder::new(source, claims.format)?));
        let (cut, next, out) = (cuts(&claims.claims), 0, Outcome::default());
        Ok(SlicedValidation { claims, config, options, deadline, started, stage, cut, next, out })
    }

    /// [`super::validate_set_with`] (without an embedder) in steps, on a
    /// built document.
    pub fn on_document(
        doc: Rc<Document>,
        claims: ClaimSet,
        config: Config,
        options: SliceOptions,
        clock: &'c dyn Clock,
    ) -> Result<SlicedValidation<'c>> {
        super::check_unknown_fields(&claims, &config)?;
        super::check_claim_count(claims.claims.len(), &config)?;
        if doc.source().len() as f64 / (1024.0 * 1024.0) > config.performance_limits.max_document_size_mb {
            super::check_document(doc.source(), &config)?;
        }
        super::check_memory(doc.source().len(), claims.claims.len(), &config)?;
        let started = clock.now_ms();
        let deadline = config.deadline(clock);
        let stage = Stage::Warming(doc, 0);
        let (cut, next, out) = (cuts(&claims.claims), 0, Outcome::default());
        Ok(SlicedValidation { claims, config, options, deadline, started, stage, cut, next, out })
    }

    /// Does the next step: a build step of about
    /// [`SliceOptions::bytes_per_step`] source bytes, or a part of the
    /// first-use indexes, or a part of the search of all the claims' quotes
    /// (four slices of claims prepared, or four build steps of the text
    /// searched exactly, or a slice fuzzy-searched), or one slice of claims,
    /// or the hidden-text notes, or four slices of claims hashed; true
    /// once the report is ready.
    pub fn step(&mut self) -> bool {
        self.stage = match std::mem::replace(&mut self.stage, Stage::Taken) {
            Stage::Building(mut builder) => {
                if self.deadline.expired_now() {
                    // the one call's answer when time runs out while parsing
                    let error = crate::document::past_deadline("parsing the document");
                    match super::unparsed_report(builder.source(), &self.claims, error, self.started) {
                        Ok(report) => Stage::Finished(Box::new(report)),
                        Err(e) => Stage::Failed(e),
                    }
                } else if builder.step(self.options.bytes_per_step) {
                    Stage::Warming(Rc::new(builder.finish()), 0)
                } else {
                    Stage::Building(builder)
                }
            }
            Stage::Warming(doc, part) => {
                if warm(&doc, &self.config, part) {
                    Stage::Warming(doc, part + 1)
                } else {
                    Stage::Searching(doc, Box::default())
                }
            }
            Stage::Searching(doc, mut search) => {
                let (claims, config, deadline) = (&self.claims.claims, &self.config, &self.deadline);
                let found = if deadline.expired_now() {
                    Some(None)
                } else if !search.step(&doc, claims, config, self.options.search_budget(), deadline) {
                    deadline.expired().then_some(None)
                } else {
                    let index = doc.index_for(config.profile(), config.document_processing.include_hidden_text);
                    Some(std::mem::take(&mut *search).found(index, config, deadline))
                };
                match found {
                    // a part done, more to do
                    None => Stage::Searching(doc, search),
                    Some(Some(found)) => Stage::Validating(doc, Box::new(found)),
                    Some(None) => {
                        // the one call's answer when time runs out while searching
                        self.out.errors.push(self.time_out(0));
                        self.next = self.claims.claims.len();
                        Stage::Noting(doc)
                    }
                }
            }
            Stage::Validating(doc, found) => {
                if self.slice(&doc, &found) {
                    Stage::Noting(doc)
                } else {
                    Stage::Validating(doc, found)
                }
            }
            Stage::Noting(doc) => {
                engine::note_hidden_quotes(&doc, &self.claims.claims, &self.config, &self.deadline, &mut self.out);
                let summary = Summary::of(self.claims.claims.len(), &self.out.results);
                Stage::Hashing(doc, Box::new((ContentHasher::new(), summary)))
            }
            Stage::Hashing(doc, mut hashing) => {
                let (hasher, summary) = &mut *hashing;
                let claims = self.options.claims_per_slice.saturating_mul(SPAN);
                match hasher.step(&self.out.results, &self.out.failed, summary, claims) {
                    Ok(false) => Stage::Hashing(doc, hashing),
                    Ok(true) => {
                        let (hasher, summary) = *hashing;
                        let outcome = std::mem::take(&mut self.out);
                        let mut report = super::hashed_report(&doc, outcome, summary, hasher.finish(), self.started);
                        report.warnings.extend(super::unknown_fields_warning(&self.claims));
                        Stage::Finished(Box::new(report))
                    }
                    Err(e) => Stage::Failed(e),
                }
            }
            done @ (Stage::Finished(_) | Stage::Failed(_) | Stage::Taken) => done,
        };
        matches!(self.stage, Stage::Finished(_) | Stage::Failed(_) | Stage::Taken)
    }

    /// Validates the next slice; true when no claim is left (or time ran out).
    fn slice(&mut self, doc: &Document, found: &engine::Found) -> bool {
        let claims = &self.claims.claims;
        let n = claims.len();
        let from = self.next;
        if from >= n {
            return true;
        }
        if self.deadline.expired_now() {
            self.out.errors.push(self.time_out(from));
            self.next = n;
            return true;
        }
        let to = slice_end(&self.cut, from, self.options.claims_per_slice);
        let part = claims.get(from..to).unwrap_or_default();
        let outcome = engine::run_found(doc, part, from, found, &self.config, &self.deadline);
        let done = from + outcome.results.len();
        self.out.results.extend(outcome.results);
        self.out.failed.extend(outcome.failed);
        self.out.warnings.extend(outcome.warnings);
        if !outcome.errors.is_empty() {
            // without an embedder the engine's only error is the time limit's
            self.out.errors.push(self.time_out(done));
            self.next = n;
            return true;
        }
        self.next = to;
        to >= n
    }

    /// The one call's PROCESSING_ERROR when time ran out at claim `from`.
    fn time_out(&self, from: usize) -> Value {
        let claims = &self.claims.claims;
        let when = if from == 0 {
            "while searching the document".to_string()
        } else {
            format!("after {from} of {} claims", claims.len())
        };
        engine::unfinished(&self.config, claims, from, &when)
    }

    /// Claims validated so far (all of them once time ran out: none is left
    /// to do).
    pub fn claims_done(&self) -> usize {
        self.next
    }

    /// The report: the remaining steps are done first (an error only if
    /// its content hash cannot be written).
    pub fn finish(mut self) -> Result<Report> {
        while !self.step() {}
        match std::mem::replace(&mut self.stage, Stage::Taken) {
            Stage::Finished(report) => Ok(*report),
            Stage::Failed(e) => Err(e),
            // `step` leaves Taken only while it runs: kept total
            _ => super::unparsed_report(
                "",
                &self.claims,
                crate::document::past_deadline("parsing the document"),
                self.started,
            ),
        }
    }
}

/// Builds part `part` of what the searches of a validation with `config`
/// build on first use (each one pass of the normalized text; building it
/// here rather than inside the first slice keeps that slice as short as
/// the others): the word index, the fuzzy matcher's char marks, the short
/// words and word count, and the lexical chunks when semantic matching is
/// on. False when there is no such part (nothing done).
fn warm(doc: &Document, config: &Config, part: usize) -> bool {
    let index = doc.index_for(config.profile(), config.document_processing.include_hidden_text);
    let s = &config.semantic_matching;
    match part {
        0 => {
            index.tokens();
        }
        1 if config.fuzzy_matching.enabled => {
            index.char_marks();
        }
        1 => {}
        2 => {
            index.short_words();
        }
        3 if s.enabled => {
            index.chunks(s.chunk_size, s.overlap_size);
        }
        3 => {}
        _ => return false,
    }
    true
}

/// `cut[b]` for `b` in `0..=claims.len()`: whether no claim id is used both
/// before `b` and from `b` on (a slice may end there). Linear.
fn cuts(claims: &[Claim]) -> Vec<bool> {
    let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::with_capacity(claims.len());
    for (i, c) in claims.iter().enumerate() {
        last.insert(c.id.as_str(), i);
    }
    let mut cut = Vec::with_capacity(claims.len() + 1);
    // the last use of any id met so far
    let mut reach = 0usize;
    cut.push(true);
    for (i, c) in claims.iter().enumerate() {
        reach = reach.max(last.get(c.id.as_str()).copied().unwrap_or(i));
        cut.push(reach <= i);
    }
    cut
}

/// Where the slice from `from` ends: the first cut at least `per_slice`
/// claims on that leaves none or at least [`MIN_SLICE_CLAIMS`] after it;
/// the end of the claims when there is none.
fn slice_end(cut: &[bool], from: usize, per_slice: usize) -> usize {
    let n = cut.len().saturating_sub(1);
    let mut b = from.saturating_add(per_slice.max(MIN_SLICE_CLAIMS)).min(n);
    while b < n && !(cut.get(b).copied().unwrap_or(true) && n - b >= MIN_SLICE_CLAIMS) {
        b += 1;
    }
    b
}

/// A report's JSON text (serde_json's compact form, the bytes of
/// `serde_json::to_string(&report)`) written a bounded number of claims at
/// a time: for 1000 claims it is about 2 MB, which a host with one thread
/// would otherwise write in one go. Written to any `io::Write`, so that a
/// host that already serializes reports to some writer adds no second copy
/// of the serializers (the wasm surface's pieces of JS text).
pub struct ReportJson {
    report: Report,
    /// What is written next: the head, then results from `at`, then
    /// failed claims from `at`, then the end.
    part: JsonPart,
    at: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JsonPart {
    Head,
    Results,
    Failed,
    Done,
}

/// The fields of [`Report`] before its two claim lists, in its order
/// (serde_json writes a struct's fields in order; the test checks the
/// whole text against the report's).
#[derive(serde::Serialize)]
struct Head<'r> {
    ok: bool,
    errors: &'r [Value],
    warnings: &'r [super::Warning],
    generated: &'r super::Generated,
    document_metadata: &'r crate::document::DocumentMetadata,
    validation_summary: &'r super::Summary,
}

impl ReportJson {
    /// The text of `report`, to be written by [`ReportJson::write`].
    pub fn new(report: Report) -> ReportJson {
        ReportJson { report, part: JsonPart::Head, at: 0 }
    }

    /// Writes the next piece of the text to `out`: the fields before the
    /// claim lists, or at most `claims` results or failed claims (at least
    /// one), or the end; true once the whole text is written.
    pub fn write<W: std::io::Write>(&mut self, claims: usize, out: &mut W) -> std::io::Result<bool> {
        let claims = claims.max(1);
        let r = &self.report;
        match self.part {
            JsonPart::Head => {
                let head = Head {
                    ok: r.ok,
                    errors: &r.errors,
                    warnings: &r.warnings,
                    generated: &r.generated,
                    document_metadata: &r.document_metadata,
                    validation_summary: &r.validation_summary,
                };
                let mut text = serde_json::to_vec(&head).map_err(std::io::Error::other)?;
                // `{…}` made `{…,"validated_claims":[`
                text.pop();
                out.write_all(&text)?;
                out.write_all(br#","validated_claims":["#)?;
                self.part = JsonPart::Results;
            }
            JsonPart::Results => {
                let end = self.at.saturating_add(claims).min(r.validated_claims.len());
                write_items(r.validated_claims.get(self.at..end).unwrap_or_default(), self.at, out)?;
                self.at = end;
                if end >= r.validated_claims.len() {
                    out.write_all(br#"],"failed_claims":["#)?;
                    (self.part, self.at) = (JsonPart::Failed, 0);
                }
            }
            JsonPart::Failed => {
                let end = self.at.saturating_add(claims).min(r.failed_claims.len());
                write_items(r.failed_claims.get(self.at..end).unwrap_or_default(), self.at, out)?;
                self.at = end;
                if end >= r.failed_claims.len() {
                    out.write_all(b"]}")?;
                    self.part = JsonPart::Done;
                }
            }
            JsonPart::Done => {}
        }
        Ok(self.part == JsonPart::Done)
    }

    /// The report.
    pub fn report(&self) -> &Report {
        &self.report
    }
}

/// `items` as JSON, comma-separated, the first after a comma unless it is
/// item 0 of its list.
fn write_items<T: serde::Serialize, W: std::io::Write>(items: &[T], first: usize, out: &mut W) -> std::io::Result<()> {
    for (k, item) in items.iter().enumerate() {
        if first + k > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, item).map_err(std::io::Error::other)?;
    }
    Ok(())
}
