//! Long runs: rows written to a file as they finish, a stopped run resumed
//! to the same rows as an uninterrupted one, and the outputs of shards
//! merged into the order one machine gives.

use crate::util::npuzzle;
use predicates::str::contains;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A list of `count` random 8-puzzles (seeded), written to `dir/list.txt`.
fn list(dir: &Path, count: u32) -> String {
    let path = dir.join("list.txt");
    npuzzle()
        .args(["generate", "--size", "3", "--seed", "7", "--count", &count.to_string(), "--list", "--out"])
        .arg(&path)
        .assert()
        .code(0);
    path.to_str().unwrap().to_owned()
}

/// `batch` over `list` with the options that make rows repeatable, plus
/// `extra`, run in `dir`.
fn batch(dir: &Path, list: &str, extra: &[&str]) -> std::process::Output {
    let jobs: &[&str] = if extra.contains(&"--jobs") { &[] } else { &["--jobs", "2"] };
    npuzzle()
        .current_dir(dir)
        .args(["batch", list, "--list", "--algo", "astar"])
        .args(jobs)
        .args(extra)
        .output()
        .unwrap()
}

/// The first `n` lines of `text`, each with its line break.
fn first_lines(text: &str, n: usize) -> String {
    text.split_inclusive('\n').take(n).collect()
}

/// The rows of a CSV without their times: what two runs must agree on.
fn timeless(csv: &str) -> Vec<Vec<String>> {
    let header = npuzzle::report::split_csv(csv.lines().next().unwrap());
    let time = header.iter().position(|h| h == "runtime_ms").unwrap();
    csv.lines()
        .map(|line| {
            let mut fields = npuzzle::report::split_csv(line);
            fields.remove(time);
            fields
        })
        .collect()
}

#[test]
fn out_refuses_an_existing_file_unless_resuming_or_forcing() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 4);
    fs::write(dir.path().join("rows.csv"), "keep").unwrap();
    let out = batch(dir.path(), &list, &["--out", "rows.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already there: --resume continues"));
    assert_eq!(fs::read_to_string(dir.path().join("rows.csv")).unwrap(), "keep");
    let out = batch(dir.path(), &list, &["--out", "rows.csv", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "rows go to the file");
    assert_eq!(fs::read_to_string(dir.path().join("rows.csv")).unwrap().lines().count(), 5);
}

#[test]
fn a_resumed_run_ends_with_the_rows_of_an_uninterrupted_one_whatever_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 30);
    for (format, name) in [("csv", "rows.csv"), ("json", "rows.jsonl")] {
        let whole = batch(dir.path(), &list, &["--format", format]).stdout;
        let whole = String::from_utf8(whole).unwrap();
        // Cut after the header, after ten rows, and inside the eleventh.
        let eleventh = whole.match_indices('\n').nth(if format == "csv" { 10 } else { 9 }).unwrap().0 + 1;
        for cut in [whole.find('\n').unwrap() + 1, eleventh, eleventh + 17, whole.len()] {
            fs::write(dir.path().join(name), &whole[..cut]).unwrap();
            let out = batch(dir.path(), &list, &["--format", format, "--out", name, "--resume"]);
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            let resumed = fs::read_to_string(dir.path().join(name)).unwrap();
            if format == "csv" {
                assert_eq!(timeless(&resumed), timeless(&whole), "cut at {cut}");
            } else {
                let strip = |text: &str| -> Vec<serde_json::Value> {
                    text.lines()
                        .map(|l| {
                            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                            v.as_object_mut().unwrap().remove("runtime_ms");
                            v
                        })
                        .collect()
                };
                assert_eq!(strip(&resumed), strip(&whole), "cut at {cut}");
            }
            if cut == whole.len() {
                assert_eq!(resumed, whole, "a finished run is left as it is");
                assert!(String::from_utf8_lossy(&out.stderr).contains("30 rows kept, 0 added"));
            }
        }
    }
}

