//! SubRip (`.srt`): numbered cues `00:00:01,000 --> 00:00:04,000` with one
//! or more text lines, separated by blank lines. Segment level only. Read
//! leniently where real files differ (a missing cue number, `.` for `,`,
//! no blank line before the next cue, markup such as `<i>` or `{\an8}`);
//! anything else is a `DOCUMENT_PARSING_ERROR` naming the line.

use super::super::model::{Builder, Spacing, Transcript, TranscriptFormat};
use super::cue::{lines_within, parse_timing, push_cue};
use super::tick;
use crate::error::{Error, ErrorKind, Result};
use crate::host::Deadline;
use serde_json::Value;

/// A parsing error at 1-based `line`.
pub(crate) fn line_error(format: &str, line: usize, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::DocumentParsing, format!("{format} line {line}: {}", message.into()))
        .with_detail("line", Value::from(line))
}

fn is_index(line: &str) -> bool {
    !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
}

fn is_timing(line: &str) -> bool {
    line.contains("-->") && parse_timing(line).is_ok()
}

/// Reads an SRT file.
pub fn parse_srt(input: &str) -> Result<Transcript> {
    parse_srt_within(input, &Deadline::never())
}

/// [`parse_srt`] within `deadline`.
pub(crate) fn parse_srt_within(input: &str, deadline: &Deadline<'_>) -> Result<Transcript> {
    let lines = lines_within(input, deadline)?;
    let mut b = Builder::new(TranscriptFormat::Srt, Spacing::Join(" "));
    let mut cues = 0usize;
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        tick(deadline, || format!("SRT line {}", i + 1))?;
        let line = line.trim();
        if line.is_empty() {
            i += 1;
            continue;
        }
        let timing_at = if is_index(line) { i + 1 } else { i };
        let timing = lines.get(timing_at).map_or("", |l| l.trim());
        if !timing.contains("-->") {
            return Err(if timing_at == i {
                line_error(
                    "SRT",
                    i + 1,
                    format!(
                        "expected a cue number or a timing line like `00:00:01,000 --> 00:00:04,000`, found {line:?}"
                    ),
                )
            } else {
                line_error(
                    "SRT",
                    timing_at + 1,
                    format!("expected the timing of cue {line} (`00:00:01,000 --> 00:00:04,000`), found {timing:?}"),
                )
            });
        }
        let (start, mut end) =
            parse_timing(timing).map_err(|m| line_error("SRT", timing_at + 1, format!("bad cue timing: {m}")))?;
        if end < start {
            b.warn(format!("SRT line {}: the cue ends before it starts; end set to the start", timing_at + 1));
            end = start;
        }
        let mut j = timing_at + 1;
        let mut text = Vec::new();
        while let Some(l) = lines.get(j) {
            tick(deadline, || format!("SRT line {}", j + 1))?;
            let l = l.trim();
            if l.is_empty() || is_timing(l) || (is_index(l) && lines.get(j + 1).is_some_and(|n| is_timing(n.trim()))) {
                break;
            }
            text.push(l);
            j += 1;
        }
        push_cue(&mut b, &text, (start, end), "SRT", timing_at + 1);
        cues += 1;
        i = j;
    }
    if cues == 0 {
        return Err(line_error(
            "SRT",
            1,
            "no cues: an SRT file holds numbered cues `1` / `00:00:01,000 --> 00:00:04,000` / text",
        ));
    }
    b.finish(deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cues_with_multiple_lines_and_markup() {
        let t = parse_srt("\u{feff}1\r\n00:00:01,000 --> 00:00:04,000\r\n<i>Hello</i> there,\r\nfriend.\r\n\r\n2\r\n00:00:05,500 --> 00:00:07,000\r\nBye.\r\n").unwrap();
        assert_eq!(t.segments().len(), 2);
        assert_eq!(t.segments()[0].text, "Hello there,\nfriend.");
        assert_eq!(t.segments()[1].start, 5.5);
        assert_eq!(t.text(), "Hello there,\nfriend.\nBye.");
    }

    #[test]
    fn lenient_where_real_files_differ() {
        let t = parse_srt("00:00:01.000 --> 00:00:02.000\nA\n2\n00:00:03,000 --> 00:00:04,000\nB\n").unwrap();
        assert_eq!(t.segments().len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_srt("1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:0x,000 --> 00:00:04,000\nB\n").unwrap_err();
        assert_eq!(e.details()["line"], 6);
        assert!(e.message().starts_with("SRT line 6: bad cue timing"), "{}", e.message());
        let e = parse_srt("1\nhello\n").unwrap_err();
        assert_eq!(e.details()["line"], 2);
        assert!(parse_srt("").is_err());
        assert!(parse_srt("\n\n").is_err());
    }
}
