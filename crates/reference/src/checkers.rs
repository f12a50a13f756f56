//! Checker's Check, by listing every legal move.
//!
//! The board is an 8x8 grid of `Option<Man>`. For the side to move, every legal
//! move is enumerated in full: if any piece can jump, every complete jump sequence
//! of every piece (each path its own move), else every simple step. A written move
//! is valid exactly when its squares are one of those paths. No shortcut: the whole
//! list is built for every move checked. Perft walks the same list.
//!
//! One unit of fuel per enumerated move and per jump tried, so a position with an
//! absurd number of jump paths runs out of fuel instead of running long.

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::checkers::{Answer, Board, Case, Instance, InstanceTrace, Piece, Ruling, Side};
use lockstep_core::digest::Digest;
use lockstep_core::Run;

/// A piece as the grid holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Man {
    pub side: Side,
    pub king: bool,
}

/// The spec's numbering: square s (1..=32) is on row (s-1)/4; its column is
/// 2*((s-1)%4)+1 on even rows and 2*((s-1)%4) on odd rows (row 0 at the top).
pub fn square_to_cell(square: u32) -> Option<(usize, usize)> {
    if !(1..=32).contains(&square) {
        return None;
    }
    let row = (square - 1) / 4;
    let col = if row.is_multiple_of(2) {
        2 * ((square - 1) % 4) + 1
    } else {
        2 * ((square - 1) % 4)
    };
    Some((row as usize, col as usize))
}

/// The inverse of [`square_to_cell`] on dark squares.
pub fn cell_to_square(row: usize, col: usize) -> u32 {
    (row * 4 + col / 2 + 1) as u32
}

/// One legal move: the squares it visits and the grid after it.
#[derive(Debug, Clone)]
pub struct LegalMove {
    pub path: Vec<u32>,
    pub after: Grid,
}

/// The board: `cells[row][col]`, row 0 at the top (squares 1-4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub cells: [[Option<Man>; 8]; 8],
}

/// Men move forward only: Red down the board, White up it.
fn directions(man: Man) -> Vec<(i32, i32)> {
    let down = [(1, -1), (1, 1)];
    let up = [(-1, -1), (-1, 1)];
    if man.king {
        vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]
    } else if man.side == Side::Red {
        down.to_vec()
    } else {
        up.to_vec()
    }
}

fn on_board(row: i32, col: i32) -> bool {
    (0..8).contains(&row) && (0..8).contains(&col)
}

/// Red crowns on the bottom row (29-32), White on the top row (1-4).
fn is_promotion_row(side: Side, row: usize) -> bool {
    match side {
        Side::Red => row == 7,
        Side::White => row == 0,
    }
}

impl Grid {
    pub fn from_pieces(red: &[Piece], white: &[Piece]) -> Grid {
        let mut cells = [[None; 8]; 8];
        for (side, pieces) in [(Side::Red, red), (Side::White, white)] {
            for piece in pieces {
                let (row, col) = square_to_cell(u32::from(piece.square))
                    .expect("positions are validated by the parser");
                cells[row][col] = Some(Man {
                    side,
                    king: piece.king,
                });
            }
        }
        Grid { cells }
    }

    pub fn of(instance: &Instance) -> Grid {
        Grid::from_pieces(&instance.red, &instance.white)
    }

    /// The pieces of each side in square order.
    pub fn pieces(&self) -> (Vec<Piece>, Vec<Piece>) {
        let (mut red, mut white) = (Vec::new(), Vec::new());
        for square in 1..=32 {
            let (row, col) = square_to_cell(square).expect("1..=32");
            if let Some(man) = self.cells[row][col] {
                let piece = Piece {
                    square: square as u8,
                    king: man.king,
                };
                match man.side {
                    Side::Red => red.push(piece),
                    Side::White => white.push(piece),
                }
            }
        }
        (red, white)
    }

    /// The grid in the trace vocabulary both solvers share.
    pub fn board(&self) -> Board {
        let mut board = Board::default();
        for row in 0..8 {
            for col in 0..8 {
                if let Some(man) = self.cells[row][col] {
                    let bit = 1u32 << (cell_to_square(row, col) - 1);
                    match man.side {
                        Side::Red => board.red |= bit,
                        Side::White => board.white |= bit,
                    }
                    if man.king {
                        board.kings |= bit;
                    }
                }
            }
        }
        board
    }

