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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod address;
mod counts;
mod enumerated;
mod plan;
pub mod source;

pub use address::Address;
use counts::SharedCounts;
pub use counts::{Counts, Tally};
pub use enumerated::Enumerated;
pub use plan::{Enumeration, Plan, Shard};
pub use source::{puzzle_cases, CaseSource, Made, Seeded};

/// What a check says of one case.
#[derive(Debug)]
pub enum Checked<F> {
    Pass,
    /// Passed, but only when run again: the first run ended at a time
    /// limit (this code, TLE or ILE) and the second did not. Counted as a
    /// pass and listed apart ([`Outcome::flaky`]): a busy machine is not a
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

    /// Checks `cases`, each with its address, pushing one result a case
    /// onto `out`, in order.
    fn check(
        &self,
        cases: Vec<(Address, C)>,
        tally: &mut Self::Tally,
        out: &mut Vec<Checked<Self::Found>>,
    );

    /// A failure's kind: a search that goes on after failures keeps the
    /// first of each kind (asked only then).
    fn kind(&self, found: &Self::Found) -> String;

    /// The live progress line, given the counts and the seconds so far.
    fn progress(&self, counts: &Counts, seconds: f64) -> String;

    /// Whether every failing case's address is listed (not for a campaign,
    /// whose failures may number millions).
    const LISTS_FAILING: bool = true;

    /// Called once a second by the first job, and once at the end: what a
    /// check records over time.
    fn tick(&self, _counts: &Counts, _seconds: f64) {}
}

