//! The readable explanation: the placements in solving order, each by the simplest
//! technique, and only the eliminations that a placement needs.
//!
//! The puzzle is solved on a [`Board`] by [`Board::next`], simplest technique first,
//! as [`rate`](fn@crate::sudoku::rate) does, with a guess of the solution's digit where
//! every technique is stuck. Each deduction records its premises: the candidates its
//! pattern needs gone (the other candidates of a naked single's cell, the digit's
//! other places in a hidden single's unit, ...) that no placed digit in the same
//! row, column or box accounts for, each the removal of an earlier deduction. A
//! removal is needed when a placement, or a needed removal, rests on it. Every
//! placement is listed, in solving order; an elimination with a needed removal is
//! listed with those removals only, just before the first placement that rests on
//! it, or earlier when a step listed before that placement changes the candidates its
//! pattern names (it would read false there), and never after an elimination that
//! rests on it. Listed later than found, a step may have premises that a digit
//! placed in between accounts for: a last pass drops the removals that no listed step
//! needs any more, and the eliminations left without one.
//!
//! Cost: the solving loop's (see [`Board::next`]), and O(s²) region checks for s
//! steps to place the eliminations.

use crate::sudoku::techniques::{Board, Contradiction, Deduction, bit, digits};
use crate::sudoku::{Cell, Difficulty, Elimination, ExplanationStep, Grid, Placement, Technique};

/// What one step found.
enum Found {
    /// A technique's deduction.
    Deduction(Deduction),
    /// The solution's digit in the open cell with the fewest candidates (these).
    Guess {
        cell: usize,
        digit: u8,
        candidates: u32,
    },
}

/// One step taken, with what it rests on and what it removed.
struct Taken {
    found: Found,
    /// The removals (indices into [`Log::removals`]) its pattern needs.
    premises: Vec<usize>,
    /// The removals it made.
    removals: std::ops::Range<usize>,
}

impl Taken {
    /// The cell and digit it places, for a single or a guess.
    fn placement(&self) -> Option<(usize, u8)> {
        match &self.found {
            Found::Deduction(deduction) => deduction.placement(),
            Found::Guess { cell, digit, .. } => Some((*cell, *digit)),
        }
    }

    fn places(&self) -> bool {
        self.placement().is_some()
    }
}

/// The steps taken and the removals they made.
struct Log {
    taken: Vec<Taken>,
    /// The cell, digit and step of every removal, in order.
    removals: Vec<(usize, u8, usize)>,
    /// The removal of each cell's digit (at `cell * side + digit - 1`), if a step
    /// removed it.
    removal_of: Vec<Option<usize>>,
}

/// The readable steps of a puzzle whose unique solution is `solution`.
///
/// # Errors
///
/// [`Contradiction`] if the puzzle is not solved by `solution` (never for a puzzle and
/// its unique solution: every technique is sound).
pub(super) fn readable_steps(
    puzzle: &Grid,
    solution: &Grid,
) -> Result<Vec<ExplanationStep>, Contradiction> {
    let mut board = Board::new(puzzle)?;
    let side = board.side();
    let mut log = Log {
        taken: Vec::new(),
        removals: Vec::new(),
        removal_of: vec![None; side * side * side],
    };
    while !board.is_solved() {
        let found = match board.next(Difficulty::Fiendish)? {
            Some(deduction) => Found::Deduction(deduction),
            None => guess(&board, solution).ok_or(Contradiction)?,
        };
        let premises = premises(&board, &found, &log.removal_of);
        let first = log.removals.len();
        let step = log.taken.len();
        match &found {
            Found::Deduction(deduction) => {
                deduction.for_each_removal(|cell, digit| {
                    log.removal_of[cell * side + usize::from(digit) - 1] = Some(log.removals.len());
                    log.removals.push((cell, digit, step));
                });
                board.apply(deduction)?;
            }
            Found::Guess { cell, digit, .. } => board.place(*cell, *digit)?,
        }
        log.taken.push(Taken {
            found,
            premises,
            removals: first..log.removals.len(),
        });
    }
    Ok(listed(&board, &log))
}

/// The guess where every technique is stuck: the first open cell with the fewest
/// candidates, and its digit in the solution.
fn guess(board: &Board, solution: &Grid) -> Option<Found> {
    let cell = (0..solution.cells().len())
        .filter(|&cell| board.placed(cell) == 0)
        .min_by_key(|&cell| board.candidates(cell).count_ones())?;
    Some(Found::Guess {
        cell,
        digit: *solution.cells().get(cell)?,
        candidates: board.candidates(cell),
    })
}

