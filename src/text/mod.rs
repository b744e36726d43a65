//! Text primitives: normalization with an offset map, positions in every unit
//! system, and word tokens.

pub(crate) mod encoding;
pub(crate) mod lexicon;
pub(crate) mod normalize;
pub(crate) mod position;
pub(crate) mod quantity;
pub(crate) mod tokens;
pub(crate) mod unicode;

pub use encoding::{decode, SourceEncoding};
pub use normalize::{normalize_str, Normalized, Profile};
pub use position::{PositionIndex, Span};
