//! Recorded traces: exact trees on small problems, agreement with the solver's
//! statistics, the DOT output, replay and the event cap.

mod common;
mod trace_support;

use common::queens;
use trace_support::one_truth;

use alldiff::sudoku::{Grid, Propagation, SudokuModel};
use alldiff::trace::{self, DotOptions, Incomplete, NodeStatus, Trace, TraceError};
use alldiff::{
    CountStatus, Model, Outcome, Restarts, SearchConfig, Solver, Strength, ValueOrder, VarId,
    VariableOrder,
};
use proptest::prelude::*;

/// A 4x4 Latin square (rows and columns all different) with the first row and the
/// first column given as 1 2 3 4.
fn latin4() -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let mut cells = Vec::new();
    for r in 0..4 {
        for c in 0..4 {
            let x = if r == 0 || c == 0 {
                let given = r + c + 1;
                model.int_var(given, given).unwrap()
            } else {
                model.int_var(1, 4).unwrap()
            };
            model.set_name(x, format!("r{}c{}", r + 1, c + 1)).unwrap();
            cells.push(x);
        }
    }
    for i in 0..4 {
        model
            .all_different((0..4).map(|c| cells[i * 4 + c]))
            .unwrap();
        model
            .all_different((0..4).map(|r| cells[r * 4 + i]))
            .unwrap();
    }
    (model, cells)
}

fn input_order() -> SearchConfig {
    SearchConfig::new()
        .variable_order(VariableOrder::InputOrder)
        .value_order(ValueOrder::Ascending)
}

/// Records a full count of `solver`'s solutions and parses the trace back.
fn count_and_parse(solver: &mut Solver, name: &str) -> Trace {
    let mut file = Vec::new();
    let (count, written) = trace::count_traced(solver, name, &mut file, None, None).unwrap();
    assert_eq!(count.status, CountStatus::Complete);
    assert!(!written.truncated());
    let trace = Trace::parse(&file[..]).unwrap();
    one_truth(&trace);
    trace
}

/// One line per node: `id<parent var op value status`.
fn tree_text(trace: &Trace) -> String {
    let mut text = String::new();
    for node in trace.nodes() {
        let status = match node.status {
            NodeStatus::Branch => "branch",
            NodeStatus::Failed => "failed",
            NodeStatus::Solution => "solution",
        };
        match (node.parent, node.decision) {
            (Some(parent), Some((var, op, value))) => text.push_str(&format!(
                "{}<{} {}{}{} {}\n",
                node.id,
                parent,
                trace.var_name(var),
                op.symbol(),
                value,
                status
            )),
            _ => text.push_str(&format!("{} root {}\n", node.id, status)),
        }
    }
    text
}

/// 6-queens, input order, ascending values, value elimination: every solution.
const QUEENS6_TREE: &str = "\
0 root branch
1<0 q0=1 branch
2<1 q1=3 branch
3<2 q2=5 failed
4<2 q2!=5 failed
5<1 q1!=3 branch
6<5 q1=4 branch
7<6 q2=2 failed
8<6 q2!=2 failed
9<5 q1!=4 branch
10<9 q1=5 failed
11<9 q1!=5 branch
12<11 q2=2 failed
13<11 q2!=2 failed
14<0 q0!=1 branch
15<14 q0=2 branch
16<15 q1=4 branch
17<16 q2=1 failed
18<16 q2!=1 branch
19<18 q3=1 solution
20<18 q3!=1 failed
21<15 q1!=4 branch
22<21 q1=5 branch
23<22 q2=1 failed
24<22 q2!=1 failed
25<21 q1!=5 branch
26<25 q2=1 failed
27<25 q2!=1 failed
28<14 q0!=2 branch
29<28 q0=3 branch
30<29 q1=1 branch
31<30 q2=4 failed
32<30 q2!=4 branch
33<32 q3=2 failed
34<32 q3!=2 failed
35<29 q1!=1 branch
36<35 q1=5 failed
37<35 q1!=5 branch
38<37 q2=2 solution
39<37 q2!=2 failed
40<28 q0!=3 branch
41<40 q0=4 branch
42<41 q1=1 branch
43<42 q2=3 failed
44<42 q2!=3 solution
45<41 q1!=1 branch
46<45 q1=2 failed
47<45 q1!=2 branch
48<47 q2=1 branch
49<48 q3=3 failed
50<48 q3!=3 failed
51<47 q2!=1 failed
52<40 q0!=4 branch
53<52 q0=5 branch
54<53 q1=1 branch
55<54 q2=4 failed
56<54 q2!=4 failed
57<53 q1!=1 branch
58<57 q1=2 branch
59<58 q2=4 failed
60<58 q2!=4 failed
61<57 q1!=2 branch
62<61 q2=1 branch
63<62 q3=4 failed
64<62 q3!=4 solution
65<61 q2!=1 failed
66<52 q0!=5 branch
67<66 q1=1 branch
68<67 q2=3 failed
69<67 q2!=3 failed
70<66 q1!=1 branch
71<70 q1=2 failed
72<70 q1!=2 branch
73<72 q1=3 branch
74<73 q2=1 failed
75<73 q2!=1 failed
76<72 q1!=3 branch
77<76 q2=1 failed
78<76 q2!=1 failed
";

