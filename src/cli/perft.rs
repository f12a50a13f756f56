//! `lockstep perft`: checkers perft from the standard start, one line
//! `depth nodes` per depth (timings, table statistics, estimates and progress
//! on stderr), by the bitboard core (with its transposition table, on every
//! core) or the naive reference; `--divide` counts per first move, and
//! `--check-reference` holds the core's divide to the reference's at every
//! node.

use super::common::{default_jobs, human_duration};
use super::values::thread_count;
use super::Exit;
use anyhow::{bail, Result};
use lockstep_core::checkers::{start_board, Captures, Perft, PerftOptions, Progress, Side};
use lockstep_harness::puzzles::checkers_perft::published::{
    check_divides, core_rows, reference_divide,
};
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// The counting convention, as the flag spells it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CapturesArg {
    /// Every jump path its own move (OEIS A133046; Checker's Check's moves).
    Paths,
    /// A king's paths that take the same pieces and land on the same square
    /// count once (Rein Halbersma's dctl).
    Sets,
}

#[derive(clap::Args, Debug)]
pub(super) struct PerftArgs {
    /// The deepest ply counted (deep ones take long: estimates are printed as
    /// the depths go).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Count with the naive reference instead of the bitboard core.
    #[arg(long)]
    reference: bool,
    /// Threads for the core; the default is this machine's cores
    /// (`--threads`, its old name, still works).
    #[arg(long, alias = "threads", default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// The core's transposition table in MiB (rounded down to a power of two
    /// of 64-byte buckets); 0 counts without a table.
    #[arg(long, default_value_t = 1024, value_parser = super::values::table_mib)]
    hash_mb: usize,
    /// Nodes at this remaining depth or deeper go through the table.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=31))]
    hash_depth: u32,
    /// Which jump sequences are different moves: `paths` (every path, as OEIS
    /// A133046 counts) or `sets` (a king's paths over the same pieces to the
    /// same square once, as dctl counts).
    #[arg(long, value_enum, default_value_t = CapturesArg::Paths)]
    captures: CapturesArg,
    /// Only the last depth, divided: the count after each first move.
    #[arg(long)]
    divide: bool,
    /// Check the core's divide against the reference's at every node down to
    /// --depth (slow: the reference counts every subtree).
    #[arg(long)]
    check_reference: bool,
}

/// Perft is checkers-only, so it is a command of its own rather than a method of
/// every puzzle.
pub(super) fn perft(args: PerftArgs) -> Result<Exit> {
    let captures = match args.captures {
        CapturesArg::Paths => Captures::Paths,
        CapturesArg::Sets => Captures::Sets,
    };
    if args.check_reference && args.reference {
        bail!("--check-reference compares the core with the reference: drop --reference");
    }
    let core = (!args.reference).then(|| {
        let start = Instant::now();
        let core = Perft::new(PerftOptions {
            threads: args.jobs,
            table_bytes: args.hash_mb << 20,
            table_depth: args.hash_depth,
            captures,
        });
        if core.table_bytes() > 0 {
            errln!(
                "table: {} MiB in {:.1} s",
                core.table_bytes() >> 20,
                start.elapsed().as_secs_f64()
            );
        }
        core
    });
    if args.check_reference {
        return check_reference(&core.expect("not --reference"), args.depth, captures);
    }
    if args.divide {
        return divide(core.as_ref(), args.depth, captures);
    }
    let mut core = core;
    let mut stdout = std::io::stdout().lock();
    let mut times: Vec<f64> = Vec::new();
    for depth in 1..=args.depth {
        let start = Instant::now();
        let nodes = match &mut core {
            Some(core) => {
                core.clear();
                let mut tick = ticker(depth);
                core.count(&start_board(), Side::Red, depth, &mut |p| tick("", p))
            }
            None => u128::from(reference_count(depth, captures)),
        };
        let seconds = start.elapsed().as_secs_f64();
        writeln!(stdout, "{depth} {nodes}")?;
        stdout.flush()?;
        errln!(
            "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s, {})",
            nodes as f64 / seconds.max(1e-9) / 1e6,
            describe(core.as_ref())
        );
        times.push(seconds);
        if depth < args.depth {
            estimate(&times, args.depth);
        }
    }
    Ok(Exit::Clean)
}

fn reference_count(depth: u32, captures: Captures) -> u64 {
    let grid = lockstep_reference::checkers::start_grid();
    lockstep_reference::checkers_perft::perft_counted(
        &grid,
        Side::Red,
        depth,
        captures,
        &mut lockstep_reference::Fuel::unlimited(),
    )
    .expect("unlimited fuel does not run out")
}

