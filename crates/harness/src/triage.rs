//! `lockstep triage`: every cargo-fuzz artifact turned into a shrunk corpus row.
//!
//! libFuzzer leaves the inputs that crashed a target (here: a disagreement, which
//! `fuzz_one` turns into a panic), timed out or ran out of memory in
//! `fuzz/artifacts/<target>/` as `crash-*`, `timeout-*` and `oom-*` files of raw
//! generator bytes. Triage reads each one through the puzzle's generator, checks
//! it, shrinks a disagreement and records its row ([`crate::corpus::record`]).
//!
//! A night of fuzzing a shallow bug leaves hundreds of artifacts of one bug, so
//! triage groups the disagreements by bug signature ([`crate::signature`]):
//! one bug, N examples. The smallest example of each bug (by the length of
//! its shrunk input) becomes the corpus row; every example's row is kept
//! outside the corpus, in `<target>/by-signature/<signature>.csv` beside the
//! artifacts (corpus format: `lockstep import` takes it), for a user who wants
//! them.
//!
//! An artifact moves to `done/` beside it only when its fate is settled: its
//! bug's row is in the corpus file (appended now, or already there), or it
//! truly does not reproduce (core and reference agree, the reference cannot
//! finish it, or the bytes make no case). An artifact whose bug's row could
//! only go to a fallback file, or whose check panicked or did not finish in
//! time, stays where it is, so the next triage tries it again. Nothing is
//! deleted.

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
    /// A disagreement: shrunk; its bug's row recorded as said (the bug's
    /// smallest example is the row).
    Reproduced {
        report: String,
        signature: String,
        recorded: Recorded,
    },
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
            // One line an artifact: a night of one bug has thousands, and the
            // bug's report is printed once, from its smallest example.
            Fate::Reproduced {
                signature,
                recorded,
                ..
            } => write!(
                f,
                "== {name}: reproduced, bug {signature}; the bug's row: {recorded}"
            )?,
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
    /// Not looked at: a signal stopped triage first. They stay.
    pub left: usize,
    /// The bugs the reproduced artifacts show, by signature.
    pub bugs: Vec<TriagedBug>,
    pub items: Vec<Triaged>,
}

