//! The constraints added for puzzles beyond Sudoku, against brute force: on small random
//! problems, the solver finds exactly the assignments that enumeration finds. The
//! domains lie near zero or at the edges (`common::edges`); a view past `i32` must be
//! refused with a typed error, and the oracles compute in `i64`.

mod common;

use alldiff::{Model, Solver, VarId};
use common::edges::{check_posted, small_or_edge_domains, view_fits};
use proptest::prelude::*;

/// Every assignment of the domains, in lexicographic order.
fn assignments(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let mut all = vec![Vec::new()];
    for domain in domains {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<i32>| {
                domain.iter().map(move |&v| {
                    let mut next = prefix.clone();
                    next.push(v);
                    next
                })
            })
            .collect();
    }
    all
}

/// The solutions the solver finds, sorted.
fn solve_all(model: Model, vars: &[VarId]) -> Vec<Vec<i32>> {
    let mut solver = Solver::new(model);
    let mut found: Vec<Vec<i32>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|s| vars.iter().map(|&v| s[v]).collect())
        .collect();
    found.sort();
    found
}

fn domains(count: usize) -> impl Strategy<Value = Vec<Vec<i32>>> {
    small_or_edge_domains(count, 4)
}

proptest! {
    #[test]
    fn linear_matches_brute_force(
        doms in (1usize..=4).prop_flat_map(domains),
        coefs in prop::collection::vec(-3i32..=3, 4),
        offsets in prop::collection::vec(-2i32..=2, 4),
        relation in common::relation(),
        rhs in -8i32..=8,
    ) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &doms);
        let terms: Vec<_> = xs.iter().zip(&coefs).zip(&offsets)
            .map(|((&x, &a), &o)| (a, x + o)).collect();
        let fits = doms.iter().zip(&offsets).all(|(d, &o)| view_fits(d, o));
        check_posted(model.linear(terms, relation, rhs), fits)?;
        if !fits {
            return Ok(());
        }
        let expected: Vec<Vec<i32>> = assignments(&doms).into_iter().filter(|vals| {
            let lhs: i64 = vals.iter().zip(&coefs).zip(&offsets)
                .map(|((&v, &a), &o)| i64::from(a) * (i64::from(v) + i64::from(o))).sum();
            relation.holds(lhs, i64::from(rhs))
        }).collect();
        prop_assert_eq!(solve_all(model, &xs), expected);
    }

    #[test]
    fn element_matches_brute_force(
        doms in domains(2),
        array in prop::collection::vec(-3i32..=4, 1..=5),
        offset in -1i32..=1,
    ) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &doms);
        let fits = view_fits(&doms[0], offset);
        check_posted(model.element(&array, xs[0] + offset, xs[1]), fits)?;
        if !fits {
            return Ok(());
        }
        let expected: Vec<Vec<i32>> = assignments(&doms).into_iter().filter(|v| {
            usize::try_from(i64::from(v[0]) + i64::from(offset)).ok()
                .and_then(|i| array.get(i)).is_some_and(|&e| e == v[1])
        }).collect();
        prop_assert_eq!(solve_all(model, &xs), expected);
    }

    /// Chained elements (an element's value the index of another, or a variable
    /// both), through random pushed and popped levels: each propagates only what its
    /// changed side requires, and still agrees with a fresh solver.
    #[test]
    fn elements_through_levels_match_a_fresh_solver(
        doms in domains(4),
        posts in prop::collection::vec(
            (0usize..4, 0usize..4, prop::collection::vec(-3i32..=4, 1..=6), -1i32..=1),
            1..=3,
        ),
        picks in prop::collection::vec(prop::option::weighted(0.7, (0usize..4, 0usize..4)), 1..=6),
    ) {
        // Each push fixes a variable to one of its own values.
        let steps: Vec<_> = picks.iter()
            .map(|pick| pick.map(|(var, k)| (var, doms[var][k % doms[var].len()])))
            .collect();
        // The elements whose index view would pass i32 are left out.
        let posts: Vec<_> = posts.into_iter().filter(|(i, _, _, offset)| view_fits(&doms[*i], *offset)).collect();
        let build = || {
            let mut model = Model::new();
            let xs = common::vars(&mut model, &doms);
            for (i, v, array, offset) in &posts {
                model.element(array, xs[*i] + *offset, xs[*v]).unwrap();
            }
            (model, xs)
        };
        let expected = common::brute_force(&doms, &|vals| {
            posts.iter().all(|(i, v, array, offset)| {
                usize::try_from(i64::from(vals[*i]) + i64::from(*offset)).ok()
                    .and_then(|k| array.get(k)).is_some_and(|&e| e == vals[*v])
            })
        });
        common::check_levels(&expected, &steps, &build)?;
    }

    #[test]
    fn table_matches_brute_force(
        doms in domains(3),
        tuples in prop::collection::vec(prop::collection::vec(-3i32..=4, 3), 0..=8),
        repeat in any::<bool>(),
    ) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &doms);
        // Sometimes the first variable appears twice in the scope.
        let scope = if repeat { vec![xs[0], xs[1], xs[0]] } else { xs.clone() };
        model.table(scope.iter().copied(), &tuples).unwrap();
        let expected: Vec<Vec<i32>> = assignments(&doms).into_iter().filter(|v| {
            let row = if repeat { vec![v[0], v[1], v[0]] } else { v.clone() };
            tuples.contains(&row)
        }).collect();
        prop_assert_eq!(solve_all(model, &xs), expected);
    }

    #[test]
    fn difference_in_matches_brute_force(
        doms in domains(2),
        offsets in prop::collection::vec(-4i32..=4, 1..=3),
        same in any::<bool>(),
    ) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &doms);
        let b = if same { xs[0] + 1 } else { xs[1].into() };
        let fits = !same || view_fits(&doms[0], 1);
        check_posted(model.difference_in(xs[0], b, &offsets), fits)?;
        if !fits {
            return Ok(());
        }
        let expected: Vec<Vec<i32>> = assignments(&doms).into_iter().filter(|v| {
            let b = if same { i64::from(v[0]) + 1 } else { i64::from(v[1]) };
            offsets.iter().any(|&o| i64::from(o) == i64::from(v[0]) - b)
        }).collect();
        prop_assert_eq!(solve_all(model, &xs), expected);
    }

    #[test]
    fn distance_matches_brute_force(doms in domains(2), d in 0i32..=3) {
        let mut model = Model::new();
        let xs = common::vars(&mut model, &doms);
        model.distance(xs[0], xs[1], d).unwrap();
        let expected: Vec<Vec<i32>> = assignments(&doms).into_iter()
            .filter(|v| (i64::from(v[0]) - i64::from(v[1])).abs() == i64::from(d)).collect();
        prop_assert_eq!(solve_all(model, &xs), expected);
    }
}
