//! The examples' models against the puzzles' known answers. Each example file is included
//! as a module, so the tests run the very code the examples run.

#[allow(dead_code)]
#[path = "../examples/nqueens.rs"]
mod nqueens;

#[allow(dead_code)]
#[path = "../examples/send_more_money.rs"]
mod send_more_money;

#[allow(dead_code)]
#[path = "../examples/map_coloring.rs"]
mod map_coloring;

#[allow(dead_code)]
#[path = "../examples/killer_sudoku.rs"]
mod killer_sudoku;

#[allow(dead_code)]
#[path = "../examples/sudoku_variants.rs"]
mod sudoku_variants;

#[allow(dead_code)]
#[path = "../examples/zebra.rs"]
mod zebra;

#[allow(dead_code)]
#[path = "../examples/magic_square.rs"]
mod magic_square;

#[allow(dead_code)]
#[path = "../examples/latin_square.rs"]
mod latin_square;

#[allow(dead_code)]
#[path = "../examples/kakuro.rs"]
mod kakuro;

#[allow(dead_code)]
#[path = "../examples/golomb_ruler.rs"]
mod golomb_ruler;
#[allow(dead_code)]
#[path = "../examples/knights_tour.rs"]
mod knights_tour;

#[allow(dead_code)]
#[path = "../examples/knapsack.rs"]
mod knapsack;

#[allow(dead_code)]
#[path = "../examples/party.rs"]
mod party;

#[allow(dead_code)]
#[path = "../examples/jobshop.rs"]
mod jobshop;

#[allow(dead_code)]
#[path = "../examples/all_interval.rs"]
mod all_interval;
use all_interval::Intervals;

#[allow(dead_code)]
#[path = "../examples/langford.rs"]
mod langford;

use alldiff::{CountStatus, Strength};

/// The three all-different strengths that prune beyond value elimination, and value
/// elimination itself: every example's answer is the same under each.
const STRENGTHS: [Strength; 4] = [
    Strength::Value,
    Strength::HiddenSingles,
    Strength::Bounds,
    Strength::Domain,
];
use alldiff::sudoku::Grid;

/// OEIS A000170: the number of solutions of n-queens, n = 1, 2, ...
const QUEENS: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

#[test]
fn nqueens_counts_up_to_10() {
    for strength in STRENGTHS {
        for (n, &expected) in (1..=10).zip(&QUEENS) {
            let (count, _) = nqueens::count(n, strength).unwrap();
            assert_eq!(count, expected, "n = {n}, {strength:?}");
        }
    }
}

#[test]
#[ignore = "slow in debug builds; run with --ignored or in release"]
fn nqueens_counts_11_and_12() {
    assert_eq!(nqueens::count(11, Strength::Domain).unwrap().0, QUEENS[10]);
    assert_eq!(nqueens::count(12, Strength::Domain).unwrap().0, QUEENS[11]);
}

/// No two queens share a column or a diagonal.
fn assert_queens_valid(columns: &[i32]) {
    for (i, &a) in columns.iter().enumerate() {
        assert!((1..=columns.len() as i32).contains(&a));
        for (j, &b) in columns.iter().enumerate().skip(i + 1) {
            assert_ne!(a, b, "rows {i} and {j} share a column");
            assert_ne!(
                (a - b).abs(),
                (j - i) as i32,
                "rows {i} and {j} share a diagonal"
            );
        }
    }
}

