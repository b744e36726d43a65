//! The citation pipeline's metrics (spec 004 Part VII, src/cite/metrics.rs)
//! against scikit-learn on random inputs: NDCG@k (`ndcg_score`), AUROC
//! (`roc_auc_score`), Brier (`brier_score_loss`), macro-F1 (`f1_score`),
//! Cohen's kappa (`cohen_kappa_score`), citation micro P/R/F1
//! (`precision_score`/`recall_score`/`f1_score` over `MultiLabelBinarizer`)
//! and ECE from `calibration_curve(strategy="uniform")`'s bins.
//!
//! The oracle is required: without a python3 that imports sklearn the test
//! FAILS (scripts/setup.sh installs Debian's python3-sklearn); it never skips.

use evidence_validator::cite::metrics;
use serde_json::{json, Value};

mod oracle_common;
use oracle_common::{answers, Rng};

const PY: &str = r#"
import json, sys, warnings
import numpy as np
from sklearn.metrics import ndcg_score, roc_auc_score, brier_score_loss, f1_score, cohen_kappa_score
from sklearn.metrics import precision_score, recall_score
from sklearn.preprocessing import MultiLabelBinarizer
from sklearn.calibration import calibration_curve
warnings.simplefilter("ignore")
cases = json.load(open(sys.argv[1]))
out = []
for c in cases:
    t = c["kind"]
    if t == "ranking":
        rel = np.array(c["relevance"], dtype=float)
        n = rel.shape[1]
        score = np.array([[n - i for i in range(n)]] * rel.shape[0], dtype=float)
        out.append({"ndcg": float(ndcg_score(rel, score, k=c["k"]))})
    elif t == "binary":
        out.append({"auroc": float(roc_auc_score(c["y_true"], c["y_score"])),
                    "brier": float(brier_score_loss(c["y_true"], c["y_score"]))})
    elif t == "classes":
        out.append({"macro_f1": float(f1_score(c["y_true"], c["y_pred"], average="macro"))})
    elif t == "raters":
        k = cohen_kappa_score(c["a"], c["b"])
        out.append({"kappa": None if np.isnan(k) else float(k)})
    elif t == "calibration":
        conf = np.array(c["confidence"]); ok = np.array(c["correct"]); bins = c["bins"]
        prob_true, prob_pred = calibration_curve(ok, conf, n_bins=bins, strategy="uniform")
        edges = np.linspace(0.0, 1.0, bins + 1)
        ids = np.searchsorted(edges[1:-1], conf, side="right")
        counts = np.bincount(ids, minlength=bins)
        counts = counts[counts > 0]
        out.append({"ece": float(np.sum(counts / len(conf) * np.abs(prob_pred - prob_true)))})
    elif t == "citations":
        mlb = MultiLabelBinarizer().fit(c["predicted"] + c["gold"] + [["__none__"]])
        p = mlb.transform(c["predicted"]); g = mlb.transform(c["gold"])
        out.append({"p": float(precision_score(g, p, average="micro", zero_division=0)),
                    "r": float(recall_score(g, p, average="micro", zero_division=0)),
                    "f": float(f1_score(g, p, average="micro", zero_division=0))})
json.dump(out, open(sys.argv[2], "w"))
"#;

fn labels(rng: &mut Rng, n: usize, kinds: usize) -> Vec<u64> {
    (0..n).map(|_| rng.below(kinds) as u64).collect()
}

