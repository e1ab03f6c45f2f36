//! Interval domains: `min..=max` with holes where values were removed.
//!
//! An interval keeps two cells, as a bitset domain does: the number of holes between
//! its bounds (its size is its width less those), and its lowest and highest present
//! index (index `i` stands for `base + i`, so any `i32` range fits,
//! its indices in 32 bits). The values between the bounds are present unless a hole
//! was punched: index `i` lies in chunk `i / 64`, and a chunk with a hole has a word
//! of its own, made at its first hole and found through the interval's map of chunks;
//! a chunk without a word has no hole. A value removed at a bound only moves the
//! bound, so holes cost a word per chunk only where values went from the inside.
//!
//! A chunk's word is a cell like any other, so backtracking restores it; the map
//! never forgets a chunk, whose restored word then has no hole (all ones).

use super::{Event, Layout, Store, Wipeout, pack_bounds, unpack_bounds};

impl Store {
    /// Adds an interval domain over the `span` values from `min` on.
    pub(super) fn add_interval(&mut self, min: i32, span: u64) -> u32 {
        self.cells.push(0);
        self.cells.push(pack_bounds(0, span as usize - 1));
        self.chunks.push(Default::default());
        self.push_layout(Layout {
            base: min,
            start: self.cells.len() as u32,
            words: 0,
            extra: self.chunks.len() as u32 - 1,
        })
    }

    /// Adds an interval domain over the sorted values, from the first to the last, with
    /// holes where values are missing.
    pub(super) fn add_interval_with_holes(&mut self, sorted_values: &[i32], span: u64) -> u32 {
        let base = sorted_values[0];
        let var = self.add_interval(base, span);
        let l = self.layouts[var as usize];
        for pair in sorted_values.windows(2) {
            for value in pair[0] + 1..pair[1] {
                self.punch(l, (i64::from(value) - i64::from(base)) as u64);
            }
        }
        self.cells[l.size_cell()] = span - sorted_values.len() as u64;
        var
    }

    /// The word of chunk `chunk`: all ones when it has none.
    fn chunk_word(&self, l: Layout, chunk: u64) -> u64 {
        match self.chunks[l.extra as usize].get(&(chunk as u32)) {
            Some(&cell) => self.cells[cell as usize],
            None => !0,
        }
    }

    /// The bounds, as indices.
    fn interval_bounds(&self, l: Layout) -> (u64, u64) {
        let (lo, hi) = unpack_bounds(self.cells[l.bounds_cell()]);
        (lo as u64, hi as u64)
    }

    /// The lowest present index in `from..=hi`, all of it within the bounds.
    fn next_present(&self, l: Layout, from: u64, hi: u64) -> Option<u64> {
        let mut i = from;
        while i <= hi {
            let chunk = i / 64;
            let word = self.chunk_word(l, chunk) & (!0u64 << (i % 64));
            if word != 0 {
                let found = chunk * 64 + u64::from(word.trailing_zeros());
                return (found <= hi).then_some(found);
            }
            i = (chunk + 1) * 64;
        }
        None
    }

    /// The highest present index in `lo..=from`, all of it within the bounds.
    fn prev_present(&self, l: Layout, from: u64, lo: u64) -> Option<u64> {
        let mut i = from;
        loop {
            let chunk = i / 64;
            let word = self.chunk_word(l, chunk) & (!0u64 >> (63 - i % 64));
            if word != 0 {
                let found = chunk * 64 + 63 - u64::from(word.leading_zeros());
                return (found >= lo).then_some(found);
            }
            if chunk * 64 <= lo {
                return None;
            }
            i = chunk * 64 - 1;
        }
    }

    /// The number of present indices in `from..=to`, all of it within the bounds: the
    /// width less the holes, counted in the chunks that have words.
    fn count_present(&self, l: Layout, from: u64, to: u64) -> u64 {
        let chunks = &self.chunks[l.extra as usize];
        let mut holes = 0;
        for (&chunk, &cell) in chunks.range((from / 64) as u32..=(to / 64) as u32) {
            let first = u64::from(chunk) * 64;
            let mut mask = !0u64;
            if from > first {
                mask &= !0u64 << (from - first);
            }
            if to < first + 63 {
                mask &= !0u64 >> (63 - (to - first));
            }
            holes += u64::from((!self.cells[cell as usize] & mask).count_ones());
        }
        to - from + 1 - holes
    }

