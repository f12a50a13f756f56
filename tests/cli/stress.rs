//! `lockstep stress` against the small programs in tests/fixtures: a correct one
//! passes, each planted bug gives its verdict (WA, RE, TLE) and a small shrunk
//! input, and nothing is left running.

use crate::support::{cli, fails_with, found, has, made, passed, processes_with, scratch, text};
use lockstep_core::Model;
use lockstep_harness::puzzle::Puzzle;
use lockstep_harness::puzzles::NewGame2;
use lockstep_judge::compare::Comparison;
use lockstep_judge::{judge, Verdict};
use lockstep_process::Execution;
use lockstep_process::{ProgramEnd, Resources};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// Runs `lockstep stress` on a fixture (seed 1, two jobs, the corpus in
/// `dir/corpus` unless `extra` says --no-append, `extra` split at spaces);
/// returns the output and the saved input.
fn stress(puzzle: &str, program: &str, extra: &str, dir: &Path) -> (Output, Option<String>) {
    let save = dir.join("failing.txt");
    let corpus = made(dir.join("corpus"));
    let mut command = cli("stress --seed 1 --jobs 2")
        .arg(puzzle)
        .flag("--cmd", program)
        .flag("--save", save.display());
    if !extra.contains("--no-append") {
        command = command.flag("--corpus", corpus.display());
    }
    let out = command
        .args(extra.split_whitespace().map(str::to_string))
        .run();
    (out, std::fs::read_to_string(&save).ok())
}

#[test]
fn a_correct_program_passes() {
    let dir = scratch("stress-ok");
    let (out, saved) = stress(
        "new-game2",
        "python3 tests/fixtures/new_game2.py ok",
        "--cases 30",
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["30 cases", "30 OK, 0 WA, 0 RE, 0 TLE"]);
    assert!(saved.is_none());
}

fn new_game2_size(input: &str) -> (usize, usize) {
    let case = lockstep_core::new_game2::Case::parse(input).expect("the saved input is valid");
    (case.n, case.pieces.len())
}

#[test]
fn a_wrong_answer_is_caught_shrunk_saved_and_appended() {
    let dir = scratch("stress-wa");
    let (out, saved) = stress(
        "new-game2",
        "python3 tests/fixtures/new_game2.py wa",
        "--cases 300",
        &dir,
    );
    let (_stdout, stderr) = found(&out);
    has(
        &stderr,
        &["new-game2: WA", "first difference: line 1: expected"],
    );
    // The command that shows each step of the saved input, and it works.
    let shown = stderr
        .lines()
        .find_map(|l| l.strip_prefix("each step of it, as the reference plays it: "))
        .unwrap_or_else(|| panic!("no trace command:\n{stderr}"));
    let (command, file) = shown.rsplit_once(" < ").unwrap();
    assert_eq!(command, "lockstep solve new-game2 --trace");
    let traced = crate::support::lockstep(
        &["solve", "new-game2", "--trace"],
        &std::fs::read_to_string(file).unwrap(),
    );
    has(
        &text(&traced.stdout),
        &["turn 1:", "answer (the reference's judge output):"],
    );
    let (n, k) = new_game2_size(&saved.expect("the failing input is saved"));
    assert!(n <= 6 && k <= 5, "shrunk only to {n}x{n} with {k} pieces");
    // The row is in the corpus, with the oracle's answer, and replays.
    let rows = std::fs::read_to_string(dir.join("corpus/new_game2.csv")).unwrap();
    has(&rows, &["stress-wrong-answer-", ",stress,"]);
    let replay = cli("replay new-game2")
        .flag("--corpus", dir.join("corpus").to_str().unwrap())
        .run();
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
    // The row holds the failure: the program, run on the row's input, still
    // fails against the row's expected answer (which is the reference's).
    let loaded =
        lockstep_harness::corpus::load::<NewGame2>(&dir.join("corpus/new_game2.csv")).unwrap();
    assert_eq!(loaded.len(), 1);
    let input = lockstep_harness::corpus::decode_for::<NewGame2>(&loaded[0].row.input);
    let expected = lockstep_harness::corpus::decode_for::<NewGame2>(&loaded[0].row.expected);
    let reference =
        lockstep_harness::puzzle::run_reference::<NewGame2>(&loaded[0].case, NewGame2::FUEL)
            .and_then(|side| side.answer().cloned())
            .expect("the reference answers");
    assert_eq!(
        expected,
        <NewGame2 as Puzzle>::Case::write_answer(&reference)
    );
    let run = lockstep_process::execute(
        "python3 tests/fixtures/new_game2.py wa",
        &input,
        Resources::new(Duration::from_secs(10), 1 << 20),
    )
    .unwrap();
    assert!(
        matches!(
            judge(&expected, &run, Comparison::Lines),
            Verdict::WrongAnswer(_)
        ),
        "the program passes the row it failed: {run:?}"
    );
}

