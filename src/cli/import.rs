//! `lockstep import PUZZLE FILE...`: the rows of corpus-format CSV files (the
//! fallback files a night's findings were saved to, say, or a triage's
//! `by-signature` files) appended to the puzzle's corpus, one safe append
//! each. Rows are grouped by bug signature: of each bug's examples the
//! smallest is appended, the others counted (rows without a signature are
//! each their own). A case already in the corpus is skipped.

use super::common::lookup;
use super::findings::corpus_dir;
use super::values::puzzle_names;
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_harness::corpus::{self, Row};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ImportArgs {
    /// The puzzle whose corpus takes the rows.
    #[arg(value_parser = puzzle_names())]
    puzzle: String,
    /// The CSV files: each a header and rows, as in corpus/<puzzle>.csv.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Corpus directory (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
}

pub(super) fn import(args: ImportArgs) -> Result<Exit> {
    let entry = lookup(&args.puzzle)?;
    let dir = corpus_dir(args.corpus)?;
    let path = entry.corpus_path(&dir);
    // Every file is read before anything is appended: a bad one stops the
    // import with nothing half done.
    let mut rows: Vec<Row> = Vec::new();
    for file in &args.files {
        let size = std::fs::metadata(file)
            .with_context(|| format!("reading {}", file.display()))?
            .len();
        if size == 0 {
            bail!(
                "{}: the file is empty, not a corpus file (a header line, then rows)",
                file.display()
            );
        }
        let loaded = entry.rows(file)?;
        if loaded.is_empty() {
            outln!(
                "{}: a header and no rows; nothing to import",
                file.display()
            );
        }
        rows.extend(loaded);
    }
    // One bug, many examples: the smallest of each signature is the row.
    let mut bugs: Vec<(String, Vec<Row>)> = Vec::new();
    for row in rows {
        let key = if row.signature.is_empty() {
            format!("(no signature) {}", row.name)
        } else {
            row.signature.clone()
        };
        match bugs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, examples)) => examples.push(row),
            None => bugs.push((key, vec![row])),
        }
    }
    for (_, examples) in bugs {
        let smallest = examples
            .iter()
            .min_by_key(|r| (r.input.len(), r.name.clone()))
            .expect("a bug has an example")
            .clone();
        let others = examples.len() - 1;
        let signature = smallest.signature.clone();
        match entry.append(&dir, smallest)? {
            corpus::Appended::Written(name) => {
                outln!("appended row {name:?} to {}", path.display())
            }
            corpus::Appended::AlreadyPresent(name) => outln!(
                "{} already holds this case (row {name:?}); skipped",
                path.display()
            ),
        }
        if others > 0 {
            outln!(
                "  bug {signature}: {others} more example{} not appended (the smallest stands for them)",
                if others == 1 { "" } else { "s" }
            );
        }
    }
    Ok(Exit::Clean)
}
