//! Small byte scanners and source helpers shared by the HTML and markdown
//! extractors (and the hidden-text reader).

/// HTML's ASCII whitespace (tab, LF, FF, CR, space).
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// The byte at `j`, if `j < to` and there is one.
pub(crate) fn byte_at(b: &[u8], j: usize, to: usize) -> Option<u8> {
    if j < to {
        b.get(j).copied()
    } else {
        None
    }
}

/// The end of the run of bytes from `from` (below `to`) that `pred` accepts.
pub(crate) fn skip_while(b: &[u8], from: usize, to: usize, pred: impl Fn(u8) -> bool) -> usize {
    let mut j = from;
    while byte_at(b, j, to).is_some_and(&pred) {
        j += 1;
    }
    j
}

/// The first `c` at or after `from`.
pub(crate) fn find_byte(b: &[u8], from: usize, c: u8) -> Option<usize> {
    b.get(from..)?.iter().position(|&x| x == c).map(|k| from + k)
}

/// The first occurrence of `pat` at or after `from`.
pub(crate) fn find_seq(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?.windows(pat.len()).position(|w| w == pat).map(|k| from + k)
}

/// The longest prefix of `src` whose offsets fit in a `u32`.
pub(crate) fn addressable(src: &str) -> &str {
    if u32::try_from(src.len()).is_ok() {
        return src;
    }
    let mut end = u32::MAX as usize;
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    src.get(..end).unwrap_or("")
}
