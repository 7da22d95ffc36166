//! `generate`, `check`, `compare` and `completions`.

use crate::util::npuzzle;
use npuzzle::HeuristicKind;
use npuzzle::compare::{DEFAULT_MAX_NODES, DEFAULT_TIMEOUT};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use std::fs;
use std::path::Path;

fn stdout_of(args: &[&str]) -> String {
    let out = npuzzle().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The board of a puzzle file, comments and header dropped.
fn board_numbers(text: &str) -> Vec<u32> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines[1..].iter().flat_map(|l| l.split_whitespace()).map(|t| t.parse().unwrap()).collect()
}

/// The files of `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

fn check_code(file: &Path, goal: &str) -> i32 {
    npuzzle().arg("check").arg(file).args(["--goal", goal]).output().unwrap().status.code().unwrap()
}

// --- generate -------------------------------------------------------------

#[test]
fn generate_with_the_same_seed_gives_the_same_boards() {
    for args in [["--size", "3", "--moves", "30"], ["--size", "4", "--random", ""]] {
        let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
        let once = stdout_of(&[&["generate", "--seed", "7"][..], &args].concat());
        let again = stdout_of(&[&["generate", "--seed", "7"][..], &args].concat());
        assert_eq!(once, again);
        let other = stdout_of(&[&["generate", "--seed", "8"][..], &args].concat());
        assert_ne!(board_numbers(&once), board_numbers(&other));
    }
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for dir in [&a, &b] {
        npuzzle()
            .args(["generate", "--size", "3", "--count", "5", "--seed", "99", "--out"])
            .arg(dir.path())
            .assert()
            .success()
            .stdout("");
    }
    for name in files_in(a.path()) {
        assert_eq!(fs::read(a.path().join(&name)).unwrap(), fs::read(b.path().join(&name)).unwrap());
    }
}

#[test]
fn a_seed_always_gives_the_same_board() {
    // Pinned: a new crate version or refactoring must not change what a seed gives.
    let text = stdout_of(&["generate", "--size", "3", "--moves", "20", "--seed", "42"]);
    assert_eq!(board_numbers(&text), [1, 2, 0, 6, 8, 3, 4, 7, 5]);
    assert!(
        text.starts_with("# 3x3 puzzle: a random walk of 20 moves from the goal blank-first\n"),
        "{text}"
    );
}

#[test]
fn board_i_of_a_seeded_set_does_not_depend_on_the_count() {
    let dir = tempfile::tempdir().unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--seed", "5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let first = fs::read_to_string(dir.path().join("1.txt")).unwrap();
    let single = stdout_of(&["generate", "--size", "3", "--seed", "5"]);
    assert_eq!(board_numbers(&first), board_numbers(&single));
}

