//! The launcher: lockstep's own binary, run as `lockstep __launch ...`, starts
//! one program as its child, waits for it, and reports on a pipe its exit
//! status, its peak resident memory and its time.
//!
//! Why a process between lockstep and the program: the kernel's peak
//! resident size of a process (`ru_maxrss`) starts from the size of the
//! process it was forked from, which exec does not reset. Forked from
//! lockstep (tens of MB when a puzzle's tables are loaded), a 1 MB program
//! reads as lockstep's size; forked from the launcher, which is small when
//! it forks, it reads as its own, measured as `/usr/bin/time` measures it.
//! The launcher costs one more fork and exec per run; the figures are in
//! docs/notes/2026-12-02-setter-stress.md.
//!
//! The launcher and its program share the process group lockstep made for
//! the launcher, so a kill reaches both; the report pipe is the launcher's
//! descriptor 3, closed on exec, so the program cannot hold or write it.
//! Binaries that do not call [`launcher_entry`] first (the library's own unit
//! tests) run programs directly, and their peaks include lockstep's size.

use super::memory::ChildLimits;
use std::ffi::{CString, OsString};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The first argument that makes lockstep a launcher.
const LAUNCH_ARG: &str = "__launch";

/// The launcher's report descriptor.
const REPORT_FD: i32 = 3;

/// Whether this binary can be a launcher (its `main` called [`launcher_entry`]).
static LAUNCHER: AtomicBool = AtomicBool::new(false);

/// To be called first in `main`: in a launcher, runs the program and returns
/// the launcher's exit code; otherwise notes that this binary can launch
/// programs and returns `None`.
pub fn launcher_entry() -> Option<u8> {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == LAUNCH_ARG) {
        return Some(launch(&args[2..]));
    }
    LAUNCHER.store(true, Ordering::Relaxed);
    None
}

/// Whether programs are started through the launcher.
pub(super) fn launcher_enabled() -> bool {
    LAUNCHER.load(Ordering::Relaxed)
}

