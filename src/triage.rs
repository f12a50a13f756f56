//! `lockstep triage`: every cargo-fuzz artifact turned into a shrunk corpus row.
//!
//! libFuzzer leaves the inputs that crashed a target (here: a disagreement, which
//! `fuzz_one` turns into a panic), timed out or ran out of memory in
//! `fuzz/artifacts/<target>/` as `crash-*`, `timeout-*` and `oom-*` files of raw
//! generator bytes. Triage reads each one through the puzzle's generator, checks
//! it, shrinks a disagreement and records its row ([`crate::corpus::record`]).
//!
//! An artifact moves to `done/` beside it only when its fate is settled: its row
//! is in the corpus file (appended now, or already there), or it truly does not
//! reproduce (core and reference agree, the reference cannot finish it, or the
//! bytes make no case). An artifact whose row could only go to a fallback file,
//! or whose check panicked or did not finish in time, stays where it is, so the
//! next triage tries it again. Nothing is deleted.

use crate::campaign::NotReproduced;
use crate::corpus::{Recorded, Row};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The prefixes of the artifact files libFuzzer writes that triage takes.
pub const ARTIFACT_PREFIXES: [&str; 3] = ["crash-", "timeout-", "oom-"];

/// A shrunk disagreement: the report for a person and the row for the corpus.
pub type Reproduction = Result<(String, Row), NotReproduced>;

/// Checks and shrinks one artifact's bytes (a puzzle's `AnyPuzzle::shrink`, or a
/// deliberately broken core's in tests).
pub type Reproduce = Arc<dyn Fn(&[u8]) -> Reproduction + Send + Sync>;

/// Records a row (a puzzle's `AnyPuzzle::record`).
pub type Record<'a> = &'a dyn Fn(Row) -> Recorded;

/// What became of one artifact.
#[derive(Debug, Clone)]
pub enum Fate {
    /// A disagreement: shrunk, and its row recorded as said.
    Reproduced { report: String, recorded: Recorded },
    /// Not a disagreement, and why.
    NotReproduced(NotReproduced),
    /// Reading, checking or shrinking it panicked or did not finish in time.
    Failed(String),
}

/// One artifact and its fate.
#[derive(Debug, Clone)]
pub struct Triaged {
    pub artifact: PathBuf,
    pub fate: Fate,
    /// Where it was moved (`done/`), or `None` when it stays to be tried again.
    pub moved_to: Option<PathBuf>,
}

/// What a person reads of one artifact: its fate, and where it went.
impl fmt::Display for Triaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.artifact.display();
        match &self.fate {
            Fate::Reproduced { report, recorded } => {
                write!(f, "\n== {name}: reproduced\n{report}\n{recorded}")?
            }
            Fate::NotReproduced(why) => write!(f, "== {name}: did not reproduce: {why}")?,
            Fate::Failed(why) => write!(f, "== {name}: kept for the next triage: {why}")?,
        }
        if let Some(to) = &self.moved_to {
            write!(f, "\n   moved to {}", to.display())?;
        }
        Ok(())
    }
}

/// One target's artifacts, counted.
#[derive(Debug, Clone, Default)]
pub struct TargetReport {
    pub target: String,
    pub artifacts: usize,
    pub reproduced: usize,
    /// Rows appended to the corpus now.
    pub appended: usize,
    /// Reproduced, with the same case already in the corpus.
    pub already_present: usize,
    /// Reproduced, but the row could only be saved to a fallback file (or only
    /// printed): the artifact stays.
    pub unsaved: usize,
    pub not_reproduced: usize,
    /// Panicked or hung while being checked: the artifact stays.
    pub failed: usize,
    pub items: Vec<Triaged>,
}

impl TargetReport {
    /// True when something was found: a disagreement or a check that failed.
    pub fn found(&self) -> bool {
        self.reproduced > 0 || self.failed > 0
    }
}

/// The artifact files of one target directory, sorted by name.
pub fn artifacts_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type()?.is_file() && ARTIFACT_PREFIXES.iter().any(|p| name.starts_with(p)) {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// Triages every artifact of one target directory: reproduce (each on a thread
/// of its own, given at most `limit`), record, and move what is settled to
/// `done/`.
pub fn triage_target(
    target: &str,
    dir: &Path,
    reproduce: &Reproduce,
    record: Record<'_>,
    limit: Duration,
) -> std::io::Result<TargetReport> {
    let mut report = TargetReport {
        target: target.to_string(),
        ..TargetReport::default()
    };
    for artifact in artifacts_in(dir)? {
        report.artifacts += 1;
        let fate = match fs::read(&artifact) {
            Err(e) => Fate::Failed(format!("reading it: {e}")),
            Ok(bytes) => {
                let (tx, rx) = mpsc::channel();
                let reproduce = Arc::clone(reproduce);
                // A thread per artifact so that one that hangs the core cannot
                // stall the rest; if it does, it is left running and dies with
                // the process.
                std::thread::spawn(move || {
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        reproduce(&bytes)
                    }));
                    let _ = tx.send(result);
                });
                match rx.recv_timeout(limit) {
                    Ok(Ok(Ok((report, row)))) => Fate::Reproduced {
                        report,
                        recorded: record(row),
                    },
                    Ok(Ok(Err(why))) => Fate::NotReproduced(why),
                    Ok(Err(_)) => Fate::Failed("checking it panicked".to_string()),
                    Err(_) => Fate::Failed(format!(
                        "checking it did not finish in {} s (a hang in a solver?)",
                        limit.as_secs_f64()
                    )),
                }
            }
        };
        let settled = match &fate {
            Fate::Reproduced { recorded, .. } => {
                report.reproduced += 1;
                match recorded {
                    Recorded::Appended { .. } => report.appended += 1,
                    Recorded::AlreadyPresent { .. } => report.already_present += 1,
                    Recorded::Unsaved { .. } => report.unsaved += 1,
                }
                recorded.in_corpus()
            }
            Fate::NotReproduced(_) => {
                report.not_reproduced += 1;
                true
            }
            Fate::Failed(_) => {
                report.failed += 1;
                false
            }
        };
        // A move that fails leaves the artifact for the next triage, which
        // finds its row already in the corpus and moves it then.
        let moved_to = if settled {
            move_to_done(&artifact).ok()
        } else {
            None
        };
        report.items.push(Triaged {
            artifact,
            fate,
            moved_to,
        });
    }
    Ok(report)
}

/// Moves an artifact into `done/` beside it (created on demand).
fn move_to_done(artifact: &Path) -> std::io::Result<PathBuf> {
    let dir = artifact
        .parent()
        .map_or_else(|| PathBuf::from("done"), |p| p.join("done"));
    fs::create_dir_all(&dir)?;
    let to = dir.join(artifact.file_name().unwrap_or_default());
    fs::rename(artifact, &to)?;
    Ok(to)
}

/// The table `lockstep triage` prints: one line per target.
pub struct Table<'a>(pub &'a [TargetReport]);

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<12} {:>9} {:>10} {:>8} {:>8} {:>8} {:>14} {:>7}",
            "target",
            "artifacts",
            "reproduced",
            "appended",
            "present",
            "unsaved",
            "not reproduced",
            "failed"
        )?;
        for r in self.0 {
            writeln!(
                f,
                "{:<12} {:>9} {:>10} {:>8} {:>8} {:>8} {:>14} {:>7}",
                r.target,
                r.artifacts,
                r.reproduced,
                r.appended,
                r.already_present,
                r.unsaved,
                r.not_reproduced,
                r.failed
            )?;
        }
        Ok(())
    }
}
