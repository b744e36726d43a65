//! Stage 6 of spec 004, numeric verification, the deterministic part: the
//! numeric components of a claim and of its evidence (value, unit, entity,
//! time period), normalized, and compared with the spec's match score
//! (exact 1.0, within rounding tolerance 0.9, same order of magnitude 0.5,
//! else 0.0) against its threshold. A wrong entity ("revenue" vs "profit")
//! or time period ("Q4 2024" vs "Q4 2023") or unit (`$` vs `€`) is
//! reported and makes the score 0. The QA questions of the spec go through
//! the host's LLM in part 2; this is the comparison that runs without one.
//!
//! Normalization is `text::quantity`'s reading (digits and number
//! words, thousands separators, `k`/`m`/`mn`/`b`/`bn`/`thousand`/`million`/
//! `billion`, `%`/`percent`/`per cent`, currency signs) with its
//! `Reading::FINANCE` extensions: currency codes (`USD 5`), decimal commas
//! where unambiguous (`3,2`; `1,500` stays 1500) and `Mrd.`/`Mio.`/`Tsd.`,
//! so "3,2 Mrd. €" is handled: 3.2 × 10⁹ EUR. A percentage is normalized to
//! its fraction (15% → 0.15). Ranges (`10-15%`, `10 to 15`, `between 10 and
//! 15`) are kept as ranges. A 4-digit number from 1900 to 2099 with no unit,
//! scale or percent is read as a year (a time period), not a value.
//!
//! Texts are passages (a claim, a span): at most [`MAX_QUANTITIES`] numbers
//! a side are looked at.

use crate::cite::config::NumericConfig;
use crate::cite::Verdict;
use crate::text::position::{PositionIndex, Span};
use crate::text::quantity::{self, Quantity, Reading};
use crate::text::tokens;
use serde::Serialize;

/// Most numbers of one text compared (the rest are not read).
pub const MAX_QUANTITIES: usize = 256;

/// Words after which a value is a derived one (spec stage 3's list).
const DERIVED_WORDS: &[&str] =
    &["total", "totaling", "totalling", "combined", "sum", "average", "averaged", "altogether"];

/// What a number describes: canonical name and the words that say it.
const ENTITIES: &[(&str, &[&str])] = &[
    ("revenue", &["revenue", "revenues", "sales", "turnover", "top line"]),
    ("profit", &["profit", "profits", "net income", "earnings", "net profit", "bottom line"]),
    ("operating income", &["operating income", "operating profit", "ebit"]),
    ("ebitda", &["ebitda"]),
    ("loss", &["loss", "losses", "net loss"]),
    ("margin", &["margin", "margins", "gross margin", "operating margin"]),
    ("expenses", &["expenses", "costs", "spending", "expenditure", "expenditures", "opex"]),
    ("employees", &["employees", "employee", "staff", "workers", "headcount", "employs", "employ", "workforce"]),
    ("users", &["users", "active users", "subscribers", "members"]),
    ("customers", &["customers", "clients"]),
    ("market share", &["market share"]),
    ("market cap", &["market cap", "market capitalization", "market capitalisation", "valuation"]),
    ("debt", &["debt", "borrowings"]),
    ("cash", &["cash", "cash flow", "free cash flow"]),
    ("dividend", &["dividend", "dividends"]),
    ("assets", &["assets"]),
    ("funding", &["funding", "raised", "investment"]),
    ("price", &["price", "prices", "share price"]),
    ("population", &["population", "inhabitants", "residents"]),
    ("growth", &["growth", "grew", "increase", "increased", "rose"]),
    ("decline", &["decline", "declined", "decrease", "decreased", "fell", "dropped"]),
];

/// The twelve month names, in calendar order.
fn months() -> &'static [&'static str] {
    crate::text::lexicon::MONTHS.get(..12).unwrap_or(&[])
}

