//! Runs one stage of the benchmark workload `n` times, for instruction
//! counts per stage: `perf stat -e instructions:u target/release/examples/stages STAGE n`
//! minus the same with `n = 0` (which only prepares the inputs), divided by
//! `n`. `EV_FORMAT=markdown` or `plain_text` overrides the format the
//! workload declares.
//!
//! Stages: none, extract (markdown units), normalize-md (units → normalized
//! text with map), normalize-plain, document (Document::new, default index
//! included), quotes (normalizing the 1000 quotes), validate (on a built
//! Document), whole (validate_evidence), find and find-fuzzy (one quote on a
//! built Document, found exactly / within 3 edits), one, one-fuzzy and
//! one-absent (validate_document with one verbatim / edited / absent claim
//! on a built Document that has answered claims before), report (one
//! whole call, its report's JSON written to stdout, to compare answers
//! between builds), sliced (the whole call in steps, `SlicedValidation`
//! with the default slice options, as the edge worker makes it, or
//! `EV_STEP_BYTES` source bytes a build step (a search part is 4 steps'); the
//! longest step's wall time on stderr) and report-sliced (its report's
//! JSON, which is report's).
//!
//! `EV_CLAIMS=paraphrase` or `shuffled` runs the mixes of issue 21 item 3
//! (`benches/data/claims-NAME-1000.json`) instead of the standard workload.
//!
//! The matchers inside `validate` (token index, the exact pass over all
//! quotes, the fuzzy search) are the library's internals, not its API:
//! count them with `valgrind --tool=callgrind` on the `validate` stage
//! (callgrind_annotate lists them by function).
use evidence_validator::extract::extract_markdown;
use evidence_validator::host::FixedClock;
use evidence_validator::text::{Normalized, Profile};
use evidence_validator::validate::{self, find_quote, ClaimSet, Config, SliceOptions, SlicedValidation};
use evidence_validator::{Document, Format};
use std::hint::black_box;

