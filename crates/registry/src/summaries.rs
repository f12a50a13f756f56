//! What the registry's drivers report, with the puzzles' types erased: a
//! campaign's summary and its bugs, a stress run's, a shrink's; and the
//! tables `lockstep fuzz` and `lockstep stress` print of them.

use super::*;
use lockstep_harness::campaign::{Bug, Sample};

/// A bug's case as a report shows it: what a campaign's JSON document
/// writes of each bug ([`BugSummary`] holds one) and the
/// page reads back.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct BugCase {
    /// The shrunk case in a few words.
    pub shrunk: String,
    /// The shrunk case's judge input.
    pub input: String,
    pub core_answer: String,
    pub reference_answer: String,
    /// Where the two part, from their full traces.
    pub divergence: String,
    /// The commands that replay it.
    pub replay: String,
}

/// A campaign's result with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct CampaignSummary {
    pub tally: lockstep_search::Counts,
    pub elapsed: Duration,
    /// Every bug found, by signature (one at most without `--keep-going`).
    pub bugs: Vec<BugSummary>,
    /// With `--stats`: each rule branch and how many cases reached it.
    pub rule_branches: Vec<(&'static str, u64)>,
    /// With `--stats`, in an enumeration: each level's size and how many of
    /// its checked cases reached each branch, in `rule_branches`' order.
    pub level_branches: Vec<(u32, Vec<u64>)>,
    /// The campaign over time, a sample a second.
    pub series: Vec<Sample>,
    /// In an enumeration (`lockstep verify`), each level checked.
    pub levels: Vec<lockstep_harness::campaign::LevelCertificate>,
}

/// One bug of a campaign, shrunk and explained, as a report shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BugSummary {
    pub puzzle: &'static str,
    /// The shrunk case's signature ([`lockstep_harness::signature`]).
    pub signature: String,
    /// Disagreements of this bug in the campaign.
    pub count: u64,
    /// Where the first was: its address (`job 0 case 32`), and the job and
    /// the case index apart.
    pub first: String,
    pub first_job: u64,
    pub first_case: u64,
    /// Seconds from the start of the campaign to the first.
    pub seconds_to_first: f64,
    /// The case as found, and shrunk, in a few words.
    pub original: String,
    #[serde(flatten)]
    pub case: BugCase,
    /// The corpus row.
    pub row: Row,
    /// The whole report, as `lockstep fuzz` prints it.
    #[serde(skip)]
    pub report: String,
}

impl BugSummary {
    /// A campaign's bug of `P`, found under `seed`.
    pub fn of<P: lockstep_harness::puzzle::Puzzle>(bug: Bug<P::Case>, seed: u64) -> BugSummary {
        use lockstep_core::Model;
        let f = bug.finding;
        // A campaign's cases are seeded streams, or an enumeration's levels
        // (`lockstep verify`), whose index in its level stands as the case.
        let (job, index, found_by, again) = match bug.first {
            lockstep_search::Address::Stream { job, index } => (
                job,
                index,
                format!("seed {seed}"),
                format!("lockstep fuzz {} --seed {seed}", P::NAME),
            ),
            lockstep_search::Address::Sized { index, .. } => (
                0,
                index,
                "verify".to_string(),
                format!("lockstep verify {}", P::NAME),
            ),
            // No campaign makes other cases today; one that did would be
            // named by its address, whole.
            other @ (lockstep_search::Address::Seed(_) | lockstep_search::Address::Game(_)) => (
                0,
                0,
                other.to_string(),
                format!("lockstep fuzz {} --case '{other}'", P::NAME),
            ),
        };
        let input = f.shrunk.case.write_input();
        let report = format!(
            "{name}: core and reference disagree ({found_by}, {first})\n\
             signature: {signature} ({count} disagreement{s} of it)\n\
             original: {original}\n\
             shrunk ({steps} steps, {attempts} candidates tried{how}): {shrunk}\n\
             {body}",
            name = P::NAME,
            first = bug.first,
            signature = f.signature,
            count = bug.count,
            s = if bug.count == 1 { "" } else { "s" },
            original = P::describe(&f.original),
            steps = f.shrunk.steps,
            attempts = f.shrunk.attempts,
            how = how_shrunk(f.shrunk.stop),
            shrunk = P::describe(&f.shrunk.case),
            body = lockstep_text::disagreement_body(
                &input,
                &f.core_answer,
                &f.reference_answer,
                &f.explanation.report
            ),
        );
        BugSummary {
            puzzle: P::NAME,
            signature: f.signature.clone(),
            count: bug.count,
            first: bug.first.to_string(),
            first_job: job,
            first_case: index,
            seconds_to_first: bug.after.as_secs_f64(),
            original: P::describe(&f.original),
            case: BugCase {
                shrunk: P::describe(&f.shrunk.case),
                replay: format!(
                "cargo test --test corpus_rows {}/{}   # or: lockstep solve {} [--reference] < input; the case as found: {again} --case \"{}\"",
                P::MODULE,
                f.row.name,
                P::NAME,
                bug.first
            ),
                input,
                core_answer: f.core_answer,
                reference_answer: f.reference_answer,
                divergence: f.explanation.report,
            },
            row: f.row,
            report,
        }
    }
}

