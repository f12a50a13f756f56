//! Signals: how lockstep stops. Most commands finish on a signal
//! ([`finish_on_signals`]): every program they started is killed at once,
//! no new one starts, the cases in hand are finished or thrown away, and
//! the command reports and saves what it had found, a failure mid-shrink as
//! the smallest failing case so far. The duel's games and tournaments,
//! whose half-played games mean nothing, kill their programs and exit
//! ([`stop_on_signals`]). Either way the stop state (`lockstep_stop`,
//! below every crate) tells every thread that a stop is under way.

use super::{become_subreaper, shutdown};
use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;

/// For every command but the duel's games: the first SIGINT, SIGTERM or
/// SIGHUP kills every program lockstep started (and no new one starts:
/// [`crate::Program::spawn`] refuses), stops the search, whose cases in
/// hand are finished (lockstep's own solvers) or thrown away (a killed
/// program's run is no verdict), and the command reports and saves what it
/// found, then exits with 128 + the signal. A shrink under way stops at
/// once and keeps the smallest failing case so far. A second signal, a
/// second or more after the first, exits at once. `programs`: the command
/// runs programs, so lockstep becomes their subreaper first.
pub fn finish_on_signals(programs: bool) {
    if programs {
        become_subreaper();
    }
    let Some(mut signals) = watched() else {
        return;
    };
    std::thread::spawn(move || {
        let mut arriving = signals.forever();
        if let Some(signal) = arriving.next() {
            lockstep_stop::stop(Some(signal));
            let killed = match programs {
                true => "every program it started is killed, ",
                false => "",
            };
            let _ = writeln!(
                std::io::stderr(),
                "\nlockstep: stopping (signal {signal}): {killed}the cases in hand are finished, then what was found is reported and saved (again to stop at once)"
            );
            if programs {
                shutdown();
            }
        }
        // A signal within a second of the first is the same stop, not a
        // second one: GNU timeout, for one, signals its command and then
        // the command's whole group, so lockstep sees it twice.
        let first = std::time::Instant::now();
        for signal in arriving {
            if first.elapsed() < std::time::Duration::from_secs(1) {
                continue;
            }
            exit_on(signal, "");
        }
    });
}

/// Says on stderr that lockstep stopped by `signal` (and `then`), and how
/// far its run had got, and exits with 128 + its number. Only the watchers
/// call it, once every program is killed.
fn exit_on(signal: i32, then: &str) -> ! {
    let progress = lockstep_stop::progress();
    let far = match progress.is_empty() {
        true => String::new(),
        false => format!("\nhow far it got: {progress}"),
    };
    let _ = writeln!(
        std::io::stderr(),
        "\nlockstep: stopped by signal {signal}{then}{far}"
    );
    #[allow(
        clippy::disallowed_methods,
        reason = "the signal watcher ends lockstep once every program is killed"
    )]
    std::process::exit(128 + signal);
}

/// SIGINT, SIGTERM and SIGHUP, delivered from now on to the returned
/// iterator (signal-hook's: its handler only writes to a pipe, which the
/// watcher thread reads) instead of ending the process; `None` when they
/// could not be registered.
fn watched() -> Option<Signals> {
    Signals::new([SIGINT, SIGTERM, SIGHUP]).ok()
}

/// On SIGINT, SIGTERM or SIGHUP: kill every live program and adopted orphan,
/// then exit with 128 + the signal's number: the duel's games and
/// tournaments, where a game cut short has no result to keep. For the
/// command line; call once.
pub fn stop_on_signals() {
    become_subreaper();
    let Some(mut signals) = watched() else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            lockstep_stop::stop(None);
            shutdown();
            exit_on(signal, "; every program it started is killed");
        }
    });
}
