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
//! | `indomain_middle` | [`ValueOrder::Middle`] |
//! | `indomain_median` | [`ValueOrder::Median`] |
//! | `indomain_split` | [`ValueOrder::Split`] |
//! | `indomain_reverse_split` | [`ValueOrder::ReverseSplit`] |
//! | `indomain_interval` | [`ValueOrder::Interval`] |
//! | `indomain_random` | [`ValueOrder::Random`] with the run's seed |
//!
//! Each order is the library's built-in [`alldiff::VariableSelector`] or
//! [`alldiff::ValueSelector`] (through [`ValueOrder::selector`]), which a search runs
//! without a virtual call. Any other selection is mapped to the default
//! (`first_fail`, `indomain_min`) with a warning.
//!
//! Restarts: `restart_luby(s)`, `restart_geometric(f, s)` and `restart_linear(s)` are
//! [`Restarts::luby`], [`Restarts::geometric`] and [`Restarts::linear`];
//! `restart_constant(s)` becomes `restart_geometric(1.0, s)` with a warning (alldiff's
//! cutoffs always grow, so a search stays complete), `restart_none` none. As in
//! [`alldiff::Solver::set_restarts`], they apply to one solution and to optimisation,
//! not to enumerating all solutions. Other annotations on the solve item
//! (`warm_start`, ...) are ignored with a warning.

use flatzinc::{AnnExpr, Annotation, Expr};

use super::build::{Builder, Built, ann_name};
use alldiff::VarId;
use alldiff::{Objective, Phase, Restarts, ValueOrder, VariableOrder};

/// A search annotation, resolved: its variables and orders.
#[derive(Clone, Debug)]
pub(super) struct Annotated {
    vars: Vec<VarId>,
    variable: VariableOrder,
    /// `None` for `indomain_random`, whose seed comes with the run.
    value: Option<ValueOrder>,
}

/// The solve item's search annotations, resolved.
#[derive(Clone, Debug, Default)]
pub(super) struct SearchAnnotations {
    /// The search annotations, in order.
    phases: Vec<Annotated>,
    /// The last `restart_*` annotation's policy (`None` without one).
    pub(super) restarts: Option<Restarts>,
}

/// The search and restart annotations of the solve item.
pub(super) fn read(
    annotations: &[Annotation],
    builder: &mut Builder,
) -> Result<SearchAnnotations, String> {
    let mut search = SearchAnnotations::default();
    for annotation in annotations {
        match annotation.id.as_str() {
            "restart_none" => search.restarts = None,
            "restart_luby" | "restart_linear" | "restart_constant" | "restart_geometric" => {
                search.restarts = Some(restart(annotation, builder)?);
            }
            _ => annotation_phases(annotation, builder, &mut search.phases)?,
        }
    }
    Ok(search)
}

/// The policy of a `restart_luby`, `restart_linear`, `restart_constant` or
/// `restart_geometric` annotation.
fn restart(annotation: &Annotation, builder: &mut Builder) -> Result<Restarts, String> {
    let name = annotation.id.as_str();
    let args = annotation.expressions.as_slice();
    let int = |arg: Option<&AnnExpr>| match arg {
        Some(AnnExpr::Expr(Expr::Int(v))) if *v > 0 => Ok(u64::try_from(*v).unwrap_or(u64::MAX)),
        _ => Err(format!("{name} takes a positive integer scale")),
    };
    Ok(match name {
        "restart_luby" => Restarts::luby(int(args.first())?),
        "restart_linear" => Restarts::linear(int(args.first())?),
        "restart_constant" => {
            builder.warnings.push(
                "restart_constant is run as restart_geometric(1.0, scale): each cutoff one \
                 failure more than the last, so the search stays complete"
                    .to_string(),
            );
            Restarts::geometric(int(args.first())?, 1.0)
        }
        _ => {
            let factor = match args.first() {
                Some(AnnExpr::Expr(Expr::Float(f))) => *f,
                Some(AnnExpr::Expr(Expr::Int(v))) => *v as f64,
                _ => return Err("restart_geometric takes a base and a scale".to_string()),
            };
            Restarts::geometric(int(args.get(1))?, factor)
        }
    })
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
    Some(match name {
        "indomain_min" | "indomain" => ValueOrder::Ascending,
        "indomain_max" => ValueOrder::Descending,
        "indomain_middle" => ValueOrder::Middle,
        "indomain_median" => ValueOrder::Median,
        "indomain_split" => ValueOrder::Split,
        "indomain_reverse_split" => ValueOrder::ReverseSplit,
        "indomain_interval" => ValueOrder::Interval,
        "indomain_random" => return None,
        other => {
            builder.warnings.push(format!(
                "the value selection '{other}' is not supported: indomain_min instead"
            ));
            ValueOrder::Ascending
        }
    })
}

/// The phases of a run: the annotated ones, then the objective's variable unless a
/// phase covers it; none with `free`. `seed` seeds `indomain_random` (0 if `None`).
pub(super) fn phases(built: &Built, free: bool, seed: Option<u64>) -> Vec<Phase> {
    let mut phases = Vec::new();
    if free {
        return phases;
    }
    for annotated in &built.search.phases {
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