    /// Every legal move of `side`: all complete jump sequences if there is any,
    /// else all simple steps.
    pub fn legal_moves(&self, side: Side, fuel: &mut Fuel) -> Result<Vec<LegalMove>, OutOfFuel> {
        let mut jumps = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                if let Some(man) = self.cells[row][col] {
                    if man.side == side {
                        // The jumping piece leaves its square: it counts as empty.
                        let mut lifted = self.clone();
                        lifted.cells[row][col] = None;
                        let path = vec![cell_to_square(row, col)];
                        lifted.jumps_from(man, (row, col), path, &[], &mut jumps, fuel)?;
                    }
                }
            }
        }
        if !jumps.is_empty() {
            return Ok(jumps);
        }
        let mut steps = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                let Some(man) = self.cells[row][col] else {
                    continue;
                };
                if man.side != side {
                    continue;
                }
                for (dr, dc) in directions(man) {
                    let (r, c) = (row as i32 + dr, col as i32 + dc);
                    if !on_board(r, c) || self.cells[r as usize][c as usize].is_some() {
                        continue;
                    }
                    fuel.burn(1)?;
                    let (r, c) = (r as usize, c as usize);
                    let mut after = self.clone();
                    after.cells[row][col] = None;
                    after.cells[r][c] = Some(Man {
                        side,
                        king: man.king || is_promotion_row(side, r),
                    });
                    steps.push(LegalMove {
                        path: vec![cell_to_square(row, col), cell_to_square(r, c)],
                        after,
                    });
                }
            }
        }
        Ok(steps)
    }

    /// Extends a jump sequence of `man` (lifted off the board, now at `at`, having
    /// jumped the pieces at `captured`, which stay on the board until the move
    /// ends). A sequence with no jump left, or one that just crowned, is complete.
    fn jumps_from(
        &self,
        man: Man,
        at: (usize, usize),
        path: Vec<u32>,
        captured: &[(usize, usize)],
        out: &mut Vec<LegalMove>,
        fuel: &mut Fuel,
    ) -> Result<(), OutOfFuel> {
        let mut jumped_on = false;
        for (dr, dc) in directions(man) {
            let over = (at.0 as i32 + dr, at.1 as i32 + dc);
            let land = (at.0 as i32 + 2 * dr, at.1 as i32 + 2 * dc);
            if !on_board(land.0, land.1) {
                continue;
            }
            let over = (over.0 as usize, over.1 as usize);
            let land = (land.0 as usize, land.1 as usize);
            let opponent = matches!(self.cells[over.0][over.1], Some(m) if m.side != man.side);
            if !opponent || captured.contains(&over) || self.cells[land.0][land.1].is_some() {
                continue;
            }
            fuel.burn(1)?;
            jumped_on = true;
            let mut path = path.clone();
            path.push(cell_to_square(land.0, land.1));
            let mut captured = captured.to_vec();
            captured.push(over);
            if !man.king && is_promotion_row(man.side, land.0) {
                // Crowning ends the move.
                out.push(self.finish(man, land, path, &captured, true));
            } else {
                self.jumps_from(man, land, path, &captured, out, fuel)?;
            }
        }
        if !jumped_on && path.len() > 1 {
            out.push(self.finish(man, at, path, captured, false));
        }
        Ok(())
    }

    /// The grid after a jump sequence: the captured pieces removed, the piece put
    /// down where it ended.
    fn finish(
        &self,
        man: Man,
        at: (usize, usize),
        path: Vec<u32>,
        captured: &[(usize, usize)],
        crowned: bool,
    ) -> LegalMove {
        let mut after = self.clone();
        for &(row, col) in captured {
            after.cells[row][col] = None;
        }
        after.cells[at.0][at.1] = Some(Man {
            side: man.side,
            king: man.king || crowned,
        });
        LegalMove { path, after }
    }
}

/// One instance being checked, move by move: the position after the moves
/// found valid so far, its legal list once asked for, and the ruling once a
/// move is found invalid. `solve` and [`trace_instance`] drive it; so does a
/// generator that picks each move from the list (see [`Solving`]).
#[derive(Debug, Clone)]
pub struct InstanceCheck {
    grid: Grid,
    side: Side,
    checked: usize,
    legal: Option<Vec<LegalMove>>,
    invalid: Option<usize>,
}

impl InstanceCheck {
    /// Starts from a position, `to_move` to move.
    pub fn new(red: &[Piece], white: &[Piece], to_move: Side) -> InstanceCheck {
        InstanceCheck {
            grid: Grid::from_pieces(red, white),
            side: to_move,
            checked: 0,
            legal: None,
            invalid: None,
        }
    }

    /// The position now, and the side to move in it.
    pub fn position(&self) -> (&Grid, Side) {
        (&self.grid, self.side)
    }

    /// The legal moves in the position now (listed once per position).
    pub fn legal_moves(&mut self, fuel: &mut Fuel) -> Result<&[LegalMove], OutOfFuel> {
        if self.legal.is_none() {
            self.legal = Some(self.grid.legal_moves(self.side, fuel)?);
        }
        Ok(self.legal.as_deref().expect("just listed"))
    }

    /// The legal moves in the position now, if [`InstanceCheck::legal_moves`]
    /// has listed them.
    pub fn listed(&self) -> Option<&[LegalMove]> {
        self.legal.as_deref()
    }

