//! The one integration-test binary: corpus replay, rule scenarios, quickcheck
//! properties, generator coverage, deliberately broken solvers, the CLI, stress
//! (puzzles, any problem, sources in several languages, memory limits, test
//! sets) and the duel referee, bots and tournaments.
//!
//! Long campaigns belong to `lockstep fuzz`. The generated-case tests are bounded
//! by a case count and seeded, so they pass or fail the same way everywhere; the
//! quickcheck properties draw fresh cases each run (a failure prints its corpus
//! row). Tests that run real processes (stress, referee, tournaments) depend on
//! the clock only through generous limits.

mod abuse;
mod boundaries;
mod cli;
mod corpus;
mod findings;
mod golden;
mod layout;
mod planted;
mod properties;
mod referee;
mod report;
mod setter;
mod signatures;
mod stress;
mod stress_any;
mod stress_exhaustive;
mod stress_interactive;
mod support;
mod verify;

/// One test module per puzzle (`tests/lockstep/<module>.rs`: the statement's
/// examples, rule scenarios, planted bugs), from the one list of puzzles.
macro_rules! puzzle_tests {
    ($($ty:ident $m:ident [$($flag:ident)?],)*) => {
        $(mod $m;)*
    };
}
lockstep::for_each_puzzle!(puzzle_tests);
