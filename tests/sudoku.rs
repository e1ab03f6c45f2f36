//! The engine-backed Sudoku toolkit: solving, generating and rating.

use alldiff::sudoku::{
    Difficulty, GenerateError, GenerateOptions, Grid, Propagation, RateError, Removal, SolveResult,
    SolverOptions, SudokuModel, SudokuSolver, Symmetry, check_solution, generate, rate,
};
use alldiff::{CountStatus, Limits, SearchConfig, StopReason, VariableOrder};

const CLASSIC: &str =
    "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";
const CLASSIC_SOLUTION: &str =
    "316578492529134768487629531263415987974863125851792643138947256692351874745286319";
/// Arto Inkala's puzzle.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn grid(text: &str) -> Grid {
    text.parse().expect("valid grid text")
}

fn solver() -> SudokuSolver {
    SudokuSolver::new()
}

#[test]
fn classic_puzzle_solves_uniquely() {
    let mut solver = solver();
    let result = solver.solve(&grid(CLASSIC));
    assert_eq!(result, SolveResult::Unique(grid(CLASSIC_SOLUTION)));
    assert_eq!(solver.statistics().solutions, 1);
    assert_eq!(
        solver.solve_first(&grid(CLASSIC)),
        Ok(Some(grid(CLASSIC_SOLUTION)))
    );
    let count = solver.count(&grid(CLASSIC), None);
    assert_eq!((count.solutions, count.status), (1, CountStatus::Complete));
}

#[test]
fn every_propagation_and_heuristic_agrees_on_the_classic() {
    for propagation in Propagation::ALL {
        for order in [
            VariableOrder::SmallestDomain,
            VariableOrder::DomOverWeightedDegree,
        ] {
            let options = SolverOptions {
                propagation,
                search: SearchConfig::new().variable_order(order),
            };
            let mut solver = SudokuSolver::with_options(options);
            assert_eq!(
                solver.solve(&grid(INKALA)),
                solver.solve(&grid(INKALA)),
                "repeatable"
            );
            let SolveResult::Unique(solution) = solver.solve(&grid(INKALA)) else {
                panic!("Inkala's puzzle is unique under {propagation:?}");
            };
            assert_eq!(check_solution(&grid(INKALA), &solution), Ok(()));
            assert_eq!(
                solver.solve(&grid(CLASSIC)),
                SolveResult::Unique(grid(CLASSIC_SOLUTION))
            );
        }
    }
}

#[test]
fn empty_grid_has_many_solutions() {
    let mut solver = solver();
    let empty = Grid::empty(3).unwrap();
    let SolveResult::Multiple(one) = solver.solve(&empty) else {
        panic!("an empty grid has many solutions");
    };
    assert_eq!(check_solution(&empty, &one), Ok(()));
    let count = solver.count(&empty, Some(5));
    assert_eq!(
        (count.solutions, count.status),
        (5, CountStatus::LimitReached)
    );
}

#[test]
fn conflicting_clues_have_no_solution_at_the_root() {
    let mut solver = solver();
    let mut puzzle = Grid::empty(3).unwrap();
    puzzle.set(0, 0, Some(5));
    puzzle.set(0, 8, Some(5));
    assert_eq!(solver.solve(&puzzle), SolveResult::None);
    assert_eq!(solver.statistics().nodes, 0, "fails before any search");
    assert_eq!(solver.solve_first(&puzzle), Ok(None));
    assert_eq!(solver.count(&puzzle, None).solutions, 0);
}

#[test]
fn complete_grids_are_unique_or_wrong() {
    let mut solver = solver();
    let solution = grid(CLASSIC_SOLUTION);
    assert_eq!(
        solver.solve(&solution),
        SolveResult::Unique(solution.clone())
    );
    let mut wrong = solution.clone();
    let (a, b) = (wrong.get(0, 0), wrong.get(0, 1));
    wrong.set(0, 0, b);
    wrong.set(0, 1, a);
    assert_eq!(solver.solve(&wrong), SolveResult::None);
}

#[test]
fn limits_stop_the_search() {
    let mut solver = solver();
    solver.set_limits(Limits::none().with_nodes(1));
    assert_eq!(
        solver.solve(&Grid::empty(3).unwrap()),
        SolveResult::Stopped(StopReason::NodeLimit)
    );
    solver.set_limits(Limits::none());
    assert!(matches!(
        solver.solve(&Grid::empty(3).unwrap()),
        SolveResult::Multiple(_)
    ));
}