#[test]
fn files_are_numbered_from_1_and_zero_padded_to_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new/sub");
    npuzzle()
        .args(["generate", "--size", "2", "--count", "12", "--seed", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let expected: Vec<String> = (1..=12).map(|i| format!("{i:02}.txt")).collect();
    assert_eq!(files_in(&out), expected);
}

#[test]
fn every_generated_board_is_accepted_by_check_as_solvable() {
    let dir = tempfile::tempdir().unwrap();
    for (size, how, goal) in [
        ("2", "--random", "blank-first"),
        ("3", "--random", "snail"),
        ("4", "--moves=40", "blank-last"),
        ("5", "--random", "blank-first"),
    ] {
        let out = dir.path().join(format!("{size}{how}"));
        npuzzle()
            .args(["generate", "--size", size, how, "--count", "8", "--seed", "3", "--goal", goal, "--out"])
            .arg(&out)
            .assert()
            .success();
        for name in files_in(&out) {
            assert_eq!(check_code(&out.join(&name), goal), 0, "{size} {how} {name}");
        }
    }
}

#[test]
fn unsolvable_boards_are_accepted_by_check_as_unsolvable() {
    let dir = tempfile::tempdir().unwrap();
    for (size, how) in [("2", "--random"), ("3", "--moves=12"), ("4", "--random")] {
        let out = dir.path().join(format!("{size}{how}"));
        npuzzle()
            .args(["generate", "--size", size, how, "--unsolvable", "--count", "8", "--seed", "4", "--out"])
            .arg(&out)
            .assert()
            .success();
        for name in files_in(&out) {
            assert_eq!(check_code(&out.join(&name), "blank-first"), 1, "{size} {how} {name}");
        }
    }
}

#[test]
fn a_k_move_walk_is_solved_by_astar_in_at_most_k_moves() {
    let dir = tempfile::tempdir().unwrap();
    for (size, moves) in [("3", 0), ("3", 1), ("3", 12), ("3", 25), ("4", 18), ("5", 10)] {
        let out = dir.path().join(format!("{size}-{moves}"));
        npuzzle()
            .args([
                "generate",
                "--size",
                size,
                "--moves",
                &moves.to_string(),
                "--count",
                "10",
                "--seed",
                "11",
            ])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let batch = npuzzle().args(["batch", "--format", "json"]).arg(&out).output().unwrap();
        assert_eq!(batch.status.code(), Some(0));
        let rows: Vec<Value> = String::from_utf8(batch.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 10);
        for row in rows {
            assert_eq!(row["status"], "solved", "{row}");
            let cost = row["cost"].as_u64().unwrap();
            assert!(cost <= moves, "{moves}-move walk solved in {cost}: {row}");
            assert_eq!(cost % 2, moves % 2, "every move flips the blank's colour");
        }
    }
}

#[test]
fn generate_scrambles_from_the_goal_given() {
    let text = stdout_of(&["generate", "--size", "3", "--moves", "0", "--goal", "snail", "--seed", "1"]);
    assert_eq!(board_numbers(&text), [1, 2, 3, 8, 0, 4, 7, 6, 5]);
    let text = stdout_of(&[
        "generate",
        "--size",
        "3",
        "--moves",
        "0",
        "--goal",
        "puzzles/goals/blank-centre-3x3.txt",
    ]);
    assert_eq!(board_numbers(&text), [1, 2, 3, 4, 0, 5, 6, 7, 8]);
}

#[test]
fn generate_output_is_read_by_solve() {
    let text = stdout_of(&["generate", "--size", "3", "--moves", "10", "--seed", "2"]);
    npuzzle().args(["solve", "-"]).write_stdin(text).assert().code(0);
}

#[test]
fn generate_rejects_what_it_cannot_do() {
    for (args, message) in [
        (vec!["--size", "3", "--count", "2"], "needs --out"),
        (vec!["--size", "257"], "--size"),
        (vec!["--size", "1"], "--size"),
        (vec!["--size", "3x1"], "--size"),
        (vec!["--size", "3", "--moves", "5", "--random"], "--random"),
        (
            vec!["--size", "4", "--goal", "puzzles/goals/snail-3x3.txt"],
            "the given size is 4x4 (4 rows of 4) but the board is laid out as 3 rows of 3",
        ),
        (vec!["--size", "3", "--count", "0"], "--count"),
    ] {
        npuzzle().arg("generate").args(&args).assert().code(2).stdout("").stderr(contains(message));
    }
}

// --- check ----------------------------------------------------------------

#[test]
fn check_draws_the_board_and_gives_the_parity_figures_and_every_heuristic() {
    let out = npuzzle().args(["check", "puzzles/3x3/easy-3.txt"]).assert().code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("  1 2 5\n  3 4 .\n  6 7 8\n"), "{text}");
    assert!(text.contains("width: 3\n") || text.contains("width: 3 "), "{text}");
    assert!(text.contains("solvable: yes\n"), "{text}");
    assert!(text.contains("swaps: 3\n") && text.contains("blank_distance: 3\n"), "{text}");
    assert!(text.contains("why: "), "{text}");
    for kind in HeuristicKind::ALL {
        assert!(text.contains(&format!("\n  {}: ", kind.name())), "{} missing from:\n{text}", kind.name());
    }
    assert!(text.contains("  manhattan: 3\n") && text.contains("  hamming: 3\n"), "{text}");
}

