//! Numbers in findings, compared by value (spec 003 numeric consistency):
//! `$500M` = `$500 million` = `500,000,000`; `15%` and `5%` differ; `15-20%`
//! is a range from 15 % to 20 %.
//!
//! A [`Quantity`] is a number or a range (`15-20%`, `15–20 %`, `$1 to 2
//! billion`), with
//! - thousands separators (`1,234,567`; a comma followed by exactly three
//!   digits), decimals (`1.5`);
//! - a scale: `k`, `m`/`mn`, `b`/`bn`, `t`/`tn` written right after the
//!   number (`$500M`, `1.5bn`), or the words `thousand`, `million`,
//!   `billion`, `trillion`;
//! - a percent mark: `%`, `percent` or `per cent`.
//!
//! In a range, a scale or percent mark written once applies to both ends.
//! Currency signs are ignored (`$500M` = `500 million`).

/// A number or a range of numbers found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    /// The value (the low end of a range).
    pub low: f64,
    /// The high end of a range (= `low` for a single number).
    pub high: f64,
    /// Whether it is a percentage.
    pub percent: bool,
    /// The text it was read from.
    pub text: String,
}

impl Quantity {
    /// Whether `self` and `other` name a common value: same kind (percent or
    /// not) and an end of one equals an end of the other. This is the spec's
    /// "a number from the content appears in the span", compared by value.
    pub fn agrees_with(&self, other: &Quantity) -> bool {
        self.percent == other.percent
            && [self.low, self.high]
                .iter()
                .any(|a| [other.low, other.high].iter().any(|b| crate::text::quantity::same_value(*a, *b)))
    }
}

struct Scanner<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Scanner<'t> {
    fn rest(&self) -> &'t str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn skip_spaces(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start_matches([' ', '\u{a0}', '\t']).len();
    }

    /// A bare number (`1,234.5`) at the current position.
    fn number(&mut self) -> Option<f64> {
        let r = self.rest().as_bytes();
        let digits = |from: usize| r.get(from..).map_or(0, |s| s.iter().take_while(|b| b.is_ascii_digit()).count());
        let mut n = digits(0);
        if n == 0 {
            return None;
        }
        let text = |from: usize, to: usize| String::from_utf8_lossy(r.get(from..to).unwrap_or_default());
        let mut value: String = text(0, n).into_owned();
        if n <= 3 {
            // thousands groups: ",ddd" not followed by another digit
            while r.get(n) == Some(&b',') && digits(n + 1) == 3 {
                value.push_str(&text(n + 1, n + 4));
                n += 4;
            }
        }
        if r.get(n) == Some(&b'.') && digits(n + 1) > 0 {
            let d = digits(n + 1);
            value.push('.');
            value.push_str(&text(n + 1, n + 1 + d));
            n += 1 + d;
        }
        self.pos += n;
        value.parse().ok()
    }

    /// A scale after a number: returns the multiplier.
    fn scale(&mut self) -> Option<f64> {
        let word_end = |s: &str, n: usize| ends_word(s[n..].chars().next());
        let r = self.rest();
        let lower = head(r).to_ascii_lowercase();
        for (suffix, mult) in [("mn", 1e6), ("bn", 1e9), ("tn", 1e12), ("k", 1e3), ("m", 1e6), ("b", 1e9), ("t", 1e12)]
        {
            if lower.starts_with(suffix) && word_end(r, suffix.len()) {
                self.pos += suffix.len();
                return Some(mult);
            }
        }
        let save = self.pos;
        self.skip_spaces();
        let r = self.rest();
        let lower = head(r).to_ascii_lowercase();
        for (word, mult) in [("thousand", 1e3), ("million", 1e6), ("billion", 1e9), ("trillion", 1e12)] {
            if lower.starts_with(word) && word_end(r, word.len()) {
                self.pos += word.len();
                return Some(mult);
            }
        }
        self.pos = save;
        None
    }

    /// A percent mark after a number (and its scale).
    fn percent(&mut self) -> bool {
        let save = self.pos;
        self.skip_spaces();
        let r = self.rest();
        let lower = head(r).to_ascii_lowercase();
        for mark in ["%", "percent", "per cent", "pct"] {
            if lower.starts_with(mark) && (mark == "%" || ends_word(r[mark.len()..].chars().next())) {
                self.pos += mark.len();
                return true;
            }
        }
        self.pos = save;
        false
    }

    /// A range separator (`-`, `–`, `—`, `to`) followed by a number.
    fn range_separator(&mut self) -> bool {
        let save = self.pos;
        self.skip_spaces();
        let r = self.rest();
        for sep in ["-", "–", "—", "to "] {
            if r.starts_with(sep) {
                self.pos += sep.len();
                self.skip_spaces();
                let r2 = self.rest();
                let r2 = r2.trim_start_matches(['$', '€', '£', '¥']);
                if r2.starts_with(|c: char| c.is_ascii_digit()) {
                    self.pos = self.text.len() - r2.len();
                    return true;
                }
            }
        }
        self.pos = save;
        false
    }
}

