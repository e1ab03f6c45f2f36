//! A system of all-different groups, propagated together and value-major.
//!
//! See [`AllDifferentSystem`]. The parts: this file, the posted constraint; `sets.rs`,
//! sets of variables and of groups; `queues.rs`, the work queued by value and group;
//! `kernel/`, the value-major kernel (its sync, removal, singles, locked candidates,
//! write-back and debug checks); `tests.rs`, the unit tests.

mod kernel;
mod queues;
mod sets;

use std::collections::HashMap;

use crate::error::ModelError;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};
use kernel::Kernel;

/// The most variables one system may have (64 words of 64 bits per value).
pub const MAX_SYSTEM_VARIABLES: usize = 64 * 64;

/// Several groups of variables, each taking pairwise different values, propagated as
/// one constraint.
///
/// Sudoku is the example: 27 groups (rows, columns, boxes) over 81 cells. Instead of
/// one [`AllDifferent`](crate::constraints::AllDifferent) per group, each woken and
/// run separately, this keeps, for every value, the set of variables where the value
/// is still possible, as a bitset over the variables, and applies the rules to the
/// groups with word operations, to a fixpoint inside one call:
///
/// - **value elimination** (naked singles): a fixed variable's value leaves its peers,
///   the other variables of every group it belongs to;
/// - **hidden single**: in a group with exactly as many values left (in the union of
///   its domains) as variables, a value with one place left in the group is fixed
///   there; a group with fewer values left than variables fails;
/// - **locked candidates** (optional, [`AllDifferentSystem::locked_candidates`]): in
///   such a group, a value whose places all lie in the part shared with another
///   group leaves the rest of that other group; in every call, or only in the first
///   call of each search, at the root ([`LockedCandidates`]).
///
/// Its removals carry the labels of the constraints that reason the same way
/// ([`Context::set_label`]): [`AllDifferent::VALUE_ELIMINATION`](crate::constraints::AllDifferent::VALUE_ELIMINATION),
/// [`AllDifferent::ONLY_PLACE`](crate::constraints::AllDifferent::ONLY_PLACE) and
/// [`Intersection::CONFINED`](crate::constraints::Intersection::CONFINED).
///
/// Every variable must have a small domain: all values of all variables must fit in
/// one window of 64 values, and a system has at most [`MAX_SYSTEM_VARIABLES`]
/// variables; posting it checks both.
///
/// The value-major sets are backtrackable state
/// ([`PostContext::set_initial_state`]): the solver restores them with the domains, so they
/// always describe the domains as the constraint's last call left them, a fixpoint of
/// the rules. A call then only looks where [`Context::modified`] says the domains
/// changed since: the values a variable lost, in its groups, and the peers of a
/// variable newly fixed. If the rules change nothing in the model's own domains, every
/// search starts from the sets built for them; otherwise the first call of a search
/// builds the sets and looks everywhere.
///
/// ```
/// use alldiff::{Model, Solver};
///
/// // A 3x3 Latin square: rows and columns all-different.
/// let mut model = Model::new();
/// let x = model.int_vars(9, 1, 3)?;
/// let rows = (0..3).map(|r| (0..3).map(|c| x[r * 3 + c]).collect::<Vec<_>>());
/// let columns = (0..3).map(|c| (0..3).map(|r| x[r * 3 + c]).collect::<Vec<_>>());
/// model.all_different_system(rows.chain(columns))?;
/// assert_eq!(Solver::new(model).count(None).solutions, 12);
/// # Ok::<(), alldiff::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct AllDifferentSystem {
    /// The distinct variables of all groups, in order of first appearance; the rest
    /// of the constraint names them by their index here.
    vars: Vec<VarId>,
    /// Each group, as indices into `vars`.
    groups: Vec<Vec<u32>>,
    /// Where the store keeps each variable's domain word.
    words: Vec<DomainWord>,
    /// The store cell of the first variable's word, if the others follow it in order
    /// and none shifts: then all are read at once.
    contiguous: Option<usize>,
    locked: LockedCandidates,
    /// Built when the system is posted, from the model's domains.
    kernel: Option<SizedKernel>,
}

/// When an [`AllDifferentSystem`] applies its locked-candidates rule.
///
/// The rule prunes more than singles but costs more per call, and most of what it
/// saves it saves at the root: on Sudoku, applying it at the root only leaves the
/// search trees nearly as small as applying it everywhere, at little more than the
/// cost of singles below the root (`docs/performance.md` has the node counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LockedCandidates {
    /// Never: singles only.
    #[default]
    Off,
    /// In the first call of each search, at the root, before any choice. With
    /// [`Solver::push_level`](crate::Solver::push_level), the root is below the
    /// levels: the searches that start from them apply singles only.
    AtRoot,
    /// In every call.
    Always,
}

