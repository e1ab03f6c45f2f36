//! alldiff: a constraint-satisfaction engine.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod sudoku;
