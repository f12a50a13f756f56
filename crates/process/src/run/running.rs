//! One program while it runs under [`super::execute_keeping`]: started with
//! its pipes read and written on threads, waited for under its limits (the
//! CPU time, the wall-time backstop, the output, the resident watch), its
//! output collected once it is stopped, and its figures (status, peak,
//! time) read from the launcher's report when it ran through one.

use super::super::launch::{launcher_command, launcher_enabled, Launched, Report};
use super::super::memory::{self, ChildLimits};
use super::super::{piped_in_own_group, program_command, Program};
use super::{
    capture, Capture, Kept, Resources, CPU_POLL, GROUP_CPU_POLL, KEPT_OVER_LIMIT, STDERR_KEPT,
};
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A started program and what reads and writes its pipes.
pub(super) struct InFlight {
    program: Program,
    /// The launcher's report, when the program runs through the launcher.
    report: Option<Report>,
    /// The stdin writer, until it is joined.
    writer: Option<JoinHandle<()>>,
    out: Arc<Mutex<Capture>>,
    err: Arc<Mutex<Capture>>,
    /// Raised by the stdout reader past the output limit.
    over: Arc<AtomicBool>,
    /// One message from each reader when it ends.
    done: mpsc::Receiver<()>,
    /// The highest resident peak read while it ran.
    sampled: Option<u64>,
}

/// How the wait ended.
pub(super) struct Waited {
    /// The program's exit, when it ended by itself.
    pub exited: Option<ExitStatus>,
    /// The CPU time last read.
    pub spent: Duration,
    /// Killed at the wall-time limit.
    pub walled: bool,
    /// Killed when the resident watch saw it over its memory limit.
    pub watched_over: bool,
}

/// What a run measured of its program.
pub(super) struct Measured {
    pub exited: Option<ExitStatus>,
    pub memory: Option<u64>,
    pub elapsed: Duration,
    pub cpu: Duration,
}

impl InFlight {
    /// Starts the program `words` under `limits`, through the launcher
    /// where it is enabled, writing `input` to its stdin and reading its
    /// stdout (at most `output` bytes) and stderr (as `stderr` says).
    pub(super) fn start(
        words: &[String],
        limits: &ChildLimits,
        input: &str,
        output: usize,
        stderr: Kept,
    ) -> std::io::Result<InFlight> {
        let (mut command, mut report) = if launcher_enabled() {
            let (command, report) = launcher_command(words, limits)?;
            (command, Some(report))
        } else {
            (program_command(words, limits), None)
        };
        piped_in_own_group(&mut command);
        let mut program = Program::spawn(command)?;
        if let Some(report) = &mut report {
            report.started();
        }
        let child = program.child_mut();
        let mut stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
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
        let (done_tx, done) = mpsc::channel();
        {
            let (out, over, done) = (Arc::clone(&out), Arc::clone(&over), done_tx.clone());
            std::thread::spawn(move || {
                capture(stdout, out, output, Kept::StartThenStop, over, done)
            });
            let (err, over, done) = (Arc::clone(&err), Arc::new(AtomicBool::new(false)), done_tx);
            std::thread::spawn(move || capture(stderr_pipe, err, STDERR_KEPT, stderr, over, done));
        }
        Ok(InFlight {
            program,
            report,
            writer: Some(writer),
            out,
            err,
            over,
            done,
            sampled: None,
        })
    }

    /// The program itself and its parent: the launcher's child and the
    /// launcher, or the child and lockstep.
    fn pids(&mut self) -> Option<(u32, u32)> {
        match &mut self.report {
            Some(report) => report.program_pid().map(|pid| (pid, self.program.id())),
            None => Some((self.program.id(), std::process::id())),
        }
    }

    /// Reads the program's resident peak; the highest read so far.
    fn sample(&mut self) -> Option<u64> {
        let peak = self
            .pids()
            .and_then(|(pid, parent)| memory::resident_peak(pid, parent));
        if let Some(peak) = peak {
            self.sampled = self.sampled.max(Some(peak));
        }
        self.sampled
    }

