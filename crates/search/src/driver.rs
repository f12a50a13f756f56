//! The loop of [`crate::search`]: what its jobs share while they run (the
//! next position, where to stop, the counts, the failures kept), one job's
//! loop over batches of positions, and the outcome put together at the end.
//! Split from the entry point so that each step of a job (take positions,
//! make cases, check them, keep what failed) is a function of its own.

use super::counts::SharedCounts;
use super::{
    Address, CaseSource, Check, Checked, Counts, Failure, Made, Plan, Resume, SearchOutcome, Tally,
};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A kept failure while the search runs.
struct Kept<F, K> {
    position: u64,
    kind: Option<K>,
    count: u64,
    after: Duration,
    found: F,
}

/// What the jobs share of what they found.
struct Findings<F, K> {
    kept: Vec<Kept<F, K>>,
    failing: Vec<(K, u64)>,
    flaky: Vec<(&'static str, u64)>,
    problem: Option<(u64, String)>,
}

/// What the jobs of one search share.
pub(super) struct Shared<'a, S: CaseSource + ?Sized, K: Check<S::Case>> {
    plan: &'a Plan,
    source: &'a S,
    check: &'a K,
    start: Instant,
    deadline: Option<Instant>,
    /// The source's end.
    end: u64,
    /// The positions the run takes if nothing stops it first: to the
    /// source's end or the cap, whichever comes first; `None` when neither
    /// bounds it (a campaign that runs to its deadline).
    total: Option<u64>,
    next: AtomicU64,
    /// Positions made and checked (or found to hold no case), for the
    /// progress line.
    done: AtomicU64,
    /// Positions at or past it are not taken: the lowest failure's (without
    /// keep_going) or problem's.
    stop_at: AtomicU64,
    interrupted: AtomicBool,
    /// How far every position is checked: the first position not yet
    /// checked with the cases below it, and the batches checked past it.
    reached: Mutex<Reached>,
    counts: SharedCounts,
    tally: Mutex<K::Tally>,
    findings: Mutex<Findings<K::Found, K::Kind>>,
}

/// The first position not yet checked (every one below it is), the cases
/// among those below it, and the batches checked past it, by their first
/// position: their end and cases. A job's batches end out of order; the
/// ones past the first hole wait here (a few, one a job) until it fills.
#[derive(Default)]
struct Reached {
    first: u64,
    cases: u64,
    past: std::collections::BTreeMap<u64, (u64, u64)>,
}

impl Reached {
    /// Positions `span`, holding `cases` cases, are checked.
    fn add(&mut self, span: Range<u64>, cases: u64) {
        self.past.insert(span.start, (span.end, cases));
        while let Some((end, cases)) = self.past.remove(&self.first) {
            self.first = end;
            self.cases += cases;
        }
    }
}