impl From<bool> for LockedCandidates {
    /// `true` is [`LockedCandidates::Always`], `false` [`LockedCandidates::Off`].
    fn from(on: bool) -> LockedCandidates {
        if on {
            LockedCandidates::Always
        } else {
            LockedCandidates::Off
        }
    }
}

/// Where the store keeps one variable's domain word, and how far it shifts left into
/// the common window of values.
#[derive(Clone, Copy, Debug)]
struct DomainWord {
    cell: usize,
    shift: u32,
}

impl AllDifferentSystem {
    /// The system of `groups`. Posting it ([`Model::post`](crate::Model::post) or
    /// [`Model::all_different_system`](crate::Model::all_different_system)(crate::Model::all_different_system)) checks it
    /// against the model's domains.
    ///
    /// Posting fails with
    /// - [`ModelError::ForeignVariable`] for a variable of another model;
    /// - [`ModelError::InvalidConstraint`] when a group lists a variable twice, when
    ///   the values of all the variables do not fit one window of 64 values, or when
    ///   there are more than [`MAX_SYSTEM_VARIABLES`] variables;
    /// - [`ModelError::NoVariables`] without any variable.
    pub fn new<G, I>(groups: G) -> AllDifferentSystem
    where
        G: IntoIterator<Item = I>,
        I: IntoIterator<Item = VarId>,
    {
        let mut local_of: HashMap<VarId, u32> = HashMap::new();
        let mut vars = Vec::new();
        let groups = (groups.into_iter())
            .map(|group| {
                (group.into_iter())
                    .map(|var| {
                        *local_of.entry(var).or_insert_with(|| {
                            vars.push(var);
                            (vars.len() - 1) as u32
                        })
                    })
                    .collect()
            })
            .collect();
        AllDifferentSystem {
            vars,
            groups,
            words: Vec::new(),
            contiguous: None,
            locked: LockedCandidates::Off,
            kernel: None,
        }
    }

    /// Checks the system against the model's domains, and lays out its kernel: where
    /// each domain word sits and how far it shifts into the common window.
    fn lay_out(&mut self, ctx: &PostContext<'_>) -> Result<(), ModelError> {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: "all_different_system",
            reason,
        };
        for (g, group) in self.groups.iter().enumerate() {
            for (k, &local) in group.iter().enumerate() {
                if group[..k].contains(&local) {
                    let name = ctx.name(self.vars[local as usize]);
                    return Err(invalid(format!("group {} lists {name} twice", g + 1)));
                }
            }
        }
        if self.vars.len() > MAX_SYSTEM_VARIABLES {
            return Err(invalid(format!(
                "{} variables, more than the {MAX_SYSTEM_VARIABLES} a system may have",
                self.vars.len()
            )));
        }
        let mut found = Vec::with_capacity(self.vars.len());
        for &var in &self.vars {
            match small_domain(ctx, var) {
                Some(found_here) => found.push(found_here),
                None => {
                    let name = ctx.name(var);
                    return Err(invalid(format!("{name} has values more than 64 apart")));
                }
            }
        }
        let base = found.iter().map(|&(_, base, _)| i64::from(base)).min();
        let top = found
            .iter()
            .map(|&(word, base, _)| i64::from(base) + 63 - i64::from(word.leading_zeros()))
            .max();
        let (base, top) = (base.unwrap_or(0), top.unwrap_or(0));
        if top - base >= 64 {
            return Err(invalid(format!(
                "the values span {base}..={top}, more than one window of 64 values"
            )));
        }
        self.words = found
            .iter()
            .map(|&(_, b, cell)| DomainWord {
                cell,
                shift: (i64::from(b) - base) as u32,
            })
            .collect();
        let first = self.words.first().map(|w| w.cell);
        self.contiguous = first.filter(|&first| {
            (self.words.iter().enumerate()).all(|(i, w)| w.cell == first + i && w.shift == 0)
        });
        let values = (top - base + 1) as usize;
        let domains: Vec<u64> = (found.iter().zip(&self.words))
            .map(|(&(word, _, _), w)| word << w.shift)
            .collect();
        self.kernel = Some(SizedKernel::new(&domains, values, &self.groups));
        Ok(())
    }

    /// When the locked-candidates rule applies (never by default; `true` means in
    /// every call): it prunes more per call but costs more per call.
    pub fn locked_candidates(mut self, when: impl Into<LockedCandidates>) -> AllDifferentSystem {
        self.locked = when.into();
        self
    }

    /// The groups, each as a list of variables.
    pub fn groups(&self) -> impl Iterator<Item = Vec<VarId>> + '_ {
        self.groups
            .iter()
            .map(|g| g.iter().map(|&i| self.vars[i as usize]).collect())
    }
}