#[test]
fn a_resumed_run_notices_an_edited_list_and_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 12);
    let whole = String::from_utf8(batch(dir.path(), &list, &[]).stdout).unwrap();
    let part = first_lines(&whole, 8);
    fs::write(dir.path().join("rows.csv"), &part).unwrap();
    // Line 5 of the list is the fourth puzzle: give it another board.
    let text = fs::read_to_string(&list).unwrap();
    let edited: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 4 { "1 2 5 3 4 0 6 7 8".to_owned() } else { l.to_owned() })
        .collect();
    fs::write(&list, edited.join("\n") + "\n").unwrap();
    let out = batch(dir.path(), &list, &["--out", "rows.csv", "--resume"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("another board") && stderr.contains("edited"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.path().join("rows.csv")).unwrap(), part);
}

#[test]
fn a_resumed_shard_ends_with_the_rows_of_the_whole_shard() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 20);
    let whole = String::from_utf8(batch(dir.path(), &list, &["--shard", "1/3"]).stdout).unwrap();
    let part = first_lines(&whole, 3);
    fs::write(dir.path().join("shard.csv"), part).unwrap();
    let out = batch(dir.path(), &list, &["--shard", "1/3", "--out", "shard.csv", "--resume"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(timeless(&fs::read_to_string(dir.path().join("shard.csv")).unwrap()), timeless(&whole));
}

#[cfg(unix)]
#[test]
fn a_run_killed_while_writing_resumes_to_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 200);
    let whole = String::from_utf8(batch(dir.path(), &list, &["--jobs", "1"]).stdout).unwrap();
    for rows_before_kill in [1, 37, 150] {
        let out = dir.path().join("killed.csv");
        let _ = fs::remove_file(&out);
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
            .current_dir(dir.path())
            .args(["batch", &list, "--list", "--algo", "astar", "--jobs", "1", "--out", "killed.csv"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while fs::read_to_string(&out).map_or(0, |t| t.lines().count()) <= rows_before_kill {
            assert!(Instant::now() < deadline, "no rows after a minute");
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill();
        child.wait().unwrap();
        let out = batch(dir.path(), &list, &["--jobs", "1", "--out", "killed.csv", "--resume"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(timeless(&fs::read_to_string(dir.path().join("killed.csv")).unwrap()), timeless(&whole));
    }
}

#[test]
fn shards_merged_in_any_order_give_the_rows_of_one_machine() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 23);
    let whole = String::from_utf8(batch(dir.path(), &list, &[]).stdout).unwrap();
    for k in 0..5 {
        let shard = format!("{k}/5");
        let out = batch(dir.path(), &list, &["--shard", &shard, "--out", &format!("shard-{k}.csv")]);
        assert_eq!(out.status.code(), Some(0));
    }
    let merged = npuzzle()
        .current_dir(dir.path())
        .args(["merge", "shard-3.csv", "shard-0.csv", "shard-4.csv", "shard-1.csv", "shard-2.csv"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(timeless(&String::from_utf8(merged.stdout).unwrap()), timeless(&whole), "by name");
    let with_list = npuzzle()
        .current_dir(dir.path())
        .args([
            "merge",
            "shard-2.csv",
            "shard-4.csv",
            "shard-0.csv",
            "shard-3.csv",
            "shard-1.csv",
            "--list",
            &list,
        ])
        .output()
        .unwrap();
    assert_eq!(with_list.status.code(), Some(0), "{}", String::from_utf8_lossy(&with_list.stderr));
    assert_eq!(timeless(&String::from_utf8(with_list.stdout).unwrap()), timeless(&whole), "by the list");
}

#[test]
fn a_missing_shard_a_duplicated_one_and_rows_that_disagree_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 12);
    for k in 0..3 {
        batch(dir.path(), &list, &["--shard", &format!("{k}/3"), "--out", &format!("s{k}.csv")]);
    }
    let merge = |files: &[&str]| {
        npuzzle().current_dir(dir.path()).arg("merge").args(files).args(["--list", &list]).assert()
    };
    merge(&["s0.csv", "s2.csv"])
        .code(2)
        .stderr(contains("4 puzzles with no row: "))
        .stderr(contains("list.txt:5"));
    merge(&["s0.csv", "s1.csv", "s2.csv", "s1.csv"])
        .code(2)
        .stderr(contains("4 puzzles with more than one row"));
    // The same puzzle with another cost in a second output.
    let s1 = fs::read_to_string(dir.path().join("s1.csv")).unwrap();
    let row = s1.lines().nth(1).unwrap();
    let mut fields = npuzzle::report::split_csv(row);
    let cost = fields.iter().position(|f| f == "solved").unwrap() + 1;
    fields[cost] = "99".to_owned();
    fs::write(
        dir.path().join("other.csv"),
        format!("{}\n{}\n", s1.lines().next().unwrap(), fields.join(",")),
    )
    .unwrap();
    merge(&["s0.csv", "s1.csv", "s2.csv", "other.csv"])
        .code(2)
        .stderr(contains("1 puzzle with rows that disagree"));
}

/// A 15-puzzle of about six million expansions with linear conflict.
const LONG_SEARCH: &str = "5 11 9 4 7 3 13 8 15 10 6 1 14 0 2 12\n";

/// A folder holding [`LONG_SEARCH`] as `long.txt`, searched by IDA* with
/// linear conflict on one thread, its rows written to `rows.csv`.
struct LongSearch {
    dir: tempfile::TempDir,
}

impl LongSearch {
    const ARGS: [&str; 11] = [
        "batch",
        "long.txt",
        "--list",
        "--algo",
        "idastar",
        "--heuristic",
        "linear-conflict",
        "--jobs",
        "1",
        "--threads",
        "1",
    ];

    fn new() -> LongSearch {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("long.txt"), LONG_SEARCH).unwrap();
        LongSearch { dir }
    }

    fn run(&self, extra: &[&str]) -> std::process::Output {
        npuzzle().current_dir(self.dir.path()).args(Self::ARGS).args(extra).output().unwrap()
    }

    fn saved_dir(&self) -> std::path::PathBuf {
        self.dir.path().join("rows.csv.progress")
    }

    /// The batch started afresh into `rows.csv`, saving every hundredth of
    /// a second, once it has saved a whole progress file (that file and
    /// its text), or once it has ended without one.
    fn spawn_until_saved(
        &self,
        stderr: Stdio,
    ) -> (std::process::Child, Option<(std::path::PathBuf, String)>) {
        let _ = fs::remove_file(self.dir.path().join("rows.csv"));
        self.spawn_saving(stderr, &[])
    }

    /// As [`LongSearch::spawn_until_saved`], onto whatever `rows.csv`
    /// holds, with `extra` arguments.
    fn spawn_saving(
        &self,
        stderr: Stdio,
        extra: &[&str],
    ) -> (std::process::Child, Option<(std::path::PathBuf, String)>) {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
            .current_dir(self.dir.path())
            .args(Self::ARGS)
            .args(["--out", "rows.csv", "--save-every", "0.01"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let saved = loop {
            // Not the writer's temporary file (hidden, renamed into place
            // once whole), which a slow machine may show mid-write.
            let file = fs::read_dir(self.saved_dir()).ok().and_then(|d| {
                d.map(|e| e.unwrap().path())
                    .find(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            });
            if let Some(text) =
                file.as_ref().and_then(|f| fs::read_to_string(f).ok()).filter(|t| t.contains("\nend "))
            {
                break Some((file.unwrap(), text));
            }
            if child.try_wait().unwrap().is_some() {
                break None;
            }
            assert!(Instant::now() < deadline, "nothing saved after a minute");
            std::thread::sleep(Duration::from_millis(1));
        };
        (child, saved)
    }

    /// The batch killed once it has saved its progress: the file and its
    /// text.
    fn killed_after_a_save(&self) -> (std::path::PathBuf, String) {
        within_tries("killed after a save", || {
            let (mut child, saved) = self.spawn_until_saved(Stdio::null());
            let _ = child.kill();
            child.wait().unwrap();
            saved
        })
    }
}

/// How many times a run is started to stop its long search midway: a run
/// whose search ends before it is stopped is tried again, up to this many.
const TRIES: u32 = 10;

/// `attempt` until it gives a result, at most [`TRIES`] times; the test
/// fails, naming `what` was tried, if the search ends first every time.
fn within_tries<T>(what: &str, mut attempt: impl FnMut() -> Option<T>) -> T {
    (0..TRIES).find_map(|_| attempt()).unwrap_or_else(|| {
        panic!("{what}: the search ended before it could be stopped in each of {TRIES} tries")
    })
}

/// `text`, a progress file, with its last line's checksum (FNV-1a of
/// every line before it) made again.
fn with_checksum(text: &str) -> String {
    let body = &text[..=text.trim_end().rfind('\n').unwrap()];
    let sum = body
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{body}end {sum:016x}\n")
}

/// A long IDA* search saves where it stands beside `--out`; killed, it is
/// taken up by `--resume` from there (its figures go on from the saved
/// ones) and ends with the row of an uninterrupted run; its progress file
/// goes with it, and a fresh run does not take up an old one.
#[test]
fn a_search_killed_midway_is_taken_up_where_it_stood() {
    let long = LongSearch::new();
    let (dir, run, saved_dir) = (&long.dir, |extra: &[&str]| long.run(extra), long.saved_dir());
    let whole = String::from_utf8(run(&[]).stdout).unwrap();
    // Killed once it has saved; the saved figures edited, to see them taken up.
    let kill_after_a_save = || long.killed_after_a_save();
    let (file, _) = kill_after_a_save();
    let resumed = run(&["--out", "rows.csv", "--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(timeless(&fs::read_to_string(dir.path().join("rows.csv")).unwrap()), timeless(&whole));
    assert!(!saved_dir.exists(), "the progress goes when the search ends");

    let (file2, text2) = kill_after_a_save();
    assert_eq!(file2, file, "one file per puzzle, named by the puzzle");
    let expanded = |text: &str| -> u64 {
        text.lines().find_map(|l| l.strip_prefix("expanded ")).unwrap().parse().unwrap()
    };
    let edited = text2.replace(
        &format!("expanded {}", expanded(&text2)),
        &format!("expanded {}", expanded(&text2) + 1_000_000_000),
    );
    // Edited without its checksum, the file is not taken up, and the run
    // says so.
    fs::write(&file2, &edited).unwrap();
    let stderr = String::from_utf8(run(&["--out", "rows.csv", "--resume"]).stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "npuzzle: warning: rows.csv.progress/{}: saved progress not taken up (damaged); the search starts over",
            file2.file_name().unwrap().to_string_lossy()
        )),
        "{stderr}"
    );
    assert_eq!(timeless(&fs::read_to_string(dir.path().join("rows.csv")).unwrap()), timeless(&whole));
    kill_after_a_save();
    let text3 = fs::read_to_string(&file2).unwrap();
    let edited = text3.replace(
        &format!("expanded {}", expanded(&text3)),
        &format!("expanded {}", expanded(&text3) + 1_000_000_000),
    );
    fs::write(&file2, with_checksum(&edited)).unwrap();
    run(&["--out", "rows.csv", "--resume"]);
    let rows = fs::read_to_string(dir.path().join("rows.csv")).unwrap();
    let (whole_row, row) = (&timeless(&whole)[1], &timeless(&rows)[1]);
    let column = timeless(&whole)[0].iter().position(|h| h == "nodes_expanded").unwrap();
    let (before, after): (u64, u64) = (whole_row[column].parse().unwrap(), row[column].parse().unwrap());
    assert_eq!(after, before + 1_000_000_000, "taken up from the saved figures");

    // A run that starts afresh clears what an older one left.
    kill_after_a_save();
    run(&["--out", "rows.csv", "--force"]);
    assert_eq!(timeless(&fs::read_to_string(dir.path().join("rows.csv")).unwrap()), timeless(&whole));
    assert!(!saved_dir.exists());
}

/// A long search's progress file may run to tens of megabytes (a line for
/// each of its subtrees): however large, it is taken up, not searched over.
#[test]
fn a_progress_file_of_many_megabytes_is_taken_up() {
    let long = LongSearch::new();
    let whole = String::from_utf8(long.run(&[]).stdout).unwrap();
    let (file, text) = long.killed_after_a_save();
    let expanded: u64 = text.lines().find_map(|l| l.strip_prefix("expanded ")).unwrap().parse().unwrap();
    let mut edited =
        text.replace(&format!("expanded {expanded}"), &format!("expanded {}", expanded + 1_000_000_000));
    // Subtrees of another pass, none of them in this search's tree: 3 MB of
    // lines that change nothing but the file's size.
    let body = edited.rfind("end ").unwrap();
    let mut tiles: Vec<usize> = (0..16).collect();
    let mut padding = String::new();
    for k in 0..80_000 {
        tiles.swap(k % 16, (k * 7 + 3) % 16);
        let line: Vec<String> = tiles.iter().map(usize::to_string).collect();
        padding.push_str("last 99 ");
        padding.push_str(&line.join(" "));
        padding.push('\n');
    }
    edited.insert_str(body, &padding);
    fs::write(&file, with_checksum(&edited)).unwrap();
    assert!(fs::metadata(&file).unwrap().len() > 3 << 20);

    let resumed = long.run(&["--out", "rows.csv", "--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(resumed.stderr.is_empty(), "no warning: {}", String::from_utf8_lossy(&resumed.stderr));
    let rows = fs::read_to_string(long.dir.path().join("rows.csv")).unwrap();
    let (whole, rows) = (timeless(&whole), timeless(&rows));
    let column = whole[0].iter().position(|h| h == "nodes_expanded").unwrap();
    let (before, after): (u64, u64) = (whole[1][column].parse().unwrap(), rows[1][column].parse().unwrap());
    assert_eq!(after, before + 1_000_000_000, "taken up from the saved figures");

    // Saved by another search of the same puzzle: not taken up, and said so.
    let (file, text) = long.killed_after_a_save();
    fs::write(&file, with_checksum(&text.replace("idastar linear-conflict", "idastar manhattan"))).unwrap();
    let stderr = String::from_utf8(long.run(&["--out", "rows.csv", "--resume"]).stderr).unwrap();
    assert!(stderr.contains("saved progress not taken up (saved by another search"), "{stderr}");
}

/// A FIFO where a progress file should be is not waited on.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_progress_file_is_not_waited_on() {
    let long = LongSearch::new();
    let whole = String::from_utf8(long.run(&[]).stdout).unwrap();
    let (file, _) = long.killed_after_a_save();
    fs::remove_file(&file).unwrap();
    assert!(Command::new("mkfifo").arg(&file).status().unwrap().success());
    let resumed = npuzzle()
        .current_dir(long.dir.path())
        .args(LongSearch::ARGS)
        .args(["--out", "rows.csv", "--resume"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("saved progress not taken up (not a regular file)"), "{stderr}");
    let rows = fs::read_to_string(long.dir.path().join("rows.csv")).unwrap();
    assert_eq!(timeless(&rows), timeless(&whole));
}

/// Progress is saved beside `--out` and nowhere else: a link in place of
/// its folder is not followed, to read, write or remove, and the search
/// runs on unsaved.
#[cfg(unix)]
#[test]
fn a_link_in_place_of_the_progress_folder_is_not_followed() {
    let long = LongSearch::new();
    let whole = String::from_utf8(long.run(&[]).stdout).unwrap();
    let (file, text) = long.killed_after_a_save();
    let elsewhere = long.dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    let kept = elsewhere.join(file.file_name().unwrap());
    fs::rename(&file, &kept).unwrap();
    fs::remove_dir_all(long.saved_dir()).unwrap();
    std::os::unix::fs::symlink(&elsewhere, long.saved_dir()).unwrap();
    let resumed = long.run(&["--out", "rows.csv", "--resume", "--save-every", "0.01"]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("rows.csv.progress: a link or no folder; this search's progress is not saved"),
        "{stderr}"
    );
    let rows = fs::read_to_string(long.dir.path().join("rows.csv")).unwrap();
    assert_eq!(timeless(&rows), timeless(&whole), "searched from the start, to the same row");
    let names: Vec<_> = fs::read_dir(&elsewhere).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [kept.file_name().unwrap()], "nothing written or removed through the link");
    assert_eq!(fs::read_to_string(&kept).unwrap(), text);
}

/// Ctrl-C stops a batch writing to a file without a row for the search
/// it stopped, whose progress is kept: `--resume` takes it up (tried again
/// if the search ended before the signal came).
#[cfg(unix)]
#[test]
fn a_search_stopped_by_ctrl_c_has_no_row_and_is_taken_up() {
    stop_a_saving_search_and_take_it_up(&["-INT"]);
}

/// Job runners stop a task with SIGTERM (Slurm at a time limit, GNU
/// parallel twice within 200 ms): the batch stops as for one Ctrl-C, the
/// second signal included, and its search is taken up as well.
#[cfg(unix)]
#[test]
fn a_search_stopped_by_a_job_runners_sigterm_has_no_row_and_is_taken_up() {
    stop_a_saving_search_and_take_it_up(&["-TERM", "-TERM"]);
}

/// A resumed run stopped in its turn counts the rows it kept and the rows
/// it added, not the puzzle it leaves to the next `--resume`.
#[cfg(unix)]
#[test]
fn a_resumed_run_stopped_again_counts_what_it_kept_and_added() {
    let long = LongSearch::new();
    let dir = long.dir.path();
    let quick = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
    fs::write(dir.join("long.txt"), format!("{quick}{LONG_SEARCH}")).unwrap();
    let whole = String::from_utf8(long.run(&[]).stdout).unwrap();
    assert_eq!(whole.lines().count(), 4, "{whole}");
    let out = within_tries("a resumed run stopped by Ctrl-C", || {
        // The header and the first quick puzzle's row, as a run stopped after it leaves them.
        let _ = fs::remove_dir_all(long.saved_dir());
        fs::write(dir.join("rows.csv"), first_lines(&whole, 2)).unwrap();
        let (child, saved) = long.spawn_saving(Stdio::piped(), &["--resume"]);
        if saved.is_none() {
            child.wait_with_output().unwrap();
            return None;
        }
        Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        let out = child.wait_with_output().unwrap();
        long.saved_dir().exists().then_some(out)
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("npuzzle: resumed: 1 row kept, 1 added\n"), "{stderr}");
    assert!(
        stderr.contains(
            "npuzzle: 1 puzzle under way when interrupted is not in the file: --resume solves it\n"
        ),
        "{stderr}"
    );
    let rows = fs::read_to_string(dir.join("rows.csv")).unwrap();
    assert_eq!(timeless(&rows), timeless(&first_lines(&whole, 3)));
    let out = long.run(&["--out", "rows.csv", "--resume"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("resumed: 2 rows kept, 1 added"));
    assert_eq!(timeless(&fs::read_to_string(dir.join("rows.csv")).unwrap()), timeless(&whole));
}

/// Sends `signals` in turn to a batch once its long search has saved.
#[cfg(unix)]
fn stop_a_saving_search_and_take_it_up(signals: &[&str]) {
    let long = LongSearch::new();
    let (dir, run, saved_dir) = (&long.dir, |extra: &[&str]| long.run(extra), long.saved_dir());
    let whole = String::from_utf8(run(&[]).stdout).unwrap();
    let out = within_tries(&format!("a search stopped by {signals:?}"), || {
        let (child, saved) = long.spawn_until_saved(Stdio::piped());
        if saved.is_none() {
            child.wait_with_output().unwrap();
            return None;
        }
        for signal in signals {
            Command::new("kill").args([*signal, &child.id().to_string()]).status().unwrap();
        }
        let out = child.wait_with_output().unwrap();
        saved_dir.exists().then_some(out)
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("1 puzzle under way when interrupted is not in the file: --resume solves it"),
        "{stderr}"
    );
    let rows = fs::read_to_string(dir.path().join("rows.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1, "the header alone");
    run(&["--out", "rows.csv", "--resume"]);
    assert_eq!(timeless(&fs::read_to_string(dir.path().join("rows.csv")).unwrap()), timeless(&whole));
    assert!(!saved_dir.exists());
}

/// A batch writing `dir/rows.csv` from its standard input, which is held
/// open and not yet written: a run that holds its output for as long as
/// the test wants. Returned once the file is there.
fn holding_rows_csv(dir: &Path) -> std::process::Child {
    let child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .current_dir(dir)
        .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
        .args(["batch", "-", "--algo", "astar", "--out", "rows.csv"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !dir.join("rows.csv").exists() {
        assert!(Instant::now() < deadline, "no rows.csv after a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

#[test]
fn a_second_run_on_the_same_out_file_refuses_at_once_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 6);
    let mut first = holding_rows_csv(dir.path());
    for second in [&["--resume"][..], &["--force"], &[]] {
        let before = fs::read(dir.path().join("rows.csv")).unwrap();
        let out = batch(dir.path(), &list, &[&["--out", "rows.csv"][..], second].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{second:?}: {stderr}");
        assert!(stderr.contains("rows.csv is in use by another run"), "{second:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(fs::read(dir.path().join("rows.csv")).unwrap(), before, "{second:?} wrote nothing");
    }
    // The first run goes on to its end, and lets go of the file with it.
    let mut stdin = first.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, &fs::read(&list).unwrap()).unwrap();
    drop(stdin);
    let ended = first.wait_with_output().unwrap();
    assert_eq!(ended.status.code(), Some(0), "{}", String::from_utf8_lossy(&ended.stderr));
    assert_eq!(fs::read_to_string(dir.path().join("rows.csv")).unwrap().lines().count(), 7);
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "the list and the rows, no lock file: {names:?}");
}

#[test]
fn a_run_killed_while_holding_its_out_file_leaves_no_lock_behind() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 6);
    let mut holder = holding_rows_csv(dir.path());
    holder.kill().unwrap();
    holder.wait().unwrap();
    let out = batch(dir.path(), &list, &["--out", "rows.csv", "--resume"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fs::read_to_string(dir.path().join("rows.csv")).unwrap().lines().count(), 7);
}

/// `batch` over `list` with exactly `args`, run in `dir`.
fn batch_with(dir: &Path, list: &str, args: &[&str]) -> std::process::Output {
    npuzzle().current_dir(dir).args(["batch", list, "--list", "--jobs", "2"]).args(args).output().unwrap()
}

#[test]
fn rows_record_the_goal_and_the_flags_that_shape_their_answers() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 3);
    let csv = batch_with(
        dir.path(),
        &list,
        &["--goal", "blank-last", "--max-expanded", "100000", "--format", "csv"],
    );
    let text = String::from_utf8(csv.stdout).unwrap();
    let header = npuzzle::report::split_csv(text.lines().next().unwrap());
    let row = npuzzle::report::split_csv(text.lines().nth(1).unwrap());
    let field = |key: &str| row[header.iter().position(|h| h == key).unwrap()].clone();
    assert_eq!(field("goal"), "1 2 3 4 5 6 7 8 0");
    assert_eq!(field("flags"), "max-expanded=100000");
    let json = batch_with(dir.path(), &list, &["--timeout", "30", "--format", "json"]);
    let line: serde_json::Value =
        serde_json::from_slice(json.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(line["flags"], "timeout=30");
    assert_eq!(line["goal"], serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7, 8]));
}

#[test]
fn a_resume_with_flags_that_change_answers_is_refused_naming_the_flag_and_both_values() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 8);
    for format in ["csv", "json"] {
        let whole = batch_with(dir.path(), &list, &["--format", format]).stdout;
        let part = first_lines(&String::from_utf8(whole).unwrap(), 4);
        let changes: [(&[&str], &str, &str); 6] = [
            (&["--goal", "blank-last"], "--goal blank-first", "--goal blank-last"),
            (&["--algo", "idastar"], "--algo astar", "--algo idastar"),
            (&["--heuristic", "linear-conflict"], "--heuristic manhattan", "--heuristic linear-conflict"),
            (&["--weight", "2"], "--weight 1", "--weight 2"),
            (&["--max-expanded", "5"], "no --max-expanded", "--max-expanded 5"),
            (&["--within", "1.5"], "--weight 1", "no --weight"),
        ];
        for (flags, was, now) in changes {
            fs::write(dir.path().join("rows"), &part).unwrap();
            let args = [&["--format", format, "--out", "rows", "--resume"][..], flags].concat();
            let out = batch_with(dir.path(), &list, &args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains(&format!("written with {was} (row 1), this run has {now}")), "{stderr}");
            assert_eq!(fs::read_to_string(dir.path().join("rows")).unwrap(), part, "{flags:?}");
        }
        // Flags that change no answer do not stand in the way.
        fs::write(dir.path().join("rows"), &part).unwrap();
        let out = batch_with(
            dir.path(),
            &list,
            &["--format", format, "--out", "rows", "--resume", "--threads", "1"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn rows_written_before_they_recorded_goal_and_flags_are_neither_resumed_nor_merged() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 4);
    let text = String::from_utf8(batch_with(dir.path(), &list, &["--format", "csv"]).stdout).unwrap();
    // An earlier npuzzle wrote the same rows without the last two columns.
    let earlier: String =
        text.lines().map(|line| line.rsplitn(3, ',').last().unwrap().to_owned() + "\n").collect();
    assert!(earlier.starts_with("file,") && earlier.lines().next().unwrap().ends_with(",start,path"));
    fs::write(dir.path().join("old.csv"), &earlier).unwrap();
    let out = batch_with(dir.path(), &list, &["--out", "old.csv", "--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("written by an earlier npuzzle") && stderr.contains("--force"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.path().join("old.csv")).unwrap(), earlier);
    let merged = npuzzle().current_dir(dir.path()).args(["merge", "old.csv"]).output().unwrap();
    assert_eq!(merged.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&merged.stderr).contains("do not say which goal and flags"));
}

#[test]
fn merge_refuses_shards_solved_another_way_before_writing_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let list = list(dir.path(), 10);
    let shard = |k: &str, extra: &[&str]| {
        let name = format!("shard-{k}.csv");
        let part = format!("{k}/2");
        let args = [&["--shard", &part, "--out", &name][..], extra].concat();
        let out = batch_with(dir.path(), &list, &args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        name
    };
    let first = shard("0", &["--algo", "astar"]);
    for (other, was, now) in [
        (&["--algo", "idastar"][..], "--algo astar", "--algo idastar"),
        (&["--weight", "1.5"], "--weight 1", "--weight 1.5"),
        (&["--goal", "snail"], "--goal blank-first", "--goal snail"),
    ] {
        let second = shard("1", other);
        let merged = npuzzle()
            .current_dir(dir.path())
            .args(["merge", &first, &second, "--list", &list])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&merged.stderr);
        assert_eq!(merged.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("solved with {now} where")) && stderr.contains(&format!("has {was}")),
            "{stderr}"
        );
        assert!(merged.stdout.is_empty(), "nothing is written");
        fs::remove_file(dir.path().join(&second)).unwrap();
    }
    let second = shard("1", &["--algo", "astar", "--threads", "1"]);
    let merged =
        npuzzle().current_dir(dir.path()).args(["merge", &first, &second, "--list", &list]).output().unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
}
