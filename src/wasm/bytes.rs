//! A source given to `validateEvidence` as bytes (a `Uint8Array`), decoded
//! as the claims' `source_metadata.encoding` says (spec 000 §2.1; default
//! UTF-8; windows-1252 / latin-1, UTF-16 with or without a byte order mark).

use super::{string_arg, to_js_error};
use crate::error::ErrorKind;
use crate::text::SourceEncoding;
use crate::validate::{self, ClaimSet};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// The `source` argument of a validate call: text, or bytes still to decode.
pub(super) enum SourceArg {
    Text(String),
    Bytes(Vec<u8>),
}

impl SourceArg {
    /// A string (checked as before) or a `Uint8Array` (copied).
    pub(super) fn read(source: &JsValue) -> Result<SourceArg, JsValue> {
        match source.dyn_ref::<js_sys::Uint8Array>() {
            Some(bytes) => Ok(SourceArg::Bytes(bytes.to_vec())),
            None => string_arg(source, ErrorKind::DocumentParsing, "source").map(SourceArg::Text),
        }
    }

    /// The source text: bytes decoded in the encoding `claims` declare
    /// (read from the claims only when there are bytes to decode).
    pub(super) fn text(self, claims: &Value) -> Result<String, JsValue> {
        match self {
            SourceArg::Text(text) => Ok(text),
            SourceArg::Bytes(_) => {
                let encoding = ClaimSet::from_json(claims).map_err(to_js_error)?.encoding;
                self.decode(encoding)
            }
        }
    }

    /// The source text: bytes decoded in `encoding` (for claims already parsed).
    pub(super) fn decode(self, encoding: Option<SourceEncoding>) -> Result<String, JsValue> {
        match self {
            SourceArg::Text(text) => Ok(text),
            SourceArg::Bytes(bytes) => validate::decode_source(&bytes, encoding).map_err(to_js_error),
        }
    }
}
