//! `invariant!` and `invariant_eq!`: assertions of the engine's internal invariants,
//! checked in debug builds, as `debug_assert!` is, and in every build with the
//! `debug-checks` feature, so that its release runs check them too.

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
