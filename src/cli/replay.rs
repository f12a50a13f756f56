//! `lockstep replay`: every corpus row through core and reference, every
//! failure listed, then one verdict (exit 1 when any row fails).

use super::common::{corpus_dir, pick};
use super::values::puzzle_names;
use super::Exit;
use anyhow::Result;
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
}

pub(super) fn replay(args: ReplayArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    let dir = &corpus_dir(args.corpus)?;
    let mut failed = 0;
    let mut total = 0;
    for entry in &entries {
        let report = entry.replay(dir)?;
        let path = entry.corpus_path(dir);
        out!(
            "{}",
            crate::replay::Shown {
                puzzle: entry.name(),
                path: &path,
                report: &report
            }
        );
        failed += report.failures.len();
        total += report.rows;
    }
    outln!("replay: {} passed, {failed} failed", total - failed);
    Ok(Exit::found_if(failed > 0))
}
