//! The ablation's significance tests (spec 004 §7.5, src/cite/metrics.rs)
//! against scipy: `paired_t_test` against `scipy.stats.ttest_rel`,
//! `t_test` against `ttest_ind` (pooled variance), `chi2_contingency`
//! against `chi2_contingency(correction=False)`, and the distributions
//! under them (`incomplete_beta`, `upper_incomplete_gamma`,
//! `student_t_two_sided`, `chi2_upper_tail`) against `scipy.special.betainc`,
//! `gammaincc`, `2·t.sf(|t|)` and `chi2.sf`, on hand-made inputs and on
//! random ones. The degenerate inputs, where scipy answers NaN or ±inf, are
//! checked against the values the functions document.
//!
//! The oracle is required: without a python3 that imports scipy the test
//! FAILS (scripts/setup.sh installs Debian's python3-sklearn, which brings
//! python3-scipy); it never skips.

use evidence_validator::cite::metrics;
use serde_json::{json, Value};

mod oracle_common;
use oracle_common::{answers, Rng};

const PY: &str = r#"
import json, sys
from scipy import stats, special
cases = json.load(open(sys.argv[1]))
out = []
for c in cases:
    k = c["kind"]
    if k == "paired":
        r = stats.ttest_rel(c["a"], c["b"])
        out.append({"statistic": float(r.statistic), "p": float(r.pvalue)})
    elif k == "independent":
        r = stats.ttest_ind(c["a"], c["b"])
        out.append({"statistic": float(r.statistic), "p": float(r.pvalue)})
    elif k == "chi2":
        s, p, dof, _ = stats.chi2_contingency(c["table"], correction=False)
        out.append({"statistic": float(s), "p": float(p), "df": float(dof)})
    elif k == "beta":
        out.append({"value": float(special.betainc(c["a"], c["b"], c["x"]))})
    elif k == "gamma":
        out.append({"value": float(special.gammaincc(c["a"], c["x"]))})
    elif k == "t":
        out.append({"value": float(2 * stats.t.sf(abs(c["t"]), c["df"]))})
    elif k == "chi2_tail":
        out.append({"value": float(stats.chi2.sf(c["x"], c["df"]))})
json.dump(out, open(sys.argv[2], "w"))
"#;

/// Relative agreement to 1e-9, or absolute below 1e-300 (p-values far
/// in the tail).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()) || (a - b).abs() < 1e-300
}