#[test]
fn check_shows_fractional_heuristics_to_four_decimals() {
    // Tiles 4 and 8 each one row and one column from home: euclidean 2√2.
    let text = stdout_of(&["check", "4,1,2,3,8,5,6,7,0", "--goal", "blank-first"]);
    assert!(text.contains("  euclidean: 2.8284\n"), "{text}");
}

#[test]
fn check_exits_1_for_unsolvable_and_2_for_invalid() {
    npuzzle()
        .args(["check", "puzzles/unsolvable/swap-3x3.txt"])
        .assert()
        .code(1)
        .stdout(contains("solvable: no\n").and(contains("can never match")));
    npuzzle()
        .args(["check", "puzzles/invalid/duplicate.txt"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("npuzzle: puzzles/invalid/duplicate.txt:3: tile 7 appears twice"));
    npuzzle()
        .args(["check", "puzzles/3x3/easy-3.txt", "--goal", "puzzles/goals/snail-4x4.txt"])
        .assert()
        .code(2);
}

#[test]
fn check_suggests_building_the_databases_where_it_looked() {
    let dir = tempfile::tempdir().unwrap();
    let spaced = dir.path().join("pattern databases");
    let hint = |pdb_dir: &Path| {
        let args = ["check", "puzzles/korf100/001.txt", "--partition", "6-6-3", "--pdb-dir"];
        let text = stdout_of(&[&args[..], &[pdb_dir.to_str().unwrap()]].concat());
        text.lines().find(|l| l.starts_with("  pdb: -")).unwrap_or_else(|| panic!("{text}")).to_owned()
    };
    let expected =
        format!("`npuzzle pdb build --partition 6-6-3 --pdb-dir {}` makes it", dir.path().display());
    assert!(hint(dir.path()).contains(&expected), "{}", hint(dir.path()));
    let expected = format!("`npuzzle pdb build --partition 6-6-3 --pdb-dir '{}'` makes it", spaced.display());
    assert!(hint(&spaced).contains(&expected), "{}", hint(&spaced));
    // Without --pdb-dir, the cache directory is meant, and the hint names none.
    let out = npuzzle()
        .env("XDG_CACHE_HOME", dir.path())
        .args(["check", "puzzles/korf100/001.txt"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(not built yet; `npuzzle pdb build --partition 7-8` makes it)"), "{text}");
    // A cache that cannot be read is named with its reason, given once.
    let blocker = dir.path().join("a-file");
    fs::write(&blocker, "not a folder").unwrap();
    let reason = fs::metadata(blocker.join("x")).unwrap_err().to_string();
    let line = hint(&blocker.join("pdb"));
    assert_eq!(line.matches(&reason).count(), 1, "{line}");
    let table = format!("{}/pdb-4x4-", blocker.join("pdb").display());
    assert!(line.contains(&table) && line.contains(&format!(": {reason}; `npuzzle pdb build")), "{line}");
}

#[test]
fn check_judges_solvability_against_the_goal_given() {
    npuzzle().args(["check", "1,2,3,8,0,4,7,6,5", "--goal", "snail"]).assert().code(0);
    npuzzle().args(["check", "1,2,3,8,0,4,7,6,5", "--goal", "blank-first"]).assert().code(1);
}

// --- compare --------------------------------------------------------------

fn compare_json(args: &[&str]) -> (i32, Vec<Value>) {
    let out = npuzzle().arg("compare").args(args).args(["--format", "json"]).output().unwrap();
    let rows =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (out.status.code().unwrap(), rows)
}

#[test]
fn compare_runs_every_algorithm_once_per_heuristic_it_uses() {
    let (code, rows) = compare_json(&["puzzles/3x3/medium-20.txt"]);
    assert_eq!(code, 0);
    let runs: Vec<(String, Value, Option<f64>)> = rows
        .iter()
        .map(|r| (r["algorithm"].as_str().unwrap().to_owned(), r["heuristic"].clone(), r["weight"].as_f64()))
        .collect();
    let mut expected = Vec::new();
    for algorithm in npuzzle::compare::algorithms() {
        let weight = algorithm.weight().map(npuzzle::Weight::value);
        if algorithm.informed() {
            for h in HeuristicKind::ALL {
                expected.push((algorithm.name().to_owned(), Value::from(h.name()), weight));
            }
        } else {
            expected.push((algorithm.name().to_owned(), Value::Null, weight));
        }
    }
    assert_eq!(runs, expected);
    for row in &rows {
        assert_eq!(row["status"], "solved", "{row}");
        let optimal = ["bfs", "astar", "idastar"].contains(&row["algorithm"].as_str().unwrap());
        let unweighted = row["weight"].is_null() || row["weight"] == 1;
        if optimal && unweighted {
            assert_eq!(row["cost"], 20, "{row}");
        }
        if let Some(w) = row["weight"].as_f64() {
            assert!(row["cost"].as_f64().unwrap() <= 20.0 * w, "within the weight's bound: {row}");
        }
        let b = row["branching_factor"].as_f64().unwrap();
        assert!(b >= 1.0, "{row}");
        let decimals = row["branching_factor"].to_string().split('.').nth(1).map_or(0, str::len);
        assert!(decimals <= 4, "four decimals: {row}");
    }
}

#[test]
fn compare_table_lists_the_figures_of_course_reports() {
    let text = stdout_of(&["compare", "puzzles/3x3/easy-3.txt"]);
    let header = text.lines().find(|l| l.starts_with("algorithm")).unwrap();
    for title in ["heuristic", "status", "cost", "expanded", "frontier", "max depth", "ms", "b*"] {
        assert!(header.contains(title), "{title} missing from {header}");
    }
    // A* with manhattan generates 8 nodes for a 3-move solution:
    // 1 + b + b² + b³ = 9 gives b* = 1.5782.
    let manhattan = text.lines().find(|l| l.starts_with("astar") && l.contains("manhattan")).unwrap();
    assert!(manhattan.ends_with("1.5782"), "{manhattan}");
    assert!(text.contains("each run limited to 2000000 stored states, 10 s"), "{text}");
}

#[test]
fn compare_csv_has_a_header_and_an_empty_branching_factor_for_a_zero_move_solution() {
    let text = stdout_of(&["compare", "puzzles/3x3/solved-0.txt", "--format", "csv"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "size,width,height,algorithm,heuristic,weight,status,cost,lower_bound,proven_optimal,nodes_expanded,\
         nodes_generated,max_frontier,max_depth,runtime_ms,branching_factor"
    );
    assert_eq!(lines.len(), 1 + npuzzle::compare::runs(false).len());
    for line in &lines[1..] {
        assert!(line.starts_with("3,3,3,") && line.contains(",solved,0,") && line.ends_with(','), "{line}");
    }
    let (_, rows) = compare_json(&["puzzles/3x3/solved-0.txt"]);
    assert!(rows.iter().all(|r| r["branching_factor"].is_null()));
}

#[test]
fn compare_rows_name_the_board_shape_in_csv_and_json_as_batch_rows_do() {
    let args = ["compare", "1,2,3,4,0,5", "--size", "3x2", "--goal", "blank-last", "--max-nodes", "1000"];
    let csv = stdout_of(&[&args[..], &["--format", "csv"]].concat());
    let batch = stdout_of(&["batch", "puzzles/3x3/easy-3.txt", "--format", "csv"]);
    let header = |text: &str| text.lines().next().unwrap().split(',').map(str::to_owned).collect::<Vec<_>>();
    let (compare_columns, batch_columns) = (header(&csv), header(&batch));
    assert_eq!(compare_columns[..3], batch_columns[1..4], "size, width and height, in batch's order");
    // A rectangle has no single side: `size` is empty, as in batch.
    assert!(csv.lines().skip(1).all(|row| row.starts_with(",3,2,")), "{csv}");
    let (_, rows) = compare_json(&args[1..]);
    assert!(rows.iter().all(|r| r["size"].is_null() && r["width"] == 3 && r["height"] == 2), "{rows:?}");
    // The table's heading names the shape; its rows do not repeat it.
    let table = stdout_of(&args);
    assert!(table.starts_with("<argument>: 3x2, goal blank-last"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("algorithm")), "{table}");
}

#[test]
fn compare_exit_codes_follow_the_verdict() {
    assert_eq!(compare_json(&["puzzles/unsolvable/swap-3x3.txt"]).0, 1);
    // No search solves a 36-move puzzle within depth 5; the constructive
    // solver builds its path without searching depths, so the limit does
    // not bind it and its answer makes the comparison a success.
    let (code, rows) = compare_json(&["puzzles/4x4/moves-36.txt", "--max-depth", "5"]);
    assert_eq!(code, 0);
    for row in &rows {
        let expected = if row["algorithm"] == "rows" { "solved" } else { "limit" };
        assert_eq!(row["status"], expected, "{row}");
    }
    let (code, _) = compare_json(&["puzzles/4x4/moves-36.txt", "--max-depth", "5", "--timeout", "0.000001"]);
    assert_eq!(code, 3, "every run stopped at a limit");
    npuzzle().args(["compare", "puzzles/invalid/empty.txt"]).assert().code(2).stdout("");
}

#[test]
fn compare_bounds_dfs_by_the_limits() {
    let (_, rows) = compare_json(&["puzzles/korf100/055.txt", "--max-nodes", "20000", "--timeout", "0.2"]);
    let dfs = rows.iter().find(|r| r["algorithm"] == "dfs").unwrap();
    assert_eq!(dfs["status"], "limit");
    assert!(dfs["nodes_expanded"].as_u64().unwrap() > 0);
}

#[test]
fn compare_help_gives_one_default_for_max_nodes_and_timeout() {
    let help = stdout_of(&["compare", "--help"]);
    let max_nodes = format!("{DEFAULT_MAX_NODES}");
    let timeout = format!("{}", DEFAULT_TIMEOUT.as_secs_f64());
    assert!(
        help.contains(&format!("each run after storing this many states (default: {max_nodes})")),
        "{help}"
    );
    assert!(help.contains(&format!("fractions allowed (default: {timeout})")), "{help}");
    assert!(help.contains(&format!("limited to {max_nodes} stored states and {timeout} seconds")), "{help}");
    assert!(!help.contains("3 GiB"), "solve's default does not apply to compare: {help}");
}

/// Every command with a `--help` of its own, as typed after `npuzzle`.
const HELP_COMMANDS: [&str; 9] =
    ["", "solve", "batch", "generate", "check", "compare", "completions", "pdb", "pdb build"];

/// The long options a `--help` lists (`--jobs` from `-j, --jobs <N>`).
fn options_listed(help: &str) -> Vec<String> {
    help.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix("--")
                .or_else(|| line.get(6..).filter(|_| line.get(2..6) == Some(", --")))?;
            Some(line.split([' ', '<', '=']).next().unwrap_or("").to_owned())
        })
        .collect()
}

/// Each `--flag` a help text mentions, with the command it belongs to: the
/// one an example line invokes, the one named just before it (`batch
/// --list`, `solve --format json`), else the command whose help it is.
fn flags_mentioned<'h>(help: &'h str, own: &'h str) -> Vec<(&'h str, String)> {
    let mut found = Vec::new();
    // Carried over line breaks: help text is wrapped.
    let mut previous = "";
    for line in help.lines() {
        let invoked = line.trim_start().strip_prefix("npuzzle ").map(|rest| {
            let words: Vec<&str> = rest.split_whitespace().take(2).collect();
            if words == ["pdb", "build"] { "pdb build" } else { words.first().copied().unwrap_or("") }
        });
        for word in line.split_whitespace() {
            let word_start = word.trim_start_matches(['`', '(', '[', '"']);
            if let Some(name) =
                word_start.strip_prefix("--").filter(|n| n.starts_with(|c: char| c.is_ascii_lowercase()))
            {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                    .collect();
                let named = previous.trim_matches(|c: char| !c.is_ascii_alphanumeric());
                let command = invoked.unwrap_or_else(|| {
                    HELP_COMMANDS
                        .iter()
                        .copied()
                        .find(|c| !c.is_empty() && (*c == named || *c == format!("pdb {named}")))
                        .unwrap_or(own)
                });
                found.push((command, name.trim_end_matches('-').to_owned()));
            }
            previous = word;
        }
    }
    found
}

#[test]
fn no_help_names_a_flag_its_command_lacks() {
    let helps: Vec<(&str, String)> = HELP_COMMANDS
        .iter()
        .map(|&command| {
            let args: Vec<&str> = command.split_whitespace().chain(["--help"]).collect();
            (command, stdout_of(&args))
        })
        .collect();
    let options = |command: &str| options_listed(&helps.iter().find(|(c, _)| *c == command).unwrap().1);
    for (command, help) in &helps {
        assert!(options(command).contains(&"help".to_owned()), "{command:?}: options not found in {help}");
        for (owner, flag) in flags_mentioned(help, command) {
            assert!(
                options(owner).contains(&flag),
                "`npuzzle {command} --help` mentions --{flag}, which `npuzzle {owner}` lacks:\n{help}"
            );
        }
    }
    // The check sees what it must: compare's own flags, and the cross
    // references it must not hold against compare.
    let compare = &helps.iter().find(|(c, _)| *c == "compare").unwrap().1;
    let mentioned = flags_mentioned(compare, "compare");
    assert!(mentioned.contains(&("compare", "max-expanded".to_owned())), "{mentioned:?}");
    assert!(mentioned.contains(&("solve", "format".to_owned())), "{mentioned:?}");
}

// --- completions ----------------------------------------------------------

#[test]
fn completions_for_bash_zsh_and_fish_know_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(&["completions", shell]);
        for sub in ["solve", "batch", "generate", "check", "compare", "completions"] {
            assert!(script.contains(sub), "{shell} completions lack {sub}");
        }
        assert!(script.contains("shard"), "{shell} completions lack batch's flags");
    }
    npuzzle().args(["completions", "tcsh"]).assert().code(2);
}