/// The removals a step's pattern rests on: each candidate it needs gone that no
/// digit placed in the cell's row, column or box accounts for.
fn premises(board: &Board, found: &Found, removal_of: &[Option<usize>]) -> Vec<usize> {
    let side = board.side();
    let all = board.all_digits();
    let mut premises = Vec::new();
    let mut gone = |cell: usize, mask: u32| {
        if board.placed(cell) != 0 {
            return;
        }
        for digit in digits(mask & !board.candidates(cell)) {
            if !board.sees(cell, digit) {
                let removal = removal_of[cell * side + usize::from(digit) - 1];
                invariant!(removal.is_some(), "a candidate gone without a reason");
                premises.extend(removal);
            }
        }
    };
    let others = |unit: usize, except: &[usize]| -> Vec<usize> {
        board
            .cells_of(unit)
            .iter()
            .copied()
            .filter(|cell| !except.contains(cell))
            .collect()
    };
    match found {
        Found::Deduction(Deduction::NakedSingle { cell, .. }) | Found::Guess { cell, .. } => {
            gone(*cell, all);
        }
        Found::Deduction(Deduction::HiddenSingle { cell, digit, unit }) => {
            for other in others(*unit, &[*cell]) {
                gone(other, bit(*digit));
            }
        }
        Found::Deduction(Deduction::LockedCandidates {
            digit,
            confining,
            cells,
            ..
        }) => {
            for other in others(*confining, cells) {
                gone(other, bit(*digit));
            }
        }
        Found::Deduction(Deduction::Subset {
            hidden: false,
            cells,
            digits,
            ..
        }) => {
            for &cell in cells {
                gone(cell, all & !digits);
            }
        }
        Found::Deduction(Deduction::Subset {
            hidden: true,
            unit,
            cells,
            digits,
            ..
        }) => {
            for other in others(*unit, cells) {
                gone(other, *digits);
            }
        }
    }
    premises.sort_unstable();
    premises.dedup();
    premises
}

/// The steps to show, each elimination with its needed removals only: every
/// placement in solving order, and every elimination with a needed removal as late as
/// it stays true, just before the first placement that rests on it unless a step
/// shown before that one would change its pattern.
fn listed(board: &Board, log: &Log) -> Vec<ExplanationStep> {
    let steps = log.taken.len();
    let mut needed = vec![false; log.removals.len()];
    let mut shown = vec![false; steps];
    for (index, taken) in log.taken.iter().enumerate().rev() {
        if taken.places() || taken.removals.clone().any(|r| needed[r]) {
            shown[index] = true;
            for &removal in &taken.premises {
                needed[removal] = true;
            }
        }
    }
    // The placement before which each step is shown (a placement: itself).
    let mut before: Vec<usize> = (0..steps).collect();
    for index in (0..steps).rev() {
        if !shown[index] || log.taken[index].places() {
            continue;
        }
        let (region, digits) = region(log, index, &needed);
        let mut latest = usize::MAX;
        for later in index + 1..steps {
            if later >= latest {
                break;
            }
            let taken = &log.taken[later];
            let rests = taken.premises.iter().any(|&r| log.removals[r].2 == index);
            if shown[later] && (rests || changes(board, log, later, &region, digits, &needed)) {
                latest = latest.min(before[later]);
            }
        }
        before[index] = latest;
    }
    let mut order: Vec<usize> = (0..steps).filter(|&i| shown[i]).collect();
    order.sort_by_key(|&i| (before[i], i));
    // Moved later, a step may find some of its premises accounted for by a digit
    // placed in between: the removals no step needs any more go.
    let needed = still_needed(board, log, &mut order);
    order
        .into_iter()
        .map(|index| step_of(board, log, index, &needed))
        .collect()
}

/// The removals still needed with the steps listed in `order`, whose eliminations
/// without one are dropped: a premise no longer counts once a digit placed before the
/// step, in that order, accounts for it.
fn still_needed(board: &Board, log: &Log, order: &mut Vec<usize>) -> Vec<bool> {
    let side = board.side();
    let mut unit_placed = vec![0u32; 3 * side];
    let mut cell_placed = vec![false; side * side];
    let mut live: Vec<Vec<usize>> = vec![Vec::new(); log.taken.len()];
    for &index in order.iter() {
        let taken = &log.taken[index];
        live[index] = (taken.premises.iter().copied())
            .filter(|&r| {
                let (cell, digit, _) = log.removals[r];
                let units = board.units_of(cell);
                !cell_placed[cell] && units.iter().all(|&u| unit_placed[u] & bit(digit) == 0)
            })
            .collect();
        if let Some((cell, digit)) = taken.placement() {
            cell_placed[cell] = true;
            for unit in board.units_of(cell) {
                unit_placed[unit] |= bit(digit);
            }
        }
    }
    let mut needed = vec![false; log.removals.len()];
    let mut kept = vec![false; log.taken.len()];
    for &index in order.iter().rev() {
        let taken = &log.taken[index];
        if taken.places() || taken.removals.clone().any(|r| needed[r]) {
            kept[index] = true;
            for &removal in &live[index] {
                needed[removal] = true;
            }
        }
    }
    order.retain(|&index| kept[index]);
    needed
}

