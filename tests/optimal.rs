//! Optimal solving: IDA*, fringe search and linear conflict against ground truth.

use crate::util::{Rng, all_distances, eight_puzzle_distances, neighbours, optimal, play, puzzle};
use npuzzle::{
    Algorithm, Board, Goal, GoalSpec, Heuristic, HeuristicKind, Input, Limits, LinearConflict, Packed,
    Status, Tables, read_input, solve,
};

fn assert_optimal(start: &[u16], goal: &Goal, distance: u32, algorithm: Algorithm, heuristic: HeuristicKind) {
    let tiles = npuzzle::Tiles::new(start).unwrap();
    let outcome = solve(&tiles, goal, algorithm, heuristic, &Limits::default(), &Tables::NONE).unwrap();
    let label = format!("{algorithm}/{heuristic} on {start:?}");
    assert_eq!(outcome.status, Status::Solved, "{label}");
    let path = outcome.path.unwrap();
    assert_eq!(path.len() as u32, distance, "{label}");
    let names: Vec<&str> = path.iter().map(|m| m.name()).collect();
    assert_eq!(play(start, goal.width(), &names), goal.tiles().cells(), "{label}: replays to the goal");
}

#[test]
fn idastar_and_fringe_search_with_every_admissible_heuristic_find_the_true_cost_of_random_8_puzzles() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let mut rng = Rng(1985);
    let mut checked = 0;
    while checked < 150 {
        let start = rng.shuffle(9);
        let Some(&distance) = truth.get(&start) else { continue };
        checked += 1;
        for heuristic in HeuristicKind::ALL {
            if heuristic == HeuristicKind::Zero && distance > 20 {
                continue; // iterative deepening without guidance: 3^20 nodes
            }
            assert_optimal(&start, &goal, distance, Algorithm::IdaStar, heuristic);
            assert_optimal(&start, &goal, distance, Algorithm::Fringe, heuristic);
        }
        assert_optimal(&start, &goal, distance, Algorithm::AStar, HeuristicKind::LinearConflict);
    }
}

#[test]
fn idastar_and_fringe_search_solve_the_easier_korf_instances_optimally() {
    for number in [55, 42, 79, 97] {
        let file = format!("korf100/{number:03}.txt");
        let tiles = read_input(&Input::File(puzzle(&file))).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
        for heuristic in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
            assert_optimal(tiles.cells(), &goal, optimal(&file), Algorithm::IdaStar, heuristic);
            assert_optimal(tiles.cells(), &goal, optimal(&file), Algorithm::Fringe, heuristic);
        }
        assert_optimal(tiles.cells(), &goal, optimal(&file), Algorithm::AStar, HeuristicKind::LinearConflict);
    }
}

#[test]
fn idastar_and_fringe_search_are_optimal_towards_the_other_goals() {
    let mut rng = Rng(7);
    for spec in [GoalSpec::BlankLast, GoalSpec::Snail] {
        let goal = Goal::new(&spec, 3).unwrap();
        let truth = all_distances(goal.tiles().cells(), 3);
        for _ in 0..30 {
            let start = rng.shuffle(9);
            if let Some(&distance) = truth.get(&start) {
                assert_optimal(&start, &goal, distance, Algorithm::IdaStar, HeuristicKind::LinearConflict);
                assert_optimal(&start, &goal, distance, Algorithm::IdaStar, HeuristicKind::Manhattan);
                assert_optimal(&start, &goal, distance, Algorithm::Fringe, HeuristicKind::LinearConflict);
            }
        }
    }
}

#[test]
fn idastar_and_fringe_search_on_wider_boards_match_breadth_first_search() {
    // Boards from 5×5 up use the byte-per-cell encoding and shorter
    // duplicate-path rules (10 and 8 moves: walks of 12 go past them);
    // breadth-first search is the ground truth.
    let mut rng = Rng(2024);
    for width in [5, 6, 8] {
        let goal = Goal::new(&GoalSpec::BlankFirst, width).unwrap();
        for _ in 0..4 {
            let start = rng.walk(goal.tiles().cells(), width, 12);
            let tiles = npuzzle::Tiles::new(&start).unwrap();
            let bfs =
                solve(&tiles, &goal, Algorithm::Bfs, HeuristicKind::Zero, &Limits::default(), &Tables::NONE);
            let distance = bfs.unwrap().cost().expect("a 12-move walk is solved by BFS") as u32;
            for heuristic in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
                assert_optimal(&start, &goal, distance, Algorithm::IdaStar, heuristic);
                assert_optimal(&start, &goal, distance, Algorithm::Fringe, heuristic);
            }
        }
    }
}

#[test]
fn linear_conflict_never_exceeds_the_true_distance_of_any_8_puzzle() {
    for spec in [GoalSpec::BlankFirst, GoalSpec::Snail] {
        let goal = Goal::new(&spec, 3).unwrap();
        let lc = LinearConflict::new(&goal);
        let manhattan = npuzzle::Manhattan::new(&goal);
        let truth = all_distances(goal.tiles().cells(), 3);
        assert_eq!(truth.len(), 181_440);
        let mut stronger = 0;
        for (board, &distance) in &truth {
            let b = Packed::from_tiles(board);
            let h = lc.estimate(&b);
            assert!(h <= distance, "{spec:?} {board:?}: {h} > {distance}");
            assert_eq!(h % 2, distance % 2, "same parity as the true distance");
            let m = manhattan.estimate(&b);
            assert!(h >= m);
            stronger += usize::from(h > m);
        }
        assert!(stronger > 50_000, "conflicts are common: {stronger}");
    }
}

