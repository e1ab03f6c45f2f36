//! `alldiff minizinc install`: makes alldiff a MiniZinc solver by writing its
//! solver configuration (`alldiff.msc`), its MiniZinc library (the files of
//! `share/minizinc/alldiff/`, embedded in the binary) and a launcher script
//! (a configuration's `executable` cannot carry the `fzn` subcommand) into a
//! folder MiniZinc searches.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::json;

use crate::args::{MinizincArgs, MinizincCommand};

/// The solver's id: `minizinc --solver alldiff` finds it by its last part.
const SOLVER_ID: &str = "org.alldiff.alldiff";
/// The configuration file's name.
const CONFIG_FILE: &str = "alldiff.msc";
/// The library folder's name, inside the installation folder.
const LIBRARY_DIR: &str = "alldiff";
/// The launcher's name, inside the installation folder.
const LAUNCHER: &str = "alldiff-fzn";
/// The list of the library files an installation wrote, in the library folder
/// (MiniZinc reads only its `.mzn` files): what the next one may replace or remove.
const MANIFEST: &str = ".alldiff-install";
/// The first line of the files written here (the launcher, the manifest).
const WRITTEN_BY: &str = "# Written by `alldiff minizinc install`";
/// The standard flags `alldiff fzn` takes, which MiniZinc passes on.
const STD_FLAGS: [&str; 7] = ["-a", "-f", "-n", "-p", "-r", "-s", "-t"];

