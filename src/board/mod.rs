/*!
Boards: their shape, their encodings, reading them and their goals.

A search never touches bits: it asks a [`Board`] for the blank, a tile, or
the board after a slide, and asks a [`Geometry`] where the blank may go.
Boards up to 16 cells are one `u64` ([`Packed`]), up to 25 one `u128`
([`Packed128`]), up to 50 a few words ([`PackedWords`]); larger ones are
[`Wide`]. Each search is written once and monomorphised per encoding.

| file | holds |
| --- | --- |
| `shape.rs` | [`Shape`]: the one owner of a board's geometry, and the side caps |
| `moves.rs`, `replay.rs` | [`Move`], and playing a path on any board |
| `encoding.rs` | the [`Board`] trait every encoding implements |
| `packed.rs`, `packed128.rs`, `packed_words.rs`, `wide.rs` | the encodings |
| `geometry.rs`, `automaton.rs` | where the blank may go, and the moves a depth-first search may skip |
| `tiles.rs` | [`Tiles`]: a validated arrangement, the plain form between reader and search |
| `read.rs`, `parse.rs`, `parse_error.rs` | the one file reader, the text format, and what can be wrong |
| `goal.rs` | [`Goal`]s and the parity rule |
| `list.rs`, `generate.rs`, `distance.rs` | instance lists, random boards, exact distances |
*/

mod automaton;
mod distance;
mod encoding;
mod generate;
mod geometry;
mod goal;
mod list;
mod moves;
mod packed;
mod packed128;
mod packed_words;
mod parse;
mod parse_error;
mod read;
mod replay;
mod shape;
mod tiles;
mod wide;

pub use automaton::Step;
pub use distance::{Layers, MAX_ENUMERATED_CELLS, distance_bound};
pub use encoding::{Board, TileCells};
pub(crate) use encoding::{field_low_bits, mix64};
pub use generate::{MAX_WALK, Scramble, SplitMix64, comment_lines, generate, puzzle_text};
pub use geometry::Geometry;
#[cfg(test)]
pub(crate) use geometry::distances_within;
pub use goal::{Goal, GoalError, GoalSpec, Parity};
pub use list::{Entry, ListReader, MAX_LIST_LINE, parse_list};
pub use list::{list_line, size_line};
pub use moves::Move;
pub(crate) use moves::{code_move, move_code};
pub use packed::Packed;
pub use packed_words::PackedWords;
pub use packed128::Packed128;
pub(crate) use parse::split_lines;
pub use parse::{
    parse_board, parse_board_with, read_input, read_input_until, read_input_with, stated_optimum,
};
pub use parse_error::{ParseError, ParseErrorKind};
pub use read::{Input, MAX_INPUT_BYTES, Patience, io_message, read_text, read_text_until};
pub use replay::{replay, replay_each};
pub use shape::{MAX_SEARCH_CELLS, MAX_SEARCH_SIDE, MAX_SIDE, MIN_SIDE, Shape, parse_shape, supported};
pub use tiles::{Tiles, display_grid};
pub use wide::{TaggedWide, Wide};
