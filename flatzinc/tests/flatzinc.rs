//! The FlatZinc reader on files MiniZinc 2.6 wrote (`tests/flatzinc/NAME.fzn`, made
//! from `NAME.mzn` by `tests/flatzinc/regenerate.sh`): counts, optima,
//! unsatisfiability, the output lines, every builtin family, and errors.

use alldiff::{
    Decision, Limits, Objective, Restarts, SearchConfig, SearchObserver, StopReason, ValueOrder,
    VariableOrder,
};
use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};

mod support;

use support::{all, checked, count_text, read, solve, text};

#[test]
fn eight_queens_has_92_solutions_with_the_annotated_search_and_with_free_search() {
    let problem = read("queens");
    let (status, solutions) = solve(&problem, &all());
    assert_eq!((status, solutions.len()), (RunStatus::Complete, 92));
    assert!(solutions[0].starts_with("q = array1d(1..8, ["));
    let free = RunOptions {
        free: true,
        ..all()
    };
    assert_eq!(solve(&problem, &free).1.len(), 92);
    // The first solution only, then three.
    let (status, first) = solve(&problem, &RunOptions::default());
    assert_eq!((status, first.len()), (RunStatus::SolutionLimit, 1));
    let three = RunOptions {
        solutions: Some(3),
        ..RunOptions::default()
    };
    assert_eq!(solve(&problem, &three).1.len(), 3);
}

#[test]
fn send_more_money_prints_each_letter() {
    let (status, solutions) = solve(&read("send_more_money"), &all());
    assert_eq!(status, RunStatus::Complete);
    assert_eq!(
        solutions,
        ["S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n"]
    );
}

