//! Helpers shared by the test files (included with `mod common;`).
#![allow(dead_code)]

use evidence_validator::extract::{Extracted, Unit};

#[path = "../invariants/mod.rs"]
mod invariants;

/// `(char, source slice)` of every unit.
pub fn spans<'s>(src: &'s str, x: &Extracted) -> Vec<(char, &'s str)> {
    x.units.iter().map(|u| (u.ch, &src[u.start as usize..u.end as usize])).collect()
}

/// The unit for the first occurrence of `ch`.
pub fn unit_of(x: &Extracted, ch: char) -> Unit {
    *x.units.iter().find(|u| u.ch == ch).unwrap_or_else(|| panic!("no unit for {ch:?}"))
}

/// Checks the invariants every extraction must satisfy (`invariants::extracted`,
/// shared with the fuzz targets). `pipes` allows `' '` units spanning a `|`
/// (markdown tables).
pub fn check_invariants(src: &str, x: &Extracted, pipes: bool) {
    if let Err(e) = invariants::extracted(src, x, pipes) {
        panic!("{e} in {src:?}");
    }
}

/// A small deterministic PRNG (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A random string built from `fragments`, random chars and random bytes.
pub fn random_input(rng: &mut Rng, fragments: &[&str], max_parts: usize) -> String {
    let parts = rng.below(max_parts + 1);
    let mut s = String::new();
    for _ in 0..parts {
        match rng.below(10) {
            0 => {
                let bytes: Vec<u8> = (0..rng.below(8)).map(|_| rng.next_u64() as u8).collect();
                s.push_str(&String::from_utf8_lossy(&bytes));
            }
            1 => s.push(char::from_u32(rng.below(0x3000) as u32).unwrap_or('\u{FFFD}')),
            2 => s.push(['é', '“', '😀', '\u{A0}', '\r', '\t', '\0'][rng.below(7)]),
            _ => s.push_str(rng.pick(fragments)),
        }
    }
    s
}
