//! Statements into a [`Model`]: declarations, constraints (through `builtins` and
//! `globals`), the solve item and the output.

use std::collections::{HashMap, HashSet};

use flatzinc::{
    AnnExpr, Annotation, ArrayOfBoolExpr, ArrayOfIntExpr, BoolExpr, Expr, Goal, IntExpr,
    OptimizationType, ParDeclItem, Stmt, VarDeclItem,
};

mod resolve;

use super::aliases::{bool_ints, offsets};
use super::call::Call;
use super::output::{Output, output_array};
use super::parse::Statement;
use super::search::{self, SearchAnnotations};
use super::{FlatZincError, UNBOUNDED_MAX, UNBOUNDED_MIN};
use alldiff::Model;
use alldiff::Objective;
use alldiff::{VarId, View};
use resolve::set_of;

/// A value as FlatZinc names it: a variable, or a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Item {
    Var(VarId),
    /// A variable that another one plus a constant defines (see [`offsets`]); the
    /// offset is never 0.
    View(View),
    Int(i32),
    /// An integer constant beyond 32 bits given to a constraint: a sum's right-hand
    /// side takes one (MiniZinc folds the constants of a sum into it); anywhere else
    /// it is refused as out of range.
    WideInt(i64),
    Bool(bool),
    /// A set of integers, as ascending disjoint ranges.
    Set(Vec<(i32, i32)>),
    /// A float: read, so that a model naming one gets a clear error.
    Float,
}

/// What a name or an argument stands for.
#[derive(Clone, Debug)]
pub(super) enum Arg {
    Item(Item),
    Array(Vec<Item>),
}

/// A declared domain.
#[derive(Clone, Debug)]
enum Domain {
    Any,
    Bool,
    Range(i128, i128),
    Set(Vec<i128>),
}

/// What building leaves: the model and all a run and the output need.
#[derive(Debug)]
pub(super) struct Built {
    pub(super) model: Model,
    pub(super) warnings: Vec<String>,
    /// Whether a declared domain was narrowed to fit (see [`Builder::narrowed`]).
    pub(super) narrowed: bool,
    pub(super) objective: Option<Objective>,
    pub(super) vars: HashMap<String, VarId>,
    pub(super) outputs: Vec<Output>,
    pub(super) search: SearchAnnotations,
    /// The variables that only complete a solution (see [`alldiff::Solver::set_auxiliary`]):
    /// those MiniZinc introduced (`var_is_introduced`), but for the objective and what
    /// the output shows.
    pub(super) auxiliary: Vec<VarId>,
    /// The constraint items, each with the posted constraints it became.
    pub(super) sources: Vec<Source>,
}

/// A constraint item of the FlatZinc text and the constraints posted for it.
#[derive(Debug)]
pub(super) struct Source {
    /// The posted constraints' indices, `from..to`.
    pub(super) posted: std::ops::Range<usize>,
    pub(super) line: usize,
    /// The item's predicate (`int_lin_eq`, ...).
    pub(super) name: String,
}

/// The model under construction and the names read so far.
pub(super) struct Builder {
    pub(super) model: Model,
    names: HashMap<String, Arg>,
    vars: HashMap<String, VarId>,
    consts: HashMap<i32, VarId>,
    /// The variables made with more than [`WIDE`] values: equalities on them go
    /// through bounds (a domain equality would walk every value).
    wide: HashSet<VarId>,
    /// For `bool2int(b, i)`: `i`'s name to `b`'s. `i` is then `b` itself, the 0/1
    /// variable, rather than a copy tied to it by an equality (see [`bool_ints`]).
    bool_ints: HashMap<String, String>,
    /// For `int_lin_eq` defining a variable as another plus a constant: the defined
    /// variable's name to the other's and the constant (see [`offsets`]).
    offsets: HashMap<String, Vec<(String, i64)>>,
    /// The variables made for views where a constraint needs a variable (see
    /// [`Builder::item_var`]).
    view_vars: HashMap<View, VarId>,
    pub(super) warnings: Vec<String>,
    outputs: Vec<Output>,
    unbounded: Vec<String>,
    /// Whether a domain beyond 32 bits was narrowed to fit (unbounded ones are in
    /// `unbounded`).
    narrowed: bool,
    /// The variables made for declarations MiniZinc marks `var_is_introduced`.
    introduced: Vec<VarId>,
}