/// A time period named in a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Period {
    /// As written.
    pub text: String,
    /// Normalized: `Q4 2024`, `FY2023`, `H1 2024`, `March 2024`, `2024`, `Q4`.
    pub normalized: String,
    /// Byte range in the text.
    #[serde(skip)]
    pub start: usize,
    /// End of that range.
    #[serde(skip)]
    pub end: usize,
    year: Option<u16>,
    /// (kind, number): quarter `q`, half `h`, month `m`.
    part: Option<(char, u8)>,
    fiscal: bool,
}

impl Period {
    /// Whether the two can name the same time: years and parts agree where
    /// both say them.
    pub fn compatible(&self, other: &Period) -> bool {
        let years = match (self.year, other.year) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let parts = match (self.part, other.part) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        years && parts
    }
}

/// Every time period in `text`, in order: quarters and halves (`Q4 2024`,
/// `Q4 FY24`, `H1`), fiscal years (`FY2023`, `FY 23`, `fiscal year 2023`,
/// `fiscal 2023`), months with a year (`March 2024`) and years (1900–2099).
pub fn periods(text: &str) -> Vec<Period> {
    let toks = tokens::tokenize(text);
    let low: Vec<String> = toks.iter().take(MAX_QUANTITIES * 8).map(|t| t.text(text).to_lowercase()).collect();
    let mut out = Vec::new();
    let mut k = 0;
    // `low` holds the first words of `toks`: every index below `low.len()`
    // is one of `toks` too
    let end_of = |j: usize| toks.get(j).map_or(0, |t| t.end as usize);
    while let (Some(tok), Some(w)) = (toks.get(k), low.get(k)) {
        let (start, mut end) = (tok.start as usize, tok.end as usize);
        let w = w.as_str();
        let mut next = k + 1;
        let mut period = None;
        if let Some(part) = quarter_or_half(w) {
            let mut year = None;
            let mut fiscal = false;
            if let Some((y, f)) = low.get(k + 1).and_then(|n| year_of(n, false)) {
                year = Some(y);
                fiscal = f;
                end = end_of(k + 1);
                next = k + 2;
            }
            period = Some((year, Some(part), fiscal));
        } else if let Some((y, true)) = year_of(w, false) {
            period = Some((Some(y), None, true));
        } else if w == "fy" || w == "fiscal" {
            let mut j = k + 1;
            if w == "fiscal" && low.get(j).is_some_and(|n| n == "year") {
                j += 1;
            }
            if let Some((y, _)) = low.get(j).and_then(|n| year_of(n, true)) {
                end = end_of(j);
                next = j + 1;
                period = Some((Some(y), None, true));
            }
        } else if let Some(m) = months().iter().position(|m| *m == w || (w.len() == 3 && m.starts_with(w))) {
            if let Some((y, false)) = low.get(k + 1).and_then(|n| year_of(n, false)) {
                end = end_of(k + 1);
                next = k + 2;
                period = Some((Some(y), Some(('m', m as u8 + 1)), false));
            }
        } else if let Some((y, false)) = year_of(w, false) {
            period = Some((Some(y), None, false));
        }
        if let Some((year, part, fiscal)) = period {
            let normalized = normalize_period(year, part, fiscal);
            out.push(Period {
                text: text.get(start..end).unwrap_or("").to_string(),
                normalized,
                start,
                end,
                year,
                part,
                fiscal,
            });
        }
        k = next;
    }
    out
}

fn quarter_or_half(w: &str) -> Option<(char, u8)> {
    let b = w.as_bytes();
    match b {
        [b'q', d @ b'1'..=b'4'] => Some(('q', d - b'0')),
        [b'h', d @ b'1'..=b'2'] => Some(('h', d - b'0')),
        [d @ b'1'..=b'4', b'q'] => Some(('q', d - b'0')),
        _ => None,
    }
}

