//! Inverse: two arrays of views that are each other's inverse permutation.

use crate::error::ModelError;
use crate::ids::{VarId, View};
use crate::propagator::{Conflict, Context, InferenceLabel, PostContext, Propagator, Wake};

/// `inverse(f, g)`: `f[i] == j + g_offset` exactly when `g[j] == i + f_offset`, for
/// every position `i` of `f` and `j` of `g` (counted from 0). The offsets are where
/// the other array's indices start as values: 0 for 0-based arrays, 1 for MiniZinc's
/// 1-based ones. Built by [`Model::inverse`](crate::Model::inverse).
///
/// Propagation is arc consistent on each channeling pair `f[i] == j <-> g[j] == i`:
/// a value stays in `f[i]` only while `g` at that position still holds `i`, values
/// that point outside the other array go, and a fixed `f[i] = j` fixes `g[j] = i`
/// (so `j` leaves every other `f[k]`); the same from `g` to `f`. Both arrays are
/// thereby permutations, pruned as a value-consistent all-different would, not as
/// Régin's: post [`Strength::Domain`](crate::Strength::Domain) all-different on one
/// side for more.
///
/// Cost O(n + d) per pass for d values in all the domains; the passes repeat while
/// they change a domain, so one call reaches the fixpoint. No allocation once warm.
#[derive(Clone, Debug)]
pub struct Inverse {
    f: Vec<View>,
    g: Vec<View>,
    f_offset: i32,
    g_offset: i32,
    removals: Vec<(View, i32)>,
    fixes: Vec<(View, i32)>,
}

impl Inverse {
    /// The label of its removals ([`Context::set_label`]): `f[i] == j` exactly when `g[j]
    /// == i`.
    pub const CHANNELING: InferenceLabel = InferenceLabel::new("inverse");

    /// The constraint; `f` and `g` have the same length (the model method checks).
    pub(crate) fn new(f: Vec<View>, f_offset: i32, g: Vec<View>, g_offset: i32) -> Inverse {
        Inverse {
            f,
            g,
            f_offset,
            g_offset,
            removals: Vec::new(),
            fixes: Vec::new(),
        }
    }
}

/// One side of the channeling: the values of `from[i]` whose position in `to` no
/// longer holds `i` (queued in `removals`), and the fixed `from[i] = j`, which fix
/// `to[j] = i` (queued in `fixes`).
fn one_way(
    ctx: &Context<'_>,
    (from, from_offset): (&[View], i32),
    (to, to_offset): (&[View], i32),
    removals: &mut Vec<(View, i32)>,
    fixes: &mut Vec<(View, i32)>,
) {
    for (i, &x) in from.iter().enumerate() {
        let back = from_offset + i as i32;
        let partner = |v: i32| {
            usize::try_from(i64::from(v) - i64::from(to_offset))
                .ok()
                .and_then(|j| to.get(j).copied())
        };
        for v in ctx.values(x) {
            match partner(v) {
                Some(y) if ctx.contains(y, back) => {}
                _ => removals.push((x, v)),
            }
        }
        if let Some(y) = ctx.value(x).and_then(partner) {
            fixes.push((y, back));
        }
    }
}

