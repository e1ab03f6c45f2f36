//! Property tests of search control and optimisation: on small random models (all
//! different, linear, not equal, table), phases and every value order find exactly the
//! brute-force solutions; branch and bound finds the brute-force optimum of a random
//! objective (a view, or a linear expression through a defined variable), every
//! improving solution strictly better than the one before and a solution; restarts
//! change neither satisfiability nor the optimum; limits stop an optimisation with the
//! best so far. The domains lie near zero or at the edges (`common::edges`), and each
//! case posts its all-different constraints at one strength or as a system
//! (`common::postings`).

mod common;

use std::collections::BTreeSet;

use alldiff::{
    Limits, Model, OptimizeOutcome, Outcome, Phase, Relation, Restarts, SearchConfig, Solver,
    StopReason, ValueOrder, VarId, VariableOrder, View,
};
use common::edges::{small_or_edge_domains, view_fits};
use common::postings::{Posting, build_with_groups, posting};
use proptest::prelude::*;

/// A constraint as the oracle understands it, over (variable index, offset) views.
#[derive(Clone, Debug)]
enum Spec {
    AllDifferent(Vec<(usize, i32)>),
    NotEqual((usize, i32), (usize, i32)),
    /// `Σ coef * view <= rhs` (or `>=` when the flag is set).
    Linear(Vec<(i32, (usize, i32))>, bool, i32),
    Table(Vec<usize>, Vec<Vec<i32>>),
}

impl Spec {
    /// An all-different's views.
    fn group(&self) -> Option<Vec<(usize, i32)>> {
        match self {
            Spec::AllDifferent(views) => Some(views.clone()),
            _ => None,
        }
    }

    /// Whether the values satisfy it, in `i64`.
    fn holds(&self, values: &[i32]) -> bool {
        let at = |(var, offset): (usize, i32)| i64::from(values[var]) + i64::from(offset);
        let distinct = |a: &[(usize, i32)]| {
            (0..a.len()).all(|i| a[i + 1..].iter().all(|&b| at(a[i]) != at(b)))
        };
        match self {
            Spec::AllDifferent(views) => distinct(views),
            Spec::NotEqual(a, b) => distinct(&[*a, *b]),
            Spec::Linear(terms, at_least, rhs) => {
                let sum: i64 = terms.iter().map(|&(c, v)| i64::from(c) * at(v)).sum();
                let rhs = i64::from(*rhs);
                if *at_least { sum >= rhs } else { sum <= rhs }
            }
            Spec::Table(vars, tuples) => tuples
                .iter()
                .any(|t| vars.iter().zip(t).all(|(&v, &x)| values[v] == x)),
        }
    }

    /// Whether the model accepts its views: their values fit `i32`.
    fn fits(&self, domains: &[Vec<i32>]) -> bool {
        let views = match self {
            Spec::AllDifferent(views) => views.clone(),
            Spec::NotEqual(a, b) => vec![*a, *b],
            Spec::Linear(terms, ..) => terms.iter().map(|&(_, v)| v).collect(),
            Spec::Table(..) => Vec::new(),
        };
        views
            .iter()
            .all(|&(x, offset)| view_fits(&domains[x], offset))
    }

    /// Posts it to `model`, whose variables are `vars`, but an all-different (see
    /// [`build`]).
    fn post(&self, model: &mut Model, vars: &[VarId]) {
        let v = |(var, offset): (usize, i32)| vars[var] + offset;
        let posted = match self {
            Spec::AllDifferent(_) => return,
            Spec::NotEqual(a, b) => model.not_equal(v(*a), v(*b)),
            Spec::Linear(terms, at_least, rhs) => {
                let relation = if *at_least {
                    Relation::GreaterEq
                } else {
                    Relation::LessEq
                };
                model.linear(terms.iter().map(|&(c, x)| (c, v(x))), relation, *rhs)
            }
            Spec::Table(on, tuples) => model.table(on.iter().map(|&x| vars[x]), tuples),
        };
        posted.unwrap();
    }
}

