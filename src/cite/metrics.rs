//! The evaluation metrics of spec 004 Part VII, as scikit-learn defines
//! them where it has them:
//!
//! - `ndcg_at_k`: `sklearn.metrics.ndcg_score(y_true=[relevance], y_score=
//!   [n, n−1, …], k=k)`: linear gains, discount 1/log2(rank + 1), divided by
//!   the ideal order's DCG@k (0 when every relevance is 0);
//! - `auroc`: `roc_auc_score` (ties count one half); undefined with one class;
//! - `brier`: `brier_score_loss`, the mean of (p − y)²;
//! - `macro_f1`: `f1_score(average="macro")` over the labels either side uses;
//! - `cohen_kappa`: `cohen_kappa_score`, unweighted; undefined when the
//!   chance agreement is 1 (both raters used one and the same label);
//! - `citation_precision`/`recall`/`f1`: `precision_score`/`recall_score`/
//!   `f1_score(average="micro")` over the claims' id sets binarized
//!   (`MultiLabelBinarizer`): Σ|P∩G| / Σ|P|, Σ|P∩G| / Σ|G|; 0 when the
//!   denominator is 0 (`zero_division=0`), but 1 for all three when no
//!   claim has a predicted or a gold id (scikit-learn 1.2's answer: nothing
//!   to cite, nothing cited).
//!
//! scikit-learn has no precision/recall at k for graded lists nor an ECE:
//! - `precision_at_k` = relevant (relevance > 0) among the first k / the
//!   number of items among the first k (the spec's `len(predicted[:k])`);
//!   `recall_at_k` = relevant among the first k / all relevant (0 when none);
//!   `f1_at_k` = their harmonic mean (0 when both are 0; the spec adds 1e-10
//!   to the denominator, this does not); each a mean over the queries;
//! - `ece`: `bins` equal-width bins of [0, 1] (bin ⌊c·bins⌋, 1.0 in the
//!   last), Σ (bin size / n) × |mean confidence − accuracy| (the spec's
//!   `expected_calibration_error`, except that a confidence of exactly 1.0
//!   is counted, in the last bin, where the spec's half-open bins lose it).
//!
//! The significance tests of the ablation (§7.5) are scipy's:
//! `paired_t_test` is `scipy.stats.ttest_rel`, `t_test` is `ttest_ind`
//! (pooled variance), `chi2_contingency` is `chi2_contingency(correction=
//! False)`, with their tails from the regularized incomplete beta and gamma
//! functions (`incomplete_beta`, `upper_incomplete_gamma`); where scipy
//! answers NaN or ±inf (no variance, empty categories) each says what it
//! returns instead, always finite.
//!
//! The functions read lists of different lengths to the shorter's end
//! ([`evaluate`] refuses them).

use crate::error::{Error, ErrorKind, JsonPath, Result};
use crate::host::Deadline;
use serde::Serialize;
use serde_json::Value;

/// Most items in one list (one query's relevance list, `y_true`, …), and
/// most queries or claims.
pub const MAX_METRIC_ITEMS: usize = 1_000_000;
/// Most calibration bins.
pub const MAX_BINS: usize = 10_000;

/// Precision, recall and F1 at `k` of one ranked list of graded relevance.
pub fn precision_recall_f1_at_k(relevance: &[f64], k: usize) -> (f64, f64, f64) {
    let taken = k.min(relevance.len());
    let hits = relevance.iter().take(k).filter(|r| **r > 0.0).count() as f64;
    let relevant = relevance.iter().filter(|r| **r > 0.0).count() as f64;
    let precision = if taken == 0 { 0.0 } else { hits / taken as f64 };
    let recall = if relevant > 0.0 { hits / relevant } else { 0.0 };
    (precision, recall, harmonic(precision, recall))
}

fn harmonic(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// NDCG at `k` of one ranked list, linear gains.
pub fn ndcg_at_k(relevance: &[f64], k: usize) -> f64 {
    let dcg =
        |rel: &[f64]| -> f64 { rel.iter().take(k).enumerate().map(|(i, r)| r / libm::log2(i as f64 + 2.0)).sum() };
    let mut ideal = relevance.to_vec();
    crate::sort::sort_by(&mut ideal, |a, b| b.total_cmp(a));
    let best = dcg(&ideal);
    if best > 0.0 {
        dcg(relevance) / best
    } else {
        0.0
    }
}

/// Area under the ROC curve; `None` unless both classes occur. Lists of
/// different lengths are read to the shorter's end.
pub fn auroc(y_true: &[bool], y_score: &[f64]) -> Option<f64> {
    let mut pairs: Vec<(bool, f64)> = y_true.iter().copied().zip(y_score.iter().copied()).collect();
    let positives = pairs.iter().filter(|p| p.0).count();
    let negatives = pairs.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    crate::sort::sort_by(&mut pairs, |a, b| a.1.total_cmp(&b.1));
    // average ranks (1-based) over ties, summed over the positives: a run of
    // `len` ties after `before` scores holds ranks before + 1 ..= before + len
    let mut rank_sum = 0.0;
    let mut before = 0usize;
    for ties in pairs.chunk_by(|a, b| a.1 == b.1) {
        let average = before as f64 + (ties.len() as f64 + 1.0) / 2.0;
        rank_sum += ties.iter().filter(|p| p.0).count() as f64 * average;
        before += ties.len();
    }
    let (p, n) = (positives as f64, negatives as f64);
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * n))
}

