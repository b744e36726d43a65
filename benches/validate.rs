//! Criterion benchmark of issue 2 / issue 3: 1000 direct quotes (70 %
//! verbatim, 20 % with 1–3 letter edits, 10 % absent) against the ~1 MB real
//! document in `benches/data/`, with the default configuration; the whole
//! call (parsing and indexing included), and a query on a built `Document`.
//!
//! Before timing, checks the answers (every verbatim quote exact, every
//! edited one fuzzy with its edit distance, every absent one FAILED) and
//! prints the index memory.
//!
//! Issue 21 item 3: the same whole call on the two mixes of claims that are
//! not in the source (`claims-paraphrase-1000.json`,
//! `claims-shuffled-1000.json`: 800 paraphrases or shuffled sentences, 100
//! verbatim, 100 edited), side by side with the standard workload, their
//! answers checked too (a paraphrase or shuffled sentence is never
//! VALIDATED). Their peak heap: `cargo run --release --example memory --
//! benches/data/claims-paraphrase-1000.json`.

use criterion::{criterion_group, criterion_main, Criterion};
use evidence_validator::host::FixedClock;
use evidence_validator::judge::citations::parse_report;
use evidence_validator::text::Profile;
use evidence_validator::validate::{self, find_quote, ClaimSet, Config, Status};
use evidence_validator::{Document, Format};
use serde_json::Value;
use std::hint::black_box;

const SOURCE: &str = include_str!("data/rust-book.md");
const CLAIMS: &str = include_str!("data/claims-1000.json");
const PARAPHRASES: &str = include_str!("data/claims-paraphrase-1000.json");
const SHUFFLED: &str = include_str!("data/claims-shuffled-1000.json");

fn check_answers(claims: &Value, report: &validate::Report) -> usize {
    let mut wrong = 0;
    for (claim, result) in claims["claims"].as_array().unwrap().iter().zip(&report.validated_claims) {
        let kind = claim["bench"]["kind"].as_str().unwrap();
        let edits = claim["bench"]["edits"].as_u64().unwrap() as usize;
        let m = result.match_details.as_ref();
        let ok = match kind {
            "verbatim" => m.is_some_and(|m| m.edit_distance == Some(0)),
            "edited" => m.is_some_and(|m| m.edit_distance == Some(edits)),
            "paraphrase" | "shuffled" => result.validation_status != Status::Validated,
            _ => result.validation_status == Status::Failed,
        };
        if !ok {
            wrong += 1;
            eprintln!("answer differs for {} ({kind}, {edits} edits): {:?}", result.claim_id, result.validation_status);
        }
    }
    wrong
}

fn bench(c: &mut Criterion) {
    let claims_json: Value = serde_json::from_str(CLAIMS).unwrap();
    let config = Value::Null;
    let report = validate::validate_evidence(SOURCE, &claims_json, &config, &FixedClock(0.0)).unwrap();
    let wrong = check_answers(&claims_json, &report);
    eprintln!("answers checked: {} of 1000 differ from the workload's", wrong);
    // the workload declares plain_text (see benches/make_workload.py)
    let doc = Document::new(SOURCE, Some(Format::PlainText)).unwrap();
    let parsed = ClaimSet::from_json(&claims_json).unwrap();
    let cfg = Config::default();
    // a first call builds what a built Document keeps (token index, chunks)
    validate::validate_document(&doc, &parsed.claims, &cfg, &FixedClock(0.0)).unwrap();
    eprintln!("document + index heap: {:.1} MB for {} bytes of source", doc.heap_bytes() as f64 / 1e6, SOURCE.len());

    let mut group = c.benchmark_group("validate_evidence");
    group.sample_size(20);
    group.bench_function("1000 claims x 1 MB, whole call", |b| {
        b.iter(|| validate::validate_evidence(black_box(SOURCE), &claims_json, &config, &FixedClock(0.0)).unwrap())
    });
    group.bench_function("1000 claims on a built Document", |b| {
        b.iter(|| validate::validate_document(&doc, black_box(&parsed.claims), &cfg, &FixedClock(0.0)).unwrap())
    });
    group.bench_function("Document::new + normalize 1 MB", |b| {
        b.iter(|| {
            let d = Document::new(black_box(SOURCE), Some(Format::PlainText)).unwrap();
            d.normalized_text(Profile::default()).len()
        })
    });
    // one quote after another on a built Document (the browser as the user
    // types): answered from the gram index, built by the first queries
    group.bench_function("find one quote on a built Document", |b| {
        b.iter(|| {
            find_quote(&doc, black_box("the borrow checker ensures that references are valid"), Profile::default(), 3)
        })
    });
    group.bench_function("find one quote with typos on a built Document", |b| {
        b.iter(|| {
            find_quote(&doc, black_box("the borow checker ensures that refrences are valid"), Profile::default(), 3)
        })
    });
    let edited = parsed
        .claims
        .iter()
        .zip(claims_json["claims"].as_array().unwrap())
        .position(|(_, c)| c["bench"]["kind"] == "edited")
        .unwrap();
    group.bench_function("validate one edited claim on a built Document", |b| {
        b.iter(|| {
            validate::validate_document(&doc, black_box(&parsed.claims[edited..edited + 1]), &cfg, &FixedClock(0.0))
                .unwrap()
        })
    });
    group.finish();

    // the mixes of issue 21 item 3, beside the standard workload
    let mut group = c.benchmark_group("validate_evidence_mixes");
    group.sample_size(10);
    for (name, text) in [("standard", CLAIMS), ("paraphrase", PARAPHRASES), ("shuffled", SHUFFLED)] {
        let mix: Value = serde_json::from_str(text).unwrap();
        let report = validate::validate_evidence(SOURCE, &mix, &config, &FixedClock(0.0)).unwrap();
        eprintln!("{name} mix: answers checked: {} of 1000 differ from the workload's", check_answers(&mix, &report));
        group.bench_function(format!("1000 claims x 1 MB, whole call, {name} mix"), |b| {
            b.iter(|| validate::validate_evidence(black_box(SOURCE), &mix, &config, &FixedClock(0.0)).unwrap())
        });
    }
    group.finish();
}

