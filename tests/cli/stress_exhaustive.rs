//! `lockstep stress PUZZLE --exhaustive`: a program over every case of the
//! puzzle's levels, end to end through the command. Every puzzle with a
//! correct program (lockstep's own `solve`) passes, whole levels where
//! they are small; a wrong program's first failure is the smallest case
//! that fails, whatever the jobs; and where cases are joined into one
//! input, a program that only fails on several cases at once is caught by
//! the joined input.

use crate::support::{cli, has, scratch, BIN};

/// The JSON document of a stress run, and its exit code.
fn run(puzzle: &str, program: &str, extra: &str) -> (serde_json::Value, Option<i32>, String) {
    let out = cli(&format!(
        "stress {puzzle} --exhaustive --no-append --format json --save /dev/null {extra}"
    ))
    .flag("--cmd", program)
    .run();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let doc = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    (doc, out.status.code(), stderr)
}

/// A puzzle's size and cap when no one tuned them: its levels whole up to
/// 300 cases, or 150 cases of its first level when that is larger.
fn default_plan(entry: &dyn lockstep_registry::AnyPuzzle) -> (u32, Option<u64>) {
    let mut total = 0;
    let whole = (1..=entry.last_level())
        .take_while(|&size| {
            total += entry.level_span(size).1;
            total <= 300
        })
        .count();
    match whole {
        0 => (1, Some(150)),
        sizes => (sizes as u32, None),
    }
}

/// Each puzzle, its own solver as the program: every case run passes. The
/// small levels are run whole (and say so); the large ones to a cap of
/// positions, which still runs cases of the second level.
#[test]
fn every_puzzle_passes_a_correct_program_over_its_levels() {
    // (puzzle, size, cap of positions; none: the whole levels), tuned by
    // hand; any other puzzle runs its levels whole up to 300 cases, or 150
    // cases of its first level when that is larger.
    let tuned: [(&str, u32, Option<u64>); 7] = [
        ("robots", 2, None),
        ("new-game2", 1, Some(150)),
        ("footholds", 6, None),
        ("checkers", 2, Some(40_000)),
        ("checkers-perft", 2, Some(2_000)),
        ("duel-search", 1, None),
        ("matrix-game", 3, None),
    ];
    for (name, ..) in tuned {
        assert!(
            lockstep_registry::find(name).is_some(),
            "{name}: no such puzzle"
        );
    }
    for entry in lockstep_registry::all() {
        let name = entry.name();
        // A duel bot is stressed by `duel stress`, not against an oracle.
        if entry.played_through_referee() {
            continue;
        }
        let (size, cap) = tuned
            .iter()
            .find(|t| t.0 == name)
            .map_or_else(|| default_plan(*entry), |&(_, size, cap)| (size, cap));
        let extra = match cap {
            Some(cap) => format!("--size {size} --cases {cap}"),
            None => format!("--size {size}"),
        };
        let (doc, code, stderr) = run(name, &format!("{BIN} solve {name}"), &extra);
        assert_eq!(code, Some(0), "{name}: {doc}\n{stderr}");
        let counts = &doc["counts"];
        assert!(counts["cases"].as_u64() > Some(0), "{name}: {doc}");
        assert_eq!(counts["ok"], counts["cases"], "{name}: {doc}");
        let total: u64 = entry.level_counts(size).iter().sum();
        assert_eq!(doc["exhaustive"]["cases"], total, "{name}");
        assert_eq!(
            doc["exhaustive"]["every_case_passed"],
            cap.is_none(),
            "{name}: {doc}"
        );
        if cap.is_none() {
            assert_eq!(counts["cases"], total, "{name}: {doc}");
        }
    }
}

/// A program wrong on every footholds game whose answer is 4: the first
/// failure is the first such case of the levels, with one job or two, not
/// shrunk, and every case before it passed.
#[test]
fn the_first_failure_is_the_smallest_whatever_the_jobs() {
    let dir = scratch("exhaustive-smallest");
    let program = footholds_then(&dir, "sed 's/^4$/5/'");
    let mut firsts = Vec::new();
    for jobs in [1, 2] {
        let (doc, code, stderr) = run(
            "footholds",
            &program.display().to_string(),
            &format!("--size 6 --jobs {jobs}"),
        );
        assert_eq!(code, Some(1), "{doc}");
        has(
            &stderr,
            &["not shrunk: no case before it in the enumeration fails"],
        );
        let failure = &doc["failures"][0];
        assert_eq!(failure["kind"], "WA", "{doc}");
        firsts.push(failure["input"].as_str().unwrap_or_default().to_string());
        assert_eq!(doc["exhaustive"]["every_case_passed"], false);
    }
    assert_eq!(firsts[0], firsts[1]);
    // The first case of the levels whose answer is 4, found by the oracle.
    let levels = <lockstep_harness::puzzles::Footholds as lockstep_harness::puzzle::Puzzle>::LEVELS;
    let first = (1..=6)
        .flat_map(|size| (0..(levels.span)(size)).map(move |i| (size, i)))
        .filter_map(|(size, i)| (levels.case)(size, i))
        .find(|case| {
            use lockstep_core::Model;
            case.solve().answer == vec![4]
        })
        .expect("some game takes 4 moves");
    assert_eq!(firsts[0], lockstep_core::Model::write_input(&first));
}

