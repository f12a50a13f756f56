//! Memory limits and figures for the programs lockstep runs: which mechanism
//! enforces a limit on this machine ([`MemoryGuard`]), what a run's process
//! does before it execs to come under it ([`ChildLimits`]), and a running
//! program's resident peak.
//!
//! - **cgroup v2**, where lockstep can have cgroups with the memory
//!   controller: each run gets one of its own (`memory.max` the limit, no
//!   swap), and a run the kernel's OOM killer ends there is MLE. lockstep's
//!   own cgroup must offer the controller and hold no process but lockstep
//!   (a delegated scope: `systemd-run --user --scope -p Delegate=yes lockstep
//!   ...`); lockstep then moves itself into a leaf `lockstep` beside the
//!   runs' cgroups, since cgroup v2 lets only leaves hold processes.
//! - **RLIMIT_AS** otherwise: the run's address space is capped at the limit,
//!   so an allocation past it fails inside the program (C++ `bad_alloc`,
//!   Python `MemoryError`, Rust's "memory allocation failed"), which reads as
//!   MLE. A C program that does not check malloc's NULL, or a stack that
//!   grows into the cap, dies by a signal instead, which says nothing of
//!   memory by itself: a death by SIGSEGV, SIGBUS, SIGABRT or SIGKILL is MLE
//!   when the run's peak resident size reached [`NEAR_THE_CAP`] of the limit
//!   ([`died_at_the_cap`]), RE otherwise. A program whose static arrays
//!   alone are over the limit is killed by the kernel while it execs, with
//!   almost nothing resident: that stays RE, as nothing tells it from a
//!   crash. A JVM reserves far more address space than it uses (its heap, code
//!   cache and class space up front), so a program run by `java` gets no
//!   address-space cap but `-Xmx` (added when its command has none) and the
//!   resident watch.
//! - **The resident watch**, for every limited run: the program's peak
//!   resident size (`VmHWM`) is read at every poll of the run, and past the
//!   limit the run is killed as MLE.
//!
//! Nothing here is used unless a run has a memory limit: without one,
//! lockstep probes no cgroup and caps nothing.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// How memory limits are enforced on this machine, decided once.
#[derive(Debug)]
pub enum MemoryGuard {
    /// Each run in a cgroup of its own under `base`.
    Cgroup { base: PathBuf },
    /// The address-space rlimit, and why cgroup v2 is not used.
    AddressSpace { why: String },
}

impl std::fmt::Display for MemoryGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoryGuard::Cgroup { base } => write!(f, "cgroup v2 ({})", base.display()),
            MemoryGuard::AddressSpace { why } => {
                write!(f, "RLIMIT_AS (JVMs: -Xmx and the resident size; {why})")
            }
        }
    }
}

/// The guard in force, probed on first use.
pub fn memory_guard() -> &'static MemoryGuard {
    static GUARD: OnceLock<MemoryGuard> = OnceLock::new();
    GUARD.get_or_init(|| {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        match probe_cgroup(
            &read("/proc/self/mountinfo"),
            &read("/proc/self/cgroup"),
            std::process::id(),
        ) {
            Ok(base) => MemoryGuard::Cgroup { base },
            Err(why) => MemoryGuard::AddressSpace { why },
        }
    })
}

