//! Helpers shared by the test modules: running the `lockstep` binary, reading its
//! output, scratch directories, and campaign options for tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `lockstep` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_lockstep");

/// Runs `lockstep ARGS` from the source tree with `stdin` as its input.
pub fn lockstep(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lockstep binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that a run failed as a usage or input error (exit code 2) with a
/// message containing `needle`; returns its stderr for further checks.
#[track_caller]
pub fn fails_with(out: &Output, needle: &str) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "expected {needle:?} in: {stderr}");
    stderr
}

/// A fresh, empty directory under the system temp dir, unique to this test run and
/// `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A quiet campaign on two jobs that stops after `max_cases` (the time limit is
/// only a safety net): the options the broken-core campaign tests share.
pub fn campaign_options(seed: u64, max_cases: u64) -> lockstep::campaign::CampaignOptions {
    lockstep::campaign::CampaignOptions {
        seconds: 600.0,
        seed,
        jobs: 2,
        max_cases: Some(max_cases),
        progress: false,
        stats: false,
        limits: lockstep::puzzle::CaseLimits::Wide,
    }
}

/// The shipped corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Processes that have `tag` as one of their arguments, from /proc. (lockstep's
/// own command line holds the tag inside a longer `--cmd` argument: not counted.)
pub fn processes_with(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| cmdline.split(|&b| b == 0).any(|arg| arg == tag.as_bytes()))
        .count()
}
