//! Native side of `scripts/bench-scaling.mjs`: times the whole job on a
//! source file and a claims file and prints the median in milliseconds.
//! Up to 1000 claims (what one call takes, spec 000 §2.1) that is one
//! `validate_evidence` call (parsing the claims, reading and indexing the
//! document, matching, the report); more go in batches of 1000 to
//! `validate_document` on one `Document`, built in the timed part, as the
//! Node side does.
//!
//! `cargo run --release --example scaling SOURCE CLAIMS [RUNS]`
use evidence_validator::host::FixedClock;
use evidence_validator::validate::{self, ClaimSet, Config};
use evidence_validator::{Document, Format};
use serde_json::{json, Value};

const BATCH: usize = 1000;

fn run(source: &str, claims: &Value) -> Result<usize, Box<dyn std::error::Error>> {
    let all = claims["claims"].as_array().ok_or("no claims")?;
    if all.len() <= BATCH {
        let report = validate::validate_evidence(source, claims, &Value::Null, &FixedClock(0.0))?;
        return Ok(report.validated_claims.len());
    }
    let format = claims["source_metadata"]["format"].as_str().and_then(Format::from_name);
    let doc = Document::new(source, format)?;
    let config = Config::default();
    let mut validated = 0;
    for part in all.chunks(BATCH) {
        let set = ClaimSet::from_json(&json!({"source_metadata": claims["source_metadata"], "claims": part}))?;
        validated += validate::validate_document(&doc, &set.claims, &config, &FixedClock(0.0))?.validated_claims.len();
    }
    Ok(validated)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(source), Some(claims)) = (args.get(1), args.get(2)) else {
        return Err("usage: scaling SOURCE CLAIMS [RUNS]".into());
    };
    let runs: usize = args.get(3).map(|r| r.parse()).transpose()?.unwrap_or(5);
    let source = std::fs::read_to_string(source)?;
    let claims: Value = serde_json::from_str(&std::fs::read_to_string(claims)?)?;
    // warm-up: the first call pays for page faults the later ones do not
    run(&source, &claims)?;
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        std::hint::black_box(run(&source, &claims)?);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!("{:.2}", times[times.len() / 2]);
    Ok(())
}
