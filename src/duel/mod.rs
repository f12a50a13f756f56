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
pub mod protocol;
pub mod referee;
pub mod stress;
pub mod tournament;

use lockstep_core::duel::{Cell, Dir, State};

/// The straight direction that best points from `from` toward `to` (rows
/// first on a tie): how the built-in bots' plans and the duel generator's
/// actions aim at a cell.
pub fn toward(from: Cell, to: Cell) -> Dir {
    let (dr, dc) = (to.0 - from.0, to.1 - from.1);
    if dr.abs() >= dc.abs() {
        if dr < 0 {
            Dir::U
        } else {
            Dir::D
        }
    } else if dc < 0 {
        Dir::L
    } else {
        Dir::R
    }
}

/// The yard as text: `.` empty, `S` the spring, `1` and `2` the players (`1`/`2`
/// win over `S` when a player stands on the spring, marked with `*` after).
pub fn render(state: &State) -> String {
    let mut out = String::new();
    for r in 1..=7i8 {
        out.push_str("  ");
        for c in 1..=7i8 {
            let cell: Cell = (r, c);
            let ch = if state.players[0].pos == cell {
                '1'
            } else if state.players[1].pos == cell {
                '2'
            } else if state.spring == cell {
                'S'
            } else {
                '.'
            };
            out.push(ch);
            out.push(if ch != 'S' && ch != '.' && state.spring == cell {
                '*'
            } else {
                ' '
            });
        }
        out.push('\n');
    }
    out
}
