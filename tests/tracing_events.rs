//! The `tracing` events of a search, under their documented targets.
//!
//! Alone in its own test binary: `tracing` caches per-callsite interest globally, so a
//! scoped subscriber in one test races with other tests' threads in the same process.
//! Nothing to see with `trace-off`, which compiles the events out.
#![cfg(not(feature = "trace-off"))]

use alldiff::{Model, SearchConfig, Solver, Strength, VariableOrder};

fn queens(n: usize) -> Model {
    let mut model = Model::new();
    let q = model.int_vars(n, 1, n as i32).unwrap();
    model
        .all_different_with(q.iter().copied(), Strength::Value)
        .unwrap();
    model
        .all_different_with(
            q.iter().enumerate().map(|(i, &x)| x + i as i32),
            Strength::Value,
        )
        .unwrap();
    model
        .all_different_with(
            q.iter().enumerate().map(|(i, &x)| x - i as i32),
            Strength::Value,
        )
        .unwrap();
    model
}

#[test]
fn tracing_events_name_their_targets() {
    use std::sync::{Arc, Mutex};
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buffer = Buffer::default();
    let writer = buffer.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter("alldiff::search=trace,alldiff::propagate=trace")
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let config = SearchConfig::new().variable_order(VariableOrder::InputOrder);
    let mut solver = Solver::with_config(queens(5), config);
    tracing::subscriber::with_default(subscriber, || solver.count(None));
    let log = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
    let stats = solver.statistics();
    let count = |target: &str, message: &str| {
        log.lines()
            .filter(|l| l.contains(target) && l.contains(message))
            .count() as u64
    };
    assert_eq!(count("alldiff::search", "decision"), stats.nodes);
    assert_eq!(count("alldiff::search", " solution"), stats.solutions);
    assert_eq!(count("alldiff::propagate", "failure"), stats.failures);
    assert!(count("alldiff::search", "backtrack") > 0);
    assert!(log.contains("solve{variables=5 constraints=3}"), "{log}");
}