#[test]
fn a_crash_is_a_runtime_error_with_its_stderr() {
    let dir = scratch("stress-re");
    let (out, saved) = stress(
        "new-game2",
        "python3 tests/fixtures/new_game2.py re",
        "--cases 300 --no-append",
        &dir,
    );
    let (_, stderr) = found(&out);
    has(&stderr, &["new-game2: RE"]);
    has(
        &stderr,
        &["exit code 1", "RuntimeError: a group moved onto red"],
    );
    let (n, k) = new_game2_size(&saved.unwrap());
    assert!(n <= 6 && k <= 5, "shrunk only to {n}x{n} with {k} pieces");
    assert!(
        !dir.join("corpus/new_game2.csv").exists(),
        "--no-append must not write"
    );
}

#[test]
fn a_program_over_the_time_limit_is_killed_with_what_it_started() {
    let dir = scratch("stress-tle");
    let tag = format!("tle-tag-{}", std::process::id());
    // Through a shell, so that the program is a grandchild: the whole group must go.
    let program = format!("python3 tests/fixtures/new_game2.py tle {tag} | cat");
    let (out, saved) = stress(
        "new-game2",
        &program,
        "--cases 200 --timeout-ms 400 --no-append",
        &dir,
    );
    let (_, stderr) = found(&out);
    has(
        &stderr,
        &["new-game2: TLE", "spent more than 400 ms of CPU time"],
    );
    let (n, k) = new_game2_size(&saved.unwrap());
    assert!(n <= 6 && k <= 5, "shrunk only to {n}x{n} with {k} pieces");
    // The kill is asynchronous: give the processes a few seconds to disappear.
    let until = std::time::Instant::now() + Duration::from_secs(5);
    while processes_with(&tag) > 0 && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_with(&tag),
        0,
        "a timed-out program was left running"
    );
}

#[test]
fn a_footholds_bug_shrinks_to_a_small_board() {
    let dir = scratch("stress-footholds");
    let (out, saved) = stress(
        "footholds",
        "python3 tests/fixtures/footholds.py wa",
        "--cases 400 --no-append",
        &dir,
    );
    let (_, _stderr) = found(&out);
    let case = lockstep_core::footholds::Case::parse(&saved.unwrap()).unwrap();
    assert_eq!(
        case.games.len(),
        1,
        "a multi-game input is cut to the failing game"
    );
    let g = &case.games[0];
    assert!(
        g.height * g.width <= 9,
        "shrunk only to {}x{}",
        g.height,
        g.width
    );
}

#[test]
fn a_command_that_cannot_start_is_one_clear_error() {
    let dir = scratch("stress-missing");
    for program in ["no-such-program-lockstep", "no-such-program-lockstep | cat"] {
        let (out, _) = stress("robots", program, "--cases 5", &dir);
        let stderr = fails_with(&out, "cannot start");
        assert_eq!(stderr.lines().count(), 1, "{program}: {stderr}");
    }
}