/// A year: `2024` (not fiscal), `fy2024` or `fy24` (fiscal); a bare
/// two-digit `24` only when `two_digits` (right after `FY`).
fn year_of(w: &str, two_digits: bool) -> Option<(u16, bool)> {
    let (digits, fiscal) = match w.strip_prefix("fy") {
        Some(rest) => (rest, true),
        None => (w, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u16 = digits.parse().ok()?;
    match digits.len() {
        4 if (1900..=2099).contains(&n) => Some((n, fiscal)),
        2 if fiscal || two_digits => Some((2000 + n, fiscal || two_digits)),
        _ => None,
    }
}

fn normalize_period(year: Option<u16>, part: Option<(char, u8)>, fiscal: bool) -> String {
    let year_text = year.map(|y| if fiscal { format!("FY{y}") } else { y.to_string() });
    let part_text = part.map(|(kind, n)| match kind {
        'q' => format!("Q{n}"),
        'h' => format!("H{n}"),
        _ => {
            let m = months().get(usize::from(n).saturating_sub(1)).copied().unwrap_or("");
            let mut c = m.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
    });
    match (part_text, year_text) {
        (Some(p), Some(y)) => format!("{p} {y}"),
        (Some(p), None) => p,
        (None, Some(y)) => y,
        (None, None) => String::new(),
    }
}

/// The numeric components of a claim or of evidence (the spec's
/// `NumericComponents`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumericComponents {
    /// The number as written (`$3.2B`, `10-15%`).
    pub raw_value: String,
    /// Its value: scale applied, a percentage as a fraction; for a range
    /// its low end.
    pub normalized_value: f64,
    /// A range's low and high ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_range: Option<[f64; 2]>,
    /// `USD`, `EUR`, …, `percent`, a unit (`ms`, `km`), or none (a count).
    pub unit: Option<String>,
    /// What the number describes (`revenue`, `profit`, `employees`), if a
    /// word for it is near.
    pub entity: Option<String>,
    /// When it applies (`Q4 2024`, `FY2023`), normalized.
    pub time_period: Option<String>,
    /// `direct` (stated) or `derived` (a total, an average).
    pub derivation_type: &'static str,
    /// Where the number is, in the three unit systems.
    pub position: Span,
}

/// One disagreement between claim and evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// `entity`, `time_period` or `unit`.
    pub field: &'static str,
    /// The claim's.
    pub claim: String,
    /// The evidence's.
    pub evidence: String,
}

/// A derived value traced to the evidence's numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derivation {
    /// `sum` or `average`.
    pub operation: &'static str,
    /// The evidence's numbers it was computed from, as written.
    pub inputs: Vec<String>,
    /// The computed value.
    pub value: f64,
}

/// The result of comparing a claim's number with the evidence's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumericResult {
    /// `qa` (normalized comparison) or `text` (the fallback: digits as written).
    pub method: &'static str,
    /// SUPPORTED when `match_score` reaches the threshold, else CONTRADICTED.
    pub verdict: Verdict,
    /// The spec's score, 0 when a mismatch is reported.
    pub match_score: f64,
    /// The values' score alone (1.0, 0.9, 0.5 or 0.0).
    pub value_score: f64,
    /// The claim's components.
    pub claim: NumericComponents,
    /// The evidence's (the number that matches the claim best), if any.
    pub evidence: Option<NumericComponents>,
    /// Entity, time period or unit disagreements.
    pub mismatches: Vec<Mismatch>,
    /// How a derived claim value was computed from the evidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derivation: Option<Derivation>,
}

/// A number read from a text, before its position is placed.
#[derive(Debug, Clone)]
struct Value {
    low: f64,
    high: f64,
    range: bool,
    unit: Option<String>,
    start: usize,
    end: usize,
}