/// Finds lockstep's cgroup v2 directory and makes it hold cgroups with the
/// memory controller, moving lockstep into a leaf of its own when needed;
/// the directory, or why it cannot be used (nothing is left changed then).
fn probe_cgroup(mountinfo: &str, cgroup: &str, pid: u32) -> Result<PathBuf, String> {
    // A mountinfo line: ID PARENT DEV ROOT MOUNTPOINT OPTIONS ... - FSTYPE ...
    let mount = mountinfo
        .lines()
        .find_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            (right.split_whitespace().next() == Some("cgroup2"))
                .then(|| left.split_whitespace().nth(4).map(PathBuf::from))?
        })
        .ok_or("no cgroup v2 mount")?;
    let own = cgroup
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .ok_or("lockstep is in no cgroup v2")?;
    let dir = mount.join(own.trim().trim_start_matches('/'));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let has_memory = |text: String| text.split_whitespace().any(|c| c == "memory");
    if !has_memory(read("cgroup.controllers")) {
        return Err(format!(
            "cgroup v2 at {} has no memory controller for lockstep's cgroup",
            mount.display()
        ));
    }
    if has_memory(read("cgroup.subtree_control")) {
        return Ok(dir);
    }
    let others = read("cgroup.procs")
        .split_whitespace()
        .any(|p| p != pid.to_string());
    if others {
        return Err(format!(
            "lockstep's cgroup {} holds other processes; run lockstep in a delegated cgroup of its own (systemd-run --user --scope -p Delegate=yes lockstep ...)",
            dir.display()
        ));
    }
    // Only leaves may hold processes: lockstep moves into one of its own, so
    // that its cgroup may give the memory controller to the runs' cgroups.
    let leaf = dir.join("lockstep");
    let moved = std::fs::create_dir_all(&leaf)
        .and_then(|()| std::fs::write(leaf.join("cgroup.procs"), pid.to_string()))
        .and_then(|()| std::fs::write(dir.join("cgroup.subtree_control"), "+memory"));
    if let Err(e) = moved {
        let _ = std::fs::write(dir.join("cgroup.procs"), pid.to_string());
        let _ = std::fs::remove_dir(&leaf);
        return Err(format!(
            "could not enable the memory controller in {}: {e}",
            dir.display()
        ));
    }
    Ok(dir)
}

/// One run's cgroup (cgroup v2 only), removed when dropped.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    dir: PathBuf,
}

impl RunCgroup {
    /// A fresh cgroup under `base` limited to `limit` bytes, without swap.
    pub(crate) fn create(base: &Path, limit: u64) -> std::io::Result<RunCgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("run-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let cgroup = RunCgroup { dir };
        std::fs::write(cgroup.dir.join("memory.max"), limit.to_string())?;
        // Absent without swap accounting: nothing to turn off then.
        let _ = std::fs::write(cgroup.dir.join("memory.swap.max"), "0");
        Ok(cgroup)
    }

    /// The file a process writes `0` to in order to join.
    pub(crate) fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// Whether the kernel's OOM killer ended a process of the run.
    pub(crate) fn oom_killed(&self) -> bool {
        let events = std::fs::read_to_string(self.dir.join("memory.events")).unwrap_or_default();
        events.lines().any(|line| {
            line.strip_prefix("oom_kill ")
                .is_some_and(|n| n.trim() != "0")
        })
    }
}

impl Drop for RunCgroup {
    /// Removes the cgroup; its processes are killed and reaped by now, but a
    /// killed process leaves its cgroup a moment after it is reaped.
    fn drop(&mut self) {
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

/// What a run's process does between fork and exec to come under its
/// limits: an address-space cap, a cgroup to join. Prepared before the fork,
/// so that applying it allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChildLimits {
    /// RLIMIT_AS, in bytes.
    pub(crate) address_space: Option<u64>,
    /// The run cgroup's `cgroup.procs`.
    pub(crate) cgroup_procs: Option<CString>,
}

impl ChildLimits {
    pub(crate) fn is_empty(&self) -> bool {
        self.address_space.is_none() && self.cgroup_procs.is_none()
    }

