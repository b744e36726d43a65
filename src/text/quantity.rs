//! Numbers read by value, so that a quote and a source passage can be
//! compared by what they say rather than how they write it (issue 12):
//! `five` = `5`, `twenty-one` = `21`, `3.2 billion` = `3,200 million` =
//! `3.2bn`, `15%` = `15 percent`, `420 ms` = `420 milliseconds`, `first` =
//! `1st`; and `four` ≠ `nine`, `150 million` ≠ `150 billion`, `420 ms` ≠
//! `420 s`, `3 hours` ≠ `3 days`, `2nd` ≠ `3rd`.
//!
//! A [`Quantity`] is a standalone number (digits or English number words),
//! with an optional scale (`k`, `m`/`mn`, `bn`, `thousand`, `million`, …,
//! multiplied in), percent mark, unit (canonical: `ms`, `s`, `h`, `day`,
//! `gb`, `km`, `usd`, …; a currency sign before the number counts) and
//! ordinal flag. Readings chosen where English is ambiguous:
//! - a scale letter written against the number (`5m`, `3.2bn`) is a scale;
//!   `5 m` (with a space) is metres;
//! - `one` is the number 1 (`one team` ≠ `two teams`); `a` is a number only
//!   before `hundred`, `thousand`, `million`, `billion`, `trillion` or
//!   `dozen`;
//! - `2.3.0`, `i32`, `r14`, `%2F` or `v1.2` are not quantities: digits inside
//!   identifiers and versions are compared as written, through
//!   [`digit_runs`].
//!
//! Callers pass passages, not documents: [`unmatched`] looks at most
//! [`MAX_COMPARED`] quantities a side.

use crate::text::lexicon::{SMALL_NUMBERS as SMALL, SMALL_ORDINALS, TENS, TENS_ORDINALS};
use crate::text::tokens;
use std::borrow::Cow;

/// Most quantities of a side that [`unmatched`] compares; the rest count as
/// unmatched (refused, never accepted).
pub const MAX_COMPARED: usize = 256;

/// A number found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    /// Its value, scale applied.
    pub value: f64,
    /// Its value exactly, as written (`None` past 38 significant digits):
    /// what [`Quantity::equals`] compares, where `value` would hold
    /// `4150509954` and `4150509955`, or two 17-digit ids, equal.
    pub exact: Option<Decimal>,
    /// The digits written after its decimal point, for a number of digits
    /// without a scale (`3.10`: 2; `3.1`: 1; `3`, `3.2bn`, `five`: none):
    /// `Python 3.10` is not `Python 3.1`, and the source's `2.50` is not
    /// quoted as `2.5`.
    pub decimals: Option<usize>,
    /// A percentage.
    pub percent: bool,
    /// Canonical unit, if one follows (or a currency sign precedes).
    pub unit: Option<&'static str>,
    /// An ordinal (`first`, `2nd`).
    pub ordinal: bool,
    /// Written in words (`five`), not digits.
    pub words: bool,
    /// Byte range in the text.
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// The text it was read from.
    pub text: String,
}

impl Quantity {
    /// Same value, written precision, kind and unit. The value is compared exactly when both
    /// were read exactly (every number of digits and every number in words
    /// of up to 38 significant digits), else as `f64` up to the rounding of
    /// reading them ([`same_value`]).
    pub fn equals(&self, other: &Quantity) -> bool {
        let same = match (self.exact, other.exact) {
            (Some(a), Some(b)) => a == b,
            _ => same_value(self.value, other.value),
        };
        same && self.decimals == other.decimals
            && self.percent == other.percent
            && self.unit == other.unit
            && self.ordinal == other.ordinal
    }
}

/// Equal up to the rounding of reading them: a few units in the last
/// place of an `f64` (`3.2 billion` read as 3.2 × 10⁹ and `3,200 million`
/// as 3200 × 10⁶), far below the smallest difference between two numbers
/// of 15 significant digits (one in 10¹⁵). Whole numbers are compared
/// exactly. (A relative tolerance of 10⁻⁹ held `4150509954` and
/// `4150509955` equal.)
pub fn same_value(a: f64, b: f64) -> bool {
    if a == b {
        return true;
    }
    if a.fract() == 0.0 && b.fract() == 0.0 {
        return false;
    }
    (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs())
}

/// A number's exact value: ± `mantissa` × 10^`exp`, the mantissa without
/// trailing zeros (zero is +0 × 10⁰), so that a value has one key however
/// it is written (`1,000` = `1000.0` = `1k` = `one thousand`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    negative: bool,
    mantissa: u128,
    exp: i32,
}

impl Decimal {
    /// Most significant digits a [`Decimal`] holds (a `u128` holds 38).
    const MAX_DIGITS: usize = 38;

    /// `digits`: ASCII digits with at most one `.` (no sign, no
    /// separators); `None` for anything else or past [`Self::MAX_DIGITS`]
    /// significant digits.
    fn parse(digits: &str) -> Option<Decimal> {
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let all = format!("{int}{frac}");
        let significant = all.trim_start_matches('0');
        if significant.len() > Self::MAX_DIGITS {
            return None;
        }
        let mantissa = if significant.is_empty() { 0 } else { significant.parse().ok()? };
        let exp = -i32::try_from(frac.len()).ok()?;
        Some(Decimal { negative: false, mantissa, exp }.normalized())
    }

