//! What the registry's drivers report, with the puzzles' types erased: a
//! campaign's summary and its bugs, a stress run's, a shrink's; and the
//! tables `lockstep fuzz` and `lockstep stress` print of them.

use super::*;
use crate::campaign::{Bug, Sample};

/// A campaign's result with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct CampaignSummary {
    pub tally: crate::search::Counts,
    pub elapsed: Duration,
    /// Every bug found, by signature (one at most without `--keep-going`).
    pub bugs: Vec<BugSummary>,
    /// With `--stats`: each rule branch and how many cases reached it.
    pub rule_branches: Vec<(&'static str, u64)>,
    /// The campaign over time, a sample a second.
    pub series: Vec<Sample>,
    /// In an enumeration (`lockstep verify`), each level checked.
    pub levels: Vec<crate::campaign::LevelCertificate>,
}

/// One bug of a campaign, shrunk and explained, as a report shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BugSummary {
    pub puzzle: &'static str,
    /// The shrunk case's signature ([`crate::signature`]).
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
    pub case: crate::report::BugCase,
    /// The corpus row.
    pub row: Row,
    /// The whole report, as `lockstep fuzz` prints it.
    #[serde(skip)]
    pub report: String,
}

impl BugSummary {
    /// A campaign's bug of `P`, found under `seed`.
    pub fn of<P: crate::puzzle::Puzzle>(bug: Bug<P::Case>, seed: u64) -> BugSummary {
        use lockstep_core::Model;
        let f = bug.finding;
        // A campaign's cases are seeded streams, or an enumeration's levels
        // (`lockstep verify`), whose index in its level stands as the case.
        let (job, index, found_by, again) = match bug.first {
            crate::search::Address::Stream { job, index } => (
                job,
                index,
                format!("seed {seed}"),
                format!("lockstep fuzz {} --seed {seed}", P::NAME),
            ),
            crate::search::Address::Sized { index, .. } => (
                0,
                index,
                "verify".to_string(),
                format!("lockstep verify {}", P::NAME),
            ),
            _ => unreachable!("a campaign's cases are seeded streams or levels"),
        };
        let input = f.shrunk.case.write_input();
        let report = format!(
            "{name}: core and reference disagree ({found_by}, {first})\n\
             signature: {signature} ({count} disagreement{s} of it)\n\
             original: {original}\n\
             shrunk ({steps} steps, {attempts} candidates tried): {shrunk}\n\
             {body}",
            name = P::NAME,
            first = bug.first,
            signature = f.signature,
            count = bug.count,
            s = if bug.count == 1 { "" } else { "s" },
            original = P::describe(&f.original),
            steps = f.shrunk.steps,
            attempts = f.shrunk.attempts,
            shrunk = P::describe(&f.shrunk.case),
            body = crate::text::disagreement_body(
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
            case: crate::report::BugCase {
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
    pub fn of<P: crate::puzzle::Puzzle>(
        report: crate::campaign::CampaignOutcome<P::Case>,
        seed: u64,
    ) -> CampaignSummary {
        CampaignSummary {
            tally: report.tally,
            elapsed: report.elapsed,
            rule_branches: report.rule_branches,
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

/// `lockstep fuzz --format json`'s document (docs/guide/src/reference/json.md):
/// the campaign's options, then per puzzle its counts, rule branches, series
/// and bugs; `recorded` says where each bug's row went, in order.
pub fn fuzz_json(
    options: &CampaignOptions,
    rows: &[(&'static str, CampaignSummary)],
    recorded: Vec<String>,
) -> serde_json::Value {
    let mut recorded = recorded.into_iter();
    let puzzles: Vec<serde_json::Value> = rows
        .iter()
        .map(|(name, s)| {
            serde_json::json!({
                "puzzle": name,
                "cases": s.tally.cases,
                "agree": s.tally.passed,
                "diverge": s.tally.failed,
                "timeout": s.tally.skipped,
                "seconds": s.elapsed.as_secs_f64(),
                "cases_per_second": s.cases_per_second(),
                "rule_branches": s.rule_branches.iter()
                    .map(|(b, n)| serde_json::json!({"branch": b, "cases": n}))
                    .collect::<Vec<_>>(),
                "series": s.series,
                "bugs": s.bugs.iter().map(|b| {
                    let mut value = serde_json::to_value(b).expect("a bug serializes");
                    value["recorded"] = serde_json::Value::String(
                        recorded.next().unwrap_or_default(),
                    );
                    value
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "lockstep": "fuzz",
        "schema": crate::report::SCHEMA,
        "seed": options.plan.seed,
        "jobs": options.plan.jobs,
        "shard": options.plan.shard.to_string(),
        "limits": options.limits.to_string(),
        "seconds_per_puzzle": options.plan.seconds,
        "keep_going": options.plan.keep_going,
        "puzzles": puzzles,
    })
}

/// The table `lockstep fuzz` ends with: a line of counts per puzzle, then,
/// with `--stats`, each puzzle's rule branches and the share of cases that
/// reached them.
pub struct FuzzTable<'a> {
    pub rows: &'a [(&'static str, CampaignSummary)],
    pub limits: crate::puzzle::CaseLimits,
}

impl std::fmt::Display for FuzzTable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "\n{:<12} {:>10} {:>10} {:>10} {:>8} {:>8}",
            "puzzle", "cases", "cases/s", "agree", "diverge", "timeout"
        )?;
        for (name, s) in self.rows {
            writeln!(
                f,
                "{:<12} {:>10} {:>10.0} {:>10} {:>8} {:>8}",
                name,
                s.tally.cases,
                s.cases_per_second(),
                s.tally.passed,
                s.tally.failed,
                s.tally.skipped
            )?;
        }
        for (name, s) in self.rows {
            if s.rule_branches.is_empty() {
                continue;
            }
            writeln!(
                f,
                "\n{name}: cases reaching each rule branch ({} limits)",
                self.limits
            )?;
            for (branch, count) in &s.rule_branches {
                writeln!(
                    f,
                    "  {branch:<44} {count:>10} {:>6.2}%",
                    100.0 * *count as f64 / s.tally.cases.max(1) as f64
                )?;
            }
        }
        Ok(())
    }
}

/// What `lockstep fuzz --keep-going` ends with: every bug of every puzzle,
/// by signature, with how many disagreements it had, where the first was
/// and how long it took to find.
pub struct BugTable<'a>(pub &'a [(&'static str, CampaignSummary)]);

impl std::fmt::Display for BugTable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bugs: usize = self.0.iter().map(|(_, s)| s.bugs.len()).sum();
        writeln!(f, "\n{}:", crate::text::counted(bugs as u64, "bug"))?;
        for (_, summary) in self.0 {
            for bug in &summary.bugs {
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
        }
        Ok(())
    }
}

/// A stress run's result with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct StressSummary {
    pub counts: crate::judge::Verdicts,
    pub elapsed: Duration,
    pub program_time: Duration,
    pub own_time: Duration,
    /// The program's peak memory over the cases.
    pub memory: crate::judge::MemoryFigures,
    /// The first failure of each kind (only the first of all without
    /// keep-going), shrunk: its kind, a printable report, the minimal input,
    /// and its row.
    pub failures: Vec<StressFailure>,
    /// Every failing case: its kind and address, sorted by kind.
    pub failing: Vec<(&'static str, crate::search::Address)>,
    /// Every case that passed only when run again after a time limit.
    pub flaky: Vec<(&'static str, crate::search::Address)>,
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
        crate::judge::list_failing(f, &summary.failing)?;
        crate::judge::list_flaky(f, &summary.flaky)
    }
}

/// One shrunk stress failure with the puzzle's types erased.
#[derive(Debug, Clone)]
pub struct StressFailure {
    /// WA, RE, TLE, MLE or OLE.
    pub kind: &'static str,
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
