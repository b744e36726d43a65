//! The per-claim pipeline of spec 000 §3.6: collect candidates from every
//! matcher that applies, filter them by context, flag changed numbers and
//! negations, deduplicate, and decide the status.

use super::claims::{Claim, EvidenceType};
use super::config::{Config, FindOptions, FuzzyAlgorithm, MAX_RESULTS_BOUND, MAX_RESULT_BYTES};
use super::report::*;
use super::selectors;
use crate::document::{Document, SearchIndex};
use crate::error::{Error, ErrorKind};
use crate::host::Deadline;
use crate::matching::meaning::{self, Change, EditKind};
use crate::matching::{ellipsis, exact, fuzzy, lexical, semantic, sequence_matcher::SequenceMatcher, token};
use crate::text::{lexicon, normalize, quantity, tokens, Normalized, Profile};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;

/// Matches below this confidence are not reported as alternatives.
const ALTERNATIVE_FLOOR: f64 = 0.5;
/// Token passages below this share of the quote's words are not candidates.
const TOKEN_FLOOR: f64 = 0.5;
/// Near misses shown for a failed claim share at least this much.
const NEAR_MISS_FLOOR: f64 = 0.3;
/// Most alternatives / attempts reported.
const MAX_LISTED: usize = 3;
/// Matches overlapping more than this share of the shorter one are one place.
const SAME_PLACE_OVERLAP: f64 = 0.5;
/// The spec's context rule: more than this share of the hint's words nearby.
const CONTEXT_MIN_SCORE: f64 = 0.3;
/// A semantic match's words may spread over this many times the quote's
/// token count before its confidence is scaled down.
const SEMANTIC_SPREAD: f64 = 3.0;
/// Most semantic candidates per claim.
const MAX_SEMANTIC: usize = 5;
/// Tokens before a passage also searched for a negation.
const NEGATION_LOOKBEHIND: usize = 3;

/// What `run` produced.
#[derive(Default)]
pub(super) struct Outcome {
    pub results: Vec<ClaimResult>,
    pub failed: Vec<FailedClaim>,
    pub warnings: Vec<Warning>,
    pub errors: Vec<Value>,
}

/// A candidate match before the decision.
#[derive(Debug, Clone)]
struct Candidate {
    kind: MatchType,
    /// Byte range in the normalized text, when the matcher searched it.
    norm: Option<(usize, usize)>,
    /// Byte range in the original text.
    orig: (usize, usize),
    confidence: f64,
    similarity: f64,
    edit_distance: Option<usize>,
    context_score: Option<f64>,
    discrepancies: Vec<Discrepancy>,
    /// Word-level differences found by the meaning guard.
    edits: Vec<meaning::Edit>,
    /// For semantic matches: embedding or lexical.
    method: Option<SemanticMethod>,
    /// For an ellipsis quote: each fragment's normalized byte range.
    fragments: Vec<(usize, usize)>,
    /// A passage of a looser matcher that is a near copy of the quote
    /// ([`ClaimContext::near_copy_change`]), set by [`ClaimContext::decide`].
    near_copy: bool,
}

/// A claim's quote prepared for matching.
struct Prepared<'c> {
    claim: &'c Claim,
    /// The part of the claim's quote that is matched: wrapping quote marks
    /// and leading and trailing ellipses trimmed ([`ellipsis::trim`]).
    original: &'c str,
    /// An ellipsis quote's fragments, normalized (none for other quotes).
    fragments: Vec<String>,
    /// What trimming took off the quote's start and end, normalized: a
    /// match with exactly that around it in the source is widened to hold
    /// it, as the quote as written would have matched.
    trimmed: (String, String),
    quote: String,
    /// The quote normalized, with its map back to `claim.quote` (letter case
    /// for the meaning guard).
    normalized: Normalized,
    chars: usize,
    /// What the quote's markup says that its text does not show (a link's
    /// destination, an image's source, a tag's attributes): each such part's
    /// text (its ends trimmed to alphanumerics) and words ([`hidden_words`]);
    /// none for most quotes.
    hidden: Vec<(String, Vec<String>)>,
}

/// Up to this many claims, a validation is a search of few patterns (each
/// quote and its fuzzy pieces looked up one by one; see
/// [`crate::document::SearchIndex::grams_for_few`]).
const FEW_CLAIMS: usize = 3;

/// Most words a token passage may change (substitutions the meaning guard
/// finds) and still be a near copy of the quote, whose change no looser
/// match may override ([`ClaimContext::decide`]); more is a paraphrase.
const NEAR_COPY_CHANGES: usize = 2;

/// Fewest words of a quote for a passage another matcher found to count as
/// its near copy (see [`NEAR_COPY_CHANGES`]): with fewer, two changes are
/// most of the quote.
const NEAR_COPY_MIN_WORDS: usize = 5;

/// Most words of a quote, and of a passage, compared word by word for a
/// near copy (the comparison is their product).
const NEAR_COPY_MAX_WORDS: usize = 400;

/// Bytes read at a token passage's edge for its first or last word
/// ([`ClaimContext::with_edge_words`]): a longer word is not matched there,
/// and the passage is left as found.
const EDGE_WORD_BYTES: usize = 40;

/// Least word length, in chars, assumed of a changed word when a failed
/// claim's closest passage is checked for a near copy to name in its
/// suggestions ([`ClaimContext::not_found`]).
const NEAR_MISS_WORD_CHARS: usize = 12;

/// Bytes of spacing or punctuation allowed per word beyond a token
/// passage's edge ([`ClaimContext::with_edge_words`]).
const EDGE_GAP_BYTES: usize = 8;

/// Most places (exact or fuzzy occurrences) held and judged per claim. A
/// quote found more often pins no place: its claim is AMBIGUOUS at best,
/// and the occurrences past this are counted, not held (so a quote that
/// occurs at every line of a 17 MB log costs neither memory nor time per
/// occurrence past this).
pub const MAX_PLACES_PER_CLAIM: usize = 1000;

/// What the up-front search found for every claim.
struct Searched {
    exact: Vec<exact::Occurrences>,
    fuzzy: Vec<Vec<fuzzy::FuzzyMatch>>,
    /// Fuzzy matches per claim in all (beyond the ones held).
    fuzzy_totals: Vec<usize>,
}

/// What the up-front search of a call found for all of its claims (owned:
/// a validation in slices keeps it between its slices): every quote's
/// exact and fuzzy places, and which of the words the meaning guard asks
/// about the source has.
pub(super) struct Found {
    searched: Searched,
    source_words: SourceWords,
}

/// Validates `claims` against `doc`: every claim's result, in input order,
/// without the hidden-text notes, which the caller adds once over all of its
/// claims ([`note_hidden_quotes`]): the one call after this, a validation
/// in slices after its last slice (its slices are a [`Search`] in parts,
/// then [`run_found`] per slice).
pub(super) fn run(
    doc: &Document,
    claims: &[Claim],
    config: &Config,
    deadline: &Deadline,
    embedder: Option<&dyn semantic::Embedder>,
) -> Outcome {
    let mut out = Outcome::default();
    let profile = config.profile();
    let index = doc.index_for(profile, config.document_processing.include_hidden_text);
    let prepared: Vec<Prepared> = claims.iter().map(|claim| prepare(doc, claim, profile)).collect();
    let found = search_prepared(index, config, &prepared, embedder.is_some(), deadline);
    let embedded = match (&found, deadline.expired()) {
        (Some(_), false) => embed_semantic(index.text(), config, &prepared, embedder, &mut out.errors),
        _ => None,
    };
    let (Some(found), false) = (found, deadline.expired()) else {
        out.errors.push(unfinished(config, claims, 0, "while searching the document"));
        return out;
    };
    decide_all(doc, index, config, claims, &prepared, 0, &found, embedded.as_ref(), deadline, &mut out);
    out
}

/// [`run`] (no embedder) for `claims`, the ones from `first` on of those
/// `found` was searched for ([`Search::found`]).
pub(super) fn run_found(
    doc: &Document,
    claims: &[Claim],
    first: usize,
    found: &Found,
    config: &Config,
    deadline: &Deadline,
) -> Outcome {
    let mut out = Outcome::default();
    let profile = config.profile();
    let index = doc.index_for(profile, config.document_processing.include_hidden_text);
    let prepared: Vec<Prepared> = claims.iter().map(|claim| prepare(doc, claim, profile)).collect();
    decide_all(doc, index, config, claims, &prepared, first, found, None, deadline, &mut out);
    out
}

/// The exact and fuzzy places of every prepared quote ([`Search`], its
/// parts in one go) and the source words the meaning guard will ask about
/// (`embedding`: whether a host embedder will be asked); `None` once
/// `deadline` passed. A call of few claims searches by lookups in the gram
/// index.
fn search_prepared(
    index: &SearchIndex,
    config: &Config,
    prepared: &[Prepared],
    embedding: bool,
    deadline: &Deadline,
) -> Option<Found> {
    let mut search = Search { quotes: prepared.iter().map(Quote::of).collect(), ..Search::default() };
    while !search.part(index, config, SearchBudget::WHOLE, deadline) {
        if deadline.expired() {
            return None;
        }
    }
    search.found_with(index, config, embedding, deadline)
}

/// How much one part of a [`Search`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SearchBudget {
    /// Claims prepared (their quotes normalized) per part.
    pub claims: usize,
    /// Bytes of the normalized text the exact search starts occurrences in
    /// per part (it reads up to the longest quote's length past them).
    pub bytes: usize,
    /// Fuzzy queries (quotes) searched per part (each part a pass of the
    /// fuzzy filter over the whole text for its queries).
    pub queries: usize,
}

impl SearchBudget {
    /// Everything in one part each: the one call's search.
    pub const WHOLE: SearchBudget = SearchBudget { claims: usize::MAX, bytes: usize::MAX, queries: usize::MAX };
}

/// What the search needs of a claim's prepared quote (owned: a search in
/// parts keeps it between its parts).
struct Quote {
    /// [`Prepared::quote`].
    quote: String,
    chars: usize,
    /// Not an ellipsis quote (no fragments): the fuzzy search applies.
    whole: bool,
    evidence: EvidenceType,
}

impl Quote {
    fn of(p: &Prepared) -> Quote {
        Quote { quote: p.quote.clone(), chars: p.chars, whole: p.fragments.is_empty(), evidence: p.claim.evidence_type }
    }
}

/// The up-front search of all of a call's claims, done a bounded part at
/// a time ([`Search::step`]) for a validation in steps, or all of its
/// parts in one go by the one call ([`search_prepared`]); the same answer
/// however it is cut: the claims prepared a run at a time; the exact
/// search of every quote together, a range of the text at a time (each
/// occurrence counted in the range where it starts, the text read past the
/// range by the longest quote, occurrences kept in ascending order up to
/// the cap as the one pass keeps them); then the fuzzy search, a run of
/// the quotes at a time (each quote's fuzzy matches depend on that quote
/// and the text only); then the source words.
#[derive(Default)]
pub(super) struct Search {
    quotes: Vec<Quote>,
    /// The distinct non-empty quotes (the index of one claim holding each),
    /// and the claims holding each, ascending; made at the first exact part.
    unique: Option<(Vec<usize>, Vec<Vec<usize>>)>,
    /// The exact search's plan of the distinct quotes (made with `unique`,
    /// used for every range of the text).
    plan: Option<exact::SearchPlan>,
    /// Occurrences of each distinct quote so far.
    found: Vec<exact::Occurrences>,
    /// The text byte the next exact part starts at (a char boundary).
    exact_from: usize,
    /// Each claim's exact occurrences, once the exact search is done.
    exact: Option<Vec<exact::Occurrences>>,
    /// The fuzzy queries (claim, largest distance), made once `exact` is.
    queries: Vec<(usize, usize)>,
    /// The next query to search.
    query_next: usize,
    fuzzy: Vec<Vec<fuzzy::FuzzyMatch>>,
    fuzzy_totals: Vec<usize>,
    /// Whether the search uses the document's gram index (asked at its
    /// first part that searches).
    with_grams: Option<bool>,
}

impl Search {
    /// Does the next part of the search of `claims` (those of the call,
    /// all of them every time) within `budget`; true when no part is left
    /// (nothing done: [`Search::found`] is next). Past `deadline` a part
    /// stops short: the caller asks `deadline.expired()` after each.
    pub(super) fn step(
        &mut self,
        doc: &Document,
        claims: &[Claim],
        config: &Config,
        budget: SearchBudget,
        deadline: &Deadline,
    ) -> bool {
        let done = self.quotes.len();
        if done < claims.len() {
            let profile = config.profile();
            let end = done.saturating_add(budget.claims.max(1)).min(claims.len());
            let part = claims.get(done..end).unwrap_or_default();
            self.quotes.extend(part.iter().map(|claim| Quote::of(&prepare(doc, claim, profile))));
            return false;
        }
        let index = doc.index_for(config.profile(), config.document_processing.include_hidden_text);
        self.part(index, config, budget, deadline)
    }

    /// [`Search::step`] once every claim is prepared: an exact or fuzzy
    /// part, or true when none is left.
    fn part(&mut self, index: &SearchIndex, config: &Config, budget: SearchBudget, deadline: &Deadline) -> bool {
        let grams = self.grams(index);
        let text = index.text();
        if self.exact.is_none() {
            if !config.exact_matching.enabled {
                self.exact = Some(vec![exact::Occurrences::default(); self.quotes.len()]);
            } else if self.exact_from >= text.len() && self.unique.is_some() {
                self.exact = Some(self.exact_answers());
            } else {
                // the gram index answers for the whole text at once
                let bytes = if grams.is_some() { usize::MAX } else { budget.bytes.max(1) };
                self.exact_part(text, grams, bytes, deadline);
                return false;
            }
            self.start_fuzzy(config);
        }
        if self.query_next >= self.queries.len() {
            return true;
        }
        let from = self.query_next;
        let to = from.saturating_add(budget.queries.max(1)).min(self.queries.len());
        let (quotes, queries) = (&self.quotes, self.queries.get(from..to).unwrap_or_default());
        let list: Vec<fuzzy::FuzzyQuery> = queries
            .iter()
            .map(|&(c, k)| fuzzy::FuzzyQuery {
                pattern: quotes.get(c).map_or("", |q| q.quote.as_str()),
                max_distance: k,
            })
            .collect();
        self.query_next = to;
        if deadline.expired() || list.is_empty() {
            return false;
        }
        let (found, totals) =
            fuzzy::find_all_bounded(text, index.char_marks(), grams, &list, MAX_PLACES_PER_CLAIM, deadline);
        for m in found {
            if let Some(hits) = queries.get(m.query).and_then(|&(owner, _)| self.fuzzy.get_mut(owner)) {
                // numbered among all the queries, as one search of them all numbers it
                hits.push(fuzzy::FuzzyMatch { query: from + m.query, ..m });
            }
        }
        for (q, total) in totals.into_iter().enumerate() {
            if let Some(slot) = queries.get(q).and_then(|&(owner, _)| self.fuzzy_totals.get_mut(owner)) {
                *slot = total;
            }
        }
        false
    }

