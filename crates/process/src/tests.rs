use super::*;

/// Processes of group `pgid` that still run (zombies are done).
fn running_in_group(pgid: i32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            // After "(comm)": state, ppid, pgrp.
            let fields: Vec<&str> = stat
                .rsplit_once(')')
                .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
            fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string()
        })
        .count()
}

/// When the program's exit is seen, its group is killed before the
/// program is reaped (while its pid still holds the group's id), not
/// later in `stop`.
#[test]
fn the_group_dies_when_the_exit_is_seen() {
    let mut program = Program::spawn(command("sleep 30 & exit 0")).unwrap();
    let pgid = program.id() as i32;
    let status = loop {
        if let Some(status) = program.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(status.success());
    // SIGKILL is delivered at once, but give the scheduler a moment.
    let deadline = Instant::now() + Duration::from_secs(2);
    while running_in_group(pgid) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(running_in_group(pgid), 0, "the background sleep survived");
    program.stop();
}

/// Single quotes are read as sh reads them, and nothing else is: a line
/// with any other shell syntax goes to sh whole.
#[test]
fn single_quotes_are_read_and_any_other_syntax_goes_to_sh() {
    let words = |cmd: &str| program_words(cmd);
    assert_eq!(words("./a.out  x\ty"), ["./a.out", "x", "y"]);
    assert_eq!(
        words("java -cp '/home/my name/.cache/b' Sum"),
        ["java", "-cp", "/home/my name/.cache/b", "Sum"]
    );
    assert_eq!(words("echo 'a'b'' ''"), ["echo", "ab", ""]);
    assert_eq!(
        words("python3 -c 'print(1); x = \"$HOME\"'"),
        ["python3", "-c", "print(1); x = \"$HOME\""]
    );
    for shell in [
        "a | b",
        "echo $HOME",
        "echo 'x' > f",
        "echo 'open",
        "a\nb",
        "echo \"x\"",
        "x=1 y",
        "echo 'it'\\''s'",
    ] {
        assert_eq!(words(shell), ["sh", "-c", shell], "{shell}");
    }
    assert_eq!(words("  "), ["sh", "-c", "  "]);
    // What `quoted` writes reads back as the path.
    let path = std::path::Path::new("/tmp/my dir/x (1).py");
    assert_eq!(
        words(&format!("python3 {}", quoted(path))),
        ["python3", "/tmp/my dir/x (1).py"]
    );
}

#[test]
fn a_quoted_path_is_one_shell_word() {
    let path = std::path::Path::new("/tmp/it's here/1.in");
    assert_eq!(quoted(path), r"'/tmp/it'\''s here/1.in'");
    #[allow(clippy::disallowed_methods, reason = "a shell reads the quoting back")]
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf %s {}", quoted(path)))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "/tmp/it's here/1.in");
}

/// This test binary never calls `launcher_entry`, so its runs are direct
/// children: measured by wait4 (from the test binary's own size up, which
/// is why lockstep measures through the launcher), and held to a memory
/// limit all the same.
#[test]
fn a_direct_run_is_measured_and_held_to_its_memory_limit() {
    let limits = Resources::new(Duration::from_secs(20), 1 << 20);
    let run = execute("python3 -c 'print(1)'", "", limits).unwrap();
    assert_eq!(run.stdout, "1\n", "{run:?}");
    assert!(run.memory.is_some_and(|peak| peak > 1 << 20), "{run:?}");
    let limited = Resources {
        memory: Some(128 << 20),
        ..limits
    };
    let run = execute("python3 -c 'bytearray(2 * 10**9)'", "", limited).unwrap();
    assert_eq!(run.ending, ProgramEnd::MemoryLimit, "{run:?}");
    // How it was stopped is the enforcement's in force (the banner's).
    match memory_guard() {
        // The allocation was refused inside the program, which said so.
        MemoryGuard::AddressSpace { .. } => {
            assert!(run.stderr.contains("MemoryError"), "{run:?}")
        }
        // The kernel killed it in its cgroup, before it could say anything.
        MemoryGuard::Cgroup { .. } => {
            assert!(
                run.ending == ProgramEnd::MemoryLimit && !run.stderr.contains("MemoryError"),
                "{run:?}"
            )
        }
    }
}

/// Time is CPU time: a program that computes past its limit is TLE, one
/// that sleeps past the wall-time backstop is ILE (it spent no CPU), and a
/// program that sleeps briefly within both passes whatever its wall time.
#[test]
fn a_spinner_is_over_its_cpu_limit_and_a_sleeper_over_its_wall_limit() {
    let limits = Resources {
        time: Duration::from_millis(200),
        wall: Duration::from_millis(1500),
        ..Resources::new(Duration::from_millis(200), 1 << 20)
    };
    let spin = execute("sh -c 'while :; do :; done'", "", limits).unwrap();
    assert_eq!(spin.ending, ProgramEnd::TimeLimit, "{spin:?}");
    assert!(spin.cpu >= Duration::from_millis(200), "{spin:?}");
    let sleep = execute("sleep 30", "", limits).unwrap();
    assert_eq!(sleep.ending, ProgramEnd::WallLimit, "{sleep:?}");
    assert!(sleep.cpu < Duration::from_millis(200), "{sleep:?}");
    // 300 ms asleep: over the CPU limit in wall time, within it in CPU.
    let nap = execute("sleep 0.3", "", limits).unwrap();
    assert!(
        matches!(nap.ending, ProgramEnd::Exited(s) if s.success()),
        "{nap:?}"
    );
}

/// The verdict of a program that computes well within its CPU limit does
/// not change when the machine is busy: four busy loops beside it slow its
/// wall time, not its CPU time.
#[test]
fn a_busy_machine_does_not_make_a_time_limit() {
    let mut loops: Vec<Program> = (0..4)
        .map(|_| Program::spawn(command("sh -c 'while :; do :; done'")).unwrap())
        .collect();
    let limits = Resources::new(Duration::from_millis(1500), 1 << 20);
    let runs: Vec<Execution> = (0..3)
        .map(|_| execute("python3 -c 'print(sum(range(2 * 10**6)))'", "", limits).unwrap())
        .collect();
    for program in &mut loops {
        program.stop();
    }
    for run in runs {
        assert!(
            matches!(run.ending, ProgramEnd::Exited(s) if s.success()),
            "{run:?}"
        );
        assert_eq!(run.stdout, "1999999000000\n");
        assert!(run.cpu < Duration::from_millis(1500), "{run:?}");
    }
}
