//! What the driver counts of a search: checked, passed, failed, skipped
//! (shared by the jobs as they go), and what a check may count beside it.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a job counts beside the driver, added up over the jobs.
pub trait Tally: Default + Send {
    /// Adds `other` into `self`.
    fn add(&mut self, other: Self);
}

impl Tally for () {
    fn add(&mut self, _: ()) {}
}

/// The driver's counts of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cases checked.
    pub cases: u64,
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
}

#[derive(Default)]
pub(super) struct SharedCounts {
    cases: AtomicU64,
    passed: AtomicU64,
    failed: AtomicU64,
    skipped: AtomicU64,
}

impl SharedCounts {
    pub(super) fn add(&self, c: &Counts) {
        self.cases.fetch_add(c.cases, Ordering::Relaxed);
        self.passed.fetch_add(c.passed, Ordering::Relaxed);
        self.failed.fetch_add(c.failed, Ordering::Relaxed);
        self.skipped.fetch_add(c.skipped, Ordering::Relaxed);
    }

    pub(super) fn get(&self) -> Counts {
        Counts {
            cases: self.cases.load(Ordering::Relaxed),
            passed: self.passed.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            skipped: self.skipped.load(Ordering::Relaxed),
        }
    }
}
