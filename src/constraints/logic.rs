//! Logic over Boolean literals: clauses (`or`), conjunctions (`and`), parity (`xor`),
//! and a literal equivalent to a disjunction (`t <-> or(literals)`, which with negations
//! is also `t <-> and(literals)`).
//!
//! A literal ([`Literal`]) is a variable over `{0, 1}` or its negation; every constraint
//! here checks, when it is posted, that its literals' variables take no other values.
//!
//! Clauses and parity constraints keep two *watched* positions in backtrackable state
//! words: a clause (parity) constraint has nothing to do while two of its literals are
//! not false (not fixed), so a wake that leaves both watches alone costs O(1), and one
//! that kills a watch looks for a replacement in O(n).

use crate::error::ModelError;
use crate::ids::{Literal, VarId};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// Watches a literal's variable for fixing, after checking that it is a 0/1 variable.
///
/// # Errors
///
/// As [`PostContext::watch`], and [`ModelError::InvalidConstraint`] naming the variable if
/// its initial values are not within `{0, 1}`.
pub(crate) fn watch_literal(ctx: &mut PostContext<'_>, lit: Literal) -> Result<u32, ModelError> {
    ctx.check(lit.var)?;
    let (min, max) = (ctx.min(lit.var), ctx.max(lit.var));
    if min < 0 || max > 1 {
        return Err(ModelError::InvalidConstraint {
            constraint: ctx.constraint(),
            reason: format!(
                "{} is used as a Boolean literal, but its values reach {min}..={max}",
                ctx.name(lit.var)
            ),
        });
    }
    ctx.watch(lit.var, Wake::Fixed)
}

fn watch_literals(ctx: &mut PostContext<'_>, lits: &[Literal]) -> Result<(), ModelError> {
    lits.iter()
        .try_for_each(|&lit| watch_literal(ctx, lit).map(drop))
}

/// The literal's truth under the current domains, if its variable is fixed.
pub(crate) fn truth(ctx: &Context<'_>, lit: Literal) -> Option<bool> {
    ctx.value(lit.var).map(|v| lit.holds(v))
}

/// Makes the literal `value`.
pub(crate) fn set_literal(
    ctx: &mut Context<'_>,
    lit: Literal,
    value: bool,
) -> Result<bool, Conflict> {
    let true_value = lit.true_value();
    ctx.fix(lit.var, if value { true_value } else { 1 - true_value })
}

fn literal_holds(lit: Literal, value: &dyn Fn(VarId) -> i32) -> bool {
    lit.holds(value(lit.var))
}

