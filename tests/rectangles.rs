//! Boards that are not square, held to exhaustive ground truth: a plain
//! breadth-first search over the whole space of each small rectangle gives
//! every state's distance; the parity rule must agree with reachability on
//! every arrangement, the optimal searches must find each sampled state's
//! true cost, and every other algorithm's path must replay to the goal.

use crate::util::{Rng, pack, packed_distances, play_on};
use npuzzle::board::Shape;
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Status, Tables, Tiles, Weight, solve};

/// Width × height, as the issue lists them: 2×5 has 1.8 M reachable states.
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

/// Every algorithm with every heuristic on `samples` random arrangements
/// (about half of them unsolvable). With h = 0, IDA* is exponential and
/// A*, greedy search, BFS and DFS exhaust the space, so on the largest
/// rectangle only the informative heuristics run.
fn every_algorithm_on_samples(w: usize, h: usize, goal: &Goal, samples: usize, rng: &mut Rng) {
    let weights: Vec<Weight> = ["1.5", "2", "3"].iter().map(|w| w.parse().unwrap()).collect();
    let shape = goal.shape();
    let truth = packed_distances(goal.tiles().cells(), w, h);
    let small = w * h <= 8;
    let heuristics = HeuristicKind::ALL.iter().filter(|&&k| small || k != HeuristicKind::Zero);
    for _ in 0..samples {
        let start = rng.shuffle(w * h);
        let distance = truth.get(&pack(&start)).copied();
        let exact = |cost: Option<usize>, label: &str| {
            assert_eq!(cost, distance.map(usize::from), "{label} on {shape} {start:?}");
        };
        exact(solved(&start, goal, distance, Algorithm::Bfs, HeuristicKind::Zero), "bfs");
        solved(&start, goal, distance, Algorithm::Dfs, HeuristicKind::Zero);
        for &heuristic in heuristics.clone() {
            exact(solved(&start, goal, distance, Algorithm::AStar, heuristic), &format!("astar/{heuristic}"));
            if heuristic != HeuristicKind::Zero || w * h <= 6 {
                exact(
                    solved(&start, goal, distance, Algorithm::IdaStar, heuristic),
                    &format!("idastar/{heuristic}"),
                );
            }
            solved(&start, goal, distance, Algorithm::Greedy, heuristic);
            for &weight in &weights {
                for algorithm in [Algorithm::WeightedAStar(weight), Algorithm::WeightedIdaStar(weight)] {
                    let cost = solved(&start, goal, distance, algorithm, heuristic);
                    if let (Some(cost), Some(d)) = (cost, distance) {
                        assert!(cost as f64 <= weight.value() * f64::from(d), "{algorithm:?} {start:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_algorithm_on_sampled_states_of_small_rectangles() {
    let mut rng = Rng(2025);
    for (w, h) in SHAPES.into_iter().filter(|&(w, h)| w * h <= 8) {
        for goal in goals(Shape::new(w, h)) {
            every_algorithm_on_samples(w, h, &goal, 100, &mut rng);
        }
    }
}

#[test]
fn every_algorithm_on_sampled_states_of_the_2x5_rectangle() {
    let mut rng = Rng(2026);
    for goal in goals(Shape::new(2, 5)) {
        every_algorithm_on_samples(2, 5, &goal, 5, &mut rng);
    }
}
