//! The `debug-checks` feature's checks of the propagators, which the fixpoint loop
//! (`set.rs`) runs in any build, release included:
//!
//! - *soundness*: a call removes no value that some solution of its constraint, over
//!   the domains before the call, uses; it fails only if there is no such solution,
//!   and says it is entailed only if every assignment left satisfies the constraint.
//!   Checked by enumerating the assignments of the propagator's variables
//!   ([`Propagator::is_satisfied`](crate::Propagator::is_satisfied) on each) where they are few: at most
//!   `SUPPORT_WORK` values read in all (assignments times variables).
//! - *idempotence*: at the fixpoint, every propagator not entailed, run once more (as
//!   on its first run, every variable modified), removes nothing and does not fail.
//!
//! A violation panics, naming the propagator (its index and kind) and its variables'
//! domains: in a checking build a panic is the report. The checks leave the search as
//! it was: the second run happens under a mark of the store, undone after each
//! propagator; no call is counted in the statistics, and nothing they allocate is
//! counted by the `count-allocations` allocator ([`uncounted`](crate::invariant::uncounted)).
//!
//! [`domains`] is compiled in every build: the search's solution
//! check ([`Solver::check_solutions`](crate::Solver::check_solutions)) uses it too.

use std::fmt::Write as _;

use crate::store::{Event, Store};
use crate::variables::Variables;

/// The most variables [`domains`] describes.
const SHOWN_VARS: usize = 24;

/// The most values of one domain [`domains`] lists (more: its bounds and size).
const SHOWN_VALUES: usize = 16;

/// The domains of the variables in `watched` (store indices, each once), for a
/// message: `x in {1, 3}, #4 in 2..=90 (80 values)`.
pub(crate) fn domains(store: &Store, vars: &Variables, watched: &[(u32, Event)]) -> String {
    let mut seen: Vec<u32> = watched.iter().map(|&(var, _)| var).collect();
    seen.sort_unstable();
    seen.dedup();
    let distinct = seen.len();
    let mut text = String::new();
    let mut shown = 0;
    for &(var, _) in watched {
        let Ok(at) = seen.binary_search(&var) else {
            continue;
        };
        seen.remove(at);
        if shown == SHOWN_VARS {
            let _ = write!(text, ", ... ({distinct} variables)");
            break;
        }
        let separator = if shown == 0 { "" } else { ", " };
        let name = vars.name(vars.var_at(var));
        let _ = write!(text, "{separator}{name} in {}", domain(store, var));
        shown += 1;
    }
    text
}

/// One domain, for a message: `{1, 3}`, or `2..=90 (80 values)`.
fn domain(store: &Store, var: u32) -> String {
    let size = store.size(var) as usize;
    if size == 0 {
        return "{}".to_owned();
    }
    if size > SHOWN_VALUES {
        let (min, max) = store.bounds(var);
        return format!("{min}..={max} ({size} values)");
    }
    list(store.values(var))
}

/// Values as a set: `{1, 3}`.
fn list(values: impl IntoIterator<Item = i32>) -> String {
    let values: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!("{{{}}}", values.join(", "))
}

#[cfg(feature = "debug-checks")]
pub(super) use enabled::{Before, Ran};

/// The checks themselves, compiled with the feature only.
#[cfg(feature = "debug-checks")]
mod enabled {
    use std::cell::Cell;

    use super::super::set::{Posted, Propagators};
    use super::super::{Conflict, Context, InferenceLabel, Propagator, Queue};
    use super::{domains, list};

    /// The most characters of a propagator's `Debug` form a message shows.
    const SHOWN_DEBUG: usize = 400;

    /// A propagator's `Debug` form, cut to [`SHOWN_DEBUG`] characters.
    fn described(propagator: &dyn Propagator) -> String {
        let text = format!("{propagator:?}");
        match text.char_indices().nth(SHOWN_DEBUG) {
            Some((cut, _)) => format!("{} ...", &text[..cut]),
            None => text,
        }
    }
    use crate::ids::VarId;
    use crate::store::{Event, Store};
    use crate::variables::Variables;