    /// A whole number (a number in words); `None` for one that is not
    /// whole or not below 2⁵³ (where `f64` holds every whole number).
    fn whole(value: f64) -> Option<Decimal> {
        const EXACT: f64 = 9_007_199_254_740_992.0;
        if value.fract() != 0.0 || value.abs() >= EXACT {
            return None;
        }
        // whole and below 2^53: the cast is exact
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mantissa = value.abs() as u128;
        Some(Decimal { negative: value < 0.0, mantissa, exp: 0 }.normalized())
    }

    /// Multiplied by `mult`, a power of ten (every scale word and letter);
    /// `None` for any other multiplier.
    fn scaled(self, mult: f64) -> Option<Decimal> {
        let power = (0..=15).find(|&p| 10f64.powi(p) == mult)?;
        Some(Decimal { exp: self.exp.checked_add(power)?, ..self }.normalized())
    }

    fn negated(self) -> Decimal {
        Decimal { negative: !self.negative, ..self }.normalized()
    }

    /// Trailing zeros moved into the exponent; zero made +0 × 10⁰.
    fn normalized(mut self) -> Decimal {
        if self.mantissa == 0 {
            return Decimal { negative: false, mantissa: 0, exp: 0 };
        }
        while self.mantissa % 10 == 0 {
            self.mantissa /= 10;
            self.exp = self.exp.saturating_add(1);
        }
        self
    }
}

/// Scale words and letters (`bn`), with their multipliers.
const SCALE_WORDS: &[(&str, f64)] = &[
    ("thousand", 1e3),
    ("million", 1e6),
    ("billion", 1e9),
    ("trillion", 1e12),
    ("lakh", 1e5),
    ("crore", 1e7),
    ("mn", 1e6),
    ("mln", 1e6),
    ("bn", 1e9),
    ("bln", 1e9),
    ("tn", 1e12),
];
/// Scale letters, only written against the number (`5k`, `3.2b`).
const SCALE_LETTERS: &[(&str, f64)] = &[("k", 1e3), ("m", 1e6), ("b", 1e9), ("t", 1e12)];

/// Unit spellings and their canonical names.
const UNITS: &[(&str, &str)] = &[
    ("ns", "ns"),
    ("nanosecond", "ns"),
    ("nanoseconds", "ns"),
    ("us", "us"),
    ("µs", "us"),
    ("μs", "us"),
    ("microsecond", "us"),
    ("microseconds", "us"),
    ("ms", "ms"),
    ("msec", "ms"),
    ("msecs", "ms"),
    ("millisecond", "ms"),
    ("milliseconds", "ms"),
    ("s", "s"),
    ("sec", "s"),
    ("secs", "s"),
    ("second", "s"),
    ("seconds", "s"),
    ("min", "min"),
    ("mins", "min"),
    ("minute", "min"),
    ("minutes", "min"),
    ("h", "h"),
    ("hr", "h"),
    ("hrs", "h"),
    ("hour", "h"),
    ("hours", "h"),
    ("day", "day"),
    ("days", "day"),
    ("week", "week"),
    ("weeks", "week"),
    ("wk", "week"),
    ("wks", "week"),
    ("month", "month"),
    ("months", "month"),
    ("year", "year"),
    ("years", "year"),
    ("yr", "year"),
    ("yrs", "year"),
    ("decade", "decade"),
    ("decades", "decade"),
    ("century", "century"),
    ("centuries", "century"),
    ("bit", "bit"),
    ("bits", "bit"),
    ("byte", "byte"),
    ("bytes", "byte"),
    ("kb", "kb"),
    ("mb", "mb"),
    ("gb", "gb"),
    ("tb", "tb"),
    ("pb", "pb"),
    ("kib", "kib"),
    ("mib", "mib"),
    ("gib", "gib"),
    ("tib", "tib"),
    ("kbps", "kbps"),
    ("mbps", "mbps"),
    ("gbps", "gbps"),
    ("hz", "hz"),
    ("khz", "khz"),
    ("mhz", "mhz"),
    ("ghz", "ghz"),
    ("mm", "mm"),
    ("cm", "cm"),
    ("m", "m"),
    ("km", "km"),
    ("meter", "m"),
    ("meters", "m"),
    ("metre", "m"),
    ("metres", "m"),
    ("kilometer", "km"),
    ("kilometers", "km"),
    ("kilometre", "km"),
    ("kilometres", "km"),
    ("mi", "mi"),
    ("mile", "mi"),
    ("miles", "mi"),
    ("ft", "ft"),
    ("foot", "ft"),
    ("feet", "ft"),
    ("inch", "in"),
    ("inches", "in"),
    ("mg", "mg"),
    ("g", "g"),
    ("gram", "g"),
    ("grams", "g"),
    ("kg", "kg"),
    ("kilogram", "kg"),
    ("kilograms", "kg"),
    ("lb", "lb"),
    ("lbs", "lb"),
    ("pound", "lb"),
    ("pounds", "lb"),
    ("oz", "oz"),
    ("ton", "t"),
    ("tons", "t"),
    ("tonne", "t"),
    ("tonnes", "t"),
    ("ml", "ml"),
    ("l", "l"),
    ("liter", "l"),
    ("liters", "l"),
    ("litre", "l"),
    ("litres", "l"),
    ("kw", "kw"),
    ("mw", "mw"),
    ("gw", "gw"),
    ("kwh", "kwh"),
    ("mwh", "mwh"),
    ("w", "w"),
    ("watt", "w"),
    ("watts", "w"),
    ("v", "v"),
    ("volt", "v"),
    ("volts", "v"),
    ("px", "px"),
    ("pt", "pt"),
    ("dpi", "dpi"),
    ("fps", "fps"),
    ("rpm", "rpm"),
    ("usd", "usd"),
    ("dollar", "usd"),
    ("dollars", "usd"),
    ("eur", "eur"),
    ("euro", "eur"),
    ("euros", "eur"),
    ("gbp", "gbp"),
    ("jpy", "jpy"),
    ("yen", "jpy"),
    ("cents", "cent"),
    ("cent", "cent"),
    ("times", "x"),
    ("x", "x"),
    ("fold", "x"),
    ("points", "point"),
    ("point", "point"),
    ("degrees", "degree"),
    ("degree", "degree"),
    ("°c", "°c"),
    ("°f", "°f"),
];

