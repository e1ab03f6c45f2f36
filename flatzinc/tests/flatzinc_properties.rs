//! Random FlatZinc texts over the integer and Boolean builtins (`int_lin_*`, `int_*`
//! comparisons, their `_reif` and `_imp` forms, `bool_*`, clauses, `array_bool_*`,
//! `bool_lin_*`, `set_in*`, arithmetic), searched with random annotations (every
//! variable and value selection), give exactly the solutions brute force finds.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;

use alldiff_flatzinc::{self as flatzinc, FlatZincModel, RunOptions, RunStatus};
use proptest::prelude::*;

const INTS: usize = 3;
const BOOLS: usize = 3;

/// How a relation is posted: plainly, `b <-> c` or `b -> c` with the Boolean `b`.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Plain,
    Reif(usize),
    Imp(usize),
}

impl Mode {
    fn suffix(self) -> &'static str {
        match self {
            Mode::Plain => "",
            Mode::Reif(_) => "_reif",
            Mode::Imp(_) => "_imp",
        }
    }

    /// The literal argument, `, bN`, if any.
    fn literal(self) -> String {
        match self {
            Mode::Plain => String::new(),
            Mode::Reif(b) | Mode::Imp(b) => format!(", b{b}"),
        }
    }

    fn holds(self, v: &[i32], c: bool) -> bool {
        match self {
            Mode::Plain => c,
            Mode::Reif(b) => (v[INTS + b] != 0) == c,
            Mode::Imp(b) => v[INTS + b] == 0 || c,
        }
    }
}

/// A random constraint. Integer variables are `x0..x2` (values `v[0..3]`), Booleans
/// `b0..b2` (`v[3..6]`).
#[derive(Clone, Debug)]
enum Con {
    /// `int_lin_{eq,ne,le}`, with a constant term inside the array when `constant`.
    Lin {
        coeffs: [i32; INTS],
        constant: Option<(i32, i32)>,
        rel: usize,
        rhs: i32,
        mode: Mode,
    },
    /// `int_{eq,ne,le,lt}(xi, xj or a constant)`.
    Cmp {
        x: usize,
        y: Result<usize, i32>,
        rel: usize,
        mode: Mode,
    },
    /// `bool_{eq,xor,le,lt}` and their forms.
    BoolRel {
        op: usize,
        a: usize,
        b: usize,
        mode: Mode,
    },
    /// `bool_and`/`bool_or` (`r <-> a op b`), or their `_imp` forms.
    BoolOp {
        and: bool,
        a: usize,
        b: usize,
        r: usize,
        imp: bool,
    },
    Clause {
        pos: Vec<usize>,
        neg: Vec<usize>,
        mode: Mode,
    },
    /// `array_bool_and`/`array_bool_or(lits, r)`, or their `_imp` forms.
    ArrayBool {
        and: bool,
        lits: Vec<usize>,
        r: usize,
        imp: bool,
    },
    ArrayXor {
        lits: Vec<usize>,
    },
    /// `bool_lin_eq(coeffs, bs, xi)` or `bool_lin_le(coeffs, bs, rhs)`.
    BoolLin {
        coeffs: [i32; BOOLS],
        eq: Option<usize>,
        rhs: i32,
    },
    SetIn {
        x: usize,
        set: Vec<i32>,
        mode: Mode,
    },
    /// `int_{times,min,max,plus,div,mod}(x, y, z)` or `int_abs(x, z)`.
    Arith {
        op: usize,
        x: usize,
        y: usize,
        z: usize,
    },
    Bool2Int {
        b: usize,
        x: usize,
    },
}

const LIN: [&str; 3] = ["eq", "ne", "le"];
const CMP: [&str; 4] = ["eq", "ne", "le", "lt"];
const BOOL: [&str; 4] = ["eq", "xor", "le", "lt"];
const ARITH: [&str; 7] = ["times", "min", "max", "plus", "div", "mod", "abs"];

fn compare(rel: &str, a: i64, b: i64) -> bool {
    match rel {
        "eq" => a == b,
        "ne" | "xor" => a != b,
        "le" => a <= b,
        _ => a < b,
    }
}

fn list(names: &[usize], prefix: &str) -> String {
    let names: Vec<String> = names.iter().map(|i| format!("{prefix}{i}")).collect();
    format!("[{}]", names.join(", "))
}

