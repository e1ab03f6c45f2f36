//! The subcommands' bodies: each turns one input item into one output record
//! through the library, and leaves reading, threading and writing to the batch
//! layer.

mod explain;
mod validate;

pub(crate) use explain::{ExplainArgs, explain};
pub(crate) use validate::validate;