/// The 4x4 Latin square with its first row and column given: every solution.
const LATIN4_TREE: &str = "\
0 root branch
1<0 r2c2=1 branch
2<1 r3c3=1 solution
3<1 r3c3!=1 solution
4<0 r2c2!=1 branch
5<4 r2c2=3 solution
6<4 r2c2!=3 solution
";

#[test]
fn six_queens_tree_is_exact() {
    let (model, q) = queens(6, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let trace = count_and_parse(&mut solver, "6-queens");
    assert_eq!(tree_text(&trace), QUEENS6_TREE);
    let stats = solver.statistics().clone();
    assert_eq!(stats.nodes, 78);
    assert_eq!(stats.solutions, 4);
    assert_eq!(trace.statistics(), Some(&stats));
    assert_eq!(trace.header().problem, "6-queens");
    assert_eq!(trace.header().variables.len(), 6);
    assert_eq!(trace.header().variables[2].name, "q2");
    assert_eq!(trace.header().variables[2].domain, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(trace.header().constraints.len(), 3);
    assert!(
        trace
            .header()
            .constraints
            .iter()
            .all(|c| c.kind == "all_different")
    );

    // The four solutions, read back from the trace by replay.
    let solutions: Vec<Vec<i32>> = trace
        .solution_nodes()
        .iter()
        .map(|&n| trace.replay(n).unwrap().iter().map(|d| d[0]).collect())
        .collect();
    assert_eq!(
        solutions,
        vec![
            vec![2, 4, 6, 1, 3, 5],
            vec![3, 6, 2, 5, 1, 4],
            vec![4, 1, 5, 2, 6, 3],
            vec![5, 3, 1, 6, 4, 2],
        ]
    );
    // And they are the solver's, in the same order.
    let from_solver: Vec<Vec<i32>> = solver
        .solutions()
        .map(Result::unwrap)
        .map(|s| q.iter().map(|&x| s[x]).collect())
        .collect();
    assert_eq!(solutions, from_solver);
}

#[test]
fn latin_square_tree_is_exact() {
    let (model, cells) = latin4();
    let mut solver = Solver::with_config(model, input_order());
    let trace = count_and_parse(&mut solver, "latin4");
    assert_eq!(tree_text(&trace), LATIN4_TREE);
    assert_eq!(solver.statistics().nodes, 6);
    assert_eq!(solver.statistics().failures, 0);
    // Root propagation alone removed values: the givens' row and column mates.
    let root = &trace.nodes()[0];
    assert!(!root.prunings.is_empty());
    assert!(root.prunings.iter().all(|p| p.rule == "value elimination"));
    // Every solution node replays to a Latin square.
    for n in trace.solution_nodes() {
        let domains = trace.replay(n).unwrap();
        assert!(domains.iter().all(|d| d.len() == 1));
        let value = |r: usize, c: usize| domains[cells[r * 4 + c].index()][0];
        for i in 0..4 {
            let mut row: Vec<i32> = (0..4).map(|c| value(i, c)).collect();
            let mut col: Vec<i32> = (0..4).map(|r| value(r, i)).collect();
            row.sort_unstable();
            col.sort_unstable();
            assert_eq!(row, [1, 2, 3, 4]);
            assert_eq!(col, [1, 2, 3, 4]);
        }
    }
}

#[test]
fn sudoku_4x4_tree_is_exact() {
    // A 4x4 grid with one "deadly pattern": swapping 1 and 2 in r1c1, r1c2, r3c1 and
    // r3c2 gives a second solution. Propagation cannot choose, so the search branches
    // once on r1c1 and each branch propagates to a solution.
    let puzzle = Grid::parse("..343412..434321").unwrap();
    let (model, cells) = SudokuModel::new(2, Propagation::HiddenSingles)
        .unwrap()
        .into_parts();
    let mut solver = Solver::with_config(model, input_order());
    for (&cell, &digit) in cells.iter().zip(puzzle.cells()) {
        if digit != 0 {
            solver.assume(cell, i32::from(digit)).unwrap();
        }
    }
    let trace = count_and_parse(&mut solver, "4x4 sudoku");
    assert_eq!(
        tree_text(&trace),
        "0 root branch\n1<0 r1c1=1 solution\n2<0 r1c1!=1 solution\n"
    );
    // Replaying each solution node gives the two grids.
    let grid_at = |node: u64| -> String {
        trace
            .replay(node)
            .unwrap()
            .iter()
            .map(|d| {
                assert_eq!(d.len(), 1, "a solution fixes every cell");
                char::from_digit(d[0] as u32, 10).unwrap()
            })
            .collect()
    };
    assert_eq!(grid_at(1), "1234341221434321");
    assert_eq!(grid_at(2), "2134341212434321");
    let stats = trace.statistics().unwrap();
    assert_eq!((stats.nodes, stats.failures, stats.solutions), (2, 0, 2));
}

#[test]
fn replay_at_the_root_equals_root_domains() {
    for n in 4..=8 {
        for strength in [Strength::Value, Strength::HiddenSingles, Strength::Domain] {
            let (model, q) = queens(n, strength);
            let mut solver = Solver::new(model);
            solver.assume(q[0], 2).unwrap();
            let mut file = Vec::new();
            trace::solve_traced(&mut solver, "q", &mut file, None).unwrap();
            let trace = Trace::parse(&file[..]).unwrap();
            one_truth(&trace);
            let root = solver.root_domains().expect("root propagation succeeds");
            assert_eq!(trace.replay(0).unwrap(), root, "n={n} {strength:?}");
            // The header holds the domains before propagation, assumption applied.
            assert_eq!(trace.header().variables[0].domain, vec![2]);
        }
    }
}

#[test]
fn summary_counts_agree_with_the_solver() {
    let (model, _) = queens(8, Strength::HiddenSingles);
    let mut solver = Solver::with_config(model, input_order());
    let trace = count_and_parse(&mut solver, "8-queens");
    let summary = trace.summary();
    let stats = solver.statistics();
    assert_eq!(summary.nodes, stats.nodes);
    assert_eq!(summary.failures, stats.failures);
    assert_eq!(summary.solutions, 92);
    assert_eq!(summary.depth_profile.iter().sum::<u64>(), stats.nodes + 1);
    assert_eq!(summary.depth_profile[0], 1);
    assert_eq!(summary.tree_depth as usize + 1, summary.depth_profile.len());
    assert_eq!(summary.decision_depth, stats.peak_depth);
    assert!(summary.decision_depth < summary.tree_depth);
    assert_eq!(
        summary.by_failures.iter().map(|c| c.count).sum::<u64>() + summary.decision_failures,
        stats.failures
    );
    assert!(!summary.by_prunings.is_empty());
    assert!(
        summary
            .by_prunings
            .windows(2)
            .all(|w| w[0].count >= w[1].count)
    );
    let removed: u64 = trace
        .nodes()
        .iter()
        .flat_map(|n| &n.prunings)
        .map(|p| p.values.len() as u64)
        .sum();
    assert_eq!(
        summary.by_prunings.iter().map(|c| c.count).sum::<u64>(),
        removed
    );
    assert_eq!(summary.by_rule.iter().map(|r| r.1).sum::<u64>(), removed);
    let text = summary.to_string();
    assert!(text.contains("solutions: 92"));
    assert!(text.contains("%%%mzn-stat: nodes="));
}

/// Every `nA -> nB` edge names declared nodes, and braces balance.
fn check_dot(dot: &str) -> (usize, usize) {
    assert!(dot.starts_with("digraph search {"));
    assert!(dot.trim_end().ends_with('}'));
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    let mut declared = std::collections::HashSet::new();
    let mut edges = Vec::new();
    for line in dot.lines().map(str::trim) {
        let Some((head, _)) = line.split_once(" [") else {
            continue;
        };
        match head.split_once(" -> ") {
            Some((a, b)) => edges.push((a.to_string(), b.to_string())),
            None if head == "node" || head == "edge" => {}
            None => {
                declared.insert(head.to_string());
            }
        }
    }
    for (a, b) in &edges {
        assert!(
            declared.contains(a) && declared.contains(b),
            "edge {a} -> {b}"
        );
    }
    (declared.len(), edges.len())
}

#[test]
fn dot_output_is_well_formed_and_collapses_failed_subtrees() {
    let (model, _) = queens(6, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let trace = count_and_parse(&mut solver, "6-queens");

    let full = trace.to_dot(DotOptions {
        max_nodes: 1000,
        collapse_failed: false,
    });
    assert_eq!(check_dot(&full), (79, 78));

    let collapsed = trace.to_dot(DotOptions::default());
    let (boxes, edges) = check_dot(&collapsed);
    assert_eq!(boxes, edges + 1);
    assert!(boxes < 79);
    // Everything under q0 = 1 (nodes 1 to 13) failed: one box, drawn maximal.
    assert!(
        collapsed.contains("n1 [label=\"13 nodes\\nall failed\""),
        "{collapsed}"
    );
    assert!(!collapsed.contains("n2 "));
    assert!(collapsed.contains("n0 -> n1 [label=\"q0 = 1\"]"));
    assert!(collapsed.contains("n21 [label=\"7 nodes\\nall failed\""));

    let capped = trace.to_dot(DotOptions {
        max_nodes: 10,
        collapse_failed: false,
    });
    let (boxes, _) = check_dot(&capped);
    // Ten nodes, the top of the tree breadth-first: the root, its two children,
    // their four, and three of the eight below; a dashed box under each drawn node
    // whose children were cut, and the note.
    for shown in [0, 1, 14, 2, 5, 15, 28, 3, 4, 6] {
        assert!(capped.contains(&format!("  n{shown} [label")), "{capped}");
    }
    let cuts: Vec<&str> = capped
        .lines()
        .filter(|l| l.contains("style=dashed, label"))
        .collect();
    // Node 6 (q1 = 4) lost both its children (2 nodes), node 5 its second child
    // (node 9 and its 4 descendants), nodes 15 and 28 all of theirs.
    assert!(
        capped.contains("cut6 [shape=box, style=dashed, label=\"2 more nodes\\nnot shown\"]"),
        "{capped}"
    );
    assert!(
        capped.contains("cut5 [shape=box, style=dashed, label=\"5 more nodes\\nnot shown\"]"),
        "{capped}"
    );
    assert!(capped.contains("n5 -> cut5 [style=dashed]"));
    let total: u64 = cuts
        .iter()
        .map(|l| {
            l.split("label=\"")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(total, 69);
    assert_eq!(boxes, 10 + cuts.len() + 1);
    assert!(capped.contains("69 more nodes not shown"));
    // No drawn node looks like a chain link it is not: every drawn node has all
    // its children drawn, or a dashed box.
    for node in trace.nodes() {
        let drawn = |id: u64| capped.contains(&format!("  n{id} [label"));
        if drawn(node.id) && !node.children.iter().all(|&c| drawn(c)) {
            assert!(
                capped.contains(&format!("cut{} [", node.id)),
                "node {}",
                node.id
            );
        }
    }
}

#[test]
#[ignore = "needs Graphviz's dot on PATH"]
fn graphviz_accepts_the_dot_output() {
    use std::io::Write;
    let (model, _) = queens(6, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let trace = count_and_parse(&mut solver, "6-queens");
    for options in [
        DotOptions::default(),
        DotOptions {
            max_nodes: 5,
            collapse_failed: false,
        },
    ] {
        let mut child = std::process::Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("dot runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(trace.to_dot(options).as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(String::from_utf8_lossy(&output.stdout).contains("<svg"));
    }
}

#[test]
fn the_cap_truncates_and_says_so() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let mut file = Vec::new();
    let (count, written) =
        trace::count_traced(&mut solver, "8-queens", &mut file, Some(25), None).unwrap();
    assert_eq!(count.solutions, 92); // the search is not cut, only the trace
    assert!(written.truncated());
    assert_eq!(written.events, 25);
    let text = String::from_utf8(file.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 25 + 2);
    assert!(lines[26].starts_with("{\"type\":\"truncated\""));
    assert!(lines[27].starts_with("{\"type\":\"statistics\""));
    let trace = Trace::parse(&file[..]).unwrap();
    let cut = trace.truncated().expect("says it was cut");
    assert_eq!(cut.written, 25);
    assert_eq!(cut.dropped, written.dropped);
    assert_eq!(trace.statistics(), Some(solver.statistics()));
    assert!(trace.summary().nodes < solver.statistics().nodes);
    assert!(matches!(trace.incomplete(), Some(Incomplete::Capped(_))));
    assert!(trace.summary().phases.is_none(), "no phases for a part");
    one_truth(&trace);
    check_dot(&trace.to_dot(DotOptions::default()));
}

#[test]
fn a_stopped_search_and_a_failed_root_are_traced() {
    // Unsatisfiable at the root by an assumption: one failed root, no constraint.
    let (model, q) = queens(4, Strength::Value);
    let mut solver = Solver::new(model);
    solver.assume(q[0], 9).unwrap();
    let mut file = Vec::new();
    let (outcome, _) = trace::solve_traced(&mut solver, "none", &mut file, None).unwrap();
    assert_eq!(outcome, Outcome::Unsatisfiable);
    let trace = Trace::parse(&file[..]).unwrap();
    assert_eq!(tree_text(&trace), "0 root failed\n");
    one_truth(&trace);
    assert_eq!(trace.nodes()[0].failed_by, None);
    assert_eq!(trace.summary().decision_failures, 1);
    assert!(trace.replay(0).unwrap()[0].is_empty());
    assert!(matches!(
        trace.replay(1),
        Err(TraceError::NoSuchNode { node: 1 })
    ));
}

#[test]
fn observers_get_prunings_without_polling() {
    #[derive(Default)]
    struct Collect(Vec<(u64, alldiff::Pruning)>, u64);
    impl alldiff::SearchObserver for Collect {
        fn on_prunings(&mut self, node: u64, prunings: &[alldiff::Pruning]) {
            self.0.extend(prunings.iter().map(|p| (node, p.clone())));
        }
        fn on_backtrack(&mut self, _node: u64, _depth: u32) {
            self.1 += 1;
        }
    }
    let (model, _) = queens(6, Strength::HiddenSingles);
    let mut solver = Solver::new(model);
    let mut silent = Collect::default();
    solver.solve_observed(&mut silent);
    assert!(silent.0.is_empty(), "nothing recorded unless asked");

    solver.record_prunings(true);
    let mut seen = Collect::default();
    solver.solve_observed(&mut seen);
    assert!(!seen.0.is_empty());
    assert!(seen.1 > 0);
    let kept = solver.take_prunings();
    assert_eq!(
        kept,
        seen.0.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>()
    );
    assert_eq!(solver.pruning_mode(), Some(false));

    solver.stream_prunings(true);
    let mut streamed = Collect::default();
    solver.solve_observed(&mut streamed);
    assert_eq!(streamed.0, seen.0);
    assert!(
        solver.take_prunings().is_empty(),
        "streamed prunings are not kept"
    );
    assert_eq!(solver.pruning_mode(), Some(true));
}

#[test]
fn bad_traces_are_reported_with_their_line() {
    let (model, _) = queens(5, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let mut file = Vec::new();
    trace::solve_traced(&mut solver, "5-queens", &mut file, None).unwrap();
    let good = String::from_utf8(file).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let with = |i: usize, replacement: &str| {
        let mut edited: Vec<&str> = lines.clone();
        edited[i] = replacement;
        edited.join("\n")
    };
    let parse = |text: String| Trace::parse(text.as_bytes());

    assert!(matches!(parse(String::new()), Err(TraceError::Empty)));
    assert!(matches!(
        parse(with(0, lines[1])),
        Err(TraceError::Header { line: 1 })
    ));
    assert!(matches!(
        parse(with(2, "{not json")),
        Err(TraceError::Json { line: 3, .. })
    ));
    let node = lines.iter().position(|l| l.contains("\"id\":2,")).unwrap();
    assert!(matches!(
        parse(with(node, &lines[node].replace("\"id\":2,", "\"id\":7,"))),
        Err(TraceError::NodeOrder { expected: 2, found: 7, line }) if line == node + 1
    ));
    let prune = lines.iter().position(|l| l.contains("\"prune\"")).unwrap();
    let unknown_var = lines[prune].replace("\"var\":", "\"var\":9");
    assert!(matches!(
        parse(with(prune, &unknown_var)),
        Err(TraceError::UnknownVariable { line, .. }) if line == prune + 1
    ));
    let old_version = lines[0].replace("\"version\":1", "\"version\":99");
    assert!(matches!(
        parse(with(0, &old_version)),
        Err(TraceError::Unsupported { version: 99, .. })
    ));
    let last = lines.len() - 1;
    let after_end = format!("{good}{}\n", lines[1]);
    assert!(matches!(parse(after_end), Err(TraceError::AfterEnd { line }) if line == last + 2));
    // Errors print their line.
    let error = parse(with(2, "{not json")).unwrap_err();
    assert!(error.to_string().starts_with("line 3:"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The trace's node and failure counts are the solver's, whatever the problem and
    /// search, and the solution nodes replay to the solutions found (after `<=` and `>`
    /// decisions too, which only the split value orders make).
    #[test]
    fn trace_counts_equal_statistics(
        n in 1usize..=7,
        strength in 0usize..3,
        variable_order in 0usize..3,
        value_order in 0usize..6,
        assumption in proptest::option::of((0usize..7, 1i32..=7)),
        limit in proptest::option::of(1u64..5),
    ) {
        let strength = [Strength::Value, Strength::HiddenSingles, Strength::Domain][strength];
        let config = SearchConfig::new()
            .variable_order([VariableOrder::InputOrder, VariableOrder::SmallestDomain,
                VariableOrder::DomOverWeightedDegree][variable_order])
            .value_order([ValueOrder::Ascending, ValueOrder::Descending, ValueOrder::Random(3),
                ValueOrder::Middle, ValueOrder::Split, ValueOrder::ReverseSplit][value_order]);
        let (model, q) = queens(n, strength);
        let mut solver = Solver::with_config(model, config);
        if let Some((var, value)) = assumption {
            solver.assume(q[var % n], value).unwrap();
        }
        let mut file = Vec::new();
        let (count, written) = trace::count_traced(&mut solver, "q", &mut file, None, limit).unwrap();
        prop_assert!(!written.truncated());
        let trace = Trace::parse(&file[..]).unwrap();
        let stats = solver.statistics().clone();
        let summary = trace.summary();
        prop_assert_eq!(summary.nodes, stats.nodes);
        prop_assert_eq!(summary.failures, stats.failures);
        prop_assert_eq!(summary.solutions, count.solutions);
        prop_assert_eq!(trace.statistics(), Some(&stats));
        prop_assert_eq!(summary.decision_depth, stats.peak_depth);
        one_truth(&trace);
        // Node ids and parents rebuild one tree: every non-root node is its parent's child.
        for node in &trace.nodes()[1..] {
            let parent = trace.node(node.parent.unwrap()).unwrap();
            prop_assert!(parent.children.contains(&node.id));
        }
        let solutions: Vec<Vec<i32>> = solver.solutions().map(Result::unwrap).take(count.solutions as usize)
            .map(|s| s.values().to_vec()).collect();
        for (node, solution) in trace.solution_nodes().into_iter().zip(&solutions) {
            let domains = trace.replay(node).unwrap();
            let values: Vec<i32> = domains.iter().map(|d| d.first().copied().unwrap_or(i32::MIN)).collect();
            prop_assert!(domains.iter().all(|d| d.len() == 1));
            prop_assert_eq!(&values, solution);
        }
    }
}

#[test]
fn summary_splits_the_time_into_phases() {
    let (model, _) = queens(6, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let mut buffer = Vec::new();
    let (count, _) = trace::count_traced(&mut solver, "6-queens", &mut buffer, None, None).unwrap();
    assert_eq!(count.solutions, 4);
    let trace = Trace::parse(buffer.as_slice()).unwrap();
    one_truth(&trace);
    assert!(trace.nodes().iter().all(|n| n.time_us.is_some()));
    let times: Vec<u64> = trace.nodes().iter().map(|n| n.time_us.unwrap()).collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "node times never go back"
    );
    let phases = trace.summary().phases.expect("timed nodes");
    assert!(phases.to_first_solution.is_some() && phases.between_solutions.is_some());
    let text = trace.summary().to_string();
    assert!(text.contains("time per phase (microseconds):"), "{text}");
    assert!(text.contains("  root propagation: "), "{text}");
    assert!(
        text.contains("after the last solution (proof that there is no other)"),
        "{text}"
    );
}

#[test]
fn a_cut_file_is_incomplete_never_complete() {
    let (model, _) = queens(8, Strength::Value);
    let mut solver = Solver::with_config(model, input_order());
    let mut file = Vec::new();
    trace::count_traced(&mut solver, "8-queens", &mut file, None, None).unwrap();
    let text = String::from_utf8(file).unwrap();
    let whole = Trace::parse(text.as_bytes()).unwrap();
    assert_eq!(whole.incomplete(), None);
    assert!(!whole.summary().to_string().contains("INCOMPLETE"));

    // `head -n 100`: whole lines, no statistics.
    let head: String = text.lines().take(100).map(|l| format!("{l}\n")).collect();
    let cut = Trace::parse(head.as_bytes()).unwrap();
    assert_eq!(cut.incomplete(), Some(Incomplete::EndsEarly { lines: 100 }));
    assert_eq!(cut.statistics(), None);
    let summary = cut.summary();
    assert!(summary.phases.is_none(), "a part has no proof phase");
    let shown = summary.to_string();
    assert!(
        shown.starts_with("INCOMPLETE: the trace stops after line 100"),
        "{shown}"
    );
    assert!(!shown.contains("proof"), "{shown}");
    one_truth(&cut);

    // Cut in the middle of a line (`head -c`): the broken last line is where the
    // trace stops, not a corrupt record.
    let middle = text.len() / 3;
    let bytes = &text.as_bytes()[..middle];
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    let cut = Trace::parse(bytes).unwrap();
    assert_eq!(cut.incomplete(), Some(Incomplete::EndsEarly { lines }));
    one_truth(&cut);

    // A broken line followed by more is corruption: an error naming the line.
    let mut broken: Vec<&str> = text.lines().collect();
    broken[50] = &broken[50][..10];
    assert!(matches!(
        Trace::parse(broken.join("\n").as_bytes()),
        Err(TraceError::Json { line: 51, .. })
    ));
}

#[test]
fn decision_depth_is_peak_depth_with_restarts_and_splits() {
    for (value_order, restarts) in [
        (ValueOrder::Ascending, Some(Restarts::Luby { scale: 1 })),
        (ValueOrder::Split, Some(Restarts::Luby { scale: 2 })),
        (ValueOrder::ReverseSplit, None),
    ] {
        let (model, _) = queens(9, Strength::Value);
        let mut solver = Solver::with_config(
            model,
            SearchConfig::new()
                .variable_order(VariableOrder::DomOverWeightedDegree)
                .value_order(value_order),
        );
        solver.set_restarts(restarts);
        let mut file = Vec::new();
        trace::solve_traced(&mut solver, "9-queens", &mut file, None).unwrap();
        let trace = Trace::parse(&file[..]).unwrap();
        if restarts.is_some() {
            assert!(
                solver.statistics().restarts > 0,
                "{value_order:?} restarted"
            );
        }
        one_truth(&trace);
    }
}
