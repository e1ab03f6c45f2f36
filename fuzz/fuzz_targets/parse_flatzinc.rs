//! Any text given to the FlatZinc reader: never a panic, neither reading nor solving
//! what reads (all solutions asked, for a few hundred nodes), and every solution
//! satisfies every constraint (`check_solutions`).
#![no_main]

use alldiff::{Limits, StopReason};
use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(problem) = FlatZincModel::parse(text) else {
        return;
    };
    let options = RunOptions {
        all: true,
        solutions: Some(20),
        limits: Limits::none().with_nodes(500),
        check_solutions: true,
        ..RunOptions::default()
    };
    let outcome = flatzinc::run(&problem, &options, &mut (), |_, _| {});
    if let RunStatus::Stopped {
        reason: reason @ StopReason::WrongSolution { .. },
        ..
    } = outcome.status
    {
        panic!("{reason}");
    }
});
