//! Text normalization with an offset map back to the original (spec 000 §3.3,
//! extended as issue 2 asks).
//!
//! Quotes and documents are compared in a normalized form: Unicode NFKC
//! (which also expands ligatures such as `ﬁ`, turns NBSP into a space and `…`
//! into `...`), case folding, curly quotes and primes to straight quotes, every
//! dash to `-`, soft hyphens and zero-width characters removed, whitespace runs
//! collapsed to one space, and a word hyphenated across a line break joined
//! again (`evi-\ndence` becomes `evidence`).
//!
//! Every byte of the normalized text remembers the byte range of the original
//! text it came from, so a match found in the normalized text is reported as a
//! span of the original. NFKC is applied per cluster (a starter followed by its
//! combining marks), so a composed character maps to all the original
//! characters it was made from.

use crate::extract::units::Unit;
use crate::text::unicode;

/// Which normalizations apply. NFKC, quote, dash and invisible-character
/// folding always apply; case and whitespace follow the `exact_matching`
/// configuration of spec 000 §1.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Lowercase everything (`case_sensitive: false`).
    pub fold_case: bool,
    /// Collapse whitespace runs to one space and join words hyphenated across
    /// a line break (`normalize_whitespace: true`).
    pub collapse_whitespace: bool,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile { fold_case: true, collapse_whitespace: true }
    }
}

/// A normalized text and, for each of its bytes, the original byte range it
/// came from.
///
/// The map is stored as runs, not per byte (which took 8 bytes per byte of
/// text): in a *linear* run, normalized byte `norm + i` came from original
/// byte `orig + i` alone (ASCII copied or lowercased one for one, a single
/// space or newline read as a space); in a *constant* run every byte came
/// from the same original range `orig..end` (a multi-byte char, a collapsed
/// whitespace run, the chars of an NFKC expansion, an entity). Prose is
/// mostly one linear run per stretch between markup, curly quotes or double
/// spaces, so the map costs a few percent of the text instead of eight times
/// it (978 KB of markdown: 1.2 MB for text and map instead of 8.7 MB).
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    text: String,
    runs: Vec<Run>,
    /// For a long map: the run holding normalized byte `b << BLOCK_BITS`,
    /// for each `b` (see [`Normalized::run_of`]); empty for a short one.
    blocks: Vec<u32>,
}

/// [`Normalized::blocks`] has an entry every `1 << BLOCK_BITS` normalized
/// bytes.
const BLOCK_BITS: u32 = 10;

/// Maps with more runs than this get [`Normalized::blocks`].
const BLOCKED_RUNS: usize = 64;

/// Normalized bytes from `norm` up to the next run's `norm`: linear when
/// `end == 0` (byte `norm + i` is original byte `orig + i`), else all from
/// `orig..end` (never empty, so `end > 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    norm: u32,
    orig: u32,
    end: u32,
}

impl Normalized {
    /// Normalizes `units` (extracted text that knows its original offsets).
    pub fn from_units<I: IntoIterator<Item = Unit>>(units: I, profile: Profile) -> Normalized {
        let units = units.into_iter();
        let mut builder = NormalizedBuilder::new(profile, units.size_hint().0);
        let mut chunk = Vec::with_capacity(CHUNK_UNITS);
        for u in units {
            chunk.push(u);
            if chunk.len() == CHUNK_UNITS {
                builder.push_units(&chunk);
                chunk.clear();
            }
        }
        builder.push_units(&chunk);
        builder.finish()
    }

    /// Normalizes a plain string whose own byte offsets are the original ones.
    pub fn from_plain(text: &str, profile: Profile) -> Normalized {
        let mut builder = NormalizedBuilder::new(profile, text.len());
        builder.norm.push_all(&Plain(text));
        builder.finish()
    }

    /// The normalized text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The original byte range normalized byte `i` came from.
    pub fn original_of_byte(&self, i: usize) -> Option<(usize, usize)> {
        if i >= self.text.len() {
            return None;
        }
        let r = self.run_of(i)?;
        self.run_byte(r, i)
    }

    /// The last run starting at or before normalized byte `i`
    /// (`runs.partition_point(|r| r.norm <= i) - 1`): in a long map,
    /// searched for only among the runs of `i`'s block, a few cache lines
    /// instead of a search whose every step misses the cache.
    #[inline]
    fn run_of(&self, i: usize) -> Option<usize> {
        let b = i >> BLOCK_BITS;
        let (Some(&lo), true) = (self.blocks.get(b), self.runs.len() > BLOCKED_RUNS) else {
            return self.runs.partition_point(|r| r.norm as usize <= i).checked_sub(1);
        };
        let lo = lo as usize;
        // the run holding the next block's first byte is at or after `i`'s
        let hi = self.blocks.get(b + 1).map_or(self.runs.len(), |&h| h as usize + 1);
        if self.runs.get(lo).is_none_or(|r| r.norm as usize > i) {
            return None; // only before the first run
        }
        Some(lo + self.runs.get(lo + 1..hi).unwrap_or_default().partition_point(|r| r.norm as usize <= i))
    }

    /// [`Normalized::blocks`] of `runs` over `len` normalized bytes, in
    /// one walk along the runs.
    fn blocks_of(runs: &[Run], len: usize) -> Vec<u32> {
        if runs.len() <= BLOCKED_RUNS {
            return Vec::new();
        }
        let mut r = 0usize;
        (0..len.div_ceil(1 << BLOCK_BITS))
            .map(|b| {
                let first = b << BLOCK_BITS;
                while runs.get(r + 1).is_some_and(|run| run.norm as usize <= first) {
                    r += 1;
                }
                r as u32
            })
            .collect()
    }

    /// The original byte range of the non-empty normalized byte range
    /// `start..end`. `None` when the range is empty or out of bounds.
    pub fn original_range(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        if start >= end || end > self.text.len() {
            return None;
        }
        let r = self.run_of(start)?;
        let (s, _) = self.run_byte(r, start)?;
        // the run of the last byte: `r` or one after it, most often a few
        // runs on (a passage is short): walked to, then searched for
        let last = end - 1;
        let mut q = r;
        for _ in 0..8 {
            if self.runs.get(q + 1).is_none_or(|run| run.norm as usize > last) {
                break;
            }
            q += 1;
        }
        q += self.runs.get(q + 1..).unwrap_or_default().partition_point(|run| run.norm as usize <= last);
        let (_, e) = self.run_byte(q, last)?;
        (s < e).then_some((s, e))
    }

