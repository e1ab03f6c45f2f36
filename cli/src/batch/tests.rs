//! The batch layer on in-memory inputs and outputs.
use super::*;
use crate::input::Origin;
use crate::report::{EXIT_FAILURE, EXIT_SUCCESS};
use std::io::{Cursor, Read};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn config(threads: usize) -> BatchConfig {
    BatchConfig {
        threads: NonZeroUsize::new(threads).unwrap(),
        format: Format::Line,
        progress: false,
    }
}

/// Never set: runs that are not interrupted.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Echoes the text, failing items that are not text or start with `x`.
fn echo(_: &mut (), item: &Item, format: Format) -> ItemReport {
    match item.text() {
        Err(e) => ItemReport::error(format, item, e),
        Ok(text) if text.starts_with('x') => {
            ItemReport::failure(format!("failed {text}")).with_diagnostic("starts with x")
        }
        Ok(text) => ItemReport::success(text),
    }
}

/// Runs a batch over `input`; returns the summary, stdout and stderr.
fn run_on<R, S>(
    input: R,
    config: BatchConfig,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &Item, Format) -> ItemReport + Sync,
) -> (Summary, String, String)
where
    R: Read + Send + 'static,
{
    let mut out = Vec::new();
    let mut err = Vec::new();
    let summary = Batch::new(Input::from_reader(input, "test input"), config)
        .run_to(make_state, work, &mut out, &mut err, &NEVER)
        .unwrap()
        .summary;
    (
        summary,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn one_record_per_item_and_bad_lines_do_not_hurt_neighbours() {
    let input = b"# header\r\nfirst\r\n\xff\xfebad\r\n\r\nnul\0byte\nx9\nlast".to_vec();
    for threads in [1, 2] {
        let (summary, out, err) = run_on(Cursor::new(input.clone()), config(threads), || (), echo);
        assert_eq!(
            out,
            "first\n\
             error: line is not UTF-8 (byte 1)\n\
             error: line contains a NUL byte (byte 4)\n\
             failed x9\n\
             last\n"
        );
        assert_eq!(err, "alldiff: line 6: starts with x\n");
        assert_eq!(
            summary,
            Summary {
                succeeded: 2,
                failed: 3,
                output_closed: false
            }
        );
        assert_eq!(summary.exit_status(), EXIT_FAILURE);
    }
}

#[test]
fn json_error_records_name_the_line() {
    let mut cfg = config(1);
    cfg.format = Format::Json;
    let (_, out, _) = run_on(Cursor::new(b"\n\n\xc0\n".to_vec()), cfg, || (), echo);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["line"], 3);
    assert_eq!(value["status"], "error");
    assert_eq!(value["error"], "line is not UTF-8 (byte 1)");
    let item = Item::new(Origin::Argument(2), b"x\"y".to_vec());
    let report = ItemReport::error(Format::Json, &item, "bad \"quote\"");
    let value: serde_json::Value = serde_json::from_str(report.record()).unwrap();
    assert_eq!(value["argument"], 2);
    assert_eq!(value["error"], "bad \"quote\"");
    assert!(!report.is_success());
}

#[test]
fn an_empty_input_writes_nothing_and_succeeds() {
    for threads in [1, 2] {
        let (summary, out, err) = run_on(Cursor::new(Vec::new()), config(threads), || (), echo);
        assert_eq!((out.as_str(), err.as_str()), ("", ""));
        assert_eq!(summary, Summary::default());
        assert_eq!(summary.exit_status(), EXIT_SUCCESS);
    }
}

#[test]
fn order_is_kept_when_items_take_varying_time() {
    let n = 3000u64;
    let input: String = (1..=n).map(|i| format!("{i}\n")).collect();
    let expected: String = (1..=n).map(|i| format!("{}\n", i * 2)).collect();
    let work = |_: &mut (), item: &Item, _| {
        let value: u64 = item.text().unwrap().parse().unwrap();
        // Early items of a chunk are slow, so later ones finish first.
        if value % 50 < 3 {
            std::thread::sleep(Duration::from_micros(300));
        }
        assert_eq!(item.number(), value);
        ItemReport::success((value * 2).to_string())
    };
    for threads in [1, 2, 3, 8] {
        let (summary, out, _) = run_on(
            Cursor::new(input.clone().into_bytes()),
            config(threads),
            || (),
            work,
        );
        assert_eq!(summary.succeeded, n, "threads {threads}");
        assert!(out == expected, "order lost with threads {threads}");
    }
}

#[test]
fn each_worker_makes_its_state_once_and_reuses_it() {
    let input: String = (0..2000).map(|i| format!("{i}\n")).collect();
    for threads in [1usize, 2] {
        let made = AtomicUsize::new(0);
        let (summary, _, _) = run_on(
            Cursor::new(input.clone().into_bytes()),
            config(threads),
            || {
                made.fetch_add(1, Ordering::Relaxed);
                0u64
            },
            |uses: &mut u64, _: &Item, _| {
                *uses += 1;
                ItemReport::success(uses.to_string())
            },
        );
        assert_eq!(summary.succeeded, 2000);
        let made = made.load(Ordering::Relaxed);
        assert!(
            (1..=threads).contains(&made),
            "{made} states for {threads} threads"
        );
    }
}

#[test]
fn a_panicking_item_fails_alone() {
    for threads in [1, 2] {
        let (summary, out, err) = run_on(
            Cursor::new(b"a\nboom\nc\n".to_vec()),
            config(threads),
            || (),
            |_: &mut (), item: &Item, _| {
                let text = item.text().unwrap_or_default();
                if text == "boom" {
                    panic!("test panic, expected");
                }
                ItemReport::success(text)
            },
        );
        assert_eq!(
            out,
            "a\nerror: internal error: the computation panicked\nc\n"
        );
        assert_eq!(
            err,
            "alldiff: line 2: internal error: the computation panicked\n"
        );
        assert_eq!((summary.succeeded, summary.failed), (2, 1));
    }
}

/// An endless input of numbered lines that counts the bytes handed out.
struct Endless {
    next: u64,
    pending: Vec<u8>,
    produced: Arc<AtomicU64>,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            if self.pending.is_empty() {
                self.next += 1;
                self.pending = format!("{}\n", self.next).into_bytes();
            }
            let take = (buf.len() - n).min(self.pending.len());
            buf[n..n + take].copy_from_slice(&self.pending[..take]);
            self.pending.drain(..take);
            n += take;
        }
        self.produced.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Output that accepts `room` bytes, then reports a broken pipe; records
/// how much input had been read when it was first written to.
struct ClosingPipe {
    room: usize,
    written: Vec<u8>,
    produced: Arc<AtomicU64>,
    produced_at_first_write: Option<u64>,
}

impl Write for ClosingPipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.produced_at_first_write
            .get_or_insert_with(|| self.produced.load(Ordering::Relaxed));
        if self.room == 0 {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        self.written.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn endless_input_streams_and_a_closed_pipe_ends_quietly() {
    for threads in [1, 2] {
        let produced = Arc::new(AtomicU64::new(0));
        let reader = Endless {
            next: 0,
            pending: Vec::new(),
            produced: Arc::clone(&produced),
        };
        let mut pipe = ClosingPipe {
            room: 100_000,
            written: Vec::new(),
            produced: Arc::clone(&produced),
            produced_at_first_write: None,
        };
        let mut err = Vec::new();
        let summary = Batch::new(Input::from_reader(reader, "endless"), config(threads))
            .run_to(|| (), echo, &mut pipe, &mut err, &NEVER)
            .unwrap()
            .summary;
        assert!(summary.output_closed);
        assert_eq!(summary.exit_status(), EXIT_SUCCESS);
        assert!(err.is_empty());
        // Results came out after a window of items had been read, not
        // after the input (which never ends).
        let read_first = pipe.produced_at_first_write.unwrap();
        let bound = 2 * crate::input::READ_BUFFER_BYTES as u64;
        assert!(
            read_first <= bound,
            "read {read_first} bytes before writing"
        );
        let text = String::from_utf8(pipe.written).unwrap();
        assert!(text.starts_with("1\n2\n3\n"));
        let lines: Vec<&str> = text.lines().collect();
        let complete = &lines[..lines.len() - 1];
        for (i, line) in complete.iter().enumerate() {
            assert_eq!(line.parse::<usize>().unwrap(), i + 1);
        }
    }
}

/// Output that fails with an error other than a broken pipe.
struct FullDisk;

impl Write for FullDisk {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("no space left"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn other_write_errors_are_errors() {
    let err = Batch::new(
        Input::from_reader(Cursor::new(b"a\n".to_vec()), "t"),
        config(1),
    )
    .run_to(|| (), echo, FullDisk, io::sink(), &NEVER)
    .unwrap_err();
    assert_eq!(
        format!("{err:#}"),
        "cannot write the results: no space left"
    );
}

#[test]
fn arguments_run_as_items() {
    let args = vec!["a".into(), "xb".into(), "".into()];
    let mut out = Vec::new();
    let mut err = Vec::new();
    let summary = Batch::new(Input::from_arguments(args), config(2))
        .run_to(|| (), echo, &mut out, &mut err, &NEVER)
        .unwrap()
        .summary;
    assert_eq!(String::from_utf8(out).unwrap(), "a\nfailed xb\n\n");
    assert_eq!(
        String::from_utf8(err).unwrap(),
        "alldiff: argument 2: starts with x\n"
    );
    assert_eq!(summary.exit_status(), EXIT_FAILURE);
}

#[test]
fn an_interrupt_keeps_exactly_the_finished_prefix() {
    let n = 5000u64;
    let input: String = (1..=n).map(|i| format!("{i}\n")).collect();
    for threads in [1, 2, 3] {
        let interrupt = AtomicBool::new(false);
        let mut out = Vec::new();
        let work = |_: &mut (), item: &Item, _| {
            let value: u64 = item.text().unwrap().parse().unwrap();
            if value == 700 {
                interrupt.store(true, Ordering::SeqCst);
            }
            if value >= 700 {
                // Later items are slow, so some are running when it comes.
                std::thread::sleep(Duration::from_millis(1));
            }
            ItemReport::success(value.to_string())
        };
        let ran = Batch::new(
            Input::from_reader(Cursor::new(input.clone().into_bytes()), "t"),
            config(threads),
        )
        .run_to(|| (), work, &mut out, io::sink(), &interrupt)
        .unwrap();
        assert!(ran.interrupted);
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with('\n') || text.is_empty());
        let lines: Vec<u64> = text.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
        assert!(lines.len() >= 699, "{} lines", lines.len());
        assert!(lines.len() < n as usize, "threads {threads}: not stopped");
        assert_eq!(ran.summary.total(), lines.len() as u64);
    }
}

/// A stream that hands out one line, then waits until the output shows the
/// answer to it before handing out the next.
struct Conversation {
    lines: std::vec::IntoIter<&'static str>,
    answered: Arc<Mutex<Vec<u8>>>,
    expected: String,
}

impl Read for Conversation {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !String::from_utf8_lossy(&lock(&self.answered)).ends_with(&self.expected) {
            assert!(
                std::time::Instant::now() < deadline,
                "no answer to {:?}",
                self.expected
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let Some(line) = self.lines.next() else {
            return Ok(0);
        };
        self.expected = line.to_owned();
        buf[..line.len()].copy_from_slice(line.as_bytes());
        Ok(line.len())
    }
}

/// Output shared with a [`Conversation`].
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        lock(&self.0).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn each_answer_comes_before_the_next_line_is_read() {
    for threads in [1, 2] {
        let answered = Arc::new(Mutex::new(Vec::new()));
        let reader = Conversation {
            lines: vec!["a\n", "b\n", "c\n"].into_iter(),
            answered: Arc::clone(&answered),
            expected: String::new(),
        };
        let ran = Batch::new(Input::from_reader(reader, "t"), config(threads))
            .run_to(
                || (),
                echo,
                Shared(Arc::clone(&answered)),
                io::sink(),
                &NEVER,
            )
            .unwrap();
        assert_eq!(ran.summary.succeeded, 3);
        assert_eq!(lock(&answered).as_slice(), b"a\nb\nc\n");
    }
}

#[test]
fn a_slow_item_holds_back_at_most_a_window_of_others() {
    let n = 4000u64;
    let input: String = (1..=n).map(|i| format!("{i}\n")).collect();
    let started_during_slow = AtomicU64::new(0);
    let slow_running = AtomicBool::new(false);
    let work = |_: &mut (), item: &Item, _| {
        let value: u64 = item.text().unwrap().parse().unwrap();
        if value == 1 {
            slow_running.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(300));
            slow_running.store(false, Ordering::SeqCst);
        } else if slow_running.load(Ordering::SeqCst) {
            started_during_slow.fetch_max(value, Ordering::SeqCst);
        }
        ItemReport::success(value.to_string())
    };
    let (summary, out, _) = run_on(Cursor::new(input.into_bytes()), config(2), || (), work);
    assert_eq!(summary.succeeded, n);
    assert_eq!(out.lines().count(), n as usize);
    let furthest = started_during_slow.load(Ordering::SeqCst);
    assert!(furthest > 1, "the other worker went on");
    assert!(
        furthest <= MIN_WINDOW,
        "item {furthest} started while item 1 ran"
    );
}
