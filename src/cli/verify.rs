//! `lockstep verify`: every case of each puzzle up to a size, smallest
//! first ([`crate::enumerate`]), through core and reference on the search
//! driver. With no disagreement each level gets a certificate (its cases,
//! the classes checked, a digest of the answers); the first disagreement is
//! the smallest of the levels, reported like a fuzz finding and recorded
//! with origin `verify`. Each level is then held to a recorded certificate
//! (the built-in one for the CI scope, [`crate::campaign::recorded`]): what
//! core and reference share, the comparison cannot see, but the digest can.

use super::common::{
    announce_corpus, check_corpus_first, default_jobs, pick, print_json, record_finding,
    FindingsArgs, OutputArgs, OutputFormat,
};
use super::values::{puzzle_names, thread_count};
use super::Exit;
use crate::campaign::recorded::{AgainstRecord, RecordedCertificate};
use crate::campaign::{CampaignOptions, LevelCertificate, JUDGE_ALL_BELOW, JUDGE_EVERY};
use crate::puzzle::CaseLimits;
use crate::search::{Address, Enumeration, Plan, Shard};
use anyhow::{bail, Result};
use std::io::Write;
use std::path::PathBuf;

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
    /// its size is), instead of the scope's sizes.
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
    /// Which cases count: only those inside the original statements' limits,
    /// or every case the levels hold.
    #[arg(long, value_enum, default_value_t = CaseLimits::Original)]
    limits: CaseLimits,
    /// Check every case, not one of each symmetry class.
    #[arg(long)]
    no_symmetry: bool,
    /// Print what each level holds and how many cases, and check nothing.
    #[arg(long)]
    levels: bool,
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
    let example = Address::Sized { size: 1, index: 0 };
    Address::check_kind(args.case.as_ref(), example).map_err(anyhow::Error::msg)?;
    if args.levels {
        for entry in &entries {
            let (what, ci, night) = entry.sizes();
            let up_to = last_size(&args, *entry);
            outln!(
                "{}: size = {what} (--scope ci: {ci}, night: {night})",
                entry.name()
            );
            for (size, cases) in (1..).zip(entry.level_counts(up_to)) {
                outln!("{size:>6} {cases:>14}");
            }
        }
        return Ok(Exit::Clean);
    }
    // A start past a puzzle's last size would verify no level, vacuously.
    for entry in &entries {
        let up_to = last_size(&args, *entry);
        if up_to < args.from {
            anyhow::bail!(
                "{}: --from {} is past its last size here, {up_to}: no level to verify",
                entry.name(),
                args.from
            );
        }
    }
    if args.record.is_some() && args.shard != Shard::WHOLE {
        bail!("--record needs the whole run: a shard's digests are a part of each level's");
    }
    let record = recorded_certificate(&args)?;
    let dir = args.findings.clone().dir()?;
    let dir = dir.as_deref();
    errln!(
        "lockstep verify: {}, {} limits, {}{} (repeat with --jobs {}{})",
        crate::text::counted(args.jobs as u64, "job"),
        args.limits,
        if args.no_symmetry {
            "every case"
        } else {
            "one case per symmetry class"
        },
        match args.shard == Shard::WHOLE {
            true => String::new(),
            false => format!(", shard {}", args.shard),
        },
        args.jobs,
        match args.shard == Shard::WHOLE {
            true => String::new(),
            false => format!(" --shard {}", args.shard),
        },
    );
    check_corpus_first(&entries, dir)?;
    announce_corpus(dir);
    let mut found = false;
    let mut complete = true;
    let mut documents = Vec::new();
    let mut kept = match &args.record {
        Some(path) => Some(to_record(&args, path)?),
        None => None,
    };
    for entry in &entries {
        if crate::process::stopped_by().is_some() {
            errln!(
                "{}: not verified (stopped by a signal before it)",
                entry.name()
            );
            continue;
        }
        let (what, _, _) = entry.sizes();
        let up_to = last_size(&args, *entry);
        let options = CampaignOptions {
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
                }),
                ..Plan::cases(0, 0, args.jobs, crate::shrink::DIFFERENTIAL_BUDGET)
            },
            stats: false,
            limits: args.limits,
        };
        let summary = entry.fuzz(&options);
        let mut bugs = Vec::new();
        for bug in &summary.bugs {
            found = true;
            errln!("\n{}", bug.report);
            let recorded = record_finding(*entry, dir, &bug.row, args.output.format);
            bugs.push(serde_json::json!({
                "bug": bug,
                "recorded": recorded.map_or_else(|| "printed only".to_string(), |r| r.to_string()),
            }));
        }
        // A whole run's level is whole when its cases add up to the
        // level's own count (each class with its size): checked, not assumed.
        let counts = entry.level_counts(up_to);
        let whole = |l: &LevelCertificate| {
            args.shard != Shard::WHOLE || counts.get(l.size as usize - 1) == Some(&l.cases)
        };
        let verified = args.case.is_none()
            && summary.bugs.is_empty()
            && summary.levels.len() == up_to.saturating_sub(args.from - 1) as usize
            && summary.levels.iter().all(|l| l.complete() && whole(l));
        // Each level that agreed, against the record; a difference fails
        // the level unless this run records a new certificate.
        let against: Vec<AgainstRecord> = summary
            .levels
            .iter()
            .map(|l| match &record {
                Some(record) if l.complete() => record.compare(entry.name(), l),
                _ => AgainstRecord::NotRecorded,
            })
            .collect();
        let differs = against
            .iter()
            .any(|a| matches!(a, AgainstRecord::Differs(_)));
        let verified = verified && !(differs && args.record.is_none());
        // One case asked for (`--case`) proves nothing of its levels, and
        // fails only by disagreeing.
        complete &= verified || args.case.is_some();
        if verified {
            if let Some(kept) = &mut kept {
                kept.record(entry.name(), &summary.levels);
            }
        }
        if args.output.format == OutputFormat::Text {
            out!(
                "{}",
                Certificate {
                    name: entry.name(),
                    what,
                    from: args.from,
                    up_to,
                    levels: &summary.levels,
                    against: &against,
                    verified,
                    shard: args.shard,
                }
            );
        }
        documents.push(serde_json::json!({
            "puzzle": entry.name(),
            "size": what,
            "from": args.from,
            "up_to": up_to,
            "verified": verified,
            "levels": summary.levels,
            "against_certificate": record.as_ref().map(|_| against.iter().zip(&summary.levels).map(|(a, l)| {
                let (against, digest) = match a {
                    AgainstRecord::Same => ("same", None),
                    AgainstRecord::Differs(r) => ("differs", Some(r.digest.clone())),
                    AgainstRecord::NotRecorded => ("not recorded", None),
                };
                serde_json::json!({"size": l.size, "against": against, "recorded_digest": digest})
            }).collect::<Vec<_>>()),
            "cases": summary.levels.iter().map(|l| l.cases).sum::<u64>(),
            "checked": summary.tally.cases,
            "seconds": summary.elapsed.as_secs_f64(),
            "bugs": bugs,
        }));
    }
    if args.output.format == OutputFormat::Json {
        print_json(&serde_json::json!({
            "lockstep": "verify",
            "schema": crate::report::SCHEMA,
            "limits": args.limits.to_string(),
            "symmetry": !args.no_symmetry,
            "shard": args.shard.to_string(),
            "jobs": args.jobs,
            "puzzles": documents,
            "stopped_by_signal": crate::process::stopped_by(),
        }));
    }
    if let (Some(path), Some(kept)) = (&args.record, &kept) {
        match complete && crate::process::stopped_by().is_none() {
            true => {
                kept.write(path)?;
                errln!("recorded: {}", path.display());
            }
            false => errln!(
                "not recorded: {} holds a certificate only of a run that verified every level",
                path.display()
            ),
        }
    }
    if let Some(signal) = crate::process::stopped_by() {
        errln!(
            "stopped by signal {signal}: a level cut short is not verified; resume with --from at its size"
        );
    }
    Ok(Exit::found_if(found || !complete))
}

