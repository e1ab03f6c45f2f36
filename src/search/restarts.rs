//! Restart policies: after how many failures a search goes back up and starts anew.

/// When to restart a search: after a number of failures (the cutoff) that grows from
/// one restart to the next, so one attempt eventually runs as long as it needs and
/// an exhausted search is still a proof. A restart goes back to the highest node with
/// a branch left (the root, unless the search already refuted a first decision there)
/// and chooses anew from there; what the search learned stays: dom/wdeg weights, a
/// random value order's generator, the best objective so far. Set with
/// [`crate::Solver::set_restarts`].
///
/// Restarting helps when the variable choice learns (dom/wdeg) or a value order is
/// random; with fixed orders each attempt starts the same way.
///
/// ```
/// use alldiff::Restarts;
/// let cutoffs = |r: Restarts| (0..8).map(|i| r.cutoff(i)).collect::<Vec<_>>();
/// assert_eq!(cutoffs(Restarts::luby(10)), [10, 10, 20, 10, 10, 20, 40, 10]);
/// assert_eq!(cutoffs(Restarts::geometric(10, 1.5)), [10, 15, 23, 35, 53, 80, 120, 180]);
/// assert_eq!(cutoffs(Restarts::linear(10)), [10, 20, 30, 40, 50, 60, 70, 80]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Restarts {
    /// The `i`th cutoff is `scale` times the `i`th term of the Luby sequence
    /// 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
    Luby {
        /// Failures per unit of the sequence (at least 1).
        scale: u64,
    },
    /// The first cutoff is `first`; each next one is the previous times `factor`,
    /// rounded up, and always at least one more than the previous.
    Geometric {
        /// The first cutoff (at least 1).
        first: u64,
        /// The growth factor.
        factor: f64,
    },
    /// The `i`th cutoff (from 0) is `(i + 1) * scale`: MiniZinc's `restart_linear`.
    Linear {
        /// Failures added at each restart (at least 1).
        scale: u64,
    },
}

impl Restarts {
    /// Luby restarts with `scale` failures per unit.
    pub fn luby(scale: u64) -> Restarts {
        Restarts::Luby { scale }
    }

    /// Geometric restarts: `first` failures, then `factor` times as many each time.
    /// Each cutoff grows by at least one failure, so a factor at or near 1 makes the
    /// cutoffs 1, 2, 3, ... and a proof of unsatisfiability quadratic in its failures:
    /// choose 1.2 or more (1.5 and 2 are usual).
    pub fn geometric(first: u64, factor: f64) -> Restarts {
        Restarts::Geometric { first, factor }
    }

    /// Linear restarts: `scale` failures, then `scale` more each time.
    pub fn linear(scale: u64) -> Restarts {
        Restarts::Linear { scale }
    }

    /// The failure cutoff of attempt `i` (from 0). Every cutoff is at least 1, and the
    /// cutoffs grow without bound.
    pub fn cutoff(self, i: u64) -> u64 {
        match self {
            Restarts::Luby { scale } => scale.max(1).saturating_mul(luby(i)),
            Restarts::Geometric { first, factor } => {
                let mut cutoff = first.max(1);
                for _ in 0..i {
                    cutoff = next_geometric(cutoff, factor);
                }
                cutoff
            }
            Restarts::Linear { scale } => scale.max(1).saturating_mul(i.saturating_add(1)),
        }
    }
}

/// The cutoff after `cutoff`: times `factor`, rounded up, at least one more.
fn next_geometric(cutoff: u64, factor: f64) -> u64 {
    // `as` saturates (and takes NaN to 0), so any factor gives a growing sequence.
    let grown = (cutoff as f64 * factor).ceil() as u64;
    grown.max(cutoff.saturating_add(1))
}

/// The `i`th term (from 0) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ...
fn luby(i: u64) -> u64 {
    // Term i (from 1): if i = 2^k - 1 it is 2^(k-1); else the term i - 2^(k-1) + 1,
    // where 2^(k-1) <= i < 2^k - 1.
    let mut i = i.saturating_add(1);
    loop {
        // 2^(k-1) <= i < 2^k.
        let k = 64 - i.leading_zeros();
        let top = 1u64.checked_shl(k).map_or(u64::MAX, |p| p - 1);
        if i == top {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// Where a search is in its restart policy.
#[derive(Clone, Copy, Debug)]
pub(super) struct Schedule {
    policy: Restarts,
    /// Restarts so far.
    count: u64,
    /// The cutoff of the attempt running.
    cutoff: u64,
}

impl Schedule {
    pub(super) fn new(policy: Restarts) -> Schedule {
        Schedule {
            policy,
            count: 0,
            cutoff: policy.cutoff(0),
        }
    }

    /// The failures the attempt running may take.
    pub(super) fn cutoff(&self) -> u64 {
        self.cutoff
    }

    /// Moves on to the next attempt.
    pub(super) fn advance(&mut self) {
        self.count += 1;
        self.cutoff = match self.policy {
            Restarts::Luby { .. } | Restarts::Linear { .. } => self.policy.cutoff(self.count),
            Restarts::Geometric { factor, .. } => next_geometric(self.cutoff, factor),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::{Restarts, luby};

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(u64::MAX), 1 << 63);
    }

    #[test]
    fn cutoffs_grow_whatever_the_parameters() {
        for policy in [
            Restarts::geometric(0, 0.5),
            Restarts::geometric(1, f64::NAN),
            Restarts::geometric(3, 1.0),
            Restarts::linear(0),
        ] {
            let cutoffs: Vec<u64> = (0..4).map(|i| policy.cutoff(i)).collect();
            assert!(
                cutoffs.windows(2).all(|w| w[0] < w[1]),
                "{policy:?}: {cutoffs:?}"
            );
            assert!(cutoffs[0] >= 1);
        }
        assert_eq!(Restarts::luby(0).cutoff(0), 1);
        assert_eq!(Restarts::geometric(u64::MAX, 2.0).cutoff(3), u64::MAX);
    }
}