    /// [`Normalized::original_range`] of each of `ranges`, computed in one
    /// walk along the map when they ascend (each starts at or after the
    /// previous one's end, as the words of a passage do): one binary search,
    /// then the runs in between. A range that does not ascend is looked up
    /// on its own; the answers are the same either way.
    pub fn original_ranges(&self, ranges: &[(usize, usize)]) -> Vec<Option<(usize, usize)>> {
        let mut at: Option<usize> = None;
        let mut of_byte = |i: usize| -> Option<(usize, usize)> {
            if i >= self.text.len() {
                return None;
            }
            let r = match at.filter(|&r| self.runs.get(r).is_some_and(|run| run.norm as usize <= i)) {
                Some(mut r) => {
                    while self.runs.get(r + 1).is_some_and(|run| run.norm as usize <= i) {
                        r += 1;
                    }
                    r
                }
                None => self.run_of(i)?,
            };
            at = Some(r);
            self.run_byte(r, i)
        };
        ranges
            .iter()
            .map(|&(start, end)| {
                if start >= end || end > self.text.len() {
                    return None;
                }
                let (s, _) = of_byte(start)?;
                let (_, e) = of_byte(end - 1)?;
                (s < e).then_some((s, e))
            })
            .collect()
    }

    /// The original range of normalized byte `i`, which run `r` holds.
    #[inline]
    fn run_byte(&self, r: usize, i: usize) -> Option<(usize, usize)> {
        let run = self.runs.get(r)?;
        Some(if run.end == 0 {
            let s = run.orig as usize + (i - run.norm as usize);
            (s, s + 1)
        } else {
            (run.orig as usize, run.end as usize)
        })
    }

    /// Bytes of memory held (text and map), for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity() + std::mem::size_of::<Run>() * self.runs.capacity() + 4 * self.blocks.capacity()
    }
}

/// Builds a [`Normalized`] from units given a slice at a time, so that an
/// extractor can hand its units over as it produces them instead of
/// collecting them all first.
pub struct NormalizedBuilder {
    norm: Normalizer<MapSink>,
}

impl NormalizedBuilder {
    /// A builder for about `capacity` bytes of text.
    pub fn new(profile: Profile, capacity: usize) -> NormalizedBuilder {
        let sink = MapSink { text: Vec::with_capacity(capacity), runs: Vec::new(), next_linear: u32::MAX };
        NormalizedBuilder { norm: Normalizer::new(profile, false, sink) }
    }

    /// Adds the next units (units come in source order).
    pub fn push_units(&mut self, units: &[Unit]) {
        self.norm.push_all(&units);
    }

    /// The normalized text and its map.
    pub fn finish(self) -> Normalized {
        let mut sink = self.norm.finish();
        sink.runs.shrink_to_fit();
        let blocks = Normalized::blocks_of(&sink.runs, sink.text.len());
        Normalized { text: into_string(sink.text), runs: sink.runs, blocks }
    }
}

/// Normalizes a string without keeping the offset map: the form a quote is
/// compared in. Leading and trailing whitespace is trimmed.
pub fn normalize_str(text: &str, profile: Profile) -> String {
    let mut norm = Normalizer::new(profile, true, TextSink(Vec::with_capacity(text.len())));
    norm.push_all(&Plain(text));
    into_string(norm.finish().0)
}

/// The units of a plain string: each char maps to its own bytes.
pub fn plain_units(text: &str) -> impl Iterator<Item = Unit> + '_ {
    text.char_indices().map(|(i, ch)| Unit { ch, start: i as u32, end: (i + ch.len_utf8()) as u32 })
}

/// The sinks only ever append whole UTF-8 encodings, so this never loses
/// anything; the lossy branch keeps the function total.
fn into_string(mut bytes: Vec<u8>) -> String {
    bytes.shrink_to_fit();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Units handed to [`NormalizedBuilder::push_units`] at a time by
/// [`Normalized::from_units`].
const CHUNK_UNITS: usize = 4096;

// ---------------------------------------------------------------------------
// Fast path: runs of plain ASCII
// ---------------------------------------------------------------------------

/// ASCII bytes that normalize to themselves (lowercased when folding case)
/// with no state: letters, digits, and punctuation other than `-` (which
/// may join words) and `` ` `` (which folds to `'`).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of bounds fails the build
static COPY: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = b'!';
    while b <= b'~' {
        t[b as usize] = true;
        b += 1;
    }
    t[b'-' as usize] = false;
    t[b'`' as usize] = false;
    t
};

#[inline(always)]
fn is_copy(b: u8) -> bool {
    COPY.get(b as usize).copied().unwrap_or(false)
}

/// ASCII whitespace (`char::is_whitespace` among ASCII chars).
#[inline(always)]
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// Whether the fast run's loop keeps all eight bytes of `x` (little
/// endian), the byte after them being `next`: each is copied ([`is_copy`])
/// or is whitespace that the run keeps (any, when not collapsing; else one
/// followed by a copied byte and not the run's first byte, which byte 0 is
/// unless `started`). Bit tricks on the eight bytes at once, exact when all
/// are ASCII (no carry crosses a byte); false when one is not.
#[inline(always)]
fn block_kept(x: u64, next: u8, started: bool, collapse: bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if x & HIGH != 0 {
        return false;
    }
    // the high bit of each byte >= t (1 <= t <= 0x80)
    let ge = |t: u64| x.wrapping_add((0x80 - t) * ONES) & HIGH;
    // the high bit of each byte != t (t < 0x80)
    let ne = |t: u64| (x ^ (t * ONES)).wrapping_add(0x7F * ONES) & HIGH;
    let copy = ge(0x21) & !ge(0x7F) & ne(u64::from(b'-')) & ne(u64::from(b'`'));
    let space = (ge(0x09) & !ge(0x0E)) | !ne(u64::from(b' ')) & HIGH;
    if !collapse {
        return (copy | space) == HIGH;
    }
    let next_copy = copy >> 8 | u64::from(is_copy(next)) << 63;
    let not_first = if started { HIGH } else { HIGH & !0x80 };
    (copy | (space & next_copy & not_first)) == HIGH
}