    /// The gram index, for a search of few claims: a document asked about
    /// one claim at a time answers from it. Asked of the document once per
    /// search (it counts the searches that ask), as the one pass did.
    fn grams<'i>(&mut self, index: &'i SearchIndex) -> Option<&'i exact::GramIndex> {
        match self.with_grams {
            Some(false) => None,
            Some(true) => index.grams_for_few(),
            None => {
                let grams = if self.quotes.len() <= FEW_CLAIMS { index.grams_for_few() } else { None };
                self.with_grams = Some(grams.is_some());
                grams
            }
        }
    }

    /// The exact search of every quote in the occurrences starting in the
    /// next `bytes` of `text` (from [`Search::exact_from`], to a char
    /// boundary), reading on by the longest quote's length less one byte;
    /// the searcher's plan is made at the first part.
    fn exact_part(&mut self, text: &str, grams: Option<&exact::GramIndex>, bytes: usize, deadline: &Deadline) {
        let (unique, _) = self.unique.get_or_insert_with(|| distinct_quotes(&self.quotes));
        let patterns: Vec<&[u8]> =
            unique.iter().map(|&c| self.quotes.get(c).map_or(&b""[..], |q| q.quote.as_bytes())).collect();
        if self.found.len() != patterns.len() {
            self.found = vec![exact::Occurrences::default(); patterns.len()];
        }
        let from = self.exact_from;
        let end = ceil_char(text, from.saturating_add(bytes));
        let longest = patterns.iter().map(|p| p.len()).max().unwrap_or(0);
        let read_to = ceil_char(text, end.saturating_add(longest.saturating_sub(1)));
        self.exact_from = end;
        let Some(range) = text.as_bytes().get(from..read_to) else {
            self.exact_from = text.len();
            return;
        };
        let found = &mut self.found;
        // the gram index is over the whole text: only with the whole text
        let grams = if from == 0 && read_to >= text.len() { grams } else { None };
        let plan = self.plan.get_or_insert_with(|| exact::SearchPlan::new(&patterns));
        exact::MultiSearcher::with_plan(plan, &patterns).with_grams(grams).with_deadline(deadline).find_overlapping(
            range,
            |p, start| {
                let start = from + start;
                if let (true, Some(list), Some(pat)) = (start < end, found.get_mut(p), patterns.get(p)) {
                    list.total += 1;
                    if list.spans.len() < MAX_PLACES_PER_CLAIM {
                        list.spans.push((start, start + pat.len()));
                    }
                }
            },
        );
    }

    /// Each claim's exact occurrences, from those of the distinct quotes
    /// (sorted: one pattern's come in ascending order, as in
    /// [`exact::find_all_bounded`]).
    fn exact_answers(&mut self) -> Vec<exact::Occurrences> {
        let mut answers = vec![exact::Occurrences::default(); self.quotes.len()];
        let owners = self.unique.take().map(|(_, owners)| owners).unwrap_or_default();
        self.plan = None;
        for (mut hits, owners) in std::mem::take(&mut self.found).into_iter().zip(owners) {
            hits.spans.sort();
            for o in owners {
                if let Some(a) = answers.get_mut(o) {
                    *a = hits.clone();
                }
            }
        }
        answers
    }

    /// The fuzzy queries, from the exact answers: the claims with no exact
    /// occurrence, and the loose ones.
    fn start_fuzzy(&mut self, config: &Config) {
        let fuzzy_cfg = &config.fuzzy_matching;
        let exact = self.exact.as_deref().unwrap_or_default();
        self.queries = self
            .quotes
            .iter()
            .enumerate()
            .filter(|(i, q)| {
                let none_exact = exact.get(*i).is_none_or(|o| o.total == 0);
                fuzzy_cfg.enabled && q.chars > 0 && q.whole && (none_exact || q.evidence.is_loose())
            })
            .map(|(i, q)| (i, max_distance(config, q.chars)))
            .collect();
        self.fuzzy = vec![Vec::new(); self.quotes.len()];
        self.fuzzy_totals = vec![0; self.quotes.len()];
        self.query_next = 0;
    }

    /// What the search found, with the source words the meaning guard will
    /// ask about (no embedder); `None` once `deadline` passed.
    pub(super) fn found(self, index: &SearchIndex, config: &Config, deadline: &Deadline) -> Option<Found> {
        self.found_with(index, config, false, deadline)
    }

    fn found_with(
        mut self,
        index: &SearchIndex,
        config: &Config,
        embedding: bool,
        deadline: &Deadline,
    ) -> Option<Found> {
        if deadline.expired() {
            return None;
        }
        let grams = self.grams(index);
        let n = self.quotes.len();
        let searched = Searched {
            exact: self.exact.unwrap_or_else(|| vec![exact::Occurrences::default(); n]),
            fuzzy: if self.fuzzy.len() == n { self.fuzzy } else { vec![Vec::new(); n] },
            fuzzy_totals: if self.fuzzy_totals.len() == n { self.fuzzy_totals } else { vec![0; n] },
        };
        // built now rather than at the first claim that reads it, the word
        // index answers the guard's questions about the source's words
        if will_read_tokens(config, &self.quotes, &searched, embedding) {
            index.tokens();
        }
        let source_words =
            SourceWords::find(index, grams, words_asked(index.text(), &self.quotes, &searched), deadline);
        Some(Found { searched, source_words })
    }
}

/// The distinct non-empty quotes of `quotes` (by the first claim holding
/// each, in byte order) and the claims holding each, ascending.
fn distinct_quotes(quotes: &[Quote]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut order: Vec<(&[u8], usize)> =
        quotes.iter().enumerate().filter(|(_, q)| !q.quote.is_empty()).map(|(i, q)| (q.quote.as_bytes(), i)).collect();
    crate::sort::sort_by(&mut order, |a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    let (mut unique, mut owners): (Vec<usize>, Vec<Vec<usize>>) = (Vec::new(), Vec::new());
    let mut last: Option<&[u8]> = None;
    for (p, i) in order {
        if last != Some(p) {
            last = Some(p);
            unique.push(i);
            owners.push(Vec::new());
        }
        if let Some(o) = owners.last_mut() {
            o.push(i);
        }
    }
    (unique, owners)
}

/// The first char boundary of `s` at or after `i` (its length past it).
fn ceil_char(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Decides each of `claims` (prepared: `prepared`; the claims from `first`
/// on of those `found` was searched for) into `out`, in order; past
/// `deadline`, the claims not decided are named in a PROCESSING_ERROR.
#[allow(clippy::too_many_arguments)]
fn decide_all(
    doc: &Document,
    index: &SearchIndex,
    config: &Config,
    claims: &[Claim],
    prepared: &[Prepared],
    first: usize,
    found: &Found,
    embedded: Option<&(semantic::EmbeddedChunks, Vec<Option<Vec<f32>>>)>,
    deadline: &Deadline,
    out: &mut Outcome,
) {
    let searched = &found.searched;
    // one result a claim: no vector of large results grown by copying
    out.results.reserve(prepared.len());
    // a set, not a list: one lookup per claim, not a scan of all before it
    let mut seen_ids: std::collections::HashSet<&str> = std::collections::HashSet::with_capacity(prepared.len());
    for (i, p) in prepared.iter().enumerate() {
        if !seen_ids.insert(p.claim.id.as_str()) {
            out.warnings.push(Warning {
                code: "DUPLICATE_CLAIM_ID".into(),
                message: format!("claim id {} is used more than once; results are reported in input order", p.claim.id),
                claim_id: Some(p.claim.id.clone()),
            });
        }
        let quote_vector = embedded.and_then(|(_, vectors)| vectors.get(i)).and_then(Option::as_ref);
        let semantic = embedded.map(|(chunks, _)| (chunks, quote_vector));
        let ctx = ClaimContext {
            doc,
            index,
            config,
            p,
            semantic,
            source_words: &found.source_words,
            deadline,
            fragments_capped: std::cell::Cell::new(false),
            quote_numbers: std::cell::OnceCell::new(),
            quote_words: std::cell::OnceCell::new(),
        };
        let (no_exact, no_fuzzy) = (exact::Occurrences::default(), Vec::new());
        let hits = Hits {
            exact: searched.exact.get(first + i).unwrap_or(&no_exact),
            fuzzy: searched.fuzzy.get(first + i).unwrap_or(&no_fuzzy),
            fuzzy_total: searched.fuzzy_totals.get(first + i).copied().unwrap_or(0),
        };
        // the clock is read before every claim (a claim's work may be less
        // than a stride of asks, and claims are few)
        let decided = if deadline.expired_now() { None } else { ctx.decide(&hits) };
        let Some(decided) = decided else {
            out.errors.push(unfinished(config, claims, i, &format!("after {i} of {} claims", prepared.len())));
            break;
        };
        out.warnings.extend(decided.warnings);
        if let Some(f) = decided.failed {
            out.failed.push(f);
        }
        out.results.push(decided.result);
    }
}

/// Claims not VALIDATED whose quote occurs word for word (normalized the
/// same way, whole words) in text no reader sees, within one hidden element
/// (issue 13: hidden "evidence" is a prompt-injection route). They stay
/// FAILED or LOW_CONFIDENCE, and say why: a `HIDDEN_TEXT` warning, and the
/// hidden place first in `failed_claims[].attempted_matches` (its span
/// points into the original; `candidate_text` is the original there). One
/// pass over the hidden text for all such claims, within the deadline (past
/// it, claims are reported without this note).
pub(super) fn note_hidden_quotes(
    doc: &Document,
    claims: &[Claim],
    config: &Config,
    deadline: &Deadline,
    out: &mut Outcome,
) {
    let hidden = doc.hidden_text();
    if hidden.is_empty() || config.document_processing.include_hidden_text || deadline.expired() {
        return;
    }
    let wanted = hidden_candidates(claims, out);
    if wanted.is_empty() {
        return;
    }
    let profile = config.profile();
    let norm = Normalized::from_units(hidden_units(hidden), profile);
    let text = norm.as_str();
    // only the claims looked for are prepared (normalized) again
    let prepared: Vec<Prepared> =
        wanted.iter().filter_map(|&(r, _)| claims.get(r)).map(|claim| prepare(doc, claim, profile)).collect();
    let quotes: Vec<&str> = prepared.iter().map(|p| p.quote.as_str()).collect();
    let hits = exact::find_all_bounded(text, None, &quotes, MAX_PLACES_PER_CLAIM, deadline);
    for ((&(_, f), p), hits) in wanted.iter().zip(&prepared).zip(hits) {
        let place = hits.spans.into_iter().find_map(|(s, e)| {
            if meaning::inside_word(text, s) || meaning::inside_word(text, e) {
                return None;
            }
            let (os, oe) = norm.original_range(s, e)?;
            hidden.region_holding(os, oe).map(|g| (os, oe, g.reason))
        });
        if let Some(place) = place {
            note_hidden_place(doc, &p.claim.id, f, place, out);
        }
    }
}

/// The claims [`note_hidden_quotes`] looks for: (result, failed_claims
/// entry) of each FAILED as not found or LOW_CONFIDENCE.
fn hidden_candidates(claims: &[Claim], out: &Outcome) -> Vec<(usize, usize)> {
    // every non-VALIDATED result has one failed_claims entry, in order
    let mut wanted: Vec<(usize, usize)> = Vec::new();
    let mut failed_at = 0;
    for (r, result) in out.results.iter().enumerate() {
        if result.validation_status == Status::Validated {
            continue;
        }
        let f = failed_at;
        failed_at += 1;
        let same = |id: &str| id == result.claim_id;
        let fits = match result.validation_status {
            Status::Failed => out.failed.get(f).is_some_and(|x| x.failure_reason == FailureReason::NotFound),
            Status::LowConfidence => true,
            _ => false,
        };
        if fits && out.failed.get(f).is_some_and(|x| same(&x.claim_id)) && claims.get(r).is_some_and(|c| same(&c.id)) {
            wanted.push((r, f));
        }
    }
    wanted
}

/// The hidden units, with a separator between regions (spanning the gap),
/// so that no quote is found across two hidden elements.
fn hidden_units(hidden: &crate::extract::Hidden) -> Vec<crate::extract::Unit> {
    let mut units = Vec::with_capacity(hidden.units.len() + hidden.regions.len());
    let mut region = 0;
    let mut last: Option<(usize, u32)> = None;
    for u in &hidden.units {
        while hidden.regions.get(region).is_some_and(|g| g.end <= u.start) {
            region += 1;
        }
        if let Some((r, end)) = last {
            if r != region && end < u.start {
                units.push(crate::extract::Unit { ch: '\n', start: end, end: u.start });
            }
        }
        units.push(*u);
        last = Some((region, u.end));
    }
    units
}

/// Says that claim `id` (failed_claims entry `f`) occurs at original bytes
/// `os..oe` hidden for `reason`: a warning, the place first among the
/// attempted matches, a suggestion.
fn note_hidden_place(
    doc: &Document,
    id: &str,
    f: usize,
    (os, oe, reason): (usize, usize, crate::extract::HiddenReason),
    out: &mut Outcome,
) {
    let span = doc.span(os, oe);
    let why = format!("the quote occurs only in text a reader does not see ({})", reason.describe());
    out.warnings.push(Warning {
        code: "HIDDEN_TEXT".into(),
        message: format!("claim {id}: {why}, at line {}; not validated", span.line),
        claim_id: Some(id.to_string()),
    });
    if let Some(failed) = out.failed.get_mut(f) {
        failed.attempted_matches.insert(
            0,
            Attempt {
                candidate_text: doc.source().get(os..oe).unwrap_or("").to_string(),
                confidence_score: 0.0,
                rejection_reason: format!("HIDDEN_TEXT: {why}"),
                location: Location::new(&span, doc.section_at(os).map(|s| s.title.clone())),
            },
        );
        failed.attempted_matches.truncate(MAX_LISTED);
        failed.suggestions.insert(
            0,
            format!(
                "The quoted words are in the source at line {} but hidden from readers ({}): hidden text is not evidence. Quote visible text, or set document_processing.include_hidden_text if hidden text counts.",
                span.line,
                reason.describe()
            ),
        );
    }
}

/// The words the meaning guard may ask the source about: those of quotes it
/// will compare word by word (fuzzy hits, paraphrases, exact hits cut inside
/// a word), to be looked up in one pass.
fn words_asked(text: &str, prepared: &[Quote], searched: &Searched) -> Vec<String> {
    let mut asked: Vec<String> = Vec::new();
    let no_fuzzy = Vec::new();
    for (i, p) in prepared.iter().enumerate() {
        let spans = searched.exact.get(i).map_or(&[][..], |o| o.spans.as_slice());
        let fuzzy_hits = searched.fuzzy.get(i).unwrap_or(&no_fuzzy);
        let cut = spans.iter().any(|&(s, e)| meaning::inside_word(text, s) || meaning::inside_word(text, e));
        if cut || p.evidence.is_loose() {
            asked.extend(meaning::vocabulary_questions(&p.quote, |_| false));
        } else if !fuzzy_hits.is_empty() {
            // a word the passage has as written is aligned, never asked about
            let passages: Vec<String> =
                fuzzy_hits.iter().filter_map(|m| text.get(m.start..m.end)).map(str::to_lowercase).collect();
            asked.extend(meaning::vocabulary_questions(&p.quote, |w| passages.iter().any(|t| t.contains(w))));
        }
    }
    asked
}

/// The PROCESSING_ERROR of a call whose deadline passed: names every claim
/// from `from` on (not finished, so not in `validated_claims`).
pub(super) fn unfinished(config: &Config, claims: &[Claim], from: usize, when: &str) -> Value {
    let skipped: Vec<Value> = claims.get(from..).unwrap_or_default().iter().map(|c| c.id.clone().into()).collect();
    let err = Error::new(
        ErrorKind::Processing,
        format!(
            "processing time exceeded max_processing_time_seconds ({} s) {when}: {} claim(s) not finished",
            config.performance_limits.max_processing_time_seconds,
            skipped.len()
        ),
    );
    let mut entry = err.to_json();
    if let Value::Object(o) = &mut entry {
        o.insert("affected_claims".into(), Value::Array(skipped));
    }
    entry
}

/// One claim's occurrences from the up-front search.
struct Hits<'h> {
    exact: &'h exact::Occurrences,
    fuzzy: &'h [fuzzy::FuzzyMatch],
    /// Fuzzy matches in all (`fuzzy.len()` plus those past the cap).
    fuzzy_total: usize,
}

impl Hits<'_> {
    /// Occurrences found but not held (past [`MAX_PLACES_PER_CLAIM`]).
    fn left_out(&self) -> usize {
        self.total().saturating_sub(self.exact.spans.len() + self.fuzzy.len())
    }

    fn total(&self) -> usize {
        self.exact.total + self.fuzzy_total
    }
}

/// Whether deciding `prepared` is likely to read the word index: a claim
/// the token matcher or the lexical fallback searches, or one that neither
/// the exact nor the fuzzy search found (its near misses). A guess: the
/// answers are the same either way, only the cost is not.
fn will_read_tokens(config: &Config, prepared: &[Quote], searched: &Searched, embedded: bool) -> bool {
    prepared.iter().enumerate().any(|(i, p)| {
        let evidence = p.evidence;
        let unfound =
            searched.exact.get(i).is_none_or(|o| o.total == 0) && searched.fuzzy_totals.get(i).is_none_or(|&n| n == 0);
        unfound
            || (config.fuzzy_matching.enabled && evidence.is_loose())
            || (config.semantic_matching.enabled && !embedded && evidence != EvidenceType::DirectQuote)
    })
}

/// Which of the words the meaning guard asks about occur in the source as
/// whole words: short ones from a bitset of the text's short words, longer
/// ones from the token index's vocabulary when it is built (its
/// [`crate::matching::index::TokenIndex::has_whole_word`]), else in one
/// multi-pattern pass over the normalized text (cheaper than building the
/// token index, which tokenizes the whole document).
pub(crate) struct SourceWords(std::collections::HashSet<String>);

impl SourceWords {
    fn find(
        index: &SearchIndex,
        grams: Option<&exact::GramIndex>,
        mut asked: Vec<String>,
        deadline: &Deadline,
    ) -> SourceWords {
        crate::sort::sort(&mut asked);
        asked.dedup();
        let text = index.text();
        // short words from the set counted with the words; longer ones in
        // one multi-pattern pass
        let short = index.short_words();
        let mut present: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut long: Vec<String> = Vec::new();
        for w in asked {
            match short.contains(&w) {
                Some(true) => {
                    present.insert(w);
                }
                Some(false) => {}
                None => long.push(w),
            }
        }
        // answers kept from earlier calls on this document
        let (known, long) = index.asked_words(long);
        present.extend(known);
        // the token index, when built, answers from its vocabulary; what it
        // cannot tell, one multi-pattern pass
        let mut answers: Vec<(String, bool)> = Vec::with_capacity(long.len());
        let mut search: Vec<String> = Vec::new();
        for w in long {
            match index.built_tokens().and_then(|t| t.has_whole_word(&w)) {
                Some(found) => answers.push((w, found)),
                None => search.push(w),
            }
        }
        let found = whole_words_searched(text, grams, &search, deadline);
        answers.extend(search.into_iter().zip(found));
        present.extend(answers.iter().filter(|(_, f)| *f).map(|(w, _)| w.clone()));
        // an answer cut short by the deadline is not kept: a word not seen
        // yet is not a word the text lacks
        if !deadline.expired() {
            index.remember_words(answers);
        }
        SourceWords(present)
    }
}

/// Which of `words` occur in `text` on word boundaries
/// ([`meaning::inside_word`]): one multi-pattern pass.
fn whole_words_searched(
    text: &str,
    grams: Option<&exact::GramIndex>,
    words: &[String],
    deadline: &Deadline,
) -> Vec<bool> {
    let patterns: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
    let mut found = vec![false; patterns.len()];
    if !patterns.is_empty() {
        let searcher = exact::MultiSearcher::new(&patterns).with_grams(grams).with_deadline(deadline);
        searcher.find_overlapping(text.as_bytes(), |p, start| {
            let end = start + patterns.get(p).map_or(0, |w| w.len());
            if found.get(p) == Some(&false) && !meaning::inside_word(text, start) && !meaning::inside_word(text, end) {
                if let Some(f) = found.get_mut(p) {
                    *f = true;
                }
            }
        });
    }
    found
}

impl meaning::Words for SourceWords {
    fn in_source(&self, word: &str) -> bool {
        self.0.contains(word)
    }
}

/// The claims semantic matching applies to (by index).
fn semantic_claims(config: &Config, prepared: &[Prepared]) -> Vec<usize> {
    let enabled = config.semantic_matching.enabled;
    (0..prepared.len())
        .filter(|&i| {
            enabled
                && prepared.get(i).is_some_and(|p| p.claim.evidence_type != EvidenceType::DirectQuote && p.chars > 0)
        })
        .collect()
}

/// What [`run`] will ask an embedder for, in order (empty when no claim
/// needs semantic matching).
pub(super) fn semantic_texts(doc: &Document, claims: &[Claim], config: &Config) -> Vec<String> {
    let profile = config.profile();
    let prepared: Vec<Prepared> = claims.iter().map(|claim| prepare(doc, claim, profile)).collect();
    let wanted = semantic_claims(config, &prepared);
    if wanted.is_empty() {
        return Vec::new();
    }
    let quotes: Vec<&str> = wanted.iter().filter_map(|&i| prepared.get(i)).map(|p| p.quote.as_str()).collect();
    let s = &config.semantic_matching;
    let text = doc.index_for(profile, config.document_processing.include_hidden_text).text();
    semantic::request_texts(text, s.chunk_size, s.overlap_size, &quotes)
}

fn prepare<'c>(doc: &Document, claim: &'c Claim, profile: Profile) -> Prepared<'c> {
    let (ts, te) = ellipsis::trim(&claim.quote);
    let original = claim.quote.get(ts..te).unwrap_or(&claim.quote);
    let fragments = ellipsis::fragments(&claim.quote, (ts, te))
        .unwrap_or_default()
        .iter()
        .map(|&(s, e)| {
            let piece = claim.quote.get(s..e).unwrap_or("");
            Normalized::from_units(doc.format().units(piece), profile).as_str().to_string()
        })
        .collect();
    let units = doc.format().units(original);
    let hidden = hidden_words(original, &units);
    let normalized = Normalized::from_units(units, profile);
    let quote = normalized.as_str().to_string();
    let chars = quote.chars().count();
    let cut = |t: &str| Normalized::from_units(doc.format().units(t.trim()), profile).as_str().to_string();
    let trimmed = (cut(claim.quote.get(..ts).unwrap_or("")), cut(claim.quote.get(te..).unwrap_or("")));
    Prepared { claim, original, fragments, trimmed, quote, normalized, chars, hidden }
}

