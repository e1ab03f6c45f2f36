//! Rates every puzzle of a file and prints how many fall in each grade, with the
//! time taken; then tries generating one puzzle of each grade.
//!
//! `cargo bench --bench sudoku_rate -- PATH`

use std::collections::BTreeMap;
use std::time::Instant;

use alldiff::sudoku::{Difficulty, GenerateOptions, Grid, generate, rate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .skip(1)
        .find(|arg| arg != "--bench")
        .ok_or("usage: sudoku_rate PATH")?;
    let text = std::fs::read_to_string(&path)?;
    let start = Instant::now();
    let mut grades: BTreeMap<String, usize> = BTreeMap::new();
    let (mut nodes, mut diabolical) = (0u64, 0u64);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let grid = Grid::parse(line)?;
        let name = match rate(&grid) {
            Ok(rating) => {
                if rating.difficulty == Difficulty::Diabolical {
                    nodes += rating.nodes;
                    diabolical += 1;
                }
                rating.difficulty.to_string()
            }
            Err(error) => error.to_string(),
        };
        *grades.entry(name).or_default() += 1;
    }
    println!(
        "{path}: {grades:?} in {:.3} s",
        start.elapsed().as_secs_f64()
    );
    if diabolical > 0 {
        println!(
            "mean nodes of diabolical: {:.1}",
            nodes as f64 / diabolical as f64
        );
    }
    for difficulty in Difficulty::ALL {
        let start = Instant::now();
        let result = generate(&GenerateOptions {
            difficulty: Some(difficulty),
            minimal: true,
            attempts: 200,
            seed: 1,
            ..Default::default()
        });
        println!(
            "generate minimal {difficulty}: {:?} in {:.3} s",
            result.map(|g| (g.puzzle.clue_count(), g.attempts)),
            start.elapsed().as_secs_f64()
        );
    }
    for box_size in [4, 5] {
        let start = Instant::now();
        let result = generate(&GenerateOptions {
            box_size,
            seed: 1,
            ..Default::default()
        });
        println!(
            "generate box {box_size}, default hints: {:?} in {:.3} s",
            result.map(|g| (g.puzzle.clue_count(), g.attempts)),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
