//! All variable domains, flat in one buffer, and the trail that undoes changes.
//!
//! A domain takes one of four shapes, chosen when the variable is made by what its
//! values cost to hold, so that memory and time go by the number of values, never by
//! the span between them alone:
//!
//! - *small*: values at most 64 apart, as one 64-bit word whose bit `i` stands for
//!   `base + i`; its size, minimum and maximum are single instructions on the word.
//! - *bitset*: values at most [`BITSET_SPAN`] apart, as several such words, behind
//!   two cells: the size, and the lowest and highest present bit.
//! - *table*: values spread wider and sparse, as a sorted table of the initial values
//!   (never changed, shared by clones) and a bitset over its positions, behind the
//!   same two cells; bit `i` stands for `table[i]`.
//! - *interval*: values spread wider and (nearly) contiguous, `min..=max` with holes:
//!   only the two cells of holes and bounds, plus one word per 64-value chunk that has
//!   a hole, made at its first hole (`interval.rs`).
//!
//! Every cell lives in one `Vec<u64>`. Before a cell changes for the first time
//! since the latest choice point, its old value is pushed on the trail; undoing to a
//! choice point pops and restores. Memory therefore grows with the changes made, not
//! with the number of variables times the search depth. A small store (a 9x9
//! Sudoku's is 100 cells) copies all its cells at each choice point instead: one
//! `memcpy` there and one back costs less than testing and trailing each change.
//!
//! This file makes the domains and reads them; `prune.rs` narrows them, `trail.rs`
//! keeps the marks and undoes to them, `event.rs` holds what a change did, and
//! `interval.rs` and `values.rs` the interval shape and the value iterators.

mod event;
mod interval;
mod prune;
#[cfg(test)]
mod tests;
mod trail;
mod values;

use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) use event::{Event, Wipeout, small_event};
pub(crate) use prune::mask_values;
pub use trail::COPY_CELLS;
pub(crate) use values::Values;

/// The widest span kept as a bitset (512 bytes): wider domains become a table or an
/// interval.
pub(crate) const BITSET_SPAN: u64 = 4096;

/// `Layout::extra` of a bitset domain: no table.
const NO_TABLE: u32 = u32::MAX;

/// Where one variable's cells sit in the flat buffer, and its shape: `words` is 1
/// for a small domain, 0 for an interval, more for a bitset or a table.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// The value that bit 0 (or, for an interval, index 0) stands for.
    base: i32,
    /// Index of the first domain word (of an interval: just after its two cells).
    start: u32,
    /// Number of domain words; more than one means the two meta cells precede `start`.
    words: u32,
    /// A table's index in `Store::tables`, an interval's in `Store::chunks`;
    /// [`NO_TABLE`] for a bitset.
    extra: u32,
}

impl Layout {
    fn is_small(self) -> bool {
        self.words == 1
    }
    fn is_interval(self) -> bool {
        self.words == 0
    }
    /// The size of a bitset or table domain; of an interval, the number of holes
    /// between its bounds (so that a moved bound that skips no hole changes only the
    /// bounds cell).
    fn size_cell(self) -> usize {
        self.start as usize - 2
    }
    fn bounds_cell(self) -> usize {
        self.start as usize - 1
    }
    fn word_range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.words) as usize
    }
    /// Bit index of `value` in a small or bitset domain, if it lies inside the words.
    fn offset_of(self, value: i32) -> Option<usize> {
        let index = i64::from(value) - i64::from(self.base);
        (0..i64::from(self.words) * 64)
            .contains(&index)
            .then_some(index as usize)
    }
}

fn pack_bounds(lo: usize, hi: usize) -> u64 {
    ((lo as u64) << 32) | hi as u64
}

fn unpack_bounds(cell: u64) -> (usize, usize) {
    ((cell >> 32) as usize, (cell & 0xffff_ffff) as usize)
}

/// A cell's word before a change, on the trail: 12 bytes, packed (a wide model
/// may keep millions of them). A run of cells saved with the same word takes two:
/// its first cell and the word, then its length marked [`RUN`] and its spacing
/// (see `Store::mark`).
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
struct Saved {
    cell: u32,
    word: u64,
}

/// The bit of [`Saved::cell`] that marks the top entry of a run: cells are indices
/// into a buffer of 8-byte words, never this many.
const RUN: u32 = 1 << 31;

