//! Scaled views (`a * x + c`) against brute force: all-different at every strength,
//! linear, element, table and reification over views with scales of either sign
//! (some reaching the ends of `i32`, some 0, which the model must refuse) and
//! offsets, on domains at the edges (`common::edges`: word boundaries, holes, the
//! ends of `i32`). A view whose values leave `i32` is refused with a typed error and
//! leaves the model as it was; otherwise the solutions, on the model's own
//! variables, are exactly the brute-force ones, each once.

mod common;

use std::collections::BTreeSet;

use alldiff::{
    Condition, Conflict, Context, Model, ModelError, OptimizeOutcome, ParallelSolver, PostContext,
    Propagator, Relation, Solver, Strength, VarId, View, Wake,
};
use common::edges::{offset_for, small_or_edge_domains, value_range};
use common::{relation, relation_holds};
use proptest::prelude::*;

/// A view's scale for values in `low..=high`: mostly small of either sign,
/// sometimes one that takes the values to the ends of `i32` (a little past them, so
/// that the model must refuse the view), sometimes 0, which no view may have.
fn scale_for(low: i64, high: i64) -> impl Strategy<Value = i32> + Clone {
    let largest = low.abs().max(high.abs()).max(1);
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    prop_oneof![
        8 => prop_oneof![-3..=-1i32, 1..=3i32],
        2 => (-1i64..=1, any::<bool>()).prop_map(move |(d, negative)| {
            let edge = i64::from(i32::MAX) / largest + d;
            clamp(if negative { -edge } else { edge })
        }),
        1 => Just(0),
    ]
}

/// Some domains, with a view `scale * x + offset` of each.
#[derive(Clone, Debug)]
struct Case {
    domains: Vec<Vec<i32>>,
    views: Vec<(i32, i32)>,
}

impl Case {
    /// The value of view `i` when its variable is `value`.
    fn value(&self, i: usize, value: i32) -> i64 {
        let (scale, offset) = self.views[i];
        i64::from(scale) * i64::from(value) + i64::from(offset)
    }

    /// Whether every view is one a model accepts: a scale that is not 0, an
    /// offset that is not `i32::MIN`, and every value in `i32`.
    fn fits(&self) -> bool {
        (self.views.iter().enumerate()).all(|(i, &(scale, offset))| {
            let fits = |v: &i32| i32::try_from(self.value(i, *v)).is_ok();
            scale != 0 && offset != i32::MIN && self.domains[i].iter().all(fits)
        })
    }

    /// A model with a variable for each domain, and the views.
    fn model(&self) -> (Model, Vec<View>) {
        let mut model = Model::new();
        let views = (self.domains.iter().zip(&self.views))
            .map(|(domain, &(scale, offset))| {
                let x = model.var_from_values(domain.iter().copied()).unwrap();
                scale * x + offset
            })
            .collect();
        (model, views)
    }

    /// The assignments of the variables whose views satisfy `holds`.
    fn brute_force(&self, holds: &dyn Fn(&[i64]) -> bool) -> BTreeSet<Vec<i32>> {
        common::brute_force(&self.domains, &|values| {
            let views: Vec<i64> = (values.iter().enumerate())
                .map(|(i, &v)| self.value(i, v))
                .collect();
            holds(&views)
        })
    }
}

