//! Where a run's findings go: the corpus directory, each puzzle's file
//! checked before the run, a finding recorded (or printed), and the
//! annotations CI shows beside a corpus row.

use super::output::OutputFormat;
use anyhow::{bail, Context, Result};
use lockstep_harness::corpus;
use lockstep_registry::AnyPuzzle;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The corpus directory: `--corpus DIR`, which must exist (lockstep never creates
/// one, so a typo is an error rather than a new directory), or `./corpus` of the
/// current directory. Never the source tree lockstep was built from: rows go
/// where the user runs it or says.
///
/// This is why `--corpus` is an `Option` with its default written in its
/// help rather than a clap default: a named directory and the default one
/// differ in what happens when they are missing.
pub(super) fn corpus_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    match given {
        Some(dir) if dir.exists() && !dir.is_dir() => bail!(
            "--corpus {}: a file, not a directory (the corpus is a directory of <puzzle>.csv files)",
            dir.display()
        ),
        Some(dir) if !dir.is_dir() => bail!(
            "--corpus {}: no such directory (lockstep does not create one; make it first)",
            dir.display()
        ),
        Some(dir) => Ok(dir),
        None => Ok(PathBuf::from("corpus")),
    }
}

/// Where a run's findings go (`fuzz`, `verify`): the corpus they are
/// appended to, or none.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct FindingsArgs {
    /// Corpus directory that findings are appended to (must exist)
    /// [default: ./corpus].
    #[arg(long, value_name = "DIR", help_heading = "Findings")]
    corpus: Option<PathBuf>,
    /// Report findings without appending them to the corpus (not with
    /// --corpus, which it would ignore).
    #[arg(long, help_heading = "Findings", conflicts_with = "corpus")]
    no_append: bool,
}

impl FindingsArgs {
    /// The corpus directory findings go to; `None` with `--no-append`.
    pub(super) fn dir(self) -> Result<Option<PathBuf>> {
        match self.no_append {
            true => Ok(None),
            false => corpus_dir(self.corpus).map(Some),
        }
    }
}

/// Checks, before a run starts, that each puzzle's corpus file under `dir`
/// loads and can take a row: a broken or read-only file is found now, not
/// after a night's work (a finding would still go to a fallback file then,
/// but the corpus the user asked for would miss it). A directory that does
/// not exist is no error here ([`announce_corpus`] says where findings go).
pub(super) fn check_corpus_first(entries: &[&dyn AnyPuzzle], dir: Option<&Path>) -> Result<()> {
    let Some(dir) = dir.filter(|d| d.is_dir()) else {
        return Ok(());
    };
    for entry in entries {
        entry.load(dir, true).with_context(|| {
            format!(
                "the corpus cannot take findings for {} (repair it, or pass --corpus DIR or --no-append)",
                entry.name()
            )
        })?;
    }
    Ok(())
}

/// Says before a run starts where its findings would go when that is not
/// the corpus the user expects: printed only, or a fallback file. A corpus
/// that can take them says nothing now: each finding appended says where
/// it went ([`record_finding`]), so "appended" is never printed for a run
/// that found nothing.
pub(super) fn announce_corpus(dir: Option<&Path>) {
    match dir {
        None => errln!("findings: printed only (--no-append)"),
        Some(dir) if dir.is_dir() => {}
        Some(dir) => errln!(
            "findings: {} does not exist, so a finding is saved to a file under {} instead (mkdir {} or pass --corpus DIR to keep findings in a corpus)",
            dir.display(),
            corpus::fallback_dir().display(),
            dir.display()
        ),
    }
}

/// Records a finding's row (in the corpus, or a fallback file when that fails)
/// and prints the row, ready to paste, and where it went (the row on stdout
/// only in text output: JSON output holds it). Never fails: a finding that
/// cannot be written anywhere is still printed in full.
pub(super) fn record_finding(
    entry: &dyn AnyPuzzle,
    dir: Option<&Path>,
    row: &corpus::Row,
    format: OutputFormat,
) -> Option<corpus::Recorded> {
    let recorded = dir.map(|dir| entry.record(dir, row.clone()));
    match format {
        OutputFormat::Text => outln!("{}", corpus::row_to_csv(row).trim_end()),
        OutputFormat::Json => errln!("{}", corpus::row_to_csv(row).trim_end()),
    }
    if let Some(recorded) = &recorded {
        errln!("{recorded}");
        if let corpus::Recorded::Appended { path, name } = recorded {
            annotate(
                path,
                &name_line(entry, path, name),
                &format!("new corpus row {name}: {}", row.note),
            );
        }
    }
    recorded
}

/// The line of the row named `name` in a corpus file, for an annotation.
pub(super) fn name_line(entry: &dyn AnyPuzzle, path: &Path, name: &str) -> Option<u64> {
    let dir = path.parent()?;
    entry
        .row_lines(dir)
        .ok()?
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, line)| line)
}

/// Under GitHub Actions (`GITHUB_ACTIONS=true`), an `::error` annotation on
/// stderr that points at a corpus file and line, so that the run's page
/// shows the failing row in place.
pub(super) fn annotate(path: &Path, line: &Option<u64>, message: &str) {
    if std::env::var("GITHUB_ACTIONS").as_deref() != Ok("true") {
        return;
    }
    // The workflow command's own escapes: % first, then the line breaks.
    let escape = |text: &str| {
        text.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |text: &str| escape(text).replace(':', "%3A").replace(',', "%2C");
    let line = line.map_or_else(String::new, |l| format!(",line={l}"));
    errln!(
        "::error file={}{line}::{}",
        property(&path.display().to_string()),
        escape(message)
    );
}

/// `save` with the failure's kind in its name: `x.txt` -> `x-WA.txt`.
pub(super) fn with_kind(save: &Path, kind: &str) -> PathBuf {
    let stem = save.file_stem().unwrap_or_default().to_string_lossy();
    let name = match save.extension() {
        Some(ext) => format!("{stem}-{kind}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{kind}"),
    };
    save.with_file_name(name)
}