    /// The most values the soundness check reads for one call: the number of
    /// assignments of the propagator's variables times the number of variables. Above,
    /// the call goes unchecked. 4,096 assignments of 4 variables, 1,024 of 16: a
    /// property suite's small models are checked throughout, and a 24-term sum over
    /// Booleans (the corpus's `knapsack-24`, 1.5 million calls) takes 40 s rather than
    /// 90 s with 4,096 assignments whatever the width.
    const SUPPORT_WORK: u64 = 1 << 14;

    /// A propagator's variables (store indices, each once, ascending) and their
    /// domains before a call, read when enumerating them costs at most
    /// [`SUPPORT_WORK`].
    pub(crate) struct Before {
        vars: Vec<u32>,
        domains: Vec<Vec<i32>>,
    }

    /// One call of a propagator, as the soundness check sees it.
    pub(crate) struct Ran<'a> {
        pub(crate) index: u32,
        pub(crate) propagator: &'a dyn Propagator,
        pub(crate) watched: &'a [(u32, Event)],
        pub(crate) result: Result<(), Conflict>,
        /// Whether the call said the constraint is entailed.
        pub(crate) entailed: bool,
    }

    impl Before {
        /// The domains of `watched`'s variables now; `None` if enumerating their
        /// assignments would cost more than [`SUPPORT_WORK`].
        pub(crate) fn read(store: &Store, watched: &[(u32, Event)]) -> Option<Before> {
            let mut vars: Vec<u32> = watched.iter().map(|&(var, _)| var).collect();
            vars.sort_unstable();
            vars.dedup();
            let mut work = vars.len().max(1) as u64;
            for &var in &vars {
                work = work.saturating_mul(u64::from(store.size(var)));
                if work > SUPPORT_WORK {
                    return None;
                }
            }
            let domains = vars
                .iter()
                .map(|&var| store.values(var).collect())
                .collect();
            Some(Before { vars, domains })
        }

        /// Checks the call `ran`, which left `store`: every assignment of the domains
        /// before it that satisfies the constraint must be left whole (and, if the call
        /// failed, there must be none); if the call said the constraint is entailed,
        /// every assignment left must satisfy it. An assignment that reads a variable
        /// the propagator does not watch, unfixed, cannot be enumerated: the call then
        /// goes unchecked.
        pub(crate) fn check(&self, ran: &Ran<'_>, store: &Store, vars: &Variables) {
            let shrunk = (self.vars.iter().zip(&self.domains))
                .any(|(&var, domain)| store.size(var) as usize != domain.len());
            if ran.result.is_ok() && !shrunk && !ran.entailed {
                return;
            }
            let mut at = vec![0; self.vars.len()];
            let mut values: Vec<i32> = self.domains.iter().map(|d| d[0]).collect();
            let unwatched = Cell::new(false);
            loop {
                let value = |var: VarId| match self.vars.binary_search(&var.raw()) {
                    Ok(i) => values[i],
                    Err(_) => {
                        unwatched.set(unwatched.get() || !store.is_fixed(var.raw()));
                        store.min(var.raw())
                    }
                };
                let holds = ran.propagator.is_satisfied(&value);
                if unwatched.get() {
                    return;
                }
                let gone = match ran.result {
                    Ok(()) => (self.vars.iter().zip(&values))
                        .position(|(&var, &value)| !store.contains(var, value)),
                    Err(Conflict) => Some(0),
                };
                if holds && gone.is_some() {
                    let what = match (ran.result, gone) {
                        (Ok(()), Some(i)) => {
                            let name = vars.name(vars.var_at(self.vars[i]));
                            format!(
                                "removed {name} = {}, which this solution of its constraint uses",
                                values[i]
                            )
                        }
                        _ => "failed, but this assignment satisfies its constraint".to_owned(),
                    };
                    self.fail(ran, store, vars, &values, &what);
                }
                if ran.entailed && gone.is_none() && !holds {
                    let what =
                        "said it is entailed, but this assignment left violates its constraint";
                    self.fail(ran, store, vars, &values, what);
                }
                if !self.next(&mut at, &mut values) {
                    return;
                }
            }
        }

        /// Moves `values` (at positions `at` in the domains) to the next assignment;
        /// `false` after the last.
        fn next(&self, at: &mut [usize], values: &mut [i32]) -> bool {
            for (i, domain) in self.domains.iter().enumerate() {
                at[i] += 1;
                if at[i] < domain.len() {
                    values[i] = domain[at[i]];
                    return true;
                }
                at[i] = 0;
                values[i] = domain[0];
            }
            false
        }

        /// Panics: the call `ran` did `what` with the assignment `values`.
        fn fail(&self, ran: &Ran<'_>, store: &Store, vars: &Variables, values: &[i32], what: &str) {
            let name = |var: u32| vars.name(vars.var_at(var));
            let assignment: Vec<String> = (self.vars.iter().zip(values))
                .map(|(&var, value)| format!("{} = {value}", name(var)))
                .collect();
            let before: Vec<String> = (self.vars.iter().zip(&self.domains))
                .map(|(&var, domain)| format!("{} in {}", name(var), list(domain.iter().copied())))
                .collect();
            let after = match ran.result {
                Ok(()) => domains(store, vars, ran.watched),
                Err(Conflict) => "(failed)".to_owned(),
            };
            panic!(
                "debug-checks: propagator #{} ({}) is unsound: it {what}: {}\n  its variables \
                 before the call: {}\n  after: {after}\n  {}",
                ran.index,
                ran.propagator.name(),
                assignment.join(", "),
                before.join(", "),
                described(ran.propagator),
            );
        }
    }

    impl Propagators {
        /// At a fixpoint of `store`, runs every propagator not entailed once more, as
        /// on its first run (every variable modified), under a mark of `store`
        /// undone after each: panics if one removes a value or fails.
        pub(crate) fn check_idempotence(
            &mut self,
            store: &mut Store,
            queue: &mut Queue,
            vars: &Variables,
        ) {
            let mark = store.mark();
            let mut modified = Vec::new();
            for (index, posted) in self.list.iter_mut().enumerate() {
                let current = index as u32;
                if queue.is_entailed(current) {
                    continue;
                }
                let Posted {
                    propagator,
                    watched,
                    state,
                } = posted;
                modified.clear();
                if propagator.reads_modified() {
                    modified.extend(0..watched.len() as u32);
                }
                let sizes: Vec<u32> = watched.iter().map(|&(var, _)| store.size(var)).collect();
                let mut ctx = Context {
                    store,
                    queue,
                    current,
                    modified: &modified,
                    state: *state,
                    pruned: &mut None,
                    label: InferenceLabel::UNNAMED,
                    vars,
                };
                let result = propagator.propagate(&mut ctx);
                let shrunk =
                    (watched.iter().zip(&sizes)).any(|(&(var, _), &size)| store.size(var) != size);
                if result.is_err() || shrunk {
                    let (did, after) = match result {
                        Ok(()) => ("removed values", domains(store, vars, watched)),
                        Err(Conflict) => ("failed", "(failed)".to_owned()),
                    };
                    store.undo_to(mark);
                    panic!(
                        "debug-checks: propagator #{index} ({}) is not idempotent: run again at \
                         the fixpoint, it {did}\n  its variables at the fixpoint: {}\n  \
                         after: {after}\n  {}",
                        propagator.name(),
                        domains(store, vars, watched),
                        described(propagator.as_ref()),
                    );
                }
                store.undo_to(mark);
                queue.revive(store);
            }
        }
    }
}
