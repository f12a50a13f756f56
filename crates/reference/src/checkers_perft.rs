//! Checkers perft, naively: every legal move of the position enumerated by
//! the reference's own move generator (`checkers.rs`, every jump sequence
//! walked square by square), then each resulting position counted the same
//! way, one ply less. Nothing of core's bitboards or bulk counting.
//!
//! For `lockstep perft --divide --check-reference` also the divide (the count
//! per first move) and the other counting convention ([`Captures::Sets`]: a
//! king's paths that take the same pieces and end on the same square count
//! once), found by comparing whole listed moves.

use crate::checkers::{perft_from, Grid, LegalMove};
use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::checkers::{Captures, Side};
use lockstep_core::checkers_perft::{Answer, Case};
use lockstep_core::Run;

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
        let grid = Grid::from_pieces(&self.position.red, &self.position.white);
        Ok(Run {
            answer: perft_from(&grid, self.position.to_move, self.depth, fuel)?,
            digest: 0,
        })
    }
}

/// The moves perft counts from `grid`: every legal move, or with
/// [`Captures::Sets`] one of each group of moves that start and end on the
/// same squares and leave the same board (the same pieces taken), the first
/// listed. Nothing but the list and a comparison.
pub fn counted_moves(
    grid: &Grid,
    side: Side,
    captures: Captures,
    fuel: &mut Fuel,
) -> Result<Vec<LegalMove>, OutOfFuel> {
    let moves = grid.legal_moves(side, fuel)?;
    if captures == Captures::Paths {
        return Ok(moves);
    }
    let mut kept: Vec<LegalMove> = Vec::new();
    for m in moves {
        fuel.burn(kept.len() as u64)?;
        let same = |k: &LegalMove| {
            k.path.first() == m.path.first() && k.path.last() == m.path.last() && k.after == m.after
        };
        if !kept.iter().any(same) {
            kept.push(m);
        }
    }
    Ok(kept)
}

/// Leaf nodes `depth` plies from `grid`, `side` to move, under either
/// convention: one unit of fuel per node on top of the enumeration's.
pub fn perft_counted(
    grid: &Grid,
    side: Side,
    depth: u32,
    captures: Captures,
    fuel: &mut Fuel,
) -> Result<u64, OutOfFuel> {
    fuel.burn(1)?;
    if depth == 0 {
        return Ok(1);
    }
    let mut nodes = 0;
    for m in counted_moves(grid, side, captures, fuel)? {
        nodes += perft_counted(&m.after, side.opponent(), depth - 1, captures, fuel)?;
    }
    Ok(nodes)
}

/// Perft divided by the first move: each counted move with the leaf nodes
/// below it, in the order the reference lists them.
pub fn divide(
    grid: &Grid,
    side: Side,
    depth: u32,
    captures: Captures,
    fuel: &mut Fuel,
) -> Result<Vec<(LegalMove, u64)>, OutOfFuel> {
    let mut out = Vec::new();
    for m in counted_moves(grid, side, captures, fuel)? {
        let nodes = perft_counted(
            &m.after,
            side.opponent(),
            depth.saturating_sub(1),
            captures,
            fuel,
        )?;
        out.push((m, nodes));
    }
    Ok(out)
}