/// A byte of a fast run as written: whitespace (only single whitespace
/// bytes between copied bytes are in a run when collapsing) becomes a space,
/// letters are lowercased when `lower`.
#[inline(always)]
fn run_byte(b: u8, lower: bool, collapse: bool) -> u8 {
    if collapse && b <= b' ' {
        b' '
    } else if lower {
        b.to_ascii_lowercase()
    } else {
        b
    }
}

/// [`run_byte`] on every byte of a run (ASCII), eight at a time: no SIMD
/// is needed for the bit tricks, which matters in WebAssembly.
fn fold_run(run: &mut [u8], lower: bool, collapse: bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = run.chunks_exact_mut(8);
    for word in &mut words {
        let mut x = u64::from_le_bytes(word.try_into().unwrap_or([b' '; 8]));
        if lower {
            // high bit of each byte >= 'A' and of each byte > 'Z' (bytes < 0x80: no carries)
            let ge_a = x.wrapping_add((0x80 - u64::from(b'A')) * ONES) & HIGH;
            let gt_z = x.wrapping_add((0x80 - u64::from(b'Z') - 1) * ONES) & HIGH;
            x |= (ge_a & !gt_z) >> 2;
        }
        if collapse {
            // bytes <= ' ' become ' '
            let le_space = !x.wrapping_add((0x80 - u64::from(b' ') - 1) * ONES) & HIGH;
            let spaces = (le_space >> 7) * 0xFF;
            x = (x & !spaces) | ((u64::from(b' ') * ONES) & spaces);
        }
        word.copy_from_slice(&x.to_le_bytes());
    }
    for b in words.into_remainder() {
        *b = run_byte(*b, lower, collapse);
    }
}

/// Units the normalizer reads by index: a slice of units, or the chars of a
/// plain string (indexed by byte).
trait UnitSource {
    fn len(&self) -> usize;
    /// Whether the unit at `i` is an ASCII char (so no combining mark).
    fn is_ascii(&self, i: usize) -> bool;
    /// The unit at `i` and the index of the next one.
    fn unit(&self, i: usize) -> Option<(Unit, usize)>;
    /// The ASCII byte of unit `i`, when its char is ASCII and it stands for
    /// exactly original byte `at` (`None` otherwise).
    fn byte_at(&self, i: usize, at: u32) -> Option<u8>;
    /// The original start of unit `i`.
    fn start(&self, i: usize) -> u32;
    /// Appends the ASCII bytes of units `from..to` (all ASCII) to `text`.
    fn append(&self, from: usize, to: usize, text: &mut Vec<u8>);
    /// The bytes of units `i..i + 8` as a little-endian number and that of
    /// unit `i + 8`, when they are nine one-byte units, each the original
    /// byte after the previous one (a plain string's bytes); `None` when the
    /// source cannot say so cheaply (the caller then reads unit by unit).
    #[inline(always)]
    fn block(&self, _i: usize) -> Option<(u64, u8)> {
        None
    }
}

impl UnitSource for &[Unit] {
    fn len(&self) -> usize {
        <[Unit]>::len(self)
    }

    #[inline(always)]
    fn is_ascii(&self, i: usize) -> bool {
        self.get(i).is_some_and(|u| u.ch.is_ascii())
    }

    fn unit(&self, i: usize) -> Option<(Unit, usize)> {
        Some((*self.get(i)?, i + 1))
    }

    #[inline(always)]
    fn byte_at(&self, i: usize, at: u32) -> Option<u8> {
        let u = self.get(i)?;
        (u.ch.is_ascii() && u.start == at && u.end == at.wrapping_add(1)).then_some(u.ch as u8)
    }

    #[inline(always)]
    fn start(&self, i: usize) -> u32 {
        self.get(i).map_or(u32::MAX, |u| u.start)
    }

    fn append(&self, from: usize, to: usize, text: &mut Vec<u8>) {
        text.extend(self.get(from..to).unwrap_or_default().iter().map(|u| u.ch as u8));
    }
}

/// A plain string: each char is a unit of its own bytes.
struct Plain<'t>(&'t str);

impl UnitSource for Plain<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline(always)]
    fn is_ascii(&self, i: usize) -> bool {
        self.0.as_bytes().get(i).is_some_and(u8::is_ascii)
    }

    fn unit(&self, i: usize) -> Option<(Unit, usize)> {
        let ch = self.0.get(i..)?.chars().next()?;
        let end = i + ch.len_utf8();
        Some((Unit { ch, start: i as u32, end: end as u32 }, end))
    }

    #[inline(always)]
    fn byte_at(&self, i: usize, _at: u32) -> Option<u8> {
        self.0.as_bytes().get(i).copied().filter(u8::is_ascii)
    }

    #[inline(always)]
    fn start(&self, i: usize) -> u32 {
        i as u32
    }

    fn append(&self, from: usize, to: usize, text: &mut Vec<u8>) {
        text.extend_from_slice(self.0.as_bytes().get(from..to).unwrap_or_default());
    }

    #[inline(always)]
    fn block(&self, i: usize) -> Option<(u64, u8)> {
        let b = self.0.as_bytes().get(i..)?.first_chunk::<9>()?;
        let (head, last) = b.split_first_chunk::<8>()?;
        Some((u64::from_le_bytes(*head), *last.first()?))
    }
}

// ---------------------------------------------------------------------------
// Sinks
// ---------------------------------------------------------------------------

/// Where normalized chars go.
trait Sink {
    /// The text written so far.
    fn text(&mut self) -> &mut Vec<u8>;
    /// Records that normalized bytes from `at` on come from original bytes
    /// `start..end` (all of them from the whole range when the char written
    /// there is longer than one byte or `end - start > 1`).
    fn map(&mut self, at: u32, start: u32, end: u32, one_byte: bool);
    /// Records that `len` normalized bytes from `at` come one for one from
    /// original bytes from `start`.
    fn map_linear(&mut self, at: u32, start: u32, len: u32);

    #[inline]
    fn push(&mut self, ch: char, start: u32, end: u32) {
        let text = self.text();
        let at = text.len() as u32;
        let mut buf = [0u8; 4];
        text.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        self.map(at, start, end, ch.is_ascii());
    }
}

