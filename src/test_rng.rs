//! Seeded generators for the unit tests that generate inputs, and the one
//! way they run a Python oracle.

/// `next(n)` is a pseudo-random number below `n`, the same sequence for the
/// same seed on every platform (xorshift).
pub(crate) fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// The hostile pieces that every random text of the tests draws from,
/// besides a test's own ([`with_hostile`]): emoji (one, with a skin tone, a
/// ZWJ family, a flag), CJK, combining marks (after a letter and alone),
/// curly quotes and CRLF.
pub(crate) const HOSTILE: &[&str] = &[
    "\u{1F600}",
    "\u{1F44D}\u{1F3FD}",
    "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
    "\u{1F1EB}\u{1F1F7}",
    "\u{4E2D}",
    "\u{6587}\u{5B57}",
    "e\u{301}",
    "\u{301}",
    "\u{2018}",
    "\u{2019}",
    "\u{201C}",
    "\u{201D}",
    "\r\n",
];

/// [`HOSTILE`] and then a test's `own` pieces: the alphabet of its random
/// texts ([`text_of`]).
pub(crate) fn with_hostile<'a>(own: &[&'a str]) -> Vec<&'a str> {
    HOSTILE.iter().chain(own).copied().collect()
}

/// `n` of `pieces`, each drawn by `next` (a number below its argument:
/// [`below`], or a [`SplitMix64`]'s `below`), in one string.
pub(crate) fn text_of(next: &mut impl FnMut(usize) -> usize, pieces: &[&str], n: usize) -> String {
    (0..n).map(|_| pieces.get(next(pieces.len())).copied().unwrap_or("")).collect()
}

/// The most pieces a random text of case number `case` has: empty to
/// long in turn (below 3, 12, 60, 600).
pub(crate) fn most_pieces(case: usize) -> usize {
    match case % 4 {
        0 => 3,
        1 => 12,
        2 => 60,
        _ => 600,
    }
}

/// SplitMix64: a small deterministic generator (no outside randomness),
/// for the tests natively and in wasm (some of its methods only the
/// native tests use).
pub(crate) struct SplitMix64(pub(crate) u64);

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-ish in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform-ish in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// One of `items` (not empty).
    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Runs `script` in one `python3` process on `input` (a JSON file named by
/// `sys.argv[1]`); the script writes its answer as JSON to `sys.argv[2]`.
/// Returns that answer and what the script printed. The oracle is required:
/// a missing `python3` fails the calling test (CI installs it), it never
/// passes unchecked. `name` tells the temporary files apart.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn run_python(name: &str, script: &str, input: &serde_json::Value) -> (serde_json::Value, String) {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let in_path = dir.join(format!("{name}_in_{pid}.json"));
    let out_path = dir.join(format!("{name}_out_{pid}.json"));
    std::fs::write(&in_path, serde_json::to_string(input).unwrap()).unwrap();
    let run = std::process::Command::new("python3").arg("-c").arg(script).arg(&in_path).arg(&out_path).output();
    let _ = std::fs::remove_file(&in_path);
    let run = run.unwrap_or_else(|e| panic!("cannot run python3, the oracle of {name} ({e}): install python3"));
    assert!(run.status.success(), "python3 failed: {}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out_path).unwrap();
    let _ = std::fs::remove_file(&out_path);
    (serde_json::from_str(&text).unwrap(), String::from_utf8_lossy(&run.stdout).trim().to_string())
}
