//! Step 1 of the judge (spec 002 "File existence and context retrieval"):
//! the cited lines of a source file and the lines around them.
//!
//! Lines are numbered from 1. A line ends at `\n`; a `\r` before it is not
//! part of the line, and a final `\n` does not start an empty last line, so
//! `"a\nb\n"` has two lines, like Python's `readlines()`.

use serde::Serialize;
use std::fmt;

/// Most bytes of cited lines plus context before them (step 2's search
/// area) that one citation may cover (1 MiB): it bounds the step 2 score
/// (quote length × area) and the prompt sent to each juror.
pub const MAX_SEARCH_AREA_BYTES: usize = 1 << 20;

/// A cited line range, `L<start>-L<end>` (both inclusive, from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// First cited line (1-based).
    pub start: usize,
    /// Last cited line (1-based, inclusive).
    pub end: usize,
}

/// Why a line range cannot be read: the error of step 1.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CitationError {
    /// The cited file does not exist or cannot be read.
    FileNotFound {
        /// The cited file name.
        filename: String,
        /// What the host said (e.g. the operating system's error).
        message: String,
    },
    /// The range is not a valid range (start 0, start after end, not a number).
    InvalidRange {
        /// What was wrong.
        message: String,
    },
    /// The cited lines and their context are larger than
    /// [`MAX_SEARCH_AREA_BYTES`]: too much to score or send to a juror.
    TooLarge {
        /// The cited range.
        range: LineRange,
        /// Bytes of the cited lines and the context before them.
        bytes: usize,
    },
    /// The range starts past the end of the file (a range that only ends
    /// past it cites the lines that exist: [`Passage::past_end`]).
    OutOfRange {
        /// The cited range.
        range: LineRange,
        /// How many lines the file has.
        line_count: usize,
    },
}

impl fmt::Display for CitationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CitationError::FileNotFound { filename, message } => {
                write!(f, "file not found: {filename}: {message}")
            }
            CitationError::InvalidRange { message } => write!(f, "invalid line range: {message}"),
            CitationError::TooLarge { range, bytes } => write!(
                f,
                "cited lines {range} and their context are {bytes} bytes, more than the {MAX_SEARCH_AREA_BYTES} a citation may cover"
            ),
            CitationError::OutOfRange { range, line_count } => {
                write!(f, "cited lines {range} are outside the file ({line_count} lines)")
            }
        }
    }
}

impl std::error::Error for CitationError {}

impl LineRange {
    /// The range `start..=end`; an error when `start` is 0 or after `end`.
    pub fn new(start: usize, end: usize) -> Result<LineRange, CitationError> {
        if start == 0 {
            return Err(CitationError::InvalidRange { message: "line numbers start at 1 (got L0)".into() });
        }
        if start > end {
            return Err(CitationError::InvalidRange { message: format!("start line {start} is after end line {end}") });
        }
        Ok(LineRange { start, end })
    }

    /// Parses `L13326-L13328`, `L13326`, `13326-13328` or `L5-7` (the `L`
    /// is optional, either case; spaces around `-` are allowed).
    pub fn parse(text: &str) -> Result<LineRange, CitationError> {
        let bad =
            || CitationError::InvalidRange { message: format!("{text:?} is not a line range like L12-L14 or L12") };
        let (a, b) = match text.split_once('-') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let start = parse_line_number(a).ok_or_else(bad)?;
        let end = match b {
            Some(b) => parse_line_number(b).ok_or_else(bad)?,
            None => start,
        };
        LineRange::new(start, end)
    }

    /// Number of cited lines.
    pub fn len(&self) -> usize {
        self.end - self.start + 1
    }

    /// Always false: a range holds at least one line.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl fmt::Display for LineRange {
    /// `L<start>-L<end>`, the form of the spec's prompt (also for one line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}-L{}", self.start, self.end)
    }
}

/// `L123`, `l123` or `123` (surrounding spaces allowed) as a number.
pub fn parse_line_number(text: &str) -> Option<usize> {
    let t = text.trim();
    let t = t.strip_prefix(['L', 'l']).unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// One line of a source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The line's text, without its line ending.
    pub text: String,
}

/// The result of step 1: the cited lines and their context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Passage {
    /// The cited range.
    pub range: LineRange,
    /// Up to `context_lines` lines before the range.
    pub before: Vec<Line>,
    /// The cited lines.
    pub cited: Vec<Line>,
    /// Up to `context_lines` lines after the range.
    pub after: Vec<Line>,
    /// How many lines the file has.
    pub line_count: usize,
    /// The part of the cited range past the end of the file, when the range
    /// ends there: the lines that exist are cited (as Python's
    /// `lines[start - 1:end]` takes them, spec 002 step 1) and the rest is
    /// reported here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub past_end: Option<LineRange>,
}