#[test]
fn every_size_solves_from_the_same_solver() {
    let mut solver = solver();
    // 4x4 by hand.
    let small = grid(".2343.1221.3432.");
    let SolveResult::Unique(solution) = solver.solve(&small) else {
        panic!("unique 4x4");
    };
    assert_eq!(check_solution(&small, &solution), Ok(()));
    // Empty and sparse 16x16 and 25x25 grids: solutions exist and are found fast.
    for box_size in [4, 5] {
        let empty = Grid::empty(box_size).unwrap();
        let Ok(Some(full)) = solver.solve_first(&empty) else {
            panic!("an empty {box_size}-box grid has a solution");
        };
        assert_eq!(check_solution(&empty, &full), Ok(()));
        let failures = solver.statistics().failures;
        assert!(
            failures < 100,
            "{failures} failures: little backtracking expected"
        );
        // Sparse: three quarters of the cells blanked at random.
        let options = GenerateOptions {
            box_size,
            removal: Removal::HideRandom {
                blanks: full.cell_count() * 3 / 4,
            },
            seed: 1,
            ..Default::default()
        };
        let sparse = generate(&options).unwrap().puzzle;
        match solver.solve(&sparse) {
            SolveResult::Unique(s) | SolveResult::Multiple(s) => {
                assert_eq!(check_solution(&sparse, &s), Ok(()));
            }
            other => panic!("sparse {box_size}-box grid: {other:?}"),
        }
    }
}

#[test]
fn generated_puzzles_of_other_sizes_solve() {
    let mut solver = solver();
    for (box_size, removal) in [
        (2, Removal::Unique),
        (4, Removal::HideRandom { blanks: 120 }),
        (5, Removal::HideRandom { blanks: 300 }),
    ] {
        let options = GenerateOptions {
            box_size,
            removal,
            seed: 11,
            ..Default::default()
        };
        let generated = generate(&options).unwrap();
        assert_eq!(generated.puzzle.box_size(), box_size);
        assert_eq!(
            check_solution(&generated.puzzle, &generated.solution),
            Ok(())
        );
        let Ok(Some(solution)) = solver.solve_first(&generated.puzzle) else {
            panic!("a puzzle cut from a solution has one");
        };
        assert_eq!(check_solution(&generated.puzzle, &solution), Ok(()));
    }
}

#[test]
fn generated_puzzle_has_the_hints_and_one_solution() {
    let options = GenerateOptions {
        hints: Some(28),
        seed: 1,
        ..Default::default()
    };
    let generated = generate(&options).unwrap();
    assert_eq!(generated.puzzle.clue_count(), 28);
    let mut solver = solver();
    assert_eq!(
        solver.solve(&generated.puzzle),
        SolveResult::Unique(generated.solution.clone())
    );
    assert_eq!(
        generate(&options).unwrap(),
        generated,
        "same seed, same puzzle"
    );
    let other = generate(&GenerateOptions { seed: 2, ..options }).unwrap();
    assert_ne!(other.puzzle, generated.puzzle);
}

#[test]
fn default_options_give_thirty_clues() {
    let generated = generate(&GenerateOptions::default()).unwrap();
    assert_eq!(generated.puzzle.clue_count(), 30);
}

/// The cell a symmetry maps `(r, c)` to on a grid of side `side` (one generator of
/// its group; `None` for `None` and `Random`).
fn image(symmetry: Symmetry, side: usize, r: usize, c: usize) -> Option<(usize, usize)> {
    let n = side - 1;
    match symmetry {
        Symmetry::Rotate180 => Some((n - r, n - c)),
        Symmetry::Rotate90 => Some((c, n - r)),
        Symmetry::Mirror => Some((r, n - c)),
        Symmetry::Flip => Some((n - r, c)),
        Symmetry::Diagonal => Some((c, r)),
        _ => None,
    }
}

/// Panics unless the clues of `puzzle` keep `symmetry`.
fn assert_keeps(puzzle: &Grid, symmetry: Symmetry) {
    let side = puzzle.side();
    for r in 0..side {
        for c in 0..side {
            let (r2, c2) = image(symmetry, side, r, c).expect("a concrete symmetry");
            assert_eq!(
                puzzle.get(r, c).is_some(),
                puzzle.get(r2, c2).is_some(),
                "{symmetry:?} at r{}c{}: {puzzle}",
                r + 1,
                c + 1
            );
        }
    }
}

