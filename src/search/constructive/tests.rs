/*!
The constructive solver held to its goals on every shape and goal, and its
last-two-tiles window to every arrangement.
*/

mod support {
    use crate::board::{Move, Shape, SplitMix64};

    /// Plays `path` from `start`, independently of the solver's own replay.
    pub(super) fn replay(start: &[u16], shape: Shape, path: &[Move]) -> Vec<u16> {
        let mut board = start.to_vec();
        let mut blank = board.iter().position(|&t| t == 0).unwrap();
        for (i, &mv) in path.iter().enumerate() {
            let to = shape.neighbour(blank, mv).unwrap_or_else(|| panic!("move {i} ({mv}) leaves the board"));
            board.swap(blank, to);
            blank = to;
        }
        board
    }

    pub(super) fn blank_first(shape: Shape) -> Vec<u16> {
        (0..shape.cells()).map(|t| t as u16).collect()
    }

    pub(super) fn blank_last(shape: Shape) -> Vec<u16> {
        (1..shape.cells()).map(|t| t as u16).chain([0]).collect()
    }

    /// 1, 2, 3… clockwise from the top-left, the blank where the spiral
    /// ends: a walker that turns right at the edge or at a numbered cell
    /// (built independently of the crate's snail, which a test compares).
    pub(super) fn snail(shape: Shape) -> Vec<u16> {
        let turns = [Move::Right, Move::Down, Move::Left, Move::Up];
        let mut layout = vec![0u16; shape.cells()];
        let (mut cell, mut heading) = (0, 0);
        for number in 1..shape.cells() {
            layout[cell] = number as u16;
            let ahead = |heading: usize| shape.neighbour(cell, turns[heading]).filter(|&c| layout[c] == 0);
            if ahead(heading).is_none() {
                heading = (heading + 1) % 4;
            }
            cell = ahead(heading).expect("a spiral turns once at a time");
        }
        layout
    }

    pub(super) fn shuffled(shape: Shape, rng: &mut SplitMix64) -> Vec<u16> {
        let mut board: Vec<u16> = (0..shape.cells()).map(|t| t as u16).collect();
        for i in (1..board.len()).rev() {
            board.swap(i, rng.below(i + 1));
        }
        board
    }

    /// The parity rule of [`Goal::parity`], for `u16` tiles.
    pub(super) fn solvable(start: &[u16], goal: &[u16], shape: Shape) -> bool {
        let mut goal_cell = vec![0; goal.len()];
        for (cell, &tile) in goal.iter().enumerate() {
            goal_cell[usize::from(tile)] = cell;
        }
        let mut seen = vec![false; start.len()];
        let mut cycles = 0;
        for first in 0..start.len() {
            if !seen[first] {
                cycles += 1;
                let mut cell = first;
                while !seen[cell] {
                    seen[cell] = true;
                    cell = goal_cell[usize::from(start[cell])];
                }
            }
        }
        let blank = start.iter().position(|&t| t == 0).unwrap();
        (start.len() - cycles) % 2 == shape.distance(blank, goal_cell[0]) % 2
    }

    /// A uniformly random board solvable towards `goal`: a shuffle whose
    /// parity is fixed by swapping two tiles.
    pub(super) fn random_start(goal: &[u16], shape: Shape, rng: &mut SplitMix64) -> Vec<u16> {
        let mut board = shuffled(shape, rng);
        if !solvable(&board, goal, shape) {
            let mut tiles = (0..board.len()).filter(|&c| board[c] != 0);
            let (a, b) = (tiles.next().unwrap(), tiles.next().unwrap());
            board.swap(a, b);
        }
        board
    }

    /// The sum of the tiles' row and column distances from their goal cells.
    pub(super) fn manhattan_distance(start: &[u16], goal: &[u16], shape: Shape) -> usize {
        let mut home = vec![0; goal.len()];
        for (cell, &tile) in goal.iter().enumerate() {
            home[usize::from(tile)] = cell;
        }
        start
            .iter()
            .enumerate()
            .filter(|&(_, &tile)| tile != 0)
            .map(|(cell, &tile)| shape.distance(cell, home[usize::from(tile)]))
            .sum()
    }

