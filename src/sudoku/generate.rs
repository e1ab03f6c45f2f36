//! Generating puzzles: a random complete grid, then clues removed while the solution
//! stays unique.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use smallvec::SmallVec;

use crate::sudoku::{Difficulty, Grid, RateError, SolverOptions, SudokuSolver, rate_with_limit};
use crate::{Limits, SearchConfig, Solver, Step, ValueOrder, VarId, VariableOrder};

/// Which cells are removed together, so that the puzzle's clues keep a symmetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symmetry {
    /// Cells are removed one at a time.
    #[default]
    None,
    /// A half turn: `(r, c)` with `(n-r, n-c)`, `n = side - 1`.
    Rotate180,
    /// Quarter turns: `(r, c)`, `(c, n-r)`, `(n-r, n-c)`, `(n-c, r)`.
    Rotate90,
    /// Left–right mirror, across the vertical axis: `(r, c)` with `(r, n-c)` (qqwing's
    /// `mirror`).
    Mirror,
    /// Top–bottom flip, across the horizontal axis: `(r, c)` with `(n-r, c)` (qqwing's
    /// `flip`).
    Flip,
    /// The main diagonal: `(r, c)` with `(c, r)`.
    Diagonal,
    /// One of [`Symmetry::RANDOM_CHOICES`], drawn from the seed for each puzzle among
    /// those that can keep the number of clues asked for; [`Generated::symmetry`] says
    /// which.
    Random,
}

impl Symmetry {
    /// The symmetries [`Symmetry::Random`] chooses among: every one but `None` and
    /// `Random`.
    pub const RANDOM_CHOICES: [Symmetry; 5] = [
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
    ];

    /// The lower-case name: `none`, `rotate180`, `rotate90`, `mirror`, `flip`,
    /// `diagonal` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Random => "random",
        }
    }
}

/// How clues are taken away from the complete grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Removal {
    /// Remove clues (in symmetric orbits) in random order, keeping each removal only
    /// if the puzzle still has exactly one solution.
    #[default]
    Unique,
    /// The classic generator: blank this many random cells, checking nothing. The
    /// puzzle may have several solutions. The cells are blanked in whole orbits of
    /// the symmetry; `minimal`, `hints` and `difficulty` are ignored.
    HideRandom {
        /// How many cells to blank.
        blanks: usize,
    },
}

/// What to generate. `GenerateOptions::default()` asks for a 9x9 puzzle with 30 clues
/// and a unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerateOptions {
    /// The box size, 2 to 5.
    pub box_size: usize,
    /// The number of clues; `None` for the size's default (4x4: 6, 9x9: 30,
    /// 16x16: 120, 25x25: 350). Ignored when `minimal`.
    pub hints: Option<usize>,
    /// Which cells are removed together.
    pub symmetry: Symmetry,
    /// Remove clues until none (no orbit, with a symmetry) can be removed without
    /// losing uniqueness, however many clues that leaves. Each attempt's uniqueness
    /// checks share a bound of 200,000 search nodes; a clue whose check is past it
    /// stays, so a large grid (25x25) may keep a few clues more than a minimal
    /// puzzle would.
    pub minimal: bool,
    /// Regenerate until the puzzle rates exactly this.
    pub difficulty: Option<Difficulty>,
    /// How clues are removed.
    pub removal: Removal,
    /// The seed: the same options give the same puzzle.
    pub seed: u64,
    /// How many complete grids to try before giving up. Each attempt is bounded (its
    /// searches together visit at most some 600,000 nodes), so a request that cannot
    /// be met ends with an error after this many.
    pub attempts: u32,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            box_size: 3,
            hints: None,
            symmetry: Symmetry::None,
            minimal: false,
            difficulty: None,
            removal: Removal::Unique,
            seed: 0,
            attempts: 20,
        }
    }
}

/// A generated puzzle with its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its solution (for [`Removal::HideRandom`], the grid the cells were taken from).
    pub solution: Grid,
    /// How many complete grids were tried, from 1.
    pub attempts: u32,
    /// The symmetry the clues keep: the one asked for, or the one drawn for
    /// [`Symmetry::Random`].
    pub symmetry: Symmetry,
}

