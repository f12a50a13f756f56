//! The one search driver: every way lockstep looks for a failing case (the
//! differential campaign, a user's program against the oracle, against a
//! brute force, through an interactor, a bot through the referee) is a
//! [`Plan`], a [`CaseSource`] of cases and a [`Check`] of one case, and
//! [`search`] owns the loop that joins them: the jobs, the deadline, the case
//! cap, the stop flag, interrupts, the progress line, and the failure of
//! each kind that the search keeps.
//!
//! What the driver promises, whatever the jobs and the clock do:
//! - **The lowest position wins.** The failure kept of each kind is the one
//!   at the lowest position of the source's order, not the one a job met
//!   first; without `keep_going` a search stops at its first failure, and
//!   the other jobs still check every position before it. The same plan
//!   (seed, jobs, cap) so reports the same failure on any machine.
//! - **A cap is exact.** `max_cases` takes the first positions (counted
//!   over every machine of a sharded run): never more because of the jobs.
//! - **An interrupt is not a verdict.** A check that ran while lockstep was
//!   being stopped (its programs killed under it) is thrown away.
//!
//! A source or a check adds nothing to the loop: a new source (the
//! enumeration of every case by size, corpus rows) is a type implementing
//! [`CaseSource`], and every command whose plan names it runs it as it runs
//! the others.

use std::time::{Duration, Instant};

mod address;
mod counts;
mod driver;
pub mod estimate;
pub mod jobs;
mod plan;
pub mod progress;
pub mod seeds;
pub mod shrinking;
pub mod source;

pub use address::{Address, BadValue};

pub use counts::{Counts, Tally};
pub use plan::{Enumeration, Plan, Shard};
pub use source::{CaseSource, Made};

/// What a check says of one case.
#[derive(Debug)]
pub enum Checked<F> {
    Pass,
    /// Passed, but only when run again: the first run ended at a time
    /// limit (this code, TLE or ILE) and the second did not. Counted as a
    /// pass and listed apart ([`SearchOutcome::flaky`]): a busy machine is not a
    /// failure.
    Flaky(&'static str),
    /// Not judged (the reference out of fuel): counted apart.
    Skip,
    /// A failure, with what the check keeps of it.
    Fail(F),
    /// A tool's failure (a brute force that crashed): stops the search.
    Problem(String),
}

/// The check of one case: what a command gives the driver besides the
/// source.
pub trait Check<C>: Sync {
    /// What a failing case leaves: enough to shrink and report it.
    type Found: Send;
    /// What each job counts besides the driver's counts, added up at the end
    /// (and after every batch, for the progress line).
    type Tally: Tally;

    /// Positions a job takes at once. A check of in-process solvers takes a
    /// few dozen, so that each phase (generation, core, reference) stays hot
    /// in the cache; a check that runs a program per case takes one, and one
    /// that joins cases into one run of a program takes as many as it joins.
    fn batch(&self) -> u64 {
        1
    }

    /// Whether a job may take more positions than [`Check::batch`] where
    /// most of them make no case (an enumeration's indexes that decode to
    /// nothing), so that a batch still holds about `batch` cases: true for
    /// a check with no bound on the cases of one call, false (the default)
    /// for one that joins a batch into one run of a program.
    const SPARSE_BATCHES: bool = false;

    /// Checks `cases`, each with its address, pushing one result a case
    /// onto `out`, in order.
    fn check(
        &self,
        cases: Vec<(Address, C)>,
        tally: &mut Self::Tally,
        out: &mut Vec<Checked<Self::Found>>,
    );

    /// What tells one failure from another: a verdict's kind for a
    /// program (WA, RE, ...), a bug's signature for the differential, a
    /// fault's for a bot.
    type Kind: Clone + PartialEq + Send + std::fmt::Debug;

    /// A failure's kind: a search that goes on after failures keeps the
    /// first of each kind (asked only then, and for the list of failing
    /// cases).
    fn kind(&self, found: &Self::Found) -> Self::Kind;

