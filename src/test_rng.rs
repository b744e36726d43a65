//! A seeded xorshift for the unit tests that generate inputs.

/// `next(n)` is a pseudo-random number below `n`, the same sequence for the
/// same seed on every platform.
pub(crate) fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
