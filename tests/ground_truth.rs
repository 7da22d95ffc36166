//! Optimal costs against an exhaustive BFS that shares no code with the
//! solver, and every returned path replayed move by move.

use crate::util::{Rng, all_distances, eight_puzzle_distances, play};
use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Outcome, Status, Tables, Tiles, solve};
use std::collections::HashMap;

fn check(
    start: &[u16],
    goal: &Goal,
    truth: Option<u32>,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
) -> Outcome {
    let tiles = Tiles::new(start).unwrap();
    let outcome = solve(&tiles, goal, algorithm, heuristic, &Limits::default(), &Tables::NONE).unwrap();
    let label = format!("{algorithm}/{heuristic} on {start:?}");
    match truth {
        None => assert_eq!(outcome.status, Status::Unsolvable, "{label}"),
        Some(distance) => {
            assert_eq!(outcome.status, Status::Solved, "{label}");
            let path = outcome.path.as_ref().unwrap();
            let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
            assert_eq!(
                play(start, goal.width(), &names),
                goal.tiles().cells(),
                "{label}: path replays to the goal"
            );
            if algorithm != Algorithm::Dfs {
                assert_eq!(path.len() as u32, distance, "{label}: optimal cost");
            }
        }
    }
    outcome
}

#[test]
fn bfs_and_astar_with_every_heuristic_find_the_true_cost_of_random_8_puzzles() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(8);
    let mut checked = 0;
    while checked < 300 {
        let start = rng.shuffle(9);
        let distance = truth.get(&start).copied();
        check(&start, &goal, distance, Algorithm::Bfs, HeuristicKind::Zero);
        for heuristic in HeuristicKind::ALL {
            check(&start, &goal, distance, Algorithm::AStar, heuristic);
        }
        checked += usize::from(distance.is_some());
    }
}

#[test]
fn a_31_move_8_puzzle_costs_31_with_every_admissible_heuristic() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    for start in [[8, 0, 6, 5, 4, 7, 2, 3, 1], [8, 7, 6, 0, 4, 1, 2, 5, 3]] {
        for heuristic in HeuristicKind::ALL {
            check(&start, &goal, Some(31), Algorithm::AStar, heuristic);
        }
    }
}

#[test]
fn dfs_paths_replay_from_start_to_goal() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(31);
    for _ in 0..40 {
        let start = rng.walk(&(0..9).collect::<Vec<u16>>(), 3, 40);
        check(&start, &goal, truth.get(&start).copied(), Algorithm::Dfs, HeuristicKind::Zero);
    }
}

#[test]
fn depth_limited_dfs_paths_on_random_walk_15_puzzles_replay() {
    // Unlimited DFS would wander the 10^13 states of the 15-puzzle; a depth
    // limit a little past the true distance makes it find a path, which
    // must replay and respect the limit.
    let truth = fifteen_puzzle_ball(10);
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let mut rng = Rng(1515);
    let mut solved = 0;
    for _ in 0..30 {
        let steps = 4 + rng.below(7);
        let start = rng.walk(goal.tiles().cells(), 4, steps);
        let distance = truth[&start];
        let limit = distance + 2;
        let limits = Limits { max_depth: Some(limit), max_nodes: Some(2_000_000), ..Limits::default() };
        let tiles = Tiles::new(&start).unwrap();
        let outcome =
            solve(&tiles, &goal, Algorithm::Dfs, HeuristicKind::Zero, &limits, &Tables::NONE).unwrap();
        if let Some(path) = &outcome.path {
            solved += 1;
            assert!(path.len() as u32 <= limit && path.len() as u32 >= distance, "{start:?}: {}", path.len());
            let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
            assert_eq!(play(&start, 4, &names), goal.tiles().cells(), "{start:?}: replays");
        } else {
            // Graph DFS may close a board first met deep and so miss a
            // shallow path; it must then say so, never claim unsolvable.
            assert!(matches!(outcome.status, Status::Limit(_)), "{start:?}: {:?}", outcome.status);
        }
    }
    assert!(solved >= 20, "most walks are found: {solved}");
}

#[test]
fn every_2x2_board_gets_its_true_cost_or_unsolvable() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 2).unwrap();
    let truth = all_distances(goal.tiles().cells(), 2);
    assert_eq!(truth.len(), 12);
    let boards = crate::util::permutations(4);
    for start in &boards {
        for algorithm in Algorithm::ALL {
            check(start, &goal, truth.get(start).copied(), algorithm, HeuristicKind::Manhattan);
        }
        for heuristic in HeuristicKind::ALL {
            check(start, &goal, truth.get(start).copied(), Algorithm::AStar, heuristic);
        }
    }
    assert_eq!(boards.len(), 24);
}

