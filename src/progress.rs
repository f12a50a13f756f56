//! Live progress for long runs (fuzz and stress campaigns), on stderr: a spinner
//! line on a terminal, a plain line every ten seconds otherwise (CI logs, overnight
//! runs redirected to a file).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::{Duration, Instant};

/// Shows `message(seconds since start)` until `done()` holds, refreshing ten times
/// a second. Call it on the thread that waits for the workers.
pub fn watch(start: Instant, done: impl Fn() -> bool, message: impl Fn(f64) -> String) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let plain = bar.is_hidden();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
    let mut last_line = Instant::now();
    while !done() {
        std::thread::sleep(Duration::from_millis(100));
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