// --- help -----------------------------------------------------------------

#[test]
fn every_subcommand_help_ends_with_examples_of_that_subcommand() {
    let commands = [
        vec!["solve"],
        vec!["batch"],
        vec!["generate"],
        vec!["check"],
        vec!["compare"],
        vec!["completions"],
        vec!["pdb"],
        vec!["pdb", "build"],
    ];
    for command in commands {
        let help = stdout_of(&[command.as_slice(), &["--help"]].concat());
        let (before, examples) =
            help.rsplit_once("\nExamples:\n").unwrap_or_else(|| panic!("{command:?}: no examples: {help}"));
        let lines: Vec<&str> = examples.lines().collect();
        assert!((2..=3).contains(&lines.len()), "{command:?}: {examples}");
        let invocation = format!("  npuzzle {}", command.join(" "));
        for line in lines {
            let rest = line.strip_prefix(&invocation).unwrap_or_else(|| panic!("{command:?}: {line}"));
            assert!(rest.is_empty() || rest.starts_with(' '), "{command:?}: {line}");
        }
        if help.contains("Exit codes:") {
            assert!(before.contains("Exit codes:"), "{command:?}: examples come after the exit codes");
        }
    }
}

#[test]
fn pdb_help_offers_the_5x5_databases_it_builds() {
    for command in [vec!["pdb"], vec!["pdb", "build"]] {
        let help = stdout_of(&[command.as_slice(), &["--help"]].concat());
        assert!(
            help.contains("Build the pattern databases of a 4×4, 5×5 or 6×6 goal"),
            "{command:?}: {help}"
        );
    }
}

