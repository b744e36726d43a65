//! Source bytes to text (spec 000 §2.1 `source_metadata.encoding`, default
//! `utf-8`): the encodings a source document comes in besides UTF-8 —
//! latin-1 / windows-1252 and UTF-16 with or without a byte order mark —
//! decoded by `encoding_rs` as the WHATWG Encoding Standard decodes them.
//!
//! Labels are looked up in this module's own table, not with
//! `encoding_rs::Encoding::for_label`: that table names every encoding, and
//! referencing them all would put the CJK decoders and their tables into
//! the `.wasm`. Per WHATWG, `latin1`, `iso-8859-1` and `ascii` are
//! windows-1252 (which agrees with ISO-8859-1 on every byte but 0x80–0x9F,
//! where it has printable characters instead of C1 controls), and `utf-16`
//! without a byte order mark is little-endian. A byte order mark decides
//! over the label (WHATWG's "decode"), and is not part of the text.

use crate::error::{Error, ErrorKind, JsonPath, Result};
use encoding_rs::{DecoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};
use serde_json::Value;

/// An encoding a source may be declared in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SourceEncoding {
    /// UTF-8 (the default).
    Utf8,
    /// windows-1252, which WHATWG also names latin-1, iso-8859-1 and ascii.
    Windows1252,
    /// UTF-16, little-endian (also the label `utf-16`).
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

/// WHATWG's labels of the four encodings, and `latin-1`, `utf16`,
/// `utf16le`, `utf16be` (compared after trimming ASCII whitespace and
/// lowercasing).
const LABELS: [(&str, SourceEncoding); 36] = [
    ("unicode-1-1-utf-8", SourceEncoding::Utf8),
    ("unicode11utf8", SourceEncoding::Utf8),
    ("unicode20utf8", SourceEncoding::Utf8),
    ("utf-8", SourceEncoding::Utf8),
    ("utf8", SourceEncoding::Utf8),
    ("x-unicode20utf8", SourceEncoding::Utf8),
    ("ansi_x3.4-1968", SourceEncoding::Windows1252),
    ("ascii", SourceEncoding::Windows1252),
    ("cp1252", SourceEncoding::Windows1252),
    ("cp819", SourceEncoding::Windows1252),
    ("csisolatin1", SourceEncoding::Windows1252),
    ("ibm819", SourceEncoding::Windows1252),
    ("iso-8859-1", SourceEncoding::Windows1252),
    ("iso-ir-100", SourceEncoding::Windows1252),
    ("iso8859-1", SourceEncoding::Windows1252),
    ("iso88591", SourceEncoding::Windows1252),
    ("iso_8859-1", SourceEncoding::Windows1252),
    ("iso_8859-1:1987", SourceEncoding::Windows1252),
    ("l1", SourceEncoding::Windows1252),
    ("latin1", SourceEncoding::Windows1252),
    ("latin-1", SourceEncoding::Windows1252),
    ("us-ascii", SourceEncoding::Windows1252),
    ("windows-1252", SourceEncoding::Windows1252),
    ("x-cp1252", SourceEncoding::Windows1252),
    ("csunicode", SourceEncoding::Utf16Le),
    ("iso-10646-ucs-2", SourceEncoding::Utf16Le),
    ("ucs-2", SourceEncoding::Utf16Le),
    ("unicode", SourceEncoding::Utf16Le),
    ("unicodefeff", SourceEncoding::Utf16Le),
    ("utf-16", SourceEncoding::Utf16Le),
    ("utf-16le", SourceEncoding::Utf16Le),
    ("utf16", SourceEncoding::Utf16Le),
    ("utf16le", SourceEncoding::Utf16Le),
    ("unicodefffe", SourceEncoding::Utf16Be),
    ("utf-16be", SourceEncoding::Utf16Be),
    ("utf16be", SourceEncoding::Utf16Be),
];

impl SourceEncoding {
    /// The encoding a label names (`"Latin-1"`, `"utf-16"`, …), if it is one
    /// of the four.
    pub fn from_label(label: &str) -> Option<SourceEncoding> {
        let label = label.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_lowercase();
        LABELS.iter().find(|(name, _)| *name == label).map(|&(_, e)| e)
    }

    /// Its canonical name: `utf-8`, `windows-1252`, `utf-16le`, `utf-16be`.
    pub fn name(self) -> &'static str {
        match self {
            SourceEncoding::Utf8 => "utf-8",
            SourceEncoding::Windows1252 => "windows-1252",
            SourceEncoding::Utf16Le => "utf-16le",
            SourceEncoding::Utf16Be => "utf-16be",
        }
    }

    fn encoding(self) -> &'static Encoding {
        match self {
            SourceEncoding::Utf8 => UTF_8,
            SourceEncoding::Windows1252 => WINDOWS_1252,
            SourceEncoding::Utf16Le => UTF_16LE,
            SourceEncoding::Utf16Be => UTF_16BE,
        }
    }

    /// `source_metadata.encoding` read at `path`: a string naming one of the
    /// four, else a VALIDATION_ERROR there.
    pub fn from_json(value: &Value, path: &JsonPath) -> Result<SourceEncoding> {
        let Value::String(label) = value else {
            return Err(Error::invalid_input(path, "type", "encoding must be a string"));
        };
        SourceEncoding::from_label(label).ok_or_else(|| {
            Error::invalid_input(
                path,
                "enum",
                format!(
                    "encoding {label:?} is not supported; supported: utf-8, windows-1252 (latin-1, iso-8859-1, ascii), utf-16, utf-16le, utf-16be"
                ),
            )
        })
    }
}