impl Con {
    fn text(&self) -> String {
        match self {
            Con::Lin {
                coeffs,
                constant,
                rel,
                rhs,
                mode,
            } => {
                let mut cs: Vec<String> = coeffs.iter().map(i32::to_string).collect();
                let mut xs: Vec<String> = (0..INTS).map(|i| format!("x{i}")).collect();
                if let Some((a, c)) = constant {
                    cs.push(a.to_string());
                    xs.push(c.to_string());
                }
                format!(
                    "int_lin_{}{}([{}], [{}], {rhs}{})",
                    LIN[*rel],
                    mode.suffix(),
                    cs.join(", "),
                    xs.join(", "),
                    mode.literal()
                )
            }
            Con::Cmp { x, y, rel, mode } => {
                let y = match y {
                    Ok(j) => format!("x{j}"),
                    Err(c) => c.to_string(),
                };
                let (rel, suffix) = (CMP[*rel], mode.suffix());
                format!("int_{rel}{suffix}(x{x}, {y}{})", mode.literal())
            }
            Con::BoolRel { op, a, b, mode } => match (BOOL[*op], mode) {
                // The reified xor is `bool_xor(a, b, r)`.
                ("xor", Mode::Reif(r)) => format!("bool_xor(b{a}, b{b}, b{r})"),
                (name, _) => format!("bool_{name}{}(b{a}, b{b}{})", mode.suffix(), mode.literal()),
            },
            Con::BoolOp { and, a, b, r, imp } => {
                let name = if *and { "bool_and" } else { "bool_or" };
                let imp = if *imp { "_imp" } else { "" };
                format!("{name}{imp}(b{a}, b{b}, b{r})")
            }
            Con::Clause { pos, neg, mode } => format!(
                "bool_clause{}({}, {}{})",
                mode.suffix(),
                list(pos, "b"),
                list(neg, "b"),
                mode.literal()
            ),
            Con::ArrayBool { and, lits, r, imp } => {
                let name = if *and {
                    "array_bool_and"
                } else {
                    "array_bool_or"
                };
                let imp = if *imp { "_imp" } else { "" };
                format!("{name}{imp}({}, b{r})", list(lits, "b"))
            }
            Con::ArrayXor { lits } => format!("array_bool_xor({})", list(lits, "b")),
            Con::BoolLin { coeffs, eq, rhs } => {
                let cs: Vec<String> = coeffs.iter().map(i32::to_string).collect();
                let bs = list(&[0, 1, 2], "b");
                match eq {
                    Some(x) => format!("bool_lin_eq([{}], {bs}, x{x})", cs.join(", ")),
                    None => format!("bool_lin_le([{}], {bs}, {rhs})", cs.join(", ")),
                }
            }
            Con::SetIn { x, set, mode } => {
                let values: Vec<String> = set.iter().map(i32::to_string).collect();
                format!(
                    "set_in{}(x{x}, {{{}}}{})",
                    mode.suffix(),
                    values.join(", "),
                    mode.literal()
                )
            }
            Con::Arith { op, x, y, z } => match ARITH[*op] {
                "abs" => format!("int_abs(x{x}, x{z})"),
                name => format!("int_{name}(x{x}, x{y}, x{z})"),
            },
            Con::Bool2Int { b, x } => format!("bool2int(b{b}, x{x})"),
        }
    }

