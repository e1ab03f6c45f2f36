//! The checks that catch a wrong propagator, each shown catching one written wrong
//! on purpose: [`Solver::check_solutions`] (in every build) stops the search at a
//! solution that violates a constraint; the `debug-checks` feature (`cargo test
//! --features debug-checks --test checks`) panics at a call that removes a value a
//! solution uses or says it is entailed while a violating assignment is left, and at
//! a fixpoint a propagator would still prune.

use alldiff::{
    Conflict, Context, CountStatus, Model, ModelError, OptimizeOutcome, Outcome, PostContext,
    Propagator, Solver, Step, StopReason, VarId, Wake,
};

/// `x != y`, propagated not at all: every assignment gets through.
#[derive(Clone, Debug)]
struct LaxNotEqual {
    x: VarId,
    y: VarId,
}

impl Propagator for LaxNotEqual {
    fn name(&self) -> &'static str {
        "lax_not_equal"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Fixed)
    }
    fn propagate(&mut self, _: &mut Context<'_>) -> Result<(), Conflict> {
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.x) != value(self.y)
    }
}

/// `x` and `y` over 1..=2, `x <= y` posted first and the lax `x != y` second: the
/// solver reaches (1, 1), (1, 2) and (2, 2), two of which violate the second
/// constraint. With the reason a checking search stops for.
fn lax_model(checked: bool) -> (Solver, StopReason) {
    let mut model = Model::new();
    let x = model.int_var(1, 2).unwrap();
    let y = model.int_var(1, 2).unwrap();
    model.less_eq(x, y).unwrap();
    let constraint = model.post(LaxNotEqual { x, y }).unwrap();
    let mut solver = Solver::new(model);
    solver.check_solutions(checked);
    let reason = StopReason::WrongSolution {
        constraint,
        name: "lax_not_equal",
    };
    (solver, reason)
}

#[test]
fn a_checking_solver_stops_at_a_wrong_solution_and_names_the_constraint() {
    let (mut solver, reason) = lax_model(true);
    assert_eq!(
        reason.to_string(),
        "a solution violates constraint #1 (lax_not_equal)"
    );
    assert_eq!(solver.solve(), Outcome::Stopped(reason));
    let count = solver.count(None);
    assert_eq!(
        (count.solutions, count.status),
        (0, CountStatus::Stopped(reason))
    );
    let mut solutions = solver.solutions();
    assert_eq!(solutions.next(), Some(Err(reason)));
    assert_eq!(solutions.next(), None);
    // The search stays stopped.
    assert_eq!(solver.advance(), Step::Stopped(reason));
    assert_eq!(solver.advance(), Step::Stopped(reason));
}

#[test]
fn a_checking_optimisation_stops_at_a_wrong_solution() {
    let (mut solver, reason) = lax_model(true);
    let x = solver.model().vars().next().unwrap();
    let outcome = solver.minimize(x).unwrap().finish();
    let expected = OptimizeOutcome::Stopped { best: None, reason };
    assert_eq!(outcome, expected);
}

#[test]
fn a_checking_solver_reports_right_solutions_as_before() {
    let mut model = Model::new();
    let x = model.int_vars(6, 1, 6).unwrap();
    model.all_different(x).unwrap();
    let mut solver = Solver::new(model);
    solver.check_solutions(true);
    assert!(solver.checks_solutions());
    let count = solver.count(None);
    assert_eq!(
        (count.solutions, count.status),
        (720, CountStatus::Complete)
    );
}

/// Without the feature, an unchecked solver reports the wrong solutions: the check
/// is what stops them. (With it, every solution is checked, and a violation panics.)
#[cfg(not(feature = "debug-checks"))]
#[test]
fn an_unchecked_solver_reports_the_wrong_solutions() {
    assert_eq!(lax_model(false).0.count(None).solutions, 3);
}

#[cfg(feature = "debug-checks")]
#[test]
#[should_panic(expected = "debug-checks: a solution violates constraint #1 (lax_not_equal)")]
fn debug_checks_panic_at_a_wrong_solution_the_solver_does_not_check() {
    lax_model(false).0.count(None);
}

/// `x < y`, which also removes `y`'s largest value: unsound, since a solution of
/// `x < y` may use it.
#[cfg(feature = "debug-checks")]
#[derive(Clone, Debug)]
struct GreedyLess {
    x: VarId,
    y: VarId,
}