#[test]
fn nqueens_solutions_are_valid_and_3_has_none() {
    for n in [1, 4, 8, 30] {
        let columns = nqueens::solve(n).unwrap().expect("solvable");
        assert_eq!(columns.len(), n);
        assert_queens_valid(&columns);
    }
    assert_eq!(nqueens::solve(3).unwrap(), None);
    let board = nqueens::board(&[2, 4, 1, 3]);
    assert_eq!(board, ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
}

#[test]
fn nqueens_200_is_solved() {
    let columns = nqueens::solve(200).unwrap().expect("solvable");
    assert_queens_valid(&columns);
}

#[test]
fn send_more_money_is_9567_1085_10652_and_unique() {
    assert_eq!(
        send_more_money::solutions().unwrap(),
        vec![[9567, 1085, 10652]]
    );
}

#[test]
fn send_more_money_refuses_overlong_words() {
    assert!(send_more_money::puzzle(&["ABCDEFGHIJ"], "A").is_err());
}

#[test]
fn australia_takes_3_colours_but_not_2() {
    let colouring = map_coloring::colour(3).unwrap().expect("3 colours suffice");
    for (a, b) in map_coloring::BORDERS {
        assert_ne!(
            colouring[a],
            colouring[b],
            "{} and {}",
            map_coloring::REGIONS[a],
            map_coloring::REGIONS[b]
        );
    }
    assert!(colouring.iter().all(|&c| c < 3));
    assert_eq!(map_coloring::colour(2).unwrap(), None);
}

/// Every row, column and unit of a solved 9×9 grid holds 1 to 9.
fn assert_units_hold_1_to_9(cells: &[u8], units: &[Vec<usize>]) {
    for unit in units {
        let mut digits: Vec<u8> = unit.iter().map(|&i| cells[i]).collect();
        digits.sort_unstable();
        assert_eq!(digits, (1..=9).collect::<Vec<u8>>(), "unit {unit:?}");
    }
}

#[test]
fn killer_sudoku_has_exactly_one_solution() {
    let (grid, count) = killer_sudoku::solve().unwrap();
    assert_eq!(count.solutions, 1);
    assert_eq!(count.status, CountStatus::Complete);
    let grid = grid.expect("solved");
    assert!(alldiff::sudoku::validate(&grid).is_empty());
    assert!(grid.is_complete());
    // Every cage adds up to its sum.
    let layout: Vec<char> = killer_sudoku::CAGES
        .iter()
        .flat_map(|r| r.chars())
        .collect();
    for (letter, sum) in killer_sudoku::SUMS {
        let total: i32 = (0..81)
            .filter(|&i| layout[i] == letter)
            .map(|i| i32::from(grid.cells()[i]))
            .sum();
        assert_eq!(total, sum, "cage {letter}");
    }
    assert_eq!(grid.to_line()[..9], *"361278549");
}

#[test]
fn killer_sudoku_rejects_a_cage_without_a_sum() {
    let sums = &killer_sudoku::SUMS[1..];
    assert!(killer_sudoku::killer(&killer_sudoku::CAGES, sums).is_err());
}

#[test]
fn sudoku_x_has_exactly_one_solution() {
    let givens: Grid = sudoku_variants::X_PUZZLE.parse().unwrap();
    let units = sudoku_variants::x_units();
    let (grid, count) = sudoku_variants::solve(&units, &givens).unwrap();
    assert_eq!((count.solutions, count.status), (1, CountStatus::Complete));
    let grid = grid.expect("solved");
    assert_units_hold_1_to_9(grid.cells(), &units);
    assert!(alldiff::sudoku::check_solution(&givens, &grid).is_ok());
}

#[test]
fn jigsaw_sudoku_has_exactly_one_solution() {
    let givens: Grid = sudoku_variants::JIGSAW_PUZZLE.parse().unwrap();
    let units = sudoku_variants::jigsaw_units(&sudoku_variants::JIGSAW_REGIONS).unwrap();
    assert_eq!(units.len(), 27);
    let (grid, count) = sudoku_variants::solve(&units, &givens).unwrap();
    assert_eq!((count.solutions, count.status), (1, CountStatus::Complete));
    let grid = grid.expect("solved");
    assert_units_hold_1_to_9(grid.cells(), &units);
    for (i, &given) in givens.cells().iter().enumerate() {
        assert!(given == 0 || given == grid.cells()[i]);
    }
}

#[test]
fn jigsaw_rejects_a_region_of_the_wrong_size() {
    let mut regions = sudoku_variants::JIGSAW_REGIONS;
    regions[0] = "BBBBBBBBC";
    assert!(sudoku_variants::jigsaw_units(&regions).is_err());
    regions[0] = "ABBBBBBBCA";
    assert!(sudoku_variants::jigsaw_units(&regions).is_err());
    let givens = Grid::empty(3).unwrap();
    assert!(sudoku_variants::model(&[vec![0, 81]], &givens).is_err());
}

#[test]
fn zebra_the_japanese_owns_it_and_the_norwegian_drinks_water() {
    let (houses, count) = zebra::solve().unwrap();
    let houses = houses.expect("solved");
    assert_eq!(count, 1);
    let house_of = |attribute: usize, value: &str| {
        houses
            .iter()
            .position(|h| h[attribute] == value)
            .expect("placed")
    };
    assert_eq!(houses[house_of(4, "zebra")][1], "Japanese");
    assert_eq!(houses[house_of(2, "water")][1], "Norwegian");
    assert_eq!(house_of(1, "Norwegian"), 0);
}

#[test]
fn magic_squares_of_3_number_8() {
    assert_eq!(magic_square::count(3).unwrap(), 8);
    assert_eq!(magic_square::count(2).unwrap(), 0);
    assert_eq!(magic_square::count(1).unwrap(), 1);
}

#[test]
fn magic_squares_are_magic() {
    for n in [3, 4, 5] {
        let rows = magic_square::solve(n)
            .unwrap()
            .expect("a magic square exists");
        let total = (n * (n * n + 1) / 2) as i32;
        let mut values: Vec<i32> = rows.iter().flatten().copied().collect();
        values.sort_unstable();
        assert_eq!(values, (1..=(n * n) as i32).collect::<Vec<_>>());
        for i in 0..n {
            assert_eq!(rows[i].iter().sum::<i32>(), total);
            assert_eq!(rows.iter().map(|r| r[i]).sum::<i32>(), total);
        }
        assert_eq!((0..n).map(|i| rows[i][i]).sum::<i32>(), total);
        assert_eq!((0..n).map(|i| rows[i][n - 1 - i]).sum::<i32>(), total);
    }
}

#[test]
fn latin_square_completes_the_open_square() {
    let rows = latin_square::complete(&latin_square::OPEN)
        .unwrap()
        .expect("completable");
    let n = latin_square::OPEN.len();
    for i in 0..n {
        let mut row = rows[i].clone();
        let mut col: Vec<i32> = rows.iter().map(|r| r[i]).collect();
        row.sort_unstable();
        col.sort_unstable();
        let all: Vec<i32> = (1..=n as i32).collect();
        assert_eq!((row, col), (all.clone(), all));
        for (j, &given) in latin_square::OPEN[i].iter().enumerate() {
            assert!(given == 0 || i32::from(given) == rows[i][j]);
        }
    }
}

#[test]
fn latin_square_proves_the_closed_square_has_no_completion() {
    assert_eq!(latin_square::complete(&latin_square::CLOSED).unwrap(), None);
}

#[test]
fn latin_square_rejects_bad_givens() {
    assert!(latin_square::complete(&[[1, 3], [0, 0]]).is_err());
    assert!(latin_square::complete(&[vec![1, 2], vec![0]]).is_err());
}

#[test]
fn kakuro_has_exactly_one_solution() {
    let (grid, count) = kakuro::solve().unwrap();
    assert_eq!((count.solutions, count.status), (1, CountStatus::Complete));
    let grid = grid.expect("solved");
    let (across, down) = kakuro::runs(&kakuro::SHAPE);
    for (runs, clues) in [(&across, &kakuro::ACROSS[..]), (&down, &kakuro::DOWN[..])] {
        assert_eq!(runs.len(), clues.len());
        for (run, &clue) in runs.iter().zip(clues) {
            let mut digits: Vec<i32> = run.iter().map(|&(r, c)| grid[r][c]).collect();
            assert_eq!(digits.iter().sum::<i32>(), clue);
            digits.sort_unstable();
            digits.dedup();
            assert_eq!(digits.len(), run.len(), "digits repeat in {run:?}");
        }
    }
}

#[test]
fn kakuro_rejects_the_wrong_number_of_clues() {
    assert!(kakuro::kakuro(&kakuro::SHAPE, &[Some(3)], &[]).is_err());
}

#[test]
fn knights_tours_of_6_and_8_are_closed_tours() {
    for n in [6, 8] {
        let order = knights_tour::tour(n)
            .unwrap()
            .expect("a closed tour exists");
        assert_eq!(knights_tour::verify(n, &order), Ok(()), "n = {n}");
        assert_eq!(order[0], 0);
    }
}

#[test]
fn knights_tours_need_an_even_board_of_6_or_more() {
    for n in [1, 2, 3, 4, 5, 7] {
        assert_eq!(knights_tour::tour(n).unwrap(), None, "n = {n}");
    }
}

#[test]
fn knights_tour_verification_catches_bad_tours() {
    let order = knights_tour::tour(6).unwrap().unwrap();
    let mut twice = order.clone();
    twice[5] = twice[3];
    assert!(knights_tour::verify(6, &twice).is_err());
    let mut swapped = order.clone();
    swapped.swap(1, 2);
    assert!(knights_tour::verify(6, &swapped).is_err());
    assert!(knights_tour::verify(6, &order[1..]).is_err());
    assert_eq!(knights_tour::moves(3, 0), vec![5, 7]);
    let board = knights_tour::board(6, &order);
    assert_eq!(board.lines().count(), 6);
    assert!(board.starts_with(" 1 "));
}

/// The marks form a Golomb ruler: 0 first, ascending, every distance different.
fn assert_golomb(marks: &[i32]) {
    assert_eq!(marks[0], 0);
    assert!(marks.windows(2).all(|w| w[0] < w[1]), "{marks:?}");
    let mut distances: Vec<i32> = (0..marks.len())
        .flat_map(|i| (i + 1..marks.len()).map(move |j| (i, j)))
        .map(|(i, j)| marks[j] - marks[i])
        .collect();
    let count = distances.len();
    distances.sort_unstable();
    distances.dedup();
    assert_eq!(distances.len(), count, "a distance repeats in {marks:?}");
}

#[test]
fn golomb_rulers_of_4_to_8_marks_are_6_11_17_25_34_long() {
    for (m, optimum) in [(2, 1), (3, 3), (4, 6), (5, 11), (6, 17), (7, 25), (8, 34)] {
        let mut lengths = Vec::new();
        let (marks, stats) = golomb_ruler::solve(m, Strength::Bounds, |ruler| {
            assert_golomb(ruler);
            lengths.push(*ruler.last().unwrap());
        })
        .unwrap();
        let marks = marks.expect("a ruler exists");
        assert_eq!(stats.solutions, lengths.len() as u64);
        assert_eq!(marks.len(), m);
        assert_golomb(&marks);
        assert_eq!(marks[m - 1], optimum, "m = {m}");
        // Each ruler reported is shorter than the one before; the last is the optimum.
        assert!(lengths.windows(2).all(|w| w[0] > w[1]), "{lengths:?}");
        assert_eq!(lengths.last(), Some(&optimum));
    }
}

/// The best value by trying every subset of the items.
fn knapsack_brute_force(items: &[knapsack::Item], capacity: i32) -> Option<i64> {
    (0u32..1 << items.len())
        .filter_map(|subset| {
            let chosen = items
                .iter()
                .enumerate()
                .filter(|&(i, _)| subset >> i & 1 == 1);
            let (weight, value) = chosen.fold((0i64, 0i64), |(w, v), (_, item)| {
                (w + i64::from(item.weight), v + i64::from(item.value))
            });
            (weight <= i64::from(capacity)).then_some(value)
        })
        .max()
}

#[test]
fn knapsack_finds_the_brute_force_optimum() {
    use knapsack::{CAPACITY, ITEMS, Item};
    let mut instances = vec![(ITEMS.to_vec(), CAPACITY)];
    // Small pseudo-random instances, tight and loose.
    let mut seed = 12345u64;
    let mut next = |bound: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % bound) as i32
    };
    for n in 1..=10 {
        let items: Vec<Item> = (0..n)
            .map(|_| Item {
                weight: next(40) + 1,
                value: next(60),
            })
            .collect();
        let capacity = next(20 * n);
        instances.push((items, capacity));
    }
    for (items, capacity) in instances {
        let mut values = Vec::new();
        let (best, chosen) = knapsack::solve(&items, capacity, |v| values.push(v))
            .unwrap()
            .expect("taking nothing fits");
        assert_eq!(
            Some(best),
            knapsack_brute_force(&items, capacity),
            "{items:?}"
        );
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
        assert_eq!(values.last(), Some(&best));
        let (weight, value) = (items.iter().zip(&chosen))
            .filter(|&(_, &c)| c)
            .fold((0, 0), |(w, v), (i, _)| {
                (w + i.weight, v + i64::from(i.value))
            });
        assert!(weight <= capacity);
        assert_eq!(value, best);
    }
    assert_eq!(knapsack_brute_force(&ITEMS, CAPACITY), Some(686));
}

