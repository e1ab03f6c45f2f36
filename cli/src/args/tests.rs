//! Parsing the command line: values, defaults and usage errors.

use super::*;
use clap::CommandFactory;
use clap::error::ErrorKind;

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("alldiff").chain(args.iter().copied()))
}

fn puzzle_args(cli: Cli) -> PuzzleArgs {
    match cli.command {
        Command::Solve(a) => a.puzzles,
        Command::Count(a) => a.puzzles,
        Command::Validate(a) => a.puzzles,
        Command::Rate(a) => a.puzzles,
        Command::Explain(a) => a.puzzles,
        Command::Generate(_) | Command::Trace(_) | Command::Fzn(_) | Command::Minizinc(_) => {
            panic!("no puzzle arguments")
        }
    }
}

#[test]
fn clap_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn every_puzzle_subcommand_takes_the_shared_group() {
    for sub in ["solve", "count", "validate", "rate", "explain"] {
        let cli = parse(&[sub, "--format", "json", "--threads", "3", "p1", "p2"]).unwrap();
        let args = puzzle_args(cli);
        assert_eq!(
            args.puzzles,
            vec![OsString::from("p1"), OsString::from("p2")]
        );
        assert_eq!(args.input, None);
        assert_eq!(args.output.format, Some(Format::Json));
        assert_eq!(args.output.threads, NonZeroUsize::new(3));
    }
    let cli = parse(&["generate", "-f", "line", "-j", "1"]).unwrap();
    let Command::Generate(g) = cli.command else {
        panic!("expected generate")
    };
    assert_eq!(g.output.format, Some(Format::Line));
    assert_eq!(g.output.threads(), NonZeroUsize::MIN);
}

#[test]
fn input_file_and_positional_puzzles_conflict() {
    let err = parse(&["solve", "--input", "f.txt", "p1"]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ArgumentConflict);
    let args = puzzle_args(parse(&["solve", "-i", "f.txt"]).unwrap());
    assert_eq!(args.input, Some(PathBuf::from("f.txt")));
    assert!(args.puzzles.is_empty());
}

#[test]
fn zero_or_garbage_threads_is_a_usage_error() {
    for bad in ["0", "-1", "two", ""] {
        let flag = format!("--threads={bad}");
        let err = parse(&["solve", &flag]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ValueValidation, "--threads {bad:?}");
        assert_eq!(err.exit_code(), 2);
    }
    let err = parse(&["solve", "--threads", "0"]).unwrap_err();
    assert!(err.to_string().contains("at least 1"), "{err}");
}

#[test]
fn limit_zero_and_bad_sizes_are_usage_errors() {
    let err = parse(&["count", "--limit", "0"]).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(parse(&["generate", "--size", "10"]).is_err());
    assert!(parse(&["generate", "--box-size", "6"]).is_err());
    assert!(parse(&["generate", "--size", "16", "--box-size", "4"]).is_err());
    assert!(parse(&["generate", "--hide-random", "40", "--hints", "30"]).is_err());
    let err = parse(&["generate", "--attempts", "0"]).unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn unknown_format_is_a_usage_error() {
    let err = parse(&["count", "--format", "xml"]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
}

#[test]
fn a_subcommand_is_required() {
    assert!(parse(&[]).is_err());
}

#[test]
fn format_defaults_to_grid_on_a_terminal_and_line_elsewhere() {
    assert_eq!(Format::resolve(None, true), Format::Grid);
    assert_eq!(Format::resolve(None, false), Format::Line);
    for &f in Format::value_variants() {
        assert_eq!(Format::resolve(Some(f), true), f);
        assert_eq!(Format::resolve(Some(f), false), f);
    }
}

#[test]
fn threads_are_capped_by_the_cores_and_the_items() {
    let args = puzzle_args(parse(&["solve", "--threads", "100000"]).unwrap());
    assert_eq!(args.output.threads(), max_threads());
    assert_eq!(args.output.threads_for(1), NonZeroUsize::MIN);
    assert_eq!(args.output.threads_for(0), max_threads());
    let args = puzzle_args(parse(&["solve", "--threads", "1"]).unwrap());
    assert_eq!(args.output.threads_for(1000), NonZeroUsize::MIN);
}

#[test]
fn threads_default_to_every_core() {
    let args = puzzle_args(parse(&["solve"]).unwrap());
    assert_eq!(args.output.threads(), default_threads());
}

#[test]
fn help_mentions_exit_status_and_input_rules() {
    let mut cmd = Cli::command();
    let solve = cmd.find_subcommand_mut("solve").unwrap();
    let help = solve.render_long_help().to_string();
    assert!(help.contains("Exit status"), "{help}");
    assert!(help.contains("'#'"), "{help}");
    assert!(help.contains("--threads"), "{help}");
}