impl Propagator for AllDifferentSystem {
    fn name(&self) -> &'static str {
        "all_different_system"
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch_all(self.vars.iter().copied(), Wake::Domain)?;
        self.lay_out(ctx)?;
        let locked = self.locked != LockedCandidates::Off;
        ctx.set_initial_state(match &self.kernel {
            Some(SizedKernel::W1(k)) => k.initial_state(locked),
            Some(SizedKernel::W2(k)) => k.initial_state(locked),
            Some(SizedKernel::W4(k)) => k.initial_state(locked),
            Some(SizedKernel::W8(k)) => k.initial_state(locked),
            Some(SizedKernel::W16(k)) => k.initial_state(locked),
            Some(SizedKernel::Wide(k)) => k.initial_state(locked),
            None => Vec::new(),
        });
        Ok(())
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let vars = Vars {
            vars: &self.vars,
            words: &self.words,
            contiguous: self.contiguous,
            locked: self.locked,
        };
        match &mut self.kernel {
            Some(SizedKernel::W1(k)) => k.propagate(ctx, &vars),
            Some(SizedKernel::W2(k)) => k.propagate(ctx, &vars),
            Some(SizedKernel::W4(k)) => k.propagate(ctx, &vars),
            Some(SizedKernel::W8(k)) => k.propagate(ctx, &vars),
            Some(SizedKernel::W16(k)) => k.propagate(ctx, &vars),
            Some(SizedKernel::Wide(k)) => k.propagate(ctx, &vars),
            None => unreachable!("a system is laid out when it is posted"),
        }
    }

    /// The variables of the groups the failure lay in: a system blamed as a whole
    /// would weigh every variable alike, where separate groups would be told apart.
    fn blame(&self, culprits: &mut Vec<VarId>) {
        let mut blame =
            |g: usize| culprits.extend(self.groups[g].iter().map(|&i| self.vars[i as usize]));
        match &self.kernel {
            Some(SizedKernel::W1(k)) => k.failed_groups(&mut blame),
            Some(SizedKernel::W2(k)) => k.failed_groups(&mut blame),
            Some(SizedKernel::W4(k)) => k.failed_groups(&mut blame),
            Some(SizedKernel::W8(k)) => k.failed_groups(&mut blame),
            Some(SizedKernel::W16(k)) => k.failed_groups(&mut blame),
            Some(SizedKernel::Wide(k)) => k.failed_groups(&mut blame),
            None => {}
        }
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.groups.iter().all(|group| {
            let mut seen: Vec<i32> = group
                .iter()
                .map(|&i| value(self.vars[i as usize]))
                .collect();
            seen.sort_unstable();
            seen.windows(2).all(|w| w[0] != w[1])
        })
    }
}

/// The variables as the kernel needs them.
struct Vars<'a> {
    vars: &'a [VarId],
    words: &'a [DomainWord],
    /// The store cell of the first variable, if the others follow it in order and
    /// none is shifted.
    contiguous: Option<usize>,
    locked: LockedCandidates,
}

/// The value-major kernel, sized by the number of 64-bit words a set of variables
/// takes.
#[derive(Clone, Debug)]
enum SizedKernel {
    W1(Box<Kernel<1>>),
    W2(Box<Kernel<2>>),
    W4(Box<Kernel<4>>),
    W8(Box<Kernel<8>>),
    W16(Box<Kernel<16>>),
    Wide(Box<Kernel<64>>),
}

impl SizedKernel {
    /// The kernel for variables with the given domains (shifted into the window).
    fn new(domains: &[u64], values: usize, groups: &[Vec<u32>]) -> SizedKernel {
        match domains.len().div_ceil(64) {
            0 | 1 => SizedKernel::W1(Box::new(Kernel::new(domains, values, groups))),
            2 => SizedKernel::W2(Box::new(Kernel::new(domains, values, groups))),
            3 | 4 => SizedKernel::W4(Box::new(Kernel::new(domains, values, groups))),
            5..=8 => SizedKernel::W8(Box::new(Kernel::new(domains, values, groups))),
            9..=16 => SizedKernel::W16(Box::new(Kernel::new(domains, values, groups))),
            _ => SizedKernel::Wide(Box::new(Kernel::new(domains, values, groups))),
        }
    }
}

/// Where the store keeps variable `var`'s domain word: the word, the value its bit 0
/// stands for, and its cell; `None` when its values are more than 64 apart.
fn small_domain(ctx: &PostContext<'_>, var: VarId) -> Option<(u64, i32, usize)> {
    let (word, base) = ctx.small_word(var)?;
    let cell = ctx.small_cell(var)?;
    Some((word, base, cell))
}

#[cfg(test)]
mod tests;