#[test]
fn judging_ignores_trailing_space_and_reports_the_first_differing_line() {
    let run = |stdout: &str, code: i32| Execution {
        ending: ProgramEnd::Exited(std::os::unix::process::ExitStatusExt::from_raw(code << 8)),
        stdout: stdout.to_string(),
        stderr: "boom\n".to_string(),
        elapsed: Duration::ZERO,
        memory: None,
        cpu: Duration::ZERO,
        flaky: None,
    };
    let judge = |expected: &str, run: &Execution| judge(expected, run, Comparison::Lines);
    assert_eq!(judge("1\n2\n", &run("1  \n2\n\n", 0)), Verdict::Ok);
    assert_eq!(
        judge("1\n2\n", &run("1\n3\n", 0)),
        Verdict::WrongAnswer(
            "line 2: expected \"2\", got \"3\" (2 lines expected, 2 got)".to_string()
        )
    );
    assert_eq!(
        judge("1\n", &run("", 0)),
        Verdict::WrongAnswer(
            "line 1: expected \"1\", got (no line) (1 lines expected, 0 got)".to_string()
        )
    );
    assert!(
        matches!(judge("1\n", &run("1\n", 3)), Verdict::RuntimeError { ref status, .. } if status == "exit code 3")
    );
    let timed_out = Execution {
        ending: ProgramEnd::TimeLimit,
        ..run("", 0)
    };
    assert_eq!(judge("1\n", &timed_out), Verdict::TimeLimit(None));
    // Over the output limit is OLE, whatever was printed before.
    let flooded = Execution {
        ending: ProgramEnd::OutputLimit,
        ..run("1\n", 0)
    };
    assert_eq!(judge("1\n", &flooded), Verdict::OutputLimit);
    let swollen = Execution {
        ending: ProgramEnd::MemoryLimit,
        ..run("1\n", 0)
    };
    assert_eq!(judge("1\n", &swollen), Verdict::MemoryLimit);
}

#[test]
fn duel_stress_passes_a_sound_bot_and_reports_a_broken_one_with_its_log() {
    let dir = scratch("stress-duel");
    let exe = env!("CARGO_BIN_EXE_lockstep");
    let sound = format!("{exe} duel bot --strategy greedy --seed 3");
    let out = cli("duel stress --games 8 --seed 2")
        .flag("--cmd", &sound)
        .run();
    let stdout = passed(&out);
    has(&stdout, &["duel: 8 games against random and greedy"]);

    for (fixture, kind, message) in [
        ("illegal", "an illegal action list", "played illegally"),
        (
            "stall",
            "a timeout",
            "ran out of time (1000 ms in all) before answering",
        ),
        ("garbage", "a protocol error", "sent a malformed answer"),
        // Which line went unanswered is named.
        ("mute", "a timeout", "before answering READY"),
    ] {
        let save = dir.join(format!("{fixture}.log"));
        let program = format!("sh tests/fixtures/duel/{fixture}.sh");
        let out = cli("duel stress --games 4 --seed 2")
            .flag("--cmd", &program)
            .flag("--save", save.to_str().unwrap())
            .run();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{fixture}: {stderr}");
        assert!(
            stderr.contains(&format!("the bot lost by {kind}: it ")) && stderr.contains(message),
            "{fixture}: {stderr}"
        );
        has(&stderr, &["replay: lockstep duel referee --p1"]);
        let log = std::fs::read_to_string(&save).expect("the log is saved");
        assert!(log.starts_with("INIT "), "{fixture}: {log}");
    }
}

/// The shrinker's budget is the user's, and a cut-off says so.
#[test]
fn a_shrink_cut_off_by_its_budget_says_so() {
    let dir = scratch("stress-shrink-budget");
    let (out, _) = stress(
        "new-game2",
        "python3 tests/fixtures/new_game2.py wa",
        "--cases 300 --shrink-attempts 1 --no-append",
        &dir,
    );
    let (_, stderr) = found(&out);
    has(
        &stderr,
        &["1 candidates run, cut off by the attempt budget"],
    );
}

