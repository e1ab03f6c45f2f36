//! Random FlatZinc where `int_lin_eq([a, -a], [base, y], c) :: defines_var(y)` makes
//! `y` another variable plus a constant (a view of it, when declared after it and the
//! view fits `i32`), under all-different at each annotation, sums, maxima, products
//! and `!=`, and the solutions brute force prints for it.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::{STRENGTH, VALUE, VARIABLE, constant_in, set};
use crate::common::constants::{case_window, offset_in};
use crate::common::edges::{Window, domain_in, value_in};

const INTS: usize = 3;
const DEFINED: usize = 2;

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
    domain: Option<Vec<i32>>,
    first: bool,
}

impl Defined {
    /// `y` for the value of its base: `a·base - a·y = c`, so `y = base - a·c`
    /// (`a = ±1`), in `i64`.
    fn value(&self, base: i64) -> i64 {
        base - i64::from(self.a) * i64::from(self.c)
    }
}

/// A constraint over `x0..x2` and the defined `y`s (indices into their values).
#[derive(Clone, Debug)]
enum OffsetCon {
    /// `fzn_all_different_int` with the annotation `STRENGTH[.1]`.
    AllDifferent(Vec<usize>, usize),
    LinLe(i32, usize, i32, usize, i32),
    Maximum(usize, usize, usize),
    Times(usize, usize, usize),
    Ne(usize, usize),
}

/// The `index`-th defined variable in a case over `window` whose integers have
/// `domains`: its constant moves its base's values by a little, a word, back to near
/// zero or towards (and past) an end of `i32` (see `offset_in`); its declared domain
/// holds values of the window, or mostly some of an integer's values moved by that
/// constant (its base's, for a base that is an integer), and one value of the window.
fn defined(window: Window, index: usize, domains: Vec<Vec<i32>>) -> BoxedStrategy<Defined> {
    (
        0..INTS + index,
        prop_oneof![Just(1), Just(-1)],
        any::<bool>(),
        prop_oneof![3 => -3..=3i32, 2 => offset_in(window)],
        prop::bool::weighted(0.2),
    )
        .prop_flat_map(move |(base, a, swapped, c, first)| {
            let values = domains[base % INTS].clone();
            let moved = (any::<u8>(), any::<u8>(), value_in(window)).prop_map(
                move |(a_bits, b_bits, extra)| {
                    // Three values in four are kept.
                    let keep = a_bits | b_bits;
                    let clamp = |v: i64| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
                    let shift = -i64::from(a) * i64::from(c);
                    let kept = (values.iter().enumerate())
                        .filter(|&(i, _)| keep >> (i % 8) & 1 == 1)
                        .map(|(_, &v)| clamp(i64::from(v) + shift));
                    let mut moved: Vec<i32> = kept.chain([extra]).collect();
                    moved.sort_unstable();
                    moved.dedup();
                    moved
                },
            );
            let domain = prop_oneof![1 => domain_in(window, 6), 4 => moved];
            prop::option::weighted(0.7, domain).prop_map(move |domain| Defined {
                base,
                a,
                swapped,
                c,
                domain,
                first,
            })
        })
        .boxed()
}

/// The variables of an all-different: mostly distinct, now and then one twice (no
/// solution then).
fn all_different_vars() -> impl Strategy<Value = Vec<usize>> {
    let var = 0..INTS + DEFINED;
    prop_oneof![
        3 => prop::collection::btree_set(var.clone(), 2..=4).prop_map(|s| s.into_iter().collect()),
        1 => prop::collection::vec(var, 2..=4),
    ]
}

fn offset_con(window: Window) -> BoxedStrategy<OffsetCon> {
    let var = 0..INTS + DEFINED;
    prop_oneof![
        3 => (all_different_vars(), 0..STRENGTH.len())
            .prop_map(|(vars, strength)| OffsetCon::AllDifferent(vars, strength)),
        2 => (
            -2..=2i32,
            var.clone(),
            -2..=2i32,
            var.clone(),
            constant_in(window)
        )
            .prop_map(|(a, x, b, y, r)| OffsetCon::LinLe(a, x, b, y, r)),
        1 => (var.clone(), var.clone(), var.clone())
            .prop_map(|(m, x, y)| OffsetCon::Maximum(m, x, y)),
        1 => (var.clone(), var.clone(), var.clone())
            .prop_map(|(x, y, z)| OffsetCon::Times(x, y, z)),
        2 => (var.clone(), var).prop_map(|(x, y)| OffsetCon::Ne(x, y)),
    ]
    .boxed()
}

fn name(i: usize) -> String {
    match i < INTS {
        true => format!("x{i}"),
        false => format!("y{}", i - INTS),
    }
}

