//! The driver traits: what one driver alone reads of a puzzle, each a
//! small trait with every item defaulted. A puzzle implements one when its
//! list entry has the trait's flag; the list
//! ([`for_each_puzzle!`](crate::for_each_puzzle)) gives every other puzzle
//! the defaults. `shrink::Sideways`, the shrinker's, lives with the shrinker.

use super::{Puzzle, Run};
use lockstep_reference::Fuel;

/// What `lockstep solve` alone reads: the reference's budget for one input,
/// and, for a puzzle whose answer comes from steps a person can follow
/// (list flag `trace`), `--trace`'s account. A puzzle without the flag gets
/// the defaults from the list; one that sets its budget has steps to trace
/// (the flag also says, to `solve` and `stress`, that an account exists).
pub trait Traceable: Puzzle {
    /// The reference's budget for one input of `lockstep solve --reference`
    /// or `--trace` (the command's `--fuel` replaces it): far above
    /// [`Puzzle::FUEL`], so that any input the reference finishes in
    /// seconds is solved, yet bounded, so that a hopeless one stops with a
    /// message (within about a minute of a debug build) instead of running
    /// for hours.
    const SOLVE_FUEL: u64 = Self::FUEL.saturating_mul(1_000);

    /// The reference's account of a case, step by step in the rule page's
    /// words, ending with its judge output: what `lockstep solve --trace`
    /// prints, so that a person can follow a shrunk case to the step where a
    /// program goes wrong. It shows the starting position and, after each
    /// step, whatever the next step depends on (a piece's direction, the
    /// debris, the cool-downs): the state a bug hides in. `None` when the
    /// reference runs out of `fuel`, one budget for the whole case as
    /// [`lockstep_reference::Naive::solve_naively`]'s (and for a puzzle without steps).
    fn trace(_case: &Self::Case, _fuel: &mut Fuel) -> Option<String> {
        None
    }
}

/// A puzzle whose judge format takes several cases as one input (list flag
/// `join`: robots' and footholds' games, checkers' instances): what lets
/// `stress --exhaustive` run a program once over many small cases.
pub trait Joinable: Puzzle {
    /// Several cases as one judge input; its answer is theirs in order.
    /// `None`: one case an input (the default).
    fn join(_cases: &[Self::Case]) -> Option<Self::Case> {
        None
    }
}

/// A puzzle whose rule branches come from the core's own work (list flag
/// `counting`: the duel's events, the matrix game's equilibrium): a
/// campaign that counts branches then runs the core once a case, not
/// twice. A puzzle without the flag gets the default: counted apart.
pub trait Counting: Puzzle {
    /// The core's run of `case` (what [`lockstep_core::Model::solve`] returns) together
    /// with [`Puzzle::rule_branches`] of it, from that one run. It must go
    /// through the same core function as `Model::solve`, which only
    /// forwards to it. `None`, the default: the branches are counted apart.
    fn solve_counting(_case: &Self::Case) -> Option<(Run<Self::Answer>, u64)> {
        None
    }
}

/// What `lockstep verify` alone reads of a puzzle beyond its levels (list
/// flag `verifiable`); a puzzle without the flag gets the defaults.
pub trait Verifiable: Puzzle {
    /// The branches of [`Puzzle::RULE_BRANCHES`]
    /// that `verify`'s levels are not asked to reach, each with where it is
    /// checked instead: a branch only inputs beyond the statement's limits
    /// reach, or one behind a constant no small input comes near. `verify`
    /// leaves them out of its count of branches to reach and prints the
    /// reason; the rule page says more. Most puzzles have none.
    const CHECKED_ELSEWHERE: &'static [(&'static str, &'static str)] = &[];

    /// Each part of a case as a case of its own (the duel's lines, checkers'
    /// instances, each answered alone): verify keeps the first part of its
    /// first failing case that fails alone. Default: none, kept whole.
    fn parts(_case: &Self::Case) -> Vec<Self::Case> {
        Vec::new()
    }

    /// How many parts `parts` gives, without making them (1 for a case
    /// kept whole): verify reads back every case below index 1,024 / parts.
    fn part_count(_case: &Self::Case) -> usize {
        1
    }

    /// Folds the core's answer into a `lockstep verify` certificate's
    /// digest: its `Hash` by default, or its fields a few to a word (the
    /// duel). Different answers must push different words somewhere.
    fn hash_answer(answer: &Self::Answer, digest: &mut lockstep_core::digest::Digest) {
        std::hash::Hash::hash(answer, digest);
    }
}