/// What [`quantities_read`] reads beyond the default reading (the
/// meaning guard's, which [`quantities`] keeps unchanged).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// A comma followed by other than three digits is a decimal comma
    /// (`3,2` = 3.2, `12,75` = 12.75); `1,500` stays fifteen hundred.
    pub decimal_comma: bool,
    /// Money as finance writes it: a currency code before the number
    /// (`USD 3.2bn`, `EUR 5`), `₹` and `CHF`, and the German scale
    /// abbreviations `Mrd.` (10⁹), `Mio.` (10⁶) and `Tsd.` (10³).
    pub finance: bool,
}

impl Reading {
    /// Both extensions: the citation pipeline's numeric verification
    /// (spec 004 stage 6).
    pub const FINANCE: Reading = Reading { decimal_comma: true, finance: true };
}

/// Currency codes read before a number under [`Reading::finance`].
const CURRENCY_CODES: &[(&str, &str)] =
    &[("usd", "usd"), ("eur", "eur"), ("gbp", "gbp"), ("jpy", "jpy"), ("chf", "chf"), ("inr", "inr")];
/// Scale abbreviations read under [`Reading::finance`].
const FINANCE_SCALES: &[(&str, f64)] = &[("mrd", 1e9), ("mio", 1e6), ("tsd", 1e3)];

/// Every quantity in `text`, in order (the default reading).
pub fn quantities(text: &str) -> Vec<Quantity> {
    quantities_read(text, Reading::default())
}

/// Every quantity in `text`, in order, read with `reading`'s extensions.
pub fn quantities_read(text: &str, reading: Reading) -> Vec<Quantity> {
    read(&Words::new(text, reading))
}

/// The quantities of `words`' text, in order.
fn read(words: &Words) -> Vec<Quantity> {
    let text = words.text;
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.toks.len() {
        let Some(&(start, end)) = words.toks.get(k) else {
            break;
        };
        let Some(mut r) = words.number_at(k, end) else {
            k += 1;
            continue;
        };
        words.scale_after(&mut r);
        words.percent_after(&mut r);
        words.unit_after(&mut r);
        let q_start = words.sign_before(&mut r, k, start);
        out.push(Quantity {
            value: r.number.value,
            exact: r.number.exact,
            decimals: r.number.decimals,
            percent: r.percent,
            unit: r.number.unit,
            ordinal: r.number.ordinal,
            words: r.words,
            start: q_start,
            end: r.end,
            text: text.get(q_start..r.end).unwrap_or("").to_string(),
        });
        k = r.next.max(k + 1);
    }
    out
}

/// The word tokens of a text (byte ranges) and the same lowercased, and
/// how they are read.
struct Words<'t> {
    text: &'t str,
    toks: Vec<(usize, usize)>,
    lower: Vec<Cow<'t, str>>,
    reading: Reading,
}

/// A quantity being read: what it says so far, where it ends, and the
/// token after it.
struct Found {
    number: Number,
    percent: bool,
    /// Spelled out in words.
    words: bool,
    next: usize,
    end: usize,
}