#[test]
fn generate_overwrites_no_file_without_force_and_names_the_one_in_the_way() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("2.txt"), "my own puzzle").unwrap();
    let out = dir.path().to_str().unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--seed", "1", "--out", out])
        .assert()
        .code(2)
        .stderr(contains("2.txt is already there: generate overwrites nothing without --force"));
    assert_eq!(std::fs::read_to_string(dir.path().join("2.txt")).unwrap(), "my own puzzle");
    assert!(!dir.path().join("1.txt").exists(), "a refusal writes nothing at all");
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--seed", "1", "--out", out, "--force"])
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(dir.path().join("2.txt")).unwrap().contains("npuzzle generate --seed 1"));
    // A list file is protected the same way.
    let list = dir.path().join("set.list");
    std::fs::write(&list, "keep me").unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--list", "--out", list.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("set.list is already there"));
    assert_eq!(std::fs::read_to_string(&list).unwrap(), "keep me");
}

#[test]
fn generate_writes_a_list_one_board_per_line_that_reads_back() {
    let text = stdout_of(&["generate", "--size", "4x3", "--count", "5", "--seed", "9", "--list"]);
    assert!(text.starts_with("# 5 4x3 puzzles, one per line"), "{text}");
    let entries = npuzzle::board::parse_list(&text, Some(npuzzle::board::Shape::new(4, 3)));
    assert_eq!(entries.len(), 5);
    assert!(entries.iter().all(|e| e.board.as_ref().is_ok_and(|b| b.width() == 4)));
    // The same seed gives the same boards as the numbered files.
    let single = stdout_of(&["generate", "--size", "4x3", "--seed", "9"]);
    let first: Vec<u32> = entries[0].board.as_ref().unwrap().cells().iter().map(|&t| u32::from(t)).collect();
    assert_eq!(board_numbers(&single), first);
}

