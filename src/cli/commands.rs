//! The other commands' bodies: solve, perft, fuzz, triage, replay, stress and
//! bench, each printing its report.

use super::*;

/// Perft is checkers-only, so it is a command of its own rather than a method of
/// every puzzle.
pub(super) fn perft(max_depth: u32, reference: bool, threads: usize) -> Result<i32> {
    let count = |depth: u32| {
        if reference {
            lockstep_reference::checkers::perft(depth, &mut lockstep_reference::Fuel::unlimited())
                .expect("unlimited fuel does not run out")
        } else {
            lockstep_core::checkers::perft_parallel(depth, threads)
        }
    };
    // A deep count can run for days: say so first, from the growth and the rate
    // of a quick count measured now.
    let probe = max_depth.min(if reference { 6 } else { 9 });
    if max_depth > probe {
        let start = std::time::Instant::now();
        let nodes = count(probe) as f64;
        let rate = nodes / start.elapsed().as_secs_f64().max(1e-9);
        let growth = nodes / (count(probe - 1) as f64).max(1.0);
        let estimate = nodes * growth.powi((max_depth - probe) as i32);
        let seconds: f64 = (probe + 1..=max_depth)
            .map(|d| nodes * growth.powi((d - probe) as i32) / rate)
            .sum();
        if seconds > 60.0 {
            errln!(
                "warning: perft to depth {max_depth} counts about {estimate:.1e} nodes at depth {max_depth} (x{growth:.1} per ply); at the {:.0} M nodes/s just measured that is about {} in all (Ctrl-C stops it)",
                rate / 1e6,
                human_duration(seconds)
            );
        }
    }
    let mut stdout = std::io::stdout().lock();
    for depth in 1..=max_depth {
        let start = std::time::Instant::now();
        let nodes = count(depth);
        let seconds = start.elapsed().as_secs_f64();
        writeln!(stdout, "{depth} {nodes}")?;
        stdout.flush()?;
        errln!(
            "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s, {})",
            nodes as f64 / seconds.max(1e-9) / 1e6,
            if reference {
                "reference".to_string()
            } else {
                format!(
                    "core, {threads} thread{}",
                    if threads == 1 { "" } else { "s" }
                )
            }
        );
    }
    Ok(0)
}

/// Seconds as a person reads them: `45 s`, `12 min`, `3.5 h`, `9.1 days`.
pub(super) fn human_duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < 2.0 * 31_557_600.0 => format!("{:.1} days", s / 86_400.0),
        s => format!("{:.0} years", s / 31_557_600.0),
    }
}

pub(super) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(super) fn solve(entry: &dyn AnyPuzzle, reference: bool) -> Result<i32> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading stdin (judge input must be UTF-8 text)")?;
    match entry.solve(&input, reference) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(output.as_bytes())?;
            stdout.flush()?;
            Ok(0)
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(2)
        }
    }
}

/// Records a finding's row (in the corpus, or a fallback file when that fails)
/// and prints the row, ready to paste, and where it went. Never fails: a finding
/// that cannot be written anywhere is still printed in full.
pub(super) fn record_finding(
    entry: &dyn AnyPuzzle,
    dir: Option<&Path>,
    row: &corpus::Row,
) -> Option<corpus::Recorded> {
    let recorded = dir.map(|dir| entry.record(dir, row.clone()));
    outln!("{}", corpus::row_to_csv(row).trim_end());
    if let Some(recorded) = &recorded {
        errln!("{recorded}");
    }
    recorded
}

pub(super) fn fuzz(
    entries: &[&dyn AnyPuzzle],
    options: &CampaignOptions,
    dir: Option<&Path>,
) -> Result<i32> {
    let shard = if options.shard == crate::campaign::Shard::WHOLE {
        String::new()
    } else {
        let jobs = options.jobs as u64;
        let mine = options.shard.jobs(jobs);
        format!(
            ", shard {}: global jobs {}-{} of {}",
            options.shard,
            mine.start,
            mine.end - 1,
            jobs * options.shard.count
        )
    };
    let repeat_shard = if options.shard == crate::campaign::Shard::WHOLE {
        String::new()
    } else {
        format!(" --shard {}", options.shard)
    };
    errln!(
        "lockstep fuzz: seed {}, {} jobs{shard}, {:.1} s per puzzle, {} limits (repeat with --seed {} --jobs {}{repeat_shard} --limits {})",
        options.seed,
        options.jobs,
        options.seconds,
        options.limits,
        options.seed,
        options.jobs,
        options.limits
    );
    announce_corpus(dir);
    let mut rows = Vec::new();
    let mut found = false;
    for entry in entries {
        let summary = entry.fuzz(options);
        if let Some((report, row)) = &summary.finding {
            found = true;
            errln!("\n{report}");
            record_finding(*entry, dir, row);
        }
        rows.push((entry.name(), summary));
    }
    out!(
        "{}",
        crate::registry::FuzzTable {
            rows: &rows,
            limits: options.limits
        }
    );
    Ok(i32::from(found))
}

