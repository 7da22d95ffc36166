/*!
Best-first graph search: the engine A*, weighted A* and greedy search share.
Each is a [`Rule`] that turns a node's depth g and estimate h into its
priority; everything else is the same.

The engine is written once over its containers, as in Burns, Hatem,
Leighton and Ruml's search code ("Implementing fast heuristic search code",
2012): a rule orders, an open list holds what is left to expand in that
order, a closed set what was expanded, and an entry is what the open list
keeps of a board. How a search runs is the engine's; a new order, queue or
closed set is a file beside it.

| file         | holds                                                                          |
| ------------ | ------------------------------------------------------------------------------ |
| `engine.rs`  | the loop, the memory a state costs, what a finished search proved              |
| `rules.rs`   | `Rule`: A*'s, weighted A*'s, greedy search's and a bounded search's priorities |
| `open.rs`    | `OpenList`: the order every open list keeps, and the kinds of list             |
| `buckets.rs` | `BucketQueue`: buckets by priority and g, for whole-number priorities          |
| `heap.rs`    | `HeapQueue`: a binary heap in the same order, for finely spread priorities     |
| `closed.rs`  | `Closed`: closed once, or reopened for inconsistent heuristics                 |
| `entry.rs`   | `OpenEntry`: a tagged board, with the heuristic's memo where it needs one      |
*/

mod buckets;
mod closed;
mod engine;
mod entry;
mod heap;
mod open;
mod rules;

pub(crate) use closed::Reopening;
pub(crate) use engine::{bytes_per_state, bytes_per_state_with, run};
pub(crate) use entry::Bare;
pub(crate) use open::{Buckets, Heap, OpenList, Queue};
pub(crate) use rules::{Bounded, Greedy, Plain, Rule, Weighted};
