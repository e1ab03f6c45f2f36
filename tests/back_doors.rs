//! The constraints and the Sudoku module use nothing of the engine that a user's code
//! could not: no crate-only (`pub(crate)`) item of the store, the propagators, the
//! variables, the identifiers or the search. A propagator written outside the crate
//! can then do whatever a built-in one does, and the Sudoku solver is a user of the
//! public API. Read from the source text (the compiler cannot tell, since
//! `pub(crate)` opens an item to the whole crate):
//!
//! - a crate-only item declared at a module's top level (the `Store`, a helper
//!   function), named in a `use` or a `crate::` path of their code;
//! - a crate-only method of a public type (`Context`, `Solver`, `VarId`), called
//!   anywhere in their code. A crate-only type's methods need the type first.
//!
//! A name that the engine also declares `pub` (the store's `min` and the context's)
//! cannot be told apart by its text, and is let through.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The engine: the modules below the constraints.
const ENGINE: &[&str] = &[
    "src/store",
    "src/propagator",
    "src/variables.rs",
    "src/ids.rs",
    "src/search",
];

/// Its users, which must do with its public API.
const USERS: &[&str] = &["src/constraints", "src/sudoku"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files at `path` (a file or a folder), but files of unit tests.
fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs")
        && path.file_name().is_some_and(|name| name != "tests.rs")
    {
        out.push(path.to_owned());
    }
}

fn files_of(paths: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        rust_files(&root().join(path), &mut files);
    }
    assert!(!files.is_empty(), "no file in {paths:?}");
    files
}

/// A file's code lines, each with its number: without comments and the contents of
/// string literals (quotes kept), up to its unit tests (a `#[cfg(test)]` module),
/// which may use anything.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut text_lines = text.lines().enumerate().peekable();
    while let Some((number, line)) = text_lines.next() {
        // A test module written inline ends the code; one in its own file
        // (`mod tests;`) is passed over.
        let next = text_lines.peek().map_or("", |(_, next)| next.trim());
        if line.trim_start().starts_with("#[cfg(test)]")
            && next.starts_with("mod ")
            && next.ends_with('{')
        {
            break;
        }
        let mut code = String::new();
        let mut in_string = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    in_string = !in_string;
                    code.push(c);
                }
                '\\' if in_string => {
                    chars.next();
                }
                '/' if !in_string && chars.peek() == Some(&'/') => break,
                _ if in_string => {}
                _ => code.push(c),
            }
        }
        lines.push((number + 1, code));
    }
    lines
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The type an `impl` header implements for: `impl<F: Fn(&A)> Tr for Ty<F>` gives `Ty`.
fn impl_type(header: &str) -> String {
    let header = header.split('{').next().unwrap();
    let rest = match header.rfind(" for ") {
        Some(at) => &header[at + 5..],
        None => {
            let rest = header.trim_start().strip_prefix("impl").unwrap();
            // Skip the generic parameters, `<...>`, nested or not.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in rest.char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    _ if depth == 0 && !c.is_whitespace() => {
                        start = i;
                        break;
                    }
                    _ => {}
                }
            }
            &rest[start..]
        }
    };
    ident(rest).to_owned()
}

/// What the engine declares.
#[derive(Default)]
struct Engine {
    /// Names declared `pub` anywhere: types, functions, methods, constants.
    public: BTreeSet<String>,
    /// Crate-only items at a module's top level (re-exports included).
    crate_items: BTreeSet<String>,
    /// Crate-only methods, each with the type it belongs to.
    crate_methods: BTreeSet<(String, String)>,
}

const KINDS: &[&str] = &[
    "fn ", "struct ", "enum ", "trait ", "const ", "static ", "type ", "mod ",
];

