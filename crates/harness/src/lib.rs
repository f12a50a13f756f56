//! The differential harness: a fast core against a naive reference, on the
//! same cases, for every puzzle.
//!
//! - [`puzzle`]: the `Puzzle` trait every puzzle implements, and the check of
//!   one case (core and reference: agree, diverge, or time out);
//! - [`puzzles`]: one folder per puzzle (its adapter, generator, shrinker,
//!   levels, bench lines and signature) and
//!   [`for_each_puzzle!`](crate::for_each_puzzle), the one list of puzzles;
//! - [`campaign`]: the in-process fuzzer and verify's certificates, on the
//!   search driver of `lockstep-search`, with its sources of a puzzle's
//!   cases ([`seeded`], [`enumerated`]) and the cases themselves
//!   ([`generate`], [`enumerate`]);
//! - [`shrink`], [`signature`]: a disagreement shrunk to a local minimum and
//!   named by what it is;
//! - [`corpus`], [`replay`], [`row_tests`], [`triage`]: the CSV corpus (safe
//!   appends, fallback files, distilled campaigns), its replay, each row as
//!   a test, and cargo-fuzz artifacts turned into rows;
//! - [`fuzz_target`], [`quickcheck_cases`]: the bodies of the cargo-fuzz
//!   targets and of quickcheck, over the same generators;
//! - [`bench`](mod@bench), [`coverage`]: core against reference side by
//!   side, and the code regions an instrumented build reached.
//!
//! It runs no program: nothing here depends on `lockstep-process` or
//! `lockstep-judge` (its Cargo.toml holds it), so a bug in judging can never
//! pass for one in a solver.

pub mod bench;
pub mod campaign;
pub mod corpus;
pub mod coverage;
pub mod decode;
pub mod duel_states;
pub mod enumerate;
pub mod enumerated;
mod error;
pub mod fuzz_target;
pub mod generate;
pub mod puzzle;
pub mod puzzles;
pub mod quickcheck_cases;
pub mod replay;
pub mod row_tests;
pub mod seeded;
pub mod shrink;
pub mod signature;
pub mod triage;

pub use error::HarnessError;