/// Mean squared difference of probability and outcome.
pub fn brier(y_true: &[bool], probability: &[f64]) -> f64 {
    let n = y_true.len().min(probability.len()).max(1) as f64;
    y_true.iter().zip(probability).map(|(y, p)| (p - if *y { 1.0 } else { 0.0 }).powi(2)).sum::<f64>() / n
}

/// The distinct labels of both sides, sorted.
fn labels<'a>(a: &'a [String], b: &'a [String]) -> Vec<&'a str> {
    let mut all: Vec<&str> = a.iter().chain(b).map(String::as_str).collect();
    crate::sort::sort(&mut all);
    all.dedup();
    all
}

/// Mean over the labels of each label's F1 = 2TP / (2TP + FP + FN).
pub fn macro_f1(y_true: &[String], y_pred: &[String]) -> f64 {
    let all = labels(y_true, y_pred);
    // per label: (TP, FP, FN)
    let mut counts = vec![(0usize, 0usize, 0usize); all.len()];
    for (t, p) in y_true.iter().zip(y_pred) {
        let (ti, pi) = (all.binary_search(&t.as_str()).unwrap_or(0), all.binary_search(&p.as_str()).unwrap_or(0));
        if ti == pi {
            if let Some(c) = counts.get_mut(ti) {
                c.0 += 1;
            }
        } else {
            if let Some(c) = counts.get_mut(pi) {
                c.1 += 1;
            }
            if let Some(c) = counts.get_mut(ti) {
                c.2 += 1;
            }
        }
    }
    let f1s = counts.iter().map(|&(tp, fp, fn_)| {
        let d = 2 * tp + fp + fn_;
        if d == 0 {
            0.0
        } else {
            2.0 * tp as f64 / d as f64
        }
    });
    f1s.sum::<f64>() / all.len().max(1) as f64
}

/// Cohen's kappa of two raters; `None` when chance agreement is 1.
pub fn cohen_kappa(a: &[String], b: &[String]) -> Option<f64> {
    let all = labels(a, b);
    let n = a.len().min(b.len()) as f64;
    let mut rows = vec![0.0; all.len()];
    let mut cols = vec![0.0; all.len()];
    let mut agree = 0.0;
    for (x, y) in a.iter().zip(b) {
        let (i, j) = (all.binary_search(&x.as_str()).unwrap_or(0), all.binary_search(&y.as_str()).unwrap_or(0));
        if let Some(r) = rows.get_mut(i) {
            *r += 1.0;
        }
        if let Some(c) = cols.get_mut(j) {
            *c += 1.0;
        }
        if i == j {
            agree += 1.0;
        }
    }
    let observed = agree / n;
    let chance: f64 = rows.iter().zip(&cols).map(|(r, c)| (r / n) * (c / n)).sum();
    (chance < 1.0).then(|| (observed - chance) / (1.0 - chance))
}

/// Expected calibration error over `bins` equal-width bins.
pub fn ece(confidence: &[f64], correct: &[bool], bins: usize) -> f64 {
    let bins = bins.max(1);
    // per bin: (count, sum of confidence, right)
    let mut per = vec![(0usize, 0.0f64, 0usize); bins];
    for (c, ok) in confidence.iter().zip(correct) {
        let b = ((c * bins as f64) as usize).min(bins - 1);
        if let Some(bin) = per.get_mut(b) {
            bin.0 += 1;
            bin.1 += c;
            bin.2 += usize::from(*ok);
        }
    }
    let n = confidence.len().min(correct.len()).max(1) as f64;
    per.iter()
        .filter(|bin| bin.0 > 0)
        .map(|&(count, conf_sum, right)| {
            let m = count as f64;
            (m / n) * (conf_sum / m - right as f64 / m).abs()
        })
        .sum()
}

/// Micro-averaged precision, recall and F1 of predicted citation sets
/// against gold ones, claim by claim.
pub fn citation_prf(predicted: &[Vec<String>], gold: &[Vec<String>]) -> (f64, f64, f64) {
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    for (p, g) in predicted.iter().zip(gold) {
        let (p, g) = (distinct(p), distinct(g));
        let hits = p.iter().filter(|x| g.binary_search(x).is_ok()).count();
        tp += hits;
        fp += p.len() - hits;
        fn_ += g.len() - hits;
    }
    if tp + fp + fn_ == 0 {
        return (1.0, 1.0, 1.0);
    }
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    (ratio(tp, tp + fp), ratio(tp, tp + fn_), ratio(2 * tp, 2 * tp + fp + fn_))
}

/// Below this many discordant pairs McNemar's test is exact (binomial),
/// at or above it the χ² approximation with continuity correction.
pub const MCNEMAR_EXACT_BELOW: usize = 25;