/// The party's rules, written out directly over one assignment (guests in
/// `party::FRIENDS` order, day 1..=7).
fn party_rules_hold(g: [bool; 8], day: i32) -> bool {
    let [ann, ben, cat, dan, eve, fay, gus, hal] = g;
    let others = g.iter().enumerate().filter(|&(i, &x)| i != 3 && x).count();
    let slices: i32 = party::APPETITE
        .iter()
        .zip(g)
        .filter(|(_, x)| *x)
        .map(|(a, _)| a)
        .sum();
    (!ann || ben)
        && !(cat && dan)
        && eve == (fay || gus)
        && (!hal || (ann && cat))
        && (ben != gus)
        && dan == (others >= 4)
        && (!gus || day >= 6)
        && cat == (day == 5)
        && (!ann || day <= 3)
        && slices <= party::SLICES
}

#[test]
fn party_has_at_most_5_guests_in_3_ways_as_brute_force_finds() {
    let mut best = 0;
    let mut ways = 0;
    for bits in 0u32..256 {
        let g: [bool; 8] = std::array::from_fn(|i| bits >> i & 1 == 1);
        let guests = g.iter().filter(|&&x| x).count();
        for day in 1..=7 {
            if party_rules_hold(g, day) {
                if guests > best {
                    (best, ways) = (guests, 0);
                }
                ways += u64::from(guests == best);
            }
        }
    }
    assert_eq!((best, ways), (5, 3));
    assert_eq!(party::most_guests().unwrap(), (5, 3));
    let (names, day) = party::party(5).unwrap().unwrap();
    assert_eq!(names, ["Ann", "Ben", "Dan", "Eve", "Fay"]);
    assert!((1..=3).contains(&day));
    assert_eq!(party::party(6).unwrap(), None);
    // Every party the solver finds obeys the rules, and it finds all of them.
    let (model, invited, day) = party::model(0).unwrap();
    let mut solver = alldiff::Solver::new(model);
    let mut found = 0;
    for s in solver.solutions() {
        let s = s.unwrap();
        let g: [bool; 8] = std::array::from_fn(|i| s[invited[i]] == 1);
        assert!(party_rules_hold(g, s[day]));
        found += 1;
    }
    let all = (0u32..256)
        .flat_map(|bits| (1..=7).map(move |day| (bits, day)))
        .filter(|&(bits, day)| party_rules_hold(std::array::from_fn(|i| bits >> i & 1 == 1), day))
        .count();
    assert_eq!(found, all);
}

