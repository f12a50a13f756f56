//! The user's generator as the source of a stress's cases (position `n`
//! is the input it prints for seed `SEED + n`), and the checks on it, since
//! its seed is the only name a case has: the same seed must make the same
//! input (checked again on each failing seed, since the report tells the
//! user that `GEN SEED` makes it), and different seeds should make
//! different inputs (checked over the first cases of the run). Either
//! failing is a warning, not an error: the failure found is real whatever
//! the generator does, and the exit code stays what the solution earned.

use crate::shrink::fingerprint;
use crate::tool;
use lockstep_process::Resources;
use lockstep_search::Plan;
use lockstep_search::{Address, CaseSource, Made};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The user's generator, run with a seed as its last argument (testlib's
/// convention): the inputs of a stress of any problem, and the tests of an
/// interactive one.
pub struct Generator {
    /// The command, without the seed.
    pub(crate) command: String,
    /// The seed of position 0.
    pub(crate) seed: u64,
    /// The generator's limits per run.
    pub(crate) limits: Resources,
    /// Where every input goes as `SEED.in`, when asked.
    pub(crate) dump: Option<PathBuf>,
    /// What an input is called in messages: `input`, or `test`.
    pub(crate) what: &'static str,
    /// The first inputs, for the warning of one input for every seed.
    pub(crate) sample: InputSample,
    /// Nanoseconds spent in the generator, over all jobs.
    pub(crate) time: AtomicU64,
}

impl Generator {
    /// The generator `command` as the source of a stress's cases (`what`
    /// each is called), from the plan's seed.
    pub(crate) fn new(
        command: &str,
        plan: &Plan,
        limits: Resources,
        dump: Option<PathBuf>,
        what: &'static str,
    ) -> Generator {
        Generator {
            command: command.to_string(),
            seed: plan.seed,
            limits,
            dump,
            what,
            sample: InputSample::default(),
            time: AtomicU64::new(0),
        }
    }

    /// The input of seed `seed`, case `n` of the run: dumped when asked,
    /// sampled for the warning, its time counted.
    fn made(&self, n: u64, seed: u64) -> Made<Printed> {
        let generator = self.for_seed(seed);
        let (made, took) = tool(&generator, "", self.limits);
        self.time
            .fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
        match made {
            Ok(run) => {
                if let Some(dir) = &self.dump {
                    // Best effort: a full disk must not stop the run.
                    let _ = std::fs::write(dir.join(format!("{seed}.in")), &run.stdout);
                }
                self.sample.record(n, seed, &run.stdout);
                Made::Case(Printed {
                    seed,
                    text: run.stdout,
                })
            }
            Err(e) => Made::Problem(format!(
                "the generator failed on seed {seed} (`{generator}`): {e}"
            )),
        }
    }

    /// The generator's command for one seed.
    pub(crate) fn for_seed(&self, seed: u64) -> String {
        format!("{} {seed}", self.command)
    }

    /// Runs the generator on `seed` once more: a warning that names the
    /// problem if it does not make `original` again.
    pub(crate) fn rerun_warning(&self, seed: u64, original: &str) -> Option<String> {
        let generator = self.for_seed(seed);
        let what = self.what;
        match tool(&generator, "", self.limits).0 {
            Ok(run) if run.stdout == original => None,
            Ok(run) => Some(format!(
                "the generator made a different {what} when run again on seed {seed} ({} bytes, then {}): `{generator}` does not make the failing {what} again; the generator ignores its seed or reads the clock or an unseeded random source (--dump DIR keeps every {what} as it was generated)",
                original.len(),
                run.stdout.len()
            )),
            Err(e) => Some(format!(
                "the generator failed when run again on seed {seed} (`{generator}`), so it may not make the failing {what} again: {e}"
            )),
        }
    }
}

/// What the user's generator printed for a seed: the seed comes along, so
/// that every report can say how to make the case again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Printed {
    pub seed: u64,
    pub text: String,
}

impl CaseSource for Generator {
    type Case = Printed;

    fn cases(&self, positions: std::ops::Range<u64>, out: &mut Vec<(u64, Made<Printed>)>) {
        for n in positions {
            out.push((n, self.made(n, self.seed.wrapping_add(n))));
        }
    }

    fn address(&self, position: u64) -> Address {
        Address::Seed(self.seed.wrapping_add(position))
    }

    fn position(&self, address: &Address) -> Option<u64> {
        match *address {
            Address::Seed(seed) => seed.checked_sub(self.seed),
            _ => None,
        }
    }

    /// Any seed's input, whatever the run's first seed.
    fn case_at(&self, address: &Address) -> Option<Made<Printed>> {
        let Address::Seed(seed) = *address else {
            return None;
        };
        Some(self.made(seed.wrapping_sub(self.seed), seed))
    }
}

/// Cases sampled for repeated inputs: the first ones of a run (by index).
/// A broken generator shows at once, and a run of millions of cases keeps
/// no more than this many fingerprints.
pub(crate) const SAMPLED_CASES: u64 = 1000;

/// Repeats of one input that make a warning, when they are also more than
/// half the sample: a small format repeats inputs by chance (one of nine
/// one-number inputs, a few times in a thousand), never most of them.
pub(crate) const SAME_INPUTS: usize = 8;

/// The cases sampled so far (see [`SAMPLED_CASES`]).
#[derive(Default)]
pub(crate) struct InputSample {
    seen: Mutex<Sample>,
}

#[derive(Default)]
struct Sample {
    cases: usize,
    /// By the input's fingerprint: how many cases made it, and the two
    /// lowest seeds that did.
    inputs: HashMap<(usize, u64), (usize, [u64; 2])>,
}

impl InputSample {
    /// Notes the input of case `n` (seed `seed`), if it is in the sample.
    pub(crate) fn record(&self, n: u64, seed: u64, input: &str) {
        if n >= SAMPLED_CASES {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.cases += 1;
        let (count, low) = seen
            .inputs
            .entry(fingerprint(input))
            .or_insert((0, [u64::MAX; 2]));
        *count += 1;
        // The two lowest seeds, whatever order the jobs met them in.
        if seed < low[0] {
            *low = [seed, low[0]];
        } else if seed < low[1] {
            low[1] = seed;
        }
    }

    /// The warning, if one input came back for most of the sampled seeds.
    pub(crate) fn warning(&self) -> Option<String> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let cases = seen.cases;
        let &(count, [a, b]) = seen.inputs.values().max_by_key(|v| v.0)?;
        (count >= SAME_INPUTS && count * 2 > cases).then(|| {
            format!(
                "the generator printed the same input for {count} of the {cases} seeds it was run on ({a} and {b} among them): it does not seem to read its seed, the last argument, so the run tried fewer inputs than it counted"
            )
        })
    }
}

#[cfg(test)]
mod tests;
