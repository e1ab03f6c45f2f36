//! SEND + MORE = MONEY: give each letter a different digit so that the sum is right.
//!
//! Eight letters, eight variables over `0..=9`, all different; the leading letters `S` and
//! `M` are not 0. The sum is one linear equation: each letter's place values are added up
//! (`E` is worth 100 in SEND, 1 in MORE and -10 on the other side, in MONEY), giving
//! `1000·S + 91·E - 90·N + D - 9000·M - 900·O + 10·R - Y = 0`.
//!
//! ```text
//! cargo run --release --example send_more_money
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;

use alldiff::{Model, ModelError, Relation, Solver, StopReason, VarId};

/// The puzzle's words: the two addends, then the sum.
pub const WORDS: [&str; 3] = ["SEND", "MORE", "MONEY"];

/// The model, and each letter's variable from the right of each word.
pub struct Puzzle {
    /// The model.
    pub model: Model,
    /// `(letter, variable)`, from the right of each word.
    pub letters: Vec<(char, VarId)>,
}

/// Builds the model for `addends[0] + addends[1] + ... = sum`. Words are limited to 9
/// letters, so that place values fit in `i32`.
pub fn puzzle(addends: &[&str], sum: &str) -> Result<Puzzle, ModelError> {
    let words: Vec<(&str, i32)> = addends.iter().map(|&w| (w, 1)).chain([(sum, -1)]).collect();
    if let Some((long, _)) = words.iter().find(|(w, _)| w.chars().count() > 9) {
        return Err(ModelError::InvalidConstraint {
            constraint: "send_more_money",
            reason: format!("{long} has more than 9 letters"),
        });
    }
    let leading: Vec<char> = words.iter().filter_map(|(w, _)| w.chars().next()).collect();
    let mut model = Model::new();
    let mut letters: Vec<(char, VarId)> = Vec::new();
    // Each letter's coefficient: its place values, positive in addends, negative in the sum.
    let mut coefficients: BTreeMap<VarId, i64> = BTreeMap::new();
    for (word, sign) in words {
        let mut place = 1i64;
        for c in word.chars().rev() {
            let var = match letters.iter().find(|(l, _)| *l == c) {
                Some(&(_, var)) => var,
                None => {
                    // A word's first letter may not be 0.
                    let var = model.int_var(i32::from(leading.contains(&c)), 9)?;
                    model.set_name(var, c.to_string())?;
                    letters.push((c, var));
                    var
                }
            };
            *coefficients.entry(var).or_default() += i64::from(sign) * place;
            place *= 10;
        }
    }
    model.all_different(letters.iter().map(|&(_, v)| v))?;
    let mut terms = Vec::new();
    for (var, a) in coefficients {
        let a = i32::try_from(a).map_err(|_| ModelError::InvalidConstraint {
            constraint: "send_more_money",
            reason: format!("letter {} is worth {a}, too much for i32", model.name(var)),
        })?;
        terms.push((a, var));
    }
    model.linear(terms, Relation::Equal, 0)?;
    Ok(Puzzle { model, letters })
}

/// Every solution, as the three numbers; an error if the model is refused or the
/// search stops before the end (no limit is set here, so it runs to the end).
pub fn solutions() -> Result<Vec<[i64; 3]>, Box<dyn std::error::Error>> {
    let Puzzle { model, letters } = puzzle(&WORDS[..2], WORDS[2])?;
    let mut solver = Solver::new(model);
    let number = |word: &str, digit: &dyn Fn(char) -> i32| {
        word.chars().fold(0i64, |n, c| n * 10 + i64::from(digit(c)))
    };
    let found: Result<_, StopReason> = (solver.solutions())
        .map(|s| {
            let s = s?;
            let digit = |c: char| {
                letters
                    .iter()
                    .find(|(l, _)| *l == c)
                    .map_or(0, |&(_, v)| s[v])
            };
            Ok([
                number(WORDS[0], &digit),
                number(WORDS[1], &digit),
                number(WORDS[2], &digit),
            ])
        })
        .collect();
    Ok(found?)
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: send_more_money");
        return ExitCode::from(2);
    }
    match solutions() {
        Ok(found) => {
            for [a, b, c] in &found {
                println!("  {}   {a:>6}", WORDS[0]);
                println!("+ {}   {b:>6}", WORDS[1]);
                println!("= {}  {c:>6}", WORDS[2]);
            }
            println!(
                "{} solution{}",
                found.len(),
                if found.len() == 1 { " (unique)" } else { "s" }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("send_more_money: {e}");
            ExitCode::FAILURE
        }
    }
}
