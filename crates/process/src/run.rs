//! [`execute`]: one program on one input, judged by its main process alone,
//! with its time, its output, its memory and its stderr's tail capped (see
//! the parent module for why each cap is there), and its peak resident
//! memory measured.

use super::memory::{self, memory_guard, ChildLimits, MemoryGuard, RunCgroup};
use super::program_words;
use running::{InFlight, Measured};
use std::io::Read;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

mod running;

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
    /// (`lockstep_judge::run_program`); `false` (`--strict-timing`) takes
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
pub enum ProgramEnd {
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
    pub ending: ProgramEnd,
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
    /// not: that first run (`lockstep_judge::run_program`).
    pub flaky: Option<Box<Execution>>,
}

impl ProgramEnd {
    /// Ended at the CPU or the wall-time limit: a verdict a busy machine can
    /// give, confirmed by a second run before it is taken.
    pub fn is_timing(&self) -> bool {
        matches!(self, ProgramEnd::TimeLimit | ProgramEnd::WallLimit)
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
    let mut run = InFlight::start(&words, &child_limits, input, limits.output, stderr)?;
    let waited = run.wait(start, limits)?;
    let elapsed = start.elapsed();
    let (stdout, over, stderr) = run.collect(stderr);
    let figures = run.figures(&waited, elapsed)?;
    let oom_killed = cgroup.as_ref().is_some_and(RunCgroup::oom_killed);
    drop(cgroup);
    let Measured {
        exited,
        memory,
        elapsed,
        cpu,
    } = figures;
    let over_memory = limits.memory.is_some_and(|limit| {
        waited.watched_over
            || oom_killed
            || memory.is_some_and(|peak| peak > limit)
            || exited.is_some_and(|status| !status.success() && memory::says_out_of_memory(&stderr))
            // Under RLIMIT_AS, a death by a signal at the cap (see memory).
            || (capped && exited.is_some_and(|status| memory::died_at_the_cap(status, memory, limit)))
    });
    let ending = match exited {
        _ if over => ProgramEnd::OutputLimit,
        _ if over_memory => ProgramEnd::MemoryLimit,
        // Past the limit when it ended: the last read was a tick short.
        _ if cpu > limits.time => ProgramEnd::TimeLimit,
        Some(status) => ProgramEnd::Exited(status),
        None if waited.walled => ProgramEnd::WallLimit,
        None => ProgramEnd::TimeLimit,
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