/// A program that answers the first game of an input right and adds one to
/// every later answer: each case alone passes, so only the joined input
/// fails, and that is what is reported, placed at its first case.
#[test]
fn a_program_that_fails_only_on_joined_cases_is_caught() {
    let dir = scratch("exhaustive-joined");
    let program = footholds_then(&dir, "awk 'NR > 1 { $0 = $0 + 1 } { print }'");
    let (doc, code, _) = run(
        "footholds",
        &program.display().to_string(),
        "--size 4 --jobs 1",
    );
    assert_eq!(code, Some(1), "{doc}");
    let failure = &doc["failures"][0];
    assert_eq!(failure["kind"], "WA", "{doc}");
    let input = failure["input"].as_str().unwrap_or_default();
    let games = <lockstep_core::footholds::Case as lockstep_core::Model>::parse(input)
        .expect("the joined input reads back")
        .games
        .len();
    assert!(games > 1, "{input}");
}

/// A program in `dir`: lockstep's own footholds solver, its answers
/// piped through `filter` (a shell command).
fn footholds_then(dir: &std::path::Path, filter: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let program = dir.join("program.sh");
    std::fs::write(
        &program,
        format!("#!/bin/sh\n{BIN} solve footholds | {filter}\n"),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

/// new-game2's input holds one game, so each case is a run of the program:
/// a slow program's exhaustive run says, before it starts, how long the
/// asked size takes at its time a case, and names the largest size that
/// fits in an hour, or says that none does.
#[test]
fn a_slow_programs_estimate_names_the_size_that_fits_in_an_hour() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("exhaustive-hour");
    // (the program's sleep before each case, what the estimate says)
    for (sleep, says) in [
        // 55,344 cases at size 1, 1,916,928 more at size 2, on 2 jobs.
        // With no sleep, a run of the tests' build takes some 20 ms: size
        // 1 in about 10 min (an hour leaves a sixfold margin for a loaded
        // machine), size 2 in hours (it cannot take less than 1 ms).
        ("0", "up to size 1 fits in an hour (about"),
        // Over 1 s a case (the sleep alone), size 1 takes over 7 h.
        ("1", "no size fits in an hour: size 1 alone takes about"),
    ] {
        let program = dir.join(format!("slow-{sleep}.sh"));
        std::fs::write(
            &program,
            format!("#!/bin/sh\nsleep {sleep}\nexec {BIN} solve new-game2\n"),
        )
        .unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = cli("stress new-game2 --exhaustive --jobs 2 --seconds 1 --save /dev/null")
            .flag("--cmd", program.to_str().unwrap())
            .run();
        let stderr = String::from_utf8_lossy(&out.stderr);
        has(
            &stderr,
            &[
                "1972272 cases at 2709552 indexes: about",
                "a case on 2 jobs, up to size 2 takes about",
                says,
            ],
        );
        if sleep == "0" {
            has(&stderr, &["--size 1\n"]);
        }
    }
}

mod hunt {
    use super::*;

    /// A program over the output limit only on joined inputs (it pads its
    /// output when the input holds more than one game): the limits are per
    /// case, so no case fails when each passes alone.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_joined_input_over_a_limit_is_no_failure_when_each_case_passes() {
        let dir = scratch("exhaustive-joined-limit");
        let program = footholds_then(
            &dir,
            "awk '{ print } NR == 2 { for (i = 0; i < 200; i++) print \"padding padding\" }'",
        );
        let (doc, code, stderr) = run(
            "footholds",
            &program.display().to_string(),
            "--size 4 --jobs 1 --output-limit 1K",
        );
        assert_eq!(code, Some(0), "{doc}\n{stderr}");
        assert_eq!(doc["exhaustive"]["every_case_passed"], true, "{doc}");
        assert_eq!(doc["counts"]["output_limit"], 0, "{doc}");
    }
}
