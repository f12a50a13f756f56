//! The harness's own overhead: what a one-job campaign (`lockstep fuzz --jobs
//! 1`) spends per case beyond generating the case, running the core and
//! running the reference, each of the three timed alone over the very cases
//! the campaign runs.
//!
//! The parts are counted once. A generator that plays its case through the
//! reference hands the reference's result over
//! ([`crate::puzzle::Puzzle::generate`]), so the generation pass
//! already holds that reference work, and the reference pass then runs only on
//! the cases without a handed-over result, as the campaign does. What remains
//! of the campaign's time is the harness: batching, catching panics, the
//! verdict, the counters, the one-in-128 audit of a handed-over result.
//!
//! The parts are timed in the campaign's own shape (batches of 32: generate,
//! core, reference), so each finds its caches as the campaign leaves them.
//! Each round runs the campaign and the parts one after the other, and the
//! overhead is taken per round, then the median over rounds is reported: on a
//! shared machine a slow moment then hits one round, not one side of the sum
//! (an earlier reading, the campaign's rate against rates measured in
//! separate loops, read 6%, 32% and 100% in three runs of one command).

use crate::campaign::{run_campaign, CampaignOptions, BATCH};
use crate::generate::generate_case_with_reference;
use crate::puzzle::{
    reference_attempt, run_core, CaseLimits, CaseWithReference, Counting, Puzzle, Verifiable,
};
use crate::shrink::Sideways;
use lockstep_core::Model;
use lockstep_search::seeds::CASE_BYTES;
use lockstep_search::Plan;
use std::hint::black_box;
use std::time::Instant;

/// Medians over rounds of the four passes of [`overhead`].
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Overhead {
    /// Cases per second of the one-job campaign.
    pub campaign_per_second: f64,
    /// Cases per second of the generator alone (with any reference work it
    /// does to hand the result over).
    pub generate_per_second: f64,
    /// The campaign's time beyond generation + core + reference, as a share
    /// of that sum: 0.05 is 5% more. Median of the rounds' shares.
    pub overhead: f64,
}

/// Measures [`Overhead`] over cases `(seed, job 0, 0..indices)` under wide
/// limits, the cases `lockstep fuzz --seed SEED --jobs 1` starts with.
pub fn overhead<P: Verifiable + Sideways + Counting>(
    seed: u64,
    indices: u64,
    rounds: usize,
    reset_caches: fn(),
) -> Overhead {
    let (mut campaign_rates, mut generate_rates, mut shares) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds.max(1) {
        // The campaign first in odd rounds, the parts first in even ones: a
        // drift in the machine's speed within a round favours neither side.
        let (campaign, parts) = if round % 2 == 1 {
            let campaign = campaign_time::<P>(seed, indices, reset_caches);
            (campaign, parts_time::<P>(seed, indices, reset_caches))
        } else {
            let parts = parts_time::<P>(seed, indices, reset_caches);
            (campaign_time::<P>(seed, indices, reset_caches), parts)
        };
        let sum = parts.generate + parts.core + parts.reference;
        campaign_rates.push(campaign.cases / campaign.seconds.max(1e-9));
        generate_rates.push(parts.cases / parts.generate.max(1e-9));
        shares.push(campaign.seconds / sum.max(1e-9) - 1.0);
    }
    Overhead {
        campaign_per_second: super::median(&mut campaign_rates),
        generate_per_second: super::median(&mut generate_rates),
        overhead: super::median(&mut shares),
    }
}

/// A one-job campaign's wall time and cases.
struct Timed {
    seconds: f64,
    cases: f64,
}

fn campaign_time<P: Verifiable + Sideways + Counting>(
    seed: u64,
    indices: u64,
    reset_caches: fn(),
) -> Timed {
    // The campaign's one job runs on this thread, its caches cleared first.
    reset_caches();
    let report = run_campaign::<P>(&CampaignOptions {
        plan: Plan::cases(seed, indices, 1, crate::shrink::DIFFERENTIAL_BUDGET),
        stats: false,
        limits: CaseLimits::Wide,
    });
    Timed {
        seconds: report.elapsed.as_secs_f64(),
        cases: report.tally.cases as f64,
    }
}

/// The three parts' times over the campaign's cases.
struct Parts {
    generate: f64,
    core: f64,
    reference: f64,
    cases: f64,
}

/// Generation, core and reference, each timed alone, over the campaign's
/// cases in the campaign's own shape: batches of [`BATCH`], each generated,
/// then run by the core, then by the reference, so that each part finds its
/// caches as warm as it finds them in the campaign (whole passes over 2,000
/// cases made the parts slower than the campaign itself: checkers -14%).
fn parts_time<P: Puzzle>(seed: u64, indices: u64, reset_caches: fn()) -> Parts {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut parts = Parts {
        generate: 0.0,
        core: 0.0,
        reference: 0.0,
        cases: 0.0,
    };
    reset_caches();
    let mut batch: Vec<CaseWithReference<P>> = Vec::with_capacity(BATCH as usize);
    for first in (0..indices).step_by(BATCH as usize) {
        let start = Instant::now();
        batch.extend((first..indices.min(first + BATCH)).filter_map(|i| {
            generate_case_with_reference::<P>(seed, 0, i, &mut buf, CaseLimits::Wide)
        }));
        parts.generate += start.elapsed().as_secs_f64();
        parts.cases += batch.len() as f64;

        let start = Instant::now();
        for (case, _) in &batch {
            black_box(run_core::<P>(black_box(case), P::Case::solve));
        }
        parts.core += start.elapsed().as_secs_f64();

        // By value, as the campaign takes them: there too each case is
        // dropped after its reference run. A handed-over result costs only
        // its move here; its reference work is in `generate`.
        let start = Instant::now();
        for (case, handed_over) in batch.drain(..) {
            black_box(reference_attempt::<P>(black_box(&case), handed_over));
        }
        parts.reference += start.elapsed().as_secs_f64();
    }
    parts
}