fn strings(v: &[u64]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn metrics_agree_with_scikit_learn_on_random_inputs() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cases: Vec<Value> = Vec::new();
    for _ in 0..150 {
        let (q, n) = (1 + rng.below(4), 2 + rng.below(10));
        let rel: Vec<Vec<u64>> = (0..q).map(|_| (0..n).map(|_| rng.below(4) as u64).collect()).collect();
        cases.push(json!({"kind": "ranking", "relevance": rel, "k": 1 + rng.below(n + 2)}));

        let n = 2 + rng.below(40);
        let mut y: Vec<u64> = labels(&mut rng, n, 2);
        y[0] = 0;
        y[1] = 1;
        // scores on a coarse grid: ties happen
        let s: Vec<f64> = (0..n).map(|_| rng.below(11) as f64 / 10.0).collect();
        cases.push(json!({"kind": "binary", "y_true": y, "y_score": s}));

        let n = 1 + rng.below(40);
        let kinds = 1 + rng.below(5);
        cases.push(
            json!({"kind": "classes", "y_true": labels(&mut rng, n, kinds), "y_pred": labels(&mut rng, n, kinds)}),
        );
        let n = 1 + rng.below(30);
        let kinds = 1 + rng.below(4);
        cases.push(json!({"kind": "raters", "a": labels(&mut rng, n, kinds), "b": labels(&mut rng, n, kinds)}));

        let n = 1 + rng.below(60);
        let conf: Vec<f64> = (0..n).map(|_| rng.unit()).collect();
        let ok: Vec<u64> = labels(&mut rng, n, 2);
        cases.push(json!({"kind": "calibration", "confidence": conf, "correct": ok, "bins": 1 + rng.below(15)}));

        let claims = 1 + rng.below(8);
        let ids = |rng: &mut Rng| -> Vec<String> { (0..rng.below(4)).map(|_| format!("s{}", rng.below(5))).collect() };
        let p: Vec<Vec<String>> = (0..claims).map(|_| ids(&mut rng)).collect();
        let g: Vec<Vec<String>> = (0..claims).map(|_| ids(&mut rng)).collect();
        cases.push(json!({"kind": "citations", "predicted": p, "gold": g}));
    }
    let expected = answers("sklearn", "python3-sklearn", PY, &cases);
    let f = |v: &Value| v.as_f64().unwrap();
    let nums = |v: &Value| v.as_array().unwrap().iter().map(f).collect::<Vec<f64>>();
    let u64s = |v: &Value| v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect::<Vec<u64>>();
    let bools = |v: &Value| u64s(v).into_iter().map(|x| x == 1).collect::<Vec<bool>>();
    let lists = |v: &Value| -> Vec<Vec<String>> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .collect()
    };
    let mut checked = 0;
    for (c, e) in cases.iter().zip(&expected) {
        match c["kind"].as_str().unwrap() {
            "ranking" => {
                let rel: Vec<Vec<f64>> = c["relevance"].as_array().unwrap().iter().map(nums).collect();
                let k = c["k"].as_u64().unwrap() as usize;
                let ours = rel.iter().map(|r| metrics::ndcg_at_k(r, k)).sum::<f64>() / rel.len() as f64;
                assert!(close(ours, f(&e["ndcg"])), "ndcg {c}: {ours} vs {}", e["ndcg"]);
            }
            "binary" => {
                let (y, s) = (bools(&c["y_true"]), nums(&c["y_score"]));
                let ours = metrics::auroc(&y, &s).unwrap();
                assert!(close(ours, f(&e["auroc"])), "auroc {c}: {ours} vs {}", e["auroc"]);
                let ours = metrics::brier(&y, &s);
                assert!(close(ours, f(&e["brier"])), "brier {c}: {ours} vs {}", e["brier"]);
            }
            "classes" => {
                let ours = metrics::macro_f1(&strings(&u64s(&c["y_true"])), &strings(&u64s(&c["y_pred"])));
                assert!(close(ours, f(&e["macro_f1"])), "macro_f1 {c}: {ours} vs {}", e["macro_f1"]);
            }
            "raters" => {
                let ours = metrics::cohen_kappa(&strings(&u64s(&c["a"])), &strings(&u64s(&c["b"])));
                match (ours, e["kappa"].as_f64()) {
                    (Some(a), Some(b)) => assert!(close(a, b), "kappa {c}: {a} vs {b}"),
                    (None, None) => {}
                    (a, b) => panic!("kappa {c}: {a:?} vs {b:?}"),
                }
            }
            "calibration" => {
                let bins = c["bins"].as_u64().unwrap() as usize;
                let ours = metrics::ece(&nums(&c["confidence"]), &bools(&c["correct"]), bins);
                assert!(close(ours, f(&e["ece"])), "ece {c}: {ours} vs {}", e["ece"]);
            }
            "citations" => {
                let (p, r, f1) = metrics::citation_prf(&lists(&c["predicted"]), &lists(&c["gold"]));
                assert!(
                    close(p, f(&e["p"])) && close(r, f(&e["r"])) && close(f1, f(&e["f"])),
                    "citations {c}: {p} {r} {f1} vs {e}"
                );
            }
            other => panic!("{other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 900);
}
