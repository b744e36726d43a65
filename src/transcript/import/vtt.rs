//! WebVTT (`.vtt`): the `WEBVTT` header, then blocks separated by blank
//! lines: cues (optional identifier, `00:01.000 --> 00:04.000` with optional
//! cue settings, payload lines), `NOTE` comments, `STYLE` and `REGION`
//! blocks. Segment level only; `<v Speaker>` gives the segment's speaker and
//! every other tag is removed. As the WebVTT parser does, a block with no
//! timing line is skipped (with a warning); a timing line that does not parse
//! is a `DOCUMENT_PARSING_ERROR` naming the line.

use super::super::model::{Builder, Spacing, Transcript, TranscriptFormat};
use super::cue::{lines_within, parse_timing, push_cue};
use super::srt::line_error;
use super::tick;
use crate::error::Result;
use crate::host::Deadline;

fn starts_block(line: &str, keyword: &str) -> bool {
    line.strip_prefix(keyword).is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// Reads a WebVTT file.
pub fn parse_vtt(input: &str) -> Result<Transcript> {
    parse_vtt_within(input, &Deadline::never())
}

/// [`parse_vtt`] within `deadline`.
pub(crate) fn parse_vtt_within(input: &str, deadline: &Deadline<'_>) -> Result<Transcript> {
    let lines = lines_within(input, deadline)?;
    let first = lines.first().copied().unwrap_or("");
    if !starts_block(first, "WEBVTT") {
        return Err(line_error(
            "WebVTT",
            1,
            format!("a WebVTT file starts with `WEBVTT`, found {:?}", first.chars().take(40).collect::<String>()),
        ));
    }
    let mut b = Builder::new(TranscriptFormat::Webvtt, Spacing::Join(" "));
    let blank = |l: &str| l.trim().is_empty();
    // The header runs to the first blank line.
    let mut i = 1;
    while lines.get(i).is_some_and(|l| !blank(l) && !l.contains("-->")) {
        tick(deadline, || format!("WebVTT line {}", i + 1))?;
        i += 1;
    }
    let skip_block = |mut i: usize| -> Result<usize> {
        while lines.get(i).is_some_and(|l| !blank(l)) {
            tick(deadline, || format!("WebVTT line {}", i + 1))?;
            i += 1;
        }
        Ok(i)
    };
    let mut cues = 0usize;
    while let Some(&line) = lines.get(i) {
        tick(deadline, || format!("WebVTT line {}", i + 1))?;
        if blank(line) {
            i += 1;
            continue;
        }
        if starts_block(line, "NOTE")
            || starts_block(line.trim_end(), "STYLE")
            || starts_block(line.trim_end(), "REGION")
        {
            i = skip_block(i)?;
            continue;
        }
        let (timing_at, timing) = if line.contains("-->") {
            (i, line)
        } else if let Some(&next) = lines.get(i + 1).filter(|n| n.contains("-->")) {
            (i + 1, next)
        } else {
            b.warn(format!(
                "WebVTT line {}: block without a cue timing ignored ({:?})",
                i + 1,
                line.chars().take(40).collect::<String>()
            ));
            i = skip_block(i)?;
            continue;
        };
        let (start, mut end) =
            parse_timing(timing).map_err(|m| line_error("WebVTT", timing_at + 1, format!("bad cue timing: {m}")))?;
        if end < start {
            b.warn(format!("WebVTT line {}: the cue ends before it starts; end set to the start", timing_at + 1));
            end = start;
        }
        let mut j = timing_at + 1;
        let mut payload = Vec::new();
        while let Some(l) = lines.get(j).filter(|l| !blank(l) && !l.contains("-->")) {
            tick(deadline, || format!("WebVTT line {}", j + 1))?;
            payload.push(l.trim());
            j += 1;
        }
        push_cue(&mut b, &payload, (start, end), "WebVTT", timing_at + 1);
        cues += 1;
        i = j;
    }
    if cues == 0 {
        return Err(line_error("WebVTT", 1, "no cues after the WEBVTT header"));
    }
    b.finish(deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_notes_styles_settings_and_voices() {
        let input = "WEBVTT - a talk\nKind: captions\n\nSTYLE\n::cue { color: red }\n\nNOTE this is\na comment\n\nintro\n00:00.500 --> 00:03.000 align:start line:0\n<v Ana>Good <b>morning</b>,\neveryone.</v>\n\n01:00:03.000 --> 01:00:04.000\n<v.loud Ben Ode>Hi!\n";
        let t = parse_vtt(input).unwrap();
        assert_eq!(t.segments().len(), 2);
        assert_eq!(t.segments()[0].text, "Good morning,\neveryone.");
        assert_eq!(t.segments()[0].speaker.as_deref(), Some("Ana"));
        assert_eq!(t.segments()[1].start, 3603.0);
        assert_eq!(t.segments()[1].speaker.as_deref(), Some("Ben Ode"));
        assert!(t.warnings().is_empty());
    }

    #[test]
    fn stray_blocks_are_skipped_with_a_warning() {
        let t = parse_vtt("WEBVTT\n\nWEBVTT\n\n00:00.380 --> 00:02.760\nDis-moi, est-ce que l'avion vole ?\n").unwrap();
        assert_eq!(t.segments().len(), 1);
        assert_eq!(t.warnings().len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_vtt("WEBVTT\n\n00:00.000 --> 00:01.000\nok\n\n00:01.000 --> 00:xx.000\nbad\n").unwrap_err();
        assert_eq!(e.details()["line"], 6);
        let e = parse_vtt("1\n00:00:01,000 --> 00:00:02,000\nSRT really\n").unwrap_err();
        assert_eq!(e.details()["line"], 1);
        assert!(parse_vtt("WEBVTT\n").is_err());
        assert!(parse_vtt("WEBVTTX\n").is_err());
    }
}
