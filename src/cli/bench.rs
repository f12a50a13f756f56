//! `lockstep bench`: core against reference on the same cases, side by side
//! in one run, medians over alternating rounds.

use super::common::pick;
use super::output::{print_document, OutputFormat};
use super::values::{at_least_one, puzzle_names, seed_number};
use super::Exit;
use anyhow::Result;
use lockstep_harness::bench::BenchOptions;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub(super) struct BenchArgs {
    /// Puzzles to measure (default: all).
    #[arg(value_parser = puzzle_names())]
    puzzles: Vec<String>,
    /// Cases per round of the generic line (at most 200000: a round holds
    /// its cases in memory).
    #[arg(long, default_value_t = 2000, value_parser = super::values::bench_cases)]
    cases: u64,
    /// Rounds; medians are reported.
    #[arg(long, default_value_t = 7, value_parser = at_least_one)]
    rounds: u64,
    /// Seed for the generated cases.
    #[arg(long, default_value_t = 1, value_parser = seed_number)]
    seed: u64,
    /// Only the generic line of each puzzle.
    #[arg(long)]
    no_extras: bool,
    /// The report on stdout: a table, row by row, or one JSON document at the
    /// end (its schema: docs/guide/src/reference/json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
}

pub(super) fn bench(args: BenchArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    let options = &BenchOptions {
        cases: args.cases as usize,
        rounds: args.rounds as usize,
        seed: args.seed,
        extras: !args.no_extras,
    };
    if args.format == OutputFormat::Json {
        let puzzles = entries
            .iter()
            .map(|entry| Benched {
                puzzle: entry.name(),
                result: entry.bench(options),
            })
            .collect();
        print_document("bench", &BenchOutcome { options, puzzles });
        return Ok(Exit::Clean);
    }
    // Row by row, as each puzzle is measured: a whole bench takes minutes.
    out!("{}", lockstep_harness::bench::Header(options));
    for entry in &entries {
        out!(
            "{}",
            lockstep_harness::bench::BenchLine(entry.name(), &entry.bench(options))
        );
    }
    Ok(Exit::Clean)
}

/// `lockstep bench --format json`'s document: the options, and each
/// puzzle's result.
#[derive(serde::Serialize)]
struct BenchOutcome<'a> {
    options: &'a lockstep_harness::bench::BenchOptions,
    puzzles: Vec<Benched>,
}

/// One puzzle's bench result, named.
#[derive(serde::Serialize)]
struct Benched {
    puzzle: &'static str,
    #[serde(flatten)]
    result: lockstep_harness::bench::BenchResult,
}
