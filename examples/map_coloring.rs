//! Map colouring: colour Australia's states and territories so that neighbours differ.
//!
//! One variable per region over the colours `0..k`, and `!=` between every pair of
//! neighbours. Three colours suffice; with two there is no colouring, because Western
//! Australia, the Northern Territory and South Australia all touch each other.
//!
//! ```text
//! cargo run --release --example map_coloring        # 3 colours
//! cargo run --release --example map_coloring -- 2   # proven impossible
//! ```

use std::process::ExitCode;

use alldiff::{Model, ModelError, Outcome, Solver};

/// The regions.
pub const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];

/// Pairs of neighbouring regions, as indices into [`REGIONS`]. Tasmania has none.
pub const BORDERS: [(usize, usize); 9] = [
    (0, 1), // WA - NT
    (0, 2), // WA - SA
    (1, 2), // NT - SA
    (1, 3), // NT - Q
    (2, 3), // SA - Q
    (2, 4), // SA - NSW
    (2, 5), // SA - V
    (3, 4), // Q - NSW
    (4, 5), // NSW - V
];

/// Colour names, for printing.
pub const COLOURS: [&str; 4] = ["red", "green", "blue", "yellow"];

/// A colour (index into `0..colours`) for each region, or `None` if there is no colouring.
pub fn colour(colours: usize) -> Result<Option<Vec<usize>>, ModelError> {
    let mut model = Model::new();
    let top = i32::try_from(colours).unwrap_or(i32::MAX) - 1;
    let mut regions = Vec::new();
    for name in REGIONS {
        let var = model.int_var(0, top)?;
        model.set_name(var, name)?;
        regions.push(var);
    }
    for (a, b) in BORDERS {
        model.not_equal(regions[a], regions[b])?;
    }
    Ok(match Solver::new(model).solve() {
        Outcome::Solved(s) => Some(regions.iter().map(|&r| s[r] as usize).collect()),
        _ => None,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let colours = match args.as_slice() {
        [] => 3,
        [k] => match k.parse::<usize>() {
            Ok(k) if (1..=COLOURS.len()).contains(&k) => k,
            _ => return usage(),
        },
        _ => return usage(),
    };
    match colour(colours) {
        Ok(Some(colouring)) => {
            println!("Australia in {colours} colours:");
            for (region, &c) in REGIONS.iter().zip(&colouring) {
                println!("  {region:<4} {}", COLOURS[c]);
            }
            ExitCode::SUCCESS
        }
        Ok(None) => {
            println!("Australia cannot be coloured with {colours} colours (proven by search)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("map_coloring: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: map_coloring [COLOURS]   (1 to {}, default 3)",
        COLOURS.len()
    );
    ExitCode::from(2)
}
