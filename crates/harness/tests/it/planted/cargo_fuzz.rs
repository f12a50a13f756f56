//! The planted-bug table's cargo-fuzz driver: libFuzzer, with the coverage
//! feedback `cargo fuzz` builds in, hunting one planted bug through the
//! `planted` target (`fuzz/planted/planted.rs`, the bug named by
//! `LOCKSTEP_PLANTED`), from an empty corpus, one process per run.
//!
//! A run's time is the process's wall time, start to crash: libFuzzer's
//! start-up is part of what a user waits for. Its cases are libFuzzer's
//! executed units (`stat::number_of_executed_units`, printed at the crash).
//! The crash's input is decoded as `lockstep triage` decodes an artifact
//! (the puzzle's generator on the bytes, under the same limits) and shrunk
//! by lockstep's shrinker against the same wrong solver.

use super::{Budget, Hunted};
use lockstep_harness::decode::{decode_case, Encoding};
use lockstep_harness::puzzle::{check_with, Solver};
use lockstep_harness::shrink::Sideways;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

/// The built `planted` target, or why there is none (no stable toolchain, no
/// cargo-fuzz, a failed build): built once per test process.
pub fn planted_binary() -> Result<&'static Path, &'static str> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(build)
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(String::as_str)
}

fn build() -> Result<PathBuf, String> {
    // The repository root, where fuzz/ is.
    let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let present = Command::new("cargo")
        .args(["+stable", "fuzz", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        return Err("no stable toolchain with cargo-fuzz".into());
    }
    // The overnight build's flags (scripts/fuzz-overnight): no sanitizer,
    // release with debug assertions.
    let out = Command::new("cargo")
        .args(["+stable", "fuzz", "build", "--sanitizer", "none", "planted"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cargo fuzz build: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo fuzz build planted failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let binary = root.join("fuzz/target/x86_64-unknown-linux-gnu/release/planted");
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!("no {}", binary.display()))
    }
}

/// One libFuzzer run against `name` (as `lockstep_planted::all()` names it)
/// from `seed`; shrinks the crash's input when `shrink_it`.
pub fn by_cargo_fuzz<P: Sideways>(
    name: &str,
    solver: Solver<P>,
    seed: u64,
    budget: &Budget,
    shrink_it: bool,
) -> Hunted {
    let binary = planted_binary().unwrap_or_else(|why| panic!("the cargo-fuzz driver: {why}"));
    let scratch = std::env::temp_dir().join(format!(
        "lockstep-planted-{}-{}-{seed}",
        std::process::id(),
        name.replace('/', "-")
    ));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    let start = Instant::now();
    let out = Command::new(binary)
        .arg(format!("-seed={seed}"))
        .arg(format!("-max_total_time={}", budget.seconds.ceil() as u64))
        .arg(format!("-runs={}", budget.cases))
        .arg(format!("-artifact_prefix={}/", scratch.display()))
        .arg("-print_final_stats=1")
        .env("LOCKSTEP_PLANTED", name)
        // The limits `decode_case` reads the artifact under (this process's
        // LOCKSTEP_LIMITS, wide when unset), so the case is the one that failed.
        .env(
            "LOCKSTEP_LIMITS",
            lockstep_harness::puzzle::CaseLimits::from_env()
                .expect("LOCKSTEP_LIMITS")
                .to_string(),
        )
        .stdin(Stdio::null())
        .output()
        .expect("the planted target runs");
    let seconds = start.elapsed().as_secs_f64();
    let log = String::from_utf8_lossy(&out.stderr);
    let cases = log
        .lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let artifact = std::fs::read_dir(&scratch)
        .ok()
        .and_then(|mut entries| entries.find_map(|e| e.ok()))
        .map(|e| e.path());
    let hunted = match artifact {
        // No crash: libFuzzer ran out of its budget and exits 0; anything
        // else (a bad name, a build that cannot start) is the driver's failure.
        None => {
            assert!(
                out.status.success(),
                "{name}: the planted target failed without a crash:\n{log}"
            );
            Hunted {
                seconds: f64::INFINITY,
                cases,
                shrunk: None,
            }
        }
        Some(path) => {
            let bytes = std::fs::read(&path).expect("the artifact reads");
            Hunted {
                seconds,
                cases,
                shrunk: shrink_it.then(|| shrunk_artifact::<P>(name, solver, &bytes)),
            }
        }
    };
    let _ = std::fs::remove_dir_all(&scratch);
    hunted
}

/// The artifact as triage reads it, shrunk against `solver`.
fn shrunk_artifact<P: Sideways>(name: &str, solver: Solver<P>, bytes: &[u8]) -> String {
    let case = decode_case::<P>(bytes, Encoding::Bytes)
        .unwrap_or_else(|e| panic!("{name}: the artifact decodes to no case: {e}"));
    let fails = |c: &P::Case| check_with::<P>(c, solver, P::FUEL).is_divergence();
    assert!(
        fails(&case),
        "{name}: the artifact's case does not fail in process"
    );
    let shrunk = lockstep_harness::shrink::shrink::<P>(
        case,
        fails,
        lockstep_harness::shrink::DEFAULT_MAX_ATTEMPTS,
    );
    P::describe(&shrunk.case)
}
