//! The time a run will take, said before it starts: a short timed sample
//! of the run's own positions, spread over all of them, so that a run of
//! hours says so in its first second instead of leaving the user to guess
//! (and a level whose cases cost more than the first ones counts at its
//! share).
//!
//! The sample's checks are thrown away ([`Check::sample`]): they are not
//! a verdict, and the run checks the same positions again in its order.

use crate::{Address, CaseSource, Check, Made, Plan};
use std::time::{Duration, Instant};

/// What a sample says of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The positions the run takes, and what they are (`cases`, `indexes`).
    pub positions: u64,
    pub unit: &'static str,
    /// Positions timed.
    pub sampled: u64,
    /// The run's time on its jobs, at the sample's rate.
    pub seconds: f64,
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: about {} (timed on a sample of {} spread over them)",
            self.positions,
            self.unit,
            crate::text::duration(self.seconds),
            self.sampled
        )
    }
}

/// The sample's bounds: this long at most (past its first batch), and
/// this many batches at most.
const SAMPLE_TIME: Duration = Duration::from_millis(500);
const SAMPLE_BATCHES: u64 = 256;

/// The `i`th number of the van der Corput sequence in base 2, in [0, 1):
/// each prefix of the sequence is spread evenly over the interval, so a
/// sample cut short by its time is still spread over the whole run.
fn spread(i: u64) -> f64 {
    i.reverse_bits() as f64 / 2f64.powi(64)
}

/// Times a sample of the run `plan` describes over `source`: `None` unless
/// the source has an end of its own (an enumeration: `verify`,
/// `--exhaustive`), and for a run of one case (`--case`). Stops early, with what it timed, on a signal.
pub fn estimate<S: CaseSource + ?Sized, K: Check<S::Case>>(
    plan: &Plan,
    source: &S,
    check: &K,
) -> Option<Estimate> {
    // Only a source with an end of its own (an enumeration): a campaign's
    // sample would run a user's generator and write its dumps.
    source.positions()?;
    let total = crate::driver::total_positions(plan, source)?;
    if plan.only.is_some() || total == 0 {
        return None;
    }
    let batch = check.batch().max(1);
    let mut start = Instant::now();
    let (mut sampled, mut timed) = (0, 0);
    let mut made = Vec::new();
    for i in 0..SAMPLE_BATCHES + 1 {
        if (i > 1 && start.elapsed() >= SAMPLE_TIME) || sampled >= total {
            break;
        }
        // The first batch warms up what every job builds once (footholds'
        // 16 MiB table, checkers' explored layers): not timed, as the run
        // pays it once and not per case. (It made footholds' night scope
        // read 27 s for a 3.3 s run.)
        if i == 1 {
            start = Instant::now();
            timed = 0;
        }
        if lockstep_process::interrupted() {
            return None;
        }
        let from = ((spread(i) * total as f64) as u64).min(total - 1);
        let to = from.saturating_add(batch).min(total);
        made.clear();
        source.cases(from..to, &mut made);
        let cases: Vec<(Address, S::Case)> = made
            .drain(..)
            .filter_map(|(p, made)| match made {
                Made::Case(case) => Some((source.address(p), case)),
                Made::Nothing | Made::Problem(_) => None,
            })
            .collect();
        if !cases.is_empty() {
            check.sample(cases);
        }
        sampled += to - from;
        timed += to - from;
    }
    let per_position = start.elapsed().as_secs_f64() / timed.max(1) as f64;
    Some(Estimate {
        positions: total,
        unit: source.unit(),
        sampled,
        seconds: per_position * total as f64 / plan.jobs.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn the_spread_halves_each_gap_in_turn() {
        let first: Vec<f64> = (0..8).map(spread).collect();
        assert_eq!(first, [0.0, 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875]);
    }
}