/// The numbers of `text` that are values (not years or ordinals), ranges
/// joined.
fn values(text: &str, periods: &[Period]) -> Vec<Value> {
    let qs: Vec<Quantity> =
        quantity::quantities_read(text, Reading::FINANCE).into_iter().take(MAX_QUANTITIES).collect();
    let is_value = |q: &Quantity| {
        let year_like = q.unit.is_none()
            && !q.percent
            && !q.words
            && q.value.fract() == 0.0
            && (1900.0..=2099.0).contains(&q.value)
            && q.text.len() == 4;
        let in_period = periods.iter().any(|p| q.start >= p.start && q.end <= p.end);
        !q.ordinal && !year_like && !in_period
    };
    let kept: Vec<&Quantity> = qs.iter().filter(|q| is_value(q)).collect();
    let mut out: Vec<Value> = Vec::new();
    let mut i = 0;
    while let Some(q) = kept.get(i) {
        let next = kept.get(i + 1).filter(|n| {
            let gap = text.get(q.end..n.start).unwrap_or("").trim().to_lowercase();
            let before = text.get(..q.start).unwrap_or("").trim_end().to_lowercase();
            matches!(gap.as_str(), "-" | "–" | "—" | "to") || (gap == "and" && before.ends_with("between"))
        });
        let (a, b) = (normalized(q), next.map(|n| normalized(n)));
        match (next, b) {
            (Some(n), Some(b)) => {
                let unit = unit_name(n).or_else(|| unit_name(q));
                // "10-15%": the mark after the second number is both's
                let scale = if n.percent && !q.percent { 0.01 } else { 1.0 };
                let lo = a * scale;
                out.push(Value { low: lo.min(b), high: lo.max(b), range: true, unit, start: q.start, end: n.end });
                i += 2;
            }
            _ => {
                out.push(Value { low: a, high: a, range: false, unit: unit_name(q), start: q.start, end: q.end });
                i += 1;
            }
        }
    }
    out
}

fn normalized(q: &Quantity) -> f64 {
    if q.percent {
        q.value / 100.0
    } else {
        q.value
    }
}

fn unit_name(q: &Quantity) -> Option<String> {
    if q.percent {
        return Some("percent".into());
    }
    q.unit.map(|u| match u {
        "usd" | "eur" | "gbp" | "jpy" | "chf" | "inr" => u.to_uppercase(),
        other => other.to_string(),
    })
}

/// What [`components`] reads of a whole text, read once per text: the
/// entity words at word bounds and whether the text derives its value. It
/// was read again for every value of the text (the evidence's up to
/// [`MAX_QUANTITIES`]: 75 substring searches and a tokenization of the
/// whole text per value), quadratic in a long evidence's length.
struct TextFacts {
    /// Every entity word at word bounds: (start, end, entity), in the order
    /// of [`ENTITIES`], its words, then their place in the text (ties of
    /// [`TextFacts::entity_near`] go to the first).
    entities: Vec<(usize, usize, &'static str)>,
    derived: bool,
}

impl TextFacts {
    fn of(text: &str) -> TextFacts {
        // ASCII lowering keeps every byte where it is (the words are ASCII)
        let lower = text.to_ascii_lowercase();
        let mut entities = Vec::new();
        for &(name, words) in ENTITIES {
            for w in words.iter() {
                for (at, _) in lower.match_indices(w) {
                    let after = at + w.len();
                    let bounded =
                        !lower.get(..at).and_then(|h| h.chars().next_back()).is_some_and(char::is_alphanumeric)
                            && !lower.get(after..).and_then(|t| t.chars().next()).is_some_and(char::is_alphanumeric);
                    if bounded {
                        entities.push((at, after, name));
                    }
                }
            }
        }
        TextFacts { entities, derived: derived(text) }
    }

    /// The entity named nearest to `start..end`.
    fn entity_near(&self, start: usize, end: usize) -> Option<&'static str> {
        let mut best: Option<(usize, &'static str)> = None;
        for &(at, after, name) in &self.entities {
            let distance = if after <= start { start - after } else { at.saturating_sub(end) };
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, name));
            }
        }
        best.map(|(_, n)| n)
    }
}

fn derived(text: &str) -> bool {
    tokens::tokenize(text).iter().any(|t| DERIVED_WORDS.contains(&t.text(text).to_lowercase().as_str()))
}

/// The components of value `v` of `text`.
fn components(
    text: &str,
    facts: &TextFacts,
    index: &PositionIndex,
    v: &Value,
    periods: &[Period],
) -> NumericComponents {
    let period = periods
        .iter()
        .min_by_key(|p| if p.end <= v.start { v.start - p.end } else { p.start.saturating_sub(v.end) })
        .map(|p| p.normalized.clone());
    NumericComponents {
        raw_value: text.get(v.start..v.end).unwrap_or("").to_string(),
        normalized_value: v.low,
        normalized_range: v.range.then_some([v.low, v.high]),
        unit: v.unit.clone(),
        entity: facts.entity_near(v.start, v.end).map(str::to_string),
        time_period: period,
        derivation_type: if facts.derived { "derived" } else { "direct" },
        position: index.span(text, v.start, v.end),
    }
}

