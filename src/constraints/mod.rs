//! The built-in constraints, one family per file.
//!
//! Each is posted through a [`Model`](crate::Model) method (`all_different`,
//! `not_equal`, ...) or, for the full set of options, by value with
//! [`Model::post`](crate::Model::post).

mod affine;
mod all_different;
mod all_different_bounds;
mod all_different_system;
mod arithmetic;
mod binary;
mod cardinality;
mod circuit;
mod difference;
mod element;
mod element_var;
mod intersection;
mod inverse;
mod lex;
mod linear;
mod linear_small;
mod logic;
mod matching;
mod matching_bits;
mod reify;
mod relation;
mod scheduling;
mod support;
mod table;
mod value_index;
mod word_window;

pub(crate) use affine::Affine;
pub use all_different::{AllDifferent, Strength};
pub use all_different_system::{AllDifferentSystem, LockedCandidates, MAX_SYSTEM_VARIABLES};
pub use arithmetic::{
    AbsDifference, Arithmetic, Extremum, LessEq, Operation, Unary, UnaryOperation,
};
pub use binary::{Equal, NotEqual};
pub use cardinality::GlobalCardinality;
pub(crate) use cardinality::{Count, check_values};
pub use circuit::Circuit;
pub use difference::DifferenceIn;
pub use element::Element;
pub use element_var::ElementVar;
pub use intersection::Intersection;
pub use inverse::Inverse;
pub use lex::Lex;
pub use linear::{Linear, Relation};
pub(crate) use linear::{SUM_OVERFLOW, sum_may_overflow};
pub(crate) use linear_small::SmallLinear;
pub use logic::{Clause, Conjunction, ReifiedOr, Xor};
pub use reify::{Condition, IntoReifiable, PreparedCondition, Reifiable, Reified};
pub use scheduling::{Cumulative, Disjunctive};
pub use table::Table;