    /// A named goal's layout.
    pub(super) fn named(name: &str, shape: Shape) -> Vec<u16> {
        match name {
            "blank-first" => blank_first(shape),
            "blank-last" => blank_last(shape),
            "snail" => snail(shape),
            _ => panic!("unknown goal {name}"),
        }
    }
}

mod checks {
    use super::support::*;
    use crate::board::{Goal, GoalSpec, Move, Shape, SplitMix64};
    use crate::search::constructive::region::{Region, Side};
    use crate::search::constructive::window::{WINDOW_STATES, solve_window};
    use crate::search::constructive::{RowsOutcome, rows, rows_until};

    fn check(start: &[u16], goal: &[u16], shape: Shape) -> RowsOutcome {
        let outcome = rows(start, goal, shape);
        assert_eq!(replay(start, shape, &outcome.path), goal, "{shape} from {start:?} to {goal:?}");
        assert_eq!(outcome.detours, 0, "{shape}: the local rules always found a way");
        let after_windows = outcome.shortening.after_windows;
        assert!(!outcome.shortening.fell_back, "{shape}: the shortened path replays");
        assert!(outcome.path.len() <= after_windows && after_windows <= outcome.constructed);
        outcome
    }

    #[test]
    fn goal_layouts_match_the_crates_goals() {
        for (width, height) in (2..=8).flat_map(|w| (2..=8).map(move |h| (w, h))) {
            let shape = Shape::new(width, height);
            for (spec, layout) in [
                (GoalSpec::BlankFirst, blank_first(shape)),
                (GoalSpec::BlankLast, blank_last(shape)),
                (GoalSpec::Snail, snail(shape)),
            ] {
                let goal = Goal::new(&spec, shape).unwrap();
                assert_eq!(layout, goal.tiles().cells(), "{spec:?} on {shape}");
            }
        }
    }

    #[test]
    fn every_shape_to_12x12_reaches_every_named_goal_and_random_ones() {
        let mut rng = SplitMix64::new(1);
        for width in 2..=12 {
            for height in 2..=12 {
                let shape = Shape::new(width, height);
                let boards = if shape.cells() <= 40 { 4 } else { 1 };
                let mut goals = vec![blank_first(shape), blank_last(shape), snail(shape)];
                goals.extend([shuffled(shape, &mut rng), shuffled(shape, &mut rng)]);
                for goal in &goals {
                    for _ in 0..boards {
                        let start = random_start(goal, shape, &mut rng);
                        check(&start, goal, shape);
                    }
                }
            }
        }
    }

    #[test]
    fn larger_and_thin_boards_reach_their_goals() {
        let mut rng = SplitMix64::new(2);
        for (width, height) in [(30, 30), (17, 3), (3, 17), (2, 25), (25, 2), (21, 13), (13, 29)] {
            let shape = Shape::new(width, height);
            for goal in [blank_first(shape), blank_last(shape), snail(shape), shuffled(shape, &mut rng)] {
                let start = random_start(&goal, shape, &mut rng);
                check(&start, &goal, shape);
            }
        }
    }

    #[test]
    fn a_100x100_board_and_long_rectangles_reach_every_kind_of_goal() {
        let mut rng = SplitMix64::new(4);
        for (width, height) in [(100, 100), (64, 9), (9, 64), (2, 90), (90, 2)] {
            let shape = Shape::new(width, height);
            for goal in [blank_first(shape), blank_last(shape), snail(shape), shuffled(shape, &mut rng)] {
                let start = random_start(&goal, shape, &mut rng);
                check(&start, &goal, shape);
            }
        }
    }

    /// Mean moves over the Manhattan distance on random boards, which
    /// the solver keeps below what line-by-line placement with one price
    /// for every push needed (2.70 on 7×7, 2.72 on 20×20).
    #[test]
    fn paths_stay_within_a_small_multiple_of_the_manhattan_distance() {
        for (side, boards, bound) in [(7, 30, 2.4), (20, 10, 2.5)] {
            let shape = Shape::square(side);
            let goal = blank_first(shape);
            let mut rng = SplitMix64::new(side as u64);
            let (mut moves, mut manhattan) = (0, 0);
            for _ in 0..boards {
                let start = random_start(&goal, shape, &mut rng);
                moves += check(&start, &goal, shape).path.len();
                manhattan += manhattan_distance(&start, &goal, shape);
            }
            let ratio = moves as f64 / manhattan as f64;
            assert!(ratio < bound, "{shape}: {ratio:.3} × the Manhattan distance");
        }
    }