/// What to optimise: a view of one variable, or a linear expression defined as a
/// variable of its own.
#[derive(Clone, Debug)]
enum Goal {
    View((usize, i32)),
    Linear(Vec<(i32, usize)>),
}

impl Goal {
    fn value(&self, values: &[i32]) -> i64 {
        match self {
            Goal::View((var, offset)) => i64::from(values[*var] + offset),
            Goal::Linear(terms) => terms
                .iter()
                .map(|&(c, v)| i64::from(c) * i64::from(values[v]))
                .sum(),
        }
    }
}

#[derive(Clone, Debug)]
struct Problem {
    domains: Vec<Vec<i32>>,
    specs: Vec<Spec>,
    goal: Goal,
    maximize: bool,
    /// How the all-different constraints are posted.
    posting: Posting,
}

fn view(vars: usize) -> impl Strategy<Value = (usize, i32)> {
    (0..vars, -2..=2i32)
}

/// Domains near zero or at the edges; the constraints whose views would reach past
/// `i32` are left out (engine_properties checks that the model refuses them).
fn problem() -> impl Strategy<Value = Problem> {
    (1usize..=5).prop_flat_map(|vars| {
        let tuple = prop::collection::vec(-3..=3i32, 2);
        let spec = prop_oneof![
            prop::collection::vec(view(vars), 1..=vars + 1).prop_map(Spec::AllDifferent),
            (view(vars), view(vars)).prop_map(|(a, b)| Spec::NotEqual(a, b)),
            (
                prop::collection::vec((-3..=3i32, view(vars)), 1..=3),
                any::<bool>(),
                -6..=6i32
            )
                .prop_map(|(terms, at_least, rhs)| Spec::Linear(terms, at_least, rhs)),
            (
                prop::collection::vec(0..vars, 2),
                prop::collection::vec(tuple, 0..=6)
            )
                .prop_map(|(vars, tuples)| Spec::Table(vars, tuples)),
        ];
        let goal = prop_oneof![
            view(vars).prop_map(Goal::View),
            prop::collection::vec((-3..=3i32, 0..vars), 1..=3).prop_map(Goal::Linear),
        ];
        (
            small_or_edge_domains(vars, 5),
            prop::collection::vec(spec, 0..=4),
            goal,
            any::<bool>(),
            posting(),
        )
            .prop_map(|(domains, specs, goal, maximize, posting)| Problem {
                specs: specs.into_iter().filter(|s| s.fits(&domains)).collect(),
                goal: fitting_goal(goal, &domains),
                domains,
                maximize,
                posting,
            })
    })
}

/// The range of a goal's value over the domains, in `i64`.
fn goal_range(goal: &Goal, domains: &[Vec<i32>]) -> (i64, i64) {
    let ends = |x: usize, c: i64, offset: i64| {
        let (a, b) = (
            i64::from(domains[x][0]),
            i64::from(*domains[x].last().unwrap()),
        );
        let (a, b) = (c * a + offset, c * b + offset);
        (a.min(b), a.max(b))
    };
    match goal {
        Goal::View((x, offset)) => ends(*x, 1, i64::from(*offset)),
        Goal::Linear(terms) => (terms.iter())
            .map(|&(c, x)| ends(x, i64::from(c), 0))
            .fold((0, 0), |(lo, hi), (a, b)| (lo + a, hi + b)),
    }
}

/// The goal, or the first variable when its values would reach past `i32` (a view
/// the model refuses, or a defined variable no domain holds).
fn fitting_goal(goal: Goal, domains: &[Vec<i32>]) -> Goal {
    let (lo, hi) = goal_range(&goal, domains);
    let fits = |v: i64| i32::try_from(v).is_ok();
    if fits(lo) && fits(hi) {
        goal
    } else {
        Goal::View((0, 0))
    }
}

