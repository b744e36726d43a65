//! Emphasis and strikethrough: CommonMark's delimiter runs and its
//! "process emphasis" procedure (with the rule of three), `~~` as cmark-gfm.

use super::inline::Inline;

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

impl Inline<'_> {
    pub(super) fn push_delim(&mut self, ch: char, i: usize, len: usize) {
        let cs = self.cs;
        let before = if i == 0 { '\n' } else { cs[i - 1].ch };
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
        match self.tail {
            Some(t) => self.delims[t].next = Some(idx),
            None => self.head = Some(idx),
        }
        self.tail = Some(idx);
    }

    pub(super) fn unlink(&mut self, d: usize) {
        let Delim { prev, next, .. } = self.delims[d];
        match prev {
            Some(p) => self.delims[p].next = next,
            None => self.head = next,
        }
        match next {
            Some(x) => self.delims[x].prev = prev,
            None => self.tail = prev,
        }
    }

    /// CommonMark's "process emphasis" over the delimiters above `bottom`.
    pub(super) fn process_emphasis(&mut self, bottom: Option<usize>) {
        let kind = |c: char| match c {
            '*' => 0,
            '_' => 1,
            _ => 2,
        };
        let mut openers_bottom = [[[bottom; 3]; 2]; 3];
        let mut closer = match bottom {
            Some(b) => self.delims[b].next,
            None => self.head,
        };
        while let Some(c) = closer {
            let d = self.delims[c];
            if !d.close {
                closer = d.next;
                continue;
            }
            let ob = openers_bottom[kind(d.ch)][usize::from(d.open)][d.orig % 3];
            let mut opener = d.prev;
            let mut found = None;
            while let Some(o) = opener {
                if Some(o) == ob || Some(o) == bottom {
                    break;
                }
                let od = self.delims[o];
                let matches = od.ch == d.ch
                    && od.open
                    && if d.ch == '~' { od.len == d.len } else { !rule_of_three_forbids(od, d) };
                if matches {
                    found = Some(o);
                    break;
                }
                opener = od.prev;
            }
            let Some(o) = found else {
                openers_bottom[kind(d.ch)][usize::from(d.open)][d.orig % 3] = d.prev;
                if !d.open {
                    self.unlink(c);
                }
                closer = d.next;
                continue;
            };
            let od = self.delims[o];
            let used = if d.ch == '~' || (od.len >= 2 && d.len >= 2) { 2 } else { 1 };
            self.drop_range(od.pos + od.len - used, od.pos + od.len);
            self.drop_range(d.pos, d.pos + used);
            self.delims[o].len -= used;
            self.delims[c].len -= used;
            self.delims[c].pos += used;
            let mut between = od.next;
            while let Some(x) = between {
                if x == c {
                    break;
                }
                between = self.delims[x].next;
                self.unlink(x);
            }
            if self.delims[o].len == 0 {
                self.unlink(o);
            }
            if self.delims[c].len == 0 {
                closer = self.delims[c].next;
                self.unlink(c);
            }
        }
        let mut rest = match bottom {
            Some(b) => self.delims[b].next,
            None => self.head,
        };
        while let Some(x) = rest {
            rest = self.delims[x].next;
            self.unlink(x);
        }
    }
}