    /// Checks the next written move: true, and the position moves on, when its
    /// squares are one of the legal paths; false when not, which rules the
    /// instance. Running out of fuel changes nothing.
    ///
    /// # Panics
    /// After a move found invalid: nothing after it is ever checked.
    pub fn check(&mut self, written: &[u32], fuel: &mut Fuel) -> Result<bool, OutOfFuel> {
        assert!(self.invalid.is_none(), "a move after an invalid one");
        self.legal_moves(fuel)?;
        self.checked += 1;
        let legal = self.legal.take().expect("listed above");
        match legal.into_iter().find(|m| m.path == written) {
            Some(m) => {
                self.grid = m.after;
                self.side = self.side.opponent();
                Ok(true)
            }
            None => {
                self.invalid = Some(self.checked);
                Ok(false)
            }
        }
    }

    /// True once a move was found invalid.
    pub fn is_ruled(&self) -> bool {
        self.invalid.is_some()
    }

    /// The ruling on the moves checked: the first invalid one, else all valid.
    pub fn ruling(&self) -> Ruling {
        self.invalid.map_or(Ruling::AllValid, Ruling::Invalid)
    }
}

/// A case being solved instance by instance: the rulings and the digest so
/// far. `solve` is a loop over it; a generator that plays a case's moves
/// through it (the checkers generator does) ends with exactly the run `solve`
/// would give on that case, so the harness need not run the reference again.
#[derive(Debug, Clone, Default)]
pub struct Solving {
    digest: Digest,
    answer: Vec<Ruling>,
    open: Option<InstanceCheck>,
}

impl Solving {
    pub fn new() -> Solving {
        Solving::default()
    }

    /// Rules the instance being checked (if any) and starts the next one.
    pub fn start(&mut self, red: &[Piece], white: &[Piece], to_move: Side) -> &mut InstanceCheck {
        self.close();
        self.open.insert(InstanceCheck::new(red, white, to_move))
    }

    /// The instance being checked.
    ///
    /// # Panics
    /// Before the first [`Solving::start`].
    pub fn instance(&mut self) -> &mut InstanceCheck {
        self.open.as_mut().expect("an instance was started")
    }

    /// [`InstanceCheck::check`], with the position after a valid move added to
    /// the digest.
    pub fn check(&mut self, written: &[u32], fuel: &mut Fuel) -> Result<bool, OutOfFuel> {
        let open = self.instance();
        let valid = open.check(written, fuel)?;
        if valid {
            for word in open.grid.board().packed() {
                self.digest.push(word);
            }
        }
        Ok(valid)
    }

    fn close(&mut self) {
        if let Some(open) = self.open.take() {
            let ruling = open.ruling();
            self.digest.push(ruling.packed());
            self.answer.push(ruling);
        }
    }

    /// The verdicts and the digest of the trace.
    pub fn finish(mut self) -> Run<Answer> {
        self.close();
        Run {
            answer: self.answer,
            digest: self.digest.value(),
        }
    }
}

/// Validates every instance of a case: the verdicts and the digest of the trace.
fn solve(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
    let mut solving = Solving::new();
    for instance in &case.instances {
        solving.start(&instance.red, &instance.white, instance.to_move);
        for written in &instance.moves {
            if !solving.check(&written.0, fuel)? {
                break;
            }
        }
    }
    Ok(solving.finish())
}

/// Validates one instance, keeping the position after every applied move.
pub fn trace_instance(instance: &Instance) -> InstanceTrace {
    let mut check = InstanceCheck::new(&instance.red, &instance.white, instance.to_move);
    let mut boards = Vec::new();
    for written in &instance.moves {
        if !check
            .check(&written.0, &mut Fuel::unlimited())
            .expect("unlimited fuel")
        {
            break;
        }
        boards.push(check.grid.board());
    }
    InstanceTrace {
        boards,
        verdict: check.ruling(),
    }
}

/// The standard start: Red on 1-12, White on 21-32.
pub fn start_grid() -> Grid {
    let red: Vec<Piece> = (1..=12)
        .map(|square| Piece {
            square,
            king: false,
        })
        .collect();
    let white: Vec<Piece> = (21..=32)
        .map(|square| Piece {
            square,
            king: false,
        })
        .collect();
    Grid::from_pieces(&red, &white)
}

/// Leaf nodes `depth` plies from `grid` with `side` to move; one unit of fuel per
/// node on top of the enumeration's.
pub fn perft_from(grid: &Grid, side: Side, depth: u32, fuel: &mut Fuel) -> Result<u64, OutOfFuel> {
    fuel.burn(1)?;
    if depth == 0 {
        return Ok(1);
    }
    let mut nodes = 0;
    for m in grid.legal_moves(side, fuel)? {
        nodes += perft_from(&m.after, side.opponent(), depth - 1, fuel)?;
    }
    Ok(nodes)
}

/// Leaf nodes `depth` plies from the standard start, Red moving first.
pub fn perft(depth: u32, fuel: &mut Fuel) -> Result<u64, OutOfFuel> {
    perft_from(&start_grid(), Side::Red, depth, fuel)
}

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel> {
        solve(self, fuel)
    }
}

#[cfg(test)]
mod tests;