/// True distances of every 15-puzzle within `depth` moves of the goal.
fn fifteen_puzzle_ball(depth: u32) -> HashMap<Vec<u16>, u32> {
    let goal: Vec<u16> = (0..16).collect();
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut layer = vec![goal];
    for d in 1..=depth {
        let mut next = Vec::new();
        for board in &layer {
            let blank = board.iter().position(|&t| t == 0).unwrap();
            for n in crate::util::neighbours(blank, 4) {
                let mut child = board.clone();
                child.swap(blank, n);
                if !dist.contains_key(&child) {
                    dist.insert(child.clone(), d);
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    dist
}

#[test]
fn random_walk_15_puzzles_get_their_true_cost() {
    let truth = fifteen_puzzle_ball(16);
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let mut rng = Rng(15);
    let mut tried = 0;
    let mut deep = 0;
    while tried < 60 {
        let steps = 14 + rng.below(10);
        let start = rng.walk(goal.tiles().cells(), 4, steps);
        let Some(&distance) = truth.get(&start) else {
            continue;
        };
        tried += 1;
        deep += usize::from(distance >= 12);
        check(&start, &goal, Some(distance), Algorithm::Bfs, HeuristicKind::Zero);
        for heuristic in HeuristicKind::ALL {
            check(&start, &goal, Some(distance), Algorithm::AStar, heuristic);
        }
    }
    assert!(deep > 10, "the sample reaches well into the ball");
}

#[test]
fn astar_is_optimal_towards_every_named_goal() {
    let mut rng = Rng(99);
    for spec in [GoalSpec::BlankLast, GoalSpec::Snail] {
        let goal = Goal::new(&spec, 3).unwrap();
        let truth = all_distances(goal.tiles().cells(), 3);
        for _ in 0..40 {
            let start = rng.shuffle(9);
            let distance = truth.get(&start).copied();
            check(&start, &goal, distance, Algorithm::Bfs, HeuristicKind::Zero);
            for heuristic in HeuristicKind::ALL {
                check(&start, &goal, distance, Algorithm::AStar, heuristic);
            }
        }
    }
}

#[test]
fn example_puzzles_are_solved_at_their_recorded_optimum() {
    for file in [
        "2x2/hardest-6.txt",
        "3x3/solved-0.txt",
        "3x3/easy-3.txt",
        "3x3/easy-8.txt",
        "3x3/medium-14.txt",
        "3x3/medium-20.txt",
        "3x3/hard-26.txt",
        "3x3/hardest-31a.txt",
        "3x3/hardest-31b.txt",
        "4x4/moves-10.txt",
        "4x4/moves-20.txt",
        "4x4/moves-30.txt",
        "5x5/moves-8.txt",
        "7x7/moves-6.txt",
        "8x8/moves-6.txt",
    ] {
        let tiles = npuzzle::read_input(&npuzzle::Input::File(crate::util::puzzle(file))).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, tiles.width()).unwrap();
        let o = solve(
            &tiles,
            &goal,
            Algorithm::AStar,
            HeuristicKind::Manhattan,
            &Limits::default(),
            &Tables::NONE,
        )
        .unwrap();
        assert_eq!(o.cost(), Some(crate::util::optimal(file) as usize), "{file}");
        if tiles.width() == 3 {
            let truth = eight_puzzle_distances()[tiles.cells()];
            assert_eq!(truth, crate::util::optimal(file), "{file}: recorded optimum is the true distance");
        }
    }
}

/// Solves `start` and replays the path; returns its cost.
fn replayed_cost(start: &[u16], goal: &Goal, algorithm: Algorithm, heuristic: HeuristicKind) -> usize {
    let tiles = Tiles::new(start).unwrap();
    let outcome = solve(&tiles, goal, algorithm, heuristic, &Limits::default(), &Tables::NONE).unwrap();
    assert_eq!(outcome.status, Status::Solved, "{algorithm:?}/{heuristic} on {start:?}");
    let path = outcome.path.unwrap();
    let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
    assert_eq!(play(start, goal.width(), &names), goal.tiles().cells(), "{algorithm:?}: path replays");
    path.len()
}

#[test]
fn weighted_search_never_exceeds_w_times_the_optimum_of_random_8_puzzles() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(15);
    let mut above_optimal = 0;
    for w in ["1.5", "2", "3"] {
        let weight: npuzzle::Weight = w.parse().unwrap();
        let mut checked = 0;
        while checked < 150 {
            let start = rng.shuffle(9);
            let Some(&distance) = truth.get(&start) else { continue };
            checked += 1;
            for heuristic in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict, HeuristicKind::Hamming]
            {
                for algorithm in [Algorithm::WeightedAStar(weight), Algorithm::WeightedIdaStar(weight)] {
                    let cost = replayed_cost(&start, &goal, algorithm, heuristic);
                    assert!(
                        cost as f64 <= weight.value() * f64::from(distance),
                        "{algorithm:?}/{heuristic} {start:?}"
                    );
                    above_optimal += usize::from(cost > distance as usize);
                }
            }
        }
    }
    // Not a vacuous bound: the weights do trade length for speed.
    assert!(above_optimal > 100, "{above_optimal} paths longer than optimal");
}

/// Greedy and weighted search hand back their path shortened: never longer
/// than the one the search found (whose length is the reported depth),
/// never shorter than the optimum, and with shortening off exactly the
/// path the library's search function returns.
#[test]
fn greedy_and_weighted_paths_are_shortened_and_can_be_left_as_found() {
    use npuzzle::{Board, Manhattan, Packed, Prepared, Weight, greedy, weighted_astar, weighted_idastar};
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let manhattan = Manhattan::new(&goal);
    let limits = Limits::default();
    let w = Weight::ratio(2, 1);
    let mut rng = Rng(17);
    let mut cut = HashMap::new();
    let mut checked = 0;
    while checked < 150 {
        let start = rng.shuffle(9);
        let Some(&distance) = truth.get(&start) else { continue };
        checked += 1;
        let tiles = Tiles::new(&start).unwrap();
        let board = Packed::from_tiles(&start);
        for algorithm in [Algorithm::Greedy, Algorithm::WeightedAStar(w), Algorithm::WeightedIdaStar(w)] {
            let prepared = Prepared::new(goal.clone(), algorithm, HeuristicKind::Manhattan);
            let found = prepared.clone().shortening(false).solve(&tiles, &limits, &Tables::NONE).unwrap();
            let direct = match algorithm {
                Algorithm::Greedy => greedy(&board, &goal, &manhattan, &limits),
                Algorithm::WeightedAStar(_) => weighted_astar(&board, &goal, &manhattan, w, &limits),
                _ => weighted_idastar(&board, &goal, &manhattan, w, &limits),
            };
            assert_eq!(found.path, direct.path, "{algorithm:?} {start:?}: the search's own path");
            assert_eq!(found.depth(), found.cost());

            let shortened = prepared.solve(&tiles, &limits, &Tables::NONE).unwrap();
            let path = shortened.path.as_ref().unwrap();
            let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
            assert_eq!(play(&start, 3, &names), goal.tiles().cells(), "{algorithm:?} {start:?}: replays");
            let (cost, depth) = (shortened.cost().unwrap(), shortened.depth().unwrap());
            assert_eq!(
                depth,
                found.cost().unwrap(),
                "{algorithm:?} {start:?}: the depth is the found path's"
            );
            assert!(distance as usize <= cost && cost <= depth, "{algorithm:?} {start:?}");
            assert_eq!(
                shortened.stats.nodes_expanded, found.stats.nodes_expanded,
                "the search's nodes alone"
            );
            *cut.entry(algorithm.name()).or_insert(0) += depth - cost;
        }
    }
    // Not vacuous: each of them had paths cut.
    for name in ["greedy", "astar", "idastar"] {
        assert!(cut.get(name).is_some_and(|&moves| moves > 0), "{name}: {cut:?}");
    }
}

#[test]
fn greedy_paths_replay_and_take_fewer_nodes_than_astar() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(16);
    let (mut greedy_nodes, mut astar_nodes) = (0, 0);
    for _ in 0..200 {
        let start = rng.shuffle(9);
        if !truth.contains_key(&start) {
            continue;
        }
        replayed_cost(&start, &goal, Algorithm::Greedy, HeuristicKind::Manhattan);
        let tiles = Tiles::new(&start).unwrap();
        let run =
            |a| solve(&tiles, &goal, a, HeuristicKind::Manhattan, &Limits::default(), &Tables::NONE).unwrap();
        greedy_nodes += run(Algorithm::Greedy).stats.nodes_expanded;
        astar_nodes += run(Algorithm::AStar).stats.nodes_expanded;
    }
    assert!(greedy_nodes * 2 < astar_nodes, "greedy {greedy_nodes} against A* {astar_nodes}");
}
