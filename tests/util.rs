//! What the integration tests share: the binary, puzzle paths, and an
//! independent ground truth (a plain BFS that shares no code with the crate).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The `npuzzle` binary under test, with a cache directory of its own so
/// that no test reads or fills the user's pattern databases.
pub fn npuzzle() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("npuzzle").expect("binary builds");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"));
    cmd
}

/// Path of a file under `puzzles/`.
pub fn puzzle(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles").join(relative)
}

/// The `# optimal: N` figure of a puzzle file.
pub fn optimal(relative: &str) -> u32 {
    let text = std::fs::read_to_string(puzzle(relative)).expect("puzzle file exists");
    text.lines()
        .find_map(|l| l.strip_prefix("# optimal:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{relative} has no '# optimal: N' line"))
}

/// A small deterministic generator (`SplitMix64`) so test inputs never change.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A board `steps` random moves from `goal` (no immediate backtracking).
    pub fn walk(&mut self, goal: &[u16], width: usize, steps: usize) -> Vec<u16> {
        let mut board = goal.to_vec();
        let mut blank = board.iter().position(|&t| t == 0).unwrap();
        let mut previous = usize::MAX;
        for _ in 0..steps {
            let options: Vec<usize> =
                neighbours(blank, width).into_iter().filter(|&n| n != previous).collect();
            let next = options[self.below(options.len())];
            board.swap(blank, next);
            previous = blank;
            blank = next;
        }
        board
    }

    /// A uniformly random arrangement of `0..cells`.
    pub fn shuffle(&mut self, cells: usize) -> Vec<u16> {
        let mut board: Vec<u16> = (0..cells as u16).collect();
        for i in (1..cells).rev() {
            board.swap(i, self.below(i + 1));
        }
        board
    }
}

/// Cells next to `cell` on a `width`×`width` board.
pub fn neighbours(cell: usize, width: usize) -> Vec<usize> {
    neighbours_in(cell, width, width)
}

/// Cells next to `cell` on a `width`×`height` board.
pub fn neighbours_in(cell: usize, width: usize, height: usize) -> Vec<usize> {
    let (r, c) = (cell / width, cell % width);
    let mut out = Vec::new();
    if r > 0 {
        out.push(cell - width);
    }
    if r + 1 < height {
        out.push(cell + width);
    }
    if c > 0 {
        out.push(cell - 1);
    }
    if c + 1 < width {
        out.push(cell + 1);
    }
    out
}

/// Every board reachable from `goal`, with its true distance: a plain BFS.
pub fn all_distances(goal: &[u16], width: usize) -> HashMap<Vec<u16>, u32> {
    distances_within(goal, width, u32::MAX)
}

