//! `lockstep corpus export CORPUS.csv --out DIR`: a corpus file's rows as a
//! judge's test set.
//!
//! Each row within the original statement's limits (every row with `--limits
//! wide`) becomes `NAME.in` and `NAME.ans`: the row's input and expected output
//! as a judge reads them, line breaks restored and a final newline. A row
//! without an expected answer (the reference gave none) is left out; both
//! kinds left out are counted. Two layouts:
//!
//! - `kattis`: a problem package's `data/`, the statements' samples in
//!   `data/sample/` and every other row in `data/secret/` (DOMjudge imports
//!   the same folders);
//! - `plain`: every test in `DIR` itself, the folder Polygon's "add tests"
//!   takes and `lockstep test DIR` reads.
//!
//! `DIR/manifest.json` (serde_json) names each test's files and says what the
//! row was kept for: its origin (a sample, a boundary, a mutant, a rule branch
//! reached, a finding) and its note. `DIR` must not exist or be empty: the
//! set is written into a scratch folder beside it and renamed into place, so
//! a stopped export leaves no half-written set.

use super::common::lookup;
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_harness::corpus::Origin;
use lockstep_harness::puzzle::CaseLimits;
use lockstep_judge::test_set::TestText;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub(super) struct ExportArgs {
    /// The corpus file (corpus/MODULE.csv).
    corpus: PathBuf,
    /// The folder to write (missing or empty).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// kattis: data/sample/ and data/secret/ of a problem package; plain:
    /// every test in DIR itself.
    #[arg(long, value_enum, default_value_t = Layout::Kattis)]
    layout: Layout,
    /// Which rows: those within the original statement's limits (what a
    /// judge's tests may hold), or every row.
    #[arg(long, value_enum, default_value_t = CaseLimits::Original)]
    limits: CaseLimits,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Layout {
    Kattis,
    Plain,
}

/// `manifest.json`: the set, and what each test was kept for.
#[derive(Serialize)]
struct Manifest {
    puzzle: &'static str,
    corpus: String,
    layout: Layout,
    limits: &'static str,
    /// Rows beyond the original statement's limits, left out.
    left_out_beyond_limits: usize,
    /// Rows without an expected answer, left out.
    left_out_without_answer: usize,
    tests: Vec<ManifestTest>,
}

#[derive(Serialize)]
struct ManifestTest {
    /// The input's path in the set, relative to its folder; the answer is
    /// beside it with `.ans` for `.in`.
    input: String,
    origin: Origin,
    /// The row's note: what it shows, or what it was kept for.
    kept_for: String,
}

pub(super) fn export(args: ExportArgs) -> Result<Exit> {
    let path = &args.corpus;
    if !path.is_file() || path.extension().is_none_or(|e| e != "csv") {
        bail!("{}: not a corpus file (MODULE.csv)", path.display());
    }
    let module = path.file_stem().unwrap_or_default().to_string_lossy();
    let entry = lookup(&module)
        .with_context(|| format!("{}: the corpus file of which puzzle", path.display()))?;
    if args.out.exists() && (!args.out.is_dir() || std::fs::read_dir(&args.out)?.next().is_some()) {
        bail!(
            "--out {}: exists and is not an empty folder (an export never writes over tests, nor through a link)",
            args.out.display()
        );
    }
    let wide = args.limits == CaseLimits::Wide;
    let mut manifest = Manifest {
        puzzle: entry.name(),
        corpus: path.display().to_string(),
        layout: args.layout,
        limits: if wide { "wide" } else { "original" },
        left_out_beyond_limits: 0,
        left_out_without_answer: 0,
        tests: Vec::new(),
    };
    let rows = entry.corpus_tests(path)?;
    let scratch = scratch_beside(&args.out)?;
    let written = write_set(rows, &scratch, wide, &mut manifest)
        .and_then(|()| {
            let json = serde_json::to_string_pretty(&manifest)? + "\n";
            std::fs::write(scratch.join("manifest.json"), json).context("writing manifest.json")
        })
        .and_then(|()| {
            let was_there = args.out.exists();
            if was_there {
                std::fs::remove_dir(&args.out)
                    .with_context(|| format!("replacing the empty {}", args.out.display()))?;
            }
            std::fs::rename(&scratch, &args.out).with_context(|| {
                // The user's empty folder comes back as it was.
                if was_there {
                    let _ = std::fs::create_dir(&args.out);
                }
                format!("moving the set to {}", args.out.display())
            })
        });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(e);
    }
    errln!(
        "{}: {} written to {} ({} layout); left out {} beyond the original statement's limits{} and {} without an answer",
        entry.name(),
        lockstep_text::counted(manifest.tests.len() as u64, "test"),
        args.out.display(),
        match args.layout {
            Layout::Kattis => "kattis",
            Layout::Plain => "plain",
        },
        manifest.left_out_beyond_limits,
        if wide { "" } else { " (--limits wide keeps them)" },
        manifest.left_out_without_answer,
    );
    Ok(Exit::Clean)
}

/// A fresh folder beside `out`, on the same file system, for the set to be
/// written into before it is renamed to `out`.
fn scratch_beside(out: &Path) -> Result<PathBuf> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        bail!("--out {}: its folder does not exist", out.display());
    }
    let name = out.file_name().unwrap_or_default().to_string_lossy();
    let scratch = parent.join(format!(".{name}.partial-{}", std::process::id()));
    std::fs::create_dir(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    Ok(scratch)
}

/// The tests into `dir`, each listed in `manifest`.
fn write_set(
    rows: Vec<lockstep_registry::CorpusTest>,
    dir: &Path,
    wide: bool,
    manifest: &mut Manifest,
) -> Result<()> {
    for row in rows {
        if !wide && !row.within_original {
            manifest.left_out_beyond_limits += 1;
            continue;
        }
        let (TestText::Held(input), Some(TestText::Held(answer))) =
            (row.test.input, row.test.answer)
        else {
            bail!("corpus row {}: not held in memory", row.test.name);
        };
        if answer.trim().is_empty() {
            manifest.left_out_without_answer += 1;
            continue;
        }
        let folder = match manifest.layout {
            Layout::Kattis if row.origin == Origin::Sample => "data/sample/",
            Layout::Kattis => "data/secret/",
            Layout::Plain => "",
        };
        std::fs::create_dir_all(dir.join(folder))
            .with_context(|| format!("creating {}", dir.join(folder).display()))?;
        let stem = format!("{folder}{}", row.test.name);
        for (extension, text) in [("in", input), ("ans", answer)] {
            let file = dir.join(format!("{stem}.{extension}"));
            let text = if text.ends_with('\n') {
                text
            } else {
                text + "\n"
            };
            std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
        }
        manifest.tests.push(ManifestTest {
            input: format!("{stem}.in"),
            origin: row.origin,
            kept_for: row.note,
        });
    }
    Ok(())
}
