//! Naked and hidden subsets of one unit, found from a perfect matching.
//!
//! Match the unit's open cells to its missing digits (each cell to one of its
//! candidates, every digit once), and draw an arrow from cell `x` to cell `y` when `x`
//! has the digit matched to `y`. Cells that reach each other form strongly connected
//! components; a candidate that no perfect matching uses is an arrow between two
//! components. A component that no arrow leaves holds as many digits as cells: a naked
//! subset, whose digits leave the cells with arrows into it. A component that no arrow
//! enters holds the only places of its matched digits: a hidden subset, whose cells
//! lose their other candidates. Every removable candidate leads to one of each (the
//! arrow's head reaches a component nothing leaves, its tail is reached from one
//! nothing enters), and the components do not depend on the matching chosen. The
//! smallest such component is the simplest subset; single cells are singles, left to
//! those techniques.
//!
//! Cost per unit: O(m³) bit operations for m open cells (at most 25), and no
//! allocation until a subset is found.

use super::{Board, Contradiction, Deduction};

/// No cell matched to the digit.
const FREE: u8 = u8::MAX;

/// At most this many cells to a unit (25 in a 25x25 grid).
const MAX: usize = 32;

/// The smallest subset of `unit` that removes a candidate, naked first at equal size.
///
/// # Errors
///
/// [`Contradiction`] when the open cells cannot take the missing digits, one each.
pub(super) fn smallest(board: &Board, unit: usize) -> Result<Option<Deduction>, Contradiction> {
    let mut open = [0usize; MAX];
    let mut candidates = [0u32; MAX];
    let mut m = 0;
    for &cell in board.cells_of(unit) {
        if board.placed(cell) == 0 {
            open[m] = cell;
            candidates[m] = board.candidates(cell);
            m += 1;
        }
    }
    let candidates = &candidates[..m];
    // The cell matched to each digit (by bit), and the digit of each cell.
    let mut mate = [FREE; MAX];
    for cell in 0..m {
        let mut visited = 0;
        if !augment(cell, candidates, &mut mate, &mut visited) {
            return Err(Contradiction);
        }
    }
    let mut matched = [0u8; MAX];
    for (digit, &cell) in mate.iter().enumerate() {
        if cell != FREE {
            matched[usize::from(cell)] = digit as u8;
        }
    }
    // Arrows and what each cell reaches, as masks of cells.
    let mut arrows = [0u32; MAX];
    for (cell, &mask) in candidates.iter().enumerate() {
        let mut others = mask & !(1 << matched[cell]);
        while others != 0 {
            let digit = others.trailing_zeros() as usize;
            others &= others - 1;
            arrows[cell] |= 1 << mate[digit];
        }
    }
    let mut reach = arrows;
    loop {
        let mut changed = false;
        for cell in 0..m {
            let mut reached = reach[cell];
            let mut through = reach[cell];
            while through != 0 {
                let next = through.trailing_zeros() as usize;
                through &= through - 1;
                reached |= reach[next];
            }
            if reached != reach[cell] {
                reach[cell] = reached;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // The smallest component, naked or hidden: (size, hidden, cells).
    let mut best: Option<(u32, bool, u32)> = None;
    let mut seen = 0u32;
    for cell in 0..m {
        if seen & (1 << cell) != 0 {
            continue;
        }
        let mut component = 1u32 << cell;
        for other in 0..m {
            if reach[cell] & (1 << other) != 0 && reach[other] & (1 << cell) != 0 {
                component |= 1 << other;
            }
        }
        seen |= component;
        let size = component.count_ones();
        if size < 2 {
            continue;
        }
        let leaves = (0..m).any(|c| component & (1 << c) != 0 && arrows[c] & !component != 0);
        let enters = (0..m).any(|c| component & (1 << c) == 0 && arrows[c] & component != 0);
        let kind = match (leaves, enters) {
            (false, true) => false,
            (true, false) => true,
            _ => continue,
        };
        if best.is_none_or(|(s, h, _)| (size, kind) < (s, h)) {
            best = Some((size, kind, component));
        }
    }
    let Some((_, hidden, component)) = best else {
        return Ok(None);
    };
    let inside = |c: usize| component & (1 << c) != 0;
    let cells = (0..m).filter(|&c| inside(c)).map(|c| open[c]).collect();
    let digits = if hidden {
        (0..m)
            .filter(|&c| inside(c))
            .fold(0, |d, c| d | 1 << matched[c])
    } else {
        (0..m)
            .filter(|&c| inside(c))
            .fold(0, |d, c| d | candidates[c])
    };
    let removed = (0..m)
        .filter(|&c| inside(c) == hidden)
        .map(|c| {
            (
                open[c],
                candidates[c] & if hidden { !digits } else { digits },
            )
        })
        .filter(|&(_, mask)| mask != 0)
        .collect();
    Ok(Some(Deduction::Subset {
        hidden,
        unit,
        cells,
        digits,
        removed,
    }))
}

/// Kuhn's augmenting path from `cell`: matches it, rematching others as needed, to a
/// digit not yet `visited` in this search.
fn augment(cell: usize, candidates: &[u32], mate: &mut [u8; MAX], visited: &mut u32) -> bool {
    let mut options = candidates[cell] & !*visited;
    // A free digit first: most cells match without rematching anyone.
    let mut scan = options;
    while scan != 0 {
        let digit = scan.trailing_zeros() as usize;
        scan &= scan - 1;
        if mate[digit] == FREE {
            mate[digit] = cell as u8;
            return true;
        }
    }
    while options != 0 {
        let digit = options.trailing_zeros() as usize;
        options &= options - 1;
        if *visited & (1 << digit) != 0 {
            continue;
        }
        *visited |= 1 << digit;
        let holder = usize::from(mate[digit]);
        if augment(holder, candidates, mate, visited) {
            mate[digit] = cell as u8;
            return true;
        }
    }
    false
}
