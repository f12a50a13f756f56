//! The in-process differential fuzzer behind `lockstep fuzz` (stable Rust, no
//! libFuzzer): generate, check, count; on the first disagreement, stop, shrink it
//! and report it.
//!
//! Jobs are threads. Job `j` checks cases `(seed, j, 0)`, `(seed, j, 1)`, ... (see
//! [`crate::seeds`]), so a campaign is reproducible from its seed and job count, and a
//! finding from its coordinates. Counters are kept per job and flushed to shared
//! atomics every few dozen cases, so the jobs do not contend on every case.

use crate::corpus::Origin;
pub use crate::generate::{generate_case, generate_case_with_reference, generate_case_within};
use crate::puzzle::{
    reference_attempt, run_core, Attempt, Attempts, CaseLimits, CaseWithReference, Puzzle,
    ReferenceRun, Verdict,
};
use crate::seeds::CASE_BYTES;
use crate::shrink::Shrunk;
use lockstep_core::Model;
use lockstep_reference::Naive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod finding;

pub use finding::*;

#[derive(Debug, Clone)]
pub struct CampaignOptions {
    pub seconds: f64,
    pub seed: u64,
    pub jobs: usize,
    /// Stop after this many cases in all, over every machine of a sharded
    /// campaign (shared evenly by all their jobs).
    pub max_cases: Option<u64>,
    /// Show live progress on stderr (a spinner on a terminal, a line every
    /// ten seconds otherwise).
    pub progress: bool,
    /// Count how many cases reach each of the puzzle's rule branches (costs one
    /// more core run per case).
    pub stats: bool,
    /// Which cases the generator makes.
    pub limits: CaseLimits,
    /// This machine's share of a campaign spread over several.
    pub shard: Shard,
    /// Go on after a disagreement: every one is counted under its bug
    /// signature, and the first of each signature is shrunk.
    pub keep_going: bool,
}

