//! `lockstep triage`: a night's cargo-fuzz artifacts turned into shrunk corpus
//! rows, and `--check`, the overnight script's check that the corpus can take
//! them.

use super::common::{announce_corpus, corpus_dir, pick};
use super::values::{at_least_one, puzzle_names};
use super::Exit;
use crate::corpus;
use crate::puzzle::{CaseLimits, Encoding};
use crate::registry::AnyPuzzle;
use anyhow::{bail, Context, Result};
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
            crate::text::counted(rows as u64, "row")
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
) -> Result<Exit> {
    use crate::triage::{triage_target, Reproduce, Table};
    if !artifacts.is_dir() && !named {
        errln!(
            "{}: no artifacts directory, nothing to triage",
            artifacts.display()
        );
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
        let Some(folder) = folder else {
            // A named target with no folder found nothing: it is listed with
            // zeros; an unnamed one is left out.
            if named {
                reports.push(crate::triage::TargetReport {
                    target: entry.module().to_string(),
                    ..Default::default()
                });
            }
            continue;
        };
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
            outln!("{}", corpus::row_to_csv(&row).trim_end());
            entry.record(dir, row)
        };
        let report = triage_target(entry.module(), &folder, &reproduce, &record, limit)
            .with_context(|| format!("triaging {}", folder.display()))?;
        for item in &report.items {
            errln!("{item}");
        }
        reports.push(report);
    }
    out!("{}", Table(&reports));
    let unsaved: usize = reports.iter().map(|r| r.unsaved).sum();
    if unsaved > 0 {
        errln!(
            "triage: {unsaved} row(s) could not be appended to the corpus (see above); their artifacts stay for the next triage"
        );
    }
    Ok(Exit::found_if(reports.iter().any(|r| r.found())))
}
