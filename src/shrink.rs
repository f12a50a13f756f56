//! Greedy shrinking: reduce a failing case to a local minimum.
//!
//! The puzzle proposes simpler variants of a case (drop a piece, whiten a cell,
//! shrink the board, ...), most promising first. The first variant that still fails
//! replaces the case, and the search starts over from it; it ends when no variant
//! fails, i.e. at a case every one of whose proposed simplifications passes. The
//! predicate is arbitrary, so the same loop serves the differential check, the
//! deliberately broken solvers in the tests, and (later) external programs.

use crate::puzzle::Puzzle;

/// The shrunk case and how many candidates were tried on the way.
#[derive(Debug, Clone)]
pub struct Shrunk<C> {
    pub case: C,
    pub attempts: usize,
    pub steps: usize,
}

/// Shrinks `case` while `still_fails` holds, trying at most `max_attempts` candidates.
pub fn shrink<P: Puzzle>(
    case: P::Case,
    mut still_fails: impl FnMut(&P::Case) -> bool,
    max_attempts: usize,
) -> Shrunk<P::Case> {
    let mut current = case;
    let mut attempts = 0;
    let mut steps = 0;
    'outer: loop {
        for candidate in P::shrink_candidates(&current) {
            if attempts >= max_attempts {
                break 'outer;
            }
            attempts += 1;
            if still_fails(&candidate) {
                current = candidate;
                steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    Shrunk {
        case: current,
        attempts,
        steps,
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

/// Shrinks a case on which `core` and the reference disagree, keeping it a
/// disagreement.
pub fn shrink_divergence<P: Puzzle>(
    case: P::Case,
    core: fn(&P::Case) -> crate::puzzle::Run<P::Answer>,
) -> Shrunk<P::Case> {
    shrink::<P>(
        case,
        |c| crate::puzzle::check_with::<P>(c, core, P::FUEL).is_divergence(),
        DEFAULT_MAX_ATTEMPTS,
    )
}

/// Enough for every puzzle's cases to reach a local minimum in practice; a bound so
/// that a pathological case cannot stall a campaign.
pub const DEFAULT_MAX_ATTEMPTS: usize = 20_000;
