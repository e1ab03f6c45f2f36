//! Search annotations into [`Phase`]s.
//!
//! | MiniZinc | alldiff |
//! |---|---|
//! | `input_order` | [`VariableOrder::InputOrder`] |
//! | `first_fail` | [`VariableOrder::SmallestDomain`] |
//! | `anti_first_fail` | [`VariableOrder::LargestDomain`] |
//! | `smallest`, `largest` | [`VariableOrder::SmallestValue`], [`VariableOrder::LargestValue`] |
//! | `occurrence` | [`VariableOrder::MostConstraints`] |
//! | `most_constrained` | [`VariableOrder::SmallestDomainMostConstraints`] |
//! | `max_regret` | [`VariableOrder::MaxRegret`] |
//! | `dom_w_deg` | [`VariableOrder::DomOverWeightedDegree`] |
//! | `indomain_min`, `indomain` | [`ValueOrder::Ascending`] |
//! | `indomain_max` | [`ValueOrder::Descending`] |
//! | `indomain_middle`, `indomain_median` (nearest, with a warning) | [`ValueOrder::Middle`] |
//! | `indomain_split`, `indomain_interval` (nearest, with a warning) | [`ValueOrder::Split`] |
//! | `indomain_reverse_split` | [`ValueOrder::ReverseSplit`] |
//! | `indomain_random` | [`ValueOrder::Random`] with the run's seed |
//!
//! Any other selection is mapped to the default (`first_fail`, `indomain_min`) with a
//! warning; other annotations on the solve item (`restart_*`, `warm_start`, ...) are
//! ignored with a warning.

use flatzinc::{AnnExpr, Annotation};

use super::build::{Builder, Built, ann_name};
use crate::ids::VarId;
use crate::search::{Objective, Phase, ValueOrder, VariableOrder};

/// A search annotation, resolved: its variables and orders.
#[derive(Clone, Debug)]
pub(super) struct Annotated {
    vars: Vec<VarId>,
    variable: VariableOrder,
    /// `None` for `indomain_random`, whose seed comes with the run.
    value: Option<ValueOrder>,
}

/// The search annotations of the solve item, in order.
pub(super) fn read(
    annotations: &[Annotation],
    builder: &mut Builder,
) -> Result<Vec<Annotated>, String> {
    let mut phases = Vec::new();
    for annotation in annotations {
        annotation_phases(annotation, builder, &mut phases)?;
    }
    Ok(phases)
}

fn annotation_phases(
    annotation: &Annotation,
    builder: &mut Builder,
    phases: &mut Vec<Annotated>,
) -> Result<(), String> {
    match annotation.id.as_str() {
        "seq_search" => {
            for expr in &annotation.expressions {
                match expr {
                    AnnExpr::Annotations(list) => {
                        for inner in list {
                            annotation_phases(inner, builder, phases)?;
                        }
                    }
                    _ => return Err("seq_search takes a list of search annotations".to_string()),
                }
            }
        }
        "int_search" | "bool_search" => {
            let [vars, variable, value, ..] = annotation.expressions.as_slice() else {
                return Err(format!("{} takes at least 3 arguments", annotation.id));
            };
            let vars = builder.ann_vars(vars)?;
            let variable = variable_order(ann_name(variable).unwrap_or(""), builder);
            let value = value_order(ann_name(value).unwrap_or(""), builder);
            phases.push(Annotated {
                vars,
                variable,
                value,
            });
        }
        other => builder
            .warnings
            .push(format!("the search annotation '{other}' is ignored")),
    }
    Ok(())
}

fn variable_order(name: &str, builder: &mut Builder) -> VariableOrder {
    match name {
        "input_order" => VariableOrder::InputOrder,
        "first_fail" => VariableOrder::SmallestDomain,
        "anti_first_fail" => VariableOrder::LargestDomain,
        "smallest" => VariableOrder::SmallestValue,
        "largest" => VariableOrder::LargestValue,
        "occurrence" => VariableOrder::MostConstraints,
        "most_constrained" => VariableOrder::SmallestDomainMostConstraints,
        "max_regret" => VariableOrder::MaxRegret,
        "dom_w_deg" => VariableOrder::DomOverWeightedDegree,
        other => {
            builder.warnings.push(format!(
                "the variable selection '{other}' is not supported: first_fail instead"
            ));
            VariableOrder::SmallestDomain
        }
    }
}

fn value_order(name: &str, builder: &mut Builder) -> Option<ValueOrder> {
    let nearest = |builder: &mut Builder, order: ValueOrder, instead: &str| {
        builder.warnings.push(format!(
            "the value selection '{name}' is not supported: {instead} instead"
        ));
        Some(order)
    };
    match name {
        "indomain_min" | "indomain" => Some(ValueOrder::Ascending),
        "indomain_max" => Some(ValueOrder::Descending),
        "indomain_middle" => Some(ValueOrder::Middle),
        "indomain_split" => Some(ValueOrder::Split),
        "indomain_reverse_split" => Some(ValueOrder::ReverseSplit),
        "indomain_random" => None,
        "indomain_median" => nearest(builder, ValueOrder::Middle, "indomain_middle"),
        "indomain_interval" => nearest(builder, ValueOrder::Split, "indomain_split"),
        _ => nearest(builder, ValueOrder::Ascending, "indomain_min"),
    }
}

/// The phases of a run: the annotated ones, then the objective's variable unless a
/// phase covers it; none with `free`. `seed` seeds `indomain_random` (0 if `None`).
pub(super) fn phases(built: &Built, free: bool, seed: Option<u64>) -> Vec<Phase> {
    let mut phases = Vec::new();
    if free {
        return phases;
    }
    for annotated in &built.search {
        let value = annotated
            .value
            .unwrap_or(ValueOrder::Random(seed.unwrap_or(0)));
        phases.push(
            Phase::new(annotated.vars.iter().copied())
                .variable_order(annotated.variable)
                .value_order(value),
        );
    }
    if let Some(objective) = built.objective {
        let var = objective.view().var;
        if !phases.iter().any(|p| p.vars().contains(&var)) {
            let value = match objective {
                Objective::Minimize(_) => ValueOrder::Ascending,
                Objective::Maximize(_) => ValueOrder::Descending,
            };
            phases.push(
                Phase::new([var])
                    .variable_order(VariableOrder::InputOrder)
                    .value_order(value),
            );
        }
    }
    phases
}
