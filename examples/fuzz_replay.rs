//! Runs fuzz-target inputs through their target natively (no libFuzzer, no
//! coverage instrumentation), to profile one execution:
//!   cargo build --release --example fuzz_replay
//!   valgrind --tool=callgrind target/release/examples/fuzz_replay TARGET RUNS FILE…
//! Prints each file's result and the instructions are callgrind's to count.
#[path = "../tests/invariants/mod.rs"]
mod invariants;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, runs, files @ ..] = args.as_slice() else {
        eprintln!("usage: fuzz_replay TARGET RUNS FILE…");
        std::process::exit(2);
    };
    let Some((_, target)) = invariants::targets::ALL.iter().find(|(n, _)| n == name) else {
        eprintln!("no target {name}");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().unwrap_or(1);
    let mut failed = false;
    for f in files {
        let data = std::fs::read(f).unwrap_or_default();
        let t = std::time::Instant::now();
        let mut r = Ok(());
        for _ in 0..runs {
            r = target(&data);
        }
        let per = t.elapsed().as_secs_f64() * 1e6 / runs.max(1) as f64;
        println!("{f}\t{} bytes\t{per:.0} µs/run\t{}", data.len(), if r.is_ok() { "ok" } else { "FAILED" });
        if let Err(e) = r {
            failed = true;
            eprintln!("{e}");
        }
    }
    std::process::exit(i32::from(failed));
}
