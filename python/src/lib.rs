//! The extension module `alldiff._alldiff`: the Rust side of the Python package.
//!
//! It stays flat and index-based (variables are `int`s, views `(var, scale,
//! offset)` tuples, literals `(var, negated)`), so that the Pythonic layer in
//! `alldiff/` holds the operator overloading and keeps a replayable log of the
//! calls a model is built from (what pickling, and so Dask, sends). Every search
//! releases the GIL and watches for Ctrl-C (`run`); every library error
//! becomes a Python exception carrying the library's message.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

mod core;
mod search;
mod sudoku;

pyo3::create_exception!(
    _alldiff,
    Stopped,
    pyo3::exceptions::PyException,
    "A search limit (time, nodes, failures) stopped the search before it had an answer."
);
pyo3::create_exception!(
    _alldiff,
    ModelError,
    PyValueError,
    "A model was given something it cannot take (the message names the culprit)."
);

/// How often a running search looks whether Python has a signal to handle.
const SIGNAL_POLL: Duration = Duration::from_millis(10);

/// A library [`alldiff::ModelError`] as the Python `ModelError` (a `ValueError`).
pub(crate) fn model_error(error: alldiff::ModelError) -> PyErr {
    ModelError::new_err(error.to_string())
}

/// A stop as the Python `Stopped`, its message the library's reason.
pub(crate) fn stopped(reason: alldiff::StopReason) -> PyErr {
    Stopped::new_err(reason.to_string())
}

/// Runs `work` on a thread of its own with the GIL released, while this thread
/// looks every [`SIGNAL_POLL`] whether Python has a signal to handle: Ctrl-C sets
/// `cancel` (the search's cancellation flag, [`alldiff::Limits::with_cancel`]),
/// waits for the search to stop at its next node, and raises `KeyboardInterrupt`.
/// A panic in `work` becomes a `RuntimeError`; the interpreter never sees it.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    cancel.store(false, Ordering::Relaxed);
    // Whether `work` is over, and the wake-up that says so.
    let over = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let result = work();
            *over.0.lock().unwrap_or_else(PoisonError::into_inner) = true;
            over.1.notify_all();
            result
        });
        loop {
            let finished = py.detach(|| {
                let done = over.0.lock().unwrap_or_else(PoisonError::into_inner);
                let (done, _) = (over.1)
                    .wait_timeout_while(done, SIGNAL_POLL, |done| !*done)
                    .unwrap_or_else(PoisonError::into_inner);
                *done
            });
            if finished || handle.is_finished() {
                return py
                    .detach(|| handle.join())
                    .map_err(|_| PyRuntimeError::new_err("alldiff: internal error (a panic)"));
            }
            if let Err(error) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(error);
            }
        }
    })
}

/// The module.
#[pymodule]
fn _alldiff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Stopped", m.py().get_type::<Stopped>())?;
    m.add("ModelError", m.py().get_type::<ModelError>())?;
    m.add_class::<core::Core>()?;
    m.add_class::<search::Search>()?;
    sudoku::register(m)?;
    Ok(())
}
