//! What a hostile command line cannot do: abort the process, run without
//! bound, or write outside the target. Every numeric flag at its extremes
//! ends with a documented exit code; files are written only where asked,
//! never through a link or onto something that is not a regular file.

use crate::util::{npuzzle, puzzle};
use predicates::str::contains;
use serde_json::Value;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `npuzzle args` and kills it (failing) after `seconds`; reads at
/// most `stdout_bytes` of its output and then closes the pipe, as `| head
/// -c` does. Returns the exit code and standard error.
fn run_bounded(args: &[&str], seconds: u64, stdout_bytes: usize) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut buffer = vec![0; stdout_bytes];
        let mut got = 0;
        while got < stdout_bytes {
            match stdout.read(&mut buffer[got..]) {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        // Dropping the pipe here is the reader going away.
    });
    let (code, stderr) = ended_within_saying(&mut child, seconds, &format!("npuzzle {args:?}"));
    reading.join().unwrap();
    (code, stderr)
}

/// The exit code and standard error of `child`, which is killed (and the
/// test failed, naming `what`) if it has not ended after `seconds`.
fn ended_within_saying(child: &mut std::process::Child, seconds: u64, what: &str) -> (Option<i32>, String) {
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = ended_within(child, seconds, what);
    (status.code(), errors.join().unwrap())
}

/// How `child` ended; it is killed, failing, if it runs `seconds` more.
fn ended_within(child: &mut std::process::Child, seconds: u64, what: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what} still running after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Asserts a run ended by itself with one of the documented codes, without
/// a panic or an allocation failure.
fn ends_cleanly(args: &[&str], code: Option<i32>, stderr: &str) {
    assert!(matches!(code, Some(0..=3)), "npuzzle {args:?} ended with {code:?}: {stderr}");
    for sign in ["panicked", "memory allocation", "stack overflow", "RUST_BACKTRACE"] {
        assert!(!stderr.contains(sign), "npuzzle {args:?}: {stderr}");
    }
}

#[test]
fn every_numeric_flag_at_its_extremes_ends_with_a_documented_exit_code() {
    let (u32_max, u64_max) = (u32::MAX.to_string(), u64::MAX.to_string());
    let (u32_over, u64_over) =
        ((u64::from(u32::MAX) + 1).to_string(), (u128::from(u64::MAX) + 1).to_string());
    let counts: [&str; 4] = ["0", "1", &u64_max, &u64_over];
    let depths: [&str; 4] = ["0", "1", &u32_max, &u32_over];
    let search_flags: Vec<(&str, Vec<&str>)> = vec![
        ("--max-nodes", counts.to_vec()),
        ("--max-expanded", counts.to_vec()),
        ("--max-depth", depths.to_vec()),
        ("--timeout", vec!["0", "0.000000001", "1e300", "nan"]),
        ("--weight", vec!["0", "1", "1000000", "1000001"]),
        ("--threads", vec!["0", "1", "256", "257"]),
    ];
    let board = "puzzles/3x3/hardest-31a.txt";
    let mut runs = 0;
    for algo in ["bfs", "dfs", "astar", "idastar", "greedy", "rows"] {
        for (flag, values) in &search_flags {
            for value in values {
                for command in
                    [&["solve", board][..], &["batch", board, "puzzles/2x2", "--format", "json"][..]]
                {
                    let mut args = command.to_vec();
                    args.extend(["--algo", algo, flag, value]);
                    let (code, stderr) = run_bounded(&args, 60, 1 << 20);
                    ends_cleanly(&args, code, &stderr);
                    runs += 1;
                }
            }
        }
    }
    for (flag, values) in search_flags.iter().filter(|(flag, _)| !["--weight", "--threads"].contains(flag)) {
        for value in values {
            let args = ["compare", board, flag, value];
            let (code, stderr) = run_bounded(&args, 60, 1 << 20);
            ends_cleanly(&args, code, &stderr);
            runs += 1;
        }
    }
    let jobs: [&str; 4] = ["0", "1", &u32_max, &u32_over];
    for value in jobs {
        let args = ["batch", "puzzles/2x2", "--jobs", value, "--format", "json"];
        let (code, stderr) = run_bounded(&args, 60, 1 << 20);
        ends_cleanly(&args, code, &stderr);
    }
    // Generating streams: a huge count is written as long as someone reads.
    let generate_flags: [(&str, Vec<&str>); 5] = [
        ("--size", vec!["1", "2", "256", "257"]),
        ("--moves", vec!["0", "1", "100000000", "100000001"]),
        ("--count", counts.to_vec()),
        ("--distance", vec!["0", "1", "10000", "10001"]),
        ("--seed", counts.to_vec()),
    ];
    for (flag, values) in &generate_flags {
        for value in values {
            for list in [false, true] {
                let mut args = vec!["generate", flag, value];
                if *flag != "--size" {
                    args.extend(["--size", "3"]);
                }
                if list {
                    args.push("--list");
                }
                let (code, stderr) = run_bounded(&args, 60, 64 << 10);
                ends_cleanly(&args, code, &stderr);
                runs += 1;
            }
        }
    }
    for value in ["1", "2", "256", "257"] {
        let args = ["check", "1,2,5,3,4,0,6,7,8", "--size", value];
        let (code, stderr) = run_bounded(&args, 60, 1 << 20);
        ends_cleanly(&args, code, &stderr);
    }
    assert!(runs > 300, "{runs}");
}