/// Moves the two watches (state words 0 and 1, positions in `lits`) off literals that
/// are no longer `live`, each to another live literal. Returns the position of the one
/// literal that may still be live when no replacement is left, that is when every other
/// literal is dead; `None` while two watched literals are live. O(1) when both watches
/// are live, O(n) otherwise.
fn settle_watches(
    ctx: &mut Context<'_>,
    lits: &[Literal],
    live: impl Fn(&Context<'_>, Literal) -> bool,
) -> Option<usize> {
    if lits.len() == 1 {
        return Some(0);
    }
    let state = ctx.state();
    let mut watch = [state[0] as usize, state[1] as usize];
    for slot in 0..2 {
        if live(ctx, lits[watch[slot]]) {
            continue;
        }
        let other = watch[1 - slot];
        let n = lits.len();
        let replacement = (1..n)
            .map(|k| (watch[slot] + k) % n)
            .find(|&j| j != other && live(ctx, lits[j]));
        match replacement {
            Some(j) => {
                watch[slot] = j;
                ctx.set_state(slot, j as u64);
            }
            None => return Some(other),
        }
    }
    None
}

/// Registers the literals and the two watches of [`settle_watches`].
fn post_watched(ctx: &mut PostContext<'_>, lits: &[Literal]) -> Result<(), ModelError> {
    watch_literals(ctx, lits)?;
    ctx.set_initial_state(vec![0, 1]);
    Ok(())
}

/// A clause: at least one of the literals is true (`l₁ ∨ l₂ ∨ … ∨ lₙ`). Built by
/// [`Model::or`](crate::Model::or) and [`Model::implies`](crate::Model::implies).
///
/// # Propagation
///
/// Two watched literals that are not false; when every literal but one is false, the last
/// one is made true (unit propagation). A wake costs O(1) unless it falsifies a watched
/// literal, then O(n) to find another. A satisfied clause is entailed
/// ([`Context::entailed`](crate::Context::entailed)) and not woken again below.
#[derive(Clone, Debug)]
pub struct Clause {
    lits: Vec<Literal>,
}

impl Clause {
    /// The label of its removals ([`Context::set_label`]): a clause with one literal left
    /// that is not false makes it true; shared by [`Conjunction`] (each literal) and
    /// [`ReifiedOr`] (a true disjunct makes the target true).
    pub const UNIT: InferenceLabel = InferenceLabel::new("unit clause");

    /// The clause over `lits` (checked when posted: at least one, each over a 0/1
    /// variable).
    pub fn new(lits: Vec<Literal>) -> Clause {
        Clause { lits }
    }
}

/// Unit propagation of the clause `lits`; the watches are state words 0 and 1.
fn propagate_clause(ctx: &mut Context<'_>, lits: &[Literal]) -> Result<(), Conflict> {
    let state = ctx.state();
    let watched = [state[0] as usize, (state[1] as usize).min(lits.len() - 1)];
    if watched.iter().any(|&w| truth(ctx, lits[w]) == Some(true)) {
        ctx.entailed(); // satisfied
        return Ok(());
    }
    if let Some(last) = settle_watches(ctx, lits, |ctx, lit| truth(ctx, lit) != Some(false)) {
        set_literal(ctx, lits[last], true)?;
        ctx.entailed();
    }
    Ok(())
}

impl Propagator for Clause {
    fn name(&self) -> &'static str {
        "clause"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        post_watched(ctx, &self.lits)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Clause::UNIT);
        propagate_clause(ctx, &self.lits)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.lits.iter().any(|&lit| literal_holds(lit, value))
    }

    fn reads_modified(&self) -> bool {
        false
    }
}

/// A conjunction: every literal is true. Built by [`Model::and`](crate::Model::and).
///
/// # Propagation
///
/// Fixes every literal at its first run, O(n).
#[derive(Clone, Debug)]
pub struct Conjunction {
    lits: Vec<Literal>,
}

impl Conjunction {
    /// The conjunction of `lits` (checked when posted: at least one, each over a 0/1
    /// variable).
    pub fn new(lits: Vec<Literal>) -> Conjunction {
        Conjunction { lits }
    }
}

impl Propagator for Conjunction {
    fn name(&self) -> &'static str {
        "and"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        watch_literals(ctx, &self.lits)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Clause::UNIT);
        for &lit in &self.lits {
            set_literal(ctx, lit, true)?;
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.lits.iter().all(|&lit| literal_holds(lit, value))
    }
}

/// Parity: an odd number of the literals are true (`l₁ ⊕ l₂ ⊕ … ⊕ lₙ`). Built by
/// [`Model::xor`](crate::Model::xor).
///
/// # Propagation
///
/// Two watched unfixed literals; when every literal but one is fixed, the last one takes
/// the value that makes the count odd. A wake costs O(1) unless it fixes a watched
/// literal, then O(n).
#[derive(Clone, Debug)]
pub struct Xor {
    lits: Vec<Literal>,
}

impl Xor {
    /// The label of its removals ([`Context::set_label`]): a parity constraint with one
    /// literal left fixes it.
    pub const PARITY: InferenceLabel = InferenceLabel::new("parity");

    /// The parity constraint over `lits` (checked when posted: at least one, each over a
    /// 0/1 variable).
    pub fn new(lits: Vec<Literal>) -> Xor {
        Xor { lits }
    }
}

