//! The `lockstep` binary as a user runs it: outputs, errors and exit codes.

use crate::support::{fails_with, lockstep, scratch, text};

const SAMPLE_5: &str = "6 10\n0 1 2 0 1 1\n1 2 0 1 1 0\n2 1 0 1 1 0\n1 0 1 1 0 2\n2 0 1 2 0 1\n0 2 1 0 2 1\n1 1 1\n2 2 2\n3 3 4\n4 4 1\n5 5 3\n6 6 2\n1 6 3\n6 1 2\n2 4 3\n4 2 1\n";

#[test]
fn solve_prints_the_judge_answer_with_core_and_reference() {
    for args in [
        &["solve", "new-game2"][..],
        &["solve", "new-game2", "--reference"],
        &["solve", "new_game2"],
    ] {
        let out = lockstep(args, SAMPLE_5);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), "7\n", "{args:?}");
    }
}

#[test]
fn malformed_input_is_one_line_naming_the_line_with_exit_code_2() {
    let inputs = [
        ("4 4\n0 0 0 0\n0 9 0 0\n", "line 3"),
        ("4 4\n0 0 0 0\n", "line 3"),
        ("13 4\n", "line 1"),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 1 2\n2 2 2\n3 3 3\n",
            "line 7",
        ),
        ("", "line 1"),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n1 3 1\n1 4 1\nextra\n",
            "line 10",
        ),
    ];
    for (input, line) in inputs {
        for reference in [false, true] {
            let args: &[&str] = if reference {
                &["solve", "new-game2", "--reference"]
            } else {
                &["solve", "new-game2"]
            };
            let out = lockstep(args, input);
            let stderr = fails_with(&out, line);
            assert_eq!(stderr.lines().count(), 1, "{input:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(out.stdout.is_empty());
        }
    }
}

/// Every command that takes a puzzle lists the registered puzzles, in order,
/// in its help (the list comes from the registry).
#[test]
fn the_help_names_every_puzzle() {
    let registered: Vec<&str> = lockstep::registry::all().iter().map(|e| e.name()).collect();
    let list = format!("[possible values: {}]", registered.join(", "));
    for command in [
        "solve", "fuzz", "replay", "shrink", "triage", "import", "stress", "bench",
    ] {
        let out = lockstep(&[command, "--help"], "");
        let help = text(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            help.contains(&list),
            "{command} --help lacks {list}: {help}"
        );
    }
}

#[test]
fn unknown_puzzles_and_bad_arguments_exit_2() {
    fails_with(&lockstep(&["solve", "chess"], ""), "invalid value 'chess'");
    fails_with(&lockstep(&["fuzz", "--seconds", "soon"], ""), "soon");
}

#[test]
fn a_short_fuzz_campaign_prints_its_summary_and_exits_0() {
    let out = lockstep(
        &[
            "fuzz",
            "new-game2",
            "--seconds",
            "600",
            "--cases",
            "3000",
            "--seed",
            "5",
            "--jobs",
            "2",
            "--no-append",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let row = stdout
        .lines()
        .find(|l| l.starts_with("new-game2"))
        .expect("a summary row");
    let numbers: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(numbers[1], "3000", "{row}");
    assert_eq!(numbers[3], "3000", "{row}");
    assert!(text(&out.stderr).contains("seed 5, 2 jobs"));
}

/// The command's report on the shipped corpus (every row of every puzzle is
/// replayed by `corpus::every_corpus_row_replays`; here one puzzle, for the CLI).
#[test]
fn replay_passes_on_the_corpus() {
    let out = lockstep(&["replay", "new-game2"], "");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("new-game2: "))
        .unwrap_or_else(|| panic!("no line for new-game2 in {stdout}"));
    assert!(
        line.contains(" rows, ") && line.contains(" 0 failed"),
        "{line}"
    );
}

#[test]
fn replay_reports_a_wrong_expectation_and_exits_1() {
    let dir = scratch("cli-replay");
    std::fs::write(
        dir.join("new_game2.csv"),
        "name,input,expected,origin,note\nwrong,4 4|0 0 0 0|0 0 0 0|0 0 0 0|0 0 0 0|1 1 1|1 2 1|1 3 1|1 4 1,2,hand,\n",
    )
    .unwrap();
    let out = lockstep(
        &["replay", "new-game2", "--corpus", dir.to_str().unwrap()],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("new_game2.csv:2 wrong"), "{stdout}");
    assert!(
        stdout.contains(
            "core does not print the expected answer: line 1: core \"1\", expected \"2\""
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "reference does not print the expected answer: line 1: reference \"1\", expected \"2\""
        ),
        "{stdout}"
    );
}

#[test]
fn shrink_refuses_a_case_both_solvers_agree_on() {
    let file = scratch("cli-shrink").join("case.txt");
    std::fs::write(&file, SAMPLE_5).unwrap();
    let out = lockstep(&["shrink", "new-game2", file.to_str().unwrap()], "");
    fails_with(&out, "agree on this case");
    // Printable text that is not a valid input is reported, not decoded as bytes.
    std::fs::write(&file, "4 4\n0 0\n").unwrap();
    let out = lockstep(&["shrink", "new-game2", file.to_str().unwrap()], "");
    fails_with(&out, "line 2");
    // Raw bytes go through the generator (and here, too, the solvers agree).
    std::fs::write(&file, [0xffu8, 0x00, 0x13, 0x80, 0x7f, 0x01]).unwrap();
    let out = lockstep(&["shrink", "new-game2", file.to_str().unwrap()], "");
    fails_with(&out, "agree on this case");
}

#[test]
fn bench_reports_both_rates_and_the_ratio() {
    let out = lockstep(
        &["bench", "new-game2", "--cases", "50", "--rounds", "3"],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("new-game2"))
        .expect("a bench row");
    // puzzle, core cases/s, reference cases/s, speedup ("12.3x"), skipped
    let fields: Vec<&str> = row.split_whitespace().collect();
    let rate = |s: &str| s.trim_end_matches('x').parse::<f64>().unwrap_or(f64::NAN);
    for value in [fields[1], fields[2], fields[3]] {
        assert!(rate(value).is_finite() && rate(value) > 0.0, "{row}");
    }
    assert!(fields[3].ends_with('x'), "{row}");
    // skipped, campaign cases/s, efficiency ("97%"), generate cases/s, harness
    assert_eq!(fields.len(), 9, "{row}");
    let percent = |s: &str| s.strip_suffix('%').and_then(|p| p.parse::<f64>().ok());
    for value in [fields[5], fields[7]] {
        assert!(rate(value).is_finite() && rate(value) > 0.0, "{row}");
    }
    for value in [fields[6], fields[8]] {
        assert!(percent(value).is_some_and(|p| p > 0.0), "{row}");
    }
}

#[test]
fn checkers_solve_prints_one_line_per_instance() {
    let input = "1 1\n14\n18\n1 R\n14-23\n1 1\n14\n18\n1 R\n14-18\n0 0\n";
    for args in [
        &["solve", "checkers"][..],
        &["solve", "checkers", "--reference"],
    ] {
        let out = lockstep(args, input);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stdout),
            "All moves valid\nMove 1 is invalid\n",
            "{args:?}"
        );
    }
    let out = lockstep(&["solve", "checkers"], "1 1\n14\n18\n1 R\n14-x\n0 0\n");
    fails_with(&out, "line 5");
}