/// McNemar's test on paired binary outcomes (spec 004 §7.5): the two
/// discordant counts and the two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McNemar {
    /// Pairs right under the first configuration only (`b`).
    pub first_only: usize,
    /// Pairs right under the second only (`c`).
    pub second_only: usize,
    /// Whether the p-value is the exact binomial one (`b + c` below
    /// [`MCNEMAR_EXACT_BELOW`]).
    pub exact: bool,
    /// The χ² statistic `(|b − c| − 1)² / (b + c)` (statsmodels'
    /// `mcnemar(exact=False)`, continuity-corrected); `None` when exact.
    pub statistic: Option<f64>,
    /// Two-sided: exact, `min(1, 2 · P(X ≤ min(b, c)))` for `X ~ Bin(b + c,
    /// ½)` (1 without discordant pairs); else the χ²(1) tail,
    /// `erfc(√(statistic / 2))`.
    pub p_value: f64,
}

/// McNemar's test of `b` pairs right under one configuration only against
/// `c` right under the other only.
pub fn mcnemar(b: usize, c: usize) -> McNemar {
    let n = b + c;
    if n < MCNEMAR_EXACT_BELOW {
        // P(X ≤ k) for X ~ Bin(n, ½): Σ C(n, i) / 2ⁿ, C(n, i) built up by
        // C(n, i + 1) = C(n, i) · (n − i) / (i + 1), exact in f64 for n < 25
        let k = b.min(c);
        let (mut term, mut sum) = (1.0f64, 0.0f64);
        for i in 0..=k {
            sum += term;
            term = term * (n - i) as f64 / (i + 1) as f64;
        }
        let p = (2.0 * sum / libm::pow(2.0, n as f64)).min(1.0);
        return McNemar { first_only: b, second_only: c, exact: true, statistic: None, p_value: p };
    }
    let d = b.abs_diff(c) as f64 - 1.0;
    let statistic = d * d / n as f64;
    McNemar {
        first_only: b,
        second_only: c,
        exact: false,
        statistic: Some(statistic),
        p_value: libm::erfc(libm::sqrt(statistic / 2.0)),
    }
}

impl McNemar {
    /// As a [`Significance`]: the χ² and df 1 when not exact.
    pub fn significance(&self) -> Significance {
        Significance {
            test: "mcnemar",
            statistic: self.statistic,
            df: (!self.exact).then_some(1.0),
            p_value: self.p_value,
        }
    }
}

/// Most terms of a continued fraction or series in [`incomplete_beta`] and
/// [`upper_incomplete_gamma`]: both converge in O(√max(a, b)) terms, so
/// this covers parameters to about 10¹⁰ (a t-test of [`MAX_METRIC_ITEMS`]
/// claims has a = 5·10⁵); past it the last partial value is returned.
pub const MAX_SPECIAL_TERMS: usize = 100_000;
/// Relative change at which a series or continued fraction stops.
const SPECIAL_EPSILON: f64 = 1e-15;
/// Smallest magnitude of a modified-Lentz denominator.
const TINY: f64 = 1e-300;

/// `x`, or ±[`TINY`] when it is smaller in magnitude (modified Lentz).
fn not_tiny(x: f64) -> f64 {
    if x.abs() < TINY {
        TINY
    } else {
        x
    }
}

