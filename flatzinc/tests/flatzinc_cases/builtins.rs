//! Random FlatZinc over the integer and Boolean builtins (`int_lin_*`, `int_*`
//! comparisons, their `_reif` and `_imp` forms, `bool_*`, clauses, `array_bool_*`,
//! `bool_lin_*`, `set_in*`, arithmetic, `bool2int`) and `fzn_all_different_int` under
//! each of its annotations, with a seeded search over every variable and value
//! selection, and what brute force says of it.

use proptest::prelude::*;

use super::{STRENGTH, VALUE, VARIABLE, constant_in, list, set};
use crate::common::constants::case_window;
use crate::common::edges::{Window, domain_in};

pub const INTS: usize = 3;
pub const BOOLS: usize = 3;

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
    /// `int_lin_{eq,ne,le}`, with a constant term inside the array when `constant`;
    /// the right-hand side may lie beyond `i32` (FlatZinc's integers are wider).
    Lin {
        coeffs: [i32; INTS],
        constant: Option<(i32, i32)>,
        rel: usize,
        rhs: i64,
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
    /// `fzn_all_different_int(xs)` with the annotation `STRENGTH[strength]`.
    AllDifferent {
        xs: Vec<usize>,
        strength: usize,
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
            Con::AllDifferent { xs, strength } => {
                format!(
                    "fzn_all_different_int({}){}",
                    list(xs, "x"),
                    STRENGTH[*strength]
                )
            }
        }
    }

    /// Whether the model may refuse this constraint, given each integer's declared
    /// `bounds`: a sum whose right-hand side, its constant folded in, lies beyond 32
    /// bits while its terms reach across nearly 2^31 values or more, so that no shift
    /// of them brings it within 32 bits (the engine's sums take a 32-bit one).
    fn may_refuse(&self, bounds: &[(i64, i64)]) -> bool {
        let Con::Lin {
            coeffs,
            constant,
            rhs,
            ..
        } = self
        else {
            return false;
        };
        let folded = rhs - constant.map_or(0, |(a, c)| i64::from(a) * i64::from(c));
        let reach: i64 = (coeffs.iter().zip(bounds))
            .map(|(&a, &(low, high))| i64::from(a).abs() * (high - low))
            .sum();
        i32::try_from(folded).is_err() && reach > i64::from(i32::MAX) - 16
    }

    /// Whether the constraint holds for the values `v`, computed in `i64`: a sum,
    /// product or quotient of values at the ends of `i32` does not wrap.
    fn holds(&self, v: &[i32]) -> bool {
        let b = |i: usize| v[INTS + i] != 0;
        let int = |i: usize| i64::from(v[i]);
        match self {
            Con::Lin {
                coeffs,
                constant,
                rel,
                rhs,
                mode,
            } => {
                let mut sum: i64 = (0..INTS).map(|i| i64::from(coeffs[i]) * int(i)).sum();
                if let Some((a, c)) = constant {
                    sum += i64::from(*a) * i64::from(*c);
                }
                mode.holds(v, compare(LIN[*rel], sum, *rhs))
            }
            Con::Cmp { x, y, rel, mode } => {
                let y = match y {
                    Ok(j) => int(*j),
                    Err(c) => i64::from(*c),
                };
                mode.holds(v, compare(CMP[*rel], int(*x), y))
            }
            Con::BoolRel { op, a, b: c, mode } => {
                let holds = compare(BOOL[*op], int(INTS + a), int(INTS + c));
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
                    .map(|i| i64::from(coeffs[i]) * int(INTS + i))
                    .sum();
                match eq {
                    Some(x) => sum == int(*x),
                    None => sum <= i64::from(*rhs),
                }
            }
            Con::SetIn { x, set, mode } => mode.holds(v, set.contains(&v[*x])),
            Con::Arith { op, x, y, z } => {
                let (x, y, z) = (int(*x), int(*y), int(*z));
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
            Con::AllDifferent { xs, .. } => {
                let values: std::collections::BTreeSet<i32> = xs.iter().map(|&i| v[i]).collect();
                values.len() == xs.len()
            }
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

/// A linear constraint over the integers of `domains` (in `window`), whose right-hand
/// side is mostly the sum at some assignment moved by a little, so that `eq` has
/// solutions wherever the window lies.
fn linear(window: Window, domains: Vec<Vec<i32>>) -> BoxedStrategy<Con> {
    let coeffs = [-3..=3i32, -3..=3i32, -3..=3i32];
    let constant = prop::option::of((-3..=3i32, constant_in(window)));
    (coeffs, constant, 0..LIN.len(), mode())
        .prop_flat_map(move |(coeffs, constant, rel, mode)| {
            let domains = domains.clone();
            let reached = (
                prop::collection::vec(any::<prop::sample::Index>(), INTS),
                -2..=2i64,
            )
                .prop_map(move |(picks, delta)| {
                    let sum: i64 = (0..INTS)
                        .map(|i| i64::from(coeffs[i]) * i64::from(*picks[i].get(&domains[i])))
                        .sum();
                    let constant = constant.map_or(0, |(a, c)| i64::from(a) * i64::from(c));
                    sum + constant + delta
                });
            let rhs = prop_oneof![3 => reached, 1 => constant_in(window).prop_map(i64::from)];
            rhs.prop_map(move |rhs| Con::Lin {
                coeffs,
                constant,
                rel,
                rhs,
                mode,
            })
        })
        .boxed()
}

/// Any constraint over integers with `domains` in `window`, and the Booleans.
fn constraint(window: Window, domains: Vec<Vec<i32>>) -> BoxedStrategy<Con> {
    let values: Vec<i32> = domains.iter().flatten().copied().collect();
    let set_value = prop_oneof![constant_in(window), prop::sample::select(values)];
    prop_oneof![
        linear(window, domains),
        (
            0..INTS,
            prop_oneof![(0..INTS).prop_map(Ok), constant_in(window).prop_map(Err)],
            0..CMP.len(),
            mode()
        )
            .prop_map(|(x, y, rel, mode)| Con::Cmp { x, y, rel, mode }),
        (0..BOOL.len(), 0..BOOLS, 0..BOOLS, mode()).prop_map(|(op, a, b, mode)| Con::BoolRel {
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
            prop::collection::btree_set(set_value, 0..4),
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
        (prop::collection::vec(0..INTS, 2..=3), 0..STRENGTH.len())
            .prop_map(|(xs, strength)| Con::AllDifferent { xs, strength }),
    ]
    .boxed()
}

/// A random FlatZinc model over three integers and three Booleans.
#[derive(Clone, Debug)]
pub struct Case {
    /// The values each integer may take.
    domains: Vec<Vec<i32>>,
    /// For an integer declared wider than its values, the declared range: a
    /// `set_in` then gives its values (a wide domain narrowed by a constraint).
    declared: Vec<Option<(i32, i32)>>,
    constraints: Vec<Con>,
    /// The variable and value selections of the integer and the Boolean phase.
    search: [(usize, usize); 2],
}

/// A range around `values` reaching `slack` further each way (within `i32`).
fn widened(values: &[i32], slack: i64) -> (i32, i32) {
    let clamp = |v: i64| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
    let (low, high) = (values[0], values[values.len() - 1]);
    (
        clamp(i64::from(low) - slack),
        clamp(i64::from(high) + slack),
    )
}

/// Three integers of up to 4 values of one window; now and then, where the values
/// span at most a few thousand, one is declared over a range a word wider (a bitset)
/// or 2^14 values wider (an interval with holes) each way; 1 to 4 constraints. Not
/// wider: an interval keeps more than 2^16 values a constraint rules out for the
/// search to try one at a time (`PUNCH_LIMIT` in `src/propagator/support.rs`), which
/// `indomain_middle` and `indomain_random` then do.
pub fn case() -> impl Strategy<Value = Case> {
    let slack = prop_oneof![Just(70i64), Just(1 << 14)];
    let declared = prop::collection::vec(prop::option::weighted(0.15, slack), INTS);
    (
        case_window(),
        declared,
        [
            (0..VARIABLE.len(), 0..VALUE.len()),
            (0..VARIABLE.len(), 0..VALUE.len()),
        ],
    )
        .prop_flat_map(|(window, slacks, search)| {
            prop::collection::vec(domain_in(window, 4), INTS).prop_flat_map(move |domains| {
                let declared: Vec<Option<(i32, i32)>> = (domains.iter().zip(&slacks))
                    .map(|(values, slack)| {
                        let span = i64::from(values[values.len() - 1]) - i64::from(values[0]);
                        slack.filter(|_| span <= 4200).map(|s| widened(values, s))
                    })
                    .collect();
                let constraints = prop::collection::vec(constraint(window, domains.clone()), 1..=4);
                let domains = domains.clone();
                constraints.prop_map(move |constraints| Case {
                    domains: domains.clone(),
                    declared: declared.clone(),
                    constraints,
                    search,
                })
            })
        })
}

impl Case {
    pub fn text(&self) -> String {
        let mut text = String::new();
        for (i, values) in self.domains.iter().enumerate() {
            let domain = match self.declared[i] {
                Some((low, high)) => format!("{low}..{high}"),
                None => set(values),
            };
            text += &format!("var {domain}: x{i} :: output_var;\n");
        }
        for i in 0..BOOLS {
            text += &format!("var bool: b{i} :: output_var;\n");
        }
        for (i, values) in self.domains.iter().enumerate() {
            if self.declared[i].is_some() {
                text += &format!("constraint set_in(x{i}, {});\n", set(values));
            }
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

    /// The names of the variables, integers first, in the order of [`Case::domains`].
    pub fn names() -> Vec<String> {
        (0..INTS)
            .map(|i| format!("x{i}"))
            .chain((0..BOOLS).map(|i| format!("b{i}")))
            .collect()
    }

    /// Whether the model may be refused (see [`Con::may_refuse`]).
    pub fn may_refuse(&self) -> bool {
        let bounds: Vec<(i64, i64)> = (self.domains.iter().zip(&self.declared))
            .map(|(values, declared)| {
                let (low, high) = declared.unwrap_or((values[0], values[values.len() - 1]));
                (i64::from(low), i64::from(high))
            })
            .collect();
        self.constraints.iter().any(|c| c.may_refuse(&bounds))
    }

    /// Every assignment of the integers' values and the Booleans that satisfies
    /// every constraint.
    pub fn brute_force(&self) -> std::collections::BTreeSet<Vec<i32>> {
        let mut domains = self.domains.clone();
        domains.extend([vec![0, 1], vec![0, 1], vec![0, 1]]);
        crate::common::brute_force(&domains, &|v| self.constraints.iter().all(|c| c.holds(v)))
    }
}