impl Passage {
    /// The cited lines, exactly, joined with `\n` (spec: `cited_text`).
    pub fn cited_text(&self) -> String {
        join(&self.cited)
    }

    /// The lines before, joined with `\n` (spec: `context_before`).
    pub fn context_before(&self) -> String {
        join(&self.before)
    }

    /// The lines after, joined with `\n` (spec: `context_after`).
    pub fn context_after(&self) -> String {
        join(&self.after)
    }

    /// Step 2's search area: `context_before + cited_text` (spec 002 step 2,
    /// process 1), with line tags (they are removed by normalization).
    pub fn search_area(&self) -> String {
        let mut s = tagged(&self.before);
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&tagged(&self.cited));
        s
    }

    /// The search area without tags: `context_before + "\n" +
    /// cited_text` (what step 2's meaning check compares the quote with, so
    /// that its spans are the file's text).
    pub fn untagged_area(&self) -> String {
        if self.before.is_empty() {
            self.cited_text()
        } else {
            format!("{}\n{}", self.context_before(), self.cited_text())
        }
    }

    /// The file's line of line `n` (1-based) of [`Passage::untagged_area`].
    pub fn area_line(&self, n: usize) -> usize {
        self.range.start.saturating_sub(self.before.len()).saturating_add(n).saturating_sub(1)
    }
}

fn join(lines: &[Line]) -> String {
    lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// Lines with their tags, `[L12] text`, one per line: how the prompt and
/// `text_found` show them.
pub fn tagged(lines: &[Line]) -> String {
    lines.iter().map(|l| format!("[L{}] {}", l.number, l.text)).collect::<Vec<_>>().join("\n")
}

/// The lines of `source` (see the module documentation for what a line is).
pub fn split_lines(source: &str) -> Vec<&str> {
    let body = source.strip_suffix('\n').unwrap_or(source);
    if source.is_empty() {
        return Vec::new();
    }
    body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// Where each line of a source starts: built once per source (one pass),
/// so that many citations of one file cost each only its own lines (see
/// [`LineIndex::locate`]), not a pass over the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    /// Length of the text without its final `\n`.
    body_len: usize,
}

impl LineIndex {
    /// The index of `source`'s lines (see the module documentation).
    pub fn new(source: &str) -> LineIndex {
        if source.is_empty() {
            return LineIndex { starts: Vec::new(), body_len: 0 };
        }
        let body = source.strip_suffix('\n').unwrap_or(source);
        let mut starts = vec![0];
        starts.extend(body.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts, body_len: body.len() }
    }

    /// How many lines the source has.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `n` (1-based) of `source` (the text the index was built from).
    fn line<'s>(&self, source: &'s str, n: usize) -> Option<&'s str> {
        let start = *self.starts.get(n.checked_sub(1)?)?;
        let end = self.starts.get(n).map_or(self.body_len, |&next| next - 1);
        let l = source.get(start..end)?;
        Some(l.strip_suffix('\r').unwrap_or(l))
    }

    /// Step 1 on `source` (which must be the text the index was built
    /// from): as [`locate`], in time proportional to the lines taken.
    pub fn locate(&self, source: &str, range: LineRange, context_lines: usize) -> Result<Passage, CitationError> {
        let line_count = self.line_count();
        if range.start == 0 || range.start > range.end {
            return Err(CitationError::InvalidRange { message: format!("{range} is not a valid range") });
        }
        if range.start > line_count {
            return Err(CitationError::OutOfRange { range, line_count });
        }
        // a range ending past the file cites what exists and reports the rest
        let past_end = (range.end > line_count).then(|| LineRange { start: line_count + 1, end: range.end });
        let end = range.end.min(line_count);
        let take = |from: usize, to: usize| -> Vec<Line> {
            // from..=to, 1-based, already clamped to the file
            (from..=to).filter_map(|n| self.line(source, n).map(|t| Line { number: n, text: t.to_string() })).collect()
        };
        let before_from = range.start.saturating_sub(context_lines).max(1);
        // bytes from the first context line to the end of the cited lines, known from the index
        let first = self.starts.get(before_from - 1).copied().unwrap_or(0);
        let last = self.starts.get(end).map_or(self.body_len, |&next| next);
        let bytes = last.saturating_sub(first);
        if bytes > MAX_SEARCH_AREA_BYTES {
            return Err(CitationError::TooLarge { range, bytes });
        }
        let before = if range.start > 1 { take(before_from, range.start - 1) } else { Vec::new() };
        let after_to = end.saturating_add(context_lines).min(line_count);
        let after = if end < line_count { take(end + 1, after_to) } else { Vec::new() };
        Ok(Passage { range, before, cited: take(range.start, end), after, line_count, past_end })
    }
}