/// Why no puzzle was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The box size is not 2 to 5.
    #[error("box size {box_size} is not supported: it must be 2 to 5")]
    UnsupportedBoxSize {
        /// The box size asked for.
        box_size: usize,
    },
    /// Fewer clues than any puzzle of this size with a unique solution has.
    #[error(
        "{hints} clues is impossible: a {side}x{side} Sudoku with one solution has at least {minimum}"
    )]
    TooFewHints {
        /// The clues asked for.
        hints: usize,
        /// The proven minimum.
        minimum: usize,
        /// The side of the grid.
        side: usize,
    },
    /// More clues or blanks than cells.
    #[error("{asked} is more than the {cells} cells of the grid")]
    TooMany {
        /// The clues or blanks asked for.
        asked: usize,
        /// The number of cells.
        cells: usize,
    },
    /// No grid tried could be brought down to the number of clues with one solution.
    #[error(
        "no puzzle with {hints} clues and one solution found in {attempts} attempts (fewest: {fewest})"
    )]
    HintsNotReached {
        /// The clues asked for.
        hints: usize,
        /// Grids tried.
        attempts: u32,
        /// The fewest clues reached.
        fewest: usize,
    },
    /// [`Removal::HideRandom`] asked for a number of blanks that no set of the
    /// symmetry's orbits makes up (a quarter turn on 9x9 blanks 4k or 4k + 1 cells).
    #[error("{blanks} blanks cannot keep the symmetry {}: its cells go in whole orbits", .symmetry.name())]
    BlanksNotSymmetric {
        /// The blanks asked for.
        blanks: usize,
        /// The symmetry.
        symmetry: Symmetry,
    },
    /// No puzzle generated rated the difficulty asked for.
    #[error("no {difficulty} puzzle found in {attempts} attempts")]
    DifficultyNotReached {
        /// The difficulty asked for.
        difficulty: Difficulty,
        /// Puzzles tried.
        attempts: u32,
    },
}

/// Nodes allowed for filling an empty grid, for rating a puzzle, and for all the
/// uniqueness checks of one attempt together: past it a check counts as failed and
/// its clues stay. So every attempt is bounded, whatever the size and the clues
/// asked for (a 25x25 grid brought below some 300 clues has checks of millions of
/// nodes: one attempt at 200 clues ran for hours).
const NODE_LIMIT: u64 = 200_000;

/// Generates a puzzle; see [`GenerateOptions`].
///
/// ```
/// use alldiff::sudoku::{GenerateOptions, SolveResult, SudokuSolver, generate};
/// let options = GenerateOptions { box_size: 2, hints: Some(6), seed: 7, ..Default::default() };
/// let generated = generate(&options)?;
/// assert_eq!(generated.puzzle.clue_count(), 6);
/// let mut solver = SudokuSolver::new();
/// assert_eq!(solver.solve(&generated.puzzle), SolveResult::Unique(generated.solution));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`GenerateError`] when the request is impossible (too few or too many clues, a
/// bad box size) or was not met within `attempts` grids.
pub fn generate(options: &GenerateOptions) -> Result<Generated, GenerateError> {
    generate_with(
        &mut SudokuSolver::with_options(SolverOptions::singles()),
        options,
    )
}

/// The clues a generated puzzle keeps when [`GenerateOptions::hints`] is not given:
/// 6, 30, 120 and 350 for box sizes 2 to 5 (350 for any other).
pub fn default_hints(box_size: usize) -> usize {
    match box_size {
        2 => 6,
        3 => 30,
        4 => 120,
        _ => 350,
    }
}

