//! Job-shop scheduling: each job is a sequence of operations, each on its own machine
//! for a fixed time; a machine runs one operation at a time. The instance is Fisher
//! and Thompson's 6x6 `ft06` (1963), whose shortest makespan is 55.
//!
//! Every operation's start is a variable; a job's operations follow each other
//! (`linear` precedences), and each machine's operations do not overlap
//! ([`Model::disjunctive`]). Without an objective, the optimum is proved in two
//! searches: a schedule within 55 exists, and none within 54.
//!
//! ```text
//! cargo run --release --example jobshop
//! ```

use std::process::ExitCode;

use alldiff::{
    Model, ModelError, Outcome, Relation, SearchConfig, Solver, Statistics, VarId, VariableOrder,
};

/// A job-shop instance: for each job, its operations in order, each as
/// `(machine, duration)`.
pub struct Instance {
    /// The instance's name.
    pub name: &'static str,
    /// The number of machines (numbered from 0).
    pub machines: usize,
    /// The jobs' operations, in order.
    pub jobs: Vec<Vec<(usize, i32)>>,
}

/// Fisher and Thompson's 6x6 instance (`ft06`, `mt06` in the OR-Library), optimum 55.
pub fn ft06() -> Instance {
    let jobs = [
        [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
        [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
        [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
        [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
        [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
        [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
    ];
    Instance {
        name: "ft06",
        machines: 6,
        jobs: jobs.iter().map(|job| job.to_vec()).collect(),
    }
}

/// The model of `instance` with every operation done by `makespan`, and the start
/// variables by job and operation.
pub fn jobshop(instance: &Instance, makespan: i32) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let mut model = Model::new();
    let mut starts = Vec::new();
    for (j, job) in instance.jobs.iter().enumerate() {
        let mut row = Vec::new();
        for (k, &(_, duration)) in job.iter().enumerate() {
            let start = model.int_var(0, makespan - duration)?;
            model.set_name(start, format!("j{j}o{k}"))?;
            row.push(start);
        }
        // Each operation starts once the previous one of its job is done.
        for (k, w) in row.windows(2).enumerate() {
            model.linear([(1, w[0]), (-1, w[1])], Relation::LessEq, -job[k].1)?;
        }
        starts.push(row);
    }
    for machine in 0..instance.machines {
        let (mut on, mut durations) = (Vec::new(), Vec::new());
        for (j, job) in instance.jobs.iter().enumerate() {
            for (k, &(m, duration)) in job.iter().enumerate() {
                if m == machine {
                    on.push(starts[j][k]);
                    durations.push(duration);
                }
            }
        }
        model.disjunctive(on, &durations)?;
    }
    Ok((model, starts))
}

/// The start of every operation, by job then operation.
pub type Starts = Vec<Vec<i32>>;

/// A schedule within `makespan` (the start of every operation, by job), or `None`
/// if there is none, with the search's statistics. Branches on the start with the
/// fewest values left, earliest first.
pub fn schedule(
    instance: &Instance,
    makespan: i32,
) -> Result<(Option<Starts>, Statistics), ModelError> {
    let (model, starts) = jobshop(instance, makespan)?;
    let config = SearchConfig::new().variable_order(VariableOrder::SmallestDomain);
    let mut solver = Solver::with_config(model, config);
    let found = match solver.solve() {
        Outcome::Solved(solution) => Some(
            starts
                .iter()
                .map(|row| row.iter().map(|&s| solution[s]).collect())
                .collect(),
        ),
        _ => None,
    };
    Ok((found, solver.statistics().clone()))
}

/// Checks a schedule independently of the solver: operations in job order, no
/// machine running two at once, everything done by `makespan`.
pub fn check(instance: &Instance, starts: &[Vec<i32>], makespan: i32) -> Result<(), String> {
    let mut busy: Vec<Vec<(i32, i32, usize)>> = vec![Vec::new(); instance.machines];
    for (j, (job, row)) in instance.jobs.iter().zip(starts).enumerate() {
        let mut ready = 0;
        for (k, (&(machine, duration), &start)) in job.iter().zip(row).enumerate() {
            if start < ready {
                return Err(format!(
                    "job {j} operation {k} starts at {start}, before {ready}"
                ));
            }
            ready = start + duration;
            if ready > makespan {
                return Err(format!("job {j} ends at {ready}, after {makespan}"));
            }
            busy[machine].push((start, ready, j));
        }
    }
    for (machine, tasks) in busy.iter_mut().enumerate() {
        tasks.sort_unstable();
        for w in tasks.windows(2) {
            if w[0].1 > w[1].0 {
                return Err(format!(
                    "machine {machine} runs jobs {} and {} at once",
                    w[0].2, w[1].2
                ));
            }
        }
    }
    Ok(())
}

/// The schedule as one line per machine: each operation as `job@start..end`.
pub fn render(instance: &Instance, starts: &[Vec<i32>]) -> String {
    let mut lines = vec![Vec::new(); instance.machines];
    for (j, (job, row)) in instance.jobs.iter().zip(starts).enumerate() {
        for (&(machine, duration), &start) in job.iter().zip(row) {
            lines[machine].push((start, format!("j{j}@{start}..{}", start + duration)));
        }
    }
    lines
        .iter_mut()
        .enumerate()
        .map(|(m, ops)| {
            ops.sort();
            let ops: Vec<&str> = ops.iter().map(|(_, s)| s.as_str()).collect();
            format!("machine {m}: {}", ops.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() -> ExitCode {
    let instance = ft06();
    let best = 55;
    let (found, stats) = match schedule(&instance, best) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(starts) = found else {
        eprintln!("no schedule within {best}");
        return ExitCode::FAILURE;
    };
    if let Err(e) = check(&instance, &starts, best) {
        eprintln!("invalid schedule: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "{}: a schedule within {best} (checked), {} nodes, {:?}:",
        instance.name, stats.nodes, stats.solve_time
    );
    println!("{}", render(&instance, &starts));
    match schedule(&instance, best - 1) {
        Ok((None, stats)) => {
            println!(
                "none within {}: {} nodes, {:?}",
                best - 1,
                stats.nodes,
                stats.solve_time
            );
            println!("the optimal makespan is {best}");
            ExitCode::SUCCESS
        }
        Ok((Some(_), _)) => {
            eprintln!("a schedule within {} exists", best - 1);
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
