/*!
The effective branching factor b*, the figure comparison tables use to rate
a heuristic independently of the puzzle's depth (Russell and Norvig, §3.6.1).
*/

/// The effective branching factor b*: the branching factor a uniform tree of
/// depth `depth` would need to hold `nodes + 1` nodes, that is the b ≥ 0
/// with `nodes + 1 = 1 + b + b² + … + b^depth`.
///
/// `nodes` is the number of nodes the search generated. `None` for a
/// zero-depth solution, where every b fits. The result is exact to well
/// below the four decimals reports show.
///
/// # Examples
/// ```
/// use npuzzle::report::effective_branching_factor;
/// // 1 + 2 + 4 = 7 nodes at depth 2.
/// let b = effective_branching_factor(6, 2).unwrap();
/// assert_eq!(format!("{b:.4}"), "2.0000");
/// assert_eq!(effective_branching_factor(10, 0), None);
/// ```
pub fn effective_branching_factor(nodes: u64, depth: usize) -> Option<f64> {
    if depth == 0 {
        return None;
    }
    if nodes == 0 {
        return Some(0.0);
    }
    let target = nodes as f64 + 1.0;
    // The tree size is increasing and convex in b ≥ 0, so Newton's method
    // started right of the root walks down to it without overshooting, in
    // a handful of steps (a batch computes b* for every row). Both
    // b^depth ≤ nodes + 1 and b ≤ nodes hold at the root.
    let mut b = target.powf(1.0 / depth as f64).min(nodes as f64);
    for _ in 0..100 {
        let (size, slope) = tree_size(b, depth);
        let step = (size - target) / slope;
        // Rounding may leave the last step at or left of the root.
        if step.is_nan() || step <= 0.0 {
            break;
        }
        b -= step;
        if step <= b * 1e-15 {
            break;
        }
    }
    Some(b)
}

/// `1 + b + … + b^depth` and its derivative in b, by Horner's rule.
fn tree_size(b: f64, depth: usize) -> (f64, f64) {
    let (mut size, mut slope) = (1.0, 0.0);
    for _ in 0..depth {
        slope = slope * b + size;
        size = size * b + 1.0;
    }
    (size, slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(nodes: u64, depth: usize) -> f64 {
        effective_branching_factor(nodes, depth).unwrap()
    }

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    #[test]
    fn depth_one_is_the_number_of_nodes() {
        // N + 1 = 1 + b.
        assert!(close(b(5, 1), 5.0, 1e-9));
        assert!(close(b(1, 1), 1.0, 1e-9));
    }

    #[test]
    fn whole_number_roots_worked_by_hand() {
        // 1 + 2 + 4 = 7, so 6 nodes at depth 2 give b* = 2.
        assert!(close(b(6, 2), 2.0, 1e-9));
        // 1 + 3 + 9 + 27 = 40.
        assert!(close(b(39, 3), 3.0, 1e-9));
        // 1 + 2 + 4 + 8 + 16 + 32 = 63.
        assert!(close(b(62, 5), 2.0, 1e-9));
        // A path with no side branches: 1 + 1 + 1 + 1 + 1 = 5.
        assert!(close(b(4, 4), 1.0, 1e-9));
    }

    #[test]
    fn fractional_roots_worked_by_hand() {
        // 1 + b + b² = 2 gives b = (√5 − 1) / 2.
        assert!(close(b(1, 2), (5f64.sqrt() - 1.0) / 2.0, 1e-9));
        // Russell and Norvig's example: 52 nodes at depth 5 give b* ≈ 1.92.
        assert!(close(b(52, 5), 1.92, 0.005));
        // 1 + b + b² = 13: b = (√49 − 1) / 2 = 3.
        assert!(close(b(12, 2), 3.0, 1e-9));
        // 1 + b + b² = 11: b = (√41 − 1) / 2 ≈ 2.7016.
        assert_eq!(format!("{:.4}", b(10, 2)), "2.7016");
    }

    #[test]
    fn zero_depth_has_no_branching_factor() {
        assert_eq!(effective_branching_factor(0, 0), None);
        assert_eq!(effective_branching_factor(100, 0), None);
    }

    #[test]
    fn no_nodes_at_depth_gives_zero() {
        assert_eq!(effective_branching_factor(0, 3), Some(0.0));
    }

    #[test]
    fn huge_trees_do_not_overflow() {
        let value = b(1_000_000_000, 80);
        assert!(value > 1.0 && value < 2.0, "{value}");
        assert!(close(b(u64::MAX, 1), u64::MAX as f64, 1.0));
    }
}
