//! `evidence-validator eval` (spec 004 §7, issue 17 item 7) on the small
//! files of tests/data/eval/, written in each dataset's published format.
//! Every expected number is worked out by hand from the files (the
//! comments give the arithmetic): which span stage 1 keeps, which verdict
//! stage 4's deterministic verifier gives, what correction does, then the
//! metric, and §7.5's test of each toggle against all on (McNemar's, a
//! t-test, a paired t-test or χ²).
//!
//! What the pipeline does with the files, by hand (part 1's defaults):
//! - stage 1 keeps a sentence of 50 to 500 characters whose BM25 against
//!   the query is over 0, or which holds a number (boost 0.1 ≥ the 0.1
//!   threshold); the best first;
//! - stage 4's deterministic verifier, on the claim's best cited span:
//!   CONTRADICTED when a number of the claim differs from the span's (the
//!   span on the claim's topic), SUPPORTED when the span states the claim
//!   word for word, PARTIAL when at least half the claim's content words
//!   (stemmed) are in it, else UNSUPPORTED; NEI when it cites no span of
//!   the pool. It runs before stage 5, so stage 5 off changes no verdict
//!   (stage 5 reads them; a replaced span is verified again);
//! - McNemar's test pairs each claim's outcome with all on and with the
//!   toggle off: b right with all on only, c off only; exact below 25
//!   discordant pairs: p = min(1, 2 · P(X ≤ min(b, c))), X ~ Bin(b + c, ½)
//!   (evidence preselection, numeric QA, abstention); confidence
//!   classification's t-test is on stage 4's LLM calls per claim, citation
//!   correction's paired t-test on the outcome as 1/0, the NEI verdict's χ²
//!   on the two verdict distributions.

mod cli_common;

use cli_common::{path, run, TempDir};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/");

fn data(name: &str) -> String {
    format!("{DATA}{name}")
}

/// `eval --dataset DATASET --input tests/data/eval/INPUT [--sources
/// tests/data/eval/SOURCES] --format json`'s report.
fn eval_json(dataset: &str, input: &str, sources: Option<&str>) -> Value {
    let (input, sources) = (data(input), sources.map(data));
    let mut all = vec!["eval", "--dataset", dataset, "--input", &input, "--format", "json"];
    if let Some(s) = &sources {
        all.extend(["--sources", s]);
    }
    let o = run(&all);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The test of the ablation row `configuration` against all on.
fn significance<'a>(report: &'a Value, configuration: &str) -> &'a Value {
    let row = report["ablation"].as_array().unwrap().iter().find(|r| r["configuration"] == configuration).unwrap();
    &row["significance"]
}

/// The test's (name, statistic, df, p) of the ablation row `configuration`.
fn test(report: &Value, configuration: &str) -> (String, Option<f64>, Option<f64>, f64) {
    let t = significance(report, configuration);
    (t["test"].as_str().unwrap().to_string(), t["statistic"].as_f64(), t["df"].as_f64(), t["p_value"].as_f64().unwrap())
}

/// McNemar's (b, c, p, exact) of the ablation row `configuration`.
fn mcnemar(report: &Value, configuration: &str) -> (u64, u64, f64, bool) {
    let s = significance(report, configuration);
    assert_eq!(s["test"], "mcnemar", "{configuration}");
    let t = &s["mcnemar"];
    (
        t["first_only"].as_u64().unwrap(),
        t["second_only"].as_u64().unwrap(),
        t["p_value"].as_f64().unwrap(),
        t["exact"].as_bool().unwrap(),
    )
}

/// The metric `name` of the ablation row `configuration`.
fn metric(report: &Value, configuration: &str, name: &str) -> Option<f64> {
    let row = report["ablation"].as_array().unwrap().iter().find(|r| r["configuration"] == configuration).unwrap();
    let m = row["metrics"].as_array().unwrap().iter().find(|m| m["name"] == name).unwrap_or_else(|| panic!("{name}"));
    m["value"].as_f64()
}

fn close(got: Option<f64>, want: f64, what: &str) {
    let got = got.unwrap_or_else(|| panic!("{what} is undefined"));
    assert!((got - want).abs() < 1e-9, "{what}: got {got}, want {want}");
}

