//! `lockstep stress any --interactor I --gen G --cmd C` on the command line:
//! the programs made runnable and checked, the run, and its report (the
//! shrunk test saved to `--save`, its whole transcript beside it).

use super::summary::{run_end, save_input, saved_as, seeds_banner, GeneratorDoc};
use super::AnyStressArgs;
use crate::cli::judged::ProgramFlags;
use crate::cli::output::{print_document, OutputFormat};
use crate::cli::Exit;
use anyhow::{bail, Context, Result};
use lockstep_judge::stress::interactive::{stress_interactive as run_stress, InteractiveOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the whole transcript of the failure saved to `save` goes.
fn transcript_path(save: &Path) -> PathBuf {
    let mut name = save.as_os_str().to_os_string();
    name.push(".transcript");
    PathBuf::from(name)
}

pub(super) fn stress_interactive(args: AnyStressArgs) -> Result<Exit> {
    lockstep_search::Address::check_kind(args.run.case.as_ref(), lockstep_search::Address::Seed(0))
        .map_err(anyhow::Error::msg)?;
    let limits = &args.run.resources;
    if limits.memory_limited() {
        bail!("--memory-limit is not supported with --interactor yet: the relay does not measure the solution's memory");
    }
    let mut flags = ProgramFlags::new();
    let interactor = args.interactor.as_deref().unwrap_or_default();
    // The interactor is made after the generator, as the flags are read.
    let (run, mut tools, banner) =
        super::user_run(&args, &mut flags, &[("--interactor", interactor)])?;
    let options = InteractiveOptions {
        run,
        interactor: tools.remove(0),
    };
    let rest = format!(
        "{}, the interactor's {} ms once the solution ends",
        banner, args.tool_timeout_ms
    );
    let generator = format!(
        "{}`, interactor `{}",
        options.run.generator, options.interactor
    );
    errln!("{}", seeds_banner(&options.run.plan, &generator, &rest));
    let report = run_stress(&options).context("making lockstep's scratch directory")?;
    run_end(&report, &report.end, args.format)?;
    let mut failures = Vec::new();
    for failure in &report.failures {
        let text = failure.report(&options);
        errln!("\n{text}");
        let path = saved_as(&args.save, args.run.keep_going, failure.failed.code());
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
        failures.push(InteractiveFailureDoc {
            kind: failure.failed.failure(),
            seed: failure.seed,
            original: failure.original.clone(),
            test: failure.shrunk.text.clone(),
            rerun: failure.verdict.code(),
            transcript_lines: failure.interaction.as_ref().map(|x| x.transcript.lines),
            saved,
            transcript,
            report: text,
        });
    }
    if args.format == OutputFormat::Json {
        print_document(
            "stress-interactive",
            &InteractiveStress {
                interactor: options.interactor.clone(),
                lines: report.lines,
                failures,
                run: GeneratorDoc::of(&options.run, &report.counts, report.elapsed, &report.end),
            },
        );
    }
    Ok(Exit::found_if(!report.failures.is_empty()))
}

/// `lockstep stress --interactor ... --format json`'s document.
#[derive(serde::Serialize)]
struct InteractiveStress {
    interactor: String,
    /// Transcript lines relayed in all.
    lines: u64,
    failures: Vec<InteractiveFailureDoc>,
    #[serde(flatten)]
    run: GeneratorDoc,
}

/// One shrunk failure of an interactive stress.
#[derive(serde::Serialize)]
struct InteractiveFailureDoc {
    kind: lockstep_judge::Failed,
    seed: u64,
    original: String,
    test: String,
    rerun: &'static str,
    transcript_lines: Option<usize>,
    saved: Option<String>,
    transcript: Option<String>,
    report: String,
}
