//! Which variable to branch on next, and which value to try first.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::store::Store;

/// Which unfixed variable the next decision is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VariableOrder {
    /// The first unfixed variable in creation order.
    InputOrder,
    /// The unfixed variable with the fewest values left ("first fail"); ties go to
    /// the earliest created.
    #[default]
    SmallestDomain,
    /// The smallest ratio of domain size to weighted degree (dom/wdeg): every failure
    /// adds one to the weight of the constraint that found it, and a variable's
    /// degree is the sum of the weights of the constraints on it.
    DomOverWeightedDegree,
}

/// Which value of the chosen variable the decision tries first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// The smallest value.
    #[default]
    Ascending,
    /// The largest value.
    Descending,
    /// A value drawn uniformly at random from a generator seeded with this number;
    /// the same seed gives the same search.
    Random(u64),
}

/// How to search: the variable and value choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Variable choice.
    pub variable_order: VariableOrder,
    /// Value choice.
    pub value_order: ValueOrder,
}

impl SearchConfig {
    /// The default: smallest domain first, ascending values.
    pub fn new() -> SearchConfig {
        SearchConfig::default()
    }

    /// Sets the variable order.
    pub fn variable_order(mut self, order: VariableOrder) -> SearchConfig {
        self.variable_order = order;
        self
    }

    /// Sets the value order.
    pub fn value_order(mut self, order: ValueOrder) -> SearchConfig {
        self.value_order = order;
        self
    }
}

/// The choice state: weighted degrees and the random generator.
#[derive(Clone, Debug)]
pub(crate) struct Brancher {
    config: SearchConfig,
    /// For each constraint, its variables (a failure raises their weighted degrees).
    vars_of: Vec<Vec<u32>>,
    /// Each variable's number of constraints: its weighted degree before any failure.
    degrees: Vec<u64>,
    /// Each variable's weighted degree: the sum of its constraints' weights, each
    /// weight being 1 plus the failures that constraint found. Kept up to date at each
    /// failure, so choosing a variable reads one number per variable.
    weighted_degrees: Vec<u64>,
    rng: Xoshiro256PlusPlus,
}

impl Brancher {
    /// `vars_of` lists each constraint's variables, of `var_count` in all.
    pub(crate) fn new(config: SearchConfig, vars_of: Vec<Vec<u32>>, var_count: usize) -> Brancher {
        let mut degrees = vec![0; var_count];
        for &var in vars_of.iter().flatten() {
            degrees[var as usize] += 1;
        }
        Brancher {
            config,
            vars_of,
            weighted_degrees: degrees.clone(),
            degrees,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }

    pub(crate) fn config(&self) -> SearchConfig {
        self.config
    }

    pub(crate) fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Called when a new search starts: same seed, same search.
    pub(crate) fn restart(&mut self) {
        if let ValueOrder::Random(seed) = self.config.value_order {
            self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        }
        // Only dom/wdeg reads (and raises) the weights.
        if self.config.variable_order == VariableOrder::DomOverWeightedDegree {
            self.weighted_degrees.copy_from_slice(&self.degrees);
        }
    }

    /// `constraint` found a failure: its weight, and so its variables' weighted
    /// degrees, grow by one.
    pub(crate) fn failed(&mut self, constraint: u32) {
        // Only dom/wdeg reads the weights; `restart` resets them for every search.
        if self.config.variable_order != VariableOrder::DomOverWeightedDegree {
            return;
        }
        for &var in &self.vars_of[constraint as usize] {
            self.weighted_degrees[var as usize] += 1;
        }
    }

    /// The next variable to branch on, or `None` when all are fixed.
    pub(crate) fn select_var(&self, store: &Store) -> Option<u32> {
        let unfixed = (0..store.var_count() as u32).filter(|&v| !store.is_fixed(v));
        match self.config.variable_order {
            VariableOrder::InputOrder => unfixed.into_iter().next(),
            VariableOrder::SmallestDomain => {
                let leading = store.leading_small_words();
                let mut best = match smallest_in_words(leading) {
                    Some((var, 2)) => return Some(var),
                    found => found,
                };
                for var in leading.len() as u32..store.var_count() as u32 {
                    let Some(size) = store.unfixed_size(var) else {
                        continue;
                    };
                    if best.is_none_or(|(_, s)| size < s) {
                        best = Some((var, size));
                        if size == 2 {
                            break;
                        }
                    }
                }
                best.map(|(var, _)| var)
            }
            VariableOrder::DomOverWeightedDegree => {
                let mut best: Option<(u32, u64, u64)> = None;
                for var in unfixed {
                    let size = u64::from(store.size(var));
                    let weight = self.weighted_degrees[var as usize].max(1);
                    // size / weight < best_size / best_weight, without division.
                    if best.is_none_or(|(_, s, w)| size * w < s * weight) {
                        best = Some((var, size, weight));
                    }
                }
                best.map(|(var, _, _)| var)
            }
        }
    }

    /// The value to try first for `var`.
    pub(crate) fn select_value(&mut self, store: &Store, var: u32) -> i32 {
        match self.config.value_order {
            ValueOrder::Ascending => store.min(var),
            ValueOrder::Descending => store.max(var),
            ValueOrder::Random(_) => {
                let pick = self.rng.random_range(0..store.size(var)) as usize;
                store
                    .values(var)
                    .nth(pick)
                    .expect("pick within domain size")
            }
        }
    }
}

/// The first of the unfixed variables with the fewest values among one-word domains
/// (variable `i` has `words[i]`), and its size. Sizes up to three are told without
/// counting: first fail mostly finds those.
fn smallest_in_words(words: &[u64]) -> Option<(u32, u32)> {
    let mut best: Option<(u32, u32)> = None;
    for (var, &word) in words.iter().enumerate() {
        let one_less = word & word.wrapping_sub(1);
        if one_less == 0 {
            continue;
        }
        let two_less = one_less & one_less.wrapping_sub(1);
        if two_less == 0 {
            return Some((var as u32, 2));
        }
        let size = match best {
            Some((_, 3)) => continue,
            _ if two_less & two_less.wrapping_sub(1) == 0 => 3,
            _ => word.count_ones(),
        };
        if best.is_none_or(|(_, s)| size < s) {
            best = Some((var as u32, size));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::smallest_in_words;

    #[test]
    fn smallest_in_words_takes_the_first_of_the_fewest_values() {
        // Fixed variables are skipped; two values win at once, ahead of any later one.
        assert_eq!(
            smallest_in_words(&[0b1, 0b1111, 0b111, 0b11, 0b101]),
            Some((3, 2))
        );
        // Three values, told without counting: the first of them.
        assert_eq!(
            smallest_in_words(&[0b1111_1111, 0b1_0101, 0b111, 0b1000]),
            Some((1, 3))
        );
        // Counted sizes: the fewest, the first on a tie.
        assert_eq!(
            smallest_in_words(&[0b1_1111, 0b1111_0000, 0b1111, 0b10_1111]),
            Some((1, 4))
        );
        assert_eq!(smallest_in_words(&[0b1, 0b100, 0]), None);
        assert_eq!(smallest_in_words(&[]), None);
    }
}
