//! lockstep-reference: deliberately naive solvers, the oracle for the fast core.
//!
//! Each module here is written straight from its puzzle's rules, rule by rule, with
//! plain data structures (grids of `Vec`s, full enumeration, exhaustive search) and
//! no cleverness: readable beats fast. It uses `lockstep-core` for the model types,
//! the judge-format I/O and the trace vocabulary (steps, events, the digest they
//! fold into and duel's per-line digest marker) only, never for solving, so that the two implementations can only
//! agree by both being right (or by both misreading the rules, which the corpus's
//! hand-checked samples guard against). Two documented exceptions: the duel
//! searches maximise core's `duel::evaluate` and `duel::race::evaluate_race`, the
//! objectives both sides' searches share.
//!
//! Module names match `lockstep_core` and the harness: one module per puzzle.
//!
//! The size rule (clippy's `too_many_lines`, 90 lines a function) does not
//! apply here: a rule of the statement is written out whole, in the order
//! the statement gives it, rather than split where a reader must follow it
//! across functions.
#![allow(clippy::too_many_lines)]

pub mod checkers;
pub mod checkers_perft;
pub mod duel;
pub mod duel_search;
pub mod footholds;
pub mod matrix_game;
pub mod new_game2;
pub mod robots;

use lockstep_core::{Model, Run};

/// The naive solver of a puzzle, implemented by the puzzle's case type beside
/// core's [`Model`] (whose I/O it shares): what the harness runs as the
/// oracle. It returns the same [`Run`] as the fast solver.
pub trait Naive: Model {
    /// Solves the case the naive way, within `fuel`.
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel>;
}

/// Returned when a reference solver spends its budget before finishing. The harness
/// counts such a case as a timeout (skipped), never as a disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfFuel;

/// A budget of work units (for example piece moves or search nodes).
#[derive(Debug, Clone, Copy)]
pub struct Fuel(u64);

impl Fuel {
    pub fn new(units: u64) -> Fuel {
        Fuel(units)
    }

    pub fn unlimited() -> Fuel {
        Fuel(u64::MAX)
    }

    /// Spends `units`, or fails when fewer remain.
    pub fn burn(&mut self, units: u64) -> Result<(), OutOfFuel> {
        self.0 = self.0.checked_sub(units).ok_or(OutOfFuel)?;
        Ok(())
    }

    pub fn remaining(&self) -> u64 {
        self.0
    }
}