#[test]
fn idastar_with_a_huge_weight_answers_instead_of_overflowing_the_stack() {
    let out = npuzzle()
        .args([
            "solve",
            "puzzles/korf100/001.txt",
            "--algo",
            "idastar",
            "--weight",
            "10000",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "solved");
    assert!(v["depth"].as_u64().unwrap() > 10_000, "a pass far deeper than any stack holds: {}", v["depth"]);
}

#[test]
fn a_batch_with_a_huge_weight_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    for id in ["001", "002", "003", "004"] {
        fs::copy(puzzle(&format!("korf100/{id}.txt")), dir.path().join(format!("{id}.txt"))).unwrap();
    }
    let out = npuzzle()
        .arg("batch")
        .arg(dir.path())
        .args(["--algo", "idastar", "--weight", "3000", "--jobs", "2", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["status"] == "solved"), "{stdout}");
}

#[test]
fn a_count_too_large_for_standard_output_is_refused_before_anything_is_made() {
    let (code, stderr) = run_bounded(&["generate", "--size", "3", "--count", "100000000000"], 20, 1024);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("needs --out DIR or --list"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_huge_list_streams_in_bounded_memory_and_stops_when_the_reader_leaves() {
    // Far less address space than 30 million boards would take at once.
    let script = format!(
        "ulimit -v 400000; {} generate --size 3 --count 30000000 --list | head -c 100",
        assert_cmd::cargo::cargo_bin("npuzzle").display()
    );
    let started = Instant::now();
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout.len(), 100);
    assert!(out.stdout.starts_with(b"# 30000000 3x3 puzzles"));
    assert!(started.elapsed() < Duration::from_secs(20), "the first bytes come at once");
}

#[cfg(unix)]
#[test]
fn force_never_writes_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    fs::write(&outside, "keep me\n").unwrap();
    let out_dir = dir.path().join("d");
    fs::create_dir(&out_dir).unwrap();
    std::os::unix::fs::symlink("../outside.txt", out_dir.join("1.txt")).unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--force", "--out"])
        .arg(&out_dir)
        .assert()
        .code(2)
        .stderr(contains("1.txt is a symbolic link"));
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep me\n");
    assert_eq!(fs::read_link(out_dir.join("1.txt")).unwrap(), Path::new("../outside.txt"));
    assert!(!out_dir.join("2.txt").exists(), "nothing written when one target is refused");
    // The same for a list.
    let link = dir.path().join("list.txt");
    std::os::unix::fs::symlink("outside.txt", &link).unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--list", "--force", "--out"])
        .arg(&link)
        .assert()
        .code(2)
        .stderr(contains("is a symbolic link"));
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep me\n");
}

