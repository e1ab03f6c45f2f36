//! Ascending iterators over the values of one domain, whatever its shape.

use super::interval::IntervalValues;

/// The present bit indices of some words, ascending.
#[derive(Clone, Debug)]
pub(crate) struct Bits<'a> {
    words: &'a [u64],
    word_index: usize,
    current: u64,
}

impl<'a> Bits<'a> {
    /// The present bits of `words` from bit `from` on (at most the words' length).
    fn new(words: &'a [u64], from: usize) -> Bits<'a> {
        let word_index = from / 64;
        let current = match words.get(word_index) {
            Some(&word) => word & (!0u64 << (from % 64)),
            None => 0,
        };
        Bits {
            words,
            word_index,
            current,
        }
    }
}

impl Iterator for Bits<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            self.word_index += 1;
            self.current = *self.words.get(self.word_index)?;
        }
        let bit = self.current.trailing_zeros();
        self.current &= self.current - 1;
        Some(self.word_index * 64 + bit as usize)
    }
}

/// Ascending iterator over the values of one domain.
#[derive(Clone, Debug)]
pub(crate) enum Values<'a> {
    /// A small or bitset domain: bit `i` is `base + i`.
    Offsets { bits: Bits<'a>, base: i32 },
    /// A table domain: bit `i` is `table[i]`.
    Table { bits: Bits<'a>, table: &'a [i32] },
    /// An interval domain.
    Interval(IntervalValues<'a>),
}

impl<'a> Values<'a> {
    /// The values of the bits of `words` from bit `from` on, bit `i` being `base + i`.
    pub(super) fn offsets(words: &'a [u64], base: i32, from: usize) -> Values<'a> {
        Values::Offsets {
            bits: Bits::new(words, from),
            base,
        }
    }

    /// The values of the bits of `words` from bit `from` on, bit `i` being `table[i]`.
    pub(super) fn table(words: &'a [u64], table: &'a [i32], from: usize) -> Values<'a> {
        Values::Table {
            bits: Bits::new(words, from),
            table,
        }
    }
}

impl Iterator for Values<'_> {
    type Item = i32;
    #[inline(always)]
    fn next(&mut self) -> Option<i32> {
        match self {
            Values::Offsets { bits, base } => bits.next().map(|i| *base + i as i32),
            Values::Table { bits, table } => bits.next().map(|i| table[i]),
            Values::Interval(values) => values.next(),
        }
    }

    fn nth(&mut self, n: usize) -> Option<i32> {
        match self {
            Values::Interval(values) => values.nth(n),
            _ => {
                for _ in 0..n {
                    self.next()?;
                }
                self.next()
            }
        }
    }
}