/// Issue 13: `parseCitations` over 2000 citations took 87 s in wasm (the
/// parse was quadratic). A report of `n` citations, 40 sentences a
/// paragraph; 2000 and 20,000 citations should differ by about 10x.
fn citation_report(n: usize) -> String {
    let mut md = String::from("# Report\n\n");
    for k in 0..n {
        md.push_str(&format!("Claim {k} says \"value {k}\" [f{}.txt:L{}-L{}](f.txt). ", k % 5, k + 1, k + 2));
        if k % 40 == 39 {
            md.push_str("\n\n");
        }
    }
    md
}

fn bench_citations(c: &mut Criterion) {
    let mut group = c.benchmark_group("judge_parse_report");
    group.sample_size(10);
    for n in [2_000, 20_000] {
        let md = citation_report(n);
        let parsed = parse_report(&md);
        assert_eq!(parsed.citations.len(), n);
        assert!(parsed.citations.iter().enumerate().all(|(k, c)| c.quote == format!("value {k}")));
        group.bench_function(format!("{n} citations"), |b| b.iter(|| parse_report(black_box(&md)).citations.len()));
    }
    group.finish();
}

/// The readers (issue 20 item 5 converted their indexing to `get`): the
/// markdown and HTML readers over the ~1 MB document, and a transcript of
/// 20,000 SRT cues imported and checked (one quote from every 100th cue).
fn bench_readers(c: &mut Criterion) {
    use evidence_validator::extract::{extract_html, extract_markdown};
    use evidence_validator::transcript::{parse_transcript, EvaluationItem, InputFormat, TranscriptConfig};
    let mut group = c.benchmark_group("readers");
    group.sample_size(10);
    group.bench_function("extract_markdown 1 MB", |b| b.iter(|| extract_markdown(black_box(SOURCE)).units.len()));
    let html: String = SOURCE
        .split("\n\n")
        .map(|p| format!("<p class=\"x\">{}</p>\n", p.replace('&', "&amp;").replace('<', "&lt;")))
        .collect();
    group.bench_function("extract_html 1 MB", |b| b.iter(|| extract_html(black_box(&html)).units.len()));
    let words: Vec<&str> = SOURCE.split_whitespace().take(200_000).collect();
    let mut srt = String::new();
    for (k, cue) in words.chunks(10).enumerate().take(20_000) {
        let (s, e) = (k * 2, k * 2 + 2);
        let at = |t: usize| format!("{:02}:{:02}:{:02},000", t / 3600, t / 60 % 60, t % 60);
        srt.push_str(&format!("{}\n{} --> {}\n{}\n\n", k + 1, at(s), at(e), cue.join(" ")));
    }
    group.bench_function("parse_transcript 20,000 SRT cues", |b| {
        b.iter(|| parse_transcript(black_box(&srt), InputFormat::Srt).unwrap().text().len())
    });
    let t = parse_transcript(&srt, InputFormat::Srt).unwrap();
    let items: Vec<EvaluationItem> = words
        .chunks(10)
        .step_by(100)
        .enumerate()
        .map(|(k, c)| EvaluationItem::new(c[..6].join(" "), (k * 200) as f64))
        .collect();
    let config = TranscriptConfig::default();
    group.bench_function("validate 200 transcript items", |b| {
        b.iter(|| items.iter().filter(|i| t.validate(black_box(i), &config).passed).count())
    });
    group.finish();
}

criterion_group!(benches, bench, bench_citations, bench_readers);
criterion_main!(benches);