/// Whether each of `hidden` (a quote's markup parts, [`hidden_words`]) is a
/// run of the source's words between the characters around the match
/// `s..e` (normalized bytes of `index`), within [`MARKUP_WINDOW_BYTES`]: a
/// `markup` discrepancy naming the parts that are not, and the source's
/// text there.
fn markup_discrepancy(
    doc: &Document,
    index: &SearchIndex,
    hidden: &[(String, Vec<String>)],
    s: usize,
    e: usize,
) -> Option<Discrepancy> {
    if hidden.is_empty() {
        return None;
    }
    let norm = index.normalized();
    let text = norm.as_str();
    let src = doc.source();
    let from = text
        .get(..s)
        .and_then(|t| t.chars().next_back())
        .and_then(|c| norm.original_range(s - c.len_utf8(), s))
        .map_or(0, |r| r.1);
    let to = text
        .get(e..)
        .and_then(|t| t.chars().next())
        .and_then(|c| norm.original_range(e, e + c.len_utf8()))
        .map_or(src.len(), |r| r.0);
    let to = meaning::floor_boundary(src, to.min(from.saturating_add(MARKUP_WINDOW_BYTES)));
    let window = src.get(from..to.max(from)).unwrap_or("");
    let words = alphanumeric_runs(window);
    let mut at = 0;
    let mut missing = Vec::new();
    for (shown, part) in hidden {
        match run_at(words.get(at..).unwrap_or_default(), part) {
            Some(i) => at += i + part.len(),
            None => missing.push(shown.clone()),
        }
    }
    if missing.is_empty() {
        return None;
    }
    let mut shown: String = window.chars().take(MARKUP_SHOWN_CHARS).collect();
    if shown.len() < window.len() {
        shown.push('…');
    }
    Some(Discrepancy { kind: "markup", quote: missing, source: vec![shown] })
}

/// The parts of `text` that none of its `units` (its text as its format
/// reads it) comes from and that hold a letter or digit, each as its text
/// (trimmed to its first and last alphanumeric) and its words (alphanumeric
/// runs): what markup says that the text does not show (a markdown link's
/// destination, an image's source, an HTML tag's attributes, a comment).
fn hidden_words(text: &str, units: &[crate::extract::Unit]) -> Vec<(String, Vec<String>)> {
    let mut parts = Vec::new();
    let mut covered = 0;
    let mut take = |from: usize, to: usize| {
        let part = text.get(from..to).unwrap_or("");
        let words = alphanumeric_runs(part);
        // a bare formatting tag (`<b>`, `</em>`) says nothing the text does not
        let bare_tag = matches!(words.as_slice(), [w] if FORMATTING_TAGS.contains(&w.to_ascii_lowercase().as_str()));
        if !words.is_empty() && !bare_tag {
            let shown = part.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
            parts.push((shown, words.into_iter().map(str::to_string).collect()));
        }
    };
    for u in units {
        let (start, end) = (u.start as usize, u.end as usize);
        if start > covered {
            take(covered, start);
        }
        covered = covered.max(end);
    }
    if covered < text.len() {
        take(covered, text.len());
    }
    parts
}

/// HTML elements that only format their text: written bare (no attribute)
/// in a quote, [`hidden_words`] does not ask the source for them.
const FORMATTING_TAGS: &[&str] = &[
    "b",
    "i",
    "u",
    "s",
    "em",
    "strong",
    "mark",
    "small",
    "sub",
    "sup",
    "del",
    "ins",
    "code",
    "kbd",
    "samp",
    "var",
    "tt",
    "strike",
    "q",
    "cite",
    "abbr",
    "span",
    "p",
    "br",
    "div",
    "li",
    "ul",
    "ol",
    "blockquote",
    "pre",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
];

/// The maximal runs of alphanumeric chars of `text`, in order.
fn alphanumeric_runs(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect()
}

/// Most bytes of the source around a match that [`ClaimContext::markup_discrepancy`]
/// reads for the quote's hidden parts: past it they count as not found.
const MARKUP_WINDOW_BYTES: usize = 64 * 1024;

/// Most chars of the source's text around a match that a markup
/// discrepancy shows.
const MARKUP_SHOWN_CHARS: usize = 200;

/// Where `part` (words) occurs as a run of consecutive `words`, from the start.
fn run_at(words: &[&str], part: &[String]) -> Option<usize> {
    if part.is_empty() {
        return Some(0);
    }
    words.windows(part.len()).position(|w| w.iter().zip(part).all(|(a, b)| *a == b.as_str()))
}

/// Semantic matching through the host's embedder: the chunks and every
/// quote that semantic matching applies to, embedded in one call. `None`
/// without an embedder (or when no claim needs it); an embedder failure is
/// recorded as a PROCESSING_ERROR and the lexical fallback used.
#[allow(clippy::type_complexity)]
fn embed_semantic(
    text: &str,
    config: &Config,
    prepared: &[Prepared],
    embedder: Option<&dyn semantic::Embedder>,
    errors: &mut Vec<Value>,
) -> Option<(semantic::EmbeddedChunks, Vec<Option<Vec<f32>>>)> {
    let embedder = embedder?;
    let s = &config.semantic_matching;
    let wanted = semantic_claims(config, prepared);
    if wanted.is_empty() {
        return None;
    }
    let quotes: Vec<&str> = wanted.iter().filter_map(|&i| prepared.get(i)).map(|p| p.quote.as_str()).collect();
    match semantic::embed(text, s.chunk_size, s.overlap_size, &quotes, embedder) {
        Ok((chunks, vectors)) => {
            let mut per_claim: Vec<Option<Vec<f32>>> = vec![None; prepared.len()];
            for (&i, v) in wanted.iter().zip(vectors) {
                if let Some(slot) = per_claim.get_mut(i) {
                    *slot = Some(v);
                }
            }
            Some((chunks, per_claim))
        }
        Err(e) => {
            let mut entry = e.to_json();
            if let Value::Object(o) = &mut entry {
                let ids: Vec<Value> =
                    wanted.iter().filter_map(|&i| prepared.get(i)).map(|p| Value::from(p.claim.id.clone())).collect();
                o.insert("affected_claims".into(), Value::Array(ids));
            }
            errors.push(entry);
            None
        }
    }
}

impl EvidenceType {
    /// Paraphrases and concept references are not verbatim: the fuzzy and
    /// token matchers always run for them.
    fn is_loose(self) -> bool {
        matches!(self, EvidenceType::Paraphrase | EvidenceType::ConceptReference)
    }
}

/// The largest edit distance both limits allow: `max_edit_distance`, and
/// for Levenshtein similarity `(1 − similarity_threshold) × length`.
fn max_distance(config: &Config, chars: usize) -> usize {
    let f = &config.fuzzy_matching;
    let by_similarity = match f.algorithm {
        FuzzyAlgorithm::Levenshtein => ((1.0 - f.similarity_threshold) * chars as f64 + 1e-9).floor() as usize,
        FuzzyAlgorithm::SequenceMatcher => f.max_edit_distance,
    };
    f.max_edit_distance.min(by_similarity).min(chars.saturating_sub(1))
}

/// Candidates set aside, each with why.
type Rejected = Vec<(Candidate, String)>;

struct Decided {
    result: ClaimResult,
    failed: Option<FailedClaim>,
    warnings: Vec<Warning>,
}

struct ClaimContext<'a> {
    doc: &'a Document,
    index: &'a SearchIndex,
    config: &'a Config,
    p: &'a Prepared<'a>,
    /// The source's vocabulary, as far as the meaning guard asks it.
    source_words: &'a SourceWords,
    /// The embedded chunks and this claim's quote vector, when the host
    /// gave an embedder.
    semantic: Option<(&'a semantic::EmbeddedChunks, Option<&'a Vec<f32>>)>,
    /// The call's deadline, asked inside every loop over candidates.
    deadline: &'a Deadline<'a>,
    /// An ellipsis fragment occurred more than [`MAX_PLACES_PER_CLAIM`]
    /// times: placements past the held occurrences were not examined.
    fragments_capped: std::cell::Cell<bool>,
    /// What [`ClaimContext::discrepancies`] reads of the quote, read at
    /// its first candidate and kept for the others.
    quote_numbers: std::cell::OnceCell<QuoteNumbers>,
    /// The normalized quote's words, read once ([`ClaimContext::quote_words`]).
    quote_words: std::cell::OnceCell<Vec<&'a str>>,
}

/// The numbers and negations of a claim's quote, as
/// [`ClaimContext::discrepancies`] compares them with each passage.
struct QuoteNumbers {
    quantities: Vec<quantity::Quantity>,
    /// The quote's words holding a digit that are not inside one of its
    /// quantities' text, in order: each must be a word of the passage.
    digit_words: Vec<String>,
    negations: Vec<String>,
    /// The quote's words (lowercase), and those of them with an opposite
    /// (`lexicon::opposites`).
    words: std::collections::HashSet<String>,
    opposed: Vec<String>,
}

impl QuoteNumbers {
    fn of(quote: &str) -> QuoteNumbers {
        let quantities = quantity::quantities(quote);
        let digit_words = tokens::tokenize(quote)
            .iter()
            .map(|t| t.text(quote))
            .filter(|w| w.bytes().any(|b| b.is_ascii_digit()) && !quantities.iter().any(|q| q.text.contains(w)))
            .map(str::to_string)
            .collect();
        let words: std::collections::HashSet<String> =
            tokens::tokenize(quote).iter().map(|t| t.text(quote).to_lowercase()).collect();
        let mut opposed: Vec<String> = words.iter().filter(|w| !lexicon::opposites(w).is_empty()).cloned().collect();
        opposed.sort_unstable();
        QuoteNumbers { quantities, digit_words, negations: negations(quote), words, opposed }
    }

    /// The quote's words whose opposite `passage` says instead: a word of
    /// the quote not in the passage, none of its forms there either, and a
    /// form of its opposite there that the quote does not have (`fails`
    /// where the passage says only `works`). A restatement may use other
    /// words, not the opposite ones.
    fn opposites(&self, passage: &str) -> Option<Discrepancy> {
        if self.opposed.is_empty() {
            return None;
        }
        let said: std::collections::HashSet<String> =
            tokens::tokenize(passage).iter().map(|t| t.text(passage).to_lowercase()).collect();
        let (mut quote, mut source) = (Vec::new(), Vec::new());
        for w in self.opposed.iter().filter(|w| !said.contains(*w)) {
            for (own, other) in lexicon::opposites(w) {
                if own.iter().any(|f| said.contains(*f)) || other.iter().any(|f| self.words.contains(*f)) {
                    continue;
                }
                if let Some(o) = other.iter().find(|f| said.contains(**f)) {
                    quote.push(w.clone());
                    source.push((*o).to_string());
                    break;
                }
            }
        }
        (!quote.is_empty()).then_some(Discrepancy { kind: "word", quote, source })
    }