/// The byte order mark at the start of `bytes`, if any: its encoding and length.
fn bom(bytes: &[u8]) -> Option<(SourceEncoding, usize)> {
    match bytes {
        [0xEF, 0xBB, 0xBF, ..] => Some((SourceEncoding::Utf8, 3)),
        [0xFF, 0xFE, ..] => Some((SourceEncoding::Utf16Le, 2)),
        [0xFE, 0xFF, ..] => Some((SourceEncoding::Utf16Be, 2)),
        _ => None,
    }
}

/// `bytes` as text in `encoding` (a byte order mark decides over it and is
/// dropped). Bytes that are not text in that encoding (invalid UTF-8, a
/// lone UTF-16 surrogate, an odd last byte) are a DOCUMENT_PARSING_ERROR
/// naming the byte offset, never replaced: a replaced character would be
/// evidence the source does not hold. windows-1252 decodes every byte.
pub fn decode(bytes: &[u8], encoding: SourceEncoding) -> Result<String> {
    let (encoding, skip) = bom(bytes).unwrap_or((encoding, 0));
    let body = bytes.get(skip..).unwrap_or(&[]);
    let mut decoder = encoding.encoding().new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length_without_replacement(body.len()).ok_or_else(|| {
        Error::new(ErrorKind::DocumentParsing, format!("the source is too large to decode ({} bytes)", bytes.len()))
    })?;
    let mut text = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(body, &mut text, true);
    match result {
        DecoderResult::InputEmpty => Ok(text),
        DecoderResult::Malformed(bad, after) => {
            let at = skip + read.saturating_sub(usize::from(bad) + usize::from(after));
            Err(Error::new(
                ErrorKind::DocumentParsing,
                format!("the source is not valid {} (malformed bytes at byte offset {at})", encoding.name()),
            )
            .with_detail("byte_offset", Value::from(at))
            .with_detail("encoding", Value::from(encoding.name())))
        }
        // the buffer was sized for the worst case
        DecoderResult::OutputFull => Err(Error::new(ErrorKind::Processing, "the decoder's output buffer was full")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(SourceEncoding::from_label(" Latin1 "), Some(SourceEncoding::Windows1252));
        assert_eq!(SourceEncoding::from_label("ISO-8859-1"), Some(SourceEncoding::Windows1252));
        assert_eq!(SourceEncoding::from_label("utf-16"), Some(SourceEncoding::Utf16Le));
        assert_eq!(SourceEncoding::from_label("UTF-16BE"), Some(SourceEncoding::Utf16Be));
        assert_eq!(SourceEncoding::from_label("utf8"), Some(SourceEncoding::Utf8));
        assert_eq!(SourceEncoding::from_label("shift_jis"), None);
        let e =
            SourceEncoding::from_json(&Value::from("ebcdic"), &JsonPath::root().key("source_metadata").key("encoding"))
                .unwrap_err();
        assert_eq!(e.details()["json_path"], "$.source_metadata.encoding");
    }

    #[test]
    fn windows_1252_and_latin_1() {
        // "café – 50 €" in windows-1252; 0xE9 é, 0x96 en dash, 0x80 euro sign
        let bytes = b"caf\xe9 \x96 50 \x80";
        assert_eq!(decode(bytes, SourceEncoding::Windows1252).unwrap(), "café – 50 €");
        // every byte decodes; 0x81 (undefined in 1252) is U+0081 as in WHATWG
        let all: Vec<u8> = (0..=255).collect();
        let text = decode(&all, SourceEncoding::Windows1252).unwrap();
        assert_eq!(text.chars().count(), 256);
        assert_eq!(text.chars().nth(0x81), Some('\u{81}'));
        assert_eq!(text.chars().nth(0xFF), Some('ÿ'));
    }

    #[test]
    fn utf_16_with_and_without_a_byte_order_mark() {
        let le: Vec<u8> = "naïve 😀".encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = "naïve 😀".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&le, SourceEncoding::Utf16Le).unwrap(), "naïve 😀");
        assert_eq!(decode(&be, SourceEncoding::Utf16Be).unwrap(), "naïve 😀");
        // the mark decides over the label, and is not text
        let with_bom = [&[0xFE, 0xFF][..], &be].concat();
        assert_eq!(decode(&with_bom, SourceEncoding::Utf16Le).unwrap(), "naïve 😀");
        let with_bom = [&[0xFF, 0xFE][..], &le].concat();
        assert_eq!(decode(&with_bom, SourceEncoding::Utf8).unwrap(), "naïve 😀");
        assert_eq!(decode(b"\xEF\xBB\xBFabc", SourceEncoding::Utf8).unwrap(), "abc");
    }

    #[test]
    fn malformed_bytes_are_an_error_with_their_offset() {
        // a lone high surrogate (D800) at byte 2, then "a"
        let e = decode(&[0x61, 0x00, 0x00, 0xD8, 0x61, 0x00], SourceEncoding::Utf16Le).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DocumentParsing);
        assert_eq!(e.details()["byte_offset"], 2);
        // an odd last byte
        assert!(decode(&[0x61, 0x00, 0x62], SourceEncoding::Utf16Le).is_err());
        let e = decode(b"ab\xffcd", SourceEncoding::Utf8).unwrap_err();
        assert_eq!(e.details()["byte_offset"], 2);
    }
}
