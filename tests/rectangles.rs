//! Boards that are not square, held to exhaustive ground truth: a plain
//! breadth-first search over the whole space of each small rectangle gives
//! every state's distance; the parity rule must agree with reachability on
//! every arrangement, the optimal searches must find each sampled state's
//! true cost, and every other algorithm's path must replay to the goal.

use crate::util::{Rng, pack, packed_distances, play_on};
use npuzzle::board::Shape;
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Status, Tables, Tiles, Weight, solve};
use std::collections::HashMap;

/// Width × height of the shapes held to ground truth: 2×5 has 1.8 M
/// reachable states.
const SHAPES: [(usize, usize); 5] = [(2, 3), (3, 2), (2, 4), (4, 2), (2, 5)];

fn goals(shape: Shape) -> Vec<Goal> {
    [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail]
        .iter()
        .map(|s| Goal::new(s, shape).unwrap())
        .collect()
}

/// Calls `each` with every arrangement of `0..n`, in place (no list of
/// millions of vectors).
fn each_arrangement(n: u16, mut each: impl FnMut(&[u16])) {
    let mut current: Vec<u16> = (0..n).collect();
    loop {
        each(&current);
        let Some(i) = (0..current.len() - 1).rev().find(|&i| current[i] < current[i + 1]) else { return };
        let j = (i + 1..current.len()).rev().find(|&j| current[j] > current[i]).unwrap();
        current.swap(i, j);
        current[i + 1..].reverse();
    }
}

#[test]
fn the_parity_rule_agrees_with_reachability_on_every_arrangement_of_small_rectangles() {
    for (w, h) in SHAPES {
        let shape = Shape::new(w, h);
        for goal in goals(shape) {
            let reachable = packed_distances(goal.tiles().cells(), w, h);
            let cells = w * h;
            let all: usize = (1..=cells).product();
            assert_eq!(reachable.len(), all / 2, "{shape}: half of all arrangements");
            let mut agreed = 0;
            each_arrangement(cells as u16, |board| {
                let parity = goal.parity(board).solvable();
                assert_eq!(parity, reachable.contains_key(&pack(board)), "{shape} {board:?}");
                agreed += 1;
            });
            assert_eq!(agreed, all);
        }
    }
}

/// Solves `start`, checks the verdict against `truth` and the path by
/// replaying it; returns the cost.
fn solved(
    start: &[u16],
    goal: &Goal,
    truth: Option<u8>,
    algorithm: Algorithm,
    h: HeuristicKind,
) -> Option<usize> {
    let shape = goal.shape();
    let tiles = Tiles::with_shape(shape, start).unwrap();
    let outcome = solve(&tiles, goal, algorithm, h, &Limits::default(), &Tables::NONE).unwrap();
    let label = format!("{algorithm:?}/{h} on {shape} {start:?}");
    let Some(_) = truth else {
        assert_eq!(outcome.status, Status::Unsolvable, "{label}");
        return None;
    };
    assert_eq!(outcome.status, Status::Solved, "{label}");
    let path = outcome.path.unwrap();
    let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
    assert_eq!(
        play_on(start, shape.width(), shape.height(), &names),
        goal.tiles().cells(),
        "{label}: replays"
    );
    Some(path.len())
}

/// A start to test every search on: its arrangement and its true distance
/// (`None`: unsolvable).
struct Sample {
    start: Vec<u16>,
    distance: Option<u8>,
}

/// How far from the goal (in moves) the searches whose cost grows fastest
/// with the distance are run; every other search runs on every sample.
#[derive(Clone, Copy)]
struct Reach {
    /// Greedy and weighted A* with h = 0: both are then A*'s uniform-cost
    /// search again, visiting every state within the distance.
    uniform_cost: u8,
    /// IDA* (weighted or not) with h = 0: exponential in the distance.
    iterative_blind: u8,
    /// IDA* (weighted or not) with Hamming distance: exponential too, later.
    iterative_hamming: u8,
    /// Depth-first search wanders over much of the space whatever the
    /// distance: it runs on one sample in this many.
    dfs_every: usize,
}

impl Reach {
    const EVERYWHERE: Reach =
        Reach { uniform_cost: u8::MAX, iterative_blind: u8::MAX, iterative_hamming: u8::MAX, dfs_every: 1 };
}