impl<'t> Words<'t> {
    fn new(text: &'t str, reading: Reading) -> Words<'t> {
        let toks: Vec<(usize, usize)> =
            tokens::tokenize(text).iter().map(|t| (t.start as usize, t.end as usize)).collect();
        let lower = toks.iter().map(|&(s, e)| lowercase(text.get(s..e).unwrap_or(""))).collect();
        Words { text, toks, lower, reading }
    }

    fn word(&self, k: usize) -> Option<&str> {
        self.lower.get(k).map(|w| &**w)
    }

    /// Whether only spaces (or a hyphen) lie between byte `from` and token `k`.
    fn gap_to(&self, from: usize, k: usize) -> bool {
        gap_is_space(self.text, from, self.toks.get(k).map_or(from, |t| t.0))
    }

    /// The end of token `k`, or `or` when there is none.
    fn end_of(&self, k: usize, or: usize) -> usize {
        self.toks.get(k).map_or(or, |t| t.1)
    }

    /// The number that starts at token `k` (which ends at `end`): digits,
    /// or number words.
    fn number_at(&self, k: usize, end: usize) -> Option<Found> {
        let w = self.word(k).unwrap_or_default();
        let (number, next, words) = if w.as_bytes().first().is_some_and(u8::is_ascii_digit) {
            (digits_token(w, self.reading.decimal_comma)?, k + 1, false)
        } else if may_start_number(w) {
            let (value, ordinal, next) = number_words(self.text, &self.toks, &self.lower, k)?;
            (Number { ordinal, ..Number::new(value, Decimal::whole(value), None) }, next, true)
        } else {
            return None;
        };
        let end = self.end_of(next - 1, end);
        Some(Found { number, percent: false, words, next, end })
    }

    /// The multiplier of scale word `w`: `billion`, and under
    /// [`Reading::finance`] `Mrd.`, `Mio.`, `Tsd.`.
    fn scale(&self, w: &str) -> Option<f64> {
        scale_of(w).or_else(|| {
            self.reading.finance.then(|| FINANCE_SCALES.iter().find(|(s, _)| *s == w).map(|&(_, m)| m)).flatten()
        })
    }

    /// A scale word after it (`3.2 billion`).
    fn scale_after(&self, r: &mut Found) {
        if r.number.scaled || r.number.ordinal {
            return;
        }
        if let Some(mult) = self.word(r.next).and_then(|w| self.scale(w)) {
            if self.gap_to(r.end, r.next) {
                r.number = r.number.scaled_by(mult);
                r.end = self.end_of(r.next, r.end);
                r.next += 1;
            }
        }
    }

    /// A percent mark right after it, or the word (`percent`, `pct`, `per cent`).
    fn percent_after(&self, r: &mut Found) {
        let after = self.text.get(r.end..).unwrap_or("");
        let trimmed = after.trim_start_matches([' ', '\u{a0}']);
        if trimmed.starts_with('%') {
            r.percent = true;
            r.end = self.text.len() - trimmed.len() + 1;
            while self.toks.get(r.next).is_some_and(|t| t.0 < r.end) {
                r.next += 1;
            }
        } else if let Some(w) = self.word(r.next) {
            if (w == "percent" || w == "pct") && self.gap_to(r.end, r.next) {
                r.percent = true;
                r.end = self.end_of(r.next, r.end);
                r.next += 1;
            } else if w == "per" && self.word(r.next + 1) == Some("cent") {
                r.percent = true;
                r.end = self.end_of(r.next + 1, r.end);
                r.next += 2;
            }
        }
    }

    /// A unit word after it (`420 ms`, `5 °C`).
    fn unit_after(&self, r: &mut Found) {
        if r.number.unit.is_some() || r.percent || r.number.ordinal {
            return;
        }
        let Some(w) = self.word(r.next) else {
            return;
        };
        let degrees = self.text.get(r.end..).unwrap_or("").trim_start().starts_with('°');
        let key = if degrees { format!("°{w}") } else { w.to_string() };
        if let Some(u) = unit_of(&key) {
            if self.gap_to(r.end, r.next) || degrees {
                r.number.unit = Some(u);
                r.end = self.end_of(r.next, r.end);
                r.next += 1;
            }
        }
    }

    /// A currency sign (or, under [`Reading::finance`], a currency code)
    /// or a minus sign before it (token `k`, at byte `start`): where the
    /// quantity starts.
    fn sign_before(&self, r: &mut Found, k: usize, start: usize) -> usize {
        let text = self.text;
        let before = text.get(..start).and_then(|h| h.chars().next_back());
        let mut q_start = start;
        if r.number.unit.is_none() {
            let sign = match before {
                Some('$') => Some("usd"),
                Some('€') => Some("eur"),
                Some('£') => Some("gbp"),
                Some('¥') => Some("jpy"),
                Some('₹') if self.reading.finance => Some("inr"),
                _ => None,
            };
            if let (Some(s), Some(c)) = (sign, before) {
                r.number.unit = Some(s);
                q_start = start - c.len_utf8();
            } else if self.reading.finance && k > 0 {
                let code = self.word(k - 1).and_then(|w| CURRENCY_CODES.iter().find(|(c, _)| *c == w));
                let prev = self.toks.get(k - 1).copied().unwrap_or((start, start));
                if let Some(&(_, u)) = code.filter(|_| gap_is_space(text, prev.1, start)) {
                    r.number.unit = Some(u);
                    q_start = prev.0;
                }
            }
        }
        // a minus sign right before a digit (not a hyphen inside a word)
        if before == Some('-') && !r.words {
            let before2 = text.get(..start.saturating_sub(1)).and_then(|h| h.chars().next_back());
            if !before2.is_some_and(char::is_alphanumeric) {
                r.number.value = -r.number.value;
                r.number.exact = r.number.exact.map(Decimal::negated);
                q_start = start - 1;
            }
        }
        q_start
    }
}

/// `word.to_lowercase()`, borrowed when that changes nothing: an ASCII
/// word without capitals (most words; no allocation a token).
fn lowercase(word: &str) -> Cow<'_, str> {
    if word.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(word.to_lowercase())
    }
}

