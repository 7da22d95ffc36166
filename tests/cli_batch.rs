//! `batch`: files and folders of puzzles in, one row per puzzle out, in
//! input order, as a table, CSV or JSON Lines.

#[cfg(unix)]
use crate::util::interrupt_once_started;
use crate::util::{npuzzle, puzzle};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use std::collections::BTreeSet;
#[cfg(unix)]
use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// A mixed set that solves in well under a second: every status but
/// `limit`, nested folders, and files that are not puzzles. (Not all of
/// `puzzles/`: Korf's 100 take A* far longer.)
const SET: [&str; 5] =
    ["puzzles/2x2", "puzzles/3x3", "puzzles/goals", "puzzles/invalid", "puzzles/unsolvable"];

/// `SET` followed by `args`.
fn set_and(args: &[&'static str]) -> Vec<&'static str> {
    [&SET[..], args].concat()
}

/// Puzzle files directly in `puzzles/DIR`.
fn count_files(dir: &str) -> usize {
    fs::read_dir(puzzle(dir)).unwrap().count()
}

/// Runs `npuzzle batch ARGS`, returning the exit code, stdout and stderr.
fn batch(args: &[&str]) -> (i32, String, String) {
    let out = npuzzle().arg("batch").args(args).output().unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

/// Parses CSV (RFC 4180: quoted fields may hold commas, quotes and line
/// breaks) into rows of fields.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (_, c) => field.push(c),
        }
    }
    assert!(!quoted, "unterminated quote");
    assert!(field.is_empty() && row.is_empty(), "the last line must end with a newline");
    rows
}