    /// The final block's searches count against the expansion limit: a
    /// limit the 5×5 block's weighted A* cannot finish within makes the
    /// solver give up, and without one it finishes.
    #[test]
    fn the_block_searches_answer_to_the_expansion_limit() {
        let shape = Shape::square(7);
        let goal = blank_first(shape);
        let start = random_start(&goal, shape, &mut SplitMix64::new(5));
        assert!(rows_until(&start, &goal, shape, false, 5, &mut || false).is_none());
        let outcome = rows_until(&start, &goal, shape, false, u64::MAX, &mut || false).unwrap();
        assert!(outcome.block_expanded > 5);
        assert_eq!(replay(&start, shape, &outcome.path), goal);
    }

    /// A timeout or Ctrl-C is seen within a few moves, not once a line:
    /// the solver asks whether to stop at every step a tile takes, and on
    /// a 64×64 board a line takes thousands of moves.
    #[test]
    fn the_solver_asks_whether_to_stop_every_few_moves_not_once_a_line() {
        let shape = Shape::square(64);
        let goal = blank_first(shape);
        let start = random_start(&goal, shape, &mut SplitMix64::new(6));
        let mut asked = 0;
        let mut count = || {
            asked += 1;
            false
        };
        let outcome = rows_until(&start, &goal, shape, false, u64::MAX, &mut count).unwrap();
        assert!(outcome.constructed <= 20 * asked, "{} moves, stop asked {asked} times", outcome.constructed);
        // Once it says so, the solver gives up.
        let mut asked = 0;
        let mut later = || {
            asked += 1;
            asked > 100
        };
        assert!(rows_until(&start, &goal, shape, false, u64::MAX, &mut later).is_none());
        assert_eq!(asked, 101, "not asked again once it said to stop");
    }

    #[test]
    fn a_solved_board_needs_no_moves_and_one_move_away_needs_one() {
        let mut rng = SplitMix64::new(3);
        for (width, height) in [(2, 2), (3, 3), (2, 5), (6, 4), (10, 10)] {
            let shape = Shape::new(width, height);
            for goal in [blank_first(shape), blank_last(shape), snail(shape), shuffled(shape, &mut rng)] {
                assert!(check(&goal, &goal, shape).path.is_empty());
                let blank = goal.iter().position(|&t| t == 0).unwrap();
                for (mv, to) in shape.neighbours(blank) {
                    let mut start = goal.clone();
                    start.swap(blank, to);
                    assert_eq!(check(&start, &goal, shape).path, [mv.inverse()], "{shape}");
                }
            }
        }
    }

    /// Every arrangement of the last two tiles and the blank in a line-end
    /// window, for rows of two and of three or more, in every orientation.
    #[test]
    fn the_last_two_tiles_window_always_finishes() {
        for (width, height) in [(2, 3), (3, 3), (5, 4)] {
            let shape = Shape::new(width, height);
            let region = Region { top: 0, bottom: height - 1, left: 0, right: width - 1 };
            for side in [Side::Top, Side::Bottom, Side::Left, Side::Right] {
                {
                    let frame = region.frame(side);
                    let depth = if matches!(side, Side::Top | Side::Bottom) { height } else { width };
                    if depth < 3 {
                        continue;
                    }
                    let len = frame.len;
                    let window: Vec<usize> = (0..3)
                        .flat_map(|i| (len.saturating_sub(3)..len).map(move |j| (i, j)))
                        .filter(|&(i, j)| !(len >= 3 && i == 0 && j == len - 3))
                        .map(|(i, j)| frame.cell(shape, i, j))
                        .collect();
                    let to = [frame.cell(shape, 0, len - 1), frame.cell(shape, 0, len - 2)];
                    let mut moves = [Move::Up; WINDOW_STATES];
                    let mut tried = 0;
                    for &a in &window {
                        for &b in &window {
                            for &z in &window {
                                if a == b || b == z || a == z {
                                    continue;
                                }
                                tried += 1;
                                let count = solve_window(shape, &window, [a, b, z], to, &mut moves)
                                    .unwrap_or_else(|| panic!("{shape} {side:?}: stuck at {a} {b} {z}"));
                                // Play the moves on positions only.
                                let (mut a, mut b, mut z) = (a, b, z);
                                for &mv in &moves[..count] {
                                    let next = shape.neighbour(z, mv).unwrap();
                                    assert!(window.contains(&next));
                                    if next == a {
                                        a = z;
                                    } else if next == b {
                                        b = z;
                                    }
                                    z = next;
                                }
                                assert_eq!([a, b], to);
                            }
                        }
                    }
                    let n = window.len();
                    assert_eq!(tried, n * (n - 1) * (n - 2));
                }
            }
        }
    }
}

