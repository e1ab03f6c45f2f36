//! Grading and explaining Sudoku puzzles: `rate`'s grade is the weakest engine
//! propagation that solves the puzzle at the root and the hardest technique of
//! `explain`'s readable steps, and those steps replay, each justified by its pattern,
//! to the unique solution.

use std::collections::BTreeMap;

use alldiff::Solver;
use alldiff::sudoku::{
    Cell, Difficulty, Elimination, ExplainOptions, Explanation, GenerateOptions, Grid, Placement,
    Propagation, RateError, SudokuModel, SudokuSolver, Technique, Unit, explain, explain_with,
    generate, rate, rate_with,
};
use proptest::prelude::*;

const CLASSIC: &str =
    "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
/// Arto Inkala's puzzle: needs guessing.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// Rated fiendish: singles and locked candidates stall, a subset unlocks it
/// (`alldiff generate --difficulty fiendish --minimal --seed 1`).
const FIENDISH: &str =
    "..4..5..7.....8..1......65....16...9..1...3...3847......9.......2.....3.7.6.2..1.";

fn grid(text: &str) -> Grid {
    text.parse().expect("valid grid text")
}

/// The grade as the engine gives it: the weakest propagation whose root propagation,
/// with the clues assumed, fixes every cell; diabolical when none does.
fn engine_grade(puzzle: &Grid) -> Result<Difficulty, RateError> {
    let levels = [
        (Difficulty::Easy, Propagation::NakedSingles),
        (Difficulty::Medium, Propagation::HiddenSingles),
        (Difficulty::Hard, Propagation::LockedCandidates),
        (Difficulty::Fiendish, Propagation::Full),
    ];
    for (difficulty, propagation) in levels {
        let (model, cells) = SudokuModel::for_grid(puzzle, propagation).into_parts();
        let mut solver = Solver::new(model);
        for (&var, &digit) in cells.iter().zip(puzzle.cells()) {
            if digit != 0 {
                solver.assume(var, i32::from(digit)).unwrap();
            }
        }
        let domains = solver.root_domains().ok_or(RateError::NoSolution)?;
        if domains.iter().all(|d| d.len() == 1) {
            return Ok(difficulty);
        }
    }
    Ok(Difficulty::Diabolical)
}

/// The candidates of a grid being replayed, bit `d - 1` for digit `d`.
struct Replay {
    puzzle: Grid,
    candidates: Vec<u32>,
    placed: Vec<u8>,
}

fn bit(digit: u8) -> u32 {
    1 << (digit - 1)
}

