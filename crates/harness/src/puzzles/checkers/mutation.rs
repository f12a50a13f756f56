//! The checkers generator's near-misses: the ways it breaks a move on purpose
//! ([`Mutation`]), each built from the position and the reference's list of
//! legal moves.

use super::*;

/// The ways the generator breaks a move on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutation {
    /// A legal multi-jump stopped before its end.
    CutShort,
    /// A legal move with one more square after it.
    Extended,
    /// A simple step while some piece of the side has a jump.
    StepWhenCaptureMandatory,
    /// A man stepping backward.
    ManBackward,
    /// A jump that crowns a man, continued by a further jump.
    ContinueAfterCrowning,
    /// A king jumping back over the piece it has just jumped.
    KingJumpsTwice,
    /// A step to a square not diagonally adjacent.
    OffDiagonal,
    /// A legal move of the side not to move.
    WrongSide,
    /// A legal move with one square replaced by one outside 1..=32.
    OffBoard,
    /// A complete jump followed by a simple step from its landing square
    /// (a boundary published solutions got wrong: the step is accepted).
    StepAfterJump,
    /// A move that crowns a man (by a step or a jump) followed by a simple
    /// step, as the new king would make it.
    StepAfterCrowning,
    /// Two or three simple steps of one piece in one move.
    SeveralSteps,
    /// A king's multi-jump cut where it lands on its own far row (the
    /// promotion row, which does not end a king's move).
    KingStopsOnFarRow,
}

impl Mutation {
    pub const ALL: [Mutation; 13] = [
        Mutation::CutShort,
        Mutation::Extended,
        Mutation::StepWhenCaptureMandatory,
        Mutation::ManBackward,
        Mutation::ContinueAfterCrowning,
        Mutation::KingJumpsTwice,
        Mutation::OffDiagonal,
        Mutation::WrongSide,
        Mutation::OffBoard,
        Mutation::StepAfterJump,
        Mutation::StepAfterCrowning,
        Mutation::SeveralSteps,
        Mutation::KingStopsOnFarRow,
    ];
}

pub(super) fn unlimited_moves(grid: &Grid, side: Side) -> Vec<reference::LegalMove> {
    grid.legal_moves(side, &mut Fuel::unlimited())
        .expect("unlimited fuel")
}

pub(super) fn man_at(grid: &Grid, square: u32) -> Option<reference::Man> {
    let (row, col) = square_to_cell(square)?;
    grid.cells[row][col]
}

/// The square `steps` diagonal steps from `square` in (dr, dc), if on the board.
pub(super) fn diagonal(square: u32, (dr, dc): (i32, i32), steps: i32) -> Option<u32> {
    let (row, col) = square_to_cell(square)?;
    let (r, c) = (row as i32 + dr * steps, col as i32 + dc * steps);
    ((0..8).contains(&r) && (0..8).contains(&c)).then(|| cell_to_square(r as usize, c as usize))
}

pub(super) const DIAGONALS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

pub(super) fn forward(side: Side) -> i32 {
    match side {
        Side::Red => 1,
        Side::White => -1,
    }
}

/// What a mutation of a move looks at: the position before the move, the
/// side to move, its legal moves (the reference's), its pieces' squares,
/// and whether a jump is mandatory.
#[derive(Clone, Copy)]
struct Position<'a> {
    grid: &'a Grid,
    side: Side,
    legal: &'a [reference::LegalMove],
    own: &'a [u32],
    jumps_exist: bool,
}

/// Builds one mutated move of `kind`, if the position allows that kind.
pub(super) fn mutate(
    u: &mut Unstructured<'_>,
    kind: Mutation,
    grid: &Grid,
    side: Side,
    legal: &[reference::LegalMove],
) -> arbitrary::Result<Option<Vec<u32>>> {
    let own: Vec<u32> = (1..=32)
        .filter(|&s| man_at(grid, s).is_some_and(|m| m.side == side))
        .collect();
    // The reference lists jumps only when there is one, so its first move tells.
    let jumps_exist = legal.first().is_some_and(|m| {
        let (a, b) = (square_to_cell(m.path[0]), square_to_cell(m.path[1]));
        matches!((a, b), (Some(a), Some(b)) if a.0.abs_diff(b.0) == 2)
    });
    let position = Position {
        grid,
        side,
        legal,
        own: &own,
        jumps_exist,
    };
    match kind {
        Mutation::CutShort => position.cut_short(u),
        Mutation::Extended => position.extended(u),
        Mutation::StepWhenCaptureMandatory => position.step_when_capture_mandatory(u),
        Mutation::ManBackward => position.man_backward(u),
        Mutation::ContinueAfterCrowning => position.continue_after_crowning(u),
        Mutation::KingJumpsTwice => position.king_jumps_twice(u),
        Mutation::OffDiagonal => position.off_diagonal(u),
        Mutation::WrongSide => position.wrong_side(u),
        Mutation::OffBoard => position.off_board(u),
        Mutation::StepAfterJump => position.step_after_jump(u),
        Mutation::StepAfterCrowning => position.step_after_crowning(u),
        Mutation::SeveralSteps => position.several_steps(u),
        Mutation::KingStopsOnFarRow => position.king_stops_on_far_row(u),
    }
}

