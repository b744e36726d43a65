//! Small scanners: line-level byte tests for block structure (markers,
//! fences, headings, table rows, link reference definitions) and char-level
//! ones over candidates shared by inline parsing.

use super::Cand;

pub(super) fn is_space_tab(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

pub(super) fn skip_ws(b: &[u8], mut p: usize, le: usize) -> usize {
    while p < le && b.get(p).is_some_and(|&c| is_space_tab(c)) {
        p += 1;
    }
    p
}

/// Indentation width of `[from, to)` (spaces and tabs), tabs counting as 4.
pub(super) fn indent(b: &[u8], from: usize, to: usize) -> usize {
    b.get(from..to).unwrap_or_default().iter().map(|&c| if c == b'\t' { 4 } else { 1 }).sum()
}

/// The end of the run of `c`s at `from` (at most `le`).
fn run_end(b: &[u8], from: usize, le: usize, c: u8) -> usize {
    let mut r = from;
    while r < le && b.get(r) == Some(&c) {
        r += 1;
    }
    r
}

/// `***`, `---`, `___` (3 or more, spaces allowed between) and nothing else.
pub(super) fn thematic_break(b: &[u8], q: usize, le: usize) -> bool {
    let Some(line @ [c @ (b'-' | b'*' | b'_'), ..]) = b.get(q..le) else {
        return false;
    };
    let c = *c;
    let mut count = 0;
    for &x in line {
        if x == c {
            count += 1;
        } else if !is_space_tab(x) {
            return false;
        }
    }
    count >= 3
}

/// `===` (level 1) or `---` (level 2), trailing spaces allowed.
pub(super) fn setext_underline(b: &[u8], q: usize, le: usize) -> Option<u8> {
    let c = *b.get(q)?;
    if c != b'=' && c != b'-' {
        return None;
    }
    let r = run_end(b, q, le, c);
    if skip_ws(b, r, le) != le {
        return None;
    }
    Some(if c == b'=' { 1 } else { 2 })
}

/// An opening code fence at `q`: its char and length.
pub(super) fn fence_open(b: &[u8], q: usize, le: usize) -> Option<(u8, usize)> {
    let c = *b.get(q)?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let r = run_end(b, q, le, c);
    if r - q < 3 || (c == b'`' && b.get(r..le).unwrap_or_default().contains(&b'`')) {
        return None;
    }
    Some((c, r - q))
}

/// A closing fence of `len` or more `ch`s (only spaces and tabs around it).
pub(super) fn closing_fence(b: &[u8], p: usize, le: usize, ch: u8, len: usize) -> bool {
    let q = skip_ws(b, p, le);
    let r = run_end(b, q, le, ch);
    r - q >= len && skip_ws(b, r, le) == le
}

/// An ATX heading at `q`: level, and the byte range of its content.
pub(super) fn atx_heading(b: &[u8], q: usize, le: usize) -> Option<(u8, usize, usize)> {
    let r = run_end(b, q, le, b'#');
    let level = r - q;
    if level == 0 || level > 6 || (r < le && !b.get(r).is_some_and(|&c| is_space_tab(c))) {
        return None;
    }
    let cs = skip_ws(b, r, le);
    let before = |i: usize| if i > 0 { b.get(i - 1).copied() } else { None };
    let trim_end = |mut ce: usize| {
        while ce > cs && before(ce).is_some_and(is_space_tab) {
            ce -= 1;
        }
        ce
    };
    let mut ce = trim_end(le);
    let mut h = ce;
    while h > cs && before(h) == Some(b'#') {
        h -= 1;
    }
    if h < ce && (h == cs || before(h).is_some_and(is_space_tab)) {
        ce = trim_end(h);
    }
    Some((level as u8, cs, ce))
}

/// The number of cells of a table delimiter row (`| --- | :-: |`), if it is one.
/// It must contain a pipe (a bare `---` is a setext underline or a break).
pub(super) fn delimiter_row_cells(line: &str) -> Option<usize> {
    let t = line.trim();
    if !t.contains('|') {
        return None;
    }
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut cells = 0;
    for cell in t.split('|') {
        let c = cell.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        if c.is_empty() || !c.bytes().all(|x| x == b'-') {
            return None;
        }
        cells += 1;
    }
    Some(cells)
}

/// The number of cells of a table row (split at unescaped pipes).
pub(super) fn row_cells(line: &[u8]) -> usize {
    let mut t = line;
    while let [first, rest @ ..] = t {
        if !is_space_tab(*first) {
            break;
        }
        t = rest;
    }
    while let [rest @ .., last] = t {
        if !is_space_tab(*last) {
            break;
        }
        t = rest;
    }
    if let [b'|', rest @ ..] = t {
        t = rest;
    }
    if let [rest @ .., b'|'] = t {
        if !rest.ends_with(b"\\") {
            t = rest;
        }
    }
    let mut cells = 1;
    while let [c, rest @ ..] = t {
        match c {
            b'\\' => t = rest.get(1..).unwrap_or_default(),
            b'|' => {
                cells += 1;
                t = rest;
            }
            _ => t = rest,
        }
    }
    cells
}

/// A link label normalized for matching: whitespace collapsed, lowercase.
pub(super) fn normalize_label(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A one-line link reference definition at `q`: its normalized label.
pub(super) fn link_definition(src: &str, q: usize, le: usize) -> Option<String> {
    let b = src.as_bytes();
    let at = |i: usize| if i < le { b.get(i).copied() } else { None };
    if at(q) != Some(b'[') {
        return None;
    }
    let label_start = q + 1;
    let mut j = label_start;
    while let Some(c) = at(j).filter(|&c| c != b']') {
        match c {
            b'\\' => j += 2,
            b'[' => return None,
            _ => j += 1,
        }
        if j - label_start > 999 {
            return None;
        }
    }
    if j >= le {
        return None;
    }
    let label = src.get(label_start..j)?;
    if label.trim().is_empty() || label.starts_with('^') {
        return None;
    }
    j += 1;
    if at(j) != Some(b':') {
        return None;
    }
    j = skip_ws(b, j + 1, le);
    let first = at(j)?;
    if first == b'<' {
        j += 1;
        while let Some(c) = at(j).filter(|&c| c != b'>') {
            if c == b'<' {
                return None;
            }
            j += 1;
        }
        if j >= le {
            return None;
        }
        j += 1;
    } else {
        while at(j).is_some_and(|c| !is_space_tab(c)) {
            j += 1;
        }
    }
    let k = skip_ws(b, j, le);
    if let Some(open) = at(k) {
        let close = match open {
            b'"' => b'"',
            b'\'' => b'\'',
            b'(' => b')',
            _ => return None,
        };
        if k == j {
            return None;
        }
        let mut t = k + 1;
        while let Some(c) = at(t).filter(|&c| c != close) {
            t += if c == b'\\' { 2 } else { 1 };
        }
        if t >= le || skip_ws(b, t + 1, le) != le {
            return None;
        }
    }
    Some(normalize_label(label))
}

/// The char of candidate `j`, if `j < limit` and there is one.
pub(super) fn ch_at(cs: &[Cand], j: usize, limit: usize) -> Option<char> {
    if j < limit {
        cs.get(j).map(|c| c.ch)
    } else {
        None
    }
}

pub(super) fn run_len(cs: &[Cand], i: usize, c: char) -> usize {
    cs.get(i..).unwrap_or_default().iter().take_while(|x| x.ch == c).count()
}

pub(super) fn skip_ws_nl(cs: &[Cand], mut j: usize, limit: usize) -> usize {
    while ch_at(cs, j, limit).is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) {
        j += 1;
    }
    j
}