/// The CSV as maps from header to field.
fn csv_records(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let rows = parse_csv(text);
    let header = &rows[0];
    rows[1..]
        .iter()
        .map(|row| {
            assert_eq!(row.len(), header.len(), "{row:?}");
            header.iter().cloned().zip(row.iter().cloned()).collect()
        })
        .collect()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// Files of a JSON Lines batch, in output order.
fn files(rows: &[Value]) -> Vec<String> {
    rows.iter().map(|r| r["file"].as_str().unwrap().to_owned()).collect()
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A folder with a good, a malformed, an unsolvable and a non-puzzle file.
fn mixed_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a-good.txt", "1 2 5\n3 4 0\n6 7 8\n");
    write(dir.path(), "b-malformed.txt", "1 2 5\n3 x 0\n6 7 8\n");
    write(dir.path(), "c-unsolvable.txt", "0 2 1\n3 4 5\n6 7 8\n");
    write(dir.path(), "notes.md", "# Notes\n\nNothing to solve here.\n");
    dir
}

#[test]
fn csv_has_a_header_and_one_row_per_puzzle_in_sorted_order() {
    let (code, stdout, stderr) = batch(&["puzzles/3x3", "--format", "csv"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let rows = parse_csv(&stdout);
    assert_eq!(
        rows[0],
        [
            "file",
            "size",
            "width",
            "height",
            "algorithm",
            "heuristic",
            "weight",
            "status",
            "cost",
            "depth",
            "lower_bound",
            "proven_optimal",
            "expected",
            "matches",
            "nodes_expanded",
            "nodes_generated",
            "max_frontier",
            "max_depth",
            "runtime_ms",
            "branching_factor",
            "error",
            "start",
            "path",
            "goal",
            "flags"
        ]
    );
    let records = csv_records(&stdout);
    let names: Vec<&str> = records.iter().map(|r| r["file"].as_str()).collect();
    let mut expected: Vec<String> = fs::read_dir(puzzle("3x3"))
        .unwrap()
        .map(|e| format!("puzzles/3x3/{}", e.unwrap().file_name().to_str().unwrap()))
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    for record in &records {
        assert_eq!(record["status"], "solved");
        assert_eq!(record["algorithm"], "astar");
        assert_eq!(record["heuristic"], "manhattan");
        let file = record["file"].strip_prefix("puzzles/").unwrap();
        assert_eq!(record["cost"], crate::util::optimal(file).to_string(), "{file}");
        assert!(record["runtime_ms"].parse::<f64>().is_ok());
        assert_eq!(record["error"], "");
        assert_eq!(record["goal"], "0 1 2 3 4 5 6 7 8");
        assert_eq!(record["flags"], "", "no flag that changes answers was given");
    }
}

#[test]
fn a_file_named_on_the_command_line_is_always_read_and_one_that_is_no_puzzle_is_an_error_row() {
    // `npuzzle batch puzzles/*` names the README: the user asked for it, so
    // it is not passed over by its content, as it is inside a folder.
    let (code, stdout, stderr) =
        batch(&["puzzles/2x2", "puzzles/README.md", "puzzles/invalid/duplicate.txt", "--format", "json"]);
    assert_eq!(code, 2, "error rows: {stdout}");
    assert!(stderr.is_empty(), "no skip note: {stderr}");
    let rows = json_lines(&stdout);
    let readme = rows.iter().find(|r| r["file"] == "puzzles/README.md").expect("a README row");
    assert_eq!(readme["status"], "error");
    assert!(readme["error"].as_str().unwrap().contains("is not a non-negative integer"), "{readme}");
    let duplicate = rows.iter().find(|r| r["file"] == "puzzles/invalid/duplicate.txt").unwrap();
    assert_eq!(duplicate["status"], "error");
    assert!(rows.iter().any(|r| r["status"] == "solved"), "{stdout}");
}

#[test]
fn a_list_named_on_the_command_line_with_a_bad_first_line_gives_an_error_row_and_solves_the_rest() {
    // A header line no list format has, in a file no extension marks as a
    // puzzle: read because it is named, line by line.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "hdr.dat", "id len tiles\n1 2 5 3 4 0 6 7 8\n");
    let out =
        npuzzle().current_dir(dir.path()).args(["batch", "--list", "hdr.dat", "--format", "json"]).output();
    let out = out.unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "an error row makes the exit code 2: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(files(&rows), ["hdr.dat:1", "hdr.dat:2"]);
    assert_eq!(rows[0]["status"], "error");
    assert_eq!(rows[0]["error"], "'id' is not a non-negative integer");
    assert_eq!(rows[1]["status"], "solved");
    assert_eq!(rows[1]["cost"], 3);
    // Without --list the same file is one board, and one error row.
    let out = npuzzle().current_dir(dir.path()).args(["batch", "hdr.dat", "--format", "json"]).output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(2));
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(files(&rows), ["hdr.dat"]);
    assert_eq!(rows[0]["error"], "line 1: 'id' is not a non-negative integer");
}

#[test]
fn off_a_terminal_the_default_format_is_csv() {
    let (_, stdout, _) = batch(&["puzzles/2x2"]);
    assert!(stdout.starts_with("file,size,width,height,algorithm,"), "{stdout}");
}

#[test]
fn each_json_line_parses_and_carries_every_key_of_solve_json_plus_file_flags_expected_matches_b_star_and_error()
 {
    let solve = npuzzle().args(["solve", "puzzles/3x3/easy-3.txt", "--format", "json"]).output().unwrap();
    let solve: Value = serde_json::from_slice(&solve.stdout).unwrap();
    let mut expected: BTreeSet<&str> = solve.as_object().unwrap().keys().map(String::as_str).collect();
    expected.extend(["file", "flags", "expected", "matches", "branching_factor", "error"]);

    let (code, stdout, _) =
        batch(&["puzzles/3x3", "puzzles/unsolvable", "puzzles/invalid/duplicate.txt", "--format", "json"]);
    assert_eq!(code, 2, "the malformed file is an error row");
    let rows = json_lines(&stdout);
    assert_eq!(rows.len(), count_files("3x3") + count_files("unsolvable") + 1);
    for row in &rows {
        let keys: BTreeSet<&str> = row.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, expected, "every line has the same keys: {row}");
        assert_eq!(row["error"].is_null(), row["status"] != "error", "{row}");
    }
    let easy = rows.iter().find(|r| r["file"] == "puzzles/3x3/easy-3.txt").unwrap();
    let extra = ["file", "flags", "expected", "matches", "branching_factor", "error", "runtime_ms"];
    for key in expected.iter().filter(|&&k| !extra.contains(&k)) {
        assert_eq!(easy[key], solve[key], "{key}");
    }
}

#[test]
fn table_summary_counts_match_the_rows() {
    let (code, stdout, _) = batch(&set_and(&["--format", "table"]));
    assert_eq!(code, 2, "puzzles/invalid holds error rows");
    let lines: Vec<&str> = stdout.lines().collect();
    let header = lines[0];
    assert!(header.starts_with("file ") && header.contains("status"), "{header}");
    let status_at = header.find("status").unwrap();
    let blank = lines.iter().position(|l| l.is_empty()).expect("a blank line before the summary");
    let rows = &lines[1..blank];
    let count = |status: &str| rows.iter().filter(|r| r[status_at..].starts_with(status)).count();
    let (solved, unsolvable, limit, error) =
        (count("solved"), count("unsolvable"), count("limit"), count("error"));
    assert_eq!(solved + unsolvable + limit + error, rows.len());
    assert!(solved > 0 && unsolvable > 0 && error > 0);
    assert_eq!(
        lines[blank + 1],
        format!(
            "{} puzzles: {solved} solved, {unsolvable} unsolvable, {limit} limit, {error} error",
            rows.len()
        )
    );
    let summary = lines[blank + 1..].join("\n");
    assert!(
        summary.contains("ms total") && summary.contains("ms mean") && summary.contains("ms median"),
        "{summary}"
    );
    assert!(summary.contains("nodes expanded:") && summary.contains("per second"), "{summary}");
    assert!(summary.contains("\nnodes generated: ") && summary.contains("\nb*: "), "{summary}");
}

#[test]
fn shards_0_of_2_and_1_of_2_cover_the_set_exactly_once() {
    let all = files(&json_lines(&batch(&set_and(&["--format", "json"])).1));
    let first = files(&json_lines(&batch(&set_and(&["--format", "json", "--shard", "0/2"])).1));
    let second = files(&json_lines(&batch(&set_and(&["--format", "json", "--shard", "1/2"])).1));
    assert!(!first.is_empty() && !second.is_empty());
    let mut both = [first.clone(), second.clone()].concat();
    both.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(both, sorted, "together the shards are the whole set, each puzzle once");
    // Every M-th puzzle starting at K.
    let every_other = |k: usize| all.iter().skip(k).step_by(2).cloned().collect::<Vec<_>>();
    assert_eq!(first, every_other(0));
    assert_eq!(second, every_other(1));
}

#[test]
fn a_shard_that_does_not_exist_is_a_usage_error() {
    for shard in ["2/2", "5/3", "0/0", "1", "a/b"] {
        npuzzle()
            .args(["batch", "puzzles/3x3", "--shard", shard])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("--shard"));
    }
}

