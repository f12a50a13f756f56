//! The stop state, on the ground floor: whether a signal is stopping
//! lockstep, which signal, and the last progress line a long run drew (what
//! a stopped run says of how far it got). `lockstep-process`'s signal
//! watcher sets it; the search loop, both shrinkers and a puzzle's own
//! long steps read it, so that every phase stops within a second. It knows
//! nothing else, so the crates that run no program (the search driver, the
//! harness) read it without linking the crate that runs programs.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;

/// Set once a signal is stopping lockstep.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The signal that stopped a command that finishes on signals (0: none).
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

/// The last progress line a long run drew ([`note_progress`]).
static PROGRESS: Mutex<String> = Mutex::new(String::new());

/// True once a signal is stopping lockstep: a command that finishes on
/// signals should stop its search and report; under one that exits on
/// signals (the duel's games), a thread should wait for the exit rather
/// than report on programs the stop killed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The signal that is stopping a command that finishes on signals, once one
/// came.
pub fn stopped_by() -> Option<i32> {
    match STOPPED_BY.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// Marks the stop: [`interrupted`] from now on, and, for a command that
/// finishes on signals, [`stopped_by`] the `signal`. Only the signal
/// watcher calls it.
pub fn stop(finishing_on: Option<i32>) {
    if let Some(signal) = finishing_on {
        STOPPED_BY.store(signal, Ordering::SeqCst);
    }
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Keeps `line` as how far the run has got, for the words a signal's stop
/// ends with (the progress line redraws it ten times a second).
pub fn note_progress(line: &str) {
    let mut kept = PROGRESS.lock().unwrap_or_else(|e| e.into_inner());
    kept.clear();
    kept.push_str(line);
}

/// The last line [`note_progress`] kept (empty when none).
pub fn progress() -> String {
    PROGRESS.lock().map(|p| p.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests;
