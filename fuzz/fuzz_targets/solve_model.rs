//! Random small models over every constraint of the library, solved and checked
//! against a brute-force oracle.
//!
//! The fuzzer's bytes give a few variables (small sets of values, some far apart up
//! to the ends of `i32`, intervals near those ends, Booleans), a few constraints over
//! views of them, the search's orders, phases and restarts, and perhaps an
//! objective. Building never panics: a part the library refuses is a typed
//! [`ModelError`], and the oracle then leaves that constraint out. The oracle knows
//! each constraint by its meaning, written here independently of the propagators,
//! and enumerates every assignment of the variables (at most [`MAX_ASSIGNMENTS`]).
//! The solver must then
//!
//! - enumerate exactly the oracle's solutions, each once, whatever the orders;
//! - find one of them with [`Solver::solve`] (under restarts too), or prove there is
//!   none when the oracle has none;
//! - when optimising, report only strictly improving solutions of the oracle's and
//!   end with the oracle's optimum.
#![no_main]

use alldiff::constraints::{AllDifferentSystem, LockedCandidates};
use alldiff::{
    Condition, Literal, Model, ModelError, OptimizeOutcome, Outcome, Phase, Relation, Restarts,
    SearchConfig, Solver, Strength, ValueOrder, VarId, VariableOrder, View,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "solve_model/oracle.rs"]
mod oracle;

use oracle::{Assignment, Check, Cmp, Count, Op};

/// The most assignments of all the variables the oracle enumerates: a variable whose
/// domain would take the product past it is not created.
const MAX_ASSIGNMENTS: usize = 4096;

/// Values far apart: the ends of `i32`, the edges of 64-value windows, the largest
/// squares that fit.
const FAR: [i32; 16] = [
    i32::MIN,
    i32::MIN + 1,
    i32::MIN + 2,
    -1_000_000,
    -46_341,
    -65,
    -64,
    63,
    64,
    65,
    127,
    46_340,
    1 << 30,
    i32::MAX - 2,
    i32::MAX - 1,
    i32::MAX,
];

/// Where a case's window lies, from its two bytes: near zero, on either side of a
/// multiple of 64 (negative ones too), a million away, or against either end of `i32`.
fn window_low((selector, shift): (u8, i8)) -> i32 {
    let k = i32::from(selector / 8 % 9) - 4;
    let d = i32::from(shift) % 4;
    match selector % 8 {
        0 => d,
        1..=3 => 64 * k + d,
        4 => i32::MIN + d.abs(),
        5 => i32::MAX - WINDOW_SPAN - d.abs(),
        6 => (1 << 20) + 64 * k + d,
        _ => -(1 << 20) + 64 * k + d,
    }
}

/// How far past its low end a window's values go: two 64-value words and a bit.
const WINDOW_SPAN: i32 = 130;

/// An offset into the window from 6 bits: 0-11, 56-75 (both sides of the first word
/// boundary), 118-130 (of the second, and the window's end), or every eighth value.
fn window_offset(k: u8) -> i32 {
    let k = i32::from(k % 64);
    match k {
        0..12 => k,
        12..32 => 56 + (k - 12),
        32..45 => 118 + (k - 32),
        _ => (k - 45) * 7,
    }
}

/// The values a case draws from: near zero, in its window, or far apart.
#[derive(Clone, Copy, Debug)]
struct Values {
    /// The window's lowest value.
    low: i32,
}

impl Values {
    /// A value from a byte: small (`-12..=12`) for half the bytes, in the window for a
    /// quarter, else far.
    fn value(self, raw: i8) -> i32 {
        match raw {
            -64..64 => i32::from(raw) % 13,
            64.. => self.low + window_offset(raw as u8),
            _ => FAR[usize::from(raw as u8) % FAR.len()],
        }
    }

    /// A small number (`-4..=4`, for offsets, coefficients, counts, durations) for
    /// most bytes, a shift of the window down to zero (so that views `x - low` reach
    /// indices from anywhere) for a few, else a far value.
    fn small(self, raw: i8) -> i32 {
        match raw {
            -96..96 => i32::from(raw) % 5,
            96..104 => (i32::from(raw) - 100).saturating_sub(self.low),
            _ => FAR[usize::from(raw as u8) % FAR.len()],
        }
    }
}

