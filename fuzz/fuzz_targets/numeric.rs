//! `cargo +nightly fuzz run numeric`: see `targets::numeric` in tests/invariants/targets.rs.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = invariants::targets::numeric(data) {
        panic!("{e}");
    }
});