/// What the warnings of a narrowed domain add: what a finished search then claims.
const NARROWED: &str = "; a search that ends then proves nothing beyond these domains \
    (no '==========', and '=====UNKNOWN=====' rather than '=====UNSATISFIABLE=====')";

/// The number of values above which a variable is wide (see [`Builder::is_wide`]).
const WIDE: i128 = 1 << 16;

/// Builds the model of `statements`.
pub(super) fn build(statements: &[Statement]) -> Result<Built, FlatZincError> {
    let mut b = Builder {
        model: Model::new(),
        names: HashMap::new(),
        vars: HashMap::new(),
        consts: HashMap::new(),
        wide: HashSet::new(),
        bool_ints: bool_ints(statements),
        offsets: offsets(statements),
        view_vars: HashMap::new(),
        warnings: Vec::new(),
        outputs: Vec::new(),
        unbounded: Vec::new(),
        narrowed: false,
        introduced: Vec::new(),
    };
    let mut solve = None;
    let mut sources = Vec::new();
    for statement in statements {
        let at = |message: String| FlatZincError::at(statement.line, message);
        match &statement.stmt {
            Stmt::Comment(_) | Stmt::Predicate(_) => {}
            Stmt::Parameter(item) => b.parameter(item).map_err(at)?,
            Stmt::Variable(item) => b.variable(item).map_err(at)?,
            Stmt::Constraint(item) => {
                let args = item
                    .exprs
                    .iter()
                    .map(|e| b.resolve(e))
                    .collect::<Result<Vec<Arg>, String>>()
                    .map_err(at)?;
                let call = Call {
                    name: &item.id,
                    args,
                    annotations: &item.annos,
                };
                let from = b.model.constraint_count();
                let posted = super::builtins::post(&mut b, &call).map_err(at)?
                    || super::globals::post(&mut b, &call).map_err(at)?;
                if !posted {
                    return Err(at(format!("unsupported constraint '{}'", item.id)));
                }
                sources.push(Source {
                    posted: from..b.model.constraint_count(),
                    line: statement.line,
                    name: item.id.clone(),
                });
            }
            Stmt::SolveItem(item) => {
                if solve.is_some() {
                    return Err(at("a second solve item".to_string()));
                }
                solve = Some((statement.line, item));
            }
        }
    }
    let Some((line, solve)) = solve else {
        return Err(FlatZincError {
            line: None,
            message: "no solve item".to_string(),
        });
    };
    let at = |message: String| FlatZincError::at(line, message);
    let objective = match &solve.goal {
        Goal::Satisfy => None,
        Goal::OptimizeBool(kind, BoolExpr::VarParIdentifier(name))
        | Goal::OptimizeInt(kind, IntExpr::VarParIdentifier(name)) => {
            let var = b.var_named(name).map_err(at)?;
            Some(match kind {
                OptimizationType::Minimize => Objective::Minimize(var.into()),
                OptimizationType::Maximize => Objective::Maximize(var.into()),
            })
        }
        Goal::OptimizeInt(kind, IntExpr::Int(value)) => {
            let var = int(*value).and_then(|v| b.constant(v)).map_err(at)?;
            Some(match kind {
                OptimizationType::Minimize => Objective::Minimize(var.into()),
                OptimizationType::Maximize => Objective::Maximize(var.into()),
            })
        }
        _ => return Err(at("only integer objectives are supported".to_string())),
    };
    let search = search::read(&solve.annotations, &mut b).map_err(at)?;
    if !b.unbounded.is_empty() {
        let count = b.unbounded.len();
        let first = b.unbounded[0].clone();
        b.warnings.push(format!(
            "{count} variable(s) declared 'var int' without bounds ({first}{}) are clamped to {UNBOUNDED_MIN}..{UNBOUNDED_MAX}{NARROWED}",
            if count > 1 { ", ..." } else { "" }
        ));
    }
    let mut shown: HashSet<VarId> = (b.outputs.iter())
        .flat_map(|output| match output {
            Output::Var { item, .. } => std::slice::from_ref(item),
            Output::Array { items, .. } => items.as_slice(),
        })
        .filter_map(|item| match item {
            Item::Var(var) => Some(*var),
            Item::View(view) => Some(view.var),
            _ => None,
        })
        .collect();
    shown.extend(objective.map(|o| o.view().var));
    let auxiliary = (b.introduced.into_iter())
        .filter(|var| !shown.contains(var))
        .collect();
    Ok(Built {
        model: b.model,
        warnings: b.warnings,
        narrowed: b.narrowed || !b.unbounded.is_empty(),
        objective,
        vars: b.vars,
        outputs: b.outputs,
        search,
        auxiliary,
        sources,
    })
}

