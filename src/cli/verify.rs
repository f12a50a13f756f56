//! `lockstep verify`: every case of each puzzle up to a size, smallest
//! first ([`lockstep_harness::enumerate`]), through core and reference on the search
//! driver. With no disagreement each level gets a certificate (its cases,
//! the classes checked, a digest of the answers); the first disagreement is
//! the smallest of the levels, reported like a fuzz finding and recorded
//! with origin `verify`. Each level is then held to a recorded certificate
//! (the built-in one for the CI scope, [`lockstep_harness::campaign::recorded`]): what
//! core and reference share, the comparison cannot see, but the digest can.

use super::common::{default_jobs, pick};
use super::findings::{announce_corpus, check_corpus_first, record_finding, FindingsArgs};
use super::output::{check_can_write, print_document, OutputArgs, OutputFormat};
use super::values::{puzzle_names, thread_count};
use super::Exit;
use anyhow::{bail, Result};
use lockstep_harness::campaign::recorded::{AgainstRecord, RecordedCertificate};
use lockstep_harness::campaign::{CampaignOptions, LevelCertificate, READ_BACK_EVERY};
use lockstep_harness::puzzle::CaseLimits;
use lockstep_registry::{AnyPuzzle, BugSummary};
use lockstep_search::{Address, Enumeration, Plan, Shard};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

mod levels;
mod outcome;
mod record;
use levels::print_levels;
use outcome::*;
use record::{record_if_complete, recorded_certificate, to_record};

/// How far each puzzle is verified when `--size` does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Scope {
    /// The first levels of every puzzle, a minute in all on 2 cores.
    Ci,
    /// Further levels, for a night (or a sharded matrix of machines).
    Night,
}

#[derive(clap::Args, Debug)]
pub(super) struct VerifyArgs {
    /// Puzzles to verify (default: all).
    #[arg(value_parser = puzzle_names())]
    puzzles: Vec<String>,
    /// Verify every case up to this size (each puzzle's rule page says what
    /// its size is), instead of the scope's sizes; at most the puzzle's
    /// last level (`--levels` lists them).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    size: Option<u32>,
    /// Start at this size: a run that stopped resumes at its first level
    /// without a certificate (the levels before it keep theirs).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    from: u32,
    /// The sizes to verify when --size does not say: each puzzle's own for
    /// CI or for a night.
    #[arg(long, value_enum, default_value_t = Scope::Ci)]
    scope: Scope,
    /// Which cases of the levels count: `original`, only those inside the
    /// original statements' limits (the rule pages list them), what a
    /// judge's tests hold; `wide`, every case the levels hold, also outside
    /// those limits where the rules still give an answer.
    #[arg(long, value_enum, default_value_t = CaseLimits::Original, hide_possible_values = true)]
    limits: CaseLimits,
    /// Check every case, not one of each symmetry class.
    #[arg(long)]
    no_symmetry: bool,
    /// Print what each level holds and how many cases, and check nothing.
    #[arg(long)]
    levels: bool,
    /// Print, for each level and in all, how many checked cases reach each
    /// of the puzzle's rule branches (the table `fuzz --stats` prints).
    #[arg(long, conflicts_with = "levels")]
    stats: bool,
    /// Fail the run (exit 1) when a rule branch of a puzzle is reached by
    /// no case of its levels.
    #[arg(long, conflicts_with_all = ["levels", "case"])]
    require_every_branch: bool,
    /// Parallel jobs; the default is this machine's cores.
    #[arg(long, default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// Machine K of N (K from 0) in one verification spread over N
    /// machines: this one checks every N-th case from the K-th; the
    /// machines' certificates add up to the whole one.
    #[arg(long, default_value = "0/1", value_name = "K/N")]
    shard: Shard,
    /// Go on after a disagreement: the smallest of each signature.
    #[arg(long)]
    keep_going: bool,
    /// Check only this case, as a report names it (`size 3 case 17`).
    #[arg(long, value_name = "ADDRESS")]
    case: Option<Address>,
    /// Hold each level to this recorded certificate instead of the built-in
    /// one (the CI scope's, certificates/ci.json).
    #[arg(long, value_name = "FILE", conflicts_with = "no_certificate")]
    certificate: Option<PathBuf>,
    /// Compare with no recorded certificate: core against reference only.
    #[arg(long)]
    no_certificate: bool,
    /// Write this run's levels to FILE as a recorded certificate (the other
    /// puzzles and sizes already in it are kept); a level that differs from
    /// the one it replaces is shown, not failed.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["case", "levels"])]
    record: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    findings: FindingsArgs,
}

