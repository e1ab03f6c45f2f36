//! Models and search settings shared by the integration tests.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of this module"
)]

pub mod constants;
pub mod edges;
pub mod postings;
pub mod refusal;
pub mod specs;

use std::collections::BTreeSet;

use alldiff::{Model, SearchConfig, Strength, ValueOrder, VarId, VariableOrder};

/// N-Queens as three all-different constraints: rows, and both diagonals as views
/// `q[i] + i` and `q[i] - i`. The variables are named `q0`, `q1`, ...
pub fn queens(n: usize, strength: Strength) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let q = model.int_vars(n, 1, n as i32).unwrap();
    for (i, &x) in q.iter().enumerate() {
        model.set_name(x, format!("q{i}")).unwrap();
    }
    for sign in [0, 1, -1] {
        model
            .all_different_with(
                q.iter().enumerate().map(|(i, &x)| x + sign * i as i32),
                strength,
            )
            .unwrap();
    }
    (model, q)
}

/// Every variable order with every value order (random with a fixed seed).
pub fn all_configs() -> Vec<SearchConfig> {
    let mut configs = Vec::new();
    for variable_order in [
        VariableOrder::InputOrder,
        VariableOrder::SmallestDomain,
        VariableOrder::DomOverWeightedDegree,
        VariableOrder::SmallestDomainWeightedDegree,
    ] {
        for value_order in [
            ValueOrder::Ascending,
            ValueOrder::Descending,
            ValueOrder::Random(7),
        ] {
            configs.push(
                SearchConfig::new()
                    .variable_order(variable_order)
                    .value_order(value_order),
            );
        }
    }
    configs
}

/// How many store cells the domains take, as the store lays them out (`src/store/`):
/// one word for a domain spanning at most 64 values; two cells of bookkeeping and
/// one word per 64 values of the span up to 4096 values; beyond, two cells for a
/// nearly contiguous interval, or two and one word per 64 values (two at least) for
/// a sparse table. An interval's words for its chunks with holes are not counted:
/// the sum is a lower bound. The store copies all its cells at choice points up to
/// [`COPY_CELLS`] cells and trails changes above that; propagator state words come
/// on top.
pub fn domain_cells(domains: &[Vec<i32>]) -> usize {
    domains
        .iter()
        .map(|d| {
            let (min, max) = (d.iter().min().unwrap(), d.iter().max().unwrap());
            let span = (i64::from(*max) - i64::from(*min) + 1) as u64;
            let len = d.len() as u64;
            if span <= 64 {
                1
            } else if span <= 4096 {
                2 + span.div_ceil(64) as usize
            } else if span - len <= len / 8 {
                2
            } else {
                2 + len.div_ceil(64).max(2) as usize
            }
        })
        .sum()
}

/// Whether some domain spans more than 64 values: more than one word.
pub fn has_multi_word_domain(domains: &[Vec<i32>]) -> bool {
    domains.iter().any(|d| {
        let (min, max) = (d.iter().min().unwrap(), d.iter().max().unwrap());
        i64::from(*max) - i64::from(*min) >= 64
    })
}

/// The store copies its cells at choice points up to this many cells, and trails
/// above: the library's own constant, asked rather than copied, so that the suites
/// that must reach past it follow when it moves.
pub const COPY_CELLS: usize = alldiff::COPY_CELLS;

/// How many fixed variables pad a model so that it takes more store cells than
/// [`COPY_CELLS`] (a one-word domain is one cell), and the store trails.
pub const TRAILING_PADDING: usize = COPY_CELLS + 4;

/// Every assignment of `domains` that `holds` accepts: the brute-force oracle the
/// property tests compare the solver with.
pub fn brute_force(domains: &[Vec<i32>], holds: &dyn Fn(&[i32]) -> bool) -> BTreeSet<Vec<i32>> {
    fn walk(
        domains: &[Vec<i32>],
        holds: &dyn Fn(&[i32]) -> bool,
        values: &mut Vec<i32>,
        found: &mut BTreeSet<Vec<i32>>,
    ) {
        if values.len() == domains.len() {
            if holds(values) {
                found.insert(values.clone());
            }
            return;
        }
        for &v in &domains[values.len()] {
            values.push(v);
            walk(domains, holds, values, found);
            values.pop();
        }
    }
    let mut found = BTreeSet::new();
    walk(domains, holds, &mut Vec::new(), &mut found);
    found
}

/// What every brute-force property suite checks of a model: under each of
/// `configs` the solver, checking its solutions ([`alldiff::Solver::check_solutions`]),
/// reports exactly `expected` (the values of the variables `build` lists, the first
/// ones of the model), each solution once, and stops for no wrong one; and root
/// propagation fails only on a model without solutions and keeps every value some
/// solution uses. `build` makes a fresh model each time.
pub fn check_solutions(
    expected: &BTreeSet<Vec<i32>>,
    configs: &[SearchConfig],
    build: &dyn Fn() -> (Model, Vec<VarId>),
) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::test_runner::TestCaseError;
    use proptest::{prop_assert, prop_assert_eq};
    for config in configs {
        let (model, vars) = build();
        let mut solver = alldiff::Solver::with_config(model, config.clone());
        solver.check_solutions(true);
        let found: Vec<Vec<i32>> = (solver.solutions())
            .map(|s| s.map(|s| vars.iter().map(|&x| s[x]).collect()))
            .collect::<Result<_, _>>()
            .map_err(|reason| TestCaseError::fail(format!("{config:?}: {reason}")))?;
        let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
        prop_assert_eq!(&distinct, expected, "{:?}", config);
    }
    let (model, _) = build();
    match alldiff::Solver::new(model).root_domains() {
        None => prop_assert!(expected.is_empty(), "root failed on a satisfiable model"),
        Some(domains) => {
            for solution in expected {
                for (var, value) in solution.iter().enumerate() {
                    prop_assert!(
                        domains[var].contains(value),
                        "root removed {value} of #{var}"
                    );
                }
            }
        }
    }
    Ok(())
}

