//! evidence-validator: proves that evidence an LLM cites is really in the
//! source, and says exactly where.

pub mod error;
pub mod extract;
pub mod matching;
pub mod text;

pub use error::{Error, ErrorKind, Result};
