//! `generate`, `check`, `compare` and `completions`. (Issue 3; to be written.)
