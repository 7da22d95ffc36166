//! The parity verdict agrees with reachability.

use crate::util::{Rng, all_distances, permutations};
use npuzzle::{Goal, GoalSpec, Tiles};

fn named_goals() -> [GoalSpec; 3] {
    [GoalSpec::BlankFirst, GoalSpec::BlankLast, GoalSpec::Snail]
}

#[test]
fn parity_agrees_with_reachability_for_every_2x2_and_3x3_arrangement() {
    for width in [2usize, 3] {
        let everything = permutations((width * width) as u16);
        let custom: &[u16] = if width == 2 { &[1, 0, 2, 3] } else { &[1, 2, 3, 4, 0, 5, 6, 7, 8] };
        for spec in named_goals().into_iter().chain([GoalSpec::Board(Tiles::new(custom).unwrap())]) {
            let goal = Goal::new(&spec, width).unwrap();
            let reachable = all_distances(goal.tiles().cells(), width);
            assert_eq!(reachable.len() * 2, everything.len(), "exactly half is reachable");
            for start in &everything {
                assert_eq!(
                    goal.parity(start).solvable(),
                    reachable.contains_key(start),
                    "{spec:?} {start:?}"
                );
            }
        }
    }
}

/// The textbook inversion rule for the blank-last goal, written independently.
fn inversion_rule(start: &[u16], width: usize) -> bool {
    let tiles: Vec<u16> = start.iter().copied().filter(|&t| t != 0).collect();
    let inversions = (0..tiles.len())
        .flat_map(|i| (i + 1..tiles.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| tiles[i] > tiles[j])
        .count();
    if width % 2 == 1 {
        inversions % 2 == 0
    } else {
        let blank_row_from_bottom = width - start.iter().position(|&t| t == 0).unwrap() / width;
        (inversions + blank_row_from_bottom) % 2 == 1
    }
}

#[test]
fn parity_agrees_with_the_inversion_rule_on_random_wide_boards() {
    let mut rng = Rng(4);
    for width in 4..=8 {
        let goal = Goal::new(&GoalSpec::BlankLast, width).unwrap();
        for _ in 0..300 {
            let start = rng.shuffle(width * width);
            assert_eq!(
                goal.parity(&start).solvable(),
                inversion_rule(&start, width),
                "width {width}: {start:?}"
            );
        }
    }
}

#[test]
fn walks_are_solvable_and_a_swap_of_two_tiles_is_not_for_every_named_goal() {
    let mut rng = Rng(5);
    for width in 4..=8 {
        for spec in named_goals() {
            let goal = Goal::new(&spec, width).unwrap();
            for _ in 0..50 {
                let steps = rng.below(200);
                let mut start = rng.walk(goal.tiles().cells(), width, steps);
                assert!(goal.parity(&start).solvable(), "{spec:?} width {width}");
                let tiles: Vec<usize> = (0..start.len()).filter(|&i| start[i] != 0).collect();
                let a = tiles[rng.below(tiles.len())];
                let b = *tiles.iter().find(|&&b| b != a).unwrap();
                start.swap(a, b);
                assert!(!goal.parity(&start).solvable(), "{spec:?} width {width}");
            }
        }
    }
}

#[test]
fn parity_agrees_with_the_inversion_rule_towards_every_named_goal_on_random_wide_boards() {
    // Solvability splits the boards into two classes, so a start reaches a
    // goal exactly when both fall on the same side of the blank-last rule.
    let mut rng = Rng(44);
    for width in 4..=8 {
        for spec in named_goals() {
            let goal = Goal::new(&spec, width).unwrap();
            let goal_side = inversion_rule(goal.tiles().cells(), width);
            for _ in 0..100 {
                let start = rng.shuffle(width * width);
                assert_eq!(
                    goal.parity(&start).solvable(),
                    inversion_rule(&start, width) == goal_side,
                    "width {width}, {spec:?}: {start:?}"
                );
            }
        }
    }
}
