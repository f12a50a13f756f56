//! The in-process differential fuzzer behind `lockstep fuzz` (stable Rust, no
//! libFuzzer): the search driver ([`lockstep_search`]) over the seeded
//! generator's cases, each checked by core against reference; each
//! disagreement kept is shrunk, explained and signed (`finding.rs`).
//!
//! Case `(seed, job, index)` comes from [`lockstep_search::seeds`], so a campaign is
//! reproducible from its seed and job count, and a finding from its
//! address (`job 0 case 32`).

pub use crate::generate::{generate_case, generate_case_with_reference, generate_case_within};
use crate::puzzle::{
    reference_attempt, Agreement, Attempt, Attempts, CaseLimits, CaseWithReference, Counting,
    Puzzle, ReferenceRun, Verifiable,
};
use crate::shrink::Sideways;
use lockstep_core::Model;
use lockstep_reference::Naive;
use lockstep_search::{Address, Check, Checked, Counts, Plan};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

mod certificate;
mod finding;
mod images;
pub mod recorded;

pub use certificate::{
    judged, read_back, CaseReader, LevelCertificate, JUDGE_ALL_BELOW, JUDGE_EVERY, READ_BACK_EVERY,
};
pub use finding::*;

#[derive(Debug, Clone)]
pub struct CampaignOptions {
    /// The search: seed, time, cases, jobs, shard, keep-going.
    pub plan: Plan,
    /// Count how many cases reach each of the puzzle's rule branches (costs one
    /// more core run per case).
    pub stats: bool,
    /// Which cases the generator makes.
    pub limits: CaseLimits,
}