/// Every algorithm with every heuristic on each sample, within `reach`:
/// BFS, A* and IDA* must return exactly the true distance, weighted search
/// at most W times it, and every path must replay to the goal. Returns the
/// number of solvable samples, on each of which BFS and A* with every
/// heuristic (zero included) were held to the exact distance.
fn every_algorithm_on(samples: &[Sample], goal: &Goal, reach: Reach) -> usize {
    let weights: Vec<Weight> = ["1.5", "2", "3"].iter().map(|w| w.parse().unwrap()).collect();
    let shape = goal.shape();
    for (index, &Sample { ref start, distance }) in samples.iter().enumerate() {
        let within = |limit: u8| distance.is_none_or(|d| d <= limit);
        let exact = |cost: Option<usize>, label: &str| {
            assert_eq!(cost, distance.map(usize::from), "{label} on {shape} {start:?}");
        };
        exact(solved(start, goal, distance, Algorithm::Bfs, HeuristicKind::Zero), "bfs");
        if index % reach.dfs_every == 0 {
            solved(start, goal, distance, Algorithm::Dfs, HeuristicKind::Zero);
        }
        for heuristic in HeuristicKind::ALL {
            exact(solved(start, goal, distance, Algorithm::AStar, heuristic), &format!("astar/{heuristic}"));
            let best_first = heuristic != HeuristicKind::Zero || within(reach.uniform_cost);
            let iterative = match heuristic {
                HeuristicKind::Zero => within(reach.iterative_blind),
                HeuristicKind::Hamming => within(reach.iterative_hamming),
                _ => true,
            };
            if iterative {
                exact(
                    solved(start, goal, distance, Algorithm::IdaStar, heuristic),
                    &format!("idastar/{heuristic}"),
                );
            }
            if best_first {
                solved(start, goal, distance, Algorithm::Greedy, heuristic);
            }
            for &weight in &weights {
                let runs = [
                    (Algorithm::WeightedAStar(weight), best_first),
                    (Algorithm::WeightedIdaStar(weight), iterative),
                ];
                for (algorithm, _) in runs.into_iter().filter(|&(_, runs)| runs) {
                    let cost = solved(start, goal, distance, algorithm, heuristic);
                    if let (Some(cost), Some(d)) = (cost, distance) {
                        assert!(cost as f64 <= weight.value() * f64::from(d), "{algorithm:?} {start:?}");
                    }
                }
            }
        }
    }
    samples.iter().filter(|s| s.distance.is_some()).count()
}

/// `count` uniformly random arrangements (about half of them unsolvable).
fn random_samples(truth: &HashMap<u64, u8>, cells: usize, count: usize, rng: &mut Rng) -> Vec<Sample> {
    (0..count)
        .map(|_| {
            let start = rng.shuffle(cells);
            let distance = truth.get(&pack(&start)).copied();
            Sample { start, distance }
        })
        .collect()
}

#[test]
fn every_algorithm_on_sampled_states_of_small_rectangles() {
    let mut rng = Rng(2025);
    for (w, h) in SHAPES.into_iter().filter(|&(w, h)| w * h <= 8) {
        for goal in goals(Shape::new(w, h)) {
            let truth = packed_distances(goal.tiles().cells(), w, h);
            // Every search is quick on spaces of at most 20,160 states.
            let samples = random_samples(&truth, w * h, 100, &mut rng);
            every_algorithm_on(&samples, &goal, Reach::EVERYWHERE);
        }
    }
}