#[test]
fn symmetric_puzzles_are_symmetric() {
    for symmetry in Symmetry::RANDOM_CHOICES {
        let options = GenerateOptions {
            symmetry,
            hints: Some(32),
            seed: 3,
            attempts: 50,
            ..Default::default()
        };
        let generated = generate(&options).unwrap();
        assert_eq!(generated.symmetry, symmetry);
        assert_eq!(generated.puzzle.clue_count(), 32, "{symmetry:?}");
        assert_keeps(&generated.puzzle, symmetry);
        assert_eq!(
            solver().solve(&generated.puzzle),
            SolveResult::Unique(generated.solution.clone())
        );
    }
}

#[test]
fn flip_is_top_bottom_and_mirror_is_left_right() {
    assert_eq!(image(Symmetry::Flip, 9, 0, 2), Some((8, 2)));
    assert_eq!(image(Symmetry::Mirror, 9, 0, 2), Some((0, 6)));
    assert_eq!(Symmetry::Flip.name(), "flip");
    assert_eq!(Symmetry::Random.name(), "random");
}

#[test]
fn a_random_symmetry_is_drawn_per_puzzle_reproducibly_among_the_valid_ones() {
    let mut drawn = std::collections::HashSet::new();
    for seed in 0..12 {
        // 30 clues: a quarter turn keeps 4k or 4k + 1 clues on a 9x9 grid, not 30.
        let options = GenerateOptions {
            symmetry: Symmetry::Random,
            hints: Some(30),
            seed,
            attempts: 50,
            ..Default::default()
        };
        let generated = generate(&options).unwrap();
        let symmetry = generated.symmetry;
        assert!(Symmetry::RANDOM_CHOICES.contains(&symmetry), "{symmetry:?}");
        assert_ne!(symmetry, Symmetry::Rotate90, "seed {seed}");
        assert_eq!(generated.puzzle.clue_count(), 30);
        assert_keeps(&generated.puzzle, symmetry);
        assert_eq!(
            solver().solve(&generated.puzzle),
            SolveResult::Unique(generated.solution.clone())
        );
        assert_eq!(generate(&options).unwrap(), generated, "seed {seed}");
        drawn.insert(symmetry);
    }
    assert!(drawn.len() >= 3, "{drawn:?}");
    // Minimal puzzles keep any symmetry, a quarter turn included; 4x4 too.
    let minimal = GenerateOptions {
        symmetry: Symmetry::Random,
        minimal: true,
        box_size: 2,
        ..Default::default()
    };
    let mut drawn = std::collections::HashSet::new();
    for seed in 0..30 {
        let generated = generate(&GenerateOptions { seed, ..minimal }).unwrap();
        assert_keeps(&generated.puzzle, generated.symmetry);
        drawn.insert(generated.symmetry);
    }
    assert_eq!(drawn.len(), Symmetry::RANDOM_CHOICES.len(), "{drawn:?}");
}

#[test]
fn minimal_puzzles_have_no_removable_clue() {
    let options = GenerateOptions {
        minimal: true,
        seed: 5,
        ..Default::default()
    };
    let generated = generate(&options).unwrap();
    let puzzle = &generated.puzzle;
    let mut solver = solver();
    assert!(matches!(solver.solve(puzzle), SolveResult::Unique(_)));
    for r in 0..9 {
        for c in 0..9 {
            if puzzle.get(r, c).is_some() {
                let mut less = puzzle.clone();
                less.set(r, c, None);
                assert!(
                    matches!(solver.solve(&less), SolveResult::Multiple(_)),
                    "r{}c{} could be removed",
                    r + 1,
                    c + 1
                );
            }
        }
    }
}

#[test]
fn impossible_hint_counts_are_refused() {
    let options = GenerateOptions {
        hints: Some(16),
        ..Default::default()
    };
    assert_eq!(
        generate(&options),
        Err(GenerateError::TooFewHints {
            hints: 16,
            minimum: 17,
            side: 9
        })
    );
    let options = GenerateOptions {
        hints: Some(82),
        ..Default::default()
    };
    assert!(matches!(
        generate(&options),
        Err(GenerateError::TooMany { .. })
    ));
    let options = GenerateOptions {
        box_size: 6,
        ..Default::default()
    };
    assert!(matches!(
        generate(&options),
        Err(GenerateError::UnsupportedBoxSize { box_size: 6 })
    ));
    // 4x4 puzzles with 4 clues exist, but rarely: a couple of grids do not find one.
    let options = GenerateOptions {
        box_size: 2,
        hints: Some(4),
        attempts: 1,
        seed: 9,
        ..Default::default()
    };
    match generate(&options) {
        Ok(generated) => assert_eq!(generated.puzzle.clue_count(), 4),
        Err(error) => assert!(matches!(error, GenerateError::HintsNotReached { .. })),
    }
}

