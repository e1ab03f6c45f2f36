//! The Sudoku propagation levels: the all-different system's root is the closure of
//! singles by their definitions, its counts agree with separate constraints, and
//! adaptive propagation escalates only where it pays and answers as singles do.

use alldiff::sudoku::{
    Grid, Propagation, SolveResult, SolverOptions, SudokuModel, SudokuSolver, check_solution,
};
use alldiff::{Limits, SearchConfig, StopReason, VariableOrder};

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