/// The launcher's command for `words` under `limits`, and the read end of
/// its report pipe.
#[allow(clippy::disallowed_methods, reason = "this is where programs start")]
pub(super) fn launcher_command(
    words: &[String],
    limits: &ChildLimits,
) -> std::io::Result<(Command, Report)> {
    let (reader, writer) = std::io::pipe()?;
    // This very binary, even if its file was replaced since it started.
    let mut command = Command::new("/proc/self/exe");
    command.arg0("lockstep-launch").arg(LAUNCH_ARG);
    command.arg(
        limits
            .address_space
            .map_or("-".to_string(), |b| b.to_string()),
    );
    match &limits.cgroup_procs {
        Some(procs) => command.arg(std::ffi::OsStr::from_bytes(procs.as_bytes())),
        None => command.arg("-"),
    };
    command.arg("--").args(words);
    let writer = OwnedFd::from(writer);
    // The write end becomes descriptor 3 of the launcher only (dup2 clears
    // close-on-exec on the copy; lockstep's own copy keeps it and is closed
    // once the launcher has started).
    let raw = writer.as_raw_fd();
    // Safety: dup2 is async-signal-safe and touches only the child's table.
    unsafe {
        command.pre_exec(move || {
            // On itself dup2 would do nothing, close-on-exec included.
            let done = if raw == REPORT_FD {
                nix::libc::fcntl(REPORT_FD, nix::libc::F_SETFD, 0)
            } else {
                nix::libc::dup2(raw, REPORT_FD)
            };
            if done < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    set_nonblocking(reader.as_raw_fd())?;
    Ok((
        command,
        Report {
            reader,
            writer: Some(writer),
            text: Vec::new(),
        },
    ))
}

fn set_nonblocking(fd: i32) -> std::io::Result<()> {
    use nix::libc::{fcntl, F_GETFL, F_SETFL, O_NONBLOCK};
    // Safety: flags of a descriptor we own.
    unsafe {
        let flags = fcntl(fd, F_GETFL);
        if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// What a launcher reported of its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Launched {
    /// The program could not be started: the errno.
    Failed(i32),
    /// It ended: its raw wait status, peak resident bytes, wall time and
    /// CPU time (user and system, its waited-for children's included).
    Ended {
        status: i32,
        peak: u64,
        elapsed: Duration,
        cpu: Duration,
    },
}

/// The read end of a launcher's report, read as the run goes.
pub(super) struct Report {
    reader: std::io::PipeReader,
    /// lockstep's copy of the write end, closed once the launcher runs.
    writer: Option<OwnedFd>,
    text: Vec<u8>,
}

impl Report {
    /// Closes lockstep's copy of the write end: the launcher has its own.
    pub(super) fn started(&mut self) {
        self.writer = None;
    }

    /// Reads what has arrived, without waiting.
    fn poll(&mut self) {
        let mut buf = [0u8; 256];
        while let Ok(n) = self.reader.read(&mut buf) {
            if n == 0 || self.text.len() > 4096 {
                break;
            }
            self.text.extend_from_slice(&buf[..n]);
        }
    }

    fn lines(&self) -> impl Iterator<Item = &str> {
        std::str::from_utf8(&self.text)
            .unwrap_or("")
            .lines()
            .filter(|l| !l.is_empty())
    }

    /// The program's process id, once the launcher has said it.
    pub(super) fn program_pid(&mut self) -> Option<u32> {
        self.poll();
        self.lines()
            .find_map(|l| l.strip_prefix("started "))
            .and_then(|pid| pid.trim().parse().ok())
    }

    /// What became of the program, once the launcher has exited.
    pub(super) fn outcome(&mut self) -> Option<Launched> {
        self.poll();
        self.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            match words.next()? {
                "failed" => Some(Launched::Failed(words.next()?.parse().ok()?)),
                "ended" => {
                    let mut number = || words.next()?.parse::<u64>().ok();
                    let (status, kib, nanos, cpu) = (number()?, number()?, number()?, number()?);
                    Some(Launched::Ended {
                        status: status as i32,
                        peak: kib * 1024,
                        elapsed: Duration::from_nanos(nanos),
                        cpu: Duration::from_nanos(cpu),
                    })
                }
                _ => None,
            }
        })
    }
}

/// The launcher's exit code when it could not wait for its program: it
/// has no status to report, and lockstep must not take its silence for an
/// exit.
const LOST: u8 = 3;

/// Why a launcher that exited with `status` without reporting its
/// program's end is an error, or `None` when that is not one. A launcher
/// killed by a signal was killed with its program's process group (the
/// program's own doing, or a limit's): the run has ended, and the signal
/// is its status. One that exited by itself without an `ended` line could
/// not wait for its program ([`LOST`]) or was not run by lockstep (2): it
/// knows nothing of how the program ended, so neither does lockstep.
pub(super) fn unreported(status: std::process::ExitStatus) -> Option<std::io::Error> {
    let code = status.code()?;
    let why = match code {
        c if c == i32::from(LOST) => "could not wait for its program",
        2 => "was given arguments it does not take",
        _ => "wrote no report",
    };
    Some(std::io::Error::other(format!(
        "the launcher (lockstep __launch) {why} and exited with code {code}: how the program ended is not known"
    )))
}

/// The launcher itself: `ADDRESS-SPACE CGROUP-PROCS -- PROGRAM ARGS...`
/// (`-` for none). Exits 0 once it has reported; 2 when its arguments are
/// not lockstep's; [`LOST`] when it could not wait for its program.
fn launch(args: &[OsString]) -> u8 {
    // Safety: descriptor 3 is the report pipe lockstep gave this process.
    let mut report = unsafe { std::fs::File::from_raw_fd(REPORT_FD) };
    // Closed on exec: the program must not inherit the report.
    // Safety: flags of a descriptor this process owns.
    unsafe {
        nix::libc::fcntl(REPORT_FD, nix::libc::F_SETFD, nix::libc::FD_CLOEXEC);
    }
    let (Some(space), Some(procs), Some(rest)) = (args.first(), args.get(1), args.get(3..)) else {
        return 2;
    };
    if args[2] != "--" || rest.is_empty() {
        return 2;
    }
    let limits = ChildLimits {
        address_space: space.to_str().and_then(|s| s.parse().ok()),
        cgroup_procs: (procs != "-")
            .then(|| CString::new(procs.as_bytes()).ok())
            .flatten(),
    };
    #[allow(
        clippy::disallowed_methods,
        reason = "the launcher starts the program it measures"
    )]
    let mut command = Command::new(&rest[0]);
    command.args(&rest[1..]);
    // Always a hook, even an empty one: std then forks rather than
    // vfork-spawns, and a forked child starts from the launcher's anonymous
    // memory only, not from all it has mapped.
    // Safety: `apply` makes system calls only.
    unsafe {
        command.pre_exec(move || limits.apply());
    }
    let start = Instant::now();
    let child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let _ = writeln!(report, "failed {}", e.raw_os_error().unwrap_or(0));
            return 0;
        }
    };
    let pid = child.id() as i32;
    let _ = writeln!(report, "started {pid}");
    let (status, peak_kib, cpu) = loop {
        let mut status = 0;
        // Safety: zeroed plain data for the kernel to fill.
        let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
        // Safety: pointers to the two locals above.
        let got = unsafe { nix::libc::wait4(pid, &mut status, 0, &mut usage) };
        if got == pid {
            break (status, usage.ru_maxrss.max(0) as u64, super::cpu_of(&usage));
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            // No status to report: say so by the exit code (lockstep kills
            // the group, the program with it, once it sees this exit).
            return LOST;
        }
    };
    let _ = writeln!(
        report,
        "ended {} {peak_kib} {} {}",
        status as u32,
        start.elapsed().as_nanos(),
        cpu.as_nanos()
    );
    0
}

#[cfg(test)]
mod tests;