/// The spec's value score of claim `c` against evidence `e`.
fn value_score(c: (f64, f64), e: (f64, f64), tolerance: f64) -> f64 {
    let point = |x: f64, y: f64| -> f64 {
        if quantity::same_value(x, y) {
            return 1.0;
        }
        if y == 0.0 || x == 0.0 {
            return 0.0;
        }
        let ratio = x / y;
        if ratio >= 1.0 - tolerance && ratio <= 1.0 + tolerance {
            0.9
        } else if (0.1..=10.0).contains(&ratio) {
            0.5
        } else {
            0.0
        }
    };
    let (c_range, e_range) = (c.0 != c.1, e.0 != e.1);
    match (c_range, e_range) {
        (false, false) => point(c.0, e.0),
        (true, true) => point(c.0, e.0).min(point(c.1, e.1)),
        // one point, one range: inside the range counts as within tolerance
        _ => {
            let (p, (lo, hi)) = if c_range { (e.0, c) } else { (c.0, e) };
            if p >= lo && p <= hi {
                0.9
            } else {
                let near = if p < lo { lo } else { hi };
                point(p, near).min(0.9)
            }
        }
    }
}

/// Compares the first value of `claim` with the best-matching value of
/// `evidence` (the spec's stage 6 without the LLM). `None` when the claim
/// holds no value.
pub fn verify(claim: &str, evidence: &str, config: &NumericConfig) -> Option<NumericResult> {
    let (claim_periods, evidence_periods) = (periods(claim), periods(evidence));
    let claim_values = values(claim, &claim_periods);
    let cv = claim_values.first()?;
    let (ci, ei) = (PositionIndex::new(claim), PositionIndex::new(evidence));
    let claim_c = components(claim, &TextFacts::of(claim), &ci, cv, &claim_periods);
    let evidence_values = values(evidence, &evidence_periods);
    let evidence_facts = TextFacts::of(evidence);
    let tolerance = config.rounding_tolerance;
    let mut best: Option<(f64, usize, NumericComponents, Vec<Mismatch>, f64)> = None;
    for (n, ev) in evidence_values.iter().enumerate() {
        let ec = components(evidence, &evidence_facts, &ei, ev, &evidence_periods);
        let vs = value_score((cv.low, cv.high), (ev.low, ev.high), tolerance);
        let mismatches = mismatches(&claim_c, &ec, &claim_periods, &evidence_periods, cv, ev);
        let score = if mismatches.is_empty() { vs } else { 0.0 };
        // the best score; at equal scores the better value, then the first
        let better = best.as_ref().is_none_or(|(s, _, _, m, v)| {
            score > *s || (score == *s && (mismatches.len() < m.len() || mismatches.len() == m.len() && vs > *v))
        });
        if better {
            best = Some((score, n, ec, mismatches, vs));
        }
    }
    let mut derivation = None;
    if claim_c.derivation_type == "derived" && best.as_ref().is_none_or(|b| b.0 < config.match_threshold) {
        derivation = derive(cv, &claim_c, &evidence_values, evidence, tolerance);
    }
    let (match_score, value_score_, evidence_c, mismatches) = match (best, &derivation) {
        (_, Some(d)) => {
            let vs = value_score((cv.low, cv.high), (d.value, d.value), tolerance);
            (vs, vs, None, Vec::new())
        }
        (Some((score, _, ec, m, vs)), None) => (score, vs, Some(ec), m),
        (None, None) => (0.0, 0.0, None, Vec::new()),
    };
    let verdict = if match_score >= config.match_threshold { Verdict::Supported } else { Verdict::Contradicted };
    Some(NumericResult {
        method: "qa",
        verdict,
        match_score,
        value_score: value_score_,
        claim: claim_c,
        evidence: evidence_c,
        mismatches,
        derivation,
    })
}

