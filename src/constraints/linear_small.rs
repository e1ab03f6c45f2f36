//! Linear constraints of two to four terms, `a·x + b·y (+ c·z + d·w) ⋈ k`: the shape of
//! differences (`d = x[j] - x[i]`), orderings (`x - y <= -1`) and steps, which
//! [`Model::linear`](crate::Model::linear) posts as a [`SmallLinear`] instead of the
//! general [`Linear`].

use super::linear::{Relation, div_ceil, holds};
use crate::constraints::Linear;
use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// `Σ coefᵢ · viewᵢ ⋈ rhs` over `N` (two to four) distinct variables with nonzero
/// coefficients, `⋈` one of `==`, `<=`, `>=`: the same bounds reasoning as
/// [`Linear`], to the same fixpoint, so it prunes exactly what `Linear`
/// prunes.
///
/// Each call reads every term's two bounds once into locals, tightens on them (each
/// term's bound by what the others can at least, or at most, contribute) and reads
/// back only a bound it moved (which may move further, past missing values); it stops
/// when a pass in each direction moves nothing. Unit coefficients, the common case,
/// skip the divisions. O(N) per pass; the passes are bounded by the bound moves.
///
/// Sums are in `i64`: [`Model::linear`](crate::Model::linear) has checked that no sum
/// of the terms over the initial domains can leave its range.
#[derive(Clone, Debug)]
pub(crate) struct SmallLinear<const N: usize> {
    coefs: [i64; N],
    views: [View; N],
    relation: Relation,
    rhs: i64,
    /// Where a call reads the bounds from (found when posted).
    source: Source<N>,
}

/// Where [`SmallLinear`] reads its views' bounds: straight from the store's cells,
/// without the variables' layouts, when every domain has the same shape. Each view's
/// cell in [`Context::words`] and the view's value for bit 0 (or index 0).
#[derive(Clone, Copy, Debug)]
enum Source<const N: usize> {
    /// Through the store: other shapes, or a mix.
    Layouts,
    /// Every domain is one word: the bounds are its lowest and highest bit.
    Words([(u32, i64); N]),
    /// Every domain is a bitset of several words: the cell of its bounds.
    BoundsCells([(u32, i64); N]),
}

impl<const N: usize> SmallLinear<N> {
    /// The constraint, if it has this shape: a relation other than `!=`, nonzero
    /// coefficients and distinct variables (a repeated variable would make the bounds
    /// kept in locals stale). `None` otherwise, for the general `Linear`.
    pub(crate) fn new(terms: [(i32, View); N], relation: Relation, rhs: i32) -> Option<Self> {
        let distinct = (0..N).all(|i| (0..i).all(|j| terms[i].1.var != terms[j].1.var));
        let nonzero = terms.iter().all(|&(coef, _)| coef != 0);
        (relation != Relation::NotEqual && distinct && nonzero).then(|| SmallLinear {
            coefs: terms.map(|(coef, _)| i64::from(coef)),
            views: terms.map(|(_, view)| view),
            relation,
            rhs: i64::from(rhs),
            source: Source::Layouts,
        })
    }

    /// Every term's bounds, `coefᵢ · viewᵢ`, as lows and highs: read straight from
    /// the cells when [`Source`] allows (one test a call, not one a read).
    #[inline(always)]
    fn read(&self, ctx: &Context<'_>) -> ([i64; N], [i64; N]) {
        let mut bounds = [(0i64, 0i64); N];
        let cells = ctx.words();
        match self.source {
            Source::Words(words) => {
                for (bound, &(cell, base)) in bounds.iter_mut().zip(&words) {
                    let word = cells[cell as usize];
                    *bound = (
                        base + i64::from(word.trailing_zeros()),
                        base + i64::from(63 - word.leading_zeros()),
                    );
                }
            }
            Source::BoundsCells(at) => {
                for (bound, &(cell, base)) in bounds.iter_mut().zip(&at) {
                    // The bounds' indices, packed as `PostContext::bitset_bounds_cell` says.
                    let word = cells[cell as usize];
                    *bound = (
                        base + (word >> 32) as i64,
                        base + (word & 0xffff_ffff) as i64,
                    );
                }
            }
            Source::Layouts => {
                for (bound, &view) in bounds.iter_mut().zip(&self.views) {
                    let (min, max) = ctx.bounds(view);
                    *bound = (i64::from(min), i64::from(max));
                }
            }
        }
        let (mut lo, mut hi) = ([0i64; N], [0i64; N]);
        for i in 0..N {
            let (min, max) = bounds[i];
            (lo[i], hi[i]) = match self.coefs[i] {
                1 => (min, max),
                -1 => (-max, -min),
                c if c > 0 => (c * min, c * max),
                c => (c * max, c * min),
            };
        }
        (lo, hi)
    }

