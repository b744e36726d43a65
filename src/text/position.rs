//! Positions in an original text in the three unit systems a caller may need
//! (code points as the specs count, UTF-16 code units as JS strings and the
//! DOM count, UTF-8 bytes as Rust counts) plus 1-based line and column.
//!
//! Conversions are O(1) amortised: cumulative counts are kept every
//! [`CHECKPOINT`] bytes and the rest is counted from the bytes themselves
//! (a code point starts at every byte that is not a continuation byte; a
//! 4-byte code point is two UTF-16 units).

use serde::Serialize;

/// Bytes between stored cumulative counts.
const CHECKPOINT: usize = 64;

/// Where a span of the original text is, in every unit system.
/// `original[byte_start..byte_end]` is the matched text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    /// Code point offset of the start (what the specs call `start_position`).
    pub start: usize,
    /// Code point offset of the end (exclusive).
    pub end: usize,
    /// UTF-16 offset of the start (a JS string index).
    pub utf16_start: usize,
    /// UTF-16 offset of the end (exclusive).
    pub utf16_end: usize,
    /// UTF-8 byte offset of the start.
    pub byte_start: usize,
    /// UTF-8 byte offset of the end (exclusive).
    pub byte_end: usize,
    /// 1-based line of the start (lines end at `\n`).
    pub line: usize,
    /// 1-based column of the start, in code points.
    pub column: usize,
    /// 1-based line of the last character.
    pub end_line: usize,
}

/// An index over one text for converting byte offsets.
#[derive(Debug, Clone, Default)]
pub struct PositionIndex {
    /// (code points, UTF-16 units) before byte `i * CHECKPOINT`.
    checkpoints: Vec<(u32, u32)>,
    /// Byte offset where each line starts.
    line_starts: Vec<u32>,
}

fn is_char_start(b: u8) -> bool {
    (b & 0xC0) != 0x80
}

fn utf16_weight(b: u8) -> u32 {
    match b {
        b if b >= 0xF0 => 2,
        b if is_char_start(b) => 1,
        _ => 0,
    }
}

/// Bytes counted per call of [`count_block`] (a multiple of
/// [`CHECKPOINT`]). In wasm, V8 runs a function's first calls in baseline
/// code and optimized code only from a later call: one call over a
/// megabyte would run unoptimized to its end on a first `validateEvidence`
/// (issue 21's cold start), a call per block lets the optimized code take
/// over after the first few.
const BLOCK: usize = 16 * 1024;

/// Pushes the checkpoints of `block` (which starts at a checkpoint) after
/// `(chars, units)`, the counts before it; returns the counts after it.
#[inline(never)]
fn count_block(block: &[u8], (mut chars, mut units): (u32, u32), checkpoints: &mut Vec<(u32, u32)>) -> (u32, u32) {
    for chunk in block.chunks(CHECKPOINT) {
        checkpoints.push((chars, units));
        if chunk.is_ascii() {
            // one char and one UTF-16 unit per byte
            chars += chunk.len() as u32;
            units += chunk.len() as u32;
            continue;
        }
        for &b in chunk {
            chars += is_char_start(b) as u32;
            units += utf16_weight(b);
        }
    }
    (chars, units)
}