#[derive(Debug, Clone)]
pub struct CampaignOutcome<C> {
    /// Cases checked: passed is agreed, failed disagreed, skipped the
    /// reference out of fuel.
    pub tally: Counts,
    pub elapsed: Duration,
    /// The first disagreement: where it was and what it shrank to.
    pub finding: Option<(Address, Finding<C>)>,
    /// Every bug found, by signature, in the order of the cases: one without
    /// `keep_going` (the first disagreement's), every one with it.
    pub bugs: Vec<Bug<C>>,
    /// With `stats`: each rule branch and the number of cases that reached it.
    pub rule_branches: Vec<(&'static str, u64)>,
    /// With `stats`, in an enumeration: each level's size and the checked
    /// cases of it that reached each branch (in the order of
    /// [`Puzzle::RULE_BRANCHES`]), smallest first.
    pub level_branches: Vec<(u32, Vec<u64>)>,
    /// The campaign over time, a sample a second ([`Sample`]).
    pub series: Vec<Sample>,
    /// In an enumeration, each level checked, smallest first.
    pub levels: Vec<LevelCertificate>,
}

/// One bug of a campaign: the disagreements of one signature.
#[derive(Debug, Clone)]
pub struct Bug<C> {
    /// The signature of the first disagreement as found (the shrunk case's
    /// is the finding's own).
    pub signature: String,
    /// Disagreements of this signature.
    pub count: u64,
    /// Where the first one was.
    pub first: Address,
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

/// Cases a job takes at once: generated, then solved by the core, then by
/// the reference, so that each phase's code and data stay hot in cache,
/// where one case at a time through all three evicted each other's
/// (footholds' core table against the reference's allocations).
pub(crate) const BATCH: u64 = 32;

/// One case in this many has the reference's result from its generator
/// checked against a run of the reference ([`audit_generated`]).
const AUDIT_EVERY: u64 = 128;

/// Holds a generator that handed over the reference's result
/// ([`Puzzle::generate`]) to it: the result must be the
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

pub use crate::puzzle::Solver;

/// A disagreement as the campaign found it: the case and both sides.
pub struct Disagreement<P: Puzzle> {
    case: P::Case,
    core: Attempt<P::Answer>,
    reference: Attempt<P::Answer>,
    /// The case is a symmetric image of the one at the failure's address,
    /// on which the two sides agree ([`Differential::images`]).
    image: bool,
}

/// The differential check: `solver` (the core, or a broken one in the
/// tests) against the reference on each case.
struct Differential<P: Puzzle> {
    solver: Solver<P>,
    stats: bool,
    /// The solver is the core's own ([`Model::solve`]), so that with `stats`
    /// a puzzle may answer and count its branches in one run
    /// ([`Counting::solve_counting`]); another solver (a planted bug, a test's)
    /// is run as it is and the branches counted apart.
    counting: bool,
    /// In an enumeration, the levels are certified: `Some(symmetry)`.
    certify: Option<bool>,
    /// How a certified case's judge-format input is read back.
    read: CaseReader<P>,
    /// The rule branches any case reached, a bit each.
    reached: AtomicU64,
    series: Mutex<Vec<Sample>>,
}

/// What each job of a campaign counts beside the driver: with `stats`, how
/// many cases reached each rule branch, in all and (in an enumeration) by
/// level; in an enumeration, the levels.
#[derive(Default)]
struct Branches(
    Vec<u64>,
    certificate::LevelTally,
    std::collections::BTreeMap<u32, Vec<u64>>,
);

/// Adds `other`'s counts to `total`, branch by branch.
fn add_counts(total: &mut Vec<u64>, other: &[u64]) {
    if total.len() < other.len() {
        total.resize(other.len(), 0);
    }
    for (total, count) in total.iter_mut().zip(other) {
        *total += count;
    }
}

/// Counts one case's rule branches (`bits`, one a branch) into `counts`.
fn count_bits(counts: &mut Vec<u64>, bits: u64, branches: usize) {
    counts.resize(branches.max(counts.len()), 0);
    // The set bits only: a case reaches a few of a puzzle's branches, and
    // verify counts every case it checks.
    let mut rest = bits;
    while rest != 0 {
        if let Some(count) = counts.get_mut(rest.trailing_zeros() as usize) {
            *count += 1;
        }
        rest &= rest - 1;
    }
}

impl lockstep_search::Tally for Branches {
    fn add(&mut self, other: Branches) {
        add_counts(&mut self.0, &other.0);
        self.1.merge(other.1);
        for (size, counts) in other.2 {
            add_counts(self.2.entry(size).or_default(), &counts);
        }
    }
}

impl<P: Counting> Differential<P> {
    /// The core's attempt at `case`, with its rule branches when they came
    /// from the same run ([`Counting::solve_counting`]).
    fn core(&self, case: &P::Case) -> (Attempt<P::Answer>, Option<u64>) {
        let counting = self.stats && self.counting;
        let run = crate::puzzle::run_caught(|| {
            match counting.then(|| P::solve_counting(case)).flatten() {
                Some((run, bits)) => (run, Some(bits)),
                None => ((self.solver)(case), None),
            }
        });
        match run {
            Ok((run, bits)) => (Attempt::Ran(run), bits),
            Err(message) => (Attempt::Panicked(message), None),
        }
    }
}

impl<P: Verifiable + Counting> Check<CaseWithReference<P>> for Differential<P> {
    type Found = Disagreement<P>;
    type Tally = Branches;
    fn batch(&self) -> u64 {
        BATCH
    }
    /// In-process: any number of cases a call. An enumeration's levels
    /// decode most indexes to no case (the duel's players at another
    /// distance, checkers' unpicked classes).
    const SPARSE_BATCHES: bool = true;
    const LISTS_FAILING: bool = false;

    /// The sample before a run is checked as any batch, and the branches it
    /// reached taken back: the run's own cases say what it reached, and
    /// when (the jobs have not started, so nothing else writes them).
    fn sample(&self, cases: Vec<(Address, CaseWithReference<P>)>) {
        let before = self.reached.load(Ordering::Relaxed);
        self.check(cases, &mut Branches::default(), &mut Vec::new());
        self.reached.store(before, Ordering::Relaxed);
    }