fn mismatches(
    c: &NumericComponents,
    e: &NumericComponents,
    cp: &[Period],
    ep: &[Period],
    cv: &Value,
    ev: &Value,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (&c.entity, &e.entity) {
        if a != b {
            out.push(Mismatch { field: "entity", claim: a.clone(), evidence: b.clone() });
        }
    }
    let nearest = |ps: &[Period], v: &Value| -> Option<Period> {
        ps.iter()
            .min_by_key(|p| if p.end <= v.start { v.start - p.end } else { p.start.saturating_sub(v.end) })
            .cloned()
    };
    if let (Some(a), Some(b)) = (nearest(cp, cv), nearest(ep, ev)) {
        if !a.compatible(&b) {
            out.push(Mismatch { field: "time_period", claim: a.normalized, evidence: b.normalized });
        }
    }
    if let (Some(a), Some(b)) = (&c.unit, &e.unit) {
        if a != b {
            out.push(Mismatch { field: "unit", claim: a.clone(), evidence: b.clone() });
        }
    }
    out
}

/// A total or average of the evidence's values in the claim's unit that
/// matches the claim's value.
fn derive(
    cv: &Value,
    claim: &NumericComponents,
    evidence_values: &[Value],
    evidence: &str,
    tolerance: f64,
) -> Option<Derivation> {
    let inputs: Vec<&Value> =
        evidence_values.iter().filter(|v| !v.range && (claim.unit.is_none() || v.unit == claim.unit)).collect();
    if inputs.len() < 2 {
        return None;
    }
    let sum: f64 = inputs.iter().map(|v| v.low).sum();
    let texts = || inputs.iter().map(|v| evidence.get(v.start..v.end).unwrap_or("").to_string()).collect();
    if value_score((cv.low, cv.high), (sum, sum), tolerance) >= 0.9 {
        return Some(Derivation { operation: "sum", inputs: texts(), value: sum });
    }
    let mean = sum / inputs.len() as f64;
    (value_score((cv.low, cv.high), (mean, mean), tolerance) >= 0.9).then(|| Derivation {
        operation: "average",
        inputs: texts(),
        value: mean,
    })
}

/// The fallback when `enable_numeric_qa_verification` is off (Appendix B:
/// "standard text verification"): the claim's numbers compared as written,
/// digit for digit, with no normalization and no entity, unit or period
/// check. SUPPORTED when every digit run of the claim's first value is in
/// the evidence.
pub fn verify_as_text(claim: &str, evidence: &str) -> Option<NumericResult> {
    let claim_periods = periods(claim);
    let cv = values(claim, &claim_periods).into_iter().next()?;
    let ci = PositionIndex::new(claim);
    let claim_c = components(claim, &TextFacts::of(claim), &ci, &cv, &claim_periods);
    let runs = |t: &str| -> Vec<String> {
        quantity::digit_runs(t)
            .into_iter()
            .take(MAX_QUANTITIES)
            .map(|(s, e)| t.get(s..e).unwrap_or("").to_string())
            .collect()
    };
    let raw = claim.get(cv.start..cv.end).unwrap_or("");
    let have = runs(evidence);
    let all = runs(raw).iter().all(|r| have.contains(r));
    let score = if all { 1.0 } else { 0.0 };
    Some(NumericResult {
        method: "text",
        verdict: if all { Verdict::Supported } else { Verdict::Contradicted },
        match_score: score,
        value_score: score,
        claim: claim_c,
        evidence: None,
        mismatches: Vec::new(),
        derivation: None,
    })
}

