//! The 0/1 knapsack: choose items, each with a weight and a value, to carry the most
//! value within a weight capacity (a maximisation).
//!
//! One 0/1 variable per item says whether it is taken; `linear` keeps the weight
//! within the capacity and defines the total value as a variable of its own, which
//! branch and bound ([`Solver::maximize`]) raises solution after solution. The search
//! branches on the items only, taking each before leaving it ([`Phase`]).
//!
//! ```text
//! cargo run --release --example knapsack      # the built-in items: value 686
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, OptimizeOutcome, Phase, Relation, Solver, ValueOrder, VarId, VariableOrder,
};

/// An item: its weight and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its weight.
    pub weight: i32,
    /// Its value.
    pub value: i32,
}

/// The example's items (weights and values of a classic textbook instance).
pub const ITEMS: [Item; 12] = [
    Item {
        weight: 23,
        value: 92,
    },
    Item {
        weight: 31,
        value: 57,
    },
    Item {
        weight: 29,
        value: 49,
    },
    Item {
        weight: 44,
        value: 68,
    },
    Item {
        weight: 53,
        value: 60,
    },
    Item {
        weight: 38,
        value: 43,
    },
    Item {
        weight: 63,
        value: 67,
    },
    Item {
        weight: 85,
        value: 84,
    },
    Item {
        weight: 89,
        value: 87,
    },
    Item {
        weight: 82,
        value: 72,
    },
    Item {
        weight: 12,
        value: 250,
    },
    Item {
        weight: 70,
        value: 30,
    },
];

/// The example's capacity.
pub const CAPACITY: i32 = 300;

/// The knapsack model and its variables.
pub struct Knapsack {
    /// The model.
    pub model: Model,
    /// For each item, 1 if taken, else 0.
    pub taken: Vec<VarId>,
    /// The total value of the items taken.
    pub value: VarId,
}

/// Builds the model for `items` and `capacity`. Weights and values must not be
/// negative, and the values must add up to at most `i32::MAX`.
pub fn knapsack(items: &[Item], capacity: i32) -> Result<Knapsack, ModelError> {
    let mut model = Model::new();
    let taken = model.int_vars(items.len(), 0, 1)?;
    let most = items.iter().map(|i| i64::from(i.value)).sum::<i64>();
    let value = model.int_var(0, i32::try_from(most).unwrap_or(i32::MAX))?;
    let weights = items.iter().zip(&taken).map(|(i, &x)| (i.weight, x));
    model.linear(weights, Relation::LessEq, capacity)?;
    let values = items.iter().zip(&taken).map(|(i, &x)| (i.value, x));
    model.linear(values.chain([(-1, value)]), Relation::Equal, 0)?;
    Ok(Knapsack {
        model,
        taken,
        value,
    })
}

/// The best total value and which items give it, calling `on_better` with each better
/// total as it is found; `None` if no choice fits (only with a negative capacity).
pub fn solve(
    items: &[Item],
    capacity: i32,
    mut on_better: impl FnMut(i64),
) -> Result<Option<(i64, Vec<bool>)>, ModelError> {
    let Knapsack {
        model,
        taken,
        value,
    } = knapsack(items, capacity)?;
    let mut solver = Solver::new(model);
    solver.set_phases([Phase::new(taken.iter().copied())
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Descending)])?;
    let mut optimization = solver.maximize(value)?;
    for improvement in optimization.by_ref().flatten() {
        on_better(improvement.objective);
    }
    Ok(match optimization.finish() {
        OptimizeOutcome::Optimal(best) => {
            let chosen = taken.iter().map(|&x| best.solution[x] == 1).collect();
            Some((best.objective, chosen))
        }
        // No limit is set: the search ends with the optimum or with none.
        OptimizeOutcome::Unsatisfiable | OptimizeOutcome::Stopped { .. } => None,
    })
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: knapsack   (solves the built-in items)");
        return ExitCode::from(2);
    }
    match solve(&ITEMS, CAPACITY, |total| println!("value {total}")) {
        Ok(Some((total, chosen))) => {
            let items: Vec<String> = (chosen.iter().enumerate())
                .filter(|&(_, &c)| c)
                .map(|(i, _)| i.to_string())
                .collect();
            let weight: i32 = (ITEMS.iter().zip(&chosen))
                .filter(|&(_, &c)| c)
                .map(|(i, _)| i.weight)
                .sum();
            println!(
                "optimal: value {total}, weight {weight} of {CAPACITY}, items {}",
                items.join(" ")
            );
            ExitCode::SUCCESS
        }
        Ok(None) => {
            println!("nothing fits");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("knapsack: {e}");
            ExitCode::FAILURE
        }
    }
}