/// Every board within `radius` moves of `goal` on a `width`×`width` board,
/// with its true distance: a plain BFS.
pub fn distances_within(goal: &[u16], width: usize, radius: u32) -> HashMap<Vec<u16>, u32> {
    let mut dist = HashMap::new();
    dist.insert(goal.to_vec(), 0);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(board) = queue.pop_front() {
        let d = dist[&board];
        if d == radius {
            continue;
        }
        let blank = board.iter().position(|&t| t == 0).unwrap();
        for n in neighbours(blank, width) {
            let mut next = board.clone();
            next.swap(blank, n);
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// True distances of all 181,440 8-puzzles to the blank-first goal.
pub fn eight_puzzle_distances() -> &'static HashMap<Vec<u16>, u32> {
    static TABLE: OnceLock<HashMap<Vec<u16>, u32>> = OnceLock::new();
    TABLE.get_or_init(|| all_distances(&(0..9).collect::<Vec<u16>>(), 3))
}

/// Plays move names from `start`; panics on an illegal move. Returns the end board.
pub fn play(start: &[u16], width: usize, moves: &[&str]) -> Vec<u16> {
    play_on(start, width, start.len() / width, moves)
}

/// [`play`] on a `width`×`height` board.
pub fn play_on(start: &[u16], width: usize, height: usize, moves: &[&str]) -> Vec<u16> {
    let mut board = start.to_vec();
    let mut blank = board.iter().position(|&t| t == 0).unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let (r, c) = (blank / width, blank % width);
        let next = match *mv {
            "Up" if r > 0 => blank - width,
            "Down" if r + 1 < height => blank + width,
            "Left" if c > 0 => blank - 1,
            "Right" if c + 1 < width => blank + 1,
            _ => panic!("move {i} ({mv}) is illegal from {board:?}"),
        };
        board.swap(blank, next);
        blank = next;
    }
    board
}

/// Every arrangement of `0..cells`, in lexicographic order.
pub fn permutations(cells: u16) -> Vec<Vec<u16>> {
    let mut all = vec![];
    let mut current: Vec<u16> = (0..cells).collect();
    loop {
        all.push(current.clone());
        let Some(i) = (0..current.len() - 1).rev().find(|&i| current[i] < current[i + 1]) else {
            break;
        };
        let j = (i + 1..current.len()).rev().find(|&j| current[j] > current[i]).unwrap();
        current.swap(i, j);
        current[i + 1..].reverse();
    }
    all
}

/// A board of up to 16 cells as four bits a cell: a compact key for the
/// million-state spaces of small rectangles.
pub fn pack(cells: &[u16]) -> u64 {
    cells.iter().enumerate().fold(0, |key, (i, &t)| key | u64::from(t) << (4 * i))
}

/// Every board of up to 16 cells reachable from `goal` on a `width`×`height`
/// board, keyed by [`pack`], with its true distance: a plain BFS.
pub fn packed_distances(goal: &[u16], width: usize, height: usize) -> HashMap<u64, u8> {
    assert!(goal.len() <= 16);
    let neighbours: Vec<Vec<usize>> = (0..goal.len()).map(|c| neighbours_in(c, width, height)).collect();
    let mut dist = HashMap::from([(pack(goal), 0u8)]);
    let mut queue = VecDeque::from([pack(goal)]);
    while let Some(key) = queue.pop_front() {
        let d = dist[&key];
        let blank = (0..goal.len()).find(|&c| (key >> (4 * c)).trailing_zeros() >= 4).unwrap();
        for &n in &neighbours[blank] {
            let tile = (key >> (4 * n)) & 0xF;
            let next = key & !(0xF << (4 * n)) | tile << (4 * blank);
            dist.entry(next).or_insert_with(|| {
                queue.push_back(next);
                d + 1
            });
        }
    }
    dist
}

/// What [`interrupt_once_started`] saw.
#[cfg(unix)]
pub struct Interrupted {
    pub code: Option<i32>,
    pub stdout: String,
    /// Standard error without the progress lines.
    pub stderr: String,
}

/// Runs `npuzzle args` with `--progress always`, waits for its first
/// progress line starting with `npuzzle: {started}` (the process saying it
/// is under way, with Ctrl-C handled), sends it SIGINT and collects what it
/// wrote. Fails if the line does not come within a minute or the process is
/// still running 20 s after the signal; `stdin` is held open and never
/// written when `hold_stdin` is set.
#[cfg(unix)]
pub fn interrupt_once_started(args: &[&std::ffi::OsStr], started: &str, hold_stdin: bool) -> Interrupted {
    signal_once_started(args, started, hold_stdin, "-INT")
}

/// [`interrupt_once_started`] with another signal (`kill`'s spelling).
#[cfg(unix)]
pub fn signal_once_started(
    args: &[&std::ffi::OsStr],
    started: &str,
    hold_stdin: bool,
    signal: &str,
) -> Interrupted {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(args)
        .args(["--progress", "always"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache"))
        .stdin(if hold_stdin { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let held = child.stdin.take();
    let mut stdout = child.stdout.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let (lines, seen) = std::sync::mpsc::channel::<String>();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let listening = std::thread::spawn(move || {
        for line in stderr.lines() {
            let _ = lines.send(line.unwrap());
        }
    });
    let marker = format!("npuzzle: {started}");
    let mut kept = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = seen
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .unwrap_or_else(|_| panic!("no '{marker}' line within a minute; stderr so far: {kept:?}"));
        if line.starts_with(&marker) {
            break;
        }
        kept.push(line);
    }
    assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("still running 20 s after {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(held);
    listening.join().unwrap();
    let progress = ["npuzzle: reading  ", "npuzzle: solving  ", "npuzzle: searching  "];
    kept.extend(seen.try_iter());
    let mut stderr = String::new();
    for line in kept.iter().filter(|line| !progress.iter().any(|p| line.starts_with(p))) {
        stderr.push_str(line);
        stderr.push('\n');
    }
    Interrupted { code: child.wait().unwrap().code(), stdout: reading.join().unwrap(), stderr }
}