/// `value` as an `i32`, or the message saying it is out of range.
fn int(value: i128) -> Result<i32, String> {
    i32::try_from(value).map_err(|_| out_of_range(value))
}

/// The message for a constant beyond 32 bits where only a 32-bit one can go.
pub(super) fn out_of_range(value: impl std::fmt::Display) -> String {
    format!("the value {value} is out of the 32-bit range")
}

/// The name of an annotation's identifier argument, if it is one.
pub(super) fn ann_name(expr: &AnnExpr) -> Option<&str> {
    match expr {
        AnnExpr::Expr(Expr::VarParIdentifier(name)) => Some(name),
        AnnExpr::Annotations(list) if list.len() == 1 && list[0].expressions.is_empty() => {
            Some(&list[0].id)
        }
        _ => None,
    }
}

impl Builder {
    fn parameter(&mut self, item: &ParDeclItem) -> Result<(), String> {
        let (id, arg) = match item {
            ParDeclItem::Bool { id, bool } => (id, Arg::Item(Item::Bool(*bool))),
            ParDeclItem::Int { id, int: value } => (id, Arg::Item(Item::Int(int(*value)?))),
            ParDeclItem::Float { id, .. } => (id, Arg::Item(Item::Float)),
            ParDeclItem::SetOfInt { id, set_literal } => (id, Arg::Item(set_of(set_literal)?)),
            ParDeclItem::ArrayOfBool { id, v, .. } => {
                (id, Arg::Array(v.iter().map(|&b| Item::Bool(b)).collect()))
            }
            ParDeclItem::ArrayOfInt { id, v, .. } => {
                let items = v.iter().map(|&x| Ok(Item::Int(int(x)?)));
                (id, Arg::Array(items.collect::<Result<_, String>>()?))
            }
            ParDeclItem::ArrayOfFloat { id, v, .. } => (id, Arg::Array(vec![Item::Float; v.len()])),
            ParDeclItem::ArrayOfSet { id, v, .. } => (
                id,
                Arg::Array(v.iter().map(set_of).collect::<Result<_, _>>()?),
            ),
        };
        self.define(id, arg)
    }

    fn define(&mut self, id: &str, arg: Arg) -> Result<(), String> {
        match self.names.insert(id.to_string(), arg) {
            Some(_) => Err(format!("'{id}' is declared twice")),
            None => Ok(()),
        }
    }

    fn variable(&mut self, item: &VarDeclItem) -> Result<(), String> {
        match item {
            VarDeclItem::Bool { id, expr, annos } => {
                let expr = expr.as_ref().map(|e| self.bool_expr(e)).transpose()?;
                self.scalar(id, Domain::Bool, expr, annos)
            }
            VarDeclItem::Int { id, expr, annos } => {
                let expr = expr.as_ref().map(|e| self.int_expr(e)).transpose()?;
                self.scalar(id, Domain::Any, expr, annos)
            }
            VarDeclItem::IntInRange {
                id,
                lb,
                ub,
                expr,
                annos,
            } => {
                let expr = expr.as_ref().map(|e| self.int_expr(e)).transpose()?;
                self.scalar(id, Domain::Range(*lb, *ub), expr, annos)
            }
            VarDeclItem::IntInSet {
                id,
                set,
                expr,
                annos,
            } => {
                let expr = expr.as_ref().map(|e| self.int_expr(e)).transpose()?;
                self.scalar(id, Domain::Set(set.clone()), expr, annos)
            }
            VarDeclItem::ArrayOfBool {
                id,
                annos,
                array_expr,
                ..
            } => {
                let items = match array_expr {
                    Some(ArrayOfBoolExpr::Array(list)) => list
                        .iter()
                        .map(|e| self.bool_expr(e))
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(ArrayOfBoolExpr::VarParIdentifier(name)) => self.array_named(name)?,
                    None => return Err(format!("the array '{id}' has no elements given")),
                };
                self.array(id, Domain::Bool, items, annos)
            }
            VarDeclItem::ArrayOfInt {
                id,
                annos,
                array_expr,
                ..
            } => self.int_array(id, Domain::Any, array_expr.as_ref(), annos),
            VarDeclItem::ArrayOfIntInRange {
                id,
                lb,
                ub,
                annos,
                array_expr,
                ..
            } => self.int_array(id, Domain::Range(*lb, *ub), array_expr.as_ref(), annos),
            VarDeclItem::ArrayOfIntInSet {
                id,
                set,
                annos,
                array_expr,
                ..
            } => self.int_array(id, Domain::Set(set.clone()), array_expr.as_ref(), annos),
            VarDeclItem::Float { .. }
            | VarDeclItem::BoundedFloat { .. }
            | VarDeclItem::ArrayOfFloat { .. }
            | VarDeclItem::ArrayOfBoundedFloat { .. } => {
                Err("float variables are not supported".to_string())
            }
            _ => Err("set variables are not supported".to_string()),
        }
    }

