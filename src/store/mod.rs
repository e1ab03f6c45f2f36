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
//!   only the two cells of size and bounds, plus one word per 64-value chunk that has
//!   a hole, made at its first hole (`interval.rs`).
//!
//! Every cell lives in one `Vec<u64>`. Before a cell changes for the first time
//! since the latest choice point, its old value is pushed on the trail; undoing to a
//! choice point pops and restores. Memory therefore grows with the changes made, not
//! with the number of variables times the search depth. A small store (a 9x9
//! Sudoku's is 100 cells) copies all its cells at each choice point instead: one
//! `memcpy` there and one back costs less than testing and trailing each change.

mod interval;
mod values;

use std::collections::BTreeMap;
use std::ops::BitOr;
use std::sync::Arc;

pub(crate) use values::Values;

/// What a domain change did, as a set of flags; propagators wake on these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Event(u8);

impl Event {
    /// Nothing changed.
    pub(crate) const NONE: Event = Event(0);
    /// Some value was removed.
    pub(crate) const DOMAIN: Event = Event(1);
    /// The minimum or maximum moved (always with `DOMAIN`).
    pub(crate) const BOUNDS: Event = Event(2);
    /// The domain became a single value (always with `DOMAIN`).
    pub(crate) const FIXED: Event = Event(4);

    /// Whether the two sets of flags share one.
    pub(crate) fn intersects(self, other: Event) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no flag is set.
    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for Event {
    type Output = Event;
    fn bitor(self, rhs: Event) -> Event {
        Event(self.0 | rhs.0)
    }
}

/// A domain became empty: the current state has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout;

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

/// The most cells a store may have for its marks to copy them all (see the module
/// docs). Measured: a 9x9 Sudoku model (100 cells) solves its multi-solution puzzles
/// 3-4% faster with copies, a 16x16 one (321 cells) as fast or up to 5% slower.
const COPY_CELLS: usize = 128;

/// Domains of all variables plus the trail.
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    layouts: Vec<Layout>,
    cells: Vec<u64>,
    /// `stamps[c] == epoch` means cell `c` is already saved since the latest mark.
    stamps: Vec<u32>,
    epoch: u32,
    trail: Vec<(u32, u64)>,
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

    /// Returns to the domains and state words of `other`, the store this one was
    /// cloned from (so the variables and their layouts are the same): only the cells
    /// are copied, and the trail starts empty. Changes are not trailed until the next
    /// [`Store::mark`]: there is nothing below it to undo to.
    pub(crate) fn reset_from(&mut self, other: &Store) {
        let n = other.cells.len();
        debug_assert!(self.cells.len() >= n, "a clone of `other`");
        self.cells[..n].copy_from_slice(&other.cells);
        // The chunk words this store made since the clone: no hole in them yet.
        self.cells[n..].fill(!0);
        self.trail.clear();
        self.copying = self.cells.len() <= COPY_CELLS && self.chunks.is_empty();
        self.copies.clear();
        self.next_epoch();
        // Every cell counts as saved in this epoch.
        self.stamps.fill(self.epoch);
    }

    pub(crate) fn var_count(&self) -> usize {
        self.layouts.len()
    }

