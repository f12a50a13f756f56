//! [`execute`]: one program on one input, judged by its main process alone,
//! with its time, its output, its memory and its stderr's tail capped (see
//! the parent module for why each cap is there), and its peak resident
//! memory measured.

use super::launch::{launcher_command, launcher_enabled, Launched, Report};
use super::memory::{self, memory_guard, ChildLimits, MemoryGuard, RunCgroup};
use super::{piped_in_own_group, program_command, program_words, Program};
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Resources for one [`execute`].
///
/// Time is limited as judges limit it: by CPU time, user and system, which
/// a busy machine does not inflate much (a program's share of the cores
/// shrinks, the work it does does not). A program that sleeps or waits
/// spends no CPU, so wall time has a limit too, as a backstop: each limit
/// is its own verdict (TLE, ILE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resources {
    /// CPU time (user and system, of the program and the children it
    /// waited for); more is the time limit exceeded.
    pub time: Duration,
    /// Wall time from start to exit; more is the idleness limit exceeded.
    pub wall: Duration,
    /// Bytes of stdout; one more is the output limit exceeded.
    pub output: usize,
    /// Bytes of peak resident memory; more is the memory limit exceeded.
    /// `None`: measured, not limited.
    pub memory: Option<u64>,
    /// A run of the program under test that ends at a time limit is run
    /// again before the limit is its verdict
    /// ([`crate::judge::run_program`]); `false` (`--strict-timing`) takes
    /// the first run's word.
    pub confirm_timing: bool,
}

impl Resources {
    /// A CPU time and an output limit, the default wall-time backstop,
    /// memory measured only.
    pub fn new(time: Duration, output: usize) -> Resources {
        Resources {
            time,
            wall: default_wall(time),
            output,
            memory: None,
            confirm_timing: true,
        }
    }
}

/// How many times the CPU time limit the wall-time backstop is by default:
/// room for a machine where a program gets a tenth of a core (a 2-core
/// machine with 14 busy loops beside it gives about an eighth) before a
/// program that computes is taken for one that waits.
pub const WALL_FACTOR: u32 = 10;

/// The default wall-time limit for a CPU time limit `time`.
pub fn default_wall(time: Duration) -> Duration {
    time.saturating_mul(WALL_FACTOR)
}

/// How often a running program's CPU time is read (from `/proc`, to the
/// clock tick): a CPU limit is enforced within about this much.
const CPU_POLL: Duration = Duration::from_millis(5);

/// How often the CPU time of the program's whole process group is read (a
/// scan of `/proc`): what a pipeline's stages spend is seen this late.
const GROUP_CPU_POLL: Duration = Duration::from_millis(100);

/// The default output limit: far above any answer of these puzzles (robots's
/// largest is a few MB), small enough that a program printing forever costs
/// little memory even on several jobs.
pub const DEFAULT_OUTPUT_LIMIT: usize = 16 << 20;

/// How much of stderr a run keeps (its end, or for a compile its start).
pub const STDERR_KEPT: usize = 64 << 10;

/// How much of stdout a run past the output limit keeps (its start).
const KEPT_OVER_LIMIT: usize = 4 << 10;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program exited by itself.
    Exited(ExitStatus),
    /// Spent more CPU time than the limit: killed when seen over it (or
    /// ended by itself past it).
    TimeLimit,
    /// Still running at the wall-time limit, under its CPU limit: killed.
    /// A program that sleeps or waits (or a machine so loaded that the
    /// program got less than a tenth of a core).
    WallLimit,
    /// Wrote more than the output limit: killed.
    OutputLimit,
    /// Used more memory than the limit: killed when seen over it, or ended
    /// by a refused allocation (see `process/memory.rs`).
    MemoryLimit,
}

/// One run of a program.
#[derive(Debug, Clone)]
pub struct Execution {
    pub ending: Ending,
    /// At most the output limit (only the first 4 KiB past it), decoded lossily.
    pub stdout: String,
    /// The end of stderr (at most 64 KiB; its start with
    /// [`Kept::Start`]), decoded lossily.
    pub stderr: String,
    /// From start to exit (or to the kill).
    pub elapsed: Duration,
    /// CPU time, user and system (its waited-for children's included).
    pub cpu: Duration,
    /// Peak resident memory in bytes, when known (see `process/launch.rs`).
    pub memory: Option<u64>,
    /// A run ended at a time limit and this is the run again, which did
    /// not: that first run ([`crate::judge::run_program`]).
    pub flaky: Option<Box<Execution>>,
}

impl Ending {
    /// Ended at the CPU or the wall-time limit: a verdict a busy machine can
    /// give, confirmed by a second run before it is taken.
    pub fn is_timing(&self) -> bool {
        matches!(self, Ending::TimeLimit | Ending::WallLimit)
    }
}

