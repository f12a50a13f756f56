//! Greedy shrinking: reduce a failing case to a local minimum.
//!
//! The puzzle proposes simpler variants of a case (drop a piece, whiten a cell,
//! shrink the board, ...), most promising first. The first variant that still fails
//! replaces the case, and the search starts over from it; it ends when no variant
//! fails, i.e. at a case every one of whose proposed simplifications passes. The
//! predicate is arbitrary, so the same loop serves the differential check, the
//! deliberately broken solvers in the tests, and (later) external programs.

use crate::puzzle::Puzzle;

/// A puzzle whose answer comes from playing a game (list flag `sideways`):
/// among failing cases of one size, the shrinker keeps the one whose game
/// ends soonest, since a person follows a 20-turn trace, not a 115-turn
/// one. A puzzle without the flag gets the defaults (no game, no variant).
pub trait Sideways: Puzzle {
    /// How long a case's game goes on, by the reference (turns, moves);
    /// `None` when the reference runs out of fuel.
    fn game_length(_case: &Self::Case) -> Option<u64> {
        None
    }

    /// Variants of a case of the same size ([`Puzzle::shrink_candidates`]
    /// neither drops nor plains anything in them: a piece turned, say), which
    /// the shrinker tries at a local minimum and keeps only when it fails
    /// and its game ends sooner ([`Sideways::game_length`]). Since each kept
    /// one is as small and strictly shorter, shrinking still ends.
    fn sideways(_case: &Self::Case) -> Vec<Self::Case> {
        Vec::new()
    }
}

pub use lockstep_search::shrinking::{Budget, Shrunk, Stop};

/// Shrinks `case` while `still_fails` holds, trying at most `max_attempts` candidates.
pub fn shrink<P: Sideways>(
    case: P::Case,
    still_fails: impl FnMut(&P::Case) -> bool,
    max_attempts: usize,
) -> Shrunk<P::Case> {
    shrink_within::<P>(
        case,
        still_fails,
        Budget {
            attempts: max_attempts,
            time: None,
        },
    )
}

/// Shrinks `case` while `still_fails` holds, within `budget`; the result says
/// whether it reached a local minimum or was cut off.
pub fn shrink_within<P: Sideways>(
    case: P::Case,
    mut still_fails: impl FnMut(&P::Case) -> bool,
    budget: Budget,
) -> Shrunk<P::Case> {
    let deadline = budget.time.map(|t| std::time::Instant::now() + t);
    let mut current = case;
    let mut attempts = 0;
    let mut steps = 0;
    let stop = 'outer: loop {
        // The candidates, then, once none of them fails (a local minimum by
        // size), the cases of its size one step sideways whose game ends
        // sooner: worked out only when reached (a game's length is a run
        // of the reference).
        let sideways = std::iter::once(&current).flat_map(|case| {
            let length = P::game_length(case);
            P::sideways(case).into_iter().filter(move |candidate| {
                length.is_some_and(|length| P::game_length(candidate).is_some_and(|l| l < length))
            })
        });
        for candidate in P::shrink_candidates(&current).into_iter().chain(sideways) {
            if attempts >= budget.attempts {
                break 'outer Stop::Attempts;
            }
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break 'outer Stop::Time;
            }
            // A signal stops shrinking within a candidate: what failed so
            // far is the finding.
            if lockstep_stop::interrupted() {
                break 'outer Stop::Interrupted;
            }
            attempts += 1;
            let fails = still_fails(&candidate);
            // A signal during the candidate's check (a program killed under
            // it) makes its verdict the kill's: not kept.
            if lockstep_stop::interrupted() {
                break 'outer Stop::Interrupted;
            }
            if fails {
                current = candidate;
                steps += 1;
                continue 'outer;
            }
        }
        break Stop::LocalMinimum;
    };
    Shrunk {
        case: current,
        attempts,
        steps,
        stop,
    }
}

/// For a case made of parts (games, instances): each part alone, then the parts
/// with one left out. A failing multi-part input usually fails because of one part,
/// so the single parts come first.
pub fn fewer_parts<T: Clone>(parts: &[T]) -> Vec<Vec<T>> {
    if parts.len() < 2 {
        return Vec::new();
    }
    let alone = parts.iter().map(|part| vec![part.clone()]);
    let without = (0..parts.len()).map(|drop| {
        let mut rest = parts.to_vec();
        rest.remove(drop);
        rest
    });
    alone.chain(without).collect()
}

/// A grid's cells, kept row by row with `width` cells a row, without row
/// `row` (`Some`) or without column `column`: what a shrinker of a grid
/// (a board, a matrix) tries.
pub fn without_line<T: Copy>(
    cells: &[T],
    width: usize,
    row: Option<usize>,
    column: Option<usize>,
) -> Vec<T> {
    (0..cells.len())
        .filter(|i| Some(i / width) != row && Some(i % width) != column)
        .map(|i| cells[i])
        .collect()
}

/// The variants of a case made of parts (games, instances): the case with
/// fewer parts ([`fewer_parts`]), then each part in turn replaced by each
/// simpler part that `simpler` offers (through the function it is given),
/// the rest unchanged. `make` builds a case from its parts.
pub fn part_variants<T: Clone, C>(
    parts: &[T],
    make: impl Fn(Vec<T>) -> C,
    mut simpler: impl FnMut(&T, &mut dyn FnMut(T)),
) -> Vec<C> {
    let mut out: Vec<C> = fewer_parts(parts).into_iter().map(&make).collect();
    for (i, part) in parts.iter().enumerate() {
        simpler(part, &mut |changed| {
            let mut next = parts.to_vec();
            next[i] = changed;
            out.push(make(next));
        });
    }
    out
}

/// Shrinks a case on which `core` and the reference disagree, keeping it a
/// disagreement.
pub fn shrink_divergence<P: Sideways>(
    case: P::Case,
    core: fn(&P::Case) -> crate::puzzle::Run<P::Answer>,
    limits: crate::puzzle::CaseLimits,
) -> Shrunk<P::Case> {
    shrink::<P>(
        case,
        |c| {
            limits.admits::<P>(c)
                && crate::puzzle::check_with::<P>(c, core, P::FUEL).is_divergence()
        },
        DEFAULT_MAX_ATTEMPTS,
    )
}

/// Enough for every puzzle's cases to reach a local minimum in practice; a bound so
/// that a pathological case cannot stall a campaign.
pub const DEFAULT_MAX_ATTEMPTS: usize = 20_000;

/// A disagreement's shrink: [`DEFAULT_MAX_ATTEMPTS`] candidates, no clock
/// (each is a run of two in-process solvers).
pub const DIFFERENTIAL_BUDGET: Budget = Budget {
    attempts: DEFAULT_MAX_ATTEMPTS,
    time: None,
};