/// Domains of all variables plus the trail.
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    layouts: Vec<Layout>,
    cells: Vec<u64>,
    /// `stamps[c] == epoch` means cell `c` is already saved since the latest mark.
    stamps: Vec<u32>,
    epoch: u32,
    trail: Vec<Saved>,
    /// The trail's length at the latest mark: the entries above it are this level's.
    level_start: usize,
    /// Whether a mark has made runs on the trail since the search began: undoing
    /// looks for them only then.
    has_runs: bool,
    /// Whether marks copy all the cells instead of trailing changes: set by
    /// [`Store::reset_from`] for stores of at most [`COPY_CELLS`] cells and no interval.
    copying: bool,
    /// With `copying`, the cells at each mark, one after the other.
    copies: Vec<u64>,
    /// How many of the first variables have one-word domains kept in the cells of the
    /// same index: their words are `cells[..small_run]`.
    small_run: usize,
    /// The value tables of table domains.
    tables: Vec<Arc<[i32]>>,
    /// For each interval domain, the cell of each chunk that has a word: chunk `c`
    /// holds the indices `64 c..64 c + 64`. Never shrinks: a chunk's word, once made,
    /// is restored with the other cells.
    chunks: Vec<BTreeMap<u32, u32>>,
}

impl Store {
    /// Adds a variable whose domain is the given values, sorted and deduplicated,
    /// and not empty, in the shape that holds them cheapest. Returns its index.
    pub(crate) fn add_var(&mut self, sorted_values: &[i32]) -> u32 {
        let (min, max) = (sorted_values[0], sorted_values[sorted_values.len() - 1]);
        let span = (i64::from(max) - i64::from(min) + 1) as u64;
        let len = sorted_values.len() as u64;
        if span <= BITSET_SPAN {
            return self.add_bitset(sorted_values, span as usize);
        }
        if span - len <= len / 8 {
            return self.add_interval_with_holes(sorted_values, span);
        }
        self.add_table(sorted_values)
    }

    /// Adds a variable over `min..=max`, which is not empty. Returns its index.
    pub(crate) fn add_range(&mut self, min: i32, max: i32) -> u32 {
        let span = (i64::from(max) - i64::from(min) + 1) as u64;
        if span <= BITSET_SPAN {
            let values: Vec<i32> = (min..=max).collect();
            return self.add_bitset(&values, span as usize);
        }
        self.add_interval(min, span)
    }

    fn add_bitset(&mut self, sorted_values: &[i32], span: usize) -> u32 {
        let base = sorted_values[0];
        let words = span.div_ceil(64);
        if words > 1 {
            self.cells.push(sorted_values.len() as u64);
            self.cells.push(pack_bounds(0, span - 1));
        }
        let start = self.cells.len();
        self.cells.resize(start + words, 0);
        for &value in sorted_values {
            let index = (i64::from(value) - i64::from(base)) as usize;
            self.cells[start + index / 64] |= 1 << (index % 64);
        }
        self.push_layout(Layout {
            base,
            start: start as u32,
            words: words as u32,
            extra: NO_TABLE,
        })
    }

    /// A table domain: at least two words, so that it never passes for a small one.
    fn add_table(&mut self, sorted_values: &[i32]) -> u32 {
        let len = sorted_values.len();
        let words = len.div_ceil(64).max(2);
        self.cells.push(len as u64);
        self.cells.push(pack_bounds(0, len - 1));
        let start = self.cells.len();
        self.cells.resize(start + words, 0);
        for index in 0..len {
            self.cells[start + index / 64] |= 1 << (index % 64);
        }
        self.tables.push(Arc::from(sorted_values));
        self.push_layout(Layout {
            base: sorted_values[0],
            start: start as u32,
            words: words as u32,
            extra: self.tables.len() as u32 - 1,
        })
    }

    fn push_layout(&mut self, layout: Layout) -> u32 {
        self.stamps.resize(self.cells.len(), 0);
        let var = self.layouts.len();
        if layout.is_small() && layout.start as usize == var && self.small_run == var {
            self.small_run += 1;
        }
        self.layouts.push(layout);
        var as u32
    }

    /// Adds words of propagator state, not part of any domain. Returns the index of
    /// the first.
    pub(crate) fn add_state(&mut self, words: &[u64]) -> usize {
        let start = self.cells.len();
        self.cells.extend_from_slice(words);
        self.stamps.resize(self.cells.len(), 0);
        start
    }

    pub(crate) fn var_count(&self) -> usize {
        self.layouts.len()
    }