impl Replay {
    fn new(puzzle: &Grid) -> Replay {
        let cells = puzzle.cells().len();
        let mut replay = Replay {
            puzzle: puzzle.clone(),
            candidates: vec![(1 << puzzle.side()) - 1; cells],
            placed: vec![0; cells],
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                replay.place(cell, digit).unwrap();
            }
        }
        replay
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row * self.puzzle.side() + cell.column
    }

    fn cells(&self, unit: Unit) -> Vec<usize> {
        self.puzzle.unit_cells(unit).collect()
    }

    fn open_with(&self, unit: Unit, digit: u8) -> Vec<usize> {
        self.cells(unit)
            .into_iter()
            .filter(|&c| self.placed[c] == 0 && self.candidates[c] & bit(digit) != 0)
            .collect()
    }

    fn place(&mut self, cell: usize, digit: u8) -> Result<(), String> {
        if self.placed[cell] != 0 || self.candidates[cell] & bit(digit) == 0 {
            return Err(format!("{digit} is not a candidate of cell {cell}"));
        }
        self.placed[cell] = digit;
        self.candidates[cell] = bit(digit);
        let side = self.puzzle.side();
        let box_size = self.puzzle.box_size();
        let (row, col) = (cell / side, cell % side);
        let units = [
            Unit::Row(row),
            Unit::Column(col),
            Unit::Box((row / box_size) * box_size + col / box_size),
        ];
        for unit in units {
            for other in self.cells(unit) {
                if other != cell {
                    self.candidates[other] &= !bit(digit);
                }
            }
        }
        Ok(())
    }

    /// Checks that the step's pattern holds on the candidates, then applies it.
    fn apply(&mut self, step: &alldiff::sudoku::ExplanationStep) -> Result<(), String> {
        let mask = |digits: &[u8]| digits.iter().fold(0, |m, &d| m | bit(d));
        match (step.technique, &step.units[..]) {
            (Technique::NakedSingle, []) => {
                let Placement { cell, digit } = step.placed.ok_or("no placement")?;
                if self.candidates[self.index(cell)] != bit(digit) {
                    return Err(format!("{step}: not the last candidate"));
                }
            }
            (Technique::HiddenSingle, &[unit]) => {
                let Placement { cell, digit } = step.placed.ok_or("no placement")?;
                if self.open_with(unit, digit) != [self.index(cell)] {
                    return Err(format!("{step}: not the only place in {unit}"));
                }
            }
            (Technique::Guess, []) => {
                let Placement { cell, .. } = step.placed.ok_or("no placement")?;
                if self.candidates[self.index(cell)] != mask(&step.digits) {
                    return Err(format!("{step}: other candidates"));
                }
            }
            (Technique::LockedCandidates, &[confining, cleared]) => {
                let &[digit] = &step.digits[..] else {
                    return Err(format!("{step}: one digit"));
                };
                let cells: Vec<usize> = step.cells.iter().map(|&c| self.index(c)).collect();
                let inside = self.cells(cleared);
                if self.open_with(confining, digit) != cells
                    || !cells.iter().all(|c| inside.contains(c))
                {
                    return Err(format!("{step}: not confined"));
                }
                let outside = self.cells(confining);
                for Elimination { cell, digits } in &step.removed {
                    let cell = self.index(*cell);
                    if digits != &[digit] || !inside.contains(&cell) || outside.contains(&cell) {
                        return Err(format!("{step}: removal outside the pattern"));
                    }
                }
            }
            (Technique::NakedSubset | Technique::HiddenSubset, &[unit]) => {
                let naked = step.technique == Technique::NakedSubset;
                let cells: Vec<usize> = step.cells.iter().map(|&c| self.index(c)).collect();
                let digits = mask(&step.digits);
                let in_unit = self.cells(unit);
                if cells.len() != step.digits.len()
                    || cells.len() < 2
                    || !cells
                        .iter()
                        .all(|c| in_unit.contains(c) && self.placed[*c] == 0)
                {
                    return Err(format!("{step}: not a subset"));
                }
                let held = if naked {
                    cells.iter().fold(0, |m, &c| m | self.candidates[c]) == digits
                } else {
                    step.digits.iter().all(|&d| {
                        let places = self.open_with(unit, d);
                        !places.is_empty() && places.iter().all(|p| cells.contains(p))
                    })
                };
                if !held {
                    return Err(format!("{step}: the pattern does not hold"));
                }
                for Elimination { cell, digits: gone } in &step.removed {
                    let cell = self.index(*cell);
                    let ok = if naked {
                        in_unit.contains(&cell)
                            && !cells.contains(&cell)
                            && mask(gone) & !digits == 0
                    } else {
                        cells.contains(&cell) && mask(gone) & digits == 0
                    };
                    if !ok {
                        return Err(format!("{step}: removal outside the pattern"));
                    }
                }
            }
            _ => return Err(format!("{step}: not a readable step")),
        }
        if step.depth != 0 {
            return Err(format!("{step}: depth {}", step.depth));
        }
        for Elimination { cell, digits } in &step.removed {
            let index = self.index(*cell);
            for &digit in digits {
                if self.candidates[index] & bit(digit) == 0 || self.placed[index] != 0 {
                    return Err(format!("{step}: {digit} is not a candidate of {cell}"));
                }
                self.candidates[index] &= !bit(digit);
            }
        }
        if let Some(Placement { cell, digit }) = step.placed {
            self.place(self.index(cell), digit)?;
        }
        Ok(())
    }
}

/// Replays the readable steps, each checked against its pattern; the grid reached.
fn replay(puzzle: &Grid, steps: &[alldiff::sudoku::ExplanationStep]) -> Result<Vec<u8>, String> {
    let mut replay = Replay::new(puzzle);
    for step in steps {
        replay.apply(step)?;
    }
    Ok(replay.placed)
}

