//! Any text given to the grid parser: never a panic; whatever parses prints back
//! to the same grid in both forms, and validation and solving never panic on it.
#![no_main]

use alldiff::Limits;
use alldiff::sudoku::{Grid, SudokuSolver, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(grid) = Grid::parse(text) else {
        return;
    };
    assert_eq!(Grid::parse(&grid.to_line()).as_ref(), Ok(&grid));
    assert_eq!(Grid::parse(&grid.to_grid_string()).as_ref(), Ok(&grid));
    let _ = validate(&grid);
    if grid.box_size() <= 3 {
        let mut solver = SudokuSolver::new();
        solver.set_limits(Limits::none().with_nodes(2_000));
        let _ = solver.solve(&grid);
    }
});