pub(super) fn verify(args: VerifyArgs) -> Result<Exit> {
    let entries = pick(&args.puzzles)?;
    check_args(&args, &entries)?;
    if args.levels {
        print_levels(&args, &entries);
        return Ok(Exit::Clean);
    }
    if let Some(path) = &args.record {
        check_can_write(path, "--record")?;
    }
    let record = recorded_certificate(&args)?;
    let dir = args.findings.clone().dir()?;
    let dir = dir.as_deref();
    announce(&args);
    check_corpus_first(&entries, dir)?;
    announce_corpus(dir);
    let mut kept = match &args.record {
        Some(path) => Some(to_record(&args, path)?),
        None => None,
    };
    let mut outcome = VerifyOutcome {
        limits: args.limits.to_string(),
        symmetry: !args.no_symmetry,
        shard: args.shard.to_string(),
        jobs: args.jobs,
        puzzles: Vec::new(),
        stopped_by_signal: None,
    };
    for entry in &entries {
        if lockstep_stop::stopped_by().is_some() {
            errln!(
                "{}: not verified (stopped by a signal before it)",
                entry.name()
            );
            continue;
        }
        let verified = verify_puzzle(&args, *entry, dir, record.as_ref());
        // An address inside its level that decodes to no valid case: said
        // before any report, which would call the nothing checked agreed.
        if let Some(case) = args.case.filter(|_| verified.checked == 0) {
            bail!(
                "{}: there is no case `{case}`: that index of its level is not a valid case (--levels prints each level's count)",
                entry.name()
            );
        }
        if verified.verified {
            if let Some(kept) = &mut kept {
                kept.record(entry.name(), &verified.levels);
            }
        }
        if args.output.format == OutputFormat::Text {
            out!("{verified}");
        }
        outcome.puzzles.push(verified);
    }
    outcome.stopped_by_signal = lockstep_stop::stopped_by();
    if args.output.format == OutputFormat::Json {
        print_document("verify", &outcome);
    }
    let found = outcome.puzzles.iter().any(|p| !p.bugs.is_empty());
    let unreached = args.require_every_branch && any_unreached(&outcome);
    // One case asked for (`--case`) proves nothing of its levels, and fails
    // only by disagreeing.
    let complete = args.case.is_some() || outcome.puzzles.iter().all(|p| p.verified);
    if let (Some(path), Some(kept)) = (&args.record, &kept) {
        record_if_complete(path, kept, complete)?;
    }
    if let Some(signal) = lockstep_stop::stopped_by() {
        say_where_to_resume(signal, &outcome);
    }
    Ok(Exit::found_if(found || !complete || unreached))
}

/// `--require-every-branch`: whether a puzzle reaches fewer than all of its
/// rule branches, each such puzzle said with the branches it misses.
fn any_unreached(outcome: &VerifyOutcome) -> bool {
    let mut unreached = false;
    for p in &outcome.puzzles {
        if !p.branches.not_reached.is_empty() {
            unreached = true;
            errln!(
                "--require-every-branch: {} reaches {} of its {} rule branches; not reached: {}",
                p.puzzle,
                p.branches.branches_reached,
                p.branches.branches,
                p.branches.not_reached.join("; ")
            );
        }
    }
    unreached
}

/// After a signal: the command that resumes each puzzle cut short.
fn say_where_to_resume(signal: i32, outcome: &VerifyOutcome) {
    let resume: Vec<String> = outcome
        .puzzles
        .iter()
        .filter_map(|p| {
            p.resume_from
                .map(|size| format!("{} --from {size}", p.puzzle))
        })
        .collect();
    let at = match resume.is_empty() {
        true => "at its size".to_string(),
        false => format!("(lockstep verify {})", resume.join("; lockstep verify ")),
    };
    errln!(
        "stopped by signal {signal}: a level cut short is not verified; resume with --from {at}"
    );
}

