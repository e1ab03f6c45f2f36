//! The rules a propagator prunes by, named once for traces, statistics and
//! explanations.

use std::fmt;

/// The reasoning behind a pruning, as a propagator states it with
/// [`Context::set_rule`](crate::Context::set_rule) before removing values. Recorded
/// with each [`Pruning`](crate::Pruning); the Sudoku explainer turns the rules into
/// human techniques, and traces and summaries show [`Rule::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// No rule named: the propagator did not say.
    #[default]
    Unnamed,
    /// A fixed variable's value leaves the others that must differ from it.
    ValueElimination,
    /// A value with one place left in an all-different group goes there.
    HiddenSingle,
    /// A value confined to the cells two groups share leaves the rest of either.
    LockedCandidates,
    /// Values outside every maximum matching of an all-different (Régin).
    Matching,
    /// Two views that must be equal keep only their common values.
    Equality,
    /// A linear relation's bounds.
    LinearBounds,
    /// A linear `!=` with one unfixed term left.
    LinearDisequality,
    /// Element: index and value keep the supported entries.
    Element,
    /// A table's unsupported values.
    TableSupport,
    /// Values of a difference constraint without support on the other side.
    DifferenceSupport,
    /// An ordering `a < b` or `a <= b` moves a bound.
    Ordering,
    /// An arithmetic constraint's bounds (`*`, `/`, `%`, `|x|`, `x^k`, min, max).
    ArithmeticBounds,
    /// An arithmetic constraint's values without support on the other side.
    ArithmeticSupport,
    /// Element over variables: the index and the value keep what the entries' bounds
    /// allow.
    ElementBounds,
    /// Circuit successors within the nodes, no self-loop in a circuit of two nodes
    /// or more.
    Circuit,
    /// A chain of fixed successors may not close into a cycle shorter than the tour
    /// (path ends), and a closed cycle of a subcircuit puts the other nodes out.
    NoSubtour,
    /// Global cardinality: counts between the views that must and can take a value;
    /// a value whose count is reached leaves the others, one that needs every place
    /// takes them.
    Cardinality,
    /// Inverse channeling: `f[i] == j` exactly when `g[j] == i`.
    Inverse,
    /// Lexicographic ordering: the first position not fixed equal is ordered.
    Lex,
    /// A clause with one literal left that is not false makes it true (also `and`, and
    /// a true disjunct making a reified `or` true).
    UnitClause,
    /// A parity constraint with one literal left fixes it.
    Parity,
    /// A reified constraint: an entailed or disentailed condition fixes its literal.
    Reification,
    /// Bounds moved out of an all-different's Hall interval (an interval of values
    /// that as many other views fill).
    HallInterval,
    /// Start times moved off the compulsory parts of other tasks (time-tabling).
    TimeTabling,
    /// Two tasks of a disjunctive resource that can only go in one order.
    Precedence,
    /// A user's propagator's own rule.
    Custom(&'static str),
}

impl Rule {
    /// The rule's human name, as traces print it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Unnamed => "propagation",
            Rule::ValueElimination => "value elimination",
            Rule::HiddenSingle => "hidden single",
            Rule::LockedCandidates => "locked candidates",
            Rule::Matching => "all-different matching",
            Rule::Equality => "equality",
            Rule::LinearBounds => "linear bounds",
            Rule::LinearDisequality => "linear disequality",
            Rule::Element => "element",
            Rule::TableSupport => "table support",
            Rule::DifferenceSupport => "difference support",
            Rule::Ordering => "ordering",
            Rule::ArithmeticBounds => "arithmetic bounds",
            Rule::ArithmeticSupport => "arithmetic support",
            Rule::ElementBounds => "element bounds",
            Rule::Circuit => "circuit",
            Rule::NoSubtour => "no subtour",
            Rule::Cardinality => "cardinality",
            Rule::Inverse => "inverse",
            Rule::Lex => "lexicographic order",
            Rule::UnitClause => "unit clause",
            Rule::Parity => "parity",
            Rule::Reification => "reification",
            Rule::HallInterval => "Hall interval",
            Rule::TimeTabling => "time-tabling",
            Rule::Precedence => "disjunctive precedence",
            Rule::Custom(name) => name,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