struct MapSink {
    text: Vec<u8>,
    runs: Vec<Run>,
    /// The original offset that continues the last run, when it is linear.
    next_linear: u32,
}

impl MapSink {
    #[cold]
    fn new_run(&mut self, at: u32, start: u32, end: u32, one_byte: bool) {
        if one_byte && end == start.wrapping_add(1) {
            self.runs.push(Run { norm: at, orig: start, end: 0 });
            self.next_linear = end;
            return;
        }
        self.next_linear = u32::MAX;
        // the chars of one NFKC expansion share their range: one run
        if self.runs.last().is_some_and(|r| r.end != 0 && r.orig == start && r.end == end) {
            return;
        }
        self.runs.push(Run { norm: at, orig: start, end: end.max(1) });
    }
}

impl Sink for MapSink {
    #[inline(always)]
    fn text(&mut self) -> &mut Vec<u8> {
        &mut self.text
    }

    #[inline(always)]
    fn map(&mut self, at: u32, start: u32, end: u32, one_byte: bool) {
        if one_byte && start == self.next_linear && end == start.wrapping_add(1) {
            self.next_linear = end;
        } else {
            self.new_run(at, start, end, one_byte);
        }
    }

    #[inline(always)]
    fn map_linear(&mut self, at: u32, start: u32, len: u32) {
        if start != self.next_linear {
            self.new_run(at, start, start.wrapping_add(1), true);
        }
        self.next_linear = start.wrapping_add(len);
    }
}

struct TextSink(Vec<u8>);

impl Sink for TextSink {
    #[inline(always)]
    fn text(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }

    #[inline(always)]
    fn map(&mut self, _at: u32, _start: u32, _end: u32, _one_byte: bool) {}

    #[inline(always)]
    fn map_linear(&mut self, _at: u32, _start: u32, _len: u32) {}
}

// ---------------------------------------------------------------------------
// The normalizer
// ---------------------------------------------------------------------------

/// Clustering, NFKC and char folding, feeding the whitespace/hyphen stage.
/// A unit is emitted once the next one shows that nothing joining its
/// cluster ([`unicode::joins_previous`]) follows it; runs of plain ASCII take a fast path that writes what the general one
/// would.
struct Normalizer<S: Sink> {
    out: Joiner<S>,
    /// The pending cluster's starter (its range grown over its marks).
    pending: Option<Unit>,
    /// The chars after the pending cluster's starter that belong to its
    /// cluster ([`unicode::joins_previous`]: combining marks, starters that
    /// compose backwards; rare).
    marks: String,
    /// Invisible chars ([`is_invisible`]) after the pending cluster, held
    /// back: a combining mark after them still belongs to the cluster
    /// (`c` + soft hyphen + U+0301 is `ć`, as the soft hyphen is dropped),
    /// else they go out after it.
    invisible: Vec<Unit>,
    /// The cluster being normalized, and the NFKC scratch space.
    cluster: String,
    scratch: unicode::Scratch,
}

impl<S: Sink> Normalizer<S> {
    fn new(profile: Profile, trim: bool, sink: S) -> Self {
        Normalizer {
            out: Joiner::new(profile, trim, sink),
            pending: None,
            marks: String::new(),
            invisible: Vec::new(),
            cluster: String::new(),
            scratch: unicode::Scratch::default(),
        }
    }

    /// The general path: one unit.
    fn push(&mut self, unit: Unit) {
        if !unit.ch.is_ascii() && unicode::joins_previous(unit.ch) {
            if let Some(p) = self.pending.as_mut() {
                self.marks.push(unit.ch);
                p.end = unit.end.max(p.end);
                self.invisible.clear(); // dropped, inside the cluster's range
                return;
            }
        }
        if self.pending.is_some() && is_invisible(unit.ch) {
            self.invisible.push(unit);
            return;
        }
        self.emit_pending();
        self.pending = Some(unit);
    }

