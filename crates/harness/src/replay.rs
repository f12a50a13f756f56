//! Replaying the corpus: every row through the core and the reference.
//!
//! A row passes when both solvers print its `expected` answer (as a judge compares)
//! and their traces agree. Every failing row is collected with its line and what went
//! wrong, so a run reports all of them at once.

use crate::corpus::{self, Loaded};
use crate::puzzle::{run_both, Attempt, Puzzle, Solver};
use anyhow::Result;
use lockstep_core::Model;
use std::path::Path;

/// A corpus row that did not pass.
#[derive(Debug, Clone)]
pub struct RowFailure {
    pub line: u64,
    pub name: String,
    pub problem: String,
}

#[derive(Debug, Clone, Default)]
pub struct ReplayOutcome {
    pub rows: usize,
    /// Every row that did not pass, those that do not load among them.
    pub failures: Vec<RowFailure>,
    /// Of the failures: rows that do not load.
    pub errors: usize,
    /// Rows whose reference ran out of fuel: only the core was compared.
    pub timeouts: usize,
    /// Every row in file order: its name, line, time, and how it went (a
    /// JUnit test case each).
    pub results: Vec<RowResult>,
}

/// One row's replay.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RowResult {
    pub name: String,
    pub line: u64,
    pub seconds: f64,
    /// `pass`, `fail`, `core-only` (the reference ran out of fuel), or
    /// `error` (the row does not load: not CSV, a bad name, an input the
    /// parser refuses).
    pub outcome: &'static str,
    /// What went wrong, for a failing row.
    pub problem: Option<String>,
}

/// A puzzle's replay as `lockstep replay` prints it: each failing row with its
/// file and line, then the puzzle's line of counts.
pub struct Shown<'a> {
    pub puzzle: &'a str,
    pub path: &'a Path,
    pub report: &'a ReplayOutcome,
}

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.report;
        for failure in &r.failures {
            writeln!(
                f,
                "FAIL {}:{} {}\n{}\n",
                self.path.display(),
                failure.line,
                failure.name,
                failure.problem
            )?;
        }
        write!(
            f,
            "{}: {}, {} passed, {} failed",
            self.puzzle,
            lockstep_text::counted(r.rows as u64, "row"),
            r.rows - r.failures.len(),
            r.failures.len()
        )?;
        if r.timeouts > 0 {
            write!(
                f,
                ", {} with the reference out of fuel (core only)",
                r.timeouts
            )?;
        }
        writeln!(f)
    }
}

/// Corpus rows are few, so the reference gets ten times its campaign budget.
pub const REPLAY_FUEL_FACTOR: u64 = 10;

/// Replays one loaded row: `Ok(true)` when it passed with the reference timed out.
pub fn replay_row<P: Puzzle>(loaded: &Loaded<P::Case>) -> Result<bool, String> {
    replay_row_with::<P>(loaded, P::Case::solve)
}

/// [`replay_row`] against `core` (a deliberately broken one in tests).
pub fn replay_row_with<P: Puzzle>(
    loaded: &Loaded<P::Case>,
    core: Solver<P>,
) -> Result<bool, String> {
    let expected = corpus::decode_for::<P>(&loaded.row.expected);
    let outcome = run_both::<P>(
        &loaded.case,
        core,
        P::FUEL.saturating_mul(REPLAY_FUEL_FACTOR),
    );
    let mut problems = Vec::new();
    // The printer is shared by both sides, so no disagreement can show its
    // bugs: each row's case must print to a text that reads back as itself.
    if let Some(problem) = round_trip_problem::<P>(&loaded.case) {
        problems.push(problem);
    }
    let mut judge = |who: &str, side: &Attempt<P::Answer>| match side {
        Attempt::Ran(run) => {
            let text = P::Case::write_answer(&run.answer);
            if !lockstep_text::same_output(&text, &expected) {
                problems.push(format!(
                    "{who} does not print the expected answer: {}",
                    lockstep_text::first_difference(who, &text, "expected", &expected)
                ));
            }
        }
        Attempt::Panicked(message) => problems.push(format!("{who} panicked: {message}")),
        Attempt::OutOfFuel => {}
    };
    judge("core", &outcome.core);
    if let Some(reference) = &outcome.reference {
        judge("reference", reference);
    }
    let timed_out = outcome.reference.is_none();
    if outcome.into_agreement().is_divergence() {
        if problems.is_empty() {
            problems.push("both print the expected answer, but their traces differ".to_string());
        }
        problems.push(crate::puzzle::explain_safely::<P>(&loaded.case).report);
    }
    if problems.is_empty() {
        Ok(timed_out)
    } else {
        Err(problems.join("\n"))
    }
}