    /// Checks `cases` only to time them before a run
    /// ([`estimate::estimate`]), leaving no trace: the results and the
    /// tally are dropped. A check that also counts outside its tally (a
    /// program's time, the branches reached so far) overrides it to put
    /// those back.
    fn sample(&self, cases: Vec<(Address, C)>) {
        let mut tally = Self::Tally::default();
        let mut out = Vec::new();
        self.check(cases, &mut tally, &mut out);
    }

    /// The live progress line, given the counts and the seconds so far.
    fn progress(&self, counts: &Counts, seconds: f64) -> String;

    /// Whether every failing case's address is listed (not for a campaign,
    /// whose failures may number millions).
    const LISTS_FAILING: bool = true;

    /// Called once a second by the first job, and once at the end: what a
    /// check records over time.
    fn tick(&self, _counts: &Counts, _seconds: f64) {}
}

/// Failing (and flaky) cases an outcome lists at most, the lowest
/// positions: a bound on memory whatever the run's length.
pub const MAX_LISTED: usize = 100_000;

/// A failure the search kept: the first (lowest position) of its kind.
#[derive(Debug, Clone)]
pub struct Failure<F, K> {
    pub address: Address,
    pub position: u64,
    /// Its kind ([`Check::kind`]); `None` when the search stopped at its
    /// first failure without asking.
    pub kind: Option<K>,
    /// Failures of this kind in the search.
    pub count: u64,
    /// When it was found, from the start of the search.
    pub after: Duration,
    pub found: F,
}

/// What a search found: failures of `F`, tallies `T`, kinds `K`.
#[derive(Debug, Clone)]
pub struct SearchOutcome<F, T, K> {
    pub counts: Counts,
    pub tally: T,
    /// From the start until the last job ended.
    pub elapsed: Duration,
    /// The failure kept of each kind, in position order: the first failure
    /// of all only, without `keep_going`.
    pub failures: Vec<Failure<F, K>>,
    /// Every failing case, its kind and address, in position order (when
    /// the check lists them): the first [`MAX_LISTED`] (the counts count
    /// every one).
    pub failing: Vec<(K, Address)>,
    /// Every case that passed only when run again, with the timing verdict
    /// its first run had, in position order: the first [`MAX_LISTED`].
    pub flaky: Vec<(&'static str, Address)>,
    /// A source's or tool's failure that stopped the search, unless a
    /// failure came before it.
    pub problem: Option<(Address, String)>,
    /// A signal stopped the search.
    pub interrupted: bool,
    /// Where a run that ended before its source's end (a signal, the
    /// deadline, a failure) would resume: every position before it was
    /// checked. `None` when every position was, or for one case (`--case`).
    pub resume: Option<Resume>,
}

/// The first case a search did not check, every one before it checked: a
/// stopped enumeration resumes there (`--from`), and the stopped run and
/// the resumed one then check every case once between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resume {
    pub at: Address,
    /// The cases checked before it (of this run).
    pub cases_before: u64,
}

impl<F, T, K> SearchOutcome<F, T, K> {
    /// The kept failures worth shrinking, ordered by `order`: none when a
    /// tool's problem ended the search (each candidate would be judged by
    /// the broken tool).
    pub fn to_shrink<O: Ord>(
        &mut self,
        order: impl FnMut(&Failure<F, K>) -> O,
    ) -> Vec<Failure<F, K>> {
        let mut kept = std::mem::take(&mut self.failures);
        // A failure found before a signal is still shrunk: the shrink
        // stops at once and keeps it as found.
        if self.problem.is_some() {
            kept.clear();
        }
        kept.sort_by_key(order);
        kept
    }
}

/// Runs a search: positions from `source`, checked by `check`, as `plan`
/// says. Returns when the cap, the source's end, the deadline, the first
/// failure (without `keep_going`), a problem or a signal ends it.
pub fn search<S: CaseSource + ?Sized, K: Check<S::Case>>(
    plan: &Plan,
    source: &S,
    check: &K,
) -> SearchOutcome<K::Found, K::Tally, K::Kind> {
    if let Some(address) = plan.only {
        return search_one(source, check, address);
    }
    if plan.progress {
        // How far the run got, as a signal's stop says it, holds from here
        // (nowhere yet), not from the progress line's first tick.
        let total = driver::total_positions(plan, source).map(|t| (t, source.unit()));
        let far =
            progress::how_far(0, total, 0.0, None).map_or_else(String::new, |f| format!(", {f}"));
        lockstep_stop::note_progress(&format!("{}{far}", check.progress(&Counts::default(), 0.0)));
        // A run with a known end says how long it will take before it starts.
        if let Some(estimate) = estimate::estimate(plan, source, check) {
            eprintln!("{estimate}");
        }
    }
    let shared = driver::Shared::new(plan, source, check);
    let progress = |seconds: f64| {
        let line = check.progress(&shared.counts(), seconds);
        match shared.how_far(seconds) {
            Some(far) => format!("{line}, {far}"),
            None => line,
        }
    };
    let elapsed = crate::jobs::run_jobs(
        plan.jobs,
        |j| shared.job(j),
        plan.progress
            .then_some(&progress as crate::jobs::ProgressText<'_>),
    );
    shared.finish(elapsed)
}

/// The search of one case, named by `address` (`--case`): checked alone,
/// whatever the plan's cap, jobs and time. A source that has no such case
/// says so as the search's problem.
fn search_one<S: CaseSource + ?Sized, K: Check<S::Case>>(
    source: &S,
    check: &K,
    address: Address,
) -> SearchOutcome<K::Found, K::Tally, K::Kind> {
    let start = Instant::now();
    let mut outcome = SearchOutcome {
        counts: Counts::default(),
        tally: K::Tally::default(),
        elapsed: Duration::ZERO,
        failures: Vec::new(),
        failing: Vec::new(),
        flaky: Vec::new(),
        problem: None,
        interrupted: false,
        resume: None,
    };
    let case = match source.case_at(&address) {
        Some(Made::Case(case)) => case,
        Some(Made::Nothing) => return outcome,
        Some(Made::Problem(message)) => {
            outcome.problem = Some((address, message));
            return outcome;
        }
        None => {
            let example = source.address(0);
            let message =
                format!("no case {address} in this search: its cases are named like `{example}`");
            outcome.problem = Some((address, message));
            return outcome;
        }
    };
    let mut results = Vec::new();
    check.check(vec![(address, case)], &mut outcome.tally, &mut results);
    outcome.interrupted = lockstep_stop::interrupted();
    let position = source.position(&address).unwrap_or(0);
    outcome.counts.cases = 1;
    match results.pop() {
        Some(Checked::Pass) => outcome.counts.passed = 1,
        Some(Checked::Flaky(code)) => {
            outcome.counts.passed = 1;
            outcome.flaky.push((code, address));
        }
        Some(Checked::Skip) => outcome.counts.skipped = 1,
        Some(Checked::Problem(message)) => {
            outcome.counts.cases = 0;
            outcome.problem = Some((address, message));
        }
        Some(Checked::Fail(found)) => {
            outcome.counts.failed = 1;
            let kind = check.kind(&found);
            outcome.failing.push((kind.clone(), address));
            outcome.failures.push(Failure {
                address,
                position,
                kind: Some(kind),
                count: 1,
                after: start.elapsed(),
                found,
            });
        }
        None => outcome.counts.cases = 0,
    }
    outcome.elapsed = start.elapsed();
    check.tick(&outcome.counts, outcome.elapsed.as_secs_f64());
    outcome
}

/// Runs `work` (a shrink), showing `line(seconds)` as its progress while it
/// runs when `progress` is set. `work` runs on a thread of its own so that
/// the line keeps moving; its panic is passed on.
pub fn with_progress<T: Send>(
    progress: bool,
    work: impl FnOnce() -> T + Send,
    line: impl Fn(f64) -> String,
) -> T {
    let start = Instant::now();
    std::thread::scope(|scope| {
        let running = scope.spawn(work);
        if progress {
            // Finished, or panicked: either way the line must stop.
            crate::progress::watch(start, || running.is_finished(), line);
        }
        match running.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests;
