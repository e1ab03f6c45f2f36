//! What can be wrong with a model: one error type, below both the model and the
//! propagators, which report it when a constraint is posted.

/// The widest domain a variable may have, counted from its smallest to its largest
/// value: domains are bitsets, so the span sets their memory.
pub const MAX_DOMAIN_SPAN: u64 = 1 << 24;

/// What is wrong with a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable was given no values.
    #[error("variable {name} has an empty domain")]
    EmptyDomain {
        /// The variable's name, or its number.
        name: String,
    },
    /// A domain's span (largest minus smallest value, plus one) exceeds [`MAX_DOMAIN_SPAN`].
    #[error("variable {name} spans {span} values, more than the {max} a domain may span")]
    DomainTooWide {
        /// The variable's name, or its number.
        name: String,
        /// Its span.
        span: u64,
        /// The limit, [`MAX_DOMAIN_SPAN`].
        max: u64,
    },
    /// A variable made by another model was used in this one.
    #[error("variable #{index} belongs to another model")]
    ForeignVariable {
        /// The variable's index in its own model.
        index: usize,
    },
    /// A constraint was posted over no variables at all.
    #[error("constraint {constraint} has no variables")]
    NoVariables {
        /// The constraint's kind.
        constraint: &'static str,
    },
    /// A view's offset takes some domain value outside the 32-bit value range.
    #[error("view {name} {offset:+} overflows: the variable's values reach {min}..={max}")]
    OffsetOverflow {
        /// The variable's name, or its number.
        name: String,
        /// The offset.
        offset: i64,
        /// The variable's smallest value.
        min: i32,
        /// The variable's largest value.
        max: i32,
    },
    /// A constraint's own parameters are inconsistent (for example, lengths that differ).
    #[error("constraint {constraint}: {reason}")]
    InvalidConstraint {
        /// The constraint's kind.
        constraint: &'static str,
        /// What is wrong.
        reason: String,
    },
}
