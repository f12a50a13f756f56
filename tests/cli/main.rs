//! The binary end to end: every command, stress (puzzles, any problem,
//! sources in several languages, memory limits, test sets), the duel
//! referee, bots and tournaments, findings under abuse, the recorded
//! outputs, and the house rules that only a test of the tree can hold.
//!
//! Long campaigns belong to `lockstep fuzz`. The generated-case tests are bounded
//! by a case count and seeded, so they pass or fail the same way everywhere; the
//! quickcheck properties draw fresh cases each run (a failure prints its corpus
//! row). Tests that run real processes (stress, referee, tournaments) depend on
//! the clock only through generous limits.

// The tests start the binary, its fixtures and git themselves.
#![allow(clippy::disallowed_methods)]

mod abuse;
mod cli;
mod export;
mod findings;
mod flags;
mod golden;
mod layout;
mod mutants;
mod puzzles;
mod referee;
mod report;
mod setter;
mod signals;
mod stress;
mod stress_any;
mod stress_exhaustive;
mod stress_interactive;
mod support;
mod trace;
mod verify;
