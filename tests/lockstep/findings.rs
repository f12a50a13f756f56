//! A finding's whole path, for every puzzle: a deliberately broken core is found
//! by a campaign, its row is appended to a scratch corpus, and that row fails
//! replay against the broken core and passes against the real one. The same
//! round trip for a cargo-fuzz artifact (through triage). Then the corpus file
//! under abuse: concurrent appenders, appenders killed with SIGKILL, read-only
//! and missing corpora (the finding goes to a fallback file), empty files, a
//! closed stdout.

use crate::support::{cli, exited, fails_with, has, lockstep, made, scratch, text, BIN};
use lockstep::campaign::{self, Solver};
use lockstep::corpus::{self, Appended, Recorded, Row};
use lockstep::puzzle::{run_reference, Encoding, Puzzle};
use lockstep::puzzles::{NewGame2, Robots};
use lockstep::replay;
use lockstep::seeds::{case_bytes, CASE_BYTES};
use lockstep::triage::{self, Reproduce};
use lockstep_core::Model;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// A note holds what a person needs, never a whole answer.
const NOTE_LIMIT: usize = 600;

/// What one puzzle's round trip measured.
struct RoundTrip {
    row_bytes: usize,
    expected_lines: usize,
}

/// The campaign → row → replay round trip, then the artifact → triage → row →
/// replay round trip, for one puzzle and one broken core.
fn round_trip<P: Puzzle>(broken: Solver<P>, max_cases: u64) -> Result<RoundTrip, String> {
    let name = P::NAME;
    let dir = scratch(&format!("round-trip-{}", P::MODULE));
    let path = corpus::path_for::<P>(&dir);
    let options = crate::support::campaign_options(7, max_cases);
    let (address, finding) = campaign::run_campaign_with::<P>(&options, broken)
        .finding
        .ok_or_else(|| format!("{name}: the broken core was not found in {max_cases} cases"))?;
    let row = finding.row;

    // The row's expected answer is exactly the reference's judge output for the
    // row's own input, in the puzzle's line-break encoding.
    let case = P::Case::parse(&corpus::decode_for::<P>(&row.input))
        .map_err(|e| format!("{name}: the row's input does not parse: {e}"))?;
    let reference = run_reference::<P>(&case, P::FUEL.saturating_mul(10))
        .and_then(|side| side.answer().cloned())
        .ok_or_else(|| format!("{name}: the reference does not answer the row's input"))?;
    let reference_text = P::Case::write_answer(&reference);
    if row.expected != corpus::encode_for::<P>(&reference_text) {
        return Err(format!(
            "{name}: expected is not the reference's answer: {:?}",
            row.expected
        ));
    }
    if row.note.len() > NOTE_LIMIT {
        return Err(format!("{name}: a note of {} bytes", row.note.len()));
    }

    match corpus::append::<P>(&path, row.clone()) {
        Ok(Appended::Written(written)) if written == row.name => {}
        other => return Err(format!("{name}: append gave {other:?}")),
    }
    let row_bytes = fs::read(&path).unwrap().len() - corpus::COLUMNS.join(",").len() - 1;
    check_replays::<P>(&path, broken, 1)?;

    // The same case as a cargo-fuzz artifact: the generator's bytes, which is
    // what libFuzzer saves. Beside it, the bytes of a case the broken core
    // gets right, which must not reproduce.
    let artifacts = made(dir.join("artifacts"));
    let mut buf = vec![0u8; CASE_BYTES];
    let lockstep::search::Address::Stream { job, index } = address else {
        unreachable!("a campaign's case at {address}");
    };
    case_bytes(options.plan.seed, job, index, &mut buf);
    fs::write(artifacts.join("crash-found"), &buf).unwrap();
    let agreeing = (0..1000)
        .find_map(|i| {
            let case = campaign::generate_case::<P>(99, 0, i, &mut buf)?;
            let verdict = lockstep::puzzle::check_with::<P>(&case, broken, P::FUEL);
            (verdict == lockstep::puzzle::Agreement::Agree).then(|| buf.clone())
        })
        .ok_or_else(|| format!("{name}: no case the broken core gets right"))?;
    fs::write(artifacts.join("timeout-agrees"), &agreeing).unwrap();

    let triaged = scratch(&format!("round-trip-{}-triaged", P::MODULE));
    let reproduce: Reproduce = Arc::new(move |bytes: &[u8]| {
        campaign::reproduce::<P>(bytes, Encoding::Bytes, broken, "test artifact")
            .map(|f| (String::new(), f.row))
    });
    let record = |row: Row| corpus::record::<P>(&triaged, row);
    let report = triage::triage_target(
        P::MODULE,
        &artifacts,
        &reproduce,
        &record,
        Duration::from_secs(120),
    )
    .unwrap();
    if (report.artifacts, report.appended, report.not_reproduced) != (2, 1, 1) {
        return Err(format!("{name}: triage counted {report:?}"));
    }
    for file in ["crash-found", "timeout-agrees"] {
        if !artifacts.join("done").join(file).exists() || artifacts.join(file).exists() {
            return Err(format!("{name}: {file} was not moved to done/"));
        }
    }
    let triaged_path = corpus::path_for::<P>(&triaged);
    check_replays::<P>(&triaged_path, broken, 1)?;
    // The artifact's row is the campaign's: the same case, shrunk the same way.
    let from_artifact = corpus::load::<P>(&triaged_path).unwrap();
    if from_artifact[0].case != case {
        return Err(format!("{name}: the artifact shrank to another case"));
    }
    Ok(RoundTrip {
        row_bytes,
        expected_lines: lockstep::text::judge_lines(&reference_text).len(),
    })
}