/// What a mutation makes: a move, or none when the position does not
/// allow that kind.
type Mutated = arbitrary::Result<Option<Vec<u32>>>;

impl Position<'_> {
    /// A [`Mutation::CutShort`] move.
    fn cut_short(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            let long: Vec<&reference::LegalMove> =
                self.legal.iter().filter(|m| m.path.len() >= 3).collect();
            if long.is_empty() {
                None
            } else {
                let m = u.choose(&long)?;
                let keep = u.int_in_range(2..=m.path.len() - 1)?;
                Some(m.path[..keep].to_vec())
            }
        })
    }

    /// A [`Mutation::Extended`] move.
    fn extended(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            if self.legal.is_empty() {
                None
            } else {
                let m = u.choose(self.legal)?;
                let last = *m.path.last().expect("a path has squares");
                let direction = *u.choose(&DIAGONALS)?;
                let steps = if self.jumps_exist { 2 } else { 1 };
                let next = diagonal(last, direction, steps).unwrap_or(u.int_in_range(1..=32u32)?);
                let mut path = m.path.clone();
                path.push(next);
                Some(path)
            }
        })
    }

    /// A [`Mutation::StepWhenCaptureMandatory`] move.
    fn step_when_capture_mandatory(self, u: &mut Unstructured<'_>) -> Mutated {
        let empty = |s: u32| man_at(self.grid, s).is_none();
        Ok({
            if !self.jumps_exist {
                None
            } else {
                let steps: Vec<Vec<u32>> = self
                    .own
                    .iter()
                    .flat_map(|&s| {
                        let man = man_at(self.grid, s).expect("its own piece");
                        DIAGONALS
                            .iter()
                            .filter(move |d| man.king || d.0 == forward(self.side))
                            .filter_map(move |&d| diagonal(s, d, 1).map(|t| vec![s, t]))
                    })
                    .filter(|p| empty(p[1]))
                    .collect();
                one_of(u, &steps)?
            }
        })
    }

    /// A [`Mutation::ManBackward`] move.
    fn man_backward(self, u: &mut Unstructured<'_>) -> Mutated {
        let backward: Vec<Vec<u32>> = self
            .own
            .iter()
            .filter(|&&s| !man_at(self.grid, s).expect("its own piece").king)
            .flat_map(|&s| {
                DIAGONALS
                    .iter()
                    .filter(|d| d.0 == -forward(self.side))
                    .filter_map(move |&d| diagonal(s, d, 1).map(|t| vec![s, t]))
            })
            .collect();
        one_of(u, &backward)
    }

    /// A [`Mutation::ContinueAfterCrowning`] move.
    fn continue_after_crowning(self, u: &mut Unstructured<'_>) -> Mutated {
        // A man's jump that ends on its promotion row, then one more jump as
        // the new king would have it (over an opponent onto an empty square).
        let mut continued = Vec::new();
        for m in self.legal {
            let start = man_at(self.grid, m.path[0]).expect("a legal move starts on a piece");
            let last = *m.path.last().expect("a path has squares");
            let crowned = !start.king
                && square_to_cell(last)
                    .is_some_and(|(row, _)| row == if self.side == Side::Red { 7 } else { 0 });
            if !crowned || !self.jumps_exist {
                continue;
            }
            for d in DIAGONALS {
                let (Some(over), Some(land)) = (diagonal(last, d, 1), diagonal(last, d, 2)) else {
                    continue;
                };
                let opponent = man_at(&m.after, over).is_some_and(|x| x.side != self.side);
                if opponent && man_at(&m.after, land).is_none() {
                    let mut path = m.path.clone();
                    path.push(land);
                    continued.push(path);
                }
            }
        }
        one_of(u, &continued)
    }

    /// A [`Mutation::KingJumpsTwice`] move.
    fn king_jumps_twice(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            let kings: Vec<&reference::LegalMove> = self
                .legal
                .iter()
                .filter(|m| {
                    self.jumps_exist && man_at(self.grid, m.path[0]).is_some_and(|x| x.king)
                })
                .collect();
            if kings.is_empty() {
                None
            } else {
                // Cut the sequence after some jump and jump straight back.
                let m = u.choose(&kings)?;
                let upto = u.int_in_range(2..=m.path.len())?;
                let mut path = m.path[..upto].to_vec();
                path.push(m.path[upto - 2]);
                Some(path)
            }
        })
    }

    /// A [`Mutation::OffDiagonal`] move.
    fn off_diagonal(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            if self.own.is_empty() {
                None
            } else {
                let from = *u.choose(self.own)?;
                let (row, col) = square_to_cell(from).expect("on the board");
                let off: Vec<u32> = (1..=32)
                    .filter(|&s| {
                        let (r, c) = square_to_cell(s).expect("1..=32");
                        r.abs_diff(row) != c.abs_diff(col) && r.abs_diff(row) <= 2
                    })
                    .collect();
                Some(vec![from, *u.choose(&off)?])
            }
        })
    }

    /// A [`Mutation::WrongSide`] move.
    fn wrong_side(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            let theirs = unlimited_moves(self.grid, self.side.opponent());
            (!theirs.is_empty())
                .then(|| u.choose(&theirs).map(|m| m.path.clone()))
                .transpose()?
        })
    }

    /// A [`Mutation::OffBoard`] move.
    fn off_board(self, u: &mut Unstructured<'_>) -> Mutated {
        Ok({
            let mut path = if self.legal.is_empty() {
                vec![u.int_in_range(1..=32)?, u.int_in_range(1..=32)?]
            } else {
                u.choose(self.legal)?.path.clone()
            };
            let index = u.choose_index(path.len())?;
            path[index] = *u.choose(&[0, 33, 34, 40, 99, 1000])?;
            Some(path)
        })
    }

    /// A [`Mutation::StepAfterJump`] move.
    fn step_after_jump(self, u: &mut Unstructured<'_>) -> Mutated {
        // Only jumps that do not crown: a step after crowning is its own kind.
        let ends: Vec<Vec<u32>> = self
            .legal
            .iter()
            .filter(|m| self.jumps_exist && !crowns(self.grid, self.side, m))
            .flat_map(|m| steps_from(m, self.side, false))
            .collect();
        one_of(u, &ends)
    }

    /// A [`Mutation::StepAfterCrowning`] move.
    fn step_after_crowning(self, u: &mut Unstructured<'_>) -> Mutated {
        let ends: Vec<Vec<u32>> = self
            .legal
            .iter()
            .filter(|m| crowns(self.grid, self.side, m))
            .flat_map(|m| steps_from(m, self.side, true))
            .collect();
        one_of(u, &ends)
    }

    /// A [`Mutation::SeveralSteps`] move.
    fn several_steps(self, u: &mut Unstructured<'_>) -> Mutated {
        // A legal step, then one or two more steps the same piece could
        // make from where it stands (a man that crowned is left out).
        let mut longer: Vec<Vec<u32>> = Vec::new();
        for m in self
            .legal
            .iter()
            .filter(|m| !self.jumps_exist && !crowns(self.grid, self.side, m))
        {
            for second in steps_from(m, self.side, false) {
                longer.push(second.clone());
                let after = man_at(&m.after, second[1]).is_some_and(|x| x.king);
                for d in DIAGONALS {
                    let Some(third) = diagonal(second[2], d, 1) else {
                        continue;
                    };
                    let allowed = after || d.0 == forward(self.side);
                    let free = man_at(&m.after, third).is_none() && !second.contains(&third);
                    if allowed && free {
                        let mut path = second.clone();
                        path.push(third);
                        longer.push(path);
                    }
                }
            }
        }
        one_of(u, &longer)
    }

    /// A [`Mutation::KingStopsOnFarRow`] move.
    fn king_stops_on_far_row(self, u: &mut Unstructured<'_>) -> Mutated {
        let far = |s: u32| self.side.promotes_on(s);
        let mut cut: Vec<Vec<u32>> = Vec::new();
        for m in self.legal {
            let king = man_at(self.grid, m.path[0]).is_some_and(|x| x.king);
            if !king || m.path.len() < 3 {
                continue;
            }
            // Landings on the far row with a further jump after them.
            for keep in 2..m.path.len() {
                if far(m.path[keep - 1]) {
                    cut.push(m.path[..keep].to_vec());
                }
            }
        }
        one_of(u, &cut)
    }
}

