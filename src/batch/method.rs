/*!
What a batch row's answer rests on, and the checks that keep rows solved
one way from being mixed with rows solved another: the algorithm with its
weight, the heuristic, the goal, and the flags that shape answers
([`answer_flags`]). Every row records them; `--resume` holds the rows it
keeps to the run's own ([`Settings::differs`]), and `merge` holds every
shard's rows to the first row's ([`Agreement`]). Each check names the first
setting that differs, with its value on either side.
*/

use super::Settings;
use crate::board::{Goal, GoalSpec, Shape};
use crate::report::WrittenRow;
use crate::search::{Algorithm, Limits};
use rustc_hash::FxHashMap;
use std::fmt;

/// The flags of a run that shape its answers besides the algorithm,
/// heuristic, weight and goal, as a row's `flags` holds them: the bound of
/// `--within`, `--partition`, the limits the user set and `--no-shorten`
/// (for the algorithms whose paths are shortened), as `name=value` words in this order (`no-shorten` alone); empty when
/// none is given. `--jobs` and `--threads` change no answer and are not
/// among them.
pub fn answer_flags(algorithm: Algorithm, limits: &Limits, partition: Option<&str>, shorten: bool) -> String {
    let mut words = Vec::new();
    if let Algorithm::Bounded { bound, .. } = algorithm {
        words.push(format!("within={bound}"));
    }
    if let Some(partition) = partition {
        words.push(format!("partition={partition}"));
    }
    let limits = [
        ("max-nodes", limits.max_nodes.map(|n| n.to_string())),
        ("max-expanded", limits.max_expanded.map(|n| n.to_string())),
        ("max-depth", limits.max_depth.map(|d| d.to_string())),
        ("timeout", limits.timeout.map(|t| t.as_secs_f64().to_string())),
    ];
    words.extend(limits.into_iter().filter_map(|(name, value)| Some(format!("{name}={}", value?))));
    if !shorten && algorithm.shortens() {
        words.push("no-shorten".to_owned());
    }
    words.join(" ")
}

/// The first setting two sets of rows differ in: its flag, and its value
/// for each (`None` where the flag is not given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The flag, without its dashes (`goal`, `max-expanded`).
    pub flag: String,
    /// Its value for the rows already written.
    pub was: Option<String>,
    /// Its value for the others (this run, or another shard).
    pub now: Option<String>,
}

impl Difference {
    /// The flag as given on one side: `--goal snail`, `--no-shorten`, or
    /// `no --max-expanded`.
    pub fn shown(&self, value: Option<&str>) -> String {
        match value {
            Some("") => format!("--{}", self.flag),
            Some(value) => format!("--{} {value}", self.flag),
            None => format!("no --{}", self.flag),
        }
    }

    /// Its value for the rows already written, as given.
    pub fn was_shown(&self) -> String {
        self.shown(self.was.as_deref())
    }

    /// Its value for the others, as given.
    pub fn now_shown(&self) -> String {
        self.shown(self.now.as_deref())
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} against {}", self.was_shown(), self.now_shown())
    }
}

/// What one row's answer rests on.
struct Basis<'a> {
    algorithm: &'a str,
    weight: Option<&'a str>,
    heuristic: Option<&'a str>,
    /// The goal, when the row read a board (error rows may not have).
    goal: Option<&'a [u16]>,
    flags: &'a str,
}

