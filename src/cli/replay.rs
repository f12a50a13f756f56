//! `lockstep replay`: every corpus row through core and reference, every
//! failure listed, then one verdict (exit 1 when any row fails, 2 when any
//! row or file does not load: every other row is still replayed, and the
//! JUnit report, where such a row is an error, still written). For CI: a
//! JSON document (`--format json`), a JUnit report with each row a test case
//! (`--junit FILE`), and under GitHub Actions an `::error` annotation on the
//! file and line of each failing row.

use super::common::pick;
use super::findings::{annotate, corpus_dir};
use super::output::{check_can_write, print_document, OutputFormat};
use super::values::puzzle_names;
use super::Exit;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ReplayArgs {
    /// Puzzles to replay (default: all).
    #[arg(value_parser = puzzle_names())]
    puzzles: Vec<String>,
    /// Corpus directory to replay (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// The report on stdout: tables, or one JSON document (its schema:
    /// docs/guide/src/reference/json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Also write a JUnit XML report here: a test suite per puzzle, a test
    /// case per row (written whole, or not at all).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
}

pub(super) fn replay(args: ReplayArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    let dir = &corpus_dir(args.corpus)?;
    if let Some(file) = &args.junit {
        check_can_write(file, "--junit")?;
    }
    let mut failed = 0;
    let mut total = 0;
    let mut errors = 0;
    let mut reports = Vec::new();
    for entry in &entries {
        let path = entry.corpus_path(dir);
        // A file that cannot be read at all is one error row: the other
        // puzzles are still replayed, and the JUnit report still written.
        let report = entry.replay(dir).unwrap_or_else(|e| unreadable(&e));
        for failure in &report.failures {
            annotate(
                &path,
                &Some(failure.line),
                &format!("corpus row {} fails: {}", failure.name, failure.problem),
            );
        }
        failed += report.failures.len();
        errors += report.errors;
        total += report.rows;
        reports.push((entry.name(), path, report));
    }
    if let Some(file) = &args.junit {
        let xml = junit(&reports).context("writing the JUnit report")?;
        lockstep_harness::corpus::write_whole(file, xml.as_bytes())
            .with_context(|| format!("--junit {}", file.display()))?;
    }
    let outcome = ReplayedCorpus {
        corpus: dir.display().to_string(),
        passed: total - failed,
        failed,
        errors,
        puzzles: reports
            .iter()
            .map(|(name, path, r)| ReplayedFile {
                puzzle: name,
                file: path.display().to_string(),
                rows: r.rows,
                failed: r.failures.len(),
                errors: r.errors,
                core_only: r.timeouts,
                results: &r.results,
                shown: lockstep_harness::replay::Shown {
                    puzzle: name,
                    path,
                    report: r,
                },
            })
            .collect(),
    };
    match args.format {
        OutputFormat::Text => out!("{outcome}"),
        OutputFormat::Json => print_document("replay", &outcome),
    }
    if errors > 0 {
        // Everything was replayed and reported; the corpus itself is broken.
        let places: Vec<String> = reports
            .iter()
            .flat_map(|(_, path, r)| {
                r.results
                    .iter()
                    .filter(|row| row.outcome == "error")
                    .map(move |row| format!("{}:{}", path.display(), row.line))
            })
            .collect();
        errln!(
            "error: {} of the corpus {} not load ({}): every other row was replayed",
            lockstep_text::counted(errors as u64, "row"),
            if errors == 1 { "does" } else { "do" },
            places.join(", ")
        );
        return Ok(Exit::Error);
    }
    Ok(Exit::found_if(failed > 0))
}

/// A file that cannot be read at all, as a replay of one error row.
fn unreadable(e: &anyhow::Error) -> lockstep_harness::replay::ReplayOutcome {
    let problem = format!("{e:#}");
    lockstep_harness::replay::ReplayOutcome {
        rows: 1,
        errors: 1,
        failures: vec![lockstep_harness::replay::RowFailure {
            line: 1,
            name: "file".to_string(),
            problem: format!("the file does not load: {problem}"),
        }],
        timeouts: 0,
        results: vec![lockstep_harness::replay::RowResult {
            name: "file".to_string(),
            line: 1,
            seconds: 0.0,
            outcome: "error",
            problem: Some(problem),
        }],
    }
}

/// The JUnit XML of a replay: a suite per puzzle, a case per row (named by
/// the row, classed by its file), a failure with its problem and line.
fn junit(
    reports: &[(
        &'static str,
        PathBuf,
        lockstep_harness::replay::ReplayOutcome,
    )],
) -> Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("lockstep replay");
    for (puzzle, path, replayed) in reports {
        let mut suite = TestSuite::new(*puzzle);
        for row in &replayed.results {
            let status = match &row.problem {
                None => TestCaseStatus::success(),
                Some(problem) => {
                    let kind = match row.outcome {
                        "error" => NonSuccessKind::Error,
                        _ => NonSuccessKind::Failure,
                    };
                    let mut status = TestCaseStatus::non_success(kind);
                    status.set_message(format!("{}:{}", path.display(), row.line));
                    status.set_description(problem.clone());
                    status
                }
            };
            let mut case = TestCase::new(row.name.clone(), status);
            case.set_classname(path.display().to_string());
            case.set_time(std::time::Duration::from_secs_f64(row.seconds));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    Ok(report.to_string()?)
}

/// `lockstep replay`'s outcome: its JSON document is this value, and its
/// text this value's `Display` (each file's failures, then the counts).
#[derive(serde::Serialize)]
struct ReplayedCorpus<'a> {
    corpus: String,
    passed: usize,
    failed: usize,
    errors: usize,
    puzzles: Vec<ReplayedFile<'a>>,
}

/// One corpus file replayed, as the document says it.
#[derive(serde::Serialize)]
struct ReplayedFile<'a> {
    puzzle: &'static str,
    file: String,
    rows: usize,
    failed: usize,
    errors: usize,
    /// Rows whose reference ran out of fuel: only the core was compared.
    core_only: usize,
    results: &'a [lockstep_harness::replay::RowResult],
    /// The file's report for a person.
    #[serde(skip)]
    shown: lockstep_harness::replay::Shown<'a>,
}

impl std::fmt::Display for ReplayedCorpus<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for file in &self.puzzles {
            write!(f, "{}", file.shown)?;
        }
        let (passed, failed, errors) = (self.passed, self.failed, self.errors);
        write!(f, "replay: {passed} passed, {failed} failed")?;
        if errors > 0 {
            let verb = if errors == 1 { "does" } else { "do" };
            write!(f, " ({errors} of them {verb} not load)")?;
        }
        writeln!(f)
    }
}
