//! The sets the kernel works with: sets of variables ([`VarSet`]), the bits of a domain
//! word, one word per value ([`PerValue`]) or per variable ([`PerVar`]), and each
//! variable's groups ([`GroupSets`]).

/// A set of variables (local indices), `W` words wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct VarSet<const W: usize>(pub(super) [u64; W]);

impl<const W: usize> VarSet<W> {
    pub(super) const EMPTY: VarSet<W> = VarSet([0; W]);

    pub(super) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(super) fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    pub(super) fn contains(self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Removes and returns the lowest variable.
    pub(super) fn pop_first(&mut self) -> Option<usize> {
        for (w, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(w * 64 + bit);
            }
        }
        None
    }

    pub(super) fn and(self, other: VarSet<W>) -> VarSet<W> {
        VarSet(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    pub(super) fn or(self, other: VarSet<W>) -> VarSet<W> {
        VarSet(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }

    pub(super) fn minus(self, other: VarSet<W>) -> VarSet<W> {
        VarSet(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    pub(super) fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub(super) fn intersects(self, other: VarSet<W>) -> bool {
        !self.and(other).is_empty()
    }

    /// Whether it holds two variables or more.
    pub(super) fn has_two(self) -> bool {
        let mut seen = false;
        for &word in &self.0 {
            if word != 0 {
                if seen || word & (word - 1) != 0 {
                    return true;
                }
                seen = true;
            }
        }
        false
    }

    pub(super) fn ones(self) -> Ones<W> {
        Ones {
            words: self.0,
            index: 0,
            current: self.0[0],
        }
    }
}

/// The variables of a [`VarSet`], lowest first.
pub(super) struct Ones<const W: usize> {
    words: [u64; W],
    /// The word being read, and what is left of it.
    index: usize,
    current: u64,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            self.index += 1;
            self.current = *self.words.get(self.index)?;
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.index * 64 + bit)
    }
}

/// The bits of a domain word, lowest first.
pub(super) fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

/// A domain word that holds one value (or none).
pub(super) fn is_single(word: u64) -> bool {
    word & word.wrapping_sub(1) == 0
}

/// One `T` per value of the window, indexed by a value's bit without a bounds check.
#[derive(Clone, Copy, Debug)]
pub(super) struct PerValue<T>(pub(super) [T; 64]);

impl<T> std::ops::Index<usize> for PerValue<T> {
    type Output = T;
    fn index(&self, v: usize) -> &T {
        &self.0[v % 64]
    }
}

impl<T> std::ops::IndexMut<usize> for PerValue<T> {
    fn index_mut(&mut self, v: usize) -> &mut T {
        &mut self.0[v % 64]
    }
}

/// One word per variable of a `W`-word set, indexed by a variable's bit without a
/// bounds check (the hot loops index by bits of [`VarSet`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct PerVar<const W: usize>(pub(super) [[u64; 64]; W]);

impl<const W: usize> PerVar<W> {
    pub(super) const ZERO: PerVar<W> = PerVar([[0; 64]; W]);
}

// Indexed flat by `i % (64 * W)`: one mask, `W` being a power of two (see
// `SizedKernel`), where a word and a bit took a shift and two masks.
impl<const W: usize> std::ops::Index<usize> for PerVar<W> {
    type Output = u64;
    fn index(&self, i: usize) -> &u64 {
        invariant!(i < 64 * W);
        &self.0.as_flattened()[i % (64 * W)]
    }
}

impl<const W: usize> std::ops::IndexMut<usize> for PerVar<W> {
    fn index_mut(&mut self, i: usize) -> &mut u64 {
        invariant!(i < 64 * W);
        &mut self.0.as_flattened_mut()[i % (64 * W)]
    }
}

/// One set of variables per variable of a `W`-word set, indexed like [`PerVar`]
/// (flat, without a bounds check); boxed, as it takes `64 * W` sets whatever the
/// number of variables.
#[derive(Clone, Debug)]
pub(super) struct PerVarSets<const W: usize>(Box<[[VarSet<W>; 64]; W]>);

impl<const W: usize> PerVarSets<W> {
    pub(super) fn new() -> PerVarSets<W> {
        // Built on the heap: on the stack, the widest would take 2 MiB.
        let sets = vec![[VarSet::EMPTY; 64]; W].into_boxed_slice();
        PerVarSets(sets.try_into().expect("W blocks"))
    }
}

impl<const W: usize> std::ops::Index<usize> for PerVarSets<W> {
    type Output = VarSet<W>;
    fn index(&self, i: usize) -> &VarSet<W> {
        invariant!(i < 64 * W);
        &self.0.as_flattened()[i % (64 * W)]
    }
}

impl<const W: usize> std::ops::IndexMut<usize> for PerVarSets<W> {
    fn index_mut(&mut self, i: usize) -> &mut VarSet<W> {
        invariant!(i < 64 * W);
        &mut self.0.as_flattened_mut()[i % (64 * W)]
    }
}

/// Each variable's groups: the first 64, then the next 64, and so on.
#[derive(Clone, Debug)]
pub(super) struct GroupSets<const W: usize> {
    pub(super) first: PerVar<W>,
    pub(super) more: Vec<PerVar<W>>,
}

impl<const W: usize> GroupSets<W> {
    /// Word `w` of each variable's groups.
    pub(super) fn word(&self, w: usize) -> &PerVar<W> {
        match w {
            0 => &self.first,
            w => &self.more[w - 1],
        }
    }
}
