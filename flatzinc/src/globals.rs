//! The native globals that alldiff's MiniZinc library (`share/minizinc/alldiff/`)
//! declares, onto the [`Model`](alldiff::Model) methods.
//!
//! | FlatZinc | alldiff |
//! |---|---|
//! | `fzn_all_different_int(x)` | `all_different_with`: [`Strength::Bounds`] by default, `::domain` (or `::domain_propagation`) [`Strength::Domain`], `::value` (or `::value_propagation`) [`Strength::Value`] |
//! | `alldiff_table_int(x, t)` | `table`, `t` the tuples row after row |
//! | `alldiff_circuit(x, first)`, `alldiff_subcircuit(x, first)` | `circuit`, `subcircuit` with the offset `first` (the array's first index) |
//! | `fzn_global_cardinality(x, cover, counts)` | `global_cardinality_vars` |
//! | `fzn_global_cardinality_closed(x, cover, counts)` | the same, and each `x` in `cover` |
//! | `fzn_global_cardinality_low_up(x, cover, lb, ub)`, `..._closed` | counts over `lb..ub` |
//! | `alldiff_inverse(f, f_first, g, g_first)` | `inverse` with the arrays' first indices |
//! | `alldiff_lex_less_int(x, y)`, `alldiff_lex_lesseq_int(x, y)` | `lex_less`, `lex_less_eq` |
//! | `alldiff_disjunctive(s, d)` | `disjunctive` (durations fixed) |
//! | `alldiff_cumulative(s, d, r, b)` | `cumulative` (durations, demands and capacity fixed) |

use super::build::Builder;
use super::call::Call;
use alldiff::{Condition, Strength};

/// Posts `call` if it is one of the native globals; `Ok(false)` if it is not one.
pub(super) fn post(b: &mut Builder, call: &Call) -> Result<bool, String> {
    let refused = call.refused();
    let result = match call.name {
        "fzn_all_different_int" => {
            call.arity(1)?;
            let xs = b.views(call, 0)?;
            let strength = if call.annotated("domain") || call.annotated("domain_propagation") {
                Strength::Domain
            } else if call.annotated("value") || call.annotated("value_propagation") {
                Strength::Value
            } else {
                Strength::Bounds
            };
            if xs.len() < 2 {
                return Ok(true);
            }
            b.model.all_different_with(xs, strength)
        }
        "alldiff_table_int" => {
            call.arity(2)?;
            let xs = b.views(call, 0)?;
            let flat = b.ints(call, 1)?;
            if xs.is_empty() {
                return Ok(true);
            }
            if flat.len() % xs.len() != 0 {
                return Err(format!(
                    "'{}': {} table entries for {} variables",
                    call.name,
                    flat.len(),
                    xs.len()
                ));
            }
            let tuples: Vec<Vec<i32>> = flat.chunks(xs.len()).map(<[i32]>::to_vec).collect();
            b.model.table(xs, &tuples)
        }
        "alldiff_circuit" | "alldiff_subcircuit" => {
            call.arity(2)?;
            let xs = b.views(call, 0)?;
            let first = b.int(call, 1)?;
            match call.name {
                "alldiff_circuit" => b.model.circuit(xs, first),
                _ => b.model.subcircuit(xs, first),
            }
        }
        "fzn_global_cardinality" | "fzn_global_cardinality_closed" => {
            call.arity(3)?;
            let xs = b.views(call, 0)?;
            let cover = b.ints(call, 1)?;
            let counts = b.views(call, 2)?;
            if call.name.ends_with("_closed") {
                closed(b, call, &xs, &cover)?;
            }
            b.model.global_cardinality_vars(xs, &cover, counts)
        }
        "fzn_global_cardinality_low_up" | "fzn_global_cardinality_low_up_closed" => {
            call.arity(4)?;
            let xs = b.views(call, 0)?;
            let cover = b.ints(call, 1)?;
            let (low, up) = (b.ints(call, 2)?, b.ints(call, 3)?);
            if low.len() != cover.len() || up.len() != cover.len() {
                return Err(format!("'{}': arrays of different lengths", call.name));
            }
            if call.name.ends_with("_closed") {
                closed(b, call, &xs, &cover)?;
            }
            let mut counts = Vec::with_capacity(cover.len());
            for (&l, &u) in low.iter().zip(&up) {
                if l > u {
                    b.fail()?;
                    return Ok(true);
                }
                counts.push(b.model.int_var(l, u).map_err(call.refused())?);
            }
            b.model.global_cardinality_vars(xs, &cover, counts)
        }
        "alldiff_inverse" => {
            call.arity(4)?;
            let f = b.views(call, 0)?;
            let f_first = b.int(call, 1)?;
            let g = b.views(call, 2)?;
            let g_first = b.int(call, 3)?;
            b.model.inverse(f, f_first, g, g_first)
        }
        "alldiff_lex_less_int" | "alldiff_lex_lesseq_int" => {
            call.arity(2)?;
            let (xs, ys) = (b.views(call, 0)?, b.views(call, 1)?);
            match call.name {
                "alldiff_lex_less_int" => b.model.lex_less(xs, ys),
                _ => b.model.lex_less_eq(xs, ys),
            }
        }
        "alldiff_disjunctive" => {
            call.arity(2)?;
            let starts = b.views(call, 0)?;
            let durations = b.ints(call, 1)?;
            b.model.disjunctive(starts, &durations)
        }
        "alldiff_cumulative" => {
            call.arity(4)?;
            let starts = b.views(call, 0)?;
            let durations = b.ints(call, 1)?;
            let demands = b.ints(call, 2)?;
            let capacity = b.int(call, 3)?;
            b.model.cumulative(starts, &durations, &demands, capacity)
        }
        _ => return Ok(false),
    };
    result.map_err(refused)?;
    Ok(true)
}

/// Every `x` takes a value of `cover` (the `_closed` forms).
fn closed(b: &mut Builder, call: &Call, xs: &[alldiff::View], cover: &[i32]) -> Result<(), String> {
    let one = b.constant(1)?;
    for &x in xs {
        let condition = Condition::in_set(x, cover.iter().copied());
        b.model.half_reify(one, condition).map_err(call.refused())?;
    }
    Ok(())
}