    /// The quote's numbers and negations against `passage`'s (with
    /// `before`, the words just before it, for a negation; `strict`: a
    /// fuzzy match within the edit limit, whose extra numbers and
    /// negations count too).
    fn discrepancies(&self, passage: &str, before: &str, strict: bool) -> Vec<Discrepancy> {
        let mut out = Vec::new();
        let (qn, pn) = (&self.quantities, quantity::quantities(passage));
        let (missing, extra) = quantity::unmatched(qn, &pn);
        let mut missing: Vec<String> = missing.iter().filter_map(|&i| qn.get(i)).map(|q| q.text.clone()).collect();
        let extra: Vec<String> = extra.iter().filter_map(|&i| pn.get(i)).map(|q| q.text.clone()).collect();
        // digits inside words (versions, identifiers, URLs) must be there as written
        if !self.digit_words.is_empty() {
            let passage_words: Vec<&str> = tokens::tokenize(passage).iter().map(|t| t.text(passage)).collect();
            missing.extend(self.digit_words.iter().filter(|w| !passage_words.contains(&w.as_str())).cloned());
        }
        if !missing.is_empty() || (strict && !extra.is_empty()) {
            out.push(Discrepancy { kind: "number", quote: missing, source: extra });
        }
        let pneg = if strict { negations(passage) } else { negations(&format!("{before} {passage}")) };
        if self.negations.len() != pneg.len() {
            out.push(Discrepancy { kind: "negation", quote: self.negations.clone(), source: pneg });
        }
        out.extend(self.opposites(passage));
        out
    }
}

impl<'a> ClaimContext<'a> {
    /// The claim's status from its occurrences; `None` when the deadline
    /// passed before it was decided.
    fn decide(&self, hits: &Hits) -> Option<Decided> {
        let (mut candidates, rejected, context_removed_all) = self.judged_candidates(hits)?;
        // a near copy of a passage that says something else there (a word,
        // number, negation or link changed: an exact or fuzzy match, or a
        // token passage holding at least `fuzzy_matching.similarity_threshold`
        // of the quote's words with at most NEAR_COPY_CHANGES words changed,
        // which the guard compared word by word) is what the source does not
        // say: a looser match (the lexical or embedding semantic matcher,
        // which weigh content words and not `before` against `after` or `add`
        // against `remove`; a section) does not make it VALIDATED. A
        // paraphrase rewords more than that, and is left to them.
        let aligned = |c: &Candidate| {
            matches!(c.kind, MatchType::Exact | MatchType::Fuzzy) || c.method == Some(SemanticMethod::Tokens)
        };
        // a passage another matcher found that is the quote with a word or
        // two changed (the embedding matcher finds the line a claim changed,
        // and ranks it with unrelated ones) is a near copy too: what it
        // changes is its discrepancy, whatever the whole passage holds. Where
        // the quote is found as it is, a looser passage over that place is
        // that place; one elsewhere that changes it is no second clean place
        let clean: Vec<(usize, usize)> =
            candidates.iter().filter(|c| aligned(c) && c.discrepancies.is_empty()).map(|c| c.orig).collect();
        {
            // with a clean place, only a passage that would be a second one
            let threshold = self.p.claim.confidence_threshold;
            let elsewhere = |c: &Candidate| {
                clean.is_empty()
                    || (c.discrepancies.is_empty()
                        && c.confidence >= threshold
                        && !clean.iter().any(|&(s, e)| c.orig.0 < e && s < c.orig.1))
            };
            for c in candidates.iter_mut().filter(|c| !aligned(c) && elsewhere(c)) {
                if self.deadline.expired() {
                    return None;
                }
                if let Some(d) = self.near_copy_change(c) {
                    c.near_copy = true;
                    if !c.discrepancies.iter().any(|e| e.kind == d.kind) {
                        c.discrepancies.push(d);
                    }
                }
            }
            if candidates.iter().any(|c| c.near_copy) {
                crate::sort::sort_by(&mut candidates, candidate_order);
            }
        }
        let changed_copy = |c: &Candidate| {
            if c.discrepancies.is_empty() {
                return false;
            }
            if !aligned(c) {
                return c.near_copy;
            }
            let changes = c.edits.iter().filter(|e| e.kind == EditKind::Substitution).count();
            c.similarity >= self.config.fuzzy_matching.similarity_threshold
                && (matches!(c.kind, MatchType::Exact | MatchType::Fuzzy) || changes <= NEAR_COPY_CHANGES)
        };
        if candidates.iter().any(changed_copy) {
            // the changed copies stay, to say what changed
            candidates.retain(|c| aligned(c) || changed_copy(c));
        }
        let places = dedupe(candidates, self.deadline)?;
        if places.is_empty() {
            let decided = self.not_found(rejected, context_removed_all);
            // near misses cut short would be a wrong suggestion list
            return (!self.deadline.expired()).then_some(decided);
        }
        Some(self.decided_at(&places, hits))
    }

