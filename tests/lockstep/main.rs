//! The one integration-test binary: corpus replay, rule scenarios, quickcheck
//! properties, generator coverage, deliberately broken solvers, and the CLI.
//!
//! Long campaigns belong to `lockstep fuzz`; every test here is bounded by a case
//! count, not by time, so it fails or passes the same way on any machine.

mod checkers;
mod cli;
mod corpus;
mod duel;
mod duel_search;
mod footholds;
mod new_game2;
mod properties;
mod robots;
mod stress;
