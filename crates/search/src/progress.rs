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