fn case(count: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Case> {
    small_or_edge_domains(count, 4).prop_flat_map(|domains| {
        let (low, high) = value_range(&domains);
        let views =
            prop::collection::vec((scale_for(low, high), offset_for(low, high)), domains.len());
        (Just(domains), views).prop_map(|(domains, views)| Case { domains, views })
    })
}

/// Posts with `post` and checks the outcome: refused with a typed view error (the
/// model unchanged) exactly when a view does not fit, else exactly the brute-force
/// solutions of `holds`, on the case's variables, each once.
fn check(
    case: &Case,
    post: impl FnOnce(&mut Model, &[View]) -> Result<(), ModelError>,
    holds: &dyn Fn(&[i64]) -> bool,
) -> Result<(), TestCaseError> {
    let (mut model, views) = case.model();
    let shape = (model.var_count(), model.constraint_count());
    match post(&mut model, &views) {
        Err(ModelError::ScaleOverflow { .. } | ModelError::OffsetOverflow { .. }) => {
            prop_assert!(!case.fits(), "a view that fits was refused");
            let after = (model.var_count(), model.constraint_count());
            prop_assert_eq!(after, shape, "a refusal changed the model");
            return Ok(());
        }
        Err(error) => {
            prop_assert!(false, "refused with {error:?}");
        }
        Ok(()) => prop_assert!(case.fits(), "a view beyond i32 was accepted"),
    }
    let vars: Vec<VarId> = model.vars().take(case.domains.len()).collect();
    let mut solver = Solver::new(model);
    solver.check_solutions(true);
    let found: Vec<Vec<i32>> = (solver.solutions())
        .map(|s| s.map(|s| vars.iter().map(|&x| s[x]).collect()))
        .collect::<Result<_, _>>()
        .map_err(|reason| TestCaseError::fail(format!("stopped: {reason}")))?;
    let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
    prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
    prop_assert_eq!(distinct, case.brute_force(holds));
    Ok(())
}

fn all_distinct(values: &[i64]) -> bool {
    values.iter().collect::<BTreeSet<_>>().len() == values.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn all_different_over_scaled_views_at_every_strength(case in case(2..=4)) {
        for strength in [Strength::Value, Strength::HiddenSingles, Strength::Bounds, Strength::Domain] {
            check(
                &case,
                |model, views| model.all_different_with(views.iter().copied(), strength).map(drop),
                &all_distinct,
            )?;
        }
    }

    #[test]
    fn linear_over_scaled_views(
        case in case(1..=3),
        coefs in prop::collection::vec(-3i32..=3, 3),
        relation in relation(),
        rhs in -20i32..=20,
    ) {
        let terms = |views: &[View]| -> Vec<(i32, View)> {
            coefs.iter().copied().zip(views.iter().copied()).collect()
        };
        check(
            &case,
            |model, views| model.linear(terms(views), relation, rhs).map(drop),
            &|values| {
                let sum: i128 = (coefs.iter().zip(values))
                    .map(|(&a, &v)| i128::from(a) * i128::from(v))
                    .sum();
                relation_holds(relation, sum, i128::from(rhs))
            },
        )?;
    }

    #[test]
    fn element_over_scaled_views(
        case in case(1..=1),
        index in prop::sample::subsequence((-3..=8).collect::<Vec<i32>>(), 1..=4),
        index_view in (prop_oneof![-2..=-1i32, 1..=2i32], -2..=6i32),
        picks in prop::collection::vec(0usize..4, 1..=6),
        stray in -3i32..=3,
    ) {
        // The index a view over a few small values, the array some values of the
        // case's view (where it fits) and a small one: a few assignments hold.
        let mut case = case;
        case.domains.insert(0, index);
        case.views.insert(0, index_view);
        let domain = &case.domains[1];
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let array: Vec<i32> = (picks.iter())
            .map(|&p| clamp(case.value(1, domain[p % domain.len()])))
            .chain([stray])
            .collect();
        check(
            &case,
            |model, views| model.element(&array, views[0], views[1]).map(drop),
            &|values| {
                usize::try_from(values[0]).ok()
                    .and_then(|i| array.get(i))
                    .is_some_and(|&a| i64::from(a) == values[1])
            },
        )?;
    }

    #[test]
    fn table_over_scaled_views(
        case in case(2..=3),
        picks in prop::collection::vec(prop::collection::vec(0usize..4, 3), 0..=6),
        stray in prop::collection::vec(-3i32..=3, 3),
    ) {
        // Tuples of the views' values (some assignments allowed) and one of small
        // values, which most views never take.
        let images: Vec<Vec<i32>> = (picks.iter())
            .map(|pick| (0..case.domains.len())
                .map(|i| {
                    let domain = &case.domains[i];
                    case.value(i, domain[pick[i] % domain.len()]).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
                })
                .collect())
            .chain(std::iter::once(stray[..case.domains.len()].to_vec()))
            .collect();
        check(
            &case,
            |model, views| model.table(views.iter().copied(), &images).map(drop),
            &|values| images.iter().any(|t| t.iter().zip(values).all(|(&a, &v)| i64::from(a) == v)),
        )?;
    }

    #[test]
    fn reification_over_scaled_views(
        case in case(2..=2),
        relation in relation(),
        value in -10i32..=10,
        between_views in any::<bool>(),
        half in any::<bool>(),
    ) {
        // b <-> (v0 ⋈ value) or b <-> (v0 ⋈ v1), b the case's last variable, over
        // {0, 1}, with the view 1 * b + 0.
        let mut case = case;
        case.domains.push(vec![0, 1]);
        case.views.push((1, 0));
        if !between_views {
            case.views[1] = (1, 0); // not posted: it must not be refused
        }
        check(
            &case,
            |model, views| {
                let condition = match between_views {
                    true => Condition::compare_views(views[0], relation, views[1]),
                    false => Condition::compare(views[0], relation, value),
                };
                match half {
                    true => model.half_reify(views[2].var, condition).map(drop),
                    false => model.reify(views[2].var, condition).map(drop),
                }
            },
            &|values| {
                let rhs = if between_views { values[1] } else { value.into() };
                let holds = relation_holds(relation, values[0].into(), rhs.into());
                if half { values[2] == 0 || holds } else { (values[2] == 1) == holds }
            },
        )?;
    }
}

#[test]
fn place_values_fold_into_a_linear_and_scales_into_views() {
    // SEND + MORE = MONEY with its place values as views.
    let mut model = Model::new();
    let [s, m] = model.int_var_array(1, 9).unwrap();
    let [e, n, d, o, r, y] = model.int_var_array(0, 9).unwrap();
    model.all_different([s, e, n, d, m, o, r, y]).unwrap();
    let send = [1000 * s, 100 * e, 10 * n, d.into()];
    let more = [1000 * m, 100 * o, 10 * r, e.into()];
    let money = [-10000 * m, -1000 * o, -100 * n, -10 * e, -y];
    let terms = send.into_iter().chain(more).chain(money).map(|v| (1, v));
    model.linear(terms, Relation::Equal, 0).unwrap();
    // Folded into coefficients: no auxiliary variable.
    assert_eq!(model.var_count(), 8);
    let solutions: Vec<_> = Solver::new(model).solutions().map(Result::unwrap).collect();
    assert_eq!(solutions.len(), 1);
    let digits = [s, e, n, d, m, o, r, y].map(|x| solutions[0][x]);
    assert_eq!(digits, [9, 5, 6, 7, 1, 0, 8, 2]);
}

/// Watches one view, prunes nothing.
#[derive(Clone, Debug)]
struct Watcher(View);

impl Propagator for Watcher {
    fn name(&self) -> &'static str {
        "watcher"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.0, Wake::Domain).map(drop)
    }
    fn propagate(&mut self, _: &mut Context<'_>) -> Result<(), Conflict> {
        Ok(())
    }
    fn is_satisfied(&self, _: &dyn Fn(VarId) -> i32) -> bool {
        true
    }
}

