//! The party: whom to invite, and on which day, to have the most guests.
//!
//! Eight friends and a day of the week (1 = Monday .. 7 = Sunday), under these rules:
//!
//! 1. If Ann comes, Ben comes.
//! 2. Cat and Dan never come together.
//! 3. Eve comes exactly when Fay or Gus comes.
//! 4. Hal comes only if both Ann and Cat come.
//! 5. Exactly one of Ben and Gus comes.
//! 6. Dan comes exactly when at least four of the others come.
//! 7. Gus comes only at a weekend.
//! 8. Cat comes exactly when the party is on a Friday.
//! 9. Ann can come only from Monday to Wednesday.
//! 10. The cake has 10 slices: Ann and Gus eat 3, Ben, Dan, Eve and Hal 2, Cat and Fay 1.
//!
//! Each friend is a Boolean variable and the day an integer one; the rules are clauses,
//! a parity constraint, reified `or`/`and`, reified conditions on the day and on a count,
//! and a linear sum. The most guests is found without an objective: the largest `k` for
//! which "at least `k` guests" has a solution, proven by "at least `k + 1`" having none.
//!
//! ```text
//! cargo run --release --example party
//! ```

use alldiff::{Condition, Model, ModelError, Outcome, Relation, Solver, VarId};

/// The friends.
pub const FRIENDS: [&str; 8] = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// Slices of cake each friend eats (rule 10).
pub const APPETITE: [i32; 8] = [3, 2, 1, 2, 2, 1, 3, 2];

/// The slices of the cake.
pub const SLICES: i32 = 10;

/// The party's model: one Boolean per friend (in [`FRIENDS`] order) and the day, with at
/// least `guests` guests.
pub fn model(guests: i32) -> Result<(Model, [VarId; 8], VarId), ModelError> {
    let mut model = Model::new();
    let invited: [VarId; 8] = model.bool_var_array()?;
    for (&var, name) in invited.iter().zip(FRIENDS) {
        model.set_name(var, name)?;
    }
    let day = model.int_var(1, 7)?;
    model.set_name(day, "day")?;
    let [ann, ben, cat, dan, eve, fay, gus, hal] = invited;
    model.implies(ann, ben)?; // 1
    model.or([!cat, !dan])?; // 2
    model.reify_or(eve, [fay, gus])?; // 3
    let ann_and_cat = model.bool_var()?;
    model.reify_and(ann_and_cat, [ann, cat])?;
    model.implies(hal, ann_and_cat)?; // 4
    model.xor([ben, gus])?; // 5
    let others = invited.iter().filter(|&&v| v != dan).map(|&v| (1, v));
    model.reify(dan, Condition::linear(others, Relation::GreaterEq, 4))?; // 6
    model.half_reify(gus, Condition::in_set(day, [6, 7]))?; // 7
    model.reify(cat, Condition::compare(day, Relation::Equal, 5))?; // 8
    model.half_reify(ann, Condition::compare(day, Relation::LessEq, 3))?; // 9
    model.linear(
        APPETITE.into_iter().zip(invited.iter().copied()),
        Relation::LessEq,
        SLICES,
    )?; // 10
    model.sum(invited.iter().copied(), Relation::GreaterEq, guests)?;
    Ok((model, invited, day))
}

/// A party with at least `guests` guests: the names of those invited and the day, or
/// `None` if there is none.
pub fn party(guests: i32) -> Result<Option<(Vec<&'static str>, i32)>, ModelError> {
    let (model, invited, day) = model(guests)?;
    Ok(match Solver::new(model).solve() {
        Outcome::Solved(s) => {
            let names = FRIENDS
                .iter()
                .zip(&invited)
                .filter(|&(_, &v)| s[v] == 1)
                .map(|(&name, _)| name)
                .collect();
            Some((names, s[day]))
        }
        _ => None,
    })
}

/// The most guests a party can have (the largest `k` with a party of at least `k`), and
/// how many (guests, day) choices reach it.
pub fn most_guests() -> Result<(i32, u64), ModelError> {
    let mut best = 0;
    while party(best + 1)?.is_some() {
        best += 1;
    }
    let (model, _, _) = model(best)?;
    Ok((best, Solver::new(model).count(None).solutions))
}

fn main() -> Result<(), ModelError> {
    let (best, ways) = most_guests()?;
    let (names, day) = party(best)?.expect("a party of the most guests exists");
    let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    println!(
        "At most {best} guests ({ways} ways), for example {} on {}; {} guests is impossible.",
        names.join(", "),
        days[day as usize - 1],
        best + 1
    );
    Ok(())
}
