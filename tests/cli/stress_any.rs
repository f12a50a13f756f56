//! `lockstep stress --gen --brute --cmd` end to end, on the Python fixtures in
//! tests/fixtures/any: maximum subarray (a validator, solutions that are
//! wrong, crash or hang, generators that ignore their seed), the position of
//! a maximum (several right answers, a testlib-style checker) and the 2x2
//! squares of a grid (a column to remove from every row). Each failure must
//! shrink to a handful of tokens; each broken tool must stop the run with
//! exit 2 and say which; a generator that does not follow its seed is a
//! warning.

use crate::support::{fails_with, found, has, made, passed, repo, scratch, text};
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(name: &str) -> String {
    format!("python3 {}", repo(&format!("tests/fixtures/any/{name}.py")))
}

fn max_subarray(mode: &str) -> String {
    format!("{} {mode}", fixture("max_subarray"))
}

fn argmax(mode: &str) -> String {
    format!("{} {mode}", fixture("argmax"))
}

/// `lockstep stress any` with the given programs and extra arguments,
/// saving to `dir/min.txt`; returns the run and the saved input.
fn stress(programs: &[(&str, String)], extra: &[&str], dir: &Path) -> (Output, Option<String>) {
    let (out, saved, _) =
        crate::support::stress_saving("stress any", programs, extra, (dir, "min.txt"));
    (out, saved)
}

fn subarray_programs(solution: &str) -> Vec<(&'static str, String)> {
    vec![
        ("--gen", max_subarray("gen")),
        ("--brute", max_subarray("brute")),
        ("--cmd", max_subarray(solution)),
        ("--validator", max_subarray("validate")),
    ]
}

/// The token counts of "shrunk from A tokens ..." and "to B tokens ..." in
/// a report.
fn shrunk_sizes(report: &str) -> (usize, usize) {
    let tokens_after = |marker: &str| -> usize {
        let line = report
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(marker))
            .unwrap_or_else(|| panic!("no {marker:?} line in {report}"));
        line.split_whitespace().next().unwrap().parse().unwrap()
    };
    (tokens_after("shrunk from "), tokens_after("to "))
}

#[test]
fn a_correct_solution_passes_and_dump_keeps_every_case() {
    let dir = scratch("any-ok");
    let dump = dir.join("cases");
    let (out, saved) = stress(
        &subarray_programs("ok"),
        &[
            "--seed",
            "500",
            "--cases",
            "6",
            "--dump",
            dump.to_str().unwrap(),
        ],
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["6 cases", "6 OK, 0 WA", "ms validator"]);
    assert!(saved.is_none());
    // Named by seed: the generator makes each again.
    for seed in 500..506 {
        let input = std::fs::read_to_string(dump.join(format!("{seed}.in"))).unwrap();
        let again = std::process::Command::new(crate::support::python())
            .arg(format!(
                "{}/tests/fixtures/any/max_subarray.py",
                env!("CARGO_MANIFEST_DIR")
            ))
            .args(["gen", &seed.to_string()])
            .output()
            .unwrap();
        assert_eq!(input, text(&again.stdout), "seed {seed}");
        assert!(dump.join(format!("{seed}.ans")).exists());
    }
    assert_eq!(std::fs::read_dir(&dump).unwrap().count(), 12);
}

#[test]
fn a_checker_accepts_any_right_answer_and_rejects_a_wrong_one() {
    let dir = scratch("any-checker");
    let programs = |solution: &str, checker: bool| {
        let mut p = vec![
            ("--gen", argmax("gen")),
            ("--brute", argmax("brute")),
            ("--cmd", argmax(solution)),
        ];
        if checker {
            p.push(("--checker", argmax("check")));
        }
        p
    };
    // The last maximum is as right as the first: only a checker knows.
    let (out, _) = stress(
        &programs("last", true),
        &["--seed", "1", "--cases", "10"],
        &dir,
    );
    let stdout = passed(&out);
    has(&stdout, &["10 OK", "ms checker"]);
    let (out, _) = stress(
        &programs("last", false),
        &["--seed", "1", "--cases", "10"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));

    let (out, saved) = stress(
        &programs("wrong", true),
        &["--seed", "1", "--cases", "40"],
        &dir,
    );
    let (_, stderr) = found(&out);
    has(
        &stderr,
        &["the checker rejects it (exit code 1): WA position"],
    );
    // "2" and two numbers, the larger last.
    let saved = saved.unwrap();
    let tokens: Vec<i64> = saved
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(tokens.len(), 3, "{saved:?}");
    assert!(tokens[0] == 2 && tokens[2] > tokens[1], "{saved:?}");
}