    fn check(
        &self,
        cases: Vec<(Address, CaseWithReference<P>)>,
        branches: &mut Branches,
        out: &mut Vec<Checked<Disagreement<P>>>,
    ) {
        let start = std::time::Instant::now();
        let share = cases.len().max(1) as u64;
        let cores: Vec<(Attempt<P::Answer>, Option<u64>)> =
            cases.iter().map(|(_, (case, _))| self.core(case)).collect();
        let mut sized = Vec::new();
        for ((address, (case, generated)), (core, counted)) in cases.into_iter().zip(cores) {
            if self.stats {
                // Some puzzles count their branches from core's own run:
                // a core that panics there (a mutant, a bug) must be the
                // check's disagreement below, not a crash of the run, so a
                // case whose count panics counts no branch.
                let bits = counted.unwrap_or_else(|| {
                    crate::puzzle::run_caught(|| P::rule_branches(&case)).unwrap_or(0)
                });
                self.reached.fetch_or(bits, Ordering::Relaxed);
                count_bits(&mut branches.0, bits, P::RULE_BRANCHES.len());
                if let Address::Sized { size, .. } = address {
                    let level = branches.2.entry(size).or_default();
                    count_bits(level, bits, P::RULE_BRANCHES.len());
                }
            }
            if matches!(address, Address::Stream { index, .. } if index % AUDIT_EVERY == 0) {
                audit_generated::<P>(&case, &generated);
            }
            let reference = reference_attempt::<P>(&case, generated);
            // The case's class: itself alone, or with the images a run
            // with symmetry counts on it.
            let weight = match self.certify {
                Some(true) => (P::LEVELS.least)(&case).unwrap_or(1),
                _ => 1,
            };
            // The pick's answer, that every other image must have; none to
            // keep for a class of one (most puzzles', the duel's long lines).
            let picked = match (&core, weight > 1) {
                (Attempt::Ran(run), true) => Some(run.answer.clone()),
                _ => None,
            };
            // The certificate's share of the case, taken before the
            // agreement takes the answers.
            let certified = match (self.certify, &address) {
                (Some(_), &Address::Sized { size, index }) => {
                    let hash = certificate::case_hash::<P>(&case, index, &core, self.read);
                    Some(((size, index, weight), hash))
                }
                _ => None,
            };
            let mut agreement = (Attempts { core, reference }).into_agreement();
            let (mut case, mut image) = (case, false);
            if let (Agreement::Agree, Some(answer)) = (&agreement, &picked) {
                if let Some(found) = self.images(&case, answer) {
                    (case, agreement, image) = (found.0, found.1, true);
                }
            }
            if let Some((coordinates, answer)) = certified {
                sized.push((coordinates, answer, certificate::CaseResult::of(&agreement)));
            }
            let checked = match agreement {
                Agreement::Agree => Checked::Pass,
                Agreement::Timeout => Checked::Skip,
                Agreement::Diverge { core, reference } => Checked::Fail(Disagreement {
                    case,
                    core,
                    reference,
                    image,
                }),
            };
            out.push(checked);
        }
        // The batch's time, shared evenly by its cases.
        let nanos = start.elapsed().as_nanos() as u64 / share;
        for (coordinates, answer, checked) in sized {
            branches.1.add(coordinates, answer, checked, nanos);
        }
    }

    /// A bug's signature ([`crate::signature`]): what the two sides
    /// disagree on, an open set of names.
    type Kind = String;

    fn kind(&self, found: &Disagreement<P>) -> String {
        crate::signature::signature_of::<P>(&found.case, &found.core, &found.reference, self.solver)
    }

    fn progress(&self, c: &Counts, secs: f64) -> String {
        format!(
            "{}: {} cases, {:.0} cases/s, {} disagreements, {} timeouts, {secs:.0} s",
            P::NAME,
            c.cases,
            c.cases as f64 / secs.max(1e-9),
            c.failed,
            c.skipped,
        )
    }