    /// The index of `value`, if it lies within the bounds and is present.
    fn present_index(&self, l: Layout, value: i32) -> Option<u64> {
        let index = u64::try_from(i64::from(value) - i64::from(l.base)).ok()?;
        let (lo, hi) = self.interval_bounds(l);
        if index < lo || index > hi {
            return None;
        }
        // Without holes, no chunk needs looking at.
        let full = self.cells[l.size_cell()] == 0;
        (full || self.chunk_word(l, index / 64) & (1 << (index % 64)) != 0).then_some(index)
    }

    /// [`Store::value_at_most`] of an interval domain.
    pub(super) fn interval_at_most(&self, l: Layout, at: i32) -> Option<i32> {
        let (lo, hi) = self.interval_bounds(l);
        let index = u64::try_from(i64::from(at) - i64::from(l.base)).ok()?;
        let found = self.prev_present(l, index.min(hi), lo)?;
        Some((i64::from(l.base) + found as i64) as i32)
    }

    pub(super) fn interval_contains(&self, l: Layout, value: i32) -> bool {
        self.present_index(l, value).is_some()
    }

    /// Clears the bit of `index` in its chunk's word, which is made if need be.
    fn punch(&mut self, l: Layout, index: u64) {
        let chunk = (index / 64) as u32;
        let cell = match self.chunks[l.extra as usize].get(&chunk) {
            Some(&cell) => cell as usize,
            None => {
                let cell = self.cells.len();
                self.cells.push(!0);
                self.stamps.push(0);
                self.chunks[l.extra as usize].insert(chunk, cell as u32);
                cell
            }
        };
        self.save(cell);
        self.cells[cell] &= !(1u64 << (index % 64));
    }

    /// Removes one value: a bound moves to the next present value, a value inside
    /// becomes a hole. O(1) but for a look-up in the map of chunks, and the chunks
    /// of holes next to a bound that moves.
    #[inline(never)]
    pub(super) fn interval_remove(&mut self, l: Layout, value: i32) -> Result<Event, Wipeout> {
        let Some(index) = self.present_index(l, value) else {
            return Ok(Event::NONE);
        };
        let size = self.large_size(l);
        if size == 1 {
            return Err(Wipeout);
        }
        let (lo, hi) = self.interval_bounds(l);
        let holes = self.cells[l.size_cell()];
        let mut event = Event::DOMAIN;
        if index == lo || index == hi {
            // The holes between the old bound and the new one are outside now.
            let (new_lo, new_hi, skipped) = if index == lo {
                let new_lo = self.next_present(l, lo + 1, hi).expect("two values");
                (new_lo, hi, new_lo - lo - 1)
            } else {
                let new_hi = self.prev_present(l, hi - 1, lo).expect("two values");
                (lo, new_hi, hi - new_hi - 1)
            };
            self.save(l.bounds_cell());
            self.cells[l.bounds_cell()] = pack_bounds(new_lo as usize, new_hi as usize);
            self.set_holes(l, holes - skipped);
            event = event | Event::BOUNDS;
        } else {
            self.punch(l, index);
            self.set_holes(l, holes + 1);
        }
        if size == 2 {
            event = event | Event::FIXED;
        }
        Ok(event)
    }

