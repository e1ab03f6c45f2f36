//! `alldiff trace`: read a trace recorded by `solve --trace`.

use std::fs::File;
use std::io::{self, BufReader, Write as _};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use alldiff::trace::{DotOptions, NodeStatus, Trace, ViewOptions};
use anyhow::{Context as _, bail};

use crate::args::{TraceArgs, TraceCommand, TreeFormat};
use crate::output_file::{Read, ensure_not_read};

/// Runs a `trace` subcommand.
pub(crate) fn trace(args: TraceArgs) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    match args.command {
        TraceCommand::Summary { file } => {
            let trace = load(&file)?;
            writeln!(out, "{}", trace.summary())?;
            if let Some(incomplete) = trace.incomplete() {
                out.flush()?;
                eprintln!("alldiff: {}: {incomplete}", file.display());
                return Ok(ExitCode::from(1));
            }
        }
        TraceCommand::Tree {
            file,
            max_nodes,
            no_collapse,
            format,
        } => {
            let trace = load_warning(&file)?;
            let dot = trace.to_dot(DotOptions {
                max_nodes,
                collapse_failed: !no_collapse,
            });
            match format {
                TreeFormat::Dot => out.write_all(dot.as_bytes())?,
                TreeFormat::Svg => {
                    drop(out);
                    return render_svg(&dot).map(|()| ExitCode::SUCCESS);
                }
            }
        }
        TraceCommand::Replay { file, node } => {
            let trace = load_warning(&file)?;
            let domains = trace
                .replay(node)
                .with_context(|| format!("cannot replay node {node} of {}", file.display()))?;
            if let Some(failure) = failure_line(&trace, node, &domains) {
                writeln!(out, "{failure}")?;
            }
            let text = match trace.header().grid_side() {
                Some(side) => candidate_grid(side, &domains),
                None => variable_lines(&trace, &domains),
            };
            out.write_all(text.as_bytes())?;
        }
        TraceCommand::View {
            file,
            output,
            max_nodes,
        } => {
            let output = output.unwrap_or_else(|| file.with_extension("html"));
            let read = Read::File {
                what: "the trace",
                path: &file,
            };
            ensure_not_read(&output, "-o", &[read])?;
            let trace = load_warning(&file)?;
            let page = trace.to_html(ViewOptions { max_nodes });
            if output == Path::new("-") {
                out.write_all(page.as_bytes())?;
            } else {
                std::fs::write(&output, page)
                    .with_context(|| format!("cannot write {}", output.display()))?;
                eprintln!("wrote {}", output.display());
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Reads and checks a trace file; errors name the path.
fn load(path: &Path) -> anyhow::Result<Trace> {
    let shown = path.display();
    let file = File::open(path).with_context(|| format!("cannot open {shown}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        bail!("cannot read {shown}: it is a directory, not a trace");
    }
    Trace::parse(BufReader::new(file)).with_context(|| format!("{shown} is not a valid trace"))
}

/// [`load`], with a warning on standard error if the trace is incomplete.
fn load_warning(path: &Path) -> anyhow::Result<Trace> {
    let trace = load(path)?;
    if let Some(incomplete) = trace.incomplete() {
        eprintln!("alldiff: warning: {}: {incomplete}", path.display());
    }
    Ok(trace)
}

/// For a failed node, what failed: the constraint, or the decision alone, and the
/// variables left without a value.
fn failure_line(trace: &Trace, node: u64, domains: &[Vec<i32>]) -> Option<String> {
    let node = trace
        .node(node)
        .filter(|n| n.status == NodeStatus::Failed)?;
    let culprit = match (node.failed_by, node.decision) {
        (Some(c), _) => format!(
            "constraint #{c} {} found no solution",
            trace.constraint_kind(c)
        ),
        (None, Some((var, op, value))) => format!(
            "the decision {} {} {value} emptied a domain by itself",
            trace.var_name(var),
            op.symbol()
        ),
        (None, None) => "an assumption emptied a domain".to_owned(),
    };
    let empty: Vec<String> = (0u32..)
        .zip(domains)
        .filter(|(_, d)| d.is_empty())
        .map(|(var, _)| trace.var_name(var))
        .collect();
    let empty = match empty.is_empty() {
        true => String::new(),
        false => format!(" (no value left for {})", empty.join(", ")),
    };
    Some(format!("node {} failed: {culprit}{empty}", node.id))
}

/// Pipes the DOT text through `dot -Tsvg` to standard output.
fn render_svg(dot: &str) -> anyhow::Result<()> {
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == io::ErrorKind::NotFound => bail!(
            "--format svg needs the `dot` program of Graphviz, which is not installed \
             (or not on PATH); use --format dot and render the text elsewhere"
        ),
        Err(e) => return Err(e).context("cannot run `dot -Tsvg`"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // `dot` reads all its input before writing; a write error shows in
        // its exit status below.
        let _ = stdin.write_all(dot.as_bytes());
    }
    let status = child.wait().context("cannot run `dot -Tsvg`")?;
    if !status.success() {
        bail!("`dot -Tsvg` failed ({status})");
    }
    Ok(())
}

/// The symbol of a Sudoku digit: `1`-`9`, then `A` for 10 up to `P` for 25.
fn symbol(value: i32) -> char {
    match u32::try_from(value) {
        Ok(v @ 1..=9) => char::from_digit(v, 10).unwrap_or('?'),
        Ok(v @ 10..=35) => char::from_digit(v, 36).map_or('?', |c| c.to_ascii_uppercase()),
        _ => '?',
    }
}

/// The domains as a candidate grid: each cell's candidates, padded to the
/// widest cell, with `|` between boxes and `-`/`+` lines between bands; `!`
/// for a cell without candidates.
fn candidate_grid(side: usize, domains: &[Vec<i32>]) -> String {
    let box_size = side.isqrt();
    let cells: Vec<String> = domains
        .iter()
        .map(|d| {
            if d.is_empty() {
                "!".to_owned()
            } else {
                d.iter().copied().map(symbol).collect()
            }
        })
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(1);
    let rows: Vec<String> = cells
        .chunks(side)
        .map(|row| {
            let mut line = String::new();
            for (col, cell) in row.iter().enumerate() {
                if col > 0 {
                    line.push_str(if col % box_size == 0 { " | " } else { " " });
                }
                line.push_str(&format!("{cell:<width$}"));
            }
            line.trim_end().to_owned()
        })
        .collect();
    // The separator follows the widest row: `+` under each `|`, `-` elsewhere.
    let separator: String = rows
        .iter()
        .max_by_key(|r| r.len())
        .map(|r| {
            r.chars()
                .map(|c| if c == '|' { '+' } else { '-' })
                .collect()
        })
        .unwrap_or_default();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 && i % box_size == 0 {
            out.push_str(&separator);
            out.push('\n');
        }
        out.push_str(row);
        out.push('\n');
    }
    out
}

/// One line per variable: `name: v1 v2 ...`.
fn variable_lines(trace: &Trace, domains: &[Vec<i32>]) -> String {
    let mut out = String::new();
    for (var, domain) in (0u32..).zip(domains) {
        let values: Vec<String> = domain.iter().map(ToString::to_string).collect();
        let values = if values.is_empty() {
            "(empty)".to_owned()
        } else {
            values.join(" ")
        };
        out.push_str(&format!("{}: {values}\n", trace.var_name(var)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_aligned_with_box_separators() {
        let domains: Vec<Vec<i32>> = (0..16)
            .map(|i| match i {
                0 => vec![1, 2],
                5 => vec![],
                _ => vec![(i % 4) + 1],
            })
            .collect();
        assert_eq!(
            candidate_grid(4, &domains),
            "12 2  | 3  4\n\
             1  !  | 3  4\n\
             ------+-----\n\
             1  2  | 3  4\n\
             1  2  | 3  4\n"
        );
    }

    #[test]
    fn symbols_go_past_nine_in_letters() {
        assert_eq!(symbol(9), '9');
        assert_eq!(symbol(10), 'A');
        assert_eq!(symbol(25), 'P');
        assert_eq!(symbol(0), '?');
    }
}
