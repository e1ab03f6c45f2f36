//! Random FlatZinc texts over the integer and Boolean builtins and variables that
//! `int_lin_eq` defines as another plus a constant (`flatzinc_cases`), with domains
//! and constants at the edges (`common::edges`) and every search annotation and
//! all-different strength, give exactly the solutions brute force finds, each one
//! checked against the model as it is reported; random and mutated texts are read or
//! refused, never a panic.

#[path = "../../tests/common/mod.rs"]
mod common;
mod flatzinc_cases;

use std::collections::BTreeSet;

use alldiff::Limits;
use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus, UNBOUNDED_MAX};
use flatzinc_cases::builtins::{Case, case};
use flatzinc_cases::offsets::offset_case;
use proptest::prelude::*;

/// Reads `text`, which the generators made valid FlatZinc.
fn parse(text: &str) -> Result<FlatZincModel, TestCaseError> {
    FlatZincModel::parse(text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))
}

/// Every solution, each checked against every constraint before it is reported. A
/// case has at most a few hundred solutions: the node limit turns a search that runs
/// away (one that walks the values of a wide interval one at a time) into a failure
/// that shows the case.
fn checked(seed: u64) -> RunOptions {
    RunOptions {
        all: true,
        seed: Some(seed),
        check_solutions: true,
        limits: Limits::none().with_nodes(100_000),
        ..RunOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_flatzinc_has_the_brute_force_solutions(case in case(), seed in 0..4u64) {
        let text = case.text();
        let problem = match FlatZincModel::parse(&text) {
            Err(e) if case.may_refuse() && e.to_string().contains("32-bit range") => return Ok(()),
            parsed => parsed.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?,
        };
        let vars: Vec<_> = Case::names().iter().map(|n| problem.var(n).unwrap()).collect();
        let mut found = BTreeSet::new();
        let mut count = 0;
        let outcome = flatzinc::run(&problem, &checked(seed), &mut (), |solution, _| {
            count += 1;
            found.insert(vars.iter().map(|&v| solution[v]).collect::<Vec<i32>>());
        });
        let expected = case.brute_force();
        prop_assert_eq!(&found, &expected, "{}", text);
        prop_assert_eq!(count, expected.len(), "a solution reported twice\n{}", text);
        let status = if expected.is_empty() { RunStatus::Unsatisfiable } else { RunStatus::Complete };
        prop_assert_eq!(outcome.status, status, "{}", text);
    }
}

/// Pieces of FlatZinc, to be strung together at random.
const TOKENS: [&str; 40] = [
    "var",
    "array",
    "[",
    "]",
    "1..3",
    "of",
    "int",
    "bool",
    ":",
    "x",
    "y",
    "b",
    ";",
    "=",
    "(",
    ")",
    ",",
    "{",
    "}",
    "::",
    "output_var",
    "output_array([1..2])",
    "constraint",
    "int_le",
    "int_lin_eq",
    "bool_clause",
    "fzn_all_different_int",
    "solve",
    "satisfy",
    "minimize",
    "int_search",
    "first_fail",
    "indomain_min",
    "-7",
    "99999999999999999999",
    "true",
    "\n",
    "%",
    "\"",
    "3.5",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_text_is_read_or_refused_never_a_panic(tokens in prop::collection::vec(0..TOKENS.len(), 0..40)) {
        let text: Vec<&str> = tokens.iter().map(|&i| TOKENS[i]).collect();
        let _ = FlatZincModel::parse(&text.join(" "));
    }

    #[test]
    fn statements_with_a_token_changed_are_read_or_refused(
        case in case(),
        position in any::<prop::sample::Index>(),
        token in 0..TOKENS.len(),
    ) {
        let text = case.text();
        let mut words: Vec<&str> = text.split(' ').collect();
        let at = position.index(words.len());
        words[at] = TOKENS[token];
        if let Ok(problem) = FlatZincModel::parse(&words.join(" ")) {
            let options = checked(0);
            let _ = flatzinc::run(&problem, &options, &mut (), |_, _| {});
        }
    }
}

#[test]
fn the_variable_orders_added_for_minizinc_find_every_solution() {
    use alldiff::{Model, Relation, SearchConfig, Solver, Strength, ValueOrder, VariableOrder};
    let orders = [
        VariableOrder::LargestDomain,
        VariableOrder::SmallestValue,
        VariableOrder::LargestValue,
        VariableOrder::MostConstraints,
        VariableOrder::SmallestDomainMostConstraints,
        VariableOrder::MaxRegret,
    ];
    let values = [
        ValueOrder::Ascending,
        ValueOrder::Descending,
        ValueOrder::Middle,
        ValueOrder::Median,
        ValueOrder::Split,
        ValueOrder::ReverseSplit,
        ValueOrder::Interval,
        ValueOrder::Random(3),
    ];
    for variable_order in orders {
        for value_order in values {
            let config = SearchConfig::new()
                .variable_order(variable_order)
                .value_order(value_order);
            let (model, _) = common::queens(8, Strength::Value);
            let mut solver = Solver::with_config(model, config.clone());
            assert_eq!(solver.count(None).solutions, 92);
            // 130 variables (past 128 store cells) over values far apart, at most 1000
            // in all: all 0, or one of them 1000.
            let mut model = Model::new();
            let xs: Vec<_> = (0..130)
                .map(|_| model.var_from_values([0, 1000, 2000]).unwrap())
                .collect();
            model
                .linear(xs.iter().map(|&x| (1, x)), Relation::LessEq, 1000)
                .unwrap();
            let count = Solver::with_config(model, config.clone())
                .count(None)
                .solutions;
            assert_eq!(count, 1 + 130, "{config:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Variables that `int_lin_eq ... :: defines_var` makes another plus a constant (views
    /// of it, when declared after it) have the brute-force solutions, under any search.
    /// A `var int` that is no view is clamped to `±UNBOUNDED_MAX`, and the model says it
    /// is narrowed: then the solutions lie between those within the clamp and all.
    #[test]
    fn offset_variables_have_the_brute_force_solutions(case in offset_case(), seed in 0..4u64) {
        let text = case.text();
        let problem = parse(&text)?;
        let mut found = BTreeSet::new();
        let mut count = 0;
        let outcome = flatzinc::run(&problem, &checked(seed), &mut (), |solution, _| {
            count += 1;
            found.insert(problem.format_solution(solution));
        });
        let expected = case.expected(None);
        prop_assert_eq!(count, found.len(), "a solution reported twice\n{}", text);
        if problem.is_narrowed() {
            let clamped = case.expected(Some(UNBOUNDED_MAX.into()));
            prop_assert!(found.is_subset(&expected), "{}", text);
            prop_assert!(clamped.is_subset(&found), "{}", text);
        } else {
            prop_assert_eq!(&found, &expected, "{}", text);
        }
        let status = if found.is_empty() { RunStatus::Unsatisfiable } else { RunStatus::Complete };
        prop_assert_eq!(outcome.status, status.of(&problem), "{}", text);
    }
}

/// Found by the builtins' cases: a sum with a right-hand side beyond 32 bits over a
/// domain holding `i32::MIN` was refused ("the sum leaves the 32-bit range"), as the
/// restated sum shifted that variable by `-i32::MIN`; it is decided, or shifted as far
/// as a view may go, and counts as brute force.
#[test]
fn sums_beyond_32_bits_over_i32_min_count_as_brute_force() {
    let (low, high) = (i64::from(i32::MIN), i64::from(i32::MIN) + 3);
    type Holds = fn(i64, i64) -> bool;
    let relations: [(&str, Holds); 3] = [
        ("int_lin_eq", |s, r| s == r),
        ("int_lin_ne", |s, r| s != r),
        ("int_lin_le", |s, r| s <= r),
    ];
    for (relation, holds) in relations {
        for rhs in [2 * low - 1, 2 * low, 2 * low + 3, 2 * low + 6, low - 1] {
            let text = format!(
                "var {low}..{high}: x :: output_var;\nvar {low}..{high}: y :: output_var;\n\
                 constraint {relation}([1, 1], [x, y], {rhs});\nsolve satisfy;\n"
            );
            let problem = FlatZincModel::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let mut count = 0;
            let outcome = flatzinc::run(&problem, &checked(0), &mut (), |_, _| count += 1);
            let expected = (low..=high)
                .flat_map(|x| (low..=high).map(move |y| x + y))
                .filter(|&s| holds(s, rhs))
                .count();
            assert_eq!(count, expected, "{text}");
            let done = [RunStatus::Unsatisfiable, RunStatus::Complete][usize::from(count > 0)];
            assert_eq!(outcome.status, done, "{text}");
        }
    }
}
