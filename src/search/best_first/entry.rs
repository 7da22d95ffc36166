/*!
What the open list holds for a board. A stored state costs one eight-byte
value (packed boards) in the open list or the closed set, and no parent
boards are kept: the path is rebuilt by undoing stored moves from the goal.
The one exception is a heuristic that can estimate a board cheaply only from
its parent's memo (zero-aware pattern databases in bits, which otherwise
walk down to their goal for every board): then each open entry keeps its
board's memo beside it, about a hundred bytes, and the node limit shrinks
to match.
*/

use crate::board::Board;
#[cfg(doc)]
use crate::heuristic::Heuristic;

/// What the open list holds for a board: the board tagged with the move
/// that reached it and, where the heuristic estimates a board only cheaply
/// from its parent ([`Heuristic::estimates_from_parent`]), its memo.
pub(crate) trait OpenEntry<B: Board, M>: Copy + Send + 'static {
    /// Whether children are estimated from the memo rather than afresh.
    const MEMO: bool;
    fn new(tagged: B::Tagged, memo: M) -> Self;
    fn tagged(&self) -> B::Tagged;
    fn memo(&self) -> M;
}

/// An entry without a memo: the tagged board alone, eight bytes for the
/// packed boards.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bare<T>(T);

impl<B: Board, M: Default> OpenEntry<B, M> for Bare<B::Tagged> {
    const MEMO: bool = false;
    #[inline]
    fn new(tagged: B::Tagged, _: M) -> Self {
        Bare(tagged)
    }
    #[inline]
    fn tagged(&self) -> B::Tagged {
        self.0
    }
    #[inline]
    fn memo(&self) -> M {
        M::default()
    }
}

/// An entry with the heuristic's memo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WithMemo<T, M>(T, M);

impl<B: Board, M: Copy + Send + 'static> OpenEntry<B, M> for WithMemo<B::Tagged, M> {
    const MEMO: bool = true;
    #[inline]
    fn new(tagged: B::Tagged, memo: M) -> Self {
        WithMemo(tagged, memo)
    }
    #[inline]
    fn tagged(&self) -> B::Tagged {
        self.0
    }
    #[inline]
    fn memo(&self) -> M {
        self.1
    }
}