impl PositionIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> PositionIndex {
        let bytes = text.as_bytes();
        let mut checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut counts = (0u32, 0u32);
        for block in bytes.chunks(BLOCK) {
            counts = count_block(block, counts, &mut checkpoints);
        }
        checkpoints.push(counts);
        let mut line_starts = vec![0u32];
        line_starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| (i + 1) as u32));
        PositionIndex { checkpoints, line_starts }
    }

    /// (code points, UTF-16 units) before byte offset `byte` of `text`
    /// (clamped to the text).
    pub fn offsets(&self, text: &str, byte: usize) -> (usize, usize) {
        let bytes = text.as_bytes();
        let byte = byte.min(bytes.len());
        let cp = byte / CHECKPOINT;
        let (mut chars, mut units) = self.checkpoints.get(cp).copied().unwrap_or((0, 0));
        let rest = bytes.get(cp * CHECKPOINT..byte).unwrap_or(&[]);
        if rest.is_ascii() {
            // one char and one UTF-16 unit a byte (`is_ascii` reads words)
            return (chars as usize + rest.len(), units as usize + rest.len());
        }
        for &b in rest {
            chars += is_char_start(b) as u32;
            units += utf16_weight(b);
        }
        (chars as usize, units as usize)
    }

    /// The byte offset of code point `chars` of `text` (`text.len()` for
    /// the end), or `None` past the end: a binary search of the
    /// checkpoints, then at most one checkpoint's bytes.
    pub fn byte_of_char(&self, text: &str, chars: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        let cp = self.checkpoints.partition_point(|&(c, _)| (c as usize) <= chars).checked_sub(1)?;
        let (mut seen, _) = self.checkpoints.get(cp).copied()?;
        let mut at = cp * CHECKPOINT;
        while at < bytes.len() {
            let start = bytes.get(at).is_some_and(|&b| is_char_start(b));
            if start && seen as usize == chars {
                return Some(at);
            }
            seen += start as u32;
            at += 1;
        }
        (seen as usize == chars).then_some(bytes.len())
    }

    /// 1-based line number of byte offset `byte`.
    pub fn line_of(&self, byte: usize) -> usize {
        self.line_starts.partition_point(|&s| s as usize <= byte).max(1)
    }

    /// Byte offset where 1-based `line` starts, if the text has that line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line.checked_sub(1)?).map(|&s| s as usize)
    }

    /// Number of lines (`text.split('\n').count()`).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The span of bytes `start..end` of `text` (which this index was built on).
    pub fn span(&self, text: &str, start: usize, end: usize) -> Span {
        let (c0, u0) = self.offsets(text, start);
        let (c1, u1) = self.offsets(text, end);
        let line = self.line_of(start);
        let line_start = self.line_start(line).unwrap_or(0);
        let (lc, _) = self.offsets(text, line_start);
        Span {
            start: c0,
            end: c1,
            utf16_start: u0,
            utf16_end: u1,
            byte_start: start,
            byte_end: end,
            line,
            column: c0 - lc + 1,
            end_line: self.line_of(end.saturating_sub(1).max(start)),
        }
    }

    /// Bytes of memory held, for benchmarks.
    pub fn heap_bytes(&self) -> usize {
        8 * self.checkpoints.capacity() + 4 * self.line_starts.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_of_char_inverts_offsets() {
        let text = "a😀b\n中文é\r\nx".repeat(40);
        let idx = PositionIndex::new(&text);
        for (n, (b, _)) in text.char_indices().enumerate() {
            assert_eq!(idx.byte_of_char(&text, n), Some(b));
        }
        let n = text.chars().count();
        assert_eq!(idx.byte_of_char(&text, n), Some(text.len()));
        assert_eq!(idx.byte_of_char(&text, n + 1), None);
    }

    #[test]
    fn offsets_in_all_units() {
        let text = "a😀b\n中文é\r\nx";
        let idx = PositionIndex::new(text);
        let b = text.find('b').unwrap();
        let s = idx.span(text, b, b + 1);
        assert_eq!((s.start, s.utf16_start, s.byte_start), (2, 3, 5));
        let x = text.find('x').unwrap();
        let s = idx.span(text, x, x + 1);
        assert_eq!((s.line, s.column), (3, 1));
        let z = text.find('文').unwrap();
        let s = idx.span(text, z, z + 3);
        assert_eq!((s.start, s.end, s.utf16_start, s.line, s.column), (5, 6, 6, 2, 2));
    }

    #[test]
    fn long_text_checkpoints_agree_with_counting() {
        let text: String = (0..500).map(|i| ["a", "é", "中", "😀", "\n"][i % 5]).collect();
        let idx = PositionIndex::new(&text);
        for (byte, _) in text.char_indices() {
            let chars = text[..byte].chars().count();
            let units = text[..byte].encode_utf16().count();
            assert_eq!(idx.offsets(&text, byte), (chars, units));
        }
        assert_eq!(idx.line_count(), text.split('\n').count());
    }

    /// Offsets (the ASCII rest of a checkpoint counted at once) and spans
    /// against counting from the start, on random texts of long ASCII runs
    /// with emoji, CJK, combining marks, curly quotes and CRLF among them.
    #[test]
    fn random_mostly_ascii_texts_agree_with_counting() {
        let pieces = crate::test_rng::with_hostile(&[
            "the quick brown fox ",
            "jumps over the lazy dog. ",
            "a",
            " ",
            "\n",
            "\u{1F468}\u{200D}\u{1F469}",
            "\u{4E2D}\u{6587}",
            "\u{201C}quoted\u{201D}",
        ]);
        let mut next = crate::test_rng::below(0x706f_7369_7469_6f6e);
        for _ in 0..60 {
            let n = next(200);
            let text = crate::test_rng::text_of(&mut next, &pieces, n);
            let idx = PositionIndex::new(&text);
            let (mut chars, mut units) = (0, 0);
            let mut starts = Vec::new();
            for (byte, c) in text.char_indices() {
                assert_eq!(idx.offsets(&text, byte), (chars, units), "at byte {byte} of {text:?}");
                starts.push((byte, chars));
                chars += 1;
                units += c.len_utf16();
            }
            assert_eq!(idx.offsets(&text, text.len()), (chars, units));
            for _ in 0..50 {
                let Some(&(a, _)) = starts.get(next(starts.len().max(1))) else { break };
                let Some(&(b, _)) = starts.get(next(starts.len())) else { break };
                let (start, end) = (a.min(b), a.max(b) + 1);
                let span = idx.span(&text, start, end.min(text.len()));
                let line = text[..start].matches('\n').count() + 1;
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                assert_eq!(span.line, line);
                assert_eq!(span.column, text[line_start..start].chars().count() + 1);
                assert_eq!(span.start, text[..start].chars().count());
                assert_eq!(span.utf16_start, text[..start].encode_utf16().count());
            }
        }
    }

    #[test]
    fn checkpoints_agree_across_blocks() {
        // several blocks and a partial one, with multi-byte chars across
        // every block and checkpoint boundary
        let text: String = (0..3 * BLOCK / 2).map(|i| ["ab", "é", "中", "😀", "\n", "x"][i % 6]).collect();
        assert!(text.len() > 3 * BLOCK);
        let idx = PositionIndex::new(&text);
        let (mut chars, mut units) = (0, 0);
        for (byte, c) in text.char_indices() {
            assert_eq!(idx.offsets(&text, byte), (chars, units), "at byte {byte}");
            chars += 1;
            units += c.len_utf16();
        }
        assert_eq!(idx.offsets(&text, text.len()), (chars, units));
    }
}
