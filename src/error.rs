//! What can be wrong with a model: one error type, below both the model and the
//! propagators, which report it when a constraint is posted.

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
    /// A scaled view `scale * x + offset` whose scale is 0 (or overflowed as it was
    /// built), or which takes some domain value outside the 32-bit value range.
    #[error(
        "view {scale} * {name} {offset:+} is refused: its scale is 0 or its values leave \
         the 32-bit range (the variable's values reach {min}..={max})"
    )]
    ScaleOverflow {
        /// The variable's name, or its number.
        name: String,
        /// The scale (0 also when building the view overflowed).
        scale: i64,
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
