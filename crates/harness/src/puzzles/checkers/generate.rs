//! The checkers generator: legal positions (often few pieces packed into four
//! rows), mostly legal moves from the reference's move list, played through
//! the reference's check ([`Play`]), and the deliberate near-misses
//! (`mutation.rs`).

use super::*;

/// Places `count` pieces of `side` on free squares drawn from `squares`.
pub(super) fn place(
    u: &mut Unstructured<'_>,
    side: Side,
    count: usize,
    squares: &[u32],
    king_weight: u8,
    taken: &mut [bool; 33],
    keep_empty: &[bool; 33],
) -> arbitrary::Result<Vec<Piece>> {
    let mut pieces = Vec::with_capacity(count);
    for _ in 0..count {
        // A taken square moves the piece to the next free one, so every draw is
        // valid (at most 24 pieces and 4 squares kept empty, on 32 squares).
        let mut square = *u.choose(squares)?;
        while taken[square as usize] || keep_empty[square as usize] {
            square = square % 32 + 1;
        }
        taken[square as usize] = true;
        let king = u.int_in_range(0..=3u8)? < king_weight || side.promotes_on(square);
        pieces.push(Piece {
            square: square as u8,
            king,
        });
    }
    Ok(pieces)
}

/// A position being drawn: the side to move, both sides' pieces, the
/// squares taken, and the squares a move's landings keep empty.
pub(super) struct Drawing {
    pub(super) to_move: Side,
    pub(super) red: Vec<Piece>,
    pub(super) white: Vec<Piece>,
    pub(super) taken: [bool; 33],
    pub(super) keep_empty: [bool; 33],
}

impl Drawing {
    /// The side to move and each side's pieces, the drawing done.
    pub(super) fn finish(self) -> (Side, Vec<Piece>, Vec<Piece>) {
        (self.to_move, self.red, self.white)
    }

    /// An empty board, the side to move drawn.
    pub(super) fn new(u: &mut Unstructured<'_>) -> arbitrary::Result<Drawing> {
        let to_move = if u.arbitrary()? {
            Side::Red
        } else {
            Side::White
        };
        Ok(Drawing {
            to_move,
            red: Vec::new(),
            white: Vec::new(),
            taken: [false; 33],
            keep_empty: [false; 33],
        })
    }

    /// The side to move's pieces and the other side's, with the squares
    /// taken and those kept empty.
    #[allow(clippy::type_complexity)]
    pub(super) fn sides(
        &mut self,
    ) -> (
        &mut Vec<Piece>,
        &mut Vec<Piece>,
        &mut [bool; 33],
        &mut [bool; 33],
    ) {
        let (own, theirs) = match self.to_move {
            Side::Red => (&mut self.red, &mut self.white),
            Side::White => (&mut self.white, &mut self.red),
        };
        (own, theirs, &mut self.taken, &mut self.keep_empty)
    }