#[test]
fn hide_random_blanks_exactly_n_cells() {
    let options = GenerateOptions {
        removal: Removal::HideRandom { blanks: 60 },
        seed: 4,
        ..Default::default()
    };
    let generated = generate(&options).unwrap();
    assert_eq!(81 - generated.puzzle.clue_count(), 60);
    assert_eq!(
        check_solution(&generated.puzzle, &generated.solution),
        Ok(())
    );
}

#[test]
fn difficulty_target_is_met() {
    let options = GenerateOptions {
        difficulty: Some(Difficulty::Easy),
        hints: Some(36),
        seed: 6,
        ..Default::default()
    };
    let generated = generate(&options).unwrap();
    assert_eq!(
        rate(&generated.puzzle).unwrap().difficulty,
        Difficulty::Easy
    );
}

#[test]
fn naked_singles_puzzle_rates_easy() {
    // The classic solution with one cell per row blanked: every blank is a naked single.
    let mut puzzle = grid(CLASSIC_SOLUTION);
    for r in 0..9 {
        puzzle.set(r, r, None);
    }
    let rating = rate(&puzzle).unwrap();
    assert_eq!(rating.difficulty, Difficulty::Easy);
    assert_eq!((rating.nodes, rating.failures), (0, 0));
    assert_eq!(rating.difficulty.to_string(), "easy");
    assert_eq!("Diabolical".parse(), Ok(Difficulty::Diabolical));
}

#[test]
fn classic_puzzle_rating() {
    // Observed: naked singles alone stall on the classic puzzle, and adding hidden
    // singles (a digit with one place left in a unit) solves it without guessing,
    // so it rates medium: an easy newspaper puzzle, but not a naked-singles one.
    let rating = rate(&grid(CLASSIC)).unwrap();
    assert_eq!(rating.difficulty, Difficulty::Medium);
    assert_eq!((rating.nodes, rating.failures), (0, 0));
}

#[test]
fn inkala_puzzle_needs_search() {
    let rating = rate(&grid(INKALA)).unwrap();
    assert_eq!(rating.difficulty, Difficulty::Diabolical);
    assert!(rating.nodes > 0 && rating.failures > 0, "{rating:?}");
}

#[test]
fn unsolvable_or_ambiguous_puzzles_are_rate_errors() {
    assert_eq!(
        rate(&Grid::empty(3).unwrap()),
        Err(RateError::MultipleSolutions)
    );
    let mut conflict = Grid::empty(3).unwrap();
    conflict.set(0, 0, Some(1));
    conflict.set(1, 1, Some(1));
    assert_eq!(rate(&conflict), Err(RateError::NoSolution));
}

/// Every puzzle of a file (path in `ALLDIFF_SUDOKU_FILE`, one a line) solves uniquely
/// with every propagation level, to a checked solution.
#[test]
#[ignore = "reads a puzzle file named by ALLDIFF_SUDOKU_FILE"]
fn puzzle_file_solves_uniquely() {
    let path = std::env::var("ALLDIFF_SUDOKU_FILE").expect("ALLDIFF_SUDOKU_FILE");
    let text = std::fs::read_to_string(path).expect("readable file");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(grid)
        .collect();
    for propagation in [Propagation::HiddenSingles, Propagation::Full] {
        let mut solver = SudokuSolver::with_options(SolverOptions {
            propagation,
            ..SolverOptions::default()
        });
        for puzzle in &puzzles {
            let SolveResult::Unique(solution) = solver.solve(puzzle) else {
                panic!("{puzzle} is not unique");
            };
            assert_eq!(check_solution(puzzle, &solution), Ok(()));
        }
    }
}