    fn holds(&self, v: &[i32]) -> bool {
        let b = |i: usize| v[INTS + i] != 0;
        match self {
            Con::Lin {
                coeffs,
                constant,
                rel,
                rhs,
                mode,
            } => {
                let mut sum: i64 = (0..INTS)
                    .map(|i| i64::from(coeffs[i]) * i64::from(v[i]))
                    .sum();
                if let Some((a, c)) = constant {
                    sum += i64::from(*a) * i64::from(*c);
                }
                mode.holds(v, compare(LIN[*rel], sum, i64::from(*rhs)))
            }
            Con::Cmp { x, y, rel, mode } => {
                let y = match y {
                    Ok(j) => v[*j],
                    Err(c) => *c,
                };
                mode.holds(v, compare(CMP[*rel], i64::from(v[*x]), i64::from(y)))
            }
            Con::BoolRel { op, a, b: c, mode } => {
                let holds = compare(BOOL[*op], i64::from(v[INTS + a]), i64::from(v[INTS + c]));
                mode.holds(v, holds)
            }
            Con::BoolOp {
                and,
                a,
                b: c,
                r,
                imp,
            } => {
                let value = if *and { b(*a) && b(*c) } else { b(*a) || b(*c) };
                match imp {
                    true => !b(*r) || value,
                    false => b(*r) == value,
                }
            }
            Con::Clause { pos, neg, mode } => {
                let clause = pos.iter().any(|&i| b(i)) || neg.iter().any(|&i| !b(i));
                mode.holds(v, clause)
            }
            Con::ArrayBool { and, lits, r, imp } => {
                let value = match and {
                    true => lits.iter().all(|&i| b(i)),
                    false => lits.iter().any(|&i| b(i)),
                };
                match imp {
                    true => !b(*r) || value,
                    false => b(*r) == value,
                }
            }
            Con::ArrayXor { lits } => lits.iter().filter(|&&i| b(i)).count() % 2 == 1,
            Con::BoolLin { coeffs, eq, rhs } => {
                let sum: i64 = (0..BOOLS)
                    .map(|i| i64::from(coeffs[i]) * i64::from(v[INTS + i]))
                    .sum();
                match eq {
                    Some(x) => sum == i64::from(v[*x]),
                    None => sum <= i64::from(*rhs),
                }
            }
            Con::SetIn { x, set, mode } => mode.holds(v, set.contains(&v[*x])),
            Con::Arith { op, x, y, z } => {
                let (x, y, z) = (v[*x], v[*y], v[*z]);
                match ARITH[*op] {
                    "times" => x * y == z,
                    "min" => x.min(y) == z,
                    "max" => x.max(y) == z,
                    "plus" => x + y == z,
                    "div" => y != 0 && x / y == z,
                    "mod" => y != 0 && x % y == z,
                    _ => x.abs() == z,
                }
            }
            Con::Bool2Int { b: i, x } => v[INTS + i] == v[*x],
        }
    }
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Plain),
        (0..BOOLS).prop_map(Mode::Reif),
        (0..BOOLS).prop_map(Mode::Imp),
    ]
}

fn bools(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..BOOLS, 0..=max)
}

fn constraint() -> impl Strategy<Value = Con> {
    prop_oneof![
        (
            [-2..=2i32, -2..=2i32, -2..=2i32],
            prop::option::of((-2..=2i32, -2..=2i32)),
            0..3usize,
            -4..=4i32,
            mode()
        )
            .prop_map(|(coeffs, constant, rel, rhs, mode)| Con::Lin {
                coeffs,
                constant,
                rel,
                rhs,
                mode
            }),
        (
            0..INTS,
            prop_oneof![(0..INTS).prop_map(Ok), (-3..=3i32).prop_map(Err)],
            0..4usize,
            mode()
        )
            .prop_map(|(x, y, rel, mode)| Con::Cmp { x, y, rel, mode }),
        (0..4usize, 0..BOOLS, 0..BOOLS, mode()).prop_map(|(op, a, b, mode)| Con::BoolRel {
            op,
            a,
            b,
            mode
        }),
        (any::<bool>(), 0..BOOLS, 0..BOOLS, 0..BOOLS, any::<bool>())
            .prop_map(|(and, a, b, r, imp)| Con::BoolOp { and, a, b, r, imp }),
        (bools(2), bools(2), mode()).prop_map(|(pos, neg, mode)| Con::Clause { pos, neg, mode }),
        (any::<bool>(), bools(3), 0..BOOLS, any::<bool>())
            .prop_map(|(and, lits, r, imp)| Con::ArrayBool { and, lits, r, imp }),
        prop::collection::vec(0..BOOLS, 1..=3).prop_map(|lits| Con::ArrayXor { lits }),
        (
            [-2..=2i32, -2..=2i32, -2..=2i32],
            prop::option::of(0..INTS),
            -2..=3i32
        )
            .prop_map(|(coeffs, eq, rhs)| Con::BoolLin { coeffs, eq, rhs }),
        (
            0..INTS,
            prop::collection::btree_set(-3..=3i32, 0..4),
            mode()
        )
            .prop_map(|(x, set, mode)| Con::SetIn {
                x,
                set: set.into_iter().collect(),
                mode
            }),
        (0..ARITH.len(), 0..INTS, 0..INTS, 0..INTS).prop_map(|(op, x, y, z)| Con::Arith {
            op,
            x,
            y,
            z
        }),
        (0..BOOLS, 0..INTS).prop_map(|(b, x)| Con::Bool2Int { b, x }),
    ]
}