/// A failure the search kept: the first (lowest position) of its kind.
#[derive(Debug, Clone)]
pub struct Failure<F> {
    pub address: Address,
    pub position: u64,
    /// Its kind ([`Check::kind`]); empty when the search stopped at its
    /// first failure without asking.
    pub kind: String,
    /// Failures of this kind in the search.
    pub count: u64,
    /// When it was found, from the start of the search.
    pub after: Duration,
    pub found: F,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Outcome<F, T> {
    pub counts: Counts,
    pub tally: T,
    /// From the start until the last job ended.
    pub elapsed: Duration,
    /// The failure kept of each kind, in position order: the first failure
    /// of all only, without `keep_going`.
    pub failures: Vec<Failure<F>>,
    /// Every failing case, its kind and address, in position order (when
    /// the check lists them).
    pub failing: Vec<(String, Address)>,
    /// Every case that passed only when run again, with the timing verdict
    /// its first run had, in position order.
    pub flaky: Vec<(&'static str, Address)>,
    /// A source's or tool's failure that stopped the search, unless a
    /// failure came before it.
    pub problem: Option<(Address, String)>,
    /// A signal stopped the search.
    pub interrupted: bool,
}

impl<F, T> Outcome<F, T> {
    /// The kept failures worth shrinking, ordered by `order`: none when a
    /// tool's problem or a signal ended the search (each candidate would be
    /// judged by the broken tool, or killed).
    pub fn to_shrink<K: Ord>(&mut self, order: impl FnMut(&Failure<F>) -> K) -> Vec<Failure<F>> {
        let mut kept = std::mem::take(&mut self.failures);
        if self.problem.is_some() || self.interrupted {
            kept.clear();
        }
        kept.sort_by_key(order);
        kept
    }
}

/// A kept failure while the search runs.
struct Kept<F> {
    position: u64,
    kind: String,
    count: u64,
    after: Duration,
    found: F,
}

/// What the jobs share of what they found.
struct Findings<F> {
    kept: Vec<Kept<F>>,
    failing: Vec<(String, u64)>,
    flaky: Vec<(&'static str, u64)>,
    problem: Option<(u64, String)>,
}

/// Runs a search: positions from `source`, checked by `check`, as `plan`
/// says. Returns when the cap, the source's end, the deadline, the first
/// failure (without `keep_going`), a problem or a signal ends it.
pub fn search<S: CaseSource + ?Sized, K: Check<S::Case>>(
    plan: &Plan,
    source: &S,
    check: &K,
) -> Outcome<K::Found, K::Tally> {
    if let Some(address) = plan.only {
        return search_one(source, check, address);
    }
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, plan.seconds);
    let end = source.positions().unwrap_or(u64::MAX);
    let next = AtomicU64::new(0);
    // Positions at or past it are not taken: the lowest failure's (without
    // keep_going) or problem's.
    let stop_at = AtomicU64::new(u64::MAX);
    let interrupted = AtomicBool::new(false);
    let counts = SharedCounts::default();
    let tally = Mutex::new(K::Tally::default());
    let findings = Mutex::new(Findings::<K::Found> {
        kept: Vec::new(),
        failing: Vec::new(),
        flaky: Vec::new(),
        problem: None,
    });
    let lower_stop = |position: u64| {
        stop_at.fetch_min(position, Ordering::Relaxed);
    };
    let within_cap = |position: u64| {
        plan.max_cases
            .is_none_or(|cap| source.overall(position) < cap)
    };

    let job = |j: u64| {
        let mut made = Vec::new();
        let mut cases: Vec<(u64, S::Case)> = Vec::new();
        let mut results = Vec::new();
        let mut next_tick = 0.0;
        loop {
            if j == 0 {
                let seconds = start.elapsed().as_secs_f64();
                if seconds >= next_tick {
                    check.tick(&counts.get(), seconds);
                    next_tick = seconds.floor() + 1.0;
                }
            }
            if crate::process::interrupted() {
                interrupted.store(true, Ordering::Relaxed);
                break;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let from = next.fetch_add(check.batch(), Ordering::Relaxed);
            let limit = end.min(stop_at.load(Ordering::Relaxed));
            let mut to = from.saturating_add(check.batch()).min(limit);
            if let Some(beyond) = (from..to).find(|&p| !within_cap(p)) {
                to = beyond;
            }
            if from >= to {
                break;
            }
            made.clear();
            source.cases(from..to, &mut made);
            if crate::process::interrupted() {
                interrupted.store(true, Ordering::Relaxed);
                break;
            }
            cases.clear();
            for (position, case) in made.drain(..) {
                match case {
                    Made::Case(case) => cases.push((position, case)),
                    Made::Nothing => {}
                    Made::Problem(message) => {
                        let mut f = findings.lock().unwrap_or_else(|e| e.into_inner());
                        if f.problem.as_ref().is_none_or(|(p, _)| position < *p) {
                            f.problem = Some((position, message));
                        }
                        lower_stop(position);
                        break;
                    }
                }
            }
            // A problem met above ends what is checked at it.
            let stop = stop_at.load(Ordering::Relaxed);
            cases.retain(|(position, _)| *position < stop);
            let positions: Vec<u64> = cases.iter().map(|(p, _)| *p).collect();
            let addressed = cases
                .drain(..)
                .map(|(p, case)| (source.address(p), case))
                .collect();
            let mut local = K::Tally::default();
            results.clear();
            check.check(addressed, &mut local, &mut results);
            assert_eq!(
                results.len(),
                positions.len(),
                "lockstep bug: a check gave {} results for {} cases",
                results.len(),
                positions.len()
            );
            if crate::process::interrupted() {
                // Its programs were killed under it: no verdict.
                interrupted.store(true, Ordering::Relaxed);
                break;
            }
            let mut batch = Counts::default();
            for (position, checked) in positions.into_iter().zip(results.drain(..)) {
                batch.cases += 1;
                match checked {
                    Checked::Pass => batch.passed += 1,
                    Checked::Flaky(code) => {
                        batch.passed += 1;
                        let mut f = findings.lock().unwrap_or_else(|e| e.into_inner());
                        f.flaky.push((code, position));
                    }
                    Checked::Skip => batch.skipped += 1,
                    Checked::Problem(message) => {
                        batch.cases -= 1;
                        let mut f = findings.lock().unwrap_or_else(|e| e.into_inner());
                        if f.problem.as_ref().is_none_or(|(p, _)| position < *p) {
                            f.problem = Some((position, message));
                        }
                        lower_stop(position);
                    }
                    Checked::Fail(found) => {
                        batch.failed += 1;
                        let kind = if plan.keep_going {
                            check.kind(&found)
                        } else {
                            lower_stop(position);
                            String::new()
                        };
                        let after = start.elapsed();
                        let mut f = findings.lock().unwrap_or_else(|e| e.into_inner());
                        if K::LISTS_FAILING {
                            let listed = if plan.keep_going {
                                kind.clone()
                            } else {
                                check.kind(&found)
                            };
                            f.failing.push((listed, position));
                        }
                        match f.kept.iter_mut().find(|k| k.kind == kind) {
                            Some(kept) => {
                                kept.count += 1;
                                if position < kept.position {
                                    (kept.position, kept.after, kept.found) =
                                        (position, after, found);
                                }
                            }
                            None => f.kept.push(Kept {
                                position,
                                kind,
                                count: 1,
                                after,
                                found,
                            }),
                        }
                    }
                }
            }
            counts.add(&batch);
            tally.lock().unwrap_or_else(|e| e.into_inner()).add(local);
        }
    };
    let progress = |seconds: f64| check.progress(&counts.get(), seconds);
    let elapsed = crate::jobs::run_jobs(
        plan.jobs,
        job,
        plan.progress
            .then_some(&progress as crate::jobs::ProgressText<'_>),
    );
    let counts = counts.get();
    check.tick(&counts, start.elapsed().as_secs_f64());
    let Findings {
        mut kept,
        mut failing,
        mut flaky,
        mut problem,
    } = findings.into_inner().unwrap_or_else(|e| e.into_inner());
    kept.sort_by_key(|k| k.position);
    failing.sort_by_key(|&(_, position)| position);
    flaky.sort_by_key(|&(_, position)| position);
    // What one job would have met first: a failure before the problem, or
    // the problem (and nothing found past it).
    if let Some((at, _)) = &problem {
        if !plan.keep_going && kept.first().is_some_and(|k| k.position < *at) {
            problem = None;
        } else {
            let at = *at;
            kept.retain(|k| k.position < at);
            failing.retain(|&(_, p)| p < at);
            flaky.retain(|&(_, p)| p < at);
        }
    }
    Outcome {
        counts,
        tally: tally.into_inner().unwrap_or_else(|e| e.into_inner()),
        elapsed,
        failures: kept
            .into_iter()
            .map(|k| Failure {
                address: source.address(k.position),
                position: k.position,
                kind: k.kind,
                count: k.count,
                after: k.after,
                found: k.found,
            })
            .collect(),
        failing: failing
            .into_iter()
            .map(|(kind, position)| (kind, source.address(position)))
            .collect(),
        flaky: flaky
            .into_iter()
            .map(|(code, position)| (code, source.address(position)))
            .collect(),
        problem: problem.map(|(position, message)| (source.address(position), message)),
        interrupted: interrupted.into_inner(),
    }
}

/// The search of one case, named by `address` (`--case`): checked alone,
/// whatever the plan's cap, jobs and time. A source that has no such case
/// says so as the search's problem.
fn search_one<S: CaseSource + ?Sized, K: Check<S::Case>>(
    source: &S,
    check: &K,
    address: Address,
) -> Outcome<K::Found, K::Tally> {
    let start = Instant::now();
    let mut outcome = Outcome {
        counts: Counts::default(),
        tally: K::Tally::default(),
        elapsed: Duration::ZERO,
        failures: Vec::new(),
        failing: Vec::new(),
        flaky: Vec::new(),
        problem: None,
        interrupted: false,
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
    outcome.interrupted = crate::process::interrupted();
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
                kind,
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
