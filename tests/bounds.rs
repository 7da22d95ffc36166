//! What every answer proves of itself: its lower bound never exceeds the
//! true distance, it is proven optimal only when it is shortest, and a
//! search with a bound (`--within F`, weighted, optimal) stays within it,
//! whatever the algorithm, the heuristic and the limit that stopped it.

use crate::util::{Rng, eight_puzzle_distances, pack, packed_distances};
use npuzzle::board::Shape;
use npuzzle::{
    Algorithm, Goal, GoalSpec, HeuristicKind, LimitKind, Limits, Outcome, Selection, Status, Tables, Tiles,
    Weight, solve,
};
use std::collections::HashMap;

/// Every algorithm, weighted or not, with each heuristic that is not a
/// table, stopped or not by a small expansion limit.
fn runs() -> Vec<(Algorithm, HeuristicKind, Limits)> {
    let w = |text: &str| text.parse::<Weight>().unwrap();
    let algorithms = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Greedy,
        Algorithm::Rows,
        Algorithm::WeightedAStar(w("2")),
        Algorithm::WeightedIdaStar(w("1.5")),
        Algorithm::Anytime,
    ];
    // --within F for F in {1, 1.1, 1.5, 3}: without --algo, and with each
    // algorithm that can keep a bound.
    let mut algorithms = algorithms.to_vec();
    for f in ["1", "1.1", "1.5", "3"] {
        algorithms.push(Algorithm::within(w(f)));
        for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
            algorithms.push(algorithm.bounded(w(f)).unwrap());
        }
    }
    let mut runs = Vec::new();
    for (i, algorithm) in algorithms.into_iter().enumerate() {
        // The bounded runs with one heuristic: the bound is theirs to keep.
        let heuristics: &[HeuristicKind] = if i < 9 {
            &[HeuristicKind::Manhattan, HeuristicKind::Hamming, HeuristicKind::LinearConflict]
        } else {
            &[HeuristicKind::LinearConflict]
        };
        for &heuristic in heuristics {
            for max_expanded in [None, Some(40), Some(400)] {
                // An anytime run's budget is its time: a short one here.
                let timeout = (algorithm == Algorithm::Anytime).then(|| std::time::Duration::from_millis(30));
                let limits = Limits { max_expanded, timeout, ..Limits::default() };
                runs.push((algorithm, heuristic, limits));
            }
        }
    }
    runs
}

/// Holds `outcome` of `algorithm` to the true distance of its start.
fn holds_to(algorithm: Algorithm, outcome: &Outcome, truth: u32, case: &str) {
    if let (Some(bound), Some(cost)) = (algorithm.bound(), outcome.cost()) {
        assert!(
            cost as u64 * bound.denominator() <= u64::from(truth) * bound.numerator(),
            "{case}: {cost} moves, more than {bound} times the distance {truth}"
        );
    }
    let bound = outcome.lower_bound.unwrap_or_else(|| panic!("{case}: a solvable start has a bound"));
    assert!(bound <= truth, "{case}: lower bound {bound} above the distance {truth}");
    if let Some(cost) = outcome.cost() {
        assert!(cost as u32 >= truth, "{case}: {cost} moves beat the distance {truth}");
        assert_eq!(outcome.proven_optimal(), Some(cost as u32 == bound), "{case}");
        if outcome.proven_optimal() == Some(true) {
            assert_eq!(cost as u32, truth, "{case}: proven optimal but not shortest");
        }
    } else {
        assert!(matches!(outcome.status, Status::Limit(_)), "{case}");
        assert_eq!(outcome.proven_optimal(), None, "{case}");
    }
}