/// A fresh solver's first search under an assumption, then one after
/// [`Solver::reset`](alldiff::Solver::reset): both find what `expected` says. The
/// first search propagates the assumed domains first, and the second must keep
/// nothing derived from them (issue 32: a bitmask window chosen for them lost the
/// values the reset brought back). Each variable `build` lists is assumed at its
/// smallest and at its largest value of `domains`, one solver each.
pub fn check_assumed_then_reset(
    expected: &BTreeSet<Vec<i32>>,
    domains: &[Vec<i32>],
    build: &dyn Fn() -> Result<(Model, Vec<VarId>), proptest::test_runner::TestCaseError>,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::prop_assert_eq;
    for (i, domain) in domains.iter().enumerate() {
        for value in [domain[0], domain[domain.len() - 1]] {
            let (model, vars) = build()?;
            let mut solver = alldiff::Solver::new(model);
            solver.assume(vars[i], value).unwrap();
            let assumed = expected.iter().filter(|s| s[i] == value).count() as u64;
            prop_assert_eq!(solver.count(None).solutions, assumed, "#{} = {}", i, value);
            solver.reset();
            prop_assert_eq!(solver.count(None).solutions, expected.len() as u64, "reset");
        }
    }
    Ok(())
}

/// Incremental propagation against propagation from scratch: walks `steps` on one
/// solver (`Some((var, value))` pushes a level fixing the `var`-th variable `build`
/// lists, `None` pops the latest), so that the propagators' trailed state is carried
/// across levels and undone by pops; after each step its root domains must be those
/// of a fresh solver given the same assumptions at once. At the end, its solutions
/// must be `expected`'s with the assumed values, each checked. `build` makes a fresh
/// model each time.
pub fn check_levels(
    expected: &BTreeSet<Vec<i32>>,
    steps: &[Option<(usize, i32)>],
    build: &dyn Fn() -> (Model, Vec<VarId>),
) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::prop_assert_eq;
    let (model, vars) = build();
    let mut solver = alldiff::Solver::new(model);
    solver.check_solutions(true);
    let mut pushed: Vec<(usize, i32)> = Vec::new();
    for step in steps {
        match *step {
            Some((var, value)) => {
                solver.push_level([(vars[var], value)]).unwrap();
                pushed.push((var, value));
            }
            None => {
                solver.pop_level();
                pushed.pop();
            }
        }
        let (model, fresh_vars) = build();
        let mut fresh = alldiff::Solver::new(model);
        for &(var, value) in &pushed {
            fresh.assume(fresh_vars[var], value).unwrap();
        }
        prop_assert_eq!(
            solver.root_domains(),
            fresh.root_domains(),
            "after {:?}",
            pushed
        );
    }
    let expected: BTreeSet<Vec<i32>> = expected
        .iter()
        .filter(|s| pushed.iter().all(|&(var, value)| s[var] == value))
        .cloned()
        .collect();
    let found: Result<BTreeSet<Vec<i32>>, _> = (solver.solutions())
        .map(|solution| solution.map(|s| vars.iter().map(|&v| s.value(v)).collect()))
        .collect();
    prop_assert_eq!(found, Ok(expected));
    Ok(())
}

/// A domain of 1 to `size` values drawn from `values`, sorted.
pub fn domain(
    values: std::ops::RangeInclusive<i32>,
    size: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<i32>> {
    use proptest::prelude::*;
    prop::collection::btree_set(values, 1..=size).prop_map(|s| s.into_iter().collect())
}

/// A model with one variable for each domain, in order, and each spec posted by
/// `post`.
pub fn build_model<S>(
    domains: &[Vec<i32>],
    specs: &[S],
    post: impl Fn(&S, &mut Model, &[VarId]),
) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars = vars(&mut model, domains);
    for spec in specs {
        post(spec, &mut model, &vars);
    }
    (model, vars)
}

/// One variable of `model` for each domain, in order.
pub fn vars(model: &mut Model, domains: &[Vec<i32>]) -> Vec<VarId> {
    domains
        .iter()
        .map(|d| model.var_from_values(d.iter().copied()).unwrap())
        .collect()
}

/// Any of the four relations a linear constraint takes.
pub fn relation() -> impl proptest::strategy::Strategy<Value = alldiff::Relation> {
    use alldiff::Relation;
    use proptest::prelude::{Just, prop_oneof};
    prop_oneof![
        Just(Relation::Equal),
        Just(Relation::NotEqual),
        Just(Relation::LessEq),
        Just(Relation::GreaterEq),
    ]
}

/// Whether `lhs ⋈ rhs` holds, computed wide enough that an oracle's sums of `i32`
/// products cannot overflow.
pub fn relation_holds(relation: alldiff::Relation, lhs: i128, rhs: i128) -> bool {
    use alldiff::Relation;
    match relation {
        Relation::Equal => lhs == rhs,
        Relation::NotEqual => lhs != rhs,
        Relation::LessEq => lhs <= rhs,
        Relation::GreaterEq => lhs >= rhs,
        // `Relation` may grow: an oracle must be written for a new one.
        _ => panic!("no oracle for {relation:?}"),
    }
}