    /// Applies the limits to the calling process: only system calls, as is
    /// safe between fork and exec.
    pub(crate) fn apply(&self) -> std::io::Result<()> {
        use nix::libc;
        if let Some(procs) = &self.cgroup_procs {
            // Safety: a NUL-terminated path and a two-byte buffer we own.
            unsafe {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let written = libc::write(fd, b"0".as_ptr().cast(), 1);
                libc::close(fd);
                if written != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
        }
        if let Some(bytes) = self.address_space {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            // Safety: a plain struct passed by pointer.
            if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// A running process's peak resident size so far (`VmHWM`), in bytes, if
/// process `pid` is still the child of `parent`.
///
/// Why the parent: the pid of a launcher's program is known from its report,
/// and once the launcher has reaped the program the pid is free for any new
/// process of the machine; read then, it would be a stranger's size (a false
/// MLE). The launcher forks nothing else, so a process with that pid whose
/// parent is the launcher is the program.
pub(crate) fn resident_peak(pid: u32, parent: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    resident_peak_in(&status, parent)
}

/// [`resident_peak`] of a `/proc/PID/status` text.
fn resident_peak_in(status: &str, parent: u32) -> Option<u64> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .map(|value| value.trim().trim_end_matches("kB").trim())
    };
    if field("PPid:")?.parse::<u32>().ok()? != parent {
        return None;
    }
    let kib = field("VmHWM:")?.parse::<u64>().ok()?;
    Some(kib * 1024)
}

/// Whether a command is run by `java` (started directly, not through a
/// shell): a JVM, whose address space is no measure of its memory. A run
/// line with a quoted path (a cache under a home with a space) is still
/// started directly: `program_words` reads single quotes itself.
pub fn runs_a_jvm(words: &[String]) -> bool {
    words.first().is_some_and(|program| {
        Path::new(program)
            .file_name()
            .is_some_and(|name| name == "java")
    })
}

/// A JVM's command with `-Xmx` set to the limit when it gives none: the heap
/// cap judges give it, after `java` and before its other words.
pub(crate) fn with_heap_limit(mut words: Vec<String>, limit: u64) -> Vec<String> {
    if !words.iter().any(|w| w.starts_with("-Xmx")) {
        let mib = (limit >> 20).max(1);
        words.insert(1, format!("-Xmx{mib}m"));
    }
    words
}

/// Whether a failed run's stderr says it ran out of memory, in the words of
/// the common runtimes: under RLIMIT_AS a refused allocation ends a program
/// this way rather than by a signal lockstep could see.
pub(crate) fn says_out_of_memory(stderr: &str) -> bool {
    const SIGNS: [&str; 6] = [
        "std::bad_alloc",
        "MemoryError",
        "java.lang.OutOfMemoryError",
        "memory allocation of",
        "Cannot allocate memory",
        "out of memory",
    ];
    SIGNS.iter().any(|sign| stderr.contains(sign))
}

/// How near the limit a capped run's resident peak must come for its death
/// by a signal to be MLE: 90%. Under RLIMIT_AS the cap is on address
/// space, of which a C or C++ program has some megabytes mapped and not
/// resident (its libraries, its stack's reserve), so the resident peak of
/// one that ran out stops short of the limit; a crash of a program far
/// from the limit stays RE.
pub(crate) const NEAR_THE_CAP: f64 = 0.9;

/// Whether a run under an address-space cap of `limit` bytes that ended
/// with `status` died of the cap: by SIGSEGV, SIGBUS, SIGABRT or SIGKILL
/// (a NULL from malloc written to, a stack grown into the cap, an abort in
/// an allocator, the kernel's OOM killer) with its resident peak at
/// [`NEAR_THE_CAP`] of the limit or more.
pub(crate) fn died_at_the_cap(
    status: std::process::ExitStatus,
    peak: Option<u64>,
    limit: u64,
) -> bool {
    use std::os::unix::process::ExitStatusExt;
    const SIGNALS: [i32; 4] = [
        nix::libc::SIGSEGV,
        nix::libc::SIGBUS,
        nix::libc::SIGABRT,
        nix::libc::SIGKILL,
    ];
    status.signal().is_some_and(|s| SIGNALS.contains(&s))
        && peak.is_some_and(|peak| peak as f64 >= limit as f64 * NEAR_THE_CAP)
}

/// Bytes as a person reads them: `3.4 MiB`, `512 KiB`, `1.50 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b < 1 << 20 => format!("{} KiB", b.div_ceil(1024)),
        b if b < 1 << 30 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b < 1 << 30 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64),
    }
}

#[cfg(test)]
mod tests;