/// The continued fraction of `I_x(a, b)` (modified Lentz; Numerical
/// Recipes' `betacf`), for `x < (a + 1) / (a + b + 2)`.
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let mut c = 1.0;
    let mut d = 1.0 / not_tiny(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..=MAX_SPECIAL_TERMS {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / not_tiny(1.0 + even * d);
        c = not_tiny(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / not_tiny(1.0 + odd * d);
        c = not_tiny(1.0 + odd / c);
        h *= d * c;
        if (d * c - 1.0).abs() < SPECIAL_EPSILON {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function `I_x(a, b)` (`a, b > 0`;
/// 0 at `x ≤ 0`, 1 at `x ≥ 1`), by its continued fraction on whichever of
/// `x` and `1 − x` converges.
pub fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = a * libm::log(x) + b * libm::log1p(-x) + libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b);
    let front = libm::exp(ln_front);
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The regularized upper incomplete gamma function `Q(a, x) = Γ(a, x) /
/// Γ(a)` (`a > 0`; 1 at `x ≤ 0`): the series of `P = 1 − Q` below `x = a +
/// 1`, the continued fraction of `Q` above (Numerical Recipes' `gser`,
/// `gcf`).
pub fn upper_incomplete_gamma(a: f64, x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * libm::log(x) - x - libm::lgamma(a);
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..MAX_SPECIAL_TERMS {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * SPECIAL_EPSILON {
                break;
            }
        }
        return (1.0 - sum * libm::exp(ln_front)).clamp(0.0, 1.0);
    }
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..=MAX_SPECIAL_TERMS {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = 1.0 / not_tiny(an * d + b);
        c = not_tiny(b + an / c);
        h *= d * c;
        if (d * c - 1.0).abs() < SPECIAL_EPSILON {
            break;
        }
    }
    (libm::exp(ln_front) * h).clamp(0.0, 1.0)
}

/// The two-sided tail of Student's t with `df` degrees of freedom,
/// `P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, ½)`.
pub fn student_t_two_sided(t: f64, df: f64) -> f64 {
    incomplete_beta(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// The upper tail of χ² with `df` degrees of freedom, `P(X ≥ x) = Q(df/2,
/// x/2)`.
pub fn chi2_upper_tail(x: f64, df: f64) -> f64 {
    upper_incomplete_gamma(df / 2.0, x / 2.0)
}

/// A significance test's result (spec 004 §7.5), every field finite.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Significance {
    /// `"mcnemar"`, `"chi2"`, `"t_test"` or `"paired_t_test"`.
    pub test: &'static str,
    /// t or χ²; `None` where it is infinite (see each test) or, for
    /// McNemar's exact test, not a χ².
    pub statistic: Option<f64>,
    /// Degrees of freedom; `None` for McNemar's exact test.
    pub df: Option<f64>,
    /// Two-sided p-value, in [0, 1].
    pub p_value: f64,
}

/// A t statistic `mean / standard_error` with `df` degrees of freedom as
/// a [`Significance`]. Zero standard error: t = 0, p = 1 when the mean is
/// 0 (nothing differs); else t infinite (`None`), p = 0.
fn t_result(test: &'static str, mean: f64, standard_error: f64, df: f64) -> Significance {
    let (statistic, p_value) = if standard_error > 0.0 {
        let t = mean / standard_error;
        (Some(t), student_t_two_sided(t, df))
    } else if mean == 0.0 {
        (Some(0.0), 1.0)
    } else {
        (None, 0.0)
    };
    Significance { test, statistic: statistic.filter(|t| t.is_finite()), df: Some(df), p_value }
}

/// Sum of squared deviations from the mean, and the mean.
fn squares(x: &[f64]) -> (f64, f64) {
    let mean = x.iter().sum::<f64>() / x.len().max(1) as f64;
    (x.iter().map(|v| (v - mean) * (v - mean)).sum(), mean)
}

/// Paired t-test of `a` against `b` (scipy's `ttest_rel(a, b)`): t = mean
/// of `a − b` over its standard error, `n − 1` degrees of freedom. Fewer
/// than 2 pairs: t = 0, df 0, p = 1; all differences equal: as
/// `t_result` (scipy answers NaN or ±inf there).
pub fn paired_t_test(a: &[f64], b: &[f64]) -> Significance {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    if n < 2 {
        return Significance { test: "paired_t_test", statistic: Some(0.0), df: Some(0.0), p_value: 1.0 };
    }
    let (ss, mean) = squares(&d);
    let df = (n - 1) as f64;
    t_result("paired_t_test", mean, libm::sqrt(ss / df / n as f64), df)
}

/// Student's two-sample t-test, pooled variance (scipy's `ttest_ind(a, b)`,
/// `equal_var=True`): t = (mean a − mean b) / (s_p · √(1/n_a + 1/n_b)),
/// `n_a + n_b − 2` degrees of freedom. Under 3 values in all or a side
/// empty: t = 0, df 0, p = 1; a side of one value adds no squares (scipy
/// answers NaN); both sides constant: as `t_result`.
pub fn t_test(a: &[f64], b: &[f64]) -> Significance {
    let (na, nb) = (a.len(), b.len());
    if na == 0 || nb == 0 || na + nb < 3 {
        return Significance { test: "t_test", statistic: Some(0.0), df: Some(0.0), p_value: 1.0 };
    }
    let ((ssa, ma), (ssb, mb)) = (squares(a), squares(b));
    let df = (na + nb - 2) as f64;
    let se = libm::sqrt((ssa + ssb) / df * (1.0 / na as f64 + 1.0 / nb as f64));
    t_result("t_test", ma - mb, se, df)
}

/// Pearson's χ² test of independence of a contingency table (scipy's
/// `chi2_contingency(table, correction=False)`): Σ (O − E)² / E with E =
/// row total · column total / N, (rows − 1)(columns − 1) degrees of
/// freedom. Rows and columns summing to 0 are dropped first (scipy refuses
/// a zero expected count); fewer than 2 of either left: χ² = 0, df 0, p =
/// 1. Rows shorter than the longest read as 0s.
pub fn chi2_contingency(table: &[Vec<usize>]) -> Significance {
    let width = table.iter().map(Vec::len).max().unwrap_or(0);
    let cell = |r: &Vec<usize>, j: usize| r.get(j).copied().unwrap_or(0) as f64;
    let rows: Vec<&Vec<usize>> = table.iter().filter(|r| r.iter().any(|&x| x > 0)).collect();
    let columns: Vec<usize> = (0..width).filter(|&j| rows.iter().any(|r| cell(r, j) > 0.0)).collect();
    if rows.len() < 2 || columns.len() < 2 {
        return Significance { test: "chi2", statistic: Some(0.0), df: Some(0.0), p_value: 1.0 };
    }
    let row_totals: Vec<f64> = rows.iter().map(|r| columns.iter().map(|&j| cell(r, j)).sum()).collect();
    let column_totals: Vec<f64> = columns.iter().map(|&j| rows.iter().map(|r| cell(r, j)).sum()).collect();
    let n: f64 = row_totals.iter().sum();
    let mut statistic = 0.0;
    for (r, rt) in rows.iter().zip(&row_totals) {
        for (&j, ct) in columns.iter().zip(&column_totals) {
            let e = rt * ct / n;
            let o = cell(r, j);
            statistic += (o - e) * (o - e) / e;
        }
    }
    let df = ((rows.len() - 1) * (columns.len() - 1)) as f64;
    Significance { test: "chi2", statistic: Some(statistic), df: Some(df), p_value: chi2_upper_tail(statistic, df) }
}

fn distinct(ids: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = ids.iter().map(String::as_str).collect();
    crate::sort::sort(&mut v);
    v.dedup();
    v
}

/// What `metrics` prints: the metrics of the parts given.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MetricsReport {
    /// Mean over queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision_at_k: Option<f64>,
    /// Mean over queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall_at_k: Option<f64>,
    /// Mean over queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub f1_at_k: Option<f64>,
    /// Mean over queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ndcg_at_k: Option<f64>,
    /// From `binary`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auroc: Option<f64>,
    /// From `binary`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brier: Option<f64>,
    /// From `classes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub macro_f1: Option<f64>,
    /// From `raters`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cohen_kappa: Option<f64>,
    /// From `calibration`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ece: Option<f64>,
    /// From `citations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_precision: Option<f64>,
    /// From `citations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_recall: Option<f64>,
    /// From `citations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_f1: Option<f64>,
}

const PARTS: &[&str] = &["ranking", "binary", "classes", "raters", "calibration", "citations"];

/// Reads `{ranking?, binary?, classes?, raters?, calibration?, citations?}`
/// and computes the metrics of the parts given.
///
/// # Errors
/// VALIDATION_ERROR naming the JSON path of an unknown key, a missing or
/// mistyped field, lists of different lengths, an out-of-range value, a
/// list longer than [`MAX_METRIC_ITEMS`], or a metric that is undefined on
/// the data (AUROC with one class, kappa with chance agreement 1);
/// PROCESSING_ERROR when the deadline passes.
pub fn evaluate(input: &Value, deadline: &Deadline) -> Result<MetricsReport> {
    let root = JsonPath::root();
    let obj = object(input, &root, PARTS)?;
    let mut out = MetricsReport::default();
    if let Some(v) = obj.get("ranking") {
        ranking_metrics(v, &root.key("ranking"), deadline, &mut out)?;
    }
    if let Some(v) = obj.get("binary") {
        let at = root.key("binary");
        let o = object(v, &at, &["y_true", "y_score"])?;
        let y = flags(field(o, "y_true", &at)?, &at.key("y_true"), deadline)?;
        let s = numbers(field(o, "y_score", &at)?, &at.key("y_score"), deadline, f64::MIN, f64::MAX)?;
        same_length(y.len(), s.len(), &at.key("y_score"), "y_true")?;
        out.auroc =
            Some(auroc(&y, &s).ok_or_else(|| {
                bad(&at.key("y_true"), "twoClasses", "AUROC is undefined: y_true holds only one class")
            })?);
        // the Brier score reads y_score as probabilities
        if s.iter().all(|p| (0.0..=1.0).contains(p)) {
            out.brier = Some(brier(&y, &s));
        }
    }
    if let Some(v) = obj.get("classes") {
        let at = root.key("classes");
        let o = object(v, &at, &["y_true", "y_pred"])?;
        let t = label_list(field(o, "y_true", &at)?, &at.key("y_true"), deadline)?;
        let p = label_list(field(o, "y_pred", &at)?, &at.key("y_pred"), deadline)?;
        same_length(t.len(), p.len(), &at.key("y_pred"), "y_true")?;
        out.macro_f1 = Some(macro_f1(&t, &p));
    }
    if let Some(v) = obj.get("raters") {
        let at = root.key("raters");
        let o = object(v, &at, &["a", "b"])?;
        let a = label_list(field(o, "a", &at)?, &at.key("a"), deadline)?;
        let b = label_list(field(o, "b", &at)?, &at.key("b"), deadline)?;
        same_length(a.len(), b.len(), &at.key("b"), "a")?;
        out.cohen_kappa = Some(cohen_kappa(&a, &b).ok_or_else(|| {
            bad(&at, "defined", "Cohen's kappa is undefined: both raters gave one and the same label throughout")
        })?);
    }
    if let Some(v) = obj.get("calibration") {
        calibration_metrics(v, &root.key("calibration"), deadline, &mut out)?;
    }
    if let Some(v) = obj.get("citations") {
        let at = root.key("citations");
        let o = object(v, &at, &["predicted", "gold"])?;
        let p = id_lists(field(o, "predicted", &at)?, &at.key("predicted"), deadline)?;
        let g = id_lists(field(o, "gold", &at)?, &at.key("gold"), deadline)?;
        same_length(p.len(), g.len(), &at.key("gold"), "predicted")?;
        let (a, b, c) = citation_prf(&p, &g);
        (out.citation_precision, out.citation_recall, out.citation_f1) = (Some(a), Some(b), Some(c));
    }
    Ok(out)
}

/// `ranking`: precision, recall, F1 and nDCG at k, averaged over the queries.
fn ranking_metrics(v: &Value, at: &JsonPath, deadline: &Deadline, out: &mut MetricsReport) -> Result<()> {
    let o = object(v, at, &["relevance", "k"])?;
    let k = field(o, "k", at)?;
    let k = k
        .as_u64()
        .filter(|k| *k >= 1)
        .ok_or_else(|| bad(&at.key("k"), "type", "k must be a whole number of at least 1"))?;
    let lists = list(field(o, "relevance", at)?, &at.key("relevance"))?;
    if lists.is_empty() {
        return Err(bad(&at.key("relevance"), "minItems", "relevance needs at least one query"));
    }
    let (mut p, mut r, mut f, mut n) = (0.0, 0.0, 0.0, 0.0);
    for (i, q) in lists.iter().enumerate() {
        let rel = numbers(q, &at.key("relevance").index(i), deadline, 0.0, f64::MAX)?;
        let (a, b, c) = precision_recall_f1_at_k(&rel, k as usize);
        p += a;
        r += b;
        f += c;
        n += ndcg_at_k(&rel, k as usize);
    }
    let q = lists.len() as f64;
    (out.precision_at_k, out.recall_at_k, out.f1_at_k, out.ndcg_at_k) =
        (Some(p / q), Some(r / q), Some(f / q), Some(n / q));
    Ok(())
}

/// `calibration`: the expected calibration error over `bins` bins (10 when not given).
fn calibration_metrics(v: &Value, at: &JsonPath, deadline: &Deadline, out: &mut MetricsReport) -> Result<()> {
    let o = object(v, at, &["confidence", "correct", "bins"])?;
    let c = numbers(field(o, "confidence", at)?, &at.key("confidence"), deadline, 0.0, 1.0)?;
    let y = flags(field(o, "correct", at)?, &at.key("correct"), deadline)?;
    same_length(c.len(), y.len(), &at.key("correct"), "confidence")?;
    let bins = match o.get("bins") {
        None => 10,
        Some(b) => b.as_u64().filter(|b| (1..=MAX_BINS as u64).contains(b)).ok_or_else(|| {
            bad(&at.key("bins"), "range", &format!("bins must be a whole number from 1 to {MAX_BINS}"))
        })? as usize,
    };
    out.ece = Some(ece(&c, &y, bins));
    Ok(())
}

fn bad(path: &JsonPath, constraint: &str, message: &str) -> Error {
    Error::invalid_input(path, constraint, message)
}

fn object<'a>(v: &'a Value, at: &JsonPath, keys: &[&str]) -> Result<&'a serde_json::Map<String, Value>> {
    let o = v.as_object().ok_or_else(|| bad(at, "type", "must be an object"))?;
    if let Some(k) = o.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(bad(
            &at.key(k),
            "additionalProperties",
            &format!("unknown key {k:?}; the keys here are: {}", keys.join(", ")),
        ));
    }
    Ok(o)
}

fn field<'a>(o: &'a serde_json::Map<String, Value>, key: &str, at: &JsonPath) -> Result<&'a Value> {
    o.get(key).ok_or_else(|| bad(&at.key(key), "required", &format!("{key} is required")))
}