#[test]
fn a_goal_typed_over_several_lines_stays_inside_the_comments_generate_writes() {
    // The comments name the goal as typed; each of its line breaks (LF, CRLF
    // or a lone CR) must open a new comment line, or its rows would be read
    // as part of the board or as puzzles of the list.
    let goal = "1 2 3\r4 5 6\r\n7 8 0";
    let list =
        stdout_of(&["generate", "--size", "3", "--count", "3", "--seed", "4", "--list", "--goal", goal]);
    let entries = npuzzle::board::parse_list(&list, None);
    assert_eq!(entries.len(), 3, "{list}");
    assert!(entries.iter().all(|e| e.board.is_ok()), "{list}");
    let single = stdout_of(&["generate", "--size", "3", "--seed", "4", "--goal", goal]);
    let board = npuzzle::board::parse_board(&single).unwrap_or_else(|e| panic!("{e:?}: {single}"));
    assert_eq!(Some(board), entries[0].board.clone().ok());
}

#[test]
fn generate_caps_its_random_walks() {
    npuzzle()
        .args(["generate", "--size", "3", "--moves", "18446744073709551615"])
        .assert()
        .code(2)
        .stderr(contains("--moves"));
    npuzzle().args(["generate", "--help"]).assert().stdout(contains("K up to 100000000"));
}

