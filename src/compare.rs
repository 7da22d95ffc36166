/*!
Comparisons: every algorithm, with every heuristic it uses, on one puzzle,
each run under the same limits, as the comparison tables of course reports
and papers do. New algorithms and heuristics join in through
[`Algorithm::ALL`] and [`HeuristicKind::ALL`]; the pattern databases join
when the caller has them loaded.
*/

use crate::board::{Goal, Tiles};
use crate::heuristic::HeuristicKind;
use crate::report::Record;
use crate::search::{Algorithm, Limits, Prepared, Tables, Weight};
use std::time::Duration;

/// Node limit of each run unless one is given: uninformed searches on a
/// large board would otherwise fill memory before any verdict.
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// Time limit of each run unless one is given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The weights weighted A* is compared at, beside A* itself: a little and a
/// lot of trust in the heuristic.
pub const WEIGHTS: [Weight; 2] = [Weight::ratio(3, 2), Weight::ratio(3, 1)];

/// The algorithms of a comparison, in order: [`Algorithm::ALL`], with
/// weighted A* at each of [`WEIGHTS`] after A*.
pub fn algorithms() -> Vec<Algorithm> {
    Algorithm::ALL
        .iter()
        .flat_map(|&algorithm| {
            let weighted = WEIGHTS.iter().filter(move |_| algorithm == Algorithm::AStar);
            std::iter::once(algorithm).chain(weighted.map(|&w| Algorithm::WeightedAStar(w)))
        })
        .collect()
}

/// The runs of a comparison, in order: each of [`algorithms`] once if it
/// ignores heuristics, else once per heuristic of [`HeuristicKind::ALL`],
/// plus the pattern databases when `with_pdb`.
pub fn runs(with_pdb: bool) -> Vec<(Algorithm, HeuristicKind)> {
    let mut informed = HeuristicKind::ALL.to_vec();
    if with_pdb {
        informed.push(HeuristicKind::Pdb);
    }
    algorithms()
        .into_iter()
        .flat_map(|algorithm| {
            let heuristics = if algorithm.informed() { &informed[..] } else { &informed[..1] };
            heuristics.iter().map(move |&h| (algorithm, h)).collect::<Vec<_>>()
        })
        .collect()
}

/// `limits` with the comparison defaults filled in where unset.
pub fn with_defaults(limits: &Limits) -> Limits {
    Limits {
        max_nodes: limits.max_nodes.or(Some(DEFAULT_MAX_NODES)),
        timeout: limits.timeout.or(Some(DEFAULT_TIMEOUT)),
        ..limits.clone()
    }
}

/// Runs every run of [`runs`] on `start` under `limits` (see
/// [`with_defaults`]), the paths shortened where `shorten` and the
/// algorithm say so ([`Prepared::shortening`]), handing each record to
/// `on_record` as it is ready. Once `limits.cancel` is set no further run
/// starts.
///
/// # Errors
/// The first error `on_record` returns.
pub fn compare<E>(
    start: &Tiles,
    goal: &Goal,
    limits: &Limits,
    tables: &Tables,
    shorten: bool,
    mut on_record: impl FnMut(Record) -> Result<(), E>,
) -> Result<(), E> {
    let limits = with_defaults(limits);
    let with_pdb = tables.pdb.as_deref().is_some_and(|pdb| pdb.serves(goal));
    for (algorithm, heuristic) in runs(with_pdb) {
        if limits.cancelled() {
            break;
        }
        let prepared = Prepared::new(goal.clone(), algorithm, heuristic).shortening(shorten);
        let record = match prepared.solve(start, &limits, tables) {
            Ok(outcome) => Record::new(algorithm, heuristic, start, goal, outcome),
            Err(e) => Record::failed(algorithm, heuristic, Some(start), e.to_string()),
        };
        on_record(record)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::GoalSpec;

    #[test]
    fn every_algorithm_runs_once_per_heuristic_it_uses() {
        let runs = runs(false);
        for algorithm in algorithms() {
            let count = runs.iter().filter(|(a, _)| *a == algorithm).count();
            let expected = if algorithm.informed() { HeuristicKind::ALL.len() } else { 1 };
            assert_eq!(count, expected, "{algorithm}");
        }
    }

    #[test]
    fn optimal_algorithms_agree_on_the_cost() {
        let start = Tiles::new(&[1, 2, 5, 3, 4, 0, 6, 7, 8]).unwrap();
        let goal = Goal::new(&GoalSpec::BlankFirst, 3).unwrap();
        let mut records = Vec::new();
        compare(&start, &goal, &Limits::default(), &Tables::NONE, true, |r| {
            records.push(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(records.len(), runs(false).len());
        for ((algorithm, _), record) in runs(false).into_iter().zip(&records) {
            if algorithm.optimal() {
                assert_eq!(record.cost, Some(3), "{record:?}");
            }
            if let Some(w) = algorithm.weight() {
                assert!(record.cost.unwrap() as f64 <= 3.0 * w.value(), "{record:?}");
            }
        }
    }
}