fn list<'a>(v: &'a Value, at: &JsonPath) -> Result<&'a Vec<Value>> {
    let l = v.as_array().ok_or_else(|| bad(at, "type", "must be an array"))?;
    if l.len() > MAX_METRIC_ITEMS {
        return Err(bad(at, "maxItems", &format!("{} items, more than {MAX_METRIC_ITEMS}", l.len())));
    }
    Ok(l)
}

fn tick(deadline: &Deadline) -> Result<()> {
    if deadline.expired() {
        return Err(Error::new(ErrorKind::Processing, "metrics ran past their time budget"));
    }
    Ok(())
}

fn numbers(v: &Value, at: &JsonPath, deadline: &Deadline, lo: f64, hi: f64) -> Result<Vec<f64>> {
    list(v, at)?
        .iter()
        .enumerate()
        .map(|(i, x)| {
            tick(deadline)?;
            x.as_f64()
                .filter(|x| x.is_finite() && *x >= lo && *x <= hi)
                .ok_or_else(|| bad(&at.index(i), "range", &format!("must be a number from {lo} to {hi}")))
        })
        .collect()
}

fn flags(v: &Value, at: &JsonPath, deadline: &Deadline) -> Result<Vec<bool>> {
    list(v, at)?
        .iter()
        .enumerate()
        .map(|(i, x)| {
            tick(deadline)?;
            match x.as_u64() {
                Some(0) => Ok(false),
                Some(1) => Ok(true),
                _ => match x.as_bool() {
                    Some(b) => Ok(b),
                    None => Err(bad(&at.index(i), "enum", "must be 0 or 1")),
                },
            }
        })
        .collect()
}

