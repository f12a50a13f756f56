//! Live progress for long runs (fuzz and stress campaigns), on stderr: a spinner
//! line on a terminal, a plain line every ten seconds otherwise (CI logs, overnight
//! runs redirected to a file).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The progress line drawn now, if any: what [`suspended`] hides while a
/// line of the run's own output is printed (one at a time: a run shows one
/// line of progress).
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `print` with the progress line, if one is drawn, cleared from the
/// terminal, and draws it again after: a run's own lines (each test's
/// verdict) then stay whole above it instead of being wiped by its next
/// redraw.
pub fn suspended<R>(print: impl FnOnce() -> R) -> R {
    let shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match shown {
        Some(bar) => bar.suspend(print),
        None => print(),
    }
}

/// Shows `message(seconds since start)` until `done()` holds, refreshing ten times
/// a second and returning within a few milliseconds of `done()`. Call it on the
/// thread that waits for the workers.
pub fn watch(start: Instant, done: impl Fn() -> bool, message: impl Fn(f64) -> String) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let plain = bar.is_hidden();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
    if !plain {
        *SHOWN.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.clone());
    }
    // Noted at once, so that a signal in the first tenth of a second still
    // says how far the run got (nowhere yet, in its words).
    lockstep_stop::note_progress(&message(start.elapsed().as_secs_f64()));
    let mut last_line = Instant::now();
    let mut last_tick = Instant::now();
    loop {
        // Checked often, so that a run that ends is not stretched by the wait
        // (its rate would read low); drawn ten times a second.
        std::thread::sleep(Duration::from_millis(2));
        if done() {
            break;
        }
        if last_tick.elapsed() < Duration::from_millis(100) {
            continue;
        }
        last_tick = Instant::now();
        let text = message(start.elapsed().as_secs_f64());
        lockstep_stop::note_progress(&text);
        if plain {
            if last_line.elapsed() >= Duration::from_secs(10) {
                eprintln!("{text}");
                last_line = Instant::now();
            }
        } else {
            bar.set_message(text);
            bar.tick();
        }
    }
    SHOWN.lock().unwrap_or_else(|e| e.into_inner()).take();
    // Kept when a signal ended the run: the signal's watcher says it as how
    // far the run got once it has killed the programs, after the jobs (and
    // so this line) may have ended.
    if !lockstep_stop::interrupted() {
        lockstep_stop::note_progress("");
    }
    bar.finish_and_clear();
}

/// How far a run has got, for the end of its progress line: `N of M units (P%),
/// about T left` when the run has a known end (the source's end, a case
/// cap), `T left` of a deadline, whichever comes first; `None` for a run
/// with neither. The time left assumes the rate so far, so it is labelled
/// "about"; before any position is done there is no rate.
pub fn how_far(
    done: u64,
    total: Option<(u64, &str)>,
    seconds: f64,
    deadline: Option<f64>,
) -> Option<String> {
    let by_clock = deadline.map(|d| (d - seconds).max(0.0));
    let Some((total, unit)) = total else {
        return by_clock.map(|left| format!("{} left", lockstep_text::duration(left)));
    };
    let done = done.min(total);
    let percent = match total {
        0 => 100.0,
        _ => done as f64 * 100.0 / total as f64,
    };
    let by_rate = (done > 0).then(|| seconds * (total - done) as f64 / done as f64);
    let left = match (by_rate, by_clock) {
        (Some(rate), Some(clock)) => {
            format!(", about {} left", lockstep_text::duration(rate.min(clock)))
        }
        (Some(rate), None) => format!(", about {} left", lockstep_text::duration(rate)),
        (None, Some(clock)) => format!(", at most {} left", lockstep_text::duration(clock)),
        (None, None) => String::new(),
    };
    Some(format!("{done} of {total} {unit} ({percent:.0}%){left}"))
}

#[cfg(test)]
mod tests;
