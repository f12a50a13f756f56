//! `lockstep stress --interactor I --gen G --cmd C` end to end, on the
//! Python fixtures in tests/fixtures/interactive: guess the number with a
//! fixed number (a binary search off by one at the upper bound) and with an
//! adaptive interactor (a search that guesses with two numbers left), a duel
//! bot played through a small interactor, and every way the two programs
//! can fail: a solution that hangs, floods, deadlocks or leaves a child, an
//! interactor that crashes, hangs or says FAIL, and SIGINT mid-run.

use crate::support::{
    cli, fails_with, found, has, passed, processes_left_with, processes_with, repo, scratch, text,
    written, BIN,
};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    format!(
        "python3 {}",
        repo(&format!("tests/fixtures/interactive/{name}.py"))
    )
}

fn guess(role: &str) -> String {
    format!("{} {role}", fixture("guess"))
}

/// `lockstep stress --interactor ...` (the spelling), saving to
/// `dir/min.txt`; returns the run, the saved test and the saved transcript.
fn stress(
    programs: &[(&str, String)],
    extra: &[&str],
    dir: &Path,
) -> (Output, Option<String>, Option<String>) {
    crate::support::stress_saving("stress", programs, extra, (dir, "min.txt"))
}

fn guessing(solution: &str) -> Vec<(&'static str, String)> {
    vec![
        ("--interactor", guess("interactor")),
        ("--gen", guess("gen")),
        ("--cmd", guess(&format!("sol {solution}"))),
    ]
}

#[test]
fn an_off_by_one_search_is_caught_shrunk_and_its_wrong_answer_shown() {
    let dir = scratch("interactive-wrong");
    let (out, saved, whole) = stress(
        &guessing("wrong"),
        &["--seed", "1", "--cases", "60", "--jobs", "2"],
        &dir,
    );
    let (stdout, stderr) = found(&out);
    has(&stdout, &["1 WA"]);
    // The smallest test on which it fails: x = n = 2.
    assert_eq!(saved.as_deref(), Some("2 2\n"), "{stderr}");
    has(
        &stderr,
        &["the interactor says WA: wrong answer: answered 1, the number is 2"],
    );
    // The transcript: n, the query, the answer, the wrong guess.
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" ms  sol  ") || l.contains(" ms  int  "))
        .collect();
    let said: Vec<&str> = lines
        .iter()
        .map(|l| l.split("  ").last().unwrap())
        .collect();
    assert_eq!(said, ["2", "? 1", ">", "! 1"], "{stderr}");
    has(&stderr, &["transcript (4 lines"]);
    let whole = whole.expect("the whole transcript is saved");
    has(&whole, &["sol  ! 1", "the interactor exited: exit code 1"]);
}

#[test]
fn a_correct_search_passes_and_the_checker_reads_the_interactors_output() {
    let dir = scratch("interactive-ok");
    // The checker accepts a query count the interactor wrote, and at most 11.
    let checker = written(
        dir.join("check.sh"),
        "#!/bin/sh\nq=$(cat \"$2\")\n[ -n \"$q\" ] && [ \"$q\" -le 11 ]\n",
    );
    let (out, saved, _) = stress(
        &[
            guessing("ok"),
            vec![
                ("--validator", guess("validate")),
                ("--checker", format!("sh {}", checker.display())),
            ],
        ]
        .concat(),
        &["--seed", "5", "--cases", "30"],
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["30 cases", "30 OK", "lines per case"]);
    assert!(saved.is_none());
    // A checker that rejects every output makes the same search WA.
    let (out, _, _) = stress(
        &[guessing("ok"), vec![("--checker", "false".to_string())]].concat(),
        &["--seed", "5", "--cases", "3", "--shrink-attempts", "5"],
        &dir,
    );
    let (_, stderr) = found(&out);
    has(&stderr, &["the checker rejects it"]);
}

