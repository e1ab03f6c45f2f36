//! Explaining a solution as human steps.
//!
//! [`explain`] gives the readable form: the placements in solving order, each by the
//! simplest technique that justifies it, naked single, hidden single, then locked
//! candidates and naked or hidden subsets named with their cells, and a guess of the
//! solution's digit where every technique is stuck; an elimination is shown only where
//! a later placement needs it, just before the first such placement (`readable.rs`).
//! It solves by the same techniques, in the same order, as [`rate`](fn@super::rate), so
//! the hardest technique it uses is the puzzle's grade.
//!
//! [`ExplainOptions::verbose`] gives the engine's log instead: the puzzle is solved
//! with the strongest propagation ([`Propagation::Full`]: singles, locked candidates
//! and full all-different consistency) while recording every value each propagator
//! removes, with the label it gave the removal, and every decision of the search
//! (`recorder.rs`). Each run of removals one propagator made in one call becomes one
//! [`ExplanationStep`], named after the Sudoku technique of the propagator's label
//! (the all-different's `only place for a value` is a hidden single, the
//! intersection's `confined to the shared part` locked candidates) and the unit (row, column,
//! box, or box and line) its constraint stands for. A cell left with one candidate by
//! eliminations gets a [`Technique::NakedSingle`] step of its own. Search decisions
//! are [`Technique::Guess`] steps, their refutations [`Technique::Backtrack`] steps,
//! and failed propagation [`Technique::Contradiction`] steps; the steps of a branch
//! that failed stay in the explanation, one level deeper ([`ExplanationStep::depth`]).

mod readable;
mod recorder;
mod steps;

use recorder::Recorder;
pub use steps::{Elimination, Explanation, ExplanationStep, Placement, Technique};

use crate::sudoku::{
    Grid, Propagation, RepeatedDigit, SolveResult, SudokuModel, SudokuSolver, validate,
};
use crate::{CountStatus, Limits, Outcome, StopReason};

/// Why a puzzle cannot be explained.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExplainError {
    /// Two clues break a rule (the first conflict found).
    #[error("the clues break the rules: {0}")]
    InvalidClues(RepeatedDigit),
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The puzzle has two or more solutions.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
    /// A limit of [`ExplainOptions::limits`] stopped the search.
    #[error("explaining stopped: {0}")]
    Stopped(StopReason),
}

/// How to explain: the readable form or the engine's log, and the search's limits.
#[derive(Clone, Debug, Default)]
pub struct ExplainOptions {
    /// The engine's full log (every elimination of every propagator, every guess and
    /// backtrack of its search) instead of the readable form.
    pub verbose: bool,
    /// Limits on the search that finds the solution and proves it unique (and, when
    /// verbose, on the search explained).
    pub limits: Limits,
}

/// Explains how to solve a puzzle, in the readable form.
///
/// The steps are the placements in solving order, each by the simplest technique that
/// justifies it ([`Technique::NakedSingle`], [`Technique::HiddenSingle`]), after the
/// eliminations it needs ([`Technique::LockedCandidates`],
/// [`Technique::NakedSubset`], [`Technique::HiddenSubset`], each naming the cells and
/// digits of its pattern), with a [`Technique::Guess`] of the solution's digit, in a
/// cell with the fewest candidates, where every technique is stuck. Only the
/// eliminations a later placement needs are listed (directly, or through the pattern
/// of another listed elimination), each just before the first placement that needs
/// it. Harder techniques are tried only when the easier ones are stuck, as
/// [`rate`](fn@super::rate) does, so [`Explanation::difficulty`] is the puzzle's grade.
///
/// ```
/// use alldiff::sudoku::{Difficulty, Grid, Technique, explain};
///
/// let puzzle: Grid = ".2343.1221.3432.".parse()?;
/// let explanation = explain(&puzzle)?;
/// assert_eq!(explanation.guesses(), 0);
/// assert_eq!(explanation.solution().to_line(), "1234341221434321");
/// assert!(explanation.steps().iter().all(|s| s.technique == Technique::NakedSingle));
/// assert_eq!(explanation.difficulty(), Difficulty::Easy);
/// assert_eq!(explanation.steps()[0].to_string(), "r1c1 = 1 (naked single)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ExplainError::InvalidClues`] when two clues clash, [`ExplainError::NoSolution`]
/// and [`ExplainError::MultipleSolutions`] for a puzzle without exactly one solution.
pub fn explain(grid: &Grid) -> Result<Explanation, ExplainError> {
    explain_with(grid, &ExplainOptions::default())
}

