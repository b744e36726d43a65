//! Peak memory of the benchmark workload natively: a counting global
//! allocator reports the peak heap of each stage, and `/proc/self/status`
//! gives the process's peak RSS (VmHWM).
//!
//! `cargo run --release --example memory [claims-file] [source-file]`
//! (defaults: the 1000 claims and 978 KB document of `benches/data/`;
//! `EV_FORMAT=markdown` or `plain_text` overrides the declared format).
use evidence_validator::host::FixedClock;
use evidence_validator::text::Profile;
use evidence_validator::validate;
use evidence_validator::Document;
#[path = "support/counting.rs"]
mod counting;

fn mb(n: usize) -> String {
    format!("{:.1} MB", n as f64 / 1e6)
}

/// Peak heap while `f` runs, above what was allocated when it started.
fn peak_of<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let base = counting::start_peak();
    let out = f();
    let peak = counting::peak();
    println!(
        "{what:<46} peak heap {:>8} (+{} over the {} held before), held after {}",
        mb(peak),
        mb(peak - base),
        mb(base),
        mb(counting::current())
    );
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let claims_text = match args.get(1) {
        Some(p) => std::fs::read_to_string(p).expect("claims file"),
        None => include_str!("../benches/data/claims-1000.json").to_string(),
    };
    let source = match args.get(2) {
        Some(p) => std::fs::read_to_string(p).expect("source file"),
        None => include_str!("../benches/data/rust-book.md").to_string(),
    };
    let mut claims: serde_json::Value = serde_json::from_str(&claims_text).unwrap();
    // EV_FORMAT=markdown|plain_text overrides the format the claims declare
    if let Ok(f) = std::env::var("EV_FORMAT") {
        claims["source_metadata"]["format"] = serde_json::Value::from(f);
    }
    let format = claims["source_metadata"]["format"].as_str().and_then(evidence_validator::Format::from_name);
    println!(
        "source {} bytes ({:?}), {} claims; inputs hold {}",
        source.len(),
        format,
        claims["claims"].as_array().map_or(0, Vec::len),
        mb(counting::current())
    );
    let report = peak_of("validate_evidence (whole call)", || {
        validate::validate_evidence(&source, &claims, &serde_json::Value::Null, &FixedClock(0.0)).unwrap()
    });
    drop(report);
    let doc = peak_of("Document::new", || Document::new(source.as_str(), format).unwrap());
    peak_of("  + normalized text (default profile)", || doc.normalized_text(Profile::default()).len());
    let parsed = validate::ClaimSet::from_json(&claims).unwrap();
    peak_of("  + validate_document (builds the token index, chunks)", || {
        validate::validate_document(&doc, &parsed.claims, &validate::Config::default(), &FixedClock(0.0)).unwrap()
    });
    println!("Document::heap_bytes with its indexes: {}", mb(doc.heap_bytes()));
    println!("peak RSS (VmHWM) of this process: {}", counting::peak_rss().map_or_else(|| "n/a".into(), mb));
}