impl Propagator for Xor {
    fn name(&self) -> &'static str {
        "xor"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        post_watched(ctx, &self.lits)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Xor::PARITY);
        let Some(last) = settle_watches(ctx, &self.lits, |ctx, lit| !ctx.is_fixed(lit.var)) else {
            return Ok(());
        };
        // Every other literal is fixed: the last one makes the count odd.
        let others_odd = self
            .lits
            .iter()
            .enumerate()
            .filter(|&(i, &lit)| i != last && truth(ctx, lit) == Some(true))
            .count()
            % 2
            == 1;
        set_literal(ctx, self.lits[last], !others_odd)?;
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        self.lits
            .iter()
            .filter(|&&lit| literal_holds(lit, value))
            .count()
            % 2
            == 1
    }
}

/// A literal equivalent to a disjunction: `t <-> (l₁ ∨ … ∨ lₙ)`. With every literal
/// negated it is a conjunction: `t <-> (l₁ ∧ … ∧ lₙ)` is `¬t <-> (¬l₁ ∨ … ∨ ¬lₙ)`. Built
/// by [`Model::reify_or`](crate::Model::reify_or) and
/// [`Model::reify_and`](crate::Model::reify_and).
///
/// # Propagation
///
/// A true `lᵢ` makes `t` true (O(1) per fixed literal); a false `t` makes every `lᵢ`
/// false (O(n), once); and the clause `¬t ∨ l₁ ∨ … ∨ lₙ` is unit-propagated with two
/// watches as in [`Clause`] (so all `lᵢ` false makes `t` false, and a true `t` with one
/// `lᵢ` left makes it true).
#[derive(Clone, Debug)]
pub struct ReifiedOr {
    /// `¬t` first, then the disjuncts: the clause `t -> or(lits)`.
    clause: Vec<Literal>,
}

impl ReifiedOr {
    /// `target <-> or(lits)` (checked when posted: at least one literal, each over a 0/1
    /// variable).
    pub fn new(target: Literal, lits: impl IntoIterator<Item = Literal>) -> ReifiedOr {
        ReifiedOr {
            clause: std::iter::once(!target).chain(lits).collect(),
        }
    }
}

impl Propagator for ReifiedOr {
    fn name(&self) -> &'static str {
        "reified_or"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        if self.clause.len() == 1 {
            return Err(ModelError::NoVariables {
                constraint: ctx.constraint(),
            });
        }
        post_watched(ctx, &self.clause)
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Clause::UNIT);
        let (not_target, disjuncts) = (self.clause[0], &self.clause[1..]);
        match truth(ctx, not_target) {
            Some(true) => {
                for &lit in disjuncts {
                    set_literal(ctx, lit, false)?;
                }
                ctx.entailed();
                return Ok(());
            }
            Some(false) => {}
            None => {
                // Local index i watches clause[i]: a disjunct fixed true makes t true.
                let clause = &self.clause;
                let any_true = ctx
                    .modified()
                    .iter()
                    .any(|&i| i > 0 && truth(ctx, clause[i as usize]) == Some(true));
                if any_true {
                    set_literal(ctx, not_target, false)?;
                    ctx.entailed();
                    return Ok(());
                }
            }
        }
        propagate_clause(ctx, &self.clause)
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let target = !literal_holds(self.clause[0], value);
        let any = self.clause[1..]
            .iter()
            .any(|&lit| literal_holds(lit, value));
        target == any
    }
}

#[cfg(test)]
mod tests {
    use crate::{Literal, Model, ModelError, Outcome, Solver};

    fn bools(model: &mut Model, domains: &[&[i32]]) -> Vec<crate::VarId> {
        domains
            .iter()
            .map(|d| model.var_from_values(d.iter().copied()).unwrap())
            .collect()
    }