#[test]
fn knapsack_improves_to_the_proven_optimum() {
    let problem = read("knapsack");
    let mut objectives = Vec::new();
    let outcome = flatzinc::run(
        &problem,
        &checked(&RunOptions::default()),
        &mut (),
        |_, objective| {
            objectives.push(objective.unwrap());
        },
    );
    assert_eq!(outcome.status, RunStatus::Complete);
    assert_eq!(objectives.last(), Some(&38));
    assert!(objectives.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(outcome.statistics.objective, Some(38));
    // -n 1: the first improving solution only.
    let one = RunOptions {
        solutions: Some(1),
        ..RunOptions::default()
    };
    let (status, solutions) = solve(&problem, &one);
    assert_eq!((status, solutions.len()), (RunStatus::SolutionLimit, 1));
}

#[test]
fn pigeons_are_unsatisfiable() {
    let (status, solutions) = solve(&read("pigeons"), &all());
    assert_eq!((status, solutions.len()), (RunStatus::Unsatisfiable, 0));
}

#[test]
fn output_prints_2d_arrays_booleans_and_fixed_values() {
    let (_, solutions) = solve(&read("output"), &all());
    assert_eq!(
        solutions,
        ["some = true;\n\
          grid = array2d(1..2, 1..3, [1, 2, 3, 4, 5, 6]);\n\
          flags = array1d(1..3, [true, false, true]);\n"]
    );
}

/// The number of solutions of a MiniZinc-made model, with every solution's output.
fn count(name: &str) -> usize {
    let (status, solutions) = solve(&read(name), &all());
    assert_eq!(status, RunStatus::Complete, "{name}");
    solutions.len()
}

#[test]
fn integer_builtins_count_as_gecode_does() {
    // int_times, int_div, int_mod, int_abs, int_min, int_max, int_lin_*, int_ne.
    assert_eq!(count("arithmetic"), 114);
}

#[test]
fn reified_and_boolean_builtins_count_as_gecode_does() {
    // int_*_reif, int_lin_*_reif, bool_clause, bool_xor, bool_not, array_bool_*,
    // set_in_reif, bool2int.
    assert_eq!(count("reified"), 5);
}

#[test]
fn element_and_extrema_count_as_gecode_does() {
    // array_(var_)int_element, array_(var_)bool_element, array_int_maximum/minimum.
    assert_eq!(count("element"), 3328);
}

#[test]
fn native_globals_count_as_brute_force_does() {
    assert_eq!(count("globals_order"), 24 * 4 * 6 * 6);
    assert_eq!(count("globals_count"), 12 * 3 * 15);
    assert_eq!(count("globals_pairs"), 6 * 10 * 18 * 21);
}

#[test]
fn an_array_indexed_from_zero_prints_its_index_set() {
    let (_, solutions) = solve(&read("globals_order"), &RunOptions::default());
    assert!(
        solutions[0].contains("succ = array1d(0..3, ["),
        "{}",
        solutions[0]
    );
}

#[test]
fn a_posted_constraint_names_the_item_it_comes_from() {
    let problem = text(
        "var 1..3: x;\nvar 1..3: y;\nconstraint int_ne(x, y);\nconstraint int_lt(x, y);\n\
         solve satisfy;\n",
    )
    .unwrap();
    let x = problem.var("x").unwrap();
    let violated = |vx: i32, vy: i32| {
        let value = |v| if v == x { vx } else { vy };
        let constraint = problem.model().first_violated(&value).unwrap();
        problem.constraint_source(constraint)
    };
    assert_eq!(violated(1, 1), Some((3, "int_ne")));
    assert_eq!(violated(2, 1), Some((4, "int_lt")));
}

#[test]
fn introduced_literals_left_free_complete_a_solution_once() {
    // x >= 2 \/ y >= 2 as MiniZinc writes it with half reification: where both hold,
    // either literal may be false; the three solutions are still three.
    let fzn = "var 1..2: x :: output_var;\nvar 1..2: y :: output_var;\n\
        var bool: r1 ::var_is_introduced :: is_defined_var;\n\
        var bool: r2 ::var_is_introduced :: is_defined_var;\n\
        constraint array_bool_or([r1, r2], true);\n\
        constraint int_le_imp(2, x, r1) :: defines_var(r1);\n\
        constraint int_le_imp(2, y, r2) :: defines_var(r2);\n\
        solve satisfy;\n";
    assert_eq!(count_text(fzn), 3);
    // Shown, the literals are part of the solution: five.
    let shown = fzn.replace("::var_is_introduced", ":: output_var ::var_is_introduced");
    assert_eq!(count_text(&shown), 5);
}

#[test]
fn errors_name_the_line_and_the_problem() {
    let unsupported = "var 1..3: x;\nvar 1..3: y;\nvar bool: b;\n\
        constraint int_lin_ne_imp([1, 1], [x, y], 3, b);\nconstraint float_lt(1.0, 2.0);\nsolve satisfy;\n";
    // int_lin_ne_imp is supported; the float constraint on line 5 is not.
    assert_eq!(
        text(unsupported).unwrap_err(),
        "line 5: float values are not supported"
    );
    let cases = [
        (
            "var 1..3: x;\n\nconstraint no_such_thing(x);\nsolve satisfy;",
            "line 3: unsupported constraint 'no_such_thing'",
        ),
        (
            "var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;",
            "line 2: unknown identifier 'y'",
        ),
        (
            "var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;",
            "line 2: 'int_le' takes 2 arguments, not 1",
        ),
        (
            "var 1..3: x;\nconstraint int_lin_le(x, [x], 1);\nsolve satisfy;",
            "line 2: argument 1 of 'int_lin_le' must be an array",
        ),
        ("var 1..3: x;\n", "no solve item"),
        (
            "var 1..3: x;\nvar 1..3 x;\nsolve satisfy;",
            "line 2: syntax error in 'var 1..3 x;'",
        ),
        (
            "var 1..3: x;\nsolve satisfy",
            "line 2: statement not closed by ';'",
        ),
        (
            "var 1..99999999999: x;\nconstraint int_le(x, 99999999999);\nsolve satisfy;",
            "line 2: 'int_le': the value 99999999999 is out of the 32-bit range",
        ),
        (
            "var float: x;\nsolve satisfy;",
            "line 1: float variables are not supported",
        ),
        (
            "var 1..3: x;\nvar 1..3: x;\nsolve satisfy;",
            "line 2: 'x' is declared twice",
        ),
        (
            "var 1..2000000: x;\nvar 1..3: y;\nconstraint int_pow(x, y, x);\nsolve satisfy;",
            "line 3: 'int_pow' with a variable exponent over more than 1048576 (base, exponent) pairs",
        ),
        (
            "var -9..9: x;\nconstraint fzn_all_different_int([x, 1, 1]);\nsolve satisfy;",
            "",
        ),
    ];
    for (fzn, expected) in cases {
        match text(fzn) {
            Err(message) => assert_eq!(message, expected, "{fzn}"),
            Ok(_) => assert!(expected.is_empty(), "{fzn} was read"),
        }
    }
}

#[test]
fn garbage_is_an_error_never_a_panic() {
    for fzn in [
        "",
        ";",
        "constraint",
        "solve",
        "var",
        "array [1..2] of var int: a = [x];\nsolve satisfy;",
        "array [1..2] of int: a = [1, 2];\nconstraint int_le(a, a);\nsolve satisfy;",
        "var 1..3: x :: output_array([1..2]);\nsolve satisfy;",
        "array [1..1] of var 1..3: a :: output_array([1..2]) = [1];\nsolve satisfy;",
        "var 1..3: x;\nsolve minimize y;",
        "var 1..3: x;\nsolve :: int_search(x, foo, bar, complete) satisfy;\nsolve satisfy;",
        "\u{0}\u{1}%\n\"",
        "var 5..1: x :: output_var;\nsolve satisfy;",
        "set of int: s = 1..3;\nvar 1..5: x;\nconstraint set_in(x, s);\nconstraint int_eq(s, x);\nsolve satisfy;",
    ] {
        let _ = FlatZincModel::parse(fzn);
    }
}

#[test]
fn declarations_with_values_aliases_and_empty_domains() {
    // An alias narrows its target; a constant outside the declared domain fails.
    let fzn = "var 1..5: x :: output_var;\nvar 2..3: y :: output_var = x;\nsolve satisfy;";
    assert_eq!(count_text(fzn), 2);
    let problem = text(fzn).unwrap();
    assert_eq!(problem.var("y"), problem.var("x"));
    assert_eq!(problem.model().name(problem.var("x").unwrap()), "x");
    let fzn = "var 1..5: x = 7;\nsolve satisfy;";
    assert_eq!(count_text(fzn), 0);
    assert_eq!(count_text("var 5..1: x;\nsolve satisfy;"), 0);
    assert_eq!(count_text("var {}: x;\nsolve satisfy;"), 0);
    let fzn =
        "var {1, 5, 9}: x :: output_var;\nvar int: u;\nconstraint int_eq(u, x);\nsolve satisfy;";
    let problem = text(fzn).unwrap();
    assert_eq!(problem.warnings().len(), 1, "{:?}", problem.warnings());
    assert!(problem.warnings()[0].contains("'var int' without bounds (u)"));
    // The three solutions, but the search over the clamped `u` proves nothing more.
    let (status, solutions) = solve(&problem, &all());
    assert_eq!(status, RunStatus::Narrowed { solved: true });
    assert_eq!(solutions.len(), 3);
}

#[test]
fn bool2int_integers_are_their_booleans() {
    // The integer of `bool2int(b, i)` declared after `b` is `b`'s variable; it
    // prints as an integer. One declared first, or narrower than 0..1, stays a
    // variable of its own, tied by the constraint.
    let fzn = "var bool: a :: output_var;\nvar bool: b;\nvar 0..1: i :: output_var;\n\
               var 0..5: j;\nvar 1..1: k;\n\
               constraint bool2int(a, i);\nconstraint bool2int(b, j);\n\
               constraint bool2int(b, k);\nconstraint int_lin_le([1, 1], [i, j], 1);\n\
               solve satisfy;";
    let problem = text(fzn).unwrap();
    assert_eq!(problem.var("i"), problem.var("a"));
    assert_eq!(problem.var("j"), problem.var("b"));
    assert_ne!(problem.var("k"), problem.var("b"));
    let (status, solutions) = solve(&problem, &all());
    assert_eq!(status, RunStatus::Complete);
    assert_eq!(solutions, ["a = false;\ni = 0;\n"]);
    let fzn = "var 0..1: i :: output_var;\nvar bool: a;\nconstraint bool2int(a, i);\n\
               solve satisfy;";
    let problem = text(fzn).unwrap();
    assert_ne!(problem.var("i"), problem.var("a"));
    assert_eq!(count_text(fzn), 2);
}

#[test]
fn variables_defined_as_another_plus_a_constant_are_views_of_it() {
    // `q[i] + i` in an all-different, as MiniZinc writes it: y0 and y1 are the views
    // x0 + 1 and x1 - 1 (no variables, no equalities; their `int_lin_eq` sums to a
    // constant), y1's declared domain removing x1 = 1. z, declared before x1, stays a
    // variable.
    let fzn = "var 1..3: x0 :: output_var;\nvar 0..2: z :: output_var;\n\
               var 1..3: x1 :: output_var;\nvar 2..4: y0 :: output_var;\nvar 1..3: y1;\n\
               constraint int_lin_eq([1, -1], [x0, y0], -1) :: defines_var(y0);\n\
               constraint int_lin_eq([-1, 1], [y1, x1], 1) :: defines_var(y1);\n\
               constraint int_lin_eq([1, -1], [x1, z], 1) :: defines_var(z);\n\
               constraint fzn_all_different_int([x0, x1, y0, y1]);\n\
               solve satisfy;";
    let problem = text(fzn).unwrap();
    assert_eq!(problem.var("y0"), None);
    assert_eq!(problem.var("y1"), None);
    assert!(problem.var("z").is_some());
    // x0, z, x1 and the constants; z's equality, y1's domain, the all-different.
    assert_eq!(problem.model().var_count(), 3 + 1);
    assert_eq!(problem.model().constraint_count(), 3);
    let (status, solutions) = solve(&problem, &all());
    assert_eq!(status, RunStatus::Complete);
    // y1 = x1 - 1 in 1..3: x1 in 2..3; x0, x0 + 1, x1, x1 - 1 all different.
    assert_eq!(solutions, ["x0 = 3;\nz = 1;\nx1 = 2;\ny0 = 4;\n"]);
    // With y1 in 0..3, x1 = 1 too: x0 = 3 or x0 = 2.
    assert_eq!(count_text(&fzn.replace("var 1..3: y1", "var 0..3: y1")), 3);
}

#[test]
fn a_variable_or_negative_exponent_is_tabled() {
    // Every (x, e) pair but 0^-1, which MiniZinc leaves undefined: 0^0 = 1, and a
    // negative exponent is 1 div x^|e| (1, -1 or 0).
    let fzn = "var -2..2: x;\nvar -1..3: e;\nvar -8..8: z;\n\
               constraint int_pow(x, e, z);\nsolve satisfy;\n";
    assert_eq!(count_text(fzn), 24);
    // z = x^e with x = -2, e = -1: 1 div -2 = 0; e = 3: -8.
    let fixed = |e: i32, z: i32| {
        let text = fzn.replace("var -1..3: e", &format!("var {e}..{e}: e"));
        count_text(&text.replace("var -8..8: z", &format!("var {z}..{z}: z")))
    };
    assert_eq!(fixed(-1, 0), 2); // x = -2 or 2
    assert_eq!(fixed(3, -8), 1); // x = -2
    assert_eq!(fixed(0, 1), 5); // every x
    // A constant negative exponent takes the same table.
    let constant = fzn.replace("int_pow(x, e, z)", "int_pow(x, -2, z)");
    assert_eq!(count_text(&constant), 4 * 5); // x != 0, e free
}

#[test]
fn builtins_minizinc_rarely_emits() {
    let header =
        "var -2..2: x;\nvar -2..2: y;\nvar -8..8: z;\nvar bool: a;\nvar bool: b;\nvar bool: r;\n";
    let cases = [
        ("constraint int_pow(x, 3, z);", 5 * 5 * 8),
        ("constraint int_pow_fixed(x, 2, z);", 5 * 5 * 8),
        ("constraint int_plus(x, y, z);", 25 * 8),
        ("constraint int_minus(x, y, z);", 25 * 8),
        ("constraint int_lt(x, y);", 10 * 17 * 8),
        ("constraint int_ge(x, 1);", 2 * 5 * 17 * 8),
        ("constraint int_lt_imp(x, y, r);", (25 + 10) * 17 * 4),
        (
            "constraint int_lin_ne_imp([1, 1], [x, y], 0, r);",
            (25 + 20) * 17 * 4,
        ),
        ("constraint int_lin_eq([2, -1], [x, z], 0);", 5 * 5 * 8),
        ("constraint bool_lin_eq([1, 2], [a, b], z);", 25 * 4 * 2),
        (
            "constraint bool_lin_le([1, 2], [a, b], 1);",
            25 * 17 * 2 * 2,
        ),
        ("constraint bool_le(a, b);", 25 * 17 * 3 * 2),
        ("constraint bool_lt_reif(a, b, r);", 25 * 17 * 4),
        ("constraint bool_eq_imp(a, b, r);", 25 * 17 * 6),
        ("constraint bool_xor(a, b);", 25 * 17 * 2 * 2),
        ("constraint bool_and_imp(a, b, r);", 25 * 17 * 5),
        ("constraint bool_clause_imp([a], [b], r);", 25 * 17 * 7),
        ("constraint bool_clause_reif([a], [b], r);", 25 * 17 * 4),
        ("constraint array_bool_or_imp([a, b], r);", 25 * 17 * 7),
        ("constraint array_bool_xor([a, b, r]);", 25 * 17 * 4),
        ("constraint set_in(x, {-2, 0, 2});", 3 * 5 * 17 * 8),
        ("constraint set_in_imp(x, 1..2, r);", (25 + 10) * 17 * 4),
        ("constraint int_eq_reif(x, 7, r);", 25 * 17 * 4),
    ];
    for (constraint, expected) in cases {
        let fzn = format!("{header}{constraint}\nsolve satisfy;\n");
        assert_eq!(count_text(&fzn), expected, "{constraint}");
    }
}

#[test]
fn median_and_interval_value_selections_run_as_minizinc_names_them() {
    let fzn = "var {1, 2, 3, 7, 8}: x;\nvar {1, 2, 5, 8}: y;\n\
        solve :: seq_search([int_search([x], input_order, indomain_interval, complete), \
        int_search([y], input_order, indomain_median, complete)]) satisfy;\n";
    let problem = text(fzn).unwrap();
    assert!(problem.warnings().is_empty(), "{:?}", problem.warnings());
    let phases = problem.phases(false);
    let orders = [ValueOrder::Interval, ValueOrder::Median];
    for (phase, value) in phases.iter().zip(orders) {
        let expected = SearchConfig::new()
            .variable_order(VariableOrder::InputOrder)
            .value_order(value);
        assert_eq!(phase.config(), &expected);
    }
    assert_eq!(count_text(fzn), 20);
}

#[test]
fn search_annotations_become_phases_with_warnings_for_what_is_not_supported() {
    let fzn = "var 1..3: x;\nvar 1..3: y;\nvar 0..9: cost;\n\
        constraint int_lin_eq([1, 1, -1], [x, y, cost], 0);\n\
        solve :: seq_search([int_search([x], anti_first_fail, indomain_median, complete), \
        bool_search([], impact, indomain_random, complete)]) :: restart_luby(100) minimize cost;\n";
    let problem = text(fzn).unwrap();
    let phases = problem.phases(false);
    let (x, cost) = (problem.var("x").unwrap(), problem.var("cost").unwrap());
    assert_eq!(phases.len(), 3); // x, the empty bool_search, then the objective
    assert_eq!(phases[0].vars(), [x]);
    let orders = |variable, value| {
        SearchConfig::new()
            .variable_order(variable)
            .value_order(value)
    };
    assert_eq!(
        phases[0].config(),
        &orders(VariableOrder::LargestDomain, ValueOrder::Median)
    );
    assert_eq!(
        phases[1].config(),
        &orders(VariableOrder::SmallestDomain, ValueOrder::Random(0))
    );
    assert_eq!(phases[2].vars(), [cost]);
    assert_eq!(
        phases[2].config(),
        &orders(VariableOrder::InputOrder, ValueOrder::Ascending)
    );
    assert!(problem.phases(true).is_empty());
    assert_eq!(
        problem.warnings(),
        ["the variable selection 'impact' is not supported: first_fail instead"]
    );
    assert_eq!(problem.objective(), Some(Objective::Minimize(cost.into())));
    let mut best = None;
    let outcome = flatzinc::run(
        &problem,
        &checked(&RunOptions::default()),
        &mut (),
        |_, objective| {
            best = objective;
        },
    );
    assert_eq!((outcome.status, best), (RunStatus::Complete, Some(2)));
}

#[test]
fn restart_annotations_set_the_policy_of_one_solution_and_of_optimisation() {
    let with = |annotation: &str, goal: &str| {
        let fzn = format!(
            "var 1..5: a;\nvar 1..5: b;\nvar 1..5: c;\nvar 1..5: d;\nvar 1..5: e;\nvar 1..5: f;\n\
             array [1..6] of var int: p :: output_array([1..6]) = [a, b, c, d, e, f];\n\
             constraint fzn_all_different_int(p) :: value;\n\
             solve :: int_search(p, dom_w_deg, indomain_min, complete) {annotation} {goal};\n"
        );
        text(&fzn)
    };
    let policy = |annotation: &str| {
        let problem = with(annotation, "satisfy").unwrap();
        (
            problem.solver(&RunOptions::default()).restarts(),
            problem.warnings().to_vec(),
        )
    };
    assert_eq!(policy(""), (None, vec![]));
    assert_eq!(policy(":: restart_luby(100)").0, Some(Restarts::luby(100)));
    assert_eq!(
        policy(":: restart_geometric(1.5, 10)").0,
        Some(Restarts::geometric(10, 1.5))
    );
    assert_eq!(policy(":: restart_linear(5)").0, Some(Restarts::linear(5)));
    let (constant, warnings) = policy(":: restart_constant(7)");
    assert_eq!(constant, Some(Restarts::geometric(7, 1.0)));
    assert!(warnings[0].contains("restart_constant"), "{warnings:?}");
    assert_eq!(policy(":: restart_luby(3) :: restart_none").0, None);
    let free = RunOptions {
        free: true,
        ..RunOptions::default()
    };
    let problem = with(":: restart_luby(1)", "satisfy").unwrap();
    assert_eq!(problem.solver(&free).restarts(), None);
    let error = with(":: restart_luby(0)", "satisfy").unwrap_err();
    assert!(
        error.contains("line 9") && error.contains("restart_luby"),
        "{error}"
    );
    // Six pigeons, five holes (value strength, so it takes a search): the proof
    // restarts, and still ends.
    let outcome = flatzinc::run(
        &problem,
        &checked(&RunOptions::default()),
        &mut (),
        |_, _| {},
    );
    assert_eq!(outcome.status, RunStatus::Unsatisfiable);
    assert!(outcome.statistics.restarts > 0);
    // All solutions: none; enumeration never restarts.
    let outcome = flatzinc::run(&problem, &checked(&all()), &mut (), |_, _| {});
    assert_eq!(
        (outcome.status, outcome.statistics.restarts),
        (RunStatus::Unsatisfiable, 0)
    );
}

#[test]
fn the_seed_drives_indomain_random() {
    let fzn = "array [1..6] of var 1..6: q :: output_array([1..6]) = [a, b, c, d, e, f];\n";
    let vars: String = "abcdef"
        .chars()
        .map(|v| format!("var 1..6: {v};\n"))
        .collect();
    let fzn = format!(
        "{vars}{fzn}constraint fzn_all_different_int(q);\n\
         solve :: int_search(q, input_order, indomain_random, complete) satisfy;\n"
    );
    let problem = text(&fzn).unwrap();
    let first = |seed| {
        let options = RunOptions {
            seed: Some(seed),
            ..RunOptions::default()
        };
        solve(&problem, &options).1
    };
    assert_eq!(first(7), first(7));
    let differ = (0..10).any(|seed| first(seed) != first(seed + 1));
    assert!(differ, "ten seeds in a row gave the same permutation");
}

#[test]
fn limits_stop_a_run_and_say_whether_it_found_a_solution() {
    let problem = read("queens");
    let options = RunOptions {
        all: true,
        limits: Limits::none().with_nodes(20),
        ..RunOptions::default()
    };
    let (status, solutions) = solve(&problem, &options);
    let RunStatus::Stopped { reason, solved } = status else {
        panic!("{status:?}")
    };
    assert_eq!(reason, StopReason::NodeLimit);
    assert_eq!(solved, !solutions.is_empty());
    let options = RunOptions {
        limits: Limits::none().with_nodes(1),
        ..RunOptions::default()
    };
    let (status, _) = solve(&read("knapsack"), &options);
    assert!(matches!(status, RunStatus::Stopped { .. }), "{status:?}");
}

/// Counts what the observer sees.
#[derive(Default)]
struct Watch {
    decisions: u64,
    solutions: u64,
}

impl SearchObserver for Watch {
    fn on_decision(&mut self, _: &Decision) {
        self.decisions += 1;
    }
    fn on_solution(&mut self, _: u64) {
        self.solutions += 1;
    }
}

#[test]
fn the_observer_sees_satisfaction_and_optimisation() {
    for (name, options) in [("queens", all()), ("knapsack", RunOptions::default())] {
        let problem = read(name);
        let mut watch = Watch::default();
        let outcome = flatzinc::run(&problem, &checked(&options), &mut watch, |_, _| {});
        assert_eq!(watch.solutions, outcome.statistics.solutions, "{name}");
        assert_eq!(watch.decisions, outcome.statistics.nodes, "{name}");
        assert!(watch.decisions > 0);
    }
}

/// The predicates `share/minizinc/alldiff/` declares without a body, which MiniZinc then
/// writes into the FlatZinc as they are: each name with its parameters' types.
fn declared_natives() -> Vec<(String, Vec<String>)> {
    let folder = format!("{}/../share/minizinc/alldiff", env!("CARGO_MANIFEST_DIR"));
    let mut natives = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let code: String = (text.lines())
            .map(|line| line.split('%').next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ");
        for declaration in code.split("predicate ").skip(1) {
            let (name, rest) = declaration.split_once('(').unwrap();
            // The parameters end at the parenthesis that closes the list.
            let (mut depth, mut params, mut current) = (1, Vec::new(), String::new());
            let mut chars = rest.chars();
            for c in chars.by_ref() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if c == ',' && depth == 1 {
                    params.push(std::mem::take(&mut current));
                } else {
                    current.push(c);
                }
            }
            params.push(current);
            if chars.as_str().trim_start().starts_with(';') {
                let types = params
                    .iter()
                    .map(|p| p.rsplit_once(':').unwrap().0.trim().to_owned());
                natives.push((name.trim().to_owned(), types.collect()));
            }
        }
    }
    natives
}

