//! The library's modules depend on each other one way, as `docs/architecture.md`
//! declares: each module's code (tests aside) names only modules below it. The order
//! is read from the document, so the two cannot drift apart.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

const DECLARATION: &str = "dependencies point one way, down this list:";

/// The declared levels, lowest first: each a set of top-level modules of `src/`.
fn declared_levels() -> Vec<Vec<String>> {
    let doc = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let start = doc
        .find(DECLARATION)
        .expect("docs/architecture.md declares the dependency order");
    let sentence = &doc[start + DECLARATION.len()..];
    let sentence = &sentence[..sentence.find('.').unwrap()];
    let mut levels: Vec<Vec<String>> = sentence
        .split('→')
        .map(|level| {
            level
                .split('/')
                .map(|m| m.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect();
    levels.reverse();
    levels
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The top-level module a file of `src/` belongs to (`src/search/mod.rs`: `search`).
fn module_of(path: &Path) -> String {
    let relative = path.strip_prefix(root().join("src")).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_str().unwrap().trim_end_matches(".rs").to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Which module each name the crate root re-exports comes from (`Solver`: `search`).
fn reexports() -> HashMap<String, String> {
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mut names = HashMap::new();
    for statement in lib.split(';') {
        let statement = statement.trim();
        let Some(rest) = statement.rfind("pub use ").map(|i| &statement[i + 8..]) else {
            continue;
        };
        let (module, items) = rest.split_once("::").unwrap();
        for item in items.split([',', '{', '}']) {
            let item = item.trim();
            if !item.is_empty() {
                names.insert(item.to_owned(), module.to_owned());
            }
        }
    }
    names
}

/// The first segment of each path a file's code names through `crate::` (a module,
/// or a name the crate root re-exports), with its line; comments, and everything from
/// the unit tests on, are left out.
fn crate_paths(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + 7..];
            let mut names: Vec<&str> = Vec::new();
            if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a, b::C}`, on this line or the next ones.
                let mut group = group.to_owned();
                let mut more = text.lines().skip(number + 1);
                while !group.contains('}') {
                    group.push_str(more.next().unwrap());
                }
                let group = &group[..group.find('}').unwrap()];
                for item in group.split(',') {
                    let head = item.trim().split("::").next().unwrap().trim();
                    if !head.is_empty() {
                        found.push((head.to_owned(), number + 1));
                    }
                }
            } else {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                names.push(&rest[..end]);
            }
            for name in names {
                found.push((name.to_owned(), number + 1));
            }
        }
    }
    found
}

/// [`crate_paths`], with re-exported names resolved to their modules.
fn named_modules(text: &str, reexports: &HashMap<String, String>) -> Vec<(String, usize)> {
    (crate_paths(text).into_iter())
        .map(|(name, line)| (reexports.get(&name).cloned().unwrap_or(name), line))
        .collect()
}

#[test]
fn no_module_names_one_above_it() {
    let levels = declared_levels();
    let level_of: HashMap<&str, usize> = (levels.iter().enumerate())
        .flat_map(|(i, level)| level.iter().map(move |m| (m.as_str(), i)))
        .collect();
    let reexports = reexports();
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut checked = 0;
    let mut violations = Vec::new();
    for path in files {
        let module = module_of(&path);
        // The crate root and the binary sit above every module.
        let Some(&own) = level_of.get(module.as_str()) else {
            assert!(
                ["lib", "main", "cli"].contains(&module.as_str()),
                "{} is in no declared level: add it to docs/architecture.md",
                path.display()
            );
            continue;
        };
        // Unit tests may use anything: a `#[cfg(test)]` block (cut by the parser), or
        // a `tests.rs` file of them.
        if path.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (named, line) in named_modules(&text, &reexports) {
            checked += 1;
            let Some(&level) = level_of.get(named.as_str()) else {
                violations.push(format!(
                    "{}:{line}: names unknown `{named}`",
                    path.display()
                ));
                continue;
            };
            if named != module && level >= own {
                violations.push(format!(
                    "{}:{line}: `{module}` names `{named}`, which is not below it",
                    path.display()
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} references read: is the parser blind?"
    );
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_parser_sees_grouped_and_reexported_names() {
    let reexports = reexports();
    assert_eq!(reexports["Solver"], "search");
    let text = "use crate::{\n    Model, search::Step,\n};\nfn f() { crate::store::x(); }\n// crate::trace\n#[cfg(test)]\nuse crate::sudoku;";
    let named: Vec<String> = named_modules(text, &reexports)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert_eq!(named, ["model", "search", "store"]);
}

/// The modules the crate root declares `pub`.
fn public_modules() -> Vec<String> {
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    (lib.lines())
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_owned())
        .collect()
}

#[test]
fn the_sudoku_module_uses_only_the_public_api() {
    let public = public_modules();
    assert!(public.contains(&"sudoku".to_owned()), "{public:?}");
    let reexports = reexports();
    let mut files = Vec::new();
    rust_files(&root().join("src/sudoku"), &mut files);
    let mut private = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        for (head, line) in crate_paths(&text) {
            if !reexports.contains_key(&head) && !public.contains(&head) {
                private.push(format!("{}:{line}: crate::{head}", path.display()));
            }
        }
    }
    assert!(private.is_empty(), "private paths:\n{}", private.join("\n"));
}
