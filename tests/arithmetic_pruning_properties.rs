//! The arithmetic constraints one at a time: `*`, `/`, `%`, `|x|` and `x^k` over wide
//! domains (one word and more, past the 4096 values of the domain reasoning)
//! against enumeration; `|x + a| == z + b` domain consistent at the root and
//! `|x - y + a| == z` against brute force, near zero and at the edges; `|x|`, `|x - y|`
//! and `x^k` whose results leave `i32`; then exact root pruning and the overflow
//! errors on fixed examples. `arithmetic_properties.rs` mixes them in random models.

mod common;

use std::collections::BTreeSet;

use alldiff::{Model, ModelError, Solver, VarId};
use common::constants::{clamp_i32, offset_in};
use common::domain;
use common::edges::{domain_in, view_fits};
use proptest::prelude::*;

/// One arithmetic constraint over wide domains: `x` spans 70 to 5000 values (beyond
/// both the 64 of a one-word domain and the 4096 of the domain reasoning).
#[derive(Clone, Debug)]
struct Wide {
    operation: usize,
    x: (i32, i32),
    y: Vec<i32>,
    z: (i32, i32),
}

impl Wide {
    const NAMES: [&'static str; 6] = ["times", "div", "modulo", "abs", "square", "cube"];

    /// `op(x, y)`, if defined (`y` is ignored by the unary ones).
    fn apply(&self, x: i64, y: i64) -> Option<i64> {
        match self.operation {
            0 => Some(x * y),
            1 => x.checked_div(y),
            2 => x.checked_rem(y),
            3 => Some(x.abs()),
            4 => Some(x * x),
            _ => Some(x * x * x),
        }
    }

    fn is_binary(&self) -> bool {
        self.operation < 3
    }
}

/// `x` spans 0 (a random share of its values are negative); `z` is a random part of
/// the results' hull, so that most cases have solutions.
fn wide() -> impl Strategy<Value = Wide> {
    (
        0..6usize,
        prop_oneof![6 => 70..=200i64, 1 => 4100..=4500i64],
        0..=100i64,
        domain(-5..=5, 4),
        (0..=100i64, 0..=100i64),
    )
        .prop_map(|(operation, width, negative, y, (start, length))| {
            // Cubes stay within the 32-bit range.
            let width = if operation == 5 {
                width.min(1000)
            } else {
                width
            };
            let x_lo = -width * negative / 100;
            let case = Wide {
                operation,
                x: (x_lo as i32, (x_lo + width) as i32),
                y,
                z: (0, 0),
            };
            let results: Vec<i64> = (case.x.0..=case.x.1)
                .flat_map(|x| case.y.iter().map(move |&y| (x, y)))
                .filter_map(|(x, y)| case.apply(x.into(), y.into()))
                .collect();
            let lo = results.iter().copied().min().unwrap_or(0);
            let hi = results.iter().copied().max().unwrap_or(0);
            let z_lo = lo + (hi - lo) * start / 100;
            let z_hi = (z_lo + (hi - z_lo) * length / 100).min(z_lo + 20_000);
            Wide {
                z: (z_lo as i32, z_hi as i32),
                ..case
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn wide_domains_match_enumeration(case in wide()) {
        let mut expected = BTreeSet::new();
        let ys: Vec<i32> = if case.is_binary() { case.y.clone() } else { vec![0] };
        for x in case.x.0..=case.x.1 {
            for &y in &ys {
                let z = case.apply(x.into(), y.into());
                if let Some(z) = z.filter(|z| (case.z.0.into()..=case.z.1.into()).contains(z)) {
                    expected.insert((x, y, z as i32));
                }
            }
        }
        let mut model = Model::new();
        let x = model.int_var(case.x.0, case.x.1).unwrap();
        let y = model.var_from_values(ys.iter().copied()).unwrap();
        let z = model.int_var(case.z.0, case.z.1).unwrap();
        match case.operation {
            0 => model.times(x, y, z),
            1 => model.div(x, y, z),
            2 => model.modulo(x, y, z),
            3 => model.abs(x, z),
            4 => model.power(x, 2, z),
            _ => model.power(x, 3, z),
        }.unwrap();
        let mut solver = Solver::new(model);
        let found: BTreeSet<(i32, i32, i32)> =
            solver.solutions().map(Result::unwrap).map(|s| (s[x], s[y], s[z])).collect();
        prop_assert_eq!(found, expected, "{}", Wide::NAMES[case.operation]);
    }
}

/// A domain: any subset of a window placed anywhere around 0, mostly within 64 values
/// (one word, so that the mirror of one domain lands partly, wholly or not at all in
/// another's window), sometimes wider.
fn near_zero_domain() -> impl Strategy<Value = Vec<i32>> {
    (-90..=40i32, prop_oneof![4 => 1..=64i32, 1 => 65..=100i32])
        .prop_flat_map(|(lo, width)| domain(lo..=lo + width - 1, width as usize))
}

/// `x`'s domain and offset and `z`'s for `|x + a| == z + b`, or `|x + a - y| == z`
/// (`b` unused): near zero, or at the edges with a few of `z`'s values made to match
/// some `x`.
fn abs_case() -> impl Strategy<Value = (Vec<i32>, i32, Vec<i32>, i32)> {
    let near = (near_zero_domain(), -3..=3i32, near_zero_domain(), -3..=3i32);
    let edge = common::edges::window()
        .prop_flat_map(|w| {
            (
                domain_in(w, 20),
                offset_in(w),
                domain_in(w, 10),
                offset_in(w),
                prop::collection::vec(any::<prop::sample::Index>(), 0..=4),
            )
        })
        .prop_map(|(xs, a, mut zs, b, picks)| {
            for pick in picks {
                let x = i128::from(*pick.get(&xs)) + i128::from(a);
                zs.push(clamp_i32(x.abs() - i128::from(b)));
            }
            zs.sort_unstable();
            zs.dedup();
            (xs, a, zs, b)
        })
        .boxed();
    // Boxed: the value trees are large enough to overflow a test thread's stack in a
    // debug build.
    prop_oneof![near, edge].boxed()
}

/// `domain + offset`'s lowest and highest value, in `i128`.
fn shifted_hull(domain: &[i32], offset: i32) -> (i128, i128) {
    let shift = |v: i32| i128::from(v) + i128::from(offset);
    (shift(domain[0]), shift(domain[domain.len() - 1]))
}

/// The values each variable takes in some solution, or `None` without any.
fn projections(solutions: &[Vec<i32>], vars: usize) -> Option<Vec<Vec<i32>>> {
    (!solutions.is_empty()).then(|| {
        (0..vars)
            .map(|i| {
                let set: BTreeSet<i32> = solutions.iter().map(|s| s[i]).collect();
                set.into_iter().collect()
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Root propagation of `|x + a| == z + b` alone keeps exactly the values some
    /// solution uses (domain consistency), and fails exactly when there is none. It may
    /// be refused only for a view that leaves `i32` or an `x + a` that reaches
    /// `i32::MIN`.
    #[test]
    fn abs_is_domain_consistent((xs, a, zs, b) in abs_case()) {
        let solutions: Vec<Vec<i32>> = xs
            .iter()
            .flat_map(|&x| zs.iter().map(move |&z| vec![x, z]))
            .filter(|s| {
                (i128::from(s[0]) + i128::from(a)).abs() == i128::from(s[1]) + i128::from(b)
            })
            .collect();
        let mut model = Model::new();
        let x = model.var_from_values(xs.iter().copied()).unwrap();
        let z = model.var_from_values(zs.iter().copied()).unwrap();
        let may_refuse = !view_fits(&xs, a)
            || !view_fits(&zs, b)
            || shifted_hull(&xs, a).0 == i128::from(i32::MIN);
        match model.abs(x + a, z + b) {
            Err(error) => prop_assert!(may_refuse, "refused: {}", error),
            Ok(_) => {
                prop_assert_eq!(Solver::new(model).root_domains(), projections(&solutions, 2));
            }
        }
    }

    /// `|x - y + a| == z` alone: exactly the solutions enumeration finds; root
    /// propagation keeps exactly the values some solution uses when the three domains
    /// are one word each (domain consistency), and at least those otherwise. It may
    /// be refused only for a view that leaves `i32` or a difference that can.
    #[test]
    fn abs_difference_matches_enumeration(
        ((xs, a, zs, _), ys) in abs_case().prop_flat_map(|case| {
            let near = case.0.clone();
            (Just(case), prop_oneof![near_zero_domain(), Just(near)])
        })
    ) {
        let zset: BTreeSet<i128> = zs.iter().map(|&z| i128::from(z)).collect();
        let solutions: Vec<Vec<i32>> = xs
            .iter()
            .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
            .map(|(x, y)| (x, y, (i128::from(x) - i128::from(y) + i128::from(a)).abs()))
            .filter(|(_, _, z)| zset.contains(z))
            .map(|(x, y, z)| vec![x, y, z as i32])
            .collect();
        let (x_lo, x_hi) = shifted_hull(&xs, a);
        let (y_lo, y_hi) = shifted_hull(&ys, 0);
        let beyond = |v: i128| v.abs() > i128::from(i32::MAX);
        let may_refuse = !view_fits(&xs, a) || beyond(x_hi - y_lo) || beyond(x_lo - y_hi);
        let post = |model: &mut Model, vars: &[VarId]| {
            model.abs_difference(vars[0] + a, vars[1], vars[2])
        };
        let mut model = Model::new();
        let vars = common::vars(&mut model, &[xs.clone(), ys.clone(), zs.clone()]);
        if let Err(error) = post(&mut model, &vars) {
            prop_assert!(may_refuse, "refused: {}", error);
            return Ok(());
        }
        let build = || {
            let mut model = Model::new();
            let vars = common::vars(&mut model, &[xs.clone(), ys.clone(), zs.clone()]);
            post(&mut model, &vars).unwrap();
            (model, vars)
        };
        let one_word = [&xs, &ys, &zs]
            .iter()
            .all(|d| i64::from(d[d.len() - 1]) - i64::from(d[0]) < 64);
        if one_word {
            let (model, _) = build();
            prop_assert_eq!(Solver::new(model).root_domains(), projections(&solutions, 3));
        }
        let expected: BTreeSet<Vec<i32>> = solutions.into_iter().collect();
        let configs = common::all_configs();
        common::check_solutions(&expected, &[configs[0].clone(), configs[8].clone()], &build)?;
    }
}

/// `|x|`, `|x - y|` or `x^k` over domains at the edges (`i32::MIN` and `i32::MAX`
/// included), with `z` holding some of the results, each clamped to `i32`: `|i32::MIN|`
/// clamps to `i32::MAX`, which it is not.
#[derive(Clone, Debug)]
struct EdgeUnary {
    /// 0: `|x|`, 1: `|x - y|`, 2 to 4: `x^1` to `x^3` (`y` then has one value).
    operation: usize,
    domains: [Vec<i32>; 3],
}

impl EdgeUnary {
    /// The result, computed in `i64`, of the values of `x` and `y`.
    fn apply(&self, x: i64, y: i64) -> i64 {
        match self.operation {
            0 => x.abs(),
            1 => (x - y).abs(),
            k => x.saturating_pow(k as u32 - 1),
        }
    }
}

fn edge_unary() -> impl Strategy<Value = EdgeUnary> {
    common::edges::window().prop_flat_map(|w| {
        let domain = move || common::edges::domain_in(w, 5);
        (0..5usize, domain(), domain(), domain(), any::<u64>()).prop_map(
            |(operation, xs, mut ys, extra, keep)| {
                // `y` is in no unary constraint: one value, so that it adds no solutions.
                if operation != 1 {
                    ys.truncate(1);
                }
                let mut case = EdgeUnary {
                    operation,
                    domains: [xs, ys, Vec::new()],
                };
                let [xs, ys, _] = &case.domains;
                let clamp = |v: i64| v.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
                let results = xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y)));
                let mut zs: Vec<i32> = results
                    .map(|(x, y)| clamp(case.apply(x.into(), y.into())))
                    .enumerate()
                    .filter(|&(i, _)| keep >> (i % 64) & 1 == 1)
                    .map(|(_, z)| z)
                    .chain(extra)
                    .collect();
                zs.sort_unstable();
                zs.dedup();
                case.domains[2] = zs;
                case
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Results beyond `i32` are no solutions, and every other one is found: the
    /// solver agrees with enumeration in `i64` (`|i32::MIN|` was once refused).
    #[test]
    fn unary_results_at_the_ends_of_i32_match_brute_force(case in edge_unary()) {
        let expected = common::brute_force(&case.domains, &|v| {
            case.apply(v[0].into(), v[1].into()) == i64::from(v[2])
        });
        let build = || {
            let mut model = Model::new();
            let vars = common::vars(&mut model, &case.domains);
            let (x, y, z) = (vars[0], vars[1], vars[2]);
            match case.operation {
                0 => model.abs(x, z),
                1 => model.abs_difference(x, y, z),
                k => model.power(x, k as u32 - 1, z),
            }
            .unwrap();
            (model, vars)
        };
        let configs = common::all_configs();
        common::check_solutions(&expected, &[configs[0].clone(), configs[8].clone()], &build)?;
    }
}

/// Exact root domains after posting `build`'s constraints on fresh variables.
fn root(build: impl FnOnce(&mut Model) -> Result<(), ModelError>) -> Vec<Vec<i32>> {
    let mut model = Model::new();
    build(&mut model).unwrap();
    Solver::new(model)
        .root_domains()
        .expect("consistent at the root")
}

fn range(lo: i32, hi: i32) -> Vec<i32> {
    (lo..=hi).collect()
}

#[test]
fn times_prunes_over_the_signs() {
    let domains = root(|m| {
        let x = m.int_var(-4, 4)?;
        let y = m.int_var(-3, -1)?;
        let z = m.int_var(5, 12)?;
        m.times(x, y, z).map(drop)
    });
    // z > 0 and y < 0: x < 0; then |x| >= 2 and |y| >= 2 for a product of 5 or more.
    assert_eq!(domains, vec![range(-4, -2), range(-3, -2), range(5, 12)]);
    // A fixed factor makes the other and the product domain consistent.
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let three = m.var_from_values([-3])?;
        let z = m.var_from_values([-9, -7, 0, 4, 6, 12])?;
        m.times(x, three, z).map(drop)
    });
    assert_eq!(
        domains,
        vec![vec![-4, -2, 0, 3], vec![-3], vec![-9, 0, 6, 12]]
    );
}

#[test]
fn div_removes_zero_and_bounds_the_divisor() {
    let domains = root(|m| {
        let x = m.int_var(-10, 10)?;
        let y = m.int_var(-3, 3)?;
        let z = m.var_from_values([4])?;
        m.div(x, y, z).map(drop)
    });
    // x / y == 4 needs |y| <= 2 and 4|y| <= |x| <= 4|y| + |y| - 1.
    assert_eq!(domains, vec![range(-9, 9), vec![-2, -1, 1, 2], vec![4]]);
    let domains = root(|m| {
        let x = m.int_var(-7, 7)?;
        let y = m.var_from_values([-2])?;
        let z = m.int_var(-10, 10)?;
        m.div(x, y, z).map(drop)
    });
    assert_eq!(domains, vec![range(-7, 7), vec![-2], range(-3, 3)]);
    // A divisor that can only be 0: no solution.
    let mut model = Model::new();
    let x = model.int_var(0, 3).unwrap();
    let zero = model.var_from_values([0]).unwrap();
    model.div(x, zero, x).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn modulo_follows_the_sign_of_the_dividend() {
    let domains = root(|m| {
        let x = m.int_var(-10, 10)?;
        let y = m.int_var(-4, 4)?;
        let z = m.int_var(2, 3)?;
        m.modulo(x, y, z).map(drop)
    });
    // z > 0: x > 0 with x >= z, and |y| > z.
    assert_eq!(domains, vec![range(2, 10), vec![-4, -3, 3, 4], range(2, 3)]);
    let domains = root(|m| {
        let x = m.int_var(-7, -1)?;
        let y = m.var_from_values([-3, 3])?;
        let z = m.int_var(-9, 9)?;
        m.modulo(x, y, z).map(drop)
    });
    assert_eq!(domains, vec![range(-7, -1), vec![-3, 3], range(-2, 0)]);
}

#[test]
fn abs_and_power_keep_the_supported_values() {
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let z = m.int_var(-30, 10)?;
        m.power(x, 3, z).map(drop)
    });
    assert_eq!(domains, vec![range(-3, 2), vec![-27, -8, -1, 0, 1, 8]]);
    let domains = root(|m| {
        let x = m.int_var(-3, 3)?;
        let z = m.int_var(-5, 5)?;
        m.power(x, 0, z).map(drop)
    });
    assert_eq!(domains, vec![range(-3, 3), vec![1]]);
    // Bounds first, then the domain reasoning once x is small.
    let domains = root(|m| {
        let x = m.int_var(-3000, 3000)?;
        let z = m.int_var(-50, 17)?;
        m.power(x, 2, z).map(drop)
    });
    assert_eq!(domains, vec![range(-4, 4), vec![0, 1, 4, 9, 16]]);
    // Too wide for the domain reasoning: bounds, with the middle cut for an even power.
    let domains = root(|m| {
        let x = m.int_var(-5000, 5000)?;
        let z = m.int_var(100, 16_000_000)?;
        m.power(x, 2, z).map(drop)
    });
    let mut x = range(-4000, -10);
    x.extend(range(10, 4000));
    assert_eq!(domains[0], x);
    assert_eq!(domains[1].len(), 16_000_000 - 99);
    let domains = root(|m| {
        let x = m.int_var(-3000, 3000)?;
        let z = m.int_var(5, 17)?;
        m.abs(x + 1, z).map(drop)
    });
    let mut x = range(-18, -6);
    x.extend(range(4, 16));
    assert_eq!(domains, vec![x, range(5, 17)]);
    // Two one-word domains: x keeps the values whose magnitude z has, z the magnitudes.
    let domains = root(|m| {
        let x = m.var_from_values([-9, -4, -1, 0, 2, 5, 7])?;
        let z = m.var_from_values([-2, 0, 1, 3, 4, 5, 8])?;
        m.abs(x, z).map(drop)
    });
    assert_eq!(domains, vec![vec![-4, -1, 0, 5], vec![0, 1, 4, 5]]);
    // Through views, and a z window that starts far below 0: |x - 3| == z + 40.
    let domains = root(|m| {
        let x = m.var_from_values([-2, 1, 3, 6, 9])?;
        let z = m.var_from_values([-60, -40, -38, -35, -34])?;
        m.abs(x - 3, z + 40).map(drop)
    });
    assert_eq!(domains, vec![vec![-2, 1, 3, 9], vec![-40, -38, -35, -34]]);
    // No magnitude in common: a failure at the root.
    let mut model = Model::new();
    let x = model.var_from_values([-3, 2, 5]).unwrap();
    let z = model.var_from_values([1, 4, 6]).unwrap();
    model.abs(x, z).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn abs_difference_prunes_both_ways() {
    // One word each: x keeps b ± w, y its partners, z the distances left.
    let domains = root(|m| {
        let x = m.int_var(0, 9)?;
        let y = m.var_from_values([2, 7])?;
        let z = m.var_from_values([-1, 4, 6, 9])?;
        m.abs_difference(x, y, z).map(drop)
    });
    assert_eq!(domains, vec![vec![1, 3, 6, 8], vec![2, 7], vec![4, 6]]);
    // Wide: bounds, x out of the gap of the values closer than 15 to every y.
    let domains = root(|m| {
        let x = m.int_var(0, 1000)?;
        let y = m.int_var(990, 1000)?;
        let z = m.int_var(15, 20)?;
        m.abs_difference(x, y, z).map(drop)
    });
    assert_eq!(
        domains,
        vec![range(970, 985), range(990, 1000), range(15, 20)]
    );
    // Wide with y fixed: domain consistent between x and z.
    let domains = root(|m| {
        let x = m.int_var(0, 1000)?;
        let y = m.var_from_values([500])?;
        let z = m.var_from_values([3, 250, 600])?;
        m.abs_difference(x, y, z).map(drop)
    });
    assert_eq!(
        domains,
        vec![vec![250, 497, 503, 750], vec![500], vec![3, 250]]
    );
    // No distance possible: a failure at the root.
    let mut model = Model::new();
    let x = model.var_from_values([0, 2]).unwrap();
    let y = model.var_from_values([1, 3]).unwrap();
    let z = model.var_from_values([0, 2]).unwrap();
    model.abs_difference(x, y, z).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn orderings_minimum_and_maximum_prune_bounds() {
    let domains = root(|m| {
        let x = m.int_var(-5, 5)?;
        let y = m.int_var(-5, 5)?;
        let minus_two = m.var_from_values([-2])?;
        m.greater(x, y + 3)?; // x > y + 3
        m.greater_eq(y, minus_two).map(drop)
    });
    assert_eq!(domains, vec![range(2, 5), range(-2, 1), vec![-2]]);
    let domains = root(|m| {
        let a = m.int_var(-9, 9)?;
        let b = m.int_var(3, 9)?;
        let low = m.int_var(-20, 5)?;
        let minus_four = m.var_from_values([-4])?;
        m.minimum([a, b], low)?;
        m.less(low, minus_four).map(drop)
    });
    // Only a can be the minimum below -4.
    assert_eq!(domains[0], range(-9, -5));
    assert_eq!(domains[2], range(-9, -5));
}

#[test]
fn element_var_removes_unreachable_indices_on_bounds() {
    // Wide domains: bounds reasoning only.
    let domains = root(|m| {
        let xs = [
            m.int_var(0, 100)?,
            m.int_var(200, 300)?,
            m.int_var(150, 250)?,
        ];
        let i = m.int_var(-3, 7)?;
        let v = m.int_var(120, 190)?;
        m.element_var(xs, i, v).map(drop)
    });
    assert_eq!(domains[3], vec![2]);
    assert_eq!(domains[2], range(150, 190));
    assert_eq!(domains[4], range(150, 190));
}

/// Products and quotients whose range leaves `i32` are posted, computed in `i64` and
/// clamped to `z`'s domain (a FlatZinc `int_times` over wide domains must not fail).
#[test]
fn products_and_quotients_beyond_i32_are_clamped() {
    let count = |build: &dyn Fn(&mut Model) -> Result<alldiff::ConstraintId, ModelError>| {
        let mut model = Model::new();
        build(&mut model).expect("posted");
        Solver::new(model).count(None).solutions
    };
    // x² reaches 2.5e9: only 0, -1, -2, -3 square into 0..=10.
    assert_eq!(
        count(&|m| {
            let x = m.int_var(-50_000, 0)?;
            let z = m.int_var(0, 10)?;
            m.times(x, x, z)
        }),
        4
    );
    // x * y == 7 over ±100,000: (1, 7), (7, 1), (-1, -7), (-7, -1).
    assert_eq!(
        count(&|m| {
            let x = m.int_var(-100_000, 100_000)?;
            let y = m.int_var(-100_000, 100_000)?;
            let z = m.int_var(7, 7)?;
            m.times(x, y, z)
        }),
        4
    );
    // Near i32::MIN: y in 1..=3 keeps all 4 values of x; y = -1 keeps the 3 whose
    // negation fits (not i32::MIN itself); y = 0 none.
    assert_eq!(
        count(&|m| {
            let x = m.int_var(i32::MIN, i32::MIN + 3)?;
            let y = m.int_var(-1, 3)?;
            let z = m.int_var(i32::MIN, i32::MAX)?;
            m.div(x, y, z)
        }),
        15
    );
}

/// `|x|`, `|x - y|` and `x^k` whose results leave `i32` are accepted, as products
/// are: the values of `x` that give them are no solutions (`|i32::MIN|` was refused).
#[test]
fn results_beyond_i32_leave_the_operands() {
    // The values of the first variable in the solutions.
    let solve = |build: &dyn Fn(&mut Model) -> Result<Vec<VarId>, ModelError>| {
        let mut model = Model::new();
        let x = build(&mut model).expect("posted")[0];
        let mut values: Vec<i32> = Solver::new(model)
            .solutions()
            .map(Result::unwrap)
            .map(|s| s[x])
            .collect();
        values.sort_unstable();
        values.dedup();
        values
    };
    // |x| in MAX - 1..=MAX: over MIN..=MIN + 3 and over the whole range, MIN goes.
    let abs = |lo: i32, hi: i32| {
        move |m: &mut Model| {
            let x = m.int_var(lo, hi)?;
            let z = m.int_var(i32::MAX - 1, i32::MAX)?;
            m.abs(x, z)?;
            Ok(vec![x])
        }
    };
    assert_eq!(
        solve(&abs(i32::MIN, i32::MIN + 3)),
        [i32::MIN + 1, i32::MIN + 2]
    );
    let ends = [i32::MIN + 1, i32::MIN + 2, i32::MAX - 1, i32::MAX];
    assert_eq!(solve(&abs(i32::MIN, i32::MAX)), ends);
    let ends_small = |m: &mut Model| {
        let x = m.var_from_values([i32::MIN, i32::MIN + 1, 5])?;
        let z = m.int_var(i32::MAX - 3, i32::MAX)?;
        m.abs(x, z)?;
        Ok(vec![x])
    };
    assert_eq!(solve(&ends_small), [i32::MIN + 1]);
    // |x - y| up to i32::MAX + 6: x = MAX with y = -1 is out.
    let abs_difference = |m: &mut Model| {
        let x = m.int_var(i32::MAX - 1, i32::MAX)?;
        let y = m.int_var(-1, 5)?;
        let z = m.int_var(i32::MAX - 1, i32::MAX)?;
        m.abs_difference(x, y, z)?;
        Ok(vec![x])
    };
    // (MAX - 1, -1) -> MAX, (MAX - 1, 0) -> MAX - 1, (MAX, 0) -> MAX, (MAX, 1) -> MAX - 1.
    assert_eq!(solve(&abs_difference), [i32::MAX - 1, i32::MAX]);
    // x^31 over -2..=2: 2^31 is out, (-2)^31 = MIN stays.
    let power = |m: &mut Model| {
        let x = m.int_var(-2, 2)?;
        let z = m.int_var(i32::MIN, i32::MAX)?;
        m.power(x, 31, z)?;
        Ok(vec![x])
    };
    assert_eq!(solve(&power), [-2, -1, 0, 1]);
    // x^100 over 0..=10: only 0 and 1.
    let high = |m: &mut Model| {
        let x = m.int_var(0, 10)?;
        let z = m.int_var(0, 100)?;
        m.power(x, 100, z)?;
        Ok(vec![x])
    };
    assert_eq!(solve(&high), [0, 1]);
}

#[test]
fn values_at_the_ends_of_the_range_stay_exact() {
    let mut model = Model::new();
    let x = model.var_from_values([i32::MIN, i32::MIN + 1]).unwrap();
    let minus_one = model.var_from_values([-1]).unwrap();
    let z = model.int_var(-1, 1).unwrap();
    model.modulo(x, minus_one, z).unwrap();
    let top = model.int_var(i32::MAX - 2, i32::MAX).unwrap();
    let next = model.int_var(i32::MAX - 2, i32::MAX).unwrap();
    model.less(top, next).unwrap();
    model.maximum([top, next, x], next).unwrap();
    let mut solver = Solver::new(model);
    assert_eq!(solver.count(None).solutions, 2 * 3);
    let domains = solver.root_domains().unwrap();
    assert_eq!(domains[2], vec![0]);
    assert_eq!(domains[3], vec![i32::MAX - 2, i32::MAX - 1]);

    let mut model = Model::new();
    let low = model.var_from_values([i32::MIN]).unwrap();
    let y = model.int_var(i32::MIN, i32::MIN + 5).unwrap();
    model.less(y, low).unwrap();
    assert_eq!(Solver::new(model).root_domains(), None);
}

#[test]
fn empty_operand_lists_and_foreign_variables_are_refused() {
    let mut model = Model::new();
    let z = model.int_var(0, 3).unwrap();
    let none: [VarId; 0] = [];
    assert!(matches!(
        model.maximum(none, z),
        Err(ModelError::NoVariables {
            constraint: "maximum"
        })
    ));
    let stranger = Model::new().int_var(0, 3).unwrap();
    assert!(matches!(
        model.times(z, stranger, z),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert_eq!(model.constraint_count(), 0);
}
