//! A constraint call being posted, and the accessors that read its arguments as
//! variables, terms and constants.

use flatzinc::Annotation;

use super::build::{Arg, Builder, Item, out_of_range};
use alldiff::ModelError;
use alldiff::{VarId, View};

/// A constraint being posted: its name, arguments and annotations.
pub(super) struct Call<'a> {
    pub(super) name: &'a str,
    pub(super) args: Vec<Arg>,
    pub(super) annotations: &'a [Annotation],
}

impl Call<'_> {
    /// Checks the number of arguments.
    pub(super) fn arity(&self, count: usize) -> Result<(), String> {
        match self.args.len() == count {
            true => Ok(()),
            false => Err(format!(
                "'{}' takes {count} arguments, not {}",
                self.name,
                self.args.len()
            )),
        }
    }

    /// Whether the call carries the atom annotation `name`.
    pub(super) fn annotated(&self, name: &str) -> bool {
        self.annotations
            .iter()
            .any(|a| a.id == name && a.expressions.is_empty())
    }

    /// Turns an engine error into the message of this call.
    pub(super) fn refused(&self) -> impl FnOnce(ModelError) -> String + '_ {
        move |error| format!("'{}': {error}", self.name)
    }

    pub(super) fn wrong(&self, index: usize, what: &str) -> String {
        format!("argument {} of '{}' must be {what}", index + 1, self.name)
    }
}

impl Builder {
    fn item<'c>(&self, call: &'c Call, index: usize) -> Result<&'c Item, String> {
        match call.args.get(index) {
            Some(Arg::Item(item)) => Ok(item),
            _ => Err(call.wrong(index, "a single value")),
        }
    }

    fn items<'c>(&self, call: &'c Call, index: usize) -> Result<&'c [Item], String> {
        match call.args.get(index) {
            Some(Arg::Array(items)) => Ok(items),
            _ => Err(call.wrong(index, "an array")),
        }
    }

    /// A variable (a constant becomes a fixed variable).
    pub(super) fn var(&mut self, call: &Call, index: usize) -> Result<VarId, String> {
        let item = self.item(call, index)?.clone();
        self.item_var(&item)
            .map_err(|_| call.wrong(index, "an integer or a Boolean"))
    }

    /// An array of variables (constants become fixed variables).
    pub(super) fn vars(&mut self, call: &Call, index: usize) -> Result<Vec<VarId>, String> {
        let items = self.items(call, index)?.to_vec();
        items
            .iter()
            .map(|item| self.item_var(item))
            .collect::<Result<_, _>>()
            .map_err(|_| call.wrong(index, "an array of integers or Booleans"))
    }

    /// A variable as a view: a view stays one (a constant becomes a fixed variable),
    /// for the constraints that take views.
    pub(super) fn view(&mut self, call: &Call, index: usize) -> Result<View, String> {
        match self.item(call, index)? {
            Item::View(view) => Ok(*view),
            _ => self.var(call, index).map(View::from),
        }
    }

    /// An array of variables as views: those that are views stay views (constants
    /// become fixed variables), for the constraints that take views.
    pub(super) fn views(&mut self, call: &Call, index: usize) -> Result<Vec<View>, String> {
        let items = self.items(call, index)?.to_vec();
        items
            .iter()
            .map(|item| match item {
                Item::View(view) => Ok(*view),
                item => self.item_var(item).map(View::from),
            })
            .collect::<Result<_, _>>()
            .map_err(|_| call.wrong(index, "an array of integers or Booleans"))
    }

    /// An argument as a term of a sum: a variable, or a constant (`Err` for neither).
    pub(super) fn term(&self, call: &Call, index: usize) -> Result<Term, String> {
        match self.item(call, index)? {
            Item::WideInt(value) => Err(format!("'{}': {}", call.name, out_of_range(value))),
            item => term_of(item).ok_or_else(|| call.wrong(index, "an integer")),
        }
    }

    /// An integer constant within 64 bits, for a sum's right-hand side.
    pub(super) fn wide_int(&self, call: &Call, index: usize) -> Result<i64, String> {
        match self.item(call, index)? {
            Item::WideInt(value) => Ok(*value),
            _ => self.int(call, index).map(i64::from),
        }
    }

    /// An array argument as terms of a sum.
    pub(super) fn terms(&self, call: &Call, index: usize) -> Result<Vec<Term>, String> {
        self.items(call, index)?
            .iter()
            .map(|item| term_of(item).ok_or_else(|| call.wrong(index, "an array of integers")))
            .collect()
    }

    /// An integer constant (a Boolean counts as 0 or 1).
    pub(super) fn int(&self, call: &Call, index: usize) -> Result<i32, String> {
        match self.term(call, index) {
            Ok(Term::Const(value)) => Ok(value),
            _ => Err(call.wrong(index, "an integer constant")),
        }
    }

    /// An array of integer constants.
    pub(super) fn ints(&self, call: &Call, index: usize) -> Result<Vec<i32>, String> {
        self.terms(call, index)?
            .into_iter()
            .map(|term| match term {
                Term::Const(value) => Ok(value),
                Term::Var(_) => Err(call.wrong(index, "an array of integer constants")),
            })
            .collect()
    }

    /// A constant set, as ranges.
    pub(super) fn set(&self, call: &Call, index: usize) -> Result<Vec<(i32, i32)>, String> {
        match self.item(call, index)? {
            Item::Set(ranges) => Ok(ranges.clone()),
            _ => Err(call.wrong(index, "a constant set of integers")),
        }
    }
}

/// A term of a sum: a variable (perhaps plus a constant) or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Term {
    Var(View),
    Const(i32),
}

fn term_of(item: &Item) -> Option<Term> {
    match item {
        Item::Var(var) => Some(Term::Var(View::from(*var))),
        Item::View(view) => Some(Term::Var(*view)),
        Item::Int(value) => Some(Term::Const(*value)),
        Item::Bool(value) => Some(Term::Const(i32::from(*value))),
        Item::WideInt(_) | Item::Set(_) | Item::Float => None,
    }
}
