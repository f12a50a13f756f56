//! Every case of a puzzle up to a size as a case source: position `n` is
//! the `n`-th coordinate of the levels laid end to end, smallest size
//! first ([`crate::enumerate`]), so the lowest failing position the driver
//! keeps is the smallest failing case of the enumeration. Coordinates that
//! make no valid case, cases outside the run's limits and, with symmetry,
//! cases that are not their class's least member make nothing (no entry):
//! not counted, not checked.
//!
//! A run spread over machines takes every `count`-th position from its
//! `index`: the machines together check each position once, and an address
//! (`size 3 case 17`) names the same case on every machine.

use crate::enumerate::Levels;
use crate::puzzle::{CaseLimits, CaseWithReference, Puzzle};
use lockstep_search::{Address, CaseSource, Made, Plan, Shard};
use std::ops::Range;

/// The cases of sizes `1..=up_to` of puzzle `P`.
pub struct Enumerated<P: Puzzle> {
    levels: Levels<P::Case>,
    /// Each size with its first global position and its span (of the
    /// first size, from `first_index` on).
    sizes: Vec<(u32, u64, u64)>,
    /// The index of the first size's level the run starts at (a resumed
    /// run's `--from 'size S case I'`; 0 otherwise).
    first_index: u64,
    total: u64,
    symmetry: bool,
    limits: CaseLimits,
    shard: Shard,
}

impl<P: Puzzle> Enumerated<P> {
    /// The levels `plan` asks for (its enumeration's `from` to `up_to`).
    pub fn new(plan: &Plan, levels: Levels<P::Case>, limits: CaseLimits) -> Enumerated<P> {
        let enumeration = plan.enumerate.expect("an enumerating plan");
        let mut sizes = Vec::new();
        let mut total = 0u64;
        let first = enumeration.from.max(1);
        let first_index = enumeration.start.min((levels.span)(first));
        for size in first..=enumeration.up_to {
            let skipped = if size == first { first_index } else { 0 };
            let span = (levels.span)(size) - skipped;
            sizes.push((size, total, span));
            total += span;
        }
        Enumerated {
            levels,
            sizes,
            first_index,
            total,
            symmetry: enumeration.symmetry,
            limits,
            shard: plan.shard,
        }
    }

    fn global(&self, position: u64) -> u64 {
        position * self.shard.count + self.shard.index
    }

    /// The size and the index in its level of global position `g`.
    fn coordinates(&self, g: u64) -> (u32, u64) {
        let (size, index, _) = self.located(g);
        (size, index)
    }

    /// [`Enumerated::coordinates`], and the level's span.
    fn located(&self, g: u64) -> (u32, u64, u64) {
        let at = self.sizes.partition_point(|&(_, start, _)| start <= g) - 1;
        let (size, start, span) = self.sizes[at];
        let skipped = self.skipped(at);
        (size, g - start + skipped, span + skipped)
    }

    /// The indexes of the `at`-th size's level before the run's first.
    fn skipped(&self, at: usize) -> u64 {
        match at {
            0 => self.first_index,
            _ => 0,
        }
    }

    /// The case at `size`, `index`, whatever the symmetry and limits.
    fn decoded(&self, size: u32, index: u64) -> Option<P::Case> {
        self.sizes.iter().find(|s| s.0 == size)?;
        (index < (self.levels.span)(size))
            .then(|| (self.levels.case)(size, index))
            .flatten()
    }
}

impl<P: Puzzle> CaseSource for Enumerated<P> {
    type Case = CaseWithReference<P>;

    /// Only the positions that make a case: most indexes make none, and
    /// an entry for each cost the driver more than refusing it.
    fn cases(&self, positions: Range<u64>, out: &mut Vec<(u64, Made<Self::Case>)>) {
        let mut position = positions.start;
        while position < positions.end {
            let (size, index, span) = self.located(self.global(position));
            // Past a run of indexes the level refuses from the index alone:
            // to this machine's first position at or after its end.
            let next = (self.levels.next)(size, index, self.symmetry).min(span);
            if next > index {
                let shard = self.shard;
                let global = self.global(position) + (next - index);
                position = global.saturating_sub(shard.index).div_ceil(shard.count);
                continue;
            }
            position += 1;
            if self.symmetry && !(self.levels.may_pick)(size, index) {
                continue;
            }
            match (self.levels.case)(size, index) {
                Some(case)
                    if self.limits.admits::<P>(&case)
                        && (!self.symmetry || (self.levels.least)(&case).is_some()) =>
                {
                    out.push((position - 1, Made::Case((case, None))));
                }
                _ => {}
            }
        }
    }

    fn address(&self, position: u64) -> Address {
        let (size, index) = self.coordinates(self.global(position));
        Address::Sized { size, index }
    }

    fn position(&self, address: &Address) -> Option<u64> {
        let Address::Sized { size, index } = *address else {
            return None;
        };
        let at = self.sizes.iter().position(|s| s.0 == size)?;
        let (_, start, span) = self.sizes[at];
        let index = index.checked_sub(self.skipped(at))?;
        let g = start + index;
        (index < span && g % self.shard.count == self.shard.index).then_some(g / self.shard.count)
    }

    fn positions(&self) -> Option<u64> {
        let Shard { index, count } = self.shard;
        Some((self.total + count - 1 - index) / count)
    }

    fn overall(&self, position: u64) -> u64 {
        self.global(position)
    }

    /// A level's indexes include those that decode to no case (and, with
    /// symmetry, those that are not their class's pick).
    fn unit(&self) -> &'static str {
        "indexes"
    }

    /// The levels' own count of their cases (every case, each symmetry
    /// class with its images): known for a whole run from the first index
    /// of its first level, not for a machine's share or a run resumed
    /// inside a level.
    fn cases_among(&self) -> Option<u64> {
        (self.shard == Shard::WHOLE && self.first_index == 0).then(|| {
            self.sizes
                .iter()
                .map(|&(size, _, _)| (self.levels.count)(size))
                .sum()
        })
    }

    fn level_ends(&self) -> Vec<(u32, u64)> {
        let Shard { index, count } = self.shard;
        self.sizes
            .iter()
            .map(|&(size, start, span)| {
                // This machine's positions below the level's global end.
                let end = (start + span).saturating_sub(index).div_ceil(count);
                (size, end)
            })
            .collect()
    }

    /// Any case of the levels, as printed, on any machine and whatever its
    /// class: what `--case` replays.
    fn case_at(&self, address: &Address) -> Option<Made<Self::Case>> {
        let Address::Sized { size, index } = *address else {
            return None;
        };
        Some(
            self.decoded(size, index)
                .map_or(Made::Nothing, |case| Made::Case((case, None))),
        )
    }
}