impl<'a> Basis<'a> {
    fn of(row: &'a WrittenRow) -> Basis<'a> {
        Basis {
            algorithm: &row.algorithm,
            weight: row.weight.as_deref(),
            heuristic: row.heuristic.as_deref(),
            goal: row.goal.as_deref(),
            flags: &row.flags,
        }
    }

    /// The first setting `self` (rows written) and `now` differ in, on a
    /// board of `shape`.
    fn difference(&self, now: &Basis<'_>, shape: Option<Shape>) -> Option<Difference> {
        let differ = |flag: &str, was: Option<&str>, now: Option<&str>| {
            (was != now).then(|| Difference {
                flag: flag.to_owned(),
                was: was.map(str::to_owned),
                now: now.map(str::to_owned),
            })
        };
        differ("algo", Some(self.algorithm), Some(now.algorithm))
            .or_else(|| differ("weight", self.weight, now.weight))
            .or_else(|| differ("heuristic", self.heuristic, now.heuristic))
            .or_else(|| match (self.goal, now.goal) {
                (Some(was), Some(now)) if was != now => Some(Difference {
                    flag: "goal".to_owned(),
                    was: Some(goal_shown(was, shape)),
                    now: Some(goal_shown(now, shape)),
                }),
                _ => None,
            })
            .or_else(|| flags_difference(self.flags, now.flags))
    }
}

/// The first flag two `flags` texts give differently.
fn flags_difference(was: &str, now: &str) -> Option<Difference> {
    let words = |text: &str| -> Vec<(String, String)> {
        text.split_whitespace()
            .map(|word| match word.split_once('=') {
                Some((name, value)) => (name.to_owned(), value.to_owned()),
                None => (word.to_owned(), String::new()),
            })
            .collect()
    };
    let (was, now) = (words(was), words(now));
    let value = |words: &[(String, String)], name: &str| {
        words.iter().find(|(n, _)| n == name).map(|(_, value)| value.clone())
    };
    was.iter().chain(&now).find_map(|(name, _)| {
        let (before, after) = (value(&was, name), value(&now, name));
        (before != after).then(|| Difference { flag: name.clone(), was: before, now: after })
    })
}

/// A goal as `--goal` would name it: a named goal's name, else its tiles.
fn goal_shown(tiles: &[u16], shape: Option<Shape>) -> String {
    let named = ["blank-first", "blank-last", "snail"].into_iter().find(|name| {
        let goal = shape.and_then(|shape| Goal::new(&GoalSpec::named(name)?, shape).ok());
        goal.is_some_and(|goal| goal.tiles().cells() == tiles)
    });
    named.map_or_else(|| tiles.iter().map(u16::to_string).collect::<Vec<_>>().join(","), str::to_owned)
}

/// The shape a row's board has, when it read one.
fn shape_of(row: &WrittenRow) -> Option<Shape> {
    row.shape.map(|(width, height)| Shape::new(width, height))
}

impl Settings {
    /// The first setting in which this run would solve the puzzle of `row`
    /// otherwise than `row` was solved; `None` when it would solve it
    /// alike.
    pub fn differs(&self, row: &WrittenRow) -> Option<Difference> {
        let shape = shape_of(row);
        let goal = shape.and_then(|shape| Goal::new(&self.goal, shape).ok());
        let weight = self.algorithm.weight().map(|w| w.to_string());
        let heuristic = match row.heuristic.as_deref() {
            _ if !self.algorithm.informed() => None,
            // The strongest heuristic at hand: the pattern databases where
            // they were built, the named one elsewhere.
            Some("pdb") if self.strongest => Some("pdb"),
            _ => Some(self.heuristic.name()),
        };
        let now = Basis {
            algorithm: self.algorithm.name(),
            weight: weight.as_deref(),
            heuristic,
            goal: goal.as_ref().map(|goal| goal.tiles().cells()),
            flags: &self.flags,
        };
        if let Some(was) = row.goal.as_deref()
            && goal.is_none()
        {
            // A goal of another shape: this board would be an error row.
            let now = match &self.goal {
                GoalSpec::Board(tiles) => Some(goal_shown(tiles.cells(), None)),
                _ => None,
            };
            return Some(Difference { flag: "goal".to_owned(), was: Some(goal_shown(was, shape)), now });
        }
        Basis::of(row).difference(&now, shape)
    }
}

/// The rows of shards held to the first row merged: one algorithm, weight
/// and flags for all, and one heuristic and goal for each shape.
#[derive(Debug, Default)]
pub struct Agreement {
    /// The first row's puzzle, and the row.
    first: Option<(String, WrittenRow)>,
    /// For each shape, the first row of that shape that read a board.
    shapes: FxHashMap<(usize, usize), WrittenRow>,
}

impl Agreement {
    /// Checks `row` against the rows before it: `Err` names the setting it
    /// was solved otherwise with, and the puzzle of the row it differs from.
    ///
    /// # Errors
    /// A message naming the setting, both values and the other puzzle.
    pub fn check(&mut self, row: &WrittenRow) -> Result<(), String> {
        let Agreement { first, shapes } = self;
        let refusal = |other: &str, difference: Difference| {
            format!("solved with {} where {other} has {}", difference.now_shown(), difference.was_shown())
        };
        let shape = shape_of(row);
        let now = Basis::of(row);
        let (first_name, first) = first.get_or_insert_with(|| (row.name.clone(), row.clone()));
        // The heuristic and the goal are compared between boards of one shape.
        let against = Basis { heuristic: now.heuristic, goal: None, ..Basis::of(first) };
        if let Some(difference) = against.difference(&now, shape) {
            return Err(refusal(first_name, difference));
        }
        if let Some(key) = row.shape.filter(|_| row.goal.is_some()) {
            let same = shapes.entry(key).or_insert_with(|| row.clone());
            if let Some(difference) = Basis::of(same).difference(&now, shape) {
                return Err(refusal(&same.name, difference));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Weight;
    use std::time::Duration;

    #[test]
    fn answer_flags_are_the_flags_given_that_change_answers_in_a_fixed_order() {
        let limits = Limits {
            max_expanded: Some(1000),
            timeout: Some(Duration::from_millis(1500)),
            ..Limits::default()
        };
        let bound: Weight = "1.5".parse().unwrap();
        assert_eq!(
            answer_flags(Algorithm::within(bound), &limits, Some("7-8"), false),
            "within=1.5 partition=7-8 max-expanded=1000 timeout=1.5 no-shorten"
        );
        assert_eq!(answer_flags(Algorithm::AStar, &Limits::default(), None, true), "");
    }

    #[test]
    fn the_first_flag_given_otherwise_is_named_with_both_values() {
        let difference = flags_difference("max-expanded=1000 timeout=2", "timeout=2 no-shorten").unwrap();
        assert_eq!(difference.to_string(), "--max-expanded 1000 against no --max-expanded");
        let difference = flags_difference("max-depth=9", "max-depth=9 no-shorten").unwrap();
        assert_eq!(difference.to_string(), "no --no-shorten against --no-shorten");
        assert_eq!(flags_difference("timeout=2 max-depth=9", "timeout=2 max-depth=9"), None);
    }

    #[test]
    fn a_goal_is_shown_by_its_name_where_it_has_one() {
        let shape = Some(Shape::new(3, 3));
        assert_eq!(goal_shown(&[1, 2, 3, 4, 5, 6, 7, 8, 0], shape), "blank-last");
        assert_eq!(goal_shown(&[1, 2, 3, 4, 5, 6, 7, 0, 8], shape), "1,2,3,4,5,6,7,0,8");
    }
}