/// Whether only spaces (or a hyphen: `5-minute`) lie between two tokens.
fn gap_is_space(text: &str, from: usize, to: usize) -> bool {
    text.get(from..to).is_some_and(|g| g.len() <= 3 && g.chars().all(|c| c == ' ' || c == '\u{a0}' || c == '-'))
}

fn scale_of(w: &str) -> Option<f64> {
    let singular = w.strip_suffix('s').filter(|s| s.len() > 3).unwrap_or(w);
    SCALE_WORDS.iter().find(|(s, _)| *s == singular || *s == w).map(|&(_, m)| m)
}

fn unit_of(w: &str) -> Option<&'static str> {
    UNITS.iter().find(|(s, _)| *s == w).map(|&(_, u)| u)
}

/// A token starting with a digit: a number (`1,000`, `2.5`), maybe with a
/// scale letter, unit or ordinal suffix against it (`5k`, `420ms`, `21st`).
/// `None` for identifiers and versions (`2.3.0`, `3d6`).
fn digits_token(w: &str, decimal_comma: bool) -> Option<Number> {
    let b = w.as_bytes();
    let n = b.iter().take_while(|c| c.is_ascii_digit() || **c == b',' || **c == b'.').count();
    let numeric = w.get(..n)?;
    if numeric.matches('.').count() > 1 {
        return None;
    }
    // thousands separators: groups of three after the first
    let mut digits = String::new();
    let mut parts = numeric.split('.');
    let int = parts.next().unwrap_or("");
    let groups: Vec<&str> = int.split(',').collect();
    let comma_decimal = decimal_comma && !numeric.contains('.') && groups.len() == 2;
    if let (true, [whole, frac]) = (comma_decimal, groups.as_slice()) {
        if frac.len() != 3 && !whole.is_empty() && !frac.is_empty() {
            let digits = format!("{whole}.{frac}");
            let value: f64 = digits.parse().ok()?;
            return digits_suffix(w.get(n..).unwrap_or(""), value, Decimal::parse(&digits), Some(frac.len()));
        }
    }
    if groups.len() > 1
        && !(groups.first().is_some_and(|g| (1..=3).contains(&g.len())) && groups.iter().skip(1).all(|g| g.len() == 3))
    {
        return None;
    }
    digits.push_str(&groups.concat());
    if let Some(frac) = parts.next() {
        digits.push('.');
        digits.push_str(frac);
    }
    let value: f64 = digits.parse().ok()?;
    let decimals = digits.split_once('.').map(|(_, frac)| frac.len());
    digits_suffix(w.get(n..).unwrap_or(""), value, Decimal::parse(&digits), decimals)
}

/// A number as read so far (digits or words, a scale, a unit): what a
/// [`Quantity`] says, before its percent mark and where it is.
#[derive(Clone, Copy)]
struct Number {
    value: f64,
    exact: Option<Decimal>,
    /// Digits after the decimal point, unscaled ([`Quantity::decimals`]).
    decimals: Option<usize>,
    unit: Option<&'static str>,
    ordinal: bool,
    /// A scale letter or word is in it (`5k`, `3 million`).
    scaled: bool,
}

impl Number {
    fn new(value: f64, exact: Option<Decimal>, decimals: Option<usize>) -> Number {
        Number { value, exact, decimals, unit: None, ordinal: false, scaled: false }
    }

    /// Multiplied by the scale `mult` (the written decimals no longer count).
    fn scaled_by(self, mult: f64) -> Number {
        let exact = self.exact.and_then(|d| d.scaled(mult));
        Number { value: self.value * mult, exact, decimals: None, scaled: true, ..self }
    }
}

/// What follows a number's digits in its token: nothing, an ordinal
/// suffix, a scale letter or a unit.
fn digits_suffix(rest: &str, value: f64, exact: Option<Decimal>, decimals: Option<usize>) -> Option<Number> {
    let read = Number::new(value, exact, decimals);
    if rest.is_empty() {
        return Some(read);
    }
    // a digit after letters: an identifier (3d6, 4k2)
    if rest.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    if matches!(rest, "st" | "nd" | "rd" | "th") {
        return Some(Number { ordinal: true, ..read });
    }
    if let Some(&(_, mult)) = SCALE_LETTERS.iter().chain(SCALE_WORDS).find(|(s, _)| *s == rest) {
        return Some(read.scaled_by(mult));
    }
    unit_of(rest).map(|u| Number { unit: Some(u), ..read })
}

/// English number words from token `k`: `five`, `twenty-one`, `a hundred`,
/// `one hundred and five`, `two thousand`, `a dozen`, `twenty-first`.
/// Returns (value, ordinal, next token).
/// The words a number in words can start with ([`number_words`]: `a` or
/// `an` before a scale, `dozen`, and the number and ordinal words).
const NUMBER_STARTS: [&[&str]; 5] = [&["a", "an", "dozen"], &SMALL, &TENS, &SMALL_ORDINALS, &TENS_ORDINALS];

