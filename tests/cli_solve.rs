//! `npuzzle solve` from the outside: every option, every exit code, every
//! malformed input.

use crate::util::{npuzzle, puzzle};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};

fn json(args: &[&str]) -> Value {
    let out = npuzzle().args(["solve", "--format", "json"]).args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "exactly one JSON line: {stdout}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn solves_the_course_example_with_astar_manhattan_by_default() {
    npuzzle()
        .args(["solve", "puzzles/3x3/easy-3.txt"])
        .assert()
        .code(0)
        .stdout(contains("status: solved"))
        .stdout(contains("path: Up Left Left"))
        .stdout(contains("cost: 3"))
        .stdout(contains("depth: 3"))
        .stdout(contains("nodes_expanded: "))
        .stdout(contains("nodes_generated: "))
        .stdout(contains("max_frontier: "))
        .stdout(contains("max_depth: "))
        .stdout(contains("stored_nodes: "))
        .stdout(contains("runtime_ms: "));
    let v = json(&["puzzles/3x3/easy-3.txt"]);
    assert_eq!(v["algorithm"], "astar");
    assert_eq!(v["heuristic"], "manhattan");
}

#[test]
fn ast_is_an_alias_of_astar() {
    let v = json(&["1,2,5,3,4,0,6,7,8", "--algo", "ast"]);
    assert_eq!(v["algorithm"], "astar");
    assert_eq!(v["cost"], 3);
}

#[test]
fn every_algorithm_and_heuristic_solves_the_course_example() {
    for algo in ["bfs", "dfs", "astar", "idastar", "fringe"] {
        for heuristic in ["manhattan", "hamming", "euclidean", "zero", "linear-conflict"] {
            let v = json(&["1,2,5,3,4,0,6,7,8", "--algo", algo, "--heuristic", heuristic]);
            assert_eq!(v["status"], "solved", "{algo} {heuristic}");
            assert_eq!(v["cost"], 3, "{algo} {heuristic}");
            assert_eq!(v["path"], serde_json::json!(["Up", "Left", "Left"]));
            let informed = algo.ends_with("astar") || algo == "fringe";
            let expected_heuristic = if informed { Value::from(heuristic) } else { Value::Null };
            assert_eq!(v["heuristic"], expected_heuristic);
        }
    }
}

#[test]
fn fringe_search_finds_idastars_cost_with_fewer_expansions_and_takes_no_weight() {
    let file = puzzle("korf100/079.txt");
    let file = file.to_str().unwrap();
    let fringe = json(&[file, "--algo", "fringe", "--heuristic", "linear-conflict", "--threads", "1"]);
    let idastar = json(&[file, "--algo", "idastar", "--heuristic", "linear-conflict", "--threads", "1"]);
    assert_eq!(
        (&fringe["status"], &fringe["algorithm"], &fringe["weight"]),
        (&"solved".into(), &"fringe".into(), &Value::Null)
    );
    assert_eq!(fringe["cost"], idastar["cost"]);
    assert!(fringe["nodes_expanded"].as_u64() < idastar["nodes_expanded"].as_u64());
    // Its frontier counts among the nodes it stores.
    assert!(fringe["stored_nodes"].as_u64() > idastar["stored_nodes"].as_u64());
    npuzzle()
        .args(["solve", file, "--algo", "fringe", "--weight", "2"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("fringe takes no weight"));
}

#[test]
fn json_output_is_one_object_with_every_documented_key() {
    let v = json(&["puzzles/3x3/hardest-31a.txt", "--algo", "bfs"]);
    for key in [
        "status",
        "algorithm",
        "heuristic",
        "weight",
        "size",
        "width",
        "height",
        "start",
        "goal",
        "path",
        "cost",
        "depth",
        "lower_bound",
        "proven_optimal",
        "nodes_expanded",
        "nodes_generated",
        "max_frontier",
        "max_depth",
        "runtime_ms",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v.as_object().unwrap().len(), 20);
    assert_eq!((v["lower_bound"].as_u64(), v["proven_optimal"].as_bool()), (Some(31), Some(true)));
    assert_eq!(v["size"], 3);
    assert_eq!((v["width"].as_u64(), v["height"].as_u64()), (Some(3), Some(3)));
    assert_eq!(v["start"], serde_json::json!([8, 0, 6, 5, 4, 7, 2, 3, 1]));
    assert_eq!(v["goal"], serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7, 8]));
    assert_eq!(v["cost"], 31);
    assert_eq!(v["depth"], 31);
    assert_eq!(v["path"].as_array().unwrap().len(), 31);
    assert!(v["runtime_ms"].is_number());
}

