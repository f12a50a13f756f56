//! `lockstep verify`'s rate against the work it cannot avoid: the first
//! cases of a puzzle's levels (every case, no symmetry, up to its night
//! size) through a one-job verify, against the core and the reference run
//! alone on the very same cases. What is left is the enumeration's own
//! cost: decoding each index, the limits, the certificate's digest, the
//! rule branches each case reaches.
//!
//! Each round runs both sides, first one then the other by turns, and the
//! ratio is taken per round; the median of the rounds is reported.
//!
//! [`scope_share`] measures verify as it runs by default: the CI scope's
//! levels whole, one case of each symmetry class, its cases counted with
//! their classes' sizes, against core and reference on every case of those
//! levels. That is the figure a user's run sees; [`verify_share`] is the
//! cost per case checked, which symmetry does not hide.

use crate::campaign::{run_campaign, CampaignOptions};
use crate::enumerated::Enumerated;
use crate::puzzle::{reference_attempt, run_core, CaseLimits, Counting, Puzzle, Verifiable};
use crate::shrink::Sideways;
use lockstep_core::Model;
use lockstep_search::{CaseSource, Enumeration, Made, Plan};
use std::hint::black_box;
use std::time::Instant;

/// Verify's cases per second as a share of core plus reference's on the
/// same cases (1.0: no cost of its own), the median over `rounds`: the
/// first coordinates of the levels that hold `cases` valid cases (skipping
/// the coordinates that make none is verify's own cost too).
pub fn verify_share<P: Verifiable + Sideways + Counting>(
    cases: usize,
    rounds: usize,
    reset_caches: fn(),
) -> f64 {
    let whole = levels(P::LEVELS.night, false);
    let (_, positions) = first_cases::<P>(&whole, cases);
    let options = CampaignOptions {
        plan: Plan {
            max_cases: Some(positions),
            ..whole
        },
        // Verify counts every case's rule branches (its closing line
        // says how many it reached): its cost is verify's.
        stats: true,
        limits: CaseLimits::Original,
    };
    against_alone::<P>(rounds, (&whole, positions), reset_caches, || {
        let outcome = run_campaign::<P>(&options);
        (outcome.tally.cases, outcome.elapsed.as_secs_f64())
    })
    .share
}

/// `lockstep verify --scope ci` of one puzzle as it runs by default, beside
/// core and reference on every case of the same levels ([`scope_share`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ScopeShare {
    /// The levels' cases, and the cases verify checked (one a class).
    pub cases: u64,
    pub classes: u64,
    /// Verify's cases per second (each class counted with its size).
    pub verify_per_second: f64,
    /// Core plus reference's, each case solved by both.
    pub alone_per_second: f64,
    /// The median over rounds of verify's rate over theirs.
    pub share: f64,
}

/// Verify over the CI scope's levels whole, one job, with symmetry where
/// the puzzle has it, against core and reference on every case of the
/// levels (decoded a chunk at a time with the clock stopped); the median
/// of `rounds`.
pub fn scope_share<P: Verifiable + Sideways + Counting>(
    rounds: usize,
    reset_caches: fn(),
) -> ScopeShare {
    let every = levels(P::LEVELS.ci, false);
    let end = Enumerated::<P>::new(&every, P::LEVELS, CaseLimits::Original)
        .positions()
        .unwrap_or(0);
    let options = CampaignOptions {
        plan: levels(P::LEVELS.ci, true),
        // Verify counts every case's rule branches (its closing line
        // says how many it reached): its cost is verify's.
        stats: true,
        limits: CaseLimits::Original,
    };
    let (mut covered, mut classes) = (0, 0);
    let rates = against_alone::<P>(rounds, (&every, end), reset_caches, || {
        let outcome = run_campaign::<P>(&options);
        covered = outcome.levels.iter().map(|l| l.cases).sum();
        classes = outcome.levels.iter().map(|l| l.classes).sum();
        (covered, outcome.elapsed.as_secs_f64())
    });
    ScopeShare {
        cases: covered,
        classes,
        verify_per_second: rates.verify,
        alone_per_second: rates.alone,
        share: rates.share,
    }
}