#[test]
fn a_broken_tool_stops_the_run_and_is_named() {
    let dir = scratch("any-broken-tools");
    let mut failing_gen = subarray_programs("ok");
    failing_gen[0].1 = max_subarray("no-such-mode");
    let mut crashing_brute = subarray_programs("ok");
    crashing_brute[1].1 = max_subarray("crash");
    let mut rejecting = subarray_programs("ok");
    rejecting[3].1 = "false".to_string();
    let mut failing_checker = subarray_programs("ok");
    failing_checker.push((
        "--checker",
        "sh -c 'echo the answer is odd >&2; exit 3' x".into(),
    ));
    // Exit 1 with a traceback is a crash, not a wrong answer; exit 7 is no
    // verdict of testlib's.
    let mut crashing_checker = subarray_programs("ok");
    crashing_checker.push(("--checker", "python3 -c '1/0'".into()));
    let mut odd_checker = subarray_programs("ok");
    odd_checker.push(("--checker", "sh -c 'exit 7' x".into()));
    for (programs, needle) in [
        (failing_gen, "the generator failed on seed 31"),
        (crashing_brute, "the brute force failed on seed 31"),
        (
            rejecting,
            "the validator rejects the generator's input for seed 31",
        ),
        (
            failing_checker,
            "the checker failed: exit code 3 (testlib's FAIL)",
        ),
        (crashing_checker, "the checker failed: it crashed"),
        (
            odd_checker,
            "exit code 7 (nothing on stderr) (testlib's codes",
        ),
    ] {
        let (out, saved) = stress(
            &programs,
            &["--seed", "31", "--cases", "3", "--jobs", "1"],
            &dir,
        );
        let stderr = fails_with(&out, needle);
        assert!(saved.is_none(), "{stderr}");
    }
}

#[test]
fn programs_that_cannot_start_and_meaningless_flags_are_errors() {
    let dir = scratch("any-cannot-start");
    let mut missing = subarray_programs("ok");
    missing[1].1 = "no-such-brute-force".to_string();
    let (out, _) = stress(&missing, &["--cases", "1"], &dir);
    fails_with(&out, "--brute: cannot start \"no-such-brute-force\"");
    // Each help page takes only its own flags: a puzzle's stress takes no
    // generator, and any-problem stress no puzzle, oracle or limits.
    for (args, needle) in [
        (
            vec![
                "stress", "any", "robots", "--gen", "a", "--brute", "b", "--cmd", "c",
            ],
            "unexpected argument 'robots'",
        ),
        (vec!["stress", "any", "--gen", "a", "--cmd", "c"], "--brute"),
        (
            vec!["stress", "robots", "--cmd", "c", "--checker", "d"],
            "unexpected argument '--checker'",
        ),
        (
            vec![
                "stress", "any", "--gen", "a", "--brute", "b", "--cmd", "c", "--oracle", "core",
            ],
            "unexpected argument '--oracle'",
        ),
        (
            vec![
                "stress", "any", "--gen", "a", "--brute", "b", "--cmd", "c", "--limits", "wide",
            ],
            "unexpected argument '--limits'",
        ),
    ] {
        let out = crate::support::lockstep(&args, "");
        fails_with(&out, needle);
    }
}