impl OffsetCon {
    fn text(&self) -> String {
        let names = |vars: &[usize]| vars.iter().map(|&i| name(i)).collect::<Vec<_>>();
        match self {
            OffsetCon::AllDifferent(vars, strength) => format!(
                "fzn_all_different_int([{}]){}",
                names(vars).join(", "),
                STRENGTH[*strength]
            ),
            OffsetCon::LinLe(a, x, b, y, r) => {
                format!("int_lin_le([{a}, {b}], [{}, {}], {r})", name(*x), name(*y))
            }
            OffsetCon::Maximum(m, x, y) => {
                let (m, xs) = (name(*m), names(&[*x, *y]).join(", "));
                format!("array_int_maximum({m}, [{xs}])")
            }
            OffsetCon::Times(x, y, z) => {
                format!("int_times({})", names(&[*x, *y, *z]).join(", "))
            }
            OffsetCon::Ne(x, y) => format!("int_ne({}, {})", name(*x), name(*y)),
        }
    }

    /// Whether the constraint holds for the values `v`, computed in `i64`.
    fn holds(&self, v: &[i64]) -> bool {
        match self {
            OffsetCon::AllDifferent(vars, _) => {
                let values: BTreeSet<i64> = vars.iter().map(|&i| v[i]).collect();
                values.len() == vars.len()
            }
            OffsetCon::LinLe(a, x, b, y, r) => {
                i64::from(*a) * v[*x] + i64::from(*b) * v[*y] <= i64::from(*r)
            }
            OffsetCon::Maximum(m, x, y) => v[*m] == v[*x].max(v[*y]),
            OffsetCon::Times(x, y, z) => v[*x] * v[*y] == v[*z],
            OffsetCon::Ne(x, y) => v[*x] != v[*y],
        }
    }
}

/// Three integers of up to 4 values of one window, two variables defined from them,
/// and up to three constraints over all five.
#[derive(Clone, Debug)]
pub struct OffsetCase {
    domains: Vec<Vec<i32>>,
    defined: [Defined; DEFINED],
    constraints: Vec<OffsetCon>,
    /// The variable and value selections, and whether the search names the `y`s too.
    search: (usize, usize, bool),
}

pub fn offset_case() -> impl Strategy<Value = OffsetCase> {
    case_window().prop_flat_map(|window| {
        prop::collection::vec(domain_in(window, 4), INTS).prop_flat_map(move |domains| {
            (
                defined(window, 0, domains.clone()),
                defined(window, 1, domains.clone()),
                prop::collection::vec(offset_con(window), 0..=3),
                (0..VARIABLE.len(), 0..VALUE.len(), any::<bool>()),
            )
                .prop_map(move |(d0, d1, constraints, search)| OffsetCase {
                    domains: domains.clone(),
                    defined: [d0, d1],
                    constraints,
                    search,
                })
        })
    })
}

impl OffsetCase {
    pub fn text(&self) -> String {
        let declare = |j: usize, d: &Defined| match &d.domain {
            Some(values) => format!("var {}: y{j} :: output_var;\n", set(values)),
            None => format!("var int: y{j} :: output_var;\n"),
        };
        let mut text = String::new();
        for (j, d) in self.defined.iter().enumerate() {
            if d.first {
                text += &declare(j, d);
            }
        }
        for (i, values) in self.domains.iter().enumerate() {
            text += &format!("var {}: x{i} :: output_var;\n", set(values));
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
        let searched: Vec<usize> = (0..if all { INTS + DEFINED } else { INTS }).collect();
        let searched: Vec<String> = searched.into_iter().map(name).collect();
        text += &format!(
            "solve :: int_search([{}], {}, {}, complete) satisfy;\n",
            searched.join(", "),
            VARIABLE[variable],
            VALUE[value]
        );
        text
    }

    /// The printed solutions brute force finds: every `x`, each `y` from its base, in
    /// its declared domain, or for a `var int`, anywhere in `i32` (`unbounded`) or
    /// within `bound` of zero (where a `var int` that is no view is clamped).
    pub fn expected(&self, bound: Option<i64>) -> BTreeSet<String> {
        let xs = crate::common::brute_force(&self.domains, &|_| true);
        let mut printed = BTreeSet::new();
        for x in xs {
            let mut v: Vec<i64> = x.iter().map(|&value| i64::from(value)).collect();
            for d in &self.defined {
                v.push(d.value(v[d.base]));
            }
            let fits = self.defined.iter().enumerate().all(|(j, d)| {
                let y = v[INTS + j];
                match &d.domain {
                    Some(values) => values.iter().any(|&value| i64::from(value) == y),
                    None => match bound {
                        Some(bound) => y.abs() <= bound,
                        None => i32::try_from(y).is_ok(),
                    },
                }
            });
            if !fits || !self.constraints.iter().all(|c| c.holds(&v)) {
                continue;
            }
            let declared = |first: bool| {
                (0..DEFINED)
                    .filter(move |&j| self.defined[j].first == first)
                    .map(|j| INTS + j)
            };
            let order = declared(true).chain(0..INTS).chain(declared(false));
            let text: String = order
                .map(|i| format!("{} = {};\n", name(i), v[i]))
                .collect();
            printed.insert(text);
        }
        printed
    }
}