/// The cells an elimination's display names (its pattern's and those it removes
/// from) and the digits it names there.
fn region(log: &Log, index: usize, needed: &[bool]) -> (Vec<usize>, u32) {
    let taken = &log.taken[index];
    let (mut cells, mut digits) = match &taken.found {
        Found::Deduction(Deduction::LockedCandidates { digit, cells, .. }) => {
            (cells.clone(), bit(*digit))
        }
        Found::Deduction(Deduction::Subset { cells, digits, .. }) => (cells.clone(), *digits),
        Found::Deduction(_) | Found::Guess { .. } => (Vec::new(), 0),
    };
    for removal in taken.removals.clone().filter(|&r| needed[r]) {
        let (cell, digit, _) = log.removals[removal];
        cells.push(cell);
        digits |= bit(digit);
    }
    (cells, digits)
}

/// Whether a shown step changes the candidates `digits` of a cell of `region`, or
/// places one of its cells.
fn changes(
    board: &Board,
    log: &Log,
    index: usize,
    region: &[usize],
    digits: u32,
    needed: &[bool],
) -> bool {
    let taken = &log.taken[index];
    if let Some((cell, digit)) = taken.placement() {
        let peers = |other: usize| {
            let units = board.units_of(cell);
            board.units_of(other).iter().any(|u| units.contains(u))
        };
        return region
            .iter()
            .any(|&r| r == cell || (digits & bit(digit) != 0 && peers(r)));
    }
    taken.removals.clone().filter(|&r| needed[r]).any(|r| {
        let (cell, digit, _) = log.removals[r];
        digits & bit(digit) != 0 && region.contains(&cell)
    })
}

/// The explanation step of a step taken, with its needed removals.
fn step_of(board: &Board, log: &Log, index: usize, needed: &[bool]) -> ExplanationStep {
    let side = board.side();
    let cell_at = |cell: usize| Cell::at_index(cell, side);
    let digit_list = |mask: u32| digits(mask).collect::<Vec<u8>>();
    let taken = &log.taken[index];
    let mut removed: Vec<Elimination> = Vec::new();
    for removal in taken.removals.clone().filter(|&r| needed[r]) {
        let (cell, digit, _) = log.removals[removal];
        let cell = cell_at(cell);
        match removed.iter_mut().find(|e| e.cell == cell) {
            Some(elimination) => elimination.digits.push(digit),
            None => removed.push(Elimination {
                cell,
                digits: vec![digit],
            }),
        }
    }
    let placement = |cell: usize, digit: u8| {
        Some(Placement {
            cell: cell_at(cell),
            digit,
        })
    };
    let mut step = match &taken.found {
        Found::Guess {
            cell,
            digit,
            candidates,
        } => ExplanationStep {
            digits: digit_list(*candidates),
            placed: placement(*cell, *digit),
            ..ExplanationStep::new(Technique::Guess, Vec::new())
        },
        Found::Deduction(Deduction::NakedSingle { cell, digit }) => ExplanationStep {
            placed: placement(*cell, *digit),
            ..ExplanationStep::new(Technique::NakedSingle, Vec::new())
        },
        Found::Deduction(Deduction::HiddenSingle { cell, digit, unit }) => ExplanationStep {
            placed: placement(*cell, *digit),
            ..ExplanationStep::new(Technique::HiddenSingle, vec![board.unit(*unit)])
        },
        Found::Deduction(Deduction::LockedCandidates {
            digit,
            confining,
            cleared,
            cells,
            ..
        }) => ExplanationStep {
            cells: cells.iter().map(|&c| cell_at(c)).collect(),
            digits: vec![*digit],
            ..ExplanationStep::new(
                Technique::LockedCandidates,
                vec![board.unit(*confining), board.unit(*cleared)],
            )
        },
        Found::Deduction(Deduction::Subset {
            hidden,
            unit,
            cells,
            digits,
            ..
        }) => {
            let technique = if *hidden {
                Technique::HiddenSubset
            } else {
                Technique::NakedSubset
            };
            ExplanationStep {
                cells: cells.iter().map(|&c| cell_at(c)).collect(),
                digits: digit_list(*digits),
                ..ExplanationStep::new(technique, vec![board.unit(*unit)])
            }
        }
    };
    step.removed = removed;
    step
}
