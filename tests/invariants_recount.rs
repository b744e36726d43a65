//! `invariants::Recount` (the span check of the fuzz targets, property
//! tests and regression replay, counted once per text) is exactly as strict
//! as recounting each span from the start of its text: the first version
//! of `span_slices_to`, kept here as the reference, walked the text before
//! every span, which made the targets with many spans (a transcript's words
//! and tokens) quadratic. Both must accept and reject the same spans.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use invariants::{Offsets, Recount};
use proptest::prelude::*;

/// The reference: every count walks the text from its start.
fn by_walking(text: &str, o: Offsets, want: &str) -> Result<(), String> {
    let (bs, be) = o.bytes;
    if bs > be || be > text.len() || !text.is_char_boundary(bs) || !text.is_char_boundary(be) {
        return Err("bounds".into());
    }
    let slice = &text[bs..be];
    if slice != want {
        return Err("text".into());
    }
    let before = &text[..bs];
    let chars = (before.chars().count(), before.chars().count() + slice.chars().count());
    let u16_before = before.encode_utf16().count();
    let utf16 = (u16_before, u16_before + slice.encode_utf16().count());
    if chars != o.chars || utf16 != o.utf16 {
        return Err("units".into());
    }
    let by_chars: String = text.chars().skip(chars.0).take(chars.1 - chars.0).collect();
    let units: Vec<u16> = text.encode_utf16().skip(utf16.0).take(utf16.1 - utf16.0).collect();
    if by_chars != want || String::from_utf16(&units).ok().as_deref() != Some(want) {
        return Err("slicing".into());
    }
    if let Some((line, column, end_line)) = o.line_column {
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let want_line = before.matches('\n').count() + 1;
        let want_column = text[line_start..bs].chars().count() + 1;
        let last = slice.char_indices().last().map_or(bs, |(i, _)| bs + i);
        let want_end = text[..last].matches('\n').count() + 1;
        if (line, column) != (want_line, want_column) {
            return Err("line".into());
        }
        if end_line != want_end && !(bs == be && end_line == want_line) {
            return Err("end line".into());
        }
    }
    Ok(())
}

/// Offsets of `text[bs..be]`, counted from the text's start (off a char
/// boundary, of the chars of the bytes before, lossily).
fn offsets_of(text: &str, bs: usize, be: usize) -> Offsets {
    let prefix = |b: usize| String::from_utf8_lossy(&text.as_bytes()[..b]).into_owned();
    let (a, z) = (prefix(bs), prefix(be));
    let line = a.matches('\n').count() + 1;
    let column = a.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let end_line = match text.get(bs..be).and_then(|s| s.char_indices().last()) {
        Some((i, _)) => text[..bs + i].matches('\n').count() + 1,
        None => line,
    };
    Offsets {
        chars: (a.chars().count(), z.chars().count()),
        utf16: (a.encode_utf16().count(), z.encode_utf16().count()),
        bytes: (bs, be),
        line_column: Some((line, column, end_line)),
    }
}

const PIECES: &[&str] = &[
    "a",
    "Revenue ",
    "😀",
    "👨\u{200D}👩\u{200D}👧",
    "中文",
    "e\u{0301}",
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "\u{FB01}",
    "İ",
    "\t",
];

/// Every way a reported span can be wrong by one: each field moved by ±1.
fn perturbed(o: Offsets) -> Vec<Offsets> {
    let mut out = Vec::new();
    let bump = |x: usize, d: i8| if d < 0 { x.wrapping_sub(1) } else { x + 1 };
    for d in [-1i8, 1] {
        for field in 0..9 {
            let mut p = o;
            let (l, c, e) = p.line_column.unwrap_or((1, 1, 1));
            match field {
                0 => p.chars.0 = bump(p.chars.0, d),
                1 => p.chars.1 = bump(p.chars.1, d),
                2 => p.utf16.0 = bump(p.utf16.0, d),
                3 => p.utf16.1 = bump(p.utf16.1, d),
                4 => p.bytes.0 = bump(p.bytes.0, d),
                5 => p.bytes.1 = bump(p.bytes.1, d),
                6 => p.line_column = Some((bump(l, d), c, e)),
                7 => p.line_column = Some((l, bump(c, d), e)),
                _ => p.line_column = Some((l, c, bump(e, d))),
            }
            out.push(p);
        }
    }
    out
}