/// Why `case` does not survive the judge-format round trip (printed by
/// `write_input`, read back by `parse`), if it does not.
fn round_trip_problem<P: Puzzle>(case: &P::Case) -> Option<String> {
    let printed = case.write_input();
    match P::Case::parse(&printed) {
        Ok(read) if read == *case => None,
        Ok(_) => Some(format!(
            "the case's judge input reads back as another case:\n{}",
            lockstep_text::indent(&lockstep_text::clip(&printed, 2000))
        )),
        Err(e) => Some(format!(
            "the case's judge input does not read back ({e}):\n{}",
            lockstep_text::indent(&lockstep_text::clip(&printed, 2000))
        )),
    }
}

/// Replays a puzzle's corpus file; a missing file is an error naming it.
pub fn replay<P: Puzzle>(path: &Path) -> Result<ReplayOutcome> {
    replay_with::<P>(path, P::Case::solve)
}

/// [`replay`] against `core` (a deliberately broken one in tests). Every
/// row is replayed: one that does not load is an error row in its place.
pub fn replay_with<P: Puzzle>(path: &Path, core: Solver<P>) -> Result<ReplayOutcome> {
    let rows = corpus::load_each::<P>(path)?;
    let mut report = ReplayOutcome {
        rows: rows.len(),
        ..ReplayOutcome::default()
    };
    for loaded in &rows {
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(bad) => {
                let name = bad
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("line-{}", bad.line));
                report.errors += 1;
                report.results.push(RowResult {
                    name: name.clone(),
                    line: bad.line,
                    seconds: 0.0,
                    outcome: "error",
                    problem: Some(bad.message.clone()),
                });
                report.failures.push(RowFailure {
                    line: bad.line,
                    name,
                    problem: format!("the row does not load: {}", bad.message),
                });
                continue;
            }
        };
        let start = std::time::Instant::now();
        // Printing and reading the case again runs shared code outside the
        // solvers' own catch: a panic there fails the row, not the replay.
        let result = crate::puzzle::run_caught(|| replay_row_with::<P>(loaded, core))
            .unwrap_or_else(|panic| Err(format!("lockstep panicked replaying the row: {panic}")));
        let seconds = start.elapsed().as_secs_f64();
        let (outcome, problem) = match &result {
            Ok(false) => ("pass", None),
            Ok(true) => ("core-only", None),
            Err(problem) => ("fail", Some(problem.clone())),
        };
        report.results.push(RowResult {
            name: loaded.row.name.clone(),
            line: loaded.line,
            seconds,
            outcome,
            problem,
        });
        match result {
            Ok(timed_out) => report.timeouts += usize::from(timed_out),
            Err(problem) => report.failures.push(RowFailure {
                line: loaded.line,
                name: loaded.row.name.clone(),
                problem,
            }),
        }
    }
    Ok(report)
}

/// Replays the rows of `P`'s corpus file under `dir` whose names `keep`
/// accepts, reading the file once: each name with what [`replay`] would
/// report of it (its line and problem).
pub fn replay_selected<P: Puzzle>(
    dir: &Path,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Vec<(String, Result<(), String>)>> {
    let rows = crate::corpus::load::<P>(&crate::corpus::path_for::<P>(dir))?;
    Ok(rows
        .iter()
        .filter(|loaded| keep(&loaded.row.name))
        .map(|loaded| {
            let result = replay_row::<P>(loaded)
                .map(|_timed_out| ())
                .map_err(|problem| format!("line {}: {problem}", loaded.line));
            (loaded.row.name.clone(), result)
        })
        .collect())
}

/// One puzzle's corpus file with its types erased: what code that goes over
/// every puzzle's file needs (the row tests, `cargo test`'s replay).
pub struct CorpusFile {
    pub module: &'static str,
    /// The file under a corpus directory.
    pub path: fn(&Path) -> std::path::PathBuf,
    /// Its rows' names, in file order.
    pub names: fn(&Path) -> Result<Vec<String>>,
    /// [`replay`] of the file under a corpus directory.
    pub replay: fn(&Path) -> Result<ReplayOutcome>,
    /// [`replay_selected`].
    pub replay_selected: ReplaySelected,
}

/// [`replay_selected`] with the puzzle's type erased.
pub type ReplaySelected =
    fn(&Path, &dyn Fn(&str) -> bool) -> Result<Vec<(String, Result<(), String>)>>;

impl CorpusFile {
    fn of<P: Puzzle>() -> CorpusFile {
        CorpusFile {
            module: P::MODULE,
            path: crate::corpus::path_for::<P>,
            names: |dir| {
                let rows = crate::corpus::load::<P>(&crate::corpus::path_for::<P>(dir))?;
                Ok(rows.into_iter().map(|loaded| loaded.row.name).collect())
            },
            replay: |dir| replay::<P>(&crate::corpus::path_for::<P>(dir)),
            replay_selected: replay_selected::<P>,
        }
    }
}

/// Every puzzle's corpus file, in the list's order.
pub fn every_file() -> Vec<CorpusFile> {
    crate::each_puzzle!(corpus_file()).into()
}

fn corpus_file<P: Puzzle>() -> CorpusFile {
    CorpusFile::of::<P>()
}

#[cfg(test)]
mod tests;
