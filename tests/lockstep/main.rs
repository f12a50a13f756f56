//! The one integration-test binary: corpus replay, rule scenarios, quickcheck
//! properties, generator coverage, deliberately broken solvers, the CLI, stress
//! and the duel referee, bots and tournaments.
//!
//! Long campaigns belong to `lockstep fuzz`. The generated-case tests are bounded
//! by a case count and seeded, so they pass or fail the same way everywhere; the
//! quickcheck properties draw fresh cases each run (a failure prints its corpus
//! row). Tests that run real processes (stress, referee, tournaments) depend on
//! the clock only through generous limits.

mod abuse;
mod checkers;
mod cli;
mod corpus;
mod duel;
mod duel_search;
mod findings;
mod footholds;
mod layout;
mod new_game2;
mod planted;
mod properties;
mod referee;
mod robots;
mod stress;
mod stress_any;
mod support;
