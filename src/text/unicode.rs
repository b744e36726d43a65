//! Unicode normalization (NFC, NFKC), canonical combining classes and
//! combining marks: what the crate used `unicode-normalization` 0.1.26 for,
//! with the same results and smaller data.
//!
//! Why: that crate's perfect-hash tables are 128 KB of the `.wasm` (65 KB
//! gzipped, hash-ordered data that compresses poorly), the largest single
//! item of the npm package. The same data is kept here in `unicode.bin`
//! (sorted, delta- and varint-coded: 41 KB, 19 KB gzipped), decoded
//! once into sorted vectors on first use and searched by binary search.
//!
//! Sameness: `unicode.bin` is generated from `unicode-normalization` itself
//! (now a dev-dependency) by the tests below, which also compare, for every
//! Unicode scalar value, the canonical and compatibility decompositions, the
//! combining class and the combining-mark property, every composition pair
//! there can be, and NFC/NFKC of many strings. The algorithm (decompose,
//! reorder each run of non-starters stably by class, recompose) is a port of
//! that crate's `Decompositions` and `Recompositions` iterators (MIT/Apache
//! 2.0, as this crate), Hangul included. To regenerate the data after
//! updating `unicode-normalization`:
//! `EV_WRITE_UNICODE_TABLES=1 cargo test --lib text::unicode`.

use std::sync::OnceLock;

static BLOB: &[u8] = include_bytes!("unicode.bin");

/// Full (recursive) decompositions, by code point.
struct Decompositions {
    keys: Vec<u32>,
    /// `chars[starts[i]..starts[i + 1]]` is the decomposition of `keys[i]`.
    starts: Vec<u32>,
    chars: Vec<char>,
}

impl Decompositions {
    fn get(&self, c: char) -> Option<&[char]> {
        let i = self.keys.binary_search(&(c as u32)).ok()?;
        let (&start, &end) = self.starts.get(i).zip(self.starts.get(i + 1))?;
        self.chars.get(start as usize..end as usize)
    }
}

struct Tables {
    /// (code point, class) for every class other than 0.
    ccc: Vec<(u32, u8)>,
    /// Inclusive ranges of combining marks (General_Category M).
    marks: Vec<(u32, u32)>,
    canonical: Decompositions,
    /// Only where the compatibility decomposition differs from the canonical one.
    compatibility: Decompositions,
    /// ((first, second), composite), sorted, Hangul excluded.
    compose: Vec<((u32, u32), char)>,
    /// The seconds of `compose`'s pairs that are starters (class 0), sorted:
    /// starters that compose with the char before them (U+09BE, U+0CD5, …).
    starter_seconds: Vec<u32>,
    /// Bit per block of 256 code points: set when some char of the block
    /// has a decomposition, a class other than 0, or takes part in a
    /// composition. Chars of the other blocks (CJK ideographs, most
    /// scripts) normalize to themselves without a table search.
    busy: Vec<u64>,
}

impl Tables {
    fn mark_busy(&mut self) {
        let mut busy = vec![0u64; (0x11_0000 >> 8) / 64];
        let mut set = |c: u32| {
            if let Some(w) = busy.get_mut((c >> 8) as usize / 64) {
                *w |= 1 << ((c >> 8) % 64);
            }
        };
        self.ccc.iter().for_each(|&(c, _)| set(c));
        self.canonical.keys.iter().for_each(|&c| set(c));
        self.compatibility.keys.iter().for_each(|&c| set(c));
        self.compose.iter().for_each(|&((a, b), _)| {
            set(a);
            set(b);
        });
        self.busy = busy;
    }

