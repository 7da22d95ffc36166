//! The exact textbook semantics of the figures, pinned on known instances.

use npuzzle::{Algorithm, Goal, GoalSpec, HeuristicKind, Limits, Outcome, Status, Tables, Tiles, solve};

fn run(cells: &[u16], algorithm: Algorithm, heuristic: HeuristicKind) -> Outcome {
    let start = Tiles::new(cells).unwrap();
    let goal = Goal::new(&GoalSpec::BlankFirst, start.width()).unwrap();
    solve(&start, &goal, algorithm, heuristic, &Limits::default(), &Tables::NONE).unwrap()
}

const COURSE_EXAMPLE: [u16; 9] = [1, 2, 5, 3, 4, 0, 6, 7, 8];

#[test]
fn bfs_on_the_course_example_costs_3_expands_10_and_reaches_depth_4() {
    let o = run(&COURSE_EXAMPLE, Algorithm::Bfs, HeuristicKind::Zero);
    assert_eq!(o.status, Status::Solved);
    assert_eq!(o.cost(), Some(3));
    assert_eq!(o.stats.nodes_expanded, 10);
    assert_eq!(o.stats.max_depth, 4);
}

#[test]
fn dfs_on_the_course_example_costs_3_expands_181437_and_reaches_depth_66125() {
    let o = run(&COURSE_EXAMPLE, Algorithm::Dfs, HeuristicKind::Zero);
    assert_eq!(o.status, Status::Solved);
    assert_eq!(o.cost(), Some(3));
    assert_eq!(o.stats.nodes_expanded, 181_437);
    assert_eq!(o.stats.max_depth, 66_125);
}

#[test]
fn dfs_expands_up_first() {
    // One move Up from the goal: DFS tries Up first and finds it immediately.
    let o = run(&[3, 1, 2, 0, 4, 5, 6, 7, 8], Algorithm::Dfs, HeuristicKind::Zero);
    assert_eq!(o.path.as_deref().map(<[_]>::len), Some(1));
    assert_eq!(o.stats.nodes_expanded, 1);
}

#[test]
fn the_goal_node_is_not_counted_as_expanded() {
    for algorithm in Algorithm::ALL {
        let o = run(&[0, 1, 2, 3, 4, 5, 6, 7, 8], algorithm, HeuristicKind::Manhattan);
        assert_eq!(o.cost(), Some(0), "{algorithm}");
        assert_eq!(o.stats.nodes_expanded, 0, "{algorithm}");
        assert_eq!(o.stats.nodes_generated, 0, "{algorithm}");
        assert_eq!(o.stats.max_frontier, 1, "{algorithm}");
        assert_eq!(o.stats.max_depth, 0, "{algorithm}");
    }
}

#[test]
fn astar_with_a_perfectly_informed_start_expands_only_the_path() {
    // Manhattan is exact along this path, and ties go to the deeper node.
    let o = run(&COURSE_EXAMPLE, Algorithm::AStar, HeuristicKind::Manhattan);
    assert_eq!(o.cost(), Some(3));
    assert_eq!(o.stats.nodes_expanded, 3);
}

#[test]
fn uniform_cost_search_matches_bfs_cost_and_never_expands_fewer_than_manhattan() {
    let start = [8, 0, 6, 5, 4, 7, 2, 3, 1];
    let ucs = run(&start, Algorithm::AStar, HeuristicKind::Zero);
    let bfs = run(&start, Algorithm::Bfs, HeuristicKind::Zero);
    let manhattan = run(&start, Algorithm::AStar, HeuristicKind::Manhattan);
    assert_eq!(ucs.cost(), Some(31));
    assert_eq!(bfs.cost(), Some(31));
    assert_eq!(manhattan.cost(), Some(31));
    assert!(manhattan.stats.nodes_expanded < ucs.stats.nodes_expanded);
}

#[test]
fn bfs_over_the_whole_space_stores_every_reachable_state_once() {
    // The hardest 8-puzzle: BFS must see nearly all 181,440 states.
    let o = run(&[8, 0, 6, 5, 4, 7, 2, 3, 1], Algorithm::Bfs, HeuristicKind::Zero);
    assert_eq!(o.cost(), Some(31));
    assert!(o.stats.stored <= 181_440);
    assert!(o.stats.nodes_expanded < 181_440);
    assert!(o.stats.nodes_expanded > 181_000);
}

#[test]
fn figures_are_consistent_with_each_other() {
    for algorithm in Algorithm::ALL {
        for heuristic in HeuristicKind::ALL {
            let o = run(&[7, 2, 4, 5, 0, 6, 8, 3, 1], algorithm, heuristic);
            let s = o.stats;
            let cost = o.cost().unwrap() as u32;
            assert!(s.nodes_generated >= s.nodes_expanded, "{algorithm}/{heuristic}");
            assert!(s.nodes_generated <= 4 * s.nodes_expanded, "{algorithm}/{heuristic}");
            assert!(s.max_depth >= cost, "{algorithm}/{heuristic}: the goal was in the frontier");
            assert!(s.max_frontier >= 1 && s.stored >= s.max_frontier, "{algorithm}/{heuristic}");
        }
    }
}

#[test]
fn a_node_limit_counts_stored_states() {
    let start = Tiles::new(&[8, 0, 6, 5, 4, 7, 2, 3, 1]).unwrap();
    let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
    let limits = Limits { max_nodes: Some(1000), ..Limits::default() };
    for algorithm in [Algorithm::Bfs, Algorithm::Dfs, Algorithm::AStar] {
        let o = solve(&start, &goal, algorithm, HeuristicKind::Zero, &limits, &Tables::NONE).unwrap();
        assert_eq!(o.status, Status::Limit(npuzzle::LimitKind::Nodes(1000)), "{algorithm}");
        assert_eq!(o.stats.stored, 1000, "{algorithm}");
        assert!(o.path.is_none());
    }
}

#[test]
fn idastar_stores_only_its_path() {
    let o = run(&[8, 0, 6, 5, 4, 7, 2, 3, 1], Algorithm::IdaStar, HeuristicKind::Manhattan);
    assert_eq!(o.cost(), Some(31));
    assert_eq!(o.stats.stored, u64::from(o.stats.max_depth) + 1);
    assert_eq!(o.stats.max_frontier, o.stats.stored);
    assert!(o.stats.max_depth <= 31 + 2, "never deeper than the last bound allows");
}