/// One job's plan of every level from 1 to `up_to`.
fn levels(up_to: u32, symmetry: bool) -> Plan {
    Plan {
        enumerate: Some(Enumeration {
            from: 1,
            up_to,
            symmetry,
            start: 0,
        }),
        max_cases: None,
        ..Plan::cases(0, 0, 1, crate::shrink::DIFFERENTIAL_BUDGET)
    }
}

/// The first `limit` valid cases of `plan`'s levels (within the original
/// limits), and the position after the last of them.
fn first_cases<P: Puzzle>(plan: &Plan, limit: usize) -> (Vec<P::Case>, u64) {
    let source = Enumerated::<P>::new(plan, P::LEVELS, CaseLimits::Original);
    let end = source.positions().unwrap_or(0);
    let (mut made, mut kept, mut after) = (Vec::new(), Vec::new(), 0);
    let mut from = 0;
    while kept.len() < limit && from < end {
        let to = (from + 4096).min(end);
        source.cases(from..to, &mut made);
        for (position, m) in made.drain(..) {
            if let Made::Case((case, _)) = m {
                if kept.len() < limit {
                    kept.push(case);
                    after = position + 1;
                }
            }
        }
        from = to;
    }
    if kept.len() < limit {
        after = end;
    }
    (kept, after)
}

/// Positions decoded at once for core and reference alone.
const CHUNK: u64 = 4096;

/// Medians of [`against_alone`]: verify's cases per second, core plus
/// reference's, and the per-round share of the first in the second.
struct Rates {
    verify: f64,
    alone: f64,
    share: f64,
}

/// Per round, `verify` (returning the cases it covered and its seconds)
/// and core plus reference solving the cases of `plan` before position
/// `end` one after the other, first one then the other by turns, each
/// after the puzzle's caches are reset.
///
/// The cases are decoded a chunk at a time, each chunk timed alone: all of
/// them at once held gigabytes (checkers' 8 million cases of the CI scope)
/// beside the verify rounds, and timed core and reference on cases made
/// long before, where verify checks each case soon after it is made.
fn against_alone<P: Puzzle>(
    rounds: usize,
    (plan, end): (&Plan, u64),
    reset_caches: fn(),
    mut verify: impl FnMut() -> (u64, f64),
) -> Rates {
    let mut verify = || {
        reset_caches();
        verify()
    };
    let source = Enumerated::<P>::new(plan, P::LEVELS, CaseLimits::Original);
    let alone = || {
        reset_caches();
        let (mut made, mut cases, mut seconds, mut count) = (Vec::new(), Vec::new(), 0.0, 0usize);
        let mut from = 0;
        while from < end {
            let to = (from + CHUNK).min(end);
            source.cases(from..to, &mut made);
            cases.extend(made.drain(..).filter_map(|(_, m)| match m {
                Made::Case((case, _)) => Some(case),
                _ => None,
            }));
            let start = Instant::now();
            for case in &cases {
                black_box(run_core::<P>(black_box(case), P::Case::solve));
                black_box(reference_attempt::<P>(black_box(case), None));
            }
            seconds += start.elapsed().as_secs_f64();
            count += cases.len();
            cases.clear();
            from = to;
        }
        (count, seconds)
    };
    let (mut verify_rates, mut alone_rates, mut shares) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds.max(1) {
        let ((covered, verify_time), (cases, alone_time)) = if round % 2 == 0 {
            let v = verify();
            (v, alone())
        } else {
            let a = alone();
            (verify(), a)
        };
        let verify_rate = covered as f64 / verify_time.max(1e-9);
        let alone_rate = cases as f64 / alone_time.max(1e-9);
        verify_rates.push(verify_rate);
        alone_rates.push(alone_rate);
        shares.push(verify_rate / alone_rate.max(1e-9));
    }
    Rates {
        verify: super::median(&mut verify_rates),
        alone: super::median(&mut alone_rates),
        share: super::median(&mut shares),
    }
}

#[cfg(test)]
mod tests;
