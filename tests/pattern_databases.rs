//! Pattern databases end to end: searches guided by them against ground
//! truth, and `--heuristic pdb` / `npuzzle pdb build` from the outside.
//! The 6-6-3 partition stands in for 7-8, whose build is too slow for CI.

use crate::util::{
    Rng, all_distances, distances_within, eight_puzzle_distances, npuzzle, optimal, play, puzzle,
};
use npuzzle::heuristic::pdb::{PatternDatabase, Pdb, TableKind};
use npuzzle::{
    Algorithm, Board, Goal, GoalSpec, HeuristicKind, Input, Limits, Outcome, Packed, PartitionSet, Status,
    Tables, astar, fringe, idastar, read_input, solve,
};
use predicates::str::contains;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How long a `solve` that loads or builds the 6-6-3 databases may take
/// before it counts as hung: they build in seconds, so this is generous
/// even on a loaded 2-core machine.
const LONG_ENOUGH: Duration = Duration::from_secs(60);

/// The 6-6-3 databases of the default goal, built once for the whole run
/// (and kept between runs) in the test target's scratch directory.
fn six_six_three() -> (&'static Path, Arc<Pdb>) {
    static BUILT: OnceLock<(PathBuf, Arc<Pdb>)> = OnceLock::new();
    let (dir, pdb) = BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-6-6-3");
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        let pdb = Pdb::load_or_build(&goal, PartitionSet::SIX_SIX_THREE, &dir, &mut |_| {}).unwrap();
        (dir, Arc::new(pdb))
    });
    (dir, Arc::clone(pdb))
}

/// Databases of a 3×3 goal over two patterns (rows against columns where the
/// goal is the default one), built in memory.
fn eight_puzzle_pdb(goal: &Goal, patterns: &[&[u8]]) -> Pdb {
    let dbs = patterns
        .iter()
        .map(|tiles| PatternDatabase::build(goal, tiles, TableKind::Minimised, &mut |_| {}).unwrap())
        .collect();
    Pdb::from_databases(goal, dbs).unwrap()
}

fn assert_replays(outcome: &Outcome, start: &[u16], goal: &Goal, distance: u32, label: &str) {
    assert_eq!(outcome.status, Status::Solved, "{label}");
    let path = outcome.path.as_ref().unwrap();
    assert_eq!(path.len() as u32, distance, "{label}: optimal");
    let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
    assert_eq!(play(start, goal.width(), &names), goal.tiles().cells(), "{label}: replays to the goal");
}

#[test]
fn idastar_fringe_search_and_astar_with_pattern_databases_find_the_true_cost_of_random_8_puzzles() {
    let mut rng = Rng(2002);
    for (spec, patterns) in [
        (GoalSpec::BlankFirst, &[&[1, 2, 3, 4][..], &[5, 6, 7, 8]][..]),
        (GoalSpec::Snail, &[&[1, 2, 3][..], &[4, 5, 6], &[7, 8]][..]),
        (GoalSpec::BlankLast, &[&[1, 2, 4, 5][..], &[3, 6, 7, 8]][..]),
    ] {
        let goal = Goal::new(&spec, 3).unwrap();
        let pdb = eight_puzzle_pdb(&goal, patterns);
        let truth = if spec == GoalSpec::BlankFirst {
            eight_puzzle_distances()
        } else {
            &all_distances(goal.tiles().cells(), 3)
        };
        let mut checked = 0;
        while checked < 100 {
            let start = rng.shuffle(9);
            let Some(&distance) = truth.get(&start) else { continue };
            checked += 1;
            let board = Packed::from_tiles(&start);
            let label = format!("{spec:?} {start:?}");
            let ida = idastar(&board, &goal, &pdb, &Limits::default());
            assert_replays(&ida, &start, &goal, distance, &format!("idastar {label}"));
            let kept = fringe(&board, &goal, &pdb, &Limits::default());
            assert_replays(&kept, &start, &goal, distance, &format!("fringe {label}"));
            let a = astar(&board, &goal, &pdb, &Limits::default());
            assert_replays(&a, &start, &goal, distance, &format!("astar {label}"));
        }
    }
}

