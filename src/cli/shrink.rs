//! `lockstep shrink PUZZLE FILE`: a diverging case (judge text or a cargo-fuzz
//! artifact) shrunk, explained and printed as a corpus row (appended with
//! `--append`).

use super::common::lookup;
use super::findings::{corpus_dir, record_finding};
use super::output::OutputFormat;
use super::values::puzzle_names;
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_harness::decode::Encoding;
use lockstep_harness::puzzle::CaseLimits;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ShrinkArgs {
    /// The puzzle.
    #[arg(value_parser = puzzle_names())]
    puzzle: String,
    /// The case: judge text, or the raw bytes of a cargo-fuzz artifact.
    file: PathBuf,
    /// Read the file as judge text.
    #[arg(long, conflicts_with = "bytes")]
    text: bool,
    /// Read the file as raw fuzzer bytes (a cargo-fuzz artifact).
    #[arg(long)]
    bytes: bool,
    /// Also append the row to the corpus.
    #[arg(long)]
    append: bool,
    /// Draw whole pictures in the report (robots: the whole boards, not only
    /// the region where core and reference differ).
    #[arg(long)]
    full: bool,
    /// Corpus directory for --append (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
}

pub(super) fn shrink(args: ShrinkArgs) -> Result<Exit> {
    // Fuzzer bytes decode under LOCKSTEP_LIMITS, as the targets generated them.
    if let Err(message) = CaseLimits::from_env() {
        bail!("{message}");
    }
    let entry = lookup(&args.puzzle)?;
    lockstep_harness::puzzle::set_full_reports(args.full);
    let data =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let encoding = match (args.text, args.bytes) {
        (true, _) => Encoding::Text,
        (_, true) => Encoding::Bytes,
        _ => Encoding::Auto,
    };
    let dir = if args.append {
        Some(corpus_dir(args.corpus)?)
    } else {
        None
    };
    if data.is_empty() {
        bail!(
            "{}: the file is empty: no case to shrink",
            args.file.display()
        );
    }
    // Say how the file was read: a text file with a typo read as fuzzer
    // bytes, or the other way round, would otherwise go unnoticed.
    let how = if lockstep_harness::decode::reads_as_text(&data, encoding) {
        format!("read as judge text, {} bytes", data.len())
    } else {
        format!(
            "read as fuzzer bytes, {} bytes, {} limits",
            data.len(),
            CaseLimits::from_env().unwrap_or(CaseLimits::Wide)
        )
    };
    let provenance = format!("lockstep shrink {}", args.file.display());
    let summary = match entry.shrink(&data, encoding, &provenance) {
        Ok(summary) => summary,
        Err(why) => bail!("{} ({how}): {why}", args.file.display()),
    };
    errln!("{}: {how}", args.file.display());
    errln!("{}", summary.report);
    record_finding(entry, dir.as_deref(), &summary.row, OutputFormat::Text);
    // A disagreement was found and shrunk: "something found".
    Ok(Exit::Found)
}