/// `rows` rows of `path` fail replay against `broken`, and all pass against
/// the real core.
fn check_replays<P: Puzzle>(path: &Path, broken: Solver<P>, rows: usize) -> Result<(), String> {
    let name = P::NAME;
    let against_broken = replay::replay_with::<P>(path, broken).map_err(|e| format!("{e:#}"))?;
    if against_broken.rows != rows || against_broken.failures.len() != rows {
        return Err(format!(
            "{name}: {} of {} rows fail against the broken core, {rows} should",
            against_broken.failures.len(),
            against_broken.rows
        ));
    }
    let fixed = replay::replay::<P>(path).map_err(|e| format!("{e:#}"))?;
    if !fixed.failures.is_empty() {
        return Err(format!(
            "{name}: the row fails against the real core: {}",
            fixed.failures[0].problem
        ));
    }
    Ok(())
}

#[test]
fn a_finding_from_every_puzzle_fails_replay_until_the_core_is_fixed() {
    // The first planted bug of each puzzle's catalogue.
    macro_rules! round_trips {
        ($($ty:ident $m:ident [$($flag:ident)?],)*) => {
            [$({
                type P = lockstep::puzzles::$ty;
                let (_, bug) = lockstep_planted::$m::bugs()[0];
                (P::NAME, round_trip::<P>(bug, 20 * P::PROPERTY_CASES))
            }),*]
        };
    }
    let results = lockstep::for_each_puzzle!(round_trips);
    let mut problems = Vec::new();
    let mut largest = 0;
    for (name, result) in results {
        match result {
            Ok(trip) => {
                println!(
                    "{name}: row of {} bytes, expected answer of {} line(s)",
                    trip.row_bytes, trip.expected_lines
                );
                largest = largest.max(trip.row_bytes);
                // Robots answers are several lines whatever the case: the
                // multi-line shape is really exercised.
                if name == Robots::NAME && trip.expected_lines < 2 {
                    problems.push(format!("{name}: a one-line answer"));
                }
            }
            Err(problem) => problems.push(problem),
        }
    }
    println!("largest row: {largest} bytes");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every answer shape of every puzzle survives the corpus encoding: the
/// reference's judge output, encoded and decoded, is the same judge output, and
/// so is the input (it parses back to the same case).
#[test]
fn every_answer_shape_survives_the_corpus_encoding() {
    fn check<P: Puzzle>(cases: u64) -> Vec<String> {
        let mut buf = vec![0u8; CASE_BYTES];
        let mut problems = Vec::new();
        for index in 0..cases {
            let Some(case) = campaign::generate_case::<P>(11, 0, index, &mut buf) else {
                continue;
            };
            let input = case.write_input();
            let decoded = corpus::decode_for::<P>(&corpus::encode_for::<P>(&input));
            if P::Case::parse(&decoded).ok().as_ref() != Some(&case) {
                problems.push(format!("{}: input {input:?} does not survive", P::NAME));
            }
            let Some(answer) = run_reference::<P>(&case, P::FUEL).and_then(|s| s.answer().cloned())
            else {
                continue;
            };
            let text = P::Case::write_answer(&answer);
            let field = corpus::encode_for::<P>(&text);
            if field.contains('\n')
                || !lockstep::text::same_output(&corpus::decode_for::<P>(&field), &text)
            {
                problems.push(format!("{}: answer {text:?} does not survive", P::NAME));
            }
        }
        problems.truncate(3);
        problems
    }
    fn check_sample<P: Puzzle>() -> Vec<String> {
        check::<P>(P::PROPERTY_CASES / 2)
    }
    let problems = lockstep::each_puzzle!(check_sample()).concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

mod corpus_file;

/// A closed stdout (`lockstep ... | head -0`) never panics and never changes
/// the exit code.
#[test]
fn a_closed_stdout_does_not_panic() {
    for (args, code) in [
        (
            &[
                "fuzz",
                "new-game2",
                "--cases",
                "200",
                "--seed",
                "1",
                "--no-append",
            ][..],
            0,
        ),
        (&["replay", "new-game2"], 0),
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// `lockstep triage` through the binary: an artifact that does not reproduce
/// (the real core is right) moves to done/, a folder is found by either
/// spelling, and `--check` refuses a corpus it could not write.
#[test]
fn triage_settles_what_does_not_reproduce_and_checks_the_corpus() {
    let dir = scratch("triage-cli");
    let artifacts = dir.join("artifacts");
    let folder = made(artifacts.join("new_game2"));
    fs::write(folder.join("crash-1"), [7u8; 64]).unwrap();
    fs::write(folder.join("notes.txt"), "not an artifact").unwrap();
    let corpus_dir = made(dir.join("corpus"));
    let args = |extra: &[&str]| {
        let mut v = vec![
            "triage".to_string(),
            artifacts.to_str().unwrap().to_string(),
            "--corpus".to_string(),
            corpus_dir.to_str().unwrap().to_string(),
        ];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&str]| {
        let v = args(extra);
        lockstep(&v.iter().map(String::as_str).collect::<Vec<_>>(), "")
    };
    let out = run(&["--target", "new-game2"]);
    let (stdout, stderr) = exited(&out, 0, "");
    has(&stderr, &["did not reproduce"]);
    assert!(folder.join("done/crash-1").exists());
    assert!(folder.join("notes.txt").exists());
    let line = stdout
        .lines()
        .find(|l| l.starts_with("new_game2"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let counts: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        counts[1..],
        ["1", "0", "0", "0", "0", "0", "1", "0"],
        "{line}"
    );
    // A named target with no folder found nothing, and says so in its line.
    let out = run(&["--target", "robots"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["robots", "0", "0", "0", "0", "0", "0", "0", "0"]),
        "{}",
        text(&out.stdout)
    );
    // --check: a corpus that loads and is writable passes; a read-only file fails.
    assert_eq!(run(&["--check"]).status.code(), Some(0));
    let file = corpus::path_for::<Robots>(&corpus_dir);
    fs::write(&file, corpus::COLUMNS.join(",") + "\n").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    fails_with(&run(&["--check"]), "read-only");
}

/// `triage --check` replaces the corpus file as an append would: a file that
/// can be read but not replaced (immutable, `chattr +i`) fails the check,
/// where it used to pass and every finding of the night went to a fallback
/// file. (Where `chattr` is refused, not root or a file system without the
/// attribute, only the passing half runs, and the test says so.)
#[test]
fn the_pre_check_fails_a_corpus_file_that_cannot_be_replaced() {
    let dir = scratch("check-immutable");
    let corpus_dir = made(dir.join("corpus"));
    let file = corpus::path_for::<NewGame2>(&corpus_dir);
    fs::write(&file, corpus::COLUMNS.join(",") + "\n").unwrap();
    let check = || {
        cli("triage --check --target new-game2")
            .flag("--corpus", corpus_dir.to_str().unwrap())
            .run()
    };
    assert_eq!(check().status.code(), Some(0), "{}", text(&check().stderr));
    let immutable = Command::new("chattr")
        .arg("+i")
        .arg(&file)
        .output()
        .is_ok_and(|o| o.status.success());
    if immutable {
        let out = check();
        let _ = Command::new("chattr").arg("-i").arg(&file).status();
        fails_with(&out, "cannot be replaced");
        // And the check left the file as it was.
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            corpus::COLUMNS.join(",") + "\n"
        );
    } else {
        eprintln!("chattr +i refused here: only the passing half of the check ran");
    }
}

/// An artifacts directory named on the command line must exist: a typo
/// (`fuz/artifacts`) is an error naming it, not a clean night. The default
/// one, missing, is a night that found nothing.
#[test]
fn a_misspelt_artifacts_directory_is_an_error() {
    let dir = scratch("triage-typo");
    fs::create_dir_all(dir.join("corpus")).unwrap();
    let run = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    fails_with(
        &run(&["triage", "fuz/artifacts"]),
        "fuz/artifacts: no such artifacts directory",
    );
    let out = run(&["triage"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("nothing to triage"),
        "{}",
        text(&out.stderr)
    );
}

/// `scripts/fuzz-overnight` checks, before a night of fuzzing, everything that
/// would lose the morning's findings, and stops with exit 2 (no nightly
/// toolchain is needed to get that far: these checks come first).
#[test]
fn the_overnight_script_stops_before_the_night_when_findings_could_be_lost() {
    let dir = scratch("overnight");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fuzz-overnight");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(&script)
            .args(args)
            .env("LOCKSTEP", BIN)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let read_only = read_only_corpus(&dir.join("read-only"));
    let broken = made(dir.join("broken"));
    fs::write(corpus::path_for::<Robots>(&broken), "name,input\n").unwrap();
    let missing = dir.join("missing");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    for (args, needle) in [
        // Either spelling of a target passes the target check.
        (
            vec!["--corpus".to_string(), arg(&read_only), "new-game2".into()],
            "read-only",
        ),
        (
            vec!["--corpus".to_string(), arg(&broken), "robots".into()],
            "missing column",
        ),
        (
            vec!["--corpus".to_string(), arg(&missing), "robots".into()],
            "no such directory",
        ),
        (vec!["chess".to_string()], "no fuzz target 'chess'"),
        (
            vec!["--seconds".to_string(), "soon".into(), "robots".into()],
            "whole number",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            !text(&out.stdout).contains("fuzzing for"),
            "{args:?} started fuzzing"
        );
    }
    // A relative --corpus is the caller's: run from the scratch directory,
    // `broken` is found there, not in the script's own checkout.
    let out = Command::new("bash")
        .arg(&script)
        .args(["--corpus", "broken", "robots"])
        .env("LOCKSTEP", BIN)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    has(&stderr, &["missing column"]);
    assert!(stderr.contains(&arg(&broken)), "{stderr}");
}

/// A corpus directory `dir` whose new_game2 file holds the header alone and
/// cannot be written.
fn read_only_corpus(dir: &Path) -> std::path::PathBuf {
    fs::create_dir_all(dir).unwrap();
    let file = corpus::path_for::<NewGame2>(dir);
    fs::write(&file, corpus::COLUMNS.join(",") + "\n").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    dir.to_path_buf()
}
