//! `cargo +nightly fuzz run document`: see `targets::document` in tests/invariants/targets.rs.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = invariants::targets::document(data) {
        panic!("{e}");
    }
});
