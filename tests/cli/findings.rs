//! Findings through the binary (the round trip of a finding through the
//! library is the harness's test): the corpus file under abuse: concurrent appenders, appenders killed with SIGKILL, read-only
//! and missing corpora (the finding goes to a fallback file), empty files, a
//! closed stdout.

use crate::support::{cli, exited, fails_with, has, lockstep, made, scratch, text, BIN};
use lockstep_harness::campaign::{self};
use lockstep_harness::corpus::{self, Appended, Recorded, Row};
use lockstep_harness::puzzle::Puzzle;
use lockstep_harness::puzzles::{NewGame2, Robots};
use lockstep_search::seeds::CASE_BYTES;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

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
        let mut child = crate::support::bin()
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
        crate::support::bin()
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
    has(&text(&out.stderr), &["nothing to triage"]);
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

/// A run that found nothing says nothing of appending: "appended" is said
/// of a row only once it is in the corpus (the corpus exists and takes
/// rows, so a finding would have gone there).
#[test]
fn a_run_that_finds_nothing_does_not_say_it_appended() {
    let dir = scratch("findings-nothing-appended");
    let corpus = made(dir.join("corpus"));
    for command in [
        "fuzz robots --cases 20 --seed 1",
        "verify footholds --size 2",
    ] {
        let out = cli(command).flag("--corpus", corpus.display()).run();
        let (_, stderr) = exited(&out, 0, command);
        assert!(!stderr.contains("appended"), "{command}: {stderr}");
        assert!(
            fs::read_dir(&corpus).unwrap().next().is_none(),
            "{command} wrote to the corpus"
        );
    }
}