    /// Emits the pending cluster, then the invisible chars held after it.
    fn emit_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            self.emit_cluster(p);
        }
        for u in std::mem::take(&mut self.invisible) {
            self.emit_cluster(u);
        }
    }

    /// Pushes every unit of `src`: runs of plain ASCII through
    /// [`Normalizer::fast_run`], the rest one unit at a time.
    fn push_all<U: UnitSource>(&mut self, src: &U) {
        let n = src.len();
        let mut i = 0;
        while i < n {
            // an ASCII unit is no combining mark: the pending cluster is complete
            if src.is_ascii(i) {
                self.emit_pending();
            }
            if self.pending.is_none() && self.out.hyphen.is_none() {
                i = self.fast_run(src, i);
            }
            let Some((unit, next)) = src.unit(i) else {
                break;
            };
            self.push(unit);
            i = next;
        }
    }

    /// The fast path from unit `i` on, with nothing pending: a *run* of
    /// units that are ASCII, each the one original byte after the previous
    /// one, copied bytes ([`is_copy`]) or, when collapsing, single
    /// whitespace bytes between copied ones, is appended whole (whitespace
    /// as a space, lowercased when folding) with one linear map entry; a
    /// whitespace run between runs becomes the pending space. This is what
    /// the general path writes for them: a lone whitespace byte collapses to
    /// a space mapped to itself. Stops at anything else, and before the last
    /// unit ahead of a non-ASCII one (a combining mark may follow it).
    /// Returns where it stopped.
    #[inline(never)]
    fn fast_run<U: UnitSource>(&mut self, src: &U, mut i: usize) -> usize {
        let out = &mut self.out;
        let (lower, collapse) = (out.profile.fold_case, out.profile.collapse_whitespace);
        let n = src.len();
        loop {
            // a run: copied bytes, with single whitespace bytes inside when collapsing
            let from = i;
            let base = src.start(i);
            let mut at = base;
            while let Some(b) = src.byte_at(i, at) {
                // eight units at once when all eight are kept
                if let Some((x, next)) = src.block(i) {
                    if block_kept(x, next, i > from, collapse) {
                        i += 8;
                        at = at.wrapping_add(8);
                        continue;
                    }
                }
                let keep = is_copy(b)
                    || if collapse {
                        is_space(b) && i > from && src.byte_at(i + 1, at.wrapping_add(1)).is_some_and(is_copy)
                    } else {
                        is_space(b)
                    };
                if !keep {
                    break;
                }
                i += 1;
                at = at.wrapping_add(1);
            }
            // the last unit before a non-ASCII one (or the end of the
            // units) goes the general way
            if i > from && (i == n || !src.is_ascii(i)) {
                i -= 1;
            }
            if i > from {
                out.flush_space();
                let text = out.sink.text();
                let written = text.len();
                src.append(from, i, text);
                let added = text.get_mut(written..).unwrap_or_default();
                out.after_letter = added.last().is_some_and(u8::is_ascii_alphabetic);
                fold_run(added, lower, collapse);
                out.sink.map_linear(written as u32, base, (i - from) as u32);
                out.wrote_any = true;
            }
            if !collapse {
                return i;
            }
            // whitespace between runs: the pending space
            let from = i;
            let mut newline = false;
            while let Some(b) = src.byte_at(i, src.start(i)).filter(|&b| is_space(b)) {
                newline |= b == b'\n' || b == b'\r';
                i += 1;
            }
            if i > from && (i == n || !src.is_ascii(i)) {
                i -= 1;
            }
            if i == from {
                return i;
            }
            let (s, e) = (src.start(from), src.start(i - 1).wrapping_add(1));
            out.space = Some(match out.space {
                Some((ps, _, nl)) => (ps, e, nl || newline),
                None => (s, e, newline),
            });
        }
    }

    /// Emits a starter and its combining marks, NFKC-normalized (ASCII alone
    /// needs no normalization).
    fn emit_cluster(&mut self, starter: Unit) {
        let lower = starter.ch.is_lowercase();
        if self.marks.is_empty() && unicode::nfkc_is_itself(starter.ch) {
            self.out.push_folded(starter.ch, starter.start, starter.end, lower);
            return;
        }
        self.cluster.clear();
        self.cluster.push(starter.ch);
        self.cluster.push_str(&self.marks);
        self.marks.clear();
        if self.out.profile.fold_case && self.cluster.chars().count() > 1 {
            // lowercase before NFKC: `İ` + U+0329 lowercases to `i` U+0307
            // U+0329, whose marks NFKC puts in canonical order (else a
            // second normalization would; found by the `normalize` fuzz target)
            self.cluster = self.cluster.to_lowercase();
        }
        for &c in unicode::nfkc_in(&self.cluster, &mut self.scratch) {
            self.out.push_folded(c, starter.start, starter.end, lower);
        }
    }

    fn finish(mut self) -> S {
        self.emit_pending();
        self.out.finish()
    }
}

/// The soft hyphen and the zero-width chars [`fold_char`] removes: no char
/// of the text, so no end of a cluster either.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{200C}')
}

/// The folded form of one NFKC char: `None` removes it.
fn fold_char(c: char) -> Option<char> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' | '\u{2039}' | '\u{203A}'
        | '\u{0060}' | '\u{00B4}' | '\u{FF07}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}' | '\u{00AB}' | '\u{00BB}'
        | '\u{301D}' | '\u{301E}' => '"',
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' | '\u{2E3A}'
        | '\u{2E3B}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
        // zero-width space, word joiner, BOM, zero-width non-joiner; not ZWJ,
        // which binds emoji sequences.
        '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{200C}' => return None,
        c => c,
    })
}

/// The whitespace and hyphenation stage: collapses whitespace runs, joins a
/// word hyphenated across a line break, drops soft hyphens, and trims when
/// asked.
struct Joiner<S: Sink> {
    profile: Profile,
    trim: bool,
    sink: S,
    /// The last char written to the sink was alphabetic.
    after_letter: bool,
    wrote_any: bool,
    /// A whitespace run not yet written: its range and whether it holds a line break.
    space: Option<(u32, u32, bool)>,
    /// A hyphen after a letter, not yet written: its range and whether it is soft.
    hyphen: Option<(u32, u32, bool)>,
}

impl<S: Sink> Joiner<S> {
    fn new(profile: Profile, trim: bool, sink: S) -> Self {
        Joiner { profile, trim, sink, after_letter: false, wrote_any: false, space: None, hyphen: None }
    }

    /// Writes the pending whitespace run as one space (no hyphen pending).
    #[inline]
    fn flush_space(&mut self) {
        if let Some((s, e, _)) = self.space.take() {
            if self.wrote_any || !self.trim {
                self.write(' ', s, e);
            }
        }
    }

    /// Folds one NFKC char (quotes, dashes, case) and pushes the result.
    /// `lower` says whether the original cluster started with a lowercase
    /// letter (only such a word continues a hyphenated one).
    fn push_folded(&mut self, c: char, start: u32, end: u32, lower: bool) {
        if c == '\u{00AD}' {
            if self.profile.collapse_whitespace && self.after_letter && self.hyphen.is_none() && self.space.is_none() {
                self.hyphen = Some((start, end, true));
            }
            return;
        }
        if c.is_ascii_alphanumeric() {
            let c = if self.profile.fold_case { c.to_ascii_lowercase() } else { c };
            self.push(c, start, end, lower, false);
            return;
        }
        // only a hyphen can join a word broken across lines, not a dash
        let hyphen = matches!(c, '-' | '\u{2010}' | '\u{2011}');
        let Some(c) = fold_char(c) else { return };
        if self.profile.fold_case && !c.is_lowercase() && c.is_alphabetic() {
            for l in c.to_lowercase() {
                self.push(l, start, end, lower, false);
            }
        } else {
            self.push(c, start, end, lower, hyphen);
        }
    }

    fn push(&mut self, c: char, start: u32, end: u32, lower: bool, hyphen: bool) {
        if !self.profile.collapse_whitespace {
            self.write(c, start, end);
            return;
        }
        if c.is_whitespace() {
            let newline = c == '\n' || c == '\r' || c == '\u{2028}' || c == '\u{2029}';
            self.space = Some(match self.space {
                Some((s, _, nl)) => (s, end, nl || newline),
                None => (start, end, newline),
            });
            return;
        }
        if let Some((hs, he, soft)) = self.hyphen.take() {
            let space = self.space.take();
            let line_broken = space.is_some_and(|(_, _, nl)| nl);
            let joins = line_broken && lower && c.is_alphabetic();
            if !joins {
                if !soft {
                    self.write('-', hs, he);
                }
                if let Some((s, e, _)) = space {
                    self.write(' ', s, e);
                }
            }
        } else {
            self.flush_space();
        }
        if hyphen && self.after_letter {
            self.hyphen = Some((start, end, false));
            return;
        }
        self.write(c, start, end);
    }

