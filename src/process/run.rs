//! [`run`]: one program on one input, judged by its main process alone, with
//! its time, its output and its stderr's tail capped (see the parent module
//! for why each cap is there).

use super::{command, Program};
use std::io::{Read, Write};
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits for one [`run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall time from start to exit.
    pub time: Duration,
    /// Bytes of stdout; one more is the output limit exceeded.
    pub output: usize,
}

/// The default output limit: far above any answer of these puzzles (robots's
/// largest is a few MB), small enough that a program printing forever costs
/// little memory even on several jobs.
pub const DEFAULT_OUTPUT_LIMIT: usize = 16 << 20;

/// How much of stderr a run keeps (its end).
const STDERR_KEPT: usize = 64 << 10;

/// How much of stdout a run past the output limit keeps (its start).
const KEPT_OVER_LIMIT: usize = 4 << 10;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program exited by itself.
    Exited(ExitStatus),
    /// Still running at the time limit: killed.
    TimeLimit,
    /// Wrote more than the output limit: killed.
    OutputLimit,
}

/// One run of a program.
#[derive(Debug, Clone)]
pub struct Execution {
    pub ending: Ending,
    /// At most the output limit (only the first 4 KiB past it), decoded lossily.
    pub stdout: String,
    /// The end of stderr (at most 64 KiB), decoded lossily.
    pub stderr: String,
    /// From start to exit (or to the kill).
    pub elapsed: Duration,
}

/// What a reader thread collects.
#[derive(Default)]
struct Capture {
    bytes: Vec<u8>,
    /// More arrived than the cap allowed.
    over: bool,
}

/// Reads `from` into `into` until end of file: at most `cap` bytes (then stops
/// reading and raises `over`) or, with `tail`, keeping only the last `cap`.
fn capture(
    mut from: impl Read,
    into: Arc<Mutex<Capture>>,
    cap: usize,
    tail: bool,
    over: Arc<AtomicBool>,
    done: mpsc::Sender<()>,
) {
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut c = into.lock().unwrap_or_else(|e| e.into_inner());
        if tail {
            c.bytes.extend_from_slice(&buf[..n]);
            if c.bytes.len() > 2 * cap {
                let cut = c.bytes.len() - cap;
                c.bytes.drain(..cut);
            }
        } else {
            let room = cap - c.bytes.len();
            if n > room {
                // Grow to the cap exactly, not past it by doubling.
                c.bytes.reserve_exact(room);
                c.bytes.extend_from_slice(&buf[..room]);
                c.over = true;
                over.store(true, Ordering::Relaxed);
                break;
            }
            c.bytes.extend_from_slice(&buf[..n]);
        }
    }
    let _ = done.send(());
}

/// Runs `cmd` with `input` on its stdin under `limits`. An error means the
/// program could not be started at all.
pub fn execute(cmd: &str, input: &str, limits: Limits) -> std::io::Result<Execution> {
    let start = Instant::now();
    let mut program = Program::spawn(command(cmd))?;
    let child = program.child_mut();
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    // Write and read on threads: a program may read its input only after
    // writing a lot of output, and pipes are finite.
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        // A program that exits without reading its input closes the pipe: fine.
        let _ = stdin.write_all(input.as_bytes());
    });
    let over = Arc::new(AtomicBool::new(false));
    let (out, err) = (
        Arc::new(Mutex::new(Capture::default())),
        Arc::new(Mutex::new(Capture::default())),
    );
    let (done_tx, done_rx) = mpsc::channel();
    {
        let (out, over, done) = (Arc::clone(&out), Arc::clone(&over), done_tx.clone());
        std::thread::spawn(move || capture(stdout, out, limits.output, false, over, done));
        let (err, over, done) = (Arc::clone(&err), Arc::new(AtomicBool::new(false)), done_tx);
        std::thread::spawn(move || capture(stderr, err, STDERR_KEPT, true, over, done));
    }

    // Poll for the exit with a short, growing sleep: a finished program is
    // noticed within a fraction of a millisecond without a thread per wait.
    let mut pause = Duration::from_micros(20);
    let exited = loop {
        if let Some(status) = program.try_wait()? {
            break Some(status);
        }
        if over.load(Ordering::Relaxed) || start.elapsed() >= limits.time {
            break None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    };
    let elapsed = start.elapsed();
    // The verdict is the main process's: whatever it left behind goes now, and
    // the pipes are drained of what was written before.
    program.stop();
    // Joined only if done: a detached descendant not swept yet may hold stdin
    // open with the pipe full, and the run must not wait for it.
    if writer.is_finished() {
        let _ = writer.join();
    }
    for _ in 0..2 {
        if done_rx.recv_timeout(Duration::from_secs(1)).is_err() {
            // Something outside our reach holds a pipe: judge what was read.
            break;
        }
    }
    // Decoded in place when valid UTF-8 (no copy of a large output); past the
    // output limit only the first bytes are kept, for the report.
    let take = |c: &Arc<Mutex<Capture>>| {
        let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
        let mut bytes = std::mem::take(&mut c.bytes);
        if c.over {
            bytes.truncate(KEPT_OVER_LIMIT);
            bytes.shrink_to_fit();
        }
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        (text, c.over)
    };
    let (stdout, over) = take(&out);
    let (mut stderr, _) = take(&err);
    // The reader keeps up to twice the tail between trims: cut to the tail.
    if stderr.len() > STDERR_KEPT {
        let mut cut = stderr.len() - STDERR_KEPT;
        while !stderr.is_char_boundary(cut) {
            cut += 1;
        }
        stderr.drain(..cut);
    }
    let ending = match exited {
        _ if over => Ending::OutputLimit,
        Some(status) => Ending::Exited(status),
        None => Ending::TimeLimit,
    };
    Ok(Execution {
        ending,
        stdout,
        stderr,
        elapsed,
    })
}
