//! Text primitives: normalization with an offset map, positions in every unit
//! system, and word tokens.

pub mod normalize;
pub mod position;
pub mod tokens;
pub(crate) mod unicode;

pub use normalize::{normalize_str, Normalized, Profile};
pub use position::{PositionIndex, Span};