/// Who counted, and the table's work.
fn describe(core: Option<&Perft>) -> String {
    let Some(core) = core else {
        return "reference".to_string();
    };
    let threads = core.options().threads;
    let mut text = format!(
        "core, {threads} thread{}",
        if threads == 1 { "" } else { "s" }
    );
    let stats = core.stats();
    if core.table_bytes() > 0 && stats.probes > 0 {
        text += &format!(
            "; table {} MiB: {} probes, {:.1}% hits, {} stores",
            core.table_bytes() >> 20,
            stats.probes,
            100.0 * stats.hits as f64 / stats.probes as f64,
            stats.stores
        );
    }
    text
}

/// After a depth: the next depth's time, and the time to the last, from the
/// growth over the last three plies (one ply's growth swings from 2 to 4 as
/// the table fills). Printed once the rest would take over a minute, so a
/// deep run is announced in its first seconds; depths under 20 ms are too
/// short to time, so nothing is estimated from them.
fn estimate(times: &[f64], last: u32) {
    let &[.., before, _, _, now] = times else {
        return;
    };
    if now < 0.02 {
        return;
    }
    let growth = (now / before.max(1e-4)).cbrt().max(1.0);
    let next = now * growth;
    let depth = times.len() as u32;
    let total: f64 = (1..=last - depth)
        .map(|k| now * growth.powi(k as i32))
        .sum();
    if total < 60.0 {
        return;
    }
    errln!(
        "estimate: perft {} about {} (x{growth:.1} a ply); to depth {last} about {} more (Ctrl-C stops it)",
        depth + 1,
        human_duration(next),
        human_duration(total)
    );
}

/// Progress of a long count on stderr: on a terminal a line redrawn each
/// second, else a line a minute. One ticker serves a whole count, so that a
/// divide's first moves share its minute (`what` names the one counting).
fn ticker(depth: u32) -> impl FnMut(&str, Progress) {
    let terminal = std::io::stderr().is_terminal();
    let mut last_line = 0u64;
    move |what: &str, p: Progress| {
        let seconds = p.elapsed.as_secs_f64();
        let minute = seconds as u64 / 60;
        if !terminal && (minute == last_line || seconds < 60.0) {
            return;
        }
        last_line = minute;
        let share = p.done as f64 / p.total.max(1) as f64;
        let left = if p.done == 0 {
            "?".to_string()
        } else {
            human_duration(seconds * (1.0 / share - 1.0))
        };
        let text = format!(
            "perft {depth}{what}: {}/{} positions ({:.0}%) in {}, about {left} left",
            p.done,
            p.total,
            100.0 * share,
            human_duration(seconds)
        );
        if terminal {
            let _ = write!(std::io::stderr(), "\r{text}\x1b[K");
        } else {
            errln!("{text}");
        }
    }
}

/// `--divide`: a line `move nodes` per first move, then `total nodes`.
fn divide(core: Option<&Perft>, depth: u32, captures: Captures) -> Result<Exit> {
    let start = Instant::now();
    let rows = match core {
        Some(core) => core_rows(core.divide(&start_board(), Side::Red, depth, &mut {
            let mut tick = ticker(depth);
            move |first, p| tick(&format!(" after {first}"), p)
        })),
        None => reference_divide(&start_board(), Side::Red, depth, captures),
    };
    let mut stdout = std::io::stdout().lock();
    for (first, _, nodes) in &rows {
        writeln!(stdout, "{first} {nodes}")?;
    }
    let total: u128 = rows.iter().map(|r| r.2).sum();
    writeln!(stdout, "total {total}")?;
    errln!(
        "divide {depth}: {total} nodes in {:.3} s ({})",
        start.elapsed().as_secs_f64(),
        describe(core)
    );
    Ok(Exit::Clean)
}

/// `--check-reference`: the divide at every node to `depth`, core against
/// reference; exit 1 at the first difference.
fn check_reference(core: &Perft, depth: u32, captures: Captures) -> Result<Exit> {
    let start = Instant::now();
    let result = check_divides(
        &start_board(),
        Side::Red,
        depth,
        captures,
        &mut |board, side, d| core_rows(core.divide(board, side, d, &mut |_, _| {})),
    );
    match result {
        Ok(nodes) => {
            outln!(
                "divide to depth {depth}: core and reference agree at all {nodes} nodes ({:.1} s)",
                start.elapsed().as_secs_f64()
            );
            Ok(Exit::Clean)
        }
        Err(disagreement) => {
            out!("{disagreement}");
            Ok(Exit::Found)
        }
    }
}
