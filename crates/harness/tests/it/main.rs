//! The harness's tests: each puzzle's examples, rule scenarios and planted
//! bugs (a module per puzzle, from the one list of puzzles), the quickcheck
//! properties, signatures, the corpus. Library calls only: the binary's end-to-end tests
//! are the root package's (`tests/cli/`).
//!
//! Generated-case tests are bounded by a case count and seeded, so they pass
//! or fail the same way everywhere; the quickcheck properties draw fresh
//! cases each run (a failure prints its corpus row).

// The tests start the binary, its fixtures and git themselves.
#![allow(clippy::disallowed_methods)]

mod corpus;
mod corpus_power;
mod counting;
mod findings;
mod planted;
mod properties;
mod signatures;
mod support;
mod verify;

// The puzzles' own test modules (`<module>.rs`: the statement's examples,
// rule scenarios, planted bugs), declared where rustfmt sees them. A puzzle
// may have none: the modules above run every puzzle of the list.
mod checkers;
mod checkers_perft;
mod duel;
mod duel_search;
mod footholds;
mod matrix_game;
mod new_game2;
mod robots;
