//! `invariant!` and `invariant_eq!`: assertions of the engine's internal invariants,
//! checked in debug builds, as `debug_assert!` is, and in every build with the
//! `debug-checks` feature, so that its release runs check them too; and
//! [`uncounted`], for the checks' own allocations.

/// `assert!` in debug builds and with the `debug-checks` feature; nothing otherwise.
macro_rules! invariant {
    ($($arg:tt)*) => {
        if cfg!(any(debug_assertions, feature = "debug-checks")) {
            assert!($($arg)*);
        }
    };
}

/// `assert_eq!` in debug builds and with the `debug-checks` feature; nothing otherwise.
macro_rules! invariant_eq {
    ($($arg:tt)*) => {
        if cfg!(any(debug_assertions, feature = "debug-checks")) {
            assert_eq!($($arg)*);
        }
    };
}

/// Runs `f`, whose allocations the `count-allocations` allocator does not count:
/// checks allocate where the search itself must not.
#[inline(always)]
pub(crate) fn uncounted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "count-allocations")]
    {
        let mut result = None;
        allocation_counter::opt_out(|| result = Some(f()));
        result.expect("opt_out runs its closure")
    }
    #[cfg(not(feature = "count-allocations"))]
    f()
}