/// The certificate the levels are held to: `--certificate`'s, else the
/// built-in one, when it holds runs like this one (its limits and symmetry,
/// the whole run, every case of a level). `None` with `--no-certificate`.
fn recorded_certificate(args: &VerifyArgs) -> Result<Option<RecordedCertificate>> {
    if args.no_certificate || args.case.is_some() || args.shard != Shard::WHOLE {
        return Ok(None);
    }
    let (record, name) = match &args.certificate {
        Some(path) => (RecordedCertificate::load(path)?, path.display().to_string()),
        None => (
            RecordedCertificate::built_in(),
            "the built-in certificate".to_string(),
        ),
    };
    let limits = args.limits.to_string();
    if !record.applies_to(&limits, !args.no_symmetry) {
        errln!(
            "not compared with {name}: it holds {} limits, {}",
            record.limits,
            match record.symmetry {
                true => "one case per symmetry class",
                false => "every case",
            }
        );
        return Ok(None);
    }
    Ok(Some(record))
}

/// The certificate `--record` adds to: the file's, when it exists and holds
/// runs like this one, else a new one.
fn to_record(args: &VerifyArgs, path: &std::path::Path) -> Result<RecordedCertificate> {
    let limits = args.limits.to_string();
    if !path.exists() {
        return Ok(RecordedCertificate::new(&limits, !args.no_symmetry));
    }
    let old = RecordedCertificate::load(path)?;
    if !old.applies_to(&limits, !args.no_symmetry) {
        bail!(
            "{} holds {} limits{}: record this run in another file",
            path.display(),
            old.limits,
            match old.symmetry {
                true => " with symmetry",
                false => " without symmetry",
            }
        );
    }
    Ok(old)
}