#[test]
fn jobshop_ft06_optimum_is_55() {
    let instance = jobshop::ft06();
    let (found, _) = jobshop::schedule(&instance, 55).unwrap();
    let starts = found.expect("a schedule within 55");
    jobshop::check(&instance, &starts, 55).unwrap();
    // The checker catches a broken schedule: the first operations of jobs 0 and 2
    // both use machine 2.
    let mut clash = starts.clone();
    clash[2][0] = clash[0][0];
    assert!(jobshop::check(&instance, &clash, 55).is_err());
    assert!(jobshop::check(&instance, &starts, 54).is_err());
    let (found, _) = jobshop::schedule(&instance, 54).unwrap();
    assert!(found.is_none(), "no schedule within 54");
}

#[test]
fn golomb_optimum_is_the_same_under_every_strength() {
    for strength in STRENGTHS {
        let (marks, _) = golomb_ruler::solve(6, strength, |_| {}).unwrap();
        assert_eq!(marks.expect("a ruler exists")[5], 17, "{strength:?}");
    }
}

/// Whether `series` is a permutation of `0..n` whose adjacent differences are a
/// permutation of `1..n`.
fn is_all_interval(series: &[usize]) -> bool {
    let n = series.len();
    let mut seen = vec![false; n];
    for &x in series {
        if x >= n || std::mem::replace(&mut seen[x], true) {
            return false;
        }
    }
    let mut gaps = vec![false; n];
    series.windows(2).all(|w| {
        let gap = w[0].abs_diff(w[1]);
        (1..n).contains(&gap) && !std::mem::replace(&mut gaps[gap], true)
    })
}