#[test]
fn every_predicate_the_library_declares_native_is_read() {
    let natives = declared_natives();
    assert!(
        natives.iter().any(|(name, _)| name == "array_int_maximum"),
        "{natives:?}"
    );
    for (name, types) in natives
        .iter()
        .filter(|(_, types)| !types.iter().any(|t| t.contains("float")))
    {
        let args: Vec<&str> = (types.iter())
            .map(|t| {
                match (
                    t.starts_with("array"),
                    t.contains("var"),
                    t.contains("bool"),
                ) {
                    _ if t.contains("set of int") => "{1, 2}",
                    (true, true, true) => "[b1, b2]",
                    (true, true, false) => "[x1, x2]",
                    (true, false, _) => "[1, 2]",
                    (false, true, true) => "b1",
                    (false, true, false) => "x1",
                    (false, false, _) => "1",
                }
            })
            .collect();
        let fzn = format!(
            "var 1..2: x1;\nvar 1..2: x2;\nvar bool: b1;\nvar bool: b2;\nconstraint {name}({});\nsolve satisfy;\n",
            args.join(", ")
        );
        if let Err(e) = FlatZincModel::parse(&fzn) {
            assert!(!e.to_string().contains("unsupported"), "{name}: {e}");
        }
    }
}

/// MiniZinc folds the constants of a sum over far values into a right-hand side beyond
/// 32 bits (`x1 + x3 - obj = 2147483650`): the sum is restated over the terms shifted
/// to their lowest values, or decided when no values reach it; before, a refusal.
#[test]
fn sums_with_a_right_hand_side_beyond_32_bits_count_as_brute_force() {
    let (x, y) = (
        1_073_741_823..=1_073_741_825i64,
        [1_073_741_822i64, 1_073_741_825],
    );
    for (relation, holds) in [
        (
            "int_lin_eq",
            (|s: i64, r: i64| s == r) as fn(i64, i64) -> bool,
        ),
        ("int_lin_ne", |s, r| s != r),
        ("int_lin_le", |s, r| s <= r),
    ] {
        for rhs in [
            2_147_483_646,
            2_147_483_649,
            2_147_483_650,
            4_000_000_000,
            -3_000_000_000,
        ] {
            let fzn = format!(
                "var 1073741823..1073741825: x :: output_var;\n\
                 var {{1073741822,1073741825}}: y :: output_var;\n\
                 constraint {relation}([1,1],[x,y],{rhs});\nsolve satisfy;\n"
            );
            let expected = x
                .clone()
                .flat_map(|a| y.map(|b| a + b))
                .filter(|&s| holds(s, rhs));
            assert_eq!(count_text(&fzn), expected.count(), "{relation} {rhs}");
            let reified = format!(
                "var 1073741823..1073741825: x :: output_var;\n\
                 var {{1073741822,1073741825}}: y :: output_var;\n\
                 var bool: r :: output_var;\n\
                 constraint {relation}_reif([1,1],[x,y],{rhs},r);\nsolve satisfy;\n"
            );
            let (status, solutions) = solve(&text(&reified).unwrap(), &all());
            assert_eq!((status, solutions.len()), (RunStatus::Complete, 6));
            // Each (x, y) once, with r telling whether x + y ⋈ rhs.
            for solution in solutions {
                let value = |name: &str| {
                    let line = solution.lines().find(|l| l.starts_with(name)).unwrap();
                    line[name.len() + 3..line.len() - 1].to_string()
                };
                let sum = value("x").parse::<i64>().unwrap() + value("y").parse::<i64>().unwrap();
                assert_eq!(
                    value("r"),
                    holds(sum, rhs).to_string(),
                    "{relation}_reif {rhs}"
                );
            }
        }
    }
}

