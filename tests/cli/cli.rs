//! The `lockstep` binary as a user runs it: outputs, errors and exit codes.

use crate::support::{
    cli, exited, fails_with, has, line_starting, lockstep, made, passed, scratch, text,
};

const SAMPLE_5: &str = "6 10\n0 1 2 0 1 1\n1 2 0 1 1 0\n2 1 0 1 1 0\n1 0 1 1 0 2\n2 0 1 2 0 1\n0 2 1 0 2 1\n1 1 1\n2 2 2\n3 3 4\n4 4 1\n5 5 3\n6 6 2\n1 6 3\n6 1 2\n2 4 3\n4 2 1\n";

#[test]
fn solve_prints_the_judge_answer_with_core_and_reference() {
    for args in [
        &["solve", "new-game2"][..],
        &["solve", "new-game2", "--reference"],
        &["solve", "new_game2"],
    ] {
        let out = lockstep(args, SAMPLE_5);
        exited(&out, 0, format_args!("{args:?}: "));
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
    let registered: Vec<&str> = lockstep_registry::all().iter().map(|e| e.name()).collect();
    let list = format!("[possible values: {}]", registered.join(", "));
    for command in [
        "solve", "fuzz", "replay", "shrink", "triage", "import", "stress", "bench",
    ] {
        let out = cli(command).arg("--help").run();
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
    fails_with(&cli("solve chess").run(), "invalid value 'chess'");
    fails_with(&cli("fuzz --seconds soon").run(), "soon");
}

#[test]
fn a_short_fuzz_campaign_prints_its_summary_and_exits_0() {
    let out = cli("fuzz new-game2 --seconds 600 --cases 3000 --seed 5 --jobs 2 --no-append").run();
    let stdout = passed(&out);
    let row = line_starting(&stdout, "new-game2");
    let numbers: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(numbers[1], "3000", "{row}");
    assert_eq!(numbers[3], "3000", "{row}");
    assert!(text(&out.stderr).contains("seed 5, 2 jobs"));
}

/// The command's report on the shipped corpus (every row of every puzzle is
/// replayed by `corpus::every_corpus_row_replays`; here one puzzle, for the CLI).
#[test]
fn replay_passes_on_the_corpus() {
    let out = cli("replay new-game2").run();
    let stdout = passed(&out);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("new-game2: "))
        .unwrap_or_else(|| panic!("no line for new-game2 in {stdout}"));
    has(line, &[" rows, ", " 0 failed"]);
}

#[test]
fn replay_reports_a_wrong_expectation_and_exits_1() {
    let dir = scratch("cli-replay");
    std::fs::write(
        dir.join("new_game2.csv"),
        "name,input,expected,origin,note\nwrong,4 4|0 0 0 0|0 0 0 0|0 0 0 0|0 0 0 0|1 1 1|1 2 1|1 3 1|1 4 1,2,hand,\n",
    )
    .unwrap();
    let out = cli("replay new-game2")
        .flag("--corpus", dir.to_str().unwrap())
        .run();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    has(&stdout, &["new_game2.csv:2 wrong"]);
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
    let dir = scratch("cli-shrink");
    let file = dir.join("case.txt");
    std::fs::write(&file, SAMPLE_5).unwrap();
    let out = cli("shrink new-game2").arg(file.to_str().unwrap()).run();
    fails_with(&out, "agree on this case");
    // Printable text that is not a valid input is reported, not decoded as bytes.
    std::fs::write(&file, "4 4\n0 0\n").unwrap();
    let out = cli("shrink new-game2").arg(file.to_str().unwrap()).run();
    fails_with(&out, "line 2");
    // Raw bytes go through the generator (and here, too, the solvers agree).
    std::fs::write(&file, [0xffu8, 0x00, 0x13, 0x80, 0x7f, 0x01]).unwrap();
    let out = cli("shrink new-game2").arg(file.to_str().unwrap()).run();
    fails_with(&out, "agree on this case");
}

#[test]
fn bench_reports_both_rates_and_the_ratio() {
    // One round: the test holds the columns, not the medians' noise. The
    // line of verify's whole CI scope (160 s of a debug build) is tier 2's:
    // `hunt::bench_measures_verify_over_its_ci_scope`.
    let out = cli("bench new-game2 --cases 50 --rounds 1 --no-extras").run();
    let stdout = passed(&out);
    let row = line_starting(&stdout, "new-game2");
    // puzzle, core cases/s, reference cases/s, speedup ("12.3x"), skipped
    let fields: Vec<&str> = row.split_whitespace().collect();
    let rate = |s: &str| s.trim_end_matches('x').parse::<f64>().unwrap_or(f64::NAN);
    for value in [fields[1], fields[2], fields[3]] {
        assert!(rate(value).is_finite() && rate(value) > 0.0, "{row}");
    }
    assert!(fields[3].ends_with('x'), "{row}");
    // skipped, campaign cases/s, generate cases/s, overhead ("+4.2%", which a
    // noisy round can make negative, never below -100%)
    // and verify's rate as a share of core plus reference's ("97%").
    assert_eq!(fields.len(), 9, "{row}");
    let share = fields[8]
        .strip_suffix('%')
        .and_then(|p| p.parse::<f64>().ok());
    assert!(share.is_some_and(|p| p > 0.0), "{row}");
    for value in [fields[5], fields[6]] {
        assert!(rate(value).is_finite() && rate(value) > 0.0, "{row}");
    }
    let overhead = fields[7]
        .strip_suffix('%')
        .and_then(|p| p.parse::<f64>().ok());
    assert!(
        fields[7].starts_with(['+', '-']) && overhead.is_some_and(|p| p > -100.0),
        "{row}"
    );
}

/// `bench --format json`: the same figures as the table, one document.
#[test]
fn bench_writes_one_json_document() {
    let out = cli("bench new-game2 robots --cases 30 --rounds 1 --no-extras --format json").run();
    let stdout = passed(&out);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    assert_eq!(doc["lockstep"], "bench");
    assert_eq!(doc["options"]["rounds"], 1);
    let puzzles = doc["puzzles"].as_array().unwrap();
    let names: Vec<&str> = puzzles
        .iter()
        .map(|p| p["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["new-game2", "robots"]);
    for p in puzzles {
        for field in [
            "core_per_second",
            "reference_per_second",
            "speedup",
            "campaign_per_second",
            "generate_per_second",
        ] {
            assert!(p[field].as_f64().is_some_and(|v| v > 0.0), "{field}: {p:#}");
        }
        assert!(p["overhead"].as_f64().is_some_and(|v| v > -1.0), "{p:#}");
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
        exited(&out, 0, format_args!("{args:?}: "));
        assert_eq!(
            text(&out.stdout),
            "All moves valid\nMove 1 is invalid\n",
            "{args:?}"
        );
    }
    let out = cli("solve checkers")
        .stdin("1 1\n14\n18\n1 R\n14-x\n0 0\n")
        .run();
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
        exited(&out, 0, format_args!("{args:?}: "));
        assert_eq!(text(&out.stdout), expected, "{args:?}");
    }
    assert_eq!(cli("perft --depth 0").run().status.code(), Some(2));
}

/// `LOCKSTEP_LIMITS` takes `original`, `wide` or nothing; a typo is an error
/// naming it (exit 2), not a silent run under the wide limits.
#[test]
fn a_misspelt_lockstep_limits_is_an_error_naming_it() {
    use lockstep_harness::puzzle::CaseLimits;
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
    has(&stderr, &["LOCKSTEP_LIMITS=\"orignal\": expected"]);
    // The same bytes under a good value reach the solvers.
    let stderr = text(&run("original").stderr);
    has(&stderr, &["agree on this case"]);
    // Triage stops before reading an artifact: none is settled into done/.
    let artifacts = dir.join("artifacts");
    let crash = artifacts.join("new_game2").join("crash-1");
    std::fs::create_dir_all(crash.parent().unwrap()).unwrap();
    std::fs::write(&crash, [1u8, 2, 3, 0xff]).unwrap();
    let corpus = made(dir.join("corpus"));
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
    has(&text(&out.stderr), &["LOCKSTEP_LIMITS=\"orignal\""]);
    assert!(crash.exists(), "the artifact was moved");
    assert!(!artifacts.join("new_game2").join("done").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every command that writes a report exits 2, naming the reason, when the
/// report cannot be written (stdout on a full disk, `/dev/full`), whatever it
/// found: a report that never reached the user is a job not done. (`shrink`
/// writes its row through the same path; it needs a disagreement, which
/// the planted-bug tests make in process.)
#[test]
fn a_report_that_cannot_be_written_is_an_error_for_every_command() {
    let dir = scratch("dev-full");
    let bin = crate::support::BIN;
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");
    let any = |role: &str| {
        format!(
            "python3 {}/tests/fixtures/any/max_subarray.py {role}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    std::fs::create_dir_all(dir.join("artifacts/new_game2")).unwrap();
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    let rows = dir.join("rows.csv");
    std::fs::copy(format!("{corpus}/new_game2.csv"), &rows).unwrap();
    let solver = format!("{bin} solve new-game2");
    let bot = format!("{bin} duel bot --strategy random");
    let (gen, brute, ok) = (any("gen"), any("brute"), any("ok"));
    let (artifacts, corpus_dir) = (
        dir.join("artifacts").to_string_lossy().to_string(),
        dir.join("corpus").to_string_lossy().to_string(),
    );
    let rows = rows.to_string_lossy().to_string();
    let commands = [
        cli("solve new-game2").stdin(SAMPLE_5),
        cli("fuzz new-game2 --cases 50 --no-append"),
        cli("replay new-game2").flag("--corpus", corpus),
        cli("triage").arg(&artifacts).flag("--corpus", &corpus_dir),
        cli("import new-game2")
            .arg(&rows)
            .flag("--corpus", &corpus_dir),
        cli("stress new-game2 --cases 2 --no-append").flag("--cmd", &solver),
        cli("stress any --cases 1")
            .flag("--gen", &gen)
            .flag("--brute", &brute)
            .flag("--cmd", &ok),
        cli("bench new-game2 --cases 20 --rounds 1 --no-extras"),
        cli("perft --depth 2"),
        cli("duel step").stdin("1 4 4 4 3 10 0 0 0 0 0 0 0 4 5 10 0 0 0 0 0 0 0 | 0 0 | 0 0\n"),
        cli("duel referee --seed 1")
            .flag("--p1", &bot)
            .flag("--p2", &bot),
        cli("duel tournament --games 2 --seed 1")
            .flag("--p1", &bot)
            .flag("--p2", &bot),
        cli("duel ladder --strategies random,greedy --games 2 --seed 1"),
        cli("duel stress --games 1 --seed 1").flag("--cmd", &bot),
    ];
    let mut problems = Vec::new();
    for command in &commands {
        let (args, input) = (command.words(), command.input());
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut child = crate::support::bin()
            .args(args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(input.as_bytes());
        }
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        if out.status.code() != Some(2) || !stderr.contains("No space left on device") {
            problems.push(format!(
                "{args:?}: exit {:?}, stderr: {stderr}",
                out.status.code()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// An input error quotes a bad token cut short, with its size: a 10 MB token
/// makes a one-line message of a few dozen bytes, for every puzzle's parser
/// and for a `duel step` action field.
#[test]
fn an_input_error_quotes_a_huge_token_cut_short() {
    let huge = "x".repeat(10 << 20);
    let state = "1 4 4 4 3 10 0 0 0 0 0 0 0 4 5 10 0 0 0 0 0 0 0";
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["solve", "robots"], format!("{huge} 1\n")),
        (vec!["solve", "new-game2"], format!("4 {huge}\n")),
        (vec!["solve", "footholds"], format!("{huge} 3\n")),
        (
            vec!["solve", "checkers"],
            format!("1 1\n14\n18\n1 {huge}\n14-23\n0 0\n"),
        ),
        (
            vec!["solve", "checkers"],
            format!("1 1\n14\n18\n1 R\n{huge}\n0 0\n"),
        ),
        (vec!["duel", "step"], format!("{state} | 1 {huge} | 0 0\n")),
        (vec!["solve", "duel-search"], format!("{huge}\n")),
    ];
    for (args, input) in cases {
        let out = lockstep(&args, &input);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            &stderr[..stderr.len().min(300)]
        );
        assert!(
            stderr.len() < 300 && stderr.lines().count() == 1,
            "{args:?}: {} bytes on stderr: {}",
            stderr.len(),
            &stderr[..stderr.len().min(300)]
        );
    }
}

/// An empty file is no case and no corpus file: `shrink` and `import` say
/// so (exit 2) instead of reading it as fuzzer bytes that agree, or as zero
/// rows in silence; and `shrink` says how it read a file.
#[test]
fn empty_files_are_named_and_shrink_says_how_it_read_a_file() {
    let dir = scratch("empty-files");
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    let corpus = dir.join("corpus");
    let corpus = corpus.to_str().unwrap();
    fails_with(&cli("shrink robots /dev/null").run(), "the file is empty");
    fails_with(
        &cli("import robots /dev/null")
            .flag("--corpus", corpus)
            .run(),
        "the file is empty",
    );
    let header = dir.join("header.csv");
    std::fs::write(&header, "name,input,expected,origin,note\n").unwrap();
    let out = cli("import robots")
        .arg(header.to_str().unwrap())
        .flag("--corpus", corpus)
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    has(&text(&out.stdout), &["no rows; nothing to import"]);
    let case = dir.join("case.txt");
    std::fs::write(&case, SAMPLE_5).unwrap();
    let out = cli("shrink new-game2").arg(case.to_str().unwrap()).run();
    fails_with(&out, "read as judge text");
    let bytes = dir.join("bytes");
    std::fs::write(&bytes, [0u8, 1, 2, 250]).unwrap();
    let out = cli("shrink new-game2").arg(bytes.to_str().unwrap()).run();
    fails_with(&out, "read as fuzzer bytes, 4 bytes");
}

/// A test's scratch directory is gone when the test ends, and also when it
/// fails: the guard's drop runs as the panic unwinds. (Before, every run of
/// `cargo test` left some 55 of them under `$TMPDIR`.)
#[test]
fn scratch_directories_go_even_when_a_test_fails() {
    let path = std::sync::Mutex::new(None);
    let failed = std::panic::catch_unwind(|| {
        let dir = scratch("failing-test");
        *path.lock().unwrap() = Some(dir.to_path_buf());
        std::fs::create_dir_all(dir.join("read-only")).unwrap();
        std::fs::write(dir.join("read-only/file"), "x").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            dir.join("read-only"),
            std::fs::Permissions::from_mode(0o500),
        )
        .unwrap();
        assert!(path_exists(&dir));
        panic!("a failing test");
    });
    assert!(failed.is_err());
    let path = path
        .into_inner()
        .unwrap()
        .expect("the scratch directory was made");
    assert!(!path.exists(), "{} is left behind", path.display());
    let dir = scratch("passing-test");
    let kept = dir.to_path_buf();
    drop(dir);
    assert!(!kept.exists(), "{} is left behind", kept.display());
}

fn path_exists(path: &std::path::Path) -> bool {
    path.exists()
}

/// One rule for line ends, for every puzzle (docs/guide/src/rules/index.md): `\n` or
/// `\r\n` end a line; a carriage return anywhere else is an input error
/// naming its line. Checked on every corpus row's input: with `\r\n` it reads
/// as the same case; with `\r` alone between its lines, or between two copies
/// of it (which holds for a one-line format too), it is refused, on its line.
#[test]
fn every_puzzle_takes_crlf_and_refuses_a_lone_carriage_return() {
    use lockstep_core::Model;
    use lockstep_harness::puzzle::Puzzle;
    fn check<P: Puzzle>() -> Vec<String> {
        let path = lockstep_harness::corpus::path_for::<P>(&crate::support::corpus_dir());
        let mut problems = Vec::new();
        let rows = lockstep_harness::corpus::load::<P>(&path).unwrap();
        if rows.is_empty() {
            problems.push(format!("{}: no corpus row to check", P::NAME));
        }
        for loaded in rows {
            let text = loaded.case.write_input();
            let crlf = text.replace('\n', "\r\n");
            if P::Case::parse(&crlf).as_ref() != Ok(&loaded.case) {
                problems.push(format!(
                    "{} row {}: CRLF does not read",
                    P::NAME,
                    loaded.row.name
                ));
            }
            let lone = [
                text.trim_end().replace('\n', "\r"),
                format!("{}\r{text}", text.trim_end()),
            ];
            for cr in lone.iter().filter(|cr| cr.contains('\r')) {
                let line = cr[..cr.find('\r').unwrap_or(0)].matches('\n').count() + 1;
                match P::Case::parse(cr) {
                    Err(e) if e.line == line && e.message.contains("carriage return") => {}
                    other => problems.push(format!(
                        "{} row {}: a lone \\r gave {other:?}",
                        P::NAME,
                        loaded.row.name
                    )),
                }
            }
        }
        problems
    }
    let problems = lockstep_harness::each_puzzle!(check()).concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `fuzz --format json` writes one JSON document on stdout, with a line of
/// counts, the time series and the bugs per puzzle
/// (docs/guide/src/reference/json.md), and nothing else there.
#[test]
fn fuzz_writes_one_json_document() {
    let out =
        cli("fuzz new-game2 footholds --cases 300 --seed 3 --no-append --format json --stats")
            .run();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["lockstep"], "fuzz");
    assert_eq!(doc["seed"], 3);
    let puzzles = doc["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 2);
    for p in puzzles {
        assert_eq!(p["cases"], 300, "{p}");
        assert_eq!(p["diverge"], 0);
        assert!(p["series"].as_array().is_some_and(|s| !s.is_empty()), "{p}");
        assert!(
            p["rule_branches"].as_array().is_some_and(|s| !s.is_empty()),
            "{p}"
        );
        assert!(p["bugs"].as_array().is_some_and(|b| b.is_empty()));
    }
    assert_eq!(puzzles[0]["puzzle"], "new-game2");
}

/// `replay` for CI: one JSON document, a JUnit report with each row a test
/// case, and under GitHub Actions an `::error` annotation on the failing
/// row's file and line.
#[test]
fn replay_reports_rows_as_json_junit_and_annotations() {
    let dir = scratch("replay-ci");
    let corpus = made(dir.join("corpus"));
    let source = crate::support::corpus_dir().join("new_game2.csv");
    let text = std::fs::read_to_string(&source).unwrap();
    // The first sample's answer made wrong: -1 -> 5 (line 2 of the file).
    std::fs::write(
        corpus.join("new_game2.csv"),
        text.replacen(",-1,sample,", ",5,sample,", 1),
    )
    .unwrap();
    let junit = dir.join("replay.xml");
    let out = std::process::Command::new(crate::support::BIN)
        .args(["replay", "new-game2", "--format", "json", "--junit"])
        .arg(&junit)
        .arg("--corpus")
        .arg(&corpus)
        .env("GITHUB_ACTIONS", "true")
        .output()
        .unwrap();
    let stderr = text_of(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["failed"], 1, "{doc}");
    let results = doc["puzzles"][0]["results"].as_array().unwrap();
    assert_eq!(results[0]["outcome"], "fail");
    assert_eq!(results[0]["line"], 2);
    assert!(results[1..].iter().all(|r| r["outcome"] == "pass"));
    let xml = std::fs::read_to_string(&junit).unwrap();
    has(&xml, &["<testcase name=\"sample-1-never-ends\""]);
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), results.len(), "{xml}");
    has(
        &stderr,
        &[
            "::error file=",
            "new_game2.csv,line=2::corpus row sample-1-never-ends fails",
        ],
    );
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Rough edges a new user met, each now a clear error (exit 2): a count too
/// large for its type is called too large, a file given as the corpus is
/// called a file, and --no-append beside --corpus is refused rather than
/// ignoring the corpus, for every command that has both.
#[test]
fn rough_edges_are_clear_errors() {
    let out = cli("fuzz robots --cases 99999999999999999999999").run();
    let stderr = fails_with(&out, "is too large (at most 18446744073709551615)");
    assert!(!stderr.contains("not a whole number"), "{stderr}");
    let dir = scratch("cli-rough-edges");
    let file = dir.join("corpus.csv");
    std::fs::write(&file, "").unwrap();
    let out = cli("replay robots").flag("--corpus", file.display()).run();
    fails_with(&out, "a file, not a directory");
    let corpus = made(dir.join("corpus"));
    for command in [
        "fuzz robots --cases 1",
        "verify robots --size 1",
        "stress robots --cases 1 --cmd cat",
    ] {
        let out = cli(command)
            .flag("--corpus", corpus.display())
            .arg("--no-append")
            .run();
        let stderr = fails_with(&out, "cannot be used with");
        has(&stderr, &["--no-append"]);
    }
    // A generated case named without its seed would replay another run's.
    let out = cli("fuzz robots --no-append")
        .flag("--case", "job 0 case 32")
        .run();
    let stderr = fails_with(&out, "needs the --seed it was found with");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    let out = cli("stress robots --cmd cat --no-append")
        .flag("--case", "job 0 case 32")
        .run();
    fails_with(&out, "give the --seed the report printed");
    // --size bounds only --exhaustive's levels: alone it would be ignored.
    let out = cli("stress robots --cmd cat --cases 1 --size 3").run();
    let stderr = fails_with(&out, "--size 3 is the largest size of --exhaustive");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    // A memory limit no program can start under.
    for limit in ["1", "1K", "1023K"] {
        let out = cli("stress robots --cmd cat --cases 1 --no-append")
            .flag("--memory-limit", limit)
            .run();
        fails_with(&out, "below 1M");
    }
    // The floor and its reason are in the flag's help.
    let help = passed(&cli("stress robots --help").run());
    has(&help, &["At least 1M: no program starts in less"]);
}

/// `fuzz` checks the corpus it will append to before it starts: a broken
/// file is an error at once, naming the file and the line.
#[test]
fn fuzz_refuses_a_broken_corpus_before_it_starts() {
    let dir = scratch("cli-broken-corpus");
    let corpus = made(dir.join("corpus"));
    std::fs::write(
        corpus.join("robots.csv"),
        "name,input,expected,origin,note\nBad Name,x,1,hand,n\n",
    )
    .unwrap();
    let out = cli("fuzz robots --cases 5")
        .flag("--corpus", corpus.display())
        .run();
    let stderr = fails_with(&out, "the corpus cannot take findings for robots");
    has(&stderr, &["robots.csv: line 2"]);
    assert!(
        !stderr.contains("cases/s"),
        "it ran before checking: {stderr}"
    );
}

/// A signal stops `fuzz` the way Ctrl-C should: the cases in hand are
/// finished and reported (the JSON document is whole), the puzzles not
/// reached are named, and the exit code is 128 + the signal. A second
/// signal at once (GNU timeout sends two) is the same stop.
#[test]
fn a_signal_stops_fuzz_with_its_report() {
    let child = std::process::Command::new(crate::support::BIN)
        .args([
            "fuzz",
            "robots",
            "new-game2",
            "--seconds",
            "600",
            "--no-append",
            "--format",
            "json",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let child = crate::support::Spawned::new(child);
    // Until the campaign has started (its banner is printed before it).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for _ in 0..2 {
        std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
    }
    let out = child.wait_with_output();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    has(
        &stderr,
        &[
            "stopping (signal 2)",
            "stopped by signal 2: the figures are",
        ],
    );
    let doc: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(doc["lockstep"], "fuzz", "{stdout}");
}

/// `corpus distill` end to end, every puzzle: a short campaign's rows land
/// in the corpus it is given, each with origin `coverage` and a note that
/// says what it reaches, and the corpus then replays clean (the rows are
/// valid inputs whose expected answers are both sides').
#[test]
fn distill_writes_rows_every_puzzle_replays() {
    let dir = scratch("cli-distill");
    let corpus = made(dir.join("corpus"));
    let out = cli("corpus distill --cases 100 --seconds 1000")
        .flag("--corpus", corpus.display())
        .run();
    let stdout = passed(&out);
    let mut rows = 0;
    for module in lockstep_registry::all().iter().map(|p| p.module()) {
        let file = std::fs::read_to_string(corpus.join(format!("{module}.csv")))
            .unwrap_or_else(|e| panic!("{module}: {e}\n{stdout}"));
        let lines: Vec<&str> = file.lines().skip(1).collect();
        assert!(!lines.is_empty(), "{module}: no row\n{stdout}");
        for line in &lines {
            assert!(
                line.contains(",coverage,") && line.contains("lockstep corpus distill: "),
                "{module}: {line}"
            );
        }
        rows += lines.len();
    }
    let out = cli("replay").flag("--corpus", corpus.display()).run();
    has(
        &passed(&out),
        &[&format!("replay: {rows} passed, 0 failed")],
    );
}

/// Every path a command writes is checked before the run starts: a typo in
/// it is an error at once (exit 2, naming the flag), not after a night.
#[test]
fn every_output_path_is_checked_before_the_run() {
    let missing = "/nonexistent-lockstep-dir/out";
    for (command, flag) in [
        ("verify footholds --size 2 --no-append", "--record"),
        ("replay robots", "--junit"),
        ("report tests/golden/fuzz-json.txt", "--out"),
        ("stress robots --cmd cat --cases 1", "--save"),
        (
            "stress any --gen cat --brute cat --cmd cat --cases 1",
            "--save",
        ),
        ("duel stress --cmd cat --games 1", "--save"),
    ] {
        let out = cli(command).flag(flag, missing).run();
        let stderr = fails_with(&out, &format!("{flag} {missing}"));
        has(&stderr, &["does not exist"]);
        assert!(
            text(&out.stdout).is_empty() && !stderr.contains("lockstep stress"),
            "{command}: it ran before checking {flag}: {stderr}"
        );
    }
}

/// A negative number for a numeric flag is called negative, in one line
/// with the flag, not an unknown argument with clap's tip `-- -5`.
#[test]
fn a_negative_number_is_called_negative() {
    for command in [
        "fuzz robots --no-append --seed -5",
        "fuzz robots --no-append --cases -5",
        "verify footholds --no-append --size -5",
        "stress robots --cmd cat --jobs -2",
        "perft --depth 2 --hash-mb -1",
    ] {
        let out = cli(command).run();
        let (_, stderr) = exited(&out, 2, command);
        assert!(!stderr.contains("-- -"), "{command}: {stderr}");
        assert!(
            stderr.contains("negative") || stderr.contains("not in 1.."),
            "{command}: {stderr}"
        );
    }
}

/// The fuzz table's columns line up on every row, the longest puzzle name
/// (`checkers-perft`) included: each number ends where its header does.
#[test]
fn the_fuzz_table_lines_up_on_every_row() {
    let out = cli("fuzz --cases 3 --seed 1 --jobs 1 --no-append").run();
    let stdout = passed(&out);
    let header = line_starting(&stdout, "puzzle");
    let ends = |line: &str| -> Vec<usize> {
        let mut ends = Vec::new();
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if !c.is_whitespace() && chars.get(i + 1).is_none_or(|n| n.is_whitespace()) {
                ends.push(i);
            }
        }
        ends
    };
    // The header's column ends, but the first (the name, left-aligned).
    let columns = &ends(header)[1..];
    let mut rows = 0;
    for line in stdout
        .lines()
        .skip_while(|l| !l.starts_with("puzzle"))
        .skip(1)
    {
        if line.trim().is_empty() {
            break;
        }
        rows += 1;
        assert_eq!(&ends(line)[1..], columns, "{line:?} against {header:?}");
    }
    assert!(stdout.contains("\ncheckers-perft "), "{stdout}");
    assert!(rows >= 8, "{stdout}");
}

/// The second tier (`.ci/run`): what takes minutes of a debug build.
mod hunt {
    use super::*;

    /// The bench's line of verify over its whole CI scope: the cases, the
    /// classes checked, both rates and verify's share of theirs.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn bench_measures_verify_over_its_ci_scope() {
        let out = cli("bench new-game2 --cases 50 --rounds 1").run();
        let stdout = passed(&out);
        let line = line_starting(&stdout, "  verify --scope ci: ");
        let words: Vec<&str> = line.split_whitespace().collect();
        // verify --scope ci: N cases (M classes checked), R cases/s; core +
        // reference on every case R cases/s; verify P% of theirs
        let number = |i: usize| {
            words[i]
                .trim_start_matches('(')
                .trim_end_matches(['%', ','])
                .parse::<f64>()
                .unwrap_or(f64::NAN)
        };
        for i in [3, 5, 8, 16, 19] {
            assert!(number(i).is_finite() && number(i) > 0.0, "{i}: {line}");
        }
        assert!(number(5) <= number(3), "classes beyond cases: {line}");
        assert!(line.ends_with("% of theirs"), "{line}");
    }
}
