//! `lockstep import PUZZLE FILE`: the rows of a corpus-format CSV file (a
//! fallback file a finding was saved to, say) appended to the puzzle's
//! corpus, one safe append each; a case already there is skipped.

use super::common::{corpus_dir, lookup};
use super::values::puzzle_names;
use super::Exit;
use crate::corpus;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ImportArgs {
    /// The puzzle whose corpus takes the rows.
    #[arg(value_parser = puzzle_names())]
    puzzle: String,
    /// The CSV file: a header and rows, as in corpus/<puzzle>.csv.
    file: PathBuf,
    /// Corpus directory (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
}

pub(super) fn import(args: ImportArgs) -> Result<Exit> {
    let entry = lookup(&args.puzzle)?;
    let dir = corpus_dir(args.corpus)?;
    let path = entry.corpus_path(&dir);
    let size = std::fs::metadata(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?
        .len();
    if size == 0 {
        bail!(
            "{}: the file is empty, not a corpus file (a header line, then rows)",
            args.file.display()
        );
    }
    let appended = entry.import(&dir, &args.file)?;
    if appended.is_empty() {
        outln!(
            "{}: a header and no rows; nothing to import",
            args.file.display()
        );
    }
    for appended in appended {
        match appended {
            corpus::Appended::Written(name) => {
                outln!("appended row {name:?} to {}", path.display())
            }
            corpus::Appended::AlreadyPresent(name) => outln!(
                "{} already holds this case (row {name:?}); skipped",
                path.display()
            ),
        }
    }
    Ok(Exit::Clean)
}