#[test]
fn a_subcircuit_over_a_view_at_the_end_of_i32_is_unsatisfiable() {
    // s = a - 2147483647 = 0 is no node of a subcircuit numbered from 3: it once
    // panicked on an index out of range.
    let problem = FlatZincModel::parse(
        "var 2147483647..2147483647: a :: output_var;\n\
         var int: s :: output_var :: is_defined_var;\n\
         constraint int_lin_eq([1, -1], [a, s], 2147483647) :: defines_var(s);\n\
         constraint alldiff_subcircuit([s], 3);\n\
         solve satisfy;\n",
    )
    .unwrap();
    assert_eq!(solve(&problem, &all()), (RunStatus::Unsatisfiable, vec![]));
}

#[test]
fn int_abs_over_a_domain_holding_i32_min_drops_that_value() {
    // |i32::MIN| is no 32-bit value: that value of x has no result (it was refused,
    // while int_times over the same domain was accepted).
    let problem = FlatZincModel::parse(
        "var -2147483648..-2147483646: x :: output_var;\n\
         var 0..2147483647: z;\n\
         constraint int_abs(x, z);\n\
         solve satisfy;\n",
    )
    .unwrap();
    let (status, printed) = solve(&problem, &all());
    assert_eq!(status, RunStatus::Complete);
    assert_eq!(printed, ["x = -2147483647;\n", "x = -2147483646;\n"]);
}

