//! A constraint's or an annotation's arguments resolved to what they name: constants,
//! sets, variables and arrays of them.

use flatzinc::{AnnExpr, BoolExpr, Expr, IntExpr, SetExpr, SetLiteral, SetLiteralExpr};

use super::{Arg, Builder, Item, int};
use alldiff::VarId;

pub(super) fn set_of(literal: &SetLiteral) -> Result<Item, String> {
    match literal {
        SetLiteral::IntRange(lb, ub) => Ok(Item::Set(ranges(vec![(int(*lb)?, int(*ub)?)]))),
        SetLiteral::SetInts(values) => {
            let values = values.iter().map(|&v| int(v)).collect::<Result<_, _>>()?;
            Ok(Item::Set(ranges_of(values)))
        }
        SetLiteral::BoundedFloat(..) | SetLiteral::SetFloats(_) => {
            Err("float sets are not supported".to_string())
        }
    }
}

/// Normalised ranges: empty ones dropped, sorted, overlapping or adjacent ones merged.
fn ranges(mut list: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    list.retain(|(lb, ub)| lb <= ub);
    list.sort_unstable();
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(list.len());
    for (lb, ub) in list {
        match out.last_mut() {
            Some(last) if i64::from(lb) <= i64::from(last.1) + 1 => last.1 = last.1.max(ub),
            _ => out.push((lb, ub)),
        }
    }
    out
}

fn ranges_of(values: Vec<i32>) -> Vec<(i32, i32)> {
    ranges(values.into_iter().map(|v| (v, v)).collect())
}

impl Builder {
    pub(super) fn scalar_named(&self, name: &str) -> Result<Item, String> {
        match self.names.get(name) {
            Some(Arg::Item(item)) => Ok(item.clone()),
            Some(Arg::Array(_)) => Err(format!("the array '{name}' is used as a single value")),
            None => Err(format!("unknown identifier '{name}'")),
        }
    }

    pub(super) fn bool_expr(&self, expr: &BoolExpr) -> Result<Item, String> {
        match expr {
            BoolExpr::Bool(value) => Ok(Item::Bool(*value)),
            BoolExpr::VarParIdentifier(name) => self.scalar_named(name),
        }
    }

    pub(super) fn int_expr(&self, expr: &IntExpr) -> Result<Item, String> {
        match expr {
            IntExpr::Int(value) => Ok(Item::Int(int(*value)?)),
            IntExpr::VarParIdentifier(name) => self.scalar_named(name),
        }
    }

    pub(super) fn set_literal(&self, expr: &SetLiteralExpr) -> Result<Item, String> {
        let value = |e: &IntExpr| match self.int_expr(e)? {
            Item::Int(v) => Ok(v),
            _ => Err("a set bound must be an integer constant".to_string()),
        };
        match expr {
            SetLiteralExpr::IntInRange(lb, ub) => {
                Ok(Item::Set(ranges(vec![(value(lb)?, value(ub)?)])))
            }
            SetLiteralExpr::SetInts(list) => {
                let values = list.iter().map(value).collect::<Result<Vec<_>, _>>()?;
                Ok(Item::Set(ranges_of(values)))
            }
            _ => Err("float sets are not supported".to_string()),
        }
    }

    pub(super) fn set_expr(&self, expr: &SetExpr) -> Result<Item, String> {
        match expr {
            SetExpr::Set(literal) => self.set_literal(literal),
            SetExpr::VarParIdentifier(name) => self.scalar_named(name),
        }
    }

    /// What a constraint's argument stands for.
    pub(super) fn resolve(&self, expr: &Expr) -> Result<Arg, String> {
        Ok(match expr {
            Expr::VarParIdentifier(name) => match self.names.get(name) {
                Some(arg) => arg.clone(),
                None => return Err(format!("unknown identifier '{name}'")),
            },
            Expr::Bool(value) => Arg::Item(Item::Bool(*value)),
            Expr::Int(value) => Arg::Item(match i64::try_from(*value) {
                Ok(wide) if int(*value).is_err() => Item::WideInt(wide),
                _ => Item::Int(int(*value)?),
            }),
            Expr::Float(_) | Expr::ArrayOfFloat(_) => {
                return Err("float values are not supported".to_string());
            }
            Expr::Set(literal) => Arg::Item(self.set_literal(literal)?),
            Expr::ArrayOfBool(list) => Arg::Array(
                list.iter()
                    .map(|e| self.bool_expr(e))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::ArrayOfInt(list) => Arg::Array(
                list.iter()
                    .map(|e| self.int_expr(e))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::ArrayOfSet(list) => Arg::Array(
                list.iter()
                    .map(|e| self.set_expr(e))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// Resolves an annotation's argument naming an array of variables or a variable
    /// (for search annotations): the variables, constants left out.
    pub(crate) fn ann_vars(&mut self, expr: &AnnExpr) -> Result<Vec<VarId>, String> {
        let arg = match expr {
            AnnExpr::Expr(expr) => self.resolve(expr)?,
            _ => return Err("a search annotation must name variables".to_string()),
        };
        let items = match arg {
            Arg::Item(item) => vec![item],
            Arg::Array(items) => items,
        };
        // A view's variable, made for it, so that orders on values stay the same.
        items
            .into_iter()
            .filter(|item| matches!(item, Item::Var(_) | Item::View(_)))
            .map(|item| self.item_var(&item))
            .collect()
    }
}
