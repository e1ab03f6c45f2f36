//! Files a subcommand writes (`--trace`, `trace view -o`): never one it reads.
//!
//! Creating an output file truncates it, so an output that is one of the
//! inputs (by the same name, `./name`, a symbolic or hard link, or the file
//! redirected into standard input) would destroy what is to be read. Every
//! subcommand that writes a file asks [`ensure_not_read`] first, before
//! anything is opened for writing.

use std::fs::{self, Metadata};
use std::path::Path;

/// Something a subcommand reads, to compare an output file with.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Read<'a> {
    /// A file named on the command line; `what` names it in messages (`the
    /// --input file`, `the model`).
    File {
        /// What the file is, for messages.
        what: &'a str,
        /// Its path as given.
        path: &'a Path,
    },
    /// Standard input, which may be a file redirected in.
    StandardInput,
}

/// Fails with a usage error if the output file `output`, given as `option`,
/// is one of the `inputs`. Only an existing regular file can collide: a path
/// not made yet, a device (`/dev/null`) or a pipe is never destroyed by
/// writing.
pub(crate) fn ensure_not_read(
    output: &Path,
    option: &str,
    inputs: &[Read<'_>],
) -> anyhow::Result<()> {
    let Some(written) = fs::metadata(output).ok().filter(Metadata::is_file) else {
        return Ok(());
    };
    for &input in inputs {
        if is_read(output, &written, input) {
            let what = match input {
                Read::File { what, path } => format!("{what} {}", path.display()),
                Read::StandardInput => "the file standard input reads".to_owned(),
            };
            anyhow::bail!(
                "{option} {} is {what} (the same file): writing it would destroy it; \
                 choose another {option} file",
                output.display()
            );
        }
    }
    Ok(())
}

/// True if `input` is the file `output`, whose metadata is `written`: the same
/// device and inode on Unix, the same canonical path elsewhere.
#[cfg(unix)]
fn is_read(_output: &Path, written: &Metadata, input: Read<'_>) -> bool {
    use std::os::fd::AsFd as _;
    use std::os::unix::fs::MetadataExt as _;
    let read = match input {
        Read::File { path, .. } => fs::metadata(path).ok(),
        Read::StandardInput => std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .and_then(|fd| fs::File::from(fd).metadata().ok()),
    };
    read.is_some_and(|read| read.dev() == written.dev() && read.ino() == written.ino())
}

#[cfg(not(unix))]
fn is_read(output: &Path, _written: &Metadata, input: Read<'_>) -> bool {
    match input {
        Read::File { path, .. } => match (output.canonicalize(), path.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
        Read::StandardInput => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_over_an_input_is_refused_by_any_name() {
        let guard = tempfile::Builder::new()
            .prefix("alldiff-output-file-")
            .tempdir()
            .unwrap();
        let dir = guard.path();
        let input = dir.join("in.txt");
        fs::write(&input, b"a\n").unwrap();
        let read = [Read::File {
            what: "the --input file",
            path: &input,
        }];
        assert!(ensure_not_read(&dir.join("out.txt"), "--trace", &read).is_ok());
        assert!(ensure_not_read(&input, "--trace", &[]).is_ok());
        assert!(ensure_not_read(Path::new("/dev/null"), "--trace", &read).is_ok());
        let message = ensure_not_read(&input, "--trace", &read)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("--trace") && message.contains("--input"),
            "{message}"
        );
        let dotted = dir.join(".").join("in.txt");
        assert!(ensure_not_read(&dotted, "--trace", &read).is_err());
        #[cfg(unix)]
        {
            let linked = dir.join("hard.txt");
            fs::hard_link(&input, &linked).unwrap();
            assert!(ensure_not_read(&linked, "--trace", &read).is_err());
            let symbolic = dir.join("soft.txt");
            std::os::unix::fs::symlink(&input, &symbolic).unwrap();
            assert!(ensure_not_read(&symbolic, "--trace", &read).is_err());
        }
    }
}
