//! The registry: every puzzle behind one object-safe face, [`AnyPuzzle`], so the
//! CLI holds a list of `&dyn AnyPuzzle` and never needs to know a puzzle's types.
//! Every method is written once, for all puzzles, in the blanket
//! implementation below. It sits above the adapters (`lockstep_harness::puzzles`) and the
//! drivers it dispatches to, so neither needs the other.

use crate::stress::StressOptions;
use anyhow::Result;
use lockstep_core::input::InputError;
use lockstep_core::Model;
use lockstep_harness::bench::{self, BenchOptions, BenchResult};
use lockstep_harness::campaign::{self, CampaignOptions, NotReproduced};
use lockstep_harness::corpus::{self, Row};
use lockstep_harness::decode::Encoding;
use lockstep_harness::puzzle::{Counting, Joinable, Traceable, Verifiable};
use lockstep_harness::replay::{self, ReplayOutcome};
use lockstep_harness::shrink::Sideways;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod stress;
mod stress_row;
mod summaries;

pub use summaries::*;

/// A puzzle as the command line sees it.
pub trait AnyPuzzle: Sync {
    /// The command-line name, e.g. `new-game2`.
    fn name(&self) -> &'static str;
    /// The module, fuzz target and corpus file stem, e.g. `new_game2`.
    fn module(&self) -> &'static str;
    fn corpus_path(&self, dir: &Path) -> PathBuf;
    /// Judge input to judge output, by the core or the reference (with
    /// no bound on its fuel: for inputs the caller knows to be small, as a
    /// `duel step` line).
    fn solve(&self, input: &str, reference: bool) -> Result<String, InputError>;
    /// The reference's default budget for one input of `lockstep solve
    /// --reference` or `--trace`
    /// ([`Traceable::SOLVE_FUEL`]).
    fn solve_fuel(&self) -> u64;
    /// Judge input to judge output by the reference within `fuel` units;
    /// `Ok(None)` when it runs out.
    fn solve_by_reference(&self, input: &str, fuel: u64) -> Result<Option<String>, InputError>;
    /// The reference's step-by-step account of a judge input within `fuel`
    /// units ([`Traceable::trace`]); `Ok(None)` for
    /// a puzzle with no steps ([`AnyPuzzle::has_trace`]) and when the
    /// reference runs out of fuel.
    fn trace(&self, input: &str, fuel: u64) -> Result<Option<String>, InputError>;
    /// Whether the puzzle's answer comes from steps `trace` can show.
    fn has_trace(&self) -> bool;
    fn fuzz(&self, options: &CampaignOptions) -> CampaignSummary;
    /// The puzzle's levels for `lockstep verify`: what a size holds, and the
    /// largest sizes of `--scope ci` and `--scope night`.
    fn sizes(&self) -> (&'static str, u32, u32);
    /// The last level that holds a case (every level past it is empty).
    fn last_level(&self) -> u32;
    /// `size` as the largest size of a run over the levels (`flag` names
    /// it in the error): refused past the last level, the one place the
    /// levels' sizes are bounded, so that no size makes a run allocate or
    /// count without bound.
    fn check_size(&self, flag: &str, size: u32) -> Result<(), lockstep_search::BadValue> {
        let last = self.last_level();
        if size > last {
            return Err(lockstep_search::BadValue(format!(
                "{}: {flag} {size} is past its last level, {last} (every level past it is empty; `lockstep verify {} --levels` lists them)",
                self.name(),
                self.name()
            )));
        }
        Ok(())
    }
    /// The number of cases of each level from 1 to `up_to`, by the levels'
    /// own count (nothing is checked).
    fn level_counts(&self, up_to: u32) -> Vec<u64>;
    /// Level `size`'s number of indices (valid cases or not: an address
    /// `size S case I` names a case only below it) and of valid cases.
    fn level_span(&self, size: u32) -> (u64, u64);
    fn replay(&self, dir: &Path) -> Result<ReplayOutcome>;
    /// Each row's name and its line in the file.
    fn row_lines(&self, dir: &Path) -> Result<Vec<(String, u64)>>;
    /// Shrinks a diverging case read from judge text or fuzzer bytes;
    /// `provenance` (where the case comes from) goes into the row's note.
    fn shrink(
        &self,
        bytes: &[u8],
        encoding: Encoding,
        provenance: &str,
    ) -> Result<ShrinkSummary, NotReproduced>;
    /// Loads this puzzle's corpus file under `dir`: its number of rows, or why
    /// it does not load. With `writable`, also checks that a row could be
    /// appended ([`corpus::check_writable`]; a missing file then counts as empty).
    fn load(&self, dir: &Path, writable: bool) -> Result<usize>;
    /// Appends a row to this puzzle's corpus under `dir`, or saves it to a
    /// fallback file when that fails ([`corpus::record`]).
    fn record(&self, dir: &Path, row: Row) -> corpus::Recorded;
    /// The rows of a corpus-format file of this puzzle (checked as the
    /// corpus is: every input must parse).
    fn rows(&self, file: &Path) -> Result<Vec<Row>>;
    /// Appends one row to this puzzle's corpus under `dir` ([`corpus::append`]).
    fn append(&self, dir: &Path, row: Row) -> Result<corpus::Appended>;
    fn bench(&self, options: &BenchOptions) -> BenchResult;
    /// Runs a user's program against the oracle (`lockstep stress`).
    fn stress(&self, options: &StressOptions) -> StressSummary;
    /// The list's `referee` flag: a program for it is a bot, stressed
    /// by `lockstep duel stress` (`lockstep_arena::stress`), not `lockstep stress`.
    fn played_through_referee(&self) -> bool;
    /// Those of them verify's levels are not asked to reach, with where each
    /// is checked instead ([`Verifiable::CHECKED_ELSEWHERE`]).
    fn checked_elsewhere(&self) -> &'static [(&'static str, &'static str)];
    /// A campaign distilled into corpus rows ([`corpus::distill`]).
    fn distill(&self, options: &corpus::distill::DistillOptions) -> corpus::distill::Distilled;
    /// Every row of a corpus file of this puzzle as a test for `lockstep
    /// test` (its input, and the expected output as its answer), with the
    /// row's origin and whether its case lies within the original
    /// statement's limits.
    fn corpus_tests(&self, path: &Path) -> Result<Vec<CorpusTest>>;
}

/// A corpus row as a test of `lockstep test`.
pub struct CorpusTest {
    pub origin: corpus::Origin,
    /// The row's note: what it shows, or what it was kept for.
    pub note: String,
    /// Its case lies within the original statement's limits
    /// ([`lockstep_harness::puzzle::Puzzle::within_original`]).
    pub within_original: bool,
    pub test: lockstep_judge::test_set::TestCase,
}

/// A puzzle of the list, with what its flags say of it. `fn() -> P` keeps
/// it `Sync` whatever `P` is: it holds no `P`.
struct Registered<P> {
    puzzle: PhantomData<fn() -> P>,
    /// Its bench extras (`EXTRAS` of its `bench.rs` in the harness, or
    /// [`bench::NO_EXTRAS`]).
    extras: bench::Extras,
    /// The list's `referee` flag.
    referee: bool,
    /// The list's `trace` flag: the puzzle's own
    /// [`Traceable`](lockstep_harness::puzzle::Traceable) gives an account.
    traced: bool,
}

impl<P: Traceable + Verifiable + Sideways + Counting + Joinable> AnyPuzzle for Registered<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn module(&self) -> &'static str {
        P::MODULE
    }

    fn corpus_path(&self, dir: &Path) -> PathBuf {
        corpus::path_for::<P>(dir)
    }

    fn solve(&self, input: &str, reference: bool) -> Result<String, InputError> {
        let case = P::Case::parse(input)?;
        let answer = if reference {
            case.solve_naively(&mut Fuel::unlimited())
                .expect("unlimited fuel does not run out")
                .answer
        } else {
            P::Case::solve(&case).answer
        };
        Ok(P::Case::write_answer(&answer))
    }

    fn solve_fuel(&self) -> u64 {
        <P as Traceable>::SOLVE_FUEL
    }

    fn solve_by_reference(&self, input: &str, fuel: u64) -> Result<Option<String>, InputError> {
        let case = P::Case::parse(input)?;
        Ok(case
            .solve_naively(&mut Fuel::new(fuel))
            .ok()
            .map(|run| P::Case::write_answer(&run.answer)))
    }

    fn trace(&self, input: &str, fuel: u64) -> Result<Option<String>, InputError> {
        Ok(P::trace(&P::Case::parse(input)?, &mut Fuel::new(fuel)))
    }

    fn has_trace(&self) -> bool {
        self.traced
    }

    fn sizes(&self) -> (&'static str, u32, u32) {
        (P::LEVELS.size, P::LEVELS.ci, P::LEVELS.night)
    }

    fn last_level(&self) -> u32 {
        P::LEVELS.last
    }

    fn level_counts(&self, up_to: u32) -> Vec<u64> {
        (1..=up_to).map(P::LEVELS.count).collect()
    }

    fn level_span(&self, size: u32) -> (u64, u64) {
        ((P::LEVELS.span)(size), (P::LEVELS.count)(size))
    }

    fn fuzz(&self, options: &CampaignOptions) -> CampaignSummary {
        CampaignSummary::of::<P>(campaign::run_campaign::<P>(options), options.plan.seed)
    }

    fn replay(&self, dir: &Path) -> Result<ReplayOutcome> {
        replay::replay::<P>(&corpus::path_for::<P>(dir))
    }

    fn row_lines(&self, dir: &Path) -> Result<Vec<(String, u64)>> {
        let rows = corpus::load::<P>(&corpus::path_for::<P>(dir))?;
        Ok(rows.into_iter().map(|l| (l.row.name, l.line)).collect())
    }

    fn shrink(
        &self,
        bytes: &[u8],
        encoding: Encoding,
        provenance: &str,
    ) -> Result<ShrinkSummary, NotReproduced> {
        let finding = campaign::reproduce::<P>(bytes, encoding, P::Case::solve, provenance)?;
        Ok(ShrinkSummary {
            report: format!(
                "{}: shrunk from {} to {}{}\n{}",
                P::NAME,
                P::describe(&finding.original),
                P::describe(&finding.shrunk.case),
                summaries::how_shrunk(finding.shrunk.stop),
                lockstep_text::disagreement_body(
                    &finding.shrunk.case.write_input(),
                    &finding.core_answer,
                    &finding.reference_answer,
                    &finding.explanation.report
                ),
            ),
            row: finding.row,
        })
    }

    fn load(&self, dir: &Path, writable: bool) -> Result<usize> {
        let path = corpus::path_for::<P>(dir);
        if writable {
            corpus::check_writable::<P>(&path)
        } else {
            Ok(corpus::load::<P>(&path)?.len())
        }
    }

    fn record(&self, dir: &Path, row: Row) -> corpus::Recorded {
        corpus::record::<P>(dir, row)
    }

    fn rows(&self, file: &Path) -> Result<Vec<Row>> {
        Ok(corpus::load::<P>(file)?
            .into_iter()
            .map(|l| l.row)
            .collect())
    }

    fn append(&self, dir: &Path, row: Row) -> Result<corpus::Appended> {
        corpus::append::<P>(&corpus::path_for::<P>(dir), row)
    }

    fn bench(&self, options: &BenchOptions) -> BenchResult {
        bench::bench::<P>(options, self.extras)
    }

    fn played_through_referee(&self) -> bool {
        self.referee
    }

    fn checked_elsewhere(&self) -> &'static [(&'static str, &'static str)] {
        P::CHECKED_ELSEWHERE
    }

    fn distill(&self, options: &corpus::distill::DistillOptions) -> corpus::distill::Distilled {
        corpus::distill::distill::<P>(options)
    }

    fn corpus_tests(&self, path: &Path) -> Result<Vec<CorpusTest>> {
        use lockstep_judge::test_set::{TestCase, TestText};
        Ok(corpus::load::<P>(path)?
            .into_iter()
            .map(|loaded| {
                let row = loaded.row;
                CorpusTest {
                    origin: row.origin,
                    note: row.note,
                    within_original: P::within_original(&loaded.case),
                    test: TestCase {
                        input: TestText::Held(corpus::decode_for::<P>(&row.input)),
                        answer: Some(TestText::Held(corpus::decode_for::<P>(&row.expected))),
                        name: row.name,
                    },
                }
            })
            .collect())
    }

    fn stress(&self, options: &StressOptions) -> StressSummary {
        let report = stress::stress_puzzle::<P>(options);
        StressSummary {
            counts: report.counts,
            elapsed: report.elapsed,
            program_time: report.program_time,
            own_time: report.own_time,
            memory: report.memory,
            failing: report.failing,
            flaky: report.flaky,
            resume: report.resume,
            failures: report
                .failures
                .into_iter()
                .map(|f| StressFailure {
                    kind: f.failed.failure(),
                    report: f.report::<P>(options),
                    row: stress_row::failure_row::<P>(&f, &options.cmd),
                    input: f.input,
                })
                .collect(),
        }
    }
}