/// Explains how to solve a puzzle, readably ([`explain`]) or as the engine's log
/// (`verbose`), within the options' limits.
///
/// The engine's log solves with the strongest propagation ([`Propagation::Full`]) and
/// first-fail search, recording every value each propagator removes with the label it
/// gave the removal, and every decision. Each run of removals one propagator made in
/// one call becomes one [`ExplanationStep`], named after the label's Sudoku technique
/// and the unit its constraint
/// stands for ([`SudokuModel::constraints`]); a cell left with one candidate by
/// eliminations gets a [`Technique::NakedSingle`] step. Decisions are
/// [`Technique::Guess`] and [`Technique::Backtrack`] steps, failed propagation a
/// [`Technique::Contradiction`]; the steps of a failed branch stay in the explanation,
/// one level deeper ([`ExplanationStep::depth`]).
///
/// ```
/// use alldiff::sudoku::{ExplainOptions, Grid, Technique, explain_with};
///
/// let puzzle: Grid = ".2343.1221.3432.".parse()?;
/// let options = ExplainOptions { verbose: true, ..ExplainOptions::default() };
/// let log = explain_with(&puzzle, &options)?;
/// assert!(log.steps().iter().any(|s| s.technique == Technique::ValueElimination));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`explain`], and [`ExplainError::Stopped`] when a limit stops a search.
pub fn explain_with(grid: &Grid, options: &ExplainOptions) -> Result<Explanation, ExplainError> {
    if let Some(conflict) = validate(grid).into_iter().next() {
        return Err(ExplainError::InvalidClues(conflict));
    }
    if options.verbose {
        return engine_log(grid, &options.limits);
    }
    let mut solver = SudokuSolver::new();
    solver.set_limits(options.limits.clone());
    let solution = match solver.solve(grid) {
        SolveResult::Unique(solution) => solution,
        SolveResult::Multiple(_) => return Err(ExplainError::MultipleSolutions),
        SolveResult::None => return Err(ExplainError::NoSolution),
        SolveResult::Stopped(reason) => return Err(ExplainError::Stopped(reason)),
    };
    let steps = readable::readable_steps(grid, &solution).map_err(|_| ExplainError::NoSolution)?;
    Ok(Explanation::new(grid.clone(), solution, steps))
}

