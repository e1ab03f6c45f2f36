//! The integer and Boolean builtins of MiniZinc's `std/flatzinc_builtins.mzn`, onto
//! the [`Model`](alldiff::Model) methods.
//!
//! Relations `int_eq ne le lt` (and `ge gt`), each with `_reif` (`r <-> c`) and `_imp`
//! (`r -> c`); `int_lin_eq ne le` (and `lt ge gt`) likewise; `int_plus minus times
//! div mod abs min max pow pow_fixed`; `bool2int`; `bool_eq ne le lt` with `_reif`
//! and `_imp`, `bool_not`, `bool_and or xor` (and `_imp`), `bool_clause` (and
//! `_reif`, `_imp`), `array_bool_and or` (and `_imp`), `array_bool_xor`,
//! `bool_lin_eq le`; `array_(var_)int_element`, `array_(var_)bool_element`;
//! `array_int_maximum minimum`; `set_in` (and `_reif`, `_imp`) with constant sets.

use super::build::Builder;
use super::call::{Call, Term};
use alldiff::{Condition, Relation};
use alldiff::{Literal, VarId, View};

/// How a relation is posted: plainly, `r <-> c`, or `r -> c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Plain,
    Reif,
    Imp,
}

/// A relation's name split into its base and mode (`int_le_reif`: `int_le`, `Reif`).
fn mode_of(name: &str) -> (&str, Mode) {
    if let Some(base) = name.strip_suffix("_reif") {
        (base, Mode::Reif)
    } else if let Some(base) = name.strip_suffix("_imp") {
        (base, Mode::Imp)
    } else {
        (name, Mode::Plain)
    }
}

/// `lhs ⋈ rhs` with `lt`/`gt` as `<=`/`>=` on a shifted right-hand side: the
/// relation and the shift.
fn relation(op: &str) -> Option<(Relation, i64)> {
    Some(match op {
        "eq" => (Relation::Equal, 0),
        "ne" => (Relation::NotEqual, 0),
        "le" => (Relation::LessEq, 0),
        "lt" => (Relation::LessEq, -1),
        "ge" => (Relation::GreaterEq, 0),
        "gt" => (Relation::GreaterEq, 1),
        _ => return None,
    })
}