#[test]
fn goals_can_be_named_files_or_inline_boards() {
    let last = json(&["1,2,3,4,5,6,7,0,8", "--goal", "blank-last"]);
    assert_eq!(last["cost"], 1);
    assert_eq!(last["goal"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0]));
    let file = json(&["1,2,3,4,5,6,7,0,8", "--goal", "puzzles/goals/blank-last-3x3.txt"]);
    assert_eq!(file["cost"], 1);
    let snail = json(&["1,2,3,8,4,0,7,6,5", "--goal", "snail"]);
    assert_eq!(snail["goal"], serde_json::json!([1, 2, 3, 8, 0, 4, 7, 6, 5]));
    assert_eq!(snail["cost"], 1);
    let inline = json(&["1,2,3,4,5,6,7,0,8", "--goal", "1,2,3,4,5,6,7,8,0"]);
    assert_eq!(inline["path"], serde_json::json!(["Right"]));
}

#[test]
fn a_goal_of_another_size_is_rejected() {
    npuzzle()
        .args(["solve", "puzzles/3x3/easy-3.txt", "--goal", "puzzles/goals/snail-4x4.txt"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "--goal puzzles/goals/snail-4x4.txt: goal is 4x4 but the start is 3x3 (puzzles/3x3/easy-3.txt)",
        ));
}

#[test]
fn a_misspelt_goal_name_lists_the_names() {
    npuzzle()
        .args(["solve", "puzzles/3x3/easy-3.txt", "--goal", "Snail"])
        .assert()
        .code(2)
        .stderr(contains("unknown goal 'Snail': expected blank-first, blank-last, snail"));
}

#[test]
fn a_malformed_inline_board_names_its_bad_token() {
    for (board, token) in [("1,2,x,3,4,0,6,7,8", "'x'"), ("1,2,-5,3,4,0,6,7,8", "'-5'")] {
        npuzzle()
            .args(["solve", board])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!("<argument>:1: {token} is not a non-negative integer")));
    }
    npuzzle()
        .args(["solve", "0 1 2 3 4 5 6 7 99999999999999999999999999"])
        .assert()
        .code(2)
        .stderr(contains("99999999999999999999999… is far too large to be a tile"));
}

#[test]
fn a_malformed_goal_file_is_named_as_the_goal() {
    npuzzle()
        .args(["solve", "puzzles/3x3/easy-3.txt", "--goal", "puzzles/invalid/duplicate.txt"])
        .assert()
        .code(2)
        .stderr(contains("goal puzzles/invalid/duplicate.txt:3: tile 7 appears twice"));
}

#[test]
fn start_can_come_from_standard_input() {
    npuzzle()
        .args(["solve", "-", "--algo", "bfs"])
        .write_stdin("3\n1 2 5\n3 4 0\n6 7 8\n")
        .assert()
        .code(0)
        .stdout(contains("path: Up Left Left"));
    npuzzle()
        .args(["solve", "-"])
        .write_stdin("1 2 x")
        .assert()
        .code(2)
        .stderr(contains("<stdin>:1: 'x' is not a non-negative integer"));
}