/// A label or an id: a string or a whole number (`1` and `"1"` are
/// different labels; as ids both are `1`).
fn label(x: &Value, at: &JsonPath, deadline: &Deadline, quoted: bool) -> Result<String> {
    tick(deadline)?;
    match x {
        Value::String(s) if !quoted => Ok(s.clone()),
        Value::String(_) => Ok(x.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        _ => Err(bad(at, "type", "must be a string or a whole number")),
    }
}

/// A list of labels, at least one.
fn label_list(v: &Value, at: &JsonPath, deadline: &Deadline) -> Result<Vec<String>> {
    let l = list(v, at)?;
    if l.is_empty() {
        return Err(bad(at, "minItems", "needs at least one label"));
    }
    l.iter().enumerate().map(|(i, x)| label(x, &at.index(i), deadline, true)).collect()
}

/// One list of ids per claim.
fn id_lists(v: &Value, at: &JsonPath, deadline: &Deadline) -> Result<Vec<Vec<String>>> {
    list(v, at)?
        .iter()
        .enumerate()
        .map(|(i, ids)| {
            let here = at.index(i);
            list(ids, &here)?.iter().enumerate().map(|(j, id)| label(id, &here.index(j), deadline, false)).collect()
        })
        .collect()
}

fn same_length(n: usize, m: usize, at: &JsonPath, other: &str) -> Result<()> {
    if n == m {
        return Ok(());
    }
    Err(bad(at, "sameLength", &format!("has {m} items; {other} has {n}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn mcnemar_by_hand() {
        // b = 1, c = 5: n = 6, P(X ≤ 1) = (1 + 6) / 64, two-sided 14/64
        let m = mcnemar(1, 5);
        assert!(m.exact && m.statistic.is_none());
        assert!(close(m.p_value, 14.0 / 64.0), "{}", m.p_value);
        // symmetric in b and c; b = c: p = 1 (capped); no discordant pair: 1
        assert_eq!(mcnemar(5, 1).p_value, m.p_value);
        assert_eq!(mcnemar(3, 3).p_value, 1.0);
        assert_eq!(mcnemar(0, 0).p_value, 1.0);
        // b = 0, c = 24: 2 / 2^24, still exact
        let m = mcnemar(0, 24);
        assert!(m.exact && close(m.p_value, 2.0 / 16_777_216.0));
        // b = 10, c = 30: n = 40 ≥ 25, χ² = (20 − 1)² / 40 = 9.025; its χ²(1)
        // tail is erfc(√4.5125) = 0.00266311925… (python3: math.erfc(math.sqrt(4.5125)))
        let m = mcnemar(10, 30);
        assert!(!m.exact);
        assert!(close(m.statistic.unwrap(), 9.025));
        assert!((m.p_value - 0.002_663_119_259).abs() < 1e-12, "{}", m.p_value);
        // b = 13, c = 12: n = 25, (1 − 1)² / 25 = 0, p = 1
        let m = mcnemar(13, 12);
        assert_eq!((m.exact, m.statistic, m.p_value), (false, Some(0.0), 1.0));
    }

    #[test]
    fn distributions_and_tests_by_hand() {
        // I_x(1, 1) = x; Q(1, x) = e^(−x)
        assert!(close(incomplete_beta(1.0, 1.0, 0.37), 0.37));
        assert!(close(upper_incomplete_gamma(1.0, 2.5), libm::exp(-2.5)));
        // t with df 1 is Cauchy: P(|T| ≥ √3) = 1 − 2·atan(√3)/π = 1/3;
        // df 2: P(|T| ≥ t) = 1 − t/√(t² + 2)
        assert!(close(student_t_two_sided(libm::sqrt(3.0), 1.0), 1.0 / 3.0));
        assert!(close(student_t_two_sided(-1.0, 2.0), 1.0 - 1.0 / libm::sqrt(3.0)));
        // χ²: df 1 tail erfc(√(x/2)), df 2 tail e^(−x/2)
        assert!(close(chi2_upper_tail(3.84, 1.0), libm::erfc(libm::sqrt(1.92))));
        assert!(close(chi2_upper_tail(3.0, 2.0), libm::exp(-1.5)));
        // 2 × 2 [[30, 10], [15, 25]]: N(ad − bc)² / (row · column totals) =
        // 80 · 600² / (40 · 40 · 45 · 35) = 80/7, df 1
        let c = chi2_contingency(&[vec![30, 10], vec![15, 25]]);
        assert!(close(c.statistic.unwrap_or(f64::NAN), 80.0 / 7.0) && c.df == Some(1.0));
        assert!(close(c.p_value, libm::erfc(libm::sqrt(40.0 / 7.0))));
        // paired: differences 1, 1, 1, 0, 0, −1: t = (1/3) / (1/3) = 1, df 5
        let t = paired_t_test(&[1.0, 1.0, 1.0, 1.0, 1.0, 0.0], &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        assert!(close(t.statistic.unwrap_or(f64::NAN), 1.0) && t.df == Some(5.0));
    }

    #[test]
    fn ranking_by_hand() {
        // relevant at ranks 1 and 3, 3 relevant in all; k = 3
        let rel = [2.0, 0.0, 1.0, 0.0, 3.0];
        let (p, r, f) = precision_recall_f1_at_k(&rel, 3);
        assert!(close(p, 2.0 / 3.0) && close(r, 2.0 / 3.0) && close(f, 2.0 / 3.0));
        // DCG@3 = 2/1 + 0 + 1/2 = 2.5; ideal 3, 2, 1: 3 + 2/log2(3) + 1/2
        let ideal = 3.0 + 2.0 / 3f64.log2() + 0.5;
        assert!(close(ndcg_at_k(&rel, 3), 2.5 / ideal));
        assert_eq!(ndcg_at_k(&[0.0, 0.0], 2), 0.0);
        assert_eq!(precision_recall_f1_at_k(&[1.0], 10), (1.0, 1.0, 1.0), "k past the list");
    }

    #[test]
    fn binary_by_hand() {
        // scores: neg 0.1, pos 0.4, neg 0.35, pos 0.8 → pairs (pos > neg): 0.4>0.1, 0.4>0.35, 0.8>both: 4/4... use a tie
        let y = [false, true, false, true];
        let s = [0.1, 0.4, 0.4, 0.8];
        // pairs: (0.4 vs 0.1) 1, (0.4 vs 0.4) ½, (0.8 vs 0.1) 1, (0.8 vs 0.4) 1 → 3.5 / 4
        assert!(close(auroc(&y, &s).unwrap(), 0.875));
        assert!(auroc(&[true, true], &[0.1, 0.2]).is_none());
        // lists of different lengths: read to the shorter's end, no panic
        assert_eq!(auroc(&[false, true], &[0.1, 0.9, 0.5]), Some(1.0));
        assert_eq!(auroc(&[false, true, true], &[0.1, 0.9]), Some(1.0));
        // (0.1² + 0.6² + 0.4² + 0.2²) / 4 = 0.57 / 4
        assert!(close(brier(&y, &s), 0.1425));
    }

    #[test]
    fn classes_by_hand() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let t = s(&["a", "a", "b", "c"]);
        let p = s(&["a", "b", "b", "b"]);
        // a: tp 1 fn 1 → 2/3; b: tp 1 fp 2 → 2/4; c: fn 1 → 0
        assert!(close(macro_f1(&t, &p), (2.0 / 3.0 + 0.5) / 3.0));
        // po = 2/4; pe = (2·1 + 1·3 + 1·0) / 16 = 5/16; κ = (8/16 − 5/16) / (11/16) = 3/11
        assert!(close(cohen_kappa(&t, &p).unwrap(), 3.0 / 11.0));
        assert!(cohen_kappa(&s(&["x", "x"]), &s(&["x", "x"])).is_none());
    }

    #[test]
    fn calibration_and_citations_by_hand() {
        // bins of 0.5: [0.2, 0.4] right 1 of 2; [0.9, 1.0] right 2 of 2
        let e = ece(&[0.2, 0.4, 0.9, 1.0], &[true, false, true, true], 2);
        // 2/4·|0.3 − 0.5| + 2/4·|0.95 − 1| = 0.1 + 0.025
        assert!(close(e, 0.125), "{e}");
        let ids =
            |v: &[&[&str]]| v.iter().map(|l| l.iter().map(|x| x.to_string()).collect()).collect::<Vec<Vec<String>>>();
        let (p, r, f) = citation_prf(&ids(&[&["a", "b"], &[]]), &ids(&[&["a"], &["c"]]));
        // tp 1, fp 1, fn 1
        assert!(close(p, 0.5) && close(r, 0.5) && close(f, 0.5));
        assert_eq!(citation_prf(&ids(&[&[]]), &ids(&[&[]])), (1.0, 1.0, 1.0), "nothing to cite, nothing cited");
        assert_eq!(citation_prf(&ids(&[&[]]), &ids(&[&["a"]])), (0.0, 0.0, 0.0));
    }

    #[test]
    fn evaluate_reads_the_parts_and_names_bad_paths() {
        let r = evaluate(
            &json!({"ranking": {"relevance": [[1, 0], [0, 1]], "k": 1}, "binary": {"y_true": [0, 1], "y_score": [0.2, 0.9]}}),
            &Deadline::never(),
        )
        .unwrap();
        assert_eq!((r.precision_at_k, r.recall_at_k, r.auroc), (Some(0.5), Some(0.5), Some(1.0)));
        assert!(r.macro_f1.is_none());
        for (input, path) in [
            (json!({"rankings": {}}), "$.rankings"),
            (json!({"ranking": {"relevance": [[1, "x"]], "k": 1}}), "$.ranking.relevance[0][1]"),
            (json!({"ranking": {"relevance": [[1]], "k": 0}}), "$.ranking.k"),
            (json!({"binary": {"y_true": [0, 2], "y_score": [0.1, 0.2]}}), "$.binary.y_true[1]"),
            (json!({"binary": {"y_true": [0, 1], "y_score": [0.1]}}), "$.binary.y_score"),
            (json!({"binary": {"y_true": [1, 1], "y_score": [0.1, 0.2]}}), "$.binary.y_true"),
            (json!({"calibration": {"confidence": [1.5], "correct": [1]}}), "$.calibration.confidence[0]"),
            (json!({"classes": {"y_true": [1.5], "y_pred": [1]}}), "$.classes.y_true[0]"),
            (json!({"citations": {"predicted": [["a"]], "gold": [[null]]}}), "$.citations.gold[0][0]"),
            (json!({"raters": {"a": ["x"]}}), "$.raters.b"),
        ] {
            let e = evaluate(&input, &Deadline::never()).unwrap_err();
            assert_eq!(e.code(), "VALIDATION_ERROR", "{input}");
            assert_eq!(e.details()["json_path"], path, "{input}: {}", e.message());
        }
    }
}