/// The first 12 bytes or so of `r` (cut at a char boundary).
fn head(r: &str) -> &str {
    let mut n = r.len().min(12);
    while !r.is_char_boundary(n) {
        n -= 1;
    }
    &r[..n]
}

/// Whether a word ends before `next` (the end of the text, or not a letter or digit).
fn ends_word(next: Option<char>) -> bool {
    next.is_none_or(|c| !c.is_alphanumeric())
}

/// Every quantity in `text`, in order.
pub fn quantities(text: &str) -> Vec<Quantity> {
    let mut out = Vec::new();
    let mut s = Scanner { text, pos: 0 };
    while s.pos < text.len() {
        let Some(c) = s.rest().chars().next() else {
            break;
        };
        if !c.is_ascii_digit() {
            s.pos += c.len_utf8();
            continue;
        }
        let start = s.pos;
        let Some(a) = s.number() else {
            s.pos += 1;
            continue;
        };
        let scale_a = s.scale();
        let pct_a = s.percent();
        let (mut low, mut high, mut percent) = (a * scale_a.unwrap_or(1.0), a * scale_a.unwrap_or(1.0), pct_a);
        let before_range = s.pos;
        if s.range_separator() {
            match s.number() {
                Some(b) => {
                    let scale_b = s.scale();
                    let pct_b = s.percent();
                    if scale_a.is_none() {
                        low = a * scale_b.unwrap_or(1.0);
                    }
                    high = b * scale_b.or(scale_a).unwrap_or(1.0);
                    percent = pct_a || pct_b;
                }
                None => s.pos = before_range,
            }
        }
        if low > high {
            std::mem::swap(&mut low, &mut high);
        }
        out.push(Quantity { low, high, percent, text: text[start..s.pos].to_string() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Vec<(f64, f64, bool)> {
        quantities(text).into_iter().map(|q| (q.low, q.high, q.percent)).collect()
    }

    #[test]
    fn reads_values() {
        assert_eq!(q("Market size is $500M"), vec![(5e8, 5e8, false)]);
        assert_eq!(q("approximately $500 million annually"), vec![(5e8, 5e8, false)]);
        assert_eq!(q("500,000,000 users"), vec![(5e8, 5e8, false)]);
        assert_eq!(q("grew 15-20% a year"), vec![(15.0, 20.0, true)]);
        assert_eq!(q("15 % to 20 %"), vec![(15.0, 20.0, true)]);
        assert_eq!(q("$1-2 billion"), vec![(1e9, 2e9, false)]);
        assert_eq!(q("1.5bn and 3 per cent"), vec![(1.5e9, 1.5e9, false), (3.0, 3.0, true)]);
        assert_eq!(q("from 1,234 to 1,456 stars"), vec![(1234.0, 1456.0, false)]);
        assert_eq!(q("1,23 and 15min"), vec![(1.0, 1.0, false), (23.0, 23.0, false), (15.0, 15.0, false)]);
        assert_eq!(q("no numbers"), vec![]);
        assert_eq!(q("COVID-19 in 2020-"), vec![(19.0, 19.0, false), (2020.0, 2020.0, false)]);
    }

    #[test]
    fn compares_by_value() {
        let one = |t: &str| quantities(t).remove(0);
        assert!(one("$500M").agrees_with(&one("500 million")));
        assert!(one("$500M").agrees_with(&one("500,000,000")));
        assert!(!one("15%").agrees_with(&one("5%")));
        assert!(!one("15%").agrees_with(&one("15")));
        assert!(one("15%").agrees_with(&one("15-20%")));
        assert!(!one("17%").agrees_with(&one("15-20%")));
        // a last digit changed in a long number is another number
        assert!(!one("4150509954 rows").agrees_with(&one("4150509955 rows")));
        assert!(!one("$4,150,509.954M").agrees_with(&one("$4,150,509.955M")));
        assert!(one("$4,150,509.955M").agrees_with(&one("4150509955000")));
    }
}
