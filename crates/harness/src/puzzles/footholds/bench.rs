//! Footholds' bench lines: full boards, core against reference on 5x5 and
//! 6x6, the core alone on 7x7 and 8x8.

use crate::bench::{median_time, BenchOptions};
use crate::puzzles::footholds::full_board;
use lockstep_core::footholds::{self as model, Pos};
use lockstep_reference::Fuel;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What the bench runs of this puzzle beyond its generated cases.
pub const EXTRAS: crate::bench::Extras = crate::bench::Extras {
    lines: extras,
    reset_caches: model::clear_table,
};

/// The puzzle's own bench lines (`lockstep bench` without --no-extras).
pub fn extras(_options: &BenchOptions) -> Vec<String> {
    full_boards()
}

/// Start pairs used by the bench on a full `side` x `side` board.
pub fn bench_starts(side: usize) -> Vec<(&'static str, Pos, Pos)> {
    let last = (side - 1) as u8;
    let mid = (side / 2) as u8;
    vec![
        ("opposite corners", (0, 0), (last, last)),
        ("adjacent corners", (0, 0), (0, last)),
        ("centre and corner", (mid, mid), (0, 0)),
        (
            "side by side in the centre",
            (mid, mid.saturating_sub(1)),
            (mid, mid),
        ),
    ]
}

/// Full boards, timed with fixed run counts of their own (`--rounds` is for the
/// generated cases): a 6x6 board takes the reference about a second.
fn full_boards() -> Vec<String> {
    let mut lines = vec![format!(
        "{:<34} {:>12} {:>12} {:>9} {:>6}",
        "full board, starts (medians)", "core s", "reference s", "speedup", "moves"
    )];
    for side in [5usize, 6] {
        for (name, a, b) in bench_starts(side) {
            let game = full_board(side, a, b);
            let core = model::solve_within(&game, None).0;
            let core_time = median_time(5, model::clear_table, || {
                black_box(model::solve_within(black_box(&game), None));
            });
            // This untimed run gives the answer to compare and is the reference's
            // warm-up (the core's warm-up is the run above). The reference takes
            // about a second on 6x6: one timed run is enough there.
            let reference = lockstep_reference::footholds::prospect(&game, &mut Fuel::unlimited());
            let runs = if side <= 5 { 5 } else { 1 };
            let reference_time = median_time(
                runs,
                || {},
                || {
                    let _ = black_box(lockstep_reference::footholds::prospect(
                        black_box(&game),
                        &mut Fuel::unlimited(),
                    ));
                },
            );
            let agree = reference.map(|o| o.moves) == Ok(core.unwrap_or(u32::MAX));
            lines.push(format!(
                "{:<34} {:>12.6} {:>12.3} {:>8.0}x {:>6}{}",
                format!("{side}x{side} {name}"),
                core_time,
                reference_time,
                reference_time / core_time.max(1e-9),
                core.map_or("-".to_string(), |m| m.to_string()),
                if agree { "" } else { "  DISAGREE" }
            ));
        }
    }
    lines.push(
        "  (medians of 5 runs, 1 for the 6x6 reference; --rounds is for the generated cases)"
            .to_string(),
    );
    lines.push("core alone, 10 s limit per board:".to_string());
    for side in [7usize, 8] {
        for (name, a, b) in bench_starts(side) {
            let game = full_board(side, a, b);
            model::clear_table();
            let start = Instant::now();
            let (moves, nodes) = model::solve_within(&game, Some(start + Duration::from_secs(10)));
            lines.push(format!(
                "{:<34} {:>12} {:>14} nodes {:>6}",
                format!("{side}x{side} {name}"),
                moves.map_or("over 10 s".to_string(), |_| format!(
                    "{:.3} s",
                    start.elapsed().as_secs_f64()
                )),
                nodes,
                moves.map_or("-".to_string(), |m| m.to_string()),
            ));
        }
    }
    lines
}