const VARIABLE: [&str; 9] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "most_constrained",
    "max_regret",
    "dom_w_deg",
];
const VALUE: [&str; 8] = [
    "indomain_min",
    "indomain_max",
    "indomain_middle",
    "indomain_median",
    "indomain_split",
    "indomain_reverse_split",
    "indomain_interval",
    "indomain_random",
];

#[derive(Clone, Debug)]
struct Case {
    /// Each integer variable's domain `lo..=hi`.
    ranges: [(i32, i32); INTS],
    constraints: Vec<Con>,
    /// The variable and value selections of the integer and the Boolean phase.
    search: [(usize, usize); 2],
}

fn case() -> impl Strategy<Value = Case> {
    (
        [
            (-2..=0i32, 0..=3i32),
            (-2..=0i32, 0..=3i32),
            (-2..=0i32, 0..=3i32),
        ],
        prop::collection::vec(constraint(), 1..=4),
        [
            (0..VARIABLE.len(), 0..VALUE.len()),
            (0..VARIABLE.len(), 0..VALUE.len()),
        ],
    )
        .prop_map(|(ranges, constraints, search)| Case {
            ranges: ranges.map(|(lo, width)| (lo, lo + width)),
            constraints,
            search,
        })
}

impl Case {
    fn text(&self) -> String {
        let mut text = String::new();
        for (i, (lo, hi)) in self.ranges.iter().enumerate() {
            text += &format!("var {lo}..{hi}: x{i} :: output_var;\n");
        }
        for i in 0..BOOLS {
            text += &format!("var bool: b{i} :: output_var;\n");
        }
        for constraint in &self.constraints {
            text += &format!("constraint {};\n", constraint.text());
        }
        let [(xv, xd), (bv, bd)] = self.search;
        text += &format!(
            "solve :: seq_search([int_search({}, {}, {}, complete), \
             bool_search({}, {}, {}, complete)]) satisfy;\n",
            list(&[0, 1, 2], "x"),
            VARIABLE[xv],
            VALUE[xd],
            list(&[0, 1, 2], "b"),
            VARIABLE[bv],
            VALUE[bd],
        );
        text
    }

