//! `lockstep solve PUZZLE [--reference | --trace]`: one judge input on
//! stdin, its judge output on stdout, by the fast core or the naive
//! reference; either can be submitted to a judge as it is. With `--trace`,
//! the reference's account of every step instead, ending with its output.
//! The reference works within a budget of fuel (`--fuel`, by default the
//! puzzle's `SOLVE_FUEL`), says on stderr when it is still at work after a
//! few seconds, and stops with a message naming `--fuel` when it runs out.

use super::common::lookup;
use super::values::puzzle_names;
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_registry::AnyPuzzle;
use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::Duration;

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
    /// The reference's budget, with --reference or --trace, in its units
    /// of work (a piece move, a position searched, ...): past it, it stops
    /// with a message instead of running on. Default: the puzzle's, far
    /// above what a campaign gives a case (footholds: 100,000,000
    /// positions, enough to trace a full 6x6 board).
    #[arg(long, value_name = "UNITS")]
    fuel: Option<u64>,
}

/// How long the reference works before `solve` says that it still is.
const SLOW: Duration = Duration::from_secs(3);

pub(super) fn solve(args: SolveArgs) -> Result<Exit> {
    let entry = lookup(&args.puzzle)?;
    if args.fuel.is_some() && !args.reference && !args.trace {
        bail!("--fuel is the reference's budget: give it with --reference or --trace");
    }
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading stdin (judge input must be UTF-8 text)")?;
    let fuel = args.fuel.unwrap_or_else(|| entry.solve_fuel());
    if args.trace {
        return trace(entry, &input, fuel, args.fuel.is_some());
    }
    if args.reference {
        let solved = {
            let _note = note_if_slow(entry, fuel);
            entry.solve_by_reference(&input, fuel)
        };
        return match solved {
            Ok(Some(output)) => write_out(&output),
            Ok(None) => {
                errln!("{}", out_of_fuel(entry, fuel, args.fuel.is_some()));
                Ok(Exit::Error)
            }
            Err(e) => {
                errln!("error: {e}");
                Ok(Exit::Error)
            }
        };
    }
    match entry.solve(&input, false) {
        Ok(output) => write_out(&output),
        Err(e) => {
            errln!("error: {e}");
            Ok(Exit::Error)
        }
    }
}

/// Writes a solver's output on stdout.
fn write_out(text: &str) -> Result<Exit> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(Exit::Clean)
}

/// What is said when the reference spends `fuel` before finishing.
fn out_of_fuel(entry: &dyn AnyPuzzle, fuel: u64, given: bool) -> String {
    let whose = match given {
        true => "the --fuel given",
        false => "its default for solve",
    };
    format!(
        "error: the reference ran out of its fuel on this input: {fuel} units ({whose}) were not enough; `--fuel UNITS` with more lets it run longer (the time grows with them), and `lockstep solve {}` without --reference or --trace answers with the fast core",
        entry.name()
    )
}

/// A note on stderr if the reference is still at work after [`SLOW`], until
/// the returned sender is dropped: a long solve says what it is doing.
fn note_if_slow(entry: &dyn AnyPuzzle, fuel: u64) -> mpsc::Sender<()> {
    let (done, finished) = mpsc::channel::<()>();
    let name = entry.name();
    std::thread::spawn(move || {
        if finished.recv_timeout(SLOW) == Err(mpsc::RecvTimeoutError::Timeout) {
            errln!(
                "lockstep: the {name} reference is still working on this input; it stops with a message after {fuel} units of fuel (--fuel sets them)"
            );
        }
    });
    done
}

/// `--trace`: the reference's account within `fuel`, or why there is none.
fn trace(entry: &'static dyn AnyPuzzle, input: &str, fuel: u64, given: bool) -> Result<Exit> {
    let traced = {
        let _note = note_if_slow(entry, fuel);
        entry.trace(input, fuel)
    };
    match traced {
        Ok(Some(text)) => write_out(&text),
        Ok(None) if entry.has_trace() => {
            errln!("{}", out_of_fuel(entry, fuel, given));
            Ok(Exit::Error)
        }
        Ok(None) => {
            let traced: Vec<&str> = lockstep_registry::all()
                .iter()
                .filter(|p| p.has_trace())
                .map(|p| p.name())
                .collect();
            errln!(
                "error: {} has no step trace: its answer does not come from steps ({} have one)",
                entry.name(),
                traced.join(", ")
            );
            Ok(Exit::Error)
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(Exit::Error)
        }
    }
}
