//! Native side of `scripts/bench-scaling.mjs`: times the whole job on a
//! source file and a claims file and prints the median in milliseconds,
//! the peak heap in bytes (a counting global allocator, over the warm-up
//! and the timed runs) and the peak RSS in bytes (`VmHWM` of
//! `/proc/self/status`, 0 where there is none), space-separated. Up to 1000
//! claims (what one call takes, spec 000 §2.1) that is one
//! `validate_evidence` call (parsing the claims, reading and indexing the
//! document, matching, the report); more go in batches of 1000 to
//! `validate_document` on one `Document`, built in the timed part, as the
//! Node side does. The config is the default with the document and memory
//! limits raised (the bench's 50 MB document), as on the Node side.
//!
//! `cargo run --release --example scaling SOURCE CLAIMS [RUNS]`
use evidence_validator::host::FixedClock;
use evidence_validator::validate::{self, ClaimSet, Config};
use evidence_validator::{Document, Format};
use serde_json::{json, Value};
#[path = "support/counting.rs"]
mod counting;

const BATCH: usize = 1000;

/// The bench's config: the defaults, with room for its 50 MB document.
fn config_json() -> Value {
    json!({"performance_limits": {"max_document_size_mb": 64, "max_memory_mb": 4096}})
}

fn run(source: &str, claims: &Value) -> Result<usize, Box<dyn std::error::Error>> {
    let all = claims["claims"].as_array().ok_or("no claims")?;
    if all.len() <= BATCH {
        let report = validate::validate_evidence(source, claims, &config_json(), &FixedClock(0.0))?;
        return Ok(report.validated_claims.len());
    }
    let format = claims["source_metadata"]["format"].as_str().and_then(Format::from_name);
    let doc = Document::new(source, format)?;
    let config = Config::from_json(&config_json())?;
    let mut validated = 0;
    for part in all.chunks(BATCH) {
        let set = ClaimSet::from_json(&json!({"source_metadata": claims["source_metadata"], "claims": part}))?;
        validated += validate::validate_document(&doc, &set.claims, &config, &FixedClock(0.0))?.validated_claims.len();
    }
    Ok(validated)
}

/// Peak resident set size in bytes (`VmHWM`), 0 where `/proc` has none.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(source), Some(claims)) = (args.get(1), args.get(2)) else {
        return Err("usage: scaling SOURCE CLAIMS [RUNS]".into());
    };
    let runs: usize = args.get(3).map(|r| r.parse()).transpose()?.unwrap_or(5);
    let source = std::fs::read_to_string(source)?;
    let claims: Value = serde_json::from_str(&std::fs::read_to_string(claims)?)?;
    // the inputs themselves are not the validation's memory
    let before = counting::start_peak();
    // warm-up: the first call pays for page faults the later ones do not
    run(&source, &claims)?;
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        std::hint::black_box(run(&source, &claims)?);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    println!("{median:.2} {} {}", counting::peak().saturating_sub(before), counting::peak_rss().unwrap_or(0));
    Ok(())
}
