//! Live progress for long runs (fuzz and stress campaigns), on stderr: a spinner
//! line on a terminal, a plain line every ten seconds otherwise (CI logs, overnight
//! runs redirected to a file).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::{Duration, Instant};

/// Shows `message(seconds since start)` until `done()` holds, refreshing ten times
/// a second and returning within a few milliseconds of `done()`. Call it on the
/// thread that waits for the workers.
pub fn watch(start: Instant, done: impl Fn() -> bool, message: impl Fn(f64) -> String) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let plain = bar.is_hidden();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
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
    bar.finish_and_clear();
}

/// Runs `work(index)` for indices 0, 1, 2, ... on `jobs` threads, each index
/// once, until `more(index)` is false for the next index a thread takes (a
/// count, a deadline, a stop flag). Returns every result with its index, in
/// index order. With `message`, shows it as [`watch`] does, given the seconds
/// so far and the number of finished items.
pub fn for_each_index<T: Send>(
    jobs: usize,
    more: impl Fn(u64) -> bool + Sync,
    work: impl Fn(u64) -> T + Sync,
    message: Option<&(dyn Fn(f64, usize) -> String + Sync)>,
) -> Vec<(u64, T)> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::Mutex;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let running = AtomicUsize::new(jobs.max(1));
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if !more(index) {
                        break;
                    }
                    let result = work(index);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((index, result));
                }
                running.fetch_sub(1, Ordering::Relaxed);
            });
        }
        if let Some(message) = message {
            watch(
                start,
                || running.load(Ordering::Relaxed) == 0,
                |secs| {
                    let done = results.lock().map_or(0, |r| r.len());
                    message(secs, done)
                },
            );
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|&(index, _)| index);
    results
}
