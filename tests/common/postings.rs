//! Every way the engine posts all-different: at each [`Strength`], and as an
//! [`AllDifferentSystem`] with each setting of locked candidates.

use alldiff::constraints::{AllDifferentSystem, LockedCandidates};
use std::collections::BTreeSet;

use alldiff::{Model, ModelError, SearchConfig, Strength, VarId};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// How a suite posts its all-different constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posting {
    /// One constraint per group, at this strength.
    Single(Strength),
    /// The groups of distinct variables (no offsets) as one system; the others one
    /// constraint each, at value strength.
    System(LockedCandidates),
}

/// Every posting.
pub const POSTINGS: [Posting; 7] = [
    Posting::Single(Strength::Value),
    Posting::Single(Strength::HiddenSingles),
    Posting::Single(Strength::Bounds),
    Posting::Single(Strength::Domain),
    Posting::System(LockedCandidates::Off),
    Posting::System(LockedCandidates::AtRoot),
    Posting::System(LockedCandidates::Always),
];

/// Any posting, for suites that draw one per case instead of trying them all.
pub fn posting() -> impl Strategy<Value = Posting> {
    prop::sample::select(&POSTINGS[..])
}

/// Posts the all-different `groups` (each a list of views, as variable index and
/// offset) over `vars`, whose declared domains are `domains`, as `posting` says;
/// call it before the other constraints, which could narrow the domains the system
/// is checked against. Every view must fit `i32` (see
/// [`view_fits`](super::edges::view_fits)).
///
/// A system whose values span more than one 64-value window must be refused with
/// [`ModelError::InvalidConstraint`] (checked here, in `i64`); its groups then go one
/// constraint each, at value strength, so that the model means the same.
pub fn post_all_different(
    model: &mut Model,
    vars: &[VarId],
    domains: &[Vec<i32>],
    groups: &[Vec<(usize, i32)>],
    posting: Posting,
) -> Result<(), TestCaseError> {
    let separate = match posting {
        Posting::Single(strength) => return post_each(model, vars, groups.iter(), strength),
        Posting::System(locked) => post_system(model, vars, domains, groups, locked)?,
    };
    post_each(model, vars, separate.into_iter(), Strength::Value)
}

/// Posts each group as one all-different at `strength`.
fn post_each<'a>(
    model: &mut Model,
    vars: &[VarId],
    groups: impl Iterator<Item = &'a Vec<(usize, i32)>>,
    strength: Strength,
) -> Result<(), TestCaseError> {
    for group in groups {
        let views = group.iter().map(|&(x, offset)| vars[x] + offset);
        prop_assert_eq!(
            model.all_different_with(views, strength).map(|_| ()),
            Ok(())
        );
    }
    Ok(())
}

/// Posts the groups of distinct variables without offsets as one system, and returns
/// the groups left to post separately: the others, and these too when the system is
/// (rightly) refused.
fn post_system<'a>(
    model: &mut Model,
    vars: &[VarId],
    domains: &[Vec<i32>],
    groups: &'a [Vec<(usize, i32)>],
    locked: LockedCandidates,
) -> Result<Vec<&'a Vec<(usize, i32)>>, TestCaseError> {
    let plain = |group: &&Vec<(usize, i32)>| {
        let mut seen: Vec<usize> = group.iter().map(|&(x, _)| x).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len() == group.len() && group.iter().all(|&(_, offset)| offset == 0)
    };
    let (system, mut separate): (Vec<_>, Vec<_>) = groups.iter().partition(plain);
    if system.is_empty() {
        return Ok(separate);
    }
    let used = system.iter().flat_map(|g| g.iter().map(|&(x, _)| x));
    let values = used.flat_map(|x| domains[x].iter().map(|&v| i64::from(v)));
    let (low, high) = values.fold((i64::MAX, i64::MIN), |(l, h), v| (l.min(v), h.max(v)));
    let fits = high - low < 64;
    let vars_of = system.iter().map(|g| g.iter().map(|&(x, _)| vars[x]));
    match model.post(AllDifferentSystem::new(vars_of).locked_candidates(locked)) {
        Ok(_) => prop_assert!(fits, "a system over {low}..={high} was accepted"),
        Err(ModelError::InvalidConstraint { .. }) if !fits => separate.extend(system),
        Err(error) => prop_assert!(false, "a system over {low}..={high}: {error:?}"),
    }
    Ok(separate)
}

/// Whether `values` satisfy every all-different group (views as variable index and
/// offset), in `i64`.
pub fn groups_hold(groups: &[Vec<(usize, i32)>], values: &[i32]) -> bool {
    groups.iter().all(|group| {
        let seen: BTreeSet<i64> = (group.iter())
            .map(|&(x, offset)| i64::from(values[x]) + i64::from(offset))
            .collect();
        seen.len() == group.len()
    })
}

/// Every posting of the all-different `groups` over variables with `domains` (every
/// view fitting `i32`) finds the brute-force solutions under each of `configs`, keeps
/// them at the root ([`check_solutions`](super::check_solutions)), and finds them
/// again after a search under an assumption
/// ([`check_assumed_then_reset`](super::check_assumed_then_reset)).
pub fn check_every_posting(
    domains: &[Vec<i32>],
    groups: &[Vec<(usize, i32)>],
    configs: &[SearchConfig],
) -> Result<(), TestCaseError> {
    let expected = super::brute_force(domains, &|values| groups_hold(groups, values));
    for posting in POSTINGS {
        let build = || {
            let mut model = Model::new();
            let vars = super::vars(&mut model, domains);
            post_all_different(&mut model, &vars, domains, groups, posting)?;
            Ok((model, vars))
        };
        super::check_solutions(&expected, configs, &|| build().expect("posted"))?;
        super::check_assumed_then_reset(&expected, domains, &build)?;
    }
    Ok(())
}

/// A model with one variable per domain, the all-different `groups` posted first as
/// `posting` says ([`post_all_different`]), then whatever `rest` posts.
pub fn build_with_groups(
    domains: &[Vec<i32>],
    groups: &[Vec<(usize, i32)>],
    posting: Posting,
    rest: impl FnOnce(&mut Model, &[VarId]),
) -> Result<(Model, Vec<VarId>), TestCaseError> {
    let mut model = Model::new();
    let vars = super::vars(&mut model, domains);
    post_all_different(&mut model, &vars, domains, groups, posting)?;
    rest(&mut model, &vars);
    Ok((model, vars))
}