    /// Keeps the indices in `from..=to` (either may lie beyond the bounds): the bounds
    /// move to the nearest present values inside, and the size loses what was
    /// present outside, counted from the holes there.
    pub(super) fn interval_retain(
        &mut self,
        l: Layout,
        from: i64,
        to: i64,
    ) -> Result<Event, Wipeout> {
        let (lo, hi) = self.interval_bounds(l);
        let (from, to) = (from.max(lo as i64), to.min(hi as i64));
        if from > to {
            return Err(Wipeout);
        }
        let (from, to) = (from as u64, to as u64);
        if from == lo && to == hi {
            return Ok(Event::NONE);
        }
        let holes = self.cells[l.size_cell()];
        let (new_lo, new_hi) = if holes == 0 {
            (from, to)
        } else {
            let new_lo = self.next_present(l, from, to).ok_or(Wipeout)?;
            let new_hi = self.prev_present(l, to, new_lo).expect("new_lo is present");
            // The holes left outside the new bounds no longer count.
            let mut outside = 0;
            if new_lo > lo {
                outside += new_lo - lo - self.count_present(l, lo, new_lo - 1);
            }
            if new_hi < hi {
                outside += hi - new_hi - self.count_present(l, new_hi + 1, hi);
            }
            self.set_holes(l, holes - outside);
            (new_lo, new_hi)
        };
        self.save(l.bounds_cell());
        self.cells[l.bounds_cell()] = pack_bounds(new_lo as usize, new_hi as usize);
        let mut event = Event::DOMAIN | Event::BOUNDS;
        if self.large_size(l) == 1 {
            event = event | Event::FIXED;
        }
        Ok(event)
    }

    /// Sets the number of holes between the bounds of an interval, saving the old one
    /// only if it changes.
    fn set_holes(&mut self, l: Layout, holes: u64) {
        if self.cells[l.size_cell()] != holes {
            self.save(l.size_cell());
            self.cells[l.size_cell()] = holes;
        }
    }

    /// The values of an interval domain from `from` on, ascending.
    pub(super) fn interval_values(&self, l: Layout, from: i64) -> IntervalValues<'_> {
        let (lo, hi) = self.interval_bounds(l);
        let from = from.saturating_sub(i64::from(l.base)).max(lo as i64) as u64;
        let mut values = IntervalValues {
            store: self,
            layout: l,
            chunk: from / 64,
            word: 0,
            hi,
        };
        if from <= hi {
            values.word = values.load() & (!0u64 << (from % 64));
        }
        values
    }
}

/// Ascending iterator over the values of an interval domain.
#[derive(Clone, Debug)]
pub(crate) struct IntervalValues<'a> {
    store: &'a Store,
    layout: Layout,
    /// The chunk being read.
    chunk: u64,
    /// Its present indices not read yet (none beyond the upper bound).
    word: u64,
    /// The upper bound.
    hi: u64,
}

impl IntervalValues<'_> {
    /// The word of the current chunk, cut at the upper bound.
    fn load(&self) -> u64 {
        let word = self.store.chunk_word(self.layout, self.chunk);
        if self.chunk == self.hi / 64 {
            word & (!0u64 >> (63 - self.hi % 64))
        } else {
            word
        }
    }

    /// Moves to the next chunk; `false` past the upper bound.
    fn advance(&mut self) -> bool {
        self.chunk += 1;
        if self.chunk > self.hi / 64 {
            self.word = 0;
            return false;
        }
        self.word = self.load();
        true
    }
}

impl Iterator for IntervalValues<'_> {
    type Item = i32;

    /// Out of line, so that [`super::Values`] inlines its other shapes' steps.
    #[inline(never)]
    fn next(&mut self) -> Option<i32> {
        while self.word == 0 {
            if !self.advance() {
                return None;
            }
        }
        let index = self.chunk * 64 + u64::from(self.word.trailing_zeros());
        self.word &= self.word - 1;
        Some((i64::from(self.layout.base) + index as i64) as i32)
    }

    /// Skips whole chunks: those without a word by arithmetic, so that a pick far
    /// into a wide interval costs by its chunks of holes, not by its values.
    fn nth(&mut self, mut n: usize) -> Option<i32> {
        loop {
            let here = self.word.count_ones() as usize;
            if n < here {
                for _ in 0..n {
                    self.word &= self.word - 1;
                }
                return self.next();
            }
            n -= here;
            // Chunks strictly between this one and the next with a word (or the last
            // chunk) are full.
            let chunks = &self.store.chunks[self.layout.extra as usize];
            let next_word = chunks
                .range(self.chunk as u32 + 1..)
                .next()
                .map_or(u64::MAX, |(&c, _)| u64::from(c));
            let full = next_word.min(self.hi / 64).saturating_sub(self.chunk + 1);
            let skip = full.min((n / 64) as u64);
            self.chunk += skip;
            n -= skip as usize * 64;
            if !self.advance() {
                return None;
            }
        }
    }
}