#[test]
fn an_adaptive_interactor_beats_a_search_that_guesses_early() {
    let dir = scratch("interactive-adaptive");
    let adaptive = |role: &str| format!("{} {role}", fixture("adaptive"));
    let programs = |solution: &str| {
        vec![
            ("--interactor", adaptive("interactor")),
            ("--gen", adaptive("gen")),
            ("--cmd", guess(&format!("sol {solution}"))),
        ]
    };
    // A right search passes whatever the interactor makes its number.
    let (out, _, _) = stress(&programs("ok"), &["--seed", "3", "--cases", "20"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, saved, _) = stress(&programs("early"), &["--seed", "3", "--cases", "20"], &dir);
    let (_, stderr) = found(&out);
    // The adversary wins at once with two numbers: the guess is the lower.
    assert_eq!(saved.as_deref(), Some("2\n"), "{stderr}");
    has(
        &stderr,
        &["answered 1, but 2 is consistent with every answer"],
    );
    has(&stderr, &["sol  ! 1"]);
}

/// Runs the guessing problem against `solution` with a short time limit;
/// returns the run and how long it took.
fn timed(solution: &str, extra: &[&str], dir: &Path) -> (Output, Duration) {
    let start = Instant::now();
    let mut args = vec!["--seed", "1", "--cases", "2", "--shrink-attempts", "3"];
    args.extend_from_slice(extra);
    let (out, _, _) = stress(&guessing(solution), &args, dir);
    (out, start.elapsed())
}

#[test]
fn a_hanging_solution_is_tle_and_a_flood_is_ole() {
    let dir = scratch("interactive-limits");
    let (out, _) = timed("hang", &["--timeout-ms", "1500"], &dir);
    let (_, stderr) = found(&out);
    has(
        &stderr,
        &["TLE on seed 1", "spent more than 1500 ms of CPU time"],
    );
    assert!(!stderr.contains("deadlock"), "{stderr}");
    let (out, _) = timed("flood", &["--output-limit", "1M"], &dir);
    let (_, stderr) = found(&out);
    has(&stderr, &["OLE on seed 1", "wrote more than 1048576 bytes"]);
    // The flood's one line is clipped in the report.
    assert!(stderr.len() < 20_000, "a report of {} bytes", stderr.len());
}

#[test]
fn a_deadlock_is_the_solutions_tle_found_long_before_the_time_limit() {
    let dir = scratch("interactive-deadlock");
    // The solution's query sits in its own buffer; both wait to read.
    let (out, took) = timed("noflush", &[], &dir);
    let (_, stderr) = found(&out);
    has(&stderr, &["TLE on seed 1"]);
    has(
        &stderr,
        &["deadlock: the solution and the interactor both waited to read"],
    );
    // The time limit is 20 s; a few runs of the shrinker took far less.
    assert!(took < Duration::from_secs(15), "took {took:?}");
}

#[test]
fn a_child_the_solution_leaves_is_reaped() {
    let dir = scratch("interactive-child");
    let tag = format!("lockstep-interactive-{}-child", std::process::id());
    let (out, _, _) = stress(
        &guessing(&format!("child {tag}")),
        &["--seed", "1", "--cases", "8"],
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["8 OK"]);
    assert_eq!(processes_left_with(&tag), 0, "processes left behind");
}

/// An interactor script of one line of Python after guess.py's start: it
/// prints n, reads one query, then does `what`.
fn broken_interactor(dir: &Path, name: &str, what: &str) -> String {
    let path = written(dir.join(format!("{name}.py")), format!("import sys\nn, x = open(sys.argv[-2]).read().split()\nprint(n, flush=True)\nsys.stdin.readline()\n{what}\n"));
    format!("python3 {}", path.display())
}

/// A duel bot through `--interactor`: a small interactor plays the duel's
/// protocol (INIT, READY, TURN lines) and checks each answer's shape.
#[test]
fn a_duel_bot_is_stressed_through_the_general_path() {
    let dir = scratch("interactive-duel");
    let duel = |role: &str| format!("{} {role}", fixture("duel"));
    let (out, _, _) = stress(
        &[
            ("--interactor", duel("interactor")),
            ("--gen", duel("gen")),
            ("--cmd", format!("{BIN} duel bot --strategy greedy")),
        ],
        &["--seed", "1", "--cases", "6"],
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["6 OK"]);
    // A bot that answers READY and then one malformed line is caught.
    let bot = written(
        dir.join("bad-bot.sh"),
        "#!/bin/sh\nread init\nread ready\necho OK\nread turn\necho JUMP\nread turn\n",
    );
    let (out, _, _) = stress(
        &[
            ("--interactor", duel("interactor")),
            ("--gen", duel("gen")),
            ("--cmd", format!("sh {}", bot.display())),
        ],
        &["--seed", "1", "--cases", "6"],
        &dir,
    );
    let (_, stderr) = found(&out);
    // The interactor's WA, not the bot's exit at its closed input after it.
    has(
        &stderr,
        &["WA on seed 1", "is not two actions", "sol  JUMP"],
    );
}

/// SIGINT in the middle of a run: lockstep exits 130 and leaves neither the
/// interactor nor the solution nor the solution's child running.
#[test]
fn sigint_mid_run_leaves_no_program_running() {
    let dir = scratch("interactive-sigint");
    let tag = format!("lockstep-interactive-{}-sigint", std::process::id());
    let child = crate::support::bin()
        .args([
            "stress",
            "--interactor",
            &format!("{} {tag}", guess("interactor")),
            "--gen",
            &guess("gen"),
            "--cmd",
            &guess(&format!("sol child {tag}")),
            "--cases",
            "100000",
            "--save",
            dir.join("min.txt").to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let child = crate::support::Spawned::new(child);
    let until = Instant::now() + Duration::from_secs(20);
    while processes_with(&tag) < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(processes_with(&tag) >= 2, "no interaction started");
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert_eq!(
        processes_left_with(&tag),
        0,
        "processes left behind after SIGINT"
    );
}

#[test]
fn flags_that_do_not_apply_to_an_interactor_are_refused() {
    let out = cli("stress any --interactor x --brute y --gen g --cmd c").run();
    fails_with(&out, "--brute");
    let out = cli("stress any --interactor x --gen g --cmd c --memory-limit 64M").run();
    fails_with(&out, "not supported with --interactor");
    let out = cli("stress any --gen g --cmd c").run();
    fails_with(&out, "--brute");
}

mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn an_interactor_that_crashes_hangs_or_fails_is_the_tools_failure() {
        let dir = scratch("interactive-broken");
        for (name, what, says) in [
            (
                "crash",
                "raise RuntimeError('oops')",
                "the interactor crashed",
            ),
            ("spin", "while True: pass", "the interactor hangs"),
            (
                "fail",
                "sys.exit(3)",
                "the interactor failed (exit code 3, testlib's FAIL)",
            ),
        ] {
            let programs = vec![
                ("--interactor", broken_interactor(&dir, name, what)),
                ("--gen", guess("gen")),
                ("--cmd", guess("sol ok")),
            ];
            // Only the spinning interactor needs a short limit: under a loaded
            // machine's Python start-up, 1.5 s could end the others before
            // they crash or fail, and read as a hang.
            let limit = if name == "spin" { "1500" } else { "20000" };
            let (out, saved, _) = stress(
                &programs,
                &[
                    "--seed",
                    "7",
                    "--cases",
                    "3",
                    "--timeout-ms",
                    limit,
                    "--helper-timeout-ms",
                    limit,
                ],
                &dir,
            );
            let stderr = fails_with(&out, says);
            assert!(stderr.contains("on seed 7"), "{name}: {stderr}");
            assert!(saved.is_none(), "{name}: {stderr}");
        }
    }
}
