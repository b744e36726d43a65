//! Links and images: link labels, inline link tails `(dest "title")`,
//! autolinks.

use super::scanners::{ch_at, normalize_label, skip_ws_nl};
use super::{Cand, MAX_SCAN};

pub(super) fn label_text(cs: &[Cand]) -> String {
    normalize_label(&cs.iter().map(|c| c.ch).collect::<String>())
}

/// The `]` closing a link label that starts with the `[` at `at`.
pub(super) fn label_end(cs: &[Cand], at: usize) -> Option<usize> {
    let limit = cs.len().min(at + 1001);
    let mut j = at + 1;
    while let Some(c) = ch_at(cs, j, limit) {
        match c {
            '\\' => j += 2,
            '[' => return None,
            ']' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// The end (past `)`) of an inline link's `(destination "title")` at `at`.
pub(super) fn link_tail(cs: &[Cand], at: usize) -> Option<usize> {
    let limit = cs.len().min(at + MAX_SCAN);
    let dest_start = skip_ws_nl(cs, at + 1, limit);
    if dest_start >= limit {
        return None;
    }
    let dest_end = link_destination(cs, dest_start, limit)?;
    let mut j = skip_ws_nl(cs, dest_end, limit);
    let c = ch_at(cs, j, limit)?;
    if (j > dest_end || dest_end == dest_start) && matches!(c, '"' | '\'' | '(') {
        j = link_title(cs, j, limit)?;
        j = skip_ws_nl(cs, j, limit);
    }
    if ch_at(cs, j, limit)? == ')' {
        Some(j + 1)
    } else {
        None
    }
}

/// The end of a link destination at `j < limit`: `<…>` on one line, or a
/// run of non-space chars with balanced parentheses (possibly empty).
fn link_destination(cs: &[Cand], mut j: usize, limit: usize) -> Option<usize> {
    if ch_at(cs, j, limit)? == '<' {
        j += 1;
        loop {
            match ch_at(cs, j, limit)? {
                '>' => return Some(j + 1),
                '<' | '\n' | '\r' => return None,
                '\\' => j += 2,
                _ => j += 1,
            }
        }
    }
    let mut depth = 0;
    while let Some(c) = ch_at(cs, j, limit) {
        if c == '\\' && ch_at(cs, j + 1, limit).is_some_and(|c| c.is_ascii_punctuation()) {
            j += 2;
            continue;
        }
        if c.is_whitespace() || c.is_control() {
            break;
        }
        if c == '(' {
            depth += 1;
            if depth > 32 {
                return None;
            }
        } else if c == ')' {
            if depth == 0 {
                break;
            }
            depth -= 1;
        }
        j += 1;
    }
    if depth != 0 {
        return None;
    }
    Some(j)
}

/// The end (past its closing quote or parenthesis) of a link title opening
/// at `j`.
fn link_title(cs: &[Cand], mut j: usize, limit: usize) -> Option<usize> {
    let open = ch_at(cs, j, limit)?;
    let close = if open == '(' { ')' } else { open };
    j += 1;
    loop {
        let c = ch_at(cs, j, limit)?;
        if c == '\\' {
            j += 2;
            continue;
        }
        if c == close {
            return Some(j + 1);
        }
        if open == '(' && c == '(' {
            return None;
        }
        j += 1;
    }
}

/// The end (past `>`) of an autolink `<scheme:…>` or `<local@domain>` at `i`.
pub(super) fn autolink(cs: &[Cand], i: usize) -> Option<usize> {
    let limit = cs.len().min(i + MAX_SCAN);
    let at = |j: usize| ch_at(cs, j, limit);
    let mut j = i + 1;
    if at(j).is_some_and(|c| c.is_ascii_alphabetic()) {
        j += 1;
        while at(j).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')) {
            j += 1;
        }
        let scheme = j - (i + 1);
        if (2..=32).contains(&scheme) && at(j) == Some(':') {
            j += 1;
            while let Some(c) = at(j) {
                if c == '>' {
                    return Some(j + 1);
                }
                if c.is_whitespace() || c.is_control() || c == '<' {
                    return None;
                }
                j += 1;
            }
            return None;
        }
    }
    // Email autolink.
    j = i + 1;
    let local_start = j;
    while at(j).is_some_and(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c)) {
        j += 1;
    }
    if j == local_start || at(j) != Some('@') {
        return None;
    }
    j += 1;
    let domain_start = j;
    while at(j).is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-') {
        j += 1;
    }
    if j == domain_start || at(domain_start) == Some('.') || at(j) != Some('>') {
        return None;
    }
    Some(j + 1)
}