/// `x - y = c` is posted as `x == y + c` only where that view stays within 32 bits;
/// else as a sum (a model MiniZinc wrote from the differential script was refused:
/// `view x5 +1073741951 overflows`).
#[test]
fn a_difference_whose_view_would_leave_32_bits_is_posted_as_a_sum() {
    let xs = [i32::MAX - 2, i32::MAX - 1, i32::MAX];
    let ys = [-1, 0, 1, 2, 1_073_741_888];
    for (relation, holds) in [
        (
            "int_lin_eq",
            (|s: i64, r: i64| s == r) as fn(i64, i64) -> bool,
        ),
        ("int_lin_ne", |s, r| s != r),
    ] {
        for rhs in [i32::MAX - 1, i32::MAX, 1_073_741_951] {
            let fzn = format!(
                "var {}..{}: x :: output_var;\nvar {{-1,0,1,2,1073741888}}: y :: output_var;\n\
                 constraint {relation}([1,-1],[x,y],{rhs});\nsolve satisfy;\n",
                xs[0], xs[2]
            );
            let pairs = xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y)));
            let expected = pairs
                .filter(|&(x, y)| holds(i64::from(x) - i64::from(y), i64::from(rhs)))
                .count();
            assert_eq!(count_text(&fzn), expected, "{relation} {rhs}");
        }
    }
}