    /// Enforces `coefᵢ · viewᵢ <= bound`, which is below its upper bound `hi`; a
    /// conflict if below its lower bound `lo` (for any coefficient, `coef · view <=
    /// bound` then empties the view). Returns the term's new upper bound.
    #[inline(always)]
    fn lower_max(
        &self,
        ctx: &mut Context<'_>,
        i: usize,
        bound: i64,
        lo: i64,
    ) -> Result<i64, Conflict> {
        if bound < lo {
            return Err(Conflict);
        }
        let view = self.views[i];
        // The new bound of the view lies within its bounds, so it fits an `i32`.
        match self.coefs[i] {
            1 => {
                ctx.set_max(view, bound as i32)?;
                Ok(i64::from(ctx.max(view)))
            }
            -1 => {
                ctx.set_min(view, -bound as i32)?;
                Ok(-i64::from(ctx.min(view)))
            }
            c if c > 0 => {
                ctx.set_max(view, bound.div_euclid(c) as i32)?;
                Ok(c * i64::from(ctx.max(view)))
            }
            c => {
                ctx.set_min(view, div_ceil(bound, c) as i32)?;
                Ok(c * i64::from(ctx.min(view)))
            }
        }
    }

    /// Enforces `coefᵢ · viewᵢ >= bound`, which is above its lower bound `lo`; a
    /// conflict if above its upper bound `hi`. Returns the term's new lower bound.
    #[inline(always)]
    fn raise_min(
        &self,
        ctx: &mut Context<'_>,
        i: usize,
        bound: i64,
        hi: i64,
    ) -> Result<i64, Conflict> {
        if bound > hi {
            return Err(Conflict);
        }
        let view = self.views[i];
        // As in `lower_max`, the view's new bound fits an `i32`.
        match self.coefs[i] {
            1 => {
                ctx.set_min(view, bound as i32)?;
                Ok(i64::from(ctx.min(view)))
            }
            -1 => {
                ctx.set_max(view, -bound as i32)?;
                Ok(-i64::from(ctx.max(view)))
            }
            c if c > 0 => {
                ctx.set_min(view, div_ceil(bound, c) as i32)?;
                Ok(c * i64::from(ctx.min(view)))
            }
            c => {
                // c·x >= b with c < 0  ⇔  x <= b / c rounded down, that is (-b) / (-c).
                ctx.set_max(view, (-bound).div_euclid(-c) as i32)?;
                Ok(c * i64::from(ctx.max(view)))
            }
        }
    }

    /// Says the inequality entailed when every assignment of the terms' bounds
    /// `lo..=hi` satisfies it.
    fn check_entailed(&self, ctx: &mut Context<'_>, lo: &[i64; N], hi: &[i64; N]) {
        let entailed = match self.relation {
            Relation::LessEq => hi.iter().sum::<i64>() <= self.rhs,
            _ => lo.iter().sum::<i64>() >= self.rhs,
        };
        if entailed {
            ctx.entailed();
        }
    }

    /// The bounds fixpoint; with `INEQUALITY` (`<=` or `>=`), and whether that leaves
    /// the constraint entailed. Two copies, so that equalities, which are never entailed
    /// before every term is fixed, carry no test for it.
    #[inline(always)]
    fn narrow<const INEQUALITY: bool>(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (mut lo, mut hi) = self.read(ctx);
        let at_most = self.relation != Relation::GreaterEq;
        let at_least = self.relation != Relation::LessEq;
        let (mut down, mut up) = (at_most, at_least);
        while down || up {
            if down {
                // Σ <= rhs: each term is at most rhs less what the others contribute at least.
                down = false;
                let sum: i64 = lo.iter().sum();
                if sum > self.rhs {
                    return Err(Conflict);
                }
                for i in 0..N {
                    let bound = self.rhs - (sum - lo[i]);
                    if bound < hi[i] {
                        hi[i] = self.lower_max(ctx, i, bound, lo[i])?;
                        up = at_least;
                    }
                }
            }
            if up {
                // Σ >= rhs: each term is at least rhs less what the others contribute at most.
                up = false;
                let sum: i64 = hi.iter().sum();
                if sum < self.rhs {
                    return Err(Conflict);
                }
                for i in 0..N {
                    let bound = self.rhs - (sum - hi[i]);
                    if bound > lo[i] {
                        lo[i] = self.raise_min(ctx, i, bound, hi[i])?;
                        down = at_most;
                    }
                }
            }
        }
        if INEQUALITY {
            self.check_entailed(ctx, &lo, &hi);
        }
        Ok(())
    }
}