    /// What a passage another matcher found changes from the quote, when it
    /// is a near copy of it: the quote's words and the closest run of words
    /// that shares a word with the passage (a word-level edit distance whose
    /// start and end are free, over the passage and up to the quote's length
    /// of text on each side: a chunk may start or end inside the changed
    /// line) at most [`NEAR_COPY_CHANGES`] edits apart, and
    /// their words (by stem) not the same. The change is a negation when a
    /// changed word is one, a number when one holds a digit, else a word;
    /// words only reordered change nothing. `None` for a quote of fewer
    /// than [`NEAR_COPY_MIN_WORDS`] words (a change or two is then most of
    /// it) or more than [`NEAR_COPY_MAX_WORDS`] words on either side.
    fn near_copy_change(&self, c: &Candidate) -> Option<Discrepancy> {
        let quote = self.p.quote.as_str();
        let q = self.quote_words();
        if q.len() < NEAR_COPY_MIN_WORDS || q.len() > NEAR_COPY_MAX_WORDS {
            return None;
        }
        // the passage and, on each side, up to the quote's length of text
        // around it (a chunk or section may start or end inside the line the
        // quote changes): up to as many words as the quote on either side
        let (before, passage, after) = match c.norm {
            Some((s, e)) => {
                let text = self.index.text();
                let (from, to) = around(text, s, e, quote.len());
                let part = |a: usize, b: usize| Cow::Borrowed(text.get(a..b).unwrap_or(""));
                (part(from, s), part(s, e), part(e, to))
            }
            None => {
                let source = self.doc.source();
                let (s, e) = c.orig;
                let (from, to) = around(source, s, e, quote.len());
                let part = |a: usize, b: usize| {
                    Cow::Owned(normalize::normalize_str(source.get(a..b).unwrap_or(""), self.config.profile()))
                };
                (part(from, s), part(s, e), part(e, to))
            }
        };
        let own: Vec<&str> = tokens::tokenize(&passage).iter().map(|t| t.text(&passage)).collect();
        if own.len() > NEAR_COPY_MAX_WORDS {
            return None;
        }
        let (before_words, after_words) = (tokens::tokenize(&before), tokens::tokenize(&after));
        // the widening's outer words may be cut: at most the quote's length
        let before_words = before_words.get(before_words.len().saturating_sub(q.len())..).unwrap_or(&[]);
        let after_words = after_words.get(..after_words.len().min(q.len())).unwrap_or(&[]);
        let p: Vec<&str> = (before_words.iter().map(|t| t.text(&before)))
            .chain(own.iter().copied())
            .chain(after_words.iter().map(|t| t.text(&after)))
            .collect();
        let inside = (before_words.len(), before_words.len() + own.len());
        // each edit loses at most one of the quote's words
        let found = q.iter().filter(|w| p.contains(w)).count();
        if found + NEAR_COPY_CHANGES < q.len() {
            return None;
        }
        // row j: (edits, start of the run) of the quote's first i words
        // against the passage's words ending at j
        let mut row: Vec<(usize, usize)> = (0..=p.len()).map(|j| (0, j)).collect();
        for (i, qw) in q.iter().enumerate() {
            let mut diagonal = row.first().copied().unwrap_or((0, 0));
            if let Some(first) = row.first_mut() {
                *first = (i + 1, 0);
            }
            // a row's least edits never fall in the rows below it: past the
            // limit on every run, no near copy
            let mut least = i + 1;
            for (j, pw) in p.iter().enumerate() {
                let up = row.get(j + 1).copied().unwrap_or((usize::MAX, 0));
                let left = row.get(j).copied().unwrap_or((usize::MAX, 0));
                let best = [
                    (diagonal.0 + usize::from(qw != pw), diagonal.1),
                    (up.0.saturating_add(1), up.1),
                    (left.0.saturating_add(1), left.1),
                ]
                .into_iter()
                .min_by_key(|&(d, _)| d)
                .unwrap_or(up);
                diagonal = up;
                least = least.min(best.0);
                if let Some(cell) = row.get_mut(j + 1) {
                    *cell = best;
                }
            }
            if least > NEAR_COPY_CHANGES {
                return None;
            }
        }
        // the closest run that shares a word with the passage itself
        let (end, &(edits, start)) = row
            .iter()
            .enumerate()
            .filter(|&(end, &(_, start))| start < inside.1 && end > inside.0)
            .min_by_key(|(_, &(d, _))| d)?;
        if edits > NEAR_COPY_CHANGES {
            return None;
        }
        let run = p.get(start..end)?;
        // the words on one side only, by stem and count
        let mut counts: std::collections::HashMap<&str, isize> = std::collections::HashMap::new();
        for w in q {
            *counts.entry(tokens::stem(w)).or_default() += 1;
        }
        for w in run {
            *counts.entry(tokens::stem(w)).or_default() -= 1;
        }
        let only = |side: &[&str], sign: isize| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for w in side {
                if counts.get(tokens::stem(w)).is_some_and(|&n| n * sign > 0) && !out.iter().any(|o| o == w) {
                    out.push((*w).to_string());
                }
            }
            out
        };
        let (quote_only, source_only) = (only(q, 1), only(run, -1));
        if quote_only.is_empty() && source_only.is_empty() {
            return None;
        }
        let changed = || quote_only.iter().chain(&source_only);
        let kind = if changed().any(|w| tokens::is_negation(w)) {
            "negation"
        } else if changed().any(|w| w.bytes().any(|b| b.is_ascii_digit())) {
            "number"
        } else {
            "word"
        };
        Some(Discrepancy { kind, quote: quote_only, source: source_only })
    }

    /// The candidates of every matcher, narrowed by the claim's context and
    /// judged, best first; the rejected ones; and whether the context
    /// removed every candidate. `None` when the deadline passed.
    fn judged_candidates(&self, hits: &Hits) -> Option<(Vec<Candidate>, Rejected, bool)> {
        let mut rejected: Rejected = Vec::new();
        let mut candidates = self.collect(&hits.exact.spans, hits.fuzzy, &mut rejected);
        if self.deadline.expired() {
            return None;
        }
        let found_before_context = !candidates.is_empty();
        // past the cap a place not held may be the one the context picks:
        // the context cannot narrow what was not all examined
        if hits.left_out() == 0 {
            candidates = self.apply_context(candidates, &mut rejected);
            candidates = self.apply_position(candidates, &mut rejected);
        }
        if self.deadline.expired() {
            return None;
        }
        let context_removed_all = found_before_context && candidates.is_empty();
        for c in &mut candidates {
            if self.deadline.expired() {
                return None;
            }
            self.judge(c);
        }
        crate::sort::sort_by(&mut candidates, candidate_order);
        Some((candidates, rejected, context_removed_all))
    }

    /// The claim's result from its places (deduplicated, best first, at
    /// least one): VALIDATED, AMBIGUOUS or LOW_CONFIDENCE.
    fn decided_at(&self, places: &[Candidate], hits: &Hits) -> Decided {
        let claim = self.p.claim;
        let threshold = claim.confidence_threshold;
        let mut clean_high: Vec<&Candidate> =
            places.iter().filter(|c| c.discrepancies.is_empty() && c.confidence >= threshold).collect();
        // past the cap the places not held may hold another clean match:
        // one place cannot be told, so a clean match is ambiguous
        let incomplete = hits.left_out() > 0 || self.fragments_capped.get();
        // several clean places: the best by score must beat the runner-up
        // by the margin (issue 18)
        let mut margin = None;
        let mut chosen = false;
        if clean_high.len() > 1 {
            let mut scored: Vec<(f64, &Candidate)> = clean_high.iter().map(|c| (self.place_score(c), *c)).collect();
            crate::sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0));
            let m = match (scored.first(), scored.get(1)) {
                (Some(a), Some(b)) => a.0 - b.0,
                _ => 0.0,
            };
            margin = Some(m);
            chosen = !incomplete && m > 0.0 && m + 1e-9 >= self.config.anchoring.disambiguation_margin;
            clean_high = scored.into_iter().map(|(_, c)| c).collect();
        }
        let Some(first_place) = places.first() else {
            return self.not_found(Vec::new(), false);
        };
        let best = clean_high.first().copied().filter(|_| clean_high.len() > 1).unwrap_or(first_place);
        let mut warnings: Vec<Warning> = best.discrepancies.iter().map(|d| self.discrepancy_warning(d)).collect();
        warnings.extend(self.too_many_warning(hits));
        let ambiguous = !chosen && (clean_high.len() > 1 || (incomplete && !clean_high.is_empty()));
        let unique = places.len() == 1 && hits.total() <= 1 && !incomplete;
        let others = || {
            places
                .get(1..)
                .unwrap_or_default()
                .iter()
                .filter(|c| c.confidence >= ALTERNATIVE_FLOOR)
                .take(MAX_LISTED)
                .collect()
        };
        let (status, alternatives): (Status, Vec<&Candidate>) = if ambiguous {
            (Status::Ambiguous, clean_high.get(1..).unwrap_or_default().iter().take(MAX_LISTED).copied().collect())
        } else if chosen {
            (Status::Validated, clean_high.get(1..).unwrap_or_default().iter().take(MAX_LISTED).copied().collect())
        } else if best.discrepancies.is_empty() && best.confidence >= threshold {
            (Status::Validated, others())
        } else {
            (Status::LowConfidence, others())
        };
        let result = ClaimResult {
            claim_id: claim.id.clone(),
            task_id: claim.task_id.clone(),
            evidence_type: claim.evidence_type,
            validation_status: status,
            confidence_score: best.confidence,
            match_details: Some(self.details(best, margin, unique)),
            alternative_matches: alternatives.iter().map(|c| self.alternative(c)).collect(),
        };
        let failed = match status {
            Status::Validated | Status::Failed => None,
            Status::Ambiguous => Some(self.ambiguous(hits, &clean_high)),
            Status::LowConfidence => Some(self.low_confidence(best)),
        };
        Decided { result, failed, warnings }
    }

    /// A `TOO_MANY_OCCURRENCES` warning when places were left out (past
    /// [`MAX_PLACES_PER_CLAIM`]).
    fn too_many_warning(&self, hits: &Hits) -> Option<Warning> {
        let left_out = hits.left_out();
        (left_out > 0).then(|| Warning {
            code: "TOO_MANY_OCCURRENCES".into(),
            message: format!(
                "the quote occurs {} times; the first {} were examined (MAX_PLACES_PER_CLAIM), {left_out} left out",
                hits.total(),
                hits.total() - left_out
            ),
            claim_id: Some(self.p.claim.id.clone()),
        })
    }

    /// The diagnostic of an AMBIGUOUS claim: the places its clean matches are.
    fn ambiguous(&self, hits: &Hits, clean_high: &[&Candidate]) -> FailedClaim {
        let count = if hits.left_out() > 0 { hits.total() } else { clean_high.len() };
        let lines: Vec<String> =
            clean_high.iter().map(|c| self.doc.span(c.orig.0, c.orig.1).line.to_string()).collect();
        FailedClaim {
            claim_id: self.p.claim.id.clone(),
            failure_reason: FailureReason::MultipleMatches,
            attempted_matches: Vec::new(),
            suggestions: vec![format!(
                "The quote matches {count} places (lines {}); quote a longer passage or give a context_hint or expected_section that picks one.",
                lines.join(", ")
            )],
        }
    }

    /// Candidates from every matcher that applies to the claim's type.
    fn collect(
        &self,
        exact_hits: &[(usize, usize)],
        fuzzy_hits: &[fuzzy::FuzzyMatch],
        rejected: &mut Rejected,
    ) -> Vec<Candidate> {
        let claim = self.p.claim;
        let mut out = Vec::new();
        if !self.p.fragments.is_empty() {
            self.ellipsis_candidates(&mut out);
        }
        for &(s, e) in exact_hits {
            if self.deadline.expired() {
                return out;
            }
            out.extend(self.candidate_at(MatchType::Exact, s, e, 1.0, 1.0, Some(0)));
        }
        if !self.fuzzy_candidates(fuzzy_hits, &mut out, rejected) {
            return out;
        }
        if self.config.fuzzy_matching.enabled && claim.evidence_type.is_loose() {
            self.token_candidates(&mut out, rejected);
        }
        if self.config.semantic_matching.enabled && claim.evidence_type != EvidenceType::DirectQuote {
            self.semantic_candidates(&mut out);
        }
        if claim.evidence_type == EvidenceType::SectionReference {
            out.extend(self.section_candidates());
        }
        out
    }

    /// An ellipsis quote's places (issue 18): its fragments found verbatim
    /// (normalized, on word boundaries), in order, each within
    /// `anchoring.ellipsis_max_gap` characters of the previous one
    /// ([`ellipsis::place`]: linear in the fragments' occurrences). What the
    /// ellipses leave out is checked by [`Self::judge`].
    fn ellipsis_candidates(&self, out: &mut Vec<Candidate>) {
        let text = self.index.text();
        let patterns: Vec<&str> = self.p.fragments.iter().map(String::as_str).collect();
        let found = exact::find_all_bounded(text, None, &patterns, MAX_PLACES_PER_CLAIM, self.deadline);
        if found.iter().any(|o| o.total > o.spans.len()) {
            self.fragments_capped.set(true);
        }
        let occurrences: Vec<Vec<(usize, usize)>> = found
            .into_iter()
            .map(|o| {
                o.spans
                    .into_iter()
                    .filter(|&(s, e)| !meaning::inside_word(text, s) && !meaning::inside_word(text, e))
                    .collect()
            })
            .collect();
        let max_gap = self.config.anchoring.ellipsis_max_gap;
        let gap_ok = |a: usize, b: usize| {
            let n = b.saturating_sub(a);
            n <= max_gap
                || (n <= max_gap.saturating_mul(4) && text.get(a..b).is_some_and(|g| g.chars().count() <= max_gap))
        };
        let Some(placements) = ellipsis::place(&occurrences, gap_ok, MAX_PLACES_PER_CLAIM, self.deadline) else {
            return;
        };
        for chain in placements {
            let (Some(first), Some(last)) = (chain.first(), chain.last()) else { continue };
            if let Some(mut c) = self.candidate_at(MatchType::Exact, first.0, last.1, 1.0, 1.0, Some(0)) {
                c.fragments = chain;
                out.push(c);
            }
        }
    }

    /// The fuzzy matches as candidates (to `out`), or rejected below the
    /// similarity threshold or over the edit limit; false when the deadline
    /// passed.
    fn fuzzy_candidates(
        &self,
        fuzzy_hits: &[fuzzy::FuzzyMatch],
        out: &mut Vec<Candidate>,
        rejected: &mut Rejected,
    ) -> bool {
        let f = &self.config.fuzzy_matching;
        for m in fuzzy_hits {
            if self.deadline.expired() {
                return false;
            }
            let text = self.index.text();
            let candidate_text = text.get(m.start..m.end).unwrap_or("");
            let cand_chars = candidate_text.chars().count();
            let similarity = match f.algorithm {
                FuzzyAlgorithm::Levenshtein => 1.0 - m.distance as f64 / self.p.chars.max(cand_chars).max(1) as f64,
                FuzzyAlgorithm::SequenceMatcher => {
                    let a: Vec<char> = self.p.quote.chars().collect();
                    let b: Vec<char> = candidate_text.chars().collect();
                    SequenceMatcher::new(&a, &b, false).ratio()
                }
            };
            let Some(c) = self.candidate_at(MatchType::Fuzzy, m.start, m.end, similarity, similarity, Some(m.distance))
            else {
                continue;
            };
            if similarity >= f.similarity_threshold && m.distance <= f.max_edit_distance {
                out.push(c);
            } else {
                let reason = format!(
                    "similarity {similarity:.3} below fuzzy_matching.similarity_threshold {}",
                    f.similarity_threshold
                );
                rejected.push((c, reason));
            }
        }
        true
    }

    /// Paraphrase passages of the token matcher as candidates (or
    /// rejected: see [`Self::token_passage`]).
    fn token_candidates(&self, out: &mut Vec<Candidate>, rejected: &mut Rejected) {
        let tokens = self.index.tokens();
        let q = token::TokenQuery::new(&self.p.quote, tokens);
        for m in token::find(&q, tokens, TOKEN_FLOOR, 5, self.deadline) {
            let (start, end) = self.with_edge_words(m.start, m.end);
            out.extend(self.token_passage(start, end, m.score, rejected));
        }
    }

    /// The normalized quote's words, in order.
    fn quote_words(&self) -> &[&'a str] {
        self.quote_words.get_or_init(|| {
            let quote = self.p.quote.as_str();
            tokens::tokenize(quote).iter().map(|t| t.text(quote)).collect()
        })
    }

    /// Normalized bytes `start..end` of a token passage widened over the
    /// words just outside it that are the quote's own words before its
    /// first and after its last (the token matcher bounds a passage by the
    /// quote's content words, so a quote's leading `on the` or trailing
    /// `of` is left out, and the guard would call them dropped). Only
    /// words equal to the quote's, and at most the quote's words.
    fn with_edge_words(&self, start: usize, end: usize) -> (usize, usize) {
        let (text, q) = (self.index.text(), self.quote_words());
        // the passage's first and last words (it starts and ends on one)
        let head = text.get(start..meaning::floor_boundary(text, end.min(start.saturating_add(EDGE_WORD_BYTES))));
        let tail = text.get(meaning::floor_boundary(text, end.saturating_sub(EDGE_WORD_BYTES).max(start))..end);
        let first = head.and_then(|h| tokens::tokenize(h).first().map(|t| t.text(h)));
        let last = tail.and_then(|t| tokens::tokenize(t).last().map(|w| w.text(t)));
        let (Some(first), Some(last)) = (first, last) else {
            return (start, end);
        };
        // the text read on a side: the quote's words there, and a few
        // bytes of spacing or punctuation each
        let reach = |words: &[&str]| words.iter().map(|w| w.len() + EDGE_GAP_BYTES).sum::<usize>();
        let mut start = start;
        if let Some(i) = q.iter().position(|w| *w == first).filter(|&i| i > 0) {
            let wanted = q.get(..i).unwrap_or_default();
            let (from, _) = around(text, start, start, reach(wanted));
            let before = text.get(from..start).unwrap_or("");
            for (w, t) in wanted.iter().rev().zip(tokens::tokenize(before).iter().rev()) {
                let at = from + t.start as usize;
                if *w != t.text(before) || meaning::inside_word(text, at) {
                    break;
                }
                start = at;
            }
        }
        let mut end = end;
        if let Some(i) = q.iter().rposition(|w| *w == last).filter(|&i| i + 1 < q.len()) {
            let wanted = q.get(i + 1..).unwrap_or_default();
            let (_, to) = around(text, end, end, reach(wanted));
            let (base, after) = (end, text.get(end..to).unwrap_or(""));
            for (w, t) in wanted.iter().zip(&tokens::tokenize(after)) {
                let at = base + t.end as usize;
                if *w != t.text(after) || meaning::inside_word(text, at) {
                    break;
                }
                end = at;
            }
        }
        (start, end)
    }

    /// Semantic candidates: the host's embeddings when it gave an embedder,
    /// else the lexical matcher's chunks.
    fn semantic_candidates(&self, out: &mut Vec<Candidate>) {
        let s = &self.config.semantic_matching;
        let Some((chunks, quote)) = self.semantic else {
            self.lexical_candidates(out);
            return;
        };
        for (c, sim) in quote.map_or_else(Vec::new, |q| chunks.best(q, s.similarity_threshold, MAX_SEMANTIC)) {
            let Some(&(start, end)) = chunks.ranges.get(c) else {
                continue;
            };
            out.extend(self.candidate_at(MatchType::Semantic, start, end, sim, sim, None).map(|mut c| {
                c.method = Some(SemanticMethod::Embedding);
                c
            }));
        }
    }

    /// The lexical matcher's passages as semantic candidates, their
    /// confidence lowered for scattered words and for a different word order.
    fn lexical_candidates(&self, out: &mut Vec<Candidate>) {
        let s = &self.config.semantic_matching;
        let tokens = self.index.tokens();
        let chunks = self.index.chunks(s.chunk_size, s.overlap_size);
        let quote_tokens = tokens::tokenize(&self.p.quote).len().max(1);
        for m in lexical::find(&self.p.quote, tokens, &chunks, s.similarity_threshold, MAX_SEMANTIC, self.deadline) {
            // word order is judged on the words around the matched
            // ones too: a quote of mostly function words matches on
            // two content words, and its shuffled rest must count
            let text = self.index.text();
            let (from, to) = around(text, m.start, m.end, self.p.quote.len());
            let passage = text.get(from..to).unwrap_or("");
            let order = lexical::order_agreement(&self.p.quote, passage);
            let confidence = m.coverage * self.density(m.start, m.end, quote_tokens) * order;
            out.extend(
                self.candidate_at(MatchType::Semantic, m.start, m.end, confidence, m.coverage * order, None).map(
                    |mut c| {
                        c.method = Some(SemanticMethod::Lexical);
                        c
                    },
                ),
            );
        }
    }

    /// A token-matcher passage (spec 000 §3.4/§3.5): a `fuzzy` match when it
    /// is within both of `fuzzy_matching`'s limits (`max_edit_distance` and
    /// `similarity_threshold`), scored as the fuzzy matcher scores; looser,
    /// a `semantic` match (method `tokens`, edit distance −1) when its share
    /// of the quote's content words reaches `semantic_matching`'s
    /// `similarity_threshold` and semantic matching is on; else only an
    /// attempt with its reason. Either way the meaning guard compares it
    /// with the quote word by word ([`Self::check`]).
    fn token_passage(
        &self,
        start: usize,
        end: usize,
        score: f64,
        rejected: &mut Vec<(Candidate, String)>,
    ) -> Option<Candidate> {
        let f = &self.config.fuzzy_matching;
        let s = &self.config.semantic_matching;
        if let Some(d) = self.distance_to(start, end).filter(|&d| d <= f.max_edit_distance) {
            let similarity = self.similarity(start, end, d);
            if similarity >= f.similarity_threshold {
                return self.candidate_at(MatchType::Fuzzy, start, end, similarity, similarity, Some(d));
            }
        }
        let mut c = self.candidate_at(MatchType::Semantic, start, end, score, score, None)?;
        c.method = Some(SemanticMethod::Tokens);
        if s.enabled && score >= s.similarity_threshold {
            return Some(c);
        }
        let reason = format!(
            "holds {:.0}% of the quote's content words, below semantic_matching.similarity_threshold {}, and is not within fuzzy_matching's limits",
            score * 100.0,
            s.similarity_threshold
        );
        rejected.push((c, reason));
        None
    }

    /// 1 when the matched words lie within [`SEMANTIC_SPREAD`] times the
    /// quote's length, less in proportion when they are scattered over a
    /// longer passage: words merely co-occurring in a chunk are not evidence.
    fn density(&self, start: usize, end: usize, quote_tokens: usize) -> f64 {
        let span_tokens = self.index.text().get(start..end).map_or(1, |t| tokens::tokenize(t).len()).max(1);
        (SEMANTIC_SPREAD * quote_tokens as f64 / span_tokens as f64).min(1.0)
    }

    fn distance_to(&self, start: usize, end: usize) -> Option<usize> {
        self.index.text().get(start..end).map(|t| fuzzy::levenshtein(&self.p.quote, t))
    }

    fn candidate_at(
        &self,
        kind: MatchType,
        s: usize,
        e: usize,
        confidence: f64,
        similarity: f64,
        edit_distance: Option<usize>,
    ) -> Option<Candidate> {
        let (s, e) = self.widened(s, e);
        let orig = self.index.normalized().original_range(s, e)?;
        Some(Candidate {
            kind,
            norm: Some((s, e)),
            orig,
            confidence,
            similarity,
            edit_distance,
            context_score: None,
            discrepancies: Vec::new(),
            edits: Vec::new(),
            method: None,
            fragments: Vec::new(),
            near_copy: false,
        })
    }

    /// Normalized bytes `s..e` widened over what trimming took off the
    /// quote (wrapping quote marks, outer ellipses) when the text has
    /// exactly that on both sides: the span then holds the marks the source
    /// has, as before trimming.
    fn widened(&self, s: usize, e: usize) -> (usize, usize) {
        let (lead, tail) = &self.p.trimmed;
        let text = self.index.text();
        let before = text.get(..s).is_some_and(|h| h.ends_with(lead.as_str()));
        let after = text.get(e..).is_some_and(|t| t.starts_with(tail.as_str()));
        if (lead.is_empty() && tail.is_empty()) || !before || !after {
            return (s, e);
        }
        (s - lead.len(), e + tail.len())
    }

    /// Headings whose words the quote holds (for section references).
    fn section_candidates(&self) -> Vec<Candidate> {
        let quote_stems = content_stems(&self.p.quote);
        let profile = self.config.profile();
        self.doc
            .sections()
            .iter()
            .filter(|s| s.kind == "section")
            .filter_map(|s| {
                let title_stems = content_stems(&normalize::normalize_str(&s.title, profile));
                if title_stems.is_empty() {
                    return None;
                }
                let shared = title_stems.iter().filter(|t| quote_stems.contains(t)).count();
                let score = shared as f64 / title_stems.len() as f64;
                (score >= ALTERNATIVE_FLOOR).then(|| Candidate {
                    kind: MatchType::Contextual,
                    norm: None,
                    orig: (s.byte_start, s.heading_end),
                    confidence: score,
                    similarity: score,
                    edit_distance: None,
                    context_score: None,
                    discrepancies: Vec::new(),
                    edits: Vec::new(),
                    method: None,
                    fragments: Vec::new(),
                    near_copy: false,
                })
            })
            .collect()
    }

    /// Context validation (spec 000 §3.6 `_filter_by_context`) and the
    /// `expected_section` check.
    fn apply_context(&self, candidates: Vec<Candidate>, rejected: &mut Rejected) -> Vec<Candidate> {
        let cfg = &self.config.context_validation;
        if !cfg.enabled {
            return candidates;
        }
        let claim = self.p.claim;
        let mut kept = candidates;
        if let Some(hint) = claim.context_hint.as_deref().filter(|h| !h.trim().is_empty()) {
            let hint = normalize::normalize_str(hint, self.config.profile());
            let mut words = word_list(&hint);
            crate::sort::sort(&mut words);
            words.dedup();
            let mut next = Vec::new();
            for mut c in kept {
                if self.deadline.expired() {
                    break;
                }
                // whole words: "met" is not found in "amet"
                let mut around = word_list(&self.context_around(&c, cfg.context_window));
                crate::sort::sort(&mut around);
                let found = words.iter().filter(|w| around.binary_search(w).is_ok()).count();
                let score = found as f64 / words.len().max(1) as f64;
                if score > CONTEXT_MIN_SCORE {
                    c.context_score = Some(score);
                    c.confidence = (c.confidence * (1.0 + score * 0.2)).min(1.0);
                    next.push(c);
                } else {
                    let reason = format!(
                        "context_hint words found within {} characters: {found} of {} (more than {:.0}% needed)",
                        cfg.context_window,
                        words.len(),
                        CONTEXT_MIN_SCORE * 100.0
                    );
                    rejected.push((c, reason));
                }
            }
            kept = next;
        }
        if let Some(expected) =
            claim.expected_section.as_deref().filter(|e| !e.trim().is_empty() && cfg.section_awareness)
        {
            if self.doc.sections().iter().any(|s| s.kind == "section") {
                let (inside, outside): (Vec<Candidate>, Vec<Candidate>) =
                    kept.into_iter().partition(|c| self.in_section(c, expected));
                for c in outside {
                    let title = self.doc.section_at(c.orig.0).map_or("(none)", |s| s.title.as_str()).to_string();
                    rejected.push((c, format!("found in section {title:?}, not in expected_section {expected:?}")));
                }
                kept = inside;
            }
        }
        kept
    }

    /// The `position` hint: places starting farther than
    /// `anchoring.max_position_distance` characters from it are set aside.
    fn apply_position(&self, candidates: Vec<Candidate>, rejected: &mut Rejected) -> Vec<Candidate> {
        let Some(pos) = self.p.claim.position else { return candidates };
        let limit = self.config.anchoring.max_position_distance;
        let mut kept = Vec::new();
        for c in candidates {
            let start = self.doc.span(c.orig.0, c.orig.0).start;
            if start.abs_diff(pos) <= limit {
                kept.push(c);
            } else {
                let reason = format!(
                    "starts at character {start}, {} from the claim's position {pos} (more than anchoring.max_position_distance {limit})",
                    start.abs_diff(pos)
                );
                rejected.push((c, reason));
            }
        }
        kept
    }

    /// How well a place fits the claim (0–1), to choose among several
    /// clean places: the mean of the quote similarity and, where the claim
    /// gives them, the context hint's share of whole words nearby, the
    /// similarity of `prefix` / `suffix` to the source text just before /
    /// after, and nearness to `position` (1 at it, 0 at
    /// `anchoring.max_position_distance`). `expected_section` has already
    /// set aside places outside it.
    fn place_score(&self, c: &Candidate) -> f64 {
        let claim = self.p.claim;
        let profile = self.config.profile();
        let src = self.doc.source();
        let mut parts = vec![c.similarity];
        parts.extend(c.context_score);
        if let Some(prefix) = claim.prefix.as_deref().filter(|p| !p.trim().is_empty()) {
            parts.push(selectors::prefix_similarity(src, c.orig.0, prefix, profile));
        }
        if let Some(suffix) = claim.suffix.as_deref().filter(|p| !p.trim().is_empty()) {
            parts.push(selectors::suffix_similarity(src, c.orig.1, suffix, profile));
        }
        if let Some(pos) = claim.position {
            let start = self.doc.span(c.orig.0, c.orig.0).start;
            let limit = self.config.anchoring.max_position_distance.max(1) as f64;
            parts.push(1.0 - (start.abs_diff(pos) as f64 / limit).min(1.0));
        }
        parts.iter().sum::<f64>() / parts.len() as f64
    }

    fn context_around(&self, c: &Candidate, window: usize) -> String {
        let profile = self.config.profile();
        let src = self.doc.source();
        let start = back_chars(src, c.orig.0, window);
        let end = forward_chars(src, c.orig.1, window);
        normalize::normalize_str(src.get(start..end).unwrap_or(""), profile)
    }

    fn in_section(&self, c: &Candidate, expected: &str) -> bool {
        let Some(section) = self.doc.section_at(c.orig.0) else {
            return false;
        };
        let profile = self.config.profile();
        let title = normalize::normalize_str(&section.title, profile);
        let want = normalize::normalize_str(expected, profile);
        if title.contains(&want) || want.contains(&title) {
            return true;
        }
        let (t, w) = (content_stems(&title), content_stems(&want));
        !w.is_empty() && w.iter().filter(|s| t.contains(s)).count() * 2 > w.len().max(1)
    }

    /// The meaning guard: an exact match cut inside a source word, and every
    /// fuzzy match, is compared with the quote word by word
    /// ([`meaning::compare`]); a fuzzy span is widened to whole words; every
    /// non-exact match is checked for changed numbers and negations.
    fn judge(&self, c: &mut Candidate) {
        self.judge_words(c);
        if let Some(d) = c.norm.and_then(|(s, e)| self.markup_discrepancy(s, e)) {
            merge(&mut c.discrepancies, vec![d]);
        }
    }

    /// The quote's hidden parts ([`Prepared::hidden`]: a link's destination,
    /// an image's source, a tag's attributes) against the source at the
    /// match `s..e` (normalized bytes): each part's words, in the quote's
    /// order, must be a run of the words of the source's original text
    /// from the end of the char before the match to the start of the char
    /// after it (up to [`MARKUP_WINDOW_BYTES`]), where the source's own
    /// markup at this place is. A quote whose text is the source's but whose
    /// link goes elsewhere is not what the source says.
    fn markup_discrepancy(&self, s: usize, e: usize) -> Option<Discrepancy> {
        markup_discrepancy(self.doc, self.index, &self.p.hidden, s, e)
    }

    /// [`Self::judge`]'s word-by-word part (the meaning guard).
    fn judge_words(&self, c: &mut Candidate) {
        let Some((s, e)) = c.norm else { return };
        if !c.fragments.is_empty() {
            c.discrepancies = self.omissions(&c.fragments);
            return;
        }
        let quote = meaning::Side {
            normalized: &self.p.normalized,
            original: self.p.original,
            start: 0,
            end: self.p.quote.len(),
        };
        let source =
            meaning::Side { normalized: self.index.normalized(), original: self.doc.source(), start: s, end: e };
        let words = self.source_words;
        let forms = self.p.claim.evidence_type.is_loose();
        // a token passage reported as semantic is still compared word by word
        let guard = if c.method == Some(SemanticMethod::Tokens) { MatchType::Fuzzy } else { c.kind };
        match guard {
            MatchType::Exact => {
                let edits = meaning::exact_edges(&quote, &source, words, forms);
                if !edits.is_empty() {
                    c.discrepancies = substitutions(
                        &edits,
                        (&self.p.normalized, self.p.original),
                        (self.index.normalized(), self.doc.source()),
                    );
                    c.edits = edits;
                }
            }
            MatchType::Fuzzy => {
                let cmp = meaning::compare(&quote, &source, words, forms);
                if cmp.snapped != (s, e) {
                    if let Some(orig) = self.index.normalized().original_range(cmp.snapped.0, cmp.snapped.1) {
                        let distance = self.distance_to(cmp.snapped.0, cmp.snapped.1);
                        c.norm = Some(cmp.snapped);
                        c.orig = orig;
                        if let Some(d) = distance.filter(|_| c.edit_distance.is_some()) {
                            let old = c.edit_distance.unwrap_or(d);
                            c.edit_distance = Some(d);
                            if d != old {
                                let sim = self.similarity(cmp.snapped.0, cmp.snapped.1, d);
                                c.confidence = (c.confidence - c.similarity + sim).clamp(0.0, 1.0);
                                c.similarity = sim;
                            }
                        }
                    }
                }
                let mut found = substitutions(
                    &cmp.edits,
                    (&self.p.normalized, self.p.original),
                    (self.index.normalized(), self.doc.source()),
                );
                // numbers and digits were compared word by word; a negation
                // just before a token passage is only seen here
                let strict = c.edit_distance.is_some_and(|d| d <= self.config.fuzzy_matching.max_edit_distance);
                if !strict {
                    merge(&mut found, self.discrepancies(c).into_iter().filter(|d| d.kind == "negation").collect());
                }
                // numbers first, then negations, then words
                crate::sort::sort_by(&mut found, |a, b| kind_rank(a.kind).cmp(&kind_rank(b.kind)));
                c.discrepancies = found;
                c.edits = cmp.edits;
            }
            MatchType::Semantic => c.discrepancies = self.discrepancies(c),
            MatchType::Contextual => {}
        }
    }

    /// What the ellipses of a placed quote leave out that changes its
    /// meaning ([`meaning::omitted_changes`]: negations, numbers,
    /// qualifiers), as discrepancies whose quote side is empty.
    fn omissions(&self, fragments: &[(usize, usize)]) -> Vec<Discrepancy> {
        let mut found: Vec<Discrepancy> = Vec::new();
        for pair in fragments.windows(2) {
            let [(_, a), (b, _)] = pair else { continue };
            let (a, b) = (*a, *b);
            let omitted = original_text(self.index.normalized(), self.doc.source(), (a, b));
            for (change, word) in meaning::omitted_changes(&omitted) {
                merge(&mut found, vec![Discrepancy { kind: change.as_str(), quote: Vec::new(), source: vec![word] }]);
            }
        }
        crate::sort::sort_by(&mut found, |a, b| kind_rank(a.kind).cmp(&kind_rank(b.kind)));
        found
    }

    /// The fuzzy similarity of the passage `s..e` at `distance` edits.
    fn similarity(&self, s: usize, e: usize, distance: usize) -> f64 {
        let candidate_text = self.index.text().get(s..e).unwrap_or("");
        match self.config.fuzzy_matching.algorithm {
            FuzzyAlgorithm::Levenshtein => {
                1.0 - distance as f64 / self.p.chars.max(candidate_text.chars().count()).max(1) as f64
            }
            FuzzyAlgorithm::SequenceMatcher => {
                let a: Vec<char> = self.p.quote.chars().collect();
                let b: Vec<char> = candidate_text.chars().collect();
                SequenceMatcher::new(&a, &b, false).ratio()
            }
        }
    }

    /// Numbers and negations that differ between the quote and a passage.
    fn discrepancies(&self, c: &Candidate) -> Vec<Discrepancy> {
        let text = self.index.text();
        let (passage, before) = match c.norm {
            Some((s, e)) => (text.get(s..e).unwrap_or("").to_string(), tokens_before(text, s, NEGATION_LOOKBEHIND)),
            None => (
                normalize::normalize_str(
                    self.doc.source().get(c.orig.0..c.orig.1).unwrap_or(""),
                    self.config.profile(),
                ),
                String::new(),
            ),
        };
        let strict = c.kind == MatchType::Fuzzy
            && c.edit_distance.is_some_and(|d| d <= self.config.fuzzy_matching.max_edit_distance);
        let quote = self.quote_numbers.get_or_init(|| QuoteNumbers::of(&self.p.quote));
        quote.discrepancies(&passage, &before, strict)
    }

    fn discrepancy_warning(&self, d: &Discrepancy) -> Warning {
        let say = |v: &[String]| {
            if v.is_empty() {
                "nothing".to_string()
            } else {
                v.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", ")
            }
        };
        let (code, what) = match d.kind {
            "number" => ("NUMBER_MISMATCH", "numbers"),
            "word" => ("WORD_SUBSTITUTION", "words"),
            "markup" => ("MARKUP_MISMATCH", "link destinations or markup"),
            _ => ("NEGATION_MISMATCH", "negation"),
        };
        Warning {
            code: code.into(),
            message: format!(
                "claim {}: the quote's {what} differ from the source: quote has {}, source has {}; not validated",
                self.p.claim.id,
                say(&d.quote),
                say(&d.source)
            ),
            claim_id: Some(self.p.claim.id.clone()),
        }
    }

    fn location(&self, c: &Candidate) -> Location {
        let span = self.doc.span(c.orig.0, c.orig.1);
        let section = self.doc.section_at(c.orig.0).map(|s| s.title.clone());
        Location::new(&span, section)
    }

    fn matched_text(&self, c: &Candidate) -> String {
        self.doc.source().get(c.orig.0..c.orig.1).unwrap_or("").to_string()
    }

    fn details(&self, c: &Candidate, margin: Option<f64>, unique: bool) -> MatchDetails {
        let norm = self.index.normalized();
        let text_fragment = c
            .norm
            .map(|r| selectors::text_fragment(self.doc, norm, r, unique, self.config.profile()))
            .unwrap_or_default();
        let at = |(s, e): (usize, usize)| {
            let (os, oe) = original_span(norm, (s, e));
            TextAt {
                text: self.doc.source().get(os..oe).unwrap_or("").to_string(),
                location: Location::new(&self.doc.span(os, oe), None),
            }
        };
        MatchDetails {
            fragments: c.fragments.iter().map(|&f| at(f)).collect(),
            omitted: c
                .fragments
                .windows(2)
                .filter_map(|p| match p {
                    [(_, a), (b, _)] => Some(at((*a, *b))),
                    _ => None,
                })
                .collect(),
            selectors: selectors::selectors(self.doc, c.orig.0, c.orig.1),
            text_fragment,
            margin,
            match_type: c.kind,
            location: self.location(c),
            matched_text: self.matched_text(c),
            confidence_score: c.confidence,
            similarity_score: c.similarity,
            edit_distance: c.edit_distance,
            context_score: c.context_score,
            discrepancies: c.discrepancies.clone(),
            edits: c.edits.iter().map(|e| self.edit_report(e)).collect(),
            semantic_method: c.method,
        }
    }

    fn edit_report(&self, e: &meaning::Edit) -> MatchEdit {
        edit_report(self.doc, self.index, (&self.p.normalized, self.p.original), e)
    }

    fn alternative(&self, c: &Candidate) -> Alternative {
        let location = self.location(c);
        Alternative {
            matched_text: self.matched_text(c),
            confidence_score: c.confidence,
            position: location.start_position,
            match_type: c.kind,
            location,
        }
    }

    fn attempt(&self, c: &Candidate, reason: String) -> Attempt {
        Attempt {
            candidate_text: self.matched_text(c),
            confidence_score: c.confidence,
            rejection_reason: reason,
            location: self.location(c),
        }
    }

    fn low_confidence(&self, best: &Candidate) -> FailedClaim {
        let line = self.doc.span(best.orig.0, best.orig.1).line;
        let mut suggestions = Vec::new();
        let reason = if best.discrepancies.is_empty() {
            format!(
                "confidence {:.3} below the claim's confidence_threshold {}",
                best.confidence, self.p.claim.confidence_threshold
            )
        } else if !best.fragments.is_empty() {
            let left_out: Vec<String> = best.discrepancies.iter().flat_map(|d| d.source.iter().cloned()).collect();
            let what: Vec<&str> = best.discrepancies.iter().map(|d| omitted_kind(d.kind)).collect();
            suggestions.push(format!(
                "The ellipsis leaves out {} ({}) at line {line}: quote the passage in full.",
                list_or_nothing(&left_out),
                what.join(" and ")
            ));
            format!(
                "the text an ellipsis leaves out holds {} ({}), which changes what the quote says",
                list_or_nothing(&left_out),
                what.join(" and ")
            )
        } else {
            let what: Vec<&str> = best.discrepancies.iter().map(|d| d.kind).collect();
            format!("the passage differs from the quote in {}", what.join(" and "))
        };
        for d in best.discrepancies.iter().filter(|_| best.fragments.is_empty()) {
            suggestions.push(correct_the_quote(line, d));
        }
        if best.discrepancies.is_empty() {
            suggestions.push(format!(
                "The closest passage is at line {line}; quote it exactly, or lower confidence_threshold if a looser match is acceptable."
            ));
        }
        FailedClaim {
            claim_id: self.p.claim.id.clone(),
            failure_reason: FailureReason::LowConfidence,
            attempted_matches: vec![self.attempt(best, reason)],
            suggestions,
        }
    }

    fn not_found(&self, mut rejected: Rejected, context_removed_all: bool) -> Decided {
        let claim = self.p.claim;
        let mut suggestions = Vec::new();
        let reason = if context_removed_all {
            if claim.expected_section.is_some() {
                suggestions.push("The quote is in the source but not where the claim says; correct expected_section or context_hint.".to_string());
            } else {
                suggestions.push("The quote is in the source but its context_hint words are not nearby; correct context_hint or widen context_window.".to_string());
            }
            FailureReason::ContextMismatch
        } else {
            rejected.extend(self.near_misses());
            if rejected.is_empty() {
                suggestions.push(
                    "No passage of the source shares the quote's content words; the quote may be fabricated."
                        .to_string(),
                );
                FailureReason::NotFound
            } else {
                if claim.evidence_type == EvidenceType::DirectQuote {
                    suggestions.push("The closest passage is listed in attempted_matches; quote it verbatim, or set evidence_type to \"paraphrase\" if the claim restates it.".to_string());
                } else {
                    suggestions.push("The closest passage is listed in attempted_matches; it shares too few of the quote's words to support the claim.".to_string());
                }
                FailureReason::NotFound
            }
        };
        crate::sort::sort_by(&mut rejected, |a, b| {
            b.0.confidence.total_cmp(&a.0.confidence).then(a.0.orig.cmp(&b.0.orig))
        });
        // the closest passage a word or two from the quote: say which (asked
        // only when its edit distance allows two changed words of about the
        // quote's longest: a suggestion, not a verdict)
        let longest = self.p.quote.split_whitespace().map(|w| w.chars().count()).max().unwrap_or(0);
        let near = |c: &Candidate| {
            c.edit_distance.is_none_or(|d| d <= NEAR_COPY_CHANGES * (longest.max(NEAR_MISS_WORD_CHARS) + 2))
        };
        if let Some(d) = rejected
            .first()
            .filter(|(c, _)| near(c))
            .and_then(|(c, _)| Some((c, self.near_copy_change(c)?)))
            .map(|(c, d)| correct_the_quote(self.doc.span(c.orig.0, c.orig.1).line, &d))
        {
            suggestions.insert(0, d);
        }
        let attempted: Vec<Attempt> =
            rejected.iter().take(MAX_LISTED).map(|(c, r)| self.attempt(c, r.clone())).collect();
        Decided {
            result: ClaimResult {
                claim_id: claim.id.clone(),
                task_id: claim.task_id.clone(),
                evidence_type: claim.evidence_type,
                validation_status: Status::Failed,
                confidence_score: 0.0,
                match_details: None,
                alternative_matches: Vec::new(),
            },
            failed: Some(FailedClaim {
                claim_id: claim.id.clone(),
                failure_reason: reason,
                attempted_matches: attempted,
                suggestions,
            }),
            warnings: Vec::new(),
        }
    }

    /// Passages sharing many of the quote's words, for a failed claim.
    fn near_misses(&self) -> Rejected {
        let tokens = self.index.tokens();
        let q = token::TokenQuery::new(&self.p.quote, tokens);
        let from_quote = fuzzy::Levenshtein::new(&self.p.quote);
        token::find(&q, tokens, NEAR_MISS_FLOOR, MAX_LISTED, self.deadline)
            .into_iter()
            .filter_map(|m| {
                // `distance_to`'s, the quote's match vectors built once
                let dist = self.index.text().get(m.start..m.end).map(|t| from_quote.to(t));
                let c = self.candidate_at(MatchType::Fuzzy, m.start, m.end, m.score, m.score, dist)?;
                let reason = format!(
                    "shares {:.0}% of the quote's content words but is not the quoted text (edit distance {}, max_edit_distance {})",
                    m.score * 100.0,
                    dist.map_or("?".to_string(), |d| d.to_string()),
                    self.config.fuzzy_matching.max_edit_distance
                );
                Some((c, reason))
            })
            .collect()
    }
}

