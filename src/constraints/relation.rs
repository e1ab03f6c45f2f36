//! The relations a linear constraint or a comparison states between two sides.

/// How the left-hand side of a linear constraint compares with its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Relation {
    /// `sum == c`.
    Equal,
    /// `sum != c`.
    NotEqual,
    /// `sum <= c`.
    LessEq,
    /// `sum >= c`.
    GreaterEq,
}

impl Relation {
    /// Whether `lhs ⋈ rhs` holds.
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Relation::Equal => lhs == rhs,
            Relation::NotEqual => lhs != rhs,
            Relation::LessEq => lhs <= rhs,
            Relation::GreaterEq => lhs >= rhs,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Relation::Equal => "==",
            Relation::NotEqual => "!=",
            Relation::LessEq => "<=",
            Relation::GreaterEq => ">=",
        }
    }
}

impl std::fmt::Display for Relation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}
