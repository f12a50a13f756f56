//! `lockstep solve PUZZLE [--reference]`: one judge input on stdin, its judge
//! output on stdout, by the fast core or the naive reference; either can be
//! submitted to a judge as it is.

use super::common::lookup;
use super::values::puzzle_names;
use super::Exit;
use anyhow::{Context, Result};
use std::io::{Read, Write};

#[derive(clap::Args, Debug)]
pub(super) struct SolveArgs {
    /// The puzzle.
    #[arg(value_parser = puzzle_names())]
    puzzle: String,
    /// Use the naive reference solver instead of the fast core.
    #[arg(long)]
    reference: bool,
}

pub(super) fn solve(args: SolveArgs) -> Result<Exit> {
    let entry = lookup(&args.puzzle)?;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading stdin (judge input must be UTF-8 text)")?;
    match entry.solve(&input, args.reference) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(output.as_bytes())?;
            stdout.flush()?;
            Ok(Exit::Clean)
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(Exit::Error)
        }
    }
}
