//! IDA* on several threads: the same optimal costs as on one, on the
//! 8-puzzle ground truth and the easier Korf 15-puzzles, for 1, 2 and 3
//! threads, every path replaying.

use crate::util::{Rng, eight_puzzle_distances, optimal, play, puzzle};
use npuzzle::{
    Algorithm, Goal, GoalSpec, HeuristicKind, Input, Limits, Outcome, Stats, Status, Tables, read_input,
    solve,
};

/// Checks that `outcome` solves `start` in exactly `distance` moves.
pub fn assert_optimal_path(outcome: &Outcome, start: &[u16], goal: &Goal, distance: u32, label: &str) {
    assert_eq!(outcome.status, Status::Solved, "{label}");
    let path = outcome.path.as_ref().unwrap();
    assert_eq!(path.len() as u32, distance, "{label}: optimal");
    let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
    assert_eq!(play(start, goal.width(), &names), goal.tiles().cells(), "{label}: replays to the goal");
}

fn on_threads(threads: usize) -> Limits {
    // Every pass split, however small: these searches are.
    Limits { threads, split_after: Some(0), ..Limits::default() }
}

/// IDA* with Manhattan distance under `limits`.
fn idastar(start: &npuzzle::Tiles, goal: &Goal, limits: &Limits) -> Outcome {
    solve(start, goal, Algorithm::IdaStar, HeuristicKind::Manhattan, limits, &Tables::NONE).unwrap()
}

#[test]
fn parallel_idastar_finds_the_true_cost_of_random_8_puzzles() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(2019);
    let mut checked = 0;
    while checked < 60 {
        let start = rng.shuffle(9);
        let Some(&distance) = truth.get(&start) else { continue };
        checked += 1;
        let tiles = npuzzle::Tiles::new(&start).unwrap();
        for threads in [1, 2, 3] {
            for heuristic in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                for algorithm in [Algorithm::IdaStar, Algorithm::WeightedIdaStar("1.5".parse().unwrap())] {
                    let outcome =
                        solve(&tiles, &goal, algorithm, heuristic, &on_threads(threads), &Tables::NONE)
                            .unwrap();
                    let label = format!("{algorithm}/{heuristic} on {threads} threads, {start:?}");
                    if algorithm == Algorithm::IdaStar {
                        assert_optimal_path(&outcome, &start, &goal, distance, &label);
                    } else {
                        let cost = outcome.cost().unwrap();
                        assert!(2 * cost <= 3 * distance as usize, "{label}: {cost} against {distance}");
                    }
                }
            }
        }
    }
}

#[test]
fn parallel_idastar_solves_the_easier_korf_instances_optimally() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    for number in [55, 42, 79] {
        let file = format!("korf100/{number:03}.txt");
        let start = read_input(&Input::File(puzzle(&file))).unwrap();
        let mut expanded = Vec::new();
        for threads in [1, 2, 3] {
            let outcome = solve(
                &start,
                &goal,
                Algorithm::IdaStar,
                HeuristicKind::LinearConflict,
                &on_threads(threads),
                &Tables::NONE,
            )
            .unwrap();
            let label = format!("{file} on {threads} threads");
            assert_optimal_path(&outcome, start.cells(), &goal, optimal(&file), &label);
            expanded.push(outcome.stats.nodes_expanded);
        }
        // The passes before the last are split, not repeated: the threads'
        // counts add up to about what one thread expands.
        for &n in &expanded[1..] {
            assert!(n < expanded[0] * 3, "{file}: {expanded:?}");
        }
    }
}

#[test]
fn a_goal_at_the_start_or_within_the_split_is_found_on_any_thread_count() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let solved = goal.tiles().clone();
    for threads in [1, 2, 3] {
        let outcome = idastar(&solved, &goal, &on_threads(threads));
        assert_eq!(outcome.cost(), Some(0));
        // Three moves away: found while the first levels are expanded.
        let start =
            npuzzle::Tiles::new(&crate::util::play(solved.cells(), 4, &["Down", "Right", "Down"])).unwrap();
        let outcome = idastar(&start, &goal, &on_threads(threads));
        assert_optimal_path(&outcome, start.cells(), &goal, 3, &format!("{threads} threads"));
    }
}

#[test]
fn parallel_idastar_stops_at_its_limits() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let start = read_input(&Input::File(puzzle("korf100/001.txt"))).unwrap();
    let shallow = Limits { max_depth: Some(20), threads: 2, split_after: Some(0), ..Limits::default() };
    let outcome = idastar(&start, &goal, &shallow);
    assert_eq!(outcome.status, Status::Limit(npuzzle::LimitKind::Depth(20)));
    let quick = Limits {
        timeout: Some(std::time::Duration::from_millis(30)),
        threads: 3,
        split_after: Some(0),
        ..Limits::default()
    };
    let outcome = idastar(&start, &goal, &quick);
    assert!(matches!(outcome.status, Status::Limit(npuzzle::LimitKind::Time(_))), "{:?}", outcome.status);
    assert!(outcome.path.is_none());
}

#[test]
fn the_expansion_limit_bounds_the_threads_together() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let start = read_input(&Input::File(puzzle("korf100/001.txt"))).unwrap();
    for threads in [2, 3] {
        let limits =
            Limits { max_expanded: Some(100_000), threads, split_after: Some(0), ..Limits::default() };
        let outcome = idastar(&start, &goal, &limits);
        assert_eq!(outcome.status, Status::Limit(npuzzle::LimitKind::Expanded(100_000)));
        // Each thread adds its count to the total at its periodic check.
        let expanded = outcome.stats.nodes_expanded;
        assert!(
            (100_000..100_000 + 1024 * threads as u64).contains(&expanded),
            "{threads} threads: {expanded}"
        );
    }
}

#[test]
fn passes_below_the_split_threshold_run_on_one_thread() {
    // Nothing is split until a pass expands split_after nodes: with a
    // threshold no pass reaches, two threads do exactly what one does.
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let start = read_input(&Input::File(puzzle("korf100/055.txt"))).unwrap();
    let run = |threads, split_after| {
        let limits = Limits { threads, split_after, ..Limits::default() };
        solve(&start, &goal, Algorithm::IdaStar, HeuristicKind::LinearConflict, &limits, &Tables::NONE)
            .unwrap()
    };
    let alone = run(1, Some(0));
    let unsplit = run(2, Some(u64::MAX));
    assert_eq!(unsplit.stats, Stats { runtime: unsplit.stats.runtime, ..alone.stats });
    assert_eq!(unsplit.path, alone.path);
    // Split from the second pass on, the cost stays optimal.
    let split = run(2, Some(1));
    assert_optimal_path(&split, start.cells(), &goal, optimal("korf100/055.txt"), "korf100/055");
}