    #[inline]
    fn is_quiet(&self, c: u32) -> bool {
        self.busy.get((c >> 8) as usize / 64).is_none_or(|w| w & (1 << ((c >> 8) % 64)) == 0)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> u32 {
        let mut value = 0u32;
        let mut shift = 0;
        loop {
            // the embedded tables end with a complete varint (their test reads them all)
            let Some(&b) = self.bytes.get(self.pos) else {
                return value;
            };
            self.pos += 1;
            value |= u32::from(b & 0x7f) << shift;
            if b < 0x80 {
                return value;
            }
            shift += 7;
        }
    }

    /// `base` plus a zigzag-coded difference.
    fn near(&mut self, base: u32) -> u32 {
        let z = self.varint();
        let d = if z & 1 == 1 { -i64::from(z >> 1) - 1 } else { i64::from(z >> 1) };
        (i64::from(base) + d) as u32
    }

    fn decompositions(&mut self) -> Decompositions {
        let n = self.varint() as usize;
        let mut d =
            Decompositions { keys: Vec::with_capacity(n), starts: Vec::with_capacity(n + 1), chars: Vec::new() };
        let mut key = 0;
        d.starts.push(0);
        for _ in 0..n {
            key += self.varint();
            d.keys.push(key);
            let len = self.varint();
            let mut prev = key;
            for _ in 0..len {
                prev = self.near(prev);
                d.chars.push(char::from_u32(prev).unwrap_or('\u{FFFD}'));
            }
            d.starts.push(d.chars.len() as u32);
        }
        d
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut r = Reader { bytes: BLOB, pos: 0 };
        let n = r.varint() as usize;
        let mut ccc = Vec::with_capacity(n);
        let mut cp = 0;
        for _ in 0..n {
            cp += r.varint();
            ccc.push((cp, r.varint() as u8));
        }
        let n = r.varint() as usize;
        let mut marks = Vec::with_capacity(n);
        let mut end = 0;
        for _ in 0..n {
            let start = end + r.varint();
            end = start + r.varint();
            marks.push((start, end));
        }
        let canonical = r.decompositions();
        let compatibility = r.decompositions();
        let n = r.varint() as usize;
        let mut compose = Vec::with_capacity(n);
        let mut first = 0;
        for _ in 0..n {
            first += r.varint();
            let second = r.varint();
            let composite = r.near(first);
            compose.push(((first, second), char::from_u32(composite).unwrap_or('\u{FFFD}')));
        }
        let mut tables =
            Tables { ccc, marks, canonical, compatibility, compose, starter_seconds: Vec::new(), busy: Vec::new() };
        let mut seconds: Vec<u32> = tables
            .compose
            .iter()
            .map(|&((_, b), _)| b)
            .filter(|&b| tables.ccc.binary_search_by_key(&b, |&(k, _)| k).is_err())
            .collect();
        crate::sort::sort(&mut seconds);
        seconds.dedup();
        tables.starter_seconds = seconds;
        tables.mark_busy();
        tables
    })
}

/// The canonical combining class of `c` (0 for starters).
pub fn canonical_combining_class(c: char) -> u8 {
    if (c as u32) < 0x300 {
        return 0;
    }
    let tables = tables();
    if tables.is_quiet(c as u32) {
        return 0;
    }
    let t = &tables.ccc;
    t.binary_search_by_key(&(c as u32), |&(k, _)| k).ok().and_then(|i| t.get(i)).map_or(0, |e| e.1)
}

/// Whether `c` belongs, in NFKC, to the cluster of the char before it, so
/// that a normalizer working one cluster at a time must not start a new
/// cluster at `c`: a char that [`joins_as_is`], or one whose decomposition
/// starts with such a char (U+0F73 and U+FF9E, of class 0, decompose to a
/// mark; U+314F and U+FFAC, compatibility jamo, to a Hangul vowel or
/// trailing consonant).
pub fn joins_previous(c: char) -> bool {
    let s = c as u32;
    if s < 0x300 {
        return false;
    }
    if joins_as_is(c) {
        return true;
    }
    if tables().is_quiet(s) {
        return false;
    }
    let mut first = None;
    decompose(c, true, &mut |d| {
        first.get_or_insert(d);
    });
    first.is_some_and(|d| d != c && joins_as_is(d))
}