#[test]
fn the_6_6_3_databases_solve_easier_korf_instances_optimally() {
    let (_, pdb) = six_six_three();
    let tables = Tables::from(pdb);
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    for number in [2, 42, 55, 79, 97] {
        let file = format!("korf100/{number:03}.txt");
        let start = read_input(&Input::File(puzzle(&file))).unwrap();
        for algorithm in [Algorithm::IdaStar, Algorithm::Fringe, Algorithm::AStar] {
            let outcome =
                solve(&start, &goal, algorithm, HeuristicKind::Pdb, &Limits::default(), &tables).unwrap();
            assert_replays(&outcome, start.cells(), &goal, optimal(&file), &format!("{algorithm} {file}"));
        }
    }
}

/// The 5×5 board in eight 3-tile patterns: tables small enough to build in
/// a test.
const FIVE_BY_FIVE_THREES: [&[u8]; 8] = [
    &[1, 2, 3],
    &[4, 8, 9],
    &[5, 10, 15],
    &[6, 7, 11],
    &[12, 13, 14],
    &[16, 17, 20],
    &[18, 21, 22],
    &[19, 23, 24],
];

/// Random walks from the 5×5 goal, each passed to `check` with its true
/// distance (from a breadth-first search to 14 moves) until twelve of them
/// were 10 moves or more away.
fn walks_of_known_distance(goal: &Goal, seed: u64, mut check: impl FnMut(&[u16], u32)) {
    let truth = distances_within(goal.tiles().cells(), 5, 14);
    let mut rng = Rng(seed);
    let mut by_distance = [0; 15];
    while by_distance[10..].iter().sum::<u32>() < 12 {
        let steps = 10 + rng.below(20);
        let start = rng.walk(goal.tiles().cells(), 5, steps);
        let Some(&distance) = truth.get(&start) else { continue };
        by_distance[distance as usize] += 1;
        check(&start, distance);
    }
}

/// The 5×5 search end to end with databases small enough to build in a
/// test: IDA* on one and two threads returns the true distance of boards up
/// to 14 moves from the goal, mirrored lookups included.
#[test]
fn idastar_with_small_5x5_databases_finds_the_true_cost_of_random_walks() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 5).unwrap();
    let dbs = FIVE_BY_FIVE_THREES
        .iter()
        .map(|tiles| PatternDatabase::build(&goal, tiles, TableKind::Minimised, &mut |_| {}).unwrap())
        .collect();
    let pdb = Pdb::from_databases(&goal, dbs).unwrap();
    assert!(pdb.mirrored());
    let tables = Tables::from(Arc::new(pdb));
    walks_of_known_distance(&goal, 24, |start, distance| {
        let tiles = npuzzle::Tiles::new(start).unwrap();
        for threads in [1, 2] {
            let limits = Limits { threads, split_after: Some(0), ..Limits::default() };
            let outcome =
                solve(&tiles, &goal, Algorithm::IdaStar, HeuristicKind::Pdb, &limits, &tables).unwrap();
            assert_replays(&outcome, start, &goal, distance, &format!("{start:?} on {threads} threads"));
        }
    });
}

