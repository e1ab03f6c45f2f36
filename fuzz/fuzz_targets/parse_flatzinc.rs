//! Any text given to the FlatZinc reader: never a panic, neither reading nor solving
//! what reads (all solutions asked, for a few hundred nodes).
#![no_main]

use alldiff::Limits;
use alldiff::flatzinc::{self, FlatZincModel, RunOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(problem) = FlatZincModel::parse(text) else {
        return;
    };
    let options = RunOptions {
        all: true,
        solutions: Some(20),
        limits: Limits::none().with_nodes(500),
        ..RunOptions::default()
    };
    flatzinc::run(&problem, &options, &mut (), |_, _| {});
});