mod measure {
    use super::support::*;
    use crate::board::{Shape, SplitMix64};
    use crate::search::constructive::rows;
    use std::time::Instant;

    /// Mean path length over n³ and time per board on random boards, with
    /// what each shortening step saved and cost:
    /// `cargo test --release --lib constructive::tests::measure -- --ignored --nocapture`
    /// (`ROWS_SIDES=5,10` picks the sides, `ROWS_GOAL=snail` the goal,
    /// `ROWS_BOARDS=20` how many per side).
    #[test]
    #[ignore = "a measurement, not a check; run in release"]
    fn path_length_and_time_on_random_boards() {
        let sides: Vec<usize> = std::env::var("ROWS_SIDES").map_or_else(
            |_| vec![5, 6, 7, 8, 10, 20, 50, 100],
            |s| s.split(',').map(|x| x.parse().unwrap()).collect(),
        );
        let count: Option<usize> = std::env::var("ROWS_BOARDS").ok().map(|s| s.parse().unwrap());
        let goal_name = std::env::var("ROWS_GOAL").unwrap_or_else(|_| "blank-first".into());
        println!(
            "goal {goal_name}; moves / n³ as built, after windows, after cutting cycles; \
             final moves / Manhattan distance; ms per board"
        );
        println!(
            "{:>4} {:>6} {:>7} {:>7} {:>7} {:>11} {:>7} {:>9} {:>8} {:>8} {:>8}",
            "n",
            "boards",
            "built",
            "windows",
            "final",
            "final range",
            "/MD",
            "total",
            "build",
            "windows",
            "cycles"
        );
        for n in sides {
            let shape = Shape::square(n);
            let boards = count.unwrap_or(match n {
                0..=10 => 200,
                11..=20 => 50,
                21..=50 => 10,
                51..=100 => 5,
                _ => 1,
            });
            let goal = named(&goal_name, shape);
            let mut rng = SplitMix64::new(n as u64);
            let cube = (n * n * n) as f64;
            let mut sums = [0.0; 7];
            let (mut moves, mut manhattan) = (0, 0);
            let (mut lo, mut hi) = (f64::MAX, 0f64);
            for _ in 0..boards {
                let start = random_start(&goal, shape, &mut rng);
                let clock = Instant::now();
                let outcome = rows(&start, &goal, shape);
                let total = clock.elapsed();
                assert!(!outcome.shortening.fell_back && outcome.detours == 0);
                assert_eq!(replay(&start, shape, &outcome.path), goal);
                moves += outcome.path.len();
                manhattan += manhattan_distance(&start, &goal, shape);
                let last = outcome.path.len() as f64 / cube;
                (lo, hi) = (lo.min(last), hi.max(last));
                for (sum, x) in sums.iter_mut().zip([
                    outcome.constructed as f64 / cube,
                    outcome.shortening.after_windows as f64 / cube,
                    last,
                    total.as_secs_f64() * 1e3,
                    outcome.construction_time.as_secs_f64() * 1e3,
                    outcome.shortening.windows_time.as_secs_f64() * 1e3,
                    outcome.shortening.cycles_time.as_secs_f64() * 1e3,
                ]) {
                    *sum += x;
                }
            }
            let m = sums.map(|x| x / boards as f64);
            let ratio = moves as f64 / manhattan as f64;
            println!(
                "{n:>4} {boards:>6} {:>7.3} {:>7.3} {:>7.3} {lo:>5.2}..{hi:<4.2} {ratio:>7.3} {:>9.2} {:>8.2} {:>8.2} {:>8.2}",
                m[0], m[1], m[2], m[3], m[4], m[5], m[6]
            );
        }
    }
}