#[test]
fn a_scaled_view_that_overflows_is_refused_and_changes_nothing() {
    let mut model = Model::new();
    let x = model.int_var(-2, 1 << 20).unwrap();
    let y = model.int_var(0, 3).unwrap();
    for view in [x * (1 << 11), -(x * 4096) * 512, x * 0, (y * i32::MAX) * 2] {
        let refused = model.all_different([view, y.into()]);
        assert!(
            matches!(refused, Err(ModelError::ScaleOverflow { .. })),
            "{view:?}: {refused:?}"
        );
        assert_eq!((model.var_count(), model.constraint_count()), (2, 0));
    }
    // A refusal after an auxiliary variable was made takes it back too.
    let refused = model.inverse([2 * y, y + 1], 0, [y], 0);
    assert!(matches!(refused, Err(ModelError::InvalidConstraint { .. })));
    assert_eq!((model.var_count(), model.constraint_count()), (2, 0));
    // -x * 2^10 fits: from -2^30 to 2048.
    model.all_different([-(x * 1024), y.into()]).unwrap();
    assert_eq!((model.var_count(), model.constraint_count()), (3, 2));
    // A propagator of one's own takes x + c only.
    let refused = model.post(Watcher(2 * y));
    assert!(matches!(refused, Err(ModelError::InvalidConstraint { .. })));
    model.post(Watcher(y + 2)).unwrap();
}

#[test]
fn an_objective_through_a_negative_scale_is_optimised_the_right_way() {
    let mut model = Model::new();
    let [x, y] = model.int_var_array(0, 9).unwrap();
    model.all_different([x, y]).unwrap();
    model.less(y, x).unwrap();
    // min -2x + 5 is max x: x = 9 (y below it), -13.
    let mut solver = Solver::new(model.clone());
    let minimised = solver.minimize(-2 * x + 5).unwrap().finish();
    let OptimizeOutcome::Optimal(best) = minimised else {
        panic!("{minimised:?}")
    };
    assert_eq!((best.objective, best.solution[x]), (-13, 9));
    assert_eq!(solver.statistics().objective, Some(-13));
    // max -3y is min y: 0.
    let maximised = solver.maximize(-3 * y).unwrap().finish();
    let OptimizeOutcome::Optimal(best) = maximised else {
        panic!("{maximised:?}")
    };
    assert_eq!((best.objective, best.solution[y]), (0, 0));
    // The same on two threads.
    let mut parallel = ParallelSolver::new(2, model);
    let OptimizeOutcome::Optimal(best) = parallel.minimize(-2 * x + 5).unwrap() else {
        panic!("no optimum")
    };
    assert_eq!(best.objective, -13);
}

#[test]
fn a_wide_variable_seen_through_a_scale_is_linked_value_by_value_once_narrow() {
    let mut model = Model::new();
    let x = model.int_var(-(1 << 20), 1 << 20).unwrap();
    let y = model.int_var(0, 20).unwrap();
    model.equal(3 * x + 1, y).unwrap();
    let mut solver = Solver::new(model);
    let domains = solver.root_domains().unwrap();
    // y keeps the values 3x + 1 takes, x the values whose image y has.
    assert_eq!(domains[y.index()], [1, 4, 7, 10, 13, 16, 19]);
    assert_eq!(domains[x.index()], (0..=6).collect::<Vec<_>>());
    assert_eq!(solver.count(None).solutions, 7);
}
