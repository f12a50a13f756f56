//! Programs that misbehave, through the real binary: they flood, daemonise,
//! hold stdout open, sleep on an empty input, never send a newline, and are
//! interrupted with SIGINT and SIGTERM. Checked: verdicts, leftover processes,
//! and that every meaningless argument is an error naming its flag.

use crate::support::{
    cli, fails_with, found, has, lockstep, made, passed, processes_left_with, processes_with,
    scratch, text, written, BIN,
};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A tag unique to this test run and `name`, to find what a program left.
fn tag(name: &str) -> String {
    format!("lockstep-abuse-{}-{name}", std::process::id())
}

/// `lockstep stress new-game2` with `program` for `cases` cases, no corpus.
fn stress(program: &str, extra: &[&str]) -> Output {
    let dir = scratch("abuse-stress");
    let save = dir.join("failing.txt");
    let mut args = vec![
        "stress",
        "new-game2",
        "--cmd",
        program,
        "--seed",
        "4",
        "--jobs",
        "2",
        "--no-append",
        "--save",
        save.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    lockstep(&args, "")
}

/// A correct new_game2 program: lockstep's own core.
fn correct() -> String {
    format!("{BIN} solve new-game2")
}

#[test]
fn a_program_printing_forever_is_ole_and_killed() {
    let out = stress("yes", &["--cases", "5", "--output-limit", "1M"]);
    let (_stdout, stderr) = found(&out);
    has(
        &stderr,
        &["new-game2: OLE", "wrote more than 1048576 bytes"],
    );
    // The report shows the start of the flood, not all of it.
    assert!(stderr.len() < 20_000, "a report of {} bytes", stderr.len());
}

#[test]
fn daemons_and_children_a_program_leaves_are_killed() {
    let tag = tag("daemon");
    // Each run leaves a daemon (its own session) and a plain background child.
    let program = format!(
        "sh -c \"setsid sh -c 'sleep 300; :' {tag} & sh -c 'sleep 300; :' {tag} & exec {}\"",
        correct()
    );
    let out = stress(&program, &["--cases", "60"]);
    let stdout = passed(&out);
    has(&stdout, &["60 OK"]);
    assert_eq!(processes_left_with(&tag), 0, "processes left behind");
}

#[test]
fn a_child_holding_stdout_does_not_change_the_verdict() {
    let tag = tag("holder");
    // The answer is printed and the main process exits, but a child it started
    // keeps the output pipe open.
    let program = format!("sh -c \"{}; sh -c 'sleep 300; :' {tag} &\"", correct());
    let start = Instant::now();
    let out = stress(&program, &["--cases", "20"]);
    let stdout = passed(&out);
    has(&stdout, &["20 OK"]);
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(processes_left_with(&tag), 0, "processes left behind");
}

/// The start-up check (one run on an empty input) is bounded by the time
/// limit, or by --startup-ms: never a hidden 10 s.
#[test]
fn the_start_up_check_takes_the_time_it_is_given() {
    // Correct on every case; on the empty input of the start-up check it sleeps.
    let program = format!(
        "sh -c 'input=$(cat); [ -n \"$input\" ] || sleep 30; printf \"%s\\n\" \"$input\" | {BIN} solve new-game2'"
    );
    for (extra, limit) in [
        (&["--timeout-ms", "1500"][..], Duration::from_millis(1500)),
        (&["--startup-ms", "300"][..], Duration::from_millis(300)),
    ] {
        let mut args = vec!["--cases", "4"];
        args.extend_from_slice(extra);
        let start = Instant::now();
        let out = stress(&program, &args);
        let elapsed = start.elapsed();
        let stdout = passed(&out);
        has(&stdout, &["4 OK"]);
        // The check's own limit, plus four quick cases and the process starts.
        assert!(
            elapsed < limit + Duration::from_secs(4),
            "{extra:?}: took {elapsed:?}"
        );
    }
}

/// SIGINT or SIGTERM to a run that has programs going leaves none behind.
#[test]
fn signals_stop_stress_and_tournaments_and_leave_nothing_running() {
    let dir = scratch("abuse-signals");
    for signal in ["INT", "TERM"] {
        let tag = tag(&format!("signal-{signal}"));
        // The checker's scratch files go here, and must be gone after the signal.
        let tmp = made(dir.join(format!("tmp-{signal}")));
        for args in runs_with_programs(&dir, signal, &tag) {
            interrupted_leaves_nothing(&args, signal, &tag, &dir, &tmp);
        }
    }
}

/// Three runs that start programs tagged `tag` and go on for minutes: a
/// tournament of a bot that leaves children behind, stress of a puzzle and
/// stress of any problem with a slow program.
fn runs_with_programs(dir: &Path, signal: &str, tag: &str) -> [Vec<String>; 3] {
    let bot = written(dir.join(format!("bot-{signal}.sh")), format!(
            "#!/bin/sh\nsetsid sh -c 'sleep 300; :' {tag} &\nsh -c 'sleep 300; :' {tag} &\nexec {BIN} duel bot --strategy random\n"
        ));
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let slow_program = format!(
        "sh -c \"setsid sh -c 'sleep 300; :' {tag} & sleep 1; exec {}\"",
        correct()
    );
    let any_problem = |mode: &str| {
        format!(
            "python3 {}/tests/fixtures/any/argmax.py {mode}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let words = |line: &str| {
        line.split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let failing = dir.join("failing.txt").to_str().unwrap().to_string();
    let mut tournament = words("duel tournament --p1");
    tournament.push(bot.to_str().unwrap().into());
    tournament.push("--p2".into());
    tournament.push(format!("{BIN} duel bot --strategy greedy"));
    tournament.extend(words("--games 2000 --jobs 2 --seed 3"));
    let mut puzzle = words("stress new-game2 --cmd");
    puzzle.push(slow_program.clone());
    puzzle.extend(words("--cases 1000 --no-append --save"));
    puzzle.push(failing.clone());
    let mut any = words("stress any");
    for (flag, mode) in [
        ("--gen", "gen"),
        ("--brute", "brute"),
        ("--checker", "check"),
    ] {
        any.push(flag.into());
        any.push(any_problem(mode));
    }
    any.push("--cmd".into());
    any.push(slow_program.replace(&correct(), &any_problem("last")));
    any.extend(words("--cases 1000 --save"));
    any.push(failing);
    [tournament, puzzle, any]
}

/// Runs `lockstep ARGS`, sends it SIG`signal` once its programs run, and
/// asserts that it exits 128 + the signal with no program tagged `tag`
/// left and nothing left in its TMPDIR `tmp`.
fn interrupted_leaves_nothing(args: &[String], signal: &str, tag: &str, dir: &Path, tmp: &Path) {
    let child = crate::support::bin()
        .args(args)
        .env("TMPDIR", tmp)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child = crate::support::Spawned::new(child);
    // Wait until programs are running, then interrupt. Seen once is
    // enough: between two tournament games the count drops to 0 for a
    // moment (each game's processes are reaped), so asking again here
    // made the test fail now and then on a healthy run.
    // A checker's run waits for its scratch directory as well, so
    // that the signal has something to clean up.
    let scratch_made = || {
        !args.iter().any(|a| a == "--checker")
            || std::fs::read_dir(tmp).is_ok_and(|mut d| d.next().is_some())
    };
    let until = Instant::now() + Duration::from_secs(20);
    let mut seen = false;
    while !seen && Instant::now() < until {
        seen = processes_with(tag) > 0 && scratch_made();
        if !seen {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert!(seen, "{args:?}: no program started");
    let pid = child.id().to_string();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output();
    let expected = if signal == "INT" { 130 } else { 143 };
    assert_eq!(
        out.status.code(),
        Some(expected),
        "{args:?}: {}",
        text(&out.stderr)
    );
    assert_eq!(
        processes_left_with(tag),
        0,
        "{args:?} after SIG{signal}: processes left behind"
    );
    let files: Vec<_> = std::fs::read_dir(tmp).unwrap().collect();
    assert!(
        files.is_empty(),
        "{args:?} after SIG{signal}: {files:?} left in TMPDIR"
    );
}

#[test]
fn a_bot_that_never_sends_a_newline_breaks_the_line_limit() {
    let flood = "sh -c 'while :; do printf xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done'";
    let out = cli("duel referee --seed 1")
        .flag("--p1", flood)
        .arg(
            // The quickest legal bot: a slow opponent under a loaded machine
            // could run out of its own time at READY and make it a draw.
            "--p2",
        )
        .arg(format!(
            "sh {}/tests/fixtures/duel/wait.sh",
            env!("CARGO_MANIFEST_DIR")
        ))
        .run();
    let stdout = passed(&out);
    has(&stdout, &["result: p2 wins", "longer than 128 bytes"]);
}

#[test]
fn meaningless_arguments_are_errors_naming_the_flag() {
    let cmd = correct();
    for (args, flag) in [
        (vec!["fuzz", "--seconds", "0"], "--seconds"),
        (vec!["fuzz", "--seconds", "99999999999999999999"], "at most"),
        (
            vec!["duel", "stress", "--cmd", "x", "--seconds", "0"],
            "--seconds",
        ),
        (vec!["fuzz", "--cases", "0"], "--cases"),
        (vec!["fuzz", "--jobs", "0"], "--jobs"),
        (vec!["fuzz", "--jobs", "100000"], "--jobs"),
        (vec!["stress", "new-game2", "--cmd", ""], "--cmd"),
        (vec!["stress", "new-game2", "--cmd", "  "], "--cmd"),
        (
            vec!["stress", "new-game2", "--cmd", &cmd, "--timeout-ms", "0"],
            "--timeout-ms",
        ),
        (
            vec!["stress", "new-game2", "--cmd", &cmd, "--seconds", "0"],
            "--seconds",
        ),
        (
            vec!["stress", "new-game2", "--cmd", &cmd, "--output-limit", "0"],
            "--output-limit",
        ),
        (vec!["perft", "--jobs", "100000"], "--jobs"),
        (vec!["perft", "--threads", "0"], "--jobs"),
        (vec!["bench", "--rounds", "0"], "--rounds"),
        (
            vec![
                "duel",
                "tournament",
                "--p1",
                "x",
                "--p2",
                "y",
                "--games",
                "0",
            ],
            "--games",
        ),
    ] {
        fails_with(&lockstep(&args, ""), flag);
    }
}

#[test]
fn a_puzzle_named_twice_runs_once() {
    let out = cli("fuzz new-game2 new_game2 --cases 100 --seed 1 --no-append").run();
    let stdout = passed(&out);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("new-game2"))
            .count(),
        1,
        "{stdout}"
    );
}

/// A deep perft says early how long it will take: an estimate follows the
/// first depths that are long enough to time (the lines before it are the
/// table's size and each depth's count).
#[test]
fn a_deep_perft_is_announced_with_an_estimate() {
    let mut child = crate::support::bin()
        .args(["perft", "--depth", "20", "--jobs", "1", "--hash-mb", "16"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap())
        .lines()
        .take(40)
    {
        let line = line.unwrap();
        let done = line.starts_with("estimate:");
        seen.push(line);
        if done {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let estimate = seen.last().expect("perft wrote nothing on stderr");
    assert!(
        estimate.starts_with("estimate: perft ") && estimate.contains("to depth 20 about"),
        "{}",
        seen.join("\n")
    );
}

/// `duel step` answers a line before the next is written: a program can drive
/// it one line at a time.
#[test]
fn duel_step_answers_each_line_as_it_reads_it() {
    let line = "1 4 4 1 1 10 0 0 0 0 0 0 0 7 7 10 0 0 0 0 0 0 0 | 0 0 | 0 0";
    let mut child = crate::support::bin()
        .args(["duel", "step"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for _ in 0..3 {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        answers.push(answer);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let batch = cli("duel step").stdin(&format!("{line}\n")).run();
    assert_eq!(answers[0], text(&batch.stdout));
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
}

/// `stress duel` is refused before anything happens (a bot is stressed by
/// `duel stress`, whose flags are the referee's): the program is not started
/// and `--dump` leaves no directory behind; `duel stress` has no `--dump`.
#[test]
fn stress_duel_is_refused_before_anything_is_made() {
    let dir = scratch("abuse-dump-refused");
    let dump = dir.join("dump");
    let started = dir.join("started");
    let cmd = format!("touch {}", started.display());
    let dump_arg = dump.to_str().unwrap();
    for (args, says) in [
        (
            ["stress", "duel"],
            "is stressed with `lockstep duel stress --cmd CMD",
        ),
        (["duel", "stress"], "--dump"),
    ] {
        let out = cli(args[0])
            .arg(args[1])
            .flag("--cmd", &cmd)
            .flag("--dump", dump_arg)
            .run();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!dump.exists(), "{args:?}: --dump was created");
        assert!(!started.exists(), "{args:?}: the program was started");
    }
}
