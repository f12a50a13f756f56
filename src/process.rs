//! Running programs lockstep does not trust: a user's solution under `stress`,
//! duel bots under the referee and in tournaments. One way to start, time, read
//! and stop them, so that no program can hurt the machine or the verdict.
//!
//! - **Groups.** A program starts in a process group of its own; stopping it is
//!   SIGKILL to the whole group, so what it started goes too.
//! - **Orphans.** lockstep makes itself a child subreaper
//!   (`prctl(PR_SET_CHILD_SUBREAPER)`): a descendant that detaches (a double
//!   fork, `setsid`) is re-parented to lockstep instead of init. [`sweep`] kills
//!   and reaps every such orphan that no live program's group still claims; it
//!   runs whenever a program is stopped and at [`shutdown`].
//! - **Registry.** Every live program is registered. [`stop_on_signals`] makes
//!   SIGINT, SIGTERM and SIGHUP kill them all (and sweep) before lockstep exits;
//!   [`shutdown`] does the same at a normal exit; dropping a [`Program`] kills it.
//! - **Verdicts.** [`run`] judges by the main process alone: when it exits (or
//!   runs out of time, or writes more than the output limit) its group is
//!   killed and the pipes are drained, so a descendant that holds stdout open
//!   cannot stretch the run or change what was read. Output is read under a cap;
//!   stderr keeps only its tail.
//!
//! Children that lockstep itself starts without this module (the tests start
//! `lockstep` binaries, say) share lockstep's own process group, and a sweep
//! leaves those alone.

use nix::sys::signal::{self, killpg, SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::{getpgid, getpgrp, Pid};
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{mpsc, Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// Characters that make a command need a shell.
const SHELL_SYNTAX: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '$', '`', '\\', '"', '\'', '*', '?', '[', ']', '#', '~',
    '=', '%', '{', '}', '\n',
];

/// A program to run from a user's command line: directly when the line has no
/// shell syntax (saving a shell's start-up on every run), through `sh -c`
/// otherwise; piped stdin, stdout and stderr, in a process group of its own.
pub fn command(cmd: &str) -> Command {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let mut command = if cmd.contains(SHELL_SYNTAX) || words.is_empty() {
        let mut c = Command::new("sh");
        c.arg("-c").arg(cmd);
        c
    } else {
        let mut c = Command::new(words[0]);
        c.args(&words[1..]);
        c
    };
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command
}

/// The process groups (each led by its program, so group id = pid) of the
/// programs started and not yet stopped.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<i32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes this process a child subreaper, once. Where that fails (not Linux, or
/// a kernel without it) orphans go to init as before; groups still work.
fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// A running program, registered until it is stopped. Dropping it stops it.
pub struct Program {
    child: Child,
    status: Option<ExitStatus>,
    stopped: bool,
    /// Its group was killed while its id was still held (see `try_wait`).
    group_killed: bool,
}

impl Program {
    /// Starts `command` (from [`command`], or any command in a group of its own).
    pub fn spawn(mut command: Command) -> std::io::Result<Program> {
        become_subreaper();
        // Registered under the lock, so that a sweep on another thread never
        // sees the new child unregistered.
        let mut live = live();
        if SHUTTING_DOWN.load(Ordering::SeqCst) {
            return Err(std::io::Error::other("lockstep is stopping"));
        }
        let child = command.spawn()?;
        live.push(child.id() as i32);
        Ok(Program {
            child,
            status: None,
            stopped: false,
            group_killed: false,
        })
    }

    /// The program's process (and process group) id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The child, for its pipes.
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Its exit status, if it has exited (reaping it then).
    ///
    /// The exit is first seen without reaping (`WNOWAIT`): while the program
    /// is an unreaped zombie its pid, and so its group's id, cannot be given
    /// to another process, so its group is killed then, before the reap frees
    /// the id. Killed after the reap, as it was, the group id could already
    /// name someone else's processes.
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        if self.status.is_none() {
            let pid = Pid::from_raw(self.child.id() as i32);
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
            match waitid(Id::Pid(pid), flags) {
                Ok(WaitStatus::StillAlive) => return Ok(None),
                // Exited (or already reaped, ECHILD): kill the group while the
                // zombie still holds its id, then reap.
                Ok(_) | Err(_) => {
                    let _ = killpg(pid, Signal::SIGKILL);
                    self.group_killed = true;
                    self.status = self.child.try_wait()?;
                }
            }
        }
        Ok(self.status)
    }

    /// Kills the program's whole group, reaps the program, and sweeps the
    /// orphans it may have left; returns its exit status (a signal, if it was
    /// still running).
    pub fn stop(&mut self) -> Option<ExitStatus> {
        if !self.stopped {
            self.stopped = true;
            let pgid = self.child.id() as i32;
            // Only while the program is unreaped (running, or a zombie): its
            // pid then still holds the group's id. A reaped program's group
            // was killed before the reap.
            if self.status.is_none() && !self.group_killed {
                let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
            }
            if self.status.is_none() {
                // The program itself too, in case it left its group (setpgid):
                // the wait below must not outlive the time limit.
                let _ = self.child.kill();
                self.status = self.child.wait().ok();
            }
            live().retain(|&p| p != pgid);
            sweep();
        }
        self.status
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The direct children of this process, from `/proc/self/task/*/children`
/// (orphans are re-parented to one of the subreaper's threads).
fn children() -> Vec<i32> {
    let mut found = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return found;
    };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            found.extend(
                text.split_whitespace()
                    .filter_map(|t| t.parse::<i32>().ok()),
            );
        }
    }
    found
}

