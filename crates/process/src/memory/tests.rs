use super::*;

/// This machine's mount table, shape for shape: cgroup v1 controllers
/// and a v2 mount without the memory controller.
const MOUNTS: &str = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n\
                      41 31 0:38 / TREE rw,relatime - cgroup2 cgroup2 rw\n";

fn tree(controllers: &str, procs: &str) -> (std::path::PathBuf, String) {
    let root = std::env::temp_dir().join(format!(
        "lockstep-cgroup-{}-{}",
        std::process::id(),
        controllers.len() + procs.len()
    ));
    let own = root.join("user.slice/scope");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("cgroup.controllers"), controllers).unwrap();
    std::fs::write(own.join("cgroup.subtree_control"), "").unwrap();
    std::fs::write(own.join("cgroup.procs"), procs).unwrap();
    (root.clone(), MOUNTS.replace("TREE", root.to_str().unwrap()))
}

/// The file protocol only: a real kernel's answers are not here (this
/// machine has no memory controller on cgroup v2 to try it on).
#[test]
fn a_delegated_cgroup_is_taken_and_lockstep_moves_into_a_leaf() {
    let (root, mounts) = tree("cpu memory pids", "77\n");
    let base = probe_cgroup(&mounts, "0::/user.slice/scope\n", 77).unwrap();
    assert_eq!(base, root.join("user.slice/scope"));
    let read = |p: &str| std::fs::read_to_string(base.join(p)).unwrap();
    assert_eq!(read("lockstep/cgroup.procs"), "77");
    assert_eq!(read("cgroup.subtree_control"), "+memory");
    let run = RunCgroup::create(&base, 256 << 20).unwrap();
    assert_eq!(
        std::fs::read_to_string(run.dir.join("memory.max")).unwrap(),
        (256u64 << 20).to_string()
    );
    assert!(!run.oom_killed());
    std::fs::write(run.dir.join("memory.events"), "oom 1\noom_kill 1\n").unwrap();
    assert!(run.oom_killed());
    // A real cgroup's files go with it; a fake one's must go first.
    for file in ["memory.max", "memory.swap.max", "memory.events"] {
        let _ = std::fs::remove_file(run.dir.join(file));
    }
    let dir = run.dir.clone();
    drop(run);
    assert!(!dir.exists());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn no_memory_controller_or_other_processes_mean_the_rlimit() {
    let (root, mounts) = tree("cpu pids", "77\n");
    let why = probe_cgroup(&mounts, "0::/user.slice/scope\n", 77).unwrap_err();
    assert!(why.contains("no memory controller"), "{why}");
    std::fs::remove_dir_all(root).unwrap();
    let (root, mounts) = tree("memory", "77\n1234\n");
    let why = probe_cgroup(&mounts, "0::/user.slice/scope\n", 77).unwrap_err();
    assert!(why.contains("holds other processes"), "{why}");
    assert!(!root.join("user.slice/scope/lockstep").exists());
    std::fs::remove_dir_all(root).unwrap();
    let why = probe_cgroup("1 2 3:4 / /x rw - ext4 /dev/x rw\n", "0::/\n", 1).unwrap_err();
    assert_eq!(why, "no cgroup v2 mount");
}

#[test]
fn a_jvm_gets_its_heap_flag_once() {
    let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert!(runs_a_jvm(&words("/usr/bin/java -cp x Main")));
    assert!(!runs_a_jvm(&words("sh -c java")));
    assert_eq!(
        with_heap_limit(words("java -cp x Main"), 256 << 20).join(" "),
        "java -Xmx256m -cp x Main"
    );
    assert_eq!(
        with_heap_limit(words("java -Xmx64m Main"), 256 << 20).join(" "),
        "java -Xmx64m Main"
    );
}

/// A pid read after its program was reaped may name another process:
/// its size counts only while its parent is the launcher.
#[test]
fn the_resident_peak_is_read_only_from_the_launchers_child() {
    let status = "Name:\tsum\nPid:\t4242\nPPid:\t4241\nVmPeak:\t  9000 kB\nVmHWM:\t    1500 kB\n";
    assert_eq!(resident_peak_in(status, 4241), Some(1500 * 1024));
    assert_eq!(resident_peak_in(status, 1), None, "a reused pid");
    // A zombie has no VmHWM.
    assert_eq!(resident_peak_in("Name:\tsum\nPPid:\t4241\n", 4241), None);
    // This very process, by its real file.
    let parent = nix::unistd::getppid().as_raw() as u32;
    assert!(resident_peak(std::process::id(), parent).is_some_and(|p| p > 0));
    assert_eq!(resident_peak(std::process::id(), parent + 1), None);
}

#[test]
fn a_signal_near_the_cap_is_the_cap_and_far_from_it_a_crash() {
    use std::os::unix::process::ExitStatusExt;
    let signal = |s: i32| std::process::ExitStatus::from_raw(s);
    let limit = 100 << 20;
    for s in [
        nix::libc::SIGSEGV,
        nix::libc::SIGBUS,
        nix::libc::SIGABRT,
        nix::libc::SIGKILL,
    ] {
        assert!(died_at_the_cap(signal(s), Some(95 << 20), limit), "{s}");
        assert!(!died_at_the_cap(signal(s), Some(50 << 20), limit), "{s}");
        assert!(!died_at_the_cap(signal(s), None, limit), "{s}");
    }
    assert!(died_at_the_cap(
        signal(nix::libc::SIGSEGV),
        Some(90 << 20),
        limit
    ));
    assert!(!died_at_the_cap(
        signal(nix::libc::SIGFPE),
        Some(99 << 20),
        limit
    ));
    // An exit code is the program's own word, never a signal.
    assert!(!died_at_the_cap(signal(1 << 8), Some(99 << 20), limit));
}

#[test]
fn bytes_read_as_a_person_reads_them() {
    assert_eq!(human_bytes(3 << 19), "1.5 MiB");
    assert_eq!(human_bytes(256 << 20), "256 MiB");
    assert_eq!(human_bytes(1000), "1 KiB");
    assert_eq!(human_bytes(3 << 30), "3.00 GiB");
}
