//! The one job runner: `jobs` threads, each running a loop of its own, a
//! progress line while they run, and the moment the last one ended.
//!
//! The search driver ([`crate`]) runs its jobs through
//! [`run_jobs`], as do test sets; the tournament and the ladder pull game
//! numbers from one shared counter through [`for_each_index`], which is
//! built on it. What ends a run and what it counts stay with the callers:
//! the threads, the progress line and the timing do not differ.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress line given the seconds so far.
pub type ProgressText<'a> = &'a (dyn Fn(f64) -> String + Sync);

/// Runs `job(j)` for each job `j` in `0..jobs`, each on a thread of its own,
/// and shows `message` (see [`crate::progress::watch`]) while they run.
/// Returns the time from the call until the last job ended, not until the
/// progress line noticed, so that a rate counts the jobs' time.
///
/// One job with no progress line runs on the calling thread: a core's
/// thread-local tables (footholds keeps 16 MiB) are then not faulted in anew
/// for every run, which weighed on short runs such as a bench round.
pub fn run_jobs(
    jobs: usize,
    job: impl Fn(u64) + Sync,
    message: Option<ProgressText<'_>>,
) -> Duration {
    let start = Instant::now();
    let jobs = jobs.max(1);
    let running = AtomicUsize::new(jobs);
    let last_end: Mutex<Option<Instant>> = Mutex::new(None);
    let one = |j: u64| {
        // Counted down even if the job panics: the progress line waits for
        // the count, and would otherwise wait for ever instead of letting the
        // panic end the run.
        let _done = Ended {
            running: &running,
            last_end: &last_end,
        };
        job(j);
    };
    if jobs == 1 && message.is_none() {
        one(0);
    } else {
        std::thread::scope(|scope| {
            for j in 0..jobs as u64 {
                let one = &one;
                scope.spawn(move || one(j));
            }
            if let Some(message) = message {
                crate::progress::watch(start, || running.load(Ordering::Relaxed) == 0, message);
            }
        });
    }
    let end = last_end.into_inner().unwrap_or_else(|e| e.into_inner());
    end.map_or_else(|| start.elapsed(), |end| end - start)
}

/// Marks a job ended when dropped: its end time, and one job fewer running.
struct Ended<'a> {
    running: &'a AtomicUsize,
    last_end: &'a Mutex<Option<Instant>>,
}

impl Drop for Ended<'_> {
    fn drop(&mut self) {
        let mut end = self.last_end.lock().unwrap_or_else(|e| e.into_inner());
        *end = end.max(Some(Instant::now()));
        drop(end);
        self.running.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs `work(index)` for indices 0, 1, 2, ... on `jobs` threads, each index
/// once, until `more(index)` is false for the next index a thread takes (a
/// count, a deadline, a stop flag). Returns every result with its index, in
/// index order. With `message`, shows it given the seconds so far and the
/// number of finished items.
pub fn for_each_index<T: Send>(
    jobs: usize,
    more: impl Fn(u64) -> bool + Sync,
    work: impl Fn(u64) -> T + Sync,
    message: Option<&(dyn Fn(f64, usize) -> String + Sync)>,
) -> Vec<(u64, T)> {
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::new());
    let line = |secs: f64| {
        let done = results.lock().map_or(0, |r| r.len());
        message.map_or_else(String::new, |m| m(secs, done))
    };
    run_jobs(
        jobs,
        |_| loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if !more(index) {
                break;
            }
            let result = work(index);
            results
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((index, result));
        },
        message.map(|_| &line as ProgressText<'_>),
    );
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|&(index, _)| index);
    results
}

#[cfg(test)]
mod tests;