    /// Waits for the program to end, or stops waiting at the first limit it
    /// passes (the caller then stops it). Polled with a short, growing sleep: a
    /// finished program is noticed within a fraction of a millisecond
    /// without a thread per wait. A limited run's resident peak is read at
    /// every poll (the watch).
    pub(super) fn wait(&mut self, start: Instant, limits: Resources) -> std::io::Result<Waited> {
        let mut pause = Duration::from_micros(20);
        let mut waited = Waited {
            exited: None,
            spent: Duration::ZERO,
            walled: false,
            watched_over: false,
        };
        let mut next_cpu_read = start + CPU_POLL;
        let mut next_group_read = start + GROUP_CPU_POLL;
        loop {
            if let Some(status) = self.program.try_wait()? {
                waited.exited = Some(status);
                return Ok(waited);
            }
            let now = Instant::now();
            if now >= next_cpu_read {
                next_cpu_read = now + CPU_POLL;
                if let Some(cpu) = self
                    .pids()
                    .and_then(|(pid, _)| super::super::waiting::cpu_time(pid))
                {
                    waited.spent = waited.spent.max(cpu);
                }
            }
            if now >= next_group_read {
                next_group_read = now + GROUP_CPU_POLL;
                let group = super::super::waiting::group_cpu_time(self.program.id());
                waited.spent = waited.spent.max(group);
            }
            if self.over.load(Ordering::Relaxed) || waited.spent > limits.time {
                self.sample();
                return Ok(waited);
            }
            if now.duration_since(start) >= limits.wall {
                waited.walled = true;
                self.sample();
                return Ok(waited);
            }
            if let Some(limit) = limits.memory {
                if self.sample().is_some_and(|peak| peak > limit) {
                    waited.watched_over = true;
                    return Ok(waited);
                }
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(1));
        }
    }

    /// Stops the program (the verdict is the main process's: whatever it
    /// left behind goes now) and collects what the pipes had: stdout, and
    /// whether it was past the output limit, and stderr's kept part.
    pub(super) fn collect(&mut self, kept: Kept) -> (String, bool, String) {
        self.program.stop();
        // Joined only if done: a detached descendant not swept yet may hold stdin
        // open with the pipe full, and the run must not wait for it.
        if let Some(writer) = self.writer.take_if(|w| w.is_finished()) {
            let _ = writer.join();
        }
        for _ in 0..2 {
            if self.done.recv_timeout(Duration::from_secs(1)).is_err() {
                // Something outside our reach holds a pipe: judge what was read.
                break;
            }
        }
        let (stdout, over) = take(&self.out, true);
        let (mut stderr, _) = take(&self.err, false);
        // The reader keeps up to twice the tail between trims: cut to the tail.
        if kept == Kept::End && stderr.len() > STDERR_KEPT {
            let mut cut = stderr.len() - STDERR_KEPT;
            while !stderr.is_char_boundary(cut) {
                cut += 1;
            }
            stderr.drain(..cut);
        }
        (stdout, over, stderr)
    }

    /// The run's status, peak, time and CPU time. Through the launcher they
    /// are the program's own, from its report; directly, the peak is the
    /// one wait4 gave. An error when the launcher could not start the
    /// program, or ended without saying how it went.
    pub(super) fn figures(
        &mut self,
        waited: &Waited,
        elapsed: Duration,
    ) -> std::io::Result<Measured> {
        let mut figures = Measured {
            exited: waited.exited,
            memory: self.program.peak(),
            elapsed,
            // Killed, the program's figure is the last one read; ended by
            // itself, wait4's (directly, the launcher's is no use: it is the
            // launcher's).
            cpu: match (waited.exited, &self.report) {
                (Some(_), None) => self.program.cpu().unwrap_or(waited.spent),
                _ => waited.spent,
            },
        };
        if let Some(report) = &mut self.report {
            figures.memory = None;
            match report.outcome() {
                Some(Launched::Failed(errno)) => {
                    return Err(std::io::Error::from_raw_os_error(errno))
                }
                Some(Launched::Ended {
                    status,
                    peak,
                    elapsed: took,
                    cpu: used,
                }) if waited.exited.is_some() => {
                    figures.exited = Some(ExitStatus::from_raw(status));
                    figures.memory = Some(peak);
                    figures.elapsed = took;
                    figures.cpu = used;
                }
                // Killed at a limit, after its report or before: the kill is
                // the ending. Ended by itself without a report: an error.
                _ => {
                    if let Some(e) = waited.exited.and_then(super::super::launch::unreported) {
                        return Err(e);
                    }
                }
            }
        }
        figures.memory = figures.memory.or(self.sampled);
        Ok(figures)
    }
}

/// What a reader collected: decoded in place when valid UTF-8 (no copy of a
/// large output); past the output limit only the first bytes are kept, for
/// the report.
fn take(capture: &Arc<Mutex<Capture>>, past_limit_kept: bool) -> (String, bool) {
    let mut c = capture.lock().unwrap_or_else(|e| e.into_inner());
    let mut bytes = std::mem::take(&mut c.bytes);
    if c.over && past_limit_kept {
        bytes.truncate(KEPT_OVER_LIMIT);
        bytes.shrink_to_fit();
    }
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, c.over)
}
