//! Times the stages of the benchmark workload separately.
use evidence_validator::matching::{exact, fuzzy};
use evidence_validator::text::{normalize, Profile};
use evidence_validator::Document;
use std::time::Instant;

fn ms(t: Instant) -> String {
    format!("{:.1} ms", t.elapsed().as_secs_f64() * 1000.0)
}

fn main() {
    let source = include_str!("../benches/data/rust-book.md");
    let claims: serde_json::Value = serde_json::from_str(include_str!("../benches/data/claims-1000.json")).unwrap();
    let quotes: Vec<String> = claims["claims"].as_array().unwrap().iter().map(|c| c["quote"].as_str().unwrap().to_string()).collect();
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    for _ in 0..runs {
        let t = Instant::now();
        let doc = Document::new(source, None).unwrap();
        eprint!("Document::new {}; ", ms(t));
        let t = Instant::now();
        let idx = doc.index(Profile::default());
        eprint!("normalize {}; ", ms(t));
        let t = Instant::now();
        let _ = idx.tokens();
        eprint!("tokens {}; ", ms(t));
        let t = Instant::now();
        let nq: Vec<String> = quotes.iter().map(|q| normalize::normalize_units(doc.format().units(q), Profile::default())).collect();
        eprint!("quotes {}; ", ms(t));
        let t = Instant::now();
        let refs: Vec<&str> = nq.iter().map(String::as_str).collect();
        let hits = exact::find_all(idx.text(), &refs);
        eprint!("exact {}; ", ms(t));
        let t = Instant::now();
        let qs: Vec<fuzzy::FuzzyQuery> = nq.iter().zip(&hits).filter(|(_, h)| h.is_empty()).map(|(q, _)| fuzzy::FuzzyQuery { pattern: q, max_distance: 3 }).collect();
        let f = fuzzy::find_all(idx.text(), &qs);
        eprintln!("fuzzy ({} queries, {} hits) {}", qs.len(), f.len(), ms(t));
    }
}