/// A non-starter (class other than 0), or a starter that composes with the
/// char before it: Hangul vowels and trailing consonants, U+09BE, U+0CD5
/// and the like.
fn joins_as_is(c: char) -> bool {
    let s = c as u32;
    if (V_BASE..V_BASE + V_COUNT).contains(&s) || (T_BASE + 1..T_BASE + T_COUNT).contains(&s) {
        return true;
    }
    let t = tables();
    !t.is_quiet(s) && (canonical_combining_class(c) != 0 || t.starter_seconds.binary_search(&s).is_ok())
}

/// Whether `c` is a combining mark (General_Category Mn, Mc or Me).
pub fn is_combining_mark(c: char) -> bool {
    let c = c as u32;
    if c < 0x300 {
        return false;
    }
    let t = &tables().marks;
    let i = t.partition_point(|&(start, _)| start <= c);
    i.checked_sub(1).and_then(|i| t.get(i)).is_some_and(|&(_, end)| c <= end)
}

// Hangul syllables (Unicode 3.12 Conjoining Jamo Behavior), as in
// unicode-normalization.
const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

fn from_u32(c: u32) -> char {
    char::from_u32(c).unwrap_or('\u{FFFD}')
}

/// Calls `emit` with the full canonical (or, with `compat`, compatibility)
/// decomposition of `c`.
fn decompose(c: char, compat: bool, emit: &mut impl FnMut(char)) {
    if c.is_ascii() {
        return emit(c);
    }
    let s = c as u32;
    if (S_BASE..S_BASE + S_COUNT).contains(&s) {
        let si = s - S_BASE;
        emit(from_u32(L_BASE + si / N_COUNT));
        emit(from_u32(V_BASE + (si % N_COUNT) / T_COUNT));
        if si % T_COUNT > 0 {
            emit(from_u32(T_BASE + si % T_COUNT));
        }
        return;
    }
    let t = tables();
    if t.is_quiet(s) {
        return emit(c);
    }
    let found = if compat { t.compatibility.get(c).or_else(|| t.canonical.get(c)) } else { t.canonical.get(c) };
    match found {
        Some(chars) => chars.iter().for_each(|&d| emit(d)),
        None => emit(c),
    }
}

/// `s` without its diacritics: each char canonically decomposed and the
/// combining marks dropped (`café` → `cafe`).
pub fn strip_marks(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        decompose(c, false, &mut |d| {
            if !is_combining_mark(d) {
                out.push(d);
            }
        });
    }
    out
}

/// The primary composite of `a` and `b`, if any.
fn compose(a: char, b: char) -> Option<char> {
    let (a, b) = (a as u32, b as u32);
    if (L_BASE..L_BASE + L_COUNT).contains(&a) && (V_BASE..V_BASE + V_COUNT).contains(&b) {
        return Some(from_u32(S_BASE + (a - L_BASE) * N_COUNT + (b - V_BASE) * T_COUNT));
    }
    if (S_BASE..S_BASE + S_COUNT).contains(&a)
        && (T_BASE + 1..T_BASE + T_COUNT).contains(&b)
        && (a - S_BASE) % T_COUNT == 0
    {
        return Some(from_u32(a + (b - T_BASE)));
    }
    let tables = tables();
    if tables.is_quiet(a) || tables.is_quiet(b) {
        return None;
    }
    let t = &tables.compose;
    t.binary_search_by_key(&(a, b), |&(k, _)| k).ok().and_then(|i| t.get(i)).map(|e| e.1)
}

/// Sorts the run of non-starters from `pending` stably by class.
fn sort_marks(decomposed: &mut [(u8, char)], pending: usize) {
    if let Some(run) = decomposed.get_mut(pending..) {
        crate::sort::sort_by(run, |a, b| a.0.cmp(&b.0));
    }
}

/// NFC (or, with `compat`, NFKC) of `s`, appended to `out`.
fn normalize(s: &str, compat: bool, out: &mut Vec<char>) {
    normalize_with(s, compat, out, &mut Vec::with_capacity(s.len()), &mut Vec::new());
}

