//! The job-runner recipes of the documentation, run as written: a Slurm job
//! array (its tasks run one by one with the variables Slurm sets) and GNU
//! parallel, each stopped and run again, each ending with the rows one
//! machine would have written.

use crate::util::npuzzle;
use std::fs;
use std::path::Path;
use std::process::Command;

/// A list of 30 seeded 8-puzzles in `dir`, and one machine's rows for it.
fn list_and_rows(dir: &Path) -> (String, Vec<Vec<String>>) {
    let list = dir.join("list.txt");
    npuzzle()
        .args(["generate", "--size", "3", "--seed", "3", "--count", "30", "--list", "--out"])
        .arg(&list)
        .assert()
        .code(0);
    let list = list.to_str().unwrap().to_owned();
    let out =
        npuzzle().args(["batch", &list, "--list", "--algo", "astar", "--format", "csv"]).output().unwrap();
    (list, timeless(&String::from_utf8(out.stdout).unwrap()))
}

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

fn recipe(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/recipes").join(name).to_str().unwrap().to_owned()
}

fn binary() -> String {
    assert_cmd::cargo::cargo_bin("npuzzle").to_str().unwrap().to_owned()
}

#[test]
fn a_slurm_job_array_stopped_and_requeued_gives_one_machines_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (list, rows) = list_and_rows(dir.path());
    let out = dir.path().join("out");
    let task = |k: usize| {
        let status = Command::new("bash")
            .arg(recipe("slurm-array.sh"))
            .current_dir(dir.path())
            .env("LIST", &list)
            .env("NPUZZLE", binary())
            .env("SOLVE", "--algo astar")
            .env("PDB", dir.path().join("pdb"))
            .env("OUT", &out)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "4")
            .status()
            .unwrap();
        assert!(status.success(), "task {k}");
    };
    (0..4).for_each(task);
    // Task 2 was stopped after its first row, half-way through its second:
    // requeued, it continues.
    let shard = out.join("shard-2.csv");
    let text = fs::read_to_string(&shard).unwrap();
    let cut = text.split_inclusive('\n').take(2).map(str::len).sum::<usize>() + 20;
    fs::write(&shard, &text[..cut]).unwrap();
    task(2);
    let merged = npuzzle()
        .current_dir(dir.path())
        .arg("merge")
        .args((0..4).map(|k| out.join(format!("shard-{k}.csv"))))
        .args(["--list", &list])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(timeless(&String::from_utf8(merged.stdout).unwrap()), rows);
}

#[test]
fn gnu_parallel_stopped_and_run_again_gives_one_machines_rows() {
    assert!(
        Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success()),
        "GNU parallel is needed for this test: scripts/test installs it (Debian: apt-get install parallel)"
    );
    let dir = tempfile::tempdir().unwrap();
    let (list, rows) = list_and_rows(dir.path());
    let out = dir.path().join("out");
    let run = || {
        let status = Command::new("sh")
            .arg(recipe("gnu-parallel.sh"))
            .args([&list, "5", "2"])
            .current_dir(dir.path())
            .env("NPUZZLE", binary())
            .env("SOLVE", "--algo astar")
            .env("OUT", &out)
            .env("HOME", dir.path())
            .status()
            .unwrap();
        assert!(status.success());
    };
    run();
    assert_eq!(timeless(&fs::read_to_string(out.join("all.csv")).unwrap()), rows);
    // A stop: shard 3 was cut short and its job never logged as done.
    let shard = out.join("shard-3.csv");
    let text = fs::read_to_string(&shard).unwrap();
    fs::write(&shard, &text[..text.len() - 10]).unwrap();
    let log = fs::read_to_string(out.join("joblog")).unwrap();
    let kept: String = log.split_inclusive('\n').filter(|line| !line.contains("shard-3.csv")).collect();
    fs::write(out.join("joblog"), kept).unwrap();
    fs::remove_file(out.join("all.csv")).unwrap();
    run();
    assert_eq!(timeless(&fs::read_to_string(out.join("all.csv")).unwrap()), rows);
}