#[test]
fn show_states_prints_every_board_from_start_to_goal() {
    let out = npuzzle().args(["solve", "puzzles/3x3/easy-3.txt", "--show-states"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("start\n1 2 5\n3 4 .\n6 7 8\n"), "{text}");
    assert!(text.contains("1 Up\n1 2 .\n3 4 5\n6 7 8\n"), "{text}");
    assert!(text.contains("3 Left\n. 1 2\n3 4 5\n6 7 8\n"), "{text}");
    let wide = npuzzle().args(["solve", "puzzles/4x4/moves-10.txt", "--show-states"]).output().unwrap();
    let wide = String::from_utf8(wide.stdout).unwrap();
    assert!(wide.contains(" . "), "blank shown in aligned columns: {wide}");
    assert!(wide.lines().any(|l| l == " .  1  2  3"), "{wide}");
}

#[test]
fn an_unsolvable_start_exits_1_without_searching() {
    for (file, width) in
        [("unsolvable/swap-3x3.txt", 3), ("unsolvable/loyd-4x4.txt", 4), ("unsolvable/swap-2x2.txt", 2)]
    {
        npuzzle()
            .args(["solve", &puzzle(file).display().to_string()])
            .assert()
            .code(1)
            .stdout(contains("status: unsolvable ("))
            .stdout(contains("can never match"));
        let v = json(&[&puzzle(file).display().to_string()]);
        assert_eq!(v["status"], "unsolvable");
        assert_eq!(v["size"], width);
        assert_eq!(v["path"], Value::Null);
        assert_eq!(v["cost"], Value::Null);
        assert_eq!(v["nodes_expanded"], 0);
        assert_eq!(v["nodes_generated"], 0);
    }
}

#[test]
fn a_start_equal_to_the_goal_is_solved_in_zero_moves() {
    npuzzle()
        .args(["solve", "puzzles/3x3/solved-0.txt"])
        .assert()
        .code(0)
        .stdout(contains("cost: 0"))
        .stdout(contains("path: (none: the start is the goal)"));
    let v = json(&["puzzles/3x3/solved-0.txt", "--algo", "dfs"]);
    assert_eq!(v["path"], serde_json::json!([]));
    assert_eq!(v["nodes_expanded"], 0);
}

#[test]
fn the_node_limit_stops_the_search_with_figures_and_exit_3() {
    npuzzle()
        .args(["solve", "puzzles/korf100/055.txt", "--algo", "bfs", "--max-nodes", "5000"])
        .assert()
        .code(3)
        .stdout(contains("status: limit (node limit of 5000 stored states reached)"))
        .stdout(contains("cost: -"));
    let out = npuzzle()
        .args([
            "solve",
            "puzzles/korf100/055.txt",
            "--algo",
            "bfs",
            "--max-nodes",
            "5000",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["path"], Value::Null);
    assert!(v["nodes_expanded"].as_u64().unwrap() > 1000);
    assert!(String::from_utf8_lossy(&out.stderr).contains("node limit of 5000"));
}

#[test]
fn the_timeout_stops_the_search_with_exit_3() {
    npuzzle()
        .args(["solve", "puzzles/korf100/055.txt", "--algo", "bfs", "--timeout", "0.05"])
        .assert()
        .code(3)
        .stdout(contains("status: limit (timeout of 0.05 s reached)"));
}

#[test]
fn max_depth_makes_dfs_depth_limited() {
    let found = json(&["puzzles/3x3/easy-8.txt", "--algo", "dfs", "--max-depth", "8"]);
    assert_eq!(found["status"], "solved");
    assert!(found["max_depth"].as_u64().unwrap() <= 8);
    assert!(found["cost"].as_u64().unwrap() <= 8);
    npuzzle()
        .args(["solve", "puzzles/3x3/easy-8.txt", "--algo", "dfs", "--max-depth", "5"])
        .assert()
        .code(3)
        .stdout(contains("status: limit (no solution within the depth limit of 5)"));
    let astar = json(&["puzzles/3x3/hardest-31a.txt", "--max-depth", "20"]);
    assert_eq!(astar["status"], "limit");
    assert!(astar["max_depth"].as_u64().unwrap() <= 20);
}

#[test]
fn bfs_solves_a_48_puzzle_a_few_moves_out() {
    let v = json(&["puzzles/7x7/moves-6.txt", "--algo", "bfs"]);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["cost"], 6);
}

#[test]
fn every_malformed_input_gets_one_line_and_exit_2() {
    let cases = [
        ("empty.txt", "empty.txt: empty board: no numbers found"),
        ("only-comments.txt", "only-comments.txt: empty board: no numbers found"),
        ("bad-token.txt", "bad-token.txt:2: 'x' is not a non-negative integer"),
        ("negative.txt", "negative.txt:2: '-4' is not a non-negative integer"),
        (
            "not-square.txt",
            "not-square.txt: rows of 3, 3 and 2 numbers are not a rectangle: lay the board out in rows of equal \
             length, or give its size (WxH)",
        ),
        ("one-cell.txt", "one-cell.txt: 1 number is not a square board"),
        (
            "one-line-rectangle.txt",
            "one-line-rectangle.txt: 6 numbers are not a square board: lay the board out in rows of equal \
             length, or give its size (WxH)",
        ),
        (
            "header-mismatch.txt",
            "header-mismatch.txt:1: the header says 4x4 (4 rows of 4) but the board is laid out as 3 rows of 3",
        ),
        (
            "shape-mismatch.txt",
            "shape-mismatch.txt:2: the header says 3x2 (2 rows of 3) but the board is laid out as 3 rows of 2",
        ),
        ("out-of-range.txt", "out-of-range.txt:3: tile 9 is out of range (0 to 8)"),
        ("duplicate.txt", "duplicate.txt:3: tile 7 appears twice"),
        ("too-big.txt", "too-big.txt:2: header '257' is not a board size (N, or WxH, each side 2 to 256)"),
        ("binary.bin", "binary.bin:1: "),
    ];
    for (file, message) in cases {
        let out = npuzzle().args(["solve", &format!("puzzles/invalid/{file}")]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(out.stdout.is_empty(), "{file}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
        assert!(stderr.starts_with("npuzzle: "), "{file}: {stderr}");
        assert!(stderr.contains(message), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
    }
}

#[test]
fn a_missing_file_or_directory_is_an_io_error() {
    npuzzle()
        .args(["solve", "no/such/puzzle.txt"])
        .assert()
        .code(2)
        .stderr(contains("no/such/puzzle.txt: cannot read: No such file or directory"));
    npuzzle().args(["solve", "puzzles"]).assert().code(2).stderr(contains("puzzles: cannot read"));
}

#[test]
fn an_empty_board_argument_is_a_usage_error_not_a_file_with_no_name() {
    for command in ["solve", "check", "compare"] {
        npuzzle()
            .args([command, ""])
            .assert()
            .code(2)
            .stderr(contains("found an empty argument"))
            .stderr(contains("cannot read").not());
    }
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in [
        vec!["solve", "1,2,0,3", "--algo", "dijkstra"],
        vec!["solve", "1,2,0,3", "--weight", "0.5"],
        vec!["solve", "1,2,0,3", "--weight", "heavy"],
        vec!["solve", "1,2,0,3", "--size", "3x1"],
        vec!["solve", "1,2,0,3", "--heuristic", "magic"],
        vec!["solve", "1,2,0,3", "--timeout", "-1"],
        vec!["solve", "1,2,0,3", "--timeout", "soon"],
        vec!["solve", "1,2,0,3", "--max-nodes", "0"],
        vec!["solve", "1,2,0,3", "--max-depth", "-3"],
        vec!["solve", "1,2,0,3", "--format", "xml"],
        vec!["solve"],
    ] {
        npuzzle().args(&args).assert().code(2).stderr(contains("error:"));
    }
}

#[test]
fn help_lists_the_exit_codes() {
    for args in [vec!["--help"], vec!["solve", "--help"]] {
        npuzzle().args(&args).assert().code(0).stdout(contains("Exit codes:")).stdout(contains("3  a limit"));
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // DFS paths run to thousands of moves; with --show-states the output is
    // far larger than a pipe buffer, so the writer meets a closed pipe.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(["solve", "puzzles/3x3/hardest-31a.txt", "--algo", "dfs", "--show-states"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then drop: pipe closed
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.is_empty(), "{stderr}");
    assert!(out.status.success());
}

#[test]
fn a_closed_pipe_keeps_the_verdict_as_the_exit_code() {
    // Unsolvable is 1 and a limit 3 even when nobody reads the report.
    for (args, code) in [
        (&["solve", "puzzles/unsolvable/swap-3x3.txt"][..], 1),
        (&["solve", "puzzles/korf100/055.txt", "--algo", "bfs", "--max-nodes", "1000"][..], 3),
        (&["check", "puzzles/unsolvable/swap-3x3.txt"][..], 1),
    ] {
        let child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut child = child;
        drop(child.stdout.take()); // closed before (or while) anything is written
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        // No error: at most the hint of a search stopped at its limit.
        assert!(stderr.lines().all(|line| line.starts_with("npuzzle: hint:")), "{args:?}: {stderr}");
    }
}

#[test]
fn a_closed_stderr_loses_the_message_not_the_exit_code() {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(["solve", "puzzles/invalid/duplicate.txt"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2), "no panic (101)");
}

/// Ctrl-C, and SIGTERM and SIGHUP as job runners and closing terminals
/// send them: the search stops and still reports.
#[cfg(unix)]
#[test]
fn ctrl_c_sigterm_or_sighup_stops_the_search_and_it_still_reports() {
    let args =
        ["solve", "puzzles/korf100/055.txt", "--algo", "bfs", "--max-nodes", "200000000", "--format", "json"];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    for signal in ["-INT", "-TERM", "-HUP"] {
        let out = crate::util::signal_once_started(&args, "searching", false, signal);
        assert_eq!(out.code, Some(3), "{signal}");
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(v["status"], "limit", "{signal}");
        assert!(v["nodes_expanded"].as_u64().unwrap() > 0, "{signal}");
        assert!(out.stderr.contains("interrupted"), "{signal}: {}", out.stderr);
    }
}

/// A search stopped at its limit names a faster road where the board has
/// one: on a 15-puzzle, IDA* with the pattern databases (milliseconds where
/// A* with Manhattan distance fills its memory); without tables, a good
/// estimate for a search with none. Nothing when there is no faster road.
#[test]
fn a_search_stopped_at_its_limit_names_a_faster_road_where_there_is_one() {
    let stopped = |args: &[&str]| {
        let out = npuzzle().arg("solve").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let korf = puzzle("korf100/088.txt").display().to_string();
    let stderr = stopped(&[&korf, "--algo", "astar", "--heuristic", "manhattan", "--max-nodes", "20000"]);
    assert!(stderr.contains("hint: --algo idastar --heuristic pdb"), "{stderr}");
    let eight = puzzle("3x3/hardest-31a.txt").display().to_string();
    let stderr = stopped(&[&eight, "--algo", "bfs", "--max-nodes", "1000"]);
    assert!(stderr.contains("hint: --algo idastar --heuristic linear-conflict"), "{stderr}");
    let stderr = stopped(&[&eight, "--algo", "astar", "--heuristic", "manhattan", "--max-nodes", "1000"]);
    assert!(!stderr.contains("hint"), "A* with Manhattan distance is the road on an 8-puzzle: {stderr}");
}

#[test]
fn widths_from_2_to_8_are_solved() {
    for (file, width) in [
        ("2x2/hardest-6.txt", 2),
        ("3x3/medium-14.txt", 3),
        ("4x4/moves-20.txt", 4),
        ("5x5/moves-8.txt", 5),
        ("7x7/moves-6.txt", 7),
        ("8x8/moves-6.txt", 8),
    ] {
        let v = json(&[&puzzle(file).display().to_string()]);
        assert_eq!(v["status"], "solved", "{file}");
        assert_eq!(v["size"], width, "{file}");
        assert_eq!(v["cost"], crate::util::optimal(file), "{file}");
    }
}

#[test]
fn limits_are_reported_on_stderr_only_as_a_note_in_json_mode() {
    npuzzle()
        .args([
            "solve",
            "puzzles/3x3/hardest-31a.txt",
            "--algo",
            "bfs",
            "--max-nodes",
            "10",
            "--format",
            "json",
        ])
        .assert()
        .code(3)
        .stderr(
            contains("npuzzle: limit: node limit of 10 stored states reached")
                .and(contains("panicked").not()),
        );
}

/// The path in a JSON report, replayed from its start: the end board.
fn replayed(v: &Value) -> Vec<u16> {
    let tiles = |key: &str| -> Vec<u16> {
        v[key].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as u16).collect()
    };
    let moves: Vec<&str> = v["path"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let (width, height) = (v["width"].as_u64().unwrap() as usize, v["height"].as_u64().unwrap() as usize);
    let end = crate::util::play_on(&tiles("start"), width, height, &moves);
    assert_eq!(end, tiles("goal"), "the path replays to the goal");
    end
}

#[test]
fn greedy_weighted_and_rows_paths_are_shortened_unless_asked_not_to() {
    let korf = puzzle("korf24/05.txt").display().to_string();
    let board = puzzle("3x3/easy-8.txt").display().to_string();
    for args in [
        vec![korf.as_str(), "--algo", "greedy", "--heuristic", "linear-conflict"],
        vec![korf.as_str(), "--algo", "astar", "--weight", "2", "--heuristic", "linear-conflict"],
        vec![korf.as_str(), "--algo", "rows"],
    ] {
        let shortened = json(&args);
        let found = json(&[&args[..], &["--no-shorten"]].concat());
        replayed(&shortened);
        replayed(&found);
        // The depth is the length of the path the algorithm found.
        assert_eq!(found["cost"], found["depth"], "{args:?}");
        assert_eq!(shortened["depth"], found["cost"], "{args:?}");
        assert!(shortened["cost"].as_u64() < shortened["depth"].as_u64(), "{args:?}: {shortened}");
        // A search's figures are its own; rows counts its windows' searches.
        if !args.contains(&"rows") {
            assert_eq!(shortened["nodes_expanded"], found["nodes_expanded"], "{args:?}");
        }
    }
    // Optimal searches and DFS return the path they found, flag or not.
    for algo in ["astar", "dfs"] {
        let v = json(&[board.as_str(), "--algo", algo]);
        assert_eq!(v["cost"], v["depth"], "{algo}");
    }
}
