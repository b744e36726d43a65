//! Ellipsis quotes (issue 18): a quote with `...`, `…`, `[...]` or `[…]`
//! inside cites ordered fragments of the source with text left out between
//! them. This module trims what wraps a quote (quote marks, leading and
//! trailing ellipses), splits it into fragments, and places the fragments'
//! occurrences in order within a gap. It knows nothing of documents: the
//! caller finds each fragment's occurrences and says what a gap costs.

use crate::host::Deadline;

/// Most fragments an ellipsis quote may have; a quote with more is matched
/// as written (and so not found): the bound that keeps one claim's
/// placement linear in its fragments' occurrences.
pub const MAX_FRAGMENTS: usize = 16;

/// The ellipsis marks, longest first (`[...]` before `...`).
const MARKS: [&str; 4] = ["[...]", "[…]", "...", "…"];

/// Quote marks that wrap a quote, as (opening, closing) pairs.
const WRAPPERS: [(char, char); 7] =
    [('"', '"'), ('“', '”'), ('„', '“'), ('\'', '\''), ('‘', '’'), ('«', '»'), ('”', '”')];

/// The length in bytes of the ellipsis mark `s` starts with (a run of
/// three or more dots counts as one mark).
fn mark_at(s: &str) -> Option<usize> {
    if s.starts_with("...") {
        return Some(s.bytes().take_while(|&b| b == b'.').count());
    }
    MARKS.iter().find(|m| s.starts_with(**m)).map(|m| m.len())
}

/// The length in bytes of the ellipsis mark `s` ends with.
fn mark_before(s: &str) -> Option<usize> {
    if s.ends_with("...") {
        return Some(s.bytes().rev().take_while(|&b| b == b'.').count());
    }
    MARKS.iter().find(|m| s.ends_with(**m)).map(|m| m.len())
}

/// The part of `quote` that is matched, as a byte range: surrounding
/// whitespace, wrapping quote marks (straight and curly, as a pair) and
/// leading and trailing ellipses trimmed, repeatedly (`"…the rule…"`).
/// Nothing is trimmed if nothing would be left.
pub fn trim(quote: &str) -> (usize, usize) {
    let (mut s, mut e) = (0, quote.len());
    loop {
        let Some(t) = quote.get(s..e) else { return (0, quote.len()) };
        let before = (s, e);
        let lead = t.len() - t.trim_start().len();
        let tail = t.len() - t.trim_end().len();
        if lead + tail < t.len() {
            s += lead;
            e -= tail;
        }
        let t = quote.get(s..e).unwrap_or("");
        if let Some(n) = mark_at(t).filter(|&n| n < t.len()) {
            s += n;
        }
        let t = quote.get(s..e).unwrap_or("");
        if let Some(n) = mark_before(t).filter(|&n| n < t.len()) {
            e -= n;
        }
        let t = quote.get(s..e).unwrap_or("");
        let mut chars = t.chars();
        if let (Some(a), Some(b)) = (chars.next(), chars.next_back()) {
            if WRAPPERS.contains(&(a, b)) && a.len_utf8() + b.len_utf8() < t.len() {
                s += a.len_utf8();
                e -= b.len_utf8();
            }
        }
        if (s, e) == before {
            break;
        }
    }
    if quote.get(s..e).is_none_or(|t| t.trim().is_empty()) {
        return (0, quote.len());
    }
    (s, e)
}

/// The fragments of `quote[range]` between ellipsis marks, as byte ranges
/// of `quote` (each trimmed of whitespace, none empty). `None` when there
/// is no ellipsis inside (one fragment), or more than [`MAX_FRAGMENTS`].
pub fn fragments(quote: &str, range: (usize, usize)) -> Option<Vec<(usize, usize)>> {
    let t = quote.get(range.0..range.1)?;
    let mut out = Vec::new();
    let mut piece_start = 0;
    let mut i = 0;
    let push = |from: usize, to: usize, out: &mut Vec<(usize, usize)>| {
        let piece = t.get(from..to).unwrap_or("");
        let lead = piece.len() - piece.trim_start().len();
        let kept = piece.trim().len();
        if kept > 0 {
            out.push((range.0 + from + lead, range.0 + from + lead + kept));
        }
    };
    // every mark starts with `[`, `.` or the first byte of `…`: the chars
    // between are skipped at once (each such byte starts a char)
    while let Some(at) = t.as_bytes().get(i..).and_then(|r| memchr::memchr3(b'[', b'.', 0xe2, r)) {
        i += at;
        match t.get(i..).and_then(mark_at) {
            Some(n) => {
                push(piece_start, i, &mut out);
                i += n;
                piece_start = i;
            }
            None => i += t.get(i..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8),
        }
    }
    push(piece_start, t.len(), &mut out);
    (out.len() > 1 && out.len() <= MAX_FRAGMENTS).then_some(out)
}

