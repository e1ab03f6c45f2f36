//! Inference labels: the names a propagator gives the reasoning behind its prunings,
//! for traces, statistics and explanations. Each propagator declares its own, beside
//! its code; the engine keeps no list of them.

use std::fmt;

/// The reasoning behind a pruning, as the propagator that applies it names it with
/// [`Context::set_label`](crate::Context::set_label) before removing values. Recorded
/// with each [`Pruning`](crate::Pruning); traces and their summaries show
/// [`InferenceLabel::name`], and a layer above the engine (the Sudoku explainer) maps
/// the labels it knows to its own words.
///
/// A propagator declares its labels as constants next to its code, as the built-in
/// constraints do ([`AllDifferent::VALUE_ELIMINATION`](crate::constraints::AllDifferent::VALUE_ELIMINATION),
/// [`Linear::BOUNDS`](crate::constraints::Linear::BOUNDS), ...). Labels are compared
/// by name: two propagators that declare the same name share a label.
///
/// ```
/// use alldiff::InferenceLabel;
///
/// /// The one rule of a user's propagator.
/// const SQUARE_ROOTS: InferenceLabel = InferenceLabel::new("square roots");
///
/// assert_eq!(SQUARE_ROOTS.name(), "square roots");
/// assert_eq!(SQUARE_ROOTS.to_string(), "square roots");
/// assert_eq!(InferenceLabel::default(), InferenceLabel::UNNAMED);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InferenceLabel {
    name: &'static str,
}

impl InferenceLabel {
    /// The label of removals whose propagator named none: `propagation`.
    pub const UNNAMED: InferenceLabel = InferenceLabel::new("propagation");

    /// The label called `name`, as traces print it: a few lowercase words that say
    /// what the rule does (`value elimination`, `linear bounds`, ...).
    pub const fn new(name: &'static str) -> InferenceLabel {
        InferenceLabel { name }
    }

    /// The label's human name, as traces print it.
    pub const fn name(self) -> &'static str {
        self.name
    }
}

impl Default for InferenceLabel {
    fn default() -> InferenceLabel {
        InferenceLabel::UNNAMED
    }
}

impl fmt::Display for InferenceLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
