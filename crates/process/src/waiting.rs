//! What a program's process group is doing, read from `/proc`: its CPU
//! time, whether any of its processes is running, and whether one is asleep
//! in a pipe read. The relay between an interactor and a solution
//! ([`lockstep_judge::stress::interactive`]) uses it to tell a deadlock (both sides
//! asleep reading, no CPU spent, nothing in flight) from a program that is
//! thinking, and an interactor that hangs from a solution that does.
//!
//! Why the kernel's wait channel: "no output for a while" alone cannot tell
//! a solution waiting for an answer from one that computes or sleeps; the
//! wait channel says where a sleeping task is (`anon_pipe_read`, or
//! `pipe_read` on older kernels, for a read on a pipe; `hrtimer_nanosleep`
//! for a sleep). Where the kernel hides it (`0` with a restrictive
//! `kptr_restrict`), nothing is called a pipe read: no deadlock is then
//! detected early, and the solution's time limit ends the run as a TLE.

/// One sample of a process group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupState {
    /// Processes found in the group.
    pub processes: usize,
    /// User and system time of them all, in clock ticks.
    pub cpu_ticks: u64,
    /// One of them is running or in an uninterruptible wait (disk).
    pub busy: bool,
    /// One of them is asleep in a read on a pipe.
    pub reading_pipe: bool,
    /// One of them is asleep on a timer (a `sleep`), and so will wake.
    pub on_timer: bool,
}

impl GroupState {
    /// Asleep reading, and nothing else in the group will wake by itself.
    pub fn blocked_reading(&self) -> bool {
        self.processes > 0 && self.reading_pipe && !self.busy && !self.on_timer
    }
}

/// The fields of `/proc/PID/stat` after the command name: the state, then
/// the parent, the group, ...; user and system time are the 12th and 13th.
fn stat_fields(pid: &str) -> Option<(char, i32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let group = fields.get(2)?.parse().ok()?;
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((state, group, utime + stime))
}

/// Clock ticks per second of `/proc`'s times (`_SC_CLK_TCK`, 100 on Linux).
fn ticks_per_second() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // Safety: sysconf reads a constant.
    *TICKS.get_or_init(
        || match unsafe { nix::libc::sysconf(nix::libc::_SC_CLK_TCK) } {
            t if t > 0 => t as u64,
            _ => 100,
        },
    )
}

/// The CPU time so far of process `pid`: its user and system time and its
/// waited-for children's, as `/proc/PID/stat` has them (to the clock tick,
/// 10 ms). `None` once it is gone. What a running program has spent, for a
/// CPU time limit; the exact figure comes from wait4 at its end.
pub fn cpu_time(pid: u32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|t| t.parse::<u64>().unwrap_or(0))
        .sum();
    Some(std::time::Duration::from_millis(
        ticks * 1000 / ticks_per_second(),
    ))
}

/// The CPU time so far of every live process in group `pgid` (their own
/// user and system time; a scan of `/proc`, so not done often). With
/// [`cpu_time`] of the group's first process, which holds its reaped
/// children's, it counts a pipeline's stages, which the first process (a
/// shell) has not reaped while they run.
pub fn group_cpu_time(pgid: u32) -> std::time::Duration {
    std::time::Duration::from_millis(group_state(pgid).cpu_ticks * 1000 / ticks_per_second())
}

/// The state of every process in group `pgid` (a scan of `/proc`; a few
/// hundred small reads, done only while an interaction is quiet).
pub fn group_state(pgid: u32) -> GroupState {
    let mut sample = GroupState::default();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return sample;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Some((state, group, ticks)) = stat_fields(pid) else {
            continue;
        };
        if group != pgid as i32 || state == 'Z' || state == 'X' {
            continue;
        }
        sample.processes += 1;
        sample.cpu_ticks += ticks;
        match state {
            'R' | 'D' => sample.busy = true,
            _ => {
                let wchan =
                    std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default();
                if wchan.contains("pipe_read") || wchan.contains("pipe_wait") {
                    sample.reading_pipe = true;
                } else if wchan.contains("sleep") || wchan.contains("hrtimer") {
                    sample.on_timer = true;
                }
            }
        }
    }
    sample
}

#[cfg(test)]
mod tests;
