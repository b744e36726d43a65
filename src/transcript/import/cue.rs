//! What SRT and WebVTT share: cue timestamps and cue text cleanup (markup
//! removed, entities decoded) so that `<i>`, `<v Name>` or `&amp;` never
//! reach the normalized tokens.

use super::super::model::{Builder, Origin};

/// Parses a cue timestamp: `[h…:]mm:ss[.,]fff` (hours optional and of any
/// length, a fraction of 1–9 digits, or none). Seconds, or why not.
pub(crate) fn parse_timestamp(s: &str) -> std::result::Result<f64, String> {
    let s = s.trim();
    let (clock, fraction) = match s.find(['.', ',']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if !(2..=3).contains(&parts.len()) || !parts.iter().all(|p| digits(p)) {
        return Err(format!("{s:?} is not a timestamp like 00:01:02,500 or 01:02.500"));
    }
    let n = |p: &str| p.parse::<u64>().map_err(|_| format!("{s:?}: {p} is too large"));
    let ((h, m, sec), two_digits) = match parts[..] {
        [h, m, sec] => ((n(h)?, n(m)?, n(sec)?), m.len() == 2 && sec.len() == 2),
        [m, sec] => ((0, n(m)?, n(sec)?), sec.len() == 2),
        _ => ((0, 0, 0), false), // never: 2 or 3 parts, checked above
    };
    if !two_digits {
        return Err(format!("{s:?}: minutes and seconds must have two digits"));
    }
    if m > 59 || sec > 59 {
        return Err(format!("{s:?}: minutes and seconds must be below 60"));
    }
    let frac = match fraction {
        None => 0.0,
        Some(f) if digits(f) && f.len() <= 9 => {
            f.parse::<u64>().map_err(|e| e.to_string())? as f64 / 10f64.powi(f.len() as i32)
        }
        Some(f) => return Err(format!("{s:?}: the fraction {f:?} must be 1 to 9 digits")),
    };
    Ok(h as f64 * 3600.0 + m as f64 * 60.0 + sec as f64 + frac)
}

/// A cue timing line `start --> end [settings]`: (start, end), or why not.
pub(crate) fn parse_timing(line: &str) -> std::result::Result<(f64, f64), String> {
    let Some((a, b)) = line.split_once("-->") else {
        return Err("no \"-->\" in the timing line".into());
    };
    let b = b.trim_start();
    // WebVTT cue settings (align:start position:10%) and SRT coordinates (X1:…) follow the end time.
    let end = b.split_whitespace().next().unwrap_or("");
    Ok((parse_timestamp(a)?, parse_timestamp(end)?))
}

/// Cue text without markup: WebVTT/SRT tags (`<i>`, `</b>`, `<c.red>`,
/// `<v Name>`, `<00:00:01.000>`, `<font color=…>`) and SSA overrides
/// (`{\an8}`) removed, character references decoded. Returns the text and the
/// first `<v>` speaker.
///
/// Linear in the text, whatever it holds (`<<<<…>`): the next `>`, `<` and
/// `}` after the current place are remembered, each searched for again only
/// once passed.
pub(crate) fn clean_cue_text(text: &str) -> (String, Option<String>) {
    /// The next `c` at or after `from`, remembered in `cache` until passed.
    fn next(text: &str, c: char, from: usize, cache: &mut Option<Option<usize>>) -> Option<usize> {
        match *cache {
            Some(Some(at)) if at >= from => Some(at),
            Some(None) => None,
            _ => {
                let found = text.get(from..).and_then(|r| r.find(c)).map(|i| from + i);
                *cache = Some(found);
                found
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut speaker = None;
    let (mut gt, mut lt, mut brace) = (None, None, None);
    let mut pos = 0;
    while let Some(c) = text.get(pos..).and_then(|r| r.chars().next()) {
        let rest = &text[pos..];
        if c == '<' {
            if let Some(end) = next(text, '>', pos, &mut gt) {
                let tag = &text[pos + 1..end];
                let looks_like_tag = tag.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '/' || c == '.');
                let inner_lt = next(text, '<', pos + 1, &mut lt).is_some_and(|l| l < end);
                if looks_like_tag && !inner_lt {
                    if speaker.is_none() {
                        speaker = voice(tag);
                    }
                    pos = end + 1;
                    continue;
                }
            }
        } else if c == '{' && rest[1..].starts_with('\\') {
            if let Some(end) = next(text, '}', pos, &mut brace) {
                pos = end + 1;
                continue;
            }
        } else if c == '&' {
            if let Some((decoded, used)) = entity(rest) {
                out.push_str(&decoded);
                pos += used;
                continue;
            }
        }
        out.push(c);
        pos += c.len_utf8();
    }
    (out, speaker)
}

/// Adds the cue whose payload lines are `payload` (timed on line
/// `timing_line` of a `format` file) as a segment, unless nothing is left of
/// it once cleaned ([`clean_cue_text`]).
pub(crate) fn push_cue(
    b: &mut Builder,
    payload: &[&str],
    (start, end): (f64, f64),
    format: &'static str,
    timing_line: usize,
) {
    let (clean, speaker) = clean_cue_text(&payload.join("\n"));
    if !clean.trim().is_empty() {
        b.push_segment(&clean, start, end, speaker, Origin::Line(format, timing_line));
    }
}

/// The speaker of a `<v Name>` / `<v.class Name>` tag.
fn voice(tag: &str) -> Option<String> {
    let after = tag.strip_prefix('v')?;
    if !(after.starts_with([' ', '\t', '.'])) {
        return None;
    }
    let name = after.trim_start_matches(|c: char| c != ' ' && c != '\t').trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A character reference at the start of `s`: (text, bytes used).
fn entity(s: &str) -> Option<(String, usize)> {
    let semi = s.bytes().take(12).position(|b| b == b';')?;
    let name = s.get(1..semi)?;
    let decoded = match name {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        "nbsp" => "\u{a0}".to_string(),
        "lrm" | "rlm" => String::new(),
        n if n.starts_with("#x") || n.starts_with("#X") => {
            char::from_u32(u32::from_str_radix(&n[2..], 16).ok()?)?.to_string()
        }
        n if n.starts_with('#') => char::from_u32(n[1..].parse().ok()?)?.to_string(),
        _ => return None,
    };
    Some((decoded, semi + 1))
}

/// [`lines_within`] without a time limit.
#[cfg(test)]
pub(crate) fn lines(input: &str) -> Vec<&str> {
    lines_within(input, &crate::host::Deadline::never()).unwrap_or_default()
}

/// Splits input into lines, without a leading byte-order mark. Every line
/// end is accepted alike: `\n`, `\r\n` and a lone `\r` (old Mac files,
/// some subtitle editors), mixed freely. A `PROCESSING_ERROR` once
/// `deadline` passes.
pub(crate) fn lines_within<'a>(
    input: &'a str,
    deadline: &crate::host::Deadline<'_>,
) -> crate::error::Result<Vec<&'a str>> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\n' | b'\r' if deadline.expired() => {
                return Err(super::import_time_error(&format!("line {} (splitting lines)", out.len() + 1)));
            }
            b'\n' => {
                out.push(&input[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&input[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&input[start..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp("00:00:01,500"), Ok(1.5));
        assert_eq!(parse_timestamp("01:02.25"), Ok(62.25));
        assert_eq!(parse_timestamp("100:00:00.000"), Ok(360_000.0));
        assert_eq!(parse_timestamp("00:00:03"), Ok(3.0));
        assert!(parse_timestamp("00:61:00,000").is_err());
        assert!(parse_timestamp("1:2:3").is_err());
        assert!(parse_timestamp("00:00:01,5x").is_err());
        assert!(parse_timestamp("").is_err());
        assert!(parse_timestamp("99999999999999999999999:00:00").is_err());
    }

    #[test]
    fn timing_lines_with_settings() {
        assert_eq!(parse_timing("00:00.380 --> 00:02.760 align:start position:10%"), Ok((0.38, 2.76)));
        assert_eq!(parse_timing("00:00:01,000 --> 00:00:02,000 X1:40 X2:600"), Ok((1.0, 2.0)));
        assert!(parse_timing("00:00:01,000 -> 00:00:02,000").is_err());
    }

    #[test]
    fn every_line_end_alike() {
        assert_eq!(lines("a\nb\r\nc\rd\r\re"), ["a", "b", "c", "d", "", "e"]);
        assert_eq!(lines("\u{feff}x\r"), ["x", ""]);
        assert_eq!(lines(""), [""]);
        assert_eq!(lines("é\rü"), ["é", "ü"]);
    }

    #[test]
    fn markup_is_removed() {
        let (t, s) = clean_cue_text("<v.loud Roger Bingham>We are <i>in</i> New&nbsp;York &amp; <c.yellow>LA</c></v>");
        assert_eq!(t, "We are in New\u{a0}York & LA");
        assert_eq!(s.as_deref(), Some("Roger Bingham"));
        assert_eq!(clean_cue_text("{\\an8}a < b and c > d").0, "a < b and c > d");
        assert_eq!(clean_cue_text("one<00:00:01.000> two &unknown; &#233;&#xE9;").0, "one two &unknown; éé");
    }
}
