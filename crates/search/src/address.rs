//! How a case is named: the one way every report prints where a case came
//! from, and every `--case` reads it back, so that a case is replayed as it
//! was printed. `job 0 case 32`, not `0.32`, which reads as a decimal.

use std::fmt;

/// Where a case came from, in the words of the source that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Address {
    /// Case `index` of job `job` under a seed: the bytes
    /// `seeds::case_bytes(seed, job, index)` through the puzzle's generator
    /// (`job 0 case 32`). The job is global: among all machines' of a
    /// sharded run.
    Stream { job: u64, index: u64 },
    /// The input a user's generator prints for this seed (`seed 5004`).
    Seed(u64),
    /// Game `n` of a bot's stress (`game 12`).
    Game(u64),
    /// Case `index` (from 0) of the cases of size `size`, in the
    /// enumeration's order (`size 3 case 1200`).
    Sized { size: u32, index: u64 },
}

impl Address {
    /// `Ok` when `address`, if any, is named as a source whose cases look
    /// like `example` names its cases (a `--case` value checked before a
    /// run); else the error to print.
    pub fn check_kind(address: Option<&Address>, example: Address) -> Result<(), BadValue> {
        match address {
            Some(a) if std::mem::discriminant(a) != std::mem::discriminant(&example) => {
                Err(BadValue(format!(
                    "--case {a}: this command names its cases like `{example}`"
                )))
            }
            _ => Ok(()),
        }
    }

    /// The address as a file name's stem, for the files `--dump` writes:
    /// `0-32` (job 0 case 32), `5004` (seed 5004), `game-12`, `size-3-1200`.
    pub fn file_stem(&self) -> String {
        match self {
            Address::Stream { job, index } => format!("{job}-{index}"),
            Address::Seed(seed) => seed.to_string(),
            Address::Game(game) => format!("game-{game}"),
            Address::Sized { size, index } => format!("size-{size}-{index}"),
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Stream { job, index } => write!(f, "job {job} case {index}"),
            Address::Seed(seed) => write!(f, "seed {seed}"),
            Address::Game(game) => write!(f, "game {game}"),
            Address::Sized { size, index } => write!(f, "size {size} case {index}"),
        }
    }
}

impl std::str::FromStr for Address {
    type Err = BadValue;

    /// An address as [`Address`] prints it; words are separated by spaces
    /// (any number), so `--case "job 0 case 32"` reads what a report said.
    fn from_str(text: &str) -> Result<Address, BadValue> {
        parse_address(text).map_err(BadValue)
    }
}

/// [`Address::from_str`], its error in words.
fn parse_address(text: &str) -> Result<Address, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |word: &str| {
        word.parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{word:?} in {text:?} is too large (at most {})", u64::MAX)
            }
            _ => format!("{word:?} in {text:?} is not a whole number"),
        })
    };
    match words.as_slice() {
            ["job", job, "case", index] => Ok(Address::Stream {
                job: number(job)?,
                index: number(index)?,
            }),
            ["seed", seed] => Ok(Address::Seed(number(seed)?)),
            ["game", game] => Ok(Address::Game(number(game)?)),
            ["size", size, "case", index] => Ok(Address::Sized {
                size: u32::try_from(number(size)?)
                    .map_err(|_| format!("size {size} in {text:?} is too large"))?,
                index: number(index)?,
            }),
            _ => Err(format!(
                "{text:?} is not a case's address: expected `job J case I`, `seed S`, `game G` or `size K case I`, as a report prints them"
            )),
        }
}

#[cfg(test)]
mod tests;

/// A value lockstep cannot read (`--case`, `--shard`): what, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadValue(pub String);

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadValue {}