/// [`normalize`] with scratch space kept by the caller (cleared here).
fn normalize_with(
    s: &str,
    compat: bool,
    out: &mut Vec<char>,
    decomposed: &mut Vec<(u8, char)>,
    buffer: &mut Vec<char>,
) {
    decomposed.clear();
    buffer.clear();
    // decomposition, each run of non-starters sorted stably by class
    let mut pending = 0; // start of the run of non-starters after the last starter
    for c in s.chars() {
        decompose(c, compat, &mut |d| {
            let class = canonical_combining_class(d);
            if class == 0 {
                sort_marks(decomposed, pending);
                decomposed.push((0, d));
                pending = decomposed.len();
            } else {
                decomposed.push((class, d));
            }
        });
    }
    sort_marks(decomposed, pending);

    // recomposition (unicode-normalization's Recompositions, as a loop)
    let mut composee: Option<char> = None;
    let mut last_ccc: Option<u8> = None;
    for &(class, ch) in decomposed.iter() {
        let Some(k) = composee else {
            if class != 0 {
                out.push(ch);
            } else {
                composee = Some(ch);
            }
            continue;
        };
        match last_ccc {
            None => match compose(k, ch) {
                Some(r) => composee = Some(r),
                None if class == 0 => {
                    composee = Some(ch);
                    out.push(k);
                }
                None => {
                    buffer.push(ch);
                    last_ccc = Some(class);
                }
            },
            Some(l_class) if l_class >= class => {
                // `ch` is blocked from the composee
                if class == 0 {
                    composee = Some(ch);
                    last_ccc = None;
                    out.push(k);
                    out.append(buffer);
                } else {
                    buffer.push(ch);
                    last_ccc = Some(class);
                }
            }
            Some(_) => match compose(k, ch) {
                Some(r) => composee = Some(r),
                None => {
                    buffer.push(ch);
                    last_ccc = Some(class);
                }
            },
        }
    }
    out.extend(composee);
    out.append(buffer);
}

/// Scratch space for normalizing one short string after another.
#[derive(Default)]
pub struct Scratch {
    out: Vec<char>,
    decomposed: Vec<(u8, char)>,
    buffer: Vec<char>,
}

/// The NFKC form of `s`, as chars, in `scratch`'s space (no allocation
/// once it has grown).
pub fn nfkc_in<'a>(s: &str, scratch: &'a mut Scratch) -> &'a [char] {
    scratch.out.clear();
    normalize_with(s, true, &mut scratch.out, &mut scratch.decomposed, &mut scratch.buffer);
    &scratch.out
}

/// True when the NFKC form of `c` alone (no marks after it) is `c` and
/// that is known without normalizing: chars without any decomposition
/// (most of them). False for the others, whose form may or may not differ.
pub fn nfkc_is_itself(c: char) -> bool {
    let s = c as u32;
    if c.is_ascii() || (S_BASE..S_BASE + S_COUNT).contains(&s) {
        return true;
    }
    let t = tables();
    t.is_quiet(s) || (t.canonical.get(c).is_none() && t.compatibility.get(c).is_none())
}

/// The NFC form of `s`, as chars.
pub fn nfc(s: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    normalize(s, false, &mut out);
    out
}

