//! `cargo +nightly fuzz run validate_json`: see `targets::validate_json` in tests/invariants/targets.rs.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = invariants::targets::validate_json(data) {
        panic!("{e}");
    }
});
