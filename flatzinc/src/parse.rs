//! FlatZinc text into statements, each with the line it starts on.
//!
//! The text is cut at each `;` outside comments and strings, comments are blanked,
//! and each statement goes through the `flatzinc` crate's statement parser, so an
//! error always knows its line.

use flatzinc::Stmt;

use super::FlatZincError;

/// One parsed item and the 1-based line where it starts.
#[derive(Clone, Debug)]
pub(super) struct Statement {
    pub(super) line: usize,
    pub(super) stmt: Stmt,
}

/// The statements of `text`, comments left out.
pub(super) fn statements(text: &str) -> Result<Vec<Statement>, FlatZincError> {
    let mut statements = Vec::new();
    for (line, source) in split(text)? {
        let stmt = source.parse::<Stmt>().map_err(|_| {
            let shown: String = source.split_whitespace().collect::<Vec<_>>().join(" ");
            let shown = match shown.char_indices().nth(80) {
                Some((cut, _)) => format!("{}...", &shown[..cut]),
                None => shown,
            };
            FlatZincError::at(line, format!("syntax error in '{shown}'"))
        })?;
        if !matches!(stmt, Stmt::Comment(_)) {
            statements.push(Statement { line, stmt });
        }
    }
    Ok(statements)
}

/// The statements' texts (each ending in `;`, comments blanked out, no space before
/// a `::`) and the lines they start on.
fn split(text: &str) -> Result<Vec<(usize, String)>, FlatZincError> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = None;
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '%' => {
                // A comment runs to the end of the line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        current.push('\n');
                        break;
                    }
                }
                continue;
            }
            '"' => {
                start.get_or_insert(line);
                current.push(c);
                let mut escaped = false;
                for c in chars.by_ref() {
                    current.push(c);
                    if c == '\n' {
                        line += 1;
                    }
                    match (escaped, c) {
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => escaped = false,
                    }
                }
                continue;
            }
            // The parser takes no space between an annotation's `)` and the next
            // `::` (MiniZinc writes none): drop it.
            ':' if chars.peek() == Some(&':') && current.trim_end().ends_with(')') => {
                current.truncate(current.trim_end().len());
            }
            _ => {}
        }
        current.push(c);
        if c == '\n' {
            line += 1;
        } else if !c.is_whitespace() {
            start.get_or_insert(line);
        }
        if c == ';' {
            out.push((start.take().unwrap_or(line), std::mem::take(&mut current)));
        }
    }
    if let Some(start) = start {
        return Err(FlatZincError::at(start, "statement not closed by ';'"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn statements_start_at_their_first_character_and_skip_comments() {
        let text = "% a comment; still a comment\nvar 1..3: x;\n\n  constraint int_le(x,\n 2);\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].0, 2);
        assert_eq!(parts[1].0, 4);
        assert!(parts[1].1.contains("int_le(x,\n 2);"));
    }

    #[test]
    fn no_space_is_left_before_an_annotation() {
        let parts = split("solve :: a(1) \n :: b satisfy;").unwrap();
        assert_eq!(parts[0].1, "solve :: a(1):: b satisfy;");
    }

    #[test]
    fn an_unclosed_statement_names_its_line() {
        let error = split("var 1..3: x;\nsolve satisfy").unwrap_err();
        assert_eq!(error.to_string(), "line 2: statement not closed by ';'");
    }
}
