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
//! - **Time.** Time is limited as judges limit it, by CPU time (user and
//!   system, read from `/proc` as the program runs and from wait4 at its end),
//!   which a busy machine does not inflate, with a wall-time limit as the
//!   backstop for a program that sleeps or waits ([`Resources`]).
//! - **Verdicts.** [`execute`] judges by the main process alone: when it exits (or
//!   runs out of time, or writes more than the output limit) its group is
//!   killed and the pipes are drained, so a descendant that holds stdout open
//!   cannot stretch the run or change what was read. Output is read under a cap;
//!   stderr keeps only its tail.
//! - **Memory.** A run's peak resident memory is measured through a small
//!   launcher process (`process/launch.rs`), and a memory limit is enforced by a
//!   cgroup v2 or the address-space rlimit (`process/memory.rs`).
//!
//! Children that lockstep itself starts without this module (the tests start
//! `lockstep` binaries, say) share lockstep's own process group, and a sweep
//! leaves those alone.

use nix::sys::signal::{self, killpg, Signal};
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::{getpgid, getpgrp, Pid};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// Characters that make a command need a shell.
const SHELL_SYNTAX: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '$', '`', '\\', '"', '\'', '*', '?', '[', ']', '#', '~',
    '=', '%', '{', '}', '\n',
];

/// The words a user's command line runs: the line split at whitespace when
/// it has no shell syntax but single quotes (saving a shell's start-up on
/// every run), `sh -c LINE` otherwise.
///
/// Single quotes are read here, as sh reads them (everything up to the
/// next quote is literal), because lockstep writes them itself: a path
/// with a space (a build in a cache under `/home/my name`) is quoted in
/// the run line it makes. Run through `sh -c`, such a line would measure
/// the shell, and a JVM would hide behind it from the heap flag
/// (`memory`); read here, its program is the first word.
pub fn program_words(cmd: &str) -> Vec<String> {
    match quoted_words(cmd) {
        Some(words) if !words.is_empty() => words,
        _ => vec!["sh".to_string(), "-c".to_string(), cmd.to_string()],
    }
}

/// The words of `cmd` when its only shell syntax is single quotes; `None`
/// when it has any other (or a quote left open).
fn quoted_words(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            c if c.is_whitespace() && c != '\n' => words.extend(word.take()),
            c if SHELL_SYNTAX.contains(&c) => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// The command for `words`, applying `limits` in the child before it execs
/// (no hook at all without limits, so that std may spawn the cheap way).
#[allow(clippy::disallowed_methods, reason = "this is where programs start")]
pub(crate) fn program_command(words: &[String], limits: &memory::ChildLimits) -> Command {
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]);
    if !limits.is_empty() {
        let limits = limits.clone();
        // Safety: `apply` makes system calls only, as is safe after fork.
        unsafe {
            command.pre_exec(move || limits.apply());
        }
    }
    command
}

/// Piped stdin, stdout and stderr, in a process group of its own.
pub(crate) fn piped_in_own_group(command: &mut Command) {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
}

/// A program to run from a user's command line (`program_words`), piped,
/// in a process group of its own, without limits: the referee's bots.
pub fn command(cmd: &str) -> Command {
    let mut command = program_command(&program_words(cmd), &memory::ChildLimits::default());
    piped_in_own_group(&mut command);
    command
}

/// Single-quotes a path for a command line run through `sh -c`, so that any
/// path reads as one word.
pub fn quoted(path: &std::path::Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
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

/// User plus system time of a `rusage`.
pub(crate) fn cpu_of(usage: &nix::libc::rusage) -> Duration {
    let time = |t: nix::libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// A running program, registered until it is stopped. Dropping it stops it.
pub struct Program {
    child: Child,
    status: Option<ExitStatus>,
    /// Its peak resident bytes, from wait4 once it is reaped.
    peak: Option<u64>,
    /// Its CPU time (user and system, its waited-for children's included),
    /// from wait4 once it is reaped.
    cpu: Option<Duration>,
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
            peak: None,
            cpu: None,
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
                    self.reap(false)?;
                }
            }
        }
        Ok(self.status)
    }

    /// The program's peak resident memory in bytes, once it is reaped: the
    /// kernel's figure, which counts from the size of lockstep at the fork
    /// (see `process/launch.rs` for why runs are measured through the launcher).
    pub fn peak(&self) -> Option<u64> {
        self.peak
    }

    /// The program's CPU time, user and system, once it is reaped (its
    /// children's that it waited for included, as wait4 counts them).
    pub fn cpu(&self) -> Option<Duration> {
        self.cpu
    }

    /// Reaps the program with wait4 (blocking or not), keeping its status,
    /// peak and CPU time; std's own wait would give neither.
    fn reap(&mut self, block: bool) -> std::io::Result<()> {
        let pid = self.child.id() as i32;
        let flags = if block { 0 } else { nix::libc::WNOHANG };
        loop {
            let mut status = 0;
            // Safety: zeroed plain data for the kernel to fill.
            let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
            // Safety: pointers to the two locals above.
            let got = unsafe { nix::libc::wait4(pid, &mut status, flags, &mut usage) };
            if got == pid {
                self.status = Some(ExitStatus::from_raw(status));
                self.peak = Some(usage.ru_maxrss.max(0) as u64 * 1024);
                self.cpu = Some(cpu_of(&usage));
                return Ok(());
            }
            if got == 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
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
                let _ = self.reap(true);
            }
            live().retain(|&p| p != pgid);
            sweep();
        }
        self.status
    }
}

impl Program {
    /// Gives the program `grace` to exit by itself (a bot told FINISH),
    /// then [`Program::stop`]s it: its group is killed either way, since a
    /// program that exited may have left children behind.
    pub fn stop_after(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        while Instant::now() < until && !matches!(self.try_wait(), Ok(Some(_)) | Err(_)) {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.stop()
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
    remove_scratch();
}

/// Directories to remove at [`shutdown`]: scratch files of lockstep's own
/// (a checker's inputs) that a signal must not leave behind.
static REMOVE_AT_EXIT: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// Removes `dir` and what it holds at [`shutdown`], however lockstep exits.
pub fn remove_at_exit(dir: &std::path::Path) {
    REMOVE_AT_EXIT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_path_buf());
}

fn remove_scratch() {
    let dirs = std::mem::take(&mut *REMOVE_AT_EXIT.lock().unwrap_or_else(|e| e.into_inner()));
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
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

mod launch;
mod memory;
mod run;
mod signals;
mod waiting;

pub use launch::launcher_entry;
pub use memory::{human_bytes, memory_guard, runs_a_jvm, MemoryGuard};
pub use run::{
    default_wall, execute, execute_keeping, Execution, Kept, ProgramEnd, Resources,
    DEFAULT_OUTPUT_LIMIT, STDERR_KEPT,
};
pub use signals::{finish_on_signals, stop_on_signals};
pub use waiting::{cpu_time, group_state, GroupState};

#[cfg(test)]
mod tests;
