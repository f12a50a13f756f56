//! `lockstep report`: one self-contained HTML page from the JSON of
//! campaigns (`fuzz --format json`) and nights (`triage --format json`).

use super::Exit;
use crate::report::{report_html, report_sections, Source};
use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ReportArgs {
    /// JSON documents written by `lockstep fuzz --format json` or `lockstep
    /// triage --format json`, in the order the page shows them (`-` reads
    /// stdin).
    #[arg(required = true, value_name = "JSON")]
    inputs: Vec<PathBuf>,
    /// The page to write (replaced whole, never half-written).
    #[arg(
        long,
        short,
        value_name = "FILE",
        default_value = "lockstep-report.html"
    )]
    out: PathBuf,
    /// The page's title.
    #[arg(long, default_value = "lockstep report")]
    title: String,
}

pub(super) fn report(args: ReportArgs) -> Result<Exit> {
    super::output::check_can_write(&args.out, "--out")?;
    let mut sources = Vec::new();
    for input in &args.inputs {
        let (name, text) = if input.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading the JSON from stdin")?;
            ("stdin".to_string(), text)
        } else {
            let text = std::fs::read_to_string(input)
                .with_context(|| format!("reading {}", input.display()))?;
            (input.display().to_string(), text)
        };
        let document = serde_json::from_str(&text).with_context(|| {
            format!("{name}: not JSON (is it the stdout of a --format json run?)")
        })?;
        sources.push(Source { name, document });
    }
    let sections = report_sections(&sources)?;
    let page = report_html(&args.title, &sections)?;
    lockstep_harness::corpus::write_whole(&args.out, page.as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    let bugs: usize = sections.iter().map(|s| s.bugs.len()).sum();
    for section in &sections {
        for bug in &section.bugs {
            errln!(
                "{}: bug {} ({}): {}",
                section.title,
                bug.signature,
                lockstep_text::counted(bug.count, "example"),
                if bug.recorded.is_empty() {
                    "printed only"
                } else {
                    &bug.recorded
                }
            );
        }
    }
    errln!(
        "report: {} ({} bytes): {}, {}",
        args.out.display(),
        page.len(),
        lockstep_text::counted(sections.len() as u64, "section"),
        lockstep_text::counted(bugs as u64, "bug")
    );
    Ok(Exit::Clean)
}