/// One bug among a target's artifacts.
#[derive(Debug, Clone)]
pub struct TriagedBug {
    pub signature: String,
    /// Artifacts that reproduce it.
    pub examples: usize,
    /// The row of its smallest example, and where it went.
    pub row: Row,
    /// The smallest example's report: both answers and where they part.
    pub report: String,
    pub recorded: Recorded,
    /// Where every example's row is kept (or why it could not be written).
    pub examples_file: Result<PathBuf, String>,
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

/// Triages every artifact of one target directory: reproduce each (on a
/// thread of its own, given at most `limit`), group the disagreements by
/// bug signature, record each bug's smallest example, keep every example's
/// row beside the artifacts, and move what is settled to `done/`.
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
    let outcomes = reproduce_each(dir, reproduce, limit, &mut report)?;
    let bugs = group_by_signature(&outcomes);
    let mut bug_of = vec![None; outcomes.len()];
    for (b, (signature, examples)) in bugs.iter().enumerate() {
        let rows: Vec<&Row> = examples
            .iter()
            .filter_map(|&i| outcomes[i].1.as_ref().ok().map(|(_, row)| row))
            .collect();
        let smallest_at = *examples
            .iter()
            .min_by_key(|&&i| {
                let row = &outcomes[i].1.as_ref().expect("an example reproduced").1;
                (row.input.len(), row.name.clone())
            })
            .expect("a bug has an example");
        let (smallest_report, smallest) = outcomes[smallest_at]
            .1
            .as_ref()
            .map(|(text, row)| (text.clone(), row))
            .expect("an example reproduced");
        let recorded = record(smallest.clone());
        let examples_file = keep_examples(dir, signature, &rows);
        for &i in examples {
            bug_of[i] = Some(b);
        }
        report.bugs.push(TriagedBug {
            signature: signature.clone(),
            examples: examples.len(),
            row: smallest.clone(),
            report: smallest_report,
            recorded,
            examples_file,
        });
    }
    for (i, (artifact, outcome)) in outcomes.into_iter().enumerate() {
        let fate = match outcome {
            Ok((text, row)) => {
                let bug = &report.bugs[bug_of[i].expect("every reproduction has its bug")];
                Fate::Reproduced {
                    report: text,
                    signature: row.signature,
                    recorded: bug.recorded.clone(),
                }
            }
            Err(Miss::NotReproduced(why)) => Fate::NotReproduced(why),
            Err(Miss::Failed(why)) => Fate::Failed(why),
        };
        let settled = match &fate {
            Fate::Reproduced { recorded, .. } => {
                report.reproduced += 1;
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
    for bug in &report.bugs {
        match bug.recorded {
            Recorded::Appended { .. } => report.appended += 1,
            Recorded::AlreadyPresent { .. } => report.already_present += 1,
            Recorded::Unsaved { .. } => report.unsaved += 1,
        }
    }
    Ok(report)
}

/// The bugs of a target's outcomes, in the order first met: each
/// signature with the indexes of its examples.
fn group_by_signature(outcomes: &[(PathBuf, Outcome)]) -> Vec<(String, Vec<usize>)> {
    let mut bugs: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (_, outcome)) in outcomes.iter().enumerate() {
        if let Ok((_, row)) = outcome {
            match bugs.iter_mut().find(|(s, _)| *s == row.signature) {
                Some((_, examples)) => examples.push(i),
                None => bugs.push((row.signature.clone(), vec![i])),
            }
        }
    }
    bugs
}

/// Every artifact of `dir` checked and shrunk, in order, counted in
/// `report`. A signal ends this after the artifact in hand (whose shrink it
/// cut short, keeping the smallest failing case so far): the rest are
/// counted as left, and stay where they are for the next triage.
fn reproduce_each(
    dir: &Path,
    reproduce: &Reproduce,
    limit: Duration,
    report: &mut TargetReport,
) -> std::io::Result<Vec<(PathBuf, Outcome)>> {
    let mut outcomes = Vec::new();
    for artifact in artifacts_in(dir)? {
        if lockstep_stop::interrupted() {
            report.left += 1;
            continue;
        }
        report.artifacts += 1;
        let outcome = match fs::read(&artifact) {
            Err(e) => Err(Miss::Failed(format!("reading it: {e}"))),
            Ok(bytes) => reproduce_in_time(reproduce, bytes, limit),
        };
        outcomes.push((artifact, outcome));
    }
    Ok(outcomes)
}

/// What checking one artifact gave: its report and row, or why not.
type Outcome = Result<(String, Row), Miss>;

/// An artifact that gave no disagreement: the two fates that are not
/// [`Fate::Reproduced`], before the bugs are grouped.
#[derive(Debug)]
enum Miss {
    NotReproduced(NotReproduced),
    Failed(String),
}

/// Runs `reproduce` on one artifact's bytes on a thread of its own, so that
/// one that hangs the core cannot stall the rest (if it does, it is left
/// running and dies with the process).
fn reproduce_in_time(
    reproduce: &Reproduce,
    bytes: Vec<u8>,
    limit: Duration,
) -> Result<(String, Row), Miss> {
    let (tx, rx) = mpsc::channel();
    let reproduce = Arc::clone(reproduce);
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reproduce(&bytes)));
        let _ = tx.send(result);
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(Ok(found))) => Ok(found),
        Ok(Ok(Err(why))) => Err(Miss::NotReproduced(why)),
        Ok(Err(_)) => Err(Miss::Failed("checking it panicked".to_string())),
        Err(_) => Err(Miss::Failed(format!(
            "checking it did not finish in {} s (a hang in a solver?)",
            limit.as_secs_f64()
        ))),
    }
}

/// Every example's row of one bug, in a corpus-format file beside the
/// artifacts: `<dir>/by-signature/<signature>.csv`, written whole.
fn keep_examples(dir: &Path, signature: &str, rows: &[&Row]) -> Result<PathBuf, String> {
    let slug: String = signature
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let folder = dir.join("by-signature");
    let path = folder.join(format!("{slug}.csv"));
    // An earlier triage's examples stay: the file grows by the new inputs.
    // One that does not read as rows is left alone, and this night's
    // examples are said to be not written (the corpus row is kept anyway).
    let mut kept: Vec<Row> = match fs::read(&path) {
        Ok(bytes) => csv::Reader::from_reader(bytes.as_slice())
            .deserialize()
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{}: {e} (left as it is)", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("reading {}: {e}", path.display())),
    };
    for row in rows {
        if kept.iter().any(|k| k.input == row.input) {
            continue;
        }
        // Names unique in the file, as in a corpus.
        let mut row = (*row).clone();
        row.name = crate::corpus::unused_name(&row.name, |n| kept.iter().any(|k| k.name == n));
        kept.push(row);
    }
    let mut text = crate::corpus::COLUMNS.join(",") + "\n";
    for row in &kept {
        text.push_str(&crate::corpus::row_to_csv(row));
    }
    fs::create_dir_all(&folder)
        .map_err(|e| format!("creating {}: {e}", folder.display()))
        .and_then(|()| {
            crate::corpus::write_whole(&path, text.as_bytes()).map_err(|e| format!("{e:#}"))
        })
        .map(|()| path)
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
            "{:<14} {:>9} {:>10} {:>5} {:>8} {:>8} {:>8} {:>14} {:>7}",
            "target",
            "artifacts",
            "reproduced",
            "bugs",
            "appended",
            "present",
            "unsaved",
            "not reproduced",
            "failed"
        )?;
        for r in self.0 {
            writeln!(
                f,
                "{:<14} {:>9} {:>10} {:>5} {:>8} {:>8} {:>8} {:>14} {:>7}",
                r.target,
                r.artifacts,
                r.reproduced,
                r.bugs.len(),
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
