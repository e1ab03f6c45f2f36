//! Peak memory of a wide sum (issue 14): `N` variables over `0..=10_000_000`, neighbours
//! different, their sum `==` (or `<=`) `S`, solved once, first variable first, smallest
//! value first. Each decision fixes one variable, and the sum then lowers the maximum of
//! every unfixed one: `N`² / 2 bound changes over the `N` levels of the search, which
//! would stay on the trail until the solution, one entry each, were they not saved as
//! runs (`docs/architecture.md`). Measure with `/usr/bin/time -v`.
//!
//! `cargo bench --bench wide_sum -- N S [eq|le]`

use alldiff::{Model, Outcome, Relation, SearchConfig, Solver, VariableOrder};

const USAGE: &str = "usage: wide_sum N S [eq|le]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `cargo bench` appends `--bench`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let (n, sum, relation) = match args.as_slice() {
        [n, s] => (n, s, "eq"),
        [n, s, r] => (n, s, r.as_str()),
        _ => return Err(USAGE.into()),
    };
    let n: usize = n.parse().map_err(|_| USAGE)?;
    let sum: i32 = sum.parse().map_err(|_| USAGE)?;
    let relation = match relation {
        "eq" => Relation::Equal,
        "le" => Relation::LessEq,
        _ => return Err(USAGE.into()),
    };
    let mut model = Model::new();
    let x = model.int_vars(n, 0, 10_000_000)?;
    for pair in x.windows(2) {
        model.not_equal(pair[0], pair[1])?;
    }
    model.linear(x.iter().map(|&v| (1, v)), relation, sum)?;
    let config = SearchConfig::new().variable_order(VariableOrder::InputOrder);
    let mut solver = Solver::with_config(model, config);
    let Outcome::Solved(s) = solver.solve() else {
        return Err("no solution".into());
    };
    let total: i64 = x.iter().map(|&v| i64::from(s[v])).sum();
    let stats = solver.statistics();
    println!(
        "sum={total} nodes={} failures={}",
        stats.nodes, stats.failures
    );
    Ok(())
}
