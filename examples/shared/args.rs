//! The command line of the examples that take one size.

use std::ops::RangeInclusive;

/// The one argument, a number within `range`; for anything else, `usage` goes to
/// standard error and the answer is `None` (the caller exits with status 2).
pub fn size(usage: &str, range: RangeInclusive<usize>) -> Option<usize> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = args
        .first()
        .filter(|_| args.len() == 1)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| range.contains(n));
    if size.is_none() {
        eprintln!("{usage}");
    }
    size
}
