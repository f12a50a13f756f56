//! The `lockstep` command; everything but the exit code lives in `lockstep::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A launcher (lockstep's way to measure a program's memory) does its job
    // and exits before anything else: it must stay small.
    if let Some(code) = lockstep_process::launcher_entry() {
        return ExitCode::from(code);
    }
    // Returning the code (rather than `process::exit`) lets destructors run,
    // so buffered output is flushed; the codes are 0, 1 and 2.
    ExitCode::from(u8::try_from(lockstep::cli::main()).unwrap_or(2))
}