/// The number of all-interval series of length `n`, by trying every permutation of
/// `0..n` (Heap's algorithm).
fn all_interval_brute_force(n: usize) -> u64 {
    let mut series: Vec<usize> = (0..n).collect();
    let mut counters = vec![0; n];
    let mut count = u64::from(is_all_interval(&series));
    let mut i = 1;
    while i < n {
        if counters[i] < i {
            let j = if i % 2 == 0 { 0 } else { counters[i] };
            series.swap(j, i);
            count += u64::from(is_all_interval(&series));
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
    count
}

#[test]
fn brute_force_knows_all_interval_series() {
    assert!(is_all_interval(&[0, 3, 1, 2]));
    assert!(!is_all_interval(&[0, 1, 2, 3]), "intervals repeat");
    assert!(!is_all_interval(&[0, 3, 1, 1]), "values repeat");
    // 0 1 / 1 0; 0 2 1 and its three images; n = 4 has 0 3 1 2, 1 2 0 3 and images.
    assert_eq!(all_interval_brute_force(2), 2);
    assert_eq!(all_interval_brute_force(3), 4);
    assert_eq!(all_interval_brute_force(4), 4);
}

#[test]
fn all_interval_counts_match_brute_force_up_to_8() {
    for n in 1..=8 {
        let expected = all_interval_brute_force(n);
        for strength in STRENGTHS {
            for intervals in [Intervals::Flattened, Intervals::AbsDifference] {
                let (count, stats) = all_interval::count(n, strength, intervals).unwrap();
                assert_eq!(count, expected, "n = {n}, {strength:?}, {intervals:?}");
                assert_eq!(stats.solutions, expected);
            }
        }
    }
}

#[test]
fn all_interval_first_series_is_valid() {
    for n in [1, 2, 5, 9, 12] {
        let series = all_interval::first(n, Strength::Domain, Intervals::AbsDifference)
            .unwrap()
            .expect("series exist for every length");
        let series: Vec<usize> = series.iter().map(|&x| x as usize).collect();
        assert!(is_all_interval(&series), "{series:?}");
    }
    // The search takes the series in order, smallest value first: the first found
    // is the lexicographically smallest, 0 3 1 2 for n = 4 (0 1 ..., 0 2 ... fail).
    assert_eq!(
        all_interval::first(4, Strength::Bounds, Intervals::Flattened).unwrap(),
        Some(vec![0, 3, 1, 2])
    );
}

#[test]
#[ignore = "slow in debug builds; run with --ignored or in release"]
fn all_interval_counts_of_10_and_11() {
    let count = |n| all_interval::count(n, Strength::Domain, Intervals::AbsDifference);
    assert_eq!(count(10).unwrap().0, 296);
    assert_eq!(count(11).unwrap().0, 648);
}

/// Whether `row` (numbers from 1) is a Langford pairing: each `k` of `1..=n` twice,
/// `k` numbers apart.
fn is_langford(row: &[usize]) -> bool {
    let n = row.len() / 2;
    row.len() == 2 * n
        && (1..=n).all(|k| {
            let places: Vec<usize> = (0..row.len()).filter(|&i| row[i] == k).collect();
            places.len() == 2 && places[1] - places[0] == k + 1
        })
}

/// OEIS A014552: Langford pairings of n up to reversal, n = 1, 2, ...
const LANGFORD: [u64; 12] = [0, 0, 1, 1, 0, 0, 26, 150, 0, 0, 17_792, 108_144];

#[test]
fn langford_counts_up_to_8_and_first_pairings() {
    for strength in STRENGTHS {
        for n in 3..=8 {
            let (count, _) = langford::count(n, strength).unwrap();
            assert_eq!(count, LANGFORD[n - 1], "n = {n}, {strength:?}");
        }
    }
    // The only pairing of 3, up to reversal, with the first 1 in the left half.
    assert_eq!(
        langford::first_pairing(3, Strength::Domain).unwrap(),
        Some(vec![3, 1, 2, 1, 3, 2])
    );
    for n in [4, 7, 8, 12, 15] {
        let row = langford::first_pairing(n, Strength::Domain)
            .unwrap()
            .expect("n % 4 is 0 or 3");
        assert!(is_langford(&row), "{row:?}");
    }
    assert_eq!(langford::first_pairing(5, Strength::Domain).unwrap(), None);
}

#[test]
fn langford_of_1_is_an_empty_domain_and_of_2_has_no_pairing() {
    assert!(matches!(
        langford::langford(1, Strength::Domain),
        Err(alldiff::ModelError::EmptyDomain { .. })
    ));
    assert_eq!(langford::count(2, Strength::Domain).unwrap().0, 0);
}

#[test]
#[ignore = "slow in debug builds; run with --ignored or in release"]
fn langford_count_of_11() {
    assert_eq!(
        langford::count(11, Strength::Domain).unwrap().0,
        LANGFORD[10]
    );
}
