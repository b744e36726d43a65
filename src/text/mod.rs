//! Text primitives: normalization with an offset map, positions in every unit
//! system, and word tokens.

pub mod encoding;
pub mod lexicon;
pub mod normalize;
pub mod position;
pub mod quantity;
pub mod tokens;
pub(crate) mod unicode;

pub use normalize::{normalize_str, Normalized, Profile};
pub use position::{PositionIndex, Span};