/// The closure of naked singles, hidden singles and the pigeonhole rule on a 9x9 grid
/// of candidate masks (bit `d - 1` for digit `d`), by the definitions; `None` on a
/// contradiction.
fn singles_closure(mut cands: Vec<u16>) -> Option<Vec<u16>> {
    let units: Vec<Vec<usize>> = (0..9)
        .map(|r| (0..9).map(|c| r * 9 + c).collect())
        .chain((0..9).map(|c| (0..9).map(|r| r * 9 + c).collect()))
        .chain((0..9).map(|b| {
            (0..9)
                .map(|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3)
                .collect()
        }))
        .collect();
    loop {
        let before = cands.clone();
        for unit in &units {
            for &i in unit {
                if cands[i].count_ones() == 1 {
                    for &j in unit {
                        if j != i {
                            cands[j] &= !cands[i];
                        }
                    }
                }
            }
            for digit in 0..9 {
                let places: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&i| cands[i] & (1 << digit) != 0)
                    .collect();
                match places.as_slice() {
                    [] => return None,
                    [only] => cands[*only] = 1 << digit,
                    _ => {}
                }
            }
        }
        if cands.contains(&0) {
            return None;
        }
        if cands == before {
            return Some(cands);
        }
    }
}

/// A small deterministic generator (64-bit LCG, high bits).
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

#[test]
fn system_root_is_the_singles_closure_puzzle_after_puzzle() {
    use alldiff::Solver;
    // One solver for every grid: the system's copy of the domains from one puzzle
    // must follow the store to the next (values come back, others go).
    let (model, cells) = SudokuModel::new(3, Propagation::SystemSingles)
        .unwrap()
        .into_parts();
    let mut solver = Solver::new(model);
    let solution: Vec<u16> = CLASSIC_SOLUTION
        .bytes()
        .map(|b| u16::from(b - b'0'))
        .collect();
    let mut state = 7;
    let (mut consistent, mut contradictions) = (0, 0);
    for round in 0..400 {
        solver.reset();
        let mut cands = vec![0x1ffu16; 81];
        let keep = 12 + next(&mut state) % 30;
        for _ in 0..keep {
            let i = (next(&mut state) % 81) as usize;
            if cands[i] != 0x1ff {
                continue;
            }
            // Mostly the solution's digit; now and then a random one (maybe wrong).
            let digit = if round % 3 == 0 && next(&mut state).is_multiple_of(8) {
                1 + (next(&mut state) % 9) as u16
            } else {
                solution[i]
            };
            cands[i] = 1 << (digit - 1);
            solver.assume(cells[i], i32::from(digit)).unwrap();
        }
        let expected = singles_closure(cands).map(|c| {
            c.iter()
                .map(|&m| (1..=9).filter(|d| m & (1 << (d - 1)) != 0).collect())
                .collect::<Vec<Vec<i32>>>()
        });
        if expected.is_some() {
            consistent += 1;
        } else {
            contradictions += 1;
        }
        assert_eq!(solver.root_domains(), expected, "round {round}");
    }
    assert!(
        consistent > 100 && contradictions > 10,
        "{consistent} {contradictions}"
    );
}

#[test]
fn system_counts_agree_with_separate_constraints_through_backtracking() {
    use alldiff::ValueOrder;
    // Sparse grids with many solutions: long searches that backtrack a lot.
    let full = grid(CLASSIC_SOLUTION);
    let mut state = 11;
    let mut searched = Vec::new();
    for seed in 0..10u64 {
        let mut puzzle = full.clone();
        let mut blanks = 0;
        while blanks < 50 + seed {
            let i = (next(&mut state) % 81) as usize;
            if puzzle.get(i / 9, i % 9).is_some() {
                puzzle.set(i / 9, i % 9, None);
                blanks += 1;
            }
        }
        let configs = [
            SearchConfig::new().variable_order(VariableOrder::SmallestDomain),
            SearchConfig::new()
                .variable_order(VariableOrder::DomOverWeightedDegree)
                .value_order(ValueOrder::Descending),
            SearchConfig::new()
                .variable_order(VariableOrder::InputOrder)
                .value_order(ValueOrder::Random(seed)),
        ];
        let mut counts = Vec::new();
        for propagation in [
            Propagation::HiddenSingles,
            Propagation::SystemSingles,
            Propagation::SystemLockedCandidatesAtRoot,
            Propagation::SystemLockedCandidates,
        ] {
            for search in configs.iter().cloned() {
                let mut solver = SudokuSolver::with_options(SolverOptions {
                    propagation,
                    search,
                });
                let count = solver.count(&puzzle, Some(1_500));
                counts.push(count.solutions);
                if let SolveResult::Unique(s) | SolveResult::Multiple(s) = solver.solve(&puzzle) {
                    assert_eq!(check_solution(&puzzle, &s), Ok(()));
                }
            }
        }
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "seed {seed}: {counts:?}"
        );
        searched.push(counts[0]);
    }
    // Most grids have several solutions, and most are counted to the end.
    assert!(
        searched.iter().filter(|&&c| c > 1).count() >= 6,
        "{searched:?}"
    );
    assert!(
        searched.iter().filter(|&&c| c < 1_500).count() >= 6,
        "{searched:?}"
    );
}