    /// The number of values, `u32::MAX` for the one domain with more (all of `i32`).
    pub(crate) fn size(&self, var: u32) -> u32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            self.cells[l.start as usize].count_ones()
        } else {
            self.cells[l.size_cell()].min(u64::from(u32::MAX)) as u32
        }
    }

    /// The size of a domain with two values or more; `None` for a fixed variable. Two
    /// values are told without counting, since first fail looks for them.
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
            let size = self.cells[l.size_cell()];
            (size > 1).then_some(size.min(u64::from(u32::MAX)) as u32)
        }
    }

    /// The domain words of the first variables, as many as have one-word domains kept
    /// in order from the first cell (often all of them): for scans of every domain.
    pub(crate) fn leading_small_words(&self) -> &[u64] {
        &self.cells[..self.small_run]
    }

    pub(crate) fn is_fixed(&self, var: u32) -> bool {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let word = self.cells[l.start as usize];
            word & word.wrapping_sub(1) == 0
        } else {
            self.cells[l.size_cell()] == 1
        }
    }

    #[inline]
    pub(crate) fn min(&self, var: u32) -> i32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            l.base + self.cells[l.start as usize].trailing_zeros() as i32
        } else {
            self.large_bound(var, false)
        }
    }

    #[inline]
    pub(crate) fn max(&self, var: u32) -> i32 {
        let l = self.layouts[var as usize];
        if l.is_small() {
            l.base + (63 - self.cells[l.start as usize].leading_zeros()) as i32
        } else {
            self.large_bound(var, true)
        }
    }

    /// The minimum or maximum of a domain with more than one word: kept out of line,
    /// so that the small case inlines as before.
    #[inline(never)]
    fn large_bound(&self, var: u32, max: bool) -> i32 {
        let l = self.layouts[var as usize];
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        self.value_at(l, if max { hi } else { lo })
    }

    /// The table of a table domain.
    fn table(&self, l: Layout) -> Option<&[i32]> {
        (l.words > 1 && l.extra != NO_TABLE).then(|| &*self.tables[l.extra as usize])
    }

    /// The value that bit (or interval index) `index` of a large domain stands for.
    fn value_at(&self, l: Layout, index: usize) -> i32 {
        match self.table(l) {
            Some(table) => table[index],
            None => (i64::from(l.base) + index as i64) as i32,
        }
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
    pub(crate) fn values(&self, var: u32) -> Values<'_> {
        let l = self.layouts[var as usize];
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

    /// Every domain word, for propagators that read many small domains at once
    /// (see [`Store::small_cell`]).
    pub(crate) fn words(&self) -> &[u64] {
        &self.cells
    }

    /// Every word, to change without saving, when no change needs saving: the marks
    /// copy all the cells. `None` when the store trails.
    pub(crate) fn unsaved_words(&mut self) -> Option<&mut [u64]> {
        self.copying.then_some(&mut self.cells)
    }

    /// Sets a word (say, of propagator state), saving the old one for backtracking.
    #[inline(always)]
    pub(crate) fn set_word(&mut self, cell: usize, word: u64) {
        if self.cells[cell] != word {
            self.save(cell);
            self.cells[cell] = word;
        }
    }

    #[inline(always)]
    fn save(&mut self, cell: usize) {
        if self.stamps[cell] != self.epoch {
            self.stamps[cell] = self.epoch;
            self.trail.push((cell as u32, self.cells[cell]));
        }
    }

    /// Keeps only the values of a small domain whose bits are in `keep`.
    #[inline(always)]
    pub(crate) fn retain_small(&mut self, var: u32, keep: u64) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        debug_assert!(l.is_small());
        let cell = l.start as usize;
        let old = self.cells[cell];
        let new = old & keep;
        if new == old {
            return Ok(Event::NONE);
        }
        if new == 0 {
            return Err(Wipeout);
        }
        self.save(cell);
        self.cells[cell] = new;
        Ok(small_event(old, new))
    }

    /// Removes one value.
    pub(crate) fn remove(&mut self, var: u32, value: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            return match l.offset_of(value) {
                Some(index) => self.retain_small(var, !(1 << index)),
                None => Ok(Event::NONE),
            };
        }
        if l.is_interval() {
            return self.interval_remove(l, value);
        }
        let Some(index) = self.index_of(l, value) else {
            return Ok(Event::NONE);
        };
        let cell = l.start as usize + index / 64;
        let bit = 1u64 << (index % 64);
        if self.cells[cell] & bit == 0 {
            return Ok(Event::NONE);
        }
        let size = self.cells[l.size_cell()];
        if size == 1 {
            return Err(Wipeout);
        }
        self.save(cell);
        self.cells[cell] &= !bit;
        self.save(l.size_cell());
        self.cells[l.size_cell()] = size - 1;
        let (mut lo, mut hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        let mut event = Event::DOMAIN;
        if index == lo {
            lo = self.next_set(l, lo);
            event = event | Event::BOUNDS;
        } else if index == hi {
            hi = self.prev_set(l, hi);
            event = event | Event::BOUNDS;
        }
        if event.intersects(Event::BOUNDS) {
            self.save(l.bounds_cell());
            self.cells[l.bounds_cell()] = pack_bounds(lo, hi);
        }
        if size == 2 {
            event = event | Event::FIXED;
        }
        Ok(event)
    }

    /// Lowest present bit index at or after `from` (the domain is not empty there).
    fn next_set(&self, l: Layout, from: usize) -> usize {
        let words = &self.cells[l.word_range()];
        let mut w = from / 64;
        let mut word = words[w] & (!0u64 << (from % 64));
        while word == 0 {
            w += 1;
            word = words[w];
        }
        w * 64 + word.trailing_zeros() as usize
    }

    /// Highest present bit index at or before `from`.
    fn prev_set(&self, l: Layout, from: usize) -> usize {
        let words = &self.cells[l.word_range()];
        let mut w = from / 64;
        let mut word = words[w] & (!0u64 >> (63 - from % 64));
        while word == 0 {
            w -= 1;
            word = words[w];
        }
        w * 64 + 63 - word.leading_zeros() as usize
    }

    /// Removes every value below `min`.
    pub(crate) fn set_min(&mut self, var: u32, min: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        let index = i64::from(min) - i64::from(l.base);
        if l.is_interval() {
            return self.interval_retain(l, index, i64::MAX);
        }
        let index = match self.table(l) {
            Some(table) => table.partition_point(|&v| v < min) as i64,
            None => index,
        };
        if index <= 0 {
            return Ok(Event::NONE);
        }
        let index = index.min(i64::from(l.words) * 64) as usize;
        if l.is_small() {
            let keep = if index >= 64 { 0 } else { !0u64 << index };
            return self.retain_small(var, keep);
        }
        self.retain_range(l, index, l.words as usize * 64)
    }

    /// Removes every value above `max`.
    pub(crate) fn set_max(&mut self, var: u32, max: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        let index = i64::from(max) - i64::from(l.base);
        if l.is_interval() {
            return self.interval_retain(l, i64::MIN, index);
        }
        let end = match self.table(l) {
            Some(table) => table.partition_point(|&v| v <= max) as i64,
            None => index + 1,
        };
        if end <= 0 {
            return Err(Wipeout);
        }
        let end = end.min(i64::from(l.words) * 64) as usize;
        if l.is_small() {
            let keep = if end >= 64 { !0 } else { (1u64 << end) - 1 };
            return self.retain_small(var, keep);
        }
        self.retain_range(l, 0, end)
    }

    /// Makes the domain the single value `value`.
    #[inline(always)]
    pub(crate) fn fix(&mut self, var: u32, value: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            return match l.offset_of(value) {
                Some(index) => self.retain_small(var, 1 << index),
                None => Err(Wipeout),
            };
        }
        self.fix_large(l, value)
    }

    fn fix_large(&mut self, l: Layout, value: i32) -> Result<Event, Wipeout> {
        if l.is_interval() {
            let index = i64::from(value) - i64::from(l.base);
            return self.interval_retain(l, index, index);
        }
        let Some(index) = self.index_of(l, value) else {
            return Err(Wipeout);
        };
        self.retain_range(l, index, index + 1)
    }

    /// Keeps the bit indices in `from..to` of a bitset or table domain.
    fn retain_range(&mut self, l: Layout, from: usize, to: usize) -> Result<Event, Wipeout> {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        let (new_lo, new_hi) = (lo.max(from), hi.min(to.saturating_sub(1)));
        if from <= lo && to > hi {
            return Ok(Event::NONE);
        }
        if new_lo > new_hi || to == 0 {
            return Err(Wipeout);
        }
        let mask = |i: usize| {
            let word_lo = i * 64;
            let mut keep = !0u64;
            if from > word_lo {
                keep &= if from - word_lo >= 64 {
                    0
                } else {
                    !0u64 << (from - word_lo)
                };
            }
            if to < word_lo + 64 {
                keep &= if to <= word_lo {
                    0
                } else {
                    (1u64 << (to - word_lo)) - 1
                };
            }
            keep
        };
        let words = lo / 64..=hi / 64;
        let start = l.start as usize;
        if words.clone().all(|i| self.cells[start + i] & mask(i) == 0) {
            return Err(Wipeout);
        }
        let mut removed = 0u64;
        for i in words {
            let keep = mask(i);
            let gone = self.cells[start + i] & !keep;
            if gone != 0 {
                removed += u64::from(gone.count_ones());
                self.save(start + i);
                self.cells[start + i] &= keep;
            }
        }
        let size = self.cells[l.size_cell()];
        self.save(l.size_cell());
        self.cells[l.size_cell()] = size - removed;
        let lo = self.next_set(l, new_lo);
        let hi = self.prev_set(l, new_hi);
        self.save(l.bounds_cell());
        self.cells[l.bounds_cell()] = pack_bounds(lo, hi);
        let mut event = Event::DOMAIN | Event::BOUNDS;
        if size - removed == 1 {
            event = event | Event::FIXED;
        }
        Ok(event)
    }

    /// A choice point: undoing to it restores the domains of now.
    pub(crate) fn mark(&mut self) -> usize {
        if self.copying {
            let mark = self.copies.len() / self.cells.len().max(1);
            self.copies.extend_from_slice(&self.cells);
            return mark;
        }
        self.next_epoch();
        self.trail.len()
    }

    /// Restores every cell changed since `mark`, which stays a choice point to undo to.
    pub(crate) fn undo_to(&mut self, mark: usize) {
        if self.copying {
            let n = self.cells.len();
            self.copies.truncate((mark + 1) * n);
            self.cells.copy_from_slice(&self.copies[mark * n..]);
            return;
        }
        while self.trail.len() > mark {
            let (cell, old) = self.trail.pop().expect("trail longer than mark");
            self.cells[cell as usize] = old;
        }
        self.next_epoch();
    }

    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            self.stamps.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }
}