    fn tick(&self, c: &Counts, seconds: f64) {
        let sample = Sample {
            seconds,
            cases: c.cases,
            diverge: c.failed,
            timeout: c.skipped,
            branches: self.reached.load(Ordering::Relaxed).count_ones(),
            regions: crate::coverage::regions_reached(),
        };
        self.series
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(sample);
    }
}

/// Runs a campaign for one puzzle against its core.
pub fn run_campaign<P: Verifiable + Sideways + Counting>(
    options: &CampaignOptions,
) -> CampaignOutcome<P::Case> {
    campaign::<P>(options, P::Case::solve, P::Case::parse, true)
}

/// Runs a campaign for one puzzle against `core`.
pub fn run_campaign_with<P: Verifiable + Sideways + Counting>(
    options: &CampaignOptions,
    core: Solver<P>,
) -> CampaignOutcome<P::Case> {
    run_campaign_reading::<P>(options, core, P::Case::parse)
}

/// Runs a campaign for one puzzle against `core`, an enumeration's sampled
/// cases read back with `read` (the model's parser, or a broken one in the
/// tests).
pub fn run_campaign_reading<P: Verifiable + Sideways + Counting>(
    options: &CampaignOptions,
    core: Solver<P>,
    read: CaseReader<P>,
) -> CampaignOutcome<P::Case> {
    campaign::<P>(options, core, read, false)
}

/// A campaign against `core`; `own` when `core` is the core's own solver.
fn campaign<P: Verifiable + Sideways + Counting>(
    options: &CampaignOptions,
    core: Solver<P>,
    read: CaseReader<P>,
    own: bool,
) -> CampaignOutcome<P::Case> {
    let enumeration = options.plan.enumerate;
    let check = Differential::<P> {
        solver: core,
        stats: options.stats,
        counting: own,
        certify: enumeration.map(|e| e.symmetry),
        read,
        reached: AtomicU64::new(0),
        series: Mutex::new(Vec::new()),
    };
    let source = crate::seeded::puzzle_cases::<P>(&options.plan, options.limits);
    let outcome = lockstep_search::search(&options.plan, &*source, &check);
    let tally = outcome.counts;
    let seed = options.plan.seed;
    let bugs: Vec<Bug<P::Case>> = outcome
        .failures
        .into_iter()
        .map(|failure| {
            let (origin, provenance, shrink) = provenance(
                enumeration.is_some(),
                seed,
                &failure.address,
                failure.found.image,
            );
            let finding = investigate::<P>(
                core,
                failure.found.case,
                (origin, &provenance),
                options.limits,
                shrink,
            );
            Bug {
                // Without keep_going no kind was asked for: the shrunk case's.
                signature: failure.kind.unwrap_or_else(|| finding.signature.clone()),
                count: failure.count,
                first: failure.address,
                after: failure.after,
                finding,
            }
        })
        .collect();
    let finding = bugs.first().map(|bug| (bug.first, bug.finding.clone()));
    let rule_branches = if options.stats {
        let mut totals = outcome.tally.0.clone();
        totals.resize(P::RULE_BRANCHES.len(), 0);
        P::RULE_BRANCHES.iter().copied().zip(totals).collect()
    } else {
        Vec::new()
    };
    let level_branches = outcome
        .tally
        .2
        .iter()
        .map(|(&size, counts)| {
            let mut counts = counts.clone();
            counts.resize(P::RULE_BRANCHES.len(), 0);
            (size, counts)
        })
        .collect();
    // Every size of an enumeration has its line, an empty level's too.
    let mut levels = outcome.tally.1 .0.clone();
    if let Some(enumeration) = enumeration.filter(|_| options.plan.only.is_none()) {
        for size in enumeration.from.max(1)..=enumeration.up_to {
            levels.entry(size).or_insert(LevelCertificate {
                size,
                ..LevelCertificate::default()
            });
        }
    }
    let levels = levels.into_values().collect();
    CampaignOutcome {
        tally,
        levels,
        elapsed: outcome.elapsed,
        finding,
        bugs,
        rule_branches,
        level_branches,
        series: check.series.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

#[cfg(test)]
mod tests;
