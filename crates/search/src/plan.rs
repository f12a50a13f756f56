//! A search's plan, the one set of settings every command that searches
//! carries (seed, time, case cap, jobs, progress, keep-going, shrink
//! budget, shard, one case asked for), and how a search is split over
//! machines.

use super::Address;
use crate::shrinking::Budget;

/// How a search runs: what every command's options carry.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The seed the source draws its cases from.
    pub seed: u64,
    /// Every case up to a size (`lockstep verify`); `None`: the generator's.
    pub enumerate: Option<Enumeration>,
    /// The time budget in seconds (infinite: none).
    pub seconds: f64,
    /// The first this many cases at most (over every machine of a shard).
    pub max_cases: Option<u64>,
    /// Threads checking cases at once.
    pub jobs: usize,
    /// A live progress line on stderr.
    pub progress: bool,
    /// Go on after a failure: every failure is counted under its kind, and
    /// the first of each kind is kept.
    pub keep_going: bool,
    /// What shrinking one kept failure may cost.
    pub shrink: Budget,
    /// This machine's share of a search spread over several.
    pub shard: Shard,
    /// Check only this case (as a report printed its address).
    pub only: Option<Address>,
}

/// Which levels an enumeration runs: every case of sizes `from` to
/// `up_to`, one case of each symmetry class when `symmetry` says so. A run
/// that stopped resumes at its first unfinished level (`from`), since each
/// level's certificate stands on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enumeration {
    pub from: u32,
    pub up_to: u32,
    pub symmetry: bool,
    /// The index of size `from`'s level the run starts at: 0 for the whole
    /// level, or where a stopped run resumes (`--from 'size S case I'`).
    pub start: u64,
}

impl Plan {
    /// A plan of `max_cases` cases from `seed` on `jobs` jobs, quiet, stopping
    /// at the first failure, shrinking within `shrink`.
    pub fn cases(seed: u64, max_cases: u64, jobs: usize, shrink: Budget) -> Plan {
        Plan {
            seed,
            seconds: f64::INFINITY,
            max_cases: Some(max_cases),
            jobs,
            progress: false,
            keep_going: false,
            shrink,
            shard: Shard::WHOLE,
            only: None,
            enumerate: None,
        }
    }
}

/// Machine `index` of `count` (0-based) in one search spread over machines,
/// each running `jobs` jobs: machine K runs the global jobs `K * jobs ..
/// (K + 1) * jobs`, so the machines together run exactly the cases of one
/// unsharded run with `count * jobs` jobs, none twice, and an address names
/// the same case on every machine. A batch system's array index (a GitHub
/// Actions matrix, a Kubernetes indexed Job, a Slurm array) is the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole search on one machine.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The global jobs this machine runs when each machine runs `jobs`.
    pub fn jobs(self, jobs: u64) -> std::ops::Range<u64> {
        self.index * jobs..(self.index + 1) * jobs
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = crate::address::BadValue;

    /// `K/N` with `0 <= K < N`.
    fn from_str(text: &str) -> Result<Shard, crate::address::BadValue> {
        parse_shard(text).map_err(crate::address::BadValue)
    }
}

/// [`Shard::from_str`], its error in words.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let (index, count) = text
        .split_once('/')
        .ok_or_else(|| format!("expected K/N (machine K of N, from 0), found {text:?}"))?;
    let number = |part: &str, what: &str| {
        part.trim().parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{what} in {text:?} is too large (at most {})", u64::MAX)
            }
            _ => format!("{what} in {text:?} is not a whole number"),
        })
    };
    let (index, count) = (number(index, "K")?, number(count, "N")?);
    if count == 0 || index >= count {
        return Err(format!(
            "machine {index} of {count}: K counts from 0 and must be below N (N at least 1)"
        ));
    }
    Ok(Shard { index, count })
}
