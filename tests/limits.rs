//! Which limit stops which search: `--max-expanded` bounds the
//! work of every algorithm.

use crate::util::npuzzle;
use predicates::str::contains;
use serde_json::Value;

/// Every algorithm as `solve` flags, weighted ones included.
const ALGORITHMS: [&[&str]; 8] = [
    &["--algo", "bfs"],
    &["--algo", "dfs"],
    &["--algo", "astar"],
    &["--algo", "astar", "--weight", "2"],
    &["--algo", "greedy"],
    &["--algo", "idastar"],
    &["--algo", "idastar", "--weight", "2"],
    &["--algo", "rows"],
];

/// `solve --format json` with `args`: its exit code, its one JSON object
/// and its stderr.
fn solve(args: &[&str]) -> (i32, Value, String) {
    let out = npuzzle().args(["solve", "--format", "json"]).args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"));
    (out.status.code().unwrap(), value, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn every_algorithm_stops_at_the_expansion_limit_with_exit_3() {
    // Korf's instance 55 is 41 moves from the goal: none of them finishes
    // in 1,000 expansions.
    for algorithm in ALGORITHMS {
        let args = [&["puzzles/korf100/055.txt", "--max-expanded", "1000"], algorithm].concat();
        let (code, v, stderr) = solve(&args);
        assert_eq!(code, 3, "{algorithm:?}");
        assert_eq!(v["status"], "limit", "{algorithm:?}");
        assert_eq!(v["path"], Value::Null, "{algorithm:?}");
        assert_eq!(v["nodes_expanded"], 1000, "{algorithm:?}: stops exactly at the limit");
        assert!(stderr.contains("limit: expansion limit of 1000 nodes reached"), "{algorithm:?}: {stderr}");
    }
    npuzzle()
        .args(["solve", "puzzles/korf100/055.txt", "--algo", "idastar", "--max-expanded", "1000"])
        .assert()
        .code(3)
        .stdout(contains("status: limit (expansion limit of 1000 nodes reached)"));
}

#[test]
fn the_expansions_a_solution_needs_are_enough_and_one_fewer_is_not() {
    // IDA* counts every pass, and rows the nodes of its internal searches:
    // the bound is the figure `nodes_expanded` reports.
    for algorithm in ALGORITHMS {
        let free = solve(&[&["puzzles/3x3/medium-14.txt"], algorithm].concat()).1;
        let needed = free["nodes_expanded"].as_u64().unwrap();
        assert!(needed > 0, "{algorithm:?}");
        let enough = needed.to_string();
        let (code, bounded, _) =
            solve(&[&["puzzles/3x3/medium-14.txt", "--max-expanded", &enough], algorithm].concat());
        assert_eq!(code, 0, "{algorithm:?}");
        assert_eq!((&bounded["path"], &bounded["nodes_expanded"]), (&free["path"], &free["nodes_expanded"]));
        let fewer = (needed - 1).max(1).to_string();
        let (code, short, _) =
            solve(&[&["puzzles/3x3/medium-14.txt", "--max-expanded", &fewer], algorithm].concat());
        if needed > 1 {
            assert_eq!((code, &short["status"]), (3, &Value::from("limit")), "{algorithm:?}");
            assert_eq!(short["nodes_expanded"], needed - 1, "{algorithm:?}");
        }
    }
}

#[test]
fn idastar_on_a_random_8x8_is_stopped_by_the_expansion_limit() {
    // Uninformed by any node limit, IDA* on a random
    // 63-puzzle runs for hours; a work bound ends it at once.
    let board = npuzzle().args(["generate", "--size", "8", "--seed", "11"]).output().unwrap().stdout;
    for weight in [&[][..], &["--weight", "1.5"]] {
        let out = npuzzle()
            .args(["solve", "-", "--algo", "idastar", "--max-expanded", "200000", "--format", "json"])
            .args(weight)
            .write_stdin(board.clone())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{weight:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["nodes_expanded"], 200_000, "{weight:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("expansion limit of 200000 nodes reached"));
    }
}

#[test]
fn batch_and_compare_take_the_expansion_limit_for_every_run() {
    let out = npuzzle()
        .args(["batch", "puzzles/korf100/055.txt", "puzzles/3x3/easy-3.txt", "--max-expanded", "40"])
        .args(["--format", "json", "--jobs", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let rows: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((&rows[0]["status"], &rows[0]["nodes_expanded"]), (&Value::from("limit"), &Value::from(40)));
    assert_eq!(rows[1]["status"], "solved");

    // Instance 55 is 41 moves out: 40 expansions are too few for any run.
    let out = npuzzle()
        .args(["compare", "puzzles/korf100/055.txt", "--max-expanded", "40", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let rows: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows.len() > 10);
    for row in rows {
        assert_eq!(
            (&row["status"], &row["nodes_expanded"]),
            (&Value::from("limit"), &Value::from(40)),
            "{row}"
        );
    }
}

/// `--timeout` stops `rows` within a few milliseconds on the largest board
/// too, where placing one line takes tenths of a second: the time the
/// search reports stays near the timeout. (The margin is ample for a busy
/// machine; stopping only between lines overran it by about 0.3 s.)
#[test]
fn the_timeout_stops_rows_on_a_256x256_board_within_a_line() {
    let board = npuzzle().args(["generate", "--size", "256", "--seed", "1"]).output().unwrap().stdout;
    let out = npuzzle()
        .args(["solve", "-", "--algo", "rows", "--timeout", "0.05", "--format", "json"])
        .write_stdin(board)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out.status.code(), &v["status"]), (Some(3), &Value::from("limit")));
    let searched = v["runtime_ms"].as_f64().unwrap();
    assert!(searched < 50.0 + 150.0, "searched {searched} ms with a timeout of 50 ms");
}

#[test]
fn rows_counts_the_nodes_of_its_window_searches_against_the_limit() {
    // On a 10×10 board most of what rows expands is in the windows that
    // shorten its path, after the final block (at most 11,415 nodes on a
    // 3×3 block): the limit stops those searches too, and exactly.
    let board = npuzzle().args(["generate", "--size", "10", "--seed", "3"]).output().unwrap().stdout;
    let run = |bound: Option<u64>| {
        let bound = bound.map(|n| n.to_string());
        let mut cmd = npuzzle();
        cmd.args(["solve", "-", "--algo", "rows", "--format", "json"]).write_stdin(board.clone());
        if let Some(n) = &bound {
            cmd.args(["--max-expanded", n]);
        }
        let out = cmd.output().unwrap();
        (out.status.code().unwrap(), serde_json::from_slice::<Value>(&out.stdout).unwrap())
    };
    let (_, free) = run(None);
    let needed = free["nodes_expanded"].as_u64().unwrap();
    assert!(needed > 11_415, "{needed}");
    let (code, bounded) = run(Some(needed));
    assert_eq!((code, &bounded["path"]), (0, &free["path"]));
    let (code, short) = run(Some(needed - 1));
    assert_eq!((code, &short["nodes_expanded"]), (3, &Value::from(needed - 1)));
}

#[test]
fn max_nodes_is_refused_with_idastar_and_fringe_search_naming_the_bound_that_stops_them() {
    // IDA* stores only its path, and fringe search a frontier within a
    // budget of its own, so a node limit would never stop them: the
    // command is refused before any search, plain or weighted.
    let searches: [(&str, &[&[&str]]); 2] = [("idastar", &[&[], &["--weight", "2"]]), ("fringe", &[&[]])];
    for command in [&["solve", "puzzles/korf100/055.txt"][..], &["batch", "puzzles/korf100"]] {
        for (algo, weights) in searches {
            for weight in weights {
                let out = npuzzle()
                    .args(command)
                    .args(["--algo", algo, "--max-nodes", "1000000"])
                    .args(*weight)
                    .output()
                    .unwrap();
                let stderr = String::from_utf8(out.stderr).unwrap();
                assert_eq!(out.status.code(), Some(2), "{command:?} {algo} {weight:?}: {stderr}");
                assert!(out.stdout.is_empty(), "{command:?} {algo} {weight:?}");
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
                assert!(stderr.contains(&format!("--max-nodes 1000000 cannot stop {algo}")), "{stderr}");
                assert!(stderr.contains("--max-expanded"), "{stderr}");
            }
        }
    }
    // Every other algorithm takes it.
    for algorithm in ["bfs", "dfs", "astar", "greedy", "rows"] {
        npuzzle()
            .args(["solve", "puzzles/3x3/easy-3.txt", "--algo", algorithm, "--max-nodes", "200000"])
            .assert()
            .code(0);
    }
}

#[test]
fn compare_node_limits_leave_idastar_to_its_other_bounds() {
    // compare applies a node limit to every run, its default or the one
    // given: the runs that store states stop at it, IDA* still solves.
    for extra in [&[][..], &["--max-nodes", "50"]] {
        let out = npuzzle()
            .args(["compare", "puzzles/3x3/medium-14.txt", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        let rows: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let idastar: Vec<&Value> =
            rows.iter().filter(|r| r["algorithm"] == "idastar" || r["algorithm"] == "fringe").collect();
        assert!(idastar.iter().any(|r| r["algorithm"] == "fringe"));
        assert!(!idastar.is_empty());
        assert!(idastar.iter().all(|r| r["status"] == "solved"), "{extra:?}: {idastar:?}");
        if !extra.is_empty() {
            let bfs = rows.iter().find(|r| r["algorithm"] == "bfs").unwrap();
            assert_eq!(bfs["status"], "limit");
        }
    }
}

#[test]
fn a_long_solve_draws_no_status_line_on_stderr_when_it_is_not_a_terminal() {
    // On a terminal a search running past a second shows a status line;
    // here stderr is a pipe, so the multi-second run adds nothing to it
    // but the hint of a search stopped at its limit.
    let out = npuzzle()
        .args([
            "solve",
            "puzzles/korf100/055.txt",
            "--algo",
            "idastar",
            "--heuristic",
            "zero",
            "--timeout",
            "1.5",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("status: limit (timeout of 1.5 s reached)"), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.lines().all(|line| line.starts_with("npuzzle: hint:")), "{stderr}");
}

#[test]
fn a_watched_search_leaves_its_figures_in_the_monitor() {
    use npuzzle::search::Monitor;
    use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Tables, read_input};
    use std::sync::Arc;
    // What the status line is drawn from: A* shows its stored states
    // against its node limit, IDA* the bound of its pass (the last one
    // being the optimal cost, 41 moves).
    let start = read_input(&Input::from_arg("puzzles/korf100/055.txt")).unwrap();
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let watch = |algorithm, max_nodes| {
        let monitor = Arc::new(Monitor::default());
        let limits = Limits { max_nodes, monitor: Some(Arc::clone(&monitor)), ..Limits::default() };
        let outcome =
            npuzzle::solve(&start, &goal, algorithm, HeuristicKind::Manhattan, &limits, &Tables::NONE)
                .unwrap();
        assert_eq!(outcome.cost(), Some(41), "{algorithm}");
        (monitor.snapshot(), outcome.stats)
    };
    let (astar, stats) = watch(Algorithm::AStar, Some(10_000_000));
    assert_eq!(astar.node_limit, Some(10_000_000));
    assert!(astar.expanded > 0 && astar.expanded <= stats.nodes_expanded, "{astar:?}");
    assert!(astar.stored > 0 && astar.stored <= stats.stored, "{astar:?}");
    assert_eq!(astar.bound, None);
    let (idastar, stats) = watch(Algorithm::IdaStar, None);
    assert_eq!((idastar.node_limit, idastar.bound), (None, Some(41.0)));
    assert!(idastar.expanded > 0 && idastar.expanded <= stats.nodes_expanded, "{idastar:?}");
}
