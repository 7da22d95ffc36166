/*!
The algorithms a caller can ask for, and what each promises: shortest
paths or not, a weight or not, one thread or several.
*/

use super::weight::Weight;
use crate::error::Error;
use crate::heuristic::pdb::Estimates;
use std::fmt;

/// How a node is picked among those within the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    /// The node with the smallest estimate (focal search).
    Nearest,
    /// The node with the largest potential (`B·f_min` − g) / h (Dynamic
    /// Potential Search).
    Potential,
}

/// The search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search: FIFO frontier, shortest paths.
    Bfs,
    /// Depth-first search: LIFO frontier, any path.
    Dfs,
    /// A*: best-first on f = g + h, shortest paths with an admissible heuristic.
    AStar,
    /// IDA*: iterative-deepening A*, shortest paths in memory linear in the depth.
    IdaStar,
    /// Fringe search: IDA*'s passes, each from the frontier the one before
    /// kept, smallest estimate first; shortest paths, no node expanded
    /// twice while the frontier fits its memory.
    Fringe,
    /// Greedy best-first search on h alone: long paths, few nodes.
    Greedy,
    /// A* on f = g + W·h (W > 1): paths at most W times the shortest.
    WeightedAStar(Weight),
    /// IDA* on f = g + W·h (W > 1): paths at most W times the shortest.
    WeightedIdaStar(Weight),
    /// Bounded-suboptimal A*: paths at most `bound` times the shortest,
    /// expanding within that bound the node `selection` prefers (focal
    /// search or Dynamic Potential Search), with a proven lower bound.
    Bounded {
        /// B, the factor the cost may exceed the optimum by.
        bound: Weight,
        /// How a node is picked within the bound.
        selection: Selection,
    },
    /// Anytime search: an answer at once, shorter ones while the time
    /// (its timeout) lasts, the best at the end with the lower bound the
    /// run proved (see `anytime/`).
    Anytime,
    /// The constructive solver: places tiles a line at a time, any board
    /// up to 256×256 in time linear in its path (about 1.5·n³ moves on
    /// n×n, 2.3 times the Manhattan distance), paths far from the shortest.
    Rows,
}

impl Algorithm {
    /// Whether its path is shortened once found (see [`Prepared::shortening`](super::Prepared::shortening)):
    /// the algorithms that give up shortest paths for speed. DFS, kept for
    /// textbook comparisons, returns its path as it found it.
    pub const fn shortens(self) -> bool {
        matches!(
            self,
            Algorithm::Greedy
                | Algorithm::WeightedAStar(_)
                | Algorithm::WeightedIdaStar(_)
                | Algorithm::Bounded { .. }
                | Algorithm::Rows
        )
    }

    /// Whether the search runs on several threads when [`Limits::threads`](super::Limits::threads)
    /// asks for them (IDA*, weighted or not, and fringe search's large
    /// passes); the others use one.
    pub fn parallel(self) -> bool {
        matches!(
            self,
            Algorithm::IdaStar
                | Algorithm::Fringe
                | Algorithm::WeightedIdaStar(_)
                | Algorithm::Anytime
                | Algorithm::Bounded { .. }
        )
    }

    /// Every algorithm once, unweighted, in the order comparisons list them.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Fringe,
        Algorithm::Greedy,
        Algorithm::Rows,
    ];

    /// The name used on the command line and in reports; a weighted
    /// search goes by its algorithm's name and reports its weight apart.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::AStar | Algorithm::WeightedAStar(_) | Algorithm::Bounded { .. } => "astar",
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) => "idastar",
            Algorithm::Fringe => "fringe",
            Algorithm::Greedy => "greedy",
            Algorithm::Rows => "rows",
            Algorithm::Anytime => "anytime",
        }
    }

    /// How it comes by its estimates: IDA*, weighted or not, and fringe
    /// search from each parent's; the others board by board.
    pub const fn estimates(self) -> Estimates {
        match self {
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) | Algorithm::Fringe => Estimates::FromParent,
            _ => Estimates::FromScratch,
        }
    }

    /// Whether the algorithm uses a heuristic.
    pub const fn informed(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Dfs | Algorithm::Rows)
    }

    /// Whether its paths are shortest ones (with an admissible heuristic,
    /// where it takes one).
    pub const fn optimal(self) -> bool {
        matches!(self, Algorithm::Bfs | Algorithm::AStar | Algorithm::IdaStar | Algorithm::Fringe)
    }

    /// W of A* and IDA* (1 unless weighted); `None` for algorithms without one.
    pub const fn weight(self) -> Option<Weight> {
        match self {
            Algorithm::AStar | Algorithm::IdaStar => Some(Weight::ONE),
            Algorithm::WeightedAStar(w) | Algorithm::WeightedIdaStar(w) => Some(w),
            _ => None,
        }
    }

    /// The factor its answers are guaranteed not to exceed the optimum by:
    /// 1 for the optimal searches, W for weighted ones, B for a bounded
    /// search; `None` for those that promise nothing.
    pub const fn bound(self) -> Option<Weight> {
        match self {
            Algorithm::Bfs | Algorithm::AStar | Algorithm::IdaStar | Algorithm::Fringe => Some(Weight::ONE),
            Algorithm::WeightedAStar(w) | Algorithm::WeightedIdaStar(w) => Some(w),
            Algorithm::Bounded { bound, .. } => Some(bound),
            Algorithm::Dfs | Algorithm::Greedy | Algorithm::Rows | Algorithm::Anytime => None,
        }
    }

    /// The search that answers within `bound` times the shortest: what
    /// `--within` runs without `--algo` (Dynamic Potential Search, which
    /// measured fastest among the bounded searches; on boards past the
    /// searches' reach, the constructive solver's answer where its cost is
    /// proven within the bound).
    pub const fn within(bound: Weight) -> Algorithm {
        Algorithm::Bounded { bound, selection: Selection::Potential }
    }

    /// This algorithm kept within `bound` times the shortest: A* as a
    /// bounded search, IDA* weighted by the bound, BFS and fringe search as
    /// they are (they are optimal).
    ///
    /// # Errors
    /// [`Error::NoBound`] for an algorithm that cannot keep a bound.
    pub fn bounded(self, bound: Weight) -> Result<Algorithm, Error> {
        match self {
            Algorithm::AStar | Algorithm::Bounded { .. } => Ok(Algorithm::within(bound)),
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) => Algorithm::IdaStar.weighted(bound),
            Algorithm::Bfs | Algorithm::Fringe => Ok(self),
            other => Err(Error::NoBound { algorithm: other.name() }),
        }
    }

    /// This algorithm searching on f = g + W·h: A* and IDA* take any
    /// weight (W = 1 leaves them as they are); the others take none.
    ///
    /// # Errors
    /// [`Error::NoWeight`] for an algorithm that has no weight.
    pub fn weighted(self, weight: Weight) -> Result<Algorithm, Error> {
        let one = weight == Weight::ONE;
        match self {
            Algorithm::AStar | Algorithm::WeightedAStar(_) => {
                Ok(if one { Algorithm::AStar } else { Algorithm::WeightedAStar(weight) })
            }
            Algorithm::IdaStar | Algorithm::WeightedIdaStar(_) => {
                Ok(if one { Algorithm::IdaStar } else { Algorithm::WeightedIdaStar(weight) })
            }
            other => Err(Error::NoWeight { algorithm: other.name() }),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
