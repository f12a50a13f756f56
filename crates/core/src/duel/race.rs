//! The race evaluation: the position value the default duel bot searches over.
//!
//! [`evaluate`](super::evaluate) scores the position after one turn, and a
//! depth-one search over it loses the blessing race to a plain plan (walk to the
//! spring, stay, guard): the blessing the opponent will collect over the next
//! turns is nowhere in a one-turn score. This evaluation adds what the race
//! needs, so that the same depth-one search (see [`super::search`]) sees it:
//!
//! - **holding the spring** is worth the blessings the holder can expect to
//!   collect while it keeps it ([`HOLD_TURNS`] of them, at most as many as the
//!   turns left and the blessings still needed);
//! - **the way to the spring** costs per turn of walking, not per cell;
//! - **the end of the game**: with few turns left, blessing decides the game
//!   (before hp), so each blessing point is worth more the closer turn 60 is.
//!
//! Like `evaluate` it is antisymmetric (`evaluate_race(r, 0) ==
//! -evaluate_race(r, 1)`), gives [`WIN_VALUE`] to a won game, and is shared by
//! core's search and the reference's exhaustive one: it is the thing searched
//! over, and the differential (`lockstep fuzz duel-search`) checks the searches
//! and the engines under it.

#[cfg(doc)]
use super::WIN_VALUE;
use super::{Player, TurnResult, LAST_TURN, SIZE, WINNING_BLESSING};

/// Holding the spring is counted as this many turns of blessing at half their
/// value (the holder keeps it for a while, not for sure).
pub const HOLD_TURNS: i32 = 3;

/// The value of a finished turn's position for `player` (0 or 1).
///
/// The weights were chosen by in-process matches of the race bot against the
/// built-in baselines and the first search (`lockstep duel ladder` plays the
/// same games through the referee); among the settings tried, a larger hold
/// bonus lost more games to the chasing plan (the holder stays on an edge
/// spring and is pushed out), a smaller one lost the race to the spring plan,
/// and a threat term for edge cells in the opponent's push reach did not help.
pub fn evaluate_race(result: &TurnResult, player: usize) -> i32 {
    if let Some(value) = super::ended_value(result, player) {
        return value;
    }
    let next = &result.next;
    // Turns still to play, the next one included.
    let left = (i32::from(LAST_TURN) + 1 - i32::from(next.turn)).max(0);
    // A blessing point: 120, rising to 270 over the last ten turns, where
    // blessing decides the game before hp does.
    let point = 120 + 150 * (10 - left).clamp(0, 10) / 10;
    let spring = next.spring;
    let side = |p: &Player| -> i32 {
        let b = i32::from(p.blessing);
        let dist = i32::from((p.pos.0 - spring.0).abs() + (p.pos.1 - spring.1).abs());
        let (r, c) = (i32::from(p.pos.0), i32::from(p.pos.1));
        let room = [r - 1, i32::from(SIZE) - r, c - 1, i32::from(SIZE) - c];
        let danger: i32 = room.iter().map(|&k| (3 - k).max(0)).sum();
        let waits: i32 = p.waits.iter().map(|&w| i32::from(w)).sum();
        let needed = i32::from(WINNING_BLESSING) - b;
        let hold = if dist == 0 {
            HOLD_TURNS.min(left).min(needed) * point / 2
        } else {
            0
        };
        // Two cells a turn is a plain walk: the way to the spring costs per
        // turn of walking, and a little per cell.
        100 * i32::from(p.hp) + point * b + 10 * b * b + hold
            - 60 * ((dist + 1) / 2)
            - 10 * dist
            - 15 * danger
            - 5 * waits
    };
    side(&next.players[player]) - side(&next.players[1 - player])
}

#[cfg(test)]
mod tests;