/// The NFKC form of `s`, as chars (the normalizer uses [`nfkc_in`]).
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn nfkc(s: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    normalize(s, true, &mut out);
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use unicode_normalization::char as un;
    use unicode_normalization::UnicodeNormalization;

    fn all_chars() -> impl Iterator<Item = char> {
        (0..=0x10FFFFu32).filter_map(char::from_u32)
    }

    fn full(c: char, compat: bool) -> Vec<char> {
        let mut v = Vec::new();
        if compat {
            un::decompose_compatible(c, |d| v.push(d));
        } else {
            un::decompose_canonical(c, |d| v.push(d));
        }
        v
    }

    fn is_hangul(c: char) -> bool {
        (S_BASE..S_BASE + S_COUNT).contains(&(c as u32))
    }

    fn put(out: &mut Vec<u8>, mut v: u32) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn put_near(out: &mut Vec<u8>, base: u32, v: u32) {
        let d = i64::from(v) - i64::from(base);
        let z = if d < 0 { ((-d - 1) as u32) << 1 | 1 } else { (d as u32) << 1 };
        put(out, z);
    }

    fn put_decompositions(out: &mut Vec<u8>, entries: &[(u32, Vec<char>)]) {
        put(out, entries.len() as u32);
        let mut key = 0;
        for (k, chars) in entries {
            put(out, k - key);
            key = *k;
            put(out, chars.len() as u32);
            let mut prev = *k;
            for &c in chars {
                put_near(out, prev, c as u32);
                prev = c as u32;
            }
        }
    }

    /// Every composition pair: a composite's canonical decomposition is that
    /// of its first part followed by that of its second, so every split of
    /// every decomposition, with every char that decomposes to each side, is
    /// tried with `unicode_normalization::char::compose`.
    fn composition_pairs() -> Vec<((u32, u32), char)> {
        use std::collections::{BTreeSet, HashMap};
        let mut by_decomposition: HashMap<Vec<char>, Vec<char>> = HashMap::new();
        let mut decomposable = Vec::new();
        for c in all_chars() {
            let d = full(c, false);
            if d.len() >= 2 && !is_hangul(c) {
                decomposable.push(d.clone());
            }
            by_decomposition.entry(d).or_default().push(c);
        }
        let mut pairs = BTreeSet::new();
        for d in decomposable {
            for split in 1..d.len() {
                let (Some(xs), Some(ys)) = (by_decomposition.get(&d[..split]), by_decomposition.get(&d[split..]))
                else {
                    continue;
                };
                for &x in xs {
                    for &y in ys {
                        if let Some(c) = un::compose(x, y) {
                            pairs.insert(((x as u32, y as u32), c));
                        }
                    }
                }
            }
        }
        // Hangul is composed by rule, not by table
        pairs.into_iter().filter(|&(_, c)| !is_hangul(c)).collect()
    }

    fn generate() -> Vec<u8> {
        let mut out = Vec::new();
        let ccc: Vec<(u32, u8)> =
            all_chars().map(|c| (c as u32, un::canonical_combining_class(c))).filter(|&(_, k)| k != 0).collect();
        put(&mut out, ccc.len() as u32);
        let mut prev = 0;
        for &(c, k) in &ccc {
            put(&mut out, c - prev);
            put(&mut out, u32::from(k));
            prev = c;
        }
        let mut marks: Vec<(u32, u32)> = Vec::new();
        for c in all_chars().filter(|&c| un::is_combining_mark(c)) {
            let c = c as u32;
            match marks.last_mut() {
                Some((_, end)) if *end + 1 == c => *end = c,
                _ => marks.push((c, c)),
            }
        }
        put(&mut out, marks.len() as u32);
        let mut end = 0;
        for &(s, e) in &marks {
            put(&mut out, s - end);
            put(&mut out, e - s);
            end = e;
        }
        let relevant = |c: char| !c.is_ascii() && !is_hangul(c);
        let canonical: Vec<(u32, Vec<char>)> = all_chars()
            .filter(|&c| relevant(c))
            .map(|c| (c as u32, full(c, false)))
            .filter(|(c, d)| d[..] != [char::from_u32(*c).unwrap()])
            .collect();
        put_decompositions(&mut out, &canonical);
        let compatibility: Vec<(u32, Vec<char>)> = all_chars()
            .filter(|&c| relevant(c))
            .map(|c| (c as u32, full(c, true)))
            .filter(|(c, d)| *d != full(char::from_u32(*c).unwrap(), false))
            .collect();
        put_decompositions(&mut out, &compatibility);
        let pairs = composition_pairs();
        put(&mut out, pairs.len() as u32);
        let mut first = 0;
        for &((a, b), c) in &pairs {
            put(&mut out, a - first);
            put(&mut out, b);
            put_near(&mut out, a, c as u32);
            first = a;
        }
        out
    }

    #[test]
    fn data_is_generated_from_unicode_normalization() {
        let fresh = generate();
        if std::env::var_os("EV_WRITE_UNICODE_TABLES").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/text/unicode.bin"), &fresh).unwrap();
            return;
        }
        assert!(
            fresh == BLOB,
            "src/text/unicode.bin is stale: EV_WRITE_UNICODE_TABLES=1 cargo test --lib text::unicode"
        );
    }

    #[test]
    fn every_char_same_as_unicode_normalization() {
        for c in all_chars() {
            assert_eq!(canonical_combining_class(c), un::canonical_combining_class(c), "ccc of {c:?}");
            assert_eq!(is_combining_mark(c), un::is_combining_mark(c), "mark {c:?}");
            for compat in [false, true] {
                let mut ours = Vec::new();
                decompose(c, compat, &mut |d| ours.push(d));
                assert_eq!(ours, full(c, compat), "decomposition of {c:?} (compat {compat})");
            }
            let s = c.to_string();
            assert_eq!(nfc(&s), s.nfc().collect::<Vec<char>>(), "nfc {c:?}");
            assert_eq!(nfkc(&s), s.nfkc().collect::<Vec<char>>(), "nfkc {c:?}");
        }
    }

    #[test]
    fn nfkc_is_itself_only_when_nfkc_of_the_char_alone_is_the_char() {
        // never claims a char that changes; misses only chars that
        // decompose and compose back (À), which take the general path
        let mut itself = 0;
        for c in all_chars() {
            if nfkc_is_itself(c) {
                assert_eq!(nfkc(&c.to_string()), [c], "{:04X}", c as u32);
                itself += 1;
            }
        }
        assert!(itself > 1_000_000, "{itself}");
        for c in ['中', 'Ж', 'λ', 'ا', '가', '😀'] {
            assert!(nfkc_is_itself(c), "{c}");
        }
    }

    #[test]
    fn every_composition_pair_same_as_unicode_normalization() {
        let pairs = composition_pairs();
        assert!(pairs.len() > 900, "{} pairs", pairs.len());
        for ((a, b), c) in pairs {
            let (a, b) = (char::from_u32(a).unwrap(), char::from_u32(b).unwrap());
            assert_eq!(compose(a, b), Some(c));
        }
        // Hangul by rule, and pairs that do not compose
        for (a, b) in [
            ('\u{1100}', '\u{1161}'),
            ('\u{AC00}', '\u{11A8}'),
            ('\u{AC00}', '\u{11A7}'),
            ('\u{AC01}', '\u{11A8}'),
            ('e', '\u{301}'),
            ('\u{212B}', '\u{301}'),
            ('a', 'b'),
            ('\u{301}', 'e'),
        ] {
            assert_eq!(compose(a, b), un::compose(a, b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn strings_same_as_unicode_normalization() {
        // chars that decompose, compose, reorder or are Hangul jamo, mixed
        let mut pool: Vec<char> = "aeiouAEIOUcnsyzACNSYZ .-'".chars().collect();
        pool.extend(
            all_chars()
                .filter(|&c| un::canonical_combining_class(c) != 0 || full(c, true) != [c] || is_hangul(c))
                .step_by(7),
        );
        pool.extend((0x1100..0x1113).chain(0x1161..0x1176).chain(0x11A7..0x11C3).filter_map(char::from_u32));
        pool.extend([
            '\u{0300}', '\u{0301}', '\u{0308}', '\u{0323}', '\u{0327}', '\u{0345}', '\u{05B0}', '\u{0F71}', '\u{0F72}',
            '\u{0F80}', '\u{09BE}', '\u{09C7}', '\u{0B47}', '\u{0B3E}', '\u{0B57}',
        ]);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            let mut s = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for _ in 0..(x % 9) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(pool[(x % pool.len() as u64) as usize]);
            }
            assert_eq!(nfc(&s), s.nfc().collect::<Vec<char>>(), "nfc {s:?}");
            assert_eq!(nfkc(&s), s.nfkc().collect::<Vec<char>>(), "nfkc {s:?}");
        }
    }
}