/// The same with zero-aware tables in bits and the largest of two
/// partitions (sharing tables), as the 5×5 maxed sets work: IDA* returns
/// the true distance of boards up to 14 moves from the goal, and expands
/// fewer nodes than with the first partition alone. So does fringe search,
/// whose frontier needs every pruned child's estimate whole.
#[test]
fn idastar_and_fringe_search_with_several_zero_aware_5x5_partitions_find_the_true_cost_of_random_walks() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 5).unwrap();
    let more: [&[u8]; 5] = [&[1, 5, 6], &[2, 3, 7], &[10, 11, 15], &[16, 20, 21], &[17, 18, 22]];
    let patterns: Vec<&[u8]> = FIVE_BY_FIVE_THREES.iter().chain(&more).copied().collect();
    let first: Vec<usize> = (0..8).collect();
    let second = vec![8, 9, 1, 10, 4, 11, 12, 7];
    let build = |partitions: &[Vec<usize>]| {
        let dbs = patterns
            .iter()
            .map(|tiles| PatternDatabase::build(&goal, tiles, TableKind::ZeroAwareBits, &mut |_| {}).unwrap())
            .collect();
        Arc::new(Pdb::from_partitions(&goal, dbs, partitions).unwrap())
    };
    let maxed = build(&[first.clone(), second]);
    let alone = build(&[first]);
    let (mut with_both, mut with_first) = (0, 0);
    walks_of_known_distance(&goal, 25, |start, distance| {
        let board = npuzzle::Packed128::from_tiles(start);
        for threads in [1, 2] {
            let limits = Limits { threads, split_after: Some(0), ..Limits::default() };
            let outcome = idastar(&board, &goal, &*maxed, &limits);
            assert_replays(&outcome, start, &goal, distance, &format!("{start:?} on {threads} threads"));
        }
        let one = Limits::default();
        let kept = fringe(&board, &goal, &*maxed, &one);
        assert_replays(&kept, start, &goal, distance, &format!("{start:?} by fringe search"));
        with_both += idastar(&board, &goal, &*maxed, &one).stats.nodes_expanded;
        with_first += idastar(&board, &goal, &*alone, &one).stats.nodes_expanded;
    });
    assert!(with_both < with_first, "the maximum prunes more: {with_both} against {with_first}");
}

#[test]
fn pattern_databases_need_a_partition_for_the_board_and_their_own_goal() {
    let (_, pdb) = six_six_three();
    let tables = Tables::from(pdb);
    let small = read_input(&Input::Inline("1,2,5,3,4,0,6,7,8".into())).unwrap();
    let goal3 = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let err = solve(&small, &goal3, Algorithm::IdaStar, HeuristicKind::Pdb, &Limits::default(), &tables);
    assert!(err.unwrap_err().to_string().contains("built for another goal than this 3x3 one"));
    let err =
        solve(&small, &goal3, Algorithm::IdaStar, HeuristicKind::Pdb, &Limits::default(), &Tables::NONE);
    assert!(err.unwrap_err().to_string().contains("no partition is built in for 3x3 boards"));
    // Uninformed searches ignore the heuristic, so they need no tables.
    let bfs = solve(&small, &goal3, Algorithm::Bfs, HeuristicKind::Pdb, &Limits::default(), &Tables::NONE);
    assert_eq!(bfs.unwrap().cost(), Some(3));
    let start = read_input(&Input::File(puzzle("korf100/002.txt"))).unwrap();
    // One move from the default goal, so the start can reach it too.
    let mut shifted: Vec<u16> = (0..16).collect();
    shifted.swap(0, 1);
    let shifted = npuzzle::Tiles::new(&shifted).unwrap();
    let other = Goal::new(&GoalSpec::Board(shifted), 4).unwrap();
    let err = solve(&start, &other, Algorithm::IdaStar, HeuristicKind::Pdb, &Limits::default(), &tables);
    assert!(err.unwrap_err().to_string().contains("another goal"));
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let err = solve(&start, &goal, Algorithm::IdaStar, HeuristicKind::Pdb, &Limits::default(), &Tables::NONE);
    assert!(err.unwrap_err().to_string().contains("no pattern databases"));
}

fn solve_json(args: &[&str]) -> Value {
    let out = npuzzle().args(["solve", "--format", "json"]).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&String::from_utf8(out.stdout).unwrap()).unwrap()
}

#[test]
fn solve_with_heuristic_pdb_uses_the_cached_databases() {
    let (dir, _) = six_six_three();
    let dir = dir.to_str().unwrap();
    for algo in ["idastar", "astar"] {
        let v = solve_json(&[
            "puzzles/korf100/079.txt",
            "--algo",
            algo,
            "--heuristic",
            "pdb",
            "--partition",
            "6-6-3",
            "--pdb-dir",
            dir,
        ]);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["heuristic"], "pdb");
        assert_eq!(v["cost"], optimal("korf100/079.txt"));
    }
}

