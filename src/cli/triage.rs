//! `lockstep triage`: a night's cargo-fuzz artifacts turned into shrunk corpus
//! rows, and `--check`, the overnight script's check that the corpus can take
//! them.

use super::common::pick;
use super::findings::{annotate, announce_corpus, corpus_dir, name_line};
use super::output::{print_document, OutputFormat};
use super::values::{at_least_one, puzzle_names};
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_harness::corpus;
use lockstep_harness::decode::Encoding;
use lockstep_harness::puzzle::CaseLimits;
use lockstep_harness::triage::{triage_target, Reproduce, Table, TargetReport};
use lockstep_registry::AnyPuzzle;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub(super) struct TriageArgs {
    /// The cargo-fuzz artifacts directory, one folder per target; one named
    /// here must exist [default: fuzz/artifacts, where a missing one means a
    /// night that found nothing].
    artifacts: Option<PathBuf>,
    /// Only these targets (default: every puzzle's folder that exists).
    #[arg(long = "target", value_parser = puzzle_names())]
    targets: Vec<String>,
    /// Corpus directory the rows are appended to (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Only check that the corpus loads and takes new rows, then exit 0 (or 2):
    /// the overnight script runs this before a night of fuzzing.
    #[arg(long)]
    check: bool,
    /// Seconds one artifact may take to check and shrink; past that it is
    /// reported as hanging and kept for the next triage.
    #[arg(long, default_value_t = 300, value_parser = at_least_one)]
    artifact_seconds: u64,
    /// The report on stdout: tables, or one JSON document (its schema:
    /// docs/guide/src/reference/json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// With --format json: the night's libFuzzer logs, DIR/<target>.log (as
    /// scripts/fuzz-overnight keeps them), read into each target's `series`
    /// for `lockstep report`'s plots. A target without a log has none.
    #[arg(long, value_name = "DIR")]
    fuzzer_logs: Option<PathBuf>,
}

pub(super) fn triage(args: TriageArgs) -> Result<Exit> {
    // Triage decodes fuzzer bytes under LOCKSTEP_LIMITS, as the targets
    // generated them: a bad value would make every artifact "not reproduced"
    // (and settled), so it stops before anything is read.
    if let Err(message) = CaseLimits::from_env() {
        bail!("{message}");
    }
    let dir = corpus_dir(args.corpus)?;
    let entries = pick(&args.targets)?;
    if args.check {
        return check_corpus(&entries, &dir);
    }
    // A directory named on the command line must exist: a typo is an
    // error, not a clean night. The default one may be missing.
    let artifacts = match args.artifacts {
        Some(dir) if !dir.is_dir() => bail!(
            "{}: no such artifacts directory (the default is fuzz/artifacts)",
            dir.display()
        ),
        Some(dir) => dir,
        None => PathBuf::from("fuzz/artifacts"),
    };
    triage_artifacts(
        &entries,
        !args.targets.is_empty(),
        &artifacts,
        &dir,
        std::time::Duration::from_secs(args.artifact_seconds.max(1)),
        args.format,
        args.fuzzer_logs.as_deref(),
    )
}

/// `lockstep triage --check`: every puzzle's corpus file loads and takes rows.
fn check_corpus(entries: &[&dyn AnyPuzzle], dir: &Path) -> Result<Exit> {
    for entry in entries {
        let rows = entry
            .load(dir, true)
            .with_context(|| format!("the corpus cannot take findings for {}", entry.name()))?;
        errln!(
            "{}: {}, writable",
            entry.corpus_path(dir).display(),
            lockstep_text::counted(rows as u64, "row")
        );
    }
    Ok(Exit::Clean)
}