thread_local! {
    static STEP_MIN: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn main() {
    let source = include_str!("../benches/data/rust-book.md");
    let claims_text = match std::env::var("EV_CLAIMS") {
        Ok(mix) => {
            std::fs::read_to_string(format!("{}/benches/data/claims-{mix}-1000.json", env!("CARGO_MANIFEST_DIR")))
                .expect("EV_CLAIMS names a mix in benches/data/")
        }
        Err(_) => include_str!("../benches/data/claims-1000.json").to_string(),
    };
    let mut claims_json: serde_json::Value = serde_json::from_str(&claims_text).unwrap();
    // EV_FORMAT=markdown|plain_text overrides the workload's declared format
    if let Ok(f) = std::env::var("EV_FORMAT") {
        claims_json["source_metadata"]["format"] = serde_json::Value::from(f);
    }
    let format = Format::from_name(claims_json["source_metadata"]["format"].as_str().unwrap_or("markdown"));
    let quotes: Vec<String> =
        claims_json["claims"].as_array().unwrap().iter().map(|c| c["quote"].as_str().unwrap().to_string()).collect();
    let args: Vec<String> = std::env::args().collect();
    let stage = args.get(1).map_or("none", String::as_str);
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let p = Profile::default();
    // inputs every stage may need, prepared before the measured loop
    let needs_doc =
        !matches!(stage, "none" | "extract" | "normalize-md" | "normalize-plain" | "document" | "whole" | "report")
            && !stage.contains("sliced");
    let doc = needs_doc.then(|| Document::new(source, format).unwrap());
    let units = (stage == "normalize-md").then(|| extract_markdown(source).units);
    let claims = ClaimSet::from_json(&claims_json).unwrap();
    let config = Config::default();
    let kinds: Vec<String> = claims_json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["bench"]["kind"].as_str().unwrap_or("").to_string())
        .collect();
    if stage.starts_with("one") {
        // the first call builds what a built Document keeps (word count, token index)
        let d = doc.as_ref().unwrap();
        for i in 0..claims.claims.len().min(200) {
            let _ = validate::validate_document(d, &claims.claims[i..i + 1], &config, &FixedClock(0.0));
        }
    }
    let t = std::time::Instant::now();
    for _ in 0..n {
        match stage {
            "none" => {}
            "extract" => {
                black_box(extract_markdown(black_box(source)).units.len());
            }
            "normalize-md" => {
                black_box(Normalized::from_units(units.as_ref().unwrap().iter().copied(), p).as_str().len());
            }
            "normalize-plain" => {
                black_box(Normalized::from_plain(black_box(source), p).as_str().len());
            }
            "document" => {
                let d = Document::new(black_box(source), format).unwrap();
                black_box(d.normalized_text(p).len());
            }
            "quotes" => {
                let d = doc.as_ref().unwrap();
                for q in &quotes {
                    black_box(Normalized::from_units(d.format().units(q), p).as_str().len());
                }
            }
            "validate" => {
                black_box(
                    validate::validate_document(doc.as_ref().unwrap(), &claims.claims, &config, &FixedClock(0.0))
                        .unwrap(),
                );
            }
            "report" => {
                let report =
                    validate::validate_evidence(source, &claims_json, &serde_json::Value::Null, &FixedClock(0.0))
                        .unwrap();
                println!("{}", serde_json::to_string_pretty(&report).unwrap());
            }
            "whole" => {
                black_box(
                    validate::validate_evidence(source, &claims_json, &serde_json::Value::Null, &FixedClock(0.0))
                        .unwrap(),
                );
            }
            "sliced" | "report-sliced" => {
                let (null, clock) = (serde_json::Value::Null, FixedClock(0.0));
                let mut options = SliceOptions::default();
                if let Some(bytes) = std::env::var("EV_STEP_BYTES").ok().and_then(|b| b.parse().ok()) {
                    options.bytes_per_step = bytes;
                }
                let mut v = SlicedValidation::new(source, &claims_json, &null, options, &clock).unwrap();
                // (ms, step, claims done before it)
                let mut times: Vec<(f64, usize, usize)> = Vec::new();
                loop {
                    let before = v.claims_done();
                    let t = std::time::Instant::now();
                    let done = v.step();
                    times.push((t.elapsed().as_secs_f64() * 1000.0, times.len(), before));
                    if done {
                        break;
                    }
                }
                let report = v.finish().unwrap();
                let steps = times.len();
                if std::env::var("EV_STEPS").is_ok() {
                    // each step's least time over the runs so far
                    let mut least = STEP_MIN.with(|m| m.take());
                    least.resize(times.len(), f64::INFINITY);
                    for (l, (ms, _, _)) in least.iter_mut().zip(&times) {
                        *l = l.min(*ms);
                    }
                    let all: Vec<String> = least.iter().map(|ms| format!("{ms:.1}")).collect();
                    eprintln!("{}", all.join(" "));
                    STEP_MIN.with(|m| m.replace(least));
                }
                times.sort_by(|a, b| b.0.total_cmp(&a.0));
                let top: Vec<String> =
                    times.iter().take(4).map(|(ms, i, at)| format!("{ms:.2} ms (step {i}, claim {at})")).collect();
                eprintln!("{steps} steps, the longest {}", top.join(", "));
                if stage == "report-sliced" {
                    println!("{}", serde_json::to_string_pretty(&report).unwrap());
                }
                black_box(report);
            }
            "find" => {
                black_box(find_quote(doc.as_ref().unwrap(), "ownership rules prevent you from doing so", p, 3));
            }
            "find-fuzzy" => {
                black_box(find_quote(doc.as_ref().unwrap(), "ownershp rules prevnt you from doing so", p, 3));
            }
            "one" | "one-fuzzy" | "one-absent" => {
                let i = match stage {
                    "one" => 0,
                    "one-fuzzy" => kinds.iter().position(|k| k == "edited").unwrap_or(0),
                    _ => kinds.iter().position(|k| k == "absent").unwrap_or(0),
                };
                let one = &claims.claims[i..i + 1];
                black_box(validate::validate_document(doc.as_ref().unwrap(), one, &config, &FixedClock(0.0)).unwrap());
            }
            other => panic!("unknown stage {other}"),
        }
    }
    eprintln!("{stage}: {:.2} ms per run", t.elapsed().as_secs_f64() * 1000.0 / n.max(1) as f64);
}