#[test]
fn fever_by_hand() {
    let r = eval_json("fever", "fever_claims.jsonl", Some("fever_pages.jsonl"));
    assert_eq!((r["items"].as_u64(), r["claims"].as_u64()), (Some(5), Some(5)));
    // Claims: 101 SUPPORTS quotes Oliver_Reed 0 word for word; 102 REFUTES
    // says 60 people where Acme_Corp 0 says 45; 103 SUPPORTS's evidence
    // "Paris is the capital of France ." is 32 characters, under stage 1's
    // 50, so the pool holds only Paris 1 ("Paris hosts many museums …");
    // 104 REFUTES shares 2 of its words with Oliver_Reed 0; 105 NOT ENOUGH
    // INFO has no page.
    //
    // Stage 1, over 101–104: each pool holds its gold sentence first
    // (Oliver_Reed 1 and Acme_Corp 1 share no word with the claims and hold
    // no number), except 103's, which misses it: P = R = F1 = NDCG =
    // (1 + 1 + 0 + 1) / 4.
    let all = "all on";
    for m in ["precision_at_k", "recall_at_k", "f1_at_k", "ndcg_at_k"] {
        close(metric(&r, all, m), 0.75, m);
    }
    // Verdicts: 101 SUPPORTED (Oliver_Reed 0 word for word); 102
    // CONTRADICTED (60 ≠ 45, and 6 of its 7 content words in Acme_Corp 0);
    // 103 paris/capital/france: 1 of 3 in Paris 1 → UNSUPPORTED; 104
    // oliver/reed of oliver/reed/canadian/singer/act (acted ≠ actor) → 2 of
    // 5, UNSUPPORTED; 105 no source → NEI. As FEVER labels: S R N N N
    // against S R S R N.
    // accuracy 3/5; F1 S 2·1/(2·1+1) = 2/3, R 2/3, N 2·1/(2·1+2) = 1/2 →
    // macro (2/3 + 2/3 + 1/2)/3 = 11/18; kappa: po 3/5, pe (2·1 + 2·1 +
    // 1·3)/25 = 7/25 → (15/25 − 7/25)/(18/25) = 4/9.
    close(metric(&r, all, "verdict_accuracy"), 0.6, "accuracy");
    close(metric(&r, all, "macro_f1"), 11.0 / 18.0, "macro_f1");
    close(metric(&r, all, "cohen_kappa"), 4.0 / 9.0, "kappa");
    close(metric(&r, all, "supports_precision"), 1.0, "SUPPORTS precision: 1 of 1");
    close(metric(&r, all, "refutes_recall"), 0.5, "REFUTES recall: 1 of 2");
    close(metric(&r, all, "numeric_accuracy"), 1.0, "102, the one claim with a number");
    assert_eq!(r["stages"][3]["evaluated"], 1);
    // Stage 1 off: each source is one span (the whole page), covering its
    // gold sentences: P = R = NDCG = 1; 103 now finds capital and France:
    // S R S N N → accuracy 4/5; F1 S 1, R 2/3, N 2/3 → 7/9; kappa po 4/5,
    // pe (2·2 + 2·1 + 1·2)/25 = 8/25 → (20 − 8)/(25 − 8) = 12/17.
    let off = "enable_evidence_preselection off";
    close(metric(&r, off, "recall_at_k"), 1.0, "whole pages");
    close(metric(&r, off, "ndcg_at_k"), 1.0, "whole pages");
    close(metric(&r, off, "verdict_accuracy"), 0.8, "accuracy");
    close(metric(&r, off, "macro_f1"), 7.0 / 9.0, "macro_f1");
    close(metric(&r, off, "cohen_kappa"), 12.0 / 17.0, "kappa");
    // Stage 3 off: every claim 0.3, gold SUPPORTS = 1 0 1 0 0. AUROC: all
    // tied, 1/2; Brier (2·0.7² + 3·0.3²)/5 = 0.25; ECE one bin |0.3 − 2/5|
    // = 0.1; no claim HIGH.
    let off = "enable_confidence_classification off";
    close(metric(&r, off, "auroc"), 0.5, "auroc");
    close(metric(&r, off, "brier"), 0.25, "brier");
    close(metric(&r, off, "ece"), 0.1, "ece");
    close(metric(&r, off, "high_share"), 0.0, "high");
    // Stage 5 off: stage 4's verdicts come before it: S R N N N again.
    let off = "enable_citation_correction off";
    close(metric(&r, off, "verdict_accuracy"), 0.6, "accuracy");
    close(metric(&r, off, "supports_precision"), 1.0, "SUPPORTS precision");
    // NEI off and abstention off: 105 UNSUPPORTED, both NOT ENOUGH INFO to
    // FEVER: no change.
    close(metric(&r, "enable_nei_verdict off", "verdict_accuracy"), 0.6, "accuracy");
    close(metric(&r, "enable_abstention off", "verdict_accuracy"), 0.6, "accuracy");
    assert_eq!(r["ablation"].as_array().unwrap().len(), 7, "all on and six toggles");
    // §7.5's tests. McNemar on "the label is right": all on ✓ ✓ ✗ ✗ ✓;
    // stage 1 off ✓ ✓ ✓ ✗ ✓ → b 0, c 1: p = min(1, 2 · ½) = 1 (exact: no
    // statistic, no df); numeric QA and abstention off agree claim by claim
    // with all on: b = c = 0, p 1.
    assert_eq!(mcnemar(&r, "enable_evidence_preselection off"), (0, 1, 1.0, true));
    assert_eq!(test(&r, "enable_evidence_preselection off"), ("mcnemar".into(), None, None, 1.0));
    for t in ["numeric_qa_verification", "abstention"] {
        assert_eq!(mcnemar(&r, &format!("enable_{t} off")), (0, 0, 1.0, true), "{t}");
    }
    // Stage 3 off, t-test on stage 4's LLM calls per claim: all on, 101–104
    // cite a span and are HIGH or MEDIUM (1 call each), 105 cites none (0):
    // 1 1 1 1 0; off, every claim LOW: full CoVe at its most, 1 call for
    // the (default 3) questions + 3 answers + 1 comparison = 5: 5 5 5 5 0.
    // Means 0.8 and 4; squares 4·0.2² + 0.8² = 0.8 and 4·1² + 4² = 20;
    // pooled variance 20.8/8 = 2.6; t = −3.2/√(2.6·(1/5 + 1/5)) =
    // −3.2/√1.04, df 8; p = 0.0138499… (scipy.stats.ttest_ind([1,1,1,1,0],
    // [5,5,5,5,0]).pvalue = 0.013849941495870…).
    let (name, t, df, p) = test(&r, "enable_confidence_classification off");
    assert_eq!((name.as_str(), df), ("t_test", Some(8.0)));
    close(t, -3.2 / 1.04f64.sqrt(), "t");
    assert!((p - 0.013_849_941_495_87).abs() < 1e-10, "{p}");
    assert_eq!(significance(&r, "enable_confidence_classification off")["means"], serde_json::json!([0.8, 4.0]));
    // Stage 5 off, paired t-test on "the label is right": no claim
    // changes, every difference 0: t 0, df 4, p 1 (defined; scipy: NaN).
    assert_eq!(test(&r, "enable_citation_correction off"), ("paired_t_test".into(), Some(0.0), Some(4.0), 1.0));
    // NEI off, χ² on the verdicts: all on S C U U N (SUPPORTED 1, PARTIAL
    // 0, UNSUPPORTED 2, CONTRADICTED 1, NEI 1); off, 105 UNSUPPORTED: 1 0
    // 3 1 0. PARTIAL empty, dropped: 2 × 4, df 3; expected half of each
    // column (2, 5, 2, 1): χ² = 0 + 2·0.5²/2.5 + 0 + 2·0.5²/0.5 = 1.2;
    // χ²(3) tail at 1.2 = erfc(√0.6) + √(2.4/π)·e^(−0.6) = 0.7530043…
    let (name, chi2, df, p) = test(&r, "enable_nei_verdict off");
    assert_eq!((name.as_str(), df), ("chi2", Some(3.0)));
    close(chi2, 1.2, "chi2");
    let tail = libm::erfc(0.6f64.sqrt()) + (2.4 / std::f64::consts::PI).sqrt() * (-0.6f64).exp();
    assert!((p - tail).abs() < 1e-10, "{p} vs {tail}");
    assert!((p - 0.753_004_311_656_458).abs() < 1e-12, "{p}");
    assert!(r["ablation"][0]["significance"].is_null(), "all on is not tested against itself");
    assert!(r["notes"][2].as_str().unwrap().starts_with("1 NOT ENOUGH INFO claims"));
}

