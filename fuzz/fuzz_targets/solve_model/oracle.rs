//! The oracle's side of `solve_model`: each constraint by its meaning, written
//! independently of the propagators, checked on a full assignment.

use alldiff::{Literal, Relation, View};

/// How two numbers compare.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cmp {
    Less,
    LessEq,
    Equal,
    NotEqual,
    GreaterEq,
    Greater,
}

impl Cmp {
    pub(crate) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Less => a < b,
            Cmp::LessEq => a <= b,
            Cmp::Equal => a == b,
            Cmp::NotEqual => a != b,
            Cmp::GreaterEq => a >= b,
            Cmp::Greater => a > b,
        }
    }

    pub(crate) fn of(relation: Relation) -> Cmp {
        match relation {
            Relation::Equal => Cmp::Equal,
            Relation::NotEqual => Cmp::NotEqual,
            Relation::LessEq => Cmp::LessEq,
            Relation::GreaterEq => Cmp::GreaterEq,
            // `Relation` may grow; this target draws only the four above.
            _ => unreachable!("a relation the target does not draw: {relation:?}"),
        }
    }
}

/// `times`, `div`, `modulo`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Times,
    Div,
    Mod,
}

/// A count of `global_cardinality`: a constant or a view.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Count {
    Constant(i64),
    View(View),
}

/// A posted constraint (or a reified condition) as the oracle sees it.
#[derive(Debug)]
pub(crate) enum Check {
    /// Each group takes pairwise different values.
    Distinct(Vec<Vec<View>>),
    Compare(View, Cmp, View),
    Linear(Vec<(i64, View)>, Cmp, i64),
    /// `view ∈ values`, or `∉` if true.
    InSet(View, Vec<i64>, bool),
    Element(Vec<i64>, View, View),
    Table(Vec<View>, Vec<Vec<i64>>),
    DifferenceIn(View, View, Vec<i64>),
    Arithmetic(Op, View, View, View),
    Abs(View, View),
    Power(View, u32, View),
    /// The maximum if true, else the minimum.
    Extremum(Vec<View>, View, bool),
    ElementVar(Vec<View>, View, View),
    Or(Vec<Literal>),
    And(Vec<Literal>),
    Xor(Vec<Literal>),
    /// `target <-> or`, or `<-> and` if true.
    ReifyOr(Literal, Vec<Literal>, bool),
    /// `b <-> condition`, or `->` if true.
    Reify(Literal, Box<Check>, bool),
    /// Successors with their offset; a subcircuit if true.
    Circuit(Vec<View>, i64, bool),
    Cardinality(Vec<View>, Vec<(i64, Count)>),
    Inverse(Vec<View>, i64, Vec<View>, i64),
    /// Strictly if true.
    Lex(Vec<View>, Vec<View>, bool),
    Disjunctive(Vec<(View, i64)>),
    /// Tasks `(start, duration, demand)` and the capacity.
    Cumulative(Vec<(View, i64, i64)>, i64),
}

/// One assignment of every variable, by variable index.
pub(crate) struct Assignment<'a>(pub(crate) &'a [i64]);

impl Assignment<'_> {
    pub(crate) fn at(&self, view: View) -> i64 {
        self.0[view.var.index()] + i64::from(view.offset)
    }

    pub(crate) fn all(&self, views: &[View]) -> Vec<i64> {
        views.iter().map(|&v| self.at(v)).collect()
    }

    pub(crate) fn truth(&self, literal: Literal) -> bool {
        (self.0[literal.var.index()] != 0) != literal.negated
    }

    /// The number of true literals.
    pub(crate) fn trues(&self, literals: &[Literal]) -> usize {
        literals.iter().filter(|&&l| self.truth(l)).count()
    }
}

/// Whether `values` are pairwise different.
fn distinct(mut values: Vec<i64>) -> bool {
    values.sort_unstable();
    values.windows(2).all(|w| w[0] != w[1])
}

/// Whether `succ` (successors, from 0) is a permutation of `0..n` whose nodes out of
/// the cycle are their own successors and whose other nodes form one cycle; for a
/// circuit (`sub` false) every node is on the cycle.
fn one_cycle(succ: &[i64], sub: bool) -> bool {
    let n = succ.len() as i64;
    if succ.iter().any(|&s| !(0..n).contains(&s)) || !distinct(succ.to_vec()) {
        return false;
    }
    let on_cycle: Vec<usize> = (0..succ.len())
        .filter(|&i| !sub || succ[i] != i as i64)
        .collect();
    let Some(&start) = on_cycle.first() else {
        return true;
    };
    let (mut node, mut length) = (start, 0);
    loop {
        node = succ[node] as usize;
        length += 1;
        if node == start {
            return length == on_cycle.len();
        }
    }
}

