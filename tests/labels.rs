//! Inference labels: a user's propagator declares its own, beside its code, and the
//! recorded prunings and a trace's summary carry them as they do the built-in ones.

use alldiff::{
    ConstraintId, Context, InferenceLabel, Model, ModelError, PostContext, Propagator, Pruning,
    Solver, VarId, Wake,
};

/// `y == 2 * x`, labelling each direction with a label of its own, or leaving its
/// removals unlabelled.
#[derive(Clone, Debug)]
struct Double {
    x: VarId,
    y: VarId,
    labelled: bool,
}

impl Double {
    /// Values of `y` that are not twice a value of `x`.
    const DOUBLING: InferenceLabel = InferenceLabel::new("doubling");
    /// Values of `x` whose double `y` does not have.
    const HALVING: InferenceLabel = InferenceLabel::new("halving");

    fn label(&self, ctx: &mut Context<'_>, label: InferenceLabel) {
        if self.labelled {
            ctx.set_label(label);
        }
    }
}

impl Propagator for Double {
    fn name(&self) -> &'static str {
        "double"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Domain)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), alldiff::Conflict> {
        self.label(ctx, Double::DOUBLING);
        let (x, y) = (self.x, self.y);
        let odd: Vec<i32> = ctx
            .values(y)
            .filter(|&v| v % 2 != 0 || !ctx.contains(x, v / 2))
            .collect();
        for v in odd {
            ctx.remove(y, v)?;
        }
        self.label(ctx, Double::HALVING);
        let unmatched: Vec<i32> = ctx.values(x).filter(|&v| !ctx.contains(y, 2 * v)).collect();
        for v in unmatched {
            ctx.remove(x, v)?;
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.y) == 2 * value(self.x)
    }
}

/// `x` in 1..=6 and `y` in 1..=3 under [`Double`]: the root's propagation alone
/// solves it (`y` loses 1 and 3, then `x` all but 1), with no search.
fn doubled(labelled: bool) -> (Model, ConstraintId, VarId, VarId) {
    let mut model = Model::new();
    let x = model.int_var(1, 6).unwrap();
    let y = model.int_var(1, 3).unwrap();
    let id = model.post(Double { x, y, labelled }).unwrap();
    (model, id, x, y)
}

/// The root's prunings, as `(constraint, label, variable, value)`.
fn root_prunings(model: Model) -> Vec<(ConstraintId, InferenceLabel, VarId, i32)> {
    let mut solver = Solver::new(model);
    solver.record_prunings(true);
    assert!(solver.root_domains().is_some());
    solver
        .take_prunings()
        .into_iter()
        .map(
            |Pruning {
                 constraint,
                 label,
                 var,
                 value,
                 ..
             }| (constraint, label, var, value),
        )
        .collect()
}

#[test]
fn a_users_propagator_labels_its_removals() {
    let (model, id, x, y) = doubled(true);
    let (doubling, halving) = (Double::DOUBLING, Double::HALVING);
    let expected = vec![
        (id, doubling, y, 1),
        (id, doubling, y, 3),
        (id, halving, x, 2),
        (id, halving, x, 3),
        (id, halving, x, 4),
        (id, halving, x, 5),
        (id, halving, x, 6),
    ];
    assert_eq!(root_prunings(model), expected);
}

#[test]
fn removals_left_unlabelled_are_plain_propagation() {
    let (model, ..) = doubled(false);
    let prunings = root_prunings(model);
    assert_eq!(prunings.len(), 7);
    assert!(
        prunings
            .iter()
            .all(|&(_, label, ..)| label == InferenceLabel::UNNAMED),
        "{prunings:?}"
    );
    assert_eq!(InferenceLabel::UNNAMED.name(), "propagation");
}

/// A trace records the user's labels by name, and its summary counts the values each
/// removed, beside a built-in constraint's.
#[cfg(feature = "trace")]
#[test]
fn a_traces_summary_counts_a_users_labels() {
    use alldiff::constraints::AllDifferent;
    use alldiff::trace::{self, Trace};

    let (mut model, _, x, y) = doubled(true);
    // z != x, once x is 1, removes 1 from z by value elimination.
    let z = model.int_var(1, 2).unwrap();
    model.all_different([x, z]).unwrap();
    let _ = y;
    let mut solver = Solver::new(model);
    let mut file = Vec::new();
    let (count, _) = trace::count_traced(&mut solver, "doubled", &mut file, None, None).unwrap();
    assert_eq!(count.solutions, 1);
    let summary = Trace::parse(&file[..]).unwrap().summary();
    let elimination = AllDifferent::VALUE_ELIMINATION.name().to_owned();
    assert_eq!(
        summary.by_rule,
        vec![
            ("halving".to_owned(), 5),
            ("doubling".to_owned(), 2),
            (elimination, 1)
        ]
    );
    let text = summary.to_string();
    assert!(text.contains("\n  halving: 5\n"), "{text}");
}
