//! Variables that FlatZinc declares but that are others: found by a pass over the
//! constraints before any declaration is built, so that the builder can give such a
//! variable the other's variable (`bool2int`) or a view of it (`int_lin_eq` defining
//! it as the other plus a constant) instead of a variable of its own.

use std::collections::HashMap;

use flatzinc::{AnnExpr, BoolExpr, Expr, IntExpr, Stmt};

use super::parse::Statement;

/// The integer of each `bool2int(b, i)` between two named variables, to the
/// Boolean's name (the first such constraint for an integer): MiniZinc writes a sum
/// of Booleans as a sum of these integers (`pigeonhole`), and the integer declared
/// after its Boolean is then the Boolean's variable itself. The constraint, still
/// posted, says `b - b == 0`: nothing.
pub(super) fn bool_ints(statements: &[Statement]) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for statement in statements {
        if let Stmt::Constraint(item) = &statement.stmt
            && item.id == "bool2int"
            && let [Expr::VarParIdentifier(b), Expr::VarParIdentifier(i)] = &item.exprs[..]
        {
            map.entry(i.clone()).or_insert_with(|| b.clone());
        }
    }
    map
}

/// The variables that MiniZinc defines as another variable plus a constant, to that
/// variable's name and the constant: `int_lin_eq([1, -1], [x, y], c) ::
/// defines_var(y)` (or `[-1, 1]`, or `x` defined) says `y = x - c`, as MiniZinc
/// writes `q[i] + i` for a global constraint (`queens`, `langford`). Such a variable,
/// declared after the other one, becomes the view `x - c` of it rather than a
/// variable of its own tied to `x` by an equality; the constraint, still posted, then
/// sums to a constant.
pub(super) fn offsets(statements: &[Statement]) -> HashMap<String, Vec<(String, i64)>> {
    let mut map: HashMap<String, Vec<(String, i64)>> = HashMap::new();
    for statement in statements {
        let Stmt::Constraint(item) = &statement.stmt else {
            continue;
        };
        let [coefficients, vars, Expr::Int(c)] = &item.exprs[..] else {
            continue;
        };
        if item.id != "int_lin_eq" {
            continue;
        }
        let coefficients = match coefficients {
            Expr::ArrayOfInt(list) => match list[..] {
                [IntExpr::Int(a), IntExpr::Int(b)] => [a, b],
                _ => continue,
            },
            _ => continue,
        };
        // The two variables, by name (a constant among them: no match below).
        let names: Vec<Option<&String>> = match vars {
            Expr::ArrayOfInt(list) => list.iter().map(int_identifier).collect(),
            Expr::ArrayOfBool(list) => list.iter().map(bool_identifier).collect(),
            _ => continue,
        };
        let ([a, b], [Some(x), Some(y)]) = (coefficients, &names[..]) else {
            continue;
        };
        if !matches!((a, b), (1, -1) | (-1, 1)) || x == y {
            continue;
        }
        for annotation in &item.annos {
            let [AnnExpr::Expr(Expr::VarParIdentifier(defined))] = &annotation.expressions[..]
            else {
                continue;
            };
            if annotation.id != "defines_var" {
                continue;
            }
            // a·x + b·y = c with b = -a = ±1: y = x - a·c, and x = y + a·c.
            let Ok(ac) = i64::try_from(a * c) else {
                continue;
            };
            let entry = match defined {
                d if d == *y => ((*x).clone(), -ac),
                d if d == *x => ((*y).clone(), ac),
                _ => continue,
            };
            map.entry(defined.clone()).or_default().push(entry);
        }
    }
    map
}

fn int_identifier(expr: &IntExpr) -> Option<&String> {
    match expr {
        IntExpr::VarParIdentifier(name) => Some(name),
        IntExpr::Int(_) => None,
    }
}

fn bool_identifier(expr: &BoolExpr) -> Option<&String> {
    match expr {
        BoolExpr::VarParIdentifier(name) => Some(name),
        BoolExpr::Bool(_) => None,
    }
}
