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

/// A cell of the board: (row, column), 0-based.
type Cell = (usize, usize);

struct Board {
    height: usize,
    width: usize,
    foothold: Vec<Vec<bool>>,
}

impl Board {
    /// A game's board, its footholds by row.
    fn of(game: &Game) -> Board {
        Board {
            height: game.height,
            width: game.width,
            foothold: game
                .cells
                .chunks(game.width)
                .map(|row| row.to_vec())
                .collect(),
        }
    }

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
    let replies = replies(board, me, other, fuel)?;
    Ok(best_of(replies.iter().map(|&(_, reply)| reply)))
}

/// Each move of the player to move, standing on a foothold at `me`, with
/// the opponent's prospect after it: the move tried on the board (the
/// foothold left behind removed, then put back).
fn replies(
    board: &mut Board,
    me: (usize, usize),
    other: (usize, usize),
    fuel: &mut Fuel,
) -> Result<Vec<(Cell, Prospect)>, OutOfFuel> {
    let mut out = Vec::new();
    for next in board.neighbours(me) {
        if !board.foothold[next.0][next.1] {
            continue;
        }
        board.foothold[me.0][me.1] = false;
        let reply = play(board, other, next, fuel);
        board.foothold[me.0][me.1] = true;
        out.push((next, reply?));
    }
    Ok(out)
}

/// The prospect of the player to move from the opponent's prospect after
/// each of their moves: none, a loss with no more moves; any move after
/// which the opponent loses, a win, with the fewest moves; else a loss,
/// with the most.
fn best_of(replies: impl Iterator<Item = Prospect>) -> Prospect {
    let mut any_move = false;
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss = 0;
    for reply in replies {
        any_move = true;
        let moves = reply.moves + 1;
        if reply.wins {
            slowest_loss = slowest_loss.max(moves);
        } else {
            fastest_win = Some(fastest_win.map_or(moves, |m| m.min(moves)));
        }
    }
    match (any_move, fastest_win) {
        (false, _) => Prospect {
            wins: false,
            moves: 0,
        },
        (true, Some(moves)) => Prospect { wins: true, moves },
        (true, None) => Prospect {
            wins: false,
            moves: slowest_loss,
        },
    }
}

fn to_usize((r, c): Pos) -> (usize, usize) {
    (usize::from(r), usize::from(c))
}

/// The prospect of player A (to move first) in one game.
pub fn prospect(game: &Game, fuel: &mut Fuel) -> Result<Prospect, OutOfFuel> {
    let mut board = Board::of(game);
    play(&mut board, to_usize(game.a), to_usize(game.b), fuel)
}

/// One move of a line of play: the player (0 for A, 1 for B), from, to.
pub type LineMove = (usize, Pos, Pos);

/// The line of optimal play of one game: at each position, the first move
/// (in the order the minimax tries them) whose result is the prospect of the
/// player to move, played, until the player to move has none. Its length is
/// the game's answer. Each position is searched afresh by the same
/// exhaustive minimax (its moves' replies, and its prospect from them, as
/// [`prospect`] does), so a line costs a search of each position it passes:
/// the first as much as [`prospect`], each later one less.
pub fn line(game: &Game, fuel: &mut Fuel) -> Result<Vec<LineMove>, OutOfFuel> {
    let mut board = Board::of(game);
    let (mut me, mut other) = (to_usize(game.a), to_usize(game.b));
    let mut mover = 0;
    let mut moves = Vec::new();
    loop {
        fuel.burn(1)?;
        if !board.foothold[me.0][me.1] {
            return Ok(moves);
        }
        let replies = replies(&mut board, me, other, fuel)?;
        let aim = best_of(replies.iter().map(|&(_, reply)| reply));
        if aim.moves == 0 {
            return Ok(moves);
        }
        let (next, _) = *replies
            .iter()
            .find(|(_, reply)| reply.wins != aim.wins && reply.moves + 1 == aim.moves)
            .expect("a prospect with moves comes from one of the moves");
        let pos = |(r, c): (usize, usize)| (r as u8, c as u8);
        moves.push((mover, pos(me), pos(next)));
        board.foothold[me.0][me.1] = false;
        (me, other) = (other, next);
        mover ^= 1;
    }
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

#[cfg(test)]
mod line_tests {
    use super::*;

    /// On every 3x3 board with A and B on footholds facing each other, the
    /// line of play is as long as the prospect says, and each move steps to
    /// a neighbouring foothold that has not crumbled.
    #[test]
    fn a_line_is_legal_and_as_long_as_the_game() {
        for mask in 0u32..1 << 9 {
            let cells: Vec<bool> = (0..9).map(|i| mask >> i & 1 == 1).collect();
            if !cells[3] || !cells[5] {
                continue;
            }
            let game = Game {
                height: 3,
                width: 3,
                cells,
                a: (1, 0),
                b: (1, 2),
            };
            let moves = line(&game, &mut Fuel::unlimited()).unwrap();
            let expected = prospect(&game, &mut Fuel::unlimited()).unwrap().moves;
            assert_eq!(moves.len() as u32, expected, "{game:?}");
            let mut standing = game.cells.clone();
            let mut at = [game.a, game.b];
            for (n, &(who, from, to)) in moves.iter().enumerate() {
                assert_eq!(who, n % 2);
                assert_eq!(from, at[who]);
                let distance = from.0.abs_diff(to.0) + from.1.abs_diff(to.1);
                assert_eq!(distance, 1, "{game:?}: {moves:?}");
                assert!(standing[usize::from(to.0) * 3 + usize::from(to.1)]);
                standing[usize::from(from.0) * 3 + usize::from(from.1)] = false;
                at[who] = to;
            }
        }
    }
}