/// What an omitted word of a discrepancy's kind is, in a reason.
fn omitted_kind(kind: &str) -> &'static str {
    match kind {
        "number" => "a number",
        "negation" => "a negation",
        "markup" => "a link or markup",
        _ => "a qualifier",
    }
}

fn list_or_nothing(v: &[String]) -> String {
    if v.is_empty() {
        "nothing".to_string()
    } else {
        v.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", ")
    }
}

/// Keeps the first of candidates that are at the same place: overlapping
/// by more than [`SAME_PLACE_OVERLAP`] of the shorter one. The places kept
/// are held by start, and a candidate is compared only with those that can
/// overlap it (starting less than the longest kept length before it), so
/// that many disjoint places cost `O(n log n)`, not `O(n²)`. `None` when
/// the deadline passed.
fn dedupe(sorted: Vec<Candidate>, deadline: &Deadline) -> Option<Vec<Candidate>> {
    let mut kept: Vec<Candidate> = Vec::new();
    let mut by_start: std::collections::BTreeSet<(usize, usize)> = std::collections::BTreeSet::new();
    let mut longest = 0usize;
    for c in sorted {
        if deadline.expired() {
            return None;
        }
        let (start, end) = c.orig;
        let from = start.saturating_sub(longest);
        let same = by_start.range((from, 0)..(end.max(start + 1), 0)).any(|&(ks, ke)| {
            let overlap = end.min(ke).saturating_sub(start.max(ks));
            let shorter = end.saturating_sub(start).min(ke.saturating_sub(ks)).max(1);
            overlap as f64 / shorter as f64 > SAME_PLACE_OVERLAP
        });
        if !same {
            longest = longest.max(end.saturating_sub(start));
            by_start.insert((start, end));
            kept.push(c);
        }
    }
    Some(kept)
}

