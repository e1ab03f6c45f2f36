//! Models at the ends of `i32`: a constraint the library refuses must be refused with
//! a [`ModelError`] (never a panic), and only where the test predicts a refusal may
//! come, so that a library refusing everything still fails. The oracle then checks
//! the constraints that were accepted.

use alldiff::{Model, ModelError, VarId};
use proptest::test_runner::TestCaseError;

/// Posts each spec to `model`, in order, and returns those accepted. A refusal of a
/// spec for which `may_refuse` is false fails the case; so does a panic, as always.
/// A refused spec leaves the model unchanged, so the accepted ones make up the model.
pub fn post_accepted<S: Clone + std::fmt::Debug>(
    model: &mut Model,
    vars: &[VarId],
    specs: &[S],
    post: impl Fn(&S, &mut Model, &[VarId]) -> Result<(), ModelError>,
    may_refuse: impl Fn(&S) -> bool,
) -> Result<Vec<S>, TestCaseError> {
    let mut accepted = Vec::new();
    for spec in specs {
        match post(spec, model, vars) {
            Ok(()) => accepted.push(spec.clone()),
            Err(error) if may_refuse(spec) => drop(error),
            Err(error) => {
                return Err(TestCaseError::fail(format!(
                    "{spec:?} was refused: {error}"
                )));
            }
        }
    }
    Ok(accepted)
}

/// Whether `Σ a·(x + offset) ⋈ rhs` over `domains` may be refused as a sum that could
/// overflow `i64`: the terms' magnitudes, `|rhs|` and one (the reified form negates
/// the relation) add up past `i64::MAX / 2`, as `Model::linear` and the reified linear
/// condition check.
pub fn sum_may_overflow(domains: &[Vec<i32>], terms: &[(i32, (usize, i32))], rhs: i32) -> bool {
    let magnitude: i128 = (terms.iter())
        .map(|&(a, (var, offset))| {
            let reach = (domains[var].iter())
                .map(|&v| (i128::from(v) + i128::from(offset)).abs())
                .max()
                .unwrap_or(0);
            i128::from(a).abs() * reach
        })
        .sum();
    magnitude + i128::from(rhs).abs() + 1 > i128::from(i64::MAX / 2)
}

/// Whether some of `values` has a magnitude of `limit` or more.
pub fn reaches(values: impl IntoIterator<Item = i64>, limit: i64) -> bool {
    values.into_iter().any(|v| v.abs() >= limit)
}

/// [`post_accepted`] on a fresh model of one variable for each of `domains`.
pub fn accepted_over<S: Clone + std::fmt::Debug>(
    domains: &[Vec<i32>],
    specs: &[S],
    post: impl Fn(&S, &mut Model, &[VarId]) -> Result<(), ModelError>,
    may_refuse: impl Fn(&S) -> bool,
) -> Result<Vec<S>, TestCaseError> {
    let mut model = Model::new();
    let vars = super::vars(&mut model, domains);
    post_accepted(&mut model, &vars, specs, post, may_refuse)
}
