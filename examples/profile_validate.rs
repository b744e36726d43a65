//! Runs the benchmark workload a few times, for profilers:
//! `cargo build --release --example profile_validate && perf record ./target/release/examples/profile_validate`.
use evidence_validator::host::FixedClock;
use evidence_validator::validate;

fn main() {
    let source = include_str!("../benches/data/rust-book.md");
    let claims: serde_json::Value = serde_json::from_str(include_str!("../benches/data/claims-1000.json")).unwrap();
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let r = validate::validate_evidence(source, &claims, &serde_json::Value::Null, &FixedClock(0.0)).unwrap();
        eprintln!("{:.1} ms, {} validated ({:?})", t.elapsed().as_secs_f64() * 1000.0, r.validation_summary.validated_claims, r.document_metadata.format);
    }
}