/// The words of `text` (its tokens, without the punctuation around them).
fn word_list(text: &str) -> Vec<String> {
    tokens::tokenize(text).iter().map(|t| t.text(text).to_string()).collect()
}

fn content_stems(text: &str) -> Vec<String> {
    let mut v: Vec<String> = tokens::tokenize(text)
        .iter()
        .map(|t| t.text(text))
        .filter(|w| !tokens::is_stop_word(w))
        .map(|w| tokens::stem(w).to_string())
        .collect();
    crate::sort::sort(&mut v);
    v.dedup();
    v
}

/// An edit as reported: the quote's and the source's original text, and the
/// source span.
fn edit_report(doc: &Document, index: &SearchIndex, quote: (&Normalized, &str), e: &meaning::Edit) -> MatchEdit {
    let (os, oe) = original_span(index.normalized(), e.source);
    let span = doc.span(os, oe);
    MatchEdit {
        kind: e.kind,
        change: e.change,
        reason: e.why,
        quote: original_text(quote.0, quote.1, e.quote),
        source: doc.source().get(os..oe).unwrap_or("").to_string(),
        location: Location::new(&span, None),
    }
}

/// The original byte range behind normalized `range` of `norm`; an empty
/// range is the point before the original of its byte (or the end).
fn original_span(norm: &Normalized, range: (usize, usize)) -> (usize, usize) {
    if let Some(r) = norm.original_range(range.0, range.1) {
        return r;
    }
    let at = norm
        .original_of_byte(range.0)
        .map_or_else(|| norm.original_of_byte(range.0.wrapping_sub(1)).map_or(0, |r| r.1), |r| r.0);
    (at, at)
}

/// The original text behind normalized `range` of `norm`.
fn original_text(norm: &Normalized, original: &str, range: (usize, usize)) -> String {
    let (s, e) = original_span(norm, range);
    original.get(s..e).unwrap_or("").to_string()
}

/// Bytes `s..e` of `text` widened by up to `reach` bytes on each side, to
/// char boundaries within the text.
fn around(text: &str, s: usize, e: usize, reach: usize) -> (usize, usize) {
    let from = meaning::floor_boundary(text, s.saturating_sub(reach));
    let to = meaning::floor_boundary(text, e.saturating_add(reach).min(text.len()));
    (from, to)
}

/// The suggestion for a passage at `line` that says `d.source` where the
/// quote says `d.quote`.
fn correct_the_quote(line: usize, d: &Discrepancy) -> String {
    format!(
        "The source at line {line} says {} where the quote says {}: correct the quote.",
        list_or_nothing(&d.source),
        list_or_nothing(&d.quote)
    )
}

/// The substitutions among `edits`, as discrepancies by kind.
fn substitutions(edits: &[meaning::Edit], quote: (&Normalized, &str), source: (&Normalized, &str)) -> Vec<Discrepancy> {
    let mut out: Vec<Discrepancy> = Vec::new();
    for e in edits.iter().filter(|e| e.kind == EditKind::Substitution) {
        let kind = e.change.unwrap_or(Change::Word).as_str();
        let q = original_text(quote.0, quote.1, e.quote);
        let s = original_text(source.0, source.1, e.source);
        let d = Discrepancy { kind, quote: vec![q], source: vec![s] };
        merge(&mut out, vec![d]);
    }
    out
}

fn kind_rank(kind: &str) -> u8 {
    match kind {
        "number" => 0,
        "negation" => 1,
        _ => 2,
    }
}

/// Adds `more` to `into`, one entry per kind.
fn merge(into: &mut Vec<Discrepancy>, more: Vec<Discrepancy>) {
    // a word already listed, alone or in a listed phrase (`no` beside `no
    // longer`), is not listed again
    let listed = |list: &[String], word: &str| {
        list.iter().any(|e| tokens::tokenize(e).iter().any(|t| t.text(e).eq_ignore_ascii_case(word)) || e == word)
    };
    for d in more {
        match into.iter_mut().find(|x| x.kind == d.kind) {
            Some(x) => {
                for q in d.quote {
                    if !q.is_empty() && !listed(&x.quote, &q) {
                        x.quote.push(q);
                    }
                }
                for s in d.source {
                    if !s.is_empty() && !listed(&x.source, &s) {
                        x.source.push(s);
                    }
                }
            }
            None => into.push(d),
        }
    }
}

fn negations(text: &str) -> Vec<String> {
    tokens::tokenize(text).iter().map(|t| t.text(text)).filter(|w| tokens::is_negation(w)).map(str::to_string).collect()
}

/// Candidates best first: without discrepancies, then by confidence, kind
/// and place.
fn candidate_order(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    (!a.discrepancies.is_empty())
        .cmp(&!b.discrepancies.is_empty())
        .then(b.confidence.total_cmp(&a.confidence))
        .then(a.kind.cmp(&b.kind))
        .then(a.orig.cmp(&b.orig))
}

/// The text of up to `n` tokens before byte `at`, within the same sentence.
fn tokens_before(text: &str, at: usize, n: usize) -> String {
    let mut from = at.saturating_sub(64);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let head = text.get(from..at).unwrap_or("");
    let head = head.rfind(['.', '!', '?', ';', '\n']).map_or(head, |i| &head[i + 1..]);
    let toks = tokens::tokenize(head);
    toks.iter().rev().take(n).rev().map(|t| t.text(head)).collect::<Vec<_>>().join(" ")
}

fn back_chars(s: &str, from: usize, n: usize) -> usize {
    s.get(..from).map_or(0, |h| h.char_indices().rev().take(n).last().map_or(from, |(i, _)| i))
}

fn forward_chars(s: &str, from: usize, n: usize) -> usize {
    s.get(from..).map_or(s.len(), |t| t.char_indices().nth(n).map_or(s.len(), |(i, _)| from + i))
}

/// A match found by [`find_quote`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoundMatch {
    /// `exact` or `fuzzy`.
    pub match_type: MatchType,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
    /// `original[byte_start..byte_end]`.
    pub matched_text: String,
    /// Character edit distance between the normalized quote and the match.
    pub edit_distance: usize,
    /// 1 − edit_distance / quote length.
    pub similarity_score: f64,
    /// The match says something else than the quote: a word, number or
    /// negation differs, or the quote's markup (a link's destination, an
    /// image's source, a tag's attributes) is not the source's there (see
    /// `edits`).
    pub substitution: bool,
    /// Word-level differences from the quote (fuzzy matches, and exact ones
    /// cut inside a word), and a `markup` edit for markup that differs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<MatchEdit>,
}

/// What [`find`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindResult {
    /// The matches, in document order: at most `maxResults`, and no more
    /// than [`MAX_RESULT_BYTES`] of matched text.
    pub matches: Vec<FoundMatch>,
    /// Places found in all (when `complete`; else those seen before the
    /// time limit).
    pub total: usize,
    /// Places found but not in `matches` (past `maxResults` or the
    /// memory cap).
    pub omitted: usize,
    /// False when the time limit ended the search: there may be more places.
    pub complete: bool,
}

/// Every place `quote` occurs in `doc`: exact occurrences, or when there are
/// none and `max_edit_distance > 0`, fuzzy ones within that distance. Each
/// passes the meaning guard: a fuzzy span is widened to whole words, and a
/// match that changes a word, number or negation, or whose markup is not
/// the quote's, is marked `substitution`.
/// At most `options.max_results` matches (and [`MAX_RESULT_BYTES`] of
/// matched text) are returned, the rest counted; the search stops at the
/// options' time limit, read on `clock`.
pub fn find(doc: &Document, quote: &str, options: &FindOptions, clock: &dyn crate::host::Clock) -> FindResult {
    let deadline = Deadline::after(clock, options.max_processing_time_seconds * 1000.0);
    let profile = options.profile();
    let index = doc.index(profile);
    let units = doc.format().units(quote);
    // what the quote's markup says (a link's destination, …) must be the
    // source's at each place, as in a validation
    let hidden = hidden_words(quote, &units);
    let qn = Normalized::from_units(units, profile);
    let q = qn.as_str();
    let chars = q.chars().count();
    let mut result = FindResult { matches: Vec::new(), total: 0, omitted: 0, complete: true };
    if chars == 0 {
        return result;
    }
    let grams = index.grams_for_few();
    let cap = options.max_results;
    let found = exact::find_all_bounded(index.text(), grams, &[q], cap, &deadline).pop().unwrap_or_default();
    let exact = found.total > 0;
    result.total = found.total;
    let mut hits: Vec<(usize, usize, usize)> = found.spans.into_iter().map(|(s, e)| (s, e, 0)).collect();
    if !exact && options.max_edit_distance > 0 && !deadline.expired() {
        let k = options.max_edit_distance.min(chars.saturating_sub(1));
        let query = [fuzzy::FuzzyQuery { pattern: q, max_distance: k }];
        let (found, totals) = fuzzy::find_all_bounded(index.text(), index.char_marks(), grams, &query, cap, &deadline);
        result.total = totals.first().copied().unwrap_or(0);
        hits = found.into_iter().map(|m| (m.start, m.end, m.distance)).collect();
    }
    let words = SourceWords::find(index, grams, meaning::vocabulary_questions(q, |_| false), &deadline);
    let quote_side = meaning::Side { normalized: &qn, original: quote, start: 0, end: q.len() };
    let mut bytes = 0usize;
    for (s, e, d) in hits {
        if deadline.expired() || bytes > MAX_RESULT_BYTES {
            break;
        }
        let source = meaning::Side { normalized: index.normalized(), original: doc.source(), start: s, end: e };
        let (edits, (s, e), d) = if exact {
            (meaning::exact_edges(&quote_side, &source, &words, false), (s, e), d)
        } else {
            let cmp = meaning::compare(&quote_side, &source, &words, false);
            let d = if cmp.snapped == (s, e) {
                d
            } else {
                let Some(snapped) = index.text().get(cmp.snapped.0..cmp.snapped.1) else {
                    continue;
                };
                fuzzy::levenshtein(q, snapped)
            };
            (cmp.edits, cmp.snapped, d)
        };
        let Some((os, oe)) = index.normalized().original_range(s, e) else {
            continue;
        };
        let Some(matched_text) = doc.source().get(os..oe) else {
            continue;
        };
        bytes += matched_text.len();
        let span = doc.span(os, oe);
        let mut reported: Vec<MatchEdit> = edits.iter().map(|e| edit_report(doc, index, (&qn, quote), e)).collect();
        if let Some(d) = markup_discrepancy(doc, index, &hidden, s, e) {
            reported.push(MatchEdit {
                kind: EditKind::Substitution,
                change: Some(Change::Word),
                reason: "markup",
                quote: d.quote.join(" "),
                source: d.source.concat(),
                location: Location::new(&span, None),
            });
        }
        result.matches.push(FoundMatch {
            match_type: if exact { MatchType::Exact } else { MatchType::Fuzzy },
            location: Location::new(&span, doc.section_at(os).map(|s| s.title.clone())),
            matched_text: matched_text.to_string(),
            edit_distance: d,
            similarity_score: 1.0 - d as f64 / chars.max(1) as f64,
            substitution: reported.iter().any(|e| e.kind == EditKind::Substitution),
            edits: reported,
        });
    }
    result.complete = !deadline.expired();
    // matches ⊆ places held ⊆ places counted
    result.omitted = result.total.saturating_sub(result.matches.len());
    result
}