// --- generate --distance ---------------------------------------------------

/// The boards of a `generate --list` output, each with the length its line states.
fn listed(text: &str, size: Option<npuzzle::board::Shape>) -> Vec<(Vec<u16>, u32)> {
    npuzzle::board::parse_list(text, size)
        .into_iter()
        .map(|e| (e.board.unwrap().cells().to_vec(), e.expected.expect("a stated length")))
        .collect()
}

#[test]
fn every_distance_d_board_of_a_3x3_is_exactly_d_moves_by_breadth_first_search() {
    let distances = [0, 1, 2, 5, 12, 14, 20, 24, 30, 31];
    let arg = distances.map(|d: u32| d.to_string()).join(",");
    let text =
        stdout_of(&["generate", "--size", "3", "--distance", &arg, "--count", "20", "--seed", "3", "--list"]);
    let boards = listed(&text, None);
    assert_eq!(boards.len(), distances.len() * 20);
    let truth = crate::util::eight_puzzle_distances();
    for (i, (cells, stated)) in boards.iter().enumerate() {
        assert_eq!(*stated, distances[i / 20], "line {i}: in the order asked, 20 each");
        assert_eq!(truth[cells], *stated, "{cells:?}");
    }
}

#[test]
fn boards_at_a_distance_are_drawn_uniformly_among_all_boards_there() {
    // Eight 3x3 boards are 3 moves from the blank-first goal.
    let text =
        stdout_of(&["generate", "--size", "3", "--distance", "3", "--count", "800", "--seed", "8", "--list"]);
    let mut seen: std::collections::HashMap<Vec<u16>, usize> = std::collections::HashMap::new();
    for (cells, _) in listed(&text, None) {
        *seen.entry(cells).or_default() += 1;
    }
    assert_eq!(seen.len(), 8, "every board at distance 3 is drawn");
    // 100 each on average; a binomial(800, 1/8) stays within 60..140 but
    // for odds of about 1e-5.
    assert!(seen.values().all(|&n| (60..140).contains(&n)), "{seen:?}");
}

