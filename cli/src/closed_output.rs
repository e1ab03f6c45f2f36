//! Whether standard output was closed when the process started
//! (`alldiff solve ... >&-`).
//!
//! Before `main`, Rust's runtime opens `/dev/null` in place of a closed standard
//! stream, and a write to it succeeds: every result would be lost while the
//! run reported success. Nothing after that tells the substitute from a
//! `/dev/null` a caller gave on purpose (Python's `subprocess.DEVNULL` opens it
//! the same way), so the state is recorded before the runtime starts, by a
//! function in the ELF `.init_array`, which the loader runs before `main` and
//! before the runtime's own set-up. It is the binary's one `unsafe` item: the
//! attribute that places it there; the function itself is safe code.
//! Elsewhere than Linux nothing is recorded and the check always passes.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set before `main` if standard output was closed.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "a function run before the runtime replaces a closed standard output"
)]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_AT_START: extern "C" fn() = record;

/// Records whether file descriptor 1 is open: duplicating it fails on a
/// closed one.
#[cfg(target_os = "linux")]
extern "C" fn record() {
    use std::os::fd::AsFd as _;
    let closed = std::io::stdout().as_fd().try_clone_to_owned().is_err();
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Fails if standard output was closed when the process started: what would
/// be written there would be lost.
pub(crate) fn ensure_open() -> anyhow::Result<()> {
    if CLOSED_AT_START.load(Ordering::Relaxed) {
        anyhow::bail!(
            "standard output is closed, so the results would be lost; \
             redirect it to a file, or to /dev/null to discard them"
        );
    }
    Ok(())
}