/// The first bytes of [`NUMBER_STARTS`] (a table by byte) and the length of
/// the longest, worked out at compile time.
// indexing: evaluated by the compiler, where an index out of bounds is a
// build error; `list` and `i` stay below the lengths they loop to, and a
// byte is below 256
#[allow(clippy::indexing_slicing)]
const STARTS: ([bool; 256], usize) = {
    let mut first = [false; 256];
    let mut longest = 0;
    let mut list = 0;
    while list < NUMBER_STARTS.len() {
        let words = NUMBER_STARTS[list];
        let mut i = 0;
        while i < words.len() {
            let w = words[i].as_bytes();
            if let Some(&b) = w.first() {
                first[b as usize] = true;
            }
            if w.len() > longest {
                longest = w.len();
            }
            i += 1;
        }
        list += 1;
    }
    (first, longest)
};

/// Whether lowercase `w` can be the first word of a number in words: a
/// test of its first byte and length, so that most words are not compared
/// with each number word in turn. Lossless: every word of
/// [`NUMBER_STARTS`] passes, and [`number_words`] reads no number from a
/// first word outside them.
fn may_start_number(w: &str) -> bool {
    let (first, longest) = &STARTS;
    w.len() <= *longest && w.as_bytes().first().is_some_and(|&b| first.get(usize::from(b)) == Some(&true))
}

fn number_words(text: &str, toks: &[(usize, usize)], lower: &[Cow<str>], k: usize) -> Option<(f64, bool, usize)> {
    let word = |i: usize| lower.get(i).map(|w| &**w);
    let joined = |i: usize| match (toks.get(i), toks.get(i + 1)) {
        (Some(a), Some(b)) => gap_is_space(text, a.1, b.0),
        _ => false,
    };
    let first = word(k)?;
    let mut i = k;
    let mut total = 0.0;
    let mut current = 0.0;
    let mut any = false;
    if first == "a" || first == "an" {
        let next = word(k + 1)?;
        if !matches!(next, "hundred" | "thousand" | "million" | "billion" | "trillion" | "dozen") || !joined(k) {
            return None;
        }
        current = 1.0;
        any = true;
        i += 1;
    }
    let mut ordinal = false;
    while let Some(w) = word(i) {
        if any && i > k && !joined(i - 1) {
            break;
        }
        if let Some(v) = SMALL.iter().position(|s| *s == w) {
            current += v as f64;
        } else if let Some(v) = TENS.iter().position(|s| *s == w) {
            current += 20.0 + 10.0 * v as f64;
        } else if let Some(v) = SMALL_ORDINALS.iter().position(|s| *s == w) {
            current += v as f64;
            ordinal = true;
            i += 1;
            any = true;
            break;
        } else if let Some(v) = TENS_ORDINALS.iter().position(|s| *s == w) {
            current += 20.0 + 10.0 * v as f64;
            ordinal = true;
            i += 1;
            any = true;
            break;
        } else if w == "hundred" && any {
            current *= 100.0;
        } else if w == "dozen" && any {
            current *= 12.0;
        } else if w == "dozen" {
            current = 12.0;
        } else if let Some(mult) = scale_of(w).filter(|_| any) {
            total += current * mult;
            current = 0.0;
        } else if w == "and" && any && word(i + 1).is_some_and(|n| SMALL.contains(&n) || TENS.contains(&n)) {
            // "one hundred and five"
        } else {
            break;
        }
        any = true;
        i += 1;
    }
    if !any || i == k {
        return None;
    }
    Some((total + current, ordinal, i))
}