/// Embeds the named files of `share/minizinc/alldiff/`.
macro_rules! library {
    ($($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../../../share/minizinc/alldiff/", $file)))),*]
    };
}

/// The MiniZinc library: file name and contents (a test checks that this is the
/// whole folder).
const LIBRARY: &[(&str, &str)] = library![
    "fzn_all_different_int.mzn",
    "fzn_circuit.mzn",
    "fzn_cumulative.mzn",
    "fzn_disjunctive.mzn",
    "fzn_disjunctive_strict.mzn",
    "fzn_global_cardinality.mzn",
    "fzn_global_cardinality_closed.mzn",
    "fzn_global_cardinality_low_up.mzn",
    "fzn_global_cardinality_low_up_closed.mzn",
    "fzn_inverse.mzn",
    "fzn_lex_less_int.mzn",
    "fzn_lex_lesseq_int.mzn",
    "fzn_subcircuit.mzn",
    "fzn_table_int.mzn",
    "redefinitions-2.0.mzn",
    "redefinitions.mzn",
];

/// Runs an `alldiff minizinc` subcommand.
pub(crate) fn minizinc(args: MinizincArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        MinizincCommand::Install { dir, force } => {
            let default = dir.is_none();
            let dir = match dir {
                Some(dir) => dir,
                None => default_dir()?,
            };
            let executable = std::env::current_exe()
                .and_then(fs::canonicalize)
                .context("cannot find the path of this alldiff binary")?;
            let written = install(&dir, &executable, force)?;
            let mut out = io::stdout().lock();
            for line in written {
                writeln!(out, "wrote {line}")?;
            }
            let dir = fs::canonicalize(&dir)?;
            if default {
                writeln!(out, "use it with: minizinc --solver alldiff MODEL.mzn")?;
            } else {
                writeln!(
                    out,
                    "use it with: MZN_SOLVER_PATH={} minizinc --solver alldiff MODEL.mzn",
                    shell_quote(&dir.display().to_string())
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `~/.minizinc/solvers`, the folder of user solver configurations MiniZinc
/// always searches.
fn default_dir() -> anyhow::Result<PathBuf> {
    match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => Ok(Path::new(&home).join(".minizinc").join("solvers")),
        _ => bail!("HOME is not set: give the folder with --dir"),
    }
}

/// Writes the configuration, the library and the launcher into `dir` (made if
/// missing) for the binary `executable`; returns what was written, one line each.
/// Only what an earlier installation wrote is replaced or removed; anything else in
/// the way is refused, unless `force`, which overwrites the configuration and the
/// launcher and installs beside the other files (never removing them).
fn install(dir: &Path, executable: &Path, force: bool) -> anyhow::Result<Vec<String>> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let dir = fs::canonicalize(dir)?;
    let library = dir.join(LIBRARY_DIR);
    let config = dir.join(CONFIG_FILE);
    let launcher = dir.join(LAUNCHER);
    let owned = owned_library(&library, &config)?;
    let foreign = foreign_files(&config, &launcher, &library, &owned)?;
    if !foreign.is_empty() {
        let listed = foreign
            .iter()
            .map(|path| path.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        if !force {
            bail!(
                "{listed}: not written by alldiff minizinc install, so left alone; \
                 move them away, or pass --force to overwrite {CONFIG_FILE} and {LAUNCHER} \
                 and install beside the other files (which stay)"
            );
        }
        eprintln!("alldiff: warning: --force: kept {listed}");
    }
    fs::create_dir_all(&library).with_context(|| format!("cannot create {}", library.display()))?;
    // Files of an earlier installation that this library no longer has would
    // still be read by MiniZinc.
    for name in owned.iter().filter(|name| !is_library_file(name)) {
        let path = library.join(name);
        match fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", path.display()));
            }
            _ => {}
        }
    }
    for (name, text) in LIBRARY {
        let path = library.join(name);
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let manifest = library.join(MANIFEST);
    let names: String = LIBRARY
        .iter()
        .map(|(name, _)| format!("{name}\n"))
        .collect();
    fs::write(
        &manifest,
        format!("{WRITTEN_BY}: the library files it installed.\n{names}"),
    )
    .with_context(|| format!("cannot write {}", manifest.display()))?;

    write_launcher(&launcher, executable)?;

    let text = serde_json::to_string_pretty(&configuration(&library, &launcher))?;
    fs::write(&config, text + "\n")
        .with_context(|| format!("cannot write {}", config.display()))?;

    Ok(vec![
        format!("{} (solver {SOLVER_ID})", config.display()),
        format!("{}/ ({} library files)", library.display(), LIBRARY.len()),
        format!("{} (runs {} fzn)", launcher.display(), executable.display()),
    ])
}

/// True for a file of this binary's library.
fn is_library_file(name: &str) -> bool {
    LIBRARY.iter().any(|(file, _)| *file == name)
}

/// The names of the library files an earlier installation wrote: those its
/// manifest lists (plain names only), or, before there were manifests, this
/// library's own names if the configuration beside them is alldiff's.
fn owned_library(library: &Path, config: &Path) -> anyhow::Result<Vec<String>> {
    let manifest = library.join(MANIFEST);
    match fs::read_to_string(&manifest) {
        Ok(text) => Ok(text
            .lines()
            .filter(|line| !line.starts_with('#') && is_plain_name(line))
            .map(str::to_owned)
            .collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(match is_our_config(config) {
            true => LIBRARY.iter().map(|(name, _)| (*name).to_owned()).collect(),
            false => Vec::new(),
        }),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", manifest.display())),
    }
}

/// True for a file name without a folder (a manifest never names a file elsewhere).
fn is_plain_name(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    )
}

/// The files in the way that an earlier installation did not write: a
/// configuration with another id, a launcher without its first line, and the
/// entries of the library folder it did not list.
fn foreign_files(
    config: &Path,
    launcher: &Path,
    library: &Path,
    owned: &[String],
) -> anyhow::Result<Vec<PathBuf>> {
    let mut foreign = Vec::new();
    if config.exists() && !is_our_config(config) {
        foreign.push(config.to_owned());
    }
    if launcher.exists() && !is_our_launcher(launcher) {
        foreign.push(launcher.to_owned());
    }
    let entries = match fs::read_dir(library) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(foreign),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", library.display())),
    };
    let mut unknown = Vec::new();
    for entry in entries {
        let name = entry?.file_name();
        let listed = name
            .to_str()
            .is_some_and(|name| name == MANIFEST || owned.iter().any(|owned| owned == name));
        if !listed {
            unknown.push(library.join(name));
        }
    }
    unknown.sort();
    foreign.extend(unknown);
    Ok(foreign)
}

/// True if `path` is a launcher written here: its second line says so.
fn is_our_launcher(path: &Path) -> bool {
    fs::read_to_string(path).is_ok_and(|text| {
        text.lines()
            .nth(1)
            .is_some_and(|line| line.starts_with(WRITTEN_BY))
    })
}

/// True if `path` is a solver configuration with alldiff's id.
fn is_our_config(path: &Path) -> bool {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|config| config["id"] == SOLVER_ID)
}

/// The solver configuration (MiniZinc's `.msc` JSON).
fn configuration(library: &Path, launcher: &Path) -> serde_json::Value {
    json!({
        "id": SOLVER_ID,
        "name": "alldiff",
        "description": "alldiff, a constraint-programming engine in Rust (FlatZinc front end)",
        "version": env!("CARGO_PKG_VERSION"),
        "mznlib": library.display().to_string(),
        "executable": launcher.display().to_string(),
        "tags": ["cp", "int"],
        "stdFlags": STD_FLAGS,
        "extraFlags": [
            ["--trace", "Write a JSON Lines trace of the search to this file", "string", ""],
            ["--trace-cap", "With --trace: at most this many event lines", "int", "1000000"],
        ],
        "supportsMzn": false,
        "supportsFzn": true,
        "needsSolns2Out": true,
        "needsMznExecutable": false,
        "needsStdlibDir": false,
        "isGUIApplication": false,
    })
}

/// Writes the launcher: a shell script that runs `executable fzn` with the
/// arguments MiniZinc gives it.
fn write_launcher(path: &Path, executable: &Path) -> anyhow::Result<()> {
    let script = format!(
        "#!/bin/sh\n\
         {WRITTEN_BY}: MiniZinc runs this as the solver alldiff.\n\
         exec {} fzn \"$@\"\n",
        shell_quote(&executable.display().to_string())
    );
    fs::write(path, script).with_context(|| format!("cannot write {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))
            .with_context(|| format!("cannot make {} executable", path.display()))?;
    }
    Ok(())
}

/// `text` in single quotes for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_library_is_the_whole_share_folder() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../share/minizinc/alldiff");
        let mut on_disk: Vec<String> = fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".mzn"))
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = LIBRARY.iter().map(|(name, _)| *name).collect();
        assert_eq!(embedded, on_disk, "update LIBRARY in {}", file!());
    }

    #[test]
    fn the_configuration_names_what_was_installed() {
        let guard = tempfile::Builder::new()
            .prefix("alldiff-install-")
            .tempdir()
            .unwrap();
        let dir = guard.path();
        // A file an earlier installation listed, which this library has not.
        fs::create_dir_all(dir.join(LIBRARY_DIR)).unwrap();
        fs::write(dir.join(LIBRARY_DIR).join("stale.mzn"), "").unwrap();
        fs::write(dir.join(LIBRARY_DIR).join(MANIFEST), "# old\nstale.mzn\n").unwrap();
        let written = install(dir, Path::new("/opt/it's/alldiff"), false).unwrap();
        assert_eq!(written.len(), 3);
        let dir = fs::canonicalize(dir).unwrap();
        let config: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join(CONFIG_FILE)).unwrap()).unwrap();
        assert!(config["id"].as_str().unwrap().ends_with("alldiff"));
        assert_eq!(
            config["mznlib"],
            dir.join(LIBRARY_DIR).display().to_string()
        );
        assert_eq!(
            config["executable"],
            dir.join(LAUNCHER).display().to_string()
        );
        assert_eq!(config["supportsFzn"], true);
        assert!(!dir.join(LIBRARY_DIR).join("stale.mzn").exists());
        for (name, text) in LIBRARY {
            assert_eq!(
                fs::read_to_string(dir.join(LIBRARY_DIR).join(name)).unwrap(),
                *text
            );
        }
        let launcher = fs::read_to_string(dir.join(LAUNCHER)).unwrap();
        assert!(
            launcher.ends_with("exec '/opt/it'\\''s/alldiff' fzn \"$@\"\n"),
            "{launcher}"
        );
        assert!(is_our_launcher(&dir.join(LAUNCHER)));
        // Installing again replaces its own files without --force.
        assert!(install(&dir, Path::new("/opt/alldiff"), false).is_ok());
    }

    #[test]
    fn a_manifest_names_nothing_outside_its_folder() {
        assert!(is_plain_name("fzn_circuit.mzn"));
        for name in ["../x.mzn", "/etc/passwd", "a/b.mzn", "", ".."] {
            assert!(!is_plain_name(name), "{name}");
        }
    }
}
