//! Parsers of option values: thread counts, limits, sizes and durations.

use std::num::{NonZeroU64, NonZeroUsize};
use std::time::Duration;

use alldiff::{Model, ParallelSolver};

/// One worker per available core, or 1 if that cannot be known.
pub(crate) fn default_threads() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// The most worker threads a run starts: the library's cap, 4 per core
/// ([`ParallelSolver::max_threads`]).
pub(crate) fn max_threads() -> NonZeroUsize {
    NonZeroUsize::new(ParallelSolver::<Model>::max_threads()).unwrap_or(NonZeroUsize::MIN)
}

/// Parses `--threads`: a whole number of at least 1.
pub(super) fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1 (leave --threads out to use every core)".to_owned()),
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "must be at least 1".to_owned()),
        Err(_) => Err(format!("`{text}` is not a whole number of threads")),
    }
}

/// Parses `fzn -p`: 0 (one thread per core) up to [`max_threads`]. Each thread
/// builds its own model, so the count is capped rather than cut down: a
/// MiniZinc user asked for it.
pub(super) fn parse_parallel(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a whole number of threads"));
    }
    let max = max_threads();
    // A number too large for `usize` is past the cap too.
    match digits.parse::<usize>() {
        Ok(n) if n <= max.get() => Ok(n),
        _ => Err(format!(
            "at most {max} threads on this machine (4 per core; -p 0 uses one per core)"
        )),
    }
}

/// Parses `count --limit`: a whole number of at least 1.
pub(super) fn parse_limit(text: &str) -> Result<NonZeroU64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) => NonZeroU64::new(n).ok_or_else(|| "must be at least 1".to_owned()),
        Err(_) => Err(format!("`{text}` is not a whole number")),
    }
}

/// Parses `generate --size`: 4, 9, 16 or 25.
pub(super) fn parse_side(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(side @ (4 | 9 | 16 | 25)) => Ok(side),
        _ => Err(format!("`{text}` is not a Sudoku size: use 4, 9, 16 or 25")),
    }
}

/// Parses a duration: a decimal number and a unit `ms`, `s`, `m` or `h`
/// (seconds when there is none), such as `500ms`, `2s`, `1.5m`.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale = match unit.trim() {
        "ms" => 0.001,
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}`: use ms, s, m or h (e.g. 500ms, 2s, 1m)"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration (e.g. 500ms, 2s, 1m)"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|_| format!("`{text}` is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_have_units() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["", "ms", "2x", "-1s", "1e999s", "1..2s"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }
}