#[test]
fn heuristic_pdb_on_another_width_is_bad_input() {
    npuzzle().args(["solve", "puzzles/3x3/easy-3.txt", "--heuristic", "pdb"]).assert().code(2).stderr(
        contains("no partition is built in for 3x3 boards (partitions: 4x4: 7-8, 6-6-3, zero-7-8; 5x5: 6-6-6-6, zero-6-6-6-6, zero-max7; 6x6: zero-6-6-6-6-6-5)"),
    );
    // An unsolvable 4×4 start is unsolvable, databases or not: none are built.
    let dir = tempfile::tempdir().unwrap();
    npuzzle()
        .args(["solve", "puzzles/unsolvable/loyd-4x4.txt", "--heuristic", "pdb", "--pdb-dir"])
        .arg(dir.path())
        .assert()
        .code(1);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Which files are kept is told by their inodes, not their times: a table
/// is written to a new file renamed into place, so one written again is a
/// new inode under the old name, however close in time.
#[cfg(unix)]
#[test]
fn pdb_build_writes_verified_files_once_and_rebuilds_damaged_ones() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let build = |extra: &[&str]| {
        let out = npuzzle()
            .args(["pdb", "build", "--partition", "6-6-3", "--pdb-dir"])
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "no bar off a terminal");
        String::from_utf8(out.stdout).unwrap()
    };
    let report = build(&[]);
    assert!(report.starts_with("6-6-3 pattern databases for the 4x4 goal blank-first"), "{report}");
    assert!(report.contains("tiles 13 14 15: 3360 entries"), "{report}");
    assert!(report.contains("tiles 1 4 5 8 9 12: 5765760 entries"), "{report}");
    assert!(report.contains("mirror lookup: yes"), "{report}");
    let files = |dir: &Path| {
        let mut files: Vec<(String, u64)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().into_string().unwrap(), e.metadata().unwrap().ino())
            })
            .collect();
        files.sort();
        files
    };
    let first = files(dir.path());
    assert_eq!(first.len(), 3, "{first:?}");
    // Present and verified: kept as they are.
    build(&[]);
    assert_eq!(files(dir.path()), first);

    // A damaged file is rebuilt, not trusted, by the next search.
    let damaged = dir.path().join(&first[0].0);
    let good = std::fs::read(&damaged).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x5A;
    std::fs::write(&damaged, &bad).unwrap();
    let out = npuzzle()
        .args(["solve", "puzzles/korf100/055.txt", "--algo", "idastar", "--heuristic", "pdb"])
        .args(["--partition", "6-6-3", "--format", "json", "--pdb-dir"])
        .arg(dir.path())
        .timeout(LONG_ENOUGH)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cost"], optimal("korf100/055.txt"));
    // Exactly one line, saying which file, why, and that it is rebuilt.
    assert_eq!(
        stderr,
        format!("npuzzle: warning: {}: checksum mismatch; building it again\n", damaged.display())
    );
    assert_eq!(std::fs::read(&damaged).unwrap(), good, "rebuilt byte for byte");
    let before = files(dir.path());
    build(&["--force"]);
    let after = files(dir.path());
    assert_eq!(after.len(), before.len(), "{after:?}");
    assert!(
        after.iter().zip(&before).all(|(now, then)| now.0 == then.0 && now.1 != then.1),
        "--force rebuilds"
    );
}