#[test]
fn ragtruth_by_hand() {
    let r = eval_json("ragtruth", "ragtruth_response.jsonl", Some("ragtruth_source_info.jsonl"));
    // Sentences: response 1 "The bakery opened …" (grounded), "The owner
    // trained as a pastry chef in Paris." (span "Paris"); response 2 "It
    // sells fresh bread …" (grounded), "It also delivers pizza …" (the
    // span); response 3 "The bakery has 12 tables." (grounded, QA source).
    assert_eq!((r["items"].as_u64(), r["claims"].as_u64()), (Some(3), Some(5)));
    // The verifier (UNSUPPORTED, CONTRADICTED and NEI flag; PARTIAL reads as
    // supported, as FEVER's mapping reads it): the owner sentence has
    // owner/train/pastry/chef of its 5 content words in the source's third
    // sentence → PARTIAL (missed; no number to contradict "Lyon"); pizza has
    // no word in the source → UNSUPPORTED (caught); the bakery sentences are
    // stated (SUPPORTED) or all their words are (PARTIAL); 12 tables:
    // bakery/12/table all in "Inside the bakery there are 12 small tables …"
    // and 12 = 12 → PARTIAL. Flagged 1, caught 1, hallucinated 2:
    // precision 1, recall 1/2, F1 2/3.
    let all = "all on";
    close(metric(&r, all, "detection_precision"), 1.0, "precision");
    close(metric(&r, all, "detection_recall"), 0.5, "recall");
    close(metric(&r, all, "detection_f1"), 2.0 / 3.0, "f1");
    close(metric(&r, all, "numeric_accuracy"), 1.0, "12 tables = 12 tables");
    // Stage 5 off: the verdicts come before it: the same detector.
    let off = "enable_citation_correction off";
    close(metric(&r, off, "detection_precision"), 1.0, "precision");
    close(metric(&r, off, "detection_recall"), 0.5, "recall");
    // McNemar on "flagged exactly when hallucinated": no toggle changes a
    // verdict here, so b = c = 0, p 1.
    for t in ["evidence_preselection", "numeric_qa_verification", "abstention"] {
        assert_eq!(mcnemar(&r, &format!("enable_{t} off")), (0, 0, 1.0, true), "{t}");
    }
    // The degenerate cases, defined: stage 5 off, every paired difference
    // 0 → t 0, df 4, p 1; NEI off, the same verdicts (SUPPORTED, PARTIAL,
    // UNSUPPORTED occur): χ² 0, df 2, p 1; stage 3 off, every claim cites a
    // span: all on 1 call each, off 5 each, no variance either side but the
    // means differ → t infinite (null), df 8, p 0.
    assert_eq!(test(&r, "enable_citation_correction off"), ("paired_t_test".into(), Some(0.0), Some(4.0), 1.0));
    assert_eq!(test(&r, "enable_nei_verdict off"), ("chi2".into(), Some(0.0), Some(2.0), 1.0));
    assert_eq!(test(&r, "enable_confidence_classification off"), ("t_test".into(), None, Some(8.0), 0.0));
    // Stage 3 off: 0.3 for all, gold 1 0 1 0 1: Brier (3·0.7² + 2·0.3²)/5
    // = 0.33; ECE |0.3 − 3/5| = 0.3.
    let off = "enable_confidence_classification off";
    close(metric(&r, off, "auroc"), 0.5, "auroc");
    close(metric(&r, off, "brier"), 0.33, "brier");
    close(metric(&r, off, "ece"), 0.3, "ece");
    // RAGTruth has no gold evidence: stage 1 is not scored
    assert!(r["stages"].as_array().unwrap().iter().all(|s| !s["stage"].as_str().unwrap().starts_with('1')));
}

