//! Sudoku through the constraint engine.
//!
//! [`Grid`] holds a puzzle or a solution of box size 2 to 5 (4x4 to 25x25) and reads and prints
//! it; [`validate`](fn@validate) lists the broken rules of a grid and [`check_solution`] checks a solution
//! against its puzzle. [`SudokuModel`] builds the engine model, [`SudokuSolver`] solves puzzles
//! with it (proving uniqueness), [`generate`](fn@generate) makes puzzles and [`rate`](fn@rate) grades them.
//!
//! # The grid
//!
//! A grid is made of `side × side` cells, where `side = box_size²`; the supported box sizes are
//! 2 to 5, that is 4x4, 9x9, 16x16 and 25x25 grids. The cells are kept row-major in a vector of
//! `u8`: `0` is a blank and `1..=side` a digit. Grid coordinates (rows, columns, cell indices,
//! unit numbers) are 0-based in the API and 1-based in messages: a [`Cell`] displays as `r1c1`
//! for the top-left cell. [`Grid::get`] reads a cell (`None` for a blank, or outside the grid)
//! and [`Grid::set`] writes one.
//!
//! # Symbols
//!
//! Digits are written `1` to `9`, then letters from `A` for 10 up to `P` for 25, so a 16x16 grid
//! uses `1`-`9` and `A`-`G`, and a 25x25 grid `1`-`9` and `A`-`P`. Letters are case-insensitive
//! when parsing and printed in upper case. A blank is printed as `.` and may be written `.`, `0`,
//! `_` or `*`.
//!
//! # Text forms
//!
//! [`Grid::parse`] reads two forms, and works out the size from the number of cells (16, 81, 256
//! or 625):
//!
//! - the *line form*: every cell on one line, e.g. `3.65.84..52...` (81 symbols for a 9x9 grid),
//!   optionally surrounded by white space; [`Grid::to_line`] and `Display` print it;
//! - the *grid form*: one or more lines, as printed by [`Grid::to_grid_string`].
//!
//! In both forms, white space (including `\r` and blank lines) and the separators `|`, `-` and
//! `+` are ignored.
//!
//! Parsing never panics. A [`ParseError`] says where the problem is: `character 23` in the line
//! form, `row 4, column 7` (line and column of the text) in the grid form, both counting
//! characters from 1.
//!
//! ```
//! use alldiff::sudoku::Grid;
//!
//! let grid: Grid = "
//!     1 . | . 4
//!     . 4 | 1 .
//!     ----+----
//!     4 . | . 1
//!     . 1 | 4 .
//! ".parse()?;
//! assert_eq!(grid.side(), 4);
//! assert_eq!(grid.get(0, 3), Some(4));
//! assert_eq!(grid.get(0, 1), None);
//! assert_eq!(grid.to_line(), "1..4.41.4..1.14.");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Validation
//!
//! The rule is that no digit appears twice in a [`Unit`] (a row, a column or a box). [`validate`](fn@validate)
//! lists every break of it as a [`RepeatedDigit`], naming its [`Cell`]s (`r1c4`); blanks are
//! never repeated digits, so a partly filled puzzle validates as long as its clues agree.
//! [`check_solution`] also asks for a complete grid that keeps every clue of the puzzle.
//!
//! ```
//! use alldiff::sudoku::{Cell, Grid, validate};
//!
//! let grid: Grid = "1..1 .... .... 1...".parse()?;
//! let repeated = validate(&grid);
//! assert_eq!(repeated.len(), 2);
//! assert_eq!(repeated[0].to_string(), "row 1 has 1 twice: r1c1, r1c4");
//! assert_eq!(repeated[1].cells[1], Cell::new(3, 0));
//! assert_eq!(repeated[1].to_string(), "column 1 has 1 twice: r1c1, r4c1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