/// `lockstep triage`: every artifact of every target folder under `artifacts`
/// checked, shrunk and recorded. `named` says the targets were named by the
/// user: each then has its line in the table, with zeros when it has no folder.
fn triage_artifacts(
    entries: &[&'static dyn AnyPuzzle],
    named: bool,
    artifacts: &Path,
    dir: &Path,
    limit: std::time::Duration,
    format: OutputFormat,
    fuzzer_logs: Option<&Path>,
) -> Result<Exit> {
    if !artifacts.is_dir() && !named {
        errln!(
            "{}: no artifacts directory, nothing to triage",
            artifacts.display()
        );
        if format == OutputFormat::Json {
            print_document("triage", &TriageOutcome::default());
        }
        return Ok(Exit::Clean);
    }
    announce_corpus(Some(dir));
    let mut reports = Vec::new();
    for &entry in entries {
        // cargo-fuzz names a target's folder after the fuzz target (the module).
        let folder = [entry.module(), entry.name()]
            .iter()
            .map(|name| artifacts.join(name))
            .find(|path| path.is_dir());
        match folder {
            Some(folder) => reports.push(triage_one(entry, &folder, dir, limit, format)?),
            // A named target with no folder found nothing: it is listed with
            // zeros; an unnamed one is left out.
            None if named => reports.push(TargetReport {
                target: entry.module().to_string(),
                ..Default::default()
            }),
            None => {}
        }
    }
    match format {
        OutputFormat::Text => print_table(&reports),
        OutputFormat::Json => print_document(
            "triage",
            &TriageOutcome {
                corpus: Some(dir.display().to_string()),
                targets: reports
                    .iter()
                    .map(|r| TriagedTarget::of(r, fuzzer_series(fuzzer_logs, &r.target)))
                    .collect(),
            },
        ),
    }
    let bugs: usize = reports.iter().map(|r| r.bugs.len()).sum();
    let artifacts_reproduced: usize = reports.iter().map(|r| r.reproduced).sum();
    let (appended, present, unsaved) = reports.iter().fold((0, 0, 0), |(a, p, u), r| {
        (a + r.appended, p + r.already_present, u + r.unsaved)
    });
    // The one line a script can quote: bugs, not artifacts, and where the
    // rows truly went.
    errln!(
        "triage: {} from {} reproduced artifact{}: {appended} row{} appended to {}, {present} already there, {unsaved} only in fallback files",
        lockstep_text::counted(bugs as u64, "bug"),
        artifacts_reproduced,
        if artifacts_reproduced == 1 { "" } else { "s" },
        if appended == 1 { "" } else { "s" },
        dir.display()
    );
    if unsaved > 0 {
        errln!(
            "triage: {unsaved} bug row(s) could not be appended to the corpus (see above); their artifacts stay for the next triage"
        );
    }
    let left: usize = reports.iter().map(|r| r.left).sum();
    if let Some(signal) = lockstep_stop::stopped_by() {
        errln!(
            "triage: stopped by signal {signal}: the artifact in hand was recorded as far as it had shrunk; {} not looked at stay for the next triage",
            lockstep_text::counted(left as u64, "artifact")
        );
    }
    Ok(Exit::found_if(reports.iter().any(|r| r.found())))
}

/// One target's folder of artifacts triaged: each reproduced, shrunk and its
/// row recorded in the corpus under `dir` (the rows printed too, as text).
fn triage_one(
    entry: &'static dyn AnyPuzzle,
    folder: &Path,
    dir: &Path,
    limit: std::time::Duration,
    format: OutputFormat,
) -> Result<TargetReport> {
    let reproduce: Reproduce = std::sync::Arc::new(move |bytes: &[u8]| {
        entry
            .shrink(
                bytes,
                Encoding::Bytes,
                "cargo-fuzz artifact, by lockstep triage",
            )
            .map(|summary| (summary.report, summary.row))
    });
    let record = |row: corpus::Row| {
        if format == OutputFormat::Text {
            outln!("{}", corpus::row_to_csv(&row).trim_end());
        }
        let recorded = entry.record(dir, row.clone());
        if let corpus::Recorded::Appended { path, name } = &recorded {
            annotate(
                path,
                &name_line(entry, path, name),
                &format!("new corpus row {name}: {}", row.note),
            );
        }
        recorded
    };
    let report = triage_target(entry.module(), folder, &reproduce, &record, limit)
        .with_context(|| format!("triaging {}", folder.display()))?;
    for item in &report.items {
        errln!("{item}");
    }
    for bug in &report.bugs {
        errln!(
            "\n== bug {} ({}), its smallest example:\n{}\nits row: {}",
            bug.signature,
            lockstep_text::counted(bug.examples as u64, "artifact"),
            bug.report,
            bug.recorded
        );
    }
    Ok(report)
}

/// The text report: the table of targets, then each bug's line.
fn print_table(reports: &[TargetReport]) {
    out!("{}", Table(reports));
    for report in reports {
        for bug in &report.bugs {
            outln!(
                "{}: bug {} ({}): {}; every example's row in {}",
                report.target,
                bug.signature,
                lockstep_text::counted(bug.examples as u64, "artifact"),
                bug.recorded,
                match &bug.examples_file {
                    Ok(path) => path.display().to_string(),
                    Err(why) => format!("(not written: {why})"),
                }
            );
        }
    }
}

/// `lockstep triage --format json`'s document.
#[derive(Serialize, Default)]
struct TriageOutcome {
    /// The corpus the rows went to (absent when there was nothing to triage).
    #[serde(skip_serializing_if = "Option::is_none")]
    corpus: Option<String>,
    targets: Vec<TriagedTarget>,
}

/// One target of the night, as the JSON says it.
#[derive(Serialize)]
struct TriagedTarget {
    target: String,
    artifacts: usize,
    reproduced: usize,
    not_reproduced: usize,
    failed: usize,
    /// The target's libFuzzer status lines, for the report's plots.
    series: Vec<crate::report::FuzzerSample>,
    bugs: Vec<BugOfTheNight>,
}

/// One bug among a target's artifacts, as the JSON says it.
#[derive(Serialize)]
struct BugOfTheNight {
    report: String,
    signature: String,
    examples: usize,
    row: corpus::Row,
    recorded: String,
    in_corpus: bool,
    examples_file: Option<String>,
}

impl TriagedTarget {
    fn of(r: &TargetReport, series: Vec<crate::report::FuzzerSample>) -> TriagedTarget {
        TriagedTarget {
            target: r.target.clone(),
            artifacts: r.artifacts,
            reproduced: r.reproduced,
            not_reproduced: r.not_reproduced,
            failed: r.failed,
            series,
            bugs: r
                .bugs
                .iter()
                .map(|b| BugOfTheNight {
                    report: b.report.clone(),
                    signature: b.signature.clone(),
                    examples: b.examples,
                    row: b.row.clone(),
                    recorded: b.recorded.to_string(),
                    in_corpus: b.recorded.in_corpus(),
                    examples_file: b
                        .examples_file
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .ok(),
                })
                .collect(),
        }
    }
}

/// A target's libFuzzer log, read as samples; none without a log.
fn fuzzer_series(logs: Option<&Path>, target: &str) -> Vec<crate::report::FuzzerSample> {
    let Some(dir) = logs else {
        return Vec::new();
    };
    let path = dir.join(format!("{target}.log"));
    match std::fs::read(&path) {
        Ok(bytes) => crate::report::libfuzzer_series(&String::from_utf8_lossy(&bytes)),
        Err(e) => {
            if e.kind() != std::io::ErrorKind::NotFound {
                errln!(
                    "triage: {}: {e}; the report has no plot of it",
                    path.display()
                );
            }
            Vec::new()
        }
    }
}
