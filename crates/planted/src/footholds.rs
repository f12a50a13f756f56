//! Disappearing Footholds' planted bugs: a third solver (plain negamax on a
//! 64-bit board) with one bug planted at a time, and [`BUGS`].

use lockstep_core::footholds::{Answer, Case};
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::Footholds;

/// The deliberately wrong solvers, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bug {
    /// The losing player takes the shortest line instead of the longest.
    LoserMinimises,
    /// Standing on a vanished foothold is not a loss.
    ForgetsSharedLoss,
    /// The winning player takes the longest win instead of the shortest.
    WinnerMaximises,
    /// The contestant-style rule bugs (`CONTESTANT` below): a neighbour table
    /// filled for the first 32 bits of the mask, so that a piece on the
    /// fifth row or below cannot move.
    LowerHalfStuck,
    /// A step down bounded by the width instead of the height.
    DownBoundedByWidth,
    /// A piece may not step onto the opponent's foothold.
    OpponentsCellBarred,
}

/// A third solver, plain negamax over (wins, moves) on a 64-bit board, with at most
/// one bug planted.
fn third(
    board: u64,
    me: u32,
    other: u32,
    width: u32,
    height: u32,
    bug: Option<Bug>,
) -> (bool, u32) {
    if board >> me & 1 == 0 && bug != Some(Bug::ForgetsSharedLoss) {
        return (false, 0);
    }
    let (r, c) = (me / 8, me % 8);
    let mut steps = Vec::new();
    if bug == Some(Bug::LowerHalfStuck) && me >= 32 {
        return (false, 0);
    }
    if r > 0 {
        steps.push(me - 8);
    }
    let below = match bug {
        Some(Bug::DownBoundedByWidth) => width,
        _ => height,
    };
    if r + 1 < below {
        steps.push(me + 8);
    }
    if c > 0 {
        steps.push(me - 1);
    }
    if c + 1 < width {
        steps.push(me + 1);
    }
    let (mut win, mut loss): (Option<u32>, Option<u32>) = (None, None);
    let barred = |to: u32| bug == Some(Bug::OpponentsCellBarred) && to == other;
    for to in steps
        .into_iter()
        .filter(|&to| board >> to & 1 == 1 && !barred(to))
    {
        let (other_wins, moves) = third(board & !(1 << me), other, to, width, height, bug);
        let moves = moves + 1;
        if other_wins {
            loss = Some(match (loss, bug) {
                (None, _) => moves,
                (Some(l), Some(Bug::LoserMinimises)) => l.min(moves),
                (Some(l), _) => l.max(moves),
            });
        } else {
            win = Some(match (win, bug) {
                (None, _) => moves,
                (Some(w), Some(Bug::WinnerMaximises)) => w.max(moves),
                (Some(w), _) => w.min(moves),
            });
        }
    }
    match (win, loss) {
        (Some(w), _) => (true, w),
        (None, Some(l)) => (false, l),
        (None, None) => (false, 0),
    }
}

pub fn simulate(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let answer = case
        .games
        .iter()
        .map(|g| {
            let bit = |(r, c): (u8, u8)| u32::from(r) * 8 + u32::from(c);
            third(
                g.mask(),
                bit(g.a),
                bit(g.b),
                g.width as u32,
                g.height as u32,
                bug,
            )
            .1
        })
        .collect();
    Run { answer, digest: 0 }
}

pub fn loser_minimises(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::LoserMinimises))
}
pub fn forgets_shared_loss(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::ForgetsSharedLoss))
}
pub fn winner_maximises(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::WinnerMaximises))
}

/// The planted bugs of this puzzle (see `crates/harness/tests/it/planted.rs` for the
/// catalogue).
pub const BUGS: [(&str, Solver<Footholds>); 3] = [
    ("the loser minimises", loser_minimises),
    ("the shared-foothold loss is forgotten", forgets_shared_loss),
    ("the winner maximises", winner_maximises),
];

/// Contestant-style rule bugs of the board's shape and of its sharing,
/// written before the checks that find them (the crate's "Contestant bugs").
pub const CONTESTANT: [(&str, Solver<Footholds>); 3] = [
    ("a piece below the fourth row cannot move", |case| {
        simulate(case, Some(Bug::LowerHalfStuck))
    }),
    ("a step down bounded by the width", |case| {
        simulate(case, Some(Bug::DownBoundedByWidth))
    }),
    ("the opponent's foothold is barred", |case| {
        simulate(case, Some(Bug::OpponentsCellBarred))
    }),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<Footholds>)> {
    BUGS.iter().copied().collect()
}
