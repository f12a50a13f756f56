//! The catalogue of planted bugs: for every puzzle, deliberately wrong solvers,
//! each a bug a real solution could have (a rule of the statement got wrong,
//! several of them bugs that published solutions had), each a [`Solver`] that
//! stands in for the puzzle's fast core. They live in a crate of their own,
//! apart from the tests, so that every driver hunts the same bugs: the
//! in-process drivers of the test suite (each puzzle's test module and the
//! catalogue's table, `crates/harness/tests/it/planted.rs`), the quickcheck driver, and
//! a cargo-fuzz target (`fuzz/planted/planted.rs`) that runs one of them under
//! libFuzzer, chosen by name ([`find`]).
//!
//! Test code, never the real core: nothing in `core/`, `reference/` or the
//! `lockstep` binary depends on this crate (the root package has it as a
//! dev-dependency only), and no solver here is ever offered as a solution.
//!
//! One module per puzzle, named as the puzzle's module everywhere else
//! (`lockstep_harness::puzzles::<module>`, `crates/core/src/<module>`): its `BUGS` (for some
//! puzzles with how small a finding must shrink), `bugs()` (the names and
//! solvers alone, what the catalogue reads), `BOUNDARY_BUGS` where the bugs
//! sit at the rule boundaries the generator aims at, and, for most puzzles, the
//! third implementation the bugs are planted in. Its bug-free run
//! (`simulate(case, None)`, `validate(case, None)`, `third(case, None)`) is
//! public so that the tests can hold it to the real core: a bug is then found
//! for the planted reason and no other.
//!
//! A bug's name is `<module>/<index into that module's bugs()>`, e.g.
//! `robots/3`: [`all`] lists every one, [`find`] returns one ready to run.
//!
//! # Contestant bugs
//!
//! Besides `BUGS`, each of the five puzzles of the statements has
//! `CONTESTANT`: three rule bugs of the kinds a contestant writes and that
//! `verify`'s levels once missed (two checks in the wrong order where two
//! constants meet, a bound taken from the wrong side, a shape one step
//! larger than the levels held), written before the levels that now find
//! them. `crates/harness/tests/it/verify.rs` holds the CI scope to finding
//! every one. They are not in the catalogue that the fuzz drivers hunt.

pub mod checkers;
pub mod checkers_perft;
pub mod duel;
pub mod duel_search;
pub mod footholds;
pub mod matrix_game;
pub mod new_game2;
pub mod robots;

use lockstep_harness::puzzle::{Puzzle, Solver};
use std::fmt;

/// One planted bug, ready to run libFuzzer's inputs against.
pub struct Planted {
    /// `<puzzle module>/<index into its bugs()>`, e.g. `robots/3`.
    pub name: String,
    /// The puzzle's name (`Puzzle::NAME`), e.g. `new-game2`.
    pub puzzle: &'static str,
    /// The bug's name, as in its module's `BUGS`.
    pub bug: &'static str,
    /// The cargo-fuzz targets' body against this bug instead of the core
    /// (`lockstep_harness::fuzz_target::fuzz_one_with`): builds a case from the bytes,
    /// and panics with the full report when the bug and the reference disagree.
    pub fuzz_one: FuzzOne,
}

/// What runs one libFuzzer input against a planted bug ([`Planted::fuzz_one`]).
pub type FuzzOne = Box<dyn Fn(&[u8]) + Send + Sync>;

impl fmt::Debug for Planted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Planted")
            .field("name", &self.name)
            .field("puzzle", &self.puzzle)
            .field("bug", &self.bug)
            .finish_non_exhaustive()
    }
}

/// The name of bug `index` of `P`'s `bugs()`: `<module>/<index>`, the one
/// spelling [`find`], the fuzz target and the tests' table use.
pub fn bug_name<P: Puzzle>(index: usize) -> String {
    format!("{}/{index}", P::MODULE)
}

fn planted<P: Puzzle>(index: usize, bug: &'static str, solver: Solver<P>) -> Planted {
    Planted {
        name: bug_name::<P>(index),
        puzzle: P::NAME,
        bug,
        fuzz_one: Box::new(move |data| {
            lockstep_harness::fuzz_target::fuzz_one_with::<P>(data, solver)
        }),
    }
}

/// Every planted bug of every puzzle, over the one list of puzzles (a puzzle
/// without a module here does not compile).
fn catalogue() -> Vec<Planted> {
    macro_rules! catalogue {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {{
            let mut all = Vec::new();
            $(all.extend(
                $m::bugs()
                    .into_iter()
                    .enumerate()
                    .map(|(i, (bug, solver))| planted::<lockstep_harness::puzzles::$ty>(i, bug, solver)),
            );)*
            all
        }};
    }
    lockstep_harness::for_each_puzzle!(catalogue)
}

/// Every planted bug, in the order of the puzzles and of each puzzle's
/// `bugs()`: its name (`robots/3`), its puzzle's name (`Puzzle::NAME`) and
/// the bug's.
pub fn all() -> Vec<(String, &'static str, &'static str)> {
    catalogue()
        .into_iter()
        .map(|p| (p.name, p.puzzle, p.bug))
        .collect()
}

/// The planted bug named `name` (`<puzzle module>/<index>`, as [`all`] names
/// it), or `None`.
pub fn find(name: &str) -> Option<Planted> {
    catalogue().into_iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests;