/// The states 2×5 is tested on, for one goal. Random arrangements lie
/// mostly 33 to 42 moves out, where BFS and uniform-cost A* visit nearly
/// all 1.8 M states (a third of a second each), so the samples are spread
/// over the distances instead: `NEAR_EACH` at every distance up to `NEAR`,
/// where those searches take milliseconds, then one at every `FAR_STEP`-th
/// distance up to `FAR`, from `offset` past `NEAR`, so that three goals
/// cover each of those distances once. Past `FAR` lie about 2 % of the
/// states, on which A* and IDA* with the weaker estimates take seconds. Ten
/// unsolvable arrangements hold every search to the parity verdict.
fn samples_2x5(truth: &HashMap<u64, u8>, offset: usize, rng: &mut Rng) -> Vec<Sample> {
    const NEAR: usize = 30;
    const NEAR_EACH: usize = 4;
    const FAR: usize = 45;
    const FAR_STEP: usize = 3;
    let mut by_distance: Vec<Vec<u64>> = vec![Vec::new(); FAR + 1];
    for (&key, &d) in truth {
        if let Some(bucket) = by_distance.get_mut(usize::from(d)) {
            bucket.push(key);
        }
    }
    let unpack = |key: u64| -> Vec<u16> { (0..10).map(|c| (key >> (4 * c) & 0xF) as u16).collect() };
    let near = (0..=NEAR).map(|d| (d, NEAR_EACH));
    let far = (NEAR + 1 + offset..=FAR).step_by(FAR_STEP).map(|d| (d, 1));
    let mut samples = Vec::new();
    for (d, count) in near.chain(far) {
        let bucket = &mut by_distance[d];
        // Distinct states: a partial shuffle of the bucket.
        for i in 0..count.min(bucket.len()) {
            let j = i + rng.below(bucket.len() - i);
            bucket.swap(i, j);
            samples.push(Sample { start: unpack(bucket[i]), distance: Some(d as u8) });
        }
    }
    let unsolvable = std::iter::repeat_with(|| rng.shuffle(10)).filter(|s| !truth.contains_key(&pack(s)));
    samples.extend(unsolvable.take(10).map(|start| Sample { start, distance: None }));
    samples
}

#[test]
fn every_algorithm_on_sampled_states_of_the_2x5_rectangle() {
    // Measured per run at the distance named: blind IDA* 2.5 ms at 25 and
    // 0.2 s at 35; IDA* with Hamming 0.17 s at 40 and 8 s at 50.
    let reach = Reach { uniform_cost: 20, iterative_blind: 25, iterative_hamming: 40, dfs_every: 25 };
    let mut rng = Rng(2026);
    let mut held_to_the_distance = 0;
    for (offset, goal) in goals(Shape::new(2, 5)).iter().enumerate() {
        let truth = packed_distances(goal.tiles().cells(), 2, 5);
        held_to_the_distance += every_algorithm_on(&samples_2x5(&truth, offset, &mut rng), goal, reach);
    }
    // Hundreds of states, spread over every distance.
    assert!(held_to_the_distance >= 300, "{held_to_the_distance} states");
}

// --- reading every layout, on the command line -------------------------------------------------

use crate::util::npuzzle;
use predicates::str::contains;

#[test]
fn boards_in_the_layouts_of_other_tools_are_read_with_their_shape_and_verdict() {
    for (file, goal, size, code) in [
        ("9x9/algs4-layout.txt", "blank-last", "9x9", 0),
        ("10x10/algs4-layout.txt", "blank-last", "10x10", 0),
        ("10x10/42-layout.txt", "snail", "10x10", 0),
        ("17x17/42-layout.txt", "snail", "17x17", 0),
        ("17x17/42-layout-unsolvable.txt", "snail", "17x17", 1),
        ("rectangles/4x3-header.txt", "blank-first", "4x3", 0),
        ("rectangles/2x5-rows.txt", "blank-last", "2x5", 0),
    ] {
        npuzzle()
            .args(["check", &format!("puzzles/{file}"), "--goal", goal])
            .assert()
            .code(code)
            .stdout(contains(format!("size: {size} (")));
    }
}