/// Every ordered placement of the fragments: one per occurrence of the
/// last fragment that some chain reaches, each chain a span per fragment,
/// in order, each starting at or after the previous one's end, with
/// `gap_ok(previous_end, start)` between them. `occurrences[k]` are
/// fragment `k`'s spans, ascending (one fragment's spans all have the same
/// length, so ascending starts are ascending ends). At most `cap`
/// placements; `None` when the deadline passed.
///
/// Complete and linear: an occurrence `o` of fragment `k + 1` is reachable
/// iff some reachable occurrence of fragment `k` ends at or before
/// `o.start` within the gap. Among those ending at or before `o.start`, the
/// one ending last leaves the smallest gap, so if it is not within the gap
/// none is. One pointer walks fragment `k`'s reachable occurrences while
/// `o` walks fragment `k + 1`'s: `O(Σ occurrences)` per claim, never the
/// product of two fragments' occurrences.
pub fn place(
    occurrences: &[Vec<(usize, usize)>],
    gap_ok: impl Fn(usize, usize) -> bool,
    cap: usize,
    deadline: &Deadline,
) -> Option<Vec<Vec<(usize, usize)>>> {
    let first = occurrences.first()?;
    // per fragment: (span, index of its predecessor in the previous level)
    let mut levels: Vec<Vec<((usize, usize), usize)>> = vec![first.iter().map(|&s| (s, 0)).collect()];
    for next in occurrences.get(1..).unwrap_or_default() {
        let prev = levels.last()?;
        let mut reached = Vec::new();
        let mut p = 0;
        let mut best: Option<usize> = None;
        for &o in next {
            if deadline.expired() {
                return None;
            }
            while prev.get(p).is_some_and(|(s, _)| s.1 <= o.0) {
                best = Some(p);
                p += 1;
            }
            if let Some(b) = best.filter(|&b| prev.get(b).is_some_and(|(s, _)| gap_ok(s.1, o.0))) {
                reached.push((o, b));
            }
        }
        levels.push(reached);
    }
    let last = levels.last()?;
    let mut out = Vec::new();
    for i in 0..last.len().min(cap) {
        let mut chain = Vec::with_capacity(levels.len());
        let mut at = i;
        for level in levels.iter().rev() {
            let (span, pred) = *level.get(at)?;
            chain.push(span);
            at = pred;
        }
        chain.reverse();
        out.push(chain);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::FixedClock;

    /// `fragments` as it was: `mark_at` asked at every char.
    fn fragments_char_by_char(quote: &str, range: (usize, usize)) -> Option<Vec<(usize, usize)>> {
        let t = quote.get(range.0..range.1)?;
        let mut out = Vec::new();
        let mut piece_start = 0;
        let mut i = 0;
        let push = |from: usize, to: usize, out: &mut Vec<(usize, usize)>| {
            let piece = t.get(from..to).unwrap_or("");
            let lead = piece.len() - piece.trim_start().len();
            let kept = piece.trim().len();
            if kept > 0 {
                out.push((range.0 + from + lead, range.0 + from + lead + kept));
            }
        };
        while i < t.len() {
            match t.get(i..).and_then(mark_at) {
                Some(n) => {
                    push(piece_start, i, &mut out);
                    i += n;
                    piece_start = i;
                }
                None => i += t.get(i..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8),
            }
        }
        push(piece_start, t.len(), &mut out);
        (out.len() > 1 && out.len() <= MAX_FRAGMENTS).then_some(out)
    }

    /// `fragments`, skipping to the bytes a mark can start with, finds what
    /// asking at every char finds: random quotes of dots, brackets, `…`
    /// and its neighbours in the same UTF-8 block (`‥`, `•`, `€`, `—`),
    /// emoji and ZWJ sequences, CJK, combining marks, CRLF; empty to long;
    /// whole and in random ranges (some not on a char boundary).
    #[test]
    fn skipped_fragments_are_the_char_by_char_ones() {
        let pieces = crate::test_rng::with_hostile(&[
            "a",
            "word",
            " ",
            ".",
            "..",
            "...",
            "....",
            "[",
            "]",
            "[...]",
            "[\u{2026}]",
            "\u{2026}",
            "\u{2025}",
            "\u{2022}",
            "\u{20ac}",
            "\u{2014}",
            "\u{1f468}\u{200d}\u{1f469}",
            "\u{4e2d}\u{6587}",
            "\"",
        ]);
        let mut rng = crate::test_rng::SplitMix64(0x656c_6c69_7073);
        for case in 0..5000 {
            let len = rng.below(crate::test_rng::most_pieces(case));
            let quote = crate::test_rng::text_of(&mut |n| rng.below(n), &pieces, len);
            let mut ranges = vec![(0, quote.len())];
            for _ in 0..3 {
                let a = rng.below(quote.len() + 1);
                ranges.push((a, a + rng.below(quote.len() + 1 - a)));
            }
            for range in ranges {
                assert_eq!(fragments(&quote, range), fragments_char_by_char(&quote, range), "{quote:?} {range:?}");
            }
        }
    }

    fn trimmed(q: &str) -> &str {
        let (s, e) = trim(q);
        &q[s..e]
    }

    #[test]
    fn wrapping_marks_and_ellipses_are_trimmed() {
        assert_eq!(trimmed("\"the rule applies\""), "the rule applies");
        assert_eq!(trimmed("“…the rule applies…”"), "the rule applies");
        assert_eq!(trimmed("...the rule applies..."), "the rule applies");
        assert_eq!(trimmed("[...] the rule applies [...]"), "the rule applies");
        assert_eq!(trimmed("  ‘the rule’ "), "the rule");
        // a quote mark that opens without closing is text
        assert_eq!(trimmed("\"the rule\" applies"), "\"the rule\" applies");
        assert_eq!(trimmed("it is ... permitted"), "it is ... permitted");
        assert_eq!(trimmed("..."), "...");
    }

    #[test]
    fn fragments_split_at_every_mark() {
        let q = "it is ... permitted [...] always […] here … now";
        let f = fragments(q, (0, q.len())).unwrap();
        let texts: Vec<&str> = f.iter().map(|&(s, e)| &q[s..e]).collect();
        assert_eq!(texts, ["it is", "permitted", "always", "here", "now"]);
        assert_eq!(fragments("no ellipsis", (0, 11)), None);
        let many = ["w"; MAX_FRAGMENTS + 1].join(" ... ");
        assert_eq!(fragments(&many, (0, many.len())), None);
    }

    #[test]
    fn placement_is_ordered_within_the_gap() {
        let clock = FixedClock(0.0);
        let d = Deadline::after(&clock, f64::INFINITY);
        let gap = |a: usize, b: usize| b - a <= 10;
        // fragment B only after A: the B at 2 precedes every A
        let occ = vec![vec![(5, 7), (40, 42)], vec![(2, 4), (12, 14), (60, 62)]];
        assert_eq!(place(&occ, gap, 10, &d).unwrap(), vec![vec![(5, 7), (12, 14)]]);
        // the latest A before B is the one that fits (greedy-earliest A would not)
        let occ = vec![vec![(0, 2), (30, 32)], vec![(35, 37)]];
        assert_eq!(place(&occ, gap, 10, &d).unwrap(), vec![vec![(30, 32), (35, 37)]]);
        // out of order: nothing
        let occ = vec![vec![(50, 52)], vec![(10, 12)]];
        assert!(place(&occ, gap, 10, &d).unwrap().is_empty());
    }

    #[test]
    fn placement_agrees_with_brute_force() {
        let clock = FixedClock(0.0);
        let d = Deadline::after(&clock, f64::INFINITY);
        let mut below = crate::test_rng::below(18);
        for _ in 0..300 {
            let occ: Vec<Vec<(usize, usize)>> = (0..3)
                .map(|_| {
                    let mut v: Vec<usize> = (0..below(6)).map(|_| below(80)).collect();
                    v.sort();
                    v.dedup();
                    v.into_iter().map(|s| (s, s + 3)).collect()
                })
                .collect();
            let gap = |a: usize, b: usize| b - a <= 7;
            let got: Vec<(usize, usize)> =
                place(&occ, gap, 1000, &d).unwrap().iter().map(|c| *c.last().unwrap()).collect();
            // brute force: every last occurrence some chain reaches
            let want: Vec<(usize, usize)> = occ[2]
                .iter()
                .copied()
                .filter(|&c| {
                    occ[1]
                        .iter()
                        .any(|&b| b.1 <= c.0 && gap(b.1, c.0) && occ[0].iter().any(|&a| a.1 <= b.0 && gap(a.1, b.0)))
                })
                .collect();
            assert_eq!(got, want, "{occ:?}");
        }
    }
}
