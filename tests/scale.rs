//! Wide models: the engine handles 100,000 variables without trouble.

use alldiff::{CountStatus, Model, Outcome, Solver};

#[test]
fn a_chain_of_a_hundred_thousand_variables_solves_and_counts() {
    let n = 100_000;
    let mut model = Model::new();
    let x = model.int_vars(n, 0, 1).unwrap();
    for pair in x.windows(2) {
        model.not_equal(pair[0], pair[1]).unwrap();
    }
    let mut solver = Solver::new(model);
    let Outcome::Solved(solution) = solver.solve() else {
        panic!("an alternating chain exists");
    };
    assert!(x.windows(2).all(|p| solution[p[0]] != solution[p[1]]));
    // Exactly two colourings: the first value decides all the others.
    let count = solver.count(None);
    assert_eq!((count.solutions, count.status), (2, CountStatus::Complete));
    assert!(solver.statistics().peak_depth <= 1);
}
