//! Emphasis and strikethrough: CommonMark's delimiter runs and its
//! "process emphasis" procedure (with the rule of three), `~~` as cmark-gfm.
//! The delimiter stack (`Delims`) knows nothing of the inline parser
//! that fills it (`inline`): it says which characters the emphasis uses,
//! and the parser drops them.

use super::Cand;

/// A delimiter run of `*`, `_` or `~~` that may open or close emphasis. The
/// unused part of the run is `[pos, pos + len)`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Delim {
    pub(super) ch: char,
    pub(super) pos: usize,
    pub(super) len: usize,
    pub(super) orig: usize,
    pub(super) open: bool,
    pub(super) close: bool,
    pub(super) prev: Option<usize>,
    pub(super) next: Option<usize>,
}

pub(super) fn is_punct(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    matches!(c as u32,
        0xA1..=0xBF | 0xD7 | 0xF7 | 0x2010..=0x2027 | 0x2030..=0x205E | 0x20A0..=0x20CF
        | 0x2190..=0x23FF | 0x2500..=0x27BF | 0x2E00..=0x2E7F | 0x3000..=0x303F
        | 0xFE30..=0xFE6F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40
        | 0xFF5B..=0xFF65)
}

/// CommonMark's rule of 3: when either run can both open and close, they
/// cannot match if the sum of their lengths is a multiple of 3, unless both are.
pub(super) fn rule_of_three_forbids(opener: Delim, closer: Delim) -> bool {
    match ((opener.orig + closer.orig) % 3, opener.orig % 3, closer.orig % 3) {
        (0, 0, 0) => false,
        (0, _, _) => opener.close || closer.open,
        _ => false,
    }
}

/// The delimiter stack of one segment: a linked list through each
/// `Delim`'s `prev` and `next`, over the runs in the order pushed.
#[derive(Default)]
pub(super) struct Delims {
    delims: Vec<Delim>,
    head: Option<usize>,
    tail: Option<usize>,
}

impl Delims {
    /// The last delimiter pushed (a bracket's `bottom`).
    pub(super) fn tail(&self) -> Option<usize> {
        self.tail
    }

    /// Pushes the run of `len` `ch` at candidate `i` of `cs` when it may
    /// open or close.
    pub(super) fn push(&mut self, cs: &[Cand], ch: char, i: usize, len: usize) {
        let before = i.checked_sub(1).and_then(|k| cs.get(k)).map_or('\n', |c| c.ch);
        let after = cs.get(i + len).map_or('\n', |c| c.ch);
        let (ws_before, ws_after) = (before.is_whitespace(), after.is_whitespace());
        let (p_before, p_after) = (is_punct(before), is_punct(after));
        let left = !ws_after && (!p_after || ws_before || p_before);
        let right = !ws_before && (!p_before || ws_after || p_after);
        let (open, close) =
            if ch == '_' { (left && (!right || p_before), right && (!left || p_after)) } else { (left, right) };
        if !open && !close {
            return;
        }
        let idx = self.delims.len();
        self.delims.push(Delim { ch, pos: i, len, orig: len, open, close, prev: self.tail, next: None });
        match self.tail.and_then(|t| self.delims.get_mut(t)) {
            Some(t) => t.next = Some(idx),
            None => self.head = Some(idx),
        }
        self.tail = Some(idx);
    }

    /// Delimiter `d` (a copy), if there is one.
    fn delim(&self, d: usize) -> Option<Delim> {
        self.delims.get(d).copied()
    }

    /// The delimiter after `d`, or the first when `d` is `None`.
    fn next_delim(&self, d: Option<usize>) -> Option<usize> {
        match d {
            Some(b) => self.delim(b).and_then(|b| b.next),
            None => self.head,
        }
    }

    fn unlink(&mut self, d: usize) {
        let Some(Delim { prev, next, .. }) = self.delim(d) else {
            return;
        };
        match prev.and_then(|p| self.delims.get_mut(p)) {
            Some(p) => p.next = next,
            None => self.head = next,
        }
        match next.and_then(|x| self.delims.get_mut(x)) {
            Some(x) => x.prev = prev,
            None => self.tail = prev,
        }
    }

    /// CommonMark's "process emphasis" over the delimiters above `bottom`:
    /// the candidates of each matched pair of runs, `from..to`, go to
    /// `drop`.
    pub(super) fn process_emphasis(&mut self, bottom: Option<usize>, mut drop: impl FnMut(usize, usize)) {
        let mut openers_bottom = OpenersBottom([[[bottom; 3]; 2]; 3]);
        let mut closer = self.next_delim(bottom);
        while let Some(c) = closer {
            let Some(d) = self.delim(c) else {
                break;
            };
            if !d.close {
                closer = d.next;
                continue;
            }
            let ob = *openers_bottom.slot(d);
            let mut opener = d.prev;
            let mut found = None;
            while let Some(o) = opener {
                if Some(o) == ob || Some(o) == bottom {
                    break;
                }
                let Some(od) = self.delim(o) else {
                    break;
                };
                let matches = od.ch == d.ch
                    && od.open
                    && if d.ch == '~' { od.len == d.len } else { !rule_of_three_forbids(od, d) };
                if matches {
                    found = Some(o);
                    break;
                }
                opener = od.prev;
            }
            let Some((o, od)) = found.and_then(|o| Some((o, self.delim(o)?))) else {
                *openers_bottom.slot(d) = d.prev;
                if !d.open {
                    self.unlink(c);
                }
                closer = d.next;
                continue;
            };
            // both runs are at least 2 long when 2 are used (`~~` always is)
            let used = if d.ch == '~' || (od.len >= 2 && d.len >= 2) { 2 } else { 1 };
            drop(od.pos + od.len - used, od.pos + od.len);
            drop(d.pos, d.pos + used);
            if let Some(o) = self.delims.get_mut(o) {
                o.len -= used;
            }
            if let Some(c) = self.delims.get_mut(c) {
                c.len -= used;
                c.pos += used;
            }
            let mut between = od.next;
            while let Some(x) = between {
                if x == c {
                    break;
                }
                between = self.next_delim(Some(x));
                self.unlink(x);
            }
            if self.delim(o).is_some_and(|o| o.len == 0) {
                self.unlink(o);
            }
            if let Some(cd) = self.delim(c).filter(|c| c.len == 0) {
                closer = cd.next;
                self.unlink(c);
            }
        }
        let mut rest = self.next_delim(bottom);
        while let Some(x) = rest {
            rest = self.next_delim(Some(x));
            self.unlink(x);
        }
    }
}

/// CommonMark's `openers_bottom`: per delimiter char, whether the closer
/// can open, and its original length modulo 3.
struct OpenersBottom([[[Option<usize>; 3]; 2]; 3]);

impl OpenersBottom {
    #[allow(clippy::indexing_slicing)] // in bounds: kind < 3, a bool < 2, `% 3` < 3
    fn slot(&mut self, d: Delim) -> &mut Option<usize> {
        let kind = match d.ch {
            '*' => 0,
            '_' => 1,
            _ => 2,
        };
        &mut self.0[kind][usize::from(d.open)][d.orig % 3]
    }
}
