//! Replays every file of `tests/regressions/<target>/` through the fuzz
//! target of that name (`tests/invariants/targets.rs`): the inputs that once
//! broke an invariant (a fuzzer's crash file copied as it is, or a case
//! written by hand) keep holding it. A folder named after no target is an
//! error, so a renamed target cannot silently stop its replay.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use std::path::Path;

#[test]
fn every_regression_file_holds_its_targets_invariants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut failures = Vec::new();
    let mut replayed = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root).expect("tests/regressions").flatten().collect();
    dirs.sort_by_key(|d| d.file_name());
    for dir in dirs.into_iter().filter(|d| d.path().is_dir()) {
        let name = dir.file_name().to_string_lossy().into_owned();
        let Some((_, target)) = invariants::targets::ALL.iter().find(|(n, _)| *n == name) else {
            panic!("tests/regressions/{name}: no fuzz target of that name");
        };
        let mut files: Vec<_> = std::fs::read_dir(dir.path()).expect("regression folder").flatten().collect();
        files.sort_by_key(|f| f.file_name());
        for file in files.into_iter().filter(|f| f.path().is_file()) {
            let data = std::fs::read(file.path()).expect("regression file");
            replayed += 1;
            if let Err(e) = target(&data) {
                failures.push(format!("{name}/{}: {e}", file.file_name().to_string_lossy()));
            }
        }
    }
    assert!(replayed > 0, "no regression files under {}", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