impl CampaignSummary {
    /// A campaign's report of `P`, run under `seed`, with its types erased.
    pub fn of<P: lockstep_harness::puzzle::Puzzle>(
        report: lockstep_harness::campaign::CampaignOutcome<P::Case>,
        seed: u64,
    ) -> CampaignSummary {
        CampaignSummary {
            tally: report.tally,
            elapsed: report.elapsed,
            rule_branches: report.rule_branches,
            level_branches: report.level_branches,
            series: report.series,
            levels: report.levels,
            bugs: report
                .bugs
                .into_iter()
                .map(|bug| BugSummary::of::<P>(bug, seed))
                .collect(),
        }
    }

    pub fn cases_per_second(&self) -> f64 {
        self.tally.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// `lockstep fuzz`'s outcome (its JSON: docs/guide/src/reference/json.md,
/// but for the `lockstep` and `schema` fields the command line adds): the
/// campaign's options, then per puzzle its counts, rule branches, series
/// and bugs; `recorded` says where each bug's row went, in order.
pub fn fuzz_outcome(
    options: &CampaignOptions,
    rows: &[(&'static str, CampaignSummary)],
    recorded: Vec<String>,
) -> FuzzOutcome {
    let mut recorded = recorded.into_iter();
    FuzzOutcome {
        seed: options.plan.seed,
        jobs: options.plan.jobs,
        shard: options.plan.shard.to_string(),
        limits: options.limits.to_string(),
        seconds_per_puzzle: options.plan.seconds,
        keep_going: options.plan.keep_going,
        puzzles: rows
            .iter()
            .map(|(name, s)| FuzzedPuzzle {
                puzzle: name,
                cases: s.tally.cases,
                agree: s.tally.passed,
                diverge: s.tally.failed,
                timeout: s.tally.skipped,
                seconds: s.elapsed.as_secs_f64(),
                cases_per_second: s.cases_per_second(),
                rule_branches: s
                    .rule_branches
                    .iter()
                    .map(|&(branch, cases)| BranchReached { branch, cases })
                    .collect(),
                series: s.series.clone(),
                bugs: s
                    .bugs
                    .iter()
                    .map(|bug| RecordedBug {
                        bug: bug.clone(),
                        recorded: recorded.next().unwrap_or_default(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// `lockstep fuzz`'s outcome: its JSON document is this value, and its
/// table is this value's `Display`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FuzzOutcome {
    pub seed: u64,
    pub jobs: usize,
    pub shard: String,
    pub limits: String,
    pub seconds_per_puzzle: f64,
    pub keep_going: bool,
    pub puzzles: Vec<FuzzedPuzzle>,
}

/// One puzzle's campaign in [`FuzzOutcome`].
#[derive(Debug, Clone, serde::Serialize)]
pub struct FuzzedPuzzle {
    pub puzzle: &'static str,
    pub cases: u64,
    pub agree: u64,
    pub diverge: u64,
    pub timeout: u64,
    pub seconds: f64,
    pub cases_per_second: f64,
    pub rule_branches: Vec<BranchReached>,
    pub series: Vec<Sample>,
    pub bugs: Vec<RecordedBug>,
}

/// A rule branch and the cases that reached it (`--stats`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct BranchReached {
    pub branch: &'static str,
    pub cases: u64,
}

/// A bug and where its row went: the bug's fields, and `recorded`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RecordedBug {
    #[serde(flatten)]
    pub bug: BugSummary,
    pub recorded: String,
}

/// The table `lockstep fuzz` ends with, drawn from its outcome: a line of
/// counts per puzzle, then, with `--stats`, each puzzle's rule branches and
/// the share of cases that reached them; with `--keep-going`, every bug of
/// every puzzle, by signature, with how many disagreements it had, where
/// the first was and how long it took to find.
impl std::fmt::Display for FuzzOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As wide as the longest name (checkers-perft), so the columns line up.
        let w = self
            .puzzles
            .iter()
            .map(|p| p.puzzle.len())
            .max()
            .unwrap_or(0)
            .max(6);
        writeln!(
            f,
            "\n{:<w$} {:>10} {:>10} {:>10} {:>8} {:>8}",
            "puzzle", "cases", "cases/s", "agree", "diverge", "timeout"
        )?;
        for p in &self.puzzles {
            writeln!(
                f,
                "{:<w$} {:>10} {:>10.0} {:>10} {:>8} {:>8}",
                p.puzzle, p.cases, p.cases_per_second, p.agree, p.diverge, p.timeout
            )?;
        }
        for p in &self.puzzles {
            if p.rule_branches.is_empty() {
                continue;
            }
            writeln!(
                f,
                "\n{}: cases reaching each rule branch ({} limits)",
                p.puzzle, self.limits
            )?;
            for reached in &p.rule_branches {
                writeln!(
                    f,
                    "  {:<44} {:>10} {:>6.2}%",
                    reached.branch,
                    reached.cases,
                    100.0 * reached.cases as f64 / p.cases.max(1) as f64
                )?;
            }
        }
        if !self.keep_going {
            return Ok(());
        }
        let bugs: usize = self.puzzles.iter().map(|p| p.bugs.len()).sum();
        writeln!(f, "\n{}:", lockstep_text::counted(bugs as u64, "bug"))?;
        for RecordedBug { bug, .. } in self.puzzles.iter().flat_map(|p| &p.bugs) {
            writeln!(
                f,
                "  {}  {} disagreement{}, first at {} after {:.2} s: {} -> {}",
                bug.signature,
                bug.count,
                if bug.count == 1 { "" } else { "s" },
                bug.first,
                bug.seconds_to_first,
                bug.original,
                bug.case.shrunk
            )?;
        }
        Ok(())
    }
}

/// A stress run's result with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct StressSummary {
    pub counts: lockstep_judge::Verdicts,
    pub elapsed: Duration,
    pub program_time: Duration,
    pub own_time: Duration,
    /// The program's peak memory over the cases.
    pub memory: lockstep_judge::MemoryFigures,
    /// The first failure of each kind (only the first of all without
    /// keep-going), shrunk: its kind, a printable report, the minimal input,
    /// and its row.
    pub failures: Vec<StressFailure>,
    /// Every failing case: its kind and address, sorted by kind.
    pub failing: Vec<(lockstep_judge::Failed, lockstep_search::Address)>,
    /// Every case that passed only when run again after a time limit.
    pub flaky: Vec<(&'static str, lockstep_search::Address)>,
    /// Where a run that stopped before its end resumes.
    pub resume: Option<lockstep_search::Resume>,
}

/// What `lockstep stress` prints on stdout for a puzzle: the counts by
/// verdict, where the time went per case, and every failing case by kind with
/// its address. The shrunk failures go to stderr.
pub struct StressTable<'a>(pub &'a str, pub &'a StressSummary);

impl std::fmt::Display for StressTable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let StressTable(name, summary) = self;
        let c = &summary.counts;
        write!(f, "{}", c.line(name, summary.elapsed))?;
        if c.skipped > 0 {
            write!(f, ", {} skipped (the reference out of fuel)", c.skipped)?;
        }
        writeln!(f)?;
        if c.cases > 0 {
            writeln!(
                f,
                "per case: {:.3} ms in the program (start to exit), {:.3} ms in lockstep (generate, oracle, compare)",
                summary.program_time.as_secs_f64() * 1e3 / c.cases as f64,
                summary.own_time.as_secs_f64() * 1e3 / c.cases as f64
            )?;
        }
        if let Some(line) = summary.memory.line() {
            writeln!(f, "{line}")?;
        }
        lockstep_judge::list_failing(f, &summary.failing)?;
        lockstep_judge::list_flaky(f, &summary.flaky)
    }
}

/// One shrunk stress failure with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct StressFailure {
    /// WA, RE, TLE, MLE or OLE.
    pub kind: lockstep_judge::Failed,
    pub report: String,
    pub input: String,
    pub row: Row,
}

/// What `lockstep shrink` found for a file.
#[derive(Debug, Clone)]
pub struct ShrinkSummary {
    pub report: String,
    pub row: Row,
}

/// How a finding's shrink ended, when that is not a local minimum (the
/// usual end, said by nothing): `; cut off by a signal (it may shrink
/// further)`, say, so that a case a stop cut short never reads as minimal.
pub(crate) fn how_shrunk(stop: lockstep_search::shrinking::Stop) -> String {
    match stop {
        lockstep_search::shrinking::Stop::LocalMinimum => String::new(),
        stop => format!("; {stop}"),
    }
}