impl<const N: usize> Propagator for SmallLinear<N> {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.views, Wake::Bounds)?;
        let offset = |view: View, base: i32| i64::from(base) + i64::from(view.offset);
        let word = |view: View| {
            let cell = u32::try_from(ctx.small_cell(view.var)?).ok()?;
            let (_, base) = ctx.small_word(view.var)?;
            Some((cell, offset(view, base)))
        };
        let bounds = |view: View| {
            let (cell, base) = ctx.bitset_bounds_cell(view.var)?;
            Some((u32::try_from(cell).ok()?, offset(view, base)))
        };
        let all = |cells: [Option<(u32, i64)>; N]| {
            (cells.iter().all(Option::is_some)).then(|| cells.map(Option::unwrap))
        };
        self.source = match (all(self.views.map(word)), all(self.views.map(bounds))) {
            (Some(words), _) => Source::Words(words),
            (_, Some(at)) => Source::BoundsCells(at),
            _ => Source::Layouts,
        };
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn reads_modified(&self) -> bool {
        false
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Linear::BOUNDS);
        match self.relation {
            Relation::Equal => self.narrow::<false>(ctx),
            _ => self.narrow::<true>(ctx),
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        holds(
            self.coefs.iter().copied().zip(self.views),
            self.relation,
            self.rhs,
            value,
        )
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::SmallLinear;
    use crate::constraints::{Linear, Relation};
    use crate::{Limits, Model, Outcome, Solver, VarId, View};

    /// The root domains under one constraint posted through `Model::linear`, its terms
    /// `(coefficient, variable index)`.
    fn root(
        domains: &[Vec<i32>],
        terms: &[(i32, usize)],
        relation: Relation,
        rhs: i32,
    ) -> Option<Vec<Vec<i32>>> {
        let mut model = Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect();
        model
            .linear(terms.iter().map(|&(a, x)| (a, vars[x])), relation, rhs)
            .unwrap();
        Solver::new(model).root_domains()
    }

    #[test]
    fn difference_prunes_bounds_exactly() {
        // d == y - x, x in 0..=10, y in 3..=5, d in 4..=100: y - x >= 4 gives x <= 1,
        // y - x <= 5 and d <= 5.
        let domains = [(0..=10).collect(), (3..=5).collect(), (4..=100).collect()];
        let got = root(&domains, &[(1, 1), (-1, 0), (-1, 2)], Relation::Equal, 0).unwrap();
        assert_eq!(got, vec![vec![0, 1], vec![4, 5], vec![4, 5]]);
    }

    #[test]
    fn bounds_skip_missing_values_and_iterate() {
        // x + y == 10 over x in {0, 2, 9}, y in {1, 3, 4, 8}: x >= 10 - 8 skips the
        // missing 1 to 2, x <= 10 - 1 keeps 9; y between 10 - 9 and 10 - 2 keeps all.
        let domains = [vec![0, 2, 9], vec![1, 3, 4, 8]];
        let got = root(&domains, &[(1, 0), (1, 1)], Relation::Equal, 10).unwrap();
        assert_eq!(got, vec![vec![2, 9], vec![1, 3, 4, 8]]);
    }

    #[test]
    fn coefficients_round_towards_the_feasible_side() {
        // 3x - 2y <= -1 with x in 0..=9, y in 0..=4: 3x <= 2·4 - 1 = 7, x <= 2;
        // -2y <= -1, y >= 1.
        let domains = [(0..=9).collect(), (0..=4).collect()];
        let got = root(&domains, &[(3, 0), (-2, 1)], Relation::LessEq, -1).unwrap();
        assert_eq!(got, vec![vec![0, 1, 2], (1..=4).collect::<Vec<_>>()]);
        // 3x - 2y >= 7 with the same domains: 3x >= 7, x >= 3; -2y >= 7 - 27, y <= 4.
        let got = root(&domains, &[(3, 0), (-2, 1)], Relation::GreaterEq, 7).unwrap();
        assert_eq!(got, vec![(3..=9).collect::<Vec<_>>(), (0..=4).collect()]);
    }

    #[test]
    fn negative_coefficients_round_down_from_below() {
        // -2x - y == -32, x in -1..=4998, y in -693..=4306: -2x >= -32 - 693 gives
        // x <= 362 (not 363: -725 / -2 = 362.5), then y >= 32 - 2·362 = -692.
        let domains = [(-1..=4998).collect(), (-693..=4306).collect()];
        let got = root(&domains, &[(-2, 0), (-1, 1)], Relation::Equal, -32).unwrap();
        assert_eq!(
            got,
            vec![(-1..=362).collect::<Vec<_>>(), (-692..=34).collect()]
        );
    }

    #[test]
    fn infeasible_sums_fail_at_the_root() {
        let domains = [(0..=3).collect(), (0..=3).collect(), (0..=3).collect()];
        assert!(root(&domains, &[(1, 0), (1, 1), (1, 2)], Relation::GreaterEq, 10).is_none());
        assert!(root(&domains, &[(1, 0), (-1, 1), (2, 2)], Relation::LessEq, -4).is_none());
    }

    #[test]
    fn picked_only_for_its_shape() {
        let var = |index| VarId { model: 0, index };
        let view = |index| View::from(var(index));
        let pair = [(1, view(0)), (-1, view(1))];
        assert!(SmallLinear::new(pair, Relation::Equal, 0).is_some());
        assert!(SmallLinear::new(pair, Relation::NotEqual, 0).is_none());
        assert!(SmallLinear::new([(1, view(0)), (0, view(1))], Relation::Equal, 0).is_none());
        assert!(SmallLinear::new([(1, view(0)), (2, var(0) + 1)], Relation::Equal, 0).is_none());
    }

    /// One to three random constraints of two to four terms over the same variables,
    /// from which the general propagator and this one must reach the same root domains
    /// and the same search tree.
    /// Terms `(coefficient, variable index, offset)`, relation, right-hand side.
    type Constraint = (Vec<(i32, usize, i32)>, Relation, i32);

    #[derive(Clone, Debug)]
    struct Case {
        domains: Vec<Vec<i32>>,
        constraints: Vec<Constraint>,
    }

    /// A domain of one word, of several bitset words or an interval (over 4096
    /// values), with holes.
    fn domain() -> impl Strategy<Value = Vec<i32>> {
        let holey = |lo: i32, span: i32, holes: std::collections::BTreeSet<i32>| {
            (lo..lo + span)
                .filter(|v| !holes.contains(&(v - lo)))
                .collect::<Vec<i32>>()
        };
        prop_oneof![
            prop::collection::btree_set(-8..=8i32, 1..=8).prop_map(|d| d.into_iter().collect()),
            (
                -100..=0i32,
                65..=200i32,
                prop::collection::btree_set(0..200i32, 0..=20)
            )
                .prop_map(move |(lo, span, holes)| holey(lo, span, holes)),
            (-3000..=0i32, prop::collection::btree_set(0..5000i32, 0..=5))
                .prop_map(move |(lo, holes)| holey(lo, 5000, holes)),
        ]
    }

    fn case() -> impl Strategy<Value = Case> {
        (2usize..=5).prop_flat_map(|vars| {
            let term = (
                prop_oneof![3 => prop_oneof![Just(1), Just(-1)], 1 => -3..=3i32],
                0..vars,
                -2..=2i32,
            );
            let constraint = (
                prop::collection::vec(term, 2..=4),
                prop_oneof![
                    Just(Relation::Equal),
                    Just(Relation::LessEq),
                    Just(Relation::GreaterEq)
                ],
                -50..=50i32,
            );
            (
                prop::collection::vec(domain(), vars),
                prop::collection::vec(constraint, 1..=3),
            )
                .prop_map(|(domains, constraints)| Case {
                    domains,
                    constraints,
                })
        })
    }

    /// The root domains, and the outcome and nodes of a search for a first solution
    /// (stopped after 2,000 nodes),
    /// with every constraint posted as `SmallLinear` where it has the shape (`small`)
    /// or as `Linear`.
    fn run(case: &Case, small: bool) -> (Option<Vec<Vec<i32>>>, bool, u64) {
        let build = || {
            let mut model = Model::new();
            let vars: Vec<VarId> = case
                .domains
                .iter()
                .map(|d| model.var_from_values(d.iter().copied()).unwrap())
                .collect();
            for (terms, relation, rhs) in &case.constraints {
                let terms: Vec<(i32, View)> =
                    terms.iter().map(|&(a, x, c)| (a, vars[x] + c)).collect();
                if small {
                    model.linear(terms, *relation, *rhs).unwrap();
                } else {
                    model
                        .post(Linear::new(&terms, *relation, i64::from(*rhs)))
                        .unwrap();
                }
            }
            model
        };
        let domains = Solver::new(build()).root_domains();
        // Wide domains can make a long search: the first 2,000 nodes are compared.
        let mut solver = Solver::new(build());
        solver.set_limits(Limits::none().with_nodes(2_000));
        let solved = matches!(solver.solve(), Outcome::Solved(_));
        (domains, solved, solver.statistics().nodes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Same fixpoint as the general propagator, on every domain shape.
        #[test]
        fn prunes_what_linear_prunes(case in case()) {
            prop_assert_eq!(run(&case, true), run(&case, false));
        }
    }
}