/// Every assignment satisfying every constraint, by enumeration: `digits` counts
/// through the domains like an odometer, the last variable fastest.
fn brute_force(problem: &Problem) -> BTreeSet<Vec<i32>> {
    common::brute_force(&problem.domains, &|values| {
        problem.specs.iter().all(|s| s.holds(values))
    })
}

/// The best objective value over `solutions`, if any.
fn brute_optimum(problem: &Problem, solutions: &BTreeSet<Vec<i32>>) -> Option<i64> {
    let values = solutions.iter().map(|s| problem.goal.value(s));
    if problem.maximize {
        values.max()
    } else {
        values.min()
    }
}

/// The model, its problem variables and the objective view.
fn build(problem: &Problem) -> (Model, Vec<VarId>, View) {
    let groups: Vec<_> = problem.specs.iter().filter_map(Spec::group).collect();
    let (mut model, vars) =
        build_with_groups(&problem.domains, &groups, problem.posting, |model, vars| {
            problem.specs.iter().for_each(|spec| spec.post(model, vars));
        })
        .expect("the all-different constraints posted as they must be");
    let objective = match &problem.goal {
        Goal::View((var, offset)) => vars[*var] + *offset,
        Goal::Linear(terms) => {
            // The defined variable takes the values the expression takes over the
            // domains, not their whole range: a search that branches on it (a decision
            // while auxiliary variables stay open) then tries no value it cannot take.
            // Over the range of values at the edges, a million values tried one at a
            // time, this suite ran for hours now and then.
            let all = common::brute_force(&problem.domains, &|_| true);
            let values: BTreeSet<i64> = all.iter().map(|v| problem.goal.value(v)).collect();
            let defined = (model.var_from_values(values.into_iter().map(|v| v as i32))).unwrap();
            let terms = terms.iter().map(|&(c, x)| (c, vars[x]));
            model
                .linear(terms.chain([(-1, defined)]), Relation::Equal, 0)
                .unwrap();
            defined.into()
        }
    };
    (model, vars, objective)
}

const VARIABLE_ORDERS: [VariableOrder; 4] = [
    VariableOrder::InputOrder,
    VariableOrder::SmallestDomain,
    VariableOrder::DomOverWeightedDegree,
    VariableOrder::SmallestDomainWeightedDegree,
];

const VALUE_ORDERS: [ValueOrder; 8] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::Random(11),
    ValueOrder::Middle,
    ValueOrder::Median,
    ValueOrder::Split,
    ValueOrder::ReverseSplit,
    ValueOrder::Interval,
];

/// A search: the final phase's orders and up to two phases over chosen variables.
#[derive(Clone, Debug)]
struct Search {
    config: (usize, usize),
    phases: Vec<(Vec<usize>, usize, usize)>,
}

fn search() -> impl Strategy<Value = Search> {
    let orders = (0..VARIABLE_ORDERS.len(), 0..VALUE_ORDERS.len());
    let phase = (prop::collection::vec(0usize..5, 0..=4), orders.clone())
        .prop_map(|(vars, (var_order, value_order))| (vars, var_order, value_order));
    (orders, prop::collection::vec(phase, 0..=2))
        .prop_map(|(config, phases)| Search { config, phases })
}

/// A solver for `model` searching as `search` says (phase variables modulo `vars`).
fn solver(model: Model, vars: &[VarId], search: &Search) -> Solver {
    let config = SearchConfig::new()
        .variable_order(VARIABLE_ORDERS[search.config.0])
        .value_order(VALUE_ORDERS[search.config.1]);
    let mut solver = Solver::with_config(model, config);
    let phases = search.phases.iter().map(|(on, var_order, value_order)| {
        Phase::new(on.iter().map(|&i| vars[i % vars.len()]))
            .variable_order(VARIABLE_ORDERS[*var_order])
            .value_order(VALUE_ORDERS[*value_order])
    });
    solver.set_phases(phases).unwrap();
    solver
}