#[cfg(unix)]
#[test]
fn force_refuses_fifos_and_folders_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (code, stderr) = run_bounded(
        &["generate", "--size", "3", "--count", "2", "--list", "--force", "--out", fifo.to_str().unwrap()],
        20,
        1024,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is a FIFO"), "{stderr}");
    let out_dir = dir.path().join("d");
    fs::create_dir_all(out_dir.join("2.txt")).unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--force", "--out"])
        .arg(&out_dir)
        .assert()
        .code(2)
        .stderr(contains("2.txt is a folder"));
    assert!(!out_dir.join("1.txt").exists(), "checked before the first file is written");
    // A regular file is replaced, as asked.
    fs::write(out_dir.join("1.txt"), "old").unwrap();
    fs::remove_dir(out_dir.join("2.txt")).unwrap();
    npuzzle()
        .args(["generate", "--size", "3", "--count", "3", "--force", "--out"])
        .arg(&out_dir)
        .assert()
        .code(0);
    assert!(fs::read_to_string(out_dir.join("1.txt")).unwrap().contains("board 1 of 3"));
    assert_eq!(fs::read_dir(&out_dir).unwrap().count(), 3, "no temporary file left behind");
}

/// Ctrl-C, a job runner's SIGTERM or a closed terminal's SIGHUP while a file
/// is being written leaves nothing beside its target: the temporary file
/// goes with the process, which ends as the signal ends it.
#[cfg(unix)]
#[test]
fn a_signal_while_a_file_is_written_leaves_no_temporary_file_behind() {
    use std::os::unix::process::ExitStatusExt;
    for (signal, number) in [("-INT", 2), ("-TERM", 15), ("-HUP", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("million.txt");
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
            .args(["generate", "--size", "4", "--count", "100000000", "--seed", "1", "--list", "--out"])
            .arg(&target)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let written =
            |dir: &Path| fs::read_dir(dir).unwrap().flatten().any(|e| e.metadata().unwrap().len() > 0);
        while !written(dir.path()) {
            assert!(Instant::now() < deadline, "{signal}: nothing written within a minute");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
        let status = ended_within(&mut child, 20, &format!("npuzzle, sent {signal},"));
        assert_eq!(status.signal(), Some(number), "{signal}: ended by the signal, as without a handler");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(left.is_empty(), "{signal}: left {left:?}");
    }
}

#[test]
fn a_distance_no_board_can_have_is_refused_at_once() {
    let started = Instant::now();
    npuzzle()
        .args(["generate", "--size", "4", "--distance", "1000"])
        .assert()
        .code(2)
        .stderr(contains("no 4x4 board is 1000 moves from this goal: none needs more than 80"));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[cfg(unix)]
#[test]
fn the_timeout_covers_waiting_for_a_fifo_that_never_delivers() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("board");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let (code, stderr) = run_bounded(&["solve", fifo.to_str().unwrap(), "--timeout", "0.5"], 20, 1024);
    assert_eq!(code, Some(3), "a limit, as for a search: {stderr}");
    assert!(stderr.contains("timeout of 0.5 s reached while waiting for"), "{stderr}");
}

#[test]
fn the_timeout_covers_building_the_pattern_databases_and_says_so_first() {
    // Each search builds its own default set: IDA* the zero-aware one.
    let cases = [
        ("puzzles/korf100/001.txt", "idastar", "zero-7-8"),
        ("puzzles/korf100/001.txt", "astar", "7-8"),
        ("puzzles/korf24/40.txt", "idastar", "zero-max7"),
    ];
    for (board, algo, set) in cases {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().to_str().unwrap();
        let args = ["solve", board, "--algo", algo, "--heuristic", "pdb"];
        let (code, stderr) =
            run_bounded(&[&args[..], &["--timeout", "1", "--pdb-dir", cache]].concat(), 30, 1024);
        assert_eq!(code, Some(3), "{stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            lines[0].starts_with(&format!("npuzzle: building the {set} pattern databases first")),
            "{stderr}"
        );
        assert!(lines[0].contains("which --timeout counts"), "{stderr}");
        // The command that builds them where this search looks.
        let ahead =
            format!("`npuzzle pdb build --partition {set} --pdb-dir {cache}` makes them ahead of time");
        assert!(lines[0].ends_with(&ahead), "{stderr}");
        let last = format!("npuzzle: timeout of 1 s reached while building the {set} pattern databases");
        assert_eq!(lines.last().unwrap(), &last);
    }
}

#[test]
fn csv_fields_that_a_spreadsheet_would_run_are_quoted_as_text_and_read_back_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    // In the order merge gives, so that one output merges cleanly.
    let names = ["'=x.txt", "+1.txt", "-l.txt", "=HYPERLINK(1).txt", "@a.txt"];
    for name in names {
        fs::write(dir.path().join(name), "1 2 5\n3 4 0\n6 7 8\n").unwrap();
    }
    let out = npuzzle()
        .current_dir(dir.path())
        .args(["batch", "--format", "csv", "--"])
        .args(names)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    for (row, name) in stdout.lines().skip(1).zip(names) {
        assert!(row.starts_with(&format!("\"'{name}\",")), "{row}");
    }
    // Resuming and merging read every name back as it was.
    let whole = stdout.split_inclusive('\n').take(3).collect::<String>();
    fs::write(dir.path().join("rows.csv"), &whole).unwrap();
    let resumed = npuzzle()
        .current_dir(dir.path())
        .args(["batch", "--out", "rows.csv", "--resume", "--"])
        .args(names)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
    let written = fs::read_to_string(dir.path().join("rows.csv")).unwrap();
    let merged = npuzzle().current_dir(dir.path()).args(["merge", "rows.csv"]).output().unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    let files = |csv: &str| -> Vec<String> {
        csv.lines().skip(1).map(|l| npuzzle::report::split_csv(l)[0].clone()).collect()
    };
    assert_eq!(files(&written), names);
    assert_eq!(files(&String::from_utf8(merged.stdout).unwrap()), names);
}

#[test]
fn a_zero_count_is_refused_with_a_range_that_reads_right() {
    for flag in ["--max-expanded", "--max-nodes"] {
        npuzzle()
            .args(["solve", "puzzles/3x3/easy-3.txt", flag, "0"])
            .assert()
            .code(2)
            .stderr(contains(format!("invalid value '0' for '{flag} <N>': must be at least 1")));
    }
}

#[cfg(unix)]
#[test]
fn solve_check_and_compare_read_a_file_whose_name_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join(std::ffi::OsStr::from_bytes(b"board-\xff.txt"));
    fs::write(&name, "1 2 5\n3 4 0\n6 7 8\n").unwrap();
    npuzzle().arg("solve").arg(&name).assert().code(0).stdout(contains("cost: 3"));
    npuzzle().arg("check").arg(&name).assert().code(0);
    npuzzle().arg("compare").arg(&name).assert().code(0);
}

