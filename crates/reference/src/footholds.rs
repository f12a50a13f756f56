//! Disappearing Footholds by plain exhaustive minimax.
//!
//! Straight from the rules: a player whose foothold is gone, or who has no foothold
//! next to them, loses with no more moves. Otherwise every move is tried on the
//! board (the foothold left behind removed, then put back), each answered by the
//! opponent's best play, and the results compared as (win, moves) pairs: any
//! winning move makes a win, with the fewest moves; else a loss, with the most.
//! No memo, no pruning: the whole game tree is walked, one unit of fuel per
//! position, so boards past a few dozen cells run out of fuel (a timeout).

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::footholds::{Answer, Case, Game, Pos};
use lockstep_core::Run;

/// The prospect of the player to move: can they force a win, and how many moves
/// (both players') are left in the game under optimal play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prospect {
    pub wins: bool,
    pub moves: u32,
}

struct Board {
    height: usize,
    width: usize,
    foothold: Vec<Vec<bool>>,
}

impl Board {
    fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if r > 0 {
            out.push((r - 1, c));
        }
        if r + 1 < self.height {
            out.push((r + 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if c + 1 < self.width {
            out.push((r, c + 1));
        }
        out
    }
}

fn play(
    board: &mut Board,
    me: (usize, usize),
    other: (usize, usize),
    fuel: &mut Fuel,
) -> Result<Prospect, OutOfFuel> {
    fuel.burn(1)?;
    if !board.foothold[me.0][me.1] {
        return Ok(Prospect {
            wins: false,
            moves: 0,
        });
    }
    let mut any_move = false;
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss = 0;
    for next in board.neighbours(me) {
        if !board.foothold[next.0][next.1] {
            continue;
        }
        any_move = true;
        board.foothold[me.0][me.1] = false;
        let reply = play(board, other, next, fuel);
        board.foothold[me.0][me.1] = true;
        let reply = reply?;
        let moves = reply.moves + 1;
        if reply.wins {
            slowest_loss = slowest_loss.max(moves);
        } else {
            fastest_win = Some(fastest_win.map_or(moves, |m| m.min(moves)));
        }
    }
    Ok(match (any_move, fastest_win) {
        (false, _) => Prospect {
            wins: false,
            moves: 0,
        },
        (true, Some(moves)) => Prospect { wins: true, moves },
        (true, None) => Prospect {
            wins: false,
            moves: slowest_loss,
        },
    })
}

fn to_usize((r, c): Pos) -> (usize, usize) {
    (usize::from(r), usize::from(c))
}

/// The prospect of player A (to move first) in one game.
pub fn prospect(game: &Game, fuel: &mut Fuel) -> Result<Prospect, OutOfFuel> {
    let mut board = Board {
        height: game.height,
        width: game.width,
        foothold: game
            .cells
            .chunks(game.width)
            .map(|row| row.to_vec())
            .collect(),
    };
    play(&mut board, to_usize(game.a), to_usize(game.b), fuel)
}

/// Solves every game of a case: the total number of moves of each. No trace:
/// the digest is 0.
fn solve(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
    Ok(Run {
        answer: case
            .games
            .iter()
            .map(|game| prospect(game, fuel).map(|o| o.moves))
            .collect::<Result<Answer, OutOfFuel>>()?,
        digest: 0,
    })
}

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel> {
        solve(self, fuel)
    }
}