/// The event of a small domain going from `old` to `new`, a non-empty subset.
pub(crate) fn small_event(old: u64, new: u64) -> Event {
    let mut event = Event::DOMAIN;
    // `new` is a subset of `old`: the minimum went if the lowest bit did, and the
    // maximum went exactly when what went outweighs what is left.
    let gone = old & !new;
    if gone & old & old.wrapping_neg() != 0 || gone > new {
        event = event | Event::BOUNDS;
    }
    if new & (new - 1) == 0 {
        event = event | Event::FIXED;
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with(values: &[i32]) -> (Store, u32) {
        let mut store = Store::default();
        let var = store.add_var(values);
        (store, var)
    }

    #[test]
    fn small_domain_reports_size_bounds_and_values() {
        let (store, x) = store_with(&[-3, 0, 5]);
        assert_eq!(store.size(x), 3);
        assert_eq!((store.min(x), store.max(x)), (-3, 5));
        assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-3, 0, 5]);
        assert!(store.contains(x, 0) && !store.contains(x, 1) && !store.contains(x, 100));
    }

    #[test]
    fn large_domain_keeps_bounds_through_removals() {
        let values: Vec<i32> = (-5000..5000).collect();
        let (mut store, x) = store_with(&values);
        assert_eq!(store.size(x), 10_000);
        assert_eq!(store.remove(x, -5000), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!(store.min(x), -4999);
        assert_eq!(store.remove(x, 17), Ok(Event::DOMAIN));
        assert_eq!(store.remove(x, 17), Ok(Event::NONE));
        assert_eq!(
            store.set_max(x, 100).map(|e| e.intersects(Event::BOUNDS)),
            Ok(true)
        );
        assert_eq!(store.max(x), 100);
        assert_eq!(store.size(x), 100 + 4999 + 1 - 1);
        assert_eq!(store.set_min(x, 99), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!(store.values(x).collect::<Vec<_>>(), vec![99, 100]);
        assert_eq!(
            store.remove(x, 100),
            Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
        );
        assert_eq!(store.remove(x, 99), Err(Wipeout));
    }

    #[test]
    fn undo_restores_every_change_since_the_mark() {
        for copying in [false, true] {
            let values: Vec<i32> = (0..200).collect();
            let mut store = Store::default();
            let small = store.add_var(&[1, 2, 3]);
            let large = store.add_var(&values);
            store.copying = copying;
            let before = store.clone();
            let mark = store.mark();
            store.remove(small, 2).unwrap();
            store.fix(large, 150).unwrap();
            let inner = store.mark();
            store.remove(small, 1).unwrap();
            store.undo_to(inner);
            assert_eq!(store.values(small).collect::<Vec<_>>(), vec![1, 3]);
            // A mark undone to stays one: the search takes the other branch there
            // and may undo it again.
            store.remove(small, 3).unwrap();
            store.undo_to(inner);
            assert_eq!(store.values(small).collect::<Vec<_>>(), vec![1, 3]);
            store.remove(small, 3).unwrap();
            store.undo_to(mark);
            assert_eq!(store.cells, before.cells, "copying: {copying}");
            assert!(store.trail.is_empty());
        }
    }

    #[test]
    fn trail_saves_a_cell_once_per_level() {
        let (mut store, x) = store_with(&[1, 2, 3, 4, 5]);
        store.mark();
        store.remove(x, 1).unwrap();
        store.remove(x, 2).unwrap();
        store.remove(x, 3).unwrap();
        assert_eq!(store.trail.len(), 1);
    }

    #[test]
    fn a_small_store_copies_at_marks_and_a_large_one_trails() {
        let mut small = Store::default();
        for _ in 0..COPY_CELLS {
            small.add_var(&[1, 2]);
        }
        let mut large = small.clone();
        large.add_var(&[1, 2]);
        for (store, copying) in [(&mut small, true), (&mut large, false)] {
            let fresh = store.clone();
            store.reset_from(&fresh);
            store.mark();
            store.remove(1, 1).unwrap();
            assert_eq!(store.trail.len(), usize::from(!copying));
            assert_eq!(store.copies.len(), usize::from(copying) * store.cells.len());
        }
    }

    #[test]
    fn words_written_unsaved_come_back_at_undo_only_when_copying() {
        let mut small = Store::default();
        small.add_var(&[1, 2, 3]);
        let mut large = Store::default();
        for _ in 0..=COPY_CELLS {
            large.add_var(&[1, 2, 3]);
        }
        for store in [&mut small, &mut large] {
            let fresh = store.clone();
            store.reset_from(&fresh);
            let mark = store.mark();
            match store.unsaved_words() {
                Some(words) => words[0] = 0b1,
                None => {
                    assert!(
                        store.cells.len() > COPY_CELLS,
                        "only a trailing store says no"
                    );
                    continue;
                }
            }
            assert_eq!(store.size(0), 1);
            store.undo_to(mark);
            assert_eq!(store.values(0).collect::<Vec<_>>(), vec![1, 2, 3]);
        }
    }

    #[test]
    fn fixing_outside_the_domain_wipes_out() {
        let values: Vec<i32> = (0..130).step_by(2).collect();
        let (mut store, x) = store_with(&values);
        assert_eq!(store.fix(x, 3), Err(Wipeout));
        assert_eq!(store.fix(x, 1000), Err(Wipeout));
        assert_eq!(store.set_min(x, 129), Err(Wipeout));
        assert!(store.fix(x, 64).unwrap().intersects(Event::FIXED));
        assert_eq!((store.min(x), store.max(x), store.size(x)), (64, 64, 1));
    }

    #[test]
    fn shapes_go_by_the_values_not_their_span() {
        let mut store = Store::default();
        store.add_range(0, 4095);
        assert_eq!(store.cells.len(), 2 + 64, "a bitset");
        store.add_range(0, 10_000_000);
        assert_eq!(store.cells.len(), 2 + 64 + 2, "an interval: two cells");
        store.add_var(&[i32::MIN, 0, i32::MAX]);
        assert_eq!(
            store.cells.len(),
            2 + 64 + 2 + 4,
            "a table: two cells, two words"
        );
        let holes: Vec<i32> = (0..10_000).filter(|v| v % 100 != 7).collect();
        let x = store.add_var(&holes);
        assert!(store.layouts[x as usize].is_interval());
        assert_eq!(store.size(x), 9_900);
        assert!(!store.contains(x, 107) && store.contains(x, 108));
        assert_eq!(store.values(x).take(9).last(), Some(9));
    }

    #[test]
    fn an_interval_keeps_holes_bounds_and_size_and_undoes_them() {
        let mut store = Store::default();
        let x = store.add_range(i32::MIN, i32::MAX);
        let fresh = store.clone();
        store.reset_from(&fresh);
        assert_eq!(
            (store.size(x), store.min(x), store.max(x)),
            (u32::MAX, i32::MIN, i32::MAX)
        );
        let mark = store.mark();
        assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN));
        assert_eq!(store.remove(x, 0), Ok(Event::NONE));
        assert!(!store.contains(x, 0) && store.contains(x, 1) && store.contains(x, -1));
        assert_eq!(
            store.cells[store.layouts[x as usize].size_cell()],
            (1 << 32) - 1
        );
        assert_eq!(store.set_min(x, -1), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!(store.size(x), 1 << 31);
        assert_eq!(store.set_max(x, 1), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-1, 1]);
        assert_eq!(store.values_from(x, 0).collect::<Vec<_>>(), vec![1]);
        assert_eq!(store.fix(x, 0), Err(Wipeout));
        assert_eq!(
            store.remove(x, -1),
            Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
        );
        assert_eq!((store.min(x), store.max(x), store.size(x)), (1, 1, 1));
        assert_eq!(store.remove(x, 1), Err(Wipeout));
        store.undo_to(mark);
        assert_eq!(
            (store.size(x), store.min(x), store.max(x)),
            (u32::MAX, i32::MIN, i32::MAX)
        );
        assert!(store.contains(x, 0));
        // A new search starts from the model's domains, the hole's word all ones.
        store.remove(x, 5).unwrap();
        store.reset_from(&fresh);
        assert!(store.contains(x, 5));
    }

    #[test]
    fn an_interval_skips_chunks_of_holes_at_its_bounds() {
        let mut store = Store::default();
        let x = store.add_range(0, 9_999);
        for v in 1..300 {
            store.remove(x, v).unwrap();
        }
        // Removing 0 moves the minimum over five chunks of holes.
        assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!((store.min(x), store.size(x)), (300, 9_700));
        assert_eq!(store.set_max(x, 299), Err(Wipeout));
        assert_eq!(store.values(x).nth(5_000), Some(5_300));
        assert_eq!(store.values(x).nth(9_699), Some(9_999));
        assert_eq!(store.values(x).nth(9_700), None);
    }

    #[test]
    fn a_table_of_far_apart_values_prunes_by_position() {
        let (mut store, x) = store_with(&[i32::MIN, -5, 0, i32::MAX]);
        assert_eq!(
            (store.min(x), store.max(x), store.size(x)),
            (i32::MIN, i32::MAX, 4)
        );
        assert!(store.contains(x, -5) && !store.contains(x, -4));
        assert_eq!(store.set_min(x, -6), Ok(Event::DOMAIN | Event::BOUNDS));
        assert_eq!(store.remove(x, 0), Ok(Event::DOMAIN));
        assert_eq!(store.values(x).collect::<Vec<_>>(), vec![-5, i32::MAX]);
        assert_eq!(store.values_from(x, 1).collect::<Vec<_>>(), vec![i32::MAX]);
        assert_eq!(store.fix(x, 0), Err(Wipeout));
        assert_eq!(
            store.set_max(x, 0),
            Ok(Event::DOMAIN | Event::BOUNDS | Event::FIXED)
        );
        assert_eq!(store.set_max(x, -6), Err(Wipeout));
    }
}