fn read_engine() -> Engine {
    let mut engine = Engine::default();
    for path in files_of(ENGINE) {
        let text = fs::read_to_string(&path).unwrap();
        let mut owner = None;
        for (_, line) in code_lines(&text) {
            if line.starts_with("impl") {
                owner = Some(impl_type(&line));
            } else if line.starts_with('}') {
                owner = None;
            }
            let code = line.trim_start();
            let top_level = line.len() == code.len();
            let declared = |rest: &str| {
                let rest = rest.trim_start_matches("const fn ");
                KINDS
                    .iter()
                    .find_map(|kind| rest.strip_prefix(kind))
                    .map(|rest| ident(rest).to_owned())
            };
            if let Some(rest) = code.strip_prefix("pub ") {
                engine.public.extend(declared(rest));
            } else if let Some(rest) = code.strip_prefix("pub(crate) ") {
                if let Some(list) = rest.strip_prefix("use ") {
                    // `use a::{B, c}` or `use a::B`: the last segment of each, or its alias.
                    let list = list.trim_end_matches(';');
                    let list = list.rsplit_once('{').map_or(list, |(_, l)| l);
                    for item in list.trim_end_matches('}').split(',') {
                        let name = item.rsplit([':', ' ']).next().unwrap().trim();
                        if !name.is_empty() {
                            engine.crate_items.insert(name.to_owned());
                        }
                    }
                } else if let Some(name) = declared(rest) {
                    match (&owner, top_level) {
                        (_, true) => {
                            engine.crate_items.insert(name);
                        }
                        (Some(owner), false) => {
                            engine.crate_methods.insert((owner.clone(), name));
                        }
                        (None, false) => {}
                    }
                }
            }
        }
    }
    engine
}

/// Whether `word` stands in `code` as a whole identifier.
fn names(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Whether `code` calls a method or associated function `name`.
fn calls(code: &str, name: &str) -> bool {
    [".", "::"].iter().any(|sep| {
        code.match_indices(&format!("{sep}{name}"))
            .any(|(at, found)| {
                let after = code[at + found.len()..].trim_start();
                after.starts_with('(') || after.starts_with("::<")
            })
    })
}

#[test]
fn constraints_and_sudoku_use_no_crate_only_item_of_the_engine() {
    let engine = read_engine();
    // The reading sees what it must, so the test cannot pass blind.
    assert!(engine.public.contains("Context"), "{:?}", engine.public);
    assert!(
        engine.crate_items.contains("Store"),
        "{:?}",
        engine.crate_items
    );
    assert!(
        (engine.crate_methods.iter()).any(|(owner, name)| owner == "VarId" && name == "raw"),
        "{:?}",
        engine.crate_methods
    );
    let items: Vec<&String> = (engine.crate_items.iter())
        .filter(|name| !engine.public.contains(*name))
        .collect();
    let methods: Vec<&(String, String)> = (engine.crate_methods.iter())
        .filter(|(owner, name)| engine.public.contains(owner) && !engine.public.contains(name))
        .collect();
    let mut found = Vec::new();
    for path in files_of(USERS) {
        let text = fs::read_to_string(&path).unwrap();
        let file = path.strip_prefix(root()).unwrap().display();
        let mut in_use = false;
        for (number, code) in code_lines(&text) {
            in_use |= code.trim_start().starts_with("use ");
            // A crate-only item is reached in a `use` or through a `crate::` path.
            let paths: Vec<&str> = if in_use {
                vec![&code]
            } else {
                (code.match_indices("crate::"))
                    .map(|(at, _)| {
                        let path = &code[at..];
                        let end = path
                            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                            .unwrap_or(path.len());
                        &path[..end]
                    })
                    .collect()
            };
            for name in &items {
                if paths.iter().any(|path| names(path, name)) {
                    found.push(format!("{file}:{number}: names the crate-only `{name}`"));
                }
            }
            for (owner, name) in &methods {
                if calls(&code, name) {
                    found.push(format!(
                        "{file}:{number}: calls the crate-only `{owner}::{name}`"
                    ));
                }
            }
            in_use &= !code.contains(';');
        }
    }
    assert!(found.is_empty(), "back doors:\n{}", found.join("\n"));
}

#[test]
fn the_reading_tells_items_methods_and_calls_apart() {
    assert_eq!(
        impl_type("impl<F: Fn(&Context<'_>, i32) -> bool> Support for Within<F> {"),
        "Within"
    );
    assert_eq!(impl_type("impl<const W: usize> Kernel<W> {"), "Kernel");
    assert_eq!(impl_type("impl Context<'_> {"), "Context");
    let text = "let a = \"// crate::x\"; // ctx.raw()\nb.raw() // c\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod tests {\nd";
    let lines = code_lines(text);
    let code: Vec<&str> = lines.iter().map(|(_, code)| code.trim()).collect();
    assert_eq!(
        code,
        ["let a = \"\";", "b.raw()", "#[cfg(test)]", "mod tests;"]
    );
    assert!(calls("x.raw ()", "raw") && calls("Store::packed_bounds(w)", "packed_bounds"));
    assert!(!calls("x.raw_value()", "raw") && !calls("x.raw", "raw"));
    assert!(names("use crate::store::Store;", "Store") && !names("StoreX", "Store"));
}