/// [`find`] with the default limits and no time limit: the matches only.
pub fn find_quote(doc: &Document, quote: &str, profile: Profile, max_edit_distance: usize) -> Vec<FoundMatch> {
    let options = FindOptions {
        max_edit_distance,
        case_sensitive: !profile.fold_case,
        normalize_whitespace: profile.collapse_whitespace,
        max_results: MAX_RESULTS_BOUND,
        max_processing_time_seconds: f64::INFINITY,
    };
    find(doc, quote, &options, &crate::host::FixedClock(0.0)).matches
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::matching::index::TokenIndex;
    use crate::test_rng::SplitMix64;
    use serde_json::json;

    #[test]
    fn an_opposite_word_is_a_discrepancy_only_when_the_passage_says_it_instead() {
        let q = QuoteNumbers::of("the build fails on windows and works on linux only");
        // both sides in the quote: nothing to say
        assert!(q.opposites("the build works on windows").is_none());
        let q = QuoteNumbers::of("the build fails on windows");
        let d = q.opposites("on windows the build works fine").expect("works for fails");
        assert_eq!(
            (d.kind, d.quote.clone(), d.source.clone()),
            ("word", vec!["fails".to_string()], vec!["works".to_string()])
        );
        // another form of the quote's word is there: the passage says it
        assert!(q.opposites("the build failed on windows, then works").is_none());
        // neither side: another matter
        assert!(q.opposites("the build is slow on windows").is_none());
        // both ways, and other pairs
        let d = QuoteNumbers::of("added before the release").opposites("removed after the release").expect("two");
        assert_eq!(d.quote, ["added", "before"]);
        assert_eq!(d.source, ["removed", "after"]);
    }

    /// The number and negation check as it was before the quote's side was
    /// kept per claim ([`QuoteNumbers`]): everything read from the quote
    /// again for each passage.
    fn discrepancies_read_again(quote: &str, passage: &str, before: &str, strict: bool) -> Vec<Discrepancy> {
        let mut out = Vec::new();
        let (qn, pn) = (quantity::quantities(quote), quantity::quantities(passage));
        let (missing, extra) = quantity::unmatched(&qn, &pn);
        let mut missing: Vec<String> = missing.iter().filter_map(|&i| qn.get(i)).map(|q| q.text.clone()).collect();
        let extra: Vec<String> = extra.iter().filter_map(|&i| pn.get(i)).map(|q| q.text.clone()).collect();
        let passage_words: Vec<&str> = tokens::tokenize(passage).iter().map(|t| t.text(passage)).collect();
        for t in tokens::tokenize(quote) {
            let w = t.text(quote);
            if w.bytes().any(|b| b.is_ascii_digit())
                && !passage_words.contains(&w)
                && !qn.iter().any(|q| q.text.contains(w))
            {
                missing.push(w.to_string());
            }
        }
        if !missing.is_empty() || (strict && !extra.is_empty()) {
            out.push(Discrepancy { kind: "number", quote: missing, source: extra });
        }
        let qneg = negations(quote);
        let pneg = negations(&format!("{before} {passage}"));
        let differs = if strict { qneg.len() != negations(passage).len() } else { qneg.len() != pneg.len() };
        if differs {
            out.push(Discrepancy {
                kind: "negation",
                quote: qneg,
                source: if strict { negations(passage) } else { pneg },
            });
        }
        out
    }

    #[test]
    fn quote_numbers_kept_give_the_discrepancies_read_again() {
        const WORDS: &[&str] = &[
            "5",
            "five",
            "Five",
            "3.2",
            "billion",
            "3,200",
            "million",
            "15%",
            "percent",
            "420",
            "ms",
            "seconds",
            "first",
            "1st",
            "21st",
            "v1.2",
            "2.3.0",
            "i32",
            "r14",
            "$5",
            "-3",
            "not",
            "never",
            "no",
            "don't",
            "isn't",
            "without",
            "the",
            "cache",
            "is",
            "a",
            "hundred",
            "and",
            "twenty-one",
            "\u{4e2d}\u{6587}",
            "\u{1f600}",
            "x86_64",
            "404",
            "k8s",
            "5k",
            "MB",
            "GB",
            "3d6",
            "one",
        ];
        let mut rng = SplitMix64(0x0dd5_1e55);
        let text = |rng: &mut SplitMix64, most: usize| -> String {
            let n = rng.below(most);
            (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect::<Vec<_>>().join(" ")
        };
        for _ in 0..3_000 {
            let quote = text(&mut rng, 12);
            let kept = QuoteNumbers::of(&quote);
            for _ in 0..4 {
                let passage = text(&mut rng, 14);
                let before = text(&mut rng, 4);
                for strict in [false, true] {
                    assert_eq!(
                        kept.discrepancies(&passage, &before, strict),
                        discrepancies_read_again(&quote, &passage, &before, strict),
                        "{quote:?} / {passage:?} after {before:?}, strict {strict}"
                    );
                }
            }
        }
    }

    /// The pieces a text is made of: apostrophes inside and at the edges of
    /// words, hyphens, numbers, ideographs, emoji, combining marks, other
    /// scripts, upper case.
    const PARTS: &[&str] = &[
        "don't",
        "o'brien",
        "rock'n'roll",
        "it's",
        "l'été",
        "x'y'z",
        "a'b'c'd'e'f'g'h",
        "don",
        "t",
        "brien",
        "n",
        "中文",
        "文",
        "中",
        "こんにちは",
        "😀",
        "e\u{301}cole",
        "naïve",
        "co-founder",
        "founder",
        "1,000",
        "3.5",
        "2.3.1",
        "i32",
        "İstanbul",
        "istanbul",
        "straße",
        "Δοκιμή",
        "٣٤",
        "x²",
        "the",
        "theory",
        "art",
        "start",
        "war",
        "warfare",
        "Rust's",
        "rust",
    ];
    const SEPARATORS: &[&str] = &["", " ", "'", "''", "-", ".", ",", "\n", " '", "' ", "\u{301}", "\u{2019}"];

    fn random_text(rng: &mut SplitMix64) -> String {
        let mut text = String::new();
        for _ in 0..rng.range(1, 14) {
            text.push_str(rng.pick(SEPARATORS));
            text.push_str(rng.pick(PARTS));
        }
        text.push_str(rng.pick(SEPARATORS));
        text
    }

    /// What the guard may ask about a text: its tokens, their pieces
    /// between apostrophes, random slices of it, the parts, all also
    /// lowercased.
    fn questions(text: &str, rng: &mut SplitMix64) -> Vec<String> {
        let mut out: Vec<String> = PARTS.iter().map(|p| p.to_string()).collect();
        tokens::for_each_token(text, |t| {
            let w = t.text(text);
            out.push(w.to_string());
            out.extend(w.split('\'').map(str::to_string));
            if let Some((head, _)) = w.rsplit_once('\'') {
                out.push(head.to_string());
            }
            if let Some((_, tail)) = w.split_once('\'') {
                out.push(tail.to_string());
            }
        });
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        for _ in 0..20 {
            let a = bounds[rng.below(bounds.len())];
            let b = bounds[rng.below(bounds.len())];
            out.push(text[a.min(b)..a.max(b)].to_string());
        }
        let lower: Vec<String> = out.iter().map(|w| w.to_lowercase()).collect();
        out.extend(lower);
        out.retain(|w| !w.is_empty());
        out
    }

    /// The search as one pass over the text for every quote, then one
    /// fuzzy search of every query (the path [`Search`]'s parts replace,
    /// kept as the oracle).
    fn searched_at_once(index: &SearchIndex, config: &Config, prepared: &[Prepared]) -> Searched {
        let (text, deadline) = (index.text(), Deadline::never());
        let quotes: Vec<&str> = prepared.iter().map(|p| p.quote.as_str()).collect();
        let exact = exact::find_all_bounded(text, None, &quotes, MAX_PLACES_PER_CLAIM, &deadline);
        let queries: Vec<(usize, fuzzy::FuzzyQuery)> = prepared
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                let none_exact = exact.get(*i).is_none_or(|o| o.total == 0);
                p.chars > 0 && p.fragments.is_empty() && (none_exact || p.claim.evidence_type.is_loose())
            })
            .map(|(i, p)| (i, fuzzy::FuzzyQuery { pattern: &p.quote, max_distance: max_distance(config, p.chars) }))
            .collect();
        let list: Vec<fuzzy::FuzzyQuery> = queries.iter().map(|&(_, q)| q).collect();
        let (mut fuzzy_hits, mut fuzzy_totals) = (vec![Vec::new(); prepared.len()], vec![0; prepared.len()]);
        let (found, totals) =
            fuzzy::find_all_bounded(text, index.char_marks(), None, &list, MAX_PLACES_PER_CLAIM, &deadline);
        for m in found {
            fuzzy_hits[queries[m.query].0].push(m);
        }
        for (q, total) in totals.into_iter().enumerate() {
            fuzzy_totals[queries[q].0] = total;
        }
        Searched { exact, fuzzy: fuzzy_hits, fuzzy_totals }
    }

    /// `claims` (JSON) on plain `text` searched in parts of `budget`, and
    /// the search at once ([`searched_at_once`]): (in parts, at once, the
    /// parts it took, the claims).
    fn searched_both_ways(
        text: &str,
        claims: &Value,
        config: &Config,
        budget: SearchBudget,
    ) -> (Searched, Searched, usize, usize) {
        let doc = Document::new(text.to_string(), Some(crate::Format::PlainText)).expect("text");
        let claims = super::super::ClaimSet::from_json(claims).expect("claims").claims;
        let index = doc.index_for(config.profile(), false);
        let prepared: Vec<Prepared> = claims.iter().map(|c| prepare(&doc, c, config.profile())).collect();
        let want = searched_at_once(index, config, &prepared);
        let (deadline, mut search, mut parts) = (Deadline::never(), Search::default(), 0);
        while !search.step(&doc, &claims, config, budget, &deadline) {
            parts += 1;
            assert!(parts < 10 * (text.len() + claims.len()) + 100, "the search never ends");
        }
        let got = search.found(index, config, &deadline).expect("no deadline").searched;
        (got, want, parts, claims.len())
    }

    /// A text of random parts (emoji, CJK, combining marks, curly quotes,
    /// CRLF), some repeated; and claims on it: slices of it (some edited,
    /// some used twice), absent ones, an ellipsis one.
    fn text_and_claims(rng: &mut SplitMix64) -> (String, Value) {
        let mut text = String::new();
        let mut pieces: Vec<String> = Vec::new();
        for _ in 0..rng.range(1, 12) {
            let piece = random_text(rng) + rng.pick(&["\r\n", " \u{201c}quoted\u{201d} ", "\u{2014}", " "]);
            for _ in 0..rng.range(1, 5) {
                text.push_str(&piece);
                pieces.push(piece.clone());
            }
        }
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let mut claims = Vec::new();
        for i in 0..rng.range(4, 14) {
            let a = bounds[rng.below(bounds.len())];
            let b = bounds[(bounds.partition_point(|&x| x < a) + rng.range(10, 60)).min(bounds.len() - 1)];
            let mut quote = text[a..b].to_string();
            match rng.below(6) {
                0 => quote = quote.replacen(|c: char| c.is_alphabetic(), "x", 1),
                1 => quote = format!("nothing of {i} like this at all"),
                2 => {
                    let (x, y) = (&pieces[rng.below(pieces.len())], &pieces[rng.below(pieces.len())]);
                    quote = format!("{} ... {}", x.trim(), y.trim());
                }
                _ => {}
            }
            if quote.trim().chars().count() < 10 {
                quote = pieces[rng.below(pieces.len())].trim().to_string() + " and so on";
            }
            let kind = rng.pick(&["direct_quote", "direct_quote", "paraphrase", "concept_reference"]);
            claims.push(json!({"id": format!("EV{i}"), "task_id": "P1.T001", "quote": quote, "evidence_type": kind}));
            if rng.below(5) == 0 {
                claims.push(json!({"id": format!("EV{}", 100 + i), "task_id": "P1.T001", "quote": quote, "evidence_type": "direct_quote"}));
            }
        }
        (text, json!({"claims": claims}))
    }

    /// The search in parts of any size (claims prepared one at a time, the
    /// text searched a few bytes at a time, cut inside emoji and CJK, the
    /// fuzzy queries one or a few at a time) finds what the search of all
    /// at once does: the same exact occurrences and counts, the same fuzzy
    /// matches, numbered the same, and the same counts.
    #[test]
    fn a_search_in_parts_finds_what_the_search_at_once_does() {
        let mut rng = SplitMix64(0x5eed_0021);
        let (mut exact_seen, mut fuzzy_seen, mut cut) = (0usize, 0usize, 0usize);
        for round in 0..400 {
            let (text, claims) = text_and_claims(&mut rng);
            let config = if round % 3 == 0 {
                Config::from_json(&json!({"exact_matching": {"case_sensitive": true}})).expect("config")
            } else {
                Config::default()
            };
            let budget = SearchBudget { claims: rng.range(1, 4), bytes: rng.range(1, 40), queries: rng.range(1, 4) };
            let (got, want, parts, claims) = searched_both_ways(&text, &claims, &config, budget);
            cut += usize::from(parts > claims + 2);
            assert_eq!(got.exact, want.exact, "round {round}: {text:?}");
            assert_eq!(got.fuzzy, want.fuzzy, "round {round}: {text:?}");
            assert_eq!(got.fuzzy_totals, want.fuzzy_totals, "round {round}: {text:?}");
            exact_seen += want.exact.iter().filter(|o| o.total > 0).count();
            fuzzy_seen += want.fuzzy.iter().filter(|f| !f.is_empty()).count();
        }
        assert!(
            exact_seen > 1000 && fuzzy_seen > 300 && cut > 300,
            "{exact_seen} exact, {fuzzy_seen} fuzzy, {cut} cut"
        );
    }

    /// A quote found more often than [`MAX_PLACES_PER_CLAIM`]: the parts
    /// keep the first occurrences and count the rest, as the one pass does.
    #[test]
    fn a_search_in_parts_keeps_the_first_places_and_counts_the_rest() {
        let text = "ab\u{1F600}c 中文 ab\u{1F600}c\r\n".repeat(1100);
        let claims = json!({"claims": [
            {"id": "EV1", "task_id": "P1.T001", "quote": "ab\u{1F600}c 中文 ab\u{1F600}c", "evidence_type": "direct_quote"},
            {"id": "EV2", "task_id": "P1.T001", "quote": "ab\u{1F600}c 中文 ab", "evidence_type": "paraphrase"},
            {"id": "EV3", "task_id": "P1.T001", "quote": "ab\u{1F600}c 中文 ab\u{1F600}c", "evidence_type": "direct_quote"},
            {"id": "EV4", "task_id": "P1.T001", "quote": "ax\u{1F600}c 中文 ab\u{1F600}c", "evidence_type": "direct_quote"},
        ]});
        for bytes in [1, 7, 100, 4096] {
            let budget = SearchBudget { claims: 1, bytes, queries: 1 };
            let (got, want, _, _) = searched_both_ways(&text, &claims, &Config::default(), budget);
            assert!(want.exact[1].total > MAX_PLACES_PER_CLAIM && want.exact[1].spans.len() == MAX_PLACES_PER_CLAIM);
            assert!(want.fuzzy_totals[3] > MAX_PLACES_PER_CLAIM);
            assert_eq!(
                (got.exact, got.fuzzy, got.fuzzy_totals),
                (want.exact.clone(), want.fuzzy.clone(), want.fuzzy_totals.clone()),
                "{bytes} bytes a part"
            );
        }
    }

    /// The token index's answers (`TokenIndex::has_whole_word`) are the
    /// multi-pattern search's (`whole_words_searched`, the path they
    /// replace, kept as the oracle), on raw and on normalized random texts.
    #[test]
    fn whole_words_from_the_token_index_are_the_searchs() {
        let mut rng = SplitMix64(0x5eed_0012);
        let deadline = Deadline::never();
        let (mut answered, mut present, mut asked) = (0usize, 0usize, 0usize);
        for round in 0..3000 {
            let raw = random_text(&mut rng);
            let text = if round % 2 == 0 {
                raw
            } else {
                Normalized::from_plain(&raw, Profile::default()).as_str().to_string()
            };
            let index = TokenIndex::new(&text);
            let words = questions(&text, &mut rng);
            let searched = whole_words_searched(&text, None, &words, &deadline);
            for (w, found) in words.iter().zip(searched) {
                asked += 1;
                if let Some(answer) = index.has_whole_word(w) {
                    assert_eq!(answer, found, "{w:?} in {text:?}");
                    answered += 1;
                    present += usize::from(found);
                }
            }
        }
        // most questions are answered from the index, both ways
        assert!(answered * 10 > asked * 6, "{answered} of {asked}");
        assert!(present * 5 > answered && present * 5 < answered * 4, "{present} of {answered}");
    }

    #[test]
    fn whole_words_beside_ideographs_and_apostrophes() {
        let index = TokenIndex::new("中abc x'yz don't 文 q'r'st'uv'w'x'y'z'a'b");
        // too many apostrophes in one surface: the index does not answer
        assert_eq!(index.has_whole_word("abc"), None);
        let index = TokenIndex::new("中abc x'yz don't 文 de中");
        for (w, want) in [
            ("abc", Some(false)),
            ("x", Some(true)),
            ("yz", Some(true)),
            ("x'yz", Some(true)),
            ("don", Some(true)),
            ("t", Some(true)),
            ("文", Some(true)),
            ("中", Some(false)),
            ("de", Some(false)),
            ("on", Some(false)),
            ("x'", None),
            ("a b", None),
        ] {
            assert_eq!(index.has_whole_word(w), want, "{w}");
        }
    }
}
