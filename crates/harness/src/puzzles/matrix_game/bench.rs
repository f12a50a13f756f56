//! Matrix-game's bench lines: how close the core's solver comes to the exact
//! answer (the largest gaps over generated games, measured against the
//! reference's exact value and its best replies), and the mixed duel bot's
//! solve of the full-skill opening, timed.

use crate::bench::BenchOptions;
use crate::generate::generate_case;
use crate::puzzles::MatrixGame;
use lockstep_core::matrix_game::{equilibrium, Value};
use lockstep_reference::matrix_game::best_replies;
use lockstep_reference::{Fuel, Naive};
use lockstep_search::seeds::CASE_BYTES;

/// The bench's lines for the puzzle.
/// What the bench runs of this puzzle beyond its generated cases.
pub const EXTRAS: crate::bench::Extras = crate::bench::Extras {
    lines: extras,
    reset_caches: crate::bench::no_caches,
};

pub fn extras(options: &BenchOptions) -> Vec<String> {
    vec![gaps(options), opening(options)]
}

/// Over `options.cases` generated games: the largest distance from the exact
/// value of the core's value, of the reference's best reply to the core's row
/// strategy, and of its best reply to the core's column strategy; and the
/// sizes compared.
fn gaps(options: &BenchOptions) -> String {
    let mut buf = vec![0u8; CASE_BYTES];
    let (mut value_gap, mut row_gap, mut column_gap) = (0f64, 0f64, 0f64);
    let (mut games, mut largest, mut entries) = (0, (0, 0), 0usize);
    for index in 0..options.cases as u64 {
        let Some(game) = generate_case::<MatrixGame>(options.seed, 0, index, &mut buf) else {
            continue;
        };
        let Ok(run) = game.solve_naively(&mut Fuel::unlimited()) else {
            continue;
        };
        let Value::Exact(p, q) = run.answer[0] else {
            continue;
        };
        let exact = p as f64 / q as f64;
        let core = equilibrium(&game);
        let (lower, upper) = best_replies(&game, &core.rows, &core.columns);
        value_gap = value_gap.max((core.value - exact).abs());
        row_gap = row_gap.max(exact - lower);
        column_gap = column_gap.max(upper - exact);
        games += 1;
        entries += game.rows * game.columns;
        if game.rows * game.columns > largest.0 * largest.1 {
            largest = (game.rows, game.columns);
        }
    }
    format!(
        "largest gaps over {games} generated games (mean {:.1} entries, largest {} x {}): \
         value {value_gap:.1e}, the reference's best reply to the row strategy {row_gap:.1e}, \
         to the column strategy {column_gap:.1e} (epsilon {:.0e})",
        entries as f64 / games.max(1) as f64,
        largest.0,
        largest.1,
        lockstep_core::matrix_game::EPSILON
    )
}

/// The mixed bot's solve of the full-skill opening (945 x 945 lists), with no
/// deadline, timed over `options.rounds` runs (median): what one turn of the
/// default bot costs at its largest.
fn opening(options: &BenchOptions) -> String {
    use lockstep_core::duel::search::Searcher;
    use lockstep_core::duel::State;
    let state = State::initial((4, 4), (4, 3), (4, 5));
    lockstep_core::duel::prepare();
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..options.rounds.max(1) {
        let start = std::time::Instant::now();
        let found = Searcher::new().mixed(&state, 0, None);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        last = Some(found);
    }
    let found = last.expect("one round");
    format!(
        "mixed bot, full-skill opening {}: {:.2} ms (median of {}), {} rounds, {} lists in the strategy, \
         {} barred, best replies {:.1} to {:.1} ({})",
        lockstep_core::duel::write_state(&state),
        crate::bench::median(&mut times),
        times.len(),
        found.rounds,
        found.lists.len(),
        found.barred,
        found.lower,
        found.upper,
        if found.converged { "converged" } else { "cut short" }
    )
}