    fn int_array(
        &mut self,
        id: &str,
        domain: Domain,
        expr: Option<&ArrayOfIntExpr>,
        annos: &[Annotation],
    ) -> Result<(), String> {
        let items = match expr {
            Some(ArrayOfIntExpr::Array(list)) => list
                .iter()
                .map(|e| self.int_expr(e))
                .collect::<Result<Vec<_>, _>>()?,
            Some(ArrayOfIntExpr::VarParIdentifier(name)) => self.array_named(name)?,
            None => return Err(format!("the array '{id}' has no elements given")),
        };
        self.array(id, domain, items, annos)
    }

    fn array_named(&self, name: &str) -> Result<Vec<Item>, String> {
        match self.names.get(name) {
            Some(Arg::Array(items)) => Ok(items.clone()),
            Some(Arg::Item(_)) => Err(format!("'{name}' is not an array")),
            None => Err(format!("unknown identifier '{name}'")),
        }
    }

    fn array(
        &mut self,
        id: &str,
        domain: Domain,
        items: Vec<Item>,
        annos: &[Annotation],
    ) -> Result<(), String> {
        for item in &items {
            self.restrict(item, &domain)?;
        }
        if let Some(dims) = output_array(annos)? {
            let size: i64 = dims.iter().map(|&(lb, ub)| (ub - lb + 1).max(0)).product();
            if size != items.len() as i64 {
                return Err(format!(
                    "the output_array index sets of '{id}' hold {size} elements, the array {}",
                    items.len()
                ));
            }
            self.outputs.push(Output::Array {
                name: id.to_string(),
                dims,
                items: items.clone(),
                bool: matches!(domain, Domain::Bool),
            });
        }
        self.define(id, Arg::Array(items))
    }

    fn scalar(
        &mut self,
        id: &str,
        domain: Domain,
        expr: Option<Item>,
        annos: &[Annotation],
    ) -> Result<(), String> {
        let item = match expr {
            None => match (self.bool_int(id, &domain), self.offset_view(id, &domain)) {
                (Some(b), _) => Item::Var(b),
                (None, Some(view)) => {
                    let item = Item::View(view);
                    self.restrict(&item, &domain)?;
                    item
                }
                (None, None) => {
                    let var = self.new_var(id, &domain)?;
                    if annos.iter().any(|a| a.id == "var_is_introduced") {
                        self.introduced.push(var);
                    }
                    Item::Var(var)
                }
            },
            Some(item) => {
                self.restrict(&item, &domain)?;
                item
            }
        };
        let var = match &item {
            Item::Var(var) => Some(*var),
            Item::View(_) => None,
            Item::Int(value) => Some(self.constant(*value)?),
            Item::Bool(value) => Some(self.constant(i32::from(*value))?),
            _ => return Err(format!("'{id}' is given a value of the wrong type")),
        };
        if let Some(var) = var {
            self.vars.insert(id.to_string(), var);
        }
        if annos.iter().any(|a| a.id == "output_var") {
            self.outputs.push(Output::Var {
                name: id.to_string(),
                item: item.clone(),
                bool: matches!(domain, Domain::Bool),
            });
        }
        self.define(id, Arg::Item(item))
    }