/// What a reader thread collects.
#[derive(Default)]
struct Capture {
    bytes: Vec<u8>,
    /// More arrived than the cap allowed.
    over: bool,
}

/// Which part of a stream a reader keeps when more than its cap arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// The start, and stop reading there: stdout, where one byte past the
    /// output limit is the verdict and the program is killed.
    StartThenStop,
    /// The start, reading (and dropping) the rest until the end, so that
    /// the program never blocks on a full pipe: a compiler's stderr, whose
    /// first errors are the ones to show.
    Start,
    /// The end: a program's stderr, where why it stopped is said last.
    End,
}

/// Reads `from` into `into` until end of file, keeping at most `cap`
/// bytes as `kept` says; raises `over` when more than `cap` arrived.
fn capture(
    mut from: impl Read,
    into: Arc<Mutex<Capture>>,
    cap: usize,
    kept: Kept,
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
        if kept == Kept::End {
            c.bytes.extend_from_slice(&buf[..n]);
            if c.bytes.len() > 2 * cap {
                let cut = c.bytes.len() - cap;
                c.bytes.drain(..cut);
            }
            continue;
        }
        let room = cap - c.bytes.len();
        if n > room {
            // Grow to the cap exactly, not past it by doubling.
            c.bytes.reserve_exact(room);
            c.bytes.extend_from_slice(&buf[..room]);
            c.over = true;
            over.store(true, Ordering::Relaxed);
            if kept == Kept::StartThenStop {
                break;
            }
        } else {
            c.bytes.extend_from_slice(&buf[..n]);
        }
    }
    let _ = done.send(());
}

/// What puts one run under its memory limit: the child's own limits, and
/// the run's cgroup (cgroup v2 only).
fn memory_setup(
    words: &mut Vec<String>,
    limits: Resources,
) -> std::io::Result<(ChildLimits, Option<RunCgroup>)> {
    let mut child = ChildLimits::default();
    let Some(limit) = limits.memory else {
        return Ok((child, None));
    };
    let jvm = memory::runs_a_jvm(words);
    if jvm {
        *words = memory::with_heap_limit(std::mem::take(words), limit);
    }
    match memory_guard() {
        MemoryGuard::Cgroup { base } => {
            let cgroup = RunCgroup::create(base, limit)?;
            child.cgroup_procs =
                std::ffi::CString::new(cgroup.procs().into_os_string().into_encoded_bytes()).ok();
            Ok((child, Some(cgroup)))
        }
        // A JVM's address space is no measure of its memory: its heap flag
        // and the resident watch limit it instead.
        MemoryGuard::AddressSpace { .. } => {
            if !jvm {
                child.address_space = Some(limit);
            }
            Ok((child, None))
        }
    }
}

/// Runs `cmd` with `input` on its stdin under `limits`. An error means the
/// program could not be started at all.
pub fn execute(cmd: &str, input: &str, limits: Resources) -> std::io::Result<Execution> {
    execute_keeping(cmd, input, limits, Kept::End)
}

