//! `lockstep corpus distill`: a campaign distilled into the corpus rows that
//! together reach everything it reached ([`lockstep_harness::corpus::distill`]);
//! `lockstep corpus export` ([`super::export`]).

use super::common::pick;
use super::findings::corpus_dir;
use super::values::{at_least_one, positive_seconds, puzzle_names, seed_number};
use super::Exit;
use anyhow::Result;
use lockstep_harness::corpus::distill::DistillOptions;
use lockstep_harness::puzzle::CaseLimits;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct CorpusArgs {
    #[command(subcommand)]
    command: CorpusCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CorpusCommand {
    /// Run a campaign and keep the few cases that together reach every code
    /// region (in a build for coverage, scripts/coverage) or rule branch (any
    /// other build) it reached, shrunk, as rows with origin `coverage`.
    Distill(DistillArgs),
    /// Write a corpus file's rows as a judge's test set, NAME.in with
    /// NAME.ans, and a manifest.json saying what each test was kept for:
    /// as a Kattis problem package's data/ (DOMjudge imports it), or as one
    /// plain folder (Polygon's tests, `lockstep test DIR`).
    Export(super::export::ExportArgs),
}

#[derive(clap::Args, Debug)]
struct DistillArgs {
    /// Puzzles to distill (default: all).
    #[arg(value_parser = puzzle_names())]
    puzzles: Vec<String>,
    /// Cases generated per puzzle at most (and 1000000 measured at most,
    /// whatever this says: each is held in memory until the cover is made).
    #[arg(long, default_value_t = 20_000, value_parser = at_least_one)]
    cases: u64,
    /// Seconds per puzzle at most, for the campaign part.
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    seconds: f64,
    /// Seed of the cases (fixed by default, so that a distillation repeats).
    #[arg(long, default_value_t = 1, value_parser = seed_number)]
    seed: u64,
    /// Which cases to generate.
    #[arg(long, value_enum, default_value_t = CaseLimits::Wide)]
    limits: CaseLimits,
    /// Keep the cases as generated, unshrunk.
    #[arg(long)]
    no_shrink: bool,
    /// Corpus directory the rows are appended to (must exist) [default: ./corpus].
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Print the rows without appending them (not with --corpus, which it
    /// would ignore).
    #[arg(long, conflicts_with = "corpus")]
    no_append: bool,
}

pub(super) fn corpus(args: CorpusArgs) -> Result<Exit> {
    match args.command {
        CorpusCommand::Distill(args) => distill(args),
        CorpusCommand::Export(args) => super::export::export(args),
    }
}

fn distill(args: DistillArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    let dir = if args.no_append {
        None
    } else {
        Some(corpus_dir(args.corpus)?)
    };
    let options = DistillOptions {
        seed: args.seed,
        cases: args.cases,
        seconds: args.seconds,
        limits: args.limits,
        shrink: !args.no_shrink,
    };
    for entry in entries {
        let distilled = entry.distill(&options);
        errln!("{}: {distilled}", entry.name());
        let (mut appended, mut present) = (0, 0);
        for row in &distilled.rows {
            outln!("{}", lockstep_harness::corpus::row_to_csv(row).trim_end());
            let Some(dir) = &dir else {
                continue;
            };
            match entry.append(dir, row.clone())? {
                lockstep_harness::corpus::Appended::Written(_) => appended += 1,
                lockstep_harness::corpus::Appended::AlreadyPresent(_) => present += 1,
            }
        }
        if let Some(dir) = &dir {
            errln!(
                "{}: {appended} appended to {}, {present} already there",
                entry.name(),
                entry.corpus_path(dir).display()
            );
        }
    }
    Ok(Exit::Clean)
}
