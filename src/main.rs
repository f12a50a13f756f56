//! The `lockstep` command; everything but the exit code lives in `lockstep::cli`.

fn main() {
    std::process::exit(lockstep::cli::main());
}