/// Posts `call` if it is a builtin; `Ok(false)` if it is not one.
pub(super) fn post(b: &mut Builder, call: &Call) -> Result<bool, String> {
    let (base, mode) = mode_of(call.name);
    if let Some(op) = base.strip_prefix("int_lin_")
        && let Some((rel, shift)) = relation(op)
    {
        call.arity(if mode == Mode::Plain { 3 } else { 4 })?;
        let coefficients = b.ints(call, 0)?;
        let terms = b.terms(call, 1)?;
        if coefficients.len() != terms.len() {
            return Err(format!(
                "'{}' has {} coefficients for {} terms",
                call.name,
                coefficients.len(),
                terms.len()
            ));
        }
        let rhs = b.wide_int(call, 2)? + shift;
        let terms = coefficients.into_iter().map(i64::from).zip(terms).collect();
        linear(b, call, mode, terms, rel, rhs)?;
        return Ok(true);
    }
    if let Some(op) = base.strip_prefix("int_")
        && let Some((rel, shift)) = relation(op)
    {
        call.arity(if mode == Mode::Plain { 2 } else { 3 })?;
        let (x, y) = (b.term(call, 0)?, b.term(call, 1)?);
        linear(b, call, mode, vec![(1, x), (-1, y)], rel, shift)?;
        return Ok(true);
    }
    if let Some(op) = base.strip_prefix("bool_")
        && matches!(op, "eq" | "ne" | "le" | "lt" | "and" | "or" | "xor")
    {
        bool_relation(b, call, op, mode)?;
        return Ok(true);
    }
    match (base, mode) {
        ("set_in", _) => set_in(b, call, mode)?,
        ("bool_clause", _) => {
            call.arity(if mode == Mode::Plain { 2 } else { 3 })?;
            let mut lits = literals(b, call, 0)?;
            lits.extend(literals(b, call, 1)?.into_iter().map(|l| !l));
            boolean(b, call, mode, lits, Junction::Or)?;
        }
        ("array_bool_and" | "array_bool_or", Mode::Plain | Mode::Imp) => {
            call.arity(2)?;
            let lits = literals(b, call, 0)?;
            let junction = match base {
                "array_bool_and" => Junction::And,
                _ => Junction::Or,
            };
            // `array_bool_or(as, r)` is `r <-> or(as)`: the `_reif` form of the rest.
            let mode = if mode == Mode::Plain {
                Mode::Reif
            } else {
                mode
            };
            boolean_with(b, call, mode, lits, junction, 1)?;
        }
        ("array_bool_xor", Mode::Plain) => {
            call.arity(1)?;
            let lits = literals(b, call, 0)?;
            xor(b, call, lits)?;
        }
        ("bool_not", Mode::Plain) => {
            call.arity(2)?;
            let (x, y) = (b.var(call, 0)?, b.var(call, 1)?);
            b.model.not_equal(x, y).map_err(call.refused())?;
        }
        ("bool2int", Mode::Plain) => {
            call.arity(2)?;
            let (x, y) = (b.term(call, 0)?, b.term(call, 1)?);
            linear(
                b,
                call,
                Mode::Plain,
                vec![(1, x), (-1, y)],
                Relation::Equal,
                0,
            )?;
        }
        ("bool_lin_eq" | "bool_lin_le", Mode::Plain) => {
            call.arity(3)?;
            let coefficients = b.ints(call, 0)?;
            let terms = b.terms(call, 1)?;
            if coefficients.len() != terms.len() {
                return Err(format!("'{}' has arrays of different lengths", call.name));
            }
            let mut terms: Vec<(i64, Term)> =
                coefficients.into_iter().map(i64::from).zip(terms).collect();
            terms.push((-1, b.term(call, 2)?));
            let rel = match base {
                "bool_lin_eq" => Relation::Equal,
                _ => Relation::LessEq,
            };
            linear(b, call, Mode::Plain, terms, rel, 0)?;
        }
        ("int_plus" | "int_minus", Mode::Plain) => {
            call.arity(3)?;
            let sign = if base == "int_plus" { 1 } else { -1 };
            let terms = vec![
                (1, b.term(call, 0)?),
                (sign, b.term(call, 1)?),
                (-1, b.term(call, 2)?),
            ];
            linear(b, call, Mode::Plain, terms, Relation::Equal, 0)?;
        }
        ("int_times" | "int_div" | "int_mod" | "int_min" | "int_max", Mode::Plain) => {
            call.arity(3)?;
            let (x, y, z) = (b.view(call, 0)?, b.view(call, 1)?, b.view(call, 2)?);
            let m = &mut b.model;
            match base {
                "int_times" => m.times(x, y, z),
                "int_div" => m.div(x, y, z),
                "int_mod" => m.modulo(x, y, z),
                "int_min" => m.minimum([x, y], z),
                _ => m.maximum([x, y], z),
            }
            .map_err(call.refused())?;
        }
        ("int_abs", Mode::Plain) => {
            call.arity(2)?;
            let (x, z) = (b.view(call, 0)?, b.view(call, 1)?);
            b.model.abs(x, z).map_err(call.refused())?;
        }
        ("int_pow" | "int_pow_fixed", Mode::Plain) => {
            call.arity(3)?;
            let (x, z) = (b.view(call, 0)?, b.view(call, 2)?);
            match b.int(call, 1).map(u32::try_from) {
                Ok(Ok(k)) => b.model.power(x, k, z).map(|_| ()),
                // A variable or negative exponent: the combinations, as a table.
                _ => {
                    let e = b.view(call, 1)?;
                    let tuples = power_tuples(b, call, x, e)?;
                    b.model.table([x, e, z], &tuples).map(|_| ())
                }
            }
            .map_err(call.refused())?;
        }
        (
            "array_int_element"
            | "array_bool_element"
            | "array_var_int_element"
            | "array_var_bool_element",
            Mode::Plain,
        ) => {
            call.arity(3)?;
            // MiniZinc's arrays start at 1, alldiff's element at 0: the index less
            // one, or, where that leaves i32 (an index that may be i32::MIN), the
            // index itself, at least 1, over the array with a first entry in front.
            let index = b.view(call, 0)?;
            let less_one = (index.offset.checked_sub(1)).map(|offset| View { offset, ..index });
            let (index, front) = match less_one {
                Some(view) if b.model.check_view(view).is_ok() => (view, 0),
                _ => {
                    b.model
                        .linear([(1, index)], Relation::GreaterEq, 1)
                        .map_err(call.refused())?;
                    (index, 1)
                }
            };
            let value = b.view(call, 2)?;
            match base.starts_with("array_var") {
                true => {
                    let array = b.views(call, 1)?;
                    let first = array.first().copied().into_iter().take(front);
                    b.model.element_var(first.chain(array), index, value)
                }
                false => {
                    let array = b.ints(call, 1)?;
                    let first = array.first().copied().into_iter().take(front);
                    let array: Vec<i32> = first.chain(array).collect();
                    b.model.element(&array, index, value)
                }
            }
            .map_err(call.refused())?;
        }
        ("array_int_maximum" | "array_int_minimum", Mode::Plain) => {
            call.arity(2)?;
            let m = b.view(call, 0)?;
            let xs = b.views(call, 1)?;
            match base {
                "array_int_maximum" => b.model.maximum(xs, m),
                _ => b.model.minimum(xs, m),
            }
            .map_err(call.refused())?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `Σ aᵢ·tᵢ ⋈ rhs`, constants folded into the right-hand side, in `mode` with the
/// literal in the call's last argument.
fn linear(
    b: &mut Builder,
    call: &Call,
    mode: Mode,
    terms: Vec<(i64, Term)>,
    rel: Relation,
    mut rhs: i64,
) -> Result<(), String> {
    let overflow = || format!("'{}': the sum leaves the 32-bit range", call.name);
    let mut vars: Vec<(i32, VarId)> = Vec::with_capacity(terms.len());
    for (a, term) in terms {
        if let Term::Var(view) = term {
            // a·(x + c): a·x, and a·c to the right-hand side.
            rhs -= a * i64::from(view.offset);
        }
        match term {
            Term::Const(c) => rhs -= a * i64::from(c),
            Term::Var(View { var, .. }) => match vars.iter_mut().find(|(_, v)| *v == var) {
                Some((coefficient, _)) => {
                    *coefficient =
                        i32::try_from(i64::from(*coefficient) + a).map_err(|_| overflow())?;
                }
                None => vars.push((i32::try_from(a).map_err(|_| overflow())?, var)),
            },
        }
    }
    vars.retain(|&(a, _)| a != 0);
    let Ok(rhs) = i32::try_from(rhs) else {
        return match wide_linear(b, vars, rel, rhs).ok_or_else(overflow)? {
            Err(holds) => constant_relation(b, call, mode, holds),
            Ok((views, rhs)) if mode == Mode::Plain => b
                .model
                .linear(views, rel, rhs)
                .map(|_| ())
                .map_err(call.refused()),
            Ok((views, rhs)) => reified(b, call, mode, Condition::linear(views, rel, rhs)),
        };
    };
    // Whether the relation holds whatever the values: with no variable left, or, for
    // an equation, when the coefficients' greatest common divisor does not divide
    // the right-hand side (`2x + 4y = 7` has no integer solution).
    let divisor = vars.iter().fold(0, |g, &(a, _)| gcd(g, a.unsigned_abs()));
    let decided = match rel {
        _ if vars.is_empty() => Some(rel.holds(0, i64::from(rhs))),
        Relation::Equal | Relation::NotEqual if rhs.unsigned_abs() % divisor != 0 => {
            Some(rel == Relation::NotEqual)
        }
        _ => None,
    };
    if let Some(holds) = decided {
        return constant_relation(b, call, mode, holds);
    }
    if mode == Mode::Plain {
        // x - y ⋈ c as a binary constraint on the view y + c, where there is one.
        if let [(a, x), (c, y)] = vars[..]
            && a == -c
            && a.abs() == 1
            && matches!(rel, Relation::Equal | Relation::NotEqual)
            && !(b.is_wide(x) || b.is_wide(y))
            && b.shifts_within(if a == 1 { y } else { x }, rhs)
        {
            let (x, y) = if a == 1 { (x, y) } else { (y, x) };
            // x - y == rhs (with a = 1), or y - x == rhs: the first is x == y + rhs.
            let result = match rel {
                Relation::Equal => b.model.equal(x, y + rhs),
                _ => b.model.not_equal(x, y + rhs),
            };
            return result.map(|_| ()).map_err(call.refused());
        }
        return b
            .model
            .linear(vars, rel, rhs)
            .map(|_| ())
            .map_err(call.refused());
    }
    let condition = match vars[..] {
        [(1, x)] => Condition::compare(x, rel, rhs),
        [(-1, x)] => Condition::compare(x, flip(rel), -rhs),
        [(1, x), (-1, y)] if rhs == 0 && !(b.is_wide(x) || b.is_wide(y)) => {
            Condition::compare_views(x, rel, y)
        }
        _ => Condition::linear(vars, rel, rhs),
    };
    reified(b, call, mode, condition)
}

/// `condition` reified (or half-reified, by `mode`) by the call's last argument.
fn reified(b: &mut Builder, call: &Call, mode: Mode, condition: Condition) -> Result<(), String> {
    let r = b.var(call, call.args.len() - 1)?;
    match mode {
        Mode::Reif => b.model.reify(r, condition),
        _ => b.model.half_reify(r, condition),
    }
    .map(|_| ())
    .map_err(call.refused())
}

/// A relation that is true or false whatever the values, in `mode` with the literal
/// in the call's last argument.
fn constant_relation(b: &mut Builder, call: &Call, mode: Mode, holds: bool) -> Result<(), String> {
    match mode {
        Mode::Plain if holds => Ok(()),
        Mode::Plain => b.fail(),
        Mode::Imp if holds => Ok(()),
        _ => {
            let r = b.var(call, call.args.len() - 1)?;
            let c = b.constant(i32::from(holds))?;
            b.model.equal(r, c).map(|_| ()).map_err(call.refused())
        }
    }
}

/// A sum restated within 32 bits, or `Err` with whether it holds whatever the values.
type Restated = Result<(Vec<(i32, View)>, i32), bool>;

/// `Σ aᵢ·xᵢ ⋈ rhs` with a right-hand side beyond 32 bits, as MiniZinc writes a sum
/// whose constants it folded (an objective over values far from zero): decided when
/// the right-hand side lies beyond the reach of the terms' bounds, else restated over
/// the terms shifted towards their domains' lowest values, `aᵢ·(xᵢ + oᵢ)`, which moves
/// the right-hand side by `Σ aᵢ·oᵢ`. `None` if it is still out of range.
fn wide_linear(b: &Builder, vars: Vec<(i32, VarId)>, rel: Relation, rhs: i64) -> Option<Restated> {
    let (mut low, mut high, mut shift) = (0i128, 0i128, 0i128);
    let mut shifted = Vec::with_capacity(vars.len());
    for (a, x) in vars {
        let (min, max) = b.model.bounds(x).ok()?;
        let (a128, min128, max128) = (i128::from(a), i128::from(min), i128::from(max));
        low += (a128 * min128).min(a128 * max128);
        high += (a128 * min128).max(a128 * max128);
        // x + o lies in 0..=max - min for o = -min; where that is beyond 32 bits (for
        // min = i32::MIN), the largest offset that keeps the view within them.
        let top = i128::from(i32::MAX);
        let offset = (-min128).min(top - max128).min(top) as i32;
        shift -= a128 * i128::from(offset);
        shifted.push((a, x + offset));
    }
    let rhs = i128::from(rhs);
    let decided = match rel {
        Relation::Equal | Relation::NotEqual if rhs < low || rhs > high => {
            Some(rel == Relation::NotEqual)
        }
        Relation::LessEq if rhs >= high || rhs < low => Some(rhs >= high),
        Relation::GreaterEq if rhs <= low || rhs > high => Some(rhs <= low),
        _ => None,
    };
    match decided {
        Some(holds) => Some(Err(holds)),
        None => Some(Ok((shifted, i32::try_from(rhs - shift).ok()?))),
    }
}

/// The most (base, exponent) pairs a power with a variable exponent is tabled for.
const POWER_PAIRS: u64 = 1 << 20;

/// The rows `(x, e, x^e)` of `int_pow` over the domains of `x` and `e`, with
/// MiniZinc's meaning of a negative exponent (`1 div x^|e|`, undefined for `x = 0`)
/// and without the powers beyond 32 bits.
fn power_tuples(b: &Builder, call: &Call, x: View, e: View) -> Result<Vec<Vec<i32>>, String> {
    let values = |view: View| -> Result<Vec<i32>, String> {
        let domain = b.model.domain(view.var).map_err(|e| e.to_string())?;
        Ok(domain.into_iter().map(|v| v + view.offset).collect())
    };
    let size = |view: View| u64::from(b.model.domain_size(view.var).unwrap_or(u32::MAX));
    if size(x) * size(e) > POWER_PAIRS {
        return Err(format!(
            "'{}' with a variable exponent over more than {POWER_PAIRS} (base, exponent) pairs",
            call.name
        ));
    }
    let (bases, exponents) = (values(x)?, values(e)?);
    let mut tuples = Vec::new();
    for &base in &bases {
        for &k in &exponents {
            let power = i128::from(base).checked_pow(k.unsigned_abs());
            let value = match (power, k < 0) {
                (Some(power), false) => power,
                (Some(power), true) if power != 0 => 1 / power,
                _ => continue,
            };
            if let Ok(value) = i32::try_from(value) {
                tuples.push(vec![base, k, value]);
            }
        }
    }
    Ok(tuples)
}

/// The greatest common divisor (`gcd(0, a) == a`).
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The relation with its sides swapped (`-x <= c` is `x >= -c`).
fn flip(rel: Relation) -> Relation {
    match rel {
        Relation::LessEq => Relation::GreaterEq,
        Relation::GreaterEq => Relation::LessEq,
        other => other,
    }
}

fn literals(b: &mut Builder, call: &Call, index: usize) -> Result<Vec<Literal>, String> {
    Ok(b.vars(call, index)?
        .into_iter()
        .map(Literal::from)
        .collect())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Junction {
    And,
    Or,
}

/// `and`/`or` of `lits`, plainly or with the literal in the call's last argument.
fn boolean(
    b: &mut Builder,
    call: &Call,
    mode: Mode,
    lits: Vec<Literal>,
    junction: Junction,
) -> Result<(), String> {
    boolean_with(b, call, mode, lits, junction, call.args.len() - 1)
}

fn boolean_with(
    b: &mut Builder,
    call: &Call,
    mode: Mode,
    lits: Vec<Literal>,
    junction: Junction,
    r: usize,
) -> Result<(), String> {
    let r = match mode {
        Mode::Plain => None,
        _ => Some(Literal::from(b.var(call, r)?)),
    };
    let result = match (junction, mode, r) {
        (Junction::Or, Mode::Plain, _) if lits.is_empty() => return b.fail(),
        (Junction::And, Mode::Plain, _) if lits.is_empty() => return Ok(()),
        (Junction::Or, Mode::Plain, _) => b.model.or(lits),
        (Junction::And, Mode::Plain, _) => b.model.and(lits),
        (_, _, None) => unreachable!("a reified or implied form has its literal"),
        (Junction::Or, Mode::Imp, Some(r)) => b.model.or([!r].into_iter().chain(lits)),
        (Junction::And, Mode::Imp, Some(r)) => {
            for lit in lits {
                b.model.or([!r, lit]).map_err(call.refused())?;
            }
            return Ok(());
        }
        (_, Mode::Reif, Some(r)) if lits.is_empty() => {
            let value = if junction == Junction::And { 1 } else { 0 };
            let c = b.constant(value)?;
            b.model.equal(r.var, c)
        }
        (Junction::Or, Mode::Reif, Some(r)) => b.model.reify_or(r, lits),
        (Junction::And, Mode::Reif, Some(r)) => b.model.reify_and(r, lits),
    };
    result.map(|_| ()).map_err(call.refused())
}

/// An odd number of `lits` are true.
fn xor(b: &mut Builder, call: &Call, lits: Vec<Literal>) -> Result<(), String> {
    if lits.is_empty() {
        return b.fail();
    }
    b.model.xor(lits).map(|_| ()).map_err(call.refused())
}

/// `bool_eq ne le lt and or xor` over two literals, with a third for the result in
/// `_reif` and `_imp` forms (and in `bool_and or xor`, whose plain form is reified).
fn bool_relation(b: &mut Builder, call: &Call, op: &str, mode: Mode) -> Result<(), String> {
    // `bool_and(a, b, r)` is `r <-> a /\ b`; `bool_xor(a, b)` with two arguments is
    // `a != b`.
    let mode = match (op, mode, call.args.len()) {
        ("and" | "or", Mode::Plain, _) | ("xor", Mode::Plain, 3) => Mode::Reif,
        _ => mode,
    };
    call.arity(if mode == Mode::Plain { 2 } else { 3 })?;
    let x = Literal::from(b.var(call, 0)?);
    let y = Literal::from(b.var(call, 1)?);
    if mode == Mode::Plain {
        return match op {
            "eq" => b.model.equal(x.var, y.var),
            "ne" | "xor" => b.model.not_equal(x.var, y.var),
            "le" => b.model.implies(x, y),
            _ => b.model.and([!x, y]), // lt
        }
        .map(|_| ())
        .map_err(call.refused());
    }
    let r = Literal::from(b.var(call, 2)?);
    match (op, mode) {
        // r <-> (x == y): an odd number of x, y, r true; r <-> (x != y): of x, y, !r.
        ("eq", Mode::Reif) => xor(b, call, vec![x, y, r]),
        ("ne" | "xor", Mode::Reif) => xor(b, call, vec![x, y, !r]),
        ("eq", _) => clauses(b, call, [[!r, !x, y], [!r, x, !y]]),
        ("ne" | "xor", _) => clauses(b, call, [[!r, x, y], [!r, !x, !y]]),
        ("le", _) => boolean(b, call, mode, vec![!x, y], Junction::Or),
        ("lt", _) => boolean(b, call, mode, vec![!x, y], Junction::And),
        ("and", _) => boolean(b, call, mode, vec![x, y], Junction::And),
        _ => boolean(b, call, mode, vec![x, y], Junction::Or),
    }
}

/// Each list of literals is a clause.
fn clauses<const N: usize>(
    b: &mut Builder,
    call: &Call,
    clauses: [[Literal; 3]; N],
) -> Result<(), String> {
    for clause in clauses {
        b.model.or(clause).map_err(call.refused())?;
    }
    Ok(())
}

/// The largest set `set_in` lists as values; a wider one is stated by the values of
/// the variable's domain outside it.
const SET_EXPANSION: i64 = 1 << 16;

/// The values of `x`'s domain outside a wide `set` (sorted ranges), listed by
/// whichever is fewer: `x`'s values, or the values between `x`'s bounds in the
/// set's gaps (`within_hull`: only those between the set's first and last values,
/// when `x` is held to them apart). Over [`SET_EXPANSION`] both ways (`x` over the
/// whole `i32` range, a gap of a billion values), an error rather than a list by
/// the span.
fn outside_set(
    b: &Builder,
    call: &Call,
    x: VarId,
    set: &[(i32, i32)],
    within_hull: bool,
) -> Result<Vec<i32>, String> {
    let inside = |v: i32| set.iter().any(|&(lb, ub)| (lb..=ub).contains(&v));
    let model_error = |e: alldiff::ModelError| e.to_string();
    if i64::from(b.model.domain_size(x).map_err(model_error)?) <= SET_EXPANSION {
        let domain = b.model.domain(x).map_err(model_error)?;
        return Ok(domain.into_iter().filter(|&v| !inside(v)).collect());
    }
    let (mut min, mut max) = b.model.bounds(x).map_err(model_error)?;
    if within_hull {
        min = min.max(set[0].0);
        max = max.min(set[set.len() - 1].1);
    }
    // The gaps before, between and after the ranges, clipped to min..=max.
    let starts =
        std::iter::once(i64::from(min)).chain(set.iter().map(|&(_, ub)| i64::from(ub) + 1));
    let ends = set
        .iter()
        .map(|&(lb, _)| i64::from(lb) - 1)
        .chain([i64::from(max)]);
    let gaps: Vec<(i64, i64)> = starts
        .zip(ends)
        .map(|(lo, hi)| (lo.max(min.into()), hi.min(max.into())))
        .filter(|(lo, hi)| lo <= hi)
        .collect();
    let size: i64 = gaps.iter().map(|(lo, hi)| hi - lo + 1).sum();
    if size > SET_EXPANSION {
        return Err(format!(
            "'{}': the set leaves {size} values of {}..={} out, and the variable has {} \
             values; either must be at most {SET_EXPANSION}",
            call.name,
            min,
            max,
            b.model.domain_size(x).map_err(model_error)?
        ));
    }
    // Inside min..=max: each value fits i32.
    Ok(gaps
        .into_iter()
        .flat_map(|(lo, hi)| lo..=hi)
        .map(|v| v as i32)
        .collect())
}

/// `x ∈ S` for a constant set, plainly or with a literal.
fn set_in(b: &mut Builder, call: &Call, mode: Mode) -> Result<(), String> {
    call.arity(if mode == Mode::Plain { 2 } else { 3 })?;
    let x = b.var(call, 0)?;
    let set = b.set(call, 1)?;
    let condition = match set[..] {
        [] => {
            return match mode {
                Mode::Plain => b.fail(),
                Mode::Reif | Mode::Imp => {
                    let r = b.var(call, 2)?;
                    let zero = b.constant(0)?;
                    b.model.equal(r, zero).map(|_| ()).map_err(call.refused())
                }
            };
        }
        [(lb, ub)] if mode == Mode::Plain => {
            b.model
                .linear([(1, x)], Relation::GreaterEq, lb)
                .map_err(call.refused())?;
            return b
                .model
                .linear([(1, x)], Relation::LessEq, ub)
                .map(|_| ())
                .map_err(call.refused());
        }
        _ => {
            let size: i64 = set
                .iter()
                .map(|&(lb, ub)| i64::from(ub) - i64::from(lb) + 1)
                .sum();
            if size <= SET_EXPANSION {
                let values = set.iter().flat_map(|&(lb, ub)| lb..=ub);
                Condition::in_set(x, values)
            } else {
                // Plainly, x is also within the set's hull: only the inner gaps count.
                let plain = mode == Mode::Plain;
                if plain {
                    let (lb, ub) = (set[0].0, set[set.len() - 1].1);
                    b.model
                        .linear([(1, x)], Relation::GreaterEq, lb)
                        .and_then(|_| b.model.linear([(1, x)], Relation::LessEq, ub))
                        .map_err(call.refused())?;
                }
                Condition::not_in_set(x, outside_set(b, call, x, &set, plain)?)
            }
        }
    };
    match mode {
        Mode::Plain => {
            let one = b.constant(1)?;
            b.model.half_reify(one, condition)
        }
        Mode::Reif => {
            let r = b.var(call, 2)?;
            b.model.reify(r, condition)
        }
        Mode::Imp => {
            let r = b.var(call, 2)?;
            b.model.half_reify(r, condition)
        }
    }
    .map(|_| ())
    .map_err(call.refused())
}
