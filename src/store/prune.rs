//! Narrowing domains: removing values, moving bounds, fixing, of every shape.

use super::{Event, Layout, Store, Wipeout, pack_bounds, small_event, unpack_bounds};

/// Bits `pos..pos + 64` of the bits of `mask` (none outside it), as one word.
#[inline(always)]
fn mask_window(mask: &[u64], pos: i64) -> u64 {
    let word = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| mask.get(i))
            .map_or(0, |&w| w)
    };
    let (w, r) = (pos.div_euclid(64), pos.rem_euclid(64));
    if r == 0 {
        word(w)
    } else {
        (word(w) >> r) | (word(w + 1) << (64 - r))
    }
}

/// The values `from + i` for the bits `i` of `mask`, ascending, those that fit an
/// `i32`.
pub(crate) fn mask_values(from: i64, mask: &[u64]) -> impl Iterator<Item = i32> + '_ {
    let bits = mask.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            let bit = (rest != 0).then(|| rest.trailing_zeros())?;
            rest &= rest - 1;
            Some(64 * w as i64 + i64::from(bit))
        })
    });
    bits.filter_map(move |i| i32::try_from(from + i).ok())
}

impl Store {
    /// Keeps only the values of a small domain whose bits are in `keep`.
    #[inline(always)]
    pub(crate) fn retain_small(&mut self, var: u32, keep: u64) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        // Public through `Context::retain_small`: a wider domain's first word is not
        // all of it.
        assert!(l.is_small(), "retain_small of a domain that is not small");
        self.retain_word(l.start as usize, keep)
    }

    /// Keeps only the bits of `keep` in the word at `cell`, a small domain.
    #[inline(always)]
    fn retain_word(&mut self, cell: usize, keep: u64) -> Result<Event, Wipeout> {
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

    /// Removes one value: inline for a small domain, out of line for the others.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: u32, value: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            return match l.offset_of(value) {
                Some(index) => self.retain_word(l.start as usize, !(1 << index)),
                None => Ok(Event::NONE),
            };
        }
        self.remove_large(l, value)
    }

    /// [`Store::remove`] from a domain of more than one word.
    #[inline(never)]
    fn remove_large(&mut self, l: Layout, value: i32) -> Result<Event, Wipeout> {
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
        self.remove_bit(l, index)
    }

    /// Removes bit `index`, present, from a bitset or table domain. Out of line, so
    /// that a removal of a value already gone (most of them, under all-different)
    /// returns without its prologue.
    #[inline(never)]
    fn remove_bit(&mut self, l: Layout, index: usize) -> Result<Event, Wipeout> {
        let cell = l.start as usize + index / 64;
        let bit = 1u64 << (index % 64);
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

    /// Removes every value `from + i` for a bit `i` of `mask`, as many removals would
    /// (values outside the domain are passed over): one pass over the words of a small
    /// or bitset domain, so that value elimination takes the values of many fixed
    /// views from a view in one call rather than one call per value.
    pub(crate) fn remove_mask(
        &mut self,
        var: u32,
        from: i64,
        mask: &[u64],
    ) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        // Bit `k` of the domain stands for bit `k + shift` of the mask.
        let shift = i64::from(l.base) - from;
        if l.is_small() {
            return self.retain_word(l.start as usize, !mask_window(mask, shift));
        }
        if l.is_interval() || self.table(l).is_some() {
            return self.remove_each(var, from, mask);
        }
        self.remove_bits(l, shift, mask)
    }

    /// [`Store::remove_mask`] of a bitset domain: counts what goes first, so that a
    /// wipe-out leaves the domain as it was.
    #[inline(never)]
    fn remove_bits(&mut self, l: Layout, shift: i64, mask: &[u64]) -> Result<Event, Wipeout> {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        // The domain's bits that the mask covers, within the bounds.
        let first = (-shift).max(lo as i64);
        let last = (64 * mask.len() as i64 - 1 - shift).min(hi as i64);
        if first > last {
            return Ok(Event::NONE);
        }
        let (start, words) = (l.start as usize, first as usize / 64..=last as usize / 64);
        let gone =
            |cells: &[u64], w: usize| cells[start + w] & mask_window(mask, 64 * w as i64 + shift);
        let removed: u64 = (words.clone())
            .map(|w| u64::from(gone(&self.cells, w).count_ones()))
            .sum();
        let size = self.cells[l.size_cell()];
        if removed == 0 {
            return Ok(Event::NONE);
        }
        if removed == size {
            return Err(Wipeout);
        }
        for w in words {
            let bits = gone(&self.cells, w);
            if bits != 0 {
                self.save(start + w);
                self.cells[start + w] &= !bits;
            }
        }
        let (new_lo, new_hi) = (self.next_set(l, lo), self.prev_set(l, hi));
        if (new_lo, new_hi) == (lo, hi) {
            // Only values between the bounds went: both bounds are left, two values.
            self.save(l.size_cell());
            self.cells[l.size_cell()] = size - removed;
            return Ok(Event::DOMAIN);
        }
        Ok(self.moved_bound(l, removed, new_lo, new_hi))
    }

    /// [`Store::remove_mask`] of a table or interval domain, value by value, after
    /// a count of those present so that a wipe-out changes nothing.
    #[cold]
    #[inline(never)]
    fn remove_each(&mut self, var: u32, from: i64, mask: &[u64]) -> Result<Event, Wipeout> {
        let present = mask_values(from, mask)
            .filter(|&v| self.contains(var, v))
            .count();
        if present as u64 == self.large_size(self.layouts[var as usize]) {
            return Err(Wipeout);
        }
        let mut event = Event::NONE;
        for value in mask_values(from, mask) {
            event = event | self.remove(var, value)?;
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

    /// Removes every value below `min`: inline for a small domain, out of line for
    /// the others.
    #[inline(always)]
    pub(crate) fn set_min(&mut self, var: u32, min: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let index = i64::from(min) - i64::from(l.base);
            if index <= 0 {
                return Ok(Event::NONE);
            }
            let keep = if index >= 64 { 0 } else { !0u64 << index };
            return self.retain_word(l.start as usize, keep);
        }
        self.set_min_large(l, min)
    }

    /// [`Store::set_min`] of a domain of more than one word.
    #[inline(never)]
    fn set_min_large(&mut self, l: Layout, min: i32) -> Result<Event, Wipeout> {
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
        self.raise_lo(l, index)
    }

    /// Removes every value above `max`: inline for a small domain, out of line for
    /// the others.
    #[inline(always)]
    pub(crate) fn set_max(&mut self, var: u32, max: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            let end = i64::from(max) - i64::from(l.base) + 1;
            if end <= 0 {
                return Err(Wipeout);
            }
            let keep = if end >= 64 { !0 } else { (1u64 << end) - 1 };
            return self.retain_word(l.start as usize, keep);
        }
        self.set_max_large(l, max)
    }

    /// [`Store::set_max`] of a domain of more than one word.
    #[inline(never)]
    fn set_max_large(&mut self, l: Layout, max: i32) -> Result<Event, Wipeout> {
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
        self.lower_hi(l, end - 1)
    }

    /// Removes the bit indices below `from` from a bitset or table domain: only the
    /// words from the old lower bound to the new one change. O(those words).
    fn raise_lo(&mut self, l: Layout, from: usize) -> Result<Event, Wipeout> {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        if from <= lo {
            return Ok(Event::NONE);
        }
        if from > hi {
            return Err(Wipeout);
        }
        let (removed, w, keep) = self.sweep::<true>(l, lo / 64, from / 64, !0u64 << (from % 64));
        let new_lo = w * 64 + keep.trailing_zeros() as usize;
        Ok(self.moved_bound(l, removed, new_lo, hi))
    }

    /// Removes the bit indices above `to` from a bitset or table domain, as
    /// [`Store::raise_lo`].
    fn lower_hi(&mut self, l: Layout, to: usize) -> Result<Event, Wipeout> {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        if to >= hi {
            return Ok(Event::NONE);
        }
        if to < lo {
            return Err(Wipeout);
        }
        let (removed, w, keep) = self.sweep::<false>(l, hi / 64, to / 64, !0u64 >> (63 - to % 64));
        let new_hi = w * 64 + 63 - keep.leading_zeros() as usize;
        Ok(self.moved_bound(l, removed, lo, new_hi))
    }

    /// One pass from the word of the old bound, `first`, up (`UP`) or down to the
    /// word of the new one, `edge`, and on to the first word with a value left: the
    /// words before `edge` lose every bit, `edge` keeps the bits `edge_keep`, those
    /// after it hold nothing beyond the bound they give. Returns how many values went,
    /// and the word with a value left, by index and bits. There is one: the domain
    /// has a value on the far side of the new bound.
    #[inline(always)]
    fn sweep<const UP: bool>(
        &mut self,
        l: Layout,
        first: usize,
        edge: usize,
        edge_keep: u64,
    ) -> (u64, usize, u64) {
        let start = l.start as usize;
        let (mut removed, mut w) = (0u64, first);
        loop {
            let before = if UP { w < edge } else { w > edge };
            let mask = match (before, w == edge) {
                (true, _) => 0,
                (_, true) => edge_keep,
                _ => !0,
            };
            let word = self.cells[start + w];
            let keep = word & mask;
            if word != keep {
                removed += u64::from((word & !mask).count_ones());
                self.save(start + w);
                self.cells[start + w] = keep;
            }
            if keep != 0 {
                return (removed, w, keep);
            }
            w = if UP { w + 1 } else { w - 1 };
        }
    }

    /// Records a moved bound of a bitset or table domain: `removed` values went, the
    /// bounds are now `lo..=hi`.
    #[inline(always)]
    fn moved_bound(&mut self, l: Layout, removed: u64, lo: usize, hi: usize) -> Event {
        let size = self.cells[l.size_cell()] - removed;
        self.save(l.size_cell());
        self.cells[l.size_cell()] = size;
        self.save(l.bounds_cell());
        self.cells[l.bounds_cell()] = pack_bounds(lo, hi);
        let mut event = Event::DOMAIN | Event::BOUNDS;
        if size == 1 {
            event = event | Event::FIXED;
        }
        event
    }

    /// Makes the domain the single value `value`.
    #[inline(always)]
    pub(crate) fn fix(&mut self, var: u32, value: i32) -> Result<Event, Wipeout> {
        let l = self.layouts[var as usize];
        if l.is_small() {
            return match l.offset_of(value) {
                Some(index) => self.retain_word(l.start as usize, 1 << index),
                None => Err(Wipeout),
            };
        }
        self.fix_large(l, value)
    }

    /// [`Store::fix`] when no change needs saving (every cell is saved in this
    /// epoch, as right after [`Store::reset_from`]) and no event is wanted: false
    /// if the domain would be wiped out (it is then unchanged). A small domain is
    /// one word written in place.
    #[inline(always)]
    pub(crate) fn fix_unsaved(&mut self, var: u32, value: i32) -> bool {
        let l = self.layouts[var as usize];
        if !l.is_small() {
            return self.fix_large(l, value).is_ok();
        }
        invariant_eq!(self.stamps[l.start as usize], self.epoch, "saved");
        let word = &mut self.cells[l.start as usize];
        // As `fix`, a wipe-out leaves the domain as it was.
        let kept = *word & l.offset_of(value).map_or(0, |index| 1 << index);
        if kept == 0 {
            return false;
        }
        *word = kept;
        true
    }

    #[inline(never)]
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
        let (lo, hi) = (self.next_set(l, new_lo), self.prev_set(l, new_hi));
        Ok(self.moved_bound(l, removed, lo, hi))
    }
}
