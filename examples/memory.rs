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
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = CURRENT.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn mb(n: usize) -> String {
    format!("{:.1} MB", n as f64 / 1e6)
}

/// Peak heap while `f` runs, above what was allocated when it started.
fn peak_of<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    let peak = PEAK.load(Relaxed);
    println!(
        "{what:<46} peak heap {:>8} (+{} over the {} held before), held after {}",
        mb(peak),
        mb(peak - base),
        mb(base),
        mb(CURRENT.load(Relaxed))
    );
    out
}

fn vm_hwm() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| "n/a".into())
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
        mb(CURRENT.load(Relaxed))
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
    println!("peak RSS (VmHWM) of this process: {}", vm_hwm());
}