#[test]
fn an_inline_rectangle_takes_its_shape_from_size_and_is_refused_without_it() {
    npuzzle()
        .args(["solve", "1,2,3,4,0,5", "--size", "3x2", "--goal", "blank-last", "--format", "json"])
        .assert()
        .code(0)
        .stdout(contains(r#""path":["Right"]"#))
        .stdout(contains(r#""size":null,"width":3,"height":2"#));
    npuzzle().args(["solve", "1,2,3,4,0,5", "--goal", "blank-last"]).assert().code(2).stderr(contains(
        "6 numbers are not a square board: lay the board out in rows of equal length, or give its size",
    ));
    // Rows that contradict the size given are an error, not a guess.
    npuzzle()
        .args(["solve", "1 2 3\n4 0 5", "--size", "2x3"])
        .assert()
        .code(2)
        .stderr(contains("the given size is 2x3 (3 rows of 2) but the board is laid out as 2 rows of 3"));
}

#[test]
fn rows_of_unequal_length_are_refused_unless_a_size_is_given() {
    let ragged = "1 2 3\n4 5\n0 6 7 8\n";
    npuzzle().args(["check", "-"]).write_stdin(ragged).assert().code(2).stdout("").stderr(
        "npuzzle: <stdin>: rows of 3, 2 and 4 numbers are not a rectangle: lay the board out in rows of equal \
         length, or give its size (WxH)\n",
    );
    // With the size given, the nine numbers are a 3x3 board.
    npuzzle()
        .args(["check", "-", "--size", "3", "--goal", "blank-last"])
        .write_stdin(ragged)
        .assert()
        .code(0)
        .stdout(contains("size: 3x3 ("));
}

#[test]
fn every_search_takes_a_16x16_board_and_none_takes_17x17() {
    let moved: Vec<String> = {
        let mut cells: Vec<u16> = (0..256).collect();
        // Two moves from the goal: the blank went right, then down.
        cells.swap(0, 1);
        cells.swap(1, 17);
        cells.iter().map(u16::to_string).collect()
    };
    let board = moved.join(",");
    for algo in ["bfs", "dfs", "astar", "idastar", "greedy"] {
        npuzzle()
            .args(["solve", &board, "--algo", algo, "--max-depth", "4", "--format", "json"])
            .assert()
            .code(0)
            .stdout(contains(r#""status":"solved""#));
    }
    npuzzle()
        .args(["solve", "puzzles/17x17/42-layout.txt", "--goal", "snail"])
        .assert()
        .code(2)
        .stderr(contains("a 17x17 board is too large for astar: searches take boards up to 16x16"));
}

#[test]
fn the_constructive_solver_answers_every_shipped_layout_and_its_paths_replay() {
    for (file, goal, code) in [
        ("9x9/algs4-layout.txt", "blank-last", 0),
        ("10x10/algs4-layout.txt", "blank-last", 0),
        ("10x10/42-layout.txt", "snail", 0),
        ("17x17/42-layout.txt", "snail", 0),
        ("17x17/42-layout-unsolvable.txt", "snail", 1),
        ("rectangles/4x3-header.txt", "blank-first", 0),
        ("rectangles/2x5-rows.txt", "blank-last", 0),
    ] {
        let out = npuzzle()
            .args(["solve", &format!("puzzles/{file}"), "--algo", "rows", "--goal", goal, "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{file}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if code != 0 {
            assert_eq!(v["status"], "unsolvable", "{file}");
            continue;
        }
        let cells = |key: &str| -> Vec<u16> {
            v[key].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as u16).collect()
        };
        let (w, h) = (v["width"].as_u64().unwrap() as usize, v["height"].as_u64().unwrap() as usize);
        let path: Vec<&str> = v["path"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(
            play_on(&cells("start"), w, h, &path),
            cells("goal"),
            "{file}: the path replays to the goal"
        );
        assert_eq!(v["cost"].as_u64(), Some(path.len() as u64));
        assert_eq!(v["heuristic"], serde_json::Value::Null);
    }
}

/// Stderr of `solve` on a generated board of `size` with `args`, which must
/// stop it at a limit.
fn stopped(size: &str, args: &[&str]) -> String {
    let board = npuzzle().args(["generate", "--size", size, "--seed", "5"]).output().unwrap().stdout;
    let out = npuzzle().args(["solve", "-"]).args(args).write_stdin(board).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{size} {args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_search_that_stops_on_a_board_past_16_cells_names_the_options_that_finish() {
    let finishing = ["--weight 3", "--algo greedy", "--algo rows"];
    for (size, args) in [
        ("6", ["--max-nodes", "2000"]),
        ("6", ["--algo=idastar", "--max-expanded=2000"]),
        // Tall boards as well as wide ones: cells count, not the width.
        ("4x8", ["--max-nodes", "2000"]),
        ("5x4", ["--algo=idastar", "--max-expanded=2000"]),
    ] {
        let stderr = stopped(size, &args);
        assert!(finishing.iter().all(|option| stderr.contains(option)), "{size} {args:?}: {stderr}");
    }
    let weighted = stopped("6", &["--weight", "2", "--max-nodes", "2000"]);
    assert!(weighted.contains("a larger --weight") && weighted.contains("--algo greedy"), "{weighted}");
    // Boards of at most 16 cells have no more arrangements than a 15-puzzle:
    // optimal search is the right tool there, and none of these is offered
    // (the 4×4's own hint names a faster optimal search).
    for size in ["4", "3x5"] {
        let stderr = stopped(size, &["--max-nodes", "2000"]);
        assert!(!finishing.iter().any(|option| stderr.contains(option)), "{size}: {stderr}");
    }
}