    /// More pieces for each side, red first, on free `squares` (kings by
    /// `king_weight`), as many as `count` draws given the side's pieces so
    /// far.
    pub(super) fn add_pieces(
        &mut self,
        u: &mut Unstructured<'_>,
        squares: &[u32],
        king_weight: u8,
        mut count: impl FnMut(&mut Unstructured<'_>, &[Piece]) -> arbitrary::Result<usize>,
    ) -> arbitrary::Result<()> {
        for side in [Side::Red, Side::White] {
            let pieces = match side {
                Side::Red => &mut self.red,
                Side::White => &mut self.white,
            };
            let n = count(u, pieces)?;
            let more = place(
                u,
                side,
                n,
                squares,
                king_weight,
                &mut self.taken,
                &self.keep_empty,
            )?;
            pieces.extend(more);
        }
        Ok(())
    }
}

/// Seeds a tactic for the side to move: a piece and a chain of 1-3 jumps in front
/// of it (opponents on the jumped squares, the landing squares kept empty); when a
/// man's chain reaches its promotion row, one more opponent waits beside the
/// landing square, so that a continued jump after crowning looks tempting.
pub(super) fn seed_jumps(
    u: &mut Unstructured<'_>,
    drawing: &mut Drawing,
    jumps: std::ops::RangeInclusive<u8>,
) -> arbitrary::Result<()> {
    let side = drawing.to_move;
    let (own, theirs, taken, keep_empty) = drawing.sides();
    let king = u.ratio(1, 3)?;
    let mut at = u.int_in_range(1..=32u32)?;
    if !king && side.promotes_on(at) {
        at = 33 - at;
    }
    taken[at as usize] = true;
    own.push(Piece {
        square: at as u8,
        king,
    });
    let put = |square: u32, theirs: &mut Vec<Piece>, taken: &mut [bool; 33]| {
        taken[square as usize] = true;
        theirs.push(Piece {
            square: square as u8,
            king: side.opponent().promotes_on(square),
        });
    };
    let free = |s: u32, taken: &[bool; 33], keep_empty: &[bool; 33]| {
        !taken[s as usize] && !keep_empty[s as usize]
    };
    for _ in 0..u.int_in_range(jumps)? {
        let first = u.choose_index(4)?;
        let jump = (0..4).map(|k| DIAGONALS[(first + k) % 4]).find_map(|d| {
            let allowed = king || d.0 == forward(side);
            let over = diagonal(at, d, 1)?;
            let land = diagonal(at, d, 2)?;
            (allowed && free(over, taken, keep_empty) && free(land, taken, keep_empty))
                .then_some((over, land))
        });
        let Some((over, land)) = jump else {
            break;
        };
        put(over, theirs, taken);
        keep_empty[land as usize] = true;
        at = land;
        if !king && side.promotes_on(at) {
            let bait = DIAGONALS.iter().find_map(|&d| {
                let over = diagonal(at, d, 1)?;
                let land = diagonal(at, d, 2)?;
                (free(over, taken, keep_empty) && free(land, taken, keep_empty))
                    .then_some((over, land))
            });
            if let Some((over, land)) = bait {
                put(over, theirs, taken);
                keep_empty[land as usize] = true;
            }
            break;
        }
    }
    Ok(())
}

/// The reference's check of the case, run as the generator plays it: its legal
/// lists choose the moves, and each move made is checked as the reference's
/// [`Naive::solve_naively`](lockstep_reference::Naive::solve_naively) checks it, so the run at the end is the reference's on
/// the case. When the campaign's fuel runs out on the way, the rest is played
/// with unlimited fuel and no run is handed over: the harness then runs the
/// reference itself, which runs out as well.
pub(super) struct Play {
    pub(super) solving: reference::Solving,
    fuel: Fuel,
    within_fuel: bool,
}

impl Play {
    fn new(fuel: u64) -> Play {
        Play {
            solving: reference::Solving::new(),
            fuel: Fuel::new(fuel),
            within_fuel: true,
        }
    }

    /// The position to move from and its legal moves.
    pub(super) fn moves(&mut self) -> (&Grid, Side, &[reference::LegalMove]) {
        let check = self.solving.instance();
        if self.within_fuel && check.legal_moves(&mut self.fuel).is_err() {
            self.within_fuel = false;
        }
        // Listed above unless the fuel ran out: then listed here, unlimited.
        check
            .legal_moves(&mut Fuel::unlimited())
            .expect("unlimited fuel");
        let (grid, side) = check.position();
        (grid, side, check.listed().expect("listed above"))
    }

    /// Checks the next move of the instance, as the reference would; later
    /// moves of an instance already ruled are written but never checked.
    pub(super) fn check(&mut self, path: &[u32]) {
        if self.solving.instance().is_ruled() {
            return;
        }
        if self.within_fuel {
            match self.solving.check(path, &mut self.fuel) {
                Ok(_) => return,
                Err(OutOfFuel) => self.within_fuel = false,
            }
        }
        self.solving
            .check(path, &mut Fuel::unlimited())
            .expect("unlimited fuel");
    }