#[test]
fn pdb_build_refuses_goals_it_cannot_serve() {
    npuzzle().args(["pdb", "build", "--goal", "1,2,3,0", "--pdb-dir", "unused"]).assert().code(2).stderr(
        contains(
            "no pattern databases are built in for 2x2 boards (partitions: 4x4: 7-8, 6-6-3, zero-7-8; 5x5: 6-6-6-6, zero-6-6-6-6, zero-max7; 6x6: zero-6-6-6-6-6-5)",
        ),
    );
    // A directory that cannot be created: one line, exit 2, before any
    // build, naming the directory and the reason (once).
    let out = npuzzle()
        .args(["pdb", "build", "--partition", "6-6-3", "--pdb-dir", "puzzles/3x3/easy-3.txt/inside"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let reason = std::fs::metadata(puzzle("3x3/easy-3.txt/inside")).unwrap_err().to_string();
    assert_eq!(
        stderr,
        format!(
            "npuzzle: cannot build pattern databases in puzzles/3x3/easy-3.txt/inside: \
             puzzles/3x3/easy-3.txt/inside: {reason}\n"
        )
    );
    npuzzle()
        .args(["pdb", "build", "--partition", "6-6-3"])
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .assert()
        .code(2)
        .stderr(contains("use --pdb-dir"));
}

#[test]
fn other_goals_get_databases_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let out =
        npuzzle().args(["pdb", "build", "--partition", "6-6-3", "--goal", "snail", "--pdb-dir", d]).output();
    let report = String::from_utf8(out.unwrap().stdout).unwrap();
    assert!(report.contains("mirror lookup: no"), "the snail's blank is off the diagonal: {report}");
    let start = npuzzle()
        .args(["generate", "--size", "4", "--moves", "30", "--seed", "5", "--goal", "snail"])
        .output()
        .unwrap()
        .stdout;
    let file = dir.path().join("start.txt");
    std::fs::write(&file, start).unwrap();
    let file = file.to_str().unwrap();
    let by_pdb = solve_json(&[
        file,
        "--goal",
        "snail",
        "--algo",
        "idastar",
        "--heuristic",
        "pdb",
        "--partition",
        "6-6-3",
        "--pdb-dir",
        d,
    ]);
    let by_manhattan = solve_json(&[file, "--goal", "snail", "--algo", "idastar"]);
    assert_eq!(by_pdb["cost"], by_manhattan["cost"]);
    assert!(by_pdb["nodes_generated"].as_u64() < by_manhattan["nodes_generated"].as_u64());
}

#[test]
fn batch_and_compare_use_the_databases() {
    let (dir, _) = six_six_three();
    let d = dir.to_str().unwrap();
    let out = npuzzle()
        .args(["batch", "puzzles/korf100/002.txt", "puzzles/3x3/easy-3.txt", "--format", "json"])
        .args(["--algo", "idastar", "--heuristic", "pdb", "--partition", "6-6-3", "--pdb-dir", d])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the 3×3 row is an error");
    let rows: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["cost"], optimal("korf100/002.txt"));
    assert_eq!(rows[1]["status"], "error");
    assert!(
        rows[1]["error"].as_str().unwrap().contains("partition 6-6-3 is not for 3x3 boards"),
        "{}",
        rows[1]
    );

    let compare = |pdb_dir: &str| {
        let out = npuzzle()
            .args(["compare", "puzzles/korf100/002.txt", "--format", "json", "--timeout", "1"])
            .args(["--partition", "6-6-3", "--pdb-dir", pdb_dir])
            .output()
            .unwrap();
        let rows: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let pdb_rows: Vec<Value> = rows.into_iter().filter(|r| r["heuristic"] == "pdb").collect();
        (pdb_rows, String::from_utf8(out.stderr).unwrap())
    };
    let (rows, _) = compare(d);
    let informed = npuzzle::compare::algorithms().into_iter().filter(|a| a.informed()).count();
    assert_eq!(rows.len(), informed, "every informed algorithm once with pdb");
    let best = f64::from(optimal("korf100/002.txt"));
    for row in &rows {
        let cost = row["cost"].as_f64().unwrap();
        match row["weight"].as_f64() {
            Some(w) => assert!(cost >= best && cost <= w * best, "{row}"),
            None => assert!(cost >= best, "greedy: {row}"),
        }
    }
    // Not built: left out with a note, never built behind the user's back.
    let empty = tempfile::tempdir().unwrap();
    let (rows, stderr) = compare(empty.path().to_str().unwrap());
    assert!(rows.is_empty());
    assert!(stderr.contains("pdb left out (not built yet;"), "{stderr}");
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
}

