//! The page's answers on the host: what the WebAssembly exports return in the
//! browser (`web/src/lib.rs` passes these through), checked against the library.

use alldiff::sudoku::{Grid, check_solution};
use alldiff_web::api;
use serde_json::Value;

const HARD: &str =
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2";
const EASY: &str =
    "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63..";

fn grid(line: &str) -> Grid {
    line.parse().unwrap()
}

#[test]
fn solve_tells_unique_multiple_and_none_apart() {
    let answer = api::solve(HARD);
    assert_eq!(answer["status"], "unique");
    let solution = grid(answer["solution"].as_str().unwrap());
    check_solution(&grid(HARD), &solution).unwrap();
    assert_eq!(answer["nodes"], 366);
    assert_eq!(api::solve(&".".repeat(81))["status"], "multiple");
    let blocked = format!("12345678.........9{}", ".".repeat(63));
    let answer = api::solve(&blocked);
    assert_eq!(answer["status"], "none");
    assert_eq!(answer["solution"], Value::Null);
    assert!(api::solve("12x").get("error").is_some());
}

#[test]
fn validate_lists_the_conflicting_cells() {
    let answer = api::validate(&format!("1.1{}", ".".repeat(78)));
    assert_eq!(answer["conflicts"], serde_json::json!([0, 2]));
    assert_eq!(answer["messages"][0], "row 1 has 1 twice: r1c1, r1c3");
    assert_eq!(api::validate(EASY)["conflicts"], serde_json::json!([]));
}

#[test]
fn hint_ends_at_the_first_placement_which_the_solution_keeps() {
    let answer = api::hint(HARD);
    let steps = answer["steps"].as_array().unwrap();
    assert!(
        steps[..steps.len() - 1]
            .iter()
            .all(|s| s["placed"].is_null())
    );
    let placed = &steps.last().unwrap()["placed"];
    let cell = placed["cell"].as_u64().unwrap() as usize;
    let solution = api::solve(HARD)["solution"].as_str().unwrap().to_owned();
    assert_eq!(&HARD[cell..=cell], ".");
    assert_eq!(
        solution.as_bytes()[cell] - b'0',
        placed["digit"].as_u64().unwrap() as u8
    );
    assert!(
        api::hint(api::solve(EASY)["solution"].as_str().unwrap())
            .get("error")
            .is_some()
    );
}

#[test]
fn explain_places_every_blank_and_rates_as_rate_does() {
    let answer = api::explain(HARD);
    let steps = answer["steps"].as_array().unwrap();
    let mut cells: Vec<u8> = HARD.bytes().collect();
    for step in steps {
        if let Some(placed) = step["placed"].as_object() {
            let cell = placed["cell"].as_u64().unwrap() as usize;
            cells[cell] = b'0' + placed["digit"].as_u64().unwrap() as u8;
        }
    }
    assert_eq!(String::from_utf8(cells).unwrap(), answer["solution"]);
    assert_eq!(answer["difficulty"], api::rate(HARD)["difficulty"]);
    assert_eq!(api::rate(HARD)["difficulty"], "diabolical");
}

#[test]
fn generate_follows_the_options_and_the_seed() {
    let a = api::generate(3, 30, "rotate180", "any", 7);
    let puzzle = a["puzzle"].as_str().unwrap();
    assert_eq!(a["clues"], 30);
    assert_eq!(a, api::generate(3, 30, "rotate180", "any", 7));
    assert_eq!(api::solve(puzzle)["status"], "unique");
    let bytes = puzzle.as_bytes();
    assert!((0..81).all(|i| (bytes[i] == b'.') == (bytes[80 - i] == b'.')));
    assert_eq!(
        api::generate(2, 0, "none", "any", 1)["puzzle"]
            .as_str()
            .unwrap()
            .len(),
        16
    );
    assert!(
        api::generate(3, 30, "sideways", "any", 1)
            .get("error")
            .is_some()
    );
    assert!(api::generate(9, 0, "none", "any", 1).get("error").is_some());
}

#[test]
fn the_tree_page_is_the_viewers_with_the_solves_nodes() {
    let page = api::tree_page(HARD).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("id=\"trace-data\""));
    // The trace counts to two solutions as the solve does: its nodes are the solve's.
    assert!(page.contains("\"nodes\":366,"), "{}", &page[..200]);
    assert!(api::tree_page("1").is_err());
}

#[test]
fn flatzinc_prints_as_minizinc_does_with_the_tree() {
    let queens =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/site/index.html")).unwrap();
    // The example model of the page's FlatZinc box: 5-queens.
    let start = queens.find("var 1..5: q1").unwrap();
    let model = &queens[start..start + queens[start..].find("</textarea>").unwrap()];
    let answer = alldiff_web::flatzinc::solve(model, true);
    assert_eq!(answer["status"], "complete");
    assert_eq!(answer["solutions"], 10);
    let output = answer["output"].as_str().unwrap();
    assert_eq!(output.matches("----------\n").count(), 10);
    assert!(output.ends_with("==========\n"));
    assert!(
        answer["tree"]
            .as_str()
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    let first = alldiff_web::flatzinc::solve(model, false);
    assert_eq!(first["solutions"], 1);
    assert_eq!(first["status"], "solution limit");
    let none = alldiff_web::flatzinc::solve(
        "var 1..3: x;\nconstraint int_lt(x, 1);\nsolve satisfy;\n",
        false,
    );
    assert_eq!(none["output"], "=====UNSATISFIABLE=====\n");
    let bad = alldiff_web::flatzinc::solve("var 1..3: x;\nconstraint no_such(x);\n", false);
    assert!(
        bad["error"].as_str().unwrap().starts_with("line 2"),
        "{bad}"
    );
}
