/*!
Shards: `K/M` splits of a batch, so that independent processes can each
take a part of one set of puzzles.
*/

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Shard `index` of `count`: the puzzles at positions `index`, `index +
/// count`, `index + 2·count`… of the discovered list. Shards `0/M` to
/// `M−1/M` cover the list exactly once, so independent processes can split
/// a set and concatenate their output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// A shard that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    /// Not `K/M`.
    #[error("'{0}' is not a shard: expected K/M, such as 0/4")]
    Syntax(String),
    /// `M` is 0.
    #[error("a shard count of 0 selects nothing: M must be at least 1")]
    NoShards,
    /// `K ≥ M`.
    #[error("shard {index} does not exist: shards of {count} are numbered 0 to {}", count - 1)]
    OutOfRange {
        /// K.
        index: usize,
        /// M.
        count: usize,
    },
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// When `count` is 0 or `index ≥ count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Whether the item at `position` belongs to this shard.
    pub fn contains(self, position: usize) -> bool {
        position % self.count == self.index
    }

    /// The items of `all` that belong to this shard, in order.
    pub fn select<T>(self, all: Vec<T>) -> Vec<T> {
        all.into_iter().enumerate().filter(|(i, _)| self.contains(*i)).map(|(_, item)| item).collect()
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_owned());
        let (k, m) = text.split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| syntax());
        Shard::new(number(k)?, number(m)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_as_k_of_m_and_reject_shards_that_do_not_exist() {
        assert_eq!("1/4".parse::<Shard>(), Shard::new(1, 4));
        assert_eq!("0/1".parse::<Shard>().unwrap().to_string(), "0/1");
        assert_eq!("4/4".parse::<Shard>(), Err(ShardError::OutOfRange { index: 4, count: 4 }));
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards));
        for bad in ["", "1", "a/2", "1/b", "-1/2", "1/2/3"] {
            assert!(matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn shards_0_to_m_cover_every_position_exactly_once() {
        for count in 1..5 {
            let mut seen = vec![0; 11];
            for index in 0..count {
                let shard = Shard::new(index, count).unwrap();
                for i in shard.select((0..11).collect()) {
                    seen[i] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "count {count}: {seen:?}");
        }
    }
}
