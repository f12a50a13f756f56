//! The `lockstep` command; everything but the exit code lives in `lockstep::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Returning the code (rather than `process::exit`) lets destructors run,
    // so buffered output is flushed; the codes are 0, 1 and 2.
    ExitCode::from(u8::try_from(lockstep::cli::main()).unwrap_or(2))
}