#[test]
fn known_spans_of_a_mixed_text() {
    // bytes: a=0, 😀=1..5, b=5, \r=6, \n=7, c=8, 中=9..12, \n=12, e=13, U+0301=14..16
    let text = "a😀b\r\nc中\ne\u{301}";
    let r = Recount::new(text);
    let span = |chars, utf16, bytes, line_column| Offsets { chars, utf16, bytes, line_column: Some(line_column) };
    // "😀b": chars 1..3, UTF-16 1..4 (a surrogate pair), line 1 column 2
    assert_eq!(r.span_slices_to(span((1, 3), (1, 4), (1, 6), (1, 2, 1)), "😀b", "x"), Ok(()));
    // "c中\ne\u{301}": chars 5..10, UTF-16 6..11, line 2 column 1, last char on line 3
    assert_eq!(r.span_slices_to(span((5, 10), (6, 11), (8, 16), (2, 1, 3)), "c中\ne\u{301}", "x"), Ok(()));
    // "\r\n" ends on line 1 (its last char is the \n, which is on line 1)
    assert_eq!(r.span_slices_to(span((3, 5), (4, 6), (6, 8), (1, 4, 1)), "\r\n", "x"), Ok(()));
    // an empty span after the line break: line 2, column 1, end line 2
    assert_eq!(r.span_slices_to(span((5, 5), (6, 6), (8, 8), (2, 1, 2)), "", "x"), Ok(()));
    // wrong: the UTF-16 end of "😀b" counted as if 😀 were one unit
    assert!(r.span_slices_to(span((1, 3), (1, 3), (1, 6), (1, 2, 1)), "😀b", "x").is_err());
    // wrong: inside 😀
    assert!(r.span_slices_to(span((1, 2), (1, 2), (2, 5), (1, 2, 1)), "", "x").is_err());
    // wrong: column in bytes (中 is 3 bytes) for the "\n" after 中
    assert!(r.span_slices_to(span((7, 8), (8, 9), (12, 13), (2, 5, 2)), "\n", "x").is_err());
    assert_eq!(r.span_slices_to(span((7, 8), (8, 9), (12, 13), (2, 3, 2)), "\n", "x"), Ok(()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn recount_judges_every_span_as_walking_does(
        pieces in prop::collection::vec(0..PIECES.len(), 0..24),
        spans in prop::collection::vec((0usize..80, 0usize..80), 1..12),
        flip in any::<bool>(),
    ) {
        let text: String = pieces.iter().map(|&i| PIECES[i]).collect();
        let r = Recount::new(&text);
        for (x, y) in spans {
            let (bs, be) = (x.min(y) % (text.len() + 1), x.max(y) % (text.len() + 1));
            let (bs, be) = (bs.min(be), bs.max(be));
            let o = offsets_of(&text, bs, be);
            let want = text.get(bs..be).map(str::to_string).unwrap_or_default();
            let want = if flip && !want.is_empty() { want.to_uppercase() + "!" } else { want };
            for o in std::iter::once(o).chain(perturbed(o)) {
                let (fast, slow) = (r.span_slices_to(o, &want, "span").is_ok(), by_walking(&text, o, &want).is_ok());
                prop_assert_eq!(fast, slow, "{:?} {:?} in {:?}", o, want, text);
            }
            // a right span of a right text passes both
            if text.is_char_boundary(bs) && text.is_char_boundary(be) && !flip {
                prop_assert!(r.span_slices_to(o, &want, "span").is_ok(), "{:?} in {:?}", o, text);
            }
        }
    }
}