    /// The Boolean variable that the integer `id` of `bool2int` stands for, when
    /// that Boolean is declared already and `domain` holds 0 and 1 (see
    /// [`bool_ints`]).
    fn bool_int(&self, id: &str, domain: &Domain) -> Option<VarId> {
        let holds_0_1 = match domain {
            Domain::Any => true,
            Domain::Range(lb, ub) => *lb <= 0 && *ub >= 1,
            Domain::Set(values) => values.contains(&0) && values.contains(&1),
            Domain::Bool => false,
        };
        let b = self.bool_ints.get(id)?;
        match self.names.get(b) {
            Some(Arg::Item(Item::Var(var)))
                if holds_0_1 && self.model.domain(*var).ok()? == [0, 1] =>
            {
                Some(*var)
            }
            _ => None,
        }
    }

    /// The view that the integer `id` is, when an `int_lin_eq` defines it as a
    /// variable declared already plus a constant (see [`offsets`]): that variable
    /// (itself perhaps a view) with the constant added, if the sum stays in the
    /// 32-bit range over its domain.
    fn offset_view(&self, id: &str, domain: &Domain) -> Option<View> {
        if matches!(domain, Domain::Bool) {
            return None;
        }
        self.offsets.get(id)?.iter().find_map(|(other, c)| {
            let base = match self.names.get(other)? {
                Arg::Item(Item::Var(var)) => View::from(*var),
                Arg::Item(Item::View(view)) => *view,
                _ => return None,
            };
            let offset = i32::try_from(i64::from(base.offset) + c).ok()?;
            let view = View { offset, ..base };
            let fits = self.model.check_view(view).is_ok();
            (offset != 0 && fits && !self.is_wide(view.var)).then_some(view)
        })
    }

    fn new_var(&mut self, id: &str, domain: &Domain) -> Result<VarId, String> {
        let var = match domain {
            Domain::Any => {
                self.unbounded.push(id.to_string());
                self.model.int_var(UNBOUNDED_MIN, UNBOUNDED_MAX)
            }
            Domain::Bool => self.model.bool_var(),
            Domain::Range(lb, ub) => {
                let clamp = |v: i128| v.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
                if *lb < i128::from(i32::MIN) || *ub > i128::from(i32::MAX) {
                    self.narrowed = true;
                    self.warnings.push(format!(
                        "the domain {lb}..{ub} of '{id}' is clamped to the 32-bit range{NARROWED}"
                    ));
                }
                if lb > ub {
                    self.fail()?;
                    return self.constant(0);
                }
                self.model.int_var(clamp(*lb), clamp(*ub))
            }
            Domain::Set(values) => {
                let values = values
                    .iter()
                    .map(|&v| int(v))
                    .collect::<Result<Vec<_>, _>>()?;
                if values.is_empty() {
                    self.fail()?;
                    return self.constant(0);
                }
                self.model.var_from_values(values)
            }
        }
        .map_err(|e| format!("'{id}': {e}"))?;
        let wide = match domain {
            Domain::Any => true,
            Domain::Range(lb, ub) => ub - lb >= WIDE,
            Domain::Bool | Domain::Set(_) => false,
        };
        if wide {
            self.wide.insert(var);
        }
        self.model
            .set_name(var, id)
            .map_err(|e| format!("'{id}': {e}"))?;
        Ok(var)
    }