#[test]
fn small_rectangles_are_enumerated_for_any_goal() {
    let text = stdout_of(&[
        "generate",
        "--size",
        "4x2",
        "--goal",
        "blank-last",
        "--distance",
        "7,15,36",
        "--count",
        "10",
        "--seed",
        "4",
        "--list",
    ]);
    let goal = npuzzle::Goal::new(&npuzzle::GoalSpec::BlankLast, npuzzle::board::Shape::new(4, 2)).unwrap();
    let truth = crate::util::packed_distances(goal.tiles().cells(), 4, 2);
    let boards = listed(&text, Some(npuzzle::board::Shape::new(4, 2)));
    assert_eq!(boards.len(), 30);
    for (cells, stated) in boards {
        assert_eq!(u32::from(truth[&crate::util::pack(&cells)]), stated, "{cells:?}");
    }
    assert!(text.lines().next().unwrap().contains("drawn uniformly"), "{text}");
}

#[test]
fn larger_boards_come_from_walks_whose_optimum_is_confirmed() {
    let text = stdout_of(&[
        "generate",
        "--size",
        "4x3",
        "--distance",
        "9,16",
        "--count",
        "3",
        "--seed",
        "2",
        "--list",
    ]);
    assert!(text.lines().next().unwrap().contains("not uniform"), "{text}");
    for (cells, stated) in listed(&text, Some(npuzzle::board::Shape::new(4, 3))) {
        // Breadth-first search shares nothing with the IDA* that confirmed it.
        let board = cells.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        let out = stdout_of(&["solve", &board, "--size", "4x3", "--algo", "bfs", "--format", "json"]);
        let cost = serde_json::from_str::<Value>(&out).unwrap()["cost"].as_u64().unwrap();
        assert_eq!(cost, u64::from(stated), "{board}");
    }
}

#[test]
fn a_distance_list_piped_into_batch_is_checked_row_by_row() {
    let list = stdout_of(&[
        "generate",
        "--size",
        "3",
        "--distance",
        "8,16",
        "--count",
        "25",
        "--seed",
        "6",
        "--list",
    ]);
    let out = npuzzle().args(["batch", "-", "--format", "table"]).write_stdin(list).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("\nexpected lengths: 50 match, 0 differ\n"), "{table}");
    assert!(table.contains("<stdin>#50 "), "ids run on across distances: {table}");
    // Files carry the length as their `# optimal:` line.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("d12");
    stdout_of(&[
        "generate",
        "--size",
        "3",
        "--distance",
        "12",
        "--count",
        "3",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let rows = stdout_of(&["batch", out_dir.to_str().unwrap(), "--format", "json"]);
    let rows: Vec<Value> = rows.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows.iter().all(|r| r["expected"] == 12 && r["matches"] == true), "{rows:?}");
}

#[test]
fn a_distance_out_of_reach_or_mixed_with_another_scramble_is_refused() {
    for (args, message) in [
        (
            vec!["--size", "3", "--distance", "32"],
            "no 3x3 board is 32 moves from this goal: none needs more than 31",
        ),
        (vec!["--size", "2", "--distance", "4,7", "--list"], "none needs more than 6"),
        (vec!["--size", "3", "--distance", "4", "--moves", "4"], "--distance"),
        (vec!["--size", "3", "--distance", "4", "--unsolvable"], "--distance"),
        (vec!["--size", "3", "--distance", "4,6"], "needs --out DIR or --list"),
    ] {
        npuzzle().arg("generate").args(&args).assert().code(2).stdout("").stderr(contains(message));
    }
}
