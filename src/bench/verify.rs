//! `lockstep verify`'s rate against the work it cannot avoid: the first
//! cases of a puzzle's levels (every case, no symmetry, up to its night
//! size) through a one-job verify, against the core and the reference run
//! alone on the very same cases. What is left is the enumeration's own
//! cost: decoding each index, the limits, the certificate's digest.
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
use crate::puzzle::{reference_attempt, run_core, CaseLimits, CaseWithReference, Puzzle};
use crate::search::{CaseSource, Enumerated, Enumeration, Made, Plan};
use lockstep_core::Model;
use std::hint::black_box;
use std::time::Instant;

/// Verify's cases per second as a share of core plus reference's on the
/// same cases (1.0: no cost of its own), the median over `rounds`: the
/// first coordinates of the levels that hold `cases` valid cases (skipping
/// the coordinates that make none is verify's own cost too).
pub fn verify_share<P: Puzzle>(cases: usize, rounds: usize) -> f64 {
    let whole = Plan {
        enumerate: Some(Enumeration {
            from: 1,
            up_to: P::LEVELS.night,
            symmetry: false,
        }),
        ..Plan::cases(0, 0, 1, crate::shrink::DIFFERENTIAL_BUDGET)
    };
    let source = Enumerated::<P>::new(&whole, P::LEVELS, CaseLimits::Original);
    let end = source.positions().unwrap_or(0);
    let (mut made, mut kept, mut positions) = (Vec::new(), Vec::new(), 0);
    while kept.len() < cases && positions < end {
        let next = (positions + 4096).min(end);
        source.cases(positions..next, &mut made);
        for (position, m) in made.drain(..) {
            if let Made::Case(case) = m {
                if kept.len() < cases {
                    kept.push(case);
                    positions = position + 1;
                }
            }
        }
        if kept.len() < cases {
            positions = next;
        }
    }
    let cases: Vec<CaseWithReference<P>> = kept;
    let options = CampaignOptions {
        plan: Plan {
            max_cases: Some(positions),
            ..whole
        },
        stats: false,
        limits: CaseLimits::Original,
    };
    let mut shares = Vec::new();
    for round in 0..rounds.max(1) {
        let verify = || {
            P::reset_caches();
            let outcome = run_campaign::<P>(&options);
            (outcome.tally.cases as f64, outcome.elapsed.as_secs_f64())
        };
        let alone = || {
            P::reset_caches();
            let start = Instant::now();
            for (case, _) in &cases {
                black_box(run_core::<P>(black_box(case), P::Case::solve));
                black_box(reference_attempt::<P>(black_box(case), None));
            }
            start.elapsed().as_secs_f64()
        };
        let ((checked, verify_time), alone_time) = if round % 2 == 0 {
            let v = verify();
            (v, alone())
        } else {
            let a = alone();
            (verify(), a)
        };
        let verify_rate = checked / verify_time.max(1e-9);
        let alone_rate = cases.len() as f64 / alone_time.max(1e-9);
        shares.push(verify_rate / alone_rate.max(1e-9));
    }
    super::median(&mut shares)
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
/// levels (decoded before the clock starts); the median of `rounds`.
pub fn scope_share<P: Puzzle>(rounds: usize) -> ScopeShare {
    let scope = |symmetry| Plan {
        enumerate: Some(Enumeration {
            from: 1,
            up_to: P::LEVELS.ci,
            symmetry,
        }),
        max_cases: None,
        ..Plan::cases(0, 0, 1, crate::shrink::DIFFERENTIAL_BUDGET)
    };
    let every = Enumerated::<P>::new(&scope(false), P::LEVELS, CaseLimits::Original);
    let (mut made, mut cases) = (Vec::new(), Vec::new());
    let end = every.positions().unwrap_or(0);
    let mut from = 0;
    while from < end {
        let to = (from + 4096).min(end);
        every.cases(from..to, &mut made);
        cases.extend(made.drain(..).filter_map(|(_, m)| match m {
            Made::Case((case, _)) => Some(case),
            _ => None,
        }));
        from = to;
    }
    let options = CampaignOptions {
        plan: scope(true),
        stats: false,
        limits: CaseLimits::Original,
    };
    let (mut shares, mut verify_rates, mut alone_rates) = (Vec::new(), Vec::new(), Vec::new());
    let (mut covered, mut classes) = (0, 0);
    for round in 0..rounds.max(1) {
        let verify = || {
            P::reset_caches();
            let outcome = run_campaign::<P>(&options);
            let cases: u64 = outcome.levels.iter().map(|l| l.cases).sum();
            let classes: u64 = outcome.levels.iter().map(|l| l.classes).sum();
            (cases, classes, outcome.elapsed.as_secs_f64())
        };
        let alone = || {
            P::reset_caches();
            let start = Instant::now();
            for case in &cases {
                black_box(run_core::<P>(black_box(case), P::Case::solve));
                black_box(reference_attempt::<P>(black_box(case), None));
            }
            start.elapsed().as_secs_f64()
        };
        let ((checked, checked_classes, verify_time), alone_time) = if round % 2 == 0 {
            let v = verify();
            (v, alone())
        } else {
            let a = alone();
            (verify(), a)
        };
        (covered, classes) = (checked, checked_classes);
        let verify_rate = checked as f64 / verify_time.max(1e-9);
        let alone_rate = cases.len() as f64 / alone_time.max(1e-9);
        verify_rates.push(verify_rate);
        alone_rates.push(alone_rate);
        shares.push(verify_rate / alone_rate.max(1e-9));
    }
    debug_assert_eq!(covered, cases.len() as u64, "verify covers every case");
    ScopeShare {
        cases: covered,
        classes,
        verify_per_second: super::median(&mut verify_rates),
        alone_per_second: super::median(&mut alone_rates),
        share: super::median(&mut shares),
    }
}
