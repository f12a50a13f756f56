//! `lockstep stress any --interactor I --gen G --cmd C` on the command line:
//! the programs made runnable and checked, the run, and its report (the
//! shrunk test saved to `--save`, its whole transcript beside it).

use super::report::{counts_json, save_input};
use super::AnyStressArgs;
use crate::cli::common::{print_json, with_kind, OutputFormat};
use crate::cli::judged::ProgramFlags;
use crate::cli::Exit;
use crate::seeds::fresh_seed;
use crate::stress::interactive::{stress_interactive as run_stress, InteractiveOptions};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the whole transcript of the failure saved to `save` goes.
fn transcript_path(save: &Path) -> PathBuf {
    let mut name = save.as_os_str().to_os_string();
    name.push(".transcript");
    PathBuf::from(name)
}

pub(super) fn stress_interactive(args: AnyStressArgs) -> Result<Exit> {
    let limits = &args.run.limits_per_run;
    if limits.memory_limited() {
        bail!("--memory-limit is not supported with --interactor yet: the relay does not measure the solution's memory");
    }
    let mut flags = ProgramFlags::new();
    let solution = flags.runnable("--cmd", &args.cmd)?;
    let interactor = args.interactor.as_deref().unwrap_or_default();
    let options = InteractiveOptions {
        generator: flags.runnable("--gen", &args.gen)?.command,
        interactor: flags.runnable("--interactor", interactor)?.command,
        solution: solution.command.clone(),
        checker: flags
            .optional("--checker", args.checker.as_ref())?
            .map(|r| r.command),
        validator: flags
            .optional("--validator", args.validator.as_ref())?
            .map(|r| r.command),
        max_cases: args.run.length.cases,
        seconds: args.run.length.seconds(),
        limits: limits.per_run(&solution),
        helper_time: Duration::from_millis(args.helper_timeout_ms),
        seed: args.seed.unwrap_or_else(|| fresh_seed() % 1_000_000_000),
        jobs: args.run.jobs,
        progress: true,
        keep_going: args.run.keep_going,
        shrink: args.run.shrink.budget(),
        dump: args.dump.clone(),
    };
    // The generator's start-up check (the interactor needs a test to start,
    // and the solution an interactor: both are checked by the first case).
    if let Err(message) = crate::stress::check_command(&options.generator, limits.tool_startup()) {
        bail!("--gen: {message}");
    }
    if let Some(dir) = &options.dump {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--dump {}: creating it", dir.display()))?;
    }
    errln!(
        "lockstep stress: seeds {}, {}, ... for `{}`, interactor `{}`, {}, {}, the interactor's {} ms once the solution ends (repeat with --seed {} --jobs {})",
        options.seed,
        options.seed.wrapping_add(1),
        options.generator,
        options.interactor,
        crate::text::counted(options.jobs as u64, "job"),
        limits.banner(&solution),
        args.helper_timeout_ms,
        options.seed,
        options.jobs
    );
    let report = run_stress(&options).context("making lockstep's scratch directory")?;
    if crate::process::interrupted() {
        // The signal's thread exits; a failure seen now is its kill's doing.
        loop {
            std::thread::park();
        }
    }
    if args.format == OutputFormat::Text {
        out!("{report}");
    }
    for warning in &report.warnings {
        errln!("warning: {warning}");
    }
    if let Some(problem) = &report.problem {
        bail!("{problem}");
    }
    let several = report.failures.len() > 1;
    let mut failures = Vec::new();
    for failure in &report.failures {
        let text = failure.report(&options);
        errln!("\n{text}");
        let path = if several {
            with_kind(&args.save, failure.failed.code())
        } else {
            args.save.clone()
        };
        let saved = save_input(&path, &failure.shrunk.text, "it is printed above");
        let transcript = failure.whole_transcript.as_ref().and_then(|whole| {
            let to = transcript_path(&path);
            match std::fs::copy(whole, &to) {
                Ok(_) => {
                    errln!("saved its whole transcript to {}", to.display());
                    Some(to.display().to_string())
                }
                Err(e) => {
                    errln!("could not save the transcript to {}: {e}", to.display());
                    None
                }
            }
        });
        failures.push(serde_json::json!({
            "kind": failure.failed.code(),
            "seed": failure.seed,
            "original": failure.original,
            "test": failure.shrunk.text,
            "rerun": failure.verdict.code(),
            "transcript_lines": failure.interaction.as_ref().map(|x| x.transcript.lines),
            "saved": saved,
            "transcript": transcript,
            "report": text,
        }));
    }
    if args.format == OutputFormat::Json {
        print_json(&serde_json::json!({
            "lockstep": "stress-interactive",
            "schema": crate::report::SCHEMA,
            "generator": options.generator,
            "interactor": options.interactor,
            "command": options.solution,
            "seed": options.seed,
            "jobs": options.jobs,
            "counts": counts_json(&report.counts),
            "lines": report.lines,
            "seconds": report.elapsed.as_secs_f64(),
            "warnings": report.warnings,
            "failures": failures,
            "failing": report.failing.iter()
                .map(|(kind, seed)| serde_json::json!({"kind": kind, "seed": seed}))
                .collect::<Vec<_>>(),
        }));
    }
    Ok(Exit::found_if(!report.failures.is_empty()))
}