#[test]
fn lower_bounds_never_exceed_the_true_distance_on_the_8_puzzle() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    // A spread of starts over every distance, a few per distance.
    let mut by_distance: HashMap<u32, Vec<&Vec<u16>>> = HashMap::new();
    for (board, &d) in truth {
        let starts = by_distance.entry(d).or_default();
        if starts.len() < 3 {
            starts.push(board);
        }
    }
    let runs = runs();
    let mut checked = 0;
    for (d, starts) in &by_distance {
        for start in starts {
            let tiles = Tiles::new(start).unwrap();
            for (algorithm, heuristic, limits) in &runs {
                let outcome = solve(&tiles, &goal, *algorithm, *heuristic, limits, &Tables::NONE).unwrap();
                holds_to(
                    *algorithm,
                    &outcome,
                    *d,
                    &format!("{algorithm:?} {heuristic:?} {limits:?} on {start:?}"),
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn lower_bounds_never_exceed_the_true_distance_on_the_2x5_rectangle() {
    let shape = Shape::new(2, 5);
    let goal = Goal::new(&GoalSpec::BlankLast, shape).unwrap();
    let truth = packed_distances(goal.tiles().cells(), 2, 5);
    let mut rng = Rng(5);
    let boards: Vec<(&u64, &u8)> = truth.iter().collect();
    // Uninformed searches of a 1.8-million-state space run with a limit only.
    let runs: Vec<_> = runs()
        .into_iter()
        .filter(|(a, _, l)| !(matches!(a, Algorithm::Bfs | Algorithm::Dfs) && l.max_expanded.is_none()))
        .collect();
    for _ in 0..15 {
        let (&key, &d) = boards[rng.below(boards.len())];
        let cells: Vec<u16> = (0..10).map(|c| ((key >> (4 * c)) & 0xF) as u16).collect();
        assert_eq!(pack(&cells), key);
        let tiles = Tiles::with_shape(shape, &cells).unwrap();
        for (algorithm, heuristic, limits) in &runs {
            let outcome = solve(&tiles, &goal, *algorithm, *heuristic, limits, &Tables::NONE).unwrap();
            let case = format!("{algorithm:?} {heuristic:?} {limits:?} on {cells:?}");
            holds_to(*algorithm, &outcome, u32::from(d), &case);
        }
    }
}

/// With pattern databases and two threads, `--within F` and anytime race
/// IDA*, which shares the bounds it proves with the bounded searches: every
/// answer still holds to the 8-puzzle's true distances, for tables in bits
/// (read through memos) and in bytes, and on one thread as well.
#[test]
fn searches_that_race_idastar_hold_to_the_true_distance_on_the_8_puzzle() {
    use npuzzle::heuristic::pdb::{PatternDatabase, Pdb, TableKind};
    use std::sync::Arc;
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let w = |text: &str| text.parse::<Weight>().unwrap();
    let algorithms: Vec<Algorithm> = ["1", "1.1", "1.5", "3"]
        .iter()
        .map(|f| Algorithm::within(w(f)))
        .chain([Algorithm::Anytime])
        .collect();
    let mut rng = Rng(11);
    let boards: Vec<(&Vec<u16>, &u32)> = truth.iter().collect();
    for kind in [TableKind::ZeroAwareBits, TableKind::ZeroAware] {
        let patterns: [&[u8]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
        let dbs = patterns.iter().map(|t| PatternDatabase::build(&goal, t, kind, &mut |_| {}).unwrap());
        let tables = Tables::from(Arc::new(Pdb::from_databases(&goal, dbs.collect()).unwrap()));
        for _ in 0..40 {
            let (start, &d) = boards[rng.below(boards.len())];
            let tiles = Tiles::new(start).unwrap();
            for algorithm in &algorithms {
                for threads in [1, 2] {
                    let timeout =
                        (*algorithm == Algorithm::Anytime).then(|| std::time::Duration::from_millis(30));
                    let limits = Limits { threads, timeout, ..Limits::default() };
                    let outcome =
                        solve(&tiles, &goal, *algorithm, HeuristicKind::Pdb, &limits, &tables).unwrap();
                    let case = format!("{algorithm:?} on {threads} threads, {kind:?}, on {start:?}");
                    assert_eq!(outcome.status, Status::Solved, "{case}");
                    holds_to(*algorithm, &outcome, d, &case);
                }
            }
        }
    }
}

/// `--within` with tables and two threads holds to a depth limit as every
/// search does: no answer deeper than it, and the limit is why.
#[test]
fn within_under_a_depth_limit_gives_no_deeper_answer_and_says_why() {
    use npuzzle::heuristic::pdb::{PatternDatabase, Pdb, TableKind};
    use std::sync::Arc;
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let patterns: [&[u8]; 2] = [&[1, 2, 3, 4], &[5, 6, 7, 8]];
    let dbs =
        patterns.iter().map(|t| PatternDatabase::build(&goal, t, TableKind::ZeroAware, &mut |_| {}).unwrap());
    let tables = Tables::from(Arc::new(Pdb::from_databases(&goal, dbs.collect()).unwrap()));
    // 31 moves from the goal, searched no deeper than 6.
    let start = Tiles::new(&[8, 0, 6, 5, 4, 7, 2, 3, 1]).unwrap();
    let limits = Limits { threads: 2, max_depth: Some(6), ..Limits::default() };
    let within = Algorithm::within("1.1".parse().unwrap());
    let outcome = solve(&start, &goal, within, HeuristicKind::Pdb, &limits, &tables).unwrap();
    assert_eq!((outcome.status, outcome.path), (Status::Limit(LimitKind::Depth(6)), None));
    assert!(outcome.lower_bound.unwrap() <= 31);
}

/// A ceiling (an answer in hand) leaves a bounded search only the answers
/// that cost no more than it, and a search that finds none has proven that
/// none exists: its lower bound passes the ceiling.
#[test]
fn a_bounded_search_under_a_ceiling_finds_only_answers_within_it_or_proves_there_are_none() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut by_distance: HashMap<u32, usize> = HashMap::new();
    let mut checked = 0;
    for (start, &d) in truth {
        let seen = by_distance.entry(d).or_default();
        if d < 2 || *seen == 4 {
            continue;
        }
        *seen += 1;
        let tiles = Tiles::new(start).unwrap();
        for (bound, selection) in
            [("1.5", Selection::Potential), ("3", Selection::Potential), ("3", Selection::Nearest)]
        {
            let algorithm = Algorithm::Bounded { bound: bound.parse().unwrap(), selection };
            for ceiling in [d - 2, d - 1, d, d + 2] {
                let limits = Limits { ceiling: Some(ceiling), ..Limits::default() };
                let outcome =
                    solve(&tiles, &goal, algorithm, HeuristicKind::Manhattan, &limits, &Tables::NONE)
                        .unwrap();
                let case = format!("{start:?} at {d}, bound {bound} {selection:?}, ceiling {ceiling}");
                holds_to(algorithm, &outcome, d, &case);
                if ceiling < d {
                    assert_eq!(outcome.status, Status::Limit(LimitKind::Cost(ceiling)), "{case}");
                    assert!(outcome.lower_bound.unwrap() > ceiling, "{case}");
                } else {
                    assert!(outcome.cost().unwrap() as u32 <= ceiling, "{case}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn an_unsolvable_start_has_no_bound_and_a_solved_optimal_run_proves_itself() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let unsolvable = Tiles::new(&[0, 2, 1, 3, 4, 5, 6, 7, 8]).unwrap();
    let outcome = solve(
        &unsolvable,
        &goal,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
        &Limits::default(),
        &Tables::NONE,
    )
    .unwrap();
    assert_eq!(
        (outcome.status, outcome.lower_bound, outcome.proven_optimal()),
        (Status::Unsolvable, None, None)
    );
    let start = Tiles::new(&[8, 0, 6, 5, 4, 7, 2, 3, 1]).unwrap();
    for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
        let outcome =
            solve(&start, &goal, algorithm, HeuristicKind::Manhattan, &Limits::default(), &Tables::NONE)
                .unwrap();
        assert_eq!(
            (outcome.cost(), outcome.lower_bound, outcome.proven_optimal()),
            (Some(31), Some(31), Some(true))
        );
    }
}

#[test]
fn anytime_answers_every_board_with_a_path_that_replays_whatever_its_budget() {
    // Boards in regular files: a read that cannot block is not timed, so
    // even a budget spent before the search starts leaves an answer.
    let dir = tempfile::tempdir().unwrap();
    for size in ["2", "3", "4", "5", "7", "10", "30", "100", "3x5", "2x7", "8x3"] {
        let board =
            crate::util::npuzzle().args(["generate", "--size", size, "--seed", "9"]).output().unwrap().stdout;
        let file = dir.path().join(format!("{size}.txt"));
        std::fs::write(&file, board).unwrap();
        for timeout in ["0.001", "0.2"] {
            let out = crate::util::npuzzle()
                .args(["solve", "--algo", "anytime", "--timeout", timeout, "--format", "json"])
                .arg(&file)
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{size} in {timeout} s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let (width, height) =
                (v["width"].as_u64().unwrap() as usize, v["height"].as_u64().unwrap() as usize);
            let start: Vec<u16> =
                v["start"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as u16).collect();
            let moves: Vec<&str> =
                v["path"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
            let end = crate::util::play_on(&start, width, height, &moves);
            let goal: Vec<u16> =
                v["goal"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap() as u16).collect();
            assert_eq!(end, goal, "{size} in {timeout} s");
            let (cost, bound) = (v["cost"].as_u64().unwrap(), v["lower_bound"].as_u64().unwrap());
            assert!(bound <= cost && !v["improvements"].as_array().unwrap().is_empty(), "{size}");
        }
    }
}