/// Whether a legal move crowns the man that makes it.
fn crowns(grid: &Grid, side: Side, m: &reference::LegalMove) -> bool {
    let man = man_at(grid, m.path[0]).is_some_and(|x| !x.king);
    man && side.promotes_on(*m.path.last().expect("a path has squares"))
}

/// A legal move with one simple step appended from where it ends: onto a
/// square empty after the move, in a direction the piece may step as it
/// stands after the move (a crowned man as a king when `as_crowned`).
fn steps_from(m: &reference::LegalMove, side: Side, as_crowned: bool) -> Vec<Vec<u32>> {
    let last = *m.path.last().expect("a path has squares");
    let king = as_crowned || man_at(&m.after, last).is_some_and(|x| x.king);
    DIAGONALS
        .iter()
        .filter(|d| king || d.0 == forward(side))
        .filter_map(|&d| diagonal(last, d, 1))
        .filter(|&to| man_at(&m.after, to).is_none())
        .map(|to| {
            let mut path = m.path.clone();
            path.push(to);
            path
        })
        .collect()
}

/// One of `paths` drawn, or none when there is none (a mutation that does
/// not apply to this position).
fn one_of(u: &mut Unstructured<'_>, paths: &[Vec<u32>]) -> arbitrary::Result<Option<Vec<u32>>> {
    (!paths.is_empty())
        .then(|| u.choose(paths).cloned())
        .transpose()
}