#[test]
fn alce_by_hand() {
    let r = eval_json("alce", "alce_result.json", None);
    assert_eq!((r["items"].as_u64(), r["claims"].as_u64()), (Some(2), Some(6)));
    // Stage 1. Question 1 (united, states, gain, independence): doc 2 has 3
    // of the words, doc 1 one, doc 3 none but numbers → pool 2, 1, 3;
    // relevant 1 and 2: P@10 2/3, R 1, NDCG 1 (both on top), F1 0.8.
    // Question 2 (cats, eat): doc 1 has both, doc 3 cats, doc 2 none and no
    // number (left out) → pool 1, 3, both relevant: P = R = NDCG = F1 = 1.
    let all = "all on";
    close(metric(&r, all, "precision_at_k"), (2.0 / 3.0 + 1.0) / 2.0, "P@10");
    close(metric(&r, all, "recall_at_k"), 1.0, "R@10");
    close(metric(&r, all, "f1_at_k"), 0.9, "F1@10");
    close(metric(&r, all, "ndcg_at_k"), 1.0, "NDCG@10");
    // Stage 5. Cited claims 0–5; 0, 1, 2 (question 1) corrupted: [1]→[2],
    // [2]→[3], [3]→[1]. Before: 3 right, 3 wrong: P = R = F1 = 1/2.
    // Correction replaces each corrupted one by the doc holding its words
    // (restored 3 of 3); keeps 3 and 4; claim 5 cites doc 2, which stage 1
    // left out of the pool: NEI, no other doc holds over half its words →
    // REMOVE (a correct citation broken: 1 of 3). After: tp 5, fp 0, fn 1 →
    // P 1, R 5/6, F1 10/11; changed 4 of 6.
    close(metric(&r, all, "citation_f1_before"), 0.5, "before");
    close(metric(&r, all, "citation_precision"), 1.0, "after P");
    close(metric(&r, all, "citation_recall"), 5.0 / 6.0, "after R");
    close(metric(&r, all, "citation_f1"), 10.0 / 11.0, "after F1");
    close(metric(&r, all, "correction_accuracy"), 1.0, "restored");
    close(metric(&r, all, "false_positive_rate"), 1.0 / 3.0, "broken");
    close(metric(&r, all, "correction_rate"), 4.0 / 6.0, "changed");
    // Stage 1 off: whole docs in file order. Question 2's pool 1, 2, 3 with
    // 2 irrelevant: DCG 1 + 1/log2(4) = 1.5, ideal 1 + 1/log2(3) → NDCG
    // mean (1 + 1.5/(1 + 1/log2 3))/2; doc 2 in the pool: claim 5 kept, so
    // nothing broken and every citation right.
    let off = "enable_evidence_preselection off";
    close(metric(&r, off, "precision_at_k"), 2.0 / 3.0, "P@10");
    close(metric(&r, off, "ndcg_at_k"), (1.0 + 1.5 / (1.0 + 1.0 / 3f64.log2())) / 2.0, "NDCG@10");
    close(metric(&r, off, "false_positive_rate"), 0.0, "broken");
    close(metric(&r, off, "citation_f1"), 1.0, "after F1");
    // Stage 5 off: citations as given: after = before, nothing restored.
    let off = "enable_citation_correction off";
    close(metric(&r, off, "citation_f1"), 0.5, "after F1");
    close(metric(&r, off, "correction_accuracy"), 0.0, "restored");
    close(metric(&r, off, "correction_rate"), 0.0, "changed");
    // McNemar on "the citations after correction are the output's own":
    // all on ✓ for claims 0–4, ✗ for 5. Stage 5 off: 0–2 keep their
    // corruption (✗), 3–5 ✓ → b 3 (0, 1, 2), c 1 (5): n 4, P(X ≤ 1) =
    // (1 + 4)/16, p = 10/16. Stage 1 off: all six ✓ → b 0, c 1, p 1.
    // Stage 5 off: the spec's paired t-test on that outcome, 1 ✓ 0 ✗:
    // differences 1 1 1 0 0 −1, mean 1/3, squares 3·(2/3)² + 2·(1/3)² +
    // (4/3)² = 10/3, variance 2/3, standard error √(2/3/6) = 1/3: t = 1,
    // df 5; p = 2·P(T₅ > 1) = 0.36321… (scipy.stats.ttest_rel([1,1,1,1,1,0],
    // [0,0,0,1,1,1]).pvalue = 0.363217…).
    let (name, t, df, p) = test(&r, off);
    assert_eq!((name.as_str(), df), ("paired_t_test", Some(5.0)));
    close(t, 1.0, "t");
    assert!((p - 0.363_217_2).abs() < 1e-6, "{p}");
    // Stage 1 off: McNemar, all six ✓ → b 0, c 1, p 1.
    assert_eq!(mcnemar(&r, "enable_evidence_preselection off"), (0, 1, 1.0, true));
}

