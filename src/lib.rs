//! lockstep: differential fuzzing of fast puzzle solvers against naive references.
//!
//! The harness library behind the `lockstep` binary and the cargo-fuzz targets:
//!
//! - [`fuzz_target`]: the body of every cargo-fuzz target, and the limits it
//!   reads from the environment;
//! - [`puzzle`]: the `Puzzle` trait every puzzle adapter implements, and the check
//!   (core and reference on one case: agree, diverge, or timeout);
//! - [`puzzles`]: one adapter per puzzle (generator, shrinker, divergence report)
//!   and the registry the CLI uses;
//! - [`search`]: the one search driver: a plan, a source of cases, a check of
//!   one case, and the loop that joins them;
//! - [`seeds`], [`campaign`]: reproducible case bytes and the in-process fuzzer;
//! - [`enumerate`]: every case of a puzzle up to a size, level by level, for
//!   `lockstep verify`;
//! - [`shrink`]: greedy reduction of a failing case;
//! - [`signature`]: a short, stable name for what a disagreement is (one bug,
//!   many findings);
//! - [`corpus`], [`replay`]: the CSV corpus (safe appends, fallback files, rows
//!   distilled from a campaign) and its replay;
//! - [`coverage`]: the code coverage counters of an instrumented build;
//! - [`triage`]: cargo-fuzz artifacts turned into corpus rows;
//! - [`quickcheck_cases`]: quickcheck over the same generators;
//! - [`bench`](mod@bench): core against reference, side by side;
//! - [`stress`]: a user's program against the oracle, failures shrunk;
//! - [`text`]: judge-text comparison and bounded quotes;
//! - [`judge`]: a program run under limits, its output compared or checked,
//!   an interactive one relayed, and one verdict vocabulary;
//! - [`lang`]: source files as programs: the table of languages, the
//!   build cache;
//! - [`test_set`]: a solution over a fixed set of tests (`NAME.in`,
//!   `NAME.ans`), in parallel;
//! - [`process`]: running untrusted programs (groups, orphans, limits, signals);
//! - [`progress`]: live progress lines for long runs;
//! - [`duel`]: the Duel referee and built-in bots (an interactive puzzle);
//! - [`cli`]: the command line.
//!
//! The solvers themselves live in `lockstep-core` (fast) and `lockstep-reference`
//! (naive); this crate only drives and compares them.

pub mod bench;
pub mod campaign;
pub mod cli;
pub mod corpus;
pub mod coverage;
pub mod duel;
pub mod enumerate;
pub mod fuzz_target;
pub mod generate;
pub mod jobs;
pub mod judge;
pub mod lang;
pub mod perft_check;
pub mod process;
pub mod progress;
pub mod puzzle;
pub mod puzzles;
pub mod quickcheck_cases;
pub mod registry;
pub mod replay;
pub mod report;
pub mod row_tests;
pub mod search;
pub mod seeds;
pub mod shrink;
pub mod signature;
pub mod stress;
pub mod test_set;
pub mod text;
pub mod triage;