/// `lockstep triage --check`: every puzzle's corpus file loads and takes rows.
pub(super) fn check_corpus(entries: &[&dyn AnyPuzzle], dir: &Path) -> Result<i32> {
    for entry in entries {
        let rows = entry
            .load(dir, true)
            .with_context(|| format!("the corpus cannot take findings for {}", entry.name()))?;
        errln!(
            "{}: {} rows, writable",
            entry.corpus_path(dir).display(),
            rows
        );
    }
    Ok(0)
}

/// `lockstep triage`: every artifact of every target folder under `artifacts`
/// checked, shrunk and recorded. `named` says the targets were named by the
/// user: each then has its line in the table, with zeros when it has no folder.
pub(super) fn triage(
    entries: &[&'static dyn AnyPuzzle],
    named: bool,
    artifacts: &Path,
    dir: &Path,
    limit: std::time::Duration,
) -> Result<i32> {
    use crate::triage::{triage_target, Reproduce, Table};
    if !artifacts.is_dir() && !named {
        errln!(
            "{}: no artifacts directory, nothing to triage",
            artifacts.display()
        );
        return Ok(0);
    }
    announce_corpus(Some(dir));
    let mut reports = Vec::new();
    for &entry in entries {
        // cargo-fuzz names a target's folder after the fuzz target (the module).
        let folder = [entry.module(), entry.name()]
            .iter()
            .map(|name| artifacts.join(name))
            .find(|path| path.is_dir());
        let Some(folder) = folder else {
            // A named target with no folder found nothing: it is listed with
            // zeros; an unnamed one is left out.
            if named {
                reports.push(crate::triage::TargetReport {
                    target: entry.module().to_string(),
                    ..Default::default()
                });
            }
            continue;
        };
        let reproduce: Reproduce = std::sync::Arc::new(move |bytes: &[u8]| {
            entry
                .shrink(
                    bytes,
                    Encoding::Bytes,
                    "cargo-fuzz artifact, by lockstep triage",
                )
                .map(|summary| (summary.report, summary.row))
        });
        let record = |row: corpus::Row| {
            outln!("{}", corpus::row_to_csv(&row).trim_end());
            entry.record(dir, row)
        };
        let report = triage_target(entry.module(), &folder, &reproduce, &record, limit)
            .with_context(|| format!("triaging {}", folder.display()))?;
        for item in &report.items {
            errln!("{item}");
        }
        reports.push(report);
    }
    out!("{}", Table(&reports));
    let unsaved: usize = reports.iter().map(|r| r.unsaved).sum();
    if unsaved > 0 {
        errln!(
            "triage: {unsaved} row(s) could not be appended to the corpus (see above); their artifacts stay for the next triage"
        );
    }
    Ok(i32::from(reports.iter().any(|r| r.found())))
}

pub(super) fn replay(entries: &[&dyn AnyPuzzle], dir: &std::path::Path) -> Result<i32> {
    let mut failed = 0;
    let mut total = 0;
    for entry in entries {
        let report = entry.replay(dir)?;
        let path = entry.corpus_path(dir);
        out!(
            "{}",
            crate::replay::Shown {
                puzzle: entry.name(),
                path: &path,
                report: &report
            }
        );
        failed += report.failures.len();
        total += report.rows;
    }
    outln!("replay: {} passed, {failed} failed", total - failed);
    Ok(i32::from(failed > 0))
}

pub(super) fn stress(
    entry: &dyn AnyPuzzle,
    options: &StressOptions,
    save: &std::path::Path,
    dir: Option<&Path>,
) -> Result<i32> {
    errln!(
        "lockstep stress {}: seed {}, {} jobs, time limit {} ms, {} limits (repeat with --seed {} --jobs {})",
        entry.name(),
        options.seed,
        options.jobs,
        options.timeout.as_millis(),
        options.case_limits,
        options.seed,
        options.jobs
    );
    announce_corpus(dir);
    let summary = entry.stress(options);
    if crate::process::interrupted() {
        // The signal's thread exits; a failure seen now is its kill's doing,
        // never to be recorded as a finding.
        loop {
            std::thread::park();
        }
    }
    out!("{}", crate::registry::StressTable(entry.name(), &summary));
    if summary.failures.is_empty() {
        return Ok(0);
    }
    let several = summary.failures.len() > 1;
    for failure in &summary.failures {
        errln!("\n{}", failure.report);
        record_finding(entry, dir, &failure.row);
        // With several kinds, each saved input is named after its kind.
        let path = if several {
            with_kind(save, failure.kind)
        } else {
            save.to_path_buf()
        };
        // The row holds the input too, so failing to save it is reported, not fatal.
        match std::fs::write(&path, &failure.input) {
            Ok(()) => errln!("saved the minimal failing input to {}", path.display()),
            Err(e) => errln!(
                "could not save the minimal failing input to {}: {e} (the row above holds it)",
                path.display()
            ),
        }
    }
    Ok(1)
}

pub(super) fn stress_any(
    options: &crate::stress::any::AnyOptions,
    save: &std::path::Path,
) -> Result<i32> {
    errln!(
        "lockstep stress: seeds {}, {}, ... for `{}`, {} jobs, time limit {} ms (repeat with --seed {} --jobs {})",
        options.seed,
        options.seed.wrapping_add(1),
        options.programs.generator,
        options.jobs,
        options.limits.time.as_millis(),
        options.seed,
        options.jobs
    );
    let report = crate::stress::any::run(options).context("making the checker's directory")?;
    if crate::process::interrupted() {
        // The signal's thread exits; a failure seen now is its kill's doing.
        loop {
            std::thread::park();
        }
    }
    out!("{report}");
    if let Some(problem) = &report.problem {
        bail!("{problem}");
    }
    if report.failures.is_empty() {
        return Ok(0);
    }
    let several = report.failures.len() > 1;
    for failure in &report.failures {
        errln!("\n{}", failure.report(options));
        let path = if several {
            with_kind(save, failure.failed.code())
        } else {
            save.to_path_buf()
        };
        match crate::corpus::write_whole(&path, failure.shrunk.text.as_bytes()) {
            Ok(()) => errln!("saved the minimal failing input to {}", path.display()),
            Err(e) => errln!(
                "could not save the minimal failing input to {}: {e:#} (it is printed above)",
                path.display()
            ),
        }
    }
    Ok(1)
}

/// `save` with the failure's kind in its name: `x.txt` -> `x-WA.txt`.
fn with_kind(save: &Path, kind: &str) -> std::path::PathBuf {
    let stem = save.file_stem().unwrap_or_default().to_string_lossy();
    let name = match save.extension() {
        Some(ext) => format!("{stem}-{kind}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{kind}"),
    };
    save.with_file_name(name)
}

pub(super) fn stress_duel(
    options: &crate::duel::stress::DuelStressOptions,
    save: &std::path::Path,
) -> Result<i32> {
    errln!(
        "lockstep duel stress: seed {}, {} jobs (repeat with --seed {} --jobs {})",
        options.seed,
        options.jobs,
        options.seed,
        options.jobs
    );
    let exe =
        std::env::current_exe().context("finding the lockstep binary for the built-in bots")?;
    let report = crate::duel::stress::run(options, &exe).map_err(anyhow::Error::msg)?;
    out!("{report}");
    let Some(failure) = report.failure else {
        return Ok(0);
    };
    errln!(
        "\ngame {}: the bot {:?}: {}\nreplay: {}\nlog:\n{}",
        failure.game,
        failure.kind,
        failure.message,
        failure.replay,
        failure.log
    );
    match std::fs::write(save, &failure.log) {
        Ok(()) => errln!("saved the game log to {}", save.display()),
        Err(e) => errln!(
            "could not save the game log to {}: {e} (it is printed above)",
            save.display()
        ),
    }
    Ok(1)
}

pub(super) fn bench(entries: &[&dyn AnyPuzzle], options: &BenchOptions) -> Result<i32> {
    // Row by row, as each puzzle is measured: a whole bench takes minutes.
    out!("{}", crate::bench::Header(options));
    for entry in entries {
        out!(
            "{}",
            crate::bench::Line(entry.name(), &entry.bench(options))
        );
    }
    Ok(0)
}