/// The spelling from before `stress any`, `lockstep stress --gen ...`, still
/// works, with a note that names the new one.
#[test]
fn the_old_spelling_of_stress_any_still_works() {
    let dir = scratch("any-old-spelling");
    let programs = subarray_programs("ok");
    let mut args: Vec<String> = vec!["stress".into()];
    for (flag, command) in &programs {
        args.push(flag.to_string());
        args.push(command.clone());
    }
    args.extend(["--cases", "3", "--seed", "5", "--jobs", "1"].map(String::from));
    let out = std::process::Command::new(crate::support::BIN)
        .args(&args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    has(&stderr, &["is now spelt `lockstep stress any --gen ...`"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    has(&stdout, &["stress: 3 cases"]);
}

/// The checker's files live in a directory of lockstep's own under TMPDIR,
/// gone when the run ends.
#[test]
fn the_checker_leaves_no_files_behind() {
    let dir = scratch("any-checker-files");
    let tmp = made(dir.join("tmp"));
    let out = std::process::Command::new(crate::support::BIN)
        .args([
            "stress",
            "any",
            "--gen",
            &argmax("gen"),
            "--brute",
            &argmax("brute"),
            "--cmd",
            &argmax("last"),
            "--checker",
            &argmax("check"),
            "--seed",
            "3",
            "--cases",
            "4",
        ])
        .env("TMPDIR", &tmp)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let left: Vec<PathBuf> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Without --keep-going the lower seed decides between a failure and a
/// broken tool, as one job would have met them: here the solution crashes
/// on seed 31 and the brute force on seed 32, which a second job reaches
/// first (its brute force fails at once, the Python solution is slow).
#[test]
fn a_failure_before_a_broken_tool_wins_whatever_the_jobs() {
    let dir = scratch("any-failure-before-problem");
    let mut programs = subarray_programs("mixed");
    // Answers 0, and fails on seed 32's input, whose n is 5.
    programs[1].1 = "sh -c 'read n; [ \"$n\" != 5 ] || exit 9; echo 0'".into();
    programs.pop();
    for jobs in ["1", "2"] {
        let (out, saved) = stress(&programs, &["--seed", "31", "--jobs", jobs], &dir);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{jobs} jobs: {stderr}");
        assert!(stderr.contains("RE on seed 31"), "{jobs} jobs: {stderr}");
        assert!(saved.is_some(), "{jobs} jobs: {stderr}");
    }
}

/// `stress any --format json`: the counts and each failure's seed, shrunk
/// input and the brute force's answer, as one document.
#[test]
fn stress_any_writes_one_json_document() {
    let dir = scratch("any-json");
    let (out, saved) = stress(
        &subarray_programs("wrong"),
        &["--seed", "1", "--cases", "40", "--format", "json"],
        &dir,
    );
    let (stdout, _) = found(&out);
    let doc: serde_json::Value =
        serde_json::from_str(&stdout).expect("stdout is one JSON document");
    assert_eq!(doc["lockstep"], "stress-any");
    // The run stops at its first failure (no --keep-going).
    let cases = doc["counts"]["cases"].as_u64().unwrap();
    assert!((1..=40).contains(&cases), "{doc:#}");
    let failures = doc["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{doc:#}");
    assert_eq!(failures[0]["kind"], "WA");
    assert_eq!(failures[0]["input"].as_str(), saved.as_deref());
    let failing = doc["failing"].as_array().unwrap();
    assert_eq!(
        failing.len() as u64,
        doc["counts"]["wrong_answer"].as_u64().unwrap(),
        "{doc:#}"
    );
}

#[test]
fn the_tools_output_limit_names_the_flag_that_raises_it() {
    let dir = scratch("any-tool-output");
    let programs = [
        (
            "--gen",
            "python3 -c 'import sys; sys.stdout.write(\"1\" * (17 << 20))'".to_string(),
        ),
        ("--brute", "wc -c".to_string()),
        ("--cmd", "wc -c".to_string()),
    ];
    let (out, _) = stress(&programs, &["--cases", "1", "--jobs", "1"], &dir);
    fails_with(
        &out,
        "wrote more than 16777216 bytes: killed (the tools' output limit is the larger of --output-limit and 16M: raise it with --output-limit)",
    );
    let (out, _) = stress(
        &programs,
        &["--cases", "1", "--jobs", "1", "--output-limit", "32M"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// The guide's rules (docs/guide/src/reference/comparisons.md): with
/// `--compare tokens` only the words count; by default (`lines`, as puzzle
/// `stress` and `test`) whitespace at the end of each line and of the
/// output does not count, a leading space does.
#[test]
fn outputs_are_compared_by_the_stated_whitespace_rule() {
    let dir = scratch("any-whitespace");
    let programs = |cmd: &str| {
        [
            ("--gen", "echo 1".to_string()),
            ("--brute", "echo 5".to_string()),
            ("--cmd", cmd.to_string()),
        ]
    };
    let tokens = [
        "--seed",
        "1",
        "--cases",
        "2",
        "--jobs",
        "1",
        "--compare",
        "tokens",
    ];
    let (out, _) = stress(&programs(r"printf ' 5\n\n'"), &tokens, &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, _) = stress(&programs(r"printf '6\n'"), &tokens, &dir);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // The default: lines.
    let lines = ["--seed", "1", "--cases", "2", "--jobs", "1"];
    let (out, _) = stress(&programs(r"printf '5 \t\r\n\n \n'"), &lines, &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, _) = stress(&programs(r"printf ' 5\n'"), &lines, &dir);
    let (_, stderr) = found(&out);
    assert!(
        stderr.contains(r#"first difference: line 1: expected "5", got " 5""#),
        "{stderr}"
    );
    assert!(stderr.contains("compared as lines"), "{stderr}");
}

/// The second tier: the heavy hunts, which `cargo test` leaves to CI
/// (`.ci/run`; docs/guide/src/tasks/measure.md).
mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_generator_that_ignores_its_seed_is_a_warning() {
        let dir = scratch("any-generator");
        // A new random input on every run: the failing seed does not make the
        // failing input again, and the report does not claim it does.
        let mut programs = subarray_programs("ok");
        programs[0].1 = max_subarray("gen-unseeded");
        programs[2].1 = "echo 0".into();
        let (out, saved) = stress(
            &programs,
            &["--seed", "1", "--cases", "1", "--shrink-attempts", "1"],
            &dir,
        );
        let (_, stderr) = found(&out);
        has(
            &stderr,
            &["warning: the generator made a different input when run again on seed 1"],
        );
        has(
            &stderr,
            &["gen-unseeded 1` made the original, and another input when run again"],
        );
        assert!(!stderr.contains("makes the original"), "{stderr}");
        assert!(saved.is_some());
        // The same input for every seed: eight cases that were one.
        programs = subarray_programs("ok");
        programs[0].1 = max_subarray("gen-fixed");
        let (out, _) = stress(&programs, &["--seed", "1", "--cases", "8"], &dir);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains(
                "warning: the generator printed the same input for 8 of the 8 seeds it was run on (1 and 2 among them)"
            ),
            "{stderr}"
        );
        // A generator that follows its seed gets neither warning.
        let (out, _) = stress(
            &subarray_programs("ok"),
            &["--seed", "1", "--cases", "8"],
            &dir,
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(!stderr.contains("warning"), "{stderr}");
    }

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_grid_loses_a_column_from_every_row() {
        // Seed 9 is a 4x6 grid whose only square the wrong solution misses is
        // at the right edge: the hand minimum is one square, "2 2 / ## / ##",
        // which needs columns removed from both rows at once.
        let dir = scratch("any-grid");
        let squares = |mode: &str| format!("{} {mode}", fixture("squares"));
        let programs = [
            ("--gen", squares("gen")),
            ("--brute", squares("brute")),
            ("--cmd", squares("wrong")),
            ("--validator", squares("validate")),
        ];
        let (out, saved) = stress(&programs, &["--seed", "9", "--cases", "1"], &dir);
        let (_, stderr) = found(&out);
        has(&stderr, &["shrunk from 6 tokens, 5 lines, 32 bytes"]);
        has(
            &stderr,
            &["to 4 tokens, 3 lines, 10 bytes: a local minimum"],
        );
        assert_eq!(saved.as_deref(), Some("2 2\n##\n##\n"), "{stderr}");
    }

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_hanging_solution_is_a_time_limit_and_the_budget_is_reported() {
        let dir = scratch("any-slow");
        let (out, saved) = stress(
            &subarray_programs("slow"),
            &[
                "--seed",
                "10",
                "--cases",
                "5",
                // Far above Python's start-up on a loaded machine: only the
                // endless loop may reach it.
                "--timeout-ms",
                "1500",
                "--shrink-attempts",
                "4",
            ],
            &dir,
        );
        let (stdout, stderr) = found(&out);
        assert!(!stdout.contains(" 0 TLE"), "{stdout}");
        has(
            &stderr,
            &[
                "TLE on seed 10",
                "cut off by the attempt budget",
                "(4 candidates run",
                "spent more than 1500 ms of CPU time",
            ],
        );
        assert!(saved.is_some());
    }

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn keep_going_shrinks_one_failure_of_each_kind() {
        let dir = scratch("any-keep-going");
        let (out, _) = stress(
            &subarray_programs("mixed"),
            &["--seed", "10", "--cases", "32", "--keep-going"],
            &dir,
        );
        let (stdout, stderr) = found(&out);
        has(&stdout, &["32 cases"]);
        // Seed 31 is the only array of one number among seeds 10..=41.
        has(&stdout, &["RE: 1 case: seed 31", "WA: ", " WA, 1 RE"]);
        let wa = std::fs::read_to_string(dir.join("min-WA.txt")).unwrap();
        let re = std::fs::read_to_string(dir.join("min-RE.txt")).unwrap();
        assert_eq!(wa, "2\n-1 -1\n", "{stderr}");
        assert_eq!(re.lines().next(), Some("1"), "{stderr}");
        has(&stderr, &["IndexError"]);
    }

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_wrong_solution_is_caught_and_shrunk_to_a_handful_of_tokens_whatever_the_jobs() {
        let dir = scratch("any-wrong");
        let mut seen = Vec::new();
        for jobs in ["1", "2"] {
            let (out, saved) = stress(
                &subarray_programs("wrong"),
                &["--seed", "10", "--cases", "40", "--jobs", jobs],
                &dir,
            );
            let (stdout, stderr) = found(&out);
            has(&stdout, &["1 WA"]);
            // The generator's first all-negative array is seed 10's, 37 numbers.
            has(&stderr, &["WA on seed 10 ("]);
            let (before, after) = shrunk_sizes(&stderr);
            assert_eq!((before, after), (38, 2), "{stderr}");
            assert_eq!(saved.as_deref(), Some("1\n-1\n"), "{stderr}");
            has(
                &stderr,
                &[
                    "with a count lowered",
                    "expected (brute force):\n    -1\n",
                    "solution printed:\n    0\n",
                ],
            );
            seen.push(saved);
        }
        assert_eq!(seen[0], seen[1]);
    }
}

/// The files stress saves by default in the current directory are
/// git-ignored in a clone of lockstep, so a run there leaves `git status`
/// clean (the decision: docs/guide/src/tasks/your-solution.md).
#[test]
fn the_default_saved_files_are_git_ignored() {
    for name in [
        "lockstep-stress.txt",
        "lockstep-stress-WA.txt",
        "lockstep-stress.txt.transcript",
        "lockstep-stress-new_game2.txt",
        "lockstep-stress-duel.log",
    ] {
        let status = std::process::Command::new("git")
            .args(["check-ignore", "-q", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("git runs");
        assert!(status.success(), "{name} is not git-ignored");
    }
}