    fn domains(&self) -> Vec<Vec<i32>> {
        let mut domains: Vec<Vec<i32>> = self
            .ranges
            .iter()
            .map(|&(lo, hi)| (lo..=hi).collect())
            .collect();
        domains.extend([vec![0, 1], vec![0, 1], vec![0, 1]]);
        domains
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_flatzinc_has_the_brute_force_solutions(case in case(), seed in 0..4u64) {
        let text = case.text();
        let problem = FlatZincModel::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let names: Vec<String> = (0..INTS)
            .map(|i| format!("x{i}"))
            .chain((0..BOOLS).map(|i| format!("b{i}")))
            .collect();
        let vars: Vec<_> = names.iter().map(|n| problem.var(n).unwrap()).collect();
        let mut found = BTreeSet::new();
        let mut count = 0;
        let options = RunOptions { all: true, seed: Some(seed), ..RunOptions::default() };
        let outcome = flatzinc::run(&problem, &options, &mut (), |solution, _| {
            count += 1;
            found.insert(vars.iter().map(|&v| solution[v]).collect::<Vec<i32>>());
        });
        let expected = common::brute_force(&case.domains(), &|v| {
            case.constraints.iter().all(|c| c.holds(v))
        });
        prop_assert_eq!(&found, &expected, "{}", text);
        prop_assert_eq!(count, expected.len(), "a solution reported twice\n{}", text);
        let status = if expected.is_empty() { RunStatus::Unsatisfiable } else { RunStatus::Complete };
        prop_assert_eq!(outcome.status, status);
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
            let options = RunOptions { all: true, ..RunOptions::default() };
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

/// A variable defined as another plus a constant, `int_lin_eq([a, -a], [base, y], c)
/// :: defines_var(y)` (or with the two swapped in the array), declared with `domain`
/// (`None`: `var int`), after its base or (`first`) before every other variable.
#[derive(Clone, Debug)]
struct Defined {
    /// Index into the variables declared before it (`x0..x2`, then earlier `y`s).
    base: usize,
    a: i32,
    swapped: bool,
    c: i32,
    domain: Option<(i32, i32)>,
    first: bool,
}

/// A constraint over `x0..x2` and the defined `y`s (indices into their values).
#[derive(Clone, Debug)]
enum OffsetCon {
    AllDifferent(Vec<usize>),
    LinLe(i32, usize, i32, usize, i32),
    Maximum(usize, usize, usize),
    Times(usize, usize, usize),
    Ne(usize, usize),
}

const DEFINED: usize = 2;

fn defined(index: usize) -> impl Strategy<Value = Defined> {
    (
        0..INTS + index,
        prop_oneof![Just(1), Just(-1)],
        any::<bool>(),
        -3..=3i32,
        prop::option::weighted(0.7, (-5..=1i32, 0..=6i32)),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(base, a, swapped, c, domain, first)| Defined {
            base,
            a,
            swapped,
            c,
            domain: domain.map(|(lo, width)| (lo, lo + width)),
            first,
        })
}

fn offset_con() -> impl Strategy<Value = OffsetCon> {
    let var = 0..INTS + DEFINED;
    prop_oneof![
        prop::collection::vec(var.clone(), 2..=4).prop_map(OffsetCon::AllDifferent),
        (-2..=2i32, var.clone(), -2..=2i32, var.clone(), -3..=6i32)
            .prop_map(|(a, x, b, y, r)| OffsetCon::LinLe(a, x, b, y, r)),
        (var.clone(), var.clone(), var.clone()).prop_map(|(m, x, y)| OffsetCon::Maximum(m, x, y)),
        (var.clone(), var.clone(), var.clone()).prop_map(|(x, y, z)| OffsetCon::Times(x, y, z)),
        (var.clone(), var).prop_map(|(x, y)| OffsetCon::Ne(x, y)),
    ]
}

fn name(i: usize) -> String {
    match i < INTS {
        true => format!("x{i}"),
        false => format!("y{}", i - INTS),
    }
}

impl OffsetCon {
    fn text(&self) -> String {
        match self {
            OffsetCon::AllDifferent(vars) => {
                let names: Vec<String> = vars.iter().map(|&i| name(i)).collect();
                format!("fzn_all_different_int([{}])", names.join(", "))
            }
            OffsetCon::LinLe(a, x, b, y, r) => {
                format!("int_lin_le([{a}, {b}], [{}, {}], {r})", name(*x), name(*y))
            }
            OffsetCon::Maximum(m, x, y) => {
                format!(
                    "array_int_maximum({}, [{}, {}])",
                    name(*m),
                    name(*x),
                    name(*y)
                )
            }
            OffsetCon::Times(x, y, z) => {
                format!("int_times({}, {}, {})", name(*x), name(*y), name(*z))
            }
            OffsetCon::Ne(x, y) => format!("int_ne({}, {})", name(*x), name(*y)),
        }
    }

    fn holds(&self, v: &[i32]) -> bool {
        match self {
            OffsetCon::AllDifferent(vars) => {
                let values: BTreeSet<i32> = vars.iter().map(|&i| v[i]).collect();
                values.len() == vars.len()
            }
            OffsetCon::LinLe(a, x, b, y, r) => a * v[*x] + b * v[*y] <= *r,
            OffsetCon::Maximum(m, x, y) => v[*m] == v[*x].max(v[*y]),
            OffsetCon::Times(x, y, z) => v[*x] * v[*y] == v[*z],
            OffsetCon::Ne(x, y) => v[*x] != v[*y],
        }
    }
}

#[derive(Clone, Debug)]
struct OffsetCase {
    ranges: [(i32, i32); INTS],
    defined: [Defined; DEFINED],
    constraints: Vec<OffsetCon>,
    /// The variable and value selections, and whether the search names the `y`s too.
    search: (usize, usize, bool),
}

fn offset_case() -> impl Strategy<Value = OffsetCase> {
    (
        [
            (-2..=0i32, 0..=3i32),
            (-2..=0i32, 0..=3i32),
            (-2..=0i32, 0..=3i32),
        ],
        (defined(0), defined(1)),
        prop::collection::vec(offset_con(), 0..=3),
        (0..VARIABLE.len(), 0..VALUE.len(), any::<bool>()),
    )
        .prop_map(|(ranges, (d0, d1), constraints, search)| OffsetCase {
            ranges: ranges.map(|(lo, width)| (lo, lo + width)),
            defined: [d0, d1],
            constraints,
            search,
        })
}

impl OffsetCase {
    fn text(&self) -> String {
        let declare = |j: usize, d: &Defined| match d.domain {
            Some((lo, hi)) => format!("var {lo}..{hi}: y{j} :: output_var;\n"),
            None => format!("var int: y{j} :: output_var;\n"),
        };
        let mut text = String::new();
        for (j, d) in self.defined.iter().enumerate() {
            if d.first {
                text += &declare(j, d);
            }
        }
        for (i, (lo, hi)) in self.ranges.iter().enumerate() {
            text += &format!("var {lo}..{hi}: x{i} :: output_var;\n");
        }
        for (j, d) in self.defined.iter().enumerate() {
            if !d.first {
                text += &declare(j, d);
            }
        }
        for (j, d) in self.defined.iter().enumerate() {
            let (base, y) = (name(d.base), format!("y{j}"));
            let (a, c) = (d.a, d.c);
            let (vars, coefficients) = match d.swapped {
                false => (format!("[{base}, {y}]"), format!("[{a}, {}]", -a)),
                true => (format!("[{y}, {base}]"), format!("[{}, {a}]", -a)),
            };
            text += &format!(
                "constraint int_lin_eq({coefficients}, {vars}, {c}) :: defines_var({y});\n"
            );
        }
        for constraint in &self.constraints {
            text += &format!("constraint {};\n", constraint.text());
        }
        let (variable, value, all) = self.search;
        let searched: Vec<String> = (0..if all { INTS + DEFINED } else { INTS })
            .map(name)
            .collect();
        text += &format!(
            "solve :: int_search([{}], {}, {}, complete) satisfy;\n",
            searched.join(", "),
            VARIABLE[variable],
            VALUE[value]
        );
        text
    }

    /// The printed solutions brute force finds: every `x`, each `y` from its base
    /// (`a·base - a·y = c`), in the declared domains.
    fn expected(&self) -> BTreeSet<String> {
        let domains: Vec<Vec<i32>> = self
            .ranges
            .iter()
            .map(|&(lo, hi)| (lo..=hi).collect())
            .collect();
        let xs = common::brute_force(&domains, &|_| true);
        let mut printed = BTreeSet::new();
        for x in xs {
            let mut v = x.clone();
            for d in &self.defined {
                // a·base - a·y = c: y = base - c / a (a = ±1).
                v.push(v[d.base] - d.c * d.a);
            }
            let fits = self
                .defined
                .iter()
                .enumerate()
                .all(|(j, d)| match d.domain {
                    Some((lo, hi)) => (lo..=hi).contains(&v[INTS + j]),
                    None => true,
                });
            if !fits || !self.constraints.iter().all(|c| c.holds(&v)) {
                continue;
            }
            let mut order: Vec<usize> = (0..DEFINED)
                .filter(|&j| self.defined[j].first)
                .map(|j| INTS + j)
                .collect();
            order.extend(0..INTS);
            order.extend(
                (0..DEFINED)
                    .filter(|&j| !self.defined[j].first)
                    .map(|j| INTS + j),
            );
            let text: String = order
                .iter()
                .map(|&i| format!("{} = {};\n", name(i), v[i]))
                .collect();
            printed.insert(text);
        }
        printed
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Variables that `int_lin_eq ... :: defines_var` makes another plus a constant (views
    /// of it, when declared after it) have the brute-force solutions, under any search.
    #[test]
    fn offset_variables_have_the_brute_force_solutions(case in offset_case()) {
        let text = case.text();
        let problem = FlatZincModel::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let mut found = BTreeSet::new();
        let mut count = 0;
        let options = RunOptions { all: true, ..RunOptions::default() };
        let outcome = flatzinc::run(&problem, &options, &mut (), |solution, _| {
            count += 1;
            found.insert(problem.format_solution(solution));
        });
        let expected = case.expected();
        prop_assert_eq!(&found, &expected, "{}", text);
        prop_assert_eq!(count, expected.len(), "a solution reported twice\n{}", text);
        let status = if expected.is_empty() { RunStatus::Unsatisfiable } else { RunStatus::Complete };
        // A `var int` declared before its base is clamped: no proof claimed then.
        prop_assert_eq!(outcome.status, status.of(&problem));
    }
}