/// The last size verified of a puzzle: `--size`, else its scope's.
fn last_size(args: &VerifyArgs, entry: &dyn crate::registry::AnyPuzzle) -> u32 {
    let (_, ci, night) = entry.sizes();
    args.size.unwrap_or(match args.scope {
        Scope::Ci => ci,
        Scope::Night => night,
    })
}

/// One puzzle's levels as a table, and what they prove.
struct Certificate<'a> {
    name: &'static str,
    what: &'static str,
    from: u32,
    up_to: u32,
    levels: &'a [LevelCertificate],
    /// Each level against the recorded certificate.
    against: &'a [AgainstRecord],
    verified: bool,
    shard: Shard,
}

impl std::fmt::Display for Certificate<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}: size = {}", self.name, self.what)?;
        writeln!(
            f,
            "{:>6} {:>12} {:>12} {:>8} {:>8}  {:<16} {:<9} {:>9}",
            "size", "cases", "checked", "skipped", "differ", "digest", "recorded", "seconds"
        )?;
        for (l, against) in self.levels.iter().zip(self.against) {
            let against = match against {
                AgainstRecord::Same => "same",
                AgainstRecord::Differs(_) => "DIFFERS",
                AgainstRecord::NotRecorded => "-",
            };
            writeln!(
                f,
                "{:>6} {:>12} {:>12} {:>8} {:>8}  {:016x} {against:<9} {:>9.2}",
                l.size,
                l.cases,
                l.classes,
                l.skipped,
                l.disagreements,
                l.digest,
                l.seconds()
            )?;
        }
        for l in self.levels {
            if let Some(index) = l.first_unreadable {
                writeln!(
                    f,
                    "size {}: {} of the cases whose judge format was checked (every case of the \
                     first {JUDGE_ALL_BELOW} indexes, then one in {JUDGE_EVERY}) did not read back as \
                     themselves: the input is written wrong or read wrong. The first is `size {} \
                     case {index}`.",
                    l.size, l.unreadable, l.size
                )?;
            }
        }
        for (l, against) in self.levels.iter().zip(self.against) {
            if let AgainstRecord::Differs(recorded) = against {
                writeln!(
                    f,
                    "size {}: {} cases, {} checked, digest {:016x}; recorded {} cases, {} checked, \
                     digest {}. Core and reference agree, so what changed is code they share (the \
                     model, the judge I/O, the trace vocabulary, the duel's evaluation) or the \
                     level itself; if the change is meant, record it again (--record FILE).",
                    l.size, l.cases, l.classes, l.digest, recorded.cases, recorded.classes,
                    recorded.digest
                )?;
            }
        }
        let cases: u64 = self.levels.iter().map(|l| l.cases).sum();
        let mut part = match self.shard == Shard::WHOLE {
            true => String::new(),
            false => format!(" of shard {}", self.shard),
        };
        if self.from > 1 {
            part += &format!(" from size {}", self.from);
        }
        match self.verified {
            true => writeln!(
                f,
                "verified: every case{part} up to size {} agrees ({})",
                self.up_to,
                crate::text::counted(cases, "case")
            ),
            false => writeln!(f, "not verified up to size {}", self.up_to),
        }
    }
}
