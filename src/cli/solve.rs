//! `lockstep solve PUZZLE [--reference | --trace]`: one judge input on
//! stdin, its judge output on stdout, by the fast core or the naive
//! reference; either can be submitted to a judge as it is. With `--trace`,
//! the reference's account of every step instead, ending with its output.

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
    /// Print the reference's account of the input step by step (board,
    /// stacks, positions per turn, in the rule page's words), ending with
    /// its judge output, instead of the output alone: to follow a shrunk
    /// case to the step where a program goes wrong. Robots, new-game2,
    /// footholds (the line of optimal play), checkers and the duel.
    #[arg(long, conflicts_with = "reference")]
    trace: bool,
}

pub(super) fn solve(args: SolveArgs) -> Result<Exit> {
    let entry = lookup(&args.puzzle)?;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading stdin (judge input must be UTF-8 text)")?;
    if args.trace {
        return trace(entry, &input);
    }
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

/// `--trace`: the reference's account, or why there is none.
fn trace(entry: &'static dyn lockstep_registry::AnyPuzzle, input: &str) -> Result<Exit> {
    match entry.trace(input) {
        Ok(Some(text)) => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
            Ok(Exit::Clean)
        }
        Ok(None) if entry.has_trace() => {
            errln!(
                "error: the reference ran out of its fuel on this input: it is too large to trace"
            );
            Ok(Exit::Error)
        }
        Ok(None) => {
            errln!(
                "error: {} has no step trace: its answer does not come from steps (robots, new-game2, footholds, checkers and duel have one)",
                entry.name()
            );
            Ok(Exit::Error)
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(Exit::Error)
        }
    }
}
