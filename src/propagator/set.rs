//! The posted propagators, each with the variables it watches and where its state
//! sits, and the fixpoint loop that runs the woken ones.

#[cfg(feature = "debug-checks")]
use super::checks::{Before, Ran};
use super::post::Registration;
use super::{Context, InferenceLabel, PostContext, Propagator, Pruning, Queue};
use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId};
#[cfg(feature = "debug-checks")]
use crate::invariant::uncounted;
use crate::store::{Event, Store};
use crate::variables::Variables;

/// A model's propagators, in posting order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Propagators {
    pub(super) list: Vec<Posted>,
    /// The store's word that holds how many propagators are entailed (see
    /// [`Context::entailed`] and `Queue::entail`), once a solver is made.
    entailed: Option<usize>,
}

/// One posted propagator and what it registered.
#[derive(Clone, Debug)]
pub(super) struct Posted {
    pub(super) propagator: Box<dyn Propagator>,
    /// Its watched variables (store indices) with their events, by local index.
    pub(super) watched: Vec<(u32, Event)>,
    /// Where its state words sit in the store, `start..end`.
    pub(super) state: (usize, usize),
}

impl Propagators {
    /// Posts `propagator` over `vars`: it registers its watches and its state, which
    /// gets cells in the store after everything before it. On error nothing changes.
    pub(crate) fn post(
        &mut self,
        vars: &mut Variables,
        mut propagator: Box<dyn Propagator>,
    ) -> Result<ConstraintId, ModelError> {
        let mut ctx = PostContext::new(vars, propagator.name());
        propagator.post(&mut ctx)?;
        let Registration { watched, state } = ctx.finish()?;
        let start = vars.store.add_state(&state);
        self.list.push(Posted {
            propagator,
            watched,
            state: (start, start + state.len()),
        });
        Ok(ConstraintId(self.list.len() as u32 - 1))
    }

    /// The store's word that holds how many propagators are entailed (see
    /// `Queue::entail`), made in `store` (the model's, which every search starts
    /// from, at 0) the first time a solver asks.
    pub(crate) fn entailed_cell(&mut self, store: &mut Store) -> usize {
        *self.entailed.get_or_insert_with(|| store.add_state(&[0]))
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The propagator at `index`, with its watched variables and events.
    pub(crate) fn get(&self, index: usize) -> (&dyn Propagator, &[(u32, Event)]) {
        let posted = &self.list[index];
        (posted.propagator.as_ref(), &posted.watched)
    }

    /// The kind of the constraint at `index`.
    pub(crate) fn name(&self, index: usize) -> Option<&'static str> {
        self.list.get(index).map(|p| p.propagator.name())
    }

    /// The variables each propagator watches (store indices).
    pub(crate) fn watched_vars(&self) -> Vec<Vec<u32>> {
        (self.list.iter())
            .map(|p| p.watched.iter().map(|&(var, _)| var).collect())
            .collect()
    }

    /// Runs woken propagators until none is left (the fixpoint) or one fails: its
    /// index then, with the queue emptied. Counts each call in `calls`; records each
    /// removal in `pruned` when that is on. With the `debug-checks` feature, checks
    /// each call's soundness and the fixpoint's idempotence (`checks.rs`).
    pub(crate) fn fixpoint(&mut self, run: Run<'_>) -> Result<(), u32> {
        let Run {
            store,
            queue,
            modified,
            pruned,
            vars,
            calls,
        } = run;
        while let Some(current) = queue.pop(modified) {
            *calls += 1;
            let posted = &mut self.list[current as usize];
            #[cfg(feature = "debug-checks")]
            let before = uncounted(|| Before::read(store, &posted.watched));
            let mut ctx = Context {
                store,
                queue,
                current,
                modified,
                state: posted.state,
                pruned,
                label: InferenceLabel::UNNAMED,
                vars,
            };
            let result = posted.propagator.propagate(&mut ctx);
            #[cfg(feature = "debug-checks")]
            if let Some(before) = before {
                let ran = Ran {
                    index: current,
                    propagator: posted.propagator.as_ref(),
                    watched: &posted.watched,
                    result,
                    entailed: queue.is_entailed(current),
                };
                uncounted(|| before.check(&ran, store, vars));
            }
            if result.is_err() {
                queue.clear();
                return Err(current);
            }
        }
        #[cfg(feature = "debug-checks")]
        uncounted(|| self.check_idempotence(store, queue, vars));
        Ok(())
    }

    /// The first constraint that `value` violates, if any: every constraint's
    /// [`Propagator::is_satisfied`] on a full assignment.
    pub(crate) fn violated(&self, value: &dyn Fn(VarId) -> i32) -> Option<ConstraintId> {
        (self
            .list
            .iter()
            .position(|p| !p.propagator.is_satisfied(value)))
        .map(|index| ConstraintId(index as u32))
    }
}

/// What one run of [`Propagators::fixpoint`] works on, all owned by the solver.
pub(crate) struct Run<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) queue: &'a mut Queue,
    /// Scratch for the modified local indices of the propagator running.
    pub(crate) modified: &'a mut Vec<u32>,
    pub(crate) pruned: &'a mut Option<Vec<Pruning>>,
    pub(crate) vars: &'a Variables,
    pub(crate) calls: &'a mut u64,
}