#[test]
fn jobs_1_and_jobs_2_give_the_same_rows() {
    let rows = |jobs: &'static str| -> Vec<Value> {
        let (code, stdout, _) = batch(&set_and(&["puzzles/4x4", "--format", "json", "--jobs", jobs]));
        assert_eq!(code, 2);
        json_lines(&stdout)
            .into_iter()
            .map(|mut row| {
                row.as_object_mut().unwrap().remove("runtime_ms");
                row
            })
            .collect()
    };
    let one = rows("1");
    assert!(one.len() > 20);
    assert_eq!(one, rows("2"));
    assert_eq!(one, rows("3"));
}

#[test]
fn a_folder_holding_a_malformed_and_an_unsolvable_file_still_finishes_with_those_rows_marked() {
    let dir = mixed_folder();
    let out = npuzzle().current_dir(dir.path()).args(["batch", ".", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "an error row makes the exit code 2");
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    let by_file = |name: &str| rows.iter().find(|r| r["file"] == format!("./{name}")).unwrap();
    assert_eq!(rows.len(), 3, "notes.md is not a puzzle");
    assert_eq!(by_file("a-good.txt")["status"], "solved");
    assert_eq!(by_file("a-good.txt")["cost"], 3);
    let bad = by_file("b-malformed.txt");
    assert_eq!(bad["status"], "error");
    assert_eq!(bad["error"], "line 2: 'x' is not a non-negative integer");
    assert_eq!(bad["cost"], Value::Null);
    assert_eq!(by_file("c-unsolvable.txt")["status"], "unsolvable");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr, "npuzzle: skipping ./notes.md: not a puzzle by extension or content\n");
}