/// [`execute`], keeping the part of stderr that `stderr` says (at most 64
/// KiB of it): the end for a program under test, the start for a compiler.
pub fn execute_keeping(
    cmd: &str,
    input: &str,
    limits: Resources,
    stderr: Kept,
) -> std::io::Result<Execution> {
    let start = Instant::now();
    let mut words = program_words(cmd);
    let (child_limits, cgroup) = memory_setup(&mut words, limits)?;
    let capped = child_limits.address_space.is_some();
    let (mut command, mut report) = if launcher_enabled() {
        let (command, report) = launcher_command(&words, &child_limits)?;
        (command, Some(report))
    } else {
        (program_command(&words, &child_limits), None)
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
    let (done_tx, done_rx) = mpsc::channel();
    {
        let (out, over, done) = (Arc::clone(&out), Arc::clone(&over), done_tx.clone());
        std::thread::spawn(move || {
            capture(stdout, out, limits.output, Kept::StartThenStop, over, done)
        });
        let (err, over, done) = (Arc::clone(&err), Arc::new(AtomicBool::new(false)), done_tx);
        let kept = stderr;
        std::thread::spawn(move || capture(stderr_pipe, err, STDERR_KEPT, kept, over, done));
    }

    // The program itself and its parent: the launcher's child and the
    // launcher, or the child and lockstep.
    let program_pid = |program: &Program, report: &mut Option<Report>| match report {
        Some(report) => report.program_pid().map(|pid| (pid, program.id())),
        None => Some((program.id(), std::process::id())),
    };
    // Poll for the exit with a short, growing sleep: a finished program is
    // noticed within a fraction of a millisecond without a thread per wait.
    // A limited run's resident peak is read at every poll (the watch).
    let mut pause = Duration::from_micros(20);
    let mut sampled: Option<u64> = None;
    let mut sample = |program: &Program, report: &mut Option<Report>| {
        let peak = program_pid(program, report)
            .and_then(|(pid, parent)| memory::resident_peak(pid, parent));
        if let Some(peak) = peak {
            sampled = sampled.max(Some(peak));
        }
        sampled
    };
    let mut watched_over = false;
    let mut next_cpu_read = start + CPU_POLL;
    let mut next_group_read = start + GROUP_CPU_POLL;
    let mut spent = Duration::ZERO;
    let mut walled = false;
    let exited = loop {
        if let Some(status) = program.try_wait()? {
            break Some(status);
        }
        let now = Instant::now();
        if now >= next_cpu_read {
            next_cpu_read = now + CPU_POLL;
            if let Some(cpu) = program_pid(&program, &mut report)
                .and_then(|(pid, _)| super::waiting::cpu_time(pid))
            {
                spent = spent.max(cpu);
            }
        }
        if now >= next_group_read {
            next_group_read = now + GROUP_CPU_POLL;
            spent = spent.max(super::waiting::group_cpu_time(program.id()));
        }
        if over.load(Ordering::Relaxed) || spent > limits.time {
            sample(&program, &mut report);
            break None;
        }
        if now.duration_since(start) >= limits.wall {
            walled = true;
            sample(&program, &mut report);
            break None;
        }
        if let Some(limit) = limits.memory {
            if sample(&program, &mut report).is_some_and(|peak| peak > limit) {
                watched_over = true;
                break None;
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    };
    let mut elapsed = start.elapsed();
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
    let take = |c: &Arc<Mutex<Capture>>, past_limit_kept: bool| {
        let mut c = c.lock().unwrap_or_else(|e| e.into_inner());
        let mut bytes = std::mem::take(&mut c.bytes);
        if c.over && past_limit_kept {
            bytes.truncate(KEPT_OVER_LIMIT);
            bytes.shrink_to_fit();
        }
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        (text, c.over)
    };
    let kept = stderr;
    let (stdout, over) = take(&out, true);
    let (mut stderr, _) = take(&err, false);
    // The reader keeps up to twice the tail between trims: cut to the tail.
    if kept == Kept::End && stderr.len() > STDERR_KEPT {
        let mut cut = stderr.len() - STDERR_KEPT;
        while !stderr.is_char_boundary(cut) {
            cut += 1;
        }
        stderr.drain(..cut);
    }
    // Through the launcher, the program's own status, peak and time are in
    // its report; directly, the peak is the one wait4 gave.
    let mut exited = exited;
    let mut memory = program.peak();
    // Killed, the program's figure is the last one read; ended by itself,
    // wait4's (directly, the launcher's is no use: it is the launcher's).
    let mut cpu = match (exited, &report) {
        (Some(_), None) => program.cpu().unwrap_or(spent),
        _ => spent,
    };
    if let Some(report) = &mut report {
        memory = None;
        match report.outcome() {
            Some(Launched::Failed(errno)) => return Err(std::io::Error::from_raw_os_error(errno)),
            Some(Launched::Ended {
                status,
                peak,
                elapsed: took,
                cpu: used,
            }) if exited.is_some() => {
                exited = Some(ExitStatus::from_raw(status));
                memory = Some(peak);
                elapsed = took;
                cpu = used;
            }
            // Killed at a limit, after its report or before: the kill is
            // the ending. Ended by itself without a report: an error.
            _ => {
                if let Some(e) = exited.and_then(super::launch::unreported) {
                    return Err(e);
                }
            }
        }
    }
    let memory = memory.or(sampled);
    let oom_killed = cgroup.as_ref().is_some_and(RunCgroup::oom_killed);
    drop(cgroup);
    let over_memory = limits.memory.is_some_and(|limit| {
        watched_over
            || oom_killed
            || memory.is_some_and(|peak| peak > limit)
            || exited.is_some_and(|status| !status.success() && memory::says_out_of_memory(&stderr))
            // Under RLIMIT_AS, a death by a signal at the cap (see memory).
            || (capped && exited.is_some_and(|status| memory::died_at_the_cap(status, memory, limit)))
    });
    let ending = match exited {
        _ if over => Ending::OutputLimit,
        _ if over_memory => Ending::MemoryLimit,
        // Past the limit when it ended: the last read was a tick short.
        _ if cpu > limits.time => Ending::TimeLimit,
        Some(status) => Ending::Exited(status),
        None if walled => Ending::WallLimit,
        None => Ending::TimeLimit,
    };
    Ok(Execution {
        ending,
        stdout,
        stderr,
        elapsed,
        memory,
        cpu,
        flaky: None,
    })
}