/// Every puzzle, in the order reports list them: the list of
/// [`for_each_puzzle!`](lockstep_harness::for_each_puzzle).
pub fn all() -> &'static [&'static dyn AnyPuzzle] {
    // Each puzzle's bench extras and referee flag, from the list's flags.
    macro_rules! extras {
        ($m:ident;) => {
            bench::NO_EXTRAS
        };
        ($m:ident; bench $($rest:ident)*) => {
            lockstep_harness::puzzles::$m::bench::EXTRAS
        };
        ($m:ident; $other:ident $($rest:ident)*) => {
            extras!($m; $($rest)*)
        };
    }
    macro_rules! registered {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            &[$(&Registered::<lockstep_harness::puzzles::$ty> {
                puzzle: PhantomData,
                extras: extras!($m; $($flag)*),
                referee: lockstep_harness::puzzle_flag!(referee; $($flag)*),
                traced: lockstep_harness::puzzle_flag!(trace; $($flag)*),
            }),*]
        };
    }
    static ALL: &[&dyn AnyPuzzle] = lockstep_harness::for_each_puzzle!(registered);
    ALL
}

/// Looks a puzzle up by its command-line or module name (`new-game2`, `new_game2`).
pub fn find(name: &str) -> Option<&'static dyn AnyPuzzle> {
    all()
        .iter()
        .copied()
        .find(|e| e.name() == name || e.module() == name)
}
