//! The subcommands' bodies: each turns one input item into one output record
//! through the library, and leaves reading, threading and writing to the batch
//! layer.

mod validate;

pub(crate) use validate::validate;