/// Machine `index` of `count` (0-based) in one campaign spread over
/// machines, each running `jobs` jobs: machine K runs the global jobs
/// `K * jobs .. (K + 1) * jobs`, so the machines together run exactly the
/// cases of one unsharded run with `count * jobs` jobs, none twice, and a
/// finding's (seed, job, index) names the same case on every machine. A batch
/// system's array index (a GitHub Actions matrix, a Kubernetes indexed Job, a
/// Slurm array) is the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole campaign on one machine.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The global jobs this machine runs when each machine runs `jobs`.
    pub fn jobs(self, jobs: u64) -> std::ops::Range<u64> {
        self.index * jobs..(self.index + 1) * jobs
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with `0 <= K < N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("expected K/N (machine K of N, from 0), found {text:?}"))?;
        let number = |part: &str, what: &str| {
            part.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} in {text:?} is not a whole number"))
        };
        let (index, count) = (number(index, "K")?, number(count, "N")?);
        if count == 0 || index >= count {
            return Err(format!(
                "machine {index} of {count}: K counts from 0 and must be below N (N at least 1)"
            ));
        }
        Ok(Shard { index, count })
    }
}

crate::jobs::counters! {
    /// Counts of a campaign.
    pub struct Tally / SharedTally {
        pub cases,
        pub agree,
        pub diverge,
        pub timeout,
    }
}

#[derive(Debug, Clone)]
pub struct CampaignReport<C> {
    pub tally: Tally,
    pub elapsed: Duration,
    /// The first disagreement: (job, case index) and what it shrank to.
    pub finding: Option<(u64, u64, Finding<C>)>,
    /// Every bug found, by signature, in the order first found: one without
    /// `keep_going` (the first disagreement's), every one with it.
    pub bugs: Vec<Bug<C>>,
    /// With `stats`: each rule branch and the number of cases that reached it.
    pub rule_branches: Vec<(&'static str, u64)>,
    /// The campaign over time, a sample a second ([`Sample`]).
    pub series: Vec<Sample>,
}

/// One bug of a campaign: the disagreements of one signature.
#[derive(Debug, Clone)]
pub struct Bug<C> {
    /// The signature of the first disagreement as found (the shrunk case's
    /// is the finding's own).
    pub signature: String,
    /// Disagreements of this signature.
    pub count: u64,
    /// Where the first one was: (job, case index).
    pub first: (u64, u64),
    /// When, from the start of the campaign.
    pub after: Duration,
    /// The first one, shrunk and explained.
    pub finding: Finding<C>,
}

/// The campaign at one moment: what a report plots over time.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Sample {
    pub seconds: f64,
    pub cases: u64,
    pub diverge: u64,
    pub timeout: u64,
    /// Rule branches reached so far (with `stats`; else 0).
    pub branches: u32,
    /// Code regions reached so far, in a build for coverage; else 0.
    pub regions: u32,
}

/// The first disagreement of one signature, as found, and how many.
struct RawBug<C> {
    count: u64,
    first: (u64, u64),
    after: Duration,
    case: C,
}

pub(crate) const BATCH: u64 = 32;

/// One case in this many has the reference's result from its generator
/// checked against a run of the reference ([`audit_generated`]).
const AUDIT_EVERY: u64 = 128;

/// Holds a generator that handed over the reference's result
/// ([`Puzzle::generate_with_reference`]) to it: the result must be the
/// reference's own on the case, or every verdict built on it is worthless. The
/// tests check this on thousands of cases; a campaign checks a sample, and
/// stops with a report of the harness's own bug rather than go on.
fn audit_generated<P: Puzzle>(case: &P::Case, generated: &Option<ReferenceRun<P::Answer>>) {
    let Some(generated) = generated else {
        return;
    };
    let fresh = case.solve_naively(&mut lockstep_reference::Fuel::new(P::FUEL));
    assert!(
        &fresh == generated,
        "lockstep bug: the {} generator's reference result differs from the \
         reference's own on {}\ngenerated: {generated:?}\nreference: {fresh:?}\ninput:\n{}",
        P::NAME,
        P::describe(case),
        case.write_input()
    );
}

/// A sequential campaign with any predicate: searches cases `(seed, 0, i)` for `i`
/// in `indices` for the first on which `fails` holds, and shrinks it under the same
/// predicate. Returns the index found and the shrunk case. (The tests hunt their
/// deliberately broken solvers with it; a user can hunt any property.)
pub fn find_and_shrink<P: Puzzle>(
    seed: u64,
    indices: std::ops::Range<u64>,
    mut fails: impl FnMut(&P::Case) -> bool,
) -> Option<(u64, Shrunk<P::Case>)> {
    let mut buf = vec![0u8; CASE_BYTES];
    let (index, case) = indices.into_iter().find_map(|i| {
        let case = generate_case::<P>(seed, 0, i, &mut buf)?;
        fails(&case).then_some((i, case))
    })?;
    Some((
        index,
        crate::shrink::shrink::<P>(case, fails, crate::shrink::DEFAULT_MAX_ATTEMPTS),
    ))
}

pub use crate::puzzle::Solver;

/// Runs a campaign for one puzzle against its core.
pub fn run_campaign<P: Puzzle>(options: &CampaignOptions) -> CampaignReport<P::Case> {
    run_campaign_with::<P>(options, P::Case::solve)
}

/// Runs a campaign for one puzzle against `core`.
pub fn run_campaign_with<P: Puzzle>(
    options: &CampaignOptions,
    core: Solver<P>,
) -> CampaignReport<P::Case> {
    let solver = core;
    let jobs = options.jobs.max(1) as u64;
    // Global job numbers: this machine's jobs among all machines' (`Shard`).
    let first_job = options.shard.jobs(jobs).start;
    let all_jobs = jobs * options.shard.count;
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let per_job_cap = options.max_cases.map(|m| m.div_ceil(all_jobs));
    let shared = SharedTally::default();
    let stop = AtomicBool::new(false);
    let first: Mutex<Option<(u64, u64, P::Case)>> = Mutex::new(None);
    let raw_bugs: Mutex<Vec<(String, RawBug<P::Case>)>> = Mutex::new(Vec::new());
    let feature_totals = Mutex::new(vec![0u64; P::RULE_BRANCHES.len()]);
    let reached = std::sync::atomic::AtomicU64::new(0);
    let series: Mutex<Vec<Sample>> = Mutex::new(Vec::new());
    let sample = || {
        let t = shared.get();
        Sample {
            seconds: start.elapsed().as_secs_f64(),
            cases: t.cases,
            diverge: t.diverge,
            timeout: t.timeout,
            branches: reached.load(Ordering::Relaxed).count_ones(),
            regions: crate::coverage::regions_reached(),
        }
    };

    // One job's loop over its own stream of cases (see `crate::jobs::run_jobs`).
    let job_loop = |local_job: u64| {
        let job = first_job + local_job;
        let mut buf = vec![0u8; CASE_BYTES];
        let mut local = Tally::default();
        let mut features = vec![0u64; P::RULE_BRANCHES.len()];
        let mut index = 0u64;
        let mut next_sample = 0.0;
        // A batch of cases is generated, then solved by the core, then by the
        // reference: each phase's code and data stay hot in cache, where one
        // case at a time through all three evicted each other's (footholds'
        // core table against the reference's allocations).
        let mut batch: Vec<(u64, CaseWithReference<P>)> = Vec::with_capacity(BATCH as usize);
        let mut cores: Vec<Attempt<P::Answer>> = Vec::with_capacity(BATCH as usize);
        loop {
            shared.add(&mut local);
            // Job 0 keeps the time series, a sample a second.
            if local_job == 0 && start.elapsed().as_secs_f64() >= next_sample {
                series
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(sample());
                next_sample += 1.0;
            }
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let end = per_job_cap.map_or(index + BATCH, |cap| cap.min(index + BATCH));
            if index >= end {
                break;
            }
            batch.clear();
            for this in index..end {
                if let Some(generated) = generate_case_with_reference::<P>(
                    options.seed,
                    job,
                    this,
                    &mut buf,
                    options.limits,
                ) {
                    batch.push((this, generated));
                }
            }
            index = end;
            cores.clear();
            cores.extend(
                batch
                    .iter()
                    .map(|(_, (case, _))| run_core::<P>(case, solver)),
            );
            for ((this, (case, generated)), core) in batch.drain(..).zip(cores.drain(..)) {
                local.cases += 1;
                if options.stats {
                    let bits = P::rule_branches(&case);
                    reached.fetch_or(bits, Ordering::Relaxed);
                    for (i, count) in features.iter_mut().enumerate() {
                        *count += bits >> i & 1;
                    }
                }
                if this % AUDIT_EVERY == 0 {
                    audit_generated::<P>(&case, &generated);
                }
                let reference = reference_attempt::<P>(&case, generated);
                match (Attempts { core, reference }).into_verdict() {
                    Verdict::Agree => local.agree += 1,
                    Verdict::Timeout => local.timeout += 1,
                    Verdict::Diverge {
                        core: core_side,
                        reference,
                    } => {
                        local.diverge += 1;
                        if options.keep_going {
                            let signature = crate::signature::signature_of::<P>(
                                &case, &core_side, &reference, solver,
                            );
                            let mut bugs = raw_bugs.lock().unwrap_or_else(|e| e.into_inner());
                            match bugs.iter_mut().find(|(s, _)| *s == signature) {
                                Some((_, bug)) => bug.count += 1,
                                None => bugs.push((
                                    signature,
                                    RawBug {
                                        count: 1,
                                        first: (job, this),
                                        after: start.elapsed(),
                                        case,
                                    },
                                )),
                            }
                            continue;
                        }
                        let mut slot = first.lock().unwrap_or_else(|e| e.into_inner());
                        if slot.is_none() {
                            *slot = Some((job, this, case));
                        }
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        shared.add(&mut local);
        let mut totals = feature_totals.lock().unwrap_or_else(|e| e.into_inner());
        for (total, count) in totals.iter_mut().zip(&features) {
            *total += count;
        }
    };
    let progress = |secs: f64| {
        let t = shared.get();
        format!(
            "{}: {} cases, {:.0} cases/s, {} disagreements, {} timeouts, {secs:.0} s",
            P::NAME,
            t.cases,
            t.cases as f64 / secs.max(1e-9),
            t.diverge,
            t.timeout,
        )
    };
    let elapsed = crate::jobs::run_jobs(
        jobs as usize,
        job_loop,
        options
            .progress
            .then_some(&progress as crate::jobs::ProgressText<'_>),
    );
    let tally = shared.get();
    let mut series = series.into_inner().unwrap_or_else(|e| e.into_inner());
    series.push(sample());
    let investigated = |job: u64, index: u64, case: P::Case| {
        let provenance = format!("lockstep fuzz seed {} job {job} case {index}", options.seed);
        investigate::<P>(solver, case, Origin::Fuzz, &provenance, options.limits)
    };
    let first = first.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut bugs: Vec<Bug<P::Case>> = Vec::new();
    let finding = first.map(|(job, index, case)| {
        let finding = investigated(job, index, case);
        bugs.push(Bug {
            signature: finding.signature.clone(),
            count: tally.diverge,
            first: (job, index),
            after: elapsed,
            finding: finding.clone(),
        });
        (job, index, finding)
    });
    let mut raw = raw_bugs.into_inner().unwrap_or_else(|e| e.into_inner());
    raw.sort_by_key(|(_, bug)| bug.after);
    for (signature, bug) in raw {
        let finding = investigated(bug.first.0, bug.first.1, bug.case);
        bugs.push(Bug {
            signature,
            count: bug.count,
            first: bug.first,
            after: bug.after,
            finding,
        });
    }
    let finding = finding.or_else(|| {
        bugs.first()
            .map(|b| (b.first.0, b.first.1, b.finding.clone()))
    });
    let features = if options.stats {
        let totals = feature_totals
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        P::RULE_BRANCHES.iter().copied().zip(totals).collect()
    } else {
        Vec::new()
    };
    CampaignReport {
        tally,
        elapsed,
        finding,
        bugs,
        rule_branches: features,
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::Duel;

    /// The campaign's audit stops a run whose generator handed over a result
    /// that is not the reference's own, and lets a true one through.
    #[test]
    fn the_audit_catches_a_wrong_handed_over_result() {
        let mut buf = vec![0u8; CASE_BYTES];
        let (case, generated) = (0..200)
            .find_map(|i| {
                let (case, generated) =
                    generate_case_with_reference::<Duel>(1, 0, i, &mut buf, CaseLimits::Wide)?;
                Some((case, generated?))
            })
            .expect("a fifth of duel cases are games");
        audit_generated::<Duel>(&case, &Some(generated.clone()));
        let mut wrong = generated.expect("within fuel");
        wrong.digest ^= 1;
        let caught = std::panic::catch_unwind(|| audit_generated::<Duel>(&case, &Some(Ok(wrong))));
        let message = caught.expect_err("a wrong result passed the audit");
        let text = message
            .downcast_ref::<String>()
            .expect("a formatted message");
        assert!(
            text.starts_with("lockstep bug: the duel generator"),
            "{text}"
        );
    }
}