    /// The number of values, `u32::MAX` for the one domain with more (all of `i32`).
    #[inline]
    pub(crate) fn size(&self, var: u32) -> u32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            self.cells[l.start as usize].count_ones()
        } else {
            self.large_size(l).min(u64::from(u32::MAX)) as u32
        }
    }

    /// The number of values of a domain kept behind two cells: the size cell, or an
    /// interval's width less its holes.
    #[inline(always)]
    fn large_size(&self, l: Layout) -> u64 {
        if l.is_interval() {
            self.interval_size(l)
        } else {
            self.cells[l.size_cell()]
        }
    }

    #[inline(never)]
    fn interval_size(&self, l: Layout) -> u64 {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        (hi - lo + 1) as u64 - self.cells[l.size_cell()]
    }

    /// The size of a domain with two values or more; `None` for a fixed variable. Two
    /// values are told without counting, since first fail looks for them.
    #[inline]
    pub(crate) fn unfixed_size(&self, var: u32) -> Option<u32> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let word = self.cells[l.start as usize];
            let rest = word & word.wrapping_sub(1);
            match rest & rest.wrapping_sub(1) {
                _ if rest == 0 => None,
                0 => Some(2),
                _ => Some(word.count_ones()),
            }
        } else {
            let size = self.large_size(l);
            (size > 1).then_some(size.min(u64::from(u32::MAX)) as u32)
        }
    }

    /// The domain words of the first variables, as many as have one-word domains kept
    /// in order from the first cell (often all of them): for scans of every domain.
    pub(crate) fn leading_small_words(&self) -> &[u64] {
        &self.cells[..self.small_run]
    }

    /// The smallest value of each of the first `n` variables (at most all of them),
    /// read straight from the words of the leading small domains: for a model whose
    /// first variables are its main ones, such as a solution's cells.
    pub(crate) fn leading_mins(&self, n: usize) -> impl Iterator<Item = i32> + '_ {
        let small = n.min(self.small_run);
        let words = (self.layouts[..small].iter().zip(&self.cells[..small]))
            .map(|(l, &word)| l.base + word.trailing_zeros() as i32);
        words.chain((small..n).map(|var| self.min(var as u32)))
    }

    /// A measure of the first `n` variables' domains (at most all of them) that
    /// shrinks whenever one of them does: the sum of the words of the leading small
    /// domains (removing a value clears a bit, so the word becomes a smaller number)
    /// and of the other domains' sizes. Cheaper than their sizes.
    pub(crate) fn leading_measure(&self, n: usize) -> u64 {
        let small = n.min(self.small_run);
        let words = self.cells[..small]
            .iter()
            .fold(0u64, |sum, &word| sum.wrapping_add(word));
        let others = small..n.min(self.var_count());
        others.fold(words, |sum, var| {
            sum.wrapping_add(u64::from(self.size(var as u32)))
        })
    }

    #[inline]
    pub(crate) fn is_fixed(&self, var: u32) -> bool {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let word = self.cells[l.start as usize];
            word & word.wrapping_sub(1) == 0
        } else {
            self.large_size(l) == 1
        }
    }

    /// The smallest value: O(1) for every shape, read from the word of a small domain,
    /// else from the cached bounds cell.
    #[inline]
    pub(crate) fn min(&self, var: u32) -> i32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            l.base + self.cells[l.start as usize].trailing_zeros() as i32
        } else {
            self.bound_value(l, (self.cells[l.bounds_cell()] >> 32) as usize)
        }
    }

    /// The largest value, as [`Store::min`].
    #[inline]
    pub(crate) fn max(&self, var: u32) -> i32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            l.base + (63 - self.cells[l.start as usize].leading_zeros()) as i32
        } else {
            self.bound_value(l, (self.cells[l.bounds_cell()] & 0xffff_ffff) as usize)
        }
    }

    /// The smallest and the largest value, with one look-up of the layout: what
    /// [`Store::min`] and [`Store::max`] give. Always inline: it is a few
    /// instructions, read in the propagators' inner loops.
    #[inline(always)]
    pub(crate) fn bounds(&self, var: u32) -> (i32, i32) {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let word = self.cells[l.start as usize];
            (
                l.base + word.trailing_zeros() as i32,
                l.base + (63 - word.leading_zeros()) as i32,
            )
        } else {
            let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
            (self.bound_value(l, lo), self.bound_value(l, hi))
        }
    }

    /// The value of bound index `index` of a large domain: an offset from the base but
    /// in a table domain, whose look-up stays out of line.
    #[inline(always)]
    fn bound_value(&self, l: Layout, index: usize) -> i32 {
        if l.extra == NO_TABLE || l.is_interval() {
            (i64::from(l.base) + index as i64) as i32
        } else {
            self.table_value(l, index)
        }
    }

    #[cold]
    #[inline(never)]
    fn table_value(&self, l: Layout, index: usize) -> i32 {
        self.tables[l.extra as usize][index]
    }

    /// The table of a table domain.
    fn table(&self, l: Layout) -> Option<&[i32]> {
        (l.words > 1 && l.extra != NO_TABLE).then(|| &*self.tables[l.extra as usize])
    }

    /// Bit index of `value` in a small, bitset or table domain, if it has one.
    fn index_of(&self, l: Layout, value: i32) -> Option<usize> {
        match self.table(l) {
            Some(table) => table.binary_search(&value).ok(),
            None => l.offset_of(value),
        }
    }

    #[inline]
    pub(crate) fn contains(&self, var: u32, value: i32) -> bool {
        let l = self.layouts[var as usize];
        if l.is_small() {
            return l
                .offset_of(value)
                .is_some_and(|i| self.cells[l.start as usize] & (1 << i) != 0);
        }
        self.large_contains(var, value)
    }

    #[inline(never)]
    fn large_contains(&self, var: u32, value: i32) -> bool {
        let l = self.layouts[var as usize];
        if l.is_interval() {
            return self.interval_contains(l, value);
        }
        match self.index_of(l, value) {
            Some(i) => self.cells[l.start as usize + i / 64] & (1 << (i % 64)) != 0,
            None => false,
        }
    }

    /// The values of the domain in ascending order.
    #[inline]
    pub(crate) fn values(&self, var: u32) -> Values<'_> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let start = l.start as usize;
            return Values::offsets(&self.cells[start..start + 1], l.base, 0);
        }
        self.large_values(l)
    }

    /// [`Store::values`] of a domain of more than one word.
    #[inline(never)]
    fn large_values(&self, l: Layout) -> Values<'_> {
        if l.is_interval() {
            return Values::Interval(self.interval_values(l, i64::MIN));
        }
        let words = &self.cells[l.word_range()];
        match self.table(l) {
            None => Values::offsets(words, l.base, 0),
            Some(table) => Values::table(words, table, 0),
        }
    }

    /// The values of the domain from `from` on, ascending.
    pub(crate) fn values_from(&self, var: u32, from: i32) -> Values<'_> {
        let l = self.layouts[var as usize];
        if l.is_interval() {
            return Values::Interval(self.interval_values(l, i64::from(from)));
        }
        let words = &self.cells[l.word_range()];
        match self.table(l) {
            None => {
                let index = (i64::from(from) - i64::from(l.base)).clamp(0, words.len() as i64 * 64);
                Values::offsets(words, l.base, index as usize)
            }
            Some(table) => Values::table(words, table, table.partition_point(|&v| v < from)),
        }
    }

    /// The largest value at most `at`, if any: a bit scan down from `at`, or for an
    /// interval a scan of its chunks with holes, never a walk over its values.
    pub(crate) fn value_at_most(&self, var: u32, at: i32) -> Option<i32> {
        let l = self.layouts[var as usize];
        if l.is_interval() {
            return self.interval_at_most(l, at);
        }
        let words = &self.cells[l.word_range()];
        let (index, value_of): (i64, &dyn Fn(usize) -> i32) = match self.table(l) {
            Some(table) => (table.partition_point(|&v| v <= at) as i64 - 1, &|i| {
                table[i]
            }),
            None => (i64::from(at) - i64::from(l.base), &|i| {
                (i64::from(l.base) + i as i64) as i32
            }),
        };
        let index = usize::try_from(index.min(words.len() as i64 * 64 - 1)).ok()?;
        let mut w = index / 64;
        let mut word = words[w] & (!0u64 >> (63 - index % 64));
        while word == 0 {
            w = w.checked_sub(1)?;
            word = words[w];
        }
        Some(value_of(w * 64 + 63 - word.leading_zeros() as usize))
    }

    /// Whether the domain is an interval (with holes), whose values are read one by
    /// one only where few can stay: its size goes by its span.
    pub(crate) fn is_interval(&self, var: u32) -> bool {
        self.layouts[var as usize].is_interval()
    }

    /// The one domain word of a variable whose domain fits in 64 values, and the
    /// value its bit 0 stands for; `None` for larger domains.
    pub(crate) fn small_word(&self, var: u32) -> Option<(u64, i32)> {
        let l = self.layouts[var as usize];
        l.is_small().then(|| (self.cells[l.start as usize], l.base))
    }

    /// Where a variable whose domain fits in 64 values keeps its one domain word in
    /// [`Store::words`]; `None` for larger domains. It never moves.
    pub(crate) fn small_cell(&self, var: u32) -> Option<usize> {
        let l = self.layouts[var as usize];
        l.is_small().then_some(l.start as usize)
    }

    /// Where a bitset domain (several words, no table) keeps its bounds, and the
    /// value its bit 0 stands for: the word there packs the lowest and the highest
    /// present bit index (`pack_bounds`), for a propagator that reads bounds in its
    /// inner loop. `None` for other shapes. It never moves.
    pub(crate) fn bitset_bounds_cell(&self, var: u32) -> Option<(usize, i32)> {
        let l = self.layouts[var as usize];
        (l.words > 1 && l.extra == NO_TABLE).then(|| (l.bounds_cell(), l.base))
    }

    /// Every domain word, for propagators that read many small domains at once
    /// (see [`Store::small_cell`]).
    pub(crate) fn words(&self) -> &[u64] {
        &self.cells
    }
}
