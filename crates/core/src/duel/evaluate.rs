//! The plain position evaluation: the `search1` bot's score of a turn's
//! result, shared by core's search and the reference's (the thing searched
//! over, not the search).

use super::*;

/// The value of a won position in [`evaluate`]; a loss is its negation, a draw 0.
/// Larger than any sum of the heuristic terms, so a result always outranks them.
pub const WIN_VALUE: i32 = 1_000_000;

/// A finished game's value for `player`: [`WIN_VALUE`] for a win, its negation
/// for a loss, 0 for a draw; `None` while the game goes on. Both evaluations
/// start with it.
#[inline]
pub fn ended_value(result: &TurnResult, player: usize) -> Option<i32> {
    let mine = match player {
        0 => Winner::P1,
        _ => Winner::P2,
    };
    match result.outcome {
        Outcome::Ended(Winner::Draw, _) => Some(0),
        Outcome::Ended(w, _) if w == mine => Some(WIN_VALUE),
        Outcome::Ended(..) => Some(-WIN_VALUE),
        Outcome::Ongoing => None,
    }
}

/// The position value after a turn, for `player` (0 or 1): the evaluation both
/// searches (core's [`search`] and the reference's exhaustive one) search over.
/// It is shared on purpose: it is the *thing being searched*, not the search, so
/// the differential checks the searches and the engines under them, not this sum.
///
/// Antisymmetric: `evaluate(r, 0) == -evaluate(r, 1)` for every result, so one
/// number serves both sides. Terms, as (mine - the opponent's):
/// - a result: [`WIN_VALUE`] for a win, its negation for a loss, 0 for a draw;
/// - hp: 100 a point (a thrust is worth 200, a charge 300);
/// - blessing: `120 b + 10 b^2`, so that each point is worth more near 10 (the
///   race ends the game, and at turn 60 blessing decides before hp);
/// - distance to the spring: -25 a step (Manhattan: moves are orthogonal);
/// - edge danger: -15 for each cell of pushing room under 3 in each of the four
///   directions (a charge pushes 2, so the outer three rings matter), which keeps
///   a player off the rim where a push ends the game;
/// - waits: -5 a turn of cooldown still to wait.
pub fn evaluate(result: &TurnResult, player: usize) -> i32 {
    if let Some(value) = ended_value(result, player) {
        return value;
    }
    let spring = result.next.spring;
    let side = |p: &Player| -> i32 {
        let bless = i32::from(p.blessing);
        let dist = i32::from((p.pos.0 - spring.0).abs() + (p.pos.1 - spring.1).abs());
        let (r, c) = (i32::from(p.pos.0), i32::from(p.pos.1));
        // Cells of room before the rim in each direction: 0 on the rim itself.
        let room = [r - 1, SIZE as i32 - r, c - 1, SIZE as i32 - c];
        let danger: i32 = room.iter().map(|&k| (3 - k).max(0)).sum();
        let waits: i32 = p.waits.iter().map(|&w| i32::from(w)).sum();
        100 * i32::from(p.hp) + 120 * bless + 10 * bless * bless
            - 25 * dist
            - 15 * danger
            - 5 * waits
    };
    side(&result.next.players[player]) - side(&result.next.players[1 - player])
}