#[test]
fn check_shows_the_pattern_database_value_when_it_is_built() {
    let (dir, pdb) = six_six_three();
    let start = read_input(&Input::File(puzzle("korf100/001.txt"))).unwrap();
    let expected = pdb.value(&Packed::from_tiles(start.cells()));
    let check = |pdb_dir: &str| {
        let out = npuzzle()
            .args(["check", "puzzles/korf100/001.txt", "--partition", "6-6-3", "--pdb-dir", pdb_dir])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = check(dir.to_str().unwrap());
    assert!(text.contains(&format!("  pdb: {expected}\n")), "{text}");
    assert!(expected > 41 && expected <= 57, "above Manhattan (41), at most the optimum (57): {expected}");
    let empty = tempfile::tempdir().unwrap();
    assert!(check(empty.path().to_str().unwrap()).contains("  pdb: - (not built yet;"));
    // Other widths have no pdb line at all.
    let small = npuzzle().args(["check", "puzzles/3x3/easy-3.txt"]).output().unwrap();
    assert!(!String::from_utf8(small.stdout).unwrap().contains("pdb"));
}

#[test]
fn a_folder_or_fifo_in_the_cache_is_refused_before_any_table_is_built() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    for kind in ["a folder", "a FIFO"] {
        let dir = tempfile::tempdir().unwrap();
        // The last file of the partition: a check made per file would only
        // reach it after building the others.
        let paths = Pdb::paths(&goal, PartitionSet::SIX_SIX_THREE, dir.path()).unwrap();
        let last = paths.last().unwrap();
        if kind == "a folder" {
            std::fs::create_dir(last).unwrap();
        } else if !std::process::Command::new("mkfifo").arg(last).status().is_ok_and(|s| s.success()) {
            continue; // no mkfifo on this system
        }
        let d = dir.path().to_str().unwrap();
        for args in [
            &[
                "solve",
                "puzzles/korf100/079.txt",
                "--heuristic",
                "pdb",
                "--partition",
                "6-6-3",
                "--pdb-dir",
                d,
            ][..],
            &["pdb", "build", "--partition", "6-6-3", "--pdb-dir", d],
        ] {
            let out = npuzzle().args(args).output().unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains(&format!("is {kind}, not a pattern database file")), "{stderr}");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "{kind}: nothing was built first");
        }
    }
}

#[test]
fn a_cache_that_cannot_be_written_gets_tables_built_in_memory_with_a_warning_and_the_solve_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    // A cache under a regular file cannot be created, even by root (for
    // whom a read-only folder takes files anyway).
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let mut caches = vec![blocker.join("npuzzle")];
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let read_only = dir.path().join("read-only");
        std::fs::create_dir(&read_only).unwrap();
        std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o555)).unwrap();
        if std::fs::File::create(read_only.join("probe")).is_ok() {
            eprintln!("skipping the read-only folder: this user (root?) can write in it anyway");
        } else {
            caches.push(read_only);
        }
    }
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    for cache in caches {
        let out = npuzzle()
            .args(["solve", "puzzles/korf100/079.txt", "--algo", "idastar", "--heuristic", "pdb"])
            .args(["--partition", "6-6-3", "--format", "json", "--pdb-dir"])
            .arg(&cache)
            .timeout(LONG_ENOUGH)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", cache.display());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (&v["heuristic"], &v["cost"]),
            (&Value::from("pdb"), &Value::from(optimal("korf100/079.txt")))
        );
        // One warning per table that could not be kept, and nothing else
        // (no claim that a file was there to be rebuilt).
        let paths = Pdb::paths(&goal, PartitionSet::SIX_SIX_THREE, &cache).unwrap();
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), paths.len(), "{stderr}");
        for (line, path) in lines.iter().zip(&paths) {
            let warning = format!("npuzzle: warning: cannot save {}: ", path.display());
            assert!(line.starts_with(&warning), "{line}");
            assert!(line.ends_with("; the tables serve this run only"), "{line}");
            assert!(!path.exists());
        }
    }
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}

