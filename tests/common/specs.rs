//! A model as the brute-force suites draw it: variables over given domains and the
//! constraints ("specs") posted on them, some of which the model may refuse (views or
//! sums beyond `i32` or `i64`, see [`super::refusal`]).

use std::collections::BTreeSet;

use alldiff::{Model, ModelError, SearchConfig, VarId};
use proptest::test_runner::TestCaseError;

use super::refusal::accepted_over;

/// A constraint of a suite: what the oracle says of values, how it is posted, and
/// where a refusal is allowed.
pub trait Spec: Clone + std::fmt::Debug {
    /// Whether `values` (one for each variable, in order) satisfy the constraint.
    fn holds(&self, values: &[i32]) -> bool;
    /// Posts the constraint on `vars`.
    fn post(&self, model: &mut Model, vars: &[VarId]) -> Result<(), ModelError>;
    /// Whether the model may refuse the constraint over `domains`.
    fn may_refuse(&self, domains: &[Vec<i32>]) -> bool;
}

/// One variable for each domain, and the specs over them.
#[derive(Clone, Debug)]
pub struct Problem<S> {
    pub domains: Vec<Vec<i32>>,
    pub specs: Vec<S>,
}

impl<S: Spec> Problem<S> {
    /// The problem with only the specs a model accepts, after checking that each
    /// refusal was one [`Spec::may_refuse`] allows.
    pub fn accepted(&self) -> Result<Problem<S>, TestCaseError> {
        let may_refuse = |s: &S| s.may_refuse(&self.domains);
        let specs = accepted_over(&self.domains, &self.specs, S::post, may_refuse)?;
        Ok(Problem {
            domains: self.domains.clone(),
            specs,
        })
    }

    /// A fresh model of the problem, whose specs must all be accepted.
    pub fn build(&self) -> (Model, Vec<VarId>) {
        let mut model = Model::new();
        let vars = super::vars(&mut model, &self.domains);
        for spec in &self.specs {
            spec.post(&mut model, &vars).unwrap();
        }
        (model, vars)
    }

    /// Every assignment satisfying every spec, by enumeration.
    pub fn brute_force(&self) -> BTreeSet<Vec<i32>> {
        super::brute_force(&self.domains, &|values| {
            self.specs.iter().all(|s| s.holds(values))
        })
    }

    /// Over the specs the model accepts: the solver agrees with brute force under
    /// each of `configs`, and root propagation keeps every value a solution uses
    /// (see [`super::check_solutions`]).
    pub fn check(&self, configs: &[SearchConfig]) -> Result<(), TestCaseError> {
        let problem = self.accepted()?;
        super::check_solutions(&problem.brute_force(), configs, &|| problem.build())
    }
}
