//! `cargo +nightly fuzz run normalize`: see `targets::normalize` in tests/invariants/targets.rs.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = invariants::targets::normalize(data) {
        panic!("{e}");
    }
});
