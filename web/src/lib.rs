//! The alldiff Sudoku page's engine: the library compiled to WebAssembly
//! (`wasm32-unknown-unknown`) with `wasm-bindgen`. `web/build.sh OUT` builds it
//! with the page (`web/site/`) into a static site; see `docs/web.md`.
//!
//! Each export takes the page's text and returns JSON text (see [`api`]), so the
//! page and its Web Worker exchange plain strings, and the answers are tested on
//! the host too.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod api;
pub mod flatzinc;

use wasm_bindgen::prelude::wasm_bindgen;

/// [`api::read`]: the puzzle's line, side, box size and clue count.
#[wasm_bindgen]
pub fn read(text: &str) -> String {
    api::read(text).to_string()
}

/// [`api::validate`]: the conflicting cells.
#[wasm_bindgen]
pub fn validate(text: &str) -> String {
    api::validate(text).to_string()
}

/// [`api::solve`]: the solution, told unique, multiple or none.
#[wasm_bindgen]
pub fn solve(text: &str) -> String {
    api::solve(text).to_string()
}

/// [`api::solve_many`]: one puzzle per line, for timing.
#[wasm_bindgen]
pub fn solve_many(text: &str) -> String {
    api::solve_many(text).to_string()
}

/// [`api::rate`]: the grade.
#[wasm_bindgen]
pub fn rate(text: &str) -> String {
    api::rate(text).to_string()
}

/// [`api::explain`]: every step.
#[wasm_bindgen]
pub fn explain(text: &str) -> String {
    api::explain(text).to_string()
}

/// [`api::hint`]: the steps to the next placement.
#[wasm_bindgen]
pub fn hint(text: &str) -> String {
    api::hint(text).to_string()
}

/// [`api::generate`]: a new puzzle; `seed` comes from the page (JavaScript numbers
/// are exact up to 2^53).
#[wasm_bindgen]
pub fn generate(box_size: u32, hints: u32, symmetry: &str, difficulty: &str, seed: f64) -> String {
    api::generate(box_size, hints, symmetry, difficulty, seed as u64).to_string()
}

/// [`api::tree_page`]: the search tree's page as HTML, or `{"error": ...}` JSON
/// (the page tells them apart by the first character).
#[wasm_bindgen]
pub fn tree_page(text: &str) -> String {
    api::tree_page(text).unwrap_or_else(|e| serde_json::json!({ "error": e }).to_string())
}

/// [`flatzinc::solve`]: a FlatZinc model's output as MiniZinc prints it, and its
/// search tree's page.
#[wasm_bindgen]
pub fn flatzinc(text: &str, all: bool) -> String {
    flatzinc::solve(text, all).to_string()
}
