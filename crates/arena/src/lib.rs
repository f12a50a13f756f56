//! Cherry Blossom Duel as an interactive game: the referee that runs two bot
//! programs through the statement's protocol, the built-in bots, and tournaments
//! of many refereed games.
//!
//! These live in the harness, not in `lockstep-core`: they are tools around the
//! puzzle (processes, clocks, logs), while core stays what a judge would run. Both
//! use core's model, legality check and fast resolver, so the game they play is
//! exactly the one `duel step` and the differential tests check.

pub mod bots;
pub mod ladder;
pub mod plans;
pub mod protocol;
pub mod reading;
pub mod referee;
pub mod stress;
pub mod tournament;

use lockstep_core::duel::{Cell, State};

/// The yard as text: `.` empty, `S` the spring, `1` and `2` the players (`1`/`2`
/// win over `S` when a player stands on the spring, marked with `*` after).
/// A player pushed out of the yard is drawn outside it, in a ring of blanks
/// around the yard (a push of two cells shown one beyond the edge), so that
/// the picture never puts it on a cell it does not stand on.
pub fn render(state: &State) -> String {
    let out_of_yard = state
        .players
        .iter()
        .any(|p| !lockstep_core::duel::inside(p.pos));
    let (first, last) = if out_of_yard { (0, 8) } else { (1, 7) };
    let shown = |pos: Cell| (pos.0.clamp(0, 8), pos.1.clamp(0, 8));
    let mut out = String::new();
    for r in first..=last {
        out.push_str("  ");
        for c in first..=last {
            let cell: Cell = (r, c);
            let inside = lockstep_core::duel::inside(cell);
            let ch = if shown(state.players[0].pos) == cell {
                '1'
            } else if shown(state.players[1].pos) == cell {
                '2'
            } else if state.spring == cell {
                'S'
            } else if inside {
                '.'
            } else {
                ' '
            };
            out.push(ch);
            out.push(if ch != 'S' && inside && state.spring == cell {
                '*'
            } else {
                ' '
            });
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
