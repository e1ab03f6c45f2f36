//! The Zebra puzzle (Einstein's riddle): five houses in a row, five attributes each.
//!
//! Every attribute value (a colour, a nationality, a drink, a smoke, a pet) is a variable
//! holding the number of its house, 1 to 5 from the left; the five values of one attribute
//! are all different. "X lives in Y" is `x == y`; "right of" is `x == y + 1`; "next to" is
//! `|x - y| == 1`, posted with [`Model::distance`].
//!
//! ```text
//! cargo run --release --example zebra
//! ```

use std::process::ExitCode;

use alldiff::{Model, ModelError, Outcome, Solver, VarId};

/// The attributes and their values, in the order the variables are made.
pub const ATTRIBUTES: [(&str, [&str; 5]); 5] = [
    ("colour", ["red", "green", "ivory", "yellow", "blue"]),
    (
        "nationality",
        ["English", "Spaniard", "Ukrainian", "Norwegian", "Japanese"],
    ),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    (
        "smoke",
        [
            "Old Gold",
            "Kools",
            "Chesterfield",
            "Lucky Strike",
            "Parliament",
        ],
    ),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
];

/// The model and, for every attribute value, its house variable (`vars[attribute][value]`,
/// in the order of [`ATTRIBUTES`]).
pub struct Zebra {
    /// The model.
    pub model: Model,
    /// House variables, by attribute then value.
    pub vars: [[VarId; 5]; 5],
}

/// Builds the model with the fourteen clues.
pub fn zebra() -> Result<Zebra, ModelError> {
    let mut model = Model::new();
    let mut groups = Vec::with_capacity(ATTRIBUTES.len());
    for (_, values) in ATTRIBUTES {
        let group: [VarId; 5] = model.int_var_array(1, 5)?;
        for (var, name) in group.into_iter().zip(values) {
            model.set_name(var, name)?;
        }
        model.all_different(group)?;
        groups.push(group);
    }
    let vars: [[VarId; 5]; 5] = std::array::from_fn(|a| groups[a]);
    let [colour, nation, drink, smoke, pet] = vars;
    let [red, green, ivory, yellow, blue] = colour;
    let [english, spaniard, ukrainian, norwegian, japanese] = nation;
    let [coffee, tea, milk, orange_juice, _water] = drink;
    let [old_gold, kools, chesterfield, lucky_strike, parliament] = smoke;
    let [dog, snails, fox, horse, _zebra] = pet;

    // Constants are variables with one value.
    let first_house = model.var_from_values([1])?;
    let middle_house = model.var_from_values([3])?;

    model.equal(english, red)?; // 2. The Englishman lives in the red house.
    model.equal(spaniard, dog)?; // 3. The Spaniard owns the dog.
    model.equal(coffee, green)?; // 4. Coffee is drunk in the green house.
    model.equal(ukrainian, tea)?; // 5. The Ukrainian drinks tea.
    model.equal(green, ivory + 1)?; // 6. Green is immediately right of ivory.
    model.equal(old_gold, snails)?; // 7. The Old Gold smoker owns snails.
    model.equal(kools, yellow)?; // 8. Kools are smoked in the yellow house.
    model.equal(milk, middle_house)?; // 9. Milk in the middle house.
    model.equal(norwegian, first_house)?; // 10. The Norwegian: first house.
    model.distance(chesterfield, fox, 1)?; // 11. Chesterfield next to the fox.
    model.distance(kools, horse, 1)?; // 12. Kools next to the horse.
    model.equal(lucky_strike, orange_juice)?; // 13. Lucky Strike with orange juice.
    model.equal(japanese, parliament)?; // 14. The Japanese smokes Parliament.
    model.distance(norwegian, blue, 1)?; // 15. The Norwegian next to the blue house.
    Ok(Zebra { model, vars })
}

/// One house of a solution: the name of its value of each attribute, in the order of
/// [`ATTRIBUTES`].
pub type House = [&'static str; 5];

/// The houses of the solution, from the left: `houses[h][attribute]` is the value name in
/// house `h + 1`; also the number of solutions (1 for a well-made puzzle).
pub fn solve() -> Result<(Option<Vec<House>>, u64), ModelError> {
    let Zebra { model, vars } = zebra()?;
    let mut solver = Solver::new(model);
    let houses = match solver.solve() {
        Outcome::Solved(s) => {
            let mut houses = vec![[""; 5]; 5];
            for (a, (_, names)) in ATTRIBUTES.iter().enumerate() {
                for (&var, &name) in vars[a].iter().zip(names) {
                    if let Some(house) = houses.get_mut((s[var] - 1) as usize) {
                        house[a] = name;
                    }
                }
            }
            Some(houses)
        }
        _ => None,
    };
    let count = solver.count(None).solutions;
    Ok((houses, count))
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("usage: zebra");
        return ExitCode::from(2);
    }
    match solve() {
        Ok((Some(houses), count)) => {
            let mut header = format!("{:<6}", "house");
            for (attribute, _) in ATTRIBUTES {
                header.push_str(&format!("{attribute:<14}"));
            }
            println!("{}", header.trim_end());
            for (h, house) in houses.iter().enumerate() {
                let mut line = format!("{:<6}", h + 1);
                for value in house {
                    line.push_str(&format!("{value:<14}"));
                }
                println!("{}", line.trim_end());
            }
            let owner = |pet: &str| houses.iter().find(|h| h[4] == pet).map_or("", |h| h[1]);
            let drinker = |d: &str| houses.iter().find(|h| h[2] == d).map_or("", |h| h[1]);
            println!(
                "The {} owns the zebra; the {} drinks water.",
                owner("zebra"),
                drinker("water")
            );
            println!("solutions: {count}");
            ExitCode::SUCCESS
        }
        Ok((None, _)) => {
            println!("no solution");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("zebra: {e}");
            ExitCode::FAILURE
        }
    }
}
