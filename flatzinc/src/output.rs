//! A solution as MiniZinc reads it back: `name = value;` lines.

use std::fmt::Write;

use flatzinc::{AnnExpr, Annotation, Expr, IntExpr, SetExpr, SetLiteralExpr};

use super::build::Item;
use alldiff::Solution;

/// One thing to print for each solution.
#[derive(Clone, Debug)]
pub(super) enum Output {
    /// `name = value;` (an `output_var`).
    Var {
        name: String,
        item: Item,
        bool: bool,
    },
    /// `name = arrayNd(index sets, [values]);` (an `output_array`).
    Array {
        name: String,
        dims: Vec<(i64, i64)>,
        items: Vec<Item>,
        bool: bool,
    },
}

/// The output lines of `solution`, each ending in `\n`.
pub(super) fn format(outputs: &[Output], solution: &Solution) -> String {
    let mut text = String::new();
    for output in outputs {
        // Writing to a String cannot fail.
        let _ = match output {
            Output::Var { name, item, bool } => {
                writeln!(text, "{name} = {};", value(item, *bool, solution))
            }
            Output::Array {
                name,
                dims,
                items,
                bool,
            } => {
                let sets: Vec<String> = dims.iter().map(|(lb, ub)| format!("{lb}..{ub}")).collect();
                let values: Vec<String> = items
                    .iter()
                    .map(|item| value(item, *bool, solution))
                    .collect();
                writeln!(
                    text,
                    "{name} = array{}d({}, [{}]);",
                    dims.len(),
                    sets.join(", "),
                    values.join(", ")
                )
            }
        };
    }
    text
}

/// One value: an integer, or `true`/`false` for a Boolean.
fn value(item: &Item, bool: bool, solution: &Solution) -> String {
    let number = match item {
        Item::Var(var) => i64::from(solution.get(*var).unwrap_or_default()),
        Item::View(view) => i64::from(solution.get(view.var).unwrap_or_default() + view.offset),
        Item::Int(value) => i64::from(*value),
        Item::WideInt(value) => *value,
        Item::Bool(value) => i64::from(*value),
        Item::Set(_) | Item::Float => return String::new(),
    };
    match bool {
        true => (number != 0).to_string(),
        false => number.to_string(),
    }
}

/// The index sets of an `output_array` annotation, if there is one.
pub(super) fn output_array(annos: &[Annotation]) -> Result<Option<Vec<(i64, i64)>>, String> {
    let Some(annotation) = annos.iter().find(|a| a.id == "output_array") else {
        return Ok(None);
    };
    let bad = || "output_array takes a list of index ranges".to_string();
    let [AnnExpr::Expr(Expr::ArrayOfSet(sets))] = annotation.expressions.as_slice() else {
        return Err(bad());
    };
    sets.iter()
        .map(|set| match set {
            SetExpr::Set(SetLiteralExpr::IntInRange(IntExpr::Int(lb), IntExpr::Int(ub))) => {
                match (i64::try_from(*lb), i64::try_from(*ub)) {
                    (Ok(lb), Ok(ub)) => Ok((lb, ub)),
                    _ => Err(bad()),
                }
            }
            _ => Err(bad()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