/// The engine's log of its search with [`Propagation::Full`].
fn engine_log(grid: &Grid, limits: &Limits) -> Result<Explanation, ExplainError> {
    let sudoku = SudokuModel::for_grid(grid, Propagation::Full);
    let constraints = sudoku.constraints().to_vec();
    let (mut solver, cells) = sudoku.clued_solver(grid);
    solver.set_limits(limits.clone());
    solver.stream_prunings(true);
    let mut recorder = Recorder::new(grid, &cells, constraints, solver.start_domains());
    let outcome = solver.solve_observed(&mut recorder);
    solver.stream_prunings(false);
    let found = match outcome {
        Outcome::Solved(found) => found,
        Outcome::Unsatisfiable => return Err(ExplainError::NoSolution),
        Outcome::Stopped(reason) => return Err(ExplainError::Stopped(reason)),
    };
    let count = solver.count(Some(2));
    if let CountStatus::Stopped(reason) = count.status {
        return Err(ExplainError::Stopped(reason));
    }
    if count.solutions > 1 {
        return Err(ExplainError::MultipleSolutions);
    }
    let mut solution = grid.clone();
    let side = grid.side();
    for (index, &var) in cells.iter().enumerate() {
        let digit = found.get(var).and_then(|v| u8::try_from(v).ok());
        solution
            .set_checked(index / side, index % side, digit)
            .map_err(|_| ExplainError::NoSolution)?;
    }
    Ok(Explanation::new(
        grid.clone(),
        solution,
        recorder.into_steps(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Cell, Unit};

    const CLASSIC: &str =
        "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
    const CLASSIC_SOLUTION: &str =
        "316578492529134768487629531263415987974863125851792643138947256692351874745286319";
    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn technique_all_lists_every_variant_once() {
        let mut seen = std::collections::HashSet::new();
        for technique in Technique::ALL {
            // Exhaustive: a new variant stops this compiling, to be listed here and in `ALL`.
            match technique {
                Technique::NakedSingle
                | Technique::HiddenSingle
                | Technique::ValueElimination
                | Technique::LockedCandidates
                | Technique::NakedSubset
                | Technique::HiddenSubset
                | Technique::Subset
                | Technique::Propagation
                | Technique::Guess
                | Technique::Backtrack
                | Technique::Contradiction => assert!(seen.insert(technique)),
            }
        }
        assert_eq!(seen.len(), Technique::ALL.len());
    }

    /// The engine's log.
    fn verbose(grid: &Grid) -> Result<Explanation, ExplainError> {
        let options = ExplainOptions {
            verbose: true,
            ..ExplainOptions::default()
        };
        explain_with(grid, &options)
    }

    /// Candidate masks per cell: the clues fixed, every other cell open.
    fn start(grid: &Grid) -> Vec<u64> {
        let all = ((1u64 << (grid.side() + 1)) - 1) & !1;
        grid.cells()
            .iter()
            .map(|&d| if d == 0 { all } else { 1 << d })
            .collect()
    }

    fn index(grid: &Grid, cell: Cell) -> usize {
        cell.row * grid.side() + cell.column
    }

    /// Replays the steps on candidate grids, one per guess level, checking each step
    /// against the candidates it is applied to; returns the root level's grid and
    /// the grid of the last level (where the solution was found).
    fn replay(explanation: &Explanation) -> Vec<u64> {
        let puzzle = explanation.puzzle();
        let mut levels = vec![start(puzzle)];
        for step in explanation.steps() {
            let depth = step.depth as usize;
            if step.technique == Technique::Guess {
                assert_eq!(depth, levels.len().min(depth), "{step}");
                levels.truncate(depth);
                let parent = levels.last().cloned().unwrap();
                levels.push(parent);
            } else {
                levels.truncate(depth + 1);
            }
            let masks = levels.last_mut().unwrap();
            if let Some(Placement { cell, digit }) = step.placed {
                let mask = &mut masks[index(puzzle, cell)];
                assert!(*mask & (1 << digit) != 0, "{step}: not a candidate");
                if step.technique == Technique::NakedSingle {
                    assert_eq!(*mask, 1 << digit, "{step}: not the last candidate");
                }
                if step.technique == Technique::HiddenSingle {
                    let unit = step.units[0];
                    let others = puzzle
                        .unit_cells(unit)
                        .filter(|&i| i != index(puzzle, cell))
                        .filter(|&i| masks[i] & (1 << digit) != 0)
                        .count();
                    assert_eq!(others, 0, "{step}: not hidden in {unit}");
                    let mask = &mut masks[index(puzzle, cell)];
                    *mask = 1 << digit;
                } else {
                    *mask = 1 << digit;
                }
            }
            for Elimination { cell, digits } in &step.removed {
                for &digit in digits {
                    let mask = &mut masks[index(puzzle, *cell)];
                    assert!(*mask & (1 << digit) != 0, "{step}: {digit} already gone");
                    *mask &= !(1 << digit);
                }
            }
        }
        levels.pop().unwrap()
    }

    fn solved(explanation: &Explanation, masks: &[u64]) -> bool {
        masks
            .iter()
            .zip(explanation.solution().cells())
            .all(|(&mask, &digit)| mask == 1 << digit)
    }

    #[test]
    fn singles_and_eliminations_replay_to_the_solution_without_guessing() {
        let explanation = verbose(&CLASSIC.parse().unwrap()).unwrap();
        assert_eq!(explanation.solution().to_line(), CLASSIC_SOLUTION);
        assert_eq!(explanation.guesses(), 0);
        assert!(explanation.steps().iter().all(|s| {
            s.depth == 0
                && !matches!(
                    s.technique,
                    Technique::Guess | Technique::Backtrack | Technique::Contradiction
                )
        }));
        for technique in [
            Technique::NakedSingle,
            Technique::HiddenSingle,
            Technique::ValueElimination,
            Technique::LockedCandidates,
        ] {
            assert!(
                explanation.steps().iter().any(|s| s.technique == technique),
                "no {technique}"
            );
        }
        let masks = replay(&explanation);
        assert!(solved(&explanation, &masks), "{explanation}");
        // Every removed candidate is wrong, every placed digit right.
        let solution = explanation.solution();
        for step in explanation.steps() {
            for Elimination { cell, digits } in &step.removed {
                let answer = solution.get(cell.row, cell.column).unwrap();
                assert!(!digits.contains(&answer), "{step}");
            }
            if let Some(Placement { cell, digit }) = step.placed {
                assert_eq!(solution.get(cell.row, cell.column), Some(digit), "{step}");
            }
        }
        // Every blank is placed once, by a single.
        let placed = explanation.steps().iter().filter(|s| s.placed.is_some());
        let blanks = CLASSIC.chars().filter(|&c| c == '.').count();
        assert_eq!(placed.count(), blanks);
    }

    #[test]
    fn steps_print_as_cells_digits_and_technique() {
        let explanation = verbose(&CLASSIC.parse().unwrap()).unwrap();
        let text = explanation.to_string();
        assert_eq!(text.lines().count(), explanation.steps().len());
        assert!(
            text.starts_with(
                "r1c2 <> 3, 4, 5, 6, 8; r1c5 <> 3, 4, 5, 6, 8; r1c8 <> 3, 4, 5, 6, 8; \
                 r1c9 <> 3, 4, 5, 6, 8 (value elimination in row 1)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nr3c7 = 5 (hidden single in row 3)\n"),
            "{text}"
        );
        assert!(text.contains("\nr3c1 = 4 (naked single)\n"), "{text}");
        assert!(
            text.contains(" (locked candidates: column 5, box 8)\n"),
            "{text}"
        );
        let step = ExplanationStep {
            cells: Vec::new(),
            digits: Vec::new(),
            technique: Technique::LockedCandidates,
            units: vec![Unit::Box(1), Unit::Row(1)],
            depth: 0,
            placed: None,
            removed: vec![Elimination {
                cell: Cell::new(1, 4),
                digits: vec![7],
            }],
        };
        assert_eq!(
            step.to_string(),
            "r2c5 <> 7 (locked candidates: box 2, row 2)"
        );
    }

    /// The engine labels its removals without Sudoku words; the recorder gives every
    /// label the Sudoku model's propagators use a technique, matching's included.
    #[test]
    fn every_removal_in_the_log_has_a_sudoku_name() {
        let mut seen = std::collections::HashSet::new();
        for puzzle in [CLASSIC, INKALA] {
            let explanation = verbose(&puzzle.parse().unwrap()).unwrap();
            seen.extend(explanation.steps().iter().map(|s| s.technique));
        }
        assert!(!seen.contains(&Technique::Propagation), "{seen:?}");
        for technique in [
            Technique::ValueElimination,
            Technique::HiddenSingle,
            Technique::LockedCandidates,
            Technique::Subset,
        ] {
            assert!(seen.contains(&technique), "no {technique}: {seen:?}");
        }
    }

    #[test]
    fn a_hard_puzzle_needs_guesses_and_replays_through_its_backtracks() {
        let explanation = verbose(&INKALA.parse().unwrap()).unwrap();
        assert!(explanation.guesses() > 0);
        let steps = explanation.steps();
        assert!(steps.iter().any(|s| s.technique == Technique::Backtrack));
        assert!(
            steps
                .iter()
                .any(|s| s.technique == Technique::Contradiction)
        );
        let masks = replay(&explanation);
        assert!(solved(&explanation, &masks));
        let guess = steps
            .iter()
            .find(|s| s.technique == Technique::Guess)
            .unwrap();
        let line = guess.to_string();
        assert!(
            line.starts_with("guess r") && line.contains(" = "),
            "{line}"
        );
        let backtrack = steps
            .iter()
            .find(|s| s.technique == Technique::Backtrack)
            .unwrap();
        assert!(
            backtrack.to_string().ends_with(" (backtrack)"),
            "{backtrack}"
        );
        // Deductions before the first guess are sound.
        let solution = explanation.solution();
        for step in steps.iter().take_while(|s| s.technique != Technique::Guess) {
            for Elimination { cell, digits } in &step.removed {
                let answer = solution.get(cell.row, cell.column).unwrap();
                assert!(!digits.contains(&answer), "{step}");
            }
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn the_machine_form_is_json() {
        let explanation = verbose(&CLASSIC.parse().unwrap()).unwrap();
        let json = serde_json::to_value(&explanation).unwrap();
        assert_eq!(json["puzzle"], CLASSIC);
        assert_eq!(json["solution"], CLASSIC_SOLUTION);
        assert_eq!(json["guesses"], 0);
        let steps = json["steps"].as_array().unwrap();
        assert_eq!(steps.len(), explanation.steps().len());
        let single = steps
            .iter()
            .find(|s| s["technique"] == "hidden_single")
            .unwrap();
        assert_eq!(single["units"][0], "row 3");
        assert_eq!(single["placed"]["cell"], "r3c7");
        assert_eq!(single["placed"]["digit"], 5);
        assert!(single.get("removed").is_none());
        assert_eq!(steps[0]["removed"][0]["cell"], "r1c2");
    }

    #[test]
    fn limits_stop_both_forms() {
        let puzzle: Grid = INKALA.parse().unwrap();
        for verbose in [false, true] {
            let options = ExplainOptions {
                verbose,
                limits: Limits::none().with_nodes(1),
            };
            assert_eq!(
                explain_with(&puzzle, &options),
                Err(ExplainError::Stopped(StopReason::NodeLimit))
            );
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn readable_steps_serialize_their_pattern() {
        // Rated fiendish (`alldiff generate --difficulty fiendish --minimal --seed 1`).
        let fiendish: Grid =
            "..4..5..7.....8..1......65....16...9..1...3...3847......9.......2.....3.7.6.2..1."
                .parse()
                .unwrap();
        let json = serde_json::to_value(explain(&fiendish).unwrap()).unwrap();
        let steps = json["steps"].as_array().unwrap();
        let pair = steps
            .iter()
            .find(|s| s["technique"] == "naked_subset")
            .unwrap();
        assert_eq!(pair["cells"].as_array().map(Vec::len), Some(2));
        assert_eq!(pair["digits"].as_array().map(Vec::len), Some(2));
        assert!(pair["removed"][0]["cell"].is_string());
        let single = steps
            .iter()
            .find(|s| s["technique"] == "naked_single")
            .unwrap();
        assert!(single.get("cells").is_none() && single.get("removed").is_none());
        assert_eq!(single["depth"], 0);
    }

    #[test]
    fn bad_puzzles_are_typed_errors() {
        let clash: Grid = format!("33{}", &CLASSIC[2..]).parse().unwrap();
        assert!(matches!(explain(&clash), Err(ExplainError::InvalidClues(c)) if c.digit == 3));
        assert!(matches!(verbose(&clash), Err(ExplainError::InvalidClues(c)) if c.digit == 3));
        // r1c2 is 1: any other digit the clues allow there leaves no solution.
        let wrong = (2..=9u8)
            .map(|d| {
                let mut grid: Grid = CLASSIC.parse().unwrap();
                grid.set(0, 1, Some(d));
                grid
            })
            .find(|g| validate(g).is_empty())
            .unwrap();
        assert_eq!(explain(&wrong), Err(ExplainError::NoSolution));
        assert_eq!(verbose(&wrong), Err(ExplainError::NoSolution));
        let open = Grid::empty(2).unwrap();
        assert_eq!(explain(&open), Err(ExplainError::MultipleSolutions));
        assert_eq!(verbose(&open), Err(ExplainError::MultipleSolutions));
        assert_eq!(
            ExplainError::MultipleSolutions.to_string(),
            "the puzzle has more than one solution"
        );
    }
}