    fn write(&mut self, c: char, start: u32, end: u32) {
        self.sink.push(c, start, end);
        self.after_letter = c.is_alphabetic();
        self.wrote_any = true;
    }

    fn finish(mut self) -> S {
        if let Some((s, e, soft)) = self.hyphen.take() {
            if !soft {
                self.write('-', s, e);
            }
        }
        if let Some((s, e, _)) = self.space.take() {
            if !self.trim {
                self.write(' ', s, e);
            }
        }
        self.sink
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        normalize_str(s, Profile::default())
    }

    /// The original text behind the whole normalized range of `needle`.
    fn original_of(doc: &str, needle: &str) -> String {
        let n = Normalized::from_plain(doc, Profile::default());
        let pos = n.as_str().find(&norm(needle)).expect("needle in normalized text");
        let (s, e) = n.original_range(pos, pos + norm(needle).len()).unwrap();
        doc[s..e].to_string()
    }

    /// Cluster by cluster is NFKC of the whole: with nothing folded, on
    /// text the folds do not touch, `normalize_str` is the NFKC of
    /// `unicode-normalization` (the oracle) over the whole string; and in
    /// every profile a second normalization changes nothing. The alphabet
    /// holds what splits clusters wrongly when only combining classes are
    /// read: chars of class 0 that decompose to a mark (U+0F73, U+FF9E),
    /// starters that compose with the char before them (Hangul vowels and
    /// trailing consonants, U+09BE, U+0CD5), chars that decompose to such a
    /// starter (compatibility jamo: U+314F, U+FFAC), long runs of marks, and a
    /// capital whose lowercase carries a mark (İ).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn clusters_are_nfkc_of_the_whole_and_idempotent() {
        use unicode_normalization::UnicodeNormalization;
        const ALPHABET: &[char] = &[
            'a', 'A', 'e', 'i', 'İ', 'é', 'ﬁ', '👍', '中', ' ', '\n', '-', '\u{0301}', '\u{0316}', '\u{0329}',
            '\u{0307}', '\u{0344}', '\u{0F40}', '\u{0F71}', '\u{0F72}', '\u{0F73}', '\u{0F75}', '\u{0F81}', '\u{FF76}',
            '\u{FF9E}', '\u{FF9F}', '\u{3099}', '\u{1100}', '\u{1161}', '\u{11A8}', '\u{AC00}', '\u{09C7}', '\u{09BE}',
            '\u{09D7}', '\u{0CC6}', '\u{0CD5}', '\u{0CC2}', '\u{0B47}', '\u{0B3E}', '\u{314F}', '\u{3131}', '\u{FFAC}',
            '\u{FFC2}', '\u{11B4}', '\u{B098}', '\u{B01F}',
        ];
        let raw = Profile { fold_case: false, collapse_whitespace: false };
        let profiles = [
            raw,
            Profile::default(),
            Profile { fold_case: true, collapse_whitespace: false },
            Profile { fold_case: false, collapse_whitespace: true },
        ];
        let mut rng = crate::test_rng::SplitMix64(0x5eed_0f73);
        for case in 0..30_000 {
            let len = rng.below(if case % 10 == 0 { 48 } else { 10 });
            let s: String = (0..len).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect();
            let want: String = s.nfkc().collect();
            assert_eq!(normalize_str(&s, raw), want, "NFKC of {s:?}");
            for p in profiles {
                let once = normalize_str(&s, p);
                assert_eq!(normalize_str(&once, p), once, "{p:?}: normalizing {s:?} twice");
            }
        }
        // the fuzzer's find of the last session: a long run of marks
        let long = format!("A{}\u{0301}\u{0316}\u{0F73}", "\u{0329}".repeat(26));
        for p in profiles {
            let once = normalize_str(&long, p);
            assert_eq!(normalize_str(&once, p), once, "{p:?}");
        }
    }

    #[test]
    fn folds_case_whitespace_quotes_dashes() {
        assert_eq!(norm("  The  \u{201C}Quick\u{201D}\t\r\nfox\u{2014}it\u{2019}s  "), "the \"quick\" fox-it's");
    }

    #[test]
    fn nfkc_expands_ligatures_ellipsis_and_nbsp() {
        assert_eq!(norm("e\u{FB03}cient\u{00A0}and\u{2026}"), "efficient and...");
        assert_eq!(norm("\u{FB01}nal"), "final");
    }

    #[test]
    fn combining_marks_compose() {
        assert_eq!(norm("Cafe\u{0301}"), norm("Caf\u{00E9}"));
        assert_eq!(original_of("a cafe\u{0301} b", "café"), "cafe\u{0301}");
    }

    #[test]
    fn hyphenation_across_line_break_joins() {
        assert_eq!(norm("the evi-\ndence shows"), "the evidence shows");
        assert_eq!(norm("the evi-  \r\n   dence"), "the evidence");
        assert_eq!(norm("evi\u{00AD}\ndence"), "evidence");
        assert_eq!(norm("evi\u{00AD}dence"), "evidence");
        assert_eq!(norm("a \u{00AD}b"), "a b");
        // a mark after a soft hyphen or zero-width char composes with the
        // letter before them (found by the `normalize` fuzz target)
        assert_eq!(norm("c\u{00AD}\u{0301}"), "\u{0107}");
        assert_eq!(norm("c\u{200B}\u{0301}x"), "\u{0107}x");
        assert_eq!(norm("c\u{00AD}x"), "cx");
        assert_eq!(norm("\u{0130}\u{0329}"), "i\u{0329}\u{0307}");
        assert_eq!(norm(&norm("\u{0130}\u{0329}")), norm("\u{0130}\u{0329}"));
        // not across a line break, or before a capital or digit: a real hyphen
        assert_eq!(norm("well-known"), "well-known");
        assert_eq!(norm("pre- and post-war"), "pre- and post-war");
        assert_eq!(norm("Paris-\nBerlin"), "paris- berlin");
        assert_eq!(norm("1990-\n2000"), "1990- 2000");
        assert_eq!(norm("word\u{2014}\nnext"), "word- next");
        assert_eq!(original_of("the evi-\ndence shows", "evidence"), "evi-\ndence");
    }

    #[test]
    fn span_of_ligature_covers_whole_ligature() {
        assert_eq!(original_of("an of\u{FB01}ce", "office"), "of\u{FB01}ce");
    }

    #[test]
    fn case_and_whitespace_can_be_kept() {
        let p = Profile { fold_case: false, collapse_whitespace: false };
        assert_eq!(normalize_str("A  \u{2018}b\u{2019}", p), "A  'b'");
    }

    #[test]
    fn emoji_and_cjk_pass_through() {
        assert_eq!(norm("Hi 👍🏽 中文"), "hi 👍🏽 中文");
        assert_eq!(
            original_of("x 家族👨\u{200D}👩\u{200D}👧 y", "家族👨\u{200D}👩\u{200D}👧"),
            "家族👨\u{200D}👩\u{200D}👧"
        );
    }

    #[test]
    fn map_is_monotonic() {
        let doc = "A\u{FB01}  b\u{0301}\r\nevi-\nd\u{00AD}x \u{201C}q\u{201D}";
        let n = Normalized::from_plain(doc, Profile::default());
        let map: Vec<(usize, usize)> = (0..n.as_str().len()).map(|i| n.original_of_byte(i).unwrap()).collect();
        for w in map.windows(2) {
            assert!(w[0].0 <= w[1].0 && w[0].1 <= w[1].1);
        }
        for &(s, e) in &map {
            assert!(s < e && doc.is_char_boundary(s) && doc.is_char_boundary(e));
        }
    }

    /// Per-byte map, the representation the runs replace: the oracle.
    struct NaiveSink {
        text: Vec<u8>,
        map: Vec<(u32, u32)>,
    }

    impl Sink for NaiveSink {
        fn text(&mut self) -> &mut Vec<u8> {
            &mut self.text
        }

        fn map(&mut self, _at: u32, start: u32, end: u32, _one_byte: bool) {
            while self.map.len() < self.text.len() {
                self.map.push((start, end));
            }
        }

        fn map_linear(&mut self, _at: u32, start: u32, len: u32) {
            self.map.extend((start..start + len).map(|s| (s, s + 1)));
        }
    }

    /// Every unit through the general path, into a per-byte map.
    fn slow(units: &[Unit], profile: Profile) -> (String, Vec<(u32, u32)>) {
        let mut norm = Normalizer::new(profile, false, NaiveSink { text: Vec::new(), map: Vec::new() });
        for &u in units {
            norm.push(u);
        }
        let sink = norm.finish();
        (String::from_utf8(sink.text).unwrap(), sink.map)
    }

    fn check_fast_against_slow(units: &[Unit], text: &str) {
        for fold_case in [true, false] {
            for collapse_whitespace in [true, false] {
                let profile = Profile { fold_case, collapse_whitespace };
                let (want, map) = slow(units, profile);
                let mut builder = NormalizedBuilder::new(profile, 0);
                // in two slices: the fast path must not look across a slice end
                let mid = units.len() / 2;
                builder.push_units(&units[..mid]);
                builder.push_units(&units[mid..]);
                let got = builder.finish();
                assert_eq!(got.as_str(), want, "{text:?} {profile:?}");
                for (i, &(s, e)) in map.iter().enumerate() {
                    assert_eq!(
                        got.original_of_byte(i),
                        Some((s as usize, e as usize)),
                        "byte {i} of {text:?} {profile:?}"
                    );
                }
                assert_eq!(got.original_of_byte(map.len()), None);
                let plain = Normalized::from_plain(text, profile);
                let (want_plain, plain_map) = slow(&plain_units(text).collect::<Vec<_>>(), profile);
                assert_eq!(plain.as_str(), want_plain);
                for (i, &(s, e)) in plain_map.iter().enumerate() {
                    assert_eq!(plain.original_of_byte(i), Some((s as usize, e as usize)), "plain byte {i} of {text:?}");
                }
            }
        }
    }

    /// The fast paths (runs of ASCII copied whole, the map kept as runs)
    /// write exactly what the general path writes, on random text mixing
    /// ASCII prose with every special case, read as plain text and as units
    /// that skip bytes (markup) or span several (entities).
    #[test]
    fn fast_paths_agree_with_the_general_path() {
        let pieces = crate::test_rng::with_hostile(&[
            "a",
            "B",
            "z",
            "7",
            " ",
            "  ",
            "\n",
            "\t",
            "-",
            "`",
            ".",
            "'",
            "\u{AD}",
            "\u{FB01}",
            "\u{2026}",
            "\u{2014}",
            "\u{200B}",
            "\u{A0}",
            "\u{2028}",
            "\u{B}",
            "\u{FF21}",
            "\u{3A3}",
            "word ",
            "Word. ",
            "evi-\ndence ",
            // long ASCII runs: the fast run's eight bytes at a time
            "The quick brown fox ",
            "jumps over\tthe lazy\ndog,",
            "emphatically  unambiguous",
            "caf\u{e9}s-and-restaurants\r\n",
            "x\u{1}",
        ]);
        let mut next = crate::test_rng::below(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..3000 {
            let n = next(24);
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            // units with gaps and multi-byte ranges
            let mut units = Vec::new();
            let mut at = 0u32;
            for (i, ch) in text.char_indices() {
                let len = ch.len_utf8() as u32;
                let (start, end) = match next(8) {
                    0 => (at + 2, at + 2 + len), // markup skipped before it
                    1 => (at, at + len + 3),     // an entity
                    _ => (at, at + len),
                };
                units.push(Unit { ch, start, end });
                at = end.max(i as u32 + len);
            }
            check_fast_against_slow(&units, &text);
            let plain: Vec<Unit> = plain_units(&text).collect();
            check_fast_against_slow(&plain, &text);
        }
    }

    /// `original_range` (the last byte's run walked to from the first's)
    /// is the two bytes' lookups, on every range of random texts of many
    /// short runs (collapsed whitespace, hyphens, NFKC expansions, emoji,
    /// CJK, combining marks, curly quotes, CRLF), as plain text and as units
    /// with gaps.
    #[test]
    fn original_range_is_its_bytes_lookups() {
        let pieces = crate::test_rng::with_hostile(&[
            "ab",
            "c  ",
            "\r\n\r\n",
            "d-\ne",
            "\u{FB01}",
            "\u{2026}",
            "the quick brown fox ",
        ]);
        let mut next = crate::test_rng::below(0x7261_6e67_6573);
        let mut long = 0;
        for _ in 0..200 {
            let n = next(60);
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            let mut at = 0u32;
            let units: Vec<Unit> = text
                .chars()
                .map(|ch| {
                    let start = at + if next(4) == 0 { 3 } else { 0 };
                    at = start + ch.len_utf8() as u32;
                    Unit { ch, start, end: at }
                })
                .collect();
            for n in
                [Normalized::from_plain(&text, Profile::default()), Normalized::from_units(units, Profile::default())]
            {
                let len = n.as_str().len();
                for start in 0..=len + 1 {
                    for end in start..=len + 1 {
                        let want = if start >= end || end > len {
                            None
                        } else {
                            match (n.original_of_byte(start), n.original_of_byte(end - 1)) {
                                (Some((s, _)), Some((_, e))) => (s < e).then_some((s, e)),
                                _ => None,
                            }
                        };
                        assert_eq!(n.original_range(start, end), want, "{start}..{end} of {text:?}");
                    }
                }
                long += usize::from(n.runs.len() > 20);
            }
        }
        assert!(long > 50, "too few texts of many runs: {long}");
    }

    /// `run_of` (the block's runs searched) is the search of the whole
    /// map at every byte, on long random texts of many runs (and short
    /// ones, which have no blocks).
    #[test]
    fn run_of_is_the_search_of_all_runs() {
        let pieces = crate::test_rng::with_hostile(&[
            "word ",
            "c  ",
            "\r\n\r\n",
            "d-\ne",
            "\u{FB01}",
            "the quick brown fox jumps over the lazy dog ",
            "     ",
        ]);
        let mut next = crate::test_rng::below(0x626c_6f63_6b73);
        let mut blocked = 0;
        for case in 0..40 {
            let n = if case % 4 == 0 { next(40) } else { next(3000) };
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            for profile in [Profile::default(), Profile { fold_case: false, collapse_whitespace: false }] {
                let n = Normalized::from_plain(&text, profile);
                blocked += usize::from(!n.blocks.is_empty());
                for i in 0..n.as_str().len() + 2 {
                    let want = n.runs.partition_point(|r| r.norm as usize <= i).checked_sub(1);
                    assert_eq!(n.run_of(i), want, "byte {i} of {} ({} runs)", n.as_str().len(), n.runs.len());
                }
            }
        }
        assert!(blocked > 20, "too few long maps: {blocked}");
    }

    #[test]
    fn prose_maps_in_few_runs() {
        let text = "The quick brown fox\njumps over the lazy dog. ".repeat(100);
        let n = Normalized::from_plain(&text, Profile::default());
        assert_eq!(n.runs.len(), 1);
        assert_eq!(n.original_range(4, 9), Some((4, 9)));
    }

    /// `block_kept` is the fast run's byte test applied to each of the
    /// eight bytes: on every byte value in every position, and on random
    /// blocks of the bytes the test distinguishes (copied, `-`, `` ` ``,
    /// each whitespace byte, controls, DEL, bytes of UTF-8 sequences).
    #[test]
    fn block_kept_is_the_byte_test_on_each_byte() {
        fn bytewise(bytes: &[u8; 9], started: bool, collapse: bool) -> bool {
            (0..8).all(|k| {
                let b = bytes[k];
                b.is_ascii()
                    && (is_copy(b)
                        || if collapse {
                            is_space(b) && (started || k > 0) && bytes[k + 1].is_ascii() && is_copy(bytes[k + 1])
                        } else {
                            is_space(b)
                        })
            })
        }
        let alphabet: Vec<u8> = b"aZq09.!~ \t\n\r\x0b\x0c-`\x00\x08\x1f\x20\x21\x7e\x7f"
            .iter()
            .copied()
            .chain([0x80, 0xC3, 0xA9, 0xE2, 0xFF, 0x0E, 0x2C, 0x2E, 0x5F, 0x61])
            .collect();
        let mut rng = crate::test_rng::SplitMix64(0x0062_6c6f_636b);
        let mut kept = 0;
        let mut check = |bytes: [u8; 9]| {
            let x = u64::from_le_bytes(bytes[..8].try_into().unwrap());
            for started in [true, false] {
                for collapse in [true, false] {
                    let want = bytewise(&bytes, started, collapse);
                    assert_eq!(block_kept(x, bytes[8], started, collapse), want, "{bytes:?} {started} {collapse}");
                    kept += usize::from(want);
                }
            }
        };
        for b in 0..=255u8 {
            for k in 0..9 {
                let mut bytes = *b"abcdefghi";
                bytes[k] = b;
                check(bytes);
                let mut spaced = *b"a b c d e";
                spaced[k] = b;
                check(spaced);
            }
        }
        for _ in 0..200_000 {
            let mut bytes = [0u8; 9];
            for b in &mut bytes {
                // mostly letters, so that whole blocks are kept often
                *b = if rng.next_u64() % 3 == 0 {
                    alphabet[(rng.next_u64() % alphabet.len() as u64) as usize]
                } else {
                    b'a' + (rng.next_u64() % 26) as u8
                };
            }
            check(bytes);
        }
        assert!(kept > 10_000, "too few kept blocks: {kept}");
    }

    #[test]
    fn fold_run_is_run_byte_on_every_byte() {
        let all: Vec<u8> = (0u8..0x80).chain((0u8..0x80).rev()).collect();
        for lower in [true, false] {
            for collapse in [true, false] {
                for len in [0, 1, 7, 8, 9, 64, all.len()] {
                    let mut got = all[..len].to_vec();
                    fold_run(&mut got, lower, collapse);
                    let want: Vec<u8> = all[..len].iter().map(|&b| run_byte(b, lower, collapse)).collect();
                    assert_eq!(got, want, "{lower} {collapse} {len}");
                }
            }
        }
    }
}