/// [`generate`] with a solver of the caller's, so that generating many puzzles builds
/// the Sudoku model once (one solver per thread). It sets the solver's limits. A
/// solver with [`SolverOptions::singles`] is the fastest for it.
///
/// # Errors
///
/// As [`generate`].
pub fn generate_with(
    solver: &mut SudokuSolver,
    options: &GenerateOptions,
) -> Result<Generated, GenerateError> {
    let box_size = options.box_size;
    if !(2..=5).contains(&box_size) {
        return Err(GenerateError::UnsupportedBoxSize { box_size });
    }
    let side = box_size * box_size;
    let cells = side * side;
    let hints = options.hints.unwrap_or(default_hints(box_size));
    match options.removal {
        Removal::HideRandom { blanks } if blanks > cells => {
            return Err(GenerateError::TooMany {
                asked: blanks,
                cells,
            });
        }
        Removal::Unique if !options.minimal => {
            if hints > cells {
                return Err(GenerateError::TooMany {
                    asked: hints,
                    cells,
                });
            }
            let minimum = match box_size {
                2 => 4,
                3 => 17,
                _ => 0,
            };
            if hints < minimum {
                return Err(GenerateError::TooFewHints {
                    hints,
                    minimum,
                    side,
                });
            }
        }
        _ => {}
    }
    solver.set_limits(Limits::none().with_nodes(NODE_LIMIT));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let symmetry = match options.removal {
        Removal::HideRandom { blanks } => {
            resolve(options.symmetry, side, Some(cells - blanks), &mut rng)
        }
        Removal::Unique if options.minimal => resolve(options.symmetry, side, None, &mut rng),
        Removal::Unique => resolve(options.symmetry, side, Some(hints), &mut rng),
    };
    let orbits = orbits(side, symmetry);
    if let Removal::HideRandom { blanks } = options.removal
        && !reachable(&orbits, blanks)
    {
        return Err(GenerateError::BlanksNotSymmetric { blanks, symmetry });
    }
    let mut fewest = cells;
    let attempts = options.attempts.max(1);
    for attempt in 1..=attempts {
        let Some(solution) = complete_grid(solver, box_size, rng.random())? else {
            continue;
        };
        if let Removal::HideRandom { blanks } = options.removal {
            let mut puzzle = solution.clone();
            for cell in random_orbits(&orbits, blanks, &mut rng) {
                puzzle.set(cell / side, cell % side, None);
            }
            return Ok(Generated {
                puzzle,
                solution,
                attempts: attempt,
                symmetry,
            });
        }
        let target = if options.minimal { 0 } else { hints };
        let puzzle = remove_clues(solver, &solution, &orbits, target, &mut rng);
        fewest = fewest.min(puzzle.clue_count());
        if !options.minimal && puzzle.clue_count() != hints {
            continue;
        }
        if let Some(difficulty) = options.difficulty {
            match rate_with_limit(&puzzle, Some(NODE_LIMIT)) {
                Ok(rating) if rating.difficulty == difficulty => {}
                Ok(_) | Err(RateError::Stopped(_)) => continue,
                // Removal kept the solution unique; nothing else can be found.
                Err(_) => continue,
            }
        }
        return Ok(Generated {
            puzzle,
            solution,
            attempts: attempt,
            symmetry,
        });
    }
    match options.difficulty {
        Some(difficulty) if options.minimal || fewest <= hints => {
            Err(GenerateError::DifficultyNotReached {
                difficulty,
                attempts,
            })
        }
        _ => Err(GenerateError::HintsNotReached {
            hints,
            attempts,
            fewest,
        }),
    }
}

/// The symmetry to use: `symmetry` itself, or for [`Symmetry::Random`] one of
/// [`Symmetry::RANDOM_CHOICES`] drawn from `rng` among those whose orbits can make up
/// `hints` clues (any of them when `hints` is `None`). The diagonal keeps any count,
/// so there is always a choice; `None` if there were not.
fn resolve(
    symmetry: Symmetry,
    side: usize,
    hints: Option<usize>,
    rng: &mut Xoshiro256PlusPlus,
) -> Symmetry {
    if symmetry != Symmetry::Random {
        return symmetry;
    }
    let choices: Vec<Symmetry> = Symmetry::RANDOM_CHOICES
        .into_iter()
        .filter(|&s| hints.is_none_or(|hints| reachable(&orbits(side, s), hints)))
        .collect();
    if choices.is_empty() {
        return Symmetry::None;
    }
    choices[rng.random_range(0..choices.len())]
}

