//! A planted bug as a contestant's program: `wrong BUG` reads a judge input
//! on stdin and writes the judge output of the planted solver `BUG`, so that a
//! test set can be tried against wrong solutions the way a judge tries a
//! submission (`lockstep test DIR --cmd "target/debug/examples/wrong robots/3"`).
//!
//! `BUG` is `<module>/<index>` for the catalogue's bugs of every puzzle (as
//! `lockstep_planted::find` names them) or `<module>/contestant-<index>` for
//! the `CONTESTANT` bugs of the five puzzles of the statements; `wrong --list` prints every name. Test code:
//! built by `cargo test`, never part of the `lockstep` binary.

use lockstep_core::Model;
use lockstep_harness::puzzle::{Puzzle, Solver};
use lockstep_harness::puzzles::{self, Checkers, Duel, Footholds, NewGame2, Robots};
use lockstep_planted as planted;
use std::io::{Read, Write};
use std::process::ExitCode;

/// The wrong solutions of one puzzle: the catalogue's, then the contestant
/// bugs, each with its name.
fn solvers<P: Puzzle>(
    bugs: Vec<(&'static str, Solver<P>)>,
    contestant: &[(&'static str, Solver<P>)],
) -> Vec<(String, &'static str, Solver<P>)> {
    let module = P::MODULE;
    let catalogue = bugs
        .into_iter()
        .enumerate()
        .map(|(i, (what, solver))| (format!("{module}/{i}"), what, solver));
    let contestant = contestant
        .iter()
        .enumerate()
        .map(|(i, &(what, solver))| (format!("{module}/contestant-{i}"), what, solver));
    catalogue.chain(contestant).collect()
}

/// Runs the solver named `name` of `P` on `input`: `None` when `P` has no
/// such solver, else its judge output or the input's error.
fn run<P: Puzzle>(
    all: Vec<(String, &'static str, Solver<P>)>,
    name: &str,
    input: &str,
    list: &mut Vec<String>,
) -> Option<Result<String, String>> {
    list.extend(all.iter().map(|(n, what, _)| format!("{n}\t{what}")));
    let (_, _, solver) = all.into_iter().find(|(n, _, _)| n == name)?;
    Some(
        P::Case::parse(input)
            .map(|case| P::Case::write_answer(&solver(&case).answer))
            .map_err(|e| e.to_string()),
    )
}

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_default();
    let mut input = String::new();
    if name != "--list" && std::io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("wrong: stdin is not UTF-8 text");
        return ExitCode::from(2);
    }
    let mut list = Vec::new();
    macro_rules! catalogue {
        ($($ty:ident $m:ident $n:literal [$($flag:ident)*],)*) => {
            [$(run::<puzzles::$ty>(solvers::<puzzles::$ty>(planted::$m::bugs(), &[]), &name, &input, &mut list),)*]
        };
    }
    // The contestant bugs of the five puzzles of the statements.
    macro_rules! contestant {
        ($($ty:ident $m:ident),*) => {
            [$(run::<$ty>(solvers::<$ty>(Vec::new(), &planted::$m::CONTESTANT), &name, &input, &mut list),)*]
        };
    }
    let found = lockstep_harness::for_each_puzzle!(catalogue)
        .into_iter()
        .chain(contestant!(
            Robots robots, NewGame2 new_game2, Footholds footholds, Checkers checkers, Duel duel
        ))
        .flatten()
        .next();
    match found {
        Some(Ok(output)) => {
            let _ = std::io::stdout().write_all(output.as_bytes());
            ExitCode::SUCCESS
        }
        Some(Err(error)) => {
            eprintln!("wrong: {error}");
            ExitCode::from(2)
        }
        None if name == "--list" => {
            println!("{}", list.join("\n"));
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("wrong: no planted bug {name:?} (wrong --list names them)");
            ExitCode::from(2)
        }
    }
}