    fn finish(self) -> Option<crate::puzzle::ReferenceRun<Answer>> {
        let run = self.solving.finish();
        self.within_fuel.then_some(Ok(run))
    }
}

fn generate_instance(
    u: &mut Unstructured<'_>,
    log: &mut Vec<Mutation>,
    limits: CaseLimits,
    play: &mut Play,
) -> arbitrary::Result<Instance> {
    // One instance in five is built at a rule boundary (boundary.rs).
    if u.ratio(1, 5)? {
        let boundary = *u.choose(&MoveBoundary::ALL)?;
        return boundary_instance(u, boundary, log, play);
    }
    let few = |u: &mut Unstructured<'_>| -> arbitrary::Result<usize> {
        if u.ratio(3, 4)? {
            u.int_in_range(1..=4)
        } else {
            u.int_in_range(1..=MAX_PIECES)
        }
    };
    let mut drawing = Drawing::new(u)?;
    if u.ratio(1, 3)? {
        seed_jumps(u, &mut drawing, 1..=3)?;
    }
    // Four rows (16 squares) somewhere on the board, or the whole board.
    let squares: Vec<u32> = if u.ratio(2, 3)? {
        let top = u.int_in_range(0..=4u32)?;
        (top * 4 + 1..=top * 4 + 16).collect()
    } else {
        (1..=32).collect()
    };
    let king_weight = u.int_in_range(0..=3u8)?;
    drawing.add_pieces(u, &squares, king_weight, |u, pieces| {
        let wanted = few(u)?.clamp(1, MAX_PIECES);
        Ok(wanted
            .min(MAX_PIECES - pieces.len())
            .max(usize::from(pieces.is_empty())))
    })?;
    let (to_move, red, white) = drawing.finish();

    let length = if u.ratio(2, 3)? {
        u.int_in_range(1..=3usize)?
    } else {
        u.int_in_range(1..=8usize)?
    };
    let mutate_at = if u.ratio(3, 10)? {
        Some(u.int_in_range(0..=length - 1)?)
    } else {
        None
    };
    play.solving.start(&red, &white, to_move);
    let mut moves = Vec::new();
    for index in 0..length {
        let (grid, side, legal) = play.moves();
        if Some(index) == mutate_at || legal.is_empty() {
            let first = u.choose_index(Mutation::ALL.len())?;
            for offset in 0..Mutation::ALL.len() {
                let kind = Mutation::ALL[(first + offset) % Mutation::ALL.len()];
                // The only mutation outside the statement: squares off 1..=32.
                if limits == CaseLimits::Original && kind == Mutation::OffBoard {
                    continue;
                }
                if let Some(path) = mutate(u, kind, grid, side, legal)? {
                    log.push(kind);
                    moves.push(Move(path));
                    break;
                }
            }
            // Moves after the invalid one are never applied; keep some anyway.
            for _ in 0..u.int_in_range(0..=2u8)? {
                if legal.is_empty() {
                    break;
                }
                moves.push(Move(u.choose(legal)?.path.clone()));
            }
            // Checked in order as the reference checks them, up to the first
            // invalid one (a mutation may happen to be legal).
            for written in &moves[index..] {
                play.check(&written.0);
            }
            break;
        }
        let path = u.choose(legal)?.path.clone();
        play.check(&path);
        moves.push(Move(path));
    }
    Ok(Instance {
        red,
        white,
        to_move,
        moves,
    })
}

/// A case and the mutations put into it, in order (for the generator-reach test).
pub fn generate_logged(
    u: &mut Unstructured<'_>,
    limits: CaseLimits,
) -> arbitrary::Result<(Case, Vec<Mutation>)> {
    let (case, log, _) = generate_played(u, limits)?;
    Ok((case, log))
}

/// A case, the mutations put into it, and the reference's run on it when its
/// fuel lasted ([`Play`]).
pub(super) type Played = (
    Case,
    Vec<Mutation>,
    Option<crate::puzzle::ReferenceRun<Answer>>,
);

/// A case as [`Played`] says.
pub(super) fn generate_played(
    u: &mut Unstructured<'_>,
    limits: CaseLimits,
) -> arbitrary::Result<Played> {
    generate_played_with_fuel(u, limits, Checkers::FUEL)
}

fn generate_played_with_fuel(
    u: &mut Unstructured<'_>,
    limits: CaseLimits,
    fuel: u64,
) -> arbitrary::Result<Played> {
    let mut log = Vec::new();
    let mut play = Play::new(fuel);
    let count = u.int_in_range(1..=3usize)?;
    let instances = (0..count)
        .map(|_| generate_instance(u, &mut log, limits, &mut play))
        .collect::<arbitrary::Result<Vec<Instance>>>()?;
    Ok((Case { instances }, log, play.finish()))
}

#[cfg(test)]
mod tests;
