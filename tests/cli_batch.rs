//! `batch`: folders of puzzles in, one row per puzzle out. (Issue 3; to be written.)