/// `--dump` writes every case and the oracle's answer; `--limits original`
/// keeps checkers cases inside the statement (no square off 1..=32), where the
/// wide generator steps outside.
#[test]
fn dumped_cases_keep_to_the_limits_asked_for() {
    use lockstep_harness::puzzles::Checkers;
    let exe = env!("CARGO_BIN_EXE_lockstep");
    let program = format!("{exe} solve checkers");
    let mut outside = [0usize; 2];
    for (i, limits) in ["original", "wide"].into_iter().enumerate() {
        let dir = scratch(&format!("stress-dump-{limits}"));
        let dump = dir.join("cases");
        let extra = format!(
            "--cases 200 --no-append --limits {limits} --dump {}",
            dump.display()
        );
        let (out, _) = stress("checkers", &program, &extra, &dir);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let mut inputs = 0;
        for entry in std::fs::read_dir(&dump).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "in") {
                inputs += 1;
                let input = std::fs::read_to_string(&path).unwrap();
                let answer = std::fs::read_to_string(path.with_extension("ans")).unwrap();
                let case = <Checkers as Puzzle>::Case::parse(&input).unwrap();
                outside[i] += usize::from(!Checkers::within_original(&case));
                let reference =
                    lockstep_harness::puzzle::run_reference::<Checkers>(&case, u64::MAX)
                        .and_then(|side| side.answer().cloned())
                        .expect("the reference answers");
                assert_eq!(
                    <Checkers as Puzzle>::Case::write_answer(&reference),
                    answer,
                    "{}",
                    path.display()
                );
            }
        }
        assert_eq!(inputs, 200);
    }
    assert_eq!(outside[0], 0, "original cases outside the limits");
    assert!(outside[1] > 0, "the wide generator never left the limits");
}