#[test]
fn the_table_shows_stages_and_ablation() {
    let o = run(&["eval", "--dataset", "alce", "--input", &data("alce_result.json")]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("ALCE: 2 items, 6 claims; k = 10"), "{text}");
    assert!(text.contains("\nstage 5 citation correction"), "{text}");
    let header = text.lines().find(|l| l.trim_start().starts_with("metric ")).unwrap();
    for column in ["all on", "-evidence", "-confidence", "-citation", "-numeric", "-nei", "-abstention"] {
        assert!(header.contains(column), "{header}");
    }
    // 10/11 printed to 4 places in the all-on column
    let row = text.lines().find(|l| l.trim_start().starts_with("citation_f1 ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("0.9091"), "{row}");
    // the tests' rows: "-" for all on, then §7.5's test per toggle
    let cells = |name: &str| {
        let row = text.lines().find(|l| l.trim_start().starts_with(&format!("{name} "))).unwrap();
        row.split_whitespace().skip(1).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(cells("test"), ["-", "mcnemar", "t_test", "paired_t_test", "mcnemar", "chi2", "mcnemar"]);
    assert_eq!(cells("mcnemar_b_c"), ["-", "0/1", "-", "-", "0/0", "-", "0/0"]);
    // stage 5 off: t = 1, df 5, p 0.3632 (alce_by_hand); McNemar exact: no
    // statistic, no df
    assert_eq!(cells("statistic")[3], "1.0000");
    assert_eq!(cells("df")[3..5], ["5", "-"]);
    assert_eq!(cells("p_value")[3], "0.3632");
}

#[test]
fn bad_input_is_exit_2_naming_file_line_and_field() {
    let dir = TempDir::new("eval");
    let good = std::fs::read_to_string(data("fever_claims.jsonl")).unwrap();
    let bad = dir.write(
        "claims.jsonl",
        format!(
            "{good}{{\"id\": 9, \"label\": \"SUPPORTS\", \"claim\": \"x\", \"evidence\": [[[1, 2, \"P\", \"0\"]]]}}\n"
        ),
    );
    let o = run(&["eval", "--dataset", "fever", "--input", path(&bad), "--sources", &data("fever_pages.jsonl")]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("claims.jsonl line 6: ") && err.contains("$.evidence[0][0][3]"), "{err}");
    // a RAGTruth span whose text is not the response's, with code points
    // counted past an emoji and CJK: "😀 北京 ok." [2, 4) is "北京"
    let resp = dir.write(
        "r.jsonl",
        "{\"id\": \"1\", \"source_id\": \"s1\", \"response\": \"😀 北京 ok.\", \"labels\": [{\"start\": 2, \"end\": 4, \"text\": \"北\", \"label_type\": \"t\"}]}\n",
    );
    let o = run(&[
        "eval",
        "--dataset",
        "ragtruth",
        "--input",
        path(&resp),
        "--sources",
        &data("ragtruth_source_info.jsonl"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("r.jsonl line 1: ") && err.contains("is not the response at [2, 4): \"北京\""), "{err}");
    assert!(err.contains("$.labels[0].text"), "{err}");
    // the right text passes
    let resp = dir.write(
        "r2.jsonl",
        "{\"id\": \"1\", \"source_id\": \"s1\", \"response\": \"😀 北京 ok.\", \"labels\": [{\"start\": 2, \"end\": 4, \"text\": \"北京\", \"label_type\": \"t\"}]}\n",
    );
    let o = run(&[
        "eval",
        "--dataset",
        "ragtruth",
        "--input",
        path(&resp),
        "--sources",
        &data("ragtruth_source_info.jsonl"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    // flags
    for (args, says) in [
        (vec!["--dataset", "squad", "--input", "x"], "unknown --dataset"),
        (vec!["--dataset", "alce", "--input", "x", "--format", "xml"], "unknown --format"),
        (vec!["--dataset", "ragtruth", "--input", "x"], "exactly one source_info.jsonl"),
        (vec!["--dataset", "alce", "--input", "x", "--sources", "y"], "--sources: none"),
    ] {
        let mut all = vec!["eval"];
        all.extend(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{says}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{says}: {}", String::from_utf8_lossy(&o.stderr));
    }
    // a page the claims name but no pages file holds
    let pages = dir.write(
        "pages.jsonl",
        "{\"id\": \"Paris\", \"text\": \"\", \"lines\": \"0\\tParis is the capital of France .\"}\n",
    );
    let o = run(&["eval", "--dataset", "fever", "--input", &data("fever_claims.jsonl"), "--sources", path(&pages)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is in none of the pages files"));
}