    #[test]
    fn a_clause_with_one_literal_left_makes_it_true() {
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0], &[1], &[0, 1], &[0, 1]]);
        model.or([x[0].into(), !x[1], x[2].into()]).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[2], vec![1]);
        assert_eq!(domains[3], vec![0, 1]);

        let mut model = Model::new();
        let x = bools(&mut model, &[&[0], &[1]]);
        model.or([x[0].into(), !x[1]]).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn a_clause_with_two_open_literals_prunes_nothing() {
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0], &[0, 1], &[0, 1]]);
        model.or([x[0], x[1], x[2]]).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains[1..], [vec![0, 1], vec![0, 1]]);
    }

    #[test]
    fn and_fixes_every_literal() {
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0, 1], &[0, 1]]);
        model.and([x[0].into(), !x[1]]).unwrap();
        let domains = Solver::new(model).root_domains().unwrap();
        assert_eq!(domains, vec![vec![1], vec![0]]);
    }

    #[test]
    fn xor_fixes_the_last_literal_by_parity() {
        let mut model = Model::new();
        let x = bools(&mut model, &[&[1], &[1], &[0, 1]]);
        model.xor([x[0], x[1], x[2]]).unwrap();
        assert_eq!(Solver::new(model).root_domains().unwrap()[2], vec![1]);

        let mut model = Model::new();
        let x = bools(&mut model, &[&[1], &[0], &[0, 1]]);
        model
            .xor([x[0].into(), Literal::from(x[1]), !x[2]])
            .unwrap();
        assert_eq!(Solver::new(model).root_domains().unwrap()[2], vec![1]);

        let mut model = Model::new();
        let x = bools(&mut model, &[&[0, 1]]);
        model.xor([x[0], x[0]]).unwrap();
        assert_eq!(Solver::new(model).solve(), Outcome::Unsatisfiable);
    }

    #[test]
    fn reify_or_propagates_both_ways() {
        // A true disjunct makes t true.
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0, 1], &[0, 1], &[1]]);
        model.reify_or(x[0], [x[1], x[2]]).unwrap();
        assert_eq!(Solver::new(model).root_domains().unwrap()[0], vec![1]);
        // All disjuncts false make t false.
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0, 1], &[0], &[1]]);
        model.reify_or(x[0], [x[1].into(), !x[2]]).unwrap();
        assert_eq!(Solver::new(model).root_domains().unwrap()[0], vec![0]);
        // A false t makes every disjunct false.
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0], &[0, 1], &[0, 1]]);
        model.reify_or(x[0], [x[1].into(), !x[2]]).unwrap();
        assert_eq!(
            Solver::new(model).root_domains().unwrap(),
            vec![vec![0], vec![0], vec![1]]
        );
        // A true t with one disjunct left makes it true; and is the negated form.
        let mut model = Model::new();
        let x = bools(&mut model, &[&[0], &[0, 1], &[1]]);
        model.reify_and(x[0], [x[1], x[2]]).unwrap();
        assert_eq!(Solver::new(model).root_domains().unwrap()[1], vec![0]);
    }

    #[test]
    fn literals_must_be_boolean_and_present() {
        let mut model = Model::new();
        let x = model.int_var(0, 2).unwrap();
        model.set_name(x, "x").unwrap();
        let err = model.or([x]).unwrap_err();
        assert!(
            matches!(&err, ModelError::InvalidConstraint { constraint: "clause", reason } if reason.contains("x is used as a Boolean")),
            "{err}"
        );
        let none: [Literal; 0] = [];
        assert!(matches!(
            model.or(none),
            Err(ModelError::NoVariables { .. })
        ));
        assert!(matches!(
            model.xor(none),
            Err(ModelError::NoVariables { .. })
        ));
        let b = model.bool_var().unwrap();
        assert!(matches!(
            model.reify_or(b, none),
            Err(ModelError::NoVariables { .. })
        ));
        let other = Model::new().bool_var().unwrap();
        assert!(matches!(
            model.or([other]),
            Err(ModelError::ForeignVariable { .. })
        ));
        assert_eq!(model.constraint_count(), 0);
    }
}