/// Whether some orbits hold exactly `hints` cells in all (a subset sum). O(orbits x
/// cells).
fn reachable(orbits: &[Orbit], hints: usize) -> bool {
    let mut sums = vec![false; hints + 1];
    sums[0] = true;
    for orbit in orbits {
        for total in (orbit.len()..=hints).rev() {
            sums[total] |= sums[total - orbit.len()];
        }
    }
    sums[hints]
}

/// The cells of orbits drawn at random that make up `count` cells: the orbits in
/// random order, each taken if the cells still wanted can be made up by the orbits
/// after it. An orbit whose taking would leave that impossible is in no way of making
/// up the count, so skipping it never loses one: if `count` can be made up at all
/// ([`reachable`]), it is. Every symmetry's orbits have one cell or one larger size
/// (2, or 4 for a quarter turn), which makes the test a sum.
fn random_orbits(orbits: &[Orbit], count: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let size = orbits.iter().map(|o| o.len()).max().unwrap_or(1);
    let mut singles = orbits.iter().filter(|o| o.len() == 1).count();
    let mut larger = orbits.len() - singles;
    let possible = |wanted: usize, singles: usize, larger: usize| {
        wanted - larger.min(wanted / size) * size <= singles
    };
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    shuffle(&mut order, rng);
    let mut wanted = count;
    let mut cells = Vec::with_capacity(count);
    for &o in &order {
        let orbit = &orbits[o];
        match orbit.len() {
            1 => singles -= 1,
            _ => larger -= 1,
        }
        if orbit.len() <= wanted && possible(wanted - orbit.len(), singles, larger) {
            wanted -= orbit.len();
            cells.extend_from_slice(orbit);
        }
    }
    cells
}

/// A random complete grid, or `None` if the search hit the node limit.
///
/// The boxes on the diagonal share no row, column or box, so each is filled with its
/// own random permutation first, at once; the search then completes the rest with
/// random values: a third of a 9x9 grid is filled without a choice.
fn complete_grid(
    solver: &mut SudokuSolver,
    box_size: usize,
    seed: u64,
) -> Result<Option<Grid>, GenerateError> {
    let mut start =
        Grid::empty(box_size).map_err(|_| GenerateError::UnsupportedBoxSize { box_size })?;
    let side = start.side();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut digits: Vec<usize> = (1..=side).collect();
    for b in 0..box_size {
        shuffle(&mut digits, &mut rng);
        for (k, &digit) in digits.iter().enumerate() {
            let (row, col) = (b * box_size + k / box_size, b * box_size + k % box_size);
            // At most 25: fits.
            start.set(row, col, Some(digit as u8));
        }
    }
    let search = solver.options().search;
    solver.set_search(
        SearchConfig::new()
            .variable_order(VariableOrder::SmallestDomain)
            .value_order(ValueOrder::Random(rng.random())),
    );
    let grid = solver.solve_first(&start).ok().flatten();
    solver.set_search(search);
    Ok(grid)
}

