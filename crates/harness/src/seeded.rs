//! The sources of a puzzle's cases: the seeded generator ([`Seeded`]) and
//! every case up to a size ([`crate::enumerated::Enumerated`]), and
//! [`puzzle_cases`], the one place the commands that check a puzzle's cases
//! pick between them.

use crate::puzzle::{CaseLimits, CaseWithReference, Puzzle};
use lockstep_search::{Address, CaseSource, Made, Plan, Shard};
use std::ops::Range;

/// The cases of puzzle `P` that `plan` asks for, within `limits`: the one
/// place the commands that check a puzzle's cases (`fuzz`, `stress PUZZLE`)
/// get their source. A new source of puzzle cases is a type here and a
/// branch on the plan below; no command changes. Today: the seeded
/// generator, or every case up to a size ([`crate::enumerated::Enumerated`]).
pub fn puzzle_cases<P: Puzzle>(
    plan: &Plan,
    limits: CaseLimits,
) -> Box<dyn CaseSource<Case = CaseWithReference<P>>> {
    match plan.enumerate {
        None => Box::new(Seeded::<P>::new(plan, limits)),
        Some(_) => Box::new(crate::enumerated::Enumerated::<P>::new(
            plan,
            P::LEVELS,
            limits,
        )),
    }
}

/// The seeded generator: position `n` is case `n / jobs` of job `n % jobs`
/// (of this machine's jobs in a sharded run), its bytes from
/// [`lockstep_search::seeds::case_bytes`] through the puzzle's generator. With one
/// job the positions are the cases of job 0 in order; with J jobs the
/// streams of the J jobs are interleaved, so the first N positions are the
/// same cases whichever job checks them.
pub struct Seeded<P> {
    seed: u64,
    limits: CaseLimits,
    /// This machine's jobs, the first one's global number, and every
    /// machine's jobs.
    jobs: u64,
    first_job: u64,
    all_jobs: u64,
    puzzle: std::marker::PhantomData<fn() -> P>,
}

impl<P: Puzzle> Seeded<P> {
    /// The generator's cases under `plan`'s seed, jobs and shard, within
    /// `limits`.
    pub fn new(plan: &Plan, limits: CaseLimits) -> Seeded<P> {
        let jobs = plan.jobs.max(1) as u64;
        Seeded::with_jobs(plan.seed, limits, jobs, plan.shard)
    }

    /// The cases of `jobs` jobs on machine `shard` under `seed`.
    pub fn with_jobs(seed: u64, limits: CaseLimits, jobs: u64, shard: Shard) -> Seeded<P> {
        Seeded {
            seed,
            limits,
            jobs,
            first_job: shard.jobs(jobs).start,
            all_jobs: jobs * shard.count,
            puzzle: std::marker::PhantomData,
        }
    }

    /// Case `index` of global job `job` (`buf` the bytes' room).
    fn made(&self, job: u64, index: u64, buf: &mut [u8]) -> Made<CaseWithReference<P>> {
        let made = crate::generate::generate_case_with_reference::<P>(
            self.seed,
            job,
            index,
            buf,
            self.limits,
        );
        made.map_or(Made::Nothing, Made::Case)
    }

    /// The global job and the index of the case at `position`.
    fn coordinates(&self, position: u64) -> (u64, u64) {
        (self.first_job + position % self.jobs, position / self.jobs)
    }
}

impl<P: Puzzle> CaseSource for Seeded<P> {
    type Case = CaseWithReference<P>;

    fn cases(&self, positions: Range<u64>, out: &mut Vec<(u64, Made<Self::Case>)>) {
        let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
        for position in positions {
            let (job, index) = self.coordinates(position);
            out.push((position, self.made(job, index, &mut buf)));
        }
    }

    fn address(&self, position: u64) -> Address {
        let (job, index) = self.coordinates(position);
        Address::Stream { job, index }
    }

    fn position(&self, address: &Address) -> Option<u64> {
        match *address {
            Address::Stream { job, index } => {
                let local = job.checked_sub(self.first_job).filter(|&j| j < self.jobs)?;
                index.checked_mul(self.jobs)?.checked_add(local)
            }
            _ => None,
        }
    }

    fn overall(&self, position: u64) -> u64 {
        let (job, index) = self.coordinates(position);
        index.saturating_mul(self.all_jobs).saturating_add(job)
    }

    /// Any job's case, whatever this machine's jobs: a case's bytes depend
    /// on its seed, job and index alone.
    fn case_at(&self, address: &Address) -> Option<Made<Self::Case>> {
        let Address::Stream { job, index } = *address else {
            return None;
        };
        Some(self.made(
            job,
            index,
            &mut vec![0u8; lockstep_search::seeds::CASE_BYTES],
        ))
    }
}

#[cfg(test)]
mod tests;