/// Whether `text` holds a number that is a value (not only a year).
pub fn has_value(text: &str) -> bool {
    !values(text, &periods(text)).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(claim: &str, evidence: &str) -> NumericResult {
        verify(claim, evidence, &NumericConfig::default()).unwrap_or_else(|| panic!("no value in {claim:?}"))
    }

    #[test]
    fn normalization_examples_of_the_issue() {
        // 3.2B = $3,200,000,000
        let r = check("3.2B", "$3,200,000,000");
        assert_eq!((r.verdict, r.match_score), (Verdict::Supported, 1.0), "{r:?}");
        assert_eq!(r.claim.normalized_value, 3.2e9);
        assert_eq!(r.evidence.as_ref().unwrap().normalized_value, 3.2e9);
        assert_eq!(r.evidence.as_ref().unwrap().unit.as_deref(), Some("USD"));
        // "1.5 million" = "1,500,000"
        let r = check("1.5 million", "1,500,000");
        assert_eq!((r.verdict, r.match_score), (Verdict::Supported, 1.0));
        // 15% ≠ 5%: same order of magnitude, below the threshold
        let r = check("Margin was 15%", "Margin was 5%");
        assert_eq!((r.verdict, r.value_score), (Verdict::Contradicted, 0.5));
        assert_eq!(r.claim.normalized_value, 0.15);
        assert_eq!(r.claim.unit.as_deref(), Some("percent"));
        // Q4 2024 ≠ Q4 2023
        let r = check("Revenue was $3.2B in Q4 2024", "Revenue was $3.2 billion in Q4 2023");
        assert_eq!(r.verdict, Verdict::Contradicted);
        assert_eq!(r.value_score, 1.0);
        assert_eq!(
            r.mismatches,
            vec![Mismatch { field: "time_period", claim: "Q4 2024".into(), evidence: "Q4 2023".into() }]
        );
        // "3,2 Mrd." is handled: 3.2 × 10⁹
        let r = check("Revenue was €3.2 billion", "Der Umsatz lag bei 3,2 Mrd. EUR");
        assert_eq!((r.verdict, r.match_score), (Verdict::Supported, 1.0), "{r:?}");
    }

    #[test]
    fn the_spec_test_suite_of_stage_6() {
        // case 1: direct quote
        let r = check("Revenue was $3.2B in Q4 2024", "The company reported Q4 2024 revenues of $3.2 billion");
        assert_eq!(r.verdict, Verdict::Supported);
        assert_eq!(r.claim.entity.as_deref(), Some("revenue"));
        assert_eq!(r.claim.time_period.as_deref(), Some("Q4 2024"));
        // case 2: rounded value within 5 %
        let r = check("About 500 employees work there", "The company employs 498 full-time staff");
        assert_eq!((r.verdict, r.match_score), (Verdict::Supported, 0.9));
        // case 3: wrong entity
        let r = check("Revenue was $3.2B", "Profit was $3.2 billion");
        assert_eq!(r.verdict, Verdict::Contradicted);
        assert_eq!(r.mismatches[0].field, "entity");
        assert_eq!((r.mismatches[0].claim.as_str(), r.mismatches[0].evidence.as_str()), ("revenue", "profit"));
        // case 4: computed sum
        let r = check("Total annual revenue was $10M", "Q1: $2M, Q2: $3M, Q3: $2.5M, Q4: $2.5M");
        assert_eq!(r.verdict, Verdict::Supported, "{r:?}");
        let d = r.derivation.unwrap();
        assert_eq!((d.operation, d.inputs.len(), d.value), ("sum", 4, 10e6));
        // case 5: wrong period
        let r = check("2024 revenue was $5B", "The company reported $5B revenue in fiscal year 2023");
        assert_eq!(r.verdict, Verdict::Contradicted);
        assert_eq!(r.mismatches[0].field, "time_period");
        assert_eq!(r.mismatches[0].evidence, "FY2023");
    }

    #[test]
    fn scores_units_and_ranges() {
        assert_eq!(check("$3.2B", "€3.2B").mismatches[0].field, "unit");
        assert_eq!(check("150 million users", "150 billion users").value_score, 0.0);
        let r = check("between 10% and 15%", "10-15%");
        assert_eq!(r.claim.normalized_range, Some([0.1, 0.15]));
        assert_eq!(r.evidence.as_ref().unwrap().normalized_range, Some([0.1, 0.15]));
        assert_eq!(r.match_score, 1.0);
        assert_eq!(check("12%", "10-15%").match_score, 0.9);
        assert_eq!(check("5,000 employees", "five thousand employees").match_score, 1.0);
        assert!(verify("no numbers here", "12", &NumericConfig::default()).is_none());
        assert!(verify("In 2024 it rained", "12", &NumericConfig::default()).is_none(), "a year is not a value");
    }

    #[test]
    fn offsets_are_exact_in_three_units() {
        let claim = "😀 Umsatz: “€3,2 Mrd.” im Q4 2024";
        let r = check(claim, "3.2 billion euros");
        let p = &r.claim.position;
        assert_eq!(&claim[p.byte_start..p.byte_end], r.claim.raw_value);
        assert_eq!(claim.chars().take(p.start).map(char::len_utf8).sum::<usize>(), p.byte_start);
        assert_eq!(claim[..p.byte_start].encode_utf16().count(), p.utf16_start);
        assert_eq!(r.verdict, Verdict::Supported, "{r:?}");
    }

    #[test]
    fn the_text_fallback_does_not_normalize() {
        assert_eq!(verify_as_text("3.2B", "$3,200,000,000").unwrap().verdict, Verdict::Contradicted);
        assert_eq!(verify_as_text("$3.2B", "3.2 billion").unwrap().verdict, Verdict::Supported);
        // no period check: the fallback misses this
        assert_eq!(verify_as_text("$5B in 2024", "$5B in 2023").unwrap().verdict, Verdict::Supported);
    }

    /// The first version: the whole text searched again for every value.
    fn entity_near_by_searching(text: &str, start: usize, end: usize) -> Option<&'static str> {
        let lower = text.to_ascii_lowercase();
        let mut best: Option<(usize, &'static str)> = None;
        for &(name, words) in ENTITIES {
            for w in words.iter() {
                for (at, _) in lower.match_indices(w) {
                    let after = at + w.len();
                    let bounded = !lower[..at].chars().next_back().is_some_and(char::is_alphanumeric)
                        && !lower[after..].chars().next().is_some_and(char::is_alphanumeric);
                    if !bounded {
                        continue;
                    }
                    let distance = if after <= start { start - after } else { at.saturating_sub(end) };
                    if best.is_none_or(|(d, _)| distance < d) {
                        best = Some((distance, name));
                    }
                }
            }
        }
        best.map(|(_, n)| n)
    }

    #[test]
    fn entities_read_once_per_text_are_the_nearest_as_searched_per_value() {
        let pieces = [
            "Revenue",
            "sales",
            "grew",
            " ",
            "5%",
            "net income",
            "Profit",
            "ebitda",
            "é",
            "中",
            "-",
            "x",
            "costs",
            "cash flow",
            "free cash flow",
            "\n",
            "rose",
            "$3.2B",
            "share price",
            "prices",
        ];
        // a fixed pseudo-random walk over the pieces (xorshift)
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..(state % 30) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
                text.push(if state % 3 == 0 { ' ' } else { ',' });
            }
            let facts = TextFacts::of(&text);
            let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            for (k, &a) in bounds.iter().enumerate() {
                for &b in bounds.iter().skip(k).step_by(3) {
                    assert_eq!(facts.entity_near(a, b), entity_near_by_searching(&text, a, b), "{a}..{b} of {text:?}");
                }
            }
        }
        // the nearest, the first entity at equal distance
        let t = "profit rose 5% while revenue";
        assert_eq!(TextFacts::of(t).entity_near(12, 14), Some("growth"));
        assert_eq!(TextFacts::of("sales 5% revenue").entity_near(6, 8), Some("revenue"));
        assert_eq!(TextFacts::of("salesman 5%").entity_near(9, 11), None);
    }

    #[test]
    fn periods_are_read() {
        let got: Vec<String> = periods("Q4 2024, FY2023, fiscal year 2022, H1 2021, March 2020, in 2019, Q3, FY 24")
            .into_iter()
            .map(|p| p.normalized)
            .collect();
        assert_eq!(got, ["Q4 2024", "FY2023", "FY2022", "H1 2021", "March 2020", "2019", "Q3", "FY2024"]);
    }
}
