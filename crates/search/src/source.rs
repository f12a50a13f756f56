//! Case sources: where the cases of a search come from, each at a position
//! 0, 1, 2, ... of the source's own order. The driver hands out positions;
//! a source turns them into cases and names them ([`Address`]).
//!
//! The order is what makes a search reproducible: the failure a search
//! reports is the one at the lowest position, whatever the jobs and the
//! clock did, and a case cap takes the first positions.

use super::Address;
use std::ops::Range;

/// What a source made at a position.
#[derive(Debug)]
pub enum Made<C> {
    Case(C),
    /// No case here (a generator that could not use its bytes): not counted.
    Nothing,
    /// The source's own failure (a user's generator that crashed), which
    /// stops the search: not a failure of what is checked.
    Problem(String),
}

/// A source of cases, in an order of positions.
pub trait CaseSource: Sync {
    type Case: Send;

    /// The cases at `positions`, each with its position, in order. A
    /// position that makes nothing may be left out rather than given as
    /// [`Made::Nothing`] (an enumeration whose indexes mostly decode to no
    /// case).
    fn cases(&self, positions: Range<u64>, out: &mut Vec<(u64, Made<Self::Case>)>);

    /// How the case at `position` is named.
    fn address(&self, position: u64) -> Address;

    /// The position of a case named `address`, when this source has it.
    fn position(&self, address: &Address) -> Option<u64>;

    /// The case named `address`, when this source can make it (what
    /// `--case` replays).
    fn case_at(&self, address: &Address) -> Option<Made<Self::Case>> {
        let position = self.position(address)?;
        let mut made = Vec::new();
        self.cases(position..position + 1, &mut made);
        Some(made.pop().map_or(Made::Nothing, |(_, case)| case))
    }

    /// How many positions there are; `None`: no end.
    fn positions(&self) -> Option<u64> {
        None
    }

    /// What a position is, in the plural, for the progress line's `N of M`:
    /// `cases` unless some positions hold none (an enumeration's indexes).
    fn unit(&self) -> &'static str {
        "cases"
    }

    /// How many cases the positions hold, when that differs in kind from
    /// the positions ([`CaseSource::unit`]) and is known before the run
    /// (an enumeration's levels, by their own count): what the estimate
    /// names beside the positions, so that a banner counting cases and a
    /// progress line counting indexes read as one run. `None`: not known.
    fn cases_among(&self) -> Option<u64> {
        None
    }

    /// The sizes of a source made of levels (an enumeration), in order,
    /// each with the position its level ends at (exclusive) on this
    /// machine: what lets the estimate say how long each size takes.
    /// Empty for a source without sizes.
    fn level_ends(&self) -> Vec<(u32, u64)> {
        Vec::new()
    }

    /// The number of the case at `position` among the cases of every
    /// machine of a run split over several (what a case cap counts): the
    /// position itself unless the source splits.
    fn overall(&self, position: u64) -> u64 {
        position
    }
}
