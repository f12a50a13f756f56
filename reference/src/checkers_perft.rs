//! Checkers perft, naively: every legal move of the position enumerated by
//! the reference's own move generator (`checkers.rs`, every jump sequence
//! walked square by square), then each resulting position counted the same
//! way, one ply less. Nothing of core's bitboards or bulk counting.

use crate::checkers::{perft_from, Grid};
use crate::{Fuel, Naive, OutOfFuel};
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