/// A program that fails once and then never again: the failure is named by
/// how it failed (a runtime error), not by the shrunk case's re-run, which
/// passes; the report says the failure is not deterministic.
#[test]
fn a_failure_that_does_not_repeat_is_named_by_how_it_failed() {
    let dir = scratch("stress-flaky");
    let (first, failed) = (dir.join("started"), dir.join("failed"));
    // Run 1 is the start-up check; then exactly one run fails (mkdir is
    // atomic, so two jobs cannot both take it) and every other run solves.
    let program = format!(
        "if [ ! -e {first} ]; then touch {first}; cat >/dev/null; exit 0; fi; \
         if mkdir {failed} 2>/dev/null; then exit 3; fi; \
         exec {bin} solve new-game2",
        failed = failed.display(),
        first = first.display(),
        bin = crate::support::BIN,
    );
    let program = format!("sh -c '{program}'");
    let (out, saved) = stress("new-game2", &program, "--cases 20", &dir);
    let (stdout, stderr) = found(&out);
    has(&stdout, &[" 1 RE,", "stress-runtime-error-"]);
    assert!(!stdout.contains("stress-ok-"), "{stdout}");
    has(&stderr, &["new-game2: RE (job ", "not deterministic"]);
    assert!(saved.is_some(), "the input is saved under --save");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--format json`: one document on stdout with the counts and each failure,
/// its input, row and where they went; the reports stay on stderr.
#[test]
fn stress_writes_one_json_document() {
    let dir = scratch("stress-json");
    let (out, saved) = stress(
        "new-game2",
        "python3 tests/fixtures/new_game2.py wa",
        "--cases 300 --format json",
        &dir,
    );
    let (stdout, stderr) = found(&out);
    let doc: serde_json::Value =
        serde_json::from_str(&stdout).expect("stdout is one JSON document");
    assert_eq!(doc["lockstep"], "stress");
    assert_eq!(doc["schema"], 1);
    assert_eq!(doc["puzzle"], "new-game2");
    let counts = &doc["counts"];
    assert!(counts["wrong_answer"].as_u64().unwrap() >= 1, "{doc:#}");
    assert_eq!(
        counts["cases"].as_u64().unwrap(),
        [
            "ok",
            "wrong_answer",
            "runtime_error",
            "time_limit",
            "memory_limit",
            "output_limit",
            "skipped"
        ]
        .iter()
        .map(|k| counts[k].as_u64().unwrap())
        .sum::<u64>(),
        "{doc:#}"
    );
    // Peak memory is measured for every run: a Python program's is megabytes.
    let (median, largest) = (&doc["memory"]["median"], &doc["memory"]["largest"]);
    assert!(median.as_u64().unwrap() > 1 << 20, "{doc:#}");
    assert!(
        largest.as_u64().unwrap() >= median.as_u64().unwrap(),
        "{doc:#}"
    );
    let failures = doc["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{doc:#}");
    assert_eq!(failures[0]["kind"], "WA");
    assert_eq!(failures[0]["input"].as_str(), saved.as_deref());
    assert!(
        failures[0]["recorded"]
            .as_str()
            .unwrap()
            .starts_with("appended"),
        "{doc:#}"
    );
    has(&stderr, &["first difference"]);
}

/// A run that ends at the time limit once and passes when run again is
/// flaky: listed apart, no failure, exit 0; `--strict-timing` takes the
/// first run's word and fails.
#[test]
fn a_time_limit_that_does_not_repeat_is_flaky_and_no_failure() {
    for strict in [false, true] {
        let dir = scratch(&format!("stress-flaky-tle-{strict}"));
        let (first, spun) = (dir.join("started"), dir.join("spun"));
        // Run 1 is the start-up check; then exactly one run spins until it
        // is killed, and every other run solves.
        let program = format!(
            "if [ ! -e {first} ]; then touch {first}; cat >/dev/null; exit 0; fi; \
             if mkdir {spun} 2>/dev/null; then while :; do :; done; fi; \
             exec {bin} solve new-game2",
            first = first.display(),
            spun = spun.display(),
            bin = crate::support::BIN,
        );
        let extra = match strict {
            false => "--cases 6 --timeout-ms 300 --no-append",
            true => "--cases 6 --timeout-ms 300 --no-append --strict-timing",
        };
        let (out, _) = stress("new-game2", &format!("sh -c '{program}'"), extra, &dir);
        let stdout = text(&out.stdout);
        if strict {
            let (stdout, _) = found(&out);
            has(&stdout, &[" 1 TLE,"]);
        } else {
            assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
            has(
                &stdout,
                &[
                    "6 OK, 0 WA, 0 RE, 0 TLE",
                    "; 1 flaky",
                    "flaky: 1 case over a time limit once",
                ],
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A directory given as the program is named as one, not as a permission
/// the user lacks.
#[test]
fn a_directory_as_the_program_is_called_a_directory() {
    let dir = scratch("stress-dir-cmd");
    let (out, _) = stress("robots", "/tmp", "--cases 2 --no-append", &dir);
    let stderr = fails_with(&out, "/tmp: is a directory, not a program");
    assert!(!stderr.contains("Permission denied"), "{stderr}");
}

/// The second tier: the heavy hunts, which `cargo test` leaves to CI
/// (`.ci/run`; docs/guide/src/tasks/measure.md).
mod hunt {
    use super::*;

    /// `--keep-going` runs every case, counts every failure by kind with where it
    /// was generated, and shrinks and saves the first of each kind.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn keep_going_counts_every_failure_and_shrinks_one_of_each_kind() {
        let dir = scratch("stress-keep-going");
        let (out, _) = stress(
            "new-game2",
            "python3 tests/fixtures/new_game2.py mixed",
            // Bounded by attempts alone: no assertion here may depend on how
            // fast the machine is.
            "--cases 60 --keep-going --no-append --shrink-seconds 1000000",
            &dir,
        );
        let (stdout, stderr) = found(&out);
        let summary = stdout
            .lines()
            .find(|l| l.starts_with("new-game2: 60 cases"))
            .unwrap_or_else(|| panic!("{stdout}"));
        let count = |kind: &str| -> usize {
            let at = summary.find(&format!(" {kind}")).unwrap();
            summary[..at].rsplit(' ').next().unwrap().parse().unwrap()
        };
        let (wa, re) = (count("WA,"), count("RE,"));
        assert!(wa > 0 && re > 0, "{summary}");
        for (kind, n) in [("WA", wa), ("RE", re)] {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("{kind}: ")))
                .unwrap_or_else(|| panic!("no {kind} line in {stdout}"));
            assert!(line.starts_with(&format!("{kind}: {n} case")), "{line}");
            // The cases, by their addresses with jobs 0 and 1, at most 20 of
            // them listed, each one `--case` reads back.
            let listed: Vec<(u64, u64)> = line
                .split_once(": ")
                .and_then(|(_, rest)| rest.split_once(": "))
                .unwrap_or_else(|| panic!("{line}"))
                .1
                .split(", ")
                .filter(|t| *t != "...")
                .map(|t| match t.parse::<lockstep_search::Address>() {
                    Ok(lockstep_search::Address::Stream { job, index }) => (job, index),
                    other => panic!("{t} in {line}: {other:?}"),
                })
                .collect();
            assert_eq!(listed.len(), n.min(20), "{line}");
            assert!(listed.iter().all(|&(j, i)| j < 2 && i < 60), "{line}");
            let saved = std::fs::read_to_string(dir.join(format!("failing-{kind}.txt")))
                .unwrap_or_else(|e| panic!("{kind} not saved: {e}"));
            let (n, k) = new_game2_size(&saved);
            assert!(
                n <= 7 && k <= 5,
                "{kind} shrunk only to {n}x{n} with {k} pieces"
            );
            assert!(
                stderr.contains(&format!("new-game2: {kind} (job ")),
                "{stderr}"
            );
        }
        has(&stderr, &["a local minimum"]);
    }

    /// One seed and job count give one reported failure and one shrunk case,
    /// whichever job is slow: the lowest failing case wins, and the shrink is
    /// bounded by attempts, not by the clock.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_slow_job_changes_neither_the_failure_reported_nor_its_shrunk_case() {
        let run = |slow: &str| {
            let dir = scratch(&format!("stress-slow-{slow}"));
            let save = dir.join("failing.txt");
            let out = cli("stress new-game2 --seed 4 --jobs 2 --cases 40 --no-append")
                .flag(
                    "--cmd",
                    format!("SLOW={slow} python3 tests/fixtures/new_game2.py mixed"),
                )
                .flag("--save", save.display())
                .args(
                    "--shrink-attempts 60 --shrink-seconds 1000000"
                        .split_whitespace()
                        .map(str::to_string),
                )
                .run();
            let (_, stderr) = found(&out);
            let reported = stderr
                .lines()
                .find(|l| l.starts_with("new-game2: "))
                .unwrap_or_else(|| panic!("{stderr}"))
                .to_string();
            let saved = std::fs::read_to_string(&save).unwrap();
            let _ = std::fs::remove_dir_all(&dir);
            (reported, saved)
        };
        let (even, odd) = (run("even"), run("odd"));
        assert_eq!(even.0, odd.0);
        assert_eq!(even.1, odd.1);
    }
}

/// By default a user's failure lands in no corpus, not even `./corpus` of
/// the directory stress runs in (in a clone of lockstep, the tool's own):
/// its row is printed and its input saved where --save says; --corpus DIR
/// appends it when asked.
#[test]
fn a_failure_goes_to_no_corpus_unless_one_is_named() {
    let dir = scratch("stress-no-corpus-by-default");
    let corpus = made(dir.join("corpus"));
    let program = format!(
        "python3 {}/tests/fixtures/new_game2.py wa",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = cli("stress new-game2 --seed 1 --jobs 2 --cases 300")
        .flag("--cmd", &program)
        .flag("--save", "failing.txt")
        .run_in(&dir);
    let (stdout, stderr) = found(&out);
    has(&stdout, &["stress-wrong-answer"]);
    has(
        &stderr,
        &["its corpus row printed (--corpus DIR also appends"],
    );
    assert!(!stderr.contains("appended row"), "{stderr}");
    assert!(dir.join("failing.txt").is_file(), "the input is saved");
    assert!(
        std::fs::read_dir(&corpus).unwrap().next().is_none(),
        "./corpus was written to"
    );
    let out = cli("stress new-game2 --seed 1 --jobs 2 --cases 300")
        .flag("--cmd", &program)
        .flag("--save", "failing.txt")
        .flag("--corpus", "corpus")
        .run_in(&dir);
    let (_, stderr) = found(&out);
    has(&stderr, &["appended row"]);
    assert!(corpus.join("new_game2.csv").is_file());
}

/// A stress signature is a stable kind and a short hash, never the
/// program's own output (`hello world` printed where a game was expected).
#[test]
fn a_signature_holds_no_raw_output() {
    let dir = scratch("stress-signature");
    let out = cli("stress robots --seed 1 --jobs 1 --cases 1 --shrink-attempts 5")
        .flag("--cmd", "echo hello world")
        .flag("--save", dir.join("failing.txt").display())
        .run();
    let (stdout, _) = found(&out);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("stress-wrong-answer"))
        .unwrap_or_else(|| panic!("no row: {stdout}"));
    let signature = row.rsplit(',').next().unwrap();
    assert!(
        signature.starts_with("robots:stress-wrong-answer:line-1-") && !signature.contains("hello"),
        "{signature}"
    );
}

/// A program that cannot start is a setup error (exit 2) saying why, before
/// any case: a directory named without `./`, a program of the current
/// directory named without `./` (the shell looks on the PATH only), an
/// interpreter's script that does not exist (`python3 missing.py`, which
/// would otherwise fail every case and be shrunk as a runtime error).
#[test]
fn a_program_that_cannot_start_is_a_setup_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("stress-cannot-start");
    made(dir.join("mine"));
    let program = dir.join("prog");
    std::fs::write(&program, "#!/bin/sh\ncat\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (cmd, says) in [
        ("mine", "mine: is a directory"),
        ("prog", "run as ./prog"),
        ("python3 missing.py", "missing.py: no such file"),
        ("python3 -u sub/missing.py", "sub/missing.py: no such file"),
    ] {
        let out = cli("stress robots --cases 2 --seed 1")
            .flag("--cmd", cmd)
            .run_in(&dir);
        let stderr = fails_with(&out, says);
        assert_eq!(stderr.trim().lines().count(), 1, "{cmd}: {stderr}");
    }
    // The same programs named as they run are no setup error.
    let out = cli("stress robots --cases 1 --seed 1 --shrink-attempts 1")
        .flag("--cmd", "./prog")
        .run_in(&dir);
    found(&out);
}

/// The limits of a run are shown as given, and a short wall limit is
/// warned of before the run: below the program's start-up every run is
/// ILE, below the CPU time limit ILE comes before TLE. The table counts
/// ILE as it counts every verdict, 0 too.
#[test]
fn the_limits_are_shown_as_given_and_a_short_wall_is_warned_of() {
    let dir = scratch("stress-limits");
    let save = dir.join("failing.txt");
    let solve = format!("{} solve new-game2", crate::support::BIN);
    let run = |program: &str, limits: &str| {
        cli(&format!(
            "stress new-game2 --seed 1 --cases 2 --jobs 1 --no-append {limits}"
        ))
        .flag("--cmd", program)
        .flag("--save", save.display())
        .run()
    };
    // Far past a day: a typo, refused before anything runs.
    let out = run(&solve, "--timeout-ms 99999999999999");
    fails_with(
        &out,
        "99999999999999 ms is too large (at most 86400000 ms, a day)",
    );
    let out = run(&solve, "--wall-ms 86400001");
    fails_with(&out, "too large (at most 86400000 ms, a day)");
    // A day is shown as given, and its wall ten times it.
    let out = run(&solve, "--timeout-ms 86400000");
    let stdout = passed(&out);
    let stderr = text(&out.stderr);
    has(&stderr, &["CPU time limit 86400000 ms, wall 864000000 ms,"]);
    assert!(!stderr.contains("warning"), "{stderr}");
    has(&stdout, &["2 OK, 0 WA, 0 RE, 0 TLE, 0 ILE, 0 MLE, 0 OLE"]);
    // A wall below the CPU time limit, above the start-up.
    let out = run(&solve, "--wall-ms 1000");
    passed(&out);
    has(
        &text(&out.stderr),
        &[
            "warning: --wall-ms 1000 is below the CPU time limit (2000 ms)",
            "wall 1000 ms (below the CPU time limit: ILE comes first)",
        ],
    );
    // A wall below the program's start-up: every run is ILE.
    let slow = dir.join("slow.sh");
    std::fs::write(&slow, format!("#!/bin/sh\nsleep 0.05\nexec {solve}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run(slow.to_str().unwrap(), "--wall-ms 10 --strict-timing");
    let (stdout, stderr) = found(&out);
    has(
        &stderr,
        &[
            "warning: --wall-ms 10 is below the program's start-up (",
            "every run will be ILE",
        ],
    );
    has(&stdout, &["0 OK, 0 WA, 0 RE, 0 TLE, 1 ILE, 0 MLE, 0 OLE"]);
}

/// A number in a judge input too large for any value is said to be too
/// large, with the limit, not to be no number.
#[test]
fn a_number_too_large_is_out_of_range_not_no_number() {
    let out = cli("solve new-game2")
        .stdin("99999999999999999999 4\n")
        .run();
    fails_with(
        &out,
        "line 1: N is too large (at most 12), found 99999999999999999999",
    );
    let out = cli("solve new-game2").stdin("4 x\n").run();
    fails_with(&out, "expected a whole number for K, found \"x\"");
}