/// Everything the readable explanation promises, checked on one puzzle: the steps
/// replay, each justified by its pattern, to the unique solution; every removal is
/// wrong and every placement right; and every removal shown is needed (without it,
/// some later step no longer holds).
fn check_explanation(explanation: &Explanation) {
    let puzzle = explanation.puzzle();
    let solution = explanation.solution();
    let steps = explanation.steps();
    let reached = replay(puzzle, steps).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    assert_eq!(reached, solution.cells(), "{puzzle}");
    for step in steps {
        for Elimination { cell, digits } in &step.removed {
            let answer = solution.get(cell.row, cell.column).unwrap();
            assert!(!digits.contains(&answer), "{puzzle}: {step}");
        }
        if let Some(Placement { cell, digit }) = step.placed {
            assert_eq!(solution.get(cell.row, cell.column), Some(digit), "{step}");
        }
    }
    let blanks = puzzle.cells().iter().filter(|&&d| d == 0).count();
    assert_eq!(steps.iter().filter(|s| s.placed.is_some()).count(), blanks);
    for (index, step) in steps.iter().enumerate() {
        for (e, elimination) in step.removed.iter().enumerate() {
            for d in 0..elimination.digits.len() {
                let mut fewer = steps.to_vec();
                let digits = &mut fewer[index].removed[e].digits;
                digits.remove(d);
                if digits.is_empty() {
                    fewer[index].removed.remove(e);
                }
                assert!(
                    replay(puzzle, &fewer).is_err(),
                    "{puzzle}: {step}: {} <> {} is not needed",
                    elimination.cell,
                    elimination.digits[d]
                );
            }
        }
    }
}

#[test]
fn the_seed_puzzle_is_explained_by_singles_alone() {
    let puzzle = grid(CLASSIC);
    let explanation = explain(&puzzle).unwrap();
    assert!(
        explanation.steps().iter().all(|s| matches!(
            s.technique,
            Technique::NakedSingle | Technique::HiddenSingle
        )),
        "{explanation}"
    );
    assert!(explanation.steps().iter().all(|s| s.removed.is_empty()));
    assert_eq!(explanation.difficulty(), Difficulty::Medium);
    assert_eq!(rate(&puzzle).unwrap().difficulty, Difficulty::Medium);
    let text = explanation.to_string();
    assert!(text.starts_with("r3c1 = 4 (naked single)\n"), "{text}");
    assert!(
        text.contains("\nr4c6 = 5 (hidden single in box 5)\n"),
        "{text}"
    );
    check_explanation(&explanation);
}

#[test]
fn a_fiendish_puzzle_names_its_subsets_with_their_cells() {
    let puzzle = grid(FIENDISH);
    assert_eq!(rate(&puzzle).unwrap().difficulty, Difficulty::Fiendish);
    assert_eq!(engine_grade(&puzzle), Ok(Difficulty::Fiendish));
    let explanation = explain(&puzzle).unwrap();
    assert_eq!(explanation.difficulty(), Difficulty::Fiendish);
    let subset = explanation
        .steps()
        .iter()
        .find(|s| {
            matches!(
                s.technique,
                Technique::NakedSubset | Technique::HiddenSubset
            )
        })
        .unwrap_or_else(|| panic!("{explanation}"));
    let line = subset.to_string();
    assert!(subset.cells.len() >= 2, "{line}");
    for cell in &subset.cells {
        assert!(line.contains(&format!("{cell}")), "{line}");
    }
    let kind = [
        "naked pair",
        "naked triple",
        "hidden pair",
        "hidden triple",
        "naked quad",
    ];
    assert!(kind.iter().any(|k| line.contains(k)), "{line}");
    check_explanation(&explanation);
}

#[test]
fn a_puzzle_that_needs_guessing_is_explained_with_guesses_of_the_solution() {
    let puzzle = grid(INKALA);
    let explanation = explain(&puzzle).unwrap();
    assert!(explanation.guesses() > 0);
    assert_eq!(explanation.difficulty(), Difficulty::Diabolical);
    let guess = explanation
        .steps()
        .iter()
        .find(|s| s.technique == Technique::Guess)
        .unwrap();
    assert!(guess.to_string().contains(" (guess among "), "{guess}");
    check_explanation(&explanation);
    // The engine's log keeps its guesses, backtracks and contradictions.
    let options = ExplainOptions {
        verbose: true,
        ..ExplainOptions::default()
    };
    let log = explain_with(&puzzle, &options).unwrap();
    assert!(
        log.steps()
            .iter()
            .any(|s| s.technique == Technique::Backtrack)
    );
    assert!(log.steps().len() > explanation.steps().len());
}