/// Whether `f` maps `0..n` into `0..n` (its values less `to_g`) and `g` takes each
/// back (its values less `to_f`).
fn inverse_of(f: &[i64], to_g: i64, g: &[i64], to_f: i64) -> bool {
    f.iter().enumerate().all(|(i, &fi)| {
        usize::try_from(fi - to_g)
            .ok()
            .and_then(|j| g.get(j))
            .is_some_and(|&gj| gj - to_f == i as i64)
    })
}

impl Check {
    pub(crate) fn holds(&self, a: &Assignment) -> bool {
        match self {
            Check::Distinct(groups) => groups.iter().all(|g| distinct(a.all(g))),
            Check::Compare(x, cmp, y) => cmp.holds(a.at(*x), a.at(*y)),
            Check::Linear(terms, cmp, rhs) => {
                cmp.holds(terms.iter().map(|&(c, v)| c * a.at(v)).sum(), *rhs)
            }
            Check::InSet(view, values, negated) => values.contains(&a.at(*view)) != *negated,
            Check::Element(array, index, value) => usize::try_from(a.at(*index))
                .ok()
                .and_then(|i| array.get(i))
                .is_some_and(|&x| x == a.at(*value)),
            Check::Table(views, tuples) => tuples.contains(&a.all(views)),
            Check::DifferenceIn(x, y, offsets) => offsets.contains(&(a.at(*x) - a.at(*y))),
            Check::Arithmetic(op, x, y, z) => {
                let (x, y, z) = (a.at(*x), a.at(*y), a.at(*z));
                match op {
                    Op::Times => x * y == z,
                    Op::Div => y != 0 && x / y == z,
                    Op::Mod => y != 0 && x % y == z,
                }
            }
            Check::Abs(x, z) => a.at(*x).abs() == a.at(*z),
            Check::Power(x, k, z) => {
                // Past i128 the power is far out of the i32 range that z is in.
                i128::from(a.at(*x)).checked_pow(*k) == Some(i128::from(a.at(*z)))
            }
            Check::Extremum(xs, z, max) => {
                let values = a.all(xs);
                let extreme = if *max {
                    values.iter().max()
                } else {
                    values.iter().min()
                };
                extreme == Some(&a.at(*z))
            }
            Check::ElementVar(array, index, value) => usize::try_from(a.at(*index))
                .ok()
                .and_then(|i| array.get(i))
                .is_some_and(|&x| a.at(x) == a.at(*value)),
            Check::Or(literals) => a.trues(literals) > 0,
            Check::And(literals) => a.trues(literals) == literals.len(),
            Check::Xor(literals) => a.trues(literals) % 2 == 1,
            Check::ReifyOr(target, literals, and) => {
                let trues = a.trues(literals);
                let holds = if *and {
                    trues == literals.len()
                } else {
                    trues > 0
                };
                a.truth(*target) == holds
            }
            Check::Reify(b, condition, half) => {
                let (b, holds) = (a.truth(*b), condition.holds(a));
                if *half { !b || holds } else { b == holds }
            }
            Check::Circuit(succ, offset, sub) => {
                let succ: Vec<i64> = a.all(succ).iter().map(|s| s - offset).collect();
                one_cycle(&succ, *sub)
            }
            Check::Cardinality(xs, counts) => {
                let values = a.all(xs);
                counts.iter().all(|&(value, count)| {
                    let count = match count {
                        Count::Constant(c) => c,
                        Count::View(v) => a.at(v),
                    };
                    values.iter().filter(|&&x| x == value).count() as i64 == count
                })
            }
            Check::Inverse(f, f_offset, g, g_offset) => {
                let (f, g) = (a.all(f), a.all(g));
                f.len() == g.len()
                    && inverse_of(&f, *g_offset, &g, *f_offset)
                    && inverse_of(&g, *f_offset, &f, *g_offset)
            }
            Check::Lex(xs, ys, strict) => {
                let (xs, ys) = (a.all(xs), a.all(ys));
                if *strict { xs < ys } else { xs <= ys }
            }
            Check::Disjunctive(tasks) => {
                let tasks: Vec<(i64, i64)> = tasks
                    .iter()
                    .filter(|&&(_, d)| d > 0)
                    .map(|&(s, d)| (a.at(s), d))
                    .collect();
                tasks.iter().enumerate().all(|(i, &(s, d))| {
                    tasks[i + 1..]
                        .iter()
                        .all(|&(t, e)| s + d <= t || t + e <= s)
                })
            }
            Check::Cumulative(tasks, capacity) => {
                let tasks: Vec<(i64, i64, i64)> = tasks
                    .iter()
                    .filter(|&&(_, d, r)| d > 0 && r > 0)
                    .map(|&(s, d, r)| (a.at(s), d, r))
                    .collect();
                // The load is highest at some task's start.
                tasks.iter().all(|&(t, _, _)| {
                    let load: i64 = tasks
                        .iter()
                        .filter(|&&(s, d, _)| s <= t && t < s + d)
                        .map(|&(_, _, r)| r)
                        .sum();
                    load <= *capacity
                })
            }
        }
    }
}