/// The positions a run takes unless something stops it first: the
/// source's end, or the first position the cap leaves out (counted over
/// every machine of a sharded run: found by bisection, as the overall
/// number grows with the position).
pub(crate) fn total_positions<S: CaseSource + ?Sized>(plan: &Plan, source: &S) -> Option<u64> {
    let end = source.positions();
    let Some(cap) = plan.max_cases else {
        return end;
    };
    let (mut low, mut high) = (0, end.unwrap_or(u64::MAX));
    while low < high {
        let mid = low + (high - low) / 2;
        if source.overall(mid) >= cap {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    Some(low)
}

/// Keeps a list of failing (or flaky) cases to the lowest
/// [`crate::MAX_LISTED`] positions, in memory as well as in the outcome: a
/// program that fails every case of a night's `--keep-going` run would
/// otherwise list hundreds of millions. Cut to the bound whenever it
/// doubles, so that the cost is a sort now and then.
fn bound_list<T>(list: &mut Vec<(T, u64)>) {
    if list.len() >= 2 * crate::MAX_LISTED {
        list.sort_by_key(|(_, position)| *position);
        list.truncate(crate::MAX_LISTED);
    }
}

/// How many positions a job takes next, for a check with
/// [`Check::SPARSE_BATCHES`]: it took `took` and they made `cases`. Twice as
/// many while they make fewer than half a `batch` (up to 64 batches' worth,
/// so that a stop or a failure still ends a job within a few thousand
/// positions), half as many while they make more than a batch (not below
/// one batch). An enumeration where one index in eight makes a case otherwise
/// pays the driver's cost of a batch (the lock, the tally's merge) for
/// four cases.
fn sparse_batch(took: u64, batch: u64, cases: u64) -> u64 {
    if cases * 2 < batch && took < batch * 64 {
        took * 2
    } else if cases > batch && took > batch {
        took / 2
    } else {
        took
    }
}

/// A lock that a panicking job left poisoned is still the data: the panic
/// is passed on by the job runner, not hidden behind a second one.
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl<'a, S: CaseSource + ?Sized, K: Check<S::Case>> Shared<'a, S, K> {
    pub(super) fn new(plan: &'a Plan, source: &'a S, check: &'a K) -> Self {
        let start = Instant::now();
        Shared {
            plan,
            source,
            check,
            start,
            deadline: crate::seeds::deadline_after(start, plan.seconds),
            end: source.positions().unwrap_or(u64::MAX),
            total: total_positions(plan, source),
            next: AtomicU64::new(0),
            done: AtomicU64::new(0),
            stop_at: AtomicU64::new(u64::MAX),
            interrupted: AtomicBool::new(false),
            reached: Mutex::new(Reached::default()),
            counts: SharedCounts::default(),
            tally: Mutex::new(K::Tally::default()),
            findings: Mutex::new(Findings {
                kept: Vec::new(),
                failing: Vec::new(),
                flaky: Vec::new(),
                problem: None,
            }),
        }
    }

    /// The counts so far, for the progress line.
    pub(super) fn counts(&self) -> Counts {
        self.counts.get()
    }

    /// How far the run has got, for the end of the progress line
    /// ([`crate::progress::how_far`]).
    pub(super) fn how_far(&self, seconds: f64) -> Option<String> {
        let deadline = self
            .deadline
            .map(|d| d.saturating_duration_since(self.start).as_secs_f64());
        let total = self.total.map(|t| (t, self.source.unit()));
        crate::progress::how_far(self.done.load(Ordering::Relaxed), total, seconds, deadline)
    }

    fn lower_stop(&self, position: u64) {
        self.stop_at.fetch_min(position, Ordering::Relaxed);
    }

    /// Whether a signal is stopping lockstep (and so this search).
    fn interrupted(&self) -> bool {
        let stopped = lockstep_stop::interrupted();
        if stopped {
            self.interrupted.store(true, Ordering::Relaxed);
        }
        stopped
    }

    /// The next batch of positions a job takes, or `None` when the search
    /// is over for it: past the source's end, a stop, the deadline or the
    /// cap.
    fn take(&self, batch: u64) -> Option<Range<u64>> {
        if self.interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let from = self.next.fetch_add(batch, Ordering::Relaxed);
        let limit = self.end.min(self.stop_at.load(Ordering::Relaxed));
        let mut to = from.saturating_add(batch).min(limit);
        let cap = self.plan.max_cases;
        if let Some(beyond) =
            (from..to).find(|&p| cap.is_some_and(|cap| self.source.overall(p) >= cap))
        {
            to = beyond;
        }
        (from < to).then_some(from..to)
    }

    /// Keeps a problem of the source or the check at `position` if it is
    /// the lowest so far, and stops the search there.
    fn problem(&self, position: u64, message: String) {
        let mut f = locked(&self.findings);
        if f.problem.as_ref().is_none_or(|(p, _)| position < *p) {
            f.problem = Some((position, message));
        }
        self.lower_stop(position);
    }

    /// One job: batches of positions until the search is over, each made,
    /// checked and counted.
    pub(super) fn job(&self, j: u64) {
        let mut made = Vec::new();
        let mut results = Vec::new();
        let mut next_tick = 0.0;
        let batch = self.check.batch().max(1);
        let mut take = batch;
        loop {
            if j == 0 {
                let seconds = self.start.elapsed().as_secs_f64();
                if seconds >= next_tick {
                    self.check.tick(&self.counts.get(), seconds);
                    next_tick = seconds.floor() + 1.0;
                }
            }
            let Some(span) = self.take(take) else {
                break;
            };
            let taken = span.end - span.start;
            made.clear();
            self.source.cases(span.clone(), &mut made);
            if self.interrupted() {
                break;
            }
            let cases = self.usable(&mut made);
            if K::SPARSE_BATCHES {
                take = sparse_batch(take, batch, cases.len() as u64);
            }
            let positions: Vec<u64> = cases.iter().map(|(p, _)| *p).collect();
            let addressed = cases
                .into_iter()
                .map(|(p, case)| (self.source.address(p), case))
                .collect();
            let mut local = K::Tally::default();
            results.clear();
            self.check.check(addressed, &mut local, &mut results);
            assert_eq!(
                results.len(),
                positions.len(),
                "lockstep bug: a check gave {} results for {} cases",
                results.len(),
                positions.len()
            );
            if self.interrupted() {
                // Its programs were killed under it: no verdict.
                break;
            }
            let mut batch = Counts::default();
            for (position, checked) in positions.into_iter().zip(results.drain(..)) {
                self.record(position, checked, &mut batch);
            }
            locked(&self.reached).add(span, batch.cases);
            self.counts.add(&batch);
            locked(&self.tally).add(local);
            self.done.fetch_add(taken, Ordering::Relaxed);
        }
    }

    /// The cases of what a source made, before any problem it met (which
    /// is kept, and ends what is checked at it).
    fn usable(&self, made: &mut Vec<(u64, Made<S::Case>)>) -> Vec<(u64, S::Case)> {
        let mut cases = Vec::new();
        for (position, case) in made.drain(..) {
            match case {
                Made::Case(case) => cases.push((position, case)),
                Made::Nothing => {}
                Made::Problem(message) => {
                    self.problem(position, message);
                    break;
                }
            }
        }
        let stop = self.stop_at.load(Ordering::Relaxed);
        cases.retain(|(position, _)| *position < stop);
        cases
    }

    /// Counts what the check said of the case at `position`, and keeps it
    /// when it is a failure or a problem.
    fn record(&self, position: u64, checked: Checked<K::Found>, batch: &mut Counts) {
        batch.cases += 1;
        match checked {
            Checked::Pass => batch.passed += 1,
            Checked::Flaky(code) => {
                batch.passed += 1;
                let mut f = locked(&self.findings);
                f.flaky.push((code, position));
                bound_list(&mut f.flaky);
            }
            Checked::Skip => batch.skipped += 1,
            Checked::Problem(message) => {
                batch.cases -= 1;
                self.problem(position, message);
            }
            Checked::Fail(found) => {
                batch.failed += 1;
                self.keep(position, found);
            }
        }
    }

    /// A failure at `position`: counted under its kind, and kept when it is
    /// the lowest of its kind. Without keep_going the search stops there.
    fn keep(&self, position: u64, found: K::Found) {
        let keep_going = self.plan.keep_going;
        let kind = if keep_going {
            Some(self.check.kind(&found))
        } else {
            self.lower_stop(position);
            None
        };
        let after = self.start.elapsed();
        let mut f = locked(&self.findings);
        if K::LISTS_FAILING {
            let listed = match &kind {
                Some(kind) => kind.clone(),
                None => self.check.kind(&found),
            };
            f.failing.push((listed, position));
            bound_list(&mut f.failing);
        }
        match f.kept.iter_mut().find(|k| k.kind == kind) {
            Some(kept) => {
                kept.count += 1;
                if position < kept.position {
                    (kept.position, kept.after, kept.found) = (position, after, found);
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

    /// The outcome, once every job has ended (`elapsed` after the start):
    /// what one job would have met first, named by the source.
    pub(super) fn finish(self, elapsed: Duration) -> SearchOutcome<K::Found, K::Tally, K::Kind> {
        let counts = self.counts.get();
        self.check.tick(&counts, self.start.elapsed().as_secs_f64());
        let source = self.source;
        let Findings {
            mut kept,
            mut failing,
            mut flaky,
            mut problem,
        } = self
            .findings
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        kept.sort_by_key(|k| k.position);
        failing.sort_by_key(|&(_, position)| position);
        failing.truncate(crate::MAX_LISTED);
        flaky.sort_by_key(|&(_, position)| position);
        flaky.truncate(crate::MAX_LISTED);
        // What one job would have met first: a failure before the problem, or
        // the problem (and nothing found past it).
        if let Some((at, _)) = &problem {
            if !self.plan.keep_going && kept.first().is_some_and(|k| k.position < *at) {
                problem = None;
            } else {
                let at = *at;
                kept.retain(|k| k.position < at);
                failing.retain(|&(_, p)| p < at);
                flaky.retain(|&(_, p)| p < at);
            }
        }
        let named = |position: u64| -> Address { source.address(position) };
        let reached = self.reached.into_inner().unwrap_or_else(|e| e.into_inner());
        let resume = (reached.first < self.end).then(|| Resume {
            at: named(reached.first),
            cases_before: reached.cases,
        });
        SearchOutcome {
            counts,
            tally: self.tally.into_inner().unwrap_or_else(|e| e.into_inner()),
            elapsed,
            failures: kept
                .into_iter()
                .map(|k| Failure {
                    address: named(k.position),
                    position: k.position,
                    kind: k.kind,
                    count: k.count,
                    after: k.after,
                    found: k.found,
                })
                .collect(),
            failing: failing
                .into_iter()
                .map(|(kind, position)| (kind, named(position)))
                .collect(),
            flaky: flaky
                .into_iter()
                .map(|(code, position)| (code, named(position)))
                .collect(),
            problem: problem.map(|(position, message)| (named(position), message)),
            interrupted: self.interrupted.into_inner(),
            resume,
        }
    }
}

#[cfg(test)]
mod tests;