/// The flags' combinations a run refuses before it starts.
fn check_args(args: &VerifyArgs, entries: &[&'static dyn AnyPuzzle]) -> Result<()> {
    let example = Address::Sized { size: 1, index: 0 };
    Address::check_kind(args.case.as_ref(), example).map_err(anyhow::Error::msg)?;
    if let Some(size) = args.size {
        for entry in entries {
            entry
                .check_size("--size", size)
                .map_err(anyhow::Error::msg)?;
        }
    }
    if args.levels {
        return Ok(());
    }
    if let Some(Address::Sized { size, index }) = args.case {
        for entry in entries {
            check_case(args, *entry, size, index)?;
        }
    }
    // A start past a puzzle's last size would verify no level, vacuously.
    for entry in entries {
        let up_to = last_size(args, *entry);
        if up_to < args.from {
            bail!(
                "{}: --from {} is past its last size here, {up_to}: no level to verify",
                entry.name(),
                args.from
            );
        }
    }
    if args.record.is_some() && args.shard != Shard::WHOLE {
        bail!("--record needs the whole run: a shard's digests are a part of each level's");
    }
    if args.require_every_branch && args.shard != Shard::WHOLE {
        bail!("--require-every-branch needs the whole run: a shard reaches a part of each level");
    }
    Ok(())
}

/// `--case size S case I` names a case of this run's levels: S among its
/// sizes, I below the level's span. Refused before the run, naming the
/// level's count, rather than a run that checks nothing.
fn check_case(args: &VerifyArgs, entry: &dyn AnyPuzzle, size: u32, index: u64) -> Result<()> {
    let up_to = last_size(args, entry);
    if !(args.from..=up_to).contains(&size) {
        bail!(
            "{}: --case `size {size} case {index}`: this run's sizes are {} to {up_to} (--size and --from set them)",
            entry.name(),
            args.from
        );
    }
    let (span, count) = entry.level_span(size);
    if index >= span {
        bail!(
            "{}: --case `size {size} case {index}` is past the end of level {size}: its indices are 0 to {} ({} valid cases among them; --levels prints each level's count)",
            entry.name(),
            span.saturating_sub(1),
            count
        );
    }
    Ok(())
}

/// The run's opening line on stderr: its jobs, limits, symmetry and shard,
/// and how to run it again alike.
fn announce(args: &VerifyArgs) {
    let shard = |prefix: &str| match args.shard == Shard::WHOLE {
        true => String::new(),
        false => format!("{prefix}{}", args.shard),
    };
    errln!(
        "lockstep verify: {}, {} limits, {}{} (repeat with --jobs {}{})",
        lockstep_text::counted(args.jobs as u64, "job"),
        args.limits,
        if args.no_symmetry {
            "every case"
        } else {
            "one case per symmetry class for the reference, its images for the core"
        },
        shard(", shard "),
        args.jobs,
        shard(" --shard "),
    );
}

/// A puzzle's opening line: its sizes and how many cases they hold (not
/// for a run of one case).
fn announce_puzzle(args: &VerifyArgs, entry: &dyn AnyPuzzle, counts: &[u64], up_to: u32) {
    if args.case.is_none() {
        let first = args.from.saturating_sub(1) as usize;
        let cases: u64 = counts.iter().skip(first).sum();
        errln!(
            "{}: sizes {} to {up_to}, {cases} cases",
            entry.name(),
            args.from
        );
    }
}

/// The campaign that verifies levels `--from` to `up_to`: every case,
/// no clock, the branches always counted.
fn campaign_options(args: &VerifyArgs, up_to: u32) -> CampaignOptions {
    CampaignOptions {
        plan: Plan {
            seconds: f64::INFINITY,
            max_cases: None,
            progress: true,
            keep_going: args.keep_going,
            shard: args.shard,
            only: args.case,
            enumerate: Some(Enumeration {
                from: args.from,
                up_to,
                symmetry: !args.no_symmetry,
                start: 0,
            }),
            ..Plan::cases(
                0,
                0,
                args.jobs,
                lockstep_harness::shrink::DIFFERENTIAL_BUDGET,
            )
        },
        // Always: the closing line says how many rule branches the levels
        // reach; `--stats` prints the counts.
        stats: true,
        limits: args.limits,
    }
}

/// One puzzle's levels verified: every case through core and reference,
/// each disagreement recorded, each level held to `record`.
fn verify_puzzle(
    args: &VerifyArgs,
    entry: &'static dyn AnyPuzzle,
    dir: Option<&std::path::Path>,
    record: Option<&RecordedCertificate>,
) -> Verified {
    let (what, _, _) = entry.sizes();
    let up_to = last_size(args, entry);
    // Each level's count, made apart from the run: what the run says before
    // it starts, and what a whole level's cases must add up to after.
    let counts = entry.level_counts(up_to);
    announce_puzzle(args, entry, &counts, up_to);
    let summary = entry.fuzz(&campaign_options(args, up_to));
    let branches = Branches::of(&summary, entry.checked_elsewhere(), args.stats);
    let bugs: Vec<VerifiedBug> = summary
        .bugs
        .into_iter()
        .map(|bug| {
            errln!("\n{}", bug.report);
            let recorded = record_finding(entry, dir, &bug.row, args.output.format);
            VerifiedBug {
                recorded: recorded.map_or_else(|| "printed only".to_string(), |r| r.to_string()),
                bug,
            }
        })
        .collect();
    // A whole run's level is whole when its cases add up to the level's own
    // count (each class with its size): checked, not assumed.
    let whole = |l: &LevelCertificate| {
        args.shard != Shard::WHOLE || counts.get(l.size as usize - 1) == Some(&l.cases)
    };
    let levels = summary.levels;
    // Where the run stopped short: its first level that is not whole, or,
    // after a signal, the first level it never reached (a level not
    // reached may count 0 because the signal also stopped its count).
    let cut_from = levels.iter().position(|l| !whole(l)).or_else(|| {
        lockstep_stop::interrupted()
            .then(|| {
                levels
                    .iter()
                    .rposition(|l| l.cases > 0)
                    .map_or(0, |i| i + 1)
            })
            .filter(|&i| i < levels.len())
    });
    let verified = args.case.is_none()
        && bugs.is_empty()
        && cut_from.is_none()
        && levels.len() == up_to.saturating_sub(args.from - 1) as usize
        && levels.iter().all(|l| l.complete() && whole(l));
    // Each level that agreed, against the record; a difference fails the
    // level unless this run records a new certificate.
    let against: Vec<AgainstRecord> = levels
        .iter()
        .enumerate()
        .map(|(i, l)| match record {
            _ if cut_from.is_some_and(|cut| i >= cut) => AgainstRecord::CutShort,
            Some(record) if l.complete() => record.compare(entry.name(), l),
            _ => AgainstRecord::NotRecorded,
        })
        .collect();
    let differs = against
        .iter()
        .any(|a| matches!(a, AgainstRecord::Differs(_)));
    let verified = verified && !(differs && args.record.is_none());
    Verified {
        puzzle: entry.name(),
        size: what,
        from: args.from,
        up_to,
        verified,
        resume_from: cut_from.map(|i| levels[i].size),
        case: args.case.map(|c| c.to_string()),
        against_certificate: record.map(|_| {
            against
                .iter()
                .zip(&levels)
                .map(|(a, l)| AgainstLevel::of(l, a))
                .collect()
        }),
        cases: levels.iter().map(|l| l.cases).sum(),
        checked: summary.tally.cases,
        seconds: summary.elapsed.as_secs_f64(),
        levels,
        bugs,
        branches,
        against,
        shard: args.shard,
    }
}

/// The last size verified of a puzzle: `--size`, else its scope's.
fn last_size(args: &VerifyArgs, entry: &dyn lockstep_registry::AnyPuzzle) -> u32 {
    let (_, ci, night) = entry.sizes();
    args.size.unwrap_or(match args.scope {
        Scope::Ci => ci,
        Scope::Night => night,
    })
}