impl Propagator for Inverse {
    fn name(&self) -> &'static str {
        "inverse"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        for (offset, len) in [(self.f_offset, self.f.len()), (self.g_offset, self.g.len())] {
            // The last position, `offset + len - 1`, must fit.
            if i32::try_from(i64::from(offset) + len as i64 - 1).is_err() {
                return Err(ModelError::InvalidConstraint {
                    constraint: ctx.constraint(),
                    reason: format!(
                        "{len} positions from offset {offset} leave the 32-bit value range"
                    ),
                });
            }
        }
        ctx.watch_all(self.f.iter().copied(), Wake::Domain)?;
        ctx.watch_all(self.g.iter().copied(), Wake::Domain)
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.set_label(Inverse::CHANNELING);
        let f = (self.f.as_slice(), self.f_offset);
        let g = (self.g.as_slice(), self.g_offset);
        // Each side's values within the other's positions first, so that a wide domain
        // is read only there. (The post checked that the positions fit `i32`.)
        for ((from, _), (to, to_offset)) in [(f, g), (g, f)] {
            let last = to_offset + (to.len() as i32 - 1);
            for &x in from {
                ctx.set_min(x, to_offset)?;
                ctx.set_max(x, last)?;
            }
        }
        loop {
            let mut changed = false;
            for (from, to) in [(f, g), (g, f)] {
                // A conflict below returns early: what it left here is stale.
                self.removals.clear();
                self.fixes.clear();
                one_way(ctx, from, to, &mut self.removals, &mut self.fixes);
                for &(view, value) in &self.removals {
                    changed |= ctx.remove(view, value)?;
                }
                for &(view, value) in &self.fixes {
                    changed |= ctx.fix(view, value)?;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn is_idempotent(&self) -> bool {
        // The passes repeat until they change nothing.
        true
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        let at = |view: View| i64::from(value(view.var)) + i64::from(view.offset);
        let points_back = |from: &[View], from_offset: i32, to: &[View], to_offset: i32| {
            from.iter().enumerate().all(|(i, &x)| {
                usize::try_from(at(x) - i64::from(to_offset))
                    .ok()
                    .and_then(|j| to.get(j))
                    .is_some_and(|&y| at(y) == i64::from(from_offset) + i as i64)
            })
        };
        points_back(&self.f, self.f_offset, &self.g, self.g_offset)
            && points_back(&self.g, self.g_offset, &self.f, self.f_offset)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Model, ModelError, Solver};

    #[test]
    fn channels_both_ways() {
        let mut model = Model::new();
        let f = [&[1, 2][..], &[0, 1, 2, 7], &[0, 1, 2]]
            .map(|d| model.var_from_values(d.iter().copied()).unwrap());
        let g = [&[1, 2][..], &[0, 1, 2], &[1, 2]]
            .map(|d| model.var_from_values(d.iter().copied()).unwrap());
        model.inverse(f, 0, g, 0).unwrap();
        // f[0] cannot be 0 (its own domain): g[0] loses 0 (never had it). g[0] cannot
        // be 0, so f[0] != 0 (ok); g[2] lacks 0, so f[0] != 2: f[0] = 1, g[1] = 0.
        // Then f[1], f[2] lose 1, and g[0], g[2] are {1, 2}; f[1], f[2] lose 7.
        assert_eq!(
            Solver::new(model).root_domains(),
            Some(vec![
                vec![1],
                vec![0, 2],
                vec![0, 2],
                vec![1, 2],
                vec![0],
                vec![1, 2],
            ])
        );
    }

    #[test]
    fn one_based_arrays_map_directly() {
        let mut model = Model::new();
        let f = model.int_vars(4, 1, 4).unwrap();
        let g = model.int_vars(4, 1, 4).unwrap();
        model.inverse(f.clone(), 1, g.clone(), 1).unwrap();
        let mut solver = Solver::new(model);
        assert_eq!(solver.count(None).solutions, 24);
        for s in solver.solutions() {
            let s = s.unwrap();
            for (i, &x) in f.iter().enumerate() {
                assert_eq!(s[g[(s[x] - 1) as usize]], i as i32 + 1);
            }
        }
    }

    #[test]
    fn lengths_must_agree() {
        let mut model = Model::new();
        let f = model.int_vars(3, 0, 2).unwrap();
        let g = model.int_vars(2, 0, 2).unwrap();
        assert!(matches!(
            model.inverse(f.clone(), 0, g, 0),
            Err(ModelError::InvalidConstraint { .. })
        ));
        assert!(matches!(
            model.inverse(f.clone(), i32::MAX, f, 0),
            Err(ModelError::InvalidConstraint { .. })
        ));
    }
}