/// Generated puzzles of every grade: targeted at each grade, and plain ones of many
/// clue counts (most easy or medium, some harder).
fn generated_puzzles() -> Vec<Grid> {
    let mut puzzles = Vec::new();
    for difficulty in Difficulty::ALL {
        for seed in 0..3 {
            let options = GenerateOptions {
                difficulty: Some(difficulty),
                minimal: true,
                attempts: 300,
                seed,
                ..GenerateOptions::default()
            };
            puzzles.push(generate(&options).unwrap().puzzle);
        }
    }
    for hints in [24, 28, 32, 40, 50] {
        for seed in 0..6 {
            let options = GenerateOptions {
                hints: Some(hints),
                seed,
                ..GenerateOptions::default()
            };
            puzzles.push(generate(&options).unwrap().puzzle);
        }
    }
    for (box_size, seeds) in [(2, 10), (4, 2)] {
        for seed in 0..seeds {
            let options = GenerateOptions {
                box_size,
                seed,
                ..GenerateOptions::default()
            };
            puzzles.push(generate(&options).unwrap().puzzle);
        }
    }
    puzzles
}

#[test]
fn rate_explain_and_the_engine_agree_on_generated_puzzles_of_every_grade() {
    let mut grades: BTreeMap<Difficulty, usize> = BTreeMap::new();
    let mut solver = SudokuSolver::new();
    for puzzle in generated_puzzles() {
        let rating = rate(&puzzle).unwrap();
        assert_eq!(rate_with(&mut solver, &puzzle), Ok(rating), "{puzzle}");
        assert_eq!(engine_grade(&puzzle), Ok(rating.difficulty), "{puzzle}");
        let explanation = explain(&puzzle).unwrap();
        assert_eq!(
            explanation.difficulty(),
            rating.difficulty,
            "{puzzle}\n{explanation}"
        );
        assert_eq!(explanation.guesses() > 0, rating.nodes > 0, "{puzzle}");
        check_explanation(&explanation);
        *grades.entry(rating.difficulty).or_default() += 1;
    }
    for difficulty in Difficulty::ALL {
        assert!(grades.get(&difficulty) >= Some(&3), "{grades:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random generated puzzles: the readable steps replay, each justified, to the
    /// unique solution, with only needed removals; the grade agrees with `rate`.
    #[test]
    fn readable_explanations_replay_to_the_solution(
        seed in 0u64..1_000_000,
        hints in 22usize..36,
        minimal in any::<bool>(),
    ) {
        let options = GenerateOptions {
            hints: Some(hints),
            minimal,
            seed,
            attempts: 50,
            ..GenerateOptions::default()
        };
        let Ok(generated) = generate(&options) else {
            return Ok(());
        };
        let explanation = explain(&generated.puzzle).unwrap();
        prop_assert_eq!(explanation.solution(), &generated.solution);
        check_explanation(&explanation);
        prop_assert_eq!(
            explanation.difficulty(),
            rate(&generated.puzzle).unwrap().difficulty
        );
    }
}

/// Every puzzle of a file (path in `ALLDIFF_SUDOKU_FILE`, one a line, at most
/// `ALLDIFF_SUDOKU_LIMIT` of them): `rate` gives the engine's grade, and the readable
/// explanation replays with that grade.
#[test]
#[ignore = "reads a puzzle file named by ALLDIFF_SUDOKU_FILE"]
fn puzzle_file_grades_agree() {
    let path = std::env::var("ALLDIFF_SUDOKU_FILE").expect("ALLDIFF_SUDOKU_FILE");
    let limit = std::env::var("ALLDIFF_SUDOKU_LIMIT")
        .ok()
        .and_then(|l| l.parse().ok())
        .unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(path).expect("readable file");
    let mut grades: BTreeMap<Difficulty, usize> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(limit) {
        let puzzle = grid(line);
        let rating = rate(&puzzle).unwrap();
        assert_eq!(engine_grade(&puzzle), Ok(rating.difficulty), "{puzzle}");
        let explanation = explain(&puzzle).unwrap();
        assert_eq!(explanation.difficulty(), rating.difficulty, "{puzzle}");
        let reached = replay(&puzzle, explanation.steps()).unwrap();
        assert_eq!(reached, explanation.solution().cells());
        *grades.entry(rating.difficulty).or_default() += 1;
    }
    println!("{grades:?}");
}