#[cfg(feature = "debug-checks")]
impl Propagator for GreedyLess {
    fn name(&self) -> &'static str {
        "greedy_less"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Bounds)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let max_y = ctx.max(self.y);
        ctx.set_max(self.x, max_y - 1)?;
        let min_x = ctx.min(self.x);
        ctx.set_min(self.y, min_x + 1)?;
        if ctx.size(self.y) > 1 {
            ctx.set_max(self.y, max_y - 1)?;
        }
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.x) < value(self.y)
    }
}

#[cfg(feature = "debug-checks")]
#[test]
#[should_panic(expected = "debug-checks: propagator #0 (greedy_less) is unsound: it removed y = 3")]
fn debug_checks_panic_at_a_call_that_removes_a_supported_value() {
    let mut model = Model::new();
    let x = model.int_var(1, 3).unwrap();
    let y = model.int_var(1, 3).unwrap();
    model.set_name(y, "y").unwrap();
    model.post(GreedyLess { x, y }).unwrap();
    Solver::new(model).count(None);
}

/// `x != y`, which says it is entailed at once: every assignment would get through.
#[cfg(feature = "debug-checks")]
#[derive(Clone, Debug)]
struct HastyNotEqual {
    x: VarId,
    y: VarId,
}

#[cfg(feature = "debug-checks")]
impl Propagator for HastyNotEqual {
    fn name(&self) -> &'static str {
        "hasty_not_equal"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Fixed)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.entailed();
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.x) != value(self.y)
    }
}

#[cfg(feature = "debug-checks")]
#[test]
#[should_panic(
    expected = "debug-checks: propagator #0 (hasty_not_equal) is unsound: it said \
                           it is entailed, but this assignment left violates its constraint"
)]
fn debug_checks_panic_at_a_call_that_says_it_is_entailed_too_soon() {
    let mut model = Model::new();
    let x = model.int_var(1, 2).unwrap();
    let y = model.int_var(1, 2).unwrap();
    model.post(HastyNotEqual { x, y }).unwrap();
    Solver::new(model).count(None);
}

/// `x < y`, which lowers `x`'s maximum by one a call and says it is idempotent: the
/// queue does not run it again, and the fixpoint it leaves is not its own.
#[cfg(feature = "debug-checks")]
#[derive(Clone, Debug)]
struct SlowLess {
    x: VarId,
    y: VarId,
}

#[cfg(feature = "debug-checks")]
impl Propagator for SlowLess {
    fn name(&self) -> &'static str {
        "slow_less"
    }
    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all([self.x, self.y], Wake::Bounds)
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let max_x = ctx.max(self.x);
        if max_x >= ctx.max(self.y) {
            ctx.set_max(self.x, max_x - 1)?;
        }
        let min_x = ctx.min(self.x);
        ctx.set_min(self.y, min_x + 1)?;
        Ok(())
    }
    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        value(self.x) < value(self.y)
    }
    fn is_idempotent(&self) -> bool {
        true
    }
}

#[cfg(feature = "debug-checks")]
#[test]
#[should_panic(expected = "debug-checks: propagator #0 (slow_less) is not idempotent")]
fn debug_checks_panic_at_a_fixpoint_a_propagator_would_still_prune() {
    let mut model = Model::new();
    let x = model.int_var(1, 5).unwrap();
    let y = model.int_var(1, 3).unwrap();
    model.post(SlowLess { x, y }).unwrap();
    Solver::new(model).count(None);
}

/// The same propagator, honest about not being idempotent: the queue runs it again
/// until it prunes no more, and the checks pass.
#[cfg(feature = "debug-checks")]
#[test]
fn a_propagator_that_needs_several_runs_passes_once_the_queue_reruns_it() {
    #[derive(Clone, Debug)]
    struct Rerun(SlowLess);
    impl Propagator for Rerun {
        fn name(&self) -> &'static str {
            "rerun_less"
        }
        fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
            self.0.post(ctx)
        }
        fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
            self.0.propagate(ctx)
        }
        fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
            self.0.is_satisfied(value)
        }
    }
    let mut model = Model::new();
    let x = model.int_var(1, 5).unwrap();
    let y = model.int_var(1, 3).unwrap();
    model.post(Rerun(SlowLess { x, y })).unwrap();
    assert_eq!(Solver::new(model).count(None).solutions, 3);
}