#[test]
fn the_table_marks_error_rows_with_their_message() {
    let dir = mixed_folder();
    let out = npuzzle().current_dir(dir.path()).args(["batch", ".", "--format", "table"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line = stdout.lines().find(|l| l.starts_with("./b-malformed.txt")).unwrap();
    assert!(
        line.contains(" error ") && line.ends_with("line 2: 'x' is not a non-negative integer"),
        "{line}"
    );
    assert!(stdout.contains("3 puzzles: 1 solved, 1 unsolvable, 0 limit, 1 error"), "{stdout}");
}

#[test]
fn folders_are_walked_recursively_in_sorted_order_skipping_hidden_entries_and_non_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let board = "1 2 5\n3 4 0\n6 7 8\n";
    for name in
        ["b/1.txt", "a/2.puzzle", "c.TXT", "10.txt", "a/z/deep.txt", "plain", ".hidden.txt", ".git/x.txt"]
    {
        write(dir.path(), name, board);
    }
    write(dir.path(), "LICENSE", "MIT License\n");
    write(dir.path(), "data.bin", "\u{0}\u{1}binary");
    write(dir.path(), "board.dat", "# looks like a board\n1,2,5,3,4,0,6,7,8\n");
    let out = npuzzle().current_dir(dir.path()).args(["batch", ".", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(
        files(&rows),
        ["./10.txt", "./a/2.puzzle", "./a/z/deep.txt", "./b/1.txt", "./board.dat", "./c.TXT", "./plain"]
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("skipping ./LICENSE: not a puzzle"), "{stderr}");
    assert!(stderr.contains("skipping ./data.bin: not a puzzle"), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

#[test]
fn old_mac_line_endings_end_comments_in_boards_and_lists_named_or_found_in_folders() {
    // Names that are no puzzle extension, so batch must read the content to
    // take them, and a comment first, which a missed lone CR would stretch
    // over the whole file.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "boards/crb.dat", "# c\r1 2 5\r3 4 0\r6 7 8\r");
    write(dir.path(), "lists/x.list", "# two boards\r1 2 5 3 4 0 6 7 8\r\r# the goal:\r0 1 2 3 4 5 6 7 8\r");
    let run = |args: &[&str]| {
        let out =
            npuzzle().current_dir(dir.path()).arg("batch").args(args).args(["--format", "json"]).output();
        let out = out.unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        json_lines(&String::from_utf8(out.stdout).unwrap())
    };
    for path in ["boards/crb.dat", "boards"] {
        let rows = run(&[path]);
        assert_eq!(files(&rows), ["boards/crb.dat"], "{path}");
        assert_eq!((&rows[0]["status"], &rows[0]["cost"]), (&Value::from("solved"), &Value::from(3)));
    }
    for path in ["lists/x.list", "lists"] {
        let rows = run(&["--list", path]);
        assert_eq!(files(&rows), ["lists/x.list:2", "lists/x.list:5"], "{path}");
        let costs: Vec<&Value> = rows.iter().map(|r| &r["cost"]).collect();
        assert_eq!(costs, [3, 0], "{path}");
    }
}

#[test]
fn paths_are_taken_in_the_order_given_and_a_missing_one_is_an_error_row() {
    let (code, stdout, stderr) =
        batch(&["puzzles/3x3/medium-14.txt", "no/such/file.txt", "puzzles/2x2", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(stderr.is_empty(), "{stderr}");
    let rows = json_lines(&stdout);
    assert_eq!(files(&rows), ["puzzles/3x3/medium-14.txt", "no/such/file.txt", "puzzles/2x2/hardest-6.txt"]);
    assert_eq!(rows[1]["status"], "error");
    assert_eq!(rows[1]["size"], Value::Null);
    assert!(rows[1]["error"].as_str().unwrap().contains("No such file"), "{}", rows[1]);
    assert_eq!(rows[2]["status"], "solved");
}

#[test]
fn a_goal_of_another_width_makes_error_rows_for_those_puzzles_only() {
    let (code, stdout, _) = batch(&[
        "puzzles/3x3/easy-3.txt",
        "puzzles/4x4/moves-10.txt",
        "--goal",
        "puzzles/goals/snail-3x3.txt",
    ]);
    assert_eq!(code, 2);
    let records = csv_records(&stdout);
    assert_eq!(records[0]["status"], "unsolvable");
    assert_eq!(records[1]["status"], "error");
    assert_eq!(records[1]["size"], "4");
    assert_eq!(records[1]["width"], "4");
    assert_eq!(records[1]["height"], "4");
    assert_eq!(records[1]["error"], "goal is 3x3 but the start is 4x4");
}

#[test]
fn solve_flags_apply_to_every_puzzle() {
    let (code, stdout, _) =
        batch(&["puzzles/3x3/medium-14.txt", "--algo", "bfs", "--goal", "blank-first", "--format", "json"]);
    assert_eq!(code, 0);
    let rows = json_lines(&stdout);
    assert_eq!(rows[0]["algorithm"], "bfs");
    assert_eq!(rows[0]["heuristic"], Value::Null);
    assert_eq!(rows[0]["cost"], 14);
    let (_, stdout, _) = batch(&["puzzles/3x3/medium-14.txt", "--heuristic", "hamming", "--format", "json"]);
    assert_eq!(json_lines(&stdout)[0]["heuristic"], "hamming");
}

#[test]
fn exit_code_is_3_when_a_limit_stops_a_puzzle_and_2_wins_over_3() {
    let (code, stdout, stderr) = batch(&["puzzles/3x3", "--max-nodes", "50", "--format", "json"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.is_empty(), "limits are rows, not errors: {stderr}");
    let rows = json_lines(&stdout);
    assert!(rows.iter().any(|r| r["status"] == "limit"));
    assert!(rows.iter().any(|r| r["status"] == "solved"), "each puzzle has its own 50 nodes");

    let (code, _, _) = batch(&["puzzles/3x3", "puzzles/invalid/empty.txt", "--max-nodes", "50"]);
    assert_eq!(code, 2);

    let (code, _, _) = batch(&["puzzles/3x3/hard-26.txt", "--timeout", "60"]);
    assert_eq!(code, 0);
}

#[test]
fn every_verdict_is_exit_0_and_stderr_stays_silent_off_a_terminal() {
    let (solved, unsolvable) = (count_files("3x3"), count_files("unsolvable"));
    npuzzle()
        .args(["batch", "puzzles/3x3", "puzzles/unsolvable", "--jobs", "2", "--format", "table"])
        .assert()
        .code(0)
        .stderr("")
        .stdout(contains(format!(
            "{} puzzles: {solved} solved, {unsolvable} unsolvable, 0 limit, 0 error",
            solved + unsolvable
        )));
}

#[test]
fn the_summary_of_a_single_puzzle_says_1_puzzle() {
    npuzzle()
        .args(["batch", "puzzles/3x3/easy-3.txt", "--format", "table"])
        .assert()
        .code(0)
        .stdout(contains("\n1 puzzle: 1 solved, 0 unsolvable, 0 limit, 0 error\n"));
}

#[test]
fn an_empty_selection_is_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle().args(["batch", "--format", "csv"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(parse_csv(&String::from_utf8(out.stdout).unwrap()).len(), 1, "just the header");
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in
        [vec!["batch"], vec!["batch", "puzzles", "--jobs", "0"], vec!["batch", "puzzles", "--format", "xml"]]
    {
        npuzzle().args(&args).assert().code(2).stdout("").stderr(contains("error:"));
    }
}

#[test]
fn help_explains_skipping_the_shared_node_limit_and_the_exit_codes() {
    npuzzle().args(["batch", "--help"]).assert().code(0).stdout(
        contains("--shard <K/M>")
            .and(contains("Exit codes:"))
            .and(contains("1/N"))
            .and(contains("A file named on the command line is always read"))
            .and(contains("skipped with a note")),
    );
}

#[test]
fn a_closed_pipe_ends_the_batch_quietly() {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(["batch", "--format", "json", "--jobs", "2"])
        .args(SET)
        .args(SET)
        .args(SET)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then drop: pipe closed
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_searches_under_way_reports_them_and_starts_no_more() {
    // IDA* without a heuristic stores only its path, so it can run for ever
    // on a 15-puzzle without filling memory.
    let args = ["batch", "puzzles/korf100", "--algo", "idastar", "--heuristic", "zero", "--jobs", "2"];
    let args: Vec<&OsStr> = args.iter().chain(&["--format", "json"]).map(OsStr::new).collect();
    let out = interrupt_once_started(&args, "solving", false);
    assert_eq!(out.code, Some(3));
    let rows = json_lines(&out.stdout);
    assert_eq!(files(&rows), ["puzzles/korf100/001.txt", "puzzles/korf100/002.txt"]);
    assert!(rows.iter().all(|r| r["status"] == "limit" && r["nodes_expanded"].as_u64().unwrap() > 0));
    let total = count_files("korf100");
    assert_eq!(out.stderr, format!("npuzzle: interrupted: {} of {total} puzzles not run\n", total - 2));
}

/// A FIFO at `dir/name`, made with `mkfifo`.
#[cfg(unix)]
fn fifo(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    assert!(Command::new("mkfifo").arg(&path).status().unwrap().success());
    path
}

#[cfg(unix)]
#[test]
fn a_fifo_named_on_the_command_line_is_read_to_its_end_as_solve_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "board");
    let writer = {
        let path = path.clone();
        // Two writes: a reader that stops at the first would see half a board.
        std::thread::spawn(move || {
            let mut pipe = fs::OpenOptions::new().write(true).open(path).unwrap();
            std::io::Write::write_all(&mut pipe, b"1 2 5\n3 4 0\n").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            std::io::Write::write_all(&mut pipe, b"6 7 8\n").unwrap();
        })
    };
    let (code, stdout, stderr) = batch(&[path.to_str().unwrap(), "--format", "json"]);
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    assert_eq!((rows[0]["status"].as_str(), rows[0]["cost"].as_u64()), (Some("solved"), Some(3)), "{stdout}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_batch_blocked_on_a_fifo_nobody_writes_to() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "silent");
    let args = [path.as_os_str()]
        .into_iter()
        .chain(["puzzles/3x3/easy-3.txt", "--jobs", "1", "--format", "json"].map(OsStr::new))
        .collect::<Vec<_>>();
    // Once its puzzle is under way, not merely once the batch is reading:
    // a Ctrl-C before the FIFO's puzzle starts leaves no row at all.
    let out = interrupt_once_started(&[&[OsStr::new("batch")][..], &args].concat(), "solving", false);
    assert_eq!(out.code, Some(3), "a puzzle without a verdict, not an error");
    let rows = json_lines(&out.stdout);
    assert_eq!(rows.len(), 1, "the FIFO's row; the next puzzle never started");
    assert_eq!((rows[0]["status"].as_str(), &rows[0]["start"]), (Some("limit"), &Value::Null));
    assert_eq!(out.stderr, "npuzzle: interrupted: 1 of 2 puzzles not run\n");
}

/// Two 8-puzzles, a blank line, a comment, a bad line and a Korf-style line
/// (`id length tiles`) of the classic 3-move board.
const LIST: &str = "# an instance list\n1 2 5 3 4 0 6 7 8\n\n8 0 6 5 4 7 2 3 1  # 31 moves\n1 2 x 3 4 0 6 7 8\n\
                    42 3 1,2,5,3,4,0,6,7,8\n";

#[test]
fn with_list_a_file_is_one_puzzle_per_line_and_a_bad_line_is_an_error_row_that_stops_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "set.list", LIST);
    let out = npuzzle()
        .current_dir(dir.path())
        .args(["batch", "set.list", "--list", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an error row makes the exit code 2");
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(files(&rows), ["set.list:2", "set.list:4", "set.list:5", "set.list#42"]);
    let costs: Vec<&Value> = rows.iter().map(|r| &r["cost"]).collect();
    assert_eq!(costs, [&Value::from(3), &Value::from(31), &Value::Null, &Value::from(3)]);
    assert_eq!(rows[2]["status"], "error");
    assert_eq!(rows[2]["error"], "'x' is not a non-negative integer");
    assert!(String::from_utf8(out.stderr).unwrap().is_empty());
}

#[test]
fn a_puzzle_file_given_as_a_list_is_error_rows_and_a_note_to_drop_list() {
    let (code, stdout, stderr) = batch(&["--list", "puzzles/korf100/001.txt", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(json_lines(&stdout).iter().all(|row| row["status"] == "error"), "{stdout}");
    assert_eq!(
        stderr,
        "npuzzle: puzzles/korf100/001.txt reads as one board laid out in rows: without --list it is one puzzle\n"
    );
    // One line that is a board, or a file that is no board, gets no such note.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "mixed.list", "1 2 5 3 4 0 6 7 8\n1 2\n");
    write(dir.path(), "junk.list", "x y\nz\n");
    for list in ["mixed.list", "junk.list"] {
        let out = npuzzle().current_dir(dir.path()).args(["batch", "--list", list]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{list}");
        assert!(out.stderr.is_empty(), "{list}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_list_with_no_puzzles_is_an_empty_run_like_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "none.list", "# 0 3x3 puzzles\n# size: 3x3\n\n");
    for format in ["csv", "json"] {
        let out = npuzzle()
            .current_dir(dir.path())
            .args(["batch", "--list", "none.list", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8(out.stderr).unwrap().is_empty(), "nothing was interrupted");
        assert!(no_rows(&out.stdout, format), "no rows in {format}");
    }
}

/// Whether `stdout` holds no row: nothing in JSON Lines, the header alone
/// in CSV.
fn no_rows(stdout: &[u8], format: &str) -> bool {
    let text = String::from_utf8_lossy(stdout);
    match format {
        "csv" => text.lines().count() == 1 && text.starts_with("file,"),
        _ => text.trim().is_empty(),
    }
}

#[test]
fn without_list_the_same_file_is_one_board_as_before() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.list", "1 2 5 3 4 0 6 7 8\n");
    write(dir.path(), "set.list", LIST);
    let out = npuzzle()
        .current_dir(dir.path())
        .args(["batch", "one.list", "set.list", "--format", "json"])
        .output()
        .unwrap();
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(files(&rows), ["one.list", "set.list"]);
    assert_eq!(rows[0]["cost"], 3);
    assert_eq!(rows[1]["status"], "error", "a list is no board: {}", rows[1]);
}

#[test]
fn standard_input_is_always_a_list_so_generate_pipes_into_batch() {
    let list = npuzzle().args(["generate", "--size", "3", "--count", "20", "--seed", "5", "--list"]).output();
    let list = list.unwrap().stdout;
    let out = npuzzle().args(["batch", "-", "--format", "json"]).write_stdin(list.clone()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(rows.len(), 20);
    // Two comment lines and the size line come first, so the boards are on
    // lines 4 to 23.
    let expected: Vec<String> = (4..24).map(|line| format!("<stdin>:{line}")).collect();
    assert_eq!(files(&rows), expected);
    let boards = npuzzle::board::parse_list(&String::from_utf8(list).unwrap(), None);
    for (row, entry) in rows.iter().zip(&boards) {
        let cells: Vec<u64> = entry.board.as_ref().unwrap().cells().iter().map(|&t| u64::from(t)).collect();
        assert_eq!(row["start"], serde_json::json!(cells));
        assert_eq!(row["status"], "solved");
    }
}

#[test]
fn lists_in_folders_are_read_as_lists_and_shards_count_puzzles_not_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/first.txt", "1 2 5 3 4 0 6 7 8\n0 1 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n");
    write(dir.path(), "b.txt", "1 0 2 3 4 5 6 7 8\n");
    write(dir.path(), "README.md", "# not a list\n");
    let names = |args: &[&str]| {
        let out = npuzzle().current_dir(dir.path()).arg("batch").args(args).output().unwrap();
        files(&json_lines(&String::from_utf8(out.stdout).unwrap()))
    };
    assert_eq!(
        names(&[".", "--list", "--format", "json"]),
        ["./a/first.txt:1", "./a/first.txt:2", "./a/first.txt:3", "./b.txt:1"]
    );
    assert_eq!(
        names(&[".", "--list", "--format", "json", "--shard", "1/2"]),
        ["./a/first.txt:2", "./b.txt:1"]
    );
}

#[test]
fn a_list_of_rectangles_takes_their_size() {
    let out = npuzzle()
        .args(["batch", "-", "--size", "3x2", "--format", "json"])
        .write_stdin("1 2 0 3 4 5\n4 2 1 2 0 3 4 5\n1 2 3 4\n")
        .output()
        .unwrap();
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(files(&rows), ["<stdin>:1", "<stdin>#4", "<stdin>:3"]);
    assert_eq!((rows[0]["width"].as_u64(), rows[0]["height"].as_u64()), (Some(3), Some(2)));
    assert_eq!(rows[0]["status"], "solved");
    assert!(rows[2]["error"].as_str().unwrap().contains("3x2"), "{}", rows[2]);
}

/// The list `generate ARGS --seed 3 --list` writes.
fn generated_list(args: &[&str]) -> Vec<u8> {
    npuzzle().arg("generate").args(args).args(["--seed", "3", "--list"]).output().unwrap().stdout
}

#[test]
fn generated_lists_of_rectangles_pipe_into_batch_without_a_size() {
    // Without the list's size line, six numbers would be an id, a length
    // and a 2x2 board, and twelve no board at all.
    for (args, shape, expected) in [
        (&["--size", "2x3", "--count", "2"][..], (2, 3), Value::Null),
        (&["--size", "2x5", "--distance", "10", "--count", "3"][..], (2, 5), Value::from(10)),
    ] {
        let out =
            npuzzle().args(["batch", "-", "--format", "json"]).write_stdin(generated_list(args)).output();
        let out = out.unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(rows.len(), if expected.is_null() { 2 } else { 3 }, "{args:?}");
        for row in rows {
            assert_eq!(
                (row["width"].as_u64(), row["height"].as_u64()),
                (Some(shape.0), Some(shape.1)),
                "{row}"
            );
            assert_eq!((&row["status"], &row["expected"]), (&Value::from("solved"), &expected), "{row}");
        }
    }
}

#[test]
fn a_list_size_line_must_agree_with_size_and_a_line_fitting_no_square_suggests_one() {
    let list = generated_list(&["--size", "2x3", "--count", "2"]);
    let out = npuzzle().args(["batch", "-", "--size", "3x2", "--format", "json"]).write_stdin(list).output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(2));
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(rows.len(), 2, "one error row per board, none read with a guessed shape");
    for row in rows {
        assert_eq!(
            row["error"], "line 3 says the boards after it are 2x3 but the given size is 3x2",
            "{row}"
        );
    }
    let out = npuzzle()
        .args(["batch", "-", "--format", "json"])
        .write_stdin("1 2 3 4 5 6 7 8 9 10 11 0\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let error = json_lines(&String::from_utf8(out.stdout).unwrap())[0]["error"].clone();
    assert!(error.as_str().unwrap().contains("12 numbers are no board of a list"), "{error}");
    assert!(
        error.as_str().unwrap().contains("give --size WxH, or a line `# size: WxH` above them"),
        "{error}"
    );
}

#[test]
fn standard_input_named_twice_is_a_usage_error() {
    npuzzle()
        .args(["batch", "-", "-"])
        .write_stdin("1 0 2 3\n")
        .assert()
        .code(2)
        .stderr(contains("(-) can be read once"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_batch_waiting_for_its_list_on_standard_input() {
    // Standard input is held open and never written: the list never ends.
    let args: Vec<&OsStr> = ["batch", "-", "--format", "csv"].map(OsStr::new).to_vec();
    let out = interrupt_once_started(&args, "reading", true);
    assert_eq!(out.code, Some(3));
    assert_eq!(out.stderr, "npuzzle: interrupted while reading <stdin>: no puzzle run\n");
}

#[test]
fn a_list_that_states_lengths_gets_expected_and_matches_and_the_summary_counts_what_differs() {
    // Right, wrong, and no stated length, for the same 3-move board.
    let list = "42 3 1 2 5 3 4 0 6 7 8\n43 5 1 2 5 3 4 0 6 7 8\n1 2 5 3 4 0 6 7 8\n";
    let out = npuzzle().args(["batch", "-", "--format", "json"]).write_stdin(list).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "a mismatch is a finding, not a failure");
    let rows = json_lines(&String::from_utf8(out.stdout).unwrap());
    let pairs: Vec<(&Value, &Value)> = rows.iter().map(|r| (&r["expected"], &r["matches"])).collect();
    assert_eq!(
        pairs,
        [
            (&Value::from(3), &Value::from(true)),
            (&Value::from(5), &Value::from(false)),
            (&Value::Null, &Value::Null)
        ]
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "npuzzle: 1 of 2 costs differ from the expected length (the matches column)\n"
    );
    let table = npuzzle().args(["batch", "-", "--format", "table"]).write_stdin(list).output().unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(table.contains("\nexpected lengths: 1 match, 1 differ\n"), "{table}");
    let csv = npuzzle().args(["batch", "-", "--format", "csv"]).write_stdin(list).output().unwrap();
    let records = csv_records(&String::from_utf8(csv.stdout).unwrap());
    let fields: Vec<(&str, &str)> =
        records.iter().map(|r| (r["expected"].as_str(), r["matches"].as_str())).collect();
    assert_eq!(fields, [("3", "true"), ("5", "false"), ("", "")]);
}

#[test]
fn a_puzzle_files_optimal_comment_is_its_expected_length_so_folders_are_checked_too() {
    let (code, stdout, stderr) = batch(&["puzzles/3x3", "puzzles/unsolvable", "--format", "table"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "every cost matches: {stderr}");
    let solved = count_files("3x3");
    assert!(stdout.contains(&format!("\nexpected lengths: {solved} match, 0 differ\n")), "{stdout}");
    // Greedy search's paths are longer: the rows say so, and stderr why.
    let (code, stdout, stderr) = batch(&["puzzles/3x3", "--algo", "greedy", "--format", "json"]);
    assert_eq!(code, 0);
    let rows = json_lines(&stdout);
    let differ = rows.iter().filter(|r| r["matches"] == false).count();
    assert!(differ > 0 && rows.iter().all(|r| r["expected"].as_u64() <= r["cost"].as_u64()));
    assert!(stderr.contains(&format!("{differ} of {solved} costs differ")), "{stderr}");
    assert!(stderr.contains("does not promise shortest paths"), "{stderr}");
}

#[test]
fn rows_carry_b_star_as_compare_does_and_the_summary_gives_means_and_medians() {
    let compare =
        npuzzle().args(["compare", "puzzles/3x3/medium-14.txt", "--format", "json"]).output().unwrap();
    let compare = json_lines(&String::from_utf8(compare.stdout).unwrap());
    let astar = compare
        .iter()
        .find(|r| r["algorithm"] == "astar" && r["heuristic"] == "manhattan" && r["weight"] == 1);
    let (_, stdout, _) = batch(&["puzzles/3x3/medium-14.txt", "puzzles/3x3/easy-3.txt", "--format", "json"]);
    let rows = json_lines(&stdout);
    assert_eq!(rows[0]["branching_factor"], astar.unwrap()["branching_factor"]);
    assert!(rows[0]["branching_factor"].as_f64().unwrap() > 1.0);

    // Two rows: the mean and the median are both their midpoint.
    let (_, table, _) = batch(&["puzzles/3x3/medium-14.txt", "puzzles/3x3/easy-3.txt", "--format", "table"]);
    let b: Vec<f64> = rows.iter().map(|r| r["branching_factor"].as_f64().unwrap()).collect();
    let generated: Vec<u64> = rows.iter().map(|r| r["nodes_generated"].as_u64().unwrap()).collect();
    let line = table.lines().find_map(|l| l.strip_prefix("b*: ")).expect("a b* line");
    let (mean, median) = line.split_once(" mean, ").unwrap();
    assert_eq!(median, format!("{mean} median"), "{line}");
    // The rows show b* to four decimals, so their midpoint is within 1e-4.
    let mean: f64 = mean.parse().unwrap();
    assert!((mean - f64::midpoint(b[0], b[1])).abs() <= 1e-4, "{line}");
    let (sum, half) = (generated[0] + generated[1], (generated[0] + generated[1]) as f64 / 2.0);
    assert!(
        table.contains(&format!("\nnodes generated: {sum} total, {half:.1} mean, {half} median\n")),
        "{table}"
    );
}

/// A log of a batch whose search runs for hours is not ten-second lines of
/// "0 done": each names the search under way, how long it has run and how
/// far it has got.
#[test]
fn a_batch_log_names_the_search_under_way_with_its_figures() {
    let line = predicates::str::is_match(
        r"npuzzle: solving  0/1  elapsed 0:1\d  ETA \?  puzzles/korf24/01\.txt  0:1\d  expanded [0-9.]+[kMG]?  f bound \d+\n",
    )
    .unwrap();
    npuzzle()
        .args(["batch", "puzzles/korf24/01.txt", "--algo", "idastar", "--heuristic", "manhattan"])
        .args(["--threads", "1", "--timeout", "13", "--progress", "always"])
        .assert()
        .code(3)
        .stderr(line);
}