#[test]
fn linear_conflict_changes_by_exactly_one_per_move_on_every_8_puzzle_edge() {
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let lc = LinearConflict::new(&goal);
    for board in eight_puzzle_distances().keys() {
        let b = Packed::from_tiles(board);
        let h = lc.estimate(&b);
        let blank = b.blank();
        for from in neighbours(blank, 3) {
            let child = b.slide(blank, from);
            let fresh = lc.estimate(&child);
            assert_eq!(fresh.abs_diff(h), 1, "consistent: {board:?}");
            assert_eq!(lc.update(&child, h, b.tile(from), from, blank), fresh, "incremental: {board:?}");
        }
    }
}

#[test]
fn linear_conflict_never_exceeds_the_true_distance_of_random_15_puzzles() {
    let goal: Vec<u16> = (0..16).collect();
    let goal_board = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let lc = LinearConflict::new(&goal_board);
    let mut rng = Rng(16);
    // Random walks solved by IDA* with Manhattan (optimal, tested above) give the truth.
    for _ in 0..60 {
        let steps = 20 + rng.below(40);
        let start = rng.walk(&goal, 4, steps);
        let tiles = npuzzle::Tiles::new(&start).unwrap();
        let o = solve(
            &tiles,
            &goal_board,
            Algorithm::IdaStar,
            HeuristicKind::Manhattan,
            &Limits::default(),
            &Tables::NONE,
        )
        .unwrap();
        let distance = o.cost().unwrap() as u32;
        assert!(lc.estimate(&Packed::from_tiles(&start)) <= distance, "{start:?}");
    }
}

#[test]
fn idastar_with_a_depth_limit_one_below_the_optimum_proves_there_is_no_shorter_path() {
    // Korf #2 (55 moves) with Manhattan: nodes whose g + h exceeds the limit
    // are cut by depth, so the search ends instead of deepening forever.
    let tiles = read_input(&Input::File(puzzle("korf100/002.txt"))).unwrap();
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let run = |depth| {
        let limits = Limits { max_depth: Some(depth), ..Limits::default() };
        solve(&tiles, &goal, Algorithm::IdaStar, HeuristicKind::Manhattan, &limits, &Tables::NONE).unwrap()
    };
    assert_eq!(run(54).status, Status::Limit(npuzzle::LimitKind::Depth(54)));
    assert_eq!(run(55).cost(), Some(55));
    let hopeless = run(30);
    assert_eq!(hopeless.status, Status::Limit(npuzzle::LimitKind::Depth(30)));
    assert!(hopeless.stats.nodes_expanded <= 1, "h(start) alone exceeds 30: {:?}", hopeless.stats);
}

#[test]
fn idastar_reports_limits_like_every_search() {
    let tiles = read_input(&Input::File(puzzle("korf100/001.txt"))).unwrap();
    let goal = Goal::new(&GoalSpec::BlankFirst, 4).unwrap();
    let shallow = Limits { max_depth: Some(20), ..Limits::default() };
    let o =
        solve(&tiles, &goal, Algorithm::IdaStar, HeuristicKind::Manhattan, &shallow, &Tables::NONE).unwrap();
    assert_eq!(o.status, Status::Limit(npuzzle::LimitKind::Depth(20)));
    assert!(o.stats.max_depth <= 20);
    let quick = Limits { timeout: Some(std::time::Duration::from_millis(30)), ..Limits::default() };
    let o = solve(&tiles, &goal, Algorithm::IdaStar, HeuristicKind::Zero, &quick, &Tables::NONE).unwrap();
    assert!(matches!(o.status, Status::Limit(npuzzle::LimitKind::Time(_))));
    assert!(o.stats.nodes_expanded > 0 && o.path.is_none());
}

/// The true distance on some boards, zero on the others: admissible and as
/// inconsistent as can be (one move can change it by 30).
struct Flaky(&'static std::collections::HashMap<Vec<u16>, u32>);

impl Heuristic<Packed> for Flaky {
    const CONSISTENT: bool = false;
    type Memo = ();
    type Pending = ();
    fn estimate(&self, board: &Packed) -> u32 {
        if board.bits().count_ones().is_multiple_of(2) { 0 } else { self.0[&board.to_tiles(9)] }
    }
}

#[test]
fn astar_reopens_boards_and_stays_optimal_with_an_inconsistent_heuristic() {
    let truth = eight_puzzle_distances();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let flaky = Flaky(truth);
    let mut rng = Rng(404);
    let mut checked = 0;
    while checked < 60 {
        let start = rng.shuffle(9);
        let Some(&distance) = truth.get(&start) else { continue };
        checked += 1;
        let o = npuzzle::astar(&Packed::from_tiles(&start), &goal, &flaky, &Limits::default());
        assert_eq!(o.cost(), Some(distance as usize), "{start:?}");
        let names: Vec<&str> = o.path.unwrap().iter().map(|m| m.name()).collect();
        assert_eq!(play(&start, 3, &names), goal.tiles().cells());
        let o = npuzzle::idastar(&Packed::from_tiles(&start), &goal, &flaky, &Limits::default());
        assert_eq!(o.cost(), Some(distance as usize), "IDA* {start:?}");
    }
}