//!
//! # Solving
//!
//! Sudoku is a user of the engine like any other: [`SudokuModel`] posts, through the public
//! [`Model`](crate::Model) API, one variable per cell over `1..=side` (named `r1c1`, ...), an
//! all-different constraint per row, column and box, and optionally an
//! [`Intersection`](crate::constraints::Intersection) per overlapping box and line (locked
//! candidates). [`SudokuSolver`] keeps one engine [`Solver`](crate::Solver) per size and, for
//! each puzzle, resets it and assumes the clues, so a batch allocates almost nothing per puzzle.
//! [`SudokuSolver::solve`] counts up to two solutions: [`SolveResult::Unique`],
//! [`SolveResult::Multiple`], [`SolveResult::None`] (contradictory clues fail at the root,
//! before any search) or [`SolveResult::Stopped`] by a limit.
//!
//! The system choices post one [`AllDifferentSystem`](crate::constraints::AllDifferentSystem)
//! over all units (naked and hidden singles; value-major, its sets kept as backtrackable
//! state) instead of one all-different per unit. Singles alone
//! ([`Propagation::SystemSingles`]) are the fastest on the puzzles the generator makes
//! and on puzzles with several solutions. Locked candidates prune more, and most of what
//! they save they save at the root: [`Propagation::SystemLockedCandidatesAtRoot`]
//! searches nearly as few nodes as [`Propagation::SystemLockedCandidates`] (locked
//! candidates at every node) and far fewer than singles alone on hard collections such
//! as 17-clue and `top1465` puzzles (a fifth of the nodes on 17-clue puzzles). It is the
//! default ([`SolverOptions::default`]), with first fail, ties to the cells of the groups
//! that failed most. On the generator's puzzles and on puzzles with several solutions
//! its root's rule costs more than it saves (a ninth and a fifth more instructions
//! than [`Propagation::SystemAdaptive`], which stays with singles there); on 17-clue
//! and `top1465` puzzles it takes a fifth and a quarter fewer than
//! [`Propagation::SystemAdaptive`] (singles until a search has
//! failed [`ESCALATION_FAILURES`] times, then locked candidates at the root, the
//! search starting again with them), which pays for the restart.
//! Locked candidates at every node search the fewest nodes but cost the most per node.
//! The measurements, against the `sudoku` crate and between these choices, are in
//! `docs/performance.md`. The system blames each failure on the group it lay in
//! ([`Propagator::blame`](crate::Propagator::blame)), so the weighted degrees tell the
//! cells of the groups that fail apart: first fail with ties broken by them
//! ([`VariableOrder::SmallestDomainWeightedDegree`](crate::VariableOrder)) searches a
//! third fewer nodes than first fail on `top1465` and the hardest collection (a sixth
//! fewer on 17-clue puzzles), and until a search first fails it makes first fail's
//! choices at first fail's cost. Sparse 16x16 and 25x25
//! grids stay fast with it (tested).
//!
//! Per unit, hidden singles with dom/wdeg ([`Propagation::HiddenSingles`]) remain the best
//! of the per-unit choices on `top1465`: ahead of first fail, of locked candidates added
//! (which halves the nodes but costs more per node), of full all-different consistency and
//! of value elimination alone. [`rate`](fn@rate) and [`explain`](fn@explain) search with the default, and
//! `explain`'s engine log ([`ExplainOptions::verbose`]) with [`Propagation::Full`].
//!
//! ```
//! use alldiff::sudoku::{Grid, SolveResult, SudokuSolver};
//!
//! let mut solver = SudokuSolver::new();
//! let puzzle: Grid = "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..".parse()?;
//! let SolveResult::Unique(solution) = solver.solve(&puzzle) else { panic!("unique") };
//! assert!(solution.to_line().starts_with("316578492"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Generating and rating
//!
//! [`generate`](fn@generate) fills an empty grid by a search with seeded random values, then removes clues
//! (in [`Symmetry`] orbits) in a seeded random order while the solution stays unique, down to
//! the number of clues asked for, or as far as possible with `minimal`. The same options give
//! the same puzzle. [`Removal::HideRandom`] is the classic generator that blanks cells without
//! checking, and may leave several solutions.
//!
//! [`rate`](fn@rate) grades a puzzle by the hardest technique a person needs, trying the simplest
//! first: [`Difficulty::Easy`] (naked singles), [`Difficulty::Medium`] (+ hidden singles),
//! [`Difficulty::Hard`] (+ locked candidates), [`Difficulty::Fiendish`] (+ naked and hidden
//! pairs, triples, ...) and [`Difficulty::Diabolical`] (needs search; the [`Rating`] counts
//! its nodes). Each grade's techniques prune together what one [`Propagation`] prunes at
//! the root ([`Propagation::NakedSingles`] to [`Propagation::Full`]), so the grade is also
//! the weakest propagation that solves the puzzle without guessing; but the techniques run
//! on a board of candidate bitmasks, a harder one only where the easier ones are stuck,
//! and most puzzles finish on singles: rating costs little more than solving (the numbers
//! are in `docs/performance.md`). [`rate_with`] searches diabolical puzzles with a solver
//! of the caller's.
//!
//! # Explaining
//!
//! [`explain`](fn@explain) lists the placements in solving order, each by the simplest technique that
//! justifies it, after the eliminations it needs, named with the cells of their pattern,
//! and a guess of the solution's digit where every technique is stuck:
//! `r3c7 = 5 (hidden single in row 3)`, `r1c3 <> 3, 7 (naked pair 3, 7 at r1c1, r1c4 in
//! row 1)`, `r5c5 = 3 (guess among 3, 7)`. It solves by the techniques [`rate`](fn@rate) uses, in
//! the same order, so [`Explanation::difficulty`], its hardest technique, is the grade.
//! [`explain_with`] and [`ExplainOptions::verbose`] give instead what the engine did,
//! named by the technique of each propagator's label and the unit its constraint stands for
//! ([`SudokuModel::constraints`]): `r7c4 <> 8; r8c4 <> 8 (locked candidates: column 5,
//! box 8)`, `guess r8c7 = 3`, `r8c7 <> 3 (backtrack)`, ... [`format_candidates`] prints a
//! grid of candidates.

mod candidates;
mod cell;
mod explain;
mod generate;
mod grid;
mod model;
mod rate;
mod solve;
mod techniques;
mod validate;

pub use candidates::format_candidates;
pub use cell::Cell;
pub use explain::{
    Elimination, ExplainError, ExplainOptions, Explanation, ExplanationStep, Placement, Technique,
    explain, explain_with,
};
pub use generate::{
    GenerateError, GenerateOptions, Generated, Removal, Symmetry, default_hints, generate,
    generate_with,
};
pub use grid::{CellError, Grid, ParseError, TextPosition, Unit};
pub use model::{Propagation, SudokuConstraint, SudokuModel};
pub use rate::{
    Difficulty, RateError, Rating, UnknownDifficulty, rate, rate_with, rate_with_limit,
    rate_with_limits,
};
pub use solve::{ESCALATION_FAILURES, SolveResult, SolverOptions, SudokuSolver};
pub use validate::{RepeatedDigit, SolutionError, SolutionProblem, check_solution, validate};