/// A 17-clue puzzle on which singles fail more than
/// [`ESCALATION_FAILURES`](alldiff::sudoku::ESCALATION_FAILURES) times and locked
/// candidates prune at the root.
const SEVENTEEN: &str =
    ".................1.....2.34.....56....7....8..8..1.7.....8.....3..6.....9.5.....3";

fn with_propagation(propagation: Propagation) -> SudokuSolver {
    SudokuSolver::with_options(SolverOptions {
        propagation,
        ..SolverOptions::default()
    })
}

#[test]
fn adaptive_propagation_escalates_only_where_locked_candidates_prune_at_the_root() {
    let mut adaptive = with_propagation(Propagation::SystemAdaptive);
    let mut singles = with_propagation(Propagation::SystemSingles);
    let mut root_locked = with_propagation(Propagation::SystemLockedCandidatesAtRoot);

    // Settled at the root: nothing to escalate.
    assert_eq!(
        adaptive.solve(&grid(CLASSIC)),
        SolveResult::Unique(grid(CLASSIC_SOLUTION))
    );
    assert_eq!(adaptive.latest_propagation(), Propagation::SystemSingles);

    // Many failures, but the rule prunes nothing at its root: singles go on, and the
    // search is theirs, node for node.
    let answer = singles.solve(&grid(INKALA));
    assert_eq!(adaptive.solve(&grid(INKALA)), answer);
    assert_eq!(adaptive.latest_propagation(), Propagation::SystemSingles);
    let (a, s) = (adaptive.statistics(), singles.statistics());
    assert!(s.failures > alldiff::sudoku::ESCALATION_FAILURES);
    assert_eq!(
        (a.nodes, a.failures, a.solutions),
        (s.nodes, s.failures, s.solutions)
    );

    // The rule prunes at the root: the search starts again with it, and its
    // statistics count both searches' work.
    let answer = singles.solve(&grid(SEVENTEEN));
    assert!(matches!(answer, SolveResult::Unique(_)));
    assert_eq!(adaptive.solve(&grid(SEVENTEEN)), answer);
    assert_eq!(
        adaptive.latest_propagation(),
        Propagation::SystemLockedCandidatesAtRoot
    );
    assert_eq!(root_locked.solve(&grid(SEVENTEEN)), answer);
    let (a, s, r) = (
        adaptive.statistics(),
        singles.statistics(),
        root_locked.statistics(),
    );
    assert_eq!(
        a.solutions, 1,
        "the solution found again is not counted twice"
    );
    assert!(a.nodes > r.nodes && a.nodes < s.nodes, "{a:?} {s:?} {r:?}");
    assert_eq!(
        a.failures,
        r.failures + alldiff::sudoku::ESCALATION_FAILURES
    );
    // The default locks candidates at the root from the start: the same search
    // without the restart.
    let mut default = SudokuSolver::new();
    assert_eq!(default.solve(&grid(SEVENTEEN)), answer);
    assert_eq!(
        default.latest_propagation(),
        Propagation::SystemLockedCandidatesAtRoot
    );
    assert_eq!(default.statistics().nodes, r.nodes);

    // The same puzzle again, and an easy one after it: nothing left over.
    assert_eq!(adaptive.solve(&grid(SEVENTEEN)), answer);
    let again = adaptive.statistics();
    assert_eq!(
        (again.nodes, again.failures, again.solutions),
        (a.nodes, a.failures, 1)
    );
    assert_eq!(
        adaptive.solve(&grid(CLASSIC)),
        SolveResult::Unique(grid(CLASSIC_SOLUTION))
    );
    assert_eq!(adaptive.latest_propagation(), Propagation::SystemSingles);
    assert_eq!(adaptive.statistics().nodes, 0);
}

