//! Reading items from arguments, files and streams.
use super::*;
use std::io::{Cursor, Read};

fn all(mut input: Input) -> Vec<Item> {
    std::iter::from_fn(|| input.next_item().unwrap())
        .map(|(item, _)| item)
        .collect()
}

fn lines(input: &[u8]) -> Vec<(u64, Vec<u8>)> {
    all(Input::from_reader(Cursor::new(input.to_vec()), "t"))
        .into_iter()
        .map(|item| (item.number(), item.bytes().to_vec()))
        .collect()
}

#[test]
fn blank_and_comment_lines_are_skipped_but_counted() {
    let input = b"a\n\n   \n\t\n# comment\n   # indented comment\nb\n#\nc";
    assert_eq!(
        lines(input),
        vec![(1, b"a".to_vec()), (7, b"b".to_vec()), (9, b"c".to_vec())]
    );
}

#[test]
fn white_space_around_a_puzzle_is_kept_and_hash_later_in_a_line_is_not_a_comment() {
    assert_eq!(lines(b"  x # y \n"), vec![(1, b"  x # y ".to_vec())]);
}

#[test]
fn empty_input_has_no_items() {
    assert!(lines(b"").is_empty());
    assert!(lines(b"\n\n# only comments\n").is_empty());
    assert!(lines(b"\xEF\xBB\xBF# comment\n").is_empty());
}

#[test]
fn bad_bytes_are_kept_and_reported_by_text() {
    let input = b"ok\n\xff\xfe\nnul\0here\nab\xc3\n";
    let items = all(Input::from_reader(Cursor::new(input.to_vec()), "t"));
    assert_eq!(items.len(), 4);
    assert_eq!(items[0].text(), Ok("ok"));
    assert_eq!(items[1].bytes(), b"\xff\xfe");
    assert_eq!(
        items[1].text().unwrap_err().to_string(),
        "line is not UTF-8 (byte 1)"
    );
    assert_eq!(
        items[2].text().unwrap_err().to_string(),
        "line contains a NUL byte (byte 4)"
    );
    assert_eq!(
        items[3].text().unwrap_err().to_string(),
        "line is not UTF-8 (byte 3)"
    );
    assert_eq!(items[3].number(), 4);
}

#[test]
fn a_huge_line_is_one_item_that_is_too_long() {
    let mut input = vec![b'7'; MAX_LINE_BYTES + 10];
    input.extend_from_slice(b"\r\nnext\n");
    for items in [
        all(Input::from_reader(Cursor::new(input.clone()), "t")),
        all(Input::puzzles_from_reader(Cursor::new(input), "t")),
    ] {
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].bytes().len(), MAX_LINE_BYTES);
        assert_eq!(
            items[0].text(),
            Err(LineError::TooLong {
                what: "line",
                len: MAX_LINE_BYTES + 10
            })
        );
        assert_eq!((items[1].number(), items[1].text()), (2, Ok("next")));
    }
}

/// A reader that fails after its data.
struct FailingReader(Cursor<Vec<u8>>);

impl Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_error_comes_after_the_items_before_it() {
    let reader = FailingReader(Cursor::new(b"a\nb\n".to_vec()));
    let mut input = Input::from_reader(reader, "test input");
    assert_eq!(input.next_item().unwrap().unwrap().0.text(), Ok("a"));
    assert_eq!(input.next_item().unwrap().unwrap().0.text(), Ok("b"));
    let err = input.next_item().unwrap_err();
    assert_eq!(format!("{err:#}"), "cannot read test input: disk on fire");
    assert!(input.next_item().unwrap().is_none());
    // An unfinished grid is reported before the error.
    let reader = FailingReader(Cursor::new(b"123456789\n".to_vec()));
    let mut input = Input::puzzles_from_reader(reader, "t");
    let (grid, _) = input.next_item().unwrap().unwrap();
    assert!(grid.text().is_err());
    assert!(input.next_item().is_err());
}

/// A slow stream: each read returns one part, as a person typing would.
struct Trickle(std::vec::IntoIter<&'static [u8]>);

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(part) = self.0.next() else {
            return Ok(0);
        };
        assert!(buf.len() >= part.len());
        buf[..part.len()].copy_from_slice(part);
        Ok(part.len())
    }
}

#[test]
fn a_stream_says_when_the_next_item_may_wait() {
    let parts: Vec<&'static [u8]> = vec![b"a\nb\n", b"# c\n", b"d\n"];
    let mut input = Input::from_reader(Trickle(parts.into_iter()), "t");
    assert!(input.may_block());
    let mut seen = Vec::new();
    while let Some((item, progress)) = input.next_item().unwrap() {
        seen.push((item.number(), progress, input.may_block()));
    }
    assert_eq!(seen, vec![(1, 2, false), (2, 4, true), (4, 10, true)]);
    let file = Input::from_arguments(vec!["x".into()]);
    assert!(!file.may_block());
}

#[test]
fn arguments_are_items_in_order_and_never_skipped() {
    let args = vec![
        OsString::from("p1"),
        OsString::from(""),
        OsString::from("# not a comment"),
    ];
    let input = Input::from_arguments(args);
    assert_eq!(input.progress_total(), Some(3));
    let got: Vec<(String, Vec<u8>)> = all(input)
        .iter()
        .map(|i| (i.origin().to_string(), i.bytes().to_vec()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("argument 1".to_owned(), b"p1".to_vec()),
            ("argument 2".to_owned(), b"".to_vec()),
            ("argument 3".to_owned(), b"# not a comment".to_vec()),
        ]
    );
}

/// A fresh folder under the system temp dir, removed when the guard drops.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("alldiff-cli-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let dir = temp_dir("missing");
    let path = dir.path().join("no-such-file.txt");
    let err = Input::from_path(&path).err().expect("must fail");
    let msg = format!("{err:#}");
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(msg.contains("No such file"), "{msg}");
}

#[test]
fn a_directory_is_an_error_naming_it() {
    let guard = temp_dir("dir");
    let dir = guard.path();
    let err = Input::from_path(dir).err().expect("must fail");
    let msg = format!("{err:#}");
    assert!(msg.contains(&dir.display().to_string()), "{msg}");
    assert!(msg.contains("is a directory"), "{msg}");
}

#[test]
fn an_empty_file_has_no_items_and_a_file_knows_its_size() {
    let guard = temp_dir("files");
    let dir = guard.path();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let mut input = Input::from_path(&empty).unwrap();
    assert!(input.next_item().unwrap().is_none());

    let full = dir.join("full.txt");
    std::fs::write(&full, b"a\n# c\nb\n").unwrap();
    let mut input = Input::from_path(&full).unwrap();
    assert_eq!(input.progress_total(), Some(8));
    assert_eq!(input.next_item().unwrap().unwrap().1, 2);
    let (last, progress) = input.next_item().unwrap().unwrap();
    assert_eq!((last.number(), progress), (3, 8));
}