/// The values of the problem variables in a solution.
fn values_of(solution: &alldiff::Solution, vars: &[VarId]) -> Vec<i32> {
    vars.iter().map(|&x| solution[x]).collect()
}

fn restarts(choice: usize) -> Option<Restarts> {
    [
        None,
        Some(Restarts::luby(1)),
        Some(Restarts::geometric(2, 1.5)),
    ][choice]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Phases and every variable and value order enumerate exactly the brute-force
    /// solutions, each once.
    #[test]
    fn phases_and_value_orders_find_every_solution(problem in problem(), search in search()) {
        let expected = brute_force(&problem);
        let (model, vars, _) = build(&problem);
        let mut solver = solver(model, &vars, &search);
        let found: Vec<Vec<i32>> = solver.solutions().map(Result::unwrap).map(|s| values_of(&s, &vars)).collect();
        let unique: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
        prop_assert_eq!(unique.len(), found.len(), "a solution repeats");
        prop_assert_eq!(unique, expected);
    }

    /// With some variables auxiliary, the solutions are the brute-force ones seen on
    /// the others, each once; a variable of a phase stays a decision. Branch and
    /// bound still reaches the brute-force optimum, whatever it depends on.
    #[test]
    fn auxiliary_variables_project_the_solutions(
        problem in problem(),
        search in search(),
        auxiliary in prop::collection::vec(any::<bool>(), 5),
    ) {
        let (model, vars, objective) = build(&problem);
        let mut solver = solver(model, &vars, &search);
        let in_phase = |i: usize| search.phases.iter().any(|(on, ..)| on.iter().any(|&j| j % vars.len() == i));
        let aux: Vec<usize> = (0..vars.len()).filter(|&i| auxiliary[i] && !in_phase(i)).collect();
        solver.set_auxiliary(aux.iter().map(|&i| vars[i])).unwrap();
        // The values of the decisions: the problem's variables but the auxiliary ones,
        // and a linear objective's defined variable.
        let project = |values: &[i32]| -> Vec<i64> {
            let decisions = (0..values.len()).filter(|i| !aux.contains(i));
            let mut key: Vec<i64> = decisions.map(|i| i64::from(values[i])).collect();
            if let Goal::Linear(_) = problem.goal {
                key.push(problem.goal.value(values));
            }
            key
        };
        let solutions = brute_force(&problem);
        let expected: BTreeSet<Vec<i64>> = solutions.iter().map(|s| project(s)).collect();
        let found: Vec<Vec<i64>> = solver.solutions().map(Result::unwrap).map(|s| project(&values_of(&s, &vars))).collect();
        let unique: BTreeSet<Vec<i64>> = found.iter().cloned().collect();
        prop_assert_eq!(unique.len(), found.len(), "a projected solution repeats");
        prop_assert_eq!(unique, expected);
        prop_assert_eq!(solver.count(None).solutions as usize, found.len());
        let optimization = if problem.maximize {
            solver.maximize(objective).unwrap()
        } else {
            solver.minimize(objective).unwrap()
        };
        let optimum = match optimization.finish() {
            OptimizeOutcome::Optimal(best) => Some(best.objective),
            _ => None,
        };
        prop_assert_eq!(optimum, brute_optimum(&problem, &solutions));
    }

    /// Branch and bound reaches the brute-force optimum, or proves there is no
    /// solution; each improving solution is a solution, strictly better than the one
    /// before; with or without restarts, under any search.
    #[test]
    fn optimum_equals_brute_force(problem in problem(), search in search(), restart in 0usize..3) {
        let solutions = brute_force(&problem);
        let optimum = brute_optimum(&problem, &solutions);
        let (model, vars, objective) = build(&problem);
        let mut solver = solver(model, &vars, &search);
        solver.set_restarts(restarts(restart));
        let mut optimization = if problem.maximize {
            solver.maximize(objective).unwrap()
        } else {
            solver.minimize(objective).unwrap()
        };
        let mut previous: Option<i64> = None;
        let mut improvements = 0;
        for improvement in optimization.by_ref().flatten() {
            let values = values_of(&improvement.solution, &vars);
            prop_assert!(solutions.contains(&values), "not a solution: {:?}", values);
            prop_assert_eq!(improvement.objective, problem.goal.value(&values));
            if let Some(previous) = previous {
                let better = if problem.maximize {
                    improvement.objective > previous
                } else {
                    improvement.objective < previous
                };
                prop_assert!(better, "{} after {}", improvement.objective, previous);
            }
            previous = Some(improvement.objective);
            improvements += 1;
        }
        prop_assert_eq!(optimization.statistics().solutions, improvements);
        prop_assert_eq!(optimization.statistics().objective, previous);
        match optimization.finish() {
            OptimizeOutcome::Optimal(best) => {
                prop_assert_eq!(Some(best.objective), optimum);
                prop_assert_eq!(Some(best.objective), previous);
            }
            OptimizeOutcome::Unsatisfiable => prop_assert_eq!(optimum, None),
            OptimizeOutcome::Stopped { reason, .. } => {
                prop_assert!(false, "stopped without a limit: {}", reason);
            }
        }
    }

    /// Restarts keep `solve` complete: a solution exactly when brute force finds one.
    #[test]
    fn restarts_keep_satisfiability(problem in problem(), search in search(), restart in 1usize..3) {
        let solutions = brute_force(&problem);
        let (model, vars, _) = build(&problem);
        let mut solver = solver(model, &vars, &search);
        solver.set_restarts(restarts(restart));
        match solver.solve() {
            Outcome::Solved(s) => prop_assert!(solutions.contains(&values_of(&s, &vars))),
            Outcome::Unsatisfiable => prop_assert!(solutions.is_empty()),
            Outcome::Stopped(reason) => prop_assert!(false, "stopped without a limit: {}", reason),
        }
    }

    /// A node or failure limit stops the whole optimisation (restarts included) with
    /// the best solution found so far; what it reports is a solution no better than
    /// the optimum.
    #[test]
    fn limits_stop_the_optimisation_with_the_best_so_far(
        problem in problem(),
        search in search(),
        restart in 0usize..3,
        limit in 1u64..6,
        by_failures in any::<bool>(),
    ) {
        let solutions = brute_force(&problem);
        let optimum = brute_optimum(&problem, &solutions);
        let (model, vars, objective) = build(&problem);
        let mut solver = solver(model, &vars, &search);
        solver.set_restarts(restarts(restart));
        solver.set_limits(if by_failures {
            Limits::none().with_failures(limit)
        } else {
            Limits::none().with_nodes(limit)
        });
        let optimization = if problem.maximize {
            solver.maximize(objective).unwrap()
        } else {
            solver.minimize(objective).unwrap()
        };
        match optimization.finish() {
            OptimizeOutcome::Optimal(best) => prop_assert_eq!(Some(best.objective), optimum),
            OptimizeOutcome::Unsatisfiable => prop_assert_eq!(optimum, None),
            OptimizeOutcome::Stopped { best, reason } => {
                let expected = if by_failures { StopReason::FailureLimit } else { StopReason::NodeLimit };
                prop_assert_eq!(reason, expected);
                // The counters of the whole run, restarts included, reached the limit.
                let stats = solver.statistics();
                let counted = if by_failures { stats.failures } else { stats.nodes };
                prop_assert!(counted >= limit);
                if let Some(best) = best {
                    let values = values_of(&best.solution, &vars);
                    prop_assert!(solutions.contains(&values));
                    let optimum = optimum.unwrap();
                    let no_better = if problem.maximize { best.objective <= optimum } else { best.objective >= optimum };
                    prop_assert!(no_better);
                    prop_assert_eq!(solver.statistics().objective, Some(best.objective));
                }
            }
        }
    }
}
