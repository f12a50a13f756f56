//! lockstep-core: what each puzzle *is*, and how to solve it fast.
//!
//! Per puzzle (one module each, named as in `lockstep-reference` and the harness):
//! the model types, the judge-format parser (line-numbered errors) and printer, and
//! an optimised solver. The naive reference solvers in `lockstep-reference` use the
//! model and I/O from here, never the solvers, so that a bug in the fast code has no
//! way to hide in code both sides share.
//!
//! The crate is std only: a core module can be pasted into a judge submission
//! (with `input.rs`, `digest.rs` and the [`Run`] and [`Model`] below).
//!
//! Every puzzle's case type implements [`Model`]: its judge-format input and
//! answer, and its fast solver, which returns a [`Run`]. The harness takes a
//! puzzle's I/O and core from there, so that an adapter is only what the
//! harness adds (a generator, a shrinker, a divergence report).

pub mod checkers;
pub mod checkers_perft;
pub mod digest;
pub mod duel;
pub mod duel_search;
pub mod footholds;
pub mod input;
pub mod matrix_game;
pub mod new_game2;
pub mod robots;

/// What a solver returns: its answer and a digest of its step trace
/// ([`digest::Digest`]), 0 for puzzles without a comparable trace. The core and
/// the naive reference return the same type, so the harness compares them
/// field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run<A> {
    pub answer: A,
    pub digest: u64,
}

/// A puzzle as a judge sees it, implemented by the puzzle's case type: the
/// judge-format input read and written, the answer written, and the fast
/// solver.
pub trait Model: Sized {
    type Answer;

    /// Reads a case in the judge format; errors name the line.
    fn parse(text: &str) -> Result<Self, input::InputError>;
    /// Writes the case in the judge format.
    fn write_input(&self) -> String;
    /// Writes an answer exactly as a judge expects it.
    fn write_answer(answer: &Self::Answer) -> String;
    /// The fast solver.
    fn solve(&self) -> Run<Self::Answer>;
}