/// Kills and reaps every orphan adopted from a program: a child of lockstep
/// that is neither a live program nor in a live program's group (that one
/// goes with its group), nor in lockstep's own group (lockstep's own helpers).
/// Returns how many it killed.
pub fn sweep() -> usize {
    sweep_except(&[])
}

/// [`sweep`], leaving `owned` alone too: killed programs whose owners, on other
/// threads, still hold them to reap.
fn sweep_except(owned: &[i32]) -> usize {
    let live = live();
    let own = getpgrp().as_raw();
    let mut killed = 0;
    for pid in children() {
        if live.contains(&pid) || owned.contains(&pid) {
            continue;
        }
        let pgid = match getpgid(Some(Pid::from_raw(pid))) {
            Ok(pgid) => pgid.as_raw(),
            // Gone already (a zombie has a group still; a reaped one is gone).
            Err(_) => continue,
        };
        if pgid == own || live.contains(&pgid) {
            continue;
        }
        let _ = signal::kill(Pid::from_raw(pid), Signal::SIGKILL);
        // A daemon leads a group (and a session) of its own: its children too.
        if pgid == pid {
            let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
        }
        let _ = waitpid(Pid::from_raw(pid), None);
        killed += 1;
    }
    killed
}

/// Set once [`shutdown`] starts: no program may start after it.
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// Set when a signal stops lockstep ([`stop_on_signals`]).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once a signal is stopping lockstep: the thread that handles it exits
/// the process, and any other thread should wait for that rather than report
/// on programs it killed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills every live program's group and sweeps until no orphan is left. For
/// lockstep's exit, normal or by a signal: programs that other threads are
/// still running are killed under them, and no new one starts.
pub fn shutdown() {
    // A copy: the programs stay registered until their owners stop them, so
    // that no other thread's sweep reaps one under its owner.
    let groups = {
        let live = live();
        SHUTTING_DOWN.store(true, Ordering::SeqCst);
        live.clone()
    };
    for &pgid in &groups {
        let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
    }
    // A program's children are handed to lockstep when it has exited: wait for
    // that (a zombie has exited) before looking for them.
    let until = Instant::now() + Duration::from_secs(2);
    for &pid in &groups {
        while !has_exited(pid) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    // An orphan killed now may hand its own children over in turn.
    for _ in 0..100 {
        if sweep_except(&groups) == 0 && !children_outside_own_group(&groups) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// True when process `pid` has exited (a zombie, or gone).
fn has_exited(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_none_or(|state| state == "Z" || state == "X"),
        Err(_) => true,
    }
}

/// True while a child of ours is outside our group and not a live program
/// (an orphan whose adoption a sweep may not have seen yet).
fn children_outside_own_group(owned: &[i32]) -> bool {
    let own = getpgrp().as_raw();
    let live = live();
    children().into_iter().any(|pid| {
        !live.contains(&pid)
            && !owned.contains(&pid)
            && getpgid(Some(Pid::from_raw(pid))).is_ok_and(|g| g.as_raw() != own)
    })
}

/// The write end of the pipe the signal handler writes to.
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(number: nix::libc::c_int) {
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    let byte = number as u8;
    // write(2) is async-signal-safe; the watcher thread does the rest.
    unsafe {
        nix::libc::write(fd, (&byte as *const u8).cast(), 1);
    }
}

/// On SIGINT, SIGTERM or SIGHUP: kill every live program and adopted orphan,
/// then exit with 128 + the signal's number. For the command line; call once.
pub fn stop_on_signals() {
    become_subreaper();
    let Ok((mut reader, writer)) = std::io::pipe() else {
        return;
    };
    SIGNAL_PIPE.store(writer.as_raw_fd(), Ordering::Relaxed);
    // The write end lives as long as the process.
    std::mem::forget(writer);
    let action = SigAction::new(
        SigHandler::Handler(on_signal),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // Safety: the handler only calls write(2) on a descriptor it owns.
        unsafe {
            let _ = signal::sigaction(signal, &action);
        }
    }
    std::thread::spawn(move || {
        let mut byte = [0u8; 1];
        if reader.read_exact(&mut byte).is_ok() {
            INTERRUPTED.store(true, Ordering::SeqCst);
            shutdown();
            let _ = writeln!(
                std::io::stderr(),
                "\nlockstep: stopped by signal {}; every program it started is killed",
                byte[0]
            );
            std::process::exit(128 + i32::from(byte[0]));
        }
    });
}

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
pub fn run(cmd: &str, input: &str, limits: Limits) -> std::io::Result<Execution> {
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

#[cfg(test)]
mod tests;