#[test]
fn a_forged_database_with_a_valid_checksum_still_lets_idastar_and_fringe_search_end() {
    // Every entry 1: the estimate is never 0, not even at the goal, so a
    // search that took "h = 0" for the goal would never stop.
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind::Minimised;
    for tiles in PartitionSet::SIX_SIX_THREE.tables(&goal).unwrap().patterns {
        let real = PatternDatabase::build(&goal, &tiles, kind, &mut |_| {}).unwrap();
        let forged = PatternDatabase::from_entries(&goal, &tiles, kind, &vec![1; real.len()]).unwrap();
        forged.save(&PatternDatabase::path(dir.path(), &goal, &tiles, kind).unwrap(), &mut |_| {}).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let start =
        npuzzle().args(["generate", "--size", "4", "--moves", "14", "--seed", "3"]).output().unwrap().stdout;
    let file = dir.path().join("start.txt");
    std::fs::write(&file, &start).unwrap();
    let tiles = read_input(&Input::File(file.clone())).unwrap();
    let truth = distances_within(goal.tiles().cells(), 4, 14)[tiles.cells()];
    for algo in ["idastar", "fringe"] {
        // A search that never ends is killed at the time limit, and fails here.
        let out = npuzzle()
            .arg("solve")
            .arg(&file)
            .args(["--algo", algo, "--heuristic", "pdb", "--partition", "6-6-3", "--pdb-dir", d])
            .args(["--threads", "2", "--format", "json"])
            .timeout(LONG_ENOUGH)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{algo} killed after {LONG_ENOUGH:?} or failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["status"], "solved");
        // A constant estimate makes IDA* a plain iterative deepening: still optimal.
        assert_eq!(v["cost"], truth, "{algo}");
    }
}

#[test]
fn anytime_finishes_the_blocks_of_larger_boards_with_their_tables() {
    use npuzzle::board::{Scramble, SplitMix64, generate};
    let block = Goal::new(&GoalSpec::BlankFirst, 5).unwrap();
    let dbs = FIVE_BY_FIVE_THREES
        .iter()
        .map(|tiles| PatternDatabase::build(&block, tiles, TableKind::Minimised, &mut |_| {}).unwrap())
        .collect();
    let tables = Tables { pdb: None, blocks: vec![Arc::new(Pdb::from_databases(&block, dbs).unwrap())] };
    let mut rng = SplitMix64::new(26);
    for (width, height) in [(6, 6), (7, 7), (6, 5)] {
        let goal = Goal::new(&GoalSpec::BlankFirst, npuzzle::board::Shape::new(width, height)).unwrap();
        assert!(Tables::block_goals(&goal).contains(&block), "{width}x{height} leaves a 5x5 block");
        // On two threads the staged searches run side by side.
        for threads in [1, 1, 2, 2] {
            let start = generate(&goal, Scramble::Uniform, true, &mut rng);
            let limits = Limits { timeout: Some(Duration::from_millis(300)), threads, ..Limits::default() };
            let outcome =
                solve(&start, &goal, Algorithm::Anytime, HeuristicKind::LinearConflict, &limits, &tables)
                    .unwrap();
            assert_eq!(outcome.status, Status::Solved);
            let names: Vec<&str> = outcome.path.as_ref().unwrap().iter().map(|m| m.name()).collect();
            let played = crate::util::play_on(start.cells(), width, height, &names);
            assert_eq!(played, goal.tiles().cells(), "{width}x{height} on {threads} threads replays");
            let bound = outcome.lower_bound.unwrap();
            assert!(bound as usize <= names.len() && !outcome.improvements.is_empty());
        }
    }
    assert!(Tables::block_goals(&Goal::new(&GoalSpec::BlankFirst, 5).unwrap()).is_empty(), "searched whole");
}
