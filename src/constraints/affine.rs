//! `y == scale * x + offset`: the link between a scaled view and the auxiliary
//! variable the model posts in its place (see `Model`'s scaled views), value by value
//! where the domains are small enough to list, by bounds otherwise.

use super::arithmetic::div_floor;
use super::linear::div_ceil;
use crate::error::ModelError;
use crate::ids::VarId;
use crate::propagator::{Conflict, Context, PostContext, Propagator, Wake};

/// The largest domains linked value by value at each call; wider ones (a variable
/// over much of the `i32` range) are linked by their bounds, which is exact once
/// either side is fixed.
const LISTED: u32 = 1 << 12;

/// `y == scale * x + offset`, `scale != 0`, every value in `i32`.
#[derive(Clone, Debug)]
pub(crate) struct Affine {
    y: VarId,
    x: VarId,
    scale: i32,
    offset: i32,
    scratch: Vec<i32>,
}

impl Affine {
    /// The constraint `y == scale * x + offset` (`scale != 0`).
    pub(crate) fn new(y: VarId, scale: i32, x: VarId, offset: i32) -> Affine {
        Affine {
            y,
            x,
            scale,
            offset,
            scratch: Vec::new(),
        }
    }

    /// `scale * x + offset`, in `i64`.
    fn image(&self, x: i32) -> i64 {
        i64::from(self.scale) * i64::from(x) + i64::from(self.offset)
    }

    /// The `x` whose image is `y`, if there is one.
    fn preimage(&self, y: i32) -> Option<i32> {
        let shifted = i64::from(y) - i64::from(self.offset);
        let scale = i64::from(self.scale);
        (shifted % scale == 0)
            .then(|| i32::try_from(shifted / scale).ok())
            .flatten()
    }

    /// Narrows `y` to the images of `x`'s bounds, then `x` to the preimages of
    /// `y`'s.
    fn bounds(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (a, b) = (self.image(ctx.min(self.x)), self.image(ctx.max(self.x)));
        // The images of the model's domain fit in `i32` (checked when posted).
        ctx.set_min(self.y, a.min(b) as i32)?;
        ctx.set_max(self.y, a.max(b) as i32)?;
        let scale = i64::from(self.scale);
        let low = i64::from(ctx.min(self.y)) - i64::from(self.offset);
        let high = i64::from(ctx.max(self.y)) - i64::from(self.offset);
        let (from, to) = match scale > 0 {
            true => (div_ceil(low, scale), div_floor(high, scale)),
            false => (div_ceil(high, scale), div_floor(low, scale)),
        };
        if from > to {
            return Err(Conflict);
        }
        // Within `x`'s own bounds, so within `i32`.
        ctx.set_min(self.x, from as i32)?;
        ctx.set_max(self.x, to as i32)?;
        Ok(())
    }

    /// Keeps in `x` the values whose image `y` has, then in `y` the images of `x`'s.
    fn values(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.scratch.clear();
        self.scratch.extend(ctx.values(self.x));
        for &v in &self.scratch {
            let image = self.image(v) as i32;
            if !ctx.contains(self.y, image) {
                ctx.remove(self.x, v)?;
            }
        }
        self.scratch.clear();
        self.scratch.extend(ctx.values(self.y));
        for &w in &self.scratch {
            if !self.preimage(w).is_some_and(|v| ctx.contains(self.x, v)) {
                ctx.remove(self.y, w)?;
            }
        }
        Ok(())
    }
}

impl Propagator for Affine {
    fn name(&self) -> &'static str {
        "scaled_view"
    }

    fn post(&mut self, ctx: &mut PostContext<'_>) -> Result<(), ModelError> {
        ctx.watch(self.y, Wake::Domain)?;
        ctx.watch(self.x, Wake::Domain)?;
        Ok(())
    }

    fn reads_modified(&self) -> bool {
        false
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.bounds(ctx)?;
        if ctx.size(self.x) <= LISTED && ctx.size(self.y) <= LISTED {
            self.values(ctx)?;
        }
        Ok(())
    }

    fn is_satisfied(&self, value: &dyn Fn(VarId) -> i32) -> bool {
        i64::from(value(self.y)) == self.image(value(self.x))
    }
}