/// Runs `npuzzle args` with its address space limited to `memory_kib`
/// (`ulimit -v`), `stdin` on its standard input; kills it (failing) after
/// `seconds`. Returns the exit code and standard error.
fn run_in_memory(args: &[&str], memory_kib: u64, stdin: &[u8], seconds: u64) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v \"$0\" && exec \"$@\"")
        .arg(memory_kib.to_string())
        .arg(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeding = std::thread::spawn(move || {
        // A run refused at once reads nothing.
        let _ = input.write_all(&stdin);
    });
    let (code, stderr) =
        ended_within_saying(&mut child, seconds, &format!("npuzzle {args:?} in {memory_kib} KiB"));
    feeding.join().unwrap();
    (code, stderr)
}

/// A list of `count` random 8-puzzles, as `generate --list` writes it.
fn eight_puzzles(count: u32) -> Vec<u8> {
    let out = npuzzle()
        .args(["generate", "--size", "3", "--seed", "5", "--count", &count.to_string(), "--list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
}

#[cfg(unix)]
#[test]
fn a_batch_asked_for_a_million_jobs_under_a_memory_limit_runs_as_many_as_can_start() {
    let list = eight_puzzles(40);
    let args = ["batch", "-", "--jobs", "1000000", "--format", "csv"];
    let (code, stderr) = run_in_memory(&args, 2 << 20, &list, 120);
    ends_cleanly(&args, code, &stderr);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("puzzles are solved at once, not 1000000"), "{stderr}");
}

#[cfg(unix)]
mod counts_of_threads {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

        /// However many jobs and threads are asked for, and however little
        /// address space the process has, every command ends by itself
        /// with a documented code and without a panic.
        #[test]
        fn no_count_of_jobs_or_threads_in_any_memory_makes_a_command_panic_or_hang(
            jobs in prop_oneof![Just(1_000_000u32), 1u32..=1_000_000],
            threads in prop_oneof![Just(256u32), 1u32..=256, 1u32..=1_000_000],
            memory_mib in prop_oneof![Just(512u64), 512u64..=8192],
            command in 0..3usize,
        ) {
            let (jobs, threads) = (jobs.to_string(), threads.to_string());
            // IDA*'s last passes here are long enough to be split between threads.
            let board = "puzzles/4x4/moves-36.txt";
            let args: Vec<&str> = match command {
                0 => vec!["batch", "-", "--jobs", &jobs, "--threads", &threads, "--format", "csv"],
                1 => vec!["batch", board, "puzzles/2x2", "--algo", "idastar", "--jobs", &jobs, "--threads", &threads],
                _ => vec!["solve", board, "--algo", "idastar", "--threads", &threads],
            };
            let list = if command == 0 { eight_puzzles(20) } else { Vec::new() };
            let (code, stderr) = run_in_memory(&args, memory_mib << 10, &list, 120);
            ends_cleanly(&args, code, &stderr);
            prop_assert!(matches!(code, Some(0 | 2 | 3)), "{args:?}: {code:?} {stderr}");
        }
    }
}

