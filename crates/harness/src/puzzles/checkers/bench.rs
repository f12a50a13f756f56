//! Checkers' bench lines: whole games validated (moves per second) and
//! perft(7), core against reference.

use crate::bench::{side_by_side, BenchOptions};
use crate::puzzles::checkers::whole_games;
use lockstep_core::checkers as model;
use lockstep_core::Model;
use lockstep_reference::Naive;
use lockstep_reference::{checkers as reference, Fuel};
use std::hint::black_box;

/// What the bench runs of this puzzle beyond its generated cases.
pub const EXTRAS: crate::bench::Extras = crate::bench::Extras {
    lines: extras,
    reset_caches: crate::bench::no_caches,
};

/// The puzzle's own bench lines (`lockstep bench` without --no-extras).
pub fn extras(options: &BenchOptions) -> Vec<String> {
    games_and_perft(options)
}

/// The bench lines of the issue beyond generated cases: validation of whole games
/// (moves per second) and perft(7) (time of one count), each core and reference
/// side by side ([`side_by_side`]).
fn games_and_perft(options: &BenchOptions) -> Vec<String> {
    let games = whole_games(options.seed, 200, 80);
    let moves: usize = games.iter().map(|c| c.instances[0].moves.len()).sum();
    let measured = side_by_side(
        options.rounds,
        moves as f64,
        || {},
        || {
            for case in &games {
                black_box(black_box(case).solve());
            }
        },
        || {
            for case in &games {
                let _ = black_box(black_box(case).solve_naively(&mut Fuel::unlimited()));
            }
        },
    );
    let mut lines = vec![format!(
        "whole games ({} games, {moves} moves, all valid): core {:.1} M moves/s, reference {:.2} M moves/s; {:.1}x",
        games.len(),
        measured.core_rate / 1e6,
        measured.reference_rate / 1e6,
        measured.ratio
    )];
    // Perft on one thread, the same depth on both sides (the same count, so the
    // ratio is one of times), timed as the bench times cases; the reference
    // takes about 0.2 s at depth 7. The core counts the last ply in bulk: that
    // is part of its algorithm, so the line says it.
    const PERFT_DEPTH: u32 = 7;
    let nodes = model::perft(PERFT_DEPTH);
    let agree = reference::perft(PERFT_DEPTH, &mut Fuel::unlimited()) == Ok(nodes);
    let measured = side_by_side(
        options.rounds.clamp(1, 3),
        1.0,
        || {},
        || {
            black_box(model::perft(black_box(PERFT_DEPTH)));
        },
        || {
            let _ = black_box(reference::perft(
                black_box(PERFT_DEPTH),
                &mut Fuel::unlimited(),
            ));
        },
    );
    lines.push(format!(
        "perft({PERFT_DEPTH}) = {nodes}, one thread: core {:.2} ms (last ply bulk-counted), reference {:.0} ms; {:.0}x; counts {}",
        1e3 / measured.core_rate,
        1e3 / measured.reference_rate,
        measured.ratio,
        if agree { "agree" } else { "DIFFER" }
    ));
    lines
}
