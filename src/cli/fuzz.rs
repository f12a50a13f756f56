//! `lockstep fuzz`: the main job, a differential campaign of core against
//! reference over generated cases, puzzle after puzzle, each disagreement
//! shrunk, explained and recorded in the corpus.

use super::common::{default_jobs, pick};
use super::findings::{announce_corpus, check_corpus_first, record_finding, FindingsArgs};
use super::output::{print_document, OutputArgs, OutputFormat};
use super::values::{at_least_one, positive_seconds, puzzle_names, seed_number, thread_count};
use super::Exit;
use anyhow::{bail, Result};
use lockstep_harness::campaign::CampaignOptions;
use lockstep_harness::puzzle::CaseLimits;
use lockstep_search::seeds::fresh_seed;
use lockstep_search::{Plan, Shard};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub(super) struct FuzzArgs {
    /// Puzzles to fuzz (default: all; a puzzle named twice runs once).
    #[arg(value_parser = puzzle_names())]
    puzzles: Vec<String>,
    /// Total time budget in seconds, shared evenly by the puzzles.
    #[arg(long, default_value_t = 30.0, value_parser = positive_seconds)]
    seconds: f64,
    /// Seed for the generated cases (default: a fresh one, printed).
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
    /// Parallel jobs; the default is this machine's cores.
    #[arg(long, default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// Stop each puzzle after this many cases, even with time left.
    #[arg(long, value_parser = at_least_one)]
    cases: Option<u64>,
    /// Which cases to generate: the generator's whole range, or only cases
    /// inside the original statements' limits (docs/guide/src/rules/).
    #[arg(long, value_enum, default_value_t = CaseLimits::Wide)]
    limits: CaseLimits,
    /// Also count how many cases reach each rule branch (rare pushes, teleports,
    /// tie-breaks, ...), for puzzles that report them.
    #[arg(long)]
    stats: bool,
    /// Machine K of N (K from 0) in one campaign spread over N machines with
    /// the same seed and --jobs: this one runs global jobs K*jobs to
    /// (K+1)*jobs-1, so together they run the cases of one run with N times
    /// the jobs, none twice; --cases counts all machines' cases.
    #[arg(long, default_value = "0/1", value_name = "K/N")]
    shard: Shard,
    /// Check only this case, as a report names it (`job 0 case 32`), under
    /// --seed: a finding replayed as it was printed (an address names a
    /// case within its seed's stream, so --case needs --seed).
    #[arg(long, value_name = "ADDRESS")]
    case: Option<lockstep_search::Address>,
    /// Go on after a disagreement: count every one under its bug signature,
    /// shrink and record the first of each, and list every bug at the end.
    #[arg(long)]
    keep_going: bool,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    findings: FindingsArgs,
}

pub(super) fn fuzz(args: FuzzArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    let example = lockstep_search::Address::Stream { job: 0, index: 0 };
    lockstep_search::Address::check_kind(args.case.as_ref(), example)
        .map_err(anyhow::Error::msg)?;
    // A generated case is named within its seed's stream: without the seed
    // the address would replay some other run's case (and agree).
    if let (Some(case), None) = (&args.case, args.seed) {
        bail!("--case `{case}` needs the --seed it was found with: an address names a case of one seed's stream (the report's `repeat with --seed S` line gives it)");
    }
    let options = CampaignOptions {
        plan: Plan {
            seed: args.seed.unwrap_or_else(fresh_seed),
            seconds: args.seconds / entries.len() as f64,
            max_cases: args.cases,
            jobs: args.jobs,
            progress: true,
            keep_going: args.keep_going,
            shrink: lockstep_harness::shrink::DIFFERENTIAL_BUDGET,
            shard: args.shard,
            only: args.case,
            enumerate: None,
        },
        limits: args.limits,
        stats: args.stats,
    };
    let dir = args.findings.clone().dir()?;
    let (options, dir) = (&options, dir.as_deref());
    let plan = &options.plan;
    let shard = if plan.shard == Shard::WHOLE {
        String::new()
    } else {
        let jobs = plan.jobs as u64;
        let mine = plan.shard.jobs(jobs);
        format!(
            ", shard {}: global jobs {}-{} of {}",
            plan.shard,
            mine.start,
            mine.end - 1,
            jobs * plan.shard.count
        )
    };
    let repeat_shard = if plan.shard == Shard::WHOLE {
        String::new()
    } else {
        format!(" --shard {}", plan.shard)
    };
    errln!(
        "lockstep fuzz: seed {}, {}{shard}, {:.1} s per puzzle, {} limits (repeat with --seed {} --jobs {}{repeat_shard} --limits {})",
        plan.seed,
        lockstep_text::counted(plan.jobs as u64, "job"),
        plan.seconds,
        options.limits,
        plan.seed,
        plan.jobs,
        options.limits
    );
    check_corpus_first(&entries, dir)?;
    announce_corpus(dir);
    let mut rows = Vec::new();
    let mut found = false;
    let mut recorded = Vec::new();
    for entry in &entries {
        if lockstep_stop::stopped_by().is_some() {
            errln!("{}: not run (stopped by a signal before it)", entry.name());
            continue;
        }
        let summary = entry.fuzz(options);
        for bug in &summary.bugs {
            found = true;
            errln!("\n{}", bug.report);
            let where_to = record_finding(*entry, dir, &bug.row, args.output.format);
            recorded.push(where_to.map_or_else(|| "printed only".to_string(), |r| r.to_string()));
        }
        rows.push((entry.name(), summary));
    }
    let outcome = lockstep_registry::fuzz_outcome(options, &rows, recorded);
    match args.output.format {
        OutputFormat::Text => out!("{outcome}"),
        OutputFormat::Json => print_document("fuzz", &outcome),
    }
    if let Some(signal) = lockstep_stop::stopped_by() {
        errln!(
            "stopped by signal {signal}: the figures are the cases checked before it; every finding above is recorded"
        );
    }
    Ok(Exit::found_if(found))
}