#[test]
fn adaptive_propagation_keeps_the_limits_across_its_searches() {
    let mut singles = with_propagation(Propagation::SystemSingles);
    let answer = singles.solve(&grid(SEVENTEEN));
    let mut adaptive = with_propagation(Propagation::SystemAdaptive);
    let full = {
        adaptive.solve(&grid(SEVENTEEN));
        adaptive.statistics()
    };
    for nodes in 0..=full.nodes + 2 {
        adaptive.set_limits(Limits::none().with_nodes(nodes));
        match adaptive.solve(&grid(SEVENTEEN)) {
            // A limit above the whole search's nodes never stops it.
            SolveResult::Stopped(reason) => {
                assert_eq!(reason, StopReason::NodeLimit);
                assert!(nodes <= full.nodes, "{nodes}");
            }
            result => assert_eq!(result, answer),
        }
        // The limit is checked before each decision; the refutations that follow a
        // failure may pass it by up to the depth, as in any search.
        let stats = adaptive.statistics();
        assert!(
            stats.nodes <= nodes + u64::from(stats.peak_depth),
            "{nodes}"
        );
    }
    for failures in 0..=full.failures + 2 {
        adaptive.set_limits(Limits::none().with_failures(failures));
        let result = adaptive.solve(&grid(SEVENTEEN));
        assert!(
            result == answer || result == SolveResult::Stopped(StopReason::FailureLimit),
            "{failures}: {result:?}"
        );
        let stats = adaptive.statistics();
        assert!(
            stats.failures <= failures + u64::from(stats.peak_depth),
            "{failures}"
        );
    }
}

/// `puzzle` with its digits relabelled, its bands, its rows within each band and its
/// stacks permuted, and transposed, as `k` picks: an equivalent puzzle, which a search
/// takes in another order.
fn transformed(puzzle: &str, k: usize) -> Grid {
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let cells = puzzle.as_bytes();
    let line = |k: usize, i: usize| ORDERS[k % 6][i / 3] * 3 + ORDERS[(k / 6 + i / 3) % 6][i % 3];
    let text: String = (0..81)
        .map(|index| {
            let (mut row, mut col) = (line(k, index / 9), line(k / 7, index % 9));
            if k % 2 == 1 {
                (row, col) = (col, row);
            }
            match cells[row * 9 + col] {
                b'.' => '.',
                digit => char::from(b'1' + (digit - b'1' + (k % 9) as u8) % 9),
            }
        })
        .collect();
    grid(&text)
}

#[test]
fn adaptive_propagation_answers_as_singles_do_on_hard_and_broken_puzzles() {
    let mut adaptive = with_propagation(Propagation::SystemAdaptive);
    let mut singles = with_propagation(Propagation::SystemSingles);
    let mut escalated = 0;
    for k in 0..30 {
        for hard in [SEVENTEEN, INKALA] {
            let puzzle = transformed(hard, k);
            // The same puzzle with one clue's digit moved on by one: most often no
            // solution, found only by search.
            let mut text: Vec<u8> = puzzle.to_line().into_bytes();
            let clue = (text.iter().enumerate())
                .filter(|&(_, &c)| c != b'.')
                .nth(k % 17)
                .map(|(i, _)| i)
                .unwrap();
            text[clue] = b'1' + (text[clue] - b'0') % 9;
            let broken = grid(std::str::from_utf8(&text).unwrap());
            // And with that clue taken away: often several solutions, some found
            // before an escalation, which must not count them twice.
            text[clue] = b'.';
            let open = grid(std::str::from_utf8(&text).unwrap());
            for puzzle in [puzzle, broken, open] {
                let expected = singles.solve(&puzzle);
                let result = adaptive.solve(&puzzle);
                match (&result, &expected) {
                    (SolveResult::Multiple(found), SolveResult::Multiple(_)) => {
                        assert_eq!(check_solution(&puzzle, found), Ok(()));
                    }
                    _ => assert_eq!(result, expected, "{}", puzzle.to_line()),
                }
                escalated +=
                    usize::from(adaptive.latest_propagation() != Propagation::SystemSingles);
                let counts = [&mut adaptive, &mut singles].map(|s| s.count(&puzzle, Some(300)));
                assert_eq!(counts[0], counts[1], "{}", puzzle.to_line());
            }
        }
    }
    assert!(escalated >= 10, "only {escalated} searches escalated");
}