/// Reports that cannot be written are trouble, not success: with standard
/// output closed (`>&-`) or on a full disk (`/dev/full`), every command
/// that writes there, and `--help` and `--version`, exits 2 with one line
/// on stderr saying so.
#[cfg(unix)]
#[test]
fn a_report_that_cannot_be_written_is_exit_2_with_one_line_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.csv");
    npuzzle()
        .args(["batch", "puzzles/3x3/easy-3.txt", "--format", "csv", "--out"])
        .arg(&rows)
        .assert()
        .code(0);
    let rows = rows.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["solve", "puzzles/3x3/easy-3.txt"],
        &["solve", "puzzles/3x3/easy-3.txt", "--format", "json"],
        &["batch", "puzzles/3x3/easy-3.txt"],
        &["generate", "--size", "3", "--seed", "1"],
        &["generate", "--size", "3", "--seed", "1", "--count", "3", "--list"],
        &["check", "puzzles/3x3/easy-3.txt"],
        &["compare", "puzzles/3x3/easy-3.txt"],
        &["merge", rows],
        &["completions", "bash"],
        &["--help"],
        &["--version"],
        &["solve", "--help"],
    ];
    let binary = assert_cmd::cargo::cargo_bin("npuzzle");
    for args in commands {
        let full = Command::new(&binary)
            .args(*args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
            .stdout(Stdio::from(fs::OpenOptions::new().write(true).open("/dev/full").unwrap()))
            .output()
            .unwrap();
        let closed = Command::new("sh")
            .args(["-c", "\"$0\" \"$@\" >&-"])
            .arg(&binary)
            .args(*args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
            .output()
            .unwrap();
        for (how, out) in [("full", full), ("closed", closed)] {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}, standard output {how}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}, standard output {how}: {stderr}");
            assert!(stderr.contains("standard output"), "{args:?}, standard output {how}: {stderr}");
        }
    }
}
