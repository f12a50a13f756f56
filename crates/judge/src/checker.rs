//! A testlib checker through its protocol (`checker input output answer`
//! on files in a private directory; the exit code read strictly), and that
//! private directory (`Scratch`), which interactive runs use for their
//! test files too.

use super::program::why;
use super::{tail, Verdict};
use lockstep_process::{ProgramEnd, Resources};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A private directory for the checker's files, removed when dropped (and at
/// lockstep's exit, even by a signal).
#[derive(Debug)]
pub(crate) struct Scratch {
    dir: PathBuf,
    next: AtomicU64,
}

impl Scratch {
    pub(crate) fn new() -> std::io::Result<Scratch> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("lockstep-checker-{}-{nanos}", std::process::id()));
        std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
            .create(&dir)?;
        lockstep_process::remove_at_exit(&dir);
        Ok(Scratch {
            dir,
            next: AtomicU64::new(0),
        })
    }

    /// The directory itself.
    pub(crate) fn path(&self) -> &Path {
        &self.dir
    }

    /// `N` fresh paths in the directory, one per extension, sharing a
    /// number no other call gets (an interactive test and its output file).
    pub(crate) fn fresh<const N: usize>(&self, exts: [&str; N]) -> [PathBuf; N] {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        exts.map(|ext| self.dir.join(format!("{n}.{ext}")))
    }

    /// Runs the checker on one output: accepted, rejected with its message,
    /// or the checker's own failure.
    pub(crate) fn check(
        &self,
        checker: &str,
        input: &str,
        output: &str,
        answer: &str,
        limits: Resources,
    ) -> (Result<Verdict, String>, Duration) {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let files = ["in", "out", "ans"].map(|ext| self.dir.join(format!("{n}.{ext}")));
        for (file, text) in files.iter().zip([input, output, answer]) {
            if let Err(e) = std::fs::write(file, text) {
                return (
                    Err(format!("could not write {}: {e}", file.display())),
                    Duration::ZERO,
                );
            }
        }
        let cmd = format!(
            "{checker} {} {} {}",
            lockstep_process::quoted(&files[0]),
            lockstep_process::quoted(&files[1]),
            lockstep_process::quoted(&files[2])
        );
        let result = lockstep_process::execute(&cmd, "", limits);
        for file in &files {
            let _ = std::fs::remove_file(file);
        }
        let run = match result {
            Ok(run) => run,
            Err(e) => return (Err(format!("could not start: {e}")), Duration::ZERO),
        };
        let verdict = match run.ending {
            ProgramEnd::Exited(status) if status.success() => Ok(Verdict::Ok),
            // testlib's _fail: the checker says it is broken, or the answer is.
            ProgramEnd::Exited(status) if status.code() == Some(3) => Err(format!(
                "exit code 3 (testlib's FAIL); it says:\n{}",
                lockstep_text::indent(&tail(&format!("{}{}", run.stdout, run.stderr), 5))
            )),
            // A Python checker that crashed exits 1 as well, with a traceback.
            ProgramEnd::Exited(_) if run.stderr.contains("Traceback (most recent call last)") => {
                Err(format!(
                    "it crashed; stderr ends with:\n{}",
                    lockstep_text::indent(&tail(&run.stderr, 5))
                ))
            }
            // testlib's _wa and _pe; any other code is not a verdict.
            ProgramEnd::Exited(status) if matches!(status.code(), Some(1 | 2)) => {
                let said = format!("{} {}", run.stderr.trim(), run.stdout.trim());
                let said = said.trim();
                Ok(Verdict::WrongAnswer(format!(
                    "the checker rejects it ({}){}{}",
                    super::describe_status(status),
                    if said.is_empty() { "" } else { ": " },
                    lockstep_text::clip(said.lines().next().unwrap_or(""), 200)
                )))
            }
            _ => Err(format!(
                "{} (testlib's codes: 0 accepts, 1 wrong answer, 2 presentation error, 3 FAIL)",
                why(&run, limits).unwrap_or_default()
            )),
        };
        (verdict, run.elapsed)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