/// Removes orbits of clues in random order while the solution stays unique, stopping
/// at `target` clues.
///
/// The clues not yet tried stay in the solver as levels ([`Solver::push_level`]),
/// the next orbit to try on top, so that they are propagated once rather than in every
/// check; the clues whose removal failed are assumed in each check.
fn remove_clues(
    solver: &mut SudokuSolver,
    solution: &Grid,
    orbits: &[Orbit],
    target: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Grid {
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    shuffle(&mut order, rng);
    let mut puzzle = solution.clone();
    let Some((engine, cells)) = solver.engine(solution.box_size()) else {
        return puzzle;
    };
    let clue = |cell: usize| (cells[cell], i32::from(solution.cells()[cell]));
    // Tens of checks a puzzle, each a search of a few steps: their times are never
    // shown, and reading the clock was a few percent of the work.
    let timed = engine.measures_time();
    engine.measure_time(false);
    engine.reset();
    for &o in order.iter().rev() {
        // Cannot fail: the solver's own variables.
        let _ = engine.push_level(orbits[o].iter().map(|&cell| clue(cell)));
    }
    let side = solution.side();
    let mut clues = puzzle.clue_count();
    let mut kept: Vec<usize> = Vec::new();
    let limits = engine.limits().clone();
    let mut budget = NODE_LIMIT;
    for &o in &order {
        engine.pop_level();
        let orbit = &orbits[o];
        if clues - orbit.len() >= target && determined(engine, &kept, orbit, clue, &mut budget) {
            clues -= orbit.len();
            for &cell in orbit {
                puzzle.set(cell / side, cell % side, None);
            }
        } else {
            kept.extend(orbit);
        }
    }
    engine.reset();
    engine.measure_time(timed);
    engine.set_limits(limits);
    puzzle
}

/// Whether the clues in place (the solver's levels and the `kept` cells) still
/// determine the cells of `orbit`: no solution differs from the grid there. Any other
/// solution would differ in one of them, so each cell is tried in turn, different from
/// the grid, the cells before it as in the grid. The searches spend `budget` nodes; a
/// search stopped by it, or with none left, counts as not determined.
fn determined(
    engine: &mut Solver,
    kept: &[usize],
    orbit: &[usize],
    clue: impl Fn(usize) -> (VarId, i32),
    budget: &mut u64,
) -> bool {
    (0..orbit.len()).all(|j| {
        if *budget == 0 {
            return false;
        }
        engine.set_limits(Limits::none().with_nodes(*budget));
        engine.reset();
        for &cell in kept.iter().chain(&orbit[..j]) {
            let (var, value) = clue(cell);
            // Cannot fail: the solver's own variables.
            let _ = engine.assume(var, value);
        }
        let (var, value) = clue(orbit[j]);
        let _ = engine.assume_not(var, value);
        // Stepped, not `solve`d: a solution found is only looked at, not copied out.
        let exhausted = engine.advance() == Step::Exhausted;
        *budget = budget.saturating_sub(engine.statistics().nodes);
        exhausted
    })
}

/// Fisher–Yates.
fn shuffle(items: &mut [usize], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// One orbit's cells: at most four, kept inline.
pub(crate) type Orbit = SmallVec<[usize; 4]>;

/// The cells grouped into orbits of the symmetry, each orbit once, in cell order.
pub(crate) fn orbits(side: usize, symmetry: Symmetry) -> Vec<Orbit> {
    let n = side - 1;
    let mut seen = vec![false; side * side];
    let mut orbits = Vec::new();
    for r in 0..side {
        for c in 0..side {
            if seen[r * side + c] {
                continue;
            }
            let images: &[(usize, usize)] = match symmetry {
                Symmetry::None => &[(r, c)],
                Symmetry::Rotate180 => &[(r, c), (n - r, n - c)],
                Symmetry::Rotate90 => &[(r, c), (c, n - r), (n - r, n - c), (n - c, r)],
                Symmetry::Mirror => &[(r, c), (r, n - c)],
                Symmetry::Flip => &[(r, c), (n - r, c)],
                Symmetry::Diagonal => &[(r, c), (c, r)],
                // Resolved before the orbits are made; as a fallback, one at a time.
                Symmetry::Random => &[(r, c)],
            };
            let mut cells: Orbit = images.iter().map(|&(r, c)| r * side + c).collect();
            cells.sort_unstable();
            cells.dedup();
            for &cell in &cells {
                seen[cell] = true;
            }
            orbits.push(cells);
        }
    }
    orbits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_orbits_make_up_every_reachable_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for side in [4, 9, 16] {
            for symmetry in [Symmetry::None].into_iter().chain(Symmetry::RANDOM_CHOICES) {
                let orbits = orbits(side, symmetry);
                for count in (0..=side * side).filter(|&n| reachable(&orbits, n)) {
                    let mut cells = random_orbits(&orbits, count, &mut rng);
                    assert_eq!(cells.len(), count, "{side} {symmetry:?} {count}");
                    cells.sort_unstable();
                    // Whole orbits only: each orbit is all in or all out.
                    for orbit in &orbits {
                        let taken = orbit.iter().filter(|c| cells.binary_search(c).is_ok());
                        assert!([0, orbit.len()].contains(&taken.count()), "{orbit:?}");
                    }
                }
            }
        }
    }
}
