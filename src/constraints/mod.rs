//! The built-in constraints, one family per file.
//!
//! Each is posted through a [`Model`](crate::Model) method (`all_different`,
//! `not_equal`, ...) or, for the full set of options, by value with
//! [`Model::post`](crate::Model::post).

mod all_different;
mod all_different_system;
mod binary;
mod difference;
mod element;
mod intersection;
mod linear;
mod matching;
mod table;
mod value_index;

pub use all_different::{AllDifferent, Strength};
pub use all_different_system::{AllDifferentSystem, LockedCandidates, MAX_SYSTEM_VARIABLES};
pub use binary::{Equal, NotEqual};
pub use difference::DifferenceIn;
pub use element::Element;
pub use intersection::Intersection;
pub use linear::{Linear, Relation};
pub use table::Table;