/// scipy's answers to `cases`.
fn oracle(cases: &[Value]) -> Vec<Value> {
    answers("scipy.stats", "python3-scipy", PY, cases)
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn tests_and_distributions_match_scipy() {
    let mut cases = vec![
        // hand-made: 0/1 outcomes as the runner pairs them, call counts,
        // verdict tables with an empty column, large samples
        json!({"kind": "paired", "a": [1, 1, 1, 1, 1, 0], "b": [0, 0, 0, 1, 1, 1]}),
        json!({"kind": "paired", "a": [1, 0, 1, 1, 0, 1, 1, 1], "b": [0, 0, 1, 0, 0, 1, 0, 1]}),
        json!({"kind": "paired", "a": [2.5, 3.1, 4.0, 5.2], "b": [2.0, 3.3, 3.1, 4.0]}),
        json!({"kind": "independent", "a": [1, 1, 1, 1, 0], "b": [5, 5, 5, 5, 0]}),
        json!({"kind": "independent", "a": [1, 1, 5, 1, 0, 1], "b": [5, 5, 5, 1]}),
        json!({"kind": "independent", "a": [0.5, 1.5], "b": [2.0, 2.5]}),
        json!({"kind": "chi2", "table": [[1, 2, 1, 1], [1, 3, 1, 0]]}),
        json!({"kind": "chi2", "table": [[30, 10], [15, 25]]}),
        json!({"kind": "chi2", "table": [[120, 40, 33, 7, 0], [100, 45, 30, 5, 20]]}),
        json!({"kind": "chi2", "table": [[3, 0, 9], [0, 4, 1], [2, 2, 2]]}),
        json!({"kind": "beta", "a": 0.5, "b": 0.5, "x": 0.3}),
        json!({"kind": "beta", "a": 500_000.0, "b": 0.5, "x": 0.999_99}),
        json!({"kind": "beta", "a": 2.0, "b": 3.0, "x": 0.9}),
        json!({"kind": "gamma", "a": 0.5, "x": 0.6}),
        json!({"kind": "gamma", "a": 1.5, "x": 0.6}),
        json!({"kind": "gamma", "a": 50.0, "x": 70.0}),
        json!({"kind": "gamma", "a": 2.0, "x": 400.0}),
        json!({"kind": "t", "t": 1.0, "df": 5.0}),
        json!({"kind": "t", "t": -3.2, "df": 8.0}),
        json!({"kind": "t", "t": 2.0, "df": 999_998.0}),
        json!({"kind": "t", "t": 40.0, "df": 3.0}),
        json!({"kind": "chi2_tail", "x": 1.2, "df": 3.0}),
        json!({"kind": "chi2_tail", "x": 0.01, "df": 1.0}),
        json!({"kind": "chi2_tail", "x": 150.0, "df": 4.0}),
    ];
    let mut rng = Rng(0x5C1_F00D);
    for _ in 0..40 {
        let n = 2 + rng.below(60);
        let a: Vec<f64> = (0..n).map(|_| rng.below(2) as f64).collect();
        let b: Vec<f64> = (0..n).map(|_| rng.below(2) as f64).collect();
        if a.iter().zip(&b).any(|(x, y)| x != y) && a.iter().zip(&b).map(|(x, y)| x - y).any(|d| d != a[0] - b[0]) {
            cases.push(json!({"kind": "paired", "a": a, "b": b}));
        }
        let m = 2 + rng.below(40);
        let c: Vec<f64> = (0..m).map(|_| (rng.unit() * 6.0).floor()).collect();
        let d: Vec<f64> = (0..n).map(|_| rng.unit() * 6.0).collect();
        cases.push(json!({"kind": "independent", "a": c, "b": d}));
        let (rows, cols) = (2 + rng.below(2), 2 + rng.below(4));
        let table: Vec<Vec<usize>> = (0..rows).map(|_| (0..cols).map(|_| 1 + rng.below(30)).collect()).collect();
        cases.push(json!({"kind": "chi2", "table": table}));
        cases
            .push(json!({"kind": "beta", "a": 0.1 + rng.unit() * 50.0, "b": 0.1 + rng.unit() * 50.0, "x": rng.unit()}));
        cases.push(json!({"kind": "gamma", "a": 0.1 + rng.unit() * 40.0, "x": rng.unit() * 80.0}));
    }
    let expected = oracle(&cases);
    let f = |v: &Value| v.as_f64().unwrap();
    for (c, e) in cases.iter().zip(&expected) {
        let (got_stat, got_p, got_df) = match c["kind"].as_str().unwrap() {
            "paired" => {
                let s = metrics::paired_t_test(&nums(&c["a"]), &nums(&c["b"]));
                assert_eq!(s.test, "paired_t_test");
                assert_eq!(s.df, Some((c["a"].as_array().unwrap().len() - 1) as f64));
                (s.statistic.unwrap(), s.p_value, None)
            }
            "independent" => {
                let s = metrics::t_test(&nums(&c["a"]), &nums(&c["b"]));
                assert_eq!(s.test, "t_test");
                let n = c["a"].as_array().unwrap().len() + c["b"].as_array().unwrap().len();
                assert_eq!(s.df, Some((n - 2) as f64));
                (s.statistic.unwrap(), s.p_value, None)
            }
            "chi2" => {
                let table: Vec<Vec<usize>> = c["table"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect())
                    .collect();
                let s = metrics::chi2_contingency(&table);
                assert_eq!(s.test, "chi2");
                (s.statistic.unwrap(), s.p_value, s.df)
            }
            "beta" => {
                let v = metrics::incomplete_beta(f(&c["a"]), f(&c["b"]), f(&c["x"]));
                assert!(close(v, f(&e["value"])), "{c}: {v} vs {e}");
                continue;
            }
            "gamma" => {
                let v = metrics::upper_incomplete_gamma(f(&c["a"]), f(&c["x"]));
                assert!(close(v, f(&e["value"])), "{c}: {v} vs {e}");
                continue;
            }
            "t" => {
                let v = metrics::student_t_two_sided(f(&c["t"]), f(&c["df"]));
                assert!(close(v, f(&e["value"])), "{c}: {v} vs {e}");
                continue;
            }
            _ => {
                let v = metrics::chi2_upper_tail(f(&c["x"]), f(&c["df"]));
                assert!(close(v, f(&e["value"])), "{c}: {v} vs {e}");
                continue;
            }
        };
        assert!(close(got_stat, f(&e["statistic"])), "{c}: statistic {got_stat} vs {e}");
        assert!(close(got_p, f(&e["p"])), "{c}: p {got_p} vs {e}");
        if let Some(df) = got_df {
            assert_eq!(df, f(&e["df"]), "{c}");
        }
    }
}

#[test]
fn a_zero_column_is_dropped_as_scipy_would_need() {
    // scipy refuses [[1, 0, 2], [3, 0, 4]] (a zero expected count); the
    // function reads it as [[1, 2], [3, 4]], checked against scipy on it.
    let with = metrics::chi2_contingency(&[vec![1, 0, 2], vec![3, 0, 4]]);
    let without = metrics::chi2_contingency(&[vec![1, 2], vec![3, 4]]);
    assert_eq!(with, without);
    let e = oracle(&[json!({"kind": "chi2", "table": [[1, 2], [3, 4]]})]);
    assert!(close(with.statistic.unwrap(), e[0]["statistic"].as_f64().unwrap()));
    assert!(close(with.p_value, e[0]["p"].as_f64().unwrap()));
    assert_eq!(with.df, Some(1.0));
}

#[test]
fn degenerate_inputs_are_defined() {
    use metrics::Significance;
    let s = |test, statistic, df, p_value| Significance { test, statistic, df, p_value };
    // every difference 0 (scipy: NaN): t 0, p 1
    assert_eq!(
        metrics::paired_t_test(&[1.0, 0.0, 1.0], &[1.0, 0.0, 1.0]),
        s("paired_t_test", Some(0.0), Some(2.0), 1.0)
    );
    // every difference 1 (scipy: inf, p 0): t infinite → None, p 0
    assert_eq!(metrics::paired_t_test(&[1.0, 1.0, 1.0], &[0.0, 0.0, 0.0]), s("paired_t_test", None, Some(2.0), 0.0));
    // fewer than two pairs: nothing to test
    assert_eq!(metrics::paired_t_test(&[1.0], &[0.0]), s("paired_t_test", Some(0.0), Some(0.0), 1.0));
    assert_eq!(metrics::paired_t_test(&[], &[]), s("paired_t_test", Some(0.0), Some(0.0), 1.0));
    // both sides constant: equal → t 0, p 1; different → infinite, p 0
    assert_eq!(metrics::t_test(&[2.0, 2.0], &[2.0, 2.0, 2.0]), s("t_test", Some(0.0), Some(3.0), 1.0));
    assert_eq!(metrics::t_test(&[1.0, 1.0], &[5.0, 5.0, 5.0]), s("t_test", None, Some(3.0), 0.0));
    // a side empty, or two values in all
    assert_eq!(metrics::t_test(&[], &[1.0, 2.0]), s("t_test", Some(0.0), Some(0.0), 1.0));
    assert_eq!(metrics::t_test(&[1.0], &[2.0]), s("t_test", Some(0.0), Some(0.0), 1.0));
    // a side of one value adds no squares (scipy 1.10: NaN): [0, 2] against
    // [4]: means 1 and 4, pooled variance 2/1, t = −3/√(2·1.5) = −√3, df 1;
    // p = 1 − 2·atan(√3)/π = 1/3 (Cauchy)
    let one = metrics::t_test(&[0.0, 2.0], &[4.0]);
    assert!(close(one.statistic.unwrap(), -(3f64.sqrt())) && close(one.p_value, 1.0 / 3.0), "{one:?}");
    // one category or one row left after the empty ones go, or nothing
    let nothing = s("chi2", Some(0.0), Some(0.0), 1.0);
    assert_eq!(metrics::chi2_contingency(&[vec![0, 5, 0], vec![0, 7, 0]]), nothing);
    assert_eq!(metrics::chi2_contingency(&[vec![3, 5], vec![0, 0]]), nothing);
    assert_eq!(metrics::chi2_contingency(&[]), nothing);
    assert_eq!(metrics::chi2_contingency(&[vec![], vec![]]), nothing);
    // the distributions at their edges
    assert_eq!(metrics::incomplete_beta(2.0, 3.0, 0.0), 0.0);
    assert_eq!(metrics::incomplete_beta(2.0, 3.0, 1.0), 1.0);
    assert_eq!(metrics::incomplete_beta(2.0, 3.0, f64::NAN), 0.0);
    assert_eq!(metrics::upper_incomplete_gamma(2.0, 0.0), 1.0);
    assert_eq!(metrics::student_t_two_sided(0.0, 4.0), 1.0);
    assert_eq!(metrics::chi2_upper_tail(0.0, 2.0), 1.0);
    // df 2: the χ² tail is e^(−x/2) exactly
    assert!(close(metrics::chi2_upper_tail(3.0, 2.0), (-1.5f64).exp()));
    // every result serializes without NaN
    let json = serde_json::to_string(&metrics::paired_t_test(&[1.0, 1.0], &[0.0, 0.0])).unwrap();
    assert_eq!(json, r#"{"test":"paired_t_test","statistic":null,"df":1.0,"p_value":0.0}"#);
}