/// A variable's index and the view's offset.
type RawView = (u8, i8);
/// A variable's index and whether the literal is negated.
type RawLiteral = (u8, bool);

#[derive(Arbitrary, Debug)]
enum RawDomain {
    /// Up to five values.
    Values(Vec<i8>),
    /// An interval from a value: up to 6 values, 64 to 95 (past one word), or 120
    /// to 130 (past two).
    Range(i8, u8),
    /// `{0, 1}`, by `Model::bool_var`.
    Bool,
}

#[derive(Arbitrary, Debug)]
enum RawCondition {
    Compare(RawView, u8, i8),
    CompareViews(RawView, u8, RawView),
    InSet(RawView, Vec<i8>, bool),
    Linear(Vec<(i8, RawView)>, u8, i8),
}

#[derive(Arbitrary, Debug)]
enum Part {
    AllDifferent(Vec<RawView>, u8),
    /// Groups of variables, each all different, propagated together.
    System(Vec<Vec<u8>>, u8),
    Intersection(Vec<RawView>, Vec<RawView>),
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` between two views.
    Compare(RawView, u8, RawView),
    Linear(Vec<(i8, RawView)>, u8, i8),
    Element(Vec<i8>, RawView, RawView),
    Table(Vec<RawView>, Vec<[i8; 3]>),
    DifferenceIn(RawView, RawView, Vec<i8>),
    /// `times`, `div` or `modulo`.
    Arithmetic(u8, RawView, RawView, RawView),
    Abs(RawView, RawView),
    Power(RawView, u8, RawView),
    /// `maximum` if true, else `minimum`.
    Extremum(Vec<RawView>, RawView, bool),
    ElementVar(Vec<RawView>, RawView, RawView),
    /// `or`, `and` or `xor`.
    Logic(u8, Vec<RawLiteral>),
    Implies(RawLiteral, RawLiteral),
    /// `reify_and` if true, else `reify_or`.
    ReifyOr(RawLiteral, Vec<RawLiteral>, bool),
    /// `half_reify` if true, else `reify`.
    Reify(RawLiteral, RawCondition, bool),
    /// `subcircuit` if true, else `circuit`.
    Circuit(Vec<RawView>, i8, bool),
    Cardinality(Vec<RawView>, Vec<(i8, i8)>),
    CardinalityVars(Vec<RawView>, Vec<(i8, RawView)>),
    /// The pairs `(f[i], g[i])`, the offsets, and whether `g` loses its last view.
    Inverse(Vec<(RawView, RawView)>, i8, i8, bool),
    /// `lex_less` if true, else `lex_less_eq`.
    Lex(Vec<(RawView, RawView)>, bool),
    Disjunctive(Vec<(RawView, i8)>),
    Cumulative(Vec<(RawView, i8, i8)>, i8),
}

#[derive(Arbitrary, Debug)]
struct RawPhase {
    vars: Vec<u8>,
    variable_order: u8,
    value_order: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// Where the window of values lies (see [`window_low`]).
    window: (u8, i8),
    domains: Vec<RawDomain>,
    parts: Vec<Part>,
    variable_order: u8,
    value_order: u8,
    seed: u64,
    phases: Vec<RawPhase>,
    /// Luby if true, else geometric; the scale or first cutoff; the factor.
    restarts: Option<(bool, u8, u8)>,
    /// Maximise if true, else minimise.
    objective: Option<(RawView, bool)>,
    /// Variables that only complete a solution (those of no phase).
    auxiliary: Vec<u8>,
}

const RELATIONS: [Relation; 4] = [
    Relation::Equal,
    Relation::NotEqual,
    Relation::LessEq,
    Relation::GreaterEq,
];

fn relation(raw: u8) -> Relation {
    RELATIONS[usize::from(raw) % RELATIONS.len()]
}

fn variable_order(raw: u8) -> VariableOrder {
    [
        VariableOrder::InputOrder,
        VariableOrder::SmallestDomain,
        VariableOrder::DomOverWeightedDegree,
    ][usize::from(raw) % 3]
}

fn value_order(raw: u8, seed: u64) -> ValueOrder {
    [
        ValueOrder::Ascending,
        ValueOrder::Descending,
        ValueOrder::Random(seed),
        ValueOrder::Middle,
        ValueOrder::Median,
        ValueOrder::Split,
        ValueOrder::ReverseSplit,
        ValueOrder::Interval,
    ][usize::from(raw) % 8]
}

/// The model under construction, with its variables and their domains.
struct Builder {
    model: Model,
    vars: Vec<VarId>,
    domains: Vec<Vec<i64>>,
    /// Where the case's values lie.
    values: Values,
}

fn wide(values: &[i32]) -> Vec<i64> {
    values.iter().map(|&v| i64::from(v)).collect()
}

impl Builder {
    /// The variables of `domains` that keep the assignments within
    /// [`MAX_ASSIGNMENTS`], at most seven.
    fn new(domains: &[RawDomain], values: Values) -> Builder {
        let mut builder = Builder {
            model: Model::new(),
            vars: Vec::new(),
            domains: Vec::new(),
            values,
        };
        let mut assignments = 1;
        for raw in domains.iter().take(7) {
            let mut domain: Vec<i32> = match raw {
                RawDomain::Values(raw) => raw.iter().take(5).map(|&v| values.value(v)).collect(),
                RawDomain::Range(min, width) => {
                    let width = match *width {
                        224.. => width - 160,
                        200..224 => 120 + (width - 200) % 11,
                        _ => width % 6,
                    };
                    let min = values.value(*min);
                    (min..=min.saturating_add(i32::from(width))).collect()
                }
                RawDomain::Bool => vec![0, 1],
            };
            domain.sort_unstable();
            domain.dedup();
            if domain.is_empty() || assignments * domain.len() > MAX_ASSIGNMENTS {
                continue;
            }
            let var = match raw {
                RawDomain::Values(_) => builder.model.var_from_values(domain.iter().copied()),
                RawDomain::Range(..) => builder.model.int_var(domain[0], domain[domain.len() - 1]),
                RawDomain::Bool => builder.model.bool_var(),
            }
            .expect("a nonempty domain is a variable");
            assert_eq!(builder.model.domain(var).unwrap(), domain);
            assignments *= domain.len();
            builder.vars.push(var);
            builder.domains.push(wide(&domain));
        }
        builder
    }

    fn var(&self, raw: u8) -> VarId {
        self.vars[usize::from(raw) % self.vars.len()]
    }

    fn view(&self, (var, offset): RawView) -> View {
        self.var(var) + self.values.small(offset)
    }

    fn views(&self, raw: &[RawView], most: usize) -> Vec<View> {
        raw.iter().take(most).map(|&v| self.view(v)).collect()
    }

    fn literal(&self, (var, negated): RawLiteral) -> Literal {
        let literal = Literal::from(self.var(var));
        if negated { !literal } else { literal }
    }

    fn literals(&self, raw: &[RawLiteral]) -> Vec<Literal> {
        raw.iter().take(5).map(|&l| self.literal(l)).collect()
    }

    fn terms(&self, raw: &[(i8, RawView)]) -> Vec<(i32, View)> {
        raw.iter()
            .take(4)
            .map(|&(c, v)| (self.values.small(c), self.view(v)))
            .collect()
    }

    /// A reified condition, and its meaning.
    fn condition(&self, raw: &RawCondition) -> (Condition, Check) {
        match raw {
            RawCondition::Compare(v, r, c) => {
                let (view, relation, c) = (self.view(*v), relation(*r), self.values.value(*c));
                let check = Check::Linear(vec![(1, view)], Cmp::of(relation), i64::from(c));
                (Condition::compare(view, relation, c), check)
            }
            RawCondition::CompareViews(x, r, y) => {
                let (x, relation, y) = (self.view(*x), relation(*r), self.view(*y));
                let check = Check::Compare(x, Cmp::of(relation), y);
                (Condition::compare_views(x, relation, y), check)
            }
            RawCondition::InSet(v, values, negated) => {
                let view = self.view(*v);
                let values: Vec<i32> = values
                    .iter()
                    .take(5)
                    .map(|&v| self.values.value(v))
                    .collect();
                let check = Check::InSet(view, wide(&values), *negated);
                let condition = if *negated {
                    Condition::not_in_set(view, values)
                } else {
                    Condition::in_set(view, values)
                };
                (condition, check)
            }
            RawCondition::Linear(terms, r, rhs) => {
                let (terms, relation, rhs) =
                    (self.terms(terms), relation(*r), self.values.value(*rhs));
                let check = Check::Linear(
                    terms.iter().map(|&(c, v)| (i64::from(c), v)).collect(),
                    Cmp::of(relation),
                    i64::from(rhs),
                );
                (Condition::linear(terms, relation, rhs), check)
            }
        }
    }

    /// Posts a part; its meaning unless the library refused it.
    fn post(&mut self, part: &Part) -> Option<Check> {
        let (result, check): (Result<_, ModelError>, Check) = match part {
            Part::AllDifferent(list, strength) => {
                let views = self.views(list, 6);
                let strength = [
                    Strength::Value,
                    Strength::HiddenSingles,
                    Strength::Bounds,
                    Strength::Domain,
                ][usize::from(*strength) % 4];
                let result = self.model.all_different_with(views.clone(), strength);
                (result, Check::Distinct(vec![views]))
            }
            Part::System(groups, locked) => {
                let groups: Vec<Vec<VarId>> = groups
                    .iter()
                    .take(4)
                    .map(|g| g.iter().take(6).map(|&v| self.var(v)).collect())
                    .collect();
                let when = [
                    LockedCandidates::Off,
                    LockedCandidates::AtRoot,
                    LockedCandidates::Always,
                ][usize::from(*locked) % 3];
                let system = AllDifferentSystem::new(groups.iter().cloned());
                let result = self.model.post(system.locked_candidates(when));
                let views = groups
                    .into_iter()
                    .map(|g| g.into_iter().map(View::from).collect())
                    .collect();
                (result, Check::Distinct(views))
            }
            Part::Intersection(a, b) => {
                let (a, b) = (self.views(a, 5), self.views(b, 5));
                let result = self.model.intersection(a.clone(), b.clone());
                (result, Check::Distinct(vec![a, b]))
            }
            Part::Compare(x, kind, y) => {
                let (x, y) = (self.view(*x), self.view(*y));
                let (result, cmp) = match kind % 6 {
                    0 => (self.model.equal(x, y), Cmp::Equal),
                    1 => (self.model.not_equal(x, y), Cmp::NotEqual),
                    2 => (self.model.less(x, y), Cmp::Less),
                    3 => (self.model.less_eq(x, y), Cmp::LessEq),
                    4 => (self.model.greater(x, y), Cmp::Greater),
                    _ => (self.model.greater_eq(x, y), Cmp::GreaterEq),
                };
                (result, Check::Compare(x, cmp, y))
            }
            Part::Linear(terms, r, rhs) => {
                let (terms, relation, rhs) =
                    (self.terms(terms), relation(*r), self.values.value(*rhs));
                let result = self.model.linear(terms.iter().copied(), relation, rhs);
                let terms = terms.iter().map(|&(c, v)| (i64::from(c), v)).collect();
                (
                    result,
                    Check::Linear(terms, Cmp::of(relation), i64::from(rhs)),
                )
            }
            Part::Element(array, index, v) => {
                let array: Vec<i32> = array
                    .iter()
                    .take(6)
                    .map(|&x| self.values.value(x))
                    .collect();
                let (index, v) = (self.view(*index), self.view(*v));
                let result = self.model.element(&array, index, v);
                (result, Check::Element(wide(&array), index, v))
            }
            Part::Table(list, tuples) => {
                let views = self.views(list, 3);
                let tuples: Vec<Vec<i32>> = tuples
                    .iter()
                    .take(12)
                    .map(|t| {
                        t[..views.len()]
                            .iter()
                            .map(|&x| self.values.value(x))
                            .collect()
                    })
                    .collect();
                let result = self.model.table(views.clone(), &tuples);
                let tuples = tuples.iter().map(|t| wide(t)).collect();
                (result, Check::Table(views, tuples))
            }
            Part::DifferenceIn(x, y, offsets) => {
                let offsets: Vec<i32> = offsets
                    .iter()
                    .take(6)
                    .map(|&c| self.values.value(c))
                    .collect();
                let (x, y) = (self.view(*x), self.view(*y));
                let result = self.model.difference_in(x, y, &offsets);
                (result, Check::DifferenceIn(x, y, wide(&offsets)))
            }
            Part::Arithmetic(op, x, y, z) => {
                let (x, y, z) = (self.view(*x), self.view(*y), self.view(*z));
                let (result, op) = match op % 3 {
                    0 => (self.model.times(x, y, z), Op::Times),
                    1 => (self.model.div(x, y, z), Op::Div),
                    _ => (self.model.modulo(x, y, z), Op::Mod),
                };
                (result, Check::Arithmetic(op, x, y, z))
            }
            Part::Abs(x, z) => {
                let (x, z) = (self.view(*x), self.view(*z));
                (self.model.abs(x, z), Check::Abs(x, z))
            }
            Part::Power(x, k, z) => {
                let k = match k {
                    0..=199 => u32::from(k % 6),
                    255 => u32::MAX,
                    _ => u32::from(*k),
                };
                let (x, z) = (self.view(*x), self.view(*z));
                (self.model.power(x, k, z), Check::Power(x, k, z))
            }
            Part::Extremum(xs, z, max) => {
                let (xs, z) = (self.views(xs, 4), self.view(*z));
                let result = if *max {
                    self.model.maximum(xs.iter().copied(), z)
                } else {
                    self.model.minimum(xs.iter().copied(), z)
                };
                (result, Check::Extremum(xs, z, *max))
            }
            Part::ElementVar(array, index, v) => {
                let array = self.views(array, 4);
                let (index, v) = (self.view(*index), self.view(*v));
                let result = self.model.element_var(array.iter().copied(), index, v);
                (result, Check::ElementVar(array, index, v))
            }
            Part::Logic(kind, literals) => {
                let literals = self.literals(literals);
                match kind % 3 {
                    0 => (self.model.or(literals.clone()), Check::Or(literals)),
                    1 => (self.model.and(literals.clone()), Check::And(literals)),
                    _ => (self.model.xor(literals.clone()), Check::Xor(literals)),
                }
            }
            Part::Implies(x, y) => {
                let (x, y) = (self.literal(*x), self.literal(*y));
                (self.model.implies(x, y), Check::Or(vec![!x, y]))
            }
            Part::ReifyOr(target, literals, and) => {
                let (target, literals) = (self.literal(*target), self.literals(literals));
                let result = if *and {
                    self.model.reify_and(target, literals.clone())
                } else {
                    self.model.reify_or(target, literals.clone())
                };
                (result, Check::ReifyOr(target, literals, *and))
            }
            Part::Reify(b, condition, half) => {
                let b = self.literal(*b);
                let (condition, meaning) = self.condition(condition);
                let result = if *half {
                    self.model.half_reify(b, condition)
                } else {
                    self.model.reify(b, condition)
                };
                (result, Check::Reify(b, Box::new(meaning), *half))
            }
            Part::Circuit(succ, offset, sub) => {
                let (succ, offset) = (self.views(succ, 5), self.values.small(*offset));
                let result = if *sub {
                    self.model.subcircuit(succ.iter().copied(), offset)
                } else {
                    self.model.circuit(succ.iter().copied(), offset)
                };
                (result, Check::Circuit(succ, i64::from(offset), *sub))
            }
            Part::Cardinality(xs, counts) => {
                let xs = self.views(xs, 5);
                let (values, counts): (Vec<i32>, Vec<i32>) = counts
                    .iter()
                    .take(4)
                    .map(|&(v, c)| (self.values.value(v), self.values.small(c)))
                    .unzip();
                let result = self
                    .model
                    .global_cardinality(xs.iter().copied(), &values, &counts);
                let counts = values
                    .iter()
                    .zip(&counts)
                    .map(|(&v, &c)| (i64::from(v), Count::Constant(i64::from(c))))
                    .collect();
                (result, Check::Cardinality(xs, counts))
            }
            Part::CardinalityVars(xs, counts) => {
                let xs = self.views(xs, 5);
                let (values, counts): (Vec<i32>, Vec<View>) = counts
                    .iter()
                    .take(4)
                    .map(|&(v, c)| (self.values.value(v), self.view(c)))
                    .unzip();
                let result = self.model.global_cardinality_vars(
                    xs.iter().copied(),
                    &values,
                    counts.iter().copied(),
                );
                let counts = values
                    .iter()
                    .zip(&counts)
                    .map(|(&v, &c)| (i64::from(v), Count::View(c)))
                    .collect();
                (result, Check::Cardinality(xs, counts))
            }
            Part::Inverse(pairs, f_offset, g_offset, shorter) => {
                let f: Vec<View> = pairs.iter().take(4).map(|&(x, _)| self.view(x)).collect();
                let mut g: Vec<View> = pairs.iter().take(4).map(|&(_, y)| self.view(y)).collect();
                if *shorter {
                    g.pop();
                }
                let (f_offset, g_offset) =
                    (self.values.small(*f_offset), self.values.small(*g_offset));
                let result =
                    self.model
                        .inverse(f.iter().copied(), f_offset, g.iter().copied(), g_offset);
                let check = Check::Inverse(f, i64::from(f_offset), g, i64::from(g_offset));
                (result, check)
            }
            Part::Lex(pairs, strict) => {
                let xs: Vec<View> = pairs.iter().take(4).map(|&(x, _)| self.view(x)).collect();
                let ys: Vec<View> = pairs.iter().take(4).map(|&(_, y)| self.view(y)).collect();
                let result = if *strict {
                    self.model.lex_less(xs.iter().copied(), ys.iter().copied())
                } else {
                    self.model
                        .lex_less_eq(xs.iter().copied(), ys.iter().copied())
                };
                (result, Check::Lex(xs, ys, *strict))
            }
            Part::Disjunctive(tasks) => {
                let tasks: Vec<(View, i32)> = tasks
                    .iter()
                    .take(4)
                    .map(|&(s, d)| (self.view(s), self.values.small(d)))
                    .collect();
                let (starts, durations): (Vec<View>, Vec<i32>) = tasks.iter().copied().unzip();
                let result = self.model.disjunctive(starts, &durations);
                let tasks = tasks.iter().map(|&(s, d)| (s, i64::from(d))).collect();
                (result, Check::Disjunctive(tasks))
            }
            Part::Cumulative(tasks, capacity) => {
                let tasks: Vec<(View, i32, i32)> = tasks
                    .iter()
                    .take(4)
                    .map(|&(s, d, r)| (self.view(s), self.values.small(d), self.values.small(r)))
                    .collect();
                let starts: Vec<View> = tasks.iter().map(|t| t.0).collect();
                let durations: Vec<i32> = tasks.iter().map(|t| t.1).collect();
                let demands: Vec<i32> = tasks.iter().map(|t| t.2).collect();
                let capacity = self.values.small(*capacity);
                let result = self
                    .model
                    .cumulative(starts, &durations, &demands, capacity);
                let tasks = tasks
                    .iter()
                    .map(|&(s, d, r)| (s, i64::from(d), i64::from(r)))
                    .collect();
                (result, Check::Cumulative(tasks, i64::from(capacity)))
            }
        };
        result.ok().map(|_| check)
    }

    /// Every assignment that satisfies every check, in ascending order.
    fn brute_force(&self, checks: &[Check]) -> Vec<Vec<i64>> {
        let mut solutions = Vec::new();
        let mut position = vec![0; self.domains.len()];
        loop {
            let values: Vec<i64> = position
                .iter()
                .zip(&self.domains)
                .map(|(&p, d)| d[p])
                .collect();
            let assignment = Assignment(&values);
            if checks.iter().all(|c| c.holds(&assignment)) {
                solutions.push(values);
            }
            // The next assignment, the last variable turning fastest.
            let Some(i) = (0..position.len())
                .rev()
                .find(|&i| position[i] + 1 < self.domains[i].len())
            else {
                return solutions;
            };
            position[i] += 1;
            position[i + 1..].fill(0);
        }
    }
}

/// A solution of the solver, as the oracle writes assignments.
fn assignment(solution: &alldiff::Solution, vars: &[VarId]) -> Vec<i64> {
    vars.iter().map(|&v| i64::from(solution[v])).collect()
}

fuzz_target!(|input: Input| {
    let values = Values {
        low: window_low(input.window),
    };
    let mut builder = Builder::new(&input.domains, values);
    if builder.vars.is_empty() {
        return;
    }
    let checks: Vec<Check> = input
        .parts
        .iter()
        .take(6)
        .filter_map(|part| builder.post(part))
        .collect();
    let expected = builder.brute_force(&checks);
    let Builder { model, vars, .. } = builder;

    let config = SearchConfig::new()
        .variable_order(variable_order(input.variable_order))
        .value_order(value_order(input.value_order, input.seed));
    let mut solver = Solver::with_config(model, config);
    let phases = input.phases.iter().take(3).map(|p| {
        Phase::new(
            p.vars
                .iter()
                .take(4)
                .map(|&v| vars[usize::from(v) % vars.len()]),
        )
        .variable_order(variable_order(p.variable_order))
        .value_order(value_order(p.value_order, input.seed.rotate_left(7)))
    });
    let in_phase: Vec<usize> = (input.phases.iter().take(3))
        .flat_map(|p| p.vars.iter().take(4).map(|&v| usize::from(v) % vars.len()))
        .collect();
    solver
        .set_phases(phases)
        .expect("the phases' variables are the model's");
    let auxiliary: Vec<usize> = (input.auxiliary.iter().take(4))
        .map(|&v| usize::from(v) % vars.len())
        .filter(|i| !in_phase.contains(i))
        .collect();
    solver
        .set_auxiliary(auxiliary.iter().map(|&i| vars[i]))
        .expect("the model's own variables");
    // A solution as seen on the variables that are not auxiliary.
    let seen = |values: Vec<i64>| -> Vec<i64> {
        let decisions = (0..values.len()).filter(|i| !auxiliary.contains(i));
        decisions.map(|i| values[i]).collect()
    };
    let mut expected_seen: Vec<Vec<i64>> = expected.iter().cloned().map(seen).collect();
    expected_seen.sort_unstable();
    expected_seen.dedup();
    // The model's own helper variables (if any) are decisions too, and may tell apart
    // solutions that look alike here.
    let only_vars = solver.model().var_count() == vars.len();
    // A geometric factor of 1 makes the cutoffs grow by one failure a time, and a
    // search of n failures n² / 2 long: too slow for a fuzz run, so at least 1.25.
    solver.set_restarts(input.restarts.map(|(luby, scale, factor)| {
        let scale = u64::from(scale % 16);
        if luby {
            Restarts::luby(scale)
        } else {
            Restarts::geometric(scale, 1.25 + f64::from(factor) / 128.0)
        }
    }));

    // Every solution, each once.
    let mut found: Vec<Vec<i64>> = solver
        .solutions().map(Result::unwrap)
        .take(expected.len() + 1)
        .map(|s| seen(assignment(&s, &vars)))
        .collect();
    found.sort_unstable();
    if !only_vars {
        found.dedup();
    }
    assert_eq!(
        found, expected_seen,
        "the solutions differ from the oracle's"
    );

    // One solution (restarts apply here).
    match solver.solve() {
        Outcome::Solved(solution) => assert!(
            expected.contains(&assignment(&solution, &vars)),
            "solve reports a non-solution"
        ),
        Outcome::Unsatisfiable => assert!(expected.is_empty(), "solve misses the solutions"),
        Outcome::Stopped(reason) => panic!("solve stopped without limits: {reason:?}"),
    }

    // The optimum (restarts apply throughout).
    let Some((raw, maximize)) = input.objective else {
        return;
    };
    let objective = vars[usize::from(raw.0) % vars.len()] + values.small(raw.1);
    let optimization = if maximize {
        solver.maximize(objective)
    } else {
        solver.minimize(objective)
    };
    let Ok(mut optimization) = optimization else {
        return; // An objective view that overflows.
    };
    let at = |values: &[i64]| Assignment(values).at(objective);
    let better = |a: i64, b: i64| if maximize { a > b } else { a < b };
    let mut last: Option<i64> = None;
    for improvement in optimization.by_ref().flatten() {
        let values = assignment(&improvement.solution, &vars);
        assert!(
            expected.contains(&values),
            "optimisation reports a non-solution"
        );
        assert_eq!(improvement.objective, at(&values), "wrong objective value");
        assert!(
            last.is_none_or(|last| better(improvement.objective, last)),
            "an improvement that does not improve"
        );
        last = Some(improvement.objective);
    }
    let optimum = expected.iter().map(|s| at(s));
    let optimum = if maximize {
        optimum.max()
    } else {
        optimum.min()
    };
    match optimization.finish() {
        OptimizeOutcome::Optimal(best) => {
            assert_eq!(Some(best.objective), optimum, "a wrong optimum")
        }
        OptimizeOutcome::Unsatisfiable => assert_eq!(optimum, None, "the optimum missed"),
        OptimizeOutcome::Stopped { reason, .. } => {
            panic!("optimisation stopped without limits: {reason:?}")
        }
    }
});