/// Every maximal run of ASCII digits in `text`, as byte ranges: the digits
/// of identifiers, versions and URLs, compared as written.
pub fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            let s = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Quantities of `quote` with no equal one in `source`, and of `source`
/// with none in `quote` (indices), matched one to one. Past
/// [`MAX_COMPARED`] a side's quantities all count as unmatched.
pub fn unmatched(quote: &[Quantity], source: &[Quantity]) -> (Vec<usize>, Vec<usize>) {
    if quote.len() > MAX_COMPARED || source.len() > MAX_COMPARED {
        return ((0..quote.len()).collect(), (0..source.len()).collect());
    }
    let mut used = vec![false; source.len()];
    let mut missing = Vec::new();
    for (i, q) in quote.iter().enumerate() {
        let hit = source.iter().enumerate().position(|(j, s)| !used.get(j).copied().unwrap_or(true) && q.equals(s));
        match hit.and_then(|j| used.get_mut(j)) {
            Some(u) => *u = true,
            None => missing.push(i),
        }
    }
    let extra = used.iter().enumerate().filter(|(_, u)| !**u).map(|(j, _)| j).collect();
    (missing, extra)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lowercase` against `str::to_lowercase`, the path it replaces, on
    /// every ASCII byte, number and unit words in any case, and random
    /// words of letters, digits, accented and Greek capitals (final sigma),
    /// the Kelvin sign, dotted `İ`, CJK and emoji; and whole readings of
    /// random texts of such words against quantities read with the
    /// lowercased tokens as owned strings (`reference`).
    #[test]
    fn lowercase_is_to_lowercase() {
        for b in 0u8..128 {
            let w = char::from(b).to_string();
            assert_eq!(lowercase(&w), w.to_lowercase());
        }
        const PIECES: &[&str] = &[
            "a",
            "A",
            "five",
            "Five",
            "FIVE",
            "million",
            "MILLION",
            "Bn",
            "ms",
            "MS",
            "percent",
            "%",
            "1",
            "42",
            "3.2",
            "1,000",
            "k",
            "K",
            "\u{212a}",
            "\u{130}",
            "\u{3a3}",
            "\u{3c3}",
            "\u{c9}",
            "\u{e9}",
            "\u{4e2d}",
            "\u{1f600}",
            "-",
            " ",
            "  ",
            "twenty",
            "First",
            "21st",
            "$",
            "\u{20ac}",
            "\u{b0}",
            "C",
            "per",
            "cent",
            "and",
            "hundred",
            "dozen",
            "\u{a0}",
            ".",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x10_3e5);
        for case in 0..5_000 {
            let n = rng.below(if case % 10 == 0 { 40 } else { 8 });
            let mut text = String::new();
            for _ in 0..n {
                text.push_str(PIECES[rng.below(PIECES.len())]);
                if rng.below(3) > 0 {
                    text.push(' ');
                }
            }
            for t in tokens::tokenize(&text) {
                let w = t.text(&text);
                assert_eq!(lowercase(w), w.to_lowercase(), "{w:?}");
            }
            for reading in [Reading::default(), Reading::FINANCE] {
                assert_eq!(quantities_read(&text, reading), reference(&text, reading), "{text:?}");
            }
        }
    }

    /// Every word a number in words starts with passes `may_start_number`,
    /// and of random texts' tokens, none that it turns away is read as a
    /// number by `number_words`.
    #[test]
    fn number_starts_filter_nothing_number_words_reads() {
        for words in NUMBER_STARTS {
            for w in words {
                assert!(may_start_number(w), "{w}");
            }
        }
        const PIECES: &[&str] = &[
            "a",
            "an",
            "five",
            "Twenty",
            "hundred",
            "dozen",
            "and",
            "million",
            "first",
            "twenty-first",
            "the",
            "one",
            "zero",
            "nineteenth",
            "x",
            "fifty",
            "ninety-nine",
            "",
            "é",
            "中",
            "sixteenths",
            "bn",
            "per",
            "cent",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x5_7a75);
        for _ in 0..5_000 {
            let n = rng.below(10);
            let text: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect::<Vec<_>>().join(" ");
            let words = Words::new(&text, Reading::default());
            for k in 0..words.toks.len() {
                let w = words.word(k).unwrap_or_default();
                if !may_start_number(w) {
                    assert_eq!(number_words(&text, &words.toks, &words.lower, k), None, "{w:?} in {text:?}");
                }
            }
        }
    }

    /// `quantities_read` with every token lowercased by `to_lowercase`
    /// into an owned string (the former construction of `Words`).
    fn reference(text: &str, reading: Reading) -> Vec<Quantity> {
        let mut words = Words::new(text, reading);
        words.lower = words.toks.iter().map(|&(s, e)| Cow::Owned(text[s..e].to_lowercase())).collect();
        read(&words)
    }

    fn same(a: &str, b: &str) -> bool {
        let (qa, qb) = (quantities(a), quantities(b));
        let (m, e) = unmatched(&qa, &qb);
        !qa.is_empty() && m.is_empty() && e.is_empty()
    }

    #[test]
    fn equal_by_value() {
        for (a, b) in [
            ("five", "5"),
            ("twenty-one", "21"),
            ("twenty one", "21"),
            ("3.2 billion", "3,200 million"),
            ("3.2bn", "3200000000"),
            ("1,000", "1000"),
            ("15%", "15 percent"),
            ("fifteen percent", "15 %"),
            ("420 ms", "420 milliseconds"),
            ("420ms", "420 ms"),
            ("first", "1st"),
            ("twenty-first", "21st"),
            ("a dozen", "12"),
            ("a hundred", "100"),
            ("one hundred and five", "105"),
            ("two thousand", "2,000"),
            ("$5", "5 dollars"),
            ("3 hours", "three hours"),
        ] {
            assert!(same(a, b), "{a:?} = {b:?}: {:?} vs {:?}", quantities(a), quantities(b));
        }
    }

    #[test]
    fn different_values() {
        for (a, b) in [
            ("four teams", "nine teams"),
            ("Three were hurt", "13 were hurt"),
            ("150 million", "150 billion"),
            ("420 ms", "420 s"),
            ("3 hours", "3 days"),
            ("15", "150"),
            ("2nd", "3rd"),
            ("5%", "15%"),
            ("15%", "15"),
            ("second place", "third place"),
            ("-5 degrees", "5 degrees"),
            // the last of many digits: no tolerance lets them through
            ("4150509954", "4150509955"),
            ("4,150,509,954", "4150509955"),
            ("5068609911521279", "5068609911521280"),
            ("50686099115212791", "50686099115212792"),
            ("12345678901234567890123", "12345678901234567890124"),
            ("0.1234567891", "0.1234567892"),
            ("3.2000000001 billion", "3.2 billion"),
            ("1.000000000001", "1"),
            ("41505099.54", "41505099.55"),
            // the digits written after the point: a version, a precision
            ("Python 3.10", "Python 3.1"),
            ("2.50%", "2.5%"),
            ("5", "5.0"),
        ] {
            assert!(!same(a, b), "{a:?} != {b:?}");
        }
    }

    /// Every number of up to 17 digits against the same with one digit
    /// changed (random): never equal; against itself with a trailing `.0`
    /// (another written precision): never equal; and against itself written
    /// with separators, a scale word or letter: always equal.
    #[test]
    fn a_changed_digit_is_never_equal_and_a_rewriting_always_is() {
        let mut next = crate::test_rng::below(0x5eed_0027);
        for _ in 0..20_000 {
            let len = 1 + next(17);
            let mut digits: Vec<u8> = (0..len).map(|_| b'0' + next(10) as u8).collect();
            if digits[0] == b'0' {
                digits[0] = b'1' + next(9) as u8;
            }
            let n = String::from_utf8(digits.clone()).unwrap_or_default();
            let mut changed = digits.clone();
            let at = next(len);
            changed[at] = b'0' + ((changed[at] - b'0' + 1 + next(9) as u8) % 10);
            if changed[0] == b'0' {
                changed[0] = b'1';
            }
            let changed = String::from_utf8(changed).unwrap_or_default();
            if changed != n {
                assert!(!same(&n, &changed), "{n} = {changed}");
            }
            let mut grouped = String::new();
            for (i, c) in n.chars().enumerate() {
                if i > 0 && (len - i) % 3 == 0 {
                    grouped.push(',');
                }
                grouped.push(c);
            }
            assert!(same(&n, &grouped), "{n} != {grouped}");
            assert!(!same(&n, &format!("{n}.0")), "{n} = {n}.0 (written precision)");
            assert!(same(&format!("{n}.50"), &format!("{grouped}.50")), "{n}.50 != {grouped}.50");
            if len > 6 && n.ends_with("000000") {
                let millions = &n[..len - 6];
                assert!(same(&n, &format!("{millions} million")), "{n} != {millions} million");
            }
            if len > 3 {
                let (whole, frac) = n.split_at(len - 3);
                let thousands = format!("{whole}.{}k", frac.trim_end_matches('0'));
                let thousands = thousands.replace(".k", "k");
                assert!(same(&n, &thousands), "{n} != {thousands}");
            }
        }
    }

    #[test]
    fn identifiers_are_not_quantities() {
        for t in ["2.3.0", "i32", "r14", "%2F", "v1.2", "3d6"] {
            let q = quantities(t);
            assert!(q.iter().all(|q| q.text != t), "{t}: {q:?}");
        }
        assert_eq!(digit_runs("v2.3.10 %2F"), vec![(1, 2), (3, 4), (5, 7), (9, 10)]);
        assert!(quantities("a system").is_empty());
    }

    #[test]
    fn ranges_slice_the_text_around_emoji_cjk_and_crlf() {
        let text = "😀 “five” 日本 420 ms\r\n— $3.2bn, 15 %, twenty-one";
        let qs = quantities(text);
        assert_eq!(qs.len(), 5, "{qs:?}");
        for q in &qs {
            assert_eq!(text.get(q.start..q.end), Some(q.text.as_str()));
        }
        assert_eq!(
            qs.iter().map(|q| q.text.as_str()).collect::<Vec<_>>(),
            ["five", "420 ms", "$3.2bn", "15 %", "twenty-one"]
        );
    }

    #[test]
    fn never_panics_and_ranges_hold() {
        let pieces = crate::test_rng::with_hostile(&[
            "1", "2,000", ".5", "-", "%", "$", " ", "five", "twenty", "-", "one", "hundred", "and", "million", "bn",
            "ms", "st", "a", "dozen", "日", "per", "cent", "°", "C",
        ]);
        let mut next = crate::test_rng::below(0xD1B5_4A32_D192_ED03);
        for _ in 0..20_000 {
            let n = next(12);
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            for q in quantities(&text) {
                assert!(text.is_char_boundary(q.start) && text.is_char_boundary(q.end), "{text:?} {q:?}");
                assert_eq!(text.get(q.start..q.end), Some(q.text.as_str()), "{text:?}");
            }
        }
    }

    #[test]
    fn the_finance_reading_adds_decimal_commas_codes_and_german_scales() {
        let read = |t: &str| quantities_read(t, Reading::FINANCE);
        let one = |t: &str| {
            let q = read(t);
            assert_eq!(q.len(), 1, "{t}: {q:?}");
            (q[0].value, q[0].unit, q[0].text.clone())
        };
        assert_eq!(one("3,2 Mrd."), (3.2e9, None, "3,2 Mrd".to_string()));
        assert_eq!(one("12,75 Mio. EUR").0, 12.75e6);
        assert_eq!(one("USD 3.2bn"), (3.2e9, Some("usd"), "USD 3.2bn".to_string()));
        assert_eq!(one("₹500").1, Some("inr"));
        // a comma before three digits stays a thousands separator
        assert_eq!(one("1,500").0, 1500.0);
        // the default reading (the meaning guard's) is unchanged
        assert!(quantities("3,2").is_empty());
        assert!(quantities("USD 5").first().is_some_and(|q| q.unit.is_none()));
        assert_eq!(quantities("3,2 Mrd.").len(), 0);
        assert_eq!(quantities("5 Mio").len(), 1);
        assert_eq!(quantities("5 Mio")[0].value, 5.0);
    }
}