/// Step 1: the lines `range` of `source` with `context_lines` lines of
/// context on each side (fewer at the start and end of the file). An error
/// when the range starts past the end of the file; one that only ends past
/// it cites the lines that exist ([`Passage::past_end`] names the rest).
pub fn locate(source: &str, range: LineRange, context_lines: usize) -> Result<Passage, CitationError> {
    LineIndex::new(source).locate(source, range, context_lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges() {
        assert_eq!(LineRange::parse("L13326-L13328").unwrap(), LineRange { start: 13326, end: 13328 });
        assert_eq!(LineRange::parse("L7").unwrap(), LineRange { start: 7, end: 7 });
        assert_eq!(LineRange::parse("5 - 9").unwrap(), LineRange { start: 5, end: 9 });
        assert_eq!(LineRange::parse("l5-L9").unwrap(), LineRange { start: 5, end: 9 });
        for bad in ["", "L", "L0", "L9-L5", "Lx", "L1-", "-L3", "L1-L2-L3", "L+1", "L99999999999999999999999"] {
            assert!(LineRange::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn huge_citations_are_refused_not_scored() {
        let line = "x".repeat(1000);
        let src = format!("{line}\n").repeat(2000); // 2 MB
        let p = locate(&src, LineRange::new(1, 1000).unwrap(), 5).unwrap();
        assert_eq!(p.cited.len(), 1000);
        match locate(&src, LineRange::new(1, 1100).unwrap(), 5) {
            Err(CitationError::TooLarge { bytes, .. }) => assert_eq!(bytes, 1100 * 1001),
            other => panic!("{other:?}"),
        }
        // context counts too
        assert!(matches!(locate(&src, LineRange::new(1040, 1060).unwrap(), 1040), Err(CitationError::TooLarge { .. })));
        assert!(locate(&src, LineRange::new(2000, 2000).unwrap(), 5).is_ok(), "a later call still works");
    }

    #[test]
    fn the_index_agrees_with_split_lines() {
        for src in ["", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\n\n", "x\r\r\ny\n\rz", "é\n中\r\n😀"] {
            let index = LineIndex::new(src);
            let lines = split_lines(src);
            assert_eq!(index.line_count(), lines.len(), "{src:?}");
            for (k, l) in lines.iter().enumerate() {
                assert_eq!(index.line(src, k + 1), Some(*l), "{src:?} line {}", k + 1);
            }
            assert_eq!(index.line(src, 0), None);
            assert_eq!(index.line(src, lines.len() + 1), None);
        }
    }

    #[test]
    fn context_is_clamped_to_the_file() {
        let src = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";
        let p = locate(src, LineRange::new(7, 8).unwrap(), 5).unwrap();
        assert_eq!(p.context_before(), "2\n3\n4\n5\n6");
        assert_eq!(p.cited_text(), "7\n8");
        assert_eq!(p.context_after(), "9\n10\n11\n12\n13");
        let p = locate(src, LineRange::new(1, 1).unwrap(), 5).unwrap();
        assert!(p.before.is_empty());
        assert_eq!(p.context_after(), "2\n3\n4\n5\n6");
        let p = locate(src, LineRange::new(13, 13).unwrap(), 5).unwrap();
        assert!(p.after.is_empty());
        assert_eq!(p.search_area(), "[L8] 8\n[L9] 9\n[L10] 10\n[L11] 11\n[L12] 12\n[L13] 13");
        // ending past the file: the lines that exist are cited, the rest named (issue 15)
        let p = locate(src, LineRange::new(12, 20).unwrap(), 5).unwrap();
        assert_eq!(p.cited_text(), "12\n13");
        assert_eq!(p.context_before(), "7\n8\n9\n10\n11");
        assert!(p.after.is_empty());
        assert_eq!(p.past_end, Some(LineRange { start: 14, end: 20 }));
        assert_eq!(locate(src, LineRange::new(7, 8).unwrap(), 5).unwrap().past_end, None);
        // starting past it: nothing to cite
        assert_eq!(
            locate(src, LineRange::new(14, 15).unwrap(), 5),
            Err(CitationError::OutOfRange { range: LineRange { start: 14, end: 15 }, line_count: 13 })
        );
        assert!(locate("", LineRange::new(1, 1).unwrap(), 5).is_err());
        assert_eq!(locate("\n", LineRange::new(1, 1).unwrap(), 5).unwrap().cited_text(), "");
        assert_eq!(LineIndex::new("a\n\nb\r\n").line_count(), 3);
        let p = locate("a\r\nb", LineRange::new(2, 2).unwrap(), usize::MAX).unwrap();
        assert_eq!(p.context_before(), "a");
        assert_eq!(p.cited_text(), "b");
    }
}