    /// Constrains an item given to a declaration to lie in the declared domain.
    fn restrict(&mut self, item: &Item, domain: &Domain) -> Result<(), String> {
        if let Item::View(view) = item {
            // x + c in D: x in D - c.
            let c = i128::from(view.offset);
            let shifted = match domain {
                Domain::Any => Domain::Any,
                Domain::Bool => Domain::Set(vec![-c, 1 - c]),
                Domain::Range(lb, ub) => Domain::Range(lb - c, ub - c),
                Domain::Set(values) => Domain::Set(values.iter().map(|v| v - c).collect()),
            };
            return self.restrict(&Item::Var(view.var), &shifted);
        }
        let fits = |value: i32| match domain {
            Domain::Any => true,
            Domain::Bool => value == 0 || value == 1,
            Domain::Range(lb, ub) => (*lb..=*ub).contains(&i128::from(value)),
            Domain::Set(values) => values.contains(&i128::from(value)),
        };
        match item {
            Item::Int(value) if !fits(*value) => self.fail(),
            Item::Bool(_) if !matches!(domain, Domain::Bool | Domain::Any) => {
                Err("a Boolean where an integer is expected".to_string())
            }
            Item::Var(var) if self.is_wide(*var) => {
                let var = *var;
                let lit = self.constant(1)?;
                let (lb, ub) = match domain {
                    Domain::Any => return Ok(()),
                    Domain::Bool => (0, 1),
                    Domain::Range(lb, ub) => (*lb, *ub),
                    Domain::Set(values) => {
                        let values = values
                            .iter()
                            .map(|&v| int(v))
                            .collect::<Result<Vec<_>, _>>()?;
                        let condition = alldiff::Condition::in_set(var, values);
                        return self
                            .model
                            .half_reify(lit, condition)
                            .map(|_| ())
                            .map_err(|e| e.to_string());
                    }
                };
                let clamp = |v: i128| v.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
                let m = &mut self.model;
                m.linear([(1, var)], alldiff::Relation::GreaterEq, clamp(lb))
                    .and_then(|_| m.linear([(1, var)], alldiff::Relation::LessEq, clamp(ub)))
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            Item::Var(var) => {
                let values = self.model.domain(*var).map_err(|e| e.to_string())?;
                let outside: Vec<i32> = values.into_iter().filter(|&v| !fits(v)).collect();
                if outside.is_empty() {
                    return Ok(());
                }
                let lit = self.constant(1)?;
                let condition = alldiff::Condition::not_in_set(*var, outside);
                self.model
                    .half_reify(lit, condition)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            Item::Set(_) | Item::Float => Err("a value of the wrong type".to_string()),
            _ => Ok(()),
        }
    }

    /// Makes the model unsatisfiable.
    pub(super) fn fail(&mut self) -> Result<(), String> {
        let zero = self.constant(0)?;
        self.model
            .linear([(1, zero)], alldiff::Relation::Equal, 1)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Whether `var` was made with more than 65,536 values (an unbounded `var int`, a
    /// wide range): an equality with it is stated on bounds, as a domain equality
    /// would walk every value.
    pub(super) fn is_wide(&self, var: VarId) -> bool {
        self.wide.contains(&var)
    }

    /// Whether the view `var + offset` keeps every value of `var` within 32 bits.
    pub(super) fn shifts_within(&self, var: VarId, offset: i32) -> bool {
        self.model.bounds(var).is_ok_and(|(min, max)| {
            min.checked_add(offset).is_some() && max.checked_add(offset).is_some()
        })
    }

    /// A fixed variable for a constant, shared by every use of that constant.
    pub(super) fn constant(&mut self, value: i32) -> Result<VarId, String> {
        if let Some(&var) = self.consts.get(&value) {
            return Ok(var);
        }
        let var = self
            .model
            .var_from_values([value])
            .map_err(|e| e.to_string())?;
        self.consts.insert(value, var);
        Ok(var)
    }

    fn var_named(&mut self, name: &str) -> Result<VarId, String> {
        match self.names.get(name).cloned() {
            Some(Arg::Item(item)) => self.item_var(&item),
            Some(Arg::Array(_)) => Err(format!("'{name}' is an array, not a variable")),
            None => Err(format!("unknown identifier '{name}'")),
        }
    }

    /// The variable of an item: a constant's fixed variable, and for a view, a
    /// variable equal to it (made once for each view), where a constraint takes no
    /// views.
    pub(super) fn item_var(&mut self, item: &Item) -> Result<VarId, String> {
        match item {
            Item::Var(var) => Ok(*var),
            Item::View(view) => {
                if let Some(&var) = self.view_vars.get(view) {
                    return Ok(var);
                }
                // Not wide (see `offset_view`), and the values plus the offset fit.
                let values = self.model.domain(view.var).map_err(|e| e.to_string())?;
                let m = &mut self.model;
                let var = m
                    .var_from_values(values.iter().map(|&v| v + view.offset))
                    .map_err(|e| e.to_string())?;
                m.equal(var, *view).map_err(|e| e.to_string())?;
                self.view_vars.insert(*view, var);
                Ok(var)
            }
            Item::Int(value) => self.constant(*value),
            Item::WideInt(value) => Err(out_of_range(*value)),
            Item::Bool(value) => self.constant(i32::from(*value)),
            Item::Set(_) => Err("a set where a variable is expected".to_string()),
            Item::Float => Err("float values are not supported".to_string()),
        }
    }
}