#[test]
fn perft_prints_depth_and_nodes_for_core_and_reference() {
    let expected = "1 7\n2 49\n3 302\n4 1469\n5 7361\n";
    for args in [
        &["perft", "--depth", "5"][..],
        &["perft", "--depth", "5", "--reference"],
        &["perft", "--depth", "5", "--threads", "2"],
    ] {
        let out = lockstep(args, "");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), expected, "{args:?}");
    }
    assert_eq!(
        lockstep(&["perft", "--depth", "0"], "").status.code(),
        Some(2)
    );
}

/// `LOCKSTEP_LIMITS` takes `original`, `wide` or nothing; a typo is an error
/// naming it (exit 2), not a silent run under the wide limits.
#[test]
fn a_misspelt_lockstep_limits_is_an_error_naming_it() {
    use lockstep::puzzle::CaseLimits;
    assert_eq!(
        CaseLimits::from_setting(Some("original")),
        Ok(CaseLimits::Original)
    );
    assert_eq!(CaseLimits::from_setting(Some("wide")), Ok(CaseLimits::Wide));
    assert_eq!(CaseLimits::from_setting(None), Ok(CaseLimits::Wide));
    assert_eq!(CaseLimits::from_setting(Some("")), Ok(CaseLimits::Wide));
    assert!(CaseLimits::from_setting(Some("Original")).is_err());

    let dir = crate::support::scratch("limits-env");
    let file = dir.join("bytes");
    std::fs::write(&file, [1u8, 2, 3, 0xff]).unwrap();
    let run = |value: &str| {
        std::process::Command::new(crate::support::BIN)
            .env("LOCKSTEP_LIMITS", value)
            .args(["shrink", "new-game2", file.to_str().unwrap(), "--bytes"])
            .output()
            .unwrap()
    };
    let out = run("orignal");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("LOCKSTEP_LIMITS=\"orignal\": expected"),
        "{stderr}"
    );
    // The same bytes under a good value reach the solvers.
    let stderr = text(&run("original").stderr);
    assert!(stderr.contains("agree on this case"), "{stderr}");
    // Triage stops before reading an artifact: none is settled into done/.
    let artifacts = dir.join("artifacts");
    let crash = artifacts.join("new_game2").join("crash-1");
    std::fs::create_dir_all(crash.parent().unwrap()).unwrap();
    std::fs::write(&crash, [1u8, 2, 3, 0xff]).unwrap();
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let out = std::process::Command::new(crate::support::BIN)
        .env("LOCKSTEP_LIMITS", "orignal")
        .args([
            "triage",
            artifacts.to_str().unwrap(),
            "--corpus",
            corpus.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("LOCKSTEP_LIMITS=\"orignal\""),
        "{}",
        text(&out.stderr)
    );
    assert!(crash.exists(), "the artifact was moved");
    assert!(!artifacts.join("new_game2").join("done").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
