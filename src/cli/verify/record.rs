//! The certificates of a verify run: the one its levels are held to
//! (`--certificate`, or the built-in one) and the one `--record` writes,
//! only of a run that verified every level.

use super::VerifyArgs;
use anyhow::{bail, Result};
use lockstep_harness::campaign::recorded::RecordedCertificate;
use lockstep_search::Shard;
use std::io::Write;

/// The certificate the levels are held to: `--certificate`'s, else the
/// built-in one, when it holds runs like this one (its limits and symmetry,
/// the whole run, every case of a level). `None` with `--no-certificate`.
pub(super) fn recorded_certificate(args: &VerifyArgs) -> Result<Option<RecordedCertificate>> {
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
pub(super) fn to_record(args: &VerifyArgs, path: &std::path::Path) -> Result<RecordedCertificate> {
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

/// `--record`: the certificate written only of a run that verified every
/// level and was not stopped.
pub(super) fn record_if_complete(
    path: &std::path::Path,
    kept: &RecordedCertificate,
    complete: bool,
) -> Result<()> {
    match complete && lockstep_stop::stopped_by().is_none() {
        true => {
            kept.write(path)?;
            errln!("recorded: {}", path.display());
        }
        false => errln!(
            "not recorded: {} holds a certificate only of a run that verified every level",
            path.display()
        ),
    }
    Ok(())
}
