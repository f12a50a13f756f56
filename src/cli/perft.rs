//! `lockstep perft`: checkers perft from the standard start, one line
//! `depth nodes` per depth (timings on stderr), by the bitboard core or the
//! naive reference.

use super::common::{default_jobs, human_duration};
use super::values::thread_count;
use super::Exit;
use anyhow::Result;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub(super) struct PerftArgs {
    /// The deepest ply counted (deep ones take long: an estimate is printed).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Count with the naive reference instead of the bitboard core.
    #[arg(long)]
    reference: bool,
    /// Threads for the core; the default is this machine's cores
    /// (`--threads`, its old name, still works).
    #[arg(long, alias = "threads", default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
}

/// Perft is checkers-only, so it is a command of its own rather than a method of
/// every puzzle.
pub(super) fn perft(args: PerftArgs) -> Result<Exit> {
    let PerftArgs {
        depth: max_depth,
        reference,
        jobs: threads,
    } = args;
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
    Ok(Exit::Clean)
}
